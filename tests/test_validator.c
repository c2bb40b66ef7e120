/*
 * test_validator.c -- the independent path validator accepts legal paths
 * with exact step counts and rejects every kind of illegal one, with a
 * message that says what was expected and what was found.
 */
#include "gb_test.h"
#include <math.h>
#include <string.h>

#include "gb_grid.h"
#include "gb_validate.h"

/* Build a grid from rows of '.' (free) and '@' (blocked). */
static void grid_from(gb_grid *g, const char *const *rows, int h)
{
    int w = (int)strlen(rows[0]);
    cr_assert_eq(gb_grid_init(g, w, h), 0);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            g->pass[gb_grid_id(g, x, y)] = rows[y][x] == '.';
    gb_grid_recount(g);
}

static const char *const open4[] = { "....", "....", "....", "...." };
/* (1,1) blocked: a diagonal (0,0)->(1,... passes it */
static const char *const corner[] = { "..", ".@" };
static const char *const squeeze[] = { ".@", "@." };

#define XY(a, b) ((gb_xy){ (a), (b) })

GB_TEST(validator, accepts_a_straight_and_diagonal_path_with_exact_counts)
{
    gb_grid g;
    grid_from(&g, open4, 4);
    gb_xy p[] = { XY(0, 0), XY(1, 1), XY(2, 2), XY(3, 2) };
    gb_check c;
    cr_assert(gb_validate_path(&g, GB_MODEL_8_NOCUT, XY(0, 0), XY(3, 2), p, 4,
                               1.0 + 2 * GB_SQRT2, &c), "%s", c.msg);
    cr_expect_eq(c.straight, 1);
    cr_expect_eq(c.diag, 2);
    cr_expect_eq(c.bad_step, -1);
    cr_expect_str_empty(c.msg);
    gb_grid_free(&g);
}

GB_TEST(validator, start_equals_goal_is_a_one_cell_path_of_cost_zero)
{
    gb_grid g;
    grid_from(&g, open4, 4);
    gb_xy p[] = { XY(2, 1) };
    gb_check c;
    cr_assert(gb_validate_path(&g, GB_MODEL_8_NOCUT, XY(2, 1), XY(2, 1), p, 1, 0.0, &c));
    cr_expect_eq(c.cost, 0.0);
    gb_grid_free(&g);
}

GB_TEST(validator, rejects_corner_cutting_under_the_default_model)
{
    gb_grid g;
    const char *const rows[] = { "..", "@." };   /* (0,1) blocked */
    grid_from(&g, rows, 2);
    gb_xy p[] = { XY(0, 0), XY(1, 1) };
    gb_check c;
    cr_assert_not(gb_validate_path(&g, GB_MODEL_8_NOCUT, XY(0, 0), XY(1, 1), p, 2, GB_SQRT2, &c));
    cr_expect_eq(c.bad_step, 0);
    cr_expect_str_eq(c.msg, "step 0: expected a legal move under model 8-nocut, found a diagonal "
                            "step cutting a blocked corner (0,0) -> (1,1)");
    /* the same step is legal when one blocked corner may be cut */
    cr_expect(gb_validate_path(&g, GB_MODEL_8_CUT1, XY(0, 0), XY(1, 1), p, 2, GB_SQRT2, &c), "%s", c.msg);
    gb_grid_free(&g);
}

GB_TEST(validator, cut1_rejects_squeezing_between_two_blocked_cells_cutall_allows_it)
{
    gb_grid g;
    grid_from(&g, squeeze, 2);
    gb_xy p[] = { XY(0, 0), XY(1, 1) };
    gb_check c;
    cr_expect_not(gb_validate_path(&g, GB_MODEL_8_CUT1, XY(0, 0), XY(1, 1), p, 2, GB_SQRT2, &c));
    cr_expect(strstr(c.msg, "squeezing") != NULL, "%s", c.msg);
    cr_expect(gb_validate_path(&g, GB_MODEL_8_CUTALL, XY(0, 0), XY(1, 1), p, 2, GB_SQRT2, &c), "%s", c.msg);
    gb_grid_free(&g);
}

GB_TEST(validator, rejects_diagonals_on_the_4_connected_model)
{
    gb_grid g;
    grid_from(&g, open4, 4);
    gb_xy p[] = { XY(0, 0), XY(1, 1) };
    gb_check c;
    cr_expect_not(gb_validate_path(&g, GB_MODEL_4, XY(0, 0), XY(1, 1), p, 2, GB_SQRT2, &c));
    cr_expect(strstr(c.msg, "4-connected") != NULL, "%s", c.msg);
    gb_grid_free(&g);
}

GB_TEST(validator, rejects_a_step_into_a_wall)
{
    gb_grid g;
    grid_from(&g, corner, 2);
    gb_xy p[] = { XY(1, 0), XY(1, 1) };
    gb_check c;
    cr_assert_not(gb_validate_path(&g, GB_MODEL_8_NOCUT, XY(1, 0), XY(1, 1), p, 2, 1.0, &c));
    cr_expect_str_eq(c.msg, "step 0: expected a passable cell, found (1,1) blocked or outside the map");
    gb_grid_free(&g);
}

GB_TEST(validator, rejects_a_step_off_the_map)
{
    gb_grid g;
    grid_from(&g, open4, 4);
    gb_xy p[] = { XY(0, 0), XY(-1, 0), XY(0, 0) };
    gb_check c;
    cr_expect_not(gb_validate_path(&g, GB_MODEL_8_NOCUT, XY(0, 0), XY(0, 0), p, 3, 2.0, &c));
    cr_expect_eq(c.bad_step, 0);
    gb_grid_free(&g);
}

GB_TEST(validator, rejects_a_jump_and_a_zero_step)
{
    gb_grid g;
    grid_from(&g, open4, 4);
    gb_xy jump[] = { XY(0, 0), XY(2, 0) };
    gb_check c;
    cr_assert_not(gb_validate_path(&g, GB_MODEL_8_NOCUT, XY(0, 0), XY(2, 0), jump, 2, 2.0, &c));
    cr_expect_str_eq(c.msg, "step 0: expected a move to an adjacent cell, found (0,0) -> (2,0)");
    gb_xy stay[] = { XY(0, 0), XY(0, 0), XY(1, 0) };
    cr_expect_not(gb_validate_path(&g, GB_MODEL_8_NOCUT, XY(0, 0), XY(1, 0), stay, 3, 1.0, &c));
    cr_expect_eq(c.bad_step, 0);
    gb_grid_free(&g);
}

GB_TEST(validator, rejects_wrong_endpoints_and_empty_paths)
{
    gb_grid g;
    grid_from(&g, open4, 4);
    gb_xy p[] = { XY(0, 0), XY(1, 0) };
    gb_check c;
    cr_expect_not(gb_validate_path(&g, GB_MODEL_8_NOCUT, XY(0, 1), XY(1, 0), p, 2, 1.0, &c));
    cr_expect_str_eq(c.msg, "expected the path to start at (0,1), found (0,0)");
    cr_expect_not(gb_validate_path(&g, GB_MODEL_8_NOCUT, XY(0, 0), XY(2, 0), p, 2, 1.0, &c));
    cr_expect_str_eq(c.msg, "expected the path to end at (2,0), found (1,0)");
    cr_expect_not(gb_validate_path(&g, GB_MODEL_8_NOCUT, XY(0, 0), XY(1, 0), p, 0, 1.0, &c));
    cr_expect(strstr(c.msg, "empty path") != NULL, "%s", c.msg);
    gb_grid_free(&g);
}

GB_TEST(validator, rejects_a_wrong_reported_cost_but_tolerates_rounding)
{
    gb_grid g;
    grid_from(&g, open4, 4);
    gb_xy p[] = { XY(0, 0), XY(1, 1), XY(2, 2), XY(3, 3) };
    gb_check c;
    double exact = 3 * GB_SQRT2;
    /* the cost as a search accumulates it, one addition per step */
    double summed = GB_SQRT2 + GB_SQRT2 + GB_SQRT2;
    cr_expect(gb_validate_path(&g, GB_MODEL_8_NOCUT, XY(0, 0), XY(3, 3), p, 4, summed, &c), "%s", c.msg);
    cr_expect(gb_validate_path(&g, GB_MODEL_8_NOCUT, XY(0, 0), XY(3, 3), p, 4, nextafter(exact, 10), &c));
    cr_expect_not(gb_validate_path(&g, GB_MODEL_8_NOCUT, XY(0, 0), XY(3, 3), p, 4, exact + 1e-9, &c));
    cr_expect(strstr(c.msg, "reported cost") != NULL, "%s", c.msg);
    cr_expect_not(gb_validate_path(&g, GB_MODEL_8_NOCUT, XY(0, 0), XY(3, 3), p, 4, 3.0, &c));
    gb_grid_free(&g);
}

GB_TEST(validator, cost_comparison_is_exact_on_step_counts)
{
    gb_check a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    a.straight = 3; a.diag = 2; a.cost = gb_check_cost(3, 2);
    b.straight = 3; b.diag = 2; b.cost = gb_check_cost(3, 2) + 1e-12;   /* rounding noise */
    cr_expect_eq(gb_check_cmp(&a, &b), 0);
    b.straight = 1; b.diag = 4; b.cost = gb_check_cost(1, 4);          /* 6.657 vs 5.828 */
    cr_expect_eq(gb_check_cmp(&a, &b), -1);
    cr_expect_eq(gb_check_cmp(&b, &a), 1);
}
