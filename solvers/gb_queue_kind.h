/*
 * gb_queue_kind.h -- the names of the priority queues: the X-macro lists
 * and the enum gb_queue_kind, without the queues themselves.
 *
 * The public headers (gb_search.h and what includes it) need only these
 * names; the implementations (gb_pq_*.h) are included by gb_queues.h,
 * which the search core and the tests use, so a plugin or library user
 * never compiles queue internals.  Invariant: the lists here and the
 * includes of gb_queues.h name the same queues.
 */
#ifndef GB_QUEUE_KIND_H
#define GB_QUEUE_KIND_H


/* The exact queues: the default build, the tests, every CSV. */
#define GB_QUEUE_LIST_EXACT(X) \
    X(BHEAP,    bheap,    "bheap",    1, "binary heap, lazy deletion (re-push, skip stale)") \
    X(BHEAP_DK, bheap_dk, "bheap-dk", 0, "binary heap with decrease-key (position index)") \
    X(4HEAP,    4heap,    "4heap",    0, "4-ary heap with decrease-key") \
    X(PAIRING,  pairing,  "pairing",  0, "pairing heap with decrease-key, two-pass merge") \
    X(BUCKET,   bucket,   "bucket",   2, "exact bucket queue; Dijkstra: two sorted lanes (lazy)") \
    X(RADIX,    radix,    "radix",    0, "radix heap on the bits of f")

/* Timing-bound queues (solvers/gb_pq_bound.h): not exact, only in a build
 * with -DGB_BOUND_QUEUES (`make bench-bounds`), never in the default one. */
#ifdef GB_BOUND_QUEUES
#define GB_QUEUE_LIST_BOUNDS(X) \
    X(BOUND_FIFO, bound_fifo, "bound-fifo", 1, "timing bound, NOT exact: FIFO, no order") \
    X(BOUND_DIAL, bound_dial, "bound-dial", 1, "timing bound, NOT exact: Dial, no order in a bucket")
#else
#define GB_QUEUE_LIST_BOUNDS(X)
#endif

/* Every queue of this build. */
#define GB_QUEUE_LIST(X) GB_QUEUE_LIST_EXACT(X) GB_QUEUE_LIST_BOUNDS(X)

typedef enum gb_queue_kind {
#define GB_X(E, T, N, L, D) GB_Q_##E,
    GB_QUEUE_LIST(GB_X)
#undef GB_X
    GB_Q_COUNT
} gb_queue_kind;

/* GB_QT_bheap == GB_Q_BHEAP, ...: the enum value from the type suffix. */
enum {
#define GB_X(E, T, N, L, D) GB_QT_##T = GB_Q_##E,
    GB_QUEUE_LIST(GB_X)
#undef GB_X
    GB_QT_COUNT_
};

#endif
