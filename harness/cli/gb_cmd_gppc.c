/*
 * gb_cmd_gppc.c -- `gridbench gppc`: GPPC classic entries as plugins.
 *
 *   gppc build DIR   compile the entry into a plugin (gb_gppc_build), print
 *                    its path; the cache makes a second build instant
 *   gppc list        the plugins in the cache, one line each
 *
 * The logic is in harness/run/gb_gppc.c; this file parses options and
 * prints.  docs/gppc.md is the user's page.
 */
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sysexits.h>
#include <time.h>
#include <unistd.h>

#include "gb_cmd.h"
#include "gb_diag.h"
#include "gb_gppc.h"

#define CMD "gridbench gppc"

/* One page for both subcommands: `list` has no options, so a page of its
 * own would say nothing, and `gridbench man` lists what `gridbench NAME`
 * runs (a gppc-build page would name no command). */
enum { OPT_NAME = 256, OPT_CXXFLAGS, OPT_NO_MAKE, OPT_SUBOPTIMAL, OPT_FORCE, OPT_ANYANGLE };

static const gb_opt gppc_opts[] = {
    { OPT_NAME, 0, "name", "NAME", "the solver's name (default: the entry's GetName())" },
    { OPT_CXXFLAGS, 0, "cxxflags", "FLAGS", "more compiler flags, e.g. '-DVARIANT=2 -fopenmp'" },
    { OPT_NO_MAKE, 0, "no-make", NULL, "ignore the Makefile: DIR/*.cpp, -std=c++17 -O3 -DNDEBUG" },
    { OPT_SUBOPTIMAL, 0, "suboptimal", NULL,
      "the entry is not optimal: its rows are not judged on "
      "cost" },
    { OPT_FORCE, 0, "force", NULL, "compile even when the cache holds the same build" },
    { OPT_ANYANGLE, 0, "anyangle", NULL,
      "an entry of the any-angle track (found by itself when its "
      "GPPC.h or Entry.h declares xyLoc with double fields): its rows need `run --anyangle-model "
      "gppc`" },
    { 'q', 'q', "quiet", NULL, "no summary line on stderr" },
    { 'h', 'h', "help", NULL, "this text" },
    { 0, 0, NULL, NULL, NULL }
};

const gb_cmd_doc gb_doc_gppc = {
    "gppc",
    "build DIR [--name NAME] [--cxxflags FLAGS] [--no-make] [--suboptimal] [--force] "
    "[--anyangle] [--quiet]\nlist",
    "build an entry of the GPPC competition (C++) into a plugin for `run --plugin`",
    "Run entries of the Grid-Based Path Planning Competition (GPPC, classic track) unmodified: "
    "`build` compiles the entry in DIR (Entry.h and its C++ sources, main.cpp left out) with "
    "gridbench's driver into a plugin and prints the plugin's path, for `gridbench run --plugin`; "
    "`list` prints the plugins built so far, one per line (hash, plugin, entry folder).\n"
    "\n"
    "An entry of the dynamic track (startkit-dynamic: its Entry.h declares gppc_map_change) is "
    "built with the dynamic driver instead, from C or C++ sources (without a Makefile, those of "
    "its CMakeLists.txt's GPPCentry library), for `gridbench gppc-dynamic --plugin`.\n"
    "\n"
    "An entry of the any-angle track (startkit-anyangle: its xyLoc holds doubles, or --anyangle) is "
    "built with the same driver; its waypoints are read as cell corners (within 1e-6) and its rows "
    "are validated in the GPPC any-angle model, for `gridbench run --anyangle-model gppc`.\n"
    "\n"
    "Built plugins and each map's preprocessed index live in "
    "${XDG_CACHE_HOME:-~/.cache}/gridbench/gppc/, keyed by the entry's contents: a second build of "
    "the same sources is instant.  Sources and flags come from the entry's Makefile (a dry run, "
    "`make -n -B`) when it has one, else from DIR/*.cpp; $CXX is the compiler (default c++).  The "
    "options are build's (docs/gppc.md).",
    gppc_opts,
    NULL,
    "so=$(gridbench gppc build ~/gppc/my-entry --name mine)\n"
    "gridbench run --plugin \"$so\" -s mine,jps datasets/default/*.scen",
    "0 built (or reused); 64 bad usage; 65 the entry does not compile (the compiler's log is "
    "named); 66 no entry in DIR or no driver; 69 no compiler; 71 out of memory; 73 the cache is "
    "not writable."
};

static int fail(const gb_diag *d)
{
    fputs(CMD ": ", stderr);
    gb_diag_print(d, stderr);
    return d->code;
}

static int cmd_build(int argc, char **argv)
{
    gb_gppc_build_opts o = { .use_make = 1 };
    const char *arg;
    int quiet = 0, c;
    gb_opt_parser op;
    if (gb_opt_begin(&op, &gb_doc_gppc) != 0) return EX_OSERR;
    while ((c = gb_opt_next(&op, argc, argv, &arg)) != -1) {
        switch (c) {
        case OPT_NAME: o.name = arg; break;
        case OPT_CXXFLAGS: o.cxxflags = arg; break;
        case OPT_NO_MAKE: o.use_make = 0; break;
        case OPT_SUBOPTIMAL: o.suboptimal = 1; break;
        case OPT_FORCE: o.force = 1; break;
        case OPT_ANYANGLE: o.anyangle = 1; break;
        case 'q': quiet = 1; break;
        case 'h': gb_opt_end(&op); gb_opt_help(&gb_doc_gppc, stdout); return 0;
        default: gb_opt_end(&op); return EX_USAGE;   /* gb_opt_next said why */
        }
    }
    gb_opt_end(&op);
    if (argc - optind != 1) {
        fprintf(stderr, CMD " build: expected one entry folder, found %d arguments\n", argc - optind);
        return EX_USAGE;
    }
    o.dir = argv[optind];
    gb_diag d;
    gb_diag_clear(&d);
    gb_gppc_built b;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int rc = gb_gppc_build(&o, &b, &d);
    if (rc) return fail(&d);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("%s\n", b.so);
    if (!quiet) {
        double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
        if (b.reused)
            fprintf(stderr, CMD ": entry %s: reused the cached build (%d sources%s)\n", b.hash,
                    b.nsources,
                    b.dynamic    ? ", dynamic track"
                    : b.anyangle ? ", any-angle track"
                                 : "");
        else
            fprintf(stderr, CMD ": entry %s: compiled %d sources (%s%s) in %.1f s; log %s\n", b.hash,
                    b.nsources,
                    b.from_make    ? "sources and flags from its Makefile"
                    : b.from_cmake ? "sources from its CMakeLists.txt"
                                   : "sources of its folder",
                    b.dynamic    ? ", dynamic track"
                    : b.anyangle ? ", any-angle track"
                                 : "",
                    s, b.log);
    }
    return 0;
}

/* Every <cache>/<hash>/entry.txt: "HASH\tSO\tDIR" per plugin built. */
static int cmd_list(int argc, char **argv)
{
    int rc = gb_opt_only_help(&gb_doc_gppc, argc, argv);
    if (rc >= 0) return rc;
    if (optind < argc) {
        fprintf(stderr, CMD " list: expected no arguments, found '%s'\n", argv[optind]);
        return EX_USAGE;
    }
    char cache[1000];
    if (gb_gppc_cache_dir(cache, sizeof cache) != 0) {
        fprintf(stderr, CMD " list: expected XDG_CACHE_HOME or HOME to name the cache, found neither\n");
        return EX_USAGE;
    }
    DIR *dp = opendir(cache);
    if (!dp) return 0;   /* nothing built yet */
    struct dirent *e;
    while ((e = readdir(dp)) != NULL) {
        if (e->d_name[0] == '.') continue;
        char p[1400], line[1400], dir[1400] = "";
        snprintf(p, sizeof p, "%s/%s/entry.txt", cache, e->d_name);
        FILE *f = fopen(p, "r");
        if (!f) continue;
        while (fgets(line, sizeof line, f)) {
            line[strcspn(line, "\n")] = '\0';
            if (!strncmp(line, "dir ", 4)) snprintf(dir, sizeof dir, "%s", line + 4);
            else if (!strncmp(line, "so ", 3))
                printf("%s\t%s/%s/%s.so\t%s\n", e->d_name, cache, e->d_name, line + 3, dir);
        }
        fclose(f);
    }
    closedir(dp);
    return 0;
}

int gb_cmd_gppc(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, CMD ": expected build or list, found nothing\n");
        gb_opt_help(&gb_doc_gppc, stderr);
        return EX_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        gb_opt_help(&gb_doc_gppc, stdout);
        return 0;
    }
    if (!strcmp(argv[1], "build")) return cmd_build(argc - 1, argv + 1);
    if (!strcmp(argv[1], "list")) return cmd_list(argc - 1, argv + 1);
    fprintf(stderr, CMD ": expected build or list, found '%s'\n", argv[1]);
    return EX_USAGE;
}
