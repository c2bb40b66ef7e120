/*
 * gb_anya.c -- the Anya family ("anya"): optimal any-angle search in the
 * GPPC model (corners, walls may be grazed; harness/check/gb_aagppc.h),
 * after Harabor & Grastien, "An Optimal Any-Angle Pathfinding Algorithm"
 * (ICAPS 2013) and Harabor, Grastien, Oz & Aksakalli, "Optimal Any-Angle
 * Pathfinding In Practice" (JAIR 2016).  Runs only with spec.aa_gppc.
 *
 * Geometry.  Line y is the horizontal grid line through the corners
 * (x, y); cell row j lies between lines j and j + 1.  A RUN of row j is a
 * maximal set of free cells L .. R-1, read as the closed range [L, R].
 * A non-horizontal segment is legal exactly when, in each cell row it
 * crosses, its x-range lies in one run, and no point where it crosses a
 * line strictly between its ends is a double corner (that happens only
 * where two runs of adjacent rows meet in one point).  A horizontal one
 * is legal when each unit piece has a free cell on one side and no inner
 * lattice point is a double corner: hl/hr below.
 *
 * Search nodes.  A node is (I, r): an interval I = [a, b] on line y and
 * a root r, a lattice point with its best g, such that every point of I
 * is seen from r (the segment is legal).  Flat nodes have r on line y
 * (I = [hl, rx] or [rx, hr]); cone nodes have r above (the cone goes
 * down) or below.  Endpoints are exact rationals: each lies on a ray from
 * r through a lattice point, so after reduction the denominator is at
 * most the map's height and products fit in int64.
 *   f = g(r) + h, h = min over p in I of |rp| + |pt|: the goal mirrored
 *   across line y when it lies on r's side, the line r-t clamped to I.
 *
 * Successors of a cone node (going down; up is the mirror), for each run
 * [L, R] of the row ahead that meets I in [c, d] (skipped when [c, d] is
 * one double corner):
 *   observable      ([c', d'] clipped to [L, R], r) on the next line,
 *                   c', d' the projections of c, d from r;
 *   at c, (A)       c = a and the corner's one blocked cell is behind-left:
 *                   root c, the flat [hl, c] and the cone [L, c'];
 *         (B)       c = L, its one blocked cell ahead-left and rx < c:
 *                   root c, the cone [c, c'];
 *   at d, (A'), (B') the mirrors.
 * Successors of a flat node: at each convex corner k on it whose blocked
 * cell is behind (the side of r), root k and the cone [k, run end] into
 * the row of that cell's free neighbour.  The start s gets the flats both
 * ways and the cones into the rows above and below.
 *
 * Invariants.
 *   - every root is the start or a convex corner (one blocked cell
 *     around it), never a double corner, so the only V1/V2 questions are
 *     at s and t: a start on a double corner (its NE and SW cells
 *     blocked) gets only the successors of its south-east quadrant, and a
 *     goal on one is accepted only from a root r with r.x >= t.x and
 *     r.y >= t.y;
 *   - g[root] (the workspace's g, by corner id) is the best g the root
 *     was reached with, parent[root] its root; a node keeps the g it was
 *     made with, and is stale, and skipped, when its root improved since.
 *
 * Correctness.  Legality: a cone crosses a line only where both runs
 * contain the point, and never at a single-point meeting of two runs,
 * which is the one place a double corner can be; so every node's points
 * are seen from its root (R1-R4), by induction over the projections.
 * Completeness: a shortest path bends only at convex corners, taut around
 * the blocked cell (gb_aaoracle.h).  The start's nodes cover every
 * direction from s (its south-east quadrant on a double corner, V2), and
 * a projection keeps every point whose segment from the root is legal,
 * so each segment u-v of the path runs through a chain of u's nodes.  At
 * a bend v, let u-v arrive in a cone: when v's blocked cell is behind,
 * it hides the line beyond v from u, so v is the end a (or b) of I: rule
 * (A); when it is ahead, v is the run end L (or R), and the bend is taut
 * only when u lies strictly on the other side (rx < v.x): rule (B).  When
 * u-v runs along a line, the flat rule applies.  In each case tautness
 * puts the next segment inside the flat or cone the rule makes with root
 * v.  So the optimal path is a chain of nodes; f is admissible, and the
 * first popped node holding t (V2 allowing) gives the optimum.  Root
 * pruning (a root's successors are made only when its g strictly
 * improves) is safe: if an optimal path reaches v with g2 >= g1, the g of
 * the arrival kept, putting the kept arrival's prefix in its place gives
 * a path no longer, hence optimal, hence taut at v, and its continuation
 * lies in the nodes made for the kept arrival.  Intermediate pruning (a
 * lone observable successor that does not hold t is expanded at once,
 * not queued) only expands nodes early, and never takes one for the
 * goal, so the first goal popped is still optimal.  Cul-de-sac pruning
 * (a cone node is not made when every cell of the row ahead that its
 * expansion would scan is blocked, or that row is off the map, and it
 * does not hold t on its line) drops only nodes that have no successor
 * and cannot be the goal's node, so no path is lost.
 *
 * Per map (prepare): rl/rr, the run of each free cell; hl/hr, the
 * farthest x a horizontal segment from each corner reaches; the node pool
 * and heap, grown by doubling during a search when full (kept across
 * queries, so a warm search allocates nothing; when the pool cannot
 * grow, the search stops with GB_LIMIT, as at --max-expanded).
 *
 * Counters: expanded (nodes expanded, from the heap or at once),
 * generated (nodes made), stale, pushes, pops, peak_open of the own heap;
 * scanned = the cells and corners the run and flat scans stepped over.
 *
 * Time complexity: per expansion, O(cells of I's row scanned) for a cone,
 * O(length) for a flat; the build is O(cells).
 */
#include "gb_family.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "gb_los.h"

/* ---- exact rationals ---------------------------------------------------- */

typedef struct rat { int64_t n, d; } rat;   /* n / d, d > 0, reduced */

static int64_t gcd64(int64_t a, int64_t b)
{
    if (a < 0) a = -a;
    while (b) { const int64_t t = a % b; a = b; b = t; }
    return a;
}

static rat rmk(int64_t n, int64_t d)
{
    if (d < 0) { n = -n; d = -d; }
    const int64_t g = gcd64(n, d);
    if (g > 1) { n /= g; d /= g; }
    return (rat){ n, d };
}

static inline rat rint_(int64_t k) { return (rat){ k, 1 }; }
static inline int rcmp(rat a, rat b)
{
    const int64_t l = a.n * b.d, r = b.n * a.d;
    return l < r ? -1 : l > r;
}
static inline int rcmpi(rat a, int64_t k) { return rcmp(a, rint_(k)); }
static inline rat rmax(rat a, rat b) { return rcmp(a, b) >= 0 ? a : b; }
static inline rat rmin(rat a, rat b) { return rcmp(a, b) <= 0 ? a : b; }
static inline double rdbl(rat a) { return (double)a.n / (double)a.d; }
/* floor and ceiling of a >= 0 */
static inline int64_t rfloor(rat a) { return a.n / a.d; }
static inline int64_t rceil(rat a) { return (a.n + a.d - 1) / a.d; }

/* The point p on line y, seen from root (rx, ry) (ry != y), projected
 * onto line ny along the ray from the root. */
static rat proj(rat p, int32_t y, int32_t rx, int32_t ry, int32_t ny)
{
    const int64_t dy = (int64_t)y - ry, dn = (int64_t)ny - ry;
    return rmk((int64_t)rx * p.d * dy + (p.n - (int64_t)rx * p.d) * dn, p.d * dy);
}

/* ---- per-map state and the node pool -------------------------------------- */

typedef struct anode {
    rat a, b;       /* the interval [a, b] on line y (x coordinates), a <= b */
    double f;       /* g + h */
    double g;       /* g of the root when the node was made */
    int32_t y;      /* its line */
    int32_t root;   /* the root's corner id */
} anode;

typedef struct anya_state {
    int32_t *rl, *rr;   /* per id of a free cell: its run is cells rl .. rr - 1 of its row */
    int32_t *hl, *hr;   /* per corner id: the least / largest x a legal horizontal
                           segment from the corner reaches on its line */
    anode *node;        /* the nodes of the current query, node[0 .. nn) */
    int32_t *heap;      /* binary heap of node indices: min f, then max g */
    int64_t cap;        /* capacity of node[] and heap[] */
    size_t ncells;      /* the grid's padded cells (for the byte count) */
} anya_state;

#define ANYA_CAP0 4096
#define ANYA_PEND 4   /* pending successors held back for intermediate pruning */

static size_t anya_bytes(int32_t width, int32_t height, const gb_solver_spec *s)
{
    (void)s;
    const size_t nc = ((size_t)width + 2) * ((size_t)height + 2);
    return sizeof(anya_state) + 4 * nc * sizeof(int32_t)
         + ANYA_CAP0 * (sizeof(anode) + sizeof(int32_t));
}

/* The state's bytes once built: the tables and the pool as grown. */
static size_t anya_state_bytes(const void *state)
{
    const anya_state *A = state;
    return sizeof *A + 4 * A->ncells * sizeof(int32_t)
         + (size_t)A->cap * (sizeof(anode) + sizeof(int32_t));
}

static void anya_release(void *state)
{
    anya_state *A = state;
    if (!A) return;
    gb_free(A->rl);
    gb_free(A->rr);
    gb_free(A->hl);
    gb_free(A->hr);
    gb_free(A->node);
    gb_free(A->heap);
    gb_free(A);
}

static int anya_prepare(gb_ws *ws, const gb_solver_spec *s, void **state)
{
    (void)s;
    const gb_grid *g = ws->grid;
    const size_t nc = (size_t)g->ncells;
    const int32_t W = g->width, H = g->height, S = g->stride;
    const uint8_t *pass = g->pass;
    anya_state *A = gb_calloc(1, sizeof *A);
    if (!A) { errno = ENOMEM; return -1; }
    A->rl = gb_malloc(nc * sizeof *A->rl);
    A->rr = gb_malloc(nc * sizeof *A->rr);
    A->hl = gb_malloc(nc * sizeof *A->hl);
    A->hr = gb_malloc(nc * sizeof *A->hr);
    A->node = gb_malloc(ANYA_CAP0 * sizeof *A->node);
    A->heap = gb_malloc(ANYA_CAP0 * sizeof *A->heap);
    if (!A->rl || !A->rr || !A->hl || !A->hr || !A->node || !A->heap) {
        anya_release(A);
        errno = ENOMEM;
        return -1;
    }
    A->cap = ANYA_CAP0;
    A->ncells = nc;
    for (int32_t j = 0; j < H; j++) {            /* runs of each cell row */
        const int32_t base = (j + 1) * S + 1;    /* id of cell (0, j) */
        int32_t x = 0;
        while (x < W) {
            if (!pass[base + x]) { A->rl[base + x] = A->rr[base + x] = -1; x++; continue; }
            int32_t e = x;
            while (e < W && pass[base + e]) e++;
            for (int32_t k = x; k < e; k++) { A->rl[base + k] = x; A->rr[base + k] = e; }
            x = e;
        }
    }
    for (int32_t y = 0; y <= H; y++) {           /* horizontal reach along each line */
        const int32_t c0 = (y + 1) * S + 1;      /* id of corner (0, y) */
        /* piece [x, x+1] of line y: a free cell above (x, y-1) or below (x, y) */
#define PIECE(x) (pass[c0 + (x) - S] || pass[c0 + (x)])
        for (int32_t x = W; x >= 0; x--)
            A->hr[c0 + x] = x == W || !PIECE(x) ? x
                          : gb_los_gppc_double(pass, S, c0 + x + 1) ? x + 1 : A->hr[c0 + x + 1];
        for (int32_t x = 0; x <= W; x++)
            A->hl[c0 + x] = x == 0 || !PIECE(x - 1) ? x
                          : gb_los_gppc_double(pass, S, c0 + x - 1) ? x - 1 : A->hl[c0 + x - 1];
#undef PIECE
    }
    *state = A;
    return 0;
}

/* ---- the search ----------------------------------------------------------- */

typedef struct actx {
    gb_ws *ws;
    anya_state *A;
    const uint8_t *pass;
    int32_t S, W, H;        /* stride, width, height */
    int32_t tx, ty;         /* the goal */
    int tdbl;               /* the goal is a double corner (V2) */
    uint32_t open;          /* stamp of a root reached this query */
    int64_t nn, hn;         /* nodes made, heap size */
    uint64_t generated, scanned, pushes, pops, peak;
    int oom;                /* the pool could not grow */
    int defer;              /* push() puts new nodes on pend[] */
    int npend;              /* nodes on pend[] */
    int32_t pend[ANYA_PEND]; /* nodes made by the expansion in progress */
} actx;

static inline int32_t cid(const actx *c, int64_t x, int64_t y)
{
    return (int32_t)((y + 1) * c->S + x + 1);
}

static inline double dist2(double ax, double ay, double bx, double by)
{
    const double dx = bx - ax, dy = by - ay;
    return sqrt(dx * dx + dy * dy);
}

/* h of interval [a, b] on line y with root (rx, ry). */
static double heur(const actx *c, rat a, rat b, int32_t y, int32_t rx, int32_t ry)
{
    double ty = c->ty;
    if ((ry < y && c->ty < y) || (ry > y && c->ty > y)) ty = 2.0 * y - c->ty;
    double px = rx;
    if (ry != y) px = rx + (c->tx - rx) * (double)(y - ry) / (ty - ry);
    const double lo = rdbl(a), hi = rdbl(b);
    if (px < lo) px = lo;
    if (px > hi) px = hi;
    return dist2(rx, ry, px, y) + dist2(px, y, c->tx, c->ty);
}

static int before(const anode *n, int32_t i, int32_t j)
{
    return n[i].f < n[j].f || (n[i].f == n[j].f && n[i].g > n[j].g);
}

static void heap_insert(actx *c, int32_t k)
{
    anya_state *A = c->A;
    c->pushes++;
    int64_t i = c->hn++;
    if ((uint64_t)c->hn > c->peak) c->peak = (uint64_t)c->hn;
    int32_t *h = A->heap;
    while (i > 0 && before(A->node, k, h[(i - 1) / 2])) { h[i] = h[(i - 1) / 2]; i = (i - 1) / 2; }
    h[i] = k;
}

/* Cul-de-sac: cone node [a, b] on line y with root row ry has no
 * successor when every cell of the row ahead that expand_cone would scan
 * is blocked (or that row is off the map), and it cannot be the goal's
 * node when it does not hold t. */
static int culdesac(actx *c, rat a, rat b, int32_t y, int32_t ry)
{
    if (ry == y) return 0; /* a flat node: not tested */
    if (y == c->ty && rcmpi(a, c->tx) <= 0 && rcmpi(b, c->tx) >= 0) return 0;
    const int32_t j = y > ry ? y : y - 1;
    if (j < 0 || j >= c->H) return 1;
    int64_t x = rceil(a) - 1, xe = rfloor(b);
    if (x < 0) x = 0;
    if (xe > c->W - 1) xe = c->W - 1;
    for (const uint8_t *p = c->pass + cid(c, x, j); x <= xe; x++, p++)
        if (*p) return 0;
    return 1;
}

/* Make a node; into the heap, or, while c->defer, onto the pending list
 * (the caller inserts it, or expands it at once: intermediate pruning).
 * A cul-de-sac is not made at all. */
static void push(actx *c, rat a, rat b, int32_t y, int32_t root, double g)
{
    anya_state *A = c->A;
    if (culdesac(c, a, b, y, root / c->S - 1)) return;
    if (c->nn == A->cap) {
        const int64_t cap = 2 * A->cap;
        anode *nd = gb_realloc(A->node, (size_t)cap * sizeof *nd);
        if (nd) A->node = nd;
        int32_t *hp = gb_realloc(A->heap, (size_t)cap * sizeof *hp);
        if (hp) A->heap = hp;
        if (!nd || !hp || cap > INT32_MAX) { c->oom = 1; return; }
        A->cap = cap;
    }
    const int32_t rx = root % c->S - 1, ry = root / c->S - 1;
    const int32_t k = (int32_t)c->nn++;
    anode *n = &A->node[k];
    n->a = a;
    n->b = b;
    n->y = y;
    n->root = root;
    n->g = g;
    n->f = g + heur(c, a, b, y, rx, ry);
    c->generated++;
    if (c->defer && c->npend < ANYA_PEND) c->pend[c->npend++] = k;
    else heap_insert(c, k);
}

static int32_t pop(actx *c)
{
    int32_t *h = c->A->heap;
    const anode *n = c->A->node;
    const int32_t top = h[0], last = h[--c->hn];
    c->pops++;
    int64_t i = 0;
    for (;;) {
        int64_t l = 2 * i + 1;
        if (l >= c->hn) break;
        if (l + 1 < c->hn && before(n, h[l + 1], h[l])) l++;
        if (!before(n, h[l], last)) break;
        h[i] = h[l];
        i = l;
    }
    if (c->hn > 0) h[i] = last;
    return top;
}

/* Root k (a corner id) reached from root r with gk: 1 when that improves
 * it (g and parent set), else 0. */
static int root_set(actx *c, int32_t k, int32_t r, double gk)
{
    gb_ws *ws = c->ws;
    if (ws->stamp[k] == c->open && gk >= ws->g[k]) return 0;
    ws->stamp[k] = c->open;
    ws->g[k] = gk;
    ws->parent[k] = r;
    return 1;
}

static inline int cfree(const actx *c, int64_t x, int64_t j)
{
    return c->pass[cid(c, x, j)];
}

/* The mask of blocked cells around corner (x, y): 1 NW, 2 NE, 4 SW, 8 SE. */
static inline unsigned around(const actx *c, int64_t x, int64_t y)
{
    const int32_t k = cid(c, x, y);
    const uint8_t *p = c->pass;
    return (p[k - c->S - 1] ? 0u : 1u) | (p[k - c->S] ? 0u : 2u) | (p[k - 1] ? 0u : 4u)
         | (p[k] ? 0u : 8u);
}

/* The cone from corner root k (g gk) over [lo, hi] on line ny, when not empty. */
static void cone(actx *c, rat lo, rat hi, int32_t ny, int32_t k, double gk)
{
    if (rcmp(lo, hi) <= 0) push(c, lo, hi, ny, k, gk);
}

/* The piece [cc, dd] of cone node n (root (rx, ry), g gr) over the run
 * [L, R] of row j ahead; jb is the row behind, ny the next line. */
static void piece(actx *c, const anode *n, int32_t rx, int32_t ry, int32_t j, int32_t jb,
                  int32_t ny, rat cc, rat dd, int32_t L, int32_t R)
{
    const int32_t y = n->y;
    const double gr = n->g;
    if (rcmp(cc, dd) == 0 && cc.d == 1
        && gb_los_gppc_double(c->pass, c->S, cid(c, cc.n, y)))
        return;                                     /* one double corner: no way through */
    const rat lo = rmax(proj(cc, y, rx, ry, ny), rint_(L));
    const rat hi = rmin(proj(dd, y, rx, ry, ny), rint_(R));
    if (rcmp(lo, hi) <= 0) push(c, lo, hi, ny, n->root, gr);   /* observable */
    if (cc.d == 1) {
        const int64_t k = cc.n;
        const int bl = !cfree(c, k - 1, jb), br = !cfree(c, k, jb);
        const int al = !cfree(c, k - 1, j), ar = !cfree(c, k, j);
        const int32_t kid = cid(c, k, y);
        if (bl && !br && !al && !ar && rcmp(cc, n->a) == 0) {                    /* (A) */
            const double gk = gr + dist2(rx, ry, (double)k, y);
            if (root_set(c, kid, n->root, gk)) {
                const int32_t h = c->A->hl[kid];
                if (h < k) push(c, rint_(h), rint_(k), y, kid, gk);
                cone(c, rint_(L), rmin(proj(rint_(k), y, rx, ry, ny), rint_(R)), ny, kid, gk);
            }
        } else if (al && !bl && !br && !ar && k == L && rx < k) {                /* (B) */
            const double gk = gr + dist2(rx, ry, (double)k, y);
            if (root_set(c, kid, n->root, gk))
                cone(c, rint_(k), rmin(proj(rint_(k), y, rx, ry, ny), rint_(R)), ny, kid, gk);
        }
    }
    if (dd.d == 1) {
        const int64_t k = dd.n;
        const int bl = !cfree(c, k - 1, jb), br = !cfree(c, k, jb);
        const int al = !cfree(c, k - 1, j), ar = !cfree(c, k, j);
        const int32_t kid = cid(c, k, y);
        if (br && !bl && !al && !ar && rcmp(dd, n->b) == 0) {                    /* (A') */
            const double gk = gr + dist2(rx, ry, (double)k, y);
            if (root_set(c, kid, n->root, gk)) {
                const int32_t h = c->A->hr[kid];
                if (h > k) push(c, rint_(k), rint_(h), y, kid, gk);
                cone(c, rmax(proj(rint_(k), y, rx, ry, ny), rint_(L)), rint_(R), ny, kid, gk);
            }
        } else if (ar && !bl && !br && !al && k == R && rx > k) {                /* (B') */
            const double gk = gr + dist2(rx, ry, (double)k, y);
            if (root_set(c, kid, n->root, gk))
                cone(c, rmax(proj(rint_(k), y, rx, ry, ny), rint_(L)), rint_(k), ny, kid, gk);
        }
    }
}

static void expand_cone(actx *c, const anode *n, int32_t rx, int32_t ry)
{
    const int32_t y = n->y, dir = y > ry ? 1 : -1, ny = y + dir;
    const int32_t j = dir > 0 ? y : y - 1, jb = dir > 0 ? y - 1 : y;
    if (j < 0 || j >= c->H) return;
    int64_t x = rceil(n->a) - 1;
    if (x < 0) x = 0;
    int64_t xe = rfloor(n->b);
    if (xe > c->W - 1) xe = c->W - 1;
    while (x <= xe) {
        const int32_t id = cid(c, x, j);
        c->scanned++;
        if (!c->pass[id]) { x++; continue; }
        const int32_t L = c->A->rl[id], R = c->A->rr[id];
        const rat cc = rmax(n->a, rint_(L)), dd = rmin(n->b, rint_(R));
        if (rcmp(cc, dd) <= 0) piece(c, n, rx, ry, j, jb, ny, cc, dd, L, R);
        x = (int64_t)R + 1;
    }
}

/* The cone from k into cell row j (line ny = j or j + 1) over the run of
 * cell (x, j), from x0 to the run's end on the side `right`. */
static void flat_cone(actx *c, int32_t k, int32_t kid, int32_t cellx, int32_t j, int32_t ny,
                      int right, double gk, int32_t r)
{
    if (!root_set(c, kid, r, gk)) return;
    const int32_t id = cid(c, cellx, j);
    if (right) push(c, rint_(k), rint_(c->A->rr[id]), ny, kid, gk);
    else push(c, rint_(c->A->rl[id]), rint_(k), ny, kid, gk);
}

static void expand_flat(actx *c, const anode *n, int32_t rx)
{
    const int32_t y = n->y;
    if (rcmpi(n->b, rx) > 0) {                     /* going right: [rx, b] */
        const int64_t b = rfloor(n->b);
        for (int64_t k = (int64_t)rx + 1; k <= b; k++) {
            c->scanned++;
            const unsigned m = around(c, k, y);
            if (m == 1u)        /* NW blocked: up, right of k */
                flat_cone(c, (int32_t)k, cid(c, k, y), (int32_t)k, y - 1, y - 1, 1,
                          n->g + (double)(k - rx), n->root);
            else if (m == 4u)   /* SW blocked: down, right of k */
                flat_cone(c, (int32_t)k, cid(c, k, y), (int32_t)k, y, y + 1, 1,
                          n->g + (double)(k - rx), n->root);
        }
    } else {                                       /* going left: [a, rx] */
        const int64_t a = rceil(n->a);
        for (int64_t k = (int64_t)rx - 1; k >= a; k--) {
            c->scanned++;
            const unsigned m = around(c, k, y);
            if (m == 2u)        /* NE blocked: up, left of k */
                flat_cone(c, (int32_t)k, cid(c, k, y), (int32_t)k - 1, y - 1, y - 1, 0,
                          n->g + (double)(rx - k), n->root);
            else if (m == 8u)   /* SE blocked: down, left of k */
                flat_cone(c, (int32_t)k, cid(c, k, y), (int32_t)k - 1, y, y + 1, 0,
                          n->g + (double)(rx - k), n->root);
        }
    }
}

/* The successors of the start s = (sx, sy), corner id sid. */
static void expand_start(actx *c, int32_t sx, int32_t sy, int32_t sid)
{
    const int dbl = gb_los_gppc_double(c->pass, c->S, sid) != 0;   /* V2: south-east only */
    const int32_t hr = c->A->hr[sid], hl = c->A->hl[sid];
    if (hr > sx) push(c, rint_(sx), rint_(hr), sy, sid, 0.0);
    if (!dbl && hl < sx) push(c, rint_(hl), rint_(sx), sy, sid, 0.0);
    for (int up = 0; up < 2; up++) {
        const int32_t j = up ? sy - 1 : sy, ny = up ? sy - 1 : sy + 1;
        if (j < 0 || j >= c->H || (up && dbl)) continue;
        int32_t id = cid(c, sx, j);
        if (!c->pass[id]) id = cid(c, sx - 1, j);
        if (!c->pass[id]) continue;
        int32_t L = c->A->rl[id], R = c->A->rr[id];
        if (dbl && L < sx) L = sx;
        push(c, rint_(L), rint_(R), ny, sid, 0.0);
    }
}

static void anya_search(gb_ws *ws, const gb_solver_spec *s, int32_t start, int32_t goal,
                        gb_result *out)
{
    const gb_grid *grid = ws->grid;
    actx c;
    memset(&c, 0, sizeof c);
    c.ws = ws;
    c.A = ws->fam[s->algo];
    c.pass = grid->pass;
    c.S = grid->stride;
    c.W = grid->width;
    c.H = grid->height;
    c.open = 2u * ws->gen;
    const int32_t sx = start % c.S - 1, sy = start / c.S - 1;
    c.tx = goal % c.S - 1;
    c.ty = goal / c.S - 1;
    c.tdbl = gb_los_gppc_double(c.pass, c.S, goal) != 0;
    const uint64_t max_exp = s->max_expanded ? s->max_expanded : UINT64_MAX;
    const int64_t deadline = gb_deadline_of(s);
    uint64_t n_expanded = 0, n_stale = 0;
    gb_result_status status = GB_UNREACHABLE;
    int32_t last = -1;   /* the root of the node that reached the goal */
    double cost = 0.0;

    if (start == goal) {
        ws->stamp[start] = c.open + 1u;
        ws->g[start] = 0.0;
        ws->parent[start] = -1;
        status = GB_FOUND;
    } else if (grid->pass[start] && grid->pass[goal]) {
        ws->stamp[start] = c.open;
        ws->g[start] = 0.0;
        ws->parent[start] = -1;
        expand_start(&c, sx, sy, start);
        n_expanded = 1;
        while (c.hn > 0 && !c.oom) {
            anode n = c.A->node[pop(&c)];
            if (n.g > ws->g[n.root]) { n_stale++; continue; }
            const int32_t rx = n.root % c.S - 1, ry = n.root / c.S - 1;
            if (n.y == c.ty && rcmpi(n.a, c.tx) <= 0 && rcmpi(n.b, c.tx) >= 0
                && (!c.tdbl || (rx >= c.tx && ry >= c.ty))) {
                last = n.root;
                cost = n.g + dist2(rx, ry, c.tx, c.ty);
                status = GB_FOUND;
                break;
            }
            for (;;) {
                if (++n_expanded > max_exp || gb_over_time(n_expanded, deadline)) {
                    status = GB_LIMIT;
                    break;
                }
                c.defer = 1;
                c.npend = 0;
                if (ry == n.y) expand_flat(&c, &n, rx);
                else expand_cone(&c, &n, rx, ry);
                c.defer = 0;
                /* intermediate pruning: a lone observable successor (same
                 * root, a cone) that does not hold the goal is expanded
                 * now; holding the goal, it must come off the heap */
                if (c.npend == 1 && !c.oom) {
                    const anode *m = &c.A->node[c.pend[0]];
                    if (m->root == n.root && m->y != ry
                        && !(m->y == c.ty && rcmpi(m->a, c.tx) <= 0 && rcmpi(m->b, c.tx) >= 0)) {
                        n = *m;
                        continue;
                    }
                }
                for (int i = 0; i < c.npend; i++) heap_insert(&c, c.pend[i]);
                break;
            }
            if (status == GB_LIMIT) break;
        }
        if (c.oom && status == GB_UNREACHABLE) status = GB_LIMIT;
    }
    gb_stats st;
    memset(&st, 0, sizeof st);
    st.expanded = n_expanded;
    st.generated = c.generated;
    st.stale = n_stale;
    st.scanned = c.scanned;
    st.pushes = c.pushes;
    st.pops = c.pops;
    st.peak_open = c.peak;
    out->st = st;
    out->status = status;
    if (status == GB_FOUND) {
        if (start != goal) {
            ws->stamp[goal] = c.open + 1u;
            ws->g[goal] = cost;
            ws->parent[goal] = last;
        }
        out->cost = ws->g[goal];
        gb_path_build(ws, goal, NULL, out);
    } else {
        gb_result_nopath(ws, out);
    }
}

static const gb_search_fn anya_fn[1] = { anya_search };

static const gb_form anya_forms[] = {
    { .pattern = "anya", .wg = 1.0, .heur = GB_H_EUCLIDEAN,
      .desc = "Anya (Harabor & Grastien 2013): optimal any-angle search over intervals of "
              "grid lines, exact rational endpoints; --anyangle-model gppc only; optimal "
              "against the exact any-angle optimum" },
};

const gb_family gb_family_anya = {
    .forms = anya_forms, .nforms = GB_COUNTOF(anya_forms),
    .all = NULL, .nall = 0,
    .models = (1u << GB_MODEL_8_NOCUT) | (1u << GB_MODEL_4),
    .dirs = 0,
    .bytes = anya_bytes, .prepare = anya_prepare, .release = anya_release,
    .fn = anya_fn, .fn_queues = 1, .fn_heurs = 1,
    .queue_label = "own-heap", .state_bytes = anya_state_bytes,
    .anyangle = 1,
    .aa_optimal = 1,
};
