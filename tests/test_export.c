/*
 * test_export.c -- `gridbench export`: GPPC's result.csv from a real run
 * (every column traced back to its row), and GPPC's per-entry table on a
 * hand-made run whose sums, per-map figures and Pareto front are known.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gb_gppc_table.h"
#include "gb_test.h"

static char out[65536];

GB_TEST(export, gppc_result_csv_traces_every_column_to_its_row)
{
    char d[] = "/tmp/gbexport.XXXXXX";
    cr_assert_not_null(mkdtemp(d));
    int rc = gb_test_sh(out, sizeof out, "%s run --quiet --no-oracle-cache -s jps,dijkstra -q bucket --count 12 "
                        "--paths %s/p.csv -o %s/run.csv datasets/default/maze128-2-1.map.scen 2>&1",
                        gb_test_bin(), d, d);
    cr_assert_eq(rc, 0, "%s", out);
    /* two pairs: one must be chosen */
    rc = gb_test_sh(out, sizeof out, "%s export --gppc %s/run.csv 2>&1 >/dev/null", gb_test_bin(), d);
    cr_assert_eq(rc, 64, "%s", out);
    cr_assert(strstr(out, "expected the rows of one solver x queue (choose with --solver and --queue), "
                          "found jps/bucket and dijkstra/bucket") != NULL, "%s", out);
    rc = gb_test_sh(out, sizeof out, "%s export --gppc --solver jps --paths %s/p.csv -o %s/result.csv %s/run.csv",
                    gb_test_bin(), d, d, d);
    cr_assert_eq(rc, 0, "%s", out);
    /* each line against the jps row and path line it came from */
    rc = gb_test_sh(out, sizeof out,
        "awk -F, 'FNR == 1 { for (i = 1; i <= NF; i++) c[FILENAME, $i] = i; next } "
        "FILENAME ~ /run.csv$/ && $c[FILENAME, \"solver\"] == \"jps\" { "
        "  k = $c[FILENAME, \"line\"] - 2; cost[k] = $c[FILENAME, \"cost\"]; ref[k] = $c[FILENAME, \"scen_cost\"]; "
        "  t[k] = $c[FILENAME, \"time_ns\"]; f[k] = $c[FILENAME, \"first20_ns\"]; m[k] = $c[FILENAME, \"max_call_ns\"] } "
        "FILENAME ~ /p.csv$/ && $c[FILENAME, \"solver\"] == \"jps\" { w[$c[FILENAME, \"line\"] - 2] = split($c[FILENAME, \"waypoints\"], x, \" \") } "
        "FILENAME ~ /result.csv$/ { n++; k = $3; "
        "  if ($4 != w[k] || $5 != cost[k] || $6 != ref[k] || $7 != t[k] || $8 != f[k] || $9 != m[k]) bad++ } "
        "END { print n, bad + 0 }' %s/run.csv %s/p.csv %s/result.csv", d, d, d);
    cr_assert_eq(rc, 0);
    cr_assert_str_eq(out, "12 0\n");
    cr_assert_eq(gb_test_sh(out, sizeof out, "head -1 %s/result.csv", d), 0);
    cr_assert_str_eq(out, "map,scen,experiment_id,path_size,path_length,ref_length,time_cost,20steps_cost,"
                          "max_step_time\n");
    gb_test_sh(NULL, 0, "rm -rf '%s'", d);
}

/* A run of three solvers on two maps of one set: fast (optimal, 1 ms per
 * query, prep 5 ms per map), slow (optimal, 2 ms, prep 5 ms: dominated by
 * fast), rough (0.5 ms, no prep, one path 10 % too long: undominated),
 * and an external one timed over a pipe (never compared). */
GB_TEST(export, gppc_table_sums_per_map_figures_and_marks_the_pareto_front)
{
    char d[] = "/tmp/gbexport.XXXXXX";
    cr_assert_not_null(mkdtemp(d));
    char p[128];
    snprintf(p, sizeof p, "%s/run.csv", d);
    FILE *f = fopen(p, "w");
    cr_assert_not_null(f);
    fputs("map,scen,line,solver,queue,status,cost,subopt,time_ns,prep_ns,storage_bytes,mem_bytes,"
          "time_source,regime,first20_ns,max_call_ns\n", f);
    const char *maps[2] = { "a.map", "b.map" };
    for (int m = 0; m < 2; m++)
        for (int q = 0; q < 3; q++) {
            fprintf(f, "%s,set1/%s.scen,%d,fast,bheap,ok,10,1.000000,1000000,5000000,1048576,2097152,inproc,gppc,"
                    "1000000,1000000\n", maps[m], maps[m], q + 2);
            fprintf(f, "%s,set1/%s.scen,%d,slow,bheap,ok,10,1.000000,2000000,5000000,,2097152,inproc,gppc,"
                    "2000000,2000000\n", maps[m], maps[m], q + 2);
            fprintf(f, "%s,set1/%s.scen,%d,rough,none,%s,%s,%s,500000,,,1048576,gppc,gppc,250000,400000\n",
                    maps[m], maps[m], q + 2, "ok", m == 1 && q == 2 ? "11" : "10",
                    m == 1 && q == 2 ? "1.100000" : "1.000000");
            fprintf(f, "%s,set1/%s.scen,%d,external:x,none,ok,10,1.000000,100,,,,process,gppc,100,100\n",
                    maps[m], maps[m], q + 2);
        }
    fclose(f);
    gb_boot b;
    gb_boot_default(&b);
    gb_gtab t;
    gb_diag dg;
    cr_assert_eq(gb_gtab_build(p, &b, &t, &dg), 0, "%s", dg.msg);
    cr_assert_eq(t.n, 4);
    /* sorted by total time: external, rough, fast, slow */
    cr_assert_str_eq(t.row[0].solver, "external:x");
    cr_assert_str_eq(t.row[1].solver, "rough");
    cr_assert_str_eq(t.row[2].solver, "fast");
    cr_assert_str_eq(t.row[3].solver, "slow");
    const gb_gtab_row *fast = &t.row[2], *slow = &t.row[3], *rough = &t.row[1];
    cr_assert_float_eq(fast->total_s, 0.006, 1e-12);
    cr_assert_float_eq(fast->prep_s, 0.010, 1e-12, "prep is per map, not per row: %g", fast->prep_s);
    cr_assert_float_eq(fast->storage_mb, 2.0, 1e-12);
    cr_assert_float_eq(fast->peak_mem_mb, 2.0, 1e-12);
    cr_assert_float_eq(fast->first20_s, 0.006, 1e-12);
    cr_assert_float_eq(rough->max_call_ms, 0.4, 1e-12);
    cr_assert_eq(rough->suboptimal, 1);
    cr_assert_float_eq(rough->subopt_max, 1.1, 1e-12);
    cr_assert_eq(fast->undominated, 1);
    cr_assert_eq(slow->undominated, 0, "slow is dominated by fast");
    cr_assert_eq(rough->undominated, 1, "rough is faster but not optimal: on the front");
    cr_assert_eq(t.row[0].undominated, -1, "a process is timed over a pipe: not compared");
    /* the CSV says the same */
    gb_gtab_free(&t);
    int rc = gb_test_sh(out, sizeof out, "%s export --gppc-table %s | cut -d, -f2,19", gb_test_bin(), p);
    cr_assert_eq(rc, 0, "%s", out);
    cr_assert_str_eq(out, "solver,undominated\nexternal:x,-\nrough,1\nfast,1\nslow,0\n");
    gb_test_sh(NULL, 0, "rm -rf '%s'", d);
}

/* One row per entry: a solver that ran on three queues is one row, on its
 * fastest queue, and its prep_s is its index's (the same on every queue),
 * so the undominated mark is decided by time, memory and quality alone.
 * An entry with a failure on any queue shows the failing queue. */
GB_TEST(export, gppc_table_has_one_row_per_entry_on_its_fastest_queue)
{
    char d[] = "/tmp/gbexport.XXXXXX";
    cr_assert_not_null(mkdtemp(d));
    char p[128];
    snprintf(p, sizeof p, "%s/run.csv", d);
    FILE *f = fopen(p, "w");
    cr_assert_not_null(f);
    fputs("map,scen,line,solver,queue,status,cost,subopt,time_ns,prep_ns,mem_bytes,time_source,regime\n",
          f);
    static const struct {
        const char *solver, *queue, *status;
        int ns;
    } rows[] = {
        { "jps+", "bheap", "ok", 3000 },
        { "jps+", "4heap", "ok", 2000 },
        { "jps+", "pairing", "ok", 4000 },
        { "astar", "bheap", "ok", 2500 },
        { "astar", "bucket", "invalid_path", 1000 },
        { "astar", "4heap", "ok", 2600 },
    };
    for (int q = 0; q < 4; q++)
        for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
            fprintf(f,
                    "a.map,set1/a.map.scen,%d,%s,%s,%s,10,1.000000,%d,%s,1048576,inproc,interleaved\n",
                    q + 2, rows[i].solver, rows[i].queue, rows[i].status, rows[i].ns,
                    rows[i].solver[0] == 'j' ? "7000000" : "");
    fclose(f);
    gb_boot b;
    gb_boot_default(&b);
    gb_gtab t;
    gb_diag dg;
    cr_assert_eq(gb_gtab_build(p, &b, &t, &dg), 0, "%s", dg.msg);
    cr_assert_eq(t.n, 2, "one row per solver, not per solver x queue: %zu", t.n);
    const gb_gtab_row *jp = !strcmp(t.row[0].solver, "jps+") ? &t.row[0] : &t.row[1];
    const gb_gtab_row *as = jp == &t.row[0] ? &t.row[1] : &t.row[0];
    cr_assert_str_eq(jp->solver, "jps+");
    cr_assert_str_eq(jp->queue, "4heap", "the fastest queue stands for the entry");
    cr_assert_float_eq(jp->total_s, 8e-6, 1e-15);
    cr_assert_float_eq(jp->prep_s, 0.007, 1e-12, "the index's prep, charged once per map");
    cr_assert_str_eq(as->queue, "bucket", "a failure on any queue is what the entry shows");
    cr_assert_eq(as->failed, 4);
    cr_assert_eq(as->undominated, -1, "a failed entry is not compared");
    cr_assert_eq(jp->undominated, 1);
    gb_gtab_free(&t);
    gb_test_sh(NULL, 0, "rm -rf '%s'", d);
}
