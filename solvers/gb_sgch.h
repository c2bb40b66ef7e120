/*
 * gb_sgch.h -- sg-ch: a contraction hierarchy over the simple subgoal
 * graph (gb_subgoal.h), for the 8-nocut model.  Design, invariants and
 * the optimality argument are in the head of gb_sgch.c.
 *
 * Life cycle: gb_sgch_build() once per map (the preprocessing: the
 * subgoal graph, the node order, the shortcuts, the query buffers);
 * gb_sgch_query() any number of times (no allocation, no I/O; the query
 * state lives in the structure, one query at a time); gb_sgch_free().
 * Memory: every block from gb_alloc.h; gb_sgch_bytes() is their sum.
 */
#ifndef GB_SGCH_H
#define GB_SGCH_H

#include <stddef.h>
#include <stdint.h>

#include "gb_grid.h"
#include "gb_subgoal.h"

typedef struct gb_sgch gb_sgch;

/* What a built hierarchy holds, for reports and tests. */
typedef struct gb_sgch_info {
    int32_t nodes;       /* subgoals (all of them are in the hierarchy) */
    int64_t edges;       /* undirected edges of the subgoal graph */
    int64_t shortcuts;   /* undirected shortcuts the contraction added */
    int64_t up_entries;  /* entries of the upward graph (= edges + shortcuts) */
    int64_t witness_settled; /* nodes settled by all witness searches of the build */
} gb_sgch_info;

/* Build the hierarchy of grid g (which must outlive it, unchanged).
 * Returns 0 with *out set, or -1 with *out = NULL and errno = EINVAL (g or
 * out NULL, or g above GB_EXACT_MAX_CELLS cells: the keys would not be
 * exact) or ENOMEM (nothing is left allocated). */
int gb_sgch_build(gb_sgch **out, const gb_grid *g);

/* Release everything h holds.  NULL is a no-op. */
void gb_sgch_free(gb_sgch *h);

/* Bytes h holds (the subgoal graph inside it included): the sum of the
 * sizes it asked gb_malloc/gb_calloc/gb_realloc for and still owns. */
size_t gb_sgch_bytes(const gb_sgch *h);

/* Counts of the built hierarchy into *info. */
void gb_sgch_info_get(const gb_sgch *h, gb_sgch_info *info);

/* One query from cell id start to cell id goal (passable cells of the
 * grid h was built on), with the contract of gb_sg_query_limited: on
 * GB_SG_FOUND path[0..*len) is an optimal path (legal 8-nocut steps) and
 * *cost its cost (0 and *len = 1 when start == goal); GB_SG_UNREACHABLE
 * (*len = 0, *cost = INFINITY); GB_SG_LIMIT once more than max_expanded
 * nodes (0 = no limit) would be settled, or, checked every
 * GB_SG_TIME_CHECK settles, CLOCK_MONOTONIC is past deadline_ns
 * (INT64_MAX = none); -1 with errno = EINVAL (an endpoint not passable)
 * or ERANGE (the path needs more than cap cells).  *st (if not NULL) gets
 * the counters of the upward searches (both directions summed). */
int gb_sgch_query(gb_sgch *h, int32_t start, int32_t goal, int32_t *path, int32_t cap,
                  int32_t *len, double *cost, gb_sg_stats *st, uint64_t max_expanded,
                  int64_t deadline_ns);

#endif
