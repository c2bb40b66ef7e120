/*
 * gb_heurval.h -- heuristic validator: admissibility, consistency and
 * informedness of heuristics measured against exact distances.
 *
 * Data structure
 *   A gb_hv belongs to one grid and one movement model.  It holds the
 *   legal-move mask of every cell (gb_grid_moves), h*[] for the current
 *   goal, a scratch array of weighted heuristic values, and a cache of
 *   landmark tables (one per distinct k) for differential heuristics.
 *   gb_hv_set_goal() runs ONE reverse Dijkstra: the grid is undirected
 *   with symmetric costs, so gb_dijkstra_all() from the goal gives
 *   h*(n) = d(n, goal) for every cell (INFINITY where unreachable).
 *   gb_hv_eval() then checks one heuristic against that goal in
 *   O(ncells * 8) without any search.
 *
 * Invariants
 *   - hstar[] is valid for goal v->goal once gb_hv_set_goal() returned 0;
 *     the reachable set R = { n : h*(n) finite } contains the goal.
 *   - Every legal move from a cell of R ends in R (undirected grid), so the
 *     consistency pass never reads an unevaluated h.
 *
 * What is measured, for weight w and heuristic h (all over R):
 *   admissible   w h(n) <= h*(n) + tol            at every n in R
 *   consistent   w h(n) <= c(n,n') + w h(n') + tol over every legal move
 *                n -> n' of the model with n in R (both directions of an
 *                edge are checked: consistency is directional)
 *   informedness r(n) = w h(n) / h*(n) over n in R with h*(n) > 0: mean,
 *                histogram of GB_HV_NBINS bins over [0, 1] (bin i holds
 *                i/20 <= r < (i+1)/20; r = 1 and the rounding slack up to
 *                1 + tol/h* go to the last bin) plus an overflow bin for
 *                the inadmissible cells (w h > h* + tol), and the mean of r
 *                per distance bucket floor(h* / GB_HV_BUCKET_WIDTH).
 *   The weighted value is what a search with f = g + w h sees, so every
 *   figure uses w h.  A NaN value counts as a violation (the comparisons
 *   are written as !(a <= b + tol)); h should be finite and >= 0.
 *
 * Tolerance rule (per goal, gb_hv_result.tol)
 *     tol = 16 * DBL_EPSILON * max(w, 1) * max(E, 1)^2,
 *   E = the goal's eccentricity (largest finite h*).  Why: every step
 *   costs >= 1, so a shortest distance D is a sum of at most D terms, and
 *   a sequential floating-point sum of them is off by at most D * u * D
 *   (u = DBL_EPSILON / 2, first order).  h* <= E is thus off by at most
 *   u E^2.  Built-in heuristics round to a few ulps of h.  The
 *   differential heuristic subtracts two landmark distances, each <= 2E
 *   (triangle inequality through the goal), so it is off by at most
 *   2 * u (2E)^2 + u 2E <= 10 u E^2 = 5 eps E^2.  The consistency test
 *   involves two heuristic values (10 eps E^2, times w) and the admissibility
 *   test one value and h* (< 6 eps E^2, times max(w, 1)); 16 eps E^2 max(w,1)
 *   covers both.  It is far below a real overestimate on a grid (those are
 *   differences of sums of 1 and sqrt 2 terms, E = 4000 gives tol ~ 6e-8)
 *   and far above the few ulps an exact heuristic rounds to.
 *
 * Extension by callback: a user heuristic is a gb_hv_fn plus its context
 * (kind GB_HV_USER).  The validator is not a search loop, so one indirect
 * call per cell is fine; this is the documented way to validate your own
 * heuristic from C, and the tests' way to plant a broken one.
 *
 * Library code: never prints, never exits; errors fill a gb_diag.
 */
#ifndef GB_HEURVAL_H
#define GB_HEURVAL_H

#include <stddef.h>
#include <stdint.h>

#include "gb_diag.h"
#include "gb_grid.h"
#include "gb_landmarks.h"
#include "gb_scen.h"
#include "gb_search.h"

#define GB_HV_NBINS 20            /* histogram bins over [0, 1] */
#define GB_HV_BUCKET_WIDTH 4.0    /* distance bucket = floor(h* / 4) */
#define GB_HV_MAX_WEIGHT 1e6      /* largest weight gb_hv_parse accepts */
#define GB_HV_DEFAULT_K 8         /* landmarks of "diff" without k= */
#define GB_HV_NAME_MAX 48         /* size of gb_hv_spec.name */

/* A user heuristic: estimate of the cost from cell id (map coordinates
 * x, y) to the goal cell id `goal`.  ctx is the spec's ctx. */
typedef double (*gb_hv_fn)(void *ctx, int32_t id, int32_t x, int32_t y, int32_t goal);

typedef enum gb_hv_kind {
    GB_HV_BUILTIN = 0,   /* a gb_heur of GB_HEUR_LIST */
    GB_HV_DIFF,          /* differential heuristic with k landmarks */
    GB_HV_USER           /* callback fn(ctx, ...) */
} gb_hv_kind;

/* One heuristic to check: what it is and its weight. */
typedef struct gb_hv_spec {
    gb_hv_kind kind;
    gb_heur heur;        /* GB_HV_BUILTIN: the heuristic */
    int k;               /* GB_HV_DIFF: landmarks, 1..GB_LANDMARKS_MAX */
    gb_hv_fn fn;         /* GB_HV_USER: the callback */
    void *ctx;           /* GB_HV_USER: its context (not owned) */
    double weight;       /* w > 0; the validator checks w * h */
    char name[GB_HV_NAME_MAX]; /* label without weight: "octile", "diff:k=8" */
} gb_hv_spec;

/* Measurements of one spec against one goal.  Example cells are map
 * coordinates; -1 when there is no example.  "Largest" ties go to the
 * smallest cell id (row-major scan). */
typedef struct gb_hv_result {
    int32_t goal, goal_x, goal_y; /* goal cell id and coordinates */
    int32_t reachable;       /* |R|: cells with finite h*, goal included */
    double ecc;              /* E: largest finite h* */
    double tol;              /* tolerance (see the rule above) */
    int64_t inadmissible;    /* cells of R with w h > h* + tol */
    double max_over;         /* largest w h - h* among them, else 0 */
    double max_over_ratio;   /* largest w h / h* among them (INFINITY for
                                the goal itself), else 0 */
    int32_t over_x, over_y;  /* cell of max_over */
    int64_t edges;           /* legal moves checked (directed) */
    int64_t inconsistent;    /* moves with w h(n) > c + w h(n') + tol */
    double max_violation;    /* largest w h(n) - c - w h(n') among them, else 0 */
    int32_t viol_x1, viol_y1, viol_x2, viol_y2;  /* n and n' of max_violation */
    int64_t ratio_cells;     /* cells of R with h* > 0 */
    double ratio_sum;        /* sum of w h / h* over them */
    double mean_ratio;       /* ratio_sum / ratio_cells (0 when none) */
    int64_t bins[GB_HV_NBINS + 1]; /* histogram; bins[GB_HV_NBINS] = overflow */
    int32_t nbuckets;        /* floor(E / GB_HV_BUCKET_WIDTH) + 1 */
    double *bucket_sum;      /* [nbuckets] sum of w h / h* per bucket (owned) */
    int64_t *bucket_cells;   /* [nbuckets] cells with h* > 0 per bucket (owned) */
} gb_hv_result;

typedef struct gb_hv gb_hv;

/* ---- specs ------------------------------------------------------------ */

/* Fill *s for built-in heuristic h (name from gb_heur_name), weight w. */
void gb_hv_spec_builtin(gb_hv_spec *s, gb_heur h, double w);
/* Fill *s for the differential heuristic with k landmarks ("diff:k=K"). */
void gb_hv_spec_diff(gb_hv_spec *s, int k, double w);
/* Fill *s for a user heuristic; name is copied (truncated to fit). */
void gb_hv_spec_user(gb_hv_spec *s, const char *name, gb_hv_fn fn, void *ctx, double w);

/* Parse NAME[:k=K][:w=W] (parameters in any order, each at most once):
 * NAME a built-in heuristic or "diff" (k only for diff, default
 * GB_HV_DEFAULT_K, 1..GB_LANDMARKS_MAX), W a finite number in
 * (0, GB_HV_MAX_WEIGHT], default 1.  Returns 0, or -1 with a message
 * "expected ..., found ..." in err (errsz bytes); *out is then unspecified. */
int gb_hv_parse(const char *text, gb_hv_spec *out, char *err, size_t errsz);

/* What the registry claims for s under model m.  Returns 1 and sets *adm,
 * *cons (0/1) when there is a claim: built-in heuristics from
 * gb_heur_admissible / gb_heur_consistent, diff always admissible and
 * consistent; for w <= 1 both carry over (w h <= h, and w h(n) - w h(n')
 * <= w c <= c).  Returns 0 (no claim) for w > 1 and for user heuristics. */
int gb_hv_claim(const gb_hv_spec *s, gb_model m, int *adm, int *cons);

/* ---- goals ------------------------------------------------------------ */

/* Draw min(n, g->npassable) distinct passable cells uniformly without
 * replacement (partial Fisher-Yates over the passable ids in id order,
 * splitmix64 stream from seed, integers by rejection) into out (which
 * holds n ids), in draw order.  Returns the count, or -1 (ENOMEM). */
int32_t gb_hv_sample_goals(const gb_grid *g, int32_t n, uint64_t seed, int32_t *out);

/* The distinct goal cells of scenario s on grid g, in order of first
 * appearance, at most max (max <= 0: no cap) into out (which holds
 * s->n ids when max <= 0, else min(max, s->n)).  Goals outside the map
 * or on blocked cells are skipped and counted in *skipped (may be NULL).
 * Returns the count, or -1 (ENOMEM). */
int32_t gb_hv_scen_goals(const gb_scen *s, const gb_grid *g, int32_t max, int32_t *out,
                         int32_t *skipped);

/* ---- validation ------------------------------------------------------- */

/* Create a validator for grid g (which must outlive it, unchanged) and
 * model m.  NULL with errno = ENOMEM (or EINVAL for a bad model). */
gb_hv *gb_hv_new(const gb_grid *g, gb_model m);
void gb_hv_free(gb_hv *v);

/* Make goal (a cell id) the current goal: one reverse Dijkstra.  Returns
 * 0, EX_DATAERR when goal is not a passable map cell, or EX_OSERR; *d is
 * filled on failure (path empty) and cleared on success. */
int gb_hv_set_goal(gb_hv *v, int32_t goal, gb_diag *d);

/* h*(id) for the current goal, indexed by cell id (ncells entries), or
 * NULL before the first successful gb_hv_set_goal(). */
const double *gb_hv_hstar(const gb_hv *v);
/* The legal-move masks the validator uses (ncells bytes). */
const uint8_t *gb_hv_moves(const gb_hv *v);

/* Landmark table with k landmarks for this grid and model, built on first
 * use and cached for the validator's lifetime.  NULL with errno (EINVAL,
 * ENOMEM) on failure. */
const gb_landmarks *gb_hv_landmarks(gb_hv *v, int k);

/* Check spec s against the current goal and fill *r (which must not own
 * memory; release it with gb_hv_result_free).  Returns 0, EX_SOFTWARE
 * (no goal set, bad spec) or EX_OSERR with *d filled (*r then owns
 * nothing).  Builds diff landmarks on first use (see gb_hv_landmarks).
 * Time complexity: O(ncells) evaluations of h plus O(8 |R|). */
int gb_hv_eval(gb_hv *v, const gb_hv_spec *s, gb_hv_result *r, gb_diag *d);

/* Release the bucket arrays of *r and zero it.  Safe on a zeroed result. */
void gb_hv_result_free(gb_hv_result *r);

#endif
