/*
 * wrong_plugin.c -- a deliberately wrong user solver for the tests: it
 * answers every query with the straight line from start to goal (cells
 * stepped like Bresenham's), walls and corners ignored.  gridbench must
 * flag its rows invalid_path and exit 1.
 */
#include <gb_user.h>

const gb_user_solver *gb_plugin_solvers(int *n);

static int32_t straight_line(void *ctx, const gb_grid *g, gb_model m, int32_t s, int32_t t,
                             int32_t *path, int32_t cap, gb_stats *st)
{
    (void)ctx; (void)m; (void)st;
    int32_t x = s % g->stride, y = s / g->stride, tx = t % g->stride, ty = t / g->stride, n = 0;
    while (n < cap) {
        path[n++] = y * g->stride + x;
        if (x == tx && y == ty) return n;
        x += (tx > x) - (tx < x);
        y += (ty > y) - (ty < y);
    }
    return -1;
}

static const gb_user_solver solvers[] = { { "straight-line", straight_line, 0, 1 } };

const gb_user_solver *gb_plugin_solvers(int *n)
{
    *n = 1;
    return solvers;
}
