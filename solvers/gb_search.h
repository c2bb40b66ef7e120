/*
 * gb_search.h -- the solver layer's public interface: per-map workspace,
 * per-query result and counters, and the solver/queue registry.
 *
 * Data structure
 *   A gb_ws (workspace) belongs to one grid and one movement model.  It
 *   holds the legal-move mask of every cell and struct-of-arrays search
 *   state indexed by cell id: g[], parent[], stamp[].  stamp[id] encodes
 *   the node's state for the current query:
 *       stamp[id] <  2*gen      untouched this query (g, parent garbage)
 *       stamp[id] == 2*gen      generated, open
 *       stamp[id] == 2*gen + 1  closed
 *   so starting a query is "gen++", not a clear of the arrays.  When gen
 *   would overflow, the arrays are cleared once and gen restarts.
 *   Queues, landmark tables and the per-map tables of a solver family
 *   (JPS's bit lines, JPS+'s jump distances) are built by gb_ws_prepare(),
 *   before any timed search; no search allocates.
 *
 * Registries.  A solver family (best-first, bidirectional, BFS, JPS,
 * JPS+, ...) is one source file that defines one descriptor (gb_family.h:
 * name grammar, supported models, guarantee, workspace bytes, per-map
 * prepare/release, the searches it instantiated) and one line in
 * GB_SOLVER_LIST below; a queue is one header and one line in
 * gb_queues.h.  Name parsing, `gridbench list`, `--solver all`, the
 * "expected one of ..." messages, the --max-mem sizing and the dispatch
 * of gb_solve() are all derived from those two lists.
 *
 * Runtime choice happens once per query: gb_solve() looks the (solver,
 * queue, heuristic) triple up in the family's table of functions
 * instantiated at compile time from one search core
 * (gb_search_core.pmt); no function pointer is called per node.
 */
#ifndef GB_SEARCH_H
#define GB_SEARCH_H

#include <stddef.h>
#include <stdint.h>

#include "gb_grid.h"
#include "gb_heuristic.h"

/* ---- queues (the registry is gb_queues.h) --------------------------- */
#include "gb_queue_kind.h"

const char *gb_queue_name(gb_queue_kind q);
const char *gb_queue_desc(gb_queue_kind q);
int gb_queue_from_name(const char *name);   /* -1 if unknown */
/* The names of every queue of this build, ", "-separated ("bheap,
 * bheap-dk, ..."), for "expected one of ..." messages: written to buf as
 * snprintf does (always terminated when size > 0); returns the length of
 * the whole list. */
size_t gb_queue_names(char *buf, size_t size);

/* ---- heuristics ------------------------------------------------------ */
typedef enum gb_heur {
#define GB_X(E, N, A, C, D) GB_H_##E,
    GB_HEUR_LIST(GB_X)
#undef GB_X
    GB_H_DIFF,      /* differential heuristic (landmarks); needs per-map tables */
    GB_H_COUNT
} gb_heur;
/* Heuristics that need nothing but the goal: [0, GB_H_NSIMPLE). */
#define GB_H_NSIMPLE GB_H_DIFF
/* Default number of landmarks of the differential heuristic. */
#define GB_DIFF_DEFAULT_K 8

const char *gb_heur_name(gb_heur h);
const char *gb_heur_desc(gb_heur h);
int gb_heur_from_name(const char *name);   /* -1 if unknown */
/* Nonzero when h never overestimates the true distance under model m. */
int gb_heur_admissible(gb_heur h, gb_model m);
/* Nonzero when h is consistent (h(n) <= c(n,n') + h(n')) under model m. */
int gb_heur_consistent(gb_heur h, gb_model m);
/* Value of heuristic h at cell id (map coordinates x, y) for the goal in
 * c, unweighted.  For tools (the heuristic validator); solvers inline it. */
double gb_heur_eval(gb_heur h, const gb_hctx *c, int32_t id, int32_t x, int32_t y);

/* ---- per-query counters and result ----------------------------------- */
typedef struct gb_stats {
    uint64_t expanded;   /* nodes taken off the open list and expanded
                            (JPS: jump points expanded) */
    uint64_t generated;  /* successors whose g was set or improved */
    uint64_t scanned;    /* JPS: cells stepped over while jumping; else 0 */
    uint64_t pushes;     /* queue pushes */
    uint64_t pops;       /* queue pops (including stale ones) */
    uint64_t decreases;  /* queue decrease-key calls */
    uint64_t stale;      /* pops of nodes already closed (lazy queues) */
    uint64_t peak_open;  /* largest queue size seen */
} gb_stats;

typedef enum gb_result_status {
    GB_FOUND = 0,
    GB_UNREACHABLE,
    GB_LIMIT            /* stopped by a per-query limit (max_expanded, max_ns) */
} gb_result_status;

/* Expansions between two reads of the clock when max_ns is set. */
#define GB_TIME_CHECK 256

typedef struct gb_result {
    gb_result_status status;
    double cost;        /* path cost as the solver accumulated it */
    int32_t *path;      /* cell ids start..goal; owned by the workspace,
                           valid until the next search on it; under the
                           any-angle cost model (gb_solver_cost_model) the
                           waypoints, joined by straight segments */
    int32_t path_len;   /* number of cells (1 when start == goal) */
    gb_stats st;
} gb_result;

/* ---- solver specification ------------------------------------------- */

/* The solver registry: X(ENUM, family) for each family, in the order of
 * `gridbench list` and `--solver all`.  solvers/gb_FILE.c defines the
 * descriptor gb_family_<family> (gb_family.h).  Adding a family: its
 * source file, one line here, its test. */
#define GB_SOLVER_LIST(X) \
    X(BESTFIRST, bestfirst)   /* gb_bestfirst.c: Dijkstra, A*, weighted A*, greedy */ \
    X(BFS,       bfs)         /* gb_bfs.c: breadth-first (hop count) */ \
    X(BIDIR,     bidir)       /* gb_bidir.c: bidirectional Dijkstra / A* */ \
    X(JPS,       jps)         /* gb_jps.c: jump point search (8-nocut only) */ \
    X(JPSPLUS,   jpsplus)     /* gb_jpsplus.c: JPS+, precomputed jumps (8-nocut only) */ \
    X(SG,        sg)          /* gb_sgfam.c: simple subgoal graph (8-nocut only) */ \
    X(SGTL,      sgtl)        /* gb_sgfam.c: two-level subgoal graph (8-nocut only) */ \
    X(SGTLDT,    sgtldt)      /* gb_sgfam.c: sg-tl with a global distance table */ \
    X(SGCH,      sgch)        /* gb_sgch.c: contraction hierarchy over the subgoal graph */ \
    X(HPA,       hpa)         /* gb_hpa.c: HPA*, hierarchical (8-nocut only; suboptimal) */ \
    X(FLOWFIELD, flowfield)   /* gb_flowfield.c: one Dijkstra field per goal, followed */ \
    X(CPD,       cpd)         /* gb_cpd.c: compressed path database (8-nocut only) */ \
    X(THETA,     theta)       /* gb_theta.c: Theta*, any-angle (8-nocut only) */ \
    X(ANYA,      anya)        /* gb_anya.c: Anya, optimal any-angle (GPPC model only) */

typedef enum gb_algo {
#define GB_X(E, F) GB_ALGO_##E,
    GB_SOLVER_LIST(GB_X)
#undef GB_X
    GB_ALGO_COUNT
} gb_algo;

/* What a solver promises about the cost it returns. */
typedef enum gb_guarantee {
    GB_GUAR_OPTIMAL = 0,    /* equal to the optimum */
    GB_GUAR_BOUNDED,        /* <= bound * optimum */
    GB_GUAR_NONE            /* any valid path */
} gb_guarantee;

typedef struct gb_solver_spec {
    char name[64];     /* canonical name, e.g. "wastar-octile:w=1.5" */
    gb_algo algo;      /* the family (index into GB_SOLVER_LIST) */
    gb_heur heur;
    double wg;         /* weight on g (0 for greedy best-first) */
    double wh;         /* weight on h */
    int k;             /* landmarks for heur == GB_H_DIFF */
    int variant;       /* which behaviour of the family, when its name
                          forms differ in more than wg/heur (0 mostly) */
    int smooth;        /* 1: the "+smooth" modifier (any family): gb_solve
                          post-smooths the path into any-angle waypoints */
    uint64_t max_expanded;  /* 0 = no limit */
    uint64_t max_ns;        /* wall-time limit per search in ns, 0 = none
                               (checked every GB_TIME_CHECK expansions) */
    int param;         /* a family's integer parameter from a form
                          "name:x=P" (hpa:c=C: the cluster size), else 0 */
    int aa_gppc;       /* any-angle paths (theta, +smooth) in the GPPC model:
                          ids read as corners, line of sight by gb_los_gppc
                          (gb_los.h); 0: cell centres, gb_los.  Last, so
                          that plugins built before it still match */
    uint64_t max_prep_bytes; /* a family whose build it estimates first (cpd)
                               refuses a map whose state would pass this many
                               bytes (0 = no bound; the runner sets --max-mem) */
    uint64_t max_prep_ns;    /* ... or whose build would take longer (0 = the
                               family's default budget) */
} gb_solver_spec;

/* Parse a solver name against the name patterns of the registered
 * families (`gridbench list`): dijkstra, astar-H, wastar-H:w=W, gbfs-H,
 * bfs, bidijkstra, biastar-H, jps, ... (H = a heuristic name; "diff"
 * takes an optional ":k=K" landmark count, e.g. astar-diff:k=16), each
 * optionally followed by the modifier "+smooth" (out->smooth = 1; models
 * 8-nocut and 4 only, where every grid step has line of sight).  0, or
 * -1 with a message in err (errsz bytes) that names what was expected. */
int gb_solver_parse(const char *name, gb_solver_spec *out, char *err, size_t errsz);

/* What the spec promises under model m, and its bound (1 for optimal,
 * w for bounded, 0 for none). */
gb_guarantee gb_solver_guarantee(const gb_solver_spec *s, gb_model m, double *bound);
const char *gb_guarantee_name(gb_guarantee g);

/* The cost model of a solver's paths.  GRID: a sequence of adjacent
 * cells, each step costing 1 or sqrt 2.  ANYANGLE: waypoints (cell
 * centres) joined by straight segments with line of sight (gb_los.h),
 * costed by Euclidean length -- Theta* and every "SOLVER+smooth".  The
 * guarantee of an any-angle solver is GB_GUAR_NONE: nothing is promised
 * against the any-angle optimum, which gridbench does not compute. */
typedef enum gb_cost_model { GB_COST_GRID = 0, GB_COST_ANYANGLE } gb_cost_model;
gb_cost_model gb_solver_cost_model(const gb_solver_spec *s);
const char *gb_cost_model_name(gb_cost_model c);   /* "grid", "anyangle" */
/* What an any-angle solver promises against the GRID optimum of model m:
 * its cost is <= B times it, B returned (0: nothing).  +smooth never
 * lengthens a path, so it keeps the underlying solver's bound (1 for an
 * optimal one, w for wastar:w=W, 0 for greedy); an any-angle family
 * promises B = 1 (Theta*: see gb_theta.c).  0 for grid solvers. */
double gb_solver_grid_bound(const gb_solver_spec *s, gb_model m);
/* Nonzero when s is an optimal any-angle search of the GPPC model (Anya):
 * its cost must equal the exact any-angle optimum (gb_aaoracle.h), and it
 * runs only with s->aa_gppc (gb_solver_unsupported says so). */
int gb_solver_aa_optimal(const gb_solver_spec *s);

/* Nonzero (and a message in err) when the solver cannot run under model m
 * (e.g. jps needs 8-nocut), or, for anya, without s->aa_gppc. */
int gb_solver_unsupported(const gb_solver_spec *s, gb_model m, char *err, size_t errsz);

/* The same check for a grid with terrain costs when weighted != 0
 * (gb_terrain.h): the family must search weighted grids (JPS, JPS+ and
 * the subgoal graphs are defined for uniform costs and refuse), without
 * +smooth, under model 8-nocut or 4, and an any-angle family (theta) in
 * the cell-centre model (not s->aa_gppc).  0, or nonzero and a message. */
int gb_solver_unsupported_w(const gb_solver_spec *s, gb_model m, int weighted, char *err,
                            size_t errsz);

/* Registry listing for `gridbench list`: the i-th solver name pattern
 * and description; NULL past the end. */
const char *gb_solver_list(int i, const char **desc);

/* What `--solver all` runs: the i-th solver name (one or a few of each
 * family, octile where a heuristic is needed); NULL past the end. */
const char *gb_solver_all(int i);

/* Nonzero when the solver takes a priority queue (every queue is then a
 * different run); 0 for those that use none (bfs), which run once. */
int gb_solver_uses_queue(const gb_solver_spec *s);

/* The name among names[0..n) closest to word by edit distance (Levenshtein,
 * case-sensitive), or NULL when none is close enough (1 edit for words of
 * 1-2 letters, 2 up to 8 letters, 3 beyond): for "did you mean". */
const char *gb_closest(const char *word, const char *const *names, int n);

/* The queue column of a solver that uses no gridbench queue: "fifo" (bfs)
 * or the name of its own (a subgoal graph's "own-heap"). */
const char *gb_solver_queue_label(const gb_solver_spec *s);

/* ---- workspace ------------------------------------------------------- */
typedef struct gb_ws gb_ws;

/* Create a workspace for grid g (which must outlive it) and model m.
 * NULL with errno = ENOMEM on failure. */
gb_ws *gb_ws_new(const gb_grid *g, gb_model m);
void gb_ws_free(gb_ws *ws);
/* Allocate and build what solver s on queue q needs (queues, landmark
 * tables, the family's per-map tables), so that searches do not allocate
 * or precompute.  Cheap when already done.  0, or -1 with errno = ENOMEM,
 * or EINVAL (unknown queue or family, or a model s does not support).
 * gb_solve() calls it too, lazily. */
int gb_ws_prepare(gb_ws *ws, const gb_solver_spec *s, gb_queue_kind q);
/* Wall time (CLOCK_MONOTONIC, ns) that the per-map preprocessing of s on
 * this workspace took when gb_ws_prepare() built it: the family's tables
 * plus the landmark table of s's k, if any.  0 when s needs none or it
 * was not built yet. */
double gb_ws_prep_ns(const gb_ws *ws, const gb_solver_spec *s);
/* Why the last gb_ws_prepare() that failed with errno = EFBIG refused the
 * map: a family's estimate of its build against the spec's max_prep_bytes
 * and max_prep_ns ("" when none did). */
const char *gb_ws_prep_msg(const gb_ws *ws);

/* A store of prepared tables, which the caller provides (the harness's
 * disk cache, harness/io/gb_tcache.h): a family that keeps one (cpd)
 * reads its table there before building it and writes it there after.
 * The family defines the bytes, and checks every byte it reads (a
 * version, the grid, a checksum, the structure); the store only keeps
 * them, under a name the family gives (a word of [a-z0-9.-]).  No
 * function here prints; each returns as said. */
typedef struct gb_store {
    void *ctx;
    /* The stored bytes of name: a handle and *size, or NULL (none). */
    void *(*open_read)(void *ctx, const char *name, uint64_t *size);
    /* Exactly n more bytes into buf: 0, or -1. */
    int (*read)(void *h, void *buf, size_t n);
    /* Done reading; why = NULL when the bytes were used, else why they
     * were refused ("expected ..., found ..."): the store drops them. */
    void (*close_read)(void *h, const char *why);
    /* A new entry for name: a handle, or NULL (nothing is kept). */
    void *(*open_write)(void *ctx, const char *name);
    /* n bytes appended: 0, or -1. */
    int (*write)(void *h, const void *buf, size_t n);
    /* ok: publish the entry whole (replacing an old one), else drop it. */
    void (*close_write)(void *h, int ok);
} gb_store;

/* Let the families of ws keep their tables in st (NULL: none; the
 * default).  st must outlive the prepares that use it. */
void gb_ws_set_store(gb_ws *ws, const gb_store *st);

/* ---- search traces (`gridbench trace`, solvers/gb_trace.h) ----------- */
typedef struct gb_trace gb_trace;
/* Nonzero when solver s records its events on grid g: its family has
 * traced searches (the best-first family, bidirectional search, JPS and
 * JPS+) and g has uniform costs. */
int gb_solver_traceable(const gb_solver_spec *s, const gb_grid *g);
/* Attach t (NULL: detach): from now on gb_solve() runs a traceable
 * solver's recording search, on the binary heap whatever queue it is
 * given, and appends its events to t (which the caller resets between
 * searches; see gb_trace.h for the events and the overflow flag).  Other
 * solvers run as usual and record nothing.  Returns 0. */
int gb_ws_set_trace(gb_ws *ws, gb_trace *t);

/* gb_ws_bytes of solver s on queue q for this workspace once prepared for
 * s: the same figure, except that a family whose state depends on the
 * map's content (subgoal graphs: gb_ws_bytes is then a lower bound) counts
 * its built state exactly.  What the CSV's mem_bytes and --max-mem go by
 * after the preparation. */
size_t gb_ws_bytes_prepared(const gb_ws *ws, const gb_solver_spec *s, gb_queue_kind q);
/* Bytes a workspace holds for solver s on queue q on a grid of width x
 * height map cells: the workspace itself, what gb_ws_prepare allocates for
 * s and q (queues, the family's per-map tables), and s's landmark table,
 * if any; exactly the sizes it asks the allocator for.  Nothing is allocated, so a caller can refuse a solver (or a map)
 * that would not fit before trying. */
size_t gb_ws_bytes(int32_t width, int32_t height, const gb_solver_spec *s, gb_queue_kind q);

/* Bytes one workspace holds once prepared for all n solvers s[i] on
 * queues q[i] (what it keeps is shared: one set of search arrays, one
 * queue per kind and direction, one set of tables per family, one
 * landmark table per k, up to the workspace's landmark slots). */
size_t gb_ws_bytes_all(int32_t width, int32_t height, const gb_solver_spec *s,
                       const gb_queue_kind *q, int n);
const uint8_t *gb_ws_moves(const gb_ws *ws);
gb_model gb_ws_model(const gb_ws *ws);
const gb_grid *gb_ws_grid(const gb_ws *ws);
/* The landmark tables of the differential heuristic last prepared on this
 * workspace, or NULL when none was. */
const gb_landmarks *gb_ws_landmarks(const gb_ws *ws);

/* Tell the workspace that its grid's cell id (a map cell) was flipped
 * with gb_grid_set(): the move masks of its 3x3 block are recomputed and
 * every per-map table built from the old map (a family's state, the
 * landmark tables) is dropped, to be rebuilt by the next prepare.  The
 * best-first family keeps no such table, so A* and Dijkstra stay ready
 * at O(1) per changed cell. */
void gb_ws_cell_changed(gb_ws *ws, int32_t id);

/* Run one query.  start and goal are cell ids of passable cells.  Fills
 * *out (out->path points into the workspace).  Returns 0, or -1 when the
 * workspace could not be prepared (ENOMEM) or the solver does not support
 * the model (EINVAL). */
int gb_solve(gb_ws *ws, const gb_solver_spec *s, gb_queue_kind q,
             int32_t start, int32_t goal, gb_result *out);

/* Visit state of the last search, for footprint images: 0 untouched,
 * 1 generated (open), 2 expanded (closed).  Valid until the next search. */
int gb_ws_visit_state(const gb_ws *ws, int32_t id);

/* gb_dijkstra_all(): single-source distances to every cell (a module of
 * its own so that the landmark tables need no workspace). */
#include "gb_dijkstra.h"

#endif
