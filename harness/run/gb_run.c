/*
 * gb_run.c -- the runner: plan -> execute -> sink (see gb_run.h for the
 * stages and for what a row means).
 *
 * Execute (struct exec, one per process that solves): one map and one
 * workspace are kept while consecutive queries name the same map file;
 * every pair is prepared (and timed, prep_ns) when a map is loaded; the
 * oracle's check (step counts and cost) is kept per query while the pairs
 * run; xy[] converts a path of cell ids into map coordinates for the
 * validator.  A query's rows and notes are written into two memory
 * streams (struct qres), which the sink copies out: in this process with
 * --jobs 1, through a pipe from a worker otherwise.
 *
 * Sink (struct sink, in the process that writes the output): rows go to
 * the journal "<out>.partial" (gb_journal.h), flushed after every query
 * together with a line that marks the query complete; <out> itself is
 * written (temp file + rename) only when the run completed, so it is never
 * half-written.  --resume replays the queries the journal holds into the
 * totals without running anything.
 *
 * Workers (--jobs N): the parent hands out plan positions over a command
 * pipe per worker (at most WORKER_DEPTH outstanding each, at most RING
 * positions ahead of the next one to write) and reads results from a
 * result pipe per worker with poll(); results wait in a ring until every
 * earlier position is written.  A worker that dies: its first outstanding
 * position becomes `crash` rows, the others are handed out again, and a
 * new worker takes its place.  A worker that meets bad input sends the
 * diagnostic and the run stops as it would in one process.
 *
 * User solvers (plugins) run in workers even with --jobs 1 (one worker),
 * so that one that crashes cannot take the run down.  Each worker tells
 * the parent which pair it is running through a word of shared memory
 * (inflight); when a worker dies inside a user pair, its position is
 * handed out again with that pair on the position's skip list (sent with
 * the command): the retry writes a `crash` row for it and runs the other
 * pairs as usual.  A death outside a user pair gives `crash` rows for the
 * whole query, as before.
 */
#define _GNU_SOURCE 1   /* sched_setaffinity, open_memstream, pipe2 */
#include "gb_run.h"

#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <math.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gb_alloc.h"
#include "gb_anyangle.h"
#include "gb_csv.h"
#include "gb_external.h"
#include "gb_journal.h"
#include "gb_map.h"
#include "gb_ocache.h"
#include "gb_plan.h"
#include "gb_scen.h"
#include "gb_user.h"
#include "gb_validate.h"

static const char csv_header[] =
    "map,scen,line,bucket,start_x,start_y,goal_x,goal_y,model,solver,queue,"
    "guarantee,bound,status,cost,dijkstra_cost,scen_cost,scen_decimals,subopt,"
    "path_len,expanded,generated,scanned,pushes,pops,decreases,stale,peak_open,"
    "time_ns,time_cold_ns,reps,mem_bytes,prep_ns,time_source,solver_time_ns,"
    "cost_model,euclid_lb,lb_ratio";

/* The kind of each column, for checking journal rows when resuming
 * (gb_journal_open): 'n' a number or empty, 's' a status, '.' text. */
static const char csv_kinds[] =
    "..nnnnnn....nsnnnnnnnnnnnnnnnnnnn.n.nn";
_Static_assert(sizeof csv_kinds == 39, "one kind per column of csv_header (38)");

const char *gb_run_csv_header(void) { return csv_header; }

/* ---- helpers ---------------------------------------------------------- */
static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* The median of v[0..n) (sorted in place): the middle value, or the mean
 * of the two middle values when n is even. */
static int64_t median_i64(int64_t *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_i64);
    return n % 2 ? v[n / 2] : v[n / 2 - 1] + (v[n / 2] - v[n / 2 - 1]) / 2;
}

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

static void to_xy(const gb_grid *g, const int32_t *path, int32_t n, gb_xy *xy)
{
    for (int32_t i = 0; i < n; i++) {
        xy[i].x = gb_grid_x(g, path[i]);
        xy[i].y = gb_grid_y(g, path[i]);
    }
}

const char *gb_pair_queue_name(const gb_pair *p)
{
    if (p->user || p->ext_cmd) return "none";
    return p->queue < 0 ? gb_solver_queue_label(&p->spec) : gb_queue_name((gb_queue_kind)p->queue);
}

/* The cost model of a pair's paths: any-angle for Theta* and +smooth;
 * user plugins and external solvers answer grid paths. */
static gb_cost_model pair_cost_model(const gb_pair *p)
{
    return p->user || p->ext_cmd ? GB_COST_GRID : gb_solver_cost_model(&p->spec);
}

static const char *pair_time_source(const gb_pair *p)
{
    return p->ext_cmd ? "process" : p->user ? "plugin" : "inproc";
}

/* What a pair promises: the built-in registry's answer, or the user
 * solver's own claim (optimal or nothing). */
static gb_guarantee pair_guarantee(const gb_pair *p, gb_model m, double *bound)
{
    if (p->ext_cmd) { *bound = 1.0; return GB_GUAR_OPTIMAL; }   /* externals claim optimality */
    if (!p->user) return gb_solver_guarantee(&p->spec, m, bound);
    *bound = p->user->optimal ? 1.0 : 0.0;
    return p->user->optimal ? GB_GUAR_OPTIMAL : GB_GUAR_NONE;
}

/* sqrt 2 as the Moving AI generator used it for the 8-decimal files: their
 * lengths are %.8f of straight + 1.414213562 * diagonal, which drifts from
 * the true cost by 3.7e-10 per diagonal step -- more than the printed
 * precision on long paths (den312d line 5: 70.11269836 printed, 70.11269837
 * true).  Checked on ../shared/movingai. */
#define SCEN_SQRT2_PUBLISHED 1.414213562

int gb_scen_agrees(const gb_check *oc, const gb_query *q)
{
    if (fabs(oc->cost - q->length) <= q->tol) return 1;
    double pub = (double)oc->straight + SCEN_SQRT2_PUBLISHED * (double)oc->diag;
    return fabs(pub - q->length) <= q->tol;
}

/* Nonzero when query q fits the map but puts start or goal on a blocked
 * cell (the only per-query problem that is not fatal). */
static int endpoint_blocked(const gb_query *q, const gb_grid *g)
{
    if (q->map_w != g->width || q->map_h != g->height) return 0;
    if (q->sx >= g->width || q->gx >= g->width || q->sy >= g->height || q->gy >= g->height) return 0;
    return !gb_grid_passable_xy(g, q->sx, q->sy) || !gb_grid_passable_xy(g, q->gx, q->gy);
}

/* The check of an optimum known by its step counts (a cache hit), as the
 * validator would have filled it for such a path. */
static void check_of_counts(int64_t straight, int64_t diag, gb_check *c)
{
    memset(c, 0, sizeof *c);
    c->ok = 1;
    c->straight = straight;
    c->diag = diag;
    c->cost = gb_check_cost(straight, diag);
    c->tol = ((double)(straight + diag + 1) + 2.0) * DBL_EPSILON * (c->cost > 1.0 ? c->cost : 1.0);
    c->bad_step = -1;
}

/* ---- classification: one pure function over the status table ---------- */

/* What a pair's run came to, for classify(). */
typedef struct outcome {
    int ext_status;        /* gb_ext_status of an external pair, else GB_EXT_PATH */
    int over_mem;          /* not run: its workspace passes --max-mem */
    gb_result_status rs;   /* the solver's result */
    int valid;             /* its path passed the validator (rs == GB_FOUND) */
    int oracle_found;      /* Dijkstra found a path */
    int scen_ok;           /* the scenario agrees with Dijkstra */
    gb_guarantee gu;
    double bound;
    const gb_check *pc, *oc;   /* the path's and the optimum's checks */
    int anyangle;          /* the path is any-angle (pc from gb_validate_anyangle) */
    double grid_bound;     /* any-angle: cost <= grid_bound x the grid optimum (0: none) */
    double euclid;         /* the straight-line distance start-goal, the lower bound */
} outcome;

/* The row status of an outcome (gb_run.h lists the order), or -1 when a
 * valid path was found where Dijkstra found none (the oracle is wrong: an
 * internal error, not a row). */
static int classify(const outcome *w)
{
    if (w->ext_status == GB_EXT_LIMIT || w->over_mem) return GB_ROW_LIMIT;
    if (w->ext_status == GB_EXT_PROTOCOL) return GB_ROW_PROTOCOL;
    if (w->ext_status == GB_EXT_TIMEOUT) return GB_ROW_TIMEOUT;
    if (w->ext_status == GB_EXT_CRASH) return GB_ROW_CRASH;
    if (w->rs == GB_LIMIT) return GB_ROW_LIMIT;
    if (w->rs == GB_FOUND) {
        if (!w->valid) return GB_ROW_INVALID;
        if (!w->oracle_found) return -1;
        /* any-angle: between the straight line and grid_bound x the grid optimum */
        if (w->anyangle && w->pc->cost < w->euclid - w->pc->tol) return GB_ROW_INVALID;
        if (w->anyangle && w->grid_bound > 0
            && w->pc->cost > w->grid_bound * w->oc->cost + w->pc->tol + w->oc->tol * w->grid_bound)
            return GB_ROW_SUBOPTIMAL;
        if (w->gu == GB_GUAR_OPTIMAL && gb_check_cmp(w->pc, w->oc) != 0) return GB_ROW_SUBOPTIMAL;
        if (w->gu == GB_GUAR_BOUNDED
            && w->pc->cost > w->bound * w->oc->cost + w->pc->tol + w->oc->tol * w->bound)
            return GB_ROW_SUBOPTIMAL;
        return w->scen_ok ? GB_ROW_OK : GB_ROW_SCEN_MISMATCH;
    }
    if (w->oracle_found) return GB_ROW_FALSE_UNREACHABLE;
    return w->scen_ok ? GB_ROW_UNREACHABLE : GB_ROW_SCEN_MISMATCH;
}

/* ---- rows ------------------------------------------------------------- */

/* What one row says beyond the query. */
typedef struct row {
    const gb_pair *p;
    const char *name;
    gb_guarantee gu;
    double bound;
    gb_row_status st;
    const gb_stats *counters;   /* the solver's counters (at the stop for limit rows), or NULL */
    int has_cost;               /* cost and path_len are the solver's (a path was found) */
    double cost;
    int32_t path_len;
    const gb_check *oc, *pc;    /* the optimum's and the path's checks, or NULL */
    int64_t med, cold;
    int reps;
    uint64_t mem, prep;         /* 0: not known (an empty field) */
    int64_t self_ns;            /* external solver's own time, < 0: none */
} row;

static void write_row(FILE *out, const char *mname, const char *scen, const gb_query *q,
                      const char *model, const row *w)
{
    static const gb_stats zero;
    const gb_stats *c = w->counters ? w->counters : &zero;
    gb_csv_write_str(out, mname);
    fputc(',', out);
    gb_csv_write_str(out, scen);
    fprintf(out, ",%ld,%d,%d,%d,%d,%d,%s,", q->line, q->bucket, q->sx, q->sy, q->gx, q->gy, model);
    gb_csv_write_str(out, w->name);
    fprintf(out, ",%s,%s,%g,%s,", gb_pair_queue_name(w->p), gb_guarantee_name(w->gu), w->bound,
            gb_row_status_name(w->st));
    if (w->has_cost) fprintf(out, "%.8f", w->cost);
    fputc(',', out);
    if (w->oc) fprintf(out, "%.8f", w->oc->cost);
    fprintf(out, ",%.*f,%d,", q->decimals, q->length, q->decimals);
    if (w->pc && w->oc) fprintf(out, "%.6f", w->oc->cost > 0 ? w->pc->cost / w->oc->cost : 1.0);
    fprintf(out, ",%d,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%lld,%lld,%d,",
            w->has_cost ? w->path_len : 0,
            (unsigned long long)c->expanded, (unsigned long long)c->generated,
            (unsigned long long)c->scanned, (unsigned long long)c->pushes,
            (unsigned long long)c->pops, (unsigned long long)c->decreases,
            (unsigned long long)c->stale, (unsigned long long)c->peak_open,
            (long long)w->med, (long long)w->cold, w->reps);
    if (w->mem) fprintf(out, "%llu", (unsigned long long)w->mem);
    fputc(',', out);
    if (w->prep) fprintf(out, "%llu", (unsigned long long)w->prep);
    fprintf(out, ",%s,", pair_time_source(w->p));
    if (w->self_ns >= 0) fprintf(out, "%lld", (long long)w->self_ns);
    /* cost_model, euclid_lb (the straight line start-goal), lb_ratio = the
     * validated cost / euclid_lb (empty without a valid path or when 0) */
    const double lb = gb_anyangle_dist((gb_xy){ q->sx, q->sy }, (gb_xy){ q->gx, q->gy });
    fprintf(out, ",%s,%.8f,", gb_cost_model_name(pair_cost_model(w->p)), lb);
    if (w->pc && lb > 0) fprintf(out, "%.6f", w->pc->cost / lb);
    fputc('\n', out);
}

/* ---- one query's result ----------------------------------------------- */

/* Notes travel with a query's result as lines "<kind digit><text>\n". */
typedef struct qres {
    int scen_ok;
    int oracle_hit;
    uint8_t *st;          /* [npairs] gb_row_status */
    uint64_t *exp;        /* [npairs] expansions */
    int64_t *ns;          /* [npairs] median time */
    char (*name)[64];     /* [npairs] the rows' solver names */
    char *rows;  size_t rows_len;
    char *notes; size_t notes_len;
} qres;

static int qres_init(qres *r, int npairs)
{
    memset(r, 0, sizeof *r);
    size_t n = npairs > 0 ? (size_t)npairs : 1;
    r->st = gb_calloc(n, sizeof *r->st);
    r->exp = gb_calloc(n, sizeof *r->exp);
    r->ns = gb_calloc(n, sizeof *r->ns);
    r->name = gb_calloc(n, sizeof *r->name);
    return r->st && r->exp && r->ns && r->name ? 0 : -1;
}

static void qres_clear_text(qres *r)
{
    free(r->rows);      /* from open_memstream or qres_recv: the C allocator */
    free(r->notes);
    r->rows = r->notes = NULL;
    r->rows_len = r->notes_len = 0;
}

static void qres_free(qres *r)
{
    qres_clear_text(r);
    gb_free(r->st);
    gb_free(r->exp);
    gb_free(r->ns);
    gb_free(r->name);
    memset(r, 0, sizeof *r);
}

/* ---- execute ---------------------------------------------------------- */

typedef struct exec {
    const gb_run_opts *o;
    const gb_plan *pl;
    /* the map in use */
    char mpath[1024];
    gb_map map;
    gb_ws *ws;
    gb_xy *xy;
    int32_t *upath;          /* path buffer for user solvers */
    int loaded;
    gb_ocache *oc;           /* this map's oracle cache, or NULL */
    int oc_warned;
    uint64_t *prep;          /* [npairs] preparation on this map, ns */
    uint64_t *mem;           /* [npairs] workspace bytes on this map once prepared
                                (gb_ws_bytes_prepared), 0 for user/external pairs */
    uint8_t *uprep;          /* [npairs] user pairs: UPREP_* on this map */
    /* crash isolation (workers only) */
    volatile int32_t *inflight;  /* shared with the parent: the pair running, -1 none */
    uint8_t *skip;           /* [npairs] pairs that crashed this query's worker before */
    int skip_ws;             /* the wait status of that worker */
    /* external solvers */
    gb_ext **ext;            /* [npairs] */
    char (*pname)[64];       /* [npairs] row names */
    long ext_id;
    /* scratch */
    int64_t *times, *self;   /* [reps] */
    gb_solver_spec oracle;
    FILE *rows_f, *notes_f;  /* memory streams of the query being run */
} exec;

static void note(exec *ex, gb_run_note_kind k, const char *fmt, ...) GB_PRINTF_LIKE(3, 4);
static void note(exec *ex, gb_run_note_kind k, const char *fmt, ...)
{
    char b[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b, sizeof b, fmt, ap);
    va_end(ap);
    for (char *c = b; *c; c++) if (*c == '\n' || *c == '\r') *c = ' ';
    fprintf(ex->notes_f, "%d%s\n", (int)k, b);
}

/* A user pair's per-map hook (gb_user_prepare) on the map in use. */
enum { UPREP_NONE = 0, UPREP_DONE, UPREP_FAILED };

static void exec_unload(exec *ex)
{
    for (int pi = 0; ex->uprep && pi < ex->o->npairs; pi++) {
        if (ex->uprep[pi] == UPREP_DONE) gb_user_release(ex->o->pairs[pi].user);
        ex->uprep[pi] = UPREP_NONE;
    }
    gb_ocache_close(ex->oc);
    ex->oc = NULL;
    gb_ws_free(ex->ws);
    gb_free(ex->xy);
    gb_free(ex->upath);
    gb_map_free(&ex->map);
    ex->ws = NULL;
    ex->xy = NULL;
    ex->upath = NULL;
    ex->loaded = 0;
    ex->mpath[0] = '\0';
}

static void exec_free(exec *ex)
{
    exec_unload(ex);
    for (int pi = 0; ex->ext && pi < ex->o->npairs; pi++) {
        gb_diag ed;
        if (ex->ext[pi] && gb_ext_close(ex->ext[pi], &ed) != 0 && ex->notes_f)
            note(ex, GB_NOTE_WARNING, "%s: warning: %s", ex->pname[pi], ed.msg);
    }
    gb_free(ex->ext);
    gb_free(ex->pname);
    gb_free(ex->prep);
    gb_free(ex->mem);
    gb_free(ex->uprep);
    gb_free(ex->skip);
    gb_free(ex->times);
    gb_free(ex->self);
    memset(ex, 0, sizeof *ex);
}

static int exec_init(exec *ex, const gb_run_opts *o, const gb_plan *pl, gb_diag *d)
{
    memset(ex, 0, sizeof *ex);
    ex->o = o;
    ex->pl = pl;
    size_t np = o->npairs > 0 ? (size_t)o->npairs : 1, nr = o->reps > 0 ? (size_t)o->reps : 1;
    ex->ext = gb_calloc(np, sizeof *ex->ext);
    ex->pname = gb_calloc(np, sizeof *ex->pname);
    ex->prep = gb_calloc(np, sizeof *ex->prep);
    ex->mem = gb_calloc(np, sizeof *ex->mem);
    ex->uprep = gb_calloc(np, sizeof *ex->uprep);
    ex->skip = gb_calloc(np, sizeof *ex->skip);
    ex->times = gb_malloc(nr * sizeof *ex->times);
    ex->self = gb_malloc(nr * sizeof *ex->self);
    if (!ex->ext || !ex->pname || !ex->prep || !ex->mem || !ex->uprep || !ex->skip || !ex->times || !ex->self) {
        exec_free(ex);
        return gb_diag_set(d, EX_OSERR, "", 0, 0, "expected memory, found none");
    }
    for (int pi = 0; pi < o->npairs; pi++)
        snprintf(ex->pname[pi], sizeof ex->pname[pi], "%s", o->pairs[pi].spec.name);
    char err[256];
    gb_solver_parse("dijkstra", &ex->oracle, err, sizeof err);
    return 0;
}

/* The queue of the oracle: the fastest exact one (gb_run.h). */
#define ORACLE_QUEUE GB_Q_BUCKET

/* Bytes the run holds for a width x height map besides the map itself:
 * the workspace prepared for the oracle and every built-in pair, and the
 * coordinate and path buffers. */
static uint64_t map_extra(const gb_run_opts *o, int32_t width, int32_t height)
{
    const int64_t ncells = ((int64_t)width + 2) * ((int64_t)height + 2);
    gb_solver_spec sp[GB_RUN_MAX_PAIRS + 1];
    gb_queue_kind qk[GB_RUN_MAX_PAIRS + 1];
    char err[128];
    int n = 0;
    gb_solver_parse("dijkstra", &sp[n], err, sizeof err);   /* the oracle */
    qk[n++] = ORACLE_QUEUE;
    for (int i = 0; i < o->npairs; i++) {
        const gb_pair *p = &o->pairs[i];
        if (p->user || p->ext_cmd) continue;
        sp[n] = p->spec;
        qk[n++] = p->queue < 0 ? GB_Q_BHEAP : (gb_queue_kind)p->queue;
    }
    return (uint64_t)gb_ws_bytes_all(width, height, sp, qk, n)
           + (uint64_t)ncells * (sizeof(gb_xy) + sizeof(int32_t));
}

static uint64_t pair_ws_bytes(const gb_pair *p, const gb_grid *g)
{
    if (p->user || p->ext_cmd) return 0;
    gb_queue_kind qk = p->queue < 0 ? GB_Q_BHEAP : (gb_queue_kind)p->queue;
    return gb_ws_bytes(g->width, g->height, &p->spec, qk);
}

/* Load the map of plan scenario si (unless it is the one in use), start
 * or update the external solvers, open the oracle cache, and prepare
 * every pair, timing each preparation. */
static int exec_map(exec *ex, int si, gb_diag *d)
{
    const gb_run_opts *o = ex->o;
    const gb_plan_scen *ps = &ex->pl->scen[si];
    if (ex->loaded && strcmp(ex->mpath, ps->map) == 0) return 0;
    exec_unload(ex);
    int32_t W, H;
    long long fbytes;
    int rc = gb_map_peek(ps->map, &W, &H, &fbytes, d);   /* refuse what cannot fit, unread */
    if (rc) return rc;
    if ((rc = gb_map_load_fit(ps->map, &ex->map, map_extra(o, W, H), d)) != 0) return rc;
    snprintf(ex->mpath, sizeof ex->mpath, "%s", ps->map);
    const char *ar = getenv("GRIDBENCH_ALLOC_REPORT");   /* for tests of the pre-check */
    if (ar && *ar && strcmp(ar, "0") != 0)
        note(ex, GB_NOTE_INFO, "gridbench run: %s: the memory pre-check counted %llu bytes",
             ps->map, (unsigned long long)ex->map.fit_bytes);
    ex->ws = gb_ws_new(&ex->map.grid, o->model);
    ex->xy = gb_malloc((size_t)ex->map.grid.ncells * sizeof *ex->xy);
    ex->upath = gb_malloc((size_t)ex->map.grid.ncells * sizeof *ex->upath);
    if (!ex->ws || !ex->xy || !ex->upath) {
        exec_unload(ex);
        return gb_diag_set(d, EX_OSERR, ps->map, 0, 0, "expected memory for the search "
                           "state of this map, found none");
    }
    ex->loaded = 1;
    if (gb_ws_prepare(ex->ws, &ex->oracle, ORACLE_QUEUE) != 0)
        return gb_diag_set(d, EX_OSERR, ps->map, 0, 0, "expected memory for the oracle, found none");
    for (int pi = 0; pi < o->npairs; pi++) {
        const gb_pair *p = &o->pairs[pi];
        int64_t t0 = now_ns();
        if (p->ext_cmd) {
            if (!ex->ext[pi]) {
                gb_diag ed;
                ex->ext[pi] = gb_ext_open_keep(p->ext_cmd, &ex->map, o->model, o->ext_ms,
                                               o->ext_start_ms, &ed);
                if (!ex->ext[pi]) { *d = ed; return ed.code; }   /* out of memory */
                if (ed.code)   /* it did not start: its queries answer crash, the others run */
                    note(ex, GB_NOTE_WARNING, "%s: warning: expected the external solver to start, "
                         "found: %s; its rows are crash rows while it cannot start", ex->pname[pi],
                         ed.msg);
                gb_ext_set_max_mem(ex->ext[pi], o->max_mem);
                if (!p->ext_named && gb_ext_name(ex->ext[pi])[0])
                    snprintf(ex->pname[pi], sizeof ex->pname[pi], "external:%s",
                             gb_ext_name(ex->ext[pi]));
            } else {
                gb_diag ed;
                if (gb_ext_set_map(ex->ext[pi], &ex->map, o->model, &ed) != 0)
                    note(ex, GB_NOTE_WARNING, "%s: warning: %s", ex->pname[pi], ed.msg);
            }
        } else if (!p->user) {
            uint64_t mem = pair_ws_bytes(p, &ex->map.grid);
            ex->mem[pi] = mem;
            if (o->max_mem && mem > o->max_mem) { ex->prep[pi] = 0; continue; }
            gb_queue_kind qk = p->queue < 0 ? GB_Q_BHEAP : (gb_queue_kind)p->queue;
            if (gb_ws_prepare(ex->ws, &p->spec, qk) != 0)
                return gb_diag_set(d, EX_OSERR, ps->map, 0, 0,
                                   "expected memory for solver %s, found none", p->spec.name);
            /* a state whose size depends on the map (subgoal graphs) counts exactly now */
            ex->mem[pi] = gb_ws_bytes_prepared(ex->ws, &p->spec, qk);
        } else {
            /* a user solver's own per-map work (gb_user_hooks), timed as
             * prep_ns; not for a pair that crashed this query before (it
             * is prepared when it next runs) */
            if (ex->skip[pi]) { ex->prep[pi] = 0; continue; }
            if (ex->inflight) *ex->inflight = pi;
            ex->uprep[pi] = gb_user_prepare(p->user, &ex->map.grid, o->model) == 0 ? UPREP_DONE
                                                                                 : UPREP_FAILED;
            if (ex->inflight) *ex->inflight = -1;
        }
        int64_t t = now_ns() - t0;
        ex->prep[pi] = t > 0 ? (uint64_t)t : 1;
    }
    if (o->oracle_cache) {
        gb_diag cd;
        gb_diag_clear(&cd);
        gb_ocache_stats cs;
        ex->oc = gb_ocache_open(o->oracle_cache, ps->map_sha, o->model, &cs, &cd);
        if (!ex->oc && cd.code == EX_OSERR) {
            *d = cd;
            return cd.code;
        }
        if (!ex->oc) {
            if (!ex->oc_warned) {
                char b[1024];
                gb_diag_format(&cd, b, sizeof b);
                note(ex, GB_NOTE_WARNING, "%s (the oracle runs without its cache)", b);
            }
            ex->oc_warned = 1;
        } else if (cs.rebuilt || cs.dropped) {
            note(ex, GB_NOTE_WARNING, "%s: warning: expected an intact oracle cache file, found %s; "
                 "rebuilt with the %llu good entries", gb_ocache_path(ex->oc),
                 cs.dropped ? "torn or corrupt entries" : "another version",
                 (unsigned long long)cs.loaded);
        }
    }
    return 0;
}

/* Run a user solver once into *r (path in ex->upath).  Its cost is the
 * sum of its steps (1 or sqrt 2 by shape; an illegal step is the
 * validator's to report).  Returns what the solver returned: an internal
 * error (< 0) becomes a crash row, a length past the buffer an invalid
 * path. */
static int32_t run_user(const gb_user_solver *u, exec *ex, int32_t s, int32_t t, gb_result *r)
{
    const gb_grid *g = &ex->map.grid;
    memset(r, 0, sizeof *r);
    int32_t n = u->solve(u->ctx, g, ex->o->model, s, t, ex->upath, g->ncells, &r->st);
    r->path = ex->upath;
    if (n == 0) { r->status = GB_UNREACHABLE; return n; }
    r->status = GB_FOUND;
    if (n < 0 || n > g->ncells) { r->path_len = 0; return n; }
    r->path_len = n;
    double c = 0.0;
    for (int32_t i = 0; i + 1 < n; i++) {
        int32_t dx = gb_grid_x(g, ex->upath[i + 1]) - gb_grid_x(g, ex->upath[i]);
        int32_t dy = gb_grid_y(g, ex->upath[i + 1]) - gb_grid_y(g, ex->upath[i]);
        c += dx && dy ? GB_SQRT2 : 1.0;
    }
    r->cost = c;
    return n;
}

/* Run an external pair `reps` times (fewer when it fails) into *r,
 * ex->times, ex->self and *nrep; a path goes to ex->xy.  Returns the last
 * answer's status; *a holds its message.  *self_ok: every answer carried
 * the solver's own time. */
static gb_ext_status run_external(exec *ex, gb_ext *e, gb_xy s, gb_xy t, gb_result *r, int *nrep,
                                  int *self_ok, gb_ext_answer *a)
{
    gb_ext_status es = GB_EXT_CRASH;
    memset(r, 0, sizeof *r);
    *nrep = 0;
    *self_ok = 1;
    for (int rep = 0; rep < ex->o->reps; rep++) {
        es = gb_ext_query(e, ++ex->ext_id, s, t, a);
        ex->times[*nrep] = a->wall_ns;
        ex->self[*nrep] = a->self_ns;
        if (a->self_ns < 0) *self_ok = 0;
        ++*nrep;
        if (es != GB_EXT_PATH && es != GB_EXT_NOPATH) break;
    }
    r->status = es == GB_EXT_PATH ? GB_FOUND : GB_UNREACHABLE;
    if (es == GB_EXT_PATH) {
        memcpy(ex->xy, a->path, a->n * sizeof *ex->xy);   /* n <= npassable + 1 < ncells */
        r->path_len = (int32_t)a->n;
        r->cost = gb_ext_path_cost(a->path, a->n);        /* the child reports no cost */
    }
    return es;
}

/* Execute plan index k into *res (rows and notes as text).  Returns 0, or
 * a sysexits code with *d filled when the input is bad or the oracle
 * wrong (the run must stop). */
static int exec_query(exec *ex, size_t k, qres *res, gb_diag *d)
{
    const gb_run_opts *o = ex->o;
    const gb_plan_item *it = &ex->pl->item[k];
    const gb_plan_scen *ps = &ex->pl->scen[it->scen];
    const gb_query *q = &ps->sc.q[it->qi];
    const char *scen = ps->path, *model = gb_model_name(o->model);
    int rc;
    qres_clear_text(res);
    ex->rows_f = open_memstream(&res->rows, &res->rows_len);
    ex->notes_f = open_memstream(&res->notes, &res->notes_len);
    if (!ex->rows_f || !ex->notes_f) {
        rc = gb_diag_set(d, EX_OSERR, scen, q->line, 0, "expected memory, found none");
        goto out;
    }
    if ((rc = exec_map(ex, it->scen, d)) != 0) goto out;
    const gb_grid *grid = &ex->map.grid;
    const char *mname = base_name(ps->map);
    res->oracle_hit = 0;

    if ((rc = gb_scen_check_query(&ps->sc, it->qi, &ex->map, d)) != 0) {
        if (!endpoint_blocked(q, grid)) goto out;   /* size or bounds: bad input */
        /* The scenario puts an endpoint on a cell the movement model calls
         * blocked (the Warcraft III set does): the scenario disagrees with
         * the model, the solvers are not at fault. */
        note(ex, GB_NOTE_WARNING, "%s:%ld:%ld: warning: %s; query counted as scen_mismatch",
             d->path, d->line, d->col, d->msg);
        gb_diag_clear(d);
        rc = 0;
        res->scen_ok = 0;
        for (int pi = 0; pi < o->npairs; pi++) {
            row w;
            memset(&w, 0, sizeof w);
            w.p = &o->pairs[pi];
            w.name = ex->pname[pi];
            w.gu = pair_guarantee(w.p, o->model, &w.bound);
            w.st = GB_ROW_SCEN_MISMATCH;
            w.reps = o->reps;
            w.self_ns = -1;
            write_row(ex->rows_f, mname, scen, q, model, &w);
            res->st[pi] = GB_ROW_SCEN_MISMATCH;
            res->exp[pi] = 0;
            res->ns[pi] = 0;
            memcpy(res->name[pi], ex->pname[pi], sizeof res->name[pi]);
        }
        goto out;
    }

    /* the oracle: the cache when it holds the query and agrees with the
     * scenario, else Dijkstra (whose answer is then cached) */
    int32_t s = gb_grid_id(grid, q->sx, q->sy), t = gb_grid_id(grid, q->gx, q->gy);
    gb_xy sxy = { q->sx, q->sy }, txy = { q->gx, q->gy };
    gb_result r;
    gb_check oc;
    memset(&oc, 0, sizeof oc);
    int oracle_found = 0, scen_ok = 0, have_cached = 0;
    int64_t ca = 0, cb = 0;
    if (ex->oc && gb_ocache_get(ex->oc, q->sx, q->sy, q->gx, q->gy, &ca, &cb)) {
        have_cached = 1;
        if (cb >= 0) {
            check_of_counts(ca, cb, &oc);
            if (gb_scen_agrees(&oc, q)) oracle_found = scen_ok = res->oracle_hit = 1;
        } else if (q->length <= 0.0) {
            scen_ok = res->oracle_hit = 1;
        }
    }
    if (!res->oracle_hit) {
        if (gb_solve(ex->ws, &ex->oracle, ORACLE_QUEUE, s, t, &r) != 0) {
            rc = gb_diag_set(d, EX_OSERR, scen, q->line, 0, "expected memory for the search, found none");
            goto out;
        }
        memset(&oc, 0, sizeof oc);
        oracle_found = r.status == GB_FOUND;
        if (oracle_found) {
            to_xy(grid, r.path, r.path_len, ex->xy);
            if (!gb_validate_path(grid, o->model, sxy, txy, ex->xy, (size_t)r.path_len, r.cost, &oc)) {
                rc = gb_diag_set(d, EX_SOFTWARE, scen, q->line, 0,
                                 "expected the Dijkstra oracle's path to be valid, found: %s", oc.msg);
                goto out;
            }
        }
        /* (a scenario printing a length for an unreachable goal disagrees) */
        scen_ok = oracle_found ? gb_scen_agrees(&oc, q) : q->length <= 0.0;
        int64_t na = oracle_found ? oc.straight : 0, nb = oracle_found ? oc.diag : -1;
        if (ex->oc && (!have_cached || ca != na || cb != nb)) {
            if (have_cached)
                note(ex, GB_NOTE_WARNING, "%s:%ld: warning: the oracle cache said %s, Dijkstra "
                     "says %s; the cache entry is replaced", scen, q->line,
                     cb < 0 ? "unreachable" : "another optimum", nb < 0 ? "unreachable" : "this one");
            int pe = gb_ocache_put(ex->oc, q->sx, q->sy, q->gx, q->gy, na, nb);
            if (pe == -2) {
                rc = gb_diag_set(d, EX_OSERR, scen, q->line, 0, "expected memory for the oracle "
                                 "cache, found none");
                goto out;
            }
            if (pe != 0 && !ex->oc_warned) {
                ex->oc_warned = 1;
                note(ex, GB_NOTE_WARNING, "%s: warning: expected to append to the oracle cache, "
                     "found '%s'; it is no longer written", gb_ocache_path(ex->oc), strerror(errno));
            }
        }
    }
    res->scen_ok = scen_ok;

    for (int pi = 0; pi < o->npairs; pi++) {
        const gb_pair *p = &o->pairs[pi];
        gb_queue_kind qk = p->queue < 0 ? GB_Q_BHEAP : (gb_queue_kind)p->queue;
        /* --max-mem: a solver whose workspace would not fit is not run */
        uint64_t mem = ex->mem[pi] ? ex->mem[pi] : pair_ws_bytes(p, grid);
        int over_mem = o->max_mem && mem > o->max_mem;
        int nrep = o->reps, self_ok = 0, ran = 0;
        int64_t cold = 0;
        gb_ext_answer ea;
        ea.msg[0] = '\0';
        gb_ext_status es = GB_EXT_PATH;
        memset(&r, 0, sizeof r);
        if (p->user && !ex->skip[pi] && ex->uprep[pi] == UPREP_NONE) {
            /* skipped when the map was loaded (it crashed that query): prepare it now */
            if (ex->inflight) *ex->inflight = pi;
            int64_t t0 = now_ns();
            ex->uprep[pi] = gb_user_prepare(p->user, grid, o->model) == 0 ? UPREP_DONE : UPREP_FAILED;
            int64_t dt = now_ns() - t0;
            ex->prep[pi] = dt > 0 ? (uint64_t)dt : 1;
            if (ex->inflight) *ex->inflight = -1;
        }
        if (p->ext_cmd) {
            es = run_external(ex, ex->ext[pi], sxy, txy, &r, &nrep, &self_ok, &ea);
            cold = ex->times[0];
            mem = gb_ext_resident(ex->ext[pi]);
            ran = 1;
        } else if (over_mem) {
            r.status = GB_LIMIT;
            ex->times[0] = 0;
            nrep = 1;
        } else if (p->user && ex->skip[pi]) {
            es = GB_EXT_CRASH;   /* it killed the worker on this query: not run again */
            char how[96];   /* a signal; a sanitizer's report exits with a status instead */
            if (WIFSIGNALED(ex->skip_ws))
                snprintf(how, sizeof how, "signal %d: %s", WTERMSIG(ex->skip_ws),
                         strsignal(WTERMSIG(ex->skip_ws)));
            else
                snprintf(how, sizeof how, "exit status %d", WEXITSTATUS(ex->skip_ws));
            snprintf(ea.msg, sizeof ea.msg, "the user solver crashed the worker process running "
                     "it (%s); not run again on this query", how);
            ex->times[0] = 0;
            nrep = 1;
        } else if (p->user && ex->uprep[pi] == UPREP_FAILED) {
            es = GB_EXT_CRASH;   /* not run: its per-map preparation failed */
            snprintf(ea.msg, sizeof ea.msg, "the user solver's prepare hook failed on this map "
                     "(returned -1)");
            ex->times[0] = 0;
            nrep = 1;
        } else {
            if (p->user && ex->inflight) *ex->inflight = pi;   /* a crash now is this pair's */
            for (int rep = 0; rep < o->reps; rep++) {
                int64_t t0 = now_ns();
                int e = 0;
                if (p->user) {
                    if (run_user(p->user, ex, s, t, &r) < 0 && es == GB_EXT_PATH) {
                        es = GB_EXT_CRASH;   /* the solver says it failed */
                        snprintf(ea.msg, sizeof ea.msg, "the user solver reported an internal "
                                 "error (returned a negative length)");
                    }
                } else {
                    e = gb_solve(ex->ws, &p->spec, qk, s, t, &r);
                }
                int64_t t1 = now_ns();
                if (e != 0) {
                    rc = gb_diag_set(d, EX_OSERR, scen, q->line, 0,
                                     "expected memory for solver %s, found none", p->spec.name);
                    goto out;
                }
                ex->times[rep] = t1 - t0;
                if (rep == 0) cold = ex->times[0];
            }
            if (ex->inflight) *ex->inflight = -1;
            ran = 1;
        }
        /* warm = the median of the reps after the first (the first is time_cold_ns) */
        int64_t med = nrep > 1 ? median_i64(ex->times + 1, nrep - 1) : ex->times[0];

        outcome w;
        memset(&w, 0, sizeof w);
        gb_check pc;
        memset(&pc, 0, sizeof pc);
        w.ext_status = es;
        w.over_mem = over_mem;
        w.rs = r.status;
        w.oracle_found = oracle_found;
        w.scen_ok = scen_ok;
        w.gu = pair_guarantee(p, o->model, &w.bound);
        w.pc = &pc;
        w.oc = &oc;
        int ext_failed = es == GB_EXT_PROTOCOL || es == GB_EXT_TIMEOUT || es == GB_EXT_CRASH
                         || es == GB_EXT_LIMIT;
        w.anyangle = pair_cost_model(p) == GB_COST_ANYANGLE;
        if (w.anyangle) {
            w.grid_bound = gb_solver_grid_bound(&p->spec, o->model);
            w.euclid = gb_anyangle_dist(sxy, txy);
        }
        if (!ext_failed && r.status == GB_FOUND) {
            if (!p->ext_cmd) to_xy(grid, r.path, r.path_len, ex->xy);   /* externals: already xy */
            w.valid = w.anyangle
                ? gb_validate_anyangle(grid, sxy, txy, ex->xy, (size_t)r.path_len, r.cost, &pc)
                : gb_validate_path(grid, o->model, sxy, txy, ex->xy, (size_t)r.path_len,
                                   r.cost, &pc);
        }
        int st = classify(&w);
        if (st == GB_ROW_INVALID && w.valid)   /* any-angle, shorter than the straight line */
            snprintf(pc.msg, sizeof pc.msg, "expected an any-angle cost >= the straight line "
                     "%.10g, found %.10g", w.euclid, pc.cost);
        if (st < 0) {   /* a valid path where Dijkstra found none: the oracle is wrong */
            rc = gb_diag_set(d, EX_SOFTWARE, scen, q->line, 0,
                             "expected no path (Dijkstra found none), found a valid one from %s",
                             p->spec.name);
            goto out;
        }
        if (gb_row_status_failed((gb_row_status)st))
            note(ex, GB_NOTE_FAILURE, "%s:%ld: %s on %s/%s: %s%s%s%s", scen, q->line,
                 gb_row_status_name((gb_row_status)st), ex->pname[pi], gb_pair_queue_name(p),
                 st == GB_ROW_INVALID ? pc.msg : "",
                 st == GB_ROW_SUBOPTIMAL ? (w.anyangle ? "any-angle cost above its bound x "
                                            "the grid optimum (Dijkstra's)"
                                            : "cost differs from Dijkstra's") : "",
                 st == GB_ROW_FALSE_UNREACHABLE ? "no path reported, Dijkstra found one" : "",
                 st >= GB_ROW_PROTOCOL ? ea.msg : "");
        res->st[pi] = (uint8_t)st;
        res->exp[pi] = r.st.expanded;
        res->ns[pi] = med;
        memcpy(res->name[pi], ex->pname[pi], sizeof res->name[pi]);

        row rw;
        memset(&rw, 0, sizeof rw);
        rw.p = p;
        rw.name = ex->pname[pi];
        rw.gu = w.gu;
        rw.bound = w.bound;
        rw.st = (gb_row_status)st;
        rw.counters = ran && !ext_failed ? &r.st : NULL;
        rw.has_cost = r.status == GB_FOUND && !ext_failed;
        rw.cost = r.cost;
        rw.path_len = r.path_len;
        rw.oc = oracle_found ? &oc : NULL;
        rw.pc = pc.ok ? &pc : NULL;
        rw.med = med;
        rw.cold = cold;
        rw.reps = nrep;
        rw.mem = mem;
        rw.prep = ex->prep[pi];
        rw.self_ns = p->ext_cmd && self_ok && nrep > 0 ? median_i64(ex->self, nrep) : -1;
        write_row(ex->rows_f, mname, scen, q, model, &rw);
    }
out:
    if (ex->rows_f && fclose(ex->rows_f) != 0 && !rc)
        rc = gb_diag_set(d, EX_OSERR, scen, q->line, 0, "expected memory, found none");
    if (ex->notes_f && fclose(ex->notes_f) != 0 && !rc)
        rc = gb_diag_set(d, EX_OSERR, scen, q->line, 0, "expected memory, found none");
    ex->rows_f = ex->notes_f = NULL;
    return rc;
}

/* ---- sink ------------------------------------------------------------- */

typedef struct sink {
    const gb_run_opts *o;
    const gb_plan *pl;
    gb_journal jr;
    FILE *out;               /* the journal's stream, or stdout */
    gb_run_totals *tot;
    size_t done, total;      /* queries of this run written / to write */
    double work_done, work;
    int64_t t0;
} sink;

static void forward_notes(const gb_run_opts *o, const char *s, size_t n)
{
    while (n > 0) {
        const char *e = memchr(s, '\n', n);
        size_t len = e ? (size_t)(e - s) : n;
        if (len > 1 && o->note) {
            char b[1100];
            size_t m = len - 1 < sizeof b - 1 ? len - 1 : sizeof b - 1;
            memcpy(b, s + 1, m);
            b[m] = '\0';
            int kind = s[0] - '0';
            o->note(o->ctx, kind >= 0 && kind <= GB_NOTE_INFO ? (gb_run_note_kind)kind
                                                             : GB_NOTE_WARNING, b);
        }
        if (!e) break;
        n -= len + 1;
        s = e + 1;
    }
}

static void count_row(gb_run_totals *tot, int pi, int st, uint64_t expanded, int64_t ns,
                      const char *name)
{
    if (st >= GB_ROW_NSTATUS) st = GB_ROW_CRASH;
    if (gb_row_status_failed((gb_row_status)st)) tot->failures++;
    tot->status[st]++;
    tot->rows++;
    gb_run_pairsum *ps = &tot->pair[pi];
    if (name) snprintf(ps->name, sizeof ps->name, "%s", name);
    ps->rows++;
    ps->status[st]++;
    ps->expanded += expanded;
    ps->time_ns += ns;
}

static void sink_progress(sink *sk, size_t k)
{
    sk->done++;
    sk->work_done += gb_plan_work(sk->pl, k);
    if (!sk->o->progress) return;
    gb_run_progress p = { sk->done, sk->total, sk->work_done, sk->work,
                          sk->pl->scen[sk->pl->item[k].scen].path,
                          (double)(now_ns() - sk->t0) * 1e-9 };
    sk->o->progress(sk->o->ctx, &p);
}

/* Write the result of plan index k (the qn-th query of this run). */
static int sink_query(sink *sk, size_t k, long qn, const qres *r, gb_diag *d)
{
    const gb_run_opts *o = sk->o;
    if (r->rows_len && fwrite(r->rows, 1, r->rows_len, sk->out) != r->rows_len)
        return gb_diag_set(d, EX_IOERR, o->out ? sk->jr.path : "<stdout>", 0, 0,
                           "expected to write the rows, found '%s'", strerror(errno));
    forward_notes(o, r->notes, r->notes_len);
    gb_run_totals *tot = sk->tot;
    tot->queries++;
    if (!r->scen_ok) tot->scen_mismatch++;
    if (r->oracle_hit) tot->oracle_hits++;
    for (int pi = 0; pi < o->npairs; pi++)
        count_row(tot, pi, r->st[pi], r->exp[pi], r->ns[pi], r->name[pi][0] ? r->name[pi] : NULL);
    if (o->out) {
        int rc = gb_journal_commit(&sk->jr, qn, gb_plan_query(sk->pl, k)->line, r->scen_ok, r->st,
                                   r->exp, r->ns, d);
        if (rc) return rc;
    }
    sink_progress(sk, k);
    return 0;
}

/* `crash` rows for plan index k, whose worker died (the parent writes them). */
static int crash_rows(exec *ex, size_t k, int wstatus, qres *r)
{
    const gb_run_opts *o = ex->o;
    const gb_plan_scen *ps = &ex->pl->scen[ex->pl->item[k].scen];
    const gb_query *q = &ps->sc.q[ex->pl->item[k].qi];
    qres_clear_text(r);
    ex->rows_f = open_memstream(&r->rows, &r->rows_len);
    ex->notes_f = open_memstream(&r->notes, &r->notes_len);
    if (!ex->rows_f || !ex->notes_f) {
        if (ex->rows_f) fclose(ex->rows_f);
        if (ex->notes_f) fclose(ex->notes_f);
        ex->rows_f = ex->notes_f = NULL;
        return -1;
    }
    char why[96];
    if (WIFSIGNALED(wstatus)) snprintf(why, sizeof why, "killed by signal %d", WTERMSIG(wstatus));
    else snprintf(why, sizeof why, "exited with status %d", WEXITSTATUS(wstatus));
    r->scen_ok = 1;
    r->oracle_hit = 0;
    for (int pi = 0; pi < o->npairs; pi++) {
        row w;
        memset(&w, 0, sizeof w);
        w.p = &o->pairs[pi];
        w.name = ex->pname[pi];
        w.gu = pair_guarantee(w.p, o->model, &w.bound);
        w.st = GB_ROW_CRASH;
        w.reps = 0;
        w.self_ns = -1;
        write_row(ex->rows_f, base_name(ps->map), ps->path, q, gb_model_name(o->model), &w);
        r->st[pi] = GB_ROW_CRASH;
        r->exp[pi] = 0;
        r->ns[pi] = 0;
        r->name[pi][0] = '\0';
    }
    note(ex, GB_NOTE_FAILURE, "%s:%ld: crash on every pair: the worker process running this "
         "query %s", ps->path, q->line, why);
    int bad = fclose(ex->rows_f) != 0;
    bad |= fclose(ex->notes_f) != 0;
    ex->rows_f = ex->notes_f = NULL;
    return bad ? -1 : 0;
}

/* ---- workers ---------------------------------------------------------- */

#define WORKER_DEPTH 2      /* positions outstanding per worker */
#define MSG_MAGIC 0x47425251u   /* "QRBG" */
enum { MSG_RESULT = 1, MSG_ERROR = 2 };

typedef struct msg_head {
    uint32_t magic, kind;
    uint64_t pos;            /* position in the run's todo list */
    int32_t scen_ok, oracle_hit;
    uint64_t rows_len, notes_len;
} msg_head;

/* A command to a worker: a position (UINT64_MAX: stop), then nskip int32
 * pair indices not to run (they crashed a worker on it; ws is the wait
 * status that worker ended with). */
typedef struct cmd_head {
    uint64_t pos;
    int32_t nskip, ws;
} cmd_head;

/* The pairs that crashed a worker, per position (few: a list). */
typedef struct skipent {
    size_t pos;
    int32_t pi, ws;
} skipent;

typedef struct worker {
    pid_t pid;               /* 0: none */
    int cmd, res;            /* write end of its commands, read end of its results */
    size_t out[WORKER_DEPTH];  /* positions sent, oldest first */
    int nout;
    char *buf;               /* bytes read, not yet a whole message */
    size_t len, cap;
    int cpu;                 /* CPU to pin it to, or -1 */
} worker;

static int write_full(int fd, const void *b, size_t n)
{
    const char *p = b;
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0) { if (errno == EINTR) continue; return -1; }
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

static int read_full(int fd, void *b, size_t n)
{
    char *p = b;
    while (n) {
        ssize_t r = read(fd, p, n);
        if (r < 0) { if (errno == EINTR) continue; return -1; }
        if (r == 0) return -1;
        p += r;
        n -= (size_t)r;
    }
    return 0;
}

static size_t msg_size(int npairs, const msg_head *h)
{
    return sizeof *h + (size_t)npairs * (1 + 8 + 8 + 64) + h->rows_len + h->notes_len;
}

/* The worker's loop: read positions, execute, send results.  Never returns. */
static void worker_main(const gb_run_opts *o, const gb_plan *pl, const size_t *todo, int cmd,
                        int res, volatile int32_t *inflight)
{
    exec ex;
    gb_diag d;
    gb_diag_clear(&d);
    qres r;
    int code = 0;
    if (exec_init(&ex, o, pl, &d) != 0 || qres_init(&r, o->npairs) != 0) _exit(71);
    /* a test hook: GRIDBENCH_WORKER_CRASH_AT=k kills the worker that is
     * handed plan index k (tests/test_scale.c proves a crash is contained) */
    const char *ca = getenv("GRIDBENCH_WORKER_CRASH_AT");
    long crash_at = ca && *ca ? strtol(ca, NULL, 10) : -1;
    ex.inflight = inflight;
    cmd_head ch;
    while (read_full(cmd, &ch, sizeof ch) == 0 && ch.pos != UINT64_MAX) {
        uint64_t pos = ch.pos;
        memset(ex.skip, 0, (size_t)o->npairs);
        ex.skip_ws = ch.ws;
        for (int32_t i = 0; i < ch.nskip; i++) {
            int32_t pi;
            if (read_full(cmd, &pi, sizeof pi) != 0) _exit(1);
            if (pi >= 0 && pi < o->npairs) ex.skip[pi] = 1;
        }
        *inflight = -1;
        if (crash_at >= 0 && todo[pos] == (size_t)crash_at) kill(getpid(), SIGKILL);
        int rc = exec_query(&ex, todo[pos], &r, &d);
        msg_head h = { MSG_MAGIC, rc ? MSG_ERROR : MSG_RESULT, pos, r.scen_ok, r.oracle_hit,
                       rc ? 0 : r.rows_len, r.notes_len };
        int bad = write_full(res, &h, sizeof h) != 0;
        if (rc) {
            bad |= write_full(res, &d, sizeof d) != 0;
            bad |= r.notes_len && write_full(res, r.notes, r.notes_len) != 0;
            code = rc;
            break;
        }
        size_t np = (size_t)o->npairs;
        bad |= write_full(res, r.st, np) != 0;
        bad |= write_full(res, r.exp, np * 8) != 0;
        bad |= write_full(res, r.ns, np * 8) != 0;
        bad |= write_full(res, r.name, np * 64) != 0;
        bad |= r.rows_len && write_full(res, r.rows, r.rows_len) != 0;
        bad |= r.notes_len && write_full(res, r.notes, r.notes_len) != 0;
        if (bad) { code = 74; break; }
    }
    qres_free(&r);
    exec_free(&ex);
    _exit(code ? 1 : 0);
}

typedef struct pool {
    worker *w;
    int n;
    const gb_run_opts *o;
    const gb_plan *pl;
    const size_t *todo;
    volatile int32_t *inflight;   /* [n] shared (mmap): each worker's running pair */
    skipent *skip;                /* pairs not to run again, per position */
    size_t nskip, capskip;
} pool;

static int worker_start(pool *pp, int i)
{
    worker *w = &pp->w[i];
    int c[2], r[2];
    if (pipe2(c, O_CLOEXEC) != 0) return -1;
    if (pipe2(r, O_CLOEXEC) != 0) { close(c[0]); close(c[1]); return -1; }
    fflush(NULL);   /* nothing buffered is written twice */
    pp->inflight[i] = -1;
    pid_t pid = fork();
    if (pid < 0) { close(c[0]); close(c[1]); close(r[0]); close(r[1]); return -1; }
    if (pid == 0) {
        /* the worker: default signal dispositions (the parent's handlers
         * remove the parent's temp files), die with the parent, keep only
         * its own pipe ends */
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        signal(SIGHUP, SIG_DFL);
        signal(SIGPIPE, SIG_DFL);
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() == 1) _exit(1);
        for (int j = 0; j < pp->n; j++)
            if (j != i && pp->w[j].pid) { close(pp->w[j].cmd); close(pp->w[j].res); }
        close(c[1]);
        close(r[0]);
        if (w->cpu >= 0) {
            cpu_set_t set;
            CPU_ZERO(&set);
            CPU_SET(w->cpu, &set);
            sched_setaffinity(0, sizeof set, &set);
        }
        worker_main(pp->o, pp->pl, pp->todo, c[0], r[1], &pp->inflight[i]);
    }
    close(c[0]);
    close(r[1]);
    w->pid = pid;
    w->cmd = c[1];
    w->res = r[0];
    w->nout = 0;
    w->len = 0;
    return 0;
}

/* Stop worker i (after its last result, or because it died): close its
 * pipes and reap it.  Its wait status goes to *ws. */
static void worker_stop(worker *w, int kill_it, int *ws)
{
    int status = 0;
    if (!w->pid) return;
    if (kill_it) kill(w->pid, SIGKILL);
    else {
        cmd_head stop = { UINT64_MAX, 0, 0 };
        (void)!write(w->cmd, &stop, sizeof stop);
    }
    close(w->cmd);
    close(w->res);
    while (waitpid(w->pid, &status, 0) < 0 && errno == EINTR) {}
    if (ws) *ws = status;
    w->pid = 0;
}

static int worker_send(pool *pp, worker *w, size_t pos)
{
    cmd_head h = { pos, 0, 0 };
    int32_t list[GB_RUN_MAX_PAIRS];
    for (size_t i = 0; i < pp->nskip; i++)
        if (pp->skip[i].pos == pos && h.nskip < GB_RUN_MAX_PAIRS) {
            list[h.nskip++] = pp->skip[i].pi;
            h.ws = pp->skip[i].ws;
        }
    if (write_full(w->cmd, &h, sizeof h) != 0) return -1;
    if (h.nskip && write_full(w->cmd, list, (size_t)h.nskip * sizeof *list) != 0) return -1;
    w->out[w->nout++] = pos;
    return 0;
}

/* Worker i died on position pos: when it was running a user pair not
 * yet skipped there, put that pair on the position's skip list and
 * return 1 (the position is handed out again); else 0. */
static int skip_crashed(pool *pp, int i, size_t pos, int wstatus)
{
    int32_t pi = pp->inflight[i];
    if (pi < 0 || pi >= pp->o->npairs || !pp->o->pairs[pi].user) return 0;
    for (size_t k = 0; k < pp->nskip; k++)
        if (pp->skip[k].pos == pos && pp->skip[k].pi == pi) return 0;
    if (pp->nskip == pp->capskip) {
        size_t nc = pp->capskip ? 2 * pp->capskip : 16;
        skipent *ns = gb_realloc(pp->skip, nc * sizeof *ns);
        if (!ns) return 0;
        pp->skip = ns;
        pp->capskip = nc;
    }
    pp->skip[pp->nskip++] = (skipent){ pos, pi, wstatus };
    return 1;
}

/* The CPUs this process may run on, in order, into cpus[] (at most n). */
static int allowed_cpus(int *cpus, int n)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0) return 0;
    int k = 0;
    for (int c = 0; c < CPU_SETSIZE && k < n; c++)
        if (CPU_ISSET(c, &set)) cpus[k++] = c;
    return k;
}

/* Parse a whole message at the head of w->buf into *r (returns its size),
 * 0 when not all of it is there yet. */
static size_t msg_take(worker *w, int npairs, qres *r, msg_head *h, gb_diag *d)
{
    if (w->len < sizeof *h) return 0;
    memcpy(h, w->buf, sizeof *h);
    size_t need = h->kind == MSG_ERROR ? sizeof *h + sizeof *d + h->notes_len : msg_size(npairs, h);
    if (w->len < need) return 0;
    const char *p = w->buf + sizeof *h;
    qres_clear_text(r);
    if (h->kind == MSG_ERROR) {
        memcpy(d, p, sizeof *d);
        p += sizeof *d;
    } else {
        size_t np = (size_t)npairs;
        memcpy(r->st, p, np); p += np;
        memcpy(r->exp, p, np * 8); p += np * 8;
        memcpy(r->ns, p, np * 8); p += np * 8;
        memcpy(r->name, p, np * 64); p += np * 64;
        r->rows = malloc(h->rows_len + 1);
        if (!r->rows) return (size_t)-1;
        memcpy(r->rows, p, h->rows_len);
        r->rows_len = h->rows_len;
        p += h->rows_len;
        r->scen_ok = h->scen_ok;
        r->oracle_hit = h->oracle_hit;
    }
    r->notes = malloc(h->notes_len + 1);
    if (!r->notes) return (size_t)-1;
    memcpy(r->notes, p, h->notes_len);
    r->notes_len = h->notes_len;
    return need;
}

#define RING 256   /* results kept ahead of the next position to write */

/* Execute todo[0..ntodo) on o->jobs workers and sink them in order;
 * position i is the (first_qn + i)-th query of the run. */
static int run_pool(sink *sk, exec *ex, const size_t *todo, size_t ntodo, long first_qn, gb_diag *d)
{
    const gb_run_opts *o = sk->o;
    int nw = o->jobs > 1 ? o->jobs : 1;   /* 1: user solvers isolated at --jobs 1 */
    if ((size_t)nw > ntodo) nw = (int)ntodo;
    pool pp = { NULL, nw, o, sk->pl, todo, NULL, NULL, 0, 0 };
    qres *ring = gb_calloc(RING, sizeof *ring);
    unsigned char *ready = gb_calloc(RING, 1);
    size_t *retry = gb_malloc((size_t)(nw * WORKER_DEPTH + 1) * sizeof *retry);
    struct pollfd *pfd = gb_malloc((size_t)nw * sizeof *pfd);
    pp.w = gb_calloc((size_t)nw, sizeof *pp.w);
    void *shm = mmap(NULL, (size_t)nw * sizeof(int32_t), PROT_READ | PROT_WRITE,
                     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    pp.inflight = shm == MAP_FAILED ? NULL : shm;
    int rc = 0, nring = 0;
    /* a dead worker's command pipe must fail with EPIPE, not kill us */
    void (*old_pipe)(int) = signal(SIGPIPE, SIG_IGN);
    if (!ring || !ready || !retry || !pfd || !pp.w || !pp.inflight) goto oom;
    for (; nring < RING; nring++)
        if (qres_init(&ring[nring], o->npairs) != 0) goto oom;
    int cpus[1024], ncpu = allowed_cpus(cpus, 1024);
    for (int i = 0; i < nw; i++) {
        pp.w[i].cpu = o->pin && nw <= ncpu ? cpus[i] : -1;
        if (worker_start(&pp, i) != 0) {
            rc = gb_diag_set(d, EX_OSERR, "", 0, 0, "expected to start worker %d of %d, found '%s'",
                             i + 1, nw, strerror(errno));
            goto done;
        }
    }
    size_t next_write = 0, next_send = 0, nretry = 0;
    while (next_write < ntodo) {
        /* hand out work: retried positions first, then new ones in order */
        for (int i = 0; i < nw; i++) {
            worker *w = &pp.w[i];
            while (w->pid && w->nout < WORKER_DEPTH) {
                size_t pos;
                if (nretry) pos = retry[--nretry];
                else if (next_send < ntodo && next_send < next_write + RING) pos = next_send++;
                else break;
                if (worker_send(&pp, w, pos) != 0) { retry[nretry++] = pos; break; }
            }
        }
        int np = 0;
        for (int i = 0; i < nw; i++) {
            pfd[i].fd = pp.w[i].pid && pp.w[i].nout ? pp.w[i].res : -1;
            pfd[i].events = POLLIN;
            pfd[i].revents = 0;
            if (pfd[i].fd >= 0) np++;
        }
        if (np == 0) {
            rc = gb_diag_set(d, EX_SOFTWARE, "", 0, 0, "expected a worker with work, found none");
            goto done;
        }
        if (poll(pfd, (nfds_t)nw, -1) < 0) {
            if (errno == EINTR) continue;
            rc = gb_diag_set(d, EX_OSERR, "", 0, 0, "expected poll() to work, found '%s'", strerror(errno));
            goto done;
        }
        for (int i = 0; i < nw; i++) {
            worker *w = &pp.w[i];
            if (pfd[i].fd < 0 || !pfd[i].revents) continue;
            if (w->len + 65536 > w->cap) {
                size_t nc = w->cap ? 2 * w->cap : 131072;
                while (nc < w->len + 65536) nc *= 2;
                char *nb = gb_realloc(w->buf, nc);
                if (!nb) goto oom;
                w->buf = nb;
                w->cap = nc;
            }
            ssize_t got = read(w->res, w->buf + w->len, w->cap - w->len);
            if (got < 0 && errno == EINTR) continue;
            if (got <= 0) {   /* the worker died: its oldest position crashed */
                int ws = 0;
                worker_stop(w, 1, &ws);
                sk->tot->worker_crashes++;
                size_t pos = w->out[0];
                for (int j = w->nout - 1; j >= 1; j--) retry[nretry++] = w->out[j];
                w->nout = 0;
                if (skip_crashed(&pp, i, pos, ws)) {
                    retry[nretry++] = pos;   /* again, without the pair that crashed */
                } else {
                    qres *slot = &ring[pos % RING];
                    if (crash_rows(ex, todo[pos], ws, slot) != 0) goto oom;
                    ready[pos % RING] = 1;
                }
                w->len = 0;
                if (worker_start(&pp, i) != 0) {
                    rc = gb_diag_set(d, EX_OSERR, "", 0, 0, "expected to restart a worker, found '%s'",
                                     strerror(errno));
                    goto done;
                }
                continue;
            }
            w->len += (size_t)got;
            for (;;) {
                msg_head h;
                if (!w->nout) break;
                size_t pos = w->out[0];
                qres *slot = &ring[pos % RING];
                size_t used = msg_take(w, o->npairs, slot, &h, d);
                if (used == (size_t)-1) goto oom;
                if (used == 0) break;
                if (h.magic != MSG_MAGIC || h.pos != pos) {
                    rc = gb_diag_set(d, EX_SOFTWARE, "", 0, 0, "expected the result of position %zu "
                                     "from a worker, found a garbled message", pos);
                    goto done;
                }
                memmove(w->buf, w->buf + used, w->len - used);
                w->len -= used;
                memmove(w->out, w->out + 1, (size_t)(w->nout - 1) * sizeof *w->out);
                w->nout--;
                if (h.kind == MSG_ERROR) {   /* bad input: stop as one process would */
                    forward_notes(o, slot->notes, slot->notes_len);
                    rc = d->code ? d->code : EX_SOFTWARE;
                    goto done;
                }
                ready[pos % RING] = 1;
            }
        }
        /* write what is complete, in order */
        while (next_write < ntodo && ready[next_write % RING]) {
            qres *slot = &ring[next_write % RING];
            if ((rc = sink_query(sk, todo[next_write], first_qn + (long)next_write, slot, d)) != 0)
                goto done;
            qres_clear_text(slot);
            ready[next_write % RING] = 0;
            next_write++;
        }
    }
    goto done;
oom:
    rc = gb_diag_set(d, EX_OSERR, "", 0, 0, "expected memory, found none");
done:
    for (int i = 0; pp.w && i < nw; i++) {
        worker_stop(&pp.w[i], rc != 0, NULL);
        gb_free(pp.w[i].buf);
    }
    signal(SIGPIPE, old_pipe);
    if (pp.inflight) munmap((void *)pp.inflight, (size_t)nw * sizeof(int32_t));
    gb_free(pp.skip);
    for (int i = 0; i < nring; i++) qres_free(&ring[i]);
    gb_free(ring);
    gb_free(ready);
    gb_free(retry);
    gb_free(pfd);
    gb_free(pp.w);
    return rc;
}

/* ---- the shard manifest ------------------------------------------------ */

static int write_shard_manifest(const gb_run_opts *o, const gb_plan *pl, size_t nq, gb_diag *d)
{
    char path[1100], tmp[1200];
    snprintf(path, sizeof path, "%s.shard", o->out);
    FILE *f = gb_tmp_open(path, tmp, sizeof tmp, d);
    if (!f) return d->code;
    fprintf(f, "gridbench shard v1\nplan %s\nshard %ld/%ld\nplan_queries %zu\nqueries %zu\n"
            "pairs %d\nrows %zu\n", pl->fingerprint, o->shard_i, o->shard_n, pl->n, nq,
            o->npairs, nq * (size_t)o->npairs);
    return gb_tmp_commit(f, tmp, path, d);
}

/* ---- the run ---------------------------------------------------------- */

int gb_run(const gb_run_opts *o, char *const *scens, int nscen, gb_run_totals *tot, gb_diag *d)
{
    memset(tot, 0, sizeof *tot);
    gb_diag_clear(d);
    for (int pi = 0; pi < o->npairs; pi++)
        snprintf(tot->pair[pi].name, sizeof tot->pair[pi].name, "%s", o->pairs[pi].spec.name);

    /* plan */
    gb_plan pl;
    int rc = gb_plan_build(&pl, o, scens, nscen, d);
    if (rc) return rc;
    if (o->out) {   /* the output: a regular file or nothing yet, none of the inputs */
        char **in = gb_malloc((size_t)(2 * pl.nscen + 1) * sizeof *in);
        if (!in) { gb_plan_free(&pl); return gb_diag_set(d, EX_OSERR, "", 0, 0, "expected memory, found none"); }
        for (int i = 0; i < pl.nscen; i++) {
            in[2 * i] = (char *)pl.scen[i].path;
            in[2 * i + 1] = pl.scen[i].map;
        }
        rc = gb_out_check(o->out, in, 2 * pl.nscen, d);
        gb_free(in);
        if (rc) { gb_plan_free(&pl); return rc; }
    }
    size_t *todo = gb_malloc((pl.n ? pl.n : 1) * sizeof *todo);
    size_t ntodo = 0;
    if (!todo) { gb_plan_free(&pl); return gb_diag_set(d, EX_OSERR, "", 0, 0, "expected memory, found none"); }
    for (size_t k = 0; k < pl.n; k++)
        if (o->shard_n <= 1 || (long)(k % (size_t)o->shard_n) == o->shard_i) todo[ntodo++] = k;

    /* sink */
    sink sk;
    memset(&sk, 0, sizeof sk);
    sk.o = o;
    sk.pl = &pl;
    sk.tot = tot;
    sk.out = stdout;
    sk.total = ntodo;
    sk.t0 = now_ns();
    for (size_t i = 0; i < ntodo; i++) sk.work += gb_plan_work(&pl, todo[i]);
    exec ex;
    int have_ex = 0;
    qres r;
    memset(&r, 0, sizeof r);
    long qn = 0;
    if (o->out && o->resume) {   /* a finished run has no journal: never run it all again */
        char jp[1100];
        struct stat js, os;
        snprintf(jp, sizeof jp, "%s.partial", o->out);
        if (stat(jp, &js) != 0 && stat(o->out, &os) == 0 && S_ISREG(os.st_mode)) {
            gb_free(todo);
            gb_plan_free(&pl);
            return gb_diag_set(d, EX_CANTCREAT, o->out, 0, 0, "expected a journal to resume (%s), "
                               "found none and a finished %s: the run is complete; to run it again, "
                               "remove it or use --fresh", jp, o->out);
        }
    }
    if (o->out) {
        char fp[256];
        if (o->shard_n > 1) snprintf(fp, sizeof fp, "%s, shard %ld/%ld", pl.fingerprint, o->shard_i, o->shard_n);
        else snprintf(fp, sizeof fp, "%s", pl.fingerprint);
        int mode = o->resume ? GB_JOURNAL_RESUME : o->fresh ? GB_JOURNAL_FRESH : GB_JOURNAL_NEW;
        if ((rc = gb_journal_open(&sk.jr, o->out, fp, csv_header, csv_kinds, o->npairs, mode, d)) != 0) {
            gb_free(todo);
            gb_plan_free(&pl);
            return rc;
        }
        sk.out = sk.jr.f;
        char sn[1300];
        snprintf(sn, sizeof sn, "gridbench run: interrupted; the completed queries are kept in %s: "
                 "`--resume` (same options) continues from there\n", sk.jr.path);
        gb_signal_note(sn);
        if (o->resume && o->note) {
            char b[1200];
            if (sk.jr.ndone > 0)
                snprintf(b, sizeof b, "gridbench run: %s: %ld queries done before, continuing after them",
                         sk.jr.path, sk.jr.ndone);
            else
                snprintf(b, sizeof b, "gridbench run: %s: no complete query to keep, the run starts "
                         "from the first", sk.jr.path);
            o->note(o->ctx, GB_NOTE_INFO, b);
        }
    } else {
        fprintf(stdout, "%s\n", csv_header);
    }

    /* resume: the journal's queries, in order, are this run's first ones */
    if ((size_t)sk.jr.ndone > ntodo) {
        rc = gb_diag_set(d, EX_DATAERR, sk.jr.path, 0, 0, "expected at most %zu queries in the "
                         "journal, found %ld", ntodo, sk.jr.ndone);
        goto done;
    }
    for (; qn < sk.jr.ndone; qn++) {
        const gb_journal_query *jq = &sk.jr.done[qn];
        size_t k = todo[qn];
        const gb_query *q = gb_plan_query(&pl, k);
        if (jq->line != q->line) {
            rc = gb_diag_set(d, EX_DATAERR, sk.jr.path, 0, 0,
                             "expected query %ld of the journal at line %ld of %s, found "
                             "line %ld: has the scenario file changed?",
                             qn, q->line, pl.scen[pl.item[k].scen].path, jq->line);
            goto done;
        }
        tot->queries++;
        if (!jq->scen_ok) tot->scen_mismatch++;
        for (int pi = 0; pi < o->npairs; pi++)
            count_row(tot, pi, jq->status[pi], jq->expanded[pi], jq->time_ns[pi], NULL);
        sink_progress(&sk, k);
    }

    /* execute */
    if ((rc = exec_init(&ex, o, &pl, d)) != 0) goto done;
    have_ex = 1;
    /* user solvers always run in a worker: a crash costs rows, not the run */
    int has_user = 0;
    for (int pi = 0; pi < o->npairs; pi++) has_user |= o->pairs[pi].user != NULL;
    if ((o->jobs > 1 && ntodo - (size_t)qn > 1) || (has_user && ntodo > (size_t)qn)) {
        rc = run_pool(&sk, &ex, todo + qn, ntodo - (size_t)qn, qn, d);
        if (rc) {
            qn = (long)sk.done;   /* what the journal holds */
            goto done;
        }
        qn = (long)ntodo;
    } else {
        if (qres_init(&r, o->npairs) != 0) { rc = gb_diag_set(d, EX_OSERR, "", 0, 0, "expected memory, found none"); goto done; }
        for (; (size_t)qn < ntodo; qn++) {
            rc = exec_query(&ex, todo[qn], &r, d);
            if (rc) { forward_notes(o, r.notes, r.notes_len); goto done; }
            if ((rc = sink_query(&sk, todo[qn], qn, &r, d)) != 0) goto done;
        }
    }

    /* finish */
    if (o->out) {
        rc = gb_journal_finish(&sk.jr, o->out, d);
        if (rc) goto done;
        if (o->shard_n > 1 && (rc = write_shard_manifest(o, &pl, ntodo, d)) != 0) goto done_nofile;
    } else if (fflush(stdout) != 0) {
        rc = gb_diag_set(d, EX_IOERR, "<stdout>", 0, 0, "expected to write the CSV, found %s", strerror(errno));
        goto done_nofile;
    }
    rc = tot->failures ? 1 : (o->strict && tot->scen_mismatch ? 2 : 0);
    goto done_nofile;

done:
    if (o->out && sk.jr.f) {   /* failed: keep what is complete, if anything is */
        gb_journal_close(&sk.jr);
        if (qn > 0) {
            if (o->note) {
                char b[1300];
                snprintf(b, sizeof b, "gridbench run: the %ld queries completed so far are kept in "
                         "%s; `--resume` continues from there", qn, sk.jr.path);
                o->note(o->ctx, GB_NOTE_INFO, b);
            }
        } else {
            remove(sk.jr.path);
        }
    }
done_nofile:
    gb_signal_note(NULL);
    if (have_ex) {
        /* closing external solvers may leave warnings */
        qres_clear_text(&r);
        FILE *nf = open_memstream(&r.notes, &r.notes_len);
        ex.notes_f = nf;
        exec_free(&ex);
        if (nf && fclose(nf) == 0) forward_notes(o, r.notes, r.notes_len);
    }
    qres_free(&r);
    gb_free(todo);
    gb_plan_free(&pl);
    return rc;
}
