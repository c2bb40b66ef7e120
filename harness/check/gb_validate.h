/*
 * gb_validate.h -- the independent path validator.
 *
 * It shares nothing with the solvers but the grid's passability: it does
 * not read the move masks or the successor generators.  It re-derives
 * from the terrain whether each step is legal under the movement model
 * and recomputes the path cost exactly, as a count of straight and
 * diagonal steps (cost = straight + diag * sqrt 2).  Because sqrt 2 is
 * irrational, two paths have the same cost iff they have the same
 * (straight, diag) counts, so optimality can be checked exactly.
 *
 * On a grid with terrain costs (gb_grid.h cost[], gb_terrain.h) the
 * counts are units of 1/scale instead: a straight step adds 2 (q + q') of
 * its two cells to straight, a diagonal one the sum of its four cells' q
 * to diag, recomputed here from cost[] (not from the solvers' code), and
 * cost = (straight + diag sqrt 2) / scale; the same argument makes equal
 * (straight, diag) equal costs.
 */
#ifndef GB_VALIDATE_H
#define GB_VALIDATE_H

#include <stddef.h>
#include <stdint.h>

#include "gb_grid.h"

typedef struct gb_xy {
    int32_t x, y;
} gb_xy;

typedef struct gb_check {
    int ok;              /* 1 when every check passed */
    int64_t straight;    /* number of straight steps (terrain: their units) */
    int64_t diag;        /* number of diagonal steps (terrain: their units) */
    int32_t scale;       /* units per unit of cost: 1, or the grid's cscale */
    double cost;         /* (straight + diag * sqrt 2) / scale */
    double tol;          /* tolerance used for the reported cost */
    int64_t bad_step;    /* index of the first bad step (path[i] -> path[i+1]), or -1 */
    char msg[256];       /* what failed, "" when ok */
} gb_check;

/* Check that path[0..n) goes from start to goal through passable cells by
 * steps legal under model m, and that reported_cost equals the recomputed
 * cost within the rounding a sum of n terms can carry
 * (n * DBL_EPSILON * cost).  Fills *out; returns out->ok. */
int gb_validate_path(const gb_grid *g, gb_model m, gb_xy start, gb_xy goal,
                     const gb_xy *path, size_t n, double reported_cost, gb_check *out);

/* Exact cost of a (straight, diag) pair. */
double gb_check_cost(int64_t straight, int64_t diag);
/* The same in units of 1/scale (terrain costs): gb_check_cost / scale. */
double gb_check_cost_scaled(int64_t straight, int64_t diag, int32_t scale);

/* Mark *out failed at step (-1: the path as a whole) with the message
 * fmt, ...: out->ok = 0, out->bad_step = step, out->msg the text (cut to
 * its size).  Returns 0, so that a validator can `return gb_check_fail(...)`.
 * Shared by every validator of harness/check/. */
int gb_check_fail(gb_check *out, int64_t step, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Compare two recomputed path costs: -1, 0, 1 as a < b, a == b, a > b.
 * Equality is exact (same step counts); otherwise the doubles differ by far
 * more than rounding error. */
int gb_check_cmp(const gb_check *a, const gb_check *b);

#endif
