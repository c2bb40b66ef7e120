/*
 * gb_anyangle.h -- the independent validator of any-angle paths (Theta*,
 * SOLVER+smooth; gb_search.h's cost model "anyangle").
 *
 * An any-angle path is a sequence of waypoints, cell centres
 * (x + 1/2, y + 1/2), joined by straight segments and costed by their
 * Euclidean length.  The rule a segment must satisfy (the no-corner-
 * cutting line of sight, the same rule as solvers/gb_los.h, checked by a
 * different method so that a bug in one shows up against the other):
 *   cell (x, y) is the closed unit square [x, x+1] x [y, y+1]; a segment
 *   TOUCHES every cell whose closed square it meets -- the cells whose
 *   interior it crosses and, where it passes exactly through a lattice
 *   corner, all four cells around that corner -- and it is legal when
 *   every cell it touches is inside the map and passable.  So a segment
 *   may neither cross a blocked cell nor graze one's corner; in
 *   particular it may not pass between two diagonally touching blocked
 *   cells.  A one-cell diagonal segment is legal exactly when it is a
 *   legal 8-nocut move.
 */
#ifndef GB_ANYANGLE_H
#define GB_ANYANGLE_H

#include <stddef.h>

#include "gb_grid.h"
#include "gb_validate.h"

/* Euclidean distance between the centres of cells a and b. */
double gb_anyangle_dist(gb_xy a, gb_xy b);

/* 1 when the segment between the centres of a and b touches only
 * passable map cells (the rule above); else 0, with the first offending
 * touched cell (in column order, then row order) in *bad when bad is not
 * NULL.  a == b touches the one cell. */
int gb_anyangle_sight(const gb_grid *g, gb_xy a, gb_xy b, gb_xy *bad);

/* The checks every any-angle validator starts with: n >= 1, the first and
 * last waypoints equal to start and goal.  Clears *out (bad_step -1) and
 * returns 1, or fails it (gb_check_fail) and returns 0. */
int gb_anyangle_ends(gb_xy start, gb_xy goal, const gb_xy *path, size_t n, gb_check *out);

/* The legality of gb_validate_anyangle without the cost: gb_anyangle_ends,
 * a passable start cell, no two consecutive waypoints equal, every
 * segment legal under the rule above.  1 (out->ok still 0, for the
 * caller's cost check to set), or 0 with *out failed at the first bad
 * segment.  gb_validate_aaterrain shares it. */
int gb_anyangle_legal(const gb_grid *g, gb_xy start, gb_xy goal, const gb_xy *path, size_t n,
                      gb_check *out);

/* Check that path[0..n) is an any-angle path from start to goal: n >= 1,
 * first and last waypoints equal to start and goal, no two consecutive
 * waypoints equal, every segment legal under the rule above, and
 * reported_cost equal to the recomputed Euclidean length (summed from the
 * start) within (2n + 2) * DBL_EPSILON * max(cost, 1).  Fills *out as
 * gb_validate_path does (cost = the recomputed length; straight and diag
 * are 0; bad_step = the index of the first bad segment, or -1); returns
 * out->ok. */
int gb_validate_anyangle(const gb_grid *g, gb_xy start, gb_xy goal, const gb_xy *path, size_t n,
                         double reported_cost, gb_check *out);

#endif
