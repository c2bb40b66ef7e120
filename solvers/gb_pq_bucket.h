/*
 * gb_pq_bucket.h -- exact bucket queue for real-valued keys (queue "bucket").
 *
 * Bucket index
 *   idx(f) = floor(f * 2^S), S = GB_BUCKET_SHIFT: buckets of width
 *   w = 2^-S (w = 1/256 by default, see "Width"), capped at IDX_CAP = 2^62
 *   for huge keys.  f * 2^S is exact in double arithmetic (scaling by a
 *   power of two only moves the exponent; it cannot underflow since
 *   2^S >= 1, and a product that overflows to +inf lands in the cap like
 *   every key >= 2^(62-S)); the truncating conversion and the cap are
 *   non-decreasing; so idx is monotone and
 *       idx(a) < idx(b)  implies  a < b.                          (M)
 *   No division anywhere: 1/w is the constant 2^S.
 *
 * Data structure
 *   Queued ids are nodes of the shared pool of gb_pq_pool.h (node =
 *   {fk, gk, id, nxt, prv}, 32 bytes; fk, gk are the exact integer images
 *   of f and g from gb_pq_bheap_dk.h, and f is recovered from fk for
 *   idx).  Nodes come from a LIFO free list, so the nodes in use stay few
 *   and cache-hot however large the map; loc[id] names the node of a
 *   queued id; lists link without a branch (gb_pool_link: the back link
 *   of an empty list goes to the scratch node nd[-1]).  With the bucket
 *   counters
 *   base - 1 <= cur < lim = base + nslots, a node lives in one of three
 *   places, decided by idx of its key alone:
 *     - ACTIVE: idx <= cur.  Two parts, S and H, with every entry of S
 *       before every entry of H under gb_pq_before:
 *         S, the FRONT STACK: fs[0 .. fn), fn <= GB_BUCKET_FRONT, strictly
 *           descending, so fs[fn - 1] is the first entry of the queue
 *           whenever fn > 0;
 *         H, the entries {fk, gk, id, node} in heap[]: either a RUN
 *           (hrun = 1): heap[hs .. hn) strictly ascending, popped from
 *           the front; or a HEAP (hrun = 0, hs = 0): the exact binary heap
 *           core of gb_pq_bheap_dk.h with hpos[node] = heap slot.  A run
 *           becomes a heap (an ascending array is a heap; only hpos[] is
 *           set) the moment anything must enter or move inside H;
 *     - WINDOW: cur < idx < lim.  Slot s = idx - base of nslots (a power
 *       of two, 4096 .. 2^18, about ncells) holds a doubly linked list of
 *       nodes through nxt/prv (prv = -1 at the head); head[s] is its first
 *       node, -1 exactly when the slot is empty.  A three-level bitmap
 *       (bm0 a bit per slot, bm1 a bit per bm0 word, bm2 a bit per bm1
 *       word) marks the non-empty slots;
 *     - OVERFLOW: idx >= lim (keys beyond the window), one doubly linked
 *       list through the same nxt/prv.
 *
 * Operations
 *   push: idx <= cur -> active; < lim -> slot list; else overflow.  A key
 *   at or below the current bucket (weighted A*, greedy search) thus goes
 *   straight into the exact active set.  The slot link has no branch on
 *   the list: the new node's nxt is head[s] (-1 for an empty slot), the
 *   back link goes to nd[head[s]] (the scratch nd[-1] for an empty slot);
 *   the slot's bm0 bit is set unconditionally, the bm1 and bm2 bits only
 *   when its bm0 word was empty (a non-empty word has them set already:
 *   -1.3% instructions on Dijkstra, -2% on A*).
 *   Entering the active set (push, or a decrease into it), entry e goes
 *   into S when it comes before S's last entry fs[0] -- or, with S empty,
 *   before H's first entry (or H is empty) -- at its sorted place; else
 *   into H.  A full S first moves fs[0] to H: in front of a run when there
 *   is room (hs > 0), else into the heap (it precedes all of H either
 *   way).  On an f-plateau of A* (ties go to larger g) a successor is
 *   usually the very next entry to pop: it goes on top of S and comes back
 *   in O(1), with no sift up and down the heap.
 *   decrease: the new idx is <= the old one.  In S: move the entry towards
 *   the top (S is searched linearly; it is short).  In H: sift up; if the
 *   entry now comes before fs[0], take it off the heap's top and insert it
 *   into S.  In a list: unlink and re-place by the new idx (no move when
 *   the slot, or the overflow, stays the same).
 *   pop: the top of S if any, else the run's front (both inlined into the
 *   search loop), else the heap's top; if the active set is empty, refill
 *   it first: the first non-empty slot after cur (a few ctz on the bitmap)
 *   becomes cur, and its whole list is copied into heap[] and sorted into
 *   a run (at most GB_BUCKET_RUN entries, see "Sorting a bucket") or
 *   heapified (Floyd).  If the window is empty too, rebase: scan the
 *   overflow for its least idx m, set base = cur = m, lim = m + nslots,
 *   move the nodes with idx == m to the active set and those below lim to
 *   the window.
 *
 * Exactness.  Invariant: active nodes have idx <= cur, all others
 * idx > cur.  By (M) every active key is strictly smaller in f than every
 * other key, so the first active entry under gb_pq_before is the first
 * entry of the whole queue; and since every entry of S precedes every
 * entry of H, the first active entry is S's top when S is not empty, else
 * the run's front or the heap's top.  Each way into S keeps that order:
 * an entry goes into S only when it precedes fs[0] or (S empty) H's first
 * entry, hence all of H; an entry goes into H only when S's last entry
 * fs[0] precedes it or S is empty; fs[0] moved to H precedes all of H;
 * a decrease only makes an entry earlier, and one in H that overtakes
 * fs[0] is moved to S.  A refill takes the least non-empty bucket (window
 * slots are in idx order; the overflow holds only idx >= lim, beyond every
 * slot), so the invariant survives it, and nothing in the argument depends
 * on the order of pushes: keys below the last popped one are exact too.
 * Window slots <= cur - base are always empty, so the bitmap is all clear
 * whenever a rebase happens.
 *
 * Sorting a bucket.  With k <= GB_BUCKET_RUN entries, each entry gets a
 * packed 64-bit key (pack_sort_): its fk and gk relative to those of the
 * first entry, biased, in 14-bit fields, then the id (31 bits) and its
 * index (5 bits).  When every difference fits, the packed key is strictly
 * monotone in (fk, gk, id), so sorting the packed keys sorts the entries;
 * up to 16 keys go through a sorting network (Batcher's odd-even merge
 * sort on 4, 8 or 16 inputs, padded with the largest key) that has no
 * data-dependent branch -- an insertion sort mispredicts about once per
 * entry.  Otherwise (keys far apart: A* buckets) an insertion sort on the
 * entries.  Buckets hold few entries: on random512-10-0 Dijkstra
 * (100 queries) 3.8 on average, 96% of the refills with 2 to 32 entries
 * pack.
 *
 * Exact keys (pushk / decreasek, solvers/gb_exact.h).  The key fk is
 * the integer D(f) and idx = fk >> GB_BUCKET_XSHIFT (a shift: monotone,
 * so (M) holds); one bucket spans 2^24 key units = 1/189 of a straight
 * step.  Equal costs are equal keys, so a bucket holds few distinct keys,
 * and on Dijkstra (fk + gk the same for every entry: h = 0) its order is
 * (fk, id): pack_xsort_ packs (fk - bucket start) << 36 | id << 5 | i,
 * which always fits (no fallback, no comparison), and sorts it with the
 * same networks.  The width does not matter on A* (1/16 to 8 times it
 * gave the same instruction count within 0.1%): its buckets are exact
 * f-plateaus.
 *
 * A* exact buckets.  An A* bucket is an f-plateau of a few to thousands
 * of entries that differ in g (so pack_xsort_ refuses it, on its first
 * test); heapifying it and popping costs 2 log k comparisons per pop.
 * When (fk, gk, id) relative to the bucket's least fk and gk packs into
 * 64 bits (bit lengths of the ranges plus that of ncells - 1), radix_run_
 * sorts the packed keys into a run, then O(1) per pop: up to 16 keys by
 * a network, up to GB_BUCKET_RADIX_MIN by networks on blocks of 16 (the
 * rest by insertion) and a merge sort of the blocks, more by an LSD radix
 * sort (one byte per pass), all in heap[]'s own memory.  Before, buckets
 * of at most GB_BUCKET_RUN entries went to an insertion sort on 24-byte
 * entries and larger ones to a merge sort from single keys: A* octile on
 * AR0011SR went from 506 to 484 instructions per expansion (callgrind,
 * 100 queries).
 *
 * Dijkstra mode (solvers/gb_pq_lanes.h).  A search with h = 0 calls
 * pushk_dij / decreasek_dij / pop_dij (gb_queues.h: lazy flag 2), and its
 * first push puts the queue in a second structure: two sorted FIFO lanes,
 * one per edge cost, which take exactly the pushes of a Dijkstra search
 * on exact keys (f = g, the key one step S or T beyond the last popped
 * one), with no bucket, list, bitmap or node; equal keys pop in id order
 * (a sorting network per group of equal keys, 3.6 ids on average).
 * Decrease there is lazy (a second entry; the search skips the stale
 * one).  The first push that a lane does not take moves every lane entry
 * into the buckets (an id held twice keeps its better key), and the query
 * goes on in the bucket mode described here.  The other entry points
 * never look at the lanes, so A* and the rest run the code they ran
 * before.  Dijkstra on random512-10-0 (callgrind, 40 queries): 298 -> 220
 * instructions per expansion; AR0011SR 315 -> 233.
 *
 * Dijkstra, bucket mode.  With w <= 1 (the least edge cost), a key pushed after popping
 * f >= cur*w is >= f + 1 >= (cur+1)*w: nothing ever enters the active set
 * between refills, so each bucket is sorted once and then popped in O(1).
 *
 * Width.  Measured on a full single-source Dijkstra (512x512 grid, 10%
 * random obstacles, 8-connected without corner cutting, 236042
 * expansions; best of 45 runs, the machine shared): S = 0, 2, 4, 6, 8, 9,
 * 10, 12 gave 18.9, 16.8, 15.1, 13.3, 12.6, 12.5, 13.2, 13.3 ms.  Many
 * cells share g = a + b*sqrt2, but the doubles are not equal: the same
 * a + b*sqrt2 summed along different paths differs in the last places.
 * So below w ~ 1/64 a bucket holds a few keys a few ulps apart (on
 * random512-10-0 Dijkstra, 100 queries, S = 10, 12 and 14 give identical
 * buckets: 3.97M refills for 14.5M pops, 40% of them with one distinct
 * key; S = 8: 3.80M, 37%), and the cost is sorting them; finer buckets then only add bitmap
 * steps and shrink the window (nslots * w f-units).  w = 1/256 is on the
 * flat optimum and keeps a 2^18-slot window at 1024 f-units.
 *
 * Cost (callgrind, instructions of the search function per expansion,
 * 100 sampled queries, random512-10-0 / AR0011SR), before -> after the
 * front stack, the branch-free slot link, the packed sort and the inlined
 * push and pop: A* octile 868 / 729 -> 580 / 631; Dijkstra 343 / 343 ->
 * 331 / 349.  Dijkstra wall time (scripts/bench.sh, 223 queries, side by
 * side with the lazy binary heap): random512-10-0 18.3 -> 21.5 M
 * expansions/s (1.37x -> 1.53x the heap); AR0011SR unchanged within the
 * noise (about 34 M/s, 1.8x).
 *
 * Memory: 64 bytes per cell (the pool: node 32, loc 4, hpos 4, heap entry 24) plus
 * 4.1 bytes per slot and the front stack (24 * GB_BUCKET_FRONT bytes, in
 * the struct), plus 32 bytes per cell for the lanes of the Dijkstra mode.
 * clear() is O(non-empty slots + 1): it walks the bitmap,
 * never the cells.
 *
 * Time complexity: push O(1), O(GB_BUCKET_FRONT) into S, or O(log k) into
 * an active heap of k; decrease O(1), O(GB_BUCKET_FRONT) or O(log k); pop
 * O(1) from S or a run, O(log k) from a heap, plus O(1) amortised per node
 * moved at a refill (O(k^2) worst case for a run of k <= GB_BUCKET_RUN
 * that does not pack); a rebase is O(overflow size) and happens at most
 * once per nslots buckets of progress.  check O(n + nslots).
 */
#ifndef GB_PQ_BUCKET_H
#define GB_PQ_BUCKET_H

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gb_alloc.h"
#include "gb_pq.h"
#include "gb_pq_bheap_dk.h"
#include "gb_pq_lanes.h"
#include "gb_pq_pool.h"


/* The hot paths of push and pop are inlined into the search loop; the
 * rare paths (refill, active set, overflow) are kept out of it. */
#if defined(__GNUC__)
#define GB_BUCKET_HOT inline __attribute__((always_inline))
#define GB_BUCKET_COLD __attribute__((noinline, unused))
#else
#define GB_BUCKET_HOT inline
#define GB_BUCKET_COLD inline
#endif

/* Bucket width w = 2^-GB_BUCKET_SHIFT (see "Width" above). */
#ifndef GB_BUCKET_SHIFT
#define GB_BUCKET_SHIFT 8
#endif
#define GB_BUCKET_SCALE ((double)(1u << GB_BUCKET_SHIFT))   /* 1/w, exact */
/* Exact keys: bucket width 2^GB_BUCKET_XSHIFT key units (see "Exact
 * keys"); at most 28 (the packed sort keeps 28 bits of a key offset). */
#ifndef GB_BUCKET_XSHIFT
#define GB_BUCKET_XSHIFT 24
#endif
_Static_assert(GB_BUCKET_XSHIFT <= 28, "pack_xsort_ keeps 28 bits of a key offset");
#define GB_BUCKET_IDX_CAP ((int64_t)1 << 62)   /* idx of every huge key */
#define GB_BUCKET_MIN_SLOTS 4096
#define GB_BUCKET_MAX_SLOTS (1 << 18)          /* bm2 covers 64*64*64 slots */
/* A bucket of at most this many nodes is sorted into a run at a refill. */
#ifndef GB_BUCKET_RUN
#define GB_BUCKET_RUN 32
#endif
_Static_assert(GB_BUCKET_RUN <= 32, "pack_sort_ keeps an entry index in 5 bits");
/* Capacity of the front stack (see "Front stack" above). */
#ifndef GB_BUCKET_FRONT
#define GB_BUCKET_FRONT 32
#endif

typedef struct gb_bucket {
    gb_pq_counters cnt;     /* operation counters, zeroed by clear() */
    gb_pool p;              /* nodes (nd[-1] is the scratch node of the
                               slot links), loc[], and the active set's
                               rest H in heap[] -- a run or a heap, aux =
                               node -- with hpos[] (heap mode only) */
    gb_bheap_dk_ent fs[GB_BUCKET_FRONT]; /* the front stack S: fs[0 .. fn)
                               strictly descending, fs[fn - 1] pops next */
    size_t fn;              /* entries in the front stack */
    int32_t *head;          /* [nslots] first node of a slot's list, -1
                               exactly when the slot is empty */
    uint64_t *bm0;          /* [nslots/64] bit s: slot s non-empty */
    uint64_t *bm1;          /* [nslots/4096 rounded up] bit w: bm0[w] != 0 */
    uint64_t bm2;           /* bit v: bm1[v] != 0 */
    size_t hn;              /* end of the active entries in heap[] */
    size_t hs;              /* run mode: first active entry; heap mode: 0 */
    int hrun;               /* 1: heap[hs..hn) is a sorted run; 0: a heap */
    size_t n;               /* ids in the queue */
    size_t novf;            /* nodes in the overflow list */
    int64_t base;           /* bucket index of slot 0 */
    int64_t cur;            /* current bucket: active nodes have idx <= cur */
    int64_t lim;            /* base + nslots: overflow nodes have idx >= lim */
    int32_t ovf;            /* first node of the overflow list, or -1 */
    int32_t nslots;         /* window slots, a power of two */
    int exact;              /* 1: keys are exact (pushk, gb_exact.h), idx =
                               fk >> GB_BUCKET_XSHIFT; 0: doubles (push) */
    int lanes;              /* 1: Dijkstra mode, every entry is in ln and
                               the buckets are empty (see "Dijkstra mode") */
    gb_lanes ln;            /* the two lanes of the Dijkstra mode */
} gb_bucket;

/* Bucket index of key f >= 0 (see (M) above). */
static inline int64_t gb_bucket_idx(double f)
{
    double t = f * GB_BUCKET_SCALE;
    return t < (double)GB_BUCKET_IDX_CAP ? (int64_t)t : GB_BUCKET_IDX_CAP;
}

/* Bucket index of an exact key D (gb_exact.h): its top bits. */
static inline int64_t gb_bucket_xidx(uint64_t fk)
{
    return (int64_t)(fk >> GB_BUCKET_XSHIFT);
}

/* Bucket index of a key image fk = gb_bheap_dk_fkey(f): undo the bit flips
 * to get f back (exactly), then gb_bucket_idx. */
static inline int64_t gb_bucket_kidx(uint64_t fk)
{
    uint64_t u = fk ^ ((fk >> 63) ? (uint64_t)1 << 63 : ~(uint64_t)0);
    double f;
    memcpy(&f, &u, sizeof f);
    return gb_bucket_idx(f);
}

/* Bucket index of a stored key of q: gb_bucket_xidx for exact keys,
 * gb_bucket_kidx for the images of doubles. */
static inline int64_t gb_bucket_qidx_(const gb_bucket *q, uint64_t fk)
{
    return q->exact ? gb_bucket_xidx(fk) : gb_bucket_kidx(fk);
}

/* Window slots for ncells: about ncells, a power of two in
 * [GB_BUCKET_MIN_SLOTS, GB_BUCKET_MAX_SLOTS]. */
static inline int32_t gb_bucket_nslots_(int32_t ncells)
{
    int32_t ns = GB_BUCKET_MIN_SLOTS;
    while (ns < ncells && ns < GB_BUCKET_MAX_SLOTS) ns *= 2;
    return ns;
}

/* Bytes gb_bucket_init allocates for ncells (>= 0). */
static inline size_t gb_bucket_bytes(int32_t ncells)
{
    const gb_bucket *q = 0;
    size_t ns = (size_t)gb_bucket_nslots_(ncells);
    return gb_pool_bytes(ncells) + ns * sizeof *q->head + ns / 64 * sizeof *q->bm0
         + (ns / 64 + 63) / 64 * sizeof *q->bm1 + gb_lanes_bytes(ncells);
}

/* Allocate for ids in [0, ncells).  0, or -1 with errno (ENOMEM, or EINVAL
 * for ncells < 0) and *q zeroed. */
static inline int gb_bucket_init(gb_bucket *q, int32_t ncells)
{
    gb_bucket z = {0};
    int32_t ns = gb_bucket_nslots_(ncells);
    *q = z;
    if (gb_pool_init(&q->p, ncells) != 0) return -1;
    q->head = gb_malloc((size_t)ns * sizeof *q->head);
    q->bm0 = gb_calloc((size_t)ns / 64, sizeof *q->bm0);
    q->bm1 = gb_calloc(((size_t)ns / 64 + 63) / 64, sizeof *q->bm1);
    if (!q->head || !q->bm0 || !q->bm1 || gb_lanes_init(&q->ln, ncells) != 0) {
        gb_pool_free(&q->p);
        gb_free(q->head); gb_free(q->bm0); gb_free(q->bm1);
        *q = z;
        errno = ENOMEM;
        return -1;
    }
    memset(q->head, 0xff, (size_t)ns * sizeof *q->head);   /* all -1 */
    q->nslots = ns;
    q->ovf = -1;
    q->cur = -1;
    q->lim = ns;
    return 0;
}

/* Release everything; *q is zeroed.  Safe on a zeroed queue. */
static inline void gb_bucket_free(gb_bucket *q)
{
    gb_bucket z = {0};
    gb_pool_free(&q->p);
    gb_free(q->head); gb_free(q->bm0); gb_free(q->bm1);
    gb_lanes_free(&q->ln);
    *q = z;
}

/* Empty the queue and zero the counters.  Walks the set bits of the
 * bitmap only: O(non-empty slots + 1), not O(ncells). */
static inline void gb_bucket_clear(gb_bucket *q)
{
    gb_pq_counters z = {0};
    uint64_t m2 = q->bm2;
    while (m2) {
        int v = __builtin_ctzll(m2);
        uint64_t m1 = q->bm1[v];
        m2 &= m2 - 1;
        while (m1) {
            uint32_t w0 = ((uint32_t)v << 6) | (uint32_t)__builtin_ctzll(m1);
            uint64_t m0 = q->bm0[w0];
            while (m0) {
                q->head[(w0 << 6) | (uint32_t)__builtin_ctzll(m0)] = -1;
                m0 &= m0 - 1;
            }
            q->bm0[w0] = 0;
            m1 &= m1 - 1;
        }
        q->bm1[v] = 0;
    }
    q->bm2 = 0;
    q->hn = 0;
    q->hs = 0;
    q->hrun = 0;
    q->fn = 0;
    q->n = 0;
    q->novf = 0;
    q->ovf = -1;
    gb_pool_clear(&q->p);
    q->base = 0;
    q->cur = -1;
    q->lim = q->nslots;
    q->cnt = z;
    q->lanes = 0;
}

static inline int gb_bucket_empty(const gb_bucket *q) { return q->n == 0; }
static inline size_t gb_bucket_size(const gb_bucket *q) { return q->n; }

/* Put node x at the head of slot s's list.  No branch on the list: an
 * empty slot has head -1, and the back link then goes to the scratch node
 * nd[-1]; bm1 and bm2 are set only when the slot's bm0 word was empty. */
static GB_BUCKET_HOT void gb_bucket_slot_link_(gb_bucket *q, uint32_t s, int32_t x)
{
    uint32_t w0 = s >> 6;
    uint64_t m0 = q->bm0[w0];
    gb_pool_link(&q->p, &q->head[s], x);
    q->bm0[w0] = m0 | (uint64_t)1 << (s & 63);
    if (__builtin_expect(m0 == 0, 0)) {       /* the word was empty */
        q->bm1[w0 >> 6] |= (uint64_t)1 << (w0 & 63);
        q->bm2 |= (uint64_t)1 << (w0 >> 6);
    }
}

/* Mark slot s empty in the three bitmap levels. */
static inline void gb_bucket_slot_clear_(gb_bucket *q, uint32_t s)
{
    uint32_t w0 = s >> 6;
    if ((q->bm0[w0] &= ~((uint64_t)1 << (s & 63))) == 0
        && (q->bm1[w0 >> 6] &= ~((uint64_t)1 << (w0 & 63))) == 0)
        q->bm2 &= ~((uint64_t)1 << (w0 >> 6));
}

/* Take node x out of slot s's list. */
static inline void gb_bucket_slot_unlink_(gb_bucket *q, uint32_t s, int32_t x)
{
    if (gb_pool_unlink(&q->p, &q->head[s], x)) gb_bucket_slot_clear_(q, s);
}

static inline void gb_bucket_ovf_link_(gb_bucket *q, int32_t x)
{
    gb_pool_link(&q->p, &q->ovf, x);
    q->novf++;
}

static inline void gb_bucket_ovf_unlink_(gb_bucket *q, int32_t x)
{
    gb_pool_unlink(&q->p, &q->ovf, x);
    q->novf--;
}

/* Turn the sorted run heap[hs..hn) into a heap at heap[0..) (a sorted
 * array is a heap) and set hpos[] of its nodes. */
static inline void gb_bucket_to_heap_(gb_bucket *q)
{
    size_t i, k = q->hn - q->hs;
    if (q->hs) memmove(q->p.heap, q->p.heap + q->hs, k * sizeof *q->p.heap);
    for (i = 0; i < k; i++) q->p.hpos[q->p.heap[i].aux] = (int32_t)i;
    q->hs = 0;
    q->hn = k;
    q->hrun = 0;
}

/* Put e into H (the active set's run or heap); a run becomes a heap. */
static inline void gb_bucket_h_push_(gb_bucket *q, gb_bheap_dk_ent e)
{
    if (q->hrun) gb_bucket_to_heap_(q);
    gb_bheap_dk_core_push(q->p.heap, q->p.hpos, &q->hn, e);
}

/* Put e, which precedes every entry of H, into H: in front of a run when
 * there is room, else as a heap entry. */
static inline void gb_bucket_h_push_front_(gb_bucket *q, gb_bheap_dk_ent e)
{
    if (q->hrun && q->hs > 0) q->p.heap[--q->hs] = e;
    else if (q->hn == 0) { q->p.heap[0] = e; q->hn = 1; q->hrun = 1; }
    else gb_bucket_h_push_(q, e);
}

/* Insert e, which precedes every entry of H, into the front stack; when
 * the stack is full its last-popping entry fs[0] moves to H first. */
static inline void gb_bucket_s_insert_(gb_bucket *q, gb_bheap_dk_ent e)
{
    size_t j;
    if (q->fn == GB_BUCKET_FRONT) {
        gb_bucket_h_push_front_(q, q->fs[0]);
        memmove(q->fs, q->fs + 1, (GB_BUCKET_FRONT - 1) * sizeof *q->fs);
        q->fn--;
    }
    for (j = q->fn; j > 0 && gb_bheap_dk_ent_before(&q->fs[j - 1], &e); j--)
        q->fs[j] = q->fs[j - 1];
    q->fs[j] = e;
    q->fn++;
}

/* Enter entry e (of a node with idx <= cur) into the active set: into the
 * front stack when it precedes every entry of H and, unless the stack is
 * empty, the stack's last entry fs[0]; else into H. */
static inline void gb_bucket_act_push_(gb_bucket *q, gb_bheap_dk_ent e)
{
    if (q->fn ? gb_bheap_dk_ent_before(&e, &q->fs[0])
              : (q->hn == q->hs || gb_bheap_dk_ent_before(&e, &q->p.heap[q->hs]))) {
        gb_bucket_s_insert_(q, e);
    } else
        gb_bucket_h_push_(q, e);
}

/* Place node x (bucket index i) where the invariants say. */
static inline void gb_bucket_place_(gb_bucket *q, int32_t x, int64_t i)
{
    if (i <= q->cur)
        gb_bucket_act_push_(q, gb_pool_ent(&q->p, x));
    else if (i < q->lim)
        gb_bucket_slot_link_(q, (uint32_t)(i - q->base), x);
    else
        gb_bucket_ovf_link_(q, x);
}

/* place_ for the rare cases, out of the search loop. */
static GB_BUCKET_COLD void gb_bucket_place_cold_(gb_bucket *q, int32_t x, int64_t i)
{
    gb_bucket_place_(q, x, i);
}

static void gb_bucket_lanes_off_(gb_bucket *q);

/* Insert id, which must not be in the queue. */
static GB_BUCKET_HOT void gb_bucket_push(gb_bucket *q, int32_t id, double f, double g)
{
    int64_t i = gb_bucket_idx(f);
    int32_t x = gb_pool_take(&q->p, id, gb_bheap_dk_fkey(f), gb_bheap_dk_gkey(g));
    q->exact = 0;
    if (i > q->cur && i < q->lim) gb_bucket_slot_link_(q, (uint32_t)(i - q->base), x);
    else gb_bucket_place_cold_(q, x, i);
    q->n++;
    q->cnt.pushes++;
    if (q->n > q->cnt.peak) q->cnt.peak = q->n;
}

/* pushk into the buckets (not the lanes). */
static GB_BUCKET_HOT void gb_bucket_bpushk_(gb_bucket *q, int32_t id, uint64_t fk, uint64_t gk)
{
    int64_t i = gb_bucket_xidx(fk);
    int32_t x = gb_pool_take(&q->p, id, fk, gk);
    q->exact = 1;
    if (i > q->cur && i < q->lim) gb_bucket_slot_link_(q, (uint32_t)(i - q->base), x);
    else gb_bucket_place_cold_(q, x, i);
    q->n++;
    q->cnt.pushes++;
    if (q->n > q->cnt.peak) q->cnt.peak = q->n;
}

/* Dijkstra mode: append to a lane if the entry may enter one (1), else
 * leave the mode (0). */
static GB_BUCKET_HOT int gb_bucket_lpush_(gb_bucket *q, int32_t id, uint64_t fk, uint64_t gk)
{
    int k = gb_lanes_fits(&q->ln, fk, gk, q->ln.gn == 0);
    if (__builtin_expect(k < 0, 0)) {
        gb_bucket_lanes_off_(q);
        return 0;
    }
    gb_lanes_append(&q->ln, k, id, fk);
    q->n++;
    q->cnt.pushes++;
    if (q->n > q->cnt.peak) q->cnt.peak = q->n;
    return 1;
}

/* Enter the Dijkstra mode (lanes empty, last = 0); returns 1. */
static inline int gb_bucket_lanes_on_(gb_bucket *q)
{
    gb_lanes_clear(&q->ln);
    q->lanes = 1;
    return 1;
}

/* push with an exact key: fk = D(f), gk = ~D(g) (gb_exact.h).  All
 * pushes between two clears use one kind of key. */
static GB_BUCKET_HOT void gb_bucket_pushk(gb_bucket *q, int32_t id, uint64_t fk, uint64_t gk)
{
    gb_bucket_bpushk_(q, id, fk, gk);
}

/* pushk for a search with h = 0 (Dijkstra: f = g), through the Dijkstra
 * mode (gb_queues.h: lazy = 2; the search cores call it through
 * gb_q_pushk_dij).  Same contract as pushk, and: a query (the operations
 * between two clears) that uses pushk_dij / decreasek_dij / pop_dij uses
 * them for every push, decrease and pop.  The first pushk_dij of a query
 * enters the mode; a push no lane takes leaves it for good. */
static GB_BUCKET_HOT void gb_bucket_pushk_dij(gb_bucket *q, int32_t id, uint64_t fk,
                                              uint64_t gk)
{
    if ((q->lanes || (q->cnt.pushes == 0 && gb_bucket_lanes_on_(q)))
        && gb_bucket_lpush_(q, id, fk, gk))
        return;
    gb_bucket_bpushk_(q, id, fk, gk);
}

/* id is in the queue and (f, g) precedes its key: move it.
 * If (f, g) does not precede the current key -- the search core does that
 * when a better g leaves f unchanged, as in greedy search, where the
 * larger-g-first rule ranks the new key behind the old one -- the key is
 * kept: the queue holds the minimum of the keys it was given, which is
 * also the entry a lazy queue pops first, so all queues still agree. */
static inline void gb_bucket_decrease_(gb_bucket *q, int32_t id, uint64_t fk, uint64_t gk,
                                       int64_t i, const int exact)
{
    int32_t x = q->p.loc[id];
    int64_t oi;
    q->cnt.decreases++;
    if (!(fk < q->p.nd[x].fk || (fk == q->p.nd[x].fk && gk < q->p.nd[x].gk))) return;
    oi = exact ? gb_bucket_xidx(q->p.nd[x].fk) : gb_bucket_qidx_(q, q->p.nd[x].fk);
    q->p.nd[x].fk = fk;
    q->p.nd[x].gk = gk;
    if (oi <= q->cur) {                       /* active */
        gb_bheap_dk_ent e = gb_pool_ent(&q->p, x);
        size_t j;
        for (j = 0; j < q->fn; j++)
            if (q->fs[j].aux == x) {              /* in S: move towards the top */
                for (; j + 1 < q->fn && gb_bheap_dk_ent_before(&e, &q->fs[j + 1]); j++)
                    q->fs[j] = q->fs[j + 1];
                q->fs[j] = e;
                return;
            }
        if (q->hrun) gb_bucket_to_heap_(q);   /* in H: sift up */
        gb_bheap_dk_core_up(q->p.heap, q->p.hpos, (size_t)q->p.hpos[x], e);
        if (q->fn && !gb_bheap_dk_ent_before(&q->fs[0], &q->p.heap[0])) {
                                              /* now precedes S's last: */
            gb_bheap_dk_core_pop(q->p.heap, q->p.hpos, &q->hn);   /* x is the root */
            gb_bucket_s_insert_(q, e);
        }
        return;
    }
    if (oi < q->lim) {                        /* in a window slot */
        if (i == oi) return;
        gb_bucket_slot_unlink_(q, (uint32_t)(oi - q->base), x);
    } else {                                  /* in the overflow */
        if (i >= q->lim) return;
        gb_bucket_ovf_unlink_(q, x);
    }
    gb_bucket_place_(q, x, i);
}

static inline void gb_bucket_decrease(gb_bucket *q, int32_t id, double f, double g)
{
    gb_bucket_decrease_(q, id, gb_bheap_dk_fkey(f), gb_bheap_dk_gkey(g), gb_bucket_idx(f), 0);
}

/* decrease with an exact key (see gb_bucket_pushk). */
static inline void gb_bucket_decreasek(gb_bucket *q, int32_t id, uint64_t fk, uint64_t gk)
{
    gb_bucket_decrease_(q, id, fk, gk, gb_bucket_xidx(fk), 1);
}

/* decreasek for a search with h = 0: lazy in the Dijkstra mode (see
 * gb_bucket_pushk_dij). */
static GB_BUCKET_HOT void gb_bucket_decreasek_dij(gb_bucket *q, int32_t id, uint64_t fk,
                                                  uint64_t gk)
{
    if (q->lanes && gb_bucket_lpush_(q, id, fk, gk)) {
        q->cnt.decreases++;                   /* lazy: a new entry */
        return;
    }
    gb_bucket_decrease_(q, id, fk, gk, gb_bucket_xidx(fk), 1);
}

/* First non-empty slot >= from, or -1. */
static inline int64_t gb_bucket_find_(const gb_bucket *q, uint32_t from)
{
    uint32_t w0, w1, nw0 = (uint32_t)q->nslots >> 6;
    uint64_t m;
    if (from >= (uint32_t)q->nslots) return -1;
    w0 = from >> 6;
    m = q->bm0[w0] & (~(uint64_t)0 << (from & 63));
    if (m) return (int64_t)((w0 << 6) | (uint32_t)__builtin_ctzll(m));
    if (++w0 >= nw0) return -1;
    w1 = w0 >> 6;
    m = q->bm1[w1] & (~(uint64_t)0 << (w0 & 63));
    if (!m) {
        if (++w1 >= (nw0 + 63) >> 6) return -1;
        m = q->bm2 & (~(uint64_t)0 << w1);
        if (!m) return -1;
        w1 = (uint32_t)__builtin_ctzll(m);
        m = q->bm1[w1];
    }
    w0 = (w1 << 6) | (uint32_t)__builtin_ctzll(m);
    return (int64_t)((w0 << 6) | (uint32_t)__builtin_ctzll(q->bm0[w0]));
}

/* Put node x's entry at heap[k], unordered; hpos[] is set only if the
 * loaded entries become a heap. */
static inline void gb_bucket_load_(gb_bucket *q, size_t k, int32_t x)
{
    q->p.heap[k] = gb_pool_ent(&q->p, x);
}

/* One compare-exchange of a sorting network on packed keys (no branch). */
#define GB_BUCKET_CX_(p, i, j)                                               \
    do {                                                                     \
        uint64_t a_ = (p)[i], b_ = (p)[j];                                   \
        (p)[i] = a_ < b_ ? a_ : b_;                                          \
        (p)[j] = a_ < b_ ? b_ : a_;                                          \
    } while (0)

/* Batcher's odd-even merge sort networks on 4, 8 and 16 keys (5, 19, 63
 * compare-exchanges; the sequences are gb_pq_lanes.h's GB_SORTNET*):
 * each sorts its two halves with the smaller one and then merges them. */
static inline void gb_bucket_net4_(uint64_t *p)
{
    GB_SORTNET4(GB_BUCKET_CX_, p);
}
static inline void gb_bucket_net8_(uint64_t *p)
{
    gb_bucket_net4_(p);
    gb_bucket_net4_(p + 4);
    GB_SORTNET8_MERGE(GB_BUCKET_CX_, p);
}
static inline void gb_bucket_net16_(uint64_t *p)
{
    gb_bucket_net8_(p);
    gb_bucket_net8_(p + 8);
    GB_SORTNET16_MERGE(GB_BUCKET_CX_, p);
}

/* Packed sort keys: 5 bits of index, 31 of id, 14 and 14 of the g and f
 * differences (shifts of the g and f fields). */
#define GB_BUCKET_PK_G 36
#define GB_BUCKET_PK_F 50

/* Sort heap[0 .. k), 2 <= k <= GB_BUCKET_RUN, through packed keys:
 *   key = df << 50 | dg << 36 | id << 5 | i,
 *   df = fk - fk0 + 2^13,  dg = gk - gk0 + 2^13   (mod 2^64)
 * with fk0, gk0 those of entry 0 and i < 32 the entry's index.  When every df and dg is
 * below 2^14 (the differences to entry 0 lie in [-2^13, 2^13); keys are
 * finite, so no difference comes within 2^13 of 2^64 and a difference
 * outside that range always shows as df or dg >= 2^14), df and dg are strictly monotone in fk and gk,
 * so the key is strictly monotone in (fk, gk, id) -- the order of
 * gb_bheap_dk_ent_before (ids are distinct, i never decides).  Within a
 * bucket keys differ by a few units in the last place (Dijkstra: the same
 * a + b*sqrt2 summed in different orders), so they fit, and up to 16 keys
 * are sorted by a network without data-dependent branches (padded with
 * the largest key), more by insertion.  Returns 0, with nothing moved,
 * when some difference does not fit. */
static inline int gb_bucket_pack_sort_(gb_bucket *q, size_t k)
{
    gb_bheap_dk_ent *h = q->p.heap;
    const unsigned sf = GB_BUCKET_PK_F, sg = GB_BUCKET_PK_G;
    const uint64_t bf = h[0].fk - ((uint64_t)1 << (63 - sf)),
                   bg = h[0].gk - ((uint64_t)1 << (sf - sg - 1));
    uint64_t p[GB_BUCKET_RUN + 16], d = 0;
    int32_t xs[GB_BUCKET_RUN];
    size_t i, j;
    for (i = 0; i < k; i++) {
        uint64_t df = h[i].fk - bf, dg = h[i].gk - bg;
        d |= df >> (64 - sf) | dg >> (sf - sg);
        p[i] = df << sf | dg << sg | (uint64_t)(uint32_t)h[i].id << 5 | i;
        xs[i] = h[i].aux;
    }
    if (d) return 0;
    for (i = 0; i < 16; i++) p[k + i] = UINT64_MAX;
    if (k <= 4) gb_bucket_net4_(p);
    else if (k <= 8) gb_bucket_net8_(p);
    else if (k <= 16) gb_bucket_net16_(p);
    else
        for (i = 1; i < k; i++) {
            uint64_t v = p[i];
            for (j = i; j > 0 && v < p[j - 1]; j--) p[j] = p[j - 1];
            p[j] = v;
        }
    for (i = 0; i < k; i++) h[i] = gb_pool_ent(&q->p, xs[p[i] & 31]);
    return 1;
}

/* Sort heap[0 .. k), 2 <= k <= GB_BUCKET_RUN, of a bucket of exact keys
 * whose entries all have the same fk + gk (mod 2^64) -- the same h:
 * always in Dijkstra, where fk = D(g) and gk = ~D(g) -- so that gk is a
 * decreasing function of fk and (fk, gk, id) order is (fk, id) order:
 *   key = (fk - fk0) << 36 | id << 5 | i,
 * fk0 = the bucket's least possible key (its index << GB_BUCKET_XSHIFT),
 * so fk - fk0 < 2^GB_BUCKET_XSHIFT <= 2^28 always fits: this packing
 * never fails on a Dijkstra bucket.  Returns 0, with nothing moved, when
 * the entries do not share fk + gk. */
static inline int gb_bucket_pack_xsort_(gb_bucket *q, size_t k)
{
    gb_bheap_dk_ent *h = q->p.heap;
    const uint64_t b0 = (uint64_t)q->cur << GB_BUCKET_XSHIFT, c0 = h[0].fk + h[0].gk;
    uint64_t p[GB_BUCKET_RUN + 16], d = 0;
    int32_t xs[GB_BUCKET_RUN];
    size_t i, j;
    if ((h[k - 1].fk + h[k - 1].gk) ^ c0) return 0;   /* A*: fails at once */
    for (i = 0; i < k; i++) {
        d |= (h[i].fk + h[i].gk) ^ c0;
        p[i] = (h[i].fk - b0) << 36 | (uint64_t)(uint32_t)h[i].id << 5 | i;
        xs[i] = h[i].aux;
    }
    if (d) return 0;
    /* pad to the network's size only; 2 and 3 keys by hand */
    if (k == 2) GB_BUCKET_CX_(p, 0, 1);
    else if (k == 3) { GB_BUCKET_CX_(p, 0, 2); GB_BUCKET_CX_(p, 0, 1); GB_BUCKET_CX_(p, 1, 2); }
    else if (k <= 4) gb_bucket_net4_(p);
    else if (k <= 8) { for (i = k; i < 8; i++) p[i] = UINT64_MAX; gb_bucket_net8_(p); }
    else if (k <= 16) { for (i = k; i < 16; i++) p[i] = UINT64_MAX; gb_bucket_net16_(p); }
    else
        for (i = 1; i < k; i++) {
            uint64_t v = p[i];
            for (j = i; j > 0 && v < p[j - 1]; j--) p[j] = p[j - 1];
            p[j] = v;
        }
    for (i = 0; i < k; i++) h[i] = gb_pool_ent(&q->p, xs[p[i] & 31]);
    return 1;
}

/* Exact buckets of fewer entries are merge-sorted (the radix sort's
 * 256-entry prefix sums per byte cost more than the merges below this). */
#ifndef GB_BUCKET_RADIX_MIN
#define GB_BUCKET_RADIX_MIN 1024
#endif

/* Bit length of v (0 for 0). */
static inline unsigned gb_bucket_bits_(uint64_t v)
{
    return v ? 64u - (unsigned)__builtin_clzll(v) : 0u;
}

/* Sort heap[0 .. k), k >= 2, of a bucket of exact keys into a
 * run by sorting packed keys, in place (see "A* exact buckets"):
 *   key = (fk - fmin) << (gb + ib) | (gk - gmin) << ib | id,
 * gb, ib the bit lengths of gmax - gmin and ncells - 1: strictly monotone
 * in (fk, gk, id) when the three fit in 64 bits.  Up to 16 keys are
 * sorted by a network on a copy; fewer than GB_BUCKET_RADIX_MIN by
 * networks on blocks of 16 (the last, short block by insertion) and a
 * merge sort of the blocks; more by an LSD radix sort.  The entries are
 * copies of the pool's nodes, so once packed, heap[]'s 3k words are
 * scratch: keys go to words [0, k), the byte passes (or merge rounds)
 * alternate between [0, k) and [k, 2k), the result is copied to
 * [2k, 3k) unless the last pass wrote there, and entry j, rebuilt from the
 * node loc[id], overwrites only words below 3j + 3 <= 2k + j + 1 -- keys
 * already read.  Returns 0, with nothing moved, when the key does not fit
 * in 64 bits. */
static inline int gb_bucket_radix_run_(gb_bucket *q, size_t k)
{
    gb_bheap_dk_ent *h = q->p.heap;
    uint64_t fmin = h[0].fk, fmax = h[0].fk, gmin = h[0].gk, gmax = h[0].gk;
    uint64_t *w = (uint64_t *)(void *)h, *src, *dst;
    uint32_t cnt[8][256];
    unsigned fb, gbits, ib, np, pass;
    size_t i;
    for (i = 1; i < k; i++) {
        uint64_t f = h[i].fk, g = h[i].gk;
        fmin = f < fmin ? f : fmin; fmax = f > fmax ? f : fmax;
        gmin = g < gmin ? g : gmin; gmax = g > gmax ? g : gmax;
    }
    fb = gb_bucket_bits_(fmax - fmin);
    gbits = gb_bucket_bits_(gmax - gmin);
    ib = gb_bucket_bits_((uint64_t)(q->p.ncells > 1 ? q->p.ncells - 1 : 1));
    if (fb + gbits + ib > 64) return 0;
    np = k < GB_BUCKET_RADIX_MIN ? 0 : (fb + gbits + ib + 7) / 8;
    memset(cnt, 0, (size_t)np * sizeof cnt[0]);
    for (i = 0; i < k; i++) {              /* word i lies in entry i/3 <= i: read */
        /* a field of 0 bits is 0: no shift by 64 (fb > 0 makes gb + ib < 64) */
        uint64_t key = (fb ? (h[i].fk - fmin) << (gbits + ib) : 0)
                     | (gbits ? (h[i].gk - gmin) << ib : 0) | (uint64_t)(uint32_t)h[i].id;
        w[i] = key;
        for (pass = 0; pass < np; pass++) cnt[pass][(key >> (8 * pass)) & 255]++;
    }
    if (k <= 16) {                         /* a network on a copy, no pass */
        uint64_t p[16];
        memcpy(p, w, k * sizeof *w);
        for (i = k; i < 16; i++) p[i] = UINT64_MAX;
        if (k <= 4) gb_bucket_net4_(p);
        else if (k <= 8) gb_bucket_net8_(p);
        else gb_bucket_net16_(p);
        for (i = 0; i < k; i++) {
            int32_t id = (int32_t)(p[i] & (((uint64_t)1 << ib) - 1));
            h[i] = gb_pool_ent(&q->p, q->p.loc[id]);
        }
        return 1;
    }
    src = w;
    if (k < GB_BUCKET_RADIX_MIN) {         /* merge sort: [0, k) <-> [k, 2k) */
        uint64_t *a = w, *t = w + k, *u;
        size_t wd, lo;
        (void)cnt;
        for (lo = 0; lo + 16 <= k; lo += 16) gb_bucket_net16_(a + lo);   /* runs of 16 */
        for (wd = lo + 1; wd < k; wd++) {   /* the rest by insertion */
            uint64_t v = a[wd];
            size_t j;
            for (j = wd; j > lo && v < a[j - 1]; j--) a[j] = a[j - 1];
            a[j] = v;
        }
        for (wd = 16; wd < k; wd *= 2) {
            for (lo = 0; lo < k; lo += 2 * wd) {
                size_t mid = lo + wd < k ? lo + wd : k, hi = lo + 2 * wd < k ? lo + 2 * wd : k;
                size_t x = lo, y = mid, o = lo;
                while (x < mid && y < hi) t[o++] = a[y] < a[x] ? a[y++] : a[x++];
                memcpy(t + o, a + x, (mid - x) * sizeof *a);   /* one of the two is empty */
                o += mid - x;
                memcpy(t + o, a + y, (hi - y) * sizeof *a);
            }
            u = a; a = t; t = u;
        }
        src = a;
        np = 0;
    }
    for (pass = 0; pass < np; pass++) {
        uint32_t sum = 0, c;
        unsigned d;
        if (cnt[pass][(src[0] >> (8 * pass)) & 255] == k) continue;   /* one digit: no move */
        dst = pass + 1 == np ? w + 2 * k : (src == w ? w + k : w);
        for (d = 0; d < 256; d++) { c = cnt[pass][d]; cnt[pass][d] = sum; sum += c; }
        for (i = 0; i < k; i++) dst[cnt[pass][(src[i] >> (8 * pass)) & 255]++] = src[i];
        src = dst;
    }
    if (src != w + 2 * k) memcpy(w + 2 * k, src, k * sizeof *w);   /* disjoint */
    src = w + 2 * k;
    for (i = 0; i < k; i++) {
        int32_t id = (int32_t)(src[i] & (((uint64_t)1 << ib) - 1));
        h[i] = gb_pool_ent(&q->p, q->p.loc[id]);
    }
    return 1;
}

/* The active set is empty and the queue is not: move the least bucket
 * into it (from the window, or by rebasing the window on the overflow) and
 * sort it into a run or heapify it. */
static GB_BUCKET_COLD void gb_bucket_refill_(gb_bucket *q)
{
    size_t k = 0;
    int64_t s = gb_bucket_find_(q, (uint32_t)(q->cur - q->base + 1));
    int32_t x;
    if (s >= 0) {
        q->cur = q->base + s;
        for (x = q->head[s]; x >= 0; x = q->p.nd[x].nxt) gb_bucket_load_(q, k++, x);
        q->head[s] = -1;
        gb_bucket_slot_clear_(q, (uint32_t)s);
    } else {
        /* Window empty: rebase on the least overflow bucket.  Every slot
         * bit is clear here (slots <= cur - base are always empty). */
        int64_t m = GB_BUCKET_IDX_CAP;
        int32_t nx;
        for (x = q->ovf; x >= 0; x = q->p.nd[x].nxt) {
            int64_t i = gb_bucket_qidx_(q, q->p.nd[x].fk);
            if (i < m) m = i;
        }
        q->base = q->cur = m;
        q->lim = m + q->nslots;
        for (x = q->ovf; x >= 0; x = nx) {
            int64_t i = gb_bucket_qidx_(q, q->p.nd[x].fk);
            nx = q->p.nd[x].nxt;
            if (i >= q->lim) continue;
            gb_bucket_ovf_unlink_(q, x);
            if (i == m) gb_bucket_load_(q, k++, x);
            else gb_bucket_slot_link_(q, (uint32_t)(i - m), x);
        }
    }
    q->hn = k;
    q->hs = 0;
    q->hrun = 1;
    if (k < 2 || (k <= GB_BUCKET_RUN && (q->exact ? gb_bucket_pack_xsort_(q, k)
                                                : gb_bucket_pack_sort_(q, k))))
        return;
    if (q->exact && gb_bucket_radix_run_(q, k)) return;
    if (k <= GB_BUCKET_RUN) {                 /* insertion sort: a run */
        size_t i, j;
        gb_bheap_dk_ent *h = q->p.heap;
        for (i = 1; i < k; i++) {
            gb_bheap_dk_ent e = h[i];
            for (j = i; j > 0 && gb_bheap_dk_ent_before(&e, &h[j - 1]); j--) h[j] = h[j - 1];
            h[j] = e;
        }
    } else {
        size_t i;
        for (i = 0; i < k; i++) q->p.hpos[q->p.heap[i].aux] = (int32_t)i;
        gb_bheap_dk_core_heapify(q->p.heap, q->p.hpos, k);
        q->hrun = 0;
    }
}

/* pop when the front stack is empty and the active set is not a non-empty
 * run: refill if needed, then take the run's front or the heap's top. */
static GB_BUCKET_COLD int32_t gb_bucket_pop_cold_(gb_bucket *q, int32_t *xp)
{
    if (q->hn == q->hs) gb_bucket_refill_(q);
    if (q->hrun) {
        *xp = q->p.heap[q->hs].aux;
        return q->p.heap[q->hs++].id;
    }
    *xp = q->p.heap[0].aux;
    return gb_bheap_dk_core_pop(q->p.heap, q->p.hpos, &q->hn);
}

/* Remove and return the first id (the front stack's top, else the run's
 * front or the heap's top); the node goes back to the free list.
 * Precondition: not empty. */
static GB_BUCKET_HOT int32_t gb_bucket_bpop_(gb_bucket *q)
{
    int32_t id, x;
    if (q->fn) {                              /* the front stack's top */
        q->fn--;
        x = q->fs[q->fn].aux;
        id = q->fs[q->fn].id;
    } else if (q->hrun && q->hs < q->hn) {    /* the run's front */
        x = q->p.heap[q->hs].aux;
        id = q->p.heap[q->hs++].id;
    } else
        id = gb_bucket_pop_cold_(q, &x);
    gb_pool_give(&q->p, x);                   /* release the node */
    q->n--;
    q->cnt.pops++;
    return id;
}

/* pop in the Dijkstra mode: the group's next id, else the next group. */
static GB_BUCKET_HOT int32_t gb_bucket_lpop_(gb_bucket *q)
{
    gb_lanes *l = &q->ln;
    int32_t id = l->gi < l->gn ? l->grp[l->gi++] : gb_lanes_next(l);
    q->n--;
    q->cnt.pops++;
    return id;
}

static GB_BUCKET_HOT int32_t gb_bucket_pop(gb_bucket *q)
{
    return gb_bucket_bpop_(q);
}

/* pop for a search with h = 0 (see gb_bucket_pushk_dij). */
static GB_BUCKET_HOT int32_t gb_bucket_pop_dij(gb_bucket *q)
{
    if (q->lanes) return gb_bucket_lpop_(q);
    return gb_bucket_bpop_(q);
}

/* Leave the Dijkstra mode for the rest of the query: every entry of the
 * lanes and the group goes into the buckets (an id held twice -- a lazy
 * decrease -- keeps its better key), the counters stay as they were. */
static GB_BUCKET_COLD void gb_bucket_lanes_off_(gb_bucket *q)
{
    gb_lanes *l = &q->ln;
    const gb_pq_counters c = q->cnt;
    size_t i;
    int k, pass;
    q->lanes = 0;
    q->n = 0;
    for (pass = 0; pass < 2; pass++) {        /* 0: mark ids, 1: enter them */
        for (i = l->gi; i < l->gn; i++) {
            if (!pass) { q->p.loc[l->grp[i]] = -1; continue; }
            if (q->p.loc[l->grp[i]] < 0) gb_bucket_bpushk_(q, l->grp[i], l->last, ~l->last);
            else gb_bucket_decrease_(q, l->grp[i], l->last, ~l->last, gb_bucket_xidx(l->last), 1);
        }
        for (k = 0; k < 2; k++)
            for (i = l->hd[k]; i < l->tl[k]; i++) {
                int32_t id = l->id[k][i];
                uint64_t fk = l->key[k][i];
                if (!pass) { q->p.loc[id] = -1; continue; }
                if (q->p.loc[id] < 0) gb_bucket_bpushk_(q, id, fk, ~fk);
                else gb_bucket_decrease_(q, id, fk, ~fk, gb_bucket_xidx(fk), 1);
            }
    }
    gb_lanes_clear(l);
    q->cnt = c;
}

/* 0 when the invariants hold, else a code: 1 counts (n, hs/hn, novf,
 * pool) do not add up, 2 id or node out of range, 3 run not strictly
 * ascending or heap order broken, 4 heap slot index (hpos) wrong, 5 active
 * entry differs from its node or has idx > cur,
 * 6 bitmap levels inconsistent, 7 slot list malformed (links, longer
 * than n, or an empty slot whose head is not -1), 8 node in the wrong slot or outside (cur, lim), 9 overflow list
 * malformed or node with idx < lim, 10 bounds (base, cur, lim) wrong,
 * 11 loc[] of a queued id does not name its node, 12 front stack not
 * strictly descending or its last entry not before H's first. */
static inline int gb_bucket_check(const gb_bucket *q)
{
    size_t i, total, nw0 = (size_t)q->nslots >> 6, nw1 = (nw0 + 63) >> 6;
    int32_t x, p;
    int rc;
    if (q->lanes) {                           /* Dijkstra mode: buckets empty */
        if (q->bm2 || q->hn != q->hs || q->fn || q->novf) return 1;
        if ((rc = gb_pool_check_free(&q->p, 0)) != 0) return rc;
        if ((rc = gb_lanes_check(&q->ln, q->p.ncells)) != 0) return rc;
        return gb_lanes_size(&q->ln) == q->n ? 0 : 1;
    }
    if (q->lim != q->base + q->nslots || q->cur < q->base - 1 || q->cur >= q->lim)
        return 10;
    if (q->hs > q->hn || q->fn > GB_BUCKET_FRONT || q->hn - q->hs + q->fn > q->n
        || q->novf > q->n) return 1;
    if ((rc = gb_pool_check_free(&q->p, q->n)) != 0) return rc;
    if (q->hrun) {                            /* a strictly ascending run */
        for (i = q->hs; i < q->hn; i++) {
            const gb_bheap_dk_ent *e = &q->p.heap[i];
            if (e->id < 0 || e->id >= q->p.ncells || e->aux < 0 || e->aux >= q->p.hw) return 2;
            if (i > q->hs && !gb_bheap_dk_ent_before(&q->p.heap[i - 1], e)) return 3;
        }
    } else {
        if (q->hs != 0) return 1;
        rc = gb_bheap_dk_core_check(q->p.heap, q->p.hpos, q->hn, q->p.ncells, q->p.hw);
        if (rc) return rc;
    }
    for (i = q->hs; i < q->hn; i++) {
        const gb_bheap_dk_ent *e = &q->p.heap[i];
        gb_bheap_dk_ent w = gb_pool_ent(&q->p, e->aux);
        if (e->fk != w.fk || e->gk != w.gk || e->id != w.id) return 5;
        if (gb_bucket_qidx_(q, q->p.nd[e->aux].fk) > q->cur) return 5;
        if (q->p.loc[e->id] != e->aux) return 11;
    }
    for (i = 0; i < nw1; i++) {
        uint64_t want = 0;
        size_t j;
        for (j = 0; j < 64 && i * 64 + j < nw0; j++)
            if (q->bm0[i * 64 + j]) want |= (uint64_t)1 << j;
        if (q->bm1[i] != want) return 6;
        if (!!(q->bm2 & ((uint64_t)1 << i)) != (want != 0)) return 6;
    }
    if (nw1 < 64 && (q->bm2 >> nw1) != 0) return 6;
    for (i = 0; i < q->fn; i++) {             /* the front stack */
        const gb_bheap_dk_ent *e = &q->fs[i];
        if (e->id < 0 || e->id >= q->p.ncells || e->aux < 0 || e->aux >= q->p.hw) return 2;
        if (i > 0 && !gb_bheap_dk_ent_before(e, &q->fs[i - 1])) return 12;
        {
            gb_bheap_dk_ent w = gb_pool_ent(&q->p, e->aux);
            if (e->fk != w.fk || e->gk != w.gk || e->id != w.id) return 5;
        }
        if (gb_bucket_qidx_(q, q->p.nd[e->aux].fk) > q->cur) return 5;
        if (q->p.loc[e->id] != e->aux) return 11;
    }
    if (q->fn && q->hn > q->hs && !gb_bheap_dk_ent_before(&q->fs[0], &q->p.heap[q->hs]))
        return 12;
    total = q->hn - q->hs + q->fn;
    for (i = 0; i < (size_t)q->nslots; i++) {
        size_t len = 0;
        if (!(q->bm0[i >> 6] & ((uint64_t)1 << (i & 63)))) {
            if (q->head[i] != -1) return 7;   /* an empty slot has head -1 */
            continue;
        }
        if ((int64_t)i <= q->cur - q->base) return 8;
        p = -1;
        for (x = q->head[i]; x >= 0; x = q->p.nd[x].nxt) {
            if ((rc = gb_pool_check_node(&q->p, x)) != 0) return rc;
            if (q->p.nd[x].prv != p) return 7;
            if (++len > q->n) return 7;
            if (gb_bucket_qidx_(q, q->p.nd[x].fk) != q->base + (int64_t)i) return 8;
            p = x;
        }
        if (len == 0) return 7;
        total += len;
    }
    p = -1;
    i = 0;
    for (x = q->ovf; x >= 0; x = q->p.nd[x].nxt) {
        if ((rc = gb_pool_check_node(&q->p, x)) != 0) return rc;
        if (q->p.nd[x].prv != p) return 9;
        if (++i > q->n) return 9;
        if (gb_bucket_qidx_(q, q->p.nd[x].fk) < q->lim) return 9;
        p = x;
    }
    if (i != q->novf) return 9;
    total += i;
    return total == q->n ? 0 : 1;
}

#endif
