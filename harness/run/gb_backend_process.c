/*
 * gb_backend_process.c -- external solvers (--external CMD, the line
 * protocol of docs/protocol.md and gb_external.h) behind gb_backend_ops.
 *
 * One child process per pair, started at the first map and sent each new
 * map (prepare, timed into prep_ns); a child that cannot start answers
 * `crash` for its queries while the others run.  solve sends the query
 * `reps` times, stopping at the first answer that is not a path or "no
 * path"; the time of an answer is the wall time from request to answer.
 * The child reports no cost: the cost is its path's geometry
 * (gb_ext_path_cost), and optimality is judged on the validator's step
 * counts like every solver's.
 */
#include "gb_exec.h"

#include <string.h>

static uint64_t process_bytes(const gb_exec *ex, int pi, const gb_grid *g)
{
    (void)ex; (void)pi; (void)g;
    return 0;   /* known only once it runs (its resident memory) */
}

static int process_prepare(gb_exec *ex, int pi, gb_diag *d)
{
    const gb_run_opts *o = ex->o;
    const gb_pair *p = &o->pairs[pi];
    gb_diag ed;
    if (ex->ext[pi]) {
        if (gb_ext_set_map(ex->ext[pi], &ex->map, o->model, &ed) != 0)
            gb_exec_note(ex, GB_NOTE_WARNING, "%s: warning: %s", ex->pname[pi], ed.msg);
        return 0;
    }
    ex->ext[pi] = gb_ext_open_keep(p->ext_cmd, &ex->map, o->model, o->ext_ms, o->ext_start_ms, &ed);
    if (!ex->ext[pi]) { *d = ed; return ed.code; }   /* out of memory */
    if (ed.code)   /* it did not start: its queries answer crash, the others run */
        gb_exec_note(ex, GB_NOTE_WARNING, "%s: warning: expected the external solver to start, "
                     "found: %s; its rows are crash rows while it cannot start", ex->pname[pi], ed.msg);
    gb_ext_set_max_mem(ex->ext[pi], o->max_mem);
    if (!p->ext_named && gb_ext_name(ex->ext[pi])[0])
        snprintf(ex->pname[pi], sizeof ex->pname[pi], "external:%s", gb_ext_name(ex->ext[pi]));
    return 0;
}

static int process_solve(gb_exec *ex, int pi, gb_xy s, gb_xy t, int reps, gb_answer *a, gb_diag *d)
{
    (void)d;
    gb_ext *e = ex->ext[pi];
    gb_ext_answer ea;
    ea.msg[0] = '\0';
    gb_ext_status es = GB_EXT_CRASH;
    int self_ok = 1;
    a->nrep = 0;
    for (int rep = 0; rep < reps; rep++) {
        es = gb_ext_query(e, ++ex->ext_id, s, t, &ea);
        ex->times[a->nrep] = ea.wall_ns;
        ex->self[a->nrep] = ea.self_ns;
        if (ea.self_ns < 0) self_ok = 0;
        a->nrep++;
        if (es != GB_EXT_PATH && es != GB_EXT_NOPATH) break;
    }
    a->fail = es == GB_EXT_NOPATH ? GB_EXT_PATH : es;
    a->rs = es == GB_EXT_PATH ? GB_FOUND : GB_UNREACHABLE;
    snprintf(a->msg, sizeof a->msg, "%s", ea.msg);
    if (es == GB_EXT_PATH) {
        memcpy(ex->xy, ea.path, ea.n * sizeof *ex->xy);   /* n <= npassable + 1 < ncells */
        a->n = (int32_t)ea.n;
        a->cost = gb_ext_path_cost(ea.path, ea.n);         /* the child reports no cost */
    }
    a->counters = es == GB_EXT_PATH || es == GB_EXT_NOPATH;
    a->mem = gb_ext_resident(e);
    a->self_ns = self_ok && a->nrep > 0 ? gb_median_i64(ex->self, a->nrep) : -1;
    return 0;
}

static void process_release(gb_exec *ex, int pi) { (void)ex; (void)pi; }   /* kept for the next map */

static void process_close(gb_exec *ex, int pi)
{
    gb_diag ed;
    if (ex->ext[pi] && gb_ext_close(ex->ext[pi], &ed) != 0 && ex->notes_f)
        gb_exec_note(ex, GB_NOTE_WARNING, "%s: warning: %s", ex->pname[pi], ed.msg);
    ex->ext[pi] = NULL;
}

const gb_backend_ops gb_backend_process = {
    "process", process_prepare, process_solve, process_bytes, process_release, process_close
};
