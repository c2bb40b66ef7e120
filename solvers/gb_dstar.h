/*
 * gb_dstar.h -- D* Lite (Koenig & Likhachev 2002) on a grid that changes
 * while an agent moves, with LPA* as its core: the search is kept between
 * plans and only what a change affects is repaired.
 *
 * Use (one agent, one query = one "episode"):
 *     gb_dstar *d = gb_dstar_new(&grid, model);
 *     gb_dstar_begin(d, start, goal);
 *     gb_dstar_plan(d, &p);                    // first plan
 *     loop: gb_dstar_move(d, next cell);       // the agent stepped
 *           gb_grid_set(&grid, id, 0|1); gb_dstar_cell_changed(d, id);
 *           gb_dstar_plan(d, &p);              // repaired plan
 *     gb_dstar_free(d);
 * The grid is the caller's and must outlive d; d keeps its own move
 * masks (built by gb_dstar_new) and repairs them around every cell it is
 * told about, so every flip of the grid must be told, between episodes
 * and before the first one too (restoring a map cell by cell, say).
 *
 * Call order: any order is safe.  Before the first gb_dstar_begin there
 * is no episode: gb_dstar_cell_changed only repairs the masks,
 * gb_dstar_move does nothing and gb_dstar_plan_path fails (-1, EINVAL).
 * Cells that change before an episode begins are simply part of the map
 * it begins on, so they may be told before or after gb_dstar_begin.  The
 * move
 * graph is undirected under every gb_model (a diagonal needs the same two
 * side cells in both directions), so predecessors are successors.
 *
 * Costs are exact: a + b*sqrt2 with integer a (straight steps, plus the
 * straight part of the heuristic) and b (diagonal steps), compared
 * exactly, so g == rhs tests never meet rounding, and a plan's cost is
 * the validator's (straight, diagonal) count.  Paths are limited to
 * fewer than 2^31 steps of each kind.
 *
 * Terrain costs (gb_terrain.h): on a grid with cost[] (under 8-nocut or
 * 4) a move costs its mean-rule units and a, b count straight and
 * diagonal units of 1/cscale, as the validator does; the heuristic is
 * scaled by qmin.  Cells then change with gb_grid_set_cost(), with costs
 * inside the grid's [qmin, qmax] as it was when d was made.
 *
 * No I/O, no exit; allocation only in gb_dstar_new.
 */
#ifndef GB_DSTAR_H
#define GB_DSTAR_H

#include <stdint.h>

#include "gb_grid.h"

typedef struct gb_dstar gb_dstar;

/* What one gb_dstar_plan() found and what it cost. */
typedef struct gb_dstar_plan {
    int found;            /* 1: path[] leads from the agent to the goal;
                             0: the goal is unreachable on the map now */
    int64_t straight;     /* exact cost of the path: straight steps ... */
    int64_t diag;         /* ... and diagonal steps (terrain costs: units) */
    double cost;          /* straight + diag * sqrt 2 (terrain: / cscale) */
    const int32_t *path;  /* cell ids agent..goal, owned by d, valid until
                             the next call on d; NULL when not found */
    int32_t path_len;     /* cells on path (1 when agent == goal) */
    uint64_t expanded;    /* vertices made consistent (over- or under-)
                             since the previous plan */
    uint64_t pops;        /* queue pops since the previous plan (with
                             key updates) */
    uint64_t updates;     /* UpdateVertex calls since the previous plan
                             (the changes' repairs included) */
} gb_dstar_plan;

/* A D* Lite state for grid g (not owned) under model m, sized for it,
 * with no episode yet (see "Call order" above).  NULL with errno =
 * ENOMEM.  Memory: about 101 bytes per padded cell. */
gb_dstar *gb_dstar_new(const gb_grid *g, gb_model m);
void gb_dstar_free(gb_dstar *d);

/* Start an episode: the agent at start, the goal (both map cells; start
 * may equal goal).  Everything of the previous episode is forgotten (a
 * generation stamp, no clearing): O(1).  No search runs yet. */
void gb_dstar_begin(gb_dstar *d, int32_t start, int32_t goal);

/* The agent now stands on cell id (normally the next cell of the last
 * plan).  O(1): the key modifier km is brought up to date lazily, at the
 * next change, as in the paper.  A no-op before the first episode. */
void gb_dstar_move(gb_dstar *d, int32_t id);

/* Map cell id was flipped (gb_grid_set) since d last saw it: its 3x3
 * block's masks are recomputed and, during an episode, the rhs of every
 * cell of the block is recomputed and queued if inconsistent.  Telling d
 * about a cell that did not change is harmless; so is a call between
 * episodes (only the masks matter then); before the first gb_dstar_begin
 * only the masks are touched (O(1)).  O(log n) per block cell. */
void gb_dstar_cell_changed(gb_dstar *d, int32_t id);

/* Repair the search (LPA*'s ComputeShortestPath, keys relative to the
 * agent) and extract the path by descending g from the agent.  Fills *p.
 * Returns 0, or -1 with found = 0 in *p: before the first gb_dstar_begin
 * (errno = EINVAL), or when path extraction failed (a loop or a dead
 * end: a bug, never expected). */
int gb_dstar_plan_path(gb_dstar *d, gb_dstar_plan *p);

/* Bytes gb_dstar_new allocates for a grid of ncells padded cells. */
size_t gb_dstar_bytes(int32_t ncells);

#endif
