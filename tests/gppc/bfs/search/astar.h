// astar.h -- A* on an 8-connected grid without corner cutting, octile
// costs (1 straight, sqrt 2 diagonal), octile heuristic: optimal.
#ifndef GB_TEST_ASTAR_H
#define GB_TEST_ASTAR_H

#include <cstdint>
#include <vector>

struct astar_map {
    int w = 0, h = 0;
    std::vector<bool> pass;       // [y*w+x]
    std::vector<int32_t> comp;    // connected component of each cell, -1 blocked
};

// Label the 8-connected (no corner cutting) components of m.pass into m.comp.
void astar_components(astar_map &m);

// The cells of a shortest path s..g (ids y*w+x, both ends included), or
// an empty vector when there is none.  diag_cost: sqrt 2 for optimal
// paths; anything larger gives valid, longer ones.
std::vector<int32_t> astar_path(const astar_map &m, int32_t s, int32_t g, double diag_cost);

#endif
