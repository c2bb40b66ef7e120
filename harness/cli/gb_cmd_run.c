/*
 * gb_cmd_run.c -- `gridbench run` and `gridbench list`: command-line
 * parsing into a gb_run_opts, then gb_run().  Each option is written once,
 * in run_opts (gb_opt.h), which makes the parser, --help and
 * gridbench-run(1); run keeps its historic texts for an unknown option or
 * a missing value (a quiet parser).
 *
 * Solvers and queues multiply: every --solver runs on every --queue,
 * except solvers that use no priority queue (bfs), which run once with
 * queue "fifo".  "all" expands to the registry's gb_solver_all() list /
 * every queue.
 */
#define _GNU_SOURCE 1   /* sched_setaffinity, CPU_SET */
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gb_cmd.h"
#include "gb_gppc.h"
#include "gb_ocache.h"
#include "gb_plan.h"
#include "gb_run.h"
#include "gb_tcache.h"
#include "gb_tfile.h"
#include "gb_user.h"

_Static_assert(GB_ROW_NSTATUS <= 32, "--retry keeps its statuses in an unsigned mask");

/* The options of run.  An option without a short letter has the id
 * LETTER + 256 (gb_opt.h: ids below 256 are short letters); the `switch`
 * in run_main keeps one case per id.  To add an option: one line here,
 * one case there.  The table keeps its hand layout, one option a line. */
/* clang-format off */
static const gb_opt run_opts[] = {
    { 's', 's', "solver", "NAME", "solver to run (repeatable, or comma-separated; 'all'; default "
      "dijkstra); see `gridbench list`" },
    { 'q', 'q', "queue", "NAME", "priority queue (repeatable, comma-separated, 'all'; default bheap)" },
    { 'm', 'm', "model", "NAME", "movement model: 8-nocut (default), 8-cut1, 8-cutall, 4, or "
      "8-nocut-water (HOG2's water rule: W passable, but only from W; docs/terrain.md)" },
    GB_OPT_TERRAIN_COSTS('t' + 256),
    { 'o', 'o', "out", "FILE", "CSV file, written at the end (temp file + rename); while the run "
      "works, the queries done so far are kept in the journal FILE.partial (default: standard "
      "output)" },
    { 'p' + 256, 0, "paths", "FILE", "also write every row's path to FILE (CSV keyed like the rows: "
      "scen,line,solver,queue,cost_model,cells,waypoints; docs/run.md), so anyone can re-check the "
      "answers; refused with --resume" },
    { 'Z' + 256, 0, "resume", NULL, "continue an interrupted run with the same options: the queries "
      "in FILE.partial are kept, the rest are run, and FILE ends up as an uninterrupted run writes "
      "it (needs --out; without a journal, a new run starts, unless FILE exists: a finished run is "
      "refused, exit 73)" },
    { 'f' + 256, 0, "fresh", NULL, "start over although FILE.partial holds an earlier run's queries "
      "(without it, such a journal is refused: resume it with --resume)" },
    { 'r' + 256, 0, "retry", "STATUS[,STATUS]", "run again the queries of the finished FILE that "
      "have a row of one of these statuses (e.g. crash,timeout); every other row is kept byte for "
      "byte, and FILE is rewritten (temp file + rename; with --shard, FILE.shard too); FILE must be "
      "this run's CSV (same options and inputs, checked row by row); needs --out; refused with "
      "--resume, --fresh and --paths" },
    { 'M' + 256, 0, "map", "FILE", "use FILE as the map of every scenario" },
    { 'r', 'r', "reps", "N", "timed repetitions per query (default 1): time_cold_ns is the first, "
      "time_ns the median of the others (warm); with --regime gppc, N passes and time_ns their mean" },
    { 'G' + 256, 0, "gppc", "DIR", "also run the GPPC entry in DIR (Entry.h and its C++ sources): "
      "built into a plugin like `gridbench gppc build DIR`, reused from the cache, and every solver "
      "it registers is added to the run; its rows carry time_source gppc and GPPC's measures "
      "(docs/gppc.md; repeatable, at most 8)" },
    { 'g' + 256, 0, "regime", "NAME", "the order of timed runs (column regime): interleaved "
      "(default: per query, each pair runs its reps back to back) or gppc (per map, each pair in "
      "turn runs every query once per pass, as GPPC times entries; the judged path from one more, "
      "untimed run; one process: refused with --jobs above 1)" },
    { 'a' + 256, 0, "anyangle-model", "NAME", "the rule of any-angle paths (theta, SOLVER+smooth; "
      "docs/anyangle.md): centre (default: cell centres, every touched cell free) or gppc (GPPC's: "
      "corners, walls may be grazed; cost_model anyangle-gppc, and subopt = cost / the exact "
      "any-angle optimum; the one model of anya)" },
    { 'X' + 256, 0, "max-expanded", "N", "stop a search after N expansions (status 'limit')" },
    { 'T' + 256, 0, "max-ms", "N", "stop a search after N ms of wall time (status 'limit'; the clock "
      "is read every 256 expansions)" },
    { 'B' + 256, 0, "max-mem", "SIZE", "per query memory: a solver whose workspace (search arrays, "
      "queue, landmarks) needs more than SIZE bytes is not run, and an external solver resident in "
      "more is stopped (status 'limit'); suffix K, M or G (x1024)" },
    { 'F' + 256, 0, "first", "N", "skip the first N queries of each scenario" },
    { 'C' + 256, 0, "count", "N", "run at most N queries of each scenario" },
    { 'P' + 256, 0, "sample", "N", "of those n queries of each scenario, every k-th one, k = n / N "
      "rounded down: N to 2N-1 evenly spaced queries, so all buckets are represented" },
    { 'S' + 256, 0, "strict", NULL, "exit 2 when a scenario's printed length disagrees" },
    { 'Q' + 256, 0, "quiet", NULL, "no progress on stderr" },
    { 'U' + 256, 0, "pin", "CPU", "pin the process to one CPU (sched_setaffinity) for steadier "
      "timings" },
    { 'j', 'j', "jobs", "N", "run queries in N worker processes (0: one per CPU this process may "
      "use; default 1); each worker is pinned to its own CPU when N <= those CPUs; the CSV is the "
      "same as with 1 (timing columns aside)" },
    { 'H' + 256, 0, "shard", "I/N", "run shard I (0-based) of N: the plan's queries k with k mod N "
      "= I; needs --out, and writes FILE.shard beside it for `gridbench merge`" },
    { 'O' + 256, 0, "oracle-cache", "DIR", "keep Dijkstra's optimum of every query in DIR and reuse "
      "it (default $XDG_CACHE_HOME/gridbench/oracle or ~/.cache/gridbench/oracle); a hit is still "
      "checked against the scenario's printed length" },
    { 'o' + 256, 0, "no-oracle-cache", NULL, "run Dijkstra for every query, cache nothing" },
    { 'K' + 256, 0, "table-cache", "DIR", "keep the tables a solver builds per map (cpd) in DIR and "
      "read them back (default $XDG_CACHE_HOME/gridbench/tables or ~/.cache/gridbench/tables); "
      "prep_ns is then the time to read and check the table, not to build it" },
    { 'k' + 256, 0, "no-table-cache", NULL, "build every per-map table, keep none" },
    { 'E' + 256, 0, "external", "CMD", "also run an external solver: `/bin/sh -c CMD` speaking "
      "docs/protocol.md on stdin/stdout (repeatable, at most 16); its rows have solver "
      "external:NAME and queue 'none', time_ns = wall time from request to answer" },
    { 'N' + 256, 0, "external-name", "NAME", "name the --external just before (default: the name "
      "the solver gives in 'ready NAME', else the command's)" },
    { 'w' + 256, 0, "external-start-timeout", "MS", "limit for an external solver's `ready` after "
      "starting or loading a map (default 60000); one that does not start gets crash rows, the run "
      "goes on" },
    { 'W' + 256, 0, "external-timeout", "MS", "limit per answer for external solvers (default "
      "10000; --max-ms sets it too when this is not given; status 'timeout')" },
    { 'L' + 256, 0, "plugin", "LIB.so", "load user solvers from a shared library exporting "
      "gb_plugin_solvers() (see harness/run/gb_user.h; repeatable, at most 8); they run with queue "
      "'none' under their own names, in a worker process even with --jobs 1 (a plugin that crashes "
      "gets crash rows, the run goes on); an optional gb_plugin_hooks() gives per-map "
      "prepare/release, timed as prep_ns" },
    { 'h', 'h', "help", NULL, "this text" },
    { 0, 0, NULL, NULL, NULL }
};
/* clang-format on */

/* "  name: [failure] description", a verbatim line per status of the one
 * table (gb_status.h). */
#define RUN_FAILTAG_0 ""
#define RUN_FAILTAG_1 "[failure] "
#define RUN_STATUS_LINE(E, N, F, D) "  " N ": " RUN_FAILTAG_##F D "\n"

const gb_cmd_doc gb_doc_run = {
    "run", "[OPTIONS] SCEN...",
    "run solvers x queues over scenarios, check every path, write CSV",
    "Run every query of every scenario file through every solver x queue pair, check each path "
    "(legal moves, recomputed cost, Dijkstra's optimum, the scenario's printed length) and write "
    "one CSV row per (query, solver, queue).",
    run_opts,
    "Row status (column `status`), first that applies: protocol_error, timeout, crash, limit, "
    "invalid_path, false_unreachable, suboptimal, unreachable, scen_mismatch, ok:\n"
    GB_ROW_STATUS_LIST(RUN_STATUS_LINE),
    "gridbench run --solver astar-octile,jps --queue bheap,bucket \\\n"
    "    --out results/arena.csv ../shared/movingai/dao/arena.map.scen\n"
    "gridbench run -s jps --jobs 2 --out q.csv datasets/default/*.scen",
    "0 all rows right; 1 a solver returned an invalid, suboptimal or missing path; 2 (--strict) "
    "scenario lengths disagree; 64-78 bad usage or input (sysexits.h)."
};

/* ---- what the runner tells: notes, progress, the summary --------------- */

typedef struct progress_state {
    int on, tty;
    double t0, last;
    int printed;
} progress_state;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void cli_note(void *ctx, gb_run_note_kind kind, const char *text)
{
    progress_state *p = ctx;
    (void)kind;
    if (p->tty && p->printed) { fputc('\n', stderr); p->printed = 0; }
    fprintf(stderr, "%s\n", text);
}

/* A bar with an ETA on a terminal, a line every 10 s otherwise.  The ETA
 * goes by the plan's estimated work (gb_plan_work: long queries weigh
 * more), not by the count of queries. */
static void cli_progress(void *ctx, const gb_run_progress *pr)
{
    progress_state *p = ctx;
    double t = now_s();
    int last = pr->done == pr->total;
    if (!last && t - p->last < (p->tty ? 0.25 : 10.0)) return;
    if (last && !p->tty && t - p->t0 < 10.0) return;
    p->last = t;
    double frac = pr->work > 0 ? pr->work_done / pr->work : 1.0;
    double eta = frac > 0 ? pr->elapsed_s * (1.0 - frac) / frac : 0.0;
    const char *b = strrchr(pr->scen, '/');
    b = b ? b + 1 : pr->scen;
    if (p->tty) {
        char bar[21];
        int fill = (int)(frac * 20.0 + 0.5);
        for (int i = 0; i < 20; i++) bar[i] = i < fill ? '#' : '.';
        bar[20] = '\0';
        fprintf(stderr, "\rgridbench run: [%s] %3.0f%%  %zu/%zu queries  %s  %.0f s, ETA %.0f s   ",
                bar, 100.0 * frac, pr->done, pr->total, b, pr->elapsed_s, eta);
        p->printed = 1;
    } else {
        fprintf(stderr, "gridbench run: %3.0f%%  %zu/%zu queries  %s  %.0f s, ETA %.0f s\n",
                100.0 * frac, pr->done, pr->total, b, pr->elapsed_s, eta);
    }
}

static void print_summary(const gb_run_opts *o, gb_run_totals *tot)
{
    fprintf(stderr, "%-28s %-9s %7s %7s %7s %9s %12s %10s %-21s %10s\n", "solver", "queue", "rows",
            "ok", "failed", "scen_mis", "mean_exp", "median_us", "median_95%_ci_us", "mean_us");
    for (int pi = 0; pi < o->npairs; pi++) {
        const gb_run_pairsum *ps = &tot->pair[pi];
        uint64_t failed = 0;
        for (int k = 0; k < GB_ROW_NSTATUS; k++)
            if (gb_row_status_failed((gb_row_status)k)) failed += ps->status[k];
        double n = ps->rows ? (double)ps->rows : 1.0, med, lo, hi;
        char ci[64] = "-";
        gb_run_pair_median(tot, pi, &med, &lo, &hi);
        if (!isnan(lo)) snprintf(ci, sizeof ci, "[%.2f,%.2f]", lo / 1e3, hi / 1e3);
        fprintf(stderr, "%-28s %-9s %7llu %7llu %7llu %9llu %12.1f %10.2f %-21s %10.2f\n", ps->name,
                gb_pair_queue_name(&o->pairs[pi]),
                (unsigned long long)ps->rows, (unsigned long long)ps->status[GB_ROW_OK],
                (unsigned long long)failed, (unsigned long long)ps->status[GB_ROW_SCEN_MISMATCH],
                (double)ps->expanded / n, med / 1e3, ci, (double)ps->time_ns / n / 1e3);
    }
    fprintf(stderr, "gridbench run: %llu queries, %llu rows, %llu solver failures, "
            "%llu queries where the scenario's length disagrees with Dijkstra",
            (unsigned long long)tot->queries, (unsigned long long)tot->rows,
            (unsigned long long)tot->failures, (unsigned long long)tot->scen_mismatch);
    if (tot->worker_crashes) fprintf(stderr, ", %llu worker processes died",
                                     (unsigned long long)tot->worker_crashes);
    fputc('\n', stderr);
    if (o->oracle_cache) {
        fprintf(stderr, "gridbench run: oracle cache %s: %llu optima found there", o->oracle_cache,
                (unsigned long long)tot->oracle_hits);
        if (o->aa_gppc) fprintf(stderr, ", %llu any-angle optima", (unsigned long long)tot->aa_hits);
        fputc('\n', stderr);
    }
    if (o->terrain.on)   /* the uniform default says nothing, as before */
        fprintf(stderr, "gridbench run: model %s+%s (no oracle cache under terrain costs)\n",
                gb_model_name(o->model), o->terrain.name);
}

/* The next free pair, zeroed; NULL (after saying why) when the table is full. */
static gb_pair *new_pair(gb_run_opts *o)
{
    if (o->npairs >= GB_RUN_MAX_PAIRS) {
        fprintf(stderr, "gridbench run: expected at most %d solver x queue pairs, found more\n",
                GB_RUN_MAX_PAIRS);
        return NULL;
    }
    gb_pair *p = &o->pairs[o->npairs++];
    memset(p, 0, sizeof *p);
    return p;
}

static int add_pairs(gb_run_opts *o, char **solvers, int ns, int *queues, int nq)
{
    char err[512];   /* the unknown-solver message lists every pattern */
    for (int i = 0; i < ns; i++) {
        gb_solver_spec sp;
        const gb_user_solver *u = gb_user_find(solvers[i]);
        if (u) {   /* a user solver (--plugin or gb_user_register): no queue */
            if ((u->optimal & GB_USER_AA_GPPC) && !o->aa_gppc) {
                fprintf(
                    stderr,
                    "gridbench run: solver '%s' is a GPPC any-angle entry (its paths are "
                    "real-coordinate corners): expected --anyangle-model gppc, found the cell-centre "
                    "model\n",
                    u->name);
                return EX_USAGE;
            }
            gb_pair *p = new_pair(o);
            if (!p) return EX_USAGE;
            snprintf(p->spec.name, sizeof p->spec.name, "%s", u->name);
            p->queue = -1;
            p->user = u;
            continue;
        }
        if (gb_solver_parse(solvers[i], &sp, err, sizeof err) != 0) {
            fprintf(stderr, "gridbench run: %s\n", err);
            return EX_USAGE;
        }
        sp.aa_gppc = o->aa_gppc;   /* anya runs in the GPPC model only */
        if (gb_solver_unsupported_w(&sp, o->model, o->terrain.on, err, sizeof err)) {
            fprintf(stderr, "gridbench run: %s\n", err);
            return EX_USAGE;
        }
        const int uses_queue = gb_solver_uses_queue(&sp);
        int nqq = uses_queue ? nq : 1;
        for (int j = 0; j < nqq; j++) {
            gb_pair *p = new_pair(o);
            if (!p) return EX_USAGE;
            p->spec = sp;
            p->queue = uses_queue ? queues[j] : -1;
        }
    }
    return 0;
}

static int parse_count(const char *opt, const char *s, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < 0) {
        fprintf(stderr, "gridbench run: %s: expected a non-negative integer, found '%s'\n", opt, s);
        return EX_USAGE;
    }
    *out = v;
    return 0;
}

/* ---- the command, in stages -------------------------------------------
 *
 * run_main: run_parse (argv -> run_cli, through the one option table)
 * -> run_solvers (plugins and GPPC entries loaded, the --solver and
 * --queue lists -> pairs, the externals named) -> run_check (every rule
 * between options, in one place) -> run_caches -> gb_run -> the summary.
 */

/* What the command line says, before it is turned into gb_run_opts. */
typedef struct run_cli {
    gb_run_opts *o;
    char *lists[2][16]; /* --solver, --queue values (comma lists) */
    int nl[2];
    char *plugins[8];
    int nplug;
    const char *gppc_dirs[8];
    int ngppc;
    char *ext_cmd[16], *ext_name[16];
    int next, ext_ms_given;
    int no_cache, no_tcache;
    const char *cache_dir, *tcache_dir;
    int help;
} run_cli;

/* A count of option opt in [lo, hi] (the message says `what`). */
static int parse_range(const char *opt, const char *s, long lo, long hi, const char *what, long *out)
{
    if (parse_count(opt, s, out)) return EX_USAGE;
    if (*out < lo || *out > hi) {
        fprintf(stderr, "gridbench run: %s: expected %s, found %ld\n", opt, what, *out);
        return EX_USAGE;
    }
    return 0;
}

/* --pin N: this process on CPU N. */
static int parse_pin(const char *s)
{
    long v;
    if (parse_count("--pin", s, &v)) return EX_USAGE;
    cpu_set_t set;
    CPU_ZERO(&set);
    if (v >= CPU_SETSIZE) {
        fprintf(stderr, "gridbench run: --pin: expected a CPU number, found %ld\n", v);
        return EX_USAGE;
    }
    CPU_SET((size_t)v, &set);
    if (sched_setaffinity(0, sizeof set, &set) != 0) {
        fprintf(stderr, "gridbench run: --pin: expected CPU %ld to be usable, found: %s\n", v,
                strerror(errno));
        return EX_USAGE;
    }
    return 0;
}

/* --retry S,S...: the row statuses to run again. */
static int parse_retry(char *s, unsigned *retry)
{
    for (char *tok = strtok(s, ","); tok; tok = strtok(NULL, ",")) {
        int st = gb_row_status_from_name(tok, strlen(tok));
        if (st < 0) {
            fprintf(stderr, "gridbench run: --retry: expected row statuses (%s), found '%s'\n",
                    gb_row_status_expected(), tok);
            return EX_USAGE;
        }
        *retry |= 1u << st;
    }
    if (!*retry) {
        fprintf(stderr, "gridbench run: --retry: expected row statuses (%s), found none\n",
                gb_row_status_expected());
        return EX_USAGE;
    }
    return 0;
}

/* One of two names (--anyangle-model, --regime): 0 or 1 into *out. */
static int parse_choice(const char *opt, const char *s, const char *a, const char *b, int *out)
{
    if (strcmp(s, a) == 0) *out = 0;
    else if (strcmp(s, b) == 0) *out = 1;
    else {
        fprintf(stderr, "gridbench run: %s: expected %s or %s, found '%s'\n", opt, a, b, s);
        return EX_USAGE;
    }
    return 0;
}

/* --jobs N (0: one per CPU this process may use). */
static int parse_jobs(const char *s, int *jobs)
{
    long v;
    if (parse_range("--jobs", s, 0, 1024, "0..1024", &v)) return EX_USAGE;
    if (v == 0) {
        cpu_set_t set;
        v = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 1;
    }
    *jobs = (int)v;
    return 0;
}

/* A value to keep in a list of at most max (*n counts them). */
static int push_arg(const char *opt, const char **list, int *n, int max, const char *v)
{
    if (*n >= max) {
        fprintf(stderr, "gridbench run: expected at most %d %s, found more\n", max, opt);
        return EX_USAGE;
    }
    list[(*n)++] = v;
    return 0;
}

/* --terrain-costs C */
static int parse_terrain(const char *s, gb_terrain *t)
{
    gb_diag td;
    gb_diag_clear(&td);
    int e = gb_tfile_arg(s, t, &td);
    if (e) {
        fprintf(stderr, "gridbench run: ");
        gb_diag_print(&td, stderr);
    }
    return e;
}

/* One option (id c, value arg) into *cl. */
static int run_option(run_cli *cl, int c, char *arg, char **argv)
{
    gb_run_opts *o = cl->o;
    long v;
    int choice;
    switch (c) {
    case 's':
        if (cl->nl[0] < 16) cl->lists[0][cl->nl[0]++] = arg;
        return 0;
    case 'q':
        if (cl->nl[1] < 16) cl->lists[1][cl->nl[1]++] = arg;
        return 0;
    case 'm': return gb_cli_model("gridbench run", arg, &o->model);
    case 'o': o->out = arg; return 0;
    case 'M' + 256: o->map_override = arg; return 0;
    case 't' + 256: return parse_terrain(arg, &o->terrain);
    case 'r':
        if (parse_range("--reps", arg, 1, 1000, "1..1000", &v)) return EX_USAGE;
        o->reps = (int)v;
        return 0;
    case 'X' + 256:
        if (parse_count("--max-expanded", arg, &v)) return EX_USAGE;
        o->max_expanded = (uint64_t)v;
        return 0;
    case 'T' + 256:
        if (parse_range("--max-ms", arg, 0, 86400000L, "at most 86400000 (a day)", &v)) return EX_USAGE;
        o->max_ms = (uint64_t)v;
        return 0;
    case 'F' + 256:
        if (parse_count("--first", arg, &v)) return EX_USAGE;
        o->first = v;
        return 0;
    case 'C' + 256:
        if (parse_count("--count", arg, &v)) return EX_USAGE;
        o->count = v;
        return 0;
    case 'P' + 256:
        if (parse_count("--sample", arg, &v)) return EX_USAGE;
        o->sample = v;
        return 0;
    case 'S' + 256: o->strict = 1; return 0;
    case 'G' + 256: return push_arg("--gppc", cl->gppc_dirs, &cl->ngppc, 8, arg);
    case 'L' + 256: return push_arg("--plugin", (const char **)cl->plugins, &cl->nplug, 8, arg);
    case 'E' + 256: return push_arg("--external", (const char **)cl->ext_cmd, &cl->next, 16, arg);
    case 'N' + 256:
        if (cl->next == 0 || cl->ext_name[cl->next - 1]) {
            fprintf(stderr,
                    "gridbench run: --external-name: expected it after an --external without a name, "
                    "found '%s'\n",
                    arg);
            return EX_USAGE;
        }
        cl->ext_name[cl->next - 1] = arg;
        return 0;
    case 'U' + 256: return parse_pin(arg);
    case 'W' + 256:
        if (parse_range("--external-timeout", arg, 1, 86400000L, "1..86400000 ms", &v)) return EX_USAGE;
        o->ext_ms = (int)v;
        cl->ext_ms_given = 1;
        return 0;
    case 'w' + 256:
        if (parse_range("--external-start-timeout", arg, 1, 86400000L, "1..86400000 ms", &v))
            return EX_USAGE;
        o->ext_start_ms = (int)v;
        return 0;
    case 'Q' + 256: o->progress_on = 0; return 0;
    case 'Z' + 256: o->resume = 1; return 0;
    case 'j': return parse_jobs(arg, &o->jobs);
    case 'H' + 256:
        if (gb_plan_parse_shard(arg, &o->shard_i, &o->shard_n) != 0) {
            fprintf(stderr,
                    "gridbench run: --shard: expected I/N with 0 <= I < N (e.g. 0/4), found '%s'\n",
                    arg);
            return EX_USAGE;
        }
        return 0;
    case 'O' + 256: cl->cache_dir = arg; return 0;
    case 'o' + 256: cl->no_cache = 1; return 0;
    case 'K' + 256: cl->tcache_dir = arg; return 0;
    case 'k' + 256: cl->no_tcache = 1; return 0;
    case 'p' + 256: o->paths_out = arg; return 0;
    case 'a' + 256:
        if (parse_choice("--anyangle-model", arg, "centre", "gppc", &choice)) return EX_USAGE;
        o->aa_gppc = choice;
        return 0;
    case 'g' + 256:
        if (parse_choice("--regime", arg, "interleaved", "gppc", &choice)) return EX_USAGE;
        o->regime = choice ? GB_REGIME_GPPC : GB_REGIME_INTERLEAVED;
        return 0;
    case 'f' + 256: o->fresh = 1; return 0;
    case 'r' + 256: return parse_retry(arg, &o->retry);
    case 'B' + 256: return gb_cli_size("gridbench run", "--max-mem", arg, &o->max_mem);
    case 'h': cl->help = 1; return 0;
    case ':':
        fprintf(stderr, "gridbench run: %s: expected a value, found none\n", argv[optind - 1]);
        return EX_USAGE;
    default:
        fprintf(stderr, "gridbench run: expected an option listed by --help, found '%s'\n",
                argv[optind - 1]);
        return EX_USAGE;
    }
}

/* argv -> *cl and its options, through the option table. */
static int run_parse(gb_opt_parser *op, int argc, char **argv, run_cli *cl)
{
    gb_run_opts *o = cl->o;
    memset(o, 0, sizeof *o);
    o->model = GB_MODEL_8_NOCUT;
    o->reps = 1;
    o->progress_on = 1;
    int c, rc;
    const char *arg; /* the same as optarg */
    while ((c = gb_opt_next(op, argc, argv, &arg)) != -1)
        if ((rc = run_option(cl, c, optarg, argv)) != 0 || cl->help) return rc;
    return 0;
}

/* --plugin libraries and --gppc entries loaded; the solvers the entries
 * register appended to solvers[] (*ns of them). */
static int run_load_user(run_cli *cl, char **solvers, int *ns)
{
    for (int i = 0; i < cl->nplug; i++) {
        gb_diag pd;
        gb_diag_clear(&pd);
        int prc = gb_user_load_plugin(cl->plugins[i], &pd);
        if (prc) {
            fprintf(stderr, "gridbench run: --plugin: ");
            gb_diag_print(&pd, stderr);
            return prc;
        }
    }
    /* --gppc DIR: build (or find in the cache) the entry's plugin, load it,
     * and run every solver it registers */
    for (int i = 0; i < cl->ngppc; i++) {
        gb_gppc_build_opts bo = { .dir = cl->gppc_dirs[i], .use_make = 1 };
        gb_gppc_built bb;
        gb_diag pd;
        gb_diag_clear(&pd);
        int before = gb_user_count();
        int prc = gb_gppc_build(&bo, &bb, &pd);
        if (!prc) prc = gb_user_load_plugin(bb.so, &pd);
        if (prc) {
            fprintf(stderr, "gridbench run: --gppc: ");
            gb_diag_print(&pd, stderr);
            return prc;
        }
        for (int k = before; k < gb_user_count() && *ns < 8 * GB_USER_MAX; k++)
            solvers[(*ns)++] = (char *)gb_user_at(k)->name;
    }
    return 0;
}

/* One --queue name (or all) into queues[] (*nq of them). */
static int add_queue(const char *tok, int *queues, int *nq)
{
    if (strcmp(tok, "all") == 0) {
        for (int q = 0; q < GB_Q_COUNT && *nq < GB_Q_COUNT * 4; q++) queues[(*nq)++] = q;
        return 0;
    }
    int q = gb_queue_from_name(tok);
    if (q < 0) {
        char names[256];
        gb_queue_names(names, sizeof names);
        const char *qn[GB_Q_COUNT];
        for (int qi = 0; qi < GB_Q_COUNT; qi++) qn[qi] = gb_queue_name((gb_queue_kind)qi);
        const char *cq = gb_closest(tok, qn, GB_Q_COUNT);
        fprintf(stderr, "gridbench run: --queue: expected one of %s or all, found '%s'%s%s%s\n", names,
                tok, cq ? "; did you mean '" : "", cq ? cq : "", cq ? "'?" : "");
        return EX_USAGE;
    }
    if (*nq < GB_Q_COUNT * 4) queues[(*nq)++] = q;
    return 0;
}

/* --solver all: every solver of the registry the model (and terrain) allows. */
static void add_all_solvers(const gb_run_opts *o, char **solvers, int *ns)
{
    char err[256];
    const char *name;
    for (int i = 0; (name = gb_solver_all(i)) != NULL; i++) {
        gb_solver_spec sp;
        gb_solver_parse(name, &sp, err, sizeof err);
        if (o->terrain.on) sp.aa_gppc = o->aa_gppc; /* theta: centre model only */
        if (gb_solver_unsupported_w(&sp, o->model, o->terrain.on, err,
                                    sizeof err)) { /* jps off 8-nocut */
            fprintf(stderr, "gridbench run: note: --solver all leaves out %s under model %s%s%s (%s)\n",
                    name, gb_model_name(o->model), o->terrain.on ? "+" : "", o->terrain.name, err);
            continue;
        }
        if (*ns < 64) solvers[(*ns)++] = (char *)name;
    }
}

/* An --external's pairs, named by --external-name or after its command:
 * the basename of the first word that is not `exec` or VAR=value. */
static int add_externals(run_cli *cl)
{
    for (int i = 0; i < cl->next; i++) {
        gb_pair *p = new_pair(cl->o);
        if (!p) return EX_USAGE;
        p->queue = -1;
        p->ext_cmd = cl->ext_cmd[i];
        p->ext_named = cl->ext_name[i] != NULL;
        if (p->ext_named) {
            snprintf(p->spec.name, sizeof p->spec.name, "external:%s", cl->ext_name[i]);
            continue;
        }
        const char *w = cl->ext_cmd[i];
        size_t n = 0;
        for (;;) {
            w += strspn(w, " \t");
            n = strcspn(w, " \t;&|<>()");
            if ((n == 4 && strncmp(w, "exec", 4) == 0) || memchr(w, '=', n)) {
                w += n;
                continue;
            }
            break;
        }
        const char *b = w;
        for (const char *c2 = w; c2 < w + n; c2++)
            if (*c2 == '/') b = c2 + 1;
        snprintf(p->spec.name, sizeof p->spec.name, "external:%.*s", (int)(w + n - b), b);
    }
    return 0;
}

/* The pairs: the user solvers loaded, the --solver x --queue lists, the
 * externals, each with the run's limits. */
static int run_solvers(run_cli *cl)
{
    gb_run_opts *o = cl->o;
    char *solvers[64], *user[8 * GB_USER_MAX];
    int ns = 0, nu = 0, queues[GB_Q_COUNT * 4], nq = 0, all = 0, rc;
    if ((rc = run_load_user(cl, user, &nu)) != 0) return rc;
    for (int i = 0; i < cl->nl[0]; i++) /* split the comma lists */
        for (char *tok = strtok(cl->lists[0][i], ","); tok; tok = strtok(NULL, ",")) {
            if (strcmp(tok, "all") == 0) {
                all = 1;
                continue;
            }
            if (ns >= 64) {
                fprintf(stderr, "gridbench run: too many --solver names\n");
                return EX_USAGE;
            }
            solvers[ns++] = tok;
        }
    for (int i = 0; i < cl->nl[1]; i++)
        for (char *tok = strtok(cl->lists[1][i], ","); tok; tok = strtok(NULL, ","))
            if ((rc = add_queue(tok, queues, &nq)) != 0) return rc;
    if (nq == 0) queues[nq++] = GB_Q_BHEAP;
    if (all) add_all_solvers(o, solvers, &ns);
    if (ns == 0 && cl->next == 0) solvers[ns++] = (char *)"dijkstra";
    for (int i = 0; i < nu && ns < 64; i++) solvers[ns++] = user[i];
    if ((rc = add_pairs(o, solvers, ns, queues, nq)) != 0 || (rc = add_externals(cl)) != 0) return rc;
    if (o->max_ms > 0 && !cl->ext_ms_given) o->ext_ms = (int)o->max_ms;
    if (!o->ext_start_ms) o->ext_start_ms = 60000; /* generous: interpreters start slowly under load */
    for (int i = 0; i < o->npairs; i++) {
        o->pairs[i].spec.max_expanded = o->max_expanded;
        o->pairs[i].spec.max_ns = o->max_ms * 1000000u;
        o->pairs[i].spec.aa_gppc = o->aa_gppc;
        o->pairs[i].spec.max_prep_bytes = o->max_mem; /* a build estimated first (cpd) */
    }
    return 0;
}

/* The first pair that is a plugin or an external solver, or NULL. */
static const gb_pair *not_builtin(const gb_run_opts *o)
{
    for (int i = 0; i < o->npairs; i++)
        if (o->pairs[i].user || o->pairs[i].ext_cmd) return &o->pairs[i];
    return NULL;
}

/* Every rule between options: 0, or EX_USAGE after saying which. */
static int run_check(const run_cli *cl, int nscen)
{
    const gb_run_opts *o = cl->o;
    const char *why = NULL;
    char b[512];
    const gb_pair *ub = not_builtin(o);
    if (o->resume && o->fresh) why = "expected --resume or --fresh, found both";
    else if (o->retry && (o->resume || o->fresh || !o->out)) {
        snprintf(b, sizeof b,
                 "--retry: expected --out FILE (the finished run to retry) and neither --resume "
                 "nor --fresh, found %s",
                 !o->out     ? "no --out"
                 : o->resume ? "--resume"
                             : "--fresh");
        why = b;
    } else if (o->regime == GB_REGIME_GPPC && o->jobs > 1) {
        snprintf(b, sizeof b,
                 "--regime gppc: expected one process (GPPC times one entry at a time, alone), "
                 "found --jobs %d",
                 o->jobs);
        why = b;
    } else if (o->paths_out && o->resume)
        why = "--paths: expected a run from the start, found --resume (the paths of the queries in the "
              "journal are not kept); run again with --fresh";
    else if (o->paths_out && o->retry)
        why = "--retry: expected no --paths, found one (the paths of the rows it keeps are not known); "
              "run "
              "the whole run again for them";
    else if (o->resume && !o->out)
        why = "--resume: expected --out FILE (the run to continue), found none";
    else if (nscen == 0) {
        fprintf(stderr, "gridbench run: expected at least one scenario file, found none\n");
        gb_opt_help(&gb_doc_run, stderr);
        return EX_USAGE;
    } else if (o->shard_n > 1 && !o->out)
        why = "--shard: expected --out FILE (a shard is merged from its file), found none";
    else if (cl->no_cache && cl->cache_dir)
        why = "expected --oracle-cache DIR or --no-oracle-cache, found both";
    else if (cl->no_tcache && cl->tcache_dir)
        why = "expected --table-cache DIR or --no-table-cache, found both";
    else if (o->terrain.on && o->model != GB_MODEL_8_NOCUT && o->model != GB_MODEL_4) {
        snprintf(b, sizeof b, "--terrain-costs: expected model 8-nocut or 4, found %s",
                 gb_model_name(o->model));
        why = b;
    } else if (o->terrain.on && ub) {
        snprintf(b, sizeof b,
                 "--terrain-costs: expected built-in solvers only, found %s (plugin and external "
                 "solvers are not told the terrain costs)",
                 ub->spec.name);
        why = b;
    } else if (o->model == GB_MODEL_8_NOCUT_WATER && ub) {
        snprintf(b, sizeof b,
                 "--model 8-nocut-water: expected built-in solvers only, found %s (plugin and "
                 "external solvers are not told the water rule)",
                 ub->spec.name);
        why = b;
    }
    if (!why) return 0;
    fprintf(stderr, "gridbench run: %s\n", why);
    return EX_USAGE;
}

/* A scenario made under a terrain model records it in SCEN.terrain
 * (docs/terrain.md): say so when this run uses another one. */
static void warn_terrain_files(const gb_run_opts *o, char **scens, int n)
{
    for (int i = 0; i < n; i++) {
        char tp[4200];
        snprintf(tp, sizeof tp, "%s.terrain", scens[i]);
        if (access(tp, F_OK) != 0) continue;
        gb_terrain st;
        gb_diag td;
        gb_diag_clear(&td);
        if (gb_tfile_load(tp, &st, &td) != 0) {
            fprintf(stderr, "gridbench run: warning: ");
            gb_diag_print(&td, stderr);
        } else if (strcmp(st.name, o->terrain.name) != 0) {
            fprintf(stderr,
                    "gridbench run: warning: %s was made under %s (%s), this run uses %s: its printed "
                    "lengths are not this run's optima (--terrain-costs %s runs it under its own)\n",
                    scens[i], st.name, tp, o->terrain.on ? o->terrain.name : "uniform costs", tp);
        }
    }
}

/* The oracle and table caches: the folders given, else the defaults. */
static void run_caches(run_cli *cl)
{
    gb_run_opts *o = cl->o;
    static char default_cache[1024], default_tcache[1024];
    if (o->terrain.on) cl->no_cache = 1, cl->cache_dir = NULL; /* the cache keys uniform optima */
    if (cl->cache_dir) o->oracle_cache = cl->cache_dir;
    if (cl->tcache_dir) o->table_cache = cl->tcache_dir;
    else if (!cl->no_tcache && gb_tcache_default_dir(default_tcache, sizeof default_tcache) == 0)
        o->table_cache = default_tcache;
    else if (!cl->no_cache && gb_ocache_default_dir(default_cache, sizeof default_cache) == 0)
        o->oracle_cache = default_cache;
}

static int run_main(gb_opt_parser *op, int argc, char **argv)
{
    static gb_run_opts o;
    run_cli cl;
    memset(&cl, 0, sizeof cl);
    cl.o = &o;
    int rc = run_parse(op, argc, argv, &cl);
    if (rc) return rc;
    if (cl.help) {
        gb_opt_help(&gb_doc_run, stdout);
        return 0;
    }
    if ((rc = run_solvers(&cl)) != 0 || (rc = run_check(&cl, argc - optind)) != 0) return rc;
    warn_terrain_files(&o, argv + optind, argc - optind);
    run_caches(&cl);
    o.pin = 1;
    progress_state ps = { o.progress_on, isatty(2), now_s(), 0.0, 0 };
    ps.last = ps.t0;
    o.note = cli_note;
    o.progress = o.progress_on ? cli_progress : NULL;
    o.ctx = &ps;
    static gb_run_totals tot;
    gb_diag d;
    rc = gb_run(&o, argv + optind, argc - optind, &tot, &d);
    if (ps.tty && ps.printed) fputc('\n', stderr);
    if (d.code) {
        fprintf(stderr, "gridbench run: ");
        gb_diag_print(&d, stderr);
    }
    if (rc == 0 || rc == 1 || rc == 2) print_summary(&o, &tot);
    gb_run_totals_free(&tot);
    return rc;
}

int gb_cmd_run(int argc, char **argv)
{
    gb_opt_parser op;
    if (gb_opt_begin(&op, &gb_doc_run) != 0) return EX_OSERR;
    op.quiet = 1;   /* run's own texts for an unknown option or a missing value */
    int rc = run_main(&op, argc, argv);
    gb_opt_end(&op);
    return rc;
}

/* ---- list ------------------------------------------------------------- */

static const gb_opt list_opts[] = {
    { 'h', 'h', "help", NULL, "this text" },
    { 0, 0, NULL, NULL, NULL }
};

const gb_cmd_doc gb_doc_list = {
    "list", "",
    "list solvers, heuristics, queues and movement models",
    "Print every solver, heuristic, queue, row status and movement model, one per line, as KIND "
    "NAME DESCRIPTION (tab-separated).",
    list_opts, NULL,
    "gridbench list | grep ^queue",
    "0 listed; 64 bad usage; 74 cannot write."
};

int gb_cmd_list(int argc, char **argv)
{
    int rc = gb_opt_only_help(&gb_doc_list, argc, argv);
    if (rc >= 0) return rc;
    if (optind < argc) {
        fprintf(stderr, "gridbench list: expected no arguments, found '%s'\n", argv[optind]);
        return EX_USAGE;
    }
    const char *desc;
    for (int i = 0; gb_solver_list(i, &desc); i++)
        printf("solver\t%s\t%s\n", gb_solver_list(i, NULL), desc);
    for (int h = 0; h < GB_H_COUNT; h++) {
        char adm[64] = "";
        for (int m = 0; m < GB_MODEL_COUNT; m++)
            if (gb_heur_admissible((gb_heur)h, (gb_model)m)) {
                if (adm[0]) strcat(adm, ",");
                strcat(adm, gb_model_name((gb_model)m));
            }
        printf("heuristic\t%s\t%s; admissible on: %s\n", gb_heur_name((gb_heur)h),
               gb_heur_desc((gb_heur)h), adm[0] ? adm : "none");
    }
    for (int q = 0; q < GB_Q_COUNT; q++)
        printf("queue\t%s\t%s\n", gb_queue_name((gb_queue_kind)q), gb_queue_desc((gb_queue_kind)q));
    for (int k = 0; k < GB_ROW_NSTATUS; k++)
        printf("status\t%s\t%s%s\n", gb_row_status_name((gb_row_status)k),
               gb_row_status_failed((gb_row_status)k) ? "[failure] " : "",
               gb_row_status_desc((gb_row_status)k));
    for (int m = 0; m < GB_MODEL_COUNT; m++)
        printf("model\t%s\t%s%s\n", gb_model_name((gb_model)m), gb_model_desc((gb_model)m),
               m == GB_MODEL_8_NOCUT ? " [default]" : "");
    return 0;
}
