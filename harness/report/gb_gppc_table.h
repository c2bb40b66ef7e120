/*
 * gb_gppc_table.h -- the figures GPPC publishes per entry, one row per
 * entry (map set, solver) of a run as GPPC has it: total query time, time to the first
 * 20 steps, the longest single call, preprocessing time and storage,
 * peak memory, suboptimality, and which rows are undominated.
 *
 * An entry is a solver, not a solver x queue: its row is the solver on
 * its fastest failure-free queue (named in `queue`), or, when a queue
 * failed, on the queue with the most failures, so that a failure always
 * shows.  Preprocessing belongs to the solver's index, which every queue
 * shares (prep_ns is the same on each), so it cannot tell queues apart.
 *
 * Definitions (docs/gppc.md shows them beside GPPC's own):
 *   set          the folder of the scenario file (dao, street, ...)
 *   total_s      sum of time_ns over the set's queries, with the 95 %
 *                bootstrap interval of n x the mean (gb_stats.h)
 *   first20_s    sum of first20_ns (GPPC's "20 steps" time)
 *   max_call_ms  the longest single call of any query (max_call_ns)
 *   prep_s       sum over the set's maps of that map's prep_ns (GPPC's
 *                preprocessing), storage_mb likewise of storage_bytes
 *   peak_mem_mb  the largest mem_bytes of any query (empty when not known:
 *                plugins do not report it; such a measure is left out of
 *                the comparison of two rows)
 *   suboptimal   queries whose path cost exceeds the optimum (subopt > 1
 *                by more than 1e-9), subopt_max the worst ratio
 *   undominated  1 when no other entry of the same set, regime and kind of
 *                clock (in-process: inproc, plugin, gppc) is at least as
 *                good in all four of total time, peak memory,
 *                preprocessing time and worst suboptimality and better in
 *                one (GPPC's Pareto front); rows timed over a pipe
 *                (process) or with a failure are never compared: "-".
 * Rows come sorted by set, then total time.  The regimes are never mixed
 * in one row (a run has one; merged inputs with two are kept apart).
 */
#ifndef GB_GPPC_TABLE_H
#define GB_GPPC_TABLE_H

#include <stddef.h>
#include <stdio.h>

#include "gb_diag.h"
#include "gb_stats.h"

typedef struct gb_gtab_row {
    char set[128], solver[64], queue[32], time_source[16], regime[16];
    size_t queries, solved, failed, suboptimal;
    double total_s, total_lo, total_hi;    /* NaN interval when it cannot be computed */
    double first20_s;                      /* NaN: the run has no first20_ns */
    double max_call_ms;                    /* NaN: no max_call_ns */
    double prep_s, storage_mb, peak_mem_mb;
    double subopt_max;                     /* 1 when every path was optimal; NaN: none judged */
    int undominated;                       /* 1, 0, or -1 when not compared */
} gb_gtab_row;

typedef struct gb_gtab {
    gb_gtab_row *row;
    size_t n;
} gb_gtab;

/* Build the table from the per-query CSV at path (`gridbench run`'s
 * columns, read by name; older CSVs without the GPPC columns give NaN
 * there).  0, or a sysexits code with *d filled (file:line: expected,
 * found).  Free with gb_gtab_free. */
int gb_gtab_build(const char *path, const gb_boot *b, gb_gtab *t, gb_diag *d);

void gb_gtab_free(gb_gtab *t);

/* Write the table as CSV (header first) to f. */
void gb_gtab_write_csv(const gb_gtab *t, FILE *f);

#endif
