/*
 * gb_cmd_dynamic.c -- `gridbench dynamic`: replay dynamic scenarios
 * (docs/dynamic.md) with an agent that plans, moves, sees the map change
 * and replans, once with D* Lite (repairing its search) and, at the same
 * moments on the same map, with A* from scratch; every plan of both is
 * checked against Dijkstra on the map as it is then.  One CSV row per
 * query.
 *
 * The replay itself, its checks and what is timed are gb_dynreplay.h's;
 * this file reads the options and the files and writes the rows (and,
 * with --trace, the trace of gb_dyntrace.h).  Both outputs are written
 * to temporary files and renamed together at the end, or not at all.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gb_alloc.h"
#include "gb_cmd.h"
#include "gb_dynreplay.h"
#include "gb_dynscen.h"
#include "gb_dyntrace.h"
#include "gb_map.h"
#include "gb_opt.h"
#include "gb_search.h"
#include "gb_terrain.h"
#include "gb_tfile.h"

#define CMD "gridbench dynamic"

/* The CSV header: one row per query (append-only, a public contract). */
#define DYN_HEADER \
    "file,query,line,map,model,astar,sx,sy,gx,gy,events,status,steps,travelled," \
    "first_cost,cells_changed,dropped,plans,replans," \
    "dstar_first_ns,dstar_replan_ns,dstar_first_expanded,dstar_replan_expanded," \
    "astar_first_ns,astar_replan_ns,astar_first_expanded,astar_replan_expanded," \
    "replan_speedup,message,dstar_replan_pops,dstar_replan_updates"

static const gb_opt dynamic_opts[] = {
    { 'o', 'o', "out", "FILE", "CSV output (temporary file, then renamed)" },
    { 'm', 'm', "model", "M",
      "movement model: 8-nocut (default), 8-cut1, 8-cutall, 4, "
      "8-nocut-water (docs/terrain.md)" },
    GB_OPT_TERRAIN_COSTS('c' + 256),
    { 'a', 'a', "astar", "S",
      "the from-scratch baseline: any optimal solver of `gridbench list` "
      "(default astar-octile); a family with per-map tables (jps+, sg) rebuilds them inside its "
      "timed replans, since the map changed" },
    { 'Q', 'Q', "queue", "Q", "its queue (default bheap)" },
    { 'n', 'n', "max-queries", "N", "replay at most the first N queries of each file" },
    { 't', 't', "trace", "FILE",
      "also write every event applied, every D* Lite plan and every move "
      "of the agent, one line each, keyed by query like the CSV rows (docs/dynamic.md, \"Trace\"), "
      "so that a run can be re-checked without gridbench" },
    { 'q', 'q', "quiet", NULL, "no progress on stderr" },
    { 'h', 'h', "help", NULL, "this text" },
    { 0, 0, NULL, NULL, NULL }
};

const gb_cmd_doc gb_doc_dynamic = {
    "dynamic",
    "[OPTIONS] --out FILE.csv DSCEN...",
    "replay dynamic scenarios: D* Lite against A* from scratch, every plan checked",
    "Replay dynamic scenarios (docs/dynamic.md): an agent plans, moves one cell per step, sees "
    "cells become blocked or free, and replans -- with D* Lite (dstar-lite: the search is kept and "
    "repaired) and, at the same moments on the same map, with A* from scratch.  Every plan is "
    "validated on the map as it is then and its cost checked against Dijkstra.  One CSV row per "
    "query.\n\n"
    "Under --terrain-costs (models 8-nocut and 4) D* Lite, the baseline and Dijkstra search the "
    "weighted map with exact costs; an event that blocks a cell makes it impassable, one that "
    "frees it gives it back its letter's cost, or the cost of ground '.' for a cell the map "
    "blocks (such a cell stays blocked when '.' is impassable).  --trace is not available then: "
    "its lines carry no costs.",
    dynamic_opts,
    NULL,
    "gridbench gen --dynamic --map M.map --queries 20 --seed 1 --out M.dscen\n"
    "gridbench dynamic --out dyn.csv M.dscen",
    "0 every plan checked; 1 a plan was wrong (status 'wrong'); 64 bad usage; 65 bad input; 66 "
    "missing input; 71 out of memory; 73/74 cannot write."
};

static void csv_text(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

/* Totals over the whole run, for the closing line. */
typedef struct dyn_total {
    long queries, wrong, replans;
    double *ratio;           /* per-query replan_speedup, for the median */
    size_t nratio, capratio;
    int64_t ds_ns, as_ns;
    uint64_t ds_exp, as_exp;
} dyn_total;

/* Replay every query of one file, rows to out, the trace to tr (NULL:
 * none).  0, or a sysexits code after printing why. */
static int run_file(const char *path, gb_model model, const gb_terrain *terrain,
                    const gb_solver_spec *astar, gb_queue_kind queue, long maxq, int quiet, FILE *out,
                    gb_dyntrace *tr, dyn_total *tot)
{
    gb_diag d;
    gb_dynscen s;
    int rc = gb_dynscen_load(path, &s, &d);
    if (rc) { fputs(CMD ": ", stderr); gb_diag_print(&d, stderr); return rc; }
    char mp[4096];
    gb_map map;
    memset(&map, 0, sizeof map);
    rc = gb_dynscen_resolve_map(&s, mp, sizeof mp, &d);
    if (!rc) rc = gb_map_load(mp, &map, &d);
    if (rc) {
        fputs(CMD ": ", stderr);
        gb_diag_print(&d, stderr);
        gb_dynscen_free(&s);
        return rc;
    }
    const gb_grid *g = &map.grid;
    if (gb_terrain_apply(terrain, map.terrain, &map.grid) != 0) {
        fprintf(stderr, CMD ": %s: expected memory for the terrain costs, found none\n", mp);
        gb_map_free(&map);
        gb_dynscen_free(&s);
        return EX_OSERR;
    }
    if (model == GB_MODEL_8_NOCUT_WATER && gb_grid_water(&map.grid, map.terrain) != 0) {
        fprintf(stderr, CMD ": %s: expected memory for the water cells, found none\n", mp);
        gb_map_free(&map);
        gb_dynscen_free(&s);
        return EX_OSERR;
    }
    /* a cell the map blocks takes the cost of ground '.' when freed */
    gb_dynrep *rep = gb_dynrep_new(&map.grid, model, astar, queue, terrain->on ? terrain->q[0] : 0);
    if (!rep) {
        fprintf(stderr, CMD ": %s: expected memory for the searches, found none\n", mp);
        gb_map_free(&map);
        gb_dynscen_free(&s);
        return EX_OSERR;
    }
    if (tr) gb_dyntrace_file(tr, path, mp, g, model);
    size_t n = s.n;
    if (maxq > 0 && (size_t)maxq < n) n = (size_t)maxq;
    if (!quiet)
        fprintf(stderr, CMD ": %s: %zu queries on %s (%dx%d, %s%s%s)\n", path, n, mp, (int)g->width,
                (int)g->height, gb_model_name(model), terrain->on ? "+" : "", terrain->name);
    for (size_t i = 0; i < n && rc == 0; i++) {
        rc = gb_dynscen_check_query(&s, i, &map, &d);
        if (rc) { fputs(CMD ": ", stderr); gb_diag_print(&d, stderr); break; }
        const gb_dyn_query *q = &s.q[i];
        gb_dynrep_row row;
        gb_dynrep_obs obs;
        if (tr) {
            gb_dyntrace_query(tr, i + 1, q);
            obs = gb_dyntrace_obs(tr);
        }
        rc = gb_dynrep_query(rep, &s, i, tr ? &obs : NULL, &row);
        if (rc) { fprintf(stderr, CMD ": out of memory\n"); break; }
        if (tr) gb_dyntrace_end(tr, &row);
        int64_t replans = row.plans - 1;
        csv_text(out, path);
        fprintf(out, ",%zu,%ld,", i + 1, q->line);
        csv_text(out, s.map_field);
        fprintf(out,
                ",%s%s%s,%s,%d,%d,%d,%d,%zu,%s,%lld,%.8f,%.8f,%lld,%lld,%lld,%lld,"
                "%lld,%lld,%llu,%llu,%lld,%lld,%llu,%llu,",
                gb_model_name(model), terrain->on ? "+" : "", terrain->name, astar->name, (int)q->sx,
                (int)q->sy, (int)q->gx, (int)q->gy, q->nev, row.status, (long long)row.steps,
                row.travelled, row.first_cost, (long long)row.cells_changed, (long long)row.dropped,
                (long long)row.plans, (long long)replans, (long long)row.ds.first_ns,
                (long long)row.ds.replan_ns, (unsigned long long)row.ds.first_exp,
                (unsigned long long)row.ds.replan_exp, (long long)row.as.first_ns,
                (long long)row.as.replan_ns, (unsigned long long)row.as.first_exp,
                (unsigned long long)row.as.replan_exp);
        if (replans > 0 && row.ds.replan_ns > 0) {
            double ratio = (double)row.as.replan_ns / (double)row.ds.replan_ns;
            fprintf(out, "%.4f", ratio);
            if (tot->nratio == tot->capratio) {
                size_t ncap = tot->capratio ? 2 * tot->capratio : 64;
                double *p = gb_realloc(tot->ratio, ncap * sizeof *p);
                if (p) { tot->ratio = p; tot->capratio = ncap; }
            }
            if (tot->nratio < tot->capratio) tot->ratio[tot->nratio++] = ratio;
        }
        fputc(',', out);
        csv_text(out, row.msg);
        fprintf(out, ",%llu,%llu\n", (unsigned long long)row.ds.replan_pops,
                (unsigned long long)row.ds.replan_updates);
        tot->queries++;
        tot->replans += replans;
        tot->ds_ns += row.ds.replan_ns;
        tot->as_ns += row.as.replan_ns;
        tot->ds_exp += row.ds.replan_exp;
        tot->as_exp += row.as.replan_exp;
        if (row.msg[0]) {
            tot->wrong++;
            fprintf(stderr, CMD ": %s:%ld: wrong: %s\n", path, q->line, row.msg);
        }
        if (!quiet && ((i + 1) % 10 == 0 || i + 1 == n))
            fprintf(stderr, CMD ": %s: %zu/%zu queries, %ld replans so far\n", path, i + 1, n,
                    tot->replans);
    }
    gb_dynrep_free(rep);
    gb_map_free(&map);
    gb_dynscen_free(&s);
    return rc;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* ---- the command, in stages -----------------------------------------
 *
 * dyn_parse (argv -> dyn_cli through the option table) -> dyn_check (the
 * solver, the queue, the model, the outputs against the inputs) -> every
 * file replayed into the temporary outputs -> dyn_commit (both outputs,
 * or neither) -> dyn_said (the totals on stderr). */

typedef struct dyn_cli {
    const char *out, *trace, *astar_name, *queue_name;
    gb_model model;
    gb_terrain terrain;
    long maxq;
    int quiet, help;
    gb_solver_spec sp; /* --astar, parsed by dyn_check */
    int qk;            /* --queue, likewise */
} dyn_cli;

static int dyn_option(dyn_cli *o, int c, const char *arg)
{
    switch (c) {
    case 'o': o->out = arg; return 0;
    case 'm': return gb_cli_model(CMD, arg, &o->model);
    case 'c' + 256: {
        gb_diag td;
        gb_diag_clear(&td);
        int e = gb_tfile_arg(arg, &o->terrain, &td);
        if (e) {
            fputs(CMD ": ", stderr);
            gb_diag_print(&td, stderr);
        }
        return e;
    }
    case 'a': o->astar_name = arg; return 0;
    case 'Q': o->queue_name = arg; return 0;
    case 'n': {
        char *end;
        errno = 0;
        o->maxq = strtol(arg, &end, 10);
        if (errno || *end || end == arg || o->maxq < 1 || arg[0] < '0' || arg[0] > '9') {
            fprintf(stderr, CMD ": --max-queries: expected a positive integer, found '%s'\n", arg);
            return EX_USAGE;
        }
        return 0;
    }
    case 't': o->trace = arg; return 0;
    case 'q': o->quiet = 1; return 0;
    case 'h': o->help = 1; return 0;
    default: return EX_USAGE; /* gb_opt_next said why */
    }
}

static int dyn_parse(int argc, char **argv, dyn_cli *o)
{
    o->astar_name = "astar-octile";
    o->queue_name = "bheap";
    o->model = GB_MODEL_8_NOCUT;
    const char *arg;
    int c, rc = 0;
    gb_opt_parser op;
    if (gb_opt_begin(&op, &gb_doc_dynamic) != 0) return EX_OSERR;
    while (!rc && !o->help && (c = gb_opt_next(&op, argc, argv, &arg)) != -1) rc = dyn_option(o, c, arg);
    gb_opt_end(&op);
    return rc;
}

/* The rules between options, the solver and the queue: 0, or a code
 * after saying why. */
static int dyn_check(dyn_cli *o, int argc, char **argv)
{
    if (!o->out) {
        fprintf(stderr, CMD ": expected --out FILE, found none (see `gridbench dynamic --help`)\n");
        return EX_USAGE;
    }
    if (optind >= argc) {
        fprintf(stderr, CMD ": expected one or more dynamic scenario files, found none\n");
        return EX_USAGE;
    }
    char err[512];
    if (gb_solver_parse(o->astar_name, &o->sp, err, sizeof err) != 0) {
        fprintf(stderr, CMD ": --astar: %s\n", err);
        return EX_USAGE;
    }
    if (o->terrain.on && o->model != GB_MODEL_8_NOCUT && o->model != GB_MODEL_4) {
        fprintf(stderr, CMD ": --terrain-costs: expected model 8-nocut or 4, found %s\n",
                gb_model_name(o->model));
        return EX_USAGE;
    }
    if (o->terrain.on && o->trace) {
        fprintf(stderr,
                CMD ": --trace: expected no --terrain-costs (the trace carries no costs), found %s\n",
                o->terrain.name);
        return EX_USAGE;
    }
    double bound;
    if (gb_solver_guarantee(&o->sp, o->model, &bound) != GB_GUAR_OPTIMAL
        || gb_solver_unsupported_w(&o->sp, o->model, o->terrain.on, err, sizeof err)) {
        fprintf(stderr,
                CMD ": --astar: expected an optimal solver that runs under model %s%s%s, found '%s'\n",
                gb_model_name(o->model), o->terrain.on ? "+" : "", o->terrain.name, o->astar_name);
        return EX_USAGE;
    }
    if ((o->qk = gb_queue_from_name(o->queue_name)) < 0) {
        char names[512];
        gb_queue_names(names, sizeof names);
        fprintf(stderr, CMD ": --queue: expected one of %s, found '%s'\n", names, o->queue_name);
        return EX_USAGE;
    }
    if (o->trace && strcmp(o->trace, o->out) == 0) {
        fprintf(stderr, CMD ": --trace: expected a file other than --out, found '%s'\n", o->trace);
        return EX_USAGE;
    }
    gb_diag d;
    gb_diag_clear(&d);
    if (gb_out_check(o->out, argv + optind, argc - optind, &d) != 0
        || (o->trace
            && (gb_out_check(o->trace, argv + optind, argc - optind, &d) != 0
                || gb_out_check(o->trace, (char *const *)&o->out, 1, &d) != 0))) {
        fputs(CMD ": ", stderr);
        gb_diag_print(&d, stderr);
        return d.code;
    }
    return 0;
}

/* Both outputs (the CSV f, the trace tf or none) complete and renamed
 * into place, or neither: 0, or the code after saying why. */
static int dyn_commit(const dyn_cli *o, FILE *f, const char *tmp, FILE *tf, const char *ttmp)
{
    gb_diag d;
    gb_diag_clear(&d);
    int rc = 0;
    if (gb_tmp_close(f, tmp, &d) != 0) {
        if (tf) gb_tmp_abort(tf, ttmp);
        rc = d.code;
    } else if (tf && gb_tmp_close(tf, ttmp, &d) != 0) {
        gb_tmp_abort(NULL, tmp);
        rc = d.code;
    } else if ((tf && gb_tmp_rename(ttmp, o->trace, &d) != 0)) {
        gb_tmp_abort(NULL, tmp);
        rc = d.code;
    } else if (gb_tmp_rename(tmp, o->out, &d) != 0) {
        rc = d.code;
    }
    if (rc) {
        fputs(CMD ": ", stderr);
        gb_diag_print(&d, stderr);
    }
    return rc;
}

/* The totals of the replay, on stderr. */
static void dyn_said(const dyn_cli *o, dyn_total *tot)
{
    /* no replans, no ratio and no array: qsort(NULL, 0) is undefined */
    if (tot->nratio > 1) qsort(tot->ratio, tot->nratio, sizeof *tot->ratio, cmp_double);
    if (o->quiet) return;
    fprintf(stderr, CMD ": wrote %s: %ld queries, %ld wrong, %ld replans\n", o->out, tot->queries,
            tot->wrong, tot->replans);
    if (o->trace) fprintf(stderr, CMD ": wrote the trace %s\n", o->trace);
    if (tot->replans > 0 && tot->ds_ns > 0) {
        fprintf(
            stderr,
            CMD
            ": replanning: D* Lite %.3f ms, %llu expansions; %s from scratch %.3f ms, %llu expansions; "
            "speed-up %.2fx time",
            (double)tot->ds_ns / 1e6, (unsigned long long)tot->ds_exp, o->sp.name,
            (double)tot->as_ns / 1e6, (unsigned long long)tot->as_exp,
            (double)tot->as_ns / (double)tot->ds_ns);
        if (tot->ds_exp > 0)
            fprintf(stderr, ", %.2fx expansions", (double)tot->as_exp / (double)tot->ds_exp);
        fputc('\n', stderr);
    }
    if (tot->nratio > 0)
        fprintf(stderr,
                CMD
                ": per-query replan_speedup: median %.2fx over %zu queries with replans (robust to a "
                "busy machine's outliers)\n",
                tot->nratio % 2 ? tot->ratio[tot->nratio / 2]
                                : (tot->ratio[tot->nratio / 2 - 1] + tot->ratio[tot->nratio / 2]) / 2,
                tot->nratio);
}

int gb_cmd_dynamic(int argc, char **argv)
{
    static dyn_cli o;
    memset(&o, 0, sizeof o);
    int rc = dyn_parse(argc, argv, &o);
    if (rc) return rc;
    if (o.help) {
        gb_opt_help(&gb_doc_dynamic, stdout);
        return 0;
    }
    if ((rc = dyn_check(&o, argc, argv)) != 0) return rc;
    gb_diag d;
    gb_diag_clear(&d);
    char tmp[4200], ttmp[4200];
    FILE *f = gb_tmp_open(o.out, tmp, sizeof tmp, &d), *tf = NULL;
    if (f && o.trace && !(tf = gb_tmp_open(o.trace, ttmp, sizeof ttmp, &d))) gb_tmp_abort(f, tmp);
    if (!f || (o.trace && !tf)) {
        fputs(CMD ": ", stderr);
        gb_diag_print(&d, stderr);
        return d.code;
    }
    fputs(DYN_HEADER "\n", f);
    gb_dyntrace tr;
    if (tf) gb_dyntrace_begin(&tr, tf);
    dyn_total tot;
    memset(&tot, 0, sizeof tot);
    for (int i = optind; i < argc && rc == 0; i++)
        rc = run_file(argv[i], o.model, &o.terrain, &o.sp, (gb_queue_kind)o.qk, o.maxq, o.quiet, f,
                      tf ? &tr : NULL, &tot);
    if (rc) {
        gb_tmp_abort(f, tmp);
        if (tf) gb_tmp_abort(tf, ttmp);
    } else if ((rc = dyn_commit(&o, f, tmp, tf, ttmp)) == 0) {
        dyn_said(&o, &tot);
        rc = tot.wrong ? 1 : 0;
    }
    gb_free(tot.ratio);
    return rc;
}
