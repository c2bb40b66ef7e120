/*
 * gb_dijkstra.c -- gb_dijkstra_all: Dijkstra from one cell until the open
 * list is empty.
 *
 * Data: the legal-move masks of the model, a state byte per cell (0 not
 * reached, 1 open, 2 closed), and the exact bucket queue of
 * gb_pq_bucket.h keyed by the exact cost key D(a, b) of gb_exact.h
 * (fk = D(g), gk = ~D(g)): the fastest exact queue on Dijkstra.  While
 * the search runs, dist[] holds the keys (8 bytes each, read and written
 * through memcpy); at the end every key becomes its cost a + b*GB_SQRT2
 * (gb_exact_cost) and every unreached cell INFINITY.
 *
 * Invariant: the key of an open cell is the best found so far, that of a
 * closed one final.  Every reached cell is popped and closed before the
 * queue runs empty, so at the end dist[] holds exactly the shortest costs
 * and INFINITY elsewhere.  Exact keys compare like the real costs
 * (gb_exact.h), so no rounding decides anything and the result equals
 * the `dijkstra` solver's cost bit for bit on every queue: both decode the
 * same (a, b).
 *
 * A grid of more than GB_EXACT_MAX_CELLS cells (outside the keys' proven
 * domain) runs the same loop on doubles with the lazy binary heap.
 *
 * Terrain costs (gb_terrain.h): a move adds its units (gb_grid_units)
 * times S or T, and the cost decodes as (A + B sqrt2) / cscale; each
 * loop is compiled twice, with and without costs (WT), so the uniform
 * loop has no test per edge.
 *
 * Time complexity: O(E) expected with the bucket queue (E <= 8V),
 * O(E log V) with the heap.  Memory: 2 bytes per cell plus the queue,
 * freed before returning.
 */
#include "gb_dijkstra.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "gb_alloc.h"
#include "gb_exact.h"
#include "gb_pq_bheap.h"
#include "gb_pq_bucket.h"

static inline uint64_t key_ld(const double *p)
{
    uint64_t u;
    memcpy(&u, p, sizeof u);
    return u;
}

static inline void key_st(double *p, uint64_t u) { memcpy(p, &u, sizeof u); }

/* Exact keys on the bucket queue; dist[] holds keys until the end. */
static inline __attribute__((always_inline)) int
dijkstra_exact(const gb_grid *g, const uint8_t *moves, uint8_t *state, int32_t src, double *dist,
               const int WT)
{
    static const uint64_t kcost[8] = { GB_EXACT_S, GB_EXACT_S, GB_EXACT_S, GB_EXACT_S,
                                       GB_EXACT_T, GB_EXACT_T, GB_EXACT_T, GB_EXACT_T };
    const size_t n = (size_t)g->ncells;
    gb_bucket q;
    if (gb_bucket_init(&q, g->ncells) != 0) return -1;
    key_st(&dist[src], 0);
    state[src] = 1;
    gb_bucket_pushk_dij(&q, src, 0, ~(uint64_t)0);
    while (!gb_bucket_empty(&q)) {
        const int32_t id = gb_bucket_pop_dij(&q);
        if (state[id] == 2) continue;         /* stale: the queue is lazy */
        state[id] = 2;
        const uint64_t gid = key_ld(&dist[id]);
        for (unsigned mv = moves[id]; mv; mv &= mv - 1) {
            const int k = __builtin_ctz(mv);
            const int32_t nb = id + g->off[k];
            if (state[nb] == 2) continue;
            const uint64_t ng = gid + (WT ? gb_grid_units(g, id, k) * kcost[k] : kcost[k]);
            if (state[nb] == 1) {
                if (ng >= key_ld(&dist[nb])) continue;
                key_st(&dist[nb], ng);
                gb_bucket_decreasek_dij(&q, nb, ng, ~ng);
            } else {
                state[nb] = 1;
                key_st(&dist[nb], ng);
                gb_bucket_pushk_dij(&q, nb, ng, ~ng);
            }
        }
    }
    gb_bucket_free(&q);
    for (size_t i = 0; i < n; i++)
        dist[i] = state[i] != 2 ? INFINITY
                : WT ? gb_exact_cost_scaled(key_ld(&dist[i]), g->cscale) : gb_exact_cost(key_ld(&dist[i]));
    return 0;
}

/* Doubles on the lazy binary heap (grids beyond the exact keys' domain). */
static inline __attribute__((always_inline)) int
dijkstra_double(const gb_grid *g, const uint8_t *moves, uint8_t *state, int32_t src, double *dist,
                const int WT)
{
    const size_t n = (size_t)g->ncells;
    gb_bheap q;
    if (gb_bheap_init(&q, g->ncells) != 0) return -1;
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
            const double ng = gid + (WT ? (double)gb_grid_units(g, id, k) * gb_dir_cost[k]
                                               / (double)g->cscale : gb_dir_cost[k]);
            if (state[nb] == 1 && ng >= dist[nb]) continue;
            state[nb] = 1;
            dist[nb] = ng;
            gb_bheap_push(&q, nb, ng, ng);   /* lazy: an improvement re-pushes */
        }
    }
    gb_bheap_free(&q);
    return 0;
}

int gb_dijkstra_all(const gb_grid *g, gb_model m, int32_t src, double *dist)
{
    const size_t n = (size_t)g->ncells;
    uint8_t *moves = gb_malloc(n), *state = gb_calloc(n, 1);
    int rc = -1;
    if (moves && state) {
        gb_grid_moves(g, m, moves);
        const int ex = gb_grid_exact_ok(g);
        if (g->cost)
            rc = ex ? dijkstra_exact(g, moves, state, src, dist, 1)
                    : dijkstra_double(g, moves, state, src, dist, 1);
        else
            rc = ex ? dijkstra_exact(g, moves, state, src, dist, 0)
                    : dijkstra_double(g, moves, state, src, dist, 0);
    }
    gb_free(moves);
    gb_free(state);
    if (rc != 0) errno = ENOMEM;
    return rc;
}
