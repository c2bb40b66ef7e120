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
 *   The queued ids are nodes of a pool (node = {fk, gk, id, nxt, prv},
 *   32 bytes, taken from a LIFO free list so that the nodes in use stay
 *   few and cache-hot; loc[id] names the node of a queued id).  They live
 *   in:
 *     - bucket 0, the HEAP: every node with u <= last.  An exact binary
 *       heap with decrease-key (the core of gb_pq_bheap_dk.h) ordered by
 *       the full gb_pq_before rule; hpos[node] is the node's heap slot;
 *     - buckets b = 1 .. 64: every node with u > last whose highest bit
 *       differing from last is bit b-1, i.e. b = 64 - clz(u ^ last).  Each
 *       is a doubly linked list through nxt/prv (prv = -1 at the head);
 *       bit b-1 of mask says bucket b is non-empty, and head[b] is valid
 *       only then.
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
 * Memory: 64 bytes per cell (node 32, loc 4, hpos 4, heap entry 24).  A
 * pushed key that is not below the last minimum costs O(1): no key
 * comparison at all until its bucket is refilled.
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

/* A bucket this small is moved into the heap whole at a refill. */
#ifndef GB_RADIX_SMALL
#define GB_RADIX_SMALL 32
#endif

/* A pool node: one queued id. */
typedef struct gb_radix_node {
    uint64_t fk;   /* u = gb_bheap_dk_fkey(f) */
    uint64_t gk;   /* gb_bheap_dk_gkey(g) */
    int32_t id;    /* the queued id */
    int32_t nxt;   /* list: next node or -1; free list: next free node */
    int32_t prv;   /* list: previous node, or -1 at the head */
    int32_t pad_;  /* keeps a node at 32 bytes */
} gb_radix_node;

typedef struct gb_radix {
    gb_pq_counters cnt;     /* operation counters, zeroed by clear() */
    gb_radix_node *nd;      /* [ncells] node pool; [0, hw) ever used */
    int32_t *loc;           /* [ncells] node of each queued id */
    int32_t *hpos;          /* [ncells] heap slot of a node in the heap */
    gb_bheap_dk_ent *heap;  /* [ncells] bucket 0 (aux = node) */
    size_t hn;              /* nodes in the heap */
    size_t n;               /* ids in the queue */
    uint64_t last;          /* u of the last refill; heap nodes have u <= last */
    uint64_t mask;          /* bit b-1: bucket b non-empty */
    int32_t head[65];       /* head[b]: first node of bucket b (b = 1..64) */
    int32_t freel;          /* first node of the free list, or -1 */
    int32_t hw;             /* high-water mark of the pool */
    int32_t ncells;         /* ids are in [0, ncells) */
} gb_radix;

/* Bucket of key u > last. */
static inline int gb_radix_bucket_(uint64_t u, uint64_t last)
{
    return 64 - __builtin_clzll(u ^ last);
}

/* Allocate for ids in [0, ncells).  0, or -1 with errno (ENOMEM, or EINVAL
 * for ncells < 0) and *q zeroed. */
/* Bytes gb_radix_init allocates for ncells (>= 0). */
static inline size_t gb_radix_bytes(int32_t ncells)
{
    const gb_radix *q = 0;
    size_t m = ncells > 0 ? (size_t)ncells : 1;
    return m * (sizeof *q->nd + sizeof *q->loc + sizeof *q->hpos + sizeof *q->heap);
}

static inline int gb_radix_init(gb_radix *q, int32_t ncells)
{
    gb_radix z = {0};
    size_t m = ncells > 0 ? (size_t)ncells : 1;
    *q = z;
    if (ncells < 0) { errno = EINVAL; return -1; }
    q->nd = gb_malloc(m * sizeof *q->nd);
    q->loc = gb_malloc(m * sizeof *q->loc);
    q->hpos = gb_malloc(m * sizeof *q->hpos);
    q->heap = gb_malloc(m * sizeof *q->heap);
    if (!q->nd || !q->loc || !q->hpos || !q->heap) {
        gb_free(q->nd); gb_free(q->loc); gb_free(q->hpos); gb_free(q->heap);
        *q = z;
        errno = ENOMEM;
        return -1;
    }
    q->ncells = ncells;
    q->freel = -1;
    return 0;
}

/* Release everything; *q is zeroed.  Safe on a zeroed queue. */
static inline void gb_radix_free(gb_radix *q)
{
    gb_radix z = {0};
    gb_free(q->nd); gb_free(q->loc); gb_free(q->hpos); gb_free(q->heap);
    *q = z;
}

/* Empty the queue and zero the counters.  O(1). */
static inline void gb_radix_clear(gb_radix *q)
{
    gb_pq_counters z = {0};
    q->hn = 0;
    q->n = 0;
    q->last = 0;
    q->mask = 0;
    q->freel = -1;
    q->hw = 0;
    q->cnt = z;
}

static inline int gb_radix_empty(const gb_radix *q) { return q->n == 0; }
static inline size_t gb_radix_size(const gb_radix *q) { return q->n; }

static inline void gb_radix_link_(gb_radix *q, int b, int32_t x)
{
    uint64_t bit = (uint64_t)1 << (b - 1);
    if (q->mask & bit) {
        int32_t h = q->head[b];
        q->nd[x].nxt = h;
        q->nd[h].prv = x;
    } else {
        q->nd[x].nxt = -1;
        q->mask |= bit;
    }
    q->nd[x].prv = -1;
    q->head[b] = x;
}

static inline void gb_radix_unlink_(gb_radix *q, int b, int32_t x)
{
    int32_t p = q->nd[x].prv, y = q->nd[x].nxt;
    if (y >= 0) q->nd[y].prv = p;
    if (p >= 0) q->nd[p].nxt = y;
    else if (y >= 0) q->head[b] = y;
    else q->mask &= ~((uint64_t)1 << (b - 1));
}

/* The heap entry of node x. */
static inline gb_bheap_dk_ent gb_radix_ent_(const gb_radix *q, int32_t x)
{
    gb_bheap_dk_ent e;
    e.fk = q->nd[x].fk;
    e.gk = q->nd[x].gk;
    e.id = q->nd[x].id;
    e.aux = x;
    return e;
}

/* Insert id, which must not be in the queue. */
static inline void gb_radix_push(gb_radix *q, int32_t id, double f, double g)
{
    int32_t x = q->freel;
    uint64_t u = gb_bheap_dk_fkey(f);
    if (x >= 0) q->freel = q->nd[x].nxt;
    else x = q->hw++;
    q->nd[x].fk = u;
    q->nd[x].gk = gb_bheap_dk_gkey(g);
    q->nd[x].id = id;
    q->loc[id] = x;
    if (u <= q->last) gb_bheap_dk_core_push(q->heap, q->hpos, &q->hn, gb_radix_ent_(q, x));
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
static inline void gb_radix_decrease(gb_radix *q, int32_t id, double f, double g)
{
    int32_t x = q->loc[id];
    uint64_t u0 = q->nd[x].fk, u = gb_bheap_dk_fkey(f), gk = gb_bheap_dk_gkey(g);
    uint64_t last = q->last;
    q->cnt.decreases++;
    if (!(u < u0 || (u == u0 && gk < q->nd[x].gk))) return;
    q->nd[x].fk = u;
    q->nd[x].gk = gk;
    if (u0 <= last) {
        gb_bheap_dk_core_up(q->heap, q->hpos, (size_t)q->hpos[x], gb_radix_ent_(q, x));
    } else {
        int b0 = gb_radix_bucket_(u0, last);
        if (u <= last) {
            gb_radix_unlink_(q, b0, x);
            gb_bheap_dk_core_push(q->heap, q->hpos, &q->hn, gb_radix_ent_(q, x));
        } else {
            int b = gb_radix_bucket_(u, last);
            if (b != b0) {
                gb_radix_unlink_(q, b0, x);
                gb_radix_link_(q, b, x);
            }
        }
    }
}

/* The heap is empty and the queue is not: refill it from the least
 * non-empty bucket (see "Operations"). */
static inline void gb_radix_refill_(gb_radix *q)
{
    int b = __builtin_ctzll(q->mask) + 1;
    int32_t x, nx, first = q->head[b];
    uint64_t umin = UINT64_MAX, umax = 0;
    size_t len = 0, k = 0;
    for (x = first; x >= 0; x = q->nd[x].nxt) {
        uint64_t u = q->nd[x].fk;
        if (u < umin) umin = u;
        if (u > umax) umax = u;
        len++;
    }
    q->mask &= ~((uint64_t)1 << (b - 1));
    q->last = len <= GB_RADIX_SMALL ? umax : umin;
    for (x = first; x >= 0; x = nx) {
        uint64_t u = q->nd[x].fk;
        nx = q->nd[x].nxt;
        if (u <= q->last) {
            q->heap[k] = gb_radix_ent_(q, x);
            q->hpos[x] = (int32_t)k++;
        } else {
            gb_radix_link_(q, gb_radix_bucket_(u, q->last), x);
        }
    }
    q->hn = k;
    gb_bheap_dk_core_heapify(q->heap, q->hpos, k);
}

/* Remove and return the first id.  Precondition: not empty. */
static inline int32_t gb_radix_pop(gb_radix *q)
{
    int32_t id, x;
    if (q->hn == 0) gb_radix_refill_(q);
    x = q->heap[0].aux;
    id = gb_bheap_dk_core_pop(q->heap, q->hpos, &q->hn);
    q->nd[x].nxt = q->freel;                  /* release the node */
    q->freel = x;
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
    size_t i, total, nfree = 0;
    int b, rc;
    int32_t x;
    if (q->hn > q->n) return 1;
    if (q->hw < 0 || q->hw > (q->ncells > 0 ? q->ncells : 0)) return 1;
    rc = gb_bheap_dk_core_check(q->heap, q->hpos, q->hn, q->ncells, q->hw);
    if (rc) return rc;
    for (i = 0; i < q->hn; i++) {
        const gb_bheap_dk_ent *e = &q->heap[i];
        const gb_radix_node *v = &q->nd[e->aux];
        if (e->fk != v->fk || e->gk != v->gk || e->id != v->id) return 5;
        if (v->fk > q->last) return 5;
        if (q->loc[e->id] != e->aux) return 11;
    }
    total = q->hn;
    for (b = 1; b <= 64; b++) {
        int32_t p = -1;
        size_t len = 0;
        if (!(q->mask & ((uint64_t)1 << (b - 1)))) continue;
        for (x = q->head[b]; x >= 0; x = q->nd[x].nxt) {
            uint64_t u;
            if (x >= q->hw) return 2;
            if (q->nd[x].id < 0 || q->nd[x].id >= q->ncells) return 2;
            if (q->loc[q->nd[x].id] != x) return 11;
            if (q->nd[x].prv != p) return 7;
            if (++len > q->n) return 7;
            u = q->nd[x].fk;
            if (u <= q->last || gb_radix_bucket_(u, q->last) != b) return 8;
            p = x;
        }
        if (len == 0) return 7;
        total += len;
    }
    for (x = q->freel; x >= 0; x = q->nd[x].nxt) {
        if (x >= q->hw) return 2;
        if (++nfree > (size_t)q->hw) return 1;
    }
    if (total != q->n || nfree + q->n != (size_t)q->hw) return 1;
    return 0;
}

#endif
