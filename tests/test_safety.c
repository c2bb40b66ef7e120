/*
 * test_safety.c -- outputs are never clobbered, mixed or silently lost:
 * --out targets that are not regular files or are inputs, two writers of
 * one output, resuming after an input changed or a journal was edited,
 * forgetting --resume, FIFO inputs, and the counters of limit rows.
 *
 * Every refusal must come before any work: the target is left as it was
 * and no journal or temp file appears.
 */
#include "gb_test.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gb_diag.h"
#include "gb_rows.h"

static char out[65536];
#define SC "datasets/default/maze128-2-1.map.scen"

static void mk(char *d, size_t n)
{
    snprintf(d, n, "/tmp/gbsafe.XXXXXX");
    cr_assert_not_null(mkdtemp(d));
}

/* ---- --out targets ------------------------------------------------------ */

typedef struct target_case {
    const char *what;      /* how to make DIR/t */
    const char *found;     /* the refusal says "found <this>" */
    const char *after;     /* test -X DIR/t afterwards (unchanged) */
} target_case;

static const target_case targets[] = {
    { "mkfifo $D/t", "found a FIFO", "-p" },
    { "mkdir $D/t", "found a directory", "-d" },
    { "ln -s /dev/null $D/t", "found a symbolic link", "-L" },
    { "echo keep >$D/real; ln -s real $D/t", "found a symbolic link", "-L" },   /* last: see below */
};

/* Every command that writes a file refuses each bad target before any
 * work, leaving it as it was and creating nothing. */
GB_TEST(safety, out_targets_that_are_not_regular_files_are_refused_first)
{
    char d[64];
    mk(d, sizeof d);
    cr_assert_eq(gb_test_sh(out, sizeof out, "%s run --quiet -s jps --count 3 --out %s/q.csv " SC, gb_test_bin(), d), 0, "%s", out);
    const char *cmds[] = {
        ("%s run --quiet -s jps --count 3 --out $D/t " SC),
        "%s summary $D/q.csv --out $D/t",
        "%s env --out $D/t",
        "%s heuristics --goals 1 --out $D/t datasets/default/maze128-2-1.map",
    };
    for (size_t t = 0; t < sizeof targets / sizeof targets[0]; t++) {
        for (size_t c = 0; c < sizeof cmds / sizeof cmds[0]; c++) {
            char cmd[1024];
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
            snprintf(cmd, sizeof cmd, cmds[c], gb_test_bin());   /* cmds[]: literals above */
#pragma GCC diagnostic pop
            int rc = gb_test_sh(out, sizeof out, "D=%s; rm -rf $D/t $D/real; %s; timeout 20 %s; echo \"rc=$?\"; "
                        "test %s $D/t && echo unchanged; ls $D", d, targets[t].what, cmd, targets[t].after);
            cr_assert_eq(rc, 0);
            cr_assert(strstr(out, "rc=73") != NULL, "%s with target made by '%s': expected exit 73: %s",
                      cmds[c], targets[t].what, out);
            cr_assert(strstr(out, targets[t].found) != NULL, "%s / %s: %s", cmds[c], targets[t].what, out);
            cr_assert(strstr(out, "expected an output that is a regular file or does not exist yet")
                      != NULL, "%s", out);
            cr_assert(strstr(out, "unchanged") != NULL, "%s / %s: the target changed: %s", cmds[c],
                      targets[t].what, out);
            cr_assert(strstr(out, ".partial") == NULL && strstr(out, ".tmp.") == NULL,
                      "%s / %s: left files: %s", cmds[c], targets[t].what, out);
        }
    }
    /* the symlink's target was not written through */
    cr_assert_eq(gb_test_sh(out, sizeof out, "cat %s/real", d), 0);
    cr_assert_str_eq(out, "keep\n");
    gb_test_sh(NULL, 0, "rm -rf %s", d);
}

GB_TEST(safety, out_naming_an_input_is_refused)
{
    char d[64];
    mk(d, sizeof d);
    /* the scenario itself, its map, and (for summary) the CSV it reads */
    cr_assert_eq(gb_test_sh(out, sizeof out, "cp datasets/default/maze128-2-1.map* %s/ && cd %s && "
                    "%s run --quiet -s jps --count 2 --out maze128-2-1.map.scen maze128-2-1.map.scen",
                    d, d, gb_test_bin()), 73, "%s", out);
    cr_assert(strstr(out, "expected an output that is none of the inputs, found the input") != NULL, "%s", out);
    cr_assert_eq(gb_test_sh(out, sizeof out, "cd %s && %s run --quiet -s jps --count 2 --out ./maze128-2-1.map "
                    "maze128-2-1.map.scen", d, gb_test_bin()), 73, "%s", out);
    cr_assert_eq(gb_test_sh(out, sizeof out, "cmp %s/maze128-2-1.map datasets/default/maze128-2-1.map && "
                    "cmp %s/maze128-2-1.map.scen " SC, d, d), 0, "an input was changed: %s", out);
    cr_assert_eq(gb_test_sh(out, sizeof out, "cd %s && %s run --quiet -s jps --count 2 --out q.csv maze128-2-1.map.scen "
                    "&& %s summary q.csv --out q.csv", d, gb_test_bin(), gb_test_bin()), 73, "%s", out);
    cr_assert_eq(gb_test_sh(out, sizeof out, "head -c 4 %s/q.csv", d), 0);
    cr_assert_str_eq(out, "map,");
    gb_test_sh(NULL, 0, "rm -rf %s", d);
}

/* ---- two writers -------------------------------------------------------- */

GB_TEST(safety, a_second_run_writing_the_same_out_is_refused_and_the_first_is_intact)
{
    char d[64];
    mk(d, sizeof d);
    cr_assert_eq(gb_test_sh(out, sizeof out,
                            "%s run --quiet -s dijkstra,astar-octile -q all --count 30 "
                            "--out %s/ref.csv datasets/default/*.scen",
                            gb_test_bin(), d),
                 0, "%s", out);
    /* the second starts while the first holds its journal: the first stops
     * itself after 5 queries (the test hook GRIDBENCH_STOP_AFTER, gb_sink.h)
     * and goes on once the second has been refused */
    int rc = gb_test_sh(out, sizeof out,
                        "GRIDBENCH_STOP_AFTER=5 %s run --quiet -s dijkstra,astar-octile -q all "
                        "--count 30 --out %s/q.csv datasets/default/*.scen & p=$!; "
                        "while [ \"$(cut -d' ' -f3 /proc/$p/stat 2>/dev/null)\" != T ]; do "
                        "kill -0 $p 2>/dev/null || { echo 'the first run ended before it stopped'; "
                        "break; }; sleep 0.01; done; "
                        "%s run --quiet -s jps --out %s/q.csv " SC
                        "; echo \"second=$?\"; kill -CONT $p; wait $p; "
                        "echo \"first=$?\"",
                        gb_test_bin(), d, gb_test_bin(), d);
    cr_assert_eq(rc, 0, "%s", out);
    cr_assert(strstr(out, "second=75") != NULL, "%s", out);
    cr_assert(strstr(out, "expected to be the only run writing") != NULL, "%s", out);
    cr_assert(strstr(out, "first=0") != NULL, "%s", out);
    cr_assert_eq(gb_test_sh(out, sizeof out, "sed -e '" GB_MASK_TIMES "' %s/ref.csv >%s/a; sed -e '" GB_MASK_TIMES
                    "' %s/q.csv >%s/b; cmp %s/a %s/b", d, d, d, d, d, d), 0, "mixed rows: %s", out);
    gb_test_sh(NULL, 0, "rm -rf %s", d);
}

/* ---- resume integrity ------------------------------------------------------ */

/* A journal with 10 complete queries, kept by a run that stopped on bad
 * input: DIR/m.scen is the maze scenario with line 12's start moved off
 * the map (DIR/good.scen keeps the original line). */
static void make_journal(const char *d)
{
    cr_assert_eq(gb_test_sh(out, sizeof out, "cp datasets/default/maze128-2-1.map %s/ && cp " SC " %s/good.scen && "
                    "awk 'BEGIN{OFS=\"\\t\"} NR==12{$5=500} {print}' FS='\t' %s/good.scen >%s/m.scen && "
                    "sed -i 's/maze128-2-1.map\t/maze128-2-1.map\t/' %s/m.scen && "
                    "cd %s && %s run --quiet -s dijkstra,jps --count 20 --map maze128-2-1.map --out q.csv m.scen; "
                    "echo \"rc=$?\"; grep -c '^#=' q.csv.partial", d, d, d, d, d, d, gb_test_bin()), 0, "%s", out);
    cr_assert(strstr(out, "rc=65") != NULL, "%s", out);
    cr_assert(strstr(out, "\n10\n") != NULL, "expected 10 complete queries kept: %s", out);
}

#define RESUME_CMD "cd %s && %s run --quiet -s dijkstra,jps --count 20 --map maze128-2-1.map %s --out q.csv m.scen"

GB_TEST(safety, resume_refuses_changed_inputs_and_edited_rows)
{
    char d[64];
    mk(d, sizeof d);
    make_journal(d);
    cr_assert_eq(gb_test_sh(out, sizeof out, "cp %s/q.csv.partial %s/keep", d, d), 0);
    /* a scenario line edited after the run started (same path) */
    cr_assert_eq(gb_test_sh(out, sizeof out, "cp %s/m.scen %s/m.keep && sed -i '3s/\\t[0-9.]*$/\\t99.5/' %s/m.scen",
                    d, d, d), 0);
    cr_assert_eq(gb_test_sh(out, sizeof out, RESUME_CMD, d, gb_test_bin(), "--resume"), 65, "%s", out);
    cr_assert(strstr(out, "q.csv.partial:1: error: expected the journal of this run") != NULL, "%s", out);
    cr_assert_eq(gb_test_sh(out, sizeof out, "cmp %s/q.csv.partial %s/keep", d, d), 0, "the journal changed: %s", out);
    /* a map cell changed */
    cr_assert_eq(gb_test_sh(out, sizeof out, "cp %s/m.keep %s/m.scen && cd %s && awk 'NR == 7 { c = substr($0, 61, 1); "
                    "c = c == \"@\" ? \".\" : \"@\"; $0 = substr($0, 1, 60) c substr($0, 62) } { print }' "
                    "maze128-2-1.map >m2 && mv m2 maze128-2-1.map && ! cmp -s maze128-2-1.map "
                    "$OLDPWD/datasets/default/maze128-2-1.map", d, d, d), 0, "%s", out);
    cr_assert_eq(gb_test_sh(out, sizeof out, RESUME_CMD, d, gb_test_bin(), "--resume"), 65, "%s", out);
    cr_assert(strstr(out, "q.csv.partial:1: error: expected the journal of this run") != NULL, "%s", out);
    cr_assert_eq(gb_test_sh(out, sizeof out, "cp datasets/default/maze128-2-1.map %s/", d), 0);
    /* a row's cost edited into text: refused with its line */
    cr_assert_eq(gb_test_sh(out, sizeof out, "awk -F, 'BEGIN{OFS=\",\"} NR==3{$15=\"abc\"} {print}' %s/keep "
                    ">%s/q.csv.partial", d, d), 0);
    cr_assert_eq(gb_test_sh(out, sizeof out, RESUME_CMD, d, gb_test_bin(), "--resume"), 65, "%s", out);
    cr_assert(strstr(out, "q.csv.partial:3: error: expected a row of this run, field 15: expected a "
                          "number or nothing, found 'abc'") != NULL, "%s", out);
    /* a row with a status that does not exist */
    cr_assert_eq(gb_test_sh(out, sizeof out, "sed '3s/,ok,/,fine,/' %s/keep >%s/q.csv.partial", d, d), 0);
    cr_assert_eq(gb_test_sh(out, sizeof out, RESUME_CMD, d, gb_test_bin(), "--resume"), 65, "%s", out);
    cr_assert(strstr(out, "expected a row status, found 'fine'") != NULL, "%s", out);
    /* the journal as it was: resumed, and stopped again by the same bad line */
    cr_assert_eq(gb_test_sh(out, sizeof out, "cp %s/keep %s/q.csv.partial", d, d), 0);
    cr_assert_eq(gb_test_sh(out, sizeof out, RESUME_CMD, d, gb_test_bin(), "--resume"), 65, "%s", out);
    cr_assert(strstr(out, "10 queries done before") != NULL, "%s", out);
    cr_assert(strstr(out, "m.scen:12:") != NULL, "%s", out);
    gb_test_sh(NULL, 0, "rm -rf %s", d);
}

/* #26: a journal's rows edited by hand were resumed into the CSV. */
GB_TEST(safety, resume_refuses_rows_edited_by_hand_and_old_journals)
{
    char d[64];
    mk(d, sizeof d);
    make_journal(d);
    cr_assert_eq(gb_test_sh(out, sizeof out, "cp %s/q.csv.partial %s/keep", d, d), 0);
    /* a status changed into another status: the query's digest differs */
    cr_assert_eq(gb_test_sh(out, sizeof out, "sed '4s/,ok,/,suboptimal,/' %s/keep >%s/q.csv.partial", d, d), 0);
    cr_assert_eq(gb_test_sh(out, sizeof out, RESUME_CMD, d, gb_test_bin(), "--resume"), 65, "%s", out);
    cr_assert(strstr(out, "q.csv.partial:3: error: expected the rows of query 0 as the run wrote them "
                          "(sha256:") != NULL, "%s", out);
    cr_assert(strstr(out, "the journal was edited or damaged; rerun with --fresh") != NULL, "%s", out);
    /* the same with the digest forged: the "#=" line's status differs */
    cr_assert_eq(gb_test_sh(out, sizeof out, "cd %s && sed '4s/,ok,/,suboptimal,/' keep >j && "
                    "h=$(sed -n 3,4p j | sha256sum | cut -c1-64) && sed \"5s/sha256:.*/sha256:$h/\" j >q.csv.partial",
                    d), 0, "%s", out);
    cr_assert_eq(gb_test_sh(out, sizeof out, RESUME_CMD, d, gb_test_bin(), "--resume"), 65, "%s", out);
    cr_assert(strstr(out, "q.csv.partial:4: error: expected row 2 of query 0 to be m.scen line 2, solver jps, "
                          "queue bheap, status ok (its '#=' line), found another status: the journal was "
                          "edited; rerun with --fresh") != NULL, "%s", out);
    /* query 0's rows replaced by query 1's, digest forged: another query */
    cr_assert_eq(gb_test_sh(out, sizeof out, "cd %s && sed -n 6,7p keep >r && sed -e '3,4d' -e '2r r' keep >j && "
                    "h=$(sed -n 3,4p j | sha256sum | cut -c1-64) && sed \"5s/sha256:.*/sha256:$h/\" j >q.csv.partial",
                    d), 0, "%s", out);
    cr_assert_eq(gb_test_sh(out, sizeof out, RESUME_CMD, d, gb_test_bin(), "--resume"), 65, "%s", out);
    cr_assert(strstr(out, "q.csv.partial:3: error: expected row 1 of query 0 to be m.scen line 2, solver "
                          "dijkstra, queue bheap, status ok (its '#=' line), found another query") != NULL,
              "%s", out);
    /* the pairs of a query swapped, digest forged: another pair */
    cr_assert_eq(gb_test_sh(out, sizeof out, "cd %s && sed -e '3{h;d}' -e '4G' keep >j && "
                    "h=$(sed -n 3,4p j | sha256sum | cut -c1-64) && sed \"5s/sha256:.*/sha256:$h/\" j >q.csv.partial",
                    d), 0, "%s", out);
    cr_assert_eq(gb_test_sh(out, sizeof out, RESUME_CMD, d, gb_test_bin(), "--resume"), 65, "%s", out);
    cr_assert(strstr(out, "q.csv.partial:3: error: expected row 1 of query 0") != NULL, "%s", out);
    cr_assert(strstr(out, "found another pair") != NULL, "%s", out);
    /* a field added to a row (the old row check stopped counting at the last column) */
    cr_assert_eq(gb_test_sh(out, sizeof out, "sed '3s/$/,1/' %s/keep >%s/q.csv.partial", d, d), 0);
    cr_assert_eq(gb_test_sh(out, sizeof out, RESUME_CMD, d, gb_test_bin(), "--resume"), 65, "%s", out);
    char w[160];
    snprintf(w, sizeof w, "q.csv.partial:3: error: expected a row of this run, expected %d fields, found "
             "more than %d", GB_ROWS_NCOL, GB_ROWS_NCOL);
    cr_assert(strstr(out, w) != NULL, "%s", out);
    /* a journal of an earlier version: no digests, start over */
    cr_assert_eq(gb_test_sh(out, sizeof out, "sed '1s/ v2 / v1 /' %s/keep >%s/q.csv.partial && cp %s/q.csv.partial %s/k1",
                    d, d, d, d), 0);
    cr_assert_eq(gb_test_sh(out, sizeof out, RESUME_CMD, d, gb_test_bin(), "--resume"), 65, "%s", out);
    cr_assert(strstr(out, "q.csv.partial:1: error: expected a journal of this gridbench (v2), found one of an "
                          "earlier version (v1, no digests of its rows): rerun without --resume to start over "
                          "with --fresh") != NULL, "%s", out);
    cr_assert_eq(gb_test_sh(out, sizeof out, "cmp %s/q.csv.partial %s/k1", d, d), 0, "the journal changed: %s", out);
    gb_test_sh(NULL, 0, "rm -rf %s", d);
}

/* #26: a FILE.partial that is no journal was deleted by a new run. */
GB_TEST(safety, a_file_at_the_journal_path_that_is_no_journal_is_left_alone)
{
    char d[64];
    mk(d, sizeof d);
    const char *modes[] = { "", "--fresh", "--resume" };
    for (int i = 0; i < 3; i++) {
        cr_assert_eq(gb_test_sh(out, sizeof out, "printf 'my notes\\n' >%s/q.csv.partial", d), 0);
        int rc = gb_test_sh(out, sizeof out, "cd %s && %s run --quiet --count 2 %s --out q.csv $OLDPWD/" SC,
                            d, gb_test_bin(), modes[i]);
        cr_assert_eq(rc, i == 2 ? 65 : 73, "'%s': %d: %s", modes[i], rc, out);
        if (i < 2)
            cr_assert(strstr(out, "q.csv.partial: error: expected no file or a journal of `gridbench run`, "
                                  "found another file ('my notes\\x0A'...): it is not removed; "
                                  "move it away, or choose another --out") != NULL, "%s", out);
        else
            cr_assert(strstr(out, "q.csv.partial:1: error: expected the journal of this run") != NULL, "%s", out);
        cr_assert_eq(gb_test_sh(out, sizeof out, "cat %s/q.csv.partial; ls %s", d, d), 0);
        cr_assert_str_eq(out, "my notes\nq.csv.partial\n", "'%s'", modes[i]);
    }
    gb_test_sh(NULL, 0, "rm -rf %s", d);
}

GB_TEST(safety, forgetting_resume_never_throws_work_away)
{
    char d[64];
    mk(d, sizeof d);
    make_journal(d);
    cr_assert_eq(gb_test_sh(out, sizeof out, "cp %s/q.csv.partial %s/keep && cp %s/good.scen %s/m.scen", d, d, d, d), 0);
    cr_assert_eq(gb_test_sh(out, sizeof out, RESUME_CMD, d, gb_test_bin(), ""), 73, "%s", out);
    cr_assert(strstr(out, "expected no journal of an earlier run, found one with 10 complete queries: "
                          "continue it with --resume (same options), or start over with --fresh") != NULL,
              "%s", out);
    cr_assert_eq(gb_test_sh(out, sizeof out, "cmp %s/q.csv.partial %s/keep", d, d), 0, "the journal changed: %s", out);
    cr_assert_eq(gb_test_sh(out, sizeof out, RESUME_CMD, d, gb_test_bin(), "--resume --fresh"), 64, "%s", out);
    /* --fresh starts over (the scenario was fixed meanwhile) and completes */
    cr_assert_eq(gb_test_sh(out, sizeof out, RESUME_CMD, d, gb_test_bin(), "--fresh"), 0, "%s", out);
    cr_assert_eq(gb_test_sh(out, sizeof out, "grep -c '' %s/q.csv; ls %s", d, d), 0);
    cr_assert(strncmp(out, "41\n", 3) == 0, "%s", out);
    cr_assert(strstr(out, "q.csv.partial") == NULL, "%s", out);
    /* --resume of a finished run (no journal) does not run it all again */
    cr_assert_eq(gb_test_sh(out, sizeof out, "cp %s/q.csv %s/done", d, d), 0);
    cr_assert_eq(gb_test_sh(out, sizeof out, RESUME_CMD, d, gb_test_bin(), "--resume"), 73, "%s", out);
    cr_assert(strstr(out, "found none and a finished q.csv: the run is complete") != NULL, "%s", out);
    cr_assert_eq(gb_test_sh(out, sizeof out, "cmp %s/q.csv %s/done", d, d), 0, "the finished CSV changed");
    gb_test_sh(NULL, 0, "rm -rf %s", d);
}

/* ---- FIFO inputs ---------------------------------------------------------- */

GB_TEST(safety, device_and_symlink_loop_inputs_and_outputs_are_refused)
{
    char d[64];
    mk(d, sizeof d);
    cr_assert_eq(gb_test_sh(out, sizeof out, "ln -s %s/loop %s/loop", d, d), 0);
    /* a device as the scenario, a symlink loop as the scenario and as --out */
    cr_assert_eq(gb_test_sh(out, sizeof out, "timeout 20 %s run /dev/zero", gb_test_bin()), 66, "%s", out);
    cr_assert(strstr(out, "/dev/zero: error: expected a regular file, found a special file") != NULL, "%s", out);
    cr_assert_eq(gb_test_sh(out, sizeof out, "%s run %s/loop", gb_test_bin(), d), 66, "%s", out);
    cr_assert(strstr(out, "expected a readable file, found 'Too many levels of symbolic links'") != NULL, "%s", out);
    cr_assert_eq(gb_test_sh(out, sizeof out, "%s run --out %s/loop " SC, gb_test_bin(), d), 73, "%s", out);
    cr_assert(strstr(out, "found a symbolic link") != NULL, "%s", out);
    gb_test_sh(NULL, 0, "rm -rf %s", d);
}

/* A link planted at an output's temp name "<out>.tmp.<pid>" (as another
 * user could in a shared folder) is neither followed nor truncated: the
 * writer takes a fresh name, and the output still appears whole. */
GB_TEST(safety, a_link_planted_at_the_temp_name_is_never_followed)
{
    char d[64], o[128], planted[160], victim[128], tmp[256];
    mk(d, sizeof d);
    snprintf(o, sizeof o, "%s/out.csv", d);
    snprintf(planted, sizeof planted, "%s.tmp.%ld", o, (long)getpid());
    snprintf(victim, sizeof victim, "%s/victim", d);
    cr_assert_eq(gb_test_sh(out, sizeof out, "printf precious >%s", victim), 0);
    cr_assert_eq(symlink(victim, planted), 0);
    gb_diag dg;
    FILE *f = gb_tmp_open(o, tmp, sizeof tmp, &dg);
    cr_assert_not_null(f, "%s", dg.msg);
    cr_assert_str_neq(tmp, planted);
    cr_assert_eq(strncmp(tmp, planted, strlen(planted)), 0, "%s", tmp);
    fputs("fresh\n", f);
    cr_assert_eq(gb_tmp_commit(f, tmp, o, &dg), 0, "%s", dg.msg);
    cr_assert_eq(gb_test_sh(out, sizeof out, "cat %s; echo; cat %s; readlink %s", victim, o, planted), 0);
    char want[400];
    snprintf(want, sizeof want, "precious\nfresh\n%s\n", victim);
    cr_assert_str_eq(out, want);
    /* a plain file at the name is not truncated either */
    cr_assert_eq(unlink(planted), 0);
    cr_assert_eq(gb_test_sh(out, sizeof out, "printf keep >%s", planted), 0);
    f = gb_tmp_open(o, tmp, sizeof tmp, &dg);
    cr_assert_not_null(f, "%s", dg.msg);
    gb_tmp_abort(f, tmp);
    cr_assert_eq(gb_test_sh(out, sizeof out, "cat %s", planted), 0);
    cr_assert_str_eq(out, "keep");
    gb_test_sh(NULL, 0, "rm -rf %s", d);
}

/* gridbench run on a full disk: exit 74, and no half-written CSV */
GB_TEST(safety, run_on_a_full_disk_leaves_no_half_written_csv)
{
    char d[64];
    mk(d, sizeof d);
    if (gb_test_sh(out, sizeof out, "mount -t tmpfs -o size=64k tmpfs %s", d) != 0) {
        gb_test_sh(NULL, 0, "rm -rf %s", d);
        cr_skip_test("cannot mount a tmpfs here (not root?): %s", out);
    }
    int rc = gb_test_sh(out, sizeof out, "%s run --quiet -s dijkstra,jps -q all --out %s/q.csv " SC, gb_test_bin(), d);
    char ls[4096];
    gb_test_sh(ls, sizeof ls, "ls %s", d);
    gb_test_sh(NULL, 0, "umount %s", d);
    gb_test_sh(NULL, 0, "rm -rf %s", d);
    cr_assert_eq(rc, 74, "a full disk: expected exit 74, found %d: %s", rc, out);
    cr_assert(strstr(out, "No space left on device") != NULL, "%s", out);
    cr_assert(strstr(ls, "q.csv\n") == NULL && strstr(ls, ".tmp.") == NULL, "left: %s", ls);
}

GB_TEST(safety, fifo_inputs_are_refused_at_once)
{
    char d[64];
    mk(d, sizeof d);
    cr_assert_eq(gb_test_sh(out, sizeof out, "mkfifo %s/f", d), 0);
    const char *cmds[] = {
        "%s run --quiet --out %s/q.csv %s/f",
        ("%s run --quiet --out %s/q.csv --map %s/f " SC),
        "%s summary --out %s/q.csv %s/f",
        "%s heuristics --goals 1 --out %s/q.csv %s/f",
    };
    for (size_t c = 0; c < sizeof cmds / sizeof cmds[0]; c++) {
        char cmd[1024];
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
        snprintf(cmd, sizeof cmd, cmds[c], gb_test_bin(), d, d);   /* cmds[]: literals above */
#pragma GCC diagnostic pop
        int rc = gb_test_sh(out, sizeof out, "timeout 20 %s; echo \"rc=$?\"; ls %s", cmd, d);
        cr_assert_eq(rc, 0);
        cr_assert(strstr(out, "rc=124") == NULL, "%s: hung on a FIFO", cmds[c]);
        cr_assert(strstr(out, "rc=66") != NULL || strstr(out, "rc=64") != NULL, "%s: %s", cmds[c], out);
        cr_assert(strstr(out, "found a FIFO") != NULL, "%s: %s", cmds[c], out);
        cr_assert(strstr(out, "q.csv") == NULL, "%s: left an output or journal: %s", cmds[c], out);
    }
    gb_test_sh(NULL, 0, "rm -rf %s", d);
}

/* ---- limit rows keep their counters ------------------------------------------ */

GB_TEST(safety, limit_and_unreachable_rows_carry_real_counters)
{
    char d[64];
    mk(d, sizeof d);
    cr_assert_eq(gb_test_sh(out, sizeof out, "%s run --quiet -s dijkstra --max-expanded 50 --count 40 --out %s/q.csv " SC,
                    gb_test_bin(), d), 0, "%s", out);
    /* column 21 is expanded: a limit row stopped at (about) the limit, not at 0 */
    cr_assert_eq(gb_test_sh(out, sizeof out, "awk -F, '$14 == \"limit\" { n++; if ($21 < 50 || $24 == 0) bad++ } "
                    "END { print n + 0, bad + 0 }' %s/q.csv", d), 0);
    int n = 0, bad = 0;
    cr_assert_eq(sscanf(out, "%d %d", &n, &bad), 2);
    cr_assert_gt(n, 0, "no limit rows");
    cr_assert_eq(bad, 0, "%d of %d limit rows have zero counters", bad, n);
    gb_test_sh(NULL, 0, "rm -rf %s", d);
}

/* ---- report.sh: "not written" is never confused with "written, with failures" */

GB_TEST(safety, report_script_exit_status_says_whether_anything_was_written)
{
    GB_TEST_E2E();
    char d[64];
    mk(d, sizeof d);
    /* the smallest report (one solver on one queue, one rep, no browser:
     * GB_CHROMIUM names none): what is checked is the exit status and
     * what is left in the output folder, not the report's contents */
#define REP                                                                                  \
    "GB_CHROMIUM=/nonexistent GB_BIN=%s scripts/report.sh --bin %s --scen " SC " --count 3 " \
    "--solvers jps --queues bheap --reps 1 --no-hyperfine --no-footprints --out-dir %s --run-id %s"
    /* an output folder that cannot be made: 4, never 1 */
    cr_assert_eq(gb_test_sh(out, sizeof out, "touch %s/file", d), 0);
    char od[128];
    snprintf(od, sizeof od, "%s/file/sub", d);
    int rc = gb_test_sh(out, sizeof out, REP, gb_test_bin(), gb_test_bin(), od, "r1");
    cr_assert_eq(rc, 4, "%s", out);
    cr_assert(strstr(out, "nothing published") != NULL, "%s", out);
    /* a kept interrupted folder is not deleted by a run that forgot --resume */
    cr_assert_eq(gb_test_sh(out, sizeof out, "mkdir -p %s/r2.tmp && echo x >%s/r2.tmp/queries.csv.partial", d, d), 0);
    rc = gb_test_sh(out, sizeof out, REP, gb_test_bin(), gb_test_bin(), d, "r2");
    cr_assert_eq(rc, 6, "%s", out);
    cr_assert(strstr(out, "--resume --run-id r2") != NULL && strstr(out, "--fresh") != NULL, "%s", out);
    cr_assert_eq(gb_test_sh(out, sizeof out, "cat %s/r2.tmp/queries.csv.partial; ls %s", d, d), 0);
    cr_assert(strncmp(out, "x\n", 2) == 0, "the kept journal changed: %s", out);
    cr_assert(strstr(out, "r2.lock") == NULL, "left its lock: %s", out);
    /* --fresh discards it and writes the report */
    rc = gb_test_sh(out, sizeof out, REP " --fresh", gb_test_bin(), gb_test_bin(), d, "r2");
    cr_assert_eq(rc, 0, "%s", out);
    cr_assert_eq(access(strcat(strcpy(out, d), "/r2/report.html"), F_OK), 0);
#undef REP
    gb_test_sh(NULL, 0, "rm -rf %s", d);
}

GB_TEST(safety, report_script_on_a_full_disk_fails_and_publishes_nothing)
{
    char d[64];
    mk(d, sizeof d);
    /* a 200 KiB tmpfs fills up midway through the plots */
    if (gb_test_sh(out, sizeof out, "mount -t tmpfs -o size=200k tmpfs %s", d) != 0) {
        gb_test_sh(NULL, 0, "rm -rf %s", d);
        cr_skip_test("cannot mount a tmpfs here (not root?): %s", out);
    }
    int rc = gb_test_sh(out, sizeof out, "GB_BIN=%s scripts/report.sh --bin %s --scen " SC " --count 3 --solvers jps "
                "--no-hyperfine --no-footprints --out-dir %s --run-id r1", gb_test_bin(), gb_test_bin(), d);
    char ls[4096];
    gb_test_sh(ls, sizeof ls, "ls %s", d);
    gb_test_sh(NULL, 0, "umount %s", d);
    gb_test_sh(NULL, 0, "rm -rf %s", d);
    cr_assert_eq(rc, 4, "a full disk must be 'not written' (4), found %d: %s", rc, out);
    cr_assert(strstr(out, "disk full") != NULL || strstr(out, "nothing published") != NULL, "%s", out);
    cr_assert(strstr(ls, "r1\n") == NULL && strstr(ls, "latest") == NULL, "published: %s", ls);
}

/* ---- diagnostics ------------------------------------------------------------ */

GB_TEST(diagnostics, cli_version_suggestions_option_errors_and_write_errors)
{
    cr_assert_eq(gb_test_sh(out, sizeof out, "%s --version", gb_test_bin()), 0, "%s", out);
    cr_assert(strncmp(out, "gridbench 0.", 12) == 0 && strstr(out, "(commit ") && strstr(out, "built with "),
              "%s", out);
    cr_assert_eq(gb_test_sh(out, sizeof out, "%s rnu", gb_test_bin()), 64, "%s", out);
    cr_assert(strstr(out, "expected a command (run, merge, list,") != NULL, "%s", out);
    cr_assert(strstr(out, "found 'rnu'; did you mean 'run'?") != NULL, "%s", out);
    cr_assert_eq(gb_test_sh(out, sizeof out, "%s xyzzy", gb_test_bin()), 64, "%s", out);
    cr_assert(strstr(out, "did you mean") == NULL, "a far word gets no suggestion: %s", out);
    /* solvers, heuristics, queues and models: the valid names, then a suggestion */
    static const struct { const char *args, *want; } typos[] = {
        { "-s jsp", "unknown solver 'jsp': expected one of dijkstra, astar-H" },
        { "-s jsp", "; did you mean 'jps'?" },
        { "-s asatr-octile", "did you mean 'astar-octile'?" },
        { "-s astar-octil", "unknown heuristic 'octil': expected one of zero, manhattan, octile" },
        { "-s astar-octil", "did you mean 'octile'?" },
        { "-q bukcet", "--queue: expected one of bheap, bheap-dk, 4heap, pairing, bucket, radix or all, "
                       "found 'bukcet'; did you mean 'bucket'?" },
        { "-m 8-nocutt", "--model: expected 8-nocut, 8-cut1, 8-cutall, 4 or 8-nocut-water, found '8-nocutt'; "
                         "did you mean '8-nocut'?" },
    };
    for (size_t i = 0; i < sizeof typos / sizeof typos[0]; i++) {
        cr_assert_eq(gb_test_sh(out, sizeof out, "%s run %s " SC, gb_test_bin(), typos[i].args), 64, "%s", out);
        cr_assert(strstr(out, typos[i].want) != NULL, "run %s: %s", typos[i].args, out);
    }
    cr_assert_eq(gb_test_sh(out, sizeof out, "%s run -s qqqqq " SC, gb_test_bin()), 64, "%s", out);
    cr_assert(strstr(out, "did you mean") == NULL, "%s", out);
    /* the house style for unknown options and missing values, in run and heuristics too */
    cr_assert_eq(gb_test_sh(out, sizeof out, "%s run --bogus " SC, gb_test_bin()), 64, "%s", out);
    cr_assert_str_eq(out, "gridbench run: expected an option listed by --help, found '--bogus'\n");
    cr_assert_eq(gb_test_sh(out, sizeof out, "%s run " SC " --jobs", gb_test_bin()), 64, "%s", out);
    cr_assert_str_eq(out, "gridbench run: --jobs: expected a value, found none\n");
    cr_assert_eq(gb_test_sh(out, sizeof out, "%s heuristics --nope", gb_test_bin()), 64, "%s", out);
    cr_assert_str_eq(out, "gridbench heuristics: expected an option of `gridbench heuristics --help`, "
                     "found '--nope'\n");
    /* output that cannot be written is an error */
    const char *w[] = { "list", "--help", "run --help", "--version" };
    for (size_t i = 0; i < sizeof w / sizeof w[0]; i++) {
        int rc = gb_test_sh(out, sizeof out, "%s %s >/dev/full", gb_test_bin(), w[i]);
        cr_assert_eq(rc, 74, "gridbench %s >/dev/full: exit %d: %s", w[i], rc, out);
        cr_assert(strstr(out, "<stdout>: error: expected to write the output") != NULL, "%s", out);
    }
    /* nothing on stdout before the inputs are known good */
    cr_assert_eq(gb_test_sh(out, sizeof out, "%s run /nonexistent.scen 2>/dev/null", gb_test_bin()), 66);
    cr_assert_str_empty(out, "stdout before the input was read: %s", out);
    /* a map that exists but is a directory is named as such, not "found none" */
    cr_assert_eq(gb_test_sh(out, sizeof out, "d=$(mktemp -d) && mkdir $d/d.map && printf 'version 1\\n0\\td.map\\t3\\t2\\t0"
                    "\\t0\\t2\\t1\\t2.41421356\\n' >$d/x.scen && %s run $d/x.scen; echo \"rc=$?\"; rm -rf $d",
                    gb_test_bin()), 0);
    cr_assert(strstr(out, "rc=66") != NULL && strstr(out, "found a directory, not a map file") != NULL, "%s", out);
    /* -s all under model 4 says what it leaves out */
    cr_assert_eq(gb_test_sh(out, sizeof out, "%s run -s all -m 4 --count 1 --quiet " SC " >/dev/null", gb_test_bin()), 0);
    cr_assert(strstr(out, "note: --solver all leaves out jps under model 4") != NULL, "%s", out);
}

GB_TEST(diagnostics, an_interrupted_run_says_where_its_queries_are)
{
    char d[64];
    mk(d, sizeof d);
    int rc = gb_test_sh(out, sizeof out, "%s run --quiet -s all -q all --out %s/q.csv datasets/default/*.scen & p=$!; "
                "for i in $(seq 1 500); do [ -s %s/q.csv.partial ] && break; sleep 0.01; done; "
                "kill -INT $p; wait $p; echo \"rc=$?\"", gb_test_bin(), d, d);
    cr_assert_eq(rc, 0);
    cr_assert(strstr(out, "rc=130") != NULL, "%s", out);
    cr_assert(strstr(out, "gridbench run: interrupted; the completed queries are kept in ") != NULL, "%s", out);
    cr_assert(strstr(out, "q.csv.partial: `--resume` (same options) continues from there") != NULL, "%s", out);
    gb_test_sh(NULL, 0, "rm -rf %s", d);
}

/* ---- the memory pre-check ------------------------------------------------------ */

/* The map pre-check (file, grid, every pair's workspace, the oracle's)
 * bounds what the run really allocates (gb_alloc's peak), within 1 %, for
 * every solver whose state the dimensions decide; the subgoal graphs,
 * whose size depends on the map's content, are counted by a lower bound
 * (documented) and left out here. */
GB_TEST(safety, memory_precheck_bounds_the_allocation_peak)
{
    char d[64];
    mk(d, sizeof d);
    int rc = gb_test_sh(out, sizeof out, "%s gen --family random --size 512x512 --percent 10 --seed 1 --per-bucket 1 "
                "--max-queries 2 --out %s >/dev/null 2>&1 && GRIDBENCH_ALLOC_REPORT=1 %s run --quiet "
                "-s dijkstra,astar-octile,astar-euclidean,astar-chebyshev,wastar-octile:w=1.5,gbfs-octile,"
                "astar-diff:k=8,bfs,bidijkstra,biastar-octile,jps,jps+ -q all --count 1 "
                "%s/random512-10-1.map.scen 2>&1 >/dev/null | grep -o '[0-9]* bytes' | tr '\\n' ' '",
                gb_test_bin(), d, gb_test_bin(), d);
    cr_assert_eq(rc, 0, "%s", out);
    unsigned long long pre = 0, peak = 0;
    cr_assert_eq(sscanf(out, "%llu bytes %llu bytes", &pre, &peak), 2, "%s", out);
    cr_assert_gt(pre, 100000000ull, "%s", out);
    cr_assert_leq(peak, pre + pre / 100, "the pre-check counted %llu bytes, the run peaked at %llu", pre, peak);
    gb_test_sh(NULL, 0, "rm -rf %s", d);
}
