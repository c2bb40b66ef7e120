/*
 * gb_dyngen.h -- seeded, reproducible dynamic scenarios (docs/dynamic.md)
 * from any map: doors that close (and some reopen) at fixed steps, and
 * obstacles that appear near the agent's path when it comes close.
 *
 * For each query:
 *   1. start and goal: the next query of a given .scen (queries spread
 *      evenly over the file, those on blocked cells skipped), or else a
 *      pair drawn in the largest connected component with Chebyshev
 *      distance at least max(W, H) / 4 (the largest drawn in 64 tries
 *      when none reaches it);
 *   2. the initial shortest path P (A*, octile), of L steps;
 *   3. doors: a door is a passable cell between two blocked cells on
 *      opposite sides (W and E, or N and S) whose other two sides are
 *      passable: a one-cell opening.  `doors` of them are drawn, without
 *      repetition, among the doors within Chebyshev distance 8 of P (all
 *      doors of the map when there are too few near it), never the start
 *      or the goal; each gives "at T block X,Y", T uniform in [1, L/2];
 *      with probability reopen_pct % also "at T2 free X,Y", T2 uniform in
 *      [T + 1, T + L/2];
 *   4. obstacles: `obstacles` times, a cell of P drawn uniformly between
 *      steps L/5 and 4L/5, shifted by up to 2 cells in x and y, is the
 *      top-left corner of a square of side 1..blob; its cells that are
 *      passable on the map, neither start nor goal, give "near R block
 *      ...", R = radius (no event when none is left).
 * Events are written doors first, then obstacles, in drawing order.
 *
 * Reproducibility: one splitmix64 stream from the seed, integers in
 * [0, n) by rejection; no clock, no addresses, no floating point in any
 * decision: the same map, options and seed give the same bytes.
 *
 * Library code: never prints, never exits; errors fill a gb_diag.
 */
#ifndef GB_DYNGEN_H
#define GB_DYNGEN_H

#include <stdint.h>

#include "gb_diag.h"
#include "gb_dynscen.h"
#include "gb_map.h"
#include "gb_scen.h"

typedef struct gb_dyngen_opts {
    uint64_t seed;
    int queries;       /* queries to write, >= 1 (default 20) */
    int doors;         /* door closings per query, >= 0 (default 3) */
    int obstacles;     /* appearing obstacles per query, >= 0 (default 3) */
    int radius;        /* sensing radius of the obstacles, >= 1 (default 3) */
    int blob;          /* largest obstacle side, >= 1 (default 3) */
    int reopen_pct;    /* percent of closed doors that reopen, 0..100 (30) */
    gb_model model;    /* movement model of the initial path */
} gb_dyngen_opts;

/* Limits of the options (gb_dyngen_check). */
#define GB_DYNGEN_MAX_QUERIES 1000000
#define GB_DYNGEN_MAX_EVENTS 10000
#define GB_DYNGEN_MAX_BLOB 64
#define GB_DYNGEN_MAX_RADIUS 1000000

void gb_dyngen_defaults(gb_dyngen_opts *o);

/* Check the option values.  0, or EX_USAGE with "expected ..., found ..."
 * in *d (d->path empty). */
int gb_dyngen_check(const gb_dyngen_opts *o, gb_diag *d);

/* Generate the queries and events for map *m into *out (version 1,
 * map_field copied, lines numbered as gb_dynscen_write then
 * gb_dynscen_load would give them).  scen (may be NULL) supplies starts
 * and goals.  0, or EX_USAGE (bad options), EX_DATAERR (the map has no
 * two connected cells, or the .scen does not fit the map), EX_OSERR
 * with *d filled; on failure *out is zeroed.  *m is not modified. */
int gb_dyngen(const gb_dyngen_opts *o, const gb_map *m, const char *map_field,
              const gb_scen *scen, gb_dynscen *out, gb_diag *d);

#endif
