/*
 * gb_cmd_compare.c -- `gridbench compare OLD NEW`: two runs of the same
 * data, row by row (the benchstat of this suite).  The pairing and the
 * statistics are gb_compare.h's; this file resolves the inputs, checks
 * that the runs are on the same data (SHA-256 of the scenario and map
 * files in env.json, else the CSVs' own columns), says where the
 * environments differ, prints the verdicts and chooses the exit status.
 *
 * Output order (stdout): inputs, data, environment, pairs; correctness
 * changes (regressions first); the speed table; the result line.
 * Nothing is printed before everything is computed, so a failure (out
 * of memory, bad input) prints only its message on stderr.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gb_alloc.h"
#include "gb_cmd.h"
#include "gb_compare.h"
#include "gb_csv.h"
#include "gb_jvalue.h"

#define CMD "gridbench compare"
#define SHOW_CHANGES 20   /* status changes listed per kind on stdout */

enum { OPT_FAIL = 256, OPT_ALLOW, OPT_RESAMPLES, OPT_SEED, OPT_CHANGES, OPT_PLOT, OPT_ALLOW_TIMING };

static const gb_opt compare_opts[] = {
    { 'o', 'o', "out", "FILE", "the per-group table as CSV (temporary file, then renamed)" },
    { OPT_PLOT, 0, "plot", "FILE", "also draw the time ratios with their intervals (FILE.png or "
      "FILE.svg) with gnuplot and plots/compare.gp; without gnuplot, or without the script, a note "
      "on stderr and no plot (the exit status does not change)" },
    { OPT_CHANGES, 0, "changes", "FILE", "every status change as CSV (stdout lists "
      GB_STR(SHOW_CHANGES) " per kind)" },
    { OPT_FAIL, 0, "fail-on-regression", "PCT", "exit 1 also when a group is significantly slower "
      "and its time ratio exceeds 1 + PCT/100" },
    { OPT_ALLOW_TIMING, 0, "allow-different-timing", NULL, "compare runs timed differently (another "
      "--regime or --reps: refused by default, since their time ratios measure the timing too)" },
    { OPT_ALLOW, 0, "allow-different-data", NULL, "compare the common queries of runs on different "
      "data (refused by default)" },
    { OPT_RESAMPLES, 0, "resamples", "N", "bootstrap resamples, 1 to 1000000 (default "
      GB_STR(GB_BOOT_RESAMPLES) ")" },
    { OPT_SEED, 0, "seed", "N", "bootstrap seed (default " GB_STR(GB_BOOT_SEED) ")" },
    { 'h', 'h', "help", NULL, "this text" },
    { 0, 0, NULL, NULL, NULL }
};

const gb_cmd_doc gb_doc_compare = {
    "compare", "[OPTIONS] OLD NEW",
    "compare two runs: status changes first, then NEW/OLD time ratios with intervals and tests",
    "Compare two runs: OLD and NEW are run folders (their queries.csv, and env.json when present) "
    "or per-query CSVs of `gridbench run`.  Rows are paired by (map, scenario file name, line, "
    "solver, queue); only rows in both runs are compared.\n"
    "\n"
    "First the correctness changes: rows whose status went from no failure to a failure "
    "(regressions, listed first) or back (fixes).  Then, per map x solver x queue, the NEW/OLD "
    "ratio of the median time per query and of the mean expansions, each with a 95 % confidence "
    "interval (paired bootstrap over the queries, percentile method, " GB_STR(GB_BOOT_RESAMPLES)
    " resamples, seed " GB_STR(GB_BOOT_SEED) ") and the p-value of a two-sided Mann-Whitney U "
    "test.  A ratio is called slower / faster (more / fewer expansions) only when its interval "
    "excludes 1 and p < 0.05; otherwise it is \"no change\": a tie, never a win or a loss.\n"
    "\n"
    "The runs must be on the same data: the SHA-256 of the scenario and map files listed in both "
    "env.json files must agree (without env.json: the same (map, scenario) names in both CSVs), "
    "and paired rows must have the same movement model, start and goal.  Differences of "
    "environment (CPU, cores, compiler, flags, commit, kernel, host, calibration) are printed.",
    compare_opts, NULL,
    "gridbench compare results/before results/after\n"
    "gridbench compare --fail-on-regression 5 --out cmp.csv old.csv new.csv\n"
    "gridbench compare --plot cmp.png results/before results/after",
    "0 no correctness regression (and, with --fail-on-regression, no slowdown above PCT %); 1 a "
    "correctness regression, or a slowdown above PCT %; 64 bad usage; 65 bad input, or runs on "
    "different data; 66 missing input; 71 out of memory; 73/74 cannot write."
};

static int report_err(const gb_diag *d)
{
    fprintf(stderr, CMD ": ");
    gb_diag_print(d, stderr);
    return d->code;
}

/* ---- inputs -------------------------------------------------------------- */

typedef struct input {
    const char *arg;      /* as given */
    char csv[4200];       /* the per-query CSV */
    char envp[4200];      /* env.json, "" when none */
    gb_jv *env;           /* parsed env.json or NULL */
} input;

/* Resolve a folder or a CSV; load env.json when there is one.  0 or a
 * sysexits code with *d filled. */
static int resolve(input *in, const char *arg, gb_diag *d)
{
    struct stat st;
    in->arg = arg;
    in->env = NULL;
    in->envp[0] = '\0';
    if (stat(arg, &st) != 0)
        return gb_diag_set(d, EX_NOINPUT, arg, 0, 0, "expected a run folder or a CSV file, found %s",
                           strerror(errno));
    if (S_ISDIR(st.st_mode)) {
        snprintf(in->csv, sizeof in->csv, "%s/queries.csv", arg);
        if (stat(in->csv, &st) != 0)
            return gb_diag_set(d, EX_NOINPUT, arg, 0, 0, "expected a run folder with queries.csv, found "
                               "no queries.csv");
        snprintf(in->envp, sizeof in->envp, "%s/env.json", arg);
        if (stat(in->envp, &st) != 0) in->envp[0] = '\0';
    } else {
        snprintf(in->csv, sizeof in->csv, "%s", arg);
    }
    if (in->envp[0]) {
        int rc = gb_jv_load(in->envp, &in->env, d);
        if (rc) return rc;
        if (!in->env || in->env->type != GB_JV_OBJ) {
            gb_jv_free(in->env);
            in->env = NULL;
            return gb_diag_set(d, EX_DATAERR, in->envp, 0, 0, "expected a JSON object, found another value");
        }
    }
    return 0;
}

/* ---- data: checksums ----------------------------------------------------- */

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

static int ends_with(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && strcmp(s + a - b, suf) == 0;
}

/* The data files an env.json lists, as (name, sha256) in out[0..*n):
 * run.scenarios and run.maps, else the files ending in .scen or .map.
 * At most cap entries. */
typedef struct dfile {
    const char *name, *sha;
} dfile;

static size_t data_files(const gb_jv *env, dfile *out, size_t cap)
{
    size_t n = 0;
    static const char *const lists[] = { "run/scenarios", "run/maps" };
    for (int k = 0; k < 2; k++) {
        const gb_jv *a = gb_jv_path(env, lists[k]);
        if (!a || a->type != GB_JV_ARR) continue;
        for (size_t i = 0; i < a->n && n < cap; i++) {
            const char *p = gb_jv_str(gb_jv_get(&a->items[i], "path"), NULL);
            const char *h = gb_jv_str(gb_jv_get(&a->items[i], "sha256"), NULL);
            if (p && h) out[n].name = base_name(p), out[n].sha = h, n++;
        }
    }
    if (n) return n;
    const gb_jv *a = gb_jv_get(env, "files");
    if (!a || a->type != GB_JV_ARR) return 0;
    for (size_t i = 0; i < a->n && n < cap; i++) {
        const char *p = gb_jv_str(gb_jv_get(&a->items[i], "path"), NULL);
        const char *h = gb_jv_str(gb_jv_get(&a->items[i], "sha256"), NULL);
        if (p && h && (ends_with(p, ".scen") || ends_with(p, ".map")))
            out[n].name = base_name(p), out[n].sha = h, n++;
    }
    return n;
}

static const dfile *find_dfile(const dfile *f, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(f[i].name, name) == 0) return &f[i];
    return NULL;
}

/* Compare the checksums; 1 with the reason in buf when they differ. */
static int sums_differ(const dfile *a, size_t na, const dfile *b, size_t nb, char *buf, size_t n)
{
    for (size_t i = 0; i < na; i++) {
        const dfile *o = find_dfile(b, nb, a[i].name);
        if (!o) {
            snprintf(buf, n, "%s only in OLD's env.json", a[i].name);
            return 1;
        }
        if (strcmp(o->sha, a[i].sha) != 0) {
            snprintf(buf, n, "%s: SHA-256 %.12s... in OLD, %.12s... in NEW", a[i].name, a[i].sha, o->sha);
            return 1;
        }
    }
    for (size_t i = 0; i < nb; i++)
        if (!find_dfile(a, na, b[i].name)) {
            snprintf(buf, n, "%s only in NEW's env.json", b[i].name);
            return 1;
        }
    return 0;
}

/* ---- environment ----------------------------------------------------------- */

/* Append "what 'a' -> 'b'" to out when the two env.json strings differ;
 * "same" names otherwise go to same. */
static void env_field(const gb_jv *eo, const gb_jv *en, const char *key, const char *label, char *diff,
                      size_t dn, char *same, size_t sn)
{
    const gb_jv *a = gb_jv_get(eo, key), *b = gb_jv_get(en, key);
    char va[300], vb[300];
    if (a && a->type == GB_JV_NUM) snprintf(va, sizeof va, "%g", a->num);
    else snprintf(va, sizeof va, "%s", gb_jv_str(a, "unknown"));
    if (b && b->type == GB_JV_NUM) snprintf(vb, sizeof vb, "%g", b->num);
    else snprintf(vb, sizeof vb, "%s", gb_jv_str(b, "unknown"));
    size_t k;
    if (strcmp(va, vb) != 0) {
        k = strlen(diff);
        snprintf(diff + k, dn - k, "%s%s '%s' -> '%s'", k ? "; " : "", label, va, vb);
    } else {
        k = strlen(same);
        snprintf(same + k, sn - k, "%s%s", k ? ", " : "", label);
    }
}

static void print_env(const input *o, const input *n)
{
    if (!o->env || !n->env) {
        printf("environment  unknown for %s%s%s (no env.json): CPU, flags and commit not compared\n",
               !o->env ? "OLD" : "", !o->env && !n->env ? " and " : "", !n->env ? "NEW" : "");
        return;
    }
    char diff[2048] = "", same[512] = "";
    env_field(o->env, n->env, "cpu", "CPU", diff, sizeof diff, same, sizeof same);
    env_field(o->env, n->env, "cores", "cores", diff, sizeof diff, same, sizeof same);
    env_field(o->env, n->env, "compiler", "compiler", diff, sizeof diff, same, sizeof same);
    env_field(o->env, n->env, "cflags", "build flags", diff, sizeof diff, same, sizeof same);
    env_field(o->env, n->env, "commit", "commit", diff, sizeof diff, same, sizeof same);
    env_field(o->env, n->env, "kernel", "kernel", diff, sizeof diff, same, sizeof same);
    env_field(o->env, n->env, "host", "host", diff, sizeof diff, same, sizeof same);
    const gb_jv *jo = gb_jv_path(o->env, "run/jobs"), *jn = gb_jv_path(n->env, "run/jobs");
    if (jo && jn) env_field(gb_jv_get(o->env, "run"), gb_jv_get(n->env, "run"), "jobs", "worker processes",
                            diff, sizeof diff, same, sizeof same);
    if (diff[0]) {
        printf("environment  DIFFERS: %s\n             same: %s\n", diff, same[0] ? same : "-");
        fprintf(stderr, CMD ": warning: the two runs were not measured alike (%s): every "
                "faster/slower verdict below compares that difference too\n", diff);
    }
    else printf("environment  same %s\n", same);
    double co = gb_jv_num(gb_jv_path(o->env, "calibration/cells_per_s"), NAN);
    double cn = gb_jv_num(gb_jv_path(n->env, "calibration/cells_per_s"), NAN);
    if (!isnan(co) && !isnan(cn) && co > 0) {
        double r = cn / co;
        printf("calibration  %.2f -> %.2f M cells/s (NEW/OLD %.2f)%s\n", co / 1e6, cn / 1e6, r,
               r < 0.9 || r > 1.1 ? ": the machines (or their load) differ by more than 10 %, "
                                    "which alone moves every time" : "");
    }
}

/* ---- output --------------------------------------------------------------- */

static const char *fmt_p(char *b, size_t n, double p)
{
    if (isnan(p)) snprintf(b, n, "-");
    else if (p < 0.001) snprintf(b, n, "<0.001");
    else snprintf(b, n, "%.3f", p);
    return b;
}

static const char *fmt_ratio(char *b, size_t n, double r)
{
    if (isnan(r)) snprintf(b, n, "-");
    else snprintf(b, n, "%.3f", r);
    return b;
}

static const char *fmt_ci(char *b, size_t n, const gb_ci *c)
{
    if (isnan(c->lo)) snprintf(b, n, "-");
    else snprintf(b, n, "[%.3f, %.3f]", c->lo, c->hi);
    return b;
}

static const char *fmt_us(char *b, size_t n, double ns)
{
    if (isnan(ns)) snprintf(b, n, "-");
    else snprintf(b, n, "%.*f", ns >= 1e5 ? 0 : ns >= 1e4 ? 1 : 2, ns / 1e3);
    return b;
}

static size_t maxlen(const gb_cmp *c, int field, const char *title)
{
    size_t w = strlen(title);
    for (size_t i = 0; i < gb_cmp_ngroups(c); i++) {
        const gb_cmp_group *g = gb_cmp_group_at(c, i);
        const char *s = field == 0 ? g->map : field == 1 ? g->solver : g->queue;
        if (strlen(s) > w) w = strlen(s);
    }
    return w > 40 ? 40 : w;
}

static void print_changes(const gb_cmp *c)
{
    size_t nk[3] = { 0, 0, 0 };
    for (size_t i = 0; i < gb_cmp_nchanges(c); i++) nk[gb_cmp_change_at(c, i)->kind]++;
    printf("\nCorrectness: %zu regression%s, %zu fix%s, %zu other status change%s (rows in both runs)\n",
           nk[0], nk[0] == 1 ? "" : "s", nk[1], nk[1] == 1 ? "" : "es", nk[2], nk[2] == 1 ? "" : "s");
    static const char *const label[] = { "REGRESSION", "fixed", "changed" };
    for (int kind = 0; kind < 3; kind++) {
        size_t shown = 0;
        for (size_t i = 0; i < gb_cmp_nchanges(c); i++) {
            const gb_cmp_change *ch = gb_cmp_change_at(c, i);
            if ((int)ch->kind != kind) continue;
            if (++shown > SHOW_CHANGES) continue;
            const gb_cmp_group *g = gb_cmp_group_at(c, ch->group);
            printf("  %-10s  %s  %s:%ld  %s/%s  %s -> %s\n", label[kind], g->map, ch->scen, ch->line,
                   g->solver, g->queue, gb_row_status_name(ch->old_st), gb_row_status_name(ch->new_st));
        }
        if (shown > SHOW_CHANGES)
            printf("  ... and %zu more %s rows (--changes FILE lists every one)\n", shown - SHOW_CHANGES,
                   label[kind]);
    }
}

static void print_table(const gb_cmp *c, const gb_boot *b)
{
    printf("\nSpeed: NEW/OLD ratio of the median time per query and of the mean expansions, over the rows\n"
           "in both runs; [%.0f%% CI]: paired bootstrap over queries (percentile, %d resamples, seed %llu);\n"
           "p: two-sided Mann-Whitney U.  A change needs the CI to exclude 1 and p < %.2f, else \"no change\".\n\n",
           b->level * 100, b->resamples, (unsigned long long)b->seed, GB_STATS_ALPHA);
    int wm = (int)maxlen(c, 0, "map"), ws = (int)maxlen(c, 1, "solver"), wq = (int)maxlen(c, 2, "queue");
    printf("%-*s  %-*s  %-*s  %6s  %9s  %9s  %8s  %-16s  %6s  %-9s  %8s  %-16s  %6s  %s\n", wm, "map", ws, "solver",
           wq, "queue", "n", "old us", "new us", "time n/o", "95% CI", "p", "verdict", "exp n/o", "95% CI", "p",
           "verdict");
    for (size_t i = 0; i < gb_cmp_ngroups(c); i++) {
        const gb_cmp_group *g = gb_cmp_group_at(c, i);
        char a[32], bb[32], r1[32], c1[48], p1[16], r2[32], c2[48], p2[16];
        printf("%-*.*s  %-*.*s  %-*.*s  %6zu  %9s  %9s  %8s  %-16s  %6s  %-9s  %8s  %-16s  %6s  %s\n", wm, wm,
               g->map, ws, ws, g->solver, wq, wq, g->queue, g->n, fmt_us(a, sizeof a, g->old_med),
               fmt_us(bb, sizeof bb, g->new_med), fmt_ratio(r1, sizeof r1, g->time.est),
               fmt_ci(c1, sizeof c1, &g->time), fmt_p(p1, sizeof p1, g->time_p),
               gb_cmp_verdict_name(g->time_verdict, 0, 0), fmt_ratio(r2, sizeof r2, g->exp.est),
               fmt_ci(c2, sizeof c2, &g->exp), fmt_p(p2, sizeof p2, g->exp_p),
               gb_cmp_verdict_name(g->exp_verdict, 1, 0));
    }
}

static void write_groups(FILE *f, const gb_cmp *c)
{
    fputs("map,solver,queue,n,old_only,new_only,time_old_median_ns,time_new_median_ns,time_ratio,"
          "time_ratio_lo,time_ratio_hi,time_p,time_verdict,expanded_old_mean,expanded_new_mean,"
          "expanded_ratio,expanded_ratio_lo,expanded_ratio_hi,expanded_p,expanded_verdict,"
          "regressions,fixes,other_changes\n", f);
    for (size_t i = 0; i < gb_cmp_ngroups(c); i++) {
        const gb_cmp_group *g = gb_cmp_group_at(c, i);
        gb_csv_write_str(f, g->map);
        fputc(',', f);
        gb_csv_write_str(f, g->solver);
        fputc(',', f);
        gb_csv_write_str(f, g->queue);
        fprintf(f, ",%zu,%zu,%zu", g->n, g->old_only, g->new_only);
        const double v1[] = { g->old_med, g->new_med, g->time.est, g->time.lo, g->time.hi, g->time_p };
        for (int k = 0; k < 6; k++) isnan(v1[k]) ? (void)fputc(',', f) : (void)fprintf(f, ",%.6g", v1[k]);
        fprintf(f, ",%s", gb_cmp_verdict_name(g->time_verdict, 0, 1));
        const double v2[] = { g->old_exp, g->new_exp, g->exp.est, g->exp.lo, g->exp.hi, g->exp_p };
        for (int k = 0; k < 6; k++) isnan(v2[k]) ? (void)fputc(',', f) : (void)fprintf(f, ",%.6g", v2[k]);
        fprintf(f, ",%s,%zu,%zu,%zu\n", gb_cmp_verdict_name(g->exp_verdict, 1, 1), g->regressions, g->fixes,
                g->others);
    }
}

static void write_changes(FILE *f, const gb_cmp *c)
{
    static const char *const kind[] = { "regression", "fix", "other" };
    fputs("kind,map,scen,line,solver,queue,old_status,new_status\n", f);
    for (size_t i = 0; i < gb_cmp_nchanges(c); i++) {
        const gb_cmp_change *ch = gb_cmp_change_at(c, i);
        const gb_cmp_group *g = gb_cmp_group_at(c, ch->group);
        fprintf(f, "%s,", kind[ch->kind]);
        gb_csv_write_str(f, g->map);
        fputc(',', f);
        gb_csv_write_str(f, ch->scen);
        fprintf(f, ",%ld,", ch->line);
        gb_csv_write_str(f, g->solver);
        fputc(',', f);
        gb_csv_write_str(f, g->queue);
        fprintf(f, ",%s,%s\n", gb_row_status_name(ch->old_st), gb_row_status_name(ch->new_st));
    }
}

/* ---- command -------------------------------------------------------------- */

static int parse_count(const char *opt, const char *s, unsigned long long max, unsigned long long *v)
{
    char *end;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 10);
    if (!s[0] || *end || errno || s[0] == '-' || x > max) {
        fprintf(stderr, CMD ": %s: expected an integer in 0..%llu, found '%s'\n", opt, max, s);
        return EX_USAGE;
    }
    *v = x;
    return 0;
}

/* ---- the plot ------------------------------------------------------------ */

/* plots/compare.gp: $GB_PLOTDIR, else plots/ beside the executable or
 * one level up (./gridbench and build/gridbench in the repository), else
 * ../share/gridbench/plots from it (`make install`), else ./plots.  0 with dir set, -1 when none holds compare.gp. */
static int find_plotdir(char *dir, size_t n)
{
    char exe[4096], cand[4200];
    const char *env = getenv("GB_PLOTDIR");
    if (env && env[0]) {
        snprintf(cand, sizeof cand, "%s/compare.gp", env);
        if (access(cand, R_OK) == 0) { snprintf(dir, n, "%s", env); return 0; }
        return -1;
    }
    ssize_t k = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (k > 0) {
        exe[k] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) *slash = '\0';
        static const char *const rel[] = { "/plots", "/../plots", "/../share/gridbench/plots" };
        for (int i = 0; i < 3; i++) {
            snprintf(cand, sizeof cand, "%s%s/compare.gp", exe, rel[i]);
            if (access(cand, R_OK) == 0) { snprintf(dir, n, "%s%s", exe, rel[i]); return 0; }
        }
    }
    if (access("plots/compare.gp", R_OK) == 0) { snprintf(dir, n, "plots"); return 0; }
    return -1;
}

/* s inside a gnuplot '...' string: each ' doubled. */
static void gq(char *out, size_t n, const char *s)
{
    size_t k = 0;
    for (; *s && k + 3 < n; s++) {
        if (*s == '\'') out[k++] = '\'';
        out[k++] = *s;
    }
    out[k] = '\0';
}

extern char **environ;

/* Draw the plot of the groups into path with gnuplot.  Never changes the
 * exit status: every problem is a note on stderr.  The data goes through
 * a temporary CSV (the --out format). */
static void draw_plot(const gb_cmp *c, const char *path, const char *title)
{
    char dir[4300];
    if (find_plotdir(dir, sizeof dir) != 0) {
        fprintf(stderr, CMD ": note: no plot: plots/compare.gp not found (set GB_PLOTDIR to the plots folder)\n");
        return;
    }
    char data[] = "/tmp/gb-compare-XXXXXX";
    int fd = mkstemp(data);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        if (fd >= 0) { close(fd); remove(data); }
        fprintf(stderr, CMD ": note: no plot: cannot write a temporary file (%s)\n", strerror(errno));
        return;
    }
    write_groups(f, c);
    if (fclose(f) != 0) {
        remove(data);
        fprintf(stderr, CMD ": note: no plot: cannot write %s\n", data);
        return;
    }
    char qd[8700], qo[8700], qp[8700], qt[2100], expr[29000], script[4400];
    gq(qd, sizeof qd, data);
    gq(qo, sizeof qo, path);
    gq(qp, sizeof qp, dir);
    gq(qt, sizeof qt, title);
    snprintf(expr, sizeof expr, "plotdir='%s'; data='%s'; out='%s'; title='%s'", qp, qd, qo, qt);
    snprintf(script, sizeof script, "%s/compare.gp", dir);
    char a0[] = "gnuplot", a1[] = "-e";
    char *argv[] = { a0, a1, expr, script, NULL };
    pid_t pid;
    int e = posix_spawnp(&pid, "gnuplot", NULL, NULL, argv, environ);
    int st = 0;
    if (e == 0) {
        while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
    }
    remove(data);
    struct stat sb;
    if (e == ENOENT) {
        fprintf(stderr, CMD ": note: no plot: gnuplot not found (Debian package gnuplot-nox)\n");
    } else if (e != 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0 || stat(path, &sb) != 0 || sb.st_size == 0) {
        fprintf(stderr, CMD ": warning: gnuplot could not draw %s\n", path);
    } else {
        fprintf(stderr, CMD ": plot written to %s\n", path);
    }
}

/* ---- the command, in stages -----------------------------------------
 *
 * cmp_parse (argv -> cmp_cli through the option table) -> cmp_check (the
 * rules between options) -> cmp_inputs (the two runs resolved, the outputs
 * checked against them, the rows loaded) -> cmp_comparable (same data,
 * same timing, or refused) -> the comparison -> cmp_print (the text
 * report) -> cmp_files (--out, --changes, --plot). */

typedef struct cmp_cli {
    const char *out, *changes, *plot;
    double fail_pct; /* --fail-on-regression, NaN: not given */
    int allow, allow_timing, help;
    gb_boot boot;
} cmp_cli;

typedef struct cmp_job {
    const cmp_cli *o;
    gb_diag d;
    input in[2];
    gb_cmp *cmp;
    int differs, sums, tdiff;
    size_t nfo;
    char why[700], twhy[600];
} cmp_job;

static int cmp_parse(int argc, char **argv, cmp_cli *o)
{
    o->fail_pct = NAN;
    gb_boot_default(&o->boot);
    const char *arg;
    unsigned long long v;
    int c, rc = 0;
    gb_opt_parser op;
    if (gb_opt_begin(&op, &gb_doc_compare) != 0) return EX_OSERR;
    while (!rc && !o->help && (c = gb_opt_next(&op, argc, argv, &arg)) != -1) {
        switch (c) {
        case 'o': o->out = arg; break;
        case OPT_CHANGES: o->changes = arg; break;
        case OPT_PLOT: o->plot = arg; break;
        case OPT_ALLOW: o->allow = 1; break;
        case OPT_ALLOW_TIMING: o->allow_timing = 1; break;
        case OPT_FAIL: {
            char *end;
            o->fail_pct = strtod(arg, &end);
            if (!arg[0] || *end || !(o->fail_pct >= 0) || isinf(o->fail_pct)) {
                fprintf(stderr, CMD ": --fail-on-regression: expected a percentage >= 0, found '%s'\n", arg);
                rc = EX_USAGE;
            }
            break;
        }
        case OPT_RESAMPLES:
            if ((rc = parse_count("--resamples", arg, 1000000, &v)) != 0) break;
            if (v < 1) {
                fprintf(stderr, CMD ": --resamples: expected at least 1, found 0\n");
                rc = EX_USAGE;
                break;
            }
            o->boot.resamples = (int)v;
            break;
        case OPT_SEED:
            if ((rc = parse_count("--seed", arg, UINT64_MAX, &v)) == 0) o->boot.seed = v;
            break;
        case 'h': o->help = 1; break;
        default: rc = EX_USAGE; break;   /* gb_opt_next said why */
        }
    }
    gb_opt_end(&op);
    return rc;
}

static int cmp_check(const cmp_cli *o, int argc)
{
    if (argc - optind != 2) {
        fprintf(stderr, CMD ": expected two runs (OLD NEW), found %d arguments\n", argc - optind);
        gb_opt_help(&gb_doc_compare, stderr);
        return EX_USAGE;
    }
    if ((o->out && !o->out[0]) || (o->changes && !o->changes[0]) || (o->plot && !o->plot[0])) {
        fprintf(stderr, CMD ": expected a non-empty file name, found an empty string\n");
        return EX_USAGE;
    }
    if (o->out && o->changes && strcmp(o->out, o->changes) == 0) {
        fprintf(stderr, CMD ": expected --out and --changes to name different files, found '%s' twice\n",
                o->out);
        return EX_USAGE;
    }
    return 0;
}

/* The two runs, the outputs checked against them (no output overwrites
 * an input), the rows loaded. */
static int cmp_inputs(cmp_job *j, char **argv)
{
    const cmp_cli *o = j->o;
    int rc = resolve(&j->in[0], argv[optind], &j->d);
    if (!rc) rc = resolve(&j->in[1], argv[optind + 1], &j->d);
    if (!rc) {
        char *inputs[4] = { j->in[0].csv, j->in[1].csv, j->in[0].envp[0] ? j->in[0].envp : NULL,
                            j->in[1].envp[0] ? j->in[1].envp : NULL };
        if (o->out) rc = gb_out_check(o->out, inputs, 4, &j->d);
        if (!rc && o->changes) rc = gb_out_check(o->changes, inputs, 4, &j->d);
        if (!rc && o->plot) rc = gb_out_check(o->plot, inputs, 4, &j->d);
    }
    if (!rc) rc = gb_cmp_load(j->in[0].csv, j->in[1].csv, &j->cmp, &j->d);
    return rc;
}

/* Same data (checksums when both runs list them, else the CSVs) and the
 * same timing, or the reason to refuse: -EX_DATAERR after saying why. */
static int cmp_comparable(cmp_job *j)
{
    static dfile fo[512], fn[512];
    j->nfo = j->in[0].env ? data_files(j->in[0].env, fo, 512) : 0;
    size_t nfn = j->in[1].env ? data_files(j->in[1].env, fn, 512) : 0;
    j->sums = j->nfo > 0 && nfn > 0;
    j->differs = j->sums && sums_differ(fo, j->nfo, fn, nfn, j->why, sizeof j->why);
    if (!j->differs) j->differs = gb_cmp_data_differs(j->cmp, !j->sums, j->why, sizeof j->why);
    if (j->differs && !j->o->allow) {
        fprintf(stderr,
                CMD ": expected two runs on the same data, found different data: %s (pass "
                    "--allow-different-data to compare the common queries anyway)\n",
                j->why);
        return -EX_DATAERR;
    }
    j->tdiff = gb_cmp_timing_differs(j->cmp, j->twhy, sizeof j->twhy);
    if (j->tdiff && !j->o->allow_timing) {
        fprintf(stderr,
                CMD ": expected two runs timed alike, found %s: a time ratio between them "
                    "measures the timing as much as the solvers (pass --allow-different-timing to "
                    "compare anyway)\n",
                j->twhy);
        return -EX_DATAERR;
    }
    return 0;
}

/* The report's head: the runs, the data, the timing, the pairs. */
static void cmp_print_head(const cmp_job *j)
{
    const input *in = j->in;
    const gb_cmp *cmp = j->cmp;
    printf("OLD  %s (%zu rows%s)\nNEW  %s (%zu rows%s)\n", in[0].arg, gb_cmp_rows(cmp, 0),
           in[0].env ? ", env.json" : ", no env.json", in[1].arg, gb_cmp_rows(cmp, 1),
           in[1].env ? ", env.json" : ", no env.json");
    if (j->differs)
        printf("data         DIFFERENT: %s -- compared anyway (--allow-different-data)\n", j->why);
    else if (j->sums)
        printf("data         same: %zu scenario and map files with equal SHA-256 in both env.json\n",
               j->nfo);
    else
        printf("data         same map and scenario names, starts and goals in both CSVs (no checksums: "
               "env.json missing or without file list)\n");
    if (j->tdiff)
        printf("timing       DIFFERENT: %s -- time ratios compare the timing too "
               "(--allow-different-timing)\n",
               j->twhy);
    print_env(&in[0], &in[1]);
    size_t np = gb_cmp_pairs(cmp);
    printf("pairs        %zu rows in both runs; %zu only in OLD, %zu only in NEW (not compared)\n", np,
           gb_cmp_rows(cmp, 0) - np, gb_cmp_rows(cmp, 1) - np);
    for (int k = 0; k < 2; k++)
        if (gb_cmp_duplicates(cmp, k))
            printf("             %s lists %zu (map, scen, line, solver, queue) twice: the first row counts\n",
                   k ? "NEW" : "OLD", gb_cmp_duplicates(cmp, k));
}

/* The whole text report; the exit status it comes to (1: a regression,
 * or a slowdown over --fail-on-regression). */
static int cmp_print(const cmp_job *j)
{
    const gb_cmp *cmp = j->cmp;
    const double fail_pct = j->o->fail_pct;
    cmp_print_head(j);
    print_changes(cmp);
    print_table(cmp, &j->o->boot);
    size_t nreg = 0, slower = 0, faster = 0, same = 0, na = 0, over = 0;
    const gb_cmp_group *worst = NULL;
    for (size_t i = 0; i < gb_cmp_nchanges(cmp); i++) nreg += gb_cmp_change_at(cmp, i)->kind == GB_CMP_REGRESSION;
    for (size_t i = 0; i < gb_cmp_ngroups(cmp); i++) {
        const gb_cmp_group *g = gb_cmp_group_at(cmp, i);
        switch (g->time_verdict) {
        case GB_CMP_SLOWER:
            slower++;
            if (!worst || g->time.est > worst->time.est) worst = g;
            if (!isnan(fail_pct) && (g->time.est - 1) * 100 > fail_pct) over++;
            break;
        case GB_CMP_FASTER: faster++; break;
        case GB_CMP_SAME: same++; break;
        default: na++;
        }
    }
    printf("\nresult: %zu correctness regression%s; time: %zu slower, %zu faster, %zu no change%s", nreg,
           nreg == 1 ? "" : "s", slower, faster, same, na ? "" : "");
    if (na) printf(", %zu not comparable", na);
    if (worst)
        printf(" (largest slowdown: %s/%s on %s, %+.1f %%)", worst->solver, worst->queue, worst->map,
               (worst->time.est - 1) * 100);
    printf("\n");
    if (!isnan(fail_pct))
        printf("%s: %zu correctness regression%s, %zu significant slowdown%s above %g %%\n",
               nreg || over ? "FAIL" : "PASS", nreg, nreg == 1 ? "" : "s", over, over == 1 ? "" : "s", fail_pct);
    fflush(stdout);
    return nreg || over ? 1 : 0;
}

/* --out, --changes (each through a temporary file) and --plot. */
static int cmp_files(cmp_job *j)
{
    const cmp_cli *o = j->o;
    char tmp[4300];
    FILE *f;
    int rc;
    if (o->out) {
        if (!(f = gb_tmp_open(o->out, tmp, sizeof tmp, &j->d))) return j->d.code;
        write_groups(f, j->cmp);
        if ((rc = gb_tmp_commit(f, tmp, o->out, &j->d)) != 0) return rc;
    }
    if (o->changes) {
        if (!(f = gb_tmp_open(o->changes, tmp, sizeof tmp, &j->d))) return j->d.code;
        write_changes(f, j->cmp);
        if ((rc = gb_tmp_commit(f, tmp, o->changes, &j->d)) != 0) return rc;
    }
    if (o->plot) {
        char title[2100];
        snprintf(title, sizeof title, "%s vs %s", j->in[0].arg, j->in[1].arg);
        draw_plot(j->cmp, o->plot, title);
    }
    return 0;
}

int gb_cmd_compare(int argc, char **argv)
{
    cmp_cli o;
    memset(&o, 0, sizeof o);
    int rc = cmp_parse(argc, argv, &o);
    if (rc) return rc;
    if (o.help) {
        gb_opt_help(&gb_doc_compare, stdout);
        return 0;
    }
    if ((rc = cmp_check(&o, argc)) != 0) return rc;
    static cmp_job j;
    memset(&j, 0, sizeof j);
    j.o = &o;
    gb_diag_clear(&j.d);
    int verdict = 0;
    rc = cmp_inputs(&j, argv);
    if (!rc) rc = cmp_comparable(&j);
    if (!rc && gb_cmp_compute(j.cmp, &o.boot) != 0)
        rc = gb_diag_set(&j.d, EX_OSERR, j.in[1].csv, 0, 0,
                         "expected memory for the comparison, found none");
    if (!rc) verdict = cmp_print(&j);
    if (!rc) rc = cmp_files(&j);
    if (rc > 0) report_err(&j.d);
    gb_cmp_free(j.cmp);
    gb_jv_free(j.in[0].env);
    gb_jv_free(j.in[1].env);
    return rc < 0 ? -rc : rc ? rc : verdict;
}
