/*
 * test_hpaff.c -- HPA* (hpa:c=C), the flow fields (flowfield,
 * flowfield-cold) and the many-to-one scenarios of `gridbench gen`.
 *
 * HPA* promises no optimum (guarantee none), so tests/test_search.c only
 * checks it for a valid path, reachability and a cost never below
 * Dijkstra's; here: the same on random grids for several cluster sizes
 * (2, 3, 5, 16: clusters smaller than, equal to and larger than the map
 * features, partial clusters at the edges), the cost it reports equal to
 * the validator's, several cluster sizes held on one workspace, and its
 * name grammar.  Flow fields must be exactly optimal (same straight and
 * diagonal counts as Dijkstra) under every model, with and without the
 * cached field, and must report the same counters for a cached query.
 */
#include "gb_test.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gb_gen.h"
#include "gb_map.h"
#include "gb_search.h"
#include "gb_stats.h"
#include "gb_validate.h"

/* A random w x h grid with about pct % of its cells blocked. */
static void random_grid(gb_grid *g, int w, int h, int pct, uint64_t *seed)
{
    cr_assert_eq(gb_grid_init(g, w, h), 0);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) g->pass[gb_grid_id(g, x, y)] = (int)(gb_rng_next(seed) % 100) >= pct;
    gb_grid_recount(g);
}

static int32_t random_free(const gb_grid *g, uint64_t *seed)
{
    for (;;) {
        int32_t x = (int32_t)(gb_rng_next(seed) % (uint64_t)g->width);
        int32_t y = (int32_t)(gb_rng_next(seed) % (uint64_t)g->height);
        if (g->pass[gb_grid_id(g, x, y)]) return gb_grid_id(g, x, y);
    }
}

/* Solve; when found, validate (cost recomputed) into *chk.  Returns found. */
static int solve_valid(gb_ws *ws, const gb_solver_spec *sp, gb_queue_kind q, int32_t s, int32_t t,
                       gb_check *chk, gb_result *r)
{
    const gb_grid *g = gb_ws_grid(ws);
    cr_assert_eq(gb_solve(ws, sp, q, s, t, r), 0, "%s: gb_solve failed", sp->name);
    memset(chk, 0, sizeof *chk);
    if (r->status != GB_FOUND) return 0;
    gb_xy *xy = malloc((size_t)(r->path_len > 0 ? r->path_len : 1) * sizeof *xy);
    for (int32_t i = 0; i < r->path_len; i++)
        xy[i] = (gb_xy){ gb_grid_x(g, r->path[i]), gb_grid_y(g, r->path[i]) };
    gb_xy a = { gb_grid_x(g, s), gb_grid_y(g, s) }, b = { gb_grid_x(g, t), gb_grid_y(g, t) };
    int ok = gb_validate_path(g, gb_ws_model(ws), a, b, xy, (size_t)r->path_len, r->cost, chk);
    free(xy);
    cr_assert(ok, "%s: invalid path (%d,%d)->(%d,%d): %s", sp->name, gb_grid_x(g, s), gb_grid_y(g, s),
              gb_grid_x(g, t), gb_grid_y(g, t), chk->msg);
    return 1;
}

static gb_solver_spec parse(const char *name)
{
    gb_solver_spec sp;
    char err[256];
    cr_assert_eq(gb_solver_parse(name, &sp, err, sizeof err), 0, "%s: %s", name, err);
    return sp;
}

/* ---- HPA* ------------------------------------------------------------------ */

GB_TEST(hpa, names_parse_with_the_cluster_size_and_refuse_bad_ones)
{
    gb_solver_spec sp = parse("hpa:c=8");
    cr_expect_str_eq(sp.name, "hpa:c=8");
    cr_expect_eq(sp.param, 8);
    sp = parse("hpa");
    cr_expect_str_eq(sp.name, "hpa:c=16", "the bare name is the default cluster size");
    cr_expect_eq(sp.param, 16);
    double b;
    cr_expect_eq(gb_solver_guarantee(&sp, GB_MODEL_8_NOCUT, &b), GB_GUAR_NONE);
    char err[256];
    cr_expect(gb_solver_unsupported(&sp, GB_MODEL_4, err, sizeof err), "hpa runs on 8-nocut only");
    const char *bad[] = { "hpa:c=1", "hpa:c=", "hpa:c=8x", "hpa:k=8", "hpa:c=99999" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cr_expect_eq(gb_solver_parse(bad[i], &sp, err, sizeof err), -1, "%s parsed", bad[i]);
        char want[128];
        snprintf(want, sizeof want, "solver '%s': expected hpa:c=C with 2 <= C <= 1024", bad[i]);
        cr_expect_str_eq(err, want);
    }
}

/* On random grids: found iff Dijkstra finds a path, the path valid, the
 * reported cost the recomputed one, never below the optimum. */
GB_TEST(hpa, random_grids_valid_complete_and_never_below_the_optimum)
{
    uint64_t seed = 17;
    static const char *const names[] = { "hpa:c=2", "hpa:c=3", "hpa:c=5", "hpa:c=16" };
    gb_solver_spec dsp = parse("dijkstra");
    long found = 0, longer = 0;
    for (int it = 0; it < 60; it++) {
        gb_grid g;
        int w = 3 + (int)(gb_rng_next(&seed) % 40), h = 3 + (int)(gb_rng_next(&seed) % 40);
        random_grid(&g, w, h, (int)(gb_rng_next(&seed) % 40), &seed);
        if (g.npassable < 2) { gb_grid_free(&g); continue; }
        gb_ws *ws = gb_ws_new(&g, GB_MODEL_8_NOCUT);
        cr_assert_not_null(ws);
        for (int k = 0; k < 12; k++) {
            int32_t s = random_free(&g, &seed), t = random_free(&g, &seed);
            gb_check dc, hc;
            gb_result r;
            int dfound = solve_valid(ws, &dsp, GB_Q_BHEAP, s, t, &dc, &r);
            for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
                gb_solver_spec sp = parse(names[i]);
                int hfound = solve_valid(ws, &sp, GB_Q_BHEAP, s, t, &hc, &r);
                cr_assert_eq(hfound, dfound, "%s on %dx%d: found %d, Dijkstra %d", sp.name, w, h,
                             hfound, dfound);
                if (!hfound) continue;
                found++;
                cr_assert_geq(gb_check_cmp(&hc, &dc), 0, "%s: cost %.9f below the optimum %.9f",
                              sp.name, hc.cost, dc.cost);
                longer += gb_check_cmp(&hc, &dc) > 0;
            }
        }
        gb_ws_free(ws);
        gb_grid_free(&g);
    }
    cr_expect_gt(found, 1000, "only %ld paths compared", found);
    cr_expect_gt(longer, 0, "HPA* was never suboptimal: the check could not fail");
}

/* Two cluster sizes on one workspace: both graphs built in gb_ws_prepare,
 * each with its own preparation time, and the searches of each valid. */
GB_TEST(hpa, two_cluster_sizes_share_a_workspace)
{
    gb_map mp;
    gb_diag d;
    cr_assert_eq(gb_map_load("datasets/default/room128-16-1.map", &mp, &d), 0, "%s", d.msg);
    gb_ws *ws = gb_ws_new(&mp.grid, GB_MODEL_8_NOCUT);
    gb_solver_spec a = parse("hpa:c=8"), b = parse("hpa:c=32"), dsp = parse("dijkstra");
    cr_assert_eq(gb_ws_prepare(ws, &a, GB_Q_BHEAP), 0);
    size_t one = gb_ws_bytes_prepared(ws, &a, GB_Q_BHEAP);
    cr_expect_gt(gb_ws_prep_ns(ws, &a), 0.0);
    cr_expect_eq(gb_ws_prep_ns(ws, &b), 0.0, "c=32 not built yet");
    cr_assert_eq(gb_ws_prepare(ws, &b, GB_Q_BHEAP), 0);
    cr_expect_gt(gb_ws_prep_ns(ws, &b), 0.0);
    cr_expect_gt(gb_ws_bytes_prepared(ws, &a, GB_Q_BHEAP), one, "the second graph is counted");
    uint64_t seed = 5;
    for (int k = 0; k < 50; k++) {
        int32_t s = random_free(&mp.grid, &seed), t = random_free(&mp.grid, &seed);
        gb_check dc, ac, bc;
        gb_result r;
        int df = solve_valid(ws, &dsp, GB_Q_BHEAP, s, t, &dc, &r);
        cr_assert_eq(solve_valid(ws, &a, GB_Q_BHEAP, s, t, &ac, &r), df);
        cr_assert_eq(solve_valid(ws, &b, GB_Q_BHEAP, s, t, &bc, &r), df);
        if (df) {
            cr_expect_geq(gb_check_cmp(&ac, &dc), 0);
            cr_expect_geq(gb_check_cmp(&bc, &dc), 0);
        }
    }
    gb_ws_free(ws);
    gb_map_free(&mp);
}

/* ---- flow fields --------------------------------------------------------- */

/* Many starts per goal, every model and queue: exactly optimal, cached or
 * not, and a cached query reports the counters of the build. */
GB_TEST(flowfield, exact_under_every_model_cached_or_cold)
{
    uint64_t seed = 99;
    gb_solver_spec dsp = parse("dijkstra"), ff = parse("flowfield"), cold = parse("flowfield-cold");
    long cmp = 0;
    for (int it = 0; it < 40; it++) {
        gb_grid g;
        int w = 2 + (int)(gb_rng_next(&seed) % 30), h = 2 + (int)(gb_rng_next(&seed) % 30);
        random_grid(&g, w, h, (int)(gb_rng_next(&seed) % 45), &seed);
        if (g.npassable < 2) { gb_grid_free(&g); continue; }
        for (int m = 0; m < GB_MODEL_COUNT; m++) {
            gb_ws *ws = gb_ws_new(&g, (gb_model)m);
            gb_queue_kind q = (gb_queue_kind)(it % GB_Q_COUNT);
            int32_t t = random_free(&g, &seed);
            for (int k = 0; k < 8; k++) {
                int32_t s = random_free(&g, &seed);
                gb_check dc, fc, cc;
                gb_result r, rc;
                int df = solve_valid(ws, &dsp, GB_Q_BHEAP, s, t, &dc, &r);
                cr_assert_eq(solve_valid(ws, &ff, q, s, t, &fc, &r), df, "flowfield reachability");
                gb_stats st = r.st;
                cr_assert_eq(solve_valid(ws, &cold, q, s, t, &cc, &rc), df);
                if (!df) continue;
                cr_assert_eq(gb_check_cmp(&fc, &dc), 0, "flowfield %.9f, Dijkstra %.9f (model %s)",
                             fc.cost, dc.cost, gb_model_name((gb_model)m));
                cr_assert_eq(gb_check_cmp(&cc, &dc), 0, "flowfield-cold not optimal");
                cr_assert_eq(st.expanded, rc.st.expanded, "cached and cold fields differ in size");
                cr_assert_eq(st.scanned + 1, (uint64_t)r.path_len, "scanned = steps walked");
                cmp++;
            }
            gb_ws_free(ws);
        }
        gb_grid_free(&g);
    }
    cr_expect_gt(cmp, 400, "only %ld paths compared", cmp);
}

/* On a real map: the field covers the goal's component (expanded = its
 * cells), and a second agent for the same goal costs no new build. */
GB_TEST(flowfield, one_build_serves_every_agent_of_a_goal)
{
    gb_map mp;
    gb_diag d;
    cr_assert_eq(gb_map_load("datasets/default/maze128-2-1.map", &mp, &d), 0, "%s", d.msg);
    gb_ws *ws = gb_ws_new(&mp.grid, GB_MODEL_8_NOCUT);
    gb_solver_spec ff = parse("flowfield");
    uint8_t *mark = calloc((size_t)mp.grid.ncells, 1);
    int32_t comp = 0;
    cr_assert_eq(gb_gen_largest_component(&mp.grid, GB_MODEL_8_NOCUT, mark, &comp), 0);
    int32_t goal = -1;
    for (int32_t id = 0; id < mp.grid.ncells && goal < 0; id++) if (mark[id]) goal = id;
    uint64_t seed = 3;
    gb_result r;
    gb_stats first;
    memset(&first, 0, sizeof first);
    for (int k = 0; k < 20; k++) {
        int32_t s;
        do s = random_free(&mp.grid, &seed); while (!mark[s]);
        cr_assert_eq(gb_solve(ws, &ff, GB_Q_BUCKET, s, goal, &r), 0);
        cr_assert_eq(r.status, GB_FOUND);
        cr_assert_eq(r.st.expanded, (uint64_t)comp, "the field expands the component (%ld), found %llu",
                     (long)comp, (unsigned long long)r.st.expanded);
        if (k == 0) first = r.st;
        cr_assert_eq(r.st.pushes, first.pushes, "agent %d: the counters are the build's", k);
    }
    free(mark);
    gb_ws_free(ws);
    gb_map_free(&mp);
}

/* ---- many-to-one scenarios ---------------------------------------------- */

GB_TEST(gen, many_to_one_groups_starts_by_goal_with_dijkstra_lengths)
{
    gb_map mp;
    gb_diag d;
    cr_assert_eq(gb_map_load("datasets/default/room128-16-1.map", &mp, &d), 0, "%s", d.msg);
    gb_gen_opts o;
    gb_gen_defaults(&o);
    o.goals = 4;
    o.per_goal = 30;
    o.seed = 7;
    gb_scen sc, again;
    cr_assert_eq(gb_gen_scen_m2o(&o, &mp, "room128-16-1.map", &sc, &d), 0, "%s", d.msg);
    cr_assert_eq(sc.n, 120u);
    double *dist = malloc((size_t)mp.grid.ncells * sizeof *dist);
    for (size_t g = 0; g < 4; g++) {
        const gb_query *q0 = &sc.q[g * 30];
        if (g) cr_expect(q0->gx != sc.q[g * 30 - 1].gx || q0->gy != sc.q[g * 30 - 1].gy,
                         "goal %zu repeats the previous one", g);
        cr_assert_eq(gb_dijkstra_all(&mp.grid, GB_MODEL_8_NOCUT, gb_grid_id(&mp.grid, q0->gx, q0->gy),
                                     dist), 0);
        for (size_t i = g * 30; i < g * 30 + 30; i++) {
            const gb_query *q = &sc.q[i];
            cr_assert(q->gx == q0->gx && q->gy == q0->gy, "query %zu: not grouped by goal", i);
            for (size_t j = g * 30; j < i; j++)
                cr_assert(sc.q[j].sx != q->sx || sc.q[j].sy != q->sy, "query %zu: repeated start", i);
            double len = dist[gb_grid_id(&mp.grid, q->sx, q->sy)];
            cr_assert_eq(q->length, len, "query %zu: length %.8f, Dijkstra %.8f", i, q->length, len);
            cr_assert_eq(q->bucket, (int)floor(len / 4.0));
            cr_assert_eq(q->line, (long)i + 2);
        }
    }
    cr_assert_eq(gb_gen_scen_m2o(&o, &mp, "room128-16-1.map", &again, &d), 0);
    cr_assert_eq(again.n, sc.n);
    cr_expect_eq(memcmp(again.q, sc.q, sc.n * sizeof *sc.q), 0, "same seed, different queries");
    o.per_goal = 0;
    gb_scen bad;
    cr_expect_eq(gb_gen_scen_m2o(&o, &mp, "x.map", &bad, &d), EX_USAGE);
    cr_expect_str_eq(d.msg, "expected 1 <= goals <= 100000 and 1 <= starts per goal <= 1000000, "
                            "found 4 and 0");
    free(dist);
    gb_scen_free(&sc);
    gb_scen_free(&again);
    gb_map_free(&mp);
}

GB_TEST(gen, many_to_one_cli_writes_a_scenario_the_run_accepts)
{
    const char *bin = gb_test_bin();
    char out[8192];
    int rc = gb_test_sh(out, sizeof out,
        "d=$(mktemp -d) && %s gen --map datasets/default/maze128-2-1.map --goals 2 --per-goal 5 "
        "--seed 3 --out $d && %s run --quiet --no-oracle-cache -s flowfield,hpa:c=8 "
        "$d/maze128-2-1-m2o-2x5-3.scen | cut -d, -f10,14 | sort | uniq -c; rm -rf $d", bin, bin);
    cr_assert_eq(rc, 0, "%s", out);
    cr_expect(strstr(out, "10 flowfield,ok") != NULL, "%s", out);
    cr_expect(strstr(out, "10 hpa:c=8,ok") != NULL, "%s", out);
    rc = gb_test_sh(out, sizeof out, "%s gen --map datasets/default/maze128-2-1.map --goals 2 "
                    "--out /tmp", bin);
    cr_expect_eq(rc, 64, "%s", out);
    cr_expect(strstr(out, "gridbench gen: --goals: expected with --per-goal K, found no --per-goal")
              != NULL, "%s", out);
}

/* The summary reads HPA*'s trade off directly: guarantee none, its mean
 * suboptimality, and its speed-up over astar-octile (1 for A* itself). */
GB_TEST(hpa, summary_has_subopt_and_speedup_over_astar)
{
    const char *bin = gb_test_bin();
    char out[8192];
    int rc = gb_test_sh(out, sizeof out,
        "d=$(mktemp -d) && %s run --quiet --no-oracle-cache --count 40 -s astar-octile,hpa:c=8 "
        "datasets/default/room128-16-1.map.scen -o $d/r.csv && %s summary $d/r.csv | awk -F, "
        "'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } "
        "{ print $c[\"solver\"], $c[\"guarantee\"], ($c[\"subopt_mean\"] != \"\"), "
        "($c[\"speedup_astar\"] > 0), $c[\"speedup_astar\"] }'; rm -rf $d", bin, bin);
    cr_assert_eq(rc, 0, "%s", out);
    cr_expect(strstr(out, "astar-octile optimal 0 1 1.0000\n") != NULL, "%s", out);
    cr_expect(strstr(out, "hpa:c=8 none 1 1 ") != NULL, "%s", out);
}
