/*
 * gb_flowfield.c -- the flow-field family ("flowfield", "flowfield-cold"):
 * one Dijkstra from the goal over the goal's whole component gives every
 * cell its cost to the goal and the direction of its next step (the flow
 * field); an agent anywhere follows the directions to the goal (the
 * extraction).  Optimal under every movement model.
 *
 * What it models: many agents sharing one goal (crowds, RTS units).  The
 * field is paid once per goal, each agent then pays only its walk.  So
 * that a benchmark sees both costs, the family keeps the field of the
 * last goal in its per-map state:
 *   flowfield        builds the field when the query's goal (or queue)
 *                    differs from the field held, else only extracts;
 *   flowfield-cold   builds it on every query (never reads the cache).
 * With `gridbench run --reps R` (R >= 2) each query runs R times in a row,
 * so for `flowfield` time_cold_ns is build + extraction when the goal is
 * new and time_ns (the warm median) is the extraction alone; for
 * `flowfield-cold` both are build + extraction.  Over a many-to-one
 * scenario (`gridbench gen --map FILE --goals G --per-goal K`) the
 * break-even number of agents per goal against A* per agent is
 *     K* = t_build / (t_astar - t_extract),  t_build = t_cold - t_extract
 * (scripts/flowfield-breakeven.sh computes it from the summary).
 *
 * Data structure (state, allocated once per map): dist[id] (cost to the
 * goal: the exact key D(a, b) of gb_exact.h on grids of at most
 * GB_EXACT_MAX_CELLS cells, else a double), dir[id] (direction k of the next step, 8 at the goal), mark[id]
 * (0 unreached, 1 open, 2 closed in the last build), the goal and queue of
 * the field held (-1: none), and the counters of its build.
 *
 * Invariant: when goal >= 0, for every cell c with mark[c] == 2, dist[c]
 * is the cost of a shortest path c -> goal and c + off[dir[c]] is the next
 * cell of one (dist[next] + cost(dir[c]) == dist[c]); mark[c] != 2 means
 * c cannot reach the goal.  Why: Dijkstra from the goal, relaxing the
 * move u -> v of direction k and recording dir[v] = opposite(k).  Every
 * movement model of gb_grid.h is symmetric (the move u -> v is legal iff
 * v -> u is: the same target/corner cells are tested), so a shortest path
 * from the goal to v reversed is a shortest path from v to the goal, made
 * of legal moves.  The extraction follows dir[] from the start; each step
 * strictly lowers dist, so it ends at the goal after path-length steps.
 *
 * Counters: expanded/generated/pushes/pops/decreases/stale/peak_open are
 * those of the build of the field the path came from, whether it was built
 * by this query or cached (so repeated queries report the same counters:
 * the per-goal work); scanned is the number of steps walked (the
 * extraction).  --max-expanded and --max-ms stop a build (GB_LIMIT, the
 * half-built field is dropped).
 *
 * Terrain costs (gb_terrain.h; WT, a constant of each instantiation, in
 * a table of its own, fn_w): a move adds its units (gb_grid_units) times
 * S or T; costs are symmetric, so the argument above holds unchanged, and
 * the walk sums the units of its steps for the reported cost.
 *
 * Time complexity: build O(E log V) with a heap over the goal's component
 * (E <= 8V); extraction O(path length).  Memory: 10 bytes per cell.
 */
#include "gb_exact.h"
#include "gb_family.h"

#include <errno.h>
#include <math.h>
#include <string.h>

enum { FF_CACHE = 0, FF_COLD = 1 };   /* form variants */

typedef struct ff_state {
    double *dist;     /* [ncells] cost to the goal of the field held */
    uint8_t *dir;     /* [ncells] direction of the next step; 8 at the goal */
    uint8_t *mark;    /* [ncells] 0 unreached, 1 open, 2 closed */
    int32_t goal;     /* goal of the field held, -1 none */
    int queue;        /* queue that built it */
    gb_stats build;   /* counters of its build */
} ff_state;

/* The direction opposite to k (N<->S, E<->W, NE<->SW, SE<->NW). */
static inline int ff_opposite(int k)
{
    return k < 4 ? (k + 2) & 3 : 4 + ((k - 2) & 3);
}

/* Build the field of goal on queue Q.  1 done, 0 stopped by a limit.
 * EX = 1 (grids of at most GB_EXACT_MAX_CELLS cells, the usual case):
 * dist[] holds the exact keys D(a, b) of gb_exact.h in the same 8 bytes,
 * every comparison is exact, and the queue gets the entry points of a
 * search with h = 0 (the bucket queue's Dijkstra mode); EX = 0: doubles. */
static inline GB_ALWAYS_INLINE int ff_build_(gb_ws *ws, ff_state *F, const gb_solver_spec *s,
                                             int32_t goal, const int Q, const int EX, const int WT)
{
    static const uint64_t kcost[8] = { GB_EXACT_S, GB_EXACT_S, GB_EXACT_S, GB_EXACT_S,
                                       GB_EXACT_T, GB_EXACT_T, GB_EXACT_T, GB_EXACT_T };
    const gb_grid *grid = ws->grid;
    const uint8_t *moves = ws->moves;
    double *dist = F->dist;
    uint64_t *distx = (uint64_t *)(void *)F->dist;   /* EX: the same storage as keys */
    uint8_t *dir = F->dir, *mark = F->mark;
    const uint64_t max_exp = s->max_expanded ? s->max_expanded : UINT64_MAX;
    const int64_t deadline = gb_deadline_of(s);
    uint64_t n_exp = 0, n_gen = 0, n_stale = 0;
    memset(mark, 0, (size_t)grid->ncells);
    F->goal = -1;
    void *q = gb_q_at(ws, Q, 0);
    gb_q_clear(Q, q);
    dir[goal] = 8;
    mark[goal] = 1;
    if (EX) {
        distx[goal] = 0;
        gb_q_pushk_dij(Q, q, goal, 0, ~(uint64_t)0);
    } else {
        dist[goal] = 0.0;
        gb_q_push(Q, q, goal, 0.0, 0.0);
    }
    int done = 1;
    while (!gb_q_empty(Q, q)) {
        const int32_t u = EX ? gb_q_pop_dij(Q, q) : gb_q_pop(Q, q);
        if (mark[u] == 2) { n_stale++; continue; }
        mark[u] = 2;
        if (++n_exp > max_exp || gb_over_time(n_exp, deadline)) { done = 0; break; }
        const double du = EX ? 0.0 : dist[u];
        const uint64_t dux = EX ? distx[u] : 0;
        for (unsigned m = moves[u]; m; m &= m - 1) {
            const int k = __builtin_ctz(m);
            const int32_t v = u + grid->off[k];
            if (mark[v] == 2) continue;
            if (EX) {
                const uint64_t nd = dux + (WT ? gb_grid_units(grid, u, k) * kcost[k] : kcost[k]);
                if (mark[v] == 1) {
                    if (nd >= distx[v]) continue;
                    distx[v] = nd;
                    dir[v] = (uint8_t)ff_opposite(k);
                    gb_q_decreasek_dij(Q, q, v, nd, ~nd);
                } else {
                    mark[v] = 1;
                    distx[v] = nd;
                    dir[v] = (uint8_t)ff_opposite(k);
                    gb_q_pushk_dij(Q, q, v, nd, ~nd);
                }
                n_gen++;
                continue;
            }
            const double nd = du + (WT ? (double)gb_grid_units(grid, u, k) * gb_dir_cost[k]
                                         / (double)grid->cscale : gb_dir_cost[k]);
            if (mark[v] == 1) {
                if (nd >= dist[v]) continue;
                dist[v] = nd;
                dir[v] = (uint8_t)ff_opposite(k);
                gb_q_decrease(Q, q, v, nd, nd);
            } else {
                mark[v] = 1;
                dist[v] = nd;
                dir[v] = (uint8_t)ff_opposite(k);
                gb_q_push(Q, q, v, nd, nd);
            }
            n_gen++;
        }
    }
    const gb_pq_counters *cnt = gb_q_cnt(Q, q);
    memset(&F->build, 0, sizeof F->build);
    F->build.expanded = n_exp;
    F->build.generated = n_gen;
    F->build.stale = n_stale;
    F->build.pushes = cnt->pushes;
    F->build.pops = cnt->pops;
    F->build.decreases = cnt->decreases;
    F->build.peak_open = cnt->peak;
    if (done) {
        F->goal = goal;
        F->queue = Q;
    }
    return done;
}

static inline GB_ALWAYS_INLINE int ff_build(gb_ws *ws, ff_state *F, const gb_solver_spec *s,
                                            int32_t goal, const int Q, const int WT)
{
    if (WT) {
        if (gb_grid_exact_ok(ws->grid)) return ff_build_(ws, F, s, goal, Q, 1, 1);
        return ff_build_(ws, F, s, goal, Q, 0, 1);
    }
    if (ws->grid->ncells <= GB_EXACT_MAX_CELLS) return ff_build_(ws, F, s, goal, Q, 1, 0);
    return ff_build_(ws, F, s, goal, Q, 0, 0);
}

static inline GB_ALWAYS_INLINE void ff_core(gb_ws *ws, const gb_solver_spec *s, int32_t start,
                                            int32_t goal, gb_result *out, const int Q,
                                            const int WT)
{
    ff_state *F = ws->fam[GB_ALGO_FLOWFIELD];
    const gb_grid *grid = ws->grid;
    memset(out, 0, sizeof *out);
    out->path = ws->path;
    if (s->variant == FF_COLD || F->goal != goal || F->queue != Q) {
        if (!ff_build(ws, F, s, goal, Q, WT)) {
            out->st = F->build;
            out->status = GB_LIMIT;
            gb_result_nopath(ws, out);
            return;
        }
    }
    out->st = F->build;
    if (F->mark[start] != 2) {
        out->status = GB_UNREACHABLE;
        out->cost = INFINITY;
        return;
    }
    /* the extraction: follow the field */
    int32_t *p = ws->path, n = 0, cur = start;
    int64_t ns = 0, nd = 0;
    p[n++] = cur;
    while (cur != goal && n < grid->ncells) {
        const int k = F->dir[cur];
        const int64_t u = WT ? (int64_t)gb_grid_units(grid, cur, k) : 1;
        cur += grid->off[k];
        p[n++] = cur;
        if (k < 4) ns += u; else nd += u;
    }
    out->st.scanned = (uint64_t)(n - 1);
    out->status = GB_FOUND;
    out->path_len = cur == goal ? n : 0;   /* 0: a broken field, which the validator rejects */
    out->cost = WT ? ((double)ns + (double)nd * GB_SQRT2) / (double)grid->cscale
                   : (double)ns + GB_SQRT2 * (double)nd;
}

#define GB_Q_X(T)                                                                     \
    static void ff_##T(gb_ws *ws, const gb_solver_spec *s, int32_t a, int32_t b, gb_result *o) \
    { ff_core(ws, s, a, b, o, GB_QT_##T, 0); }                                          \
    static void ffw_##T(gb_ws *ws, const gb_solver_spec *s, int32_t a, int32_t b, gb_result *o) \
    { ff_core(ws, s, a, b, o, GB_QT_##T, 1); }
GB_FOR_Q()
#undef GB_Q_X

#define GB_Q_X(T) ff_##T,
static const gb_search_fn ff_fn[GB_Q_COUNT] = { GB_FOR_Q() };
#undef GB_Q_X
#define GB_Q_X(T) ffw_##T,
static const gb_search_fn ff_fn_w[GB_Q_COUNT] = { GB_FOR_Q() };
#undef GB_Q_X

/* ---- per-map state ------------------------------------------------------ */

static size_t ff_bytes(int32_t width, int32_t height, const gb_solver_spec *s)
{
    (void)s;
    const size_t nc = ((size_t)width + 2) * ((size_t)height + 2);
    const ff_state *F = NULL;   /* for sizeof only */
    return sizeof *F + nc * (sizeof *F->dist + sizeof *F->dir + sizeof *F->mark);
}

static void ff_release(void *state)
{
    ff_state *F = state;
    if (!F) return;
    gb_free(F->dist);
    gb_free(F->dir);
    gb_free(F->mark);
    gb_free(F);
}

static int ff_prepare(gb_ws *ws, const gb_solver_spec *s, void **state)
{
    (void)s;
    const size_t nc = (size_t)ws->grid->ncells;
    ff_state *F = gb_calloc(1, sizeof *F);
    if (!F) { errno = ENOMEM; return -1; }
    F->dist = gb_malloc(nc * sizeof *F->dist);
    F->dir = gb_malloc(nc);
    F->mark = gb_calloc(nc, 1);
    if (!F->dist || !F->dir || !F->mark) {
        ff_release(F);
        errno = ENOMEM;
        return -1;
    }
    F->goal = -1;
    F->queue = -1;
    *state = F;
    return 0;
}

static const gb_form ff_forms[] = {
    { .pattern = "flowfield", .wg = 1.0, .heur = GB_H_ZERO, .variant = FF_CACHE,
      .desc = "flow field: one Dijkstra from the goal gives every cell its next step, "
              "the agent follows it; the field of the last goal is kept (a query with "
              "the same goal only extracts); optimal" },
    { .pattern = "flowfield-cold", .wg = 1.0, .heur = GB_H_ZERO, .variant = FF_COLD,
      .desc = "flow field built on every query (build + extraction per agent; "
              "the cache-less reference of flowfield); optimal" },
};
/* `--solver all` runs the cold variant: on a scenario of one agent per
 * goal, the cached one would time its warm repetitions as extraction
 * alone (the field built by the first) and headline a speed-up that no
 * single query has.  The cached variant is for many-to-one scenarios
 * (gridbench gen --goals G --per-goal K) and is named explicitly. */
static const char *const ff_all[] = { "flowfield-cold" };

const gb_family gb_family_flowfield = {
    .forms = ff_forms, .nforms = GB_COUNTOF(ff_forms),
    .all = ff_all, .nall = GB_COUNTOF(ff_all),
    .models = (1u << GB_MODEL_COUNT) - 1u,
    .dirs = 1,
    .bytes = ff_bytes, .prepare = ff_prepare, .release = ff_release,
    .fn = ff_fn, .fn_w = ff_fn_w, .fn_queues = GB_Q_COUNT, .fn_heurs = 1,
};
