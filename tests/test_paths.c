/*
 * test_paths.c -- `gridbench run --paths FILE`: every row's path, checked
 * here as an outsider would, with code written apart from gridbench's
 * validator: the map is read as text, each grid path expanded from its
 * waypoints by the GPPC rule (unit steps towards the next waypoint), and
 * its moves and cost recomputed and set against the run's CSV row.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gb_csv.h"
#include "gb_test.h"

static char out[65536];

/* The map maze128-2-1 as text: passable[y][x]. */
static int W, H;
static char cells[256][256];

static void read_map(const char *path)
{
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f);
    char line[512];
    int y = -1;
    while (fgets(line, sizeof line, f)) {
        if (sscanf(line, "height %d", &H) == 1 || sscanf(line, "width %d", &W) == 1) continue;
        if (strncmp(line, "map", 3) == 0) { y = 0; continue; }
        if (y >= 0 && y < H) memcpy(cells[y++], line, (size_t)W);
    }
    fclose(f);
    cr_assert_eq(y, H);
}

static int open_cell(int x, int y)
{
    return x >= 0 && y >= 0 && x < W && y < H && strchr(".GS", cells[y][x]) != NULL;
}

/* Check one grid path given by its waypoints: returns 1 when every
 * segment is a straight or diagonal run of legal moves (no corner
 * cutting), with *cost and *n the cost and cell count of the expansion. */
static int check_grid(const char *wp, double *cost, long *n)
{
    int px, py, x, y, k;
    *cost = 0.0;
    *n = 0;
    if (sscanf(wp, "%d:%d%n", &px, &py, &k) != 2) return 0;
    wp += k;
    *n = 1;
    if (!open_cell(px, py)) return 0;
    while (sscanf(wp, " %d:%d%n", &x, &y, &k) == 2) {
        wp += k;
        int dx = (x > px) - (x < px), dy = (y > py) - (y < py);
        if (dx && dy && abs(x - px) != abs(y - py)) return 0;   /* not one direction */
        if (!dx && !dy) return 0;                                 /* a repeated waypoint */
        while (px != x || py != y) {
            if (!open_cell(px + dx, py + dy)) return 0;
            if (dx && dy && (!open_cell(px + dx, py) || !open_cell(px, py + dy))) return 0;
            px += dx;
            py += dy;
            *cost += dx && dy ? sqrt(2.0) : 1.0;
            ++*n;
        }
    }
    return 1;
}

/* Run dir/a.csv with --paths dir/a.paths (extra options in opts), then
 * check every path line against its row: returns the number of rows
 * checked; fills *bad with the rows whose independent check disagrees
 * with the row's status. */
static long run_and_check(const char *dir, const char *opts, long *bad)
{
    int rc = gb_test_sh(out, sizeof out, "%s run --quiet --no-oracle-cache %s --out %s/a.csv "
                        "--paths %s/a.paths datasets/default/maze128-2-1.map.scen 2>&1",
                        gb_test_bin(), opts, dir, dir);
    cr_assert(rc == 0 || rc == 1, "exit %d: %s", rc, out);
    char p[256];
    gb_diag d;
    gb_csv rows, paths;
    snprintf(p, sizeof p, "%s/a.csv", dir);
    cr_assert_eq(gb_csv_open(&rows, p, &d), 0, "%s", d.msg);
    snprintf(p, sizeof p, "%s/a.paths", dir);
    cr_assert_eq(gb_csv_open(&paths, p, &d), 0, "%s", d.msg);
    const char *rn[] = { "scen", "line", "solver", "queue", "status", "cost", "cost_model", "path_len" };
    const char *pn[] = { "scen", "line", "solver", "queue", "cost_model", "cells", "waypoints" };
    int ri[8], pj[7];
    cr_assert_eq(gb_csv_require(&rows, rn, 8, ri, &d), 0, "%s", d.msg);
    cr_assert_eq(gb_csv_require(&paths, pn, 7, pj, &d), 0, "%s", d.msg);
    long checked = 0;
    *bad = 0;
    int have = gb_csv_next(&paths, &d) == 0;
    while (gb_csv_next(&rows, &d) == 0) {
        const char *st = gb_csv_field(&rows, ri[4]);
        int has_path = gb_csv_field(&rows, ri[5])[0] != '\0';
        if (!has_path) continue;
        cr_assert(have, "row %s:%s %s has a cost but no path line", gb_csv_field(&rows, ri[0]),
                  gb_csv_field(&rows, ri[1]), gb_csv_field(&rows, ri[2]));
        for (int i = 0; i < 4; i++)   /* the same key, in the same order */
            cr_assert_str_eq(gb_csv_field(&paths, pj[i]), gb_csv_field(&rows, ri[i]));
        cr_assert_str_eq(gb_csv_field(&paths, pj[4]), gb_csv_field(&rows, ri[6]));
        cr_assert_eq(atol(gb_csv_field(&paths, pj[5])), atol(gb_csv_field(&rows, ri[7])));
        if (strcmp(gb_csv_field(&paths, pj[4]), "grid") == 0) {
            double cost;
            long n;
            int ok = check_grid(gb_csv_field(&paths, pj[6]), &cost, &n);
            ok = ok && n == atol(gb_csv_field(&paths, pj[5]))
                 && fabs(cost - atof(gb_csv_field(&rows, ri[5]))) < 1e-6;
            if (ok != (strcmp(st, "invalid_path") != 0)) ++*bad;
            checked++;
        }
        have = gb_csv_next(&paths, &d) == 0;
    }
    cr_assert(!have, "a path line with no row: %s", gb_csv_field(&paths, pj[0]));
    gb_csv_close(&rows);
    gb_csv_close(&paths);
    return checked;
}

GB_TEST(paths, every_grid_path_rechecks_outside_gridbench_as_its_row_says)
{
    read_map("datasets/default/maze128-2-1.map");
    char d[] = "/tmp/gbpaths.XXXXXX";
    cr_assert_not_null(mkdtemp(d));
    long bad;
    long n = run_and_check(d, "-s dijkstra,jps,jps+,sg-tl,bfs,theta -q bheap --count 30", &bad);
    cr_assert_eq(n, 30 * 5, "grid rows checked: %ld", n);
    cr_assert_eq(bad, 0, "%ld rows disagree with the independent check", bad);
    /* the same paths file with two workers (paths travel through the pipe) */
    char cmd[512];
    snprintf(cmd, sizeof cmd, "cp %s/a.paths %s/one.paths", d, d);
    cr_assert_eq(system(cmd), 0);
    n = run_and_check(d, "-s dijkstra,jps,jps+,sg-tl,bfs,theta -q bheap --count 30 --jobs 2", &bad);
    cr_assert_eq(bad, 0);
    cr_assert_eq(gb_test_sh(out, sizeof out, "cmp %s/a.paths %s/one.paths", d, d), 0, "%s", out);
    gb_test_sh(NULL, 0, "rm -rf '%s'", d);
}

GB_TEST(paths, a_wrong_solvers_paths_fail_the_outside_check_too)
{
    if (gb_test_sh(NULL, 0, "command -v cc") != 0) cr_skip_test("cc not found");
    read_map("datasets/default/maze128-2-1.map");
    char d[] = "/tmp/gbpaths.XXXXXX";
    cr_assert_not_null(mkdtemp(d));
    cr_assert_eq(gb_test_sh(out, sizeof out, "cc -shared -fPIC -Isolvers -Iharness/core -Iharness/run "
                            "tests/plugins/wrong_plugin.c -o %s/wrong.so", d), 0, "%s", out);
    char opts[256];
    snprintf(opts, sizeof opts, "--plugin %s/wrong.so -s straight-line,dijkstra --count 12", d);
    long bad, n = run_and_check(d, opts, &bad);
    cr_assert_eq(n, 24);
    cr_assert_eq(bad, 0, "the independent check and the rows' status disagree on %ld rows", bad);
    /* and some of the straight lines are indeed invalid */
    cr_assert_eq(gb_test_sh(out, sizeof out, "grep -c invalid_path %s/a.csv", d), 0, "%s", out);
    cr_assert_gt(atol(out), 0);
    gb_test_sh(NULL, 0, "rm -rf '%s'", d);
}

GB_TEST(paths, an_interrupted_run_leaves_no_paths_file)
{
    char d[] = "/tmp/gbpaths.XXXXXX";
    cr_assert_not_null(mkdtemp(d));
    /* a bad scenario line stops the run: neither file appears */
    int rc = gb_test_sh(out, sizeof out, "printf 'version 1\\n0\\tmaze128-2-1.map\\t128\\t128\\t1\\t1\\t999\\t1\\t1\\n' "
                        "> %s/bad.scen && cp datasets/default/maze128-2-1.map %s/ && %s run --quiet "
                        "--out %s/a.csv --paths %s/a.paths %s/bad.scen 2>&1; ls %s", d, d, gb_test_bin(),
                        d, d, d, d);
    cr_assert_eq(rc, 0, "%s", out);
    cr_assert_null(strstr(out, "a.paths"), "%s", out);
    cr_assert_null(strstr(out, ".tmp."), "%s", out);
    rc = gb_test_sh(out, sizeof out, "%s run --resume --out %s/a.csv --paths %s/p %s/bad.scen 2>&1",
                    gb_test_bin(), d, d, d);
    cr_assert_eq(rc, 64, "%s", out);
    cr_assert(strstr(out, "--paths: expected a run from the start, found --resume") != NULL, "%s", out);
    gb_test_sh(NULL, 0, "rm -rf '%s'", d);
}
