/*
 * test_gppc.c -- GPPC entries as plugins (harness/run/gb_gppc.h, the driver
 * harness/run/gppc/gb_gppc_driver.cpp, `gridbench gppc`), on the test entry
 * tests/gppc/bfs/ (optimal A*, answers in 2-3 GetPath calls, an index file
 * read back) and its broken variants ($GB_BFS_VARIANT=1 bad segment, 2
 * crash, 3 longer paths; one build serves them all).
 *
 *   build_*     the CLI: the plugin's path on stdout, the cache reused
 *               (same path, nothing compiled), a compile error named with
 *               its log
 *   plugin_*    the .so loaded in this process (gb_user_load_plugin): paths
 *               equal to Dijkstra's, the metrics, the index cache
 *   expand_*    waypoints to cells, and the refusals
 *   run_*       `gridbench run --plugin` rows: ok, invalid_path, crash,
 *               suboptimal
 *
 * Builds share the cache `make test` gives ($XDG_CACHE_HOME, emptied at
 * its start), so the entry compiles once per suite; the reuse test has a
 * cache of its own.  Each build takes a few seconds of c++.
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

#include "gb_gen.h"
#include "gb_gppc.h"
#include "gb_map.h"
#include "gb_search.h"
#include "gb_user.h"

#define ENTRY "tests/gppc/bfs"

static char out[65536];

static void need_cxx(void)
{
    gb_test_bin();
    if (gb_test_sh(NULL, 0, "command -v c++ && command -v make") != 0) cr_skip_test("c++ or make not found");
}

static char *tmpdir(void)
{
    static char d[64];
    snprintf(d, sizeof d, "/tmp/gbgppc.XXXXXX");
    cr_assert_not_null(mkdtemp(d));
    return d;
}

/* `gridbench gppc build ENTRY --name NAME [extra]`: the .so path into so
 * (with -q a build that works prints nothing else). */
static void build(const char *name, const char *extra, char *so, size_t n)
{
    int rc = gb_test_sh(out, sizeof out, GB_TEST_GPPC_LOCK "%s gppc build -q " ENTRY " --name %s %s",
                        gb_test_bin(), name, extra);
    cr_assert_eq(rc, 0, "building %s: exit %d: %s", name, rc, out);
    snprintf(so, n, "%.*s", (int)strcspn(out, "\n"), out);
    cr_assert(strstr(so, "/gppc/") && strstr(so, ".so"), "%s", out);
}

GB_TEST(gppc, build_prints_the_plugin_and_a_second_build_reuses_it)
{
    need_cxx();
    char *d = tmpdir();
    int rc = gb_test_sh(out, sizeof out, "XDG_CACHE_HOME=%s %s gppc build " ENTRY " 2>%s/err", d,
                        gb_test_bin(), d);
    cr_assert_eq(rc, 0, "exit %d: %s", rc, out);
    char so[1200];
    snprintf(so, sizeof so, "%.*s", (int)strcspn(out, "\n"), out);
    cr_assert(strncmp(so, d, strlen(d)) == 0 && strstr(so, "/gridbench/gppc/") && strstr(so, "/entry.so"),
              "%s", so);
    struct stat a, b;
    cr_assert_eq(stat(so, &a), 0, "%s", so);
    gb_test_sh(out, sizeof out, "cat %s/err", d);
    cr_assert(strstr(out, "compiled 2 sources (sources and flags from its Makefile)") != NULL, "%s", out);
    /* the same sources: the same path, nothing compiled */
    rc = gb_test_sh(out, sizeof out, "XDG_CACHE_HOME=%s %s gppc build " ENTRY " 2>%s/err", d, gb_test_bin(), d);
    cr_assert_eq(rc, 0, "exit %d: %s", rc, out);
    cr_assert_eq(strncmp(out, so, strlen(so)), 0, "%s vs %s", out, so);
    cr_assert_eq(stat(so, &b), 0);
    cr_assert(a.st_mtim.tv_sec == b.st_mtim.tv_sec && a.st_mtim.tv_nsec == b.st_mtim.tv_nsec);
    gb_test_sh(out, sizeof out, "cat %s/err", d);
    cr_assert(strstr(out, "reused the cached build") != NULL, "%s", out);
    /* and list names it */
    rc = gb_test_sh(out, sizeof out, "XDG_CACHE_HOME=%s %s gppc list", d, gb_test_bin());
    cr_assert(rc == 0 && strstr(out, so) && strstr(out, "tests/gppc/bfs"), "%s", out);
    gb_test_sh(NULL, 0, "rm -rf %s", d);
}

GB_TEST(gppc, a_compile_error_exits_65_and_names_the_log)
{
    need_cxx();
    char *d = tmpdir();
    gb_test_sh(NULL, 0, "cp -r " ENTRY " %s/e && echo 'int broken(' > %s/e/broken.cpp", d, d);
    int rc = gb_test_sh(out, sizeof out, "XDG_CACHE_HOME=%s %s gppc build %s/e", d, gb_test_bin(), d);
    cr_assert_eq(rc, 65, "exit %d: %s", rc, out);
    const char *m = strstr(out, "expected the entry to compile, found exit status 1; compiler log: ");
    cr_assert_not_null(m, "%s", out);
    char log[1200];
    m = strstr(m, "log: ") + 5;
    snprintf(log, sizeof log, "%.*s", (int)strcspn(m, "\n"), m);
    cr_assert_eq(gb_test_sh(out, sizeof out, "grep -c 'broken.cpp' %s", log), 0, "log %s", log);
    /* no entry at all */
    rc = gb_test_sh(out, sizeof out, "%s gppc build %s", gb_test_bin(), d);
    cr_assert(rc == 66 && strstr(out, "expected a GPPC entry (Entry.h), found none"), "exit %d: %s", rc, out);
    gb_test_sh(NULL, 0, "rm -rf %s", d);
}

/* Warthog-based GPPC 2023 entries compile each of their ~70 sources on a
 * line of its own (make's %.o rule), every line repeating the same dozen
 * -I options: the build keeps each include folder once (g++ ignores a
 * repeated one anyway), so the command heading the log stays readable,
 * and the sources of every line are taken. */
GB_TEST(gppc, a_makefile_of_one_line_per_source_gives_each_include_folder_once)
{
    need_cxx();
    char *d = tmpdir();
    gb_test_sh(NULL, 0, "cp -r " ENTRY " %s/e && printf '%%s\\n' 'CXX = g++' "
               "'CXXFLAGS = -O2 -std=c++17 -Isearch -I search -Isearch/ -DX=1' "
               "'OBJECTS := Entry.o search/astar.o' 'all: run' "
               "'run: $(OBJECTS)' '\t$(CXX) $(CXXFLAGS) $^ -o $@' > %s/e/Makefile", d, d);
    int rc = gb_test_sh(out, sizeof out, "XDG_CACHE_HOME=%s %s gppc build %s/e 2>&1", d, gb_test_bin(), d);
    cr_assert_eq(rc, 0, "exit %d: %s", rc, out);
    cr_assert(strstr(out, "compiled 2 sources (sources and flags from its Makefile)") != NULL, "%s", out);
    /* the command line heads the log: -I<entry>/search once, -I<entry>/search/ once, -DX=1 once */
    rc = gb_test_sh(out, sizeof out, "head -n 1 %s/gridbench/gppc/*/entry.log | tr ' ' '\\n' | "
                    "grep -c -e '^-I.*/e/search$' -e '^-I.*/e/search/$' -e '^-DX=1$'", d);
    cr_assert_eq(rc, 0, "%s", out);
    cr_assert_eq(atoi(out), 3, "%s", out);
    rc = gb_test_sh(out, sizeof out, "head -n 1 %s/gridbench/gppc/*/entry.log | tr ' ' '\\n' | "
                    "grep -c -e '/e/Entry.cpp$' -e '/e/search/astar.cpp$'", d);
    cr_assert_eq(atoi(out), 2, "%s", out);
    gb_test_sh(NULL, 0, "rm -rf %s", d);
}

/* ---- in process ---------------------------------------------------------- */

typedef struct fixture {
    gb_map map;
    gb_scen sc;
    gb_ws *ws;
    gb_solver_spec dij;
    int32_t *path;
} fixture;

/* A 48x48 random map (20 % obstacles) and a scenario of its queries. */
static void fixture_init(fixture *f)
{
    memset(f, 0, sizeof *f);
    gb_gen_opts o;
    gb_gen_defaults(&o);
    o.family = GB_GEN_RANDOM;
    o.width = o.height = 48;
    o.percent = 20;
    o.seed = 27;
    o.per_bucket = 4;
    gb_diag d;
    cr_assert_eq(gb_gen_map(&o, &f->map, &d), 0, "%s", d.msg);
    cr_assert_eq(gb_gen_scen(&o, &f->map, "r.map", &f->sc, &d), 0, "%s", d.msg);
    char err[128];
    cr_assert_eq(gb_solver_parse("dijkstra", &f->dij, err, sizeof err), 0);
    f->ws = gb_ws_new(&f->map.grid, GB_MODEL_8_NOCUT);
    cr_assert_not_null(f->ws);
    f->path = malloc((size_t)f->map.grid.ncells * sizeof *f->path);
    cr_assert_not_null(f->path);
}

static void fixture_free(fixture *f)
{
    free(f->path);
    gb_ws_free(f->ws);
    gb_scen_free(&f->sc);
    gb_map_free(&f->map);
}

/* Load the plugin at so; its one solver. */
static const gb_user_solver *load(const char *so, const char *name)
{
    gb_diag d;
    gb_diag_clear(&d);
    cr_assert_eq(gb_user_load_plugin(so, &d), 0, "%s", d.msg);
    const gb_user_solver *u = gb_user_find(name);
    cr_assert_not_null(u);
    return u;
}

static double cost_of(const gb_grid *g, const int32_t *p, int32_t n)
{
    double c = 0;
    for (int32_t i = 0; i + 1 < n; i++) {
        int32_t dx = gb_grid_x(g, p[i + 1]) - gb_grid_x(g, p[i]), dy = gb_grid_y(g, p[i + 1]) - gb_grid_y(g, p[i]);
        cr_assert(dx >= -1 && dx <= 1 && dy >= -1 && dy <= 1 && (dx || dy), "step %d not to a neighbour", i);
        c += dx && dy ? GB_SQRT2 : 1.0;
    }
    return c;
}

static long count_lines(const char *path, const char *word)
{
    char res[64];
    if (gb_test_sh(res, sizeof res, "grep -c '^%s ' %s", word, path) > 1) return -1;
    return atol(res);
}

/* gb_user_prepare of a GPPC plugin, its allocations hidden from the leak
 * check: the GPPC API has no call that frees what PrepareForSearch
 * returns (docs/gppc.md), so the entry's search data lives as long as the
 * process that prepared it -- a worker, in a run; this test process here. */
static int prepare_untracked(const gb_user_solver *u, const gb_grid *g, gb_model m)
{
#ifdef GB_TEST_LSAN
    __lsan_disable();
#endif
    int rc = gb_user_prepare(u, g, m);
#ifdef GB_TEST_LSAN
    __lsan_enable();
#endif
    return rc;
}

GB_TEST(gppc, plugin_paths_equal_dijkstra_with_metrics_and_a_cached_index)
{
    need_cxx();
    char so[1200], log[128];
    build("gppc-ok", "", so, sizeof so);
    char *d = tmpdir();
    snprintf(log, sizeof log, "%s/log", d);
    setenv("GB_GPPC_TEST_LOG", log, 1);
    setenv("XDG_CACHE_HOME", d, 1);   /* a fresh index cache */
    const gb_user_solver *u = load(so, "gppc-ok");
    cr_assert_eq(u->optimal, 1);
    fixture f;
    fixture_init(&f);
    const gb_grid *g = &f.map.grid;
    cr_assert_eq(prepare_untracked(u, g, GB_MODEL_8_NOCUT), 0);
    gb_user_metrics m;
    cr_assert_eq(gb_user_metrics_get(u, &m), 1);
    cr_assert(m.have & GB_UM_MAP);
    cr_assert_eq(m.index_reused, 0);
    cr_assert_gt(m.preprocess_ns, 0);
    cr_assert_gt(m.prepare_ns, 0);
    /* the index: a header line and one int32 per cell */
    uint64_t storage = m.storage_bytes, pre = m.preprocess_ns;
    cr_assert_eq(storage, 24 + 4 * 48 * 48, "storage %llu", (unsigned long long)storage);
    int multi = 0;
    for (size_t i = 0; i < f.sc.n; i++) {
        const gb_query *q = &f.sc.q[i];
        int32_t s = gb_grid_id(g, q->sx, q->sy), t = gb_grid_id(g, q->gx, q->gy);
        gb_stats st;
        memset(&st, 0, sizeof st);
        int32_t n = u->solve(u->ctx, g, GB_MODEL_8_NOCUT, s, t, f.path, g->ncells, &st);
        gb_result r;
        cr_assert_eq(gb_solve(f.ws, &f.dij, GB_Q_BHEAP, s, t, &r), 0);
        cr_assert_eq(n > 0, r.status == GB_FOUND, "query %zu", i);
        if (n <= 0) continue;
        cr_assert(f.path[0] == s && f.path[n - 1] == t, "query %zu", i);
        double c = cost_of(g, f.path, n);
        cr_assert(c < r.cost + 1e-9 && c > r.cost - 1e-9, "query %zu: cost %.9f, Dijkstra %.9f", i, c, r.cost);
        cr_assert_eq(gb_user_metrics_get(u, &m), 1);
        cr_assert((m.have & GB_UM_QUERY) && (m.have & GB_UM_MAP) && !(m.have & GB_UM_SEGMENT));
        cr_assert_str_eq(m.time_source, "gppc");
        cr_assert(m.calls >= 1 && m.calls <= 3, "calls %llu", (unsigned long long)m.calls);
        multi += m.calls > 1;
        cr_assert(m.first20_ns <= m.total_ns && m.max_call_ns <= m.total_ns && m.max_call_ns > 0);
        cr_assert(m.total_ns <= m.max_call_ns * m.calls);
        /* a path shorter than 20 takes every call to reach "20" */
        if (r.cost < 20 - 1e-6) cr_assert_eq(m.first20_ns, m.total_ns, "query %zu", i);
    }
    cr_assert_gt(multi, (int)f.sc.n / 2, "only %d of %zu queries took more than one call", multi, f.sc.n);
    gb_user_release(u);
    /* the second prepare of the same map reads the cached index */
    cr_assert_eq(prepare_untracked(u, g, GB_MODEL_8_NOCUT), 0);
    cr_assert_eq(gb_user_metrics_get(u, &m), 1);
    /* reused: the time of the build is still reported, as the rows' prep_ns */
    cr_assert(m.index_reused == 1 && m.preprocess_ns == pre && m.storage_bytes == storage);
    gb_user_release(u);
    cr_assert_eq(count_lines(log, "preprocess"), 1);
    cr_assert_eq(count_lines(log, "prepare"), 2);
    /* GPPC has one model */
    cr_assert_eq(prepare_untracked(u, g, GB_MODEL_4), -1);
    cr_assert_eq(gb_user_metrics_get(u, &m), 1);
    cr_assert((m.have & GB_UM_ERROR) && strstr(m.reason, "expected the model 8-nocut"), "%s", m.reason);
    fixture_free(&f);
    gb_test_sh(NULL, 0, "rm -rf %s", d);
}

GB_TEST(gppc, plugin_refuses_a_bent_segment_and_names_it)
{
    need_cxx();
    char so[1200];
    build("gppc-ok", "", so, sizeof so);
    const gb_user_solver *u = load(so, "gppc-ok");
    fixture f;
    fixture_init(&f);
    const gb_grid *g = &f.map.grid;
    setenv("GB_BFS_VARIANT", "1", 1); /* read by PrepareForSearch */
    cr_assert_eq(prepare_untracked(u, g, GB_MODEL_8_NOCUT), 0);
    unsetenv("GB_BFS_VARIANT");
    int refused = 0;
    for (size_t i = 0; i < f.sc.n; i++) {
        const gb_query *q = &f.sc.q[i];
        gb_stats st;
        int32_t n = u->solve(u->ctx, g, GB_MODEL_8_NOCUT, gb_grid_id(g, q->sx, q->sy),
                             gb_grid_id(g, q->gx, q->gy), f.path, g->ncells, &st);
        gb_user_metrics m;
        cr_assert_eq(gb_user_metrics_get(u, &m), 1);
        if (n != g->ncells + 1) {
            cr_assert(!(m.have & GB_UM_SEGMENT));
            continue;
        }
        refused++;
        cr_assert(m.have & GB_UM_SEGMENT);
        cr_assert(m.bad_segment >= 0);
        cr_assert(strstr(m.reason, "expected a straight or diagonal segment, found (") != NULL, "%s", m.reason);
    }
    cr_assert_gt(refused, 0);
    gb_user_release(u);
    fixture_free(&f);
}

/* PreprocessMap runs in a child of the worker.  A run stopped while an
 * entry preprocesses (SIGTERM to the runner kills its workers) must take
 * that child along: otherwise it runs on, possibly for hours, for an
 * index that is never marked whole, holding the index lock it inherited,
 * and the next run of the map waits on the lock until it ends. */
static int slow_preprocess(void *arg, const char *file)
{
    (void)file;
    pid_t me = getpid();
    if (write(*(int *)arg, &me, sizeof me) != (ssize_t)sizeof me) return 1;
    sleep(30);
    return 0;
}

static int quick_preprocess(void *arg, const char *file)
{
    (void)arg;
    FILE *f = fopen(file, "w");
    return !f || fputs("index\n", f) < 0 || fclose(f) != 0;
}

/* Is pid a live process (a zombie counts as gone)? */
static int alive(pid_t pid)
{
    char p[64], st[512];
    snprintf(p, sizeof p, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(p, "r");
    if (!f) return 0;
    size_t n = fread(st, 1, sizeof st - 1, f);
    fclose(f);
    st[n] = '\0';
    const char *rp = strrchr(st, ')');
    return rp && rp[1] == ' ' && rp[2] != 'Z' && rp[2] != 'X';
}

GB_TEST(gppc, index_preprocessing_dies_with_its_worker_and_leaves_the_lock_free)
{
    char *d = tmpdir();
    setenv("XDG_CACHE_HOME", d, 1);
    fixture f;
    fixture_init(&f);
    int p[2];
    cr_assert_eq(pipe(p), 0);
    fflush(NULL);
    pid_t worker = fork();
    cr_assert_geq(worker, 0);
    if (worker == 0) {   /* the worker: opens the index, PreprocessMap (slow) in its child */
        close(p[0]);
        gb_gppc_index ix;
        gb_diag dg;
        gb_diag_clear(&dg);
        gb_gppc_index_open("00000000000000aa", &f.map.grid, slow_preprocess, &p[1], &ix, &dg);
        _exit(0);
    }
    close(p[1]);
    pid_t pre = 0;
    cr_assert_eq(read(p[0], &pre, sizeof pre), (ssize_t)sizeof pre);
    close(p[0]);
    cr_assert(alive(pre));
    kill(worker, SIGKILL);
    cr_assert_eq(waitpid(worker, NULL, 0), worker);
    for (int i = 0; i < 300 && alive(pre); i++) usleep(10000);
    int orphan = alive(pre);
    if (orphan) kill(pre, SIGKILL);
    cr_assert(!orphan, "PreprocessMap's process %d outlived its worker by 3 s", (int)pre);
    /* the next open takes the lock at once and builds the index anew */
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    gb_gppc_index ix;
    gb_diag dg;
    gb_diag_clear(&dg);
    cr_assert_eq(gb_gppc_index_open("00000000000000aa", &f.map.grid, quick_preprocess, NULL, &ix, &dg), 0, "%s",
                 dg.msg);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double s = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    cr_assert(s < 10.0, "the next open waited %.1f s for the lock", s);
    cr_assert_eq(ix.reused, 0);
    cr_assert_eq(ix.storage_bytes, 6);
    fixture_free(&f);
    gb_test_sh(NULL, 0, "rm -rf %s", d);
}

GB_TEST(gppc, expand_turns_waypoints_into_cells_and_refuses_bad_ones)
{
    gb_grid g;
    cr_assert_eq(gb_grid_init(&g, 10, 8), 0);
    int32_t p[200];
    int64_t bad;
    char why[160];
    gb_gppc_xy ok[] = { { 1, 1 }, { 4, 1 }, { 4, 1 }, { 6, 3 }, { 6, 0 } };
    int32_t n = gb_gppc_expand(&g, ok, 5, p, g.ncells, &bad, why, sizeof why);
    cr_assert_eq(n, 9, "%d: %s", n, why);
    cr_assert_eq(bad, -1);
    const int xs[] = { 1, 2, 3, 4, 5, 6, 6, 6, 6 }, ys[] = { 1, 1, 1, 1, 2, 3, 2, 1, 0 };
    for (int i = 0; i < 9; i++)
        cr_assert(gb_grid_x(&g, p[i]) == xs[i] && gb_grid_y(&g, p[i]) == ys[i], "cell %d", i);
    cr_assert_eq(gb_gppc_expand(&g, ok, 0, p, g.ncells, &bad, why, sizeof why), 0);
    cr_assert_eq(gb_gppc_expand(&g, ok, 1, p, g.ncells, &bad, why, sizeof why), -1);
    cr_assert_str_eq(why, "expected no waypoint or at least two, found one, (1,1)");
    gb_gppc_xy bent[] = { { 1, 1 }, { 2, 2 }, { 4, 3 } };
    cr_assert_eq(gb_gppc_expand(&g, bent, 3, p, g.ncells, &bad, why, sizeof why), -1);
    cr_assert_eq(bad, 1);
    cr_assert_str_eq(why, "expected a straight or diagonal segment, found (2,2)->(4,3) (dx 2, dy 1)");
    gb_gppc_xy outside[] = { { 1, 1 }, { 1, 8 } };
    cr_assert_eq(gb_gppc_expand(&g, outside, 2, p, g.ncells, &bad, why, sizeof why), -1);
    cr_assert_eq(bad, 0);
    cr_assert_str_eq(why, "expected waypoints inside the 10x8 map, found (1,8) (waypoint 1)");
    cr_assert_eq(gb_gppc_expand(&g, ok, 5, p, 5, &bad, why, sizeof why), -1);
    cr_assert_eq(bad, 2);
    gb_grid_free(&g);
}

/* ---- end to end ------------------------------------------------------------ */

static long rows(const char *cond, const char *csv)
{
    char res[64];
    if (gb_test_sh(res, sizeof res, "awk -F, '%s' %s | wc -l", cond, csv) != 0) return -1;
    return atol(res);
}

GB_TEST(gppc, run_rows_are_ok_invalid_path_crash_and_suboptimal_by_variant)
{
    need_cxx();
    char ok[1200];
    build("gppc-ok", "", ok, sizeof ok);
    char *d = tmpdir();
    /* one run per variant ($GB_BFS_VARIANT reaches the plugin's workers):
     * 0 is right, 1 bends a segment, 2 crashes, 3 takes longer paths */
    static const char *const bad[4] = { NULL, "invalid_path", "crash", "suboptimal" };
    for (int v = 0; v < 4; v++) {
        int rc = gb_test_sh(out, sizeof out,
                            "GB_BFS_VARIANT=%d %s run --quiet --no-oracle-cache --plugin %s "
                            "-s gppc-ok --count 24 -o %s/v%d.csv datasets/default/room128-16-1.map.scen",
                            v, gb_test_bin(), ok, d, v);
        cr_assert_eq(rc, v ? 1 : 0, "variant %d: exit %d: %s", v, rc, out);
        char csv[128], cond[128];
        snprintf(csv, sizeof csv, "%s/v%d.csv", d, v);
        cr_assert_eq(rows("$10==\"gppc-ok\"", csv), 24, "variant %d: %s", v, out);
        long good = rows("$10==\"gppc-ok\" && $14==\"ok\"", csv);
        if (!v) {
            cr_assert_eq(good, 24, "%s", out);
            continue;
        }
        snprintf(cond, sizeof cond, "$10==\"gppc-ok\" && $14==\"%s\"", bad[v]);
        long nbad = rows(cond, csv);
        cr_assert(nbad > 0 && nbad + good == 24, "variant %d: %ld %s, %ld ok: %s", v, nbad, bad[v], good,
                  out);
    }
    gb_test_sh(NULL, 0, "rm -rf %s", d);
}

/* `run --gppc DIR` builds the entry (or finds it in the cache), adds its
 * solver, and its rows carry GPPC's measures: time_source gppc, the calls
 * of GetPath, first20_ns <= time, max_call_ns, the index's storage and
 * PrepareForSearch's time; the preprocessing time stays in prep_ns when
 * a second run reuses the index; a bent segment names its index. */
GB_TEST(gppc, run_gppc_rows_carry_gppcs_measures)
{
    need_cxx();
    char *d = tmpdir();
    /* a cache of its own, for a fresh index; the plugin is the suite's
     * build, copied in (a compile takes seconds; `run --gppc` finds it by
     * its key, as it would its own) */
    cr_assert_eq(gb_test_sh(out, sizeof out,
                            "so=$(" GB_TEST_GPPC_LOCK "%s gppc build -q " ENTRY
                            ") && h=$(dirname \"$so\") && "
                            "c=%s/cache/gridbench/gppc/$(basename \"$h\") && mkdir -p \"$c\" && "
                            "cp \"$so\" \"$so.key\" \"$h/entry.txt\" \"$c/\"",
                            gb_test_bin(), d),
                 0, "%s", out);
    for (int round = 0; round < 2; round++) {
        int rc = gb_test_sh(out, sizeof out, "XDG_CACHE_HOME=%s/cache %s run --quiet --no-oracle-cache "
                            "--gppc tests/gppc/bfs -s jps --count 12 -o %s/a%d.csv "
                            "datasets/default/maze128-2-1.map.scen 2>&1", d, gb_test_bin(), d, round);
        cr_assert_eq(rc, 0, "exit %d: %s", rc, out);
        rc = gb_test_sh(out, sizeof out, "awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } "
                        "$c[\"time_source\"] == \"gppc\" && $c[\"status\"] == \"ok\" && $c[\"calls\"] >= 1 "
                        "&& $c[\"first20_ns\"] <= $c[\"time_ns\"] && $c[\"max_call_ns\"] > 0 "
                        "&& $c[\"storage_bytes\"] > 0 && $c[\"prepare_ns\"] > 0 && $c[\"prep_ns\"] > 0 "
                        "{ n++; p[$c[\"prep_ns\"]] = 1 } END { k = 0; for (x in p) k++; print n, k }' %s/a%d.csv",
                        d, round);
        cr_assert_eq(rc, 0);
        cr_assert_str_eq(out, "12 1\n", "round %d: rows with GPPC's measures, distinct prep_ns", round);
    }
    /* the reused index reports the preprocessing time it was built in */
    int rc = gb_test_sh(out, sizeof out, "for r in 0 1; do awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) "
                        "c[$i] = i; next } $c[\"time_source\"] == \"gppc\" { print $c[\"prep_ns\"]; exit }' "
                        "%s/a$r.csv; done | uniq | wc -l", d);
    cr_assert_eq(rc, 0);
    cr_assert_str_eq(out, "1\n", "prep_ns differs between the build and the reuse");
    gb_test_sh(NULL, 0, "rm -rf %s", d);
}
