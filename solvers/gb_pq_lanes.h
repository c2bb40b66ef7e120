/*
 * gb_pq_lanes.h -- the bucket queue's Dijkstra mode: two sorted FIFO
 * lanes, one per edge cost, and no sort of keys at all.
 *
 * Idea (the few-distinct-lengths Dijkstra of Orlin, Madduri, Subramani &
 * Williamson, J. Discrete Algorithms 8(2), 2010; Dial's buckets are its
 * one-length case).  On the grids every edge costs S or T in exact keys
 * (gb_exact.h: a straight or a diagonal step), and Dijkstra pushes
 * key = last + S or last + T, last the key popped last, which never
 * decreases.  So the keys pushed with +S arrive in nondecreasing order,
 * and so do those pushed with +T: each kind appended to its own array
 * stays sorted, and the queue's least key is at the head of one of the
 * two arrays.  Push is an append; pop compares two heads.
 *
 * Data structure
 *   lane l (0: +S, 1: +T): key[l][hd[l] .. tl[l]) and id[l][...], the
 *   entries not yet popped, in push order; tl[l] <= cap = ncells.
 *   grp[gi .. gn): the rest of the GROUP being popped -- the ids of every
 *   entry whose key equals last, taken off the lane heads together and
 *   sorted by id, so equal keys pop in id order like every other queue
 *   (gb_pq.h: with f = g the rule (f, larger g, id) is (key, id)).
 *   n = lane entries + group rest.
 *
 * Invariants (gb_lanes_check)
 *   (L1) each lane's keys are nondecreasing from hd to tl;
 *   (L2) once a group was formed (gn > 0), every lane key is > last;
 *   (L3) grp[gi .. gn) is ascending and its entries have key last.
 *   pop takes grp[gi++] while the group lasts, else forms the next group
 *   from the entries of key min(heads), which by (L1) are exactly the
 *   lanes' leading runs of that key.  So pops come in (key, id) order.
 *
 * What may enter (gb_lanes_fits): an entry with gk = ~fk (f = g, h = 0)
 * and fk = last + S (lane 0) or last + T (lane 1), or, before the first
 * pop, fk = last = 0 (lane 0: the start).  (L1) holds since last never
 * decreases; (L2) since S, T > 0.  Anything else -- A* keys (h > 0),
 * double keys, a full lane -- is refused, and the bucket queue leaves the
 * mode for the rest of the query (gb_bucket_lanes_off_).  So the mode is
 * exact for every caller, not only for Dijkstra; it is only FAST for
 * Dijkstra.
 *
 * Lazy decrease.  decrease() appends a new entry; the old one stays and
 * pops later as stale (the node is closed by then: its better entry pops
 * first), so the queue is lazy in this mode, like bheap.  Bound: the
 * search pushes a node only with a strictly smaller key each time, and a
 * lane's keys never decrease, so a node enters each lane at most once per
 * query: cap = ncells entries per lane always suffice for a search; a
 * caller that breaks that (a full lane) gets the bucket mode.
 *
 * Memory: 24 bytes per cell (2 lanes x (key 8 + id 4)) plus the group,
 * 8 bytes per cell (it can hold both lanes' entries).
 */
#ifndef GB_PQ_LANES_H
#define GB_PQ_LANES_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "gb_alloc.h"
#include "gb_exact.h"

/* The per-push and per-pop paths go into the search loop. */
#if defined(__GNUC__)
#define GB_LANES_HOT inline __attribute__((always_inline))
#else
#define GB_LANES_HOT inline
#endif

typedef struct gb_lanes {
    uint64_t *key[2];   /* [cap] lane keys */
    int32_t *id[2];     /* [cap] lane ids */
    int32_t *grp;       /* [2 cap + 16] the group being popped */
    size_t hd[2], tl[2];
    size_t gi, gn;
    size_t cap;
    uint64_t last;      /* key of the group popped last (0 before) */
} gb_lanes;

/* Bytes gb_lanes_init allocates for ncells (>= 0). */
static inline size_t gb_lanes_bytes(int32_t ncells)
{
    size_t m = ncells > 0 ? (size_t)ncells : 1;
    return 2 * m * (sizeof(uint64_t) + sizeof(int32_t)) + (2 * m + 16) * sizeof(int32_t);
}

/* Allocate for ncells ids.  0, or -1 (ENOMEM) with *l zeroed. */
static inline int gb_lanes_init(gb_lanes *l, int32_t ncells)
{
    gb_lanes z = {0};
    size_t m = ncells > 0 ? (size_t)ncells : 1;
    *l = z;
    l->key[0] = gb_malloc(m * sizeof *l->key[0]);
    l->key[1] = gb_malloc(m * sizeof *l->key[1]);
    l->id[0] = gb_malloc(m * sizeof *l->id[0]);
    l->id[1] = gb_malloc(m * sizeof *l->id[1]);
    l->grp = gb_malloc((2 * m + 16) * sizeof *l->grp);   /* + the sort's padding */
    if (!l->key[0] || !l->key[1] || !l->id[0] || !l->id[1] || !l->grp) {
        gb_free(l->key[0]); gb_free(l->key[1]); gb_free(l->id[0]); gb_free(l->id[1]);
        gb_free(l->grp);
        *l = z;
        return -1;
    }
    l->cap = m;
    return 0;
}

/* Release; *l zeroed.  Safe on a zeroed l. */
static inline void gb_lanes_free(gb_lanes *l)
{
    gb_lanes z = {0};
    gb_free(l->key[0]); gb_free(l->key[1]); gb_free(l->id[0]); gb_free(l->id[1]);
    gb_free(l->grp);
    *l = z;
}

/* Empty the lanes and the group; last = 0. */
static inline void gb_lanes_clear(gb_lanes *l)
{
    l->hd[0] = l->hd[1] = l->tl[0] = l->tl[1] = 0;
    l->gi = l->gn = 0;
    l->last = 0;
}

/* The lane an entry (fk, gk) may enter, or -1 (see "What may enter").
 * before_pop: no pop yet since the clear.  The common case -- a step
 * from the last popped key -- is one test; the start's push (d = 0)
 * takes the second. */
static GB_LANES_HOT int gb_lanes_fits(const gb_lanes *l, uint64_t fk, uint64_t gk, int before_pop)
{
    const uint64_t d = fk - l->last;
    const int k = d != GB_EXACT_S;            /* 0: +S, 1: +T (if it is) */
    if (__builtin_expect((d == GB_EXACT_S || d == GB_EXACT_T) & (gk == ~fk)
                         & (l->tl[k] != l->cap), 1))
        return k;
    /* the start: key 0 (= last) into lane 0, behind nothing but keys 0 */
    return d == 0 && before_pop && gk == ~fk && l->tl[0] != l->cap
           && (l->tl[0] == 0 || l->key[0][l->tl[0] - 1] == fk) ? 0 : -1;
}

/* Append (id, fk) to lane k (from gb_lanes_fits). */
static GB_LANES_HOT void gb_lanes_append(gb_lanes *l, int k, int32_t id, uint64_t fk)
{
    size_t t = l->tl[k]++;
    l->key[k][t] = fk;
    l->id[k][t] = id;
}

/* One compare-exchange of a sorting network (no data-dependent branch). */
#define GB_LANES_CX_(p, i, j)                                                \
    do {                                                                     \
        int32_t a_ = (p)[i], b_ = (p)[j];                                    \
        (p)[i] = a_ < b_ ? a_ : b_;                                          \
        (p)[j] = a_ < b_ ? b_ : a_;                                          \
    } while (0)

/* Batcher's odd-even merge sort networks, written once for any element
 * type: CX(p, i, j) is the caller's compare-exchange of p[i] and p[j]
 * (here GB_LANES_CX_ on ids, in gb_pq_bucket.h GB_BUCKET_CX_ on packed
 * keys).  GB_SORTNET4 sorts p[0..4) (5 compare-exchanges); GB_SORTNET8_MERGE
 * and GB_SORTNET16_MERGE merge two sorted halves of 8 and 16 (9 and 25). */
#define GB_SORTNET4(CX, p) \
    CX(p, 0, 1); CX(p, 2, 3); CX(p, 0, 2); CX(p, 1, 3); CX(p, 1, 2)
#define GB_SORTNET8_MERGE(CX, p) \
    CX(p, 0, 4); CX(p, 2, 6); CX(p, 2, 4); CX(p, 1, 5); CX(p, 3, 7); CX(p, 3, 5); \
    CX(p, 1, 2); CX(p, 3, 4); CX(p, 5, 6)
#define GB_SORTNET16_MERGE(CX, p) \
    CX(p, 0, 8);  CX(p, 4, 12); CX(p, 4, 8);   CX(p, 2, 10); CX(p, 6, 14); CX(p, 6, 10); \
    CX(p, 2, 4);  CX(p, 6, 8);  CX(p, 10, 12); CX(p, 1, 9);  CX(p, 5, 13); CX(p, 5, 9);  \
    CX(p, 3, 11); CX(p, 7, 15); CX(p, 7, 11);  CX(p, 3, 5);  CX(p, 7, 9);  CX(p, 11, 13); \
    CX(p, 1, 2);  CX(p, 3, 4);  CX(p, 5, 6);   CX(p, 7, 8);  CX(p, 9, 10); CX(p, 11, 12); \
    CX(p, 13, 14)

/* Sort a[0 .. n) ascending, n >= 2, in place; a has room for n + 16 ids.
 * Groups are small (on random512-10-0, 30 queries: 3.6 ids on average,
 * 99% of the ids in groups of at most 20) and in random order, so an
 * insertion sort mispredicts about once per id: up to 16 ids go through
 * sorting networks, branch-free: the size-optimal ones for 2 to 8 ids
 * (Knuth, TAOCP 5.3.4; each checked on all 0-1 inputs), 9 to 16 padded
 * with INT32_MAX into Batcher's odd-even merge sort on 16; more through a
 * shell sort (gaps (3^k - 1) / 2).  No allocation: grp has 16 spare slots. */
static inline void gb_lanes_net8_(int32_t *a)
{
    GB_SORTNET4(GB_LANES_CX_, a);
    GB_SORTNET4(GB_LANES_CX_, a + 4);
    GB_SORTNET8_MERGE(GB_LANES_CX_, a);
}

static inline void gb_lanes_sort_(int32_t *a, size_t n)
{
    size_t i, j, h = 1;
    switch (n) {                              /* size-optimal networks */
    case 2: GB_LANES_CX_(a, 0, 1); return;
    case 3: GB_LANES_CX_(a, 0, 2); GB_LANES_CX_(a, 0, 1); GB_LANES_CX_(a, 1, 2); return;
    case 4: GB_SORTNET4(GB_LANES_CX_, a); return;
    case 5:
        GB_LANES_CX_(a, 0, 1); GB_LANES_CX_(a, 3, 4); GB_LANES_CX_(a, 2, 4);
        GB_LANES_CX_(a, 2, 3); GB_LANES_CX_(a, 0, 3); GB_LANES_CX_(a, 0, 2);
        GB_LANES_CX_(a, 1, 4); GB_LANES_CX_(a, 1, 3); GB_LANES_CX_(a, 1, 2);
        return;
    case 6:
        GB_LANES_CX_(a, 1, 2); GB_LANES_CX_(a, 4, 5); GB_LANES_CX_(a, 0, 2);
        GB_LANES_CX_(a, 3, 5); GB_LANES_CX_(a, 0, 1); GB_LANES_CX_(a, 3, 4);
        GB_LANES_CX_(a, 2, 5); GB_LANES_CX_(a, 0, 3); GB_LANES_CX_(a, 1, 4);
        GB_LANES_CX_(a, 2, 4); GB_LANES_CX_(a, 1, 3); GB_LANES_CX_(a, 2, 3);
        return;
    case 7:
        GB_LANES_CX_(a, 1, 2); GB_LANES_CX_(a, 3, 4); GB_LANES_CX_(a, 5, 6);
        GB_LANES_CX_(a, 0, 2); GB_LANES_CX_(a, 3, 5); GB_LANES_CX_(a, 4, 6);
        GB_LANES_CX_(a, 0, 1); GB_LANES_CX_(a, 4, 5); GB_LANES_CX_(a, 2, 6);
        GB_LANES_CX_(a, 0, 4); GB_LANES_CX_(a, 1, 5); GB_LANES_CX_(a, 0, 3);
        GB_LANES_CX_(a, 2, 5); GB_LANES_CX_(a, 1, 3); GB_LANES_CX_(a, 2, 4);
        GB_LANES_CX_(a, 2, 3);
        return;
    case 8: gb_lanes_net8_(a); return;
    default: break;
    }
    if (n <= 16) {                            /* pad to 16 inputs */
        for (i = 0; i < 16; i++) a[n + i] = INT32_MAX;   /* a fixed count: no branch */
        gb_lanes_net8_(a);
        gb_lanes_net8_(a + 8);
        GB_SORTNET16_MERGE(GB_LANES_CX_, a);
        return;
    }
    while (h < n / 3) h = 3 * h + 1;
    for (; h >= 1; h /= 3)
        for (i = h; i < n; i++) {
            int32_t v = a[i];
            for (j = i; j >= h && v < a[j - h]; j -= h) a[j] = a[j - h];
            a[j] = v;
        }
}

/* Form the next group and return its first id.  Precondition: the group
 * is used up and some lane is not empty. */
static inline int32_t gb_lanes_next(gb_lanes *l)
{
    const uint64_t k0 = l->hd[0] < l->tl[0] ? l->key[0][l->hd[0]] : UINT64_MAX;
    const uint64_t k1 = l->hd[1] < l->tl[1] ? l->key[1][l->hd[1]] : UINT64_MAX;
    const uint64_t k = k0 < k1 ? k0 : k1;
    size_t n = 0, h;
    l->last = k;
    for (h = l->hd[0]; h < l->tl[0] && l->key[0][h] == k; h++) l->grp[n++] = l->id[0][h];
    l->hd[0] = h;
    for (h = l->hd[1]; h < l->tl[1] && l->key[1][h] == k; h++) l->grp[n++] = l->id[1][h];
    l->hd[1] = h;
    if (n > 1) gb_lanes_sort_(l->grp, n);
    l->gn = n;
    l->gi = 1;
    return l->grp[0];
}

/* Entries held (lanes and group rest). */
static inline size_t gb_lanes_size(const gb_lanes *l)
{
    return l->tl[0] - l->hd[0] + l->tl[1] - l->hd[1] + l->gn - l->gi;
}

/* 0 when (L1)-(L3) hold and ids are in [0, ncells), else 13. */
static inline int gb_lanes_check(const gb_lanes *l, int32_t ncells)
{
    size_t i;
    int k;
    for (k = 0; k < 2; k++) {
        if (l->hd[k] > l->tl[k] || l->tl[k] > l->cap) return 13;
        for (i = l->hd[k]; i < l->tl[k]; i++) {
            if (l->id[k][i] < 0 || l->id[k][i] >= ncells) return 13;
            if (i > l->hd[k] && l->key[k][i] < l->key[k][i - 1]) return 13;
            if (l->gn > 0 && l->key[k][i] <= l->last) return 13;
        }
    }
    if (l->gi > l->gn) return 13;
    for (i = l->gi; i < l->gn; i++) {
        if (l->grp[i] < 0 || l->grp[i] >= ncells) return 13;
        if (i > l->gi && l->grp[i] < l->grp[i - 1]) return 13;
    }
    return 0;
}

#endif
