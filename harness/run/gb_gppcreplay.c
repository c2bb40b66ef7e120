/*
 * gb_gppcreplay.c -- the replay of gb_gppcreplay.h: patches written cell
 * by cell into one grid, queries answered by every pair and judged
 * against Dijkstra on the map of their batch.
 *
 * Invariant between commands: g.pass is the map after every patch so
 * far, and the workspace's move masks agree with it (every flipped cell
 * was passed to gb_ws_cell_changed, which also dropped the per-map
 * tables built on the old map).  Time complexity: O(patch cells) per
 * patch, plus the searches.
 */
#include "gb_gppcreplay.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gb_alloc.h"
#include "gb_anyangle.h"
#include "gb_exec.h"
#include "gb_status.h"
#include "gb_validate.h"

typedef struct replay {
    const gb_gppcdyn *s;
    gb_grid g;
    gb_ws *ws;
    gb_xy *xy;              /* W x H points: a path */
    gb_solver_spec oracle;
} replay;

/* Write patch c into the grid; count the flips. */
static void apply_patch(replay *r, const gb_gppcdyn_cmd *c, gb_gppcrep_sum *sum)
{
    const gb_gppcdyn_patch *p = &r->s->patch[c->patch];
    const uint8_t *cell = r->s->cell + p->c0;
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
        row.solver = sp->name;
        row.queue = gb_solver_uses_queue(sp) ? gb_queue_name(p[pi].queue)
                                             : gb_solver_queue_label(sp);
        o.gu = gb_solver_guarantee(sp, GB_MODEL_8_NOCUT, &o.bound);
        row.guarantee = gb_guarantee_name(o.gu);
        row.bound = o.bound;
        row.cost_model = gb_cost_model_name(gb_solver_cost_model(sp));
        o.anyangle = gb_solver_cost_model(sp) == GB_COST_ANYANGLE;
        o.ext_status = GB_EXT_PATH;
        o.oracle_found = found;
        o.scen_ok = scen_ok;
        o.pc = &pc;
        o.oc = &oc;
        int st;
        char msg[320] = "";
        if (!ends_free) {
            st = scen_ok ? GB_ROW_UNREACHABLE : GB_ROW_SCEN_MISMATCH;
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
        if (gb_solver_unsupported(&p[pi].spec, GB_MODEL_8_NOCUT, err, sizeof err))
            return gb_diag_set(d, EX_USAGE, s->path, 0, 0, "%s", err);
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
    if (!r.ws || !r.xy)
        rc = gb_diag_set(d, EX_OSERR, s->path, 0, 0, "expected memory for the search state of "
                         "a %ld x %ld map, found none", (long)s->width, (long)s->height);
    for (size_t i = 0; rc == 0 && i < s->ncmd; i++) {
        const gb_gppcdyn_cmd *c = &s->cmd[i];
        if (c->kind == GB_GPPCDYN_PATCH) {
            apply_patch(&r, c, sum);
            continue;
        }
        if (maxq > 0 && sum->queries >= maxq) break;
        rc = run_query(&r, c, map, p, np, sink, arg, sum, d);
    }
    gb_free(r.xy);
    gb_ws_free(r.ws);
    gb_grid_free(&r.g);
    return rc;
}
