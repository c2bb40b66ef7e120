/*
 * test_heuristics.c -- Criterion tests (suite "heuristics") for the
 * differential heuristic (solvers/gb_landmarks), the heuristic validator
 * (harness/check/gb_heurval) and `gridbench heuristics`
 * (harness/cli/gb_cmd_heuristics.c).
 *
 *   landmarks_*   exact selection on a corridor (farthest-point rule, ties
 *                 to the smallest id, k capped at the component size);
 *                 the rule re-derived by brute force on generated maps
 *                 (seed = smallest id of gb_gen_largest_component);
 *                 determinism; distances bitwise equal to gb_dijkstra_all;
 *                 h(goal, goal) = 0; h = 0 off the landmarks' component;
 *                 memory figure
 *   small_*       hand-written / empty maps with exact expectations (empty
 *                 8x8: octile exact, zero overestimates, all ratios in the
 *                 last bin; model 4 manhattan exact; components)
 *   broken_*      planted faults through the callback: octile x 1.5 and a
 *                 single-cell liar (+10) are caught at the right cell
 *   real_*        facts on $GB_SHARED (skipped when absent), 2-3 sampled
 *                 goals per map: octile admissible and consistent on
 *                 8-nocut; manhattan overestimates on 8-connected models
 *                 (and the example really overestimates); euclidean and
 *                 chebyshev admissible but less informed than octile;
 *                 octile w = 1.5 inadmissible; diff:k=8 admissible,
 *                 consistent, more informed than octile on the maze and
 *                 street maps; the registry claims hold
 *   parse_* / goals_* / cli_*   spec syntax and pinned messages, goal
 *                 sampling, scenario goals, the command's files and exit
 *                 codes
 */
#include "gb_test.h"
#include <criterion/redirect.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gb_cmd.h"
#include "gb_gen.h"
#include "gb_heurval.h"
#include "gb_landmarks.h"
#include "gb_map.h"
#include "gb_scen.h"
#include "gb_search.h"

#include "gb_cmd.h"

/* ---- helpers ---------------------------------------------------------- */

static const char *shared_dir(void)
{
    const char *dir = getenv("GB_SHARED");
    if (!dir || !dir[0]) dir = "../shared/movingai";
    struct stat st;
    return stat(dir, &st) == 0 && S_ISDIR(st.st_mode) ? dir : NULL;
}

/* Load $GB_SHARED/rel into *m, or skip the test when the copy is absent. */
static void load_shared(const char *rel, gb_map *m)
{
    const char *dir = shared_dir();
    if (!dir) cr_skip_test("no shared Moving AI directory (set GB_SHARED)");
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    struct stat st;
    if (stat(path, &st) != 0) cr_skip_test("%s not found", path);
    gb_diag d;
    int rc = gb_map_load(path, m, &d);
    cr_assert_eq(rc, 0, "%s: %s", path, d.msg);
}

/* Parse a map given as text rows ('.' passable, '@' blocked). */
static void map_from_rows(gb_map *m, const char *const *rows, int h)
{
    char buf[8192];
    int w = (int)strlen(rows[0]);
    int n = snprintf(buf, sizeof buf, "type octile\nheight %d\nwidth %d\nmap\n", h, w);
    for (int y = 0; y < h; y++) n += snprintf(buf + n, sizeof buf - (size_t)n, "%s\n", rows[y]);
    gb_diag d;
    cr_assert_eq(gb_map_parse("rows.map", buf, (size_t)n, m, &d), 0, "%s", d.msg);
}

/* An all-passable w x h grid. */
static void empty_grid(gb_grid *g, int w, int h)
{
    cr_assert_eq(gb_grid_init(g, w, h), 0);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) g->pass[gb_grid_id(g, x, y)] = 1;
    gb_grid_recount(g);
}

/* Totals of one spec over several goals. */
typedef struct summary {
    int64_t inadmissible, inconsistent, ratio_cells, edges;
    double ratio_sum, mean;
} summary;

static summary check_goals(gb_hv *v, const int32_t *goals, int n, const gb_hv_spec *s)
{
    summary su;
    memset(&su, 0, sizeof su);
    gb_diag d;
    for (int i = 0; i < n; i++) {
        cr_assert_eq(gb_hv_set_goal(v, goals[i], &d), 0, "%s", d.msg);
        gb_hv_result r;
        cr_assert_eq(gb_hv_eval(v, s, &r, &d), 0, "%s", d.msg);
        su.inadmissible += r.inadmissible;
        su.inconsistent += r.inconsistent;
        su.ratio_cells += r.ratio_cells;
        su.ratio_sum += r.ratio_sum;
        su.edges += r.edges;
        gb_hv_result_free(&r);
    }
    su.mean = su.ratio_cells ? su.ratio_sum / (double)su.ratio_cells : 0.0;
    return su;
}

static summary check_builtin(gb_hv *v, const int32_t *goals, int n, gb_heur h, double w)
{
    gb_hv_spec s;
    gb_hv_spec_builtin(&s, h, w);
    return check_goals(v, goals, n, &s);
}

static summary check_diff(gb_hv *v, const int32_t *goals, int n, int k)
{
    gb_hv_spec s;
    gb_hv_spec_diff(&s, k, 1.0);
    return check_goals(v, goals, n, &s);
}

static int popcount8(unsigned v)
{
    int c = 0;
    for (; v; v &= v - 1) c++;
    return c;
}

/* ---- landmarks -------------------------------------------------------- */

GB_TEST(heuristics, landmarks_corridor_exact_selection)
{
    static const char *const rows[] = { "..........", "@@@@@@@@@@" };
    gb_map m;
    map_from_rows(&m, rows, 2);
    const gb_grid *g = &m.grid;
    gb_landmarks L;
    cr_assert_eq(gb_landmarks_build(&L, g, GB_MODEL_8_NOCUT, 3), 0);
    /* seed (0,0); farthest (9,0); then (0,0); then min(d to 0, d to 9) is
     * 4 at both x = 4 and x = 5: the smaller id wins. */
    cr_assert_eq(L.k, 3);
    cr_assert_eq(L.lm[0], gb_grid_id(g, 9, 0));
    cr_assert_eq(L.lm[1], gb_grid_id(g, 0, 0));
    cr_assert_eq(L.lm[2], gb_grid_id(g, 4, 0));
    for (int x = 0; x < 10; x++) {
        int32_t id = gb_grid_id(g, x, 0);
        cr_assert_eq(L.dist[id * 3 + 0], 9.0 - x);
        cr_assert_eq(L.dist[id * 3 + 1], (double)x);
        cr_assert_eq(L.dist[id * 3 + 2], fabs(x - 4.0));
        for (int gx = 0; gx < 10; gx++)   /* exact on a corridor */
            cr_assert_eq(gb_landmarks_h(&L, id, gb_grid_id(g, gx, 0)), fabs((double)(x - gx)));
    }
    cr_assert(isinf(L.dist[gb_grid_id(g, 3, 1) * 3]), "blocked cell must be INFINITY");
    cr_assert_eq(L.bytes, (size_t)g->ncells * 3 * sizeof(double) + 3 * sizeof(int32_t));
    cr_assert(L.prep_ns > 0.0);
    gb_landmarks_free(&L);
    cr_assert_null(L.dist);

    /* More landmarks than cells: every cell once, then stop. */
    cr_assert_eq(gb_landmarks_build(&L, g, GB_MODEL_8_NOCUT, 20), 0);
    cr_assert_eq(L.k, 10);
    uint8_t seen[10] = { 0 };
    for (int l = 0; l < L.k; l++) {
        int32_t x = gb_grid_x(g, L.lm[l]);
        cr_assert(x >= 0 && x < 10 && !seen[x], "landmark %d at x = %d repeated", l, (int)x);
        seen[x] = 1;
        cr_assert_eq(L.dist[L.lm[l] * L.k + l], 0.0);
    }
    cr_assert_eq(L.bytes, (size_t)g->ncells * 10 * sizeof(double) + 10 * sizeof(int32_t));
    gb_landmarks_free(&L);

    /* k = 0 and a bad k */
    cr_assert_eq(gb_landmarks_build(&L, g, GB_MODEL_8_NOCUT, 0), 0);
    cr_assert_eq(L.k, 0);
    cr_assert_eq(gb_landmarks_h(&L, gb_grid_id(g, 0, 0), gb_grid_id(g, 9, 0)), 0.0);
    gb_landmarks_free(&L);
    errno = 0;
    cr_assert_eq(gb_landmarks_build(&L, g, GB_MODEL_8_NOCUT, GB_LANDMARKS_MAX + 1), -1);
    cr_assert_eq(errno, EINVAL);
    cr_assert_null(L.lm);
    gb_map_free(&m);
}

/* Re-derive the farthest-point rule by brute force. */
static void check_selection(const gb_grid *g, gb_model mo, int k)
{
    gb_landmarks L;
    cr_assert_eq(gb_landmarks_build(&L, g, mo, k), 0);
    uint8_t *mark = malloc((size_t)g->ncells);
    int32_t csize;
    cr_assert_eq(gb_gen_largest_component(g, mo, mark, &csize), 0);
    int32_t seed = -1;
    for (int32_t i = 0; i < g->ncells && seed < 0; i++)
        if (mark[i]) seed = i;
    cr_assert_geq(seed, 0);
    double *ds = malloc((size_t)g->ncells * sizeof *ds), *mind = malloc((size_t)g->ncells * sizeof *mind);
    cr_assert_eq(gb_dijkstra_all(g, mo, seed, ds), 0);
    cr_assert_eq(L.k, csize < k ? csize : k);
    for (int32_t i = 0; i < g->ncells; i++) mind[i] = ds[i];   /* key for lm[0] */
    for (int l = 0; l < L.k; l++) {
        int32_t best = -1;
        for (int32_t i = 0; i < g->ncells; i++)
            if (mark[i] && (best < 0 || mind[i] > mind[best])) best = i;
        cr_assert_eq(L.lm[l], best, "landmark %d: expected id %d, found %d", l, (int)best, (int)L.lm[l]);
        cr_assert_eq(gb_dijkstra_all(g, mo, best, ds), 0);
        for (int32_t i = 0; i < g->ncells; i++) {
            double got = L.dist[(size_t)i * (size_t)L.k + (size_t)l];
            cr_assert(got == ds[i] || (isinf(got) && isinf(ds[i])),
                      "dist[%d][%d]: expected %.17g, found %.17g", (int)i, l, ds[i], got);
            if (l == 0 || ds[i] < mind[i]) mind[i] = ds[i];
        }
    }
    free(mark);
    free(ds);
    free(mind);
    gb_landmarks_free(&L);
}

GB_TEST(heuristics, landmarks_farthest_point_rule_bruteforce)
{
    for (int fam = 0; fam < GB_GEN_COUNT; fam++)
        for (uint64_t seed = 1; seed <= 3; seed++) {
            gb_gen_opts o;
            gb_gen_defaults(&o);
            o.family = fam;
            o.width = 40;
            o.height = 30;
            o.percent = 30;
            o.corridor = 2;
            o.room = 8;
            o.seed = seed;
            gb_map m;
            gb_diag d;
            cr_assert_eq(gb_gen_map(&o, &m, &d), 0, "%s", d.msg);
            for (int mo = 0; mo < GB_MODEL_COUNT; mo++) check_selection(&m.grid, (gb_model)mo, 6);
            gb_map_free(&m);
        }
}

GB_TEST(heuristics, landmarks_other_component_is_zero)
{
    /* Left component 3x4 = 12 cells, right one 2x4 = 8 cells. */
    static const char *const rows[] = {
        "...@..", "...@..", "...@..", "...@..",
    };
    gb_map m;
    map_from_rows(&m, rows, 4);
    const gb_grid *g = &m.grid;
    gb_landmarks L;
    cr_assert_eq(gb_landmarks_build(&L, g, GB_MODEL_8_NOCUT, 4), 0);
    cr_assert_eq(L.k, 4);
    for (int l = 0; l < L.k; l++) cr_assert_lt(gb_grid_x(g, L.lm[l]), 3);
    int32_t left = gb_grid_id(g, 0, 0), right = gb_grid_id(g, 5, 3), right2 = gb_grid_id(g, 4, 0);
    cr_assert(isinf(L.dist[right * L.k]));
    cr_assert_eq(gb_landmarks_h(&L, right, right2), 0.0);   /* both outside */
    cr_assert_eq(gb_landmarks_h(&L, left, right), 0.0);     /* goal outside */
    cr_assert_eq(gb_landmarks_h(&L, right, left), 0.0);     /* node outside */
    cr_assert_gt(gb_landmarks_h(&L, left, gb_grid_id(g, 2, 3)), 0.0);
    gb_landmarks_free(&L);

    /* The validator agrees: admissible, consistent, uninformed there. */
    gb_hv *v = gb_hv_new(g, GB_MODEL_8_NOCUT);
    gb_hv_spec s;
    gb_hv_spec_diff(&s, 4, 1.0);
    gb_diag d;
    gb_hv_result r;
    cr_assert_eq(gb_hv_set_goal(v, right, &d), 0);
    cr_assert_eq(gb_hv_eval(v, &s, &r, &d), 0, "%s", d.msg);
    cr_assert_eq(r.reachable, 8);
    cr_assert_eq(r.inadmissible, 0);
    cr_assert_eq(r.inconsistent, 0);
    cr_assert_eq(r.mean_ratio, 0.0);
    cr_assert_eq(r.bins[0], 7);
    gb_hv_result_free(&r);
    gb_hv_free(v);
    gb_map_free(&m);
}

GB_TEST(heuristics, landmarks_real_deterministic_and_exact)
{
    gb_map m;
    load_shared("street/Berlin_0_256.map", &m);
    const gb_grid *g = &m.grid;
    gb_landmarks a, b;
    cr_assert_eq(gb_landmarks_build(&a, g, GB_MODEL_8_NOCUT, 8), 0);
    cr_assert_eq(gb_landmarks_build(&b, g, GB_MODEL_8_NOCUT, 8), 0);
    cr_assert_eq(a.k, 8);
    cr_assert_eq(memcmp(a.lm, b.lm, 8 * sizeof *a.lm), 0, "selection must be deterministic");
    cr_assert_eq(memcmp(a.dist, b.dist, (size_t)g->ncells * 8 * sizeof *a.dist), 0);
    cr_assert_eq(a.bytes, (size_t)g->ncells * 8 * sizeof(double) + 8 * sizeof(int32_t));
    double *ds = malloc((size_t)g->ncells * sizeof *ds);
    for (int l = 0; l < 8; l++) {
        cr_assert_eq(gb_dijkstra_all(g, GB_MODEL_8_NOCUT, a.lm[l], ds), 0);
        for (int32_t i = 0; i < g->ncells; i++) {
            double got = a.dist[(size_t)i * 8 + (size_t)l];
            cr_assert(got == ds[i] || (isinf(got) && isinf(ds[i])),
                      "landmark %d, id %d: expected %.17g, found %.17g", l, (int)i, ds[i], got);
        }
    }
    for (int32_t i = 0; i < g->ncells; i++)
        if (g->pass[i]) cr_assert_eq(gb_landmarks_h(&a, i, i), 0.0, "h(goal, goal) at id %d", (int)i);
    free(ds);
    gb_landmarks_free(&a);
    gb_landmarks_free(&b);
    gb_map_free(&m);
}

/* ---- small maps ------------------------------------------------------- */

GB_TEST(heuristics, small_empty_8x8_exact)
{
    gb_grid g;
    empty_grid(&g, 8, 8);
    gb_hv *v = gb_hv_new(&g, GB_MODEL_8_NOCUT);
    cr_assert_not_null(v);
    gb_diag d;
    gb_hv_spec oct, zero;
    gb_hv_spec_builtin(&oct, GB_H_OCTILE, 1.0);
    gb_hv_spec_builtin(&zero, GB_H_ZERO, 1.0);
    int64_t differ = 0;
    for (int gy = 0; gy < 8; gy++)
        for (int gx = 0; gx < 8; gx++) {
            const int32_t goal = gb_grid_id(&g, gx, gy);
            cr_assert_eq(gb_hv_set_goal(v, goal, &d), 0);
            gb_hv_result r;
            cr_assert_eq(gb_hv_eval(v, &oct, &r, &d), 0);
            cr_assert_eq(r.reachable, 64);
            cr_assert_eq(r.ratio_cells, 63);
            cr_assert_eq(r.inadmissible, 0);
            cr_assert_eq(r.inconsistent, 0);
            /* Octile is exact on an empty grid: Dijkstra's costs are
             * exact step counts (solvers/gb_exact.h) reported as
             * a + b*sqrt2, the closed form's own expression, so they are
             * equal bit for bit (counted below). */
            cr_assert_float_eq(r.mean_ratio, 1.0, 1e-15, "goal (%d,%d): mean ratio %.17g", gx, gy,
                               r.mean_ratio);
            cr_assert_eq(r.bins[GB_HV_NBINS - 1], 63);
            cr_assert_eq(r.over_x, -1);
            cr_assert_eq(r.viol_x1, -1);
            int64_t per_bucket = 0;
            for (int32_t b = 0; b < r.nbuckets; b++) {
                per_bucket += r.bucket_cells[b];
                if (r.bucket_cells[b])
                    cr_assert_float_eq(r.bucket_sum[b] / (double)r.bucket_cells[b], 1.0, 1e-15);
            }
            cr_assert_eq(per_bucket, 63);
            /* every legal move of the 8x8 grid, both directions */
            cr_assert_eq(r.edges, 2 * (2 * 8 * 7 + 2 * 7 * 7));
            gb_hv_result_free(&r);

            const double *hs = gb_hv_hstar(v);
            gb_hctx c = { gx, gy, goal, NULL };
            for (int y = 0; y < 8; y++)
                for (int x = 0; x < 8; x++) {
                    int32_t id = gb_grid_id(&g, x, y);
                    double h = gb_h_octile(&c, id, x, y);
                    cr_assert_float_eq(h, hs[id], 1e-14);
                    differ += h != hs[id];
                }

            cr_assert_eq(gb_hv_eval(v, &zero, &r, &d), 0);
            cr_assert_eq(r.mean_ratio, 0.0);
            cr_assert_eq(r.bins[0], 63);
            gb_hv_result_free(&r);
        }
    cr_assert_eq(differ, 0, "expected the closed form to equal Dijkstra's exact cost bit for bit, "
                 "found %lld cells that differ", (long long)differ);
    gb_hv_free(v);

    /* Model 4: manhattan is exact, octile is not. */
    v = gb_hv_new(&g, GB_MODEL_4);
    int32_t goal = gb_grid_id(&g, 2, 5);
    summary man = check_builtin(v, &goal, 1, GB_H_MANHATTAN, 1.0);
    cr_assert_eq(man.inadmissible, 0);
    cr_assert_eq(man.inconsistent, 0);
    cr_assert_eq(man.mean, 1.0);
    cr_assert_eq(man.edges, 2 * (2 * 8 * 7));
    summary o4 = check_builtin(v, &goal, 1, GB_H_OCTILE, 1.0);
    cr_assert_eq(o4.inadmissible, 0);
    cr_assert_lt(o4.mean, 1.0);
    gb_hv_free(v);
    gb_grid_free(&g);
}

GB_TEST(heuristics, small_manhattan_exact_numbers)
{
    /* Empty 3x3, goal in the centre, 8-nocut: the 4 corners have h* =
     * sqrt 2 and manhattan 2, every other cell is exact. */
    gb_grid g;
    empty_grid(&g, 3, 3);
    gb_hv *v = gb_hv_new(&g, GB_MODEL_8_NOCUT);
    gb_diag d;
    gb_hv_spec s;
    gb_hv_spec_builtin(&s, GB_H_MANHATTAN, 1.0);
    cr_assert_eq(gb_hv_set_goal(v, gb_grid_id(&g, 1, 1), &d), 0);
    gb_hv_result r;
    cr_assert_eq(gb_hv_eval(v, &s, &r, &d), 0);
    cr_assert_eq(r.inadmissible, 4);
    cr_assert_eq(r.max_over, 2.0 - GB_SQRT2);
    cr_assert_eq(r.max_over_ratio, 2.0 / GB_SQRT2);
    cr_assert_eq(r.over_x, 0);   /* first corner in id order */
    cr_assert_eq(r.over_y, 0);
    cr_assert_eq(r.bins[GB_HV_NBINS], 4);
    cr_assert_eq(r.bins[GB_HV_NBINS - 1], 4);
    cr_assert_float_eq(r.mean_ratio, (4.0 + 4.0 * (2.0 / GB_SQRT2)) / 8.0, 1e-15);
    /* corner -> centre diagonal: 2 > sqrt 2 + 0; corner -> side: 2 <= 1 + 1 */
    cr_assert_eq(r.inconsistent, 4);
    cr_assert_eq(r.max_violation, 2.0 - GB_SQRT2);
    cr_assert_eq(r.viol_x1, 0);
    cr_assert_eq(r.viol_y1, 0);
    cr_assert_eq(r.viol_x2, 1);
    cr_assert_eq(r.viol_y2, 1);
    gb_hv_result_free(&r);
    gb_hv_free(v);
    gb_grid_free(&g);
}

GB_TEST(heuristics, small_goal_errors)
{
    static const char *const rows[] = { ".@", ".." };
    gb_map m;
    map_from_rows(&m, rows, 2);
    gb_hv *v = gb_hv_new(&m.grid, GB_MODEL_8_NOCUT);
    gb_diag d;
    gb_hv_result r;
    gb_hv_spec s;
    gb_hv_spec_builtin(&s, GB_H_OCTILE, 1.0);
    cr_assert_eq(gb_hv_eval(v, &s, &r, &d), EX_SOFTWARE);
    cr_assert_str_eq(d.msg, "expected a goal (gb_hv_set_goal), found none");
    cr_assert_null(gb_hv_hstar(v));
    cr_assert_eq(gb_hv_set_goal(v, gb_grid_id(&m.grid, 1, 0), &d), EX_DATAERR);
    cr_assert_str_eq(d.msg, "expected a passable goal cell, found id 6 (1, 0) blocked");
    cr_assert_eq(gb_hv_set_goal(v, gb_grid_id(&m.grid, 1, 1), &d), 0);
    cr_assert_eq(d.code, 0);
    cr_assert_not_null(gb_hv_hstar(v));
    gb_hv_spec_user(&s, "nofn", NULL, NULL, 1.0);
    cr_assert_eq(gb_hv_eval(v, &s, &r, &d), EX_SOFTWARE);
    gb_hv_free(v);
    gb_map_free(&m);
}

/* ---- planted faults --------------------------------------------------- */

static double octile_times_1_5(void *ctx, int32_t id, int32_t x, int32_t y, int32_t goal)
{
    const gb_grid *g = ctx;
    gb_hctx c = { gb_grid_x(g, goal), gb_grid_y(g, goal), goal, NULL };
    return 1.5 * gb_h_octile(&c, id, x, y);
}

typedef struct liar { const gb_grid *g; int32_t cell; } liar;

static double octile_liar(void *ctx, int32_t id, int32_t x, int32_t y, int32_t goal)
{
    const liar *L = ctx;
    gb_hctx c = { gb_grid_x(L->g, goal), gb_grid_y(L->g, goal), goal, NULL };
    return gb_h_octile(&c, id, x, y) + (id == L->cell ? 10.0 : 0.0);
}

GB_TEST(heuristics, broken_weighted_callback_matches_builtin_weight)
{
    gb_map m;
    load_shared("street/Berlin_0_256.map", &m);
    gb_hv *v = gb_hv_new(&m.grid, GB_MODEL_8_NOCUT);
    int32_t goals[2];
    cr_assert_eq(gb_hv_sample_goals(&m.grid, 2, 7, goals), 2);
    gb_hv_spec cb, bw;
    gb_hv_spec_user(&cb, "octile*1.5", octile_times_1_5, &m.grid, 1.0);
    gb_hv_spec_builtin(&bw, GB_H_OCTILE, 1.5);
    gb_diag d;
    for (int i = 0; i < 2; i++) {
        cr_assert_eq(gb_hv_set_goal(v, goals[i], &d), 0);
        gb_hv_result a, b;
        cr_assert_eq(gb_hv_eval(v, &cb, &a, &d), 0);
        cr_assert_eq(gb_hv_eval(v, &bw, &b, &d), 0);
        cr_assert_gt(a.inadmissible, 0);
        cr_assert_gt(a.inconsistent, 0);
        /* the same cells: the weighted built-in and the callback agree
         * (tol differs by the factor max(w,1) only) */
        cr_assert_eq(a.inadmissible, b.inadmissible);
        cr_assert_eq(a.over_x, b.over_x);
        cr_assert_eq(a.over_y, b.over_y);
        const double *hs = gb_hv_hstar(v);
        int32_t id = gb_grid_id(&m.grid, a.over_x, a.over_y);
        double h = octile_times_1_5(&m.grid, id, a.over_x, a.over_y, goals[i]);
        cr_assert_eq(h - hs[id], a.max_over);
        cr_assert_gt(h, hs[id] + 1.0);
        /* a neighbour of the goal at cost 1 gets 1.5 */
        cr_assert_geq(a.max_over_ratio, 1.5 - 1e-12);
        gb_hv_result_free(&a);
        gb_hv_result_free(&b);
    }
    gb_hv_free(v);
    gb_map_free(&m);
}

GB_TEST(heuristics, broken_single_cell_liar_is_found)
{
    gb_map m;
    load_shared("dao/arena.map", &m);
    const gb_grid *g = &m.grid;
    gb_hv *v = gb_hv_new(g, GB_MODEL_8_NOCUT);
    int32_t goal;
    cr_assert_eq(gb_hv_sample_goals(g, 1, 3, &goal), 1);
    gb_diag d;
    cr_assert_eq(gb_hv_set_goal(v, goal, &d), 0);
    const double *hs = gb_hv_hstar(v);
    /* The liar: the first cell (id order) with h* > 20 where octile is
     * exact, so that +10 is an overestimate of exactly 10. */
    gb_hctx c = { gb_grid_x(g, goal), gb_grid_y(g, goal), goal, NULL };
    liar L = { g, -1 };
    for (int32_t id = 0; id < g->ncells && L.cell < 0; id++)
        if (hs[id] < INFINITY && hs[id] > 20.0
            && gb_h_octile(&c, id, gb_grid_x(g, id), gb_grid_y(g, id)) == hs[id])
            L.cell = id;
    cr_assert_geq(L.cell, 0, "no straight-line cell found");
    const int32_t lx = gb_grid_x(g, L.cell), ly = gb_grid_y(g, L.cell);

    gb_hv_spec s;
    gb_hv_spec_user(&s, "liar", octile_liar, &L, 1.0);
    gb_hv_result r;
    cr_assert_eq(gb_hv_eval(v, &s, &r, &d), 0);
    cr_assert_eq(r.inadmissible, 1);
    cr_assert_eq(r.over_x, lx);
    cr_assert_eq(r.over_y, ly);
    cr_assert_float_eq(r.max_over, 10.0, 1e-12);
    cr_assert_eq(r.bins[GB_HV_NBINS], 1);
    /* Every move out of the liar violates (10 > c + octile step change);
     * no move into it does (a larger h(n') only helps). */
    cr_assert_eq(r.inconsistent, popcount8(gb_hv_moves(v)[L.cell]));
    cr_assert_eq(r.viol_x1, lx);
    cr_assert_eq(r.viol_y1, ly);
    cr_assert_leq(abs(r.viol_x2 - lx), 1);
    cr_assert_leq(abs(r.viol_y2 - ly), 1);
    cr_assert_gt(r.max_violation, 10.0 - 2.0 * GB_SQRT2);
    gb_hv_result_free(&r);

    /* Without the lie: clean. */
    L.cell = -1;
    cr_assert_eq(gb_hv_eval(v, &s, &r, &d), 0);
    cr_assert_eq(r.inadmissible, 0);
    cr_assert_eq(r.inconsistent, 0);
    gb_hv_result_free(&r);
    gb_hv_free(v);
    gb_map_free(&m);
}

/* ---- real maps -------------------------------------------------------- */

static const char *const real_maps[] = {
    "dao/arena.map", "bgmaps/AR0011SR.map", "mazes/maze512-4-0.map",
    "random/random512-10-0.map", "street/Berlin_0_256.map", "mapf/den312d.map",
    "wc3/divideandconquer.map",
};
#define NREAL (int)(sizeof real_maps / sizeof real_maps[0])

GB_TEST(heuristics, real_octile_admissible_consistent_8nocut)
{
    for (int i = 0; i < NREAL; i++) {
        gb_map m;
        load_shared(real_maps[i], &m);
        gb_hv *v = gb_hv_new(&m.grid, GB_MODEL_8_NOCUT);
        int32_t goals[3];
        cr_assert_eq(gb_hv_sample_goals(&m.grid, 3, 1, goals), 3);
        summary o = check_builtin(v, goals, 3, GB_H_OCTILE, 1.0);
        cr_assert_eq(o.inadmissible, 0, "%s: octile overestimates at %lld cells", real_maps[i],
                     (long long)o.inadmissible);
        cr_assert_eq(o.inconsistent, 0, "%s: octile inconsistent on %lld moves", real_maps[i],
                     (long long)o.inconsistent);
        cr_assert_gt(o.mean, 0.1);
        cr_assert_leq(o.mean, 1.0);
        gb_hv_free(v);
        gb_map_free(&m);
    }
}

GB_TEST(heuristics, real_manhattan_overestimates_on_8_connected)
{
    static const char *const maps[] = { "dao/arena.map", "mazes/maze512-4-0.map",
                                        "street/Berlin_0_256.map" };
    for (int i = 0; i < 3; i++) {
        gb_map m;
        load_shared(maps[i], &m);
        const gb_grid *g = &m.grid;
        for (int mo = 0; mo < GB_MODEL_COUNT; mo++) {
            gb_hv *v = gb_hv_new(g, (gb_model)mo);
            int32_t goal;
            cr_assert_eq(gb_hv_sample_goals(g, 1, 1, &goal), 1);
            gb_diag d;
            cr_assert_eq(gb_hv_set_goal(v, goal, &d), 0);
            gb_hv_spec s;
            gb_hv_spec_builtin(&s, GB_H_MANHATTAN, 1.0);
            gb_hv_result r;
            cr_assert_eq(gb_hv_eval(v, &s, &r, &d), 0);
            if (mo == GB_MODEL_4) {
                cr_assert_eq(r.inadmissible, 0, "%s model 4", maps[i]);
                cr_assert_eq(r.inconsistent, 0, "%s model 4", maps[i]);
            } else {
                cr_assert_gt(r.inadmissible, 0, "%s %s", maps[i], gb_model_name((gb_model)mo));
                cr_assert_gt(r.inconsistent, 0);
                /* the example cell really overestimates, by max_over */
                int32_t id = gb_grid_id(g, r.over_x, r.over_y);
                gb_hctx c = { r.goal_x, r.goal_y, goal, NULL };
                double h = gb_h_manhattan(&c, id, r.over_x, r.over_y), hs = gb_hv_hstar(v)[id];
                cr_assert_gt(h, hs + r.tol);
                cr_assert_eq(h - hs, r.max_over);
                cr_assert_geq(r.max_over_ratio, h / hs);
                cr_assert_eq(r.bins[GB_HV_NBINS], r.inadmissible);   /* goal itself is exact */
                /* the largest violation is a diagonal: 2 - sqrt 2 */
                cr_assert_float_eq(r.max_violation, 2.0 - GB_SQRT2, 1e-12);
                cr_assert_eq(abs(r.viol_x2 - r.viol_x1) + abs(r.viol_y2 - r.viol_y1), 2);
            }
            int adm, cons;
            cr_assert_eq(gb_hv_claim(&s, (gb_model)mo, &adm, &cons), 1);
            cr_assert_eq(adm, r.inadmissible == 0, "registry claim for manhattan on %s",
                         gb_model_name((gb_model)mo));
            gb_hv_result_free(&r);
            gb_hv_free(v);
        }
        gb_map_free(&m);
    }
}

GB_TEST(heuristics, real_euclidean_chebyshev_weaker_than_octile)
{
    static const char *const maps[] = { "dao/arena.map", "bgmaps/AR0011SR.map",
                                        "street/Berlin_0_256.map", "mapf/den312d.map" };
    for (int i = 0; i < 4; i++) {
        gb_map m;
        load_shared(maps[i], &m);
        gb_hv *v = gb_hv_new(&m.grid, GB_MODEL_8_NOCUT);
        int32_t goals[2];
        cr_assert_eq(gb_hv_sample_goals(&m.grid, 2, 1, goals), 2);
        summary o = check_builtin(v, goals, 2, GB_H_OCTILE, 1.0);
        summary e = check_builtin(v, goals, 2, GB_H_EUCLIDEAN, 1.0);
        summary c = check_builtin(v, goals, 2, GB_H_CHEBYSHEV, 1.0);
        cr_assert_eq(e.inadmissible + e.inconsistent, 0, "%s euclidean", maps[i]);
        cr_assert_eq(c.inadmissible + c.inconsistent, 0, "%s chebyshev", maps[i]);
        cr_assert_lt(e.mean, o.mean, "%s: euclidean %.4f vs octile %.4f", maps[i], e.mean, o.mean);
        cr_assert_lt(c.mean, e.mean, "%s: chebyshev %.4f vs euclidean %.4f", maps[i], c.mean, e.mean);
        gb_hv_free(v);
        gb_map_free(&m);
    }
}

GB_TEST(heuristics, real_weighted_octile_inadmissible)
{
    static const char *const maps[] = { "dao/arena.map", "random/random512-10-0.map" };
    for (int i = 0; i < 2; i++) {
        gb_map m;
        load_shared(maps[i], &m);
        gb_hv *v = gb_hv_new(&m.grid, GB_MODEL_8_NOCUT);
        int32_t goals[2];
        cr_assert_eq(gb_hv_sample_goals(&m.grid, 2, 1, goals), 2);
        summary w = check_builtin(v, goals, 2, GB_H_OCTILE, 1.5);
        summary w1 = check_builtin(v, goals, 2, GB_H_OCTILE, 0.5);
        cr_assert_gt(w.inadmissible, 0, "%s", maps[i]);
        cr_assert_gt(w.inconsistent, 0, "%s", maps[i]);
        cr_assert_eq(w1.inadmissible + w1.inconsistent, 0, "%s w = 0.5", maps[i]);
        gb_hv_spec s;
        int adm, cons;
        gb_hv_spec_builtin(&s, GB_H_OCTILE, 1.5);
        cr_assert_eq(gb_hv_claim(&s, GB_MODEL_8_NOCUT, &adm, &cons), 0, "no claim for w > 1");
        gb_hv_free(v);
        gb_map_free(&m);
    }
}

GB_TEST(heuristics, real_diff_admissible_consistent_more_informed)
{
    static const char *const maps[] = { "mazes/maze512-4-0.map", "street/Berlin_0_256.map" };
    for (int i = 0; i < 2; i++) {
        gb_map m;
        load_shared(maps[i], &m);
        gb_hv *v = gb_hv_new(&m.grid, GB_MODEL_8_NOCUT);
        int32_t goals[3];
        cr_assert_eq(gb_hv_sample_goals(&m.grid, 3, 1, goals), 3);
        summary o = check_builtin(v, goals, 3, GB_H_OCTILE, 1.0);
        summary df = check_diff(v, goals, 3, 8);
        cr_assert_eq(df.inadmissible, 0, "%s: diff:k=8 overestimates at %lld cells", maps[i],
                     (long long)df.inadmissible);
        cr_assert_eq(df.inconsistent, 0, "%s: diff:k=8 inconsistent on %lld moves", maps[i],
                     (long long)df.inconsistent);
        cr_assert_gt(df.mean, o.mean, "%s: diff %.4f vs octile %.4f", maps[i], df.mean, o.mean);
        const gb_landmarks *L = gb_hv_landmarks(v, 8);
        cr_assert_not_null(L);
        cr_assert_eq(L->k, 8);
        cr_assert_eq(L->model, GB_MODEL_8_NOCUT);
        cr_assert_eq(gb_hv_landmarks(v, 8), L, "the table is cached");
        gb_hv_free(v);
        gb_map_free(&m);
    }
}

GB_TEST(heuristics, real_diff_admissible_every_map_and_model)
{
    for (int i = 0; i < NREAL; i++) {
        gb_map m;
        load_shared(real_maps[i], &m);
        /* 8-nocut and 4 (a sanitizer build: 8-nocut, the same code) */
        for (int mo = 0; mo < GB_MODEL_COUNT; mo += gb_test_san() ? GB_MODEL_COUNT : 3) {
            gb_hv *v = gb_hv_new(&m.grid, (gb_model)mo);
            int32_t goals[2];
            cr_assert_eq(gb_hv_sample_goals(&m.grid, 2, 5, goals), 2);
            summary df = check_diff(v, goals, 2, 8);
            cr_assert_eq(df.inadmissible + df.inconsistent, 0, "%s %s", real_maps[i],
                         gb_model_name((gb_model)mo));
            gb_hv_free(v);
        }
        gb_map_free(&m);
    }
}

/* ---- parsing, claims, goals ------------------------------------------- */

GB_TEST(heuristics, parse_specs)
{
    gb_hv_spec s;
    char err[256];
    cr_assert_eq(gb_hv_parse("octile", &s, err, sizeof err), 0);
    cr_assert_eq(s.kind, GB_HV_BUILTIN);
    cr_assert_eq(s.heur, GB_H_OCTILE);
    cr_assert_eq(s.weight, 1.0);
    cr_assert_str_eq(s.name, "octile");
    cr_assert_eq(gb_hv_parse("octile:w=1.2", &s, err, sizeof err), 0);
    cr_assert_eq(s.weight, 1.2);
    cr_assert_eq(gb_hv_parse("diff", &s, err, sizeof err), 0);
    cr_assert_eq(s.kind, GB_HV_DIFF);
    cr_assert_eq(s.k, GB_HV_DEFAULT_K);
    cr_assert_str_eq(s.name, "diff:k=8");
    cr_assert_eq(gb_hv_parse("diff:w=0.5:k=16", &s, err, sizeof err), 0);
    cr_assert_eq(s.k, 16);
    cr_assert_eq(s.weight, 0.5);
    cr_assert_str_eq(s.name, "diff:k=16");

    cr_assert_eq(gb_hv_parse("octle", &s, err, sizeof err), -1);
    cr_assert_str_eq(err, "expected a heuristic name (zero, manhattan, octile, euclidean, "
                          "chebyshev, diff), found 'octle'");
    cr_assert_eq(gb_hv_parse("octile:k=3", &s, err, sizeof err), -1);
    cr_assert_str_eq(err, "octile:k=3: expected parameter w=W (at most once), found 'k=3'");
    cr_assert_eq(gb_hv_parse("diff:k=65", &s, err, sizeof err), -1);
    cr_assert_str_eq(err, "diff:k=65: expected k from 1 to 64, found '65'");
    cr_assert_eq(gb_hv_parse("octile:w=0", &s, err, sizeof err), -1);
    cr_assert_str_eq(err, "octile:w=0: expected a weight w > 0 and <= 1e+06, found '0'");
    cr_assert_eq(gb_hv_parse("octile:w=nan", &s, err, sizeof err), -1);
    cr_assert_eq(gb_hv_parse("octile:w=1:w=2", &s, err, sizeof err), -1);
    cr_assert_eq(gb_hv_parse("diff:x=1", &s, err, sizeof err), -1);
    cr_assert_str_eq(err, "diff:x=1: expected parameter k=K or w=W (each at most once), found 'x=1'");
}

GB_TEST(heuristics, claims_follow_the_registry)
{
    gb_hv_spec s;
    int adm = -1, cons = -1;
    for (int h = 0; h < GB_H_NSIMPLE; h++)
        for (int mo = 0; mo < GB_MODEL_COUNT; mo++) {
            gb_hv_spec_builtin(&s, (gb_heur)h, 1.0);
            cr_assert_eq(gb_hv_claim(&s, (gb_model)mo, &adm, &cons), 1);
            cr_assert_eq(adm, gb_heur_admissible((gb_heur)h, (gb_model)mo) != 0);
            cr_assert_eq(cons, gb_heur_consistent((gb_heur)h, (gb_model)mo) != 0);
        }
    gb_hv_spec_diff(&s, 8, 1.0);
    cr_assert_eq(gb_hv_claim(&s, GB_MODEL_4, &adm, &cons), 1);
    cr_assert(adm && cons);
    gb_hv_spec_diff(&s, 8, 2.0);
    cr_assert_eq(gb_hv_claim(&s, GB_MODEL_4, &adm, &cons), 0);
    gb_hv_spec_user(&s, "mine", octile_times_1_5, NULL, 1.0);
    cr_assert_eq(gb_hv_claim(&s, GB_MODEL_4, &adm, &cons), 0);
}

GB_TEST(heuristics, goals_sampled_reproducibly)
{
    static const char *const rows[] = { ".@..", "..@.", "@..." };
    gb_map m;
    map_from_rows(&m, rows, 3);
    const gb_grid *g = &m.grid;
    int32_t a[16], b[16], c[16];
    cr_assert_eq(gb_hv_sample_goals(g, 5, 1, a), 5);
    cr_assert_eq(gb_hv_sample_goals(g, 5, 1, b), 5);
    cr_assert_eq(memcmp(a, b, sizeof a[0] * 5), 0);
    cr_assert_eq(gb_hv_sample_goals(g, 16, 1, c), 9, "capped at npassable");
    for (int i = 0; i < 9; i++) {
        cr_assert(g->pass[c[i]]);
        for (int j = 0; j < i; j++) cr_assert_neq(c[i], c[j]);
    }
    int differs = 0;
    for (uint64_t s = 2; s < 10 && !differs; s++) {
        cr_assert_eq(gb_hv_sample_goals(g, 5, s, b), 5);
        differs = memcmp(a, b, sizeof a[0] * 5) != 0;
    }
    cr_assert(differs, "other seeds give other goals");
    cr_assert_eq(gb_hv_sample_goals(g, 0, 1, a), 0);
    gb_map_free(&m);
}

GB_TEST(heuristics, goals_from_scenario_distinct_and_passable)
{
    static const char *const rows[] = { "....", "..@.", "...." };
    gb_map m;
    map_from_rows(&m, rows, 3);
    static const char scen_text[] =
        "version 1\n"
        "0\tt.map\t4\t3\t0\t0\t3\t2\t3.82842712\n"
        "0\tt.map\t4\t3\t0\t1\t3\t2\t3.41421356\n"
        "0\tt.map\t4\t3\t0\t0\t2\t1\t2.41421356\n"   /* blocked goal */
        "0\tt.map\t4\t3\t3\t2\t0\t0\t3.82842712\n"
        "0\tt.map\t4\t3\t1\t0\t3\t2\t3.41421356\n";
    gb_scen s;
    gb_diag d;
    cr_assert_eq(gb_scen_parse("t.scen", scen_text, sizeof scen_text - 1, &s, &d), 0, "%s", d.msg);
    int32_t out[5], skipped = -1;
    cr_assert_eq(gb_hv_scen_goals(&s, &m.grid, 0, out, &skipped), 2);
    cr_assert_eq(skipped, 1);
    cr_assert_eq(out[0], gb_grid_id(&m.grid, 3, 2));
    cr_assert_eq(out[1], gb_grid_id(&m.grid, 0, 0));
    cr_assert_eq(gb_hv_scen_goals(&s, &m.grid, 1, out, NULL), 1);
    gb_scen_free(&s);
    gb_map_free(&m);
}

/* ---- the command ------------------------------------------------------ */

static void redirect_all(void)
{
    cr_redirect_stderr();
    cr_redirect_stdout();
}

static int run_cmd(const char *const *args)
{
    char *argv[32];
    int argc = 0;
    argv[argc++] = (char *)"heuristics";
    for (; *args; args++) argv[argc++] = (char *)*args;
    argv[argc] = NULL;
    return gb_cmd_heuristics(argc, argv);
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "%s: %s", path, strerror(errno));
    static char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    return buf;
}

static int count_lines(const char *s)
{
    int n = 0;
    for (; *s; s++) n += *s == '\n';
    return n;
}

/* Write a generated 24x24 random map into dir; its path into path. */
static void write_test_map(const char *dir, char *path, size_t n)
{
    gb_gen_opts o;
    gb_gen_defaults(&o);
    o.width = o.height = 24;
    o.percent = 15;
    o.seed = 3;
    gb_map m;
    gb_diag d;
    cr_assert_eq(gb_gen_map(&o, &m, &d), 0);
    snprintf(path, n, "%s/t.map", dir);
    cr_assert_eq(gb_map_write(path, &m, &d), 0, "%s", d.msg);
    gb_map_free(&m);
}

GB_TEST(heuristics, cli_csv_hist_and_exit_codes, .init = redirect_all)
{
    char dir[] = "/tmp/gb-test-heur-XXXXXX", map[256], out[256], hist[256];
    cr_assert_not_null(mkdtemp(dir));
    write_test_map(dir, map, sizeof map);
    snprintf(out, sizeof out, "%s/h.csv", dir);
    snprintf(hist, sizeof hist, "%s/b.csv", dir);

    const char *a1[] = { map, "--goals", "3", "--heuristic", "all,octile:w=1.5", "--out", out,
                         "--hist", hist, "--quiet", NULL };
    cr_assert_eq(run_cmd(a1), 0);
    char *csv = slurp(out);
    const char *hdr = "map,model,heuristic,weight,goal_x,goal_y,reachable,eccentricity,tol,"
                      "inadmissible_cells,max_over,max_over_ratio,over_x,over_y,edges,"
                      "inconsistent_edges,max_violation,viol_x1,viol_y1,viol_x2,viol_y2,"
                      "mean_ratio,ratio_cells,ratio_bin_00,";
    cr_assert_eq(strncmp(csv, hdr, strlen(hdr)), 0, "header: %.200s", csv);
    cr_assert(strstr(csv, "ratio_bin_19,ratio_bin_over\n") != NULL);
    cr_assert_eq(count_lines(csv), 1 + 3 * 7, "7 heuristics x 3 goals + header");
    cr_assert(strstr(csv, "\nt.map,8-nocut,diff:k=8,1,") != NULL);
    cr_assert(strstr(csv, "\nt.map,8-nocut,octile,1.5,") != NULL);
    char *h = slurp(hist);
    const char *hh = "heuristic,weight,bucket,lo,hi,mean_ratio,cells\nzero,1,0,0,4,0,";
    cr_assert_eq(strncmp(h, hh, strlen(hh)), 0, "hist: %.100s", h);
    char tmpname[300];
    snprintf(tmpname, sizeof tmpname, "%s.tmp.%ld", out, (long)getpid());
    cr_assert_neq(access(tmpname, F_OK), 0, "temporary left behind");

    const char *a2[] = { map, "-g", "2", "-H", "manhattan", "--out", out, "-q",
                         "--require-admissible", NULL };
    cr_assert_eq(run_cmd(a2), 1);
    const char *a3[] = { map, "-g", "2", "-H", "octile,diff:k=4", "--out", out, "-q",
                         "--require-admissible", "--require-consistent", NULL };
    cr_assert_eq(run_cmd(a3), 0);
    cr_assert_eq(count_lines(slurp(out)), 1 + 2 * 2);
    const char *a4[] = { map, "-g", "2", "-H", "octile:w=1.5", "--out", out, "-q",
                         "--require-consistent", NULL };
    cr_assert_eq(run_cmd(a4), 1);
    const char *a5[] = { map, "-m", "4", "-g", "2", "-H", "manhattan", "--out", out, "-q",
                         "--require-admissible", "--require-consistent", NULL };
    cr_assert_eq(run_cmd(a5), 0);

    unlink(out);
    unlink(hist);
    unlink(map);
    rmdir(dir);
}

GB_TEST(heuristics, cli_usage_and_input_errors, .init = redirect_all)
{
    const char *help[] = { "--help", NULL };
    cr_assert_eq(run_cmd(help), 0);
    const char *none[] = { NULL };
    cr_assert_eq(run_cmd(none), EX_USAGE);
    const char *bad_h[] = { "x.map", "-H", "octle", NULL };
    cr_assert_eq(run_cmd(bad_h), EX_USAGE);
    const char *bad_m[] = { "x.map", "-m", "6", NULL };
    cr_assert_eq(run_cmd(bad_m), EX_USAGE);
    const char *bad_g[] = { "x.map", "--goals", "0", NULL };
    cr_assert_eq(run_cmd(bad_g), EX_USAGE);
    const char *two[] = { "x.map", "y.map", NULL };
    cr_assert_eq(run_cmd(two), EX_USAGE);
    const char *missing[] = { "/nonexistent/x.map", "-q", NULL };
    cr_assert_eq(run_cmd(missing), EX_NOINPUT);
}

GB_TEST(heuristics, cli_scenario_goals, .init = redirect_all)
{
    const char *dir = shared_dir();
    if (!dir) cr_skip_test("no shared Moving AI directory (set GB_SHARED)");
    char scen[4096], out[] = "/tmp/gb-test-heur-scen-XXXXXX";
    snprintf(scen, sizeof scen, "%s/wc3/divideandconquer.map.scen", dir);
    int fd = mkstemp(out);
    cr_assert_geq(fd, 0);
    close(fd);
    /* MAP resolved from the scenario; its blocked goals are skipped. */
    const char *a[] = { "--scen", scen, "--goals", "3", "-H", "octile", "--out", out, "-q",
                        "--require-admissible", NULL };
    cr_assert_eq(run_cmd(a), 0);
    char *csv = slurp(out);
    cr_assert_eq(count_lines(csv), 4);
    cr_assert(strstr(csv, "\ndivideandconquer.map,8-nocut,octile,1,") != NULL);
    unlink(out);
}

/* Without --out: the verdict table on stdout, no CSV; --out -: the CSV on
 * stdout, the table on stderr; a failed --require-* names the culprits. */
GB_TEST(heuristics, cli_human_summary_without_out)
{
    const char *bin = getenv("GB_BIN");
    if (!bin || !bin[0]) cr_skip_test("GB_BIN is not set (make test sets it)");
    char dir[] = "/tmp/gb-test-heur-sum-XXXXXX", map[256], cmd[2048], op[300], ep[300];
    cr_assert_not_null(mkdtemp(dir));
    write_test_map(dir, map, sizeof map);
    snprintf(op, sizeof op, "%s/stdout", dir);
    snprintf(ep, sizeof ep, "%s/stderr", dir);
    snprintf(cmd, sizeof cmd, "'%s' heuristics -q -g 2 -H octile,manhattan,octile:w=1.5 --require-admissible "
             "'%s' >'%s' 2>'%s'", bin, map, op, ep);
    int st = system(cmd);
    cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 1, "exit status %d", st);
    char *o = strdup(slurp(op));
    char *e = strdup(slurp(ep));
    cr_expect(strstr(o, "map,model,heuristic") == NULL, "a CSV on stdout without --out:\n%s", o);
    cr_expect(count_lines(o) < 15, "stdout floods: %d lines", count_lines(o));
    cr_expect(strstr(o, "\noctile                1  8-nocut  admissible+consistent ") != NULL, "%s", o);
    cr_expect(strstr(o, "\nmanhattan             1  8-nocut  neither ") != NULL, "%s", o);
    cr_expect(strstr(o, "(one CSV row per heuristic x goal: --out FILE, or --out - for standard output)") != NULL,
              "%s", o);
    cr_expect(strstr(e, "gridbench heuristics: --require-admissible failed: manhattan (w=1) overestimates "
                        "under 8-nocut at ") != NULL, "%s", e);
    cr_expect(strstr(e, "gridbench heuristics: --require-admissible failed: octile (w=1.5) overestimates") != NULL,
              "%s", e);
    cr_expect(strstr(e, "failed: octile (w=1) ") == NULL, "%s", e);
    free(o);
    free(e);
    /* --out -: the CSV on stdout (header + 2 goals x 3), the table on stderr */
    snprintf(cmd, sizeof cmd, "'%s' heuristics -q -g 2 -H octile,manhattan,octile:w=1.5 --out - '%s' >'%s' 2>'%s'",
             bin, map, op, ep);
    st = system(cmd);
    cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "exit status %d", st);
    o = strdup(slurp(op));
    e = strdup(slurp(ep));
    cr_expect(strncmp(o, "map,model,heuristic,weight,", 27) == 0, "%.200s", o);
    cr_expect_eq(count_lines(o), 1 + 2 * 3);
    cr_expect(strstr(e, "admissible+consistent") != NULL, "%s", e);
    free(o);
    free(e);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

/* --verdicts FILE: the verdict table as CSV, one row per heuristic, the
 * same verdicts as the human table; a file named twice is refused. */
GB_TEST(heuristics, cli_verdicts_csv)
{
    const char *bin = getenv("GB_BIN");
    if (!bin || !bin[0]) cr_skip_test("GB_BIN is not set (make test sets it)");
    char dir[] = "/tmp/gb-test-heur-verd-XXXXXX", map[256], vp[300];
    cr_assert_not_null(mkdtemp(dir));
    write_test_map(dir, map, sizeof map);
    snprintf(vp, sizeof vp, "%s/v.csv", dir);
    char out[4096];
    int rc = gb_test_sh(out, sizeof out, "'%s' heuristics -q -g 2 -H octile,manhattan,octile:w=1.5 "
                        "--verdicts '%s' '%s'", bin, vp, map);
    cr_assert_eq(rc, 0, "%s", out);
    char *v = strdup(slurp(vp));
    cr_expect(strncmp(v, "map,model,heuristic,weight,goals,verdict,inadmissible_cells,max_over,"
                         "inconsistent_edges,max_violation,mean_ratio,registry\n", 119) == 0, "%s", v);
    cr_expect_eq(count_lines(v), 4, "%s", v);
    cr_expect(strstr(v, ",8-nocut,octile,1,2,admissible+consistent,0,0,0,0,") != NULL, "%s", v);
    cr_expect(strstr(v, ",8-nocut,manhattan,1,2,neither,") != NULL, "%s", v);
    cr_expect(strstr(v, ",8-nocut,octile,1.5,2,neither,") != NULL && strstr(v, ",no claim (w > 1)\n") != NULL,
              "%s", v);
    free(v);
    rc = gb_test_sh(out, sizeof out, "'%s' heuristics -q -g 2 --hist '%s' --verdicts '%s' '%s'", bin, vp, vp, map);
    cr_expect_eq(rc, 64, "%s", out);
    cr_expect(strstr(out, "expected --verdicts to name a file of its own") != NULL, "%s", out);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}
