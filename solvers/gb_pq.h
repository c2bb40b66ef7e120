/*
 * gb_pq.h -- what every priority queue of gridbench shares: the ordering
 * rule, the operation counters, and the operation set.
 *
 * Ordering (one rule for every queue, so that all queues pop the valid
 * entries of a search in the same order):
 *     entry a comes before entry b  iff
 *         a.f <  b.f, or
 *         a.f == b.f and a.g >  b.g      (ties on f go to larger g), or
 *         a.f == b.f and a.g == b.g and a.id < b.id   (deterministic)
 * Comparisons are exact double comparisons on the values the search
 * computed; no epsilon.
 *
 * Operation set.  Each queue QUEUE lives in solvers/gb_pq_QUEUE.h and
 * defines a struct gb_QUEUE and these functions, all static inline so that
 * the search core (instantiated once per queue) calls them directly:
 *
 *   int     gb_QUEUE_init(gb_QUEUE *q, int32_t ncells);
 *       Allocate for node ids in [0, ncells).  0, or -1 with errno = ENOMEM
 *       (nothing left allocated).  The only function that allocates.
 *   void    gb_QUEUE_free(gb_QUEUE *q);       release; safe on a zeroed q.
 *   void    gb_QUEUE_clear(gb_QUEUE *q);      empty the queue, zero counters.
 *   int     gb_QUEUE_empty(const gb_QUEUE *q);
 *   size_t  gb_QUEUE_size(const gb_QUEUE *q); live entries (lazy queues:
 *                                             entries including stale ones).
 *   void    gb_QUEUE_push(gb_QUEUE *q, int32_t id, double f, double g);
 *       Insert id, which the caller guarantees is not in the queue
 *       (decrease-key queues) -- lazy queues accept anything.
 *   void    gb_QUEUE_decrease(gb_QUEUE *q, int32_t id, double f, double g);
 *       id is in the queue; its key becomes the better (earlier under the
 *       ordering rule) of the old key and (f, g).  Usually (f, g) is the
 *       better one; in greedy best-first search (f = h, independent of g)
 *       a shorter path to an open node gives the same f and a smaller g,
 *       which ranks later, and the old key stays.  Lazy queues push a new
 *       entry and leave the old one to be popped as stale -- the earlier of
 *       the two pops first either way, so all queues pop the same order.
 *   void    gb_QUEUE_pushk(gb_QUEUE *q, int32_t id, uint64_t fk, uint64_t gk);
 *   void    gb_QUEUE_decreasek(gb_QUEUE *q, int32_t id, uint64_t fk, uint64_t gk);
 *       The same with exact integer keys (solvers/gb_exact.h): fk = D(f)
 *       and gk = ~D(g), so the ordering rule is (fk, gk, id) ascending on
 *       integers, and equal real costs are equal keys.  All pushes between
 *       two clear() calls use one kind of key (the bucket queue derives its
 *       bucket index from the kind).  push(f, g) is pushk of the
 *       order-preserving images of the doubles (gb_bheap_dk_fkey).
 *   int32_t gb_QUEUE_pop(gb_QUEUE *q);
 *       Remove and return the first entry under the ordering rule.  The
 *       queue must not be empty.  Lazy queues may return an id whose entry
 *       is stale; the search detects that (the node is already closed).
 *   int     gb_QUEUE_check(const gb_QUEUE *q);
 *       Invariant checker for tests: 0 when the structure is well formed,
 *       otherwise a nonzero code naming the broken invariant.
 *
 * Keys are finite and >= 0 (f may be smaller than a previously popped f:
 * weighted A* and greedy search are not monotone, and every queue must
 * still pop in exact order).
 */
#ifndef GB_PQ_H
#define GB_PQ_H

#include <stddef.h>
#include <stdint.h>

/* Counters every queue keeps; cleared by clear(). */
typedef struct gb_pq_counters {
    uint64_t pushes;     /* push() calls, plus pushes made by lazy decrease() */
    uint64_t pops;       /* pop() calls */
    uint64_t decreases;  /* decrease() calls */
    uint64_t peak;       /* largest size() seen */
} gb_pq_counters;

/* The ordering rule: nonzero when (fa, ga, ida) comes before (fb, gb, idb). */
static inline int gb_pq_before(double fa, double ga, int32_t ida,
                               double fb, double gb, int32_t idb)
{
    if (fa != fb) return fa < fb;
    if (ga != gb) return ga > gb;
    return ida < idb;
}

#endif
