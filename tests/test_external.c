/*
 * test_external.c -- the external-solver driver (gb_external.h) against
 * the reference clients of examples/ and against clients that misbehave
 * in every way the protocol (docs/protocol.md) can be broken.
 *
 *   *_small_*     examples/solver.py and examples/solver.c on a
 *                 hand-written 16x10 map (every terrain letter, two walled-
 *                 in pockets), 60 queries under each of the 4 models: the
 *                 driver's path passes gb_validate_path and has exactly
 *                 Dijkstra's (straight, diagonal) step counts; unreachable
 *                 goals give nopath; the client exits 0 on quit.
 *   *_arena       the same on the first 30 queries of dao/arena.map.scen
 *                 ($GB_SHARED, default ../shared/movingai; skipped when
 *                 absent).
 *   wrong_*       examples/wrong_solver.py: each kind of wrong answer is
 *                 classified right (invalid path by the validator,
 *                 suboptimal by the cost comparison, protocol errors with
 *                 their exact message, timeout, crash with the exit status
 *                 or signal), and the query after each one succeeds.
 *   start_*, sigpipe_*, out_of_turn_*, restart_*, set_map_*
 *                 failures to start, a child that closes its stdin (the
 *                 test process must not die of SIGPIPE), output out of
 *                 turn, giving up after failed restarts, switching maps.
 *   cli_*         `gridbench run --external` ($GB_BIN): rows, statuses and
 *                 exit codes; skipped while the runner has no --external.
 *
 * Runs from the repository root (as `make test` does); needs python3 (and
 * cc for the C client), skips otherwise.  No test sets .timeout: every
 * wait in the driver is bounded, and the tests assert the bounds (several
 * concurrent .timeout tests also make Criterion 2.4 leak 96 bytes, which
 * fails `make check`).
 */
#include "gb_test.h"
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gb_external.h"
#include "gb_map.h"
#include "gb_scen.h"
#include "gb_search.h"
#include "gb_validate.h"

/* 16 x 10; '.' 'G' 'S' passable, '@' 'O' 'T' 'W' blocked.  (2,8) and
 * (8,8) are walled in; (14,3) 'G' is reachable. */
static const char small_map[] =
    "type octile\nheight 10\nwidth 16\nmap\n"
    "................\n"
    ".@@@@...T...@...\n"
    ".@..@...T...@...\n"
    ".@..@@@.TTT.@.G.\n"
    ".@......S...@...\n"
    ".@@@@@..S..@@@..\n"
    "........S.......\n"
    ".WWW..@@@@@..O..\n"
    ".W.W..@.G.@..O..\n"
    ".WWW..@@@@@.....\n";

static void load_small(gb_map *m)
{
    gb_diag d;
    cr_assert_eq(gb_map_parse("small.map", small_map, sizeof small_map - 1, m, &d), 0, "%s", d.msg);
}

static void need_tools(int need_cc)
{
    if (access("examples/solver.py", R_OK) != 0)
        cr_skip_test("examples/ not found (run from the repository root)");
    if (system("command -v python3 >/dev/null 2>&1") != 0) cr_skip_test("python3 not found");
    if (need_cc && system("command -v cc >/dev/null 2>&1") != 0) cr_skip_test("cc not found");
}

/* Build examples/solver.c into a fresh temp dir; the command in cmd. */
static void build_c_client(char *dir, size_t dirsz, char *cmd, size_t cmdsz)
{
    snprintf(dir, dirsz, "/tmp/gbext.XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
    char line[512];
    snprintf(line, sizeof line, "cc -O2 -o %s/solver examples/solver.c", dir);
    cr_assert_eq(system(line), 0, "%s failed", line);
    snprintf(cmd, cmdsz, "%s/solver", dir);
}

static void remove_c_client(const char *dir)
{
    char p[512];
    snprintf(p, sizeof p, "%s/solver", dir);
    unlink(p);
    rmdir(dir);
}

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* ---- the oracle ------------------------------------------------------- */
typedef struct oracle {
    gb_ws *ws;
    gb_solver_spec dij;
    gb_xy *xy;
} oracle;

static void oracle_init(oracle *o, const gb_map *m, gb_model model)
{
    char err[128];
    o->ws = gb_ws_new(&m->grid, model);
    cr_assert_not_null(o->ws);
    cr_assert_eq(gb_solver_parse("dijkstra", &o->dij, err, sizeof err), 0, "%s", err);
    o->xy = malloc((size_t)m->grid.ncells * sizeof *o->xy);
    cr_assert_not_null(o->xy);
}

static void oracle_free(oracle *o)
{
    gb_ws_free(o->ws);
    free(o->xy);
}

/* Dijkstra from s to t: 1 and the validated check in *oc when reachable. */
static int oracle_solve(oracle *o, gb_xy s, gb_xy t, gb_check *oc)
{
    const gb_grid *g = gb_ws_grid(o->ws);
    gb_result r;
    cr_assert_eq(gb_solve(o->ws, &o->dij, GB_Q_BHEAP, gb_grid_id(g, s.x, s.y),
                          gb_grid_id(g, t.x, t.y), &r), 0);
    if (r.status != GB_FOUND) return 0;
    for (int32_t i = 0; i < r.path_len; i++)
        o->xy[i] = (gb_xy){ gb_grid_x(g, r.path[i]), gb_grid_y(g, r.path[i]) };
    cr_assert(gb_validate_path(g, gb_ws_model(o->ws), s, t, o->xy, (size_t)r.path_len, r.cost, oc),
              "oracle: %s", oc->msg);
    return 1;
}

/* Validate an external answer the way the runner does: the reported cost
 * is the path's own (the child reports none).  Returns the validator's
 * verdict; *c holds the step counts. */
static int check_answer(const gb_map *m, gb_model model, gb_xy s, gb_xy t, const gb_ext_answer *a,
                        gb_check *c)
{
    return gb_validate_path(&m->grid, model, s, t, a->path, a->n, gb_ext_path_cost(a->path, a->n), c);
}

/* Every query must be answered right: same reachability as Dijkstra, a
 * valid path with Dijkstra's step counts (and a self-reported time from
 * the reference clients, not from wrong_solver.py). */
static void expect_right(gb_ext *e, oracle *o, const gb_map *m, gb_model model, long id, gb_xy s,
                         gb_xy t)
{
    int reference = strcmp(gb_ext_name(e), "wrong-py") != 0;
    gb_ext_answer a;
    gb_check oc, c;
    gb_ext_status st = gb_ext_query(e, id, s, t, &a);
    int found = oracle_solve(o, s, t, &oc);
    cr_assert(st == GB_EXT_PATH || st == GB_EXT_NOPATH, "query %ld (%d,%d)->(%d,%d) %s: %s: %s",
              id, s.x, s.y, t.x, t.y, gb_model_name(model), gb_ext_status_name(st), a.msg);
    cr_assert_eq(st == GB_EXT_PATH, found, "query %ld (%d,%d)->(%d,%d) %s: %s, Dijkstra found=%d",
                 id, s.x, s.y, t.x, t.y, gb_model_name(model), gb_ext_status_name(st), found);
    cr_assert_geq(a.wall_ns, 0);
    if (reference) cr_assert_geq(a.self_ns, 0, "the reference clients report time_ns");
    if (!found) return;
    cr_assert(check_answer(m, model, s, t, &a, &c), "query %ld %s: %s", id, gb_model_name(model), c.msg);
    cr_assert_eq(gb_check_cmp(&c, &oc), 0, "query %ld %s: cost %.9f (%lld+%lld*sqrt2), Dijkstra %.9f",
                 id, gb_model_name(model), c.cost, (long long)c.straight, (long long)c.diag, oc.cost);
}

/* 60 queries on the small map: spread pairs, start == goal, pockets. */
static void small_queries(const gb_map *m, gb_xy *qs, gb_xy *qt, int *nq)
{
    const gb_grid *g = &m->grid;
    gb_xy cells[200];
    int n = 0;
    for (int32_t y = 0; y < g->height; y++)
        for (int32_t x = 0; x < g->width; x++)
            if (gb_grid_passable_xy(g, x, y)) cells[n++] = (gb_xy){ x, y };
    cr_assert_gt(n, 60);
    int k = 0;
    for (int i = 0; i < 52; i++, k++) {
        qs[k] = cells[(i * 7) % n];
        qt[k] = cells[(i * 13 + 5) % n];
    }
    qs[k] = qt[k] = cells[3], k++;                                   /* start == goal */
    qs[k] = (gb_xy){ 0, 0 }, qt[k] = (gb_xy){ 2, 8 }, k++;           /* pocket 'W' */
    qs[k] = (gb_xy){ 8, 8 }, qt[k] = (gb_xy){ 15, 9 }, k++;          /* from pocket '@' */
    qs[k] = (gb_xy){ 2, 2 }, qt[k] = (gb_xy){ 14, 3 }, k++;          /* room to 'G' */
    qs[k] = (gb_xy){ 0, 9 }, qt[k] = (gb_xy){ 15, 0 }, k++;          /* corner to corner */
    qs[k] = (gb_xy){ 7, 2 }, qt[k] = (gb_xy){ 9, 2 }, k++;           /* around the T wall */
    qs[k] = (gb_xy){ 2, 8 }, qt[k] = (gb_xy){ 2, 8 }, k++;           /* inside a pocket */
    qs[k] = (gb_xy){ 5, 8 }, qt[k] = (gb_xy){ 11, 8 }, k++;          /* around the '@' box */
    *nq = k;
}

static void run_small(const char *cmd)
{
    gb_map m;
    load_small(&m);
    gb_xy qs[64], qt[64];
    int nq;
    small_queries(&m, qs, qt, &nq);
    for (int mi = 0; mi < GB_MODEL_COUNT; mi++) {
        gb_model model = (gb_model)mi;
        if (model == GB_MODEL_8_NOCUT_WATER) continue; /* never offered: run refuses external solvers */
        gb_diag d;
        gb_ext *e = gb_ext_open(cmd, &m, model, 5000, &d);
        cr_assert_not_null(e, "%s: %s", d.path, d.msg);
        cr_assert_str_neq(gb_ext_name(e), "");
        oracle o;
        oracle_init(&o, &m, model);
        for (int i = 0; i < nq; i++) expect_right(e, &o, &m, model, 1000 + i, qs[i], qt[i]);
        cr_assert_eq(gb_ext_restarts(e), 0);
        cr_assert_eq(gb_ext_close(e, &d), 0, "%s", d.msg);
        oracle_free(&o);
    }
    gb_map_free(&m);
}

static void run_arena(const char *cmd)
{
    const char *dir = getenv("GB_SHARED");
    char scen[1024], mpath[1024];
    snprintf(scen, sizeof scen, "%s/dao/arena.map.scen", dir && *dir ? dir : "../shared/movingai");
    if (access(scen, R_OK) != 0) cr_skip_test("%s not found (set GB_SHARED)", scen);
    gb_scen sc;
    gb_map m;
    gb_diag d;
    cr_assert_eq(gb_scen_load(scen, &sc, &d), 0, "%s", d.msg);
    cr_assert_eq(gb_scen_resolve_map(&sc, mpath, sizeof mpath, &d), 0, "%s", d.msg);
    cr_assert_eq(gb_map_load(mpath, &m, &d), 0, "%s", d.msg);
    gb_ext *e = gb_ext_open(cmd, &m, GB_MODEL_8_NOCUT, 10000, &d);
    cr_assert_not_null(e, "%s", d.msg);
    oracle o;
    oracle_init(&o, &m, GB_MODEL_8_NOCUT);
    size_t n = sc.n < 30 ? sc.n : 30;
    for (size_t i = 0; i < n; i++) {
        const gb_query *q = &sc.q[i];
        expect_right(e, &o, &m, GB_MODEL_8_NOCUT, q->line, (gb_xy){ q->sx, q->sy },
                     (gb_xy){ q->gx, q->gy });
    }
    cr_assert_eq(gb_ext_close(e, &d), 0, "%s", d.msg);
    oracle_free(&o);
    gb_map_free(&m);
    gb_scen_free(&sc);
}

GB_TEST(external, python_small_all_models)
{
    need_tools(0);
    run_small("python3 examples/solver.py");
}

GB_TEST(external, c_small_all_models)
{
    need_tools(1);
    char dir[64], cmd[128];
    build_c_client(dir, sizeof dir, cmd, sizeof cmd);
    run_small(cmd);
    remove_c_client(dir);
}

GB_TEST(external, python_arena)
{
    need_tools(0);
    run_arena("python3 examples/solver.py");
}

GB_TEST(external, c_arena)
{
    need_tools(1);
    char dir[64], cmd[128];
    build_c_client(dir, sizeof dir, cmd, sizeof cmd);
    run_arena(cmd);
    remove_c_client(dir);
}

/* ---- the wrong client ---------------------------------------------------- */

/* A reachable query whose 8-cutall optimum is cheaper than its 8-nocut
 * optimum, so that any corner-cutting optimum is illegal under 8-nocut. */
static void cutting_query(const gb_map *m, gb_xy *s, gb_xy *t)
{
    gb_xy qs[64], qt[64];
    int nq;
    small_queries(m, qs, qt, &nq);
    oracle on, oa;
    oracle_init(&on, m, GB_MODEL_8_NOCUT);
    oracle_init(&oa, m, GB_MODEL_8_CUTALL);
    int found = 0;
    for (int i = 0; i < nq && !found; i++) {
        gb_check cn, ca;
        if (oracle_solve(&on, qs[i], qt[i], &cn) && oracle_solve(&oa, qs[i], qt[i], &ca)
            && ca.cost < cn.cost - 1e-9 && cn.straight + cn.diag >= 2) {
            *s = qs[i];
            *t = qt[i];
            found = 1;
        }
    }
    oracle_free(&on);
    oracle_free(&oa);
    cr_assert(found, "no query where cutting corners pays off");
}

GB_TEST(external, wrong_client_every_error_caught)
{
    need_tools(0);
    gb_map m;
    load_small(&m);
    gb_xy s, t;
    cutting_query(&m, &s, &t);
    oracle o;
    oracle_init(&o, &m, GB_MODEL_8_NOCUT);
    gb_check oc, c;
    cr_assert(oracle_solve(&o, s, t, &oc));
    size_t ncells = (size_t)(oc.straight + oc.diag + 1);

    gb_diag d;
    /* answers within 1 s; every (re)start of the interpreter may take up to
     * 60 s, so a slow python3 on a loaded machine cannot fail this test */
    gb_ext *e = gb_ext_open_keep("exec python3 examples/wrong_solver.py", &m, GB_MODEL_8_NOCUT, 1000,
                                 60000, &d);
    cr_assert_not_null(e, "%s", d.msg);
    cr_assert_eq(d.code, 0, "the client did not start: %s", d.msg);
    cr_assert_str_eq(gb_ext_name(e), "wrong-py");
    char want[256];
    for (int k = 1; k <= 9; k++) {
        long id = 11L * k;                               /* id % 10 == k */
        gb_ext_answer a;
        int64_t t0 = now_ns();
        gb_ext_status st = gb_ext_query(e, id, s, t, &a);
        int64_t dt = now_ns() - t0;
        switch (k) {
        case 1:                                          /* corner cut: the validator */
            cr_assert_eq(st, GB_EXT_PATH, "%s", a.msg);
            cr_assert_not(check_answer(&m, GB_MODEL_8_NOCUT, s, t, &a, &c));
            cr_assert(strstr(c.msg, "cutting a blocked corner"), "%s", c.msg);
            break;
        case 2:                                          /* detour: the cost comparison */
            cr_assert_eq(st, GB_EXT_PATH, "%s", a.msg);
            cr_assert(check_answer(&m, GB_MODEL_8_NOCUT, s, t, &a, &c), "%s", c.msg);
            cr_assert_gt(gb_check_cmp(&c, &oc), 0, "detour cost %.6f vs %.6f", c.cost, oc.cost);
            cr_assert_eq(a.n, ncells + 2);
            break;
        case 3:
            cr_assert_eq(st, GB_EXT_PROTOCOL);
            cr_assert_str_eq(a.msg, "query 33: expected 'path 33 N X0 Y0 ...' or 'nopath 33', "
                                    "found 'hello, gridbench'");
            break;
        case 4:
            cr_assert_eq(st, GB_EXT_PROTOCOL);
            snprintf(want, sizeof want, "query 44: expected %zu coordinates (%zu cells), found %zu",
                     2 * (ncells + 1), ncells + 1, 2 * ncells);
            cr_assert_str_eq(a.msg, want);
            break;
        case 5:
            cr_assert_eq(st, GB_EXT_PROTOCOL);
            cr_assert_str_eq(a.msg, "query 55: expected id 55 after 'path', found '56'");
            break;
        case 6:
            cr_assert_eq(st, GB_EXT_TIMEOUT, "%s", a.msg);
            cr_assert_str_eq(a.msg, "query 66: expected an answer within 1000 ms, found nothing; "
                                    "is the solver's stdout flushed after each line? On a pipe it is "
                                    "block-buffered: fflush(stdout), print(..., flush=True), std::endl "
                                    "(solver was killed)");
            cr_assert_geq(a.wall_ns, 1000000000LL);
            /* bounded, not hanging (a generous bound: a loaded machine is slow) */
            cr_assert_lt(dt, 30000000000LL, "the timeout took %lld ns", (long long)dt);
            break;
        case 7:
            cr_assert_eq(st, GB_EXT_CRASH, "%s", a.msg);
            cr_assert_str_eq(a.msg, "query 77: expected an answer, found end of output "
                                    "(solver exited with status 3)");
            break;
        case 8:                                          /* sh may or may not exec python */
            cr_assert_eq(st, GB_EXT_CRASH, "%s", a.msg);
            cr_assert(strstr(a.msg, "killed by signal 15") || strstr(a.msg, "exited with status 143"),
                      "%s", a.msg);
            break;
        case 9:                                          /* false unreachable */
            cr_assert_eq(st, GB_EXT_NOPATH, "%s", a.msg);
            break;
        }
        /* the next query is answered right, by a restarted child if need be */
        expect_right(e, &o, &m, GB_MODEL_8_NOCUT, 10L * (k + 1), s, t);
    }
    cr_assert_eq(gb_ext_restarts(e), 6, "restarts: after 3, 4, 5, 6, 7, 8");
    cr_assert_eq(gb_ext_close(e, &d), 0, "%s", d.msg);
    oracle_free(&o);
    gb_map_free(&m);
}

/* ---- failures to start ---------------------------------------------------- */

static void expect_open_fails(const gb_map *m, const char *cmd, int max_ms, const char *want)
{
    gb_diag d;
    int64_t t0 = now_ns();
    gb_ext *e = gb_ext_open(cmd, m, GB_MODEL_8_NOCUT, max_ms, &d);
    int64_t dt = now_ns() - t0;
    cr_assert_null(e, "%s: opened", cmd);
    cr_assert_eq(d.code, EX_UNAVAILABLE, "%s: code %d: %s", cmd, d.code, d.msg);
    cr_assert_str_eq(d.path, cmd);
    cr_assert_str_eq(d.msg, want, "%s", cmd);
    cr_assert_lt(dt, (int64_t)max_ms * 1000000 + 15000000000LL, "%s took %lld ns", cmd, (long long)dt);   /* bounded; generous for a loaded machine */
}

GB_TEST(external, start_failures)
{
    gb_map m;
    load_small(&m);
    expect_open_fails(&m, "exit 5", 1000,
                      "expected 'ready' after the map, found end of output (solver exited with status 5)");
    expect_open_fails(&m, "gb-no-such-command-xyz 2>/dev/null", 1000,
                      "expected 'ready' after the map, found end of output (solver exited with status 127)");
    expect_open_fails(&m, "echo hello", 1000,
                      "expected 'ready' or 'ready NAME' after the map, found 'hello' (solver was killed)");
    expect_open_fails(&m, "echo ready set go; cat >/dev/null", 1000,
                      "expected 'ready' or 'ready NAME' after the map, found 'ready set go' (solver was killed)");
    expect_open_fails(&m, "printf rea; sleep 5", 300,
                      "expected 'ready' after the map within 300 ms, found the partial line 'rea' "
                      "(solver was killed)");
    gb_map_free(&m);

    /* a map larger than a pipe buffer and a child that never reads it */
    gb_map big;
    memset(&big, 0, sizeof big);
    cr_assert_eq(gb_grid_init(&big.grid, 400, 400), 0);
    memset(big.grid.pass, 0, (size_t)big.grid.ncells);
    for (int32_t y = 0; y < 400; y++)
        for (int32_t x = 0; x < 400; x++) big.grid.pass[gb_grid_id(&big.grid, x, y)] = 1;
    gb_grid_recount(&big.grid);
    expect_open_fails(&big, "sleep 5", 300,
                      "expected the solver to read the map (400x400) within 300 ms, found it stalled "
                      "(solver was killed)");
    gb_grid_free(&big.grid);
}

/* ---- SIGPIPE, output out of turn, give-up, map switch ------------------- */

/* Reads the map, closes its stdin, says ready, lingers. */
#define CLOSE_STDIN_CLIENT \
    "while read -r l; do [ \"$l\" = end ] && break; done; exec 0<&-; echo ready; sleep 10"

GB_TEST(external, sigpipe_does_not_kill_the_caller)
{
    gb_map m;
    load_small(&m);
    gb_diag d;
    gb_ext *e = gb_ext_open(CLOSE_STDIN_CLIENT, &m, GB_MODEL_8_NOCUT, 2000, &d);
    cr_assert_not_null(e, "%s", d.msg);
    gb_ext_answer a;
    int64_t t0 = now_ns();
    cr_assert_eq(gb_ext_query(e, 1, (gb_xy){ 0, 0 }, (gb_xy){ 1, 0 }, &a), GB_EXT_CRASH, "%s", a.msg);
    cr_assert_str_eq(a.msg, "query 1: expected the solver to read the request, found its input "
                            "closed (solver was killed)");
    cr_assert_lt(now_ns() - t0, 15000000000LL);   /* bounded; generous for a loaded machine */
    sigset_t pend;
    sigpending(&pend);
    cr_assert_not(sigismember(&pend, SIGPIPE), "a SIGPIPE was left pending");
    /* the restarted child does the same */
    cr_assert_eq(gb_ext_query(e, 2, (gb_xy){ 0, 0 }, (gb_xy){ 1, 0 }, &a), GB_EXT_CRASH, "%s", a.msg);
    cr_assert_eq(gb_ext_restarts(e), 1);
    cr_assert_eq(gb_ext_close(e, &d), 0, "no child left: %s", d.msg);
    gb_map_free(&m);
}

/* Answers its first query "path ID 1 SX SY" twice, in one write. */
#define TWICE_CLIENT \
    "while read -r l; do [ \"$l\" = end ] && break; done; echo ready; " \
    "read -r w id sx sy gx gy; printf 'path %s 1 %s %s\\npath %s 1 %s %s\\n' $id $sx $sy $id $sx $sy; " \
    "cat >/dev/null"
/* Answers its first query with a line far too long for the small map. */
#define LONG_CLIENT \
    "while read -r l; do [ \"$l\" = end ] && break; done; echo ready; read -r w; " \
    "printf 'path 3 5'; i=0; while [ $i -lt 2000 ]; do printf ' 1 1'; i=$((i+1)); done; echo; " \
    "cat >/dev/null"

GB_TEST(external, out_of_turn_and_overlong_lines)
{
    gb_map m;
    load_small(&m);
    gb_diag d;
    gb_ext *e = gb_ext_open(TWICE_CLIENT, &m, GB_MODEL_8_NOCUT, 2000, &d);
    cr_assert_not_null(e, "%s", d.msg);
    gb_ext_answer a;
    cr_assert_eq(gb_ext_query(e, 1, (gb_xy){ 4, 0 }, (gb_xy){ 4, 0 }, &a), GB_EXT_PATH, "%s", a.msg);
    cr_assert_eq(a.n, 1);
    cr_assert_eq(a.self_ns, -1);
    cr_assert_eq(gb_ext_query(e, 2, (gb_xy){ 4, 0 }, (gb_xy){ 4, 0 }, &a), GB_EXT_PROTOCOL);
    cr_assert_str_eq(a.msg, "query 2: expected no output before the request, found 'path 1 1 4 0'");
    /* restarted */
    cr_assert_eq(gb_ext_query(e, 3, (gb_xy){ 4, 0 }, (gb_xy){ 4, 0 }, &a), GB_EXT_PATH, "%s", a.msg);
    cr_assert_eq(gb_ext_restarts(e), 1);
    gb_ext_close(e, NULL);

    e = gb_ext_open(LONG_CLIENT, &m, GB_MODEL_8_NOCUT, 2000, &d);
    cr_assert_not_null(e, "%s", d.msg);
    cr_assert_eq(gb_ext_query(e, 3, (gb_xy){ 4, 0 }, (gb_xy){ 4, 0 }, &a), GB_EXT_PROTOCOL);
    cr_assert(strstr(a.msg, "query 3: expected a line of at most ") && strstr(a.msg, "found a longer one"),
              "%s", a.msg);
    gb_ext_close(e, NULL);
    gb_map_free(&m);
}

GB_TEST(external, restart_gives_up_after_repeated_failures)
{
    need_tools(0);
    char dir[64] = "/tmp/gbext.XXXXXX", cmd[512], mark[128], starts[128];
    cr_assert_not_null(mkdtemp(dir));
    snprintf(mark, sizeof mark, "%s/started", dir);
    snprintf(starts, sizeof starts, "%s/starts", dir);
    /* starts once; every later start fails with status 7; every start
     * leaves a line in `starts`, so the test counts attempts, not time
     * (a timing bound would fail on a loaded machine) */
    snprintf(cmd, sizeof cmd, "echo start >> %s; [ -e %s ] && exit 7; touch %s; "
             "exec python3 examples/wrong_solver.py", starts, mark, mark);
    gb_map m;
    load_small(&m);
    gb_diag d;
    gb_ext *e = gb_ext_open(cmd, &m, GB_MODEL_8_NOCUT, 30000, &d);
    cr_assert_not_null(e, "%s", d.msg);
    gb_ext_answer a;
    gb_xy s = { 0, 0 }, t = { 3, 0 };
    cr_assert_eq(gb_ext_query(e, 10, s, t, &a), GB_EXT_PATH, "%s", a.msg);
    cr_assert_eq(gb_ext_query(e, 17, s, t, &a), GB_EXT_CRASH, "%s", a.msg);   /* exits 3 */
    for (int i = 0; i < GB_EXT_MAX_RESTART_FAILS; i++) {
        cr_assert_eq(gb_ext_query(e, 20 + 10 * i, s, t, &a), GB_EXT_CRASH);
        snprintf(cmd, sizeof cmd, "query %d: could not restart the solver: expected 'ready' after "
                 "the map, found end of output (solver exited with status 7)", 20 + 10 * i);
        cr_assert_str_eq(a.msg, cmd);
    }
    char n0[32], n1[32];
    cr_assert_eq(gb_test_sh(n0, sizeof n0, "wc -l < %s", starts), 0);
    cr_assert_eq(atol(n0), 1 + GB_EXT_MAX_RESTART_FAILS, "starts: %s", n0);
    cr_assert_eq(gb_ext_query(e, 60, s, t, &a), GB_EXT_CRASH);
    cr_assert_eq(gb_test_sh(n1, sizeof n1, "wc -l < %s", starts), 0);
    cr_assert_eq(atol(n1), atol(n0), "no further restart attempt: %s starts before, %s after", n0, n1);
    cr_assert(strstr(a.msg, "query 60: expected a running solver, found 3 failed restarts in a row; "
                            "last: expected 'ready'"), "%s", a.msg);
    cr_assert_eq(gb_ext_close(e, NULL), 0);
    gb_map_free(&m);
    gb_test_sh(NULL, 0, "rm -rf '%s'", dir);
}

GB_TEST(external, set_map_switches_map_and_model)
{
    need_tools(0);
    gb_map m;
    load_small(&m);
    static const char other[] = "type octile\nheight 3\nwidth 4\nmap\n.@..\n..@.\n....\n";
    gb_map m2;
    gb_diag d;
    cr_assert_eq(gb_map_parse("other.map", other, sizeof other - 1, &m2, &d), 0, "%s", d.msg);
    gb_ext *e = gb_ext_open("python3 examples/solver.py", &m, GB_MODEL_8_NOCUT, 5000, &d);
    cr_assert_not_null(e, "%s", d.msg);
    oracle o1, o2;
    oracle_init(&o1, &m, GB_MODEL_8_NOCUT);
    oracle_init(&o2, &m2, GB_MODEL_8_CUTALL);
    expect_right(e, &o1, &m, GB_MODEL_8_NOCUT, 1, (gb_xy){ 0, 0 }, (gb_xy){ 15, 9 });
    cr_assert_eq(gb_ext_set_map(e, &m2, GB_MODEL_8_CUTALL, &d), 0, "%s", d.msg);
    expect_right(e, &o2, &m2, GB_MODEL_8_CUTALL, 2, (gb_xy){ 0, 0 }, (gb_xy){ 3, 0 });
    expect_right(e, &o2, &m2, GB_MODEL_8_CUTALL, 3, (gb_xy){ 0, 2 }, (gb_xy){ 3, 0 });
    cr_assert_eq(gb_ext_restarts(e), 0, "the live child took the new map");
    cr_assert_eq(gb_ext_close(e, &d), 0, "%s", d.msg);
    oracle_free(&o1);
    oracle_free(&o2);
    gb_map_free(&m);
    gb_map_free(&m2);
}

GB_TEST(external, path_cost_matches_validator)
{
    gb_xy p[] = { { 0, 0 }, { 1, 1 }, { 2, 1 }, { 3, 2 }, { 3, 3 } };
    cr_assert_float_eq(gb_ext_path_cost(p, 5), 2.0 + 2.0 * GB_SQRT2, 1e-15);
    cr_assert_float_eq(gb_ext_path_cost(p, 1), 0.0, 0.0);
    cr_assert_str_eq(gb_ext_status_name(GB_EXT_PROTOCOL), "protocol_error");
    cr_assert_str_eq(gb_ext_status_name(GB_EXT_TIMEOUT), "timeout");
}

/* ---- the runner, through the CLI (once `gridbench run --external` exists) --- */

/* Run a shell command, return its exit status (stdout+stderr to /dev/null). */
static int shell_status(const char *cmd)
{
    char full[2048];
    snprintf(full, sizeof full, "(%s) >/dev/null 2>&1", cmd);
    int st = system(full);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

static const char *cli_bin(void)
{
    const char *b = getenv("GB_BIN");
    if (!b || !*b) cr_skip_test("GB_BIN not set (run through make test)");
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "%s run --help | grep -q -- --external-timeout", b);
    if (shell_status(cmd) != 0) cr_skip_test("gridbench run has no --external yet");
    return b;
}

/* Column `col` (0-based) of CSV line `line` (no quoted commas in these rows). */
static void csv_col(const char *line, int col, char *out, size_t outsz)
{
    for (int i = 0; i < col && line; i++) {
        line = strchr(line, ',');
        if (line) line++;
    }
    size_t n = line ? strcspn(line, ",\n") : 0;
    if (n >= outsz) n = outsz - 1;
    if (n) memcpy(out, line, n);
    out[n] = '\0';
}

GB_TEST(external, cli_rows_statuses_and_exit)
{
    need_tools(0);
    const char *bin = cli_bin();
    const char *scen = "datasets/default/maze128-2-1.map.scen";
    if (access(scen, R_OK) != 0) cr_skip_test("%s not found", scen);
    char dir[64] = "/tmp/gbextcli.XXXXXX", csv[128], cmd[1024];
    cr_assert_not_null(mkdtemp(dir));
    snprintf(csv, sizeof csv, "%s/out.csv", dir);

    /* the reference client: every row right, exit 0 */
    snprintf(cmd, sizeof cmd,
             "%s run --quiet --count 5 --external 'exec python3 examples/solver.py' "
             "--out %s %s",
             bin, csv, scen);
    cr_assert_eq(shell_status(cmd), 0, "%s", cmd);

    /* the wrong client: query k gets protocol id k, so rows 1..10 are kinds 1..9, 0 */
    snprintf(cmd, sizeof cmd, "%s run --quiet --count 10 --external-timeout 500 --external "
             "'exec python3 examples/wrong_solver.py' --external-name wrong --out %s %s", bin, csv, scen);
    cr_assert_eq(shell_status(cmd), 1, "%s", cmd);
    FILE *f = fopen(csv, "r");
    cr_assert_not_null(f);
    char line[4096], solver[64], queue[64], status[64];
    static const char *const want[10] = { NULL /* corner cut: depends on the query */, "suboptimal",
        "protocol_error", "protocol_error", "protocol_error", "timeout", "crash", "crash",
        "false_unreachable", "ok" };
    cr_assert_not_null(fgets(line, sizeof line, f));                  /* header */
    for (int k = 0; k < 10; k++) {
        cr_assert_not_null(fgets(line, sizeof line, f), "row %d missing", k + 1);
        csv_col(line, 9, solver, sizeof solver);
        csv_col(line, 10, queue, sizeof queue);
        csv_col(line, 13, status, sizeof status);
        cr_assert_str_eq(solver, "external:wrong");
        cr_assert_str_eq(queue, "none");
        if (want[k]) cr_assert_str_eq(status, want[k], "row %d: %s", k + 1, line);
        else cr_assert(!strcmp(status, "ok") || !strcmp(status, "invalid_path"), "row 1: %s", line);
    }
    fclose(f);
    unlink(csv);

    /* a command that cannot start costs its own rows (crash), not the run:
     * the built-in solver's rows are written, the exit status says a solver failed */
    snprintf(cmd, sizeof cmd, "%s run --quiet -s jps --count 5 --external 'exit 3' --out %s %s 2>%s/err",
             bin, csv, scen, dir);
    int rc = shell_status(cmd);
    char err[256];
    snprintf(err, sizeof err, "%s/err", dir);
    f = fopen(err, "r");
    char etext[4096] = "";
    if (f) { size_t n = fread(etext, 1, sizeof etext - 1, f); etext[n] = '\0'; fclose(f); }
    cr_assert_eq(rc, 1, "%s: exit %d: %s", cmd, rc, etext);
    cr_assert(strstr(etext, "external:exit: warning: expected the external solver to start, found: "
                            "expected 'ready' after the map, found end of output (solver exited with "
                            "status 3)") != NULL, "%s", etext);
    f = fopen(csv, "r");
    cr_assert_not_null(f, "no CSV: %s", etext);
    int ok = 0, crash = 0;
    cr_assert_not_null(fgets(line, sizeof line, f));
    while (fgets(line, sizeof line, f)) {
        csv_col(line, 9, solver, sizeof solver);
        csv_col(line, 13, status, sizeof status);
        if (!strcmp(solver, "jps") && !strcmp(status, "ok")) ok++;
        if (!strcmp(solver, "external:exit") && !strcmp(status, "crash")) crash++;
    }
    fclose(f);
    cr_assert_eq(ok, 5, "%s", etext);
    cr_assert_eq(crash, 5, "%s", etext);
    unlink(csv);
    unlink(err);
    rmdir(dir);
}

/* ---- the process tree: memory, lingering and escaping descendants ------ */

/* Build the C client and tests/fixtures/hog.c into a fresh temp dir. */
static void build_tree_tools(char *dir, size_t dirsz)
{
    char cmd[600], line[1024];
    build_c_client(dir, dirsz, cmd, sizeof cmd);
    snprintf(line, sizeof line, "cc -O2 -o %s/hog tests/fixtures/hog.c", dir);
    cr_assert_eq(system(line), 0, "%s failed", line);
}

static void remove_tree_tools(const char *dir)
{
    char p[512];
    snprintf(p, sizeof p, "rm -rf %s", dir);
    cr_assert_eq(system(p), 0);
}

/* The pid a hog wrote to dir/name, 0 if none. */
static pid_t hog_pid(const char *dir, const char *name)
{
    char p[512];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "r");
    long v = 0;
    if (f) {
        if (fscanf(f, "%ld", &v) != 1) v = 0;
        fclose(f);
    }
    return (pid_t)v;
}

/* Is pid a process (zombies included: an unreaped one still counts)? */
static int alive(pid_t pid)
{
    return pid > 0 && kill(pid, 0) == 0;
}

GB_TEST(external, max_mem_counts_every_descendant)
{
    need_tools(1);
    char dir[64];
    build_tree_tools(dir, sizeof dir);
    gb_map m;
    load_small(&m);
    const uint64_t MiB = 1u << 20;
    /* three forms: a helper beside the solver (`&`, then the shell execs
     * the solver: the helper is the solver's child), a pipe through cat
     * with `cd` first (the shell stays, the solver is its child), and a
     * helper that leaves the session and is orphaned at once (a daemon:
     * reparented to the subreaper, never a descendant of the leader) */
    const char *forms[3];
    char f0[600], f1[600], f2[600];
    snprintf(f0, sizeof f0, "%s/hog 64 %s/p0 & while [ ! -s %s/p0 ]; do sleep 0.01; done; "
             "exec %s/solver", dir, dir, dir, dir);
    snprintf(f1, sizeof f1, "cd %s && { ./hog 64 p1 & while [ ! -s p1 ]; do sleep 0.01; done; "
             "./solver | cat; }", dir);
    snprintf(f2, sizeof f2, "(%s/hog 64 %s/p2 setsid &); while [ ! -s %s/p2 ]; do sleep 0.01; "
             "done; exec %s/solver", dir, dir, dir, dir);
    forms[0] = f0, forms[1] = f1, forms[2] = f2;
    const char *pidf[3] = { "p0", "p1", "p2" };
    for (int k = 0; k < 3; k++) {
        gb_diag d;
        gb_ext *e = gb_ext_open(forms[k], &m, GB_MODEL_8_NOCUT, 10000, &d);
        cr_assert_not_null(e, "form %d: %s: %s", k, forms[k], d.msg);
        pid_t hp = hog_pid(dir, pidf[k]);
        cr_assert(alive(hp), "form %d: no hog running (pid %ld)", k, (long)hp);
        uint64_t res = gb_ext_resident(e);
        cr_assert_geq(res, 64 * MiB, "form %d: %s: resident %llu bytes, the hog alone holds 64 MiB",
                      k, forms[k], (unsigned long long)res);
        /* under the bound: answers as usual; over it: limit */
        gb_ext_answer a;
        gb_ext_set_max_mem(e, 512 * MiB);
        gb_ext_status st = gb_ext_query(e, 1, (gb_xy){ 0, 0 }, (gb_xy){ 15, 0 }, &a);
        cr_assert_eq(st, GB_EXT_PATH, "form %d: %s: %s", k, gb_ext_status_name(st), a.msg);
        gb_ext_set_max_mem(e, 32 * MiB);
        st = gb_ext_query(e, 2, (gb_xy){ 0, 0 }, (gb_xy){ 15, 0 }, &a);
        cr_assert_eq(st, GB_EXT_LIMIT, "form %d: %s: %s: %s", k, forms[k], gb_ext_status_name(st),
                     a.msg);
        cr_assert(strstr(a.msg, "within 33554432 bytes") != NULL, "%s", a.msg);
        /* the limit ended the whole tree, the hog (reaped) included */
        cr_assert(!alive(hp), "form %d: the hog %ld outlived its solver", k, (long)hp);
        cr_assert_eq(gb_ext_close(e, &d), 0, "%s", d.msg);
    }
    gb_map_free(&m);
    remove_tree_tools(dir);
}

GB_TEST(external, no_helper_outlives_the_solver)
{
    need_tools(1);
    char dir[64], cmd[1024];
    build_tree_tools(dir, sizeof dir);
    gb_map m;
    load_small(&m);
    /* a helper in its own session and a daemon-style orphan: both outlive
     * a kill of the solver's process group, neither may outlive close */
    snprintf(cmd, sizeof cmd, "%s/hog 1 %s/q0 setsid & (%s/hog 1 %s/q1 setsid &); "
             "while [ ! -s %s/q0 ] || [ ! -s %s/q1 ]; do sleep 0.01; done; exec %s/solver",
             dir, dir, dir, dir, dir, dir, dir);
    gb_diag d;
    gb_ext *e = gb_ext_open(cmd, &m, GB_MODEL_8_NOCUT, 10000, &d);
    cr_assert_not_null(e, "%s", d.msg);
    pid_t h0 = hog_pid(dir, "q0"), h1 = hog_pid(dir, "q1");
    cr_assert(alive(h0) && alive(h1), "hogs %ld %ld", (long)h0, (long)h1);
    /* the orphan was reparented to this process (the subreaper), not init */
    char p[64], b[512];
    snprintf(p, sizeof p, "/proc/%ld/stat", (long)h1);
    FILE *f = fopen(p, "r");
    cr_assert_not_null(f);
    size_t n = fread(b, 1, sizeof b - 1, f);
    fclose(f);
    b[n] = '\0';
    long ppid = 0;
    char *rp = strrchr(b, ')');
    cr_assert(rp && sscanf(rp + 2, "%*c %ld", &ppid) == 1, "%s", b);
    cr_assert_eq(ppid, (long)getpid(), "the orphan's parent is %ld, not this process", ppid);
    gb_ext_answer a;
    gb_ext_status st = gb_ext_query(e, 1, (gb_xy){ 0, 0 }, (gb_xy){ 15, 0 }, &a);
    cr_assert_eq(st, GB_EXT_PATH, "%s: %s", gb_ext_status_name(st), a.msg);
    cr_assert_eq(gb_ext_close(e, &d), 0, "%s", d.msg);
    cr_assert(!alive(h0), "the setsid() helper %ld outlived gb_ext_close", (long)h0);
    cr_assert(!alive(h1), "the orphaned helper %ld outlived gb_ext_close", (long)h1);
    gb_map_free(&m);
    remove_tree_tools(dir);
}

GB_TEST(external, a_dead_solver_with_a_lingering_grandchild_is_a_crash_at_once)
{
    need_tools(1);
    char dir[64], cmd[1024];
    build_tree_tools(dir, sizeof dir);
    gb_map m;
    load_small(&m);
    /* the shell starts a helper holding its stdout, says ready, and exits
     * 3 on the first request: the output never ends while the helper runs */
    snprintf(cmd, sizeof cmd, "%s/hog 0 %s/g & while [ ! -s %s/g ]; do sleep 0.01; done; "
             "while read -r l; do [ \"$l\" = end ] && break; done; echo ready; read -r q; exit 3",
             dir, dir, dir);
    gb_diag d;
    gb_ext *e = gb_ext_open(cmd, &m, GB_MODEL_8_NOCUT, 20000, &d);
    cr_assert_not_null(e, "%s", d.msg);
    pid_t hp = hog_pid(dir, "g");
    cr_assert(alive(hp));
    gb_ext_answer a;
    int64_t t0 = now_ns();
    gb_ext_status st = gb_ext_query(e, 7, (gb_xy){ 0, 0 }, (gb_xy){ 15, 0 }, &a);
    int64_t dt = now_ns() - t0;
    cr_assert_eq(st, GB_EXT_CRASH, "%s (after %lld ms): %s", gb_ext_status_name(st),
                 (long long)(dt / 1000000), a.msg);
    cr_assert_lt(dt, 15000000000LL, "took %lld ms: waited for the 20 s timeout?", (long long)(dt / 1000000));
    cr_assert_str_eq(a.msg, "query 7: expected an answer, found the solver gone while a process "
                     "it started holds its output open (solver exited with status 3)");
    cr_assert(!alive(hp), "the helper %ld outlived the crash", (long)hp);
    cr_assert_eq(gb_ext_close(e, &d), 0, "%s", d.msg);
    gb_map_free(&m);
    remove_tree_tools(dir);
}
