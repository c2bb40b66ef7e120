/*
 * gb_dijkstra.c -- gb_dijkstra_all: Dijkstra from one cell until the open
 * list is empty.
 *
 * Data: the legal-move masks of the model, a state byte per cell (0 not
 * reached, 1 open, 2 closed), and the lazy binary heap of gb_pq_bheap.h
 * keyed by (g, g); the caller's dist[] is the g array.  A popped closed
 * cell is a stale heap entry and is skipped.
 *
 * Invariant: dist[c] is the best cost found so far for an open cell, the
 * final cost for a closed one, INFINITY for a cell not reached.  Every
 * reached cell is popped and closed before the heap runs empty, so at the
 * end dist[] holds exactly the shortest costs and INFINITY elsewhere.
 *
 * Why it equals the `dijkstra` solver bit for bit: the search core of
 * gb_search_core.pmt with h = 0, wg = wh = 1 pushes the key 1*g + 1*0 =
 * g, relaxes the moves in the same order (directions 0..7, strict
 * improvement only) and pops from the same queue under the same ordering
 * rule (gb_pq.h), so every g is the same sum of the same step costs.
 *
 * Time complexity: O(E log V), E <= 8V.  Memory: 2 bytes per cell plus
 * the heap (8 entries of 24 bytes per cell), freed before returning.
 */
#include "gb_dijkstra.h"

#include <errno.h>
#include <math.h>

#include "gb_alloc.h"
#include "gb_pq_bheap.h"

int gb_dijkstra_all(const gb_grid *g, gb_model m, int32_t src, double *dist)
{
    const size_t n = (size_t)g->ncells;
    uint8_t *moves = gb_malloc(n), *state = gb_calloc(n, 1);
    gb_bheap q;
    int rc = -1;
    if (!moves || !state || gb_bheap_init(&q, g->ncells) != 0) {
        gb_free(moves);
        gb_free(state);
        errno = ENOMEM;
        return -1;
    }
    gb_grid_moves(g, m, moves);
    for (size_t i = 0; i < n; i++) dist[i] = INFINITY;
    dist[src] = 0.0;
    state[src] = 1;
    gb_bheap_push(&q, src, 0.0, 0.0);
    while (!gb_bheap_empty(&q)) {
        const int32_t id = gb_bheap_pop(&q);
        if (state[id] == 2) continue;   /* stale */
        state[id] = 2;
        const double gid = dist[id];
        for (unsigned mv = moves[id]; mv; mv &= mv - 1) {
            const int k = __builtin_ctz(mv);
            const int32_t nb = id + g->off[k];
            if (state[nb] == 2) continue;
            const double ng = gid + gb_dir_cost[k];
            if (state[nb] == 1 && ng >= dist[nb]) continue;
            state[nb] = 1;
            dist[nb] = ng;
            gb_bheap_push(&q, nb, ng, ng);   /* lazy: an improvement re-pushes */
        }
    }
    rc = 0;
    gb_bheap_free(&q);
    gb_free(moves);
    gb_free(state);
    return rc;
}
