/*
 * gb_los.h -- line of sight between cell centres under the
 * no-corner-cutting rule, and the Euclidean length of any-angle paths.
 * Used by Theta* (gb_theta.c) and by the `+smooth` modifier (gb_ws.c);
 * the harness validates any-angle paths with a check of its own
 * (harness/check/gb_anyangle.c), written differently on purpose.
 *
 * The rule.  Cell (x, y) is the closed unit square [x, x+1] x [y, y+1];
 * a segment joins the centres (x0+1/2, y0+1/2) and (x1+1/2, y1+1/2).  It
 * TOUCHES every cell whose closed square it meets, and it has line of
 * sight when every touched cell is passable.  A centre-to-centre segment
 * never runs along a grid line (centres sit on half-integers), so it
 * meets a closed square either through its interior or at a corner
 * point; passing exactly through a lattice corner touches all four cells
 * around it.  Hence a segment may not pass through a blocked cell, nor
 * through a corner of one -- in particular not between two diagonally
 * touching blocked cells -- which is the rule of model 8-nocut: a
 * diagonal step has line of sight exactly when it is a legal 8-nocut
 * move, and a straight step when its target is free.
 *
 * Walk (gb_los).  The cells touched are visited in order along the
 * segment (a grid traversal in the manner of Amanatides & Woo, with exact
 * integer arithmetic): with n_x = |x1-x0| and n_y = |y1-y0|, the segment
 * crosses the i-th vertical grid line (i = 0 .. n_x-1) at parameter
 * t = (2i+1) / (2 n_x) and the j-th horizontal one at (2j+1) / (2 n_y);
 * the crossing that comes first is taken by comparing (2i+1) n_y with
 * (2j+1) n_x.  Equal values are a lattice corner: both side cells are
 * checked, then the diagonal cell.  The padded border is blocked and all
 * touched cells lie in the endpoints' bounding box, so no bounds checks.
 *
 * Time complexity: O(n_x + n_y) per segment.
 */
#ifndef GB_LOS_H
#define GB_LOS_H

#include <math.h>
#include <stdint.h>

#include "gb_grid.h"

/* 1 when the segment between the centres of cells a and b (ids of
 * passable or blocked cells of g) has line of sight under the rule above,
 * else 0.  Adds the cells stepped into to *scanned when it is not NULL. */
static inline int gb_los(const gb_grid *g, int32_t a, int32_t b, uint64_t *scanned)
{
    const uint8_t *pass = g->pass;
    const int32_t stride = g->stride;
    const int32_t dx = b % stride - a % stride, dy = b / stride - a / stride;
    const int64_t nx = dx < 0 ? -dx : dx, ny = dy < 0 ? -dy : dy;
    const int32_t sx = dx < 0 ? -1 : 1, sy = dy < 0 ? -stride : stride;
    int32_t c = a;
    int64_t ix = 0, iy = 0;
    int ok = pass[c] != 0;
    while (ok && (ix < nx || iy < ny)) {
        const int64_t tx = (2 * ix + 1) * ny, ty = (2 * iy + 1) * nx;
        if (ix < nx && (iy == ny || tx < ty)) {
            c += sx;
            ix++;
        } else if (iy < ny && (ix == nx || ty < tx)) {
            c += sy;
            iy++;
        } else {   /* a lattice corner: the two side cells, then the diagonal */
            if (!pass[c + sx] || !pass[c + sy]) { ok = 0; break; }
            c += sx + sy;
            ix++;
            iy++;
        }
        ok = pass[c] != 0;
    }
    if (scanned) *scanned += (uint64_t)(ix + iy);
    return ok;
}

/* Terrain costs (gb_terrain.h: cost[] per cell, in units of 1/den, den =
 * cscale / 4).  The line-integral rule of Field D* (Ferguson & Stentz
 * 2006) and of Choi & Yu (ICRA 2011): a segment between two centres costs
 * the sum, over the cells it crosses, of the length inside the cell times
 * the cell's cost.  A centre-to-centre segment never runs along a grid
 * line, and where it passes through a lattice corner it touches the side
 * cells at one point (measure zero), so every point but finitely many
 * lies inside exactly one cell and the sum is well defined.  Legality is
 * gb_los's rule unchanged (corner cells must be passable); only the cost
 * is new.  A straight step costs (c(a) + c(b)) / 2 and a diagonal one
 * sqrt2 (c(a) + c(b)) / 2: half of it in each end cell.
 *
 * gb_los_cost walks the cells as gb_los does and adds, per cell, the
 * parameter span it holds, t from the previous crossing to the next one
 * ((2i+1) / (2 n_x) for the i-th vertical line, (2j+1) / (2 n_y) for the
 * j-th horizontal one), times its cost[]; the sum times the length times
 * 1/den is the cost.  The harness re-costs segments by another method
 * (harness/check/gb_aaterrain.c: every crossing parameter collected,
 * sorted, each piece costed by the cell at its midpoint). */

/* gb_los on a grid with cost[] (not NULL): 1 with the line-integral cost
 * of the segment a -> b in *cost when it has line of sight, else 0 and
 * *cost untouched.  Adds the cells stepped into to *scanned when it is
 * not NULL. */
static inline int gb_los_cost(const gb_grid *g, int32_t a, int32_t b, uint64_t *scanned, double *cost)
{
    const uint8_t *pass = g->pass;
    const uint16_t *q = g->cost;
    const int32_t stride = g->stride;
    const int32_t dx = b % stride - a % stride, dy = b / stride - a / stride;
    const int64_t nx = dx < 0 ? -dx : dx, ny = dy < 0 ? -dy : dy;
    const int32_t sx = dx < 0 ? -1 : 1, sy = dy < 0 ? -stride : stride;
    const double hx = nx ? 0.5 / (double)nx : 0.0, hy = ny ? 0.5 / (double)ny : 0.0;
    int32_t c = a;
    int64_t ix = 0, iy = 0;
    double t0 = 0.0, acc = 0.0;
    int ok = pass[c] != 0;
    while (ok && (ix < nx || iy < ny)) {
        const int64_t tx = (2 * ix + 1) * ny, ty = (2 * iy + 1) * nx;
        double t1;
        if (ix < nx && (iy == ny || tx < ty)) {
            t1 = (double)(2 * ix + 1) * hx;
            acc += (t1 - t0) * q[c];
            c += sx;
            ix++;
        } else if (iy < ny && (ix == nx || ty < tx)) {
            t1 = (double)(2 * iy + 1) * hy;
            acc += (t1 - t0) * q[c];
            c += sy;
            iy++;
        } else { /* a lattice corner: the two side cells, then the diagonal */
            if (!pass[c + sx] || !pass[c + sy]) {
                ok = 0;
                break;
            }
            t1 = (double)(2 * ix + 1) * hx;
            acc += (t1 - t0) * q[c];
            c += sx + sy;
            ix++;
            iy++;
        }
        t0 = t1;
        ok = pass[c] != 0;
    }
    if (scanned) *scanned += (uint64_t)(ix + iy);
    if (!ok) return 0;
    acc += (1.0 - t0) * q[c];
    const double fx = (double)dx, fy = (double)dy;
    *cost = acc * sqrt(fx * fx + fy * fy) * (4.0 / (double)g->cscale);
    return 1;
}

/* The GPPC rule (model "gppc", harness/check/gb_aagppc.h restates it):
 * ids name CORNERS -- the id of cell (x, y) is the point (x, y), its
 * top-left corner -- and a segment between two corners may run along a
 * blocked cell's side and graze its corners, but may not cross a blocked
 * cell, run between two blocked cells, or pass through a double corner
 * (two diagonally touching blocked cells, the other two free).  The walk
 * steps from piece to piece as gb_los does: a slanted segment's pieces
 * lie in cells, crossing i of nx columns at (i+1) ny and j of ny rows at
 * (j+1) nx; an axis-parallel one's lie between two cells.
 * Stricter than the model at the ends, so that a chain of such segments
 * is always a legal path (V1, V2): a segment ending on a double corner
 * with a free south-east cell must lie in that corner's south-east
 * quadrant (the quadrant of its own cell, the only one a start or goal
 * may use); one ending on the other kind (south-east cell blocked) is
 * refused. */

/* 1 when corner c (an id of g) is a double corner with its north-east and
 * south-west cells blocked, 2 with its north-west and south-east ones
 * blocked, else 0. */
static inline int gb_los_gppc_double(const uint8_t *pass, int32_t stride, int32_t c)
{
    const int nw = pass[c - stride - 1], ne = pass[c - stride], sw = pass[c - 1], se = pass[c];
    return !ne && !sw && nw && se ? 1 : !nw && !se && ne && sw ? 2 : 0;
}

/* 1 when the segment between corners a and b (ids of g, a != b) is legal
 * under the GPPC rule above, else 0.  Adds the pieces walked to *scanned
 * when it is not NULL. */
static inline int gb_los_gppc(const gb_grid *g, int32_t a, int32_t b, uint64_t *scanned)
{
    const uint8_t *pass = g->pass;
    const int32_t stride = g->stride;
    const int32_t dx = b % stride - a % stride, dy = b / stride - a / stride;
    const int da = gb_los_gppc_double(pass, stride, a), db = gb_los_gppc_double(pass, stride, b);
    if (da == 2 || db == 2 || (da && (dx < 0 || dy < 0)) || (db && (dx > 0 || dy > 0))) return 0;
    const int64_t nx = dx < 0 ? -dx : dx, ny = dy < 0 ? -dy : dy;
    const int32_t sx = dx < 0 ? -1 : 1, sy = dy < 0 ? -stride : stride;
    int ok = 1;
    int64_t steps = 0;
    if (dx == 0 || dy == 0) {
        /* corner k walks along the line; the piece after it lies between
         * cells p1 and p2 (left/right of a vertical line, above/below a
         * horizontal one) */
        const int32_t step = dx == 0 ? sy : sx;
        const int32_t o2 = (dx == 0 ? (dy > 0 ? 0 : -stride) : (dx > 0 ? 0 : -1));
        const int32_t o1 = o2 - (dx == 0 ? 1 : stride);
        const int64_t n = nx + ny;
        int32_t k = a;
        for (int64_t i = 0; i < n; i++, k += step) {
            steps++;
            if (!pass[k + o1] && !pass[k + o2]) { ok = 0; break; }
            if (i > 0 && gb_los_gppc_double(pass, stride, k)) { ok = 0; break; }
        }
    } else {
        int32_t c = a + (dx < 0 ? -1 : 0) + (dy < 0 ? -stride : 0);   /* the first piece's cell */
        int64_t ix = 0, iy = 0;
        for (;;) {
            steps++;
            if (!pass[c]) { ok = 0; break; }
            const int64_t tx = (ix + 1) * ny, ty = (iy + 1) * nx;
            if (tx < ty) {
                c += sx;
                ix++;
            } else if (ty < tx) {
                c += sy;
                iy++;
            } else {
                ix++;
                iy++;
                if (ix == nx) break;
                if (gb_los_gppc_double(pass, stride, c + (sx > 0 ? 1 : 0) + (sy > 0 ? stride : 0))) {
                    ok = 0;
                    break;
                }
                c += sx + sy;
            }
        }
    }
    if (scanned) *scanned += (uint64_t)steps;
    return ok;
}

/* Euclidean distance between the centres of cells a and b of g. */
static inline double gb_los_dist(const gb_grid *g, int32_t a, int32_t b)
{
    const double dx = (double)(b % g->stride - a % g->stride);
    const double dy = (double)(b / g->stride - a / g->stride);
    return sqrt(dx * dx + dy * dy);
}

/* Euclidean length of the polyline p[0..n) of cell ids (0 for n <= 1),
 * summed segment by segment from p[0]. */
double gb_los_path_length(const gb_grid *g, const int32_t *p, int32_t n);

/* Greedy post-smoothing of the path p[0..n) (cell ids, each step with
 * line of sight, e.g. an 8-nocut or 4-connected grid path), in place:
 * from the current anchor (first p[0]), p[k] is dropped while the anchor
 * sees p[k+1]; otherwise p[k] is kept and becomes the anchor.  The first
 * and last cells stay.  Returns the new count m <= n (p[0..m) the
 * waypoints) and writes the Euclidean length to *length.  The result is
 * never longer than the input (triangle inequality), and every segment
 * has line of sight when every step of the input had.  gppc = 1: line
 * of sight by gb_los_gppc (the ids are corners), else by gb_los. */
int32_t gb_los_smooth(const gb_grid *g, int32_t *p, int32_t n, int gppc, double *length);

#endif
