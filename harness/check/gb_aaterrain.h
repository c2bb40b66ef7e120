/*
 * gb_aaterrain.h -- any-angle paths on weighted maps (Theta* under a
 * terrain cost model, cell-centre model only): the independent validator
 * and the two bounds a row is judged by.
 *
 * The cost rule (Field D*, Ferguson & Stentz 2006; Choi & Yu, "Any-angle
 * path planning on non-uniform costmaps", ICRA 2011): a segment between
 * the centres of two cells costs the sum, over the cells it crosses, of
 * the length inside the cell times the cell's cost c = cost[] / den
 * (gb_grid.h, den = cscale / 4).  A centre-to-centre segment never runs
 * along a grid line (centres are at half-integers), and where it passes
 * through a lattice corner it meets the side cells in one point (measure
 * zero), so each point of it but finitely many lies inside exactly one
 * cell: the sum is well defined.  Legality is gb_anyangle.h's rule
 * unchanged (every touched cell passable, corners included).
 *
 * Bounds.  With cmin the cheapest passable cost on the map:
 *   lower  every path from s to t costs at least cmin |s t|, since each
 *          piece costs at least cmin times its length and the pieces are
 *          at least as long as the straight line;
 *   upper  d_L(s, t), the optimum of the 8-nocut grid whose steps are
 *          costed by the same rule: straight (c(p) + c(r)) / 2, diagonal
 *          sqrt2 (c(p) + c(r)) / 2 (its segment meets its corner cells in
 *          one point) -- NOT the mean-of-four rule of the grid searches.
 *          Theta* promises cost <= d_L (solvers/gb_theta.c).
 * d_L is computed here by a Dijkstra of its own over exact keys: scaled
 * by 2 den a straight step costs the integer q(p) + q(r) and a diagonal
 * one that integer times sqrt2, so a path costs A + B sqrt2 with integers
 * A, B, compared exactly (through squares, in 128 bits); d_L is then
 * (A + B sqrt2) / (2 den), rounded once or twice.
 */
#ifndef GB_AATERRAIN_H
#define GB_AATERRAIN_H

#include <stddef.h>
#include <stdint.h>

#include "gb_grid.h"
#include "gb_validate.h"

/* The line-integral cost of the segment between the centres of a and b on
 * grid g (cost[] not NULL), computed as the file head of gb_aaterrain.c
 * says, into *cost, and the number of pieces it was cut into into
 * *pieces (when not NULL).  Cells are not checked for passability (a
 * blocked cell costs 0).  0, or -1 (errno ENOMEM). */
int gb_aaterrain_segment(const gb_grid *g, gb_xy a, gb_xy b, double *cost, int64_t *pieces);

/* cmin: the cheapest passable cell cost of g (qmin / den). */
double gb_aaterrain_cmin(const gb_grid *g);

/* Check that path[0..n) is an any-angle path from start to goal on the
 * weighted grid g (the checks of gb_validate_anyangle: endpoints, no
 * repeated waypoint, line of sight by gb_anyangle_sight), and that
 * reported_cost equals the recomputed line-integral cost, summed segment
 * by segment from the start, within
 *     tol = 8 (P + n + 2) eps (qmax / qmin) cost,
 * P the pieces of all segments and eps = DBL_EPSILON: the solver adds P
 * pieces, each of a rounded parameter span times a cell's cost, so its
 * absolute error per piece is a few eps times that cost, at most qmax /
 * qmin times its share of the segment's cost; this side rounds a few
 * times per segment only.  Fills *out (cost = the recomputed cost, tol;
 * straight, diag 0; bad_step the first bad segment or -1); returns
 * out->ok.  Out of memory is a failed check with that message. */
int gb_validate_aaterrain(const gb_grid *g, gb_xy start, gb_xy goal, const gb_xy *path, size_t n,
                          double reported_cost, gb_check *out);

/* The line-integral grid's Dijkstra: state for one grid, reused per query. */
typedef struct gb_aaterrain gb_aaterrain;

/* A Dijkstra for grid g (with cost[]; g must outlive it), or NULL (ENOMEM). */
gb_aaterrain *gb_aaterrain_new(const gb_grid *g);
void gb_aaterrain_free(gb_aaterrain *d);
/* The bytes gb_aaterrain_new allocates for a grid of ncells (padded)
 * cells; its heap grows beyond them during a search. */
uint64_t gb_aaterrain_bytes(int64_t ncells);

/* d_L(s, t) of the file head: 1 with the cost in *out (cost, tol = the
 * rounding of the decoding, ok = 1; straight and diag the exact A and B in
 * units of 1/(2 den)), 0 when t is unreachable, -1 out of memory.  s and
 * t are map cells; moves are re-derived from passability (8-nocut: a
 * diagonal needs both corner cells passable), not read from the
 * solvers' move masks. */
int gb_aaterrain_grid_opt(gb_aaterrain *d, gb_xy s, gb_xy t, gb_check *out);

#endif
