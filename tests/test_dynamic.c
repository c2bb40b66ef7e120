/*
 * test_dynamic.c -- dynamic maps: the cell flip and local mask repair of
 * gb_grid, D* Lite against Dijkstra after every change, the dynamic
 * scenario loader's diagnostics, the seeded generator, and the
 * `gridbench dynamic` replay runner's rows.
 *
 * More random cases: GB_DYN_CASES=N (default 3000) and GB_DYN_SEED=S.
 */
#include "gb_test.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gb_alloc.h"
#include "gb_dstar.h"
#include "gb_dynscen.h"
#include "gb_search.h"
#include "gb_validate.h"

static uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static int32_t below(uint64_t *s, int32_t n) { return (int32_t)(rng_next(s) % (uint64_t)n); }

static long env_long(const char *name, long dflt)
{
    const char *v = getenv(name);
    return v && *v ? strtol(v, NULL, 10) : dflt;
}

/* A random w x h grid with about pct % blocked cells. */
static void random_grid(gb_grid *g, int32_t w, int32_t h, int pct, uint64_t *r)
{
    cr_assert_eq(gb_grid_init(g, w, h), 0);
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++)
            g->pass[gb_grid_id(g, x, y)] = below(r, 100) >= pct;
    gb_grid_recount(g);
}

/* ---- the grid's local repair ---------------------------------------------- */

GB_TEST(dynamic, grid_local_masks_equal_full_rebuild)
{
    uint64_t r = 7;
    for (int it = 0; it < 300; it++) {
        gb_grid g;
        random_grid(&g, 3 + below(&r, 14), 3 + below(&r, 14), below(&r, 50), &r);
        gb_model m = (gb_model)below(&r, GB_MODEL_COUNT);
        uint8_t *mv = malloc((size_t)g.ncells), *full = malloc((size_t)g.ncells);
        gb_grid_moves(&g, m, mv);
        for (int k = 0; k < 20; k++) {
            int32_t id = gb_grid_id(&g, below(&r, g.width), below(&r, g.height));
            int was = g.pass[id], np = g.npassable;
            cr_assert_eq(gb_grid_set(&g, id, !was), 1);
            cr_assert_eq(g.npassable, np + (was ? -1 : 1));
            cr_assert_eq(gb_grid_set(&g, id, !was), 0, "no change the second time");
            gb_grid_moves_around(&g, m, mv, id);
            gb_grid_moves(&g, m, full);
            cr_assert(memcmp(mv, full, (size_t)g.ncells) == 0,
                      "masks after flipping a cell differ from a full rebuild (model %s)",
                      gb_model_name(m));
        }
        cr_assert_eq(gb_grid_set(&g, 0, 1), -1, "a border cell is not a map cell");
        free(mv);
        free(full);
        gb_grid_free(&g);
    }
}

/* ---- D* Lite against Dijkstra ------------------------------------------------ */

/* Dijkstra's cost from a to b on g as it is now (gb_solve dijkstra on a
 * workspace kept in step), validated; found = 0 when unreachable. */
static int oracle(gb_ws *ws, const gb_grid *g, gb_model m, int32_t a, int32_t b, gb_check *chk)
{
    gb_solver_spec sp;
    char err[128];
    cr_assert_eq(gb_solver_parse("dijkstra", &sp, err, sizeof err), 0);
    gb_result res;
    cr_assert_eq(gb_solve(ws, &sp, GB_Q_BHEAP, a, b, &res), 0);
    if (res.status != GB_FOUND) return 0;
    gb_xy *xy = malloc((size_t)res.path_len * sizeof *xy);
    for (int32_t i = 0; i < res.path_len; i++)
        xy[i] = (gb_xy){ gb_grid_x(g, res.path[i]), gb_grid_y(g, res.path[i]) };
    gb_xy s = { gb_grid_x(g, a), gb_grid_y(g, a) }, t = { gb_grid_x(g, b), gb_grid_y(g, b) };
    cr_assert(gb_validate_path(g, m, s, t, xy, (size_t)res.path_len, res.cost, chk), "%s",
              chk->msg);
    free(xy);
    return 1;
}

/* The D* Lite plan must be found iff Dijkstra finds one, valid on the map
 * now, and cost exactly what Dijkstra's path costs. */
static void check_plan(const gb_grid *g, gb_model m, int32_t a, int32_t b,
                       const gb_dstar_plan *p, gb_ws *ws, const char *where, int it)
{
    gb_check oc;
    int ofound = oracle(ws, g, m, a, b, &oc);
    cr_assert_eq(p->found, ofound, "%s (case %d): D* Lite found=%d, Dijkstra found=%d",
                 where, it, p->found, ofound);
    if (!ofound) return;
    gb_xy *xy = malloc((size_t)p->path_len * sizeof *xy);
    for (int32_t i = 0; i < p->path_len; i++)
        xy[i] = (gb_xy){ gb_grid_x(g, p->path[i]), gb_grid_y(g, p->path[i]) };
    gb_xy s = { gb_grid_x(g, a), gb_grid_y(g, a) }, t = { gb_grid_x(g, b), gb_grid_y(g, b) };
    gb_check dc;
    int ok = gb_validate_path(g, m, s, t, xy, (size_t)p->path_len, p->cost, &dc);
    free(xy);
    cr_assert(ok, "%s (case %d): D* Lite path invalid: %s", where, it, dc.msg);
    cr_assert(dc.straight == p->straight && dc.diag == p->diag,
              "%s (case %d): D* Lite says %lld+%lld*sqrt2, its path has %lld+%lld*sqrt2",
              where, it, (long long)p->straight, (long long)p->diag, (long long)dc.straight,
              (long long)dc.diag);
    cr_assert_eq(gb_check_cmp(&dc, &oc), 0,
                 "%s (case %d, model %s): D* Lite cost %.9f (%lld+%lld*sqrt2), Dijkstra %.9f "
                 "(%lld+%lld*sqrt2)", where, it, gb_model_name(m), dc.cost,
                 (long long)dc.straight, (long long)dc.diag, oc.cost,
                 (long long)oc.straight, (long long)oc.diag);
}

GB_TEST(dynamic, dstar_equals_dijkstra_after_every_change)
{
    long ncases = env_long("GB_DYN_CASES", 3000);
    uint64_t r = (uint64_t)env_long("GB_DYN_SEED", 17);
    long plans = 0, repairs = 0;
    for (int it = 0; it < ncases; it++) {
        gb_grid g;
        random_grid(&g, 2 + below(&r, 20), 2 + below(&r, 20), below(&r, 45), &r);
        gb_model m = (gb_model)below(&r, GB_MODEL_COUNT);
        /* start and goal: passable cells (forced free) */
        int32_t a = gb_grid_id(&g, below(&r, g.width), below(&r, g.height));
        int32_t b = gb_grid_id(&g, below(&r, g.width), below(&r, g.height));
        gb_grid_set(&g, a, 1);
        gb_grid_set(&g, b, 1);
        gb_ws *ws = gb_ws_new(&g, m);
        gb_dstar *d = gb_dstar_new(&g, m);
        cr_assert(ws && d);
        gb_dstar_begin(d, a, b);
        gb_dstar_plan p;
        cr_assert_eq(gb_dstar_plan_path(d, &p), 0);
        check_plan(&g, m, a, b, &p, ws, "first plan", it);
        plans++;
        int32_t agent = a;
        int rounds = 1 + below(&r, 8);
        for (int k = 0; k < rounds; k++) {
            /* the agent walks a few steps of its plan */
            if (p.found) {
                int32_t steps = below(&r, 4);
                if (steps > p.path_len - 1) steps = p.path_len - 1;
                agent = p.path[steps];
                gb_dstar_move(d, agent);
            }
            /* a few cells flip (never the agent's or the goal's), some twice */
            int nflip = 1 + below(&r, 6);
            for (int f = 0; f < nflip; f++) {
                int32_t c = gb_grid_id(&g, below(&r, g.width), below(&r, g.height));
                if (c == agent || c == b) continue;
                gb_grid_set(&g, c, !g.pass[c]);
                gb_ws_cell_changed(ws, c);
                gb_dstar_cell_changed(d, c);
            }
            cr_assert_eq(gb_dstar_plan_path(d, &p), 0, "case %d: path extraction failed", it);
            check_plan(&g, m, agent, b, &p, ws, "repaired plan", it);
            repairs++;
        }
        gb_dstar_free(d);
        gb_ws_free(ws);
        gb_grid_free(&g);
    }
    cr_log_info("D* Lite: %ld first plans and %ld repaired plans equal Dijkstra", plans,
                repairs);
}

/* A second episode on the same state forgets the first (stamps), and a
 * change far from the path expands far less than the first plan. */
GB_TEST(dynamic, dstar_repairs_locally_and_restarts_clean)
{
    gb_grid g;
    cr_assert_eq(gb_grid_init(&g, 64, 64), 0);
    for (int32_t y = 0; y < 64; y++)
        for (int32_t x = 0; x < 64; x++) g.pass[gb_grid_id(&g, x, y)] = 1;
    gb_grid_recount(&g);
    gb_dstar *d = gb_dstar_new(&g, GB_MODEL_8_NOCUT);
    gb_ws *ws = gb_ws_new(&g, GB_MODEL_8_NOCUT);
    int32_t a = gb_grid_id(&g, 0, 0), b = gb_grid_id(&g, 63, 0);
    gb_dstar_plan p;
    gb_dstar_begin(d, a, b);
    cr_assert_eq(gb_dstar_plan_path(d, &p), 0);
    cr_assert(p.found && p.straight == 63 && p.diag == 0);
    uint64_t first = p.expanded;
    /* a wall cell far below the straight path */
    int32_t c = gb_grid_id(&g, 30, 60);
    gb_grid_set(&g, c, 0);
    gb_ws_cell_changed(ws, c);
    gb_dstar_cell_changed(d, c);
    cr_assert_eq(gb_dstar_plan_path(d, &p), 0);
    cr_assert(p.found && p.straight == 63 && p.diag == 0);
    cr_assert_lt(p.expanded, first / 4 + 1, "repair expanded %llu, first plan %llu",
                 (unsigned long long)p.expanded, (unsigned long long)first);
    /* block the path right ahead: it must bend (cost 62 + 2 sqrt2 - ...) */
    c = gb_grid_id(&g, 1, 0);
    gb_grid_set(&g, c, 0);
    gb_ws_cell_changed(ws, c);
    gb_dstar_cell_changed(d, c);
    cr_assert_eq(gb_dstar_plan_path(d, &p), 0);
    check_plan(&g, GB_MODEL_8_NOCUT, a, b, &p, ws, "bend", 0);
    cr_assert(p.diag > 0);
    /* a new episode, the other way round */
    gb_dstar_begin(d, b, a);
    cr_assert_eq(gb_dstar_plan_path(d, &p), 0);
    check_plan(&g, GB_MODEL_8_NOCUT, b, a, &p, ws, "second episode", 0);
    gb_dstar_free(d);
    gb_ws_free(ws);
    gb_grid_free(&g);
}
