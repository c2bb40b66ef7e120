/*
 * gb_gppcreplay.c -- the replay of gb_gppcreplay.h: patches written cell
 * by cell into one grid, queries answered by every pair and judged
 * against Dijkstra on the map of their batch.
 *
 * Invariant between commands: g.pass is the map after every patch so
 * far, and the workspace's move masks agree with it (every flipped cell
 * was passed to gb_ws_cell_changed, which also dropped the per-map
 * tables built on the old map), and every running user worker was sent
 * every patch (gb_uworker_patch), so its grid is g too.  Time
 * complexity: O(patch cells) per patch (and per user worker), plus the
 * searches.
 */
#include "gb_gppcreplay.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gb_alloc.h"
#include "gb_anyangle.h"
#include "gb_exec.h"
#include "gb_status.h"
#include "gb_uworker.h"
#include "gb_validate.h"

typedef struct replay {
    const gb_gppcdyn *s;
    gb_grid g;
    gb_ws *ws;
    gb_xy *xy;              /* W x H points: a path */
    gb_solver_spec oracle;
    int np;
    gb_uworker *uw;         /* [np] the user pairs' workers (unused for built-in pairs) */
    uint64_t *ready_ns;     /* [np] a user pair's prep_ns for the current batch (0: none) */
    uint64_t *prepare_ns, *storage;   /* [np] a user pair's own figures of its last prepare */
    char tsrc[16];          /* the last user answer's time_source: the row points here
                               until the sink has written it (one row at a time) */
} replay;

/* Write patch c into the grid and forward it to the user workers; count
 * the flips. */
static void apply_patch(replay *r, const gb_gppcdyn_cmd *c, const gb_gppcrep_pair *pairs,
                        gb_gppcrep_sum *sum)
{
    const gb_gppcdyn_patch *p = &r->s->patch[c->patch];
    const uint8_t *cell = r->s->cell + p->c0;
    const gb_user_patch up = { c->x, c->y, p->w, p->h, cell };
    for (int pi = 0; pi < r->np; pi++)
        if (pairs[pi].user) gb_uworker_patch(&r->uw[pi], &up);
    for (int32_t y = 0; y < p->h; y++)
        for (int32_t x = 0; x < p->w; x++) {
            int32_t id = gb_grid_id(&r->g, c->x + x, c->y + y);
            if (gb_grid_set(&r->g, id, cell[(size_t)y * (size_t)p->w + (size_t)x]) == 1) {
                gb_ws_cell_changed(r->ws, id);
                sum->cells_changed++;
            }
        }
    sum->patches++;
}

/* The path of res as points into r->xy. */
static void to_xy(replay *r, const gb_result *res)
{
    for (int32_t i = 0; i < res->path_len; i++)
        r->xy[i] = (gb_xy){ gb_grid_x(&r->g, res->path[i]), gb_grid_y(&r->g, res->path[i]) };
}

/* Ask user pair pi (its worker) for the path sid -> tid; fill the row's
 * answer and times and the outcome o (o->pc is filled when a path came);
 * msg says why when the worker failed.  0, or EX_OSERR with *d filled
 * (no worker process could be started). */
static int user_query(replay *r, int pi, const gb_gppcrep_pair *pp, int32_t sid, int32_t tid, gb_row *row,
                      gb_outcome *o, gb_check *pc, char *msg, size_t msgn, gb_diag *d)
{
    const gb_grid *g = &r->g;
    gb_uworker *w = &r->uw[pi];
    gb_uanswer a;
    if (gb_uworker_solve(w, g, sid, tid, pp->timeout_ms, &a) != 0)
        return gb_diag_set(d, EX_OSERR, r->s->path, 0, 0, "expected a worker process for %s, found '%s'",
                           pp->user->name, strerror(errno));
    const gb_user_metrics *m = &a.m;
    int mt = a.have_metrics == 1;
    if (a.ready == 1) {   /* (re)prepared on this map: its preprocessing, as `gridbench run` says */
        r->ready_ns[pi] = mt && (m->have & GB_UM_MAP) ? m->preprocess_ns : (uint64_t)a.ready_ns;
        r->prepare_ns[pi] = mt && (m->have & GB_UM_MAP) ? m->prepare_ns : 0;
        r->storage[pi] = mt && (m->have & GB_UM_MAP) ? m->storage_bytes : 0;
        if (!r->ready_ns[pi]) r->ready_ns[pi] = 1;
    } else if (a.ready == 2) {   /* followed the batch's patches: GPPC's snapshot_time */
        r->ready_ns[pi] = mt && (m->have & GB_UM_CHANGE) ? m->change_ns : (uint64_t)a.ready_ns;
        if (!r->ready_ns[pi]) r->ready_ns[pi] = 1;
    }
    row->time_source = "plugin";
    o->ext_status = a.fail;
    if (a.fail != GB_EXT_PATH) {
        r->ready_ns[pi] = r->prepare_ns[pi] = r->storage[pi] = 0;   /* the next worker prepares anew */
        snprintf(msg, msgn, "%s", a.msg);
        return 0;
    }
    row->prep_ns = r->ready_ns[pi];
    row->prepare_ns = r->prepare_ns[pi];
    row->storage_bytes = r->storage[pi];
    if (a.prep_failed) {
        o->ext_status = GB_EXT_CRASH;
        snprintf(msg, msgn, "the user solver's prepare hook failed on this map (returned -1)%s%.160s",
                 mt && (m->have & GB_UM_ERROR) ? ": " : "", mt && (m->have & GB_UM_ERROR) ? m->reason : "");
        return 0;
    }
    row->time_ns = row->time_cold_ns = a.wall_ns;
    if (mt && (m->have & GB_UM_QUERY)) {
        row->time_ns = row->time_cold_ns = (int64_t)m->total_ns;
        row->first20_ns = (int64_t)m->first20_ns;
        row->max_call_ns = (int64_t)m->max_call_ns;
        row->calls = (int)m->calls;
        /* copied: a is this function's, the row outlives it */
        snprintf(r->tsrc, sizeof r->tsrc, "%s", m->time_source[0] ? m->time_source : "plugin");
        row->time_source = r->tsrc;
    }
    row->expanded = a.st.expanded;
    row->generated = a.st.generated;
    row->scanned = a.st.scanned;
    row->pushes = a.st.pushes;
    row->pops = a.st.pops;
    row->decreases = a.st.decreases;
    row->stale = a.st.stale;
    row->peak_open = a.st.peak_open;
    if (a.n < 0) {
        o->ext_status = GB_EXT_CRASH;
        snprintf(msg, msgn, "the user solver reported an internal error (returned a negative length)%s%.160s",
                 mt && (m->have & GB_UM_ERROR) ? ": " : "", mt && (m->have & GB_UM_ERROR) ? m->reason : "");
        return 0;
    }
    if (a.n == 0) {
        o->rs = GB_UNREACHABLE;
        return 0;
    }
    o->rs = GB_FOUND;
    row->has_cost = 1;
    if (a.ncell == 0) {   /* refused: a bent GPPC segment, or more cells than the map */
        o->valid = 0;
        if (mt && (m->have & GB_UM_SEGMENT))
            snprintf(msg, msgn, "segment %lld: %.200s", (long long)m->bad_segment, m->reason);
        else
            snprintf(msg, msgn, "expected at most %ld path cells, found %ld", (long)g->ncells, (long)a.n);
        return 0;
    }
    double c = 0.0;
    for (int32_t i = 0; i < a.ncell; i++) {
        r->xy[i] = (gb_xy){ gb_grid_x(g, w->cells[i]), gb_grid_y(g, w->cells[i]) };
        if (i > 0)
            c += r->xy[i].x != r->xy[i - 1].x && r->xy[i].y != r->xy[i - 1].y ? GB_SQRT2 : 1.0;
    }
    const gb_xy sxy = { gb_grid_x(g, sid), gb_grid_y(g, sid) }, txy = { gb_grid_x(g, tid), gb_grid_y(g, tid) };
    o->valid = gb_validate_path(g, GB_MODEL_8_NOCUT, sxy, txy, r->xy, (size_t)a.ncell, c, pc);
    row->cost = c;
    row->path_len = a.ncell;
    row->has_path_cost = o->valid;
    row->path_cost = pc->cost;
    return 0;
}

/* Answer query c with every pair; rows to the sink. */
static int run_query(replay *r, const gb_gppcdyn_cmd *c, const char *map,
                     const gb_gppcrep_pair *p, int np, gb_gppcrep_sink sink, void *arg,
                     gb_gppcrep_sum *sum, gb_diag *d)
{
    const gb_grid *g = &r->g;
    const gb_xy sxy = { c->x, c->y }, txy = { c->gx, c->gy };
    const int32_t sid = gb_grid_id(g, c->x, c->y), tid = gb_grid_id(g, c->gx, c->gy);
    const int ends_free = g->pass[sid] && g->pass[tid];
    gb_result res;
    gb_check oc;
    memset(&oc, 0, sizeof oc);
    int found = 0;
    if (ends_free) {
        if (gb_solve(r->ws, &r->oracle, GB_Q_BHEAP, sid, tid, &res) != 0)
            return gb_diag_set(d, EX_OSERR, r->s->path, c->line, 0,
                               "expected memory for Dijkstra, found none");
        found = res.status == GB_FOUND;
        if (found) {
            to_xy(r, &res);
            gb_validate_path(g, GB_MODEL_8_NOCUT, sxy, txy, r->xy, (size_t)res.path_len, res.cost,
                             &oc);
        }
    }
    const int scen_ok = c->len < 0 ? !found : found && fabs(oc.cost - c->len) <= c->tol;
    char smsg[256] = "";
    if (!scen_ok) {
        sum->mismatch++;
        if (c->len < 0)
            snprintf(smsg, sizeof smsg, "the scenario says no path, Dijkstra found one of cost "
                     "%.14g", oc.cost);
        else if (!found)
            snprintf(smsg, sizeof smsg, "the scenario's length %.14g, Dijkstra found no path%s",
                     c->len, ends_free ? "" : " (a patch blocked the start or the goal)");
        else
            snprintf(smsg, sizeof smsg, "the scenario's length %.14g, Dijkstra's %.14g (tolerance "
                     "%.3g)", c->len, oc.cost, c->tol);
    }
    sum->queries++;

    gb_row w;
    memset(&w, 0, sizeof w);
    w.map = map;
    w.scen = r->s->path;
    w.line = c->line;
    w.bucket = c->t;
    w.sx = c->x;
    w.sy = c->y;
    w.gx = c->gx;
    w.gy = c->gy;
    w.model = gb_model_name(GB_MODEL_8_NOCUT);
    w.scen_cost = c->len;
    w.scen_decimals = c->decimals;
    w.euclid_lb = gb_anyangle_dist(sxy, txy);
    w.has_opt = found;
    w.opt = oc.cost;
    w.time_source = "inproc";
    w.regime = "interleaved";
    w.solver_time_ns = w.first20_ns = w.max_call_ns = -1;
    w.reps = 1;

    for (int pi = 0; pi < np; pi++) {
        const gb_solver_spec *sp = &p[pi].spec;
        gb_row row = w;
        gb_outcome o;
        gb_check pc;
        memset(&o, 0, sizeof o);
        memset(&pc, 0, sizeof pc);
        if (p[pi].user) {   /* a plugin: what it declared (gb_judge.c's rule for user pairs) */
            row.solver = p[pi].user->name;
            row.queue = "none";
            o.gu = p[pi].user->optimal & GB_USER_OPTIMAL ? GB_GUAR_OPTIMAL : GB_GUAR_NONE;
            o.bound = p[pi].user->optimal & GB_USER_OPTIMAL ? 1.0 : 0.0;
            row.cost_model = gb_cost_model_name(GB_COST_GRID);
            row.time_source = "plugin";
        } else {
            row.solver = sp->name;
            row.queue = gb_solver_uses_queue(sp) ? gb_queue_name(p[pi].queue)
                                                 : gb_solver_queue_label(sp);
            o.gu = gb_solver_guarantee(sp, GB_MODEL_8_NOCUT, &o.bound);
            row.cost_model = gb_cost_model_name(gb_solver_cost_model(sp));
            o.anyangle = gb_solver_cost_model(sp) == GB_COST_ANYANGLE;
        }
        row.guarantee = gb_guarantee_name(o.gu);
        row.bound = o.bound;
        o.ext_status = GB_EXT_PATH;
        o.oracle_found = found;
        o.scen_ok = scen_ok;
        o.pc = &pc;
        o.oc = &oc;
        int st;
        char msg[320] = "";
        if (!ends_free) {
            st = scen_ok ? GB_ROW_UNREACHABLE : GB_ROW_SCEN_MISMATCH;
        } else if (p[pi].user) {
            int rc = user_query(r, pi, &p[pi], sid, tid, &row, &o, &pc, msg, sizeof msg, d);
            if (rc) return rc;
            st = gb_judge(&o);
            if (st < 0) {
                st = GB_ROW_INVALID;
                snprintf(msg, sizeof msg, "found a path where Dijkstra found none");
            }
        } else {
            /* the per-map tables: rebuilt here after a patch, outside the timed search */
            double before = gb_ws_prep_ns(r->ws, sp);
            if (gb_ws_prepare(r->ws, sp, p[pi].queue) != 0)
                return gb_diag_set(d, EX_OSERR, r->s->path, c->line, 0, "expected memory for "
                                   "%s's tables, found none", sp->name);
            double after = gb_ws_prep_ns(r->ws, sp);
            if (before == 0 && after > 0) sum->rebuild_ns += (int64_t)after;
            row.prep_ns = after > 0 ? (uint64_t)after : 0;
            int64_t t0 = gb_now_ns();
            int rc = gb_solve(r->ws, sp, p[pi].queue, sid, tid, &res);
            int64_t t = gb_now_ns() - t0;
            if (rc != 0)
                return gb_diag_set(d, EX_OSERR, r->s->path, c->line, 0,
                                   "expected memory for %s, found none", sp->name);
            row.time_ns = row.time_cold_ns = t;
            row.mem_bytes = gb_ws_bytes_prepared(r->ws, sp, p[pi].queue);
            row.expanded = res.st.expanded;
            row.generated = res.st.generated;
            row.scanned = res.st.scanned;
            row.pushes = res.st.pushes;
            row.pops = res.st.pops;
            row.decreases = res.st.decreases;
            row.stale = res.st.stale;
            row.peak_open = res.st.peak_open;
            o.rs = res.status;
            if (res.status == GB_FOUND) {
                to_xy(r, &res);
                if (o.anyangle) {
                    o.grid_bound = gb_solver_grid_bound(sp, GB_MODEL_8_NOCUT);
                    o.euclid = w.euclid_lb;
                }
                o.valid = o.anyangle
                    ? gb_validate_anyangle(g, sxy, txy, r->xy, (size_t)res.path_len, res.cost, &pc)
                    : gb_validate_path(g, GB_MODEL_8_NOCUT, sxy, txy, r->xy,
                                       (size_t)res.path_len, res.cost, &pc);
                row.has_cost = 1;
                row.cost = res.cost;
                row.path_len = res.path_len;
                row.has_path_cost = o.valid;
                row.path_cost = pc.cost;
            }
            st = gb_judge(&o);
            if (st < 0) {
                st = GB_ROW_INVALID;
                snprintf(msg, sizeof msg, "found a path where Dijkstra found none");
            }
        }
        if (st == GB_ROW_INVALID && !msg[0])
            snprintf(msg, sizeof msg, "%s", pc.msg[0] ? pc.msg : "any-angle cost below the "
                     "straight line");
        else if (st == GB_ROW_SUBOPTIMAL)
            snprintf(msg, sizeof msg, "cost %.14g breaks its guarantee against Dijkstra's %.14g",
                     pc.cost, oc.cost);
        else if (st == GB_ROW_FALSE_UNREACHABLE)
            snprintf(msg, sizeof msg, "no path reported, Dijkstra found one of cost %.14g",
                     oc.cost);
        else if (st == GB_ROW_SCEN_MISMATCH && pi == 0)   /* the scenario's fault: said once */
            snprintf(msg, sizeof msg, "%s", smsg);
        row.status = gb_row_status_name((gb_row_status)st);
        sum->rows++;
        if (gb_row_status_failed((gb_row_status)st)) sum->failed++;
        int rc = sink(arg, &row, msg);
        if (rc) return rc;
    }
    return 0;
}

int gb_gppcrep_run(const gb_gppcdyn *s, const char *map, const gb_gppcrep_pair *p, int np,
                   long maxq, gb_gppcrep_sink sink, void *arg, gb_gppcrep_sum *sum, gb_diag *d)
{
    memset(sum, 0, sizeof *sum);
    gb_diag_clear(d);
    for (int pi = 0; pi < np; pi++) {
        char err[256];
        if (!p[pi].user && gb_solver_unsupported(&p[pi].spec, GB_MODEL_8_NOCUT, err, sizeof err))
            return gb_diag_set(d, EX_USAGE, s->path, 0, 0, "%s", err);
        if (p[pi].user && (p[pi].user->optimal & GB_USER_AA_GPPC))
            return gb_diag_set(d, EX_USAGE, s->path, 0, 0,
                               "solver '%s' is a GPPC any-angle entry: "
                               "expected a grid-path solver (the dynamic replay has no any-angle "
                               "model), found an any-angle one",
                               p[pi].user->name);
    }
    replay r;
    memset(&r, 0, sizeof r);
    r.s = s;
    char err[256];
    if (gb_solver_parse("dijkstra", &r.oracle, err, sizeof err) != 0)
        return gb_diag_set(d, EX_SOFTWARE, s->path, 0, 0, "%s", err);
    int rc = 0;
    if (gb_grid_init(&r.g, s->width, s->height) != 0) {
        rc = gb_diag_set(d, EX_OSERR, s->path, 0, 0, "expected memory for a %ld x %ld grid, "
                         "found none", (long)s->width, (long)s->height);
        return rc;
    }
    for (int32_t y = 0; y < s->height; y++)       /* GPPC's map starts all passable */
        memset(r.g.pass + gb_grid_id(&r.g, 0, y), 1, (size_t)s->width);
    gb_grid_recount(&r.g);
    r.ws = gb_ws_new(&r.g, GB_MODEL_8_NOCUT);
    r.xy = gb_malloc((size_t)s->width * (size_t)s->height * sizeof *r.xy);
    r.np = np;
    r.uw = gb_calloc((size_t)np + 1, sizeof *r.uw);
    r.ready_ns = gb_calloc((size_t)np + 1, 3 * sizeof *r.ready_ns);
    if (r.ready_ns) {
        r.prepare_ns = r.ready_ns + np + 1;
        r.storage = r.ready_ns + 2 * (np + 1);
    }
    for (int pi = 0; r.uw && pi < np; pi++) gb_uworker_init(&r.uw[pi], p[pi].user, GB_MODEL_8_NOCUT);
    if (!r.ws || !r.xy || !r.uw || !r.ready_ns)
        rc = gb_diag_set(d, EX_OSERR, s->path, 0, 0, "expected memory for the search state of "
                         "a %ld x %ld map, found none", (long)s->width, (long)s->height);
    for (size_t i = 0; rc == 0 && i < s->ncmd; i++) {
        const gb_gppcdyn_cmd *c = &s->cmd[i];
        if (c->kind == GB_GPPCDYN_PATCH) {
            apply_patch(&r, c, p, sum);
            continue;
        }
        if (maxq > 0 && sum->queries >= maxq) break;
        rc = run_query(&r, c, map, p, np, sink, arg, sum, d);
    }
    for (int pi = 0; r.uw && pi < np; pi++)
        if (p[pi].user) gb_uworker_stop(&r.uw[pi]);
    gb_free(r.uw);
    gb_free(r.ready_ns);
    gb_free(r.xy);
    gb_ws_free(r.ws);
    gb_grid_free(&r.g);
    return rc;
}
