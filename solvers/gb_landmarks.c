/*
 * gb_landmarks.c -- landmark selection (farthest-point rule) and the
 * node-major distance table of the differential heuristic.
 *
 * See gb_landmarks.h for the data structure, the selection rule and the
 * invariants.  Working memory during the build (freed before returning):
 *   - the legal-move masks, a visited byte per cell and a FIFO of ids for
 *     the component scan that finds the seed;
 *   - one ncells array of doubles for the current Dijkstra (landmark-major,
 *     as gb_dijkstra_all() writes it) and one for the running minimum
 *     distance to the landmarks chosen so far.
 * Each Dijkstra's column is scattered into dist[id * kreq + l] at once; if
 * fewer than kreq landmarks could be chosen the table is compacted in
 * place to stride k at the end.
 */
#include "gb_landmarks.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gb_alloc.h"
#include "gb_dijkstra.h"

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* Smallest id of the largest component of g under m (ties: the component
 * holding the smallest id), or -1 when g has no passable cell.  -2 when
 * memory is short.  Time complexity: O(ncells). */
static int32_t seed_cell(const gb_grid *g, gb_model m)
{
    const size_t n = (size_t)g->ncells;
    uint8_t *moves = gb_malloc(n), *seen = gb_calloc(n, 1);
    int32_t *fifo = gb_malloc(n * sizeof *fifo);
    int32_t best = -1, best_size = 0;
    if (!moves || !seen || !fifo) { best = -2; goto out; }
    gb_grid_moves(g, m, moves);
    for (int32_t s = 0; s < g->ncells; s++) {
        if (!g->pass[s] || seen[s]) continue;
        int32_t head = 0, tail = 0;
        seen[s] = 1;
        fifo[tail++] = s;
        while (head < tail) {
            int32_t c = fifo[head++];
            for (unsigned mv = moves[c]; mv; mv &= mv - 1) {
                int32_t nb = c + g->off[__builtin_ctz(mv)];
                if (!seen[nb]) { seen[nb] = 1; fifo[tail++] = nb; }
            }
        }
        if (tail > best_size) { best_size = tail; best = s; }
    }
out:
    gb_free(moves);
    gb_free(seen);
    gb_free(fifo);
    return best;
}

/* Cell with the largest finite key[] (ties: smallest id), or -1 when no
 * key is finite; *val receives that key. */
static int32_t argmax_finite(const double *key, int32_t n, double *val)
{
    int32_t best = -1;
    double bv = -1.0;
    for (int32_t i = 0; i < n; i++)
        if (key[i] < INFINITY && key[i] > bv) { bv = key[i]; best = i; }
    *val = bv;
    return best;
}

int gb_landmarks_build(gb_landmarks *L, const gb_grid *g, gb_model m, int k)
{
    memset(L, 0, sizeof *L);
    if (k < 0 || k > GB_LANDMARKS_MAX || (unsigned)m >= GB_MODEL_COUNT) {
        errno = EINVAL;
        return -1;
    }
    const double t0 = now_ns();
    L->model = m;
    L->ncells = g->ncells;
    if (k == 0 || g->npassable == 0) {
        L->prep_ns = now_ns() - t0;
        return 0;
    }
    const int32_t seed = seed_cell(g, m);
    if (seed == -2) { errno = ENOMEM; return -1; }
    if (seed < 0) { L->prep_ns = now_ns() - t0; return 0; }

    const size_t n = (size_t)g->ncells, kreq = (size_t)k;
    double *tmp = gb_malloc(n * sizeof *tmp), *mind = gb_malloc(n * sizeof *mind);
    L->lm = gb_malloc(kreq * sizeof *L->lm);
    L->dist = gb_malloc(n * kreq * sizeof *L->dist);
    if (!tmp || !mind || !L->lm || !L->dist) goto nomem;

    double best;
    if (gb_dijkstra_all(g, m, seed, tmp) != 0) goto nomem;
    int32_t cand = argmax_finite(tmp, g->ncells, &best);
    for (size_t i = 0; i < n; i++) mind[i] = INFINITY;

    int chosen = 0;
    while (chosen < k) {
        L->lm[chosen] = cand;
        if (gb_dijkstra_all(g, m, cand, tmp) != 0) goto nomem;
        for (size_t i = 0; i < n; i++) {
            L->dist[i * kreq + (size_t)chosen] = tmp[i];
            if (tmp[i] < mind[i]) mind[i] = tmp[i];
        }
        chosen++;
        if (chosen == k) break;
        cand = argmax_finite(mind, g->ncells, &best);
        if (best <= 0.0) break;   /* every cell of the component is a landmark */
    }

    if ((size_t)chosen < kreq) {
        /* Compact to stride `chosen`: destination index <= source index,
         * both increasing, so a forward copy never reads a written slot. */
        const size_t kc = (size_t)chosen;
        for (size_t i = 0; i < n; i++)
            for (size_t l = 0; l < kc; l++) L->dist[i * kc + l] = L->dist[i * kreq + l];
        double *shrunk = gb_realloc(L->dist, n * kc * sizeof *L->dist);
        if (shrunk) L->dist = shrunk;
    }
    L->k = chosen;
    L->bytes = n * (size_t)chosen * sizeof *L->dist + (size_t)chosen * sizeof *L->lm;
    gb_free(tmp);
    gb_free(mind);
    L->prep_ns = now_ns() - t0;
    return 0;

nomem:
    gb_free(tmp);
    gb_free(mind);
    gb_landmarks_free(L);
    errno = ENOMEM;
    return -1;
}

void gb_landmarks_free(gb_landmarks *L)
{
    gb_free(L->lm);
    gb_free(L->dist);
    memset(L, 0, sizeof *L);
}
