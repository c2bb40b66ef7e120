/*
 * test_fuzz_regressions.c -- replay the fuzz inputs through the fuzz
 * targets' own checks (fuzz/fuzz_checks.h), so that a crash found once
 * stays fixed and the seed corpora stay valid inputs of the checks.
 *
 *   fuzz/regressions/T/   inputs the fuzzers saved (crash-..., leak-..., ...)
 *   fuzz/corpus/T/        the hand-written seeds
 *
 * for T = map, scen, solve, journal, dyn, merge; every regular file not starting with '.' is
 * read into a buffer of exactly its size (no NUL after it, as libFuzzer
 * passes it) and must make gb_fuzz_T() return 0.  Under `make check` the
 * sanitizers watch the same runs.  Paths are relative to the repository
 * root, where `make test` runs.
 */
#include "gb_test.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../fuzz/fuzz_checks.h"

typedef int (*check_fn)(const uint8_t *data, size_t size);

/* Read path into a malloc'd buffer of exactly its size (1 byte for an
 * empty file, so that the pointer is never NULL). */
static uint8_t *read_exact(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    cr_assert(f != NULL, "cannot open %s: %s", path, strerror(errno));
    struct stat st;
    cr_assert_eq(fstat(fileno(f), &st), 0, "cannot stat %s", path);
    size_t n = (size_t)st.st_size;
    uint8_t *buf = malloc(n ? n : 1);
    cr_assert(buf != NULL);
    cr_assert_eq(fread(buf, 1, n, f), n, "short read on %s", path);
    fclose(f);
    *size = n;
    return buf;
}

/* Replay every file of dir through check; returns how many were replayed
 * (0 when dir does not exist). */
static size_t replay_dir(const char *dir, check_fn check)
{
    DIR *d = opendir(dir);
    if (!d) return 0;
    size_t count = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue;      /* ., .., .gitkeep */
        char path[1024];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) continue;
        size_t size;
        uint8_t *buf = read_exact(path, &size);
        int rc = check(buf, size);
        cr_expect_eq(rc, 0, "%s (%zu bytes): check %d: %s", path, size, rc, gb_fuzz_msg);
        free(buf);
        count++;
    }
    closedir(d);
    return count;
}

static void replay_target(const char *t, check_fn check)
{
    char dir[256];
    struct stat st;
    cr_assert(stat("fuzz", &st) == 0 && S_ISDIR(st.st_mode),
              "no fuzz/ directory: run the tests from the repository root");
    snprintf(dir, sizeof dir, "fuzz/regressions/%s", t);
    cr_expect(stat(dir, &st) == 0 && S_ISDIR(st.st_mode), "missing %s", dir);
    replay_dir(dir, check);
    snprintf(dir, sizeof dir, "fuzz/corpus/%s", t);
    size_t seeds = replay_dir(dir, check);
    cr_expect_gt(seeds, 0, "expected seed inputs in %s, found none", dir);
}

GB_TEST(fuzz_regressions, map_inputs_keep_the_loader_invariants)
{
    replay_target("map", gb_fuzz_map);
}

GB_TEST(fuzz_regressions, scen_inputs_keep_the_loader_invariants)
{
    replay_target("scen", gb_fuzz_scen);
}

GB_TEST(fuzz_regressions, solve_inputs_agree_with_dijkstra_and_the_validator)
{
    replay_target("solve", gb_fuzz_solve);
}

GB_TEST(fuzz_regressions, journal_inputs_resume_or_are_refused_untouched)
{
    replay_target("journal", gb_fuzz_journal);
}

GB_TEST(fuzz_regressions, dyn_inputs_keep_the_loader_invariants_and_round_trip)
{
    replay_target("dyn", gb_fuzz_dyn);
}

GB_TEST(fuzz_regressions, merge_inputs_merge_whole_or_are_refused_with_nothing_written)
{
    replay_target("merge", gb_fuzz_merge);
    /* the seeds named ok-* merge, the others are refused: both paths are fuzzed */
    DIR *dir = opendir("fuzz/corpus/merge");
    cr_assert_not_null(dir);
    struct dirent *e;
    int ok = 0;
    while ((e = readdir(dir)) != NULL) {
        if (e->d_name[0] == '.') continue;
        char path[600];
        size_t size;
        snprintf(path, sizeof path, "fuzz/corpus/merge/%s", e->d_name);
        uint8_t *buf = read_exact(path, &size);
        cr_expect_eq(gb_fuzz_merge(buf, size), 0, "%s: %s", path, gb_fuzz_msg);
        int want = strncmp(e->d_name, "ok-", 3) == 0;
        cr_expect_eq(gb_fuzz_merged, want, "%s: expected it %s", path, want ? "merged" : "refused");
        ok += want;
        free(buf);
    }
    closedir(dir);
    cr_expect_geq(ok, 2, "expected seeds that merge in fuzz/corpus/merge, found %d", ok);
}

/* The dynamic check fires on a broken scenario: an event cell moved onto
 * the goal it blocks, and an event count that does not add up. */
GB_TEST(fuzz_regressions, dyn_check_detects_a_blocked_goal_and_lost_events)
{
    static const char text[] = "gridbench-dynamic 1\nquery m.map 4 4 0 0 3 3\n"
                               "at 2 block 1,1 2,2\nnear 1 free 3,3\n";
    gb_dynscen s;
    gb_diag d;
    cr_assert_eq(gb_dynscen_parse("fuzz.dyn", text, sizeof text - 1, &s, &d), 0, "%s", d.msg);
    cr_expect_eq(fz_check_dyn(&s), 0, "%s", gb_fuzz_msg);   /* freeing the goal is legal */
    s.cell[1].x = 3;
    s.cell[1].y = 3;
    cr_expect_eq(fz_check_dyn(&s), 119, "%s", gb_fuzz_msg);
    s.cell[1].x = 2;
    s.cell[1].y = 2;
    s.nev++;
    cr_expect_eq(fz_check_dyn(&s), 120, "%s", gb_fuzz_msg);
    s.nev--;
    gb_dynscen_free(&s);
}

/* The journal check catches the bug it was written for: a journal of a
 * run killed during its first query must keep its two header lines. */
GB_TEST(fuzz_regressions, journal_check_sees_what_resume_kept)
{
    static const char j[] = "# gridbench run journal v2 fz 2 pairs\nmap,scen,line,queue\na,b,1,x\n";
    cr_expect_eq(gb_fuzz_journal((const uint8_t *)j, sizeof j - 1), 0, "%s", gb_fuzz_msg);
    cr_expect_eq(fz_journal_commits(j, sizeof j - 1), 0);
    cr_expect_eq(fz_journal_commits(j + 10, sizeof j - 11), -1);   /* no header lines */
    cr_expect_eq(fz_journal_commits("", 0), -1);                 /* cut to nothing */
}

/* The checks themselves must fail on a broken result: a corrupted grid
 * count is caught (guards against a check that can never fire). */
GB_TEST(fuzz_regressions, map_check_detects_a_wrong_passable_count)
{
    static const char text[] = "type octile\nheight 2\nwidth 3\nmap\n.@.\nGTS\n";
    gb_map m;
    gb_diag d;
    cr_assert_eq(gb_map_parse("fuzz.map", text, sizeof text - 1, &m, &d), 0, "%s", d.msg);
    cr_expect_eq(fz_check_map(&m, "fuzz.map"), 0, "%s", gb_fuzz_msg);
    m.grid.npassable++;
    cr_expect_eq(fz_check_map(&m, "fuzz.map"), 11);
    cr_expect(strstr(gb_fuzz_msg, "npassable 5, but 4 passable cells") != NULL, "%s",
              gb_fuzz_msg);
    m.grid.npassable--;
    m.terrain[1] = '.';
    cr_expect_eq(fz_check_map(&m, "fuzz.map"), 10, "%s", gb_fuzz_msg);
    gb_map_free(&m);
}

/* The solve decoder: size, model, terrain bits and query snapping. */
GB_TEST(fuzz_regressions, solve_decoder_reads_the_documented_layout)
{
    /* 3 x 2, model 4, cell (1,0) blocked, query (1,0) -> (2,1) */
    static const uint8_t in[] = { 2, 1, 3, 0x02, 1, 0, 2, 1 };
    fz_grid G;
    int qs[GB_FUZZ_MAXQ][2];
    cr_assert_eq(fz_decode(in, sizeof in, &G, qs), 1);
    cr_expect_eq(G.w, 3);
    cr_expect_eq(G.h, 2);
    cr_expect_eq(G.model, GB_MODEL_4);
    cr_expect_eq(G.free_[1], 0);
    cr_expect_eq(G.free_[0] + G.free_[2] + G.free_[3] + G.free_[4] + G.free_[5], 5);
    cr_expect_eq(qs[0][0], 2, "start on a blocked cell moves to the next passable one");
    cr_expect_eq(qs[0][1], 5);
    cr_expect_eq(gb_fuzz_solve(in, sizeof in), 0, "%s", gb_fuzz_msg);
}

/* The dynamic check replays what it loads: the rooms seed (three
 * queries on its own "#|" map) under the four models, plans checked;
 * and the observer's checks fire on a wrong plan. */
GB_TEST(fuzz_regressions, dyn_replay_runs_and_its_checks_fire)
{
    size_t size;
    uint8_t *buf = read_exact("fuzz/corpus/dyn/replay-rooms.dscen", &size);
    long replays = fz_dyn_replays;
    int64_t plans = fz_dyn_plans;
    cr_expect_eq(gb_fuzz_dyn(buf, size), 0, "%s", gb_fuzz_msg);
    free(buf);
    cr_expect_eq(fz_dyn_replays - replays, 3 * GB_MODEL_COUNT);
    cr_expect_gt(fz_dyn_plans - plans, 3 * GB_MODEL_COUNT, "the doors make the agent replan");
    /* a 3 x 1 corridor: a plan that miscounts its steps, then one found
     * where no path exists */
    gb_grid g;
    cr_assert_eq(gb_grid_init(&g, 3, 1), 0);
    for (int x = 0; x < 3; x++) g.pass[gb_grid_id(&g, x, 0)] = 1;
    gb_grid_recount(&g);
    static fz_dynobs o;
    memset(&o, 0, sizeof o);
    o.G.w = 3;
    o.G.h = 1;
    o.g = &g;
    o.goal = gb_grid_id(&g, 2, 0);
    int32_t path[3] = { gb_grid_id(&g, 0, 0), gb_grid_id(&g, 1, 0), gb_grid_id(&g, 2, 0) };
    gb_dstar_plan p = { .found = 1, .straight = 2, .diag = 0, .cost = 2.0, .path = path,
                        .path_len = 3 };
    fz_dyn_plan(&o, 0, path[0], &p);
    cr_expect_eq(o.rc, 0, "%s", gb_fuzz_msg);
    p.straight = 1;
    fz_dyn_plan(&o, 0, path[0], &p);
    cr_expect_eq(o.rc, 135, "%s", gb_fuzz_msg);
    o.rc = 0;
    g.pass[path[1]] = 0;
    p.straight = 2;
    fz_dyn_plan(&o, 0, path[0], &p);
    cr_expect_eq(o.rc, 132, "%s", gb_fuzz_msg);
    o.rc = 0;
    fz_dyn_move(&o, 1, path[1]);   /* no plan now: off the plan */
    cr_expect_eq(o.rc, 136, "%s", gb_fuzz_msg);
    gb_grid_free(&g);
}
