/*
 * gb_exec.h -- the execution stage of the runner (internal to harness/run/).
 *
 * One query is executed as
 *
 *     oracle  ->  for each pair: backend.solve  ->  judge
 *             ->  re-derive what a verdict would rest on  ->  rows
 *
 * gb_exec_query() (gb_exec.c) is that line.  Each stage has its file:
 *   gb_oracle.c   the optimum, one object per map (gb_oracle.h): Dijkstra,
 *                 or the oracle cache's claim (gb_ocache.h), re-derived
 *                 whenever a verdict would rest on it alone; and the
 *                 any-angle and line-integral optima of any-angle pairs;
 *   gb_backend_*.c  one backend per kind of solver, all behind
 *                 gb_backend_ops: built-in (the registry, in process),
 *                 plugin (a user's shared library, in a worker process),
 *                 process (an external program over the line protocol);
 *   gb_judge.c    the row status, by one pure classification over the
 *                 status table of gb_status.h;
 *   gb_rows.h     (io/) the row format.
 *
 * struct gb_exec is one per process that solves: one map and one
 * workspace are kept while consecutive queries name the same map file;
 * every pair's backend is prepared (and timed, prep_ns) when a map is
 * loaded; xy[] holds the path being judged in map coordinates, whichever
 * backend produced it.  A query's rows and notes are written into two
 * memory streams (struct gb_qres), which the sink copies out: in this
 * process with --jobs 1, through a pipe from a worker otherwise.
 *
 * The backend interface (prepare per map / solve per query / bytes /
 * release / close) is a table of function pointers chosen per pair once
 * at gb_exec_init; solve is one indirect call per query and pair, never
 * per node: the search loops stay inside the backends.
 */
#ifndef GB_EXEC_H
#define GB_EXEC_H

#include <stdint.h>
#include <stdio.h>

#include "gb_diag.h"
#include "gb_external.h"
#include "gb_map.h"
#include "gb_ocache.h"
#include "gb_oracle.h"
#include "gb_plan.h"
#include "gb_run.h"
#include "gb_validate.h"

#include <time.h>

/* CLOCK_MONOTONIC in ns: every time of the runner. */
static inline int64_t gb_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* The median of v[0..n) (sorted in place): the middle value, or the mean
 * of the two middle values when n is even. */
int64_t gb_median_i64(int64_t *v, int n);

/* ---- one query's result ------------------------------------------------ */

/* Rows and notes of one query as text, plus what the totals need.  Notes
 * travel as lines "<kind digit><text>\n". */
#define GB_QRES_HIT_GRID 1   /* Dijkstra's optimum, from its cache */
#define GB_QRES_HIT_AA 2     /* the any-angle optimum, from its cache */
typedef struct gb_qres {
    int scen_ok;
    int oracle_hit;       /* GB_QRES_HIT_*: which optima came from an oracle cache */
    uint8_t *st;          /* [npairs] gb_row_status */
    uint64_t *exp;        /* [npairs] expansions */
    int64_t *ns;          /* [npairs] median time */
    char (*name)[64];     /* [npairs] the rows' solver names */
    char *rows;  size_t rows_len;
    char *notes; size_t notes_len;
    char *paths; size_t paths_len;   /* --paths lines (gb_paths.h), or empty */
} gb_qres;

int gb_qres_init(gb_qres *r, int npairs);
void gb_qres_clear_text(gb_qres *r);
void gb_qres_free(gb_qres *r);

/* ---- what a backend answers -------------------------------------------- */

/* The outcome of one pair's `reps` runs on one query. */
typedef struct gb_answer {
    gb_ext_status fail;      /* GB_EXT_PATH: the solver answered (rs says what);
                                PROTOCOL, TIMEOUT, CRASH, LIMIT: it misbehaved (msg) */
    gb_result_status rs;     /* GB_FOUND, GB_UNREACHABLE or GB_LIMIT */
    int32_t n;               /* GB_FOUND: path cells, in the exec's xy[] */
    double cost;             /* the cost the solver accumulated (or its geometry's) */
    gb_stats st;             /* its counters */
    int counters;            /* st is the solver's (it ran) */
    int nrep;                /* timed runs, times in the exec's times[0..nrep) */
    int64_t self_ns;         /* the solver's own median time, < 0: none */
    uint64_t mem;            /* bytes it held (0: not known) */
    /* GPPC's measures of the last run, for a solver answering in several
     * calls (0 calls: the backend does not measure them; the runner then
     * takes one call of the whole time) */
    int calls;
    int64_t first20_ns, max_call_ns;
    char msg[256];           /* why it failed */
} gb_answer;

/* ---- the exec ---------------------------------------------------------- */

typedef struct gb_exec gb_exec;

/* A kind of solver.  Every function gets the exec and the pair index. */
typedef struct gb_backend_ops {
    const char *time_source;   /* the rows' time_source column */
    /* Per map, after the map is loaded (the caller times it into prep_ns):
     * 0, GB_PREP_NONE (nothing was prepared: prep_ns is empty), or a
     * sysexits code with *d filled (the run stops). */
    int (*prepare)(gb_exec *ex, int pi, gb_diag *d);
    /* Per query: run the pair reps times (fewer when it fails) on start
     * s, goal t; the path goes to ex->xy, the times to ex->times.  0, or a
     * sysexits code with *d filled (out of memory: the run stops). */
    int (*solve)(gb_exec *ex, int pi, gb_xy s, gb_xy t, int reps, gb_answer *a, gb_diag *d);
    /* Bytes its search state takes on grid g before it runs (0: not known). */
    uint64_t (*bytes)(const gb_exec *ex, int pi, const gb_grid *g);
    /* Per map, before the map is freed (also after a failed prepare). */
    void (*release)(gb_exec *ex, int pi);
    /* At the end of the run; warnings go to the exec's notes. */
    void (*close)(gb_exec *ex, int pi);
} gb_backend_ops;

#define GB_PREP_NONE (-1)
#define GB_PREP_SET (-2)     /* the backend set ex->prep[pi] itself (its own measure) */

extern const gb_backend_ops gb_backend_builtin, gb_backend_plugin, gb_backend_process;

/* The backend of pair p. */
const gb_backend_ops *gb_backend_of(const gb_pair *p);

/* A plugin pair's per-map state (UPREP_*). */
enum { GB_UPREP_NONE = 0, GB_UPREP_DONE, GB_UPREP_FAILED };

struct gb_exec {
    const gb_run_opts *o;
    const gb_plan *pl;
    const gb_backend_ops **be;   /* [npairs] */
    /* the map in use */
    char mpath[1024];
    gb_map map;
    gb_ws *ws;               /* the oracle's and every built-in pair's search state */
    gb_xy *xy;               /* the path being judged, map coordinates */
    int32_t *upath;          /* path buffer for plugin solvers (cell ids) */
    int loaded;
    gb_oracle *orc;          /* this map's oracle (gb_oracle.h) */
    struct gb_tcache *tc;    /* this map's table cache (gb_tcache.h), or NULL */
    int tc_warned;           /* the table cache could not be opened: said once */
    int oc_warned;           /* an oracle cache could not be opened: said once per run */
    uint64_t *prep;          /* [npairs] preparation on this map, ns */
    uint64_t *mem;           /* [npairs] search-state bytes on this map once prepared, 0: not known */
    uint8_t *uprep;          /* [npairs] plugin pairs: GB_UPREP_* on this map; built-in
                                pairs: GB_UPREP_FAILED when their prepare refused it */
    uint64_t *storage, *prepare_ns;  /* [npairs] a plugin's own figures of this map (0: none) */
    char (*tsrc)[16];        /* [npairs] a plugin's own time source ("gppc"), "" for the backend's */
    char (*prep_why)[160];   /* [npairs] why a plugin's prepare failed (or a built-in
                                one refused the map), "" when it did not say */
    /* crash isolation (workers only) */
    volatile int32_t *inflight;  /* shared with the parent: the pair running, -1 none */
    uint8_t *skip;           /* [npairs] pairs that crashed this query's worker before */
    int skip_ws;             /* the wait status of that worker */
    /* external solvers */
    gb_ext **ext;            /* [npairs] */
    char (*pname)[64];       /* [npairs] row names */
    char model_col[160];     /* the rows' model column: the movement model, then
                                "+" and the terrain model's name when one is on */
    long ext_id;
    /* scratch */
    int64_t *times, *self;   /* [reps] */
    FILE *rows_f, *notes_f;  /* memory streams of the query being run */
    FILE *paths_f;           /* --paths: the query's path lines, or NULL */
    void *runs;              /* [npairs] each pair's answer on the query (gb_exec.c) */
    const size_t *todo;      /* this run's plan indices, in order (the gppc regime's batches) */
    size_t ntodo;
    struct gb_batch *batch;  /* the gppc regime: timings of the current batch (gb_exec.c) */
    size_t k;                /* the plan index of the query being run */
};

int gb_exec_init(gb_exec *ex, const gb_run_opts *o, const gb_plan *pl, gb_diag *d);
void gb_exec_free(gb_exec *ex);

/* Execute plan index k into *res (rows and notes as text).  Returns 0, or
 * a sysexits code with *d filled when the input is bad or the oracle
 * wrong (the run must stop). */
int gb_exec_query(gb_exec *ex, size_t k, gb_qres *res, gb_diag *d);

/* `crash` rows for plan index k, whose worker died with wait status
 * wstatus (the parent writes them).  0, or -1 out of memory. */
int gb_exec_crash_rows(gb_exec *ex, size_t k, int wstatus, gb_qres *r);

/* A note of kind k into the query's notes (newlines become spaces). */
void gb_exec_note(gb_exec *ex, gb_run_note_kind k, const char *fmt, ...) GB_PRINTF_LIKE(3, 4);

/* ---- the judge (gb_judge.c) -------------------------------------------- */

/* What a pair's run came to. */
typedef struct gb_outcome {
    int ext_status;        /* gb_ext_status: GB_EXT_PATH unless it misbehaved */
    int over_mem;          /* not run: its workspace passes --max-mem */
    gb_result_status rs;   /* the solver's result */
    int valid;             /* its path passed the validator (rs == GB_FOUND) */
    int oracle_found;      /* Dijkstra found a path */
    int scen_ok;           /* the scenario agrees with Dijkstra */
    gb_guarantee gu;
    double bound;
    const gb_check *pc, *oc;   /* the path's and the optimum's checks */
    int anyangle;          /* the path is any-angle (pc from gb_validate_anyangle) */
    double grid_bound;     /* any-angle: cost <= grid_bound x the grid optimum (0: none) */
    double euclid;         /* the straight-line distance start-goal, the lower bound */
    int aa_has;            /* any-angle in the GPPC model: aa_opt is known */
    double aa_opt;         /* the GPPC any-angle optimum (gb_aaoracle.h), the lower bound */
    int aa_optimal;        /* the solver promises aa_opt itself (anya) */
    const gb_check *li;    /* any-angle under terrain costs: the line-integral grid
                              optimum d_L (gb_aaterrain.h), the reference of grid_bound
                              and subopt instead of oc; euclid is then cmin x the line */
} gb_outcome;

/* The row status of an outcome (gb_run.h lists the order), or -1 when a
 * valid path was found where Dijkstra found none. */
int gb_judge(const gb_outcome *w);

/* Would an answer of this outcome rest on the oracle's claim?  Nonzero
 * when the status would be a failure, when the path is cheaper than the
 * optimum, or when the solver found no path: the verdicts gb_oracle.c
 * re-derives before giving them. */
int gb_judge_needs_proof(const gb_outcome *w, int status);

#endif
