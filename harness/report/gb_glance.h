/*
 * gb_glance.h -- the answers at a glance: what the first screen of a
 * report says, computed from a run folder's summary.csv and queries.csv
 * (and heuristics-verdicts.csv when present).
 *
 *   correctness  every row counted by status; failures by solver; the
 *                queries whose scenario length disagrees with Dijkstra
 *   winners      per map and per class of maps: the fastest optimal
 *                solver x queue (median time per query), the runner-up (the
 *                fastest pair of another solver), the ratio of their median
 *                times with a paired 95 % bootstrap interval, and the fastest
 *                once each solver's preprocessing is spread over the map's
 *                queries (mean + prep / n, summary.csv's prep_amortised_ns)
 *   queues       over every (map, solver) that ran on two or more queues:
 *                how often each queue was the fastest and the slowest (clearly:
 *                the paired 95 % interval of the median-time ratio to the next
 *                queue, on the same queries, excludes 1; else a tie), its geometric-mean
 *                median-time ratio to the reference queue, and whether the
 *                expansions were the same on every queue
 *   heuristics   per heuristic over the run's maps: admissible and
 *                consistent on all of them, mean informedness (h / h*)
 *
 * Candidates for "fastest optimal": rows of guarantee `optimal`, timed in
 * process (time_source inproc), with no failure and every query of the map.
 * A map's class is the Moving AI family in its name (maze, random, room)
 * when it has one, else the folder of its scenario (dao, street, ...).
 * Outliers: a pair whose mean time exceeds its 95th percentile has most of
 * its time in a few queries; `outlier` marks it wherever it is shown.
 */
#ifndef GB_GLANCE_H
#define GB_GLANCE_H

#include <stddef.h>

#include "gb_diag.h"
#include "gb_status.h"

typedef struct gb_glance_pair {
    char solver[64], queue[32];
    double med, med_lo, med_hi; /* median time per query, ns, and its interval */
    double mean, p95, prep;     /* ns; prep NaN when it has none */
    double amort;               /* mean + prep / n, ns */
    int outlier;                /* mean > p95 */
} gb_glance_pair;

typedef struct gb_glance_row { /* one map, or one class of maps */
    char name[160];            /* the map, or the class */
    char cls[64];              /* the class */
    int maps;                  /* 1 for a map row */
    size_t queries;            /* per map: its queries; per class: their sum */
    int have_win, have_run, have_amort;
    gb_glance_pair win, run, amort;
    double ratio, ratio_lo, ratio_hi; /* runner-up / winner (median times); per class the
                                           geometric mean over its maps, stratified bootstrap */
} gb_glance_row;

typedef struct gb_glance_fail {
    char solver[64];
    size_t rows, failed;
    size_t by_status[GB_ROW_NSTATUS];
} gb_glance_fail;

typedef struct gb_glance_queue {
    char queue[32];
    size_t groups;           /* (map, solver) groups it ran in */
    size_t fastest, slowest; /* clear of the next queue by the intervals */
    double gm_ratio;         /* geometric mean of median / the reference's median */
} gb_glance_queue;

typedef struct gb_glance_heur {
    char name[64];                                     /* "octile", "diff:k=8", "octile:w=1.5" */
    int maps, admissible, consistent, registry_agrees; /* counts of maps */
    double info_mean;                                  /* mean over maps of mean h / h* */
} gb_glance_heur;

typedef struct gb_glance {
    size_t rows, failed, queries, scen_mismatch; /* scen_mismatch: queries */
    size_t by_status[GB_ROW_NSTATUS];
    gb_glance_fail *fail; /* solvers with a failure */
    size_t nfail;
    gb_glance_row *map, *cls;
    size_t nmap, ncls;
    char ref_queue[32];
    size_t qgroups, qties_fast; /* (map, solver) groups on >= 2 queues; of them, no clear fastest */
    int same_expansions;        /* 1 when every group expanded alike on every queue */
    gb_glance_queue *q;         /* by gm_ratio, fastest first */
    size_t nq;
    char qsolvers_fast[256]; /* solvers for which q[0] is the fastest on every map */
    gb_glance_heur *heur;
    size_t nheur;
} gb_glance;

/* Read DIR/summary.csv, DIR/queries.csv and (if present)
 * DIR/heuristics-verdicts.csv.  0, or a sysexits code with *d filled
 * (file:line).  Free with gb_glance_free (also after a failure). */
int gb_glance_build(const char *dir, gb_glance *g, gb_diag *d);
void gb_glance_free(gb_glance *g);

/* The class of a map from its name and its scenario's path (see above). */
void gb_glance_class_of(const char *map, const char *scen, char *out, size_t n);

#endif
