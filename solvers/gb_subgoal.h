/*
 * gb_subgoal.h -- subgoal graphs for optimal pathfinding on 8-neighbour
 * grids without corner cutting: simple subgoal graphs ("sg", Uras, Koenig
 * & Hernandez, ICAPS 2013) and two-level subgoal graphs ("sg-tl", Uras &
 * Koenig), optionally with a table of the distances between the global
 * subgoals ("sg-tl-dt").  The design, the invariants and the optimality
 * argument are in the head of gb_subgoal.c.
 *
 * Life cycle:
 *   gb_sg_build()  once per map (the preprocessing): subgoals, clearance
 *                  tables, edges, for sg-tl the global/local split, and
 *                  every buffer a query needs;
 *   gb_sg_query()  any number of times: no allocation, no I/O;
 *   gb_sg_free().
 * Model: 8-nocut only (the grid's pass[] is read under that rule).
 * Memory: every block comes from gb_alloc.h; gb_sg_bytes() is the sum of
 * the sizes the structure asked for and still holds.
 */
#ifndef GB_SUBGOAL_H
#define GB_SUBGOAL_H

#include <stddef.h>
#include <stdint.h>

#include "gb_grid.h"

typedef struct gb_sg gb_sg;

/* Per-query counters (the graph search only; the connection scans and the
 * refinement are not counted). */
typedef struct gb_sg_stats {
    uint64_t expanded;   /* graph nodes popped and expanded (the start included, the
                            goal not: popping it ends the search) */
    uint64_t generated;  /* successors whose g was set or improved */
    uint64_t pushes;     /* heap insertions */
    uint64_t pops;       /* heap removals (the heap has decrease-key: no stale pops) */
    uint64_t decreases;  /* decrease-key operations */
    uint64_t peak_open;  /* largest heap size */
} gb_sg_stats;

/* What a built graph holds, for reports and tests. */
typedef struct gb_sg_info {
    int32_t nsub;        /* subgoals */
    int32_t nglobal;     /* global subgoals (== nsub for sg) */
    int64_t edges;       /* undirected edges, all levels */
    int64_t global_edges;/* undirected edges between two global subgoals */
    int64_t added_edges; /* sg-tl: edges added when a subgoal was made local */
    int32_t table_nodes; /* sg-tl-dt: global subgoals in the distance table (0: none, the
                            query searches) */
} gb_sg_info;

/* Query outcome (gb_sg_query's return value when not -1; GB_SG_SEARCH
 * only from gb_sg_query_begin). */
enum { GB_SG_UNREACHABLE = 0, GB_SG_FOUND = 1, GB_SG_LIMIT = 2, GB_SG_SEARCH = 3 };

/* Build the subgoal graph of grid g (which must outlive it, unchanged)
 * under model 8-nocut; two_level 0 builds sg, 1 sg-tl, 2 sg-tl-dt (sg-tl
 * plus the distance table of its global subgoals when they are at most
 * DT_NODES, see gb_subgoal.c; else the same as sg-tl).
 * Returns 0 and stores the graph in *out, or -1 with *out = NULL and
 * errno = EINVAL (g or out NULL) or ENOMEM (an allocation failed; every
 * block taken so far is released). */
int gb_sg_build(gb_sg **out, const gb_grid *g, int two_level);

/* Release everything sg holds.  NULL is a no-op. */
void gb_sg_free(gb_sg *sg);

/* Bytes sg holds: the sum of the sizes it passed to gb_malloc/gb_calloc
 * for the blocks it still owns (the struct included).  The allocator may
 * round each block up (gb_alloc_live() counts usable sizes). */
size_t gb_sg_bytes(const gb_sg *sg);

/* Counts of the built graph into *info. */
void gb_sg_info_get(const gb_sg *sg, gb_sg_info *info);

/* Nonzero when sg was built as sg-tl. */
int gb_sg_two_level(const gb_sg *sg);

/* One query from cell id start to cell id goal (both passable map cells
 * of the grid sg was built on).  On GB_SG_FOUND, path[0..*len) holds the
 * cell ids of an optimal path start..goal, every step a legal 8-nocut
 * move, and *cost its cost (straight + diagonal * sqrt 2 of its steps;
 * 0 and *len = 1 when start == goal).  On GB_SG_UNREACHABLE *len = 0 and
 * *cost = INFINITY.  *st (if st is not NULL) gets the counters.
 * Returns GB_SG_FOUND, GB_SG_UNREACHABLE, or -1 with errno = EINVAL
 * (start/goal not a passable cell) or ERANGE (the path would need more
 * than cap cells; cap >= the grid's npassable is always enough, since an
 * optimal path visits no cell twice).  Allocates nothing; the query state
 * lives in sg, so one sg serves one query at a time. */
int gb_sg_query(gb_sg *sg, int32_t start, int32_t goal, int32_t *path, int32_t cap,
                int32_t *len, double *cost, gb_sg_stats *st);

/* gb_sg_query with limits on the graph search: it stops with GB_SG_LIMIT
 * (*len = 0, *cost = INFINITY) once more than max_expanded graph nodes
 * would be expanded (0 = no limit), or when, checked every
 * GB_SG_TIME_CHECK expansions, CLOCK_MONOTONIC is past deadline_ns
 * (INT64_MAX = none).  The connection scans and the refinement are not
 * limited (each is linear in the cells it walks). */
#define GB_SG_TIME_CHECK 64
int gb_sg_query_limited(gb_sg *sg, int32_t start, int32_t goal, int32_t *path, int32_t cap,
                        int32_t *len, double *cost, gb_sg_stats *st, uint64_t max_expanded,
                        int64_t deadline_ns);

/* sg-tl-dt, for tests: the cell of table index a (0 <= a < table_nodes),
 * -1 outside; and the table's distance between indices a and b: the cost
 * of a shortest path over global subgoals and the edges between them
 * (INFINITY when there is none; NAN for an index outside). */
int32_t gb_sg_table_cell(const gb_sg *sg, int32_t a);
double gb_sg_table_dist(const gb_sg *sg, int32_t a, int32_t b);

/* Nonzero when cell id is a subgoal of sg (for tests and images). */
int gb_sg_is_subgoal(const gb_sg *sg, int32_t id);

/* ---- the simple graph, read by sg-ch (gb_sgch.c) ----------------------
 * For an sg built with two_level 0 only.  Nodes are 0 .. n-1 (n =
 * gb_sg_nodes), subgoals in cell-id order; u's neighbours are
 * to[off[u] .. off[u+1]) (gb_sg_csr), each edge u-v costing the octile
 * distance h(u,v) with D(u,v) and D(v,u) both legal.  Nothing here
 * allocates. */
int32_t gb_sg_nodes(const gb_sg *sg);
int32_t gb_sg_cell(const gb_sg *sg, int32_t v);
void gb_sg_csr(const gb_sg *sg, const int32_t **off, const int32_t **to);

/* The clearance scan from passable cell c (the one sg and sg-tl run):
 * writes to out (room for gb_sg_nodes(sg) + 1 ids) the node ids of the
 * subgoals direct-h-reachable from c, each once, c itself never, every
 * one with D(c, v) legal, and to last[i] (same room) the direction of the
 * last move of D(c, out[i]); returns their number.  Reads sg only. */
int32_t gb_sg_scan(const gb_sg *sg, int32_t c, int32_t *out, uint8_t *last);

/* The endpoint cases that every subgoal-graph query (sg, sg-tl, sg-ch)
 * settles before its search, on grid g: sets *len = 0, *cost = INFINITY,
 * then returns -1 with errno EINVAL (start or goal not a passable cell)
 * or ERANGE (the answer needs more than cap cells); GB_SG_FOUND with the
 * path written as gb_sg_query does when start == goal or D(start, goal)
 * or D(goal, start) is legal (its cost is the octile distance: nothing is
 * shorter); else GB_SG_SEARCH: a graph search is needed. */
int gb_sg_query_begin(const gb_grid *g, int32_t start, int32_t goal, int32_t *path, int32_t cap,
                      int32_t *len, double *cost);

/* Nonzero when the diagonal-first freespace path D(a, b) between cells a
 * and b of g is legal under 8-nocut (a == b: 1). */
int gb_sg_dfirst_legal(const gb_grid *g, int32_t a, int32_t b);

/* Write the cells of D(a, b) to out[0 .. steps] (out[0] = a), or with rev
 * the cells of D(b, a) in reverse order (out[0] still a); steps =
 * max(|dx|, |dy|).  Adds its straight and diagonal moves to *ns, *nd and
 * returns steps.  The caller vouches for legality and room. */
int32_t gb_sg_dfirst_emit(const gb_grid *g, int32_t a, int32_t b, int rev, int32_t *out,
                          int64_t *ns, int64_t *nd);

/* Move directions (bit k = direction k of gb_grid.h) of the freespace
 * paths from cell a to cell b (a != b): the diagonal's bit if they have
 * diagonal moves, the straight one's if they have straight ones. */
uint8_t gb_sg_move_mask(const gb_grid *g, int32_t a, int32_t b);

/* The out-directions e such that a path entering cell c by a direction
 * of in_mask and leaving it by e has a strictly shorter legal local
 * replacement (a 135/180-degree turn, 90 degrees between diagonals, or
 * 90 degrees between straight moves with the corner cell free). */
uint8_t gb_sg_turn_prune(const gb_sg *sg, int32_t c, unsigned in_mask);

#endif
