/*
 * gb_heuristic.h -- the heuristics every solver and the heuristic
 * validator use, as one X-macro list plus one inline function each.
 *
 * A heuristic is  double gb_h_NAME(const gb_hctx *c, int32_t id,
 * int32_t x, int32_t y): an estimate of the cost from cell id (map
 * coordinates x, y) to the goal described by c.  The search core calls it
 * directly (it is instantiated once per heuristic at compile time), so no
 * function pointer is called per node.
 *
 * The differential heuristic (ALT, gb_landmarks.h) needs per-map tables
 * and so is not in the list: gb_search.h appends it as GB_H_DIFF, the
 * workspace builds its tables, and gb_h_diff() reads them through
 * gb_hctx.lm.
 *
 * Adding a heuristic = one inline function below + one line in
 * GB_HEUR_LIST.  The line gives: the enum suffix, the name used on the
 * command line, the movement models under which the heuristic is
 * admissible and consistent (bit masks over gb_model: A8 = the three
 * 8-connected models, F = 4-connected), and a description.  The registry
 * (gb_registry.c), the heuristic validator and `gridbench list` are all
 * generated from the list.
 *
 * Why the masks are what they are (dx, dy >= 0 are the absolute offsets):
 *   zero       0: admissible and consistent everywhere.
 *   manhattan  dx+dy: exact on an empty 4-connected grid; overestimates a
 *              diagonal step (2 > sqrt 2), so not admissible when
 *              diagonals exist.
 *   octile     max + (sqrt2-1)*min: exact on an empty 8-connected grid;
 *              on 4-connected it is <= manhattan, so admissible; it changes
 *              by at most the step cost over any legal step: consistent.
 *   euclidean  sqrt(dx^2+dy^2) <= octile <= true cost: admissible and
 *              consistent (triangle inequality; step length >= distance).
 *   chebyshev  max(dx,dy): changes by at most 1 <= step cost per step.
 */
#ifndef GB_HEURISTIC_H
#define GB_HEURISTIC_H

#include <math.h>
#include <stdint.h>

#include "gb_exact.h"
#include "gb_grid.h"
#include "gb_landmarks.h"

/* Everything a heuristic may look at about the goal. */
typedef struct gb_hctx {
    int32_t gx, gy;   /* goal map coordinates */
    int32_t goal;     /* goal cell id */
    const gb_landmarks *lm;  /* landmark tables (GB_H_DIFF only), else NULL */
} gb_hctx;

#define GB_HM_ALL ((1u << GB_MODEL_COUNT) - 1)
#define GB_HM_8   ((1u << GB_MODEL_8_NOCUT) | (1u << GB_MODEL_8_CUT1) | (1u << GB_MODEL_8_CUTALL))
#define GB_HM_4   (1u << GB_MODEL_4)

/* X(ENUM, name, admissible-mask, consistent-mask, description).
 * GB_HEUR_LIST_A(X, a) calls X(a, ENUM, name, ...) instead: the extra
 * argument lets another X-macro list nest this one (gb_family.h). */
#define GB_HEUR_LIST_A(X, a) \
    X(a, ZERO,      zero,      GB_HM_ALL, GB_HM_ALL, "h = 0 (Dijkstra)") \
    X(a, MANHATTAN, manhattan, GB_HM_4,   GB_HM_4,   "dx + dy; admissible only on 4-connected") \
    X(a, OCTILE,    octile,    GB_HM_ALL, GB_HM_ALL, "max + (sqrt2-1) min; exact on an empty 8-connected grid") \
    X(a, EUCLIDEAN, euclidean, GB_HM_ALL, GB_HM_ALL, "sqrt(dx^2 + dy^2)") \
    X(a, CHEBYSHEV, chebyshev, GB_HM_ALL, GB_HM_ALL, "max(dx, dy)")
#define GB_HEUR_APPLY_(X, E, N, A, C, D) X(E, N, A, C, D)
#define GB_HEUR_LIST(X) GB_HEUR_LIST_A(GB_HEUR_APPLY_, X)

static inline int32_t gb_h_abs(int32_t v) { return v < 0 ? -v : v; }

static inline double gb_h_zero(const gb_hctx *c, int32_t id, int32_t x, int32_t y)
{
    (void)c; (void)id; (void)x; (void)y;
    return 0.0;
}

static inline double gb_h_manhattan(const gb_hctx *c, int32_t id, int32_t x, int32_t y)
{
    (void)id;
    return (double)(gb_h_abs(x - c->gx) + gb_h_abs(y - c->gy));
}

static inline double gb_h_octile(const gb_hctx *c, int32_t id, int32_t x, int32_t y)
{
    (void)id;
    int32_t dx = gb_h_abs(x - c->gx), dy = gb_h_abs(y - c->gy);
    int32_t lo = dx < dy ? dx : dy, hi = dx < dy ? dy : dx;
    return (double)(hi - lo) + GB_SQRT2 * (double)lo;
}

static inline double gb_h_euclidean(const gb_hctx *c, int32_t id, int32_t x, int32_t y)
{
    (void)id;
    double dx = (double)(x - c->gx), dy = (double)(y - c->gy);
    return sqrt(dx * dx + dy * dy);
}

static inline double gb_h_chebyshev(const gb_hctx *c, int32_t id, int32_t x, int32_t y)
{
    (void)id;
    int32_t dx = gb_h_abs(x - c->gx), dy = gb_h_abs(y - c->gy);
    return (double)(dx > dy ? dx : dy);
}

/* Exact forms (gb_exact.h) of the heuristics whose value is a + b sqrt2
 * with integers a, b >= 0: the key D(a, b) (zero: 0).  gb_heur_exact()
 * (gb_family.h) says which have one; the search core then runs on exact
 * keys.  Each is its double form without the rounding: octile
 * D(hi - lo, lo), manhattan D(dx + dy, 0), chebyshev D(hi, 0). */

static inline uint64_t gb_hx_octile(const gb_hctx *c, int32_t x, int32_t y)
{
    int32_t dx = gb_h_abs(x - c->gx), dy = gb_h_abs(y - c->gy);
    int32_t lo = dx < dy ? dx : dy, hi = dx < dy ? dy : dx;
    return gb_exact_key(hi - lo, lo);
}

static inline uint64_t gb_hx_manhattan(const gb_hctx *c, int32_t x, int32_t y)
{
    return gb_exact_key(gb_h_abs(x - c->gx) + gb_h_abs(y - c->gy), 0);
}

static inline uint64_t gb_hx_chebyshev(const gb_hctx *c, int32_t x, int32_t y)
{
    int32_t dx = gb_h_abs(x - c->gx), dy = gb_h_abs(y - c->gy);
    return gb_exact_key(dx > dy ? dx : dy, 0);
}

/* Differential heuristic: max over landmarks of |d(L,n) - d(L,goal)|;
 * admissible and consistent under the model its tables were built for. */
static inline double gb_h_diff(const gb_hctx *c, int32_t id, int32_t x, int32_t y)
{
    (void)x; (void)y;
    return gb_landmarks_h(c->lm, id, c->goal);
}

#endif
