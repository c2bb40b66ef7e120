/*
 * gb_pq_pool.h -- the node pool that the bucket and radix queues share:
 * one node per queued id, threaded through lists, plus the arrays of the
 * exact heap each of those queues keeps for its least keys.
 *
 * Data structure
 *   A queued id is a node of nd[] (node = {fk, gk, id, nxt, prv}, 32
 *   bytes; fk, gk are the exact integer images of f and g from
 *   gb_pq_bheap_dk.h).  Nodes come from a LIFO free list (freel, linked
 *   through nxt), else from the high-water mark hw, so the nodes in use
 *   stay few and cache-hot however large the map.  loc[id] names the node
 *   of a queued id.  A queue threads its lists (buckets, window slots, the
 *   overflow) through nxt/prv: a list is a head index, -1 exactly when the
 *   list is empty, and prv = -1 at the head.  nd[-1] is a scratch node:
 *   linking into an empty list writes the back link there, so
 *   gb_pool_link() has no branch.  heap[] and hpos[] (hpos[node] = heap
 *   slot) are the arrays of the gb_bheap_dk core the queues use for their
 *   least keys (heap entry aux = node).
 *
 * Invariants (what gb_pool_check_free and gb_pool_check_node test)
 *   - 0 <= hw <= ncells; every node of [0, hw) is queued or on the free
 *     list, never both;
 *   - loc[nd[x].id] == x for every queued node x, and 0 <= id < ncells;
 *   - in a list, nd[nd[x].nxt].prv == x, and the head's prv is -1.
 *
 * Memory: 64 bytes per cell (node 32, loc 4, hpos 4, heap entry 24) plus
 * the scratch node.  clear() is O(1).
 */
#ifndef GB_PQ_POOL_H
#define GB_PQ_POOL_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>

#include "gb_alloc.h"
#include "gb_pq_bheap_dk.h"

/* A pool node: one queued id. */
typedef struct gb_pool_node {
    uint64_t fk;   /* gb_bheap_dk_fkey(f) */
    uint64_t gk;   /* gb_bheap_dk_gkey(g) */
    int32_t id;    /* the queued id */
    int32_t nxt;   /* list: next node or -1; free list: next free node */
    int32_t prv;   /* list: previous node, or -1 at the head */
    int32_t pad_;  /* keeps a node at 32 bytes (never straddles a line) */
} gb_pool_node;

typedef struct gb_pool {
    gb_pool_node *nd;       /* [ncells] nodes, [0, hw) ever used; nd[-1]
                               is the scratch node (see gb_pool_link) */
    int32_t *loc;           /* [ncells] node of each queued id */
    int32_t *hpos;          /* [ncells] heap slot of a node in the heap */
    gb_bheap_dk_ent *heap;  /* [ncells] the owner's exact heap (aux = node) */
    int32_t freel;          /* first node of the free list, or -1 */
    int32_t hw;             /* high-water mark: nodes [0, hw) ever used */
    int32_t ncells;         /* ids are in [0, ncells) */
} gb_pool;

/* Bytes gb_pool_init allocates for ncells (>= 0). */
static inline size_t gb_pool_bytes(int32_t ncells)
{
    const gb_pool *p = 0;
    size_t m = ncells > 0 ? (size_t)ncells : 1;
    return (m + 1) * sizeof *p->nd + m * (sizeof *p->loc + sizeof *p->hpos + sizeof *p->heap);
}

/* Allocate for ids in [0, ncells).  0, or -1 with errno (ENOMEM, or
 * EINVAL for ncells < 0) and *p zeroed, nothing left allocated. */
static inline int gb_pool_init(gb_pool *p, int32_t ncells)
{
    gb_pool z = {0};
    size_t m = ncells > 0 ? (size_t)ncells : 1;
    *p = z;
    if (ncells < 0) { errno = EINVAL; return -1; }
    p->nd = gb_malloc((m + 1) * sizeof *p->nd);
    p->loc = gb_malloc(m * sizeof *p->loc);
    p->hpos = gb_malloc(m * sizeof *p->hpos);
    p->heap = gb_malloc(m * sizeof *p->heap);
    if (!p->nd || !p->loc || !p->hpos || !p->heap) {
        gb_free(p->nd); gb_free(p->loc); gb_free(p->hpos); gb_free(p->heap);
        *p = z;
        errno = ENOMEM;
        return -1;
    }
    p->nd++;                                  /* nd[-1]: the scratch node */
    p->ncells = ncells;
    p->freel = -1;
    return 0;
}

/* Release everything; *p is zeroed.  Safe on a zeroed pool. */
static inline void gb_pool_free(gb_pool *p)
{
    gb_pool z = {0};
    if (p->nd) gb_free(p->nd - 1);
    gb_free(p->loc); gb_free(p->hpos); gb_free(p->heap);
    *p = z;
}

/* Forget every node (the owner forgets its lists).  O(1). */
static inline void gb_pool_clear(gb_pool *p)
{
    p->freel = -1;
    p->hw = 0;
}

/* A node for id with keys fk, gk (free list first, else a fresh one);
 * loc[id] names it.  Its links are left to the caller. */
static inline int32_t gb_pool_take(gb_pool *p, int32_t id, uint64_t fk, uint64_t gk)
{
    int32_t x = p->freel;
    if (x >= 0) p->freel = p->nd[x].nxt;
    else x = p->hw++;
    p->nd[x].fk = fk;
    p->nd[x].gk = gk;
    p->nd[x].id = id;
    p->loc[id] = x;
    return x;
}

/* Put node x (no longer in any list or heap) back on the free list. */
static inline void gb_pool_give(gb_pool *p, int32_t x)
{
    p->nd[x].nxt = p->freel;
    p->freel = x;
}

/* The heap entry of node x. */
static inline gb_bheap_dk_ent gb_pool_ent(const gb_pool *p, int32_t x)
{
    gb_bheap_dk_ent e;
    e.fk = p->nd[x].fk;
    e.gk = p->nd[x].gk;
    e.id = p->nd[x].id;
    e.aux = x;
    return e;
}

/* Put node x at the front of the list *head.  No branch: an empty list
 * has head -1, and the back link then goes to the scratch node nd[-1]. */
static inline __attribute__((always_inline)) void gb_pool_link(gb_pool *p, int32_t *head,
                                                               int32_t x)
{
    int32_t h = *head;
    p->nd[x].nxt = h;
    p->nd[x].prv = -1;
    p->nd[h].prv = x;
    *head = x;
}

/* Take node x out of the list *head.  Returns 1 when the list is now
 * empty (*head is then -1), else 0. */
static inline int gb_pool_unlink(gb_pool *p, int32_t *head, int32_t x)
{
    int32_t q = p->nd[x].prv, y = p->nd[x].nxt;
    if (y >= 0) p->nd[y].prv = q;
    if (q >= 0) { p->nd[q].nxt = y; return 0; }
    *head = y;
    return y < 0;
}

/* For the owners' check(): 0 when node x is a used node holding a valid
 * id that loc[] names; 2 when x or its id is out of range; 11 when loc[]
 * names another node. */
static inline int gb_pool_check_node(const gb_pool *p, int32_t x)
{
    if (x < 0 || x >= p->hw) return 2;
    if (p->nd[x].id < 0 || p->nd[x].id >= p->ncells) return 2;
    if (p->loc[p->nd[x].id] != x) return 11;
    return 0;
}

/* For the owners' check(): 0 when hw is in range and the free list holds
 * exactly the used nodes that are not among the nqueued queued ones;
 * 2 when a free node is out of range; 1 when the counts do not add up. */
static inline int gb_pool_check_free(const gb_pool *p, size_t nqueued)
{
    size_t nfree = 0;
    if (p->hw < 0 || p->hw > (p->ncells > 0 ? p->ncells : 0)) return 1;
    for (int32_t x = p->freel; x >= 0; x = p->nd[x].nxt) {
        if (x >= p->hw) return 2;
        if (++nfree > (size_t)p->hw) return 1;
    }
    return nfree + nqueued == (size_t)p->hw ? 0 : 1;
}

#endif
