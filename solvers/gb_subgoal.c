/*
 * gb_subgoal.c -- simple and two-level subgoal graphs (sg, sg-tl) for the
 * 8-nocut model: 8 moves, straight cost 1, diagonal cost sqrt 2, and a
 * diagonal move needs its target and both orthogonal cells it passes.
 *
 * Terms (cells are passable map cells; outside the map counts as blocked)
 *   h(a,b)      octile distance: (max - min) + sqrt2 * min of |dx|, |dy|.
 *               No path is shorter, since every move covers at most one
 *               unit of max and the diagonal ones one unit of each.
 *   freespace path from a to b: a path of length h(a,b).  Its moves are
 *               exactly min diagonal moves in the direction d of the signs
 *               of (dx, dy) and max - min straight moves in the direction c
 *               of the longer axis, in any order; D(a,b) is the one with
 *               all diagonal moves first ("diagonal-first").
 *   h-reachable a, b: some freespace path between them is legal.
 *   subgoal     a passable cell s with a blocked diagonal neighbour
 *               s + (ex, ey) whose two cells s + (ex, 0) and s + (0, ey)
 *               are passable: s sits diagonally off the convex corner of
 *               an obstacle, where under no-corner-cutting a shortest path
 *               can have to turn (it cannot cut the corner, it goes around
 *               it through s).  This is the paper's definition; it is
 *               stated for this model (under corner cutting the turn
 *               points would differ).
 *   direct-h-reachable a, b: h-reachable, and no legal freespace path
 *               between them passes through a subgoal other than a, b.
 *
 * Lemma 1 (safety).  If a, b are h-reachable and some freespace path
 * between them is not legal, then a legal freespace path passes through a
 * subgoal strictly between a and b.  Proof: freespace paths are words over
 * {d, c}, and any word turns into any other by swapping adjacent letters.
 * Walk from a legal word to an illegal one and take the first swap that
 * breaks legality: a legal path P passes u -> q -> v and the swapped one
 * u -> q' -> v, the other corner of the unit parallelogram.  Say (by
 * symmetry) d = (1,1), c = (1,0).  If P goes d then c, q' = u + c was
 * needed by P's diagonal (passable) and the new diagonal q' -> v needs q
 * (on P) and q' + c = q + (1,-1): that cell is blocked, while q + (1,0) = v
 * and q + (0,-1) = q' are passable.  If P goes c then d, P's diagonal
 * q -> v needed q + (0,1) = q' (passable) and the new diagonal u -> q'
 * needs q (on P) and u + (0,1) = q + (-1,1): that cell is blocked, while
 * q + (-1,0) = u and q + (0,1) = q' are passable.  Either way q is a
 * subgoal strictly inside P.  Hence direct-h-reachable
 * implies EVERY freespace path is legal, in particular D(a,b) and D(b,a).
 *
 * The clearance scan (scan() below) from a cell c.  clr[4*id + k] is the
 * number of steps from id in straight direction k over cells that are
 * passable and not subgoals (so id + (clr+1)*off[k] is blocked or a
 * subgoal).  The scan reports the first subgoal on each of the 4 straight
 * rays, then for each diagonal d (components a, b) walks c + i*d while the
 * diagonal move is legal, stops at a subgoal on the diagonal (reported),
 * and from every cell c + i*d casts the rays a and b, each no longer than
 * a limit M: M starts at (stop of the straight ray from c) - 1 and after
 * each ray becomes min(M, stop - 1).  A subgoal ending a ray within the
 * limit is reported.  In coordinates (i, j) = c + i*d + j*a, a blocked
 * cell or subgoal at (i0, j0) rules out every (i >= i0, j >= j0): a
 * freespace path to such a cell can pass through (i0, j0), so it is not
 * direct-h-reachable (Lemma 1).  The same holds beyond an illegal
 * diagonal move.  So the scan reports every subgoal direct-h-reachable
 * from c, and only subgoals t with D(c, t) legal (it walked it).
 * dclr[4*id + k - 4] counts, for diagonal k, the legal diagonal moves from
 * id over cells that are not subgoals, so a walk knows its length at once;
 * once both limits are 0 the rest of the walk is one jump to its end.
 * Both tables saturate at CLR_SAT and are then read in hops.
 *
 * Edges.  The simple subgoal graph (sg) joins subgoals p, q when each is
 * reported by the scan of the other: every direct-h-reachable pair is, and
 * then D(p,q) and D(q,p) are both legal.  An edge costs h(p,q).
 *
 * Lemma 2 (first piece).  Let pi be a shortest path from s to t != s and
 * w the last cell of pi such that pi[s..w] is a freespace path.  Then w = t
 * or w is a subgoal, or pi[s..w] passes through a subgoal.  Proof, by the
 * turn at w (move a into w, move e out of it, e not usable to extend the
 * prefix): a 135 or 180 degree turn, or a 90 degree turn between two
 * diagonals, has a strictly shorter legal replacement (the orthogonal cell
 * the first diagonal needed is free); a 90 degree turn between straight
 * moves u -> w -> v is not replaced by the diagonal u -> v only if u + e
 * is blocked, which makes w a subgoal; a 45 degree turn that leaves the
 * prefix's two directions {d, c} is either "c d^r c''" (c'' the other
 * component of d) or "d c^r d'" (d' the other diagonal next to c): each
 * has a shorter all-diagonal or all-straight replacement whose failure
 * exhibits a blocked cell diagonal to a cell p of the prefix with p's two
 * cells beside it on pi or between pi's moves: a subgoal inside pi[s..w].
 *
 * Theorem (sg is exact).  Let V = subgoals + {s, g} with s joined to the
 * subgoals its scan reports, g likewise, and s-g joined when D(s,g) is
 * legal.  Then the shortest path from s to g in this graph costs d(s,g).
 * (a) h-reachable pairs of V are joined by graph paths of cost h: by
 * induction on h, a pair is either direct (an edge) or has a legal
 * freespace path through a subgoal x, and h(a,x) + h(x,b) = h(a,b).
 * (b) By induction on d(u,g) for u in V: Lemma 2 gives a cell w of V on
 * a shortest path, w != u, h-reachable from u: d(u,g) = h(u,w) + d(w,g).
 * Every edge is a legal path of its cost, so no graph path is shorter than
 * the grid distance.  A* over the graph with the octile h is optimal: the
 * edge costs are octile distances, so h is consistent.  If D(s,g) or
 * D(g,s) is legal the query returns it at once (the latter reversed):
 * nothing beats octile.
 *
 * Taut pruning (both graphs).  When A* expands w with parent p, a
 * successor q is skipped if some legal realization of p -> w -> q turns at
 * w in a way that a strictly shorter legal path replaces locally: by 135
 * or 180 degrees (one straight move does it), by 90 degrees between
 * diagonals (through the orthogonal cell the first diagonal needed), or by
 * 90 degrees between straight moves u -> w -> v when the corner cell
 * u + (v - w) is passable (the diagonal u -> v).  Then d(p,q) < c(p,w) +
 * c(w,q), and no optimal path continues p -> w -> q: if one did, with
 * g(p) >= d(s,p) and g(p) + c(p,w) = d(s,w), d(s,q) <= g(p) + d(p,q) <
 * d(s,w) + c(w,q) = d(s,q).  A* with a consistent h never needs such a
 * successor (the usual argument: the deepest closed node of an optimal
 * path with its optimal g has its successor on the path generated).  To
 * know the realizations, every edge entry carries the set of directions
 * its cell path may start with (adj_fm) and end with (adj_lm): both the
 * diagonal and the straight direction for an sg edge (D(p,q) and D(q,p)
 * reversed are legal), one for s -> v1 (D only), inherited from the
 * halves for an added edge, plus the end moves of D(p,q) or D(q,p)
 * reversed when that one is legal.  Each bit only has to be realizable:
 * the pruning uses the two edges' realizations independently.  The turn
 * test depends only on w and the in-direction, so the build stores, per
 * (subgoal, in-direction), the global edges that survive it as a 64-bit
 * mask (smask; subgoals with more than 64 global neighbours test each
 * edge, and graphs above MASK_NODES subgoals have no masks): an
 * expansion ANDs the masks of its in-directions.
 *
 * Two-level graph (sg-tl).  Subgoals are global or local; edges may be
 * added, each with the local subgoal x it refines through (cost h(p,x) +
 * h(x,q) = h(p,q), so the edge is still an h-reachable pair).  Invariant
 * (J): for any two subgoals a, b there is a shortest graph path from a to
 * b whose inner nodes are all global.  Initially all are global (sg).
 * A global x is made local when for every pair p, q of its neighbours
 * (local ones too) a graph path from p to q that avoids x, has only global
 * inner nodes and costs <= c(p,x) + c(x,q) exists, or c(p,x) + c(x,q) ==
 * h(p,q) and the edge p-q is added.  Otherwise x stays global.  Any
 * global-inner path through x enters and leaves it through two
 * neighbours, so the witness or the new edge replaces that piece: (J)
 * holds again.  A pair whose turn p -> x -> q is strictly shortenable
 * (taut pruning above) needs no search: d(p,q) < c(p,x) + c(x,q), (J)
 * gives a global-inner path of length d(p,q), and it cannot pass through
 * x.  The others get a Dijkstra from p (the "witness" search) that skips
 * x, expands no local node but p, and drops a node v unless g(v) +
 * h(v,q) <= c(p,x) + c(x,q) for some target q; it stops after
 * WITNESS_SETTLE settled nodes.  Costs are compared exactly (integer
 * straight/diagonal counts; sqrt 2 is irrational).  Every pruning or early
 * stop can only miss witnesses, which keeps more subgoals global or adds
 * more edges: safe.  Subgoals are tried once each, in id order.
 * Query: by (J) a shortest path s, v1 .. vk, g of the sg theorem can be
 * taken with v2 .. v(k-1) global, so the search needs only: global
 * subgoals and global-global edges; s's scan (local ones too) and a local
 * v1's edges to globals and to the goal side; g's scan, reached from a
 * global through "extra edges" (the global neighbours of each local
 * subgoal of g's scan, listed at query time) or from a local start-side
 * subgoal directly.  Extra edges u -> v whose turn u -> v -> g is
 * strictly shortenable are not listed; that test depends only on v and
 * the first move towards g, so the build stores the survivors per
 * (local subgoal, direction) as a mask too (xmask).  A local start-side
 * subgoal only relays: when none of its global edges survives the turn
 * from s, no goal-side local subgoal lies in the box of its local
 * neighbours (lbox) and it is not joined to g, it is not generated.  The
 * start's successors get their final g at once (h: direct-h-reachable),
 * so they need no decrease-key and wait in a second heap (sarr) built in
 * one pass; every pop takes the better of the two tops.
 *
 * Distance table (sg-tl-dt: sg-tl with the pairwise distances of its
 * global subgoals precomputed -- the usual memory-for-time trade of
 * preprocessing methods, gridbench's own variant, not a published
 * algorithm as such).  The
 * build runs a Dijkstra from every global subgoal over the global
 * subgoals and the edges between them, with exact integer keys
 * (gb_exact.h: D(a, b) = a*S + b*T orders costs a + b*sqrt2 exactly), and
 * keeps dt[a][b] = the distance and, per target b, the first edge of a
 * shortest path from every a (dnh: the tree of the Dijkstra rooted at b).
 * By (J), a shortest path between two global subgoals has only global
 * ones inside, so dt holds the grid distance.  A query then needs no
 * search: with A the start side (each subgoal v1 of the start's scan: a
 * global one as itself at h(s, v1), a local one through its global
 * neighbours u at h(s, v1) + c(v1, u)) and B the goal side alike, the
 * answer is the least of h(s, v) + h(v, g) for v in both scans,
 * h(s, v1) + c(v1, x) + h(x, g) over the local-local edges v1-x between
 * the two sides, and A[a] + dt[a][b] + B[b] over the pairs.  By the sg
 * theorem and (J), a shortest path s, v1 .. vk, g with v2 .. v(k-1)
 * global exists; it is one of these three forms (k = 1; k = 2 with v1, v2
 * local; otherwise v1 or its global neighbour v2 in A, vk or v(k-1) in B),
 * and every candidate is a real path, so the least is the optimum.  The
 * same turn masks as the search's (smask for s -> v1 -> u, xmask for
 * u -> vk -> g) drop only candidates that a strictly shorter path beats.
 * Bounds keep it cheap: an a with A[a] + h(a, g) >= the best so far is
 * skipped (every dt[a][b] + B[b] is a path cost, >= h), and the
 * local-local edges (local degrees run to the hundreds) are listed only
 * for a v1 with h(s, v1) + h(v1, g) below the best after the pairs.  Keys
 * of three path pieces add without overflow on grids of at most DT_CELLS
 * cells.  The table costs 10 bytes per pair of global subgoals and one
 * Dijkstra per global subgoal; it is built only up to DT_NODES of them
 * (else the query searches as sg-tl does).
 *
 * Refinement.  A graph path becomes cells segment by segment: s -> v1 is
 * D(s,v1) (the scan walked it), vk -> g is D(g,vk) reversed, an sg edge is
 * D(p,q) (legal both ways), an added edge is D(p,q) or D(q,p) reversed
 * when the build found one legal (adj_h1 = -1 / -2: any legal path of
 * cost h will do), else its two halves (recursively, with an explicit
 * stack: an edge added when x was made local refers to edges that
 * existed then).  Each segment has max(|dx|,|dy|) steps, so the
 * length is known before writing and the cost is counted exactly.
 *
 * Data structure.  Node ids 0..n-1 are subgoals in cell-id order; n and
 * n+1 are the query's start and goal.  Adjacency is CSR (adj_off, adj_to;
 * sg-tl: global neighbours first, up to adj_gend, and the halves of
 * added edges, adj_h1 / adj_h2, and the reverse entries adj_rev).  Every
 * edge costs the octile distance of its ends, stored per entry (adj_c,
 * computed by oct() like every other g term).  Per-query
 * state (g, parent, heap position, stamps) is allocated at build time and
 * reset by a generation stamp: stamp[v] == 2gen open, 2gen+1 closed,
 * < 2gen untouched; gmark[v] == gen "v is joined to the goal"; xstamp[u]
 * == gen "u has extra edges this query".  The heap is an indexed binary
 * heap on (f, larger g first) with decrease-key: no stale entries.
 *
 * Time complexity.  Build: O(ncells) for subgoals and clearance, plus
 * the scans (each O(length of its diagonal walks); rays are O(1) by
 * clearance), plus O(L log L) over the scan lists for the mutual check;
 * sg-tl adds, per subgoal x of degree k, O(k^2) pair tests and at most
 * k - 1 witness searches of at most WITNESS_SETTLE settled nodes.
 * Measured (CPU time, best of 3): 1024^2 game maps (AR0011SR and Berlin
 * upscaled) 40-110 ms, random1024-10 (268k subgoals) about 0.65 s.
 * sg-tl-dt adds one Dijkstra per global subgoal over the global graph,
 * O(G (G + E_G) log E_G) for G global subgoals and E_G edges among them.
 * Query: the D(s,g) and D(g,s) checks O(h), two scans, A* in
 * O((V' + E') log V') over the part of the graph it touches (sg-tl-dt
 * with a table: the two sides and at most |A| |B| table reads instead),
 * and O(path length) refinement.
 * Memory: 20 bytes per cell (subgoal index, the two clearance tables);
 * per subgoal 98 bytes (sg) or 267 (sg-tl: 128 of them the two mask
 * tables, built only up to MASK_NODES subgoals) of node data and query
 * state; per adjacency entry (two per edge) 14 bytes (sg) or 27 (sg-tl),
 * plus 8 per extra-edge slot (sg-tl: the global degrees of the local
 * subgoals, summed).  sg-tl-dt's table: 10 bytes per ordered pair of
 * global subgoals, 8 more per adjacency entry (adj_k), 12 per subgoal
 * and 52 per global subgoal of query state.
 */
#include "gb_subgoal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gb_alloc.h"
#include "gb_exact.h"

#define WITNESS_TG 8             /* witness searches with at most this many targets
                                      are pruned by octile distance to them */
#ifdef GB_SG_CLR_SAT               /* a small value exercises the saturated paths in tests */
#define CLR_SAT ((uint32_t)(GB_SG_CLR_SAT))
#else
#define CLR_SAT 0xffffu            /* clearance at or beyond this is stored as it */
#endif
#define GEN_MAX 0x7ffffffeu        /* 2*gen + 1 must fit in uint32_t */
/* The survivor masks (xmask, smask: 128 bytes a subgoal) are built only
 * for graphs of at most this many subgoals: they pay while they stay in
 * cache; on larger graphs (random512-10: 67k subgoals) the extra cache
 * line per expansion made queries about 1.4x slower than testing the
 * edges themselves. */
#ifndef MASK_NODES
#define MASK_NODES 16384
#endif
/* sg-tl-dt: the distance table of the global subgoals (10 bytes a pair)
 * is built only up to this many global subgoals (10.5 MB), on grids of
 * at most DT_CELLS cells (so that three exact keys add without overflow)
 * and when no global subgoal has more than 65535 global neighbours (the
 * next-hop entries are 16 bits); otherwise the query searches. */
#ifndef DT_NODES
#define DT_NODES 1024
#endif
#define DT_CELLS ((int64_t)1 << 24)
#define DT_NONE ((uint64_t)1 << 62)   /* "unreachable": above every sum of real keys */
#ifndef WITNESS_SETTLE
#define WITNESS_SETTLE 256
#endif
         /* settled nodes per witness search (sg-tl build) */

typedef struct sg_xy {
    int32_t x, y;
} sg_xy;

typedef struct sg_hent {
    double f;    /* key */
    double g;    /* tie-break: larger g first */
    int32_t id;  /* node */
} sg_hent;

struct gb_sg {
    const gb_grid *grid;  /* the map (not owned) */
    int two_level;        /* 0 = sg, 1 = sg-tl, 2 = sg-tl-dt (the table, if nt > 0) */
    int32_t n;            /* subgoals; node n = query start, n + 1 = query goal */
    int32_t nglobal;      /* global subgoals (n for sg) */
    int64_t m;            /* adjacency entries: 2 x undirected edges */
    int64_t global_m;     /* entries between two global subgoals */
    int64_t added;        /* sg-tl: undirected edges added by the construction */
    int64_t xmax;         /* sg-tl: sum over local subgoals of their global degree
                             (the most extra edges a query can list) */
    int32_t *sgid;        /* ncells: node id of a subgoal cell, else -1 */
    uint16_t *clr;        /* 4 * ncells: clearance, clr[4*id + k], k = N E S W */
    uint16_t *dclr;       /* 4 * ncells: diagonal clearance, dclr[4*id + k - 4], k = NE SE
                             SW NW: legal diagonal moves over non-subgoal cells (a table
                             of its own: the walks read it once, the rays every step) */
    int32_t *cell;        /* n + 2: cell id of each node */
    sg_xy *xy;            /* n + 2: map coordinates of each node */
    int32_t *adj_off;     /* n + 1: neighbours of u are adj_to[adj_off[u] .. adj_off[u+1]) */
    int32_t *adj_to;      /* m */
    int32_t *adj_h1;      /* sg-tl, m: entry u -> x of the first half of an added edge
                             u -> v (x the local subgoal it was added for); -1 = refined
                             as D(u,v) (every sg edge), -2 = as D(v,u) reversed */
    int32_t *adj_h2;      /* sg-tl, m: entry x -> v of its second half */
    int32_t *adj_rev;     /* sg-tl, m: the entry v -> u */
    uint8_t *adj_fm;      /* m: directions (bit k) the edge's path may start with */
    uint8_t *adj_lm;      /* m: directions its path may end with (moving along it) */
    uint8_t *adj_rlm;     /* sg-tl, m: adj_lm of the reverse entry (the extra edges' test) */
    uint64_t *xmask;      /* sg-tl, 8n: see xmask_fill (NULL above MASK_NODES subgoals) */
    uint64_t *smask;      /* sg-tl, 8n: see xmask_fill (NULL above MASK_NODES subgoals) */
    double *adj_c;        /* m: cost, the octile distance of the ends (as oct() gives it) */
    int32_t *adj_gend;    /* sg-tl, n: global neighbours are [adj_off[u], adj_gend[u]) */
    uint8_t *local;       /* sg-tl, n: 1 = local subgoal */
    sg_xy *lbox;          /* sg-tl, 2n: lbox[2u], lbox[2u + 1]: the corners (min, max)
                             of the box of u's local neighbours (min > max: none) */
    int32_t gbox[4];      /* sg-tl, per query: x0, y0, x1, y1 of the goal-side
                             local subgoals (x0 > x1: none) */
    uint8_t prune[8];     /* out-directions that shorten a turn after in-direction k */
    uint8_t pruned_by[8]; /* in-directions after which out-direction k shortens the
                             turn (the transpose of prune[], corner turns excluded) */
    /* per-query state, reset by gen */
    uint32_t gen;         /* current generation, >= 1 once used */
    uint32_t *stamp;      /* n + 2: 2gen open, 2gen+1 closed */
    double *g;            /* n + 2 */
    int32_t *parent;      /* n + 2 */
    uint8_t *inmask;      /* n + 2: directions the path to a node may end with */
    int32_t *pentry;      /* n + 2 (sg-tl): adjacency entry parent -> node, -1 = none */
    int32_t *hpos;        /* n + 2: heap index of an open node */
    sg_hent *heap;        /* n + 2 */
    sg_hent *sarr;        /* n + 2: the start's successors, a heap without positions */
    int32_t hn;           /* heap size */
    uint32_t *gmark;      /* n + 2: == gen when the node is joined to the goal */
    int32_t *list;        /* n + 1: subgoals reported by a scan */
    uint8_t *ldir;        /* n + 1: direction of the last move of D(cell, list[i]) */
    int32_t *gpath;       /* n + 2: graph path of the last query */
    int32_t *xhead;       /* sg-tl, n: first extra edge of a global node */
    uint32_t *xstamp;     /* sg-tl, n: == gen when xhead is valid */
    int32_t *xnext;       /* sg-tl, xmax: next extra edge */
    int32_t *xto;         /* sg-tl, xmax: extra edge: the adjacency entry u -> v (v a
                             goal-side local subgoal) */
    int32_t *stack;       /* sg-tl, 2 * (n + 2): refinement stack of node pairs */
    /* sg-tl-dt: the distance table (see "Distance table" in the file head) */
    int32_t nt;           /* global subgoals in the table (0: no table) */
    int32_t *tidx;        /* n: table index of a global subgoal, -1 for a local one */
    int32_t *tnode;       /* nt: the subgoal of each table index */
    uint64_t *dt;         /* nt * nt: dt[a * nt + b] = exact key of d(a, b) (DT_NONE) */
    uint16_t *dnh;        /* nt * nt: dnh[b * nt + a] = the first edge of a shortest path
                             a -> b, as an offset from adj_off[tnode[a]] (a != b) */
    uint64_t *gkey;       /* n: exact key of h(v, goal) for the goal's scan (gmark) */
    uint32_t *astamp;     /* nt: == gen when akey/avia is set this query */
    uint32_t *bstamp;     /* nt: likewise for bkey/bvia */
    uint64_t *akey, *bkey;/* nt: best key from the start to index a / from b to the goal */
    int32_t *avia, *bvia; /* nt: the adjacency entry local -> global it goes through
                             (start side: v1 -> a; goal side: vk -> b), -1 = none */
    int32_t *alist, *blist; /* nt: the indices set this query */
    uint64_t *bkl;        /* nt: bkey in blist order (the product's inner loop) */
    uint64_t *adj_k;      /* m: exact key of each entry's cost (oct_key of its ends) */
    size_t bytes;         /* sum of the sizes requested for the blocks held */
};

/* ---- small helpers ---------------------------------------------------- */

static inline int32_t iabs32(int32_t v) { return v < 0 ? -v : v; }

/* Octile distance, computed as gb_h_octile does. */
static inline double oct(sg_xy a, sg_xy b)
{
    int32_t dx = iabs32(a.x - b.x), dy = iabs32(a.y - b.y);
    int32_t lo = dx < dy ? dx : dy, hi = dx < dy ? dy : dx;
    return (double)(hi - lo) + GB_SQRT2 * (double)lo;
}

/* Octile distance as (straight, diagonal) step counts. */
static inline void oct_pair(sg_xy a, sg_xy b, int32_t *s, int32_t *d)
{
    int32_t dx = iabs32(a.x - b.x), dy = iabs32(a.y - b.y);
    int32_t lo = dx < dy ? dx : dy, hi = dx < dy ? dy : dx;
    *s = hi - lo;
    *d = lo;
}

/* Exact a1 + b1*sqrt2 <= a2 + b2*sqrt2 for step counts below 2^31. */
static int pair_le(int64_t a1, int64_t b1, int64_t a2, int64_t b2)
{
    int64_t da = a1 - a2, db = b2 - b1;   /* is da <= db * sqrt2 ? */
    if (da <= 0 && db >= 0) return 1;
    if (da > 0 && db <= 0) return 0;
    uint64_t l = (uint64_t)(da * da), r = 2u * (uint64_t)(db * db);
    return da > 0 ? l <= r : l >= r;
}

/* Allocate n elements of size bytes (at least one element, so that no
 * request is for zero bytes), counted in sg->bytes.  NULL on failure. */
static void *take(gb_sg *sg, size_t n, size_t size, int zero)
{
    if (n == 0) n = 1;
    if (n > SIZE_MAX / size) return NULL;
    void *p = zero ? gb_calloc(n, size) : gb_malloc(n * size);
    if (p) sg->bytes += n * size;
    return p;
}

/* Next query generation; clears the stamp arrays when gen would overflow. */
static uint32_t next_gen(gb_sg *sg)
{
    if (sg->gen >= GEN_MAX) {
        size_t nn = (size_t)sg->n + 2;
        memset(sg->stamp, 0, nn * sizeof *sg->stamp);
        memset(sg->gmark, 0, nn * sizeof *sg->gmark);
        if (sg->xstamp) memset(sg->xstamp, 0, (sg->n ? (size_t)sg->n : 1) * sizeof *sg->xstamp);
        if (sg->nt) {
            memset(sg->astamp, 0, (size_t)sg->nt * sizeof *sg->astamp);
            memset(sg->bstamp, 0, (size_t)sg->nt * sizeof *sg->bstamp);
        }
        sg->gen = 0;
    }
    return ++sg->gen;
}

/* Direction index of the unit move (sx, sy), sx, sy in -1..1, not both 0. */
static inline int dir_of(int32_t sx, int32_t sy)
{
    static const int8_t t[3][3] = { { GB_DIR_NW, GB_DIR_N, GB_DIR_NE },
                                    { GB_DIR_W, -1, GB_DIR_E },
                                    { GB_DIR_SW, GB_DIR_S, GB_DIR_SE } };
    return t[sy + 1][sx + 1];
}

/* The move directions of a freespace path from a to b (a != b): bit of
 * the diagonal if it has diagonal moves, bit of the straight direction if
 * it has straight ones. */
static uint8_t move_mask(sg_xy a, sg_xy b)
{
    int32_t dx = b.x - a.x, dy = b.y - a.y;
    int32_t sx = (dx > 0) - (dx < 0), sy = (dy > 0) - (dy < 0);
    int32_t ax = iabs32(dx), ay = iabs32(dy);
    uint8_t m = 0;
    if (ax != ay) m = (uint8_t)(1u << dir_of(ax > ay ? sx : 0, ax > ay ? 0 : sy));
    if (ax && ay) m |= (uint8_t)(1u << dir_of(sx, sy));
    return m;
}

/* Reverse every direction of a mask (k <-> k ^ 2). */
static inline uint8_t mask_rev(uint8_t m)
{
    return (uint8_t)(((m & 0x33u) << 2) | ((m & 0xccu) >> 2));
}

/* prune[k]: the out-directions e for which a turn "k then e" always has a
 * strictly shorter legal replacement: e at 135 or 180 degrees from k, or
 * both diagonal at 90 degrees (replaced through the orthogonal cell the
 * first diagonal needed).  Straight 90-degree turns depend on the corner
 * cell and are decided per node. */
static void prune_init(uint8_t prune[8], uint8_t pruned_by[8])
{
    memset(pruned_by, 0, 8);
    for (int k = 0; k < 8; k++) {
        prune[k] = 0;
        for (int e = 0; e < 8; e++) {
            int dot = gb_dir_dx[k] * gb_dir_dx[e] + gb_dir_dy[k] * gb_dir_dy[e];
            if (dot < 0 || (dot == 0 && k >= 4 && e >= 4)) {
                prune[k] |= (uint8_t)(1u << e);
                pruned_by[e] |= (uint8_t)(1u << k);
            }
        }
    }
}

/* ---- indexed binary heap on (f, larger g) ----------------------------- */

/* Why not the queues' heap (gb_pq_bheap_dk.h's core, whose operations
 * these mirror): its branch-free compare of three integer keys and the key
 * images of each push cost more than sg's shallow heaps save.  With that
 * core in both heaps here (ties by node rank, the goal first), sg and
 * sg-tl queries took 1.24-1.46x as long on five of six maps (AR0011SR,
 * Berlin_0_256, arena, divideandconquer, room128-16-1; 0.94-1.04x on
 * maze512-4-0; 300 queries each, 5 reps, medians of 3 runs side by side)
 * and 31.5 M instead of 24.0 M instructions on AR0011SR; with one heap
 * (no sarr) 1.1-1.5x.  The tie order here (no id: among equal (f, g) the
 * heap's own order) is what the sg rows of the CSV are pinned to. */

static inline int hbefore(const sg_hent *a, const sg_hent *b)
{
    return a->f < b->f || (a->f == b->f && a->g > b->g);
}

static inline void heap_up(sg_hent *h, int32_t *pos, int32_t i)
{
    sg_hent e = h[i];
    while (i > 0) {
        int32_t p = (i - 1) >> 1;
        if (!hbefore(&e, &h[p])) break;
        h[i] = h[p];
        pos[h[i].id] = i;
        i = p;
    }
    h[i] = e;
    pos[e.id] = i;
}

static inline void heap_down(sg_hent *h, int32_t *pos, int32_t n, int32_t i)
{
    sg_hent e = h[i];
    for (;;) {
        int32_t c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && hbefore(&h[c + 1], &h[c])) c++;
        if (!hbefore(&h[c], &e)) break;
        h[i] = h[c];
        pos[h[i].id] = i;
        i = c;
    }
    h[i] = e;
    pos[e.id] = i;
}

/* Sift-down for a heap without positions (sarr in the query). */
static inline void sheap_down(sg_hent *h, int32_t n, int32_t i)
{
    sg_hent e = h[i];
    for (;;) {
        int32_t c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && hbefore(&h[c + 1], &h[c])) c++;
        if (!hbefore(&h[c], &e)) break;
        h[i] = h[c];
        i = c;
    }
    h[i] = e;
}

static inline void heap_push(gb_sg *sg, double f, double g, int32_t id)
{
    int32_t i = sg->hn++;
    sg->heap[i] = (sg_hent){ f, g, id };
    heap_up(sg->heap, sg->hpos, i);
}

static inline void heap_decrease(gb_sg *sg, int32_t id, double f, double g)
{
    int32_t i = sg->hpos[id];
    sg->heap[i].f = f;
    sg->heap[i].g = g;
    heap_up(sg->heap, sg->hpos, i);
}

static inline int32_t heap_pop(gb_sg *sg)
{
    int32_t top = sg->heap[0].id;
    if (--sg->hn > 0) {
        sg->heap[0] = sg->heap[sg->hn];
        heap_down(sg->heap, sg->hpos, sg->hn, 0);
    }
    return top;
}

/* ---- clearance and the scan ------------------------------------------- */

/* Straight components (vertical, horizontal) of diagonal 4 + i. */
static const int diag_v[4] = { GB_DIR_N, GB_DIR_S, GB_DIR_S, GB_DIR_N };
static const int diag_h[4] = { GB_DIR_E, GB_DIR_E, GB_DIR_W, GB_DIR_W };

/* The clearance of cell id in direction k (straight or diagonal). */
static inline uint16_t *clr_at(const gb_sg *sg, int32_t id, int k)
{
    return k < 4 ? &sg->clr[(size_t)id * 4 + (size_t)k] : &sg->dclr[(size_t)id * 4 + (size_t)(k - 4)];
}

static void clearance_fill(gb_sg *sg)
{
    const gb_grid *gr = sg->grid;
    const uint8_t *pass = gr->pass;
    const int32_t *sgid = sg->sgid;
    const int32_t *off = gr->off;
    /* Directions with a negative id offset (N, W, NE, NW) look at smaller
     * ids: done ascending; the others (E, S, SE, SW) descending. */
    static const int up[4] = { GB_DIR_N, GB_DIR_W, GB_DIR_NE, GB_DIR_NW };
    static const int down[4] = { GB_DIR_E, GB_DIR_S, GB_DIR_SE, GB_DIR_SW };
    for (int pass_ = 0; pass_ < 2; pass_++) {
        const int *ks = pass_ ? down : up;
        int32_t id = pass_ ? gr->ncells - 1 : 0, step = pass_ ? -1 : 1;
        for (int32_t left = gr->ncells; left > 0; left--, id += step) {
            if (!pass[id]) {
                for (int i = 0; i < 4; i++) *clr_at(sg, id, ks[i]) = 0;
                continue;
            }
            for (int i = 0; i < 4; i++) {
                int k = ks[i];
                int32_t nb = id + off[k];
                int ok = pass[nb] && sgid[nb] < 0;
                if (k >= 4) {   /* diagonal: the move needs both straight cells */
                    const int dv = diag_v[k - 4], dh = diag_h[k - 4];
                    ok = ok && pass[id + off[dv]] && pass[id + off[dh]];
                }
                uint32_t v = 0;
                if (ok) {
                    v = (uint32_t)*clr_at(sg, nb, k) + 1;
                    if (v > CLR_SAT) v = CLR_SAT;
                }
                *clr_at(sg, id, k) = (uint16_t)v;
            }
        }
    }
}

/* Steps from cell c in straight direction k to the first cell that is
 * blocked or a subgoal (>= 1); that cell in *hit. */
static inline int32_t ray(const gb_sg *sg, int32_t c, int k, int32_t off, int32_t *hit)
{
    int32_t t = 0;
    for (;;) {
        uint32_t v = sg->clr[(size_t)c * 4 + (size_t)k];
        t += (int32_t)v;
        c += (int32_t)v * off;
        if (v != CLR_SAT) break;
    }
    *hit = c + off;
    return t + 1;
}

/* One component of a diagonal scan step at cell p: the straight ray in
 * direction k (offset o) has clearance cl; a ray that stops within its
 * limit *m (at cl + 1 <= *m steps: the new limit is cl) reports the cell it
 * stops at if that is a subgoal (out, last at index n); a saturated
 * clearance is walked in hops (then it may reach beyond the limit).
 * Returns the new count. */
static inline __attribute__((always_inline)) int32_t
scan_side(const gb_sg *sg, int32_t p, int32_t cl, int k, int32_t o, int32_t *m,
          int32_t *out, uint8_t *last, int32_t n)
{
    int32_t hit;
    if (cl >= *m) return n;
    if (__builtin_expect(cl != (int32_t)CLR_SAT, 1)) {
        const int32_t sv = sg->sgid[p + (cl + 1) * o];
        if (sv >= 0) {
            last[n] = (uint8_t)k;
            out[n++] = sv;
        }
        *m = cl;
    } else {
        int32_t st = ray(sg, p, k, o, &hit);
        if (st <= *m) {
            if (sg->sgid[hit] >= 0) {
                last[n] = (uint8_t)k;
                out[n++] = sg->sgid[hit];
            }
            *m = st - 1;
        }
    }
    return n;
}

/* The clearance scan from cell c (see the file head): writes the node ids
 * of the subgoals it reports to out (each at most once; c itself never)
 * and returns their number; last[i] gets the direction of the last move
 * of D(c, out[i]). */
static int32_t scan(const gb_sg *sg, int32_t c, int32_t *out, uint8_t *last)
{
    const uint8_t *pass = sg->grid->pass;
    const int32_t *off = sg->grid->off;
    const int32_t *sgid = sg->sgid;
    const uint16_t *clr = sg->clr;
    int32_t n = 0, stop[4], hit;
    for (int k = 0; k < 4; k++) {
        stop[k] = ray(sg, c, k, off[k], &hit);
        if (sgid[hit] >= 0) {
            last[n] = (uint8_t)k;
            out[n++] = sgid[hit];
        }
    }
    for (int i = 0; i < 4; i++) {
        const int a = diag_v[i], b = diag_h[i], kd = 4 + i;
        const int32_t oa = off[a], ob = off[b], od = off[kd];
        int32_t ma = stop[a] - 1, mb = stop[b] - 1, p = c;
        for (;;) {
            /* L legal diagonal moves over non-subgoal cells, then the
             * next one is illegal or lands on a subgoal */
            const uint32_t L0 = sg->dclr[(size_t)p * 4 + (size_t)i];
            uint32_t L = L0;
            for (; L > 0 && (ma > 0 || mb > 0); L--) {
                p += od;
                const uint16_t *cp = &clr[(size_t)p * 4];
                n = scan_side(sg, p, cp[a], a, oa, &ma, out, last, n);
                n = scan_side(sg, p, cp[b], b, ob, &mb, out, last, n);
            }
            p += (int32_t)L * od;   /* no ray left to cast: skip to the end */
            if (L0 != CLR_SAT) break;   /* else the walk may go on from p */
        }
        /* the move after the walk: onto a subgoal? */
        if (pass[p + oa] && pass[p + ob] && pass[p + od] && sgid[p + od] >= 0) {
            last[n] = (uint8_t)kd;
            out[n++] = sgid[p + od];
        }
    }
    return n;
}

/* ---- diagonal-first segments ------------------------------------------ */

typedef struct sg_seg {
    int32_t od, os;   /* id offsets of the diagonal and the straight move */
    int32_t oh, ov;   /* horizontal and vertical components of od */
    int32_t nd, ns;   /* number of diagonal and straight moves */
} sg_seg;

static inline sg_seg seg_of(int32_t stride, sg_xy a, sg_xy b)
{
    sg_seg s;
    int32_t dx = b.x - a.x, dy = b.y - a.y;
    int32_t sx = (dx > 0) - (dx < 0), sy = (dy > 0) - (dy < 0);
    int32_t ax = iabs32(dx), ay = iabs32(dy);
    s.oh = sx;
    s.ov = sy * stride;
    s.od = s.oh + s.ov;
    s.nd = ax < ay ? ax : ay;
    s.ns = (ax < ay ? ay : ax) - s.nd;
    s.os = ax > ay ? s.oh : s.ov;
    return s;
}

/* Is D(a, b) legal from cell p (the cell at a)? */
static int dfirst_legal(const gb_grid *gr, int32_t p, sg_xy a, sg_xy b)
{
    const uint8_t *pass = gr->pass;
    sg_seg s = seg_of(gr->stride, a, b);
    for (int32_t i = 0; i < s.nd; i++) {
        if (!pass[p + s.oh] || !pass[p + s.ov] || !pass[p + s.od]) return 0;
        p += s.od;
    }
    for (int32_t i = 0; i < s.ns; i++) {
        p += s.os;
        if (!pass[p]) return 0;
    }
    return 1;
}

/* First and last move directions of D(a, b), a != b. */
static void d_ends(sg_xy a, sg_xy b, int *first, int *last)
{
    int32_t dx = b.x - a.x, dy = b.y - a.y;
    int32_t sx = (dx > 0) - (dx < 0), sy = (dy > 0) - (dy < 0);
    int32_t ax = iabs32(dx), ay = iabs32(dy);
    int diag = ax && ay ? dir_of(sx, sy) : -1;
    int str = ax != ay ? dir_of(ax > ay ? sx : 0, ax > ay ? 0 : sy) : -1;
    *first = diag >= 0 ? diag : str;
    *last = str >= 0 ? str : diag;
}

/* Write the cells of D(a, b) (cells ca, cb at a, b) to out[0 .. steps]
 * (forward), or, with rev, the cells of D(b, a) in reverse order (out[0]
 * is still ca).  Adds the moves to *ns, *nd; returns steps. */
static inline __attribute__((always_inline)) int32_t
seg_emit(int32_t stride, sg_xy a, sg_xy b, int32_t ca, int32_t cb, int rev,
         int32_t *out, int64_t *ns, int64_t *nd)
{
    sg_seg s = rev ? seg_of(stride, b, a) : seg_of(stride, a, b);
    int32_t steps = s.nd + s.ns;
    int32_t p = rev ? cb : ca;
    /* cell k of the segment is p + k * od (k <= nd), then
     * p + nd * od + (k - nd) * os: no chain from one write to the next */
    const int32_t pm = p + s.nd * s.od;
    if (!rev) {
        for (int32_t k = 0; k <= s.nd; k++) out[k] = p + k * s.od;
        for (int32_t k = 1; k <= s.ns; k++) out[s.nd + k] = pm + k * s.os;
    } else {
        for (int32_t k = 0; k <= s.nd; k++) out[steps - k] = p + k * s.od;
        for (int32_t k = 1; k <= s.ns; k++) out[s.ns - k] = pm + k * s.os;
    }
    *ns += s.ns;
    *nd += s.nd;
    return steps;
}

/* emit over graph nodes: D(from, to), or D(to, from) reversed. */
static int32_t emit(const gb_sg *sg, int32_t from, int32_t to, int rev, int32_t *out,
                    int64_t *ns, int64_t *nd)
{
    return seg_emit(sg->grid->stride, sg->xy[from], sg->xy[to], sg->cell[from], sg->cell[to], rev,
                    out, ns, nd);
}

/* The endpoint cases of every query (sg, sg-tl, sg-ch): *len = 0 and
 * *cost = INFINITY, then -1 with errno EINVAL (start or goal not a
 * passable cell) or ERANGE (cap too small for the answer), GB_SG_FOUND
 * for start == goal or a legal D(s, g) or D(g, s) (octile: nothing is
 * shorter; the path written), else GB_SG_SEARCH, with the endpoints'
 * coordinates in *a, *b. */
static inline __attribute__((always_inline)) int
query_begin(const gb_grid *gr, int32_t start, int32_t goal, int32_t *path, int32_t cap,
            int32_t *len, double *cost, sg_xy *a, sg_xy *b)
{
    *len = 0;
    *cost = INFINITY;
    if (start < 0 || start >= gr->ncells || !gr->pass[start] || goal < 0
        || goal >= gr->ncells || !gr->pass[goal]) {
        errno = EINVAL;
        return -1;
    }
    if (start == goal) {
        if (cap < 1) { errno = ERANGE; return -1; }
        path[0] = start;
        *len = 1;
        *cost = 0.0;
        return GB_SG_FOUND;
    }
    *a = (sg_xy){ gb_grid_x(gr, start), gb_grid_y(gr, start) };
    *b = (sg_xy){ gb_grid_x(gr, goal), gb_grid_y(gr, goal) };
    /* a legal freespace path costs h: nothing is shorter (D(s, g), or
     * D(g, s) reversed, the straight moves first) */
    int fwd = dfirst_legal(gr, start, *a, *b);
    if (fwd || dfirst_legal(gr, goal, *b, *a)) {
        int32_t dx = iabs32(a->x - b->x), dy = iabs32(a->y - b->y);
        int32_t steps = dx > dy ? dx : dy;
        if (steps >= cap) { errno = ERANGE; return -1; }
        int64_t ns = 0, nd = 0;
        seg_emit(gr->stride, *a, *b, start, goal, !fwd, path, &ns, &nd);
        *len = steps + 1;
        *cost = (double)ns + (double)nd * GB_SQRT2;
        return GB_SG_FOUND;
    }
    return GB_SG_SEARCH;
}

static inline int32_t cheb(sg_xy a, sg_xy b)
{
    int32_t dx = iabs32(a.x - b.x), dy = iabs32(a.y - b.y);
    return dx > dy ? dx : dy;
}

/* ---- build ------------------------------------------------------------ */

/* A growable int32 array (build temporaries). */
typedef struct ivec {
    int32_t *a;
    size_t n, cap;
} ivec;

static int ivec_reserve(ivec *v, size_t want)
{
    if (want <= v->cap) return 0;
    size_t nc = v->cap ? v->cap : 256;
    while (nc < want) nc *= 2;
    if (nc > SIZE_MAX / sizeof *v->a) return -1;
    int32_t *p = gb_realloc(v->a, nc * sizeof *p);
    if (!p) return -1;
    v->a = p;
    v->cap = nc;
    return 0;
}

static int ivec_push(ivec *v, int32_t x)
{
    if (v->n == v->cap && ivec_reserve(v, v->n + 1) != 0) return -1;
    v->a[v->n++] = x;
    return 0;
}

static void ivec_free(ivec *v)
{
    gb_free(v->a);
    memset(v, 0, sizeof *v);
}

/* Build temporaries, released by gb_sg_build whatever happens. */
typedef struct sg_wnode {
    uint32_t stamp;    /* == 2 wgen open, 2 wgen + 1 closed (witness searches) */
    int32_t a, b;      /* cost of the path found: straight, diagonal steps */
} sg_wnode;

typedef struct sg_tmp {
    int64_t *loff;     /* n + 1: scan list (then mutual list) of node u is
                          lto.a[loff[u] .. loff[u+1]) */
    ivec lto;          /* sg-tl: the edge pool's targets: entries [0, m0) are
                          the mutual lists (CSR), later ones added edges */
    /* sg-tl edge pool: one entry per direction of an edge */
    int32_t m0;        /* entries of the initial CSR part */
    int32_t *head;     /* n: first added entry of a node, -1 = none */
    ivec enext;        /* next added entry of the same node (added entries) */
    ivec eh1, eh2;     /* halves (pool entries) of an added edge, -1 = direct */
    ivec erev;         /* the reverse entry */
    ivec emask;        /* first-move mask | last-move mask << 8 */
    ivec ecs, ecd;     /* cost: straight and diagonal steps */
    ivec pm;           /* turn prune mask per neighbour of the subgoal being tried */
    sg_wnode *w;       /* n: witness search state */
    uint32_t wgen;
    uint32_t *tmark;   /* n: == tgen for the targets of the witness search */
    uint32_t tgen;
    ivec nb, nbs, nbd; /* neighbours of the subgoal being tried, and their costs */
    ivec nbe;          /* the pool entry x -> neighbour */
    ivec pend;         /* edges to add if it becomes local (pairs of indices in nb) */
    int32_t ntg;       /* targets of the current witness search (if <= WITNESS_TG) */
    sg_xy tgxy[WITNESS_TG];
    double tgc[WITNESS_TG];   /* c(p,x) + c(x,q) of target q */
} sg_tmp;

static void tmp_free(sg_tmp *t)
{
    gb_free(t->loff);
    ivec_free(&t->lto);
    gb_free(t->head);
    ivec_free(&t->enext);
    ivec_free(&t->eh1);
    ivec_free(&t->eh2);
    ivec_free(&t->erev);
    ivec_free(&t->emask);
    ivec_free(&t->ecs);
    ivec_free(&t->ecd);
    ivec_free(&t->pm);
    gb_free(t->w);
    gb_free(t->tmark);
    ivec_free(&t->nb);
    ivec_free(&t->nbs);
    ivec_free(&t->nbd);
    ivec_free(&t->nbe);
    ivec_free(&t->pend);
}

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

static int sorted_has(const int32_t *a, int64_t n, int32_t key)
{
    int64_t lo = 0, hi = n;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (a[mid] < key) lo = mid + 1;
        else hi = mid;
    }
    return lo < n && a[lo] == key;
}

/* Scan from every subgoal, keep the mutual pairs: t->loff / t->lto hold
 * each subgoal's neighbours (sorted).  0, -1 (ENOMEM / EOVERFLOW). */
static int build_edges(gb_sg *sg, sg_tmp *t)
{
    int32_t n = sg->n;
    t->loff = gb_malloc(((size_t)n + 1) * sizeof *t->loff);
    if (!t->loff) { errno = ENOMEM; return -1; }
    t->loff[0] = 0;
    for (int32_t u = 0; u < n; u++) {
        int32_t k = scan(sg, sg->cell[u], sg->list, sg->ldir);
        if (k > 0) {
            if (ivec_reserve(&t->lto, t->lto.n + (size_t)k) != 0) { errno = ENOMEM; return -1; }
            memcpy(t->lto.a + t->lto.n, sg->list, (size_t)k * sizeof *sg->list);
            qsort(t->lto.a + t->lto.n, (size_t)k, sizeof *sg->list, cmp_i32);
            t->lto.n += (size_t)k;
        }
        t->loff[u + 1] = (int64_t)t->lto.n;
    }
    /* keep q in u's list only if u is in q's list (flags first, so that
     * every test reads the original lists), then compact in place */
    int32_t *to = t->lto.a;
    uint8_t *keep = gb_malloc(t->lto.n ? t->lto.n : 1);
    if (!keep) { errno = ENOMEM; return -1; }
    for (int32_t u = 0; u < n; u++)
        for (int64_t e = t->loff[u]; e < t->loff[u + 1]; e++) {
            int32_t q = to[e];
            keep[e] = (uint8_t)sorted_has(to + t->loff[q], t->loff[q + 1] - t->loff[q], u);
        }
    int64_t w = 0, rd = 0;
    for (int32_t u = 0; u < n; u++) {
        int64_t end = t->loff[u + 1];
        t->loff[u] = w;
        for (; rd < end; rd++)
            if (keep[rd]) to[w++] = to[rd];
    }
    gb_free(keep);
    t->loff[n] = w;
    t->lto.n = (size_t)w;
    if (w > INT32_MAX) { errno = EOVERFLOW; return -1; }
    sg->m = w;
    return 0;
}

/* sg: the final CSR straight from the mutual lists. */
static int finish_simple(gb_sg *sg, sg_tmp *t)
{
    int32_t n = sg->n;
    sg->adj_off = take(sg, (size_t)n + 1, sizeof *sg->adj_off, 0);
    sg->adj_to = take(sg, (size_t)sg->m, sizeof *sg->adj_to, 0);
    sg->adj_fm = take(sg, (size_t)sg->m, sizeof *sg->adj_fm, 0);
    sg->adj_lm = take(sg, (size_t)sg->m, sizeof *sg->adj_lm, 0);
    if (!sg->adj_off || !sg->adj_to || !sg->adj_fm || !sg->adj_lm) { errno = ENOMEM; return -1; }
    for (int32_t u = 0; u <= n; u++) sg->adj_off[u] = (int32_t)t->loff[u];
    if (sg->m) memcpy(sg->adj_to, t->lto.a, (size_t)sg->m * sizeof *sg->adj_to);
    /* both D(u,v) and D(v,u) are legal: either move may come first or last */
    sg->adj_c = take(sg, (size_t)sg->m, sizeof *sg->adj_c, 0);
    if (!sg->adj_c) { errno = ENOMEM; return -1; }
    for (int32_t u = 0; u < n; u++)
        for (int32_t e = sg->adj_off[u]; e < sg->adj_off[u + 1]; e++) {
            sg->adj_fm[e] = sg->adj_lm[e] = move_mask(sg->xy[u], sg->xy[sg->adj_to[e]]);
            sg->adj_c[e] = oct(sg->xy[u], sg->xy[sg->adj_to[e]]);
        }
    sg->nglobal = n;
    sg->global_m = sg->m;
    return 0;
}

/* Pool iteration: the CSR part of u, then its added entries. */
static inline int32_t pool_first(const sg_tmp *t, int32_t u)
{
    return t->loff[u] < t->loff[u + 1] ? (int32_t)t->loff[u] : t->head[u];
}

static inline int32_t pool_next(const sg_tmp *t, int32_t u, int32_t e)
{
    if (e < t->m0) return e + 1 < t->loff[u + 1] ? e + 1 : t->head[u];
    return t->enext.a[e];
}

static inline uint8_t pool_fm(const sg_tmp *t, int32_t e) { return (uint8_t)t->emask.a[e]; }
static inline uint8_t pool_lm(const sg_tmp *t, int32_t e) { return (uint8_t)(t->emask.a[e] >> 8); }

/* Push one pool entry's fields (all but the link). */
static int pool_push(sg_tmp *t, int32_t v, int32_t next, int32_t h1, int32_t h2, int32_t rev,
                     uint8_t fm, uint8_t lm, int32_t cs, int32_t cd)
{
    if (ivec_push(&t->lto, v) || ivec_push(&t->enext, next) || ivec_push(&t->eh1, h1)
        || ivec_push(&t->eh2, h2) || ivec_push(&t->erev, rev)
        || ivec_push(&t->emask, (int32_t)(fm | (uint32_t)lm << 8)) || ivec_push(&t->ecs, cs)
        || ivec_push(&t->ecd, cd)) {
        errno = ENOMEM;
        return -1;
    }
    return 0;
}

/* Add edge u-v, made of the pool entries h1 = u -> x and h2 = x -> v, as
 * two entries (u -> v, v -> u), each the other's reverse.  fm, lm: the
 * first- and last-move masks of u -> v (v -> u gets them reversed). */
static int pool_pair(sg_tmp *t, int32_t u, int32_t v, int32_t h1, int32_t h2, uint8_t fm, uint8_t lm)
{
    if (t->lto.n >= (size_t)INT32_MAX - 2) { errno = EOVERFLOW; return -1; }
    int32_t e = (int32_t)t->lto.n;
    int32_t cs = t->ecs.a[h1] + t->ecs.a[h2], cd = t->ecd.a[h1] + t->ecd.a[h2];
    /* v -> u: halves v -> x (reverse of x -> v) and x -> u (reverse of u -> x) */
    if (pool_push(t, v, t->head[u], h1, h2, e + 1, fm, lm, cs, cd) != 0
        || pool_push(t, u, t->head[v], t->erev.a[h2], t->erev.a[h1], e, mask_rev(lm),
                     mask_rev(fm), cs, cd) != 0)
        return -1;
    t->head[u] = e;
    t->head[v] = e + 1;
    return 0;
}

/* Bounded Dijkstra from src over paths that avoid x and whose inner nodes
 * are global, pruned above bound and stopped after WITNESS_SETTLE settled
 * nodes or when the ntarget nodes marked tgen are settled.  Leaves, for
 * every node reached (w[v].stamp >= 2 wgen), the exact cost of a real
 * path in w[v].a, w[v].b. */
static void witness(gb_sg *sg, sg_tmp *t, int32_t src, int32_t x, double bound, int32_t ntarget)
{
    if (t->wgen >= GEN_MAX) {
        memset(t->w, 0, (size_t)(sg->n ? sg->n : 1) * sizeof *t->w);
        t->wgen = 0;
    }
    uint32_t gen = ++t->wgen, open = 2 * gen, closed = open + 1;
    double lim = bound + 1e-9 * (1.0 + bound);   /* any pruning is safe */
    const uint8_t *local = sg->local;
    sg_wnode *w = t->w;
    const int32_t *to = t->lto.a, *ecs = t->ecs.a, *ecd = t->ecd.a;
    sg->hn = 0;
    w[src] = (sg_wnode){ open, 0, 0 };
    heap_push(sg, 0.0, 0.0, src);
    int32_t settled = 0;
    while (sg->hn > 0) {
        int32_t u = heap_pop(sg);
        w[u].stamp = closed;
        if (t->tmark[u] == t->tgen && --ntarget == 0) break;
        if (u != src && local[u]) continue;
        if (++settled > WITNESS_SETTLE) break;
        int32_t ua = w[u].a, ub = w[u].b;
        for (int32_t e = pool_first(t, u); e >= 0; e = pool_next(t, u, e)) {
            int32_t v = to[e];
            if (v == x) continue;
            uint32_t sv = w[v].stamp;
            if (sv == closed) continue;
            int32_t a = ua + ecs[e], b = ub + ecd[e];
            double ng = (double)a + GB_SQRT2 * (double)b;
            if (ng > lim) continue;
            if (t->ntg > 0) {   /* useless unless it can still reach a target in time */
                int useful = 0;
                for (int32_t i = 0; i < t->ntg && !useful; i++)
                    useful = ng + oct(sg->xy[v], t->tgxy[i]) <= t->tgc[i] + 1e-9 * (1.0 + t->tgc[i]);
                if (!useful) continue;
            }
            if (sv < open) {
                w[v] = (sg_wnode){ open, a, b };
                heap_push(sg, ng, ng, v);
            } else if (ng < (double)w[v].a + GB_SQRT2 * (double)w[v].b) {
                w[v].a = a;
                w[v].b = b;
                heap_decrease(sg, v, ng, ng);
            }
        }
    }
    sg->hn = 0;
}

/* Out-directions that strictly shorten a turn at cell c after a last move
 * in any direction of in (see "Taut pruning" in the file head). */
static inline uint8_t turn_prune(const gb_sg *sg, int32_t c, unsigned in)
{
    const uint8_t *pass = sg->grid->pass;
    const int32_t *off = sg->grid->off;
    uint8_t pm = 0;
    while (in) {
        int k = __builtin_ctz(in);
        in &= in - 1;
        pm |= sg->prune[k];
        if (k < 4) {   /* straight: the two 90-degree turns, if the corner is free */
            int e1 = (k + 1) & 3, e2 = (k + 3) & 3;
            if (pass[c - off[k] + off[e1]]) pm |= (uint8_t)(1u << e1);
            if (pass[c - off[k] + off[e2]]) pm |= (uint8_t)(1u << e2);
        }
    }
    return pm;
}

/* Try to make x local (see "Two-level graph" in the file head).  Pairs
 * (p, q) of neighbours whose turn p -> x -> q is strictly shortenable need
 * nothing: by (J) a global-inner path of length d(p,q) < c(p,x) + c(x,q)
 * exists, and it cannot pass through x.  The others need a witness; when
 * none is found, an h-reachable pair gets the edge p-q, any other pair
 * keeps x global.  Returns 1 made local, 0 kept global, -1 on failure. */
static int try_local(gb_sg *sg, sg_tmp *t, int32_t x)
{
    t->nb.n = t->nbs.n = t->nbd.n = t->nbe.n = t->pend.n = 0;
    for (int32_t e = pool_first(t, x); e >= 0; e = pool_next(t, x, e)) {
        int32_t p = t->lto.a[e], ps = t->ecs.a[e], pd = t->ecd.a[e];
        if (ivec_push(&t->nb, p) || ivec_push(&t->nbs, ps) || ivec_push(&t->nbd, pd)
            || ivec_push(&t->nbe, e)) {
            errno = ENOMEM;
            return -1;
        }
    }
    int32_t k = (int32_t)t->nb.n, cx = sg->cell[x];
    const int32_t *nb = t->nb.a, *nbs = t->nbs.a, *nbd = t->nbd.a, *nbe = t->nbe.a;
    /* the turn masks: moving p -> x ends with the reverse of x -> p's first moves */
    if (ivec_reserve(&t->pm, (size_t)k) != 0) { errno = ENOMEM; return -1; }
    for (int32_t i = 0; i < k; i++) t->pm.a[i] = turn_prune(sg, cx, mask_rev(pool_fm(t, nbe[i])));
    /* corner pairs first: any of them without a witness keeps x global */
    for (int pass = 0; pass < 2; pass++) {
        for (int32_t i = 0; i + 1 < k; i++) {
            if (t->tgen == UINT32_MAX) {
                memset(t->tmark, 0, (size_t)(sg->n ? sg->n : 1) * sizeof *t->tmark);
                t->tgen = 0;
            }
            t->tgen++;
            double bound = 0.0;
            int32_t ntarget = 0;
            t->ntg = 0;
            for (int32_t j = i + 1; j < k; j++) {
                if (t->pm.a[i] & pool_fm(t, nbe[j])) continue;   /* not taut */
                int32_t hs, hd;
                oct_pair(sg->xy[nb[i]], sg->xy[nb[j]], &hs, &hd);
                int corner = hs != nbs[i] + nbs[j] || hd != nbd[i] + nbd[j];
                if (corner != (pass == 0)) continue;
                t->tmark[nb[j]] = t->tgen;
                ntarget++;
                double c = (double)(nbs[i] + nbs[j]) + GB_SQRT2 * (double)(nbd[i] + nbd[j]);
                if (c > bound) bound = c;
                if (ntarget <= WITNESS_TG) {
                    t->tgxy[ntarget - 1] = sg->xy[nb[j]];
                    t->tgc[ntarget - 1] = c;
                }
            }
            if (ntarget == 0) continue;
            t->ntg = ntarget <= WITNESS_TG ? ntarget : 0;
            witness(sg, t, nb[i], x, bound, ntarget);
            uint32_t open = 2 * t->wgen;
            for (int32_t j = i + 1; j < k; j++) {
                int32_t q = nb[j];
                if (t->tmark[q] != t->tgen) continue;
                int64_t vs = (int64_t)nbs[i] + nbs[j], vd = (int64_t)nbd[i] + nbd[j];
                if (t->w[q].stamp >= open && pair_le(t->w[q].a, t->w[q].b, vs, vd)) continue;
                if (pass == 0) return 0;   /* a corner x is needed for */
                if (ivec_push(&t->pend, i) || ivec_push(&t->pend, j)) { errno = ENOMEM; return -1; }
            }
        }
    }
    sg->local[x] = 1;
    /* the new edge p-q is p -> x -> q: it starts as p -> x starts and ends
     * as x -> q ends */
    for (size_t i = 0; i < t->pend.n; i += 2) {
        int32_t a = t->pend.a[i], b = t->pend.a[i + 1];
        int32_t exp_ = nbe[a], exq = nbe[b], epx = t->erev.a[exp_];
        if (pool_pair(t, nb[a], nb[b], epx, exq, pool_fm(t, epx), pool_lm(t, exq)) != 0) return -1;
        sg->added++;
    }
    return 1;
}

/* sg-tl: contract, then the final CSR (global neighbours first). */
static void xmask_fill(gb_sg *sg);

static int finish_two_level(gb_sg *sg, sg_tmp *t)
{
    int32_t n = sg->n, m0 = (int32_t)t->lto.n;
    size_t nn = n ? (size_t)n : 1, mm0 = m0 ? (size_t)m0 : 1;
    sg->local = take(sg, (size_t)n, sizeof *sg->local, 1);
    t->head = gb_malloc(nn * sizeof *t->head);
    t->w = gb_calloc(nn, sizeof *t->w);
    t->tmark = gb_calloc(nn, sizeof *t->tmark);
    if (!sg->local || !t->head || !t->w || !t->tmark || ivec_reserve(&t->enext, mm0)
        || ivec_reserve(&t->eh1, mm0) || ivec_reserve(&t->eh2, mm0) || ivec_reserve(&t->erev, mm0)
        || ivec_reserve(&t->emask, mm0) || ivec_reserve(&t->ecs, mm0) || ivec_reserve(&t->ecd, mm0)) {
        errno = ENOMEM;
        return -1;
    }
    /* the pool's CSR part: the mutual lists, both D orders legal (fm = lm) */
    t->m0 = m0;
    for (int32_t u = 0; u < n; u++) t->head[u] = -1;
    for (int32_t u = 0; u < n; u++)
        for (int32_t e = (int32_t)t->loff[u]; e < (int32_t)t->loff[u + 1]; e++) {
            int32_t v = t->lto.a[e], cs, cd;
            const int32_t *vl = t->lto.a + t->loff[v];
            int32_t lo = 0, hi = (int32_t)(t->loff[v + 1] - t->loff[v]);
            while (lo < hi) {   /* u in v's sorted list */
                int32_t mid = lo + (hi - lo) / 2;
                if (vl[mid] < u) lo = mid + 1;
                else hi = mid;
            }
            uint8_t mm = move_mask(sg->xy[u], sg->xy[v]);
            oct_pair(sg->xy[u], sg->xy[v], &cs, &cd);
            t->enext.a[e] = -1;
            t->eh1.a[e] = t->eh2.a[e] = -1;
            t->erev.a[e] = (int32_t)t->loff[v] + lo;
            t->emask.a[e] = (int32_t)(mm | (uint32_t)mm << 8);
            t->ecs.a[e] = cs;
            t->ecd.a[e] = cd;
        }
    t->enext.n = t->eh1.n = t->eh2.n = t->erev.n = t->emask.n = t->ecs.n = t->ecd.n = (size_t)m0;
    for (int32_t x = 0; x < n; x++)
        if (try_local(sg, t, x) < 0) return -1;
    /* final arrays; pmap = CSR position of each pool entry (reuses enext,
     * which is not needed once the entries are listed per node) */
    int64_t m = (int64_t)t->lto.n;
    sg->m = m;
    sg->adj_off = take(sg, (size_t)n + 1, sizeof *sg->adj_off, 0);
    sg->adj_gend = take(sg, (size_t)n, sizeof *sg->adj_gend, 0);
    sg->adj_to = take(sg, (size_t)m, sizeof *sg->adj_to, 0);
    sg->adj_h1 = take(sg, (size_t)m, sizeof *sg->adj_h1, 0);
    sg->adj_h2 = take(sg, (size_t)m, sizeof *sg->adj_h2, 0);
    sg->adj_rev = take(sg, (size_t)m, sizeof *sg->adj_rev, 0);
    sg->adj_fm = take(sg, (size_t)m, sizeof *sg->adj_fm, 0);
    sg->adj_lm = take(sg, (size_t)m, sizeof *sg->adj_lm, 0);
    if (!sg->adj_off || !sg->adj_gend || !sg->adj_to || !sg->adj_h1 || !sg->adj_h2 || !sg->adj_rev
        || !sg->adj_fm || !sg->adj_lm || ivec_reserve(&t->pm, (size_t)m) != 0) {
        errno = ENOMEM;
        return -1;
    }
    int32_t *pmap = t->pm.a;
    int32_t pos = 0;
    sg->nglobal = 0;
    sg->global_m = 0;
    sg->xmax = 0;
    for (int32_t u = 0; u < n; u++) {
        int32_t ng = 0, nl = 0;
        for (int32_t e = pool_first(t, u); e >= 0; e = pool_next(t, u, e)) {
            if (sg->local[t->lto.a[e]]) nl++;
            else ng++;
        }
        sg->adj_off[u] = pos;
        sg->adj_gend[u] = pos + ng;
        int32_t gi = pos, li = pos + ng;
        for (int32_t e = pool_first(t, u); e >= 0; e = pool_next(t, u, e)) {
            int32_t v = t->lto.a[e], at = sg->local[v] ? li++ : gi++;
            pmap[e] = at;
            sg->adj_to[at] = v;
            sg->adj_fm[at] = pool_fm(t, e);
            sg->adj_lm[at] = pool_lm(t, e);
        }
        pos += ng + nl;
        if (!sg->local[u]) {
            sg->nglobal++;
            sg->global_m += ng;
        } else {
            sg->xmax += ng;
        }
    }
    sg->adj_off[n] = pos;
    for (int32_t e = 0; e < (int32_t)m; e++) {
        int32_t at = pmap[e];
        sg->adj_h1[at] = t->eh1.a[e] < 0 ? -1 : pmap[t->eh1.a[e]];
        sg->adj_h2[at] = t->eh2.a[e] < 0 ? -1 : pmap[t->eh2.a[e]];
        sg->adj_rev[at] = pmap[t->erev.a[e]];
    }
    sg->lbox = take(sg, 2 * (size_t)n, sizeof *sg->lbox, 0);
    if (!sg->lbox) { errno = ENOMEM; return -1; }
    for (int32_t u = 0; u < n; u++) {
        sg_xy lo = { INT32_MAX, INT32_MAX }, hi = { INT32_MIN, INT32_MIN };
        for (int32_t e = sg->adj_gend[u]; e < sg->adj_off[u + 1]; e++) {
            sg_xy q = sg->xy[sg->adj_to[e]];
            if (q.x < lo.x) lo.x = q.x;
            if (q.y < lo.y) lo.y = q.y;
            if (q.x > hi.x) hi.x = q.x;
            if (q.y > hi.y) hi.y = q.y;
        }
        sg->lbox[2 * u] = lo;
        sg->lbox[2 * u + 1] = hi;
    }
    /* an added edge whose diagonal-first path is legal (either way) is
     * refined as that one segment: any legal path of cost h will do */
    for (int32_t u = 0; u < n; u++)
        for (int32_t e = sg->adj_off[u]; e < sg->adj_off[u + 1]; e++) {
            if (sg->adj_h1[e] < 0) continue;
            int32_t v = sg->adj_to[e];
            int fwd = dfirst_legal(sg->grid, sg->cell[u], sg->xy[u], sg->xy[v]);
            int bwd = dfirst_legal(sg->grid, sg->cell[v], sg->xy[v], sg->xy[u]);
            /* either one is a legal realization: its end moves join the
             * masks (taut pruning needs only that each bit is realizable) */
            int f, l;
            if (fwd) {
                d_ends(sg->xy[u], sg->xy[v], &f, &l);
                sg->adj_fm[e] |= (uint8_t)(1u << f);
                sg->adj_lm[e] |= (uint8_t)(1u << l);
            }
            if (bwd) {
                d_ends(sg->xy[v], sg->xy[u], &f, &l);
                sg->adj_fm[e] |= (uint8_t)(1u << (l ^ 2));
                sg->adj_lm[e] |= (uint8_t)(1u << (f ^ 2));
            }
            if (fwd) sg->adj_h1[e] = -1;
            else if (bwd) sg->adj_h1[e] = -2;
        }
    sg->adj_rlm = take(sg, (size_t)m, sizeof *sg->adj_rlm, 0);
    sg->adj_c = take(sg, (size_t)m, sizeof *sg->adj_c, 0);
    if (!sg->adj_rlm || !sg->adj_c) { errno = ENOMEM; return -1; }
    for (int32_t u = 0; u < n; u++)
        for (int32_t e = sg->adj_off[u]; e < sg->adj_off[u + 1]; e++) {
            sg->adj_rlm[e] = sg->adj_lm[sg->adj_rev[e]];
            sg->adj_c[e] = oct(sg->xy[u], sg->xy[sg->adj_to[e]]);
        }
    if (n <= MASK_NODES) {
        sg->xmask = take(sg, (size_t)n * 8, sizeof *sg->xmask, 0);
        sg->smask = take(sg, (size_t)n * 8, sizeof *sg->smask, 0);
        if (!sg->xmask || !sg->smask) { errno = ENOMEM; return -1; }
        xmask_fill(sg);
    }
    return 0;
}

/* Exact key of the octile distance of a and b. */
static inline uint64_t oct_key(sg_xy a, sg_xy b)
{
    int32_t s, d;
    oct_pair(a, b, &s, &d);
    return gb_exact_key(s, d);
}

/* sg-tl-dt: one Dijkstra per global subgoal over the global subgoals and
 * the edges between them, with exact keys (a binary heap with stale
 * entries, build time only).  Root r fills column r: dt[a * nt + r] (the
 * table is symmetric, so that is also row r) and dnh[r * nt + a], the
 * entry a -> parent(a) of the tree rooted at r: the first edge of a
 * shortest path from a to r.  0, or -1 with errno = ENOMEM.  Skipped
 * (nt stays 0) above the limits of DT_NODES. */
static int table_build(gb_sg *sg)
{
    int32_t n = sg->n, nt = sg->nglobal;
    if (nt == 0 || nt > DT_NODES || (int64_t)sg->grid->ncells > DT_CELLS) return 0;
    for (int32_t u = 0; u < n; u++)
        if (!sg->local[u] && sg->adj_gend[u] - sg->adj_off[u] > 65535) return 0;
    size_t pairs = (size_t)nt * (size_t)nt;
    sg->tidx = take(sg, (size_t)n, sizeof *sg->tidx, 0);
    sg->tnode = take(sg, (size_t)nt, sizeof *sg->tnode, 0);
    sg->dt = take(sg, pairs, sizeof *sg->dt, 0);
    sg->dnh = take(sg, pairs, sizeof *sg->dnh, 0);
    sg->gkey = take(sg, (size_t)n, sizeof *sg->gkey, 0);
    sg->astamp = take(sg, (size_t)nt, sizeof *sg->astamp, 1);
    sg->bstamp = take(sg, (size_t)nt, sizeof *sg->bstamp, 1);
    sg->akey = take(sg, (size_t)nt, sizeof *sg->akey, 0);
    sg->bkey = take(sg, (size_t)nt, sizeof *sg->bkey, 0);
    sg->avia = take(sg, (size_t)nt, sizeof *sg->avia, 0);
    sg->bvia = take(sg, (size_t)nt, sizeof *sg->bvia, 0);
    sg->alist = take(sg, (size_t)nt, sizeof *sg->alist, 0);
    sg->blist = take(sg, (size_t)nt, sizeof *sg->blist, 0);
    sg->bkl = take(sg, (size_t)nt, sizeof *sg->bkl, 0);
    sg->adj_k = take(sg, (size_t)sg->m, sizeof *sg->adj_k, 0);
    /* build temporaries: the heap (one entry per improvement: at most the
     * global entries plus the root) and the settled flags */
    size_t hcap = (size_t)sg->global_m + 1;
    uint64_t *hk = gb_malloc(hcap * sizeof *hk);
    int32_t *hv = gb_malloc(hcap * sizeof *hv);
    uint8_t *done = gb_malloc((size_t)nt);
    if (!sg->tidx || !sg->tnode || !sg->dt || !sg->dnh || !sg->gkey || !sg->astamp
        || !sg->bstamp || !sg->akey || !sg->bkey || !sg->avia || !sg->bvia || !sg->alist
        || !sg->blist || !sg->bkl || !sg->adj_k || !hk || !hv || !done) {
        gb_free(hk);
        gb_free(hv);
        gb_free(done);
        errno = ENOMEM;
        return -1;
    }
    int32_t k = 0;
    for (int32_t u = 0; u < n; u++) {
        sg->tidx[u] = sg->local[u] ? -1 : k;
        if (!sg->local[u]) sg->tnode[k++] = u;
        for (int32_t e = sg->adj_off[u]; e < sg->adj_off[u + 1]; e++)
            sg->adj_k[e] = oct_key(sg->xy[u], sg->xy[sg->adj_to[e]]);
    }
    for (int32_t r = 0; r < nt; r++) {
        for (int32_t a = 0; a < nt; a++) sg->dt[(size_t)a * (size_t)nt + (size_t)r] = DT_NONE;
        memset(done, 0, (size_t)nt);
        uint16_t *nh = sg->dnh + (size_t)r * (size_t)nt;
        size_t hn = 0;
        sg->dt[(size_t)r * (size_t)nt + (size_t)r] = 0;
        nh[r] = 0;
        hk[hn] = 0;
        hv[hn++] = r;
        while (hn > 0) {
            /* pop the least key (sift-down of the last entry) */
            uint64_t key = hk[0];
            int32_t a = hv[0];
            uint64_t lk = hk[--hn];
            int32_t lv = hv[hn];
            size_t i = 0;
            for (;;) {
                size_t c = 2 * i + 1;
                if (c >= hn) break;
                if (c + 1 < hn && hk[c + 1] < hk[c]) c++;
                if (hk[c] >= lk) break;
                hk[i] = hk[c];
                hv[i] = hv[c];
                i = c;
            }
            if (hn > 0) {
                hk[i] = lk;
                hv[i] = lv;
            }
            if (done[a]) continue;
            done[a] = 1;
            int32_t u = sg->tnode[a];
            for (int32_t e = sg->adj_off[u]; e < sg->adj_gend[u]; e++) {
                int32_t v = sg->adj_to[e], b = sg->tidx[v];
                uint64_t nk = key + sg->adj_k[e];
                uint64_t *db = &sg->dt[(size_t)b * (size_t)nt + (size_t)r];
                if (done[b] || nk >= *db) continue;
                *db = nk;
                /* towards r, b goes first to u: the entry b -> u */
                nh[b] = (uint16_t)(sg->adj_rev[e] - sg->adj_off[v]);
                /* push (sift-up); hn < hcap: each push is an improvement
                 * through a distinct entry of a settled node, plus the root */
                size_t j = hn++;
                while (j > 0 && hk[(j - 1) / 2] > nk) {
                    hk[j] = hk[(j - 1) / 2];
                    hv[j] = hv[(j - 1) / 2];
                    j = (j - 1) / 2;
                }
                hk[j] = nk;
                hv[j] = b;
            }
        }
    }
    gb_free(hk);
    gb_free(hv);
    gb_free(done);
    sg->nt = nt;
    return 0;
}

static int build_all(gb_sg *sg, sg_tmp *t)
{
    const gb_grid *gr = sg->grid;
    const uint8_t *pass = gr->pass;
    size_t nc = (size_t)gr->ncells;
    sg->sgid = take(sg, nc, sizeof *sg->sgid, 0);
    if (!sg->sgid) { errno = ENOMEM; return -1; }
    int32_t n = 0;
    for (int32_t id = 0; id < gr->ncells; id++) {
        sg->sgid[id] = -1;
        if (!pass[id]) continue;
        for (int i = 0; i < 4; i++)
            if (!pass[id + gr->off[4 + i]] && pass[id + gr->off[diag_v[i]]]
                && pass[id + gr->off[diag_h[i]]]) {
                sg->sgid[id] = n++;
                break;
            }
    }
    sg->n = n;
    size_t nn = (size_t)n + 2;
    sg->cell = take(sg, nn, sizeof *sg->cell, 0);
    sg->xy = take(sg, nn, sizeof *sg->xy, 0);
    sg->clr = take(sg, nc * 4, sizeof *sg->clr, 0);
    sg->dclr = take(sg, nc * 4, sizeof *sg->dclr, 0);
    sg->stamp = take(sg, nn, sizeof *sg->stamp, 1);
    sg->g = take(sg, nn, sizeof *sg->g, 0);
    sg->parent = take(sg, nn, sizeof *sg->parent, 0);
    sg->inmask = take(sg, nn, sizeof *sg->inmask, 0);
    sg->hpos = take(sg, nn, sizeof *sg->hpos, 0);
    sg->heap = take(sg, nn, sizeof *sg->heap, 0);
    sg->sarr = take(sg, nn, sizeof *sg->sarr, 0);
    sg->gmark = take(sg, nn, sizeof *sg->gmark, 1);
    sg->list = take(sg, (size_t)n + 1, sizeof *sg->list, 0);
    sg->ldir = take(sg, (size_t)n + 1, sizeof *sg->ldir, 0);
    sg->gpath = take(sg, nn, sizeof *sg->gpath, 0);
    if (!sg->cell || !sg->xy || !sg->clr || !sg->dclr || !sg->stamp || !sg->g || !sg->parent || !sg->inmask || !sg->hpos
        || !sg->heap || !sg->sarr || !sg->gmark || !sg->list || !sg->ldir || !sg->gpath) {
        errno = ENOMEM;
        return -1;
    }
    for (int32_t id = 0; id < gr->ncells; id++)
        if (sg->sgid[id] >= 0) {
            int32_t u = sg->sgid[id];
            sg->cell[u] = id;
            sg->xy[u] = (sg_xy){ gb_grid_x(gr, id), gb_grid_y(gr, id) };
        }
    clearance_fill(sg);
    if (build_edges(sg, t) != 0) return -1;
    if (!sg->two_level) return finish_simple(sg, t);
    if (finish_two_level(sg, t) != 0) return -1;
    sg->xhead = take(sg, (size_t)n, sizeof *sg->xhead, 0);
    sg->xstamp = take(sg, (size_t)n, sizeof *sg->xstamp, 1);
    sg->xnext = take(sg, (size_t)sg->xmax, sizeof *sg->xnext, 0);
    sg->xto = take(sg, (size_t)sg->xmax, sizeof *sg->xto, 0);
    sg->pentry = take(sg, nn, sizeof *sg->pentry, 0);
    sg->stack = take(sg, 2 * nn, sizeof *sg->stack, 0);
    if (!sg->xhead || !sg->xstamp || !sg->xnext || !sg->xto || !sg->pentry || !sg->stack) {
        errno = ENOMEM;
        return -1;
    }
    return sg->two_level == 2 ? table_build(sg) : 0;
}

int gb_sg_build(gb_sg **out, const gb_grid *g, int two_level)
{
    if (out) *out = NULL;
    if (!out || !g || !g->pass || g->ncells <= 0) {
        errno = EINVAL;
        return -1;
    }
    gb_sg *sg = gb_calloc(1, sizeof *sg);
    if (!sg) {
        errno = ENOMEM;
        return -1;
    }
    sg->bytes = sizeof *sg;
    sg->grid = g;
    sg->two_level = two_level < 0 ? 1 : two_level > 2 ? 2 : two_level;
    prune_init(sg->prune, sg->pruned_by);
    sg_tmp t;
    memset(&t, 0, sizeof t);
    int rc = build_all(sg, &t);
    int err = errno;
    tmp_free(&t);
    if (rc != 0) {
        gb_sg_free(sg);
        errno = err;
        return -1;
    }
    *out = sg;
    return 0;
}

void gb_sg_free(gb_sg *sg)
{
    if (!sg) return;
    gb_free(sg->sgid);
    gb_free(sg->clr);
    gb_free(sg->dclr);
    gb_free(sg->cell);
    gb_free(sg->xy);
    gb_free(sg->adj_off);
    gb_free(sg->adj_to);
    gb_free(sg->adj_h1);
    gb_free(sg->adj_h2);
    gb_free(sg->adj_rev);
    gb_free(sg->adj_fm);
    gb_free(sg->adj_lm);
    gb_free(sg->adj_rlm);
    gb_free(sg->xmask);
    gb_free(sg->smask);
    gb_free(sg->adj_c);
    gb_free(sg->inmask);
    gb_free(sg->adj_gend);
    gb_free(sg->local);
    gb_free(sg->lbox);
    gb_free(sg->stamp);
    gb_free(sg->g);
    gb_free(sg->parent);
    gb_free(sg->hpos);
    gb_free(sg->heap);
    gb_free(sg->sarr);
    gb_free(sg->gmark);
    gb_free(sg->list);
    gb_free(sg->ldir);
    gb_free(sg->gpath);
    gb_free(sg->xhead);
    gb_free(sg->xstamp);
    gb_free(sg->xnext);
    gb_free(sg->xto);
    gb_free(sg->pentry);
    gb_free(sg->stack);
    gb_free(sg->tidx);
    gb_free(sg->tnode);
    gb_free(sg->dt);
    gb_free(sg->dnh);
    gb_free(sg->gkey);
    gb_free(sg->astamp);
    gb_free(sg->bstamp);
    gb_free(sg->akey);
    gb_free(sg->bkey);
    gb_free(sg->avia);
    gb_free(sg->bvia);
    gb_free(sg->alist);
    gb_free(sg->blist);
    gb_free(sg->bkl);
    gb_free(sg->adj_k);
    gb_free(sg);
}

size_t gb_sg_bytes(const gb_sg *sg) { return sg ? sg->bytes : 0; }

int gb_sg_two_level(const gb_sg *sg) { return sg->two_level; }

void gb_sg_info_get(const gb_sg *sg, gb_sg_info *info)
{
    info->nsub = sg->n;
    info->nglobal = sg->nglobal;
    info->edges = sg->m / 2;
    info->global_edges = sg->global_m / 2;
    info->added_edges = sg->added;
    info->table_nodes = sg->nt;
}

int32_t gb_sg_table_cell(const gb_sg *sg, int32_t a)
{
    return a >= 0 && a < sg->nt ? sg->cell[sg->tnode[a]] : -1;
}

double gb_sg_table_dist(const gb_sg *sg, int32_t a, int32_t b)
{
    if (a < 0 || b < 0 || a >= sg->nt || b >= sg->nt) return NAN;
    uint64_t k = sg->dt[(size_t)a * (size_t)sg->nt + (size_t)b];
    return k == DT_NONE ? INFINITY : gb_exact_cost(k);
}

int gb_sg_is_subgoal(const gb_sg *sg, int32_t id)
{
    return id >= 0 && id < sg->grid->ncells && sg->sgid[id] >= 0;
}

/* ---- query ------------------------------------------------------------ */

/* sg-tl: may a goal-side local subgoal be a local neighbour of u (does
 * the box of u's local neighbours meet the box of those subgoals)? */
static inline int in_gbox(const gb_sg *sg, int32_t u)
{
    const sg_xy lo = sg->lbox[2 * u], hi = sg->lbox[2 * u + 1];
    return lo.x <= sg->gbox[2] && hi.x >= sg->gbox[0] && lo.y <= sg->gbox[3]
           && hi.y >= sg->gbox[1];
}

/* A* from node n (start) to node n + 1 (goal) over the query graph; the
 * start's scan is in sg->list[0 .. nstart), the goal side is marked by
 * gmark (and, for sg-tl, the extra edges).  TL is a compile-time constant
 * at both call sites.  Returns 1 when the goal was popped. */
static int64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static inline __attribute__((always_inline)) int astar_core(gb_sg *sg, int32_t nstart,
                                                            gb_sg_stats *st, uint64_t max_exp,
                                                            int64_t deadline, const int TL)
{
    const int32_t S = sg->n, G = sg->n + 1;
    const uint32_t gen = sg->gen, open = 2 * gen, closed = open + 1;
    const sg_xy gxy = sg->xy[G];
    const sg_xy *xy = sg->xy;
    const int32_t *adj_off = sg->adj_off, *adj_to = sg->adj_to;
    const uint8_t *adj_fm = sg->adj_fm, *adj_lm = sg->adj_lm;
    const double *adj_c = sg->adj_c;
    uint32_t *stamp = sg->stamp;
    double *g = sg->g;
    int32_t *parent = sg->parent, *pentry = sg->pentry;
    uint8_t *inmask = sg->inmask;
    uint64_t expanded = 0, generated = 0, pushes = 0, pops = 0, decreases = 0;
    int32_t peak = 0;
    int found = 0;

#define SG_RELAX(V, COST, LM, E)                                                 \
    do {                                                                         \
        int32_t v_ = (V);                                                        \
        uint32_t sv_ = stamp[v_];                                                \
        if (sv_ == closed) break;                                                \
        double ng_ = gu + (COST);                                                \
        if (sv_ < open) {                                                        \
            stamp[v_] = open;                                                    \
            g[v_] = ng_;                                                         \
            parent[v_] = u;                                                      \
            inmask[v_] = (LM);                                                   \
            if (TL) pentry[v_] = (E);                                            \
            heap_push(sg, ng_ + oct(xy[v_], gxy), ng_, v_);                      \
            if (sg->hn > peak) peak = sg->hn;                                    \
            generated++;                                                         \
            pushes++;                                                            \
        } else if (ng_ < g[v_]) {                                                \
            g[v_] = ng_;                                                         \
            parent[v_] = u;                                                      \
            inmask[v_] = (LM);                                                   \
            if (TL) pentry[v_] = (E);                                            \
            if (sg->hpos[v_] >= 0)                                               \
                heap_decrease(sg, v_, ng_ + oct(xy[v_], gxy), ng_);              \
            else /* in sarr (cannot happen: its g is final); its entry  \
                    there goes stale */                                          \
                heap_push(sg, ng_ + oct(xy[v_], gxy), ng_, v_);                  \
            generated++;                                                         \
            decreases++;                                                         \
        }                                                                        \
    } while (0)

    /* The start is expanded first.  Its successors, the subgoals of its
     * scan, get their final g at once (h(S, v): v is direct-h-reachable,
     * no path is shorter), so none of them needs a decrease-key: they
     * wait in a second queue, sarr, heapified in one pass instead of
     * pushed one by one, and the pops take the better of the two tops. */
    sg->hn = 0;
    stamp[S] = closed;
    g[S] = 0.0;
    parent[S] = -1;
    pushes++;
    pops++;
    expanded++;
    sg_hent *sarr = sg->sarr;
    int32_t sn = 0;
    {
        const sg_xy sxy = xy[S];
        for (int32_t i = 0; i < nstart; i++) {
            int32_t v = sg->list[i];
            /* sg-tl: skip a local v that leads nowhere: no global edge
             * survives the turn, no goal-side subgoal in reach of its
             * local edges, not joined to G (by (J) a local start-side
             * subgoal is only a relay) */
            if (TL && sg->smask && sg->local[v] && sg->smask[(size_t)v * 8 + sg->ldir[i]] == 0
                && sg->adj_gend[v] - adj_off[v] <= 64 && sg->gmark[v] != gen && !in_gbox(sg, v))
                continue;
            double gv = oct(sxy, xy[v]);
            stamp[v] = open;
            g[v] = gv;
            parent[v] = S;
            inmask[v] = (uint8_t)(1u << sg->ldir[i]);
            if (TL) pentry[v] = -1;
            sg->hpos[v] = -1;   /* not in the main heap */
            sarr[sn++] = (sg_hent){ gv + oct(xy[v], gxy), gv, v };
            generated++;
            pushes++;
        }
        for (int32_t i = sn / 2 - 1; i >= 0; i--) sheap_down(sarr, sn, i);
    }
    peak = sn;
    while (sg->hn > 0 || sn > 0) {
        int32_t u;
        if (sn > 0 && (sg->hn == 0 || hbefore(&sarr[0], &sg->heap[0]))) {
            u = sarr[0].id;
            if (--sn > 0) {
                sarr[0] = sarr[sn];
                sheap_down(sarr, sn, 0);
            }
            if (stamp[u] == closed) continue;   /* it went to the main heap (see SG_RELAX) */
        } else {
            u = heap_pop(sg);
        }
        pops++;
        stamp[u] = closed;
        if (u == G) { found = 1; break; }
        if (++expanded > max_exp
            || (deadline != INT64_MAX && expanded % GB_SG_TIME_CHECK == 0 && mono_ns() > deadline)) {
            expanded--;
            found = -1;
            break;
        }
        double gu = g[u];
        sg_xy uxy = xy[u];
        if (sg->gmark[u] == gen) SG_RELAX(G, oct(uxy, gxy), 0, -1);
        /* sg-tl: a local subgoal not reached from S is on the goal side
         * (reached to go on to G, by (J)): nothing else to do */
        if (TL && sg->local[u] && parent[u] != S) continue;
        int32_t end = TL ? sg->adj_gend[u] : adj_off[u + 1];
        uint8_t pm = 0;
        if (TL && sg->smask && end - adj_off[u] <= 64) {
            /* the global edges that survive every in-direction's turn */
            uint64_t mk = ~(uint64_t)0;
            for (unsigned in = inmask[u]; in; in &= in - 1)
                mk &= sg->smask[(size_t)u * 8 + (size_t)__builtin_ctz(in)];
            for (; mk; mk &= mk - 1) {
                int32_t e = adj_off[u] + __builtin_ctzll(mk);
                int32_t v = adj_to[e];
                SG_RELAX(v, adj_c[e], adj_lm[e], e);
            }
            if (sg->local[u] ? in_gbox(sg, u) : sg->xstamp[u] == gen)
                pm = turn_prune(sg, sg->cell[u], inmask[u]);
        } else {
            pm = turn_prune(sg, sg->cell[u], inmask[u]);
            for (int32_t e = adj_off[u]; e < end; e++) {
                if (adj_fm[e] & pm) continue;
                int32_t v = adj_to[e];
                SG_RELAX(v, adj_c[e], adj_lm[e], e);
            }
        }
        if (TL) {
            if (sg->local[u] && in_gbox(sg, u)) {
                /* local-local edges lead only to goal-side nodes (none
                 * unless the boxes meet: in_gbox): few match, so collect
                 * them without a branch per entry (sg->stack is free
                 * until the refinement) */
                int32_t *hitb = sg->stack, nh = 0;
                const uint32_t *gm = sg->gmark;
                for (int32_t e = end; e < adj_off[u + 1]; e++) {
                    hitb[nh] = e;
                    nh += gm[adj_to[e]] == gen;
                }
                for (int32_t h = 0; h < nh; h++) {
                    int32_t e = hitb[h];
                    if (adj_fm[e] & pm) continue;
                    int32_t v = adj_to[e];
                    SG_RELAX(v, adj_c[e], adj_lm[e], e);
                }
            } else if (sg->xstamp[u] == gen) {
                for (int32_t x = sg->xhead[u]; x >= 0; x = sg->xnext[x]) {
                    int32_t e = sg->xto[x];
                    if (adj_fm[e] & pm) continue;
                    int32_t v = adj_to[e];
                    SG_RELAX(v, adj_c[e], adj_lm[e], e);
                }
            }
        }
    }
#undef SG_RELAX
    sg->hn = 0;
    st->expanded = expanded;
    st->generated = generated;
    st->pushes = pushes;
    st->pops = pops;
    st->decreases = decreases;
    st->peak_open = (uint64_t)peak;
    return found;
}

static int astar_simple(gb_sg *sg, int32_t nstart, gb_sg_stats *st, uint64_t max_exp,
                        int64_t deadline)
{
    return astar_core(sg, nstart, st, max_exp, deadline, 0);
}

static int astar_tl(gb_sg *sg, int32_t nstart, gb_sg_stats *st, uint64_t max_exp,
                    int64_t deadline)
{
    return astar_core(sg, nstart, st, max_exp, deadline, 1);
}

/* sg-tl: the cells of adjacency entry e (from node u) at out[0 ..]: an
 * added edge is its two halves, expanded with an explicit stack of
 * (node, entry) pairs.  Returns the number of steps written. */
static int32_t emit_entry(gb_sg *sg, int32_t u, int32_t e, int32_t *out, int64_t *ns, int64_t *nd)
{
    int32_t sp = 0, pos = 0;
    sg->stack[sp++] = u;
    sg->stack[sp++] = e;
    while (sp > 0) {
        int32_t f = sg->stack[--sp], a = sg->stack[--sp];
        if (sg->adj_h1[f] < 0) {   /* -1: D(a, v); -2: D(v, a) reversed */
            pos += emit(sg, a, sg->adj_to[f], sg->adj_h1[f] == -2, out + pos, ns, nd);
        } else {
            int32_t h1 = sg->adj_h1[f], h2 = sg->adj_h2[f];
            sg->stack[sp++] = sg->adj_to[h1];   /* x -> v second */
            sg->stack[sp++] = h2;
            sg->stack[sp++] = a;                /* a -> x first */
            sg->stack[sp++] = h1;
        }
    }
    return pos;
}

/* Refine the graph path gpath[0 .. k) (k >= 2, start .. goal) into cells. */
static void refine(gb_sg *sg, int32_t k, int32_t *path, int64_t *ns, int64_t *nd)
{
    int32_t S = sg->n, G = sg->n + 1, pos = 0;
    for (int32_t i = 0; i + 1 < k; i++) {
        int32_t a = sg->gpath[i], b = sg->gpath[i + 1];
        if (a == S) pos += emit(sg, a, b, 0, path + pos, ns, nd);
        else if (b == G) pos += emit(sg, a, b, 1, path + pos, ns, nd);
        else if (!sg->two_level) pos += emit(sg, a, b, 0, path + pos, ns, nd);
        else pos += emit_entry(sg, a, sg->pentry[b], path + pos, ns, nd);
    }
}

/* sg-tl: the in-directions a for which a turn a -> o at local subgoal v
 * is strictly shortenable: always (pruned_by), or (both straight, at 90
 * degrees) when the corner cell v - a + o is free. */
static uint8_t goal_bad(const gb_sg *sg, int32_t v, int o)
{
    uint8_t bad = sg->pruned_by[o];
    if (o < 4) {
        const int32_t *off = sg->grid->off;
        int32_t c = sg->cell[v] + off[o];
        int a1 = (o + 1) & 3, a2 = (o + 3) & 3;
        if (sg->grid->pass[c - off[a1]]) bad |= (uint8_t)(1u << a1);
        if (sg->grid->pass[c - off[a2]]) bad |= (uint8_t)(1u << a2);
    }
    return bad;
}

/* sg-tl, build: xmask[8v + o] for a local v with at most 64 global
 * neighbours: bit j set when the entry u -> v (u the j-th global
 * neighbour) is not pruned by goal_bad(v, o). */
static void xmask_fill(gb_sg *sg)
{
    for (int32_t v = 0; v < sg->n; v++) {
        int32_t base = sg->adj_off[v], deg = sg->adj_gend[v] - base;
        for (int o = 0; o < 8; o++) {
            uint64_t mk = 0;
            if (sg->local[v] && deg <= 64) {
                uint8_t bad = goal_bad(sg, v, o);
                for (int32_t j = 0; j < deg; j++)
                    if (!(sg->adj_rlm[base + j] & bad)) mk |= (uint64_t)1 << j;
            }
            sg->xmask[(size_t)v * 8 + (size_t)o] = mk;
            /* the global edges out of v that survive a turn after a
             * move in direction o */
            uint64_t sk = 0;
            if (deg <= 64) {
                uint8_t pm = turn_prune(sg, sg->cell[v], 1u << o);
                for (int32_t j = 0; j < deg; j++)
                    if (!(sg->adj_fm[base + j] & pm)) sk |= (uint64_t)1 << j;
            }
            sg->smask[(size_t)v * 8 + (size_t)o] = sk;
        }
    }
}

/* The extra edge u -> v for entry e = v -> u: prepended to u's list. */
static inline void xlink(gb_sg *sg, int32_t e, uint32_t gen, int32_t *nx)
{
    int32_t u = sg->adj_to[e];
    if (sg->xstamp[u] != gen) {
        sg->xstamp[u] = gen;
        sg->xhead[u] = -1;
    }
    sg->xto[*nx] = sg->adj_rev[e];
    sg->xnext[*nx] = sg->xhead[u];
    sg->xhead[u] = (*nx)++;
}

/* sg-tl, before the search: for each local subgoal v of the goal's scan,
 * an extra edge u -> v from each global neighbour u, unless the turn
 * u -> v -> G is strictly shortenable (then no optimal path ends so). */
static void extra_edges(gb_sg *sg, int32_t ng, uint32_t gen)
{
    int32_t nx = 0;
    int32_t *box = sg->gbox;
    box[0] = box[1] = INT32_MAX;
    box[2] = box[3] = INT32_MIN;
    for (int32_t i = 0; i < ng; i++) {
        int32_t v = sg->list[i];
        if (!sg->local[v]) continue;
        sg_xy q = sg->xy[v];
        if (q.x < box[0]) box[0] = q.x;
        if (q.y < box[1]) box[1] = q.y;
        if (q.x > box[2]) box[2] = q.x;
        if (q.y > box[3]) box[3] = q.y;
        /* first move from v on the way to G: the reverse of D(G, v)'s last */
        int o = sg->ldir[i] ^ 2;
        int32_t base = sg->adj_off[v], deg = sg->adj_gend[v] - base;
        if (sg->xmask && deg <= 64) {   /* the precomputed survivors only */
            for (uint64_t mk = sg->xmask[(size_t)v * 8 + (size_t)o]; mk; mk &= mk - 1)
                xlink(sg, base + __builtin_ctzll(mk), gen, &nx);
        } else {
            uint8_t bad = goal_bad(sg, v, o);
            for (int32_t e = base; e < base + deg; e++)
                if (!(sg->adj_rlm[e] & bad)) xlink(sg, e, gen, &nx);
        }
    }
}

/* sg-tl-dt: keep key k for table index a on one side (the start side
 * when side == 0) if it beats what the index has this query; via is the
 * entry local -> tnode[a] it goes through, -1 when tnode[a] is itself in
 * the scan. */
static inline void side_set(gb_sg *sg, int side, int32_t a, uint64_t k, int32_t via,
                            uint32_t gen, int32_t *cnt)
{
    uint32_t *stp = side ? sg->bstamp : sg->astamp;
    uint64_t *key = side ? sg->bkey : sg->akey;
    int32_t *vi = side ? sg->bvia : sg->avia;
    if (stp[a] != gen) {
        stp[a] = gen;
        (side ? sg->blist : sg->alist)[(*cnt)++] = a;
    } else if (k >= key[a]) {
        return;
    }
    key[a] = k;
    vi[a] = via;
}

/* sg-tl-dt: the query once both scans are known (see "Distance table" in
 * the file head).  The goal's scan is in list[0 .. ngoal) with ldir, and
 * gmark/gkey are set for it; this scans from the start itself.  Writes
 * the graph path to gpath/pentry and returns its node count, 0 when the
 * goal is unreachable. */
static int32_t table_query(gb_sg *sg, int32_t ngoal, uint32_t gen, gb_sg_stats *st)
{
    const int32_t S = sg->n, G = sg->n + 1, nt = sg->nt;
    const sg_xy *xy = sg->xy;
    const int32_t *adj_off = sg->adj_off, *adj_gend = sg->adj_gend, *adj_to = sg->adj_to;
    const uint64_t *adj_k = sg->adj_k;
    int32_t na = 0, nb = 0;
    int32_t *box = sg->gbox;
    box[0] = box[1] = INT32_MAX;
    box[2] = box[3] = INT32_MIN;
    /* the goal side: each subgoal v of the goal's scan, a global one as
     * itself, a local one through its global neighbours u whose turn
     * u -> v -> goal is not strictly shortenable (xmask, goal_bad) */
    for (int32_t i = 0; i < ngoal; i++) {
        int32_t v = sg->list[i];
        uint64_t hv = sg->gkey[v];
        if (!sg->local[v]) {
            side_set(sg, 1, sg->tidx[v], hv, -1, gen, &nb);
            continue;
        }
        sg_xy q = xy[v];   /* the box of the goal-side local subgoals */
        if (q.x < box[0]) box[0] = q.x;
        if (q.y < box[1]) box[1] = q.y;
        if (q.x > box[2]) box[2] = q.x;
        if (q.y > box[3]) box[3] = q.y;
        int o = sg->ldir[i] ^ 2;
        int32_t base = adj_off[v], deg = adj_gend[v] - base;
        if (sg->xmask && deg <= 64) {
            for (uint64_t mk = sg->xmask[(size_t)v * 8 + (size_t)o]; mk; mk &= mk - 1) {
                int32_t e = base + __builtin_ctzll(mk), u = adj_to[e];
                side_set(sg, 1, sg->tidx[u], hv + adj_k[e], e, gen, &nb);
            }
        } else {
            uint8_t bad = goal_bad(sg, v, o);
            for (int32_t e = base; e < base + deg; e++) {
                if (sg->adj_rlm[e] & bad) continue;
                int32_t u = adj_to[e];
                side_set(sg, 1, sg->tidx[u], hv + adj_k[e], e, gen, &nb);
            }
        }
    }
    /* the start side, and the path s -> v -> g (v in both scans) */
    int32_t ns = scan(sg, sg->cell[S], sg->list, sg->ldir);
    uint64_t best = DT_NONE;
    int32_t kind = 0, bv = -1, be = -1, ba = -1, bb = -1;   /* kind 1: s v g; 2: s v x g; 3: table */
    int32_t nl = 0;   /* start-side local subgoals that may reach a goal-side one */
    for (int32_t i = 0; i < ns; i++) {
        int32_t v = sg->list[i];
        uint64_t av = oct_key(xy[S], xy[v]);
        if (sg->gmark[v] == gen && av + sg->gkey[v] < best) {
            best = av + sg->gkey[v];
            kind = 1;
            bv = v;
        }
        if (!sg->local[v]) {
            side_set(sg, 0, sg->tidx[v], av, -1, gen, &na);
            continue;
        }
        int32_t base = adj_off[v], deg = adj_gend[v] - base;
        if (sg->smask && deg <= 64) {
            for (uint64_t mk = sg->smask[(size_t)v * 8 + sg->ldir[i]]; mk; mk &= mk - 1) {
                int32_t e = base + __builtin_ctzll(mk), u = adj_to[e];
                side_set(sg, 0, sg->tidx[u], av + adj_k[e], e, gen, &na);
            }
        } else {
            uint8_t pm = turn_prune(sg, sg->cell[v], 1u << sg->ldir[i]);
            for (int32_t e = base; e < base + deg; e++) {
                if (sg->adj_fm[e] & pm) continue;
                int32_t u = adj_to[e];
                side_set(sg, 0, sg->tidx[u], av + adj_k[e], e, gen, &na);
            }
        }
        /* a local-local edge to the goal side: none unless the box of
         * v's local neighbours meets that of the goal-side ones */
        if (in_gbox(sg, v)) sg->list[nl++] = v;   /* nl <= i: list[i] is read */
    }
    /* the product: akey[a] + d(a, b) + bkey[b]; an a whose akey plus
     * h(a, goal) is no better than the best so far cannot win (every
     * d(a, b) + bkey[b] is a path cost from a to the goal, >= h) */
    for (int32_t j = 0; j < nb; j++) sg->bkl[j] = sg->bkey[sg->blist[j]];
    const int32_t *blist = sg->blist;
    const uint64_t *bkl = sg->bkl;
    for (int32_t i = 0; i < na; i++) {
        int32_t a = sg->alist[i];
        uint64_t ka = sg->akey[a];
        if (ka + oct_key(xy[sg->tnode[a]], xy[G]) >= best) continue;
        const uint64_t *row = sg->dt + (size_t)a * (size_t)nt;
        for (int32_t j = 0; j < nb; j++) {
            uint64_t k = ka + row[blist[j]] + bkl[j];
            if (k < best) {
                best = k;
                kind = 3;
                ba = a;
                bb = blist[j];
            }
        }
    }
    /* s -> v -> x -> g over a local-local edge v-x: only for the v whose
     * h(s, v) + h(v, g) still beats the best (few: the local degrees are
     * large, so this comes last); the matches are collected without a
     * branch per entry */
    int32_t *hitb = sg->stack;   /* free until the refinement */
    const uint32_t *gm = sg->gmark;
    for (int32_t l = 0; l < nl; l++) {
        int32_t v = sg->list[l];
        uint64_t av = oct_key(xy[S], xy[v]);
        if (av + oct_key(xy[v], xy[G]) >= best) continue;
        int32_t nh = 0;
        for (int32_t e = adj_gend[v]; e < adj_off[v + 1]; e++) {
            hitb[nh] = e;
            nh += gm[adj_to[e]] == gen;
        }
        for (int32_t h = 0; h < nh; h++) {
            int32_t e = hitb[h], x = adj_to[e];
            uint64_t k = av + adj_k[e] + sg->gkey[x];
            if (k < best) {
                best = k;
                kind = 2;
                bv = v;
                be = e;
            }
        }
    }
    st->generated = (uint64_t)na + (uint64_t)nb;
    if (kind == 0) return 0;
    /* the graph path, with pentry[v] = the entry into v for the refinement */
    int32_t k = 0, *gp = sg->gpath, *pe = sg->pentry;
    gp[k++] = S;
    if (kind == 1) {
        gp[k++] = bv;
    } else if (kind == 2) {
        gp[k++] = bv;
        gp[k++] = adj_to[be];
        pe[adj_to[be]] = be;
    } else {
        int32_t e = sg->avia[ba];
        if (e >= 0) gp[k++] = adj_to[sg->adj_rev[e]];   /* the local v1 */
        int32_t u = sg->tnode[ba];
        gp[k++] = u;
        pe[u] = e;
        for (int32_t a = ba; a != bb;) {
            int32_t f = adj_off[u] + sg->dnh[(size_t)bb * (size_t)nt + (size_t)a];
            u = adj_to[f];
            a = sg->tidx[u];
            gp[k++] = u;
            pe[u] = f;
        }
        e = sg->bvia[bb];
        if (e >= 0) {   /* e = vk -> u: the reverse goes u -> vk */
            int32_t vk = adj_to[sg->adj_rev[e]];
            gp[k++] = vk;
            pe[vk] = sg->adj_rev[e];
        }
    }
    gp[k++] = G;
    return k;
}

int gb_sg_query(gb_sg *sg, int32_t start, int32_t goal, int32_t *path, int32_t cap,
                int32_t *len, double *cost, gb_sg_stats *st)
{
    return gb_sg_query_limited(sg, start, goal, path, cap, len, cost, st, 0, INT64_MAX);
}

int gb_sg_query_limited(gb_sg *sg, int32_t start, int32_t goal, int32_t *path, int32_t cap,
                        int32_t *len, double *cost, gb_sg_stats *st, uint64_t max_expanded,
                        int64_t deadline_ns)
{
    gb_sg_stats local_st;
    if (!st) st = &local_st;
    memset(st, 0, sizeof *st);
    const gb_grid *gr = sg->grid;
    const int32_t S = sg->n, G = sg->n + 1;
    int r = query_begin(gr, start, goal, path, cap, len, cost, &sg->xy[S], &sg->xy[G]);
    if (r != GB_SG_SEARCH) return r;
    sg->cell[S] = start;
    sg->cell[G] = goal;
    int64_t ns = 0, nd = 0;
    uint32_t gen = next_gen(sg);
    int32_t ng = scan(sg, goal, sg->list, sg->ldir);
    if (ng == 0) return GB_SG_UNREACHABLE;
    for (int32_t i = 0; i < ng; i++) sg->gmark[sg->list[i]] = gen;
    int32_t k = 0, i;
    if (sg->nt) {   /* sg-tl-dt: no search */
        for (i = 0; i < ng; i++) sg->gkey[sg->list[i]] = oct_key(sg->xy[sg->list[i]], sg->xy[G]);
        k = table_query(sg, ng, gen, st);
        if (k == 0) return GB_SG_UNREACHABLE;
    } else {
        if (sg->two_level) extra_edges(sg, ng, gen);
        int32_t nstart = scan(sg, start, sg->list, sg->ldir);
        if (nstart == 0) return GB_SG_UNREACHABLE;
        uint64_t max_exp = max_expanded ? max_expanded : UINT64_MAX;
        int found = sg->two_level ? astar_tl(sg, nstart, st, max_exp, deadline_ns)
                                  : astar_simple(sg, nstart, st, max_exp, deadline_ns);
        if (found < 0) return GB_SG_LIMIT;
        if (!found) return GB_SG_UNREACHABLE;
        /* graph path */
        for (int32_t v = G; v >= 0; v = sg->parent[v]) k++;
        i = k;
        for (int32_t v = G; v >= 0; v = sg->parent[v]) sg->gpath[--i] = v;
    }
    /* its length in cells */
    int64_t steps = 0;
    for (i = 0; i + 1 < k; i++) steps += cheb(sg->xy[sg->gpath[i]], sg->xy[sg->gpath[i + 1]]);
    if (steps >= cap) { errno = ERANGE; return -1; }
    refine(sg, k, path, &ns, &nd);
    *len = (int32_t)steps + 1;
    *cost = (double)ns + (double)nd * GB_SQRT2;
    return GB_SG_FOUND;
}

/* ---- the simple graph for sg-ch (gb_subgoal.h) ------------------------- */

int32_t gb_sg_nodes(const gb_sg *sg) { return sg->n; }

int32_t gb_sg_cell(const gb_sg *sg, int32_t v) { return sg->cell[v]; }

void gb_sg_csr(const gb_sg *sg, const int32_t **off, const int32_t **to)
{
    *off = sg->adj_off;
    *to = sg->adj_to;
}

int32_t gb_sg_scan(const gb_sg *sg, int32_t c, int32_t *out, uint8_t *last)
{
    return scan(sg, c, out, last);
}

int gb_sg_dfirst_legal(const gb_grid *g, int32_t a, int32_t b)
{
    sg_xy pa = { gb_grid_x(g, a), gb_grid_y(g, a) }, pb = { gb_grid_x(g, b), gb_grid_y(g, b) };
    return dfirst_legal(g, a, pa, pb);
}

int32_t gb_sg_dfirst_emit(const gb_grid *g, int32_t a, int32_t b, int rev, int32_t *out,
                          int64_t *ns, int64_t *nd)
{
    sg_xy pa = { gb_grid_x(g, a), gb_grid_y(g, a) }, pb = { gb_grid_x(g, b), gb_grid_y(g, b) };
    return seg_emit(g->stride, pa, pb, a, b, rev, out, ns, nd);
}

int gb_sg_query_begin(const gb_grid *g, int32_t start, int32_t goal, int32_t *path, int32_t cap,
                      int32_t *len, double *cost)
{
    sg_xy a, b;
    return query_begin(g, start, goal, path, cap, len, cost, &a, &b);
}

uint8_t gb_sg_move_mask(const gb_grid *g, int32_t a, int32_t b)
{
    sg_xy pa = { gb_grid_x(g, a), gb_grid_y(g, a) }, pb = { gb_grid_x(g, b), gb_grid_y(g, b) };
    return move_mask(pa, pb);
}

uint8_t gb_sg_turn_prune(const gb_sg *sg, int32_t c, unsigned in_mask)
{
    return turn_prune(sg, c, in_mask);
}
