/*
 * log_plugin.c -- two user solvers for the tests of the timing regimes:
 * log-a and log-b append "NAME SX,SY" to the file $GB_CALL_LOG at every
 * call and answer "no path".  The log shows the order in which gridbench
 * ran the pairs and queries.
 */
#include <stdio.h>
#include <stdlib.h>

#include <gb_user.h>

const gb_user_solver *gb_plugin_solvers(int *n);

static int32_t logged(void *ctx, const gb_grid *g, gb_model m, int32_t s, int32_t t,
                      int32_t *path, int32_t cap, gb_stats *st)
{
    (void)m; (void)t; (void)path; (void)cap; (void)st;
    const char *log = getenv("GB_CALL_LOG");
    FILE *f = log ? fopen(log, "a") : NULL;
    if (!f) return -1;
    fprintf(f, "%s %d,%d\n", (const char *)ctx, gb_grid_x(g, s), gb_grid_y(g, s));
    fclose(f);
    return 0;
}

static const gb_user_solver solvers[] = {
    { "log-a", logged, "a", 1 },
    { "log-b", logged, "b", 1 },
};

const gb_user_solver *gb_plugin_solvers(int *n)
{
    *n = 2;
    return solvers;
}
