/*
 * gb_exact.h -- exact path costs: the cost a + b*sqrt2 of a path with a
 * straight and b diagonal steps as one 64-bit integer key whose order is
 * provably the real order.
 *
 * The key
 *     D(a, b) = a*S + b*T,   S = 3166815962, T = 4478554083,
 * with T/S the Pell convergent of sqrt2: T^2 - 2 S^2 = 1.  Domain: integers
 * a, b >= 0 with a + b <= GB_EXACT_MAX_STEPS = 2^31.
 *
 * D is additive -- D(a1 + a2, b1 + b2) = D(a1, b1) + D(a2, b2) -- so a
 * straight step adds S and a diagonal step adds T, and g + h of the
 * octile family is one integer addition.  No rounding happens anywhere:
 * every operation is on integers below 2^64.
 *
 * Claim (order preservation).  For (a1, b1), (a2, b2) in the domain,
 *     a1 + b1*sqrt2 <  a2 + b2*sqrt2   implies   D(a1, b1) <  D(a2, b2),
 *     a1 + b1*sqrt2 == a2 + b2*sqrt2   iff       (a1, b1) == (a2, b2)
 *                                      iff       D(a1, b1) == D(a2, b2).
 * So comparing keys is comparing real costs, ties included.
 * Proof.  Let p = a2 - a1, q = b2 - b1, x = p + q*sqrt2 (the real
 * difference) and e = T - S*sqrt2 = 1/(T + S*sqrt2) (from T^2 - 2S^2 = 1),
 * so 0 < e < 1/(2*sqrt2*S).  Then
 *     D2 - D1 = S p + T q = S x + q e.
 *   - x == 0: sqrt2 is irrational, so p = q = 0 and D2 - D1 = 0; and
 *     conversely D2 == D1 with (p, q) != 0 would make S p = -T q, and
 *     since gcd(S, T) = 1 (T^2 - 2S^2 = 1), S | q, so q = 0 or
 *     |q| >= S > 2^31, impossible (then p = 0 too).
 *   - x > 0, q == 0: D2 - D1 = S p with p = x > 0.
 *   - x > 0, q != 0: p^2 - 2q^2 is a nonzero integer, so
 *         x = |p^2 - 2 q^2| / |p - q sqrt2| >= 1 / (|p| + sqrt2 |q|),
 *     and D2 - D1 >= S x - |q| e > 0 as soon as
 *         S (T + S sqrt2) > |q| (|p| + sqrt2 |q|).
 *     With |p|, |q| <= M = 2^31 the right side is at most
 *     (1 + sqrt2) M^2 < 1.12e19 and the left side is 2.84e19.      QED
 * No overflow: D(a, b) <= T (a + b) <= T * 2^31 < 9.62e18 < 2^64.
 * Map-size limit: a search uses exact keys only when the padded grid has
 * at most GB_EXACT_MAX_CELLS = 2^29 cells: then a path has a + b < 2^29
 * steps, every exact heuristic (octile, manhattan, chebyshev) has
 * a + b <= dx + dy < 2^29 + 2, so every f = g + h has a + b < 2^31: in
 * the domain.  Bigger grids keep the double keys.
 *
 * Decoding (for the reported cost): b = (D mod S) * T^-1 mod S, which is b
 * itself since D = b T (mod S) and 0 <= b < S; then a = (D - b T) / S.
 * T^-1 mod S = 1311738121 (the previous Pell denominator).
 *
 * Tests (tests/test_exact.c): exhaustive over a, b <= 200 (every pair
 * of keys compared against the exact comparison through squares),
 * random pairs over the whole domain and near-ties of the Pell
 * convergents at its edge, additivity, and decoding.
 */
#ifndef GB_EXACT_H
#define GB_EXACT_H

#include <stdint.h>

#include "gb_grid.h"

#define GB_EXACT_S ((uint64_t)3166815962u)   /* key of a straight step */
#define GB_EXACT_T ((uint64_t)4478554083u)   /* key of a diagonal step */
#define GB_EXACT_TINV ((uint64_t)1311738121u) /* T^-1 mod S */
#define GB_EXACT_MAX_STEPS ((int64_t)1 << 31)
#define GB_EXACT_MAX_CELLS ((int64_t)1 << 29)

/* D(a, b) for a, b >= 0, a + b <= GB_EXACT_MAX_STEPS. */
static inline uint64_t gb_exact_key(int64_t a, int64_t b)
{
    return (uint64_t)a * GB_EXACT_S + (uint64_t)b * GB_EXACT_T;
}

/* The diagonal count b of a key D(a, b) of the domain. */
static inline int64_t gb_exact_diag(uint64_t d)
{
    return (int64_t)(((d % GB_EXACT_S) * GB_EXACT_TINV) % GB_EXACT_S);
}

/* The straight count a of a key D(a, b) of the domain. */
static inline int64_t gb_exact_straight(uint64_t d)
{
    return (int64_t)((d - (uint64_t)gb_exact_diag(d) * GB_EXACT_T) / GB_EXACT_S);
}

/* The real cost of a key as a double: a + b*GB_SQRT2, the same expression
 * as the validator's gb_check_cost, so equal step counts give equal bits. */
static inline double gb_exact_cost(uint64_t d)
{
    int64_t b = gb_exact_diag(d);
    int64_t a = (int64_t)((d - (uint64_t)b * GB_EXACT_T) / GB_EXACT_S);
    return (double)a + (double)b * GB_SQRT2;
}

/* A key's approximate real value (for queues that bucket by a double). */
static inline double gb_exact_approx(uint64_t d)
{
    return (double)d * (1.0 / (double)GB_EXACT_S);
}

/* 1 when searches on g may use exact keys: at most GB_EXACT_MAX_CELLS
 * padded cells and, with terrain costs, 4 qmax (ncells + W + H) <= 2^31,
 * which keeps every g + h of a search in the domain (gb_terrain.h). */
static inline int gb_grid_exact_ok(const gb_grid *g)
{
    if ((int64_t)g->ncells > GB_EXACT_MAX_CELLS) return 0;
    if (!g->cost) return 1;
    return 4 * (int64_t)g->qmax * ((int64_t)g->ncells + g->width + g->height) <= GB_EXACT_MAX_STEPS;
}

/* The real cost of a key D(A, B) in units of 1/scale (terrain costs,
 * gb_terrain.h): (A + B*GB_SQRT2) / scale, the validator's expression. */
static inline double gb_exact_cost_scaled(uint64_t d, int32_t scale)
{
    return gb_exact_cost(d) / (double)scale;
}

/* Exact comparison of a1 + b1 sqrt2 with a2 + b2 sqrt2 through squares
 * (independent of D, for the tests): -1, 0 or 1.  |a|, |b| < 2^31. */
static inline int gb_exact_cmp_ref(int64_t a1, int64_t b1, int64_t a2, int64_t b2)
{
    int64_t p = a1 - a2, q = b2 - b1;   /* compare p with q*sqrt2 */
    if (p >= 0 && q <= 0) return (p == 0 && q == 0) ? 0 : 1;
    if (p <= 0 && q >= 0) return -1;
    /* same signs: compare p^2 with 2 q^2 (both below 2^64) */
    {
        unsigned __int128 pp = (unsigned __int128)(p < 0 ? -p : p) * (uint64_t)(p < 0 ? -p : p);
        unsigned __int128 qq = 2 * (unsigned __int128)(q < 0 ? -q : q) * (uint64_t)(q < 0 ? -q : q);
        int bigger = pp > qq;   /* |p| > |q| sqrt2 (never equal: sqrt2 irrational) */
        return p > 0 ? (bigger ? 1 : -1) : (bigger ? -1 : 1);
    }
}

#endif
