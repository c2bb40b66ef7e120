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
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sysexits.h>
#include <time.h>

#include "gb_cmd.h"
#include "gb_diag.h"
#include "gb_gppc.h"

#define CMD "gridbench gppc"

static void gppc_usage(FILE *f)
{
    fprintf(f,
"usage: gridbench gppc build DIR [--name NAME] [--cxxflags FLAGS] [--no-make]\n"
"                             [--suboptimal] [--force] [--quiet]\n"
"       gridbench gppc list\n"
"\n"
"Run entries of the Grid-Based Path Planning Competition (GPPC, classic track)\n"
"unmodified: `build` compiles the entry in DIR (Entry.h and its C++ sources,\n"
"main.cpp left out) with gridbench's driver into a plugin and prints the\n"
"plugin's path, for `gridbench run --plugin`.  Built plugins and each map's\n"
"preprocessed index live in ${XDG_CACHE_HOME:-~/.cache}/gridbench/gppc/,\n"
"keyed by the entry's contents: a second build of the same sources is instant.\n"
"Sources and flags come from the entry's Makefile (a dry run, `make -n -B`)\n"
"when it has one, else from DIR/*.cpp; $CXX is the compiler (default c++).\n"
"\n"
"  --name NAME       the solver's name (default: the entry's GetName())\n"
"  --cxxflags FLAGS  more compiler flags, e.g. '-DVARIANT=2 -fopenmp'\n"
"  --no-make         ignore the Makefile: DIR/*.cpp, -std=c++17 -O3 -DNDEBUG\n"
"  --suboptimal      the entry is not optimal: its rows are not judged on cost\n"
"  --force           compile even when the cache holds the same build\n"
"  -q, --quiet       no summary line on stderr\n"
"  -h, --help        this text\n"
"\n"
"Exit status: 0 built (or reused); 64 bad usage; 65 the entry does not compile\n"
"(the compiler's log is named); 66 no entry in DIR or no driver; 69 no\n"
"compiler; 71 out of memory; 73 the cache is not writable.\n"
"\n"
"Example:\n"
"  so=$(gridbench gppc build ~/gppc/my-entry --name mine)\n"
"  gridbench run --plugin \"$so\" -s mine,jps datasets/default/*.scen\n");
}

static int fail(const gb_diag *d)
{
    fputs(CMD ": ", stderr);
    gb_diag_print(d, stderr);
    return d->code;
}

static int cmd_build(int argc, char **argv)
{
    static const struct option lo[] = {
        { "name", required_argument, 0, 'n' }, { "cxxflags", required_argument, 0, 'x' },
        { "no-make", no_argument, 0, 'M' }, { "suboptimal", no_argument, 0, 's' },
        { "force", no_argument, 0, 'f' }, { "quiet", no_argument, 0, 'q' },
        { "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 }
    };
    gb_gppc_build_opts o = { .use_make = 1 };
    int quiet = 0, c;
    optind = 0;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":qh", lo, NULL)) != -1) {
        switch (c) {
        case 'n': o.name = optarg; break;
        case 'x': o.cxxflags = optarg; break;
        case 'M': o.use_make = 0; break;
        case 's': o.suboptimal = 1; break;
        case 'f': o.force = 1; break;
        case 'q': quiet = 1; break;
        case 'h': gppc_usage(stdout); return 0;
        case ':':
            fprintf(stderr, CMD " build: %s: expected a value, found none\n", argv[optind - 1]);
            return EX_USAGE;
        default:
            fprintf(stderr, CMD " build: expected an option listed by --help, found '%s'\n", argv[optind - 1]);
            return EX_USAGE;
        }
    }
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
            fprintf(stderr, CMD ": entry %s: reused the cached build (%d sources)\n", b.hash, b.nsources);
        else
            fprintf(stderr, CMD ": entry %s: compiled %d sources (%s) in %.1f s; log %s\n", b.hash,
                    b.nsources, b.from_make ? "sources and flags from its Makefile" : "*.cpp of its folder",
                    s, b.log);
    }
    return 0;
}

/* Every <cache>/<hash>/entry.txt: "HASH\tSO\tDIR" per plugin built. */
static int cmd_list(int argc, char **argv)
{
    if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        gppc_usage(stdout);
        return 0;
    }
    if (argc > 1) {
        fprintf(stderr, CMD " list: expected no arguments, found '%s'\n", argv[1]);
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
        gppc_usage(stderr);
        return EX_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        gppc_usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "build")) return cmd_build(argc - 1, argv + 1);
    if (!strcmp(argv[1], "list")) return cmd_list(argc - 1, argv + 1);
    fprintf(stderr, CMD ": expected build or list, found '%s'\n", argv[1]);
    return EX_USAGE;
}
