/*
 * nopath_plugin.c -- a deliberately wrong user solver for the tests: it
 * says "no path" to every query.  gridbench must call each such row
 * false_unreachable whenever a path exists, whatever the oracle cache
 * claims.
 */
#include <gb_user.h>

const gb_user_solver *gb_plugin_solvers(int *n);

static int32_t no_path(void *ctx, const gb_grid *g, gb_model m, int32_t s, int32_t t,
                       int32_t *path, int32_t cap, gb_stats *st)
{
    (void)ctx; (void)g; (void)m; (void)s; (void)t; (void)path; (void)cap; (void)st;
    return 0;
}

static const gb_user_solver solvers[] = { { "no-path", no_path, 0, 1 } };

const gb_user_solver *gb_plugin_solvers(int *n)
{
    *n = 1;
    return solvers;
}
