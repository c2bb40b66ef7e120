/*
 * gb_run.h -- the runner: every query of every scenario, through every
 * (solver, queue) pair, checked against the Dijkstra oracle, the
 * validator and the scenario's printed length, one CSV row each.
 *
 * The run is three stages (plan -> execute -> sink):
 *   plan     gb_plan.h: every selected query of every scenario, with the
 *            run's fingerprint (options, pairs, SHA-256 of every file);
 *   execute  one query at a time: the oracle, every pair, validation, and
 *            the row status by one classification (classify() in gb_run.c)
 *            over the one status table of gb_status.h;
 *   sink     the rows of each query in plan order into the journal and the
 *            CSV, the totals, the notes and the progress.
 * With --jobs N, N forked worker processes execute queries handed out by
 * the process that sinks; results come back over pipes and are written in
 * plan order, so the CSV is the same as with one process (timing columns
 * aside).  A worker that dies turns its query into `crash` rows and is
 * replaced; the run goes on.
 *
 * Per query the oracle gives the optimum: the oracle cache (gb_ocache.h)
 * when it holds the query and agrees with the scenario's printed length,
 * else Dijkstra on the bucket queue (the fastest exact queue; Dijkstra is
 * exact on every queue, see tests/test_search.c), whose path is validated
 * like any other (an oracle that fails validation is an internal error and
 * stops the run).  Then each pair runs `reps` times (timed with
 * CLOCK_MONOTONIC around gb_solve), its last path is validated and its
 * cost compared with the oracle's under the pair's guarantee.  Per map,
 * each pair's preparation (queues, landmark and jump tables) is done
 * before any query and timed into prep_ns.
 *
 * Row status (column `status`; names and which are failures: gb_status.h),
 * first that applies:
 *   protocol_error, timeout, crash   an external solver (--external)
 *                      misbehaved, or a --jobs worker died (crash)
 *   limit              --max-expanded, --max-ms or --max-mem stopped it
 *   invalid_path       the validator rejected the path (message on stderr)
 *   false_unreachable  solver found no path, Dijkstra found one
 *   suboptimal         the cost breaks the guarantee: != optimum for an
 *                      optimal solver, > bound x optimum for a bounded one
 *   unreachable        neither found a path (and the scenario agrees)
 *   scen_mismatch      the solver is right, but Dijkstra's optimum differs
 *                      from the scenario's printed length by more than the
 *                      printed precision allows
 *   ok
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
#include "gb_status.h"
#include "gb_scen.h"
#include "gb_search.h"
#include "gb_validate.h"

#include "gb_run_opts.h"

/* Per pair, over a run. */
typedef struct gb_run_pairsum {
    char name[64];            /* as in the rows (an external's `ready NAME` included) */
    uint64_t rows, status[GB_ROW_NSTATUS], expanded;
    int64_t time_ns;          /* sum of the rows' time_ns */
    int64_t *ns;              /* the rows' time_ns, in order (medians); gb_run_totals_free */
    size_t nns, capns;
} gb_run_pairsum;

/* Totals over a run. */
typedef struct gb_run_totals {
    uint64_t rows;
    uint64_t queries;
    uint64_t failures;        /* rows whose status is a solver failure */
    uint64_t scen_mismatch;   /* queries whose printed length disagrees */
    uint64_t status[GB_ROW_NSTATUS];  /* rows per status (gb_row_status) */
    uint64_t oracle_hits;     /* queries whose optimum came from the oracle cache */
    uint64_t aa_hits;         /* queries whose any-angle optimum came from its cache */
    uint64_t worker_crashes;  /* --jobs workers that died (their query: crash rows) */
    gb_run_pairsum pair[GB_RUN_MAX_PAIRS];   /* [npairs of the options] */
} gb_run_totals;

/* Does the scenario's printed length q->length agree with the optimum
 * whose step counts are in oc?  Yes when it is within the printed
 * precision q->tol of the true cost, or of straight + 1.414213562 * diag
 * (the sqrt 2 the Moving AI generator used for its 8-decimal files). */
int gb_scen_agrees(const gb_check *oc, const gb_query *q);

/* The CSV header line (no newline); the column list is a public contract. */
const char *gb_run_csv_header(void);

/* Run scenario files scens[0..n): plan (gb_plan.h), execute each query of
 * this shard (in this process, or in opts->jobs worker processes), and
 * sink the rows in plan order into the CSV (through the journal and a
 * rename when opts->out is set), so the output does not depend on how the
 * work was split.  With a shard and opts->out, OUT.shard describes it for
 * gb_merge.  Fills *tot; prints nothing (see note and progress).  Returns 0 when
 * every row is right, 1 when a solver failed, 2 with --strict when only
 * scenario mismatches were found, or a sysexits code for bad input (the
 * message is in *d and no CSV is left at opts->out). */
int gb_run(const gb_run_opts *opts, char *const *scens, int n, gb_run_totals *tot,
           gb_diag *d);

/* Free what gb_run left in *tot (the per-pair time lists); the counts
 * stay.  Call it once after every gb_run, whatever it returned. */
void gb_run_totals_free(gb_run_totals *tot);

/* The median of pair pi's row times, and a 95 % confidence interval for
 * it from order statistics (distribution-free; *lo = *hi = NaN with fewer
 * than 6 rows).  Returns the number of times (0: none known). */
size_t gb_run_pair_median(gb_run_totals *tot, int pi, double *med, double *lo, double *hi);

#endif
