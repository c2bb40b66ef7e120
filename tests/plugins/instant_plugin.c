/*
 * instant_plugin.c -- a plugin solver that does no search, for measuring
 * the cost of a plugin call: it answers the one-cell path at its start
 * (right only when start == goal).  Its time_ns is gridbench's timing
 * wrapper (two clock reads) and the call through the plugin's pointer.
 *
 *   cc -O2 -shared -fPIC -Isolvers -Iharness/core -Iharness/run tests/plugins/instant_plugin.c -o instant.so
 *   gridbench run --plugin ./instant.so --solver instant-plugin SAME.scen
 */
#include <gb_user.h>

const gb_user_solver *gb_plugin_solvers(int *n);

static int32_t instant(void *ctx, const gb_grid *g, gb_model m, int32_t s, int32_t t,
                       int32_t *path, int32_t cap, gb_stats *st)
{
    (void)ctx; (void)g; (void)m; (void)t; (void)cap; (void)st;
    path[0] = s;
    return 1;
}

static const gb_user_solver solvers[] = { { "instant-plugin", instant, 0, 1 } };

const gb_user_solver *gb_plugin_solvers(int *n)
{
    *n = 1;
    return solvers;
}
