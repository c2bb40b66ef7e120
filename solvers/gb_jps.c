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
 * a straight jump scans 56 cells per step (see jwin_fwd).  The goal's
 * padded coordinates are set per query (jps_begin): O(1), nothing per
 * query is O(map) (the search arrays are stamped, gb_search.h).
 *
 * Speed: every jump kind is compiled for its constant direction (jps_jump
 * switches once per jump, into the search loop); a diagonal walk tests
 * its two component scans per step, skips one whose first step is
 * blocked (moves[] of the cell), and tests the goal only on the goal's
 * row or column.  What is counted does not depend on any of this: the
 * jump points, steps and scanned cells are those of a cell-by-cell walk
 * (tests/test_jps.c pins them on the shared maps).
 *
 * Why it is optimal under no corner cutting: every pruned neighbour of a
 * node n is reached at most as cheaply by a path through n's parent that
 * avoids n (symmetric paths), so some optimal path runs through jump
 * points only, with straight or diagonal segments between them; A* with
 * the consistent octile heuristic over those segments returns its cost.
 *
 * Time complexity: as A*, times the cells a jump scans (each cell O(1)
 * times per direction per expansion that scans it, 56 at a time on a
 * straight line; a diagonal walk is one cell per step, with two straight
 * scans per cell).
 */
#include "gb_family.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "gb_jps.h"

typedef struct jps_state {
    uint8_t *indir;        /* direction each node was reached by (8: start) */
    uint64_t *jrow;        /* pass[] as bits, row by row (jrw words a row) */
    uint64_t *jcol;        /* pass[] as bits, column by column (jcw words a column) */
                           /* both one word into their block: jrow[-1] = jcol[-1] = 0 */
    int32_t jrw, jcw;      /* words per row / column: one spare zero word at the end */
    int32_t jgx, jgy;      /* padded column and row of the current goal */
} jps_state;

/* Straight jumps scan a line (a row, or a column) 56 cells at a time.
 * jrow holds row y's pass[] bits at jrow[y * jrw ...] (bit p of the line
 * = padded column p), jcol column x's at jcol[x * jcw ...] (bit p = padded
 * row p); both arrays start one zero word early and every line ends with
 * at least one spare zero word, so 8 bytes may be read at any byte from 7
 * before a line's first cell to its last cell.  Along a line R with
 * neighbour lines A and B, a cell p reached moving forward (p > from) is
 * a jump point when it is the goal or has a forced neighbour: A[p] &&
 * !A[p-1], or the same on B (the cell beside p is open while the one
 * beside p's predecessor is blocked: the no-corner-cutting rule of
 * gb_jps.h); moving backward the predecessor is p+1.  The scan stops at
 * the first blocked cell of R (the border is blocked, so every line has
 * one).  A candidate on the blocked cell itself does not count: it cannot
 * be entered.
 *
 * A scan reads windows: the 64 bits from a byte boundary, shifted so
 * that bit 0 is the cell q the window starts from (backward: bit 63),
 * which leaves the 56 cells after q (before q) with their predecessor in
 * the window; q starts at from and moves 56 cells per window.
 *
 * jwin_fwd: the first jump point p > from before the first blocked cell,
 * or -1; *moved = cells moved (p - from, or up to the cell before the
 * wall).  With G (a constant) the goal, at gp on this line, is a jump
 * point too; without, the scan has no goal test.  Always inlined:
 * every caller passes a constant direction, so each of the eight jump
 * kinds compiles to its own straight-line code. */
static inline uint64_t jps_load(const uint64_t *line, int32_t byte)
{
    uint64_t v;
    memcpy(&v, (const unsigned char *)line + byte, sizeof v);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);   /* cell 8 * byte at bit 0, as on little-endian */
#endif
    return v;
}

static inline GB_ALWAYS_INLINE int32_t jwin_fwd(const uint64_t *R, const uint64_t *A,
                                                const uint64_t *B, int32_t from, const int G,
                                                int32_t gp, int32_t *moved)
{
    const uint64_t live = 0x01fffffffffffffeull;   /* bits 1..56: cells q+1..q+56 */
    for (int32_t q = from;; q += 56) {
        const int32_t byte = q >> 3, sh = q & 7;
        const uint64_t a = jps_load(A, byte) >> sh, b = jps_load(B, byte) >> sh;
        const uint64_t r = jps_load(R, byte) >> sh;
        uint64_t cand = (a & ~(a << 1)) | (b & ~(b << 1));
        if (G && (uint32_t)(gp - q - 1) < 56u) cand |= 1ull << (gp - q);
        const uint64_t stop = (cand | ~r) & live;
        if (stop) {
            /* the nearest stop: a jump point if open, else the wall */
            const int i = __builtin_ctzll(stop);
            if ((r >> i) & 1) {
                *moved = q + i - from;
                return q + i;
            }
            *moved = q + i - 1 - from;
            return -1;
        }
    }
}

/* jwin_bwd: the same moving backward (p < from; predecessor p + 1). */
static inline GB_ALWAYS_INLINE int32_t jwin_bwd(const uint64_t *R, const uint64_t *A,
                                                const uint64_t *B, int32_t from, const int G,
                                                int32_t gp, int32_t *moved)
{
    const uint64_t live = 0x7fffffffffffff80ull;   /* bits 62..7: cells q-1..q-56 */
    for (int32_t q = from;; q -= 56) {
        const int32_t byte = (q >> 3) - 7, sh = 7 - (q & 7);
        const uint64_t a = jps_load(A, byte) << sh, b = jps_load(B, byte) << sh;
        const uint64_t r = jps_load(R, byte) << sh;
        uint64_t cand = (a & ~(a >> 1)) | (b & ~(b >> 1));
        if (G && (uint32_t)(q - gp - 1) < 56u) cand |= 1ull << (63 - (q - gp));
        const uint64_t stop = (cand | ~r) & live;
        if (stop) {
            const int i = 63 - __builtin_clzll(stop);   /* bit 63 - i: cell q - i */
            const int32_t p = q - (63 - i);
            if ((r >> i) & 1) {
                *moved = from - p;
                return p;
            }
            *moved = from - p - 1;
            return -1;
        }
    }
}

/* The scan of line (nw words a line, neighbours nw words before and
 * after) from position from, forward (fwd) or backward, with the goal at
 * gp on this line or -1: one copy of the window loop without the goal
 * test for the common case that the goal is elsewhere. */
static inline GB_ALWAYS_INLINE int32_t jps_line(const uint64_t *line, int32_t nw, int32_t from,
                                                const int fwd, int32_t gp, int32_t *moved)
{
    if (gp < 0)
        return fwd ? jwin_fwd(line, line - nw, line + nw, from, 0, 0, moved)
                   : jwin_bwd(line, line - nw, line + nw, from, 0, 0, moved);
    return fwd ? jwin_fwd(line, line - nw, line + nw, from, 1, gp, moved)
               : jwin_bwd(line, line - nw, line + nw, from, 1, gp, moved);
}

/* Straight scan from the cell at padded column px, row py in the
 * constant direction K (0..3): the position on its line of the first
 * cell that is the goal or has a forced neighbour, or -1 at a wall;
 * *moved = cells moved (see jwin_fwd). */
static inline GB_ALWAYS_INLINE int32_t jps_scan(const jps_state *J, int32_t px, int32_t py,
                                                const int K, int32_t *moved)
{
    const int horiz = K == GB_DIR_E || K == GB_DIR_W;
    const int32_t nw = horiz ? J->jrw : J->jcw;
    const uint64_t *line = horiz ? J->jrow + (size_t)py * (size_t)nw
                                 : J->jcol + (size_t)px * (size_t)nw;
    const int32_t from = horiz ? px : py;
    const int on_line = horiz ? J->jgy == py : J->jgx == px;
    const int32_t gp = horiz ? J->jgx : J->jgy;
    return jps_line(line, nw, from, K == GB_DIR_E || K == GB_DIR_S, on_line ? gp : -1, moved);
}

/* Straight jump from (px, py) in the constant direction K (0..3): the
 * cell found by jps_scan, or -1.  *steps = cells moved; *scanned += the
 * cells stepped over. */
static inline GB_ALWAYS_INLINE int32_t jps_jump_straight(const jps_state *J, const gb_ws *ws,
                                                         int32_t id, int32_t px, int32_t py,
                                                         const int K, int32_t *steps,
                                                         uint64_t *scanned)
{
    /* the first step blocked: nothing found, 0 cells (no line set up) */
    if (!(ws->moves[id] & (1u << K))) return -1;
    int32_t moved;
    const int32_t p = jps_scan(J, px, py, K, &moved);
    *scanned += (uint64_t)moved;
    if (p < 0) return -1;
    *steps = moved;
    return K == GB_DIR_E || K == GB_DIR_W ? py * ws->grid->stride + p
                                          : p * ws->grid->stride + px;
}

/* Diagonal jump from c = (px, py) in the constant direction K (4..7):
 * the first cell that is the goal or from which a straight jump along a
 * component finds a jump point, or -1.  *scanned grows as if each
 * component jump were jps_jump_straight's, plus the diagonal steps.
 *
 * The component scans are jps_scan's, written out with what the walk
 * knows: the lines move by one row and one column per step (pointers
 * kept, no multiply), the goal can lie on a component line only at the
 * one step where py (px) equals the goal's (else the scan runs without
 * the goal test), and a component whose first step is blocked (moves[]
 * of the cell) finds nothing after 0 cells, with no scan. */
static inline GB_ALWAYS_INLINE int32_t jps_jump_diag(const jps_state *J, const gb_ws *ws,
                                                     int32_t c, int32_t px, int32_t py,
                                                     const int K, int32_t goal, int32_t *steps,
                                                     uint64_t *scanned)
{
    const uint8_t *mv = ws->moves;
    unsigned m = mv[c];
    const unsigned bit = 1u << K;
    if (!(m & bit)) return -1;   /* the first step blocked: 0 cells */
    const int32_t stride = ws->grid->stride;
    const int dx = K == GB_DIR_NE || K == GB_DIR_SE ? 1 : -1;
    const int dy = K == GB_DIR_SE || K == GB_DIR_SW ? 1 : -1;
    const int kh = dx > 0 ? GB_DIR_E : GB_DIR_W;
    const int kv = dy > 0 ? GB_DIR_S : GB_DIR_N;
    const int32_t ok = dy * stride + dx;
    const unsigned bh = 1u << kh, bv = 1u << kv;
    const int32_t jrw = J->jrw, jcw = J->jcw, gx = J->jgx, gy = J->jgy;
    /* the row and the column of the cell the walk stands on */
    const uint64_t *hl = J->jrow + (size_t)py * (size_t)jrw;
    const uint64_t *vl = J->jcol + (size_t)px * (size_t)jcw;
    const ptrdiff_t hstep = dy * (ptrdiff_t)jrw, vstep = dx * (ptrdiff_t)jcw;
    uint64_t sc = 0;
    int32_t n = 0, moved;
    for (;;) {
        if (!(m & bit)) { *scanned += sc + (uint64_t)n; return -1; }
        c += ok;
        px += dx;
        py += dy;
        hl += hstep;
        vl += vstep;
        n++;
        m = mv[c];
        int hit = c == goal;
        if (!hit && (m & bh)) {
            hit = jps_line(hl, jrw, px, kh == GB_DIR_E, py == gy ? gx : -1, &moved) >= 0;
            sc += (uint64_t)moved;
        }
        if (!hit && (m & bv)) {
            hit = jps_line(vl, jcw, py, kv == GB_DIR_S, px == gx ? gy : -1, &moved) >= 0;
            sc += (uint64_t)moved;
        }
        if (hit) {
            *steps = n;
            *scanned += sc + (uint64_t)n;
            return c;
        }
    }
}

/* Fill the bit lines of the JPS jumps from pass[] (see jwin_fwd). */
static void jps_bits_fill(jps_state *J, const gb_grid *g)
{
    const int32_t rows = g->height + 2, cols = g->stride;
    memset(J->jrow - 1, 0, ((size_t)rows * (size_t)J->jrw + 1) * sizeof *J->jrow);
    memset(J->jcol - 1, 0, ((size_t)cols * (size_t)J->jcw + 1) * sizeof *J->jcol);
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

static inline GB_ALWAYS_INLINE int32_t jps_jump(jps_state *J, const gb_ws *ws, int32_t id,
                                                int32_t px, int32_t py, int k, int32_t goal,
                                                int32_t *steps, uint64_t *scanned)
{
    /* one specialised body per direction (all eight inlined here) */
    switch (k) {
    case GB_DIR_N: return jps_jump_straight(J, ws, id, px, py, GB_DIR_N, steps, scanned);
    case GB_DIR_E: return jps_jump_straight(J, ws, id, px, py, GB_DIR_E, steps, scanned);
    case GB_DIR_S: return jps_jump_straight(J, ws, id, px, py, GB_DIR_S, steps, scanned);
    case GB_DIR_W: return jps_jump_straight(J, ws, id, px, py, GB_DIR_W, steps, scanned);
    case GB_DIR_NE: return jps_jump_diag(J, ws, id, px, py, GB_DIR_NE, goal, steps, scanned);
    case GB_DIR_SE: return jps_jump_diag(J, ws, id, px, py, GB_DIR_SE, goal, steps, scanned);
    case GB_DIR_SW: return jps_jump_diag(J, ws, id, px, py, GB_DIR_SW, goal, steps, scanned);
    default: return jps_jump_diag(J, ws, id, px, py, GB_DIR_NW, goal, steps, scanned);
    }
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

/* the traced search (`gridbench trace`, gb_core_tr) */
static void jps_tr(gb_ws *ws, const gb_solver_spec *s, int32_t a, int32_t b, gb_result *o)
{
    gb_core_tr(ws, s, a, b, o, GB_H_OCTILE);
}
static const gb_search_fn jps_fn_tr[1] = { jps_tr };

/* ---- per-map state ------------------------------------------------------ */

static size_t jps_bytes(int32_t width, int32_t height, const gb_solver_spec *s)
{
    (void)s;
    const size_t rows = (size_t)height + 2, cols = (size_t)width + 2;
    const jps_state *J = NULL;   /* for sizeof only */
    return sizeof *J + rows * cols * sizeof *J->indir
         + (rows * (cols / 64 + 2) + cols * (rows / 64 + 2) + 2) * sizeof *J->jrow;
}

static void jps_release(void *state)
{
    jps_state *J = state;
    if (!J) return;
    gb_free(J->indir);
    if (J->jrow) gb_free(J->jrow - 1);
    if (J->jcol) gb_free(J->jcol - 1);
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
    uint64_t *r = gb_malloc(((size_t)(g->height + 2) * (size_t)J->jrw + 1) * sizeof *r);
    uint64_t *c = gb_malloc(((size_t)g->stride * (size_t)J->jcw + 1) * sizeof *c);
    J->jrow = r ? r + 1 : NULL;
    J->jcol = c ? c + 1 : NULL;
    if (!J->indir || !r || !c) {
        gb_free(r);
        gb_free(c);
        J->jrow = J->jcol = NULL;
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
    .forms = jps_forms,
    .nforms = GB_COUNTOF(jps_forms),
    .all = jps_all,
    .nall = GB_COUNTOF(jps_all),
    .models = 1u << GB_MODEL_8_NOCUT,
    .dirs = 1,
    .bytes = jps_bytes,
    .prepare = jps_prepare,
    .release = jps_release,
    .fn = jps_fn,
    .fn_queues = GB_Q_COUNT,
    .fn_heurs = 1,
    .fn_trace = jps_fn_tr,
};
