/*
 * test_search.c -- every solver on every queue against the Dijkstra
 * oracle, on thousands of random grids (all movement models) and on the
 * real Moving AI maps; and Dijkstra against the scenario files.
 *
 * What is asserted for each (query, solver, queue):
 *   - the solver finds a path iff Dijkstra does;
 *   - the path passes the independent validator;
 *   - its cost is never below Dijkstra's; equal (same straight/diagonal
 *     step counts) for solvers that promise optimality, <= w x optimum for
 *     weighted A*;
 *   - any-angle solvers (theta, SOLVER+smooth): the path passes the
 *     any-angle validator (gb_anyangle.h) instead, and its cost lies
 *     between the straight line and gb_solver_grid_bound() x Dijkstra's;
 *   - every queue gives the same path and the same counters (one ordering
 *     rule, gb_pq.h) -- stale pops and pushes excepted for the lazy heap;
 *   - running the same query twice gives the same path and counters;
 *   - A* with octile expands no more nodes than Dijkstra.
 *
 * More random grids: GB_PROP_GRIDS=N (default 300) and GB_PROP_SEED=S.
 */
#include "gb_test.h"
#include <criterion/parameterized.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gb_alloc.h"
#include "gb_anyangle.h"
#include "gb_map.h"
#include "gb_run.h"
#include "gb_scen.h"
#include "gb_search.h"
#include "gb_stats.h"
#include "gb_validate.h"

static long env_long(const char *name, long dflt)
{
    const char *v = getenv(name);
    return v && *v ? strtol(v, NULL, 10) : dflt;
}

/* The solvers under test: everything `--solver all` runs (the registry's
 * gb_solver_all(), so a new family is tested here without a line in this
 * file), then variants that exercise other heuristics and parameters. */
static const char *const solvers_extra[] = {
    "astar-zero", "astar-manhattan", "wastar-euclidean:w=3", "gbfs-manhattan",
    "biastar-euclidean", "biastar-chebyshev", "biastar-manhattan", "astar-diff:k=4",
    "biastar-diff:k=3", "wastar-diff:k=2:w=2",
    "astar-octile+smooth", "jps+smooth", "gbfs-octile+smooth", "wastar-octile:w=2+smooth",
};

/* The i-th solver under test, NULL past the end. */
static const char *solver_at(size_t i)
{
    size_t nall = 0;
    while (gb_solver_all((int)nall)) nall++;
    if (i < nall) return gb_solver_all((int)i);
    i -= nall;
    return i < sizeof solvers_extra / sizeof solvers_extra[0] ? solvers_extra[i] : NULL;
}

typedef struct outcome {
    int found;
    gb_xy end[2];    /* start and goal */
    gb_check chk;
    gb_stats st;
    int32_t len;
    int32_t *path;   /* malloc'd copy */
} outcome;

static void outcome_free(outcome *o) { free(o->path); o->path = NULL; }

/* Solve and validate; the path must be valid when found. */
static void solve_checked(gb_ws *ws, const gb_solver_spec *sp, gb_queue_kind q, int32_t s,
                          int32_t t, outcome *o, const char *where)
{
    const gb_grid *g = gb_ws_grid(ws);
    gb_result r;
    cr_assert_eq(gb_solve(ws, sp, q, s, t, &r), 0, "%s: gb_solve failed", where);
    memset(o, 0, sizeof *o);
    o->found = r.status == GB_FOUND;
    o->st = r.st;
    cr_assert_neq(r.status, GB_LIMIT, "%s: limit without a limit set", where);
    if (!o->found) return;
    gb_xy *xy = malloc((size_t)(r.path_len > 0 ? r.path_len : 1) * sizeof *xy);
    for (int32_t i = 0; i < r.path_len; i++) xy[i] = (gb_xy){ gb_grid_x(g, r.path[i]), gb_grid_y(g, r.path[i]) };
    gb_xy a = { gb_grid_x(g, s), gb_grid_y(g, s) }, b = { gb_grid_x(g, t), gb_grid_y(g, t) };
    o->end[0] = a;
    o->end[1] = b;
    int ok = gb_solver_cost_model(sp) == GB_COST_ANYANGLE
        ? gb_validate_anyangle(g, a, b, xy, (size_t)r.path_len, r.cost, &o->chk)
        : gb_validate_path(g, gb_ws_model(ws), a, b, xy, (size_t)r.path_len, r.cost, &o->chk);
    free(xy);
    cr_assert(ok, "%s: %s/%s: invalid path: %s", where, sp->name, gb_queue_name(q), o->chk.msg);
    o->len = r.path_len;
    o->path = malloc((size_t)r.path_len * sizeof *o->path);
    memcpy(o->path, r.path, (size_t)r.path_len * sizeof *o->path);
}

static void check_against_oracle(const gb_solver_spec *sp, gb_model m, const outcome *o,
                                 const outcome *dij, const char *where, const char *qn)
{
    cr_assert_eq(o->found, dij->found, "%s: %s/%s found=%d, Dijkstra found=%d", where, sp->name,
                 qn, o->found, dij->found);
    if (!o->found) return;
    double bound;
    gb_guarantee gu = gb_solver_guarantee(sp, m, &bound);
    if (gb_solver_cost_model(sp) == GB_COST_ANYANGLE) {
        cr_assert_eq(gu, GB_GUAR_NONE, "%s: any-angle %s promises the any-angle optimum", where,
                     sp->name);
        const double lb = gb_anyangle_dist(dij->end[0], dij->end[1]);
        cr_assert_geq(o->chk.cost, lb - 1e-9, "%s: %s/%s cost %.9f below the straight line %.9f",
                      where, sp->name, qn, o->chk.cost, lb);
        const double b = gb_solver_grid_bound(sp, m);
        if (b > 0)
            cr_assert_leq(o->chk.cost, b * dij->chk.cost * (1 + 1e-12) + 1e-9,
                          "%s: %s/%s any-angle cost %.9f > %g x grid optimum %.9f", where,
                          sp->name, qn, o->chk.cost, b, dij->chk.cost);
        return;
    }
    int cmp = gb_check_cmp(&o->chk, &dij->chk);
    cr_assert_geq(cmp, 0, "%s: %s/%s cost %.9f below Dijkstra's %.9f", where, sp->name, qn,
                  o->chk.cost, dij->chk.cost);
    if (gu == GB_GUAR_OPTIMAL)
        cr_assert_eq(cmp, 0, "%s: %s/%s cost %.9f, Dijkstra %.9f (model %s)", where, sp->name, qn,
                     o->chk.cost, dij->chk.cost, gb_model_name(m));
    if (gu == GB_GUAR_BOUNDED)
        cr_assert_leq(o->chk.cost, bound * dij->chk.cost * (1 + 1e-12) + 1e-12,
                      "%s: %s/%s cost %.9f > %g x %.9f", where, sp->name, qn, o->chk.cost, bound,
                      dij->chk.cost);
}

/* Run every supported solver x queue on one query; assert everything in
 * the file comment.  Returns the oracle's outcome in *dij_out (caller frees). */
static void check_query(gb_ws *ws, int32_t s, int32_t t, const char *where, int all_queues)
{
    gb_model m = gb_ws_model(ws);
    char err[256];
    gb_solver_spec dsp;
    gb_solver_parse("dijkstra", &dsp, err, sizeof err);
    outcome dij;
    solve_checked(ws, &dsp, GB_Q_BHEAP, s, t, &dij, where);
    uint64_t astar_octile_exp = 0, dij_exp = dij.st.expanded;

    const char *name;
    for (size_t i = 0; (name = solver_at(i)) != NULL; i++) {
        gb_solver_spec sp;
        cr_assert_eq(gb_solver_parse(name, &sp, err, sizeof err), 0, "%s", err);
        if (gb_solver_unsupported(&sp, m, err, sizeof err)) continue;
        outcome first;
        memset(&first, 0, sizeof first);
        int nq = !gb_solver_uses_queue(&sp) || !all_queues ? 1 : GB_Q_COUNT;
        for (int q = 0; q < nq; q++) {
            outcome o;
            solve_checked(ws, &sp, (gb_queue_kind)q, s, t, &o, where);
            check_against_oracle(&sp, m, &o, &dij, where, gb_queue_name((gb_queue_kind)q));
            if (q == 0) {
                /* determinism: the same query again gives the same answer */
                outcome again;
                solve_checked(ws, &sp, (gb_queue_kind)q, s, t, &again, where);
                cr_assert_eq(again.len, o.len, "%s: %s not deterministic", where, sp.name);
                cr_assert(o.len == 0 || memcmp(again.path, o.path, (size_t)o.len * sizeof *o.path) == 0,
                          "%s: %s path differs between runs", where, sp.name);
                cr_assert_eq(memcmp(&again.st, &o.st, sizeof o.st), 0, "%s: %s counters differ between runs",
                             where, sp.name);
                outcome_free(&again);
                first = o;
                if (strcmp(sp.name, "astar-octile") == 0) astar_octile_exp = o.st.expanded;
                continue;
            }
            /* every queue pops in the same order: same expansions, same path */
            cr_assert_eq(o.st.expanded, first.st.expanded, "%s: %s expanded %llu on %s, %llu on %s",
                         where, sp.name, (unsigned long long)o.st.expanded, gb_queue_name((gb_queue_kind)q),
                         (unsigned long long)first.st.expanded, gb_queue_name(GB_Q_BHEAP));
            cr_assert_eq(o.st.generated, first.st.generated, "%s: %s generated differs on %s", where,
                         sp.name, gb_queue_name((gb_queue_kind)q));
            cr_assert_eq(o.len, first.len, "%s: %s path length differs on %s", where, sp.name,
                         gb_queue_name((gb_queue_kind)q));
            cr_assert(o.len == 0 || memcmp(o.path, first.path, (size_t)o.len * sizeof *o.path) == 0,
                      "%s: %s path differs on %s", where, sp.name, gb_queue_name((gb_queue_kind)q));
            outcome_free(&o);
        }
        outcome_free(&first);
    }
    if (dij.found && m != GB_MODEL_4)
        cr_assert_leq(astar_octile_exp, dij_exp, "%s: A* octile expanded %llu > Dijkstra %llu", where,
                      (unsigned long long)astar_octile_exp, (unsigned long long)dij_exp);
    outcome_free(&dij);
}

/* ---- hand-made facts ---------------------------------------------------- */

static gb_ws *open_grid(gb_grid *g, int w, int h, gb_model m)
{
    cr_assert_eq(gb_grid_init(g, w, h), 0);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) g->pass[gb_grid_id(g, x, y)] = 1;
    gb_grid_recount(g);
    gb_ws *ws = gb_ws_new(g, m);
    cr_assert_not_null(ws);
    return ws;
}

GB_TEST(search, open_grid_costs_are_octile_and_manhattan)
{
    char err[128];
    gb_solver_spec sp;
    gb_solver_parse("dijkstra", &sp, err, sizeof err);
    gb_grid g;
    gb_ws *ws = open_grid(&g, 20, 10, GB_MODEL_8_NOCUT);
    gb_result r;
    cr_assert_eq(gb_solve(ws, &sp, GB_Q_BHEAP, gb_grid_id(&g, 1, 1), gb_grid_id(&g, 15, 4), &r), 0);
    cr_assert_eq(r.status, GB_FOUND);
    cr_expect_float_eq(r.cost, 11.0 + 3.0 * GB_SQRT2, 1e-12);
    cr_expect_eq(r.path_len, 15);
    gb_ws_free(ws);
    ws = gb_ws_new(&g, GB_MODEL_4);
    cr_assert_eq(gb_solve(ws, &sp, GB_Q_BHEAP, gb_grid_id(&g, 1, 1), gb_grid_id(&g, 15, 4), &r), 0);
    cr_expect_float_eq(r.cost, 17.0, 1e-12);
    gb_ws_free(ws);
    gb_grid_free(&g);
}

GB_TEST(search, start_equal_to_goal_costs_zero_for_every_solver)
{
    char err[128];
    gb_grid g;
    gb_ws *ws = open_grid(&g, 5, 5, GB_MODEL_8_NOCUT);
    const char *name;
    for (size_t i = 0; (name = solver_at(i)) != NULL; i++) {
        gb_solver_spec sp;
        gb_solver_parse(name, &sp, err, sizeof err);
        for (int q = 0; q < GB_Q_COUNT; q++) {
            gb_result r;
            int32_t c = gb_grid_id(&g, 2, 3);
            cr_assert_eq(gb_solve(ws, &sp, (gb_queue_kind)q, c, c, &r), 0);
            cr_expect_eq(r.status, GB_FOUND, "%s", sp.name);
            cr_expect_eq(r.cost, 0.0, "%s", sp.name);
            cr_expect_eq(r.path_len, 1, "%s", sp.name);
        }
    }
    gb_ws_free(ws);
    gb_grid_free(&g);
}

GB_TEST(search, walled_off_goal_is_unreachable_for_every_solver)
{
    char err[128];
    gb_grid g;
    gb_ws *ws;
    cr_assert_eq(gb_grid_init(&g, 9, 5), 0);
    for (int y = 0; y < 5; y++)
        for (int x = 0; x < 9; x++) g.pass[gb_grid_id(&g, x, y)] = x != 4;
    gb_grid_recount(&g);
    ws = gb_ws_new(&g, GB_MODEL_8_CUTALL);
    const char *name;
    for (size_t i = 0; (name = solver_at(i)) != NULL; i++) {
        gb_solver_spec sp;
        gb_solver_parse(name, &sp, err, sizeof err);
        if (gb_solver_unsupported(&sp, GB_MODEL_8_CUTALL, err, sizeof err)) continue;
        for (int q = 0; q < GB_Q_COUNT; q++) {
            gb_result r;
            cr_assert_eq(gb_solve(ws, &sp, (gb_queue_kind)q, gb_grid_id(&g, 0, 0), gb_grid_id(&g, 8, 4), &r), 0);
            cr_expect_eq(r.status, GB_UNREACHABLE, "%s/%s", sp.name, gb_queue_name((gb_queue_kind)q));
        }
    }
    gb_ws_free(ws);
    gb_grid_free(&g);
}

GB_TEST(search, diagonal_gap_blocks_8nocut_but_not_8cutall)
{
    /* two blocked cells touching at a corner: the only way through is the
     * diagonal squeeze, legal on 8-cutall only */
    const char *rows[] = { ".@", "@." };
    gb_grid g;
    cr_assert_eq(gb_grid_init(&g, 2, 2), 0);
    for (int y = 0; y < 2; y++)
        for (int x = 0; x < 2; x++) g.pass[gb_grid_id(&g, x, y)] = rows[y][x] == '.';
    char err[128];
    gb_solver_spec sp;
    gb_solver_parse("dijkstra", &sp, err, sizeof err);
    gb_result r;
    for (int m = 0; m < GB_MODEL_COUNT; m++) {
        gb_ws *ws = gb_ws_new(&g, (gb_model)m);
        cr_assert_eq(gb_solve(ws, &sp, GB_Q_BHEAP, gb_grid_id(&g, 0, 0), gb_grid_id(&g, 1, 1), &r), 0);
        cr_expect_eq(r.status, m == GB_MODEL_8_CUTALL ? GB_FOUND : GB_UNREACHABLE, "model %s",
                     gb_model_name((gb_model)m));
        gb_ws_free(ws);
    }
    gb_grid_free(&g);
}

GB_TEST(search, solver_names_parse_and_reject)
{
    char err[256];
    gb_solver_spec sp;
    cr_assert_eq(gb_solver_parse("wastar-octile:w=1.5", &sp, err, sizeof err), 0);
    cr_expect_eq(sp.wh, 1.5);
    cr_expect_str_eq(sp.name, "wastar-octile:w=1.5");
    double b;
    cr_expect_eq(gb_solver_guarantee(&sp, GB_MODEL_8_NOCUT, &b), GB_GUAR_BOUNDED);
    cr_expect_eq(b, 1.5);
    cr_expect_eq(gb_solver_parse("wastar-octile:w=0.5", &sp, err, sizeof err), -1);
    cr_expect_str_eq(err, "solver 'wastar-octile:w=0.5': expected a weight >= 1, found '0.5'");
    cr_expect_eq(gb_solver_parse("astar-foo", &sp, err, sizeof err), -1);
    cr_expect_str_eq(err, "unknown heuristic 'foo': expected one of zero, manhattan, octile, "
                     "euclidean, chebyshev, diff (see `gridbench list`)");
    cr_expect_eq(gb_solver_parse("nope", &sp, err, sizeof err), -1);
    const char *want = "unknown solver 'nope': expected one of dijkstra, astar-H, ";
    cr_expect(strncmp(err, want, strlen(want)) == 0, "%s", err);
    cr_expect(strstr(err, "astar-diff:k=K") == NULL, "a listed-only variant offered: %s", err);
    cr_expect_eq(gb_solver_parse("wastar-octile", &sp, err, sizeof err), -1);
    cr_expect_str_eq(err, "solver 'wastar-octile': expected wastar-H:w=W, found no ':w='");
    cr_assert_eq(gb_solver_parse("wastar-diff:k=2:w=2", &sp, err, sizeof err), 0, "%s", err);
    cr_expect_str_eq(sp.name, "wastar-diff:k=2:w=2");
    cr_assert_eq(gb_solver_parse("biastar-diff", &sp, err, sizeof err), 0, "%s", err);
    cr_expect_str_eq(sp.name, "biastar-diff:k=8");
    cr_expect_eq(gb_solver_parse("astar-manhattan", &sp, err, sizeof err), 0);
    cr_expect_eq(gb_solver_guarantee(&sp, GB_MODEL_8_NOCUT, &b), GB_GUAR_NONE,
                 "manhattan overestimates diagonals: no guarantee on 8-connected");
    cr_expect_eq(gb_solver_guarantee(&sp, GB_MODEL_4, &b), GB_GUAR_OPTIMAL);
    cr_expect_eq(gb_solver_parse("bfs", &sp, err, sizeof err), 0);
    cr_expect_eq(gb_solver_guarantee(&sp, GB_MODEL_8_NOCUT, &b), GB_GUAR_NONE);
    cr_expect_eq(gb_solver_parse("jps", &sp, err, sizeof err), 0);
    cr_expect(gb_solver_unsupported(&sp, GB_MODEL_4, err, sizeof err));
    cr_expect_str_eq(err, "solver 'jps' supports model 8-nocut only, not 4");
}

/* Every listed pattern comes from a family, every `--solver all` name
 * parses to its own canonical name, and the registry's queue list is the
 * one gb_queue_from_name knows. */
GB_TEST(search, registry_lists_parse_back)
{
    char err[256];
    gb_solver_spec sp;
    int n = 0;
    const char *name;
    for (int i = 0; (name = gb_solver_all(i)) != NULL; i++, n++) {
        cr_assert_eq(gb_solver_parse(name, &sp, err, sizeof err), 0, "%s: %s", name, err);
        cr_expect_str_eq(sp.name, name, "'%s' is not canonical", name);
    }
    cr_expect_geq(n, 10);
    const char *desc;
    for (int i = 0; (name = gb_solver_list(i, &desc)) != NULL; i++)
        cr_expect(desc && *desc, "pattern %s has no description", name);
    char names[256];
    size_t len = gb_queue_names(names, sizeof names);
    cr_expect_eq(len, strlen(names));
    for (int q = 0; q < GB_Q_COUNT; q++) {
        cr_expect(strstr(names, gb_queue_name((gb_queue_kind)q)) != NULL);
        cr_expect_eq(gb_queue_from_name(gb_queue_name((gb_queue_kind)q)), q);
    }
    char tiny[8];
    cr_expect_eq(gb_queue_names(tiny, sizeof tiny), len, "the length is the whole list's");
    cr_expect_eq(strlen(tiny), sizeof tiny - 1);
}

GB_TEST(search, dijkstra_all_matches_per_query_dijkstra)
{
    uint64_t seed = 7;
    gb_grid g;
    cr_assert_eq(gb_grid_init(&g, 30, 20), 0);
    for (int y = 0; y < 20; y++)
        for (int x = 0; x < 30; x++) g.pass[gb_grid_id(&g, x, y)] = gb_rng_next(&seed) % 100 >= 25;
    int32_t src = gb_grid_id(&g, 3, 3);
    g.pass[src] = 1;
    gb_grid_recount(&g);
    double *dist = malloc((size_t)g.ncells * sizeof *dist);
    cr_assert_eq(gb_dijkstra_all(&g, GB_MODEL_8_NOCUT, src, dist), 0);
    gb_ws *ws = gb_ws_new(&g, GB_MODEL_8_NOCUT);
    char err[128];
    gb_solver_spec sp;
    gb_solver_parse("dijkstra", &sp, err, sizeof err);
    for (int y = 0; y < 20; y++)
        for (int x = 0; x < 30; x++) {
            int32_t t = gb_grid_id(&g, x, y);
            if (!g.pass[t]) { cr_expect(isinf(dist[t])); continue; }
            gb_result r;
            gb_solve(ws, &sp, GB_Q_BHEAP, src, t, &r);
            if (r.status == GB_FOUND) cr_expect_float_eq(dist[t], r.cost, 1e-9);
            else cr_expect(isinf(dist[t]));
        }
    gb_ws_free(ws);
    free(dist);
    gb_grid_free(&g);
}

/* ---- property test on random grids -------------------------------------- */

GB_TEST(search, every_solver_and_queue_agrees_with_dijkstra_on_random_grids, .timeout = 600)
{
    long ngrids = env_long("GB_PROP_GRIDS", 300);
    uint64_t seed = (uint64_t)env_long("GB_PROP_SEED", 20261129);
    char where[160];
    for (long gi = 0; gi < ngrids; gi++) {
        int w = 1 + (int)(gb_rng_next(&seed) % 24), h = 1 + (int)(gb_rng_next(&seed) % 24);
        int density = (int)(gb_rng_next(&seed) % 46);
        gb_model m = (gb_model)(gb_rng_next(&seed) % GB_MODEL_COUNT);
        gb_grid g;
        cr_assert_eq(gb_grid_init(&g, w, h), 0);
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
                g.pass[gb_grid_id(&g, x, y)] = (int)(gb_rng_next(&seed) % 100) >= density;
        gb_grid_recount(&g);
        if (g.npassable == 0) { gb_grid_free(&g); continue; }
        gb_ws *ws = gb_ws_new(&g, m);
        cr_assert_not_null(ws);
        for (int k = 0; k < 3; k++) {
            int32_t s, t;
            do s = gb_grid_id(&g, (int)(gb_rng_next(&seed) % (uint64_t)w), (int)(gb_rng_next(&seed) % (uint64_t)h));
            while (!g.pass[s]);
            do t = gb_grid_id(&g, (int)(gb_rng_next(&seed) % (uint64_t)w), (int)(gb_rng_next(&seed) % (uint64_t)h));
            while (!g.pass[t]);
            snprintf(where, sizeof where, "grid %ld (%dx%d, %d%%, model %s) query %d (%d,%d)->(%d,%d)",
                     gi, w, h, density, gb_model_name(m), k, gb_grid_x(&g, s), gb_grid_y(&g, s),
                     gb_grid_x(&g, t), gb_grid_y(&g, t));
            check_query(ws, s, t, where, 1);
        }
        gb_ws_free(ws);
        gb_grid_free(&g);
    }
}

/* ---- the real Moving AI maps --------------------------------------------- */

static const char *shared_dir(void)
{
    const char *d = getenv("GB_SHARED");
    return d && *d ? d : "../shared/movingai";
}

static int load_pair(const char *rel, gb_scen *sc, gb_map *mp)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", shared_dir(), rel);
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    fclose(f);
    gb_diag d;
    cr_assert_eq(gb_scen_load(path, sc, &d), 0, "%s", d.msg);
    char mpath[1024];
    cr_assert_eq(gb_scen_resolve_map(sc, mpath, sizeof mpath, &d), 0, "%s", d.msg);
    cr_assert_eq(gb_map_load(mpath, mp, &d), 0, "%s", d.msg);
    return 0;
}

typedef struct shared_case {
    char scen[48];          /* relative to GB_SHARED (an array: Criterion copies
                               parameters into another process) */
    int chunk, nchunks;     /* this test covers queries i with i % nchunks == chunk */
    long blocked;           /* queries with an endpoint on a blocked cell (whole file) */
    long mismatches;        /* other queries whose printed length disagrees (whole file) */
} shared_case;

/* The Warcraft III file disagrees with the model on 552 of its 1280
 * queries: 24 put an endpoint on a blocked cell, 528 print a length that
 * Dijkstra (whose every path is validated) does not reproduce.  Pinned so
 * that a change in either number is noticed. */
static shared_case scen_cases[] = {
    { "dao/arena.map.scen", 0, 1, 0, 0 },
    { "bgmaps/AR0011SR.map.scen", 0, 1, 0, 0 },
    { "random/random512-10-0.map.scen", 0, 1, 0, 0 },
    { "street/Berlin_0_256.map.scen", 0, 1, 0, 0 },
    { "mapf/den312d-even-10.scen", 0, 1, 0, 0 },
    { "wc3/divideandconquer.map.scen", 0, 1, 24, 528 },
    { "mazes/maze512-4-0.map.scen", 0, 4, 0, 0 },
    { "mazes/maze512-4-0.map.scen", 1, 4, 0, 0 },
    { "mazes/maze512-4-0.map.scen", 2, 4, 0, 0 },
    { "mazes/maze512-4-0.map.scen", 3, 4, 0, 0 },
};

ParameterizedTestParameters(shared, dijkstra_reproduces_every_printed_length)
{
    return cr_make_param_array(shared_case, scen_cases, sizeof scen_cases / sizeof scen_cases[0]);
}

/* Every query of every shared scenario file (the maze file in four
 * chunks so the two test workers share it) with GB_TEST_FULL=1 (`make
 * test-full`, which CI runs); by default every 24th query of each chunk
 * (`make test`, a few seconds instead of minutes), the pinned counts then
 * checked as bounds.  The bucket queue is used for speed: that it matches
 * the binary heap exactly is asserted above and in the next test. */
ParameterizedTest(shared_case *c, shared, dijkstra_reproduces_every_printed_length, .timeout = 900)
{
    gb_scen sc;
    gb_map mp;
    if (load_pair(c->scen, &sc, &mp) != 0) cr_skip_test("%s/%s not found", shared_dir(), c->scen);
    gb_ws *ws = gb_ws_new(&mp.grid, GB_MODEL_8_NOCUT);
    char err[128];
    gb_solver_spec sp;
    gb_solver_parse("dijkstra", &sp, err, sizeof err);
    long blocked = 0, mismatch = 0, checked = 0;
    const int full = gb_test_full();
    gb_diag d;
    for (size_t i = 0; i < sc.n; i++) {
        const gb_query *q = &sc.q[i];
        if (gb_scen_check_query(&sc, i, &mp, &d) != 0) {
            cr_assert(strstr(d.msg, "passable") != NULL, "%s", d.msg);
            blocked++;
            continue;
        }
        if ((int)(i % (size_t)c->nchunks) != c->chunk) continue;
        if (!full && (i / (size_t)c->nchunks) % (size_t)GB_TEST_PICK(1, 24, 96) != 0) continue;   /* the sample */
        int32_t s = gb_grid_id(&mp.grid, q->sx, q->sy), t = gb_grid_id(&mp.grid, q->gx, q->gy);
        outcome o;
        char where[256];
        snprintf(where, sizeof where, "%s:%ld", c->scen, q->line);
        solve_checked(ws, &sp, GB_Q_BUCKET, s, t, &o, where);
        cr_assert(o.found, "%s: no path", where);
        if (!gb_scen_agrees(&o.chk, q)) {
            mismatch++;
            cr_assert_gt(c->mismatches, 0, "%s: Dijkstra %.8f, printed %.*f (tolerance %g)", where,
                         o.chk.cost, q->decimals, q->length, q->tol);
        }
        checked++;
        outcome_free(&o);
    }
    cr_expect_eq(blocked, c->blocked, "%s: %ld queries with blocked endpoints", c->scen, blocked);
    if (c->nchunks == 1 && full)
        cr_expect_eq(mismatch, c->mismatches, "%s: %ld length disagreements", c->scen, mismatch);
    else
        cr_expect_leq(mismatch, c->mismatches, "%s: %ld length disagreements", c->scen, mismatch);
    if (!full && !gb_test_san() && c->mismatches > 0)   /* the sample still sees the file's disagreements */
        cr_expect_gt(mismatch, 0, "%s: the sample met none of the %ld disagreements", c->scen, c->mismatches);
    cr_expect_gt(checked, 0);
    gb_ws_free(ws);
    gb_map_free(&mp);
    gb_scen_free(&sc);
    gb_test_leak_check();
}

static shared_case matrix_cases[] = {
    { "dao/arena.map.scen", 0, 8, 0, 0 },
    { "bgmaps/AR0011SR.map.scen", 0, 107, 0, 0 },
    { "random/random512-10-0.map.scen", 0, 149, 0, 0 },
    { "street/Berlin_0_256.map.scen", 0, 47, 0, 0 },
    { "mapf/den312d-even-10.scen", 0, 14, 0, 0 },
    { "wc3/divideandconquer.map.scen", 0, 107, 0, 0 },
    { "mazes/maze512-4-0.map.scen", 0, 811, 0, 0 },
};

ParameterizedTestParameters(shared, every_solver_and_queue_matches_dijkstra_on_a_sample)
{
    return cr_make_param_array(shared_case, matrix_cases, sizeof matrix_cases / sizeof matrix_cases[0]);
}

/* A fixed sample of each shared file (every nchunks-th query, i.e. 12 to
 * 20 queries spread over all buckets): every solver on every queue. */
ParameterizedTest(shared_case *c, shared, every_solver_and_queue_matches_dijkstra_on_a_sample, .timeout = 900)
{
    /* Under the sanitizers, check-cli runs this matrix's solvers (`run
     * --solver all --queue all`, the same loops the extra variants here
     * instantiate with other heuristics) over every shared file, 4 to 7 queries
     * each: this test would repeat it at 30 s of CPU. */
    if (gb_test_san())
        cr_skip_test(
            "a sanitizer build: make check's check-cli runs every solver x queue on these files");
    gb_scen sc;
    gb_map mp;
    if (load_pair(c->scen, &sc, &mp) != 0) cr_skip_test("%s/%s not found", shared_dir(), c->scen);
    gb_ws *ws = gb_ws_new(&mp.grid, GB_MODEL_8_NOCUT);
    gb_diag d;
    int n = 0;
    /* make test: every sixth of them, 2 to 4 queries a file (GB_TEST_FULL:
     * all, in CI) */
    const size_t step = (size_t)c->nchunks * (gb_test_full() ? 1u : 6u);
    for (size_t i = 0; i < sc.n; i += step) {
        const gb_query *q = &sc.q[i];
        if (gb_scen_check_query(&sc, i, &mp, &d) != 0) continue;
        char where[256];
        snprintf(where, sizeof where, "%s:%ld", c->scen, q->line);
        check_query(ws, gb_grid_id(&mp.grid, q->sx, q->sy), gb_grid_id(&mp.grid, q->gx, q->gy), where, 1);
        n++;
    }
    cr_expect_geq(n, gb_test_full() ? 10 : 2, "%s: only %d queries sampled", c->scen, n);
    gb_ws_free(ws);
    gb_map_free(&mp);
    gb_scen_free(&sc);
    gb_test_leak_check();
}

/* gb_ws_bytes (what --max-mem and the map-size check go by) is what a
 * workspace really takes: for every solver x queue, a fresh workspace
 * prepared for it holds between gb_ws_bytes and that plus the
 * allocator's rounding (counted by gb_alloc in usable bytes). */
GB_TEST(memory, ws_bytes_is_what_the_workspace_allocates)
{
    gb_map mp;
    gb_diag d;
    cr_assert_eq(gb_map_load("datasets/default/room128-16-1.map", &mp, &d), 0, "%s", d.msg);
    char err[256];
    const char *name;
    for (size_t i = 0; (name = solver_at(i)) != NULL; i++) {
        gb_solver_spec sp;
        cr_assert_eq(gb_solver_parse(name, &sp, err, sizeof err), 0, "%s", err);
        for (int q = 0; q < GB_Q_COUNT; q++) {
            size_t live0 = gb_alloc_live();
            gb_ws *ws = gb_ws_new(&mp.grid, GB_MODEL_8_NOCUT);
            cr_assert_not_null(ws);
            cr_assert_eq(gb_ws_prepare(ws, &sp, (gb_queue_kind)q), 0);
            size_t got = gb_alloc_live() - live0;
            size_t need = gb_ws_bytes(mp.grid.width, mp.grid.height, &sp, (gb_queue_kind)q);
            size_t exact = gb_ws_bytes_prepared(ws, &sp, (gb_queue_kind)q);
            /* a family whose state depends on the map (subgoal graphs): the
             * dimensions give a lower bound, the built state the exact figure */
            cr_expect(need <= exact, "%s: the bound %zu is above the exact %zu", name, need, exact);
            cr_expect(exact <= got && got <= exact + exact / 64 + 64 * 1024,
                      "%s on %s: gb_ws_bytes_prepared says %zu, the workspace holds %zu",
                      name, gb_queue_name((gb_queue_kind)q), exact, got);
            gb_ws_free(ws);
            cr_expect_eq(gb_alloc_live(), live0, "%s: freeing the workspace left %zu bytes",
                         name, gb_alloc_live() - live0);
        }
    }
    gb_map_free(&mp);
}

/* ---- jps+ ------------------------------------------------------------------ */
/* No .timeout on these (concurrent .timeout tests make Criterion 2.4 leak
 * in its runner, which fails `make check`): every loop is bounded. */

/* jps+ reads its jumps from a table, jps scans for them: the same jump
 * points, so the same search -- expansions, generations, queue operations
 * and path, cell for cell -- on every queue; only `scanned` differs (jps+
 * scans nothing).  One query, asserted on every queue. */
static void jps_plus_agrees(gb_ws *ws, int32_t s, int32_t t, const char *where)
{
    char err[128];
    gb_solver_spec a, b;
    cr_assert_eq(gb_solver_parse("jps", &a, err, sizeof err), 0, "%s", err);
    cr_assert_eq(gb_solver_parse("jps+", &b, err, sizeof err), 0, "%s", err);
    int32_t *pa = malloc((size_t)gb_ws_grid(ws)->ncells * sizeof *pa);
    for (int q = 0; q < GB_Q_COUNT; q++) {
        gb_result ra, rb;
        const char *qn = gb_queue_name((gb_queue_kind)q);
        cr_assert_eq(gb_solve(ws, &a, (gb_queue_kind)q, s, t, &ra), 0);
        memcpy(pa, ra.path, (size_t)ra.path_len * sizeof *pa);
        cr_assert_eq(gb_solve(ws, &b, (gb_queue_kind)q, s, t, &rb), 0);
        cr_assert_eq(rb.status, ra.status, "%s/%s: jps+ status %d, jps %d", where, qn,
                     (int)rb.status, (int)ra.status);
        cr_assert_eq(rb.cost, ra.cost, "%s/%s: jps+ cost %.9f, jps %.9f", where, qn, rb.cost,
                     ra.cost);
        cr_assert_eq(rb.path_len, ra.path_len, "%s/%s: jps+ path of %d cells, jps %d", where, qn,
                     rb.path_len, ra.path_len);
        cr_assert(memcmp(rb.path, pa, (size_t)ra.path_len * sizeof *pa) == 0,
                  "%s/%s: jps+ path differs from jps's", where, qn);
        cr_assert_eq(rb.st.expanded, ra.st.expanded, "%s/%s: jps+ expanded %llu, jps %llu", where,
                     qn, (unsigned long long)rb.st.expanded, (unsigned long long)ra.st.expanded);
        cr_assert_eq(rb.st.generated, ra.st.generated, "%s/%s: generated differs", where, qn);
        cr_assert_eq(rb.st.pushes, ra.st.pushes, "%s/%s: pushes differ", where, qn);
        cr_assert_eq(rb.st.pops, ra.st.pops, "%s/%s: pops differ", where, qn);
        cr_assert_eq(rb.st.decreases, ra.st.decreases, "%s/%s: decreases differ", where, qn);
        cr_assert_eq(rb.st.peak_open, ra.st.peak_open, "%s/%s: peak differs", where, qn);
        cr_assert_eq(rb.st.scanned, 0, "%s/%s: jps+ scanned %llu cells", where, qn,
                     (unsigned long long)rb.st.scanned);
    }
    free(pa);
}

/* Random 8-nocut grids; half the goals are put on the start's row, column
 * or diagonal, or one knight-like offset away, where the jumps' goal
 * detection decides. */
GB_TEST(jpsplus, same_search_as_jps_on_random_grids)
{
    long ngrids = env_long("GB_PROP_GRIDS", 300) * 4;
    uint64_t seed = (uint64_t)env_long("GB_PROP_SEED", 20261129) ^ 0x4a50532bu;
    char where[160];
    for (long gi = 0; gi < ngrids; gi++) {
        int w = 1 + (int)(gb_rng_next(&seed) % 40), h = 1 + (int)(gb_rng_next(&seed) % 40);
        int density = (int)(gb_rng_next(&seed) % 46);
        gb_grid g;
        cr_assert_eq(gb_grid_init(&g, w, h), 0);
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
                g.pass[gb_grid_id(&g, x, y)] = (int)(gb_rng_next(&seed) % 100) >= density;
        gb_grid_recount(&g);
        if (g.npassable == 0) { gb_grid_free(&g); continue; }
        gb_ws *ws = gb_ws_new(&g, GB_MODEL_8_NOCUT);
        cr_assert_not_null(ws);
        for (int k = 0; k < 4; k++) {
            int sx, sy, tx, ty;
            do { sx = (int)(gb_rng_next(&seed) % (uint64_t)w); sy = (int)(gb_rng_next(&seed) % (uint64_t)h); }
            while (!g.pass[gb_grid_id(&g, sx, sy)]);
            int tries = 0;
            do {
                if (k & 1 && tries++ < 50) {   /* on a line through the start, or beside one */
                    int dir = (int)(gb_rng_next(&seed) % 8), n = 1 + (int)(gb_rng_next(&seed) % 40);
                    tx = sx + gb_dir_dx[dir] * n + (int)(gb_rng_next(&seed) % 3) / 2 * gb_dir_dy[dir];
                    ty = sy + gb_dir_dy[dir] * n;
                } else {
                    tx = (int)(gb_rng_next(&seed) % (uint64_t)w);
                    ty = (int)(gb_rng_next(&seed) % (uint64_t)h);
                }
            } while (!gb_grid_passable_xy(&g, tx, ty));
            snprintf(where, sizeof where, "grid %ld (%dx%d, %d%%) query %d (%d,%d)->(%d,%d)", gi, w,
                     h, density, k, sx, sy, tx, ty);
            jps_plus_agrees(ws, gb_grid_id(&g, sx, sy), gb_grid_id(&g, tx, ty), where);
        }
        gb_ws_free(ws);
        gb_grid_free(&g);
    }
}

/* Every 5th query of every shared scenario file. */
GB_TEST(jpsplus, same_search_as_jps_on_the_shared_maps)
{
    int nfiles = 0;
    for (size_t m = 0; m < sizeof matrix_cases / sizeof matrix_cases[0]; m++) {
        gb_scen sc;
        gb_map mp;
        if (load_pair(matrix_cases[m].scen, &sc, &mp) != 0) continue;
        gb_ws *ws = gb_ws_new(&mp.grid, GB_MODEL_8_NOCUT);
        gb_diag d;
        for (size_t i = 0; i < sc.n; i += (size_t)GB_TEST_PICK(5, 25, 100)) {   /* make test: a fifth of them */
            const gb_query *q = &sc.q[i];
            if (gb_scen_check_query(&sc, i, &mp, &d) != 0) continue;
            char where[256];
            snprintf(where, sizeof where, "%.47s:%ld", matrix_cases[m].scen, q->line);
            jps_plus_agrees(ws, gb_grid_id(&mp.grid, q->sx, q->sy),
                            gb_grid_id(&mp.grid, q->gx, q->gy), where);
        }
        nfiles++;
        gb_ws_free(ws);
        gb_map_free(&mp);
        gb_scen_free(&sc);
    }
    if (nfiles == 0) cr_skip_test("no shared scenarios in %s", shared_dir());
}

/* The jump tables are built by gb_ws_prepare (timed into gb_ws_prep_ns),
 * once per workspace; a search allocates nothing and builds nothing; the
 * family refuses the models it does not support. */
GB_TEST(jpsplus, tables_are_built_in_prepare_never_in_solve)
{
    gb_map mp;
    gb_diag d;
    cr_assert_eq(gb_map_load("datasets/default/room128-16-1.map", &mp, &d), 0, "%s", d.msg);
    char err[256];
    gb_solver_spec sp;
    cr_assert_eq(gb_solver_parse("jps+", &sp, err, sizeof err), 0, "%s", err);
    gb_ws *ws = gb_ws_new(&mp.grid, GB_MODEL_8_NOCUT);
    cr_expect_eq(gb_ws_prep_ns(ws, &sp), 0.0, "nothing built yet");
    cr_assert_eq(gb_ws_prepare(ws, &sp, GB_Q_BUCKET), 0);
    double prep = gb_ws_prep_ns(ws, &sp);
    cr_expect_gt(prep, 0.0);
    cr_assert_eq(gb_ws_prepare(ws, &sp, GB_Q_BUCKET), 0);
    cr_expect_eq(gb_ws_prep_ns(ws, &sp), prep, "prepared twice");
    uint64_t n0 = gb_alloc_count();
    int nsolved = 0;
    for (int y = 0; y < mp.grid.height; y += 9) {   /* row y's first free cell to the last
                                                       free cell of row height-1-y */
        int32_t s = -1, t = -1;
        for (int x = 0; x < mp.grid.width; x++) {
            int32_t a = gb_grid_id(&mp.grid, x, y), b = gb_grid_id(&mp.grid, x, mp.grid.height - 1 - y);
            if (s < 0 && mp.grid.pass[a]) s = a;
            if (mp.grid.pass[b]) t = b;
        }
        if (s < 0 || t < 0) continue;
        gb_result r;
        cr_assert_eq(gb_solve(ws, &sp, GB_Q_BUCKET, s, t, &r), 0);
        nsolved += r.status == GB_FOUND;
    }
    cr_expect_gt(nsolved, 5);
    cr_expect_eq(gb_alloc_count(), n0, "a search allocated");
    cr_expect_eq(gb_ws_prep_ns(ws, &sp), prep, "a search rebuilt the tables");
    gb_ws_free(ws);
    ws = gb_ws_new(&mp.grid, GB_MODEL_8_CUT1);
    cr_expect(gb_solver_unsupported(&sp, GB_MODEL_8_CUT1, err, sizeof err));
    cr_expect_str_eq(err, "solver 'jps+' supports model 8-nocut only, not 8-cut1");
    errno = 0;
    cr_expect_eq(gb_ws_prepare(ws, &sp, GB_Q_BHEAP), -1);
    cr_expect_eq(errno, EINVAL);
    gb_ws_free(ws);
    gb_map_free(&mp);
}
