/*
 * gb_gen.h -- seeded, reproducible generators for the three synthetic
 * families of the Moving AI benchmarks (random, maze, rooms) and for
 * scenarios (start/goal pairs with Dijkstra lengths, 4-wide buckets).
 *
 * Families (map geometry follows the Moving AI generators):
 *   random  exactly floor(W * H * P / 100) distinct cells blocked, chosen
 *           uniformly (the official random512-10-0.map has exactly
 *           floor(0.10 * 512 * 512) = 26214 '@' cells); no post-processing,
 *           so a random map can have several components.
 *   maze    walls 1 cell thick on every row and column that is a multiple
 *           of the pitch C + 1, corridors C cells wide between them; a
 *           randomized depth-first search (recursive backtracker) over the
 *           lattice of C x C cells knocks out the wall segment between a
 *           cell and each unvisited neighbour it moves to.  The result is a
 *           perfect maze: its lattice graph is a spanning tree, every
 *           passable cell is reachable.  Like the official maze512-C-N
 *           maps, the top and left borders are walls, and a last row or
 *           column of cells narrower than C is kept at the bottom/right
 *           edge when (W - 1) or (H - 1) is not a multiple of C + 1.
 *   rooms   walls 1 cell thick on every row and column that is a multiple
 *           of R (so rooms are R x R including one wall, (R-1) x
 *           inside, like the official <R>room_NNN maps).  The wall segments
 *           between adjacent rooms are visited in a random order; a segment
 *           gets doors when it joins two groups of rooms not yet connected
 *           (Kruskal: a random spanning tree, so every room connects) and
 *           otherwise with probability GB_GEN_ROOM_OPEN_PCT percent.  A
 *           segment with doors has max(1, R / 8) door cells at random
 *           positions along it (the official generator's R / 8 holes).
 *   terrain weighted maps (docs/terrain.md): ground '.', then
 *           max(1, W H / (2 R^2)) round patches, R = max(2, min(W, H) / 16)
 *           (about half the map covered), each of one letter drawn from
 *           G (read as a cheap road by the default costs), S (swamp),
 *           W (water), T (trees), centre uniform, radius 1 + a uniform
 *           draw below R, later patches over earlier
 *           ones; then obstacles '@' exactly as the random family places
 *           them (P percent).  pass[] follows Moving AI's letters (. G S);
 *           a terrain cost model (gb_terrain_apply) decides the rest.
 *
 * Scenarios (gb_gen_scen): queries only use cells of the largest connected
 * component under the movement model.  Starts are drawn without
 * replacement; one gb_dijkstra_all() per start; for every bucket b
 * (lengths in [4b, 4b + 4)) that is not yet full and that has cells at
 * that distance from the start, one goal is drawn uniformly among them.
 * The search stops after GB_GEN_MAX_STARTS_PER_BUCKET * per_bucket starts,
 * after GB_GEN_STALL_PER_BUCKET * per_bucket consecutive starts that added
 * nothing, or when every start was used.  Only full buckets (exactly
 * per_bucket queries) are kept; if max_queries > 0 and they hold more
 * than that, max_queries / per_bucket of them are kept, evenly spaced over
 * the full buckets: number floor(t * (F - 1) / (k - 1)), t = 0..k-1, of
 * the F full ones (so the first and the last; the middle one when k = 1).
 * Queries are sorted by bucket, then in the order they were drawn.
 * start != goal always.  A goal whose length lies within 1e-8 of a bucket
 * boundary without being on it is never drawn, so the bucket read back
 * from the printed %.8f length is always the bucket written.
 *
 * Reproducibility: xoshiro256** seeded through splitmix64 from the seed,
 * one stream for the map and another for the scenario; integers in [0, n)
 * by rejection (no modulo bias); no rand(), no clock, no addresses.  The
 * only floating point is floor(W * H * P / 100) and the Dijkstra lengths
 * and their buckets, all IEEE-754 deterministic, so the same options give
 * byte-identical files on every run and machine.
 *
 * Library code: never prints, never exits; errors fill a gb_diag.
 */
#ifndef GB_GEN_H
#define GB_GEN_H

#include <stddef.h>
#include <stdint.h>

#include "gb_diag.h"
#include "gb_grid.h"
#include "gb_map.h"
#include "gb_scen.h"

typedef enum gb_gen_family {
    GB_GEN_RANDOM = 0,
    GB_GEN_MAZE,
    GB_GEN_ROOMS,
    GB_GEN_TERRAIN,
    GB_GEN_COUNT
} gb_gen_family;

/* Largest width or height accepted (the padded cell count must also fit
 * GB_GRID_MAX_CELLS). */
#define GB_GEN_MAX_SIDE 16384
/* Largest maze corridor width accepted. */
#define GB_GEN_MAX_CORRIDOR 1024
/* Largest room size accepted. */
#define GB_GEN_MAX_ROOM 4096
/* Chance, in percent, that a wall segment whose rooms are already
 * connected gets doors anyway (loops between rooms). */
#define GB_GEN_ROOM_OPEN_PCT 50
/* Scenario search bounds, in multiples of per_bucket (see above). */
#define GB_GEN_MAX_STARTS_PER_BUCKET 20
#define GB_GEN_STALL_PER_BUCKET 4
/* Decimals printed for lengths, and the tolerance a loader derives from
 * them (gb_scen.h: 10^-8 * (1 + 1e-9)). */
#define GB_GEN_DECIMALS 8
#define GB_GEN_TOL (1e-8 * (1.0 + 1e-9))

typedef struct gb_gen_opts {
    int family;          /* gb_gen_family */
    int32_t width;       /* map columns, 1..GB_GEN_MAX_SIDE (maze/rooms >= 2) */
    int32_t height;      /* map rows, same range */
    double percent;      /* random: obstacle percentage, 0 <= P < 100 */
    int corridor;        /* maze: corridor width C, 1..GB_GEN_MAX_CORRIDOR */
    int room;            /* rooms: wall pitch R, 2..GB_GEN_MAX_ROOM */
    uint64_t seed;       /* any value; same seed, same output */
    int per_bucket;      /* scenario: queries per bucket, >= 1 */
    int max_queries;     /* scenario: 0 = no limit, else >= per_bucket */
    gb_model model;      /* scenario: movement model of the lengths */
    int goals;           /* many-to-one: goals drawn (gb_gen_scen_m2o) */
    int per_goal;        /* many-to-one: starts per goal */
} gb_gen_opts;

/* The costs `gen --family terrain` makes its scenario under when none
 * are given (G a road cheaper than ground, so that unscaled octile
 * overestimates). */
#define GB_GEN_TERRAIN_COSTS ".=1,G=0.5,S=3,W=5,T=inf"

/* Bounds of the many-to-one mode. */
#define GB_GEN_MAX_GOALS 100000
#define GB_GEN_MAX_PER_GOAL 1000000

/* Fill *o with the defaults of `gridbench gen`: random, 512x512, 20 %,
 * corridor 4, room 16, seed 0, 10 per bucket, no query limit, 8-nocut. */
void gb_gen_defaults(gb_gen_opts *o);

/* "random", "maze", "rooms", "terrain"; "?" out of range. */
const char *gb_gen_family_name(int family);
/* Inverse of gb_gen_family_name; -1 for an unknown name. */
int gb_gen_family_from_name(const char *name);

/* Check every field gb_gen_map and gb_gen_scen use.  Returns 0, or
 * EX_USAGE with *d saying which value is wrong ("expected a corridor
 * width from 1 to 1024, found 0"); d->path is empty. */
int gb_gen_check(const gb_gen_opts *o, gb_diag *d);

/* Write the base file name of the generated map, without ".map", into
 * buf (size n):
 *     random<S>-<P>-<seed>   e.g. random512-20-0, random256-12.5-7
 *     maze<S>-<C>-<seed>     e.g. maze512-4-0
 *     room<S>-<R>-<seed>     e.g. room512-16-0
 *     terrain<S>-<P>-<seed>  e.g. terrain256-10-0
 * where S is the width when width == height and "<W>x<H>" otherwise, and
 * P is the percentage without trailing zeros (at most 6 decimals).  The
 * text does not depend on the locale.  Returns 0, or -1 when buf is too
 * small (buf then holds a truncated, NUL-terminated name when n > 0). */
int gb_gen_name(const gb_gen_opts *o, char *buf, size_t n);

/* Generate the map described by *o into *out (out->path is NULL,
 * out->terrain holds '.' and '@' -- and G S W T for the terrain family --,
 * out->grid.npassable is set).  Uses
 * family, width, height, percent / corridor / room and seed.  Returns 0,
 * or EX_USAGE (bad options, as gb_gen_check) or EX_OSERR (out of memory)
 * with *d filled; on failure *out is zeroed and owns nothing.
 * Time complexity: O(W * H) (rooms: plus the union-find, near-linear). */
int gb_gen_map(const gb_gen_opts *o, gb_map *out, gb_diag *d);

/* Generate the queries of map *m (see the top of this file) into *out:
 * version 1, map_field = a copy of map_field (must be non-empty, without
 * blanks), queries with line = 2 + index, decimals = GB_GEN_DECIMALS,
 * tol = GB_GEN_TOL, exactly like gb_scen_load would give back after
 * gb_scen_write.  Uses seed, per_bucket, max_queries and model of *o.
 * Returns 0, or EX_USAGE (bad options), EX_DATAERR (the largest component
 * has fewer than 2 cells, or no bucket could be filled), EX_OSERR (out of
 * memory) with *d filled; on failure *out is zeroed and owns nothing.
 * *m is not modified.  Time complexity: O(S * N log N) for S starts over
 * a component of N cells. */
int gb_gen_scen(const gb_gen_opts *o, const gb_map *m, const char *map_field,
                gb_scen *out, gb_diag *d);

/* A many-to-one scenario of map *m (for flow fields: many agents, one
 * goal): o->goals goals drawn uniformly without replacement from the
 * largest connected component under o->model, and for each goal
 * o->per_goal distinct starts drawn uniformly from the rest of the
 * component (fewer when it is smaller; cells whose length would print
 * ambiguously at a bucket boundary, as in gb_gen_scen, are skipped).  One
 * gb_dijkstra_all() per goal gives the lengths; bucket = floor(length/4).
 * Queries are grouped by goal, in drawing order, lines 2, 3, ...; the
 * rest of *out as gb_gen_scen.  Same seed, same queries (the scenario
 * stream of the seed).  Returns 0, or EX_USAGE (bad counts, map column),
 * EX_DATAERR (component under 2 cells), EX_OSERR (out of memory) with *d
 * filled; on failure *out is zeroed and owns nothing.
 * Time complexity: O(goals * N log N) for a component of N cells. */
int gb_gen_scen_m2o(const gb_gen_opts *o, const gb_map *m, const char *map_field,
                    gb_scen *out, gb_diag *d);

/* Mark the largest connected component of g under model m: mark[id] = 1
 * for its cells and 0 for every other id (mark holds g->ncells bytes).
 * Ties go to the component with the smallest cell id.  Stores its size in
 * *count (0 when g has no passable cell).  Returns 0, or -1 (ENOMEM).
 * Time complexity: O(ncells). */
int gb_gen_largest_component(const gb_grid *g, gb_model m, uint8_t *mark,
                             int32_t *count);

#endif
