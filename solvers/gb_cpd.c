/*
 * gb_cpd.c -- the compressed path database family ("cpd"): for every
 * source cell, the first move of an optimal path to every target, one
 * Dijkstra per source, each row compressed by run-length over a
 * depth-first order of the cells (Botea 2011; the single-row compression
 * of Strasser, Botea & Harabor, "Compressing optimal paths with run length
 * encoding", JAIR 54, 2015).  Model 8-nocut only.  A query is a chain of
 * table look-ups: no search.
 *
 * Data (built per map in prepare, never inside gb_solve):
 *   rank[id]   position of passable cell id in the DFS preorder of the
 *              move graph (components one after the other, each a
 *              contiguous range of ranks); comp[id] its component;
 *   row[id]    offset into runs[] of source id's row: runs[row[id]] = n,
 *              then n runs, each (first rank << 3 | move), first ranks
 *              strictly increasing, the first one 0.  The move of target t
 *              is that of the last run whose first rank <= rank[t].  The
 *              rows lie in runs[] in the Z-order of their cells
 *              (cpd_layout), so a walk reads rows that lie close together.
 * Invariant: for every passable s != t of one component, the move m the
 *   row of s gives for t is the first step of a canonical optimal s-t
 *   path (m is in CF(s, t), below).  Entries of t = s and of t outside s's
 *   component are wildcards, never read: a query checks s == t and
 *   comp[s] != comp[t] first (unreachable: O(1), no look-up).
 *
 * Canonical paths.  succ(x, j) = gb_jps_dirs(x, j), the successors jump
 * point search keeps at x entered by move j: j itself, a diagonal j's two
 * components, and the forced moves of a straight j (none for a diagonal
 * under no corner cutting).  A path is canonical when each move after the
 * first is in succ of the cell it leaves and the move that entered it.
 * CF(s, t) = the first moves of the canonical optimal s-t paths; CF is a
 * subset of F(s, t), all optimal first moves.  CF(s, t) is not empty for
 * reachable t != s (the pruning lemma of jump point search: some optimal
 * path is canonical); the build checks this for every pair and refuses
 * the map (EPROTO) otherwise, so the invariant never rests on the lemma.
 *
 * Build.  Per source s, Dijkstra on exact keys (gb_exact.h; two FIFO
 * lanes, one per step cost: every key pushed is the last popped key + S
 * or + T, so each lane is sorted, as in gb_pq_lanes.h) computes, with
 * the distances, G(s, n, j) (one byte per j, 8 per cell): the first moves
 * of canonical optimal s-n paths whose last move is j.  G(s, s + off[k],
 * k) = {k} for a direct move; otherwise G(s, n, k) = the union of G(s, p,
 * j) over the j with k in succ(p, j), p = n - off[k], when p is an
 * optimal predecessor of n (g(p) + c(k) = g(n)), and empty when it is
 * not.  CF(s, n) = the union over j of G(s, n, j).  Exact keys make
 * "optimal predecessor" an integer equality, never a rounding accident.
 * G(s, p, .) is final when p is popped (its optimal predecessors have
 * smaller keys: costs are positive), so one pass suffices.  The row is
 * then made greedily in rank order: a run extends while the intersection
 * of its targets' sets CF stays non-empty, and takes a move from that
 * intersection; wildcards (t = s, other components: ranks outside s's
 * component range) join any run.  The
 * greedy cut gives the fewest runs any choice of one move per target can
 * give (the classic interval argument: the first run is as long as
 * possible, and so on by induction).  Sources are shared among threads
 * (one per online CPU, at most CPD_MAX_THREADS) that write rows into
 * buffers of their own; the main thread alone allocates (gb_alloc is not
 * thread-safe), between rounds.  The table's content does not depend on
 * the number of threads, only the order of rows inside runs[].
 *
 * Why following first moves is optimal.  Let d be the true distance and
 * m in CF(s, t) (so in F(s, t)), s' = s + off[m]: by definition some
 * optimal s-t path starts with the step s -> s', so d(s', t) = d(s, t) -
 * c(m).  The walk s = c0, c1, ... takes at each ci != t a move of F(ci,
 * t) from ci's own row, so d(c_{i+1}, t) = d(ci, t) - c(m_i) and c(m_i)
 * >= 1: the distance falls by at least 1 per step, so the walk reaches t
 * after at most d(s, t) steps, and its cost is the telescoping sum d(s,
 * t) - d(t, t) = d(s, t).  (Below, some steps are not read from a row;
 * each is still the next step of an optimal path from the cell it leaves,
 * which is all this argument uses.)  (A per-target table -- the first
 * move of every source toward t -- is the same argument with the roles of s and t kept: each step is
 * read from the current cell's entry for the fixed target t.)  The walk
 * is cut at npassable steps, which an optimal walk never reaches, so a
 * bug shows as an empty path, which the validator rejects.
 *
 * Steps without a look-up.  Let the row of c give m for t, and P a
 * canonical optimal c-t path that starts with m.  Call y = c + i off[m]
 * (i >= 1) a stop cell for m when: m is straight and entering y by m
 * gives y a forced neighbour; or m is diagonal and the ray from y along a
 * component h of m (the cells y + i off[h], i >= 1, each a legal step
 * from the one before) holds a cell with a forced neighbour for h; or y =
 * t; or m is diagonal and y shares t's row or column.  Lemma: if P's
 * first i moves are m and y = c + i off[m] is not a stop cell, P's next
 * move is m.  Proof: P's next move is in succ(y, m).  For a straight m
 * that is {m} (no forced neighbour).  For a diagonal m it is {m, h, v};
 * suppose P turns to the component h at y.  From then on P can only take
 * h (each cell of the ray entered by h has no forced neighbour, so succ
 * is {h}) until it ends at t; so t lies on the ray from y along h, in
 * y's row or column: y would be a stop cell.  So by induction P goes on
 * with m up to the first stop cell, and every cell of that stretch is on
 * P: each step is the next step of an optimal path, as above.  The walk
 * takes these steps without a look-up: go(c, m) (in clr, made by
 * cpd_clearance) is the distance to the first cell that is a stop cell
 * by the forced-neighbour conditions, or the last legal step; the
 * conditions on t are two subtractions.  Stopping early is always safe.
 *
 * Query.  s == t: the one-cell path.  comp differs: unreachable.  Else,
 * at each stop cell c of the walk (the start first): when a freespace
 * path from c to t is legal (all diagonal steps then all straight ones,
 * or the other way; two look-ups in the clearance table clr), it is the
 * rest of the path: it costs the octile distance, which no path beats,
 * and the prefix s..c is optimal by the argument above.  Else one search
 * of c's row for rank[t] gives the next move m, and the walk takes m up
 * to the next stop cell: the runs of neighbouring cells are much alike,
 * so the search starts at the previous look-up's run index (not scaled
 * to this row's length: a division per look-up cost more than the probes
 * it saved), gallops, then bisects.  The path is written cell by cell
 * (the validator checks every step) and its cost decoded from the exact
 * key of its step counts, bit for bit the cost `dijkstra` reports.
 * Counters: expanded = row look-ups, scanned = run entries they read;
 * nothing is pushed.  --max-expanded and --max-ms are ignored: a query
 * does at most npassable look-ups.
 *
 * Memory: 44 bytes per cell (rank, comp, row, clr with go) + 4 per run
 * + 4 per row, exact once built (state_bytes); bytes() is the lower bound without the
 * rows, from the dimensions.  Build time: npassable Dijkstras, each
 * O(component), plus one O(component) pass per row: O(n^2) on one
 * component of n cells.  Refusal (cpd_estimate): before a build on more
 * than CPD_ESTIMATE_FROM passable cells, or under a byte bound, the rows
 * of CPD_SAMPLE sources spread over the ranks are timed on one thread and
 * extrapolated (work per source = its component's size; time divided by
 * the threads); a map whose build would pass spec.max_prep_ns (default
 * CPD_BUDGET_NS) or whose table would pass spec.max_prep_bytes is refused
 * with EFBIG and the estimate in ws->prep_msg.
 *
 * Stored tables.  With a store (gb_ws_set_store; the harness's table
 * cache, gb_tcache.h) prepare first reads the table back: a 64-byte head
 * (magic, CPD_FILE_VERSION, byte order, the grid's size, passable count
 * and a hash of its passability, nruns), row[ncells], runs[nruns], and a
 * checksum (word-wise FNV-1a: any one changed word changes it) of all
 * three.  It is used only when the head matches this grid, the size is
 * exact, the checksum agrees and every row is well formed (inside runs,
 * first rank 0, ranks increasing and below npass, legal moves only); else
 * the store is told why, and the table is built and written anew.  rank,
 * comp and clr are not stored: they are recomputed from the grid
 * (O(cells)), so a read costs O(table).  A table is written after it was
 * built, whole or not at all (the store's commit).
 *
 * Time complexity: query O(L + J log R) for a path of L cells with J stop
 * cells, and rows of at most R runs.
 */
#include "gb_family.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gb_exact.h"
#include "gb_jps.h"

#define CPD_MAX_THREADS 64
#define CPD_BUDGET_NS (3600.0 * 1e9)   /* default build budget (spec.max_prep_ns = 0) */
#define CPD_SAMPLE 64                  /* sources timed for the estimate */
#define CPD_ESTIMATE_FROM 4096         /* passable cells from which it is made */
#define CPD_WILD 0xffu   /* a target whose move is any */

typedef struct gb_cpd {
    uint32_t *rank;     /* [ncells] DFS preorder rank of a passable cell */
    uint32_t *comp;     /* [ncells] component of a passable cell */
    uint32_t *row;      /* [ncells] offset of a passable cell's row in runs */
    uint32_t *runs;     /* rows: count, then (first rank << 3 | move) each */
    uint16_t *clr;      /* [16 * ncells] per cell: clr[16 id + k] legal steps in
                           a row from id in direction k; clr[16 id + 8 + k]
                           go(id, k), the steps a walk may take in direction k
                           without a look-up (below); both capped at
                           UINT16_MAX */
    size_t nruns;       /* entries of runs[] in use (counts included) */
    size_t bytes;       /* exact bytes held */
    int32_t npass;      /* passable cells */
    int nthreads;       /* threads the build used */
    int bad;            /* a target with no canonical first move was met */
    uint64_t rstride;   /* 2^40 / stride + 1: rows by a multiplication (cpd_xy) */
    double build_ns;    /* wall time of the build */
} gb_cpd;

/* ---- DFS order ------------------------------------------------------------- */

/* rank/comp of every passable cell, order[r] the cell of rank r, and the
 * rank range [cfirst[c], cfirst[c + 1]) of each component c; returns the
 * number of components.  stack and sk hold npass entries. */
static uint32_t cpd_order(const gb_grid *g, const uint8_t *moves, uint32_t *rank, uint32_t *comp,
                          int32_t *order, uint32_t *cfirst, int32_t *stack, uint8_t *sk)
{
    const int32_t nc = g->ncells;
    uint32_t r = 0, nco = 0;
    for (int32_t id = 0; id < nc; id++) rank[id] = UINT32_MAX;
    for (int32_t root = 0; root < nc; root++) {
        if (!g->pass[root] || rank[root] != UINT32_MAX) continue;
        cfirst[nco] = r;
        int32_t sp = 0;
        stack[sp] = root;
        sk[sp++] = 0;
        rank[root] = r;
        order[r++] = root;
        comp[root] = nco;
        while (sp > 0) {
            const int32_t id = stack[sp - 1];
            unsigned k = sk[sp - 1];
            while (k < 8 && (!(moves[id] >> k & 1u) || rank[id + g->off[k]] != UINT32_MAX)) k++;
            if (k == 8) { sp--; continue; }
            sk[sp - 1] = (uint8_t)(k + 1);
            const int32_t nb = id + g->off[k];
            rank[nb] = r;
            order[r++] = nb;
            comp[nb] = nco;
            stack[sp] = nb;
            sk[sp++] = 0;
        }
        nco++;
    }
    cfirst[nco] = r;
    for (int32_t id = 0; id < nc; id++)
        if (rank[id] == UINT32_MAX) rank[id] = comp[id] = 0;
    return nco;
}

/* ---- one source: Dijkstra with first-move sets, then its row ------------ */

typedef struct cpd_ent {
    uint64_t key;
    int32_t id;
} cpd_ent;

/* Per cell, one word: CPD_FREE (not reached: above every key; keys stay
 * below 2^62, at most 2^29 steps of key < 2^33), the key (open), or 0
 * (closed: below every relaxed key, which is >= S).  So one load and one
 * compare decide a relaxation. */
#define CPD_FREE ((uint64_t)1 << 62)

typedef struct cpd_worker {
    /* shared, read-only */
    const gb_grid *g;
    const uint8_t *moves;
    const uint32_t *comp, *cfirst;
    const int32_t *order;
    const uint8_t *allow;   /* [8 * ncells] allow[8 x + k]: the incoming directions
                               j with k in gb_jps_dirs(x, j) */
    int32_t *next;          /* the next source index (atomic) */
    int32_t nsrc;           /* sources: order[0..nsrc) */
    /* own scratch, allocated by the main thread */
    uint64_t *w;            /* [ncells] CPD_FREE, key, or 0 (closed) */
    uint64_t *fm;           /* [ncells] byte j: G(s, x, j), the canonical first
                               moves of optimal paths entering x by move j */
    cpd_ent *lane[2];       /* straight, diagonal: 4 npass + 1 each */
    uint32_t *out;          /* rows: source id, count, runs */
    size_t cap, used;
    size_t reserve;         /* the most one row can take (npass + 3) */
    int full;               /* stopped: out has less than reserve left */
    int bad;                /* a reachable target had no canonical first move */
} cpd_worker;

/* byte j of cpd_bytes8[m] is 0xff when bit j of m is set */
static uint64_t cpd_bytes8[256];
static pthread_once_t cpd_bytes8_once = PTHREAD_ONCE_INIT;

static void cpd_bytes8_init(void)
{
    for (unsigned m = 0; m < 256; m++) {
        uint64_t v = 0;
        for (unsigned j = 0; j < 8; j++)
            if (m >> j & 1u) v |= (uint64_t)0xff << (8 * j);
        cpd_bytes8[m] = v;
    }
}

/* The union of the eight bytes of v. */
static inline unsigned cpd_fold(uint64_t v)
{
    v |= v >> 32;
    v |= v >> 16;
    v |= v >> 8;
    return (unsigned)(v & 0xffu);
}

/* Dijkstra from s over its component: cpd_fold(w->fm[t]) = CF(s, t) for
 * every t != s of it.  The component's cells are reset to CPD_FREE first. */
static void cpd_dijkstra(cpd_worker *w, int32_t s)
{
    static const uint64_t kc[8] = { GB_EXACT_S, GB_EXACT_S, GB_EXACT_S, GB_EXACT_S,
                                    GB_EXACT_T, GB_EXACT_T, GB_EXACT_T, GB_EXACT_T };
    const int32_t *off = w->g->off;
    const uint8_t *moves = w->moves;
    uint64_t *W = w->w;
    uint64_t *fm = w->fm;
    const uint8_t *allow = w->allow;
    cpd_ent *L[2] = { w->lane[0], w->lane[1] };
    size_t head[2] = { 0, 0 }, tail[2] = { 0, 0 };
    {
        const uint32_t c = w->comp[s];
        for (uint32_t i = w->cfirst[c]; i < w->cfirst[c + 1]; i++) W[w->order[i]] = CPD_FREE;
    }
    W[s] = 0;
    for (unsigned mv = moves[s]; mv; mv &= mv - 1) {   /* s's own moves: F = {k} */
        const int k = __builtin_ctz(mv);
        const int32_t nb = s + off[k];
        W[nb] = kc[k];
        fm[nb] = (uint64_t)(1u << k) << (8 * k);
        L[k >> 2][tail[k >> 2]++] = (cpd_ent){ kc[k], nb };
    }
    for (;;) {
        int l;
        if (head[0] < tail[0])
            l = head[1] < tail[1] && L[1][head[1]].key < L[0][head[0]].key;
        else if (head[1] < tail[1])
            l = 1;
        else
            break;
        const cpd_ent e = L[l][head[l]++];
        if (W[e.id] != e.key) continue;   /* stale, or closed */
        W[e.id] = 0;
        const uint64_t f = fm[e.id];
        const uint8_t *al = allow + (size_t)e.id * 8;
        for (unsigned mv = moves[e.id]; mv; mv &= mv - 1) {
            const int k = __builtin_ctz(mv);
            const int32_t nb = e.id + off[k];
            const uint64_t v = W[nb], ng = e.key + kc[k];
            if (ng > v) continue;   /* closed (0), or no better */
            const uint64_t set = (uint64_t)cpd_fold(f & cpd_bytes8[al[k]]) << (8 * k);
            if (ng == v) { fm[nb] |= set; continue; }
            W[nb] = ng;
            fm[nb] = set;
            L[k >> 2][tail[k >> 2]++] = (cpd_ent){ ng, nb };
        }
    }
}

/* The move a run takes from its set of common optimal moves: a diagonal
 * when there is one (paths then go diagonal first, as the freespace test
 * of the query expects), else the lowest straight one. */
static inline uint32_t cpd_pick(unsigned set)
{
    return (uint32_t)__builtin_ctz(set & 0xf0u ? set & 0xf0u : set);
}

/* The row of source s (after cpd_dijkstra(s)) appended to w->out. */
static void cpd_row(cpd_worker *w, int32_t s)
{
    const uint32_t c = w->comp[s], a = w->cfirst[c], b = w->cfirst[c + 1];
    uint32_t *o = w->out + w->used;
    size_t n = 0;
    o[0] = (uint32_t)s;
    uint32_t *r = o + 2;
    unsigned cur = CPD_WILD;
    uint32_t start = 0;   /* the first run covers every rank before the component */
    for (uint32_t i = a; i < b; i++) {
        const int32_t t = w->order[i];
        unsigned set = CPD_WILD;
        if (t != s) {
            set = cpd_fold(w->fm[t]);
            if (!set) {   /* never, if the canonical-path lemma holds: refuse */
                w->bad = 1;
                set = CPD_WILD;
            }
        }
        if (cur & set) {
            cur &= set;
        } else {
            r[n++] = start << 3 | cpd_pick(cur);
            start = i;
            cur = set;
        }
    }
    r[n++] = start << 3 | cpd_pick(cur);
    o[1] = (uint32_t)n;
    w->used += n + 2;
}

static void *cpd_work(void *arg)
{
    cpd_worker *w = arg;
    while (w->cap - w->used >= w->reserve) {
        const int32_t i = __atomic_fetch_add(w->next, 1, __ATOMIC_RELAXED);
        if (i >= w->nsrc) return NULL;
        const int32_t s = w->order[i];
        cpd_dijkstra(w, s);
        cpd_row(w, s);
    }
    w->full = 1;
    return NULL;
}

/* ---- the build ------------------------------------------------------------- */

static void cpd_free(gb_cpd *C)
{
    if (!C) return;
    gb_free(C->clr);
    gb_free(C->rank);
    gb_free(C->comp);
    gb_free(C->row);
    gb_free(C->runs);
    gb_free(C);
}

static int cpd_threads(int32_t npass)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1) n = 1;
    if (n > CPD_MAX_THREADS) n = CPD_MAX_THREADS;
    if (npass < 1024) n = 1;   /* a small map: threads cost more than they save */
    return (int)n;
}

static void worker_free(cpd_worker *w)
{
    gb_free(w->w);
    gb_free(w->fm);
    gb_free(w->lane[0]);
    gb_free(w->lane[1]);
    gb_free(w->out);
}

/* Move the rows of w->out into C->runs (growing it); 0 or -1 (ENOMEM, or
 * more than UINT32_MAX entries). */
static int cpd_flush(gb_cpd *C, cpd_worker *w, size_t *cap)
{
    size_t i = 0;
    while (i < w->used) {
        const int32_t s = (int32_t)w->out[i];
        const size_t n = w->out[i + 1];
        if (C->nruns + n + 1 > *cap) {
            size_t nc = *cap ? *cap : 1024;
            while (nc < C->nruns + n + 1) nc *= 2;
            if (nc > UINT32_MAX) nc = UINT32_MAX;
            if (C->nruns + n + 1 > nc) { errno = EFBIG; return -1; }
            uint32_t *p = gb_realloc(C->runs, nc * sizeof *p);
            if (!p) return -1;
            C->runs = p;
            *cap = nc;
        }
        C->row[s] = (uint32_t)C->nruns;
        memcpy(C->runs + C->nruns, w->out + i + 1, (n + 1) * sizeof *C->runs);
        C->nruns += n + 1;
        i += n + 2;
    }
    w->used = 0;
    w->full = 0;
    return 0;
}

/* Before the build: time CPD_SAMPLE sources spread over the ranks on w
 * (one thread) and count their runs; refuse (EFBIG, the reason in msg)
 * when the whole build would pass the spec's budgets.  A source's work is
 * its component's size (Dijkstra and row pass), so the build's is the sum
 * of the squares of the component sizes; sources taken by rank fall in
 * components in proportion to their size. */
static int cpd_estimate(const gb_cpd *C, cpd_worker *w, const uint32_t *cfirst, uint32_t ncomp,
                        int nt, const gb_solver_spec *s, char *msg, size_t msz)
{
    const size_t np = (size_t)w->nsrc;
    double work = 0.0, swork = 0.0;
    for (uint32_t c = 0; c < ncomp; c++) {
        const double n = (double)(cfirst[c + 1] - cfirst[c]);
        work += n * n;
    }
    const int k = np < CPD_SAMPLE ? (int)np : CPD_SAMPLE;
    size_t runs = 0;
    const int64_t t0 = gb_mono_ns();
    for (int j = 0; j < k; j++) {
        const int32_t src = w->order[(size_t)j * np / (size_t)k];
        const uint32_t c = C->comp[src];
        swork += (double)(cfirst[c + 1] - cfirst[c]);
        cpd_dijkstra(w, src);
        w->used = 0;
        cpd_row(w, src);
        runs += w->out[1];
    }
    w->used = 0;
    const double ns = (double)(gb_mono_ns() - t0) * work / (swork > 0 ? swork : 1) / nt;
    const double nruns = (double)runs * (double)np / (k ? k : 1);
    const double bytes = (double)sizeof *C + 44.0 * (double)w->g->ncells
                       + 4.0 * (nruns + (double)np);
    const double tb = s->max_prep_ns ? (double)s->max_prep_ns : CPD_BUDGET_NS;
    if (ns <= tb && (!s->max_prep_bytes || bytes <= (double)s->max_prep_bytes)) return 0;
    char mem[64] = "";
    if (s->max_prep_bytes)
        snprintf(mem, sizeof mem, " and %.1f MiB", (double)s->max_prep_bytes / 1048576.0);
    snprintf(msg, msz, "expected a cpd build within %.0f s%s, found an estimate of %.0f s (%zu "
             "Dijkstras, %d threads) and %.1f MiB (%.1f runs/row)", tb / 1e9, mem, ns / 1e9, np,
             nt, bytes / 1048576.0, nruns / (double)(np ? np : 1));
    errno = EFBIG;
    return -1;
}

/* The bits of v spread to the even positions. */
static uint64_t cpd_spread(uint32_t v)
{
    uint64_t x = v;
    x = (x | x << 16) & 0x0000ffff0000ffffull;
    x = (x | x << 8) & 0x00ff00ff00ff00ffull;
    x = (x | x << 4) & 0x0f0f0f0f0f0f0f0full;
    x = (x | x << 2) & 0x3333333333333333ull;
    x = (x | x << 1) & 0x5555555555555555ull;
    return x;
}

static int cpd_cmp_u64(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Copy the rows into a runs[] of the exact size in the Z-order (Morton
 * order) of their cells, so that the rows a walk reads one step after the
 * other, those of neighbouring cells, mostly lie near each other (fewer
 * cache and TLB misses than the order the threads wrote them in).  0; 1
 * when the map has 65536 columns or rows or more (the layout stays as the
 * threads wrote it: just as correct); -1 when memory is short. */
static int cpd_layout(gb_cpd *C, const gb_grid *g)
{
    if (g->stride > 65536 || g->ncells / g->stride > 65536 || C->npass == 0) return 1;
    uint64_t *key = gb_malloc((size_t)C->npass * sizeof *key);
    uint32_t *runs = gb_malloc((C->nruns ? C->nruns : 1) * sizeof *runs);
    if (!key || !runs) {
        gb_free(key);
        gb_free(runs);
        return -1;
    }
    size_t n = 0;
    for (int32_t id = 0; id < g->ncells; id++)
        if (g->pass[id])
            key[n++] = (cpd_spread((uint32_t)(id % g->stride))
                        | cpd_spread((uint32_t)(id / g->stride)) << 1) << 32 | (uint32_t)id;
    qsort(key, n, sizeof *key, cpd_cmp_u64);
    size_t at = 0;
    for (size_t i = 0; i < n; i++) {
        const int32_t id = (int32_t)(key[i] & 0xffffffffu);
        const uint32_t *r = C->runs + C->row[id];
        memcpy(runs + at, r, ((size_t)r[0] + 1) * sizeof *runs);
        C->row[id] = (uint32_t)at;
        at += (size_t)r[0] + 1;
    }
    gb_free(key);
    gb_free(C->runs);
    C->runs = runs;
    return 0;
}

static int cpd_build(gb_cpd *C, const gb_grid *g, const uint8_t *moves, const gb_solver_spec *s,
                     char *msg, size_t msz)
{
    const size_t nc = (size_t)g->ncells, np = (size_t)g->npassable;
    int32_t *order = gb_malloc((np ? np : 1) * sizeof *order);
    int32_t *stack = gb_malloc((np ? np : 1) * sizeof *stack);
    uint8_t *sk = gb_malloc(np ? np : 1);
    uint32_t *cfirst = gb_malloc((np + 2) * sizeof *cfirst);
    uint8_t *allow = gb_calloc(nc ? nc : 1, 8);
    cpd_worker w[CPD_MAX_THREADS];
    memset(w, 0, sizeof w);
    int nt = cpd_threads(g->npassable), rc = -1;
    size_t cap = 0;
    if (!order || !stack || !sk || !cfirst || !allow) goto out;
    pthread_once(&cpd_bytes8_once, cpd_bytes8_init);
    for (int32_t x = 0; x < g->ncells; x++) {   /* the canonical successor rule */
        if (!g->pass[x]) continue;
        for (int j = 0; j < 8; j++)
            for (unsigned d = gb_jps_dirs(g, x, j); d; d &= d - 1)
                allow[(size_t)x * 8 + (size_t)__builtin_ctz(d)] |= (uint8_t)(1u << j);
    }
    const uint32_t ncomp = cpd_order(g, moves, C->rank, C->comp, order, cfirst, stack, sk);
    gb_free(stack);
    stack = NULL;
    gb_free(sk);
    sk = NULL;
    int32_t next = 0;
    for (int t = 0; t < nt; t++) {
        cpd_worker *x = &w[t];
        x->g = g;
        x->moves = moves;
        x->comp = C->comp;
        x->cfirst = cfirst;
        x->order = order;
        x->allow = allow;
        x->next = &next;
        x->nsrc = (int32_t)np;
        x->reserve = np + 3;
        x->cap = 4 * x->reserve > ((size_t)1 << 20) ? 4 * x->reserve : (size_t)1 << 20;
        x->w = gb_malloc(nc * sizeof *x->w);
        x->fm = gb_malloc(nc * sizeof *x->fm);
        x->out = gb_malloc(x->cap * sizeof *x->out);
        x->lane[0] = gb_malloc((4 * np + 1) * sizeof *x->lane[0]);
        x->lane[1] = gb_malloc((4 * np + 1) * sizeof *x->lane[1]);
        if (!x->w || !x->fm || !x->out || !x->lane[0] || !x->lane[1]) goto out;
    }
    C->nthreads = nt;
    if ((np > CPD_ESTIMATE_FROM || s->max_prep_bytes)
        && cpd_estimate(C, &w[0], cfirst, ncomp, nt, s, msg, msz) != 0)
        goto out;
    for (;;) {
        pthread_t th[CPD_MAX_THREADS];
        int started = 0;
        for (int t = 1; t < nt; t++) {
            if (pthread_create(&th[t], NULL, cpd_work, &w[t]) != 0) break;
            started = t;
        }
        cpd_work(&w[0]);
        for (int t = 1; t <= started; t++) pthread_join(th[t], NULL);
        int more = 0;
        for (int t = 0; t < nt; t++) {
            more |= w[t].full;   /* a thread not started wrote nothing */
            C->bad |= w[t].bad;
            if (cpd_flush(C, &w[t], &cap) != 0) goto out;
        }
        if (!more && next >= (int32_t)np) break;
    }
    const int lay = cpd_layout(C, g);
    if (lay < 0) goto out;
    if (lay > 0 && C->nruns < cap) {   /* not laid out: give back the slack */
        uint32_t *p = gb_realloc(C->runs, (C->nruns ? C->nruns : 1) * sizeof *p);
        if (p) C->runs = p;
    }
    rc = 0;
out:
    for (int t = 0; t < nt; t++) worker_free(&w[t]);
    gb_free(order);
    gb_free(stack);
    gb_free(sk);
    gb_free(cfirst);
    gb_free(allow);
    if (rc != 0 && errno != EFBIG) errno = ENOMEM;
    return rc;
}

/* The straight components of each diagonal direction (as bits). */
static const uint8_t cpd_comps[8] = { 0, 0, 0, 0, 0x03, 0x06, 0x0c, 0x09 };

/* Fill clr (16 entries per cell; 0 for blocked cells):
 *   clr[16 id + k] = how many legal steps in a row lead from id in
 *     direction k: 0 when move k is illegal, else 1 + that of id + off[k],
 *     which a sweep against off[k]'s sign has already set;
 *   clr[16 id + 8 + k] = go(id, k): 0 when move k is illegal; else, with
 *     y = id + off[k], 1 when y is a stop cell for k or move k is illegal
 *     from y, and 1 + go(y, k) otherwise.  y is a stop cell for a straight
 *     k when entering it by k gives it a forced neighbour (gb_jps_forced);
 *     for a diagonal k when the ray from y along either component of k
 *     holds a cell with a forced neighbour for that component (ray(y, h):
 *     the cells y + i off[h], i >= 1, each reached by a legal step).
 * Both capped at UINT16_MAX (a cap stops a walk early: a look-up more,
 * never a wrong step).  0, or -1 when memory is short. */
static int cpd_clearance(uint16_t *clr, const gb_grid *g, const uint8_t *moves)
{
    const int32_t nc = g->ncells;
    /* bit k: forced(id, k); bit 4 + k: ray(id, k) holds a forced cell */
    uint8_t *fj = gb_calloc(nc ? (size_t)nc : 1, 1);
    if (!fj) return -1;
    for (int32_t id = 0; id < nc; id++)
        if (g->pass[id])
            for (int k = 0; k < 4; k++)
                if (gb_jps_forced(g, id, k)) fj[id] |= (uint8_t)(1u << k);
    for (int k = 0; k < 4; k++) {
        const int32_t o = g->off[k];
        for (int32_t i = 0; i < nc; i++) {
            const int32_t id = o < 0 ? i : nc - 1 - i;
            if ((moves[id] >> k & 1u)
                && (((unsigned)fj[id + o] >> k & 1u) || ((unsigned)fj[id + o] >> (4 + k) & 1u)))
                fj[id] |= (uint8_t)(1u << (4 + k));
        }
    }
    for (int k = 0; k < 8; k++) {
        const int32_t o = g->off[k];
        for (int32_t i = 0; i < nc; i++) {
            const int32_t id = o < 0 ? i : nc - 1 - i;
            uint32_t v = 0, go = 0;
            if (moves[id] >> k & 1u) {
                const int32_t y = id + o;
                v = 1u + clr[(size_t)y * 16 + (size_t)k];
                if (v > UINT16_MAX) v = UINT16_MAX;
                const int stop =
                    k < 4 ? (int)((unsigned)fj[y] >> k & 1u) : (fj[y] >> 4 & cpd_comps[k]) != 0;
                go = stop || !(moves[y] >> k & 1u) ? 1u : 1u + clr[(size_t)y * 16 + 8 + (size_t)k];
                if (go > UINT16_MAX) go = UINT16_MAX;
            }
            clr[(size_t)id * 16 + (size_t)k] = (uint16_t)v;
            clr[(size_t)id * 16 + 8 + (size_t)k] = (uint16_t)go;
        }
    }
    gb_free(fj);
    return 0;
}

/* ---- query ----------------------------------------------------------------- */

/* The direct path from c (padded cx, cy) to t (tx, ty), when one of the
 * two freespace forms is legal: all diagonal steps first, then all
 * straight ones, or the other way round.  Both have h = kd sqrt2 + ks
 * (octile) steps, the least any path can cost, so a legal one is optimal.
 * Appends its cells after p[n - 1] (= c); returns the new length, or 0
 * when neither form is legal. */
static inline int32_t cpd_direct(const gb_cpd *C, const int32_t *off, int32_t c, int32_t cx,
                                 int32_t cy, int32_t tx, int32_t ty, int32_t *p, int32_t n,
                                 int64_t *diag)
{
    const int32_t dx = tx - cx, dy = ty - cy;
    const int32_t ax = dx < 0 ? -dx : dx, ay = dy < 0 ? -dy : dy;
    const int32_t kd = ax < ay ? ax : ay, ks = (ax < ay ? ay : ax) - kd;
    const int dd = dy < 0 ? (dx < 0 ? GB_DIR_NW : GB_DIR_NE) : (dx < 0 ? GB_DIR_SW : GB_DIR_SE);
    const int sd = ax > ay ? (dx < 0 ? GB_DIR_W : GB_DIR_E) : (dy < 0 ? GB_DIR_N : GB_DIR_S);
    const uint16_t *clr = C->clr;
    int first, second;
    int32_t k1, k2;
    if ((kd == 0 || clr[(size_t)c * 16 + (size_t)dd] >= kd)
        && (ks == 0 || clr[(size_t)(c + kd * off[dd]) * 16 + (size_t)sd] >= ks)) {
        first = dd; k1 = kd; second = sd; k2 = ks;
    } else if ((ks == 0 || clr[(size_t)c * 16 + (size_t)sd] >= ks)
               && (kd == 0 || clr[(size_t)(c + ks * off[sd]) * 16 + (size_t)dd] >= kd)) {
        first = sd; k1 = ks; second = dd; k2 = kd;
    } else {
        return 0;
    }
    for (int32_t i = 0; i < k1; i++) p[n++] = c += off[first];
    for (int32_t i = 0; i < k2; i++) p[n++] = c += off[second];
    *diag += kd;
    return n;
}

/* The padded column and row of cell id: a multiplication by the
 * reciprocal of the stride, corrected to the exact quotient (an integer
 * division costs more than the rest of a short query's set-up). */
static inline void cpd_xy(const gb_cpd *C, int32_t stride, int32_t id, int32_t *x, int32_t *y)
{
    int32_t q = (int32_t)(((uint64_t)(uint32_t)id * C->rstride) >> 40);
    if (q * stride > id) q--;
    else if ((q + 1) * stride <= id) q++;
    *y = q;
    *x = id - q * stride;
}

static void cpd_search(gb_ws *ws, const gb_solver_spec *s, int32_t start, int32_t goal,
                       gb_result *out)
{
    (void)s;
    const gb_cpd *C = ws->fam[GB_ALGO_CPD];
    const gb_grid *g = ws->grid;
    memset(out, 0, sizeof *out);
    out->status = GB_FOUND;
    out->path = ws->path;
    int32_t *p = ws->path;
    p[0] = start;
    if (start == goal) {
        out->path_len = 1;
        out->cost = 0.0;
        return;
    }
    if (C->comp[start] != C->comp[goal]) {
        out->status = GB_UNREACHABLE;
        out->cost = INFINITY;
        out->path_len = 0;
        return;
    }
    const int32_t stride = g->stride;
    int32_t cx, cy, tx, ty;
    cpd_xy(C, stride, start, &cx, &cy);
    cpd_xy(C, stride, goal, &tx, &ty);
    {   /* a freespace path from the start: no look-up at all */
        int64_t d0 = 0;
        const int32_t m = cpd_direct(C, g->off, start, cx, cy, tx, ty, p, 1, &d0);
        if (m) {
            out->path_len = m;
            out->cost = gb_exact_cost(gb_exact_key(m - 1 - d0, d0));
            return;
        }
    }
    const uint32_t key = C->rank[goal] << 3 | 7u;
    const uint32_t *runs = C->runs, *row = C->row;
    int32_t off[8];
    memcpy(off, g->off, sizeof off);
    int32_t n = 1, c = start, lim = C->npass;
    int64_t diag = 0;
    uint64_t probes = 0, lookups = 0;
    uint32_t pos = 0;   /* run index of the last look-up */
    while (c != goal) {
        if (n > lim) {   /* never on a correct table: the validator sees an empty path */
            gb_result_nopath(ws, out);
            out->cost = INFINITY;
            return;
        }
        const uint32_t *r = runs + row[c];
        const uint32_t len = *r++;
        /* the last run whose first rank <= rank[goal]: nearby cells have
         * similar rows, so start from the previous look-up's position and
         * gallop, then bisect */
        uint32_t lo, hi, h = pos < len ? pos : len - 1;
        probes++;
        if (r[h] <= key) {   /* r[lo] <= key < r[hi] (r[len] = infinity) */
            uint32_t step = 1;
            lo = h;
            while (lo + step < len && r[lo + step] <= key) { lo += step; step <<= 1; probes++; }
            hi = lo + step < len ? lo + step : len;
        } else {             /* r[0] = 0 <= key */
            uint32_t step = 1;
            hi = h;
            while (hi >= step && r[hi - step] > key) { hi -= step; step <<= 1; probes++; }
            lo = hi >= step ? hi - step : 0;
        }
        while (hi - lo > 1) {
            const uint32_t mid = lo + ((hi - lo) >> 1);
            if (r[mid] <= key) lo = mid; else hi = mid;
            probes++;
        }
        pos = lo;
        const unsigned k = r[lo] & 7u;
        lookups++;
        /* the canonical path of the table's move goes on in direction k
         * until a stop cell (go), the goal's row or column (a diagonal
         * k), or the goal (a straight k) */
        int32_t steps = C->clr[(size_t)c * 16 + 8 + k];
        const int32_t ix = (tx - cx) * gb_dir_dx[k], iy = (ty - cy) * gb_dir_dy[k];
        if (k >= 4) {
            if (ix > 0 && ix < steps) steps = ix;
            if (iy > 0 && iy < steps) steps = iy;
        } else if ((gb_dir_dx[k] ? ty == cy : tx == cx) && ix + iy > 0 && ix + iy < steps) {
            steps = ix + iy;
        }
        if (n + steps > lim) {   /* never on a correct table */
            gb_result_nopath(ws, out);
            out->cost = INFINITY;
            return;
        }
        diag += (int64_t)(k >> 2) * steps;
        for (int32_t i = 0; i < steps; i++) p[n++] = c += off[k];
        cx += gb_dir_dx[k] * steps;
        cy += gb_dir_dy[k] * steps;
        if (c != goal) {   /* is the rest a freespace path? */
            const int32_t m = cpd_direct(C, off, c, cx, cy, tx, ty, p, n, &diag);
            if (m) { n = m; break; }
        }
    }
    out->path_len = n;
    out->cost = gb_exact_cost(gb_exact_key(n - 1 - diag, diag));
    out->st.expanded = lookups;
    out->st.scanned = probes;
}

static const gb_search_fn cpd_fn[1] = { cpd_search };

/* ---- per-map state ------------------------------------------------------------ */

/* A lower bound from the dimensions: rank, comp, row per cell and a row
 * of one run (two entries) per cell. */
static size_t cpd_bytes(int32_t width, int32_t height, const gb_solver_spec *s)
{
    (void)s;
    const size_t nc = ((size_t)width + 2) * ((size_t)height + 2);
    return sizeof(gb_cpd) + nc * (3 * sizeof(uint32_t) + 16 * sizeof(uint16_t));
}

static size_t cpd_state_bytes(const void *state)
{
    const gb_cpd *C = state;
    return C->bytes;
}

static void cpd_release(void *state) { cpd_free(state); }

/* ---- the stored table (gb_store) ------------------------------------------ */

#define CPD_FILE_VERSION 1
#define CPD_STORE_NAME "cpd.8-nocut.v1"   /* the version is in the name too */

typedef struct cpd_head {
    char magic[8];          /* "gbcpd\n\0\0" */
    uint32_t version;       /* CPD_FILE_VERSION */
    uint32_t endian;        /* 0x01020304 in the writer's byte order */
    int32_t width, height;  /* the grid's */
    int32_t npass;          /* its passable cells */
    int32_t model;          /* GB_MODEL_8_NOCUT */
    uint64_t grid;          /* cpd_hash of the grid's passability */
    uint64_t nruns;         /* entries of runs[] */
    uint64_t zero[2];
} cpd_head;
_Static_assert(sizeof(cpd_head) == 64, "the head is 64 bytes");

/* FNV-1a over 32-bit words (each step a bijection of h: one changed word
 * always changes the result). */
static uint64_t cpd_hash(uint64_t h, const void *p, size_t nwords)
{
    const uint32_t *w = p;
    for (size_t i = 0; i < nwords; i++) h = (h ^ w[i]) * 0x100000001b3ull;
    return h;
}

#define CPD_HASH0 0xcbf29ce484222325ull

static uint64_t cpd_grid_hash(const gb_grid *g)
{
    uint64_t h = CPD_HASH0;
    uint32_t word = 0;
    for (int32_t id = 0; id < g->ncells; id++) {
        word = word << 1 | (g->pass[id] != 0);
        if ((id & 31) == 31 || id == g->ncells - 1) { h = cpd_hash(h, &word, 1); word = 0; }
    }
    return h;
}

static void cpd_head_of(cpd_head *hd, const gb_cpd *C, const gb_grid *g)
{
    memset(hd, 0, sizeof *hd);
    memcpy(hd->magic, "gbcpd\n\0\0", 8);
    hd->version = CPD_FILE_VERSION;
    hd->endian = 0x01020304u;
    hd->width = g->width;
    hd->height = g->height;
    hd->npass = g->npassable;
    hd->model = GB_MODEL_8_NOCUT;
    hd->grid = cpd_grid_hash(g);
    hd->nruns = C->nruns;
}

/* Write the built table to the store: the head, row[ncells], runs[nruns],
 * then the checksum of all three.  rank, comp and clr are not stored:
 * they follow from the grid in O(cells).  A failed write keeps nothing. */
static void cpd_save(const gb_cpd *C, const gb_grid *g, const gb_store *st)
{
    void *h = st->open_write(st->ctx, CPD_STORE_NAME);
    if (!h) return;
    cpd_head hd;
    cpd_head_of(&hd, C, g);
    uint64_t sum = cpd_hash(CPD_HASH0, &hd, sizeof hd / 4);
    sum = cpd_hash(sum, C->row, (size_t)g->ncells);
    sum = cpd_hash(sum, C->runs, C->nruns);
    const int ok = st->write(h, &hd, sizeof hd) == 0
                && st->write(h, C->row, (size_t)g->ncells * sizeof *C->row) == 0
                && st->write(h, C->runs, C->nruns * sizeof *C->runs) == 0
                && st->write(h, &sum, sizeof sum) == 0;
    st->close_write(h, ok);
}

/* Every row of a passable cell with moves lies inside runs[], starts at
 * rank 0, has strictly increasing first ranks below npass, and takes only
 * legal moves (so a walk always moves, and only through passable cells);
 * NULL, or what is wrong in why. */
static const char *cpd_check_rows(const gb_cpd *C, const gb_grid *g, const uint8_t *moves,
                                  char *why, size_t n)
{
    for (int32_t id = 0; id < g->ncells; id++) {
        if (!g->pass[id] || !moves[id]) continue;
        const uint64_t o = C->row[id];
        const uint64_t len = o < C->nruns ? C->runs[o] : 0;
        const char *bad = NULL;
        if (len == 0 || o + 1 + len > C->nruns) {
            bad = "a row outside the table";
        } else {
            const uint32_t *r = C->runs + o + 1;
            for (uint64_t i = 0; i < len && !bad; i++) {
                if (!(moves[id] >> (r[i] & 7u) & 1u)) bad = "an illegal move";
                else if (i == 0 ? r[0] >> 3 != 0 : r[i] >> 3 <= r[i - 1] >> 3) bad = "unsorted runs";
                else if (r[i] >> 3 >= (uint32_t)C->npass) bad = "a rank past the last cell";
            }
        }
        if (bad) {
            snprintf(why, n, "expected a valid row for cell (%d,%d), found %s", gb_grid_x(g, id),
                     gb_grid_y(g, id), bad);
            return why;
        }
    }
    return NULL;
}

/* Read the table from the store into C (row, runs, nruns): 0; 1 when
 * there is none or it was refused (the store is told why and drops it;
 * C is as before); -1 when memory is short. */
static int cpd_load(gb_cpd *C, const gb_grid *g, const uint8_t *moves, const gb_store *st)
{
    uint64_t size = 0;
    void *h = st->open_read(st->ctx, CPD_STORE_NAME, &size);
    if (!h) return 1;
    char why[200];
    const char *bad = NULL;
    cpd_head hd, want;
    cpd_head_of(&want, C, g);
    const uint64_t nc = (uint64_t)g->ncells;
    uint64_t sum = 0, got = 0;
    if (size < sizeof hd + 8 || st->read(h, &hd, sizeof hd) != 0) {
        snprintf(why, sizeof why, "expected a cpd table of at least %zu bytes, found %llu",
                 sizeof hd + 8, (unsigned long long)size);
        bad = why;
    } else if (memcmp(hd.magic, want.magic, 8) != 0 || hd.endian != want.endian
               || hd.version != want.version) {
        snprintf(why, sizeof why, "expected a cpd table of version %u in this byte order, found "
                 "another file", (unsigned)CPD_FILE_VERSION);
        bad = why;
    } else if (hd.width != want.width || hd.height != want.height || hd.npass != want.npass
               || hd.model != want.model || hd.grid != want.grid) {
        snprintf(why, sizeof why, "expected the cpd table of this map (%dx%d, %d passable cells), "
                 "found one of another (%dx%d, %d)", want.width, want.height, want.npass,
                 hd.width, hd.height, hd.npass);
        bad = why;
    } else if (hd.nruns > UINT32_MAX || hd.nruns < (uint64_t)C->npass
               || size != sizeof hd + 4 * nc + 4 * hd.nruns + 8) {
        snprintf(why, sizeof why, "expected %llu bytes for %llu runs, found %llu",
                 (unsigned long long)(sizeof hd + 4 * nc + 4 * hd.nruns + 8),
                 (unsigned long long)hd.nruns, (unsigned long long)size);
        bad = why;
    } else {
        uint32_t *runs = gb_malloc((hd.nruns ? hd.nruns : 1) * sizeof *runs);
        if (!runs) { st->close_read(h, NULL); return -1; }
        if (st->read(h, C->row, nc * sizeof *C->row) != 0
            || st->read(h, runs, hd.nruns * sizeof *runs) != 0 || st->read(h, &got, 8) != 0) {
            bad = "expected the whole cpd table, found a short read";
        } else {
            sum = cpd_hash(cpd_hash(cpd_hash(CPD_HASH0, &hd, sizeof hd / 4), C->row, nc), runs,
                           hd.nruns);
            if (sum != got) {
                snprintf(why, sizeof why, "expected checksum %016llx, found %016llx (a damaged "
                         "file)", (unsigned long long)sum, (unsigned long long)got);
                bad = why;
            }
        }
        C->runs = runs;
        C->nruns = hd.nruns;
        if (!bad) bad = cpd_check_rows(C, g, moves, why, sizeof why);
        if (bad) {
            gb_free(C->runs);
            C->runs = NULL;
            C->nruns = 0;
        }
    }
    st->close_read(h, bad);
    if (!bad) return 0;
    memset(C->row, 0, nc * sizeof *C->row);
    return 1;
}

/* rank and comp of a loaded table (the build makes them itself). */
static int cpd_ranks(gb_cpd *C, const gb_grid *g, const uint8_t *moves)
{
    const size_t np = (size_t)g->npassable;
    int32_t *order = gb_malloc((np ? np : 1) * sizeof *order);
    int32_t *stack = gb_malloc((np ? np : 1) * sizeof *stack);
    uint8_t *sk = gb_malloc(np ? np : 1);
    uint32_t *cfirst = gb_malloc((np + 2) * sizeof *cfirst);
    const int ok = order && stack && sk && cfirst;
    if (ok) cpd_order(g, moves, C->rank, C->comp, order, cfirst, stack, sk);
    gb_free(order);
    gb_free(stack);
    gb_free(sk);
    gb_free(cfirst);
    return ok ? 0 : -1;
}

static int cpd_prepare(gb_ws *ws, const gb_solver_spec *s, void **state)
{
    const gb_grid *g = ws->grid;
    const size_t nc = (size_t)g->ncells;
    if ((int64_t)g->ncells > GB_EXACT_MAX_CELLS) {   /* ranks << 3 and exact keys */
        snprintf(ws->prep_msg, sizeof ws->prep_msg, "expected a map of at most %lld cells for "
                 "cpd, found %d", (long long)GB_EXACT_MAX_CELLS, g->ncells);
        errno = EFBIG;
        return -1;
    }
    gb_cpd *C = gb_calloc(1, sizeof *C);
    if (!C) { errno = ENOMEM; return -1; }
    C->npass = g->npassable;
    C->rstride = ((uint64_t)1 << 40) / (uint64_t)g->stride + 1;
    C->rank = gb_malloc(nc * sizeof *C->rank);
    C->comp = gb_malloc(nc * sizeof *C->comp);
    C->row = gb_calloc(nc, sizeof *C->row);
    if (!C->rank || !C->comp || !C->row) {
        cpd_free(C);
        errno = ENOMEM;
        return -1;
    }
    int64_t t0 = gb_mono_ns();
    const int got = ws->store ? cpd_load(C, g, ws->moves, ws->store) : 1;
    if (got < 0 || (got == 0 && cpd_ranks(C, g, ws->moves) != 0)) {
        cpd_free(C);
        errno = ENOMEM;
        return -1;
    }
    if (got == 0 && s->max_prep_bytes
        && sizeof *C + nc * 44 + C->nruns * sizeof(uint32_t) > s->max_prep_bytes) {
        snprintf(ws->prep_msg, sizeof ws->prep_msg, "expected a cpd table within %.1f MiB, "
                 "found a stored one of %.1f MiB", (double)s->max_prep_bytes / 1048576.0,
                 (double)(sizeof *C + nc * 44 + C->nruns * sizeof(uint32_t)) / 1048576.0);
        cpd_free(C);
        errno = EFBIG;
        return -1;
    }
    if (got > 0 && cpd_build(C, g, ws->moves, s, ws->prep_msg, sizeof ws->prep_msg) != 0) {
        int e = errno;
        cpd_free(C);
        errno = e;
        return -1;
    }
    if (C->bad) {
        snprintf(ws->prep_msg, sizeof ws->prep_msg, "expected a canonical optimal first move "
                 "from every cell to every cell of its component, found a pair with none (a "
                 "bug of the pruning rule or of cpd)");
        cpd_free(C);
        errno = EPROTO;
        return -1;
    }
    C->clr = gb_malloc(16 * nc * sizeof *C->clr);
    if (!C->clr || cpd_clearance(C->clr, g, ws->moves) != 0) {
        cpd_free(C);
        errno = ENOMEM;
        return -1;
    }
    if (got > 0 && ws->store) cpd_save(C, g, ws->store);
    C->build_ns = (double)(gb_mono_ns() - t0);
    C->bytes = sizeof *C + nc * (3 * sizeof(uint32_t) + 16 * sizeof(uint16_t))
             + (C->nruns ? C->nruns : 1) * sizeof(uint32_t);
    *state = C;
    return 0;
}

static const gb_form cpd_forms[] = {
    { .pattern = "cpd", .wg = 1.0, .heur = GB_H_ZERO,
      .desc = "compressed path database: the first move of an optimal path from every cell "
              "to every cell, by one Dijkstra per cell, rows run-length compressed over a DFS "
              "order; a query is a chain of look-ups; O(n^2) build; model 8-nocut only; optimal" },
};

const gb_family gb_family_cpd = {
    .forms = cpd_forms, .nforms = GB_COUNTOF(cpd_forms),
    .all = NULL, .nall = 0,
    .models = 1u << GB_MODEL_8_NOCUT,
    .dirs = 0,
    .bytes = cpd_bytes, .prepare = cpd_prepare, .release = cpd_release,
    .fn = cpd_fn, .fn_queues = 1, .fn_heurs = 1,
    .queue_label = "none", .state_bytes = cpd_state_bytes,
};
