/*
 * gb_jpsplus.c -- the JPS+ family ("jps+"): jump point search with the
 * jump distances precomputed per cell and direction (Harabor & Grastien
 * 2012/2014; the formulation of Rabin, "JPS+: an extreme A* speed
 * optimization", Game AI Pro 2, 2015), for the no-corner-cutting model
 * only, as an expansion policy of the best-first core
 * (gb_search_core.pmt), octile heuristic.
 *
 * Table.  dist[8 * id + k] for every cell id and direction k (cell-major:
 * the eight values of one cell are 32 contiguous bytes, so an expansion
 * reads one cache line):
 *   d > 0    a jump from id in direction k lands on a jump point d cells
 *            away (every cell before it free of jump points);
 *   d <= 0   there is no jump point that way: -d legal steps lead to the
 *            last cell before a wall (0: the first step is illegal).
 * A jump point in a straight direction k is a cell with a forced
 * neighbour relative to its predecessor on the line (gb_jps.h); in a
 * diagonal direction k, a cell from which a straight jump along one of
 * k's two components has a jump point (d > 0 there).  Neither depends on
 * the goal: the goal is handled at query time (below).
 *
 * Construction (per map, in gb_ws_prepare, never in the timed search):
 * one recurrence per direction on the cell c' = c + step(k):
 *   step illegal from c (straight: c' blocked; diagonal: moves[c] lacks
 *     k, i.e. c' or one of the two cells it passes is blocked)  -> 0
 *   c' is a jump point for direction k                          -> 1
 *   else  dist[c'][k] > 0 ? dist[c'][k] + 1 : dist[c'][k] - 1.
 * Each value depends only on c' further along k, so a sweep against k
 * fills it: two passes over the rows, each row's cells in cache once.
 *   pass 1, rows top to bottom: N (needs the row above), W (columns left
 *     to right), E (right to left); then NE and NW, which need N, E, W
 *     and their own direction in the row above, all final by then;
 *   pass 2, rows bottom to top: S; then SE and SW (S, E, W below).
 * Blocked cells get 0 everywhere; their values are never read (a jump
 * only reads the cell it leaves, which is free, and cells it can reach).
 * Time O(8 ncells), memory 33 bytes per cell (dist 32, indir 1).
 *
 * Invariant: for every free cell c and direction k, dist[c][k] is the
 * value above, i.e. the first jump point (or the wall) that the online
 * JPS of gb_jps.c finds from c in direction k when the goal is not on the
 * way.
 *
 * Query (jpsplus_jump).  The online jump also stops at the goal.  With
 * reach = |d| (the cells the jump may move):
 *   straight k: if the goal lies on id's ray in direction k at distance
 *     t with 1 <= t <= reach, the jump lands on the goal (t steps);
 *     else on the jump point at d > 0, else nowhere;
 *   diagonal k: the online diagonal jump stops at the first cell c_i
 *     (i steps) that is the goal or whose straight jumps along k's
 *     components find a jump point or the goal.  A component ray of c_i
 *     can meet the goal only when c_i shares the goal's row or column,
 *     i.e. at i = min(|gx - x|, |gy - y|) with the goal strictly in k's
 *     quadrant; there the goal is c_i itself (|gx - x| = |gy - y|) or
 *     lies t = | |gx - x| - |gy - y| | cells along the longer component
 *     r, reached when t <= |dist[c_i][r]|.  So: if that i is <= reach and
 *     the goal is reached from c_i, the jump stops at c_i; else at the
 *     jump point d > 0, else nowhere.  (A jump point before c_i would make
 *     d < i and win; when dist[c_i][r] > 0, c_i is itself a jump point,
 *     d <= i.)
 * Hence every jump returns exactly the node the online jump returns, with
 * the same step count; with the same pruning rule (gb_jps_dirs), the
 * same direction order and the same costs, the search expands, generates
 * and returns exactly what `jps` does on every queue (tested), and
 * st.scanned is 0 (no cell is scanned).
 *
 * Why it is optimal under no corner cutting: it is JPS (gb_jps.c), whose
 * pruning keeps an optimal path through jump points only (a diagonal
 * move has no forced neighbours under no corner cutting, a straight one
 * exactly those of gb_jps.h), with every jump segment a straight or
 * diagonal line whose cost steps * cost(k) is its true cost; A* with the
 * consistent octile heuristic over those segments pops the goal at its
 * optimal cost.  Goal detection above makes sure a jump never passes over
 * the goal.  Paths are expanded into cells (indir), so the validator
 * checks every step.
 *
 * Time complexity: as A* over jump points, O(1) per jump.
 */
#include "gb_family.h"

#include <errno.h>
#include <string.h>

#include "gb_jps.h"

typedef struct jpsplus_state {
    uint8_t *indir;    /* direction each node was reached by (8: start) */
    int32_t *dist;     /* [8 * ncells] jump distances, cell-major (above) */
    int32_t gx, gy;    /* padded column and row of the current goal */
} jpsplus_state;

/* ---- construction --------------------------------------------------------- */

/* dist[c][k] from the value at c' = c + off[k] (see the recurrence). */
static inline int32_t extend(int32_t next)
{
    return next > 0 ? next + 1 : next - 1;
}

static void jpsplus_build(jpsplus_state *J, const gb_grid *g, const uint8_t *moves)
{
    const int32_t stride = g->stride, H = g->height, W = g->width;
    const int32_t *off = g->off;
    const uint8_t *pass = g->pass;
    int32_t *D = J->dist;
#define DST(c, k) D[(size_t)(c) * 8 + (k)]
    /* the border rows and columns: never read, zeroed all the same */
    for (int32_t x = 0; x < stride; x++) {
        memset(&DST(x, 0), 0, 8 * sizeof *D);
        memset(&DST((H + 1) * stride + x, 0), 0, 8 * sizeof *D);
    }
    for (int32_t y = 1; y <= H; y++) {
        memset(&DST(y * stride, 0), 0, 8 * sizeof *D);
        memset(&DST(y * stride + W + 1, 0), 0, 8 * sizeof *D);
    }
    /* straight k at free cell c: 0 at a wall, 1 before a jump point */
#define STRAIGHT(c, k)                                                         \
    do {                                                                       \
        const int32_t n_ = (c) + off[k];                                       \
        DST(c, k) = !pass[n_] ? 0 : gb_jps_forced(g, n_, k) ? 1 : extend(DST(n_, k)); \
    } while (0)
    /* diagonal k at cell c, components kh, kv */
#define DIAG(c, k, kh, kv)                                                     \
    do {                                                                       \
        const int32_t n_ = (c) + off[k];                                       \
        DST(c, k) = !(moves[c] >> (k) & 1u) ? 0                                \
                  : (DST(n_, kh) > 0 || DST(n_, kv) > 0) ? 1 : extend(DST(n_, k)); \
    } while (0)
    for (int32_t y = 1; y <= H; y++) {          /* pass 1: top to bottom */
        const int32_t r = y * stride;
        for (int32_t x = 1; x <= W; x++) {
            const int32_t c = r + x;
            if (!pass[c]) { memset(&DST(c, 0), 0, 8 * sizeof *D); continue; }
            STRAIGHT(c, GB_DIR_N);
            STRAIGHT(c, GB_DIR_W);
        }
        for (int32_t x = W; x >= 1; x--)
            if (pass[r + x]) STRAIGHT(r + x, GB_DIR_E);
        for (int32_t x = 1; x <= W; x++) {
            const int32_t c = r + x;
            if (!pass[c]) continue;
            DIAG(c, GB_DIR_NE, GB_DIR_E, GB_DIR_N);
            DIAG(c, GB_DIR_NW, GB_DIR_W, GB_DIR_N);
        }
    }
    for (int32_t y = H; y >= 1; y--) {          /* pass 2: bottom to top */
        const int32_t r = y * stride;
        for (int32_t x = 1; x <= W; x++) {
            const int32_t c = r + x;
            if (!pass[c]) continue;
            STRAIGHT(c, GB_DIR_S);
            DIAG(c, GB_DIR_SE, GB_DIR_E, GB_DIR_S);
            DIAG(c, GB_DIR_SW, GB_DIR_W, GB_DIR_S);
        }
    }
#undef DIAG
#undef STRAIGHT
#undef DST
}

/* ---- the expansion policy of gb_search_core.pmt ---------------------- */

static inline void jpsplus_begin(jpsplus_state *J, const gb_ws *ws, int32_t start, int32_t goal)
{
    (void)start;
    J->gx = goal % ws->grid->stride;
    J->gy = goal / ws->grid->stride;
}

static inline unsigned jpsplus_dirs(const jpsplus_state *J, const gb_ws *ws, int32_t id, int din)
{
    (void)J;
    return gb_jps_dirs(ws->grid, id, din);
}

static inline int32_t jpsplus_abs(int32_t v) { return v < 0 ? -v : v; }

/* The node a jump from id (padded px, py) in direction k lands on, *steps
 * cells away, or -1 (see "Query" above). */
static inline int32_t jpsplus_jump(jpsplus_state *J, const gb_ws *ws, int32_t id, int32_t px,
                                   int32_t py, int k, int32_t goal, int32_t *steps,
                                   uint64_t *scanned)
{
    (void)scanned;
    const int32_t d = J->dist[(size_t)id * 8 + (size_t)k];
    const int32_t reach = d > 0 ? d : -d;
    const int32_t gdx = J->gx - px, gdy = J->gy - py;
    const int sx = gb_dir_dx[k], sy = gb_dir_dy[k];
    if (k < 4) {
        /* the goal on the ray: the other coordinate equal, this one ahead */
        const int32_t t = sx ? gdx * sx : gdy * sy;
        if ((sx ? gdy : gdx) == 0 && t >= 1 && t <= reach) {
            *steps = t;
            return goal;
        }
    } else if (gdx * sx > 0 && gdy * sy > 0) {
        const int32_t ax = jpsplus_abs(gdx), ay = jpsplus_abs(gdy);
        const int32_t i = ax < ay ? ax : ay;
        if (i <= reach) {
            const int32_t ci = id + i * ws->grid->off[k];
            int hit = ax == ay;
            if (!hit) {
                const int r = ax > ay ? (sx > 0 ? GB_DIR_E : GB_DIR_W)
                                      : (sy > 0 ? GB_DIR_S : GB_DIR_N);
                const int32_t dr = J->dist[(size_t)ci * 8 + (size_t)r];
                hit = jpsplus_abs(ax - ay) <= (dr > 0 ? dr : -dr);
            }
            if (hit) {
                *steps = i;
                return ci;
            }
        }
    }
    if (d <= 0) return -1;
    *steps = d;
    return id + d * ws->grid->off[k];
}

#define GB_CORE_JUMPS jpsplus
#define GB_CORE_ALGO GB_ALGO_JPSPLUS
#include "gb_search_core.pmt"

#define GB_Q_X(T)                                                                 \
    static void jpsplus_##T(gb_ws *ws, const gb_solver_spec *s, int32_t a, int32_t b, \
                            gb_result *o)                                         \
    { gb_core(ws, s, a, b, o, GB_QT_##T, GB_H_OCTILE); }
GB_FOR_Q()
#undef GB_Q_X

#define GB_Q_X(T) jpsplus_##T,
static const gb_search_fn jpsplus_fn[GB_Q_COUNT] = { GB_FOR_Q() };
#undef GB_Q_X

/* ---- per-map state ------------------------------------------------------ */

static size_t jpsplus_bytes(int32_t width, int32_t height, const gb_solver_spec *s)
{
    (void)s;
    const size_t nc = ((size_t)width + 2) * ((size_t)height + 2);
    const jpsplus_state *J = NULL;   /* for sizeof only */
    return sizeof *J + nc * sizeof *J->indir + 8 * nc * sizeof *J->dist;
}

static void jpsplus_release(void *state)
{
    jpsplus_state *J = state;
    if (!J) return;
    gb_free(J->indir);
    gb_free(J->dist);
    gb_free(J);
}

static int jpsplus_prepare(gb_ws *ws, const gb_solver_spec *s, void **state)
{
    (void)s;
    const size_t nc = (size_t)ws->grid->ncells;
    jpsplus_state *J = gb_calloc(1, sizeof *J);
    if (!J) { errno = ENOMEM; return -1; }
    J->indir = gb_malloc(nc);
    J->dist = gb_malloc(8 * nc * sizeof *J->dist);
    if (!J->indir || !J->dist) {
        jpsplus_release(J);
        errno = ENOMEM;
        return -1;
    }
    jpsplus_build(J, ws->grid, ws->moves);
    *state = J;
    return 0;
}

static const gb_form jpsplus_forms[] = {
    { .pattern = "jps+", .wg = 1.0, .heur = GB_H_OCTILE,
      .desc = "JPS+: jump distances precomputed per cell and direction (octile), "
              "model 8-nocut only; optimal" },
};
static const char *const jpsplus_all[] = { "jps+" };

const gb_family gb_family_jpsplus = {
    .forms = jpsplus_forms, .nforms = GB_COUNTOF(jpsplus_forms),
    .all = jpsplus_all, .nall = GB_COUNTOF(jpsplus_all),
    .models = 1u << GB_MODEL_8_NOCUT,
    .dirs = 1,
    .bytes = jpsplus_bytes, .prepare = jpsplus_prepare, .release = jpsplus_release,
    .fn = jpsplus_fn, .fn_queues = GB_Q_COUNT, .fn_heurs = 1,
};
