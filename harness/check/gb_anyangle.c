/*
 * gb_anyangle.c -- any-angle path validator (see gb_anyangle.h for the
 * rule).
 *
 * Method: column strips, not a walk.  Orient the segment so that
 * x0 <= x1.  A vertical segment (x0 == x1) touches the cells (x0, y) for
 * y between the endpoints.  Otherwise, for each column c = x0 .. x1 the
 * segment's part inside the closed strip [c, c+1] spans X from
 * max(c, x0 + 1/2) to min(c + 1, x1 + 1/2), and since y is monotone in
 * X, its y values span the closed interval between the y at those two
 * ends; the closed square of row r meets it iff r <= y_hi and
 * r + 1 >= y_lo, i.e. r = ceil(y_lo) - 1 .. floor(y_hi).  Everything is
 * exact in integers scaled by 2 dx: with X2 = 2X,
 *     2 dx * y(X) = (2 y0 + 1) dx + (X2 - 2 x0 - 1) dy,
 * and y >= 1/2 keeps the scaled values positive.  The solvers' walk
 * (gb_los.h) visits cells crossing by crossing instead; the two agree on
 * the set of touched cells, which the tests check on random segments.
 *
 * Time complexity: O(|dx| + |dy| + 1) per segment.
 */
#include "gb_anyangle.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

double gb_anyangle_dist(gb_xy a, gb_xy b)
{
    const double dx = (double)b.x - (double)a.x, dy = (double)b.y - (double)a.y;
    return sqrt(dx * dx + dy * dy);
}

static int cell_ok(const gb_grid *g, int64_t x, int64_t y, gb_xy *bad)
{
    if (x >= 0 && y >= 0 && x < g->width && y < g->height
        && gb_grid_passable_xy(g, (int32_t)x, (int32_t)y))
        return 1;
    if (bad) { bad->x = (int32_t)x; bad->y = (int32_t)y; }
    return 0;
}

int gb_anyangle_sight(const gb_grid *g, gb_xy a, gb_xy b, gb_xy *bad)
{
    if (a.x > b.x) { gb_xy t = a; a = b; b = t; }
    const int64_t dx = (int64_t)b.x - a.x, dy = (int64_t)b.y - a.y;
    if (dx == 0) {
        const int64_t lo = dy < 0 ? b.y : a.y, hi = dy < 0 ? a.y : b.y;
        for (int64_t y = lo; y <= hi; y++)
            if (!cell_ok(g, a.x, y, bad)) return 0;
        return 1;
    }
    const int64_t D = 2 * dx;
    for (int64_t c = a.x; c <= b.x; c++) {
        const int64_t x2lo = 2 * c > 2 * (int64_t)a.x + 1 ? 2 * c : 2 * (int64_t)a.x + 1;
        const int64_t x2hi = 2 * c + 2 < 2 * (int64_t)b.x + 1 ? 2 * c + 2 : 2 * (int64_t)b.x + 1;
        const int64_t ya = (2 * (int64_t)a.y + 1) * dx + (x2lo - 2 * (int64_t)a.x - 1) * dy;
        const int64_t yb = (2 * (int64_t)a.y + 1) * dx + (x2hi - 2 * (int64_t)a.x - 1) * dy;
        const int64_t ylo = ya < yb ? ya : yb, yhi = ya < yb ? yb : ya;
        /* ylo, yhi > 0: ceil and floor by integer division */
        const int64_t rlo = (ylo + D - 1) / D - 1, rhi = yhi / D;
        for (int64_t r = rlo; r <= rhi; r++)
            if (!cell_ok(g, c, r, bad)) return 0;
    }
    return 1;
}

int gb_anyangle_ends(gb_xy start, gb_xy goal, const gb_xy *path, size_t n, gb_check *out)
{
    memset(out, 0, sizeof *out);
    out->bad_step = -1;
    if (n == 0)
        return gb_check_fail(out, -1,
                             "expected an any-angle path from (%d,%d) to (%d,%d), found an empty "
                             "path",
                             start.x, start.y, goal.x, goal.y);
    if (path[0].x != start.x || path[0].y != start.y)
        return gb_check_fail(out, 0, "expected the path to start at (%d,%d), found (%d,%d)", start.x,
                             start.y, path[0].x, path[0].y);
    if (path[n - 1].x != goal.x || path[n - 1].y != goal.y)
        return gb_check_fail(out, (int64_t)n - 1, "expected the path to end at (%d,%d), found (%d,%d)",
                             goal.x, goal.y, path[n - 1].x, path[n - 1].y);
    return 1;
}

int gb_anyangle_legal(const gb_grid *g, gb_xy start, gb_xy goal, const gb_xy *path, size_t n,
                      gb_check *out)
{
    if (!gb_anyangle_ends(start, goal, path, n, out)) return 0;
    gb_xy bad;
    if (!gb_anyangle_sight(g, path[0], path[0], &bad))
        return gb_check_fail(out, 0,
                             "expected a passable start cell, found (%d,%d) blocked or outside "
                             "the map",
                             path[0].x, path[0].y);
    for (size_t i = 0; i + 1 < n; i++) {
        const gb_xy a = path[i], b = path[i + 1];
        if (a.x == b.x && a.y == b.y)
            return gb_check_fail(out, (int64_t)i,
                                 "segment %zu: expected two different waypoints, found "
                                 "(%d,%d) twice",
                                 i, a.x, a.y);
        if (!gb_anyangle_sight(g, a, b, &bad))
            return gb_check_fail(out, (int64_t)i,
                                 "segment %zu: expected line of sight from (%d,%d) to "
                                 "(%d,%d), found it touches (%d,%d), blocked or outside the map "
                                 "(no corner cutting)",
                                 i, a.x, a.y, b.x, b.y, bad.x, bad.y);
    }
    return 1;
}

int gb_validate_anyangle(const gb_grid *g, gb_xy start, gb_xy goal, const gb_xy *path, size_t n,
                         double reported_cost, gb_check *out)
{
    if (!gb_anyangle_legal(g, start, goal, path, n, out)) return 0;
    double cost = 0.0;
    for (size_t i = 0; i + 1 < n; i++) cost += gb_anyangle_dist(path[i], path[i + 1]);
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
