/*
 * test_pq.c -- differential tests of every exact priority queue of the
 * registry (solvers/gb_queues.h).
 *
 * Every queue runs the same randomized operation sequences (fixed seeds)
 * and is compared, pop by pop, with a reference: a plain array of the open
 * ids scanned for the first one under gb_pq_before.  The driver plays the
 * part of a search:
 *   - it keeps the current key of each id and a state: new, open, closed;
 *   - push only takes a new id, decrease only an open one, mostly with a
 *     key that strictly precedes its current key, sometimes (1 in 10) with
 *     one that does not, which must leave the key as it is (the search
 *     core does that in greedy search); at most 7 decreases per id per
 *     round, so a lazy queue never holds more than 8 entries per id;
 *   - a pop that returns a closed id is a stale entry: allowed only for a
 *     lazy queue, and ignored; otherwise the id must be the reference's
 *     first open id, which then becomes closed;
 *   - when every id has been used and the queue is drained, a new round
 *     starts (all ids new again); clear() is called at some round starts
 *     and, rarely, in the middle of a round (which also starts a round).
 * After every queue operation, stale pops included, the driver asserts
 * check() == 0, size() and empty() against its own count, and the four
 * counters against its own counts (a lazy decrease is also a push).
 *
 * One driver body serves all queues: the registry's X-macro list of exact
 * queues (GB_QUEUE_LIST_EXACT, with each queue's lazy flag) generates a
 * table of thin wrappers per queue (pq_ops), and one Criterion test per
 * (queue, scenario) pair from the GB_PQ_SCENARIOS list (the keys here are
 * doubles, so a queue of lazy flag 2 is a decrease-key queue) -- a queue added to
 * the registry is tested here without a line in this file.
 */
#include "gb_test.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gb_pq.h"
#include "gb_queues.h"
#include "gb_stats.h"

#define SQRT2 1.4142135623730951

/* X(ENUM, type suffix Q, CLI name, LAZY, description): every queue under
 * test.  The timing-bound queues are not exact and are not tested here. */
#define GB_PQ_QUEUES(X) GB_QUEUE_LIST_EXACT(X)

/* ---- one wrapper table per queue ------------------------------------- */
typedef struct pq_ops {
    const char *name;
    int lazy;
    void *(*make)(int32_t ncells);     /* NULL when init fails */
    void (*destroy)(void *q);
    void (*clear)(void *q);
    int (*empty)(const void *q);
    size_t (*size)(const void *q);
    void (*push)(void *q, int32_t id, double f, double g);
    void (*decrease)(void *q, int32_t id, double f, double g);
    int32_t (*pop)(void *q);
    int (*check)(const void *q);
    gb_pq_counters (*counters)(const void *q);
} pq_ops;

#define GB_PQ_WRAP(E, Q, N, LAZY, D)                                          \
    static void *w_##Q##_make(int32_t n)                                      \
    {                                                                         \
        gb_##Q *q = calloc(1, sizeof *q);                                     \
        if (q && gb_##Q##_init(q, n) != 0) { free(q); q = NULL; }             \
        return q;                                                             \
    }                                                                         \
    static void w_##Q##_destroy(void *q) { gb_##Q##_free(q); free(q); }       \
    static void w_##Q##_clear(void *q) { gb_##Q##_clear(q); }                 \
    static int w_##Q##_empty(const void *q) { return gb_##Q##_empty(q); }     \
    static size_t w_##Q##_size(const void *q) { return gb_##Q##_size(q); }    \
    static void w_##Q##_push(void *q, int32_t id, double f, double g)         \
    { gb_##Q##_push(q, id, f, g); }                                           \
    static void w_##Q##_decrease(void *q, int32_t id, double f, double g)     \
    { gb_##Q##_decrease(q, id, f, g); }                                       \
    static int32_t w_##Q##_pop(void *q) { return gb_##Q##_pop(q); }           \
    static int w_##Q##_check(const void *q) { return gb_##Q##_check(q); }     \
    static gb_pq_counters w_##Q##_counters(const void *q)                     \
    { return ((const gb_##Q *)q)->cnt; }                                      \
    static const pq_ops ops_##Q = {                                           \
        #Q, LAZY == 1, w_##Q##_make, w_##Q##_destroy, w_##Q##_clear,          \
        w_##Q##_empty, w_##Q##_size, w_##Q##_push, w_##Q##_decrease,          \
        w_##Q##_pop, w_##Q##_check, w_##Q##_counters                          \
    };

GB_PQ_QUEUES(GB_PQ_WRAP)

/* ---- random numbers (splitmix64: fixed seeds, same on every host) ---- */
static uint32_t rnd(uint64_t *s, uint32_t n) { return (uint32_t)(gb_rng_next(s) % n); }
static double rnd01(uint64_t *s) { return (double)(gb_rng_next(s) >> 11) * 0x1p-53; }

/* ---- scenarios -------------------------------------------------------- */
enum key_profile {
    KEYS_GRID,      /* a + b*sqrt2 + h/2: many exact ties on f and on g */
    KEYS_DUP,       /* 3 values of f x 3 of g: duplicates everywhere */
    KEYS_UNIFORM,   /* f uniform in [0, 1000) */
    KEYS_MONO,      /* Dijkstra-like: last popped f + 1 or sqrt2 (+ k*sqrt2) */
    KEYS_BELOW,     /* often below the last popped f (weighted A*, greedy) */
    KEYS_EXTREME,   /* 0, -0, subnormals, bucket boundaries, 2^60, DBL_MAX */
    KEYS_WIDE,      /* every binary exponent from subnormal to 2^1022 */
    KEYS_FAR        /* f uniform in [0, 1e5): far beyond the bucket window */
};

typedef struct scen {
    const char *name;
    uint64_t seed;
    int32_t ncells;
    int nops;
    enum key_profile prof;
    int ppush, pdec, ppop;   /* percent; the rest: drain the queue */
} scen;

/* X(Q, name, seed, ncells, nops, profile, %push, %decrease, %pop) */
#define GB_PQ_SCENARIOS(X, Q)                                               \
    X(Q, grid_keys_with_ties_on_f_and_g, 101, 300, 20000, KEYS_GRID, 40, 30, 29) \
    X(Q, duplicate_keys, 102, 200, 20000, KEYS_DUP, 40, 25, 34)             \
    X(Q, uniform_keys, 103, 500, 20000, KEYS_UNIFORM, 45, 25, 29)           \
    X(Q, dijkstra_like_monotone_keys, 104, 2000, 30000, KEYS_MONO, 35, 35, 29) \
    X(Q, keys_below_the_last_popped, 105, 300, 20000, KEYS_BELOW, 40, 30, 29) \
    X(Q, tiny_and_huge_keys, 106, 300, 20000, KEYS_EXTREME, 40, 30, 29)     \
    X(Q, keys_over_all_exponents, 107, 300, 20000, KEYS_WIDE, 40, 30, 29)   \
    X(Q, keys_far_beyond_the_bucket_window, 108, 200, 20000, KEYS_FAR, 40, 30, 29) \
    X(Q, few_ids_drained_often, 109, 7, 20000, KEYS_GRID, 40, 30, 25)       \
    X(Q, single_id_sequences, 110, 1, 5000, KEYS_EXTREME, 40, 30, 25)       \
    X(Q, push_heavy_large_queue, 111, 3000, 30000, KEYS_UNIFORM, 60, 25, 14) \
    X(Q, far_keys_many_ids, 112, 5000, 20000, KEYS_FAR, 50, 30, 19)        \
    X(Q, large_groups_of_equal_keys, 113, 1000, 20000, KEYS_DUP, 70, 10, 19)

#define GB_PQ_SCEN_DEF(Q, NAME, SEED, NC, NOPS, PROF, PP, PD, PO) \
    static const scen sc_##NAME = { #NAME, SEED, NC, NOPS, PROF, PP, PD, PO };
GB_PQ_SCENARIOS(GB_PQ_SCEN_DEF, unused)

/* ---- the driver (reference model + queue under test) ----------------- */
enum { ST_NEW = 0, ST_OPEN, ST_CLOSED };

typedef struct model {
    const pq_ops *ops;
    void *q;
    const char *scen;
    uint64_t rng;
    int32_t n;
    double *f, *g;          /* current key of each open id */
    uint8_t *state;         /* ST_NEW, ST_OPEN, ST_CLOSED */
    uint8_t *ndec;          /* decreases of each id this round */
    int32_t *open, *opos;   /* open ids (reference queue) and their slots */
    size_t nopen;
    int32_t *fresh;         /* ids still ST_NEW this round */
    size_t nfresh;
    gb_pq_counters want;    /* counters the queue must report */
    size_t want_size;       /* size() the queue must report */
    double last_f;          /* f of the last valid pop */
    uint64_t step;          /* queue operations so far, for messages */
} model;

static void model_round(model *m)
{
    int32_t i;
    for (i = 0; i < m->n; i++) {
        m->fresh[i] = i;
        m->state[i] = ST_NEW;
        m->ndec[i] = 0;
    }
    m->nfresh = (size_t)m->n;
    m->nopen = 0;
}

static void model_init(model *m, const pq_ops *ops, const char *scen_name,
                       int32_t n, uint64_t seed)
{
    size_t k = n > 0 ? (size_t)n : 1;
    memset(m, 0, sizeof *m);
    m->ops = ops;
    m->scen = scen_name;
    m->rng = seed;
    m->n = n;
    m->q = ops->make(n);
    cr_assert(m->q != NULL, "%s: init(ncells=%d) failed", ops->name, (int)n);
    m->f = calloc(k, sizeof *m->f);
    m->g = calloc(k, sizeof *m->g);
    m->state = calloc(k, 1);
    m->ndec = calloc(k, 1);
    m->open = calloc(k, sizeof *m->open);
    m->opos = calloc(k, sizeof *m->opos);
    m->fresh = calloc(k, sizeof *m->fresh);
    cr_assert(m->f && m->g && m->state && m->ndec && m->open && m->opos && m->fresh,
              "test model allocation failed");
    model_round(m);
}

static void model_free(model *m)
{
    m->ops->destroy(m->q);
    free(m->f); free(m->g); free(m->state); free(m->ndec);
    free(m->open); free(m->opos); free(m->fresh);
}

/* After every queue operation: structure, size, counters. */
static void verify(model *m, const char *what, int32_t id)
{
    gb_pq_counters c = m->ops->counters(m->q);
    int rc = m->ops->check(m->q);
    size_t sz = m->ops->size(m->q);
    m->step++;
    cr_assert(rc == 0, "%s/%s: step %llu (%s id %d): check() returned %d",
              m->ops->name, m->scen, (unsigned long long)m->step, what, (int)id, rc);
    cr_assert(sz == m->want_size, "%s/%s: step %llu (%s id %d): size() is %zu, expected %zu",
              m->ops->name, m->scen, (unsigned long long)m->step, what, (int)id,
              sz, m->want_size);
    cr_assert(!m->ops->empty(m->q) == (m->want_size != 0),
              "%s/%s: step %llu (%s): empty() is %d with size %zu", m->ops->name,
              m->scen, (unsigned long long)m->step, what, m->ops->empty(m->q), m->want_size);
    cr_assert(c.pushes == m->want.pushes && c.pops == m->want.pops
              && c.decreases == m->want.decreases && c.peak == m->want.peak,
              "%s/%s: step %llu (%s): counters pushes/pops/decreases/peak are "
              "%llu/%llu/%llu/%llu, expected %llu/%llu/%llu/%llu",
              m->ops->name, m->scen, (unsigned long long)m->step, what,
              (unsigned long long)c.pushes, (unsigned long long)c.pops,
              (unsigned long long)c.decreases, (unsigned long long)c.peak,
              (unsigned long long)m->want.pushes, (unsigned long long)m->want.pops,
              (unsigned long long)m->want.decreases, (unsigned long long)m->want.peak);
}

static void grow(model *m)
{
    m->want_size++;
    if (m->want_size > m->want.peak) m->want.peak = m->want_size;
}

static void do_push(model *m, int32_t id, double f, double g)
{
    m->f[id] = f;
    m->g[id] = g;
    m->state[id] = ST_OPEN;
    m->opos[id] = (int32_t)m->nopen;
    m->open[m->nopen++] = id;
    m->ops->push(m->q, id, f, g);
    m->want.pushes++;
    grow(m);
    verify(m, "push", id);
}

/* decrease(id, f, g).  A key that does not precede the current one (as
 * the search core passes in greedy search) leaves the key unchanged: the
 * queues keep the minimum of the keys they were given. */
static void do_decrease(model *m, int32_t id, double f, double g)
{
    if (gb_pq_before(f, g, id, m->f[id], m->g[id], id)) {
        m->f[id] = f;
        m->g[id] = g;
    }
    m->ndec[id]++;
    m->ops->decrease(m->q, id, f, g);
    m->want.decreases++;
    if (m->ops->lazy) { m->want.pushes++; grow(m); }
    verify(m, "decrease", id);
}

/* The reference: the open id that comes first under gb_pq_before. */
static int32_t ref_first(const model *m)
{
    size_t i;
    int32_t best = m->open[0];
    for (i = 1; i < m->nopen; i++) {
        int32_t x = m->open[i];
        if (gb_pq_before(m->f[x], m->g[x], x, m->f[best], m->g[best], best)) best = x;
    }
    return best;
}

/* Pop the queue until it returns a non-stale id (stale = closed, lazy
 * queues only); that id must be the reference's first; -1 if the queue
 * ran empty on stale entries only (then the reference must be empty). */
static int32_t do_pop(model *m)
{
    for (;;) {
        int32_t id, want;
        if (m->want_size == 0) {
            cr_assert(m->nopen == 0, "%s/%s: step %llu: queue empty with %zu ids open",
                      m->ops->name, m->scen, (unsigned long long)m->step, m->nopen);
            return -1;
        }
        id = m->ops->pop(m->q);
        m->want.pops++;
        m->want_size--;
        verify(m, "pop", id);
        cr_assert(id >= 0 && id < m->n, "%s/%s: step %llu: pop returned id %d, ncells %d",
                  m->ops->name, m->scen, (unsigned long long)m->step, (int)id, (int)m->n);
        if (m->state[id] == ST_CLOSED) {
            cr_assert(m->ops->lazy, "%s/%s: step %llu: pop returned closed id %d",
                      m->ops->name, m->scen, (unsigned long long)m->step, (int)id);
            continue;                         /* stale entry */
        }
        cr_assert(m->state[id] == ST_OPEN, "%s/%s: step %llu: pop returned id %d, never pushed",
                  m->ops->name, m->scen, (unsigned long long)m->step, (int)id);
        want = ref_first(m);
        cr_assert(id == want,
                  "%s/%s: step %llu: pop returned id %d (f=%.17g g=%.17g), reference "
                  "expects id %d (f=%.17g g=%.17g)", m->ops->name, m->scen,
                  (unsigned long long)m->step, (int)id, m->f[id], m->g[id], (int)want,
                  m->f[want], m->g[want]);
        m->state[id] = ST_CLOSED;
        m->last_f = m->f[id];
        {   /* remove from the open set */
            int32_t last = m->open[--m->nopen], slot = m->opos[id];
            m->open[slot] = last;
            m->opos[last] = slot;
        }
        return id;
    }
}

static void do_drain(model *m)
{
    while (m->want_size > 0) do_pop(m);
    cr_assert(m->nopen == 0, "%s/%s: drained queue left %zu ids open", m->ops->name,
              m->scen, m->nopen);
}

static void do_clear(model *m)
{
    gb_pq_counters z = {0};
    m->ops->clear(m->q);
    m->want = z;
    m->want_size = 0;
    verify(m, "clear", -1);
    model_round(m);
}

/* Special values for KEYS_EXTREME. */
static const double extreme_keys[] = {
    0.0, -0.0, 4.9406564584124654e-324, 2.2250738585072014e-308, 1e-300, 1e-10,
    0.2499999999999999, 0.25, 0.25000000000000006, 0.5, 0.75, 1.0, SQRT2, 2.0,
    3.0, 1e6, 4503599627370496.0, 1152921504606846976.0 /* 2^60 */,
    1152921504606846720.0 /* 2^60 - ulp */, 4611686018427387904.0 /* 2^62 */,
    1e18, 1e300, DBL_MAX
};
#define N_EXTREME (sizeof extreme_keys / sizeof extreme_keys[0])

static double nudge(uint64_t *r, double x)
{
    int k = (int)rnd(r, 5) - 2;
    while (k > 0 && x < DBL_MAX) { x = nextafter(x, INFINITY); k--; }
    while (k < 0 && x > 0) { x = nextafter(x, 0.0); k++; }
    return x;
}

/* A fresh key under the scenario's profile. */
static void gen_key(model *m, enum key_profile p, double *f, double *g)
{
    uint64_t *r = &m->rng;
    switch (p) {
    case KEYS_GRID: {
        double gv = (double)rnd(r, 30) + (double)rnd(r, 30) * SQRT2;
        *g = gv;
        *f = gv + 0.5 * (double)rnd(r, 4);
        break;
    }
    case KEYS_DUP:
        *f = 1.25 * (double)rnd(r, 3);
        *g = (double)rnd(r, 3);
        break;
    case KEYS_UNIFORM:
        *f = 1000.0 * rnd01(r);
        *g = *f * rnd01(r);
        break;
    case KEYS_MONO:
        *f = m->last_f + (rnd(r, 2) ? 1.0 : SQRT2) + (double)rnd(r, 3) * SQRT2;
        *g = *f;
        break;
    case KEYS_BELOW:
        *f = (m->last_f + 5.0) * rnd01(r);
        *g = (double)rnd(r, 4);
        break;
    case KEYS_EXTREME:
        *f = nudge(r, extreme_keys[rnd(r, N_EXTREME)]);
        *g = rnd(r, 2) ? nudge(r, extreme_keys[rnd(r, N_EXTREME)]) : 1.0;
        if (*f < 0) *f = 0;
        if (*g < 0) *g = 0;
        break;
    case KEYS_WIDE:
        *f = ldexp(1.0 + rnd01(r), (int)rnd(r, 2097) - 1075);
        *g = rnd(r, 2) ? *f : ldexp(1.0 + rnd01(r), (int)rnd(r, 200) - 100);
        break;
    case KEYS_FAR:
        *f = 1e5 * rnd01(r);
        *g = (double)rnd(r, 3);
        break;
    }
}

/* A key strictly preceding (f0, g0) for id, or 0 if none was found. */
static int gen_better(model *m, enum key_profile p, int32_t id, double f0, double g0,
                      double *f, double *g)
{
    uint64_t *r = &m->rng;
    int tries;
    for (tries = 0; tries < 6; tries++) {
        if (p == KEYS_MONO) {            /* stay >= the last popped f */
            *f = m->last_f + (f0 - m->last_f) * rnd01(r);
            *g = *f;
        } else {
            switch (rnd(r, 7)) {
            case 0: *f = f0 * rnd01(r); *g = g0; break;
            case 1: *f = nextafter(f0, 0.0); *g = rnd(r, 2) ? g0 : 0.0; break;
            case 2: *f = f0; *g = g0 + 1.0 + (double)rnd(r, 3); break;   /* g only */
            case 3: *f = f0; *g = nextafter(g0, INFINITY); break;
            case 4: gen_key(m, p, f, g); break;
            case 5: *f = m->last_f * rnd01(r); *g = g0; break;           /* below last */
            default: *f = 0.0; *g = (double)rnd(r, 3); break;
            }
        }
        if (!(*f >= 0) || !(*g >= 0) || !isfinite(*f) || !isfinite(*g)) continue;
        if (gb_pq_before(*f, *g, id, f0, g0, id)) return 1;
    }
    return 0;
}

static void run_scenario(const pq_ops *ops, const scen *sc)
{
    model m;
    int op;
    model_init(&m, ops, sc->name, sc->ncells, sc->seed);
    for (op = 0; op < sc->nops; op++) {
        uint32_t roll = rnd(&m.rng, 1000);
        if (m.nfresh == 0 && m.nopen == 0) {       /* round over */
            do_drain(&m);
            if (rnd(&m.rng, 2)) do_clear(&m); else model_round(&m);
            continue;
        }
        if (roll < 3) {                            /* rare: clear mid-round */
            do_clear(&m);
        } else if (roll < 10 * (uint32_t)sc->ppush && m.nfresh > 0) {
            size_t k = rnd(&m.rng, (uint32_t)m.nfresh);
            int32_t id = m.fresh[k];
            double f, g;
            m.fresh[k] = m.fresh[--m.nfresh];
            gen_key(&m, sc->prof, &f, &g);
            do_push(&m, id, f, g);
        } else if (roll < 10 * (uint32_t)(sc->ppush + sc->pdec) && m.nopen > 0) {
            int32_t id = m.open[rnd(&m.rng, (uint32_t)m.nopen)];
            double f, g;
            if (m.ndec[id] >= 7) {
                /* no more: a lazy queue holds at most 8 entries per id */
            } else if (rnd(&m.rng, 10) == 0) {     /* not better: key kept */
                f = rnd(&m.rng, 2) ? m.f[id] : m.f[id] * (1.0 + rnd01(&m.rng));
                g = m.g[id] * rnd01(&m.rng);
                do_decrease(&m, id, f, g);
            } else if (gen_better(&m, sc->prof, id, m.f[id], m.g[id], &f, &g)) {
                do_decrease(&m, id, f, g);
            }
        } else if (roll < 10 * (uint32_t)(sc->ppush + sc->pdec + sc->ppop) && m.nopen > 0) {
            do_pop(&m);
        } else if (roll >= 10 * (uint32_t)(sc->ppush + sc->pdec + sc->ppop)) {
            do_drain(&m);
        } else if (m.nopen > 0) {
            do_pop(&m);
        }
    }
    do_drain(&m);
    cr_assert(m.ops->empty(m.q), "%s/%s: not empty after the final drain",
              ops->name, sc->name);
    model_free(&m);
}

#define GB_PQ_SCEN_TEST(Q, NAME, ...) \
    GB_TEST(pq_##Q, NAME) { run_scenario(&ops_##Q, &sc_##NAME); }
#define GB_PQ_ALL_SCEN_TESTS(E, Q, N, LAZY, D) GB_PQ_SCENARIOS(GB_PQ_SCEN_TEST, Q)
GB_PQ_QUEUES(GB_PQ_ALL_SCEN_TESTS)

/* ---- clear() ---------------------------------------------------------- */
static void test_clear(const pq_ops *ops)
{
    model m;
    int round, i;
    model_init(&m, ops, "clear", 100, 4242);
    for (round = 0; round < 4; round++) {
        gb_pq_counters c;
        for (i = 0; i < 60; i++) {           /* ids 0..59, keys spread wide */
            double f = round == 3 ? 1e5 * rnd01(&m.rng) : 100.0 * rnd01(&m.rng);
            int32_t id = m.fresh[0];
            m.fresh[0] = m.fresh[--m.nfresh];
            do_push(&m, id, f, (double)(i % 3));
        }
        for (i = 0; i < 15; i++) {
            int32_t id = m.open[rnd(&m.rng, (uint32_t)m.nopen)];
            double f, g;
            if (gen_better(&m, KEYS_UNIFORM, id, m.f[id], m.g[id], &f, &g))
                do_decrease(&m, id, f, g);
        }
        for (i = 0; i < 10; i++) do_pop(&m);
        cr_assert(!ops->empty(m.q), "%s: empty before clear", ops->name);
        ops->clear(m.q);
        c = ops->counters(m.q);
        cr_assert(ops->empty(m.q) && ops->size(m.q) == 0,
                  "%s: after clear() empty() = %d and size() = %zu", ops->name,
                  ops->empty(m.q), ops->size(m.q));
        cr_assert(c.pushes == 0 && c.pops == 0 && c.decreases == 0 && c.peak == 0,
                  "%s: after clear() counters are %llu/%llu/%llu/%llu, expected zeros",
                  ops->name, (unsigned long long)c.pushes, (unsigned long long)c.pops,
                  (unsigned long long)c.decreases, (unsigned long long)c.peak);
        cr_assert(ops->check(m.q) == 0, "%s: check() = %d after clear()", ops->name,
                  ops->check(m.q));
        {
            gb_pq_counters z = {0};
            m.want = z;
            m.want_size = 0;
            model_round(&m);
        }
        /* the ids that were queued before clear() are pushed again */
    }
    for (i = 0; i < 40; i++) {
        int32_t id = m.fresh[0];
        m.fresh[0] = m.fresh[--m.nfresh];
        do_push(&m, id, 50.0 * rnd01(&m.rng), 0.0);
    }
    do_drain(&m);
    model_free(&m);
}

/* ---- a single cell ---------------------------------------------------- */
static void test_single(const pq_ops *ops)
{
    model m;
    static const double keys[][2] = {
        {5.0, 1.0}, {DBL_MAX, 0.0}, {0.0, 0.0}, {4.9406564584124654e-324, 3.0},
        {1e300, 1e300}, {SQRT2, SQRT2}
    };
    size_t k;
    model_init(&m, ops, "single", 1, 7);
    for (k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        double f = keys[k][0], g = keys[k][1];
        m.nfresh = 0;
        do_push(&m, 0, f, g);
        if (f > 0) do_decrease(&m, 0, f, g + 1.0);        /* tie on f, better g */
        if (f > 0) do_decrease(&m, 0, nextafter(f, 0.0), 0.0);
        do_decrease(&m, 0, 0.0, g + 2.0);
        cr_assert(do_pop(&m) == 0, "%s: single cell pop", ops->name);
        do_drain(&m);                                  /* stale entries (lazy) */
        cr_assert(ops->empty(m.q), "%s: single cell not empty", ops->name);
        model_round(&m);
    }
    model_free(&m);
}

/* ---- init / free edge cases ------------------------------------------- */
static void test_zero_cells(const pq_ops *ops)
{
    void *q = ops->make(0);
    cr_assert(q != NULL, "%s: init(ncells=0) failed", ops->name);
    cr_assert(ops->empty(q) && ops->size(q) == 0 && ops->check(q) == 0,
              "%s: fresh queue not empty/valid", ops->name);
    ops->clear(q);
    cr_assert(ops->check(q) == 0, "%s: check after clear", ops->name);
    ops->destroy(q);                /* free() then zeroed: free() again is safe */
}

#define GB_PQ_EXTRA_TESTS(E, Q, N, LAZY, D)                                   \
    GB_TEST(pq_##Q, clear_empties_and_zeroes_counters) { test_clear(&ops_##Q); } \
    GB_TEST(pq_##Q, single_cell) { test_single(&ops_##Q); }                      \
    GB_TEST(pq_##Q, zero_cells_and_free_of_zeroed_queue)                         \
    {                                                                         \
        gb_##Q z;                                                             \
        memset(&z, 0, sizeof z);                                              \
        gb_##Q##_free(&z);                                                    \
        gb_##Q##_free(&z);                                                    \
        test_zero_cells(&ops_##Q);                                            \
    }
GB_PQ_QUEUES(GB_PQ_EXTRA_TESTS)

/* ---- the integer key images used by the array heaps ------------------- */
/* gb_bheap_dk_ent_before on (fkey, gkey, id) must agree with gb_pq_before
 * on (f, g, id) for every pair of keys, including -0, subnormals and
 * DBL_MAX; the bucket queue's inverse image must give back f exactly. */
GB_TEST(pq_keys, integer_images_order_exactly_like_gb_pq_before)
{
    double v[N_EXTREME * 3 + 40];
    size_t nv = 0, a, b, i;
    uint64_t r = 99;
    for (i = 0; i < N_EXTREME; i++) {
        v[nv++] = extreme_keys[i];
        v[nv++] = nextafter(extreme_keys[i], INFINITY);
        v[nv++] = nextafter(extreme_keys[i], 0.0);
    }
    for (i = 0; i < 40; i++) v[nv++] = (double)rnd(&r, 4) * 0.5;  /* many equal */
    for (a = 0; a < nv; a++) {
        cr_assert(gb_bucket_kidx(gb_bheap_dk_fkey(v[a])) == gb_bucket_idx(v[a]),
                  "bucket index of %.17g differs through the key image", v[a]);
        for (b = 0; b < nv; b++) {
            int32_t ia = (int32_t)rnd(&r, 3), ib = (int32_t)rnd(&r, 3);
            double ga = v[(a + b) % nv], gb = v[(a * 7 + b) % nv];
            gb_bheap_dk_ent ea = gb_bheap_dk_ent_make(v[a], ga, ia, 0);
            gb_bheap_dk_ent eb = gb_bheap_dk_ent_make(v[b], gb, ib, 0);
            int want = gb_pq_before(v[a], ga, ia, v[b], gb, ib);
            cr_assert(gb_bheap_dk_ent_before(&ea, &eb) == want,
                      "(%.17g, %.17g, %d) vs (%.17g, %.17g, %d): images say %d, "
                      "gb_pq_before says %d", v[a], ga, (int)ia, v[b], gb, (int)ib,
                      gb_bheap_dk_ent_before(&ea, &eb), want);
        }
    }
}

/* ---- bheap: the front stack (solvers/gb_pq_bheap.h) ------------------- */
/* Every way into the stack, driven through the model (so every pop is
 * checked against the reference and check() runs after each operation),
 * with white-box assertions that each way was really taken: the first
 * push and one after the stack with an empty heap go into the stack; a
 * push that precedes everything goes on top, and once the stack is full
 * its last entry spills to the heap's root; a push between the stack's
 * entries goes inside it; one after the stack but before the heap's root
 * goes to its bottom while there is room; the rest go to the heap. */
GB_TEST(pq_bheap, front_stack_top_spill_inside_bottom_and_heap)
{
    model m;
    const int K = GB_BHEAP_FRONT;
    model_init(&m, &ops_bheap, "front_stack", 200, 5);
    gb_bheap *q = m.q;
    int32_t id = 0;
    do_push(&m, id++, 1000.0, 0.0);                  /* empty: the stack */
    cr_assert(q->fn == 1 && q->n == 0, "first push: fn %zu n %zu", q->fn, q->n);
    do_push(&m, id++, 2000.0, 0.0);                  /* after it, heap empty: bottom */
    cr_assert(q->fn == 2 && q->n == 0 && q->fs[0].id == 1, "bottom: fn %zu n %zu fs[0] %d",
              q->fn, q->n, (int)q->fs[0].id);
    for (int i = 0; i < K; i++)                      /* each precedes all: on top */
        do_push(&m, id++, 900.0 - 10.0 * i, 0.0);
    cr_assert(q->fn == (size_t)K && q->n == 2,
              "after %d pushes on top: fn %zu (want %d), n %zu (want 2 spilled)", K, q->fn,
              K, q->n);
    cr_assert(q->h[0].id == 0 && q->fs[0].id == 2 && q->fs[K - 1].id == K + 1,
              "spilled 1000 to the root (id %d), stack from 900 (id %d) to the top (id %d)",
              (int)q->h[0].id, (int)q->fs[0].id, (int)q->fs[K - 1].id);
    do_push(&m, id++, 1500.0, 0.0);                  /* full stack, after it: heap */
    cr_assert(q->fn == (size_t)K && q->n == 3, "heap: fn %zu n %zu", q->fn, q->n);
    for (int i = 0; i < 4; i++) do_pop(&m);          /* room in the stack */
    cr_assert(q->fn == (size_t)K - 4, "after 4 pops fn %zu", q->fn);
    const size_t fn0 = q->fn;
    do_push(&m, id++, 895.0, 0.0);                   /* between 900 and 890: inside */
    cr_assert(q->fn == fn0 + 1 && q->n == 3 && q->fs[1].id == id - 1,
              "inside: fn %zu n %zu fs[1] %d", q->fn, q->n, (int)q->fs[1].id);
    do_push(&m, id++, 950.0, 0.0);                   /* after the stack, before 1000 */
    cr_assert(q->fn == fn0 + 2 && q->n == 3 && q->fs[0].id == id - 1,
              "bottom: fn %zu n %zu fs[0] %d", q->fn, q->n, (int)q->fs[0].id);
    do_push(&m, id++, 1200.0, 0.0);                  /* after the heap's root: heap */
    cr_assert(q->fn == fn0 + 2 && q->n == 4, "heap: fn %zu n %zu", q->fn, q->n);
    /* ties on f: larger g first, then smaller id */
    do_push(&m, id++, 700.0, 5.0);
    do_push(&m, id++, 700.0, 7.0);
    do_push(&m, id++, 700.0, 7.0);
    do_decrease(&m, id - 1, 700.0, 8.0);             /* a lazy decrease: on top */
    do_drain(&m);
    model_free(&m);
}

/* check() names each broken invariant of the stack. */
GB_TEST(pq_bheap, check_detects_a_broken_front_stack)
{
    gb_bheap q;
    const int K = GB_BHEAP_FRONT;
    cr_assert(gb_bheap_init(&q, K + 2) == 0);
    for (int i = 0; i <= K; i++) gb_bheap_push(&q, i, 100.0 - i, 0.0);   /* one spills */
    cr_assert(q.fn == (size_t)K && q.n == 1 && gb_bheap_check(&q) == 0,
              "fn %zu n %zu check %d", q.fn, q.n, gb_bheap_check(&q));
    gb_bheap_ent t = q.fs[1];                        /* stack order */
    q.fs[1] = q.fs[2];
    q.fs[2] = t;
    cr_assert(gb_bheap_check(&q) == 5, "swapped stack entries: check %d", gb_bheap_check(&q));
    q.fs[2] = q.fs[1];
    q.fs[1] = t;
    t = q.fs[0];
    q.fs[0] = gb_bheap_dk_ent_make(200.0, 0.0, 1, 0);   /* stack after the heap */
    cr_assert(gb_bheap_check(&q) == 4, "stack after heap: check %d", gb_bheap_check(&q));
    q.fs[0] = gb_bheap_dk_ent_make(99.5, 0.0, K + 2, 0);   /* id out of range */
    cr_assert(gb_bheap_check(&q) == 2, "stack id out of range: check %d", gb_bheap_check(&q));
    q.fs[0] = t;
    cr_assert(gb_bheap_check(&q) == 0, "restored: check %d", gb_bheap_check(&q));
    q.fn = (size_t)K + 1;
    cr_assert(gb_bheap_check(&q) == 1, "stack over its size: check %d", gb_bheap_check(&q));
    q.fn = (size_t)K;
    gb_bheap_free(&q);
}
