/*
 * gb_pq_pairing.h -- pairing heap with decrease-key (queue "pairing").
 *
 * Data structure
 *   A heap-ordered multiway tree whose nodes are the queued ids
 *   themselves; links are int32 index arrays of size ncells (no allocation
 *   per node, no pointers):
 *       child[x]  first (leftmost) child of x, or -1;
 *       sib[x]    next sibling to the right, or -1;
 *       prv[x]    left sibling of x, or its parent if x is a first child,
 *                 or -1 for the root;
 *       kv[x]     the key of x (integer images of f and g).
 *   "link" of two trees makes the loser (the root that does not come first
 *   under gb_pq_before) the first child of the winner.  push links the new
 *   node with the root; decrease cuts the node's subtree out of its sibling
 *   list and links it with the root (the subtree stays heap-ordered since
 *   the key only got better); pop removes the root and merges its children
 *   in two passes: link them in pairs left to right, then fold the pairs
 *   right to left into one tree.  Arrays of ids not in the heap are garbage
 *   and never read, so clear() is O(1).
 *
 * Invariants (checked by gb_pairing_check)
 *   - root == -1 iff n == 0; prv[root] == sib[root] == -1;
 *   - the tree reached from root by child/sib has exactly n nodes, all
 *     ids in [0, ncells), each reached once;
 *   - prv[child[x]] == x and prv[sib[x]] == x (links are mutual);
 *   - heap order: no node comes before its parent under gb_pq_before.
 *
 * Time complexity: push O(1); decrease O(1) here, o(log n) amortised;
 * pop O(log n) amortised; clear O(1); check O(n).
 */
#ifndef GB_PQ_PAIRING_H
#define GB_PQ_PAIRING_H

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "gb_alloc.h"
#include "gb_pq.h"
#include "gb_pq_bheap_dk.h"

/* Key of a queued id, as the integer images of gb_pq_bheap_dk.h (which
 * compare exactly like gb_pq_before, without floating-point branches). */
typedef struct gb_pairing_kv {
    uint64_t fk;   /* gb_bheap_dk_fkey(f) */
    uint64_t gk;   /* gb_bheap_dk_gkey(g) */
} gb_pairing_kv;

typedef struct gb_pairing {
    gb_pq_counters cnt;  /* operation counters, zeroed by clear() */
    gb_pairing_kv *kv;   /* [ncells] key of each queued id */
    int32_t *child;      /* [ncells] first child or -1 */
    int32_t *sib;        /* [ncells] right sibling or -1 */
    int32_t *prv;        /* [ncells] left sibling, parent (first child), or -1 */
    size_t n;            /* nodes in the tree */
    int32_t root;        /* root id, -1 when empty */
    int32_t ncells;      /* ids are in [0, ncells) */
} gb_pairing;

/* Nonzero when node a comes before node b. */
static inline int gb_pairing_before_(const gb_pairing *q, int32_t a, int32_t b)
{
    const gb_pairing_kv *x = &q->kv[a], *y = &q->kv[b];
    return (x->fk < y->fk)
         | ((x->fk == y->fk) & ((x->gk < y->gk) | ((x->gk == y->gk) & (a < b))));
}

/* Allocate for ids in [0, ncells).  0, or -1 with errno (ENOMEM, or EINVAL
 * for ncells < 0) and *q zeroed. */
/* Bytes gb_pairing_init allocates for ncells (>= 0). */
static inline size_t gb_pairing_bytes(int32_t ncells)
{
    const gb_pairing *q = 0;
    size_t m = ncells > 0 ? (size_t)ncells : 1;
    return m * (sizeof *q->kv + sizeof *q->child + sizeof *q->sib + sizeof *q->prv);
}

static inline int gb_pairing_init(gb_pairing *q, int32_t ncells)
{
    gb_pairing z = {0};
    size_t m = ncells > 0 ? (size_t)ncells : 1;
    *q = z;
    q->root = -1;
    if (ncells < 0) { *q = z; errno = EINVAL; return -1; }
    q->kv = gb_malloc(m * sizeof *q->kv);
    q->child = gb_malloc(m * sizeof *q->child);
    q->sib = gb_malloc(m * sizeof *q->sib);
    q->prv = gb_malloc(m * sizeof *q->prv);
    if (!q->kv || !q->child || !q->sib || !q->prv) {
        gb_free(q->kv); gb_free(q->child); gb_free(q->sib); gb_free(q->prv);
        *q = z;
        errno = ENOMEM;
        return -1;
    }
    q->ncells = ncells;
    return 0;
}

/* Release the arrays; *q is zeroed.  Safe on a zeroed queue. */
static inline void gb_pairing_free(gb_pairing *q)
{
    gb_pairing z = {0};
    gb_free(q->kv); gb_free(q->child); gb_free(q->sib); gb_free(q->prv);
    *q = z;
}

/* Drop every node and zero the counters.  O(1). */
static inline void gb_pairing_clear(gb_pairing *q)
{
    gb_pq_counters z = {0};
    q->n = 0;
    q->root = -1;
    q->cnt = z;
}

static inline int gb_pairing_empty(const gb_pairing *q) { return q->n == 0; }
static inline size_t gb_pairing_size(const gb_pairing *q) { return q->n; }

/* Link two tree roots a and b (their sib/prv are ignored and the loser's
 * are overwritten); return the winner, whose sib/prv the caller sets. */
static inline int32_t gb_pairing_link_(gb_pairing *q, int32_t a, int32_t b)
{
    int32_t c, w = gb_pairing_before_(q, b, a) ? b : a;
    b = a ^ b ^ w;                          /* the loser */
    a = w;
    c = q->child[a];
    q->sib[b] = c;
    if (c >= 0) q->prv[c] = b;
    q->prv[b] = a;
    q->child[a] = b;
    return a;
}

/* Insert id, which must not be in the heap. */
static inline void gb_pairing_pushk(gb_pairing *q, int32_t id, uint64_t fk, uint64_t gk)
{
    q->kv[id].fk = fk;
    q->kv[id].gk = gk;
    q->child[id] = -1;
    q->sib[id] = -1;
    q->prv[id] = -1;
    if (q->root >= 0) {
        q->root = gb_pairing_link_(q, q->root, id);
        q->sib[q->root] = -1;
        q->prv[q->root] = -1;
    } else {
        q->root = id;
    }
    q->n++;
    q->cnt.pushes++;
    if (q->n > q->cnt.peak) q->cnt.peak = q->n;
}

/* id is in the heap and (f, g) precedes its key.  Update the key; unless
 * id is the root, cut its subtree and link it with the root.
 * If (f, g) does not precede the current key -- the search core does that
 * when a better g leaves f unchanged, as in greedy search, where the
 * larger-g-first rule ranks the new key behind the old one -- the key is
 * kept: the queue holds the minimum of the keys it was given, which is
 * also the entry a lazy queue pops first, so all queues still agree. */
static inline void gb_pairing_decreasek(gb_pairing *q, int32_t id, uint64_t fk, uint64_t gk)
{
    gb_pairing_kv old = q->kv[id];
    q->cnt.decreases++;
    q->kv[id].fk = fk;
    q->kv[id].gk = gk;
    if (!(q->kv[id].fk < old.fk
          || (q->kv[id].fk == old.fk && q->kv[id].gk < old.gk))) {
        q->kv[id] = old;                    /* not better: keep the key */
        return;
    }
    if (id != q->root) {
        int32_t p = q->prv[id], s = q->sib[id];
        if (q->child[p] == id) q->child[p] = s;
        else q->sib[p] = s;
        if (s >= 0) q->prv[s] = p;
        q->root = gb_pairing_link_(q, q->root, id);
        q->sib[q->root] = -1;
        q->prv[q->root] = -1;
    }
}

/* push and decrease with double keys: the integer images of (f, g). */
static inline void gb_pairing_push(gb_pairing *q, int32_t id, double f, double g)
{
    gb_pairing_pushk(q, id, gb_bheap_dk_fkey(f), gb_bheap_dk_gkey(g));
}
static inline void gb_pairing_decrease(gb_pairing *q, int32_t id, double f, double g)
{
    gb_pairing_decreasek(q, id, gb_bheap_dk_fkey(f), gb_bheap_dk_gkey(g));
}

/* Remove and return the root.  Precondition: not empty.  Two-pass merge of
 * the root's children: pairs left to right (the merged pairs are stacked
 * through sib[]), then the stack folded from the right. */
static inline int32_t gb_pairing_pop(gb_pairing *q)
{
    int32_t top = q->root, c = q->child[top], acc = -1, r;
    q->n--;
    q->cnt.pops++;
    while (c >= 0) {
        int32_t a = c, b = q->sib[a], m;
        if (b < 0) {
            m = a;
            c = -1;
        } else {
            c = q->sib[b];
            m = gb_pairing_link_(q, a, b);
        }
        q->sib[m] = acc;
        acc = m;
    }
    r = acc;
    if (r >= 0) {
        int32_t x = q->sib[r];
        while (x >= 0) {
            int32_t nx = q->sib[x];
            r = gb_pairing_link_(q, r, x);
            x = nx;
        }
        q->sib[r] = -1;
        q->prv[r] = -1;
    }
    q->root = r;
    return top;
}

/* 0 when the invariants hold; 1 node count differs from n, 2 id out of
 * range, 3 heap order broken, 5 more nodes than n (cycle or sharing),
 * 6 prv[] link not mutual, 7 root has sib/prv or root/n mismatch. */
static inline int gb_pairing_check(const gb_pairing *q)
{
    size_t count = 0;
    int32_t x = q->root, par = -1;
    if (x < 0) return q->n == 0 ? 0 : 7;
    if (x >= q->ncells) return 2;
    if (q->sib[x] != -1 || q->prv[x] != -1) return 7;
    for (;;) {
        if (++count > q->n) return 5;
        if (q->child[x] >= 0) {
            int32_t c = q->child[x];
            if (c >= q->ncells) return 2;
            if (q->prv[c] != x) return 6;
            if (gb_pairing_before_(q, c, x)) return 3;
            par = x;
            x = c;
            continue;
        }
        for (;;) {                      /* to the next sibling, or climb */
            if (par < 0) return count == q->n ? 0 : 1;
            if (q->sib[x] >= 0) {
                int32_t s = q->sib[x];
                if (s >= q->ncells) return 2;
                if (q->prv[s] != x) return 6;
                if (gb_pairing_before_(q, s, par)) return 3;
                x = s;
                break;
            }
            x = par;                    /* climb: find par's parent */
            if (x == q->root) {
                par = -1;
            } else {
                int32_t y = x;
                size_t steps = 0;
                while (q->prv[y] >= 0 && q->child[q->prv[y]] != y) {
                    y = q->prv[y];
                    if (++steps > q->n) return 5;
                }
                if (q->prv[y] < 0) return 6;
                par = q->prv[y];
            }
        }
    }
}

#endif
