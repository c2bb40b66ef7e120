/*
 * gb_dynreplay.c -- one agent's replay of a dynamic query with D* Lite,
 * a from-scratch baseline and the Dijkstra oracle.  See gb_dynreplay.h
 * for the loop, the checks and what is timed.
 *
 * Data structure
 *   The caller's grid, changed in place by the events; changed[] lists
 *   every flip of the replay in order (a cell flipped twice is listed
 *   twice), so that undoing them backwards restores the file's map.
 *   fired[e] marks the events of the query that fired.  cur[] is the
 *   agent's current plan (D* Lite's path, copied), at its index in it.
 *
 * Invariants
 *   - Between replays the grid is the file's map and the workspace and
 *     D* Lite's masks agree with it (every flip is told to both).
 *   - During a replay, grid = file's map + flips changed[0 .. nchanged).
 *
 * Time complexity: a replay makes at most (events + 1) plans, each of
 * them three searches and three O(path) validations.
 */
#include "gb_dynreplay.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "gb_alloc.h"
#include "gb_diag.h"
#include "gb_validate.h"

struct gb_dynrep {
    gb_grid *grid;           /* the caller's map, changed during a replay */
    gb_model model;
    gb_ws *ws;               /* the baseline from scratch and the oracle */
    gb_dstar *ds;
    gb_solver_spec astar, oracle;
    gb_queue_kind queue;
    gb_xy *xy;               /* path buffer for the validator */
    int32_t *cur;            /* the agent's current plan */
    int32_t *changed;        /* cells flipped during the replay (to restore) */
    size_t nchanged, capchanged;
    uint16_t *qfree;         /* terrain costs: per cell, the cost it has when
                                passable (its own, or the fill cost for a cell
                                the map blocks; 0: it stays blocked); NULL on
                                a uniform grid */
    uint8_t *fired;          /* per event of the query */
    size_t capfired;
    const gb_dynrep_obs *obs;   /* of the running replay (never NULL then) */
    gb_dynrep_row *row;         /* of the running replay */
};

static const gb_dynrep_obs no_obs = { NULL, NULL, NULL, NULL };

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

gb_dynrep *gb_dynrep_new(gb_grid *g, gb_model m, const gb_solver_spec *astar, gb_queue_kind q,
                         uint16_t fill)
{
    gb_dynrep *r = gb_calloc(1, sizeof *r);
    if (!r) return NULL;
    if (g->cost) {
        /* the searches below scale their heuristics by qmin: size them for
         * every cost an event can bring */
        if (fill && fill < g->qmin) g->qmin = fill;
        if (fill > g->qmax) g->qmax = fill;
        r->qfree = gb_malloc((size_t)g->ncells * sizeof *r->qfree);
        if (!r->qfree) {
            gb_free(r);
            errno = ENOMEM;
            return NULL;
        }
        for (int32_t id = 0; id < g->ncells; id++) {
            int32_t x = gb_grid_x(g, id), y = gb_grid_y(g, id);
            int map = x >= 0 && y >= 0 && x < g->width && y < g->height;
            r->qfree[id] = !map ? 0 : g->cost[id] ? g->cost[id] : fill;
        }
    }
    char err[128];
    r->grid = g;
    r->model = m;
    r->astar = *astar;
    r->queue = q;
    gb_solver_parse("dijkstra", &r->oracle, err, sizeof err);
    r->ws = gb_ws_new(g, m);
    r->ds = gb_dstar_new(g, m);
    r->xy = gb_malloc((size_t)g->ncells * sizeof *r->xy);
    r->cur = gb_malloc((size_t)g->ncells * sizeof *r->cur);
    if (!r->ws || !r->ds || !r->xy || !r->cur) {
        gb_dynrep_free(r);
        errno = ENOMEM;
        return NULL;
    }
    return r;
}

void gb_dynrep_free(gb_dynrep *r)
{
    if (!r) return;
    gb_dstar_free(r->ds);
    gb_ws_free(r->ws);
    gb_free(r->xy);
    gb_free(r->cur);
    gb_free(r->changed);
    gb_free(r->fired);
    gb_free(r->qfree);
    gb_free(r);
}

static void note(gb_dynrep *r, const char *fmt, ...) GB_PRINTF_LIKE(2, 3);
static void note(gb_dynrep *r, const char *fmt, ...)
{
    if (r->row->msg[0]) return;   /* keep the first */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->row->msg, sizeof r->row->msg, fmt, ap);
    va_end(ap);
}

/* Validate path[0..n) from a to b on the map now; *chk filled. */
static int check_path(gb_dynrep *r, const int32_t *path, int32_t n, int32_t a, int32_t b,
                      double cost, gb_check *chk)
{
    const gb_grid *g = r->grid;
    for (int32_t i = 0; i < n; i++)
        r->xy[i] = (gb_xy){ gb_grid_x(g, path[i]), gb_grid_y(g, path[i]) };
    gb_xy s = { gb_grid_x(g, a), gb_grid_y(g, a) }, t = { gb_grid_x(g, b), gb_grid_y(g, b) };
    return gb_validate_path(g, r->model, s, t, r->xy, (size_t)n, cost, chk);
}

/* Plan with both planners from agent to goal at step t after the changes
 * ids[0..nids) (already applied to the map), check both against the
 * oracle, and copy D* Lite's path into r->cur.  Returns 1 when a path
 * exists, 0 when the goal is unreachable, -1 when a check failed or a
 * solver could not run (the row's message says why). */
static int plan(gb_dynrep *r, int64_t t, int32_t agent, int32_t goal, const int32_t *ids,
                size_t nids, int32_t *len, double *cost)
{
    const gb_grid *g = r->grid;
    gb_dynrep_row *row = r->row;
    /* D* Lite: the repair and the plan */
    gb_dstar_plan dp;
    int64_t t0 = now_ns();
    for (size_t i = 0; i < nids; i++) gb_dstar_cell_changed(r->ds, ids[i]);
    int drc = gb_dstar_plan_path(r->ds, &dp);
    int64_t t1 = now_ns();
    /* the baseline from scratch */
    for (size_t i = 0; i < nids; i++) gb_ws_cell_changed(r->ws, ids[i]);
    gb_result ar;
    int arc = gb_solve(r->ws, &r->astar, r->queue, agent, goal, &ar);
    int64_t t2 = now_ns();
    if (row->plans == 0) {
        row->ds.first_ns += t1 - t0;
        row->ds.first_exp += dp.expanded;
        row->as.first_ns += t2 - t1;
        row->as.first_exp += ar.st.expanded;
    } else {
        row->ds.replan_ns += t1 - t0;
        row->ds.replan_exp += dp.expanded;
        row->ds.replan_pops += dp.pops;
        row->ds.replan_updates += dp.updates;
        row->as.replan_ns += t2 - t1;
        row->as.replan_exp += ar.st.expanded;
    }
    row->plans++;
    if (r->obs->plan && drc == 0) r->obs->plan(r->obs->arg, t, agent, &dp);
    int ax = gb_grid_x(g, agent), ay = gb_grid_y(g, agent);
    if (drc != 0) { note(r, "D* Lite path extraction failed at %d,%d", ax, ay); return -1; }
    if (arc != 0) { note(r, "%s could not run: %s", r->astar.name, strerror(errno)); return -1; }
    int afound = ar.status == GB_FOUND;
    gb_check ac, dc, oc;
    if (afound && !check_path(r, ar.path, ar.path_len, agent, goal, ar.cost, &ac)) {
        note(r, "%s path invalid at %d,%d: %s", r->astar.name, ax, ay, ac.msg);
        return -1;
    }
    /* the oracle (after the baseline's path was checked: same workspace) */
    gb_result orr;
    if (gb_solve(r->ws, &r->oracle, GB_Q_BHEAP, agent, goal, &orr) != 0) {
        note(r, "dijkstra could not run: %s", strerror(errno));
        return -1;
    }
    int ofound = orr.status == GB_FOUND;
    if (ofound && !check_path(r, orr.path, orr.path_len, agent, goal, orr.cost, &oc)) {
        note(r, "dijkstra path invalid at %d,%d: %s", ax, ay, oc.msg);
        return -1;
    }
    if (dp.found != ofound || afound != ofound) {
        note(r, "at %d,%d: dijkstra %s a path, D* Lite %s, %s %s", ax, ay,
             ofound ? "finds" : "finds no", dp.found ? "finds one" : "none", r->astar.name,
             afound ? "finds one" : "none");
        return -1;
    }
    if (!ofound) return 0;
    if (!check_path(r, dp.path, dp.path_len, agent, goal, dp.cost, &dc)) {
        note(r, "D* Lite path invalid at %d,%d: %s", ax, ay, dc.msg);
        return -1;
    }
    if (dc.straight != dp.straight || dc.diag != dp.diag || gb_check_cmp(&dc, &oc) != 0) {
        note(r, "at %d,%d: D* Lite cost %.8f (%lld straight, %lld diagonal), dijkstra %.8f",
             ax, ay, dc.cost, (long long)dc.straight, (long long)dc.diag, oc.cost);
        return -1;
    }
    if (gb_check_cmp(&ac, &oc) != 0) {
        note(r, "at %d,%d: %s cost %.8f, dijkstra %.8f", ax, ay, r->astar.name, ac.cost,
             oc.cost);
        return -1;
    }
    memcpy(r->cur, dp.path, (size_t)dp.path_len * sizeof *r->cur);
    *len = dp.path_len;
    *cost = oc.cost;
    return 1;
}

static int cheb_near(const gb_grid *g, int32_t agent, const gb_dyn_cell *cl, size_t n, int32_t rad)
{
    int32_t ax = gb_grid_x(g, agent), ay = gb_grid_y(g, agent);
    for (size_t i = 0; i < n; i++) {
        int32_t dx = cl[i].x - ax, dy = cl[i].y - ay;
        if (dx < 0) dx = -dx;
        if (dy < 0) dy = -dy;
        if ((dx > dy ? dx : dy) <= rad) return 1;
    }
    return 0;
}

/* Room for n more entries in changed[].  0, or -1 (out of memory). */
static int reserve_changed(gb_dynrep *r, size_t n)
{
    if (r->capchanged - r->nchanged >= n) return 0;
    size_t nc = r->capchanged ? r->capchanged : 64;
    while (nc - r->nchanged < n) {
        if (nc > SIZE_MAX / 2 / sizeof *r->changed) return -1;
        nc *= 2;
    }
    int32_t *p = gb_realloc(r->changed, nc * sizeof *p);
    if (!p) return -1;
    r->changed = p;
    r->capchanged = nc;
    return 0;
}

/* Fire the events of query q due at step t with the agent on agent; the
 * cells that changed are appended to r->changed.  Returns 0, or -1 (out
 * of memory: nothing of the event was applied). */
static int fire_events(gb_dynrep *r, const gb_dynscen *s, const gb_dyn_query *q, int64_t t,
                       int32_t agent)
{
    gb_grid *g = r->grid;
    for (size_t e = 0; e < q->nev; e++) {
        if (r->fired[e]) continue;
        const gb_dyn_event *ev = &s->ev[q->ev0 + e];
        const gb_dyn_cell *cl = &s->cell[ev->c0];
        int due = ev->trigger == GB_DYN_AT ? ev->value == t
                                           : cheb_near(g, agent, cl, ev->nc, ev->value);
        if (!due) continue;
        if (reserve_changed(r, ev->nc)) return -1;
        r->fired[e] = 1;
        for (size_t i = 0; i < ev->nc; i++) {
            int32_t id = gb_grid_id(g, cl[i].x, cl[i].y);
            if (ev->block && id == agent) { r->row->dropped++; continue; }
            if ((g->cost ? gb_grid_set_cost(g, id, ev->block ? 0 : r->qfree[id])
                         : gb_grid_set(g, id, !ev->block))
                != 1)
                continue;
            r->changed[r->nchanged++] = id;
            r->row->cells_changed++;
        }
        if (r->obs->event) r->obs->event(r->obs->arg, t, ev, cl, agent);
    }
    return 0;
}

/* Undo every flip of the replay (the map is the file's again). */
static void restore(gb_dynrep *r)
{
    gb_grid *g = r->grid;
    for (size_t i = r->nchanged; i-- > 0;) {
        int32_t id = r->changed[i];
        if (g->cost) gb_grid_set_cost(g, id, g->pass[id] ? 0 : r->qfree[id]);
        else gb_grid_set(g, id, !g->pass[id]);
        gb_ws_cell_changed(r->ws, id);
        gb_dstar_cell_changed(r->ds, id);
    }
    r->nchanged = 0;
}

/* The replay loop; 0 or EX_OSERR.  The map is left changed. */
static int run(gb_dynrep *r, const gb_dynscen *s, const gb_dyn_query *q)
{
    const gb_grid *g = r->grid;
    gb_dynrep_row *row = r->row;
    int32_t agent = gb_grid_id(g, q->sx, q->sy), goal = gb_grid_id(g, q->gx, q->gy);
    if (fire_events(r, s, q, 0, agent)) return EX_OSERR;
    /* the changes at t = 0 are part of the map the episode begins on:
     * told before gb_dstar_begin, which forgets any search (gb_dstar.h,
     * "Call order": safe on a fresh object too) */
    for (size_t i = 0; i < r->nchanged; i++) {
        gb_ws_cell_changed(r->ws, r->changed[i]);
        gb_dstar_cell_changed(r->ds, r->changed[i]);
    }
    gb_dstar_begin(r->ds, agent, goal);
    int32_t len = 0, at = 0;
    double cost = 0;
    int rc = plan(r, 0, agent, goal, NULL, 0, &len, &cost);
    row->first_cost = rc == 1 ? cost : 0;
    /* the step limit only guards against a bug: every event fires once,
     * and between events the agent walks a shortest path */
    int64_t limit = (int64_t)g->ncells * (int64_t)(q->nev + 1) + 1;
    while (rc == 1 && agent != goal && row->steps < limit) {
        int32_t next = r->cur[++at];
        int k = 0;
        while (k < 8 && agent + g->off[k] != next) k++;
        if (k == 8) { note(r, "plan steps from cell %d to a non-neighbour %d", agent, next); break; }
        if (g->cost) { /* the step's cost under the terrain model, as the validator has it */
            double u = (double)gb_grid_units(g, agent, k);
            row->travelled += (k < 4 ? u : u * GB_SQRT2) / (double)g->cscale;
        } else {
            row->travelled += gb_dir_cost[k];
        }
        agent = next;
        row->steps++;
        gb_dstar_move(r->ds, agent);
        if (r->obs->move) r->obs->move(r->obs->arg, row->steps, agent);
        size_t before = r->nchanged;
        if (fire_events(r, s, q, row->steps, agent)) return EX_OSERR;
        if (r->nchanged > before) {
            rc = plan(r, row->steps, agent, goal, r->changed + before, r->nchanged - before,
                      &len, &cost);
            at = 0;
        }
    }
    if (rc == 1 && agent != goal) note(r, "step limit %lld reached", (long long)limit);
    row->status = row->msg[0] ? "wrong" : rc == 0 ? "unreachable" : "arrived";
    return 0;
}

int gb_dynrep_query(gb_dynrep *r, const gb_dynscen *s, size_t qi, const gb_dynrep_obs *obs,
                    gb_dynrep_row *row)
{
    const gb_dyn_query *q = &s->q[qi];
    memset(row, 0, sizeof *row);
    row->status = "wrong";
    if (q->nev > r->capfired) {
        uint8_t *p = gb_realloc(r->fired, q->nev);
        if (!p) return EX_OSERR;
        r->fired = p;
        r->capfired = q->nev;
    }
    if (q->nev) memset(r->fired, 0, q->nev);
    r->obs = obs ? obs : &no_obs;
    r->row = row;
    int rc = run(r, s, q);
    restore(r);
    r->obs = NULL;
    r->row = NULL;
    return rc;
}
