/*
 * test_trace.c -- search traces (solvers/gb_trace.h, harness/io/gb_tracefile.c,
 * `gridbench trace`, docs/trace.md).
 *
 * What is proved:
 *   - on random maps, every traceable solver's recording agrees with its
 *     counters (expand events == st.expanded, generate events ==
 *     st.generated + its roots), every expanded node was generated before,
 *     and the recording search returns the same cost and path length as
 *     the timed search on every queue; a solver that cannot be traced
 *     runs untouched on its own queue with a trace attached;
 *   - the order is the algorithm's: Dijkstra expands in nondecreasing g,
 *     A* with a consistent heuristic in nondecreasing f, and the g a node
 *     is expanded with is Dijkstra's exact distance;
 *   - `gridbench trace` writes x lines numbering the CSV's `expanded` of
 *     `gridbench run` on every queue;
 *   - bad input is a file:line error and leaves nothing behind: a table of
 *     malformed traces for --from, an untraceable solver, --max-mem too
 *     small;
 *   - the viewer replays it in headless Chromium: no console error,
 *     stepping changes the drawn state, the counts it shows are the CSV's.
 */
#include "gb_test.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gb_alloc.h"
#include "gb_search.h"
#include "gb_trace.h"
#include "gb_tracefile.h"

static const char *const traced[] = {
    "dijkstra",    "astar-octile",   "astar-euclidean", "astar-manhattan", "wastar-octile:w=1.5",
    "gbfs-octile", "astar-diff:k=4", "bidijkstra",      "biastar-octile",  "jps",
    "jps+",
};

/* A random map of w x h with about pct % blocked cells (seeded). */
static void random_grid(gb_grid *g, int w, int h, int pct, unsigned seed)
{
    cr_assert_eq(gb_grid_init(g, w, h), 0);
    srand(seed);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) g->pass[gb_grid_id(g, x, y)] = (rand() % 100) >= pct;
    gb_grid_recount(g);
}

static int32_t random_free(const gb_grid *g)
{
    for (;;) {
        int32_t id = gb_grid_id(g, rand() % g->width, rand() % g->height);
        if (g->pass[id]) return id;
    }
}

typedef struct tcount {
    uint64_t gen, exp, stop;
    int order_ok;   /* expansions in nondecreasing key (Dijkstra: g; A*: g + h) */
    int gen_before; /* every expanded node was generated before */
} tcount;

/* Count t's events and check the order of the keys g + hw * h. */
static tcount count_events(const gb_trace *t, int32_t ncells, double hw)
{
    tcount c = { 0, 0, 0, 1, 1 };
    double *g = gb_malloc((size_t)ncells * sizeof *g), *h = gb_malloc((size_t)ncells * sizeof *h);
    unsigned char *seen = gb_calloc((size_t)ncells * 2, 1);
    cr_assert(g && h && seen);
    double last = -1.0;
    for (size_t i = 0; i < t->n; i++) {
        const gb_trace_ev *e = &t->ev[i];
        const size_t k = (size_t)e->side * (size_t)ncells + (size_t)e->id;
        if (e->kind == GB_TR_GEN) {
            c.gen++;
            seen[k] = 1;
            g[e->id] = e->g;
            h[e->id] = e->h;
            continue;
        }
        if (!seen[k]) c.gen_before = 0;
        if (e->kind == GB_TR_STOP) {
            c.stop++;
            continue;
        }
        c.exp++;
        const double key = g[e->id] + hw * h[e->id];
        if (key < last - 1e-9) c.order_ok = 0;
        last = key;
    }
    gb_free(g);
    gb_free(h);
    gb_free(seen);
    return c;
}

GB_TEST(trace, every_recording_agrees_with_the_counters_on_random_maps)
{
    char err[256];
    for (unsigned seed = 1; seed <= 6; seed++) {
        gb_grid g;
        random_grid(&g, 40 + (int)seed * 7, 30 + (int)seed * 5, 18 + (int)seed * 3, seed);
        gb_ws *ws = gb_ws_new(&g, GB_MODEL_8_NOCUT);
        cr_assert_not_null(ws);
        const size_t cap = (size_t)g.ncells * 12;
        gb_trace tr = { gb_malloc(cap * sizeof(gb_trace_ev)), 0, cap, 0 };
        cr_assert_not_null(tr.ev);
        for (int qn = 0; qn < 8; qn++) {
            int32_t s = random_free(&g), t = random_free(&g);
            for (size_t i = 0; i < sizeof traced / sizeof traced[0]; i++) {
                gb_solver_spec sp;
                cr_assert_eq(gb_solver_parse(traced[i], &sp, err, sizeof err), 0, "%s", err);
                cr_assert(gb_solver_traceable(&sp, &g), "%s", traced[i]);
                gb_result plain[GB_Q_COUNT];
                for (int q = 0; q < GB_Q_COUNT; q++)
                    cr_assert_eq(gb_solve(ws, &sp, (gb_queue_kind)q, s, t, &plain[q]), 0);
                tr.n = 0;
                gb_ws_set_trace(ws, &tr);
                gb_result r;
                cr_assert_eq(gb_solve(ws, &sp, GB_Q_BUCKET, s, t, &r), 0);
                gb_ws_set_trace(ws, NULL);
                const int bidir = sp.name[0] == 'b';
                /* keys of the order check: Dijkstra g; A* g + h (consistent h) */
                const int ordered = !strcmp(traced[i], "dijkstra") || !strcmp(traced[i], "astar-octile")
                                    || !strcmp(traced[i], "astar-euclidean")
                                    || !strcmp(traced[i], "astar-diff:k=4");
                tcount c = count_events(&tr, g.ncells, 1.0);
                const char *w = traced[i];
                cr_assert_eq(tr.overflow, 0, "%s", w);
                cr_expect_eq(c.exp, r.st.expanded, "seed %u q %d %s: %llu expand events, %llu expanded",
                             seed, qn, w, (unsigned long long)c.exp, (unsigned long long)r.st.expanded);
                cr_expect_eq(c.gen, r.st.generated + (bidir ? 2 : 1), "seed %u %s: generate events",
                             seed, w);
                cr_expect_eq(c.stop, r.status == GB_FOUND ? 1u : 0u, "seed %u %s: stop events", seed, w);
                cr_expect(c.gen_before, "seed %u %s: a node expanded before it was generated", seed, w);
                if (ordered) cr_expect(c.order_ok, "seed %u %s: expansions out of key order", seed, w);
                for (int q = 0; q < GB_Q_COUNT; q++) { /* the events are every queue's */
                    cr_expect_eq(plain[q].st.expanded, r.st.expanded, "%s on %s", w,
                                 gb_queue_name((gb_queue_kind)q));
                    cr_expect_eq(plain[q].status, r.status, "%s", w);
                    if (r.status == GB_FOUND) cr_expect_float_eq(plain[q].cost, r.cost, 1e-9, "%s", w);
                }
            }
        }
        gb_free(tr.ev);
        gb_ws_free(ws);
        gb_grid_free(&g);
    }
}

/* With a trace attached, a solver that cannot be traced runs as usual on
 * the queue it is given, prepared for that queue, and records nothing:
 * on a fresh workspace (so the attach comes before any prepare), the
 * same cost and expansions as without the trace, on every queue. */
GB_TEST(trace, an_untraceable_solver_runs_on_its_own_queue_with_a_trace_attached)
{
    static const char *const other[] = { "theta", "sg", "bfs" };
    char err[256];
    gb_grid g;
    random_grid(&g, 48, 36, 22, 11);
    const size_t cap = 64;
    gb_trace tr = { gb_malloc(cap * sizeof(gb_trace_ev)), 0, cap, 0 };
    cr_assert_not_null(tr.ev);
    srand(3);
    const int32_t s = random_free(&g), t = random_free(&g);
    for (size_t i = 0; i < sizeof other / sizeof other[0]; i++) {
        gb_solver_spec sp;
        cr_assert_eq(gb_solver_parse(other[i], &sp, err, sizeof err), 0, "%s", err);
        cr_assert_not(gb_solver_traceable(&sp, &g), "%s", other[i]);
        for (int q = 0; q < GB_Q_COUNT; q++) {
            gb_ws *plain_ws = gb_ws_new(&g, GB_MODEL_8_NOCUT), *ws = gb_ws_new(&g, GB_MODEL_8_NOCUT);
            cr_assert(plain_ws && ws);
            gb_result plain, r;
            cr_assert_eq(gb_solve(plain_ws, &sp, (gb_queue_kind)q, s, t, &plain), 0);
            tr.n = 0;
            gb_ws_set_trace(ws, &tr);
            cr_assert_eq(gb_solve(ws, &sp, (gb_queue_kind)q, s, t, &r), 0, "%s on %s", other[i],
                         gb_queue_name((gb_queue_kind)q));
            cr_expect_eq(tr.n, 0u, "%s recorded events", other[i]);
            cr_expect_eq(r.status, plain.status, "%s on %s", other[i], gb_queue_name((gb_queue_kind)q));
            cr_expect_eq(r.st.expanded, plain.st.expanded, "%s on %s", other[i],
                         gb_queue_name((gb_queue_kind)q));
            if (plain.status == GB_FOUND) cr_expect_float_eq(r.cost, plain.cost, 1e-9, "%s", other[i]);
            gb_ws_free(plain_ws);
            gb_ws_free(ws);
        }
    }
    gb_free(tr.ev);
    gb_grid_free(&g);
}

/* The g each node is expanded with is its exact distance from the start:
 * a second Dijkstra to that node gives the same cost. */
GB_TEST(trace, dijkstra_expands_every_node_with_its_distance)
{
    char err[256];
    gb_grid g;
    random_grid(&g, 50, 40, 25, 42);
    gb_ws *ws = gb_ws_new(&g, GB_MODEL_8_NOCUT);
    cr_assert_not_null(ws);
    gb_solver_spec sp;
    cr_assert_eq(gb_solver_parse("dijkstra", &sp, err, sizeof err), 0);
    const size_t cap = (size_t)g.ncells * 10;
    gb_trace tr = { gb_malloc(cap * sizeof(gb_trace_ev)), 0, cap, 0 };
    cr_assert_not_null(tr.ev);
    srand(7);
    int32_t s = random_free(&g), t = random_free(&g);
    gb_ws_set_trace(ws, &tr);
    gb_result r;
    cr_assert_eq(gb_solve(ws, &sp, GB_Q_BHEAP, s, t, &r), 0);
    gb_ws_set_trace(ws, NULL);
    double *last_g = gb_malloc((size_t)g.ncells * sizeof *last_g);
    cr_assert_not_null(last_g);
    int checked = 0;
    for (size_t i = 0; i < tr.n && checked < 60; i++) {
        const gb_trace_ev *e = &tr.ev[i];
        if (e->kind == GB_TR_GEN) {
            last_g[e->id] = e->g;
            continue;
        }
        if (e->kind != GB_TR_EXP || i % 7) continue;
        gb_result d;
        cr_assert_eq(gb_solve(ws, &sp, GB_Q_BHEAP, s, e->id, &d), 0);
        cr_assert_eq(d.status, GB_FOUND);
        cr_expect_float_eq(last_g[e->id], d.cost, 1e-4, "node %d: expanded with g %.6f, distance %.6f",
                           e->id, last_g[e->id], d.cost);
        checked++;
    }
    cr_expect_gt(checked, 10);
    gb_free(last_g);
    gb_free(tr.ev);
    gb_ws_free(ws);
    gb_grid_free(&g);
}

/* The number of "x" lines of each search of a trace file, in order. */
static int x_counts(const char *path, long *out, int max)
{
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "%s", path);
    char line[1 << 16];
    int n = -1;
    while (fgets(line, sizeof line, f)) {
        if (!strncmp(line, "search ", 7) && n + 1 < max) out[++n] = 0;
        else if (line[0] == 'x' && line[1] == ' ' && n >= 0) out[n]++;
    }
    fclose(f);
    return n + 1;
}

GB_TEST(trace, the_cli_writes_the_csv_expansions_of_every_queue)
{
    const char *bin = gb_test_bin();
    char d[] = "/tmp/gbtrace.XXXXXX", out[4096];
    cr_assert_not_null(mkdtemp(d));
    static const char *const sv[] = { "dijkstra", "astar-octile", "jps", "bidijkstra" };
    const char *scen = "datasets/default/room128-16-1.map.scen";
    int rc = gb_test_sh(out, sizeof out,
                        "%s trace --scen %s --line 60 -s dijkstra,astar-octile -s jps,bidijkstra "
                        "--out %s/t",
                        bin, scen, d);
    cr_assert_eq(rc, 0, "%s", out);
    char p[256];
    snprintf(p, sizeof p, "%s/t.trace", d);
    long xs[8];
    cr_assert_eq(x_counts(p, xs, 8), 4);
    rc = gb_test_sh(out, sizeof out,
                    "%s run -s dijkstra,astar-octile,jps,bidijkstra -q all --reps 1 --quiet "
                    "--oracle-cache '' -o %s/r.csv %s >/dev/null 2>&1 && perl scripts/csv-cut.pl "
                    "%s/r.csv line solver "
                    "queue expanded | awk -F'\\t' '$1 == 60 { print $2, $3, $4 }'",
                    bin, d, scen, d);
    cr_assert_eq(rc, 0, "%s", out);
    int rows = 0;
    for (char *l = strtok(out, "\n"); l; l = strtok(NULL, "\n")) {
        char s[64], q[32];
        long e;
        cr_assert_eq(sscanf(l, "%63s %31s %ld", s, q, &e), 3, "%s", l);
        for (int i = 0; i < 4; i++)
            if (!strcmp(s, sv[i])) {
                cr_expect_eq(e, xs[i], "%s on %s: CSV expanded %ld, trace %ld", s, q, e, xs[i]);
                rows++;
            }
    }
    cr_expect_eq(rows, 4 * GB_Q_COUNT, "rows of line 60: %d", rows);
    gb_test_sh(NULL, 0, "rm -rf '%s'", d);
}

/* A valid trace of a 4x3 map: the base that the bad cases below break. */
static const char good_trace[] = "gridbench-trace 1\n"
                                 "map tiny 4 3\n"
                                 "row ....\n"
                                 "row .@@.\n"
                                 "row ....\n"
                                 "query 0 0 3 0 3\n"
                                 "search dijkstra queue=bheap\n"
                                 "g 0 0 0 0 -1\n"
                                 "x 0 0\n"
                                 "g 0 1 1 0 0\n"
                                 "g 0 4 1 0 0\n"
                                 "x 0 1\n"
                                 "g 0 2 2 0 1\n"
                                 "x 0 4\n"
                                 "x 0 2\n"
                                 "g 0 3 3 0 2\n"
                                 "t 0 3\n"
                                 "path 4 0 1 2 3\n"
                                 "end status=found cost=3 expanded=4 generated=4\n";

static const struct bad_case {
    const char *from, *to; /* the line of good_trace replaced, and its replacement */
    const char *want;      /* in the message */
} bad_cases[] = {
    { "gridbench-trace 1\n", "gridbench-trace 2\n",
      "t.trace:1: error: expected 'gridbench-trace 1', found 'gridbench-trace 2'" },
    { "map tiny 4 3\n", "map tiny 4\n", "t.trace:2: error: expected 'map NAME WIDTH HEIGHT'" },
    { "row .@@.\n", "row .@@\n",
      "t.trace:4: error: expected 'row' and 4 map characters (row 2 of 3), found 'row .@@'" },
    { "query 0 0 3 0 3\n", "query 0 0 9 0 3\n",
      "t.trace:6: error: expected 'query SX SY GX GY OPTIMUM' inside the map" },
    { "g 0 1 1 0 0\n", "g 0 5 1 0 0\n",
      "t.trace:10: error: expected a passable cell (not @, O or T), found 'g 0 5 1 0 0'" },
    { "g 0 1 1 0 0\n", "g 0 12 1 0 0\n", "t.trace:10: error: expected a cell in 0..11 (y * 4 + x)" },
    { "g 0 1 1 0 0\n", "g 2 1 1 0 0\n",
      "t.trace:10: error: expected 'g SIDE CELL G H BY' (SIDE 0 or 1)" },
    { "g 0 1 1 0 0\n", "g 0 1 one 0 0\n", "t.trace:10: error: expected finite numbers G >= 0 and H" },
    { "x 0 4\n", "x 1 4\n",
      "t.trace:14: error: expected a cell generated before on this side (a 'g' line)" },
    { "x 0 4\n", "y 0 4\n", "t.trace:14: error: expected an event line (g, x or t), a path or 'end'" },
    { "path 4 0 1 2 3\n", "path 4 0 1 2\n", "t.trace:18: error: expected 4 cells after 'path 4'" },
    { "end status=found cost=3 expanded=4 generated=4\n", "end status=found expanded=5\n",
      "t.trace:19: error: expected expanded=4, the number of this search's x lines, found 'end "
      "status=found expanded=5'" },
    { "end status=found cost=3 expanded=4 generated=4\n", "",
      "t.trace:18: error: expected 'end' to close the last search, "
      "found the end of the file" },
    { "search dijkstra queue=bheap\n", "# no search\n",
      "t.trace:8: error: expected 'search NAME [KEY=VALUE...]'" },
    { "search dijkstra queue=bheap\n", "search </script>\n",
      "t.trace:7: error: expected no '</' anywhere" },
};

GB_TEST(trace, from_checks_a_trace_and_names_file_and_line)
{
    const char *bin = gb_test_bin();
    char d[] = "/tmp/gbtrace.XXXXXX", out[4096], p[256];
    cr_assert_not_null(mkdtemp(d));
    snprintf(p, sizeof p, "%s/t.trace", d);
    FILE *f = fopen(p, "w");
    cr_assert_not_null(f);
    fputs(good_trace, f);
    fclose(f);
    int rc = gb_test_sh(out, sizeof out, "cd %s && %s trace --from t.trace --out ok", d, bin);
    cr_assert_eq(rc, 0, "the base case is valid: %s", out);
    cr_expect(strstr(out, "1 traces checked (1 searches)") != NULL, "%s", out);
    for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
        const struct bad_case *b = &bad_cases[i];
        const char *at = strstr(good_trace, b->from);
        cr_assert_not_null(at, "case %zu", i);
        f = fopen(p, "w");
        cr_assert_not_null(f);
        fprintf(f, "%.*s%s%s", (int)(at - good_trace), good_trace, b->to, at + strlen(b->from));
        fclose(f);
        rc = gb_test_sh(out, sizeof out, "cd %s && %s trace --from t.trace --out bad; ls bad.html 2>&1",
                        d, bin);
        cr_expect(strstr(out, b->want) != NULL, "case %zu: expected \"%s\" in: %s", i, b->want, out);
        cr_expect(strstr(out, "No such file") != NULL, "case %zu: bad.html written: %s", i, out);
    }
    gb_test_sh(NULL, 0, "rm -rf '%s'", d);
}

GB_TEST(trace, refusals_write_nothing)
{
    const char *bin = gb_test_bin();
    char d[] = "/tmp/gbtrace.XXXXXX", out[4096];
    cr_assert_not_null(mkdtemp(d));
    const char *scen = "datasets/default/maze128-2-1.map.scen";
    static const struct {
        const char *args, *want;
        int code;
    } cases[] = {
        { "--longest -s dijkstra --max-mem 64K",
          "dijkstra: expected a trace that fits --max-mem (65536 bytes, 2048 "
          "events), found one of",
          64 },
        { "--longest -s sg-tl", "--solver: expected a solver whose search can be traced", 64 },
        { "--line 99999 -s dijkstra", "expected a query on line 99999, found none", 65 },
        { "-s dijkstra", "expected exactly one of --line N and --longest, found neither", 64 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int rc = gb_test_sh(out, sizeof out, "%s trace --scen %s %s --out %s/x; echo rc=$?; ls %s", bin,
                            scen, cases[i].args, d, d);
        (void)rc;
        char want_rc[16];
        snprintf(want_rc, sizeof want_rc, "rc=%d\n", cases[i].code);
        cr_expect(strstr(out, cases[i].want) != NULL, "case %zu: %s", i, out);
        cr_expect(strstr(out, want_rc) != NULL, "case %zu: expected %s: %s", i, want_rc, out);
        cr_expect(strstr(out, "x.trace") == NULL && strstr(out, "x.html") == NULL, "case %zu wrote: %s",
                  i, out);
    }
    gb_test_sh(NULL, 0, "rm -rf '%s'", d);
}

/* The field "key":NUMBER after position p of s, or -1. */
static long json_num(const char *s, const char *key, const char **after)
{
    char k[64];
    snprintf(k, sizeof k, "\"%s\":", key);
    const char *at = strstr(s, k);
    if (!at) return -1;
    if (after) *after = at + strlen(k);
    return strtol(at + strlen(k), NULL, 10);
}

/* The viewer in headless Chromium: it loads with no console error,
 * stepping changes the picture, and each panel's count of expansions at
 * the end is the CSV's `expanded` for that solver. */
GB_TEST(trace_browser, the_viewer_replays_the_csv_expansions_in_chromium)
{
    const char *bin = gb_test_bin();
    if (gb_test_sh(NULL, 0, "command -v chromium || command -v chromium-browser") != 0)
        cr_skip_test("chromium not installed (the Debian package chromium)");
    char d[] = "/tmp/gbtrace.XXXXXX", out[8192];
    cr_assert_not_null(mkdtemp(d));
    const char *scen = "datasets/default/random128-20-1.map.scen";
    int rc =
        gb_test_sh(out, sizeof out, "%s trace --scen %s --longest -s dijkstra,jps,bidijkstra --out %s/v",
                   bin, scen, d);
    cr_assert_eq(rc, 0, "%s", out);
    rc = gb_test_sh(out, sizeof out, "scripts/check-viewer.sh %s/v.html", d);
    cr_assert_eq(rc, 0, "check-viewer.sh: %s", out);
    cr_expect(strstr(out, "\"errors\":[]") != NULL, "console errors: %s", out);
    cr_expect(strstr(out, "\"changed\":true") != NULL, "stepping did not change the picture: %s", out);
    cr_expect_eq(json_num(out, "panels", NULL), 3, "%s", out);
    long shown[3];
    const char *p = strstr(out, "\"counts\"");
    cr_assert_not_null(p, "%s", out);
    for (int i = 0; i < 3; i++) {
        shown[i] = json_num(p, "expanded", &p);
        long end = json_num(p, "endExpanded", &p);
        cr_expect_eq(shown[i], end, "panel %d: %ld shown, end line %ld", i, shown[i], end);
    }
    /* the CSV's expanded of the same query (the longest: the largest printed length) */
    rc = gb_test_sh(
        out, sizeof out,
        "%s run -s dijkstra,jps,bidijkstra -q bucket --reps 1 --quiet --oracle-cache '' "
        "-o %s/r.csv %s >/dev/null 2>&1 && L=$(awk -F'\t' 'NF >= 9 && $9 + 0 > m { m = $9 + 0; l = NR } "
        "END { print l }' %s) && perl scripts/csv-cut.pl %s/r.csv line solver expanded | "
        "awk -F'\t' -v l=\"$L\" '$1 == l { print $2, $3 }'",
        bin, d, scen, scen, d);
    cr_assert_eq(rc, 0, "%s", out);
    static const char *const sv[] = { "dijkstra", "jps", "bidijkstra" };
    int found = 0;
    for (char *l = strtok(out, "\n"); l; l = strtok(NULL, "\n")) {
        char s[64];
        long e;
        if (sscanf(l, "%63s %ld", s, &e) != 2) continue;
        for (int i = 0; i < 3; i++)
            if (!strcmp(s, sv[i])) {
                cr_expect_eq(shown[i], e, "%s: the viewer shows %ld expansions, the CSV %ld", s,
                             shown[i], e);
                found++;
            }
    }
    cr_expect_eq(found, 3, "the CSV rows of the longest query: %d", found);
    gb_test_sh(NULL, 0, "rm -rf '%s'", d);
}

/* A plugin's solver traced through gb_user_trace_*: its expand calls are
 * its CSV `expanded`; a solver whose counter disagrees is refused, and
 * nothing is written. */
GB_TEST(trace, a_plugin_solver_is_traced_through_its_calls)
{
    const char *bin = gb_test_bin();
    if (gb_test_sh(NULL, 0, "command -v cc") != 0) cr_skip_test("cc not found");
    char d[] = "/tmp/gbtrace.XXXXXX", out[4096], p[256];
    cr_assert_not_null(mkdtemp(d));
    int rc = gb_test_sh(out, sizeof out,
                        "cc -shared -fPIC -Isolvers -Iharness/core -Iharness/run "
                        "tests/plugins/trace_plugin.c -o %s/trace.so",
                        d);
    cr_assert_eq(rc, 0, "%s", out);
    const char *scen = "datasets/default/maze128-2-1.map.scen";
    rc = gb_test_sh(out, sizeof out,
                    "%s trace --plugin %s/trace.so --scen %s --line 120 -s traced-dijkstra,dijkstra "
                    "--out %s/t",
                    bin, d, scen, d);
    cr_assert_eq(rc, 0, "%s", out);
    snprintf(p, sizeof p, "%s/t.trace", d);
    long xs[4];
    cr_assert_eq(x_counts(p, xs, 4), 2);
    cr_expect_gt(xs[0], 0);
    rc = gb_test_sh(out, sizeof out,
                    "%s run --plugin %s/trace.so -s traced-dijkstra --reps 1 --quiet --oracle-cache '' "
                    "-o %s/r.csv %s >/dev/null 2>&1 && perl scripts/csv-cut.pl %s/r.csv line expanded | "
                    "awk -F'\t' '$1 == 120 { print $2 }'",
                    bin, d, d, scen, d);
    cr_assert_eq(rc, 0, "%s", out);
    cr_expect_eq(atol(out), xs[0], "the CSV's expanded %ld, the trace's %ld", atol(out), xs[0]);
    rc = gb_test_sh(out, sizeof out,
                    "%s trace --plugin %s/trace.so --scen %s --line 120 -s miscounted --out %s/m; "
                    "echo rc=$?; ls %s",
                    bin, d, scen, d, d);
    cr_expect(
        strstr(out, "miscounted: expected as many gb_user_trace_expand calls as its expanded counter")
            != NULL,
        "%s", out);
    cr_expect(strstr(out, "rc=70") != NULL && strstr(out, "m.trace") == NULL
                  && strstr(out, "m.html") == NULL,
              "%s", out);
    gb_test_sh(NULL, 0, "rm -rf '%s'", d);
}
