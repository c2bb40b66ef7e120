/*
 * gb_user.h -- solvers written by users, run by gridbench like its own.
 *
 * A user solver is one C function with the signature gb_user_solve_fn.
 * It gets the padded grid (solvers/gb_grid.h: pass[id], gb_grid_id,
 * gb_grid_x/y, off[k]), the movement model, the start and goal cell ids,
 * and a path buffer of cap int32_t cell ids, cap = g->ncells (every cell
 * of the padded grid, (width + 2) * (height + 2), so any simple path
 * fits; the buffer is gridbench's, valid during the call only).  It
 * writes the path start..goal (cell ids, start and goal included; start
 * == goal is the one-cell path) and returns:
 *   n > 0   the path's length in cells (n <= cap; a larger n, or a path
 *           that is not legal, is an `invalid_path` row);
 *   0       no path exists (checked against Dijkstra: `unreachable`, or
 *           `false_unreachable` when there is one);
 *   -1      (any negative value) an internal error of the solver: the row
 *           is `crash` with the reason "the user solver reported an
 *           internal error", never a judgement of a path.
 * It may fill *st with its own counters (expanded, generated...); *st is
 * zeroed before the call.  gridbench validates the path, recomputes its
 * cost, compares it with Dijkstra and the scenario, and times the call,
 * exactly as for the built-in solvers (time_source `plugin`).
 *
 * Per-map work (optional): a solver may have a prepare/release pair
 * (gb_user_hooks).  prepare(ctx, g, m) runs once per map, after the map
 * is loaded and before its first query, in the process that runs the
 * queries; it is timed into prep_ns of every row of that solver on that
 * map (never into time_ns).  g and its contents stay valid and unchanged
 * until release(ctx), which runs once per successful prepare, before the
 * map is freed (the next map, or the end of the run).  prepare returns 0,
 * or -1 on failure: the solver's rows on that map are then `crash` and
 * release is not called.  Per-map state lives in ctx (solve gets the same
 * ctx).  The hooks are a table of their own, so gb_user_solver keeps its
 * layout and plugins built without hooks load unchanged.
 *
 * Isolation: gridbench runs user solvers in a worker process, even with
 * --jobs 1, so a solver that crashes (SIGSEGV, abort) costs its own
 * `crash` row for that query and the run goes on.
 *
 * Two ways to make gridbench see it:
 *   - static: in your own main(), call gb_user_register("mine", fn, ctx)
 *     and then gb_cmd_run(argc, argv) (or gb_run) with --solver mine;
 *   - plugin: build a shared library exporting
 *         const gb_user_solver *gb_plugin_solvers(int *n);
 *     returning a table of n solvers, and optionally
 *         const gb_user_hooks *gb_plugin_hooks(int *n);
 *     (looked up with dlsym; absent = no hooks), and optionally
 *         const gb_user_metrics_hook *gb_plugin_metrics(int *n);
 *     (its own per-query and per-map figures: see the end of this file),
 *     and run
 *         gridbench run --plugin ./libmine.so --solver mine SCEN...
 *     The tables must stay valid while the library is loaded (static).
 *
 * A plugin may call any function of the public headers (gb_search.h,
 * gb_grid.h, gb_validate.h, ...): the gridbench binary exports its whole
 * library, and libgridbench.a / libgridbench.so are built position
 * independent, so `$(pkg-config --libs gridbench)` also links.
 *
 * The registry is a small process-wide table (GB_USER_MAX entries); it is
 * not thread-safe and is meant to be filled once at start-up.
 */
#ifndef GB_USER_H
#define GB_USER_H

#include <stdint.h>

#include "gb_diag.h"
#include "gb_grid.h"
#ifndef __cplusplus
#include "gb_search.h"
#else
/* A C++ plugin (the GPPC driver) sees the ABI only: gb_search.h is C11,
 * and a solver receives gb_stats through a pointer. */
typedef struct gb_stats gb_stats;
extern "C" {
#endif

#define GB_USER_MAX 32

typedef int32_t (*gb_user_solve_fn)(void *ctx, const gb_grid *g, gb_model m, int32_t start,
                                    int32_t goal, int32_t *path, int32_t cap, gb_stats *st);

typedef struct gb_user_solver {
    const char *name;          /* --solver name; letters, digits, - _ . : */
    gb_user_solve_fn solve;
    void *ctx;                 /* passed back to solve */
    int optimal;               /* flags: GB_USER_OPTIMAL (1): rows are checked as an
                                  optimal solver's; GB_USER_AA_GPPC (2): the path is
                                  any-angle in the GPPC model (below) */
} gb_user_solver;

/* gb_user_solver.optimal is a set of flags (older plugins write 0 or 1):
 *   GB_USER_OPTIMAL  the solver promises optimal paths;
 *   GB_USER_AA_GPPC  its paths are any-angle in the GPPC model
 *                    (docs/anyangle.md): the ids it writes are corners,
 *                    id = gb_grid_id(g, x, y) for the lattice point (x, y),
 *                    0 <= x <= width, 0 <= y <= height (the padding holds
 *                    the last column and row), each a waypoint joined to
 *                    the next by a straight segment.  Such a solver runs
 *                    only under --anyangle-model gppc; its rows are
 *                    judged against the exact any-angle optimum, on cost
 *                    only when GB_USER_OPTIMAL is set too. */
#define GB_USER_OPTIMAL 1
#define GB_USER_AA_GPPC 2

/* What a plugin exports (the symbol name is GB_PLUGIN_SYMBOL). */
typedef const gb_user_solver *(*gb_plugin_fn)(int *n);
#define GB_PLUGIN_SYMBOL "gb_plugin_solvers"

/* Per-map hooks (see above): 0 or -1. */
typedef int (*gb_user_prepare_fn)(void *ctx, const gb_grid *g, gb_model m);
typedef void (*gb_user_release_fn)(void *ctx);

typedef struct gb_user_hooks {
    const char *name;              /* the solver these belong to (its gb_user_solver.name) */
    gb_user_prepare_fn prepare;    /* NULL: nothing to prepare */
    gb_user_release_fn release;    /* NULL: nothing to release */
} gb_user_hooks;

/* What a plugin may also export (optional; GB_PLUGIN_HOOKS_SYMBOL). */
typedef const gb_user_hooks *(*gb_plugin_hooks_fn)(int *n);
#define GB_PLUGIN_HOOKS_SYMBOL "gb_plugin_hooks"

/* Register a solver (name copied by pointer: it must outlive the run).
 * 0, or -1 when the table is full, the name is taken by a built-in or
 * user solver, or it has characters outside [A-Za-z0-9._:-]. */
int gb_user_register(const char *name, gb_user_solve_fn fn, void *ctx, int optimal);

/* The number of registered user solvers, and the i-th in registration
 * order (NULL outside 0..count-1): a plugin's solvers are the ones
 * registered while it loaded. */
int gb_user_count(void);
const gb_user_solver *gb_user_at(int i);

/* The registered solver called name, or NULL. */
const gb_user_solver *gb_user_find(const char *name);

/* Give the registered solver called name a prepare/release pair (either
 * may be NULL).  0, or -1 when no user solver has that name. */
int gb_user_set_hooks(const char *name, gb_user_prepare_fn prepare, gb_user_release_fn release);

/* Run u's prepare hook on grid g under model m: 0 (also when it has
 * none), or -1 when the hook failed. */
int gb_user_prepare(const gb_user_solver *u, const gb_grid *g, gb_model m);

/* Run u's release hook, if any (after a prepare that returned 0). */
void gb_user_release(const gb_user_solver *u);

/* dlopen() path, register every solver of its gb_plugin_solvers() table
 * and, when it exports gb_plugin_hooks() / gb_plugin_metrics(), their
 * hooks / metrics functions.  0, or EX_NOINPUT / EX_DATAERR with a
 * message in *d (a hook or metrics entry naming no solver of the table is
 * EX_DATAERR). */
int gb_user_load_plugin(const char *path, gb_diag *d);

/* ---- Optional metrics a solver measures itself (ABI extension v1) ------
 *
 * Some solvers time themselves better than gridbench can from outside:
 * a GPPC entry answers a query in several GetPath calls, and its figures
 * (time to the first 20 units of path, the longest call, the index built
 * offline) exist only inside the plugin.  Such a plugin may also export
 *     const gb_user_metrics_hook *gb_plugin_metrics(int *n);
 * (looked up with dlsym; absent = no metrics: every older plugin loads
 * and runs unchanged).  Each entry names a solver of gb_plugin_solvers
 * and a function fn(ctx, out) that describes that solver's last prepare
 * and last solve in *out.
 *
 * Versioning (append-only, Win32 cbSize style): the caller zeroes *out
 * and sets out->size = sizeof(gb_user_metrics) as it knows it; fn writes
 * no byte at or past out->size (fields appended by a later version are
 * written only when out->size covers them), sets out->version to the
 * version it implements and out->have to the GB_UM_* groups it filled.
 * A caller reads only the groups named in have, and only fields of
 * versions <= its own.  Fields of version 1 (version 2 appends change_ns): */
#define GB_USER_METRICS_VERSION 2

enum {
    GB_UM_QUERY = 1u << 0,   /* calls, total_ns, first20_ns, max_call_ns */
    GB_UM_MAP = 1u << 1,     /* preprocess_ns, prepare_ns, storage_bytes, index_reused */
    GB_UM_SEGMENT = 1u << 2, /* bad_segment and reason: the path was refused */
    GB_UM_ERROR = 1u << 3,   /* reason: why the last prepare or solve failed (-1) */
    GB_UM_CHANGE = 1u << 4   /* version 2: change_ns (the last change hook, see below) */
};

typedef struct gb_user_metrics {
    uint32_t size;           /* in: bytes of *out the caller owns */
    uint32_t version;        /* out: GB_USER_METRICS_VERSION of the plugin; 0 = nothing filled */
    uint32_t have;           /* out: GB_UM_* groups set below */
    char time_source[16];    /* out: what measured total_ns ("gppc"), NUL-terminated */
    /* GB_UM_QUERY: the last solve (one query) */
    uint64_t calls;          /* calls into the solver's own API (GetPath), >= 1 */
    uint64_t total_ns;       /* sum of those calls, each timed with CLOCK_MONOTONIC */
    uint64_t first20_ns;     /* sum of the calls until the path was >= 20 long
                                (Euclidean length of the waypoints, as GPPC
                                measures; the whole query when it never was) */
    uint64_t max_call_ns;    /* the longest single call */
    /* GB_UM_SEGMENT: the last solve returned a path the plugin refused */
    int64_t bad_segment;     /* 0-based index of the first bad waypoint segment */
    char reason[160];        /* GB_UM_SEGMENT or GB_UM_ERROR: "expected ..., found ..." */
    /* GB_UM_MAP: the last prepare (one map) */
    uint64_t preprocess_ns;  /* offline index build (PreprocessMap), as measured when it was built */
    uint64_t prepare_ns;     /* online setup (PrepareForSearch) */
    uint64_t storage_bytes;  /* bytes of the index on disk */
    int32_t index_reused;    /* 1: the index came from the cache, 0: built now */
    /* version 2, GB_UM_CHANGE: the last change hook (one batch of patches) */
    uint64_t change_ns;      /* the solver's own update call alone (gppc_map_change), >= 1 */
} gb_user_metrics;

typedef int (*gb_user_metrics_fn)(void *ctx, gb_user_metrics *out);   /* 0, or -1 */

typedef struct gb_user_metrics_hook {
    const char *name;        /* the solver these belong to (its gb_user_solver.name) */
    gb_user_metrics_fn fn;
} gb_user_metrics_hook;

typedef const gb_user_metrics_hook *(*gb_plugin_metrics_fn)(int *n);
#define GB_PLUGIN_METRICS_SYMBOL "gb_plugin_metrics"

/* Give the registered solver called name a metrics function (NULL: none).
 * 0, or -1 when no user solver has that name. */
int gb_user_set_metrics(const char *name, gb_user_metrics_fn fn);

/* What u measured of its last prepare and its last solve, read in the
 * process that ran them (the worker), right after the call.
 * Returns 1 with *out filled (out->have names the groups that are set;
 * reason and time_source NUL-terminated; a group the plugin set with a
 * version this build does not know is dropped), 0 when u has no metrics
 * function (*out zeroed, out->size set), -1 when the function failed or
 * answered version 0 (*out zeroed, out->size set).  Never calls into the
 * plugin when it has no metrics; costs one indirect call otherwise. */
int gb_user_metrics_get(const gb_user_solver *u, gb_user_metrics *out);

/* ---- Map changes (optional, for the dynamic replay) -------------------
 *
 * `gridbench gppc-dynamic` rewrites rectangles of the map between batches
 * of queries.  A solver without a change hook is then released and
 * prepared again on the new map.  One that can follow changes (a GPPC
 * dynamic-track entry: gppc_map_change) exports
 *     const gb_user_change_hook *gb_plugin_changes(int *n);
 * and gets, before the first query after a batch of patches,
 * change(ctx, g, p, n): g is the grid of its last prepare, already
 * rewritten (g->pass and the cell counts agree with every patch), and
 * p[0..n) are the patches in the order they were written (a later one
 * may overwrite an earlier one's cells), each valid during the call only.
 * So prepare's "g stays unchanged until release" holds except for the
 * changes announced here.  change returns 0, or -1: the solver cannot
 * follow (the runner then releases and prepares it again). */
typedef struct gb_user_patch {
    int32_t x, y;            /* the top-left cell it was written to */
    int32_t w, h;            /* its size in cells (inside the map) */
    const uint8_t *cell;     /* w * h bytes, row by row: 1 passable, 0 blocked */
} gb_user_patch;

typedef int (*gb_user_change_fn)(void *ctx, const gb_grid *g, const gb_user_patch *p, int n);

typedef struct gb_user_change_hook {
    const char *name;        /* the solver it belongs to (its gb_user_solver.name) */
    gb_user_change_fn change;
} gb_user_change_hook;

typedef const gb_user_change_hook *(*gb_plugin_changes_fn)(int *n);
#define GB_PLUGIN_CHANGES_SYMBOL "gb_plugin_changes"

/* Give the registered solver called name a change hook (NULL: none).
 * 0, or -1 when no user solver has that name. */
int gb_user_set_change(const char *name, gb_user_change_fn fn);

/* Does u follow map changes (a change hook)?  1 or 0. */
int gb_user_has_change(const gb_user_solver *u);

/* Run u's change hook on g, patches p[0..n): its answer (0 or -1), or -1
 * when u has none. */
int gb_user_change(const gb_user_solver *u, const gb_grid *g, const gb_user_patch *p, int n);

/* ---- Traces: a user solver's search step by step (docs/trace.md) -------
 *
 * `gridbench trace --plugin LIB.so --solver NAME` replays a user solver's
 * search in the viewer when the solver tells what it does, by calling
 * these as it searches (ids are cell ids of the grid it was given; side 0
 * for the search from the start, 1 for a backward search from the goal):
 *   gb_user_trace_generate  a node's g was set or improved; h its
 *                           heuristic value, by the node being expanded
 *                           (-1 for a root);
 *   gb_user_trace_expand    a node was taken off the open list and expanded;
 *   gb_user_trace_stop      a node was taken off the open list and the
 *                           search stopped there (the goal).
 * Anywhere else (gridbench run, its workers) they return at once: one
 * load and one branch per call.  A solver that fills st->expanded must
 * call gb_user_trace_expand as often; `gridbench trace` checks it. */
void gb_user_trace_generate(int side, int32_t id, double g, double h, int32_t by);
void gb_user_trace_expand(int side, int32_t id);
void gb_user_trace_stop(int side, int32_t id);

/* For gridbench itself: record the calls above into t (NULL: stop), whose
 * event array grows as needed up to max events (solvers/gb_trace.h; past
 * it t->overflow is set).  The caller frees t->ev. */
struct gb_trace;
void gb_user_trace_attach(struct gb_trace *t, size_t max);

#ifdef __cplusplus
}
#endif

#endif
