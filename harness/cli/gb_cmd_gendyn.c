/*
 * gb_cmd_gendyn.c -- `gridbench gen --dynamic`: options into a
 * gb_dyngen_opts, the map (and an optional .scen) loaded, gb_dyngen,
 * then gb_dynscen_write (temporary file + rename).  gb_cmd_gen hands
 * over any command line that holds --dynamic.
 *
 * The map column written is the map's path relative to the output's
 * folder (its bare name when both share a folder), as Moving AI .scen
 * files name their maps: the scenario and its map can move together to
 * another place or machine, and `gridbench dynamic` still finds the map
 * beside the scenario (gb_dynscen_resolve_map).  Folders are compared
 * resolved (realpath), the map's own name is kept as given.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gb_alloc.h"
#include "gb_cmd.h"
#include "gb_dyngen.h"

#define CMD "gridbench gen --dynamic"

static void gendyn_usage(FILE *f)
{
    fprintf(f,
"usage: gridbench gen --dynamic --map FILE [--scen FILE] [OPTIONS] --out FILE\n"
"\n"
"Make a dynamic scenario (docs/dynamic.md) for any map: per query, doors\n"
"that close at fixed steps (some reopen later) and obstacles that appear\n"
"ahead on the agent's path when it comes within a sensing radius.  Same\n"
"map, options and seed, same bytes.\n"
"\n"
"  -M, --map FILE        the map (Moving AI .map)\n"
"  -s, --scen FILE       take starts and goals from this .scen (spread evenly\n"
"                        over it); default: random pairs in the largest component\n"
"  -n, --queries N       queries (default 20)\n"
"  -d, --doors N         door closings per query (default 3); a door is a\n"
"                        one-cell opening between two blocked cells\n"
"  -b, --obstacles N     appearing obstacles per query (default 3)\n"
"  -R, --radius R        sensing radius of the obstacles, cells (default 3)\n"
"  -B, --blob S          largest obstacle side, cells (default 3)\n"
"  -P, --reopen PCT      percent of closed doors that reopen (default 30)\n"
"  -S, --seed S          unsigned 64-bit seed (default 0)\n"
"  -m, --model M         movement model of the initial paths (default 8-nocut)\n"
"  -o, --out FILE        output file (e.g. maze512-1-0.dscen)\n"
"  -h, --help            this text\n"
"\n"
"Exit status: 0 written; 64 bad usage; 65 bad input or no usable query;\n"
"66 missing input; 71 out of memory; 73/74 cannot write.\n"
"\n"
"Example:\n"
"  gridbench gen --dynamic --map ../shared/movingai/dao/arena.map --queries 50 \\\n"
"      --seed 1 --out /tmp/arena.dscen\n"
"  gridbench dynamic --out /tmp/arena-dyn.csv /tmp/arena.dscen\n");
}

static int parse_num(const char *opt, const char *s, uint64_t max, uint64_t *out)
{
    uint64_t v = 0;
    if (!*s) goto bad;
    for (const char *p = s; *p; p++) {
        if (*p < '0' || *p > '9') goto bad;
        unsigned dg = (unsigned)(*p - '0');
        if (v > (max - dg) / 10) {
            fprintf(stderr, CMD ": %s: expected a number at most %llu, found '%s'\n", opt,
                    (unsigned long long)max, s);
            return EX_USAGE;
        }
        v = v * 10 + dg;
    }
    *out = v;
    return 0;
bad:
    fprintf(stderr, CMD ": %s: expected a non-negative integer (digits only), found '%s'\n",
            opt, s);
    return EX_USAGE;
}

static int report(const gb_diag *d)
{
    fputs(CMD ": ", stderr);
    gb_diag_print(d, stderr);
    return d->code;
}

/* The folder part of path ("." when none), resolved; 0 or -1. */
static int real_dir(const char *path, char *out)
{
    char buf[PATH_MAX];
    size_t n = strlen(path);
    if (n >= sizeof buf) return -1;
    memcpy(buf, path, n + 1);
    char *slash = strrchr(buf, '/');
    if (!slash) strcpy(buf, ".");
    else if (slash == buf) buf[1] = '\0';
    else *slash = '\0';
    return realpath(buf, out) ? 0 : -1;
}

/* The path of file name in folder to (absolute, resolved) as seen from
 * folder from (absolute, resolved): "../" once per folder of from below
 * their common ancestor, then the rest of to, then name.  0, or -1 when
 * it does not fit in out (size n). */
static int rel_path(const char *from, const char *to, const char *name, char *out, size_t n)
{
    /* the longest common prefix that ends a folder name in both */
    size_t common = 0;
    for (size_t i = 0;; i++) {
        int end_f = from[i] == '/' || from[i] == '\0', end_t = to[i] == '/' || to[i] == '\0';
        if (end_f && end_t) common = i;
        if (from[i] != to[i] || from[i] == '\0') break;
    }
    size_t k = 0;
    out[0] = '\0';
    for (const char *p = from + common; *p; p++) {
        if (*p != '/' || p[1] == '\0') continue;
        if (k + 3 >= n) return -1;
        memcpy(out + k, "../", 4);
        k += 3;
    }
    const char *rest = to + common;
    while (*rest == '/') rest++;
    int w = snprintf(out + k, n - k, "%s%s%s", rest, *rest ? "/" : "", name);
    return w < 0 || (size_t)w >= n - k ? -1 : 0;
}

int gb_cmd_gen_dynamic(int argc, char **argv)
{
    static const struct option lo[] = {
        { "dynamic", no_argument, 0, 'D' },       { "map", required_argument, 0, 'M' },
        { "scen", required_argument, 0, 's' },    { "queries", required_argument, 0, 'n' },
        { "doors", required_argument, 0, 'd' },   { "obstacles", required_argument, 0, 'b' },
        { "radius", required_argument, 0, 'R' },  { "blob", required_argument, 0, 'B' },
        { "reopen", required_argument, 0, 'P' },  { "seed", required_argument, 0, 'S' },
        { "model", required_argument, 0, 'm' },   { "out", required_argument, 0, 'o' },
        { "help", no_argument, 0, 'h' },          { 0, 0, 0, 0 }
    };
    gb_dyngen_opts o;
    gb_dyngen_defaults(&o);
    const char *mapf = NULL, *scenf = NULL, *out = NULL;
    uint64_t v;
    int c;
    optind = 0;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":DM:s:n:d:b:R:B:P:S:m:o:h", lo, NULL)) != -1) {
        switch (c) {
        case 'D': break;
        case 'M': mapf = optarg; break;
        case 's': scenf = optarg; break;
        case 'n': if (parse_num("--queries", optarg, GB_DYNGEN_MAX_QUERIES, &v)) return EX_USAGE;
                  o.queries = (int)v; break;
        case 'd': if (parse_num("--doors", optarg, GB_DYNGEN_MAX_EVENTS, &v)) return EX_USAGE;
                  o.doors = (int)v; break;
        case 'b': if (parse_num("--obstacles", optarg, GB_DYNGEN_MAX_EVENTS, &v)) return EX_USAGE;
                  o.obstacles = (int)v; break;
        case 'R': if (parse_num("--radius", optarg, GB_DYNGEN_MAX_RADIUS, &v)) return EX_USAGE;
                  o.radius = (int)v; break;
        case 'B': if (parse_num("--blob", optarg, GB_DYNGEN_MAX_BLOB, &v)) return EX_USAGE;
                  o.blob = (int)v; break;
        case 'P': if (parse_num("--reopen", optarg, 100, &v)) return EX_USAGE;
                  o.reopen_pct = (int)v; break;
        case 'S': if (parse_num("--seed", optarg, UINT64_MAX, &v)) return EX_USAGE;
                  o.seed = v; break;
        case 'm': {
            int e = gb_cli_model(CMD, optarg, &o.model);
            if (!e) e = gb_cli_no_water(CMD, o.model);
            if (e) return e;
            break;
        }
        case 'o': out = optarg; break;
        case 'h': gendyn_usage(stdout); return 0;
        case ':':
            fprintf(stderr, CMD ": %s: expected a value, found none\n", argv[optind - 1]);
            return EX_USAGE;
        default:
            fprintf(stderr, CMD ": expected an option listed by --help, found '%s'\n",
                    argv[optind - 1]);
            return EX_USAGE;
        }
    }
    if (optind < argc) {
        fprintf(stderr, CMD ": expected no operands, found '%s'\n", argv[optind]);
        return EX_USAGE;
    }
    if (!mapf || !out) {
        fprintf(stderr, CMD ": expected --map FILE and --out FILE, found %s missing "
                "(see `gridbench gen --dynamic --help`)\n", !mapf ? "--map" : "--out");
        return EX_USAGE;
    }
    gb_diag d;
    if (gb_dyngen_check(&o, &d) != 0) {
        fprintf(stderr, CMD ": %s\n", d.msg);
        return EX_USAGE;
    }
    char *inputs[2] = { (char *)mapf, (char *)scenf };
    if (gb_out_check(out, inputs, 2, &d) != 0) return report(&d);
    /* the map column: relative to the output's folder */
    char mdir[PATH_MAX], odir[PATH_MAX], mreal[PATH_MAX], field[PATH_MAX];
    if (!realpath(mapf, mreal) || real_dir(mapf, mdir) != 0 || real_dir(out, odir) != 0) {
        fprintf(stderr, CMD ": %s: expected a readable map and an output folder, found '%s'\n",
                mapf, strerror(errno));
        return EX_NOINPUT;
    }
    const char *base = strrchr(mapf, '/') ? strrchr(mapf, '/') + 1 : mapf;
    if (rel_path(odir, mdir, base, field, sizeof field) != 0) {
        fprintf(stderr, CMD ": --map: expected a path of at most %d bytes from the output's "
                "folder to the map, found a longer one\n", PATH_MAX - 1);
        return EX_USAGE;
    }
    if (strpbrk(field, " \t")) {
        char q[128];
        gb_diag_quote(q, sizeof q, field, strlen(field));
        fprintf(stderr, CMD ": --map: expected a map path without blanks, found %s\n", q);
        return EX_USAGE;
    }
    gb_map m;
    int rc = gb_map_load(mapf, &m, &d);
    if (rc) return report(&d);
    gb_scen s;
    memset(&s, 0, sizeof s);
    if (scenf && (rc = gb_scen_load(scenf, &s, &d)) != 0) {
        gb_map_free(&m);
        return report(&d);
    }
    gb_dynscen ds;
    rc = gb_dyngen(&o, &m, field, scenf ? &s : NULL, &ds, &d);
    if (rc == 0) {
        rc = gb_dynscen_write(out, &ds, &d);
        if (rc == 0)
            fprintf(stderr, CMD ": wrote %s (%zu queries, %zu events, %zu cells; seed %llu)\n",
                    out, ds.n, ds.nev, ds.ncell, (unsigned long long)o.seed);
    }
    if (rc) report(&d);
    gb_dynscen_free(&ds);
    gb_scen_free(&s);
    gb_map_free(&m);
    return rc;
}
