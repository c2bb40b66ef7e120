/*
 * test_aaterrain.c -- Theta* on weighted maps (solvers/gb_theta.c under a
 * terrain model) and its proof (harness/check/gb_aaterrain.h): the
 * line-integral segment cost by the solver's walk (gb_los_cost) against
 * the validator's cut-sort-lookup on hand-made and random segments; the
 * line-integral grid optimum d_L against a Bellman-Ford written here;
 * Theta* on random weighted grids on every queue (valid, cmin x the line
 * <= cost <= d_L, found exactly when d_L is); a grid where path 2 must
 * not be taken unconditionally; and `gridbench run -s theta
 * --terrain-costs` end to end with its refusals.
 */
#include "gb_test.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gb_aaterrain.h"
#include "gb_anyangle.h"
#include "gb_exact.h"
#include "gb_grid.h"
#include "gb_los.h"
#include "gb_search.h"
#include "gb_terrain.h"
#include "gb_validate.h"

#define XY(a, b) ((gb_xy){ (a), (b) })

static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static long env_long(const char *name, long def)
{
    const char *v = getenv(name);
    return v && *v ? strtol(v, NULL, 10) : def;
}

/* A grid from rows of terrain letters under the costs spec. */
static void make_grid(gb_grid *g, const char *const *rows, int h, const char *spec)
{
    const int w = (int)strlen(rows[0]);
    cr_assert_eq(gb_grid_init(g, w, h), 0);
    char *chars = malloc((size_t)(w * h));
    for (int y = 0; y < h; y++) memcpy(chars + y * w, rows[y], (size_t)w);
    gb_terrain t;
    char err[256];
    cr_assert_eq(gb_terrain_parse(spec, &t, err, sizeof err), 0, "%s: %s", spec, err);
    cr_assert_eq(gb_terrain_apply(&t, chars, g), 0);
    free(chars);
}

/* A random weighted grid, W x H in [3, 3 + span), patches of letters
 * under random costs (blocked letters with probability ~ 1/4 each). */
static void random_weighted(gb_grid *g, uint64_t *seed, int span, char *spec, size_t n)
{
    const int W = 3 + (int)(rng_next(seed) % (uint64_t)span),
              H = 3 + (int)(rng_next(seed) % (uint64_t)span);
    char *chars = malloc((size_t)(W * H));
    static const char lt[] = ".GSTW@";
    for (int i = 0; i < W * H; i++) chars[i] = lt[rng_next(seed) % 6];
    for (int i = 1; i < W * H; i++)
        if (rng_next(seed) & 1) chars[i] = chars[i - (i >= W && (rng_next(seed) & 1) ? W : 1)];
    static const char *const costs[] = { "1", "2", "3", "5", "9", "0.5", "0.25", "inf", "255" };
    snprintf(spec, n, ".=%s,G=%s,S=%s,T=%s,W=%s", costs[rng_next(seed) % 7], costs[rng_next(seed) % 9],
             costs[rng_next(seed) % 9], costs[rng_next(seed) % 9], costs[rng_next(seed) % 9]);
    cr_assert_eq(gb_grid_init(g, W, H), 0);
    gb_terrain t;
    char err[256];
    cr_assert_eq(gb_terrain_parse(spec, &t, err, sizeof err), 0, "%s: %s", spec, err);
    cr_assert_eq(gb_terrain_apply(&t, chars, g), 0);
    free(chars);
}

static double cellc(const gb_grid *g, int x, int y)
{
    return (double)g->cost[gb_grid_id(g, x, y)] / ((double)g->cscale / 4.0);
}

/* The solver's cost of a -> b (gb_los_cost), -1 without line of sight. */
static double walk_cost(const gb_grid *g, gb_xy a, gb_xy b)
{
    double c = 0.0;
    return gb_los_cost(g, gb_grid_id(g, a.x, a.y), gb_grid_id(g, b.x, b.y), NULL, &c) ? c : -1.0;
}

static double cut_cost(const gb_grid *g, gb_xy a, gb_xy b)
{
    double c = 0.0;
    cr_assert_eq(gb_aaterrain_segment(g, a, b, &c, NULL), 0);
    return c;
}

/* ---- segments ----------------------------------------------------------- */

GB_TEST(aaterrain, segment_cost_is_the_line_integral_on_hand_made_grids)
{
    static const char *const rows[] = { ".GS", "TW.", "S.G" };
    gb_grid g;
    make_grid(&g, rows, 3, ".=1,G=0.5,S=3,T=7,W=5");
    const double r2 = sqrt(2.0), r5 = sqrt(5.0);
    /* straight: half in each cell; diagonal: half in each end cell, the
     * corner cells met in one point */
    const struct {
        gb_xy a, b;
        double want;
    } cs[] = {
        { XY(0, 0), XY(1, 0), (1 + 0.5) / 2 },
        { XY(0, 0), XY(2, 0), 0.5 * 1 + 0.5 + 0.5 * 3 },
        { XY(0, 0), XY(1, 1), r2 * (1 + 5) / 2 },
        { XY(0, 0), XY(2, 2), r2 * (0.5 * 1 + 5 + 0.5 * 0.5) },
        /* (0,0)-(2,1): x = 1 at t = 1/4, y = 1 at 1/2, x = 2 at 3/4 */
        { XY(0, 0), XY(2, 1), r5 * (1 + 0.5 + 5 + 1) / 4 },
        { XY(2, 1), XY(0, 0), r5 * (1 + 0.5 + 5 + 1) / 4 },
        { XY(0, 2), XY(1, 0), r5 * (3 + 7 + 5 + 0.5) / 4 },
    };
    for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
        const double w = walk_cost(&g, cs[i].a, cs[i].b), c = cut_cost(&g, cs[i].a, cs[i].b);
        cr_expect(fabs(w - cs[i].want) < 1e-12, "case %zu: walk %.15g, want %.15g", i, w, cs[i].want);
        cr_expect(fabs(c - cs[i].want) < 1e-12, "case %zu: cut %.15g, want %.15g", i, c, cs[i].want);
    }
    (void)cellc;
    gb_grid_free(&g);
}

GB_TEST(aaterrain, walk_and_cut_agree_on_random_segments)
{
    uint64_t seed = 0x5eedULL;
    char spec[128];
    const long ngrids = GB_TEST_PICK(2000, 300, 40);
    long compared = 0;
    for (long gi = 0; gi < ngrids; gi++) {
        gb_grid g;
        random_weighted(&g, &seed, gi % 4 == 0 ? 60 : 14, spec, sizeof spec);
        for (int k = 0; k < 40; k++) {
            const gb_xy a = XY((int32_t)(rng_next(&seed) % (uint64_t)g.width),
                               (int32_t)(rng_next(&seed) % (uint64_t)g.height));
            const gb_xy b = XY((int32_t)(rng_next(&seed) % (uint64_t)g.width),
                               (int32_t)(rng_next(&seed) % (uint64_t)g.height));
            if (a.x == b.x && a.y == b.y) continue;
            const double w = walk_cost(&g, a, b);
            const int sees = gb_anyangle_sight(&g, a, b, NULL);
            cr_assert_eq(w >= 0, sees, "grid %ld (%s): (%d,%d)-(%d,%d): walk sight %d, validator %d", gi,
                         spec, a.x, a.y, b.x, b.y, w >= 0, sees);
            if (!sees) continue;
            double c;
            int64_t p;
            cr_assert_eq(gb_aaterrain_segment(&g, a, b, &c, &p), 0);
            const double tol = 8.0 * (double)(p + 2) * 2.220446049250313e-16 * ((double)g.qmax / g.qmin)
                               * (c > 1 ? c : 1);
            cr_assert(fabs(w - c) <= tol, "grid %ld (%s): (%d,%d)-(%d,%d): walk %.17g, cut %.17g", gi,
                      spec, a.x, a.y, b.x, b.y, w, c);
            cr_assert(fabs(walk_cost(&g, b, a) - c) <= tol, "grid %ld: not symmetric", gi);
            cr_assert_geq(c, gb_aaterrain_cmin(&g) * gb_anyangle_dist(a, b) * (1 - 1e-12));
            compared++;
        }
        gb_grid_free(&g);
    }
    cr_log_info("aaterrain segments: %ld compared", compared);
    cr_expect_gt(compared, ngrids);
}

/* ---- the line-integral grid optimum -------------------------------------- */

/* d_L by Bellman-Ford over exact (A, B), from the rule alone: da/db per
 * cell, -1 unreached. */
static void bellman_ford_li(const gb_grid *g, int32_t s, int64_t *da, int64_t *db)
{
    for (int32_t i = 0; i < g->ncells; i++) da[i] = db[i] = -1;
    da[s] = db[s] = 0;
    for (int changed = 1; changed;) {
        changed = 0;
        for (int32_t y = 0; y < g->height; y++)
            for (int32_t x = 0; x < g->width; x++) {
                const int32_t id = gb_grid_id(g, x, y);
                if (da[id] < 0) continue;
                for (int dy = -1; dy <= 1; dy++)
                    for (int dx = -1; dx <= 1; dx++) {
                        if ((!dx && !dy) || !gb_grid_passable_xy(g, x + dx, y + dy)) continue;
                        if (dx && dy
                            && (!gb_grid_passable_xy(g, x + dx, y)
                                || !gb_grid_passable_xy(g, x, y + dy)))
                            continue;
                        const int32_t nb = gb_grid_id(g, x + dx, y + dy);
                        const int64_t w = (int64_t)g->cost[id] + g->cost[nb];
                        const int64_t a = da[id] + (dx && dy ? 0 : w), b = db[id] + (dx && dy ? w : 0);
                        if (da[nb] < 0 || gb_exact_cmp_ref(a, b, da[nb], db[nb]) < 0) {
                            da[nb] = a;
                            db[nb] = b;
                            changed = 1;
                        }
                    }
            }
    }
}

/* ---- Theta* ------------------------------------------------------------- */

GB_TEST(aaterrain, theta_on_random_weighted_grids_every_queue)
{
    uint64_t seed = (uint64_t)env_long("GB_PROP_SEED", 91) * 2654435761u + 1;
    const long ngrids = env_long("GB_PROP_GRIDS", GB_TEST_PICK(3000, 400, 60));
    char err[256], spec[128];
    gb_solver_spec sp;
    cr_assert_eq(gb_solver_parse("theta", &sp, err, sizeof err), 0, "%s", err);
    long queries = 0, runs = 0, below = 0;
    double worst = 0.0;
    for (long gi = 0; gi < ngrids; gi++) {
        gb_grid g;
        random_weighted(&g, &seed, 14, spec, sizeof spec);
        gb_ws *ws = gb_ws_new(&g, GB_MODEL_8_NOCUT);
        gb_aaterrain *dl = gb_aaterrain_new(&g);
        cr_assert(ws && dl);
        int64_t *da = malloc((size_t)g.ncells * sizeof *da), *db = malloc((size_t)g.ncells * sizeof *db);
        gb_xy *xy = malloc((size_t)g.ncells * sizeof *xy);
        for (int k = 0; k < 4; k++) {
            const gb_xy a = XY((int32_t)(rng_next(&seed) % (uint64_t)g.width),
                               (int32_t)(rng_next(&seed) % (uint64_t)g.height));
            const gb_xy b = XY((int32_t)(rng_next(&seed) % (uint64_t)g.width),
                               (int32_t)(rng_next(&seed) % (uint64_t)g.height));
            const int32_t s = gb_grid_id(&g, a.x, a.y), t = gb_grid_id(&g, b.x, b.y);
            if (!g.pass[s] || !g.pass[t]) continue;
            queries++;
            bellman_ford_li(&g, s, da, db);
            gb_check li;
            const int r = gb_aaterrain_grid_opt(dl, a, b, &li);
            cr_assert_eq(r, da[t] >= 0, "grid %ld (%s): d_L found %d, Bellman-Ford %d", gi, spec, r,
                         da[t] >= 0);
            if (r == 1)
                cr_assert(li.straight == da[t] && li.diag == db[t],
                          "grid %ld (%s): d_L (%lld, %lld), "
                          "Bellman-Ford (%lld, %lld)",
                          gi, spec, (long long)li.straight, (long long)li.diag, (long long)da[t],
                          (long long)db[t]);
            const double lb = gb_aaterrain_cmin(&g) * gb_anyangle_dist(a, b);
            for (int q = 0; q < GB_Q_COUNT; q++) {
                gb_result res;
                runs++;
                cr_assert_eq(gb_solve(ws, &sp, (gb_queue_kind)q, s, t, &res), 0);
                const char *qn = gb_queue_name((gb_queue_kind)q);
                cr_assert_eq(res.status == GB_FOUND, r == 1, "grid %ld (%s): theta/%s found %d, d_L %d",
                             gi, spec, qn, res.status == GB_FOUND, r);
                if (res.status != GB_FOUND) continue;
                for (int32_t j = 0; j < res.path_len; j++)
                    xy[j] = XY(gb_grid_x(&g, res.path[j]), gb_grid_y(&g, res.path[j]));
                gb_check c;
                cr_assert(gb_validate_aaterrain(&g, a, b, xy, (size_t)res.path_len, res.cost, &c),
                          "grid %ld (%s): theta/%s: %s", gi, spec, qn, c.msg);
                cr_assert_geq(c.cost, lb - c.tol,
                              "grid %ld (%s): theta/%s %.12g below cmin x line %.12g", gi, spec, qn,
                              c.cost, lb);
                cr_assert_leq(c.cost, li.cost + c.tol + li.tol,
                              "grid %ld (%s): theta/%s %.12g above "
                              "d_L %.12g",
                              gi, spec, qn, c.cost, li.cost);
                if (c.cost < li.cost - c.tol - li.tol) below++;
                if (li.cost > 0 && c.cost / li.cost > worst) worst = c.cost / li.cost;
            }
        }
        free(da);
        free(db);
        free(xy);
        gb_aaterrain_free(dl);
        gb_ws_free(ws);
        gb_grid_free(&g);
    }
    cr_log_info("aaterrain theta: %ld grids, %ld queries, %ld runs, %ld below d_L, worst %.6f", ngrids,
                queries, runs, below, worst);
    cr_expect_gt(queries, ngrids);
    cr_expect_gt(below, 0, "Theta* never beat the grid: the any-angle part did nothing");
}

/* A straight line through a swamp costs more than the detour around it:
 * expanding (1,0) from the start (0,1), the segment (0,1)-(2,0) crosses
 * the swamp cell (1,1) for a quarter of its length, so a Theta* that took
 * path 2 whenever it has sight would give (2,0) g = sqrt5/4 (1 + 255 + 2)
 * = 144.2 instead of sqrt2 + 1 and end far above d_L. */
GB_TEST(aaterrain, theta_keeps_path_1_when_the_straight_line_crosses_a_swamp)
{
    static const char *const rows[] = { ".......", ".SSSSS.", "......." };
    gb_grid g;
    make_grid(&g, rows, 3, "S=255");
    gb_solver_spec sp;
    char err[256];
    cr_assert_eq(gb_solver_parse("theta", &sp, err, sizeof err), 0, "%s", err);
    gb_ws *ws = gb_ws_new(&g, GB_MODEL_8_NOCUT);
    gb_aaterrain *dl = gb_aaterrain_new(&g);
    gb_check li;
    cr_assert_eq(gb_aaterrain_grid_opt(dl, XY(0, 1), XY(6, 1), &li), 1);
    cr_expect(fabs(li.cost - (4 + 2 * sqrt(2.0))) < 1e-12, "d_L %.15g", li.cost);
    for (int q = 0; q < GB_Q_COUNT; q++) {
        gb_result r;
        cr_assert_eq(gb_solve(ws, &sp, (gb_queue_kind)q, gb_grid_id(&g, 0, 1), gb_grid_id(&g, 6, 1), &r),
                     0);
        cr_assert_eq(r.status, GB_FOUND);
        gb_xy xy[16];
        cr_assert_leq(r.path_len, 16);
        for (int32_t j = 0; j < r.path_len; j++)
            xy[j] = XY(gb_grid_x(&g, r.path[j]), gb_grid_y(&g, r.path[j]));
        gb_check c;
        cr_assert(gb_validate_aaterrain(&g, XY(0, 1), XY(6, 1), xy, (size_t)r.path_len, r.cost, &c),
                  "%s", c.msg);
        cr_expect_leq(c.cost, li.cost + 1e-9, "%s: %.12g above d_L %.12g",
                      gb_queue_name((gb_queue_kind)q), c.cost, li.cost);
    }
    gb_aaterrain_free(dl);
    gb_ws_free(ws);
    gb_grid_free(&g);
}

GB_TEST(aaterrain, validator_rejects_a_wrong_cost_and_a_blocked_segment)
{
    static const char *const rows[] = { "..S", ".@.", "..." };
    gb_grid g;
    make_grid(&g, rows, 3, "S=3");
    const gb_xy p[] = { XY(0, 0), XY(2, 0), XY(2, 2) };
    gb_check c;
    const double good = 6.0; /* 0.5 + 1 + 1.5, then 1.5 + 1 + 0.5 */
    cr_expect(gb_validate_aaterrain(&g, XY(0, 0), XY(2, 2), p, 3, good, &c), "%s", c.msg);
    cr_expect_not(gb_validate_aaterrain(&g, XY(0, 0), XY(2, 2), p, 3, good + 1e-6, &c));
    cr_expect(strstr(c.msg, "expected the reported cost to equal the path's line-integral cost 6")
                  != NULL,
              "%s", c.msg);
    const gb_xy d[] = { XY(0, 0), XY(2, 2) };
    cr_expect_not(gb_validate_aaterrain(&g, XY(0, 0), XY(2, 2), d, 2, 1.0, &c));
    cr_expect(strstr(c.msg, "segment 0: expected line of sight from (0,0) to (2,2)") != NULL, "%s",
              c.msg);
    gb_grid_free(&g);
}

/* ---- the runner ----------------------------------------------------------- */

GB_TEST(aaterrain, run_theta_under_terrain_costs_records_the_model)
{
    const char *bin = gb_test_bin();
    char d[64], out[8192];
    snprintf(d, sizeof d, "/tmp/gb-aat-XXXXXX");
    cr_assert_not_null(mkdtemp(d));
    cr_assert_eq(gb_test_sh(out, sizeof out,
                            "%s gen --family terrain --size 48 --percent 10 --seed 2 "
                            "--per-bucket 2 --out %s",
                            bin, d),
                 0, "%s", out);
    int rc = gb_test_sh(out, sizeof out,
                        "%s run -s theta,astar-octile -q bheap,bucket --terrain-costs 'S=3,W=5,T=8' "
                        "--count 12 --quiet --out %s/t.csv %s/terrain48-10-2.map.scen && awk -F, "
                        "'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c[\"solver\"], "
                        "$c[\"model\"], $c[\"cost_model\"], ($c[\"status\"] == \"ok\" || $c[\"status\"] "
                        "== \"scen_mismatch\"), ($c[\"subopt\"] <= 1.000001), ($c[\"subopt\"] > 0) }' "
                        "%s/t.csv | sort | uniq -c",
                        bin, d, d, d);
    cr_assert_eq(rc, 0, "%s", out);
    cr_expect(strstr(out, "24 theta 8-nocut+terrain:.=1;G=1;S=3;T=8;W=5 anyangle 1 1 1") != NULL, "%s",
              out);
    cr_expect(strstr(out, "24 astar-octile 8-nocut+terrain:.=1;G=1;S=3;T=8;W=5 grid 1 1 1") != NULL,
              "%s", out);
    /* refused: the GPPC any-angle model, and +smooth */
    cr_expect_eq(gb_test_sh(out, sizeof out,
                            "%s run -s theta --anyangle-model gppc --terrain-costs "
                            "'S=3' %s/terrain48-10-2.map.scen",
                            bin, d),
                 64);
    cr_expect(strstr(out, "gridbench run: solver 'theta': any-angle paths under a terrain cost model "
                          "are defined in the cell-centre model only: expected --anyangle-model centre, "
                          "found gppc")
                  != NULL,
              "%s", out);
    cr_expect_eq(gb_test_sh(out, sizeof out,
                            "%s run -s astar-octile+smooth --terrain-costs 'S=3' "
                            "%s/terrain48-10-2.map.scen",
                            bin, d),
                 64);
    cr_expect(strstr(out, "+smooth is defined for uniform costs only") != NULL, "%s", out);
    gb_test_sh(NULL, 0, "rm -rf %s", d);
}
