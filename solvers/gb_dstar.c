/*
 * gb_dstar.c -- D* Lite, optimized version (Koenig & Likhachev 2002,
 * figure 4), with LPA* as its core.  See gb_dstar.h for the use.
 *
 * Algorithm
 *   The search runs backward, from the goal, so that the agent's moves
 *   change only the heuristic's origin, never the search tree.  Every
 *   cell s has g(s), the cost-to-goal the search settled on, and
 *   rhs(s) = min over successors s' of c(s,s') + g(s')  (rhs(goal) = 0),
 *   the one-step lookahead.  A cell is consistent when g == rhs.  The
 *   queue U holds exactly the inconsistent cells, keyed
 *       key(s) = [ min(g,rhs) + h(agent, s) + km ;  min(g,rhs) ]
 *   compared lexicographically.  ComputeShortestPath pops the least key
 *   while it is below key(agent) or the agent is inconsistent: an
 *   overconsistent cell (g > rhs) takes g = rhs and lowers its
 *   neighbours' rhs; an underconsistent one (g < rhs) takes g = inf and
 *   its neighbours whose rhs came through it recompute theirs.  When the
 *   agent moves from s_last to s_start, keys already queued are lower
 *   bounds of the new keys once km grows by h(s_last, s_start) (h is
 *   consistent), so nothing is re-keyed: a popped key that is out of date
 *   is re-queued with its new value.  When a cell changes, every edge
 *   that changes has both ends in the cell's 3x3 block (gb_grid.h), so
 *   recomputing rhs of the block's cells and re-queueing the inconsistent
 *   ones restores the invariants; the next ComputeShortestPath repairs
 *   only what the change reaches.
 *
 * Data structure
 *   Struct-of-arrays indexed by cell id: g[], rhs[], the heap position
 *   pos[] (-1 = not queued) and stamp[]:
 *   a cell whose stamp is not the current episode's is untouched (g = rhs
 *   = inf, not queued), so an episode starts with epoch++, no clearing.
 *   g[], rhs[] and pos[] are read only after touch(), which sets them
 *   when the stamp is stale; a fresh object has epoch 1 and every stamp
 *   0, so no cell is ever taken for touched before touch() wrote it,
 *   whatever order the API is called in.
 *   U is a binary min-heap of (k1, k2, id) entries (the keys inside the
 *   entries, for locality), with pos[] kept in step so that a queued
 *   cell can be re-keyed or removed in O(log n).
 *
 * Costs are elements a + b*sqrt2 of Z[sqrt2] (struct zc), added exactly
 * and compared exactly: the sign of p + q*sqrt2 is obvious when p and q
 * agree in sign, otherwise it is the sign of p^2 - 2q^2 (times the sign
 * of p), computed in 128 bits.  Infinity is a = INT64_MAX.
 *
 * Terrain costs (gb_terrain.h).  On a grid with cost[], a move costs
 * gb_grid_units() units of 1/cscale -- a straight move {units, 0}, a
 * diagonal one {0, units} -- and the heuristic is octile (Manhattan)
 * times 4 qmin units, admissible and consistent since every step costs
 * at least 4 qmin units times its uniform cost.  The move costs are
 * symmetric (the diagonal's corners are the same two cells both ways),
 * so the undirected argument below holds unchanged.  a and b are 64-bit:
 * a path of fewer than 2^31 steps of at most 4 * 25500 units each, plus
 * h and km, stays far below 2^62, and the squares of zcmp below 2^126.
 *
 * Invariants (between calls)
 *   - epoch >= 1 and stamp[s] <= epoch for every s.
 *   - episode == 0 until the first gb_dstar_begin: then nothing but the
 *     masks is kept up to date (no cell is touched, the heap is empty).
 *   - pos[s] >= 0 iff s is touched and g(s) != rhs(s); heap[pos[s]] == s.
 *   - rhs(s) = 0 for the goal, else min over legal moves of c + g.
 *   - moves[] is gb_grid_moves() of the grid as d last saw it.
 *
 * Time complexity: one ComputeShortestPath is O(k log k) for k vertex
 * updates, k bounded by the cells whose g changes (at most all of them:
 * the first plan is a backward A* from the goal).
 */
#include "gb_dstar.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "gb_alloc.h"

/* a + b*sqrt2; infinite when a == ZINF. */
typedef struct zc {
    int64_t a, b;
} zc;
#define ZINF INT64_MAX

static const zc zinf = { ZINF, 0 };
static const zc zzero = { 0, 0 };

static inline int zisinf(zc x) { return x.a == ZINF; }
static inline zc zadd(zc x, zc y)
{
    if (zisinf(x) || zisinf(y)) return zinf;
    zc r = { x.a + y.a, x.b + y.b };
    return r;
}
/* -1, 0, 1 as x <, ==, > y; inf equals inf and exceeds everything else. */
static inline int zcmp(zc x, zc y)
{
    if (zisinf(x) || zisinf(y)) return zisinf(x) - zisinf(y);
    int64_t p = x.a - y.a, q = x.b - y.b;
    if (p >= 0 && q >= 0) return (p | q) != 0;
    if (p <= 0 && q <= 0) return -((p | q) != 0);
    __extension__ typedef unsigned __int128 u128;
    u128 pp = (u128)(p < 0 ? -p : p) * (u128)(p < 0 ? -p : p);
    u128 qq = 2 * (u128)(q < 0 ? -q : q) * (u128)(q < 0 ? -q : q);
    /* p and q have opposite signs and qq != pp (sqrt 2 is irrational) */
    return p > 0 ? (pp > qq ? 1 : -1) : (pp > qq ? -1 : 1);
}
static inline zc zmin(zc x, zc y) { return zcmp(x, y) <= 0 ? x : y; }
static inline double zval(zc x) { return (double)x.a + (double)x.b * GB_SQRT2; }

/* A queued cell and the key it is queued with. */
typedef struct hent {
    double f1;      /* k1 as a double: decides most comparisons (hless) */
    zc k1, k2;
    int32_t id;
} hent;

struct gb_dstar {
    const gb_grid *grid;   /* the caller's map (not owned) */
    gb_model model;
    int32_t ncells;
    uint8_t *moves;        /* legal-move masks, as d last saw the grid */
    uint32_t epoch;        /* current episode, >= 1 (1 in a fresh object,
                              whose stamps are all 0) */
    int episode;           /* 1 once gb_dstar_begin ran: start, goal and
                              the queue below mean something */
    uint32_t *stamp;       /* episode that last touched each cell */
    zc *g, *rhs;           /* per cell (valid when stamp == epoch) */
    int32_t *pos;          /* heap index, -1 = not queued */
    hent *heap;            /* the binary heap: queued cells with their keys */
    int32_t hn;            /* cells in heap */
    int32_t *path;         /* path buffer, ncells ids */
    int32_t *cx, *cy;      /* map coordinates of every id (no division
                              in the heuristic) */
    int32_t start, last, goal;
    int32_t sx, sy;        /* the agent's map coordinates */
    int64_t hunit;         /* heuristic units per uniform step: 1, or 4 qmin
                              on a grid with terrain costs */
    zc km;                 /* key modifier: sum of h over the agent's moves */
    uint64_t expanded, pops, updates;   /* since the last plan */
};

/* The cost of direction k and its exact form (uniform grids). */
static const zc dir_cost[8] = {
    { 1, 0 }, { 1, 0 }, { 1, 0 }, { 1, 0 }, { 0, 1 }, { 0, 1 }, { 0, 1 }, { 0, 1 }
};

/* The exact cost of the (legal) move k from cell s: dir_cost[k], or with
 * terrain costs its gb_grid_units() as straight or diagonal units. */
static inline zc move_cost(const gb_dstar *d, int32_t s, int k)
{
    if (!d->grid->cost) return dir_cost[k];
    int64_t u = gb_grid_units(d->grid, s, k);
    zc r = { k < 4 ? u : 0, k < 4 ? 0 : u };
    return r;
}

size_t gb_dstar_bytes(int32_t ncells)
{
    size_t n = ncells > 0 ? (size_t)ncells : 0;
    return sizeof(struct gb_dstar) + n * (1 + sizeof(uint32_t) + 2 * sizeof(zc)
                                          + 4 * sizeof(int32_t) + sizeof(hent));
}

gb_dstar *gb_dstar_new(const gb_grid *g, gb_model m)
{
    gb_dstar *d = gb_calloc(1, sizeof *d);
    if (!d) { errno = ENOMEM; return NULL; }
    size_t n = (size_t)g->ncells;
    d->grid = g;
    d->model = m;
    d->ncells = g->ncells;
    d->moves = gb_malloc(n);
    d->stamp = gb_calloc(n, sizeof *d->stamp);
    d->g = gb_malloc(n * sizeof *d->g);
    d->rhs = gb_malloc(n * sizeof *d->rhs);
    d->pos = gb_malloc(n * sizeof *d->pos);
    d->heap = gb_malloc(n * sizeof *d->heap);
    d->path = gb_malloc(n * sizeof *d->path);
    d->cx = gb_malloc(n * sizeof *d->cx);
    d->cy = gb_malloc(n * sizeof *d->cy);
    if (!d->moves || !d->stamp || !d->g || !d->rhs || !d->pos
        || !d->heap || !d->path || !d->cx || !d->cy) {
        gb_dstar_free(d);
        errno = ENOMEM;
        return NULL;
    }
    d->epoch = 1;          /* stamps are 0: every cell untouched */
    d->hunit = g->cost ? 4 * (int64_t)g->qmin : 1;
    gb_grid_moves(g, m, d->moves);
    for (int32_t id = 0; id < g->ncells; id++) {
        d->cx[id] = gb_grid_x(g, id);
        d->cy[id] = gb_grid_y(g, id);
    }
    return d;
}

void gb_dstar_free(gb_dstar *d)
{
    if (!d) return;
    gb_free(d->moves);
    gb_free(d->stamp);
    gb_free(d->g);
    gb_free(d->rhs);
    gb_free(d->pos);
    gb_free(d->heap);
    gb_free(d->path);
    gb_free(d->cx);
    gb_free(d->cy);
    gb_free(d);
}

/* ---- cells and keys --------------------------------------------------- */

static inline void touch(gb_dstar *d, int32_t s)
{
    if (d->stamp[s] == d->epoch) return;
    d->stamp[s] = d->epoch;
    d->g[s] = zinf;
    d->rhs[s] = zinf;
    d->pos[s] = -1;
}

/* Octile (Manhattan under the 4-connected model) distance from the agent
 * to s: exact, admissible and consistent. */
static inline zc h_agent(const gb_dstar *d, int32_t s)
{
    int32_t dx = d->cx[s] - d->sx, dy = d->cy[s] - d->sy;
    if (dx < 0) dx = -dx;
    if (dy < 0) dy = -dy;
    zc r;
    if (d->model == GB_MODEL_4) {
        r.a = (int64_t)(dx + dy) * d->hunit;
        r.b = 0;
    } else {
        r.a = (int64_t)(dx > dy ? dx - dy : dy - dx) * d->hunit;
        r.b = (int64_t)(dx < dy ? dx : dy) * d->hunit;
    }
    return r;
}

static inline int key_less(zc a1, zc a2, zc b1, zc b2)
{
    int c = zcmp(a1, b1);
    return c < 0 || (c == 0 && zcmp(a2, b2) < 0);
}

static inline void calc_key(const gb_dstar *d, int32_t s, zc *k1, zc *k2)
{
    zc m = zmin(d->g[s], d->rhs[s]);
    *k2 = m;
    *k1 = zadd(zadd(m, h_agent(d, s)), d->km);
}

/* ---- the heap ----------------------------------------------------------- */

/* Entry order.  When the doubles f1 differ by more than their rounding
 * error could (1e-9 relative is ~10^6 times more than the two roundings
 * of a + b*sqrt2), they decide; otherwise the exact keys do. */
static inline int hless(const hent *x, const hent *y)
{
    double dx = x->f1 - y->f1, tol = 1e-9 * (fabs(x->f1) + fabs(y->f1));
    if (dx < -tol) return 1;
    if (dx > tol) return 0;
    return key_less(x->k1, x->k2, y->k1, y->k2);
}

static void sift_up(gb_dstar *d, int32_t i)
{
    hent e = d->heap[i];
    while (i > 0) {
        int32_t p = (i - 1) / 2;
        if (!hless(&e, &d->heap[p])) break;
        d->heap[i] = d->heap[p];
        d->pos[d->heap[i].id] = i;
        i = p;
    }
    d->heap[i] = e;
    d->pos[e.id] = i;
}

static void sift_down(gb_dstar *d, int32_t i)
{
    hent e = d->heap[i];
    for (;;) {
        int32_t c = 2 * i + 1;
        if (c >= d->hn) break;
        if (c + 1 < d->hn && hless(&d->heap[c + 1], &d->heap[c])) c++;
        if (!hless(&d->heap[c], &e)) break;
        d->heap[i] = d->heap[c];
        d->pos[d->heap[i].id] = i;
        i = c;
    }
    d->heap[i] = e;
    d->pos[e.id] = i;
}

/* Queue s with key (k1, k2), or re-key it if queued. */
static void hset(gb_dstar *d, int32_t s, zc k1, zc k2)
{
    int32_t i = d->pos[s];
    if (i < 0) {
        i = d->hn++;
        d->heap[i].id = s;
        d->heap[i].f1 = zval(k1);
        d->heap[i].k1 = k1;
        d->heap[i].k2 = k2;
        sift_up(d, i);
        return;
    }
    int up = key_less(k1, k2, d->heap[i].k1, d->heap[i].k2);
    d->heap[i].f1 = zval(k1);
    d->heap[i].k1 = k1;
    d->heap[i].k2 = k2;
    if (up) sift_up(d, i);
    else sift_down(d, i);
}

static void hremove(gb_dstar *d, int32_t s)
{
    int32_t i = d->pos[s];
    if (i < 0) return;
    d->pos[s] = -1;
    d->hn--;
    if (i == d->hn) return;
    hent x = d->heap[d->hn];
    d->heap[i] = x;
    d->pos[x.id] = i;
    sift_up(d, i);
    sift_down(d, d->pos[x.id]);
}

/* ---- D* Lite ------------------------------------------------------------ */

/* min over legal moves of c + g(s'); 0 for the goal. */
static zc best_rhs(gb_dstar *d, int32_t s)
{
    if (s == d->goal) return zzero;
    zc best = zinf;
    unsigned mask = d->moves[s];
    const int32_t *off = d->grid->off;
    while (mask) {
        int k = __builtin_ctz(mask);
        mask &= mask - 1;
        int32_t t = s + off[k];
        touch(d, t);
        best = zmin(best, zadd(move_cost(d, s, k), d->g[t]));
    }
    return best;
}

static void update_vertex(gb_dstar *d, int32_t s)
{
    d->updates++;
    if (zcmp(d->g[s], d->rhs[s]) != 0) {
        zc k1, k2;
        calc_key(d, s, &k1, &k2);
        hset(d, s, k1, k2);
    } else {
        hremove(d, s);
    }
}

void gb_dstar_begin(gb_dstar *d, int32_t start, int32_t goal)
{
    if (d->epoch >= UINT32_MAX - 1) {
        memset(d->stamp, 0, (size_t)d->ncells * sizeof *d->stamp);
        d->epoch = 0;
    }
    d->epoch++;
    d->episode = 1;
    d->hn = 0;
    d->km = zzero;
    d->start = d->last = start;
    d->goal = goal;
    d->sx = gb_grid_x(d->grid, start);
    d->sy = gb_grid_y(d->grid, start);
    d->expanded = d->pops = d->updates = 0;
    touch(d, goal);
    d->rhs[goal] = zzero;
    update_vertex(d, goal);
}

void gb_dstar_move(gb_dstar *d, int32_t id)
{
    if (!d->episode) return;   /* no agent yet */
    d->start = id;
    d->sx = gb_grid_x(d->grid, id);
    d->sy = gb_grid_y(d->grid, id);
}

void gb_dstar_cell_changed(gb_dstar *d, int32_t id)
{
    const gb_grid *g = d->grid;
    gb_grid_moves_around(g, d->model, d->moves, id);
    if (!d->episode) return;   /* masks only: begin() starts from them */
    if (d->last != d->start) {
        /* km += h(s_last, s_start): h_agent measures from the agent */
        d->km = zadd(d->km, h_agent(d, d->last));
        d->last = d->start;
    }
    for (int32_t dy = -1; dy <= 1; dy++)
        for (int32_t dx = -1; dx <= 1; dx++) {
            int32_t n = id + dy * g->stride + dx;
            int32_t x = gb_grid_x(g, n), y = gb_grid_y(g, n);
            if (x < 0 || y < 0 || x >= g->width || y >= g->height) continue;
            touch(d, n);
            d->rhs[n] = best_rhs(d, n);
            update_vertex(d, n);
        }
}

static void compute_shortest_path(gb_dstar *d)
{
    const int32_t *off = d->grid->off;
    const int32_t s0 = d->start;
    touch(d, s0);
    for (;;) {
        if (d->hn == 0) break;
        zc ks1, ks2;
        calc_key(d, s0, &ks1, &ks2);
        int32_t u = d->heap[0].id;
        if (!key_less(d->heap[0].k1, d->heap[0].k2, ks1, ks2)
            && zcmp(d->rhs[s0], d->g[s0]) == 0)
            break;
        d->pops++;
        zc n1, n2;
        calc_key(d, u, &n1, &n2);
        if (key_less(d->heap[0].k1, d->heap[0].k2, n1, n2)) {
            hset(d, u, n1, n2);               /* out of date after a move */
            continue;
        }
        d->expanded++;
        unsigned mask = d->moves[u];
        if (zcmp(d->g[u], d->rhs[u]) > 0) {   /* overconsistent */
            d->g[u] = d->rhs[u];
            hremove(d, u);
            while (mask) {
                int k = __builtin_ctz(mask);
                mask &= mask - 1;
                int32_t s = u + off[k];
                touch(d, s);
                if (s != d->goal) {
                    /* c(s,u) = c(u,s): the move graph is undirected */
                    d->rhs[s] = zmin(d->rhs[s], zadd(move_cost(d, u, k), d->g[u]));
                }
                update_vertex(d, s);
            }
        } else {                              /* underconsistent */
            zc gold = d->g[u];
            d->g[u] = zinf;
            while (mask) {
                int k = __builtin_ctz(mask);
                mask &= mask - 1;
                int32_t s = u + off[k];
                touch(d, s);
                if (s != d->goal && zcmp(d->rhs[s], zadd(move_cost(d, u, k), gold)) == 0)
                    d->rhs[s] = best_rhs(d, s);
                update_vertex(d, s);
            }
            update_vertex(d, u);
        }
    }
}

int gb_dstar_plan_path(gb_dstar *d, gb_dstar_plan *p)
{
    memset(p, 0, sizeof *p);
    if (!d->episode) { errno = EINVAL; return -1; }
    compute_shortest_path(d);
    p->expanded = d->expanded;
    p->pops = d->pops;
    p->updates = d->updates;
    d->expanded = d->pops = d->updates = 0;
    int32_t s = d->start;
    if (zisinf(d->g[s]) && s != d->goal) return 0;
    const int32_t *off = d->grid->off;
    zc total = zzero;
    int32_t n = 0;
    d->path[n++] = s;
    /* Descend: rhs(s) = min over moves of c + g(t) (an invariant for
     * every touched cell), so the first move whose c + g(t) equals rhs(s)
     * -- two integer compares, Z[sqrt2] equality is componentwise -- is a
     * cheapest one; an untouched t has g = inf and is skipped unread. */
    while (s != d->goal) {
        zc want = d->rhs[s];
        if (zisinf(want) || n >= d->ncells) return -1;
        unsigned mask = d->moves[s];
        int bk = -1;
        while (mask) {
            int k = __builtin_ctz(mask);
            mask &= mask - 1;
            int32_t t = s + off[k];
            if (d->stamp[t] != d->epoch || zisinf(d->g[t])) continue;
            zc c = move_cost(d, s, k);
            if (d->g[t].a + c.a == want.a && d->g[t].b + c.b == want.b) {
                bk = k;
                break;
            }
        }
        if (bk < 0) return -1;
        total = zadd(total, move_cost(d, s, bk));
        s += off[bk];
        d->path[n++] = s;
    }
    p->found = 1;
    p->straight = total.a;
    p->diag = total.b;
    /* the validator's expression (gb_check_cost_scaled): equal bits */
    p->cost = d->grid->cost ? zval(total) / (double)d->grid->cscale : zval(total);
    p->path = d->path;
    p->path_len = n;
    return 0;
}
