/*
 * test_compare.c -- Criterion tests for the statistics (harness/core/gb_stats)
 * and for `gridbench compare` (harness/report/gb_compare, gb_cmd_compare).
 *
 *   stats     splitmix64 is deterministic and in range; Mann-Whitney U
 *             p-values against values counted by hand / by enumeration
 *             (exact) and the tie-corrected normal formula; bootstrap
 *             intervals equal a naive resample-and-sort bootstrap drawn
 *             from the same stream; paired ratios of exact multiples
 *             have a zero-width interval
 *   compare   hand-made run CSVs whose answer is known: identical runs
 *             are all ties (exit 0); a 2x slowdown is found (and fails
 *             --fail-on-regression 50, not 150); a wide query mix with a
 *             small shift is a tie; a correctness regression exits 1 and
 *             is listed before fixes; runs on different data (checksums
 *             in env.json, scenario names, starts) are refused unless
 *             --allow-different-data; environment differences are named;
 *             the --out and --changes CSVs; usage errors
 *
 * CLI tests take the binary from $GB_BIN (set by `make test`) and are
 * skipped without it.
 */
#include "gb_test.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gb_compare.h"
#include "gb_csv.h"
#include "gb_stats.h"

/* ---- helpers ---------------------------------------------------------- */

static void make_tmpdir(char *buf, size_t n)
{
    snprintf(buf, n, "/tmp/gb-test-compare-XXXXXX");
    cr_assert(mkdtemp(buf) != NULL, "mkdtemp: %s", strerror(errno));
}

static void rm_rf(const char *dir)
{
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
}

static char *slurp(const char *path)
{
    char *buf;
    size_t l;
    gb_diag d;
    cr_assert_eq(gb_read_file(path, &buf, &l, &d), 0, "cannot read %s: %s", path, d.msg);
    return buf;
}

static int sh(const char *log, const char *fmt, ...) GB_PRINTF_LIKE(2, 3);
static int sh(const char *log, const char *fmt, ...)
{
    char cmd[8192], full[8400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    snprintf(full, sizeof full, "( %s ) >'%s' 2>&1", cmd, log);
    int st = system(full);
    return st == -1 ? -1 : WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static const char *gb_bin(void)
{
    const char *bin = getenv("GB_BIN");
    if (!bin || !bin[0]) cr_skip_test("GB_BIN is not set (make test sets it)");
    return bin;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

#define EXPECT_NEAR(a, b, tol) \
    cr_expect(fabs((double)(a) - (double)(b)) <= (tol), "%s = %.12g, expected %.12g", #a, (double)(a), (double)(b))

/* ---- stats ------------------------------------------------------------ */

GB_TEST(stats, rng_is_deterministic_and_in_range)
{
    uint64_t a = 42, b = 42, c = 43;
    uint64_t x = gb_rng_next(&a);
    cr_expect_eq(x, gb_rng_next(&b));
    cr_expect_neq(x, gb_rng_next(&c));
    /* splitmix64's first output for seed 0 (published reference value) */
    uint64_t z = 0;
    cr_expect_eq(gb_rng_next(&z), 0xe220a8397b1dcdafull);
    size_t hist[7] = { 0 };
    for (int i = 0; i < 70000; i++) {
        uint64_t v = gb_rng_below(&a, 7);
        cr_assert_lt(v, 7);
        hist[v]++;
    }
    for (int k = 0; k < 7; k++) cr_expect(hist[k] > 9500 && hist[k] < 10500, "bin %d: %zu", k, hist[k]);
    cr_expect_eq(gb_rng_below(&a, 1), 0);
}

GB_TEST(stats, mann_whitney_exact_and_normal)
{
    double p, u;
    /* exact (no ties, small): counted by enumerating the C(n, k) orders */
    const double x1[] = { 1, 2, 3 }, y1[] = { 4, 5, 6 };
    cr_assert_eq(gb_mwu(x1, 3, y1, 3, &u, &p), 0);
    EXPECT_NEAR(u, 0, 0);
    EXPECT_NEAR(p, 0.1, 1e-12);            /* 2 x 1/20 */
    cr_assert_eq(gb_mwu(y1, 3, x1, 3, &u, &p), 0);
    EXPECT_NEAR(u, 9, 0);
    EXPECT_NEAR(p, 0.1, 1e-12);
    const double x2[] = { 1, 3, 5, 7, 9 }, y2[] = { 2, 4, 6, 8, 10 };
    cr_assert_eq(gb_mwu(x2, 5, y2, 5, &u, &p), 0);
    EXPECT_NEAR(u, 10, 0);
    EXPECT_NEAR(p, 0.6904761904761905, 1e-12);   /* 2 x 87/252 */
    const double x3[] = { 1.5, 2.5, 10, 11, 12, 13 }, y3[] = { 3, 4, 5, 6 };
    cr_assert_eq(gb_mwu(x3, 6, y3, 4, &u, &p), 0);
    EXPECT_NEAR(u, 16, 0);
    EXPECT_NEAR(p, 0.47619047619047616, 1e-12);
    /* normal approximation: 25 vs 25 (above the exact limit) */
    double a[25], b[25];
    for (int i = 0; i < 25; i++) a[i] = i + 1, b[i] = i + 26;
    cr_assert_eq(gb_mwu(a, 25, b, 25, &u, &p), 0);
    EXPECT_NEAR(u, 0, 0);
    EXPECT_NEAR(p, 1.4156562248495634e-09, 1e-18);   /* z = 312 / sqrt(2656.25) */
    /* ties: the tie-corrected variance, 9/12 (7 - 18/30) = 4.8 */
    const double x4[] = { 1, 1, 2 }, y4[] = { 2, 3, 3 };
    cr_assert_eq(gb_mwu(x4, 3, y4, 3, &u, &p), 0);
    EXPECT_NEAR(u, 0.5, 1e-12);
    EXPECT_NEAR(p, 0.11014892418594703, 1e-12);
    /* all equal, or an empty sample: nothing to reject */
    const double e[] = { 5, 5, 5 };
    cr_assert_eq(gb_mwu(e, 3, e, 3, &u, &p), 0);
    cr_expect_eq(p, 1.0);
    cr_assert_eq(gb_mwu(e, 0, e, 3, &u, &p), 0);
    cr_expect_eq(p, 1.0);
}

/* The bootstrap written naively (resample, sort, take the median), on
 * the stream gb_boot_ratio uses: the intervals must be identical. */
static void naive_ratio(const double *num, const double *den, size_t n, gb_stat stat, const gb_boot *b,
                        double *lo, double *hi)
{
    uint64_t st = b->seed;
    double *rn = malloc(n * sizeof *rn), *rd = malloc(n * sizeof *rd), *v = malloc((size_t)b->resamples * sizeof *v);
    cr_assert(rn && rd && v);
    size_t m = 0;
    for (int k = 0; k < b->resamples; k++) {
        double sn = 0, sd = 0;
        for (size_t i = 0; i < n; i++) {
            size_t j = (size_t)gb_rng_below(&st, n);
            rn[i] = num[j];
            rd[i] = den[j];
            sn += num[j];
            sd += den[j];
        }
        if (stat == GB_STAT_MEDIAN) {
            qsort(rn, n, sizeof *rn, cmp_d);
            qsort(rd, n, sizeof *rd, cmp_d);
            sn = gb_quantile(rn, n, 0.5);
            sd = gb_quantile(rd, n, 0.5);
        }
        v[m++] = sn / sd;
    }
    qsort(v, m, sizeof *v, cmp_d);
    *lo = gb_quantile(v, m, (1 - b->level) / 2);
    *hi = gb_quantile(v, m, (1 + b->level) / 2);
    free(rn);
    free(rd);
    free(v);
}

GB_TEST(stats, bootstrap_matches_naive_resampling)
{
    double num[37], den[37];
    uint64_t s = 7;
    for (int i = 0; i < 37; i++) {
        den[i] = 100 + (double)gb_rng_below(&s, 900);
        num[i] = den[i] * (1.0 + (double)gb_rng_below(&s, 100) / 100.0);
    }
    den[5] = den[6];   /* ties */
    gb_boot b;
    gb_boot_default(&b);
    b.resamples = 300;
    for (int even = 0; even < 2; even++) {
        size_t n = even ? 36 : 37;
        for (int stat = GB_STAT_MEDIAN; stat <= GB_STAT_MEAN; stat++) {
            gb_ci ci;
            double lo, hi;
            cr_assert_eq(gb_boot_ratio(num, den, n, (gb_stat)stat, &b, &ci), 0);
            naive_ratio(num, den, n, (gb_stat)stat, &b, &lo, &hi);
            EXPECT_NEAR(ci.lo, lo, 1e-12);
            EXPECT_NEAR(ci.hi, hi, 1e-12);
            cr_expect(ci.lo <= ci.est && ci.est <= ci.hi, "estimate %g outside [%g, %g]", ci.est, ci.lo, ci.hi);
            cr_expect(ci.est > 1.2 && ci.est < 1.8, "estimate %g", ci.est);
        }
    }
    /* the same seed gives the same interval; another seed another one
     * (the mean: medians of resamples take few distinct values) */
    gb_ci c1, c2, c3;
    cr_assert_eq(gb_boot_ratio(num, den, 37, GB_STAT_MEAN, &b, &c1), 0);
    cr_assert_eq(gb_boot_ratio(num, den, 37, GB_STAT_MEAN, &b, &c2), 0);
    b.seed = 99;
    cr_assert_eq(gb_boot_ratio(num, den, 37, GB_STAT_MEAN, &b, &c3), 0);
    cr_expect(c1.lo == c2.lo && c1.hi == c2.hi);
    cr_expect(c1.lo != c3.lo || c1.hi != c3.hi);
}

/* The stratified ratio written naively from its contract in gb_stats.h:
 * stratum j resampled from its own stream seed + j + 1, medians by
 * sorting, the geometric mean of the strata with pairs. */
static void naive_strat(const double *num, const double *den, const size_t *off, size_t m,
                        const gb_boot *b, gb_ci *out)
{
    double *v = calloc((size_t)b->resamples, sizeof *v), lsum = 0;
    double *rn = malloc(off[m] * sizeof *rn + 1), *rd = malloc(off[m] * sizeof *rd + 1);
    cr_assert(v && rn && rd);
    size_t used = 0;
    for (size_t j = 0; j < m; j++) {
        size_t n = off[j + 1] - off[j];
        if (!n) continue;
        used++;
        memcpy(rn, num + off[j], n * sizeof *rn);
        memcpy(rd, den + off[j], n * sizeof *rd);
        qsort(rn, n, sizeof *rn, cmp_d);
        qsort(rd, n, sizeof *rd, cmp_d);
        lsum += log(((rn[(n - 1) / 2] + rn[n / 2]) / 2) / ((rd[(n - 1) / 2] + rd[n / 2]) / 2));
        uint64_t st = b->seed + j + 1;
        for (int k = 0; k < b->resamples; k++) {
            for (size_t i = 0; i < n; i++) {
                size_t u = off[j] + (size_t)gb_rng_below(&st, n);
                rn[i] = num[u];
                rd[i] = den[u];
            }
            qsort(rn, n, sizeof *rn, cmp_d);
            qsort(rd, n, sizeof *rd, cmp_d);
            v[k] += log(((rn[(n - 1) / 2] + rn[n / 2]) / 2) / ((rd[(n - 1) / 2] + rd[n / 2]) / 2));
        }
    }
    for (int k = 0; k < b->resamples; k++) v[k] = exp(v[k] / (double)used);
    qsort(v, (size_t)b->resamples, sizeof *v, cmp_d);
    out->est = exp(lsum / (double)used);
    out->lo = gb_quantile(v, (size_t)b->resamples, (1 - b->level) / 2);
    out->hi = gb_quantile(v, (size_t)b->resamples, (1 + b->level) / 2);
    free(v);
    free(rn);
    free(rd);
}

/* gb_boot_strat_ratio (the across-map table and the first screen's class
 * ratios): equal to the naive version, an empty stratum left out but in
 * its place, constant ratios exact, a zero median undefined. */
GB_TEST(stats, stratified_ratio_matches_naive_resampling)
{
    double num[60], den[60];
    uint64_t s = 11;
    for (int i = 0; i < 60; i++) {
        den[i] = 50 + (double)gb_rng_below(&s, 500);
        num[i] = den[i] * (1.5 + (double)gb_rng_below(&s, 200) / 100.0);
    }
    const size_t off[5] = { 0, 17, 17, 40, 60 }; /* stratum 1 is empty */
    gb_boot b;
    gb_boot_default(&b);
    b.resamples = 200;
    gb_ci ci, nv;
    double ratio[4];
    size_t used = 9;
    cr_assert_eq(gb_boot_strat_ratio(num, den, off, 4, &b, &ci, ratio, &used), 0);
    naive_strat(num, den, off, 4, &b, &nv);
    cr_expect_eq(used, 3);
    cr_expect(isnan(ratio[1]) && ratio[0] > 1.5 && ratio[2] > 1.5 && ratio[3] > 1.5, "%g %g %g %g",
              ratio[0], ratio[1], ratio[2], ratio[3]);
    EXPECT_NEAR(ci.est, nv.est, 1e-12);
    EXPECT_NEAR(ci.lo, nv.lo, 1e-12);
    EXPECT_NEAR(ci.hi, nv.hi, 1e-12);
    EXPECT_NEAR(ci.est, exp((log(ratio[0]) + log(ratio[2]) + log(ratio[3])) / 3), 1e-12);
    cr_expect(ci.lo < ci.est && ci.est < ci.hi, "%g outside [%g, %g]", ci.est, ci.lo, ci.hi);
    /* the same data gives the same figures */
    gb_ci again;
    cr_assert_eq(gb_boot_strat_ratio(num, den, off, 4, &b, &again, NULL, NULL), 0);
    cr_expect(again.est == ci.est && again.lo == ci.lo && again.hi == ci.hi);
    /* constant ratios per stratum (2 and 8): every resample is the same */
    double x[6] = { 1, 2, 3, 10, 20, 30 }, y[6] = { 2, 4, 6, 80, 160, 240 };
    const size_t o2[3] = { 0, 3, 6 };
    cr_assert_eq(gb_boot_strat_ratio(y, x, o2, 2, &b, &ci, NULL, NULL), 0);
    EXPECT_NEAR(ci.est, 4.0, 1e-12);
    EXPECT_NEAR(ci.lo, 4.0, 1e-12);
    EXPECT_NEAR(ci.hi, 4.0, 1e-12);
    /* a zero median makes the estimate undefined; no pair at all too */
    double z[6] = { 0, 0, 0, 10, 20, 30 };
    cr_assert_eq(gb_boot_strat_ratio(y, z, o2, 2, &b, &ci, ratio, &used), 0);
    cr_expect(isnan(ci.est) && isnan(ci.lo) && isnan(ci.hi) && used == 2 && isnan(ratio[0]));
    const size_t o0[3] = { 0, 0, 0 };
    cr_assert_eq(gb_boot_strat_ratio(y, x, o0, 2, &b, &ci, NULL, &used), 0);
    cr_expect(isnan(ci.est) && used == 0);
}

GB_TEST(stats, bootstrap_exact_multiples_and_single_samples)
{
    double x[20], y[20];
    for (int i = 0; i < 20; i++) x[i] = 10 + i * i, y[i] = 2 * x[i];
    gb_boot b;
    gb_boot_default(&b);
    gb_ci ci;
    /* paired: every resample keeps each query's pair, so the ratio is 2 */
    cr_assert_eq(gb_boot_ratio(y, x, 20, GB_STAT_MEDIAN, &b, &ci), 0);
    cr_expect(ci.est == 2 && ci.lo == 2 && ci.hi == 2, "[%g, %g, %g]", ci.est, ci.lo, ci.hi);
    cr_assert_eq(gb_boot_ratio(x, x, 20, GB_STAT_MEAN, &b, &ci), 0);
    cr_expect(ci.est == 1 && ci.lo == 1 && ci.hi == 1);
    cr_expect(gb_ci_contains(&ci, 1.0));
    /* the median's own interval lies within the data and holds the median */
    cr_assert_eq(gb_boot_stat(x, 20, GB_STAT_MEDIAN, &b, &ci), 0);
    EXPECT_NEAR(ci.est, (10 + 81 + 10 + 100) / 2.0, 1e-12);
    cr_expect(ci.lo >= 10 && ci.hi <= 10 + 361 && ci.lo < ci.est && ci.est < ci.hi);
    /* empty: undefined; zero denominator: undefined */
    cr_assert_eq(gb_boot_stat(x, 0, GB_STAT_MEDIAN, &b, &ci), 0);
    cr_expect(isnan(ci.est) && isnan(ci.lo) && isnan(ci.hi));
    double z[3] = { 0, 0, 0 };
    cr_assert_eq(gb_boot_ratio(x, z, 3, GB_STAT_MEDIAN, &b, &ci), 0);
    cr_expect(isnan(ci.est) && isnan(ci.lo));
    /* overlap is symmetric and treats NaN as a tie */
    gb_ci a = { 1, 0.9, 1.1 }, c = { 1.2, 1.1, 1.3 }, d = { 1.3, 1.15, 1.4 }, e = { NAN, NAN, NAN };
    cr_expect(gb_ci_overlap(&a, &c) && gb_ci_overlap(&c, &a));
    cr_expect(!gb_ci_overlap(&a, &d) && !gb_ci_overlap(&d, &a));
    cr_expect(gb_ci_overlap(&a, &e));
}

/* ---- hand-made runs ----------------------------------------------------- */

/* A run: map m1, scenario DIR/m1.map.scen, nq queries (lines 2..nq+1),
 * solvers astar-octile (group 0) and jps (group 1) on bheap.  Query i's
 * time is base + step * i nanoseconds, times factor[group]; expansions
 * 100 + i.  Up to three status overrides; shift_line moves that line's
 * start one cell (other data). */
typedef struct spec {
    const char *scen;       /* scen column (NULL: "data/m1.map.scen") */
    int nq;
    double base, step;
    double factor[2];
    struct { int line, group; const char *status; } st[3];
    int shift_line;
    int extra_exp;          /* added to every expansion count of jps */
} spec;

static void spec_init(spec *s)
{
    memset(s, 0, sizeof *s);
    s->nq = 40;
    s->base = 10000;
    s->step = 10;
    s->factor[0] = s->factor[1] = 1;
}

static void write_run(const char *path, const spec *s)
{
    FILE *f = fopen(path, "w");
    cr_assert(f != NULL, "%s: %s", path, strerror(errno));
    fputs("map,scen,line,bucket,start_x,start_y,goal_x,goal_y,model,solver,queue,status,expanded,time_ns\n", f);
    static const char *const solver[2] = { "astar-octile", "jps" };
    for (int i = 0; i < s->nq; i++) {
        int line = i + 2;
        for (int g = 0; g < 2; g++) {
            const char *st = "ok";
            for (int k = 0; k < 3; k++)
                if (s->st[k].line == line && s->st[k].group == g) st = s->st[k].status;
            fprintf(f, "m1,%s,%d,%d,%d,%d,%d,%d,8-nocut,%s,bheap,%s,%d,%.0f\n", s->scen ? s->scen : "data/m1.map.scen",
                    line, i / 10, i + (line == s->shift_line), 3, i + 5, 7, solver[g], st,
                    100 + i + (g ? s->extra_exp : 0), (s->base + s->step * i) * s->factor[g]);
        }
    }
    cr_assert_eq(fclose(f), 0);
}

/* A run folder dir with queries.csv and an env.json naming commit and
 * the scenario's SHA-256. */
static void write_folder(const char *dir, const spec *s, const char *commit, const char *sha)
{
    char p[512];
    cr_assert_eq(mkdir(dir, 0777), 0);
    snprintf(p, sizeof p, "%s/queries.csv", dir);
    write_run(p, s);
    snprintf(p, sizeof p, "%s/env.json", dir);
    FILE *f = fopen(p, "w");
    cr_assert(f != NULL);
    fprintf(f, "{\n  \"cpu\": \"Test CPU\", \"cores\": 2, \"compiler\": \"gcc 12\", \"cflags\": \"-O2\",\n"
               "  \"commit\": \"%s\", \"kernel\": \"Linux\", \"host\": \"h\",\n"
               "  \"files\": [{\"path\": \"gridbench\", \"sha256\": \"%s\", \"bytes\": 1}],\n"
               "  \"calibration\": null,\n"
               "  \"run\": {\"run_id\": \"x\", \"jobs\": 1,\n"
               "    \"scenarios\": [{\"path\": \"datasets/m1.map.scen\", \"sha256\": \"%s\", \"bytes\": 10}],\n"
               "    \"maps\": [{\"path\": \"datasets/m1.map\", \"sha256\": \"%064d\", \"bytes\": 10}]}\n}\n",
            commit, commit, sha, 7);
    cr_assert_eq(fclose(f), 0);
}

static gb_cmp *load_pair(const char *a, const char *b)
{
    gb_cmp *c;
    gb_diag d;
    cr_assert_eq(gb_cmp_load(a, b, &c, &d), 0, "%s:%ld: %s", d.path, d.line, d.msg);
    gb_boot bt;
    gb_boot_default(&bt);
    cr_assert_eq(gb_cmp_compute(c, &bt), 0);
    return c;
}

GB_TEST(compare, identical_runs_are_all_ties)
{
    const char *bin = gb_bin();
    char dir[64], a[128], b[128], log[128], out[128];
    make_tmpdir(dir, sizeof dir);
    snprintf(a, sizeof a, "%s/a.csv", dir);
    snprintf(b, sizeof b, "%s/b.csv", dir);
    snprintf(log, sizeof log, "%s/log", dir);
    snprintf(out, sizeof out, "%s/cmp.csv", dir);
    spec s;
    spec_init(&s);
    write_run(a, &s);
    s.scen = "/elsewhere/m1.map.scen";   /* another folder: still the same file name */
    write_run(b, &s);
    gb_cmp *c = load_pair(a, b);
    cr_expect_eq(gb_cmp_pairs(c), 80);
    cr_assert_eq(gb_cmp_ngroups(c), 2);
    for (size_t i = 0; i < 2; i++) {
        const gb_cmp_group *g = gb_cmp_group_at(c, i);
        cr_expect_eq(g->n, 40);
        cr_expect(g->time.est == 1 && g->time.lo == 1 && g->time.hi == 1);
        cr_expect_eq(g->time_verdict, GB_CMP_SAME);
        cr_expect_eq(g->exp_verdict, GB_CMP_SAME);
        cr_expect_eq(g->time_p, 1.0);
    }
    cr_expect_eq(gb_cmp_nchanges(c), 0);
    gb_cmp_free(c);

    int rc = sh(log, "'%s' compare --fail-on-regression 0 --out '%s' '%s' '%s'", bin, out, a, b);
    char *l = slurp(log);
    cr_expect_eq(rc, 0, "%s", l);
    cr_expect(strstr(l, "result: 0 correctness regressions; time: 0 slower, 0 faster, 2 no change") != NULL, "%s", l);
    cr_expect(strstr(l, "PASS: 0 correctness regressions, 0 significant slowdowns above 0 %") != NULL, "%s", l);
    cr_expect(strstr(l, "Correctness: 0 regressions, 0 fixes, 0 other status changes") != NULL, "%s", l);
    free(l);
    char *csv = slurp(out);
    cr_expect(strstr(csv, "\nm1,astar-octile,bheap,40,0,0,10195,10195,1,1,1,1,no_change,119.5,119.5,1,1,1,1,"
                          "no_change,0,0,0\n") != NULL, "%s", csv);
    free(csv);
    rm_rf(dir);
}

GB_TEST(compare, a_2x_slowdown_is_found)
{
    const char *bin = gb_bin();
    char dir[64], a[128], b[128], log[128];
    make_tmpdir(dir, sizeof dir);
    snprintf(a, sizeof a, "%s/a.csv", dir);
    snprintf(b, sizeof b, "%s/b.csv", dir);
    snprintf(log, sizeof log, "%s/log", dir);
    spec s;
    spec_init(&s);
    write_run(a, &s);
    s.factor[1] = 2;      /* jps twice as slow */
    s.extra_exp = 50;     /* and expanding more */
    write_run(b, &s);
    gb_cmp *c = load_pair(a, b);
    const gb_cmp_group *g0 = gb_cmp_group_at(c, 0), *g1 = gb_cmp_group_at(c, 1);
    cr_expect_str_eq(g1->solver, "jps");
    cr_expect(g1->time.est == 2 && g1->time.lo == 2 && g1->time.hi == 2, "[%g %g %g]", g1->time.est,
              g1->time.lo, g1->time.hi);
    cr_expect_lt(g1->time_p, 0.001);
    cr_expect_eq(g1->time_verdict, GB_CMP_SLOWER);
    cr_expect_eq(g1->exp_verdict, GB_CMP_SLOWER);
    EXPECT_NEAR(g1->exp.est, 169.5 / 119.5, 1e-12);
    cr_expect_eq(g0->time_verdict, GB_CMP_SAME);
    gb_cmp_free(c);

    /* without the flag a slowdown alone exits 0; above PCT it fails */
    cr_expect_eq(sh(log, "'%s' compare '%s' '%s'", bin, a, b), 0);
    char *l = slurp(log);
    cr_expect(strstr(l, "time: 1 slower, 0 faster, 1 no change (largest slowdown: jps/bheap on m1, +100.0 %)")
              != NULL, "%s", l);
    cr_expect(strstr(l, "2.000  [2.000, 2.000]    <0.001  slower") != NULL, "%s", l);
    free(l);
    cr_expect_eq(sh(log, "'%s' compare --fail-on-regression 50 '%s' '%s'", bin, a, b), 1);
    l = slurp(log);
    cr_expect(strstr(l, "FAIL: 0 correctness regressions, 1 significant slowdown above 50 %") != NULL, "%s", l);
    free(l);
    cr_expect_eq(sh(log, "'%s' compare --fail-on-regression 150 '%s' '%s'", bin, a, b), 0);
    /* reversed: NEW is faster, never a failure */
    cr_expect_eq(sh(log, "'%s' compare --fail-on-regression 0 '%s' '%s'", bin, b, a), 0);
    l = slurp(log);
    cr_expect(strstr(l, "time: 0 slower, 1 faster, 1 no change") != NULL, "%s", l);
    free(l);
    rm_rf(dir);
}

/* Queries of very different sizes and a 3 % shift: the interval may
 * exclude 1, but the test cannot tell the runs apart -- a tie. */
GB_TEST(compare, small_shift_in_a_wide_mix_is_a_tie)
{
    char dir[64], a[128], b[128];
    make_tmpdir(dir, sizeof dir);
    snprintf(a, sizeof a, "%s/a.csv", dir);
    snprintf(b, sizeof b, "%s/b.csv", dir);
    spec s;
    spec_init(&s);
    s.base = 1000;
    s.step = 5000;      /* 1 us .. 196 us */
    write_run(a, &s);
    s.factor[1] = 1.03;
    write_run(b, &s);
    gb_cmp *c = load_pair(a, b);
    const gb_cmp_group *g1 = gb_cmp_group_at(c, 1);
    cr_expect_gt(g1->time_p, 0.5);
    cr_expect_eq(g1->time_verdict, GB_CMP_SAME, "p %g, [%g, %g]", g1->time_p, g1->time.lo, g1->time.hi);
    cr_expect_str_eq(gb_cmp_verdict_name(g1->time_verdict, 0, 0), "no change");
    gb_cmp_free(c);
    rm_rf(dir);
}

GB_TEST(compare, correctness_regression_exits_1_and_comes_first)
{
    const char *bin = gb_bin();
    char dir[64], a[128], b[128], log[128], ch[128];
    make_tmpdir(dir, sizeof dir);
    snprintf(a, sizeof a, "%s/a.csv", dir);
    snprintf(b, sizeof b, "%s/b.csv", dir);
    snprintf(log, sizeof log, "%s/log", dir);
    snprintf(ch, sizeof ch, "%s/changes.csv", dir);
    spec s;
    spec_init(&s);
    s.st[0].line = 3, s.st[0].group = 0, s.st[0].status = "invalid_path";   /* fixed in NEW */
    s.st[1].line = 4, s.st[1].group = 1, s.st[1].status = "ok";
    write_run(a, &s);
    spec_init(&s);
    s.st[0].line = 9, s.st[0].group = 1, s.st[0].status = "suboptimal";     /* the regression */
    s.st[1].line = 5, s.st[1].group = 0, s.st[1].status = "limit";          /* another change */
    write_run(b, &s);
    int rc = sh(log, "'%s' compare --changes '%s' '%s' '%s'", bin, ch, a, b);
    char *l = slurp(log);
    cr_expect_eq(rc, 1, "%s", l);
    cr_expect(strstr(l, "Correctness: 1 regression, 1 fix, 1 other status change") != NULL, "%s", l);
    const char *reg = strstr(l, "REGRESSION  m1  m1.map.scen:9  jps/bheap  ok -> suboptimal");
    const char *fix = strstr(l, "fixed       m1  m1.map.scen:3  astar-octile/bheap  invalid_path -> ok");
    const char *oth = strstr(l, "changed     m1  m1.map.scen:5  astar-octile/bheap  ok -> limit");
    const char *tab = strstr(l, "Speed:");
    cr_expect(reg && fix && oth && tab && reg < fix && fix < oth && oth < tab, "%s", l);
    cr_expect(strstr(l, "result: 1 correctness regression;") != NULL, "%s", l);
    free(l);
    char *c = slurp(ch);
    cr_expect_str_eq(c, "kind,map,scen,line,solver,queue,old_status,new_status\n"
                        "regression,m1,m1.map.scen,9,jps,bheap,ok,suboptimal\n"
                        "fix,m1,m1.map.scen,3,astar-octile,bheap,invalid_path,ok\n"
                        "other,m1,m1.map.scen,5,astar-octile,bheap,ok,limit\n");
    free(c);
    /* the fix alone is no failure */
    cr_expect_eq(sh(log, "'%s' compare '%s' '%s'", bin, a, a), 0);
    rm_rf(dir);
}

GB_TEST(compare, different_data_is_refused)
{
    const char *bin = gb_bin();
    char dir[64], a[128], b[128], c2[128], log[128];
    make_tmpdir(dir, sizeof dir);
    snprintf(log, sizeof log, "%s/log", dir);
    char sha1[65], sha2[65];
    memset(sha1, 'a', 64), sha1[64] = '\0';
    memset(sha2, 'b', 64), sha2[64] = '\0';
    spec s;
    spec_init(&s);
    snprintf(a, sizeof a, "%s/old", dir);
    snprintf(b, sizeof b, "%s/new", dir);
    snprintf(c2, sizeof c2, "%s/same", dir);
    write_folder(a, &s, "c0ffee1", sha1);
    write_folder(b, &s, "c0ffee2", sha2);
    write_folder(c2, &s, "c0ffee2", sha1);
    /* checksums differ: refused, and the message says how to override */
    int rc = sh(log, "'%s' compare '%s' '%s'", bin, a, b);
    char *l = slurp(log);
    cr_expect_eq(rc, 65, "%s", l);
    cr_expect(strstr(l, "gridbench compare: expected two runs on the same data, found different data: "
                        "m1.map.scen: SHA-256 aaaaaaaaaaaa... in OLD, bbbbbbbbbbbb... in NEW (pass "
                        "--allow-different-data to compare the common queries anyway)") != NULL, "%s", l);
    cr_expect(strstr(l, "Speed:") == NULL, "%s", l);
    free(l);
    rc = sh(log, "'%s' compare --allow-different-data '%s' '%s'", bin, a, b);
    l = slurp(log);
    cr_expect_eq(rc, 0, "%s", l);
    cr_expect(strstr(l, "data         DIFFERENT: m1.map.scen: SHA-256") != NULL, "%s", l);
    free(l);
    /* same checksums: compared; the environments' difference is named
     * (the binary's checksum in "files" is no data file) */
    rc = sh(log, "'%s' compare '%s' '%s'", bin, a, c2);
    l = slurp(log);
    cr_expect_eq(rc, 0, "%s", l);
    cr_expect(strstr(l, "data         same: 2 scenario and map files with equal SHA-256 in both env.json") != NULL,
              "%s", l);
    cr_expect(strstr(l, "environment  DIFFERS: commit 'c0ffee1' -> 'c0ffee2'\n") != NULL, "%s", l);
    cr_expect(strstr(l, "same: CPU, cores, compiler, build flags, kernel, host, worker processes") != NULL, "%s", l);
    free(l);

    /* CSVs only: another scenario name, or another start, is other data */
    char x[128], y[128];
    snprintf(x, sizeof x, "%s/x.csv", dir);
    snprintf(y, sizeof y, "%s/y.csv", dir);
    spec_init(&s);
    write_run(x, &s);
    s.scen = "data/m2.map.scen";
    write_run(y, &s);
    rc = sh(log, "'%s' compare '%s' '%s'", bin, x, y);
    l = slurp(log);
    cr_expect_eq(rc, 65, "%s", l);
    cr_expect(strstr(l, "found different data: scenario m1.map.scen (map m1) only in OLD") != NULL, "%s", l);
    free(l);
    spec_init(&s);
    s.shift_line = 7;
    write_run(y, &s);
    rc = sh(log, "'%s' compare '%s' '%s'", bin, x, y);
    l = slurp(log);
    cr_expect_eq(rc, 65, "%s", l);
    cr_expect(strstr(l, "found different data: line 7 of m1.map.scen: start (5, 3) goal (10, 7) in OLD, "
                        "start (6, 3) goal (10, 7) in NEW") != NULL, "%s", l);
    free(l);
    rm_rf(dir);
}

GB_TEST(compare, unpaired_rows_and_usage)
{
    const char *bin = gb_bin();
    char dir[64], a[128], b[128], log[128];
    make_tmpdir(dir, sizeof dir);
    snprintf(a, sizeof a, "%s/a.csv", dir);
    snprintf(b, sizeof b, "%s/b.csv", dir);
    snprintf(log, sizeof log, "%s/log", dir);
    spec s;
    spec_init(&s);
    write_run(a, &s);
    s.nq = 30;   /* NEW ran fewer queries (--count): the rest is not compared */
    write_run(b, &s);
    gb_cmp *c = load_pair(a, b);
    cr_expect_eq(gb_cmp_pairs(c), 60);
    cr_expect_eq(gb_cmp_group_at(c, 0)->old_only, 10);
    cr_expect_eq(gb_cmp_group_at(c, 0)->new_only, 0);
    gb_cmp_free(c);
    int rc = sh(log, "'%s' compare '%s' '%s'", bin, a, b);
    char *l = slurp(log);
    cr_expect_eq(rc, 0, "%s", l);
    cr_expect(strstr(l, "pairs        60 rows in both runs; 20 only in OLD, 0 only in NEW (not compared)") != NULL,
              "%s", l);
    free(l);

    cr_expect_eq(sh(log, "'%s' compare '%s'", bin, a), 64);
    l = slurp(log);
    cr_expect(strstr(l, "gridbench compare: expected two runs (OLD NEW), found 1 arguments") != NULL, "%s", l);
    free(l);
    cr_expect_eq(sh(log, "'%s' compare --fail-on-regression -3 '%s' '%s'", bin, a, b), 64);
    l = slurp(log);
    cr_expect(strstr(l, "--fail-on-regression: expected a percentage >= 0, found '-3'") != NULL, "%s", l);
    free(l);
    cr_expect_eq(sh(log, "'%s' compare '%s' '%s/none'", bin, a, dir), 66);
    cr_expect_eq(sh(log, "'%s' compare '%s' '%s'", bin, a, dir), 66);   /* a folder without queries.csv */
    l = slurp(log);
    cr_expect(strstr(l, "expected a run folder with queries.csv, found no queries.csv") != NULL, "%s", l);
    free(l);
    cr_expect_eq(sh(log, "'%s' compare --out '%s' '%s' '%s'", bin, a, a, b), 73);   /* --out is an input */
    /* a bad status names the file and line */
    FILE *f = fopen(b, "a");
    cr_assert(f != NULL);
    fputs("m1,x.scen,99,0,1,1,2,2,8-nocut,jps,bheap,fine,1,1\n", f);
    fclose(f);
    cr_expect_eq(sh(log, "'%s' compare '%s' '%s'", bin, a, b), 65);
    l = slurp(log);
    cr_expect(strstr(l, "b.csv:62: error: column status: expected ok, unreachable,") != NULL, "%s", l);
    free(l);
    cr_expect_eq(sh(log, "'%s' compare --help", bin), 0);
    rm_rf(dir);
}

/* --plot FILE: gnuplot draws plots/compare.gp into FILE (PNG or SVG, with
 * a point per group); without gnuplot, or without the script, a note and
 * no file -- and the exit status stays the comparison's. */
GB_TEST(compare, plot_is_drawn_or_skipped_with_a_note)
{
    const char *bin = gb_bin();
    char dir[64], a[128], b[128], log[128], png[128], svg[128];
    make_tmpdir(dir, sizeof dir);
    snprintf(a, sizeof a, "%s/a.csv", dir);
    snprintf(b, sizeof b, "%s/b.csv", dir);
    snprintf(log, sizeof log, "%s/log", dir);
    snprintf(png, sizeof png, "%s/cmp.png", dir);
    snprintf(svg, sizeof svg, "%s/cmp.svg", dir);
    spec s;
    spec_init(&s);
    write_run(a, &s);
    s.factor[1] = 2;
    write_run(b, &s);
    if (system("command -v gnuplot >/dev/null 2>&1") == 0 && access("plots/compare.gp", R_OK) == 0) {
        /* exit 1: the slowdown is above 50 %, with or without the plot */
        cr_expect_eq(sh(log, "GB_PLOTDIR=plots '%s' compare --fail-on-regression 50 --plot '%s' '%s' '%s'", bin,
                        png, a, b), 1);
        char *l = slurp(log);
        cr_expect(strstr(l, "gridbench compare: plot written to ") != NULL, "%s", l);
        free(l);
        FILE *f = fopen(png, "rb");
        unsigned char sig[8] = { 0 };
        cr_assert(f != NULL, "no %s", png);
        cr_expect_eq(fread(sig, 1, 8, f), 8);
        fclose(f);
        cr_expect(memcmp(sig, "\x89PNG\r\n\x1a\n", 8) == 0, "not a PNG");
        cr_expect_eq(sh(log, "GB_PLOTDIR=plots '%s' compare --plot '%s' '%s' '%s'", bin, svg, a, b), 0);
        char *v = slurp(svg);
        /* both groups drawn, the slower one under its legend entry */
        cr_expect(strstr(v, "m1  jps / bheap") != NULL && strstr(v, "m1  astar-octile / bheap") != NULL, "%.300s", v);
        cr_expect(strstr(v, ">slower<") != NULL && strstr(v, "</svg>") != NULL);
        free(v);
    }
    /* no script where GB_PLOTDIR points: a note, no file, status unchanged */
    remove(png);
    cr_expect_eq(sh(log, "GB_PLOTDIR='%s' '%s' compare --plot '%s' '%s' '%s'", dir, bin, png, a, b), 0);
    char *l = slurp(log);
    cr_expect(strstr(l, "gridbench compare: note: no plot: plots/compare.gp not found") != NULL, "%s", l);
    free(l);
    cr_expect(access(png, F_OK) != 0);
    /* no gnuplot on PATH */
    cr_expect_eq(sh(log, "PATH='%s' GB_PLOTDIR=plots '%s' compare --plot '%s' '%s' '%s'", dir, bin, png, a, b), 0);
    l = slurp(log);
    cr_expect(strstr(l, "gridbench compare: note: no plot: gnuplot not found") != NULL, "%s", l);
    free(l);
    cr_expect(access(png, F_OK) != 0);
    /* the plot may not overwrite an input */
    cr_expect_eq(sh(log, "'%s' compare --plot '%s' '%s' '%s'", bin, a, a, b), 73);
    l = slurp(log);
    cr_expect(strstr(l, "expected an output that is none of the inputs") != NULL, "%s", l);
    free(l);
    rm_rf(dir);
}

/* Runs timed differently (another --reps or --regime) are refused: a
 * cold run against a warm one would call the warm one faster. */
GB_TEST(compare, runs_timed_differently_are_refused_unless_allowed)
{
    char d[64];
    make_tmpdir(d, sizeof d);
    char log[128];
    snprintf(log, sizeof log, "%s/log", d);
    const char *scen = "datasets/default/maze128-2-1.map.scen";
    cr_assert_eq(sh(log, "%s run -s jps --count 10 --quiet --no-oracle-cache -o %s/a.csv %s && "
                    "%s run -s jps --count 10 --quiet --no-oracle-cache --reps 3 -o %s/b.csv %s && "
                    "%s run -s jps --count 10 --quiet --no-oracle-cache --regime gppc -o %s/c.csv %s",
                    gb_bin(), d, scen, gb_bin(), d, scen, gb_bin(), d, scen), 0);
    cr_assert_eq(sh(log, "%s compare %s/a.csv %s/b.csv", gb_bin(), d, d), EX_DATAERR);
    char *t = slurp(log);
    cr_assert(strstr(t, "expected two runs timed alike, found jps/bheap line 2 of "
                        "maze128-2-1.map.scen: regime interleaved, reps 1 in OLD, regime "
                        "interleaved, reps 3 in NEW") != NULL, "%s", t);
    free(t);
    cr_assert_eq(sh(log, "%s compare %s/a.csv %s/c.csv", gb_bin(), d, d), EX_DATAERR);
    t = slurp(log);
    cr_assert(strstr(t, "regime interleaved, reps 1 in OLD, regime gppc, reps 1 in NEW") != NULL, "%s", t);
    free(t);
    cr_assert_eq(sh(log, "%s compare --allow-different-timing %s/a.csv %s/c.csv", gb_bin(), d, d), 0);
    t = slurp(log);
    cr_assert(strstr(t, "timing       DIFFERENT: ") != NULL, "%s", t);
    free(t);
    cr_assert_eq(sh(log, "%s compare %s/a.csv %s/a.csv", gb_bin(), d, d), 0);
    rm_rf(d);
}
