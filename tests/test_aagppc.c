/*
 * test_aagppc.c -- the GPPC any-angle model (harness/check/gb_aagppc.h):
 * the validator on the problem definition's examples (its figures, on
 * the map scaled by 2 where a figure puts points at cell centres), the
 * segment rule against a second validator written from the definition
 * (exact clipping against every open square, open edge and point of
 * int(B)), and the exact oracle (gb_aaoracle.h) against brute force: the
 * visibility graph over ALL lattice points, double corners split by side.
 */
#include "gb_test.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gb_aagppc.h"
#include "gb_aaoracle.h"
#include "gb_grid.h"
#include "gb_los.h"
#include "gb_map.h"
#include "gb_scen.h"
#include "gb_search.h"
#include "gb_stats.h"
#include "gb_validate.h"

#define XY(a, b) ((gb_xy){ (a), (b) })

/* Build a grid from rows of '.' (free) and '#' (blocked), each cell
 * scaled to k x k cells. */
static void grid_from(gb_grid *g, const char *const *rows, int h, int k)
{
    const int w = (int)strlen(rows[0]);
    cr_assert_eq(gb_grid_init(g, w * k, h * k), 0);
    for (int y = 0; y < h * k; y++)
        for (int x = 0; x < w * k; x++) g->pass[gb_grid_id(g, x, y)] = rows[y / k][x / k] == '.';
    gb_grid_recount(g);
}

static double plen(const gb_xy *p, size_t n)
{
    double c = 0.0;
    for (size_t i = 0; i + 1 < n; i++) {
        const double dx = p[i + 1].x - p[i].x, dy = p[i + 1].y - p[i].y;
        c += sqrt(dx * dx + dy * dy);
    }
    return c;
}

/* Validate path p[0..n) from p[0] to p[n-1] with its own length. */
static int valid(const gb_grid *g, const gb_xy *p, size_t n, gb_check *ck)
{
    return gb_validate_aagppc(g, p[0], p[n - 1], p, n, plen(p, n), ck);
}

/* ---- the problem definition's examples ---------------------------------- */

/* "Example Map" and its shortest path <(0,0),(3,3),(4,3),(4,2),(3,1)>. */
static const char *const example[] = { "...#.", "#.#..", "#..#.", "##..." };

GB_TEST(aagppc, example_map_path_is_legal_and_optimal)
{
    gb_grid g;
    grid_from(&g, example, 4, 1);
    const gb_xy p[] = { XY(0, 0), XY(3, 3), XY(4, 3), XY(4, 2), XY(3, 1) };
    gb_check ck;
    cr_expect(valid(&g, p, 5, &ck), "%s", ck.msg);
    gb_aaoracle o;
    cr_assert_eq(gb_aaoracle_init(&o, &g), 0);
    double c = 0;
    gb_xy q[64];
    int32_t n = 0;
    cr_assert_eq(gb_aaoracle_solve(&o, XY(0, 0), XY(3, 1), INFINITY, &c, q, &n), 1);
    cr_expect_float_eq(c, plen(p, 5), 1e-12, "oracle %.12f, figure %.12f", c, plen(p, 5));
    cr_expect(gb_validate_aagppc(&g, XY(0, 0), XY(3, 1), q, (size_t)n, c, &ck), "%s", ck.msg);
    gb_aaoracle_free(&o);
    gb_grid_free(&g);
}

/* "Valid Path Segments": the green region seen from a = (1,1) with cells
 * (2,0), (2,1), (1,2) blocked: its corners are seen, the cells beyond
 * the double corner (2,2) and behind the blocked cells are not. */
GB_TEST(aagppc, covisible_region_of_the_figures)
{
    static const char *const rows[] = { "..#.", "..#.", ".#..", "...." };
    gb_grid g;
    grid_from(&g, rows, 4, 1);
    const gb_xy a = XY(1, 1);
    const gb_xy seen[] = { XY(0, 0), XY(2, 0), XY(2, 2), XY(1, 2), XY(1, 4), XY(0, 4), XY(0, 3) };
    for (size_t i = 0; i < sizeof seen / sizeof *seen; i++)
        cr_expect(gb_aagppc_segment(&g, a, seen[i], NULL, NULL), "(1,1) sees (%d,%d)", seen[i].x,
                  seen[i].y);
    const char *rule = "";
    gb_xy bad;
    cr_expect_not(gb_aagppc_segment(&g, a, XY(3, 3), &bad, &rule));
    cr_expect_str_eq(rule, "R4", "through the double corner (2,2)");
    cr_expect(bad.x == 2 && bad.y == 2);
    cr_expect_not(gb_aagppc_segment(&g, a, XY(2, 3), NULL, &rule));
    cr_expect_str_eq(rule, "R2");
    cr_expect_not(gb_aagppc_segment(&g, a, XY(3, 1), &bad, &rule));   /* between (2,0) and (2,1) */
    cr_expect_str_eq(rule, "R3");
    cr_expect(gb_aagppc_segment(&g, XY(3, 0), XY(3, 2), NULL, NULL), "along the wall's side");
    /* R5: along the map's border, beside the blocked (2,0) */
    cr_expect(gb_aagppc_segment(&g, XY(0, 0), XY(2, 0), NULL, NULL));
    cr_expect_not(gb_aagppc_segment(&g, XY(2, 0), XY(3, 0), NULL, &rule));
    cr_expect_str_eq(rule, "R3");
    gb_grid_free(&g);
}

GB_TEST(aagppc, edge_and_centre_figures_on_the_map_scaled_by_two)
{
    static const char *const rows[] = { "..#.", "..#.", ".#..", "...." };
    gb_grid g;
    grid_from(&g, rows, 4, 2);
    /* a on an edge, (1.5, 1): the ray to (0, 4) grazes the corner (1, 2) */
    cr_expect(gb_aagppc_segment(&g, XY(3, 2), XY(0, 8), NULL, NULL));
    /* a at the centre of cell (1, 3): the rays to (4, 1) and (0, 2) graze
     * the corners (2, 3), (3, 2) and (1, 2.5)..; just past them is hidden */
    cr_expect(gb_aagppc_segment(&g, XY(3, 7), XY(8, 2), NULL, NULL));
    cr_expect(gb_aagppc_segment(&g, XY(3, 7), XY(0, 4), NULL, NULL));
    cr_expect_not(gb_aagppc_segment(&g, XY(3, 7), XY(8, 1), NULL, NULL));
    cr_expect_not(gb_aagppc_segment(&g, XY(3, 7), XY(0, 3), NULL, NULL));
    gb_grid_free(&g);
}

/* "Double Corners": the blue path a-x-b visits x, the red c-d and c-x-d
 * cut through it; both kinds of double corner (scaled by 2). */
GB_TEST(aagppc, double_corners_are_visited_not_cut)
{
    static const char *const cut1[] = { "....", "..#.", ".#..", "...." };
    static const char *const cut2[] = { "....", ".#..", "..#.", "...." };
    gb_grid g;
    gb_check ck;
    grid_from(&g, cut1, 4, 2);
    const gb_xy axb[] = { XY(3, 1), XY(4, 4), XY(1, 3) };
    cr_expect(valid(&g, axb, 3, &ck), "%s", ck.msg);
    const gb_xy cd[] = { XY(1, 1), XY(7, 7) };
    cr_expect_not(valid(&g, cd, 2, &ck));
    cr_expect(strstr(ck.msg, "R4") != NULL, "%s", ck.msg);
    const gb_xy cxd[] = { XY(1, 1), XY(4, 4), XY(7, 7) };
    cr_expect_not(valid(&g, cxd, 3, &ck));
    cr_expect(strstr(ck.msg, "V1") != NULL, "%s", ck.msg);
    gb_grid_free(&g);
    grid_from(&g, cut2, 4, 2);
    const gb_xy axb2[] = { XY(1, 4), XY(4, 4), XY(3, 7) };
    cr_expect(valid(&g, axb2, 3, &ck), "%s", ck.msg);
    const gb_xy cd2[] = { XY(1, 7), XY(7, 1) };
    cr_expect_not(valid(&g, cd2, 2, &ck));
    cr_expect(strstr(ck.msg, "R4") != NULL, "%s", ck.msg);
    const gb_xy cxd2[] = { XY(1, 7), XY(4, 4), XY(7, 1) };
    cr_expect_not(valid(&g, cxd2, 3, &ck));
    cr_expect(strstr(ck.msg, "V1") != NULL, "%s", ck.msg);
    gb_grid_free(&g);
}

/* "Starts and Targets on Double Corners": s = x leaves (t = x is
 * entered) from the south-east quadrant only; on the other kind of
 * double corner the cell is blocked, never a start. */
GB_TEST(aagppc, starts_and_goals_on_double_corners)
{
    static const char *const st[] = { "....", "..#.", ".#..", "...." };
    static const char *const st2[] = { "....", ".#..", "..#.", "...." };
    gb_grid g;
    gb_check ck;
    grid_from(&g, st, 4, 2);
    const gb_xy sat[] = { XY(4, 4), XY(5, 7), XY(0, 6) };
    cr_expect(valid(&g, sat, 3, &ck), "%s", ck.msg);
    const gb_xy sbt[] = { XY(4, 4), XY(1, 3), XY(0, 6) };
    cr_expect_not(valid(&g, sbt, 3, &ck));
    cr_expect(strstr(ck.msg, "V2: the start") != NULL, "%s", ck.msg);
    const gb_xy tas[] = { XY(0, 6), XY(5, 7), XY(4, 4) };
    cr_expect(valid(&g, tas, 3, &ck), "%s", ck.msg);
    const gb_xy tbs[] = { XY(0, 6), XY(1, 3), XY(4, 4) };
    cr_expect_not(valid(&g, tbs, 3, &ck));
    cr_expect(strstr(ck.msg, "V2: the goal") != NULL, "%s", ck.msg);
    /* start == goal on the double corner: the one-waypoint path */
    cr_expect(valid(&g, sat, 1, &ck), "%s", ck.msg);
    gb_grid_free(&g);
    grid_from(&g, st2, 4, 2);
    const gb_xy s2[] = { XY(4, 4), XY(1, 7), XY(0, 0) };
    cr_expect_not(valid(&g, s2, 3, &ck));
    cr_expect(strstr(ck.msg, "passable") != NULL, "%s", ck.msg);
    gb_grid_free(&g);
}

GB_TEST(aagppc, validator_pins_its_messages)
{
    gb_grid g;
    grid_from(&g, example, 4, 1);
    gb_check ck;
    const gb_xy p[] = { XY(0, 0), XY(0, 0), XY(3, 1) };
    cr_expect_not(gb_validate_aagppc(&g, XY(0, 0), XY(3, 1), p, 3, 0.0, &ck));
    cr_expect_str_eq(ck.msg, "segment 0 from (0,0) to (0,0): R1: shorter than 0.01 (0,0)");
    const gb_xy c[] = { XY(0, 0), XY(2, 3) };
    cr_expect_not(gb_validate_aagppc(&g, XY(0, 0), XY(2, 3), c, 2, plen(c, 2), &ck));
    cr_expect_str_eq(ck.msg, "segment 0 from (0,0) to (2,3): R2: crosses the blocked cell (0,1)");
    /* the straight line to the figure's goal is clear, but the goal is a
     * double corner, entered from the north-west: that is why the
     * figure's shortest path comes round to it from the south-east */
    const gb_xy q[] = { XY(0, 0), XY(3, 1) };
    cr_expect(gb_aagppc_segment(&g, XY(0, 0), XY(3, 1), NULL, NULL));
    cr_expect_not(gb_validate_aagppc(&g, XY(0, 0), XY(3, 1), q, 2, plen(q, 2), &ck));
    cr_expect_str_eq(ck.msg, "V2: the goal (3,1) is on a double corner: expected its segment in "
                     "the south-east quadrant, found it towards (0,0)");
    const gb_xy r[] = { XY(0, 0), XY(3, 3), XY(4, 3), XY(4, 2), XY(3, 1) };
    cr_expect_not(gb_validate_aagppc(&g, XY(0, 0), XY(3, 1), r, 5, 7.0, &ck));
    cr_expect(strstr(ck.msg, "reported cost") != NULL, "%s", ck.msg);
    /* along the border: the outside is blocked, (0,1) is blocked */
    const gb_xy b[] = { XY(0, 0), XY(0, 2) };
    cr_expect_not(gb_validate_aagppc(&g, XY(0, 0), XY(0, 2), b, 2, 2.0, &ck));
    gb_grid_free(&g);
}

/* ---- a second validator, written from the definition ------------------- */

/* A fraction p / q, q > 0. */
typedef struct { int64_t p, q; } frac;

static int fcmp(frac a, frac b)
{
    const int64_t l = a.p * b.q, r = b.p * a.q;
    return l < r ? -1 : l > r;
}

/* t-interval of the closed segment a + t (b - a), t in [0, 1], narrowed
 * by constraints; empty when lo > hi or lo == hi with a strict end. */
typedef struct { frac lo, hi; int los, his, empty; } tint;

/* Narrow by  c + t d  OP  k,  OP one of '<' (strict), '>' (strict), '='. */
static void narrow(tint *I, int64_t c, int64_t d, int64_t k, char op)
{
    if (d == 0) {
        if ((op == '<' && !(c < k)) || (op == '>' && !(c > k)) || (op == '=' && c != k)) I->empty = 1;
        return;
    }
    frac f = { k - c, d };
    if (d < 0) { f.p = -f.p; f.q = -f.q; }
    const int upper = (op == '<') == (d > 0);
    if (op == '=' || !upper) {   /* lower bound t >= f (or > f) */
        const int c1 = fcmp(f, I->lo);
        if (c1 > 0 || (c1 == 0 && op != '=')) { I->lo = f; I->los = op != '='; }
    }
    if (op == '=' || upper) {
        const int c1 = fcmp(f, I->hi);
        if (c1 < 0 || (c1 == 0 && op != '=')) { I->hi = f; I->his = op != '='; }
    }
}

static int nonempty(const tint *I)
{
    if (I->empty) return 0;
    const int c = fcmp(I->lo, I->hi);
    return c < 0 || (c == 0 && !I->los && !I->his);
}

static tint whole(void) { return (tint){ { 0, 1 }, { 1, 1 }, 0, 0, 0 }; }

static int blk(const gb_grid *g, int x, int y) { return !gb_grid_passable_xy(g, x, y); }

/* R1-R4 by definition: the segment avoids every open blocked square, every
 * open edge between two blocked cells, every lattice point with four
 * blocked cells, and has no double corner strictly inside. */
static int seg2(const gb_grid *g, gb_xy a, gb_xy b)
{
    const int64_t dx = b.x - a.x, dy = b.y - a.y;
    if (dx == 0 && dy == 0) return 0;
    const int x0 = (a.x < b.x ? a.x : b.x) - 1, x1 = (a.x < b.x ? b.x : a.x) + 1;
    const int y0 = (a.y < b.y ? a.y : b.y) - 1, y1 = (a.y < b.y ? b.y : a.y) + 1;
    for (int y = y0; y <= y1; y++)
        for (int x = x0; x <= x1; x++) {
            if (blk(g, x, y)) {                     /* the open square */
                tint I = whole();
                narrow(&I, a.x, dx, x, '>'); narrow(&I, a.x, dx, x + 1, '<');
                narrow(&I, a.y, dy, y, '>'); narrow(&I, a.y, dy, y + 1, '<');
                if (nonempty(&I)) return 0;
            }
            if (blk(g, x - 1, y) && blk(g, x, y)) {   /* vertical edge x, (y, y+1) */
                tint I = whole();
                narrow(&I, a.x, dx, x, '=');
                narrow(&I, a.y, dy, y, '>'); narrow(&I, a.y, dy, y + 1, '<');
                if (nonempty(&I)) return 0;
            }
            if (blk(g, x, y - 1) && blk(g, x, y)) {   /* horizontal edge y, (x, x+1) */
                tint I = whole();
                narrow(&I, a.y, dy, y, '=');
                narrow(&I, a.x, dx, x, '>'); narrow(&I, a.x, dx, x + 1, '<');
                if (nonempty(&I)) return 0;
            }
            /* the lattice point (x, y) on the segment? */
            const int64_t cr = dx * (y - a.y) - dy * (x - a.x);
            const int64_t dot = dx * (x - a.x) + dy * (y - a.y), ll = dx * dx + dy * dy;
            if (cr != 0 || dot < 0 || dot > ll) continue;
            const int nw = blk(g, x - 1, y - 1), ne = blk(g, x, y - 1);
            const int sw = blk(g, x - 1, y), se = blk(g, x, y);
            if (nw && ne && sw && se) return 0;
            if (dot > 0 && dot < ll && ((ne && sw && !nw && !se) || (nw && se && !ne && !sw)))
                return 0;
        }
    return 1;
}

static void random_grid(gb_grid *g, uint64_t *seed, int w, int h, unsigned pct)
{
    cr_assert_eq(gb_grid_init(g, w, h), 0);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            g->pass[gb_grid_id(g, x, y)] = (gb_rng_next(seed) % 100) >= pct;
    gb_grid_recount(g);
}

GB_TEST(aagppc, segment_rule_agrees_with_a_second_validator)
{
    uint64_t seed = 29;
    const int grids = gb_test_full() ? 4000 : 400;
    long legal = 0, illegal = 0;
    for (int it = 0; it < grids; it++) {
        gb_grid g;
        const int w = 2 + (int)(gb_rng_next(&seed) % 14), h = 2 + (int)(gb_rng_next(&seed) % 14);
        random_grid(&g, &seed, w, h, (unsigned)(gb_rng_next(&seed) % 45));
        for (int k = 0; k < 60; k++) {
            /* endpoints anywhere on or just outside the map */
            const gb_xy a = XY((int)(gb_rng_next(&seed) % (unsigned)(w + 3)) - 1,
                               (int)(gb_rng_next(&seed) % (unsigned)(h + 3)) - 1);
            gb_xy b = XY((int)(gb_rng_next(&seed) % (unsigned)(w + 3)) - 1,
                         (int)(gb_rng_next(&seed) % (unsigned)(h + 3)) - 1);
            if (k % 4 == 0) b.y = a.y;        /* axis-parallel ones too */
            if (k % 4 == 1) b.x = a.x;
            if (a.x == b.x && a.y == b.y) continue;
            const int v1 = gb_aagppc_segment(&g, a, b, NULL, NULL);
            const int v2 = seg2(&g, a, b);
            cr_assert_eq(v1, v2, "grid %d (%dx%d), (%d,%d)-(%d,%d): walk %d, definition %d", it, w,
                         h, a.x, a.y, b.x, b.y, v1, v2);
            cr_assert_eq(v1, gb_aagppc_segment(&g, b, a, NULL, NULL), "not symmetric");
            if (v1) legal++; else illegal++;
        }
        gb_grid_free(&g);
    }
    cr_expect_gt(legal, grids * 5);
    cr_expect_gt(illegal, grids * 5);
}

/* ---- the oracle against brute force ------------------------------------- */

/* Dijkstra over every lattice point not in int(B); a double corner is
 * two nodes, one per free side, whose segments stay in that side's
 * closed quadrant (a start or goal there: the south-east side only). */
static double brute(const gb_grid *g, gb_xy s, gb_xy t, int fast)
{
    const int W = g->width + 1, H = g->height + 1, N = 2 * W * H;
    double *d = malloc((size_t)N * sizeof *d);
    char *done = calloc((size_t)N, 1), *ok = calloc((size_t)N, 1);
    cr_assert(d && done && ok);
    /* node 2 (y W + x) + side; side 1 only at double corners */
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            const unsigned m = gb_aagppc_around(g, x, y);
            if (m == 15u) continue;
            const int dc = m == 6u || m == 9u, st = (x == s.x && y == s.y) || (x == t.x && y == t.y);
            ok[2 * (y * W + x)] = 1;
            if (dc && !st) ok[2 * (y * W + x) + 1] = 1;
        }
    for (int i = 0; i < N; i++) d[i] = INFINITY;
    d[2 * (s.y * W + s.x)] = 0.0;
    double best = INFINITY;
    for (;;) {
        int u = -1;
        for (int i = 0; i < N; i++)
            if (ok[i] && !done[i] && isfinite(d[i]) && (u < 0 || d[i] < d[u])) u = i;
        if (u < 0) break;
        done[u] = 1;
        const int ux = (u / 2) % W, uy = (u / 2) / W;
        if (ux == t.x && uy == t.y) { best = d[u]; break; }
        for (int v = 0; v < N; v++) {
            if (!ok[v] || done[v]) continue;
            const int vx = (v / 2) % W, vy = (v / 2) / W;
            if (vx == ux && vy == uy) continue;
            /* side quadrants: side 0 of a double corner is the one holding
             * the south-east (mask 6) or north-east (mask 9) direction */
            int fine = 1;
            for (int e = 0; e < 2 && fine; e++) {
                const int n = e ? v : u, px = e ? vx : ux, py = e ? vy : uy;
                const int ox = e ? ux : vx, oy = e ? uy : vy;
                const unsigned m = gb_aagppc_around(g, px, py);
                if (m != 6u && m != 9u) continue;
                const int ddx = ox - px, ddy = oy - py;
                const int side = n & 1;
                if (m == 6u) fine = side == 0 ? (ddx >= 0 && ddy >= 0) : (ddx <= 0 && ddy <= 0);
                else fine = side == 0 ? (ddx >= 0 && ddy <= 0) : (ddx <= 0 && ddy >= 0);
            }
            if (!fine) continue;
            /* fast: the validator's walk (proven against seg2 above), for real maps */
            if (!(fast ? gb_aagppc_segment(g, XY(ux, uy), XY(vx, vy), NULL, NULL)
                       : seg2(g, XY(ux, uy), XY(vx, vy))))
                continue;
            const double c = d[u] + sqrt((double)(vx - ux) * (vx - ux) + (double)(vy - uy) * (vy - uy));
            if (c < d[v]) d[v] = c;
        }
    }
    free(d);
    free(done);
    free(ok);
    return best;
}

GB_TEST(aagppc, oracle_agrees_with_brute_force_on_random_grids, .timeout = 3000)
{
    uint64_t seed = 2029;
    const int grids = gb_test_full() ? 10000 : 600;
    int reachable = 0, unreachable = 0;
    for (int it = 0; it < grids; it++) {
        gb_grid g;
        const int w = 2 + (int)(gb_rng_next(&seed) % 8), h = 2 + (int)(gb_rng_next(&seed) % 8);
        random_grid(&g, &seed, w, h, 10 + (unsigned)(gb_rng_next(&seed) % 35));
        gb_xy s, t;
        int tries = 0;
        do {
            s = XY((int)(gb_rng_next(&seed) % (unsigned)w), (int)(gb_rng_next(&seed) % (unsigned)h));
            t = XY((int)(gb_rng_next(&seed) % (unsigned)w), (int)(gb_rng_next(&seed) % (unsigned)h));
        } while ((!gb_grid_passable_xy(&g, s.x, s.y) || !gb_grid_passable_xy(&g, t.x, t.y)) && ++tries < 100);
        if (tries >= 100) { gb_grid_free(&g); continue; }
        const double bf = brute(&g, s, t, 0);
        gb_aaoracle o;
        cr_assert_eq(gb_aaoracle_init(&o, &g), 0);
        double c = -1.0;
        gb_xy *p = malloc(((size_t)o.nv + 2) * sizeof *p);
        int32_t n = 0;
        const int r = gb_aaoracle_solve(&o, s, t, INFINITY, &c, p, &n);
        cr_assert_neq(r, -1);
        cr_assert_eq(r == 1, isfinite(bf), "grid %d (%dx%d) (%d,%d)->(%d,%d): oracle %s, brute "
                     "force %g", it, w, h, s.x, s.y, t.x, t.y, r ? "found" : "none", bf);
        if (r == 1) {
            reachable++;
            cr_assert(fabs(c - bf) <= 1e-9 * (bf > 1 ? bf : 1), "grid %d (%dx%d) (%d,%d)->(%d,%d): "
                      "oracle %.12f, brute force %.12f", it, w, h, s.x, s.y, t.x, t.y, c, bf);
            gb_check ck;
            cr_assert(gb_validate_aagppc(&g, s, t, p, (size_t)n, c, &ck), "grid %d: oracle path: %s",
                      it, ck.msg);
            /* the ellipse pruning with a tight bound finds it too */
            double c2 = -1.0;
            cr_assert_eq(gb_aaoracle_solve(&o, s, t, bf, &c2, NULL, NULL), 1);
            cr_assert(fabs(c2 - bf) <= 1e-9 * (bf > 1 ? bf : 1));
            /* and so do the ellipse scan alone and the kept-edge lists from
             * every corner's first expansion (the default mixes the two) */
            for (int memo = 0; memo < 2; memo++) {
                o.memo = memo;
                cr_assert_eq(gb_aaoracle_solve(&o, s, t, INFINITY, &c2, NULL, NULL), 1);
                cr_assert(fabs(c2 - bf) <= 1e-9 * (bf > 1 ? bf : 1), "memo %d", memo);
            }
            o.memo = GB_AAORACLE_AUTO;
        } else {
            unreachable++;
        }
        free(p);
        gb_aaoracle_free(&o);
        gb_grid_free(&g);
    }
    cr_expect_gt(reachable, grids / 2);
    cr_expect_gt(unreachable, 0);
}

/* On a real map (DAO arena, 49 x 49): the oracle against brute force over
 * its 2,500 lattice points, every 40th query (every 8th in full). */
GB_TEST(aagppc, oracle_agrees_with_brute_force_on_arena, .timeout = 3000)
{
    const char *sh = getenv("GB_SHARED");
    char mp[1024], sp[1040];
    snprintf(mp, sizeof mp, "%s/dao/arena.map", sh && *sh ? sh : "../shared/movingai");
    snprintf(sp, sizeof sp, "%s.scen", mp);
    gb_map m;
    gb_scen sc;
    gb_diag d;
    memset(&d, 0, sizeof d);
    if (gb_map_load(mp, &m, &d) != 0) cr_skip_test("%s not found (set GB_SHARED)", mp);
    cr_assert_eq(gb_scen_load(sp, &sc, &d), 0, "%s", d.msg);
    gb_aaoracle o;
    cr_assert_eq(gb_aaoracle_init(&o, &m.grid), 0);
    const size_t step = gb_test_full() ? 8 : 40;
    int n = 0;
    for (size_t i = 0; i < sc.n; i += step) {
        const gb_xy s = XY(sc.q[i].sx, sc.q[i].sy), t = XY(sc.q[i].gx, sc.q[i].gy);
        const double bf = brute(&m.grid, s, t, 1);
        double c = -1.0;
        cr_assert_eq(gb_aaoracle_solve(&o, s, t, INFINITY, &c, NULL, NULL), 1, "line %ld", sc.q[i].line);
        cr_assert(fabs(c - bf) <= 1e-9 * (bf > 1 ? bf : 1), "line %ld: oracle %.12f, brute force "
                  "%.12f", sc.q[i].line, c, bf);
        n++;
    }
    cr_expect_geq(n, 4);
    gb_aaoracle_free(&o);
    gb_scen_free(&sc);
    gb_map_free(&m);
}

/* The kept-edge lists (o.memo = 1: from every corner's first expansion)
 * against the ellipse scan that tests every corner on the spot (o.memo =
 * 0), and the default mix of the two: the same reachability
 * and cost on real maps, and the lists' path passes the validator.  Every
 * 4th query of the DAO arena; on the 512 x 512 maze and random maps and
 * on Berlin_0_256, 6 queries from the first tenth of each file (40 over
 * the whole file in make test-full).  Both modes get the grid optimum as
 * their bound, as in the runner. */
GB_TEST(aagppc, memoised_oracle_agrees_with_the_ellipse_scan_on_shared_maps, .timeout = 3000)
{
    static const char *const pairs[][2] = {
        { "dao/arena.map", "dao/arena.map.scen" },
        { "mazes/maze512-4-0.map", "mazes/maze512-4-0.map.scen" },
        { "random/random512-10-0.map", "random/random512-10-0.map.scen" },
        { "street/Berlin_0_256.map", "street/Berlin_0_256.map.scen" },
    };
    const char *sh = getenv("GB_SHARED");
    int maps = 0, total = 0;
    for (size_t pi = 0; pi < sizeof pairs / sizeof *pairs; pi++) {
        char mp[1024], sp[1024];
        snprintf(mp, sizeof mp, "%s/%s", sh && *sh ? sh : "../shared/movingai", pairs[pi][0]);
        snprintf(sp, sizeof sp, "%s/%s", sh && *sh ? sh : "../shared/movingai", pairs[pi][1]);
        gb_map m;
        gb_scen sc;
        gb_diag d;
        memset(&d, 0, sizeof d);
        if (gb_map_load(mp, &m, &d) != 0) continue;
        cr_assert_eq(gb_scen_load(sp, &sc, &d), 0, "%s", d.msg);
        maps++;
        gb_ws *ws = gb_ws_new(&m.grid, GB_MODEL_8_NOCUT);
        cr_assert_not_null(ws);
        gb_aaoracle o;
        cr_assert_eq(gb_aaoracle_init(&o, &m.grid), 0);
        cr_assert_eq(o.memo, GB_AAORACLE_AUTO);
        gb_xy *p = malloc(((size_t)o.nv + 2) * sizeof *p);
        cr_assert_not_null(p);
        gb_solver_spec as;
        char err[256];
        cr_assert_eq(gb_solver_parse("astar-octile", &as, err, sizeof err), 0, "%s", err);
        const int arena = pi == 0, per = arena ? (int)(sc.n + 3) / 4 : GB_TEST_PICK(40, 6, 6);
        const size_t span = arena || gb_test_full() ? sc.n : sc.n / 10;
        for (int k = 0; k < per; k++) {
            const size_t i = arena ? (size_t)k * 4 : (size_t)k * span / (size_t)per + (size_t)k % 3;
            if (i >= sc.n) break;
            const gb_query *q = &sc.q[i];
            const gb_xy s = XY(q->sx, q->sy), t = XY(q->gx, q->gy);
            if (!gb_grid_passable_xy(&m.grid, s.x, s.y) || !gb_grid_passable_xy(&m.grid, t.x, t.y))
                continue;
            gb_result r;
            cr_assert_eq(gb_solve(ws, &as, GB_Q_BHEAP, gb_grid_id(&m.grid, s.x, s.y),
                                  gb_grid_id(&m.grid, t.x, t.y), &r),
                         0);
            const double upper = r.status == GB_FOUND ? r.cost : INFINITY;
            double c1 = -1.0, c0 = -1.0, cm = -1.0;
            int32_t n = 0;
            o.memo = GB_AAORACLE_AUTO;
            const int rm = gb_aaoracle_solve(&o, s, t, upper, &cm, NULL, NULL);
            o.memo = 1;
            const int r1 = gb_aaoracle_solve(&o, s, t, upper, &c1, p, &n);
            o.memo = 0;
            const int r0 = gb_aaoracle_solve(&o, s, t, upper, &c0, NULL, NULL);
            cr_assert(r1 >= 0 && r0 >= 0 && rm >= 0);
            cr_assert(r1 == r0 && rm == r0,
                      "%s line %ld: kept edges %d, ellipse scan %d, "
                      "mixed %d",
                      pairs[pi][1], q->line, r1, r0, rm);
            if (r1 != 1) continue;
            cr_assert(fabs(c1 - c0) <= 1e-12 * (c0 > 1 ? c0 : 1)
                          && fabs(cm - c0) <= 1e-12 * (c0 > 1 ? c0 : 1),
                      "%s line %ld: kept edges "
                      "%.15g, ellipse scan %.15g, mixed %.15g",
                      pairs[pi][1], q->line, c1, c0, cm);
            gb_check ck;
            cr_assert(gb_validate_aagppc(&m.grid, s, t, p, (size_t)n, c1, &ck), "%s line %ld: %s",
                      pairs[pi][1], q->line, ck.msg);
            total++;
        }
        cr_expect_gt(o.built, 0);
        free(p);
        gb_aaoracle_free(&o);
        gb_ws_free(ws);
        gb_scen_free(&sc);
        gb_map_free(&m);
    }
    if (maps == 0) cr_skip_test("no shared Moving AI pair found: set GB_SHARED");
    cr_expect_geq(total, maps * 5);
}

/* ---- the solvers' line of sight and the solvers in this model ----------- */

/* gb_los_gppc (solvers/gb_los.h) is the definition plus the stricter
 * ends: a segment ending on a double corner keeps to its south-east
 * quadrant, or is refused when that quadrant is blocked. */
GB_TEST(aagppc, solver_line_of_sight_agrees_with_the_definition)
{
    uint64_t seed = 31;
    const int grids = gb_test_full() ? 4000 : 400;
    long legal = 0, ends = 0;
    for (int it = 0; it < grids; it++) {
        gb_grid g;
        const int w = 2 + (int)(gb_rng_next(&seed) % 14), h = 2 + (int)(gb_rng_next(&seed) % 14);
        random_grid(&g, &seed, w, h, (unsigned)(gb_rng_next(&seed) % 45));
        for (int k = 0; k < 60; k++) {
            const gb_xy a = XY((int)(gb_rng_next(&seed) % (unsigned)(w + 1)),
                               (int)(gb_rng_next(&seed) % (unsigned)(h + 1)));
            gb_xy b = XY((int)(gb_rng_next(&seed) % (unsigned)(w + 1)),
                         (int)(gb_rng_next(&seed) % (unsigned)(h + 1)));
            if (k % 4 == 0) b.y = a.y;
            if (k % 4 == 1) b.x = a.x;
            if (a.x == b.x && a.y == b.y) continue;
            const int dx = b.x - a.x, dy = b.y - a.y;
            const unsigned ma = gb_aagppc_around(&g, a.x, a.y), mb = gb_aagppc_around(&g, b.x, b.y);
            const int end_ok = ma != 9u && mb != 9u && (ma != 6u || (dx >= 0 && dy >= 0))
                               && (mb != 6u || (dx <= 0 && dy <= 0));
            const int want = seg2(&g, a, b) && end_ok;
            const int got = gb_los_gppc(&g, gb_grid_id(&g, a.x, a.y), gb_grid_id(&g, b.x, b.y), NULL);
            cr_assert_eq(got, want, "grid %d (%dx%d), (%d,%d)-(%d,%d): gb_los_gppc %d, expected %d",
                         it, w, h, a.x, a.y, b.x, b.y, got, want);
            legal += want;
            ends += !end_ok;
        }
        gb_grid_free(&g);
    }
    cr_expect_gt(legal, grids * 5);
    cr_expect_gt(ends, 0);
}

/* theta and SOLVER+smooth with aa_gppc: legal GPPC paths, never below the
 * exact optimum, never above the grid optimum (bound 1). */
GB_TEST(aagppc, theta_and_smooth_are_legal_and_bounded_in_the_gppc_model, .timeout = 600)
{
    uint64_t seed = 1729;
    static const char *const names[] = { "theta", "astar-octile+smooth", "jps+smooth", "dijkstra" };
    const int grids = gb_test_full() ? 600 : 80;
    int strictly_better = 0, optimal = 0, total = 0;
    for (int it = 0; it < grids; it++) {
        gb_grid g;
        const int w = 6 + (int)(gb_rng_next(&seed) % 30), h = 6 + (int)(gb_rng_next(&seed) % 30);
        random_grid(&g, &seed, w, h, 5 + (unsigned)(gb_rng_next(&seed) % 30));
        gb_xy s = XY((int)(gb_rng_next(&seed) % (unsigned)w), (int)(gb_rng_next(&seed) % (unsigned)h));
        gb_xy t = XY((int)(gb_rng_next(&seed) % (unsigned)w), (int)(gb_rng_next(&seed) % (unsigned)h));
        g.pass[gb_grid_id(&g, s.x, s.y)] = g.pass[gb_grid_id(&g, t.x, t.y)] = 1;
        gb_grid_recount(&g);
        gb_ws *ws = gb_ws_new(&g, GB_MODEL_8_NOCUT);
        cr_assert_not_null(ws);
        gb_aaoracle o;
        cr_assert_eq(gb_aaoracle_init(&o, &g), 0);
        double dij = -1.0;
        for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
            char err[256];
            gb_solver_spec sp;
            cr_assert_eq(gb_solver_parse(names[i], &sp, err, sizeof err), 0, "%s", err);
            sp.aa_gppc = 1;
            gb_result r;
            cr_assert_eq(gb_solve(ws, &sp, GB_Q_BHEAP, gb_grid_id(&g, s.x, s.y),
                                  gb_grid_id(&g, t.x, t.y), &r), 0);
            if (r.status != GB_FOUND) { cr_assert_lt(dij, 0.0, "%s found none", names[i]); continue; }
            if (i == 3) { dij = r.cost; continue; }   /* the grid optimum, last */
            gb_xy *p = malloc((size_t)r.path_len * sizeof *p);
            for (int32_t k = 0; k < r.path_len; k++)
                p[k] = XY(gb_grid_x(&g, r.path[k]), gb_grid_y(&g, r.path[k]));
            gb_check ck;
            cr_assert(gb_validate_aagppc(&g, s, t, p, (size_t)r.path_len, r.cost, &ck),
                      "grid %d (%dx%d) (%d,%d)->(%d,%d) %s: %s", it, w, h, s.x, s.y, t.x, t.y,
                      names[i], ck.msg);
            free(p);
            double c = 0.0;
            cr_assert_eq(gb_aaoracle_solve(&o, s, t, INFINITY, &c, NULL, NULL), 1);
            cr_assert_geq(r.cost, c - 1e-9 * (c > 1 ? c : 1), "grid %d %s %.12f below the optimum "
                          "%.12f", it, names[i], r.cost, c);
            if (i == 0) {
                total++;
                optimal += r.cost <= c + 1e-9 * (c > 1 ? c : 1);
            }
        }
        /* the solvers' costs against the grid optimum (Dijkstra ran last) */
        if (dij >= 0) {
            for (size_t i = 0; i + 1 < sizeof names / sizeof *names; i++) {
                char err[256];
                gb_solver_spec sp;
                gb_solver_parse(names[i], &sp, err, sizeof err);
                sp.aa_gppc = 1;
                gb_result r;
                gb_solve(ws, &sp, GB_Q_BHEAP, gb_grid_id(&g, s.x, s.y), gb_grid_id(&g, t.x, t.y), &r);
                cr_assert_leq(r.cost, dij + 1e-9 * dij, "grid %d %s above the grid optimum", it,
                              names[i]);
                strictly_better += i == 0 && r.cost < dij - 1e-9;
            }
        }
        gb_aaoracle_free(&o);
        gb_ws_free(ws);
        gb_grid_free(&g);
    }
    cr_expect_gt(total, grids / 2);
    cr_expect_gt(optimal, 0);
    cr_expect_gt(strictly_better, 0);
}

/* ---- the runner --------------------------------------------------------- */

/* --anyangle-model gppc: any-angle rows name the model, are valid, and
 * carry subopt >= 1 against the exact optimum (Theta* reaches it on some
 * queries); grid rows are unchanged; a wrong value is refused. */
GB_TEST(aagppc, run_judges_any_angle_rows_against_the_exact_optimum)
{
    const char *bin = gb_test_bin();
    char out[8192];
    int rc = gb_test_sh(out, sizeof out,
                        "%s run -s astar-octile,theta,jps+smooth --anyangle-model gppc --count 20 "
                        "--quiet datasets/default/room128-16-1.map.scen | awk -F, 'NR == 1 { for "
                        "(i = 1; i <= NF; i++) c[$i] = i; next } { print $c[\"solver\"], "
                        "$c[\"status\"], $c[\"cost_model\"], ($c[\"subopt\"] >= 0.9999999), "
                        "($c[\"subopt\"] <= 1.0000001) }' | sort | uniq -c", bin);
    cr_assert_eq(rc, 0, "%s", out);
    cr_expect(strstr(out, "20 astar-octile ok grid 1 1") != NULL, "%s", out);
    cr_expect(strstr(out, "theta ok anyangle-gppc 1 1") != NULL, "Theta* optimal on some: %s", out);
    cr_expect(strstr(out, "theta ok anyangle-gppc 1 0") != NULL, "and not on others: %s", out);
    cr_expect(strstr(out, "jps+smooth ok anyangle-gppc 1") != NULL, "%s", out);
    cr_expect(strstr(out, "anyangle-gppc 0") == NULL, "none below the optimum: %s", out);
    rc = gb_test_sh(out, sizeof out, "%s run -s theta --anyangle-model corner "
                    "datasets/default/room128-16-1.map.scen", bin);
    cr_expect_eq(rc, 64, "%s", out);
    cr_expect(strstr(out, "gridbench run: --anyangle-model: expected centre or gppc, found "
                      "'corner'") != NULL, "%s", out);
}
