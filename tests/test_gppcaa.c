/*
 * test_gppcaa.c -- GPPC any-angle entries as plugins: `gridbench gppc
 * build` on the test entry tests/gppc/aavg/ (an exact visibility-graph
 * search behind the any-angle API, two GetPath calls per query, an index
 * of convex corners read back), its rows under --anyangle-model gppc, and
 * its broken variants ($GB_AA_TEST_VARIANT: 1 a segment through blocked
 * cells, 2 a waypoint far from any corner, 3 longer legal paths, 4 every
 * waypoint moved by 4e-7).
 *
 *   anyangle_snap_*  real waypoints to corners (gb_gppc_snap), refusals
 *   anyangle_run_*   the plugin built once, then one run per variant
 *
 * The entry compiles once per suite (the cache `make test` gives); each
 * run is 22 queries on a generated 32x32 map, well under a second.
 */
#include "gb_test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gb_gppc.h"
#include "gb_grid.h"

#define AA_ENTRY "tests/gppc/aavg"

static char out[65536];

GB_TEST(gppc, anyangle_snap_reads_corners_within_1e_6_and_names_a_bad_waypoint)
{
    gb_grid g;
    cr_assert_eq(gb_grid_init(&g, 10, 8), 0);
    int32_t p[200];
    int64_t bad;
    char why[160];
    /* corners, the far edge of the map included, and points within 1e-6 */
    gb_gppc_pt ok[] = { { 0, 0 }, { 3.0000004, 1.9999996 }, { 10, 8 }, { -4e-7, 8 + 9e-7 } };
    cr_assert_eq(gb_gppc_snap(&g, ok, 4, p, g.ncells, &bad, why, sizeof why), 4, "%s", why);
    cr_assert_eq(bad, -1);
    const int xs[] = { 0, 3, 10, 0 }, ys[] = { 0, 2, 8, 8 };
    for (int i = 0; i < 4; i++)
        cr_assert(gb_grid_x(&g, p[i]) == xs[i] && gb_grid_y(&g, p[i]) == ys[i], "waypoint %d", i);
    cr_assert_eq(gb_gppc_snap(&g, ok, 0, p, g.ncells, &bad, why, sizeof why), 0);
    /* 2e-6 off: not a corner; the segment that ends there is named */
    gb_gppc_pt off[] = { { 1, 1 }, { 2, 2 }, { 4.5, 3.000002 } };
    cr_assert_eq(gb_gppc_snap(&g, off, 3, p, g.ncells, &bad, why, sizeof why), -1);
    cr_assert_eq(bad, 1);
    cr_assert_str_eq(why, "expected waypoint 2 at a cell corner (each coordinate within 1e-6 of an "
                          "integer), found (4.5,3.000002)");
    gb_gppc_pt outside[] = { { 1, 1 }, { 11, 1 } };
    cr_assert_eq(gb_gppc_snap(&g, outside, 2, p, g.ncells, &bad, why, sizeof why), -1);
    cr_assert_eq(bad, 0);
    cr_assert_str_eq(why, "expected waypoint 1 at a point of the map's [0,10]x[0,8], found (11,1)");
    gb_gppc_pt nan[] = { { NAN, 1 } };
    cr_assert_eq(gb_gppc_snap(&g, nan, 1, p, g.ncells, &bad, why, sizeof why), -1);
    cr_assert_str_eq(why, "expected waypoint 0 at finite coordinates, found (nan,1)");
    cr_assert_eq(gb_gppc_snap(&g, ok, 4, p, 3, &bad, why, sizeof why), -1);
    cr_assert_str_eq(why, "expected at most 3 waypoints (every cell of the padded map), found 4");
    gb_grid_free(&g);
}

/* Rows of csv (a run's CSV) for which the awk condition cond holds; the
 * columns by name: c["status"]. */
static long count(const char *csv, const char *cond)
{
    char res[64];
    if (gb_test_sh(res, sizeof res,
                   "awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } "
                   "%s { n++ } END { print n + 0 }' %s",
                   cond, csv)
        != 0)
        return -1;
    return atol(res);
}

/* One run of the plugin so beside anya with variant v into DIR/vV.csv;
 * the run's stderr into out.  The exit status. */
static int run_variant(const char *d, const char *so, int v)
{
    return gb_test_sh(out, sizeof out,
                      "GB_AA_TEST_VARIANT=%d %s run --quiet --no-oracle-cache "
                      "--anyangle-model gppc --plugin %s -s aa-visgraph,anya -o %s/v%d.csv "
                      "%s/random32-12-7.map.scen 2>&1",
                      v, gb_test_bin(), so, d, v, d);
}

GB_TEST(gppc, anyangle_run_rows_are_exact_and_broken_variants_fail_loudly)
{
    gb_test_bin();
    if (gb_test_sh(NULL, 0, "command -v c++ && command -v make") != 0)
        cr_skip_test("c++ or make not found");
    char d[64];
    snprintf(d, sizeof d, "/tmp/gbgppcaa.XXXXXX");
    cr_assert_not_null(mkdtemp(d));
    /* the build recognises the track by GPPC.h's double-valued xyLoc */
    int rc = gb_test_sh(out, sizeof out, "%s gppc build " AA_ENTRY " 2>%s/err", gb_test_bin(), d);
    cr_assert_eq(rc, 0, "exit %d: %s", rc, out);
    char so[1200];
    snprintf(so, sizeof so, "%.*s", (int)strcspn(out, "\n"), out);
    gb_test_sh(out, sizeof out, "cat %s/err", d);
    cr_assert(strstr(out, "any-angle track") != NULL, "%s", out);
    rc = gb_test_sh(out, sizeof out,
                    "%s gen --family random --size 32 -p 12 -S 7 -n 2 -Q 40 --out %s 2>&1",
                    gb_test_bin(), d);
    cr_assert_eq(rc, 0, "%s", out);

    /* --anyangle cannot make a dynamic-track entry one */
    rc = gb_test_sh(out, sizeof out, "%s gppc build tests/gppc/dynbfs --anyangle 2>&1", gb_test_bin());
    cr_assert(rc == 64
                  && strstr(out, "/tests/gppc/dynbfs: error: --anyangle: expected an entry of the "
                                 "classic API (GetPath), found a dynamic-track one (gppc_map_change)\n"),
              "exit %d: %s", rc, out);

    /* without the GPPC model: refused before any query */
    rc = gb_test_sh(out, sizeof out,
                    "%s run --quiet --plugin %s -s aa-visgraph %s/random32-12-7.map.scen "
                    "2>&1 >/dev/null",
                    gb_test_bin(), so, d);
    cr_assert_eq(rc, 64, "exit %d: %s", rc, out);
    cr_assert_str_eq(
        out, "gridbench run: solver 'aa-visgraph' is a GPPC any-angle entry (its paths are "
             "real-coordinate corners): expected --anyangle-model gppc, found the cell-centre model\n");

    /* the entry: every row ok, at the exact optimum, costed as anya's */
    char csv[128];
    rc = run_variant(d, so, 0);
    cr_assert_eq(rc, 0, "exit %d: %s", rc, out);
    snprintf(csv, sizeof csv, "%s/v0.csv", d);
    const long n = count(csv, "$c[\"solver\"] == \"anya\"");
    cr_assert_eq(n, 22, "%s", out);
    cr_assert_eq(
        count(csv, "$c[\"solver\"] == \"aa-visgraph\" && $c[\"status\"] == \"ok\" "
                   "&& $c[\"cost_model\"] == \"anyangle-gppc\" && $c[\"subopt\"] == \"1.000000\" "
                   "&& $c[\"time_source\"] == \"gppc\" && $c[\"calls\"] >= 1 && $c[\"prepare_ns\"] > 0 "
                   "&& $c[\"storage_bytes\"] > 0"),
        n, "%s", out);
    cr_assert_gt(count(csv, "$c[\"solver\"] == \"aa-visgraph\" && $c[\"calls\"] == 2"), 0);
    rc = gb_test_sh(out, sizeof out,
                    "awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } "
                    "{ k = $c[\"line\"]; if (k in a) { d = a[k] - $c[\"cost\"]; if (d < 0) d = -d; "
                    "if (d > 1e-6) bad++ } else a[k] = $c[\"cost\"] } END { print bad + 0 }' %s",
                    csv);
    cr_assert_str_eq(out, "0\n", "costs that differ from anya's");

    /* 1: the straight segment through blocked cells */
    rc = run_variant(d, so, 1);
    cr_assert_eq(rc, 1, "exit %d: %s", rc, out);
    cr_assert(strstr(out, "invalid_path on aa-visgraph/none: segment 0 from ")
                  && strstr(out, "R2: crosses "
                                 "the blocked cell"),
              "%s", out);
    snprintf(csv, sizeof csv, "%s/v1.csv", d);
    long inval = count(csv, "$c[\"solver\"] == \"aa-visgraph\" && $c[\"status\"] == \"invalid_path\"");
    cr_assert(inval > 0
                  && inval + count(csv, "$c[\"solver\"] == \"aa-visgraph\" && $c[\"status\"] == \"ok\"")
                         == n,
              "%ld: %s", inval, out);

    /* 2: a waypoint far from any corner, named */
    rc = run_variant(d, so, 2);
    cr_assert_eq(rc, 1, "exit %d: %s", rc, out);
    cr_assert(strstr(out,
                     "invalid_path on aa-visgraph/none: segment 0: expected waypoint 1 at a cell corner "
                     "(each coordinate within 1e-6 of an integer), found (")
                  != NULL,
              "%s", out);
    snprintf(csv, sizeof csv, "%s/v2.csv", d);
    cr_assert_eq(count(csv, "$c[\"solver\"] == \"aa-visgraph\" && $c[\"status\"] == \"invalid_path\" "
                            "&& $c[\"subopt\"] == \"\""),
                 n
                     - count(csv, "$c[\"solver\"] == \"anya\" && $c[\"start_x\"] == $c[\"goal_x\"] "
                                  "&& $c[\"start_y\"] == $c[\"goal_y\"]"),
                 "%s", out);

    /* 3: legal and longer: suboptimal against the exact optimum */
    rc = run_variant(d, so, 3);
    cr_assert_eq(rc, 1, "exit %d: %s", rc, out);
    cr_assert(strstr(out, "suboptimal on aa-visgraph/none: any-angle cost above the exact any-angle "
                          "optimum")
                  != NULL,
              "%s", out);
    snprintf(csv, sizeof csv, "%s/v3.csv", d);
    long sub = count(csv, "$c[\"solver\"] == \"aa-visgraph\" && $c[\"status\"] == \"suboptimal\" "
                          "&& $c[\"subopt\"] > 1.000001");
    cr_assert(sub > 0
                  && sub
                             + count(csv,
                                     "$c[\"solver\"] == \"aa-visgraph\" && $c[\"status\"] == \"ok\" "
                                     "&& $c[\"subopt\"] == \"1.000000\"")
                         == n,
              "%ld: %s", sub, out);

    /* 4: every waypoint 4e-7 off its corner: read as the corner, all ok */
    rc = run_variant(d, so, 4);
    cr_assert_eq(rc, 0, "exit %d: %s", rc, out);
    snprintf(csv, sizeof csv, "%s/v4.csv", d);
    cr_assert_eq(count(csv, "$c[\"solver\"] == \"aa-visgraph\" && $c[\"status\"] == \"ok\" "
                            "&& $c[\"subopt\"] == \"1.000000\""),
                 n, "%s", out);
    gb_test_sh(NULL, 0, "rm -rf %s", d);
}
