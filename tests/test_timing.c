/*
 * test_timing.c -- times of different kinds are never compared unsaid:
 * `gridbench summary` gives a speedup only between solvers of the same
 * time_source (inproc, process, plugin), says each group's source, and
 * shows preprocessing apart (prep_ns_max) and amortised
 * (prep_amortised_ns = time_mean_ns + prep_ns_max / n).
 *
 * Runs the binary named by GB_BIN on a real run of built-in solvers, the
 * C reference client (examples/solver.c) and a plugin
 * (tests/plugins/api_plugin.c), built with cc; skips without cc.  Every
 * failure prints the command's exit status and output.
 */
#include "gb_test.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char out[65536];

/* Field `col` (by header name) of the summary row of solver (queue any)
 * in CSV file path, into buf ("" when empty); 0, or -1 when not found. */
static int field(const char *path, const char *solver, const char *col, char *buf, size_t n)
{
    int rc = gb_test_sh(buf, n, "awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == \"%s\") c = i; next } "
                        "$2 == \"%s\" { printf \"%%s\", $c; exit 0 } END { }' %s", col, solver, path);
    return rc == 0 ? 0 : -1;
}

GB_TEST(timing, summary_speedup_only_within_one_time_source)
{
    gb_test_bin();
    if (gb_test_sh(NULL, 0, "command -v cc") != 0) cr_skip_test("cc not found");
    char d[64] = "/tmp/gbtime.XXXXXX";
    cr_assert_not_null(mkdtemp(d));
    int rc = gb_test_sh(out, sizeof out, "cc -O2 -o %s/solver examples/solver.c && cc -shared -fPIC "
                        "-Isolvers -Iharness/core -Iharness/run tests/plugins/api_plugin.c -o %s/api.so", d, d);
    cr_assert_eq(rc, 0, "build: exit %d: %s", rc, out);
    rc = gb_test_sh(out, sizeof out,
                    "%s run --quiet --no-oracle-cache --count 8 -s dijkstra,"
                    "astar-octile,jps,via-library --plugin %s/api.so --external 'exec %s/solver' "
                    "--external-name c -o %s/q.csv datasets/default/maze128-2-1.map.scen",
                    gb_test_bin(), d, d, d);
    cr_assert_eq(rc, 0, "run: exit %d: %s", rc, out);
    rc = gb_test_sh(out, sizeof out, "%s summary %s/q.csv --out %s/s.csv --plot-data %s/pd",
                    gb_test_bin(), d, d, d);
    cr_assert_eq(rc, 0, "summary: exit %d: %s", rc, out);
    char s[128], v[256];
    snprintf(s, sizeof s, "%s/s.csv", d);
    static const struct { const char *solver, *src; int speedup; } want[] = {
        { "dijkstra", "inproc", 1 }, { "astar-octile", "inproc", 1 },
        { "external:c", "process", 0 }, { "via-library", "plugin", 0 },
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        cr_assert_eq(field(s, want[i].solver, "time_source", v, sizeof v), 0);
        cr_assert_str_eq(v, want[i].src, "%s: time_source '%s'", want[i].solver, v);
        cr_assert_eq(field(s, want[i].solver, "speedup", v, sizeof v), 0);
        cr_assert_eq(v[0] != '\0', want[i].speedup, "%s: speedup '%s' (%s)", want[i].solver, v,
                     want[i].speedup ? "expected one: same source as dijkstra"
                                     : "expected none: another time_source than dijkstra's");
    }
    /* preprocessing apart and amortised over the group's queries: jps
     * builds its per-map tables; astar-octile has no index, nothing to spread */
    char pm[64], tm[64], n[64], am[64];
    cr_assert_eq(field(s, "jps", "prep_ns_max", pm, sizeof pm), 0);
    cr_assert_eq(field(s, "jps", "time_mean_ns", tm, sizeof tm), 0);
    cr_assert_eq(field(s, "jps", "n", n, sizeof n), 0);
    cr_assert_eq(field(s, "jps", "prep_amortised_ns", am, sizeof am), 0);
    cr_assert(pm[0] && am[0], "prep_ns_max '%s', prep_amortised_ns '%s'", pm, am);
    double want_am = atof(tm) + atof(pm) / atof(n);
    cr_assert(fabs(atof(am) - want_am) < 0.01, "prep_amortised_ns %s, expected %s + %s / %s",
              am, tm, pm, n);
    cr_assert_eq(field(s, "astar-octile", "prep_ns_max", pm, sizeof pm), 0);
    cr_assert_eq(field(s, "astar-octile", "time_mean_ns", tm, sizeof tm), 0);
    cr_assert_eq(field(s, "astar-octile", "prep_amortised_ns", am, sizeof am), 0);
    cr_assert(!pm[0] && fabs(atof(am) - atof(tm)) < 0.01,
              "astar-octile: prep '%s', amortised %s, mean %s", pm, am, tm);
    /* the speedup plot data leaves the other sources out too */
    cr_assert_eq(gb_test_sh(out, sizeof out, "cat %s/pd/speedup.tsv", d), 0);
    cr_assert(strstr(out, "astar-octile") != NULL, "%s", out);
    cr_assert(strstr(out, "external:c") == NULL && strstr(out, "via-library") == NULL, "%s", out);
    /* the report ranks only the baseline's source and says so */
    rc = gb_test_sh(out, sizeof out, "mkdir %s/r && cp %s %s/r/summary.csv && printf '%%s\\n' "
                    "'{\"commit\": \"x\", \"run\": {\"run_id\": \"t\"}}' > %s/r/env.json && "
                    "%s report %s/r", d, s, d, d, gb_test_bin(), d);
    cr_assert_eq(rc, 0, "report: exit %d: %s", rc, out);
    cr_assert_eq(gb_test_sh(out, sizeof out, "grep -e 'fastest' -e 'not ranked' %s/r/report.md", d), 0,
                 "%s", out);
    cr_assert(strstr(out, "are not ranked against them above and have no speedup") != NULL, "%s", out);
    cr_assert(strstr(out, "`external:c`") == NULL && strstr(out, "`via-library`") == NULL,
              "a solver of another time_source ranked: %s", out);
    gb_test_sh(NULL, 0, "rm -rf %s", d);
}

/* The order of the calls under each regime, from tests/plugins/log_plugin.c
 * (3 queries, 2 pairs, --reps 2): interleaved runs each pair's reps back
 * to back per query; gppc runs each pair over every query once per pass,
 * then one untimed run per query and pair gives the judged path. */
GB_TEST(timing, the_regimes_order_the_timed_runs_as_documented)
{
    gb_test_bin();
    if (gb_test_sh(NULL, 0, "command -v cc") != 0) cr_skip_test("cc not found");
    char d[64] = "/tmp/gbtime.XXXXXX";
    cr_assert_not_null(mkdtemp(d));
    int rc = gb_test_sh(out, sizeof out, "cc -shared -fPIC -Isolvers -Iharness/core -Iharness/run "
                        "tests/plugins/log_plugin.c -o %s/log.so", d);
    cr_assert_eq(rc, 0, "build: exit %d: %s", rc, out);
    const char *q[] = { "97,43", "8,101", "89,59" };   /* the first 3 starts of maze128-2-1 */
    for (int gppc = 0; gppc < 2; gppc++) {
        rc = gb_test_sh(out, sizeof out, "rm -f %s/log; GB_CALL_LOG=%s/log %s run --quiet "
                        "--no-oracle-cache --plugin %s/log.so -s log-a,log-b --count 3 --reps 2 %s "
                        "-o %s/q.csv datasets/default/maze128-2-1.map.scen >/dev/null 2>&1; cat %s/log",
                        d, d, gb_test_bin(), d, gppc ? "--regime gppc" : "", d, d);
        char want[1024];
        size_t k = 0;
        if (gppc) {
            for (int p = 0; p < 2; p++)
                for (int pass = 0; pass < 2; pass++)
                    for (int i = 0; i < 3; i++)
                        k += (size_t)snprintf(want + k, sizeof want - k, "%s %s\n", p ? "b" : "a", q[i]);
            for (int i = 0; i < 3; i++)
                for (int p = 0; p < 2; p++)
                    k += (size_t)snprintf(want + k, sizeof want - k, "%s %s\n", p ? "b" : "a", q[i]);
        } else {
            for (int i = 0; i < 3; i++)
                for (int p = 0; p < 2; p++)
                    for (int r = 0; r < 2; r++)
                        k += (size_t)snprintf(want + k, sizeof want - k, "%s %s\n", p ? "b" : "a", q[i]);
        }
        cr_assert_str_eq(out, want, "regime %s", gppc ? "gppc" : "interleaved");
        /* every row names its regime and its reps */
        rc = gb_test_sh(out, sizeof out, "awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } "
                        "{ print $c[\"regime\"], $c[\"reps\"], $c[\"calls\"] }' %s/q.csv | sort -u", d);
        cr_assert_eq(rc, 0);
        cr_assert_str_eq(out, gppc ? "gppc 2 1\n" : "interleaved 2 1\n");
    }
    rc = gb_test_sh(out, sizeof out, "%s run --regime gppc --jobs 2 datasets/default/maze128-2-1.map.scen 2>&1",
                    gb_test_bin());
    cr_assert_eq(rc, 64, "%s", out);
    cr_assert(strstr(out, "--regime gppc: expected one process") != NULL, "%s", out);
    gb_test_sh(NULL, 0, "rm -rf '%s'", d);
}

/* The gppc regime judges exactly as the interleaved one: only the timing
 * columns and the regime differ. */
GB_TEST(timing, the_gppc_regime_changes_no_verdict)
{
    char d[64] = "/tmp/gbtime.XXXXXX";
    cr_assert_not_null(mkdtemp(d));
    for (int gppc = 0; gppc < 2; gppc++) {
        int rc = gb_test_sh(out, sizeof out, "%s run --quiet --no-oracle-cache -s dijkstra,jps,theta,sg-tl "
                            "-q bucket --count 40 --reps 2 %s -o %s/%d.csv datasets/default/*.scen 2>&1",
                            gb_test_bin(), gppc ? "--regime gppc" : "", d, gppc);
        cr_assert_eq(rc, 0, "exit %d: %s", rc, out);
    }
    /* every column but time_ns, time_cold_ns, prep_ns, regime, first20_ns, max_call_ns */
    int rc = gb_test_sh(out, sizeof out, "for f in 0 1; do awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) "
                        "if ($i !~ /^(time_ns|time_cold_ns|prep_ns|regime|first20_ns|max_call_ns)$/) k[++n] = i } "
                        "{ s = \"\"; for (j = 1; j <= n; j++) s = s \",\" $k[j]; print s }' %s/$f.csv > %s/$f.cut; "
                        "done; cmp %s/0.cut %s/1.cut && wc -l < %s/0.cut", d, d, d, d, d);
    cr_assert_eq(rc, 0, "%s", out);
    cr_assert_eq(atol(out), 1 + 3 * 40 * 4);
    gb_test_sh(NULL, 0, "rm -rf '%s'", d);
}
