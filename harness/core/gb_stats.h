/*
 * gb_stats.h -- the statistics behind every "faster", "slower" and "tie"
 * that gridbench prints: seeded bootstrap confidence intervals and the
 * Mann-Whitney U test.  No I/O; every function is deterministic.
 *
 * Random numbers
 *   splitmix64 (Steele, Lea & Flood, OOPSLA 2014): a 64-bit state, one
 *   addition and three xor-shift-multiplies per number.  Every bootstrap
 *   call seeds its own stream from gb_boot.seed, so an interval depends
 *   on its data, the seed and the number of resamples only -- never on
 *   what was computed before it (a summary row does not change when
 *   another map is added to the run).
 *
 * Bootstrap (percentile method, Efron & Tibshirani 1993, ch. 13)
 *   B resamples of the n indices, drawn uniformly with replacement; the
 *   statistic on each resample; the interval is the type-7 quantiles
 *   (gb_quantile) (1 - level)/2 and (1 + level)/2 of the B values (NaN
 *   values, a ratio 0/0, left out).  A ratio stat(num)/stat(den) is
 *   PAIRED: each resample takes the same indices from both arrays, so a
 *   query keeps its partner (queries differ in size far more than two
 *   runs of one query differ in noise).  Statistics: the type-7 median
 *   (mean of the two middle values when n is even) and the mean.
 *   The point estimate is the statistic of the full sample, not of the
 *   resamples.
 *
 * Mann-Whitney U (Mann & Whitney 1947; the test benchstat uses)
 *   Two-sided test of "x and y come from the same distribution" against
 *   "one tends to be larger".  U = R_x - n_x (n_x + 1) / 2, with R_x the
 *   sum of the ranks of x in the pooled sample (ties get their mean
 *   rank).  p is exact (the distribution of U counted by the recurrence
 *   f(i, j, u) = f(i-1, j, u-j) + f(i, j-1, u)) when there are no ties
 *   and n_x, n_y <= GB_MWU_EXACT_MAX; otherwise from the normal
 *   approximation with the tie correction of the variance and a 0.5
 *   continuity correction.  The samples are treated as independent
 *   (paired data only makes the test conservative).
 */
#ifndef GB_STATS_H
#define GB_STATS_H

#include <stddef.h>
#include <stdint.h>

#define GB_BOOT_RESAMPLES 1000   /* default B */
#define GB_BOOT_SEED 1           /* default seed */
#define GB_BOOT_LEVEL 0.95       /* default confidence level */
#define GB_STATS_ALPHA 0.05      /* significance level of the verdicts */
#define GB_MWU_EXACT_MAX 20      /* exact p up to this size per sample */

/* Q(p) of sorted[0..n): Hyndman & Fan type 7 (gb_summary.h states it);
 * NaN when n == 0. */
double gb_quantile(const double *sorted, size_t n, double p);

/* The next number of the splitmix64 stream in *state. */
uint64_t gb_rng_next(uint64_t *state);

/* A uniform integer in [0, n) (n >= 1), without modulo bias. */
uint64_t gb_rng_below(uint64_t *state, uint64_t n);

typedef enum gb_stat { GB_STAT_MEDIAN, GB_STAT_MEAN } gb_stat;

typedef struct gb_boot {
    int resamples;     /* B >= 1 */
    uint64_t seed;     /* splitmix64 seed of each call's stream */
    double level;      /* confidence level, in (0, 1) */
} gb_boot;

/* The defaults above: B = 1000, seed 1, 95 %. */
void gb_boot_default(gb_boot *b);

/* An estimate and its interval; all NaN when undefined. */
typedef struct gb_ci {
    double est, lo, hi;
} gb_ci;

/* Bootstrap interval of stat over x[0..n).  0 with *out set (NaN when n
 * is 0), or -1 when out of memory (*out all NaN).  x is not modified. */
int gb_boot_stat(const double *x, size_t n, gb_stat stat, const gb_boot *b, gb_ci *out);

/* Paired bootstrap interval of stat(num) / stat(den) over the pairs
 * (num[i], den[i]), i < n.  The estimate is NaN when stat(den) is 0 or
 * n is 0.  0, or -1 when out of memory (*out all NaN). */
int gb_boot_ratio(const double *num, const double *den, size_t n, gb_stat stat, const gb_boot *b,
                  gb_ci *out);

/* The geometric mean over strata j < m (maps) of the median ratio
 * median(num) / median(den) over stratum j's pairs, which lie at
 * [off[j], off[j+1]); a stratum with no pair is left out but keeps its
 * place j.  The interval is a stratified paired percentile bootstrap:
 * each of b->resamples resamples redraws every stratum's pairs with
 * replacement -- stratum j from its own stream, seeded b->seed + j + 1,
 * so that one stratum's draws do not depend on the others -- and takes
 * the geometric mean again (a resample with a median ratio that is not
 * positive is left out).  Medians: the mean of the two middle values
 * when n is even.  The estimate is NaN when no stratum has a pair or one
 * has a ratio that is not positive.  ratio (NULL to skip) gets each
 * stratum's own ratio (NaN when it has no pair), *used the strata with
 * pairs (NULL to skip).  0, or -1 when out of memory (*out all NaN). */
int gb_boot_strat_ratio(const double *num, const double *den, const size_t *off, size_t m,
                        const gb_boot *b, gb_ci *out, double *ratio, size_t *used);

/* Nonzero when the intervals [a.lo, a.hi] and [b.lo, b.hi] share a
 * point, or either is undefined (NaN): then the two figures are a tie. */
int gb_ci_overlap(const gb_ci *a, const gb_ci *b);

/* Nonzero when v lies in [c.lo, c.hi], or the interval is undefined. */
int gb_ci_contains(const gb_ci *c, double v);

/* Two-sided Mann-Whitney U test of x[0..nx) against y[0..ny): *p in
 * [0, 1] (1 when either sample is empty or every value is equal), *u the
 * U of x (NULL to skip).  0, or -1 when out of memory (*p = NaN). */
int gb_mwu(const double *x, size_t nx, const double *y, size_t ny, double *u, double *p);

#endif
