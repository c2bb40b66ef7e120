/*
 * gb_plan.h -- the first stage of a run: the whole matrix as data.
 *
 * A plan is every selected query of every scenario file, in order
 * (scenario files in the order given, queries in file order, thinned by
 * --first/--count/--sample), each to be run through every (solver, queue)
 * pair of the run.  Plan index k = 0 .. n-1 names one query; a query's
 * rows are always the run's npairs rows, in pair order.
 *
 * The plan carries its fingerprint: the options that decide which rows
 * are written, the pairs, and for every scenario its path and the SHA-256
 * of the scenario file and of its map file.  Two runs with equal
 * fingerprints write the same rows (timing columns aside), however the
 * work was split: that is what `--resume`, `--jobs`, `--shard` and
 * `gridbench merge` rely on.
 *
 * Sharding: shard I of N holds the plan indices k with k mod N == I
 * (round robin, so every shard sees every map and the slices cost about
 * the same).
 *
 * Invariants: every scen[i].sc is loaded (>= 1 query); item[k].scen <
 * nscen and item[k].qi < scen[item[k].scen].sc.n; items are in plan order.
 */
#ifndef GB_PLAN_H
#define GB_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "gb_diag.h"
#include "gb_scen.h"

struct gb_run_opts;

typedef struct gb_plan_scen {
    const char *path;        /* the scenario path as given (not owned) */
    char map[1024];          /* its map file (resolved, or --map) */
    char scen_sha[65];       /* SHA-256 of the scenario file */
    char map_sha[65];        /* SHA-256 of the map file */
    gb_scen sc;              /* the loaded scenario */
} gb_plan_scen;

typedef struct gb_plan_item {
    int32_t scen;            /* index into scen[] */
    uint32_t qi;             /* index into scen[scen].sc.q */
} gb_plan_item;

typedef struct gb_plan {
    gb_plan_scen *scen;
    int nscen;
    gb_plan_item *item;      /* [n], plan order */
    size_t n;
    double work;             /* sum of gb_plan_work() over the items */
    char fingerprint[160];   /* readable head + SHA-256 of everything above */
} gb_plan;

/* Build the plan of a run over scenario files scens[0..nscen): load each
 * scenario, resolve its map (or take opts->map_override), hash both files,
 * select the queries and fingerprint it all.  Returns 0, or a sysexits
 * code with *d filled (the scenario's or the map's loader error); on
 * failure *p owns nothing. */
int gb_plan_build(gb_plan *p, const struct gb_run_opts *opts, char *const *scens, int nscen,
                  gb_diag *d);

/* Release what *p owns and zero it.  Safe on a zeroed plan. */
void gb_plan_free(gb_plan *p);

/* The query of plan index k. */
const gb_query *gb_plan_query(const gb_plan *p, size_t k);

/* An estimate of the work of plan index k, in arbitrary units, for a
 * progress ETA: searches grow with the square of the printed length
 * (Dijkstra's disc) but never past the map's cells (as printed in the
 * scenario; a maze's paths are far longer than its side), plus a fixed
 * part per query that grows with the map (per-query arrays, flow fields,
 * per-map preparation spread over its queries): 64 + cells/4 + min(len^2,
 * cells).  Uncapped without a printed map size. */
double gb_plan_work(const gb_plan *p, size_t k);

/* The digest of the keys (gb_shard_key: scen path, line) of plan indices
 * k0, k0 + step, ... < n, in order, into out (32 bytes): what a shard
 * manifest carries so that `merge` can check the rows' queries. */
void gb_plan_keys(const gb_plan *p, size_t k0, size_t step, uint8_t out[32]);

/* Parse "I/N" (0 <= I < N <= GB_SHARD_MAX_N) into *i, *n.  0, or -1. */
int gb_plan_parse_shard(const char *s, long *i, long *n);

#endif
