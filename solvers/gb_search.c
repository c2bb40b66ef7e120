/*
 * gb_search.c -- workspace, solver registry, and the compile-time
 * instantiation of the search cores for every queue and heuristic.
 *
 * Data structure: see gb_search.h (struct-of-arrays state reset by a
 * generation stamp).  The workspace owns two queues of each kind (index 0
 * forward, 1 backward for bidirectional search), created on demand by
 * gb_ws_prepare() so that no search allocates.
 *
 * Instantiation.  For each queue Q of GB_QUEUE_LIST this file includes
 * gb_search_core.pmt and gb_bidir.pmt with GB_PQ = Q, which define the
 * always-inline cores bf_core_Q / bd_core_Q.  X-macros over
 * GB_HEUR_LIST then emit one thin wrapper per (queue, heuristic) with the
 * heuristic as a compile-time constant, and fill the dispatch tables
 * bf_table / bd_table / jps_table.  gb_solve() makes exactly one indirect
 * call per query.
 */
#include "gb_search.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gb_alloc.h"
#include "gb_pq.h"
#include "gb_pq_bheap.h"
#include "gb_pq_bheap_dk.h"
#include "gb_pq_4heap.h"
#include "gb_pq_pairing.h"
#include "gb_pq_bucket.h"
#include "gb_pq_radix.h"
#ifdef GB_BOUND_QUEUES
#include "gb_pq_bound.h"
#endif

#define GB_CAT_(a, b) a##b
#define GB_CAT(a, b) GB_CAT_(a, b)
#define GB_CAT3(a, b, c) GB_CAT(GB_CAT(a, b), c)
#define GB_ALWAYS_INLINE __attribute__((always_inline))

/* Landmark tables kept per workspace (one per distinct k in use). */
#define GB_WS_MAX_LM 4

/* Generation counter limit: 2*gen + 1 must fit in uint32_t. */
#define GEN_MAX 0x7ffffffeu

struct gb_ws {
    const gb_grid *grid;   /* the map (not owned) */
    gb_model model;        /* movement model of moves[] */
    uint8_t *moves;        /* legal-move mask per cell id */
    uint32_t gen;          /* current query generation, >= 1 */
    uint32_t *stamp;       /* forward state per id (see gb_search.h) */
    double *g;             /* forward g per id */
    int32_t *parent;       /* forward parent id per id, -1 at the root */
    uint32_t *stamp2;      /* backward search state (bidirectional), or NULL */
    double *g2;
    int32_t *parent2;
    uint8_t *indir;        /* JPS: direction each node was reached by, or NULL */
    uint64_t *jrow;        /* JPS: pass[] as bits, row by row (jrw words a row), or NULL */
    uint64_t *jcol;        /* JPS: pass[] as bits, column by column (jcw words a column) */
    int32_t jrw, jcw;      /* words per row / column: one spare zero word at the end */
    int32_t jgx, jgy;      /* JPS: padded column and row of the current goal */
    int32_t *fifo;         /* BFS queue of ncells ids, or NULL */
    int32_t *path;         /* path buffer of ncells ids */
    gb_algo last_algo;     /* algorithm of the last search (visit state) */
    gb_landmarks lm[GB_WS_MAX_LM]; /* differential-heuristic tables, built on demand */
    int lm_req[GB_WS_MAX_LM];      /* k each was built for (0 = free slot) */
    const gb_landmarks *lm_cur;    /* the table of the current query's k */
#define GB_X(E, T, N, D) gb_##T q_##T[2]; uint8_t ready_##T[2];
    GB_QUEUE_LIST(GB_X)
#undef GB_X
};

/* ---- time limit ------------------------------------------------------- */
static int64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Deadline of a search with limit max_ns (0 = none: INT64_MAX). */
static int64_t deadline_of(const gb_solver_spec *s)
{
    return s->max_ns ? mono_ns() + (int64_t)s->max_ns : INT64_MAX;
}

/* Every GB_TIME_CHECK expansions: is the deadline past? */
static inline int over_time(uint64_t expanded, int64_t deadline)
{
    return deadline != INT64_MAX && (expanded % GB_TIME_CHECK) == 0 && mono_ns() > deadline;
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

double gb_heur_eval(gb_heur h, const gb_hctx *c, int32_t id, int32_t x, int32_t y)
{
    return gb_heur_inline((int)h, c, id, x, y);
}

/* ---- Jump Point Search successor generator (8-nocut) ------------------ */

/* The diagonal direction whose components are straight directions a, b. */
static inline int gb_diag_of(int a, int b)
{
    int dx = gb_dir_dx[a] + gb_dir_dx[b], dy = gb_dir_dy[a] + gb_dir_dy[b];
    for (int k = 4; k < 8; k++)
        if (gb_dir_dx[k] == dx && gb_dir_dy[k] == dy) return k;
    return -1;
}

/* Straight jumps scan a line (a row, or a column) 64 cells at a time.
 * jrow holds row y's pass[] bits at jrow[y * jrw ...] (bit p of the line
 * = padded column p), jcol column x's at jcol[x * jcw ...] (bit p = padded
 * row p).  Along a line R with neighbour lines A and B, a cell p reached
 * moving forward (p > from) is a jump point when it is the goal or has a
 * forced neighbour: A[p] && !A[p-1], or the same on B (the cell beside
 * p is open while the one beside p's predecessor is blocked: the
 * no-corner-cutting rule of gb_search_core.pmt); moving backward the
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
static inline int32_t jps_jump_straight(const gb_ws *ws, int32_t px, int32_t py, int k,
                                        int32_t *steps, uint64_t *scanned)
{
    const int32_t stride = ws->grid->stride;
    const int horiz = k == GB_DIR_E || k == GB_DIR_W;
    const int32_t nw = horiz ? ws->jrw : ws->jcw;
    const uint64_t *line = horiz ? ws->jrow + (size_t)py * (size_t)nw
                                 : ws->jcol + (size_t)px * (size_t)nw;
    const int32_t from = horiz ? px : py;
    const int32_t gp = horiz ? (ws->jgy == py ? ws->jgx : -1) : (ws->jgx == px ? ws->jgy : -1);
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
static inline int32_t jps_jump_diag(const gb_ws *ws, int32_t c, int32_t px, int32_t py, int k,
                                    int32_t goal, int32_t *steps, uint64_t *scanned)
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
        if (c == goal || jps_jump_straight(ws, px, py, kh, &dummy, scanned) >= 0
                      || jps_jump_straight(ws, px, py, kv, &dummy, scanned) >= 0) {
            *steps = n;
            *scanned += (uint64_t)n;
            return c;
        }
    }
}

/* Fill the bit lines of the JPS jumps from pass[] (see jbits_fwd). */
static void jps_bits_fill(gb_ws *ws)
{
    const gb_grid *g = ws->grid;
    const int32_t rows = g->height + 2, cols = g->stride;
    memset(ws->jrow, 0, (size_t)rows * (size_t)ws->jrw * sizeof *ws->jrow);
    memset(ws->jcol, 0, (size_t)cols * (size_t)ws->jcw * sizeof *ws->jcol);
    for (int32_t y = 0; y < rows; y++)
        for (int32_t x = 0; x < cols; x++)
            if (g->pass[y * cols + x]) {
                ws->jrow[(size_t)y * (size_t)ws->jrw + (size_t)(x >> 6)] |= 1ull << (x & 63);
                ws->jcol[(size_t)x * (size_t)ws->jcw + (size_t)(y >> 6)] |= 1ull << (y & 63);
            }
}

/* Directions to jump in from node id that was reached by direction din
 * (8 = the start node: all directions). */
static inline unsigned jps_dirs(const gb_ws *ws, int32_t id, int din)
{
    if (din == 8) return 0xffu;
    if (din >= 4) {
        int kh = gb_dir_dx[din] > 0 ? GB_DIR_E : GB_DIR_W;
        int kv = gb_dir_dy[din] > 0 ? GB_DIR_S : GB_DIR_N;
        return (1u << din) | (1u << kh) | (1u << kv);
    }
    const uint8_t *pass = ws->grid->pass;
    const int32_t *off = ws->grid->off;
    unsigned d = 1u << din;
    for (int side = 1; side <= 3; side += 2) {
        int kl = (din + side) & 3;
        if (!pass[id - off[din] + off[kl]] && pass[id + off[kl]])
            d |= (1u << kl) | (1u << gb_diag_of(din, kl));
    }
    return d;
}

/* ---- paths ------------------------------------------------------------ */

static void path_reverse(int32_t *p, int32_t n)
{
    for (int32_t i = 0, j = n - 1; i < j; i++, j--) {
        int32_t t = p[i]; p[i] = p[j]; p[j] = t;
    }
}

/* Walk parent[] from `from` back to the root into p (from first); with
 * indir (JPS) every jump is expanded into its cells.  Returns the number
 * of cells written, or -1 if the chain is longer than cap (a solver bug:
 * the caller reports an empty path, which the validator rejects). */
static int32_t path_walk(const gb_ws *ws, const int32_t *parent, const uint8_t *indir,
                         int32_t from, int32_t *p, int32_t cap)
{
    int32_t n = 0, cur = from;
    while (cur >= 0) {
        int32_t par = parent[cur];
        if (indir && par >= 0) {
            int32_t step = ws->grid->off[indir[cur]];
            for (int32_t c = cur; c != par; c -= step) {
                if (n >= cap) return -1;
                p[n++] = c;
            }
        } else {
            if (n >= cap) return -1;
            p[n++] = cur;
        }
        cur = par;
    }
    return n;
}

static void gb_path_build(gb_ws *ws, int32_t start, int32_t goal, int jps, gb_result *out)
{
    (void)start;
    int32_t n = path_walk(ws, ws->parent, jps ? ws->indir : NULL, goal, ws->path,
                          ws->grid->ncells);
    out->path = ws->path;
    if (n < 0) { out->path_len = 0; return; }
    path_reverse(ws->path, n);
    out->path_len = n;
}

static void gb_path_build_bidir(gb_ws *ws, int32_t meet, gb_result *out)
{
    int32_t cap = ws->grid->ncells;
    int32_t n = path_walk(ws, ws->parent, NULL, meet, ws->path, cap);
    out->path = ws->path;
    if (n < 0) { out->path_len = 0; return; }
    path_reverse(ws->path, n);
    /* backward chain from meet's backward parent to the goal */
    int32_t m = ws->parent2[meet] >= 0
        ? path_walk(ws, ws->parent2, NULL, ws->parent2[meet], ws->path + n, cap - n) : 0;
    if (m < 0) { out->path_len = 0; return; }
    out->path_len = n + m;
}

/* ---- instantiation ---------------------------------------------------- */

typedef void (*gb_search_fn)(gb_ws *, const gb_solver_spec *, int32_t, int32_t, gb_result *);

#define GB_PQ bheap
#include "gb_search_core.pmt"
#include "gb_bidir.pmt"
#undef GB_PQ
#define GB_PQ bheap_dk
#include "gb_search_core.pmt"
#include "gb_bidir.pmt"
#undef GB_PQ
#define GB_PQ 4heap
#include "gb_search_core.pmt"
#include "gb_bidir.pmt"
#undef GB_PQ
#define GB_PQ pairing
#include "gb_search_core.pmt"
#include "gb_bidir.pmt"
#undef GB_PQ
#define GB_PQ bucket
#include "gb_search_core.pmt"
#include "gb_bidir.pmt"
#undef GB_PQ
#define GB_PQ radix
#include "gb_search_core.pmt"
#include "gb_bidir.pmt"
#undef GB_PQ
#ifdef GB_BOUND_QUEUES
#define GB_PQ bound_fifo
#include "gb_search_core.pmt"
#include "gb_bidir.pmt"
#undef GB_PQ
#define GB_PQ bound_dial
#include "gb_search_core.pmt"
#include "gb_bidir.pmt"
#undef GB_PQ
#endif

/* One wrapper per (queue T, heuristic N) for each core. */
#define GB_WRAP_ONE(T, E, N)                                                        \
    static void bf_##T##_##N(gb_ws *ws, const gb_solver_spec *s, int32_t a,         \
                             int32_t b, gb_result *o)                               \
    { bf_core_##T(ws, s, a, b, o, GB_H_##E, 0); }                                   \
    static void bd_##T##_##N(gb_ws *ws, const gb_solver_spec *s, int32_t a,         \
                             int32_t b, gb_result *o)                               \
    { bd_core_##T(ws, s, a, b, o, GB_H_##E); }
#define GB_WRAP_Q(E, T, N, D)                                                       \
    static void jps_##T(gb_ws *ws, const gb_solver_spec *s, int32_t a, int32_t b,   \
                        gb_result *o)                                               \
    { bf_core_##T(ws, s, a, b, o, GB_H_OCTILE, 1); }
GB_QUEUE_LIST(GB_WRAP_Q)
#undef GB_WRAP_Q

#define GB_WRAP_H_bheap(E, N, A, C, D)    GB_WRAP_ONE(bheap, E, N)
#define GB_WRAP_H_bheap_dk(E, N, A, C, D) GB_WRAP_ONE(bheap_dk, E, N)
#define GB_WRAP_H_4heap(E, N, A, C, D)    GB_WRAP_ONE(4heap, E, N)
#define GB_WRAP_H_pairing(E, N, A, C, D)  GB_WRAP_ONE(pairing, E, N)
#define GB_WRAP_H_bucket(E, N, A, C, D)   GB_WRAP_ONE(bucket, E, N)
#define GB_WRAP_H_radix(E, N, A, C, D)    GB_WRAP_ONE(radix, E, N)
#define GB_WRAP_H_bound_fifo(E, N, A, C, D) GB_WRAP_ONE(bound_fifo, E, N)
#define GB_WRAP_H_bound_dial(E, N, A, C, D) GB_WRAP_ONE(bound_dial, E, N)
#define GB_WRAP_Q(E, T, N, D) GB_HEUR_LIST(GB_WRAP_H_##T) GB_WRAP_ONE(T, DIFF, diff)
GB_QUEUE_LIST(GB_WRAP_Q)
#undef GB_WRAP_Q

/* Dispatch tables [queue][heuristic]. */
#define GB_ROW_BF_bheap(E, N, A, C, D)    bf_bheap_##N,
#define GB_ROW_BF_bheap_dk(E, N, A, C, D) bf_bheap_dk_##N,
#define GB_ROW_BF_4heap(E, N, A, C, D)    bf_4heap_##N,
#define GB_ROW_BF_pairing(E, N, A, C, D)  bf_pairing_##N,
#define GB_ROW_BF_bucket(E, N, A, C, D)   bf_bucket_##N,
#define GB_ROW_BF_radix(E, N, A, C, D)    bf_radix_##N,
#define GB_ROW_BF_bound_fifo(E, N, A, C, D) bf_bound_fifo_##N,
#define GB_ROW_BF_bound_dial(E, N, A, C, D) bf_bound_dial_##N,
#define GB_ROW_BD_bheap(E, N, A, C, D)    bd_bheap_##N,
#define GB_ROW_BD_bheap_dk(E, N, A, C, D) bd_bheap_dk_##N,
#define GB_ROW_BD_4heap(E, N, A, C, D)    bd_4heap_##N,
#define GB_ROW_BD_pairing(E, N, A, C, D)  bd_pairing_##N,
#define GB_ROW_BD_bucket(E, N, A, C, D)   bd_bucket_##N,
#define GB_ROW_BD_radix(E, N, A, C, D)    bd_radix_##N,
#define GB_ROW_BD_bound_fifo(E, N, A, C, D) bd_bound_fifo_##N,
#define GB_ROW_BD_bound_dial(E, N, A, C, D) bd_bound_dial_##N,
#define GB_ROW_BF(E, T, N, D) { GB_HEUR_LIST(GB_ROW_BF_##T) bf_##T##_diff },
#define GB_ROW_BD(E, T, N, D) { GB_HEUR_LIST(GB_ROW_BD_##T) bd_##T##_diff },
#define GB_ROW_JPS(E, T, N, D) jps_##T,
static const gb_search_fn bf_table[GB_Q_COUNT][GB_H_COUNT] = { GB_QUEUE_LIST(GB_ROW_BF) };
static const gb_search_fn bd_table[GB_Q_COUNT][GB_H_COUNT] = { GB_QUEUE_LIST(GB_ROW_BD) };
static const gb_search_fn jps_table[GB_Q_COUNT] = { GB_QUEUE_LIST(GB_ROW_JPS) };

/* ---- breadth-first search --------------------------------------------- */

/* BFS over the legal moves: fewest steps, goal test on generation (exact
 * for unit costs).  g[] still accumulates the true step costs so the
 * reported cost is the cost of the returned path under the model. */
static void bfs_run(gb_ws *ws, const gb_solver_spec *s, int32_t start, int32_t goal,
                    gb_result *out)
{
    const uint32_t open = 2u * ws->gen, closed = open + 1u;
    const int32_t *off = ws->grid->off;
    uint32_t *stamp = ws->stamp;
    double *g = ws->g;
    int32_t *parent = ws->parent, *fifo = ws->fifo;
    int32_t head = 0, tail = 0;
    const int64_t deadline = deadline_of(s);
    gb_stats st;
    memset(&st, 0, sizeof st);
    gb_result_status status = GB_UNREACHABLE;

    stamp[start] = open;
    g[start] = 0.0;
    parent[start] = -1;
    fifo[tail++] = start;
    st.pushes = 1;
    if (start == goal) status = GB_FOUND;
    while (status == GB_UNREACHABLE && head < tail) {
        int32_t id = fifo[head++];
        st.pops++;
        stamp[id] = closed;
        st.expanded++;
        if ((s->max_expanded && st.expanded > s->max_expanded) || over_time(st.expanded, deadline)) {
            status = GB_LIMIT;
            break;
        }
        unsigned m = ws->moves[id];
        while (m) {
            int k = __builtin_ctz(m);
            m &= m - 1;
            int32_t nb = id + off[k];
            if (stamp[nb] >= open) continue;
            stamp[nb] = open;
            g[nb] = g[id] + gb_dir_cost[k];
            parent[nb] = id;
            fifo[tail++] = nb;
            st.pushes++;
            st.generated++;
            if (nb == goal) { status = GB_FOUND; break; }
        }
        if ((uint64_t)(tail - head) > st.peak_open) st.peak_open = (uint64_t)(tail - head);
    }
    out->st = st;
    out->status = status;
    if (status == GB_FOUND) {
        out->cost = g[goal];
        gb_path_build(ws, start, goal, 0, out);
    } else {
        out->cost = 0.0;
        out->path_len = 0;
        out->path = ws->path;
    }
}

/* ---- names ------------------------------------------------------------ */

static const char *const queue_names[GB_Q_COUNT] = {
#define GB_X(E, T, N, D) N,
    GB_QUEUE_LIST(GB_X)
#undef GB_X
};
static const char *const queue_descs[GB_Q_COUNT] = {
#define GB_X(E, T, N, D) D,
    GB_QUEUE_LIST(GB_X)
#undef GB_X
};
static const char *const heur_names[GB_H_COUNT] = {
#define GB_X(E, N, A, C, D) #N,
    GB_HEUR_LIST(GB_X)
#undef GB_X
    "diff",
};
static const char *const heur_descs[GB_H_COUNT] = {
#define GB_X(E, N, A, C, D) D,
    GB_HEUR_LIST(GB_X)
#undef GB_X
    "differential (landmarks, ALT): max |d(L,n) - d(L,goal)|; k landmarks",
};
static const unsigned heur_adm[GB_H_COUNT] = {
#define GB_X(E, N, A, C, D) A,
    GB_HEUR_LIST(GB_X)
#undef GB_X
    GB_HM_ALL,
};
static const unsigned heur_cons[GB_H_COUNT] = {
#define GB_X(E, N, A, C, D) C,
    GB_HEUR_LIST(GB_X)
#undef GB_X
    GB_HM_ALL,
};

const char *gb_queue_name(gb_queue_kind q) { return (unsigned)q < GB_Q_COUNT ? queue_names[q] : "?"; }
const char *gb_queue_desc(gb_queue_kind q) { return (unsigned)q < GB_Q_COUNT ? queue_descs[q] : "?"; }
const char *gb_heur_name(gb_heur h) { return (unsigned)h < GB_H_COUNT ? heur_names[h] : "?"; }
const char *gb_heur_desc(gb_heur h) { return (unsigned)h < GB_H_COUNT ? heur_descs[h] : "?"; }

int gb_queue_from_name(const char *name)
{
    for (int i = 0; i < GB_Q_COUNT; i++)
        if (strcmp(name, queue_names[i]) == 0) return i;
    return -1;
}

int gb_heur_from_name(const char *name)
{
    for (int i = 0; i < GB_H_COUNT; i++)
        if (strcmp(name, heur_names[i]) == 0) return i;
    return -1;
}

int gb_heur_admissible(gb_heur h, gb_model m)
{
    return (unsigned)h < GB_H_COUNT && (heur_adm[h] >> m & 1u);
}

int gb_heur_consistent(gb_heur h, gb_model m)
{
    return (unsigned)h < GB_H_COUNT && (heur_cons[h] >> m & 1u);
}

/* ---- solver specs ----------------------------------------------------- */

static const struct { const char *pattern, *desc; } solver_list[] = {
    { "dijkstra",       "best-first with h = 0 (the oracle); optimal" },
    { "astar-H",        "A* with heuristic H; optimal when H is consistent for the model" },
    { "wastar-H:w=W",   "weighted A*, f = g + W h (W >= 1); cost <= W x optimal for consistent H" },
    { "gbfs-H",         "greedy best-first, f = h; no guarantee" },
    { "bfs",            "breadth-first; optimal on model 4, fewest hops otherwise" },
    { "bidijkstra",     "bidirectional Dijkstra; optimal" },
    { "biastar-H",      "bidirectional A*, average potentials; optimal for consistent H" },
    { "jps",            "Jump Point Search (octile), model 8-nocut only; optimal" },
    { "astar-diff:k=K", "A* with the differential heuristic, K landmarks (default 8); any H takes diff" },
};

const char *gb_solver_list(int i, const char **desc)
{
    if (i < 0 || (size_t)i >= sizeof solver_list / sizeof solver_list[0]) return NULL;
    if (desc) *desc = solver_list[i].desc;
    return solver_list[i].pattern;
}

static int parse_heur(const char *h, gb_solver_spec *out, char *err, size_t errsz)
{
    char name[32];
    const char *colon = strchr(h, ':');
    size_t n = colon ? (size_t)(colon - h) : strlen(h);
    if (n >= sizeof name) n = sizeof name - 1;
    memcpy(name, h, n);
    name[n] = '\0';
    if (strcmp(name, "diff") == 0) {
        out->heur = GB_H_DIFF;
        out->k = GB_DIFF_DEFAULT_K;
        if (colon) {
            char *end;
            errno = 0;
            long k = strncmp(colon, ":k=", 3) == 0 ? strtol(colon + 3, &end, 10) : -1;
            if (k < 1 || k > GB_LANDMARKS_MAX || errno || *end) {
                snprintf(err, errsz, "heuristic '%s': expected diff:k=K with 1 <= K <= %d", h,
                         GB_LANDMARKS_MAX);
                return -1;
            }
            out->k = (int)k;
        }
        return 0;
    }
    if (colon) {
        snprintf(err, errsz, "heuristic '%s': only diff takes parameters (diff:k=K)", h);
        return -1;
    }
    int k = gb_heur_from_name(name);
    if (k < 0) {
        snprintf(err, errsz, "unknown heuristic '%s' (see `gridbench list`)", h);
        return -1;
    }
    out->heur = (gb_heur)k;
    return 0;
}

int gb_solver_parse(const char *name, gb_solver_spec *out, char *err, size_t errsz)
{
    memset(out, 0, sizeof *out);
    out->wg = 1.0;
    out->wh = 1.0;
    out->heur = GB_H_ZERO;
    char buf[64];
    if (strlen(name) >= sizeof buf) {
        snprintf(err, errsz, "solver name too long: '%.40s...'", name);
        return -1;
    }
    strcpy(buf, name);
    if (strcmp(buf, "dijkstra") == 0) {
        out->algo = GB_ALGO_BESTFIRST;
    } else if (strcmp(buf, "bfs") == 0) {
        out->algo = GB_ALGO_BFS;
    } else if (strcmp(buf, "bidijkstra") == 0) {
        out->algo = GB_ALGO_BIDIR;
    } else if (strcmp(buf, "jps") == 0) {
        out->algo = GB_ALGO_JPS;
        out->heur = GB_H_OCTILE;
    } else if (strncmp(buf, "astar-", 6) == 0) {
        out->algo = GB_ALGO_BESTFIRST;
        if (parse_heur(buf + 6, out, err, errsz)) return -1;
    } else if (strncmp(buf, "biastar-", 8) == 0) {
        out->algo = GB_ALGO_BIDIR;
        if (parse_heur(buf + 8, out, err, errsz)) return -1;
    } else if (strncmp(buf, "gbfs-", 5) == 0) {
        out->algo = GB_ALGO_BESTFIRST;
        out->wg = 0.0;
        if (parse_heur(buf + 5, out, err, errsz)) return -1;
    } else if (strncmp(buf, "wastar-", 7) == 0) {
        out->algo = GB_ALGO_BESTFIRST;
        char *colon = strstr(buf, ":w=");
        if (!colon) {
            snprintf(err, errsz, "solver '%s': expected wastar-H:w=W, found no ':w='", name);
            return -1;
        }
        *colon = '\0';
        char *end;
        errno = 0;
        double w = strtod(colon + 3, &end);
        if (errno || end == colon + 3 || *end || !(w >= 1.0) || !isfinite(w)) {
            snprintf(err, errsz, "solver '%s': expected a weight >= 1, found '%s'",
                     name, colon + 3);
            return -1;
        }
        out->wh = w;
        if (parse_heur(buf + 7, out, err, errsz)) return -1;
        if (out->heur == GB_H_DIFF)
            snprintf(out->name, sizeof out->name, "wastar-diff:k=%d:w=%g", out->k, w);
        else
            snprintf(out->name, sizeof out->name, "wastar-%s:w=%g", gb_heur_name(out->heur), w);
        return 0;
    } else {
        snprintf(err, errsz, "unknown solver '%s' (see `gridbench list`)", name);
        return -1;
    }
    if (out->heur == GB_H_DIFF) {
        /* canonical name carries k */
        char base[32];
        snprintf(base, sizeof base, "%.31s", name);
        char *c = strchr(base, ':');
        if (c) *c = '\0';
        snprintf(out->name, sizeof out->name, "%s:k=%d", base, out->k);
        return 0;
    }
    snprintf(out->name, sizeof out->name, "%s", name);
    return 0;
}

gb_guarantee gb_solver_guarantee(const gb_solver_spec *s, gb_model m, double *bound)
{
    gb_guarantee gu = GB_GUAR_NONE;
    double b = 0.0;
    int cons = gb_heur_consistent(s->heur, m);
    switch (s->algo) {
    case GB_ALGO_BESTFIRST:
        if (s->wg > 0.0 && cons) {
            if (s->wh == 1.0 || s->heur == GB_H_ZERO) { gu = GB_GUAR_OPTIMAL; b = 1.0; }
            else { gu = GB_GUAR_BOUNDED; b = s->wh; }
        }
        break;
    case GB_ALGO_BFS:
        if (m == GB_MODEL_4) { gu = GB_GUAR_OPTIMAL; b = 1.0; }
        break;
    case GB_ALGO_BIDIR:
        if (cons) { gu = GB_GUAR_OPTIMAL; b = 1.0; }
        break;
    case GB_ALGO_JPS:
        if (m == GB_MODEL_8_NOCUT) { gu = GB_GUAR_OPTIMAL; b = 1.0; }
        break;
    default:
        break;
    }
    if (bound) *bound = b;
    return gu;
}

const char *gb_guarantee_name(gb_guarantee g)
{
    static const char *const n[] = { "optimal", "bounded", "none" };
    return (unsigned)g < 3 ? n[g] : "?";
}

int gb_solver_unsupported(const gb_solver_spec *s, gb_model m, char *err, size_t errsz)
{
    if (s->algo == GB_ALGO_JPS && m != GB_MODEL_8_NOCUT) {
        snprintf(err, errsz, "solver 'jps' supports model 8-nocut only, not %s",
                 gb_model_name(m));
        return 1;
    }
    return 0;
}

/* ---- workspace -------------------------------------------------------- */

gb_ws *gb_ws_new(const gb_grid *g, gb_model m)
{
    gb_ws *ws = gb_calloc(1, sizeof *ws);
    if (!ws) return NULL;
    size_t n = (size_t)g->ncells;
    ws->grid = g;
    ws->model = m;
    ws->gen = 0;
    ws->moves = gb_malloc(n);
    ws->stamp = gb_calloc(n, sizeof *ws->stamp);
    ws->g = gb_malloc(n * sizeof *ws->g);
    ws->parent = gb_malloc(n * sizeof *ws->parent);
    ws->path = gb_malloc(n * sizeof *ws->path);
    if (!ws->moves || !ws->stamp || !ws->g || !ws->parent || !ws->path) {
        gb_ws_free(ws);
        errno = ENOMEM;
        return NULL;
    }
    gb_grid_moves(g, m, ws->moves);
    return ws;
}

void gb_ws_free(gb_ws *ws)
{
    if (!ws) return;
#define GB_X(E, T, N, D) \
    for (int d = 0; d < 2; d++) if (ws->ready_##T[d]) gb_##T##_free(&ws->q_##T[d]);
    GB_QUEUE_LIST(GB_X)
#undef GB_X
    gb_free(ws->moves);
    gb_free(ws->stamp);
    gb_free(ws->g);
    gb_free(ws->parent);
    gb_free(ws->stamp2);
    gb_free(ws->g2);
    gb_free(ws->parent2);
    gb_free(ws->indir);
    gb_free(ws->jrow);
    gb_free(ws->jcol);
    gb_free(ws->fifo);
    gb_free(ws->path);
    for (int i = 0; i < GB_WS_MAX_LM; i++) gb_landmarks_free(&ws->lm[i]);
    gb_free(ws);
}

size_t gb_ws_bytes_all(int32_t width, int32_t height, const gb_solver_spec *s,
                       const gb_queue_kind *q, int n)
{
    const gb_ws *ws = NULL;   /* for sizeof only */
    const int32_t ncells = (int32_t)(((int64_t)width + 2) * ((int64_t)height + 2));
    size_t nc = ncells > 0 ? (size_t)ncells : 0;
    size_t b = sizeof *ws + nc * (sizeof *ws->moves + sizeof *ws->stamp + sizeof *ws->g
                                  + sizeof *ws->parent + sizeof *ws->path);
    int bfs = 0, jps = 0, bidir = 0, nk = 0;
    int qdirs[GB_Q_COUNT] = { 0 };   /* directions prepared per queue kind */
    int ks[GB_WS_MAX_LM];            /* landmark counts held, distinct */
    for (int i = 0; i < n; i++) {
        int dirs = 1;
        switch (s[i].algo) {
        case GB_ALGO_BFS: bfs = 1; continue;
        case GB_ALGO_JPS: jps = 1; break;
        case GB_ALGO_BIDIR: bidir = 1; dirs = 2; break;
        default: break;
        }
        if ((unsigned)q[i] < GB_Q_COUNT && qdirs[q[i]] < dirs) qdirs[q[i]] = dirs;
        if (s[i].heur == GB_H_DIFF) {
            int seen = 0;
            for (int k = 0; k < nk; k++) seen |= ks[k] == s[i].k;
            if (!seen && nk < GB_WS_MAX_LM) ks[nk++] = s[i].k;
        }
    }
    if (bfs) b += nc * sizeof *ws->fifo;
    if (jps)   /* indir, and the bit lines (jrw, jcw as gb_ws_prepare sets them) */
        b += nc * sizeof *ws->indir
             + ((size_t)(height + 2) * (size_t)((width + 2) / 64 + 2)
                + (size_t)(width + 2) * (size_t)((height + 2) / 64 + 2)) * sizeof *ws->jrow;
    if (bidir) b += nc * (sizeof *ws->stamp2 + sizeof *ws->g2 + sizeof *ws->parent2);
    for (int k = 0; k < nk; k++) b += gb_landmarks_bytes(ncells, ks[k]);
    for (int k = 0; k < GB_Q_COUNT; k++) {
        if (!qdirs[k]) continue;
        size_t qb = 0;
        switch ((gb_queue_kind)k) {
#define GB_X(E, T, N, D) case GB_Q_##E: qb = gb_##T##_bytes(ncells); break;
        GB_QUEUE_LIST(GB_X)
#undef GB_X
        default: break;
        }
        b += (size_t)qdirs[k] * qb;
    }
    return b;
}

size_t gb_ws_bytes(int32_t width, int32_t height, const gb_solver_spec *s, gb_queue_kind q)
{
    return gb_ws_bytes_all(width, height, s, &q, 1);
}

const uint8_t *gb_ws_moves(const gb_ws *ws) { return ws->moves; }
gb_model gb_ws_model(const gb_ws *ws) { return ws->model; }
const gb_grid *gb_ws_grid(const gb_ws *ws) { return ws->grid; }

static int prepare_queue(gb_ws *ws, gb_queue_kind q, int dirs)
{
    for (int d = 0; d < dirs; d++) {
        switch (q) {
#define GB_X(E, T, N, D)                                                          \
        case GB_Q_##E:                                                            \
            if (!ws->ready_##T[d]) {                                              \
                if (gb_##T##_init(&ws->q_##T[d], ws->grid->ncells) != 0) return -1; \
                ws->ready_##T[d] = 1;                                             \
            }                                                                     \
            break;
        GB_QUEUE_LIST(GB_X)
#undef GB_X
        default:
            errno = EINVAL;
            return -1;
        }
    }
    return 0;
}

int gb_ws_prepare(gb_ws *ws, const gb_solver_spec *s, gb_queue_kind q)
{
    size_t n = (size_t)ws->grid->ncells;
    if (s->heur == GB_H_DIFF) {
        int slot = -1;
        for (int i = 0; i < GB_WS_MAX_LM && slot < 0; i++)
            if (ws->lm_req[i] == s->k) slot = i;
        if (slot < 0) {
            /* a free slot, else recycle the last one */
            slot = GB_WS_MAX_LM - 1;
            for (int i = GB_WS_MAX_LM - 1; i >= 0; i--)
                if (!ws->lm_req[i]) slot = i;
            gb_landmarks_free(&ws->lm[slot]);
            ws->lm_req[slot] = 0;
            if (gb_landmarks_build(&ws->lm[slot], ws->grid, ws->model, s->k) != 0) return -1;
            ws->lm_req[slot] = s->k;
        }
        ws->lm_cur = &ws->lm[slot];
    }
    switch (s->algo) {
    case GB_ALGO_BFS:
        if (!ws->fifo && !(ws->fifo = gb_malloc(n * sizeof *ws->fifo))) goto nomem;
        return 0;
    case GB_ALGO_JPS:
        if (!ws->indir && !(ws->indir = gb_malloc(n))) goto nomem;
        if (!ws->jrow) {
            const gb_grid *g = ws->grid;
            ws->jrw = g->stride / 64 + 2;
            ws->jcw = (g->height + 2) / 64 + 2;
            ws->jrow = gb_malloc((size_t)(g->height + 2) * (size_t)ws->jrw * sizeof *ws->jrow);
            ws->jcol = gb_malloc((size_t)g->stride * (size_t)ws->jcw * sizeof *ws->jcol);
            if (!ws->jrow || !ws->jcol) {
                gb_free(ws->jrow); gb_free(ws->jcol);
                ws->jrow = ws->jcol = NULL;
                goto nomem;
            }
            jps_bits_fill(ws);
        }
        return prepare_queue(ws, q, 1);
    case GB_ALGO_BIDIR:
        if (!ws->stamp2) {
            ws->stamp2 = gb_calloc(n, sizeof *ws->stamp2);
            ws->g2 = gb_malloc(n * sizeof *ws->g2);
            ws->parent2 = gb_malloc(n * sizeof *ws->parent2);
            if (!ws->stamp2 || !ws->g2 || !ws->parent2) {
                gb_free(ws->stamp2); gb_free(ws->g2); gb_free(ws->parent2);
                ws->stamp2 = NULL; ws->g2 = NULL; ws->parent2 = NULL;
                goto nomem;
            }
            /* stamp2 must not look "current": restart the generations */
            memset(ws->stamp, 0, n * sizeof *ws->stamp);
            ws->gen = 0;
        }
        return prepare_queue(ws, q, 2);
    case GB_ALGO_BESTFIRST:
        return prepare_queue(ws, q, 1);
    default:
        errno = EINVAL;
        return -1;
    }
nomem:
    errno = ENOMEM;
    return -1;
}

static void next_gen(gb_ws *ws)
{
    if (ws->gen >= GEN_MAX) {
        size_t n = (size_t)ws->grid->ncells;
        memset(ws->stamp, 0, n * sizeof *ws->stamp);
        if (ws->stamp2) memset(ws->stamp2, 0, n * sizeof *ws->stamp2);
        ws->gen = 0;
    }
    ws->gen++;
}

int gb_solve(gb_ws *ws, const gb_solver_spec *s, gb_queue_kind q,
             int32_t start, int32_t goal, gb_result *out)
{
    char err[128];
    if ((unsigned)q >= GB_Q_COUNT || (unsigned)s->heur >= GB_H_COUNT
        || gb_solver_unsupported(s, ws->model, err, sizeof err)) {
        errno = EINVAL;
        return -1;
    }
    if (gb_ws_prepare(ws, s, q) != 0) return -1;
    next_gen(ws);
    ws->last_algo = s->algo;
    switch (s->algo) {
    case GB_ALGO_BESTFIRST: bf_table[q][s->heur](ws, s, start, goal, out); break;
    case GB_ALGO_BIDIR:     bd_table[q][s->heur](ws, s, start, goal, out); break;
    case GB_ALGO_JPS:       jps_table[q](ws, s, start, goal, out); break;
    case GB_ALGO_BFS:       bfs_run(ws, s, start, goal, out); break;
    default: errno = EINVAL; return -1;
    }
    return 0;
}

int gb_ws_visit_state(const gb_ws *ws, int32_t id)
{
    const uint32_t open = 2u * ws->gen, closed = open + 1u;
    int st = 0;
    uint32_t a = ws->stamp[id];
    if (a == closed) st = 2; else if (a == open) st = 1;
    if (ws->last_algo == GB_ALGO_BIDIR && ws->stamp2) {
        uint32_t b = ws->stamp2[id];
        if (b == closed) st = 2; else if (b == open && st < 1) st = 1;
    }
    return st;
}

int gb_dijkstra_all(const gb_grid *g, gb_model m, int32_t src, double *dist)
{
    gb_ws *ws = gb_ws_new(g, m);
    if (!ws) return -1;
    gb_solver_spec s;
    char err[128];
    gb_solver_parse("dijkstra", &s, err, sizeof err);
    gb_result r;
    if (gb_solve(ws, &s, GB_Q_BHEAP, src, -1, &r) != 0) { gb_ws_free(ws); return -1; }
    const uint32_t closed = 2u * ws->gen + 1u;
    for (int32_t i = 0; i < g->ncells; i++)
        dist[i] = ws->stamp[i] == closed ? ws->g[i] : INFINITY;
    gb_ws_free(ws);
    return 0;
}

const gb_landmarks *gb_ws_landmarks(const gb_ws *ws)
{
    return ws->lm_cur;
}
