/*
 * gb_queues.h -- the queue registry: every priority queue of gridbench,
 * one #include and one line each.  Nothing else lists the queues.
 *
 * A queue NAME lives in solvers/gb_pq_NAME.h and implements the
 * operation set of gb_pq.h (gb_NAME_init, _free, _bytes, _clear, _empty,
 * _size, _push, _decrease, _pop, _check and the counters cnt).  From the
 * list below are generated:
 *   - the enum gb_queue_kind (GB_Q_ENUM) and the aliases GB_QT_suffix,
 *     so code that only knows the type suffix can name the enum value;
 *   - the workspace's queue fields, their init, free and byte counts,
 *     and the compile-time dispatch the search cores use (gb_family.h);
 *   - the names, descriptions and "expected one of ..." messages of the
 *     command line (gb_queue_name, gb_queue_names), `gridbench list`,
 *     and therefore every script that asks `gridbench list`;
 *   - tests/test_pq.c's differential tests (every queue against the
 *     reference, with the lazy flag below) and tests/test_search.c's
 *     every-solver-on-every-queue property tests.
 *
 * Adding a queue: its header, its #include and one X line here, and a
 * test if it needs more than the generated ones.
 *
 * X(ENUM, type suffix, CLI name, lazy, description)
 *   lazy = 1 when decrease() pushes a second entry and pop() may return
 *   stale entries (the search skips closed ids), 0 for exact
 *   decrease-key queues, 2 when lazy only with exact keys of f = g (the
 *   bucket queue's Dijkstra mode, gb_pq_lanes.h): decrease-key with
 *   double keys (push/decrease), possibly lazy with pushk/decreasek.  A
 *   queue of lazy flag 2 also defines gb_T_pushk_dij, gb_T_decreasek_dij
 *   and gb_T_pop_dij (same contracts), which the search cores call when
 *   h = 0 (gb_q_pushk_dij, gb_family.h), so that its Dijkstra mode is
 *   inlined there and nowhere else.
 */
#ifndef GB_QUEUES_H
#define GB_QUEUES_H

#include "gb_pq_bheap.h"
#include "gb_pq_bheap_dk.h"
#include "gb_pq_4heap.h"
#include "gb_pq_pairing.h"
#include "gb_pq_bucket.h"
#include "gb_pq_radix.h"
#ifdef GB_BOUND_QUEUES
#include "gb_pq_bound.h"
#endif

#include "gb_queue_kind.h"

#endif
