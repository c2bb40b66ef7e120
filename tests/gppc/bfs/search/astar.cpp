// astar.cpp -- see astar.h.  Time O(cells log cells) per query.
#include "astar.h"

#include <cmath>
#include <cstdlib>
#include <queue>
#include <utility>

namespace {

const int DX[8] = { 0, 1, 0, -1, 1, 1, -1, -1 };
const int DY[8] = { -1, 0, 1, 0, -1, 1, 1, -1 };

bool open_at(const astar_map &m, int x, int y)
{
    return x >= 0 && y >= 0 && x < m.w && y < m.h && m.pass[(size_t)y * m.w + x];
}

// Is the move k from (x, y) legal (target open, and both cells a diagonal passes)?
bool legal(const astar_map &m, int x, int y, int k)
{
    int nx = x + DX[k], ny = y + DY[k];
    if (!open_at(m, nx, ny)) return false;
    return k < 4 || (open_at(m, nx, y) && open_at(m, x, ny));
}

}  // namespace

void astar_components(astar_map &m)
{
    m.comp.assign((size_t)m.w * m.h, -1);
    int32_t next = 0;
    std::vector<int32_t> stack;
    for (int32_t c = 0; c < m.w * m.h; c++) {
        if (!m.pass[c] || m.comp[c] >= 0) continue;
        m.comp[c] = next;
        stack.push_back(c);
        while (!stack.empty()) {
            int32_t u = stack.back();
            stack.pop_back();
            int x = u % m.w, y = u / m.w;
            for (int k = 0; k < 8; k++) {
                if (!legal(m, x, y, k)) continue;
                int32_t v = (y + DY[k]) * m.w + x + DX[k];
                if (m.comp[v] < 0) { m.comp[v] = next; stack.push_back(v); }
            }
        }
        next++;
    }
}

std::vector<int32_t> astar_path(const astar_map &m, int32_t s, int32_t g, double diag_cost)
{
    std::vector<int32_t> out;
    if (m.comp[s] < 0 || m.comp[s] != m.comp[g]) return out;
    size_t n = (size_t)m.w * m.h;
    std::vector<double> dist(n, INFINITY);
    std::vector<int32_t> parent(n, -1);
    std::vector<bool> closed(n, false);
    int gx = g % m.w, gy = g / m.w;
    auto h = [&](int32_t c) {
        int dx = std::abs(c % m.w - gx), dy = std::abs(c / m.w - gy);
        int lo = dx < dy ? dx : dy, hi = dx < dy ? dy : dx;
        return (hi - lo) + lo * diag_cost;
    };
    typedef std::pair<double, int32_t> item;   // (f, cell)
    std::priority_queue<item, std::vector<item>, std::greater<item>> open;
    dist[s] = 0;
    open.push(item(h(s), s));
    while (!open.empty()) {
        int32_t u = open.top().second;
        open.pop();
        if (closed[u]) continue;
        closed[u] = true;
        if (u == g) break;
        int x = u % m.w, y = u / m.w;
        for (int k = 0; k < 8; k++) {
            if (!legal(m, x, y, k)) continue;
            int32_t v = (y + DY[k]) * m.w + x + DX[k];
            double nd = dist[u] + (k < 4 ? 1.0 : diag_cost);
            if (nd < dist[v] - 1e-12) {
                dist[v] = nd;
                parent[v] = u;
                open.push(item(nd + h(v), v));
            }
        }
    }
    for (int32_t c = g; c >= 0; c = c == s ? -1 : parent[c]) out.push_back(c);
    std::vector<int32_t> fwd(out.rbegin(), out.rend());
    return fwd;
}
