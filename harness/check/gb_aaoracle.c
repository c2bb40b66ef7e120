/*
 * gb_aaoracle.c -- the GPPC any-angle optimum (see gb_aaoracle.h for why
 * the visibility graph of the convex corners is exact, and the prunings).
 *
 * Invariants.  A node is open (stamp 2 gen) with gv its best g so far, or
 * closed (2 gen + 1) with gv final; the heap may hold stale entries of
 * closed nodes, skipped when popped.  Corners sit in v[] bucket by bucket
 * (counting sort by bucket), so a bucket's corners are one slice.  A
 * corner's kept-edge list, once built (adj_at >= 0), is adj[adj_at ..
 * adj_at + adj_n), ascending, and never changes for this map.
 */
#include "gb_aaoracle.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gb_aagppc.h"

static double dist(gb_xy a, gb_xy b)
{
    const double dx = (double)b.x - a.x, dy = (double)b.y - a.y;
    return sqrt(dx * dx + dy * dy);
}

/* The bucket of point p (corners go up to width, height inclusive). */
static int32_t bucket_of(const gb_aaoracle *o, gb_xy p)
{
    return (p.y / GB_AAORACLE_BUCKET) * o->bw + p.x / GB_AAORACLE_BUCKET;
}

static int is_convex(unsigned m) { return m == 1u || m == 2u || m == 4u || m == 8u; }

int gb_aaoracle_init(gb_aaoracle *o, const gb_grid *g)
{
    memset(o, 0, sizeof *o);
    o->g = g;
    o->bw = g->width / GB_AAORACLE_BUCKET + 1;
    o->bh = g->height / GB_AAORACLE_BUCKET + 1;
    const int32_t nb = o->bw * o->bh;
    o->bstart = calloc((size_t)nb + 1, sizeof *o->bstart);
    if (!o->bstart) goto nomem;
    int32_t nv = 0;
    for (int32_t y = 0; y <= g->height; y++)
        for (int32_t x = 0; x <= g->width; x++)
            if (is_convex(gb_aagppc_around(g, x, y))) {
                nv++;
                o->bstart[bucket_of(o, (gb_xy){ x, y }) + 1]++;
            }
    o->nv = nv;
    for (int32_t b = 0; b < nb; b++) o->bstart[b + 1] += o->bstart[b];
    o->v = malloc(((size_t)nv + 2) * sizeof *o->v);
    o->q = malloc((size_t)nv + 1);
    o->gv = malloc(((size_t)nv + 2) * sizeof *o->gv);
    o->parent = malloc(((size_t)nv + 2) * sizeof *o->parent);
    o->stamp = calloc((size_t)nv + 2, sizeof *o->stamp);
    o->adj_at = malloc(((size_t)nv + 1) * sizeof *o->adj_at);
    o->adj_n = calloc((size_t)nv + 1, sizeof *o->adj_n);
    o->memo = GB_AAORACLE_AUTO;
    o->seen = calloc((size_t)nv + 1, 1);
    int32_t *fill = malloc((size_t)nb * sizeof *fill);
    if (!o->v || !o->q || !o->gv || !o->parent || !o->stamp || !o->adj_at || !o->adj_n || !o->seen
        || !fill) {
        free(fill);
        goto nomem;
    }
    for (int32_t k = 0; k < nv; k++) o->adj_at[k] = -1;
    memcpy(fill, o->bstart, (size_t)nb * sizeof *fill);
    for (int32_t y = 0; y <= g->height; y++)
        for (int32_t x = 0; x <= g->width; x++) {
            const unsigned m = gb_aagppc_around(g, x, y);
            if (!is_convex(m)) continue;
            const int32_t k = fill[bucket_of(o, (gb_xy){ x, y })]++;
            o->v[k] = (gb_xy){ x, y };
            o->q[k] = (uint8_t)m;
        }
    free(fill);
    return 0;
nomem:
    gb_aaoracle_free(o);
    errno = ENOMEM;
    return -1;
}

void gb_aaoracle_free(gb_aaoracle *o)
{
    free(o->v);
    free(o->q);
    free(o->bstart);
    free(o->gv);
    free(o->parent);
    free(o->stamp);
    free(o->hf);
    free(o->hg);
    free(o->hn);
    free(o->adj_at);
    free(o->adj_n);
    free(o->adj);
    free(o->seen);
    memset(o, 0, sizeof *o);
}

/* ---- the heap: min f, then max g ---------------------------------------- */

static int before(const gb_aaoracle *o, int64_t a, int64_t b)
{
    return o->hf[a] < o->hf[b] || (o->hf[a] == o->hf[b] && o->hg[a] > o->hg[b]);
}

static void swap(gb_aaoracle *o, int64_t a, int64_t b)
{
    const double f = o->hf[a], gg = o->hg[a];
    const int32_t n = o->hn[a];
    o->hf[a] = o->hf[b]; o->hg[a] = o->hg[b]; o->hn[a] = o->hn[b];
    o->hf[b] = f; o->hg[b] = gg; o->hn[b] = n;
}

static int push(gb_aaoracle *o, int32_t node, double f, double gg)
{
    if (o->hlen == o->hcap) {
        const int64_t cap = o->hcap ? 2 * o->hcap : 1024;
        double *hf = realloc(o->hf, (size_t)cap * sizeof *hf);
        if (hf) o->hf = hf;
        double *hg = realloc(o->hg, (size_t)cap * sizeof *hg);
        if (hg) o->hg = hg;
        int32_t *hn = realloc(o->hn, (size_t)cap * sizeof *hn);
        if (hn) o->hn = hn;
        if (!hf || !hg || !hn) { errno = ENOMEM; return -1; }
        o->hcap = cap;
    }
    int64_t i = o->hlen++;
    o->hf[i] = f; o->hg[i] = gg; o->hn[i] = node;
    while (i > 0 && before(o, i, (i - 1) / 2)) { swap(o, i, (i - 1) / 2); i = (i - 1) / 2; }
    return 0;
}

static int32_t pop(gb_aaoracle *o)
{
    const int32_t top = o->hn[0];
    o->hlen--;
    if (o->hlen > 0) {
        o->hf[0] = o->hf[o->hlen]; o->hg[0] = o->hg[o->hlen]; o->hn[0] = o->hn[o->hlen];
        int64_t i = 0;
        for (;;) {
            const int64_t l = 2 * i + 1, r = l + 1;
            int64_t m = i;
            if (l < o->hlen && before(o, l, m)) m = l;
            if (r < o->hlen && before(o, r, m)) m = r;
            if (m == i) break;
            swap(o, i, m);
            i = m;
        }
    }
    return top;
}

/* ---- edges ---------------------------------------------------------------- */

/* Direction d leaves convex corner with blocked bit m tautly: not strictly
 * into the quadrant opposite the blocked one. */
static int taut(unsigned m, int64_t dx, int64_t dy)
{
    const int qx = (m == 1u || m == 4u) ? -1 : 1, qy = (m == 1u || m == 2u) ? -1 : 1;
    return !(dx * qx < 0 && dy * qy < 0);
}

/* V2 at an end e of a segment towards w: e on a double corner only
 * leaves into the south-east quadrant (e is a start or a goal). */
static int end_ok(const gb_grid *g, gb_xy e, gb_xy w)
{
    if (!gb_aagppc_double(g, e.x, e.y)) return 1;
    return w.x >= e.x && w.y >= e.y;
}

/* Squared-free lower bound on |p r| over the points r of the box
 * [x0, x1] x [y0, y1]. */
static double box_dist(gb_xy p, double x0, double y0, double x1, double y1)
{
    const double dx = p.x < x0 ? x0 - p.x : p.x > x1 ? p.x - x1 : 0.0;
    const double dy = p.y < y0 ? y0 - p.y : p.y > y1 ? p.y - y1 : 0.0;
    return sqrt(dx * dx + dy * dy);
}

/* The built list of corner u: adj_n[u] entries from here.  An empty list
 * is NULL: while every list is empty, o->adj is NULL too, and NULL plus
 * an offset, even 0, is undefined. */
static const int32_t *edges_of(const gb_aaoracle *o, int32_t u)
{
    return o->adj_n[u] ? o->adj + o->adj_at[u] : NULL;
}

/* The kept edges of corner u: every other corner w with a legal segment
 * u-w that is taut at both ends (taut(q[u], uw) and taut(q[w], wu)).  The
 * relation is symmetric, so when w's list is already built, u-w is kept
 * exactly when u is in it (lists are sorted: built in index order).  The
 * list goes to adj[adj_at[u] ..) once per map.  0, or -1 with errno =
 * ENOMEM. */
static int build_edges(gb_aaoracle *o, int32_t u)
{
    const gb_xy pu = o->v[u];
    const unsigned mu = o->q[u];
    const int64_t at = o->adj_len;
    for (int32_t w = 0; w < o->nv; w++) {
        if (w == u) continue;
        const gb_xy pw = o->v[w];
        const int64_t dx = (int64_t)pw.x - pu.x, dy = (int64_t)pw.y - pu.y;
        if (!taut(mu, dx, dy) || !taut(o->q[w], -dx, -dy)) continue;
        int keep;
        if (o->adj_at[w] >= 0) { /* w's list is built: look u up in it */
            const int32_t *a = edges_of(o, w);
            int32_t lo = 0, hi = o->adj_n[w];
            while (lo < hi) {
                const int32_t mid = lo + (hi - lo) / 2;
                if (a[mid] < u) lo = mid + 1;
                else hi = mid;
            }
            keep = lo < o->adj_n[w] && a[lo] == u;
        } else {
            o->built_checked++;
            keep = gb_aagppc_segment(o->g, pu, pw, NULL, NULL);
        }
        if (!keep) continue;
        if (o->adj_len == o->adj_cap) {
            const int64_t cap = o->adj_cap ? 2 * o->adj_cap : 4096;
            int32_t *a = realloc(o->adj, (size_t)cap * sizeof *a);
            if (!a) {
                o->adj_len = at;
                errno = ENOMEM;
                return -1;
            }
            o->adj = a;
            o->adj_cap = cap;
        }
        o->adj[o->adj_len++] = w;
    }
    o->adj_at[u] = at;
    o->adj_n[u] = (int32_t)(o->adj_len - at);
    o->built++;
    return 0;
}

/* The search state one query shares with its helpers. */
typedef struct query {
    gb_xy t;               /* the goal */
    double lim;            /* the ellipse: g(w) + |wt| must stay within it */
    uint32_t open, closed; /* this generation's stamps */
} query;

/* Reach w from u (at gu) if that is new or better and within the ellipse.
 * 0, or -1 with errno = ENOMEM. */
static int relax(gb_aaoracle *o, const query *qy, int32_t u, double gu, int32_t w, gb_xy pw, double duw)
{
    const double ng = gu + duw, f = ng + dist(pw, qy->t);
    if (f > qy->lim) return 0;
    if (o->stamp[w] == qy->open && ng >= o->gv[w]) return 0;
    o->stamp[w] = qy->open;
    o->gv[w] = ng;
    o->parent[w] = u;
    return push(o, w, f, ng);
}

/* Expand u by the ellipse scan: the corners of the buckets that meet the
 * ellipse, each tested on the spot (the start's edges, and every node's
 * before a corner's list is due, o->memo).  0, or -1 with errno = ENOMEM. */
static int scan_edges(gb_aaoracle *o, const query *qy, int32_t u, gb_xy s)
{
    const gb_xy pu = o->v[u], t = qy->t;
    const int32_t S = o->nv;
    const double gu = o->gv[u];
    const unsigned mu = u < o->nv ? o->q[u] : 0u;
    const double rem = qy->lim - gu; /* |uw| + |wt| must stay within it */
    o->scans++;
    int32_t bx0 = 0, by0 = 0, bx1 = o->bw - 1, by1 = o->bh - 1;
    if (!isinf(rem)) {
        const double r = rem;
        const double x0 = fmax(0.0, fmax(pu.x - r, t.x - r)), x1 = fmin(pu.x + r, t.x + r);
        const double y0 = fmax(0.0, fmax(pu.y - r, t.y - r)), y1 = fmin(pu.y + r, t.y + r);
        if (x0 > x1 || y0 > y1) return 0;
        bx0 = (int32_t)(x0 / GB_AAORACLE_BUCKET);
        by0 = (int32_t)(y0 / GB_AAORACLE_BUCKET);
        bx1 = (int32_t)fmin((double)o->bw - 1, x1 / GB_AAORACLE_BUCKET);
        by1 = (int32_t)fmin((double)o->bh - 1, y1 / GB_AAORACLE_BUCKET);
    }
    for (int32_t by = by0; by <= by1; by++)
        for (int32_t bx = bx0; bx <= bx1; bx++) {
            const double X0 = (double)bx * GB_AAORACLE_BUCKET, Y0 = (double)by * GB_AAORACLE_BUCKET;
            const double X1 = X0 + GB_AAORACLE_BUCKET - 1, Y1 = Y0 + GB_AAORACLE_BUCKET - 1;
            if (box_dist(pu, X0, Y0, X1, Y1) + box_dist(t, X0, Y0, X1, Y1) > rem) continue;
            const int32_t b = by * o->bw + bx;
            for (int32_t w = o->bstart[b]; w < o->bstart[b + 1]; w++) {
                const gb_xy pw = o->v[w];
                if (o->stamp[w] == qy->closed || (pw.x == pu.x && pw.y == pu.y)) continue;
                const double duw = dist(pu, pw), ng = gu + duw;
                if (ng + dist(pw, t) > qy->lim) continue;
                if (o->stamp[w] == qy->open && ng >= o->gv[w]) continue;
                const int64_t dx = (int64_t)pw.x - pu.x, dy = (int64_t)pw.y - pu.y;
                if (!taut(o->q[w], -dx, -dy)) continue;
                if (mu && !taut(mu, dx, dy)) continue;
                if (u == S && !end_ok(o->g, s, pw)) continue;
                o->checked++;
                o->scan_checked++;
                if (!gb_aagppc_segment(o->g, pu, pw, NULL, NULL)) continue;
                if (relax(o, qy, u, gu, w, pw, duw)) return -1;
            }
        }
    return 0;
}

/* The expansion from which a corner's list is used: o->memo, or under
 * GB_AAORACLE_AUTO the measured segment checks of a build (before the
 * first, half the corners) over those of a scan, rounded up. */
static int memo_due(const gb_aaoracle *o)
{
    if (o->memo != GB_AAORACLE_AUTO) return o->memo;
    const double b = o->built ? (double)o->built_checked / (double)o->built + o->nv / 16.0 : o->nv / 2.0;
    const double r = o->scans ? (double)o->scan_checked / (double)o->scans + 1.0 : b;
    const double k = ceil(b / r);
    return k < 1.0 ? 1 : k > 250.0 ? 250 : (int)k;
}

/* Expand corner u by its kept edges (built on first use). */
static int memo_edges(gb_aaoracle *o, const query *qy, int32_t u)
{
    if (o->adj_at[u] < 0 && build_edges(o, u)) return -1;
    const gb_xy pu = o->v[u];
    const double gu = o->gv[u];
    const int32_t *a = edges_of(o, u);
    for (int32_t k = 0, n = o->adj_n[u]; k < n; k++) {
        const int32_t w = a[k];
        if (o->stamp[w] == qy->closed) continue;
        const gb_xy pw = o->v[w];
        if (relax(o, qy, u, gu, w, pw, dist(pu, pw))) return -1;
    }
    return 0;
}

int gb_aaoracle_solve(gb_aaoracle *o, gb_xy s, gb_xy t, double upper, double *cost, gb_xy *path,
                      int32_t *n)
{
    const gb_grid *g = o->g;
    const int32_t S = o->nv, T = o->nv + 1;
    o->expanded = o->checked = 0;
    o->hlen = 0;
    o->gen++;
    if (o->gen >= UINT32_MAX / 2 - 1) {   /* wrap: clear the stamps once */
        memset(o->stamp, 0, ((size_t)o->nv + 2) * sizeof *o->stamp);
        o->gen = 1;
    }
    query qy;
    qy.t = t;
    qy.open = 2u * o->gen;
    qy.closed = qy.open + 1u;
    qy.lim = isinf(upper) ? upper : upper * (1.0 + 1e-9) + 1e-9;
    o->v[S] = s;
    o->v[T] = t;
    o->stamp[S] = qy.open;
    o->gv[S] = 0.0;
    o->parent[S] = -1;
    if (push(o, S, dist(s, t), 0.0)) return -1;
    while (o->hlen > 0) {
        const int32_t u = pop(o);
        if (o->stamp[u] == qy.closed) continue;
        o->stamp[u] = qy.closed;
        const gb_xy pu = o->v[u];
        if (u == T || (pu.x == t.x && pu.y == t.y && u != S) || (s.x == t.x && s.y == t.y)) {
            *cost = o->gv[u];
            if (path) {
                int32_t k = 0;
                for (int32_t x = u; x >= 0; x = o->parent[x]) path[k++] = o->v[x];
                for (int32_t a = 0, b = k - 1; a < b; a++, b--) {
                    const gb_xy tmp = path[a]; path[a] = path[b]; path[b] = tmp;
                }
                *n = k;
            }
            return 1;
        }
        o->expanded++;
        const double gu = o->gv[u];
        const unsigned mu = u < o->nv ? o->q[u] : 0u;
        /* the goal first */
        if (o->stamp[T] != qy.closed && !(pu.x == t.x && pu.y == t.y)) {
            const double ng = gu + dist(pu, t);
            const int64_t dx = (int64_t)t.x - pu.x, dy = (int64_t)t.y - pu.y;
            if (ng <= qy.lim && !(o->stamp[T] == qy.open && ng >= o->gv[T]) && (!mu || taut(mu, dx, dy))
                && (u != S || end_ok(g, s, t)) && end_ok(g, t, pu)) {
                o->checked++;
                if (gb_aagppc_segment(g, pu, t, NULL, NULL)) {
                    o->stamp[T] = qy.open;
                    o->gv[T] = ng;
                    o->parent[T] = u;
                    if (push(o, T, ng, ng)) return -1;
                }
            }
        }
        /* then the corners */
        int listed = 0;
        if (u < o->nv && o->memo != 0) { /* the list, from the due expansion on */
            if (o->seen[u] < 250) o->seen[u]++;
            listed = o->adj_at[u] >= 0 || o->seen[u] >= memo_due(o);
        }
        if (listed ? memo_edges(o, &qy, u) : scan_edges(o, &qy, u, s)) return -1;
    }
    return 0;
}
