/*
 * test_anyangle.c -- any-angle paths: the line-of-sight rule (solvers'
 * walk gb_los.h and the validator's column strips gb_anyangle.h, on
 * hand-made grids and against each other cell by cell), the any-angle
 * validator's rejections, the "+smooth" modifier's parsing and promises,
 * and Theta* / SOLVER+smooth on random grids: valid, between the
 * straight line and the grid optimum, and never longer than the
 * unsmoothed path.  The every-queue and shared-map properties come from
 * tests/test_search.c, which runs theta (in `--solver all`) and a few
 * SOLVER+smooth names.
 */
#include "gb_test.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gb_anyangle.h"
#include "gb_grid.h"
#include "gb_los.h"
#include "gb_run.h"
#include "gb_search.h"
#include "gb_stats.h"
#include "gb_validate.h"

#define XY(a, b) ((gb_xy){ (a), (b) })

/* Build a grid from rows of '.' (free) and '@' (blocked). */
static void grid_from(gb_grid *g, const char *const *rows, int h)
{
    int w = (int)strlen(rows[0]);
    cr_assert_eq(gb_grid_init(g, w, h), 0);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) g->pass[gb_grid_id(g, x, y)] = rows[y][x] == '.';
    gb_grid_recount(g);
}

/* Line of sight a -> b by both implementations, which must agree (and
 * agree with b -> a); returns the common answer. */
static int sight(const gb_grid *g, gb_xy a, gb_xy b)
{
    const int32_t ia = gb_grid_id(g, a.x, a.y), ib = gb_grid_id(g, b.x, b.y);
    const int s1 = gb_los(g, ia, ib, NULL), s2 = gb_los(g, ib, ia, NULL);
    const int v1 = gb_anyangle_sight(g, a, b, NULL), v2 = gb_anyangle_sight(g, b, a, NULL);
    cr_assert_eq(s1, v1, "(%d,%d)-(%d,%d): gb_los %d, validator %d", a.x, a.y, b.x, b.y, s1, v1);
    cr_assert_eq(s1, s2, "(%d,%d)-(%d,%d): gb_los not symmetric", a.x, a.y, b.x, b.y);
    cr_assert_eq(v1, v2, "(%d,%d)-(%d,%d): validator not symmetric", a.x, a.y, b.x, b.y);
    return s1;
}

/* ---- the rule on hand-made grids ----------------------------------------- */

GB_TEST(anyangle, los_no_corner_cutting_on_single_steps)
{
    static const char *const squeeze[] = { ".@", "@." };   /* diagonally touching */
    static const char *const corner[] = { "..", "@." };    /* one blocked corner */
    static const char *const open[] = { "..", ".." };
    gb_grid g;
    grid_from(&g, squeeze, 2);
    cr_expect_not(sight(&g, XY(0, 0), XY(1, 1)), "between two diagonally touching blocked cells");
    gb_grid_free(&g);
    grid_from(&g, corner, 2);
    cr_expect_not(sight(&g, XY(0, 0), XY(1, 1)), "grazing one blocked corner (8-nocut)");
    cr_expect(sight(&g, XY(0, 0), XY(1, 0)));
    cr_expect(sight(&g, XY(1, 0), XY(1, 1)));
    gb_grid_free(&g);
    grid_from(&g, open, 2);
    cr_expect(sight(&g, XY(0, 0), XY(1, 1)));
    cr_expect(sight(&g, XY(1, 0), XY(0, 1)));
    gb_grid_free(&g);
}

GB_TEST(anyangle, los_long_segments_touch_exactly_the_cells_they_meet)
{
    /* (0,0)-(2,2) passes the lattice corners (1,1) and (2,2): each touches
     * four cells; (2,0) and (0,2) are never touched */
    static const char *const far_corner[] = { "..@", "...", "@.." };
    static const char *const near_corner[] = { ".@.", "...", "..." };
    static const char *const squeeze_mid[] = { "...", ".@.", "..." };
    gb_grid g;
    grid_from(&g, far_corner, 3);
    cr_expect(sight(&g, XY(0, 0), XY(2, 2)));
    gb_grid_free(&g);
    grid_from(&g, near_corner, 3);
    cr_expect_not(sight(&g, XY(0, 0), XY(2, 2)), "(1,0) touches the corner (1,1)");
    cr_expect_not(sight(&g, XY(0, 0), XY(2, 0)), "straight through a blocked cell");
    cr_expect(sight(&g, XY(0, 1), XY(2, 1)));
    gb_grid_free(&g);
    grid_from(&g, squeeze_mid, 3);
    cr_expect_not(sight(&g, XY(0, 0), XY(2, 2)));
    cr_expect_not(sight(&g, XY(0, 1), XY(2, 1)));
    cr_expect(sight(&g, XY(0, 0), XY(2, 0)));
    /* (0,0)-(2,1): y = 1/2 + (X - 1/2) / 2 meets (0,0), (1,0), (1,1), (2,1) */
    gb_grid_free(&g);
    static const char *const knight_a[] = { "...", "@..", "..." };   /* (0,1): not met */
    static const char *const knight_b[] = { "..@", "...", "..." };   /* (2,0): not met */
    static const char *const knight_c[] = { "...", ".@.", "..." };   /* (1,1): met */
    grid_from(&g, knight_a, 3);
    cr_expect(sight(&g, XY(0, 0), XY(2, 1)));
    gb_grid_free(&g);
    grid_from(&g, knight_b, 3);
    cr_expect(sight(&g, XY(0, 0), XY(2, 1)));
    gb_grid_free(&g);
    grid_from(&g, knight_c, 3);
    cr_expect_not(sight(&g, XY(0, 0), XY(2, 1)));
    cr_expect_not(sight(&g, XY(2, 1), XY(0, 0)));
    gb_grid_free(&g);
}

/* The two implementations touch the same set of cells: on an open grid
 * with exactly one blocked cell, each says "no sight" iff the segment
 * touches that cell; every cell of the bounding box is tried. */
GB_TEST(anyangle, los_walk_and_validator_touch_the_same_cells)
{
    uint64_t seed = 17;
    gb_grid g;
    const int W = 13, H = 11;
    cr_assert_eq(gb_grid_init(&g, W, H), 0);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) g.pass[gb_grid_id(&g, x, y)] = 1;
    gb_grid_recount(&g);
    int blocked_some = 0, clear_some = 0;
    for (int it = 0; it < 400; it++) {
        gb_xy a = XY((int)(gb_rng_next(&seed) % (uint64_t)W), (int)(gb_rng_next(&seed) % (uint64_t)H));
        gb_xy b = XY((int)(gb_rng_next(&seed) % (uint64_t)W), (int)(gb_rng_next(&seed) % (uint64_t)H));
        const int x0 = a.x < b.x ? a.x : b.x, x1 = a.x < b.x ? b.x : a.x;
        const int y0 = a.y < b.y ? a.y : b.y, y1 = a.y < b.y ? b.y : a.y;
        for (int y = y0; y <= y1; y++)
            for (int x = x0; x <= x1; x++) {
                if ((x == a.x && y == a.y) || (x == b.x && y == b.y)) continue;
                g.pass[gb_grid_id(&g, x, y)] = 0;
                if (sight(&g, a, b)) clear_some++; else blocked_some++;
                g.pass[gb_grid_id(&g, x, y)] = 1;
            }
    }
    cr_expect_gt(blocked_some, 100);
    cr_expect_gt(clear_some, 100);
    gb_grid_free(&g);
}

/* ---- the validator ------------------------------------------------------- */

GB_TEST(anyangle, validator_accepts_a_legal_path_with_its_euclidean_cost)
{
    static const char *const rows[] = { ".....", ".@@@.", "....." };
    gb_grid g;
    grid_from(&g, rows, 3);
    gb_xy p[] = { XY(0, 0), XY(4, 0), XY(4, 2), XY(0, 2) };
    gb_check c;
    cr_assert(gb_validate_anyangle(&g, XY(0, 0), XY(0, 2), p, 4, 10.0, &c), "%s", c.msg);
    cr_expect_eq(c.cost, 10.0);
    gb_xy q[] = { XY(0, 0), XY(4, 2) };   /* crosses the wall */
    cr_expect_not(gb_validate_anyangle(&g, XY(0, 0), XY(4, 2), q, 2, sqrt(20.0), &c));
    cr_expect(strstr(c.msg, "segment 0: expected line of sight from (0,0) to (4,2)") != NULL,
              "%s", c.msg);
    gb_xy one[] = { XY(2, 0) };
    cr_expect(gb_validate_anyangle(&g, XY(2, 0), XY(2, 0), one, 1, 0.0, &c), "%s", c.msg);
    gb_grid_free(&g);
}

GB_TEST(anyangle, validator_rejects_bad_any_angle_paths)
{
    static const char *const rows[] = { "....", ".@..", "..@.", "...." };
    gb_grid g;
    grid_from(&g, rows, 4);
    gb_check c;
    /* between the diagonally touching (1,1) and (2,2): (0,3) -> (3,0) passes
     * the corner (2,2) of both */
    gb_xy squeeze[] = { XY(0, 3), XY(3, 0) };
    cr_expect_not(gb_validate_anyangle(&g, XY(0, 3), XY(3, 0), squeeze, 2, sqrt(18.0), &c));
    cr_expect(strstr(c.msg, "no corner cutting") != NULL, "%s", c.msg);
    cr_expect_eq(c.bad_step, 0);
    /* the same path around: legal */
    gb_xy around[] = { XY(0, 3), XY(3, 3), XY(3, 0) };
    cr_expect(gb_validate_anyangle(&g, XY(0, 3), XY(3, 0), around, 3, 6.0, &c), "%s", c.msg);
    /* wrong cost, too short and too long */
    cr_expect_not(gb_validate_anyangle(&g, XY(0, 3), XY(3, 0), around, 3, 5.999999, &c));
    cr_expect(strstr(c.msg, "Euclidean length 6, found 5.999999") != NULL, "%s", c.msg);
    cr_expect_not(gb_validate_anyangle(&g, XY(0, 3), XY(3, 0), around, 3, 6.0 + 1e-9, &c));
    /* endpoints */
    cr_expect_not(gb_validate_anyangle(&g, XY(0, 2), XY(3, 0), around, 3, 6.0, &c));
    cr_expect(strstr(c.msg, "expected the path to start at (0,2), found (0,3)") != NULL, "%s", c.msg);
    cr_expect_not(gb_validate_anyangle(&g, XY(0, 3), XY(3, 1), around, 3, 6.0, &c));
    cr_expect(strstr(c.msg, "expected the path to end at (3,1), found (3,0)") != NULL, "%s", c.msg);
    /* empty, repeated waypoint, a blocked waypoint, outside the map */
    cr_expect_not(gb_validate_anyangle(&g, XY(0, 3), XY(3, 0), around, 0, 0.0, &c));
    gb_xy twice[] = { XY(0, 3), XY(3, 3), XY(3, 3), XY(3, 0) };
    cr_expect_not(gb_validate_anyangle(&g, XY(0, 3), XY(3, 0), twice, 4, 6.0, &c));
    cr_expect(strstr(c.msg, "(3,3) twice") != NULL, "%s", c.msg);
    gb_xy via_wall[] = { XY(0, 1), XY(1, 1), XY(3, 1) };
    cr_expect_not(gb_validate_anyangle(&g, XY(0, 1), XY(3, 1), via_wall, 3, 3.0, &c));
    cr_expect_eq(c.bad_step, 0);
    gb_xy outside[] = { XY(0, 0), XY(4, 0), XY(3, 0) };
    cr_expect_not(gb_validate_anyangle(&g, XY(0, 0), XY(3, 0), outside, 3, 5.0, &c));
    gb_xy blocked_start[] = { XY(1, 1), XY(0, 0) };
    cr_expect_not(gb_validate_anyangle(&g, XY(1, 1), XY(0, 0), blocked_start, 2, GB_SQRT2, &c));
    cr_expect(strstr(c.msg, "passable start cell") != NULL, "%s", c.msg);
    gb_grid_free(&g);
}

/* ---- names and promises --------------------------------------------------- */

GB_TEST(anyangle, smooth_modifier_parses_for_every_family)
{
    char err[256];
    gb_solver_spec sp;
    cr_assert_eq(gb_solver_parse("astar-octile+smooth", &sp, err, sizeof err), 0, "%s", err);
    cr_expect_str_eq(sp.name, "astar-octile+smooth");
    cr_expect_eq(sp.smooth, 1);
    cr_expect_eq(gb_solver_cost_model(&sp), GB_COST_ANYANGLE);
    cr_expect_eq(gb_solver_guarantee(&sp, GB_MODEL_8_NOCUT, NULL), GB_GUAR_NONE);
    cr_expect_eq(gb_solver_grid_bound(&sp, GB_MODEL_8_NOCUT), 1.0);
    cr_expect_eq(gb_solver_grid_bound(&sp, GB_MODEL_4), 1.0);
    cr_expect(gb_solver_unsupported(&sp, GB_MODEL_8_CUT1, err, sizeof err));
    cr_expect(strstr(err, "supports models 8-nocut, 4 only, not 8-cut1") != NULL, "%s", err);
    cr_assert_eq(gb_solver_parse("jps++smooth", &sp, err, sizeof err), 0, "%s", err);
    cr_expect_str_eq(sp.name, "jps++smooth");
    cr_expect_eq(sp.algo, GB_ALGO_JPSPLUS);
    cr_assert_eq(gb_solver_parse("astar-diff+smooth", &sp, err, sizeof err), 0, "%s", err);
    cr_expect_str_eq(sp.name, "astar-diff:k=8+smooth", "canonical: the base's, then the modifier");
    cr_assert_eq(gb_solver_parse("wastar-diff:k=4:w=2+smooth", &sp, err, sizeof err), 0, "%s", err);
    cr_expect_eq(sp.k, 4);
    cr_expect_eq(gb_solver_grid_bound(&sp, GB_MODEL_8_NOCUT), 2.0);
    cr_assert_eq(gb_solver_parse("gbfs-octile+smooth", &sp, err, sizeof err), 0, "%s", err);
    cr_expect_eq(gb_solver_grid_bound(&sp, GB_MODEL_8_NOCUT), 0.0, "greedy promises nothing");
    cr_assert_eq(gb_solver_parse("theta", &sp, err, sizeof err), 0, "%s", err);
    cr_expect_eq(gb_solver_cost_model(&sp), GB_COST_ANYANGLE);
    cr_expect_eq(gb_solver_guarantee(&sp, GB_MODEL_8_NOCUT, NULL), GB_GUAR_NONE);
    cr_expect_eq(gb_solver_grid_bound(&sp, GB_MODEL_8_NOCUT), 1.0);
    cr_expect(gb_solver_unsupported(&sp, GB_MODEL_4, err, sizeof err));
    cr_assert_eq(gb_solver_parse("dijkstra", &sp, err, sizeof err), 0, "%s", err);
    cr_expect_eq(gb_solver_cost_model(&sp), GB_COST_GRID);
    cr_expect_eq(gb_solver_grid_bound(&sp, GB_MODEL_8_NOCUT), 0.0);
    cr_expect_str_eq(gb_cost_model_name(GB_COST_GRID), "grid");
    cr_expect_str_eq(gb_cost_model_name(GB_COST_ANYANGLE), "anyangle");
    /* errors */
    cr_expect_neq(gb_solver_parse("astar-octile+smooth+smooth", &sp, err, sizeof err), 0);
    cr_expect(strstr(err, "expected '+smooth' once") != NULL, "%s", err);
    cr_expect_neq(gb_solver_parse("astar-octle+smooth", &sp, err, sizeof err), 0);
    cr_expect(strstr(err, "unknown heuristic 'octle'") != NULL, "%s", err);
    cr_expect_neq(gb_solver_parse("+smooth", &sp, err, sizeof err), 0);
    cr_expect_neq(gb_solver_parse("astar-octile+smoothy", &sp, err, sizeof err), 0);
}

/* ---- solvers on random grids ---------------------------------------------- */

typedef struct aa_run {
    gb_result r;
    int32_t *path;   /* malloc'd copy of r.path */
    gb_check chk;
} aa_run;

/* Solve with name on ws and check the path with the validator the cost
 * model asks for; the path must be valid when found. */
static void aa_solve(gb_ws *ws, const char *name, int32_t s, int32_t t, aa_run *o)
{
    char err[256];
    gb_solver_spec sp;
    const gb_grid *g = gb_ws_grid(ws);
    cr_assert_eq(gb_solver_parse(name, &sp, err, sizeof err), 0, "%s", err);
    cr_assert_eq(gb_solve(ws, &sp, GB_Q_BHEAP, s, t, &o->r), 0, "%s", name);
    memset(&o->chk, 0, sizeof o->chk);
    o->path = NULL;
    if (o->r.status != GB_FOUND) return;
    const int32_t n = o->r.path_len;
    gb_xy *xy = malloc((size_t)(n > 0 ? n : 1) * sizeof *xy);
    for (int32_t i = 0; i < n; i++) xy[i] = XY(gb_grid_x(g, o->r.path[i]), gb_grid_y(g, o->r.path[i]));
    gb_xy a = XY(gb_grid_x(g, s), gb_grid_y(g, s)), b = XY(gb_grid_x(g, t), gb_grid_y(g, t));
    int ok = gb_solver_cost_model(&sp) == GB_COST_ANYANGLE
        ? gb_validate_anyangle(g, a, b, xy, (size_t)n, o->r.cost, &o->chk)
        : gb_validate_path(g, gb_ws_model(ws), a, b, xy, (size_t)n, o->r.cost, &o->chk);
    free(xy);
    cr_assert(ok, "%s: invalid path: %s", name, o->chk.msg);
    o->path = malloc((size_t)n * sizeof *o->path);
    memcpy(o->path, o->r.path, (size_t)n * sizeof *o->path);
}

/* Underlying solvers of the +smooth checks (grid bound: optimal ones 1,
 * wastar w, greedy none). */
static const char *const aa_bases[] = { "dijkstra", "astar-octile", "jps", "jps+", "sg",
                                         "bidijkstra", "wastar-octile:w=2", "gbfs-octile",
                                         "bfs" };

static void aa_check_grid(gb_ws *ws, int32_t s, int32_t t, const char *where)
{
    const gb_grid *g = gb_ws_grid(ws);
    const gb_model m = gb_ws_model(ws);
    aa_run dij;
    aa_solve(ws, "dijkstra", s, t, &dij);
    const double lb = gb_los_dist(g, s, t), eps = 1e-9;
    if (m == GB_MODEL_8_NOCUT) {
        aa_run th;
        aa_solve(ws, "theta", s, t, &th);
        cr_assert_eq(th.r.status, dij.r.status, "%s: theta found=%d, Dijkstra %d", where,
                     th.r.status, dij.r.status);
        if (th.path) {
            cr_assert_geq(th.chk.cost, lb - eps, "%s: theta below the straight line", where);
            cr_assert_leq(th.chk.cost, dij.chk.cost + eps, "%s: theta %.9f above the grid "
                          "optimum %.9f", where, th.chk.cost, dij.chk.cost);
        }
        free(th.path);
    }
    for (size_t i = 0; i < sizeof aa_bases / sizeof aa_bases[0]; i++) {
        char name[64], err[256];
        gb_solver_spec sp;
        snprintf(name, sizeof name, "%s+smooth", aa_bases[i]);
        cr_assert_eq(gb_solver_parse(name, &sp, err, sizeof err), 0, "%s", err);
        if (gb_solver_unsupported(&sp, m, err, sizeof err)) continue;
        aa_run base, sm;
        aa_solve(ws, aa_bases[i], s, t, &base);
        aa_solve(ws, name, s, t, &sm);
        cr_assert_eq(sm.r.status, base.r.status, "%s: %s", where, name);
        if (sm.path) {
            cr_assert_leq(sm.r.path_len, base.r.path_len, "%s: %s more waypoints than cells", where, name);
            cr_assert_leq(sm.chk.cost, base.chk.cost + eps, "%s: %s %.9f longer than unsmoothed "
                          "%.9f", where, name, sm.chk.cost, base.chk.cost);
            cr_assert_geq(sm.chk.cost, lb - eps, "%s: %s below the straight line", where, name);
            const double b = gb_solver_grid_bound(&sp, m);
            if (b > 0)
                cr_assert_leq(sm.chk.cost, b * dij.chk.cost + eps, "%s: %s %.9f above %g x the "
                              "grid optimum %.9f", where, name, sm.chk.cost, b, dij.chk.cost);
            /* the same expansions as the unsmoothed search: the modifier
             * only post-processes its path */
            cr_assert_eq(sm.r.st.expanded, base.r.st.expanded, "%s: %s", where, name);
            /* the waypoints are cells of the unsmoothed path, in order, and
             * greedy: waypoint j+1 (at cell k of it) was kept because
             * waypoint j does not see cell k+1 */
            int32_t k = 0;
            for (int32_t j = 0; j < sm.r.path_len; j++) {
                while (k < base.r.path_len && base.path[k] != sm.path[j]) k++;
                cr_assert_lt(k, base.r.path_len, "%s: %s waypoint %d not on its path", where,
                             name, j);
                if (j > 0 && j + 1 < sm.r.path_len)
                    cr_assert_not(gb_los(g, sm.path[j - 1], base.path[k + 1], NULL),
                                  "%s: %s kept waypoint %d it could drop", where, name, j);
            }
        }
        free(base.path);
        free(sm.path);
    }
    free(dij.path);
}

GB_TEST(anyangle, theta_and_smooth_on_random_grids)
{
    uint64_t seed = 2007;
    static const gb_model models[] = { GB_MODEL_8_NOCUT, GB_MODEL_4 };
    for (int it = 0; it < 120; it++) {
        const int W = 8 + (int)(gb_rng_next(&seed) % 40), H = 8 + (int)(gb_rng_next(&seed) % 30);
        const int dens = 5 + (int)(gb_rng_next(&seed) % 35);
        gb_grid g;
        cr_assert_eq(gb_grid_init(&g, W, H), 0);
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
                g.pass[gb_grid_id(&g, x, y)] = (int)(gb_rng_next(&seed) % 100) >= dens;
        gb_grid_recount(&g);
        const gb_model m = models[it % 2];
        gb_ws *ws = gb_ws_new(&g, m);
        cr_assert_not_null(ws);
        for (int k = 0; k < 6; k++) {
            int32_t s = gb_grid_id(&g, (int)(gb_rng_next(&seed) % (uint64_t)W),
                                   (int)(gb_rng_next(&seed) % (uint64_t)H));
            int32_t t = gb_grid_id(&g, (int)(gb_rng_next(&seed) % (uint64_t)W),
                                   (int)(gb_rng_next(&seed) % (uint64_t)H));
            g.pass[s] = g.pass[t] = 1;
            gb_ws_free(ws);   /* the moves mask follows the grid's passability */
            ws = gb_ws_new(&g, m);
            char where[96];
            snprintf(where, sizeof where, "grid %d (%dx%d, %d%%, %s) query %d", it, W, H, dens,
                     gb_model_name(m), k);
            aa_check_grid(ws, s, t, where);
        }
        gb_ws_free(ws);
        gb_grid_free(&g);
    }
}

/* On an open grid Theta* and A*+smooth go straight: one segment. */
GB_TEST(anyangle, open_grid_paths_are_one_straight_segment)
{
    gb_grid g;
    cr_assert_eq(gb_grid_init(&g, 30, 20), 0);
    for (int y = 0; y < 20; y++)
        for (int x = 0; x < 30; x++) g.pass[gb_grid_id(&g, x, y)] = 1;
    gb_grid_recount(&g);
    gb_ws *ws = gb_ws_new(&g, GB_MODEL_8_NOCUT);
    const int32_t s = gb_grid_id(&g, 2, 3), t = gb_grid_id(&g, 27, 15);
    static const char *const names[] = { "theta", "astar-octile+smooth", "jps+smooth" };
    for (int i = 0; i < 3; i++) {
        aa_run o;
        aa_solve(ws, names[i], s, t, &o);
        cr_expect_eq(o.r.path_len, 2, "%s: %d waypoints", names[i], o.r.path_len);
        cr_expect_float_eq(o.r.cost, sqrt(25.0 * 25.0 + 12.0 * 12.0), 1e-12, "%s", names[i]);
        free(o.path);
    }
    gb_ws_free(ws);
    gb_grid_free(&g);
}

/* ---- the runner's rows ------------------------------------------------------ */

GB_TEST(anyangle, run_rows_name_the_cost_model_and_the_ratios)
{
    const char *bin = gb_test_bin();
    char out[8192];
    int rc = gb_test_sh(out, sizeof out,
                        "%s run -s astar-octile,theta,jps+smooth --count 5 --quiet "
                        "datasets/default/room128-16-1.map.scen | awk -F, 'NR == 1 { for (i = 1; "
                        "i <= NF; i++) c[$i] = i; next } { print $c[\"solver\"], $c[\"status\"], "
                        "$c[\"cost_model\"], $c[\"guarantee\"], ($c[\"subopt\"] <= 1.0000001), "
                        "($c[\"lb_ratio\"] >= 0.9999999), ($c[\"euclid_lb\"] > 0) }' | sort | uniq -c",
                        bin);
    cr_assert_eq(rc, 0, "%s", out);
    cr_expect(strstr(out, "5 astar-octile ok grid optimal 1 1 1") != NULL, "%s", out);
    cr_expect(strstr(out, "5 theta ok anyangle none 1 1 1") != NULL, "%s", out);
    cr_expect(strstr(out, "5 jps+smooth ok anyangle none 1 1 1") != NULL, "%s", out);
}
