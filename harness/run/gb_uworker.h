/*
 * gb_uworker.h -- one user solver (gb_user.h: a plugin, e.g. a GPPC entry)
 * in a worker process of its own, following a map that changes: the
 * crash isolation of `gridbench gppc-dynamic`.
 *
 * The worker is a forked child holding a copy of the caller's grid as it
 * was at gb_uworker_start.  The caller forwards each patch it writes into
 * its own grid (gb_uworker_patch) and asks for paths (gb_uworker_solve)
 * over a socket pair.  Invariant: at every request the child's grid
 * equals the caller's, provided the caller forwards every patch in order
 * between start and stop.  The child prepares the solver lazily, on the
 * first query; before the first query after patches it calls the
 * solver's change hook with them (gb_user_change), or, for a solver
 * without one (or whose hook fails), release and prepare again on the
 * new map.
 *
 * A worker that dies (a signal, exit) or does not answer within the time
 * limit (killed) costs the query a `crash` or `timeout` answer; the
 * handle is then stopped, and the next gb_uworker_solve starts a fresh
 * worker from the caller's grid as it then is (so no patch is lost).
 * The caller never gets SIGPIPE (MSG_NOSIGNAL); nothing here prints.
 */
#ifndef GB_UWORKER_H
#define GB_UWORKER_H

#include <stdint.h>
#include <sys/types.h>

#include "gb_grid.h"
#include "gb_search.h"
#include "gb_user.h"

typedef struct gb_uworker {
    const gb_user_solver *u;
    gb_model model;
    pid_t pid;               /* the child; 0: none (not started, or stopped) */
    int fd;                  /* the caller's end of the socket pair; -1: none */
    int32_t *cells;          /* [g->ncells] the last path's cell ids */
    int32_t ncells;          /* capacity of cells */
} gb_uworker;

/* What one request came to. */
typedef struct gb_uanswer {
    int fail;                /* gb_ext_status: GB_EXT_PATH (it answered), GB_EXT_CRASH, GB_EXT_TIMEOUT */
    int prep_failed;         /* the solver's prepare returned -1: not run (m.reason may say why) */
    int32_t n;               /* what solve returned (see gb_user_solve_fn) */
    int32_t ncell;           /* cell ids in w->cells: n when 0 < n <= g->ncells, else 0 */
    int64_t wall_ns;         /* the solve call, timed in the child (CLOCK_MONOTONIC) */
    int ready;               /* 0 nothing ran before the solve; 1 prepare; 2 the change hook */
    int64_t ready_ns;        /* that prepare's or change hook's wall time in the child */
    gb_stats st;             /* the solver's counters */
    int have_metrics;        /* gb_user_metrics_get's answer after the solve (1: m is set) */
    gb_user_metrics m;
    char msg[256];           /* crash or timeout: what happened */
} gb_uanswer;

/* An empty handle for user solver u under model m (no process yet). */
void gb_uworker_init(gb_uworker *w, const gb_user_solver *u, gb_model m);

/* Forward patch p, just written into the caller's grid, to a running
 * worker (none: nothing to do, a new worker copies the grid).  p->cell
 * must point to memory that existed, unchanged, when the worker was
 * started (the child reads its own copy of it).  A worker that is gone
 * is stopped quietly; its next query starts a new one. */
void gb_uworker_patch(gb_uworker *w, const gb_user_patch *p);

/* Ask for a path from cell s to cell t of grid g (the caller's grid, the
 * same map the worker follows), waiting at most timeout_ms (<= 0: no
 * limit) for the change hook and again for the solve; a prepare in
 * between has no limit (a GPPC entry's preprocessing may take hours).  Starts the worker first when there is none.  0 with *a
 * filled (a->fail says whether the worker answered), or -1 when no
 * process could be started or no memory had (errno). */
int gb_uworker_solve(gb_uworker *w, const gb_grid *g, int32_t s, int32_t t, int timeout_ms,
                     gb_uanswer *a);

/* End the worker (its solver released in the child) and free the handle's
 * memory.  The handle can be used again (a new worker). */
void gb_uworker_stop(gb_uworker *w);

#endif
