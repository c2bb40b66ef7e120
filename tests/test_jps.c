/*
 * test_jps.c -- the jump point search family's jumps where the other
 * suites do not reach them: lines longer than one scan window (the jumps
 * of solvers/gb_jps.c read 56 cells per window; test_search.c's random
 * grids are at most 40 cells wide), the `scanned` counter (jps+ scans
 * nothing, so the jps/jps+ agreement of test_search.c cannot check it),
 * and today's counters on the shared maps, pinned.
 *
 * What is asserted:
 *   - along a straight corridor of up to 300 cells, rows and columns, in
 *     both directions, the start's jumps land on the goal and `scanned` is
 *     exactly the cells the straight jumps step over;
 *   - on long thin random grids (rows or columns of 60 to 300 cells), jps
 *     and jps+ (its jumps read from a table built without scanning)
 *     expand, generate and return the same, cell for cell, on every queue;
 *   - on every 10th query of each shared scenario file, the sums of
 *     expanded, generated and scanned equal those of the cell-by-cell
 *     diagonal jumps this family had before its scans were rewritten.
 *
 * More random grids: GB_PROP_GRIDS=N (default 300) and GB_PROP_SEED=S.
 */
#include "gb_test.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gb_map.h"
#include "gb_scen.h"
#include "gb_search.h"
#include "gb_stats.h"

static long env_long(const char *name, long dflt)
{
    const char *v = getenv(name);
    return v && *v ? strtol(v, NULL, 10) : dflt;
}

static gb_solver_spec spec_of(const char *name)
{
    char err[128];
    gb_solver_spec sp;
    cr_assert_eq(gb_solver_parse(name, &sp, err, sizeof err), 0, "%s", err);
    return sp;
}

/* A corridor of n free cells (a row when horiz, else a column): from the
 * start s to the goal t, the start's straight jump toward t lands on t
 * (t - s cells scanned), the one away from it reaches the wall (every
 * cell up to the corridor's end scanned), the rest are blocked at once.
 * One expansion, one generation, a path of |t - s| + 1 cells. */
GB_TEST(jps, scanned_counts_the_cells_of_straight_jumps_across_windows)
{
    const gb_solver_spec sp = spec_of("jps");
    static const int lens[] = { 2, 55, 56, 57, 63, 64, 65, 112, 113, 120, 128, 129, 200, 300 };
    uint64_t seed = 0x6a70732d636f72ull;
    for (int horiz = 0; horiz <= 1; horiz++) {
        for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
            const int n = lens[li];
            gb_grid g;
            cr_assert_eq(gb_grid_init(&g, horiz ? n : 1, horiz ? 1 : n), 0);
            for (int i = 0; i < n; i++)
                g.pass[horiz ? gb_grid_id(&g, i, 0) : gb_grid_id(&g, 0, i)] = 1;
            gb_grid_recount(&g);
            gb_ws *ws = gb_ws_new(&g, GB_MODEL_8_NOCUT);
            cr_assert_not_null(ws);
            for (int k = 0; k < 24; k++) {
                int s = (int)(gb_rng_next(&seed) % (uint64_t)n), t;
                do t = (int)(gb_rng_next(&seed) % (uint64_t)n); while (t == s);
                if (k < 4) {   /* the corridor's ends */
                    s = k & 1 ? n - 1 : 0;
                    t = k & 2 ? (s ? 0 : n - 1) : (s ? s - 1 : 1);
                }
                const int32_t a = horiz ? gb_grid_id(&g, s, 0) : gb_grid_id(&g, 0, s);
                const int32_t b = horiz ? gb_grid_id(&g, t, 0) : gb_grid_id(&g, 0, t);
                gb_result r;
                cr_assert_eq(gb_solve(ws, &sp, GB_Q_BHEAP, a, b, &r), 0);
                const uint64_t want = t > s ? (uint64_t)(t - s) + (uint64_t)s
                                            : (uint64_t)(s - t) + (uint64_t)(n - 1 - s);
                cr_assert_eq(r.status, GB_FOUND, "%s corridor of %d: %d -> %d not found",
                             horiz ? "row" : "column", n, s, t);
                cr_assert_eq(r.path_len, abs(t - s) + 1, "%s corridor of %d: %d -> %d: path of %d",
                             horiz ? "row" : "column", n, s, t, r.path_len);
                cr_assert_eq(r.st.expanded, 1, "%s corridor of %d: %d -> %d: expanded %llu",
                             horiz ? "row" : "column", n, s, t, (unsigned long long)r.st.expanded);
                cr_assert_eq(r.st.generated, 1, "%s corridor of %d: %d -> %d: generated %llu",
                             horiz ? "row" : "column", n, s, t, (unsigned long long)r.st.generated);
                cr_assert_eq(r.st.scanned, want, "%s corridor of %d: %d -> %d: scanned %llu, "
                             "expected %llu", horiz ? "row" : "column", n, s, t,
                             (unsigned long long)r.st.scanned, (unsigned long long)want);
            }
            gb_ws_free(ws);
            gb_grid_free(&g);
        }
    }
}

/* jps and jps+ on one query, every queue: the same search (see
 * test_search.c's jpsplus suite, here on lines longer than a window). */
static void same_as_jpsplus(gb_ws *ws, int32_t s, int32_t t, const char *where)
{
    const gb_solver_spec a = spec_of("jps"), b = spec_of("jps+");
    int32_t *pa = malloc((size_t)gb_ws_grid(ws)->ncells * sizeof *pa);
    cr_assert_not_null(pa);
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
        cr_assert_eq(rb.st.generated, ra.st.generated, "%s/%s: jps+ generated %llu, jps %llu",
                     where, qn, (unsigned long long)rb.st.generated,
                     (unsigned long long)ra.st.generated);
    }
    free(pa);
}

/* Long thin random grids, open to dense; half the goals on the start's
 * row or column (the goal test of a scan) or diagonal. */
GB_TEST(jps, same_search_as_jpsplus_on_long_lines)
{
    long ngrids = env_long("GB_PROP_GRIDS", 300) / 3 + 1;
    uint64_t seed = (uint64_t)env_long("GB_PROP_SEED", 20261201) ^ 0x6c6f6e67ull;
    char where[160];
    for (long gi = 0; gi < ngrids; gi++) {
        int lng = 60 + (int)(gb_rng_next(&seed) % 241), shrt = 1 + (int)(gb_rng_next(&seed) % 6);
        int w = gi & 1 ? lng : shrt, h = gi & 1 ? shrt : lng;
        /* a quarter nearly open: scans then cross windows before they stop */
        int density = (int)(gb_rng_next(&seed) % (gi & 2 ? 31 : 4));
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
            int sx, sy, tx, ty, tries = 0;
            do { sx = (int)(gb_rng_next(&seed) % (uint64_t)w); sy = (int)(gb_rng_next(&seed) % (uint64_t)h); }
            while (!g.pass[gb_grid_id(&g, sx, sy)]);
            do {
                if (k & 1 && tries++ < 50) {   /* on a line through the start */
                    int dir = (int)(gb_rng_next(&seed) % 8), n = 1 + (int)(gb_rng_next(&seed) % 300);
                    tx = sx + gb_dir_dx[dir] * n;
                    ty = sy + gb_dir_dy[dir] * n;
                } else {
                    tx = (int)(gb_rng_next(&seed) % (uint64_t)w);
                    ty = (int)(gb_rng_next(&seed) % (uint64_t)h);
                }
            } while (!gb_grid_passable_xy(&g, tx, ty));
            snprintf(where, sizeof where, "grid %ld (%dx%d, %d%%) query %d (%d,%d)->(%d,%d)", gi, w,
                     h, density, k, sx, sy, tx, ty);
            same_as_jpsplus(ws, gb_grid_id(&g, sx, sy), gb_grid_id(&g, tx, ty), where);
        }
        gb_ws_free(ws);
        gb_grid_free(&g);
    }
}

/* jps+ keeps 16-bit jump distances when no jump can move more than
 * INT16_MAX cells and 32-bit ones otherwise.  Maps 32768 cells wide (the
 * 16-bit table at its edge: longest jump 32767 cells) and 32769 wide (the
 * 32-bit table: a 16-bit one would wrap), 3 rows: open, then with row 0
 * blocked but for its last cell, which makes the middle row's last cell a
 * jump point 32767 (32768) cells from its first.  From end to end and up
 * to that last cell: the same search as jps, cell for cell, every queue. */
GB_TEST(jps, same_search_as_jpsplus_at_the_16_bit_limit)
{
    static const int widths[] = { INT16_MAX + 1, INT16_MAX + 2 };
    char where[160];
    for (int wi = 0; wi < 2; wi++)
        for (int variant = 0; variant < 2; variant++) {
            const int w = widths[wi], h = 3;
            gb_grid g;
            cr_assert_eq(gb_grid_init(&g, w, h), 0);
            for (int y = 0; y < h; y++)
                for (int x = 0; x < w; x++)
                    g.pass[gb_grid_id(&g, x, y)] = y > 0 || !variant || x == w - 1;
            gb_grid_recount(&g);
            gb_ws *ws = gb_ws_new(&g, GB_MODEL_8_NOCUT);
            cr_assert_not_null(ws);
            const int32_t q[4][4] = { { 0, 1, w - 1, 1 }, { w - 1, 1, 0, 1 },
                                      { 0, 1, w - 1, 0 }, { 0, 2, w - 1, 0 } };
            for (int k = 0; k < 4; k++) {
                snprintf(where, sizeof where, "%dx%d%s query %d", w, h,
                         variant ? " with row 0 blocked" : "", k);
                same_as_jpsplus(ws, gb_grid_id(&g, q[k][0], q[k][1]),
                                gb_grid_id(&g, q[k][2], q[k][3]), where);
            }
            gb_ws_free(ws);
            gb_grid_free(&g);
        }
}

/* ---- the shared maps: counters pinned -------------------------------------- */

static const char *shared_dir(void)
{
    const char *d = getenv("GB_SHARED");
    return d && *d ? d : "../shared/movingai";
}

/* Sums over the queries on scenario lines divisible by 10 (endpoints on
 * blocked cells skipped), jps on bheap.  First pinned as the family
 * counted them with cell-by-cell diagonal jumps and word-aligned straight
 * scans (commit 1bf3f80), which the per-direction jumps reproduced
 * exactly; then re-pinned when the search core moved to exact integer
 * keys (gb_exact.h): f-ties that rounding used to split are now exact, the
 * larger-g rule applies across a whole plateau, and the counts fell (by
 * 11.7 % on random512-10-0, under 4 % elsewhere; den312d +0.3 %).  A
 * faster jump must find the same jump points and scan the same cells. */
typedef struct pinned {
    const char *scen;   /* relative to GB_SHARED */
    uint64_t scanned, expanded, generated;
} pinned;

static const pinned pins[] = {
    { "bgmaps/AR0011SR.map.scen", 3685278, 4837, 6042 },
    { "dao/arena.map.scen", 13454, 94, 185 },
    { "mapf/den312d-even-10.scen", 21435, 583, 790 },
    { "mazes/maze512-4-0.map.scen", 103351443, 3067722, 3081598 },
    { "random/random512-10-0.map.scen", 9733581, 822829, 1152059 },
    { "wc3/divideandconquer.map.scen", 3291762, 14424, 18074 },
    { "street/Berlin_0_256.map.scen", 1222674, 7532, 9120 },
};

GB_TEST(jps, counters_on_the_shared_maps_are_unchanged)
{
    const gb_solver_spec sp = spec_of("jps");
    int nfiles = 0;
    for (size_t m = 0; m < sizeof pins / sizeof pins[0]; m++) {
        char path[1024], mpath[1024];
        snprintf(path, sizeof path, "%s/%s", shared_dir(), pins[m].scen);
        FILE *f = fopen(path, "r");
        if (!f) continue;
        fclose(f);
        gb_scen sc;
        gb_map mp;
        gb_diag d;
        cr_assert_eq(gb_scen_load(path, &sc, &d), 0, "%s", d.msg);
        cr_assert_eq(gb_scen_resolve_map(&sc, mpath, sizeof mpath, &d), 0, "%s", d.msg);
        cr_assert_eq(gb_map_load(mpath, &mp, &d), 0, "%s", d.msg);
        gb_ws *ws = gb_ws_new(&mp.grid, GB_MODEL_8_NOCUT);
        cr_assert_not_null(ws);
        uint64_t scanned = 0, expanded = 0, generated = 0;
        for (size_t i = 0; i < sc.n; i++) {
            const gb_query *q = &sc.q[i];
            if (q->line % 10 != 0 || gb_scen_check_query(&sc, i, &mp, &d) != 0) continue;
            gb_result r;
            cr_assert_eq(gb_solve(ws, &sp, GB_Q_BHEAP, gb_grid_id(&mp.grid, q->sx, q->sy),
                                  gb_grid_id(&mp.grid, q->gx, q->gy), &r), 0);
            scanned += r.st.scanned;
            expanded += r.st.expanded;
            generated += r.st.generated;
        }
        cr_expect_eq(scanned, pins[m].scanned, "%s: scanned %llu, pinned %llu", pins[m].scen,
                     (unsigned long long)scanned, (unsigned long long)pins[m].scanned);
        cr_expect_eq(expanded, pins[m].expanded, "%s: expanded %llu, pinned %llu", pins[m].scen,
                     (unsigned long long)expanded, (unsigned long long)pins[m].expanded);
        cr_expect_eq(generated, pins[m].generated, "%s: generated %llu, pinned %llu",
                     pins[m].scen, (unsigned long long)generated,
                     (unsigned long long)pins[m].generated);
        nfiles++;
        gb_ws_free(ws);
        gb_map_free(&mp);
        gb_scen_free(&sc);
    }
    if (nfiles == 0) cr_skip_test("no shared scenarios in %s", shared_dir());
}
