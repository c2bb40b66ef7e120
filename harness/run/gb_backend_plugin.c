/*
 * gb_backend_plugin.c -- user solvers (gb_user.h: a registered function or
 * a plugin's shared library) behind gb_backend_ops.
 *
 * A plugin pair always runs in a worker process (gb_run.c), so one that
 * crashes costs rows, not the run.  While it runs, the worker publishes
 * the pair index in shared memory (ex->inflight); when the worker dies
 * there, the parent hands the query out again with the pair on its skip
 * list, and solve then answers `crash` without running it (ex->skip).
 * A pair skipped at map load is prepared when it next runs.
 *
 * The cost of a user path is the sum of its steps (1 or sqrt 2 by
 * shape), or for a GPPC any-angle solver (GB_USER_AA_GPPC) the sum of
 * its segments' Euclidean lengths; an illegal step is the validator's to
 * report.  The cost is always the harness's, never the solver's.
 *
 * A plugin that reports its own measures (gb_plugin_metrics, gb_user.h;
 * GPPC entries built by `gridbench gppc build` do) is read right after
 * each prepare and each solve: per map, its offline preprocessing time
 * becomes prep_ns (kept also when the index was reused), and its online
 * setup and storage go to prepare_ns and storage_bytes; per query, the
 * time of its own calls (GetPath) replaces the runner's, with calls,
 * first20_ns and max_call_ns, and time_source says who measured.  A path
 * the plugin refused (a bent GPPC segment) is `invalid_path` with the
 * plugin's reason.
 */
#include "gb_exec.h"

#include <string.h>
#include <sys/wait.h>

#include "gb_anyangle.h"
#include "gb_user.h"

static uint64_t plugin_bytes(const gb_exec *ex, int pi, const gb_grid *g)
{
    (void)ex; (void)pi; (void)g;
    return 0;   /* not known */
}

/* Read the plugin's own figures of the prepare just done: GB_PREP_SET
 * when it measured its preprocessing (ex->prep[pi] set), else 0. */
static int map_metrics(gb_exec *ex, int pi)
{
    gb_user_metrics m;
    ex->storage[pi] = ex->prepare_ns[pi] = 0;
    ex->prep_why[pi][0] = '\0';
    if (gb_user_metrics_get(ex->o->pairs[pi].user, &m) != 1) return 0;
    if (m.have & GB_UM_ERROR) snprintf(ex->prep_why[pi], sizeof ex->prep_why[pi], "%s", m.reason);
    if (!(m.have & GB_UM_MAP)) return 0;
    ex->storage[pi] = m.storage_bytes;
    ex->prepare_ns[pi] = m.prepare_ns ? m.prepare_ns : 1;
    ex->prep[pi] = m.preprocess_ns;
    return GB_PREP_SET;
}

static int plugin_prepare(gb_exec *ex, int pi, gb_diag *d)
{
    (void)d;
    if (ex->skip[pi]) return GB_PREP_NONE;   /* it crashed this query before: prepared when run */
    if (ex->inflight) *ex->inflight = pi;
    ex->uprep[pi] = gb_user_prepare(ex->o->pairs[pi].user, &ex->map.grid, ex->o->model) == 0
                        ? GB_UPREP_DONE : GB_UPREP_FAILED;
    if (ex->inflight) *ex->inflight = -1;
    return map_metrics(ex, pi);
}

/* Run user solver u once from cell s to t; the path (cell ids) goes to
 * ex->upath.  What the solver returned: < 0 an internal error. */
static int32_t run_once(gb_exec *ex, const gb_user_solver *u, int32_t s, int32_t t, gb_answer *a)
{
    const gb_grid *g = &ex->map.grid;
    memset(&a->st, 0, sizeof a->st);
    int32_t n = u->solve(u->ctx, g, ex->o->model, s, t, ex->upath, g->ncells, &a->st);
    a->n = 0;
    if (n == 0) { a->rs = GB_UNREACHABLE; return n; }
    a->rs = GB_FOUND;
    if (n < 0 || n > g->ncells) return n;   /* crash, or an invalid (empty) path */
    a->n = n;
    return n;
}

/* Read the plugin's own figures of the solve just done (rep rep, which
 * returned n): its time replaces the runner's in ex->times[rep]. */
static void query_metrics(gb_exec *ex, int pi, int rep, int32_t n, gb_answer *a)
{
    gb_user_metrics m;
    a->msg[0] = '\0';
    if (gb_user_metrics_get(ex->o->pairs[pi].user, &m) != 1) return;
    if (m.have & GB_UM_QUERY) {
        ex->times[rep] = (int64_t)m.total_ns;
        a->calls = (int)m.calls;
        a->first20_ns = (int64_t)m.first20_ns;
        a->max_call_ns = (int64_t)m.max_call_ns;
        snprintf(ex->tsrc[pi], sizeof ex->tsrc[pi], "%s", m.time_source[0] ? m.time_source : "plugin");
    }
    if (m.have & GB_UM_SEGMENT)
        snprintf(a->msg, sizeof a->msg, "segment %lld: %s", (long long)m.bad_segment, m.reason);
    else if ((m.have & GB_UM_ERROR) && n < 0)
        snprintf(a->msg, sizeof a->msg, "%s", m.reason);
}

static int plugin_solve(gb_exec *ex, int pi, gb_xy s, gb_xy t, int reps, gb_answer *a, gb_diag *d)
{
    (void)d;
    const gb_pair *p = &ex->o->pairs[pi];
    const gb_grid *g = &ex->map.grid;
    if (!ex->skip[pi] && ex->uprep[pi] == GB_UPREP_NONE) {
        /* skipped when the map was loaded (it crashed that query): prepare it now */
        if (ex->inflight) *ex->inflight = pi;
        int64_t t0 = gb_now_ns();
        ex->uprep[pi] = gb_user_prepare(p->user, g, ex->o->model) == 0 ? GB_UPREP_DONE : GB_UPREP_FAILED;
        int64_t dt = gb_now_ns() - t0;
        ex->prep[pi] = dt > 0 ? (uint64_t)dt : 1;
        if (ex->inflight) *ex->inflight = -1;
        map_metrics(ex, pi);
    }
    a->nrep = 1;
    ex->times[0] = 0;
    if (ex->skip[pi]) {
        a->fail = GB_EXT_CRASH;   /* it killed the worker on this query: not run again */
        char how[96];   /* a signal; a sanitizer's report exits with a status instead */
        if (WIFSIGNALED(ex->skip_ws))
            snprintf(how, sizeof how, "signal %d: %s", WTERMSIG(ex->skip_ws),
                     strsignal(WTERMSIG(ex->skip_ws)));
        else
            snprintf(how, sizeof how, "exit status %d", WEXITSTATUS(ex->skip_ws));
        snprintf(a->msg, sizeof a->msg, "the user solver crashed the worker process running it "
                 "(%s); not run again on this query", how);
        return 0;
    }
    if (ex->uprep[pi] == GB_UPREP_FAILED) {
        a->fail = GB_EXT_CRASH;   /* not run: its per-map preparation failed */
        snprintf(a->msg, sizeof a->msg, "the user solver's prepare hook failed on this map "
                 "(returned -1)%s%s", ex->prep_why[pi][0] ? ": " : "", ex->prep_why[pi]);
        return 0;
    }
    int32_t si = gb_grid_id(g, s.x, s.y), ti = gb_grid_id(g, t.x, t.y), n = 0;
    if (ex->inflight) *ex->inflight = pi;   /* a crash now is this pair's */
    for (int rep = 0; rep < reps; rep++) {
        int64_t t0 = gb_now_ns();
        n = run_once(ex, p->user, si, ti, a);
        ex->times[rep] = gb_now_ns() - t0;
        query_metrics(ex, pi, rep, n, a);
        if (n < 0 && a->fail == GB_EXT_PATH) {
            a->fail = GB_EXT_CRASH;   /* the solver says it failed */
            char why[sizeof a->msg];
            memcpy(why, a->msg, sizeof why);
            snprintf(a->msg, sizeof a->msg, "the user solver reported an internal error "
                     "(returned a negative length)%s%.150s", why[0] ? ": " : "", why);
        }
    }
    if (ex->inflight) *ex->inflight = -1;
    a->nrep = reps;
    a->counters = 1;
    double c = 0.0;
    const int aa = (p->user->optimal & GB_USER_AA_GPPC) != 0; /* corners, straight segments */
    for (int32_t i = 0; i < a->n; i++) {
        ex->xy[i].x = gb_grid_x(g, ex->upath[i]);
        ex->xy[i].y = gb_grid_y(g, ex->upath[i]);
        if (i > 0)
            c += aa ? gb_anyangle_dist(ex->xy[i - 1], ex->xy[i])
                 : ex->xy[i].x != ex->xy[i - 1].x && ex->xy[i].y != ex->xy[i - 1].y ? GB_SQRT2
                                                                                    : 1.0;
    }
    a->cost = c;
    return 0;
}

static void plugin_release(gb_exec *ex, int pi)
{
    if (ex->uprep[pi] == GB_UPREP_DONE) gb_user_release(ex->o->pairs[pi].user);
    ex->uprep[pi] = GB_UPREP_NONE;
}

static void plugin_close(gb_exec *ex, int pi) { (void)ex; (void)pi; }

const gb_backend_ops gb_backend_plugin = {
    "plugin", plugin_prepare, plugin_solve, plugin_bytes, plugin_release, plugin_close
};
