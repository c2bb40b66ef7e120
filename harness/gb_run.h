/*
 * gb_run.h -- the runner: every query of every scenario, through every
 * (solver, queue) pair, checked against the Dijkstra oracle, the
 * validator and the scenario's printed length, one CSV row each.
 *
 * Per query the oracle (Dijkstra on the lazy binary heap) runs first; its
 * path is validated like any other (an oracle that fails validation is an
 * internal error and stops the run).  Then each pair runs `reps` times
 * (timed with CLOCK_MONOTONIC around gb_solve), its last path is validated
 * and its cost compared with the oracle's under the pair's guarantee.
 *
 * Row status (column `status`), first that applies:
 *   protocol_error     an external solver (--external) answered out of
 *                      protocol (docs/protocol.md; message on stderr)
 *   timeout            an external solver did not answer in time
 *                      (--external-timeout)
 *   crash              an external solver died or closed a pipe
 *   limit              the solver hit --max-expanded
 *   invalid_path       the validator rejected the path (message on stderr)
 *   false_unreachable  solver found no path, Dijkstra found one
 *   suboptimal         the cost breaks the guarantee: != optimum for an
 *                      optimal solver, > bound x optimum for a bounded one
 *   unreachable        neither found a path (and the scenario agrees)
 *   scen_mismatch      the solver is right, but Dijkstra's optimum differs
 *                      from the scenario's printed length by more than the
 *                      printed precision allows
 *   ok
 * protocol_error, timeout, crash, invalid_path, false_unreachable and
 * suboptimal are solver failures: the run's exit status is then 1.
 *
 * External solvers (--external CMD) run as child processes through
 * gb_external.h, one per pair, started at the first map and sent each new
 * map; their time is the wall time from request to answer; they report no
 * cost, so the cost checked is the validator's recomputation from the
 * path (gb_ext_path_cost) and optimality is judged, as for every solver,
 * on the (straight, diagonal) step counts against Dijkstra's.
 *
 * A query whose start or goal lies on a cell the movement model calls
 * blocked (24 queries of the Warcraft III file do) is the scenario's
 * fault, not a solver's: a warning names file:line:col, the solvers are
 * not run, and every pair gets a scen_mismatch row with empty costs.  A
 * query outside the map or a map of the wrong size is bad input and stops
 * the run.
 */
#ifndef GB_RUN_H
#define GB_RUN_H

#include <stdint.h>
#include <stdio.h>

#include "gb_diag.h"
#include "gb_scen.h"
#include "gb_search.h"
#include "gb_validate.h"

#define GB_RUN_MAX_PAIRS 256

/* One (solver, queue) pair to run. */
struct gb_user_solver;

typedef struct gb_pair {
    gb_solver_spec spec;
    int queue;          /* gb_queue_kind, or -1 for solvers without a queue (bfs) */
    const struct gb_user_solver *user;  /* a registered user solver (gb_user.h), or NULL */
    const char *ext_cmd;  /* --external: shell command of an external solver, or NULL */
    int ext_named;        /* 1: spec.name is from --external-name (not replaced by `ready NAME`) */
} gb_pair;

/* The queue column of a pair's rows: a queue name, "fifo" (bfs) or "none"
 * (user and external solvers). */
const char *gb_pair_queue_name(const gb_pair *p);

typedef struct gb_run_opts {
    gb_pair pairs[GB_RUN_MAX_PAIRS];
    int npairs;
    gb_model model;
    const char *map_override;  /* --map: use this map for every scenario */
    const char *out;           /* CSV path, or NULL for stdout */
    int reps;                  /* timed repetitions per pair and query (>= 1) */
    int strict;                /* scenario mismatches make the exit status 2 */
    int progress;              /* 1 = progress on stderr */
    uint64_t max_expanded;     /* per query, 0 = none */
    uint64_t max_ms;           /* per query wall time, 0 = none */
    uint64_t max_mem;          /* per query: bytes of the solver's workspace (gb_ws_bytes),
                                  or of an external solver's resident memory; 0 = none */
    long first, count;         /* query subset: skip `first`, run `count` (0 = all) */
    long sample;               /* > 0: of those, about `sample` evenly spaced ones */
    int resume;                /* 1: continue the journal <out>.partial (gb_journal.h) */
    int ext_ms;                /* external solvers: limit per answer and per map, ms
                                  (0 = GB_EXT_DEFAULT_MS) */
} gb_run_opts;

/* Row statuses; new ones are only ever appended (summaries index by them). */
typedef enum gb_row_status {
    GB_ROW_OK = 0, GB_ROW_UNREACHABLE, GB_ROW_INVALID, GB_ROW_SUBOPTIMAL,
    GB_ROW_SCEN_MISMATCH, GB_ROW_FALSE_UNREACHABLE, GB_ROW_LIMIT,
    GB_ROW_PROTOCOL, GB_ROW_TIMEOUT, GB_ROW_CRASH, GB_ROW_NSTATUS
} gb_row_status;

/* Nonzero for the statuses that are solver failures. */
int gb_row_status_failed(gb_row_status s);

/* Totals over a run. */
typedef struct gb_run_totals {
    uint64_t rows;
    uint64_t queries;
    uint64_t failures;        /* rows whose status is a solver failure */
    uint64_t scen_mismatch;   /* queries whose printed length disagrees */
    uint64_t status[GB_ROW_NSTATUS];  /* rows per status (gb_row_status) */
} gb_run_totals;

const char *gb_row_status_name(gb_row_status s);

/* Does the scenario's printed length q->length agree with the optimum
 * whose step counts are in oc?  Yes when it is within the printed
 * precision q->tol of the true cost, or of straight + 1.414213562 * diag
 * (the sqrt 2 the Moving AI generator used for its 8-decimal files). */
int gb_scen_agrees(const gb_check *oc, const gb_query *q);

/* The CSV header line (no newline); the column list is a public contract. */
const char *gb_run_csv_header(void);

/* Run scenario files scens[0..n).  Writes the CSV (temp file + rename
 * when opts->out is set), a summary on stderr, fills *tot.  Returns 0 when
 * every row is right, 1 when a solver failed, 2 with --strict when only
 * scenario mismatches were found, or a sysexits code for bad input (the
 * message is in *d and no CSV is left at opts->out). */
int gb_run(const gb_run_opts *opts, char *const *scens, int n, gb_run_totals *tot,
           gb_diag *d);

#endif
