/*
 * gb_compare.h -- two per-query CSVs of `gridbench run` (OLD and NEW)
 * paired row by row: which rows changed status, and per map x solver x
 * queue whether NEW is faster, slower or the same, with the intervals
 * and tests of gb_stats.h.  The library part of `gridbench compare`
 * (harness/cli/gb_cmd_compare.c prints, this file computes).
 *
 * Rows and pairs
 *   A row's key is (map, scen, line, solver, queue), where scen is the
 *   file name without its directories (runs made from other folders
 *   still pair).  A row of NEW is paired with the row of OLD that has
 *   its key; a key listed twice in one CSV counts once (the first row).
 *   Rows without a partner are counted per group (old_only, new_only),
 *   never compared.
 *
 * Groups are (map, solver, queue): in the order they first appear in
 *   OLD, then those only in NEW.
 *
 * Figures of a group, over its paired rows only (whatever their status):
 *   time      new/old ratio of the median time_ns, with a paired bootstrap
 *             interval; Mann-Whitney U p-value of the two time samples
 *   expanded  new/old ratio of the mean expansions, the same way
 *   verdict   GB_CMP_SLOWER (ratio > 1) or GB_CMP_FASTER (ratio < 1) only
 *             when the interval excludes 1 AND p < GB_STATS_ALPHA; else
 *             GB_CMP_SAME ("no change": a tie, never a win or a loss);
 *             GB_CMP_NA when there is nothing to compare (no pair, or a
 *             zero old median)
 *
 * Status changes of paired rows: a regression is a row whose OLD status
 *   is no failure and whose NEW status is one (gb_status.h decides what
 *   a failure is), a fix the reverse, anything else another change (ok
 *   -> limit, invalid_path -> suboptimal, ...).
 *
 * Data checks (from the CSVs alone; env.json checksums are the caller's):
 *   the set of (map, scen) of each run, and per pair the model and the
 *   start and goal cells (columns model, start_x, start_y, goal_x,
 *   goal_y, when both CSVs have them).
 */
#ifndef GB_COMPARE_H
#define GB_COMPARE_H

#include <stddef.h>
#include <stdint.h>

#include "gb_diag.h"
#include "gb_stats.h"
#include "gb_status.h"

enum { GB_CMP_FASTER = -1, GB_CMP_SAME = 0, GB_CMP_SLOWER = 1, GB_CMP_NA = 2 };

typedef enum gb_cmp_kind { GB_CMP_REGRESSION, GB_CMP_FIX, GB_CMP_OTHER } gb_cmp_kind;

typedef struct gb_cmp_group {
    const char *map, *solver, *queue;   /* owned by the gb_cmp */
    size_t n;                 /* paired rows */
    size_t old_only, new_only;   /* rows without a partner */
    double old_med, new_med;  /* median time_ns over the paired rows */
    gb_ci time;               /* new/old ratio of the medians */
    double time_p;            /* Mann-Whitney U p-value (1 when n = 0) */
    int time_verdict;         /* GB_CMP_FASTER / SAME / SLOWER / NA */
    double old_exp, new_exp;  /* mean expansions over the paired rows */
    gb_ci exp;                /* new/old ratio of the means */
    double exp_p;
    int exp_verdict;          /* FASTER = fewer, SLOWER = more expansions */
    size_t regressions, fixes, others;   /* status changes */
} gb_cmp_group;

typedef struct gb_cmp_change {
    size_t group;             /* index into groups */
    const char *scen;         /* file name (owned by the gb_cmp) */
    long line;
    gb_row_status old_st, new_st;
    gb_cmp_kind kind;
} gb_cmp_change;

typedef struct gb_cmp gb_cmp;

/* Read OLD and NEW (columns by header name: map, scen, line, solver,
 * queue, status, time_ns, expanded required; model, start_x, start_y,
 * goal_x, goal_y optional) and pair their rows.  0 with *out set, or a
 * sysexits code with *d filled (EX_NOINPUT, EX_DATAERR naming the file
 * and line: a missing column, a bad number or status, no data row;
 * EX_IOERR, EX_OSERR). */
int gb_cmp_load(const char *old_csv, const char *new_csv, gb_cmp **out, gb_diag *d);

/* The rows read, rows paired, keys listed twice (ignored). */
size_t gb_cmp_rows(const gb_cmp *c, int which_new);
size_t gb_cmp_pairs(const gb_cmp *c);
size_t gb_cmp_duplicates(const gb_cmp *c, int which_new);

/* 0 when the CSVs describe the same data as far as they can tell (see
 * "Data checks" above; the set of (map, scen) only when sets is nonzero:
 * a caller that compared checksums knows better); else 1 with a one-line
 * reason in buf ("scenario x.scen (map m) only in NEW", "line 5 of
 * x.scen: start (1, 2) goal ... in OLD, start (1, 3) ... in NEW"). */
int gb_cmp_data_differs(const gb_cmp *c, int sets, char *buf, size_t n);

/* Were two paired rows timed differently (another --regime or --reps, in
 * rows that answered)?  1 with the first such pair described in buf, else
 * 0: their time ratio would measure the timing, not the solvers. */
int gb_cmp_timing_differs(const gb_cmp *c, char *buf, size_t n);

/* Compute every group's figures with bootstrap settings *b.  0, or -1
 * when out of memory (the figures are then incomplete). */
int gb_cmp_compute(gb_cmp *c, const gb_boot *b);

/* The groups (after gb_cmp_compute) and the status changes (regressions
 * first, then fixes, then the others; each in NEW's row order). */
size_t gb_cmp_ngroups(const gb_cmp *c);
const gb_cmp_group *gb_cmp_group_at(const gb_cmp *c, size_t i);
size_t gb_cmp_nchanges(const gb_cmp *c);
const gb_cmp_change *gb_cmp_change_at(const gb_cmp *c, size_t i);

/* "slower", "faster", "no change", "n/a" (expansions: "more", "fewer",
 * ...); CSV spellings with an underscore for "no_change". */
const char *gb_cmp_verdict_name(int verdict, int expansions, int csv);

void gb_cmp_free(gb_cmp *c);

#endif
