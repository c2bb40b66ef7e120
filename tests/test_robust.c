/*
 * test_robust.c -- robustness of the gridbench binary ($GB_BIN).
 *
 *   alloc_*   allocation failure: each subcommand (compare included) runs with its n-th
 *             allocation failing (GRIDBENCH_FAIL_ALLOC=n, solvers/gb_alloc.h)
 *             for n = 1, 2, ... until the run completes.  Every failing run
 *             must exit 71 (EX_OSERR) with a message about memory, leave no
 *             output file and no temp file behind (and, in `make check`,
 *             leak nothing: LeakSanitizer's exit status is 23, not 71).  The
 *             run that completes must write exactly what an undisturbed run
 *             writes.
 *
 * Runs from the repository root (as `make test` does), on the bundled data.
 * No test sets .timeout (concurrent .timeout tests make Criterion 2.4 leak
 * in its runner, which fails `make check`): every loop and wait is bounded.
 */
#include "gb_test.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gb_map.h"
#include "gb_search.h"

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
    /* every allocation under GB_TEST_FULL (CI); every 4th in `make test`
     * and every 16th in `make check`, from 1, so the first ones (start-up)
     * and every stage still fail */
    const unsigned long stride = GB_TEST_PICK(1, 4, 16);
    unsigned long n;
    for (n = 1; n < 100000; n += stride) {
        rc = run_failing(n, errp, cmd);
        if (rc == 0) break;
        err = slurp(errp, NULL);
        cr_assert_eq(rc, 71, "%s: allocation %lu failed: expected exit 71, found %d: %s",
                     tag, n, rc, err);
        cr_assert(strstr(err, "memory") != NULL,
                  "%s: allocation %lu failed: expected a message about memory, found: %s",
                  tag, n, err);
        /* a run that completed queries keeps them in its journal (for
         * --resume); nothing else may be left */
        char left[4096], jour[700];
        snprintf(jour, sizeof jour, "%s/%s.partial", try, out);
        if (unlink(jour) == 0)
            cr_assert(strstr(err, "--resume") != NULL, "%s: allocation %lu failed and kept a "
                      "journal without saying so: %s", tag, n, err);
        list_dir(try, left, sizeof left);
        cr_assert_str_empty(left, "%s: allocation %lu failed and left files behind:\n%s",
                            tag, n, left);
        free(err);
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

#define MASK_TIMES GB_MASK_TIMES

GB_TEST(alloc, run_every_solver_and_queue)
{
    char fmt[1024];
    snprintf(fmt, sizeof fmt, "%s run --solver all --queue all --count 2 --quiet --out @DIR@/q.csv "
             MAZE ".scen", bin());
    unsigned long n = fail_each_allocation("run", fmt, "q.csv", MASK_TIMES);
    cr_assert_gt(n, 50, "only %lu allocations: is the injection armed?", n);
}

GB_TEST(alloc, summary)
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

GB_TEST(alloc, compare)
{
    char in[] = "/tmp/gbrobust-compare-in.XXXXXX", cmd[1024], fmt[1024];
    cr_assert_not_null(mkdtemp(in));
    snprintf(cmd, sizeof cmd, "%s run --solver dijkstra,jps --queue bheap,bucket --count 6 --quiet "
             "--out %s/a.csv " MAZE ".scen 2>/dev/null && %s run --solver dijkstra,jps --queue bheap,bucket "
             "--count 6 --quiet --out %s/b.csv " MAZE ".scen 2>/dev/null", bin(), in, bin(), in);
    cr_assert_eq(system(cmd), 0);
    snprintf(fmt, sizeof fmt, "%s compare --resamples 50 --out @DIR@/c.csv %s/a.csv %s/b.csv", bin(), in, in);
    cr_assert_gt(fail_each_allocation("compare", fmt, "c.csv", NULL), 30);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", in);
    cr_assert_eq(system(cmd), 0);
}

GB_TEST(alloc, heuristics)
{
    char fmt[1024];
    snprintf(fmt, sizeof fmt, "%s heuristics -g 2 -H all --out @DIR@/h.csv " MAZE, bin());
    unsigned long n = fail_each_allocation("heuristics", fmt, "h.csv", NULL);
    cr_assert_gt(n, 20);
}

GB_TEST(alloc, footprint_and_gen)
{
    char fmt[1024];
    snprintf(fmt, sizeof fmt, "%s footprint --scen " MAZE ".scen --longest "
             "--solver dijkstra,astar-octile,jps,bidijkstra,astar-diff:k=4 --out @DIR@/fp", bin());
    cr_assert_gt(fail_each_allocation("footprint", fmt, "fp.tsv", NULL), 20);
    snprintf(fmt, sizeof fmt, "%s gen -f rooms -s 48 -n 2 -o @DIR@", bin());
    cr_assert_gt(fail_each_allocation("gen", fmt, "room48-16-0.map.scen", NULL), 2);
}

/* ---- --resume ------------------------------------------------------------ */

#define RUN_ARGS "--solver all --queue all --count 16 --max-expanded 3000 datasets/default/maze128-2-1.map.scen " \
                 "datasets/default/random128-20-1.map.scen datasets/default/room128-16-1.map.scen"

/* Count the lines of path that start with "#=" (complete queries). */
static long journal_queries(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    long n = 0;
    int c, prev = '\n', prev2 = 0;
    while ((c = fgetc(f)) != EOF) {
        if (prev2 == '\n' && prev == '#' && c == '=') n++;
        prev2 = prev;
        prev = c;
    }
    fclose(f);
    return n;
}

/* The stderr of a run without the timing columns (median_us, its
 * interval, mean_us: the 8th field on), and without
 * the line that --resume adds. */
static char *totals(const char *errpath)
{
    char cmd[1024], p2[600];
    snprintf(p2, sizeof p2, "%s.totals", errpath);
    snprintf(cmd, sizeof cmd, "grep -v -e 'continuing after them' -e 'no complete query to keep' -e 'oracle cache' '%s' | "
             "awk '{ if (NF >= 8 && $1 != \"gridbench\") NF = 7; print }' >'%s'", errpath, p2);
    cr_assert_eq(system(cmd), 0);
    return slurp(p2, NULL);
}

/* Files equal after dropping the timing columns. */
static void assert_same_rows(const char *a, const char *b)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "cmp -s <(sed -e '" MASK_TIMES "' '%s') <(sed -e '" MASK_TIMES "' '%s')",
             a, b);
    char full[2300];
    snprintf(full, sizeof full, "bash -c \"%s\"", cmd);
    cr_assert_eq(system(full), 0, "%s and %s differ in more than the timing columns", a, b);
}

/* Start the run in the background, kill it with sig once the journal
 * holds `want` queries, and check it was really interrupted.  The run
 * stops itself there (the test hook GRIDBENCH_STOP_AFTER, gb_sink.h), so
 * the point of interruption does not depend on how fast the machine is:
 * sig is sent to the stopped process, then SIGCONT delivers it. */
static void run_and_kill(const char *dir, int sig, long want)
{
    char cmd[2048], out[600], jour[600];
    snprintf(out, sizeof out, "%s/q.csv", dir);
    snprintf(jour, sizeof jour, "%s/q.csv.partial", dir);
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        snprintf(cmd, sizeof cmd,
                 "GRIDBENCH_STOP_AFTER=%ld exec %s run --quiet " RUN_ARGS " --out '%s' 2>/dev/null",
                 want, bin(), out);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    int st;
    cr_assert_eq(waitpid(pid, &st, WUNTRACED), pid);
    cr_assert(WIFSTOPPED(st), "the run ended before it could be interrupted");
    const long n = journal_queries(jour);
    kill(pid, sig);
    kill(pid, SIGCONT);
    cr_assert_eq(waitpid(pid, &st, 0), pid);
    cr_assert(WIFSIGNALED(st) && WTERMSIG(st) == sig, "the run was not ended by signal %d", sig);
    cr_assert_eq(n, want, "the journal held %ld queries when the run stopped, expected %ld", n, want);
    cr_assert_neq(access(out, F_OK), 0, "an interrupted run left %s", out);
    cr_assert_eq(access(jour, F_OK), 0, "an interrupted run lost its journal %s", jour);
}

static void resume_case(int sig, int tear)
{
    char dir[256], cmd[2048], err[600], ref[600], refe[600];
    mkdtemp_or_fail(dir, sizeof dir, "resume");
    snprintf(ref, sizeof ref, "%s/ref.csv", dir);
    snprintf(refe, sizeof refe, "%s/ref.err", dir);
    snprintf(err, sizeof err, "%s/resume.err", dir);
    snprintf(cmd, sizeof cmd, "%s run --quiet " RUN_ARGS " --out '%s'", bin(), ref);
    cr_assert_eq(run_failing(0, refe, cmd), 0, "the reference run failed");

    run_and_kill(dir, sig, 20);
    if (tear == 2) {   /* as if killed during the first query: lines 1, 2 and a torn row */
        snprintf(cmd, sizeof cmd, "f='%s/q.csv.partial'; { head -n 2 \"$f\"; sed -n 3p \"$f\" | head -c 20; } "
                 ">\"$f.new\" && mv \"$f.new\" \"$f\"", dir);
        cr_assert_eq(system(cmd), 0);
    } else if (tear) {   /* cut the journal in the middle of its last line */
        snprintf(cmd, sizeof cmd, "f='%s/q.csv.partial'; truncate -s $(( $(stat -c %%s \"$f\") - 7 )) \"$f\"",
                 dir);
        cr_assert_eq(system(cmd), 0);
    }
    snprintf(cmd, sizeof cmd, "%s run --quiet " RUN_ARGS " --resume --out '%s/q.csv'", bin(), dir);
    cr_assert_eq(run_failing(0, err, cmd), 0, "the resumed run failed");
    char *e = slurp(err, NULL);
    if (tear == 2)
        cr_assert(strstr(e, "q.csv.partial: no complete query to keep, the run starts from the first") != NULL,
                  "%s", e);
    else
        cr_assert(strstr(e, "queries done before, continuing after them") != NULL, "nothing was resumed: %s", e);
    free(e);
    char q[600], j[600];
    snprintf(q, sizeof q, "%s/q.csv", dir);
    snprintf(j, sizeof j, "%s/q.csv.partial", dir);
    assert_same_rows(q, ref);
    cr_assert_neq(access(j, F_OK), 0, "the journal is left after the run completed");
    char *t1 = totals(refe), *t2 = totals(err);
    cr_assert_str_eq(t2, t1, "the resumed run's totals differ from the uninterrupted run's");
    free(t1);
    free(t2);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

GB_TEST(resume, after_sigkill_same_file_and_totals) { resume_case(SIGKILL, 0); }
GB_TEST(resume, after_sigterm) { resume_case(SIGTERM, 0); }
GB_TEST(resume, torn_journal_tail_is_rerun) { resume_case(SIGKILL, 1); }
/* killed before any query completed: the journal keeps its two header
 * lines (a first version cut it to nothing, and the CSV lost its header) */
GB_TEST(resume, killed_during_the_first_query) { resume_case(SIGKILL, 2); }

GB_TEST(resume, refuses_a_journal_of_other_options_and_needs_out)
{
    char dir[256], cmd[2048], err[600];
    mkdtemp_or_fail(dir, sizeof dir, "resume-other");
    snprintf(err, sizeof err, "%s/err", dir);
    run_and_kill(dir, SIGKILL, 5);
    /* another solver list: refused, the journal untouched */
    snprintf(cmd, sizeof cmd, "%s run --quiet --solver dijkstra --queue all --count 30 --max-expanded 3000 "
             "datasets/default/maze128-2-1.map.scen datasets/default/random128-20-1.map.scen "
             "datasets/default/room128-16-1.map.scen --resume --out '%s/q.csv'", bin(), dir);
    char j[600];
    snprintf(j, sizeof j, "%s/q.csv.partial", dir);
    long before = journal_queries(j);
    cr_assert_eq(run_failing(0, err, cmd), 65);
    char *e = slurp(err, NULL);
    cr_assert(strstr(e, "q.csv.partial:1: error: expected the journal of this run (") != NULL, "%s", e);
    cr_assert(strstr(e, "rerun without --resume to start over") != NULL, "%s", e);
    free(e);
    cr_assert_eq(journal_queries(j), before);
    /* --resume needs --out */
    snprintf(cmd, sizeof cmd, "%s run --resume datasets/default/maze128-2-1.map.scen", bin());
    cr_assert_eq(run_failing(0, err, cmd), 64);
    e = slurp(err, NULL);
    cr_assert(strstr(e, "--resume: expected --out FILE") != NULL, "%s", e);
    free(e);
    /* no journal: a new run, complete */
    snprintf(cmd, sizeof cmd, "%s run --quiet --count 2 --resume --out '%s/new.csv' "
             "datasets/default/maze128-2-1.map.scen", bin(), dir);
    cr_assert_eq(run_failing(0, err, cmd), 0);
    snprintf(j, sizeof j, "%s/new.csv", dir);
    cr_assert_eq(access(j, F_OK), 0);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

/* scripts/report.sh --resume: a report killed during `gridbench run`
 * keeps its .tmp folder; resuming finishes it with the files an
 * uninterrupted report writes, the queries identical but for timings.
 *
 * Design: the smallest report that still has a middle to be killed in --
 * one map, 24 queries of 3 solvers x 2 queues (a query journals all 6 of
 * its rows at once), stopped at 8 -- and no hyperfine, footprints or
 * browser (GB_CHROMIUM names none), steps that --resume redoes whole and
 * that this test does not look at: what it proves is the journal, kept
 * and continued, and a run folder equal to the uninterrupted one. */
#define RESUME_QUERIES 24
#define RESUME_STOP    8
GB_TEST(resume, report_script_killed_midway)
{
    GB_TEST_E2E();
    if (system("command -v gnuplot >/dev/null 2>&1") != 0) cr_skip_test("gnuplot not installed");
    char dir[256], cmd[4096], a[600], b[600];
    mkdtemp_or_fail(dir, sizeof dir, "report-resume");
    char opts[512];
    snprintf(opts, sizeof opts,
             "--scen " MAZE ".scen --solvers dijkstra,astar-octile,jps --queues bheap,bucket "
             "--count %d --reps 1 --no-hyperfine --no-footprints",
             RESUME_QUERIES);
    snprintf(cmd, sizeof cmd,
             "GB_CHROMIUM=/nonexistent GB_BIN='%s' scripts/report.sh %s --out-dir '%s' "
             "--run-id whole >'%s/whole.log' 2>&1",
             bin(), opts, dir, dir);
    cr_assert_eq(system(cmd), 0, "the uninterrupted report failed (%s/whole.log)", dir);

    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {   /* its own process group, so that the kill reaches gridbench too */
        setpgid(0, 0);
        /* gridbench run stops itself at RESUME_STOP queries
         * (GRIDBENCH_STOP_AFTER, gb_sink.h): the kill lands there
         * whatever the machine's load */
        snprintf(
            cmd, sizeof cmd,
            "GRIDBENCH_STOP_AFTER=%d GB_CHROMIUM=/nonexistent GB_BIN='%s' exec scripts/report.sh %s "
            "--out-dir '%s' --run-id cut >'%s/cut.log' 2>&1",
            RESUME_STOP, bin(), opts, dir, dir);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    setpgid(pid, pid);
    snprintf(a, sizeof a, "%s/cut.tmp/queries.csv.partial", dir);
    long n = 0;
    for (int i = 0; i < 12000 && (n = journal_queries(a)) < RESUME_STOP; i++) usleep(5000);
    kill(-pid, SIGTERM);
    kill(-pid, SIGCONT);
    int st;
    waitpid(pid, &st, 0);
    cr_assert_geq(n, RESUME_STOP, "the journal never reached %d queries", RESUME_STOP);
    snprintf(b, sizeof b, "%s/cut", dir);
    cr_assert_neq(access(b, F_OK), 0, "the interrupted report was published");
    cr_assert_eq(access(a, F_OK), 0, "the interrupted report lost its journal");
    long before = journal_queries(a);
    cr_assert_lt(before, RESUME_QUERIES, "the run had finished before the kill");

    snprintf(cmd, sizeof cmd,
             "GB_CHROMIUM=/nonexistent GB_BIN='%s' scripts/report.sh %s --out-dir '%s' --resume "
             ">'%s/resume.log' 2>&1",
             bin(), opts, dir, dir);
    cr_assert_eq(system(cmd), 0, "the resumed report failed (%s/resume.log)", dir);
    snprintf(a, sizeof a, "%s/cut.tmp", dir);
    cr_assert_neq(access(a, F_OK), 0, "the resumed report left its .tmp folder");
    /* the same files, and the same queries (timings aside) */
    snprintf(cmd, sizeof cmd, "cd '%s' && diff <(cd whole && find . -type f | sort) "
             "<(cd cut && find . -type f | sort) >/dev/null", dir);
    char full[4300];
    snprintf(full, sizeof full, "bash -c \"%s\"", cmd);
    cr_assert_eq(system(full), 0, "the resumed run folder holds other files");
    snprintf(a, sizeof a, "%s/whole/queries.csv", dir);
    snprintf(b, sizeof b, "%s/cut/queries.csv", dir);
    assert_same_rows(a, b);
    snprintf(cmd, sizeof cmd, "grep -q '\"resumed\": true' '%s/cut/env.json' && "
             "grep -q '\"resumed\": false' '%s/whole/env.json'", dir, dir);
    cr_assert_eq(system(cmd), 0, "env.json does not record the resume");
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

/* ---- limits -------------------------------------------------------------- */

/* Field k (0-based) of a CSV line without quoted fields, into out. */
static void csv_field(const char *line, int k, char *out, size_t n)
{
    const char *p = line;
    for (int i = 0; i < k && p; i++) {
        p = strchr(p, ',');
        if (p) p++;
    }
    size_t l = p ? strcspn(p, ",\n") : 0;
    if (l >= n) l = n - 1;
    memcpy(out, p ? p : "", l);
    out[l] = '\0';
}

/* --max-mem: exactly the pairs whose workspace needs more (gb_ws_bytes)
 * get `limit` rows, the others run; the run still exits 0. */
GB_TEST(limits, max_mem_limits_exactly_the_solvers_that_need_more)
{
    char dir[256], cmd[2048], errp[600], csv[600];
    mkdtemp_or_fail(dir, sizeof dir, "maxmem");
    snprintf(errp, sizeof errp, "%s/err", dir);
    snprintf(csv, sizeof csv, "%s/q.csv", dir);
    const uint64_t limit = 3u << 20;
    snprintf(cmd, sizeof cmd, "%s run --quiet --solver dijkstra,bidijkstra,jps,astar-diff:k=8,bfs "
             "--queue bheap,bucket,pairing --count 3 --max-mem 3M --out '%s' " MAZE ".scen", bin(), csv);
    cr_assert_eq(run_failing(0, errp, cmd), 0);

    gb_map mp;
    gb_diag d;
    cr_assert_eq(gb_map_load(MAZE, &mp, &d), 0, "%s", d.msg);
    FILE *f = fopen(csv, "r");
    cr_assert_not_null(f);
    char line[4096], solver[64], queue[32], status[32], err[128];
    int nlimit = 0, nok = 0;
    cr_assert_not_null(fgets(line, sizeof line, f));   /* header */
    while (fgets(line, sizeof line, f)) {
        csv_field(line, 9, solver, sizeof solver);
        csv_field(line, 10, queue, sizeof queue);
        csv_field(line, 13, status, sizeof status);
        gb_solver_spec sp;
        cr_assert_eq(gb_solver_parse(solver, &sp, err, sizeof err), 0, "%s", err);
        int q = gb_queue_from_name(queue);
        size_t need = gb_ws_bytes(mp.grid.width, mp.grid.height, &sp, q < 0 ? GB_Q_BHEAP : (gb_queue_kind)q);
        if (need > limit) {
            cr_expect_str_eq(status, "limit", "%s on %s needs %zu bytes > 3 MiB", solver, queue, need);
            nlimit++;
        } else {
            cr_expect_str_eq(status, "ok", "%s on %s needs %zu bytes <= 3 MiB", solver, queue, need);
            nok++;
        }
    }
    fclose(f);
    gb_map_free(&mp);
    cr_expect(nlimit > 0 && nok > 0, "the limit should split the pairs: %d limited, %d ran",
              nlimit, nok);
    /* bad sizes are usage errors */
    const char *bad[] = { "0", "12X", "-5", "3MB", "" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(cmd, sizeof cmd, "%s run --max-mem '%s' " MAZE ".scen", bin(), bad[i]);
        cr_expect_eq(run_failing(0, errp, cmd), 64, "--max-mem '%s'", bad[i]);
        char *e = slurp(errp, NULL);
        cr_expect(strstr(e, "--max-mem: expected a positive byte count with an optional K, M or G "
                         "suffix, found") != NULL, "%s", e);
        free(e);
    }
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

/* --max-mem on an external solver: its resident memory is watched while
 * it answers; a Python solver (several MiB resident) at 4 MiB is stopped
 * with `limit` rows, and runs without the limit (Dijkstra on the pairing
 * heap needs less than 4 MiB on this map and runs in both). */
GB_TEST(limits, max_mem_stops_an_external_solver)
{
    if (system("command -v python3 >/dev/null 2>&1") != 0) cr_skip_test("python3 not installed");
    char dir[256], cmd[2048], errp[600], csv[600], line[4096], solver[64], status[32];
    mkdtemp_or_fail(dir, sizeof dir, "maxmem-ext");
    snprintf(errp, sizeof errp, "%s/err", dir);
    snprintf(csv, sizeof csv, "%s/q.csv", dir);
    for (int limited = 0; limited < 2; limited++) {
        snprintf(cmd, sizeof cmd, "%s run --quiet --solver dijkstra --queue pairing --external "
                 "'exec python3 examples/solver.py' --external-name py --count 2 %s --out '%s' "
                 MAZE ".scen", bin(), limited ? "--max-mem 4M" : "", csv);
        cr_assert_eq(run_failing(0, errp, cmd), 0, "limited=%d", limited);
        FILE *f = fopen(csv, "r");
        cr_assert_not_null(f);
        int next = 0;
        cr_assert_not_null(fgets(line, sizeof line, f));
        while (fgets(line, sizeof line, f)) {
            csv_field(line, 9, solver, sizeof solver);
            csv_field(line, 13, status, sizeof status);
            if (strcmp(solver, "external:py") == 0) {
                next++;
                cr_expect_str_eq(status, limited ? "limit" : "ok", "external row: %s", line);
            } else {
                cr_expect_str_eq(status, "ok", "%s", line);
            }
        }
        fclose(f);
        cr_expect_eq(next, 2);
    }
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

/* A map whose header promises more cells than memory can hold is refused
 * from its header alone: nothing is read or allocated for it. */
GB_TEST(limits, a_map_larger_than_memory_is_refused_before_loading)
{
    char dir[256], cmd[2048], errp[600];
    mkdtemp_or_fail(dir, sizeof dir, "bigmap");
    snprintf(errp, sizeof errp, "%s/err", dir);
    snprintf(cmd, sizeof cmd, "cd '%s' && printf 'type octile\\nheight 45000\\nwidth 45000\\nmap\\n' "
             ">big.map && printf 'version 1\\n0\\tbig.map\\t45000\\t45000\\t1\\t1\\t2\\t2\\t1.41421356\\n' "
             ">big.map.scen", dir);
    cr_assert_eq(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s run --out '%s/q.csv' '%s/big.map.scen'", bin(), dir, dir);
    cr_assert_eq(run_failing(0, errp, cmd), 71);
    char *e = slurp(errp, NULL);
    cr_expect(strstr(e, "big.map:3: error: expected a map that fits in memory: 45000x45000 cells "
                     "need about ") != NULL, "%s", e);
    cr_expect(strstr(e, "(file, grid and search state), found ") != NULL, "%s", e);
    free(e);
    char left[4096], p[600];
    snprintf(p, sizeof p, "%s/q.csv", dir);
    cr_expect_neq(access(p, F_OK), 0, "a refused run wrote its output");
    list_dir(dir, left, sizeof left);
    cr_expect_str_eq(left, "big.map\nbig.map.scen\nerr\n");
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}
