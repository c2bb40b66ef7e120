/*
 * test_exact.c -- the exact cost keys of solvers/gb_exact.h and the exact
 * entry points of every queue (pushk, decreasek).
 *
 * Keys: D(a, b) must order exactly like a + b*sqrt2, compared here
 * independently through squares (gb_exact_cmp_ref):
 *   - exhaustively for 0 <= a, b <= 400: all 160801 keys sorted by D, and
 *     every neighbour pair strictly increasing in the real order (so D is
 *     injective and its order is the real order on the whole range);
 *   - on random pairs over the whole domain a + b <= 2^31, and on the
 *     near-ties (x + P, y) against (x, y + Q) for every Pell convergent
 *     P/Q of sqrt2, at the edge of the domain -- the closest distinct
 *     values there are;
 *   - additivity (a step adds S or T) and decoding back to (a, b).
 * Queues: each exact queue runs random push / decrease / pop sequences on
 * exact keys -- Dijkstra-like (monotone f = g, many exact ties) and
 * A*-like (f = g + h, h an octile key) -- and every valid pop must be the
 * reference's first open id under (fk, gk, id); check() after each
 * operation.  The bucket queue's Dijkstra mode (two sorted lanes, lazy):
 * random Dijkstra runs with lazy decreases, runs that leave the mode with
 * entries (stale ones too) in the lanes, and groups of 2 to 40 equal keys
 * from one lane or both, popped in id order.
 * Searches: dijkstra_all equals the per-query solver's cost with ==, and
 * A* octile's cost equals Dijkstra's with ==, on random grids.
 */
#include "gb_test.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gb_dijkstra.h"
#include "gb_exact.h"
#include "gb_queues.h"
#include "gb_search.h"
#include "gb_stats.h"

typedef struct ab { int64_t a, b; uint64_t d; } ab;

static int ab_by_key(const void *x, const void *y)
{
    const ab *p = x, *q = y;
    return p->d < q->d ? -1 : p->d > q->d;
}

GB_TEST(exact, key_order_is_the_real_order_exhaustively_up_to_400)
{
    const int64_t n = 401;
    ab *v = malloc((size_t)(n * n) * sizeof *v);
    cr_assert_not_null(v);
    for (int64_t a = 0; a < n; a++)
        for (int64_t b = 0; b < n; b++) v[a * n + b] = (ab){ a, b, gb_exact_key(a, b) };
    qsort(v, (size_t)(n * n), sizeof *v, ab_by_key);
    for (int64_t i = 1; i < n * n; i++) {
        cr_assert_lt(v[i - 1].d, v[i].d, "D(%lld,%lld) == D(%lld,%lld)", (long long)v[i - 1].a,
                     (long long)v[i - 1].b, (long long)v[i].a, (long long)v[i].b);
        cr_assert_eq(gb_exact_cmp_ref(v[i - 1].a, v[i - 1].b, v[i].a, v[i].b), -1,
                     "D orders %lld+%lld*sqrt2 before %lld+%lld*sqrt2, the reals do not",
                     (long long)v[i - 1].a, (long long)v[i - 1].b, (long long)v[i].a,
                     (long long)v[i].b);
    }
    free(v);
}

/* A random (a, b) with a + b <= 2^31, mostly near the edge. */
static void rnd_ab(uint64_t *s, int64_t *a, int64_t *b)
{
    int64_t tot = GB_EXACT_MAX_STEPS - (int64_t)(gb_rng_next(s) % ((gb_rng_next(s) & 1) ? 1000 : GB_EXACT_MAX_STEPS));
    *a = (int64_t)(gb_rng_next(s) % (uint64_t)(tot + 1));
    *b = tot - *a;
}

static int key_cmp(uint64_t x, uint64_t y) { return x < y ? -1 : x > y; }

GB_TEST(exact, key_order_is_the_real_order_on_random_pairs_of_the_whole_domain)
{
    uint64_t s = 21;
    for (int i = 0; i < 2000000; i++) {
        int64_t a1, b1, a2, b2;
        rnd_ab(&s, &a1, &b1);
        if (i & 1) {                  /* a close neighbour */
            a2 = a1 - (int64_t)(gb_rng_next(&s) % 50);
            b2 = b1 + (int64_t)(gb_rng_next(&s) % 50) - 25;
            if (a2 < 0 || b2 < 0 || a2 + b2 > GB_EXACT_MAX_STEPS) continue;
        } else
            rnd_ab(&s, &a2, &b2);
        int want = gb_exact_cmp_ref(a1, b1, a2, b2);
        cr_assert_eq(key_cmp(gb_exact_key(a1, b1), gb_exact_key(a2, b2)), want,
                     "(%lld,%lld) vs (%lld,%lld)", (long long)a1, (long long)b1, (long long)a2,
                     (long long)b2);
    }
}

GB_TEST(exact, key_order_holds_on_the_pell_near_ties_at_the_domain_edge)
{
    /* P/Q the convergents of sqrt2: |P - Q sqrt2| = 1/(P + Q sqrt2), the
     * smallest nonzero differences a domain of this size has. */
    int64_t p = 1, q = 1;
    uint64_t s = 22;
    int tested = 0;
    while (p + q <= GB_EXACT_MAX_STEPS) {
        for (int k = 0; k < 2000; k++) {
            int64_t room = GB_EXACT_MAX_STEPS - (p > q ? p : q);
            int64_t x = (int64_t)(gb_rng_next(&s) % (uint64_t)(room + 1)), y;
            if (k & 1) x = room - (int64_t)(gb_rng_next(&s) % 100 < (uint64_t)room ? gb_rng_next(&s) % 100 : 0);
            y = room - x;
            if (y < 0) y = 0;
            /* (x + p, y) against (x, y + q) */
            int want = gb_exact_cmp_ref(x + p, y, x, y + q);
            cr_assert_neq(want, 0);
            cr_assert_eq(key_cmp(gb_exact_key(x + p, y), gb_exact_key(x, y + q)), want,
                         "P/Q = %lld/%lld at (%lld, %lld)", (long long)p, (long long)q,
                         (long long)x, (long long)y);
            tested++;
        }
        int64_t np = p + 2 * q, nq = p + q;
        p = np;
        q = nq;
    }
    cr_assert_gt(tested, 40000, "only %d near-ties", tested);
}

GB_TEST(exact, keys_add_and_decode_back_to_the_step_counts)
{
    uint64_t s = 23;
    cr_assert_eq(GB_EXACT_T * GB_EXACT_T - 2 * GB_EXACT_S * GB_EXACT_S, 1u, "T^2 - 2 S^2 == 1");
    cr_assert_eq((GB_EXACT_T * GB_EXACT_TINV) % GB_EXACT_S, 1u);
    cr_assert_lt((double)gb_exact_key(0, GB_EXACT_MAX_STEPS), 0x1p64);
    for (int i = 0; i < 1000000; i++) {
        int64_t a, b, a2, b2;
        rnd_ab(&s, &a, &b);
        a2 = a / 3;
        b2 = b / 5;
        uint64_t d = gb_exact_key(a, b);
        cr_assert_eq(gb_exact_diag(d), b);
        cr_assert_eq(gb_exact_straight(d), a);
        cr_assert_eq(gb_exact_key(a2, b2) + gb_exact_key(a - a2, b - b2), d);
        cr_assert_eq(gb_exact_key(a, b) + GB_EXACT_S, gb_exact_key(a + 1, b));
        cr_assert(gb_exact_cost(d) == (double)a + (double)b * GB_SQRT2);
    }
}

/* ---- every exact queue on exact keys ------------------------------------ */

typedef struct xops {
    const char *name;
    int lazy;
    void *(*make)(int32_t n);
    void (*destroy)(void *q);
    void (*clear)(void *q);
    int (*empty)(const void *q);
    void (*push)(void *q, int32_t id, uint64_t fk, uint64_t gk);
    void (*decrease)(void *q, int32_t id, uint64_t fk, uint64_t gk);
    int32_t (*pop)(void *q);
    int (*check)(const void *q);
    /* the entry points of a search with h = 0: _dij for lazy flag 2 */
    void (*push_dij)(void *q, int32_t id, uint64_t fk, uint64_t gk);
    void (*decrease_dij)(void *q, int32_t id, uint64_t fk, uint64_t gk);
    int32_t (*pop_dij)(void *q);
} xops;

#define XDIJ_0(Q, op) gb_##Q##_##op
#define XDIJ_1(Q, op) gb_##Q##_##op
#define XDIJ_2(Q, op) gb_##Q##_##op##_dij

#define XW(E, Q, N, LAZY, D)                                                    \
    static void *x_##Q##_make(int32_t n)                                        \
    {                                                                           \
        gb_##Q *q = calloc(1, sizeof *q);                                       \
        if (q && gb_##Q##_init(q, n) != 0) { free(q); q = NULL; }               \
        return q;                                                               \
    }                                                                           \
    static void x_##Q##_destroy(void *q) { gb_##Q##_free(q); free(q); }         \
    static void x_##Q##_clear(void *q) { gb_##Q##_clear(q); }                   \
    static int x_##Q##_empty(const void *q) { return gb_##Q##_empty(q); }       \
    static void x_##Q##_push(void *q, int32_t id, uint64_t f, uint64_t g)       \
    { gb_##Q##_pushk(q, id, f, g); }                                            \
    static void x_##Q##_decrease(void *q, int32_t id, uint64_t f, uint64_t g)   \
    { gb_##Q##_decreasek(q, id, f, g); }                                        \
    static int32_t x_##Q##_pop(void *q) { return gb_##Q##_pop(q); }             \
    static int x_##Q##_check(const void *q) { return gb_##Q##_check(q); }       \
    static void x_##Q##_pushd(void *q, int32_t id, uint64_t f, uint64_t g)      \
    { XDIJ_##LAZY(Q, pushk)(q, id, f, g); }                                     \
    static void x_##Q##_decreased(void *q, int32_t id, uint64_t f, uint64_t g)  \
    { XDIJ_##LAZY(Q, decreasek)(q, id, f, g); }                                 \
    static int32_t x_##Q##_popd(void *q) { return XDIJ_##LAZY(Q, pop)(q); }     \
    static const xops xo_##Q = { #Q, LAZY, x_##Q##_make, x_##Q##_destroy,       \
        x_##Q##_clear, x_##Q##_empty, x_##Q##_push, x_##Q##_decrease,           \
        x_##Q##_pop, x_##Q##_check, x_##Q##_pushd, x_##Q##_decreased,           \
        x_##Q##_popd };
GB_QUEUE_LIST_EXACT(XW)
#undef XW

enum { NEW = 0, OPEN, CLOSED };

/* Random search-like operations on n ids: keys are exact f = g + h with
 * g, h of small step counts (ties everywhere).  astar = 0: h = 0 and
 * every new g is at least the last popped f (Dijkstra); astar = 1: h an
 * octile key of a random cell, g grows from the popped one (A*). */
static void run_queue(const xops *o, int32_t n, int astar, uint64_t seed, int rounds)
{
    void (*push)(void *, int32_t, uint64_t, uint64_t) = astar ? o->push : o->push_dij;
    void (*decrease)(void *, int32_t, uint64_t, uint64_t) = astar ? o->decrease : o->decrease_dij;
    int32_t (*pop)(void *) = astar ? o->pop : o->pop_dij;
    void *q = o->make(n);
    cr_assert_not_null(q, "%s: init", o->name);
    uint64_t *fk = calloc((size_t)n, sizeof *fk), *gk = calloc((size_t)n, sizeof *gk);
    uint8_t *st = calloc((size_t)n, 1);
    cr_assert(fk && gk && st);
    for (int r = 0; r < rounds; r++) {
        o->clear(q);
        memset(st, NEW, (size_t)n);
        int32_t nopen = 0, used = 0;
        uint64_t lastg = 0;
        for (int step = 0; step < 40 * n; step++) {
            uint64_t x = gb_rng_next(&seed);
            int32_t id = (int32_t)(x % (uint64_t)n);
            int op = (int)((x >> 32) % 10);
            uint64_t g = lastg + gb_exact_key((int64_t)((x >> 40) % 3), (int64_t)((x >> 44) % 3));
            uint64_t h = astar ? gb_exact_key((int64_t)((x >> 48) % 6), (int64_t)((x >> 52) % 6)) : 0;
            if (op < 4 && st[id] == NEW) {
                st[id] = OPEN; nopen++; used++;
                fk[id] = g + h; gk[id] = ~g;
                push(q, id, fk[id], gk[id]);
            } else if (op < 7 && st[id] == OPEN) {
                /* a decrease: a better g for the same node (same h) */
                uint64_t hh = fk[id] + gk[id] + 1;    /* fk - g = h (mod 2^64) */
                uint64_t og = ~gk[id], ng = og > lastg + GB_EXACT_S ? og - GB_EXACT_S : og;
                if (ng < lastg) ng = lastg;
                decrease(q, id, ng + hh, ~ng);
                if (ng + hh < fk[id] || (ng + hh == fk[id] && ~ng < gk[id])) {
                    fk[id] = ng + hh;
                    gk[id] = ~ng;
                }
            } else if (nopen > 0) {
                int32_t best = -1;
                for (int32_t i = 0; i < n; i++)
                    if (st[i] == OPEN && (best < 0 || fk[i] < fk[best]
                                          || (fk[i] == fk[best] && (gk[i] < gk[best]
                                              || (gk[i] == gk[best] && i < best)))))
                        best = i;
                int32_t got;
                do {
                    cr_assert(!o->empty(q), "%s: empty with %d open", o->name, nopen);
                    got = pop(q);
                } while (o->lazy && st[got] == CLOSED);
                cr_assert_eq(got, best, "%s (%s, round %d, step %d): popped %d, expected %d",
                             o->name, astar ? "A*" : "Dijkstra", r, step, got, best);
                st[got] = CLOSED;
                nopen--;
                lastg = ~gk[got];
            }
            cr_assert_eq(o->check(q), 0, "%s: check() = %d", o->name, o->check(q));
            if (used == n && nopen == 0) break;
        }
    }
    free(fk); free(gk); free(st);
    o->destroy(q);
}

#define XT(E, Q, N, LAZY, D)                                                    \
    GB_TEST(exact_queue, Q##_pops_in_exact_order_dijkstra_like)                 \
    { run_queue(&xo_##Q, 300, 0, 31, 30); run_queue(&xo_##Q, 5, 0, 32, 200); }  \
    GB_TEST(exact_queue, Q##_pops_in_exact_order_astar_like)                    \
    { run_queue(&xo_##Q, 300, 1, 33, 30); run_queue(&xo_##Q, 5, 1, 34, 200); }
GB_QUEUE_LIST_EXACT(XT)
#undef XT

/* ---- searches ------------------------------------------------------------ */

GB_TEST(exact, dijkstra_all_astar_and_dijkstra_report_identical_costs)
{
    uint64_t seed = 41;
    char err[128];
    gb_solver_spec dsp, asp;
    cr_assert_eq(gb_solver_parse("dijkstra", &dsp, err, sizeof err), 0);
    cr_assert_eq(gb_solver_parse("astar-octile", &asp, err, sizeof err), 0);
    for (int trial = 0; trial < 6; trial++) {
        gb_grid g;
        int w = 20 + (int)(gb_rng_next(&seed) % 30), h = 20 + (int)(gb_rng_next(&seed) % 30);
        cr_assert_eq(gb_grid_init(&g, w, h), 0);
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) g.pass[gb_grid_id(&g, x, y)] = gb_rng_next(&seed) % 100 >= 25;
        int32_t src = gb_grid_id(&g, 1, 1);
        g.pass[src] = 1;
        gb_grid_recount(&g);
        gb_model m = (gb_model)(trial % GB_MODEL_COUNT);
        double *dist = malloc((size_t)g.ncells * sizeof *dist);
        cr_assert_not_null(dist);
        cr_assert_eq(gb_dijkstra_all(&g, m, src, dist), 0);
        gb_ws *ws = gb_ws_new(&g, m);
        cr_assert_not_null(ws);
        int found = 0;
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                int32_t t = gb_grid_id(&g, x, y);
                if (!g.pass[t]) continue;
                for (int q = 0; q < GB_Q_COUNT; q += GB_Q_COUNT - 1) {
                    gb_result rd, ra;
                    cr_assert_eq(gb_solve(ws, &dsp, (gb_queue_kind)q, src, t, &rd), 0);
                    if (rd.status != GB_FOUND) { cr_assert(isinf(dist[t])); continue; }
                    found++;
                    cr_assert(rd.cost == dist[t], "dijkstra %.17g, dijkstra_all %.17g", rd.cost,
                              dist[t]);
                    cr_assert_eq(gb_solve(ws, &asp, (gb_queue_kind)q, src, t, &ra), 0);
                    cr_assert(ra.status == GB_FOUND && ra.cost == rd.cost,
                              "A* octile %.17g, Dijkstra %.17g (model %d)", ra.cost, rd.cost, (int)m);
                }
            }
        cr_assert_gt(found, 0);
        gb_ws_free(ws);
        free(dist);
        gb_grid_free(&g);
    }
}

/* Large buckets of exact keys: the refill sorts them by radix into a run
 * when (f, g, id) packs into 64 bits, else heapifies them.  Every pop must
 * still be the reference's first entry, also with pushes and decreases
 * into the active set between pops. */
static void large_bucket(int wide_g, uint64_t seed, unsigned keep_pct)
{
    const int32_t n = 3000;
    gb_bucket q;
    cr_assert_eq(gb_bucket_init(&q, n), 0);
    uint64_t *fk = calloc((size_t)n, sizeof *fk), *gk = calloc((size_t)n, sizeof *gk);
    uint8_t *st = calloc((size_t)n, 1);
    cr_assert(fk && gk && st);
    const uint64_t f0 = gb_exact_key(1000, 700);
    for (int32_t i = 0; i < n; i++) {
        if (gb_rng_next(&seed) % 100 >= keep_pct) continue;   /* pushed later, between pops */
        fk[i] = f0 + gb_rng_next(&seed) % 4;      /* one bucket, few distinct f */
        gk[i] = wide_g ? gb_rng_next(&seed) : ~gb_exact_key((int64_t)(gb_rng_next(&seed) % 50), 3);
        st[i] = OPEN;
        gb_bucket_pushk(&q, i, fk[i], gk[i]);
    }
    int32_t popped = 0;
    while (!gb_bucket_empty(&q)) {
        uint64_t x = gb_rng_next(&seed);
        int32_t id = (int32_t)(x % (uint64_t)n);
        if (st[id] == NEW && (x >> 32) % 4 == 0) {
            fk[id] = f0 + (x >> 40) % 4;
            gk[id] = wide_g ? gb_rng_next(&seed) : ~gb_exact_key((int64_t)((x >> 48) % 60), 3);
            st[id] = OPEN;
            gb_bucket_pushk(&q, id, fk[id], gk[id]);
        } else if (st[id] == OPEN && (x >> 32) % 4 == 1 && gk[id] > 0) {
            gk[id]--;                        /* a larger g, same f */
            gb_bucket_decreasek(&q, id, fk[id], gk[id]);
        }
        int32_t best = -1;
        for (int32_t i = 0; i < n; i++)
            if (st[i] == OPEN && (best < 0 || fk[i] < fk[best]
                                  || (fk[i] == fk[best] && (gk[i] < gk[best]
                                      || (gk[i] == gk[best] && i < best)))))
                best = i;
        int32_t got = gb_bucket_pop(&q);
        cr_assert_eq(got, best, "pop %d: got %d, expected %d", popped, got, best);
        cr_assert_eq(gb_bucket_check(&q), 0, "check() = %d", gb_bucket_check(&q));
        st[got] = CLOSED;
        popped++;
    }
    cr_assert_gt(popped, 500);
    free(fk); free(gk); free(st);
    gb_bucket_free(&q);
}

GB_TEST(exact_queue, bucket_sorts_a_large_exact_bucket_into_a_run)
{
    large_bucket(0, 51, 67);   /* about 2000 keys: the radix sort */
    large_bucket(0, 53, 20);   /* about 600: the merge sort */
}

GB_TEST(exact_queue, bucket_heapifies_a_large_exact_bucket_that_does_not_pack)
{
    large_bucket(1, 52, 67);
}

/* Exact buckets of every size from 2 to 80 entries with different g (an
 * A* f-plateau): the refill sorts them by a network (<= 16), by networks
 * on runs of 16 and an insertion sort of the rest, then merges; each pop
 * must be the reference's first entry, ties on (f, g) going to the
 * smaller id. */
GB_TEST(exact_queue, bucket_sorts_small_exact_buckets_of_every_size)
{
    const int32_t n = 80 * 131;
    uint64_t seed = 77;
    gb_bucket q;
    cr_assert_eq(gb_bucket_init(&q, n), 0);
    const uint64_t f0 = gb_exact_key(300, 200);
    for (int32_t k = 2; k <= 80; k++) {
        uint64_t fk[80], gk[80];
        int32_t id[80];
        uint8_t done[80] = {0};
        gb_bucket_clear(&q);
        for (int32_t i = 0; i < k; i++) {
            id[i] = (int32_t)((uint64_t)i * 131 + gb_rng_next(&seed) % 131);   /* distinct, < n */
            fk[i] = f0 + gb_rng_next(&seed) % 2;
            gk[i] = ~gb_exact_key((int64_t)(gb_rng_next(&seed) % 6), (int64_t)(gb_rng_next(&seed) % 3));
            gb_bucket_pushk(&q, id[i], fk[i], gk[i]);
        }
        for (int32_t p = 0; p < k; p++) {
            int32_t best = -1;
            for (int32_t i = 0; i < k; i++)
                if (!done[i] && (best < 0 || fk[i] < fk[best]
                                 || (fk[i] == fk[best] && (gk[i] < gk[best]
                                     || (gk[i] == gk[best] && id[i] < id[best])))))
                    best = i;
            int32_t got = gb_bucket_pop(&q);
            cr_assert_eq(got, id[best], "k %d, pop %d: got %d, expected %d", k, p, got, id[best]);
            cr_assert_eq(gb_bucket_check(&q), 0, "k %d: check() = %d", k, gb_bucket_check(&q));
            done[best] = 1;
        }
        cr_assert(gb_bucket_empty(&q));
    }
    gb_bucket_free(&q);
}

/* ---- the bucket queue's Dijkstra mode (solvers/gb_pq_lanes.h) --------- */

/* Dijkstra on a random graph of n ids, every edge S or T: each valid pop
 * must be the reference's first open id under (g, id); stale pops (the
 * mode is lazy) are skipped; check() after every operation.  leave_at >= 0:
 * at that expansion a push of last + 2S, which no lane takes, makes the
 * queue leave the mode with entries, stale ones included, in its lanes. */
static void lanes_run(int32_t n, uint64_t seed, int rounds, int leave_at)
{
    gb_bucket q;
    cr_assert_eq(gb_bucket_init(&q, n), 0);
    uint64_t *g = calloc((size_t)n, sizeof *g);
    uint8_t *st = calloc((size_t)n, 1);
    cr_assert(g && st);
    uint64_t stale = 0, decreases = 0;
    int nleft = 0;
    for (int r = 0; r < rounds; r++) {
        int left = 0;
        gb_bucket_clear(&q);
        memset(st, NEW, (size_t)n);
        int32_t s = (int32_t)(gb_rng_next(&seed) % (uint64_t)n), nopen = 1;
        st[s] = OPEN;
        g[s] = 0;
        gb_bucket_pushk_dij(&q, s, 0, ~(uint64_t)0);
        for (int step = 0; nopen > 0; step++) {
            int32_t best = -1, got;
            for (int32_t i = 0; i < n; i++)
                if (st[i] == OPEN && (best < 0 || g[i] < g[best] || (g[i] == g[best] && i < best)))
                    best = i;
            do {
                cr_assert(!gb_bucket_empty(&q), "empty with %d open", nopen);
                got = gb_bucket_pop_dij(&q);
                cr_assert_eq(gb_bucket_check(&q), 0, "check() = %d", gb_bucket_check(&q));
                stale += st[got] == CLOSED;
            } while (st[got] == CLOSED);
            cr_assert_eq(got, best, "round %d, step %d: popped %d, expected %d", r, step, got, best);
            st[got] = CLOSED;
            nopen--;
            int nsucc = (int)(gb_rng_next(&seed) % 7);
            int leave = step >= leave_at && leave_at >= 0 && q.lanes;
            for (int j = 0; j < nsucc || (leave && j < 100 * n); j++) {
                uint64_t x = gb_rng_next(&seed);
                int32_t v = (int32_t)(x % (uint64_t)n);
                uint64_t ng = g[got] + ((x >> 40) & 1 ? GB_EXACT_S : GB_EXACT_T);
                if (leave) {                  /* a new id two steps away */
                    if (st[v] != NEW) continue;
                    ng += GB_EXACT_S;
                    leave = 0;
                    left = 1;
                }
                if (st[v] == NEW) {
                    st[v] = OPEN;
                    nopen++;
                    g[v] = ng;
                    gb_bucket_pushk_dij(&q, v, ng, ~ng);
                } else if (st[v] == OPEN && ng < g[v]) {
                    g[v] = ng;
                    decreases++;
                    gb_bucket_decreasek_dij(&q, v, ng, ~ng);
                }
                cr_assert_eq(gb_bucket_check(&q), 0, "check() = %d", gb_bucket_check(&q));
            }
        }
        while (!gb_bucket_empty(&q)) {       /* only stale entries are left */
            int32_t got = gb_bucket_pop_dij(&q);
            cr_assert_eq(st[got], CLOSED, "a left-over entry %d is not closed", got);
        }
        cr_assert_eq(q.lanes, !left, "round %d: the Dijkstra mode is %s", r,
                     q.lanes ? "still on" : "off");
        nleft += left;
    }
    if (leave_at >= 0) cr_assert_gt(nleft, rounds / 2, "the mode was left in %d rounds", nleft);
    /* the test exercised lazy decreases and stale pops, not only pushes */
    cr_assert_gt(decreases, 10);
    if (leave_at < 0) cr_assert_gt(stale, 10);
    free(g); free(st);
    gb_bucket_free(&q);
}

GB_TEST(exact_queue, bucket_dijkstra_mode_pops_in_exact_order)
{
    lanes_run(400, 61, 20, -1);
    lanes_run(6, 62, 300, -1);
}

GB_TEST(exact_queue, bucket_leaves_the_dijkstra_mode_without_losing_entries)
{
    lanes_run(400, 63, 20, 3);
    lanes_run(400, 64, 20, 40);
}

/* Groups of 2 to 40 equal keys (one per size of the sorting networks and
 * beyond): the ids pop in ascending order, and the mode stays on. */
/* Was v pushed at an index i of id[0..k) with i % 2 == odd? */
static int in_lane(const int32_t *id, int k, int odd, int32_t v)
{
    for (int i = odd; i < k; i += 2)
        if (id[i] == v) return 1;
    return 0;
}

GB_TEST(exact_queue, bucket_dijkstra_mode_pops_equal_keys_in_id_order)
{
    const int32_t n = 5000;
    uint64_t seed = 65;
    gb_bucket q;
    cr_assert_eq(gb_bucket_init(&q, n), 0);
    for (int k = 2; k <= 40; k++) {
        int32_t id[40];
        uint8_t *used = calloc((size_t)n, 1);
        cr_assert(used);
        gb_bucket_clear(&q);
        gb_bucket_pushk_dij(&q, 0, 0, ~(uint64_t)0);
        cr_assert_eq(gb_bucket_pop_dij(&q), 0);
        used[0] = 1;
        for (int i = 0; i < k; i++) {
            int32_t v;
            do v = (int32_t)(gb_rng_next(&seed) % (uint64_t)n); while (used[v]);
            used[v] = 1;
            id[i] = v;
            /* odd i: key S (lane 0), even i: key T (lane 1) */
            gb_bucket_pushk_dij(&q, v, i % 2 ? GB_EXACT_S : GB_EXACT_T,
                            ~(i % 2 ? GB_EXACT_S : GB_EXACT_T));
        }
        int32_t prev = -1;
        for (int i = 0; i < k / 2; i++) {     /* the k/2 keys S (k/2 odd i) */
            int32_t got = gb_bucket_pop_dij(&q);
            cr_assert_gt(got, prev, "k %d: %d popped after %d", k, got, prev);
            cr_assert(in_lane(id, k, 1, got), "k %d: %d popped with the keys S, pushed as T", k, got);
            cr_assert_eq(gb_bucket_check(&q), 0);
            prev = got;
        }
        prev = -1;
        for (int i = k / 2; i < k; i++) {     /* then the keys T */
            int32_t got = gb_bucket_pop_dij(&q);
            cr_assert_gt(got, prev, "k %d: %d popped after %d", k, got, prev);
            cr_assert(in_lane(id, k, 0, got), "k %d: %d popped with the keys T, pushed as S", k, got);
            prev = got;
        }
        cr_assert(gb_bucket_empty(&q));
        cr_assert(q.lanes, "k %d: the mode was left", k);
        free(used);
    }
    /* one group from both lanes: key S + T reached from S (by T, lane 1)
     * and from T (by S, lane 0), three ids each, in mixed id order */
    gb_bucket_clear(&q);
    gb_bucket_pushk_dij(&q, 0, 0, ~(uint64_t)0);
    cr_assert_eq(gb_bucket_pop_dij(&q), 0);
    gb_bucket_pushk_dij(&q, 10, GB_EXACT_S, ~GB_EXACT_S);
    gb_bucket_pushk_dij(&q, 20, GB_EXACT_T, ~GB_EXACT_T);
    cr_assert_eq(gb_bucket_pop_dij(&q), 10);
    const uint64_t st_ = GB_EXACT_S + GB_EXACT_T;
    gb_bucket_pushk_dij(&q, 31, st_, ~st_);
    gb_bucket_pushk_dij(&q, 36, st_, ~st_);
    gb_bucket_pushk_dij(&q, 33, st_, ~st_);
    cr_assert_eq(gb_bucket_pop_dij(&q), 20);
    gb_bucket_pushk_dij(&q, 35, st_, ~st_);
    gb_bucket_pushk_dij(&q, 30, st_, ~st_);
    gb_bucket_pushk_dij(&q, 34, st_, ~st_);
    cr_assert(q.ln.tl[0] - q.ln.hd[0] == 3 && q.ln.tl[1] - q.ln.hd[1] == 3,
              "the group is not split over both lanes");
    for (int32_t want = 30; want <= 36; want++) {
        if (want == 32) continue;
        cr_assert_eq(gb_bucket_pop_dij(&q), want);
        cr_assert_eq(gb_bucket_check(&q), 0);
    }
    cr_assert(gb_bucket_empty(&q) && q.lanes);
    gb_bucket_free(&q);
}
