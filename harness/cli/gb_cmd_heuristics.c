/*
 * gb_cmd_heuristics.c -- `gridbench heuristics`: check heuristics for
 * admissibility, consistency and informedness against exact distances
 * (harness/check/gb_heurval.h), write one CSV row per (heuristic, weight, goal),
 * and print a verdict per heuristic that is compared with what the
 * registry (GB_HEUR_LIST) claims.
 *
 * Data flow: options -> map (+ scenario) -> goal ids -> for each goal one
 * reverse Dijkstra (gb_hv_set_goal) and one gb_hv_eval per heuristic ->
 * CSV row + running aggregate per heuristic (struct agg) -> verdict table.
 * Landmark tables for diff:k=K are built once, before the first goal, so
 * that their preprocessing time is measured alone.
 *
 * Output files go through gb_tmp_open / gb_tmp_commit (temp + rename); a
 * signal while running removes the temporaries.
 *
 * Where things go: the verdict table (one line per heuristic under the
 * model) on stdout; with --out FILE the CSV in FILE; with --out - the CSV
 * on stdout and the table on stderr; without --out no CSV at all (43
 * columns per goal bury the verdict).  A failed --require-* names each
 * heuristic that failed it on stderr.
 *
 * --verdicts FILE: the verdict table as CSV, one row per heuristic (x
 * weight) under the model, for `scripts/report.sh --heuristics-verdicts`:
 *   map, model, heuristic, weight, goals, verdict, inadmissible_cells,
 *   max_over, inconsistent_edges, max_violation, mean_ratio, registry
 * (verdict: admissible+consistent, admissible, consistent or neither;
 * registry: agrees, agrees*, no claim..., WRONG: claims ...).
 *
 * CSV (one row per heuristic x goal, header first):
 *   map, model, heuristic, weight, goal_x, goal_y, reachable, eccentricity,
 *   tol, inadmissible_cells, max_over, max_over_ratio, over_x, over_y,
 *   edges, inconsistent_edges, max_violation, viol_x1, viol_y1, viol_x2,
 *   viol_y2, mean_ratio, ratio_cells, ratio_bin_00 .. ratio_bin_19,
 *   ratio_bin_over
 * "None" is 0 for max_over / max_over_ratio / max_violation and -1 for the
 * example coordinates.  --hist FILE: one row per heuristic x distance
 * bucket, pooled over all goals:
 *   heuristic, weight, bucket, lo, hi, mean_ratio, cells
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gb_alloc.h"
#include "gb_cmd.h"
#include "gb_csv.h"
#include "gb_heurval.h"
#include "gb_map.h"
#include "gb_scen.h"
#include "gb_tfile.h"


#define CMD "gridbench heuristics"
#define MAX_SPECS 64

static const char csv_header[] =
    "map,model,heuristic,weight,goal_x,goal_y,reachable,eccentricity,tol,"
    "inadmissible_cells,max_over,max_over_ratio,over_x,over_y,edges,"
    "inconsistent_edges,max_violation,viol_x1,viol_y1,viol_x2,viol_y2,"
    "mean_ratio,ratio_cells";

enum { OPT_HIST = 256, OPT_REQ_ADM, OPT_REQ_CONS, OPT_VERDICTS, OPT_TERRAIN };

static const gb_opt heur_opts[] = {
    { 'H', 'H', "heuristic", "SPEC", "NAME[:k=K][:w=W]; NAME one of zero, manhattan, octile, "
      "euclidean, chebyshev, or diff (differential heuristic, K landmarks, default 8); W the weight "
      "(default 1).  Repeatable and comma-separated; 'all' = every built-in plus diff:k=8 (the "
      "default)" },
    { 'm', 'm', "model", "NAME", "movement model (default 8-nocut)" },
    { OPT_TERRAIN, 0, "terrain-costs", "COSTS", "terrain cost model, inline ('S=3,W=5,T=inf') or "
      "a costs file (docs/terrain.md); h* and the moves' costs follow it, and every built-in "
      "heuristic is checked twice: unscaled (weight W) and scaled by the cheapest terrain cost "
      "(weight W x cmin), the form the searches use" },
    { 'g', 'g', "goals", "N", "goals sampled from the passable cells (default 8); with --scen: at "
      "most N distinct scenario goals (default all of them)" },
    { 'S', 'S', "scen", "FILE", "take the goals from FILE (distinct, in file order; blocked goals "
      "skipped); MAP defaults to its map" },
    { 's', 's', "seed", "S", "seed of the goal sample (default 1)" },
    { 'o', 'o', "out", "FILE", "the per-goal CSV, written to a temporary file and renamed at the "
      "end; '-' writes it to standard output and the verdicts to stderr.  Without --out no CSV is "
      "written and the verdicts go to standard output" },
    { OPT_HIST, 0, "hist", "FILE", "also write mean w h / h* per distance bucket: "
      "heuristic,weight,bucket,lo,hi,mean_ratio,cells" },
    { OPT_VERDICTS, 0, "verdicts", "FILE", "also write the verdict table as CSV, one row per "
      "heuristic with the columns map, model, heuristic, weight, goals, verdict, "
      "inadmissible_cells, max_over, inconsistent_edges, max_violation, mean_ratio, registry; "
      "scripts/report.sh shows it as a table in the report" },
    { OPT_REQ_ADM, 0, "require-admissible", NULL, "exit 1 when any heuristic overestimates" },
    { OPT_REQ_CONS, 0, "require-consistent", NULL, "exit 1 when any heuristic is inconsistent" },
    { 'q', 'q', "quiet", NULL, "no progress on stderr" },
    { 'h', 'h', "help", NULL, "this text" },
    { 0, 0, NULL, NULL, NULL }
};

const gb_cmd_doc gb_doc_heuristics = {
    "heuristics", "[OPTIONS] MAP\n[OPTIONS] --scen FILE [MAP]",
    "check heuristics for admissibility, consistency and informedness against exact distances",
    "Check heuristics against the exact distance h* to a set of goals (one reverse Dijkstra per "
    "goal) over every reachable cell of MAP:\n"
    "  admissible    w h(n) <= h*(n) + tol at every reachable cell n\n"
    "  consistent    w h(n) <= c(n,n') + w h(n') + tol over every legal move\n"
    "  informedness  w h / h*: mean, histogram (20 bins over [0,1] + overflow),\n"
    "                mean per distance bucket floor(h*/4) (--hist)\n"
    "  tol = 16 * DBL_EPSILON * max(w,1) * max(E,1)^2, E = the goal's largest h*\n"
    "Prints one line per heuristic with its verdict under the model, compared with what the "
    "registry (`gridbench list`) claims; with --out, also one CSV row per (heuristic, goal).",
    heur_opts, NULL,
    "gridbench heuristics ../shared/movingai/mazes/maze512-4-0.map \\\n"
    "    --heuristic octile,octile:w=1.5,diff:k=8 --goals 4 --out heur.csv",
    "0 done (whatever the verdicts); 1 a --require-* check failed (stderr names each heuristic "
    "that failed it); 64-78 bad usage or input (sysexits.h)."
};



/* ---- helpers ---------------------------------------------------------- */
static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

static int parse_u64(const char *opt, const char *s, unsigned long long *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s || *end || s[0] == '-') {
        fprintf(stderr, CMD ": %s: expected a non-negative integer, found '%s'\n", opt, s);
        return EX_USAGE;
    }
    *out = v;
    return 0;
}

/* Add spec s unless an equal (name, weight) one is there already. */
static int add_spec(gb_hv_spec *specs, int *n, const gb_hv_spec *s)
{
    for (int i = 0; i < *n; i++)
        if (strcmp(specs[i].name, s->name) == 0 && specs[i].weight == s->weight) return 0;
    if (*n >= MAX_SPECS) {
        fprintf(stderr, CMD ": --heuristic: expected at most %d heuristics, found more\n", MAX_SPECS);
        return EX_USAGE;
    }
    specs[(*n)++] = *s;
    return 0;
}

/* Split one --heuristic argument at commas and add its specs. */
static int add_spec_list(gb_hv_spec *specs, int *n, const char *arg)
{
    const char *p = arg;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        char tok[128], err[256];
        if (len == 0 || len >= sizeof tok) {
            fprintf(stderr, CMD ": --heuristic: expected NAME[:k=K][:w=W], found '%.*s' in '%s'\n",
                    (int)(len < 60 ? len : 60), p, arg);
            return EX_USAGE;
        }
        memcpy(tok, p, len);
        tok[len] = '\0';
        int rc;
        gb_hv_spec s;
        if (strcmp(tok, "all") == 0) {
            for (int h = 0; h < GB_H_NSIMPLE; h++) {
                gb_hv_spec_builtin(&s, (gb_heur)h, 1.0);
                if ((rc = add_spec(specs, n, &s)) != 0) return rc;
            }
            gb_hv_spec_diff(&s, GB_HV_DEFAULT_K, 1.0);
            if ((rc = add_spec(specs, n, &s)) != 0) return rc;
        } else {
            if (gb_hv_parse(tok, &s, err, sizeof err) != 0) {
                fprintf(stderr, CMD ": --heuristic: %s\n", err);
                return EX_USAGE;
            }
            if ((rc = add_spec(specs, n, &s)) != 0) return rc;
        }
        if (!comma) return 0;
        p = comma + 1;
    }
}

/* Per-heuristic totals over all goals. */
typedef struct agg {
    int64_t inadmissible, inconsistent, ratio_cells;
    int32_t goals_inadm, goals_incons;
    double ratio_sum;
    double max_over, max_violation;      /* worst over all goals */
    int32_t over_x, over_y, over_gx, over_gy;
    int32_t v_x1, v_y1, v_x2, v_y2, v_gx, v_gy;
    int32_t nbuckets;                    /* pooled distance buckets */
    double *bsum;
    int64_t *bcells;
} agg;

static int agg_add(agg *a, const gb_hv_result *r)
{
    if (r->inadmissible) {
        if (a->goals_inadm == 0 || r->max_over > a->max_over) {
            a->max_over = r->max_over;
            a->over_x = r->over_x; a->over_y = r->over_y;
            a->over_gx = r->goal_x; a->over_gy = r->goal_y;
        }
        a->goals_inadm++;
        a->inadmissible += r->inadmissible;
    }
    if (r->inconsistent) {
        if (a->goals_incons == 0 || r->max_violation > a->max_violation) {
            a->max_violation = r->max_violation;
            a->v_x1 = r->viol_x1; a->v_y1 = r->viol_y1;
            a->v_x2 = r->viol_x2; a->v_y2 = r->viol_y2;
            a->v_gx = r->goal_x; a->v_gy = r->goal_y;
        }
        a->goals_incons++;
        a->inconsistent += r->inconsistent;
    }
    a->ratio_cells += r->ratio_cells;
    a->ratio_sum += r->ratio_sum;
    if (r->nbuckets > a->nbuckets) {
        double *s = gb_realloc(a->bsum, (size_t)r->nbuckets * sizeof *s);
        if (s) a->bsum = s;
        int64_t *c = gb_realloc(a->bcells, (size_t)r->nbuckets * sizeof *c);
        if (c) a->bcells = c;
        if (!s || !c) return -1;
        for (int32_t b = a->nbuckets; b < r->nbuckets; b++) { s[b] = 0.0; c[b] = 0; }
        a->nbuckets = r->nbuckets;
    }
    for (int32_t b = 0; b < r->nbuckets; b++) {
        a->bsum[b] += r->bucket_sum[b];
        a->bcells[b] += r->bucket_cells[b];
    }
    return 0;
}

static void write_row(FILE *f, const char *map, const char *m, const gb_hv_spec *s,
                      const gb_hv_result *r)
{
    fprintf(f, "%s,%s,%s,%g,%d,%d,%d,%.10g,%.3g,%lld,%.10g,%.10g,%d,%d,%lld,%lld,%.10g,%d,%d,%d,%d,%.10g,%lld",
            map, m, s->name, s->weight, (int)r->goal_x, (int)r->goal_y,
            (int)r->reachable, r->ecc, r->tol, (long long)r->inadmissible, r->max_over,
            r->max_over_ratio, (int)r->over_x, (int)r->over_y, (long long)r->edges,
            (long long)r->inconsistent, r->max_violation, (int)r->viol_x1, (int)r->viol_y1,
            (int)r->viol_x2, (int)r->viol_y2, r->mean_ratio, (long long)r->ratio_cells);
    for (int b = 0; b <= GB_HV_NBINS; b++) fprintf(f, ",%lld", (long long)r->bins[b]);
    fputc('\n', f);
}

/* The registry's claim for s; under terrain costs of cheapest cost cmin
 * a built-in h is claimed for w h = (w / cmin) (cmin h), cmin h being
 * admissible and consistent wherever h is on uniform costs. */
static int claim(const gb_hv_spec *s, gb_model m, double cmin, int *adm, int *cons)
{
    gb_hv_spec u = *s;
    if (u.kind == GB_HV_BUILTIN) u.weight /= cmin;
    return gb_hv_claim(&u, m, adm, cons);
}

static const char *verdict_name(int adm, int cons)
{
    return adm && cons ? "admissible+consistent" : adm ? "admissible" : cons ? "consistent" : "neither";
}

/* ---- the command ------------------------------------------------------ */

/* ---- the command, in stages -----------------------------------------
 *
 * heur_parse (argv -> heur_cli through the option table) -> heur_check
 * (the rules between options) -> heur_inputs (scenario, map, terrain,
 * goals) -> heur_open (the output files, as temporaries) -> heur_eval
 * (every goal x heuristic, progress on stderr) -> heur_commit (the
 * histogram, the CSV) -> heur_verdicts (the table, its CSV) -> heur_explain
 * (the counterexamples, the registry's errors, --require-*).  One
 * heur_job holds what they share and heur_free releases it, whichever
 * stage stopped. */

typedef struct heur_cli {
    gb_hv_spec specs[MAX_SPECS];
    int nspecs;
    gb_model model;
    gb_terrain terrain;
    long long ngoals; /* --goals, -1: not given */
    unsigned long long seed;
    const char *scen_path, *out_path, *hist_path, *verd_path, *map_path;
    int req_adm, req_cons, quiet, csv_stdout, help;
} heur_cli;

typedef struct heur_job {
    heur_cli *o;
    gb_diag d;
    gb_map map;
    gb_scen scen;
    gb_hv *hv;
    int32_t *goals, ngoals, skipped;
    agg *aggs;
    FILE *out, *hist; /* out: the CSV (stdout with --out -), or NULL for none */
    char out_tmp[1100], hist_tmp[1100], map_buf[4096], mcol[256];
    double cmin; /* terrain: the map's cheapest cost (1 without) */
    const char *mname;
    int32_t rmin, rmax; /* reachable cells per goal */
    double tolmax;
    int fail_adm, fail_cons, wrong, unrefuted;
} heur_job;

static int heur_parse(int argc, char **argv, heur_cli *o)
{
    o->model = GB_MODEL_8_NOCUT;
    o->ngoals = -1;
    o->seed = 1;
    unsigned long long v;
    const char *arg;
    int c, rc = 0;
    gb_opt_parser op;
    if (gb_opt_begin(&op, &gb_doc_heuristics) != 0) return EX_OSERR;
    while (!rc && !o->help && (c = gb_opt_next(&op, argc, argv, &arg)) != -1) {
        switch (c) {
        case 'H': rc = add_spec_list(o->specs, &o->nspecs, arg); break;
        case 'm':
            rc = gb_cli_model(CMD, arg, &o->model);
            if (!rc) rc = gb_cli_no_water(CMD, o->model);
            break;
        case OPT_TERRAIN: {
            gb_diag td;
            gb_diag_clear(&td);
            if ((rc = gb_tfile_arg(arg, &o->terrain, &td)) != 0) {
                fprintf(stderr, CMD ": ");
                gb_diag_print(&td, stderr);
            }
            break;
        }
        case 'g':
            if ((rc = parse_u64("--goals", arg, &v)) != 0) break;
            if (v < 1 || v > (unsigned long long)INT32_MAX) {
                fprintf(stderr, CMD ": --goals: expected 1..%ld, found %s\n", (long)INT32_MAX, arg);
                rc = EX_USAGE;
                break;
            }
            o->ngoals = (long long)v;
            break;
        case 'S': o->scen_path = arg; break;
        case 's': rc = parse_u64("--seed", arg, &o->seed); break;
        case 'o': o->out_path = arg; break;
        case OPT_HIST: o->hist_path = arg; break;
        case OPT_VERDICTS: o->verd_path = arg; break;
        case OPT_REQ_ADM: o->req_adm = 1; break;
        case OPT_REQ_CONS: o->req_cons = 1; break;
        case 'q': o->quiet = 1; break;
        case 'h': o->help = 1; break;
        default: rc = EX_USAGE; break;   /* gb_opt_next said why */
        }
    }
    gb_opt_end(&op);
    return rc;
}

/* The operands and the rules between options. */
static int heur_check(heur_cli *o, int argc, char **argv)
{
    if (argc - optind > 1) {
        fprintf(stderr, CMD ": expected one MAP, found %d arguments ('%s', '%s'%s)\n", argc - optind,
                argv[optind], argv[optind + 1], argc - optind > 2 ? ", ..." : "");
        return EX_USAGE;
    }
    if (argc - optind == 0 && !o->scen_path) {
        fprintf(stderr, CMD ": expected a MAP (or --scen FILE), found none\n");
        gb_opt_help(&gb_doc_heuristics, stderr);
        return EX_USAGE;
    }
    o->map_path = argc - optind == 1 ? argv[optind] : NULL;
    if (o->out_path && strcmp(o->out_path, "-") == 0) {
        o->csv_stdout = 1; /* the CSV to stdout, the verdicts to stderr */
        o->out_path = NULL;
    }
    if (o->out_path && o->hist_path && strcmp(o->out_path, o->hist_path) == 0) {
        fprintf(stderr, CMD ": expected --out and --hist to name different files, found '%s' twice\n",
                o->out_path);
        return EX_USAGE;
    }
    if (o->verd_path
        && ((o->out_path && strcmp(o->out_path, o->verd_path) == 0)
            || (o->hist_path && strcmp(o->hist_path, o->verd_path) == 0))) {
        fprintf(stderr, CMD ": expected --verdicts to name a file of its own, found '%s' twice\n",
                o->verd_path);
        return EX_USAGE;
    }
    return o->nspecs == 0 ? add_spec_list(o->specs, &o->nspecs, "all") : 0;
}

static int nomem(heur_job *j)
{
    return gb_diag_set(&j->d, EX_OSERR, "", 0, 0, "expected memory, found none");
}

/* The goals: the scenario's (distinct, passable, at most --goals), or a
 * seeded sample of the passable cells. */
static int heur_goals(heur_job *j)
{
    const heur_cli *o = j->o;
    const gb_grid *g = &j->map.grid;
    if (!o->scen_path) {
        int32_t n = o->ngoals > 0 ? (int32_t)o->ngoals : 8;
        if (n > g->npassable) n = g->npassable;
        if (!(j->goals = gb_malloc((size_t)n * sizeof *j->goals))) return nomem(j);
        j->ngoals = gb_hv_sample_goals(g, n, (uint64_t)o->seed, j->goals);
        return j->ngoals < 0 ? nomem(j) : 0;
    }
    for (size_t i = 0; i < j->scen.n; i++) {
        const gb_query *q = &j->scen.q[i];
        if (q->map_w != g->width || q->map_h != g->height)
            return gb_diag_set(&j->d, EX_DATAERR, o->scen_path, q->line, q->col[GB_SCEN_MAP_W],
                               "expected the map size of %s (%dx%d), found %dx%d",
                               base_name(o->map_path), (int)g->width, (int)g->height, (int)q->map_w,
                               (int)q->map_h);
    }
    size_t cap = o->ngoals > 0 && (size_t)o->ngoals < j->scen.n ? (size_t)o->ngoals : j->scen.n;
    if (!(j->goals = gb_malloc(cap * sizeof *j->goals))) return nomem(j);
    j->ngoals = gb_hv_scen_goals(&j->scen, g, (int32_t)cap, j->goals, &j->skipped);
    if (j->ngoals < 0) return nomem(j);
    if (j->ngoals == 0)
        return gb_diag_set(&j->d, EX_DATAERR, o->scen_path, 0, 0,
                           "expected a goal on a passable cell, found none (%ld skipped)",
                           (long)j->skipped);
    return 0;
}

/* The scenario, the map with its terrain costs, the heuristics scaled by
 * the cheapest terrain, and the goals. */
static int heur_inputs(heur_job *j)
{
    heur_cli *o = j->o;
    int rc;
    if (o->scen_path) {
        if ((rc = gb_scen_load(o->scen_path, &j->scen, &j->d)) != 0) return rc;
        if (!o->map_path) {
            if ((rc = gb_scen_resolve_map(&j->scen, j->map_buf, sizeof j->map_buf, &j->d)) != 0)
                return rc;
            o->map_path = j->map_buf;
        }
    }
    if ((rc = gb_map_load(o->map_path, &j->map, &j->d)) != 0) return rc;
    if (gb_terrain_apply(&o->terrain, j->map.terrain, &j->map.grid) != 0) return nomem(j);
    const gb_grid *g = &j->map.grid;
    snprintf(j->mcol, sizeof j->mcol, "%s%s%s", gb_model_name(o->model), o->terrain.on ? "+" : "",
             o->terrain.name);
    /* terrain: the cheapest cost of the map; each built-in also scaled by it */
    j->cmin = g->cost ? 4.0 * (double)g->qmin / (double)g->cscale : 1.0;
    if (o->terrain.on && o->model != GB_MODEL_8_NOCUT && o->model != GB_MODEL_4)
        return gb_diag_set(&j->d, EX_USAGE, "", 0, 0,
                           "--terrain-costs: expected model 8-nocut or 4, found %s",
                           gb_model_name(o->model));
    for (int i = 0, n0 = o->nspecs; g->cost && j->cmin != 1.0 && i < n0; i++)
        if (o->specs[i].kind == GB_HV_BUILTIN) {
            gb_hv_spec sc = o->specs[i];
            sc.weight *= j->cmin;
            if ((rc = add_spec(o->specs, &o->nspecs, &sc)) != 0) return -rc; /* said why */
        }
    if (g->npassable == 0)
        return gb_diag_set(&j->d, EX_DATAERR, o->map_path, 0, 0,
                           "expected at least one passable cell, found none");
    j->mname = base_name(o->map_path);
    return heur_goals(j);
}

/* The output files as temporaries, the checker, the landmarks. */
static int heur_open(heur_job *j)
{
    const heur_cli *o = j->o;
    j->out = o->csv_stdout ? stdout : NULL;
    if (o->out_path && !(j->out = gb_tmp_open(o->out_path, j->out_tmp, sizeof j->out_tmp, &j->d)))
        return j->d.code ? j->d.code : EX_CANTCREAT;
    if (o->hist_path && !(j->hist = gb_tmp_open(o->hist_path, j->hist_tmp, sizeof j->hist_tmp, &j->d)))
        return j->d.code ? j->d.code : EX_CANTCREAT;
    j->hv = gb_hv_new(&j->map.grid, o->model);
    j->aggs = gb_calloc((size_t)o->nspecs, sizeof *j->aggs);
    if (!j->hv || !j->aggs) return nomem(j);
    /* Landmarks first, so that their preprocessing is timed alone. */
    for (int i = 0; i < o->nspecs; i++)
        if (o->specs[i].kind == GB_HV_DIFF) {
            if (!o->quiet) fprintf(stderr, CMD ": building %d landmarks...\n", o->specs[i].k);
            if (!gb_hv_landmarks(j->hv, o->specs[i].k)) return nomem(j);
        }
    if (j->out) {
        fputs(csv_header, j->out);
        for (int b = 0; b < GB_HV_NBINS; b++) fprintf(j->out, ",ratio_bin_%02d", b);
        fputs(",ratio_bin_over\n", j->out);
    }
    return 0;
}

/* Every goal x heuristic: the CSV rows and the aggregates. */
static int heur_eval(heur_job *j)
{
    const heur_cli *o = j->o;
    const int tty = isatty(2);
    const double t0 = now_s();
    double last = t0;
    int rc;
    j->rmin = INT32_MAX;
    for (int32_t gi = 0; gi < j->ngoals; gi++) {
        if ((rc = gb_hv_set_goal(j->hv, j->goals[gi], &j->d)) != 0) return rc;
        for (int i = 0; i < o->nspecs; i++) {
            gb_hv_result r;
            if ((rc = gb_hv_eval(j->hv, &o->specs[i], &r, &j->d)) != 0) return rc;
            if (j->out) write_row(j->out, j->mname, j->mcol, &o->specs[i], &r);
            if (r.reachable < j->rmin) j->rmin = r.reachable;
            if (r.reachable > j->rmax) j->rmax = r.reachable;
            if (r.tol > j->tolmax) j->tolmax = r.tol;
            int e = agg_add(&j->aggs[i], &r);
            gb_hv_result_free(&r);
            if (e) return nomem(j);
        }
        if (o->quiet) continue;
        double t = now_s();
        if (tty) {
            fprintf(stderr, "\r" CMD ": goal %ld/%ld  %.1f s   ", (long)gi + 1, (long)j->ngoals, t - t0);
        } else if (t - last >= 5.0 || gi + 1 == j->ngoals) {
            fprintf(stderr, CMD ": goal %ld/%ld  %.1f s\n", (long)gi + 1, (long)j->ngoals, t - t0);
            last = t;
        }
    }
    if (!o->quiet && tty) fputc('\n', stderr);
    return 0;
}

/* The histogram and the CSV, complete, renamed into place. */
static int heur_commit(heur_job *j)
{
    const heur_cli *o = j->o;
    if (j->hist) {
        fputs("heuristic,weight,bucket,lo,hi,mean_ratio,cells\n", j->hist);
        for (int i = 0; i < o->nspecs; i++)
            for (int32_t b = 0; b < j->aggs[i].nbuckets; b++) {
                if (!j->aggs[i].bcells[b]) continue;
                fprintf(j->hist, "%s,%g,%ld,%g,%g,%.10g,%lld\n", o->specs[i].name, o->specs[i].weight,
                        (long)b, b * GB_HV_BUCKET_WIDTH, (b + 1) * GB_HV_BUCKET_WIDTH,
                        j->aggs[i].bsum[b] / (double)j->aggs[i].bcells[b],
                        (long long)j->aggs[i].bcells[b]);
            }
        int e = gb_tmp_commit(j->hist, j->hist_tmp, o->hist_path, &j->d);
        j->hist = NULL;
        if (e) return e;
    }
    if (o->out_path) {
        int e = gb_tmp_commit(j->out, j->out_tmp, o->out_path, &j->d);
        j->out = NULL;
        if (e) return e;
    } else if (o->csv_stdout && fflush(stdout) != 0) {
        return gb_diag_set(&j->d, EX_IOERR, "<stdout>", 0, 0, "expected to write the CSV, found %s",
                           strerror(errno));
    }
    return 0;
}

/* The registry column of heuristic i: what the registry claims, against
 * what was found (flags j->wrong and j->unrefuted). */
static void registry_text(heur_job *j, int i, int adm, int cons, char *reg, size_t n)
{
    const gb_hv_spec *sp = &j->o->specs[i];
    int cadm, ccons;
    if (!claim(sp, j->o->model, j->cmin, &cadm, &ccons)) {
        snprintf(reg, n, "no claim%s",
                 sp->weight > j->cmin ? (j->map.grid.cost ? " (w > cmin)" : " (w > 1)") : "");
    } else if ((cadm && !adm) || (ccons && !cons)) {
        snprintf(reg, n, "WRONG: claims %s", verdict_name(cadm && !adm, ccons && !cons));
        j->wrong = 1;
    } else if ((!cadm && adm) || (!ccons && cons)) {
        snprintf(reg, n, "agrees*");
        j->unrefuted = 1;
    } else {
        snprintf(reg, n, "agrees");
    }
}

/* One heuristic's row of the verdict table, and of --verdicts' CSV. */
static void verdict_row(heur_job *j, int i, FILE *vf, FILE *vcsv)
{
    const gb_hv_spec *sp = &j->o->specs[i];
    const agg *a = &j->aggs[i];
    const int adm = a->inadmissible == 0, cons = a->inconsistent == 0;
    j->fail_adm |= !adm;
    j->fail_cons |= !cons;
    char reg[64], lmk[96] = "";
    registry_text(j, i, adm, cons, reg, sizeof reg);
    if (sp->kind == GB_HV_DIFF) {
        const gb_landmarks *L = gb_hv_landmarks(j->hv, sp->k);
        if (L)
            snprintf(lmk, sizeof lmk, "%d lm, %.1f MiB, %.1f ms", L->k,
                     (double)L->bytes / (1024.0 * 1024.0), L->prep_ns * 1e-6);
    }
    const double mean = a->ratio_cells ? a->ratio_sum / (double)a->ratio_cells : 0.0;
    fprintf(vf, "%-16s %6g  %-8s %-21s %11lld %10.4g %12lld %10.4g %9.4f  %-22s %s\n", sp->name,
            sp->weight, gb_model_name(j->o->model), verdict_name(adm, cons), (long long)a->inadmissible,
            a->max_over, (long long)a->inconsistent, a->max_violation, mean, reg, lmk);
    if (!vcsv) return;
    gb_csv_write_str(vcsv, j->mname);
    fprintf(vcsv, ",%s,", j->mcol);
    gb_csv_write_str(vcsv, sp->name);
    fprintf(vcsv, ",%g,%ld,%s,%lld,%.10g,%lld,%.10g,%.10g,", sp->weight, (long)j->ngoals,
            verdict_name(adm, cons), (long long)a->inadmissible, a->max_over, (long long)a->inconsistent,
            a->max_violation, mean);
    gb_csv_write_str(vcsv, reg);
    fputc('\n', vcsv);
}

/* The verdict table (stdout, or stderr with --out -) and --verdicts. */
static int heur_verdicts(heur_job *j, FILE *vf)
{
    const heur_cli *o = j->o;
    fprintf(vf, "%s, model %s, %ld goals (%s), reachable cells per goal %ld..%ld, tol <= %.2g\n",
            j->mname, j->mcol, (long)j->ngoals, o->scen_path ? "from the scenario" : "sampled",
            (long)j->rmin, (long)j->rmax, j->tolmax);
    if (o->scen_path && j->skipped)
        fprintf(vf, "(%ld scenario queries skipped: goal on a blocked cell)\n", (long)j->skipped);
    if (!o->scen_path) fprintf(vf, "(seed %llu)\n", o->seed);
    fprintf(vf, "%-16s %6s  %-8s %-21s %11s %10s %12s %10s %9s  %-22s %s\n", "heuristic", "weight",
            "model", "verdict", "inadm.cells", "max.over", "incons.edges", "max.viol", "mean.h/h*",
            "registry", "landmarks");
    char verd_tmp[1100] = "";
    FILE *vcsv = NULL;
    if (o->verd_path) {
        if (!(vcsv = gb_tmp_open(o->verd_path, verd_tmp, sizeof verd_tmp, &j->d))) return j->d.code;
        fputs("map,model,heuristic,weight,goals,verdict,inadmissible_cells,max_over,inconsistent_edges,"
              "max_violation,mean_ratio,registry\n",
              vcsv);
    }
    for (int i = 0; i < o->nspecs; i++) verdict_row(j, i, vf, vcsv);
    return vcsv ? gb_tmp_commit(vcsv, verd_tmp, o->verd_path, &j->d) : 0;
}

/* The counterexamples, the registry's errors and --require-*: the exit
 * status (1 when a --require-* check failed). */
static int heur_explain(heur_job *j, FILE *vf)
{
    const heur_cli *o = j->o;
    for (int i = 0; i < o->nspecs; i++) {
        const agg *a = &j->aggs[i];
        const gb_hv_spec *sp = &o->specs[i];
        if (a->inadmissible)
            fprintf(vf,
                    "  %s w=%g: overestimates at %lld cells over %ld goals; largest %.6g at (%d, %d) "
                    "for goal "
                    "(%d, %d)\n",
                    sp->name, sp->weight, (long long)a->inadmissible, (long)a->goals_inadm, a->max_over,
                    (int)a->over_x, (int)a->over_y, (int)a->over_gx, (int)a->over_gy);
        if (a->inconsistent)
            fprintf(vf,
                    "  %s w=%g: inconsistent on %lld moves over %ld goals; largest %.6g on (%d, %d) -> "
                    "(%d, %d) "
                    "for goal (%d, %d)\n",
                    sp->name, sp->weight, (long long)a->inconsistent, (long)a->goals_incons,
                    a->max_violation, (int)a->v_x1, (int)a->v_y1, (int)a->v_x2, (int)a->v_y2,
                    (int)a->v_gx, (int)a->v_gy);
    }
    if (j->unrefuted)
        fprintf(vf, "* the registry denies a property that held on every goal checked (a sample\n"
                    "  cannot prove it; not an error)\n");
    for (int i = 0; j->wrong && i < o->nspecs; i++) {
        int cadm, ccons;
        if (!claim(&o->specs[i], o->model, j->cmin, &cadm, &ccons)) continue;
        if (cadm && j->aggs[i].inadmissible)
            fprintf(stderr,
                    CMD
                    ": WARNING: the registry claims %s is admissible under %s, but it overestimates at "
                    "%lld cells: the registry (GB_HEUR_LIST) is wrong\n",
                    o->specs[i].name, j->mcol, (long long)j->aggs[i].inadmissible);
        if (ccons && j->aggs[i].inconsistent)
            fprintf(stderr,
                    CMD
                    ": WARNING: the registry claims %s is consistent under %s, but %lld moves violate "
                    "it: the registry (GB_HEUR_LIST) is wrong\n",
                    o->specs[i].name, j->mcol, (long long)j->aggs[i].inconsistent);
    }
    if (!o->out_path && !o->csv_stdout)
        fprintf(vf, "(one CSV row per heuristic x goal: --out FILE, or --out - for standard output)\n");
    fflush(vf);
    /* --require-*: name every heuristic that failed the check */
    for (int i = 0; i < o->nspecs; i++) {
        const agg *a = &j->aggs[i];
        const gb_hv_spec *sp = &o->specs[i];
        if (o->req_adm && a->inadmissible)
            fprintf(stderr,
                    CMD
                    ": --require-admissible failed: %s (w=%g) overestimates under %s at %lld cells over "
                    "%ld goals (largest %.6g at (%d, %d) for goal (%d, %d))\n",
                    sp->name, sp->weight, j->mcol, (long long)a->inadmissible, (long)a->goals_inadm,
                    a->max_over, (int)a->over_x, (int)a->over_y, (int)a->over_gx, (int)a->over_gy);
        if (o->req_cons && a->inconsistent)
            fprintf(stderr,
                    CMD
                    ": --require-consistent failed: %s (w=%g) is inconsistent under %s on %lld moves "
                    "over %ld goals (largest %.6g on (%d, %d) -> (%d, %d) for goal (%d, %d))\n",
                    sp->name, sp->weight, j->mcol, (long long)a->inconsistent, (long)a->goals_incons,
                    a->max_violation, (int)a->v_x1, (int)a->v_y1, (int)a->v_x2, (int)a->v_y2,
                    (int)a->v_gx, (int)a->v_gy);
    }
    return (o->req_adm && j->fail_adm) || (o->req_cons && j->fail_cons) ? 1 : 0;
}

static void heur_free(heur_job *j)
{
    if (j->hist) gb_tmp_abort(j->hist, j->hist_tmp);
    if (j->out && j->out != stdout) gb_tmp_abort(j->out, j->out_tmp);
    if (j->aggs)
        for (int i = 0; i < j->o->nspecs; i++) {
            gb_free(j->aggs[i].bsum);
            gb_free(j->aggs[i].bcells);
        }
    gb_free(j->aggs);
    gb_free(j->goals);
    gb_hv_free(j->hv);
    gb_map_free(&j->map);
    gb_scen_free(&j->scen);
}

int gb_cmd_heuristics(int argc, char **argv)
{
    static heur_cli o;
    memset(&o, 0, sizeof o);
    int rc = heur_parse(argc, argv, &o);
    if (rc) return rc;
    if (o.help) {
        gb_opt_help(&gb_doc_heuristics, stdout);
        return 0;
    }
    if ((rc = heur_check(&o, argc, argv)) != 0) return rc;
    static heur_job j;
    memset(&j, 0, sizeof j);
    j.o = &o;
    FILE *vf = o.csv_stdout ? stderr : stdout;
    if ((rc = heur_inputs(&j)) == 0 && (rc = heur_open(&j)) == 0 && (rc = heur_eval(&j)) == 0
        && (rc = heur_commit(&j)) == 0 && (rc = heur_verdicts(&j, vf)) == 0)
        rc = heur_explain(&j, vf);
    else if (rc < 0) rc = -rc; /* said why already */
    else {
        fprintf(stderr, CMD ": ");
        gb_diag_print(&j.d, stderr);
    }
    heur_free(&j);
    return rc;
}
