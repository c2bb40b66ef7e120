/*
 * gb_cmd_gppcdyn.c -- `gridbench gppc-dynamic`: replay GPPC's dynamic
 * scenarios (gb_gppcdyn.h: version 2, a patch file, P and Q commands)
 * through gridbench's solvers, every answer checked against Dijkstra on
 * the map of its batch, one row of `gridbench run`'s CSV (gb_rows.h) per
 * query and pair.
 *
 * A subcommand of its own, not `dynamic --gppc`: `dynamic` replays an
 * agent that walks and replans with D* Lite, one agent row per query, and
 * its -q is --quiet; this one answers batches of independent queries
 * with any solvers (-s) on any queues (-q) and writes `run`'s rows, so
 * `summary`, `report` and `compare` read its output unchanged.
 *
 * User solvers join with --plugin SO (then named with -s, as in `run`)
 * and --gppc DIR (a GPPC entry, classic or dynamic track, built or reused
 * like `gridbench gppc build DIR`; every solver it registers runs); they
 * run in worker processes (gb_uworker.h), never in this one.
 *
 * The replay is gb_gppcreplay.h's; this file reads options and files and
 * writes the CSV through a temporary file renamed at the end.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gb_cmd.h"
#include "gb_gppc.h"
#include "gb_gppcdyn.h"
#include "gb_gppcreplay.h"
#include "gb_rows.h"
#include "gb_search.h"
#include "gb_user.h"

#define CMD "gridbench gppc-dynamic"
#define MAX_PAIRS 256

enum { OPT_QUIET = 256, OPT_PLUGIN, OPT_GPPC, OPT_PLUGIN_TIMEOUT };

#define MAX_LOADS 8
#define DEFAULT_PLUGIN_TIMEOUT_MS 60000

static const gb_opt gppcdyn_opts[] = {
    { 'o', 'o', "out", "FILE", "CSV output, the columns of `gridbench run` (temporary file, then "
      "renamed)" },
    { 's', 's', "solver", "LIST", "solvers besides dijkstra and astar-octile, which always run: "
      "names of `gridbench list`, comma-separated, repeatable, or all" },
    { 'q', 'q', "queue", "LIST", "queues, comma-separated, repeatable, or all (default bheap); "
      "solvers without a queue run once" },
    { 'n', 'n', "max-queries", "N", "answer at most the first N queries of each file" },
    { OPT_PLUGIN, 0, "plugin", "LIB.so", "load user solvers from a shared library (gb_user.h, as for "
      "`gridbench run`); name them with -s.  Repeatable" },
    { OPT_GPPC, 0, "gppc", "DIR", "also run the GPPC entry in DIR, classic or dynamic track (its "
      "gppc_map_change sees every batch of patches): built or reused like `gridbench gppc build "
      "DIR`, every solver it registers runs.  Repeatable" },
    { OPT_PLUGIN_TIMEOUT, 0, "plugin-timeout", "MS", "limit per query for --plugin and --gppc "
      "solvers, which run in worker processes, on the change hook and again on the search (a "
      "preparation, e.g. a GPPC entry's preprocessing, has none): past it the worker is killed "
      "and the row is timeout (default 60000)" },
    { OPT_QUIET, 0, "quiet", NULL, "no progress on stderr" },
    { 'h', 'h', "help", NULL, "this text" },
    { 0, 0, NULL, NULL, NULL }
};

const gb_cmd_doc gb_doc_gppc_dynamic = {
    "gppc-dynamic", "[OPTIONS] --out FILE.csv SCEN...",
    "replay GPPC's dynamic scenarios (patches between query batches), every answer checked",
    "Replay the dynamic track of the Grid-based Path Planning Competition (startkit-dynamic): a "
    "'version 2' scenario with a patch file, whose P commands rewrite rectangles of a map that "
    "starts all passable and whose Q commands are queries answered on the map as it then is "
    "(docs/dynamic.md, \"GPPC's dynamic format\").\n\n"
    "Every query runs on every solver x queue pair and on Dijkstra; each path is validated on the "
    "current map and its cost judged against Dijkstra's, with the statuses of `gridbench run`. "
    "A printed length that disagrees with Dijkstra (within its printed precision; -1 is \"no "
    "path\") makes the rows scen_mismatch: the scenario's fault, not the solver's. Solvers with "
    "per-map tables (jps+, sg, sg-tl, sg-tl-dt, hpa) rebuild them after each patch; the rebuild "
    "time is the prep_ns column.\n\n"
    "Solvers of --plugin and --gppc run in a worker process each, which follows the patches: "
    "before the first query after a batch it calls the solver's change hook (a GPPC dynamic "
    "entry's gppc_map_change, timed into prep_ns), or prepares the solver again. One that crashes "
    "or passes --plugin-timeout costs that query a crash or timeout row; the next query starts a "
    "new worker on the map as it then is.",
    gppcdyn_opts,
    "The patch file is found beside the scenario unless its name is absolute. The map column is "
    "the scenario's base name.",
    "gridbench gppc-dynamic --out dyn.csv -s jps+,sg-tl -q bheap,bucket arena2.scen",
    "0 every answer checked; 1 a solver failure (invalid_path, suboptimal, false_unreachable, crash, "
    "timeout); 64 "
    "bad usage; 65 bad input; 66 missing input; 71 out of memory; 73/74 cannot write."
};

/* One row to the CSV; failures and mismatches also to stderr. */
typedef struct sink_ctx {
    FILE *f;
} sink_ctx;

static int write_row(void *arg, const gb_row *row, const char *msg)
{
    sink_ctx *c = arg;
    gb_row_write(c->f, row);
    if (msg[0])
        fprintf(stderr, CMD ": %s:%ld: %s%s%s%s%s: %s\n", row->scen, row->line, row->status,
                strcmp(row->status, "scen_mismatch") ? " on " : "",
                strcmp(row->status, "scen_mismatch") ? row->solver : "",
                strcmp(row->status, "scen_mismatch") ? "/" : "",
                strcmp(row->status, "scen_mismatch") ? row->queue : "", msg);
    return 0;
}

/* Add solver name with every queue to p (deduplicated): a built-in
 * solver, or a user solver (a plugin's; queue 'none').  0 or EX_USAGE. */
static int add_solver(const char *name, const int *qs, int nq, gb_gppcrep_pair *p, int *np,
                      int timeout_ms)
{
    gb_gppcrep_pair x;
    char err[512];
    memset(&x, 0, sizeof x);
    const gb_user_solver *u = gb_user_find(name);
    if (u) {
        for (int k = 0; k < *np; k++)
            if (p[k].user == u) return 0;
        if (*np >= MAX_PAIRS) {
            fprintf(stderr, CMD ": expected at most %d solver x queue pairs, found more\n",
                    MAX_PAIRS);
            return EX_USAGE;
        }
        x.user = u;
        x.timeout_ms = timeout_ms;
        p[(*np)++] = x;
        return 0;
    }
    if (gb_solver_parse(name, &x.spec, err, sizeof err) != 0) {
        fprintf(stderr, CMD ": --solver: %s\n", err);
        return EX_USAGE;
    }
    if (gb_solver_unsupported(&x.spec, GB_MODEL_8_NOCUT, err, sizeof err)) {
        fprintf(stderr, CMD ": --solver: expected a solver that runs under GPPC's model 8-nocut, "
                "found '%s' (%s)\n", name, err);
        return EX_USAGE;
    }
    int uses = gb_solver_uses_queue(&x.spec);
    for (int i = 0; i < (uses ? nq : 1); i++) {
        x.queue = (gb_queue_kind)(uses ? qs[i] : GB_Q_BHEAP);
        int dup = 0;
        for (int k = 0; k < *np && !dup; k++)
            dup = !p[k].user && strcmp(p[k].spec.name, x.spec.name) == 0 && p[k].queue == x.queue;
        if (dup) continue;
        if (*np >= MAX_PAIRS) {
            fprintf(stderr, CMD ": expected at most %d solver x queue pairs, found more\n",
                    MAX_PAIRS);
            return EX_USAGE;
        }
        p[(*np)++] = x;
    }
    return 0;
}

static const char *base_name(const char *path)
{
    const char *b = strrchr(path, '/');
    return b ? b + 1 : path;
}

/* ---- the command, in stages -----------------------------------------
 *
 * gd_parse (argv -> gd_cli through the option table) -> gd_check (the
 * operands) -> gd_queues -> gd_user (plugins and GPPC entries loaded) ->
 * gd_pairs (dijkstra and astar-octile first, then --solver in order, then
 * the entries' solvers) -> gd_replay (every scenario into the temporary
 * CSV, committed whole). */

typedef struct gd_cli {
    const char *out;
    char *slist[32], *qlist[32];
    const char *plugins[MAX_LOADS], *gdirs[MAX_LOADS];
    int ns, nql, nplug, ngppc, quiet, help, timeout_ms;
    long maxq;
} gd_cli;

/* A value of a repeatable option into list (at most max, *n of them). */
static int gd_push(const char *opt, const char **list, int *n, int max, const char *v)
{
    if (*n >= max) {
        fprintf(stderr, CMD ": expected at most %d --%s options, found more\n", max, opt);
        return EX_USAGE;
    }
    list[(*n)++] = v;
    return 0;
}

/* A positive count of at most hi (msg: what is expected). */
static int gd_count(const char *opt, const char *arg, long hi, const char *msg, long *out)
{
    char *end;
    long v = strtol(arg, &end, 10);
    if (*end || end == arg || v < 1 || v > hi || arg[0] < '0' || arg[0] > '9') {
        fprintf(stderr, CMD ": %s: expected %s, found '%s'\n", opt, msg, arg);
        return EX_USAGE;
    }
    *out = v;
    return 0;
}

static int gd_option(gd_cli *o, int c, const char *arg)
{
    long v;
    switch (c) {
    case 'o': o->out = arg; return 0;
    case 's': return gd_push("solver", (const char **)o->slist, &o->ns, 32, arg);
    case 'q': return gd_push("queue", (const char **)o->qlist, &o->nql, 32, arg);
    case 'n': return gd_count("--max-queries", arg, LONG_MAX, "a positive integer", &o->maxq);
    case OPT_PLUGIN: return gd_push("plugin", o->plugins, &o->nplug, MAX_LOADS, arg);
    case OPT_GPPC: return gd_push("gppc", o->gdirs, &o->ngppc, MAX_LOADS, arg);
    case OPT_PLUGIN_TIMEOUT:
        if (gd_count("--plugin-timeout", arg, 86400000, "1..86400000 ms", &v)) return EX_USAGE;
        o->timeout_ms = (int)v;
        return 0;
    case OPT_QUIET: o->quiet = 1; return 0;
    case 'h': o->help = 1; return 0;
    default: return EX_USAGE; /* gb_opt_next said why */
    }
}

static int gd_parse(int argc, char **argv, gd_cli *o)
{
    o->timeout_ms = DEFAULT_PLUGIN_TIMEOUT_MS;
    const char *arg;
    int c, rc = 0;
    gb_opt_parser op;
    if (gb_opt_begin(&op, &gb_doc_gppc_dynamic) != 0) return EX_OSERR;
    while (!rc && !o->help && (c = gb_opt_next(&op, argc, argv, &arg)) != -1) rc = gd_option(o, c, arg);
    gb_opt_end(&op);
    return rc;
}

static int gd_check(const gd_cli *o, int argc)
{
    if (!o->out || !o->out[0]) {
        fprintf(stderr, CMD ": expected --out FILE, found none (see `" CMD " --help`)\n");
        return EX_USAGE;
    }
    if (optind >= argc) {
        fprintf(stderr, CMD ": expected one or more GPPC dynamic scenarios, found none\n");
        return EX_USAGE;
    }
    return 0;
}

/* The queues of --queue (each once, in order; bheap when none). */
static int gd_queues(const gd_cli *o, int *qs, int *nq)
{
    *nq = 0;
    for (int i = 0; i < o->nql; i++) {
        char buf[512];
        snprintf(buf, sizeof buf, "%s", o->qlist[i]);
        for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
            int all = strcmp(tok, "all") == 0, q = all ? 0 : gb_queue_from_name(tok);
            if (q < 0) {
                char names[512];
                gb_queue_names(names, sizeof names);
                fprintf(stderr, CMD ": --queue: expected one of %s or all, found '%s'\n", names, tok);
                return EX_USAGE;
            }
            for (int k = all ? 0 : q; k <= (all ? GB_Q_COUNT - 1 : q); k++) {
                int dup = 0;
                for (int j = 0; j < *nq; j++) dup |= qs[j] == k;
                if (!dup) qs[(*nq)++] = k;
            }
        }
    }
    if (*nq == 0) qs[(*nq)++] = GB_Q_BHEAP;
    return 0;
}

/* --plugin libraries, then --gppc entries (built or reused); the entries'
 * solvers into gsolv (*ngs). */
static int gd_user(const gd_cli *o, const char **gsolv, int *ngs)
{
    for (int i = 0; i < o->nplug; i++) {
        gb_diag pd;
        gb_diag_clear(&pd);
        int prc = gb_user_load_plugin(o->plugins[i], &pd);
        if (prc) {
            fputs(CMD ": --plugin: ", stderr);
            gb_diag_print(&pd, stderr);
            return prc;
        }
    }
    for (int i = 0; i < o->ngppc; i++) {
        gb_gppc_build_opts bo = { .dir = o->gdirs[i], .use_make = 1 };
        gb_gppc_built bb;
        gb_diag pd;
        gb_diag_clear(&pd);
        int before = gb_user_count();
        int prc = gb_gppc_build(&bo, &bb, &pd);
        if (!prc) prc = gb_user_load_plugin(bb.so, &pd);
        if (prc) {
            fputs(CMD ": --gppc: ", stderr);
            gb_diag_print(&pd, stderr);
            return prc;
        }
        for (int k = before; k < gb_user_count() && *ngs < MAX_LOADS * GB_USER_MAX; k++)
            gsolv[(*ngs)++] = gb_user_at(k)->name;
    }
    return 0;
}

/* The pairs: dijkstra and astar-octile first, then --solver in order
 * (all: every registered solver that runs under 8-nocut), then gsolv. */
static int gd_pairs(gd_cli *o, const int *qs, int nq, const char *const *gsolv, int ngs,
                    gb_gppcrep_pair *pairs, int *np)
{
    int rc = add_solver("dijkstra", qs, nq, pairs, np, o->timeout_ms);
    if (!rc) rc = add_solver("astar-octile", qs, nq, pairs, np, o->timeout_ms);
    for (int i = 0; i < o->ns && !rc; i++) {
        char *save = NULL;
        for (char *tok = strtok_r(o->slist[i], ",", &save); tok && !rc;
             tok = strtok_r(NULL, ",", &save)) {
            if (strcmp(tok, "all") != 0) {
                rc = add_solver(tok, qs, nq, pairs, np, o->timeout_ms);
                continue;
            }
            const char *name;
            for (int k = 0; (name = gb_solver_all(k)) != NULL && !rc; k++) {
                gb_solver_spec sp;
                char err[256];
                if (gb_solver_parse(name, &sp, err, sizeof err) == 0
                    && !gb_solver_unsupported(&sp, GB_MODEL_8_NOCUT, err, sizeof err))
                    rc = add_solver(name, qs, nq, pairs, np, o->timeout_ms);
            }
        }
    }
    for (int i = 0; i < ngs && !rc; i++) rc = add_solver(gsolv[i], qs, nq, pairs, np, o->timeout_ms);
    return rc;
}

static int gd_fail(const gb_diag *d)
{
    fputs(CMD ": ", stderr);
    gb_diag_print(d, stderr);
    return d->code;
}

/* Every scenario replayed into the CSV, written whole or not at all; the
 * exit status (1: a failure). */
static int gd_replay(const gd_cli *o, char **scens, int nscen, const gb_gppcrep_pair *pairs, int np)
{
    gb_diag d;
    gb_diag_clear(&d);
    if (gb_out_check(o->out, scens, nscen, &d) != 0) return gd_fail(&d);
    char tmp[4200];
    FILE *f = gb_tmp_open(o->out, tmp, sizeof tmp, &d);
    if (!f) return gd_fail(&d);
    fprintf(f, "%s\n", gb_rows_header());
    sink_ctx ctx = { f };
    long rows = 0, failed = 0, mismatch = 0, queries = 0;
    int rc = 0;
    for (int i = 0; i < nscen && rc == 0; i++) {
        gb_gppcdyn s;
        if ((rc = gb_gppcdyn_load(scens[i], &s, &d)) != 0) break;
        if (!o->quiet)
            fprintf(stderr, CMD ": %s: %ld x %ld map, %zu patches, %zu queries, %d pairs\n", scens[i],
                    (long)s.width, (long)s.height, s.npatch, s.nquery, np);
        gb_gppcrep_sum sum;
        rc = gb_gppcrep_run(&s, base_name(scens[i]), pairs, np, o->maxq, write_row, &ctx, &sum, &d);
        if (!o->quiet && !rc)
            fprintf(stderr,
                    CMD
                    ": %s: %ld queries, %ld patches (%lld cells flipped), table rebuilds %.3f ms, %ld "
                    "failures, %ld scenario mismatches\n",
                    scens[i], sum.queries, sum.patches, (long long)sum.cells_changed,
                    (double)sum.rebuild_ns / 1e6, sum.failed, sum.mismatch);
        rows += sum.rows;
        failed += sum.failed;
        mismatch += sum.mismatch;
        queries += sum.queries;
        gb_gppcdyn_free(&s);
    }
    if (rc) {
        gb_tmp_abort(f, tmp);
        gd_fail(&d);
        return rc;
    }
    if (gb_tmp_commit(f, tmp, o->out, &d) != 0) return gd_fail(&d);
    if (!o->quiet)
        fprintf(stderr, CMD ": wrote %s: %ld rows, %ld queries, %ld failures, %ld scenario mismatches\n",
                o->out, rows, queries, failed, mismatch);
    return failed ? 1 : 0;
}

int gb_cmd_gppc_dynamic(int argc, char **argv)
{
    static gd_cli o;
    memset(&o, 0, sizeof o);
    int rc = gd_parse(argc, argv, &o);
    if (rc) return rc;
    if (o.help) {
        gb_opt_help(&gb_doc_gppc_dynamic, stdout);
        return 0;
    }
    if ((rc = gd_check(&o, argc)) != 0) return rc;
    int qs[GB_Q_COUNT], nq;
    static const char *gsolv[MAX_LOADS * GB_USER_MAX];
    static gb_gppcrep_pair pairs[MAX_PAIRS];
    int ngs = 0, np = 0;
    if ((rc = gd_queues(&o, qs, &nq)) != 0 || (rc = gd_user(&o, gsolv, &ngs)) != 0
        || (rc = gd_pairs(&o, qs, nq, gsolv, ngs, pairs, &np)) != 0)
        return rc;
    return gd_replay(&o, argv + optind, argc - optind, pairs, np);
}
