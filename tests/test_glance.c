/*
 * test_glance.c -- the report's first screen (harness/report/gb_glance.c)
 * on a run made up so that every answer is known:
 *
 *   maps   maze1-a.map and maze2-b.map (class maze), arena.map in a
 *          folder dao (class dao); 40 queries each
 *   solvers (times per query t = 1000 * (1 + q % 7) ns times a factor)
 *          fast      optimal, factor 1 on bucket, 2 on bheap, 3 on pairing;
 *                    prep 1 ms per map (so slower once amortised)
 *          steady    optimal, factor 1.5 on bheap only, no prep
 *          greedy    guarantee none, factor 0.5: never a winner
 *          broken    optimal, factor 0.1, one invalid_path on arena
 *          (arena's query 3 printed wrong: one scen_mismatch query)
 * so on the maze maps broken wins, fast/bucket 10x behind; on arena,
 * where broken failed and is no candidate, fast/bucket wins, steady/bheap
 * 1.5x behind (exactly: a zero-width interval) and first once prep is
 * amortised; bucket is the fastest queue and pairing the slowest in every
 * group; one row failed.
 */
#include "gb_test.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gb_glance.h"

static void put_row(FILE *f, const char *map, const char *scen, int q, const char *solver,
                    const char *queue, const char *guar, const char *status, double t, const char *prep)
{
    fprintf(f, "%s,%s,%d,1,%s,%s,%s,%s,10,1.000000,%d,%.0f,%.0f,%s,inproc\n", map, scen, q + 2, solver,
            queue, guar, status, 100 + q, t, t, prep);
}

static void make_run(const char *d)
{
    char p[256];
    snprintf(p, sizeof p, "%s/queries.csv", d);
    FILE *f = fopen(p, "w");
    cr_assert_not_null(f);
    fputs("map,scen,line,bucket,solver,queue,guarantee,status,dijkstra_cost,subopt,expanded,time_ns,"
          "time_cold_ns,"
          "prep_ns,time_source\n",
          f);
    static const char *const maps[3] = { "maze1-a.map", "maze2-b.map", "arena.map" };
    static const char *const scens[3] = { "x/default/maze1-a.map.scen", "x/default/maze2-b.map.scen",
                                          "x/dao/arena.map.scen" };
    for (int m = 0; m < 3; m++)
        for (int q = 0; q < 40; q++) {
            const double t = 1000.0 * (1 + q % 7);
            put_row(f, maps[m], scens[m], q, "fast", "bucket", "optimal", "ok", t, "1000000");
            put_row(f, maps[m], scens[m], q, "fast", "bheap", "optimal", "ok", 2 * t, "1000000");
            put_row(f, maps[m], scens[m], q, "fast", "pairing", "optimal", "ok", 3 * t, "1000000");
            put_row(f, maps[m], scens[m], q, "steady", "bheap", "optimal",
                    m == 2 && q == 3 ? "scen_mismatch" : "ok", 1.5 * t, "");
            put_row(f, maps[m], scens[m], q, "greedy", "bheap", "none", "ok", 0.5 * t, "");
            put_row(f, maps[m], scens[m], q, "broken", "bheap", "optimal",
                    m == 2 && q == 5 ? "invalid_path" : "ok", 0.1 * t, "");
        }
    fclose(f);
}

GB_TEST(glance, winners_queues_and_failures_of_a_known_run)
{
    const char *bin = gb_test_bin();
    char d[] = "/tmp/gbglance.XXXXXX", out[2048];
    cr_assert_not_null(mkdtemp(d));
    make_run(d);
    int rc = gb_test_sh(out, sizeof out, "%s summary %s/queries.csv --out %s/summary.csv", bin, d, d);
    cr_assert_eq(rc, 0, "summary: %s", out);
    gb_glance g;
    gb_diag dg;
    gb_diag_clear(&dg);
    cr_assert_eq(gb_glance_build(d, &g, &dg), 0, "%s", dg.msg);
    /* (a) correctness */
    cr_expect_eq(g.rows, 3 * 40 * 6);
    cr_expect_eq(g.queries, 120);
    cr_expect_eq(g.failed, 1);
    cr_assert_eq(g.nfail, 1);
    cr_expect_str_eq(g.fail[0].solver, "broken");
    cr_expect_eq(g.fail[0].by_status[GB_ROW_INVALID], 1);
    cr_expect_eq(g.scen_mismatch, 1);
    /* (b) winners: per map, and the two classes */
    cr_assert_eq(g.nmap, 3);
    for (size_t i = 0; i < g.nmap; i++) {
        const gb_glance_row *r = &g.map[i];
        cr_assert(r->have_win && r->have_run && r->have_amort, "%s", r->name);
    }
    /* on the maze maps broken is an optimal solver with no failure, and 10x faster */
    for (int i = 0; i < 2; i++) {
        cr_expect_str_eq(g.map[i].win.solver, "broken", "%s", g.map[i].name);
        cr_expect_str_eq(g.map[i].run.solver, "fast");
        cr_expect_str_eq(g.map[i].run.queue, "bucket");
        cr_expect_float_eq(g.map[i].ratio, 10.0, 1e-9, "%g", g.map[i].ratio);
        cr_expect_str_eq(g.map[i].amort.solver, "broken");
    }
    /* on arena it failed once: no candidate there */
    const gb_glance_row *a = &g.map[2];
    cr_expect_str_eq(a->win.solver, "fast");
    cr_expect_str_eq(a->win.queue, "bucket");
    cr_expect_str_eq(a->run.solver, "steady", "another solver is the runner-up: %s", a->run.solver);
    cr_expect_float_eq(a->ratio, 1.5, 1e-9, "%g", a->ratio);
    cr_expect(a->ratio_lo <= 1.5 + 1e-9 && a->ratio_hi >= 1.5 - 1e-9, "[%g, %g]", a->ratio_lo,
              a->ratio_hi);
    cr_expect_str_eq(a->amort.solver, "steady", "1 ms of prep over 40 queries outweighs the 1.5x: %s",
                     a->amort.solver);
    cr_expect_eq(a->win.outlier, 0);
    cr_assert_eq(g.ncls, 2, "maze and dao: %zu classes", g.ncls);
    cr_expect_str_eq(g.cls[0].name, "maze");
    cr_expect_eq(g.cls[0].maps, 2);
    cr_expect_eq(g.cls[0].queries, 80);
    cr_expect_str_eq(g.cls[0].win.solver, "broken");
    cr_expect_str_eq(g.cls[0].run.solver, "fast");
    cr_expect_float_eq(g.cls[0].ratio, 10.0, 1e-9, "fast/bucket over broken/bheap: %g", g.cls[0].ratio);
    cr_expect_str_eq(g.cls[1].name, "dao");
    cr_expect_eq(g.cls[1].maps, 1);
    /* (c) queues: fast is the one solver on several queues */
    cr_expect_eq(g.qgroups, 3);
    cr_assert(g.nq >= 3);
    cr_expect_str_eq(g.q[0].queue, "bucket");
    cr_expect_eq(g.q[0].fastest, 3);
    cr_expect_float_eq(g.q[0].gm_ratio, 0.5, 1e-9);
    int slow_seen = 0;
    for (size_t i = 0; i < g.nq; i++)
        if (!strcmp(g.q[i].queue, "pairing")) {
            cr_expect_eq(g.q[i].slowest, 3);
            cr_expect_float_eq(g.q[i].gm_ratio, 1.5, 1e-9);
            slow_seen = 1;
        }
    cr_expect(slow_seen);
    cr_expect_str_eq(g.qsolvers_fast, "fast");
    cr_expect_eq(g.same_expansions, 1);
    cr_expect_eq(g.nheur, 0, "no verdicts file");
    gb_glance_free(&g);

    /* the page says it on its first screen, in that order */
    gb_test_sh(NULL, 0, "printf '{\"run\": {\"run_id\": \"t\"}}\\n' > %s/env.json", d);
    rc = gb_test_sh(
        out, sizeof out,
        "%s report %s && awk '!a && /At a glance/ { a = NR } !b && /FAILED/ { b = NR } "
        "!c && /fastest optimal/ { c = NR } !q && /Queues:/ { q = NR } !h && /Headline findings/ { h = "
        "NR } "
        "END { print (a && a < b && b < c && c < q && q < h) ? \"ordered\" : \"not ordered\" }' "
        "%s/report.md",
        bin, d, d);
    cr_expect(strstr(out, "ordered") && !strstr(out, "not ordered"), "%s", out);
    rc = gb_test_sh(out, sizeof out,
                    "grep -c 'bucket` was the fastest in 3 (on every map for fast)' %s/report.md", d);
    cr_expect_eq(rc, 0, "the queue sentence: %s", out);
    gb_test_sh(NULL, 0, "rm -rf '%s'", d);
}

GB_TEST(glance, the_class_of_a_map)
{
    char c[64];
    gb_glance_class_of("maze512-4-0.map", "../shared/movingai/mazes/maze512-4-0.map.scen", c, sizeof c);
    cr_expect_str_eq(c, "maze");
    gb_glance_class_of("random128-20-1.map", "datasets/default/random128-20-1.map.scen", c, sizeof c);
    cr_expect_str_eq(c, "random");
    gb_glance_class_of("Berlin_0_256.map", "../shared/movingai/street/Berlin_0_256.map.scen", c,
                       sizeof c);
    cr_expect_str_eq(c, "street");
    gb_glance_class_of("arena.map", "datasets/default/arena.map.scen", c, sizeof c);
    cr_expect_str_eq(c, "arena", "a map of the bundled folder: its name's letters");
    gb_glance_class_of("roomy.map", "x/dao/roomy.map.scen", c, sizeof c);
    cr_expect_str_eq(c, "dao", "room without digits is no Moving AI room map");
}
