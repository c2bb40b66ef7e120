/*
 * test_cpd.c -- the compressed path database (solvers/gb_cpd.c, solver
 * "cpd") against the Dijkstra oracle (gb_dijkstra_all, 8-nocut):
 *   - on thousands of random grids (uniform noise of every density, and
 *     rooms with doors, where rows have few runs), from a few sources to
 *     EVERY cell (make test: a sample of them; GB_TEST_FULL: ten times as
 *     many grids);
 *   - on the shared Moving AI maps: sampled queries of each scenario file,
 *     plus the same start to a spread of other cells (make test: arena and
 *     den312d; GB_TEST_FULL: also Berlin_0_256, a build of minutes;
 *     GB_CPD_LARGE=1 as well: the 512x512 maps, hours);
 *   - corner cases: start == goal, unreachable goals (a wall, a diagonal
 *     gap that no-corner-cutting forbids, single-cell components, as
 *     start and as goal), a one-cell map, other models refused.
 * For every query: found iff Dijkstra's distance is finite; the path
 * passes the independent validator (every step legal, reported cost equal
 * to the recomputed one); its cost equals Dijkstra's exactly (the same
 * decoding of the same step counts).  Also: the byte count against the
 * allocator, queries that allocate nothing, the build in prepare and never
 * in gb_solve, and allocation failure at every allocation of a build.
 *
 * More random grids: GB_CPD_GRIDS=N, GB_CPD_SEED=S.
 */
#include "gb_test.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gb_alloc.h"
#include "gb_map.h"
#include "gb_scen.h"
#include "gb_search.h"
#include "gb_stats.h"
#include "gb_validate.h"

static long env_long(const char *name, long dflt)
{
    const char *v = getenv(name);
    return v && *v ? strtol(v, NULL, 10) : dflt;
}

static gb_solver_spec cpd_spec(void)
{
    gb_solver_spec sp;
    char err[256];
    cr_assert_eq(gb_solver_parse("cpd", &sp, err, sizeof err), 0, "%s", err);
    return sp;
}

/* Scratch for checking queries on one grid. */
typedef struct checker {
    const gb_grid *g;
    gb_ws *ws;
    gb_solver_spec sp;
    double *dist;      /* ncells: Dijkstra from the current source */
    gb_xy *xy;         /* ncells */
    long queries, found;
    uint64_t lookups;  /* table look-ups of the found paths */
    uint64_t steps;    /* steps of the found paths */
} checker;

static void checker_init(checker *c, const gb_grid *g)
{
    memset(c, 0, sizeof *c);
    c->g = g;
    c->sp = cpd_spec();
    c->ws = gb_ws_new(g, GB_MODEL_8_NOCUT);
    c->dist = malloc((size_t)g->ncells * sizeof *c->dist);
    c->xy = malloc((size_t)g->ncells * sizeof *c->xy);
    cr_assert(c->ws && c->dist && c->xy);
    cr_assert_eq(gb_ws_prepare(c->ws, &c->sp, GB_Q_BHEAP), 0, "prepare failed (errno %d)", errno);
}

static void checker_free(checker *c)
{
    gb_ws_free(c->ws);
    free(c->dist);
    free(c->xy);
}

/* One query s -> t, checked against c->dist (Dijkstra from s). */
static void check_one(checker *c, int32_t s, int32_t t, const char *where)
{
    const gb_grid *g = c->g;
    gb_result r;
    cr_assert_eq(gb_solve(c->ws, &c->sp, GB_Q_BHEAP, s, t, &r), 0);
    gb_xy a = { gb_grid_x(g, s), gb_grid_y(g, s) }, b = { gb_grid_x(g, t), gb_grid_y(g, t) };
    const double d = c->dist[t];
    c->queries++;
    if (r.status == GB_UNREACHABLE) {
        cr_assert(isinf(d), "%s: (%d,%d)->(%d,%d): unreachable, Dijkstra %.9f", where, a.x, a.y,
                  b.x, b.y, d);
        return;
    }
    cr_assert_eq(r.status, GB_FOUND, "%s: (%d,%d)->(%d,%d): status %d", where, a.x, a.y, b.x,
                 b.y, (int)r.status);
    cr_assert(!isinf(d), "%s: (%d,%d)->(%d,%d): found a path, Dijkstra says unreachable", where,
              a.x, a.y, b.x, b.y);
    c->found++;
    cr_assert(r.path_len >= 1 && r.path_len <= g->npassable, "%s: path of %d cells", where,
              r.path_len);
    for (int32_t i = 0; i < r.path_len; i++)
        c->xy[i] = (gb_xy){ gb_grid_x(g, r.path[i]), gb_grid_y(g, r.path[i]) };
    gb_check chk;
    int ok = gb_validate_path(g, GB_MODEL_8_NOCUT, a, b, c->xy, (size_t)r.path_len, r.cost, &chk);
    cr_assert(ok, "%s: (%d,%d)->(%d,%d): invalid path: %s", where, a.x, a.y, b.x, b.y, chk.msg);
    /* both decode a + b sqrt2 from exact step counts: equal bit for bit */
    cr_assert(chk.cost == d && r.cost == d,
              "%s: (%d,%d)->(%d,%d): cost %.9f (%lld straight, %lld diagonal), Dijkstra %.9f",
              where, a.x, a.y, b.x, b.y, chk.cost, (long long)chk.straight, (long long)chk.diag, d);
    cr_assert_leq(r.st.expanded, (uint64_t)(r.path_len - 1), "%s: more look-ups than steps", where);
    c->lookups += r.st.expanded;
    c->steps += (uint64_t)(r.path_len - 1);
}

/* Queries from nsrc random sources (and, with every, to every cell; else
 * to 64 random cells). */
static void check_grid(checker *c, uint64_t *seed, int nsrc, int every, const char *where)
{
    const gb_grid *g = c->g;
    for (int k = 0; k < nsrc; k++) {
        int32_t s;
        do s = gb_grid_id(g, (int)(gb_rng_next(seed) % (uint64_t)g->width),
                          (int)(gb_rng_next(seed) % (uint64_t)g->height));
        while (!g->pass[s]);
        cr_assert_eq(gb_dijkstra_all(g, GB_MODEL_8_NOCUT, s, c->dist), 0);
        if (every) {
            for (int32_t t = 0; t < g->ncells; t++)
                if (g->pass[t]) check_one(c, s, t, where);
            continue;
        }
        for (int j = 0; j < 64; j++) {
            int32_t t;
            do t = gb_grid_id(g, (int)(gb_rng_next(seed) % (uint64_t)g->width),
                              (int)(gb_rng_next(seed) % (uint64_t)g->height));
            while (!g->pass[t]);
            check_one(c, s, t, where);
        }
    }
}

static long ngrids(long dflt)
{
    return env_long("GB_CPD_GRIDS", GB_TEST_PICK(10 * dflt, dflt, dflt / 3));
}

GB_TEST(cpd, random_noise_grids_match_dijkstra)
{
    const long n = ngrids(1200);
    uint64_t seed = (uint64_t)env_long("GB_CPD_SEED", 20261202);
    long found = 0, queries = 0;
    uint64_t lookups = 0;
    char where[128];
    for (long gi = 0; gi < n; gi++) {
        int side = gi % 20 == 19 ? 64 : 20;   /* every 20th up to 64 x 64: threads */
        int w = 1 + (int)(gb_rng_next(&seed) % (uint64_t)side), h = 1 + (int)(gb_rng_next(&seed) % (uint64_t)side);
        int density = (int)(gb_rng_next(&seed) % 50);
        gb_grid g;
        cr_assert_eq(gb_grid_init(&g, w, h), 0);
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
                g.pass[gb_grid_id(&g, x, y)] = (int)(gb_rng_next(&seed) % 100) >= density;
        gb_grid_recount(&g);
        if (g.npassable > 0) {
            checker c;
            checker_init(&c, &g);
            snprintf(where, sizeof where, "noise grid %ld (%dx%d, %d%%)", gi, w, h, density);
            check_grid(&c, &seed, 2, 1, where);
            found += c.found;
            queries += c.queries;
            lookups += c.lookups;
            checker_free(&c);
        }
        gb_grid_free(&g);
    }
    cr_expect_gt(found, queries / 4, "only %ld of %ld queries had a path", found, queries);
    cr_expect_gt(queries, 80 * n, "only %ld queries on %ld grids", queries, n);
    cr_expect_gt(lookups, (uint64_t)found, "the table was hardly read: %llu look-ups",
                 (unsigned long long)lookups);
}

/* Rooms of random sizes joined by one-cell doors, some doors closed: long
 * runs, long detours, and rooms cut off. */
GB_TEST(cpd, random_room_grids_match_dijkstra)
{
    const long n = ngrids(150);
    uint64_t seed = (uint64_t)env_long("GB_CPD_SEED", 20261202) ^ 0x9e3779b97f4a7c15ull;
    char where[128];
    long queries = 0;
    for (long gi = 0; gi < n; gi++) {
        int w = 8 + (int)(gb_rng_next(&seed) % 40), h = 8 + (int)(gb_rng_next(&seed) % 40);
        int room = 3 + (int)(gb_rng_next(&seed) % 8);
        gb_grid g;
        cr_assert_eq(gb_grid_init(&g, w, h), 0);
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                int wall = (x % room == room - 1) || (y % room == room - 1);
                int door = (x % room == room / 2) || (y % room == room / 2);
                int open = !wall || (door && gb_rng_next(&seed) % 4 != 0);
                g.pass[gb_grid_id(&g, x, y)] = (uint8_t)open;
            }
        gb_grid_recount(&g);
        if (g.npassable > 0) {
            checker c;
            checker_init(&c, &g);
            snprintf(where, sizeof where, "room grid %ld (%dx%d, rooms of %d)", gi, w, h, room);
            check_grid(&c, &seed, 2, 1, where);
            queries += c.queries;
            checker_free(&c);
        }
        gb_grid_free(&g);
    }
    cr_expect_gt(queries, 10000, "only %ld queries", queries);
}

/* ---- corner cases ---------------------------------------------------------- */

static void grid_from(gb_grid *g, const char *const *rows, int h)
{
    int w = (int)strlen(rows[0]);
    cr_assert_eq(gb_grid_init(g, w, h), 0);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) g->pass[gb_grid_id(g, x, y)] = rows[y][x] == '.';
    gb_grid_recount(g);
}

GB_TEST(cpd, corner_cases)
{
    /* (4,0) and (0,3) are single-cell components: (0,3) touches (1,2)
     * and (1,4) only diagonally past blocked cells (no corner cutting);
     * the four cells at the top right are a component of their own */
    static const char *const rows[] = {
        "...#.#..",
        "...###..",
        "#....###",
        ".#......",
        "#.......",
    };
    gb_grid g;
    grid_from(&g, rows, 5);
    checker c;
    checker_init(&c, &g);
    for (int32_t s = 0; s < g.ncells; s++) {   /* every pair, against Dijkstra */
        if (!g.pass[s]) continue;
        cr_assert_eq(gb_dijkstra_all(&g, GB_MODEL_8_NOCUT, s, c.dist), 0);
        for (int32_t t = 0; t < g.ncells; t++)
            if (g.pass[t]) check_one(&c, s, t, "corner grid");
    }
    gb_result r;
    const int32_t iso = gb_grid_id(&g, 4, 0), a = gb_grid_id(&g, 0, 3);
    const int32_t main_ = gb_grid_id(&g, 0, 0), top = gb_grid_id(&g, 7, 0);
    cr_assert_eq(gb_solve(c.ws, &c.sp, GB_Q_BHEAP, iso, iso, &r), 0);
    cr_assert_eq(r.status, GB_FOUND, "s == g on a single-cell component");
    cr_assert_eq(r.path_len, 1);
    cr_assert_eq(r.cost, 0.0);
    cr_assert_eq(r.path[0], iso);
    const int32_t un[][2] = { { iso, main_ }, { main_, iso }, { a, gb_grid_id(&g, 1, 4) },
                              { gb_grid_id(&g, 1, 2), a }, { main_, top }, { top, main_ } };
    for (size_t i = 0; i < sizeof un / sizeof un[0]; i++) {
        cr_assert_eq(gb_solve(c.ws, &c.sp, GB_Q_BHEAP, un[i][0], un[i][1], &r), 0);
        cr_assert_eq(r.status, GB_UNREACHABLE, "pair %zu", i);
        cr_assert_eq(r.path_len, 0);
        cr_assert(isinf(r.cost));
    }
    cr_assert_eq(gb_solve(c.ws, &c.sp, GB_Q_BHEAP, gb_grid_id(&g, 6, 1), top, &r), 0);
    cr_assert_eq(r.status, GB_FOUND, "inside the top-right component");
    cr_assert_eq(r.path_len, 2);
    checker_free(&c);
    gb_grid_free(&g);

    /* an open floor: every path is a freespace path, found without a
     * look-up; behind a wall, the table is read */
    static const char *const open_[] = { "........", "........", "..####..", "........" };
    grid_from(&g, open_, 4);
    checker_init(&c, &g);
    cr_assert_eq(gb_solve(c.ws, &c.sp, GB_Q_BHEAP, gb_grid_id(&g, 0, 0), gb_grid_id(&g, 7, 1), &r), 0);
    cr_assert_eq(r.status, GB_FOUND);
    cr_assert_eq(r.st.expanded, 0, "a freespace path took %llu look-ups", (unsigned long long)r.st.expanded);
    cr_assert_eq(gb_solve(c.ws, &c.sp, GB_Q_BHEAP, gb_grid_id(&g, 3, 0), gb_grid_id(&g, 4, 3), &r), 0);
    cr_assert_eq(r.status, GB_FOUND);
    cr_assert_gt(r.st.expanded, 0, "around the wall without a look-up");
    for (int32_t u = 0; u < g.ncells; u++) {   /* and every pair, against Dijkstra */
        if (!g.pass[u]) continue;
        cr_assert_eq(gb_dijkstra_all(&g, GB_MODEL_8_NOCUT, u, c.dist), 0);
        for (int32_t t = 0; t < g.ncells; t++)
            if (g.pass[t]) check_one(&c, u, t, "open grid");
    }
    checker_free(&c);
    gb_grid_free(&g);

    /* a one-cell map */
    static const char *const one[] = { "." };
    grid_from(&g, one, 1);
    checker_init(&c, &g);
    const int32_t s = gb_grid_id(&g, 0, 0);
    cr_assert_eq(gb_solve(c.ws, &c.sp, GB_Q_BHEAP, s, s, &r), 0);
    cr_assert_eq(r.status, GB_FOUND);
    cr_assert_eq(r.path_len, 1);
    checker_free(&c);
    gb_grid_free(&g);
}

GB_TEST(cpd, other_models_are_refused)
{
    gb_solver_spec sp = cpd_spec();
    char err[256];
    for (int m = 0; m < GB_MODEL_COUNT; m++) {
        int un = gb_solver_unsupported(&sp, (gb_model)m, err, sizeof err);
        cr_expect_eq(un != 0, m != GB_MODEL_8_NOCUT, "model %s: unsupported=%d", gb_model_name((gb_model)m), un);
        if (un) cr_expect(strstr(err, "cpd") && strstr(err, "8-nocut"), "message: %s", err);
    }
    gb_grid g;
    static const char *const rows[] = { "...", "..." };
    grid_from(&g, rows, 2);
    gb_ws *ws = gb_ws_new(&g, GB_MODEL_4);
    errno = 0;
    cr_expect_eq(gb_ws_prepare(ws, &sp, GB_Q_BHEAP), -1);
    cr_expect_eq(errno, EINVAL);
    gb_ws_free(ws);
    gb_grid_free(&g);
}

/* ---- the shared maps --------------------------------------------------------- */

static const char *shared_dir(void)
{
    const char *d = getenv("GB_SHARED");
    return d && *d ? d : "../shared/movingai";
}

/* Every step-th query of a scenario file (its sampled queries), plus the
 * same start to 16 other cells of the map.  A walk follows its canonical
 * path without a look-up between stop cells: fewer than one look-up per
 * four steps on every shared map (one per 1.5 steps when each step was a
 * look-up, before the freespace test ends it). */
static void check_scen(const char *rel, int step)
{
    char path[1024], mpath[1024];
    snprintf(path, sizeof path, "%s/%s", shared_dir(), rel);
    FILE *f = fopen(path, "r");
    if (!f) cr_skip_test("%s not found", path);
    fclose(f);
    gb_scen sc;
    gb_map mp;
    gb_diag d;
    cr_assert_eq(gb_scen_load(path, &sc, &d), 0, "%s", d.msg);
    cr_assert_eq(gb_scen_resolve_map(&sc, mpath, sizeof mpath, &d), 0, "%s", d.msg);
    cr_assert_eq(gb_map_load(mpath, &mp, &d), 0, "%s", d.msg);
    checker c;
    checker_init(&c, &mp.grid);
    uint64_t seed = 20261202;
    char where[1100];
    long n = 0;
    for (size_t i = 0; i < sc.n; i += (size_t)step) {
        const gb_query *q = &sc.q[i];
        if (gb_scen_check_query(&sc, i, &mp, &d) != 0) continue;
        const int32_t s = gb_grid_id(&mp.grid, q->sx, q->sy), t = gb_grid_id(&mp.grid, q->gx, q->gy);
        snprintf(where, sizeof where, "%s:%ld", rel, q->line);
        cr_assert_eq(gb_dijkstra_all(&mp.grid, GB_MODEL_8_NOCUT, s, c.dist), 0);
        check_one(&c, s, t, where);
        for (int j = 0; j < 16; j++) {
            int32_t u;
            do u = (int32_t)(gb_rng_next(&seed) % (uint64_t)mp.grid.ncells);
            while (!mp.grid.pass[u]);
            check_one(&c, s, u, where);
        }
        n++;
    }
    cr_expect_geq(n, 5, "%s: only %ld queries", rel, n);
    cr_expect_leq(4 * c.lookups, c.steps, "%s: %llu look-ups for %llu steps", rel,
                  (unsigned long long)c.lookups, (unsigned long long)c.steps);
    checker_free(&c);
    gb_map_free(&mp);
    gb_scen_free(&sc);
}

GB_TEST(cpd, small_shared_maps_match_dijkstra)
{
    check_scen("dao/arena.map.scen", gb_test_full() ? 1 : 4);
    check_scen("mapf/den312d-even-10.scen", gb_test_full() ? 1 : 4);
}

/* Minutes of build (one Dijkstra per cell): Berlin under GB_TEST_FULL;
 * the 512 x 512 maps, an hour to hours each on 2 cores, with
 * GB_CPD_LARGE=1 too. */
GB_TEST(cpd, large_shared_maps_match_dijkstra)
{
    if (!gb_test_full()) cr_skip_test("GB_TEST_FULL only (builds of minutes)");
    check_scen("street/Berlin_0_256.map.scen", 5);
    if (env_long("GB_CPD_LARGE", 0) == 0) return;
    check_scen("bgmaps/AR0011SR.map.scen", 10);
    check_scen("wc3/divideandconquer.map.scen", 10);
    check_scen("mazes/maze512-4-0.map.scen", 80);
    check_scen("random/random512-10-0.map.scen", 15);
}

/* ---- memory, preparation, allocation failure ----------------------------- */

GB_TEST(cpd, bytes_are_what_the_allocator_holds_and_queries_allocate_nothing)
{
    gb_map mp;
    gb_diag d;
    cr_assert_eq(gb_map_load("datasets/default/room128-16-1.map", &mp, &d), 0, "%s", d.msg);
    /* its top-left 64 x 64 (a quarter of the build's time) */
    for (int32_t y = 0; y < mp.grid.height; y++)
        for (int32_t x = 0; x < mp.grid.width; x++)
            if (x >= 64 || y >= 64) mp.grid.pass[gb_grid_id(&mp.grid, x, y)] = 0;
    gb_grid_recount(&mp.grid);
    cr_assert_gt(mp.grid.npassable, 2048);
    gb_solver_spec sp = cpd_spec();
    size_t live0 = gb_alloc_live();
    gb_ws *ws = gb_ws_new(&mp.grid, GB_MODEL_8_NOCUT);
    cr_assert_not_null(ws);
    cr_assert_eq(gb_ws_prep_ns(ws, &sp), 0.0);
    cr_assert_eq(gb_ws_prepare(ws, &sp, GB_Q_BHEAP), 0);
    cr_expect_gt(gb_ws_prep_ns(ws, &sp), 0.0, "the build is timed into prep_ns");
    size_t got = gb_alloc_live() - live0;
    size_t lo = gb_ws_bytes(mp.grid.width, mp.grid.height, &sp, GB_Q_BHEAP);
    size_t exact = gb_ws_bytes_prepared(ws, &sp, GB_Q_BHEAP);
    cr_expect(lo <= exact, "the bound %zu is above the exact %zu", lo, exact);
    cr_expect(exact > lo + (size_t)mp.grid.npassable * 4, "%zu: fewer than one run per row", exact);
    cr_expect(exact <= got && got <= exact + exact / 64 + 64 * 1024,
              "gb_ws_bytes_prepared says %zu, the workspace holds %zu", exact, got);
    uint64_t n0 = gb_alloc_count();
    gb_result r;
    for (int32_t k = 0; k < 200; k++) {
        int32_t s = (k * 7919) % mp.grid.ncells, t = (k * 104729 + 17) % mp.grid.ncells;
        if (!mp.grid.pass[s] || !mp.grid.pass[t]) continue;
        cr_assert_eq(gb_solve(ws, &sp, GB_Q_BHEAP, s, t, &r), 0);
    }
    cr_expect_eq(gb_alloc_count(), n0, "queries allocated %llu blocks",
                 (unsigned long long)(gb_alloc_count() - n0));
    gb_ws_free(ws);
    cr_expect_eq(gb_alloc_live(), live0, "freeing left %zu bytes", gb_alloc_live() - live0);
    gb_map_free(&mp);
}

/* Make the k-th allocation of a build fail, for every k until a build
 * succeeds: each failure is -1 with ENOMEM and releases everything. */
GB_TEST(cpd, allocation_failure_is_reported_and_unwound)
{
    uint64_t seed = 7;
    gb_grid g;
    cr_assert_eq(gb_grid_init(&g, 45, 32), 0);   /* > 1024 cells: the threaded build */
    for (int y = 0; y < 32; y++)
        for (int x = 0; x < 45; x++) g.pass[gb_grid_id(&g, x, y)] = gb_rng_next(&seed) % 100 >= 20;
    gb_grid_recount(&g);
    cr_assert_gt(g.npassable, 1024);
    gb_solver_spec sp = cpd_spec();
    int failures = 0;
    for (uint64_t k = 1; k < 10000; k++) {
        size_t live0 = gb_alloc_live();
        gb_ws *ws = gb_ws_new(&g, GB_MODEL_8_NOCUT);
        cr_assert_not_null(ws);
        size_t live1 = gb_alloc_live();
        gb_alloc_fail_at(k);
        errno = 0;
        int r = gb_ws_prepare(ws, &sp, GB_Q_BHEAP);
        gb_alloc_fail_at(0);
        if (r == 0) {
            gb_ws_free(ws);
            cr_expect_eq(gb_alloc_live(), live0);
            cr_expect_gt(failures, 8, "only %d allocations", failures);
            gb_grid_free(&g);
            return;
        }
        failures++;
        cr_assert_eq(errno, ENOMEM, "allocation %llu: errno %d", (unsigned long long)k, errno);
        cr_assert_eq(gb_alloc_live(), live1, "allocation %llu failed and %zu bytes leaked",
                     (unsigned long long)k, gb_alloc_live() - live1);
        gb_ws_free(ws);
    }
    cr_assert_fail("the build never succeeded");
}

/* ---- refusal ------------------------------------------------------------------ */

/* A build over the spec's budget is refused before it starts: EFBIG, the
 * estimate in gb_ws_prep_msg, nothing kept; within budget it builds. */
GB_TEST(cpd, a_build_over_budget_is_refused_with_an_estimate)
{
    gb_map mp;
    gb_diag d;
    cr_assert_eq(gb_map_load("datasets/default/room128-16-1.map", &mp, &d), 0, "%s", d.msg);
    cr_assert_gt(mp.grid.npassable, 4096);   /* the estimate is made */
    gb_solver_spec sp = cpd_spec();
    sp.max_prep_ns = 1000;   /* 1 us */
    size_t live0 = gb_alloc_live();
    gb_ws *ws = gb_ws_new(&mp.grid, GB_MODEL_8_NOCUT);
    size_t live1 = gb_alloc_live();
    errno = 0;
    cr_assert_eq(gb_ws_prepare(ws, &sp, GB_Q_BHEAP), -1);
    cr_assert_eq(errno, EFBIG);
    const char *m = gb_ws_prep_msg(ws);
    cr_assert(strstr(m, "expected a cpd build within 0 s, found an estimate of ") == m, "%s", m);
    cr_assert(strstr(m, " Dijkstras, ") && strstr(m, " runs/row)"), "%s", m);
    cr_assert_eq(gb_alloc_live(), live1, "a refused build kept %zu bytes", gb_alloc_live() - live1);
    sp.max_prep_ns = 0;
    sp.max_prep_bytes = 1024 * 1024;   /* the table takes about 3 MiB */
    cr_assert_eq(gb_ws_prepare(ws, &sp, GB_Q_BHEAP), -1);
    cr_assert_eq(errno, EFBIG);
    cr_assert(strstr(gb_ws_prep_msg(ws), "within 3600 s and 1.0 MiB, found") != NULL, "%s",
              gb_ws_prep_msg(ws));
    gb_ws_free(ws);
    cr_expect_eq(gb_alloc_live(), live0);
    gb_map_free(&mp);
}

/* gridbench run: a refused map gives the pair 'limit' rows and a note
 * with the estimate; the other solvers run as usual, exit status 0.
 * (dijkstra's workspace on this map: 3.4 MiB; cpd's table: about 4.) */
GB_TEST(cpd, run_gives_limit_rows_and_the_estimate_on_a_refused_map)
{
    const char *bin = gb_test_bin();
    char out[8192];
    int st = gb_test_sh(out, sizeof out,
                        "d=$(mktemp -d) && %s run -s cpd,dijkstra --count 3 --max-mem 3700K "
                        "--no-oracle-cache --out $d/q.csv datasets/default/room128-16-1.map.scen "
                        "&& cut -d, -f10,14 $d/q.csv | sort | uniq -c; rm -rf $d", bin);
    cr_assert_eq(st, 0, "%s", out);
    cr_assert(strstr(out, "room128-16-1.map: cpd not run on this map: expected a cpd build "
                          "within 3600 s and 3.6 MiB, found an estimate of ") != NULL, "%s", out);
    cr_assert(strstr(out, "3 cpd,limit") != NULL, "%s", out);
    cr_assert(strstr(out, "3 dijkstra,ok") != NULL, "%s", out);
}

/* ---- the stored table (gb_store) ---------------------------------------------- */

/* A store in memory: one entry; what a read was refused for. */
typedef struct memstore {
    unsigned char *buf;
    size_t n, cap, at;
    int reads, writes, refused;
    char why[256];
    int writing;
} memstore;

static void *ms_open_read(void *ctx, const char *name, uint64_t *size)
{
    memstore *m = ctx;
    cr_assert_str_eq(name, "cpd.8-nocut.v1");
    if (!m->buf || m->n == 0) return NULL;
    m->at = 0;
    *size = m->n;
    return m;
}

static int ms_read(void *h, void *buf, size_t n)
{
    memstore *m = h;
    if (n > m->n - m->at) return -1;
    memcpy(buf, m->buf + m->at, n);
    m->at += n;
    return 0;
}

static void ms_close_read(void *h, const char *why)
{
    memstore *m = h;
    m->reads++;
    if (why) {
        m->refused++;
        snprintf(m->why, sizeof m->why, "%s", why);
        m->n = 0;   /* the store drops it */
    }
}

static void *ms_open_write(void *ctx, const char *name)
{
    memstore *m = ctx;
    cr_assert_str_eq(name, "cpd.8-nocut.v1");
    m->n = 0;
    m->writing = 1;
    return m;
}

static int ms_write(void *h, const void *buf, size_t n)
{
    memstore *m = h;
    if (m->n + n > m->cap) {
        m->cap = 2 * (m->n + n);
        m->buf = realloc(m->buf, m->cap);
        cr_assert_not_null(m->buf);
    }
    memcpy(m->buf + m->n, buf, n);
    m->n += n;
    return 0;
}

static void ms_close_write(void *h, int ok)
{
    memstore *m = h;
    cr_assert(ok);
    m->writes++;
    m->writing = 0;
}

/* Prepare cpd on g with store st; check it against Dijkstra from a few
 * sources to every cell. */
static void check_with_store(const gb_grid *g, const gb_store *st, const char *where)
{
    checker c;
    memset(&c, 0, sizeof c);
    c.g = g;
    c.sp = cpd_spec();
    c.ws = gb_ws_new(g, GB_MODEL_8_NOCUT);
    c.dist = malloc((size_t)g->ncells * sizeof *c.dist);
    c.xy = malloc((size_t)g->ncells * sizeof *c.xy);
    cr_assert(c.ws && c.dist && c.xy);
    gb_ws_set_store(c.ws, st);
    cr_assert_eq(gb_ws_prepare(c.ws, &c.sp, GB_Q_BHEAP), 0, "%s: prepare failed (errno %d)", where,
                 errno);
    uint64_t seed = 99;
    check_grid(&c, &seed, 3, 1, where);
    checker_free(&c);
}

/* Built once, written; read back and used; any damaged byte (head, rows,
 * runs, checksum), a short file, or another map's table is refused with
 * its reason, rebuilt, written anew, and every answer stays exact. */
GB_TEST(cpd, a_stored_table_is_read_back_and_a_damaged_one_refused)
{
    uint64_t seed = 11;
    gb_grid g, h;
    cr_assert_eq(gb_grid_init(&g, 40, 30), 0);
    cr_assert_eq(gb_grid_init(&h, 40, 30), 0);
    for (int y = 0; y < 30; y++)
        for (int x = 0; x < 40; x++) {
            g.pass[gb_grid_id(&g, x, y)] = gb_rng_next(&seed) % 100 >= 25;
            h.pass[gb_grid_id(&h, x, y)] = g.pass[gb_grid_id(&g, x, y)];
        }
    h.pass[gb_grid_id(&h, 5, 5)] = !h.pass[gb_grid_id(&h, 5, 5)];   /* one cell differs */
    gb_grid_recount(&g);
    gb_grid_recount(&h);
    memstore m;
    memset(&m, 0, sizeof m);
    const gb_store st = { &m, ms_open_read, ms_read, ms_close_read, ms_open_write, ms_write,
                          ms_close_write };
    check_with_store(&g, &st, "built");
    cr_assert_eq(m.writes, 1);
    cr_assert_gt(m.n, 64 + 4 * (size_t)g.ncells);
    const size_t n = m.n;
    unsigned char *good = malloc(n);
    memcpy(good, m.buf, n);
    check_with_store(&g, &st, "read back");
    cr_assert_eq(m.reads, 1);
    cr_assert_eq(m.refused, 0, "%s", m.why);
    cr_assert_eq(m.writes, 1, "a table read back is not written again");
    /* damage: every 61st byte (make test: every 601st; make check: every
     * 1201st) and the last 8 (the checksum), one at a time: each flip costs
     * a rebuild and a check of every answer */
    int tried = 0;
    const size_t stride = (size_t)GB_TEST_PICK(61, 601, 1201);
    for (size_t i = 0; i < n; i += i + 8 >= n ? 1 : stride) {
        memcpy(m.buf, good, n);
        m.n = n;
        m.buf[i] ^= (unsigned char)(1u << (i % 8));
        const int r0 = m.refused, w0 = m.writes;
        char where[64];
        snprintf(where, sizeof where, "byte %zu of %zu flipped", i, n);
        check_with_store(&g, &st, where);
        cr_assert_eq(m.refused, r0 + 1, "%s: the damaged table was not refused", where);
        cr_assert(strstr(m.why, "expected ") == m.why && strstr(m.why, ", found "), "%s", m.why);
        cr_assert_eq(m.writes, w0 + 1, "%s: not rebuilt and written", where);
        cr_assert(m.n == n && memcmp(m.buf, good, n) == 0, "%s: the rebuilt table differs", where);
        tried++;
    }
    cr_assert_gt(tried, GB_TEST_PICK(20, 20, 12), "only %d flips (%zu bytes)", tried, n);
    /* a short file */
    memcpy(m.buf, good, n);
    m.n = n - 4;
    check_with_store(&g, &st, "short");
    cr_assert(strstr(m.why, "bytes for") != NULL, "%s", m.why);
    /* another map's table */
    memcpy(m.buf, good, n);
    m.n = n;
    check_with_store(&h, &st, "another map");
    cr_assert(strstr(m.why, "expected the cpd table of this map (40x30, ") == m.why, "%s", m.why);
    free(good);
    free(m.buf);
    gb_grid_free(&g);
    gb_grid_free(&h);
}

/* gridbench run keeps the table in --table-cache (on a 64x64 maze: its
 * table builds in a fifth of a second): the first run builds
 * and writes it, the second reads it (prep_ns far below the build's), a
 * third after a flipped byte refuses the file with its reason, rebuilds
 * and writes it; every row of the three is 'ok'. */
GB_TEST(cpd, run_keeps_the_table_in_the_table_cache)
{
    const char *bin = gb_test_bin();
    char out[16384];
    int st = gb_test_sh(
        out, sizeof out,
        "d=$(mktemp -d) && %s gen --family maze --size 64 --corridor 2 --seed 1 -Q 30 --out $d/m "
        "2>/dev/null && "
        "m=$d/m/maze64-2-1.map.scen && "
        "r() { %s run -s cpd --count 20 --no-oracle-cache --table-cache $d/t -o $d/$1.csv $m 2>&1 "
        "| grep -i 'table cache\\|warning'; }; "
        "r a && r b && f=$(ls $d/t/*.gbt) && "
        "python3 -c 'import sys; p=sys.argv[1]; b=bytearray(open(p,\"rb\").read()); "
        "b[len(b)//3]^=4; open(p,\"wb\").write(b)' $f && r c && "
        "for x in a b c; do echo $x $(cut -d, -f14 $d/$x.csv | sort | uniq -c | tr '\\n' ' ') "
        "$(cut -d, -f33 $d/$x.csv | sed -n 2p); done; rm -rf $d",
        bin, bin);
    cr_assert_eq(st, 0, "%s", out);
    const char *w1 = strstr(out, "table cache: wrote "), *r2 = strstr(out, "table cache: read ");
    const char *bad = strstr(out, ".cpd.8-nocut.v1.gbt: warning: expected checksum ");
    cr_assert(w1 && r2 && bad && w1 < r2 && r2 < bad, "%s", out);
    cr_assert(strstr(bad, "(a damaged file); deleted, the table is built anew") != NULL, "%s", out);
    cr_assert(strstr(bad, "table cache: wrote ") != NULL, "%s", out);
    long long pa = -1, pb = -1, pc = -1;
    const char *a = strstr(out, "\na 20 ok "), *b = strstr(out, "\nb 20 ok "), *c = strstr(out, "\nc 20 ok ");
    cr_assert(a && b && c, "%s", out);
    cr_assert(sscanf(a, "\na 20 ok 1 status %lld", &pa) == 1, "%s", out);
    cr_assert(sscanf(b, "\nb 20 ok 1 status %lld", &pb) == 1, "%s", out);
    cr_assert(sscanf(c, "\nc 20 ok 1 status %lld", &pc) == 1, "%s", out);
    cr_expect_lt(pb * 5, pa, "a hit took %lld ns, the build %lld", pb, pa);
    cr_expect_lt(pb * 5, pc, "a hit took %lld ns, the rebuild %lld", pb, pc);
}
