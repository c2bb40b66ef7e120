/*
 * test_subgoal.c -- the subgoal graphs (solvers/gb_subgoal.c), sg and
 * sg-tl, against the Dijkstra oracle (gb_dijkstra_all, 8-nocut):
 *   - on thousands of random grids (uniform noise of every density, and
 *     rectangles and thin walls on an open floor, where edges are long and
 *     the two-level construction adds many edges), from a few sources to
 *     EVERY cell;
 *   - on a sample of every shared Moving AI scenario file: each sampled
 *     query, plus the same start to a spread of other cells.
 * For every query: found iff Dijkstra's distance is finite; the path
 * passes the independent validator (every step legal, reported cost equal
 * to the recomputed one); its cost equals Dijkstra's (1e-9 relative).
 * Also: the subgoal definition on hand-made grids, the edge cases of the
 * query (start == goal, blocked endpoints, a too-small buffer), the bytes
 * figure against the allocator's count, and allocation failure at every
 * allocation of a build (reported as ENOMEM, nothing leaked).
 *
 * More random grids: GB_SG_GRIDS=N (default 1500 noise grids and a third
 * as many rectangle grids in make test-full, 400 in make test, 150 in a
 * sanitizer build) and GB_SG_SEED=S.
 */
#include "gb_test.h"
#include <criterion/parameterized.h>
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
#include "gb_subgoal.h"
#include "gb_validate.h"

static long env_long(const char *name, long dflt)
{
    const char *v = getenv(name);
    return v && *v ? strtol(v, NULL, 10) : dflt;
}

/* Scratch for checking queries on one grid. */
typedef struct checker {
    const gb_grid *g;
    double *dist;      /* ncells: Dijkstra from the current source */
    int32_t *path;     /* ncells */
    gb_xy *xy;         /* ncells */
    long queries, found;
} checker;

static void checker_init(checker *c, const gb_grid *g)
{
    memset(c, 0, sizeof *c);
    c->g = g;
    c->dist = malloc((size_t)g->ncells * sizeof *c->dist);
    c->path = malloc((size_t)g->ncells * sizeof *c->path);
    c->xy = malloc((size_t)g->ncells * sizeof *c->xy);
    cr_assert(c->dist && c->path && c->xy);
}

static void checker_free(checker *c)
{
    free(c->dist);
    free(c->path);
    free(c->xy);
}

/* One query s -> t on sg, checked against c->dist (Dijkstra from s). */
static void check_one(checker *c, gb_sg *sg, int32_t s, int32_t t, const char *where)
{
    const gb_grid *g = c->g;
    int32_t len = -1;
    double cost = -1;
    gb_sg_stats st;
    static const char *const names[3] = { "sg", "sg-tl", "sg-tl-dt" };
    const char *name = names[gb_sg_two_level(sg)];
    int r = gb_sg_query(sg, s, t, c->path, g->ncells, &len, &cost, &st);
    gb_xy a = { gb_grid_x(g, s), gb_grid_y(g, s) }, b = { gb_grid_x(g, t), gb_grid_y(g, t) };
    cr_assert_neq(r, -1, "%s: %s (%d,%d)->(%d,%d): query failed (errno %d)", where, name, a.x,
                  a.y, b.x, b.y, errno);
    double d = c->dist[t];
    c->queries++;
    if (r == GB_SG_UNREACHABLE) {
        cr_assert(isinf(d), "%s: %s (%d,%d)->(%d,%d): unreachable, Dijkstra %.9f", where, name,
                  a.x, a.y, b.x, b.y, d);
        cr_assert_eq(len, 0);
        return;
    }
    cr_assert_eq(r, GB_SG_FOUND);
    cr_assert(!isinf(d), "%s: %s (%d,%d)->(%d,%d): found a path, Dijkstra says unreachable",
              where, name, a.x, a.y, b.x, b.y);
    c->found++;
    cr_assert(len >= 1 && len <= g->ncells);
    for (int32_t i = 0; i < len; i++)
        c->xy[i] = (gb_xy){ gb_grid_x(g, c->path[i]), gb_grid_y(g, c->path[i]) };
    gb_check chk;
    int ok = gb_validate_path(g, GB_MODEL_8_NOCUT, a, b, c->xy, (size_t)len, cost, &chk);
    cr_assert(ok, "%s: %s (%d,%d)->(%d,%d): invalid path: %s", where, name, a.x, a.y, b.x, b.y,
              chk.msg);
    cr_assert(fabs(chk.cost - d) <= 1e-9 * (1.0 + d),
              "%s: %s (%d,%d)->(%d,%d): cost %.9f (%lld straight, %lld diagonal), Dijkstra %.9f",
              where, name, a.x, a.y, b.x, b.y, chk.cost, (long long)chk.straight,
              (long long)chk.diag, d);
}

/* Build both levels of g and check queries from nsrc random sources to
 * every passable cell. */
static void check_grid(checker *c, const gb_grid *g, uint64_t *seed, int nsrc, const char *where)
{
    gb_sg *sg[3];
    for (int tl = 0; tl < 3; tl++)
        cr_assert_eq(gb_sg_build(&sg[tl], g, tl), 0, "%s: build (two_level=%d) failed", where, tl);
    for (int k = 0; k < nsrc; k++) {
        int32_t s;
        do s = gb_grid_id(g, (int)(gb_rng_next(seed) % (uint64_t)g->width),
                          (int)(gb_rng_next(seed) % (uint64_t)g->height));
        while (!g->pass[s]);
        cr_assert_eq(gb_dijkstra_all(g, GB_MODEL_8_NOCUT, s, c->dist), 0);
        for (int32_t t = 0; t < g->ncells; t++) {
            if (!g->pass[t]) continue;
            for (int tl = 0; tl < 3; tl++) check_one(c, sg[tl], s, t, where);
        }
    }
    for (int tl = 0; tl < 3; tl++) gb_sg_free(sg[tl]);
}

GB_TEST(subgoal, random_noise_grids_match_dijkstra)
{
    long ngrids = env_long("GB_SG_GRIDS", GB_TEST_PICK(1500, 400, 150));
    uint64_t seed = (uint64_t)env_long("GB_SG_SEED", 20260411);
    long found = 0, queries = 0;
    char where[128];
    for (long gi = 0; gi < ngrids; gi++) {
        int side = gi % 10 == 9 ? 80 : 24;   /* every 10th up to 80 x 80 */
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
            check_grid(&c, &g, &seed, 2, where);
            found += c.found;
            queries += c.queries;
            checker_free(&c);
        }
        gb_grid_free(&g);
    }
    cr_expect_gt(found, queries / 4, "only %ld of %ld queries had a path", found, queries);
}

GB_TEST(subgoal, random_rectangle_and_wall_grids_match_dijkstra)
{
    long ngrids = env_long("GB_SG_GRIDS", GB_TEST_PICK(1500, 400, 150)) / 3;
    uint64_t seed = (uint64_t)env_long("GB_SG_SEED", 20260411) ^ 0x5eed;
    long found = 0, queries = 0;
    char where[128];
    for (long gi = 0; gi < ngrids; gi++) {
        int w = 8 + (int)(gb_rng_next(&seed) % 89), h = 8 + (int)(gb_rng_next(&seed) % 89);
        int nrect = (int)(gb_rng_next(&seed) % 50);
        gb_grid g;
        cr_assert_eq(gb_grid_init(&g, w, h), 0);
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) g.pass[gb_grid_id(&g, x, y)] = 1;
        for (int r = 0; r < nrect; r++) {
            int rx = (int)(gb_rng_next(&seed) % (uint64_t)w), ry = (int)(gb_rng_next(&seed) % (uint64_t)h);
            int rw = 1 + (int)(gb_rng_next(&seed) % 12), rh = 1 + (int)(gb_rng_next(&seed) % 12);
            if (gb_rng_next(&seed) % 4) {   /* mostly thin walls: many corners to turn at */
                if (gb_rng_next(&seed) % 2) rw = 1, rh = 1 + (int)(gb_rng_next(&seed) % (uint64_t)(h / 2 + 1));
                else rh = 1, rw = 1 + (int)(gb_rng_next(&seed) % (uint64_t)(w / 2 + 1));
            }
            for (int y = ry; y < ry + rh && y < h; y++)
                for (int x = rx; x < rx + rw && x < w; x++) g.pass[gb_grid_id(&g, x, y)] = 0;
        }
        gb_grid_recount(&g);
        if (g.npassable > 0) {
            checker c;
            checker_init(&c, &g);
            snprintf(where, sizeof where, "rectangle grid %ld (%dx%d, %d rectangles or walls)", gi, w, h, nrect);
            check_grid(&c, &g, &seed, 2, where);
            found += c.found;
            queries += c.queries;
            checker_free(&c);
        }
        gb_grid_free(&g);
    }
    cr_expect_gt(found, queries / 2, "only %ld of %ld queries had a path", found, queries);
}

/* ---- the shared Moving AI maps ----------------------------------------- */

static const char *shared_dir(void)
{
    const char *d = getenv("GB_SHARED");
    return d && *d ? d : "../shared/movingai";
}

typedef struct sg_case {
    char scen[48];   /* relative to GB_SHARED (an array: Criterion copies it) */
    int every;       /* sample every every-th query */
} sg_case;

static sg_case shared_cases[] = {
    { "dao/arena.map.scen", 4 },
    { "bgmaps/AR0011SR.map.scen", 32 },
    { "random/random512-10-0.map.scen", 45 },
    { "street/Berlin_0_256.map.scen", 24 },
    { "mapf/den312d-even-10.scen", 7 },
    { "wc3/divideandconquer.map.scen", 32 },
    { "mazes/maze512-4-0.map.scen", 243 },
};

ParameterizedTestParameters(subgoal_shared, every_sampled_query_matches_dijkstra)
{
    return cr_make_param_array(sg_case, shared_cases, sizeof shared_cases / sizeof shared_cases[0]);
}

/* Every every-th query of the file (about 40 spread over all buckets),
 * and from each sampled start to 64 other cells of the map. */
ParameterizedTest(sg_case *c, subgoal_shared, every_sampled_query_matches_dijkstra)
{
    char path[1024], mpath[1024];
    snprintf(path, sizeof path, "%s/%s", shared_dir(), c->scen);
    FILE *f = fopen(path, "r");
    if (!f) cr_skip_test("%s not found", path);
    fclose(f);
    gb_scen sc;
    gb_map mp;
    gb_diag d;
    cr_assert_eq(gb_scen_load(path, &sc, &d), 0, "%s", d.msg);
    cr_assert_eq(gb_scen_resolve_map(&sc, mpath, sizeof mpath, &d), 0, "%s", d.msg);
    cr_assert_eq(gb_map_load(mpath, &mp, &d), 0, "%s", d.msg);
    const gb_grid *g = &mp.grid;
    gb_sg *sg[3];
    for (int tl = 0; tl < 3; tl++) cr_assert_eq(gb_sg_build(&sg[tl], g, tl), 0);
    checker ck;
    checker_init(&ck, g);
    uint64_t seed = 99;
    int sampled = 0;
    char where[256];
    /* make test: every third of those (GB_TEST_FULL: all, in CI; make
     * check: every ninth) */
    const size_t step = (size_t)c->every * (size_t)GB_TEST_PICK(1, 3, 9);
    for (size_t i = 0; i < sc.n; i += step) {
        if (gb_scen_check_query(&sc, i, &mp, &d) != 0) continue;   /* blocked endpoint */
        const gb_query *q = &sc.q[i];
        int32_t s = gb_grid_id(g, q->sx, q->sy), t = gb_grid_id(g, q->gx, q->gy);
        cr_assert_eq(gb_dijkstra_all(g, GB_MODEL_8_NOCUT, s, ck.dist), 0);
        snprintf(where, sizeof where, "%s:%ld", c->scen, q->line);
        for (int tl = 0; tl < 3; tl++) check_one(&ck, sg[tl], s, t, where);
        snprintf(where, sizeof where, "%s:%ld (same start, other goals)", c->scen, q->line);
        for (int k = 0; k < 64; k++) {
            int32_t t2 = gb_grid_id(g, (int)(gb_rng_next(&seed) % (uint64_t)g->width),
                                    (int)(gb_rng_next(&seed) % (uint64_t)g->height));
            if (!g->pass[t2]) continue;
            for (int tl = 0; tl < 3; tl++) check_one(&ck, sg[tl], s, t2, where);
        }
        sampled++;
    }
    cr_expect_geq(sampled, GB_TEST_PICK(10, 3, 1), "%s: only %d queries sampled", c->scen, sampled);
    checker_free(&ck);
    for (int tl = 0; tl < 3; tl++) gb_sg_free(sg[tl]);
    gb_map_free(&mp);
    gb_scen_free(&sc);
    gb_test_leak_check();
}

/* ---- hand-made grids --------------------------------------------------- */

/* Grid from rows of '.' (passable) and '@' (blocked). */
static void grid_from(gb_grid *g, const char *const *rows, int h)
{
    int w = (int)strlen(rows[0]);
    cr_assert_eq(gb_grid_init(g, w, h), 0);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) g->pass[gb_grid_id(g, x, y)] = rows[y][x] == '.';
    gb_grid_recount(g);
}

GB_TEST(subgoal, subgoals_are_the_cells_diagonal_to_convex_obstacle_corners)
{
    /* One blocked cell: its four diagonal neighbours are subgoals (a path
     * may have to turn there); its straight neighbours and all other cells
     * are not.  The map border never makes subgoals: beside it, the two
     * cells around the diagonal are never both passable. */
    const char *rows[] = { ".....", ".....", "..@..", ".....", "....." };
    gb_grid g;
    grid_from(&g, rows, 5);
    gb_sg *sg;
    cr_assert_eq(gb_sg_build(&sg, &g, 0), 0);
    for (int y = 0; y < 5; y++)
        for (int x = 0; x < 5; x++) {
            int want = (x == 1 || x == 3) && (y == 1 || y == 3);
            cr_expect_eq(gb_sg_is_subgoal(sg, gb_grid_id(&g, x, y)), want, "(%d,%d)", x, y);
        }
    gb_sg_info in;
    gb_sg_info_get(sg, &in);
    cr_expect_eq(in.nsub, 4);
    /* the four corners see each other around the block: 4 edges (the
     * diagonal pairs are blocked by it or h-reachable through a corner) */
    cr_expect_eq(in.edges, 4, "edges %lld", (long long)in.edges);
    gb_sg_free(sg);
    gb_grid_free(&g);

    /* A wall end: only the cells diagonal to its exposed corners count,
     * and only when both cells beside the diagonal are free. */
    const char *rows2[] = { "......", ".@@@@@", "......" };
    grid_from(&g, rows2, 3);
    cr_assert_eq(gb_sg_build(&sg, &g, 1), 0);
    for (int y = 0; y < 3; y++)
        for (int x = 0; x < 6; x++) {
            int want = x == 0 && (y == 0 || y == 2);
            cr_expect_eq(gb_sg_is_subgoal(sg, gb_grid_id(&g, x, y)), want, "wall (%d,%d)", x, y);
        }
    gb_sg_free(sg);
    gb_grid_free(&g);
}

GB_TEST(subgoal, a_path_around_a_wall_end_does_not_cut_its_corners)
{
    /* From (5,0) to (5,2) around the wall's end at column 0: every
     * diagonal near the end would cut a wall corner, so the only optimum
     * is 5 west, 2 south, 5 east: 12 straight steps, 13 cells. */
    const char *rows[] = { "......", ".@@@@@", "......" };
    gb_grid g;
    grid_from(&g, rows, 3);
    for (int tl = 0; tl < 2; tl++) {
        gb_sg *sg;
        cr_assert_eq(gb_sg_build(&sg, &g, tl), 0);
        int32_t path[32], len;
        double cost;
        gb_sg_stats st;
        int r = gb_sg_query(sg, gb_grid_id(&g, 5, 0), gb_grid_id(&g, 5, 2), path, 32, &len, &cost, &st);
        cr_assert_eq(r, GB_SG_FOUND);
        cr_expect_eq(cost, 12.0, "%s: cost %.9f", tl ? "sg-tl" : "sg", cost);
        cr_expect_eq(len, 13);
        cr_expect_eq(path[5], gb_grid_id(&g, 0, 0));
        cr_expect_eq(path[6], gb_grid_id(&g, 0, 1));
        cr_expect_eq(path[7], gb_grid_id(&g, 0, 2));
        cr_expect_geq(st.expanded, 1, "the direct line is blocked: the graph is searched");
        cr_expect_eq(st.pops, st.expanded + 1, "every pop but the goal's expands");
        cr_expect_eq(st.pushes, st.generated - st.decreases + 1, "the start is pushed, not generated");
        cr_expect_geq(st.peak_open, 1);
        gb_sg_free(sg);
    }
    gb_grid_free(&g);
}

GB_TEST(subgoal, query_edge_cases)
{
    const char *rows[] = { "....@...", "....@...", "....@..." };
    gb_grid g;
    grid_from(&g, rows, 3);
    for (int tl = 0; tl < 2; tl++) {
        gb_sg *sg;
        cr_assert_eq(gb_sg_build(&sg, &g, tl), 0);
        int32_t path[64], len;
        double cost;
        int32_t a = gb_grid_id(&g, 1, 1), b = gb_grid_id(&g, 6, 1), wall = gb_grid_id(&g, 4, 0);
        /* start == goal: one cell, cost 0 */
        cr_expect_eq(gb_sg_query(sg, a, a, path, 64, &len, &cost, NULL), GB_SG_FOUND);
        cr_expect_eq(len, 1);
        cr_expect_eq(path[0], a);
        cr_expect_eq(cost, 0.0);
        /* a wall across the map: unreachable, len 0, cost infinite */
        cr_expect_eq(gb_sg_query(sg, a, b, path, 64, &len, &cost, NULL), GB_SG_UNREACHABLE);
        cr_expect_eq(len, 0);
        cr_expect(isinf(cost));
        /* blocked or out-of-range endpoints: EINVAL */
        errno = 0;
        cr_expect_eq(gb_sg_query(sg, wall, a, path, 64, &len, &cost, NULL), -1);
        cr_expect_eq(errno, EINVAL);
        errno = 0;
        cr_expect_eq(gb_sg_query(sg, a, -5, path, 64, &len, &cost, NULL), -1);
        cr_expect_eq(errno, EINVAL);
        errno = 0;
        cr_expect_eq(gb_sg_query(sg, a, g.ncells, path, 64, &len, &cost, NULL), -1);
        cr_expect_eq(errno, EINVAL);
        /* a buffer one cell too short: ERANGE; exactly long enough: found */
        int32_t c = gb_grid_id(&g, 0, 0), d = gb_grid_id(&g, 3, 2);
        errno = 0;
        cr_expect_eq(gb_sg_query(sg, c, d, path, 3, &len, &cost, NULL), -1);
        cr_expect_eq(errno, ERANGE);
        cr_expect_eq(gb_sg_query(sg, c, d, path, 4, &len, &cost, NULL), GB_SG_FOUND);
        cr_expect_eq(len, 4);
        gb_sg_free(sg);
    }
    gb_grid_free(&g);
}

/* ---- memory ------------------------------------------------------------ */

static int load_map(const char *rel, gb_map *mp)
{
    char path[1024];
    gb_diag d;
    snprintf(path, sizeof path, "%s/%s", shared_dir(), rel);
    return gb_map_load(path, mp, &d);
}

GB_TEST(subgoal, bytes_is_what_the_allocator_holds)
{
    gb_map mp;
    gb_diag d;
    cr_assert_eq(gb_map_load("datasets/default/room128-16-1.map", &mp, &d), 0, "%s", d.msg);
    for (int tl = 0; tl < 3; tl++) {
        size_t live0 = gb_alloc_live();
        gb_sg *sg;
        cr_assert_eq(gb_sg_build(&sg, &mp.grid, tl), 0);
        size_t got = gb_alloc_live() - live0, need = gb_sg_bytes(sg);
        /* the allocator rounds each block up to its usable size */
        cr_expect(need <= got && got <= need + need / 32 + 4096,
                  "two_level=%d: gb_sg_bytes says %zu, the allocator holds %zu", tl, need, got);
        /* queries allocate nothing */
        uint64_t n0 = gb_alloc_count();
        int32_t *path = malloc((size_t)mp.grid.ncells * sizeof *path), len;
        double cost;
        for (int32_t k = 0; k < 50; k++) {
            int32_t s = (k * 7919) % mp.grid.ncells, t = (k * 104729 + 17) % mp.grid.ncells;
            if (!mp.grid.pass[s] || !mp.grid.pass[t]) continue;
            cr_assert_neq(gb_sg_query(sg, s, t, path, mp.grid.ncells, &len, &cost, NULL), -1);
        }
        cr_expect_eq(gb_alloc_count(), n0, "queries allocated %llu blocks",
                     (unsigned long long)(gb_alloc_count() - n0));
        free(path);
        gb_sg_free(sg);
        cr_expect_eq(gb_alloc_live(), live0, "freeing left %zu bytes", gb_alloc_live() - live0);
    }
    gb_map_free(&mp);
}

/* Make the k-th allocation of a build fail, for every k until a build
 * succeeds: each failure must be -1 with ENOMEM and release everything. */
static void fail_every_allocation(const gb_grid *g, int tl, const char *what)
{
    int failures = 0;
    for (uint64_t k = 1; k < 100000; k++) {
        size_t live0 = gb_alloc_live();
        gb_sg *sg = (gb_sg *)&failures;   /* must be overwritten */
        gb_alloc_fail_at(k);
        errno = 0;
        int r = gb_sg_build(&sg, g, tl);
        gb_alloc_fail_at(0);
        if (r == 0) {
            gb_sg_free(sg);
            cr_expect_eq(gb_alloc_live(), live0);
            cr_expect_gt(failures, 10, "%s: only %d allocations", what, failures);
            return;
        }
        failures++;
        cr_assert_eq(r, -1);
        cr_assert_eq(errno, ENOMEM, "%s: allocation %llu: errno %d", what, (unsigned long long)k, errno);
        cr_assert_null(sg, "%s: *out must be NULL on failure", what);
        cr_assert_eq(gb_alloc_live(), live0, "%s: allocation %llu failed and %zu bytes leaked", what,
                     (unsigned long long)k, gb_alloc_live() - live0);
    }
    cr_assert_fail("%s: the build never succeeded", what);
}

GB_TEST(subgoal, allocation_failure_is_reported_and_unwound)
{
    gb_map mp;
    gb_diag d;
    cr_assert_eq(gb_map_load("datasets/default/room128-16-1.map", &mp, &d), 0, "%s", d.msg);
    fail_every_allocation(&mp.grid, 0, "sg room128");
    fail_every_allocation(&mp.grid, 1, "sg-tl room128");
    fail_every_allocation(&mp.grid, 2, "sg-tl-dt room128");
    gb_map_free(&mp);
    /* many added edges: pool growth (every allocation of it is a build of
     * Berlin: make test-full) */
    if (gb_test_full() && load_map("street/Berlin_0_256.map", &mp) == 0) {
        fail_every_allocation(&mp.grid, 1, "sg-tl Berlin");
        gb_map_free(&mp);
    }
}

GB_TEST(subgoal, two_level_makes_most_game_map_subgoals_local)
{
    gb_map mp;
    if (load_map("bgmaps/AR0011SR.map", &mp) != 0) cr_skip_test("AR0011SR not found");
    gb_sg *sg, *tl;
    cr_assert_eq(gb_sg_build(&sg, &mp.grid, 0), 0);
    cr_assert_eq(gb_sg_build(&tl, &mp.grid, 1), 0);
    gb_sg_info a, b;
    gb_sg_info_get(sg, &a);
    gb_sg_info_get(tl, &b);
    cr_expect_eq(a.nsub, b.nsub);
    cr_expect_eq(a.nglobal, a.nsub);
    cr_expect_lt(b.nglobal, b.nsub / 2, "sg-tl kept %d of %d subgoals global", b.nglobal, b.nsub);
    cr_expect_lt(b.global_edges, a.edges / 4, "global edges %lld, sg edges %lld",
                 (long long)b.global_edges, (long long)a.edges);
    cr_expect_gt(b.added_edges, 0);
    gb_sg_free(sg);
    gb_sg_free(tl);
    gb_map_free(&mp);
}

/* sg-tl-dt: the distance table of the global subgoals (a Dijkstra per
 * global subgoal over the global ones, exact keys) holds the grid
 * distance between every two of them: by invariant (J) some shortest path
 * between two subgoals has only global subgoals inside.  Checked against
 * a grid Dijkstra from a sample of them, with the table's symmetry and
 * zero diagonal; a graph above the table's limit (random512-10-0) has no
 * table and still answers like sg-tl. */
static void check_table(const gb_grid *g, const char *where)
{
    gb_sg *sg;
    cr_assert_eq(gb_sg_build(&sg, g, 2), 0);
    gb_sg_info in;
    gb_sg_info_get(sg, &in);
    cr_assert_gt(in.nglobal, 0, "%s: no global subgoal", where);
    cr_assert_eq(in.table_nodes, in.nglobal, "%s: table of %d, %d global", where, in.table_nodes,
                 in.nglobal);
    cr_expect_eq(gb_sg_table_cell(sg, -1), -1);
    cr_expect_eq(gb_sg_table_cell(sg, in.table_nodes), -1);
    cr_expect(isnan(gb_sg_table_dist(sg, 0, in.table_nodes)));
    double *dist = malloc((size_t)g->ncells * sizeof *dist);
    cr_assert(dist);
    int32_t nt = in.table_nodes, step = nt / 24 + 1;
    long checked = 0;
    for (int32_t a = 0; a < nt; a += step) {
        int32_t ca = gb_sg_table_cell(sg, a);
        cr_assert(ca >= 0 && gb_sg_is_subgoal(sg, ca), "%s: cell of index %d", where, a);
        cr_assert_eq(gb_dijkstra_all(g, GB_MODEL_8_NOCUT, ca, dist), 0);
        cr_expect_eq(gb_sg_table_dist(sg, a, a), 0.0);
        for (int32_t b = 0; b < nt; b++) {
            double t = gb_sg_table_dist(sg, a, b), d = dist[gb_sg_table_cell(sg, b)];
            cr_assert_eq(t, gb_sg_table_dist(sg, b, a), "%s: d(%d,%d) not symmetric", where, a, b);
            if (isinf(d)) {
                cr_assert(isinf(t), "%s: d(%d,%d) = %.9f, grid: unreachable", where, a, b, t);
            } else {
                cr_assert(fabs(t - d) <= 1e-9 * (1.0 + d), "%s: d(%d,%d) = %.9f, grid %.9f", where,
                          a, b, t, d);
            }
            checked++;
        }
    }
    cr_expect_gt(checked, 0);
    free(dist);
    gb_sg_free(sg);
}

GB_TEST(subgoal, table_distances_are_grid_distances)
{
    /* two rooms of walls and pillars, some cells walled off */
    uint64_t seed = 7;
    gb_grid g;
    cr_assert_eq(gb_grid_init(&g, 90, 70), 0);
    for (int y = 0; y < 70; y++)
        for (int x = 0; x < 90; x++)
            g.pass[gb_grid_id(&g, x, y)] = !(x == 45 && y != 20 && y != 50)
                                           && !(x % 9 == 4 && y % 7 == 3)
                                           && (int)(gb_rng_next(&seed) % 100) >= 4;
    gb_grid_recount(&g);
    check_table(&g, "rooms 90x70");
    gb_grid_free(&g);
    const char *maps[] = { "bgmaps/AR0011SR.map", "street/Berlin_0_256.map" };
    for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++) {
        gb_map mp;
        if (load_map(maps[i], &mp) != 0) continue;
        check_table(&mp.grid, maps[i]);
        gb_map_free(&mp);
    }
    gb_map mp;
    if (load_map("random/random512-10-0.map", &mp) == 0) {
        gb_sg *sg;
        gb_sg_info in;
        cr_assert_eq(gb_sg_build(&sg, &mp.grid, 2), 0);
        gb_sg_info_get(sg, &in);
        cr_expect_gt(in.nglobal, 1024);
        cr_expect_eq(in.table_nodes, 0, "random512: a table of %d", in.table_nodes);
        cr_expect(isnan(gb_sg_table_dist(sg, 0, 0)));
        gb_sg_free(sg);
        gb_map_free(&mp);
    }
}

/* --max-expanded and --max-ms reach the graph search: with one expansion
 * fewer than a query needs it stops with GB_SG_LIMIT (no path, no cost);
 * with exactly as many it finds the same path; a deadline already past
 * stops every query that gets to GB_SG_TIME_CHECK expansions. */
GB_TEST(subgoal, limits_stop_the_graph_search)
{
    gb_map mp;
    gb_diag d;
    cr_assert_eq(gb_map_load("datasets/default/maze128-2-1.map", &mp, &d), 0, "%s", d.msg);
    const gb_grid *g = &mp.grid;
    int32_t *path = malloc((size_t)g->ncells * sizeof *path);
    cr_assert(path);
    for (int tl = 0; tl < 2; tl++) {
        gb_sg *sg;
        cr_assert_eq(gb_sg_build(&sg, g, tl), 0);
        int limited = 0, timed = 0;
        uint64_t seed = 7;
        for (int k = 0; k < 200; k++) {
            int32_t s = (int32_t)(gb_rng_next(&seed) % (uint64_t)g->ncells);
            int32_t t = (int32_t)(gb_rng_next(&seed) % (uint64_t)g->ncells);
            if (!g->pass[s] || !g->pass[t]) continue;
            int32_t len, len2;
            double cost, cost2;
            gb_sg_stats st, st2;
            int r = gb_sg_query(sg, s, t, path, g->ncells, &len, &cost, &st);
            cr_assert_neq(r, -1);
            cr_assert_eq(gb_sg_query_limited(sg, s, t, path, g->ncells, &len2, &cost2, &st2, 0,
                                             INT64_MAX), r);
            if (r != GB_SG_FOUND || st.expanded < 2) continue;
            limited++;
            r = gb_sg_query_limited(sg, s, t, path, g->ncells, &len2, &cost2, &st2,
                                    st.expanded - 1, INT64_MAX);
            cr_assert_eq(r, GB_SG_LIMIT, "tl=%d: %llu expansions allowed, %llu needed", tl,
                         (unsigned long long)(st.expanded - 1), (unsigned long long)st.expanded);
            cr_expect_eq(len2, 0);
            cr_expect(isinf(cost2));
            cr_expect_leq(st2.expanded, st.expanded - 1);
            r = gb_sg_query_limited(sg, s, t, path, g->ncells, &len2, &cost2, &st2, st.expanded,
                                    INT64_MAX);
            cr_assert_eq(r, GB_SG_FOUND);
            cr_expect_eq(len2, len);
            cr_expect_eq(cost2, cost);
            if (st.expanded >= GB_SG_TIME_CHECK) {
                timed++;
                cr_expect_eq(gb_sg_query_limited(sg, s, t, path, g->ncells, &len2, &cost2, &st2, 0,
                                                 1),
                             GB_SG_LIMIT);
            }
        }
        cr_expect_gt(limited, 50, "tl=%d: only %d queries needed 2+ expansions", tl, limited);
        if (!tl) cr_expect_gt(timed, 0, "sg: no maze query reached %d expansions", GB_SG_TIME_CHECK);
        gb_sg_free(sg);
    }
    free(path);
    gb_map_free(&mp);
}
