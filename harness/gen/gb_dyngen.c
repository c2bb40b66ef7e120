/*
 * gb_dyngen.c -- the dynamic scenario generator.  See gb_dyngen.h for
 * what it draws and in which order.
 *
 * Data structure
 *   A work record holds, per map: the list of door cells (increasing
 *   id), the largest component's mark and cell list (only without a
 *   .scen), a search workspace for the initial paths, and a per-cell
 *   stamp telling "within 8 of the current path" (stamp == query + 1),
 *   so no array is cleared between queries.  The output goes straight
 *   into the growing arrays of a gb_dynscen (same invariants as a loaded
 *   one).
 *
 * Time complexity: O(ncells) once, then per query one A* and
 * O(L * 17^2) for the band around a path of L cells.
 */
#include "gb_dyngen.h"

#include <errno.h>
#include <string.h>

#include "gb_alloc.h"
#include "gb_gen.h"
#include "gb_search.h"

#define BAND 8   /* doors within this Chebyshev distance of the path */

void gb_dyngen_defaults(gb_dyngen_opts *o)
{
    memset(o, 0, sizeof *o);
    o->queries = 20;
    o->doors = 3;
    o->obstacles = 3;
    o->radius = 3;
    o->blob = 3;
    o->reopen_pct = 30;
    o->model = GB_MODEL_8_NOCUT;
}

int gb_dyngen_check(const gb_dyngen_opts *o, gb_diag *d)
{
    gb_diag_clear(d);
    if (o->queries < 1 || o->queries > GB_DYNGEN_MAX_QUERIES)
        return gb_diag_set(d, EX_USAGE, "", 0, 0, "expected --queries from 1 to %d, found %d",
                           GB_DYNGEN_MAX_QUERIES, o->queries);
    if (o->doors < 0 || o->doors > GB_DYNGEN_MAX_EVENTS)
        return gb_diag_set(d, EX_USAGE, "", 0, 0, "expected --doors from 0 to %d, found %d",
                           GB_DYNGEN_MAX_EVENTS, o->doors);
    if (o->obstacles < 0 || o->obstacles > GB_DYNGEN_MAX_EVENTS)
        return gb_diag_set(d, EX_USAGE, "", 0, 0, "expected --obstacles from 0 to %d, found %d",
                           GB_DYNGEN_MAX_EVENTS, o->obstacles);
    if (o->radius < 1 || o->radius > GB_DYNGEN_MAX_RADIUS)
        return gb_diag_set(d, EX_USAGE, "", 0, 0, "expected --radius from 1 to %d, found %d",
                           GB_DYNGEN_MAX_RADIUS, o->radius);
    if (o->blob < 1 || o->blob > GB_DYNGEN_MAX_BLOB)
        return gb_diag_set(d, EX_USAGE, "", 0, 0, "expected --blob from 1 to %d, found %d",
                           GB_DYNGEN_MAX_BLOB, o->blob);
    if (o->reopen_pct < 0 || o->reopen_pct > 100)
        return gb_diag_set(d, EX_USAGE, "", 0, 0, "expected --reopen from 0 to 100, found %d",
                           o->reopen_pct);
    if ((unsigned)o->model >= GB_MODEL_COUNT)
        return gb_diag_set(d, EX_USAGE, "", 0, 0, "expected a movement model, found %d",
                           (int)o->model);
    return 0;
}

/* ---- PRNG: splitmix64, integers by rejection ------------------------- */

static uint64_t next64(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Uniform in [0, n), n >= 1. */
static uint64_t below(uint64_t *s, uint64_t n)
{
    uint64_t lim = UINT64_MAX - UINT64_MAX % n;
    uint64_t v;
    do v = next64(s); while (v >= lim);
    return v % n;
}

/* Uniform in [lo, hi] (hi >= lo). */
static int64_t between(uint64_t *s, int64_t lo, int64_t hi)
{
    return lo + (int64_t)below(s, (uint64_t)(hi - lo) + 1);
}

/* ---- output arrays -------------------------------------------------- */

typedef struct work {
    gb_dynscen *out;
    size_t qcap, ecap, ccap;
    gb_diag *d;
    const char *path;
} work;

static int oom(work *w)
{
    return gb_diag_set(w->d, EX_OSERR, w->path, 0, 0, "expected memory for the dynamic "
                       "scenario, found none");
}

static int grow(work *w, void **arr, size_t n, size_t *cap, size_t sz)
{
    if (n < *cap) return 0;
    size_t nc = *cap ? 2 * *cap : 64;
    if (nc > SIZE_MAX / sz) return oom(w);
    void *p = gb_realloc(*arr, nc * sz);
    if (!p) return oom(w);
    *arr = p;
    *cap = nc;
    return 0;
}

/* Append an event with cells cl[0..n) to the last query. */
static int add_event(work *w, gb_dyn_trigger trig, int32_t value, int block,
                     const gb_dyn_cell *cl, size_t n)
{
    gb_dynscen *s = w->out;
    size_t c0 = s->ncell;
    for (size_t i = 0; i < n; i++) {
        if (grow(w, (void **)&s->cell, s->ncell, &w->ccap, sizeof *s->cell)) return EX_OSERR;
        s->cell[s->ncell++] = cl[i];
    }
    if (grow(w, (void **)&s->ev, s->nev, &w->ecap, sizeof *s->ev)) return EX_OSERR;
    gb_dyn_event *e = &s->ev[s->nev++];
    memset(e, 0, sizeof *e);
    e->trigger = trig;
    e->value = value;
    e->block = block;
    e->c0 = c0;
    e->nc = n;
    s->q[s->n - 1].nev++;
    return 0;
}

static int is_door(const gb_grid *g, int32_t id)
{
    const uint8_t *p = g->pass;
    if (!p[id]) return 0;
    int n = p[id - g->stride], s = p[id + g->stride], e = p[id + 1], wv = p[id - 1];
    return (!e && !wv && n && s) || (!n && !s && e && wv);
}

int gb_dyngen(const gb_dyngen_opts *o, const gb_map *m, const char *map_field,
              const gb_scen *scen, gb_dynscen *out, gb_diag *d)
{
    memset(out, 0, sizeof *out);
    int rc = gb_dyngen_check(o, d);
    if (rc) return rc;
    const gb_grid *g = &m->grid;
    work w = { out, 0, 0, 0, d, m->path ? m->path : "" };
    uint64_t rng = o->seed;
    int32_t *doors = NULL, *comp = NULL, *near_doors = NULL;
    uint8_t *mark = NULL;
    uint32_t *band = NULL;
    gb_ws *ws = NULL;
    int32_t ndoors = 0, ncomp = 0;
    size_t nc = (size_t)g->ncells;
    out->version = GB_DYN_VERSION;
    if (!(out->map_field = gb_strdup(map_field))) { rc = oom(&w); goto done; }
    doors = gb_malloc(nc * sizeof *doors);
    near_doors = gb_malloc(nc * sizeof *near_doors);
    band = gb_calloc(nc, sizeof *band);
    ws = gb_ws_new(g, o->model);
    if (!doors || !near_doors || !band || !ws) { rc = oom(&w); goto done; }
    for (int32_t y = 0; y < g->height; y++)
        for (int32_t x = 0; x < g->width; x++) {
            int32_t id = gb_grid_id(g, x, y);
            if (is_door(g, id)) doors[ndoors++] = id;
        }
    if (!scen) {
        mark = gb_malloc(nc);
        comp = gb_malloc(nc * sizeof *comp);
        if (!mark || !comp) { rc = oom(&w); goto done; }
        int32_t cnt;
        if (gb_gen_largest_component(g, o->model, mark, &cnt) != 0) { rc = oom(&w); goto done; }
        for (int32_t id = 0; id < g->ncells; id++) if (mark[id]) comp[ncomp++] = id;
        if (ncomp < 2) {
            rc = gb_diag_set(d, EX_DATAERR, w.path, 0, 0, "expected a map with two connected "
                             "passable cells, found a largest component of %ld",
                             (long)ncomp);
            goto done;
        }
    }
    gb_solver_spec astar;
    char err[128];
    gb_solver_parse("astar-octile", &astar, err, sizeof err);
    size_t si = 0;     /* next .scen query to look at */
    int32_t want = (g->width > g->height ? g->width : g->height) / 4;
    for (int qi = 0; qi < o->queries; qi++) {
        int32_t a = -1, b = -1;
        if (scen) {
            /* evenly spread: query floor(qi * n / queries), or the next fitting one */
            size_t from = (size_t)((uint64_t)qi * scen->n / (uint64_t)o->queries);
            if (from < si) from = si;
            for (size_t k = from; k < scen->n && a < 0; k++) {
                const gb_query *q = &scen->q[k];
                si = k + 1;
                if (q->map_w != g->width || q->map_h != g->height) {
                    rc = gb_diag_set(d, EX_DATAERR, scen->path ? scen->path : "", q->line, 0,
                                     "expected the map size %ldx%ld, found %ldx%ld",
                                     (long)g->width, (long)g->height, (long)q->map_w,
                                     (long)q->map_h);
                    goto done;
                }
                if (!gb_grid_passable_xy(g, q->sx, q->sy) || !gb_grid_passable_xy(g, q->gx, q->gy)
                    || (q->sx == q->gx && q->sy == q->gy))
                    continue;
                a = gb_grid_id(g, q->sx, q->sy);
                b = gb_grid_id(g, q->gx, q->gy);
            }
            if (a < 0) break;    /* the .scen has no more usable queries */
        } else {
            int32_t bestd = -1;
            for (int tries = 0; tries < 64 && bestd < want; tries++) {
                int32_t s = comp[below(&rng, (uint64_t)ncomp)], t = comp[below(&rng, (uint64_t)ncomp)];
                if (s == t) continue;
                int32_t dx = gb_grid_x(g, s) - gb_grid_x(g, t), dy = gb_grid_y(g, s) - gb_grid_y(g, t);
                if (dx < 0) dx = -dx;
                if (dy < 0) dy = -dy;
                int32_t dd = dx > dy ? dx : dy;
                if (dd > bestd) { bestd = dd; a = s; b = t; }
            }
            if (a < 0) { a = comp[0]; b = comp[1]; }
        }
        gb_result r;
        if (gb_solve(ws, &astar, GB_Q_BHEAP, a, b, &r) != 0) { rc = oom(&w); goto done; }
        if (r.status != GB_FOUND) continue;   /* a .scen pair not connected under the model */
        if (grow(&w, (void **)&out->q, out->n, &w.qcap, sizeof *out->q)) { rc = EX_OSERR; goto done; }
        gb_dyn_query *dq = &out->q[out->n++];
        memset(dq, 0, sizeof *dq);
        dq->map_w = g->width;
        dq->map_h = g->height;
        dq->sx = gb_grid_x(g, a);
        dq->sy = gb_grid_y(g, a);
        dq->gx = gb_grid_x(g, b);
        dq->gy = gb_grid_y(g, b);
        dq->ev0 = out->nev;
        int32_t L = r.path_len - 1;
        /* the path is in the workspace until the next search: copy what we need */
        uint32_t tag = (uint32_t)qi + 1;
        for (int32_t i = 0; i < r.path_len; i++) {
            int32_t px = gb_grid_x(g, r.path[i]), py = gb_grid_y(g, r.path[i]);
            for (int32_t y = py - BAND; y <= py + BAND; y++)
                for (int32_t x = px - BAND; x <= px + BAND; x++)
                    if (x >= 0 && y >= 0 && x < g->width && y < g->height)
                        band[gb_grid_id(g, x, y)] = tag;
        }
        int32_t nnear = 0;
        for (int32_t i = 0; i < ndoors; i++)
            if (band[doors[i]] == tag && doors[i] != a && doors[i] != b)
                near_doors[nnear++] = doors[i];
        if (nnear < o->doors) {   /* too few near the path: any door of the map */
            nnear = 0;
            for (int32_t i = 0; i < ndoors; i++)
                if (doors[i] != a && doors[i] != b) near_doors[nnear++] = doors[i];
        }
        int32_t half = L / 2 > 1 ? L / 2 : 1;
        for (int k = 0; k < o->doors && nnear > 0; k++) {
            int32_t j = (int32_t)below(&rng, (uint64_t)nnear);
            int32_t id = near_doors[j];
            near_doors[j] = near_doors[--nnear];      /* without repetition */
            gb_dyn_cell c = { gb_grid_x(g, id), gb_grid_y(g, id) };
            int32_t t = (int32_t)between(&rng, 1, half);
            if ((rc = add_event(&w, GB_DYN_AT, t, 1, &c, 1))) goto done;
            if ((int)below(&rng, 100) < o->reopen_pct) {
                int32_t t2 = (int32_t)between(&rng, (int64_t)t + 1, (int64_t)t + half);
                if ((rc = add_event(&w, GB_DYN_AT, t2, 0, &c, 1))) goto done;
            }
        }
        /* obstacles ahead on the path: the path is still r.path (no search since) */
        gb_dyn_cell cells[GB_DYNGEN_MAX_BLOB * GB_DYNGEN_MAX_BLOB];
        for (int k = 0; k < o->obstacles; k++) {
            int32_t lo = L / 5, hi = 4 * L / 5;
            if (hi < lo) hi = lo;
            int32_t p = r.path[between(&rng, lo, hi)];
            int32_t cx = gb_grid_x(g, p) + (int32_t)between(&rng, -2, 2);
            int32_t cy = gb_grid_y(g, p) + (int32_t)between(&rng, -2, 2);
            int32_t side = (int32_t)between(&rng, 1, o->blob);
            size_t n = 0;
            for (int32_t y = cy; y < cy + side; y++)
                for (int32_t x = cx; x < cx + side; x++) {
                    if (!gb_grid_passable_xy(g, x, y)) continue;
                    int32_t id = gb_grid_id(g, x, y);
                    if (id == a || id == b) continue;
                    cells[n++] = (gb_dyn_cell){ x, y };
                }
            if (n > 0 && (rc = add_event(&w, GB_DYN_NEAR, o->radius, 1, cells, n))) goto done;
        }
    }
    if (out->n == 0) {
        rc = gb_diag_set(d, EX_DATAERR, scen && scen->path ? scen->path : w.path, 0, 0,
                         "expected a query with a path on the map, found none");
        goto done;
    }
    /* line numbers as the written file has them */
    long line = 2;
    for (size_t i = 0; i < out->n; i++) {
        out->q[i].line = line++;
        for (size_t e = 0; e < out->q[i].nev; e++) out->ev[out->q[i].ev0 + e].line = line++;
    }
done:
    gb_free(doors);
    gb_free(near_doors);
    gb_free(band);
    gb_free(mark);
    gb_free(comp);
    gb_ws_free(ws);
    if (rc) gb_dynscen_free(out);
    return rc;
}
