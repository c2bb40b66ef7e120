/*
 * api_plugin.c -- a user plugin that calls the library: its solver makes a
 * workspace on the grid it is given and runs the built-in Dijkstra
 * through gb_solve (gb_search.h).  It loads only if the gridbench binary
 * exports its library (-rdynamic, whole archive); every row must be ok.
 */
#include <string.h>

#include <gb_search.h>
#include <gb_user.h>

const gb_user_solver *gb_plugin_solvers(int *n);

static int32_t via_library(void *ctx, const gb_grid *g, gb_model m, int32_t s, int32_t t,
                           int32_t *path, int32_t cap, gb_stats *st)
{
    (void)ctx;
    gb_solver_spec sp;
    char err[128];
    if (gb_solver_parse("dijkstra", &sp, err, sizeof err) != 0) return -1;
    gb_ws *ws = gb_ws_new(g, m);
    if (!ws) return -1;
    gb_result r;
    int32_t n = -1;
    if (gb_solve(ws, &sp, GB_Q_BHEAP, s, t, &r) == 0) {
        n = r.status == GB_FOUND ? r.path_len : 0;
        if (n > cap) n = -1;
        else if (n > 0) memcpy(path, r.path, (size_t)n * sizeof *path);
        *st = r.st;
    }
    gb_ws_free(ws);
    return n;
}

static const gb_user_solver solvers[] = { { "via-library", via_library, 0, 1 } };

const gb_user_solver *gb_plugin_solvers(int *n)
{
    *n = 1;
    return solvers;
}
