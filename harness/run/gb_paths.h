/*
 * gb_paths.h -- the paths file of `gridbench run --paths FILE`: every
 * row's path, so that anyone can check gridbench's answers with their own
 * tools, without linking against it.
 *
 * The file is CSV (RFC 4180), one line per row that has a path, in the
 * order of the run's CSV, keyed like its rows:
 *
 *   scen,line,solver,queue,cost_model,cells,waypoints
 *
 * scen, line, solver and queue are the CSV row's key; cost_model is
 * `grid` or `anyangle` (as the row's cost_model column); cells is the
 * number of cells of the path as the solver returned it (the row's
 * path_len).  waypoints is the path as "x:y" map coordinates separated by
 * single spaces: for a grid path only its first cell, its last, and every
 * cell where the direction changes, so each segment between two
 * consecutive waypoints is a straight or diagonal run of unit steps (the
 * GPPC convention: expand a segment by stepping sign(dx), sign(dy)); for
 * an any-angle path, every vertex the solver returned, each segment a
 * straight line between cell centres.  A path of one cell (start ==
 * goal) has one waypoint.  Rows without a path (no path, limit, crash,
 * ...) have no line.
 */
#ifndef GB_PATHS_H
#define GB_PATHS_H

#include <stdint.h>
#include <stdio.h>

#include "gb_validate.h"

/* The header line, without a newline. */
const char *gb_paths_header(void);

/* Write one line for path xy[0..n) (n >= 1).  cost_model "grid" writes
 * the waypoints where the direction changes; anything else writes every
 * vertex.  Errors are left in out's error flag. */
void gb_paths_write(FILE *out, const char *scen, long line, const char *solver, const char *queue,
                    const char *cost_model, const gb_xy *xy, int32_t n);

#endif
