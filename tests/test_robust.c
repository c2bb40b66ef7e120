/*
 * test_robust.c -- robustness of the gridbench binary ($GB_BIN).
 *
 *   alloc_*   allocation failure: each subcommand runs with its n-th
 *             allocation failing (GRIDBENCH_FAIL_ALLOC=n, solvers/gb_alloc.h)
 *             for n = 1, 2, ... until the run completes.  Every failing run
 *             must exit 71 (EX_OSERR) with a message about memory, leave no
 *             output file and no temp file behind (and, in `make check`,
 *             leak nothing: LeakSanitizer's exit status is 23, not 71).  The
 *             run that completes must write exactly what an undisturbed run
 *             writes.
 *
 * Runs from the repository root (as `make test` does), on the bundled data.
 */
#include "gb_test.h"

#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAZE "datasets/default/maze128-2-1.map"

static const char *bin(void)
{
    const char *b = getenv("GB_BIN");
    if (!b || !*b) cr_skip_test("GB_BIN not set (run through make test)");
    return b;
}

static void mkdtemp_or_fail(char *d, size_t n, const char *tag)
{
    snprintf(d, n, "/tmp/gbrobust-%s.XXXXXX", tag);
    cr_assert_not_null(mkdtemp(d), "mkdtemp %s", d);
}

/* Run `sh -c cmd` with stdout to /dev/null and stderr to errpath, the
 * environment variable GRIDBENCH_FAIL_ALLOC set to n (unset when n = 0);
 * return the exit status (128 + signal when killed). */
static int run_failing(unsigned long n, const char *errpath, const char *cmd)
{
    char full[8192];
    if (n) snprintf(full, sizeof full, "GRIDBENCH_FAIL_ALLOC=%lu %s >/dev/null 2>'%s'", n, cmd, errpath);
    else snprintf(full, sizeof full, "%s >/dev/null 2>'%s'", cmd, errpath);
    int st = system(full);
    if (WIFEXITED(st)) return WEXITSTATUS(st);
    return 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, n = 0;
    char *b = malloc(cap + 1);
    cr_assert_not_null(b);
    size_t k;
    while ((k = fread(b + n, 1, cap - n, f)) > 0) {
        n += k;
        if (n == cap) {
            cap *= 2;
            b = realloc(b, cap + 1);
            cr_assert_not_null(b);
        }
    }
    fclose(f);
    b[n] = '\0';
    if (len) *len = n;
    return b;
}

/* Names in dir (sorted, one per line) into out. */
static void list_dir(const char *dir, char *out, size_t n)
{
    struct dirent **e;
    int k = scandir(dir, &e, NULL, alphasort);
    cr_assert_geq(k, 0, "scandir %s", dir);
    out[0] = '\0';
    for (int i = 0; i < k; i++) {
        if (strcmp(e[i]->d_name, ".") && strcmp(e[i]->d_name, ".."))
            snprintf(out + strlen(out), n - strlen(out), "%s\n", e[i]->d_name);
        free(e[i]);
    }
    free(e);
}

/* cmd = tmpl with every "@DIR@" replaced by dir. */
static void subst_dir(char *cmd, size_t n, const char *tmpl, const char *dir)
{
    size_t k = 0;
    for (const char *p = tmpl; *p && k + 1 < n;) {
        if (strncmp(p, "@DIR@", 5) == 0) {
            k += (size_t)snprintf(cmd + k, n - k, "%s", dir);
            p += 5;
        } else {
            cmd[k++] = *p++;
        }
    }
    cr_assert_lt(k + 1, n, "command too long");
    cmd[k] = '\0';
}

/* The allocation-failure loop.  cmd (with @DIR@ for the work dir)
 * writes the file named `out` into that dir.  A reference run
 * without injection writes ref/out; then n = 1, 2, ... run in dir/try:
 * each failure must be exit 71 + a memory message + no out + an empty
 * dir; the first success must match the reference (after `mask`, a sed
 * program applied to both, or NULL).  Returns the number of failing n. */
static unsigned long fail_each_allocation(const char *tag, const char *cmdfmt, const char *out,
                                          const char *mask)
{
    char dir[256], ref[300], try[300], errp[300], cmd[4096], path[600];
    mkdtemp_or_fail(dir, sizeof dir, tag);
    snprintf(ref, sizeof ref, "%s/ref", dir);
    snprintf(try, sizeof try, "%s/try", dir);
    snprintf(errp, sizeof errp, "%s/stderr", dir);
    cr_assert_eq(mkdir(ref, 0755), 0);
    cr_assert_eq(mkdir(try, 0755), 0);

    subst_dir(cmd, sizeof cmd, cmdfmt, ref);
    int rc = run_failing(0, errp, cmd);
    char *err = slurp(errp, NULL);
    cr_assert_eq(rc, 0, "%s: the undisturbed run failed (%d): %s", tag, rc, err);
    free(err);

    subst_dir(cmd, sizeof cmd, cmdfmt, try);
    unsigned long n;
    for (n = 1; n < 100000; n++) {
        rc = run_failing(n, errp, cmd);
        if (rc == 0) break;
        err = slurp(errp, NULL);
        cr_assert_eq(rc, 71, "%s: allocation %lu failed: expected exit 71, found %d: %s",
                     tag, n, rc, err);
        cr_assert(strstr(err, "memory") != NULL,
                  "%s: allocation %lu failed: expected a message about memory, found: %s",
                  tag, n, err);
        free(err);
        char left[4096];
        list_dir(try, left, sizeof left);
        cr_assert_str_empty(left, "%s: allocation %lu failed and left files behind:\n%s",
                            tag, n, left);
    }
    cr_assert_lt(n, 100000);
    /* the first complete run writes what the undisturbed one wrote */
    char a[700], b[700];
    snprintf(a, sizeof a, "%s/%s", ref, out);
    snprintf(b, sizeof b, "%s/%s", try, out);
    if (mask) {
        snprintf(path, sizeof path, "%s/a.masked", dir);
        snprintf(cmd, sizeof cmd, "sed -e '%s' '%s' >'%s'", mask, a, path);
        cr_assert_eq(system(cmd), 0);
        snprintf(a, sizeof a, "%s", path);
        snprintf(path, sizeof path, "%s/b.masked", dir);
        snprintf(cmd, sizeof cmd, "sed -e '%s' '%s' >'%s'", mask, b, path);
        cr_assert_eq(system(cmd), 0);
        snprintf(b, sizeof b, "%s", path);
    }
    size_t la, lb;
    char *xa = slurp(a, &la), *xb = slurp(b, &lb);
    cr_assert_not_null(xa, "%s: no reference output %s", tag, a);
    cr_assert_not_null(xb, "%s: the completed run wrote no %s", tag, b);
    cr_assert(la == lb && memcmp(xa, xb, la) == 0,
              "%s: the run that completed after %lu failures wrote other bytes than the "
              "undisturbed run", tag, n - 1);
    free(xa);
    free(xb);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
    return n - 1;
}

/* Drop the last three CSV columns (time_ns, time_cold_ns, reps): timings. */
#define MASK_TIMES "s/,[^,]*,[^,]*,[^,]*$//"

GB_TEST(alloc, run_every_solver_and_queue, .timeout = 600)
{
    char fmt[1024];
    snprintf(fmt, sizeof fmt, "%s run --solver all --queue all --count 2 --quiet --out @DIR@/q.csv "
             MAZE ".scen", bin());
    unsigned long n = fail_each_allocation("run", fmt, "q.csv", MASK_TIMES);
    cr_assert_gt(n, 50, "only %lu allocations: is the injection armed?", n);
}

GB_TEST(alloc, summary, .timeout = 600)
{
    char in[] = "/tmp/gbrobust-summary-in.XXXXXX", cmd[1024], fmt[1024];
    cr_assert_not_null(mkdtemp(in));
    snprintf(cmd, sizeof cmd, "%s run --solver dijkstra,astar-octile,jps --queue bheap,bucket "
             "--count 4 --quiet --out %s/q.csv " MAZE ".scen 2>/dev/null", bin(), in);
    cr_assert_eq(system(cmd), 0);
    snprintf(fmt, sizeof fmt, "%s summary %s/q.csv --out @DIR@/s.csv --plot-data @DIR@/data",
             bin(), in);
    cr_assert_gt(fail_each_allocation("summary", fmt, "s.csv", NULL), 50);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", in);
    cr_assert_eq(system(cmd), 0);
}

GB_TEST(alloc, heuristics, .timeout = 600)
{
    char fmt[1024];
    snprintf(fmt, sizeof fmt, "%s heuristics -g 2 -H all --out @DIR@/h.csv " MAZE, bin());
    unsigned long n = fail_each_allocation("heuristics", fmt, "h.csv", NULL);
    cr_assert_gt(n, 20);
}

GB_TEST(alloc, footprint_and_gen, .timeout = 600)
{
    char fmt[1024];
    snprintf(fmt, sizeof fmt, "%s footprint --scen " MAZE ".scen --longest "
             "--solver dijkstra,astar-octile,jps,bidijkstra,astar-diff:k=4 --out @DIR@/fp", bin());
    cr_assert_gt(fail_each_allocation("footprint", fmt, "fp.tsv", NULL), 20);
    snprintf(fmt, sizeof fmt, "%s gen -f rooms -s 48 -n 2 -o @DIR@", bin());
    cr_assert_gt(fail_each_allocation("gen", fmt, "room48-16-0.map.scen", NULL), 2);
}
