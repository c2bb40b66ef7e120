/*
 * gb_summary.h -- statistics over a per-query CSV of `gridbench run`:
 * one summary row per map x solver x queue, and the data files the
 * gnuplot scripts in plots/ read.
 *
 * Groups and queries
 *   A group is (map, solver, queue); groups are listed map by map in the
 *   order their maps first appear in the input, and inside a map in the
 *   order their (solver, queue) pair first appears (the run's order).
 *   A query is (map, scen, line).  Every row's timing counts, whatever
 *   its status.
 *
 * Percentiles (gb_quantile): linear interpolation between closest ranks,
 * Hyndman & Fan type 7 (R's default, numpy's "linear"): for the n sorted
 * values x[0..n) and p in [0, 1], h = (n - 1) p and
 *     Q(p) = x[floor h] + (h - floor h) (x[floor h + 1] - x[floor h]),
 * so Q(0) = min, Q(1) = max, Q(0.5) is the usual median (mean of the two
 * middle values when n is even).  IQR = Q(0.75) - Q(0.25).
 *
 * Speedup of a group: the baseline is solver "dijkstra" on queue "bheap"
 * (the oracle's configuration).  Over the queries both the group and the
 * baseline ran (speedup_n of them),
 *     speedup = Q(0.5) of the baseline's time_ns / Q(0.5) of the group's,
 * so > 1 means faster than Dijkstra.  Empty when the run has no baseline,
 * and when the group's time_source differs from the baseline's (or is
 * "mixed"): a process round trip (external solver) or a plugin call is
 * timed another way than an in-process search, so the two are never
 * divided into a speedup; the time_source column says which figures are
 * which.  speedup.tsv leaves such solvers out for the same reason.
 *
 * Preprocessing: prep_ns_max is the largest per-map preparation of the
 * group's rows (one map per group); prep_amortised_ns = time_mean_ns +
 * prep_ns_max / n spreads it over the group's queries.
 * lb_ratio_mean (the last column) is the mean over the group's rows of
 * run's lb_ratio = cost / straight-line distance start-goal: how far
 * paths are from the Euclidean lower bound (any-angle paths come close);
 * empty when no row has one (older CSVs).
 * speedup_astar is the same ratio against solver "astar-octile" on
 * "bheap": the speed-up over A* that a suboptimal solver (hpa) trades
 * against its subopt_mean; empty without that pair (or another source).
 *
 * Intervals (gb_stats.h): time_median_lo_ns / _hi_ns bound the median
 * time with a bootstrap over the group's rows; speedup_lo / _hi bound the
 * speedup with a paired bootstrap over the queries shared with the
 * baseline (each resample takes the same queries from both).  Percentile
 * method, 95 %, 1000 resamples, splitmix64 seed 1 unless
 * gb_summary_load_with says otherwise; each interval has its own stream,
 * so it depends only on its own rows.  Two figures whose intervals
 * overlap are a tie.
 *
 * Suboptimality: subopt_mean / subopt_max over the rows whose subopt
 * column is set, only for groups whose guarantee is not "optimal" (empty
 * otherwise: optimality is checked row by row by the runner, see status).
 *
 * Reference queue (plot data only): "bheap" when any row uses it, else the
 * first queue in the input.  Per-solver plots show each solver on the
 * reference queue, or on its first queue when it never ran on that one
 * (bfs runs only on "fifo").
 */
#ifndef GB_SUMMARY_H
#define GB_SUMMARY_H

#include <stddef.h>

#include "gb_diag.h"
#include "gb_stats.h"

/* gb_quantile(sorted, n, p), Q(p) as defined above, lives in gb_stats.h. */

/* The summary CSV header line (no newline); the column list is a public
 * contract, like the runner's. */
const char *gb_summary_csv_header(void);

typedef struct gb_summary gb_summary;

/* Read the per-query CSV at path (columns found by header name: map,
 * scen, line, bucket, solver, queue, guarantee, status, dijkstra_cost,
 * subopt, expanded, time_ns, time_cold_ns; mem_bytes when present, for
 * the column mem_bytes_max; others ignored) and compute
 * every group.  Returns 0 with *out set, or a sysexits code with *d
 * filled: EX_NOINPUT, EX_DATAERR (path:line: a missing column, a field
 * that is not a number, an unknown status, no data row), EX_IOERR,
 * EX_OSERR. */
int gb_summary_load(const char *path, gb_summary **out, gb_diag *d);

/* gb_summary_load with the interval settings *boot instead of the
 * defaults (gb_boot_default). */
int gb_summary_load_with(const char *path, const gb_boot *boot, gb_summary **out, gb_diag *d);

/* Number of groups (rows of the summary CSV) and input rows. */
size_t gb_summary_ngroups(const gb_summary *s);
size_t gb_summary_nrows(const gb_summary *s);

/* Group i (< gb_summary_ngroups) in the summary CSV's order: its names
 * (valid while s lives) and its median time with the interval, in ns (NaN
 * when not defined). */
typedef struct gb_summary_group {
    const char *map, *solver, *queue, *guarantee;
    double med, med_lo, med_hi;
} gb_summary_group;
void gb_summary_group_at(const gb_summary *s, size_t i, gb_summary_group *out);

/* Write the summary CSV to path (temp file + rename), or to stdout when
 * path is NULL.  0, or EX_CANTCREAT / EX_IOERR with *d filled. */
int gb_summary_write_csv(const gb_summary *s, const char *path, gb_diag *d);

/* Write the plot data files into the existing directory dir, each through
 * a temp file + rename (tab-separated, gnuplot blocks separated by two
 * blank lines, each block's first line naming it for `columnheader(1)`):
 *   meta.tsv          key<TAB>value: ref_queue, baseline (0/1), maps,
 *                     solvers, queues (counts), then one "solver NAME"
 *                     and one "queue NAME" line per solver and queue
 *   maps.tsv          '#' header; idx, map, slug (file-name-safe), first
 *                     scen file, queries
 *   bucket-SLUG.tsv   per map, one block per solver: bucket, n,
 *                     len_mean (mean dijkstra_cost), time median / p25 /
 *                     p75 in microseconds, expanded mean / median
 *   speedup.tsv       one block per map: solver index, solver, n, and
 *                     Q(.05) Q(.25) Q(.5) Q(.75) Q(.95) of the per-query
 *                     speedup baseline time / solver time (empty file when
 *                     the run has no baseline or no other solver)
 *   queues.tsv        header row: solver, then the queues used by solvers
 *                     that ran on more than one queue; one row per such
 *                     solver: the median over its queries of time(queue) /
 *                     time(reference queue) (NaN: not run); empty file
 *                     when no solver ran on two queues
 *   cactus.tsv        one block per solver: rank, time in microseconds,
 *                     sorted, over the rows that solved their query (ok,
 *                     unreachable, scen_mismatch); at most ~2000 points
 *                     per block (evenly spaced ranks, the last kept)
 * (`gridbench summary --plot-data` then adds the faceted plots' files of
 * gb_facets.h, derived from these.)
 * Returns 0, or EX_CANTCREAT / EX_IOERR with *d filled. */
int gb_summary_write_plot_data(const gb_summary *s, const char *dir, gb_diag *d);

void gb_summary_free(gb_summary *s);

#endif
