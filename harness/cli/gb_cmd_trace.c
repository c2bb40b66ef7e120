/*
 * gb_cmd_trace.c -- `gridbench trace`: one query, one or more solvers,
 * every step of each search written as a trace (docs/trace.md) and a
 * self-contained page that replays it (harness/report/gb_viewer.h).
 *
 * Data flow
 *   options -> trace_opts (parsed from the one option table, then checked
 *   in trace_check_opts) -> the query and its map -> per solver: a plain
 *   search first, whose counters size the event buffer exactly (events =
 *   generated + expanded + the roots + the stop), which --max-mem bounds
 *   before anything is allocated; then the recording search (gb_ws_set_trace)
 *   -> the trace text in memory -> PREFIX.trace and PREFIX.html, each
 *   written to a temporary file and renamed only when both are complete.
 *   With --from, the given trace files are checked (gb_tracefile_check)
 *   and put into PREFIX.html.
 *
 * Invariant checked per search: its expand events number its
 * st.expanded, the `expanded` column `gridbench run` writes for the same
 * query; a search whose recording disagrees with its counters is an
 * internal error (exit 70), never a trace.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gb_alloc.h"
#include "gb_cmd.h"
#include "gb_map.h"
#include "gb_scen.h"
#include "gb_search.h"
#include "gb_trace.h"
#include "gb_tracefile.h"
#include "gb_user.h"
#include "gb_validate.h"
#include "gb_viewer.h"

#define CMD         "gridbench trace"
#define MAX_SOLVERS 8
#define MAX_FROM    8

enum { OPT_MAP = 256, OPT_FROM, OPT_MAXMEM, OPT_PLUGIN };

static const gb_opt trace_opts_table[] = {
    { 'S', 'S', "scen", "FILE", "scenario file (its map is found as by `gridbench run`)" },
    { 'l', 'l', "line", "N", "the query on line N of FILE (the CSV's `line`)" },
    { 'L', 'L', "longest", NULL, "the query with the largest printed length (first of equals)" },
    { 's', 's', "solver", "NAME",
      "solver to trace (repeatable, or comma-separated; at most " GB_STR(
          MAX_SOLVERS) "): the best-first family, bidirectional search, jps, jps+" },
    { 'm', 'm', "model", "NAME", "movement model (default 8-nocut)" },
    { OPT_MAP, 0, "map", "FILE", "use FILE as the map" },
    { OPT_PLUGIN, 0, "plugin", "LIB.so",
      "load user solvers (harness/run/gb_user.h) and trace them by name: "
      "those that call gb_user_trace_* as they search (repeatable, at most 8)" },
    { OPT_FROM, 0, "from", "FILE",
      "do not search: check FILE, a trace another program wrote "
      "(docs/trace.md), and put it in the page (repeatable, at most " GB_STR(MAX_FROM) ")" },
    { OPT_MAXMEM, 0, "max-mem", "SIZE",
      "memory for one search's events, 32 bytes each (K, M or G "
      "suffix; default 1G): a search that needs more is an error, and nothing is written" },
    { 'o', 'o', "out", "PREFIX", "write PREFIX.trace (not with --from) and PREFIX.html" },
    { 'h', 'h', "help", NULL, "this text" },
    { 0, 0, NULL, NULL, NULL }
};

const gb_cmd_doc gb_doc_trace = {
    "trace",
    "--scen FILE (--line N | --longest) --solver S [--solver S...] [OPTIONS] --out PREFIX\n"
    "--from TRACE [--from TRACE...] --out PREFIX",
    "record every step of a search on one query and replay it in a browser",
    "Run each solver on one query of a scenario and record every step of its search: each node "
    "generated or improved (with g, h and the node whose expansion reached it), each node "
    "expanded, where it stopped, and the path.  Writes PREFIX.trace, the trace as text "
    "(docs/trace.md), and PREFIX.html, a self-contained page (no server, no network) that "
    "replays the searches side by side: play and pause, step, scrub, speed, open and closed "
    "cells in colour, g, h and f of the cell under the pointer.\n"
    "\n"
    "The searches are those of `gridbench run`: each search's expansions are its `expanded` "
    "column, which the command checks.  They run on the binary heap; every exact queue pops the "
    "same order, so they are the expansions of every queue.  A trace another program wrote in "
    "the same format (your solver, a GPPC entry) is checked and turned into a page with --from.",
    trace_opts_table,
    "Traceable solvers: dijkstra, astar-H, wastar-H:w=W, gbfs-H (the best-first family), "
    "bidijkstra and biastar-H, jps and jps+, on uniform costs.  JPS and JPS+ record their jump "
    "points, as they count them.",
    "gridbench trace --scen datasets/default/maze128-2-1.map.scen --longest "
    "--solver dijkstra,astar-octile,jps --out /tmp/maze\n"
    "gridbench trace --from mine.trace --out /tmp/mine",
    "0 written; 64 bad usage (an untraceable solver, a trace over --max-mem); 65 bad input (no "
    "such line, a malformed trace); 66 unreadable file; 70 a search disagrees with its counters; "
    "71 out of memory; 73/74 cannot write."
};

typedef struct trace_opts {
    const char *scen, *map, *out;
    long line;
    int longest;
    char *slists[MAX_SOLVERS];
    int nsl;
    const char *from[MAX_FROM];
    int nfrom;
    const char *plugins[8];
    int nplug;
    gb_model model;
    uint64_t max_mem;
} trace_opts;

static int report(const gb_diag *d)
{
    fprintf(stderr, CMD ": ");
    gb_diag_print(d, stderr);
    return d->code;
}

static int usage_err(const char *fmt, ...) GB_PRINTF_LIKE(1, 2);
static int usage_err(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, CMD ": ");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return EX_USAGE;
}

/* argv -> *o through the option table; says why on failure. */
static int trace_parse(int argc, char **argv, trace_opts *o, int *help)
{
    memset(o, 0, sizeof *o);
    o->model = GB_MODEL_8_NOCUT;
    o->max_mem = (uint64_t)1 << 30;
    const char *arg;
    int c, rc = 0;
    gb_opt_parser op;
    if (gb_opt_begin(&op, &gb_doc_trace) != 0) return EX_OSERR;
    while (!rc && (c = gb_opt_next(&op, argc, argv, &arg)) != -1) {
        switch (c) {
        case 'S': o->scen = arg; break;
        case 'l': rc = gb_cli_line(CMD, arg, &o->line); break;
        case 'L': o->longest = 1; break;
        case 's':
            if (o->nsl == MAX_SOLVERS)
                rc = usage_err("expected at most %s --solver options, found more", GB_STR(MAX_SOLVERS));
            else o->slists[o->nsl++] = (char *)arg; /* an argv string: strtok may cut it */
            break;
        case 'm':
            rc = gb_cli_model(CMD, arg, &o->model);
            if (!rc) rc = gb_cli_no_water(CMD, o->model);
            break;
        case OPT_MAP: o->map = arg; break;
        case OPT_FROM:
            if (o->nfrom == MAX_FROM)
                rc = usage_err("expected at most %s --from files, found more", GB_STR(MAX_FROM));
            else o->from[o->nfrom++] = arg;
            break;
        case OPT_MAXMEM: rc = gb_cli_size(CMD, "--max-mem", arg, &o->max_mem); break;
        case OPT_PLUGIN:
            if (o->nplug == 8) rc = usage_err("expected at most 8 --plugin libraries, found %s", "more");
            else o->plugins[o->nplug++] = arg;
            break;
        case 'o': o->out = arg; break;
        case 'h': *help = 1; break;
        default: rc = EX_USAGE; break; /* gb_opt_next said why */
        }
    }
    gb_opt_end(&op);
    if (!rc && optind < argc) rc = usage_err("expected only options, found '%s'", argv[optind]);
    return rc;
}

/* The options that go together, in one place. */
static int trace_check_opts(const trace_opts *o)
{
    if (!o->out || !o->out[0]) return usage_err("expected --out PREFIX, found %s", "none");
    if (o->nfrom) {
        if (o->scen || o->nsl || o->map || o->line || o->longest)
            return usage_err("--from: expected no --scen, --solver, --map, --line or --longest "
                             "beside it (it replays traces, it does not search), found %s",
                             o->scen  ? "--scen"
                             : o->nsl ? "--solver"
                             : o->map ? "--map"
                                      : "--line/--longest");
        return 0;
    }
    if (!o->scen) return usage_err("expected --scen FILE (or --from TRACE), found %s", "none");
    if ((o->line > 0) == o->longest)
        return usage_err("expected exactly one of --line N and --longest, found %s",
                         o->longest ? "both" : "neither");
    if (!o->nsl) return usage_err("expected at least one --solver, found %s", "none");
    return 0;
}

/* A solver to trace: a built-in one, or a user solver of a --plugin. */
typedef struct tsolver {
    gb_solver_spec spec;
    const gb_user_solver *user; /* NULL: built-in */
} tsolver;

/* The solvers of --solver, each one that can be traced. */
static int parse_solvers(trace_opts *o, const gb_grid *g, tsolver *sv, int *ns)
{
    char err[512];
    *ns = 0;
    for (int i = 0; i < o->nsl; i++)
        for (char *tok = strtok(o->slists[i], ","); tok; tok = strtok(NULL, ",")) {
            if (*ns == MAX_SOLVERS)
                return usage_err("expected at most %s solvers, found more", GB_STR(MAX_SOLVERS));
            tsolver *t = &sv[*ns];
            memset(t, 0, sizeof *t);
            if ((t->user = gb_user_find(tok)) != NULL) {
                if (t->user->optimal & GB_USER_AA_GPPC)
                    return usage_err("--solver: expected a grid solver, found '%s', an any-angle one "
                                     "(its traces are not drawn yet)",
                                     tok);
                snprintf(t->spec.name, sizeof t->spec.name, "%s", tok);
                (*ns)++;
                continue;
            }
            if (gb_solver_parse(tok, &t->spec, err, sizeof err) != 0
                || gb_solver_unsupported(&t->spec, o->model, err, sizeof err))
                return usage_err("%s", err);
            if (!gb_solver_traceable(&t->spec, g))
                return usage_err(
                    "--solver: expected a solver whose search can be traced (the "
                    "best-first family: dijkstra, astar-H, wastar-H:w=W, gbfs-H; bidijkstra, "
                    "biastar-H; jps, jps+; a --plugin solver), found '%s' (write its trace "
                    "yourself and use --from: docs/trace.md)",
                    tok);
            (*ns)++;
        }
    return *ns ? 0 : usage_err("expected at least one --solver, found %s", "none");
}

/* The --plugin libraries loaded (their solvers registered). */
static int load_plugins(const trace_opts *o)
{
    for (int i = 0; i < o->nplug; i++) {
        gb_diag d;
        gb_diag_clear(&d);
        if (gb_user_load_plugin(o->plugins[i], &d) != 0) {
            fprintf(stderr, CMD ": --plugin: ");
            gb_diag_print(&d, stderr);
            return d.code;
        }
    }
    return 0;
}

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

/* Search spec on (s, t) with the events recorded, and append its section
 * to f.  The plain search before it gives the exact number of events. */
static int record(gb_ws *ws, const gb_grid *g, const gb_solver_spec *spec, const trace_opts *o,
                  int32_t s, int32_t t, FILE *f)
{
    gb_result r;
    if (gb_solve(ws, spec, GB_Q_BHEAP, s, t, &r) != 0) {
        fprintf(stderr, CMD ": expected memory for solver %s, found none\n", spec->name);
        return EX_OSERR;
    }
    const uint64_t need = r.st.generated + r.st.expanded + 3; /* + two roots and the stop */
    if (need > o->max_mem / sizeof(gb_trace_ev)) {
        fprintf(stderr,
                CMD ": %s: expected a trace that fits --max-mem (%llu bytes, %llu events), found "
                    "one of %llu events (%llu bytes): give a larger --max-mem or a shorter query; "
                    "nothing written\n",
                spec->name, (unsigned long long)o->max_mem,
                (unsigned long long)(o->max_mem / sizeof(gb_trace_ev)), (unsigned long long)need,
                (unsigned long long)(need * sizeof(gb_trace_ev)));
        return EX_USAGE;
    }
    gb_trace tr = { gb_malloc((size_t)need * sizeof(gb_trace_ev)), 0, (size_t)need, 0 };
    if (!tr.ev) {
        fprintf(stderr, CMD ": expected memory for %llu events of %s, found none\n",
                (unsigned long long)need, spec->name);
        return EX_OSERR;
    }
    gb_ws_set_trace(ws, &tr);
    int rc = gb_solve(ws, spec, GB_Q_BHEAP, s, t, &r);
    gb_ws_set_trace(ws, NULL);
    uint64_t nx = 0;
    for (size_t i = 0; i < tr.n; i++) nx += tr.ev[i].kind == GB_TR_EXP;
    if (rc != 0) {
        fprintf(stderr, CMD ": expected memory for solver %s, found none\n", spec->name);
        rc = EX_OSERR;
    } else if (tr.overflow || nx != r.st.expanded) {
        fprintf(stderr,
                CMD ": %s: expected its recording to agree with its counters (%llu expanded), found "
                    "%llu expand events%s: an internal error; nothing written\n",
                spec->name, (unsigned long long)r.st.expanded, (unsigned long long)nx,
                tr.overflow ? " and an overflow" : "");
        rc = EX_SOFTWARE;
    } else {
        char kv[256];
        snprintf(kv, sizeof kv, "queue=bheap model=%s heuristic=%s wg=%g wh=%g", gb_model_name(o->model),
                 gb_heur_name(spec->heur), spec->wg, spec->wh);
        gb_tracefile_search(f, g, spec->name, kv, &tr, &r);
    }
    gb_free(tr.ev);
    return rc;
}

/* The user solver u on (s, t), in this process, with its gb_user_trace_*
 * calls recorded (growing up to --max-mem): its path is validated, its
 * expansions checked against its own counter when it keeps one. */
static int record_user(const gb_user_solver *u, const gb_grid *g, const trace_opts *o, int32_t s,
                       int32_t t, FILE *f)
{
    int32_t *path = gb_malloc((size_t)g->ncells * sizeof *path);
    gb_xy *xy = gb_malloc((size_t)g->ncells * sizeof *xy);
    gb_trace tr = { NULL, 0, 0, 0 };
    int rc = 0;
    if (!path || !xy) {
        fprintf(stderr, CMD ": expected memory for a path of %s, found none\n", u->name);
        rc = EX_OSERR;
    } else if (gb_user_prepare(u, g, o->model) != 0) {
        fprintf(stderr, CMD ": %s: expected its prepare hook to succeed, found a failure\n", u->name);
        rc = EX_SOFTWARE;
    }
    gb_result r;
    memset(&r, 0, sizeof r);
    int32_t n = -1;
    if (!rc) {
        gb_user_trace_attach(&tr, (size_t)(o->max_mem / sizeof(gb_trace_ev)));
        n = u->solve(u->ctx, g, o->model, s, t, path, g->ncells, &r.st);
        gb_user_trace_attach(NULL, 0);
        gb_user_release(u);
    }
    uint64_t nx = 0;
    for (size_t i = 0; i < tr.n; i++) nx += tr.ev[i].kind == GB_TR_EXP;
    if (!rc && (n < 0 || n > g->ncells)) {
        fprintf(stderr, CMD ": %s: expected a path or none, found %s\n", u->name,
                n < 0 ? "an internal error of the solver" : "more cells than the grid has");
        rc = EX_SOFTWARE;
    } else if (!rc && tr.overflow) {
        fprintf(stderr,
                CMD
                ": %s: expected a trace that fits --max-mem (%llu bytes), found more events; nothing "
                "written\n",
                u->name, (unsigned long long)o->max_mem);
        rc = EX_USAGE;
    } else if (!rc && r.st.expanded && nx != r.st.expanded) {
        fprintf(stderr,
                CMD ": %s: expected as many gb_user_trace_expand calls as its expanded counter (%llu), "
                    "found %llu; nothing written\n",
                u->name, (unsigned long long)r.st.expanded, (unsigned long long)nx);
        rc = EX_SOFTWARE;
    }
    if (!rc && n > 0) { /* the path's cost, and its legality */
        double c = 0;
        for (int32_t i = 0; i < n; i++) {
            xy[i] = (gb_xy){ gb_grid_x(g, path[i]), gb_grid_y(g, path[i]) };
            if (i) c += xy[i].x != xy[i - 1].x && xy[i].y != xy[i - 1].y ? GB_SQRT2 : 1.0;
        }
        gb_check chk;
        const gb_xy sxy = { gb_grid_x(g, s), gb_grid_y(g, s) },
                    txy = { gb_grid_x(g, t), gb_grid_y(g, t) };
        if (!gb_validate_path(g, o->model, sxy, txy, xy, (size_t)n, c, &chk)) {
            fprintf(stderr, CMD ": %s: expected a legal path from start to goal, found: %s\n", u->name,
                    chk.msg);
            rc = EX_DATAERR;
        }
        r.cost = c;
    }
    if (!rc) {
        if (!tr.n)
            fprintf(stderr,
                    CMD ": note: %s recorded no step (it does not call gb_user_trace_*): the page shows "
                        "its path only\n",
                    u->name);
        r.status = n > 0 ? GB_FOUND : GB_UNREACHABLE;
        r.path = path;
        r.path_len = n;
        if (!r.st.expanded) r.st.expanded = nx;
        char kv[128];
        snprintf(kv, sizeof kv, "queue=none model=%s", gb_model_name(o->model));
        gb_tracefile_search(f, g, u->name, kv, &tr, &r);
    }
    gb_free(tr.ev);
    gb_free(path);
    gb_free(xy);
    return rc;
}

/* PREFIX.trace (text of len bytes; not with --from) and PREFIX.html, both
 * or neither. */
static int write_outputs(const char *prefix, int with_trace, int n, const char *const *names,
                         const char *const *texts, const size_t *lens)
{
    char path[2][4200], tmp[2][4300];
    gb_diag d;
    gb_diag_clear(&d);
    if ((size_t)snprintf(path[0], sizeof path[0], "%s.trace", prefix) >= sizeof path[0]
        || (size_t)snprintf(path[1], sizeof path[1], "%s.html", prefix) >= sizeof path[1])
        return usage_err("--out: expected a shorter prefix, found %s", "a longer one");
    int rc = 0, done = 0;
    for (int k = with_trace ? 0 : 1; k < 2 && !rc; k++) {
        FILE *f = gb_tmp_open(path[k], tmp[k], sizeof tmp[k], &d);
        if (!f) {
            rc = report(&d);
            break;
        }
        if (k == 0) fwrite(texts[0], 1, lens[0], f);
        else if (gb_viewer_write(f, n, names, texts, lens) != 0) {
            gb_tmp_abort(f, tmp[k]);
            fprintf(stderr, CMD ": expected a trace without '</' and a viewer page with its mark, found "
                                "otherwise; nothing written\n");
            rc = EX_SOFTWARE;
            break;
        }
        if (gb_tmp_close(f, tmp[k], &d) != 0) {
            rc = report(&d);
            break;
        }
        done |= 1 << k;
    }
    for (int k = 0; k < 2; k++) {
        if (!(done >> k & 1)) continue;
        if (rc) gb_tmp_abort(NULL, tmp[k]);
        else if (gb_tmp_rename(tmp[k], path[k], &d) != 0) rc = report(&d);
    }
    return rc;
}

/* --from: check each file, then one page with all of them. */
static int trace_from(const trace_opts *o)
{
    char *text[MAX_FROM] = { 0 };
    size_t len[MAX_FROM] = { 0 };
    const char *names[MAX_FROM];
    gb_diag d;
    gb_diag_clear(&d);
    int rc = 0, n = 0;
    long searches = 0;
    for (; n < o->nfrom && !rc; n++) {
        gb_tracefile_info info;
        names[n] = base_name(o->from[n]);
        rc = gb_read_file(o->from[n], &text[n], &len[n], &d);
        if (!rc) rc = gb_tracefile_check(o->from[n], text[n], len[n], &info, &d);
        if (rc) rc = report(&d);
        searches += info.searches;
    }
    if (!rc) rc = write_outputs(o->out, 0, n, names, (const char *const *)text, len);
    if (!rc) fprintf(stderr, CMD ": %d traces checked (%ld searches) -> %s.html\n", n, searches, o->out);
    for (int i = 0; i < o->nfrom; i++) gb_free(text[i]);
    return rc;
}

/* Search with each solver; write the trace and the page. */
static int trace_search(trace_opts *o)
{
    gb_diag d;
    gb_diag_clear(&d);
    gb_map map;
    memset(&map, 0, sizeof map);
    gb_query q;
    char mname[1024];
    char mpath[1024];
    int rc = gb_cli_query(o->scen, o->line, o->longest, o->map, &map, &q, mpath, sizeof mpath, &d);
    if (rc) {
        gb_map_free(&map);
        return report(&d);
    }
    snprintf(mname, sizeof mname, "%s", base_name(mpath));
    const gb_grid *g = &map.grid;
    static tsolver sv[MAX_SOLVERS];
    int ns = 0;
    if ((rc = parse_solvers(o, g, sv, &ns)) != 0) {
        gb_map_free(&map);
        return rc;
    }
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    gb_ws *ws = gb_ws_new(g, o->model);
    if (!f || !ws) {
        fprintf(stderr, CMD ": expected memory for a %dx%d map, found none\n", g->width, g->height);
        rc = EX_OSERR;
    }
    if (!rc) gb_tracefile_head(f, mname, &map, &q);
    const int32_t s = gb_grid_id(g, q.sx, q.sy), t = gb_grid_id(g, q.gx, q.gy);
    for (int i = 0; i < ns && !rc; i++)
        rc =
            sv[i].user ? record_user(sv[i].user, g, o, s, t, f) : record(ws, g, &sv[i].spec, o, s, t, f);
    if (f && fclose(f) != 0 && !rc) {
        fprintf(stderr, CMD ": expected memory for the trace's text, found none\n");
        rc = EX_OSERR;
    }
    const char *names[1] = { mname };
    if (!rc) rc = write_outputs(o->out, 1, 1, names, (const char *const *)&text, &len);
    if (!rc)
        fprintf(stderr, CMD ": %s line %ld, %d searches (%zu bytes) -> %s.trace, %s.html\n",
                base_name(o->scen), q.line, ns, len, o->out, o->out);
    free(text); /* open_memstream's buffer is the C library's */
    gb_ws_free(ws);
    gb_map_free(&map);
    return rc;
}

int gb_cmd_trace(int argc, char **argv)
{
    trace_opts o;
    int help = 0;
    int rc = trace_parse(argc, argv, &o, &help);
    if (rc) return rc;
    if (help) {
        gb_opt_help(&gb_doc_trace, stdout);
        return 0;
    }
    if ((rc = trace_check_opts(&o)) != 0) return rc;
    if ((rc = load_plugins(&o)) != 0) return rc;
    return o.nfrom ? trace_from(&o) : trace_search(&o);
}
