/*
 * test_runtests.c -- scripts/run-tests.sh, the runner of `make test`.
 *
 * Its first line announces how many tests will run.  Criterion's --list
 * ignores --filter, so with a filter the script counts the suite/test
 * names the pattern selects itself; the announced count must equal what
 * the run then reports.  The script runs this very binary
 * (/proc/self/exe) on suites of pure computation, which take
 * milliseconds and need no environment; without BoxFort's BXFI_MAP,
 * which this worker inherited, so that it runs as a whole suite and not
 * as one more worker.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gb_test.h"

static char out[8192];

/* The announced total of `run-tests.sh SELF 1 ARGS` and the passed count
 * of its closing line; -1 when a line is missing. */
static void run_counts(const char *args, int *announced, int *passed)
{
    char self[1024];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    cr_assert(n > 0, "readlink /proc/self/exe");
    self[n] = '\0';
    int rc = gb_test_sh(out, sizeof out, "env -u BXFI_MAP LC_ALL=C ./scripts/run-tests.sh '%s' 1 %s",
                        self, args);
    cr_assert_eq(rc, 0, "%s", out);
    const char *a = strstr(out, "gridbench-tests: "), *p = strstr(out, "\ntests: ");
    *announced = *passed = -1;
    if (a) sscanf(strchr(a, ':') + 1, "%d", announced);
    if (p) sscanf(p + 8, "%d", passed);
}

/* The size of a suite, from Criterion's own --list ("NAME: N tests"). */
static int suite_size(const char *suite)
{
    char self[1024];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    cr_assert(n > 0, "readlink /proc/self/exe");
    self[n] = '\0';
    cr_assert_eq(
        gb_test_sh(out, sizeof out, "env -u BXFI_MAP '%s' --list 2>&1 | grep '^%s: '", self, suite), 0,
        "%s", out);
    size_t l = strlen(suite);
    cr_assert(strncmp(out, suite, l) == 0 && out[l] == ':', "%s", out);
    int k = atoi(out + l + 1);
    return k;
}

/* Breaks if the filter is ignored when counting (the whole suite's total
 * is announced), or if a pattern with @(a|b) or --filter=PAT is misread. */
GB_TEST(run_tests, the_announced_total_is_what_the_filter_selects)
{
    GB_TEST_SCRIPT_ONLY();
    int a, p;
    run_counts("--filter 'quantile/*'", &a, &p);
    cr_expect(a == 1 && p == 1, "announced %d, passed %d: %s", a, p, out);
    const int both = suite_size("rows") + suite_size("stats");
    cr_assert_gt(both, 2);
    run_counts("--filter '@(rows|stats)/*'", &a, &p);
    cr_expect(a == both && p == both, "announced %d, passed %d, expected %d: %s", a, p, both, out);
    run_counts("--filter=stats/mann_*", &a, &p);
    cr_expect(a == 1 && p == 1, "announced %d, passed %d: %s", a, p, out);
}
