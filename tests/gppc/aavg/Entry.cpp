// Entry.cpp -- gridbench's own GPPC any-angle test entry: an exact
// visibility-graph search behind the any-angle API, built by
// tests/test_gppcaa.c with `gridbench gppc build`.
//
// The model is GPPC's any-angle one (docs/anyangle.md): cell (x, y) is the
// square [x, x+1] x [y, y+1], blocked squares are solid, the outside is
// blocked.  A shortest path bends only at convex corners (lattice points
// with exactly one blocked cell around them), so Dijkstra over the convex
// corners, the start and the goal, with an edge for every legal segment,
// is exact.  Edges are found on the fly: O(V) segment tests per expansion,
// each O(length): for small test maps only.
//
// A segment a-b between lattice points is legal when (R2) the middle of
// every piece between two grid-line crossings lies in a free cell, or for
// an axis-parallel segment every unit piece has a free cell on one side
// (R3), and (R4) no lattice point strictly inside it is a double corner.
// A start or goal on a double corner is left or entered from its
// south-east quadrant only (V2).  All in integers.
//
//   PreprocessMap     writes the convex corners to `filename`
//                     ("gppc-aa-test-index 1 W H N\n" + "x y\n" each)
//   PrepareForSearch  reads them back (aborts when the file is missing or
//                     of another map: the index cache must have run)
//   GetPath           answers in two calls when the path has more than two
//                     waypoints: the first half, then the rest
//
// $GB_AA_TEST_VARIANT, read by PrepareForSearch, breaks it (one build
// serves every variant, so a test compiles the entry once):
//   1  blocked: the straight segment start-goal, whatever lies between
//   2  off-lattice: a waypoint added in the middle of the first segment,
//      moved by (0.25, 0.25): far from every corner
//   3  longer: a path of unit steps along grid lines, around double
//      corners (legal, longer)
//   4  jitter: every waypoint moved by 4e-7 (within gridbench's 1e-6)
#include "Entry.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <queue>
#include <utility>

namespace {

struct pt {
    int x, y;
};

struct search_data {
    int w = 0, h = 0;
    std::vector<bool> free;     // free[y*w+x]: cell (x, y) passable
    std::vector<pt> corners;    // the convex corners (from the index)
    int variant = 0;            // $GB_AA_TEST_VARIANT (0: none)
    std::vector<xyLoc> answer;  // the current query's waypoints
    size_t handed = 0;          // how many of them GetPath has appended
};

bool cell_free(const search_data &d, int x, int y)
{
    return x >= 0 && y >= 0 && x < d.w && y < d.h && d.free[(size_t)y * d.w + x];
}

// The four cells around lattice point (x, y): NW, NE, SW, SE blocked?
void around(const search_data &d, int x, int y, bool b[4])
{
    b[0] = !cell_free(d, x - 1, y - 1);
    b[1] = !cell_free(d, x, y - 1);
    b[2] = !cell_free(d, x - 1, y);
    b[3] = !cell_free(d, x, y);
}

bool double_corner(const search_data &d, int x, int y)
{
    bool b[4];
    around(d, x, y, b);
    return (b[0] && b[3] && !b[1] && !b[2]) || (b[1] && b[2] && !b[0] && !b[3]);
}

bool convex_corner(const search_data &d, int x, int y)
{
    bool b[4];
    around(d, x, y, b);
    return b[0] + b[1] + b[2] + b[3] == 1;
}

int gcd(int a, int b) { return b ? gcd(b, a % b) : a; }

// R2-R4 for the segment a-b (a != b, both on the map's lattice).
bool legal(const search_data &d, pt a, pt b)
{
    int dx = b.x - a.x, dy = b.y - a.y, nx = std::abs(dx), ny = std::abs(dy);
    if (dy == 0 || dx == 0) {   // along a grid line: one side free on every unit piece
        int n = nx + ny, sx = (dx > 0) - (dx < 0), sy = (dy > 0) - (dy < 0);
        for (int k = 0; k < n; k++) {
            int x = a.x + k * sx, y = a.y + k * sy;
            bool one, two;
            if (dy == 0) {
                int cx = sx > 0 ? x : x - 1;
                one = cell_free(d, cx, y - 1);
                two = cell_free(d, cx, y);
            } else {
                int cy = sy > 0 ? y : y - 1;
                one = cell_free(d, x - 1, cy);
                two = cell_free(d, x, cy);
            }
            if (!one && !two) return false;
        }
    } else {   // cut at every grid line, in units of 1/(nx*ny) of the segment
        long long D = (long long)nx * ny;
        long long i = 0, j = 0, prev = 0;
        while (prev < D) {
            long long ci = (i + 1) * ny, cj = (j + 1) * nx, next = std::min(ci, cj);
            if (ci == next) i++;
            if (cj == next) j++;
            long long m = prev + next;   // the piece's middle, in units of 1/(2D)
            long long px = 2 * D * a.x + dx * m, py = 2 * D * a.y + dy * m;
            if (!cell_free(d, (int)(px / (2 * D)), (int)(py / (2 * D)))) return false;
            prev = next;
        }
    }
    int g = gcd(nx, ny);
    for (int k = 1; k < g; k++)
        if (double_corner(d, a.x + k * (dx / g), a.y + k * (dy / g))) return false;
    return true;
}

// legal(), plus V2 at the ends that are the query's start or goal.
bool edge(const search_data &d, pt a, pt b, pt s, pt t)
{
    if (a.x == b.x && a.y == b.y) return false;
    for (int e = 0; e < 2; e++) {
        pt p = e ? b : a, q = e ? a : b;
        bool end = (p.x == s.x && p.y == s.y) || (p.x == t.x && p.y == t.y);
        if (end && double_corner(d, p.x, p.y) && (q.x < p.x || q.y < p.y)) return false;
    }
    return legal(d, a, b);
}

double dist(pt a, pt b) { return std::hypot((double)(a.x - b.x), (double)(a.y - b.y)); }

// Dijkstra over the convex corners, s and t: the waypoints, or none.
std::vector<pt> shortest(const search_data &d, pt s, pt t)
{
    std::vector<pt> node(d.corners);
    size_t si = node.size(), ti = si + 1;
    node.push_back(s);
    node.push_back(t);
    std::vector<double> g(node.size(), INFINITY);
    std::vector<size_t> parent(node.size(), (size_t)-1);
    std::vector<bool> closed(node.size(), false);
    typedef std::pair<double, size_t> item;
    std::priority_queue<item, std::vector<item>, std::greater<item>> open;
    g[si] = 0;
    open.push({ dist(s, t), si });
    while (!open.empty()) {
        size_t u = open.top().second;
        open.pop();
        if (closed[u]) continue;
        closed[u] = true;
        if (u == ti) break;
        for (size_t v = 0; v < node.size(); v++) {
            if (closed[v]) continue;
            double c = g[u] + dist(node[u], node[v]);
            if (c >= g[v] || !edge(d, node[u], node[v], s, t)) continue;
            g[v] = c;
            parent[v] = u;
            open.push({ c + dist(node[v], t), v });
        }
    }
    std::vector<pt> path;
    if (!closed[ti]) return path;
    for (size_t v = ti; v != (size_t)-1; v = parent[v]) path.push_back(node[v]);
    std::reverse(path.begin(), path.end());
    return path;
}

// Breadth-first search over lattice points, unit steps along grid lines.
std::vector<pt> unit_steps(const search_data &d, pt s, pt t)
{
    int W = d.w + 1, H = d.h + 1;
    std::vector<int> from((size_t)W * H, -1);
    std::queue<int> q;
    from[(size_t)s.y * W + s.x] = s.y * W + s.x;
    q.push(s.y * W + s.x);
    const int step[4][2] = { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 } };
    while (!q.empty()) {
        int u = q.front();
        q.pop();
        pt a = { u % W, u / W };
        if (a.x == t.x && a.y == t.y) break;
        for (const auto &st : step) {
            pt b = { a.x + st[0], a.y + st[1] };
            if (b.x < 0 || b.y < 0 || b.x >= W || b.y >= H || from[(size_t)b.y * W + b.x] >= 0) continue;
            // a double corner is no place to pass through (V1): the goal only
            if (!edge(d, a, b, s, t) || (double_corner(d, b.x, b.y) && !(b.x == t.x && b.y == t.y)))
                continue;
            from[(size_t)b.y * W + b.x] = u;
            q.push(b.y * W + b.x);
        }
    }
    std::vector<pt> path;
    if (from[(size_t)t.y * W + t.x] < 0) return path;
    for (int v = t.y * W + t.x;; v = from[v]) {
        path.push_back(pt{ v % W, v / W });
        if (v == s.y * W + s.x) break;
    }
    std::reverse(path.begin(), path.end());
    return path;
}

std::string header(int w, int h, size_t n)
{
    char b[96];
    std::snprintf(b, sizeof b, "gppc-aa-test-index 1 %d %d %zu\n", w, h, n);
    return b;
}

}  // namespace

void PreprocessMap(const std::vector<bool> &bits, int width, int height, const std::string &filename)
{
    search_data d;
    d.w = width;
    d.h = height;
    d.free = bits;
    std::vector<pt> c;
    for (int y = 0; y <= height; y++)
        for (int x = 0; x <= width; x++)
            if (convex_corner(d, x, y)) c.push_back(pt{ x, y });
    FILE *f = std::fopen(filename.c_str(), "w");
    if (!f) std::abort();
    std::fputs(header(width, height, c.size()).c_str(), f);
    for (const pt &p : c) std::fprintf(f, "%d %d\n", p.x, p.y);
    if (std::fclose(f) != 0) std::abort();
}

void *PrepareForSearch(const std::vector<bool> &bits, int width, int height, const std::string &filename)
{
    search_data *d = new search_data;
    d->w = width;
    d->h = height;
    d->free = bits;
    const char *v = std::getenv("GB_AA_TEST_VARIANT");
    d->variant = v ? std::atoi(v) : 0;
    FILE *f = std::fopen(filename.c_str(), "r");
    if (!f) std::abort();   // the index must exist: PreprocessMap ran
    int w = 0, h = 0;
    size_t n = 0;
    if (std::fscanf(f, "gppc-aa-test-index 1 %d %d %zu", &w, &h, &n) != 3 || w != width || h != height)
        std::abort();
    for (size_t i = 0; i < n; i++) {
        pt p;
        if (std::fscanf(f, "%d %d", &p.x, &p.y) != 2 || !convex_corner(*d, p.x, p.y)) std::abort();
        d->corners.push_back(p);
    }
    std::fclose(f);
    return d;
}

bool GetPath(void *data, xyLoc s, xyLoc g, std::vector<xyLoc> &path)
{
    search_data *d = static_cast<search_data *>(data);
    if (path.empty()) {   // a new query: search, then hand out in parts
        d->answer.clear();
        d->handed = 0;
        pt sp = { (int)s.x, (int)s.y }, tp = { (int)g.x, (int)g.y };
        if (sp.x == tp.x && sp.y == tp.y) return true;   // GPPC: the empty path
        std::vector<pt> p;
        if (d->variant == 1) p = { sp, tp };
        else if (d->variant == 3) p = unit_steps(*d, sp, tp);
        if (p.empty()) p = shortest(*d, sp, tp);
        for (const pt &q : p) d->answer.push_back(xyLoc{ (double)q.x, (double)q.y });
        if (d->variant == 2 && d->answer.size() >= 2) {
            xyLoc m = { (d->answer[0].x + d->answer[1].x) / 2 + 0.25, (d->answer[0].y + d->answer[1].y) / 2 + 0.25 };
            d->answer.insert(d->answer.begin() + 1, m);
        }
        if (d->variant == 4)
            for (size_t i = 0; i < d->answer.size(); i++) {
                d->answer[i].x += i % 2 ? 4e-7 : -4e-7;
                d->answer[i].y += i % 3 ? -4e-7 : 4e-7;
            }
        if (d->answer.empty()) return true;   // no path
        size_t first = d->answer.size() > 2 ? (d->answer.size() + 1) / 2 : d->answer.size();
        path.insert(path.end(), d->answer.begin(), d->answer.begin() + (long)first);
        d->handed = first;
        return d->handed == d->answer.size();
    }
    path.insert(path.end(), d->answer.begin() + (long)d->handed, d->answer.end());
    d->handed = d->answer.size();
    return true;
}

std::string GetName() { return "aa-visgraph"; }
