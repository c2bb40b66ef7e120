/*
 * gb_run_opts.h -- what a run is asked to do: its (solver, queue) pairs
 * and its options, and the callbacks through which it reports.
 *
 * The plan (gb_plan.h) and the runner (gb_run.h) both read these; the
 * struct lives here so that neither stage reaches up into the other.  The
 * CLI (gb_cmd_run.c) fills it from the command line; a library user fills
 * it directly.  The runner never changes it.
 */
#ifndef GB_RUN_OPTS_H
#define GB_RUN_OPTS_H

#include <stddef.h>
#include <stdint.h>

#include "gb_search.h"
#include "gb_terrain.h"

#define GB_RUN_MAX_PAIRS 256

/* Timing regimes.  interleaved: per query, every pair runs its --reps
 * back to back (time_ns: the median of the warm ones).  gppc: per map,
 * each pair in turn runs every query once per pass, --reps passes
 * (time_ns: the mean over the passes), as GPPC times its entries. */
enum { GB_REGIME_INTERLEAVED = 0, GB_REGIME_GPPC };

/* The regime's name in rows and env.json. */
const char *gb_regime_name(int regime);

/* One (solver, queue) pair to run. */
struct gb_user_solver;

typedef struct gb_pair {
    gb_solver_spec spec;
    int queue;          /* gb_queue_kind, or -1 for solvers without a gridbench queue
                           (bfs, the subgoal graphs) */
    const struct gb_user_solver *user;  /* a registered user solver (gb_user.h), or NULL */
    const char *ext_cmd;  /* --external: shell command of an external solver, or NULL */
    int ext_named;        /* 1: spec.name is from --external-name (not replaced by `ready NAME`) */
} gb_pair;

/* The queue column of a pair's rows: a queue name, "fifo" (bfs),
 * "own-heap" (the subgoal graphs) or "none" (user and external solvers). */
const char *gb_pair_queue_name(const gb_pair *p);

/* The solver column of a pair's rows as rows read back are checked
 * against it (gb_rows_field_is): the pair's name, or "external:*" for an
 * external solver that names itself (`ready NAME`) at run time. */
const char *gb_pair_solver_name(const gb_pair *p);

/* What pair p promises under model m (its bound in *bound), and how its
 * paths are costed (gb_pair.c, like the two names above). */
gb_guarantee gb_pair_guarantee(const gb_pair *p, gb_model m, double *bound);
gb_cost_model gb_pair_cost_model(const gb_pair *p);

/* What the runner tells its caller while it works (the CLI prints it;
 * the library never does). */
typedef enum gb_run_note_kind {
    GB_NOTE_FAILURE = 0,   /* "file:line: status on solver/queue: why" */
    GB_NOTE_WARNING,       /* "file:line:col: warning: ..." */
    GB_NOTE_INFO           /* "gridbench run: ..." */
} gb_run_note_kind;

typedef struct gb_run_progress {
    size_t done, total;        /* queries of this run (shard) written, and to write */
    double work_done, work;    /* the same weighted by gb_plan_work() */
    const char *scen;          /* scenario of the last query written */
    double elapsed_s;          /* since the run started */
} gb_run_progress;

typedef struct gb_run_opts {
    gb_pair pairs[GB_RUN_MAX_PAIRS];
    int npairs;
    gb_model model;
    gb_terrain terrain;        /* --terrain-costs: off = the uniform Moving AI model */
    const char *map_override;  /* --map: use this map for every scenario */
    const char *out;           /* CSV path, or NULL for stdout */
    int reps;                  /* timed repetitions per pair and query (>= 1) */
    int strict;                /* scenario mismatches make the exit status 2 */
    int progress_on;           /* the CLI's: 1 = progress on stderr */
    uint64_t max_expanded;     /* per query, 0 = none */
    uint64_t max_ms;           /* per query wall time, 0 = none */
    uint64_t max_mem;          /* per query: bytes of the solver's workspace (gb_ws_bytes),
                                  or of an external solver's resident memory; 0 = none */
    long first, count;         /* query subset: skip `first`, run `count` (0 = all) */
    long sample;               /* > 0: of those, about `sample` evenly spaced ones */
    int resume;                /* 1: continue the journal <out>.partial (gb_journal.h) */
    int fresh;                 /* 1: discard an existing journal (else it is refused) */
    unsigned retry;            /* --retry: bit s set = run again the queries of the finished
                                  <out> that have a row of status s; keep the other rows */
    int ext_ms;                /* external solvers: limit per answer and per map, ms
                                  (0 = GB_EXT_DEFAULT_MS) */
    int ext_start_ms;          /* external solvers: limit for `ready` after a map (start-up,
                                  map load), ms (0 = ext_ms) */
    int jobs;                  /* worker processes (<= 1: run in this process) */
    int pin;                   /* 1: pin worker i to the i-th allowed CPU (jobs <= CPUs) */
    long shard_i, shard_n;     /* --shard I/N (shard_n 0 = the whole plan) */
    const char *oracle_cache;  /* directory of the oracle cache (gb_ocache.h), or NULL */
    const char *table_cache;   /* directory of the table cache (gb_tcache.h), or NULL */
    int regime;                /* GB_REGIME_*: how timed runs are ordered (docs/timing.md) */
    const char *paths_out;     /* --paths: every row's path into this file (gb_paths.h), or NULL */
    int aa_gppc;               /* --anyangle-model gppc: any-angle pairs in the GPPC model
                                  (corners; gb_aagppc.h), judged against its exact optimum
                                  (gb_aaoracle.h); 0: the cell-centre rule (gb_anyangle.h) */
    /* callbacks (may be NULL); called in the process that writes the output */
    void (*note)(void *ctx, gb_run_note_kind kind, const char *text);
    void (*progress)(void *ctx, const gb_run_progress *p);
    void *ctx;
} gb_run_opts;

#endif
