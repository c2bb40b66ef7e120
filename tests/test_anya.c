/*
 * test_anya.c -- Anya (solvers/gb_anya.c) against the exact any-angle
 * optimum of the GPPC model (gb_aaoracle.h, itself proven against brute
 * force in test_aagppc.c): equal cost, the same reachability, and every
 * path legal under the GPPC validator (gb_aagppc.h).  On random small
 * grids (2,000 in make test, 10,000 in make test-full), on every query
 * of the shared DAO arena, and on a sample of the other shared maps; the
 * runner's verdict on anya rows, and its refusal outside the GPPC model.
 */
#include "gb_test.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gb_aagppc.h"
#include "gb_aaoracle.h"
#include "gb_grid.h"
#include "gb_map.h"
#include "gb_scen.h"
#include "gb_search.h"
#include "gb_stats.h"
#include "gb_validate.h"

#define XY(a, b) ((gb_xy){ (a), (b) })

static gb_solver_spec anya_spec(void)
{
    gb_solver_spec sp;
    char err[256];
    cr_assert_eq(gb_solver_parse("anya", &sp, err, sizeof err), 0, "%s", err);
    sp.aa_gppc = 1;
    return sp;
}

/* One query: Anya against the oracle.  Returns 1 reachable, 0 not. */
static int check_query(gb_ws *ws, gb_aaoracle *o, const gb_grid *g, gb_xy s, gb_xy t,
                       double upper, const char *what)
{
    const gb_solver_spec sp = anya_spec();
    gb_result r;
    cr_assert_eq(gb_solve(ws, &sp, GB_Q_BHEAP, gb_grid_id(g, s.x, s.y), gb_grid_id(g, t.x, t.y),
                          &r), 0, "%s: gb_solve failed", what);
    double c = -1.0;
    const int ro = gb_aaoracle_solve(o, s, t, upper, &c, NULL, NULL);
    cr_assert_neq(ro, -1);
    cr_assert_neq(r.status, GB_LIMIT, "%s: anya stopped by a limit", what);
    cr_assert_eq(r.status == GB_FOUND, ro == 1, "%s (%d,%d)->(%d,%d): anya %s, oracle %s (%.12f)",
                 what, s.x, s.y, t.x, t.y, r.status == GB_FOUND ? "found a path" : "found none",
                 ro ? "found one" : "none", c);
    if (ro != 1) return 0;
    cr_assert(fabs(r.cost - c) <= 1e-9 * (c > 1 ? c : 1), "%s (%d,%d)->(%d,%d): anya %.12f, "
              "oracle %.12f", what, s.x, s.y, t.x, t.y, r.cost, c);
    gb_xy *p = malloc(((size_t)r.path_len + 1) * sizeof *p);
    cr_assert_not_null(p);
    for (int32_t k = 0; k < r.path_len; k++)
        p[k] = XY(gb_grid_x(g, r.path[k]), gb_grid_y(g, r.path[k]));
    gb_check ck;
    const int ok = gb_validate_aagppc(g, s, t, p, (size_t)r.path_len, r.cost, &ck);
    free(p);
    cr_assert(ok, "%s (%d,%d)->(%d,%d): anya's path: %s", what, s.x, s.y, t.x, t.y, ck.msg);
    return 1;
}

static void random_grid(gb_grid *g, uint64_t *seed, int w, int h, unsigned pct)
{
    cr_assert_eq(gb_grid_init(g, w, h), 0);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            g->pass[gb_grid_id(g, x, y)] = (gb_rng_next(seed) % 100) >= pct;
    gb_grid_recount(g);
}

/* 2,000 grids from 2 x 2 to 12 x 12 (10,000 in full), then 200 from
 * 12 x 12 to 44 x 44 (1,000), with 5-44 % of the cells blocked; three
 * queries on each. */
GB_TEST(anya, agrees_with_the_exact_optimum_on_random_grids, .timeout = 3000)
{
    uint64_t seed = 2013;
    const int small = gb_test_full() ? 10000 : 2000, grids = small + (gb_test_full() ? 1000 : 200);
    int reachable = 0, unreachable = 0, dbl_ends = 0, dbl_found = 0;
    for (int it = 0; it < grids; it++) {
        gb_grid g;
        const int base = it < small ? 2 : 12, span = it < small ? 11 : 33;
        const int w = base + (int)(gb_rng_next(&seed) % (unsigned)span);
        const int h = base + (int)(gb_rng_next(&seed) % (unsigned)span);
        random_grid(&g, &seed, w, h, 5 + (unsigned)(gb_rng_next(&seed) % 40));
        gb_ws *ws = gb_ws_new(&g, GB_MODEL_8_NOCUT);
        cr_assert_not_null(ws);
        gb_aaoracle o;
        cr_assert_eq(gb_aaoracle_init(&o, &g), 0);
        for (int k = 0; k < 3; k++) {   /* three queries per grid */
            gb_xy s, t;
            int tries = 0;
            do {
                s = XY((int)(gb_rng_next(&seed) % (unsigned)w), (int)(gb_rng_next(&seed) % (unsigned)h));
                t = XY((int)(gb_rng_next(&seed) % (unsigned)w), (int)(gb_rng_next(&seed) % (unsigned)h));
            } while ((!gb_grid_passable_xy(&g, s.x, s.y) || !gb_grid_passable_xy(&g, t.x, t.y))
                     && ++tries < 100);
            if (tries >= 100) break;
            char what[64];
            snprintf(what, sizeof what, "grid %d (%dx%d) query %d", it, w, h, k);
            if (check_query(ws, &o, &g, s, t, INFINITY, what)) {
                reachable++;
                dbl_found += gb_aagppc_double(&g, s.x, s.y) || gb_aagppc_double(&g, t.x, t.y);
            } else {
                unreachable++;
            }
            dbl_ends += gb_aagppc_double(&g, s.x, s.y) || gb_aagppc_double(&g, t.x, t.y);
        }
        gb_aaoracle_free(&o);
        gb_ws_free(ws);
        gb_grid_free(&g);
    }
    cr_expect_gt(reachable, grids);
    cr_expect_gt(unreachable, grids / 50);
    cr_expect_gt(dbl_ends, grids / 100, "starts or goals on double corners: %d", dbl_ends);
    cr_expect_gt(dbl_found, 0, "reachable queries with an end on a double corner: %d", dbl_found);
}

/* Cul-de-sac pruning (a cone node whose row ahead is blocked is not
 * made) must keep the goal's node.  The goal's own cell is free, so the
 * case is a goal whose two cells above are blocked, reached by a cone
 * going up: on 600 random grids (3,000 in full), 3 such queries each.  A
 * pruning that forgot the goal would miss it or go a longer way round. */
GB_TEST(anya, cul_de_sac_pruning_keeps_goals_against_a_wall, .timeout = 3000)
{
    uint64_t seed = 2016;
    const int grids = gb_test_full() ? 3000 : 600;
    int walled = 0;
    for (int it = 0; it < grids; it++) {
        gb_grid g;
        const int w = 4 + (int)(gb_rng_next(&seed) % 20), h = 4 + (int)(gb_rng_next(&seed) % 20);
        random_grid(&g, &seed, w, h, 15 + (unsigned)(gb_rng_next(&seed) % 30));
        gb_ws *ws = gb_ws_new(&g, GB_MODEL_8_NOCUT);
        cr_assert_not_null(ws);
        gb_aaoracle o;
        cr_assert_eq(gb_aaoracle_init(&o, &g), 0);
        for (int k = 0; k < 40 && walled < 3 * (it + 1); k++) {
            const gb_xy t =
                XY((int)(gb_rng_next(&seed) % (unsigned)w), (int)(gb_rng_next(&seed) % (unsigned)h));
            const gb_xy s =
                XY((int)(gb_rng_next(&seed) % (unsigned)w), (int)(gb_rng_next(&seed) % (unsigned)h));
            if (!gb_grid_passable_xy(&g, t.x, t.y) || !gb_grid_passable_xy(&g, s.x, s.y)) continue;
            if ((gb_aagppc_around(&g, t.x, t.y) & 3u) != 3u) continue; /* NW, NE blocked */
            char what[64];
            snprintf(what, sizeof what, "grid %d (%dx%d) walled goal", it, w, h);
            check_query(ws, &o, &g, s, t, INFINITY, what);
            walled++;
        }
        gb_aaoracle_free(&o);
        gb_ws_free(ws);
        gb_grid_free(&g);
    }
    cr_expect_gt(walled, grids);
}

/* A start or goal on a double corner leaves or is entered from its
 * south-east side only (V2); the way round is longer. */
GB_TEST(anya, double_corner_ends_keep_to_their_own_side)
{
    gb_grid g;
    cr_assert_eq(gb_grid_init(&g, 4, 4), 0);
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 4; x++) g.pass[gb_grid_id(&g, x, y)] = 1;
    /* cells (1,2) and (2,1) blocked: corner (2,2) is a double corner */
    g.pass[gb_grid_id(&g, 1, 2)] = g.pass[gb_grid_id(&g, 2, 1)] = 0;
    gb_grid_recount(&g);
    gb_ws *ws = gb_ws_new(&g, GB_MODEL_8_NOCUT);
    gb_aaoracle o;
    cr_assert_eq(gb_aaoracle_init(&o, &g), 0);
    cr_assert(gb_aagppc_double(&g, 2, 2));
    cr_expect_eq(check_query(ws, &o, &g, XY(2, 2), XY(0, 0), INFINITY, "from the double corner"), 1);
    cr_expect_eq(check_query(ws, &o, &g, XY(0, 0), XY(2, 2), INFINITY, "to the double corner"), 1);
    cr_expect_eq(check_query(ws, &o, &g, XY(1, 1), XY(3, 3), INFINITY, "past it"), 1);
    /* the straight line would cut the double corner: the path goes round */
    const gb_solver_spec sp = anya_spec();
    gb_result r;
    cr_assert_eq(gb_solve(ws, &sp, GB_Q_BHEAP, gb_grid_id(&g, 1, 1), gb_grid_id(&g, 3, 3), &r), 0);
    cr_expect_gt(r.cost, sqrt(8.0) + 1e-9, "cost %.12f", r.cost);
    gb_aaoracle_free(&o);
    gb_ws_free(ws);
    gb_grid_free(&g);
}

GB_TEST(anya, refused_outside_the_gppc_model)
{
    gb_solver_spec sp;
    char err[256];
    cr_assert_eq(gb_solver_parse("anya", &sp, err, sizeof err), 0, "%s", err);
    cr_expect_eq(gb_solver_cost_model(&sp), GB_COST_ANYANGLE);
    cr_expect(gb_solver_aa_optimal(&sp));
    cr_assert_neq(gb_solver_unsupported(&sp, GB_MODEL_8_NOCUT, err, sizeof err), 0);
    cr_expect_str_eq(err, "solver 'anya' searches the GPPC any-angle model only: expected "
                     "--anyangle-model gppc, found the cell-centre model");
    sp.aa_gppc = 1;
    cr_expect_eq(gb_solver_unsupported(&sp, GB_MODEL_8_NOCUT, err, sizeof err), 0);
    cr_expect_neq(gb_solver_unsupported(&sp, GB_MODEL_8_CUTALL, err, sizeof err), 0);
    gb_grid g;
    cr_assert_eq(gb_grid_init(&g, 3, 3), 0);
    gb_ws *ws = gb_ws_new(&g, GB_MODEL_8_NOCUT);
    gb_result r;
    sp.aa_gppc = 0;
    errno = 0;
    cr_expect_eq(gb_solve(ws, &sp, GB_Q_BHEAP, gb_grid_id(&g, 0, 0), gb_grid_id(&g, 2, 2), &r), -1);
    cr_expect_eq(errno, EINVAL);
    gb_ws_free(ws);
    gb_grid_free(&g);
}

/* ---- the shared maps ------------------------------------------------------- */

static int load_pair(const char *rel_map, const char *rel_scen, gb_map *m, gb_scen *sc)
{
    const char *sh = getenv("GB_SHARED");
    char mp[1024], sp[1024];
    snprintf(mp, sizeof mp, "%s/%s", sh && *sh ? sh : "../shared/movingai", rel_map);
    snprintf(sp, sizeof sp, "%s/%s", sh && *sh ? sh : "../shared/movingai", rel_scen);
    gb_diag d;
    memset(&d, 0, sizeof d);
    if (gb_map_load(mp, m, &d) != 0) return 0;
    cr_assert_eq(gb_scen_load(sp, sc, &d), 0, "%s", d.msg);
    return 1;
}

/* Every query of the DAO arena (49 x 49). */
GB_TEST(anya, agrees_with_the_exact_optimum_on_every_arena_query, .timeout = 3000)
{
    gb_map m;
    gb_scen sc;
    if (!load_pair("dao/arena.map", "dao/arena.map.scen", &m, &sc))
        cr_skip_test("dao/arena.map not found: set GB_SHARED to the shared Moving AI copy");
    gb_ws *ws = gb_ws_new(&m.grid, GB_MODEL_8_NOCUT);
    gb_aaoracle o;
    cr_assert_eq(gb_aaoracle_init(&o, &m.grid), 0);
    int n = 0;
    for (size_t i = 0; i < sc.n; i++) {
        char what[64];
        snprintf(what, sizeof what, "arena line %ld", sc.q[i].line);
        n += check_query(ws, &o, &m.grid, XY(sc.q[i].sx, sc.q[i].sy), XY(sc.q[i].gx, sc.q[i].gy),
                         INFINITY, what);
    }
    cr_expect_eq((size_t)n, sc.n);
    cr_expect_geq(n, 100);
    gb_aaoracle_free(&o);
    gb_ws_free(ws);
    gb_scen_free(&sc);
    gb_map_free(&m);
}

/* A sample of the six other shared pairs: in make test 4 queries of each
 * (from the first fifth of the file, where paths are short and the oracle
 * quick), in make test-full 24 spread over the whole file.  The oracle
 * gets the grid optimum as its bound (gb_aaoracle.h's ellipse). */
GB_TEST(anya, agrees_with_the_exact_optimum_on_a_sample_of_the_shared_maps, .timeout = 3000)
{
    static const char *const pairs[][2] = {
        { "bgmaps/AR0011SR.map", "bgmaps/AR0011SR.map.scen" },
        { "mapf/den312d.map", "mapf/den312d-even-10.scen" },
        { "mazes/maze512-4-0.map", "mazes/maze512-4-0.map.scen" },
        { "random/random512-10-0.map", "random/random512-10-0.map.scen" },
        { "street/Berlin_0_256.map", "street/Berlin_0_256.map.scen" },
        { "wc3/divideandconquer.map", "wc3/divideandconquer.map.scen" },
    };
    const int per = gb_test_full() ? 24 : 4;
    int maps = 0, total = 0;
    for (size_t pi = 0; pi < sizeof pairs / sizeof *pairs; pi++) {
        gb_map m;
        gb_scen sc;
        if (!load_pair(pairs[pi][0], pairs[pi][1], &m, &sc)) continue;
        maps++;
        gb_ws *ws = gb_ws_new(&m.grid, GB_MODEL_8_NOCUT);
        gb_aaoracle o;
        cr_assert_eq(gb_aaoracle_init(&o, &m.grid), 0);
        gb_solver_spec dij;
        char err[256];
        cr_assert_eq(gb_solver_parse("astar-octile", &dij, err, sizeof err), 0);
        const size_t span = gb_test_full() ? sc.n : sc.n / 5;
        for (int k = 0; k < per; k++) {
            const size_t i = (size_t)k * span / (size_t)per + (size_t)k % 3;
            if (i >= sc.n) break;
            const gb_query *q = &sc.q[i];
            gb_result r;
            cr_assert_eq(gb_solve(ws, &dij, GB_Q_BHEAP, gb_grid_id(&m.grid, q->sx, q->sy),
                                  gb_grid_id(&m.grid, q->gx, q->gy), &r), 0);
            const double upper = r.status == GB_FOUND ? r.cost : INFINITY;
            char what[128];
            snprintf(what, sizeof what, "%s line %ld", pairs[pi][1], q->line);
            total += check_query(ws, &o, &m.grid, XY(q->sx, q->sy), XY(q->gx, q->gy), upper, what);
        }
        gb_aaoracle_free(&o);
        gb_ws_free(ws);
        gb_scen_free(&sc);
        gb_map_free(&m);
    }
    if (maps == 0) cr_skip_test("no shared Moving AI pair found: set GB_SHARED");
    cr_expect_geq(total, maps * per - 2);
}

/* ---- the runner ------------------------------------------------------------ */

GB_TEST(anya, run_judges_anya_rows_against_the_exact_optimum)
{
    const char *bin = gb_test_bin();
    char out[8192];
    int rc = gb_test_sh(out, sizeof out,
                        "%s run -s anya,theta --anyangle-model gppc --count 20 --no-oracle-cache "
                        "--quiet datasets/default/room128-16-1.map.scen | awk -F, 'NR == 1 { for "
                        "(i = 1; i <= NF; i++) c[$i] = i; next } { print $c[\"solver\"], "
                        "$c[\"queue\"], $c[\"status\"], $c[\"cost_model\"], "
                        "($c[\"subopt\"] >= 0.999999999), ($c[\"subopt\"] <= 1.000000001) }' "
                        "| sort | uniq -c", bin);
    cr_assert_eq(rc, 0, "%s", out);
    cr_expect(strstr(out, "20 anya own-heap ok anyangle-gppc 1 1") != NULL, "%s", out);
    rc = gb_test_sh(out, sizeof out, "%s run -s anya datasets/default/room128-16-1.map.scen", bin);
    cr_expect_eq(rc, 64, "%s", out);
    cr_expect(strstr(out, "gridbench run: solver 'anya' searches the GPPC any-angle model only: "
                      "expected --anyangle-model gppc, found the cell-centre model") != NULL,
              "%s", out);
}
