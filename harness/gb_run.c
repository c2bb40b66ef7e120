/*
 * gb_run.c -- the runner (see gb_run.h for what a row means).
 *
 * Data: one map and one workspace are kept while consecutive scenarios
 * name the same map file; the oracle's check (step counts and cost) is
 * kept per query while the pairs run; xy[] converts a path of cell ids
 * into map coordinates for the validator (sized to the map).
 *
 * With --out, rows go to the journal "<out>.partial" (gb_journal.h),
 * flushed after every query together with a line that marks the query
 * complete; <out> itself is written (temp file + rename) only when the run
 * completed, so it is never half-written.  An interrupted or failed run
 * leaves the journal, and --resume continues it: the queries it holds are
 * replayed into the totals from their completion lines, without loading
 * their maps or running anything.
 */
#include "gb_run.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gb_alloc.h"
#include "gb_csv.h"
#include "gb_external.h"
#include "gb_journal.h"
#include "gb_map.h"
#include "gb_scen.h"
#include "gb_sha256.h"
#include "gb_user.h"
#include "gb_validate.h"

static const char *const row_status_names[GB_ROW_NSTATUS] = {
    "ok", "unreachable", "invalid_path", "suboptimal", "scen_mismatch",
    "false_unreachable", "limit", "protocol_error", "timeout", "crash"
};

const char *gb_row_status_name(gb_row_status s)
{
    return (unsigned)s < GB_ROW_NSTATUS ? row_status_names[s] : "?";
}

int gb_row_status_failed(gb_row_status s)
{
    return s == GB_ROW_INVALID || s == GB_ROW_SUBOPTIMAL || s == GB_ROW_FALSE_UNREACHABLE
        || s == GB_ROW_PROTOCOL || s == GB_ROW_TIMEOUT || s == GB_ROW_CRASH;
}

static const char csv_header[] =
    "map,scen,line,bucket,start_x,start_y,goal_x,goal_y,model,solver,queue,"
    "guarantee,bound,status,cost,dijkstra_cost,scen_cost,scen_decimals,subopt,"
    "path_len,expanded,generated,scanned,pushes,pops,decreases,stale,peak_open,"
    "time_ns,time_cold_ns,reps,mem_bytes";

const char *gb_run_csv_header(void) { return csv_header; }

/* ---- helpers ---------------------------------------------------------- */
static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static double now_s(void) { return (double)now_ns() * 1e-9; }

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
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
    return p->queue < 0 ? "fifo" : gb_queue_name((gb_queue_kind)p->queue);
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

/* State kept while consecutive scenarios share a map. */
typedef struct run_map {
    char path[1024];
    gb_map map;
    gb_ws *ws;
    gb_xy *xy;
    int32_t *upath;   /* path buffer for user solvers */
    int loaded;
    unsigned loads;   /* maps loaded so far (external solvers follow it); kept by run_map_free */
} run_map;

static void run_map_free(run_map *rm)
{
    unsigned loads = rm->loads;
    gb_ws_free(rm->ws);
    gb_free(rm->xy);
    gb_free(rm->upath);
    gb_map_free(&rm->map);
    memset(rm, 0, sizeof *rm);
    rm->loads = loads;
}

/* Bytes the run will hold for a width x height map besides the map itself:
 * the workspace prepared for the oracle and every built-in pair, and the
 * coordinate and path buffers. */
static uint64_t run_map_extra(const gb_run_opts *o, int32_t width, int32_t height)
{
    const int64_t ncells = ((int64_t)width + 2) * ((int64_t)height + 2);
    gb_solver_spec sp[GB_RUN_MAX_PAIRS + 1];
    gb_queue_kind qk[GB_RUN_MAX_PAIRS + 1];
    char err[128];
    int n = 0;
    gb_solver_parse("dijkstra", &sp[n], err, sizeof err);   /* the oracle */
    qk[n++] = GB_Q_BHEAP;
    for (int i = 0; i < o->npairs; i++) {
        const gb_pair *p = &o->pairs[i];
        if (p->user || p->ext_cmd) continue;
        sp[n] = p->spec;
        qk[n++] = p->queue < 0 ? GB_Q_BHEAP : (gb_queue_kind)p->queue;
    }
    const run_map *rm = NULL;   /* for sizeof only */
    return (uint64_t)gb_ws_bytes_all(width, height, sp, qk, n)
           + (uint64_t)ncells * (sizeof *rm->xy + sizeof *rm->upath);
}

static int run_map_get(run_map *rm, const gb_run_opts *o, const char *path, gb_diag *d)
{
    if (rm->loaded && strcmp(rm->path, path) == 0) return 0;
    run_map_free(rm);
    /* refuse a map that cannot fit before reading it (gb_map_load_fit) */
    int32_t W, H;
    long long fbytes;
    int rc = gb_map_peek(path, &W, &H, &fbytes, d);
    if (rc) return rc;
    rc = gb_map_load_fit(path, &rm->map, run_map_extra(o, W, H), d);
    if (rc) return rc;
    gb_model model = o->model;
    snprintf(rm->path, sizeof rm->path, "%s", path);
    rm->ws = gb_ws_new(&rm->map.grid, model);
    rm->xy = gb_malloc((size_t)rm->map.grid.ncells * sizeof *rm->xy);
    rm->upath = gb_malloc((size_t)rm->map.grid.ncells * sizeof *rm->upath);
    if (!rm->ws || !rm->xy || !rm->upath) {
        run_map_free(rm);
        return gb_diag_set(d, EX_OSERR, path, 0, 0, "expected memory for the search "
                           "state of this map, found none");
    }
    rm->loaded = 1;
    rm->loads++;
    return 0;
}

/* ---- progress --------------------------------------------------------- */
typedef struct progress {
    int on, tty;
    double t0, last;
} progress;

static void progress_tick(progress *p, int si, int ns, const char *scen, size_t qi, size_t nq,
                          int force)
{
    if (!p->on) return;
    double t = now_s();
    if (!force && t - p->last < (p->tty ? 0.25 : 10.0)) return;
    p->last = t;
    double frac = nq ? (double)qi / (double)nq : 1.0;
    /* ETA: the scenarios still to come are assumed to take as long as the
     * average one so far */
    double done = ((double)si + frac) / (double)(ns > 0 ? ns : 1), el = t - p->t0;
    double eta = done > 0 ? el * (1.0 - done) / done : 0.0;
    if (p->tty) {
        char bar[21];
        int fill = (int)(done * 20.0 + 0.5);
        for (int i = 0; i < 20; i++) bar[i] = i < fill ? '#' : '.';
        bar[20] = '\0';
        fprintf(stderr, "\rgridbench run: [%s] %3.0f%%  scen %d/%d %s  %zu/%zu  %.0f s, ETA %.0f s   ",
                bar, 100.0 * done, si + 1, ns, base_name(scen), qi, nq, el, eta);
    } else {
        fprintf(stderr, "gridbench run: %3.0f%%  scen %d/%d %s  %zu/%zu queries  %.0f s, ETA %.0f s\n",
                100.0 * done, si + 1, ns, base_name(scen), qi, nq, el, eta);
    }
}

/* ---- per-pair summary ------------------------------------------------- */
typedef struct pair_sum {
    uint64_t rows, status[GB_ROW_NSTATUS], expanded;
    int64_t time_ns;
} pair_sum;

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

/* One CSV row.  r: the solver's result when it found a path (else NULL);
 * oc: the oracle's check when Dijkstra found a path; pc: the solver's
 * check when its path is valid. */
static void write_row(FILE *out, const char *mname, const char *scen, const gb_query *q,
                      const char *model, const gb_pair *p, const char *pname, gb_guarantee gu,
                      double bound, gb_row_status st, const gb_result *r, const gb_check *oc,
                      const gb_check *pc, int64_t med, int64_t cold, int reps, uint64_t mem)
{
    static const gb_stats zero;
    const gb_stats *c = r ? &r->st : &zero;
    gb_csv_write_str(out, mname);
    fputc(',', out);
    gb_csv_write_str(out, scen);
    fprintf(out, ",%ld,%d,%d,%d,%d,%d,%s,", q->line, q->bucket, q->sx, q->sy, q->gx, q->gy, model);
    gb_csv_write_str(out, pname);
    fprintf(out, ",%s,%s,%g,%s,", gb_pair_queue_name(p),
            gb_guarantee_name(gu), bound, gb_row_status_name(st));
    if (r) fprintf(out, "%.8f", r->cost);
    fputc(',', out);
    if (oc) fprintf(out, "%.8f", oc->cost);
    fprintf(out, ",%.*f,%d,", q->decimals, q->length, q->decimals);
    if (pc && oc) fprintf(out, "%.6f", oc->cost > 0 ? pc->cost / oc->cost : 1.0);
    fprintf(out, ",%d,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%lld,%lld,%d,",
            r ? r->path_len : 0,
            (unsigned long long)c->expanded, (unsigned long long)c->generated,
            (unsigned long long)c->scanned, (unsigned long long)c->pushes,
            (unsigned long long)c->pops, (unsigned long long)c->decreases,
            (unsigned long long)c->stale, (unsigned long long)c->peak_open,
            (long long)med, (long long)cold, reps);
    if (mem) fprintf(out, "%llu", (unsigned long long)mem);   /* 0: not known */
    fputc('\n', out);
}

/* Run a user solver once into *r (path in rm->upath).  Its cost is the
 * sum of its steps (1 or sqrt 2 by shape; an illegal step is the
 * validator's to report).  An internal error (-1) becomes an empty found
 * path, which the validator rejects. */
static void run_user(const gb_user_solver *u, run_map *rm, gb_model m, int32_t s, int32_t t,
                     gb_result *r)
{
    const gb_grid *g = &rm->map.grid;
    memset(r, 0, sizeof *r);
    int32_t n = u->solve(u->ctx, g, m, s, t, rm->upath, g->ncells, &r->st);
    r->path = rm->upath;
    if (n == 0) { r->status = GB_UNREACHABLE; return; }
    r->status = GB_FOUND;
    if (n < 0 || n > g->ncells) { r->path_len = 0; return; }
    r->path_len = n;
    double c = 0.0;
    for (int32_t i = 0; i + 1 < n; i++) {
        int32_t dx = gb_grid_x(g, rm->upath[i + 1]) - gb_grid_x(g, rm->upath[i]);
        int32_t dy = gb_grid_y(g, rm->upath[i + 1]) - gb_grid_y(g, rm->upath[i]);
        c += dx && dy ? GB_SQRT2 : 1.0;
    }
    r->cost = c;
}

/* ---- external solvers ------------------------------------------------- */

/* Start the external pairs on the map just loaded, or send it to them.
 * A solver that cannot start on the first map stops the run (EX_UNAVAILABLE
 * or EX_OSERR, message in *d); later failures are left to gb_ext_query,
 * which restarts the child and reports `crash` rows when it cannot. */
static int ext_follow_map(const gb_run_opts *o, gb_ext **ext, char (*pname)[64], const gb_map *m,
                          gb_diag *d)
{
    for (int pi = 0; pi < o->npairs; pi++) {
        const gb_pair *p = &o->pairs[pi];
        if (!p->ext_cmd) continue;
        if (!ext[pi]) {
            ext[pi] = gb_ext_open(p->ext_cmd, m, o->model, o->ext_ms, d);
            if (!ext[pi]) return d->code;
            gb_ext_set_max_mem(ext[pi], o->max_mem);
            if (!p->ext_named && gb_ext_name(ext[pi])[0])
                snprintf(pname[pi], 64, "external:%s", gb_ext_name(ext[pi]));
        } else {
            gb_diag ed;
            if (gb_ext_set_map(ext[pi], m, o->model, &ed) != 0)
                fprintf(stderr, "%s: warning: %s\n", pname[pi], ed.msg);
        }
    }
    return 0;
}

/* Run an external pair `reps` times (fewer when it fails) into *r, times[]
 * and *nrep; a path goes to xy.  Returns the last answer's status; *a
 * holds its message. */
static gb_ext_status run_external(gb_ext *e, long *next_id, int reps, gb_xy s, gb_xy t,
                                  gb_xy *xy, gb_result *r, int64_t *times, int *nrep,
                                  gb_ext_answer *a)
{
    gb_ext_status es = GB_EXT_CRASH;
    memset(r, 0, sizeof *r);
    *nrep = 0;
    for (int rep = 0; rep < reps; rep++) {
        es = gb_ext_query(e, ++*next_id, s, t, a);
        times[(*nrep)++] = a->wall_ns;
        if (es != GB_EXT_PATH && es != GB_EXT_NOPATH) break;
    }
    r->status = es == GB_EXT_PATH ? GB_FOUND : GB_UNREACHABLE;
    if (es == GB_EXT_PATH) {
        memcpy(xy, a->path, a->n * sizeof *xy);          /* n <= npassable + 1 < ncells */
        r->path_len = (int32_t)a->n;
        r->cost = gb_ext_path_cost(a->path, a->n);        /* the child reports no cost */
    }
    return es;
}

/* ---- resuming ---------------------------------------------------------- */

/* What identifies a run for --resume: everything that decides which rows
 * it writes (scenarios, query selection, map, pairs with their limits,
 * model, repetitions), as a readable head and a SHA-256 of the whole. */
static void run_fingerprint(const gb_run_opts *o, char *const *scens, int nscen, char *fp,
                            size_t n)
{
    gb_sha256_ctx c;
    gb_sha256_init(&c);
    char b[1200];
    int k = snprintf(b, sizeof b, "model=%s reps=%d first=%ld count=%ld sample=%ld ext_ms=%d "
                     "max_mem=%llu map=%s\n", gb_model_name(o->model), o->reps, o->first, o->count,
                     o->sample, o->ext_ms, (unsigned long long)o->max_mem,
                     o->map_override ? o->map_override : "");
    gb_sha256_update(&c, b, (size_t)k < sizeof b ? (size_t)k : sizeof b - 1);
    for (int i = 0; i < o->npairs; i++) {
        const gb_pair *p = &o->pairs[i];
        k = snprintf(b, sizeof b, "pair %s queue=%d max_expanded=%llu max_ns=%llu user=%d ext=%s\n",
                     p->spec.name, p->queue, (unsigned long long)p->spec.max_expanded,
                     (unsigned long long)p->spec.max_ns, p->user != NULL,
                     p->ext_cmd ? p->ext_cmd : "");
        gb_sha256_update(&c, b, (size_t)k < sizeof b ? (size_t)k : sizeof b - 1);
    }
    for (int i = 0; i < nscen; i++) {
        gb_sha256_update(&c, scens[i], strlen(scens[i]));
        gb_sha256_update(&c, "\n", 1);
    }
    uint8_t dig[GB_SHA256_BYTES];
    char hex[65];
    gb_sha256_final(&c, dig);
    gb_sha256_hex(dig, hex);
    snprintf(fp, n, "%d scenario files, %d solver x queue pairs, model %s, %d reps, sha256 %.16s",
             nscen, o->npairs, gb_model_name(o->model), o->reps, hex);
}

/* Add a query that the journal holds to the totals, as running it did. */
static void replay_query(const gb_journal_query *jq, int npairs, gb_run_totals *tot,
                         pair_sum *sums)
{
    tot->queries++;
    if (!jq->scen_ok) tot->scen_mismatch++;
    for (int pi = 0; pi < npairs; pi++) {
        int st = jq->status[pi] < GB_ROW_NSTATUS ? jq->status[pi] : GB_ROW_CRASH;
        if (gb_row_status_failed((gb_row_status)st)) tot->failures++;
        tot->status[st]++;
        tot->rows++;
        sums[pi].rows++;
        sums[pi].status[st]++;
        sums[pi].expanded += jq->expanded[pi];
        sums[pi].time_ns += (uint64_t)jq->time_ns[pi];
    }
}

/* ---- the run ---------------------------------------------------------- */

int gb_run(const gb_run_opts *o, char *const *scens, int nscen, gb_run_totals *tot,
           gb_diag *d)
{
    memset(tot, 0, sizeof *tot);
    gb_diag_clear(d);
    FILE *out = stdout;
    gb_journal jr;
    memset(&jr, 0, sizeof jr);
    if (o->out) {
        char fp[256];
        run_fingerprint(o, scens, nscen, fp, sizeof fp);
        int e = gb_journal_open(&jr, o->out, fp, csv_header, o->npairs, o->resume, d);
        if (e) return e;
        out = jr.f;
        if (o->resume)
            fprintf(stderr, "gridbench run: %s: %ld queries done before, continuing after them\n",
                    jr.path, jr.ndone);
    } else {
        fprintf(out, "%s\n", csv_header);
    }

    pair_sum *sums = gb_calloc((size_t)o->npairs, sizeof *sums);
    int64_t *times = gb_malloc((size_t)(o->reps > 0 ? o->reps : 1) * sizeof *times);
    gb_ext **ext = gb_calloc((size_t)o->npairs, sizeof *ext);        /* external pairs' drivers */
    char (*pname)[64] = gb_calloc((size_t)o->npairs, sizeof *pname); /* row names */
    uint8_t *qst = gb_malloc((size_t)o->npairs);                      /* this query, per pair: */
    uint64_t *qexp = gb_malloc((size_t)o->npairs * sizeof *qexp);    /*   status, expansions, */
    int64_t *qns = gb_malloc((size_t)o->npairs * sizeof *qns);       /*   median time */
    long qn = 0;                                                      /* queries so far */
    unsigned ext_loads = 0;                                       /* map the externals hold */
    long ext_id = 0;                                              /* protocol query ids */
    run_map rm;
    memset(&rm, 0, sizeof rm);
    progress pr = { o->progress, isatty(2), now_s(), 0.0 };
    pr.last = pr.t0;   /* the first line after one period, not at once */
    int rc = 0;
    if (!sums || !times || !ext || !pname || !qst || !qexp || !qns) { rc = gb_diag_set(d, EX_OSERR, "", 0, 0, "expected memory, found none"); goto done; }
    for (int pi = 0; pi < o->npairs; pi++)
        snprintf(pname[pi], sizeof pname[pi], "%s", o->pairs[pi].spec.name);

    gb_solver_spec oracle;
    char err[256];
    gb_solver_parse("dijkstra", &oracle, err, sizeof err);
    const char *model = gb_model_name(o->model);

    for (int si = 0; si < nscen; si++) {
        gb_scen sc;
        rc = gb_scen_load(scens[si], &sc, d);
        if (rc) goto done;
        char mpath[1024];
        if (o->map_override) snprintf(mpath, sizeof mpath, "%s", o->map_override);
        else if ((rc = gb_scen_resolve_map(&sc, mpath, sizeof mpath, d))) { gb_scen_free(&sc); goto done; }
        size_t q0 = (size_t)(o->first > 0 ? o->first : 0);
        size_t q1 = sc.n;
        if (o->count > 0 && q0 + (size_t)o->count < q1) q1 = q0 + (size_t)o->count;
        size_t step = 1;
        if (o->sample > 0 && q1 > q0 && (q1 - q0) > (size_t)o->sample)
            step = (q1 - q0) / (size_t)o->sample;
        size_t nsel = q1 > q0 ? (q1 - q0 + step - 1) / step : 0;   /* queries selected */
        if (qn + (long)nsel > jr.ndone) {   /* not all replayed: the map is needed */
            if ((rc = run_map_get(&rm, o, mpath, d))) {
                gb_scen_free(&sc);
                goto done;
            }
            if (rm.loads != ext_loads) {
                ext_loads = rm.loads;
                if ((rc = ext_follow_map(o, ext, pname, &rm.map, d))) {
                    gb_scen_free(&sc);
                    goto done;
                }
            }
        }
        const gb_grid *grid = &rm.map.grid;
        const char *mname = base_name(mpath);
        for (size_t qi = q0; qi < q1; qi += step) {
            const gb_query *q = &sc.q[qi];
            if (qn < jr.ndone) {   /* --resume: the journal holds this query */
                if (jr.done[qn].line != q->line) {
                    rc = gb_diag_set(d, EX_DATAERR, jr.path, 0, 0,
                                     "expected query %ld of the journal at line %ld of %s, found "
                                     "line %ld: has the scenario file changed?",
                                     qn, q->line, scens[si], jr.done[qn].line);
                    gb_scen_free(&sc);
                    goto done;
                }
                replay_query(&jr.done[qn], o->npairs, tot, sums);
                qn++;
                progress_tick(&pr, si, nscen, scens[si], qi + 1 - q0, q1 - q0, 0);
                continue;
            }
            if ((rc = gb_scen_check_query(&sc, qi, &rm.map, d)) != 0) {
                if (!endpoint_blocked(q, grid)) {    /* size or bounds: bad input */
                    gb_scen_free(&sc);
                    goto done;
                }
                /* The scenario puts an endpoint on a cell the movement model
                 * calls blocked (the Warcraft III set does): the scenario
                 * disagrees with the model, the solvers are not at fault. */
                fprintf(stderr, "%s:%ld:%ld: warning: %s; query counted as scen_mismatch\n",
                        d->path, d->line, d->col, d->msg);
                gb_diag_clear(d);
                rc = 0;
                tot->queries++;
                tot->scen_mismatch++;
                for (int pi = 0; pi < o->npairs; pi++) {
                    const gb_pair *p = &o->pairs[pi];
                    double bound;
                    gb_guarantee gu = pair_guarantee(p, o->model, &bound);
                    write_row(out, mname, scens[si], q, model, p, pname[pi], gu, bound,
                              GB_ROW_SCEN_MISMATCH, NULL, NULL, NULL, 0, 0, o->reps, 0);
                    tot->status[GB_ROW_SCEN_MISMATCH]++;
                    tot->rows++;
                    sums[pi].rows++;
                    sums[pi].status[GB_ROW_SCEN_MISMATCH]++;
                    qst[pi] = GB_ROW_SCEN_MISMATCH;
                    qexp[pi] = 0;
                    qns[pi] = 0;
                }
                if (o->out && (rc = gb_journal_commit(&jr, qn, q->line, 0, qst, qexp, qns, d)) != 0) {
                    gb_scen_free(&sc);
                    goto done;
                }
                qn++;
                continue;
            }
            int32_t s = gb_grid_id(grid, q->sx, q->sy), t = gb_grid_id(grid, q->gx, q->gy);
            gb_xy sxy = { q->sx, q->sy }, txy = { q->gx, q->gy };
            gb_result r;
            if (gb_solve(rm.ws, &oracle, GB_Q_BHEAP, s, t, &r) != 0) {
                rc = gb_diag_set(d, EX_OSERR, scens[si], q->line, 0, "expected memory for the search, found none");
                gb_scen_free(&sc);
                goto done;
            }
            gb_check oc;
            memset(&oc, 0, sizeof oc);
            int oracle_found = r.status == GB_FOUND;
            if (oracle_found) {
                to_xy(grid, r.path, r.path_len, rm.xy);
                if (!gb_validate_path(grid, o->model, sxy, txy, rm.xy, (size_t)r.path_len, r.cost, &oc)) {
                    rc = gb_diag_set(d, EX_SOFTWARE, scens[si], q->line, 0,
                                     "expected the Dijkstra oracle's path to be valid, found: %s", oc.msg);
                    gb_scen_free(&sc);
                    goto done;
                }
            }
            /* Does the scenario's printed length agree with the oracle? */
            /* (a scenario printing a length for an unreachable goal disagrees) */
            int scen_ok = oracle_found ? gb_scen_agrees(&oc, q) : q->length <= 0.0;
            if (!scen_ok) tot->scen_mismatch++;
            tot->queries++;

            for (int pi = 0; pi < o->npairs; pi++) {
                const gb_pair *p = &o->pairs[pi];
                gb_queue_kind qk = p->queue < 0 ? GB_Q_BHEAP : (gb_queue_kind)p->queue;
                int64_t cold = 0;
                /* --max-mem: a solver whose workspace would not fit is not run */
                uint64_t mem = p->user || p->ext_cmd ? 0 : gb_ws_bytes(grid->width, grid->height, &p->spec, qk);
                int over_mem = o->max_mem && mem > o->max_mem;
                /* allocations and landmark tables happen here, not in the timed call */
                if (!p->user && !p->ext_cmd && !over_mem && gb_ws_prepare(rm.ws, &p->spec, qk) != 0) {
                    rc = gb_diag_set(d, EX_OSERR, scens[si], q->line, 0,
                                     "expected memory for solver %s, found none", p->spec.name);
                    gb_scen_free(&sc);
                    goto done;
                }
                int nrep = o->reps;
                gb_ext_answer ea;
                gb_ext_status es = GB_EXT_PATH;
                if (p->ext_cmd) {
                    es = run_external(ext[pi], &ext_id, o->reps, sxy, txy, rm.xy, &r, times, &nrep, &ea);
                    cold = times[0];
                    mem = gb_ext_resident(ext[pi]);
                }
                if (over_mem) {
                    memset(&r, 0, sizeof r);
                    r.status = GB_LIMIT;
                    times[0] = 0;
                    nrep = 1;
                }
                for (int rep = 0; rep < (p->ext_cmd || over_mem ? 0 : o->reps); rep++) {
                    int64_t t0 = now_ns();
                    int e = 0;
                    if (p->user) run_user(p->user, &rm, o->model, s, t, &r);
                    else e = gb_solve(rm.ws, &p->spec, qk, s, t, &r);
                    int64_t t1 = now_ns();
                    if (e != 0) {
                        rc = gb_diag_set(d, EX_OSERR, scens[si], q->line, 0,
                                         "expected memory for solver %s, found none", p->spec.name);
                        gb_scen_free(&sc);
                        goto done;
                    }
                    times[rep] = t1 - t0;
                    if (rep == 0) cold = times[0];
                }
                qsort(times, (size_t)nrep, sizeof *times, cmp_i64);
                int64_t med = times[nrep / 2];

                double bound;
                gb_guarantee gu = pair_guarantee(p, o->model, &bound);
                gb_check pc;
                memset(&pc, 0, sizeof pc);
                gb_row_status st;
                if (es == GB_EXT_LIMIT) {
                    st = GB_ROW_LIMIT;
                } else if (es == GB_EXT_PROTOCOL || es == GB_EXT_TIMEOUT || es == GB_EXT_CRASH) {
                    st = es == GB_EXT_PROTOCOL ? GB_ROW_PROTOCOL
                       : es == GB_EXT_TIMEOUT ? GB_ROW_TIMEOUT : GB_ROW_CRASH;
                } else if (r.status == GB_LIMIT) {
                    st = GB_ROW_LIMIT;
                } else if (r.status == GB_FOUND) {
                    if (!p->ext_cmd) to_xy(grid, r.path, r.path_len, rm.xy);   /* externals: already xy */
                    if (!gb_validate_path(grid, o->model, sxy, txy, rm.xy, (size_t)r.path_len, r.cost, &pc)) {
                        st = GB_ROW_INVALID;
                    } else if (!oracle_found) {
                        /* a valid path where Dijkstra found none: the oracle is wrong */
                        rc = gb_diag_set(d, EX_SOFTWARE, scens[si], q->line, 0,
                                         "expected no path (Dijkstra found none), found a valid one from %s",
                                         p->spec.name);
                        gb_scen_free(&sc);
                        goto done;
                    } else if (gu == GB_GUAR_OPTIMAL && gb_check_cmp(&pc, &oc) != 0) {
                        st = GB_ROW_SUBOPTIMAL;
                    } else if (gu == GB_GUAR_BOUNDED
                               && pc.cost > bound * oc.cost + pc.tol + oc.tol * bound) {
                        st = GB_ROW_SUBOPTIMAL;
                    } else {
                        st = scen_ok ? GB_ROW_OK : GB_ROW_SCEN_MISMATCH;
                    }
                } else if (oracle_found) {
                    st = GB_ROW_FALSE_UNREACHABLE;
                } else {
                    st = scen_ok ? GB_ROW_UNREACHABLE : GB_ROW_SCEN_MISMATCH;
                }
                if (gb_row_status_failed(st)) {
                    tot->failures++;
                    fprintf(stderr, "%s:%ld: %s on %s/%s: %s%s%s%s\n", scens[si], q->line,
                            gb_row_status_name(st), pname[pi],
                            gb_pair_queue_name(p),
                            st == GB_ROW_INVALID ? pc.msg : "",
                            st == GB_ROW_SUBOPTIMAL ? "cost differs from Dijkstra's" : "",
                            st == GB_ROW_FALSE_UNREACHABLE ? "no path reported, Dijkstra found one" : "",
                            st >= GB_ROW_PROTOCOL ? ea.msg : "");
                }
                tot->status[st]++;
                tot->rows++;
                pair_sum *ps = &sums[pi];
                ps->rows++;
                ps->status[st]++;
                ps->expanded += r.st.expanded;
                ps->time_ns += med;
                qst[pi] = (uint8_t)st;
                qexp[pi] = r.st.expanded;
                qns[pi] = med;

                write_row(out, mname, scens[si], q, model, p, pname[pi], gu, bound, st,
                          r.status == GB_FOUND && st < GB_ROW_PROTOCOL ? &r : NULL,
                          oracle_found ? &oc : NULL, pc.ok ? &pc : NULL, med, cold, nrep, mem);
            }
            if (o->out && (rc = gb_journal_commit(&jr, qn, q->line, scen_ok, qst, qexp, qns, d)) != 0) {
                gb_scen_free(&sc);
                goto done;
            }
            qn++;
            progress_tick(&pr, si, nscen, scens[si], qi + 1 - q0, q1 - q0, 0);
        }
        progress_tick(&pr, si, nscen, scens[si], q1 - q0, q1 - q0, 1);
        if (pr.on && pr.tty) fputc('\n', stderr);
        gb_scen_free(&sc);
    }

    if (o->out) {
        int e = gb_journal_finish(&jr, o->out, d);
        out = NULL;
        if (e) { rc = e; goto done; }
    } else if (fflush(stdout) != 0) {
        rc = gb_diag_set(d, EX_IOERR, "<stdout>", 0, 0, "expected to write the CSV, found %s", strerror(errno));
        goto done_nofile;
    }

    /* summary */
    fprintf(stderr, "%-28s %-9s %7s %7s %7s %9s %12s %10s\n", "solver", "queue", "rows", "ok",
            "failed", "scen_mis", "mean_exp", "mean_us");
    for (int pi = 0; pi < o->npairs; pi++) {
        const pair_sum *ps = &sums[pi];
        const gb_pair *p = &o->pairs[pi];
        uint64_t failed = 0;
        for (int k = 0; k < GB_ROW_NSTATUS; k++)
            if (gb_row_status_failed((gb_row_status)k)) failed += ps->status[k];
        double n = ps->rows ? (double)ps->rows : 1.0;
        fprintf(stderr, "%-28s %-9s %7llu %7llu %7llu %9llu %12.1f %10.2f\n", pname[pi],
                gb_pair_queue_name(p),
                (unsigned long long)ps->rows, (unsigned long long)ps->status[GB_ROW_OK],
                (unsigned long long)failed, (unsigned long long)ps->status[GB_ROW_SCEN_MISMATCH],
                (double)ps->expanded / n, (double)ps->time_ns / n / 1e3);
    }
    fprintf(stderr, "gridbench run: %llu queries, %llu rows, %llu solver failures, "
            "%llu queries where the scenario's length disagrees with Dijkstra\n",
            (unsigned long long)tot->queries, (unsigned long long)tot->rows,
            (unsigned long long)tot->failures, (unsigned long long)tot->scen_mismatch);
    rc = tot->failures ? 1 : (o->strict && tot->scen_mismatch ? 2 : 0);
    goto done_nofile;

done:
    if (o->out && jr.f) {   /* failed: keep what is complete, if anything is */
        gb_journal_close(&jr);
        if (qn > 0)
            fprintf(stderr, "gridbench run: the %ld queries completed so far are kept in %s; "
                    "`--resume` continues from there\n", qn, jr.path);
        else
            remove(jr.path);
    }
done_nofile:
    for (int pi = 0; ext && pi < o->npairs; pi++) {
        gb_diag ed;
        if (ext[pi] && gb_ext_close(ext[pi], &ed) != 0)
            fprintf(stderr, "%s: warning: %s\n", pname[pi], ed.msg);
    }
    gb_free(ext);
    gb_free(pname);
    run_map_free(&rm);
    gb_free(sums);
    gb_free(times);
    gb_free(qst);
    gb_free(qexp);
    gb_free(qns);
    return rc;
}
