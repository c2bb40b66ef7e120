/*
 * main.c -- the gridbench binary: a table of subcommands and a dispatcher.
 * Every subcommand lives in its own gb_cmd_*.c (see gb_cmd.h).
 *
 * Testing hook: GRIDBENCH_FAIL_ALLOC=n makes the n-th allocation of the
 * process fail (solvers/gb_alloc.h); the suite runs each subcommand with
 * n = 1, 2, ... to prove that every failure is reported and unwound.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sysexits.h>

#include "gb_alloc.h"
#include "gb_cmd.h"
#include "gb_env.h"

#ifndef GB_VERSION
#define GB_VERSION "0.2.0"
#endif

static const struct {
    const char *name;
    int (*fn)(int, char **);
    const char *summary;     /* NULL: the doc's */
    const gb_cmd_doc *doc;   /* its option table (gb_opt.h) */
} cmds[] = {
    { "run", gb_cmd_run, NULL, &gb_doc_run },
    { "merge", gb_cmd_merge, NULL, &gb_doc_merge },
    { "list", gb_cmd_list, NULL, &gb_doc_list },
    { "gen", gb_cmd_gen, NULL, &gb_doc_gen },
    { "heuristics", gb_cmd_heuristics, NULL, &gb_doc_heuristics },
    { "env", gb_cmd_env, NULL, &gb_doc_env },
    { "summary", gb_cmd_summary, NULL, &gb_doc_summary },
    { "footprint", gb_cmd_footprint, NULL, &gb_doc_footprint },
    { "trace", gb_cmd_trace, NULL, &gb_doc_trace },
    { "report", gb_cmd_report, NULL, &gb_doc_report },
    { "compare", gb_cmd_compare, NULL, &gb_doc_compare },
    { "dynamic", gb_cmd_dynamic, NULL, &gb_doc_dynamic },
    { "export", gb_cmd_export, NULL, &gb_doc_export },
    { "gppc-dynamic", gb_cmd_gppc_dynamic,
      "replay GPPC's dynamic scenarios (patches between query batches), every answer checked",
      &gb_doc_gppc_dynamic },
    { "gppc", gb_cmd_gppc, NULL, &gb_doc_gppc },
};

/* gridbench itself, for the overview page gridbench(1). */
static const gb_opt top_opts[] = {
    { 'h', 'h', "help", NULL, "list the commands (also `gridbench help`)" },
    { 'V', 'V', "version", NULL, "print the version, the source commit and the build flags" },
    { 0, 0, NULL, NULL, NULL }
};

static const gb_cmd_doc top_doc = {
    "gridbench", "COMMAND [OPTIONS] [ARGUMENTS]\n--help | --version\nman [COMMAND | gridbench]",
    "benchmark and conformance suite for shortest-path search on grid maps",
    "A benchmark and conformance suite for shortest-path search on grid maps, on the Moving AI "
    "benchmark sets (.map and .scen files).  Every path a solver returns is checked by an "
    "independent validator and compared with Dijkstra's optimum and the scenario's printed "
    "optimum; every solver runs on every priority queue.\n"
    "\n"
    "One binary with subcommands.  `gridbench COMMAND --help` describes a command; the commands "
    "with a page of their own are listed under SEE ALSO, and `gridbench man COMMAND` prints that "
    "page.  A mistyped command gets a suggestion (did you mean ...).",
    top_opts,
    "Output that cannot be written (`> /dev/full`) is an error (exit 74), never a silent 0.  "
    "SOURCE_DATE_EPOCH sets the date of the man pages; GRIDBENCH_FAIL_ALLOC=n makes the n-th "
    "allocation fail and GRIDBENCH_ALLOC_REPORT=1 prints the allocation peak (both for tests).",
    "gridbench list\n"
    "gridbench run -s dijkstra,astar-octile,jps -q bheap,bucket -o run.csv datasets/default/*.scen\n"
    "gridbench man summary | man -l -",
    "that of the command; 64 no or an unknown command; 74 the output could not be written."
};

/* `gridbench man` itself. */
static const gb_opt man_opts[] = {
    { 'h', 'h', "help", NULL, "this text" },
    { 0, 0, NULL, NULL, NULL }
};

static const gb_cmd_doc man_doc = {
    "man", "[COMMAND | gridbench]",
    "print the man page of a command, or with `gridbench` the overview, in roff",
    "Print the man page gridbench-COMMAND(1) in roff on standard output; with gridbench, the "
    "overview page gridbench(1); with nothing, the commands that have a page, one per line.  "
    "`make man` writes them all to build/man/ and `make install` installs them.",
    man_opts, NULL,
    "gridbench man summary | man -l -\n"
    "gridbench man",
    "0 printed; 64 bad usage or no such page; 74 the output could not be written."
};

static const char *summary_of(size_t i);

/* Levenshtein distance of a and b (short words), for "did you mean". */
static size_t edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b), row[64];
    if (la >= 64 || lb >= 64) return 99;
    for (size_t j = 0; j <= lb; j++) row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best) best = up + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            diag = up;
            row[j] = best;
        }
    }
    return row[lb];
}

/* Whatever a command printed must have reached stdout: a write error
 * (`> /dev/full`) is an error, not a silent exit 0. */
static int flushed(int rc)
{
    /* GRIDBENCH_ALLOC_REPORT=1: the allocation peak, for tests of the
     * memory pre-checks (counted by gb_alloc in usable bytes) */
    const char *ar = getenv("GRIDBENCH_ALLOC_REPORT");
    if (ar && *ar && strcmp(ar, "0") != 0)
        fprintf(stderr, "gridbench: allocations peaked at %zu bytes\n", gb_alloc_peak());
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "gridbench: <stdout>: error: expected to write the output, found '%s'\n",
                errno ? strerror(errno) : "a write error");
        return rc ? rc : EX_IOERR;
    }
    return rc;
}

#define NCMDS (sizeof cmds / sizeof cmds[0])

static const char *summary_of(size_t i)
{
    return cmds[i].doc ? cmds[i].doc->summary : cmds[i].summary;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: gridbench COMMAND [OPTIONS]\n\ncommands:\n");
    for (size_t i = 0; i < NCMDS; i++)
        fprintf(f, "  %-11s %s\n", cmds[i].name, summary_of(i));
    fprintf(f, "  %-11s %s\n", man_doc.name, man_doc.summary);
    fprintf(f, "\n`gridbench COMMAND --help` describes each command.\n");
}

/* The date of the man pages: SOURCE_DATE_EPOCH (reproducible builds), or today. */
static void man_date(char *b, size_t n)
{
    const char *sde = getenv("SOURCE_DATE_EPOCH");
    time_t t = sde && *sde ? (time_t)strtoll(sde, NULL, 10) : time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(b, n, "%Y-%m-%d", &tm);
}

/* `gridbench man [NAME]`: the roff of gridbench-NAME(1), with NAME
 * "gridbench" the overview gridbench(1), or with no NAME the list of the
 * commands that have a page. */
static int man(int argc, char **argv)
{
    int rc = gb_opt_only_help(&man_doc, argc, argv);
    if (rc >= 0) return flushed(rc);
    if (argc - optind > 1) {
        fprintf(stderr, "gridbench man: expected one page, found %d names\n", argc - optind);
        return EX_USAGE;
    }
    char date[32];
    man_date(date, sizeof date);
    if (optind == argc) {
        for (size_t i = 0; i < NCMDS; i++)
            if (cmds[i].doc) printf("%s\n", cmds[i].name);
        return flushed(0);
    }
    const char *name = argv[optind];
    if (strcmp(name, "gridbench") == 0) {
        gb_opt_cmd list[NCMDS + 1];
        for (size_t i = 0; i < NCMDS; i++)
            list[i] = (gb_opt_cmd){ cmds[i].name, summary_of(i), cmds[i].doc != NULL };
        list[NCMDS] = (gb_opt_cmd){ man_doc.name, man_doc.summary, 0 };
        gb_opt_man_overview(&top_doc, list, NCMDS + 1, GB_VERSION, date, stdout);
        return flushed(0);
    }
    for (size_t i = 0; i < NCMDS; i++)
        if (cmds[i].doc && strcmp(name, cmds[i].name) == 0) {
            gb_opt_man(cmds[i].doc, GB_VERSION, date, stdout);
            return flushed(0);
        }
    fprintf(stderr, "gridbench man: expected gridbench or a command with a man page (`gridbench man` "
            "lists them), found '%s'\n", name);
    return EX_USAGE;
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
        return flushed(0);
    }
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
        gb_env e;
        gb_env_collect(&e);
        printf("gridbench %s (commit %s)\nbuilt with %s: %s\n", GB_VERSION, e.commit, e.compiler, e.cflags);
        return flushed(0);
    }
    if (strcmp(argv[1], "man") == 0) return man(argc - 1, argv + 1);
    size_t best = 0, bestd = 99;
    char names[512] = "";
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        if (strcmp(argv[1], cmds[i].name) == 0) return flushed(cmds[i].fn(argc - 1, argv + 1));
        size_t dd = edit_distance(argv[1], cmds[i].name);
        if (dd < bestd) { bestd = dd; best = i; }
        size_t k = strlen(names);
        snprintf(names + k, sizeof names - k, "%s%s", i ? ", " : "", cmds[i].name);
    }
    fprintf(stderr, "gridbench: expected a command (%s), found '%s'", names, argv[1]);
    if (bestd <= 2) fprintf(stderr, "; did you mean '%s'?", cmds[best].name);
    fputc('\n', stderr);
    usage(stderr);
    return EX_USAGE;
}
