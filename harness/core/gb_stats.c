/*
 * gb_stats.c -- bootstrap intervals and the Mann-Whitney U test (see
 * gb_stats.h for the methods and their references).
 *
 * Resampled medians without sorting
 *   A resample is a multiset of the n sorted values: cnt[r] copies of the
 *   value of rank r.  Before the loop each value gets its rank once (one
 *   sort); each resample then only counts ranks (n draws) and walks the
 *   counts up to the middle one(s), so a resample costs O(n), not
 *   O(n log n).  The median found this way is exactly gb_quantile(.., 0.5)
 *   of the sorted resample.
 *
 * Time complexity: O(n log n + B n) per interval (B resamples); the
 * exact U distribution O(n_x^2 n_y^2) <= 20^4 steps in two layers of
 * (n_y + 1) (n_x n_y + 1) doubles; the normal approximation O(N log N).
 */
#include "gb_stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gb_alloc.h"

double gb_quantile(const double *x, size_t n, double p)
{
    if (n == 0) return NAN;
    if (p <= 0) return x[0];
    if (p >= 1) return x[n - 1];
    double h = (double)(n - 1) * p;
    size_t lo = (size_t)floor(h);
    if (lo + 1 >= n) return x[n - 1];
    return x[lo] + (h - (double)lo) * (x[lo + 1] - x[lo]);
}

uint64_t gb_rng_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

uint64_t gb_rng_below(uint64_t *state, uint64_t n)
{
    /* reject the top UINT64_MAX % n (+1) values: the rest split evenly */
    uint64_t limit = UINT64_MAX - (UINT64_MAX % n + 1) % n;
    uint64_t r;
    do r = gb_rng_next(state);
    while (r > limit);
    return r % n;
}

void gb_boot_default(gb_boot *b)
{
    b->resamples = GB_BOOT_RESAMPLES;
    b->seed = GB_BOOT_SEED;
    b->level = GB_BOOT_LEVEL;
}

int gb_ci_overlap(const gb_ci *a, const gb_ci *b)
{
    if (isnan(a->lo) || isnan(a->hi) || isnan(b->lo) || isnan(b->hi)) return 1;
    return a->lo <= b->hi && b->lo <= a->hi;
}

int gb_ci_contains(const gb_ci *c, double v)
{
    if (isnan(c->lo) || isnan(c->hi)) return 1;
    return c->lo <= v && v <= c->hi;
}

static int cmp_dbl(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* ---- ranks and resampled statistics ------------------------------------ */

typedef struct vi {
    double v;
    size_t i;
} vi;

static int cmp_vi(const void *a, const void *b)
{
    const vi *x = a, *y = b;
    if (x->v != y->v) return (x->v > y->v) - (x->v < y->v);
    return (x->i > y->i) - (x->i < y->i);
}

/* One sample prepared for resampling: its values in rank order and the
 * rank of each index. */
typedef struct prep {
    double *sorted;    /* n values, ascending */
    size_t *rank;      /* rank[i]: position of x[i] in sorted */
    uint32_t *cnt;     /* per rank: copies in the current resample */
} prep;

static void prep_free(prep *p)
{
    gb_free(p->sorted);
    gb_free(p->rank);
    gb_free(p->cnt);
}

static int prep_init(prep *p, const double *x, size_t n)
{
    memset(p, 0, sizeof *p);
    vi *t = gb_malloc(n * sizeof *t);
    p->sorted = gb_malloc(n * sizeof *p->sorted);
    p->rank = gb_malloc(n * sizeof *p->rank);
    p->cnt = gb_malloc(n * sizeof *p->cnt);
    if (!t || !p->sorted || !p->rank || !p->cnt) {
        gb_free(t);
        prep_free(p);
        return -1;
    }
    for (size_t i = 0; i < n; i++) t[i].v = x[i], t[i].i = i;
    qsort(t, n, sizeof *t, cmp_vi);
    for (size_t r = 0; r < n; r++) {
        p->sorted[r] = t[r].v;
        p->rank[t[r].i] = r;
    }
    gb_free(t);
    return 0;
}

/* Median of the resample held in p->cnt (n values in all). */
static double cnt_median(const prep *p, size_t n)
{
    size_t k1 = (n - 1) / 2, k2 = n / 2;   /* 0-based middle ranks */
    double v1 = NAN;
    size_t cum = 0;
    for (size_t r = 0; r < n; r++) {
        if (!p->cnt[r]) continue;
        size_t next = cum + p->cnt[r];
        if (isnan(v1) && k1 < next) v1 = p->sorted[r];
        if (k2 < next) return (v1 + p->sorted[r]) / 2;
        cum = next;
    }
    return v1;
}

static double full_stat(const prep *p, const double *x, size_t n, gb_stat stat)
{
    if (stat == GB_STAT_MEDIAN) return gb_quantile(p->sorted, n, 0.5);
    double s = 0;
    for (size_t i = 0; i < n; i++) s += x[i];
    return s / (double)n;
}

/* The interval of stat(num) [/ stat(den)] (den NULL: no ratio). */
static int boot(const double *num, const double *den, size_t n, gb_stat stat, const gb_boot *b, gb_ci *out)
{
    out->est = out->lo = out->hi = NAN;
    if (n == 0) return 0;
    prep pn, pd;
    memset(&pd, 0, sizeof pd);
    if (prep_init(&pn, num, n) != 0) return -1;
    if (den && prep_init(&pd, den, n) != 0) { prep_free(&pn); return -1; }
    int B = b->resamples > 0 ? b->resamples : 1;
    double *vals = gb_malloc((size_t)B * sizeof *vals);
    if (!vals) { prep_free(&pn); prep_free(&pd); return -1; }

    double en = full_stat(&pn, num, n, stat), ed = den ? full_stat(&pd, den, n, stat) : 1.0;
    out->est = ed != 0 ? en / ed : NAN;
    uint64_t st = b->seed;
    size_t m = 0;
    for (int k = 0; k < B; k++) {
        double sn = 0, sd = 0;
        if (stat == GB_STAT_MEDIAN) {
            memset(pn.cnt, 0, n * sizeof *pn.cnt);
            if (den) memset(pd.cnt, 0, n * sizeof *pd.cnt);
            for (size_t i = 0; i < n; i++) {
                size_t j = (size_t)gb_rng_below(&st, n);
                pn.cnt[pn.rank[j]]++;
                if (den) pd.cnt[pd.rank[j]]++;
            }
            sn = cnt_median(&pn, n);
            sd = den ? cnt_median(&pd, n) : 1.0;
        } else {
            for (size_t i = 0; i < n; i++) {
                size_t j = (size_t)gb_rng_below(&st, n);
                sn += num[j];
                if (den) sd += den[j];
            }
            sn /= (double)n;
            sd = den ? sd / (double)n : 1.0;
        }
        double v = sd != 0 ? sn / sd : (sn != 0 ? copysign(INFINITY, sn) : NAN);
        if (!isnan(v)) vals[m++] = v;
    }
    if (m && !isnan(out->est)) {
        qsort(vals, m, sizeof *vals, cmp_dbl);
        out->lo = gb_quantile(vals, m, (1 - b->level) / 2);
        out->hi = gb_quantile(vals, m, (1 + b->level) / 2);
    }
    gb_free(vals);
    prep_free(&pn);
    prep_free(&pd);
    return 0;
}

int gb_boot_stat(const double *x, size_t n, gb_stat stat, const gb_boot *b, gb_ci *out)
{
    return boot(x, NULL, n, stat, b, out);
}

int gb_boot_ratio(const double *num, const double *den, size_t n, gb_stat stat, const gb_boot *b,
                  gb_ci *out)
{
    return boot(num, den, n, stat, b, out);
}

/* ---- stratified ratios ------------------------------------------------- */

/* The k-th smallest of a[0..n) (0-based), a reordered (Hoare's select). */
static double select_kth(double *a, size_t n, size_t k)
{
    size_t lo = 0, hi = n - 1;
    while (lo < hi) {
        double piv = a[lo + (hi - lo) / 2];
        size_t i = lo, j = hi;
        while (i <= j) {
            while (a[i] < piv) i++;
            while (a[j] > piv) j--;
            if (i <= j) {
                double t = a[i];
                a[i] = a[j];
                a[j] = t;
                i++;
                if (j == 0) break;
                j--;
            }
        }
        if (k <= j) hi = j;
        else if (k >= i) lo = i;
        else return a[k];
    }
    return a[k];
}

/* The median of a[0..n) (n >= 1), a reordered. */
static double median_sel(double *a, size_t n)
{
    double m = select_kth(a, n, (n - 1) / 2);
    if (n % 2) return m;
    double next = a[n / 2]; /* the smallest of the upper part */
    for (size_t i = n / 2 + 1; i < n; i++)
        if (a[i] < next) next = a[i];
    return (m + next) / 2;
}

int gb_boot_strat_ratio(const double *num, const double *den, const size_t *off, size_t m,
                        const gb_boot *b, gb_ci *out, double *ratio, size_t *used)
{
    out->est = out->lo = out->hi = NAN;
    const int B = b->resamples > 0 ? b->resamples : 1;
    size_t nmax = 0, nused = 0;
    for (size_t j = 0; j < m; j++) {
        if (off[j + 1] - off[j] > nmax) nmax = off[j + 1] - off[j];
        if (ratio) ratio[j] = NAN;
    }
    double *ca = gb_malloc(2 * (nmax ? nmax : 1) * sizeof *ca),
           *logs = gb_calloc((size_t)B, sizeof *logs);
    if (!ca || !logs) {
        gb_free(ca);
        gb_free(logs);
        if (used) *used = 0;
        return -1;
    }
    double *cb = ca + (nmax ? nmax : 1), lsum = 0;
    int undefined = 0;
    for (size_t j = 0; j < m; j++) {
        const size_t n = off[j + 1] - off[j];
        const double *a = num + off[j], *d = den + off[j];
        if (!n) continue;
        memcpy(ca, a, n * sizeof *ca);
        memcpy(cb, d, n * sizeof *cb);
        double ma = median_sel(ca, n), mb = median_sel(cb, n);
        double sp = mb > 0 ? ma / mb : NAN;
        nused++;
        if (ratio) ratio[j] = sp;
        if (!(sp > 0)) undefined = 1;
        else lsum += log(sp);
        uint64_t st = b->seed + j + 1;
        for (int k = 0; k < B; k++) {
            for (size_t i = 0; i < n; i++) {
                size_t u = (size_t)gb_rng_below(&st, n);
                ca[i] = a[u];
                cb[i] = d[u];
            }
            double ra = median_sel(ca, n), rb = median_sel(cb, n);
            logs[k] += ra > 0 && rb > 0 ? log(ra / rb) : NAN;
        }
    }
    if (used) *used = nused;
    if (nused && !undefined) {
        out->est = exp(lsum / (double)nused);
        size_t nv = 0;
        for (int k = 0; k < B; k++)
            if (!isnan(logs[k])) logs[nv++] = exp(logs[k] / (double)nused);
        qsort(logs, nv, sizeof *logs, cmp_dbl);
        out->lo = gb_quantile(logs, nv, (1 - b->level) / 2);
        out->hi = gb_quantile(logs, nv, (1 + b->level) / 2);
    }
    gb_free(ca);
    gb_free(logs);
    return 0;
}

/* ---- Mann-Whitney U ---------------------------------------------------- */

/* P(U <= u) and P(U >= u) under H0 for sizes (nx, ny), no ties, from the
 * counts f(i, j, v) of orderings (recurrence in gb_stats.h); layers over
 * i, each (ny + 1) x (nx ny + 1).  -1 when out of memory. */
static int mwu_exact(size_t nx, size_t ny, double u, double *le, double *ge)
{
    size_t W = nx * ny + 1;
    double *prev = gb_calloc((ny + 1) * W, sizeof *prev), *cur = gb_calloc((ny + 1) * W, sizeof *cur);
    if (!prev || !cur) { gb_free(prev); gb_free(cur); return -1; }
    for (size_t j = 0; j <= ny; j++) prev[j * W] = 1;   /* i = 0: U = 0 */
    for (size_t i = 1; i <= nx; i++) {
        memset(cur, 0, (ny + 1) * W * sizeof *cur);
        cur[0] = 1;   /* j = 0 */
        for (size_t j = 1; j <= ny; j++)
            for (size_t v = 0; v <= i * j; v++)
                cur[j * W + v] = (v >= j ? prev[j * W + v - j] : 0) + cur[(j - 1) * W + v];
        double *t = prev;
        prev = cur;
        cur = t;
    }
    double total = 0, lo = 0, hi = 0;
    for (size_t v = 0; v < W; v++) {
        double f = prev[ny * W + v];
        total += f;
        if ((double)v <= u) lo += f;
        if ((double)v >= u) hi += f;
    }
    *le = lo / total;
    *ge = hi / total;
    gb_free(prev);
    gb_free(cur);
    return 0;
}

int gb_mwu(const double *x, size_t nx, const double *y, size_t ny, double *u, double *p)
{
    *p = 1;
    if (u) *u = NAN;
    if (nx == 0 || ny == 0) return 0;
    size_t N = nx + ny;
    vi *t = gb_malloc(N * sizeof *t);
    if (!t) { *p = NAN; return -1; }
    for (size_t i = 0; i < nx; i++) t[i].v = x[i], t[i].i = i;
    for (size_t i = 0; i < ny; i++) t[nx + i].v = y[i], t[nx + i].i = nx + i;
    qsort(t, N, sizeof *t, cmp_vi);
    double rx = 0, ties = 0;   /* rank sum of x; sum of t^3 - t over tie groups */
    for (size_t a = 0; a < N;) {
        size_t e = a;
        while (e < N && t[e].v == t[a].v) e++;
        double r = (double)(a + 1 + e) / 2;   /* mean of ranks a+1 .. e */
        for (size_t k = a; k < e; k++)
            if (t[k].i < nx) rx += r;
        double g = (double)(e - a);
        ties += g * g * g - g;
        a = e;
    }
    gb_free(t);
    double fx = (double)nx, fy = (double)ny, fN = (double)N;
    double U = rx - fx * (fx + 1) / 2;
    if (u) *u = U;
    if (ties == 0 && nx <= GB_MWU_EXACT_MAX && ny <= GB_MWU_EXACT_MAX) {
        double le, ge;
        if (mwu_exact(nx, ny, U, &le, &ge) != 0) { *p = NAN; return -1; }
        double q = 2 * (le < ge ? le : ge);
        *p = q > 1 ? 1 : q;
        return 0;
    }
    double mu = fx * fy / 2;
    double var = fx * fy / 12 * ((fN + 1) - ties / (fN * (fN - 1)));
    if (var <= 0) return 0;   /* every value equal */
    double z = (fabs(U - mu) - 0.5) / sqrt(var);
    if (z < 0) z = 0;
    *p = erfc(z / sqrt(2.0));
    if (*p > 1) *p = 1;
    return 0;
}
