/*
 * gb_pq_radix.h -- radix heap on the bits of f (queue "radix").
 *
 * Key mapping
 *   u(f) = gb_bheap_dk_fkey(f): the IEEE-754 bit pattern of f + 0.0 (so
 *   -0.0 becomes +0.0) read as a uint64, with the sign bit flipped (all
 *   bits flipped for f < 0, which the contract excludes anyway).  For
 *   finite f >= +0 the pattern is exponent-then-mantissa, so
 *   a < b iff u(a) < u(b), and a == b iff u(a) == u(b): u is strictly
 *   monotone.  The same image orders the heap entries, so a node keeps
 *   u (and the g image) instead of the doubles.
 *
 * Data structure
 *   last is the u of the last refill (initially 0, below every key).
 *   The queued ids are nodes of the shared pool of gb_pq_pool.h (node =
 *   {fk, gk, id, nxt, prv}, 32 bytes, from a LIFO free list so that the
 *   nodes in use stay few and cache-hot; loc[id] names the node of a
 *   queued id).  They live in:
 *     - bucket 0, the HEAP: every node with u <= last.  An exact binary
 *       heap with decrease-key (the core of gb_pq_bheap_dk.h) ordered by
 *       the full gb_pq_before rule; hpos[node] is the node's heap slot;
 *     - buckets b = 1 .. 64: every node with u > last whose highest bit
 *       differing from last is bit b-1, i.e. b = 64 - clz(u ^ last).  Each
 *       is a pool list (gb_pool_link: head[b] = -1 exactly when empty);
 *       bit b-1 of mask says bucket b is non-empty.
 *   The place of a node is a function of its key and last.  Decrease-key
 *   is direct (not lazy): an id has exactly one node.
 *
 * Operations
 *   push: u <= last -> heap (a key below the last minimum, as weighted A*
 *   and greedy search produce, is ordered exactly there); else the list of
 *   its bucket.
 *   decrease: in the heap, sift up.  In bucket b: the new u' is below u;
 *   if u' <= last it goes to the heap, else its bucket is
 *   64 - clz(u' ^ last) <= b (u' lies between last and u, so it shares
 *   their common prefix above bit b-1): relink if it changed.
 *   pop: if the heap is empty, refill it from the least non-empty bucket b
 *   (ctz of mask).  One pass over b's list gives its size and its least
 *   and greatest keys umin, umax.  If it holds at most GB_RADIX_SMALL
 *   nodes they all go to the heap and last = umax; otherwise last = umin,
 *   the nodes with u == umin go to the heap and the others are spread over
 *   the buckets below b.  Then pop the heap.
 *
 * Exactness.  Invariant: heap nodes have u <= last, every other node has
 * u > last.  Since u is strictly monotone, every heap key is smaller in f
 * than every key outside the heap, so the heap top (exact gb_pq_before
 * order inside the heap) is the first entry of the whole queue.  The
 * refill keeps it: every node of bucket b agrees with the old last above
 * bit b-1 and has bit b-1 set where last has 0, so any new last L taken
 * from b (umin or umax) keeps each node of a bucket j > b in bucket j (its
 * first difference with L is still bit j-1, where it has the 1) and above
 * L; buckets below b are empty at a refill.  With last = umax all of b is
 * <= last and goes to the heap; with last = umin the nodes above umin
 * differ from it below bit b-1 and land in lower buckets.  (The queue
 * tests pass with GB_RADIX_SMALL forced to 0 and to a huge value too.)
 *
 * Memory: 64 bytes per cell (the pool: node 32, loc 4, hpos 4, heap entry
 * 24).  A pushed key that is not below the last minimum costs O(1): no
 * key comparison at all until its bucket is refilled.
 *
 * Time complexity: push O(1) or O(log k) (heap of k); decrease O(1) or
 * O(log k); pop O(log k) plus O(1) per bucket move, each node moving to a
 * lower bucket at most 63 times; clear O(1); check O(n).
 */
#ifndef GB_PQ_RADIX_H
#define GB_PQ_RADIX_H

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "gb_alloc.h"
#include "gb_pq.h"
#include "gb_pq_bheap_dk.h"
#include "gb_pq_pool.h"

/* A bucket this small is moved into the heap whole at a refill. */
#ifndef GB_RADIX_SMALL
#define GB_RADIX_SMALL 32
#endif

typedef struct gb_radix {
    gb_pq_counters cnt;     /* operation counters, zeroed by clear() */
    gb_pool p;              /* nodes, loc[], and the heap (bucket 0) with
                               hpos[] (gb_pq_pool.h) */
    size_t hn;              /* nodes in the heap */
    size_t n;               /* ids in the queue */
    uint64_t last;          /* u of the last refill; heap nodes have u <= last */
    uint64_t mask;          /* bit b-1: bucket b non-empty */
    int32_t head[65];       /* head[b]: first node of bucket b (b = 1..64),
                               -1 exactly when bucket b is empty */
} gb_radix;

/* Bucket of key u > last. */
static inline int gb_radix_bucket_(uint64_t u, uint64_t last)
{
    return 64 - __builtin_clzll(u ^ last);
}

/* Bytes gb_radix_init allocates for ncells (>= 0). */
static inline size_t gb_radix_bytes(int32_t ncells)
{
    return gb_pool_bytes(ncells);
}

/* Allocate for ids in [0, ncells).  0, or -1 with errno (ENOMEM, or EINVAL
 * for ncells < 0) and *q zeroed. */
static inline int gb_radix_init(gb_radix *q, int32_t ncells)
{
    gb_radix z = {0};
    *q = z;
    if (gb_pool_init(&q->p, ncells) != 0) return -1;
    for (int b = 0; b <= 64; b++) q->head[b] = -1;
    return 0;
}

/* Release everything; *q is zeroed.  Safe on a zeroed queue. */
static inline void gb_radix_free(gb_radix *q)
{
    gb_radix z = {0};
    gb_pool_free(&q->p);
    *q = z;
}

/* Empty the queue and zero the counters.  O(1). */
static inline void gb_radix_clear(gb_radix *q)
{
    gb_pq_counters z = {0};
    for (int b = 0; b <= 64; b++) q->head[b] = -1;
    q->hn = 0;
    q->n = 0;
    q->last = 0;
    q->mask = 0;
    gb_pool_clear(&q->p);
    q->cnt = z;
}

static inline int gb_radix_empty(const gb_radix *q) { return q->n == 0; }
static inline size_t gb_radix_size(const gb_radix *q) { return q->n; }

static inline void gb_radix_link_(gb_radix *q, int b, int32_t x)
{
    gb_pool_link(&q->p, &q->head[b], x);
    q->mask |= (uint64_t)1 << (b - 1);
}

static inline void gb_radix_unlink_(gb_radix *q, int b, int32_t x)
{
    if (gb_pool_unlink(&q->p, &q->head[b], x)) q->mask &= ~((uint64_t)1 << (b - 1));
}

/* Insert id, which must not be in the queue. */
static inline void gb_radix_pushk(gb_radix *q, int32_t id, uint64_t u, uint64_t gk)
{
    int32_t x = gb_pool_take(&q->p, id, u, gk);
    if (u <= q->last) gb_bheap_dk_core_push(q->p.heap, q->p.hpos, &q->hn, gb_pool_ent(&q->p, x));
    else gb_radix_link_(q, gb_radix_bucket_(u, q->last), x);
    q->n++;
    q->cnt.pushes++;
    if (q->n > q->cnt.peak) q->cnt.peak = q->n;
}

/* id is in the queue and (f, g) precedes its key: move it.
 * If (f, g) does not precede the current key -- the search core does that
 * when a better g leaves f unchanged, as in greedy search, where the
 * larger-g-first rule ranks the new key behind the old one -- the key is
 * kept: the queue holds the minimum of the keys it was given, which is
 * also the entry a lazy queue pops first, so all queues still agree. */
static inline void gb_radix_decreasek(gb_radix *q, int32_t id, uint64_t u, uint64_t gk)
{
    int32_t x = q->p.loc[id];
    uint64_t u0 = q->p.nd[x].fk;
    uint64_t last = q->last;
    q->cnt.decreases++;
    if (!(u < u0 || (u == u0 && gk < q->p.nd[x].gk))) return;
    q->p.nd[x].fk = u;
    q->p.nd[x].gk = gk;
    if (u0 <= last) {
        gb_bheap_dk_core_up(q->p.heap, q->p.hpos, (size_t)q->p.hpos[x], gb_pool_ent(&q->p, x));
    } else {
        int b0 = gb_radix_bucket_(u0, last);
        if (u <= last) {
            gb_radix_unlink_(q, b0, x);
            gb_bheap_dk_core_push(q->p.heap, q->p.hpos, &q->hn, gb_pool_ent(&q->p, x));
        } else {
            int b = gb_radix_bucket_(u, last);
            if (b != b0) {
                gb_radix_unlink_(q, b0, x);
                gb_radix_link_(q, b, x);
            }
        }
    }
}

/* push and decrease with double keys: the integer images of (f, g). */
static inline void gb_radix_push(gb_radix *q, int32_t id, double f, double g)
{
    gb_radix_pushk(q, id, gb_bheap_dk_fkey(f), gb_bheap_dk_gkey(g));
}
static inline void gb_radix_decrease(gb_radix *q, int32_t id, double f, double g)
{
    gb_radix_decreasek(q, id, gb_bheap_dk_fkey(f), gb_bheap_dk_gkey(g));
}

/* The heap is empty and the queue is not: refill it from the least
 * non-empty bucket (see "Operations"). */
static inline void gb_radix_refill_(gb_radix *q)
{
    int b = __builtin_ctzll(q->mask) + 1;
    int32_t x, nx, first = q->head[b];
    uint64_t umin = UINT64_MAX, umax = 0;
    size_t len = 0, k = 0;
    for (x = first; x >= 0; x = q->p.nd[x].nxt) {
        uint64_t u = q->p.nd[x].fk;
        if (u < umin) umin = u;
        if (u > umax) umax = u;
        len++;
    }
    q->mask &= ~((uint64_t)1 << (b - 1));
    q->head[b] = -1;
    q->last = len <= GB_RADIX_SMALL ? umax : umin;
    for (x = first; x >= 0; x = nx) {
        uint64_t u = q->p.nd[x].fk;
        nx = q->p.nd[x].nxt;
        if (u <= q->last) {
            q->p.heap[k] = gb_pool_ent(&q->p, x);
            q->p.hpos[x] = (int32_t)k++;
        } else {
            gb_radix_link_(q, gb_radix_bucket_(u, q->last), x);
        }
    }
    q->hn = k;
    gb_bheap_dk_core_heapify(q->p.heap, q->p.hpos, k);
}

/* Remove and return the first id.  Precondition: not empty. */
static inline int32_t gb_radix_pop(gb_radix *q)
{
    int32_t id, x;
    if (q->hn == 0) gb_radix_refill_(q);
    x = q->p.heap[0].aux;
    id = gb_bheap_dk_core_pop(q->p.heap, q->p.hpos, &q->hn);
    gb_pool_give(&q->p, x);                   /* release the node */
    q->n--;
    q->cnt.pops++;
    return id;
}

/* 0 when the invariants hold, else a code: 1 counts (n, hn, pool) do not
 * add up, 2 id or node out of range, 3 heap order, 4 heap slot index
 * (hpos) wrong, 5 heap entry differs from its node or has u > last,
 * 7 bucket list malformed (links, or longer than n), 8 node in the wrong
 * bucket, 11 loc[] of a queued id does not name its node. */
static inline int gb_radix_check(const gb_radix *q)
{
    size_t i, total;
    int b, rc;
    int32_t x;
    if (q->hn > q->n) return 1;
    if ((rc = gb_pool_check_free(&q->p, q->n)) != 0) return rc;
    rc = gb_bheap_dk_core_check(q->p.heap, q->p.hpos, q->hn, q->p.ncells, q->p.hw);
    if (rc) return rc;
    for (i = 0; i < q->hn; i++) {
        const gb_bheap_dk_ent *e = &q->p.heap[i];
        const gb_pool_node *v = &q->p.nd[e->aux];
        if (e->fk != v->fk || e->gk != v->gk || e->id != v->id) return 5;
        if (v->fk > q->last) return 5;
        if (q->p.loc[e->id] != e->aux) return 11;
    }
    total = q->hn;
    for (b = 1; b <= 64; b++) {
        int32_t p = -1;
        size_t len = 0;
        if (!(q->mask & ((uint64_t)1 << (b - 1)))) {
            if (q->head[b] != -1) return 7;   /* an empty bucket has head -1 */
            continue;
        }
        for (x = q->head[b]; x >= 0; x = q->p.nd[x].nxt) {
            uint64_t u;
            if ((rc = gb_pool_check_node(&q->p, x)) != 0) return rc;
            if (q->p.nd[x].prv != p) return 7;
            if (++len > q->n) return 7;
            u = q->p.nd[x].fk;
            if (u <= q->last || gb_radix_bucket_(u, q->last) != b) return 8;
            p = x;
        }
        if (len == 0) return 7;
        total += len;
    }
    return total == q->n ? 0 : 1;
}

#endif
