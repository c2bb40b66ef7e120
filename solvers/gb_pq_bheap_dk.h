/*
 * gb_pq_bheap_dk.h -- binary heap with decrease-key (queue "bheap-dk").
 *
 * Data structure
 *   An implicit binary min-heap of entries in h[0 .. n), root at 0,
 *   children of i at 2i+1 and 2i+2, plus an index array pos[ncells]:
 *   pos[id] is the slot of id's entry while id is in the heap.  Each id has
 *   at most one entry, so h needs ncells slots.  pos[] of an id that is not
 *   in the heap is garbage and never read; hence clear() is O(1) (no reset
 *   of pos[]).
 *
 * Entries (shared by every array heap of gridbench: bheap, bheap-dk,
 * 4heap, and the exact heaps inside bucket and radix) are 24 bytes:
 * {fk, gk, id, aux}, where fk and gk are order-preserving integer images
 * of f and g (see gb_bheap_dk_fkey), so that gb_pq_before becomes a
 * branch-free integer comparison -- a mispredicted floating-point branch
 * per comparison costs more than the rest of a sift step.  aux is the
 * index into the position array: the id here, a pool node in bucket and
 * radix.
 *
 * Invariants (checked by gb_bheap_dk_check)
 *   - 0 <= n <= ncells;
 *   - for every slot i < n: 0 <= h[i].id < ncells, h[i].aux == h[i].id and
 *     pos[h[i].id] == i (so ids are distinct);
 *   - heap order: no entry comes before its parent under gb_pq_before.
 *
 * The heap core (gb_bheap_dk_core_*) works on an entry array and any int32
 * position array indexed by aux.  The bucket queue and the radix heap reuse
 * it for their exact "current bucket" heaps, with their own position
 * arrays, so there is one implementation of the exact tie order.
 *
 * Time complexity: push, decrease O(log n); pop O(log n) (bottom-up sift);
 * heapify O(n); clear O(1); check O(n).
 */
#ifndef GB_PQ_BHEAP_DK_H
#define GB_PQ_BHEAP_DK_H

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gb_alloc.h"
#include "gb_pq.h"

/* Order-preserving integer images of the keys.  For finite x, x + 0.0 is
 * x with -0 turned into +0; its IEEE-754 bit pattern with the sign bit
 * flipped (x >= 0) or all bits flipped (x < 0) is a uint64 that is
 * strictly monotone in x:  x < y iff key(x) < key(y), x == y iff
 * key(x) == key(y).  The g image is complemented because larger g comes
 * first.  So comparing (fk, gk, id) lexicographically as integers is
 * exactly gb_pq_before on (f, g, id), and needs no floating-point
 * compare and no branch. */
static inline uint64_t gb_bheap_dk_fkey(double x)
{
    uint64_t u;
    x += 0.0;
    memcpy(&u, &x, sizeof u);
    return u ^ ((uint64_t)((int64_t)u >> 63) | ((uint64_t)1 << 63));
}
static inline uint64_t gb_bheap_dk_gkey(double x) { return ~gb_bheap_dk_fkey(x); }

/* One heap entry; also the entry type of the other array heaps (bheap,
 * 4heap) and of the exact heaps inside bucket and radix. */
typedef struct gb_bheap_dk_ent {
    uint64_t fk;   /* gb_bheap_dk_fkey(f) */
    uint64_t gk;   /* gb_bheap_dk_gkey(g) */
    int32_t id;    /* node id, last tie-break */
    int32_t aux;   /* index into the position array: the id here, a
                      pool slot in bucket and radix */
} gb_bheap_dk_ent;

typedef struct gb_bheap_dk {
    gb_pq_counters cnt;    /* operation counters, zeroed by clear() */
    gb_bheap_dk_ent *h;    /* [ncells] the heap array */
    int32_t *pos;          /* [ncells] slot of id in h while id is queued */
    size_t n;              /* entries in h */
    int32_t ncells;        /* ids are in [0, ncells) */
} gb_bheap_dk;

/* An entry from integer key images: fk (smaller first) and gk (smaller
 * first: the complement of an increasing image of g), as made from doubles
 * by gb_bheap_dk_fkey / _gkey or from exact costs (gb_exact.h). */
static inline gb_bheap_dk_ent gb_bheap_dk_ent_k(uint64_t fk, uint64_t gk, int32_t id,
                                                int32_t aux)
{
    gb_bheap_dk_ent e;
    e.fk = fk;
    e.gk = gk;
    e.id = id;
    e.aux = aux;
    return e;
}

static inline gb_bheap_dk_ent gb_bheap_dk_ent_make(double f, double g, int32_t id,
                                                   int32_t aux)
{
    return gb_bheap_dk_ent_k(gb_bheap_dk_fkey(f), gb_bheap_dk_gkey(g), id, aux);
}

/* gb_pq_before on entries, branch-gb_free(see the key images above). */
static inline int gb_bheap_dk_ent_before(const gb_bheap_dk_ent *a,
                                         const gb_bheap_dk_ent *b)
{
    return (a->fk < b->fk)
         | ((a->fk == b->fk) & ((a->gk < b->gk) | ((a->gk == b->gk) & (a->id < b->id))));
}

/* ---- heap core: (h, pos) with n entries ------------------------------ */

/* Place e by sifting it up from the hole at slot i. */
static inline void gb_bheap_dk_core_up(gb_bheap_dk_ent *h, int32_t *pos,
                                       size_t i, gb_bheap_dk_ent e)
{
    while (i > 0) {
        size_t p = (i - 1) >> 1;
        if (!gb_bheap_dk_ent_before(&e, &h[p])) break;
        h[i] = h[p];
        pos[h[i].aux] = (int32_t)i;
        i = p;
    }
    h[i] = e;
    pos[e.aux] = (int32_t)i;
}

/* Place e by sifting it down from the hole at slot i of a heap of n. */
static inline void gb_bheap_dk_core_down(gb_bheap_dk_ent *h, int32_t *pos,
                                         size_t n, size_t i, gb_bheap_dk_ent e)
{
    size_t c;
    while ((c = 2 * i + 1) < n) {
        if (c + 1 < n) c += (size_t)gb_bheap_dk_ent_before(&h[c + 1], &h[c]);
        if (!gb_bheap_dk_ent_before(&h[c], &e)) break;
        h[i] = h[c];
        pos[h[i].aux] = (int32_t)i;
        i = c;
    }
    h[i] = e;
    pos[e.aux] = (int32_t)i;
}

/* Insert e into a heap of *n entries (room for one more is guaranteed). */
static inline void gb_bheap_dk_core_push(gb_bheap_dk_ent *h, int32_t *pos,
                                         size_t *n, gb_bheap_dk_ent e)
{
    gb_bheap_dk_core_up(h, pos, (*n)++, e);
}

/* Remove the first entry of a non-empty heap; return its id.  Bottom-up:
 * the hole goes to a leaf along the path of first children (one
 * comparison per level), then the former last entry is sifted up. */
static inline int32_t gb_bheap_dk_core_pop(gb_bheap_dk_ent *h, int32_t *pos,
                                           size_t *n)
{
    int32_t top = h[0].id;
    size_t m = --*n, i = 0, c;
    if (m == 0) return top;
    while ((c = 2 * i + 1) < m) {
        if (c + 1 < m) c += (size_t)gb_bheap_dk_ent_before(&h[c + 1], &h[c]);
        h[i] = h[c];
        pos[h[i].aux] = (int32_t)i;
        i = c;
    }
    gb_bheap_dk_core_up(h, pos, i, h[m]);
    return top;
}

/* Turn h[0 .. n) (pos[] already set) into a heap.  Floyd, O(n). */
static inline void gb_bheap_dk_core_heapify(gb_bheap_dk_ent *h, int32_t *pos,
                                            size_t n)
{
    size_t i = n / 2;
    while (i-- > 0) gb_bheap_dk_core_down(h, pos, n, i, h[i]);
}

/* 0 when (h, pos, n) is a well-formed heap of ids in [0, ncells) whose
 * aux fields are in [0, naux): 2 id or aux out of range, 3 heap order
 * broken, 4 pos[] wrong. */
static inline int gb_bheap_dk_core_check(const gb_bheap_dk_ent *h,
                                         const int32_t *pos, size_t n,
                                         int32_t ncells, int32_t naux)
{
    size_t i;
    for (i = 0; i < n; i++) {
        if (h[i].id < 0 || h[i].id >= ncells) return 2;
        if (h[i].aux < 0 || h[i].aux >= naux) return 2;
        if (i > 0 && gb_bheap_dk_ent_before(&h[i], &h[(i - 1) >> 1])) return 3;
        if (pos[h[i].aux] != (int32_t)i) return 4;
    }
    return 0;
}

/* ---- the queue ------------------------------------------------------- */

/* Allocation, release, clear, size and the double-key wrappers: the ones
 * the array heaps share (gb_pq_dkheap.pmt, after pushk and decreasek). */
static inline void gb_bheap_dk_pushk(gb_bheap_dk *q, int32_t id, uint64_t fk, uint64_t gk);
static inline void gb_bheap_dk_decreasek(gb_bheap_dk *q, int32_t id, uint64_t fk, uint64_t gk);
#define GB_DKH_T bheap_dk
#include "gb_pq_dkheap.pmt"

/* Insert id, which must not be in the heap. */
static inline void gb_bheap_dk_pushk(gb_bheap_dk *q, int32_t id, uint64_t fk, uint64_t gk)
{
    gb_bheap_dk_core_push(q->h, q->pos, &q->n, gb_bheap_dk_ent_k(fk, gk, id, id));
    q->cnt.pushes++;
    if (q->n > q->cnt.peak) q->cnt.peak = q->n;
}

/* id is in the heap and (f, g) precedes its key: update it in place.
 * If (f, g) does not precede the current key -- the search core does that
 * when a better g leaves f unchanged, as in greedy search, where the
 * larger-g-first rule ranks the new key behind the old one -- the key is
 * kept: the queue holds the minimum of the keys it was given, which is
 * also the entry a lazy queue pops first, so all queues still agree. */
static inline void gb_bheap_dk_decreasek(gb_bheap_dk *q, int32_t id, uint64_t fk, uint64_t gk)
{
    size_t i = (size_t)q->pos[id];
    gb_bheap_dk_ent e = gb_bheap_dk_ent_k(fk, gk, id, id);
    q->cnt.decreases++;
    if (gb_bheap_dk_ent_before(&e, &q->h[i])) gb_bheap_dk_core_up(q->h, q->pos, i, e);
}

/* Remove and return the first id.  Precondition: not empty. */
static inline int32_t gb_bheap_dk_pop(gb_bheap_dk *q)
{
    q->cnt.pops++;
    return gb_bheap_dk_core_pop(q->h, q->pos, &q->n);
}

/* 0 when the invariants hold; 1 size over ncells, 5 aux != id, else the
 * core's code. */
static inline int gb_bheap_dk_check(const gb_bheap_dk *q)
{
    if (q->n > (size_t)(q->ncells > 0 ? q->ncells : 0)) return 1;
    {
        size_t i;
        for (i = 0; i < q->n; i++)
            if (q->h[i].aux != q->h[i].id) return 5;
    }
    return gb_bheap_dk_core_check(q->h, q->pos, q->n, q->ncells, q->ncells);
}

#endif
