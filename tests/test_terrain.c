/*
 * test_terrain.c -- terrain cost models (solvers/gb_terrain.h): parsing,
 * the mean rule's costs, exactness, the registry's refusals, and every
 * weighted solver x queue against Dijkstra on random weighted grids,
 * Dijkstra itself against an independent Bellman-Ford on exact (A, B)
 * pairs.
 *
 * More random grids: GB_PROP_GRIDS=N (default 120, 1200 under
 * gb_test_full()) and GB_PROP_SEED=S.
 */
#include "gb_test.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gb_dstar.h"
#include "gb_exact.h"
#include "gb_map.h"
#include "gb_search.h"
#include "gb_terrain.h"
#include "gb_validate.h"

static long env_long(const char *name, long dflt)
{
    const char *v = getenv(name);
    return v && *v ? strtol(v, NULL, 10) : dflt;
}

static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* ---- parsing ----------------------------------------------------------- */

GB_TEST(terrain, costs_parse_to_a_canonical_name_and_the_least_denominator)
{
    gb_terrain t;
    char err[256];
    cr_assert_eq(gb_terrain_parse("S=3,W=5,T=inf", &t, err, sizeof err), 0, "%s", err);
    cr_expect(t.on);
    cr_expect_eq(t.den, 1);
    cr_expect_str_eq(t.name, "terrain:.=1;G=1;S=3;T=inf;W=5");
    cr_expect_eq(t.q[2], 3);
    cr_expect_eq(t.q[3], 0);
    cr_assert_eq(gb_terrain_parse("G=0.5,S=2.25", &t, err, sizeof err), 0, "%s", err);
    cr_expect_eq(t.den, 4);
    cr_expect_eq(t.q[0], 4);
    cr_expect_eq(t.q[1], 2);
    cr_expect_eq(t.q[2], 9);
    cr_expect_str_eq(t.name, "terrain:.=1;G=0.5;S=2.25;T=inf;W=inf");
    cr_assert_eq(gb_terrain_parse("", &t, err, sizeof err), 0);
    cr_expect_not(t.on);
    cr_assert_eq(gb_terrain_parse("uniform", &t, err, sizeof err), 0);
    cr_expect_not(t.on);
}

GB_TEST(terrain, bad_costs_are_refused_with_what_was_expected)
{
    gb_terrain t;
    char err[256];
    cr_expect_eq(gb_terrain_parse("S=3,X=2", &t, err, sizeof err), -1);
    cr_expect_str_eq(err, "item 2: expected LETTER=COST with LETTER one of . G S T W, found 'X=2'");
    cr_expect_eq(gb_terrain_parse("S=0", &t, err, sizeof err), -1);
    cr_expect_str_eq(err, "item 1: expected a cost 'inf' or a number in (0, 255] with at most two "
                     "decimals, found 'S=0'");
    cr_expect_eq(gb_terrain_parse("W=1.125", &t, err, sizeof err), -1);
    cr_expect_eq(gb_terrain_parse("S=256", &t, err, sizeof err), -1);
    cr_expect_eq(gb_terrain_parse("@=1", &t, err, sizeof err), -1);
    cr_expect_str_eq(err, "item 1: expected a weighted letter (. G S T W; '@' and 'O' are out of "
                     "bounds, never passable), found '@=1'");
    cr_expect_not(t.on);
}

/* ---- the mean rule ----------------------------------------------------- */

/* A grid of the given rows under costs spec. */
static void make_grid(gb_grid *g, const char *const *rows, int w, int h, const char *spec)
{
    cr_assert_eq(gb_grid_init(g, w, h), 0);
    char *chars = malloc((size_t)(w * h));
    for (int y = 0; y < h; y++) memcpy(chars + y * w, rows[y], (size_t)w);
    gb_terrain t;
    char err[256];
    cr_assert_eq(gb_terrain_parse(spec, &t, err, sizeof err), 0, "%s", err);
    cr_assert_eq(gb_terrain_apply(&t, chars, g), 0);
    free(chars);
}

static double solve_cost(gb_grid *g, const char *solver, int sx, int sy, int tx, int ty)
{
    char err[256];
    gb_solver_spec sp;
    cr_assert_eq(gb_solver_parse(solver, &sp, err, sizeof err), 0, "%s", err);
    gb_ws *ws = gb_ws_new(g, GB_MODEL_8_NOCUT);
    gb_result r;
    cr_assert_eq(gb_solve(ws, &sp, GB_Q_BHEAP, gb_grid_id(g, sx, sy), gb_grid_id(g, tx, ty), &r), 0);
    double c = r.status == GB_FOUND ? r.cost : -1.0;
    gb_ws_free(ws);
    return c;
}

GB_TEST(terrain, a_step_costs_the_mean_of_the_cells_it_touches)
{
    gb_grid g;
    const char *rows[] = { ".S", "WG" };
    make_grid(&g, rows, 2, 2, "S=3,W=5,G=2");
    /* straight . -> S: (1 + 3) / 2 */
    cr_expect_eq(solve_cost(&g, "dijkstra", 0, 0, 1, 0), 2.0);
    /* diagonal . -> G: sqrt2 (1 + 3 + 5 + 2) / 4, cheaper than . S G = 2 + 2.5 */
    cr_expect_eq(solve_cost(&g, "dijkstra", 0, 0, 1, 1), 11.0 * GB_SQRT2 / 4.0);
    cr_expect_eq(solve_cost(&g, "astar-octile", 0, 0, 1, 1), 11.0 * GB_SQRT2 / 4.0);
    gb_grid_free(&g);
    /* T made passable, W impassable: the map's passability follows the model */
    const char *rows2[] = { ".T.", "WWW" };
    make_grid(&g, rows2, 3, 2, "T=4");
    cr_expect_eq(g.npassable, 3);
    cr_expect_eq(solve_cost(&g, "dijkstra", 0, 0, 2, 0), 5.0);   /* 2.5 + 2.5 */
    gb_grid_free(&g);
}

GB_TEST(terrain, all_ones_searches_exactly_like_the_uniform_model)
{
    /* keys x4, h x4: the same order, the same ties, the same cost bits */
    uint64_t seed = 7;
    const int W = 24, H = 17;
    char chars[24 * 17];
    for (int i = 0; i < W * H; i++) chars[i] = rng_next(&seed) % 100 < 25 ? '@' : '.';
    gb_grid u, w;
    cr_assert_eq(gb_grid_init(&u, W, H), 0);
    cr_assert_eq(gb_grid_init(&w, W, H), 0);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) u.pass[gb_grid_id(&u, x, y)] = chars[y * W + x] == '.';
    gb_grid_recount(&u);
    gb_terrain t;
    char err[256];
    cr_assert_eq(gb_terrain_parse(".=1", &t, err, sizeof err), 0);
    cr_assert_eq(gb_terrain_apply(&t, chars, &w), 0);
    const char *names[] = { "dijkstra", "astar-octile", "gbfs-octile", "wastar-octile:w=1.5",
                            "astar-euclidean", "bidijkstra", "biastar-octile", "astar-diff:k=4" };
    for (int m = 0; m < 2; m++) {
        gb_model model = m ? GB_MODEL_4 : GB_MODEL_8_NOCUT;
        gb_ws *wu = gb_ws_new(&u, model), *ww = gb_ws_new(&w, model);
        for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
            gb_solver_spec sp;
            cr_assert_eq(gb_solver_parse(names[i], &sp, err, sizeof err), 0);
            for (int q = 0; q < GB_Q_COUNT; q++)
                for (int k = 0; k < 20; k++) {
                    int32_t s = (int32_t)(rng_next(&seed) % (uint64_t)u.ncells);
                    int32_t e = (int32_t)(rng_next(&seed) % (uint64_t)u.ncells);
                    if (!u.pass[s] || !u.pass[e]) continue;
                    gb_result ru, rw;
                    cr_assert_eq(gb_solve(wu, &sp, (gb_queue_kind)q, s, e, &ru), 0);
                    int32_t *pu = malloc((size_t)(ru.path_len + 1) * sizeof *pu);
                    memcpy(pu, ru.path, (size_t)ru.path_len * sizeof *pu);
                    cr_assert_eq(gb_solve(ww, &sp, (gb_queue_kind)q, s, e, &rw), 0);
                    cr_expect_eq(rw.status, ru.status, "%s/%s", sp.name, gb_queue_name((gb_queue_kind)q));
                    cr_expect_eq(rw.cost, ru.cost, "%s/%s: %.17g vs %.17g", sp.name,
                                 gb_queue_name((gb_queue_kind)q), rw.cost, ru.cost);
                    cr_expect_eq(rw.st.expanded, ru.st.expanded, "%s/%s", sp.name,
                                 gb_queue_name((gb_queue_kind)q));
                    cr_expect_eq(rw.path_len, ru.path_len, "%s", sp.name);
                    cr_expect(rw.path_len != ru.path_len
                              || memcmp(rw.path, pu, (size_t)ru.path_len * sizeof *pu) == 0,
                              "%s/%s: another path", sp.name, gb_queue_name((gb_queue_kind)q));
                    free(pu);
                }
        }
        gb_ws_free(wu);
        gb_ws_free(ww);
    }
    gb_grid_free(&u);
    gb_grid_free(&w);
}

/* ---- the registry ------------------------------------------------------ */

GB_TEST(terrain, uniform_cost_families_refuse_a_weighted_grid)
{
    char err[256];
    gb_solver_spec sp;
    const char *refused[] = { "jps", "jps+", "sg", "sg-tl", "sg-tl-dt", "bfs" };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        cr_assert_eq(gb_solver_parse(refused[i], &sp, err, sizeof err), 0, "%s", err);
        cr_expect_eq(gb_solver_unsupported_w(&sp, GB_MODEL_8_NOCUT, 0, err, sizeof err), 0, "%s", err);
        cr_expect(gb_solver_unsupported_w(&sp, GB_MODEL_8_NOCUT, 1, err, sizeof err), "%s", refused[i]);
    }
    gb_solver_parse("jps", &sp, err, sizeof err);
    gb_solver_unsupported_w(&sp, GB_MODEL_8_NOCUT, 1, err, sizeof err);
    cr_expect_str_eq(err, "solver 'jps' is defined for uniform costs only, not under a terrain "
                     "cost model (docs/terrain.md)");
    gb_solver_parse("astar-octile", &sp, err, sizeof err);
    cr_expect(gb_solver_unsupported_w(&sp, GB_MODEL_8_CUT1, 1, err, sizeof err));
    cr_expect_str_eq(err, "solver 'astar-octile': terrain costs need model 8-nocut or 4, not 8-cut1");
    gb_solver_parse("astar-octile+smooth", &sp, err, sizeof err);
    cr_expect(gb_solver_unsupported_w(&sp, GB_MODEL_8_NOCUT, 1, err, sizeof err));
    /* and gb_solve refuses rather than answer on uniform costs */
    gb_grid g;
    const char *rows[] = { ".S" };
    make_grid(&g, rows, 2, 1, "S=3");
    gb_ws *ws = gb_ws_new(&g, GB_MODEL_8_NOCUT);
    gb_solver_parse("jps", &sp, err, sizeof err);
    gb_result r;
    errno = 0;
    cr_expect_eq(gb_solve(ws, &sp, GB_Q_BHEAP, gb_grid_id(&g, 0, 0), gb_grid_id(&g, 1, 0), &r), -1);
    cr_expect_eq(errno, EINVAL);
    gb_ws_free(ws);
    gb_grid_free(&g);
}

/* ---- property: random weighted grids ------------------------------------ */

/* Exact optimum by Bellman-Ford over (A, B) pairs, written from the mean
 * rule alone (shares nothing with the searches but pass[] and cost[]):
 * da/db of every cell, -1 when unreached. */
static void bellman_ford(const gb_grid *g, gb_model m, int32_t s, int64_t *da, int64_t *db)
{
    for (int32_t i = 0; i < g->ncells; i++) da[i] = db[i] = -1;
    da[s] = db[s] = 0;
    for (int changed = 1; changed;) {
        changed = 0;
        for (int32_t y = 0; y < g->height; y++)
            for (int32_t x = 0; x < g->width; x++) {
                int32_t id = gb_grid_id(g, x, y);
                if (da[id] < 0) continue;
                for (int dy = -1; dy <= 1; dy++)
                    for (int dx = -1; dx <= 1; dx++) {
                        if (!dx && !dy) continue;
                        if (!gb_grid_passable_xy(g, x + dx, y + dy)) continue;
                        int64_t a = da[id], b = db[id];
                        int32_t nb = gb_grid_id(g, x + dx, y + dy);
                        if (dx && dy) {
                            if (m == GB_MODEL_4 || !gb_grid_passable_xy(g, x + dx, y)
                                || !gb_grid_passable_xy(g, x, y + dy)) continue;
                            b += g->cost[id] + g->cost[nb] + g->cost[gb_grid_id(g, x + dx, y)]
                                 + g->cost[gb_grid_id(g, x, y + dy)];
                        } else {
                            a += 2 * (g->cost[id] + g->cost[nb]);
                        }
                        if (da[nb] < 0 || gb_exact_cmp_ref(a, b, da[nb], db[nb]) < 0) {
                            da[nb] = a;
                            db[nb] = b;
                            changed = 1;
                        }
                    }
            }
    }
}

/* A random weighted map: patches of terrain letters under a random model. */
static void random_weighted(gb_grid *g, uint64_t *seed, int *W, int *H, char *spec, size_t n)
{
    *W = 3 + (int)(rng_next(seed) % 14);
    *H = 3 + (int)(rng_next(seed) % 14);
    char *chars = malloc((size_t)(*W * *H));
    static const char lt[] = ".GSTW@";
    for (int i = 0; i < *W * *H; i++) chars[i] = lt[rng_next(seed) % 6];
    /* patches: copy a neighbour's letter with probability 1/2 */
    for (int i = 1; i < *W * *H; i++)
        if (rng_next(seed) & 1) chars[i] = chars[i - (i >= *W && (rng_next(seed) & 1) ? *W : 1)];
    static const char *const costs[] = { "1", "2", "3", "5", "9", "0.5", "0.25", "inf", "255" };
    snprintf(spec, n, ".=%s,G=%s,S=%s,T=%s,W=%s", costs[rng_next(seed) % 7],
             costs[rng_next(seed) % 9], costs[rng_next(seed) % 9], costs[rng_next(seed) % 9],
             costs[rng_next(seed) % 9]);
    cr_assert_eq(gb_grid_init(g, *W, *H), 0);
    gb_terrain t;
    char err[256];
    cr_assert_eq(gb_terrain_parse(spec, &t, err, sizeof err), 0, "%s: %s", spec, err);
    cr_assert_eq(gb_terrain_apply(&t, chars, g), 0);
    free(chars);
}

static const char *const extra[] = {
    "astar-zero", "astar-chebyshev", "wastar-euclidean:w=3", "gbfs-manhattan", "biastar-euclidean",
    "astar-diff:k=4", "biastar-diff:k=3", "wastar-diff:k=2:w=2", "astar-manhattan",
};

static const char *solver_at(size_t i)
{
    size_t nall = 0;
    while (gb_solver_all((int)nall)) nall++;
    if (i < nall) return gb_solver_all((int)i);
    i -= nall;
    return i < sizeof extra / sizeof extra[0] ? extra[i] : NULL;
}

GB_TEST(terrain, every_weighted_solver_and_queue_matches_dijkstra_on_random_grids)
{
    uint64_t seed = (uint64_t)env_long("GB_PROP_SEED", 28) * 2654435761u + 1;
    const long ngrids = env_long("GB_PROP_GRIDS", gb_test_full() ? 1200 : 120);
    long queries = 0, runs = 0;
    char err[256], spec[128];
    gb_solver_spec dsp;
    gb_solver_parse("dijkstra", &dsp, err, sizeof err);
    for (long gi = 0; gi < ngrids; gi++) {
        gb_grid g;
        int W, H;
        random_weighted(&g, &seed, &W, &H, spec, sizeof spec);
        gb_model m = gi % 3 == 2 ? GB_MODEL_4 : GB_MODEL_8_NOCUT;
        gb_ws *ws = gb_ws_new(&g, m);
        int64_t *da = malloc((size_t)g.ncells * sizeof *da), *db = malloc((size_t)g.ncells * sizeof *db);
        gb_xy *xy = malloc((size_t)g.ncells * sizeof *xy);
        for (int k = 0; k < 4; k++) {
            int32_t s = gb_grid_id(&g, (int32_t)(rng_next(&seed) % (uint64_t)W), (int32_t)(rng_next(&seed) % (uint64_t)H));
            int32_t t = gb_grid_id(&g, (int32_t)(rng_next(&seed) % (uint64_t)W), (int32_t)(rng_next(&seed) % (uint64_t)H));
            if (!g.pass[s] || !g.pass[t]) continue;
            queries++;
            bellman_ford(&g, m, s, da, db);
            gb_xy a = { gb_grid_x(&g, s), gb_grid_y(&g, s) }, b = { gb_grid_x(&g, t), gb_grid_y(&g, t) };
            const char *name;
            for (size_t i = 0; (name = solver_at(i)) != NULL; i++) {
                gb_solver_spec sp;
                cr_assert_eq(gb_solver_parse(name, &sp, err, sizeof err), 0, "%s", err);
                if (gb_solver_unsupported_w(&sp, m, 1, err, sizeof err)) continue;
                if (gb_solver_cost_model(&sp) == GB_COST_ANYANGLE) continue; /* test_aaterrain.c */
                double bound = 0;
                gb_guarantee gu = gb_solver_guarantee(&sp, m, &bound);
                int nq = gb_solver_uses_queue(&sp) ? GB_Q_COUNT : 1;
                for (int q = 0; q < nq; q++) {
                    gb_result r;
                    runs++;
                    cr_assert_eq(gb_solve(ws, &sp, (gb_queue_kind)q, s, t, &r), 0, "%s", name);
                    const char *qn = gb_queue_name((gb_queue_kind)q);
                    cr_assert_eq(r.status == GB_FOUND, da[t] >= 0, "grid %ld (%s, %s): %s/%s found=%d, "
                                 "Bellman-Ford %d", gi, spec, gb_model_name(m), name, qn,
                                 r.status == GB_FOUND, da[t] >= 0);
                    if (r.status != GB_FOUND) continue;
                    for (int32_t j = 0; j < r.path_len; j++)
                        xy[j] = (gb_xy){ gb_grid_x(&g, r.path[j]), gb_grid_y(&g, r.path[j]) };
                    gb_check c;
                    cr_assert(gb_validate_path(&g, m, a, b, xy, (size_t)r.path_len, r.cost, &c),
                              "grid %ld (%s): %s/%s: %s", gi, spec, name, qn, c.msg);
                    int cmp = gb_exact_cmp_ref(c.straight, c.diag, da[t], db[t]);
                    cr_assert_geq(cmp, 0, "grid %ld (%s): %s/%s below the optimum", gi, spec, name, qn);
                    if (gu == GB_GUAR_OPTIMAL)
                        cr_assert_eq(cmp, 0, "grid %ld (%s, %s): %s/%s cost %.9f, optimum %.9f", gi,
                                     spec, gb_model_name(m), name, qn, c.cost,
                                     gb_check_cost_scaled(da[t], db[t], g.cscale));
                    if (gu == GB_GUAR_BOUNDED)
                        cr_assert_leq(c.cost, bound * gb_check_cost_scaled(da[t], db[t], g.cscale)
                                      * (1 + 1e-12) + 1e-12, "grid %ld: %s/%s over its bound", gi,
                                      name, qn);
                }
            }
        }
        free(da);
        free(db);
        free(xy);
        gb_ws_free(ws);
        gb_grid_free(&g);
    }
    cr_log_info("terrain property: %ld grids, %ld queries, %ld solver x queue runs", ngrids, queries,
                runs);
    cr_expect_gt(queries, ngrids);
}

/* ---- D* Lite on weighted maps ------------------------------------------- */

/* D* Lite under terrain costs, on random weighted grids whose cells are
 * blocked and freed while the agent walks (a freed cell gets its own cost
 * back, or fill for a cell the map blocked, as `gridbench dynamic` does):
 * after every change each plan is valid, its (A, B) units are the
 * validator's, and equal Bellman-Ford's exact optimum from the agent and
 * Dijkstra's (gb_solve) on the map as it is then. */
GB_TEST(terrain, dstar_lite_matches_dijkstra_on_random_weighted_grids_that_change)
{
    uint64_t seed = (uint64_t)env_long("GB_PROP_SEED", 28) * 2654435761u + 11;
    const long ngrids = env_long("GB_PROP_GRIDS", gb_test_full() ? 1200 : 120);
    long plans = 0, flips = 0;
    char err[256], spec[128];
    gb_solver_spec dsp;
    cr_assert_eq(gb_solver_parse("dijkstra", &dsp, err, sizeof err), 0);
    for (long gi = 0; gi < ngrids; gi++) {
        gb_grid g;
        int W, H;
        random_weighted(&g, &seed, &W, &H, spec, sizeof spec);
        gb_model m = gi % 3 == 2 ? GB_MODEL_4 : GB_MODEL_8_NOCUT;
        /* the cost a blocked map cell gets when freed; 0: it stays blocked */
        uint16_t fill =
            (uint16_t)(rng_next(&seed) % 3 == 0 ? 0 : 1 + rng_next(&seed) % (2 * (uint64_t)g.qmax));
        if (fill && fill < g.qmin) g.qmin = fill;
        if (fill > g.qmax) g.qmax = fill;
        uint16_t *qfree = malloc((size_t)g.ncells * sizeof *qfree);
        for (int32_t i = 0; i < g.ncells; i++) {
            int32_t x = gb_grid_x(&g, i), y = gb_grid_y(&g, i);
            qfree[i] = x < 0 || y < 0 || x >= W || y >= H ? 0 : g.cost[i] ? g.cost[i] : fill;
        }
        gb_dstar *ds = gb_dstar_new(&g, m);
        gb_ws *ws = gb_ws_new(&g, m);
        cr_assert(ds && ws);
        int64_t *da = malloc((size_t)g.ncells * sizeof *da), *db = malloc((size_t)g.ncells * sizeof *db);
        gb_xy *xy = malloc((size_t)g.ncells * sizeof *xy);
        int32_t agent = gb_grid_id(&g, (int32_t)(rng_next(&seed) % (uint64_t)W),
                                   (int32_t)(rng_next(&seed) % (uint64_t)H));
        int32_t goal = gb_grid_id(&g, (int32_t)(rng_next(&seed) % (uint64_t)W),
                                  (int32_t)(rng_next(&seed) % (uint64_t)H));
        if (g.pass[agent] && g.pass[goal]) {
            gb_dstar_begin(ds, agent, goal);
            for (int round = 0; round < 24 && agent != goal; round++) {
                gb_dstar_plan dp;
                cr_assert_eq(gb_dstar_plan_path(ds, &dp), 0, "grid %ld (%s): extraction failed", gi,
                             spec);
                plans++;
                bellman_ford(&g, m, agent, da, db);
                gb_result r;
                cr_assert_eq(gb_solve(ws, &dsp, GB_Q_BHEAP, agent, goal, &r), 0);
                cr_assert_eq(dp.found, da[goal] >= 0,
                             "grid %ld (%s, %s) round %d: D* Lite found=%d, "
                             "Bellman-Ford %d",
                             gi, spec, gb_model_name(m), round, dp.found, da[goal] >= 0);
                cr_assert_eq(r.status == GB_FOUND, dp.found, "grid %ld: dijkstra disagrees", gi);
                if (!dp.found) break;
                gb_xy a = { gb_grid_x(&g, agent), gb_grid_y(&g, agent) };
                gb_xy b = { gb_grid_x(&g, goal), gb_grid_y(&g, goal) };
                for (int32_t j = 0; j < dp.path_len; j++)
                    xy[j] = (gb_xy){ gb_grid_x(&g, dp.path[j]), gb_grid_y(&g, dp.path[j]) };
                gb_check c, o;
                cr_assert(gb_validate_path(&g, m, a, b, xy, (size_t)dp.path_len, dp.cost, &c),
                          "grid %ld (%s) round %d: D* Lite path: %s", gi, spec, round, c.msg);
                cr_assert(c.straight == dp.straight && c.diag == dp.diag,
                          "grid %ld: D* Lite says "
                          "(%lld, %lld), the validator (%lld, %lld)",
                          gi, (long long)dp.straight, (long long)dp.diag, (long long)c.straight,
                          (long long)c.diag);
                cr_assert_eq(gb_exact_cmp_ref(c.straight, c.diag, da[goal], db[goal]), 0,
                             "grid %ld (%s, %s) round %d: D* Lite cost %.9f, optimum %.9f", gi, spec,
                             gb_model_name(m), round, c.cost,
                             gb_check_cost_scaled(da[goal], db[goal], g.cscale));
                for (int32_t j = 0; j < r.path_len; j++)
                    xy[j] = (gb_xy){ gb_grid_x(&g, r.path[j]), gb_grid_y(&g, r.path[j]) };
                cr_assert(gb_validate_path(&g, m, a, b, xy, (size_t)r.path_len, r.cost, &o), "%s",
                          o.msg);
                cr_assert_eq(gb_check_cmp(&c, &o), 0, "grid %ld: D* Lite %.9f, dijkstra %.9f", gi,
                             c.cost, o.cost);
                /* walk one or two steps of the plan, then block or free cells */
                int32_t steps = 1 + (int32_t)(rng_next(&seed) % 2);
                if (steps > dp.path_len - 1) steps = dp.path_len - 1;
                agent = dp.path[steps];
                gb_dstar_move(ds, agent);
                int nflip = 1 + (int)(rng_next(&seed) % 3);
                for (int f = 0; f < nflip; f++) {
                    int32_t id = gb_grid_id(&g, (int32_t)(rng_next(&seed) % (uint64_t)W),
                                            (int32_t)(rng_next(&seed) % (uint64_t)H));
                    if (id == agent || id == goal) continue;
                    if (gb_grid_set_cost(&g, id, g.pass[id] ? 0 : qfree[id]) != 1) continue;
                    flips++;
                    gb_dstar_cell_changed(ds, id);
                    gb_ws_cell_changed(ws, id);
                }
            }
        }
        free(da);
        free(db);
        free(xy);
        free(qfree);
        gb_dstar_free(ds);
        gb_ws_free(ws);
        gb_grid_free(&g);
    }
    cr_log_info("D* Lite terrain property: %ld grids, %ld plans, %ld cells changed", ngrids, plans,
                flips);
    cr_expect_gt(plans, ngrids);
    cr_expect_gt(flips, ngrids / 2);
}

GB_TEST(terrain, grid_set_cost_keeps_pass_and_cost_in_step)
{
    gb_grid g;
    const char *rows[] = { ".S@" };
    make_grid(&g, rows, 3, 1, "S=3");
    int32_t a = gb_grid_id(&g, 0, 0), b = gb_grid_id(&g, 1, 0), c = gb_grid_id(&g, 2, 0);
    cr_expect_eq(gb_grid_set(&g, a, 0), -1, "a weighted cell needs a cost: gb_grid_set refuses");
    cr_expect_eq(gb_grid_set_cost(&g, b, 0), 1);
    cr_expect_eq(g.pass[b], 0);
    cr_expect_eq(g.cost[b], 0);
    cr_expect_eq(g.npassable, 1);
    cr_expect_eq(gb_grid_set_cost(&g, b, 0), 0, "already blocked");
    cr_expect_eq(gb_grid_set_cost(&g, c, 3), 1);
    cr_expect_eq(g.npassable, 2);
    cr_expect_eq(gb_grid_set_cost(&g, c, 1), 1, "a cost change is a change");
    cr_expect_eq(gb_grid_set_cost(&g, a, 4), -1, "4 > qmax 3: the heuristics were not sized for it");
    cr_expect_eq(gb_grid_set_cost(&g, 0, 1), -1, "a border cell is not a map cell");
    gb_grid_free(&g);
    gb_grid u;
    cr_assert_eq(gb_grid_init(&u, 2, 2), 0);
    cr_expect_eq(gb_grid_set_cost(&u, gb_grid_id(&u, 0, 0), 1), -1, "a uniform grid has no costs");
    gb_grid_free(&u);
}

/* ---- the commands ------------------------------------------------------ */

static void make_tmpdir(char *buf, size_t n)
{
    snprintf(buf, n, "/tmp/gb-test-terrain-XXXXXX");
    cr_assert(mkdtemp(buf) != NULL, "mkdtemp: %s", strerror(errno));
}

GB_TEST(terrain, gen_terrain_is_reproducible_records_its_model_and_runs_clean)
{
    const char *bin = gb_test_bin();
    char d[64], out[8192];
    make_tmpdir(d, sizeof d);
    for (int i = 0; i < 2; i++)
        cr_assert_eq(gb_test_sh(out, sizeof out, "%s gen --family terrain --size 48x40 --percent 10 "
                                "--seed 5 --per-bucket 2 --out %s/%d", bin, d, i), 0, "%s", out);
    cr_expect_eq(gb_test_sh(out, sizeof out, "cd %s && cmp 0/terrain48x40-10-5.map 1/terrain48x40-10-5.map"
                            " && cmp 0/terrain48x40-10-5.map.scen 1/terrain48x40-10-5.map.scen && cmp "
                            "0/terrain48x40-10-5.map.scen.terrain 1/terrain48x40-10-5.map.scen.terrain",
                            d), 0, "not byte-reproducible: %s", out);
    /* the map has every patch letter, the side file the default model */
    cr_expect_eq(gb_test_sh(out, sizeof out, "cd %s/0 && for c in G S W T; do grep -q $c "
                            "terrain48x40-10-5.map || echo no $c; done; grep '^# terrain:' "
                            "terrain48x40-10-5.map.scen.terrain", d), 0, "%s", out);
    cr_expect(strstr(out, "# terrain:.=1;G=0.5;S=3;T=inf;W=5") != NULL, "%s", out);
    cr_expect(strstr(out, "no ") == NULL, "%s", out);
    /* under its own model every printed length is Dijkstra's */
    cr_assert_eq(gb_test_sh(out, sizeof out, "cd %s/0 && %s run -s dijkstra,astar-octile,bidijkstra "
                            "-q bheap,bucket --terrain-costs terrain48x40-10-5.map.scen.terrain "
                            "--quiet --out r.csv terrain48x40-10-5.map.scen", d, bin), 0, "%s", out);
    cr_expect(strstr(out, " 0 solver failures, 0 queries where the scenario's length disagrees") != NULL,
              "%s", out);
    cr_expect(strstr(out, "model 8-nocut+terrain:.=1;G=0.5;S=3;T=inf;W=5") != NULL, "%s", out);
    cr_expect_eq(gb_test_sh(out, sizeof out, "cut -d, -f9 %s/0/r.csv | sort -u", d), 0);
    cr_expect_str_eq(out, "8-nocut+terrain:.=1;G=0.5;S=3;T=inf;W=5\nmodel\n");
    /* under uniform costs run says the lengths are not its optima */
    gb_test_sh(out, sizeof out, "cd %s/0 && %s run --quiet --count 3 --no-oracle-cache "
               "terrain48x40-10-5.map.scen >/dev/null", d, bin);
    cr_expect(strstr(out, "was made under terrain:.=1;G=0.5;S=3;T=inf;W=5") != NULL, "%s", out);
    gb_test_sh(NULL, 0, "rm -rf %s", d);
}

GB_TEST(terrain, run_refuses_uniform_cost_solvers_and_all_leaves_them_out)
{
    const char *bin = gb_test_bin();
    char d[64], out[16384];
    make_tmpdir(d, sizeof d);
    cr_assert_eq(gb_test_sh(out, sizeof out, "%s gen --family terrain --size 24 --seed 1 "
                            "--per-bucket 1 --out %s", bin, d), 0, "%s", out);
    cr_expect_eq(gb_test_sh(out, sizeof out, "%s run -s jps --terrain-costs 'S=3' %s/terrain24-20-1.map.scen",
                            bin, d), 64);
    cr_expect(strstr(out, "gridbench run: solver 'jps' is defined for uniform costs only, not under a "
                     "terrain cost model (docs/terrain.md)") != NULL, "%s", out);
    cr_expect_eq(gb_test_sh(out, sizeof out, "%s run -s dijkstra -m 8-cut1 --terrain-costs 'S=3' "
                            "%s/terrain24-20-1.map.scen", bin, d), 64);
    cr_expect_eq(gb_test_sh(out, sizeof out, "%s run -s all --count 2 --quiet --terrain-costs "
                            "%s/terrain24-20-1.map.scen.terrain --out %s/all.csv "
                            "%s/terrain24-20-1.map.scen", bin, d, d, d), 0, "%s", out);
    const char *left[] = { "jps", "jps+", "sg", "sg-tl", "sg-tl-dt", "bfs" };
    for (size_t i = 0; i < sizeof left / sizeof left[0]; i++) {
        char want[96];
        snprintf(want, sizeof want, "--solver all leaves out %s under model 8-nocut+terrain:", left[i]);
        cr_expect(strstr(out, want) != NULL, "no note for %s: %s", left[i], out);
    }
    cr_expect(strstr(out, " 0 solver failures") != NULL, "%s", out);
    /* a costs file with a bad line names it */
    cr_expect_eq(gb_test_sh(out, sizeof out, "printf 'S 3\\nX 2\\n' > %s/bad.costs && %s run "
                            "--terrain-costs %s/bad.costs %s/terrain24-20-1.map.scen", d, bin, d, d), 65);
    cr_expect(strstr(out, "bad.costs:2: error: expected LETTER=COST with LETTER one of . G S T W, found 'X=2'")
              != NULL, "%s", out);
    gb_test_sh(NULL, 0, "rm -rf %s", d);
}

GB_TEST(terrain, heuristics_flags_unscaled_octile_and_passes_it_scaled)
{
    /* the verdict table is the test: on a map with a road cheaper than
     * ground, octile overestimates and octile x cmin does not */
    const char *bin = gb_test_bin();
    char d[64], out[8192];
    make_tmpdir(d, sizeof d);
    cr_assert_eq(gb_test_sh(out, sizeof out, "%s gen --family terrain --size 64 --percent 10 --seed 3 "
                            "--per-bucket 1 --out %s", bin, d), 0, "%s", out);
    cr_assert_eq(gb_test_sh(out, sizeof out, "%s heuristics --quiet --terrain-costs '.=1,G=0.5,S=3,W=5' "
                            "--heuristic octile,diff:k=4 --goals 4 --verdicts %s/v.csv %s/terrain64-10-3.map "
                            ">/dev/null && cut -d, -f3,4,6,12 %s/v.csv", bin, d, d, d), 0, "%s", out);
    cr_expect(strstr(out, "octile,1,neither,no claim (w > cmin)\n") != NULL, "%s", out);
    cr_expect(strstr(out, "octile,0.5,admissible+consistent,agrees\n") != NULL, "%s", out);
    cr_expect(strstr(out, "diff:k=4,1,admissible+consistent,agrees\n") != NULL, "%s", out);
    gb_test_sh(NULL, 0, "rm -rf %s", d);
}

GB_TEST(terrain, dynamic_replays_d_star_lite_under_terrain_costs)
{
    /* every plan of D* Lite and the baseline is checked against Dijkstra
     * under the model; the rows record it; what cannot run is refused */
    const char *bin = gb_test_bin();
    char d[64], out[8192];
    make_tmpdir(d, sizeof d);
    cr_assert_eq(
        gb_test_sh(out, sizeof out,
                   "cd %s && %s gen --family terrain --size 48 --percent 10 "
                   "--seed 4 --per-bucket 1 --out . && %s gen --dynamic --map terrain48-10-4.map "
                   "--queries 12 --seed 2 --out t.dscen",
                   d, bin, bin),
        0, "%s", out);
    cr_assert_eq(gb_test_sh(out, sizeof out,
                            "cd %s && %s dynamic --quiet --terrain-costs "
                            "'G=0.5,S=3,W=5,T=8' --out t.csv t.dscen && cut -d, -f5,12 t.csv | sort | "
                            "uniq -c",
                            d, bin),
                 0, "%s", out);
    cr_expect(strstr(out, "8-nocut+terrain:.=1;G=0.5;S=3;T=8;W=5,arrived") != NULL, "%s", out);
    cr_expect(strstr(out, "wrong") == NULL, "%s", out);
    /* the costs file of the scenario works the same, under model 4 too */
    cr_assert_eq(gb_test_sh(out, sizeof out,
                            "cd %s && %s dynamic --quiet --model 4 --terrain-costs "
                            "terrain48-10-4.map.scen.terrain --astar bidijkstra --out t4.csv t.dscen && "
                            "cut -d, -f5,12 t4.csv | sort -u",
                            d, bin),
                 0, "%s", out);
    cr_expect(strstr(out, "4+terrain:.=1;G=0.5;S=3;T=inf;W=5,arrived") != NULL, "%s", out);
    cr_expect(strstr(out, "wrong") == NULL, "%s", out);
    cr_expect_eq(gb_test_sh(out, sizeof out,
                            "cd %s && %s dynamic --terrain-costs S=3 -a jps --out x.csv "
                            "t.dscen",
                            d, bin),
                 64);
    cr_expect(strstr(out, "--astar: expected an optimal solver that runs under model "
                          "8-nocut+terrain:.=1;G=1;S=3;T=inf;W=inf, found 'jps'")
                  != NULL,
              "%s", out);
    cr_expect_eq(gb_test_sh(out, sizeof out,
                            "cd %s && %s dynamic --terrain-costs S=3 -m 8-cut1 --out "
                            "x.csv t.dscen",
                            d, bin),
                 64);
    cr_expect(strstr(out, "--terrain-costs: expected model 8-nocut or 4, found 8-cut1") != NULL, "%s",
              out);
    cr_expect_eq(gb_test_sh(out, sizeof out,
                            "cd %s && %s dynamic --terrain-costs S=3 --trace x.tr --out "
                            "x.csv t.dscen",
                            d, bin),
                 64);
    cr_expect(strstr(out, "--trace: expected no --terrain-costs") != NULL, "%s", out);
    cr_expect_eq(gb_test_sh(out, sizeof out,
                            "cd %s && %s dynamic --terrain-costs X=3 --out x.csv t.dscen", d, bin),
                 64);
    cr_expect(strstr(out, "expected LETTER=COST with LETTER one of . G S T W, found 'X=3'") != NULL,
              "%s", out);
    /* the option is in --help */
    cr_expect_eq(gb_test_sh(out, sizeof out, "%s dynamic --help | grep -c -- --terrain-costs", bin), 0);
    gb_test_sh(NULL, 0, "rm -rf %s", d);
}

/* ---- the water rule (8-nocut-water) -------------------------------------- */

/* A grid of letters rows under model 8-nocut-water: the map's own
 * passability (. G S), then gb_grid_water(). */
static void make_water_grid(gb_grid *g, const char *const *rows, int w, int h)
{
    cr_assert_eq(gb_grid_init(g, w, h), 0);
    char *chars = malloc((size_t)(w * h));
    for (int y = 0; y < h; y++) memcpy(chars + y * w, rows[y], (size_t)w);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            char c = chars[y * w + x];
            g->pass[gb_grid_id(g, x, y)] = c == '.' || c == 'G' || c == 'S';
        }
    gb_grid_recount(g);
    cr_assert_eq(gb_grid_water(g, chars), 0);
    free(chars);
}

/* The rule from its definition (HOG2's Map::CanStep with the successor
 * rule of MapEnvironment): both cells passable and of one class, and for
 * a diagonal both corners too.  Written from the letters' classes in
 * water[], not from gb_grid_moves(). */
static int water_step_ok(const gb_grid *g, int32_t x, int32_t y, int dx, int dy)
{
    if (!gb_grid_passable_xy(g, x, y) || !gb_grid_passable_xy(g, x + dx, y + dy)) return 0;
    const int c = g->water[gb_grid_id(g, x, y)];
    if (g->water[gb_grid_id(g, x + dx, y + dy)] != c) return 0;
    if (dx && dy) {
        if (!gb_grid_passable_xy(g, x + dx, y) || !gb_grid_passable_xy(g, x, y + dy)) return 0;
        if (g->water[gb_grid_id(g, x + dx, y)] != c || g->water[gb_grid_id(g, x, y + dy)] != c) return 0;
    }
    return 1;
}

/* Exact optimum by Bellman-Ford over (straight, diagonal) step counts
 * under the water rule; da/db -1 where unreached. */
static void water_bellman_ford(const gb_grid *g, int32_t s, int64_t *da, int64_t *db)
{
    for (int32_t i = 0; i < g->ncells; i++) da[i] = db[i] = -1;
    da[s] = db[s] = 0;
    for (int changed = 1; changed;) {
        changed = 0;
        for (int32_t y = 0; y < g->height; y++)
            for (int32_t x = 0; x < g->width; x++) {
                int32_t id = gb_grid_id(g, x, y);
                if (da[id] < 0) continue;
                for (int dy = -1; dy <= 1; dy++)
                    for (int dx = -1; dx <= 1; dx++) {
                        if ((!dx && !dy) || !water_step_ok(g, x, y, dx, dy)) continue;
                        int32_t nb = gb_grid_id(g, x + dx, y + dy);
                        int64_t a = da[id] + (dx && dy ? 0 : 1), b = db[id] + (dx && dy ? 1 : 0);
                        if (da[nb] < 0 || gb_exact_cmp_ref(a, b, da[nb], db[nb]) < 0) {
                            da[nb] = a;
                            db[nb] = b;
                            changed = 1;
                        }
                    }
            }
    }
}

GB_TEST(terrain, water_is_entered_from_water_only)
{
    /* a lake W in ground; the ground path must go round it, a swim
     * stays in it; T and @ stay blocked */
    const char *rows[] = {
        "......", ".WWW..", ".WWWT.", ".W@W..", "......",
    };
    gb_grid g;
    make_water_grid(&g, rows, 6, 5);
    cr_expect_eq(g.npassable, 30 - 2, "W passable, T and @ blocked");
    uint8_t *mv = malloc((size_t)g.ncells);
    gb_grid_moves(&g, GB_MODEL_8_NOCUT_WATER, mv);
    int32_t w11 = gb_grid_id(&g, 1, 1), g01 = gb_grid_id(&g, 0, 1), w21 = gb_grid_id(&g, 2, 1);
    cr_expect_eq(mv[g01] & (1u << GB_DIR_E), 0, "ground -> water is illegal");
    cr_expect_eq(mv[w11] & (1u << GB_DIR_W), 0, "water -> ground is illegal");
    cr_expect_neq(mv[w11] & (1u << GB_DIR_E), 0, "water -> water is legal");
    cr_expect_neq(mv[w11] & (1u << GB_DIR_SE), 0, "a diagonal with water corners is legal");
    cr_expect_eq(mv[w21] & (1u << GB_DIR_NE), 0, "a diagonal leaving the lake is illegal");
    /* every mask agrees with the rule's definition */
    for (int32_t y = 0; y < 5; y++)
        for (int32_t x = 0; x < 6; x++)
            for (int k = 0; k < 8; k++) {
                int32_t id = gb_grid_id(&g, x, y);
                int want = water_step_ok(&g, x, y, gb_dir_dx[k], gb_dir_dy[k]);
                cr_expect_eq(!!(mv[id] & (1u << k)), want, "(%d,%d) dir %d", x, y, k);
            }
    free(mv);
    /* a swim across the lake, and the ground path round it */
    char err[256];
    gb_solver_spec sp;
    gb_solver_parse("dijkstra", &sp, err, sizeof err);
    gb_ws *ws = gb_ws_new(&g, GB_MODEL_8_NOCUT_WATER);
    gb_result r;
    cr_assert_eq(gb_solve(ws, &sp, GB_Q_BHEAP, w11, gb_grid_id(&g, 3, 3), &r), 0);
    cr_expect_eq(r.status, GB_FOUND);
    cr_expect_eq(r.cost, 2.0 + GB_SQRT2,
                 "(1,1) -> (2,2) -> (3,2) -> (3,3) in water: the @ at "
                 "(2,3) forbids the second diagonal");
    cr_assert_eq(gb_solve(ws, &sp, GB_Q_BHEAP, w11, gb_grid_id(&g, 0, 0), &r), 0);
    cr_expect_eq(r.status, GB_UNREACHABLE, "no way out of the lake");
    gb_ws_free(ws);
    /* the validator: a step from ground into the lake is refused */
    gb_xy p[] = { { 0, 1 }, { 1, 1 } };
    gb_check c;
    cr_expect_not(gb_validate_path(&g, GB_MODEL_8_NOCUT_WATER, p[0], p[1], p, 2, 1.0, &c));
    cr_expect_str_eq(c.msg,
                     "step 0: expected a move within one terrain class under model "
                     "8-nocut-water, found a step from ground (0,1) -> (1,1) touching water at (1,1)");
    gb_xy q[] = { { 2, 1 }, { 3, 0 } };
    cr_expect_not(gb_validate_path(&g, GB_MODEL_8_NOCUT_WATER, q[0], q[1], q, 2, GB_SQRT2, &c));
    cr_expect(strstr(c.msg, "found a step from water (2,1) -> (3,0) touching ground at (3,0)") != NULL,
              "%s", c.msg);
    gb_xy s[] = { { 1, 1 }, { 2, 2 } };
    cr_expect(gb_validate_path(&g, GB_MODEL_8_NOCUT_WATER, s[0], s[1], s, 2, GB_SQRT2, &c), "%s", c.msg);
    gb_grid_free(&g);
}

GB_TEST(terrain, water_rule_solvers_match_an_independent_oracle_on_random_grids)
{
    uint64_t seed = (uint64_t)env_long("GB_PROP_SEED", 28) * 2654435761u + 29;
    const long ngrids = env_long("GB_PROP_GRIDS", gb_test_full() ? 1200 : 120);
    const gb_model m = GB_MODEL_8_NOCUT_WATER;
    long queries = 0, runs = 0, swims = 0;
    char err[256];
    for (long gi = 0; gi < ngrids; gi++) {
        int W = 3 + (int)(rng_next(&seed) % 14), H = 3 + (int)(rng_next(&seed) % 14);
        char *chars = malloc((size_t)(W * H));
        static const char lt[] = ".GSTW@WW";
        for (int i = 0; i < W * H; i++) chars[i] = lt[rng_next(&seed) % 8];
        for (int i = 1; i < W * H; i++) /* lakes and shores */
            if (rng_next(&seed) & 1) chars[i] = chars[i - (i >= W && (rng_next(&seed) & 1) ? W : 1)];
        gb_grid g;
        cr_assert_eq(gb_grid_init(&g, W, H), 0);
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                char c = chars[y * W + x];
                g.pass[gb_grid_id(&g, x, y)] = c == '.' || c == 'G' || c == 'S';
            }
        gb_grid_recount(&g);
        cr_assert_eq(gb_grid_water(&g, chars), 0);
        gb_ws *ws = gb_ws_new(&g, m);
        int64_t *da = malloc((size_t)g.ncells * sizeof *da), *db = malloc((size_t)g.ncells * sizeof *db);
        gb_xy *xy = malloc((size_t)g.ncells * sizeof *xy);
        for (int k = 0; k < 4; k++) {
            int32_t s = gb_grid_id(&g, (int32_t)(rng_next(&seed) % (uint64_t)W),
                                   (int32_t)(rng_next(&seed) % (uint64_t)H));
            int32_t t = gb_grid_id(&g, (int32_t)(rng_next(&seed) % (uint64_t)W),
                                   (int32_t)(rng_next(&seed) % (uint64_t)H));
            if (!g.pass[s] || !g.pass[t]) continue;
            queries++;
            if (g.water[s]) swims++;
            water_bellman_ford(&g, s, da, db);
            gb_xy a = { gb_grid_x(&g, s), gb_grid_y(&g, s) }, b = { gb_grid_x(&g, t), gb_grid_y(&g, t) };
            const char *name;
            for (size_t i = 0; (name = solver_at(i)) != NULL; i++) {
                gb_solver_spec sp;
                cr_assert_eq(gb_solver_parse(name, &sp, err, sizeof err), 0, "%s", err);
                if (gb_solver_unsupported(&sp, m, err, sizeof err)) continue;
                double bound = 0;
                gb_guarantee gu = gb_solver_guarantee(&sp, m, &bound);
                int nq = gb_solver_uses_queue(&sp) ? GB_Q_COUNT : 1;
                for (int q = 0; q < nq; q++) {
                    gb_result r;
                    runs++;
                    cr_assert_eq(gb_solve(ws, &sp, (gb_queue_kind)q, s, t, &r), 0, "%s", name);
                    const char *qn = gb_queue_name((gb_queue_kind)q);
                    cr_assert_eq(r.status == GB_FOUND, da[t] >= 0, "grid %ld: %s/%s found=%d, oracle %d",
                                 gi, name, qn, r.status == GB_FOUND, da[t] >= 0);
                    if (r.status != GB_FOUND) continue;
                    for (int32_t j = 0; j < r.path_len; j++)
                        xy[j] = (gb_xy){ gb_grid_x(&g, r.path[j]), gb_grid_y(&g, r.path[j]) };
                    gb_check c;
                    cr_assert(gb_validate_path(&g, m, a, b, xy, (size_t)r.path_len, r.cost, &c),
                              "grid %ld: %s/%s: %s", gi, name, qn, c.msg);
                    int cmp = gb_exact_cmp_ref(c.straight, c.diag, da[t], db[t]);
                    cr_assert_geq(cmp, 0, "grid %ld: %s/%s below the optimum", gi, name, qn);
                    if (gu == GB_GUAR_OPTIMAL)
                        cr_assert_eq(cmp, 0, "grid %ld: %s/%s cost %.9f, optimum %.9f", gi, name, qn,
                                     c.cost, gb_check_cost(da[t], db[t]));
                    if (gu == GB_GUAR_BOUNDED)
                        cr_assert_leq(c.cost, bound * gb_check_cost(da[t], db[t]) * (1 + 1e-12) + 1e-12,
                                      "grid %ld: %s/%s over its bound", gi, name, qn);
                }
            }
        }
        free(chars);
        free(da);
        free(db);
        free(xy);
        gb_ws_free(ws);
        gb_grid_free(&g);
    }
    cr_log_info("water property: %ld grids, %ld queries (%ld from water), %ld runs", ngrids, queries,
                swims, runs);
    cr_expect_gt(swims, ngrids / 10, "queries that start in water");
}

GB_TEST(terrain, water_rule_on_the_wc3_map)
{
    /* divideandconquer (Warcraft III) has lakes: swims between W cells,
     * and ground queries whose optima are 8-nocut's (ground never
     * reaches water) */
    const char *sh = getenv("GB_SHARED");
    char path[4096];
    snprintf(path, sizeof path, "%s/wc3/divideandconquer.map", sh && *sh ? sh : "../shared/movingai");
    gb_map mp, mu;
    gb_diag d;
    if (gb_map_load(path, &mp, &d) != 0) cr_skip_test("%s not found", path);
    cr_assert_eq(gb_map_load(path, &mu, &d), 0);
    int nw = 0;
    for (int32_t i = 0; i < mp.grid.width * mp.grid.height; i++) nw += mp.terrain[i] == 'W';
    cr_assert_gt(nw, 1000, "the map has lakes");
    cr_assert_eq(gb_grid_water(&mp.grid, mp.terrain), 0);
    cr_expect_eq(mp.grid.npassable, mu.grid.npassable + nw);
    const gb_grid *g = &mp.grid;
    gb_ws *ws = gb_ws_new(g, GB_MODEL_8_NOCUT_WATER), *wu = gb_ws_new(&mu.grid, GB_MODEL_8_NOCUT);
    gb_xy *xy = malloc((size_t)g->ncells * sizeof *xy);
    static const char *const names[] = { "dijkstra", "astar-octile", "bidijkstra" };
    gb_solver_spec sp[3], dsp;
    char err[256];
    for (int i = 0; i < 3; i++) gb_solver_parse(names[i], &sp[i], err, sizeof err);
    gb_solver_parse("dijkstra", &dsp, err, sizeof err);
    uint64_t seed = 99;
    int swims = 0, walks = 0;
    /* the W cells, to draw swims from (1.75 % of the map) */
    int32_t *wc = malloc((size_t)nw * sizeof *wc), nwc = 0;
    for (int32_t id = 0; id < g->ncells; id++)
        if (g->water[id]) wc[nwc++] = id;
    cr_assert_eq(nwc, nw);
    for (int tries = 0; tries < 4000 && (swims < 20 || walks < 20); tries++) {
        int32_t s, t;
        if (tries & 1) {
            s = wc[rng_next(&seed) % (uint64_t)nwc];
            t = wc[rng_next(&seed) % (uint64_t)nwc];
        } else {
            s = gb_grid_id(g, (int32_t)(rng_next(&seed) % 512), (int32_t)(rng_next(&seed) % 512));
            t = gb_grid_id(g, (int32_t)(rng_next(&seed) % 512), (int32_t)(rng_next(&seed) % 512));
        }
        if (!g->pass[s] || !g->pass[t] || g->water[s] != g->water[t]) continue;
        if (g->water[s] ? swims >= 20 : walks >= 20) continue;
        gb_xy a = { gb_grid_x(g, s), gb_grid_y(g, s) }, b = { gb_grid_x(g, t), gb_grid_y(g, t) };
        gb_check c0;
        int found0 = -1;
        for (int i = 0; i < 3; i++) {
            gb_result r;
            cr_assert_eq(gb_solve(ws, &sp[i], GB_Q_BHEAP, s, t, &r), 0);
            if (found0 < 0) found0 = r.status == GB_FOUND;
            cr_assert_eq(r.status == GB_FOUND, found0, "%s disagrees on (%d,%d)->(%d,%d)", names[i], a.x,
                         a.y, b.x, b.y);
            if (r.status != GB_FOUND) continue;
            for (int32_t j = 0; j < r.path_len; j++)
                xy[j] = (gb_xy){ gb_grid_x(g, r.path[j]), gb_grid_y(g, r.path[j]) };
            gb_check c;
            cr_assert(
                gb_validate_path(g, GB_MODEL_8_NOCUT_WATER, a, b, xy, (size_t)r.path_len, r.cost, &c),
                "%s (%d,%d)->(%d,%d): %s", names[i], a.x, a.y, b.x, b.y, c.msg);
            for (int32_t j = 0; j < r.path_len; j++)
                cr_assert_eq(g->water[r.path[j]], g->water[s], "%s leaves its class", names[i]);
            if (i == 0) c0 = c;
            else
                cr_assert_eq(gb_check_cmp(&c, &c0), 0, "%s: %.9f, dijkstra %.9f", names[i], c.cost,
                             c0.cost);
        }
        if (!found0) continue;
        if (g->water[s]) {
            swims++;
        } else { /* on ground the water rule is 8-nocut */
            gb_result u;
            cr_assert_eq(gb_solve(wu, &dsp, GB_Q_BHEAP, s, t, &u), 0);
            cr_assert_eq(u.status, GB_FOUND);
            cr_expect_eq(u.cost, c0.cost, "ground query (%d,%d)->(%d,%d)", a.x, a.y, b.x, b.y);
            walks++;
        }
    }
    cr_expect_geq(swims, 20, "queries across the lakes");
    cr_expect_geq(walks, 20);
    free(wc);
    free(xy);
    gb_ws_free(ws);
    gb_ws_free(wu);
    gb_map_free(&mp);
    gb_map_free(&mu);
}

GB_TEST(terrain, run_takes_the_water_model_and_records_it)
{
    const char *bin = gb_test_bin();
    char d[64], out[8192];
    make_tmpdir(d, sizeof d);
    /* a lake with a scenario query inside it and one on the shore */
    cr_assert_eq(gb_test_sh(out, sizeof out,
                            "cd %s && printf 'type octile\\nheight 4\\nwidth 6\\nmap\\n"
                            "......\\n.WWWW.\\n.WW@W.\\n......\\n' > l.map && printf 'version 1\\n"
                            "0\\tl.map\\t6\\t4\\t1\\t1\\t4\\t2\\t4.00000000\\n"
                            "0\\tl.map\\t6\\t4\\t0\\t0\\t5\\t3\\t8.00000000\\n' > l.map.scen",
                            d),
                 0, "%s", out);
    cr_assert_eq(
        gb_test_sh(out, sizeof out,
                   "cd %s && %s run -s dijkstra,astar-octile,bidijkstra -q "
                   "bheap,bucket -m 8-nocut-water --quiet --out r.csv l.map.scen && cut -d, -f3,9,14 "
                   "r.csv | sort -u",
                   d, bin),
        0, "%s", out);
    cr_expect(strstr(out, "2,8-nocut-water,ok\n") != NULL, "the swim: %s", out);
    cr_expect(strstr(out, "3,8-nocut-water,ok\n") != NULL, "the walk round the lake: %s", out);
    cr_expect(strstr(out, "wrong") == NULL && strstr(out, "invalid") == NULL, "%s", out);
    /* under the default model the swim has no path */
    cr_expect_eq(gb_test_sh(out, sizeof out,
                            "cd %s && %s run -s dijkstra -q bheap --quiet --out u.csv "
                            "l.map.scen; cut -d, -f3,14 u.csv",
                            d, bin),
                 0, "%s", out);
    cr_expect(strstr(out, "2,ok") == NULL, "W is blocked under 8-nocut: %s", out);
    /* refusals: solvers that read passability alone, terrain costs, other commands */
    cr_expect_eq(gb_test_sh(out, sizeof out,
                            "cd %s && %s run -s jps -m 8-nocut-water --out x.csv "
                            "l.map.scen",
                            d, bin),
                 64);
    cr_expect(strstr(out, "solver 'jps' supports model 8-nocut only, not 8-nocut-water") != NULL, "%s",
              out);
    cr_expect_eq(gb_test_sh(out, sizeof out,
                            "cd %s && %s run -s dijkstra -m 8-nocut-water "
                            "--terrain-costs S=3 --out x.csv l.map.scen",
                            d, bin),
                 64);
    cr_expect(strstr(out, "terrain costs need model 8-nocut or 4, not 8-nocut-water") != NULL, "%s",
              out);
    cr_expect_eq(
        gb_test_sh(out, sizeof out, "cd %s && %s gen --map l.map -m 8-nocut-water --out g", d, bin), 64);
    cr_expect(strstr(out, "found 8-nocut-water (the water rule is a model of gridbench run and dynamic)")
                  != NULL,
              "%s", out);
    gb_test_sh(NULL, 0, "rm -rf %s", d);
}
