/*
 * test_gppcdyn.c -- GPPC's dynamic scenarios: the loader (fixtures and
 * pinned diagnostics), the replay against Dijkstra on patched maps for
 * every solver on two queues, the rebuild of per-map tables after a
 * patch, random patch sequences against an independently patched map,
 * and `gridbench gppc-dynamic`; user solvers on a changing map (change
 * hook or prepare again), and GPPC entries through it: the dynamic-track
 * test entry tests/gppc/dynbfs (and its variants that ignore changes,
 * crash or loop) and the classic one, tests/gppc/bfs.
 */
#include "gb_test.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gb_alloc.h"
#include "gb_gppcdyn.h"
#include "gb_gppcreplay.h"
#include "gb_rows.h"
#include "gb_search.h"
#include "gb_stats.h"
#include "gb_status.h"
#include "gb_user.h"

#define FIX "tests/fixtures/gppcdyn/"

/* ---- loader -------------------------------------------------------------- */

GB_TEST(gppcdyn, loads_fixture_with_patches_and_tolerances)
{
    gb_gppcdyn s;
    gb_diag d;
    int rc = gb_gppcdyn_load(FIX "small.scen", &s, &d);
    char msg[1024];
    gb_diag_format(&d, msg, sizeof msg);
    cr_assert_eq(rc, 0, "%s", msg);
    cr_assert_eq(s.width, 8);
    cr_assert_eq(s.height, 5);
    cr_assert_eq(s.npatch, 4);
    cr_assert_eq(s.ncmd, 13);
    cr_assert_eq(s.nquery, 9);
    cr_assert_str_eq(s.patch_path, FIX "small.patch");
    /* patch 0: the wall "@ O T @ @", all blocked; patch 2 "G S" passable */
    cr_assert_eq(s.patch[0].w, 1);
    cr_assert_eq(s.patch[0].h, 5);
    for (int i = 0; i < 5; i++) cr_assert_eq(s.cell[s.patch[0].c0 + (size_t)i], 0);
    cr_assert_eq(s.cell[s.patch[2].c0], 1);
    cr_assert_eq(s.cell[s.patch[2].c0 + 1], 1);
    cr_assert_eq(s.cell[s.patch[3].c0], 0);
    /* line 9: P 1 0 3 0 */
    const gb_gppcdyn_cmd *p = &s.cmd[2];
    cr_assert_eq(p->kind, GB_GPPCDYN_PATCH);
    cr_assert_eq(p->line, 9);
    cr_assert_eq(p->t, 1);
    cr_assert_eq(p->x, 3);
    /* lengths: -1 is "no path"; 14 significant digits -> one unit in the 14th */
    cr_assert_eq(s.cmd[3].len, -1);
    cr_assert_eq(s.cmd[3].tol, 0);
    cr_assert_float_eq(s.cmd[4].len, 4.8284271247462, 1e-15);
    cr_assert_float_eq(s.cmd[4].tol, 1e-13, 1e-20);
    cr_assert_float_eq(s.cmd[11].tol, 1e-12, 1e-19);   /* 10.071067811865: e = 1 */
    gb_gppcdyn_free(&s);
}

/* Parse scen (and, when pat is not NULL, the patch file) from strings;
 * the formatted diagnostic into msg ("" when both load). */
static int parse2(const char *scen, const char *pat, char *msg, size_t n)
{
    gb_gppcdyn s;
    gb_diag d;
    int rc = gb_gppcdyn_parse("t.scen", scen, strlen(scen), &s, &d);
    if (rc == 0 && pat) rc = gb_gppcdyn_parse_patches(&s, "t.patch", pat, strlen(pat), &d);
    msg[0] = '\0';
    if (rc) gb_diag_format(&d, msg, n);
    else gb_gppcdyn_free(&s);
    return rc;
}

#define HEAD "version 2\nheight 4\nwidth 6\ncost 1 octile\npatch t.patch\ncommands\n"
#define PAT1 "type patch\npatches 1\npatch 0\nheight 2\nwidth 3\nmap\n.@.\n@.@\n"

static void expect_error(const char *scen, const char *pat, const char *want)
{
    char msg[1024];
    int rc = parse2(scen, pat, msg, sizeof msg);
    cr_expect_eq(rc, EX_DATAERR, "rc %d for %s", rc, want);
    cr_expect_str_eq(msg, want);
}

GB_TEST(gppcdyn, bad_input_errors_are_pinned)
{
    expect_error("version 1\n", NULL,
                 "t.scen:1:9: error: expected version 2 (GPPC's dynamic scenarios), found 1");
    expect_error("version 2\nheight 0\n", NULL,
                 "t.scen:2:8: error: expected height as an integer in 1..8000, found '0'");
    expect_error("version 2\nheight 4\nwidth 8001\n", NULL,
                 "t.scen:3:7: error: expected width as an integer in 1..8000, found '8001'");
    expect_error("version 2\nheight 4\nwidth 6\ncost 2 euclidean manhattan\n", NULL,
                 "t.scen:4:8: error: expected 'octile' among the cost names, found none");
    expect_error("version 2\nheight 4\nwidth 6\ncost 1 octile\npatch\n", NULL,
                 "t.scen:5:6: error: expected a file name after 'patch', found the end of the line");
    expect_error(HEAD, NULL,
                 "t.scen:6: error: expected at least one query 'Q T SX SY GX GY LEN', found none");
    expect_error(HEAD "Q 0 0 0 6 1 5\n", NULL,
                 "t.scen:7:9: error: expected the goal x as an integer in 0..5, found '6'");
    expect_error(HEAD "Q 0 0 0 5 1 5x\n", NULL,
                 "t.scen:7:13: error: expected a length as a non-negative decimal number or -1, "
                 "found '5x'");
    expect_error(HEAD "Q 0 0 0 5 1\n", NULL,
                 "t.scen:7:12: error: expected 7 fields on a 'Q' line (Q T SX SY GX GY and one "
                 "length per cost), found 6");
    expect_error(HEAD "Q 3 0 0 5 1 5\nP 2 0 0 0\n", NULL,
                 "t.scen:8:3: error: expected a time >= 3 (that of line 7), found '2'");
    expect_error(HEAD "X 0 0 0 5 1 5\n", NULL,
                 "t.scen:7:1: error: expected a command 'P' (patch) or 'Q' (query), found 'X'");
    /* the patch file, then its references */
    expect_error(HEAD "Q 0 0 0 5 1 5\n", "type patch\npatches 1\npatch 0\nheight 2\nwidth 3\nmap\n"
                 ".@.\n@x@\n",
                 "t.patch:8:2: error: expected a terrain character ('.', 'G', 'S' passable; '@', "
                 "'O', 'T', 'W' blocked), found 'x'");
    expect_error(HEAD "Q 0 0 0 5 1 5\n", "type patch\npatches 1\npatch 0\nheight 2\nwidth 3\nmap\n"
                 ".@.\n@.\n",
                 "t.patch:8:3: error: expected 3 terrain characters in row 2 of patch 0, found 2");
    expect_error(HEAD "Q 0 0 0 5 1 5\n", "type patch\npatches 2\npatch 0\nheight 1\nwidth 1\nmap\n"
                 ".\n",
                 "t.patch:7: error: expected 'patch N', found the end of the file");
    expect_error(HEAD "Q 0 0 0 5 1 5\n", "type patch\npatches 1\npatch 0\nheight 5\n",
                 "t.patch:4:8: error: expected height as an integer in 1..4, found '5'");
    expect_error(HEAD "Q 0 0 0 5 1 5\n", "type patch\npatches 1\npatch 1\n",
                 "t.patch:3:7: error: expected patch 0 (in order), found 1");
    expect_error(HEAD "P 0 1 0 0\nQ 0 0 0 5 1 5\n", PAT1,
                 "t.scen:7:5: error: expected a patch index below 1 (the patches of t.patch), "
                 "found 1");
    expect_error(HEAD "P 0 0 4 1\nQ 0 0 0 5 1 5\n", PAT1,
                 "t.scen:7:5: error: expected patch 0 (3 x 2) at (4, 1) inside the 6 x 4 map, "
                 "found it reaching (6, 2)");
    /* and a good one loads */
    char msg[1024];
    cr_expect_eq(parse2(HEAD "P 0 0 3 2\nQ 0 0 0 5 1 5.4142135623731\n", PAT1, msg, sizeof msg),
                 0, "%s", msg);
}

GB_TEST(gppcdyn, absurd_headers_allocate_nothing)
{
    /* 10^8 patches or an 8000 x 8000 patch announced in a few bytes: refused
     * at the end of the input with memory proportional to what was read */
    gb_gppcdyn s;
    gb_diag d;
    const char *scen = "version 2\nheight 8000\nwidth 8000\ncost 1 octile\npatch p\ncommands\n"
                       "Q 0 0 0 1 1 -1\n";
    cr_assert_eq(gb_gppcdyn_parse("t.scen", scen, strlen(scen), &s, &d), 0);
    size_t live = gb_alloc_live();
    gb_alloc_reset_peak();
    const char *pat = "type patch\npatches 100000000\npatch 0\nheight 8000\nwidth 8000\nmap\n"
                      "........\n";
    cr_assert_eq(gb_gppcdyn_parse_patches(&s, "p", pat, strlen(pat), &d), EX_DATAERR);
    cr_assert_eq(gb_alloc_peak() < live + (1u << 20), 1, "peak %zu", gb_alloc_peak());
    cr_assert_str_eq(d.msg, "expected 8000 terrain characters in row 1 of patch 0, found 8");
}

/* ---- replay -------------------------------------------------------------- */

typedef struct rowlog {
    int n;
    struct {
        long line;
        char solver[64], queue[32], status[24];
        int has_cost;
        double cost, opt;
        uint64_t prep_ns;
        int bucket;
    } r[4096];
} rowlog;

static int log_row(void *arg, const gb_row *w, const char *msg)
{
    (void)msg;
    rowlog *L = arg;
    cr_assert_lt(L->n, 4096);
    L->r[L->n].line = w->line;
    snprintf(L->r[L->n].solver, sizeof L->r[0].solver, "%s", w->solver);
    snprintf(L->r[L->n].queue, sizeof L->r[0].queue, "%s", w->queue);
    snprintf(L->r[L->n].status, sizeof L->r[0].status, "%s", w->status);
    L->r[L->n].has_cost = w->has_cost;
    L->r[L->n].cost = w->cost;
    L->r[L->n].opt = w->opt;
    L->r[L->n].prep_ns = w->prep_ns;
    L->r[L->n].bucket = w->bucket;
    L->n++;
    return 0;
}

/* Every solver of `--solver all` that runs under 8-nocut, on queues q[0..nq). */
static int all_pairs(gb_gppcrep_pair *p, int max, const gb_queue_kind *q, int nq)
{
    int n = 0;
    const char *name;
    char err[256];
    for (int i = 0; (name = gb_solver_all(i)) != NULL; i++) {
        gb_solver_spec sp;
        cr_assert_eq(gb_solver_parse(name, &sp, err, sizeof err), 0, "%s", err);
        if (gb_solver_unsupported(&sp, GB_MODEL_8_NOCUT, err, sizeof err)) continue;
        for (int k = 0; k < (gb_solver_uses_queue(&sp) ? nq : 1); k++) {
            cr_assert_lt(n, max);
            p[n].spec = sp;
            p[n].queue = gb_solver_uses_queue(&sp) ? q[k] : GB_Q_BHEAP;
            n++;
        }
    }
    return n;
}

static rowlog L;

GB_TEST(gppcdyn, every_solver_two_queues_match_dijkstra_on_patched_fixture)
{
    gb_gppcdyn s;
    gb_diag d;
    cr_assert_eq(gb_gppcdyn_load(FIX "small.scen", &s, &d), 0, "%s", d.msg);
    static gb_gppcrep_pair p[128];
    const gb_queue_kind q[2] = { GB_Q_BHEAP, (gb_queue_kind)gb_queue_from_name("bucket") };
    int np = all_pairs(p, 128, q, 2);
    cr_assert_gt(np, 20);
    gb_gppcrep_sum sum;
    L.n = 0;
    cr_assert_eq(gb_gppcrep_run(&s, "small.scen", p, np, 0, log_row, &L, &sum, &d), 0, "%s",
                 d.msg);
    cr_expect_eq(sum.queries, 9);
    cr_expect_eq(sum.patches, 4);
    cr_expect_eq(sum.cells_changed, 9);   /* 5 blocked, 1 freed, 2 freed, 1 blocked again */
    cr_expect_eq(sum.failed, 0);
    cr_expect_eq(sum.mismatch, 0);        /* the hand-computed lengths: the patches applied */
    cr_assert_eq(L.n, 9 * np);
    for (int i = 0; i < L.n; i++) {
        const char *st = L.r[i].status;
        /* line 10: the wall blocks; 19: a patch blocked the start */
        int unreach = L.r[i].line == 10 || L.r[i].line == 19;
        if (unreach) {
            cr_expect_str_eq(st, "unreachable", "line %ld %s", L.r[i].line, L.r[i].solver);
            continue;
        }
        cr_expect_str_eq(st, "ok", "line %ld %s/%s", L.r[i].line, L.r[i].solver, L.r[i].queue);
        if (strcmp(L.r[i].solver, "dijkstra") == 0 || strcmp(L.r[i].solver, "jps+") == 0
            || strncmp(L.r[i].solver, "sg", 2) == 0)
            cr_expect_float_eq(L.r[i].cost, L.r[i].opt, 1e-9, "line %ld %s", L.r[i].line,
                               L.r[i].solver);
    }
    gb_gppcdyn_free(&s);
}

GB_TEST(gppcdyn, printed_length_disagreement_is_the_scenarios_fault)
{
    gb_gppcdyn s;
    gb_diag d;
    cr_assert_eq(gb_gppcdyn_load(FIX "mismatch.scen", &s, &d), 0, "%s", d.msg);
    gb_gppcrep_pair p[1];
    memset(p, 0, sizeof p);   /* user NULL: built-in pairs */
    char err[256];
    cr_assert_eq(gb_solver_parse("astar-octile", &p[0].spec, err, sizeof err), 0);
    p[0].queue = GB_Q_BHEAP;
    gb_gppcrep_sum sum;
    L.n = 0;
    cr_assert_eq(gb_gppcrep_run(&s, "m", p, 1, 0, log_row, &L, &sum, &d), 0);
    cr_assert_eq(L.n, 3);
    cr_expect_str_eq(L.r[0].status, "scen_mismatch");   /* prints 2, the optimum is 1 */
    cr_expect_str_eq(L.r[1].status, "ok");              /* second cost column is octile */
    cr_expect_str_eq(L.r[2].status, "scen_mismatch");   /* prints 9, the wall blocks */
    cr_expect_eq(sum.failed, 0);
    cr_expect_eq(sum.mismatch, 2);
    gb_gppcdyn_free(&s);
}

/* A scenario on a w x h map: a corridor query answered, then a patch that
 * closes its straight line, the same query again, then a patch opening
 * a shortcut, again.  Per-map tables built before a patch are wrong after. */
GB_TEST(gppcdyn, per_map_tables_are_rebuilt_after_a_patch)
{
    const char *scen = "version 2\nheight 9\nwidth 20\ncost 1 octile\npatch t.patch\ncommands\n"
                       "P 0 0 0 0\n"
                       "Q 0 1 4 18 4 17\n"
                       "P 1 1 9 0\n"
                       "Q 1 1 4 18 4 20.313708498985\n"
                       "P 2 2 9 4\n"
                       "Q 2 1 4 18 4 17\n";
    /* patch 0: the frame "all free", patch 1: a wall with a gap at y = 8, patch 2: a hole */
    char pat[4096];
    int n = snprintf(pat, sizeof pat, "type patch\npatches 3\npatch 0\nheight 9\nwidth 20\nmap\n");
    for (int y = 0; y < 9; y++) n += snprintf(pat + n, sizeof pat - (size_t)n, "....................\n");
    n += snprintf(pat + n, sizeof pat - (size_t)n, "patch 1\nheight 8\nwidth 1\nmap\n");
    for (int y = 0; y < 8; y++) n += snprintf(pat + n, sizeof pat - (size_t)n, "@\n");
    snprintf(pat + n, sizeof pat - (size_t)n, "patch 2\nheight 1\nwidth 1\nmap\n.\n");
    gb_gppcdyn s;
    gb_diag d;
    cr_assert_eq(gb_gppcdyn_parse("t.scen", scen, strlen(scen), &s, &d), 0, "%s", d.msg);
    cr_assert_eq(gb_gppcdyn_parse_patches(&s, "t.patch", pat, strlen(pat), &d), 0, "%s", d.msg);
    const char *names[] = { "jps+", "sg", "sg-tl", "sg-tl-dt", "astar-diff:k=4", "flowfield",
                            "hpa:c=4" };
    gb_gppcrep_pair p[7];
    memset(p, 0, sizeof p);   /* user NULL: built-in pairs */
    char err[256];
    for (int i = 0; i < 7; i++) {
        cr_assert_eq(gb_solver_parse(names[i], &p[i].spec, err, sizeof err), 0, "%s", err);
        p[i].queue = GB_Q_BHEAP;
    }
    gb_gppcrep_sum sum;
    L.n = 0;
    cr_assert_eq(gb_gppcrep_run(&s, "t", p, 7, 0, log_row, &L, &sum, &d), 0, "%s", d.msg);
    cr_assert_eq(L.n, 21);
    cr_expect_eq(sum.mismatch, 0, "the patches were not applied as written");
    cr_expect_eq(sum.failed, 0);
    for (int i = 0; i < L.n; i++) {
        cr_expect_str_eq(L.r[i].status, "ok", "%s line %ld", L.r[i].solver, L.r[i].line);
        if (i % 7 < 6) /* the optimal ones (hpa is bounded by nothing) */
            cr_expect_float_eq(L.r[i].cost, L.r[i].opt, 1e-9, "%s line %ld: %.10g vs %.10g",
                               L.r[i].solver, L.r[i].line, L.r[i].cost, L.r[i].opt);
    }
    /* the table families report a (re)build in every batch: prep_ns */
    for (int i = 0; i < L.n; i++)
        if (i % 7 < 5)
            cr_expect_gt(L.r[i].prep_ns, 0, "%s line %ld: no rebuild time", L.r[i].solver,
                         L.r[i].line);
    cr_expect_gt(sum.rebuild_ns, 0);
    gb_gppcdyn_free(&s);
}

/* ---- random patches against an independently patched map ---------------- */

GB_TEST(gppcdyn, random_patch_sequences_agree_with_independent_map, .timeout = 120)
{
    uint64_t rng = 0x9e3779b97f4a7c15ULL;
    const int cases = gb_test_full() ? 40 : 8;
    static char scen[1 << 16], pat[1 << 16];
    static uint8_t mirror[32 * 32];
    static gb_gppcrep_pair p[128];
    const gb_queue_kind q[2] = { GB_Q_BHEAP, (gb_queue_kind)gb_queue_from_name("pairing") };
    int np = all_pairs(p, 128, q, 2);
    for (int cs = 0; cs < cases; cs++) {
        int32_t w = 6 + (int32_t)(gb_rng_next(&rng) % 20), h = 6 + (int32_t)(gb_rng_next(&rng) % 20);
        memset(mirror, 1, sizeof mirror);
        /* patches: random rectangles of random terrain */
        int npat = 6, pn = snprintf(pat, sizeof pat, "type patch\npatches %d\n", npat);
        int32_t pw[6], ph[6];
        for (int i = 0; i < npat; i++) {
            pw[i] = 1 + (int32_t)(gb_rng_next(&rng) % (uint64_t)(w / 2));
            ph[i] = 1 + (int32_t)(gb_rng_next(&rng) % (uint64_t)(h / 2));
            pn += snprintf(pat + pn, sizeof pat - (size_t)pn, "patch %d\nheight %d\nwidth %d\nmap\n",
                           i, (int)ph[i], (int)pw[i]);
            for (int y = 0; y < ph[i]; y++) {
                for (int x = 0; x < pw[i]; x++)
                    pat[pn++] = "..@TG"[gb_rng_next(&rng) % 5];
                pat[pn++] = '\n';
            }
        }
        pat[pn] = '\0';
        int sn = snprintf(scen, sizeof scen, "version 2\nheight %d\nwidth %d\ncost 1 octile\n"
                          "patch t.patch\ncommands\n", (int)h, (int)w);
        /* batches: 2 patches then 4 queries, lengths from Dijkstra on the mirror */
        gb_grid g;
        cr_assert_eq(gb_grid_init(&g, w, h), 0);
        gb_ws *ws = NULL;
        gb_solver_spec dj;
        char err[256];
        cr_assert_eq(gb_solver_parse("dijkstra", &dj, err, sizeof err), 0);
        for (int t = 0; t < 5; t++) {
            for (int k = 0; k < 2; k++) {
                int i = (int)(gb_rng_next(&rng) % (uint64_t)npat);
                int32_t x0 = (int32_t)(gb_rng_next(&rng) % (uint64_t)(w - pw[i] + 1));
                int32_t y0 = (int32_t)(gb_rng_next(&rng) % (uint64_t)(h - ph[i] + 1));
                sn += snprintf(scen + sn, sizeof scen - (size_t)sn, "P %d %d %d %d\n", t, i,
                               (int)x0, (int)y0);
                /* the mirror: re-read the patch's rows from the text */
                const char *at = pat;
                char key[32];
                snprintf(key, sizeof key, "patch %d\n", i);
                at = strstr(at, key);
                at = strstr(at, "map\n") + 4;
                for (int32_t y = 0; y < ph[i]; y++, at++)
                    for (int32_t x = 0; x < pw[i]; x++, at++)
                        mirror[(y0 + y) * 32 + x0 + x] = *at == '.' || *at == 'G';
            }
            for (int32_t y = 0; y < h; y++)
                for (int32_t x = 0; x < w; x++) g.pass[gb_grid_id(&g, x, y)] = mirror[y * 32 + x];
            gb_grid_recount(&g);
            gb_ws_free(ws);
            ws = gb_ws_new(&g, GB_MODEL_8_NOCUT);
            cr_assert_not_null(ws);
            for (int k = 0; k < 4; k++) {
                int32_t sx = (int32_t)(gb_rng_next(&rng) % (uint64_t)w);
                int32_t sy = (int32_t)(gb_rng_next(&rng) % (uint64_t)h);
                int32_t gx = (int32_t)(gb_rng_next(&rng) % (uint64_t)w);
                int32_t gy = (int32_t)(gb_rng_next(&rng) % (uint64_t)h);
                int32_t a = gb_grid_id(&g, sx, sy), b = gb_grid_id(&g, gx, gy);
                double len = -1;
                gb_result res;
                if (g.pass[a] && g.pass[b]) {
                    cr_assert_eq(gb_solve(ws, &dj, GB_Q_BHEAP, a, b, &res), 0);
                    if (res.status == GB_FOUND) len = res.cost;
                }
                if (len < 0)
                    sn += snprintf(scen + sn, sizeof scen - (size_t)sn, "Q %d %d %d %d %d -1\n",
                                   t, (int)sx, (int)sy, (int)gx, (int)gy);
                else
                    sn += snprintf(scen + sn, sizeof scen - (size_t)sn, "Q %d %d %d %d %d %.14g\n",
                                   t, (int)sx, (int)sy, (int)gx, (int)gy, len);
            }
        }
        gb_ws_free(ws);
        gb_grid_free(&g);
        gb_gppcdyn s;
        gb_diag d;
        cr_assert_eq(gb_gppcdyn_parse("r.scen", scen, strlen(scen), &s, &d), 0, "%s", d.msg);
        cr_assert_eq(gb_gppcdyn_parse_patches(&s, "r.patch", pat, strlen(pat), &d), 0, "%s",
                     d.msg);
        gb_gppcrep_sum sum;
        L.n = 0;
        cr_assert_eq(gb_gppcrep_run(&s, "r", p, np, 0, log_row, &L, &sum, &d), 0, "%s", d.msg);
        cr_assert_eq(sum.queries, 20);
        cr_assert_eq(sum.mismatch, 0, "case %d: the replayed map differs from the mirror\n%s",
                     cs, scen);
        for (int i = 0; i < L.n; i++)
            cr_assert(!gb_row_status_failed((gb_row_status)gb_row_status_from_name(L.r[i].status,
                                                                                  strlen(L.r[i].status))),
                      "case %d line %ld: %s/%s %s\n%s", cs, L.r[i].line, L.r[i].solver,
                      L.r[i].queue, L.r[i].status, scen);
        gb_gppcdyn_free(&s);
    }
}

/* ---- the CLI -------------------------------------------------------------- */

static char out[65536];

GB_TEST(gppcdyn, cli_writes_run_rows_and_reports_bad_input)
{
    const char *bin = gb_test_bin();
    char dir[] = "/tmp/gbgppcdyn.XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    cr_assert_eq(gb_test_sh(out, sizeof out, "%s gppc-dynamic --quiet --out %s/o.csv -s jps+,sg "
                            "-q bheap,bucket " FIX "small.scen", bin, dir), 0, "%s", out);
    char path[256];
    snprintf(path, sizeof path, "%s/o.csv", dir);
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f);
    char line[2048];
    cr_assert_not_null(fgets(line, sizeof line, f));
    line[strcspn(line, "\n")] = '\0';
    cr_expect_str_eq(line, gb_rows_header());
    int rows = 0;
    while (fgets(line, sizeof line, f)) rows++;
    fclose(f);
    /* 9 queries x (dijkstra, astar-octile, jps+ on 2 queues; sg once) */
    cr_expect_eq(rows, 9 * 7);
    /* a bad patch reference: file:line:col, exit 65, no output */
    snprintf(path, sizeof path, "%s/bad.scen", dir);
    f = fopen(path, "w");
    cr_assert_not_null(f);
    fprintf(f, "version 2\nheight 5\nwidth 8\ncost 1 octile\npatch %s/" FIX
            "small.patch\ncommands\nP 0 7 0 0\nQ 0 0 0 1 1 -1\n", getcwd(line, sizeof line));
    fclose(f);
    cr_expect_eq(gb_test_sh(out, sizeof out, "%s gppc-dynamic --out %s/b.csv %s", bin, dir, path),
                 EX_DATAERR, "%s", out);
    cr_expect(strstr(out, "bad.scen:7:5: error: expected a patch index below 4"), "%s", out);
    cr_expect_neq(access(path, F_OK), -1);
    char b[300];
    snprintf(b, sizeof b, "%s/b.csv", dir);
    cr_expect_eq(access(b, F_OK), -1, "no CSV after an error");
    gb_test_sh(NULL, 0, "rm -rf %s", dir);
}

/* ---- user solvers (gb_user.h) on a changing map ---------------------------- */

/* Dijkstra of gridbench's own, as a user solver whose workspace is built
 * by prepare: one that follows patches with a change hook (and reports
 * a sentinel change_ns through its metrics), one that has no hook and
 * must be prepared again. */
typedef struct usol {
    gb_ws *ws;
    gb_solver_spec dj;
} usol;

static usol U_hook, U_plain;
#define SENTINEL_NS 12345

static int u_prepare(void *ctx, const gb_grid *g, gb_model m)
{
    usol *u = ctx;
    char err[256];
    u->ws = gb_ws_new(g, m);
    return u->ws && gb_solver_parse("dijkstra", &u->dj, err, sizeof err) == 0 ? 0 : -1;
}

static void u_release(void *ctx)
{
    usol *u = ctx;
    gb_ws_free(u->ws);
    u->ws = NULL;
}

static int32_t u_solve(void *ctx, const gb_grid *g, gb_model m, int32_t s, int32_t t, int32_t *path,
                       int32_t cap, gb_stats *st)
{
    (void)g; (void)m; (void)cap; (void)st;
    usol *u = ctx;
    gb_result res;
    if (gb_solve(u->ws, &u->dj, GB_Q_BHEAP, s, t, &res) != 0) return -1;
    if (res.status != GB_FOUND) return 0;
    memcpy(path, res.path, (size_t)res.path_len * sizeof *path);
    return res.path_len;
}

static int u_change(void *ctx, const gb_grid *g, const gb_user_patch *p, int n)
{
    usol *u = ctx;
    for (int k = 0; k < n; k++)
        for (int32_t y = 0; y < p[k].h; y++)
            for (int32_t x = 0; x < p[k].w; x++) gb_ws_cell_changed(u->ws, gb_grid_id(g, p[k].x + x, p[k].y + y));
    return 0;
}

static int u_metrics(void *ctx, gb_user_metrics *mo)
{
    (void)ctx;
    mo->version = GB_USER_METRICS_VERSION;
    mo->have = GB_UM_CHANGE;
    mo->change_ns = SENTINEL_NS;
    return 0;
}

GB_TEST(gppcdyn, user_solvers_follow_patches_by_hook_or_by_prepare_again)
{
    cr_assert_eq(gb_user_register("u-hook", u_solve, &U_hook, 1), 0);
    cr_assert_eq(gb_user_register("u-plain", u_solve, &U_plain, 1), 0);
    cr_assert_eq(gb_user_set_hooks("u-hook", u_prepare, u_release), 0);
    cr_assert_eq(gb_user_set_hooks("u-plain", u_prepare, u_release), 0);
    cr_assert_eq(gb_user_set_change("u-hook", u_change), 0);
    cr_assert_eq(gb_user_set_metrics("u-hook", u_metrics), 0);
    cr_assert(gb_user_has_change(gb_user_find("u-hook")));
    cr_assert(!gb_user_has_change(gb_user_find("u-plain")));
    gb_gppcrep_pair p[3];
    memset(p, 0, sizeof p);
    char err[256];
    cr_assert_eq(gb_solver_parse("dijkstra", &p[0].spec, err, sizeof err), 0);
    p[1].user = gb_user_find("u-hook");
    p[2].user = gb_user_find("u-plain");
    p[1].timeout_ms = p[2].timeout_ms = 60000;
    gb_gppcdyn s;
    gb_diag d;
    cr_assert_eq(gb_gppcdyn_load(FIX "small.scen", &s, &d), 0, "%s", d.msg);
    gb_gppcrep_sum sum;
    L.n = 0;
    cr_assert_eq(gb_gppcrep_run(&s, "small", p, 3, 0, log_row, &L, &sum, &d), 0, "%s", d.msg);
    cr_assert_eq(L.n, 9 * 3);
    int after = 0;
    for (int i = 0; i < L.n; i++) {
        cr_expect(!strcmp(L.r[i].status, "ok") || !strcmp(L.r[i].status, "unreachable"), "line %ld %s: %s",
                  L.r[i].line, L.r[i].solver, L.r[i].status);
        if (!strcmp(L.r[i].status, "unreachable") && !L.r[i].prep_ns) continue;   /* not searched */
        if (strcmp(L.r[i].solver, "dijkstra") == 0) continue;
        cr_expect_str_eq(L.r[i].queue, "none");
        /* the hook's own measure after a change; a prepare's wall time otherwise */
        if (!strcmp(L.r[i].solver, "u-hook") && L.r[i].bucket > 0) {
            cr_expect_eq(L.r[i].prep_ns, SENTINEL_NS, "line %ld", L.r[i].line);
            after++;
        } else {
            cr_expect(L.r[i].prep_ns > 0 && L.r[i].prep_ns != SENTINEL_NS, "line %ld %s", L.r[i].line,
                      L.r[i].solver);
        }
    }
    cr_expect_gt(after, 0);
    gb_gppcdyn_free(&s);
}

/* ---- GPPC dynamic-track entries (tests/gppc/dynbfs) ------------------------ */

#define DYNBFS "tests/gppc/dynbfs"
#define DW 20
#define DH 16
#define BATCHES 6
#define PER_BATCH 5

static void need_cxx(void)
{
    gb_test_bin();
    if (gb_test_sh(NULL, 0, "command -v c++") != 0) cr_skip_test("c++ not found");
}

/* Write dir/r.scen and dir/r.patch: BATCHES batches of 2 random patches
 * then PER_BATCH queries, every length from Dijkstra on a map patched
 * independently here (so the file is right by construction). */
static void write_random_scen(const char *dir, uint64_t rng)
{
    static char scen[1 << 16], pat[1 << 16];
    static uint8_t mirror[DW * DH];
    memset(mirror, 1, sizeof mirror);
    int npat = 8, pn = snprintf(pat, sizeof pat, "type patch\npatches %d\n", npat);
    int32_t pw[8], ph[8];
    for (int i = 0; i < npat; i++) {
        pw[i] = 2 + (int32_t)(gb_rng_next(&rng) % 6);
        ph[i] = 2 + (int32_t)(gb_rng_next(&rng) % 6);
        pn += snprintf(pat + pn, sizeof pat - (size_t)pn, "patch %d\nheight %d\nwidth %d\nmap\n", i,
                       (int)ph[i], (int)pw[i]);
        for (int y = 0; y < ph[i]; y++) {
            for (int x = 0; x < pw[i]; x++) pat[pn++] = "..@.@T"[gb_rng_next(&rng) % 6];
            pat[pn++] = '\n';
        }
    }
    pat[pn] = '\0';
    int sn = snprintf(scen, sizeof scen, "version 2\nheight %d\nwidth %d\ncost 1 octile\npatch r.patch\n"
                      "commands\n", DH, DW);
    gb_grid g;
    cr_assert_eq(gb_grid_init(&g, DW, DH), 0);
    gb_solver_spec dj;
    char err[256];
    cr_assert_eq(gb_solver_parse("dijkstra", &dj, err, sizeof err), 0);
    for (int t = 0; t < BATCHES; t++) {
        for (int k = 0; k < 2; k++) {
            int i = (int)(gb_rng_next(&rng) % (uint64_t)npat);
            int32_t x0 = (int32_t)(gb_rng_next(&rng) % (uint64_t)(DW - pw[i] + 1));
            int32_t y0 = (int32_t)(gb_rng_next(&rng) % (uint64_t)(DH - ph[i] + 1));
            sn += snprintf(scen + sn, sizeof scen - (size_t)sn, "P %d %d %d %d\n", t, i, (int)x0, (int)y0);
            char key[32];
            snprintf(key, sizeof key, "patch %d\n", i);
            const char *at = strstr(strstr(pat, key), "map\n") + 4;
            for (int32_t y = 0; y < ph[i]; y++, at++)
                for (int32_t x = 0; x < pw[i]; x++, at++) mirror[(y0 + y) * DW + x0 + x] = *at == '.';
        }
        for (int32_t y = 0; y < DH; y++)
            for (int32_t x = 0; x < DW; x++) g.pass[gb_grid_id(&g, x, y)] = mirror[y * DW + x];
        gb_grid_recount(&g);
        gb_ws *ws = gb_ws_new(&g, GB_MODEL_8_NOCUT);
        cr_assert_not_null(ws);
        for (int k = 0; k < PER_BATCH; k++) {
            int32_t sx = (int32_t)(gb_rng_next(&rng) % DW), sy = (int32_t)(gb_rng_next(&rng) % DH);
            int32_t gx = (int32_t)(gb_rng_next(&rng) % DW), gy = (int32_t)(gb_rng_next(&rng) % DH);
            int32_t a = gb_grid_id(&g, sx, sy), b = gb_grid_id(&g, gx, gy);
            double len = -1;
            gb_result res;
            if (g.pass[a] && g.pass[b]) {
                cr_assert_eq(gb_solve(ws, &dj, GB_Q_BHEAP, a, b, &res), 0);
                if (res.status == GB_FOUND) len = res.cost;
            }
            sn += snprintf(scen + sn, sizeof scen - (size_t)sn, len < 0 ? "Q %d %d %d %d %d -1\n"
                           : "Q %d %d %d %d %d %.14g\n", t, (int)sx, (int)sy, (int)gx, (int)gy, len);
        }
        gb_ws_free(ws);
    }
    gb_grid_free(&g);
    char p[256];
    snprintf(p, sizeof p, "%s/r.scen", dir);
    FILE *f = fopen(p, "w");
    cr_assert_not_null(f);
    fputs(scen, f);
    fclose(f);
    snprintf(p, sizeof p, "%s/r.patch", dir);
    f = fopen(p, "w");
    cr_assert_not_null(f);
    fputs(pat, f);
    fclose(f);
}

/* One row of a gppc-dynamic CSV, the columns the tests read. */
typedef struct dynrow {
    char solver[64], status[32];
    long line;
    int sx, sy, bucket, path_len;
    long calls;
    long long prep_ns;
    char tsrc[16];
} dynrow;

static int col_of(char **names, int n, const char *want)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(names[i], want)) return i;
    cr_assert_fail("no column %s", want);
    return -1;
}

/* Read the rows of solver (all rows when NULL) from path into r (at most
 * max); their number. */
static int read_rows(const char *path, const char *solver, dynrow *r, int max)
{
    static char hdr[4096], line[4096];
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "%s", path);
    cr_assert_not_null(fgets(hdr, sizeof hdr, f));
    char *names[64];
    int nn = 0;
    for (char *tok = strtok(hdr, ",\n"); tok && nn < 64; tok = strtok(NULL, ",\n")) names[nn++] = tok;
    int csol = col_of(names, nn, "solver"), cst = col_of(names, nn, "status"), cl = col_of(names, nn, "line"),
        csx = col_of(names, nn, "start_x"), csy = col_of(names, nn, "start_y"), cb = col_of(names, nn, "bucket"),
        cc = col_of(names, nn, "calls"), cp = col_of(names, nn, "prep_ns"),
        ct = col_of(names, nn, "time_source"), cpl = col_of(names, nn, "path_len");
    int n = 0;
    while (fgets(line, sizeof line, f) && n < max) {
        char *v[64];
        int k = 0;
        for (char *p = line; k < 64;) {   /* no field of these rows is quoted */
            v[k++] = p;
            char *c = strpbrk(p, ",\n");
            if (!c) break;
            int last = *c == '\n';
            *c = '\0';
            if (last) break;
            p = c + 1;
        }
        cr_assert_eq(k, nn, "a row of %d fields", k);
        if (solver && strcmp(v[csol], solver)) continue;
        snprintf(r[n].solver, sizeof r[n].solver, "%s", v[csol]);
        snprintf(r[n].status, sizeof r[n].status, "%s", v[cst]);
        snprintf(r[n].tsrc, sizeof r[n].tsrc, "%s", v[ct]);
        r[n].line = atol(v[cl]);
        r[n].sx = atoi(v[csx]);
        r[n].sy = atoi(v[csy]);
        r[n].bucket = atoi(v[cb]);
        r[n].calls = atol(v[cc]);
        r[n].prep_ns = atoll(v[cp]);
        r[n].path_len = atoi(v[cpl]);
        n++;
    }
    fclose(f);
    return n;
}

/* Lines of file path that begin with prefix. */
static int count_lines(const char *path, const char *prefix)
{
    char line[256];
    int n = 0;
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    while (fgets(line, sizeof line, f)) n += !strncmp(line, prefix, strlen(prefix));
    fclose(f);
    return n;
}

static dynrow R[1024];

GB_TEST(gppcdyn, dynamic_entry_follows_patches_and_matches_dijkstra, .timeout = 300)
{
    need_cxx();
    char dir[] = "/tmp/gbgppcdyn.XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    write_random_scen(dir, 0x5eed0001u);
    /* `gppc build` recognises the dynamic track */
    cr_assert_eq(gb_test_sh(out, sizeof out, "%s gppc build " DYNBFS " 2>&1 >/dev/null", gb_test_bin()), 0,
                 "%s", out);
    cr_expect(strstr(out, "dynamic track"), "%s", out);
    cr_assert_eq(gb_test_sh(out, sizeof out, "GB_GPPC_TEST_LOG=%s/log %s gppc-dynamic --quiet --gppc " DYNBFS
                            " --out %s/o.csv %s/r.scen", dir, gb_test_bin(), dir, dir), 0, "%s", out);
    char p[256], log[256];
    snprintf(p, sizeof p, "%s/o.csv", dir);
    snprintf(log, sizeof log, "%s/log", dir);
    int n = read_rows(p, "dynbfs", R, 1024), ok = 0, multi = 0;
    cr_assert_eq(n, BATCHES * PER_BATCH);
    for (int i = 0; i < n; i++) {
        cr_assert(!strcmp(R[i].status, "ok") || !strcmp(R[i].status, "unreachable"), "line %ld: %s", R[i].line,
                  R[i].status);
        if (strcmp(R[i].status, "ok")) continue;
        ok++;
        cr_expect_str_eq(R[i].tsrc, "gppc");
        cr_expect_gt(R[i].prep_ns, 0, "line %ld: prep_ns", R[i].line);
        /* about a third of the cells per call */
        if (R[i].path_len >= 3) cr_expect_geq(R[i].calls, 2, "line %ld: %ld calls", R[i].line, R[i].calls);
        multi += R[i].calls > 1;
    }
    cr_expect_gt(ok, n / 2, "%d of %d queries found a path", ok, n);
    cr_expect_gt(multi, 0);
    /* one worker, prepared once; gppc_map_change once per batch after the
     * first (whose patches precede every query), with both patches, after
     * active_map had them; the startkit's other name of the free function */
    cr_expect_eq(count_lines(log, "init "), 1);
    cr_expect_eq(count_lines(log, "change 2 agree"), BATCHES - 1);
    cr_expect_eq(count_lines(log, "change "), BATCHES - 1);
    cr_expect_eq(count_lines(log, "free"), 1);
    gb_test_sh(NULL, 0, "rm -rf %s", dir);
}

/* `gppc build DYNBFS --name dynbfs-bad`: the plugin into so.  Its broken
 * variants are chosen at run time ($GB_DYNBFS_VARIANT), so the suite's
 * cache ($XDG_CACHE_HOME of make test) compiles it once. */
static void build_bad(char *so, size_t n)
{
    cr_assert_eq(gb_test_sh(out, sizeof out,
                            GB_TEST_GPPC_LOCK "%s gppc build -q " DYNBFS " --name dynbfs-bad",
                            gb_test_bin()),
                 0, "%s", out);
    out[strcspn(out, "\n")] = '\0';
    snprintf(so, n, "%.1200s", out);
}

GB_TEST(gppcdyn, dynamic_entry_that_ignores_changes_fails_after_a_patch, .timeout = 300)
{
    need_cxx();
    char dir[] = "/tmp/gbgppcdyn.XXXXXX", so[1300];
    cr_assert_not_null(mkdtemp(dir));
    write_random_scen(dir, 0x5eed0001u);
    build_bad(so, sizeof so);
    int rc = gb_test_sh(out, sizeof out,
                        "GB_DYNBFS_VARIANT=ignore %s gppc-dynamic --quiet --plugin %s -s dynbfs-bad "
                        "--out %s/o.csv %s/r.scen",
                        gb_test_bin(), so, dir, dir);
    cr_expect_eq(rc, 1, "exit %d: %s", rc, out);
    char p[256];
    snprintf(p, sizeof p, "%s/o.csv", dir);
    int n = read_rows(p, "dynbfs-bad", R, 1024), bad = 0;
    cr_assert_eq(n, BATCHES * PER_BATCH);
    for (int i = 0; i < n; i++) {
        int failed = gb_row_status_failed((gb_row_status)gb_row_status_from_name(R[i].status,
                                                                                 strlen(R[i].status)));
        if (R[i].bucket == 0) cr_expect(!failed, "line %ld before any change: %s", R[i].line, R[i].status);
        bad += failed;
    }
    cr_expect_gt(bad, 0, "a stale map never showed");
    gb_test_sh(NULL, 0, "rm -rf %s", dir);
}

GB_TEST(gppcdyn, dynamic_entry_that_crashes_or_loops_costs_rows_not_the_run, .timeout = 300)
{
    need_cxx();
    char dir[] = "/tmp/gbgppcdyn.XXXXXX", so[1300];
    cr_assert_not_null(mkdtemp(dir));
    write_random_scen(dir, 0x5eed0001u);
    build_bad(so, sizeof so);
    int crashes = 0, timeouts = 0;
    for (int loop = 0; loop < 2; loop++) { /* the crashing run, then the looping one */
        int rc = gb_test_sh(out, sizeof out,
                            "GB_DYNBFS_VARIANT=%s %s gppc-dynamic --quiet --plugin %s -s dynbfs-bad "
                            "--plugin-timeout 1500 -n 12 --out %s/o%d.csv %s/r.scen",
                            loop ? "loop" : "crash", gb_test_bin(), so, dir, loop, dir);
        cr_expect_eq(rc, 1, "exit %d: %s", rc, out);
        char p[256];
        snprintf(p, sizeof p, "%s/o%d.csv", dir, loop);
        int n = read_rows(p, NULL, R, 1024);
        cr_assert_eq(n, 12 * 3, "every query has its rows");
        for (int i = 0; i < n; i++) {
            if (!strcmp(R[i].solver, "dijkstra") || !strcmp(R[i].solver, "astar-octile")) continue;
            cr_assert_str_eq(R[i].solver, "dynbfs-bad");
            int searched = strcmp(R[i].status, "unreachable") != 0 || R[i].calls > 0;
            int crashing = !loop && (R[i].sx + R[i].sy) % 3 == 0;
            int looping = loop && (R[i].sx + R[i].sy) % 4 == 1;
            if (crashing && searched) cr_expect_str_eq(R[i].status, "crash", "line %ld", R[i].line);
            else if (looping && searched)
                cr_expect_str_eq(R[i].status, "timeout", "line %ld", R[i].line);
            else
                cr_expect(!strcmp(R[i].status, "ok") || !strcmp(R[i].status, "unreachable"),
                          "line %ld %s: %s", R[i].line, R[i].solver, R[i].status);
            crashes += !strcmp(R[i].status, "crash");
            timeouts += !strcmp(R[i].status, "timeout");
        }
    }
    cr_expect_gt(crashes, 0);
    cr_expect_gt(timeouts, 0);
    gb_test_sh(NULL, 0, "rm -rf %s", dir);
}

GB_TEST(gppcdyn, classic_entry_is_prepared_again_after_each_change, .timeout = 300)
{
    need_cxx();
    if (gb_test_sh(NULL, 0, "command -v make") != 0) cr_skip_test("make not found");
    char dir[] = "/tmp/gbgppcdyn.XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    cr_assert_eq(gb_test_sh(out, sizeof out, "GB_GPPC_TEST_LOG=%s/log %s gppc-dynamic --quiet --gppc "
                            "tests/gppc/bfs --out %s/o.csv " FIX "small.scen", dir, gb_test_bin(), dir), 0,
                 "%s", out);
    char p[256], log[256];
    snprintf(p, sizeof p, "%s/o.csv", dir);
    snprintf(log, sizeof log, "%s/log", dir);
    int n = read_rows(p, "gppc-test-astar", R, 1024);
    cr_assert_eq(n, 9);
    for (int i = 0; i < n; i++)
        cr_expect(!strcmp(R[i].status, "ok") || !strcmp(R[i].status, "unreachable"), "line %ld: %s", R[i].line,
                  R[i].status);
    /* no change hook: PrepareForSearch once per batch (4 batches, 3 changes) */
    cr_expect_eq(count_lines(log, "prepare 8x5"), 4);
    gb_test_sh(NULL, 0, "rm -rf %s", dir);
}
