/*
 * gb_aagppc.c -- the GPPC any-angle validator (see gb_aagppc.h for the
 * model, rules R1-R4 and V1-V2).
 *
 * Piece walk of a slanted segment a -> b, with nx = |dx| > 0 and
 * ny = |dy| > 0: scale the parameter t in [0, 1] by nx * ny, so the
 * segment crosses its i-th vertical grid line at T = i * ny and its j-th
 * horizontal one at T = j * nx, all integers.  Between two consecutive
 * cuts, after i vertical and j horizontal crossings, the open piece lies
 * inside the cell whose column is ax + i (dx > 0) or ax - i - 1 (dx < 0),
 * and likewise for the row.  A cut with (i+1) * ny == (j+1) * nx is a
 * lattice point.  An axis-parallel segment runs on a grid line: each unit
 * piece lies between two cells, illegal when both are blocked (R3).
 */
#include "gb_aagppc.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "gb_anyangle.h"

unsigned gb_aagppc_around(const gb_grid *g, int32_t x, int32_t y)
{
    return (gb_grid_passable_xy(g, x - 1, y - 1) ? 0u : 1u) | (gb_grid_passable_xy(g, x, y - 1) ? 0u : 2u)
         | (gb_grid_passable_xy(g, x - 1, y) ? 0u : 4u) | (gb_grid_passable_xy(g, x, y) ? 0u : 8u);
}

int gb_aagppc_double(const gb_grid *g, int32_t x, int32_t y)
{
    const unsigned m = gb_aagppc_around(g, x, y);
    return m == (2u | 4u) || m == (1u | 8u);
}

static int blocked(const gb_grid *g, int64_t x, int64_t y)
{
    return !(x >= 0 && y >= 0 && x < g->width && y < g->height
             && gb_grid_passable_xy(g, (int32_t)x, (int32_t)y));
}

static int bad_at(gb_xy *bad, const char **rule, int64_t x, int64_t y, const char *r)
{
    if (bad) { bad->x = (int32_t)x; bad->y = (int32_t)y; }
    if (rule) *rule = r;
    return 0;
}

int gb_aagppc_segment(const gb_grid *g, gb_xy a, gb_xy b, gb_xy *bad, const char **rule)
{
    const int64_t dx = (int64_t)b.x - a.x, dy = (int64_t)b.y - a.y;
    if (10000 * (dx * dx + dy * dy) < 1)           /* R1: |ab|^2 < 0.01^2 */
        return bad_at(bad, rule, a.x, a.y, "R1");
    const int64_t nx = dx < 0 ? -dx : dx, ny = dy < 0 ? -dy : dy;
    const int64_t sx = dx < 0 ? -1 : 1, sy = dy < 0 ? -1 : 1;
    if (dx == 0 || dy == 0) {                     /* on a grid line */
        const int64_t n = nx + ny;
        for (int64_t k = 0; k < n; k++) {
            /* the unit piece k, between the two cells on either side */
            int64_t c1x, c1y, c2x, c2y;
            if (dx == 0) {
                c1x = a.x - 1; c2x = a.x;
                c1y = c2y = sy > 0 ? a.y + k : a.y - k - 1;
            } else {
                c1y = a.y - 1; c2y = a.y;
                c1x = c2x = sx > 0 ? a.x + k : a.x - k - 1;
            }
            if (blocked(g, c1x, c1y) && blocked(g, c2x, c2y))
                return bad_at(bad, rule, c2x, c2y, "R3");
            if (k + 1 < n) {                      /* the lattice point after the piece */
                const int64_t px = a.x + (dx == 0 ? 0 : sx * (k + 1));
                const int64_t py = a.y + (dy == 0 ? 0 : sy * (k + 1));
                if (gb_aagppc_double(g, (int32_t)px, (int32_t)py))
                    return bad_at(bad, rule, px, py, "R4");
            }
        }
        return 1;
    }
    int64_t i = 0, j = 0;
    while (i < nx) {
        const int64_t cx = sx > 0 ? a.x + i : a.x - i - 1, cy = sy > 0 ? a.y + j : a.y - j - 1;
        if (blocked(g, cx, cy)) return bad_at(bad, rule, cx, cy, "R2");
        const int64_t ti = (i + 1) * ny, tj = (j + 1) * nx;
        if (ti < tj) {
            i++;
        } else if (tj < ti) {
            j++;
        } else {
            i++;
            j++;
            if (i < nx && gb_aagppc_double(g, (int32_t)(a.x + sx * i), (int32_t)(a.y + sy * j)))
                return bad_at(bad, rule, a.x + sx * i, a.y + sy * j, "R4");
        }
    }
    return 1;
}

/* The free closed quadrant of double corner p that direction d points
 * into: 1 or 2, or 0 for none (a blocked quadrant). */
static int quadrant(unsigned mask, int64_t dx, int64_t dy)
{
    if (mask == (2u | 4u)) {         /* free north-west and south-east */
        if (dx >= 0 && dy >= 0) return 1;
        if (dx <= 0 && dy <= 0) return 2;
        return 0;
    }
    if (dx >= 0 && dy <= 0) return 1;   /* free north-east and south-west */
    if (dx <= 0 && dy >= 0) return 2;
    return 0;
}

static const char *rule_text(const char *r)
{
    if (strcmp(r, "R1") == 0) return "shorter than 0.01";
    if (strcmp(r, "R2") == 0) return "crosses the blocked cell";
    if (strcmp(r, "R3") == 0) return "runs between two blocked cells, at";
    return "cuts through the double corner";
}

int gb_validate_aagppc(const gb_grid *g, gb_xy start, gb_xy goal, const gb_xy *path, size_t n,
                       double reported_cost, gb_check *out)
{
    if (!gb_anyangle_ends(start, goal, path, n, out)) return 0;
    if (blocked(g, start.x, start.y) || blocked(g, goal.x, goal.y))
        return gb_check_fail(out, -1,
                             "expected start and goal on corners of passable cells, found cell "
                             "(%d,%d) blocked or outside the map",
                             blocked(g, start.x, start.y) ? start.x : goal.x,
                             blocked(g, start.x, start.y) ? start.y : goal.y);
    double cost = 0.0;
    gb_xy bad;
    const char *rule = "";
    for (size_t i = 0; i + 1 < n; i++) {
        const gb_xy a = path[i], b = path[i + 1];
        if (!gb_aagppc_segment(g, a, b, &bad, &rule))
            return gb_check_fail(out, (int64_t)i, "segment %zu from (%d,%d) to (%d,%d): %s: %s (%d,%d)",
                                 i, a.x, a.y, b.x, b.y, rule, rule_text(rule), bad.x, bad.y);
        cost += gb_anyangle_dist(a, b);
    }
    for (size_t i = 0; i < n && n > 1; i++) {     /* V1, V2 */
        const gb_xy p = path[i];
        const unsigned mask = gb_aagppc_around(g, p.x, p.y);
        if (mask != (2u | 4u) && mask != (1u | 8u)) continue;
        const int qprev = i > 0 ? quadrant(mask, (int64_t)path[i - 1].x - p.x,
                                           (int64_t)path[i - 1].y - p.y) : 0;
        const int qnext = i + 1 < n ? quadrant(mask, (int64_t)path[i + 1].x - p.x,
                                              (int64_t)path[i + 1].y - p.y) : 0;
        if (i == 0 || i + 1 == n) {
            /* the start and goal cells are passable: mask is 2|4 and quadrant 1 is theirs */
            if ((i == 0 ? qnext : qprev) != 1)
                return gb_check_fail(out, (int64_t)i,
                                     "V2: the %s (%d,%d) is on a double corner: expected "
                                     "its segment in the south-east quadrant, found it towards (%d,%d)",
                                     i == 0 ? "start" : "goal", p.x, p.y, path[i == 0 ? 1 : i - 1].x,
                                     path[i == 0 ? 1 : i - 1].y);
        } else if (qprev == 0 || qprev != qnext) {
            return gb_check_fail(out, (int64_t)i,
                                 "V1: waypoint %zu (%d,%d) is a double corner: expected "
                                 "both segments on one free side, found (%d,%d) and (%d,%d) on opposite "
                                 "sides",
                                 i, p.x, p.y, path[i - 1].x, path[i - 1].y, path[i + 1].x,
                                 path[i + 1].y);
        }
    }
    out->cost = cost;
    out->tol = (2.0 * (double)n + 2.0) * DBL_EPSILON * (cost > 1.0 ? cost : 1.0);
    if (!(fabs(reported_cost - cost) <= out->tol))
        return gb_check_fail(out, -1,
                             "expected the reported cost to equal the path's Euclidean length "
                             "%.10g, found %.10g",
                             cost, reported_cost);
    out->ok = 1;
    return 1;
}
