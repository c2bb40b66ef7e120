/*
 * crash_plugin.c -- a user plugin that crashes, for tests/test_plugin.c.
 *
 *   segv-some   on queries whose start cell id is even it dereferences a
 *               null pointer (SIGSEGV); on the others it answers "no
 *               path".  gridbench must write a crash row for each
 *               crashing query, keep the other solvers' rows of that
 *               query, and go on.
 */
#include <stddef.h>

#include <gb_user.h>

const gb_user_solver *gb_plugin_solvers(int *n);

static int32_t segv_some(void *ctx, const gb_grid *g, gb_model m, int32_t s, int32_t t,
                         int32_t *path, int32_t cap, gb_stats *st)
{
    (void)ctx; (void)g; (void)m; (void)t; (void)path; (void)cap; (void)st;
    if (s % 2 == 0) {
        volatile int *p = NULL;
        return *p;
    }
    return 0;
}

static const gb_user_solver solvers[] = { { "segv-some", segv_some, NULL, 1 } };

const gb_user_solver *gb_plugin_solvers(int *n)
{
    *n = 1;
    return solvers;
}
