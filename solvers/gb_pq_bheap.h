/*
 * gb_pq_bheap.h -- binary heap with lazy deletion (queue "bheap").
 *
 * Data structure
 *   An implicit binary min-heap of entries {f, g, id} in one array
 *   h[0 .. n), root at 0, children of i at 2i+1 and 2i+2 (entries are
 *   those of gb_pq_bheap_dk.h: f and g as order-preserving integer images,
 *   compared without branches; aux unused).  There is no
 *   index from ids to entries: decrease(id, f, g) simply pushes a second
 *   entry for id.  The entry with the old key stays in the heap and is
 *   popped later as a "stale" entry; the search recognises it because the
 *   id is already closed by then (the new entry strictly precedes the old
 *   one under gb_pq_before, so it is always popped first).
 *
 * Front stack.  Besides the heap, up to GB_BHEAP_FRONT entries wait in
 * fs[0 .. fn), ordered so that fs[fn - 1] comes first and fs[0] last, and
 * each of them precedes (or equals) every entry of the heap.  pop takes
 * the top fs[fn - 1] when fn > 0, else the heap's root.  A push goes to
 * the stack when it precedes fs[0] (inserted in order, scanning from the
 * top; a full stack first moves fs[0] to the heap's root, which it
 * precedes), or when the stack has room and the entry precedes the heap's
 * root (it then goes to the bottom, fs[0]); otherwise into the heap.  On
 * an f-plateau of A* or JPS, where ties go to larger g, the successors
 * just generated are usually the next nodes to expand: they come back from
 * the stack at the cost of a comparison or two, without a sift up and a
 * sift down (on Berlin_0_256, jps+ takes 85 % of its pops from the stack
 * with 16 entries, 52 % with a single front slot).  Pop order is
 * unchanged (the first entry is always the top of the stack, or the
 * heap's root when the stack is empty).
 *
 * Pop sentinel.  pop's bottom-up sift writes an entry that comes after
 * every key (all-ones keys, id INT32_MAX) into the slot the last entry
 * leaves, so a hole's second child can always be compared (slot n < cap:
 * the array has room for it).
 *
 * Invariants (checked by gb_bheap_check)
 *   - 0 <= fn <= GB_BHEAP_FRONT and n + fn <= cap, cap = 8 * ncells + 1;
 *   - every entry (heap and stack) has 0 <= id < ncells;
 *   - heap order: no entry comes before its parent under gb_pq_before;
 *   - stack order: no fs[i] comes before fs[i + 1] (i + 1 < fn);
 *   - with fn > 0 and n > 0, h[0] does not come before fs[0] (equal
 *     entries are possible: the lazy queue holds duplicates).
 *
 * Capacity.  Entries are never removed except by pop, so the array must
 * hold every entry that may be live at once.  A search without re-opening
 * pushes a node once when it is generated and once per improvement of its
 * g; each improvement comes from the expansion of a different neighbour
 * and a cell has at most 8 neighbours, so a node has at most 8 entries
 * ever, and at most 8 * ncells entries (+1 for slack) exist.  Pushing past
 * cap is a contract violation (assert).
 *
 * Pop order.  Valid entries come out in exactly gb_pq_before order, the
 * same order as every decrease-key queue; stale entries are interleaved
 * (they inflate pops, pushes and peak, not the sequence of valid ids).
 *
 * Time complexity: push, decrease O(log n + GB_BHEAP_FRONT) (a stack
 * insertion scans from the top; usually one comparison); pop O(1) from
 * the stack, else O(log n) (bottom-up sift: one comparison per level on
 * the way down, then a short sift up); clear O(1); check O(n).
 *
 * Measured (callgrind, instructions per query of the search function,
 * 233 queries of street/Berlin_0_256): jps+ 40.9k with the one-entry
 * front slot, 38.5k with the 16-entry stack and the pop sentinel; jps
 * 84.6k -> 82.2k.
 */
#ifndef GB_PQ_BHEAP_H
#define GB_PQ_BHEAP_H

#include <assert.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "gb_alloc.h"
#include "gb_pq.h"
#include "gb_pq_bheap_dk.h"

/* Heap entries are those of gb_pq_bheap_dk.h: integer images of f and g
 * that compare exactly like gb_pq_before, without branches (aux unused). */
typedef gb_bheap_dk_ent gb_bheap_ent;

/* Entries the front stack holds at most (see "Front stack"). */
#ifndef GB_BHEAP_FRONT
#define GB_BHEAP_FRONT 16
#endif


typedef struct gb_bheap {
    gb_pq_counters cnt;  /* operation counters, zeroed by clear() */
    gb_bheap_ent *h;     /* [cap] the heap array */
    size_t n;            /* entries in h, stale ones included */
    size_t fn;           /* entries in the front stack fs */
    gb_bheap_ent fs[GB_BHEAP_FRONT];   /* the front stack, top fs[fn - 1] */
    size_t cap;          /* 8 * ncells + 1 */
    int32_t ncells;      /* ids are in [0, ncells) */
} gb_bheap;

static inline int gb_bheap_ent_before(const gb_bheap_ent *a, const gb_bheap_ent *b)
{
    return gb_bheap_dk_ent_before(a, b);
}

/* Allocate room for 8 * ncells + 1 entries.  0, or -1 with errno (ENOMEM,
 * or EINVAL for ncells < 0) and *q zeroed. */
/* Bytes gb_bheap_init allocates for ncells (>= 0). */
static inline size_t gb_bheap_bytes(int32_t ncells)
{
    return (8 * (size_t)(ncells > 0 ? ncells : 0) + 1) * sizeof *((gb_bheap *)0)->h;
}

static inline int gb_bheap_init(gb_bheap *q, int32_t ncells)
{
    gb_bheap z = {0};
    *q = z;
    if (ncells < 0) { errno = EINVAL; return -1; }
    q->cap = 8 * (size_t)ncells + 1;
    q->h = gb_malloc(q->cap * sizeof *q->h);
    if (!q->h) { *q = z; errno = ENOMEM; return -1; }
    q->ncells = ncells;
    return 0;
}

/* Release the array; *q is zeroed.  Safe on a zeroed queue. */
static inline void gb_bheap_free(gb_bheap *q)
{
    gb_bheap z = {0};
    gb_free(q->h);
    *q = z;
}

/* Drop every entry and zero the counters.  O(1). */
static inline void gb_bheap_clear(gb_bheap *q)
{
    gb_pq_counters z = {0};
    q->n = 0;
    q->fn = 0;
    q->cnt = z;
}

static inline int gb_bheap_empty(const gb_bheap *q) { return (q->n | q->fn) == 0; }

/* Entries in the queue, stale ones included. */
static inline size_t gb_bheap_size(const gb_bheap *q) { return q->n + q->fn; }

/* Sift entry e up from hole i. */
static inline void gb_bheap_up_(gb_bheap_ent *h, size_t i, gb_bheap_ent e)
{
    while (i > 0) {
        size_t p = (i - 1) >> 1;
        if (!gb_bheap_ent_before(&e, &h[p])) break;
        h[i] = h[p];
        i = p;
    }
    h[i] = e;
}

/* Place e, which precedes (or equals) every entry of the heap, at the
 * root: the path from the new leaf n up moves down one level, no
 * comparison needed. */
static inline void gb_bheap_root_(gb_bheap_ent *h, size_t i, gb_bheap_ent e)
{
    while (i > 0) {
        size_t p = (i - 1) >> 1;
        h[i] = h[p];
        i = p;
    }
    h[0] = e;
}

/* Add an entry (id, f, g).  Any id is accepted, also one already in the
 * heap.  Precondition: fewer than cap entries. */
static inline void gb_bheap_pushk(gb_bheap *q, int32_t id, uint64_t fk, uint64_t gk)
{
    assert(q->n + q->fn < q->cap);
    gb_bheap_ent e = gb_bheap_dk_ent_k(fk, gk, id, 0);
    gb_bheap_ent *fs = q->fs;
    size_t fn = q->fn;
    if (fn > 0 && gb_bheap_ent_before(&e, &fs[0])) {
        /* e precedes the stack's last entry: insert it in order */
        if (fn == GB_BHEAP_FRONT) {   /* full: fs[0] goes to the heap's root */
            gb_bheap_root_(q->h, q->n, fs[0]);
            q->n++;
            for (size_t j = 1; j < fn; j++) fs[j - 1] = fs[j];
            fn--;
        }
        size_t i = fn;
        while (i > 0 && gb_bheap_ent_before(&fs[i - 1], &e)) {
            fs[i] = fs[i - 1];
            i--;
        }
        fs[i] = e;
        q->fn = fn + 1;
    } else if (fn < GB_BHEAP_FRONT && (q->n == 0 || gb_bheap_ent_before(&e, &q->h[0]))) {
        /* after the whole stack, before the whole heap: the bottom */
        for (size_t j = fn; j > 0; j--) fs[j] = fs[j - 1];
        fs[0] = e;
        q->fn = fn + 1;
    } else {
        gb_bheap_up_(q->h, q->n, e);
        q->n++;
    }
    q->cnt.pushes++;
    size_t sz = q->n + q->fn;
    if (sz > q->cnt.peak) q->cnt.peak = sz;
}

/* Lazy decrease: push a new entry; the old one is left to go stale.
 * Counts as one decrease and one push.  A new key that does not precede
 * the old one is pushed all the same; the old entry then pops first and
 * the new one goes stale (the decrease-key queues keep the old key: same
 * order of valid pops). */
static inline void gb_bheap_decreasek(gb_bheap *q, int32_t id, uint64_t fk, uint64_t gk)
{
    q->cnt.decreases++;
    gb_bheap_pushk(q, id, fk, gk);
}

/* push and decrease with double keys: the integer images of (f, g). */
static inline void gb_bheap_push(gb_bheap *q, int32_t id, double f, double g)
{
    gb_bheap_pushk(q, id, gb_bheap_dk_fkey(f), gb_bheap_dk_gkey(g));
}
static inline void gb_bheap_decrease(gb_bheap *q, int32_t id, double f, double g)
{
    gb_bheap_decreasek(q, id, gb_bheap_dk_fkey(f), gb_bheap_dk_gkey(g));
}

/* Remove the first entry and return its id (possibly a stale entry).
 * Precondition: not empty. */
static inline int32_t gb_bheap_pop(gb_bheap *q)
{
    if (q->fn > 0) {
        q->cnt.pops++;
        return q->fs[--q->fn].id;
    }
    gb_bheap_ent *h = q->h;
    int32_t top = h[0].id;
    size_t n = --q->n, i = 0, c;
    q->cnt.pops++;
    if (n == 0) return top;
    /* Bottom-up: move the hole to a leaf along the path of first children,
     * then put the former last entry there and sift it up.  The last entry
     * leaves a sentinel behind that comes after everything, so a hole's
     * second child can always be compared (c < n implies c + 1 <= n). */
    const gb_bheap_ent last = h[n];
    h[n] = gb_bheap_dk_ent_k(UINT64_MAX, UINT64_MAX, INT32_MAX, 0);
    while ((c = 2 * i + 1) < n) {
        c += (size_t)gb_bheap_ent_before(&h[c + 1], &h[c]);
        h[i] = h[c];
        i = c;
    }
    gb_bheap_up_(h, i, last);
    return top;
}

/* 0 when the invariants hold; 1 size over capacity (or stack over
 * GB_BHEAP_FRONT), 2 id out of range, 3 heap order broken, 4 the stack
 * does not precede the heap, 5 stack order broken. */
static inline int gb_bheap_check(const gb_bheap *q)
{
    size_t i;
    if (q->fn > GB_BHEAP_FRONT || q->n + q->fn > q->cap) return 1;
    for (i = 0; i < q->fn; i++) {
        if (q->fs[i].id < 0 || q->fs[i].id >= q->ncells) return 2;
        if (i > 0 && gb_bheap_ent_before(&q->fs[i - 1], &q->fs[i])) return 5;
    }
    if (q->fn > 0 && q->n > 0 && gb_bheap_ent_before(&q->h[0], &q->fs[0])) return 4;
    for (i = 0; i < q->n; i++) {
        if (q->h[i].id < 0 || q->h[i].id >= q->ncells) return 2;
        if (i > 0 && gb_bheap_ent_before(&q->h[i], &q->h[(i - 1) >> 1])) return 3;
    }
    return 0;
}

#endif
