/*
 * test_plugin.c -- user plugins (`gridbench run --plugin`, gb_user.h):
 * per-map prepare/release hooks timed into prep_ns, plugins without
 * hooks still loading, and crash isolation at --jobs 1 and 2 (a plugin
 * that segfaults costs its own crash rows, never the run or the other
 * solvers' rows).
 *
 * Builds the plugins of tests/plugins/ with cc against the tree's
 * headers (-Isolvers -Iharness); runs the binary named by GB_BIN (set by
 * `make test`).  Every failure prints the command, its exit status and
 * its output.
 */
#include "gb_test.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char out[65536];

static char *tmpdir(void)
{
    static char d[64];
    snprintf(d, sizeof d, "/tmp/gbplug.XXXXXX");
    cr_assert_not_null(mkdtemp(d));
    return d;
}

static void need_cc(void)
{
    gb_test_bin();
    if (gb_test_sh(NULL, 0, "command -v cc") != 0) cr_skip_test("cc not found");
}

/* Build tests/plugins/SRC.c into DIR/NAME.so (extra cc flags in flags). */
static void build_plugin(const char *dir, const char *src, const char *name, const char *flags)
{
    int rc = gb_test_sh(out, sizeof out, "cc -shared -fPIC -Isolvers -Iharness/core -Iharness/run %s "
                        "tests/plugins/%s.c -o %s/%s.so", flags, src, dir, name);
    cr_assert_eq(rc, 0, "building %s: exit %d: %s", src, rc, out);
}

/* The number of rows of csv for which the awk condition cond holds. */
static long count(const char *cond, const char *csv)
{
    char res[64];
    if (gb_test_sh(res, sizeof res, "awk -F, '%s' %s | wc -l", cond, csv) != 0) return 0;
    return atol(res);
}

GB_TEST(plugin, prepare_and_release_run_once_per_map_timed_as_prep)
{
    need_cc();
    char *d = tmpdir();
    build_plugin(d, "hooks_plugin", "hooks", "");
    const char *s1 = "datasets/default/maze128-2-1.map.scen", *s2 = "datasets/default/room128-16-1.map.scen";
    int rc = gb_test_sh(out, sizeof out, "GB_HOOK_LOG=%s/log %s run --quiet --no-oracle-cache "
                        "--plugin %s/hooks.so -s prep-ws,prep-fails --count 4 -o %s/a.csv %s %s",
                        d, gb_test_bin(), d, d, s1, s2);
    /* prep-fails fails every row: exit 1, and the reason is said */
    cr_assert_eq(rc, 1, "exit %d: %s", rc, out);
    cr_assert(strstr(out, "crash on prep-fails/none: the user solver's prepare hook failed on "
                          "this map (returned -1)") != NULL, "%s", out);
    char csv[128];
    snprintf(csv, sizeof csv, "%s/a.csv", d);
    /* prep-ws: every row ok (its solve returns -1 unless prepared), with a
     * prep_ns (column 33) > 0, time_source plugin */
    cr_assert_eq(count("$10==\"prep-ws\" && $14==\"ok\" && $33>0 && $34==\"plugin\"", csv), 8, "%s", out);
    cr_assert_eq(count("$10==\"prep-fails\" && $14==\"crash\"", csv), 8);
    /* once per map each, in the order prepare, release */
    cr_assert_eq(gb_test_sh(out, sizeof out, "cat %s/log", d), 0);
    cr_assert_str_eq(out, "prepare 128x128\nrelease\nprepare 128x128\nrelease\n");
    gb_test_sh(NULL, 0, "rm -rf %s", d);
}

GB_TEST(plugin, old_plugins_without_hooks_load_and_bad_hooks_are_refused)
{
    need_cc();
    char *d = tmpdir();
    build_plugin(d, "api_plugin", "api", "");
    int rc = gb_test_sh(out, sizeof out, "%s run --quiet --no-oracle-cache --plugin %s/api.so "
                        "-s via-library --count 3 -o %s/a.csv datasets/default/maze128-2-1.map.scen",
                        gb_test_bin(), d, d);
    cr_assert_eq(rc, 0, "a plugin without gb_plugin_hooks: exit %d: %s", rc, out);
    build_plugin(d, "hooks_plugin", "bad", "-DGB_TEST_BAD_HOOK");
    rc = gb_test_sh(out, sizeof out, "%s run --quiet --plugin %s/bad.so -s prep-ws "
                    "datasets/default/maze128-2-1.map.scen", gb_test_bin(), d);
    cr_assert_eq(rc, 65, "exit %d: %s", rc, out);
    cr_assert(strstr(out, "expected gb_plugin_hooks to name a solver of gb_plugin_solvers, found "
                          "'no-such-solver'") != NULL, "%s", out);
    gb_test_sh(NULL, 0, "rm -rf %s", d);
}

/* segv-some crashes on even start ids: crash rows for it, every other
 * row written, the run completes (exit 1: solver failures). */
static void crash_run(const char *jobs)
{
    char *d = tmpdir();
    build_plugin(d, "crash_plugin", "crash", "");
    int rc = gb_test_sh(out, sizeof out, "%s run --quiet --no-oracle-cache --jobs %s --plugin "
                        "%s/crash.so -s segv-some,dijkstra --count 12 -o %s/a.csv "
                        "datasets/default/maze128-2-1.map.scen", gb_test_bin(), jobs, d, d);
    cr_assert_eq(rc, 1, "--jobs %s: exit %d (139 = gridbench itself died): %s", jobs, rc, out);
    /* a signal; under ASan its SEGV handler reports and exits with a status */
    cr_assert(strstr(out, "crash on segv-some/none: the user solver crashed the worker process "
                          "running it (signal 11: Segmentation fault); not run again on this query")
              != NULL
              || (strstr(out, "crash on segv-some/none: the user solver crashed the worker process "
                              "running it (exit status ") != NULL
                  && strstr(out, "AddressSanitizer: SEGV") != NULL), "%s", out);
    char csv[128];
    snprintf(csv, sizeof csv, "%s/a.csv", d);
    long crash = count("$10==\"segv-some\" && $14==\"crash\"", csv);
    long other = count("$10==\"segv-some\" && $14!=\"crash\"", csv);
    cr_assert(crash > 0 && crash + other == 12, "--jobs %s: %ld crash + %ld other rows of 12",
              jobs, crash, other);
    /* the built-in solver's rows of the crashing queries are its own: ok */
    cr_assert_eq(count("$10==\"dijkstra\" && $14==\"ok\"", csv), 12,
                 "--jobs %s", jobs);
    gb_test_sh(NULL, 0, "rm -rf %s", d);
}

GB_TEST(plugin, a_segfaulting_plugin_costs_its_rows_not_the_run_at_jobs_1)
{
    need_cc();
    crash_run("1");
}

GB_TEST(plugin, a_segfaulting_plugin_costs_its_rows_not_the_run_at_jobs_2)
{
    need_cc();
    crash_run("2");
}
