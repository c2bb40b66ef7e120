/*
 * gb_jpsplus.c -- the JPS+ family ("jps+"): jump point search with the
 * jump distances precomputed per cell and direction (Harabor & Grastien
 * 2012/2014; the formulation of Rabin, "JPS+: an extreme A* speed
 * optimization", Game AI Pro 2, 2015), for the no-corner-cutting model
 * only, as an expansion policy of the best-first core
 * (gb_search_core.pmt), octile heuristic.
 *
 * Table.  dist[8 * id + k] for every cell id and direction k (cell-major:
 * the eight values of one cell are 16 contiguous bytes, int16_t, so an
 * expansion reads one cache line; int32_t, 32 bytes, on a map more than
 * INT16_MAX + 1 cells wide or high):
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
 * Time O(8 ncells), memory 19 bytes per cell (dist 16, cinfo 2, indir 1;
 * 35 with 32-bit distances).
 *
 * cinfo[id] (built after the table): the low byte holds, for each
 * straight arrival din, whether gb_jps_dirs adds the forced pair on side
 * (din + 1) & 3 (bit 2 din) or (din + 3) & 3 (bit 2 din + 1), so pruning
 * reads one 16-bit word instead of four pass[] cells; the high byte has
 * bit k set when dist[id][k] != 0.  A direction with d = 0 is dropped
 * from the pruned set: its jump finds nothing, goal or not, and the
 * search loop does nothing for a jump that finds nothing.
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
 * Each direction's jump is compiled for its constant k (one switch per
 * jump): the goal test above runs only when the goal is on k's ray
 * (straight: one comparison of a coordinate) or strictly inside k's
 * quadrant (diagonal), and the step is a constant offset.
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
    int16_t *d16;      /* [8 * ncells] jump distances, cell-major (above), */
    int32_t *d32;      /*   16-bit when every line fits (d16), else d32 */
    uint16_t *cinfo;   /* [ncells] low byte: forced sides, bit 2 * din + i
                        * (gb_jps_dirs); high byte: bit k when dist[id][k] != 0 */
    int32_t gx, gy;    /* padded column and row of the current goal */
} jpsplus_state;

/* Distances fit 16 bits when every |d| <= INT16_MAX: a jump (or the walk
 * to a wall) moves at most width - 1 or height - 1 cells. */
static int jpsplus_narrow(int32_t width, int32_t height)
{
    return width - 1 <= INT16_MAX && height - 1 <= INT16_MAX;
}

/* dist[i] of the table in use (W: constant, the 32-bit one). */
static inline GB_ALWAYS_INLINE int32_t jpsplus_dget(const jpsplus_state *J, size_t i,
                                                    const int W)
{
    return W ? J->d32[i] : J->d16[i];
}

/* ---- construction --------------------------------------------------------- */

/* dist[c][k] from the value at c' = c + off[k] (see the recurrence). */
static inline int32_t extend(int32_t next)
{
    return next > 0 ? next + 1 : next - 1;
}

/* Build the table of width W (constant; see jpsplus_dget). */
static inline GB_ALWAYS_INLINE void jpsplus_build_(jpsplus_state *J, const gb_grid *g,
                                                   const uint8_t *moves, const int W)
{
    const int32_t stride = g->stride, H = g->height, Wd = g->width;
    const int32_t *off = g->off;
    const uint8_t *pass = g->pass;
    /* the border and the blocked cells: 0 everywhere, never read */
    if (W) memset(J->d32, 0, 8 * (size_t)g->ncells * sizeof *J->d32);
    else memset(J->d16, 0, 8 * (size_t)g->ncells * sizeof *J->d16);
#define DGET(c, k) jpsplus_dget(J, (size_t)(c) * 8 + (size_t)(k), W)
#define DSET(c, k, v)                                                          \
    do {                                                                       \
        if (W) J->d32[(size_t)(c) * 8 + (size_t)(k)] = (v);                    \
        else J->d16[(size_t)(c) * 8 + (size_t)(k)] = (int16_t)(v);             \
    } while (0)
    /* straight k at free cell c: 0 at a wall, 1 before a jump point */
#define STRAIGHT(c, k)                                                         \
    do {                                                                       \
        const int32_t n_ = (c) + off[k];                                       \
        DSET(c, k, !pass[n_] ? 0 : gb_jps_forced(g, n_, k) ? 1 : extend(DGET(n_, k))); \
    } while (0)
    /* diagonal k at cell c, components kh, kv */
#define DIAG(c, k, kh, kv)                                                     \
    do {                                                                       \
        const int32_t n_ = (c) + off[k];                                       \
        DSET(c, k, !(moves[c] >> (k) & 1u) ? 0                                 \
                  : (DGET(n_, kh) > 0 || DGET(n_, kv) > 0) ? 1 : extend(DGET(n_, k))); \
    } while (0)
    for (int32_t y = 1; y <= H; y++) {          /* pass 1: top to bottom */
        const int32_t r = y * stride;
        for (int32_t x = 1; x <= Wd; x++) {
            const int32_t c = r + x;
            if (!pass[c]) continue;
            STRAIGHT(c, GB_DIR_N);
            STRAIGHT(c, GB_DIR_W);
        }
        for (int32_t x = Wd; x >= 1; x--)
            if (pass[r + x]) STRAIGHT(r + x, GB_DIR_E);
        for (int32_t x = 1; x <= Wd; x++) {
            const int32_t c = r + x;
            if (!pass[c]) continue;
            DIAG(c, GB_DIR_NE, GB_DIR_E, GB_DIR_N);
            DIAG(c, GB_DIR_NW, GB_DIR_W, GB_DIR_N);
        }
    }
    for (int32_t y = H; y >= 1; y--) {          /* pass 2: bottom to top */
        const int32_t r = y * stride;
        for (int32_t x = 1; x <= Wd; x++) {
            const int32_t c = r + x;
            if (!pass[c]) continue;
            STRAIGHT(c, GB_DIR_S);
            DIAG(c, GB_DIR_SE, GB_DIR_E, GB_DIR_S);
            DIAG(c, GB_DIR_SW, GB_DIR_W, GB_DIR_S);
        }
    }
#undef DIAG
#undef STRAIGHT
#undef DSET
#undef DGET
}

/* cinfo of every cell (after the table): the forced sides for the four
 * straight arrivals, bit 2 * din + i set when gb_jps_dirs(g, id, din)
 * adds its forced pair i (side (din + 1 + 2i) & 3), and the directions
 * whose jump moves at all, so that pruning reads two bytes. */
static void jpsplus_cinfo_fill(jpsplus_state *J, const gb_grid *g)
{
    const uint8_t *pass = g->pass;
    const int32_t *off = g->off;
    memset(J->cinfo, 0, (size_t)g->ncells * sizeof *J->cinfo);
    for (int32_t y = 1; y <= g->height; y++)
        for (int32_t x = 1; x <= g->width; x++) {
            const int32_t id = y * g->stride + x;
            if (!pass[id]) continue;
            unsigned m = 0;
            for (int din = 0; din < 4; din++) {
                const int32_t back = id - off[din], l = off[(din + 1) & 3],
                              r = off[(din + 3) & 3];
                if (!pass[back + l] && pass[id + l]) m |= 1u << (2 * din);
                if (!pass[back + r] && pass[id + r]) m |= 2u << (2 * din);
            }
            if (J->d16) {
                const int16_t *d = J->d16 + (size_t)id * 8;
                for (int k = 0; k < 8; k++) m |= (unsigned)(d[k] != 0) << (8 + k);
            } else {
                const int32_t *d = J->d32 + (size_t)id * 8;
                for (int k = 0; k < 8; k++) m |= (unsigned)(d[k] != 0) << (8 + k);
            }
            J->cinfo[id] = (uint16_t)m;
        }
}

static void jpsplus_build(jpsplus_state *J, const gb_grid *g, const uint8_t *moves)
{
    if (J->d32) jpsplus_build_(J, g, moves, 1);
    else jpsplus_build_(J, g, moves, 0);
    jpsplus_cinfo_fill(J, g);
}

/* ---- the expansion policy of gb_search_core.pmt ---------------------- */

static inline void jpsplus_begin(jpsplus_state *J, const gb_ws *ws, int32_t start, int32_t goal)
{
    (void)start;
    J->gx = goal % ws->grid->stride;
    J->gy = goal / ws->grid->stride;
}

/* gb_jps_dirs from the table: natural[din] and the forced pairs of
 * cinfo[id] (the same bits; tests/test_jps.c checks the agreement), less
 * the directions whose first step is illegal (d = 0: the jump finds
 * nothing, goal or not, so the loop skips it). */
static inline unsigned jpsplus_dirs(const jpsplus_state *J, const gb_ws *ws, int32_t id, int din)
{
    (void)ws;
    /* prune[din][m]: natural[din] of gb_jps_dirs with the forced pairs of
     * the side bits m added (straight din only; the rows of the diagonal
     * arrivals and of the start, 8, ignore m).  One lookup, no branch on
     * the kind of arrival. */
    static const uint8_t prune[9][4] = { { 0x01, 0x13, 0x89, 0x9b },
                                         { 0x02, 0x26, 0x13, 0x37 },
                                         { 0x04, 0x4c, 0x26, 0x6e },
                                         { 0x08, 0x89, 0x4c, 0xcd },
                                         { 0x13, 0x13, 0x13, 0x13 },
                                         { 0x26, 0x26, 0x26, 0x26 },
                                         { 0x4c, 0x4c, 0x4c, 0x4c },
                                         { 0x89, 0x89, 0x89, 0x89 },
                                         { 0xff, 0xff, 0xff, 0xff } };
    const unsigned ci = J->cinfo[id];
    return prune[din][(ci >> (2 * din)) & 3u] & (ci >> 8);
}

static inline int32_t jpsplus_abs(int32_t v) { return v < 0 ? -v : v; }

/* The jump from id (padded px, py) in the constant direction K with the
 * table of width W (see "Query" above): the node it lands on, *steps
 * cells away, or -1.  The goal is tested only when it lies on K's ray
 * (straight) or strictly inside K's quadrant (diagonal). */
static inline GB_ALWAYS_INLINE int32_t jpsplus_jump_(const jpsplus_state *J, const gb_ws *ws,
                                                     int32_t id, int32_t px, int32_t py,
                                                     const int K, int32_t goal, int32_t *steps,
                                                     const int W)
{
    const int32_t d = jpsplus_dget(J, (size_t)id * 8 + (size_t)K, W);
    const int32_t stride = ws->grid->stride;
    const int sx = K == GB_DIR_E || K == GB_DIR_NE || K == GB_DIR_SE ? 1
                 : K == GB_DIR_W || K == GB_DIR_SW || K == GB_DIR_NW ? -1 : 0;
    const int sy = K == GB_DIR_S || K == GB_DIR_SE || K == GB_DIR_SW ? 1
                 : K == GB_DIR_N || K == GB_DIR_NE || K == GB_DIR_NW ? -1 : 0;
    const int32_t ok = sy * stride + sx;
    const int32_t reach = d > 0 ? d : -d;
    if (K < 4) {
        /* the goal on the ray: the other coordinate equal, this one ahead */
        if (sx ? J->gy == py : J->gx == px) {
            const int32_t t = sx ? (J->gx - px) * sx : (J->gy - py) * sy;
            if (t >= 1 && t <= reach) {
                *steps = t;
                return goal;
            }
        }
    } else {
        const int32_t ax = (J->gx - px) * sx, ay = (J->gy - py) * sy;
        if (ax > 0 && ay > 0) {
            const int32_t i = ax < ay ? ax : ay;
            if (i <= reach) {
                const int32_t ci = id + i * ok;
                int hit = ax == ay;
                if (!hit) {
                    const int r = ax > ay ? (sx > 0 ? GB_DIR_E : GB_DIR_W)
                                          : (sy > 0 ? GB_DIR_S : GB_DIR_N);
                    hit = jpsplus_abs(ax - ay)
                       <= jpsplus_abs(jpsplus_dget(J, (size_t)ci * 8 + (size_t)r, W));
                }
                if (hit) {
                    *steps = i;
                    return ci;
                }
            }
        }
    }
    if (d < 0) return -1;
    *steps = d;
    return id + d * ok;
}

static inline GB_ALWAYS_INLINE int32_t jpsplus_jumpw(const jpsplus_state *J, const gb_ws *ws,
                                                     int32_t id, int32_t px, int32_t py, int k,
                                                     int32_t goal, int32_t *steps, const int W)
{
    /* one specialised body per direction (all eight inlined here) */
    switch (k) {
    case GB_DIR_N: return jpsplus_jump_(J, ws, id, px, py, GB_DIR_N, goal, steps, W);
    case GB_DIR_E: return jpsplus_jump_(J, ws, id, px, py, GB_DIR_E, goal, steps, W);
    case GB_DIR_S: return jpsplus_jump_(J, ws, id, px, py, GB_DIR_S, goal, steps, W);
    case GB_DIR_W: return jpsplus_jump_(J, ws, id, px, py, GB_DIR_W, goal, steps, W);
    case GB_DIR_NE: return jpsplus_jump_(J, ws, id, px, py, GB_DIR_NE, goal, steps, W);
    case GB_DIR_SE: return jpsplus_jump_(J, ws, id, px, py, GB_DIR_SE, goal, steps, W);
    case GB_DIR_SW: return jpsplus_jump_(J, ws, id, px, py, GB_DIR_SW, goal, steps, W);
    default: return jpsplus_jump_(J, ws, id, px, py, GB_DIR_NW, goal, steps, W);
    }
}

/* The node a jump from id (padded px, py) in direction k lands on, *steps
 * cells away, or -1 (see "Query" above). */
static inline GB_ALWAYS_INLINE int32_t jpsplus_jump(jpsplus_state *J, const gb_ws *ws, int32_t id,
                                                    int32_t px, int32_t py, int k, int32_t goal,
                                                    int32_t *steps, uint64_t *scanned)
{
    (void)scanned;
    if (J->d16) return jpsplus_jumpw(J, ws, id, px, py, k, goal, steps, 0);
    return jpsplus_jumpw(J, ws, id, px, py, k, goal, steps, 1);
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

/* the traced search (`gridbench trace`, gb_core_tr) */
static void jpsplus_tr(gb_ws *ws, const gb_solver_spec *s, int32_t a, int32_t b, gb_result *o)
{
    gb_core_tr(ws, s, a, b, o, GB_H_OCTILE);
}
static const gb_search_fn jpsplus_fn_tr[1] = { jpsplus_tr };

/* ---- per-map state ------------------------------------------------------ */

static size_t jpsplus_bytes(int32_t width, int32_t height, const gb_solver_spec *s)
{
    (void)s;
    const size_t nc = ((size_t)width + 2) * ((size_t)height + 2);
    const jpsplus_state *J = NULL;   /* for sizeof only */
    const size_t dsz = jpsplus_narrow(width, height) ? sizeof *J->d16 : sizeof *J->d32;
    return sizeof *J + nc * (sizeof *J->indir + sizeof *J->cinfo) + 8 * nc * dsz;
}

static void jpsplus_release(void *state)
{
    jpsplus_state *J = state;
    if (!J) return;
    gb_free(J->indir);
    gb_free(J->d16);
    gb_free(J->d32);
    gb_free(J->cinfo);
    gb_free(J);
}

static int jpsplus_prepare(gb_ws *ws, const gb_solver_spec *s, void **state)
{
    (void)s;
    const size_t nc = (size_t)ws->grid->ncells;
    jpsplus_state *J = gb_calloc(1, sizeof *J);
    if (!J) { errno = ENOMEM; return -1; }
    J->indir = gb_malloc(nc);
    J->cinfo = gb_malloc(nc * sizeof *J->cinfo);
    if (jpsplus_narrow(ws->grid->width, ws->grid->height))
        J->d16 = gb_malloc(8 * nc * sizeof *J->d16);
    else
        J->d32 = gb_malloc(8 * nc * sizeof *J->d32);
    if (!J->indir || !J->cinfo || (!J->d16 && !J->d32)) {
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
    .forms = jpsplus_forms,
    .nforms = GB_COUNTOF(jpsplus_forms),
    .all = jpsplus_all,
    .nall = GB_COUNTOF(jpsplus_all),
    .models = 1u << GB_MODEL_8_NOCUT,
    .dirs = 1,
    .bytes = jpsplus_bytes,
    .prepare = jpsplus_prepare,
    .release = jpsplus_release,
    .fn = jpsplus_fn,
    .fn_queues = GB_Q_COUNT,
    .fn_heurs = 1,
    .fn_trace = jpsplus_fn_tr,
};
