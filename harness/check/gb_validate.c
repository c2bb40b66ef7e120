/*
 * gb_validate.c -- independent path validator (see gb_validate.h).
 *
 * Legality of a step (x,y) -> (x+dx,y+dy), re-derived here from the
 * terrain and the model's definition, not from the solvers' tables:
 *   - |dx| <= 1, |dy| <= 1, not both 0; both cells inside the map and
 *     passable;
 *   - a diagonal step (dx != 0 and dy != 0) is illegal on model 4; on
 *     8-nocut both orthogonal cells (x+dx,y) and (x,y+dy) must be
 *     passable, on 8-cut1 at least one, on 8-cutall neither;
 *   - with terrain costs, only models 8-nocut and 4 are defined (a
 *     diagonal's cost needs its two corners' costs);
 *   - under 8-nocut-water (HOG2's water rule, gb_grid.h) a step is also
 *     8-nocut, and every cell it touches (target, and a diagonal's two
 *     corners) has the class -- water W or ground -- of the cell it
 *     leaves, read from the grid's water[] (the letters), not from the
 *     move masks.
 */
#include "gb_validate.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

double gb_check_cost(int64_t straight, int64_t diag)
{
    return (double)straight + (double)diag * GB_SQRT2;
}

double gb_check_cost_scaled(int64_t straight, int64_t diag, int32_t scale)
{
    return gb_check_cost(straight, diag) / (double)scale;
}

int gb_check_cmp(const gb_check *a, const gb_check *b)
{
    if (a->straight == b->straight && a->diag == b->diag) return 0;
    return a->cost < b->cost ? -1 : 1;
}

int gb_check_fail(gb_check *out, int64_t step, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out->msg, sizeof out->msg, fmt, ap);
    va_end(ap);
    out->ok = 0;
    out->bad_step = step;
    return 0;
}

static int free_xy(const gb_grid *g, int32_t x, int32_t y)
{
    return gb_grid_passable_xy(g, x, y);
}

int gb_validate_path(const gb_grid *g, gb_model m, gb_xy start, gb_xy goal,
                     const gb_xy *path, size_t n, double reported_cost, gb_check *out)
{
    memset(out, 0, sizeof *out);
    out->bad_step = -1;
    if (n == 0)
        return gb_check_fail(out, -1, "expected a path from (%d,%d) to (%d,%d), found an empty path",
                             start.x, start.y, goal.x, goal.y);
    if (path[0].x != start.x || path[0].y != start.y)
        return gb_check_fail(out, 0, "expected the path to start at (%d,%d), found (%d,%d)", start.x,
                             start.y, path[0].x, path[0].y);
    if (path[n - 1].x != goal.x || path[n - 1].y != goal.y)
        return gb_check_fail(out, (int64_t)n - 1, "expected the path to end at (%d,%d), found (%d,%d)",
                             goal.x, goal.y, path[n - 1].x, path[n - 1].y);
    if (!free_xy(g, path[0].x, path[0].y))
        return gb_check_fail(out, 0, "expected a passable start cell, found (%d,%d) blocked", path[0].x,
                             path[0].y);
    const uint16_t *q = g->cost;
    if (q && m != GB_MODEL_8_NOCUT && m != GB_MODEL_4)
        return gb_check_fail(out, -1, "expected model 8-nocut or 4 under terrain costs, found %s",
                             gb_model_name(m));
    int64_t straight = 0, diag = 0;
    for (size_t i = 0; i + 1 < n; i++) {
        int32_t x = path[i].x, y = path[i].y;
        int32_t dx = path[i + 1].x - x, dy = path[i + 1].y - y;
        if (dx < -1 || dx > 1 || dy < -1 || dy > 1 || (dx == 0 && dy == 0))
            return gb_check_fail(
                out, (int64_t)i,
                "step %zu: expected a move to an adjacent cell, found (%d,%d) -> (%d,%d)", i, x, y,
                path[i + 1].x, path[i + 1].y);
        if (!free_xy(g, x + dx, y + dy))
            return gb_check_fail(
                out, (int64_t)i,
                "step %zu: expected a passable cell, found (%d,%d) blocked or outside the map", i,
                x + dx, y + dy);
        if (m == GB_MODEL_8_NOCUT_WATER && g->water) {
            /* the water rule: every cell the step touches is of the class
             * of the cell it leaves (ground . G S, or water W) */
            const uint8_t *w = g->water;
            const int c = w[gb_grid_id(g, x, y)];
            int32_t bad = -1;
            if (w[gb_grid_id(g, x + dx, y + dy)] != c) bad = gb_grid_id(g, x + dx, y + dy);
            else if (dx && dy && w[gb_grid_id(g, x + dx, y)] != c) bad = gb_grid_id(g, x + dx, y);
            else if (dx && dy && w[gb_grid_id(g, x, y + dy)] != c) bad = gb_grid_id(g, x, y + dy);
            if (bad >= 0)
                return gb_check_fail(
                    out, (int64_t)i,
                    "step %zu: expected a move within one terrain class under "
                    "model %s, found a step from %s (%d,%d) -> (%d,%d) touching %s at (%d,%d)",
                    i, gb_model_name(m), c ? "water" : "ground", x, y, x + dx, y + dy,
                    c ? "ground" : "water", gb_grid_x(g, bad), gb_grid_y(g, bad));
        }
        if (dx != 0 && dy != 0) {
            int a = free_xy(g, x + dx, y), b = free_xy(g, x, y + dy);
            const char *why = NULL;
            if (m == GB_MODEL_4) why = "a diagonal step on a 4-connected model";
            else if ((m == GB_MODEL_8_NOCUT || m == GB_MODEL_8_NOCUT_WATER) && !(a && b))
                why = "a diagonal step cutting a blocked corner";
            else if (m == GB_MODEL_8_CUT1 && !(a || b)) why = "a diagonal step squeezing between two blocked cells";
            if (why)
                return gb_check_fail(
                    out, (int64_t)i,
                    "step %zu: expected a legal move under model %s, found %s (%d,%d) -> (%d,%d)", i,
                    gb_model_name(m), why, x, y, x + dx, y + dy);
            diag += q ? (int64_t)q[gb_grid_id(g, x, y)] + q[gb_grid_id(g, x + dx, y + dy)]
                        + q[gb_grid_id(g, x + dx, y)] + q[gb_grid_id(g, x, y + dy)] : 1;
        } else {
            straight += q ? 2 * ((int64_t)q[gb_grid_id(g, x, y)] + q[gb_grid_id(g, x + dx, y + dy)]) : 1;
        }
    }
    out->straight = straight;
    out->diag = diag;
    out->scale = q ? g->cscale : 1;
    out->cost = q ? gb_check_cost_scaled(straight, diag, out->scale) : gb_check_cost(straight, diag);
    /* A sum of k terms in double carries at most about k * eps relative
     * error; JPS multiplies steps by sqrt 2, which adds one rounding. */
    out->tol = ((double)n + 2.0) * DBL_EPSILON * (out->cost > 1.0 ? out->cost : 1.0);
    if (!(fabs(reported_cost - out->cost) <= out->tol))
        return gb_check_fail(out, -1,
                             "expected the reported cost to equal the path's cost %.10g, found %.10g",
                             out->cost, reported_cost);
    out->ok = 1;
    return 1;
}
