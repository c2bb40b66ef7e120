/*
 * test_scale.c -- the scale-out runner: one status table, --jobs N, the
 * oracle cache, --shard I/N + gridbench merge, and resuming a killed
 * parallel run.
 *
 * Equality of two runs always means: the same CSV bytes once the timing
 * columns are masked (GB_MASK_TIMES) -- the same rows, in the same order,
 * with the same answers and counters.
 */
#include "gb_test.h"

#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gb_ocache.h"
#include "gb_plan.h"
#include "gb_rows.h"
#include "gb_run.h"
#include "gb_sha256.h"
#include "gb_status.h"

static char *tmpdir(char *d, size_t n)
{
    snprintf(d, n, "/tmp/gbscale.XXXXXX");
    cr_assert_not_null(mkdtemp(d));
    return d;
}

static void rmdir_all(const char *d) { gb_test_sh(NULL, 0, "rm -rf '%s'", d); }

static char out[65536];

/* The default scenarios, the first 24 queries of each: a small plan whose
 * queries differ in length, so workers finish out of order. */
#define SCENS "datasets/default/maze128-2-1.map.scen datasets/default/random128-20-1.map.scen " \
              "datasets/default/room128-16-1.map.scen"
#define SOLVERS "-s dijkstra,astar-octile,jps,bfs -q bheap,bucket --count 24"

/* Assert that two run CSVs hold the same rows, timing columns aside. */
static void same_rows(const char *a, const char *b)
{
    int rc = gb_test_sh(out, sizeof out, "sed -e '" GB_MASK_TIMES "' '%s' >'%s.m' && sed -e '" GB_MASK_TIMES
                "' '%s' >'%s.m' && cmp '%s.m' '%s.m' && rm -f '%s.m' '%s.m'", a, a, b, b, a, b, a, b);
    cr_assert_eq(rc, 0, "%s and %s differ in more than the timing columns: %s", a, b, out);
}

static long lines_of(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    long n = 0;
    int c;
    while ((c = fgetc(f)) != EOF) n += c == '\n';
    fclose(f);
    return n;
}

/* ---- the status table --------------------------------------------------- */

GB_TEST(status, one_table_names_each_status_once_and_the_docs_follow_it)
{
    for (int i = 0; i < GB_ROW_NSTATUS; i++) {
        const char *n = gb_row_status_name((gb_row_status)i);
        cr_assert_eq(gb_row_status_from_name(n, strlen(n)), i, "%s", n);
        for (int j = 0; j < i; j++)
            cr_assert_str_neq(n, gb_row_status_name((gb_row_status)j));
        cr_assert(strstr(gb_row_status_expected(), n) != NULL, "%s", n);
    }
    cr_assert_eq(gb_row_status_from_name("okay", 4), -1);
    cr_assert_str_eq(gb_row_status_name(GB_ROW_NSTATUS), "?");
    /* the status table of docs/run.md: the same names, flags and
     * descriptions, in order */
    FILE *f = fopen("docs/run.md", "r");
    cr_assert_not_null(f, "docs/run.md not found (tests run from the repository root)");
    char line[1024];
    int in = 0, k = 0;
    while (fgets(line, sizeof line, f)) {
        if (strstr(line, "<!-- status table")) { in = 1; continue; }
        if (!in) continue;
        if (strncmp(line, "| `", 3) != 0) {
            if (k > 0) break;
            continue;
        }
        cr_assert_lt(k, GB_ROW_NSTATUS, "docs/run.md lists more statuses than gb_status.h: %s", line);
        char want[600];
        snprintf(want, sizeof want, "| `%s` | %s | %s |\n", gb_row_status_name((gb_row_status)k),
                 gb_row_status_failed((gb_row_status)k) ? "yes" : "no",
                 gb_row_status_desc((gb_row_status)k));
        cr_assert_str_eq(line, want, "docs/run.md status row %d", k);
        k++;
    }
    fclose(f);
    cr_assert_eq(k, GB_ROW_NSTATUS, "docs/run.md lists %d statuses, gb_status.h %d", k, GB_ROW_NSTATUS);
}

GB_TEST(status, run_and_report_count_the_same_failures)
{
    /* --max-expanded makes limit rows: not failures, for run and report alike */
    char d[64];
    tmpdir(d, sizeof d);
    int rc = gb_test_sh(out, sizeof out, "%s run --quiet -s dijkstra,jps --max-expanded 200 --count 20 --out %s/q.csv "
                "datasets/default/room128-16-1.map.scen", gb_test_bin(), d);
    cr_assert_eq(rc, 0, "%s", out);
    cr_assert(strstr(out, " 0 solver failures") != NULL, "%s", out);
    cr_assert_eq(gb_test_sh(out, sizeof out, "grep -c ',limit,' %s/q.csv", d), 0, "no limit rows: %s", out);
    cr_assert_eq(gb_test_sh(out, sizeof out, "%s summary --out %s/s.csv %s/q.csv && mkdir -p %s/r && "
                    "cp %s/s.csv %s/r/summary.csv && cp %s/q.csv %s/r/queries.csv && %s env >%s/r/env.json && "
                    "%s report %s/r && cat %s/r/report.md", gb_test_bin(), d, d, d, d, d, d, d, gb_test_bin(), d, gb_test_bin(), d, d),
                 0, "%s", out);
    cr_assert(strstr(out, "No solver failures") != NULL, "report disagrees with run:\n%.3000s", out);
    rmdir_all(d);
}

/* ---- --jobs ------------------------------------------------------------- */

/* The progress ETA's weights (gb_plan_work).  A maze's paths are far
 * longer than its side, but a search never explores more than the map:
 * weighting by length squared alone put a 128x128 maze's queries at 98%
 * of a run's work when they took 30% of its time, and the bar then sat
 * at 98% for the rest of the run.  Breaks if the disc is not capped by
 * the map's cells, or no longer grows below the cap. */
GB_TEST(progress, work_grows_with_the_disc_and_stops_at_the_map)
{
    gb_query q[4] = {
        { .length = 1620.4, .map_w = 128, .map_h = 128 },   /* a maze's longest */
        { .length = 128.0, .map_w = 128, .map_h = 128 },
        { .length = 100.0, .map_w = 512, .map_h = 512 },
        { .length = 400.0, .map_w = 512, .map_h = 512 },
    };
    gb_plan_scen sc = { 0 };
    sc.sc.q = q;
    sc.sc.n = 4;
    gb_plan_item item[4] = { { 0, 0 }, { 0, 1 }, { 0, 2 }, { 0, 3 } };
    gb_plan p = { .scen = &sc, .nscen = 1, .item = item, .n = 4 };
    double maze = gb_plan_work(&p, 0), side = gb_plan_work(&p, 1);
    cr_expect_eq(maze, side, "a path 12x the side weighs %g, one the side %g", maze, side);
    double short_ = gb_plan_work(&p, 2), long_ = gb_plan_work(&p, 3);
    cr_expect_gt(long_, 2 * short_, "below the cap, 4x the length weighs %g against %g", long_, short_);
}

GB_TEST(jobs, two_workers_write_what_one_process_writes)
{
    char d[64];
    tmpdir(d, sizeof d);
    char a[128], b[128], c[128];
    snprintf(a, sizeof a, "%s/j1.csv", d);
    snprintf(b, sizeof b, "%s/j2.csv", d);
    snprintf(c, sizeof c, "%s/j3.csv", d);
    cr_assert_eq(gb_test_sh(out, sizeof out, "%s run --quiet --no-oracle-cache " SOLVERS " --out %s " SCENS,
                    gb_test_bin(), a), 0, "%s", out);
    static char t1[sizeof out];
    memcpy(t1, out, sizeof out);
    cr_assert_eq(gb_test_sh(out, sizeof out, "%s run --quiet --no-oracle-cache " SOLVERS " --jobs 2 --out %s " SCENS,
                    gb_test_bin(), b), 0, "%s", out);
    /* the totals line is the same too */
    const char *l1 = strstr(t1, "gridbench run: "), *l2 = strstr(out, "gridbench run: ");
    cr_assert(l1 && l2, "%s\n%s", t1, out);
    cr_assert_eq(strncmp(l1, l2, strcspn(l1, "\n")), 0, "%s\n%s", t1, out);
    same_rows(a, b);
    /* more workers than queries, and to stdout */
    cr_assert_eq(gb_test_sh(out, sizeof out, "%s run --quiet --no-oracle-cache -s jps --count 1 --jobs 5 "
                    "datasets/default/maze128-2-1.map.scen >%s", gb_test_bin(), c), 0, "%s", out);
    cr_assert_eq(lines_of(c), 2);
    rmdir_all(d);
}

/* The plan of the worker-crash tests: two pairs, 10 queries of each
 * scenario (30); GRIDBENCH_WORKER_CRASH_AT=13 kills the worker on line 5
 * of the second scenario.  d/ref.csv: the plan run whole, in one process. */
#define CRASH_PLAN "-s dijkstra,jps --count 10"
static void crash_plan_ref(const char *d)
{
    cr_assert_eq(gb_test_sh(out, sizeof out, "%s run --quiet " CRASH_PLAN " --out %s/ref.csv " SCENS,
                    gb_test_bin(), d), 0, "%s", out);
}

/* The plan with its worker on plan index 13 killed, --jobs 2 and extra
 * options (a shard), into d/csv; the exit status (its output in out). */
static int crash_plan_killed(const char *d, const char *extra, const char *csv)
{
    return gb_test_sh(out, sizeof out, "GRIDBENCH_WORKER_CRASH_AT=13 %s run --quiet " CRASH_PLAN " --jobs 2 "
                      "%s --out %s/%s " SCENS, gb_test_bin(), extra, d, csv);
}

GB_TEST(jobs, a_dead_worker_becomes_crash_rows_and_the_run_goes_on)
{
    char d[64];
    tmpdir(d, sizeof d);
    crash_plan_ref(d);
    /* plan index 13 is line 5 of the second scenario (line 1 is the header) */
    int rc = crash_plan_killed(d, "", "q.csv");
    cr_assert_eq(rc, 1, "a crash is a solver failure: exit 1, found %d: %s", rc, out);
    cr_assert(strstr(out, "random128-20-1.map.scen:5: crash on every pair: the worker process "
                          "running this query killed by signal 9") != NULL, "%s", out);
    cr_assert(strstr(out, "1 worker processes died") != NULL, "%s", out);
    /* exactly that query's two rows are crash rows; every other row is the reference's */
    cr_assert_eq(gb_test_sh(out, sizeof out, "grep -c ',crash,' %s/q.csv", d), 0);
    cr_assert_eq(atoi(out), 2, "%s", out);
    cr_assert_eq(gb_test_sh(out, sizeof out, "grep -v ',crash,' %s/q.csv | sed -e '" GB_MASK_TIMES "' >%s/a && "
                    "sed -e '" GB_MASK_TIMES "' %s/ref.csv | grep -v 'random128-20-1.map.scen,5,' >%s/b && "
                    "cmp %s/a %s/b", d, d, d, d, d, d), 0, "%s", out);
    rmdir_all(d);
}

/* #26: crash rows from a killed worker, and nothing reran just those:
 * --retry crash runs their queries again and keeps every other row. */
GB_TEST(jobs, retry_crash_reruns_only_the_crashed_query)
{
    char d[64];
    tmpdir(d, sizeof d);
    crash_plan_ref(d);
    cr_assert_eq(crash_plan_killed(d, "", "q.csv"), 1, "%s", out);
    cr_assert_eq(gb_test_sh(out, sizeof out, "cp %s/q.csv %s/crashed.csv && grep -c ',crash,' %s/q.csv", d, d, d), 0);
    cr_assert_eq(atoi(out), 2, "%s", out);
    cr_assert_eq(gb_test_sh(out, sizeof out, "%s run --quiet " CRASH_PLAN " --jobs 2 --retry crash "
                    "--out %s/q.csv " SCENS, gb_test_bin(), d), 0, "%s", out);
    cr_assert(strstr(out, "q.csv: 1 of 30 queries have rows to retry; the others are kept as they are") != NULL,
              "%s", out);
    cr_assert(strstr(out, "30 queries, 60 rows, 0 solver failures") != NULL, "%s", out);
    char a[128], b[128];
    snprintf(a, sizeof a, "%s/ref.csv", d);
    snprintf(b, sizeof b, "%s/q.csv", d);
    same_rows(a, b);
    /* every other row byte for byte, timings included; nothing left beside it */
    cr_assert_eq(gb_test_sh(out, sizeof out, "cd %s && grep -v 'random128-20-1.map.scen,5,' q.csv >a && "
                    "grep -v 'random128-20-1.map.scen,5,' crashed.csv >b && cmp a b && rm a b && ls", d),
                 0, "%s", out);
    cr_assert_str_eq(out, "crashed.csv\nq.csv\nref.csv\n");
    /* nothing to retry: the same file */
    cr_assert_eq(gb_test_sh(out, sizeof out, "cp %s/q.csv %s/k && %s run --quiet " CRASH_PLAN " --retry "
                    "crash,timeout --out %s/q.csv " SCENS " && cmp %s/q.csv %s/k", d, d, gb_test_bin(), d, d, d), 0,
                 "%s", out);
    cr_assert(strstr(out, "0 of 30 queries have rows to retry") != NULL, "%s", out);
    /* refused: no --out, an unknown status, the CSV of other options, a journal beside it */
    cr_assert_eq(gb_test_sh(out, sizeof out, "%s run -s jps --retry crash " SCENS, gb_test_bin()), 64, "%s", out);
    cr_assert(strstr(out, "--retry: expected --out FILE (the finished run to retry) and neither --resume nor "
                          "--fresh, found no --out") != NULL, "%s", out);
    cr_assert_eq(gb_test_sh(out, sizeof out, "%s run -s jps --retry crash,broken --out %s/q.csv " SCENS,
                    gb_test_bin(), d), 64, "%s", out);
    cr_assert(strstr(out, "--retry: expected row statuses (") != NULL && strstr(out, "found 'broken'") != NULL,
              "%s", out);
    cr_assert_eq(gb_test_sh(out, sizeof out, "%s run --quiet -s dijkstra,jps --count 9 --retry crash --out %s/q.csv "
                    SCENS, gb_test_bin(), d), 65, "%s", out);
    cr_assert(strstr(out, "q.csv:20: error: expected row 1 of query 9 to be datasets/default/random128-20-1.map.scen "
                          "line 2, solver dijkstra, queue bheap, found another query: it is not the CSV of this "
                          "run (same options and inputs); run it again without --retry") != NULL, "%s", out);
    cr_assert_eq(gb_test_sh(out, sizeof out, "touch %s/q.csv.partial && %s run --quiet " CRASH_PLAN " "
                    "--retry crash --out %s/q.csv " SCENS, d, gb_test_bin(), d), 73, "%s", out);
    cr_assert(strstr(out, "q.csv.partial: error: expected no journal beside the CSV to retry") != NULL, "%s", out);
    cr_assert_eq(gb_test_sh(out, sizeof out, "cmp %s/q.csv %s/k", d, d), 0, "a refused --retry changed q.csv: %s", out);
    rmdir_all(d);
}

/* A shard with crash rows, retried: its manifest follows, and it merges. */
GB_TEST(shard, a_retried_shard_merges_into_the_unsharded_csv)
{
    char d[64];
    tmpdir(d, sizeof d);
    crash_plan_ref(d);
    cr_assert_eq(gb_test_sh(out, sizeof out, "%s run --quiet " CRASH_PLAN " --shard 0/2 --out %s/s0.csv "
                    SCENS, gb_test_bin(), d), 0, "%s", out);
    cr_assert_eq(crash_plan_killed(d, "--shard 1/2", "s1.csv"), 1, "%s", out);
    cr_assert_eq(gb_test_sh(out, sizeof out, "%s run --quiet " CRASH_PLAN " --shard 1/2 --retry crash "
                    "--out %s/s1.csv " SCENS " && %s merge --out %s/m.csv %s/s0.csv %s/s1.csv", gb_test_bin(), d,
                    gb_test_bin(), d, d, d), 0, "%s", out);
    char a[128], b[128];
    snprintf(a, sizeof a, "%s/ref.csv", d);
    snprintf(b, sizeof b, "%s/m.csv", d);
    same_rows(a, b);
    rmdir_all(d);
}

GB_TEST(jobs, a_killed_parallel_run_resumes_to_the_same_csv)
{
    char d[64];
    tmpdir(d, sizeof d);
    cr_assert_eq(gb_test_sh(out, sizeof out, "%s run --quiet -s dijkstra,astar-octile,jps -q bheap,bucket "
                    "--out %s/ref.csv " SCENS, gb_test_bin(), d), 0, "%s", out);
    /* kill the parent with SIGKILL once some queries are in its journal;
     * its workers die with it (PR_SET_PDEATHSIG) */
    int rc = gb_test_sh(out, sizeof out, "%s run --quiet --no-oracle-cache -s dijkstra,astar-octile,jps -q bheap,bucket "
                "--jobs 2 --out %s/q.csv " SCENS " & p=$!; "
                "for i in $(seq 1 400); do n=$(grep -c '^#=' %s/q.csv.partial 2>/dev/null); "
                "[ \"${n:-0}\" -ge 40 ] && break; sleep 0.01; done; kill -KILL $p; wait $p; echo rc=$?",
                gb_test_bin(), d, d);
    cr_assert_eq(rc, 0, "%s", out);
    cr_assert(strstr(out, "rc=137") != NULL, "the run was not killed: %s", out);
    cr_assert_eq(access(strcat(strcpy(out, d), "/q.csv"), F_OK), -1, "a killed run left its CSV");
    cr_assert_eq(gb_test_sh(out, sizeof out, "sleep 0.2; pgrep -f '[g]ridbench run.*%s/q.csv' || echo none", d), 0);
    cr_assert(strstr(out, "none") != NULL, "workers outlived their parent: %s", out);
    cr_assert_eq(gb_test_sh(out, sizeof out, "%s run --quiet -s dijkstra,astar-octile,jps -q bheap,bucket "
                    "--jobs 2 --resume --out %s/q.csv " SCENS, gb_test_bin(), d), 0, "%s", out);
    cr_assert(strstr(out, "queries done before") != NULL, "%s", out);
    char a[128], b[128];
    snprintf(a, sizeof a, "%s/ref.csv", d);
    snprintf(b, sizeof b, "%s/q.csv", d);
    same_rows(a, b);
    rmdir_all(d);
}

/* ---- shards and merge --------------------------------------------------- */

GB_TEST(shard, three_shards_merge_into_the_unsharded_csv)
{
    char d[64];
    tmpdir(d, sizeof d);
    cr_assert_eq(gb_test_sh(out, sizeof out, "%s run --quiet " SOLVERS " --out %s/ref.csv " SCENS, gb_test_bin(), d),
                 0, "%s", out);
    for (int i = 0; i < 3; i++)
        cr_assert_eq(gb_test_sh(out, sizeof out, "%s run --quiet " SOLVERS " --shard %d/3 --out %s/s%d.csv " SCENS,
                        gb_test_bin(), i, d, i), 0, "%s", out);
    /* given in any order */
    cr_assert_eq(gb_test_sh(out, sizeof out, "%s merge --out %s/all.csv %s/s2.csv %s/s0.csv %s/s1.csv", gb_test_bin(), d,
                    d, d, d), 0, "%s", out);
    cr_assert(strstr(out, "3 shards, 72 queries, 504 rows, 0 solver failures") != NULL, "%s", out);
    char a[128], b[128];
    snprintf(a, sizeof a, "%s/ref.csv", d);
    snprintf(b, sizeof b, "%s/all.csv", d);
    same_rows(a, b);
    /* shard 1 of 3 holds plan indices 1, 4, 7, ...: 24 queries x 7 pairs */
    cr_assert_eq(lines_of(strcat(strcpy(a, d), "/s1.csv")), 1 + 24 * 7);
    rmdir_all(d);
}

GB_TEST(shard, merge_refuses_gaps_duplicates_other_plans_and_torn_shards)
{
    char d[64];
    tmpdir(d, sizeof d);
    for (int i = 0; i < 2; i++)
        cr_assert_eq(gb_test_sh(out, sizeof out, "%s run --quiet -s jps --count 8 --shard %d/2 --out %s/s%d.csv " SCENS,
                        gb_test_bin(), i, d, i), 0, "%s", out);
    /* a missing shard */
    cr_assert_eq(gb_test_sh(out, sizeof out, "%s merge --out %s/m.csv %s/s0.csv", gb_test_bin(), d, d), 65, "%s", out);
    cr_assert(strstr(out, "expected shards 0..1 of 2, found no shard 1/2 among the 1 given") != NULL, "%s", out);
    /* a duplicate */
    cr_assert_eq(gb_test_sh(out, sizeof out, "%s merge --out %s/m.csv %s/s0.csv %s/s1.csv %s/s0.csv", gb_test_bin(), d, d, d, d),
                 65, "%s", out);
    cr_assert(strstr(out, "expected each shard once, found shard 0/2 twice") != NULL, "%s", out);
    /* another plan: a scenario file whose contents changed (same path) */
    cr_assert_eq(gb_test_sh(out, sizeof out, "mkdir %s/in && cp datasets/default/maze128-2-1.map* %s/in/ && "
                    "%s run --quiet -s jps --count 8 --shard 0/2 --out %s/t0.csv %s/in/maze128-2-1.map.scen && "
                    "sed -i '2s/\\t[0-9.]*$/\\t99.5/' %s/in/maze128-2-1.map.scen && "
                    "%s run --quiet -s jps --count 8 --shard 1/2 --out %s/t1.csv %s/in/maze128-2-1.map.scen; "
                    "%s merge --out %s/m.csv %s/t0.csv %s/t1.csv", d, d, gb_test_bin(), d, d, d, gb_test_bin(), d, d,
                    gb_test_bin(), d, d, d), 65, "%s", out);
    cr_assert(strstr(out, "found another plan") != NULL, "%s", out);
    /* other options */
    cr_assert_eq(gb_test_sh(out, sizeof out, "%s run --quiet -s dijkstra --count 8 --shard 1/2 --out %s/o1.csv " SCENS
                    "; %s merge %s/s0.csv %s/o1.csv", gb_test_bin(), d, gb_test_bin(), d, d), 65, "%s", out);
    /* a shard whose CSV lost a row */
    cr_assert_eq(gb_test_sh(out, sizeof out, "sed -i '$d' %s/s1.csv; %s merge %s/s0.csv %s/s1.csv", d, gb_test_bin(), d, d),
                 65, "%s", out);
    cr_assert(strstr(out, "expected 12 rows") != NULL, "%s", out);
    /* no manifest */
    cr_assert_eq(gb_test_sh(out, sizeof out, "rm %s/s1.csv.shard; %s merge %s/s0.csv %s/s1.csv", d, gb_test_bin(), d, d),
                 66, "%s", out);
    cr_assert(strstr(out, "s1.csv.shard") != NULL, "%s", out);
    /* nothing written by any refusal */
    cr_assert_eq(access(strcat(strcpy(out, d), "/m.csv"), F_OK), -1);
    /* --shard needs --out and a well-formed I/N */
    cr_assert_eq(gb_test_sh(out, sizeof out, "%s run -s jps --shard 0/2 " SCENS, gb_test_bin()), 64, "%s", out);
    cr_assert_eq(gb_test_sh(out, sizeof out, "%s run -s jps --shard 2/2 --out %s/x.csv " SCENS, gb_test_bin(), d), 64, "%s", out);
    cr_assert(strstr(out, "--shard: expected I/N with 0 <= I < N") != NULL, "%s", out);
    rmdir_all(d);
}

/* Two shards of 8 queries per scenario (12 queries x 2 pairs each) in d. */
static void two_shards(const char *d)
{
    for (int i = 0; i < 2; i++)
        cr_assert_eq(gb_test_sh(out, sizeof out, "%s run --quiet -s jps,dijkstra --count 8 --shard %d/2 "
                        "--out %s/s%d.csv " SCENS, gb_test_bin(), i, d, i), 0, "%s", out);
}

/* Merge d/x0.csv and d/x1.csv (copies of the shards, edited by cmd): 65,
 * the message holds want, and no output. */
static void merge_refuses(const char *d, const char *cmd, const char *want)
{
    cr_assert_eq(gb_test_sh(out, sizeof out, "cd %s && rm -f m.csv && for i in 0 1; do cp s$i.csv x$i.csv && "
                    "cp s$i.csv.shard x$i.csv.shard; done && %s", d, cmd), 0, "%s: %s", cmd, out);
    int rc = gb_test_sh(out, sizeof out, "cd %s && %s merge --out m.csv x0.csv x1.csv", d, gb_test_bin());
    cr_assert_eq(rc, 65, "%s: expected exit 65, found %d: %s", cmd, rc, out);
    cr_assert(strstr(out, want) != NULL, "%s: expected '%s' in: %s", cmd, want, out);
    cr_assert_eq(gb_test_sh(NULL, 0, "test ! -e %s/m.csv", d), 0, "%s: a refused merge wrote m.csv", cmd);
}

/* #26: merge trusted N (2^62 wrapped the allocation to 0, then a heap
 * overflow) and every other number of the manifest. */
GB_TEST(shard, merge_reads_the_manifest_as_strictly_as_run_writes_it)
{
    char d[64];
    tmpdir(d, sizeof d);
    two_shards(d);
    merge_refuses(d, "sed -i 's#^shard 0/2#shard 0/4611686018427387904#' x0.csv.shard",
                  "x0.csv.shard:3:1: error: expected 'shard I/N (0 <= I < N <= 1000000)', found "
                  "'shard 0/4611686018427387904'");
    merge_refuses(d, "sed -i 's#^shard \\(.\\)/2#shard \\1/4611686018427387904#' x0.csv.shard x1.csv.shard",
                  "x0.csv.shard:3:1: error: expected 'shard I/N");   /* was a SIGSEGV */
    merge_refuses(d, "sed -i 's#^shard 0/2#shard 0/1000000000#' x0.csv.shard", "x0.csv.shard:3:1: error");
    merge_refuses(d, "sed -i 's#^shard 1/2#shard 1/1#' x1.csv.shard", "x1.csv.shard:3:1: error");
    merge_refuses(d, "sed -i 's#^queries 12#queries 13#' x1.csv.shard",
                  "x1.csv.shard:5: error: expected queries 12 (the plan indices k < 24 with k mod 2 = 1), found 13");
    merge_refuses(d, "sed -i 's#^rows 24#rows 25#' x1.csv.shard", "expected rows = queries x pairs = 12 x 2, found 25");
    merge_refuses(d, "sed -i 's#^pairs 2#pairs 02#' x1.csv.shard", "x1.csv.shard:6:1: error: expected 'pairs P'");
    merge_refuses(d, "sed -i 's#^rows 24#rows -24#' x1.csv.shard", "x1.csv.shard:7:1: error");
    merge_refuses(d, "sed -i '2p' x1.csv.shard", "x1.csv.shard:3:1: error: expected 'shard I/N");
    merge_refuses(d, "sed -i '2p' x1.csv.shard", "a second 'plan' line");
    merge_refuses(d, "echo 'colour blue' >>x1.csv.shard", "x1.csv.shard:13:1: error: expected 'the end of the manifest', found 'colour blue'");
    merge_refuses(d, "sed -i '4i colour blue' x1.csv.shard", "found 'colour blue': an unknown key");
    merge_refuses(d, "truncate -s -1 x1.csv.shard", "x1.csv.shard:12:1: error: expected 'a newline', found 'plan_keys sha256:");
    merge_refuses(d, "sed -i '$d' x1.csv.shard", "x1.csv.shard:12: error: expected 'plan_keys sha256:HEX', found the end");
    merge_refuses(d, "sed -i 's#^pair 1 bheap dijkstra#pair 1 bheap astar-octile#' x1.csv.shard",
                  "found another pair list");
    merge_refuses(d, "sed -i 's#^csv sha256:.#csv sha256:X#' x1.csv.shard", "x1.csv.shard:10:1: error: expected 'csv sha256:HEX'");
    /* a manifest of an earlier version carries no digest: re-run */
    merge_refuses(d, "printf 'gridbench shard v1\\nplan p\\nshard 1/2\\nplan_queries 24\\nqueries 12\\npairs 2\\nrows 24\\n' "
                  ">x1.csv.shard", "x1.csv.shard:1:1: error: expected 'gridbench shard v2', found 'gridbench shard v1': "
                  "a shard of an earlier gridbench, whose manifest has no digest of its rows; re-run the shard");
    rmdir_all(d);
}

/* #26: a shard cut inside its last row was merged (exit 0, a short row). */
GB_TEST(shard, merge_checks_every_row_of_every_shard)
{
    char d[64];
    tmpdir(d, sizeof d);
    two_shards(d);
    merge_refuses(d, "truncate -s -40 x1.csv", "x1.csv:25: error: expected a row ending in a newline, found "
                  "the end of the file: the CSV was cut");
    char w[160];
    snprintf(w, sizeof w, "x1.csv:24: error: expected a row of `gridbench run`, expected %d fields, found",
             GB_ROWS_NCOL);
    merge_refuses(d, "truncate -s -300 x1.csv && echo >>x1.csv", w);
    merge_refuses(d, "sed -i '4s/,[0-9]*,/,x7,/' x1.csv", "x1.csv:4: error: expected a row of `gridbench run`, "
                  "field 3: expected a number or nothing, found 'x7'");
    merge_refuses(d, "sed -i '5s/,ok,/,fine,/' x0.csv", "x0.csv:5: error: expected a row of `gridbench run`, "
                  "field 14: expected a row status, found 'fine'");
    snprintf(w, sizeof w, "x0.csv:6: error: expected a row of `gridbench run`, expected %d fields, found "
             "more than %d", GB_ROWS_NCOL, GB_ROWS_NCOL);
    merge_refuses(d, "sed -i '6s/$/,1/' x0.csv", w);
    merge_refuses(d, "sed -i '$d' x1.csv", "expected 24 rows (12 queries of shard 1/2 x 2 pairs");
    merge_refuses(d, "sed -n '$p' x1.csv >>x1.csv", "x1.csv:26: error: expected 24 rows");
    /* the pairs of a query, in order */
    merge_refuses(d, "sed -i -e '2{h;d}' -e '3G' x0.csv", "x0.csv:2: error: expected pair 1 of 2 (solver 'jps', "
                  "queue 'bheap') of query 0, found solver 'dijkstra', queue 'bheap'");
    merge_refuses(d, "sed -i '3s/maze128-2-1.map.scen,2,/maze128-2-1.map.scen,3,/' x0.csv",
                  "x0.csv:3: error: expected the 2 rows of a query together, found row 2 of query 0 naming "
                  "another query (column 3)");
    rmdir_all(d);
}

/* #26: merge could not tell which rows a shard holds. */
GB_TEST(shard, merge_refuses_swapped_moved_or_edited_rows)
{
    char d[64];
    tmpdir(d, sizeof d);
    two_shards(d);
    merge_refuses(d, "cp s1.csv x0.csv && cp s0.csv x1.csv", "x0.csv: error: expected the queries of shard 0/2 in "
                  "plan order");
    /* query 0 of each shard trades places, digests forged to match: the keys still differ */
    merge_refuses(d, "sed -n 2,3p s1.csv >q1 && sed -n 2,3p s0.csv >q0 && sed -i -e '2,3d' -e '1r q1' x0.csv && "
                  "sed -i -e '2,3d' -e '1r q0' x1.csv && for i in 0 1; do "
                  "sed -i \"s/^csv sha256:.*/csv sha256:$(sha256sum x$i.csv | cut -c1-64)/\" x$i.csv.shard; done",
                  "x0.csv: error: expected the queries of shard 0/2 in plan order");
    /* two queries of one shard swapped */
    merge_refuses(d, "sed -i -e '2,3{H;d}' -e '5{p;x;s/^\\n//}' x1.csv", "x1.csv: error: expected the queries "
                  "of shard 1/2 in plan order");
    /* a status edited: only the digest sees it */
    merge_refuses(d, "sed -i '7s/,ok,/,suboptimal,/' x1.csv", "x1.csv: error: expected the CSV its manifest "
                  "x1.csv.shard describes (sha256:");
    /* a shard's rows and both its digests forged: the plan's keys differ */
    merge_refuses(d, "sed -i '2,3s/maze128-2-1.map.scen,2,/maze128-2-1.map.scen,9,/' x0.csv && "
                  "k=$(awk -F, 'NR > 1 && NR % 2 == 0 { printf \"%d:%s:%s\\n\", length($2), $2, $3 }' x0.csv | "
                  "sha256sum | cut -c1-64) && sed -i -e \"s/^csv sha256:.*/csv sha256:$(sha256sum x0.csv | cut -c1-64)/\" "
                  "-e \"s/^keys sha256:.*/keys sha256:$k/\" x0.csv.shard",
                  "x0.csv.shard: error: expected the plan's queries in plan order");
    /* untouched, they merge */
    cr_assert_eq(gb_test_sh(out, sizeof out, "%s merge --out %s/m.csv %s/s1.csv %s/s0.csv", gb_test_bin(), d, d, d),
                 0, "%s", out);
    rmdir_all(d);
}

/* ---- the oracle cache --------------------------------------------------- */

GB_TEST(ocache, a_warm_cache_skips_dijkstra_and_changes_no_row)
{
    char d[64];
    tmpdir(d, sizeof d);
    cr_assert_eq(gb_test_sh(out, sizeof out, "%s run --quiet -s jps --count 20 --oracle-cache %s/c --out %s/a.csv " SCENS,
                    gb_test_bin(), d, d), 0, "%s", out);
    cr_assert(strstr(out, ": 0 optima found there") != NULL, "%s", out);
    cr_assert_eq(gb_test_sh(out, sizeof out, "%s run --quiet -s jps --count 20 --oracle-cache %s/c --out %s/b.csv " SCENS,
                    gb_test_bin(), d, d), 0, "%s", out);
    cr_assert(strstr(out, ": 60 optima found there") != NULL, "%s", out);
    char a[128], b[128];
    snprintf(a, sizeof a, "%s/a.csv", d);
    snprintf(b, sizeof b, "%s/b.csv", d);
    same_rows(a, b);
    /* one file per map, each 128 + 20 x 32 bytes */
    cr_assert_eq(gb_test_sh(out, sizeof out, "ls %s/c/*.gboc | wc -l; stat -c %%s %s/c/*.gboc | sort -u", d, d), 0);
    cr_assert_str_eq(out, "3\n768\n");
    rmdir_all(d);
}

/* Flip one byte of the first record of every cache file in dir/c. */
static void corrupt_first_records(const char *d)
{
    cr_assert_eq(gb_test_sh(out, sizeof out, "for f in %s/c/*.gboc; do printf '\\377' | "
                    "dd of=$f bs=1 seek=$((128 + 17)) conv=notrunc 2>/dev/null; done", d), 0);
}

GB_TEST(ocache, torn_corrupt_or_foreign_files_are_rebuilt_never_trusted)
{
    char d[64];
    tmpdir(d, sizeof d);
#define run "%s run --quiet -s astar-octile --count 10 --oracle-cache %s/c --out %s/%s.csv " \
            "datasets/default/maze128-2-1.map.scen"
    cr_assert_eq(gb_test_sh(out, sizeof out, run, gb_test_bin(), d, d, "ref"), 0, "%s", out);
    /* a flipped byte: that record is dropped, recomputed, the file rebuilt */
    corrupt_first_records(d);
    cr_assert_eq(gb_test_sh(out, sizeof out, run, gb_test_bin(), d, d, "a"), 0, "%s", out);
    cr_assert(strstr(out, "warning: expected an intact oracle cache file, found torn or corrupt "
                          "entries; rebuilt with the 9 good entries") != NULL, "%s", out);
    cr_assert(strstr(out, ": 9 optima found there") != NULL, "%s", out);
    /* a torn tail (a record cut short) */
    cr_assert_eq(gb_test_sh(out, sizeof out, "truncate -s -5 %s/c/*.gboc", d), 0);
    cr_assert_eq(gb_test_sh(out, sizeof out, run, gb_test_bin(), d, d, "b"), 0, "%s", out);
    cr_assert(strstr(out, "rebuilt with the 9 good entries") != NULL, "%s", out);
    /* another version's header: everything recomputed */
    cr_assert_eq(gb_test_sh(out, sizeof out, "sed -i '1s/oracle=1/oracle=0/' %s/c/*.gboc", d), 0);
    cr_assert_eq(gb_test_sh(out, sizeof out, run, gb_test_bin(), d, d, "c"), 0, "%s", out);
    cr_assert(strstr(out, "found another version; rebuilt with the 0 good entries") != NULL, "%s", out);
    cr_assert(strstr(out, ": 0 optima found there") != NULL, "%s", out);
    char a[128], b[128];
    snprintf(a, sizeof a, "%s/ref.csv", d);
    const char *tags[] = { "a", "b", "c" };
    for (int i = 0; i < 3; i++) {
        snprintf(b, sizeof b, "%s/%s.csv", d, tags[i]);
        same_rows(a, b);
    }
    rmdir_all(d);
#undef run
}

GB_TEST(ocache, a_wrong_entry_with_a_valid_checksum_is_caught_by_the_scenario)
{
    char d[64];
    tmpdir(d, sizeof d);
    const char *map = "datasets/default/maze128-2-1.map";
    cr_assert_eq(gb_test_sh(out, sizeof out, "%s run --quiet -s dijkstra --count 3 --oracle-cache %s/c --out %s/ref.csv "
                    "%s.scen", gb_test_bin(), d, d, map), 0, "%s", out);
    /* the first query is (97,43) -> (97,46), optimum 3 straight steps: the
     * cache is made to say 4 (a well-formed, wrong record, as a bug would) */
    char sha[65], dir[128];
    gb_diag dg;
    cr_assert_eq(gb_sha256_file(map, sha, &dg), 0);
    snprintf(dir, sizeof dir, "%s/c", d);
    gb_ocache *c = gb_ocache_open(dir, sha, GB_MODEL_8_NOCUT, NULL, &dg);
    cr_assert_not_null(c, "%s", dg.msg);
    int64_t a, b;
    cr_assert_eq(gb_ocache_get(c, 97, 43, 97, 46, &a, &b), 1);
    cr_assert_eq(a, 3);
    cr_assert_eq(b, 0);
    cr_assert_eq(gb_ocache_put(c, 97, 43, 97, 46, 4, 0), 0);
    gb_ocache_close(c);
    cr_assert_eq(gb_test_sh(out, sizeof out, "%s run --quiet -s dijkstra --count 3 --oracle-cache %s/c --out %s/q.csv "
                    "%s.scen", gb_test_bin(), d, d, map), 0, "%s", out);
    cr_assert(strstr(out, "maze128-2-1.map.scen:2: warning: the oracle cache said another optimum, "
                          "Dijkstra says this one; the cache entry is replaced") != NULL, "%s", out);
    cr_assert(strstr(out, ": 2 optima found there") != NULL, "%s", out);
    char x[128], y[128];
    snprintf(x, sizeof x, "%s/ref.csv", d);
    snprintf(y, sizeof y, "%s/q.csv", d);
    same_rows(x, y);
    /* and the file now says 3 again (a later record wins) */
    c = gb_ocache_open(dir, sha, GB_MODEL_8_NOCUT, NULL, &dg);
    cr_assert_not_null(c);
    cr_assert_eq(gb_ocache_get(c, 97, 43, 97, 46, &a, &b), 1);
    cr_assert_eq(a, 3);
    gb_ocache_close(c);
    rmdir_all(d);
}

/* The GPPC any-angle optimum has a cache file of its own beside
 * Dijkstra's (kind anyangle-gppc-1); a warm one is used and changes no
 * row; a record made dearer than the truth (a well-formed, wrong record,
 * as a bug would write) that Theta*'s path beats is decided again by the
 * oracle, which says so, and the rows are the cold run's.  (A dearer
 * record no path beats would stand, as in Dijkstra's cache: the trust
 * rule of gb_ocache.h keeps others from writing one.) */
GB_TEST(ocache, the_any_angle_optimum_is_cached_apart_and_a_record_a_path_beats_is_redone)
{
    char d[64];
    tmpdir(d, sizeof d);
    const char *map = "datasets/default/room128-16-1.map";
#define aarun "%s run --quiet -s theta --anyangle-model gppc --count 10 --oracle-cache %s/c --out %s/%s.csv %s.scen"
    cr_assert_eq(gb_test_sh(out, sizeof out, aarun, gb_test_bin(), d, d, "ref", map), 0, "%s", out);
    cr_assert(strstr(out, ": 0 optima found there, 0 any-angle optima") != NULL, "%s", out);
    char sha[65], dir[128], file[300];
    gb_diag dg;
    cr_assert_eq(gb_sha256_file(map, sha, &dg), 0);
    snprintf(dir, sizeof dir, "%s/c", d);
    snprintf(file, sizeof file, "%s/%s.anyangle-gppc-1.gboc", dir, sha);
    char bytes[128 + 10 * 32 + 1];
    FILE *fp = fopen(file, "rb");
    cr_assert_not_null(fp, "no any-angle cache file %s", file);
    size_t n = fread(bytes, 1, sizeof bytes, fp);
    fclose(fp);
    cr_assert_eq(n, 128 + 10 * 32, "%s: %zu bytes", file, n);
    bytes[127] = '\0';
    cr_assert(strncmp(bytes, "gridbench-oracle-cache 1 oracle=", 32) == 0 && strstr(bytes, "model=anyangle-gppc-1"),
              "%s", bytes);
    cr_assert_eq(gb_test_sh(out, sizeof out, aarun, gb_test_bin(), d, d, "warm", map), 0, "%s", out);
    cr_assert(strstr(out, ": 10 optima found there, 10 any-angle optima") != NULL, "%s", out);
    char x[128], y[128];
    snprintf(x, sizeof x, "%s/ref.csv", d);
    snprintf(y, sizeof y, "%s/warm.csv", d);
    same_rows(x, y);
    /* the records of the queries Theta* solved optimally, made a little
     * dearer through the API (valid checksums): its path beats each */
    cr_assert_eq(gb_test_sh(out, sizeof out, "awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } "
                            "$c[\"subopt\"] == 1 { print $c[\"start_x\"], $c[\"start_y\"], $c[\"goal_x\"], "
                            "$c[\"goal_y\"] }' %s", x), 0, "%s", out);
    gb_ocache *c = gb_ocache_open_kind(dir, sha, "anyangle-gppc-1", NULL, &dg);
    cr_assert_not_null(c, "%s", dg.msg);
    int forged = 0, off = 0, k;
    int32_t f[4];
    while (sscanf(out + off, "%d %d %d %d%n", &f[0], &f[1], &f[2], &f[3], &k) == 4) {
        off += k;
        int reach = 0;
        double cost = 0.0;
        cr_assert_eq(gb_ocache_get_real(c, f[0], f[1], f[2], f[3], &reach, &cost), 1);
        cr_assert(reach && cost > 0.0);
        cr_assert_eq(gb_ocache_put_real(c, f[0], f[1], f[2], f[3], 1, cost * (1.0 + 1e-7)), 0);
        forged++;
    }
    gb_ocache_close(c);
    cr_assert_geq(forged, 2, "Theta* was optimal on %d of 10 queries", forged);
    cr_assert_eq(gb_test_sh(out, sizeof out, aarun, gb_test_bin(), d, d, "forged", map), 0, "%s", out);
    cr_assert(strstr(out, "warning: the any-angle oracle cache said ") != NULL
              && strstr(out, "; the cache entry is replaced") != NULL, "%s", out);
    char hits[64];
    snprintf(hits, sizeof hits, ", %d any-angle optima", 10 - forged);
    cr_assert(strstr(out, hits) != NULL, "a decided-again optimum is no hit: %s", out);
    snprintf(y, sizeof y, "%s/forged.csv", d);
    same_rows(x, y);
    /* the unreachable encoding and a value that is no cost */
    c = gb_ocache_open_kind(dir, sha, "anyangle-gppc-1", NULL, &dg);
    cr_assert_not_null(c, "%s", dg.msg);
    int reach = 1;
    double cost = 1.0;
    cr_assert_eq(gb_ocache_put_real(c, 1, 2, 3, 4, 0, 0.0), 0);
    cr_assert_eq(gb_ocache_get_real(c, 1, 2, 3, 4, &reach, &cost), 1);
    cr_assert(reach == 0);
    cr_assert_eq(gb_ocache_put_real(c, 1, 2, 3, 5, 1, -1.0), -1);
    cr_assert_eq(gb_ocache_put_real(c, 1, 2, 3, 5, 1, NAN), -1);
    cr_assert_eq(gb_ocache_get_real(c, 1, 2, 3, 5, &reach, &cost), 0);
    gb_ocache_close(c);
    cr_assert_null(gb_ocache_open_kind(dir, sha, "../x", NULL, &dg), "a kind with a slash is refused");
    rmdir_all(d);
#undef aarun
}

/* Write scenario dir/q.scen with one query of maze128-2-1 and length
 * text len, and put the record (a, b) for it into the cache dir/c (b < 0:
 * "unreachable"), as a forger with write access to the cache would. */
static void forge(const char *d, int sx, int sy, int gx, int gy, const char *len, int64_t a, int64_t b)
{
    cr_assert_eq(gb_test_sh(out, sizeof out, "printf 'version 1\n0\tmaze128-2-1.map\t128\t128\t%d\t%d\t%d\t%d\t%s\n' "
                            "> %s/q.scen", sx, sy, gx, gy, len, d), 0);
    char sha[65], dir[128];
    gb_diag dg;
    cr_assert_eq(gb_sha256_file("datasets/default/maze128-2-1.map", sha, &dg), 0);
    snprintf(dir, sizeof dir, "%s/c", d);
    gb_ocache *c = gb_ocache_open(dir, sha, GB_MODEL_8_NOCUT, NULL, &dg);
    cr_assert_not_null(c, "%s", dg.msg);
    cr_assert_eq(gb_ocache_put(c, sx, sy, gx, gy, a, b), 0);
    gb_ocache_close(c);
}

#define FORGED_RUN "%s run -s dijkstra,jps -q bucket --oracle-cache %s/c --map " \
                   "datasets/default/maze128-2-1.map --out %s/q.csv %s/q.scen 2>&1"

/* Line 13 of maze128-2-1 (8,101) -> (46,94): 132.21320344, printed with 2
 * decimals 132.21; (12 straight, 85 diagonal) = 132.20815 fits that too.
 * A cache saying so must not make the correct solvers suboptimal. */
GB_TEST(ocache, a_forged_cheaper_record_within_the_printed_precision_is_rederived)
{
    char d[64];
    tmpdir(d, sizeof d);
    forge(d, 8, 101, 46, 94, "132.21", 12, 85);
    int rc = gb_test_sh(out, sizeof out, FORGED_RUN, gb_test_bin(), d, d, d);
    cr_assert_eq(rc, 0, "exit %d: %s", rc, out);
    cr_assert(strstr(out, "warning: the oracle cache said another optimum, Dijkstra says this "
                          "one; the cache entry is replaced") != NULL, "%s", out);
    cr_assert(strstr(out, ": 0 optima found there") != NULL, "a re-derived optimum is no hit: %s", out);
    char csv[128];
    snprintf(csv, sizeof csv, "%s/q.csv", d);
    cr_assert_eq(gb_test_sh(out, sizeof out, "cut -d, -f14,16 %s | sort -u", csv), 0);
    cr_assert_str_eq(out, "ok,132.21320344\nstatus,dijkstra_cost\n");
    rmdir_all(d);
}

/* Line 22 (97,43) -> (80,40): 270.42640687, printed 270.43; (88, 129) =
 * 270.43355 fits too.  A path cheaper than the record proves it wrong. */
GB_TEST(ocache, a_forged_dearer_record_is_rederived_when_a_path_beats_it)
{
    char d[64];
    tmpdir(d, sizeof d);
    forge(d, 97, 43, 80, 40, "270.43", 88, 129);
    int rc = gb_test_sh(out, sizeof out, FORGED_RUN, gb_test_bin(), d, d, d);
    cr_assert_eq(rc, 0, "exit %d: %s", rc, out);
    cr_assert(strstr(out, "the cache entry is replaced") != NULL, "%s", out);
    char csv[128];
    snprintf(csv, sizeof csv, "%s/q.csv", d);
    cr_assert_eq(gb_test_sh(out, sizeof out, "cut -d, -f14,16 %s | sort -u", csv), 0);
    cr_assert_str_eq(out, "ok,270.42640687\nstatus,dijkstra_cost\n");
    rmdir_all(d);
}

/* A forged "unreachable" (the scenario prints 0, so the record fits it):
 * a solver's wrong "no path" must be false_unreachable, not a pass. */
GB_TEST(ocache, a_forged_unreachable_record_never_excuses_no_path)
{
    if (gb_test_sh(NULL, 0, "command -v cc") != 0) cr_skip_test("cc not found");
    char d[64];
    tmpdir(d, sizeof d);
    forge(d, 97, 43, 97, 46, "0", 0, -1);
    cr_assert_eq(gb_test_sh(out, sizeof out, "cc -shared -fPIC -Isolvers -Iharness/core -Iharness/run "
                            "tests/plugins/nopath_plugin.c -o %s/nopath.so", d), 0, "%s", out);
    int rc = gb_test_sh(out, sizeof out, "%s run --plugin %s/nopath.so -s no-path --oracle-cache %s/c "
                        "--map datasets/default/maze128-2-1.map --out %s/q.csv %s/q.scen 2>&1",
                        gb_test_bin(), d, d, d, d);
    cr_assert_eq(rc, 1, "exit %d: %s", rc, out);
    cr_assert(strstr(out, "false_unreachable on no-path/none: no path reported, Dijkstra found one")
              != NULL, "%s", out);
    cr_assert(strstr(out, "the oracle cache said unreachable, Dijkstra says this one") != NULL, "%s", out);
    rmdir_all(d);
}

GB_TEST(ocache, two_writers_at_once_leave_a_file_every_reader_accepts)
{
    char d[64], dir[128];
    tmpdir(d, sizeof d);
    snprintf(dir, sizeof dir, "%s/c", d);
    const char *sha = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
    gb_diag dg;
    /* two processes append 2000 records each to the same file */
    pid_t pid[2];
    for (int w = 0; w < 2; w++) {
        pid[w] = fork();
        cr_assert_geq(pid[w], 0);
        if (pid[w] == 0) {
            gb_ocache *c = gb_ocache_open(dir, sha, GB_MODEL_8_NOCUT, NULL, &dg);
            if (!c) _exit(2);
            for (int i = 0; i < 2000; i++)
                if (gb_ocache_put(c, w, i, i + 1, w + 7, i, w) != 0) _exit(3);
            gb_ocache_close(c);
            _exit(0);
        }
    }
    for (int w = 0; w < 2; w++) {
        int st;
        cr_assert_eq(waitpid(pid[w], &st, 0), pid[w]);
        cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    }
    gb_ocache_stats cs;
    gb_ocache *c = gb_ocache_open(dir, sha, GB_MODEL_8_NOCUT, &cs, &dg);
    cr_assert_not_null(c);
    cr_assert_eq(cs.loaded, 4000);
    cr_assert_eq(cs.dropped, 0);
    cr_assert_eq(cs.rebuilt, 0);
    int64_t a, b;
    for (int w = 0; w < 2; w++)
        for (int i = 0; i < 2000; i += 97) {
            cr_assert_eq(gb_ocache_get(c, w, i, i + 1, w + 7, &a, &b), 1);
            cr_assert_eq(a, i);
            cr_assert_eq(b, w);
        }
    cr_assert_eq(gb_ocache_get(c, 5, 5, 5, 5, &a, &b), 0);
    gb_ocache_close(c);
    rmdir_all(d);
}

/* ---- the oracle cache's trust rule (docs/trust.md) ------------------------ */

#define WARM "%s run --quiet -s jps --count 20 --oracle-cache %s/c --out %s/%s.csv " \
             "datasets/default/maze128-2-1.map.scen"

/* Fill dir/c with the 20 queries of WARM; the cache file's path into f. */
static void warm_cache(const char *d, char *f, size_t n)
{
    cr_assert_eq(gb_test_sh(out, sizeof out, WARM, gb_test_bin(), d, d, "ref"), 0, "%s", out);
    cr_assert_eq(gb_test_sh(out, sizeof out, "ls %s/c/*.gboc", d), 0, "%s", out);
    size_t k = strcspn(out, "\n");
    cr_assert_lt(k, n);
    memcpy(f, out, k);
    f[k] = '\0';
}

GB_TEST(ocache, a_cache_others_can_write_is_ignored_with_a_warning_naming_it)
{
    char d[64], f[256], dir[128], want[512];
    tmpdir(d, sizeof d);
    warm_cache(d, f, sizeof f);
    snprintf(dir, sizeof dir, "%s/c", d);
    /* a group-writable file: anybody in the group could plant wrong optima */
    cr_assert_eq(chmod(f, 0664), 0);
    cr_assert_eq(gb_test_sh(out, sizeof out, WARM, gb_test_bin(), d, d, "a"), 0, "%s", out);
    snprintf(want, sizeof want, "%s: error: expected an oracle cache file owned by uid %ld or root that "
             "no other user can write, found mode 0664 (group-writable); it is ignored", f, (long)geteuid());
    cr_assert(strstr(out, want) != NULL, "%s", out);
    cr_assert(strstr(out, ": 0 optima found there") != NULL, "%s", out);
    cr_assert_eq(chmod(f, 0644), 0);
    /* a world-writable cache folder, sticky or not */
    cr_assert_eq(chmod(dir, 01777), 0);
    cr_assert_eq(gb_test_sh(out, sizeof out, WARM, gb_test_bin(), d, d, "b"), 0, "%s", out);
    cr_assert(strstr(out, "found mode 1777 (world-writable); it is ignored") != NULL, "%s", out);
    cr_assert(strstr(out, ": 0 optima found there") != NULL, "%s", out);
    /* a group-writable folder above it (not sticky) */
    cr_assert_eq(chmod(dir, 0755), 0);
    cr_assert_eq(chmod(d, 0770), 0);
    cr_assert_eq(gb_test_sh(out, sizeof out, WARM, gb_test_bin(), d, d, "c"), 0, "%s", out);
    snprintf(want, sizeof want, "%s: error: expected an oracle cache directory (and the ones above it) "
             "owned by uid %ld or root that no other user can write, found mode 0770", d, (long)geteuid());
    cr_assert(strstr(out, want) != NULL, "%s", out);
    cr_assert_eq(chmod(d, 0700), 0);
    /* a symbolic link in place of the file */
    char moved[300];
    snprintf(moved, sizeof moved, "%s/elsewhere.gboc", d);
    cr_assert_eq(rename(f, moved), 0);
    cr_assert_eq(symlink(moved, f), 0);
    cr_assert_eq(gb_test_sh(out, sizeof out, WARM, gb_test_bin(), d, d, "e"), 0, "%s", out);
    cr_assert(strstr(out, "no other user can write, found a symbolic link; it is ignored") != NULL, "%s", out);
    /* the rows never change */
    char a[128], b[128];
    snprintf(a, sizeof a, "%s/ref.csv", d);
    const char *tags[] = { "a", "b", "c", "e" };
    for (int i = 0; i < 4; i++) {
        snprintf(b, sizeof b, "%s/%s.csv", d, tags[i]);
        same_rows(a, b);
    }
    /* once put right, it is used again */
    cr_assert_eq(unlink(f), 0);
    cr_assert_eq(rename(moved, f), 0);
    cr_assert_eq(gb_test_sh(out, sizeof out, WARM, gb_test_bin(), d, d, "f"), 0, "%s", out);
    cr_assert(strstr(out, ": 20 optima found there") != NULL, "%s", out);
    rmdir_all(d);
}

GB_TEST(ocache, a_cache_file_another_user_owns_is_ignored)
{
    if (geteuid() != 0) cr_skip_test("needs root to give the file to another user");
    char d[64], f[256];
    tmpdir(d, sizeof d);
    warm_cache(d, f, sizeof f);
    cr_assert_eq(chown(f, 65534, 65534), 0);
    cr_assert_eq(gb_test_sh(out, sizeof out, WARM, gb_test_bin(), d, d, "a"), 0, "%s", out);
    cr_assert(strstr(out, "no other user can write, found owned by uid 65534; it is ignored") != NULL,
              "%s", out);
    cr_assert(strstr(out, ": 0 optima found there") != NULL, "%s", out);
    rmdir_all(d);
}

/* A cache this process may not write (another user's read-only copy, a
 * read-only mount) is still read: the lock is only taken to write. */
GB_TEST(ocache, a_read_only_prefilled_cache_is_used)
{
    char d[64], f[256];
    tmpdir(d, sizeof d);
    warm_cache(d, f, sizeof f);
    cr_assert_eq(gb_test_sh(out, sizeof out, "rm %s/c/*.lock", d), 0, "%s", out);
    const char *as = "";
    if (geteuid() == 0) {
        /* root writes through any mode bits: run as nobody on root's
         * cache (root's files are trusted by everybody) */
        as = "setpriv --reuid=65534 --regid=65534 --clear-groups ";
        cr_assert_eq(chmod(d, 0755), 0);
    } else {
        cr_assert_eq(gb_test_sh(out, sizeof out, "chmod a-w %s/c %s", d, f), 0, "%s", out);
    }
    cr_assert_eq(gb_test_sh(out, sizeof out, "%s%s run --quiet -s jps --count 20 --oracle-cache %s/c "
                    "datasets/default/maze128-2-1.map.scen >%s/ro.csv", as, gb_test_bin(), d, d), 0, "%s", out);
    cr_assert(strstr(out, ": 20 optima found there") != NULL, "%s", out);
    cr_assert(strstr(out, "warning") == NULL && strstr(out, "error") == NULL, "%s", out);
    /* no lock file was needed, and none was made */
    cr_assert_eq(gb_test_sh(out, sizeof out, "ls %s/c", d), 0);
    cr_assert(strstr(out, ".lock") == NULL, "%s", out);
    char a[128], b[128];
    snprintf(a, sizeof a, "%s/ref.csv", d);
    snprintf(b, sizeof b, "%s/ro.csv", d);
    same_rows(a, b);
    /* queries it lacks are computed, and the warning says it is not written */
    cr_assert_eq(gb_test_sh(out, sizeof out, "%s%s run --quiet -s jps --count 22 --oracle-cache %s/c "
                    "datasets/default/maze128-2-1.map.scen >/dev/null", as, gb_test_bin(), d), 0, "%s", out);
    cr_assert(strstr(out, "warning: expected to append to the oracle cache, found '") != NULL, "%s", out);
    cr_assert(strstr(out, ": 20 optima found there") != NULL, "%s", out);
    gb_test_sh(NULL, 0, "chmod -R u+w %s", d);
    rmdir_all(d);
}

/* A link planted at the rebuild's temp name "<file>.tmp.<pid>" is neither
 * followed nor truncated: the rebuild takes a fresh name. */
GB_TEST(ocache, a_link_planted_at_the_rebuild_temp_name_is_not_followed)
{
    char d[64], dir[128], f[300], tmp[400], victim[128];
    tmpdir(d, sizeof d);
    snprintf(dir, sizeof dir, "%s/c", d);
    cr_assert_eq(mkdir(dir, 0755), 0);
    const char *sha = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
    snprintf(f, sizeof f, "%s/%s.8-nocut.gboc", dir, sha);
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", f, (long)getpid());
    snprintf(victim, sizeof victim, "%s/victim", d);
    cr_assert_eq(gb_test_sh(out, sizeof out, "printf precious >%s && printf 'another version' >%s", victim, f), 0);
    cr_assert_eq(symlink(victim, tmp), 0);
    gb_diag dg;
    gb_ocache_stats cs;
    gb_ocache *c = gb_ocache_open(dir, sha, GB_MODEL_8_NOCUT, &cs, &dg);
    cr_assert_not_null(c, "%s", dg.msg);
    cr_assert_eq(cs.rebuilt, 1);
    cr_assert_eq(gb_ocache_put(c, 1, 2, 3, 4, 5, 6), 0);
    gb_ocache_close(c);
    cr_assert_eq(gb_test_sh(out, sizeof out, "cat %s; echo; readlink %s; stat -c %%s %s", victim, tmp, f), 0);
    char want[600];
    snprintf(want, sizeof want, "precious\n%s\n160\n", victim);
    cr_assert_str_eq(out, want);
    rmdir_all(d);
}

/* ---- the report from a merged CSV ----------------------------------------- */

GB_TEST(shard, report_script_takes_a_merged_csv_and_judges_its_statuses)
{
    GB_TEST_E2E();
    char d[64];
    tmpdir(d, sizeof d);
    const char *sc = "datasets/default/room128-16-1.map.scen";
    for (int i = 0; i < 2; i++)
        cr_assert_eq(gb_test_sh(out, sizeof out, "%s run --quiet -s dijkstra,jps --count 6 --shard %d/2 --out %s/s%d.csv %s",
                        gb_test_bin(), i, d, i, sc), 0, "%s", out);
    cr_assert_eq(gb_test_sh(out, sizeof out, "%s merge --quiet --out %s/all.csv %s/s0.csv %s/s1.csv", gb_test_bin(), d, d, d),
                 0, "%s", out);
    /* no browser (GB_CHROMIUM names none): the test reads the report's
     * text and exit status, not its rendering */
#define rep                                                                                \
    "GB_CHROMIUM=/nonexistent GB_BIN=%s scripts/report.sh --bin %s --csv %s/%s --scen %s " \
    "--solvers dijkstra,jps --jobs 2 --out-dir %s --run-id %s --no-hyperfine --no-footprints"
    cr_assert_eq(gb_test_sh(out, sizeof out, rep, gb_test_bin(), gb_test_bin(), d, "all.csv", sc, d, "r1"), 0, "%s", out);
    cr_assert_eq(gb_test_sh(out, sizeof out, "grep -c '' %s/r1/queries.csv; grep '\"jobs\": 2' %s/r1/env.json; "
                    "grep -c 'all.csv' %s/r1/env.json", d, d, d), 0, "%s", out);
    cr_assert(strncmp(out, "13\n", 3) == 0, "%s", out);
    cr_assert_eq(gb_test_sh(out, sizeof out, "cat %s/r1/report.md", d), 0);
    cr_assert(strstr(out, "2 worker processes") != NULL, "%.2000s", out);
    cr_assert(strstr(out, "all.csv` (not run in this folder") != NULL, "%.2000s", out);
    cr_assert(strstr(out, "| prep ms | mean + prep/n µs |") != NULL, "%.2000s", out);
    /* a group's preparation time is its solver's index (the largest prep_ns of its
     * rows): jps builds one per map, dijkstra none */
    cr_assert_eq(gb_test_sh(out, sizeof out, "awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == \"prep_ns_max\") c = i; next } "
                    "{ n++; if ($c > 0) ok++ } END { print n + 0, ok + 0 }' %s/r1/summary.csv", d), 0);
    cr_assert_str_eq(out, "2 1\n");
    /* one row made a failure: the report is written, and says so with exit 1 */
    cr_assert_eq(gb_test_sh(out, sizeof out, "sed '2s/,ok,/,invalid_path,/' %s/all.csv >%s/bad.csv", d, d), 0);
    int rc = gb_test_sh(out, sizeof out, rep, gb_test_bin(), gb_test_bin(), d, "bad.csv", sc, d, "r2");
    cr_assert_eq(rc, 1, "%s", out);
    cr_assert_eq(access(strcat(strcpy(out, d), "/r2/report.html"), F_OK), 0);
    rmdir_all(d);
#undef rep
}

/* report.sh --csv records the --scen files' checksums as the files behind
 * the CSV: it refuses, before writing anything, --scen files the CSV did
 * not run on (another scenario, the same name with other queries, one
 * more file), and takes a copy of the right file from another folder. */
GB_TEST(shard, report_script_refuses_scen_files_the_csv_did_not_run_on)
{
    GB_TEST_E2E();
    char d[64];
    tmpdir(d, sizeof d);
    const char *sc = "datasets/default/room128-16-1.map.scen", *other = "datasets/default/maze128-2-1.map.scen";
    cr_assert_eq(gb_test_sh(out, sizeof out, "%s run --quiet -s dijkstra --count 6 --out %s/all.csv %s",
                    gb_test_bin(), d, sc), 0, "%s", out);
    cr_assert_eq(gb_test_sh(out, sizeof out, "mkdir %s/edited %s/copy && cp %s %s/copy/ && "
                    "sed '3s/^\\([0-9]*\\t[^\\t]*\\t[0-9]*\\t[0-9]*\\t\\)[0-9]*/\\199/' %s >%s/edited/room128-16-1.map.scen && "
                    "! cmp -s %s %s/edited/room128-16-1.map.scen", d, d, sc, d, sc, d, sc, d), 0, "%s", out);
#define rep "GB_CHROMIUM=/nonexistent GB_BIN=%s scripts/report.sh --bin %s --csv %s/all.csv %s --solvers dijkstra " \
            "--out-dir %s --run-id %s --no-hyperfine --no-footprints"
    char scen[256];
    /* another scenario */
    snprintf(scen, sizeof scen, "--scen %s", other);
    cr_assert_eq(gb_test_sh(out, sizeof out, rep, gb_test_bin(), gb_test_bin(), d, scen, d, "a"), 2, "%s", out);
    cr_assert(strstr(out, "all.csv:2: expected the scenario of the row ('datasets/default/room128-16-1.map.scen') "
                          "among the --scen files, found none") != NULL, "%s", out);
    cr_assert(strstr(out, "report.sh: error: --csv: expected the --scen files") != NULL, "%s", out);
    /* the same name, one query changed (line 3's start_x) */
    snprintf(scen, sizeof scen, "--scen %s/edited/room128-16-1.map.scen", d);
    cr_assert_eq(gb_test_sh(out, sizeof out, rep, gb_test_bin(), gb_test_bin(), d, scen, d, "b"), 2, "%s", out);
    cr_assert(strstr(out, "/edited/room128-16-1.map.scen line 3 (bucket 0, (99,") != NULL &&
              strstr(out, " in the CSV: it did not run on this --scen file") != NULL, "%s", out);
    /* one file more than it ran on */
    snprintf(scen, sizeof scen, "--scen %s --scen %s", sc, other);
    cr_assert_eq(gb_test_sh(out, sizeof out, rep, gb_test_bin(), gb_test_bin(), d, scen, d, "c"), 2, "%s", out);
    cr_assert(strstr(out, "--scen datasets/default/maze128-2-1.map.scen: expected a scenario the CSV ran on, "
                          "found no row of it in") != NULL, "%s", out);
    /* nothing was written by any refusal */
    cr_assert_eq(gb_test_sh(out, sizeof out, "ls %s", d), 0);
    cr_assert_str_eq(out, "all.csv\ncopy\nedited\n");
    /* a copy of the right file, elsewhere: taken */
    snprintf(scen, sizeof scen, "--scen %s/copy/room128-16-1.map.scen", d);
    cr_assert_eq(gb_test_sh(out, sizeof out, rep, gb_test_bin(), gb_test_bin(), d, scen, d, "ok"), 0, "%s", out);
    rmdir_all(d);
#undef rep
}

GB_TEST(shard, report_script_sample_runs_an_even_slice_and_says_so)
{
    GB_TEST_E2E();
    char d[64];
    tmpdir(d, sizeof d);
    /* no browser (GB_CHROMIUM names none): the test reads the report's
     * text, not its rendering */
    cr_assert_eq(
        gb_test_sh(
            out, sizeof out,
            "GB_CHROMIUM=/nonexistent GB_BIN=%s scripts/report.sh --bin %s --sample 5 --solvers jps "
            "--queues bheap "
            "--reps 1 --hyperfine-runs 2 --hyperfine-warmup 1 --no-footprints --out-dir %s --run-id s",
            gb_test_bin(), gb_test_bin(), d),
        0, "%s", out);
    /* hyperfine times the run's solvers only, with the oracle cached by its warm-up */
    cr_assert_eq(gb_test_sh(out, sizeof out, "grep -o '\"solvers\": \\[\"jps\"\\]}' %s/s/env.json; "
                    "grep -c \"the oracle's answers come from a cache the warm-up filled\" %s/s/report.md", d, d),
                 0, "%s", out);
    cr_assert_str_eq(out, "\"solvers\": [\"jps\"]}\n1\n");
    /* 150 queries per file, every 30th: lines 2, 32, ... 122 of each */
    cr_assert_eq(gb_test_sh(out, sizeof out, "grep -c ',jps,bheap,' %s/s/queries.csv; grep '\"sample\": 5' %s/s/env.json; "
                    "grep -c 'about 5 evenly spaced queries' %s/s/report.md", d, d, d), 0, "%s", out);
    cr_assert(strncmp(out, "15\n", 3) == 0, "%s", out);
    cr_assert_eq(gb_test_sh(out, sizeof out, "awk -F, 'NR > 1 { print $3 }' %s/s/queries.csv | sort -n | uniq | tr '\\n' ' '", d), 0);
    cr_assert_str_eq(out, "2 32 62 92 122 ");
    rmdir_all(d);
}
