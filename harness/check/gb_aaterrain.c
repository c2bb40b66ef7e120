/*
 * gb_aaterrain.c -- weighted any-angle paths: the line-integral validator
 * and the line-integral grid's Dijkstra (gb_aaterrain.h holds the rule
 * and the bounds).
 *
 * Segment cost: cut, sort, look up -- not a walk.  The solver
 * (solvers/gb_los.h, gb_los_cost) walks the cells crossing by crossing
 * and adds double parameter spans.  Here, with nx' = max(|dx|, 1) and
 * ny' = max(|dy|, 1), the parameter is scaled to T = t * 2 nx' ny', an
 * integer at every crossing: the segment crosses the i-th vertical grid
 * line at T = (2i + 1) ny' (i < |dx|) and the j-th horizontal one at
 * T = (2j + 1) nx' (j < |dy|), and ends at T = 2 nx' ny'.  All these
 * values, with 0, are collected in a buffer, sorted (qsort) and
 * deduplicated (a lattice corner is a vertical and a horizontal crossing
 * at one T); each piece [T_k, T_k+1] then lies inside one cell, the one
 * holding its midpoint, found by exact integer floors:
 *     4 nx' ny' X(mid) = (2 x0 + 1) 2 nx' ny' + dx (T_k + T_k+1),
 * likewise for Y.  The sum of (T_k+1 - T_k) q(cell) is an exact integer
 * (below 2 nx' ny' qmax < 2^63 for any map below 2^20 cells a side), and
 * the cost is that sum times |ab| / (2 nx' ny' den): two roundings.
 *
 * Dijkstra (d_L): struct-of-arrays A[], B[] (the exact pair of each
 * cell's tentative cost, units of 1/(2 den)), a stamp per cell (gen: seen,
 * gen + 1: done; reset by bumping gen), and a binary heap of (A, B, id)
 * entries with lazy deletion.  Pairs are compared exactly:
 * A1 + B1 sqrt2 < A2 + B2 sqrt2 iff p < q sqrt2 with p = A1 - A2,
 * q = B2 - B1, decided by signs and then p^2 against 2 q^2 in unsigned
 * 128-bit integers (|p|, |q| < 2^62).  Ties go to the smaller id, so the
 * answer is deterministic.  The neighbours are re-derived from pass[]:
 * a straight step needs its target passable, a diagonal one its target
 * and both corner cells (8-nocut).
 *
 * Time complexity: a segment O(m log m), m = |dx| + |dy|; a Dijkstra
 * O(V log V) for V the passable cells.
 */
#include "gb_aaterrain.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gb_alloc.h"
#include "gb_anyangle.h"

/* ---- segments ---------------------------------------------------------- */

static int cmp_i64(const void *a, const void *b)
{
    const int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* floor(n / d) for d > 0 */
static int64_t floor_div(int64_t n, int64_t d)
{
    int64_t q = n / d;
    return q * d > n ? q - 1 : q;
}

int gb_aaterrain_segment(const gb_grid *g, gb_xy a, gb_xy b, double *cost, int64_t *pieces)
{
    const int64_t dx = (int64_t)b.x - a.x, dy = (int64_t)b.y - a.y;
    const int64_t nx = dx < 0 ? -dx : dx, ny = dy < 0 ? -dy : dy;
    const int64_t px = nx ? nx : 1, py = ny ? ny : 1, end = 2 * px * py;
    const size_t m = (size_t)(nx + ny + 2);
    int64_t *T = gb_malloc(m * sizeof *T);
    if (!T) {
        errno = ENOMEM;
        return -1;
    }
    size_t k = 0;
    T[k++] = 0;
    for (int64_t i = 0; i < nx; i++) T[k++] = (2 * i + 1) * py;
    for (int64_t j = 0; j < ny; j++) T[k++] = (2 * j + 1) * px;
    T[k++] = end;
    qsort(T, k, sizeof *T, cmp_i64);
    size_t u = 1;
    for (size_t i = 1; i < k; i++)
        if (T[i] != T[u - 1]) T[u++] = T[i];
    const int64_t D4 = 2 * end; /* 4 nx' ny' */
    int64_t acc = 0;
    for (size_t i = 0; i + 1 < u; i++) {
        const int64_t mid2 = T[i] + T[i + 1];
        const int64_t cx = floor_div((2 * (int64_t)a.x + 1) * end + dx * mid2, D4);
        const int64_t cy = floor_div((2 * (int64_t)a.y + 1) * end + dy * mid2, D4);
        acc += (T[i + 1] - T[i]) * (int64_t)g->cost[gb_grid_id(g, (int32_t)cx, (int32_t)cy)];
    }
    gb_free(T);
    if (pieces) *pieces = (int64_t)(u - 1);
    const double len = sqrt((double)dx * (double)dx + (double)dy * (double)dy);
    *cost = (double)acc * len / ((double)end * ((double)g->cscale / 4.0));
    return 0;
}

double gb_aaterrain_cmin(const gb_grid *g) { return (double)g->qmin / ((double)g->cscale / 4.0); }

/* ---- paths ------------------------------------------------------------- */

int gb_validate_aaterrain(const gb_grid *g, gb_xy start, gb_xy goal, const gb_xy *path, size_t n,
                          double reported_cost, gb_check *out)
{
    if (!gb_anyangle_legal(g, start, goal, path, n, out)) return 0;
    double cost = 0.0;
    int64_t pieces = 0;
    for (size_t i = 0; i + 1 < n; i++) {
        const gb_xy a = path[i], b = path[i + 1];
        double c;
        int64_t p;
        if (gb_aaterrain_segment(g, a, b, &c, &p) != 0)
            return gb_check_fail(out, (int64_t)i, "segment %zu: expected memory to cost it, found none",
                                 i);
        cost += c;
        pieces += p;
    }
    out->cost = cost;
    out->tol = 8.0 * ((double)pieces + (double)n + 2.0) * DBL_EPSILON
               * ((double)g->qmax / (double)g->qmin) * (cost > 1.0 ? cost : 1.0);
    if (!(fabs(reported_cost - cost) <= out->tol))
        return gb_check_fail(out, -1,
                             "expected the reported cost to equal the path's line-integral cost "
                             "%.10g (tolerance %.3g), found %.10g",
                             cost, out->tol, reported_cost);
    out->ok = 1;
    return 1;
}

/* ---- the line-integral grid's Dijkstra ---------------------------------- */

typedef struct hent {
    int64_t a, b; /* the exact cost A + B sqrt2 */
    int32_t id;
} hent;

struct gb_aaterrain {
    const gb_grid *g;
    int64_t *A, *B;  /* per cell id: tentative exact cost */
    uint32_t *stamp; /* gen: seen (A, B valid), gen + 1: done */
    uint32_t gen;
    hent *heap; /* binary heap, lazy deletion */
    size_t n, cap;
};

/* -1, 0, 1 as a1 + b1 sqrt2 <, ==, > a2 + b2 sqrt2 (exact). */
static int cmp_ab(int64_t a1, int64_t b1, int64_t a2, int64_t b2)
{
    const int64_t p = a1 - a2, q = b2 - b1; /* compare p with q sqrt2 */
    if (p == 0 && q == 0) return 0;
    if (p >= 0 && q <= 0) return 1;
    if (p <= 0 && q >= 0) return -1;
    const uint64_t ap = (uint64_t)(p < 0 ? -p : p), aq = (uint64_t)(q < 0 ? -q : q);
    const unsigned __int128 pp = (unsigned __int128)ap * ap, qq = 2 * (unsigned __int128)aq * aq;
    const int bigger = pp > qq; /* |p| > |q| sqrt2; never equal, sqrt2 is irrational */
    return p > 0 ? (bigger ? 1 : -1) : (bigger ? -1 : 1);
}

static int before(const hent *x, const hent *y)
{
    const int c = cmp_ab(x->a, x->b, y->a, y->b);
    return c < 0 || (c == 0 && x->id < y->id);
}

static int heap_push(gb_aaterrain *d, hent e)
{
    if (d->n == d->cap) {
        size_t nc = d->cap ? 2 * d->cap : 1024;
        hent *h = gb_realloc(d->heap, nc * sizeof *h);
        if (!h) return -1;
        d->heap = h;
        d->cap = nc;
    }
    size_t i = d->n++;
    while (i > 0 && before(&e, &d->heap[(i - 1) / 2])) {
        d->heap[i] = d->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    d->heap[i] = e;
    return 0;
}

static hent heap_pop(gb_aaterrain *d)
{
    hent top = d->heap[0], last = d->heap[--d->n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= d->n) break;
        if (c + 1 < d->n && before(&d->heap[c + 1], &d->heap[c])) c++;
        if (!before(&d->heap[c], &last)) break;
        d->heap[i] = d->heap[c];
        i = c;
    }
    if (d->n) d->heap[i] = last;
    return top;
}

gb_aaterrain *gb_aaterrain_new(const gb_grid *g)
{
    gb_aaterrain *d = gb_calloc(1, sizeof *d);
    if (!d) return NULL;
    d->g = g;
    d->A = gb_malloc((size_t)g->ncells * sizeof *d->A);
    d->B = gb_malloc((size_t)g->ncells * sizeof *d->B);
    d->stamp = gb_calloc((size_t)g->ncells, sizeof *d->stamp);
    if (!d->A || !d->B || !d->stamp) {
        gb_aaterrain_free(d);
        errno = ENOMEM;
        return NULL;
    }
    d->gen = 1;
    return d;
}

uint64_t gb_aaterrain_bytes(int64_t ncells)
{
    return sizeof(gb_aaterrain) + (uint64_t)ncells * (2 * sizeof(int64_t) + sizeof(uint32_t));
}

void gb_aaterrain_free(gb_aaterrain *d)
{
    if (!d) return;
    gb_free(d->A);
    gb_free(d->B);
    gb_free(d->stamp);
    gb_free(d->heap);
    gb_free(d);
}

int gb_aaterrain_grid_opt(gb_aaterrain *d, gb_xy s, gb_xy t, gb_check *out)
{
    const gb_grid *g = d->g;
    const uint8_t *pass = g->pass;
    const uint16_t *q = g->cost;
    const int32_t W = g->stride;
    memset(out, 0, sizeof *out);
    out->bad_step = -1;
    out->scale = 2 * (g->cscale / 4);
    if (d->gen >= UINT32_MAX - 2) { /* wrap: clear the stamps */
        memset(d->stamp, 0, (size_t)g->ncells * sizeof *d->stamp);
        d->gen = 1;
    }
    d->gen += 2;
    const uint32_t seen = d->gen, done = d->gen + 1;
    const int32_t src = gb_grid_id(g, s.x, s.y), dst = gb_grid_id(g, t.x, t.y);
    d->n = 0;
    d->A[src] = d->B[src] = 0;
    d->stamp[src] = seen;
    if (heap_push(d, (hent){ 0, 0, src }) != 0) return -1;
    /* the eight neighbours: dx, dy */
    static const int ddx[8] = { 0, 1, 0, -1, 1, 1, -1, -1 };
    static const int ddy[8] = { -1, 0, 1, 0, -1, 1, 1, -1 };
    while (d->n) {
        const hent e = heap_pop(d);
        const int32_t u = e.id;
        if (d->stamp[u] == done || e.a != d->A[u] || e.b != d->B[u]) continue;
        d->stamp[u] = done;
        if (u == dst) {
            out->ok = 1;
            out->straight = e.a;
            out->diag = e.b;
            const double den2 = (double)out->scale;
            out->cost = ((double)e.a + (double)e.b * sqrt(2.0)) / den2;
            out->tol = 4.0 * DBL_EPSILON * (out->cost > 1.0 ? out->cost : 1.0);
            return 1;
        }
        for (int k = 0; k < 8; k++) {
            const int32_t v = u + ddy[k] * W + ddx[k];
            if (!pass[v]) continue; /* the padded border is blocked */
            if (k >= 4 && (!pass[u + ddx[k]] || !pass[u + ddy[k] * W])) continue;
            if (d->stamp[v] == done) continue;
            const int64_t w = (int64_t)q[u] + q[v];
            const int64_t na = e.a + (k < 4 ? w : 0), nb = e.b + (k < 4 ? 0 : w);
            if (d->stamp[v] == seen && cmp_ab(na, nb, d->A[v], d->B[v]) >= 0) continue;
            d->stamp[v] = seen;
            d->A[v] = na;
            d->B[v] = nb;
            if (heap_push(d, (hent){ na, nb, v }) != 0) return -1;
        }
    }
    return 0;
}
