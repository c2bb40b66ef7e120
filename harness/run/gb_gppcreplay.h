/*
 * gb_gppcreplay.h -- replay a GPPC dynamic scenario (gb_gppcdyn.h)
 * through gridbench's solvers: the map starts all passable, patches are
 * written in file order, and every query of a batch is answered by every
 * (solver, queue) pair on the map as it then is.
 *
 * Per query: Dijkstra (bheap) gives the optimum on the current map and
 * the independent validator its exact cost; the file's length must agree
 * within its tolerance ("-1" with no path) or the rows say scen_mismatch
 * (the scenario's fault, never the solver's).  Each pair's path is
 * validated on the current map and judged by gb_judge, so statuses mean
 * what they mean in `gridbench run` (gb_status.h).  A query whose start
 * or goal a patch blocked is not searched: "no path" is the answer, so
 * its rows are unreachable (or scen_mismatch when the file prints a
 * length).
 *
 * One workspace serves every pair and the oracle.  A patch flips cells
 * with gb_grid_set and tells the workspace (gb_ws_cell_changed), which
 * repairs the move masks and drops every per-map table (JPS+ jumps,
 * subgoal graphs, sg-tl-dt's distance table, HPA*'s abstract graph,
 * landmarks); before the first query after a patch each pair's tables
 * are rebuilt by gb_ws_prepare, outside the timed search, and the
 * rebuild's time is the rows' prep_ns.  A search is timed once
 * (CLOCK_MONOTONIC): time_ns = time_cold_ns, reps = 1.
 *
 * User solvers (gb_user.h: --plugin, GPPC entries built by `gppc build`)
 * run in a worker process each (gb_uworker.h), started at their first
 * query and following the map: every patch is forwarded to them, and
 * before the first query after a batch of patches the worker calls the
 * solver's change hook (a GPPC dynamic-track entry's gppc_map_change), or
 * releases and prepares it again when it has none.  A worker that
 * crashes or passes the time limit costs that query a `crash` or
 * `timeout` row; the next query starts a new one on the map as it then
 * is.  A user pair's prep_ns is the time it took to get ready for the
 * map of the query's batch: the change hook (the solver's own measure,
 * GPPC's snapshot_time, when it reports one), or its prepare (a GPPC
 * entry's preprocessing, as in `gridbench run`) when it was (re)prepared.
 *
 * Memory: the grid, one workspace, one path buffer of W x H points, and
 * per user pair a worker process and a path buffer.  No printing, no
 * exit.
 */
#ifndef GB_GPPCREPLAY_H
#define GB_GPPCREPLAY_H

#include <stdint.h>

#include "gb_diag.h"
#include "gb_gppcdyn.h"
#include "gb_rows.h"
#include "gb_search.h"
#include "gb_user.h"

/* One (solver, queue) pair to replay. */
typedef struct gb_gppcrep_pair {
    gb_solver_spec spec;             /* a built-in solver (when user is NULL) */
    gb_queue_kind queue;
    const gb_user_solver *user;      /* a user solver (plugin), or NULL */
    int timeout_ms;                  /* user solvers: the limit per query (<= 0: none) */
} gb_gppcrep_pair;

/* Totals of one replay. */
typedef struct gb_gppcrep_sum {
    long queries;           /* queries answered */
    long patches;           /* patches written */
    int64_t cells_changed;  /* cells whose passability a patch flipped */
    long rows, failed;      /* rows written; of them solver failures */
    long mismatch;          /* queries whose printed length disagrees with Dijkstra */
    int64_t rebuild_ns;     /* per-map table rebuilds after patches, all pairs */
} gb_gppcrep_sum;

/* Takes each row as it is made (query-major, pairs in the order given);
 * msg says why when the row is a failure, or on the first pair's row of
 * a query whose printed length disagrees with Dijkstra ("" otherwise).
 * A nonzero return stops the replay and is returned. */
typedef int (*gb_gppcrep_sink)(void *arg, const gb_row *row, const char *msg);

/* Replay s (loaded with its patches) for pairs p[0..np): at most maxq
 * queries (0: all); map is the rows' map column.  0, the sink's code, or
 * EX_OSERR / EX_USAGE (a pair that cannot run under 8-nocut, GPPC's
 * model) with *d filled.  *sum is filled either way. */
int gb_gppcrep_run(const gb_gppcdyn *s, const char *map, const gb_gppcrep_pair *p, int np,
                   long maxq, gb_gppcrep_sink sink, void *arg, gb_gppcrep_sum *sum, gb_diag *d);

#endif
