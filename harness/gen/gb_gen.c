/*
 * gb_gen.c -- map and scenario generators (see gb_gen.h for the families,
 * the scenario rules and the reproducibility contract).
 *
 * Data structures
 *   rng      xoshiro256** state s[0..4), never all zero (splitmix64 output
 *            of a 64-bit seed is never four zeros in a row).
 *   lattice  maze and rooms share one layout: walls on every row/column
 *            that is a multiple of the pitch p; lattice cell (i, j) is the
 *            open block x in [i*p + 1, min(i*p + p - 1, W - 1)], likewise
 *            y; nx = ceil((W - 1) / p) cells across, ny down.  Lattice
 *            cell index = j * nx + i.  The wall segment between (i, j) and
 *            (i + 1, j) is column (i + 1) * p over the rows of cell row j;
 *            between (i, j) and (i, j + 1) it is row (j + 1) * p over the
 *            columns of cell column i.  Wall crossings (both coordinates
 *            multiples of p) are never opened.
 *   scenario collection
 *            cand[] holds every accepted query in drawing order; fill[b]
 *            counts the queries of bucket b so far (never more than
 *            per_bucket); per start, the component's cells other than the
 *            start are counting-sorted by bucket into order[] (stable, so
 *            in id order within a bucket) to draw one goal per bucket.
 *
 * Invariants
 *   - Every random choice goes through rng_below(); the sequence of calls
 *     depends only on the options and on the Dijkstra lengths.
 *   - A generated gb_map has terrain '.' exactly where grid.pass is 1.
 */
#include "gb_gen.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gb_alloc.h"
#include "gb_search.h"

/* ---- PRNG: splitmix64 seeding, xoshiro256** -------------------------- */

typedef struct rng { uint64_t s[4]; } rng;

/* Stream tags: the map and the scenario draw from independent streams, so
 * changing scenario options never changes the map. */
enum { STREAM_MAP = 1, STREAM_SCEN = 2 };

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static void rng_seed(rng *r, uint64_t seed, uint64_t stream)
{
    uint64_t x = seed ^ (stream * 0xd1b54a32d192ed03u);
    for (int i = 0; i < 4; i++) r->s[i] = splitmix64(&x);
}

static inline uint64_t rotl64(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static uint64_t rng_next(rng *r)
{
    uint64_t *s = r->s;
    uint64_t res = rotl64(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl64(s[3], 45);
    return res;
}

/* Uniform integer in [0, n), n >= 1, by rejection (no modulo bias). */
static uint64_t rng_below(rng *r, uint64_t n)
{
    uint64_t lim = UINT64_MAX - UINT64_MAX % n;   /* multiple of n */
    uint64_t x;
    do x = rng_next(r); while (x >= lim);
    return x % n;
}

/* ---- options --------------------------------------------------------- */

static const char *const family_names[GB_GEN_COUNT] = { "random", "maze", "rooms", "terrain" };
/* File-name prefixes, as the official sets spell them. */
static const char *const family_prefix[GB_GEN_COUNT] = { "random", "maze", "room", "terrain" };

void gb_gen_defaults(gb_gen_opts *o)
{
    memset(o, 0, sizeof *o);
    o->family = GB_GEN_RANDOM;
    o->width = 512;
    o->height = 512;
    o->percent = 20;
    o->corridor = 4;
    o->room = 16;
    o->seed = 0;
    o->per_bucket = 10;
    o->max_queries = 0;
    o->model = GB_MODEL_8_NOCUT;
}

const char *gb_gen_family_name(int family)
{
    return family >= 0 && family < GB_GEN_COUNT ? family_names[family] : "?";
}

int gb_gen_family_from_name(const char *name)
{
    for (int f = 0; f < GB_GEN_COUNT; f++)
        if (strcmp(name, family_names[f]) == 0) return f;
    return -1;
}

int gb_gen_check(const gb_gen_opts *o, gb_diag *d)
{
    if (o->family < 0 || o->family >= GB_GEN_COUNT)
        return gb_diag_set(d, EX_USAGE, "", 0, 0,
                           "expected a family random, maze, rooms or terrain, found %d", o->family);
    int32_t lo = o->family == GB_GEN_RANDOM || o->family == GB_GEN_TERRAIN ? 1 : 2;
    if (o->width < lo || o->width > GB_GEN_MAX_SIDE || o->height < lo
        || o->height > GB_GEN_MAX_SIDE)
        return gb_diag_set(d, EX_USAGE, "", 0, 0,
                           "expected a %s map width and height from %ld to %d, found %ldx%ld",
                           family_names[o->family], (long)lo, GB_GEN_MAX_SIDE,
                           (long)o->width, (long)o->height);
    if (((int64_t)o->width + 2) * ((int64_t)o->height + 2) > GB_GRID_MAX_CELLS)
        return gb_diag_set(d, EX_USAGE, "", 0, 0,
                           "expected (width + 2) * (height + 2) at most %lld cells, found %lldx%lld",
                           (long long)GB_GRID_MAX_CELLS, (long long)o->width,
                           (long long)o->height);
    switch (o->family) {
    case GB_GEN_RANDOM:
    case GB_GEN_TERRAIN:
        if (!(o->percent >= 0 && o->percent < 100))
            return gb_diag_set(d, EX_USAGE, "", 0, 0,
                               "expected an obstacle percentage from 0 to less than 100, found %g",
                               o->percent);
        break;
    case GB_GEN_MAZE:
        if (o->corridor < 1 || o->corridor > GB_GEN_MAX_CORRIDOR)
            return gb_diag_set(d, EX_USAGE, "", 0, 0,
                               "expected a corridor width from 1 to %d, found %d",
                               GB_GEN_MAX_CORRIDOR, o->corridor);
        break;
    case GB_GEN_ROOMS:
        if (o->room < 2 || o->room > GB_GEN_MAX_ROOM)
            return gb_diag_set(d, EX_USAGE, "", 0, 0,
                               "expected a room size from 2 to %d, found %d",
                               GB_GEN_MAX_ROOM, o->room);
        break;
    }
    if (o->per_bucket < 1)
        return gb_diag_set(d, EX_USAGE, "", 0, 0,
                           "expected at least 1 query per bucket, found %d", o->per_bucket);
    if (o->max_queries < 0 || (o->max_queries > 0 && o->max_queries < o->per_bucket))
        return gb_diag_set(d, EX_USAGE, "", 0, 0,
                           "expected a query limit of 0 (none) or at least the %d queries "
                           "of one bucket, found %d", o->per_bucket, o->max_queries);
    if ((unsigned)o->model >= GB_MODEL_COUNT)
        return gb_diag_set(d, EX_USAGE, "", 0, 0,
                           "expected a movement model from 0 to %d, found %d",
                           GB_MODEL_COUNT - 1, (int)o->model);
    return 0;
}

/* Percentage as text without trailing zeros, locale-independent. */
static void format_percent(char *buf, size_t n, double p)
{
    long long q = llround(p * 1e6);
    long long ip = q / 1000000, fp = q % 1000000;
    if (fp == 0) {
        snprintf(buf, n, "%lld", ip);
        return;
    }
    int digits = 6;
    while (fp % 10 == 0) { fp /= 10; digits--; }
    snprintf(buf, n, "%lld.%0*lld", ip, digits, fp);
}

int gb_gen_name(const gb_gen_opts *o, char *buf, size_t n)
{
    char size[32], param[48];
    int f = o->family >= 0 && o->family < GB_GEN_COUNT ? o->family : GB_GEN_RANDOM;
    if (o->width == o->height)
        snprintf(size, sizeof size, "%ld", (long)o->width);
    else
        snprintf(size, sizeof size, "%ldx%ld", (long)o->width, (long)o->height);
    if (f == GB_GEN_RANDOM || f == GB_GEN_TERRAIN)
        format_percent(param, sizeof param, o->percent);
    else
        snprintf(param, sizeof param, "%d", f == GB_GEN_MAZE ? o->corridor : o->room);
    int k = snprintf(buf, n, "%s%s-%s-%llu", family_prefix[f], size, param,
                     (unsigned long long)o->seed);
    return k < 0 || (size_t)k >= n ? -1 : 0;
}

/* ---- maps ------------------------------------------------------------ */

static int out_of_memory(gb_diag *d, const char *what)
{
    return gb_diag_set(d, EX_OSERR, "", 0, 0, "expected memory for %s, found none", what);
}

static void gen_random(gb_grid *g, const gb_gen_opts *o, rng *r, int32_t *idx)
{
    int32_t W = g->width, H = g->height;
    int64_t cells = (int64_t)W * H;
    int64_t count = (int64_t)floor((double)cells * o->percent / 100.0);
    if (count > cells) count = cells;
    for (int32_t y = 0; y < H; y++)
        for (int32_t x = 0; x < W; x++)
            g->pass[gb_grid_id(g, x, y)] = 1;
    for (int64_t i = 0; i < cells; i++) idx[i] = (int32_t)i;
    /* Partial Fisher-Yates: idx[0..count) becomes a uniform random subset. */
    for (int64_t i = 0; i < count; i++) {
        int64_t j = i + (int64_t)rng_below(r, (uint64_t)(cells - i));
        int32_t t = idx[i]; idx[i] = idx[j]; idx[j] = t;
        int32_t c = idx[i];
        g->pass[gb_grid_id(g, c % W, c / W)] = 0;
    }
}

/* The terrain family (see the top of gb_gen.h): letters into chars
 * (W x H, row-major), then the random family's obstacles over them. */
static void gen_terrain(gb_grid *g, const gb_gen_opts *o, rng *r, int32_t *idx, char *chars)
{
    static const char patch_letters[] = "GSWT";
    const int32_t W = g->width, H = g->height;
    const int64_t cells = (int64_t)W * H;
    memset(chars, '.', (size_t)cells);
    const int32_t side = W < H ? W : H, rmax = side / 16 > 2 ? side / 16 : 2;
    const int64_t npatch = cells / (2 * (int64_t)rmax * rmax) > 1 ? cells / (2 * (int64_t)rmax * rmax) : 1;
    for (int64_t p = 0; p < npatch; p++) {
        const char ch = patch_letters[rng_below(r, 4)];
        const int32_t cx = (int32_t)rng_below(r, (uint64_t)W), cy = (int32_t)rng_below(r, (uint64_t)H);
        const int32_t rad = 1 + (int32_t)rng_below(r, (uint64_t)rmax);
        for (int32_t y = cy - rad; y <= cy + rad; y++)
            for (int32_t x = cx - rad; x <= cx + rad; x++)
                if (x >= 0 && y >= 0 && x < W && y < H
                    && (int64_t)(x - cx) * (x - cx) + (int64_t)(y - cy) * (y - cy) <= (int64_t)rad * rad)
                    chars[(size_t)y * (size_t)W + (size_t)x] = ch;
    }
    gen_random(g, o, r, idx);   /* pass[] = 0 at the obstacles */
    for (int32_t y = 0; y < H; y++)
        for (int32_t x = 0; x < W; x++) {
            char *c = &chars[(size_t)y * (size_t)W + (size_t)x];
            if (!g->pass[gb_grid_id(g, x, y)]) *c = '@';
            g->pass[gb_grid_id(g, x, y)] = *c == '.' || *c == 'G' || *c == 'S';
        }
}

/* Lattice of pitch p over a W x H map (see the top of the file). */
typedef struct lattice {
    int32_t p, nx, ny;
} lattice;

static lattice lattice_of(const gb_grid *g, int32_t p)
{
    lattice L = { p, (g->width - 1 + p - 1) / p, (g->height - 1 + p - 1) / p };
    return L;
}

/* First and last map coordinate of lattice row/column k along a side of
 * length n. */
static void span(const lattice *L, int32_t k, int32_t n, int32_t *a, int32_t *b)
{
    *a = k * L->p + 1;
    *b = k * L->p + L->p - 1;
    if (*b > n - 1) *b = n - 1;
}

/* All blocked, then every lattice cell's interior open. */
static void open_cells(gb_grid *g, const lattice *L)
{
    for (int32_t y = 0; y < g->height; y++)
        for (int32_t x = 0; x < g->width; x++)
            g->pass[gb_grid_id(g, x, y)] = (x % L->p != 0 && y % L->p != 0);
}

/* Wall segment between lattice cell a and its neighbour b (b = a + 1 or
 * a + nx): its cells are (x0 + t*dx, y0 + t*dy), t in [0, len). */
typedef struct segment { int32_t x0, y0, dx, dy, len; } segment;

static segment segment_of(const gb_grid *g, const lattice *L, int32_t a, int32_t b)
{
    int32_t i = a % L->nx, j = a / L->nx;
    segment s;
    int32_t lo, hi;
    if (b == a + 1) {                 /* east neighbour: vertical wall */
        span(L, j, g->height, &lo, &hi);
        s.x0 = (i + 1) * L->p; s.y0 = lo; s.dx = 0; s.dy = 1;
    } else {                          /* south neighbour: horizontal wall */
        span(L, i, g->width, &lo, &hi);
        s.x0 = lo; s.y0 = (j + 1) * L->p; s.dx = 1; s.dy = 0;
    }
    s.len = hi - lo + 1;
    return s;
}

static void open_cell(gb_grid *g, const segment *s, int32_t t)
{
    g->pass[gb_grid_id(g, s->x0 + t * s->dx, s->y0 + t * s->dy)] = 1;
}

/* Recursive backtracker over the lattice, iterative with an explicit
 * stack.  work holds 2 * nx * ny int32 (stack + visited flags). */
static void gen_maze(gb_grid *g, const gb_gen_opts *o, rng *r, int32_t *work)
{
    lattice L = lattice_of(g, o->corridor + 1);
    open_cells(g, &L);
    int32_t n = L.nx * L.ny;
    int32_t *stack = work, *seen = work + n;
    memset(seen, 0, (size_t)n * sizeof *seen);
    int32_t top = 0;
    int32_t s0 = (int32_t)rng_below(r, (uint64_t)n);
    stack[top++] = s0;
    seen[s0] = 1;
    while (top > 0) {
        int32_t c = stack[top - 1], i = c % L.nx, j = c / L.nx;
        int32_t nb[4], k = 0;
        if (j > 0 && !seen[c - L.nx]) nb[k++] = c - L.nx;          /* N */
        if (i + 1 < L.nx && !seen[c + 1]) nb[k++] = c + 1;         /* E */
        if (j + 1 < L.ny && !seen[c + L.nx]) nb[k++] = c + L.nx;   /* S */
        if (i > 0 && !seen[c - 1]) nb[k++] = c - 1;                /* W */
        if (k == 0) { top--; continue; }
        int32_t nxt = nb[rng_below(r, (uint64_t)k)];
        segment s = nxt > c ? segment_of(g, &L, c, nxt) : segment_of(g, &L, nxt, c);
        for (int32_t t = 0; t < s.len; t++) open_cell(g, &s, t);
        seen[nxt] = 1;
        stack[top++] = nxt;
    }
}

static int32_t uf_find(int32_t *parent, int32_t x)
{
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

/* Rooms: Kruskal over the shuffled wall segments.  work holds 3 * nx * ny
 * int32 (union-find parents + up to 2 * nx * ny segment codes). */
static void gen_rooms(gb_grid *g, const gb_gen_opts *o, rng *r, int32_t *work)
{
    lattice L = lattice_of(g, o->room);
    open_cells(g, &L);
    int32_t n = L.nx * L.ny;
    int32_t *parent = work, *seg = work + n;
    for (int32_t c = 0; c < n; c++) parent[c] = c;
    /* Segment code: 2 * a for the east wall of room a, 2 * a + 1 for its
     * south wall. */
    int32_t ns = 0;
    for (int32_t c = 0; c < n; c++) {
        if (c % L.nx + 1 < L.nx) seg[ns++] = 2 * c;
        if (c / L.nx + 1 < L.ny) seg[ns++] = 2 * c + 1;
    }
    for (int32_t k = ns - 1; k > 0; k--) {
        int32_t j = (int32_t)rng_below(r, (uint64_t)k + 1);
        int32_t t = seg[k]; seg[k] = seg[j]; seg[j] = t;
    }
    int32_t holes = o->room / 8 > 1 ? o->room / 8 : 1;
    for (int32_t k = 0; k < ns; k++) {
        int32_t a = seg[k] / 2, b = (seg[k] & 1) ? a + L.nx : a + 1;
        int coin = rng_below(r, 100) < GB_GEN_ROOM_OPEN_PCT;
        int32_t ra = uf_find(parent, a), rb = uf_find(parent, b);
        if (ra == rb && !coin) continue;
        if (ra != rb) parent[ra] = rb;
        segment s = segment_of(g, &L, a, b);
        for (int32_t h = 0; h < holes; h++)
            open_cell(g, &s, (int32_t)rng_below(r, (uint64_t)s.len));
    }
}

int gb_gen_map(const gb_gen_opts *o, gb_map *out, gb_diag *d)
{
    memset(out, 0, sizeof *out);
    int rc = gb_gen_check(o, d);
    if (rc) return rc;
    gb_grid *g = &out->grid;
    if (gb_grid_init(g, o->width, o->height) != 0)
        return out_of_memory(d, "the map's grid");
    size_t cells = (size_t)o->width * (size_t)o->height;
    out->terrain = gb_malloc(cells);
    /* Scratch: random needs W*H indices; maze 2 and rooms 3 ints per
     * lattice cell (at most W*H / 1 of them). */
    size_t nwork = o->family == GB_GEN_RANDOM || o->family == GB_GEN_TERRAIN ? cells : 3 * cells;
    int32_t *work = gb_malloc(nwork * sizeof *work);
    if (!out->terrain || !work) {
        gb_free(work);
        gb_map_free(out);
        return out_of_memory(d, "the generator's work arrays");
    }
    rng r;
    rng_seed(&r, o->seed, STREAM_MAP);
    switch (o->family) {
    case GB_GEN_RANDOM: gen_random(g, o, &r, work); break;
    case GB_GEN_MAZE:   gen_maze(g, o, &r, work);   break;
    case GB_GEN_TERRAIN: gen_terrain(g, o, &r, work, out->terrain); break;
    default:            gen_rooms(g, o, &r, work);  break;
    }
    gb_free(work);
    for (int32_t y = 0; o->family != GB_GEN_TERRAIN && y < o->height; y++)
        for (int32_t x = 0; x < o->width; x++)
            out->terrain[(size_t)y * (size_t)o->width + (size_t)x] =
                g->pass[gb_grid_id(g, x, y)] ? '.' : '@';
    gb_grid_recount(g);
    return 0;
}

/* ---- components ------------------------------------------------------ */

/* Breadth-first flood from root over legal moves; marks seen[] with tag,
 * returns the number of cells reached.  queue holds ncells ids. */
static int32_t flood(const gb_grid *g, const uint8_t *moves, uint8_t *seen, uint8_t tag,
                     int32_t root, int32_t *queue)
{
    int32_t head = 0, tail = 0;
    seen[root] = tag;
    queue[tail++] = root;
    while (head < tail) {
        int32_t id = queue[head++];
        unsigned mv = moves[id];
        for (int k = 0; k < 8; k++) {
            if (!(mv >> k & 1u)) continue;
            int32_t nb = id + g->off[k];
            if (seen[nb] == tag) continue;
            seen[nb] = tag;
            queue[tail++] = nb;
        }
    }
    return tail;
}

int gb_gen_largest_component(const gb_grid *g, gb_model m, uint8_t *mark, int32_t *count)
{
    *count = 0;
    const int32_t nc = g->ncells;   /* local: mark[] writes may alias *g */
    if (nc <= 0) return 0;
    memset(mark, 0, (size_t)nc);
    uint8_t *moves = gb_malloc((size_t)nc);
    int32_t *queue = gb_malloc((size_t)nc * sizeof *queue);
    if (!moves || !queue) {
        gb_free(moves);
        gb_free(queue);
        errno = ENOMEM;
        return -1;
    }
    gb_grid_moves(g, m, moves);
    /* Pass 1: mark[] = 2 for visited cells; find the largest component's
     * smallest id (ids are scanned in increasing order). */
    int32_t best = 0, best_root = -1;
    for (int32_t id = 0; id < nc; id++) {
        if (!g->pass[id] || mark[id]) continue;
        int32_t sz = flood(g, moves, mark, 2, id, queue);
        if (sz > best) { best = sz; best_root = id; }
    }
    memset(mark, 0, (size_t)nc);
    if (best_root >= 0) flood(g, moves, mark, 1, best_root, queue);
    gb_free(moves);
    gb_free(queue);
    *count = best;
    return 0;
}

/* ---- scenarios ------------------------------------------------------- */

typedef struct cand {
    int32_t bucket;
    int32_t start, goal;   /* cell ids */
    double length;
} cand;

/* Growable arrays of the scenario search, freed together. */
typedef struct scen_work {
    uint8_t *mark;     /* ncells: 1 = in the largest component */
    int32_t *comp;     /* the component's ids, increasing */
    uint8_t *used;     /* per comp index: already drawn as a start */
    double *dist;      /* ncells: Dijkstra from the current start */
    int32_t *bof;      /* per comp index: bucket of the cell this start */
    int32_t *order;    /* comp indices sorted by bucket */
    int32_t *first;    /* per bucket: first position in order[] (+1 slot) */
    int32_t *fill;     /* per bucket: queries accepted so far */
    size_t nbk;        /* buckets allocated in first[] and fill[] */
    cand *cand;        /* accepted queries in drawing order */
    size_t ncand, capcand;
} scen_work;

static void scen_work_free(scen_work *w)
{
    gb_free(w->mark); gb_free(w->comp); gb_free(w->used); gb_free(w->dist);
    gb_free(w->bof); gb_free(w->order); gb_free(w->first); gb_free(w->fill); gb_free(w->cand);
    memset(w, 0, sizeof *w);
}

/* Make first[] and fill[] hold at least nb buckets (new fill slots 0). */
static int grow_buckets(scen_work *w, size_t nb)
{
    if (nb <= w->nbk) return 0;
    size_t cap = w->nbk ? w->nbk : 64;
    while (cap < nb) cap *= 2;
    int32_t *f = gb_realloc(w->first, (cap + 1) * sizeof *f);
    if (!f) return -1;
    w->first = f;
    int32_t *c = gb_realloc(w->fill, cap * sizeof *c);
    if (!c) return -1;
    w->fill = c;
    memset(c + w->nbk, 0, (cap - w->nbk) * sizeof *c);
    w->nbk = cap;
    return 0;
}

static int push_cand(scen_work *w, cand c)
{
    if (w->ncand == w->capcand) {
        size_t cap = w->capcand ? 2 * w->capcand : 256;
        cand *p = gb_realloc(w->cand, cap * sizeof *p);
        if (!p) return -1;
        w->cand = p;
        w->capcand = cap;
    }
    w->cand[w->ncand++] = c;
    return 0;
}

/* Bucket of a length, floor(len / 4), or -1 when the length lies within
 * the printed precision of a bucket boundary without being on it (its
 * %.8f text would read as the other bucket), so such goals are never
 * drawn.  Lengths exactly on a boundary (4, 8, ... straight moves) are
 * kept: "4.00000000" reads back as bucket 1, like floor(4 / 4). */
static int32_t bucket_of(double len)
{
    double edge = 4.0 * nearbyint(len / 4.0);
    if (len != edge && fabs(len - edge) < 1e-8) return -1;
    double b = floor(len / 4.0);
    if (b < 0 || b > (double)INT32_MAX) return -1;
    return (int32_t)b;
}

/* One start: Dijkstra, then one goal per non-full bucket.  Sets *added to
 * the number of accepted queries.  0, or -1 (ENOMEM). */
static int draw_from_start(scen_work *w, const gb_grid *g, const gb_gen_opts *o, rng *r,
                           int32_t n, int32_t si, int32_t *added)
{
    int32_t s = w->comp[si];
    *added = 0;
    if (gb_dijkstra_all(g, o->model, s, w->dist) != 0) return -1;
    /* Buckets of every component cell; the start itself gets -1. */
    int32_t maxb = -1;
    for (int32_t k = 0; k < n; k++) {
        double dk = w->dist[w->comp[k]];
        int32_t b = (k == si || !isfinite(dk)) ? -1 : bucket_of(dk);
        w->bof[k] = b;
        if (b > maxb) maxb = b;
    }
    if (maxb < 0) return 0;
    if (grow_buckets(w, (size_t)maxb + 1) != 0) return -1;
    /* Counting sort of comp indices by bucket, stable. */
    int32_t *first = w->first;
    memset(first, 0, ((size_t)maxb + 2) * sizeof *first);
    for (int32_t k = 0; k < n; k++)
        if (w->bof[k] >= 0) first[w->bof[k] + 1]++;
    for (int32_t b = 0; b <= maxb; b++) first[b + 1] += first[b];
    for (int32_t k = 0; k < n; k++) {
        if (w->bof[k] < 0) continue;
        w->order[first[w->bof[k]]++] = k;
    }
    /* first[b] now is the end of bucket b; shift back to starts. */
    for (int32_t b = maxb; b > 0; b--) first[b] = first[b - 1];
    first[0] = 0;
    for (int32_t b = 0; b <= maxb; b++) {
        int32_t lo = first[b], hi = first[b + 1];
        if (hi <= lo || w->fill[b] >= o->per_bucket) continue;
        int32_t k = w->order[lo + (int32_t)rng_below(r, (uint64_t)(hi - lo))];
        cand c = { b, s, w->comp[k], w->dist[w->comp[k]] };
        if (push_cand(w, c) != 0) return -1;
        w->fill[b]++;
        (*added)++;
    }
    return 0;
}

/* What both scenario generators start from: the map column checked, the
 * largest component of o->model marked in w->mark (its size in *n >= 2)
 * and listed in w->comp in id order, w->dist and w->used (zeroed)
 * allocated.  0, or a diagnostic with *w freed. */
static int scen_setup(const gb_gen_opts *o, const gb_map *m, const char *map_field, scen_work *w,
                      int32_t *n, gb_diag *d)
{
    memset(w, 0, sizeof *w);
    if (!map_field || !map_field[0] || strpbrk(map_field, " \t\r\n"))
        return gb_diag_set(d, EX_USAGE, "", 0, 0,
                           "expected a map column without blanks, found %s",
                           map_field ? "one with blanks or an empty one" : "none");
    const gb_grid *g = &m->grid;
    if (!g->pass)
        return gb_diag_set(d, EX_USAGE, "", 0, 0,
                           "expected a generated or loaded map, found an empty one");
    w->mark = gb_malloc((size_t)g->ncells);
    w->dist = gb_malloc((size_t)g->ncells * sizeof *w->dist);
    if (!w->mark || !w->dist) {
        scen_work_free(w);
        return out_of_memory(d, "the scenario search");
    }
    if (gb_gen_largest_component(g, o->model, w->mark, n) != 0) {
        scen_work_free(w);
        return out_of_memory(d, "the component search");
    }
    if (*n < 2) {
        scen_work_free(w);
        return gb_diag_set(d, EX_DATAERR, m->path ? m->path : "", 0, 0,
                           "expected a largest connected component (%s) of at least 2 "
                           "cells, found %ld", gb_model_name(o->model), (long)*n);
    }
    w->comp = gb_malloc((size_t)*n * sizeof *w->comp);
    w->used = gb_calloc((size_t)*n, 1);
    if (!w->comp || !w->used) {
        scen_work_free(w);
        return out_of_memory(d, "the scenario search");
    }
    for (int32_t id = 0, k = 0; id < g->ncells; id++)
        if (w->mark[id]) w->comp[k++] = id;
    return 0;
}

int gb_gen_scen(const gb_gen_opts *o, const gb_map *m, const char *map_field,
                gb_scen *out, gb_diag *d)
{
    memset(out, 0, sizeof *out);
    int rc = gb_gen_check(o, d);
    if (rc) return rc;
    scen_work w;
    int32_t n;
    if ((rc = scen_setup(o, m, map_field, &w, &n, d)) != 0) return rc;
    const gb_grid *g = &m->grid;
    w.bof = gb_malloc((size_t)n * sizeof *w.bof);
    w.order = gb_malloc((size_t)n * sizeof *w.order);
    if (!w.bof || !w.order) {
        scen_work_free(&w);
        return out_of_memory(d, "the scenario search");
    }

    rng r;
    rng_seed(&r, o->seed, STREAM_SCEN);
    int64_t max_starts = (int64_t)GB_GEN_MAX_STARTS_PER_BUCKET * o->per_bucket;
    int64_t stall_max = (int64_t)GB_GEN_STALL_PER_BUCKET * o->per_bucket;
    int64_t starts = 0, stall = 0, used = 0;
    while (starts < max_starts && stall < stall_max && used < n) {
        int32_t si = (int32_t)rng_below(&r, (uint64_t)n);
        starts++;
        if (w.used[si]) { stall++; continue; }
        w.used[si] = 1;
        used++;
        int32_t added;
        if (draw_from_start(&w, g, o, &r, n, si, &added) != 0) {
            scen_work_free(&w);
            return out_of_memory(d, "Dijkstra's distances or the query list");
        }
        stall = added ? 0 : stall + 1;
    }

    /* Full buckets, then the evenly spaced subset under max_queries. */
    size_t nfull = 0;
    int32_t most = 0;
    for (size_t b = 0; b < w.nbk; b++) {
        if (w.fill[b] == o->per_bucket) nfull++;
        if (w.fill[b] > most) most = w.fill[b];
    }
    if (nfull == 0) {
        scen_work_free(&w);
        return gb_diag_set(d, EX_DATAERR, m->path ? m->path : "", 0, 0,
                           "expected a bucket filled with %d queries within %lld starts, "
                           "found at most %ld in any bucket",
                           o->per_bucket, (long long)starts, (long)most);
    }
    size_t keep = nfull;
    if (o->max_queries > 0 && (size_t)(o->max_queries / o->per_bucket) < keep)
        keep = (size_t)(o->max_queries / o->per_bucket);
    /* keepb[b] = 1 for kept buckets: index i of the full list is kept when
     * it is floor(t * (nfull - 1) / (keep - 1)) for some t (keep == 1: the
     * middle one). */
    uint8_t *keepb = gb_calloc(w.nbk, 1);
    size_t *slot = gb_malloc(w.nbk * sizeof *slot);
    if (!keepb || !slot) {
        gb_free(keepb); gb_free(slot);
        scen_work_free(&w);
        return out_of_memory(d, "the bucket selection");
    }
    {
        size_t t = 0, fi = 0;
        for (size_t b = 0; b < w.nbk && t < keep; b++) {
            if (w.fill[b] != o->per_bucket) continue;
            size_t want = keep == 1 ? (nfull - 1) / 2 : t * (nfull - 1) / (keep - 1);
            if (fi == want) { keepb[b] = 1; t++; }
            fi++;
        }
    }
    /* Output position of each kept bucket's first query. */
    size_t total = 0;
    for (size_t b = 0; b < w.nbk; b++) {
        slot[b] = total;
        if (keepb[b]) total += (size_t)o->per_bucket;
    }
    out->q = gb_calloc(total, sizeof *out->q);
    out->map_field = gb_strdup(map_field);
    if (!out->q || !out->map_field) {
        gb_free(keepb); gb_free(slot);
        scen_work_free(&w);
        gb_scen_free(out);
        return out_of_memory(d, "the generated queries");
    }
    for (size_t i = 0; i < w.ncand; i++) {
        const cand *c = &w.cand[i];
        if (!keepb[c->bucket]) continue;
        gb_query *q = &out->q[slot[c->bucket]++];
        q->bucket = c->bucket;
        q->map_w = g->width;
        q->map_h = g->height;
        q->sx = gb_grid_x(g, c->start);
        q->sy = gb_grid_y(g, c->start);
        q->gx = gb_grid_x(g, c->goal);
        q->gy = gb_grid_y(g, c->goal);
        q->length = c->length;
        q->decimals = GB_GEN_DECIMALS;
        q->tol = GB_GEN_TOL;
    }
    for (size_t i = 0; i < total; i++) out->q[i].line = (long)i + 2;
    out->n = total;
    out->version = 1;
    gb_free(keepb);
    gb_free(slot);
    scen_work_free(&w);
    return 0;
}

/* ---- many-to-one scenarios ------------------------------------------- */

int gb_gen_scen_m2o(const gb_gen_opts *o, const gb_map *m, const char *map_field,
                    gb_scen *out, gb_diag *d)
{
    memset(out, 0, sizeof *out);
    if (o->goals < 1 || o->goals > GB_GEN_MAX_GOALS || o->per_goal < 1
        || o->per_goal > GB_GEN_MAX_PER_GOAL)
        return gb_diag_set(d, EX_USAGE, "", 0, 0, "expected 1 <= goals <= %d and 1 <= starts "
                           "per goal <= %d, found %d and %d", GB_GEN_MAX_GOALS,
                           GB_GEN_MAX_PER_GOAL, o->goals, o->per_goal);
    scen_work w;
    int32_t n;
    int rc = scen_setup(o, m, map_field, &w, &n, d);
    if (rc) return rc;
    const gb_grid *g = &m->grid;
    /* starts per goal: at most the other cells of the component */
    const int32_t k = o->per_goal < n - 1 ? o->per_goal : n - 1;
    const int32_t ng = o->goals < n ? o->goals : n;
    out->q = gb_calloc((size_t)ng * (size_t)k, sizeof *out->q);
    out->map_field = gb_strdup(map_field);
    uint8_t *taken = gb_calloc((size_t)n, 1);   /* starts of the current goal */
    int32_t *tlist = gb_malloc((size_t)k * sizeof *tlist);
    if (!out->q || !out->map_field || !taken || !tlist) {
        gb_free(taken); gb_free(tlist);
        scen_work_free(&w);
        gb_scen_free(out);
        return out_of_memory(d, "the generated queries");
    }
    rng r;
    rng_seed(&r, o->seed, STREAM_SCEN);
    size_t total = 0;
    for (int32_t gi = 0; gi < ng; gi++) {
        int32_t si;
        do si = (int32_t)rng_below(&r, (uint64_t)n); while (w.used[si]);
        w.used[si] = 1;
        const int32_t goal = w.comp[si];
        if (gb_dijkstra_all(g, o->model, goal, w.dist) != 0) {
            gb_free(taken); gb_free(tlist);
            scen_work_free(&w);
            gb_scen_free(out);
            return out_of_memory(d, "Dijkstra's distances");
        }
        /* k distinct starts, uniform over the component minus the goal and
         * the cells whose length would print ambiguously (bucket_of < 0) */
        int32_t got = 0;
        for (int64_t tries = 0; got < k && tries < 64 * (int64_t)n; tries++) {
            int32_t t = (int32_t)rng_below(&r, (uint64_t)n);
            if (t == si || taken[t] || bucket_of(w.dist[w.comp[t]]) < 0) continue;
            taken[t] = 1;
            tlist[got++] = t;
            gb_query *q = &out->q[total++];
            q->bucket = bucket_of(w.dist[w.comp[t]]);
            q->map_w = g->width;
            q->map_h = g->height;
            q->sx = gb_grid_x(g, w.comp[t]);
            q->sy = gb_grid_y(g, w.comp[t]);
            q->gx = gb_grid_x(g, goal);
            q->gy = gb_grid_y(g, goal);
            /* symmetric moves: the distance from the goal is the distance to it */
            q->length = w.dist[w.comp[t]];
            q->decimals = GB_GEN_DECIMALS;
            q->tol = GB_GEN_TOL;
        }
        for (int32_t j = 0; j < got; j++) taken[tlist[j]] = 0;
    }
    gb_free(taken);
    gb_free(tlist);
    scen_work_free(&w);
    for (size_t i = 0; i < total; i++) out->q[i].line = (long)i + 2;
    out->n = total;
    out->version = 1;
    return 0;
}
