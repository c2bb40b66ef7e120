/*
 * gb_family.h -- what a solver family sees: the family descriptor, the
 * workspace layout, and the compile-time helpers the search cores share
 * (queue dispatch, heuristics, time limit, paths).  Internal to solvers/:
 * the harness uses gb_search.h only.
 *
 * A solver family is one source file solvers/gb_FAMILY.c that defines
 *     const gb_family gb_family_FAMILY = { ... };
 * and one line X(ENUM, FAMILY) in GB_SOLVER_LIST (gb_search.h).  The
 * descriptor says everything the rest of gridbench needs:
 *   forms       its name grammar: patterns such as "astar-H" or
 *               "wastar-H:w=W" (H = a heuristic name, diff with an
 *               optional ":k=K"; W = a weight >= 1), each with the
 *               description `gridbench list` prints; gb_solver_parse()
 *               matches names against every family's forms.  A form sets
 *               the spec's wg, heur (without H) and variant: a family
 *               whose forms behave differently (say "sg" and "sg-tl")
 *               reads s->variant in its search (once per query), and its
 *               prepare builds, and bytes counts, what all of them need;
 *   all         the names `--solver all` runs;
 *   models      the movement models it supports (bit m = model m);
 *               gb_solver_unsupported() and the message are derived;
 *   fn_w        its searches for grids with terrain costs (gb_terrain.h),
 *               a table like fn; NULL: refused on them with a message
 *               (gb_solver_unsupported_w), as JPS is off 8-nocut;
 *   guarantee   what it promises (NULL: optimal on its models);
 *   dirs        queues it searches with: 0 (none: bfs), 1, or 2 (one per
 *               direction, plus the backward stamp2/g2/parent2 arrays);
 *   bytes       exact bytes of its per-map state (NULL: none), what
 *               prepare allocates: gb_ws_bytes() adds it once per family;
 *   prepare     builds the per-map state (tables, bit lines, FIFO) into
 *               *state (NULL on entry), once per workspace, inside
 *               gb_ws_prepare() -- never inside a timed gb_solve(); timed
 *               into gb_ws_prep_ns(); 0, or -1 with errno set (ENOMEM;
 *               EFBIG: it refuses the map, its estimate of the build
 *               being over the spec's max_prep_bytes or max_prep_ns, and
 *               says why in ws->prep_msg) and nothing left allocated; it
 *               may read ws->grid, ws->model (one of its models) and
 *               ws->moves;
 *   release     frees it (gb_ws_free);
 *   state_bytes for a state whose size depends on the map's content (a
 *               subgoal graph): its exact bytes once built, while bytes()
 *               is then a lower bound from the dimensions (NULL: exact);
 *   holds, prep_ns  for a state that depends on a name parameter (hpa's
 *               cluster size, spec.param): whether the built state serves
 *               a spec (else gb_ws_prepare() calls prepare again to add
 *               it) and the preparation time of the part a spec uses;
 *   aa_optimal  1 for an optimal any-angle search in the GPPC model only;
 *   anyangle    1 when its paths are any-angle waypoints (gb_search.h's
 *               cost models), with cost <= the grid optimum promised;
 *   queue_label the queue column of a family with dirs 0 ("fifo" for bfs;
 *               a family with a queue of its own names it);
 *   fn          its instantiated searches, a [fn_queues][fn_heurs] table
 *               (fn_queues = GB_Q_COUNT or 1, fn_heurs = GB_H_COUNT or 1):
 *               gb_solve() makes exactly one indirect call per query,
 *               fn[q][heur], and nothing is called through a pointer per
 *               node.
 * A family reads its state back as ws->fam[GB_ALGO_FAMILY].  What it gets
 * for free: `gridbench list`, name parsing and its error messages,
 * `--solver all`, `--max-mem` and the workspace byte count, the model
 * check, and -- through gb_solver_all() -- the property tests of
 * tests/test_search.c (every queue against Dijkstra on random grids and
 * on every shared map sample, gb_ws_bytes against the allocator) and the
 * fuzz target.  A family that searches with a queue instantiates its
 * loop once per queue with GB_FOR_Q / GB_FOR_QH (below); gb_jpsplus.c is
 * a complete example in one file.
 *
 * Queues by compile-time constant.  The search cores take the queue as an
 * int Q that is a constant at every call site (each instantiated wrapper
 * passes GB_QT_suffix); gb_q_at(ws, Q, d), gb_q_push(Q, q, ...) and
 * friends are always-inline switches generated from GB_QUEUE_LIST, which
 * the compiler folds to the one queue's inlined operation -- the same code
 * as naming the queue directly, and no list of queues in any family.
 */
#ifndef GB_FAMILY_H
#define GB_FAMILY_H

#include <stdint.h>
#include <string.h>
#include <time.h>

#include "gb_alloc.h"
#include "gb_landmarks.h"
#include "gb_queues.h"   /* the queue implementations, for the search core */
#include "gb_search.h"
#include "gb_trace.h"

#define GB_CAT_(a, b) a##b
#define GB_CAT(a, b) GB_CAT_(a, b)
#define GB_CAT3(a, b, c) GB_CAT(GB_CAT(a, b), c)
#define GB_ALWAYS_INLINE __attribute__((always_inline))
#define GB_COUNTOF(a) ((int)(sizeof (a) / sizeof (a)[0]))

/* Landmark tables kept per workspace (one per distinct k in use). */
#define GB_WS_MAX_LM 4

/* ---- the descriptor ------------------------------------------------- */

/* One instantiated search: a query on a prepared workspace. */
typedef void (*gb_search_fn)(gb_ws *ws, const gb_solver_spec *s, int32_t start, int32_t goal,
                             gb_result *out);

/* One name pattern of a family. */
typedef struct gb_form {
    const char *pattern;  /* e.g. "dijkstra", "astar-H", "wastar-H:w=W" */
    const char *desc;     /* what `gridbench list` prints after it */
    double wg;            /* weight on g the form sets (0: greedy) */
    gb_heur heur;         /* heuristic of a form without H */
    int list_only;        /* 1: listed, never matched (a variant of another
                             form, e.g. "astar-diff:k=K" of "astar-H") */
    int variant;          /* copied to gb_solver_spec.variant (0 mostly) */
    int pmin, pmax, pdef; /* pmax > 0: the pattern is "name:x=P", an integer
                             parameter pmin <= P <= pmax into spec.param;
                             the bare "name" means P = pdef */
} gb_form;

typedef struct gb_family {
    const gb_form *forms;       /* name grammar, in `list` order */
    int nforms;
    const char *const *all;     /* names `--solver all` runs */
    int nall;
    unsigned models;            /* bit m: supports model m */
    gb_guarantee (*guarantee)(const gb_solver_spec *s, gb_model m, double *bound);
    int dirs;                   /* 0, 1 or 2 (see above) */
    size_t (*bytes)(int32_t width, int32_t height, const gb_solver_spec *s);
    int (*prepare)(gb_ws *ws, const gb_solver_spec *s, void **state);
    void (*release)(void *state);
    const gb_search_fn *fn;     /* [fn_queues][fn_heurs], row-major */
    int fn_queues, fn_heurs;    /* GB_Q_COUNT or 1, GB_H_COUNT or 1 */
    const char *queue_label;    /* dirs 0: the queue column's name (NULL: "fifo") */
    size_t (*state_bytes)(const void *state);  /* exact bytes of a built state, for
                                  families whose size depends on the map's content:
                                  then bytes() is only a lower bound (NULL: exact) */
    int (*holds)(const void *state, const gb_solver_spec *s);
                               /* for a state that depends on spec.param (hpa's
                                  cluster size): nonzero when the built state
                                  serves s; when it does not, gb_ws_prepare()
                                  calls prepare again with *state the state held,
                                  which adds what s needs (and on failure leaves
                                  it as it was).  NULL: one build serves all */
    double (*prep_ns)(const void *state, const gb_solver_spec *s);
                               /* the preparation time of the part of the state
                                  s uses (NULL: the time of the prepare call) */
    const gb_search_fn *fn_w;   /* the same table for grids with terrain costs
                                  (gb_terrain.h, under 8-nocut and 4), chosen by
                                  gb_solve() once per query; NULL: the family is
                                  refused on them (defined for uniform costs) */
    int anyangle;               /* 1: its paths are any-angle waypoints (Theta*):
                                  cost model GB_COST_ANYANGLE, guarantee none,
                                  cost <= the grid optimum (gb_solver_grid_bound) */
    int aa_optimal;             /* 1: an optimal any-angle search of the GPPC model
                                  (Anya): refused without spec.aa_gppc, and its cost
                                  must equal the exact any-angle optimum
                                  (gb_solver_aa_optimal) */
    const gb_search_fn *fn_trace; /* [fn_heurs]: the searches on the binary heap
                                  that record every event into ws->trace
                                  (gb_core_tr); NULL: the family cannot be
                                  traced (`gridbench trace` refuses it) */
} gb_family;

#define GB_X(E, F) extern const gb_family gb_family_##F;
GB_SOLVER_LIST(GB_X)
#undef GB_X

/* The descriptor of family a (a < GB_ALGO_COUNT). */
const gb_family *gb_family_get(gb_algo a);

/* Search tables defined in a translation unit of their own (the heaviest
 * instantiations, split so that the build uses two cores): the weighted
 * halves of the best-first and bidirectional families. */
extern const gb_search_fn gb_bestfirst_fn_w[GB_Q_COUNT * GB_H_COUNT];
extern const gb_search_fn gb_bidir_fn_w[GB_Q_COUNT * GB_H_COUNT];

/* ---- the workspace -------------------------------------------------- */

struct gb_ws {
    const gb_grid *grid;   /* the map (not owned) */
    gb_model model;        /* movement model of moves[] */
    uint8_t *moves;        /* legal-move mask per cell id */
    uint32_t gen;          /* current query generation, >= 1 */
    uint32_t *stamp;       /* forward state per id (see gb_search.h) */
    double *g;             /* forward g per id */
    int32_t *parent;       /* forward parent id per id, -1 at the root */
    uint32_t *stamp2;      /* backward state (families with dirs 2), or NULL */
    double *g2;
    int32_t *parent2;
    int32_t *path;         /* path buffer of ncells ids */
    int last_dirs;         /* dirs of the last search's family (visit state) */
    gb_landmarks lm[GB_WS_MAX_LM]; /* differential-heuristic tables, built on demand */
    int lm_req[GB_WS_MAX_LM];      /* k each was built for (0 = free slot) */
    const gb_landmarks *lm_cur;    /* the table of the current query's k */
    void *fam[GB_ALGO_COUNT];      /* each family's per-map state, or NULL */
    uint8_t fam_ready[GB_ALGO_COUNT]; /* 1 once the family's prepare ran */
    double fam_prep_ns[GB_ALGO_COUNT]; /* how long that prepare took */
    char prep_msg[256];            /* why a prepare refused the map (EFBIG), or "" */
    const gb_store *store;         /* where prepared tables are kept, or NULL */
    gb_trace *trace;               /* non-NULL: gb_solve() runs fn_trace (gb_ws_set_trace) */
#define GB_X(E, T, N, L, D) gb_##T q_##T[2]; uint8_t ready_##T[2];
    GB_QUEUE_LIST(GB_X)
#undef GB_X
};

/* ---- queues by compile-time constant Q -------------------------------- */
/* gb_q_at(ws, Q, d) is the workspace's queue of kind Q for direction d
 * (0 forward, 1 backward) as an untyped pointer, fetched once per search;
 * the operations take it back with the type of Q. */

#define GB_QX_AT(E, T, N, L, D) case GB_Q_##E: return &ws->q_##T[d];
static inline GB_ALWAYS_INLINE void *gb_q_at(gb_ws *ws, const int Q, int d)
{
    switch (Q) { GB_QUEUE_LIST(GB_QX_AT) default: return NULL; }
}
#undef GB_QX_AT

#define GB_QX_CLEAR(E, T, N, L, D) case GB_Q_##E: gb_##T##_clear((gb_##T *)q); break;
static inline GB_ALWAYS_INLINE void gb_q_clear(const int Q, void *q)
{
    switch (Q) { GB_QUEUE_LIST(GB_QX_CLEAR) default: break; }
}
#undef GB_QX_CLEAR

#define GB_QX_EMPTY(E, T, N, L, D) case GB_Q_##E: return gb_##T##_empty((const gb_##T *)q);
static inline GB_ALWAYS_INLINE int gb_q_empty(const int Q, const void *q)
{
    switch (Q) { GB_QUEUE_LIST(GB_QX_EMPTY) default: return 1; }
}
#undef GB_QX_EMPTY

#define GB_QX_PUSH(E, T, N, L, D) case GB_Q_##E: gb_##T##_push((gb_##T *)q, id, f, g); break;
static inline GB_ALWAYS_INLINE void gb_q_push(const int Q, void *q, int32_t id, double f,
                                              double g)
{
    switch (Q) { GB_QUEUE_LIST(GB_QX_PUSH) default: break; }
}
#undef GB_QX_PUSH

#define GB_QX_DECREASE(E, T, N, L, D) \
    case GB_Q_##E: gb_##T##_decrease((gb_##T *)q, id, f, g); break;
static inline GB_ALWAYS_INLINE void gb_q_decrease(const int Q, void *q, int32_t id, double f,
                                                  double g)
{
    switch (Q) { GB_QUEUE_LIST(GB_QX_DECREASE) default: break; }
}
#undef GB_QX_DECREASE

/* The same with exact integer keys (gb_exact.h): fk = D(f), gk = ~D(g),
 * the search core's exact mode. */
#define GB_QX_PUSHK(E, T, N, L, D) case GB_Q_##E: gb_##T##_pushk((gb_##T *)q, id, fk, gk); break;
static inline GB_ALWAYS_INLINE void gb_q_pushk(const int Q, void *q, int32_t id, uint64_t fk,
                                               uint64_t gk)
{
    switch (Q) { GB_QUEUE_LIST(GB_QX_PUSHK) default: break; }
}
#undef GB_QX_PUSHK

#define GB_QX_DECREASEK(E, T, N, L, D) \
    case GB_Q_##E: gb_##T##_decreasek((gb_##T *)q, id, fk, gk); break;
static inline GB_ALWAYS_INLINE void gb_q_decreasek(const int Q, void *q, int32_t id, uint64_t fk,
                                                   uint64_t gk)
{
    switch (Q) { GB_QUEUE_LIST(GB_QX_DECREASEK) default: break; }
}
#undef GB_QX_DECREASEK

/* pushk / decreasek / pop of a search with h = 0 (Dijkstra: f = g, every
 * key one edge beyond the last popped one).  A queue of lazy flag 2 has a
 * mode for that (gb_queues.h) and its gb_T_pushk_dij / _decreasek_dij /
 * _pop_dij take it inline; the others get pushk / decreasek / pop. */
#define GB_QX_DIJ_0(T, op) gb_##T##_##op
#define GB_QX_DIJ_1(T, op) gb_##T##_##op
#define GB_QX_DIJ_2(T, op) gb_##T##_##op##_dij
#define GB_QX_PUSHKD(E, T, N, L, D) \
    case GB_Q_##E: GB_QX_DIJ_##L(T, pushk)((gb_##T *)q, id, fk, gk); break;
static inline GB_ALWAYS_INLINE void gb_q_pushk_dij(const int Q, void *q, int32_t id,
                                                   uint64_t fk, uint64_t gk)
{
    switch (Q) { GB_QUEUE_LIST(GB_QX_PUSHKD) default: break; }
}
#undef GB_QX_PUSHKD

#define GB_QX_DECREASEKD(E, T, N, L, D) \
    case GB_Q_##E: GB_QX_DIJ_##L(T, decreasek)((gb_##T *)q, id, fk, gk); break;
static inline GB_ALWAYS_INLINE void gb_q_decreasek_dij(const int Q, void *q, int32_t id,
                                                       uint64_t fk, uint64_t gk)
{
    switch (Q) { GB_QUEUE_LIST(GB_QX_DECREASEKD) default: break; }
}
#undef GB_QX_DECREASEKD

#define GB_QX_POPD(E, T, N, L, D) case GB_Q_##E: return GB_QX_DIJ_##L(T, pop)((gb_##T *)q);
static inline GB_ALWAYS_INLINE int32_t gb_q_pop_dij(const int Q, void *q)
{
    switch (Q) { GB_QUEUE_LIST(GB_QX_POPD) default: return -1; }
}
#undef GB_QX_POPD
#undef GB_QX_DIJ_0
#undef GB_QX_DIJ_1
#undef GB_QX_DIJ_2

#define GB_QX_POP(E, T, N, L, D) case GB_Q_##E: return gb_##T##_pop((gb_##T *)q);
static inline GB_ALWAYS_INLINE int32_t gb_q_pop(const int Q, void *q)
{
    switch (Q) { GB_QUEUE_LIST(GB_QX_POP) default: return -1; }
}
#undef GB_QX_POP

#define GB_QX_CNT(E, T, N, L, D) case GB_Q_##E: return &((const gb_##T *)q)->cnt;
static inline GB_ALWAYS_INLINE const gb_pq_counters *gb_q_cnt(const int Q, const void *q)
{
    switch (Q) { GB_QUEUE_LIST(GB_QX_CNT) default: return NULL; }
}
#undef GB_QX_CNT

/* ---- instantiation helpers ------------------------------------------ */

/* GB_FOR_QH() expands GB_QH_X(T, E, N) once per queue suffix T and
 * heuristic (enum suffix E, name N), the differential heuristic last --
 * queue-major in enum order, the order of a [GB_Q_COUNT][GB_H_COUNT]
 * table.  GB_FOR_Q() expands GB_Q_X(T) once per queue.  A family defines
 * GB_QH_X / GB_Q_X, expands, and #undefs them: one wrapper per pair and
 * the table of them, with no list of queues or heuristics of its own. */
#define GB_FOR_QH_ONE_(T, E, N, A, C, D) GB_QH_X(T, E, N)
#define GB_FOR_QH_Q_(E, T, N, L, D) GB_HEUR_LIST_A(GB_FOR_QH_ONE_, T) GB_QH_X(T, DIFF, diff)
#define GB_FOR_QH() GB_QUEUE_LIST(GB_FOR_QH_Q_)
/* GB_FOR_H() expands GB_QH_X(bheap, E, N) once per heuristic, in the
 * order of a [GB_H_COUNT] table: a family's traced searches (fn_trace). */
#define GB_FOR_H()                   GB_FOR_QH_Q_(BHEAP, bheap, "bheap", 1, "")
#define GB_FOR_Q_ONE_(E, T, N, L, D) GB_Q_X(T)
#define GB_FOR_Q() GB_QUEUE_LIST(GB_FOR_Q_ONE_)

/* ---- time limit ------------------------------------------------------- */
static inline int64_t gb_mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Deadline of a search with limit max_ns (0 = none: INT64_MAX). */
static inline int64_t gb_deadline_of(const gb_solver_spec *s)
{
    return s->max_ns ? gb_mono_ns() + (int64_t)s->max_ns : INT64_MAX;
}

/* Every GB_TIME_CHECK expansions: is the deadline past? */
static inline int gb_over_time(uint64_t expanded, int64_t deadline)
{
    return deadline != INT64_MAX && (expanded % GB_TIME_CHECK) == 0 && gb_mono_ns() > deadline;
}

/* ---- heuristics by compile-time constant ----------------------------- */
static inline GB_ALWAYS_INLINE double gb_heur_inline(int h, const gb_hctx *c, int32_t id,
                                                     int32_t x, int32_t y)
{
    switch (h) {
#define GB_X(E, N, A, C, D) case GB_H_##E: return gb_h_##N(c, id, x, y);
    GB_HEUR_LIST(GB_X)
#undef GB_X
    case GB_H_DIFF: return gb_h_diff(c, id, x, y);
    default: return 0.0;
    }
}

/* 1 when heuristic h has an exact form (gb_heuristic.h): its value is
 * a + b sqrt2 with integers a, b >= 0 (a constant for a constant h). */
static inline GB_ALWAYS_INLINE int gb_heur_exact(int h)
{
    return h == GB_H_ZERO || h == GB_H_MANHATTAN || h == GB_H_OCTILE || h == GB_H_CHEBYSHEV;
}

/* The exact key of heuristic h (one with gb_heur_exact(h)); 0 for zero. */
static inline GB_ALWAYS_INLINE uint64_t gb_heurx_inline(int h, const gb_hctx *c, int32_t x,
                                                        int32_t y)
{
    switch (h) {
    case GB_H_MANHATTAN: return gb_hx_manhattan(c, x, y);
    case GB_H_OCTILE: return gb_hx_octile(c, x, y);
    case GB_H_CHEBYSHEV: return gb_hx_chebyshev(c, x, y);
    default: return 0;
    }
}

/* ---- paths (gb_ws.c) -------------------------------------------------- */

/* Walk parent[] from `from` back to the root into p (from first); with
 * indir (jump searches: the direction each node was reached by) every
 * jump is expanded into its cells.  Returns the number of cells written,
 * or -1 if the chain is longer than cap (a solver bug: the caller reports
 * an empty path, which the validator rejects). */
int32_t gb_path_walk(const gb_ws *ws, const int32_t *parent, const uint8_t *indir,
                     int32_t from, int32_t *p, int32_t cap);

/* out->path = the forward chain start..goal of ws->parent (expanded by
 * indir when not NULL), in ws->path; path_len 0 on a broken chain. */
void gb_path_build(gb_ws *ws, int32_t goal, const uint8_t *indir, gb_result *out);

/* Reverse p[0..n). */
void gb_path_reverse(int32_t *p, int32_t n);

/* A result without a path (unreachable, or stopped by a limit). */
static inline void gb_result_nopath(gb_ws *ws, gb_result *out)
{
    out->cost = 0.0;
    out->path_len = 0;
    out->path = ws->path;
}

#endif
