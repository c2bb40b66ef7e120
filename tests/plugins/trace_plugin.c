/*
 * trace_plugin.c -- user solvers for `gridbench trace --plugin`
 * (tests/test_trace.c): the example Dijkstra of examples/user_dijkstra.h
 * built with its trace calls (traced-dijkstra), and one whose expanded
 * counter disagrees with its calls (miscounted, refused).
 */
#define GB_USER_TRACE 1
#include "../../examples/user_dijkstra.h"

const gb_user_solver *gb_plugin_solvers(int *n);

static int32_t miscounted(void *ctx, const gb_grid *g, gb_model m, int32_t s, int32_t t, int32_t *path,
                          int32_t cap, gb_stats *st)
{
    int32_t n = user_dijkstra(ctx, g, m, s, t, path, cap, st);
    st->expanded += 1; /* one more than it told */
    return n;
}

static const gb_user_solver solvers[] = {
    { "traced-dijkstra", user_dijkstra, NULL, 1 },
    { "miscounted", miscounted, NULL, 1 },
};

const gb_user_solver *gb_plugin_solvers(int *n)
{
    *n = (int)(sizeof solvers / sizeof solvers[0]);
    return solvers;
}
