/*
 * gb_landmarks.h -- differential heuristics (ALT landmarks): k landmark
 * cells, their exact distances to every cell, and the lower bound
 *     h(n, goal) = max over l of | d(L_l, n) - d(L_l, goal) |.
 *
 * Data structure
 *   lm[0..k) are the landmark cell ids in selection order.  dist holds
 *   ncells * k doubles stored node-major: dist[id * k + l] = d(lm[l], id),
 *   the shortest cost under the model the table was built for, so the k
 *   values of one node are contiguous and gb_landmarks_h() reads two short
 *   runs of memory.  Blocked cells, border cells and cells outside the
 *   landmarks' component hold INFINITY (as gb_dijkstra_all() gives them).
 *
 * Selection (farthest-point rule, deterministic)
 *   1. Components are the connected components under the model's legal
 *      moves.  The landmarks' component C is the largest one (ties: the
 *      one holding the smallest cell id); its smallest id is the seed.
 *      (The brief's "first passable cell" would put every landmark in a
 *      one-cell pocket on maps such as random512-10-0; the largest
 *      component is what queries use.)
 *   2. lm[0] is the cell of C farthest from the seed (one Dijkstra).
 *   3. lm[j] is the cell of C maximizing min over i < j of d(lm[i], n).
 *   Ties go to the smallest id throughout (ascending scan, strict >).
 *   When C has fewer than the requested k cells, selection stops when the
 *   best minimum distance is 0 (every cell of C chosen): k is then |C|.
 *
 * Invariants of a built table
 *   - 0 <= k <= GB_LANDMARKS_MAX; lm and dist are NULL exactly when k = 0
 *     (a grid without passable cells, or k = 0 requested).
 *   - For every id, dist[id*k + l] is finite for all l or for none (all
 *     landmarks share one component): finite exactly on C.
 *   - dist[lm[l] * k + l] == 0.
 *
 * Cells outside C: every landmark distance is INFINITY, and
 * gb_landmarks_h() skips a landmark whose difference is not finite, so h
 * is 0 for any node or goal outside C.  That is still admissible (0 <= any
 * h*; and a goal in another component is unreachable anyway) and
 * consistent; the heuristic is simply uninformed there.
 *
 * Admissibility and consistency hold by the triangle inequality (the grid
 * is undirected with symmetric costs): |d(L,n) - d(L,g)| <= d(n,g) and
 * |d(L,n) - d(L,n')| <= c(n,n').  In floating point both hold up to the
 * rounding of the Dijkstra sums (a few ulps of the distances involved).
 *
 * Time complexity: (k + 1) Dijkstras plus O(k * ncells) for the selection
 * and the transposition into node-major order.  Memory: ncells * k
 * doubles (padding included, so ids index the table directly).
 *
 * No I/O: failures are reported through the return value and errno.
 */
#ifndef GB_LANDMARKS_H
#define GB_LANDMARKS_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "gb_grid.h"

/* Largest number of landmarks accepted by gb_landmarks_build(). */
#define GB_LANDMARKS_MAX 64

typedef struct gb_landmarks {
    int k;            /* landmarks actually chosen (<= the k requested) */
    gb_model model;   /* movement model the distances were computed for */
    int32_t ncells;   /* ncells of the grid: dist has ncells * k entries */
    int32_t *lm;      /* k landmark ids, in selection order (NULL if k = 0) */
    double *dist;     /* node-major: dist[id * k + l] = d(lm[l], id), or
                         INFINITY off the landmarks' component */
    double prep_ns;   /* wall time of gb_landmarks_build (CLOCK_MONOTONIC) */
    size_t bytes;     /* memory owned: lm[] plus dist[] */
} gb_landmarks;

/* Choose k landmarks on g under model m (see the top of this file) and
 * compute their distance tables into *L, which is overwritten (it must
 * not own memory).  Returns 0, or -1 with errno = EINVAL (k < 0 or
 * k > GB_LANDMARKS_MAX, m not a model) or ENOMEM; on failure *L is
 * zeroed and owns nothing.  g must stay unchanged while *L is used. */
int gb_landmarks_build(gb_landmarks *L, const gb_grid *g, gb_model m, int k);

/* Bytes a table of k landmarks owns on a grid of ncells cells once built
 * (lm[] and dist[]; the temporary arrays of the build are not counted). */
static inline size_t gb_landmarks_bytes(int32_t ncells, int k)
{
    if (k <= 0) return 0;
    const gb_landmarks *L = 0;
    return (size_t)k * sizeof *L->lm + (size_t)(ncells > 0 ? ncells : 0) * (size_t)k * sizeof *L->dist;
}

/* Release what *L owns and zero it.  Safe on a zeroed table. */
void gb_landmarks_free(gb_landmarks *L);

/* Differential heuristic: max over landmarks of |d(L,id) - d(L,goal)|,
 * skipping landmarks whose difference is not finite (one side outside
 * the component: inf or NaN), so 0 off the landmarks' component.  id and
 * goal are cell ids of the grid the table was built on.  No division, one
 * loop over k contiguous doubles per side. */
static inline double gb_landmarks_h(const gb_landmarks *L, int32_t id, int32_t goal)
{
    const int k = L->k;
    const double *d = L->dist;
    const size_t a = (size_t)id * (size_t)k, b = (size_t)goal * (size_t)k;
    double h = 0.0;
    for (int l = 0; l < k; l++) {
        double v = fabs(d[a + (size_t)l] - d[b + (size_t)l]);
        if (v > h && v < INFINITY) h = v;   /* NaN and inf fail a test */
    }
    return h;
}

#endif
