// Entry.cpp -- gridbench's own GPPC test entry: optimal A* (search/astar.h)
// behind the GPPC API, built by tests/test_gppc.c with `gridbench gppc
// build`.  The folder keeps the name the issue gave it (bfs); the search
// is A* with octile costs so that its answers are optimal.
//
//   PreprocessMap     writes the map's connected components to `filename`
//                     ("gppc-test-index 1 W H\n" + one int32 per cell)
//   PrepareForSearch  reads them back (aborts when the file is missing or
//                     of another map: the index cache must have run)
//   GetPath           answers in pieces: the first call searches and hands
//                     out about a third of the waypoints, each further call
//                     the next third, so a query takes 2-3 calls
//
// $GB_GPPC_TEST_LOG names a file that PreprocessMap and PrepareForSearch
// append a line to ("preprocess WxH", "prepare WxH"), so a test can count
// them.  $GB_BFS_VARIANT, read by PrepareForSearch, breaks it (one build
// serves every variant; a compile of its own would cost seconds each):
//   1  bad segment: a corner waypoint dropped where the merged segment is
//      neither straight nor diagonal
//   2  crash: abort() on queries whose start has (x + y) % 3 == 0
//   3  wrong length: diagonal moves cost 2 in its search (valid, longer paths)
#include "Entry.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "astar.h"

namespace {

struct search_data {
    astar_map map;
    std::vector<xyLoc> answer;   // the current query's waypoints
    size_t handed = 0;           // how many of them GetPath has appended
    int variant = 0;             // $GB_BFS_VARIANT (0: none)
};

void log_line(const char *what, int w, int h)
{
    const char *p = std::getenv("GB_GPPC_TEST_LOG");
    if (!p || !*p) return;
    FILE *f = std::fopen(p, "a");
    if (!f) return;
    std::fprintf(f, "%s %dx%d\n", what, w, h);
    std::fclose(f);
}

// Waypoints of a cell path: its ends and every cell where the direction changes.
std::vector<xyLoc> waypoints(const std::vector<int32_t> &cells, int w)
{
    std::vector<xyLoc> out;
    for (size_t i = 0; i < cells.size(); i++) {
        bool keep = i == 0 || i + 1 == cells.size();
        if (!keep) {
            int32_t a = cells[i] - cells[i - 1], b = cells[i + 1] - cells[i];
            keep = a != b;
        }
        if (keep) {
            xyLoc l;
            l.x = (int16_t)(cells[i] % w);
            l.y = (int16_t)(cells[i] / w);
            out.push_back(l);
        }
    }
    return out;
}

void drop_a_corner(std::vector<xyLoc> &wp)
{
    for (size_t i = 1; i + 1 < wp.size(); i++) {
        int dx = wp[i + 1].x - wp[i - 1].x, dy = wp[i + 1].y - wp[i - 1].y;
        if (dx && dy && std::abs(dx) != std::abs(dy)) {
            wp.erase(wp.begin() + (long)i);
            return;
        }
    }
}

}  // namespace

void PreprocessMap(const std::vector<bool> &bits, int width, int height, const std::string &filename)
{
    log_line("preprocess", width, height);
    astar_map m;
    m.w = width;
    m.h = height;
    m.pass = bits;
    astar_components(m);
    FILE *f = std::fopen(filename.c_str(), "wb");
    if (!f) std::abort();
    std::fprintf(f, "gppc-test-index 1 %d %d\n", width, height);
    std::fwrite(m.comp.data(), sizeof(int32_t), m.comp.size(), f);
    if (std::fclose(f) != 0) std::abort();
}

void *PrepareForSearch(const std::vector<bool> &bits, int width, int height, const std::string &filename)
{
    log_line("prepare", width, height);
    search_data *d = new search_data;
    d->map.w = width;
    d->map.h = height;
    d->map.pass = bits;
    const char *v = std::getenv("GB_BFS_VARIANT");
    d->variant = v ? std::atoi(v) : 0;
    FILE *f = std::fopen(filename.c_str(), "rb");
    int w = 0, h = 0;
    if (!f || std::fscanf(f, "gppc-test-index 1 %d %d", &w, &h) != 2 || w != width || h != height
        || std::fgetc(f) != '\n')
        std::abort();   // the index must exist: gridbench ran PreprocessMap first
    d->map.comp.resize((size_t)w * h);
    if (std::fread(d->map.comp.data(), sizeof(int32_t), d->map.comp.size(), f) != d->map.comp.size())
        std::abort();
    std::fclose(f);
    return d;
}

bool GetPath(void *data, xyLoc s, xyLoc g, std::vector<xyLoc> &path)
{
    search_data *d = static_cast<search_data *>(data);
    if (path.empty()) {   // a new query
        if (d->variant == 2 && (s.x + s.y) % 3 == 0) std::abort();
        d->answer.clear();
        d->handed = 0;
        int w = d->map.w;
        if (s.x == g.x && s.y == g.y) return true;   // GPPC: empty path
        double diag = d->variant == 3 ? 2.0 : 1.4142135623730951;
        std::vector<int32_t> cells = astar_path(d->map, s.y * w + s.x, g.y * w + g.x, diag);
        if (cells.empty()) return true;              // no path: empty
        d->answer = waypoints(cells, w);
        if (d->variant == 1) drop_a_corner(d->answer);
    }
    size_t piece = (d->answer.size() + 2) / 3;
    for (size_t k = 0; k < piece && d->handed < d->answer.size(); k++) path.push_back(d->answer[d->handed++]);
    return d->handed == d->answer.size();
}

std::string GetName()
{
    return "gppc-test-astar";
}
