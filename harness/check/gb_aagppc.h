/*
 * gb_aagppc.h -- the GPPC any-angle model ("gppc") and its validator,
 * beside the cell-centre rule of gb_anyangle.h ("centre").
 *
 * The model (GPPC any-angle track, gppc-dev/startkit-anyangle,
 * Problem_Definition.md; docs/anyangle.md restates it).  Points live on
 * the Euclidean plane; the integer point (x, y) is the top-left corner of
 * cell (x, y), whose square is [x, x+1] x [y, y+1].  Outside the map
 * every cell is blocked.  A query's start and goal are corners of
 * passable cells.  A segment a-b is legal when
 *   R1  |ab| >= 0.01;
 *   R2  it meets no blocked square's interior;
 *   R3  it meets no open edge shared by two blocked squares (R5: the
 *       map's border counts, its outside being blocked);
 *   R4  no double corner -- a corner whose two blocked cells touch
 *       diagonally, the other two being free -- lies strictly inside it.
 * R2 + R3 say: the segment avoids int(B), B the union of the closed
 * blocked squares; touching B's boundary (running along a wall, grazing
 * a single corner) is legal.  A path p0 .. pn is legal when every
 * segment is, and
 *   V1  a waypoint on a double corner, other than the start and goal, is
 *       visited, not cut: its two segments leave it into the same free
 *       closed quadrant;
 *   V2  a start (goal) on a double corner leaves (is entered) from the
 *       closed quadrant of its own cell, the south-east one; (the other
 *       kind of double corner has a blocked cell there: never a start.)
 * Quadrants are closed: (dx >= 0, dy >= 0) is south-east, y grows south.
 *
 * Arithmetic.  Waypoints here are integer points, so every test below is
 * exact in int64 (crossing parameters compared by cross-multiplication);
 * only the path's cost is a double sum of square roots.
 *
 * Method (gb_aagppc_segment).  The segment is cut at every grid line it
 * crosses; each open piece between two cuts lies in one cell's interior
 * (a slanted segment) or on one grid line between two cells (an axis-
 * parallel one), which settles R2/R3 piece by piece; the cuts where both
 * coordinates are integers are the lattice points R4 looks at.  The tests
 * check it against a second validator that clips the segment against
 * every open square, open edge and point of int(B) in the bounding box.
 *
 * Time complexity: O(|dx| + |dy| + 1) per segment.
 */
#ifndef GB_AAGPPC_H
#define GB_AAGPPC_H

#include <stddef.h>

#include "gb_grid.h"
#include "gb_validate.h"

/* The blocked cells around corner (x, y), as a mask: 1 = north-west cell
 * (x-1, y-1), 2 = north-east (x, y-1), 4 = south-west (x-1, y), 8 =
 * south-east (x, y).  Cells outside the map count as blocked. */
unsigned gb_aagppc_around(const gb_grid *g, int32_t x, int32_t y);

/* 1 when (x, y) is a double corner (mask 2|4 or 1|8), else 0. */
int gb_aagppc_double(const gb_grid *g, int32_t x, int32_t y);

/* 1 when the segment a-b (integer points) is legal under R1-R4, else 0
 * with the offending cell (R2, R3: a blocked cell the piece lies in or
 * beside) or lattice point (R4) in *bad when bad is not NULL, and the
 * rule's name ("R1" .. "R4") in *rule when rule is not NULL. */
int gb_aagppc_segment(const gb_grid *g, gb_xy a, gb_xy b, gb_xy *bad, const char **rule);

/* Check that path[0..n) (integer corner points) is a legal GPPC any-angle
 * path from start to goal: n >= 1, the first and last waypoints are start
 * and goal, whose cells are passable; every segment legal (R1-R4); V1 and
 * V2 at every waypoint; and reported_cost equal to the recomputed
 * Euclidean length (summed from the start) within (2n + 2) * DBL_EPSILON
 * * max(cost, 1).  start == goal is the one-waypoint path of cost 0 (GPPC
 * writes it as the empty path).  Fills *out as gb_validate_anyangle does
 * (bad_step = the first bad segment, or the waypoint for V1/V2, or -1);
 * returns out->ok.  Reads g only. */
int gb_validate_aagppc(const gb_grid *g, gb_xy start, gb_xy goal, const gb_xy *path, size_t n,
                       double reported_cost, gb_check *out);

#endif
