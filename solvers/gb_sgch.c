/*
 * gb_sgch.c -- sg-ch: a contraction hierarchy (Geisberger et al. 2008)
 * over the simple subgoal graph of gb_subgoal.c, as in Uras & Koenig's
 * "subgoal graphs + contraction hierarchies" (GPPC entry 2019-SGCH-JPD),
 * for 8-nocut; and the family `sg-ch` that registers it.
 *
 * Graph.  Nodes are the subgoals; u-v is an edge of the simple subgoal
 * graph, costing h(u,v) with D(u,v) legal (gb_subgoal.c, whose theorem
 * says: with s joined to the subgoals of its scan at h(s,v), g likewise,
 * and the direct D(s,g) / D(g,s) tested first, the graph distance is the
 * grid distance).  Costs are exact keys (gb_exact.h) added with
 * saturation, see "Keys" below.
 *
 * Contraction.  Nodes are taken in increasing priority, 2 x edge
 * difference (shortcuts needed - degree) + deleted neighbours + level
 * (1 + the highest level of a contracted neighbour), kept lazily: a
 * popped node's priority is recomputed and it is put back if it is no
 * longer the least.  Contracting v: for each pair u, w of its remaining
 * neighbours, a witness search (Dijkstra from u over the remaining graph
 * without v, dropping labels above the largest c(u,v) + c(v,w), stopping
 * after WITNESS_SETTLE settled nodes or once every target is settled)
 * looks for a u-w path of cost <= c(u,v) + c(v,w); if its label of w is
 * not that low, the shortcut u-w (via v, that cost) is added, or lowers an
 * existing u-w edge.  Then v leaves the graph with its edges, which are
 * its upward edges (every remaining neighbour is contracted later).
 * Invariant (C): between any two remaining nodes, the remaining graph has
 * the distance of the original graph.  It holds initially; contracting v
 * only removes paths through v, and a shortest one of them enters and
 * leaves v through neighbours u, w: a witness (a real path avoiding v, no
 * costlier) or the shortcut replaces that piece.  A witness search that
 * stops early or prunes only misses witnesses, which adds a redundant
 * shortcut (a real path's cost) and never breaks (C).  A pair whose turn
 * u -> v -> w a strictly shorter path replaces (the taut rule of
 * gb_subgoal.c, on the edges' first/last move masks) needs neither: then
 * d(u,w) < c(u,v) + c(v,w) (graph distances are grid distances), so no
 * shortest path has the piece u-v-w.
 * Claim (up-down paths).  Rank nodes by contraction order.  For any two
 * nodes a, b with a path, some shortest path a..b in the graph of all
 * edges and shortcuts goes up in rank, then down.  Proof: take a shortest
 * path with fewest edges; if it has an inner valley node v (lower than
 * both neighbours u, w), at v's contraction u, w and the piece u-v-w
 * existed (every edge of the union joins two nodes present until the
 * lower one is contracted), so by (C) and the witness rule the edge u-w
 * (or a witness path of no more cost, which by induction on contraction
 * order is again replaced by up-down pieces) covers it with fewer edges
 * or equal cost: the usual CH argument; the minimal path has no valley.
 *
 * Query.  If D(s,g) or D(g,s) is legal, it is the answer (octile is a
 * lower bound).  Else the forward search starts from the subgoals of s's
 * scan (labels h(s,v)) and the backward search from those of g's scan
 * (h(v,g)), both over upward edges only (one table: the graph is
 * undirected, so the upward edges of u serve both directions), each an
 * A* towards the other side's endpoint (key d + h(v, g) forward,
 * d + h(v, s) backward; h octile, consistent since every edge costs at
 * least the octile distance of its ends) with an indexed binary heap on
 * exact keys.  mu is the least d_f(x) + d_b(x) over nodes labelled by
 * both, updated when a label is set; the search stops once both least
 * keys are >= mu, and a label with d + h >= mu is not set (no path
 * through it beats mu).  Proof: by the theorem of gb_subgoal.c an optimal
 * s, v1 .. vk, g exists with v1..vk shortest in the graph, so by the
 * claim with an up-down middle peaking at some x.  Every node y of the
 * up part has d(s,y) + h(y,g) <= optimum; if mu were above the optimum,
 * the forward A* (consistent h: popped labels are exact along a shortest
 * path) would pop all of them, and the backward the down part, before
 * stopping, and x would give mu <= optimum; every mu is a real path's
 * cost.
 * Taut pruning: a node u popped with label path ending by a direction of
 * inm[u] skips the upward entries whose first move turns at u in a way a
 * strictly shorter path replaces (gb_sg_turn_prune): d(root, x) <
 * d(u) + c(u,x), so no shortest path from the root continues that way,
 * and the up part of the optimal path (popped with exact labels) is never
 * cut; the masks of every entry are realizable (an original edge: D(u,v)
 * and D(v,u) are legal; a shortcut: its halves' first and last moves).
 * The test depends only on the node and the in-direction, so the build
 * lists the survivors per (node, direction) (sel); a node popped with
 * one in-direction walks that list, one with several tests each entry.
 * Useless roots.  A root's label h(s,v) is exact (D(s,v) is legal), so
 * no relaxation ever lowers it.  A root whose list, after its one
 * in-direction, is empty (the alive mask) or holds only entries to
 * roots of its own side with labels no worse than through it is
 * labelled closed and never queued: popping it would relax nothing,
 * whenever it came.  So is a root whose key is >= mu once both scans
 * are seeded (mu only falls: it would never be popped).  On game and
 * street maps that leaves a third of the roots.  The same test keeps
 * any labelled node out of the heap (open, hpos -1) while its pop would
 * relax nothing: labels only fall and stamps only rise, so a pop that
 * would relax nothing when the label is set would relax nothing later
 * either, until the node's own label improves, when the test is made
 * again.  Leaving out pops that change no label leaves every label as
 * the A* above sets it, so its proof stands; such a node still meets the
 * other side (mu is taken when a label is set).  A relaxation that
 * cannot lower a label is dropped before its octile term is computed.
 * Refinement: the meeting node's two parent chains give the graph path;
 * each shortcut unpacks into its two halves, the upward entries
 * mid -> ends (h1, h2), with an explicit stack; an original edge a-b is
 * D(a,b), s-v1 is D(s,v1) (the scan walked it), vk-g is D(g,vk) reversed.
 * A shortcut a-b that costs h(a,b) with D(a,b) and D(b,a) both legal
 * (the build tests it, h1 = -2) is written as D at once: a legal path of
 * the same cost, so the same number of steps and the same answer.
 *
 * Keys.  The grid has at most GB_EXACT_MAX_CELLS cells (else the build
 * refuses), so an optimal path has fewer than 2^29 steps and its key is
 * at most T 2^29.  Labels and shortcut costs are sums that saturate at
 * UINT64_MAX; a walk of 2^31 steps or more has key >= S 2^31 > T 2^29
 * (or the saturated value), so out-of-domain sums are never below an
 * optimum and every comparison that decides the answer is exact.
 *
 * Data structure.  Node ids are the subgoal graph's (cell order, so a
 * scan's roots, near each other on the map, are near in memory too; the
 * contraction order only decides which edges are upward): upward edges
 * of u are entries up_off[u] .. up_off[u+1] of up_to, up_w (exact key),
 * and for a shortcut up_mid (else -1) with h1 / h2, the entries mid -> u
 * and mid -> up_to[e] in mid's list; sel_off / sel list, per node and
 * in-direction, the entries that survive the taut test.  Query state
 * (labels, parents, heap positions per direction) is allocated at build
 * time and reset by a generation stamp: stamp == 2gen labelled and open
 * (in the heap, or hpos -1 outside it), 2gen+1 closed.
 *
 * Time complexity.  Build: the subgoal graph (gb_subgoal.c), then per
 * evaluation of a node of degree k (about 4.5 per node: the lazy
 * updates) at most k - 1 witness searches of at most WITNESS_SETTLE
 * settled nodes; the dense core that late contractions leave makes
 * random maps costly (docs/results.md).  Query: two scans, both sides'
 * roots labelled and the useful ones heapified, two upward A* searches,
 * and O(path length) refinement; on game maps labelling the roots is
 * most of it.  Memory: the
 * subgoal graph, plus per node 49 bytes of node data and 112 of query
 * state, per upward entry 26 bytes and 4 per (entry, surviving
 * in-direction).
 */
#include "gb_sgch.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gb_alloc.h"
#include "gb_exact.h"
#include "gb_family.h"

#ifndef WITNESS_SETTLE
#define WITNESS_SETTLE 256   /* settled nodes per witness search */
#endif
/* priority = PRIO_ED * edge difference + PRIO_DEL * deleted neighbours
 * + PRIO_LEVEL * level; re-evaluating the neighbours after each
 * contraction (instead of lazily) made builds 6x slower on Berlin_0_256
 * for no fewer settled nodes per query */
#define PRIO_ED 2
#define PRIO_DEL 1
#define PRIO_LEVEL 1
#define KEY_INF UINT64_MAX
#define GEN_MAX 0x7ffffffeu  /* 2*gen + 1 must fit in uint32_t */

typedef struct ch_hent {
    uint64_t k;   /* key */
    int32_t id;   /* node */
} ch_hent;

struct gb_sgch {
    const gb_grid *grid;  /* the map (not owned) */
    gb_sg *sg;            /* the simple subgoal graph: scans (owned) */
    int32_t n;            /* nodes */
    int64_t edges;        /* undirected edges of the subgoal graph */
    int64_t shortcuts;    /* undirected shortcuts added */
    int64_t wsettled;     /* nodes settled by the build's witness searches */
    int32_t m;            /* upward entries */
    int32_t *cell;        /* n: cell id of each node */
    int32_t *xy;          /* 2n: x, y of each node */
    int32_t *up_off;      /* n + 1 */
    int32_t *up_to;       /* m: the upper end */
    uint64_t *up_w;       /* m: exact key of the cost */
    int32_t *up_mid;      /* m: the contracted node of a shortcut, -1 = an original edge */
    int32_t *up_h1;       /* m: shortcut: the entry mid -> lower end (the list owner);
                             -2: written as D (it costs h, D legal both ways) */
    int32_t *up_h2;       /* m: shortcut: the entry mid -> up_to */
    uint8_t *up_fm;       /* m: first move directions its paths may have (lower -> upper) */
    uint8_t *up_lm;       /* m: last move directions (arriving at the upper end) */
    uint8_t *alive;       /* n: bit k set when some upward entry of the node survives
                             the taut pruning after in-direction k */
    int32_t *sel_off;     /* 8n + 1: node r, in-direction k: sel[sel_off[8r + k] ..
                             sel_off[8r + k + 1]) */
    int32_t *sel;         /* the upward entries of r that survive the taut pruning
                             after in-direction k, in up-list order */
    /* query state, per direction d (0 forward, 1 backward), reset by gen */
    uint32_t gen;
    uint32_t *stamp[2];   /* n: 2gen labelled/open, 2gen+1 closed */
    uint64_t *d[2];       /* n: label */
    int32_t *par[2];      /* n: parent node, -1 = a root (joined to s or g) */
    int32_t *pe[2];       /* n: the entry par -> node */
    uint8_t *inm[2];      /* n: last move directions of the label's path (from its root) */
    int32_t *hpos[2];     /* n: heap index */
    ch_hent *heap[2];     /* n */
    int32_t hn[2];
    int32_t *list[2];     /* n + 1: the start's and the goal's scan (subgoal-graph ids) */
    uint8_t *ldir[2];     /* n + 1: the last move of D(s or g, list[d][i]) */
    int32_t *gp;          /* n: graph path (nodes) */
    int32_t *ge;          /* n: the entry between gp[i] and gp[i + 1] */
    int32_t *stack;       /* 3 (n + 2): unpacking stack */
    size_t bytes;         /* blocks held, this struct included (the sg's not) */
};

/* ---- helpers ------------------------------------------------------------ */

/* Reverse every direction of a mask (k <-> k ^ 2). */
static inline uint8_t mask_rev(uint8_t m)
{
    return (uint8_t)(((m & 0x33u) << 2) | ((m & 0xccu) >> 2));
}

static inline uint64_t sat_add(uint64_t a, uint64_t b)
{
    uint64_t r = a + b;
    return r < a ? KEY_INF : r;
}

static inline uint64_t oct_key_xy(int32_t ax, int32_t ay, int32_t bx, int32_t by)
{
    int32_t dx = ax > bx ? ax - bx : bx - ax, dy = ay > by ? ay - by : by - ay;
    int32_t lo = dx < dy ? dx : dy, hi = dx < dy ? dy : dx;
    return (uint64_t)hi * GB_EXACT_S + (uint64_t)lo * (GB_EXACT_T - GB_EXACT_S);   /* gb_exact_key(hi - lo, lo) */
}

static void *take(gb_sgch *h, size_t n, size_t size)
{
    void *p = gb_malloc((n ? n : 1) * size);
    if (p) h->bytes += (n ? n : 1) * size;
    return p;
}

/* The build's heaps order on k, ties to the smaller id; the query's
 * indexed binary heap (hup, hdown) on k alone (its operations are
 * deterministic all the same). */
static inline int hless(const ch_hent *a, const ch_hent *b)
{
    return a->k < b->k || (a->k == b->k && a->id < b->id);
}

static inline void hup(ch_hent *hp, int32_t *pos, int32_t i)
{
    ch_hent x = hp[i];
    while (i > 0) {
        int32_t p = (i - 1) / 2;
        if (x.k >= hp[p].k) break;
        hp[i] = hp[p];
        pos[hp[i].id] = i;
        i = p;
    }
    hp[i] = x;
    pos[x.id] = i;
}

static inline void hdown(ch_hent *hp, int32_t *pos, int32_t n, int32_t i)
{
    ch_hent x = hp[i];
    for (;;) {
        int32_t c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && hp[c + 1].k < hp[c].k) c++;
        if (hp[c].k >= x.k) break;
        hp[i] = hp[c];
        pos[hp[i].id] = i;
        i = c;
    }
    hp[i] = x;
    pos[x.id] = i;
}

/* ---- build: the working graph ------------------------------------------ */

typedef struct wedge {
    int32_t to, mid;   /* other end; the contracted node of a shortcut (-1: original) */
    uint64_t w;        /* exact key */
    uint8_t fm, lm;    /* first / last move directions (owner -> to) its paths may have */
} wedge;

typedef struct wlist {
    wedge *e;
    int32_t n, cap;
} wlist;

typedef struct wpend {
    int32_t u, w;      /* shortcut u-w */
    uint64_t c;
    uint8_t fm, lm;    /* move masks, u -> w */
} wpend;

typedef struct ch_tmp {
    wlist *adj;        /* n: remaining edges of each remaining node */
    uint8_t *done;     /* n: contracted */
    int32_t *del;      /* n: contracted neighbours */
    int64_t *prio;     /* n: current priority */
    int32_t *level;    /* n: 1 + the highest level of a contracted neighbour */
    uint32_t *wst;     /* n: witness stamps: 2wgen open, 2wgen+1 closed */
    uint64_t *wd;      /* n: witness labels */
    uint32_t wgen;
    uint32_t *tmark;   /* n: == tgen for the current targets */
    uint32_t tgen;
    ch_hent *wh;       /* witness heap (lazy, grows) */
    int64_t whn, whcap;
    ch_hent *ph;       /* priority heap (lazy; k = prio biased to unsigned) */
    int64_t phn, phcap;
    wpend *pend;       /* shortcuts the last evaluation found */
    int64_t npend, pendcap;
    int32_t *order;    /* n: node of each rank */
    int32_t *foff;     /* n + 1: upward entries of rank r: [foff[r], foff[r+1]) */
    wedge *fe;         /* recorded upward entries (original ids) */
    int64_t nfe, fecap;
} ch_tmp;

static int grow(void **p, int64_t *cap, int64_t want, size_t size)
{
    if (want <= *cap) return 0;
    int64_t nc = *cap ? *cap : 64;
    while (nc < want) nc *= 2;
    void *q = gb_realloc(*p, (size_t)nc * size);
    if (!q) return -1;
    *p = q;
    *cap = nc;
    return 0;
}

static int wl_push(wlist *l, int32_t to, int32_t mid, uint64_t w, uint8_t fm, uint8_t lm)
{
    if (l->n == l->cap) {
        int32_t nc = l->cap ? 2 * l->cap : 8;
        wedge *q = gb_realloc(l->e, (size_t)nc * sizeof *q);
        if (!q) return -1;
        l->e = q;
        l->cap = nc;
    }
    l->e[l->n++] = (wedge){ to, mid, w, fm, lm };
    return 0;
}

static int wh_push(ch_tmp *t, uint64_t k, int32_t id)
{
    if (grow((void **)&t->wh, &t->whcap, t->whn + 1, sizeof *t->wh) != 0) return -1;
    int64_t i = t->whn++;
    ch_hent x = { k, id };
    while (i > 0) {
        int64_t p = (i - 1) / 2;
        if (!hless(&x, &t->wh[p])) break;
        t->wh[i] = t->wh[p];
        i = p;
    }
    t->wh[i] = x;
    return 0;
}

static ch_hent lheap_pop(ch_hent *hp, int64_t *n)
{
    ch_hent top = hp[0], x = hp[--*n];
    int64_t i = 0, m = *n;
    for (;;) {
        int64_t c = 2 * i + 1;
        if (c >= m) break;
        if (c + 1 < m && hless(&hp[c + 1], &hp[c])) c++;
        if (!hless(&hp[c], &x)) break;
        hp[i] = hp[c];
        i = c;
    }
    if (m > 0) hp[i] = x;
    return top;
}

/* Witness search from src avoiding v, over the remaining graph: labels
 * above bound are dropped; stops after WITNESS_SETTLE settles or when
 * ntg targets (tmark == tgen) are settled.  Labels in wd/wst (wgen).
 * 0, or -1 (ENOMEM). */
static int witness(gb_sgch *h, ch_tmp *t, int32_t src, int32_t v, uint64_t bound, int32_t ntg)
{
    if (++t->wgen > GEN_MAX) {
        memset(t->wst, 0, (size_t)h->n * sizeof *t->wst);
        t->wgen = 1;
    }
    const uint32_t open = 2 * t->wgen, closed = open + 1;
    t->whn = 0;
    t->wst[src] = open;
    t->wd[src] = 0;
    if (wh_push(t, 0, src) != 0) return -1;
    int32_t settled = 0;
    while (t->whn > 0) {
        ch_hent x = lheap_pop(t->wh, &t->whn);
        int32_t u = x.id;
        if (t->wst[u] == closed || x.k != t->wd[u]) continue;
        t->wst[u] = closed;
        if (x.k > bound || ++settled > WITNESS_SETTLE) break;
        h->wsettled++;
        if (t->tmark[u] == t->tgen && --ntg == 0) break;
        const wlist *l = &t->adj[u];
        for (int32_t i = 0; i < l->n; i++) {
            int32_t y = l->e[i].to;
            if (y == v) continue;
            uint64_t nd = sat_add(x.k, l->e[i].w);
            if (nd > bound) continue;
            if (t->wst[y] < open || (t->wst[y] == open && nd < t->wd[y])) {
                t->wst[y] = open;
                t->wd[y] = nd;
                if (wh_push(t, nd, y) != 0) return -1;
            }
        }
    }
    return 0;
}

/* The shortcuts contracting v needs now, into t->pend; returns the
 * priority (edge difference + deleted neighbours), or INT64_MIN on ENOMEM. */
static int64_t evaluate(gb_sgch *h, ch_tmp *t, int32_t v)
{
    const wlist *l = &t->adj[v];
    const int32_t cv = gb_sg_cell(h->sg, v);
    t->npend = 0;
    for (int32_t i = 0; i + 1 < l->n; i++) {
        int32_t u = l->e[i].to;
        uint64_t cu = l->e[i].w, bound = 0;
        /* turns u -> v -> w that a strictly shorter path replaces need nothing */
        const uint8_t pm = gb_sg_turn_prune(h->sg, cv, mask_rev(l->e[i].fm));
        int32_t ntg = 0;
        t->tgen++;
        for (int32_t j = i + 1; j < l->n; j++) {
            if (l->e[j].fm & pm) continue;
            uint64_t c = sat_add(cu, l->e[j].w);
            if (c > bound) bound = c;
            t->tmark[l->e[j].to] = t->tgen;
            ntg++;
        }
        if (ntg == 0) continue;
        if (witness(h, t, u, v, bound, ntg) != 0) return INT64_MIN;
        const uint32_t open = 2 * t->wgen;
        for (int32_t j = i + 1; j < l->n; j++) {
            int32_t w = l->e[j].to;
            if (t->tmark[w] != t->tgen) continue;
            uint64_t c = sat_add(cu, l->e[j].w);
            if (t->wst[w] >= open && t->wd[w] <= c) continue;   /* a witness */
            if (grow((void **)&t->pend, &t->pendcap, t->npend + 1, sizeof *t->pend) != 0)
                return INT64_MIN;
            t->pend[t->npend++] = (wpend){ u, w, c, mask_rev(l->e[i].lm), l->e[j].lm };
        }
    }
    return PRIO_ED * (t->npend - l->n) + PRIO_DEL * t->del[v] + PRIO_LEVEL * t->level[v];
}

static void wl_remove(wlist *l, int32_t to)
{
    for (int32_t i = 0; i < l->n; i++)
        if (l->e[i].to == to) {
            l->e[i] = l->e[--l->n];
            return;
        }
}

/* Add shortcut u-w via v at cost c, or lower an existing u-w edge. */
static int add_shortcut(gb_sgch *h, ch_tmp *t, const wpend *p, int32_t v)
{
    const int32_t u = p->u, w = p->w;
    const uint64_t c = p->c;
    wlist *lu = &t->adj[u];
    for (int32_t i = 0; i < lu->n; i++)
        if (lu->e[i].to == w) {
            if (c < lu->e[i].w) {
                lu->e[i] = (wedge){ w, v, c, p->fm, p->lm };
                wlist *lw = &t->adj[w];
                for (int32_t j = 0; j < lw->n; j++)
                    if (lw->e[j].to == u) {
                        lw->e[j] = (wedge){ u, v, c, mask_rev(p->lm), mask_rev(p->fm) };
                        break;
                    }
            }
            return 0;
        }
    if (wl_push(lu, w, v, c, p->fm, p->lm) != 0
        || wl_push(&t->adj[w], u, v, c, mask_rev(p->lm), mask_rev(p->fm)) != 0)
        return -1;
    h->shortcuts++;
    return 0;
}

static int ph_push(ch_tmp *t, int64_t prio, int32_t id)
{
    if (grow((void **)&t->ph, &t->phcap, t->phn + 1, sizeof *t->ph) != 0) return -1;
    int64_t i = t->phn++;
    ch_hent x = { (uint64_t)prio ^ ((uint64_t)1 << 63), id };
    while (i > 0) {
        int64_t p = (i - 1) / 2;
        if (!hless(&x, &t->ph[p])) break;
        t->ph[i] = t->ph[p];
        i = p;
    }
    t->ph[i] = x;
    return 0;
}

/* Contract every node; records the order and the upward entries. */
static int contract_all(gb_sgch *h, ch_tmp *t)
{
    const int32_t n = h->n;
    for (int32_t v = 0; v < n; v++) {
        int64_t p = evaluate(h, t, v);
        if (p == INT64_MIN || ph_push(t, p, v) != 0) return -1;
        t->prio[v] = p;
    }
    int32_t r = 0;
    while (t->phn > 0) {
        ch_hent x = lheap_pop(t->ph, &t->phn);
        int32_t v = x.id;
        if (t->done[v] || (int64_t)(x.k ^ ((uint64_t)1 << 63)) != t->prio[v]) continue;
        int64_t p = evaluate(h, t, v);
        if (p == INT64_MIN) return -1;
        /* lazy update: still the least? (ties go to the recomputed one) */
        while (t->phn > 0) {   /* drop stale tops first */
            int32_t y = t->ph[0].id;
            if (!t->done[y] && (int64_t)(t->ph[0].k ^ ((uint64_t)1 << 63)) == t->prio[y]) break;
            lheap_pop(t->ph, &t->phn);
        }
        if (t->phn > 0 && p > (int64_t)(t->ph[0].k ^ ((uint64_t)1 << 63))) {
            t->prio[v] = p;
            if (ph_push(t, p, v) != 0) return -1;
            continue;
        }
        /* contract v: record its upward entries, leave the graph, add shortcuts */
        wlist *l = &t->adj[v];
        if (grow((void **)&t->fe, &t->fecap, t->nfe + l->n, sizeof *t->fe) != 0) return -1;
        t->foff[r] = (int32_t)t->nfe;
        if (l->n > 0) memcpy(t->fe + t->nfe, l->e, (size_t)l->n * sizeof *l->e);   /* l->e may be NULL */
        t->nfe += l->n;
        t->order[r++] = v;
        t->done[v] = 1;
        for (int32_t i = 0; i < l->n; i++) {
            int32_t u = l->e[i].to;
            wl_remove(&t->adj[u], v);
            t->del[u]++;
            if (t->level[u] < t->level[v] + 1) t->level[u] = t->level[v] + 1;
        }
        for (int64_t i = 0; i < t->npend; i++)
            if (add_shortcut(h, t, &t->pend[i], v) != 0) return -1;
        if (t->nfe > INT32_MAX) { errno = EOVERFLOW; return -1; }
        gb_free(l->e);
        memset(l, 0, sizeof *l);
    }
    t->foff[r] = (int32_t)t->nfe;
    return 0;
}

/* The final arrays, by node id. */
static int finish(gb_sgch *h, ch_tmp *t)
{
    const int32_t n = h->n, m = (int32_t)t->nfe;
    h->m = m;
    h->cell = take(h, (size_t)n, sizeof *h->cell);
    h->xy = take(h, 2 * (size_t)n, sizeof *h->xy);
    h->up_off = take(h, (size_t)n + 1, sizeof *h->up_off);
    h->up_to = take(h, (size_t)m, sizeof *h->up_to);
    h->up_w = take(h, (size_t)m, sizeof *h->up_w);
    h->up_mid = take(h, (size_t)m, sizeof *h->up_mid);
    h->up_h1 = take(h, (size_t)m, sizeof *h->up_h1);
    h->up_h2 = take(h, (size_t)m, sizeof *h->up_h2);
    h->up_fm = take(h, (size_t)m, sizeof *h->up_fm);
    h->up_lm = take(h, (size_t)m, sizeof *h->up_lm);
    h->alive = take(h, (size_t)n, sizeof *h->alive);
    if (!h->alive || !h->up_fm || !h->up_lm || !h->cell || !h->xy || !h->up_off || !h->up_to || !h->up_w || !h->up_mid
        || !h->up_h1 || !h->up_h2)
        return -1;
    /* the entries were recorded in contraction order; the query's node
     * ids are the subgoal graph's (cell order) */
    int32_t *rank = gb_malloc(((size_t)n + 1) * sizeof *rank);
    if (!rank) return -1;
    for (int32_t r = 0; r < n; r++) rank[t->order[r]] = r;
    h->up_off[0] = 0;
    for (int32_t u = 0; u < n; u++) {
        int32_t c = gb_sg_cell(h->sg, u);
        h->cell[u] = c;
        h->xy[2 * u] = gb_grid_x(h->grid, c);
        h->xy[2 * u + 1] = gb_grid_y(h->grid, c);
        int32_t e = h->up_off[u];
        for (int32_t f = t->foff[rank[u]]; f < t->foff[rank[u] + 1]; f++, e++) {
            h->up_to[e] = t->fe[f].to;
            h->up_w[e] = t->fe[f].w;
            h->up_fm[e] = t->fe[f].fm;
            h->up_lm[e] = t->fe[f].lm;
            h->up_mid[e] = t->fe[f].mid;
        }
        h->up_off[u + 1] = e;
    }
    gb_free(rank);
    /* two passes over (node, in-direction): count, then list */
    for (int pass = 0; pass < 2; pass++) {
        int64_t ns = 0;
        for (int32_t r = 0; r < n; r++) {
            if (pass == 0) h->alive[r] = 0;
            for (int k = 0; k < 8; k++) {
                uint8_t pm = gb_sg_turn_prune(h->sg, h->cell[r], 1u << k);
                if (pass == 1) h->sel_off[8 * (int64_t)r + k] = (int32_t)ns;
                for (int32_t e = h->up_off[r]; e < h->up_off[r + 1]; e++)
                    if (!(h->up_fm[e] & pm)) {
                        if (pass == 1) h->sel[ns] = e;
                        ns++;
                        h->alive[r] |= (uint8_t)(1u << k);
                    }
            }
        }
        if (pass == 1) {
            h->sel_off[8 * (int64_t)n] = (int32_t)ns;
            break;
        }
        if (ns > INT32_MAX) { errno = EOVERFLOW; return -1; }
        h->sel_off = take(h, 8 * (size_t)n + 1, sizeof *h->sel_off);
        h->sel = take(h, (size_t)ns, sizeof *h->sel);
        if (!h->sel_off || !h->sel) return -1;
    }
    for (int32_t r = 0; r < n; r++)
        for (int32_t e = h->up_off[r]; e < h->up_off[r + 1]; e++) {
            h->up_h1[e] = h->up_h2[e] = -1;
            int32_t md = h->up_mid[e];
            if (md < 0) continue;
            for (int32_t f = h->up_off[md]; f < h->up_off[md + 1]; f++) {
                if (h->up_to[f] == r) h->up_h1[e] = f;
                if (h->up_to[f] == h->up_to[e]) h->up_h2[e] = f;
            }
            if (h->up_h1[e] < 0 || h->up_h2[e] < 0) { errno = EPROTO; return -1; }
        }
    /* a shortcut that costs the octile distance of its ends, with D legal
     * both ways, is written as D at once (h1 = -2), not as its halves */
    for (int32_t r = 0; r < n; r++)
        for (int32_t e = h->up_off[r]; e < h->up_off[r + 1]; e++) {
            const int32_t y = h->up_to[e];
            if (h->up_mid[e] >= 0
                && h->up_w[e] == oct_key_xy(h->xy[2 * r], h->xy[2 * r + 1], h->xy[2 * y], h->xy[2 * y + 1])
                && gb_sg_dfirst_legal(h->grid, h->cell[r], h->cell[y])
                && gb_sg_dfirst_legal(h->grid, h->cell[y], h->cell[r]))
                h->up_h1[e] = -2;
        }
    return 0;
}

static void tmp_free(ch_tmp *t, int32_t n)
{
    if (t->adj)
        for (int32_t v = 0; v < n; v++) gb_free(t->adj[v].e);
    gb_free(t->adj);
    gb_free(t->done);
    gb_free(t->del);
    gb_free(t->prio);
    gb_free(t->level);
    gb_free(t->wst);
    gb_free(t->wd);
    gb_free(t->tmark);
    gb_free(t->wh);
    gb_free(t->ph);
    gb_free(t->pend);
    gb_free(t->order);
    gb_free(t->foff);
    gb_free(t->fe);
}

static int build_all(gb_sgch *h, ch_tmp *t)
{
    if (gb_sg_build(&h->sg, h->grid, 0) != 0) return -1;
    const int32_t n = gb_sg_nodes(h->sg);
    h->n = n;
    const int32_t *off, *to;
    gb_sg_csr(h->sg, &off, &to);
    h->edges = off[n] / 2;
    size_t nn = (size_t)n + 1;
    t->adj = gb_calloc(nn, sizeof *t->adj);
    t->done = gb_calloc(nn, sizeof *t->done);
    t->del = gb_calloc(nn, sizeof *t->del);
    t->prio = gb_malloc(nn * sizeof *t->prio);
    t->level = gb_calloc(nn, sizeof *t->level);
    t->wst = gb_calloc(nn, sizeof *t->wst);
    t->wd = gb_malloc(nn * sizeof *t->wd);
    t->tmark = gb_calloc(nn, sizeof *t->tmark);
    t->order = gb_malloc(nn * sizeof *t->order);
    t->foff = gb_malloc((nn + 1) * sizeof *t->foff);
    if (!t->adj || !t->done || !t->del || !t->prio || !t->level || !t->wst || !t->wd || !t->tmark || !t->order
        || !t->foff)
        return -1;
    const gb_grid *g = h->grid;
    for (int32_t u = 0; u < n; u++) {
        int32_t cu = gb_sg_cell(h->sg, u);
        for (int32_t e = off[u]; e < off[u + 1]; e++) {
            int32_t cv = gb_sg_cell(h->sg, to[e]);
            uint64_t w = oct_key_xy(gb_grid_x(g, cu), gb_grid_y(g, cu), gb_grid_x(g, cv),
                                    gb_grid_y(g, cv));
            uint8_t mm = gb_sg_move_mask(g, cu, cv);   /* D(u,v) and D(v,u) both legal */
            if (wl_push(&t->adj[u], to[e], -1, w, mm, mm) != 0) return -1;
        }
    }
    if (contract_all(h, t) != 0 || finish(h, t) != 0) return -1;
    for (int d = 0; d < 2; d++) {
        h->stamp[d] = take(h, nn, sizeof *h->stamp[d]);
        h->d[d] = take(h, nn, sizeof *h->d[d]);
        h->par[d] = take(h, nn, sizeof *h->par[d]);
        h->pe[d] = take(h, nn, sizeof *h->pe[d]);
        h->hpos[d] = take(h, nn, sizeof *h->hpos[d]);
        h->inm[d] = take(h, nn, sizeof *h->inm[d]);
        h->heap[d] = take(h, nn, sizeof *h->heap[d]);
        if (!h->stamp[d] || !h->d[d] || !h->par[d] || !h->pe[d] || !h->hpos[d] || !h->inm[d] || !h->heap[d])
            return -1;
        memset(h->stamp[d], 0, nn * sizeof *h->stamp[d]);
    }
    for (int d = 0; d < 2; d++) {
        h->list[d] = take(h, nn, sizeof *h->list[d]);
        h->ldir[d] = take(h, nn, sizeof *h->ldir[d]);
        if (!h->list[d] || !h->ldir[d]) return -1;
    }
    h->gp = take(h, nn, sizeof *h->gp);
    h->ge = take(h, nn, sizeof *h->ge);
    h->stack = take(h, 3 * (nn + 1), sizeof *h->stack);
    if (!h->gp || !h->ge || !h->stack) return -1;
    return 0;
}

int gb_sgch_build(gb_sgch **out, const gb_grid *g)
{
    if (out) *out = NULL;
    if (!out || !g || !g->pass || g->ncells <= 0 || (int64_t)g->ncells > GB_EXACT_MAX_CELLS) {
        errno = EINVAL;
        return -1;
    }
    gb_sgch *h = gb_calloc(1, sizeof *h);
    if (!h) {
        errno = ENOMEM;
        return -1;
    }
    h->bytes = sizeof *h;
    h->grid = g;
    ch_tmp t;
    memset(&t, 0, sizeof t);
    errno = 0;
    int rc = build_all(h, &t);
    int err = errno ? errno : ENOMEM;
    tmp_free(&t, h->n);
    if (rc != 0) {
        gb_sgch_free(h);
        errno = err == EPROTO || err == EOVERFLOW ? err : ENOMEM;
        return -1;
    }
    *out = h;
    return 0;
}

void gb_sgch_free(gb_sgch *h)
{
    if (!h) return;
    gb_sg_free(h->sg);
    gb_free(h->cell);
    gb_free(h->xy);
    gb_free(h->up_off);
    gb_free(h->up_to);
    gb_free(h->up_w);
    gb_free(h->up_mid);
    gb_free(h->up_h1);
    gb_free(h->up_h2);
    gb_free(h->up_fm);
    gb_free(h->up_lm);
    gb_free(h->alive);
    gb_free(h->sel_off);
    gb_free(h->sel);
    for (int d = 0; d < 2; d++) {
        gb_free(h->stamp[d]);
        gb_free(h->d[d]);
        gb_free(h->par[d]);
        gb_free(h->pe[d]);
        gb_free(h->hpos[d]);
        gb_free(h->inm[d]);
        gb_free(h->heap[d]);
        gb_free(h->list[d]);
        gb_free(h->ldir[d]);
    }
    gb_free(h->gp);
    gb_free(h->ge);
    gb_free(h->stack);
    gb_free(h);
}

size_t gb_sgch_bytes(const gb_sgch *h) { return h ? h->bytes + gb_sg_bytes(h->sg) : 0; }

void gb_sgch_info_get(const gb_sgch *h, gb_sgch_info *info)
{
    info->nodes = h->n;
    info->edges = h->edges;
    info->shortcuts = h->shortcuts;
    info->up_entries = h->m;
    info->witness_settled = h->wsettled;
}

/* ---- query --------------------------------------------------------------- */

static int64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Cells of the graph path gp[0..k) (entries ge) after s, before g. */
static int32_t unpack(gb_sgch *h, int32_t e, int32_t a, int32_t b, int32_t *out, int64_t *ns,
                      int64_t *nd)
{
    int32_t sp = 0, pos = 0, *stk = h->stack;
    stk[sp++] = e;
    stk[sp++] = a;
    stk[sp++] = b;
    while (sp > 0) {
        int32_t y = stk[--sp], x = stk[--sp], f = stk[--sp];
        int32_t md = h->up_mid[f];
        if (md < 0 || h->up_h1[f] == -2) {   /* D(x, y) is legal and optimal */
            pos += gb_sg_dfirst_emit(h->grid, h->cell[x], h->cell[y], 0, out + pos, ns, nd);
            continue;
        }
        int32_t h1 = h->up_h1[f], h2 = h->up_h2[f];
        int32_t first = h->up_to[h1] == x ? h1 : h2, second = first == h1 ? h2 : h1;
        stk[sp++] = second;   /* md -> y, second */
        stk[sp++] = md;
        stk[sp++] = y;
        stk[sp++] = first;    /* x -> md, first */
        stk[sp++] = x;
        stk[sp++] = md;
    }
    return pos;
}

/* Label root v of direction dir with its exact key k (the octile
 * distance from its endpoint) and last move lm; no heap entry yet. */
static inline void seed(gb_sgch *h, int dir, int32_t v, uint64_t k, uint8_t lm, uint32_t open)
{
    h->stamp[dir][v] = open;
    h->d[dir][v] = k;
    h->par[dir][v] = -1;
    h->pe[dir][v] = -1;
    h->inm[dir][v] = lm;
}

/* Queue the roots list[dir][0 .. k) of direction dir whose heap key
 * d + hk (hk: octile distance to the other endpoint (tx, ty)) is below
 * mu and that have an upward entry to relax after their in-direction;
 * the others are closed, labelled only.  Appends, then heapifies. */
static void queue_roots(gb_sgch *h, int dir, int32_t k, int32_t tx, int32_t ty, uint64_t mu,
                        uint32_t open)
{
    const int32_t *list = h->list[dir], *xy = h->xy;
    uint32_t *sd = h->stamp[dir];
    const uint64_t *dd = h->d[dir];
    const uint8_t *inm = h->inm[dir], *alive = h->alive;
    ch_hent *hp = h->heap[dir];
    int32_t *pos = h->hpos[dir], n = 0;
    const int32_t *sel = h->sel, *sel_off = h->sel_off, *up_to = h->up_to;
    const uint64_t *up_w = h->up_w;
    for (int32_t i = 0; i < k; i++) {
        const int32_t v = list[i];
        /* useful only if a surviving entry could lower a label: the
         * labelled nodes now are this side's roots, whose labels are exact */
        int useful = 0;
        if (alive[v] & inm[v]) {
            const int32_t *so8 = sel_off + 8 * (int64_t)v + __builtin_ctz(inm[v]);
            for (int32_t j = so8[0]; j < so8[1]; j++) {
                const int32_t x = up_to[sel[j]];
                if (sd[x] < open || sat_add(dd[v], up_w[sel[j]]) < dd[x]) {
                    useful = 1;
                    break;
                }
            }
        }
        if (!useful) {
            sd[v] = open + 1;
            continue;
        }
        const uint64_t key = sat_add(dd[v], oct_key_xy(tx, ty, xy[2 * v], xy[2 * v + 1]));
        if (key >= mu) {
            sd[v] = open + 1;
            continue;
        }
        hp[n] = (ch_hent){ key, v };
        pos[v] = n++;
    }
    h->hn[dir] = n;
    for (int32_t i = n / 2 - 1; i >= 0; i--) hdown(hp, pos, n, i);
}

/* Could popping v, labelled k with last moves lm in direction dir, lower
 * any label?  Only through an entry that survives the taut test (with
 * several in-directions: assumed yes) to a node not closed whose label is
 * above k + its cost; labels only fall and stamps only rise, so a no
 * stays a no while v keeps this label. */
static inline int useful(const gb_sgch *h, int dir, int32_t v, uint64_t k, uint8_t lm, uint32_t open)
{
    if (lm & (lm - 1)) return 1;
    const uint32_t *sd = h->stamp[dir];
    const uint64_t *dd = h->d[dir];
    const int32_t *so8 = h->sel_off + 8 * (int64_t)v + __builtin_ctz(lm);
    for (int32_t j = so8[0]; j < so8[1]; j++) {
        const int32_t f = h->sel[j], x = h->up_to[f];
        if (sd[x] < open || (sd[x] == open && sat_add(k, h->up_w[f]) < dd[x])) return 1;
    }
    return 0;
}

/* Label node v in direction dir with key k (heap key k + hk) from parent
 * p by entry e, last moves lm.  A node whose pop would relax nothing
 * (useful) keeps its label open but stays out of the heap (hpos -1) until
 * a better label makes it useful.  Returns 1 when the label was set or
 * improved. */
static inline int label(gb_sgch *h, int dir, int32_t v, uint64_t k, uint64_t hk, int32_t p,
                        int32_t e, uint8_t lm, uint32_t open, gb_sg_stats *st)
{
    uint32_t sv = h->stamp[dir][v];
    if (sv > open || (sv == open && k >= h->d[dir][v])) return 0;
    int32_t i = sv == open ? h->hpos[dir][v] : -1;
    h->stamp[dir][v] = open;
    h->d[dir][v] = k;
    h->par[dir][v] = p;
    h->pe[dir][v] = e;
    h->inm[dir][v] = lm;
    st->generated++;
    if (i >= 0) {   /* in the heap: decrease-key */
        h->heap[dir][i].k = sat_add(k, hk);
        hup(h->heap[dir], h->hpos[dir], i);
        st->decreases++;
        return 1;
    }
    if (!useful(h, dir, v, k, lm, open)) {
        h->hpos[dir][v] = -1;
        return 1;
    }
    i = h->hn[dir]++;
    h->heap[dir][i] = (ch_hent){ sat_add(k, hk), v };
    hup(h->heap[dir], h->hpos[dir], i);
    st->pushes++;
    if ((uint64_t)(h->hn[0] + h->hn[1]) > st->peak_open) st->peak_open = (uint64_t)(h->hn[0] + h->hn[1]);
    return 1;
}

/* Relax the upward entries of u, labelled in direction dir, that survive
 * the taut test after its in-directions, towards the target (tx, ty);
 * *mu and *meet follow the best meeting. */
static inline __attribute__((always_inline)) void
expand(gb_sgch *h, int dir, int32_t u, int32_t tx, int32_t ty, uint64_t *mu, int32_t *meet,
       uint32_t open, gb_sg_stats *st)
{
    const uint32_t *const sd = h->stamp[dir], *const so = h->stamp[dir ^ 1];
    const uint64_t *const dd = h->d[dir], *const dother = h->d[dir ^ 1];
    const int32_t *up_to = h->up_to, *xy = h->xy;
    const uint64_t *up_w = h->up_w;
    const uint8_t *up_lm = h->up_lm;
    const uint64_t du = dd[u];
    const uint8_t im = h->inm[dir][u];
    const int32_t *el, *ee;   /* the entries to relax, or (el NULL) e0 .. e1 under pm */
    int32_t e0 = 0, e1 = 0;
    uint8_t pm = 0;
    if (!(im & (im - 1))) {   /* one in-direction: the build's list of survivors */
        const int32_t *so8 = h->sel_off + 8 * (int64_t)u + __builtin_ctz(im);
        el = h->sel + so8[0];
        ee = h->sel + so8[1];
    } else {
        el = ee = NULL;
        e0 = h->up_off[u];
        e1 = h->up_off[u + 1];
        pm = gb_sg_turn_prune(h->sg, h->cell[u], im);
    }
    for (int32_t e = e0;; e++) {
        int32_t f;
        if (el) {
            if (el == ee) break;
            f = *el++;
        } else {
            if (e >= e1) break;
            if (h->up_fm[e] & pm) continue;   /* a taut-violating turn at u */
            f = e;
        }
        const int32_t x = up_to[f];
        const uint64_t nk = sat_add(du, up_w[f]);
        const uint32_t sx = sd[x];
        if (sx > open || (sx == open && nk >= dd[x])) continue;   /* no better label */
        const uint64_t hx = oct_key_xy(xy[2 * x], xy[2 * x + 1], tx, ty);
        if (sat_add(nk, hx) >= *mu) continue;   /* no better path through x from here */
        if (label(h, dir, x, nk, hx, u, f, up_lm[f], open, st) && so[x] >= open) {
            uint64_t c = sat_add(nk, dother[x]);
            if (c < *mu) {
                *mu = c;
                *meet = x;
            }
        }
    }
}

int gb_sgch_query(gb_sgch *h, int32_t start, int32_t goal, int32_t *path, int32_t cap,
                  int32_t *len, double *cost, gb_sg_stats *st, uint64_t max_expanded,
                  int64_t deadline_ns)
{
    gb_sg_stats local_st;
    if (!st) st = &local_st;
    memset(st, 0, sizeof *st);
    const gb_grid *gr = h->grid;
    int r = gb_sg_query_begin(gr, start, goal, path, cap, len, cost);
    if (r != GB_SG_SEARCH) return r;
    const int32_t sx = gb_grid_x(gr, start), sy = gb_grid_y(gr, start);
    const int32_t gx = gb_grid_x(gr, goal), gy = gb_grid_y(gr, goal);
    int64_t ns = 0, nd = 0;
    if (++h->gen > GEN_MAX) {
        for (int d = 0; d < 2; d++) memset(h->stamp[d], 0, ((size_t)h->n + 1) * sizeof *h->stamp[d]);
        h->gen = 1;
    }
    const uint32_t open = 2 * h->gen, closed = open + 1;
    const uint32_t *const st0 = h->stamp[0];
    const int32_t *xy = h->xy;
    uint64_t mu = KEY_INF;
    int32_t meet = -1;
    h->hn[0] = h->hn[1] = 0;
    /* the roots: each scan's subgoals (each reported once) with their
     * exact labels; mu from the subgoals both scans see; then only the
     * roots with a key below mu are queued */
    const int32_t ka = gb_sg_scan(h->sg, start, h->list[0], h->ldir[0]);
    if (ka == 0) return GB_SG_UNREACHABLE;
    const int32_t kb = gb_sg_scan(h->sg, goal, h->list[1], h->ldir[1]);
    if (kb == 0) return GB_SG_UNREACHABLE;
    for (int32_t i = 0; i < ka; i++) {
        const int32_t v = h->list[0][i];
        seed(h, 0, v, oct_key_xy(sx, sy, xy[2 * v], xy[2 * v + 1]), (uint8_t)(1u << h->ldir[0][i]),
             open);
    }
    for (int32_t i = 0; i < kb; i++) {
        const int32_t v = h->list[1][i];
        const uint64_t kv = oct_key_xy(gx, gy, xy[2 * v], xy[2 * v + 1]);
        seed(h, 1, v, kv, (uint8_t)(1u << h->ldir[1][i]), open);
        if (st0[v] >= open && sat_add(kv, h->d[0][v]) < mu) {
            mu = sat_add(kv, h->d[0][v]);
            meet = v;
        }
    }
    const uint64_t max_exp = max_expanded ? max_expanded : UINT64_MAX;
    uint64_t expanded = 0;
    queue_roots(h, 0, ka, gx, gy, mu, open);
    queue_roots(h, 1, kb, sx, sy, mu, open);
    st->pushes = st->generated = (uint64_t)(h->hn[0] + h->hn[1]);
    st->peak_open = st->pushes;
    for (;;) {
        uint64_t t0 = h->hn[0] ? h->heap[0][0].k : KEY_INF, t1 = h->hn[1] ? h->heap[1][0].k : KEY_INF;
        if (t0 >= mu && t1 >= mu) break;
        const int dir = t0 <= t1 ? 0 : 1;
        const int32_t tx = dir ? sx : gx, ty = dir ? sy : gy;   /* this side's target */
        uint32_t *const sd = h->stamp[dir];
        ch_hent *const hp = h->heap[dir];
        int32_t *const pos = h->hpos[dir];
        int32_t u = hp[0].id;
        if (--h->hn[dir] > 0) {
            hp[0] = hp[h->hn[dir]];
            hdown(hp, pos, h->hn[dir], 0);
        }
        st->pops++;
        sd[u] = closed;
        if (++expanded > max_exp
            || (deadline_ns != INT64_MAX && expanded % GB_SG_TIME_CHECK == 0 && mono_ns() > deadline_ns)) {
            st->expanded = expanded - 1;
            return GB_SG_LIMIT;
        }
        expand(h, dir, u, tx, ty, &mu, &meet, open, st);
    }
    st->expanded = expanded;
    if (meet < 0) return GB_SG_UNREACHABLE;
    /* the graph path v1 .. meet .. vk */
    int32_t n = 0;
    for (int32_t y = meet; y >= 0; y = h->par[0][y]) n++;
    int32_t i = n;
    for (int32_t y = meet; y >= 0; y = h->par[0][y]) {
        h->gp[--i] = y;
        if (i > 0) h->ge[i - 1] = h->pe[0][y];
    }
    for (int32_t y = meet; h->par[1][y] >= 0; y = h->par[1][y]) {
        h->ge[n - 1] = h->pe[1][y];
        h->gp[n++] = h->par[1][y];
    }
    int64_t steps = gb_exact_straight(mu) + gb_exact_diag(mu);
    if (steps >= cap) { errno = ERANGE; return -1; }
    int32_t p = gb_sg_dfirst_emit(gr, start, h->cell[h->gp[0]], 0, path, &ns, &nd);
    for (i = 0; i + 1 < n; i++) p += unpack(h, h->ge[i], h->gp[i], h->gp[i + 1], path + p, &ns, &nd);
    p += gb_sg_dfirst_emit(gr, h->cell[h->gp[n - 1]], goal, 1, path + p, &ns, &nd);
    *len = p + 1;
    *cost = (double)ns + (double)nd * GB_SQRT2;
    return GB_SG_FOUND;
}

/* ---- the family ----------------------------------------------------------- */

static size_t sgch_bytes(int32_t width, int32_t height, const gb_solver_spec *s)
{
    (void)s;
    return 20 * ((size_t)width + 2) * ((size_t)height + 2);   /* the subgoal graph's floor */
}

static size_t sgch_state_bytes(const void *state) { return gb_sgch_bytes((const gb_sgch *)state); }

static int sgch_prepare(gb_ws *ws, const gb_solver_spec *s, void **state)
{
    (void)s;
    gb_sgch *h = NULL;
    if (gb_sgch_build(&h, ws->grid) != 0) return -1;   /* errno set */
    *state = h;
    return 0;
}

static void sgch_release(void *state) { gb_sgch_free((gb_sgch *)state); }

static void sgch_search(gb_ws *ws, const gb_solver_spec *s, int32_t start, int32_t goal,
                        gb_result *out)
{
    gb_sg_stats st;
    int32_t len = 0;
    double cost = 0.0;
    memset(out, 0, sizeof *out);
    int r = gb_sgch_query((gb_sgch *)ws->fam[s->algo], start, goal, ws->path, ws->grid->ncells,
                          &len, &cost, &st, s->max_expanded, gb_deadline_of(s));
    out->path = ws->path;
    out->st.expanded = st.expanded;
    out->st.generated = st.generated;
    out->st.pushes = st.pushes;
    out->st.pops = st.pops;
    out->st.decreases = st.decreases;
    out->st.peak_open = st.peak_open;
    if (r == GB_SG_FOUND) {
        out->status = GB_FOUND;
        out->cost = cost;
        out->path_len = len;
    } else if (r == GB_SG_LIMIT) {
        out->status = GB_LIMIT;
        out->cost = INFINITY;
    } else {   /* unreachable (the harness checks the endpoints) */
        out->status = GB_UNREACHABLE;
        out->cost = INFINITY;
    }
}

static const gb_search_fn sgch_fn[1] = { sgch_search };

static const gb_form sgch_forms[] = {
    { .pattern = "sg-ch", .wg = 1.0, .heur = GB_H_OCTILE,
      .desc = "contraction hierarchy over the simple subgoal graph (Uras & Koenig's SG-CH): "
              "bidirectional upward search, shortcuts unpacked; model 8-nocut only; optimal" },
};
const gb_family gb_family_sgch = {
    .forms = sgch_forms, .nforms = GB_COUNTOF(sgch_forms),
    /* not in --solver all, as cpd: its build takes minutes on dense
     * 512x512 maps (random512-10-0: 432k shortcuts over 67k subgoals) */
    .all = NULL, .nall = 0,
    .models = 1u << GB_MODEL_8_NOCUT,
    .dirs = 0,
    .bytes = sgch_bytes, .prepare = sgch_prepare, .release = sgch_release,
    .fn = sgch_fn, .fn_queues = 1, .fn_heurs = 1,
    .queue_label = "own-heap", .state_bytes = sgch_state_bytes,
};
