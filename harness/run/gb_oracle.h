/*
 * gb_oracle.h -- the optimum every row is judged against, as one object
 * per map (the trust model is gb_oracle.c's head).
 *
 * A gb_oracle owns what the optima of one map need: the Dijkstra oracle's
 * path buffer, the oracle cache of the map (gb_ocache.h), and when the
 * run has any-angle pairs the GPPC any-angle oracle and its cache
 * (gb_aaoracle.h, --anyangle-model gppc) or the line-integral grid
 * Dijkstra (gb_aaterrain.h, terrain costs).  It searches on a workspace
 * it is given: the executor's, whose arrays the built-in pairs use too,
 * so that a map costs one set of search arrays, not two.  What it has to
 * say (a cache rebuilt, a record replaced) goes to a note callback.
 *
 * Per query: gb_oracle_get gives every optimum the query's rows need;
 * gb_oracle_rederive proves by search what came from a cache, when a
 * verdict would rest on it (GB_ORACLE_GRID: Dijkstra's optimum;
 * GB_ORACLE_AA: the any-angle one).
 */
#ifndef GB_ORACLE_H
#define GB_ORACLE_H

#include "gb_diag.h"
#include "gb_run.h"
#include "gb_scen.h"
#include "gb_search.h"
#include "gb_validate.h"

/* The queue of the oracle: the fastest exact one. */
#define GB_ORACLE_QUEUE GB_Q_BUCKET

#define GB_ORACLE_GRID 1u /* Dijkstra's optimum */
#define GB_ORACLE_AA   2u /* the GPPC any-angle optimum */

typedef struct gb_optimum {
    int found;      /* a path exists */
    int scen_ok;    /* the scenario's printed length agrees */
    int from_cache; /* the grid optimum is the cache's claim, not yet re-derived */
    gb_check oc;    /* its check (step counts, cost) when found */
    int aa_has;     /* the GPPC any-angle optimum is known (the oracle has one) */
    double aa_opt;  /* its length */
    int aa_cached;  /* it is the any-angle cache's claim */
    gb_check li;    /* the line-integral grid optimum (li.ok: known) */
} gb_optimum;

typedef void (*gb_oracle_note_fn)(void *ctx, gb_run_note_kind k, const char *msg);

typedef struct gb_oracle_cfg {
    gb_model model;
    int anyangle;          /* the run has any-angle pairs */
    int aa_gppc;           /* ... judged in the GPPC model: the any-angle oracle */
    const char *cache_dir; /* the oracle cache's folder, NULL: no cache */
    const char *map_sha;   /* the map's SHA-256: its cache files */
    int *cache_warned;     /* "cannot open the cache" is said once per run: the caller's flag */
    gb_oracle_note_fn note;
    void *note_ctx;
} gb_oracle_cfg;

typedef struct gb_oracle gb_oracle;

/* The oracle of the map on grid g (with its terrain costs, if any),
 * searching on ws (prepared here for Dijkstra on GB_ORACLE_QUEUE).  NULL
 * with *d filled (EX_OSERR) when out of memory; a cache that cannot be
 * opened is a note, not an error. */
gb_oracle *gb_oracle_open(const gb_grid *g, gb_ws *ws, const gb_oracle_cfg *cfg, gb_diag *d);

/* Every optimum of query q: the grid optimum (the cache's record when it
 * holds one that agrees with the scenario, else Dijkstra's, then
 * recorded), and, when the map has them and a grid path exists, the
 * any-angle optimum and the line-integral grid optimum.  0, or a sysexits
 * code with *d filled (scen:line). */
int gb_oracle_get(gb_oracle *o, const gb_query *q, const char *scen, gb_optimum *opt, gb_diag *d);

/* Prove by search the optima of `what` (GB_ORACLE_*) that came from a
 * cache, replacing a record that was wrong (with a warning note).  A no-op
 * for the others.  0, or a sysexits code with *d filled. */
int gb_oracle_rederive(gb_oracle *o, const gb_query *q, const char *scen, unsigned what, gb_optimum *opt,
                       gb_diag *d);

void gb_oracle_close(gb_oracle *o);

#endif
