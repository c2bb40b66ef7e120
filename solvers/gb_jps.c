/*
 * gb_jps.c -- the jump point search family ("jps"): online JPS for the
 * no-corner-cutting model (Harabor & Grastien 2011), as an expansion
 * policy of the best-first core (gb_search_core.pmt), octile heuristic.
 *
 * Pruning (gb_jps.h): a node reached by a straight move keeps its natural
 * direction and the forced ones; a diagonal one its direction and the two
 * components; the start all eight.  Jumps:
 *   straight: step while legal; stop at the goal or at a cell with a
 *             forced neighbour;
 *   diagonal: step while legal; stop at the goal or at a cell from which
 *             a straight jump along either component finds something.
 * The expanded node's successors are the jump points found in its
 * directions; each is relaxed with cost steps * cost(k), and indir[n]
 * keeps the direction n was reached by (pruning, and the path expanded
 * into its cells).  st.expanded counts expanded jump points, st.scanned
 * the cells stepped over while jumping.
 *
 * Per-map state (jps_state, built by gb_ws_prepare): indir (a byte per
 * cell) and pass[] as bit lines, row by row and column by column, so that
 * a straight jump scans 64 cells per step (see jbits_fwd).  The goal's
 * padded coordinates are set per query (jps_begin).
 *
 * Why it is optimal under no corner cutting: every pruned neighbour of a
 * node n is reached at most as cheaply by a path through n's parent that
 * avoids n (symmetric paths), so some optimal path runs through jump
 * points only, with straight or diagonal segments between them; A* with
 * the consistent octile heuristic over those segments returns its cost.
 *
 * Time complexity: as A*, times the cells a jump scans (each cell O(1)
 * times per direction per expansion that scans it, 64 at a time on a
 * straight line).
 */
#include "gb_family.h"

#include <errno.h>
#include <string.h>

#include "gb_jps.h"

typedef struct jps_state {
    uint8_t *indir;        /* direction each node was reached by (8: start) */
    uint64_t *jrow;        /* pass[] as bits, row by row (jrw words a row) */
    uint64_t *jcol;        /* pass[] as bits, column by column (jcw words a column) */
    int32_t jrw, jcw;      /* words per row / column: one spare zero word at the end */
    int32_t jgx, jgy;      /* padded column and row of the current goal */
} jps_state;

/* Straight jumps scan a line (a row, or a column) 64 cells at a time.
 * jrow holds row y's pass[] bits at jrow[y * jrw ...] (bit p of the line
 * = padded column p), jcol column x's at jcol[x * jcw ...] (bit p = padded
 * row p).  Along a line R with neighbour lines A and B, a cell p reached
 * moving forward (p > from) is a jump point when it is the goal or has a
 * forced neighbour: A[p] && !A[p-1], or the same on B (the cell beside
 * p is open while the one beside p's predecessor is blocked: the
 * no-corner-cutting rule of gb_jps.h); moving backward the
 * predecessor is p+1.  The scan stops at the first blocked cell of R (the
 * border is blocked, so every line has one).  A candidate on the blocked
 * cell itself does not count: it cannot be entered.
 *
 * jbits_fwd: the first jump point p > from before the first blocked cell,
 * or -1; *moved = cells moved (p - from, or up to the cell before the
 * wall).  gp = the goal's position on this line, or -1. */
static inline int32_t jbits_fwd(const uint64_t *R, const uint64_t *A, const uint64_t *B,
                                int32_t from, int32_t gp, int32_t *moved)
{
    const int32_t p0 = from + 1;
    int32_t w = p0 >> 6;
    uint64_t live = ~0ull << (p0 & 63);
    uint64_t ap = w ? A[w - 1] >> 63 : 0, bp = w ? B[w - 1] >> 63 : 0;
    for (;; w++, live = ~0ull) {
        const uint64_t a = A[w], b = B[w];
        uint64_t cand = ((a & ~((a << 1) | ap)) | (b & ~((b << 1) | bp))) & live;
        const uint64_t wall = ~R[w] & live;
        if (gp >= p0 && (gp >> 6) == w) cand |= 1ull << (gp & 63);
        if (cand | wall) {
            const int cp = cand ? __builtin_ctzll(cand) : 64;
            const int wp = wall ? __builtin_ctzll(wall) : 64;
            if (cp < wp) {
                *moved = w * 64 + cp - from;
                return w * 64 + cp;
            }
            if (wall) {
                *moved = w * 64 + wp - 1 - from;
                return -1;
            }
        }
        ap = a >> 63;
        bp = b >> 63;
    }
}

/* jbits_bwd: the same moving backward (p < from; predecessor p + 1). */
static inline int32_t jbits_bwd(const uint64_t *R, const uint64_t *A, const uint64_t *B,
                                int32_t from, int32_t gp, int32_t *moved)
{
    const int32_t p0 = from - 1;
    int32_t w = p0 >> 6;
    uint64_t live = (p0 & 63) == 63 ? ~0ull : (1ull << ((p0 & 63) + 1)) - 1;
    uint64_t an = A[w + 1] << 63, bn = B[w + 1] << 63;   /* bit 0 of the next word */
    for (;; w--, live = ~0ull) {
        const uint64_t a = A[w], b = B[w];
        uint64_t cand = ((a & ~((a >> 1) | an)) | (b & ~((b >> 1) | bn))) & live;
        const uint64_t wall = ~R[w] & live;
        if (gp >= 0 && gp <= p0 && (gp >> 6) == w) cand |= 1ull << (gp & 63);
        if (cand | wall) {
            const int cp = cand ? 63 - __builtin_clzll(cand) : -1;
            const int wp = wall ? 63 - __builtin_clzll(wall) : -1;
            if (cp > wp) {
                *moved = from - (w * 64 + cp);
                return w * 64 + cp;
            }
            if (wall) {
                *moved = from - (w * 64 + wp) - 1;
                return -1;
            }
        }
        an = a << 63;
        bn = b << 63;
    }
}

/* Straight jump from the cell at padded column px, row py in direction k
 * (0..3): the first cell that is the goal or has a forced neighbour, or
 * -1 at a wall.  *steps = cells moved; *scanned += cells stepped over. */
static inline int32_t jps_jump_straight(const jps_state *J, const gb_ws *ws, int32_t px,
                                        int32_t py, int k, int32_t *steps, uint64_t *scanned)
{
    const int32_t stride = ws->grid->stride;
    const int horiz = k == GB_DIR_E || k == GB_DIR_W;
    const int32_t nw = horiz ? J->jrw : J->jcw;
    const uint64_t *line = horiz ? J->jrow + (size_t)py * (size_t)nw
                                 : J->jcol + (size_t)px * (size_t)nw;
    const int32_t from = horiz ? px : py;
    const int32_t gp = horiz ? (J->jgy == py ? J->jgx : -1) : (J->jgx == px ? J->jgy : -1);
    int32_t moved = 0;
    const int32_t p = k == GB_DIR_E || k == GB_DIR_S
                      ? jbits_fwd(line, line - nw, line + nw, from, gp, &moved)
                      : jbits_bwd(line, line - nw, line + nw, from, gp, &moved);
    *scanned += (uint64_t)moved;
    if (p < 0) return -1;
    *steps = moved;
    return horiz ? py * stride + p : p * stride + px;
}

/* Diagonal jump from c = (px, py) in direction k (4..7): the first cell
 * that is the goal or from which a straight jump along a component finds
 * a jump point, or -1. */
static inline int32_t jps_jump_diag(const jps_state *J, const gb_ws *ws, int32_t c, int32_t px,
                                    int32_t py, int k, int32_t goal, int32_t *steps,
                                    uint64_t *scanned)
{
    const uint8_t *mv = ws->moves;
    const int32_t ok = ws->grid->off[k];
    const int dx = gb_dir_dx[k], dy = gb_dir_dy[k];
    const int kh = dx > 0 ? GB_DIR_E : GB_DIR_W;
    const int kv = dy > 0 ? GB_DIR_S : GB_DIR_N;
    const unsigned bit = 1u << k;
    int32_t n = 0, dummy;
    for (;;) {
        if (!(mv[c] & bit)) { *scanned += (uint64_t)n; return -1; }
        c += ok;
        px += dx;
        py += dy;
        n++;
        if (c == goal || jps_jump_straight(J, ws, px, py, kh, &dummy, scanned) >= 0
                      || jps_jump_straight(J, ws, px, py, kv, &dummy, scanned) >= 0) {
            *steps = n;
            *scanned += (uint64_t)n;
            return c;
        }
    }
}

/* Fill the bit lines of the JPS jumps from pass[] (see jbits_fwd). */
static void jps_bits_fill(jps_state *J, const gb_grid *g)
{
    const int32_t rows = g->height + 2, cols = g->stride;
    memset(J->jrow, 0, (size_t)rows * (size_t)J->jrw * sizeof *J->jrow);
    memset(J->jcol, 0, (size_t)cols * (size_t)J->jcw * sizeof *J->jcol);
    for (int32_t y = 0; y < rows; y++)
        for (int32_t x = 0; x < cols; x++)
            if (g->pass[y * cols + x]) {
                J->jrow[(size_t)y * (size_t)J->jrw + (size_t)(x >> 6)] |= 1ull << (x & 63);
                J->jcol[(size_t)x * (size_t)J->jcw + (size_t)(y >> 6)] |= 1ull << (y & 63);
            }
}

/* ---- the expansion policy of gb_search_core.pmt ---------------------- */

static inline void jps_begin(jps_state *J, const gb_ws *ws, int32_t start, int32_t goal)
{
    (void)start;
    J->jgx = goal % ws->grid->stride;   /* for the straight jumps' goal test */
    J->jgy = goal / ws->grid->stride;
}

static inline unsigned jps_dirs(const jps_state *J, const gb_ws *ws, int32_t id, int din)
{
    (void)J;
    return gb_jps_dirs(ws->grid, id, din);
}

static inline int32_t jps_jump(jps_state *J, const gb_ws *ws, int32_t id, int32_t px, int32_t py,
                               int k, int32_t goal, int32_t *steps, uint64_t *scanned)
{
    return k < 4 ? jps_jump_straight(J, ws, px, py, k, steps, scanned)
                 : jps_jump_diag(J, ws, id, px, py, k, goal, steps, scanned);
}

#define GB_CORE_JUMPS jps
#define GB_CORE_ALGO GB_ALGO_JPS
#include "gb_search_core.pmt"

#define GB_Q_X(T)                                                                 \
    static void jps_##T(gb_ws *ws, const gb_solver_spec *s, int32_t a, int32_t b,  \
                        gb_result *o)                                             \
    { gb_core(ws, s, a, b, o, GB_QT_##T, GB_H_OCTILE); }
GB_FOR_Q()
#undef GB_Q_X

#define GB_Q_X(T) jps_##T,
static const gb_search_fn jps_fn[GB_Q_COUNT] = { GB_FOR_Q() };
#undef GB_Q_X

/* ---- per-map state ------------------------------------------------------ */

static size_t jps_bytes(int32_t width, int32_t height, const gb_solver_spec *s)
{
    (void)s;
    const size_t rows = (size_t)height + 2, cols = (size_t)width + 2;
    const jps_state *J = NULL;   /* for sizeof only */
    return sizeof *J + rows * cols * sizeof *J->indir
         + (rows * (cols / 64 + 2) + cols * (rows / 64 + 2)) * sizeof *J->jrow;
}

static void jps_release(void *state)
{
    jps_state *J = state;
    if (!J) return;
    gb_free(J->indir);
    gb_free(J->jrow);
    gb_free(J->jcol);
    gb_free(J);
}

static int jps_prepare(gb_ws *ws, const gb_solver_spec *s, void **state)
{
    (void)s;
    const gb_grid *g = ws->grid;
    jps_state *J = gb_calloc(1, sizeof *J);
    if (!J) { errno = ENOMEM; return -1; }
    J->jrw = g->stride / 64 + 2;
    J->jcw = (g->height + 2) / 64 + 2;
    J->indir = gb_malloc((size_t)g->ncells);
    J->jrow = gb_malloc((size_t)(g->height + 2) * (size_t)J->jrw * sizeof *J->jrow);
    J->jcol = gb_malloc((size_t)g->stride * (size_t)J->jcw * sizeof *J->jcol);
    if (!J->indir || !J->jrow || !J->jcol) {
        jps_release(J);
        errno = ENOMEM;
        return -1;
    }
    jps_bits_fill(J, g);
    *state = J;
    return 0;
}

static const gb_form jps_forms[] = {
    { .pattern = "jps", .wg = 1.0, .heur = GB_H_OCTILE,
      .desc = "Jump Point Search (octile), model 8-nocut only; optimal" },
};
static const char *const jps_all[] = { "jps" };

const gb_family gb_family_jps = {
    .forms = jps_forms, .nforms = GB_COUNTOF(jps_forms),
    .all = jps_all, .nall = GB_COUNTOF(jps_all),
    .models = 1u << GB_MODEL_8_NOCUT,
    .dirs = 1,
    .bytes = jps_bytes, .prepare = jps_prepare, .release = jps_release,
    .fn = jps_fn, .fn_queues = GB_Q_COUNT, .fn_heurs = 1,
};
