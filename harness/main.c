/*
 * main.c -- the gridbench binary: a table of subcommands and a dispatcher.
 * Every subcommand lives in its own gb_cmd_*.c (see gb_cmd.h).
 *
 * Testing hook: GRIDBENCH_FAIL_ALLOC=n makes the n-th allocation of the
 * process fail (solvers/gb_alloc.h); the suite runs each subcommand with
 * n = 1, 2, ... to prove that every failure is reported and unwound.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>

#include "gb_alloc.h"
#include "gb_cmd.h"

static const struct {
    const char *name;
    int (*fn)(int, char **);
    const char *summary;
} cmds[] = {
    { "run",  gb_cmd_run,  "run solvers x queues over scenarios, check every path, write CSV" },
    { "merge", gb_cmd_merge, "merge the CSVs of `run --shard I/N` into the CSV of one run" },
    { "list", gb_cmd_list, "list solvers, heuristics, queues and movement models" },
    { "gen",  gb_cmd_gen,  "generate Moving AI-format maps and scenarios (random, maze, rooms)" },
    { "heuristics", gb_cmd_heuristics,
              "check heuristics for admissibility, consistency and informedness against exact distances" },
    { "env",  gb_cmd_env,  "print the measurement environment as JSON (CPU, compiler, commit, checksums)" },
    { "summary", gb_cmd_summary,
              "per map x solver x queue statistics of a run's per-query CSV (percentiles, speedups)" },
    { "footprint", gb_cmd_footprint,
              "images of the cells each solver expanded on one query (PPM + gnuplot parameters)" },
    { "report", gb_cmd_report, "render report.md and report.html of a results/<run-id>/ folder" },
    { "compare", gb_cmd_compare,
              "compare two runs: status changes first, then NEW/OLD time ratios with intervals and tests" },
};

static void usage(FILE *f)
{
    fprintf(f, "usage: gridbench COMMAND [OPTIONS]\n\ncommands:\n");
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
        fprintf(f, "  %-11s %s\n", cmds[i].name, cmds[i].summary);
    fprintf(f, "\n`gridbench COMMAND --help` describes each command.\n");
}

int main(int argc, char **argv)
{
    const char *fail = getenv("GRIDBENCH_FAIL_ALLOC");
    if (fail && *fail) {
        char *end;
        unsigned long long n = strtoull(fail, &end, 10);
        if (*end != '\0') {
            fprintf(stderr, "gridbench: GRIDBENCH_FAIL_ALLOC: expected a count of allocations, found '%s'\n", fail);
            return EX_USAGE;
        }
        gb_alloc_fail_at(n);
    }
    if (argc < 2) {
        usage(stderr);
        return EX_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0
        || strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return 0;
    }
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
        if (strcmp(argv[1], cmds[i].name) == 0) return cmds[i].fn(argc - 1, argv + 1);
    fprintf(stderr, "gridbench: expected a command (");
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
        fprintf(stderr, "%s%s", i ? ", " : "", cmds[i].name);
    fprintf(stderr, "), found '%s'\n", argv[1]);
    usage(stderr);
    return EX_USAGE;
}
