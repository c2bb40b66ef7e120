/*
 * hooks_plugin.c -- a user plugin with per-map hooks (gb_user_hooks), for
 * tests/test_plugin.c.
 *
 *   prep-ws     prepare makes a workspace on the map (gb_ws_new, the
 *               allocation a plugin wants out of the timed call) and
 *               keeps it in its context; solve runs Dijkstra on it and
 *               returns -1 when no workspace was prepared; release frees
 *               it.  Every row must be ok, with prep_ns set.
 *   prep-fails  prepare returns -1: every row is crash.
 *
 * Built with -DGB_TEST_BAD_HOOK its hook table names a solver it does not
 * have: the plugin must be refused.
 *
 * When $GB_HOOK_LOG names a file, every prepare and release appends a
 * line to it ("prepare WxH", "release") so a test can count them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gb_search.h>
#include <gb_user.h>

const gb_user_solver *gb_plugin_solvers(int *n);
const gb_user_hooks *gb_plugin_hooks(int *n);

typedef struct state {
    gb_ws *ws;                 /* this map's workspace, NULL between maps */
    gb_solver_spec dij;
} state;

static state st_ws;

static void logline(const char *fmt, int a, int b)
{
    const char *p = getenv("GB_HOOK_LOG");
    if (!p || !*p) return;
    FILE *f = fopen(p, "a");
    if (!f) return;
    fprintf(f, fmt, a, b);
    fclose(f);
}

static int prep_ws(void *ctx, const gb_grid *g, gb_model m)
{
    state *s = ctx;
    char err[128];
    if (s->ws || gb_solver_parse("dijkstra", &s->dij, err, sizeof err) != 0) return -1;
    s->ws = gb_ws_new(g, m);
    if (!s->ws || gb_ws_prepare(s->ws, &s->dij, GB_Q_BHEAP) != 0) return -1;
    logline("prepare %dx%d\n", g->width, g->height);
    return 0;
}

static void release_ws(void *ctx)
{
    state *s = ctx;
    gb_ws_free(s->ws);
    s->ws = NULL;
    logline("release\n", 0, 0);
}

static int32_t solve_ws(void *ctx, const gb_grid *g, gb_model m, int32_t s, int32_t t,
                        int32_t *path, int32_t cap, gb_stats *st)
{
    (void)g; (void)m;
    state *c = ctx;
    if (!c->ws) return -1;             /* prepare was not called */
    gb_result r;
    if (gb_solve(c->ws, &c->dij, GB_Q_BHEAP, s, t, &r) != 0) return -1;
    if (r.status != GB_FOUND) return 0;
    if (r.path_len > cap) return -1;
    memcpy(path, r.path, (size_t)r.path_len * sizeof *path);
    *st = r.st;
    return r.path_len;
}

static int prep_fails(void *ctx, const gb_grid *g, gb_model m)
{
    (void)ctx; (void)g; (void)m;
    return -1;
}

static int32_t never_called(void *ctx, const gb_grid *g, gb_model m, int32_t s, int32_t t,
                            int32_t *path, int32_t cap, gb_stats *st)
{
    (void)ctx; (void)g; (void)m; (void)s; (void)t; (void)path; (void)cap; (void)st;
    abort();                           /* its prepare failed: gridbench must not call it */
}

static const gb_user_solver solvers[] = {
    { "prep-ws", solve_ws, &st_ws, 1 },
    { "prep-fails", never_called, NULL, 1 },
};

static const gb_user_hooks hooks[] = {
    { "prep-ws", prep_ws, release_ws },
    { "prep-fails", prep_fails, NULL },
};

const gb_user_solver *gb_plugin_solvers(int *n)
{
    *n = 2;
    return solvers;
}

#ifndef GB_TEST_BAD_HOOK
const gb_user_hooks *gb_plugin_hooks(int *n)
{
    *n = 2;
    return hooks;
}
#else
const gb_user_hooks *gb_plugin_hooks_bad(int *n);
const gb_user_hooks *gb_plugin_hooks(int *n) { return gb_plugin_hooks_bad(n); }
#endif

#ifdef GB_TEST_BAD_HOOK
/* built with -DGB_TEST_BAD_HOOK: a hook naming no solver of the table */
const gb_user_hooks *gb_plugin_hooks_bad(int *n);
static const gb_user_hooks bad[] = { { "no-such-solver", prep_fails, NULL } };
const gb_user_hooks *gb_plugin_hooks_bad(int *n)
{
    *n = 1;
    return bad;
}
#endif
