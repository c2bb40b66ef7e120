/*
 * test_cli.c -- the command line is a public contract: flags, CSV
 * columns, exit statuses, atomic output.  (The dataset download script:
 * test_datasets.c.)
 * Runs the real binary named by GB_BIN (set by `make test`).
 */
#include "gb_test.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gb_run.h"

static const char *shared(void)
{
    const char *d = getenv("GB_SHARED");
    return d && *d ? d : "../shared/movingai";
}

/* Run a shell command; capture stdout+stderr (up to n bytes) into out;
 * return the exit status. */
static char *tmpdir(void)
{
    static char d[64];
    snprintf(d, sizeof d, "/tmp/gbcli.XXXXXX");
    cr_assert_not_null(mkdtemp(d));
    return d;
}

static long count_lines(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    long n = 0;
    int c;
    while ((c = fgetc(f)) != EOF) n += c == '\n';
    fclose(f);
    return n;
}

static char out[65536];

GB_TEST(cli, top_level_help_lists_every_command_and_unknown_command_is_usage_error)
{
    cr_assert_eq(gb_test_sh(out, sizeof out, "%s --help", gb_test_bin()), 0);
    const char *cmds[] = { "run", "merge", "list", "gen", "heuristics", "env", "summary", "footprint",
                           "report", "compare" };
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        char pat[32];
        snprintf(pat, sizeof pat, "  %s ", cmds[i]);
        cr_expect(strstr(out, pat) != NULL, "command %s missing from --help:\n%s", cmds[i], out);
        cr_expect_eq(gb_test_sh(NULL, 0, "%s %s --help >/dev/null", gb_test_bin(), cmds[i]), 0, "%s --help", cmds[i]);
    }
    cr_expect_eq(gb_test_sh(out, sizeof out, "%s frobnicate", gb_test_bin()), 64);
    cr_expect(strstr(out, "expected a command") != NULL, "%s", out);
}

/* The manual: each command has a page in docs/, docs/<command>.md unless
 * this table names another (a page may hold several commands).  A new
 * command needs its page, or a line here. */
static const struct { const char *cmd, *page; } doc_pages[] = {
    { "summary", "docs/report.md" },
    { "footprint", "docs/report.md" },
    { "report", "docs/report.md" },
    { "merge", "docs/scaling.md" },
    { "list", "docs/solvers.md" },
    { "env", "docs/timing.md" },
    { "dynamic", "docs/dynamic-replay.md" },   /* docs/dynamic.md is the .dscen format */
    { "export", "docs/gppc.md" },
    { "gppc-dynamic", "docs/dynamic-replay.md" },
};

/* Further --help texts of a command (`gridbench CMD ARG --help`), whose
 * options are documented on the command's page too. */
static const struct { const char *cmd, *arg; } sub_helps[] = {
    { "gen", "--dynamic" },
};

static const char *doc_page(const char *cmd, char *buf, size_t n)
{
    for (size_t i = 0; i < sizeof doc_pages / sizeof doc_pages[0]; i++)
        if (strcmp(doc_pages[i].cmd, cmd) == 0) return doc_pages[i].page;
    snprintf(buf, n, "docs/%s.md", cmd);
    return buf;
}

/* The whole of a text file, NUL-terminated (NULL when unreadable). */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) return NULL;
    size_t cap = 1 << 16, len = 0, got;
    char *b = malloc(cap);
    cr_assert_not_null(b);
    while ((got = fread(b + len, 1, cap - len - 1, f)) > 0) {
        len += got;
        if (len + 1 == cap) {
            b = realloc(b, cap *= 2);
            cr_assert_not_null(b);
        }
    }
    fclose(f);
    b[len] = '\0';
    return b;
}

/* Nonzero when text names option flag as a whole (`--out` is not named by
 * `--out-dir`); a flag ending in '-' is a family (`--require-*`), named by
 * any of its members. */
static int names_flag(const char *text, const char *flag)
{
    size_t n = strlen(flag);
    if (flag[n - 1] == '-') return strstr(text, flag) != NULL;
    for (const char *p = text; (p = strstr(p, flag)) != NULL; p++) {
        char c = p[n];
        if (!(c == '-' || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) return 1;
    }
    return 0;
}

/* Expect every long option that help mentions to be named on page (whose
 * text is doc); return how many options were checked. */
static int expect_flags_documented(const char *help, const char *what, const char *page, const char *doc)
{
    int nflag = 0;
    for (const char *q = help; (q = strstr(q, "--")) != NULL; q += 2) {
        if (q > help && q[-1] != ' ' && q[-1] != '[' && q[-1] != ',') continue;
        char flag[48];
        size_t n = 0;
        while (n + 1 < sizeof flag && (q[n] == '-' || (q[n] >= 'a' && q[n] <= 'z'))) { flag[n] = q[n]; n++; }
        flag[n] = '\0';
        if (n <= 3 || !strcmp(flag, "--help")) continue;
        nflag++;
        cr_expect(names_flag(doc, flag), "`%s --help` mentions %s, %s does not document it", what, flag, page);
    }
    return nflag;
}

/* The contract, derived rather than listed: every command that `gridbench
 * --help` names has a --help with an example and a page in docs/ that
 * names it; every long option its --help mentions is documented on that
 * page; and the README's command table names every command. */
GB_TEST(cli, every_command_and_every_flag_is_documented)
{
    static char top[8192], help[16384];
    cr_assert_eq(gb_test_sh(top, sizeof top, "%s --help", gb_test_bin()), 0);
    char *readme = slurp("README.md");
    cr_assert_not_null(readme, "README.md (tests run from the repository root)");
    int ncmd = 0, nflag = 0;
    const char *p = strstr(top, "commands:\n");
    cr_assert_not_null(p, "%s", top);
    for (p = strchr(p, '\n') + 1; strncmp(p, "  ", 2) == 0; p = strchr(p, '\n') + 1) {
        char cmd[32], buf[64], mention[64];
        cr_assert_eq(sscanf(p, " %31s", cmd), 1);
        ncmd++;
        cr_assert_eq(gb_test_sh(help, sizeof help, "%s %s --help", gb_test_bin(), cmd), 0, "%s --help", cmd);
        cr_expect(strstr(help, "Example") != NULL, "%s --help has no example", cmd);
        snprintf(mention, sizeof mention, "gridbench %s", cmd);
        cr_expect(strstr(readme, mention) != NULL, "the README's command table never names `%s`", mention);
        const char *page = doc_page(cmd, buf, sizeof buf);
        char *doc = slurp(page);
        cr_expect_not_null(doc, "no manual page %s for `%s` (write it, or map the command in doc_pages)",
                           page, mention);
        if (!doc) continue;
        cr_expect(strstr(doc, mention) != NULL, "%s never names `%s`", page, mention);
        nflag += expect_flags_documented(help, mention, page, doc);
        for (size_t i = 0; i < sizeof sub_helps / sizeof sub_helps[0]; i++) {
            if (strcmp(sub_helps[i].cmd, cmd) != 0) continue;
            cr_assert_eq(gb_test_sh(help, sizeof help, "%s %s %s --help", gb_test_bin(), cmd, sub_helps[i].arg),
                         0, "%s %s --help", cmd, sub_helps[i].arg);
            char what[96];
            snprintf(what, sizeof what, "%s %s", mention, sub_helps[i].arg);
            nflag += expect_flags_documented(help, what, page, doc);
        }
        free(doc);
    }
    free(readme);
    cr_expect_geq(ncmd, 10, "only %d commands in --help", ncmd);
    cr_expect_geq(nflag, 100, "only %d flags found", nflag);
}

GB_TEST(cli, run_help_documents_every_flag)
{
    cr_assert_eq(gb_test_sh(out, sizeof out, "%s run --help", gb_test_bin()), 0);
    const char *flags[] = { "--solver", "--queue", "--model", "--out", "--map", "--reps",
                            "--max-expanded", "--max-ms", "--first", "--count", "--sample", "--strict", "--quiet",
                            "Example" };
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        cr_expect(strstr(out, flags[i]) != NULL, "%s missing from run --help", flags[i]);
}

GB_TEST(cli, csv_header_is_the_documented_contract)
{
    cr_expect_str_eq(gb_run_csv_header(),
        "map,scen,line,bucket,start_x,start_y,goal_x,goal_y,model,solver,queue,"
        "guarantee,bound,status,cost,dijkstra_cost,scen_cost,scen_decimals,subopt,"
        "path_len,expanded,generated,scanned,pushes,pops,decreases,stale,peak_open,"
        "time_ns,time_cold_ns,reps,mem_bytes,prep_ns,time_source,solver_time_ns,"
        "cost_model,euclid_lb,lb_ratio,regime,first20_ns,max_call_ns,calls,storage_bytes,"
        "prepare_ns");
}

GB_TEST(cli, run_writes_one_row_per_query_solver_and_queue_atomically)
{
    char scen[1024];
    snprintf(scen, sizeof scen, "%s/dao/arena.map.scen", shared());
    if (access(scen, R_OK) != 0) cr_skip_test("%s not found", scen);
    char *d = tmpdir();
    int rc = gb_test_sh(out, sizeof out, "%s run --quiet -s dijkstra,jps,bfs -q bheap,bucket --count 7 "
                "--out %s/r.csv %s", gb_test_bin(), d, scen);
    cr_assert_eq(rc, 0, "%s", out);
    char path[128];
    snprintf(path, sizeof path, "%s/r.csv", d);
    /* 7 queries x (dijkstra, jps on 2 queues + bfs once) + header */
    cr_expect_eq(count_lines(path), 1 + 7 * 5);
    FILE *f = fopen(path, "r");
    char line[1024];
    cr_assert(fgets(line, sizeof line, f));
    line[strcspn(line, "\n")] = '\0';
    cr_expect_str_eq(line, gb_run_csv_header());
    int fifo = 0;
    while (fgets(line, sizeof line, f)) {
        cr_expect(strstr(line, ",ok,") != NULL, "row not ok: %s", line);
        fifo += strstr(line, ",bfs,fifo,") != NULL;
    }
    fclose(f);
    cr_expect_eq(fifo, 7, "bfs runs once per query, with queue fifo");
    /* --sample 10 of arena's 160 queries: every 16th, lines 2, 18, ... */
    cr_assert_eq(gb_test_sh(out, sizeof out, "%s run --quiet --sample 10 %s/dao/arena.map.scen 2>/dev/null | cut -d, -f3 | tr '\\n' ' '",
                    gb_test_bin(), shared()), 0);
    cr_expect_str_eq(out, "line 2 18 34 50 66 82 98 114 130 146 ");
    cr_expect_eq(gb_test_sh(out, sizeof out, "ls %s | grep -c tmp", d), 1, "temp file left behind: %s", out);
    gb_test_sh(NULL, 0, "rm -rf %s", d);
}

GB_TEST(cli, bad_input_exits_with_sysexits_and_leaves_no_output)
{
    char *d = tmpdir();
    cr_expect_eq(gb_test_sh(out, sizeof out, "%s run --quiet --out %s/r.csv %s/missing.scen", gb_test_bin(), d, d), 66);
    cr_expect(strstr(out, "missing.scen: error: expected a readable file") != NULL, "%s", out);
    char path[128];
    snprintf(path, sizeof path, "%s/r.csv", d);
    cr_expect_neq(access(path, F_OK), 0, "a CSV was left after a failed run");
    cr_expect_eq(gb_test_sh(out, sizeof out, "ls -A %s | wc -l", d), 0);
    cr_expect(strncmp(out, "0", 1) == 0, "files left: %s", out);

    cr_expect_eq(gb_test_sh(out, sizeof out, "%s run -s astar-nope x.scen", gb_test_bin()), 64);
    cr_expect(strstr(out, "unknown heuristic 'nope'") != NULL, "%s", out);
    cr_expect_eq(gb_test_sh(out, sizeof out, "%s run -q fibonacci x.scen", gb_test_bin()), 64);
    cr_expect_eq(gb_test_sh(out, sizeof out, "%s run -s jps -m 4 x.scen", gb_test_bin()), 64);
    cr_expect(strstr(out, "supports model 8-nocut only") != NULL, "%s", out);
    cr_expect_eq(gb_test_sh(out, sizeof out, "%s run --reps 0 x.scen", gb_test_bin()), 64);
    cr_expect_eq(gb_test_sh(out, sizeof out, "%s run", gb_test_bin()), 64);
    gb_test_sh(NULL, 0, "rm -rf %s", d);
}

GB_TEST(cli, scenario_disagreement_is_counted_not_fatal_unless_strict)
{
    char *d = tmpdir();
    /* a 3x3 open map and a scenario that misprints one length */
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "printf 'type octile\\nheight 3\\nwidth 3\\nmap\\n...\\n...\\n...\\n' > %s/m.map && "
             "printf 'version 1\\n0\\tm.map\\t3\\t3\\t0\\t0\\t2\\t2\\t2.82842712\\n"
             "0\\tm.map\\t3\\t3\\t0\\t0\\t2\\t0\\t2.50000000\\n' > %s/m.map.scen", d, d);
    cr_assert_eq(gb_test_sh(NULL, 0, "%s", cmd), 0);
    cr_expect_eq(gb_test_sh(out, sizeof out, "%s run --quiet -o %s/a.csv %s/m.map.scen", gb_test_bin(), d, d), 0, "%s", out);
    cr_expect(strstr(out, "1 queries where the scenario's length disagrees") != NULL, "%s", out);
    cr_expect_eq(gb_test_sh(out, sizeof out, "grep -c scen_mismatch %s/a.csv", d), 0);
    cr_expect(strncmp(out, "1", 1) == 0, "%s", out);
    cr_expect_eq(gb_test_sh(out, sizeof out, "%s run --quiet --strict -o %s/b.csv %s/m.map.scen", gb_test_bin(), d, d), 2);
    gb_test_sh(NULL, 0, "rm -rf %s", d);
}

GB_TEST(cli, limits_give_limit_rows_not_failures)
{
    char *d = tmpdir();
    cr_assert_eq(gb_test_sh(NULL, 0, "printf 'type octile\\nheight 1\\nwidth 40\\nmap\\n%%s\\n' "
                    "........................................ > %s/l.map && "
                    "printf 'version 1\\n9\\tl.map\\t40\\t1\\t0\\t0\\t39\\t0\\t39.00000000\\n' > %s/l.map.scen",
                    d, d), 0);
    /* 39 steps need 39 expansions: a limit of 10 stops every solver but
     * JPS, which crosses the corridor in one jump */
    cr_expect_eq(gb_test_sh(out, sizeof out, "%s run --quiet -s dijkstra,bfs,bidijkstra,jps --max-expanded 10 "
                    "-o %s/r.csv %s/l.map.scen", gb_test_bin(), d, d), 0, "%s", out);
    cr_expect_eq(gb_test_sh(out, sizeof out, "cut -d, -f14 %s/r.csv | sort | uniq -c | tr -s ' '", d), 0);
    cr_expect(strstr(out, "3 limit") != NULL && strstr(out, "1 ok") != NULL, "%s", out);
    cr_expect_eq(gb_test_sh(out, sizeof out, "%s run --quiet --max-ms x %s/l.map.scen", gb_test_bin(), d), 64);
    gb_test_sh(NULL, 0, "rm -rf %s", d);
}

/* The C library: installed with make install, found by pkg-config, used
 * by examples/ (a statically registered solver and a plugin), and a wrong
 * plugin is caught. */
GB_TEST(cli, installed_library_examples_and_plugins, .timeout = 120)
{
    gb_test_bin();
    if (gb_test_sh(NULL, 0, "command -v pkg-config") != 0) cr_skip_test("pkg-config not installed");
    /* The install copies the build `make test` just made (GB_BUILD_DIR,
     * shared library included) with `make install-files`, which builds
     * nothing: only the three examples are compiled, so the test takes
     * seconds whatever the load, and the binary under test is never
     * relinked under the tests running beside this one.  Under
     * `make check` that build carries the sanitizers, which do not link
     * into user programs: the plain `make test` covers it (CI runs both). */
    const char *bd = getenv("GB_BUILD_DIR"), *plain = getenv("GB_BUILD_PLAIN");
    if (!bd || !*bd) cr_skip_test("GB_BUILD_DIR is not set (make test sets it)");
    if (!plain || strcmp(plain, "1") != 0) cr_skip_test("a sanitizer build: covered by the plain make test");
    char *d = tmpdir();
    cr_assert_eq(gb_test_sh(out, sizeof out, "GBENV='env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u BUILD -u OPT "
                    "-u EXTRA_CFLAGS -u CFLAGS'; $GBENV make -s install-files BUILD=%s PREFIX=%s >/dev/null && "
                    "$GBENV make -s examples PREFIX=%s EXDIR=%s/ex", bd, d, d, d), 0, "%s", out);
    cr_expect_eq(gb_test_sh(out, sizeof out, "PKG_CONFIG_PATH=%s/lib/pkgconfig pkg-config --libs gridbench", d), 0);
    cr_expect(strstr(out, "-lgridbench") != NULL, "%s", out);
    const char *scen = "datasets/default/room128-16-1.map.scen";
    cr_expect_eq(gb_test_sh(out, sizeof out, "%s/ex/my_solver --quiet --solver my-dijkstra --sample 15 -o %s/a.csv %s",
                    d, d, scen), 0, "%s", out);
    cr_expect_eq(gb_test_sh(out, sizeof out, "grep -c ',my-dijkstra,none,optimal,1,ok,' %s/a.csv", d), 0, "%s", out);
    cr_expect_eq(atoi(out), 15, "%s", out);
    cr_expect_eq(gb_test_sh(out, sizeof out, "%s run --quiet --plugin %s/ex/libuserdijkstra.so --solver plugin-dijkstra "
                    "--sample 15 -o %s/b.csv %s", gb_test_bin(), d, d, scen), 0, "%s", out);
    /* a wrong plugin: every row with a wall in the way is invalid, exit 1 */
    cr_assert_eq(gb_test_sh(out, sizeof out, "cc -shared -fPIC $(PKG_CONFIG_PATH=%s/lib/pkgconfig pkg-config --cflags gridbench) "
                    "tests/plugins/wrong_plugin.c -o %s/wrong.so", d, d), 0, "%s", out);
    cr_expect_eq(gb_test_sh(out, sizeof out, "%s run --quiet --plugin %s/wrong.so --solver straight-line --sample 15 "
                    "-o %s/c.csv %s", gb_test_bin(), d, d, scen), 1, "%s", out);
    cr_expect(strstr(out, "invalid_path on straight-line/none") != NULL, "%s", out);
    cr_expect_eq(gb_test_sh(out, sizeof out, "%s run --plugin %s/nope.so x.scen", gb_test_bin(), d), 66);
    /* a plugin that calls the library (gb_ws_new, gb_solve): loads into the
     * binary, which exports it, and links against the installed library */
    cr_assert_eq(gb_test_sh(out, sizeof out, "cc -shared -fPIC $(PKG_CONFIG_PATH=%s/lib/pkgconfig pkg-config --cflags gridbench) "
                    "tests/plugins/api_plugin.c -o %s/api.so", d, d), 0, "%s", out);
    cr_expect_eq(gb_test_sh(out, sizeof out, "%s run --quiet --plugin %s/api.so --solver via-library --sample 15 "
                    "-o %s/e.csv %s", gb_test_bin(), d, d, scen), 0, "%s", out);
    cr_expect_eq(gb_test_sh(out, sizeof out, "grep -c ',via-library,none,optimal,1,ok,' %s/e.csv", d), 0, "%s", out);
    cr_expect_eq(atoi(out), 15, "%s", out);
    cr_assert_eq(gb_test_sh(out, sizeof out, "cc -shared -fPIC $(PKG_CONFIG_PATH=%s/lib/pkgconfig pkg-config --cflags gridbench) "
                    "tests/plugins/api_plugin.c -o %s/api2.so $(PKG_CONFIG_PATH=%s/lib/pkgconfig pkg-config "
                    "--libs gridbench)", d, d, d), 0, "the documented link line: %s", out);
    gb_test_sh(NULL, 0, "rm -rf %s", d);
}

GB_TEST(cli, a_second_writer_of_the_same_run_folder_is_refused)
{
    char *d = tmpdir();
    /* another process holds the run folder's lock while report.sh starts */
    int rc = gb_test_sh(out, sizeof out, "flock %s/r1.lock -c 'GB_BIN=%s scripts/report.sh --bin %s --out-dir %s "
                "--run-id r1 --scen datasets/default/room128-16-1.map.scen --count 2 --no-hyperfine "
                "--no-footprints'", d, gb_test_bin(), gb_test_bin(), d);
    cr_expect_eq(rc, 5, "%s", out);
    cr_expect(strstr(out, "being written by another process") != NULL, "%s", out);
    cr_expect_eq(gb_test_sh(out, sizeof out, "ls %s", d), 0);
    cr_expect(strstr(out, "r1.tmp") == NULL && strstr(out, "r1\n") == NULL, "left behind: %s", out);
    gb_test_sh(NULL, 0, "rm -rf %s", d);
}

GB_TEST(cli, a_killed_run_leaves_no_output_only_its_journal)
{
    char *d = tmpdir();
    /* a run long enough to be killed midway: all solvers on all queues */
    int rc = gb_test_sh(out, sizeof out, "%s run --quiet -s all -q all --out %s/r.csv "
                "datasets/default/*.scen & p=$!; sleep 1; kill -TERM $p; wait $p; echo \"rc=$?\"",
                gb_test_bin(), d);
    cr_expect_eq(rc, 0);
    cr_expect(strstr(out, "rc=143") != NULL, "the run was not killed by SIGTERM: %s", out);
    cr_expect_eq(gb_test_sh(out, sizeof out, "ls -A %s", d), 0);
    /* no r.csv and no temporary file: only the journal --resume continues */
    cr_expect_str_eq(out, "r.csv.partial\n", "left behind: %s", out);
    cr_expect_eq(gb_test_sh(out, sizeof out, "sed -n 2p %s/r.csv.partial", d), 0);
    cr_expect(strncmp(out, "map,scen,line,", 14) == 0, "the journal's second line is not the "
              "CSV header: %s", out);
    gb_test_sh(NULL, 0, "rm -rf %s", d);
}

GB_TEST(cli, list_prints_one_line_per_solver_heuristic_queue_model)
{
    cr_assert_eq(gb_test_sh(out, sizeof out, "%s list", gb_test_bin()), 0);
    const char *must[] = { "solver\tdijkstra\t", "solver\tjps\t", "heuristic\toctile\t",
                           "heuristic\tdiff\t", "queue\tbucket\t", "queue\tradix\t",
                           "model\t8-nocut\t" };
    for (size_t i = 0; i < sizeof must / sizeof must[0]; i++)
        cr_expect(strstr(out, must[i]) != NULL, "'%s' missing from list", must[i]);
    /* every exact queue of the registry, and never the timing-bound ones
     * of solvers/gb_pq_bound.h (those exist only in `make bench-bounds`) */
    int nq = 0, nexact = 0;
    for (const char *p = out; (p = strstr(p, "queue\t")) != NULL; p++) nq++;
#define GB_X(E, T, N, L, D) nexact++;
    GB_QUEUE_LIST_EXACT(GB_X)
#undef GB_X
    cr_expect_eq(nq, nexact, "expected %d queues in the default build, found %d:\n%s", nexact, nq,
                 out);
    cr_expect(strstr(out, "bound-") == NULL, "a timing-bound queue is in the default build");
    cr_expect_eq(gb_test_sh(out, sizeof out, "%s run -q bound-fifo datasets/default/random128-20-1.map.scen 2>&1",
                    gb_test_bin()), 64, "%s", out);
}
