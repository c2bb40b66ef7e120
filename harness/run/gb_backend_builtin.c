/*
 * gb_backend_builtin.c -- the built-in solvers (the registry of
 * gb_search.h), in process, behind gb_backend_ops.
 *
 * Every built-in pair shares the exec's one workspace (gb_ws), which the
 * oracle uses too; prepare builds the pair's per-map state there (queues,
 * landmark, jump and subgoal tables) and records its exact size, so that
 * --max-mem can refuse a pair before it runs.  A family that estimates
 * its build first (cpd) may refuse the map (EFBIG: over --max-mem or its
 * time budget): the pair is then not run on this map (ex->uprep[pi] =
 * GB_UPREP_FAILED), its rows are 'limit' with the family's estimate as
 * their message, and a note says so once per map.  prep_ns is the time
 * the family's index took to build (gb_ws_prep_ns), the same on every
 * queue of one solver.  solve times each of
 * the reps around gb_solve with CLOCK_MONOTONIC: nothing else sits inside
 * the timed region.
 */
#include "gb_exec.h"

#include <errno.h>
#include <string.h>

static gb_queue_kind queue_of(const gb_pair *p)
{
    return p->queue < 0 ? GB_Q_BHEAP : (gb_queue_kind)p->queue;
}

static uint64_t builtin_bytes(const gb_exec *ex, int pi, const gb_grid *g)
{
    const gb_pair *p = &ex->o->pairs[pi];
    return gb_ws_bytes(g->width, g->height, &p->spec, queue_of(p));
}

static int builtin_prepare(gb_exec *ex, int pi, gb_diag *d)
{
    const gb_pair *p = &ex->o->pairs[pi];
    ex->mem[pi] = builtin_bytes(ex, pi, &ex->map.grid);
    ex->uprep[pi] = GB_UPREP_NONE;
    if (ex->o->max_mem && ex->mem[pi] > ex->o->max_mem) return GB_PREP_NONE;   /* not run */
    if (gb_ws_prepare(ex->ws, &p->spec, queue_of(p)) != 0) {
        if (errno == EFBIG) {   /* the family refuses this map: its build is over budget */
            ex->uprep[pi] = GB_UPREP_FAILED;
            snprintf(ex->prep_why[pi], sizeof ex->prep_why[pi], "%s", gb_ws_prep_msg(ex->ws));
            gb_exec_note(ex, GB_NOTE_INFO, "gridbench run: %s: %s not run on this map: %s",
                         ex->mpath, p->spec.name, ex->prep_why[pi]);
            return GB_PREP_NONE;
        }
        return gb_diag_set(d, EX_OSERR, ex->mpath, 0, 0, "expected memory for solver %s, found none",
                           p->spec.name);
    }
    /* a state whose size depends on the map (subgoal graphs) counts exactly now */
    ex->mem[pi] = gb_ws_bytes_prepared(ex->ws, &p->spec, queue_of(p));
    /* prep_ns is the solver's per-map index (landmark, jump and subgoal
     * tables), built once per (map, solver, model) however many queues
     * share it, and charged alike to every queue's rows: the time its
     * build took, not what this call cost (the first queue pays the build,
     * the others reuse it).  The queue's own allocation is not
     * preprocessing.  No index: an empty prep_ns. */
    const double t = gb_ws_prep_ns(ex->ws, &p->spec);
    ex->prep[pi] = t > 0 ? (uint64_t)t : 0;
    return GB_PREP_SET;
}

static int builtin_solve(gb_exec *ex, int pi, gb_xy s, gb_xy t, int reps, gb_answer *a, gb_diag *d)
{
    const gb_pair *p = &ex->o->pairs[pi];
    const gb_grid *g = &ex->map.grid;
    int32_t si = gb_grid_id(g, s.x, s.y), ti = gb_grid_id(g, t.x, t.y);
    gb_result r;
    memset(&r, 0, sizeof r);
    if (ex->uprep[pi] == GB_UPREP_FAILED) {   /* refused by its prepare: a limit, not run */
        a->nrep = 1;
        a->rs = GB_LIMIT;
        a->mem = ex->mem[pi];
        ex->times[0] = 0;
        snprintf(a->msg, sizeof a->msg, "%s", ex->prep_why[pi]);
        return 0;
    }
    for (int rep = 0; rep < reps; rep++) {
        int64_t t0 = gb_now_ns();
        int e = gb_solve(ex->ws, &p->spec, queue_of(p), si, ti, &r);
        int64_t t1 = gb_now_ns();
        if (e != 0)
            return gb_diag_set(d, EX_OSERR, "", 0, 0, "expected memory for solver %s, found none",
                               p->spec.name);
        ex->times[rep] = t1 - t0;
    }
    a->nrep = reps;
    a->rs = r.status;
    a->cost = r.cost;
    a->st = r.st;
    a->counters = 1;
    a->mem = ex->mem[pi];
    if (r.status == GB_FOUND) {
        for (int32_t i = 0; i < r.path_len; i++) {
            ex->xy[i].x = gb_grid_x(g, r.path[i]);
            ex->xy[i].y = gb_grid_y(g, r.path[i]);
        }
        a->n = r.path_len;
    }
    return 0;
}

static void builtin_release(gb_exec *ex, int pi) { (void)ex; (void)pi; }   /* the ws goes with the map */
static void builtin_close(gb_exec *ex, int pi) { (void)ex; (void)pi; }

const gb_backend_ops gb_backend_builtin = {
    "inproc", builtin_prepare, builtin_solve, builtin_bytes, builtin_release, builtin_close
};
