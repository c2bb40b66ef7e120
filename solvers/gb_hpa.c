/*
 * gb_hpa.c -- the HPA* family ("hpa:c=C"): hierarchical path-finding A*
 * (Botea, Mueller & Schaeffer, "Near optimal hierarchical path-finding",
 * J. Game Development 1(1), 2004), one abstraction level, model 8-nocut.
 * Suboptimal: its rows carry guarantee `none` and the run measures the
 * suboptimality against the Dijkstra oracle (subopt column).
 *
 * Abstraction (built per map and per cluster size C by prepare, timed
 * into prep_ns, never inside gb_solve):
 *   clusters  the map cut into C x C blocks from the top-left corner (the
 *             last row and column of blocks may be narrower); cluster
 *             (cx, cy) has index cy * ncx + cx;
 *   entrances on the border between two adjacent clusters, a maximal run
 *             of positions where the two facing cells are both free (the
 *             border of one cluster pair only: runs end at block corners);
 *   transitions as in the paper: a run shorter than HPA_LONG (6) gets one
 *             transition, at its middle; a longer one two, at its ends.
 *             A transition is the pair of facing cells; each becomes an
 *             abstract node (a cell is one node, even when it is a
 *             transition of two borders), joined by an inter edge of cost 1;
 *   intra edges between every two nodes of one cluster that connect inside
 *             it, with the cost of a shortest path that stays in the
 *             cluster (one Dijkstra per node, bounded to the cluster).
 *   Storage: edges in CSR (adj_first/adj_to/adj_cost by node), nodes by
 *   cluster in CSR (cl_first/cl_node), node_of[cell] (-1: not a node).
 *
 * Query (no allocation: every buffer is sized in prepare):
 *   1. insert: one Dijkstra from the start bounded to its cluster gives
 *      temporary edges S -> v for every node v of that cluster (and S -> G
 *      when the goal lies in the same cluster and is reached inside it);
 *      one from the goal bounded to the goal's cluster gives v -> G (moves
 *      are symmetric under 8-nocut, so distances from G are distances to G);
 *   2. abstract search: A* over nodes + {S, G}, octile heuristic, a node
 *      closed when popped, stop when G is popped;
 *   3. refine: each abstract edge between two cells of one cluster by an A*
 *      bounded to that cluster (same cost as the edge: both are the
 *      in-cluster optimum), an inter edge by its single step.  The cell
 *      path goes to the workspace's path buffer and the validator checks
 *      every step; the cost is recounted from the steps.
 *   No path smoothing (the paper's optional last step).
 *
 * Invariants.  Every edge cost is the cost of a legal path between its
 * cells (intra: inside the cluster; inter: one straight step), so the
 * refined path is legal and its cost is the abstract cost.  An edge's cost
 * is at least the octile distance of its endpoints, so the heuristic is
 * consistent on the abstract graph and closing nodes is safe (for the
 * abstract optimum).
 *
 * Completeness (it finds a path iff one exists).  A grid path leaves a
 * cluster either by a straight step across a border, between two free
 * facing cells, i.e. inside some entrance run, or by a diagonal step at a
 * block corner, which under no corner cutting has both orthogonal cells
 * free and so can be replaced by two straight steps, each across a
 * border.  The cells of one run on one side are a free straight segment
 * inside that side's cluster, so every crossing point of a run is joined
 * inside both clusters to the run's transition; the pieces of the path
 * inside a cluster join its transitions (intra edges), start and goal join
 * theirs (insertion).  Hence the abstract graph connects S and G whenever
 * the grid does.  Cost: not optimal (paths pass through transitions);
 * never below the optimum, being a legal path.
 *
 * Counters: expanded and generated count everything the query searches --
 * the two insertion Dijkstras, the abstract A* and the refinement A*s (the
 * paper's view: all of it is query time); pushes/pops likewise;
 * peak_open is the abstract heap's.  --max-expanded and --max-ms are
 * ignored (like the subgoal graphs).
 *
 * Several cluster sizes on one map: the family state keeps up to
 * HPA_MAX_GRAPHS graphs, one per C (holds/prep_ns hooks of gb_family.h);
 * mem_bytes then counts every graph held.
 *
 * Terrain costs (gb_terrain.h; a table of its own, fn_w): every step,
 * inter edges included, costs gb_grid_units / cscale (times sqrt2
 * diagonally), the heuristics are octile times the cheapest terrain cost
 * (admissible, so the in-cluster searches stay exact), and the reported
 * cost sums the units of the refined path's steps.  The local search and
 * the query are compiled per WT, so the uniform code has no test per
 * edge.
 *
 * Time complexity: build O(clusters * n^2 * C^2 log C) for n nodes per
 * cluster; query O(C^2 log C) to insert, O(E log V) on the abstract graph,
 * O(L * C^2 log C) to refine an abstract path of L edges.
 */
#include "gb_family.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define HPA_LONG 6          /* entrances of this length or more get two transitions */
#define HPA_MAX_GRAPHS 4    /* cluster sizes held per workspace */
#define HPA_MIN_C 2
#define HPA_MAX_C 1024
#define HPA_DEFAULT_C 16

/* ---- a lazy binary heap ordered by (f, larger g, id) -------------------- */

typedef struct hent { double f, g; int32_t id; } hent;
typedef struct hheap { hent *h; int32_t n, cap, peak; uint64_t pushes, pops; } hheap;

static inline int hent_before(const hent *a, const hent *b)
{
    if (a->f != b->f) return a->f < b->f;
    if (a->g != b->g) return a->g > b->g;
    return a->id < b->id;
}

static void hheap_push(hheap *q, int32_t id, double f, double g)
{
    int32_t i = q->n++;   /* cap is sized in prepare for the worst case */
    hent e = { f, g, id };
    while (i > 0) {
        int32_t p = (i - 1) / 2;
        if (!hent_before(&e, &q->h[p])) break;
        q->h[i] = q->h[p];
        i = p;
    }
    q->h[i] = e;
    if (q->n > q->peak) q->peak = q->n;
    q->pushes++;
}

static int32_t hheap_pop(hheap *q)
{
    int32_t top = q->h[0].id;
    hent e = q->h[--q->n];
    int32_t i = 0;
    for (;;) {
        int32_t c = 2 * i + 1;
        if (c >= q->n) break;
        if (c + 1 < q->n && hent_before(&q->h[c + 1], &q->h[c])) c++;
        if (!hent_before(&q->h[c], &e)) break;
        q->h[i] = q->h[c];
        i = c;
    }
    if (q->n > 0) q->h[i] = e;
    q->pops++;
    return top;
}

/* ---- one graph (one cluster size) ---------------------------------------- */

typedef struct hpa_graph {
    int32_t c;              /* cluster side */
    int32_t ncx, ncy;       /* clusters across and down */
    int32_t nnodes;         /* abstract nodes; ids nnodes, nnodes + 1 are S and G */
    int32_t maxcl;          /* most nodes in one cluster */
    int32_t *node_cell;     /* [nnodes] cell id of each node */
    int32_t *node_cl;       /* [nnodes] its cluster */
    int32_t *node_li;       /* [nnodes] its position in its cluster's node list */
    int32_t *node_of;       /* [ncells] node of a cell, -1 */
    int32_t *cl_first;      /* [nclusters + 1] CSR of nodes by cluster */
    int32_t *cl_node;       /* [nnodes] */
    int32_t *adj_first;     /* [nnodes + 1] CSR of edges by source node */
    int32_t *adj_to;        /* [nedges] */
    double *adj_cost;       /* [nedges] */
    int64_t nedges;         /* directed edges (inter and intra) */
    /* query buffers */
    double *ag;             /* [nnodes + 2] abstract g */
    int32_t *apar;          /* [nnodes + 2] abstract parent, -1 at S */
    uint32_t *astamp;       /* [nnodes + 2] 2*gen open, 2*gen + 1 closed */
    hheap aq;               /* abstract heap */
    double *sdist, *gdist;  /* [maxcl + 1] S -> node i of S's cluster, node i -> G */
    int32_t *abs_path;      /* [nnodes + 2] */
    double *lg;             /* [C*C] local search g */
    int32_t *lpar;          /* [C*C] local parent (local index), -1 at the source */
    uint32_t *lstamp;       /* [C*C] */
    hheap lq;               /* local heap, 8*C*C + 1 */
    uint32_t lgen, agen;
    double prep_ns;
    size_t bytes;           /* bytes asked of the allocator for this graph */
} hpa_graph;

typedef struct hpa_state {
    int ngraph;
    hpa_graph *gr[HPA_MAX_GRAPHS];
} hpa_state;

/* A rectangle of cells: map columns x0..x0+w-1, rows y0..y0+h-1. */
typedef struct rect { int32_t x0, y0, w, h; } rect;

static rect cluster_rect(const hpa_graph *G, const gb_grid *g, int32_t cl)
{
    rect r;
    r.x0 = (cl % G->ncx) * G->c;
    r.y0 = (cl / G->ncx) * G->c;
    r.w = g->width - r.x0 < G->c ? g->width - r.x0 : G->c;
    r.h = g->height - r.y0 < G->c ? g->height - r.y0 : G->c;
    return r;
}

static int32_t cluster_of_cell(const hpa_graph *G, const gb_grid *g, int32_t id)
{
    return (gb_grid_y(g, id) / G->c) * G->ncx + gb_grid_x(g, id) / G->c;
}

/* Counters of local searches. */
typedef struct lcount { uint64_t expanded, generated, pushes, pops; } lcount;

static inline double octile(int32_t dx, int32_t dy)
{
    if (dx < 0) dx = -dx;
    if (dy < 0) dy = -dy;
    int32_t lo = dx < dy ? dx : dy, hi = dx < dy ? dy : dx;
    return (double)(hi - lo) + GB_SQRT2 * (double)lo;
}

/* Best-first search bounded to rectangle r from cell src: with target < 0,
 * Dijkstra over all of r (lg/lstamp then hold the distances: a local index
 * li is reached when lstamp[li] >= 2 * lgen); else A* (octile) to target,
 * stopping when it is popped.  Returns the target's cost, or INFINITY. */
static inline GB_ALWAYS_INLINE double
local_search_(hpa_graph *G, const gb_grid *g, const uint8_t *moves, rect r, int32_t src,
              int32_t target, lcount *lc, const int WT)
{
    /* WT: the octile heuristic times the cheapest terrain cost */
    const double hs = WT ? 4.0 * (double)g->qmin / (double)g->cscale : 1.0;
    if (++G->lgen >= 0x7ffffffeu) {
        memset(G->lstamp, 0, (size_t)G->c * (size_t)G->c * sizeof *G->lstamp);
        G->lgen = 1;
    }
    const uint32_t open = 2u * G->lgen, closed = open + 1u;
    const int32_t c = G->c;
    const int32_t tx = target >= 0 ? gb_grid_x(g, target) : 0;
    const int32_t ty = target >= 0 ? gb_grid_y(g, target) : 0;
    hheap *q = &G->lq;
    q->n = 0;
    int32_t sx = gb_grid_x(g, src) - r.x0, sy = gb_grid_y(g, src) - r.y0;
    int32_t sli = sy * c + sx;
    G->lstamp[sli] = open;
    G->lg[sli] = 0.0;
    G->lpar[sli] = -1;
    hheap_push(q, sli, target >= 0 ? hs * octile(tx - gb_grid_x(g, src), ty - gb_grid_y(g, src)) : 0.0,
               0.0);
    double found = INFINITY;
    while (q->n > 0) {
        int32_t li = hheap_pop(q);
        if (G->lstamp[li] == closed) continue;
        G->lstamp[li] = closed;
        int32_t lx = li % c, ly = li / c;
        int32_t id = gb_grid_id(g, r.x0 + lx, r.y0 + ly);
        if (id == target) { found = G->lg[li]; break; }
        lc->expanded++;
        const double gid = G->lg[li];
        for (unsigned m = moves[id]; m; m &= m - 1) {
            const int k = __builtin_ctz(m);
            const int32_t nx = lx + gb_dir_dx[k], ny = ly + gb_dir_dy[k];
            if (nx < 0 || ny < 0 || nx >= r.w || ny >= r.h) continue;
            const int32_t nli = ny * c + nx;
            const uint32_t st = G->lstamp[nli];
            if (st == closed) continue;
            const double ng = gid + (WT ? (double)gb_grid_units(g, id, k) * gb_dir_cost[k]
                                              / (double)g->cscale : gb_dir_cost[k]);
            if (st == open && ng >= G->lg[nli]) continue;
            G->lstamp[nli] = open;
            G->lg[nli] = ng;
            G->lpar[nli] = li;
            lc->generated++;
            double h = target >= 0 ? hs * octile(tx - (r.x0 + nx), ty - (r.y0 + ny)) : 0.0;
            hheap_push(q, nli, ng + h, ng);
        }
    }
    lc->pushes += q->pushes;
    lc->pops += q->pops;
    q->pushes = q->pops = 0;
    return found;
}

static __attribute__((noinline)) double
local_search_u(hpa_graph *G, const gb_grid *g, const uint8_t *moves, rect r, int32_t src,
               int32_t target, lcount *lc)
{
    return local_search_(G, g, moves, r, src, target, lc, 0);
}

static __attribute__((noinline)) double
local_search_w(hpa_graph *G, const gb_grid *g, const uint8_t *moves, rect r, int32_t src,
               int32_t target, lcount *lc)
{
    return local_search_(G, g, moves, r, src, target, lc, 1);
}

/* The local search on costs or not: one test per search. */
static double local_search(hpa_graph *G, const gb_grid *g, const uint8_t *moves, rect r,
                           int32_t src, int32_t target, lcount *lc)
{
    return g->cost ? local_search_w(G, g, moves, r, src, target, lc)
                   : local_search_u(G, g, moves, r, src, target, lc);
}

/* After local_search: the local distance of cell id in r, or INFINITY. */
static double local_dist(const hpa_graph *G, const gb_grid *g, rect r, int32_t id)
{
    int32_t li = (gb_grid_y(g, id) - r.y0) * G->c + (gb_grid_x(g, id) - r.x0);
    return G->lstamp[li] == 2u * G->lgen + 1u ? G->lg[li] : INFINITY;
}

/* ---- building ------------------------------------------------------------ */

typedef struct edge { int32_t from, to; double cost; } edge;
typedef struct elist { edge *e; size_t n, cap; } elist;

static int elist_add(elist *L, int32_t a, int32_t b, double c)
{
    if (L->n == L->cap) {
        size_t cap = L->cap ? 2 * L->cap : 1024;
        edge *e = gb_realloc(L->e, cap * sizeof *e);
        if (!e) return -1;
        L->e = e;
        L->cap = cap;
    }
    L->e[L->n++] = (edge){ a, b, c };
    return 0;
}

static void *graph_alloc(hpa_graph *G, size_t n, size_t size)
{
    void *p = gb_calloc(n ? n : 1, size);
    if (p) G->bytes += (n ? n : 1) * size;
    return p;
}

static void graph_free(hpa_graph *G)
{
    if (!G) return;
    gb_free(G->node_cell); gb_free(G->node_cl); gb_free(G->node_li); gb_free(G->node_of);
    gb_free(G->cl_first); gb_free(G->cl_node); gb_free(G->adj_first); gb_free(G->adj_to);
    gb_free(G->adj_cost); gb_free(G->ag); gb_free(G->apar); gb_free(G->astamp);
    gb_free(G->aq.h); gb_free(G->sdist); gb_free(G->gdist); gb_free(G->abs_path);
    gb_free(G->lg); gb_free(G->lpar); gb_free(G->lstamp); gb_free(G->lq.h);
    gb_free(G);
}

/* The node of cell id, created when new (node_cell grows by doubling). */
static int32_t node_get(hpa_graph *G, int32_t id, int32_t *cap)
{
    if (G->node_of[id] >= 0) return G->node_of[id];
    if (G->nnodes == *cap) {
        int32_t nc = *cap ? 2 * *cap : 256;
        int32_t *p = gb_realloc(G->node_cell, (size_t)nc * sizeof *p);
        if (!p) return -1;
        G->node_cell = p;
        *cap = nc;
    }
    G->node_cell[G->nnodes] = id;
    G->node_of[id] = G->nnodes;
    return G->nnodes++;
}

/* Transitions of one entrance run of length len starting at position a
 * (one in the middle, or both ends of a long run): cells A(t), B(t). */
static int add_run(hpa_graph *G, elist *L, int32_t *cap, const gb_grid *g, int vertical,
                   int32_t fixed, int32_t a, int32_t len)
{
    int32_t pos[2], np = 0;
    if (len < HPA_LONG) pos[np++] = a + (len - 1) / 2;
    else { pos[np++] = a; pos[np++] = a + len - 1; }
    for (int i = 0; i < np; i++) {
        /* vertical border: cells (fixed, t) | (fixed + 1, t); else (t, fixed) over (t, fixed + 1) */
        int32_t ca = vertical ? gb_grid_id(g, fixed, pos[i]) : gb_grid_id(g, pos[i], fixed);
        int32_t cb = vertical ? gb_grid_id(g, fixed + 1, pos[i]) : gb_grid_id(g, pos[i], fixed + 1);
        int32_t na = node_get(G, ca, cap), nb = na < 0 ? -1 : node_get(G, cb, cap);
        /* a straight step: 1, or with terrain costs (q(a) + q(b)) / 2 */
        const double ci = g->cost ? 2.0 * ((double)g->cost[ca] + g->cost[cb]) / (double)g->cscale : 1.0;
        if (nb < 0 || elist_add(L, na, nb, ci) || elist_add(L, nb, na, ci)) return -1;
    }
    return 0;
}

static int build_entrances(hpa_graph *G, elist *L, int32_t *cap, const gb_grid *g)
{
    const int32_t c = G->c, W = g->width, H = g->height;
    for (int vertical = 1; vertical >= 0; vertical--) {
        /* borders between block columns (vertical) or block rows */
        int32_t nb = vertical ? G->ncx : G->ncy, along = vertical ? H : W;
        for (int32_t b = 1; b < nb; b++) {
            int32_t fixed = b * c - 1;
            for (int32_t s0 = 0; s0 < along; s0 += c) {
                int32_t s1 = s0 + c < along ? s0 + c : along, run = -1;
                for (int32_t t = s0; t <= s1; t++) {
                    int free2 = t < s1
                        && (vertical ? gb_grid_passable_xy(g, fixed, t) && gb_grid_passable_xy(g, fixed + 1, t)
                                     : gb_grid_passable_xy(g, t, fixed) && gb_grid_passable_xy(g, t, fixed + 1));
                    if (free2 && run < 0) run = t;
                    if (!free2 && run >= 0) {
                        if (add_run(G, L, cap, g, vertical, fixed, run, t - run)) return -1;
                        run = -1;
                    }
                }
            }
        }
    }
    return 0;
}

static int cmp_edge(const void *a, const void *b)
{
    const edge *x = a, *y = b;
    if (x->from != y->from) return x->from < y->from ? -1 : 1;
    return (x->to > y->to) - (x->to < y->to);
}

static hpa_graph *graph_build(const gb_grid *g, const uint8_t *moves, int32_t c)
{
    hpa_graph *G = gb_calloc(1, sizeof *G);
    elist L = { NULL, 0, 0 };
    int32_t cap = 0;
    if (!G) return NULL;
    G->bytes = sizeof *G;
    G->c = c;
    G->ncx = (g->width + c - 1) / c;
    G->ncy = (g->height + c - 1) / c;
    const int32_t ncl = G->ncx * G->ncy;
    const size_t cc = (size_t)c * (size_t)c;
    G->node_of = graph_alloc(G, (size_t)g->ncells, sizeof *G->node_of);
    G->lg = graph_alloc(G, cc, sizeof *G->lg);
    G->lpar = graph_alloc(G, cc, sizeof *G->lpar);
    G->lstamp = graph_alloc(G, cc, sizeof *G->lstamp);
    G->lq.cap = (int32_t)(8 * cc + 1);
    G->lq.h = graph_alloc(G, (size_t)G->lq.cap, sizeof *G->lq.h);
    G->cl_first = graph_alloc(G, (size_t)ncl + 1, sizeof *G->cl_first);
    if (!G->node_of || !G->lg || !G->lpar || !G->lstamp || !G->lq.h || !G->cl_first) goto fail;
    memset(G->node_of, 0xff, (size_t)g->ncells * sizeof *G->node_of);
    if (build_entrances(G, &L, &cap, g) != 0) goto fail;
    {   /* node_cell to its exact size, counted */
        int32_t *p = graph_alloc(G, (size_t)G->nnodes, sizeof *p);
        if (!p) goto fail;
        if (G->nnodes) memcpy(p, G->node_cell, (size_t)G->nnodes * sizeof *p);
        gb_free(G->node_cell);
        G->node_cell = p;
    }
    const int32_t n = G->nnodes;
    G->node_cl = graph_alloc(G, (size_t)n, sizeof *G->node_cl);
    G->node_li = graph_alloc(G, (size_t)n, sizeof *G->node_li);
    G->cl_node = graph_alloc(G, (size_t)n, sizeof *G->cl_node);
    if (!G->node_cl || !G->node_li || !G->cl_node) goto fail;
    /* nodes by cluster, in node order */
    for (int32_t v = 0; v < n; v++) {
        G->node_cl[v] = cluster_of_cell(G, g, G->node_cell[v]);
        G->cl_first[G->node_cl[v] + 1]++;
    }
    for (int32_t k = 0; k < ncl; k++) {
        if (G->cl_first[k + 1] > G->maxcl) G->maxcl = G->cl_first[k + 1];
        G->cl_first[k + 1] += G->cl_first[k];
    }
    {
        int32_t *fill = gb_calloc((size_t)ncl + 1, sizeof *fill);
        if (!fill) goto fail;
        for (int32_t v = 0; v < n; v++) {
            int32_t k = G->node_cl[v];
            G->node_li[v] = fill[k];
            G->cl_node[G->cl_first[k] + fill[k]++] = v;
        }
        gb_free(fill);
    }
    /* intra edges: one bounded Dijkstra per node */
    for (int32_t k = 0; k < ncl; k++) {
        rect r = cluster_rect(G, g, k);
        for (int32_t i = G->cl_first[k]; i < G->cl_first[k + 1]; i++) {
            lcount lc = { 0, 0, 0, 0 };
            int32_t u = G->cl_node[i];
            local_search(G, g, moves, r, G->node_cell[u], -1, &lc);
            for (int32_t j = G->cl_first[k]; j < G->cl_first[k + 1]; j++) {
                int32_t v = G->cl_node[j];
                if (v == u) continue;
                double d = local_dist(G, g, r, G->node_cell[v]);
                if (isfinite(d) && elist_add(&L, u, v, d)) goto fail;
            }
        }
    }
    /* CSR of the edges, by source then target */
    if (L.n) qsort(L.e, L.n, sizeof *L.e, cmp_edge);   /* (L.e is NULL without edges) */
    G->nedges = (int64_t)L.n;
    G->adj_first = graph_alloc(G, (size_t)n + 1, sizeof *G->adj_first);
    G->adj_to = graph_alloc(G, L.n, sizeof *G->adj_to);
    G->adj_cost = graph_alloc(G, L.n, sizeof *G->adj_cost);
    if (!G->adj_first || !G->adj_to || !G->adj_cost) goto fail;
    for (size_t e = 0; e < L.n; e++) {
        G->adj_first[L.e[e].from + 1]++;
        G->adj_to[e] = L.e[e].to;
        G->adj_cost[e] = L.e[e].cost;
    }
    for (int32_t v = 0; v < n; v++) G->adj_first[v + 1] += G->adj_first[v];
    gb_free(L.e);
    L.e = NULL;
    /* query buffers */
    G->ag = graph_alloc(G, (size_t)n + 2, sizeof *G->ag);
    G->apar = graph_alloc(G, (size_t)n + 2, sizeof *G->apar);
    G->astamp = graph_alloc(G, (size_t)n + 2, sizeof *G->astamp);
    G->abs_path = graph_alloc(G, (size_t)n + 2, sizeof *G->abs_path);
    G->sdist = graph_alloc(G, (size_t)G->maxcl + 1, sizeof *G->sdist);
    G->gdist = graph_alloc(G, (size_t)G->maxcl + 1, sizeof *G->gdist);
    /* one push per improvement, i.e. at most one per edge looked at: the
     * graph's edges, S's (maxcl + 1) and those into G (maxcl), plus S */
    G->aq.cap = (int32_t)(L.n + 2 * (size_t)G->maxcl + 4);
    G->aq.h = graph_alloc(G, (size_t)G->aq.cap, sizeof *G->aq.h);
    if (!G->ag || !G->apar || !G->astamp || !G->abs_path || !G->sdist || !G->gdist || !G->aq.h)
        goto fail;
    return G;
fail:
    gb_free(L.e);
    graph_free(G);
    errno = ENOMEM;
    return NULL;
}

/* ---- the query ------------------------------------------------------------ */

/* Append the local path src..target (found by the last local_search in r)
 * to p[*n..], without src (already there).  0, or -1 past cap. */
static int append_local(const hpa_graph *G, const gb_grid *g, rect r, int32_t target,
                        int32_t *p, int32_t *n, int32_t cap)
{
    int32_t li = (gb_grid_y(g, target) - r.y0) * G->c + (gb_grid_x(g, target) - r.x0);
    int32_t from = *n;
    while (G->lpar[li] >= 0) {
        if (*n >= cap) return -1;
        p[(*n)++] = gb_grid_id(g, r.x0 + li % G->c, r.y0 + li / G->c);
        li = G->lpar[li];
    }
    gb_path_reverse(p + from, *n - from);
    return 0;
}

static inline GB_ALWAYS_INLINE void
hpa_query(gb_ws *ws, hpa_graph *G, int32_t start, int32_t goal, gb_result *out, const int WT)
{
    const gb_grid *g = ws->grid;
    const double hs = WT ? 4.0 * (double)g->qmin / (double)g->cscale : 1.0;
    const uint8_t *moves = ws->moves;
    memset(out, 0, sizeof *out);
    out->path = ws->path;
    if (start == goal) {
        ws->path[0] = start;
        out->status = GB_FOUND;
        out->path_len = 1;
        return;
    }
    lcount lc = { 0, 0, 0, 0 };
    const int32_t n = G->nnodes, S = n, T = n + 1;
    const int32_t scl = cluster_of_cell(G, g, start), gcl = cluster_of_cell(G, g, goal);
    const rect sr = cluster_rect(G, g, scl), gr = cluster_rect(G, g, gcl);
    /* 1. insertion */
    double direct = INFINITY;
    local_search(G, g, moves, gr, goal, -1, &lc);
    for (int32_t i = G->cl_first[gcl]; i < G->cl_first[gcl + 1]; i++)
        G->gdist[i - G->cl_first[gcl]] = local_dist(G, g, gr, G->node_cell[G->cl_node[i]]);
    if (scl == gcl) direct = local_dist(G, g, gr, start);
    local_search(G, g, moves, sr, start, -1, &lc);
    for (int32_t i = G->cl_first[scl]; i < G->cl_first[scl + 1]; i++)
        G->sdist[i - G->cl_first[scl]] = local_dist(G, g, sr, G->node_cell[G->cl_node[i]]);
    /* 2. abstract A* */
    if (++G->agen >= 0x7ffffffeu) {
        memset(G->astamp, 0, ((size_t)n + 2) * sizeof *G->astamp);
        G->agen = 1;
    }
    const uint32_t open = 2u * G->agen, closed = open + 1u;
    const int32_t gx = gb_grid_x(g, goal), gy = gb_grid_y(g, goal);
    hheap *q = &G->aq;
    q->n = 0;
    q->peak = 0;
    uint64_t a_exp = 0, a_gen = 0;
    G->astamp[S] = open;
    G->ag[S] = 0.0;
    G->apar[S] = -1;
    hheap_push(q, S, hs * octile(gx - gb_grid_x(g, start), gy - gb_grid_y(g, start)), 0.0);
    int found = 0;
#define HPA_RELAX(v_, c_)                                                            \
    do {                                                                             \
        const int32_t v = (v_);                                                      \
        const double ng = gu + (c_);                                                 \
        if (G->astamp[v] == closed) break;                                           \
        if (G->astamp[v] == open && ng >= G->ag[v]) break;                           \
        G->astamp[v] = open;                                                         \
        G->ag[v] = ng;                                                               \
        G->apar[v] = u;                                                              \
        a_gen++;                                                                     \
        const int32_t vc = v == T ? goal : G->node_cell[v];                          \
        hheap_push(q, v, ng + hs * octile(gx - gb_grid_x(g, vc), gy - gb_grid_y(g, vc)), ng); \
    } while (0)
    while (q->n > 0) {
        const int32_t u = hheap_pop(q);
        if (G->astamp[u] == closed) continue;
        G->astamp[u] = closed;
        if (u == T) { found = 1; break; }
        a_exp++;
        const double gu = G->ag[u];
        if (u == S) {
            for (int32_t i = G->cl_first[scl]; i < G->cl_first[scl + 1]; i++) {
                double d = G->sdist[i - G->cl_first[scl]];
                if (isfinite(d)) HPA_RELAX(G->cl_node[i], d);
            }
            if (isfinite(direct)) HPA_RELAX(T, direct);
            continue;
        }
        for (int32_t e = G->adj_first[u]; e < G->adj_first[u + 1]; e++)
            HPA_RELAX(G->adj_to[e], G->adj_cost[e]);
        if (G->node_cl[u] == gcl) {
            double d = G->gdist[G->node_li[u]];
            if (isfinite(d)) HPA_RELAX(T, d);
        }
    }
#undef HPA_RELAX
    out->st.peak_open = (uint64_t)q->peak;
    uint64_t a_push = q->pushes, a_pop = q->pops;
    q->pushes = q->pops = 0;
    if (found) {
        /* 3. refinement along the abstract path S .. T */
        int32_t na = 0;
        for (int32_t v = T; v >= 0; v = G->apar[v]) G->abs_path[na++] = v;
        gb_path_reverse(G->abs_path, na);
        int32_t *p = ws->path, len = 0, cap = g->ncells;
        p[len++] = start;
        for (int32_t i = 0; i + 1 < na && len > 0; i++) {
            const int32_t a = G->abs_path[i], b = G->abs_path[i + 1];
            const int32_t ca = a == S ? start : G->node_cell[a];
            const int32_t cb = b == T ? goal : G->node_cell[b];
            if (ca == cb) continue;
            const int32_t ka = a == S ? scl : G->node_cl[a];
            const int32_t kb = b == T ? gcl : G->node_cl[b];
            if (ka != kb) {   /* an inter edge: one straight step */
                if (len >= cap) { len = 0; break; }
                p[len++] = cb;
                continue;
            }
            rect r = cluster_rect(G, g, ka);
            local_search(G, g, moves, r, ca, cb, &lc);
            if (append_local(G, g, r, cb, p, &len, cap) != 0) len = 0;
        }
        /* the cost from the steps (straight + sqrt 2 * diagonal) */
        int64_t ns = 0, nd = 0;
        for (int32_t i = 0; i + 1 < len; i++) {
            int32_t dd = p[i + 1] - p[i];
            if (WT) {
                int k = 0;
                while (k < 7 && g->off[k] != dd) k++;   /* the step's direction */
                if (k < 4) ns += gb_grid_units(g, p[i], k);
                else nd += gb_grid_units(g, p[i], k);
                continue;
            }
            if (dd == 1 || dd == -1 || dd == g->stride || dd == -g->stride) ns++;
            else nd++;
        }
        out->status = GB_FOUND;
        out->path_len = len;   /* 0 on overflow: the validator rejects it */
        out->cost = WT ? ((double)ns + (double)nd * GB_SQRT2) / (double)g->cscale
                       : (double)ns + GB_SQRT2 * (double)nd;
    } else {
        out->status = GB_UNREACHABLE;
        out->cost = INFINITY;
    }
    out->st.expanded = a_exp + lc.expanded;
    out->st.generated = a_gen + lc.generated;
    out->st.pushes = a_push + lc.pushes;
    out->st.pops = a_pop + lc.pops;
}

/* ---- the descriptor ------------------------------------------------------- */

static hpa_graph *graph_for(const hpa_state *H, int c)
{
    for (int i = 0; H && i < H->ngraph; i++)
        if (H->gr[i]->c == c) return H->gr[i];
    return NULL;
}

static void hpa_search(gb_ws *ws, const gb_solver_spec *s, int32_t start, int32_t goal,
                       gb_result *out)
{
    hpa_graph *G = graph_for(ws->fam[s->algo], s->param);
    if (!G) {   /* gb_ws_prepare always builds it first: unreachable */
        memset(out, 0, sizeof *out);
        out->status = GB_UNREACHABLE;
        out->path = ws->path;
        return;
    }
    hpa_query(ws, G, start, goal, out, 0);
}

static void hpa_search_w(gb_ws *ws, const gb_solver_spec *s, int32_t start, int32_t goal,
                         gb_result *out)
{
    hpa_graph *G = graph_for(ws->fam[s->algo], s->param);
    if (!G) {
        memset(out, 0, sizeof *out);
        out->status = GB_UNREACHABLE;
        out->path = ws->path;
        return;
    }
    hpa_query(ws, G, start, goal, out, 1);
}

static const gb_search_fn hpa_fn[1] = { hpa_search };
static const gb_search_fn hpa_fn_w[1] = { hpa_search_w };

static size_t hpa_bytes(int32_t width, int32_t height, const gb_solver_spec *s)
{
    (void)s;
    const hpa_state *H = NULL;
    const hpa_graph *G = NULL;   /* for sizeof only */
    /* the lower bound of one graph: its struct and node_of[] */
    return sizeof *H + sizeof *G + ((size_t)width + 2) * ((size_t)height + 2) * sizeof *G->node_of;
}

static size_t hpa_state_bytes(const void *state)
{
    const hpa_state *H = state;
    size_t b = sizeof *H;
    for (int i = 0; H && i < H->ngraph; i++) b += H->gr[i]->bytes;
    return b;
}

static void hpa_release(void *state)
{
    hpa_state *H = state;
    if (!H) return;
    for (int i = 0; i < H->ngraph; i++) graph_free(H->gr[i]);
    gb_free(H);
}

static int hpa_prepare(gb_ws *ws, const gb_solver_spec *s, void **state)
{
    hpa_state *H = *state;
    int fresh = H == NULL;
    if (fresh && !(H = gb_calloc(1, sizeof *H))) { errno = ENOMEM; return -1; }
    int64_t t0 = gb_mono_ns();
    hpa_graph *G = graph_build(ws->grid, ws->moves, s->param);
    if (!G) {
        if (fresh) gb_free(H);
        errno = ENOMEM;
        return -1;
    }
    G->prep_ns = (double)(gb_mono_ns() - t0);
    if (H->ngraph == HPA_MAX_GRAPHS) graph_free(H->gr[--H->ngraph]);   /* recycle the last */
    H->gr[H->ngraph++] = G;
    *state = H;
    return 0;
}

static int hpa_holds(const void *state, const gb_solver_spec *s)
{
    return graph_for(state, s->param) != NULL;
}

static double hpa_prep_ns(const void *state, const gb_solver_spec *s)
{
    const hpa_graph *G = graph_for(state, s->param);
    return G ? G->prep_ns : 0.0;
}

static gb_guarantee hpa_guarantee(const gb_solver_spec *s, gb_model m, double *bound)
{
    (void)s;
    (void)m;
    *bound = 0.0;
    return GB_GUAR_NONE;
}

static const gb_form hpa_forms[] = {
    { .pattern = "hpa:c=C", .wg = 1.0, .heur = GB_H_OCTILE,
      .pmin = HPA_MIN_C, .pmax = HPA_MAX_C, .pdef = HPA_DEFAULT_C,
      .desc = "HPA* (Botea, Mueller & Schaeffer 2004): CxC clusters, entrances and an "
              "abstract graph built per map, abstract A* then refinement (\"hpa\" = "
              "hpa:c=16); model 8-nocut only; suboptimal (guarantee none)" },
};
static const char *const hpa_all[] = { "hpa:c=16" };

const gb_family gb_family_hpa = {
    .forms = hpa_forms, .nforms = GB_COUNTOF(hpa_forms),
    .all = hpa_all, .nall = GB_COUNTOF(hpa_all),
    .models = 1u << GB_MODEL_8_NOCUT,
    .guarantee = hpa_guarantee,
    .dirs = 0,
    .bytes = hpa_bytes, .prepare = hpa_prepare, .release = hpa_release,
    .fn = hpa_fn, .fn_w = hpa_fn_w, .fn_queues = 1, .fn_heurs = 1,
    .queue_label = "own-heap", .state_bytes = hpa_state_bytes,
    .holds = hpa_holds, .prep_ns = hpa_prep_ns,
};
