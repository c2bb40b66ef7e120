/*
 * test_dynamic.c -- dynamic maps: the cell flip and local mask repair of
 * gb_grid, D* Lite against Dijkstra after every change, the dynamic
 * scenario loader's diagnostics, the seeded generator, and the
 * `gridbench dynamic` replay runner's rows.
 *
 * More random cases: GB_DYN_CASES=N (default 3000) and GB_DYN_SEED=S.
 */
#include "gb_test.h"
#include <errno.h>
#include <malloc.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gb_alloc.h"
#include "gb_dstar.h"
#include "gb_dynscen.h"
#include "gb_search.h"
#include "gb_stats.h"
#include "gb_validate.h"

/* The reference search and move rules of the fuzz checks (fz_reference,
 * fz_legal: written from gb_grid.h's definitions, no solver code), for
 * re-checking a trace. */
#include "../fuzz/fuzz_checks.h"

static int32_t below(uint64_t *s, int32_t n) { return (int32_t)(gb_rng_next(s) % (uint64_t)n); }

static long env_long(const char *name, long dflt)
{
    const char *v = getenv(name);
    return v && *v ? strtol(v, NULL, 10) : dflt;
}

/* A random w x h grid with about pct % blocked cells. */
static void random_grid(gb_grid *g, int32_t w, int32_t h, int pct, uint64_t *r)
{
    cr_assert_eq(gb_grid_init(g, w, h), 0);
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++)
            g->pass[gb_grid_id(g, x, y)] = below(r, 100) >= pct;
    gb_grid_recount(g);
}

/* A random query: a grid of min + [0, span) cells a side with [0, pct) %
 * blocked cells, a movement model, and start a and goal b (forced free). */
static gb_model random_query(gb_grid *g, int32_t min, int32_t span, int pct, uint64_t *r,
                             int32_t *a, int32_t *b)
{
    random_grid(g, min + below(r, span), min + below(r, span), below(r, pct), r);
    gb_model m = (gb_model)below(r, GB_MODEL_COUNT);
    *a = gb_grid_id(g, below(r, g->width), below(r, g->height));
    *b = gb_grid_id(g, below(r, g->width), below(r, g->height));
    gb_grid_set(g, *a, 1);
    gb_grid_set(g, *b, 1);
    return m;
}

/* ---- the grid's local repair ---------------------------------------------- */

GB_TEST(dynamic, grid_local_masks_equal_full_rebuild)
{
    uint64_t r = 7;
    for (int it = 0; it < 300; it++) {
        gb_grid g;
        random_grid(&g, 3 + below(&r, 14), 3 + below(&r, 14), below(&r, 50), &r);
        gb_model m = (gb_model)below(&r, GB_MODEL_COUNT);
        uint8_t *mv = malloc((size_t)g.ncells), *full = malloc((size_t)g.ncells);
        gb_grid_moves(&g, m, mv);
        for (int k = 0; k < 20; k++) {
            int32_t id = gb_grid_id(&g, below(&r, g.width), below(&r, g.height));
            int was = g.pass[id], np = g.npassable;
            cr_assert_eq(gb_grid_set(&g, id, !was), 1);
            cr_assert_eq(g.npassable, np + (was ? -1 : 1));
            cr_assert_eq(gb_grid_set(&g, id, !was), 0, "no change the second time");
            gb_grid_moves_around(&g, m, mv, id);
            gb_grid_moves(&g, m, full);
            cr_assert(memcmp(mv, full, (size_t)g.ncells) == 0,
                      "masks after flipping a cell differ from a full rebuild (model %s)",
                      gb_model_name(m));
        }
        cr_assert_eq(gb_grid_set(&g, 0, 1), -1, "a border cell is not a map cell");
        free(mv);
        free(full);
        gb_grid_free(&g);
    }
}

/* ---- D* Lite against Dijkstra ------------------------------------------------ */

/* Dijkstra's cost from a to b on g as it is now (gb_solve dijkstra on a
 * workspace kept in step), validated; found = 0 when unreachable. */
static int oracle(gb_ws *ws, const gb_grid *g, gb_model m, int32_t a, int32_t b, gb_check *chk)
{
    gb_solver_spec sp;
    char err[128];
    cr_assert_eq(gb_solver_parse("dijkstra", &sp, err, sizeof err), 0);
    gb_result res;
    cr_assert_eq(gb_solve(ws, &sp, GB_Q_BHEAP, a, b, &res), 0);
    if (res.status != GB_FOUND) return 0;
    gb_xy *xy = malloc((size_t)res.path_len * sizeof *xy);
    for (int32_t i = 0; i < res.path_len; i++)
        xy[i] = (gb_xy){ gb_grid_x(g, res.path[i]), gb_grid_y(g, res.path[i]) };
    gb_xy s = { gb_grid_x(g, a), gb_grid_y(g, a) }, t = { gb_grid_x(g, b), gb_grid_y(g, b) };
    cr_assert(gb_validate_path(g, m, s, t, xy, (size_t)res.path_len, res.cost, chk), "%s",
              chk->msg);
    free(xy);
    return 1;
}

/* The D* Lite plan must be found iff Dijkstra finds one, valid on the map
 * now, and cost exactly what Dijkstra's path costs. */
static void check_plan(const gb_grid *g, gb_model m, int32_t a, int32_t b,
                       const gb_dstar_plan *p, gb_ws *ws, const char *where, int it)
{
    gb_check oc;
    int ofound = oracle(ws, g, m, a, b, &oc);
    cr_assert_eq(p->found, ofound, "%s (case %d): D* Lite found=%d, Dijkstra found=%d",
                 where, it, p->found, ofound);
    if (!ofound) return;
    gb_xy *xy = malloc((size_t)p->path_len * sizeof *xy);
    for (int32_t i = 0; i < p->path_len; i++)
        xy[i] = (gb_xy){ gb_grid_x(g, p->path[i]), gb_grid_y(g, p->path[i]) };
    gb_xy s = { gb_grid_x(g, a), gb_grid_y(g, a) }, t = { gb_grid_x(g, b), gb_grid_y(g, b) };
    gb_check dc;
    int ok = gb_validate_path(g, m, s, t, xy, (size_t)p->path_len, p->cost, &dc);
    free(xy);
    cr_assert(ok, "%s (case %d): D* Lite path invalid: %s", where, it, dc.msg);
    cr_assert(dc.straight == p->straight && dc.diag == p->diag,
              "%s (case %d): D* Lite says %lld+%lld*sqrt2, its path has %lld+%lld*sqrt2",
              where, it, (long long)p->straight, (long long)p->diag, (long long)dc.straight,
              (long long)dc.diag);
    cr_assert_eq(gb_check_cmp(&dc, &oc), 0,
                 "%s (case %d, model %s): D* Lite cost %.9f (%lld+%lld*sqrt2), Dijkstra %.9f "
                 "(%lld+%lld*sqrt2)", where, it, gb_model_name(m), dc.cost,
                 (long long)dc.straight, (long long)dc.diag, oc.cost,
                 (long long)oc.straight, (long long)oc.diag);
}

GB_TEST(dynamic, dstar_equals_dijkstra_after_every_change)
{
    long ncases = env_long("GB_DYN_CASES", 3000);
    uint64_t r = (uint64_t)env_long("GB_DYN_SEED", 17);
    long plans = 0, repairs = 0;
    for (int it = 0; it < ncases; it++) {
        gb_grid g;
        int32_t a, b;
        gb_model m = random_query(&g, 2, 20, 45, &r, &a, &b);
        gb_ws *ws = gb_ws_new(&g, m);
        gb_dstar *d = gb_dstar_new(&g, m);
        cr_assert(ws && d);
        gb_dstar_begin(d, a, b);
        gb_dstar_plan p;
        cr_assert_eq(gb_dstar_plan_path(d, &p), 0);
        check_plan(&g, m, a, b, &p, ws, "first plan", it);
        plans++;
        int32_t agent = a;
        int rounds = 1 + below(&r, 8);
        for (int k = 0; k < rounds; k++) {
            /* the agent walks a few steps of its plan */
            if (p.found) {
                int32_t steps = below(&r, 4);
                if (steps > p.path_len - 1) steps = p.path_len - 1;
                agent = p.path[steps];
                gb_dstar_move(d, agent);
            }
            /* a few cells flip (never the agent's or the goal's), some twice */
            int nflip = 1 + below(&r, 6);
            for (int f = 0; f < nflip; f++) {
                int32_t c = gb_grid_id(&g, below(&r, g.width), below(&r, g.height));
                if (c == agent || c == b) continue;
                gb_grid_set(&g, c, !g.pass[c]);
                gb_ws_cell_changed(ws, c);
                gb_dstar_cell_changed(d, c);
            }
            cr_assert_eq(gb_dstar_plan_path(d, &p), 0, "case %d: path extraction failed", it);
            check_plan(&g, m, agent, b, &p, ws, "repaired plan", it);
            repairs++;
        }
        gb_dstar_free(d);
        gb_ws_free(ws);
        gb_grid_free(&g);
    }
    cr_log_info("D* Lite: %ld first plans and %ld repaired plans equal Dijkstra", plans,
                repairs);
}

/* A second episode on the same state forgets the first (stamps), and a
 * change far from the path expands far less than the first plan. */
GB_TEST(dynamic, dstar_repairs_locally_and_restarts_clean)
{
    gb_grid g;
    cr_assert_eq(gb_grid_init(&g, 64, 64), 0);
    for (int32_t y = 0; y < 64; y++)
        for (int32_t x = 0; x < 64; x++) g.pass[gb_grid_id(&g, x, y)] = 1;
    gb_grid_recount(&g);
    gb_dstar *d = gb_dstar_new(&g, GB_MODEL_8_NOCUT);
    gb_ws *ws = gb_ws_new(&g, GB_MODEL_8_NOCUT);
    int32_t a = gb_grid_id(&g, 0, 0), b = gb_grid_id(&g, 63, 0);
    gb_dstar_plan p;
    gb_dstar_begin(d, a, b);
    cr_assert_eq(gb_dstar_plan_path(d, &p), 0);
    cr_assert(p.found && p.straight == 63 && p.diag == 0);
    uint64_t first = p.expanded;
    /* a wall cell far below the straight path */
    int32_t c = gb_grid_id(&g, 30, 60);
    gb_grid_set(&g, c, 0);
    gb_ws_cell_changed(ws, c);
    gb_dstar_cell_changed(d, c);
    cr_assert_eq(gb_dstar_plan_path(d, &p), 0);
    cr_assert(p.found && p.straight == 63 && p.diag == 0);
    cr_assert_lt(p.expanded, first / 4 + 1, "repair expanded %llu, first plan %llu",
                 (unsigned long long)p.expanded, (unsigned long long)first);
    /* block the path right ahead: it must bend (cost 62 + 2 sqrt2 - ...) */
    c = gb_grid_id(&g, 1, 0);
    gb_grid_set(&g, c, 0);
    gb_ws_cell_changed(ws, c);
    gb_dstar_cell_changed(d, c);
    cr_assert_eq(gb_dstar_plan_path(d, &p), 0);
    check_plan(&g, GB_MODEL_8_NOCUT, a, b, &p, ws, "bend", 0);
    cr_assert(p.diag > 0);
    /* a new episode, the other way round */
    gb_dstar_begin(d, b, a);
    cr_assert_eq(gb_dstar_plan_path(d, &p), 0);
    check_plan(&g, GB_MODEL_8_NOCUT, b, a, &p, ws, "second episode", 0);
    gb_dstar_free(d);
    gb_ws_free(ws);
    gb_grid_free(&g);
}

/* Issue #26: a fresh object is safe whatever order the API is called in.
 * Cells told before the first gb_dstar_begin change only the masks, a
 * move before it is ignored and a plan before it is refused; then the
 * episode plans exactly as a twin object (told the same cells, no
 * early move or plan, no garbage in its blocks) does.  With
 * glibc's M_PERTURB the fresh blocks hold 0x10 bytes, so a g, rhs or pos
 * that touch() never initialised reads as a heap index far out of range
 * (the old code's epoch and stamps were both 0 there: a crash). */
GB_TEST(dynamic, dstar_is_safe_before_the_first_begin)
{
    uint64_t r = 23;
    for (int it = 0; it < 60; it++) {
        gb_grid g;
        int32_t a, b;
        gb_model m = random_query(&g, 3, 24, 35, &r, &a, &b);
#ifdef M_PERTURB
        mallopt(M_PERTURB, 0xef);
#endif
        gb_dstar *d = gb_dstar_new(&g, m);
#ifdef M_PERTURB
        mallopt(M_PERTURB, 0);
#endif
        gb_dstar *twin = gb_dstar_new(&g, m);
        gb_ws *ws = gb_ws_new(&g, m);
        cr_assert(d && twin && ws);
        /* cells near the goal and anywhere flip before any episode */
        for (int f = 0; f < 8; f++) {
            int32_t c = f < 4 ? b + g.off[below(&r, 8)]
                              : gb_grid_id(&g, below(&r, g.width), below(&r, g.height));
            if (c == a || c == b || gb_grid_set(&g, c, !g.pass[c]) != 1) continue;
            gb_ws_cell_changed(ws, c);
            gb_dstar_cell_changed(d, c);
            gb_dstar_cell_changed(twin, c);
        }
        gb_dstar_move(d, a);
        gb_dstar_plan p, q;
        errno = 0;
        cr_assert_eq(gb_dstar_plan_path(d, &p), -1, "case %d: a plan before any episode", it);
        cr_assert(!p.found && !p.path && errno == EINVAL, "case %d: found %d, errno %d", it,
                  p.found, errno);
        gb_dstar_begin(d, a, b);
        cr_assert_eq(gb_dstar_plan_path(d, &p), 0, "case %d", it);
        check_plan(&g, m, a, b, &p, ws, "first plan after early changes", it);
        gb_dstar_begin(twin, a, b);
        cr_assert_eq(gb_dstar_plan_path(twin, &q), 0);
        cr_assert(p.found == q.found && p.path_len == q.path_len && p.expanded == q.expanded
                  && p.updates == q.updates && p.pops == q.pops,
                  "case %d: early calls changed the episode (%d cells, %llu expanded; "
                  "its twin: %d, %llu)", it, p.path_len, (unsigned long long)p.expanded,
                  q.path_len, (unsigned long long)q.expanded);
        cr_assert(!p.found || memcmp(p.path, q.path, (size_t)p.path_len * sizeof *p.path) == 0);
        gb_dstar_free(d);
        gb_dstar_free(twin);
        gb_ws_free(ws);
        gb_grid_free(&g);
    }
}

/* ---- the loader ------------------------------------------------------------ */

static int parse(const char *text, gb_dynscen *s, gb_diag *d)
{
    return gb_dynscen_parse("t.dscen", text, strlen(text), s, d);
}

/* The loader must refuse text[0 .. len) with "t.dscen:LINE:COL: error: MSG". */
static void refuses_n(const char *text, size_t len, long line, long col, const char *msg)
{
    gb_dynscen s;
    gb_diag d;
    int rc = gb_dynscen_parse("t.dscen", text, len, &s, &d);
    cr_assert_eq(rc, EX_DATAERR, "accepted:\n%s", text);
    char buf[1024], want[1024];
    gb_diag_format(&d, buf, sizeof buf);
    if (col > 0) snprintf(want, sizeof want, "t.dscen:%ld:%ld: error: %s", line, col, msg);
    else snprintf(want, sizeof want, "t.dscen:%ld: error: %s", line, msg);
    cr_assert_str_eq(buf, want);
    cr_assert_null(s.q, "a failed load owns nothing");
}

/* The same for a NUL-terminated text. */
static void refuses(const char *text, long line, long col, const char *msg)
{
    refuses_n(text, strlen(text), line, col, msg);
}

#define HDR "gridbench-dynamic 1\n"
#define Q1 "query m.map 10 8 1 1 8 6\n"

GB_TEST(dynamic, loader_reads_queries_events_and_cells)
{
    gb_dynscen s;
    gb_diag d;
    const char *text = "# c\n\n" HDR Q1 "at 3 block 2,2 3,2\r\n  near 2 free 5,5\n"
                       "query m.map 10 8 0 0 9 7\n# no events\n";
    cr_assert_eq(parse(text, &s, &d), 0, "%s", d.msg);
    cr_assert_eq(s.version, 1);
    cr_assert_str_eq(s.map_field, "m.map");
    cr_assert_eq(s.n, 2);
    cr_assert_eq(s.q[0].line, 4);
    cr_assert_eq(s.q[0].nev, 2);
    cr_assert_eq(s.q[1].nev, 0);
    cr_assert_eq(s.q[1].gx, 9);
    gb_dyn_event *e = &s.ev[0];
    cr_assert(e->trigger == GB_DYN_AT && e->value == 3 && e->block == 1 && e->nc == 2);
    cr_assert(s.cell[e->c0 + 1].x == 3 && s.cell[e->c0 + 1].y == 2);
    e = &s.ev[1];
    cr_assert(e->trigger == GB_DYN_NEAR && e->value == 2 && e->block == 0 && e->line == 6);
    cr_assert(s.cell[e->c0].x == 5 && s.cell[e->c0].y == 5);
    gb_dynscen_free(&s);
}

GB_TEST(dynamic, loader_errors_name_file_line_column)
{
    refuses("", 1, 0, "expected the header 'gridbench-dynamic 1', found an empty file");
    refuses("# only\n\n", 2, 0,
            "expected the header 'gridbench-dynamic 1', found only blank and comment lines");
    refuses(Q1, 1, 1, "expected the header 'gridbench-dynamic 1', found 'query'");
    refuses("gridbench-dynamic 2\n" Q1, 1, 19, "expected version 1, found 2");
    refuses(HDR, 1, 0, "expected at least one query line, found none");
    refuses(HDR "at 3 block 1,1\n", 2, 1,
            "expected a query line before the first event, found 'at'");
    refuses(HDR Q1 "query m.map 10 8 1 1 8\n", 3, 23,
            "expected goal y (query MAP W H SX SY GX GY), found the end of the line");
    refuses(HDR Q1 "query m.map 10 8 1 1 8 6 x\n", 3, 26,
            "expected 8 fields (query MAP W H SX SY GX GY), found 9: extra 'x'");
    refuses(HDR "query m.map 10 0 1 1 8 6\n", 2, 16,
            "expected map height as an integer >= 1, found '0'");
    refuses(HDR "query m.map 10 8 10 1 8 6\n", 2, 18,
            "expected start x below the map width 10, found 10");
    refuses(HDR Q1 "query n.map 10 8 1 1 8 6\n", 3, 7,
            "expected the map of the first query 'm.map' (line 2), found 'n.map'");
    refuses(HDR Q1 "at 0 block 1,1\n", 3, 4, "expected step as an integer >= 1, found '0'");
    refuses(HDR Q1 "near -1 block 1,1\n", 3, 6,
            "expected radius as an integer >= 1, found '-1'");
    refuses(HDR Q1 "at 3 close 1,1\n", 3, 6, "expected block or free, found 'close'");
    refuses(HDR Q1 "at 3 block\n", 3, 11,
            "expected at least one cell X,Y, found the end of the line");
    refuses(HDR Q1 "at 3 block 1,1 12\n", 3, 16,
            "expected a cell X,Y (digits, a comma, digits), found '12'");
    refuses(HDR Q1 "at 3 block 1,x\n", 3, 14, "expected cell y as an integer >= 0, found 'x'");
    refuses(HDR Q1 "at 3 block 1,8\n", 3, 12,
            "expected a cell inside the 10x8 map of line 2, found '1,8'");
    refuses(HDR Q1 "at 3 free 8,6\nat 4 block 2,2 8,6\n", 4, 16,
            "expected a cell other than the goal 8,6 of line 2 (the goal is never blocked), "
            "found '8,6'");
    refuses(HDR Q1 "wait 3\n", 3, 1, "expected query, at, near or a '#' comment, found 'wait'");
    refuses(HDR Q1 "at 99999999999 block 1,1\n", 3, 4,
            "expected step at most 2147483647, found '99999999999'");
    /* control bytes are quoted, never printed raw */
    refuses(HDR Q1 "at 3 bl\x01ock 1,1\n", 3, 6, "expected block or free, found 'bl\\x01ock'");
    /* found by fuzz/fuzz_dyn.c: the name was kept up to the NUL and the
     * file written back lost its query line */
    refuses_n(HDR "query m\0p.map 10 8 1 1 8 6\n", sizeof HDR "query m\0p.map 10 8 1 1 8 6\n" - 1,
              2, 7, "expected a map file name, found a NUL byte in 'm\\x00p.map'");
}

GB_TEST(dynamic, loader_missing_file_and_write_round_trip)
{
    gb_dynscen s;
    gb_diag d;
    cr_assert_eq(gb_dynscen_load("/nonexistent/x.dscen", &s, &d), EX_NOINPUT);
    const char *text = HDR Q1 "at 3 block 2,2 3,2\nnear 2 free 5,5\nquery m.map 10 8 0 0 9 7\n";
    cr_assert_eq(parse(text, &s, &d), 0);
    char path[] = "/tmp/gbdyn.XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    close(fd);
    cr_assert_eq(gb_dynscen_write(path, &s, &d), 0, "%s", d.msg);
    char *buf;
    size_t len;
    cr_assert_eq(gb_read_file(path, &buf, &len, &d), 0);
    cr_assert_str_eq(buf, text);
    gb_free(buf);
    unlink(path);
    gb_dynscen_free(&s);
}

/* ---- the generator ---------------------------------------------------------- */

/* A 40x30 map of rooms: walls every 10 cells with one-cell doors. */
static void rooms_map(gb_map *m)
{
    memset(m, 0, sizeof *m);
    cr_assert_eq(gb_grid_init(&m->grid, 40, 30), 0);
    gb_grid *g = &m->grid;
    for (int32_t y = 0; y < 30; y++)
        for (int32_t x = 0; x < 40; x++) {
            int wall = (x % 10 == 9) || (y % 10 == 9);
            int door = (x % 10 == 9 && y % 10 == 4) || (y % 10 == 9 && x % 10 == 4);
            g->pass[gb_grid_id(g, x, y)] = !wall || door;
        }
    gb_grid_recount(g);
}

#include "gb_dyngen.h"

GB_TEST(dynamic, generator_is_reproducible_and_valid)
{
    gb_map m;
    rooms_map(&m);
    gb_dyngen_opts o;
    gb_dyngen_defaults(&o);
    o.queries = 15;
    o.seed = 5;
    gb_dynscen a, b, c;
    gb_diag d;
    cr_assert_eq(gb_dyngen(&o, &m, "rooms.map", NULL, &a, &d), 0, "%s", d.msg);
    cr_assert_eq(gb_dyngen(&o, &m, "rooms.map", NULL, &b, &d), 0);
    o.seed = 6;
    cr_assert_eq(gb_dyngen(&o, &m, "rooms.map", NULL, &c, &d), 0);
    cr_assert_eq(a.n, 15);
    cr_assert_eq(a.nev, b.nev);
    cr_assert_eq(a.ncell, b.ncell);
    cr_assert(memcmp(a.q, b.q, a.n * sizeof *a.q) == 0, "same seed, same queries");
    cr_assert(memcmp(a.ev, b.ev, a.nev * sizeof *a.ev) == 0, "same seed, same events");
    cr_assert(memcmp(a.cell, b.cell, a.ncell * sizeof *a.cell) == 0);
    cr_assert(a.nev != c.nev || memcmp(a.cell, c.cell, a.ncell * sizeof *a.cell) != 0,
              "another seed, other events");
    /* doors are closed (the map has one-cell doors), obstacles appear */
    size_t at = 0, near = 0, frees = 0;
    for (size_t e = 0; e < a.nev; e++) {
        at += a.ev[e].trigger == GB_DYN_AT;
        near += a.ev[e].trigger == GB_DYN_NEAR;
        frees += !a.ev[e].block;
        if (a.ev[e].trigger == GB_DYN_AT && a.ev[e].block) {
            gb_dyn_cell cl = a.cell[a.ev[e].c0];
            int32_t id = gb_grid_id(&m.grid, cl.x, cl.y);
            cr_assert(m.grid.pass[id] && (cl.x % 10 == 9 || cl.y % 10 == 9),
                      "door %d,%d is not a door", (int)cl.x, (int)cl.y);
        }
    }
    cr_assert_eq(at - frees, 15 * 3, "three door closings per query");
    cr_assert_gt(near, 0);
    /* what it writes, the loader reads back identically */
    char path[] = "/tmp/gbdyn.XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    close(fd);
    cr_assert_eq(gb_dynscen_write(path, &a, &d), 0);
    gb_dynscen r;
    cr_assert_eq(gb_dynscen_load(path, &r, &d), 0, "%s:%ld: %s", path, d.line, d.msg);
    cr_assert_eq(r.n, a.n);
    cr_assert_eq(r.nev, a.nev);
    for (size_t i = 0; i < a.n; i++) {
        cr_assert_eq(r.q[i].line, a.q[i].line);
        cr_assert_eq(gb_dynscen_check_query(&r, i, &m, &d), 0, "%s", d.msg);
    }
    for (size_t e = 0; e < a.nev; e++) cr_assert_eq(r.ev[e].line, a.ev[e].line);
    unlink(path);
    gb_dynscen_free(&r);
    gb_dynscen_free(&a);
    gb_dynscen_free(&b);
    gb_dynscen_free(&c);
    gb_map_free(&m);
}

GB_TEST(dynamic, generator_refuses_bad_options)
{
    gb_dyngen_opts o;
    gb_dyngen_defaults(&o);
    gb_diag d;
    o.radius = 0;
    cr_assert_eq(gb_dyngen_check(&o, &d), EX_USAGE);
    cr_assert_str_eq(d.msg, "expected --radius from 1 to 1000000, found 0");
    gb_dyngen_defaults(&o);
    o.reopen_pct = 101;
    cr_assert_eq(gb_dyngen_check(&o, &d), EX_USAGE);
    cr_assert_str_eq(d.msg, "expected --reopen from 0 to 100, found 101");
}

/* ---- the CLI: gen --dynamic, then dynamic, rows checked --------------------- */

static char out[65536];

GB_TEST(dynamic, cli_gen_and_replay_rows_are_checked)
{
    const char *bin = gb_test_bin();
    char dir[] = "/tmp/gbdyncli.XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    /* a map from the generator of synthetic maps, then dynamic scenarios for it */
    cr_assert_eq(gb_test_sh(out, sizeof out, "%s gen --family rooms --size 64 --room 8 --seed 3 "
                            "--per-bucket 1 --out %s", bin, dir), 0, "%s", out);
    cr_assert_eq(gb_test_sh(out, sizeof out, "%s gen --dynamic --map %s/room64-8-3.map --queries 12 "
                            "--seed 9 --out %s/a.dscen && %s gen --dynamic --map "
                            "%s/room64-8-3.map --queries 12 --seed 9 --out %s/b.dscen && "
                            "cmp %s/a.dscen %s/b.dscen", bin, dir, dir, bin, dir, dir, dir, dir),
                 0, "%s", out);
    cr_assert_eq(gb_test_sh(out, sizeof out, "%s dynamic --out %s/d.csv %s/a.dscen", bin, dir,
                            dir), 0, "%s", out);
    cr_assert(strstr(out, "12 queries, 0 wrong"), "%s", out);
    /* every row: arrived, plans = replans + 1, replans > 0 somewhere,
     * D* Lite's replans never expand more than A*'s in total */
    char path[256];
    snprintf(path, sizeof path, "%s/d.csv", dir);
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f);
    char line[4096];
    cr_assert_not_null(fgets(line, sizeof line, f));
    const char *head = "file,query,line,map,model,astar,sx,sy,gx,gy,events,status,steps,";
    cr_assert(strncmp(line, head, strlen(head)) == 0, "%s", line);
    int rows = 0;
    long replans_all = 0;
    unsigned long long dexp = 0, aexp = 0;
    while (fgets(line, sizeof line, f)) {
        /* fields after the quoted map name: split on commas */
        /* no field of these rows holds a comma (quoted names included) */
        char *fld[40];
        int nf = 0;
        line[strcspn(line, "\n")] = '\0';
        for (char *p = line; p && nf < 40; nf++) {
            fld[nf] = p;
            p = strchr(p, ',');
            if (p) *p++ = '\0';
        }
        cr_assert_eq(nf, 31, "31 columns, found %d", nf);
        rows++;
        const char *status = fld[11];
        cr_assert(strcmp(status, "arrived") == 0 || strcmp(status, "unreachable") == 0,
                  "status %s", status);
        long plans = atol(fld[17]), replans = atol(fld[18]);
        cr_assert_eq(plans, replans + 1);
        long steps = atol(fld[12]);
        double walk = atof(fld[13]);
        cr_assert(walk >= (double)steps - 1e-6 && walk <= (double)steps * 1.41421357,
                  "a walk of %ld steps costs %s", steps, fld[13]);
        if (strcmp(status, "arrived") == 0) cr_assert_gt(steps, 0);
        cr_assert_gt(atol(fld[19]), 0, "first plan time");
        replans_all += replans;
        dexp += strtoull(fld[22], NULL, 10);
        aexp += strtoull(fld[26], NULL, 10);
        if (replans == 0) cr_assert_eq(strtoull(fld[22], NULL, 10), 0);
    }
    fclose(f);
    cr_assert_eq(rows, 12);
    cr_assert_gt(replans_all, 0, "the generated events make the agent replan");
    cr_assert_lt(dexp, aexp, "D* Lite repairs (%llu expansions) < A* from scratch (%llu)", dexp,
                 aexp);
    /* a bad file: the loader's message, exit 65, no CSV */
    cr_assert_eq(gb_test_sh(out, sizeof out, "printf 'gridbench-dynamic 1\\nat 1 block 1,1\\n' "
                            ">%s/bad.dscen; %s dynamic --out %s/e.csv %s/bad.dscen", dir, bin, dir,
                            dir), 65);
    cr_assert(strstr(out, "bad.dscen:2:1: error: expected a query line before the first event"),
              "%s", out);
    char e[256];
    snprintf(e, sizeof e, "%s/e.csv", dir);
    cr_assert_neq(access(e, F_OK), 0, "no CSV after a failure");
    gb_test_sh(NULL, 0, "rm -rf %s", dir);
}

/* Hand-made corridor: a door closes ahead (unreachable after one replan),
 * a block of the agent's own cell is dropped, start == goal arrives at once. */
GB_TEST(dynamic, cli_unreachable_dropped_and_trivial_rows)
{
    const char *bin = gb_test_bin();
    char dir[] = "/tmp/gbdyncli.XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    cr_assert_eq(gb_test_sh(out, sizeof out,
                            "cd %s && printf 'type octile\\nheight 1\\nwidth 7\\nmap\\n.......\\n' >c.map && "
                            "printf 'gridbench-dynamic 1\\nquery c.map 7 1 0 0 6 0\\nat 2 block 4,0\\n"
                            "query c.map 7 1 0 0 6 0\\nnear 1 block 0,0 1,0\\n"
                            "query c.map 7 1 3 0 3 0\\n' >c.dscen && %s dynamic -q --out c.csv c.dscen "
                            "&& cut -d, -f12-19 c.csv", dir, bin), 0, "%s", out);
    cr_assert_str_eq(out, "status,steps,travelled,first_cost,cells_changed,dropped,plans,replans\n"
                          "unreachable,2,2.00000000,6.00000000,1,0,2,1\n"
                          "unreachable,0,0.00000000,0.00000000,1,1,1,0\n"
                          "arrived,0,0.00000000,0.00000000,0,0,1,0\n");
    gb_test_sh(NULL, 0, "rm -rf %s", dir);
}

/* Run the shell commands of fmt (printf-style) in a new temporary
 * folder, removed after; their output in out.  Returns the exit status. */
static int sh_in_tmpdir(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int sh_in_tmpdir(const char *fmt, ...)
{
    char dir[] = "/tmp/gbdyncli.XXXXXX", cmd[3000];
    cr_assert_not_null(mkdtemp(dir));
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    cr_assert(w > 0 && (size_t)w < sizeof cmd, "command too long");
    int rc = gb_test_sh(out, sizeof out, "cd %s && %s", dir, cmd);
    gb_test_sh(NULL, 0, "rm -rf %s", dir);
    return rc;
}

/* A 7 x 3 open map in the current folder (c.map). */
#define OPEN_MAP_SH "printf 'type octile\\nheight 3\\nwidth 7\\nmap\\n.......\\n.......\\n.......\\n' >c.map"

/* Issue #26: a `near` event that fires at t = 0 on the very first query
 * of a run told D* Lite of its cells before its first episode (the
 * sanitizer build crashed in sift_down; the release build read
 * uninitialised memory).  MALLOC_PERTURB_ (glibc) and ASan's
 * malloc_fill_byte fill fresh blocks with 0x10 bytes, so both builds
 * crash on the old code, deterministically. */
#define FILL_ENV "MALLOC_PERTURB_=239 ASAN_OPTIONS=\"${ASAN_OPTIONS:+$ASAN_OPTIONS:}malloc_fill_byte=16\" "
GB_TEST(dynamic, cli_change_at_t0_on_the_first_query)
{
    int rc = sh_in_tmpdir(OPEN_MAP_SH " && printf 'gridbench-dynamic 1\\nquery c.map 7 3 0 0 6 0\\n"
                          "near 1 block 1,0 1,1\\n' >c.dscen && " FILL_ENV "%s dynamic -q "
                          "--out c.csv c.dscen && cut -d, -f12-19 c.csv", gb_test_bin());
    cr_assert_eq(rc, 0, "exit %d: %s", rc, out);
    cr_assert_str_eq(out, "status,steps,travelled,first_cost,cells_changed,dropped,plans,replans\n"
                          "arrived,8,8.82842712,8.82842712,2,0,1,0\n");
}

/* The same on the real map of the report (skipped without the shared data). */
GB_TEST(dynamic, cli_change_at_t0_on_arena)
{
    const char *bin = gb_test_bin();
    const char *sh = getenv("GB_SHARED");
    char map[1024];
    snprintf(map, sizeof map, "%s/dao/arena.map", sh && *sh ? sh : "../shared/movingai");
    if (access(map, R_OK) != 0) cr_skip_test("%s not found (set GB_SHARED)", map);
    int rc = sh_in_tmpdir("printf 'gridbench-dynamic 1\\nquery %s 49 49 1 44 41 33\\n"
                          "near 14 block 2,30\\n' >t.dscen && " FILL_ENV "%s dynamic -q "
                          "--out t.csv t.dscen && cut -d, -f12 t.csv", map, bin);
    cr_assert_eq(rc, 0, "exit %d: %s", rc, out);
    cr_assert_str_eq(out, "status\narrived\n");
}

/* Issue #26 item 10: a valid file where nothing replans (no events; an
 * unreachable goal) left no replan_speedup to sort, and qsort(NULL, 0)
 * made the sanitizer build exit 1.  Run under `make check`'s build. */
GB_TEST(dynamic, cli_nothing_replans_exits_0)
{
    int rc = sh_in_tmpdir(OPEN_MAP_SH " && printf 'gridbench-dynamic 1\\nquery c.map 7 3 0 0 6 2\\n"
                          "query c.map 7 3 3 1 3 1\\n' >c.dscen && %s dynamic --out c.csv "
                          "c.dscen && cut -d, -f12,19 c.csv", gb_test_bin());
    cr_assert_eq(rc, 0, "exit %d: %s", rc, out);
    cr_assert(strstr(out, "2 queries, 0 wrong, 0 replans"), "%s", out);
    cr_assert(strstr(out, "status,replans\narrived,0\narrived,0\n"), "%s", out);
}

/* ---- the trace, re-checked from its text alone ------------------------------ */

/* An outsider's state while reading a trace. */
typedef struct trace_chk {
    char dir[64];                  /* where relative map paths start */
    fz_grid map, now;              /* the file's map; the map now */
    int gx, gy;                    /* the query's goal */
    int ax, ay;                    /* the agent */
    int plan[GB_FUZZ_MAXCELLS][2]; /* the current plan (x, y), agent..goal */
    int plen, at;                  /* its length, the agent's index in it */
    int none;                      /* the last plan found no path */
    int changed;                   /* a cell flipped since the last plan */
    long q, t;                     /* query number, steps made */
    double walked;
    long plans, moves;             /* totals */
} trace_chk;

/* A Moving AI map file into *G (at most 32 x 32). */
static void read_map(const char *path, fz_grid *G, gb_model m)
{
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "cannot open the map %s of the trace", path);
    char line[256];
    int h = 0, w = 0;
    cr_assert_not_null(fgets(line, sizeof line, f));   /* type octile */
    cr_assert(fgets(line, sizeof line, f) && sscanf(line, "height %d", &h) == 1);
    cr_assert(fgets(line, sizeof line, f) && sscanf(line, "width %d", &w) == 1);
    cr_assert(fgets(line, sizeof line, f) && strcmp(line, "map\n") == 0);
    cr_assert(w >= 1 && h >= 1 && w <= GB_FUZZ_MAXDIM && h <= GB_FUZZ_MAXDIM);
    G->w = w;
    G->h = h;
    G->model = m;
    for (int y = 0; y < h; y++) {
        cr_assert_not_null(fgets(line, sizeof line, f));
        for (int x = 0; x < w; x++) G->free_[y * w + x] = strchr(".GS", line[x]) != NULL;
    }
    fclose(f);
}

/* "X,Y" into a cell inside the map. */
static void cell_of(const trace_chk *c, const char *tok, int *x, int *y)
{
    cr_assert(tok && sscanf(tok, "%d,%d", x, y) == 2, "expected X,Y, found '%s'", tok);
    cr_assert(*x >= 0 && *y >= 0 && *x < c->now.w && *y < c->now.h, "cell %s outside", tok);
}

/* One line of a trace (without its LF), against the rules of
 * docs/dynamic.md: every plan from the agent to the goal, legal on the
 * map now, optimal; every move the next cell of the plan. */
static void check_trace_line(trace_chk *c, char *line)
{
    char *save, *kind = strtok_r(line, " ", &save);
    cr_assert_not_null(kind);
    if (strcmp(kind, "file") == 0) return;
    if (strcmp(kind, "map") == 0) {
        int w = atoi(strtok_r(NULL, " ", &save)), h = atoi(strtok_r(NULL, " ", &save));
        int m = gb_model_from_name(strtok_r(NULL, " ", &save));
        char path[1200], *p = save;
        cr_assert(m >= 0 && p && *p);
        snprintf(path, sizeof path, "%s%s%s", p[0] == '/' ? "" : c->dir, p[0] == '/' ? "" : "/", p);
        read_map(path, &c->map, (gb_model)m);
        cr_assert(c->map.w == w && c->map.h == h);
        c->q = 0;
        return;
    }
    long q = atol(strtok_r(NULL, " ", &save));
    if (strcmp(kind, "query") == 0) {
        cr_assert_eq(q, c->q + 1, "queries in order");
        c->q = q;
        strtok_r(NULL, " ", &save);   /* its line */
        c->now = c->map;
        cell_of(c, strtok_r(NULL, " ", &save), &c->ax, &c->ay);
        cell_of(c, strtok_r(NULL, " ", &save), &c->gx, &c->gy);
        c->t = 0;
        c->walked = 0;
        c->plen = c->at = 0;
        c->changed = 1;   /* the first plan is due */
        return;
    }
    cr_assert_eq(q, c->q, "a %s line of query %ld inside query %ld", kind, q, c->q);
    if (strcmp(kind, "end") == 0) {
        const char *status = strtok_r(NULL, " ", &save);
        cr_assert_eq(atol(strtok_r(NULL, " ", &save)), c->t);
        cr_assert(fabs(atof(strtok_r(NULL, " ", &save)) - c->walked) < 1e-6);
        cr_assert(!c->changed, "query %ld ends with an unplanned change", q);
        int there = c->ax == c->gx && c->ay == c->gy;
        cr_assert(strcmp(status, there ? "arrived" : "unreachable") == 0 && there != c->none,
                  "query %ld: %s with the agent at %d,%d", q, status, c->ax, c->ay);
        return;
    }
    long t = atol(strtok_r(NULL, " ", &save));
    if (strcmp(kind, "move") == 0) {
        cr_assert(t == c->t + 1 && !c->changed && !c->none && c->at + 1 < c->plen,
                  "query %ld: move %ld after step %ld, off its plan or before a replan", q, t, c->t);
        int x, y;
        cell_of(c, strtok_r(NULL, " ", &save), &x, &y);
        c->at++;
        cr_assert(x == c->plan[c->at][0] && y == c->plan[c->at][1], "query %ld step %ld: "
                  "moved to %d,%d, the plan says %d,%d", q, t, x, y, c->plan[c->at][0],
                  c->plan[c->at][1]);
        c->walked += (x != c->ax && y != c->ay) ? GB_SQRT2 : 1.0;
        c->ax = x;
        c->ay = y;
        c->t = t;
        c->moves++;
        return;
    }
    cr_assert_eq(t, c->t, "query %ld: a %s line at step %ld after step %ld", q, kind, t, c->t);
    if (strcmp(kind, "event") == 0) {
        strtok_r(NULL, " ", &save);   /* its line in the scenario */
        const char *act = strtok_r(NULL, " ", &save);
        int block = strcmp(act, "block") == 0, x, y;
        cr_assert(block || strcmp(act, "free") == 0);
        for (char *tok; (tok = strtok_r(NULL, " ", &save)) != NULL;) {
            cell_of(c, tok, &x, &y);
            cr_assert(!block || x != c->ax || y != c->ay, "a block of the agent's cell applied");
            uint8_t *f = &c->now.free_[y * c->now.w + x];
            c->changed |= *f != !block;
            *f = (uint8_t)!block;
        }
    } else if (strcmp(kind, "drop") == 0) {
        int x, y;
        cell_of(c, strtok_r(NULL, " ", &save), &x, &y);
        cr_assert(x == c->ax && y == c->ay, "dropped %d,%d, the agent is on %d,%d", x, y,
                  c->ax, c->ay);
    } else if (strcmp(kind, "plan") == 0) {
        cr_assert(c->changed, "query %ld: a plan at step %ld without a change", q, t);
        c->changed = 0;
        c->plans++;
        int64_t rs, rd;
        int found = fz_reference(&c->now, c->ay * c->now.w + c->ax, c->gy * c->now.w + c->gx,
                                 &rs, &rd);
        const char *tok = strtok_r(NULL, " ", &save);
        c->none = strcmp(tok, "none") == 0;
        cr_assert_eq(found, !c->none, "query %ld step %ld: plan %s, the reference %s", q, t,
                     tok, found ? "finds a path" : "finds none");
        if (c->none) return;
        double cost = atof(tok);
        long st = atol(strtok_r(NULL, " ", &save)), dg = atol(strtok_r(NULL, " ", &save));
        c->plen = c->at = 0;
        long ns = 0, nd = 0;
        int x, y;
        for (; (tok = strtok_r(NULL, " ", &save)) != NULL; c->plen++) {
            cell_of(c, tok, &x, &y);
            if (c->plen > 0) {
                int dx = x - c->plan[c->plen - 1][0], dy = y - c->plan[c->plen - 1][1];
                cr_assert(abs(dx) <= 1 && abs(dy) <= 1 && (dx || dy)
                          && fz_legal(&c->now, x - dx, y - dy, dx, dy),
                          "query %ld step %ld: illegal move to %s", q, t, tok);
                if (dx && dy) nd++;
                else ns++;
            }
            c->plan[c->plen][0] = x;
            c->plan[c->plen][1] = y;
        }
        cr_assert(c->plen >= 1 && c->plan[0][0] == c->ax && c->plan[0][1] == c->ay
                  && x == c->gx && y == c->gy, "query %ld step %ld: plan not agent..goal", q, t);
        cr_assert(ns == st && nd == dg && fabs(cost - ((double)st + (double)dg * GB_SQRT2)) < 1e-7,
                  "query %ld step %ld: plan says %.8f = %ld + %ld sqrt2, its cells %ld + %ld", q, t,
                  cost, st, dg, ns, nd);
        cr_assert(rs == st && rd == dg, "query %ld step %ld: plan %ld + %ld sqrt2, the "
                  "reference %lld + %lld sqrt2", q, t, st, dg, (long long)rs, (long long)rd);
    } else {
        cr_assert_fail("unknown trace line kind '%s'", kind);
    }
}

/* gridbench dynamic --trace on a generated 32 x 32 map, under two
 * models: the trace, read alone, replays to the same plans, moves and
 * outcomes as the CSV's, every plan legal and optimal on the map then. */
GB_TEST(dynamic, cli_trace_rechecks_independently, .timeout = 60)
{
    const char *bin = gb_test_bin();
    trace_chk c;
    memset(&c, 0, sizeof c);
    snprintf(c.dir, sizeof c.dir, "/tmp/gbdyntrace.XXXXXX");
    cr_assert_not_null(mkdtemp(c.dir));
    cr_assert_eq(gb_test_sh(out, sizeof out, "cd %s && %s gen --family rooms --size 32 --room 8 "
                            "--seed 3 --per-bucket 1 --out . && %s gen --dynamic --map "
                            "room32-8-3.map --queries 10 --seed 2 --out a.dscen", c.dir, bin, bin),
                 0, "%s", out);
    static const char *const models[] = { "8-nocut", "4" };
    for (int mi = 0; mi < 2; mi++) {
        int rc = gb_test_sh(out, sizeof out, "cd %s && %s dynamic -q -m %s --out a.csv "
                            "--trace a.trace a.dscen", c.dir, bin, models[mi]);
        cr_assert_eq(rc, 0, "exit %d: %s", rc, out);
        char path[256], line[65536];
        snprintf(path, sizeof path, "%s/a.trace", c.dir);
        FILE *f = fopen(path, "r");
        cr_assert_not_null(f);
        cr_assert(fgets(line, sizeof line, f) && strcmp(line, "gridbench-dynamic-trace 1\n") == 0,
                  "header: %s", line);
        c.plans = c.moves = 0;
        long ends = 0;
        while (fgets(line, sizeof line, f)) {
            size_t n = strlen(line);
            cr_assert(n > 0 && line[n - 1] == '\n', "a line longer than the buffer or torn");
            line[n - 1] = '\0';
            ends += strncmp(line, "end ", 4) == 0;
            check_trace_line(&c, line);
        }
        fclose(f);
        cr_assert_eq(ends, 10);
        /* the CSV agrees: total plans and steps */
        cr_assert_eq(gb_test_sh(out, sizeof out, "cd %s && awk -F, 'NR > 1 { p += $18; s += $13 } "
                                "END { print p, s }' a.csv", c.dir), 0);
        char want[64];
        snprintf(want, sizeof want, "%ld %ld\n", c.plans, c.moves);
        cr_assert_str_eq(out, want, "model %s: CSV plans and steps vs the trace's", models[mi]);
        cr_assert_gt(c.plans, 10, "model %s: some queries replan", models[mi]);
    }
    /* refused: the trace on the CSV; a failed run leaves neither file */
    cr_assert_eq(gb_test_sh(out, sizeof out, "cd %s && %s dynamic --out b.csv --trace b.csv "
                            "a.dscen", c.dir, bin), 64);
    cr_assert(strstr(out, "--trace: expected a file other than --out, found 'b.csv'"), "%s", out);
    cr_assert_eq(gb_test_sh(out, sizeof out, "cd %s && printf 'gridbench-dynamic 1\\nquery "
                            "room32-8-3.map 32 32 0 0 99 0\\n' >bad.dscen; %s dynamic --out b.csv "
                            "--trace b.trace a.dscen bad.dscen; echo rc $?; ls", c.dir, bin), 0);
    cr_assert(strstr(out, "rc 65\n"), "%s", out);
    cr_assert(!strstr(out, "b.csv") && !strstr(out, "b.trace") && !strstr(out, ".tmp."), "%s",
              out);
    gb_test_sh(NULL, 0, "rm -rf %s", c.dir);
}

/* Issue #30: gen --dynamic wrote the map's absolute path, so a scenario
 * did not survive a move to another folder or machine.  The map column
 * is now relative to the scenario's folder, as in Moving AI .scen files,
 * and the pair still replays after the whole tree moved. */
GB_TEST(dynamic, cli_gen_writes_the_map_relative_to_the_scenario)
{
    const char *bin = gb_test_bin();
    char dir[] = "/tmp/gbdynrel.XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    cr_assert_eq(gb_test_sh(out, sizeof out, "cd %s && mkdir -p maps scen/sub && %s gen --family "
                            "rooms --size 32 --room 8 --seed 3 --per-bucket 1 --out maps && "
                            "%s gen --dynamic --map %s/maps/room32-8-3.map --queries 3 --seed 1 "
                            "--out %s/scen/sub/a.dscen && cd maps && %s gen --dynamic --map "
                            "./room32-8-3.map --queries 3 --seed 1 --out ../scen/b.dscen && "
                            "%s gen --dynamic --map room32-8-3.map --queries 3 --seed 1 --out "
                            "c.dscen && cd .. && for f in scen/sub/a scen/b maps/c; do "
                            "sed -n 2p $f.dscen | cut -d' ' -f2; done", dir, bin, bin, dir, dir,
                            bin, bin), 0, "%s", out);
    cr_assert(strstr(out, "../../maps/room32-8-3.map\n../maps/room32-8-3.map\n"
                          "room32-8-3.map\n"), "%s", out);
    /* the tree moves; replayed from elsewhere, each scenario finds its map */
    cr_assert_eq(gb_test_sh(out, sizeof out, "mv %s %s.moved && cd / && for f in scen/sub/a "
                            "scen/b maps/c; do %s dynamic -q --out %s.moved/x.csv "
                            "%s.moved/$f.dscen || exit 1; done", dir, dir, bin, dir, dir),
                 0, "%s", out);
    gb_test_sh(NULL, 0, "rm -rf %s.moved %s", dir, dir);
}
