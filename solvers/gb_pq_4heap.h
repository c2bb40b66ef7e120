/*
 * gb_pq_4heap.h -- 4-ary heap with decrease-key (queue "4heap").
 *
 * Data structure
 *   An implicit 4-ary min-heap of entries {f, g, id} (those of
 *   gb_pq_bheap_dk.h, integer key images, aux unused) in h[0 .. n), root
 *   at 0, children of i at 4i+1 .. 4i+4, parent of i > 0 at (i-1)/4, plus an
 *   index array pos[ncells]: pos[id] is the slot of id's entry while id is
 *   in the heap (garbage otherwise, never read; clear() is O(1)).  The
 *   shallower tree (log4 n levels) halves the sift-up work of push and
 *   decrease against a binary heap; pop picks the first of 4 children a
 *   level with a 2-level tournament (3 comparisons, depth 2).
 *
 * Invariants (checked by gb_4heap_check)
 *   - 0 <= n <= ncells;
 *   - for every slot i < n: 0 <= h[i].id < ncells and pos[h[i].id] == i;
 *   - heap order: no entry comes before its parent under gb_pq_before.
 *
 * Time complexity: push, decrease O(log4 n); pop O(4 log4 n); clear O(1);
 * check O(n).
 */
#ifndef GB_PQ_4HEAP_H
#define GB_PQ_4HEAP_H

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "gb_alloc.h"
#include "gb_pq.h"
#include "gb_pq_bheap_dk.h"

/* Heap entries are those of gb_pq_bheap_dk.h: integer images of f and g
 * that compare exactly like gb_pq_before, without branches (aux unused). */
typedef gb_bheap_dk_ent gb_4heap_ent;

/* The heap's fields are those of gb_bheap_dk (cnt, h, pos, n, ncells):
 * the arity is in the code, not in the data. */
typedef gb_bheap_dk gb_4heap;

static inline int gb_4heap_ent_before(const gb_4heap_ent *a, const gb_4heap_ent *b)
{
    return gb_bheap_dk_ent_before(a, b);
}

/* Allocation, release, clear, size and the double-key wrappers, shared
 * with bheap-dk (gb_pq_dkheap.pmt). */
static inline void gb_4heap_pushk(gb_4heap *q, int32_t id, uint64_t fk, uint64_t gk);
static inline void gb_4heap_decreasek(gb_4heap *q, int32_t id, uint64_t fk, uint64_t gk);
#define GB_DKH_T 4heap
#include "gb_pq_dkheap.pmt"

/* Place e by sifting it up from the hole at slot i. */
static inline void gb_4heap_up_(gb_4heap *q, size_t i, gb_4heap_ent e)
{
    gb_4heap_ent *h = q->h;
    int32_t *pos = q->pos;
    while (i > 0) {
        size_t p = (i - 1) >> 2;
        if (!gb_4heap_ent_before(&e, &h[p])) break;
        h[i] = h[p];
        pos[h[i].id] = (int32_t)i;
        i = p;
    }
    h[i] = e;
    pos[e.id] = (int32_t)i;
}

/* Insert id, which must not be in the heap. */
static inline void gb_4heap_pushk(gb_4heap *q, int32_t id, uint64_t fk, uint64_t gk)
{
    gb_4heap_up_(q, q->n++, gb_bheap_dk_ent_k(fk, gk, id, 0));
    q->cnt.pushes++;
    if (q->n > q->cnt.peak) q->cnt.peak = q->n;
}

/* id is in the heap and (f, g) precedes its key: update it in place.
 * If (f, g) does not precede the current key -- the search core does that
 * when a better g leaves f unchanged, as in greedy search, where the
 * larger-g-first rule ranks the new key behind the old one -- the key is
 * kept: the queue holds the minimum of the keys it was given, which is
 * also the entry a lazy queue pops first, so all queues still agree. */
static inline void gb_4heap_decreasek(gb_4heap *q, int32_t id, uint64_t fk, uint64_t gk)
{
    size_t i = (size_t)q->pos[id];
    gb_4heap_ent e = gb_bheap_dk_ent_k(fk, gk, id, 0);
    q->cnt.decreases++;
    if (gb_4heap_ent_before(&e, &q->h[i])) gb_4heap_up_(q, i, e);
}

/* Remove and return the first id.  Precondition: not empty.  Bottom-up:
 * the hole goes down to a leaf along the first child of each level, then
 * the former last entry is sifted up from there. */
static inline int32_t gb_4heap_pop(gb_4heap *q)
{
    gb_4heap_ent *h = q->h;
    int32_t *pos = q->pos;
    int32_t top = h[0].id;
    size_t n = --q->n, i = 0, c;
    q->cnt.pops++;
    if (n == 0) return top;
    while ((c = 4 * i + 1) < n) {
        size_t b;
        if (c + 3 < n) {                    /* full group: a 2-level tournament */
            size_t b0 = c + (size_t)gb_4heap_ent_before(&h[c + 1], &h[c]);
            size_t b1 = c + 2 + (size_t)gb_4heap_ent_before(&h[c + 3], &h[c + 2]);
            b = gb_4heap_ent_before(&h[b1], &h[b0]) ? b1 : b0;
        } else {
            size_t k;
            for (b = c, k = c + 1; k < n; k++)
                b = gb_4heap_ent_before(&h[k], &h[b]) ? k : b;
        }
        h[i] = h[b];
        pos[h[i].id] = (int32_t)i;
        i = b;
    }
    gb_4heap_up_(q, i, h[n]);
    return top;
}

/* 0 when the invariants hold; 1 size over ncells, 2 id out of range,
 * 3 heap order broken, 4 pos[] wrong. */
static inline int gb_4heap_check(const gb_4heap *q)
{
    size_t i;
    if (q->n > (size_t)(q->ncells > 0 ? q->ncells : 0)) return 1;
    for (i = 0; i < q->n; i++) {
        if (q->h[i].id < 0 || q->h[i].id >= q->ncells) return 2;
        if (i > 0 && gb_4heap_ent_before(&q->h[i], &q->h[(i - 1) >> 2])) return 3;
        if (q->pos[q->h[i].id] != (int32_t)i) return 4;
    }
    return 0;
}

#endif
