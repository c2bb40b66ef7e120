/*
 * gb_exec.c -- execute one query: oracle -> for each pair: backend.solve ->
 * judge -> row (gb_exec.h describes the stage and its structures).
 *
 * A query is executed in three passes so that no row rests on an
 * unproven optimum (gb_oracle.c):
 *   1. every pair runs through its backend and its path is validated
 *      (validation does not depend on the optimum);
 *   2. every pair is judged against the optimum; when the optimum is the
 *      oracle cache's claim and any verdict needs proof
 *      (gb_judge_needs_proof), Dijkstra re-derives it and every pair is
 *      judged again;
 *   3. the rows and failure notes are written.
 * Per pair the exec keeps its answer, its path's check and its times in
 * arrays [npairs] allocated once per run.
 */
#define _GNU_SOURCE 1   /* open_memstream, strsignal */
#include "gb_exec.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "gb_aagppc.h"
#include "gb_aaterrain.h"
#include "gb_alloc.h"
#include "gb_anyangle.h"
#include "gb_paths.h"
#include "gb_rows.h"
#include "gb_scen.h"
#include "gb_shard.h"
#include "gb_tcache.h"
#include "gb_user.h"

/* ---- helpers ------------------------------------------------------------ */

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

int64_t gb_median_i64(int64_t *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_i64);
    return n % 2 ? v[n / 2] : v[n / 2 - 1] + (v[n / 2] - v[n / 2 - 1]) / 2;
}

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

const gb_backend_ops *gb_backend_of(const gb_pair *p)
{
    return p->ext_cmd ? &gb_backend_process : p->user ? &gb_backend_plugin : &gb_backend_builtin;
}

/* Nonzero when query q fits the map but puts start or goal on a blocked
 * cell (the only per-query problem that is not fatal). */
static int endpoint_blocked(const gb_query *q, const gb_grid *g)
{
    if (q->map_w != g->width || q->map_h != g->height) return 0;
    if (q->sx >= g->width || q->gx >= g->width || q->sy >= g->height || q->gy >= g->height) return 0;
    return !gb_grid_passable_xy(g, q->sx, q->sy) || !gb_grid_passable_xy(g, q->gx, q->gy);
}

void gb_exec_note(gb_exec *ex, gb_run_note_kind k, const char *fmt, ...)
{
    char b[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b, sizeof b, fmt, ap);
    va_end(ap);
    for (char *c = b; *c; c++) if (*c == '\n' || *c == '\r') *c = ' ';
    fprintf(ex->notes_f, "%d%s\n", (int)k, b);
}

/* ---- one query's result ------------------------------------------------ */

int gb_qres_init(gb_qres *r, int npairs)
{
    memset(r, 0, sizeof *r);
    size_t n = npairs > 0 ? (size_t)npairs : 1;
    r->st = gb_calloc(n, sizeof *r->st);
    r->exp = gb_calloc(n, sizeof *r->exp);
    r->ns = gb_calloc(n, sizeof *r->ns);
    r->name = gb_calloc(n, sizeof *r->name);
    return r->st && r->exp && r->ns && r->name ? 0 : -1;
}

void gb_qres_clear_text(gb_qres *r)
{
    free(r->rows);      /* from open_memstream or the pool's reader: the C allocator */
    free(r->notes);
    free(r->paths);
    r->rows = r->notes = r->paths = NULL;
    r->rows_len = r->notes_len = r->paths_len = 0;
}

void gb_qres_free(gb_qres *r)
{
    gb_qres_clear_text(r);
    gb_free(r->st);
    gb_free(r->exp);
    gb_free(r->ns);
    gb_free(r->name);
    memset(r, 0, sizeof *r);
}

static void batch_free(gb_exec *ex);

/* ---- the exec and its map ---------------------------------------------- */

/* Per pair, what pass 1 leaves for passes 2 and 3. */
typedef struct pairrun {
    gb_answer a;
    gb_check pc;             /* the path's check (pc.ok: valid) */
    gb_outcome w;
    int st;                  /* the verdict */
    int64_t med, cold;
} pairrun;

static void exec_unload(gb_exec *ex)
{
    for (int pi = 0; ex->be && ex->loaded && pi < ex->o->npairs; pi++)
        if (ex->be[pi]) ex->be[pi]->release(ex, pi);
    gb_oracle_close(ex->orc);
    ex->orc = NULL;
    if (ex->ws) gb_ws_set_store(ex->ws, NULL);
    gb_tcache_close(ex->tc);
    ex->tc = NULL;
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

void gb_exec_free(gb_exec *ex)
{
    exec_unload(ex);
    for (int pi = 0; ex->be && pi < ex->o->npairs; pi++)
        if (ex->be[pi]) ex->be[pi]->close(ex, pi);   /* NULL: init failed first */
    gb_free(ex->be);
    gb_free(ex->ext);
    gb_free(ex->pname);
    gb_free(ex->prep);
    gb_free(ex->mem);
    gb_free(ex->uprep);
    gb_free(ex->storage);
    gb_free(ex->prepare_ns);
    gb_free(ex->tsrc);
    gb_free(ex->prep_why);
    gb_free(ex->skip);
    gb_free(ex->times);
    gb_free(ex->self);
    gb_free(ex->runs);
    batch_free(ex);
    memset(ex, 0, sizeof *ex);
}

int gb_exec_init(gb_exec *ex, const gb_run_opts *o, const gb_plan *pl, gb_diag *d)
{
    memset(ex, 0, sizeof *ex);
    ex->o = o;
    ex->pl = pl;
    size_t np = o->npairs > 0 ? (size_t)o->npairs : 1, nr = o->reps > 0 ? (size_t)o->reps : 1;
    ex->be = gb_calloc(np, sizeof *ex->be);
    ex->ext = gb_calloc(np, sizeof *ex->ext);
    ex->pname = gb_calloc(np, sizeof *ex->pname);
    ex->prep = gb_calloc(np, sizeof *ex->prep);
    ex->mem = gb_calloc(np, sizeof *ex->mem);
    ex->uprep = gb_calloc(np, sizeof *ex->uprep);
    ex->storage = gb_calloc(np, sizeof *ex->storage);
    ex->prepare_ns = gb_calloc(np, sizeof *ex->prepare_ns);
    ex->tsrc = gb_calloc(np, sizeof *ex->tsrc);
    ex->prep_why = gb_calloc(np, sizeof *ex->prep_why);
    ex->skip = gb_calloc(np, sizeof *ex->skip);
    ex->times = gb_malloc(nr * sizeof *ex->times);
    ex->self = gb_malloc(nr * sizeof *ex->self);
    ex->runs = gb_calloc(np, sizeof(pairrun));
    if (!ex->be || !ex->ext || !ex->pname || !ex->prep || !ex->mem || !ex->uprep || !ex->skip
        || !ex->times || !ex->self || !ex->runs || !ex->storage || !ex->prepare_ns || !ex->tsrc
        || !ex->prep_why) {
        gb_exec_free(ex);
        return gb_diag_set(d, EX_OSERR, "", 0, 0, "expected memory, found none");
    }
    for (int pi = 0; pi < o->npairs; pi++) {
        ex->be[pi] = gb_backend_of(&o->pairs[pi]);
        snprintf(ex->pname[pi], sizeof ex->pname[pi], "%s", o->pairs[pi].spec.name);
    }
    snprintf(ex->model_col, sizeof ex->model_col, "%s%s%s", gb_model_name(o->model),
             o->terrain.on ? "+" : "", o->terrain.name);
    return 0;
}

/* Bytes the run holds for a width x height map besides the map itself:
 * the workspace prepared for the oracle and every built-in pair, and the
 * coordinate and path buffers, and with terrain costs and an any-angle
 * pair the fixed arrays of the line-integral grid Dijkstra. */
static uint64_t map_extra(const gb_run_opts *o, int32_t width, int32_t height)
{
    const int64_t ncells = ((int64_t)width + 2) * ((int64_t)height + 2);
    gb_solver_spec sp[GB_RUN_MAX_PAIRS + 1];
    gb_queue_kind qk[GB_RUN_MAX_PAIRS + 1];
    char err[128];
    int n = 0, aa = 0;
    gb_solver_parse("dijkstra", &sp[n], err, sizeof err);   /* the oracle */
    qk[n++] = GB_ORACLE_QUEUE;
    for (int i = 0; i < o->npairs; i++) {
        const gb_pair *p = &o->pairs[i];
        aa |= gb_pair_cost_model(p) == GB_COST_ANYANGLE;
        if (p->user || p->ext_cmd) continue;
        sp[n] = p->spec;
        qk[n++] = p->queue < 0 ? GB_Q_BHEAP : (gb_queue_kind)p->queue;
    }
    return (uint64_t)gb_ws_bytes_all(width, height, sp, qk, n)
           + (uint64_t)ncells * (sizeof(gb_xy) + sizeof(int32_t))
           + (o->terrain.on ? (uint64_t)ncells * sizeof(uint16_t) : 0)    /* grid.cost */
           + (o->terrain.on && aa ? gb_aaterrain_bytes(ncells) : 0)       /* d_L's arrays */
           + (o->model == GB_MODEL_8_NOCUT_WATER ? (uint64_t)ncells : 0); /* grid.water */
}

/* The oracle's notes go into the query's notes. */
static void oracle_note(void *ctx, gb_run_note_kind k, const char *msg)
{
    gb_exec_note(ctx, k, "%s", msg);
}

/* The oracle of the map just loaded: its caches, and the any-angle and
 * line-integral oracles when the run has any-angle pairs. */
static int open_oracle(gb_exec *ex, const gb_plan_scen *ps, gb_diag *d)
{
    const gb_run_opts *o = ex->o;
    gb_oracle_cfg cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.model = o->model;
    for (int pi = 0; pi < o->npairs; pi++)
        cfg.anyangle |= gb_pair_cost_model(&o->pairs[pi]) == GB_COST_ANYANGLE;
    cfg.aa_gppc = o->aa_gppc;
    cfg.cache_dir = o->oracle_cache;
    cfg.map_sha = ps->map_sha;
    cfg.cache_warned = &ex->oc_warned;
    cfg.note = oracle_note;
    cfg.note_ctx = ex;
    ex->orc = gb_oracle_open(&ex->map.grid, ex->ws, &cfg, d);
    if (!ex->orc && d->code == EX_OSERR && !d->path[0]) snprintf(d->path, sizeof d->path, "%s", ps->map);
    return ex->orc ? 0 : d->code;
}

/* Load the map of plan scenario si (unless it is the one in use), open
 * its oracle, and prepare every pair's backend, timing each. */
static int exec_map(gb_exec *ex, int si, gb_diag *d)
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
    if (gb_terrain_apply(&o->terrain, ex->map.terrain, &ex->map.grid) != 0) {
        gb_map_free(&ex->map);
        return gb_diag_set(d, EX_OSERR, ps->map, 0, 0, "expected memory for the terrain costs "
                           "of this map, found none");
    }
    if (o->model == GB_MODEL_8_NOCUT_WATER && gb_grid_water(&ex->map.grid, ex->map.terrain) != 0) {
        gb_map_free(&ex->map);
        return gb_diag_set(d, EX_OSERR, ps->map, 0, 0,
                           "expected memory for the water cells of "
                           "this map, found none");
    }
    const char *ar = getenv("GRIDBENCH_ALLOC_REPORT");   /* for tests of the pre-check */
    if (ar && *ar && strcmp(ar, "0") != 0)
        gb_exec_note(ex, GB_NOTE_INFO, "gridbench run: %s: the memory pre-check counted %llu bytes",
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
    if ((rc = open_oracle(ex, ps, d)) != 0) return rc;
    if (o->table_cache) {   /* tables a family keeps (cpd): built once per map */
        gb_diag td;
        gb_diag_clear(&td);
        ex->tc = gb_tcache_open(o->table_cache, ps->map_sha, &td);
        if (ex->tc) {
            gb_ws_set_store(ex->ws, gb_tcache_store(ex->tc));
        } else if (!ex->tc_warned) {
            char b[1024];
            gb_diag_format(&td, b, sizeof b);
            gb_exec_note(ex, GB_NOTE_WARNING, "%s (tables are built without the cache)", b);
            ex->tc_warned = 1;
        }
    }
    for (int pi = 0; pi < o->npairs; pi++) {
        int64_t t0 = gb_now_ns();
        rc = ex->be[pi]->prepare(ex, pi, d);
        int64_t t = gb_now_ns() - t0;
        if (ex->tc) {   /* what the table cache did for this pair: a note per event */
            const char *m = gb_tcache_note(ex->tc, NULL);
            while (*m) {   /* one note per line */
                const size_t k = strcspn(m, "\n");
                gb_exec_note(ex, strncmp(m, "table cache: ", 13) ? GB_NOTE_WARNING : GB_NOTE_INFO,
                             "%.*s", (int)k, m);
                m += k + (m[k] == '\n');
            }
        }
        if (rc > 0) return rc;
        if (rc != GB_PREP_SET) ex->prep[pi] = rc == GB_PREP_NONE ? 0 : t > 0 ? (uint64_t)t : 1;
    }
    return 0;
}

/* ---- rows --------------------------------------------------------------- */

/* The query's part of a row. */
static void row_query(gb_row *w, const char *mname, const char *scen, const gb_query *q,
                      const char *model)
{
    memset(w, 0, sizeof *w);
    w->map = mname;
    w->scen = scen;
    w->line = q->line;
    w->bucket = q->bucket;
    w->sx = q->sx;
    w->sy = q->sy;
    w->gx = q->gx;
    w->gy = q->gy;
    w->model = model;
    w->scen_cost = q->length;
    w->scen_decimals = q->decimals;
    w->euclid_lb = gb_anyangle_dist((gb_xy){ q->sx, q->sy }, (gb_xy){ q->gx, q->gy });
    w->solver_time_ns = -1;
    w->first20_ns = w->max_call_ns = -1;
}

/* The cost_model column of pair p: "anyangle-gppc" for an any-angle pair
 * under --anyangle-model gppc. */
static const char *cost_model_of(const gb_exec *ex, const gb_pair *p)
{
    const gb_cost_model c = gb_pair_cost_model(p);
    return c == GB_COST_ANYANGLE && ex->o->aa_gppc ? "anyangle-gppc" : gb_cost_model_name(c);
}

/* The pair's part of a row, with status st and no answer. */
static void row_pair(gb_row *w, gb_exec *ex, int pi, int st)
{
    const gb_pair *p = &ex->o->pairs[pi];
    gb_guarantee gu = gb_pair_guarantee(p, ex->o->model, &w->bound);
    w->solver = ex->pname[pi];
    w->queue = gb_pair_queue_name(p);
    w->guarantee = gb_guarantee_name(gu);
    w->status = gb_row_status_name((gb_row_status)st);
    w->time_source = ex->tsrc[pi][0] ? ex->tsrc[pi] : ex->be[pi]->time_source;
    w->cost_model = cost_model_of(ex, p);
    w->regime = gb_regime_name(ex->o->regime);
}

/* Rows of status st for every pair, with no answer (blocked endpoints,
 * crashed workers); their totals too. */
static void rows_all(gb_exec *ex, const gb_plan_scen *ps, const gb_query *q, int st, int reps,
                     gb_qres *res, int keep_names)
{
    gb_row w;
    for (int pi = 0; pi < ex->o->npairs; pi++) {
        row_query(&w, base_name(ps->map), ps->path, q, ex->model_col);
        row_pair(&w, ex, pi, st);
        w.reps = reps;
        gb_row_write(ex->rows_f, &w);
        res->st[pi] = (uint8_t)st;
        res->exp[pi] = 0;
        res->ns[pi] = 0;
        if (keep_names) memcpy(res->name[pi], ex->pname[pi], sizeof res->name[pi]);
        else res->name[pi][0] = '\0';
    }
}

/* ---- the gppc regime ---------------------------------------------------- */

/* The timings of one batch: the run's consecutive positions on one
 * scenario file, every pair over every query, pass after pass
 * (solver-major), each query once per pass.  Index [pi * n + j] for
 * pair pi and the batch's j-th query; have = 0: not timed (the pair was
 * skipped, over --max-mem, or the query has a blocked endpoint). */
struct gb_batch {
    int scen;                /* plan scenario of the batch, -1: none yet */
    size_t first, n;         /* todo positions [first, first + n) */
    size_t cap;              /* slots allocated per array */
    int64_t *sum, *cold, *f20, *maxc;
    uint8_t *have;
};

static void batch_free(gb_exec *ex)
{
    struct gb_batch *b = ex->batch;
    if (!b) return;
    gb_free(b->sum);
    gb_free(b->cold);
    gb_free(b->f20);
    gb_free(b->maxc);
    gb_free(b->have);
    gb_free(b);
    ex->batch = NULL;
}

/* The todo position of plan index k (positions arrive in order: the
 * search starts at the batch's first). */
static size_t todo_pos(const gb_exec *ex, size_t k)
{
    size_t p = ex->batch && ex->batch->scen >= 0 ? ex->batch->first : 0;
    while (p < ex->ntodo && ex->todo[p] != k) p++;
    if (p == ex->ntodo) for (p = 0; p < ex->ntodo && ex->todo[p] != k; p++) {}
    return p;
}

/* Time the batch that starts at todo position pos (the map is loaded). */
static int batch_time(gb_exec *ex, size_t pos, gb_diag *d)
{
    const gb_run_opts *o = ex->o;
    const int scen = ex->pl->item[ex->todo[pos]].scen, np = o->npairs, reps = o->reps;
    size_t n = 0;
    while (pos + n < ex->ntodo && ex->pl->item[ex->todo[pos + n]].scen == scen) n++;
    struct gb_batch *b = ex->batch;
    if (!b && !(b = ex->batch = gb_calloc(1, sizeof *b))) goto oom;
    size_t need = (size_t)np * n;
    if (need > b->cap) {
        gb_free(b->sum); gb_free(b->cold); gb_free(b->f20); gb_free(b->maxc); gb_free(b->have);
        b->sum = gb_malloc(need * sizeof *b->sum);
        b->cold = gb_malloc(need * sizeof *b->cold);
        b->f20 = gb_malloc(need * sizeof *b->f20);
        b->maxc = gb_malloc(need * sizeof *b->maxc);
        b->have = gb_malloc(need);
        b->cap = need;
        if (!b->sum || !b->cold || !b->f20 || !b->maxc || !b->have) { b->cap = 0; goto oom; }
    }
    b->scen = scen;
    b->first = pos;
    b->n = n;
    memset(b->sum, 0, need * sizeof *b->sum);
    memset(b->f20, 0, need * sizeof *b->f20);
    memset(b->maxc, 0, need * sizeof *b->maxc);
    memset(b->have, 0, need);
    const gb_plan_scen *ps = &ex->pl->scen[scen];
    const gb_grid *g = &ex->map.grid;
    for (int pi = 0; pi < np; pi++) {
        uint64_t mem = ex->mem[pi] ? ex->mem[pi] : ex->be[pi]->bytes(ex, pi, g);
        if (ex->skip[pi] || (o->max_mem && mem > o->max_mem)) continue;
        for (size_t j = 0; j < n; j++) b->have[(size_t)pi * n + j] = 1;
        for (int pass = 0; pass < reps; pass++)
            for (size_t j = 0; j < n; j++) {
                size_t x = (size_t)pi * n + j;
                const gb_plan_item *it = &ex->pl->item[ex->todo[pos + j]];
                const gb_query *q = &ps->sc.q[it->qi];
                gb_diag qd;
                if (!b->have[x] || gb_scen_check_query(&ps->sc, it->qi, &ex->map, &qd) != 0) {
                    b->have[x] = 0;
                    continue;
                }
                gb_answer a;
                memset(&a, 0, sizeof a);
                int rc = ex->be[pi]->solve(ex, pi, (gb_xy){ q->sx, q->sy }, (gb_xy){ q->gx, q->gy }, 1,
                                           &a, d);
                if (rc) return rc;
                if (a.fail != GB_EXT_PATH) { b->have[x] = 0; continue; }   /* judged per query */
                int64_t t = ex->times[0];
                b->sum[x] += t;
                if (pass == 0) b->cold[x] = t;
                b->f20[x] += a.calls ? a.first20_ns : t;
                int64_t mc = a.calls ? a.max_call_ns : t;
                if (mc > b->maxc[x]) b->maxc[x] = mc;
            }
    }
    return 0;
oom:
    return gb_diag_set(d, EX_OSERR, ex->mpath, 0, 0, "expected memory for the gppc regime's "
                       "timings, found none");
}

/* The gppc regime: the batch timing of query k, pair pi, into *pr (times
 * of the passes replace the one untimed run that gave the path). */
static void batch_times(gb_exec *ex, size_t k, int pi, struct pairrun *pr)
{
    struct gb_batch *b = ex->batch;
    size_t pos = todo_pos(ex, k);
    if (!b || pos < b->first || pos >= b->first + b->n) return;
    size_t x = (size_t)pi * b->n + (pos - b->first);
    if (!b->have[x] || pr->a.fail != GB_EXT_PATH) return;
    const int reps = ex->o->reps;
    pr->med = b->sum[x] / reps;
    pr->cold = b->cold[x];
    pr->a.first20_ns = b->f20[x] / reps;
    pr->a.max_call_ns = b->maxc[x];
    pr->a.nrep = reps;
}

/* ---- the query ---------------------------------------------------------- */

/* Pass 1 for pair pi: run it and validate its path into *pr. */
static int run_pair(gb_exec *ex, int pi, const gb_query *q, pairrun *pr, gb_diag *d)
{
    const gb_run_opts *o = ex->o;
    const gb_pair *p = &o->pairs[pi];
    const gb_grid *grid = &ex->map.grid;
    gb_xy sxy = { q->sx, q->sy }, txy = { q->gx, q->gy };
    memset(pr, 0, sizeof *pr);
    pr->a.fail = GB_EXT_PATH;
    pr->a.self_ns = -1;
    gb_outcome *w = &pr->w;
    /* --max-mem: a solver whose search state would not fit is not run */
    uint64_t mem = ex->mem[pi] ? ex->mem[pi] : ex->be[pi]->bytes(ex, pi, grid);
    w->over_mem = o->max_mem && mem > o->max_mem;
    if (w->over_mem) {
        pr->a.rs = GB_LIMIT;
        pr->a.nrep = 1;
        ex->times[0] = 0;
    } else {
        const int gppc = o->regime == GB_REGIME_GPPC;   /* timed by batch_time: one run for the path */
        int rc = ex->be[pi]->solve(ex, pi, sxy, txy, gppc ? 1 : o->reps, &pr->a, d);
        if (rc) return rc;
    }
    if (!pr->a.mem) pr->a.mem = mem;
    pr->cold = ex->times[0];
    /* warm = the median of the reps after the first (the first is time_cold_ns) */
    pr->med = pr->a.nrep > 1 ? gb_median_i64(ex->times + 1, pr->a.nrep - 1) : ex->times[0];
    if (pr->a.calls == 0 && pr->a.fail == GB_EXT_PATH && !w->over_mem) {   /* one call did it all */
        pr->a.calls = 1;
        pr->a.first20_ns = pr->a.max_call_ns = pr->med;
    }
    if (o->regime == GB_REGIME_GPPC) batch_times(ex, ex->k, pi, pr);
    w->ext_status = (int)pr->a.fail;
    w->rs = pr->a.rs;
    w->gu = gb_pair_guarantee(p, o->model, &w->bound);
    w->pc = &pr->pc;
    w->anyangle = gb_pair_cost_model(p) == GB_COST_ANYANGLE;
    if (w->anyangle) {
        /* a GPPC any-angle entry: judged against the exact optimum only */
        w->grid_bound = p->user ? 0.0 : gb_solver_grid_bound(&p->spec, o->model);
        w->aa_optimal = p->user ? (p->user->optimal & GB_USER_OPTIMAL) != 0
                                : !p->ext_cmd && gb_solver_aa_optimal(&p->spec);
        w->euclid = gb_anyangle_dist(sxy, txy);
        if (grid->cost) w->euclid *= gb_aaterrain_cmin(grid); /* terrain: the line-integral rule */
    }
    if (pr->a.fail == GB_EXT_PATH && pr->a.rs == GB_FOUND) {
        w->valid =
            w->anyangle && grid->cost
                ? gb_validate_aaterrain(grid, sxy, txy, ex->xy, (size_t)pr->a.n, pr->a.cost, &pr->pc)
            : w->anyangle && o->aa_gppc
                ? gb_validate_aagppc(grid, sxy, txy, ex->xy, (size_t)pr->a.n, pr->a.cost, &pr->pc)
            : w->anyangle
                ? gb_validate_anyangle(grid, sxy, txy, ex->xy, (size_t)pr->a.n, pr->a.cost, &pr->pc)
                : gb_validate_path(grid, o->model, sxy, txy, ex->xy, (size_t)pr->a.n, pr->a.cost,
                                   &pr->pc);
        if (ex->paths_f)   /* now: the next pair, or the oracle, reuses xy[] */
            gb_paths_write(ex->paths_f, ex->pl->scen[ex->pl->item[ex->k].scen].path, q->line,
                           ex->pname[pi], gb_pair_queue_name(p),
                           cost_model_of(ex, p), ex->xy, pr->a.n);
    }
    return 0;
}

/* Pass 2: judge every pair against *opt; the optima (GB_ORACLE_*) that
 * came from a cache and on which a verdict would rest: they are to be
 * proven before any row is written. */
static unsigned judge_all(gb_exec *ex, const gb_optimum *opt)
{
    pairrun *runs = ex->runs;
    unsigned need = 0;
    for (int pi = 0; pi < ex->o->npairs; pi++) {
        gb_outcome *w = &runs[pi].w;
        w->oracle_found = opt->found;
        w->scen_ok = opt->scen_ok;
        w->oc = &opt->oc;
        if (w->anyangle) {
            w->aa_has = opt->aa_has;
            w->aa_opt = opt->aa_opt;
            w->li = ex->map.grid.cost ? &opt->li : NULL;
        }
        runs[pi].st = gb_judge(w);
        if (opt->from_cache && gb_judge_needs_proof(w, runs[pi].st)) need |= GB_ORACLE_GRID;
        if (opt->aa_cached && w->anyangle && runs[pi].st >= 0
            && gb_row_status_failed((gb_row_status)runs[pi].st))
            need |= GB_ORACLE_AA;
    }
    return need;
}

/* Pass 3 for pair pi: its failure note and its row. */
static void write_pair(gb_exec *ex, int pi, const gb_optimum *opt, const gb_row *qrow, gb_qres *res)
{
    const gb_pair *p = &ex->o->pairs[pi];
    pairrun *pr = &((pairrun *)ex->runs)[pi];
    const gb_row_status st = (gb_row_status)pr->st;
    const int failed = pr->a.fail != GB_EXT_PATH;
    if (st == GB_ROW_INVALID && pr->w.valid)   /* any-angle, shorter than the straight line */
        snprintf(pr->pc.msg, sizeof pr->pc.msg,
                 "expected an any-angle cost >= the straight line "
                 "%s%.10g, found %.10g",
                 pr->w.li ? "x cmin " : "", pr->w.euclid, pr->pc.cost);
    if (gb_row_status_failed(st))
        gb_exec_note(ex, GB_NOTE_FAILURE, "%s:%ld: %s on %s/%s: %s%s%s%s%s", qrow->scen, qrow->line,
                     gb_row_status_name(st), ex->pname[pi], gb_pair_queue_name(p),
                     st == GB_ROW_INVALID ? (pr->a.msg[0] ? pr->a.msg : pr->pc.msg) : "",
                     st == GB_ROW_INVALID && pr->w.valid && pr->w.aa_has ? " (or below the any-angle "
                                                                           "optimum)"
                                                                         : "",
                     st == GB_ROW_SUBOPTIMAL
                         ? (pr->w.aa_optimal && pr->w.aa_has
                                ? "any-angle cost above the exact any-angle optimum"
                            : pr->w.anyangle && pr->w.li ? "any-angle cost above its bound x the "
                                                           "line-integral grid optimum"
                            : pr->w.anyangle             ? "any-angle cost above its bound x "
                                                           "the grid optimum (Dijkstra's)"
                                                         : "cost differs from Dijkstra's")
                         : "",
                     st == GB_ROW_FALSE_UNREACHABLE ? "no path reported, Dijkstra found one" : "",
                     st >= GB_ROW_PROTOCOL ? pr->a.msg : "");
    res->st[pi] = (uint8_t)st;
    res->exp[pi] = pr->a.st.expanded;
    res->ns[pi] = pr->med;
    memcpy(res->name[pi], ex->pname[pi], sizeof res->name[pi]);

    gb_row w = *qrow;
    row_pair(&w, ex, pi, (int)st);
    if (pr->a.counters && !failed) {
        const gb_stats *c = &pr->a.st;
        w.expanded = c->expanded;
        w.generated = c->generated;
        w.scanned = c->scanned;
        w.pushes = c->pushes;
        w.pops = c->pops;
        w.decreases = c->decreases;
        w.stale = c->stale;
        w.peak_open = c->peak_open;
    }
    w.has_cost = pr->a.rs == GB_FOUND && !failed;
    w.cost = pr->a.cost;
    w.path_len = pr->a.n;
    w.has_opt = opt->found;
    w.opt = opt->oc.cost;
    w.has_aa = pr->w.anyangle && pr->w.aa_has;
    w.has_li = pr->w.li && pr->w.li->ok;
    w.li_opt = w.has_li ? pr->w.li->cost : 0.0;
    w.aa_opt = pr->w.aa_opt;
    w.has_path_cost = pr->pc.ok;
    w.path_cost = pr->pc.cost;
    w.time_ns = pr->med;
    w.time_cold_ns = pr->cold;
    w.reps = pr->a.nrep;
    w.mem_bytes = pr->a.mem;
    w.prep_ns = ex->prep[pi];
    w.storage_bytes = ex->storage[pi];
    w.prepare_ns = ex->prepare_ns[pi];
    w.solver_time_ns = pr->a.self_ns;
    if (pr->a.calls > 0) {
        w.calls = pr->a.calls;
        w.first20_ns = pr->a.first20_ns;
        w.max_call_ns = pr->a.max_call_ns;
    }
    gb_row_write(ex->rows_f, &w);
}

int gb_exec_query(gb_exec *ex, size_t k, gb_qres *res, gb_diag *d)
{
    const gb_run_opts *o = ex->o;
    const gb_plan_item *it = &ex->pl->item[k];
    const gb_plan_scen *ps = &ex->pl->scen[it->scen];
    const gb_query *q = &ps->sc.q[it->qi];
    const char *scen = ps->path;
    int rc;
    gb_qres_clear_text(res);
    ex->rows_f = open_memstream(&res->rows, &res->rows_len);
    ex->notes_f = open_memstream(&res->notes, &res->notes_len);
    ex->paths_f = o->paths_out ? open_memstream(&res->paths, &res->paths_len) : NULL;
    ex->k = k;
    if (!ex->rows_f || !ex->notes_f || (o->paths_out && !ex->paths_f)) {
        rc = gb_diag_set(d, EX_OSERR, scen, q->line, 0, "expected memory, found none");
        goto out;
    }
    if ((rc = exec_map(ex, it->scen, d)) != 0) goto out;
    res->oracle_hit = 0;
    if (o->regime == GB_REGIME_GPPC && ex->todo) {   /* time the batch first, solver-major */
        size_t pos = todo_pos(ex, k);
        if (!ex->batch || ex->batch->scen != it->scen || pos < ex->batch->first
            || pos >= ex->batch->first + ex->batch->n)
            if ((rc = batch_time(ex, pos, d)) != 0) goto out;
    }

    if ((rc = gb_scen_check_query(&ps->sc, it->qi, &ex->map, d)) != 0) {
        if (!endpoint_blocked(q, &ex->map.grid)) goto out;   /* size or bounds: bad input */
        /* The scenario puts an endpoint on a cell the movement model calls
         * blocked (the Warcraft III set does): the scenario disagrees with
         * the model, the solvers are not at fault. */
        gb_exec_note(ex, GB_NOTE_WARNING, "%s:%ld:%ld: warning: %s; query counted as scen_mismatch",
                     d->path, d->line, d->col, d->msg);
        gb_diag_clear(d);
        rc = 0;
        res->scen_ok = 0;
        rows_all(ex, ps, q, GB_ROW_SCEN_MISMATCH, o->reps, res, 1);
        goto out;
    }

    /* oracle -> run the pairs -> judge -> prove what a verdict rests on -> rows */
    gb_optimum opt;
    if ((rc = gb_oracle_get(ex->orc, q, scen, &opt, d)) != 0) goto out;
    pairrun *runs = ex->runs;
    for (int pi = 0; pi < o->npairs; pi++)
        if ((rc = run_pair(ex, pi, q, &runs[pi], d)) != 0) {
            char m[sizeof d->msg];
            memcpy(m, d->msg, sizeof m);
            gb_diag_set(d, rc, scen, q->line, 0, "%s", m);   /* the query that needed it */
            goto out;
        }
    /* a cache's claim is not enough for a verdict that rests on it: the
     * oracle proves it and every pair is judged again (what was proven
     * asks for no proof, so this ends) */
    for (unsigned need; (need = judge_all(ex, &opt)) != 0;)
        if ((rc = gb_oracle_rederive(ex->orc, q, scen, need, &opt, d)) != 0) goto out;
    res->scen_ok = opt.scen_ok;
    res->oracle_hit = (opt.from_cache ? GB_QRES_HIT_GRID : 0) | (opt.aa_cached ? GB_QRES_HIT_AA : 0);
    gb_row qrow;
    row_query(&qrow, base_name(ps->map), scen, q, ex->model_col);
    for (int pi = 0; pi < o->npairs; pi++) {
        if (runs[pi].st < 0) {   /* a valid path where Dijkstra found none: the oracle is wrong */
            rc = gb_diag_set(d, EX_SOFTWARE, scen, q->line, 0,
                             "expected no path (Dijkstra found none), found a valid one from %s",
                             o->pairs[pi].spec.name);
            goto out;
        }
        write_pair(ex, pi, &opt, &qrow, res);
    }
out:
    if (ex->rows_f && fclose(ex->rows_f) != 0 && !rc)
        rc = gb_diag_set(d, EX_OSERR, scen, q->line, 0, "expected memory, found none");
    if (ex->notes_f && fclose(ex->notes_f) != 0 && !rc)
        rc = gb_diag_set(d, EX_OSERR, scen, q->line, 0, "expected memory, found none");
    if (ex->paths_f && fclose(ex->paths_f) != 0 && !rc)
        rc = gb_diag_set(d, EX_OSERR, scen, q->line, 0, "expected memory, found none");
    ex->rows_f = ex->notes_f = ex->paths_f = NULL;
    return rc;
}

int gb_exec_crash_rows(gb_exec *ex, size_t k, int wstatus, gb_qres *r)
{
    const gb_plan_scen *ps = &ex->pl->scen[ex->pl->item[k].scen];
    const gb_query *q = &ps->sc.q[ex->pl->item[k].qi];
    gb_qres_clear_text(r);
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
    rows_all(ex, ps, q, GB_ROW_CRASH, 0, r, 0);
    gb_exec_note(ex, GB_NOTE_FAILURE, "%s:%ld: crash on every pair: the worker process running this "
                 "query %s", ps->path, q->line, why);
    int bad = fclose(ex->rows_f) != 0;
    bad |= fclose(ex->notes_f) != 0;
    ex->rows_f = ex->notes_f = NULL;
    return bad ? -1 : 0;
}
