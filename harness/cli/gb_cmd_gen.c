/*
 * gb_cmd_gen.c -- `gridbench gen`: command-line parsing into a
 * gb_gen_opts, then gb_gen_map + gb_gen_scen, then both files written
 * through gb_map_write / gb_scen_write (temporary file + rename).
 *
 * Both the map and the scenario are generated before anything is
 * written, so a failure never leaves a map without its scenario.  File
 * names follow gb_gen_name(): DIR/<name>.map and DIR/<name>.map.scen,
 * and the scenario's map column is the bare "<name>.map".
 *
 * Numbers are parsed by hand (digits only, range-checked, locale-free):
 * the file names and contents must not depend on the environment.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gb_alloc.h"
#include "gb_cmd.h"
#include "gb_gen.h"
#include "gb_tfile.h"

#define CMD "gridbench gen"

enum { OPT_DYNAMIC = 256, OPT_TERRAIN };

static const gb_opt gen_opts[] = {
    { 'f', 'f', "family", "NAME", "random (cells blocked at random), maze (corridors between 1-thick "
      "walls), rooms (rooms with doors), terrain (patches of G S W T over ground, and random "
      "obstacles; docs/terrain.md)" },
    { 's', 's', "size", "WxH", "map size, or N for NxN (default 512x512)" },
    { 'p', 'p', "percent", "P", "random, terrain: percentage of blocked cells, 0 <= P < 100, at "
      "most 6 decimals (default 20)" },
    { 'c', 'c', "corridor", "C", "maze: corridor width, walls every C+1 cells (default 4)" },
    { 'r', 'r', "room", "R", "rooms: walls every R cells, rooms (R-1)x(R-1) inside (default 16)" },
    { 'S', 'S', "seed", "S", "unsigned 64-bit seed (default 0)" },
    { 'n', 'n', "per-bucket", "N", "queries per bucket of 4 length units (default 10)" },
    { 'Q', 'Q', "max-queries", "N", "keep at most N queries: whole buckets, evenly spaced over the "
      "lengths (default 0 = no limit)" },
    { 'm', 'm', "model", "M", "movement model of the lengths: 8-nocut (default), 8-cut1, 8-cutall, 4" },
    { OPT_TERRAIN, 0, "terrain-costs", "COSTS", "terrain cost model of the lengths, inline or a "
      "costs file (docs/terrain.md); default " GB_GEN_TERRAIN_COSTS " for --family terrain, "
      "uniform otherwise.  The scenario records it in SCEN.terrain, a costs file beside it" },
    { 'M', 'M', "map", "FILE", "no map generated: the scenario is drawn on FILE and written as "
      "DIR/<stem>-<seed>.scen (many-to-one: DIR/<stem>-m2o-<G>x<K>-<seed>.scen), its map column the "
      "absolute path of FILE" },
    { 'G', 'G', "goals", "G", "many-to-one (flow fields): G goals drawn uniformly from the largest "
      "component (default 10 with -K)" },
    { 'K', 'K', "per-goal", "K", "many-to-one: K distinct starts per goal, queries grouped by goal "
      "(replaces the buckets: -n, -Q unused)" },
    { 'o', 'o', "out", "DIR", "output directory (created if missing)" },
    { OPT_DYNAMIC, 0, "dynamic", NULL, "make dynamic scenarios (D* Lite) for any map instead; the "
      "command line then takes the options of `gridbench gen --dynamic --help`" },
    { 'h', 'h', "help", NULL, "this text" },
    { 0, 0, NULL, NULL, NULL }
};

const gb_cmd_doc gb_doc_gen = {
    "gen", "--family random|maze|rooms|terrain [OPTIONS] --out DIR\n--map FILE [OPTIONS] --out DIR\n"
    "--dynamic --map FILE [OPTIONS] --out FILE",
    "generate Moving AI-format maps and scenarios (random, maze, rooms)",
    "Generate a map of one of the synthetic Moving AI families and a scenario for it: "
    "DIR/<name>.map and DIR/<name>.map.scen, written through a temporary file and renamed.  Same "
    "options, same bytes, on every run and machine.",
    gen_opts,
    "Names: random<S>-<P>-<seed>, maze<S>-<C>-<seed>, room<S>-<R>-<seed>, where S is the width for "
    "a square map and WxH otherwise (random512-20-0, maze256-4-7, room128x64-16-3).  Queries use "
    "only the largest connected component; lengths are Dijkstra's, printed %.8f; bucket = "
    "floor(length/4); only buckets that could be filled with N queries are written.",
    "gridbench gen --family maze --size 128x128 --corridor 2 --seed 1 \\\n"
    "    --per-bucket 5 --max-queries 150 --out datasets/default",
    "0 written; 64 bad usage; 65 no bucket could be filled; 71 out of memory; 73/74 cannot write "
    "(sysexits.h)."
};

/* Unsigned decimal, digits only, at most max.  0 or EX_USAGE. */
static int parse_u64(const char *opt, const char *s, uint64_t max, uint64_t *out)
{
    uint64_t v = 0;
    const char *p = s;
    if (!*p) goto bad;
    for (; *p; p++) {
        if (*p < '0' || *p > '9') goto bad;
        unsigned dgt = (unsigned)(*p - '0');
        if (v > (max - dgt) / 10) {
            fprintf(stderr, CMD ": %s: expected a number at most %llu, found '%s'\n",
                    opt, (unsigned long long)max, s);
            return EX_USAGE;
        }
        v = v * 10 + dgt;
    }
    *out = v;
    return 0;
bad:
    fprintf(stderr, CMD ": %s: expected a non-negative integer (digits only), found '%s'\n",
            opt, s);
    return EX_USAGE;
}

static int parse_int(const char *opt, const char *s, int max, int *out)
{
    uint64_t v;
    int rc = parse_u64(opt, s, (uint64_t)max, &v);
    if (rc == 0) *out = (int)v;
    return rc;
}

/* "W x H" or "N": 1..GB_GEN_MAX_SIDE each. */
static int parse_size(const char *s, int32_t *w, int32_t *h)
{
    uint64_t a = 0, b = 0;
    const char *p = s;
    int na = 0, nb = 0;
    for (; *p >= '0' && *p <= '9'; p++, na++)
        if ((a = a * 10 + (uint64_t)(*p - '0')) > GB_GEN_MAX_SIDE) goto bad;
    if (*p == 'x' || *p == 'X') {
        for (p++; *p >= '0' && *p <= '9'; p++, nb++)
            if ((b = b * 10 + (uint64_t)(*p - '0')) > GB_GEN_MAX_SIDE) goto bad;
        if (nb == 0) goto bad;
    } else {
        b = a;
        nb = na;
    }
    if (*p || na == 0 || a == 0 || b == 0) goto bad;
    *w = (int32_t)a;
    *h = (int32_t)b;
    return 0;
bad:
    fprintf(stderr, CMD ": --size: expected WIDTHxHEIGHT or N with values from 1 to %d, "
            "found '%s'\n", GB_GEN_MAX_SIDE, s);
    return EX_USAGE;
}

/* digits [ '.' digits ], at most 6 decimals, value < 100. */
static int parse_percent(const char *s, double *out)
{
    const char *p = s;
    long long ip = 0, fp = 0;
    int ni = 0, nf = 0;
    for (; *p >= '0' && *p <= '9'; p++, ni++)
        if ((ip = ip * 10 + (*p - '0')) >= 100) goto bad;
    if (*p == '.') {
        for (p++; *p >= '0' && *p <= '9'; p++, nf++) {
            if (nf == 6) goto bad;
            fp = fp * 10 + (*p - '0');
        }
        if (nf == 0) goto bad;
    }
    if (*p || ni == 0) goto bad;
    double scale = 1;
    for (int i = 0; i < nf; i++) scale *= 10;
    *out = (double)ip + (double)fp / scale;
    return 0;
bad:
    fprintf(stderr, CMD ": --percent: expected a number from 0 to less than 100 with at "
            "most 6 decimals (e.g. 20 or 12.5), found '%s'\n", s);
    return EX_USAGE;
}

/* mkdir -p.  0, or prints the error and returns EX_USAGE (path too long
 * or empty) or EX_CANTCREAT. */
static int make_dirs(const char *dir)
{
    char buf[4096];
    size_t n = strlen(dir);
    if (n == 0 || n >= sizeof buf) {
        fprintf(stderr, CMD ": --out: expected a directory path of 1 to %zu bytes, found %zu\n",
                sizeof buf - 1, n);
        return EX_USAGE;
    }
    memcpy(buf, dir, n + 1);
    for (size_t i = 1; i <= n; i++) {
        if (buf[i] != '/' && buf[i] != '\0') continue;
        char c = buf[i];
        buf[i] = '\0';
        struct stat st;
        if (stat(buf, &st) != 0) {
            if (mkdir(buf, 0777) != 0 && errno != EEXIST) {
                fprintf(stderr, CMD ": %s: expected a directory that can be created, "
                        "found '%s'\n", buf, strerror(errno));
                return EX_CANTCREAT;
            }
        } else if (!S_ISDIR(st.st_mode)) {
            fprintf(stderr, CMD ": %s: expected a directory, found a file\n", buf);
            return EX_CANTCREAT;
        }
        buf[i] = c;
    }
    return 0;
}

/* "gridbench CMD: path[:line[:col]]: msg" (or without the location). */
static int report(const gb_diag *d)
{
    if (!d->path[0])
        fprintf(stderr, CMD ": %s\n", d->msg);
    else if (d->line > 0 && d->col > 0)
        fprintf(stderr, CMD ": %s:%ld:%ld: %s\n", d->path, d->line, d->col, d->msg);
    else if (d->line > 0)
        fprintf(stderr, CMD ": %s:%ld: %s\n", d->path, d->line, d->msg);
    else
        fprintf(stderr, CMD ": %s: %s\n", d->path, d->msg);
    return d->code;
}

/* Record the terrain model t of the scenario scen_path in the costs file
 * scen_path.terrain (gb_tfile.h), which Moving AI readers never open; a
 * uniform scenario gets none.  0, or the code after reporting. */
static int write_terrain(const char *scen_path, const gb_terrain *t)
{
    if (!t->on) return 0;
    char path[4200], tmp[4300];
    snprintf(path, sizeof path, "%s.terrain", scen_path);
    gb_diag d;
    gb_diag_clear(&d);
    FILE *f = gb_tmp_open(path, tmp, sizeof tmp, &d);
    if (!f) return report(&d);
    const char *base = strrchr(scen_path, '/');
    fprintf(f, "# terrain cost model of %s (gridbench, docs/terrain.md)\n# %s\n",
            base ? base + 1 : scen_path, t->name);
    const char *p = strchr(t->name, ':') + 1;
    while (*p) {   /* "L=V;L=V..." -> one "L V" a line */
        size_t n = strcspn(p, ";");
        fprintf(f, "%c %.*s\n", p[0], (int)n - 2, p + 2);
        p += n + (p[n] == ';');
    }
    int rc = gb_tmp_commit(f, tmp, path, &d);
    return rc ? report(&d) : 0;
}

/* --map FILE: the scenario (buckets or many-to-one) of a given map, into
 * DIR/<stem>[-m2o-<G>x<K>]-<seed>.scen, map column realpath(FILE). */
static int gen_on_map(const gb_gen_opts *o, const gb_terrain *t, const char *map_file,
                      const char *out)
{
    gb_diag d;
    gb_diag_clear(&d);
    gb_map m;
    int rc = gb_map_load(map_file, &m, &d);
    if (rc) return report(&d);
    if (gb_terrain_apply(t, m.terrain, &m.grid) != 0) {
        gb_map_free(&m);
        fprintf(stderr, CMD ": expected memory for the terrain costs, found none\n");
        return EX_OSERR;
    }
    char *abs = realpath(map_file, NULL);
    const char *field = abs ? abs : map_file;
    if (strpbrk(field, " \t\r\n")) {
        fprintf(stderr, CMD ": --map: expected a path without blanks, found %s\n", field);
        free(abs);
        gb_map_free(&m);
        return EX_USAGE;
    }
    const char *base = strrchr(map_file, '/');
    base = base ? base + 1 : map_file;
    size_t stem = strlen(base);
    if (stem > 4 && strcmp(base + stem - 4, ".map") == 0) stem -= 4;
    char scen_path[4096];
    size_t ol = strlen(out);
    const char *sep = ol > 0 && out[ol - 1] == '/' ? "" : "/";
    int k = o->per_goal
        ? snprintf(scen_path, sizeof scen_path, "%s%s%.*s-m2o-%dx%d-%llu.scen", out, sep,
                   (int)stem, base, o->goals, o->per_goal, (unsigned long long)o->seed)
        : snprintf(scen_path, sizeof scen_path, "%s%s%.*s-%llu.scen", out, sep, (int)stem, base,
                   (unsigned long long)o->seed);
    gb_scen s;
    memset(&s, 0, sizeof s);
    if (k < 0 || (size_t)k >= sizeof scen_path) {
        fprintf(stderr, CMD ": --out: expected a path shorter than %zu bytes, found %zu\n",
                sizeof scen_path - stem - 40, ol);
        rc = EX_USAGE;
    } else {
        rc = o->per_goal ? gb_gen_scen_m2o(o, &m, field, &s, &d)
                         : gb_gen_scen(o, &m, field, &s, &d);
        if (rc) report(&d);
    }
    if (rc == 0) rc = make_dirs(out);
    if (rc == 0 && (rc = gb_scen_write(scen_path, &s, &d)) != 0) report(&d);
    if (rc == 0) rc = write_terrain(scen_path, t);
    if (rc == 0)
        fprintf(stderr, CMD ": wrote %s (%zu queries on %s, %s, model %s%s%s)\n", scen_path, s.n,
                field, o->per_goal ? "many-to-one" : "buckets", gb_model_name(o->model),
                t->on ? "+" : "", t->name);
    gb_scen_free(&s);
    free(abs);
    gb_map_free(&m);
    return rc;
}

/* ---- the command, in stages -----------------------------------------
 *
 * gen_parse (argv -> gen_cli through the option table) -> gen_check (the
 * rules between options: which family takes which option, --goals with
 * --per-goal, the terrain model) -> with --map, gen_on_map; else
 * gen_paths (the files' names) -> gen_write (the map and scenario made,
 * written, and said). */

typedef struct gen_cli {
    gb_gen_opts o;
    const char *out, *map_file;
    int have_family, have_goals, have_terrain, help, dynamic;
    int given[3]; /* family-specific options given: [0] percent, [1] corridor, [2] room */
    gb_terrain terrain;
} gen_cli;

static int gen_option(gen_cli *g, int c, const char *arg)
{
    gb_gen_opts *o = &g->o;
    switch (c) {
    case 'f': {
        int f = gb_gen_family_from_name(arg);
        if (f < 0) {
            fprintf(stderr, CMD ": --family: expected random, maze, rooms or terrain, found '%s'\n",
                    arg);
            return EX_USAGE;
        }
        o->family = f;
        g->have_family = 1;
        return 0;
    }
    case 's': return parse_size(arg, &o->width, &o->height);
    case 'p': g->given[0] = 1; return parse_percent(arg, &o->percent);
    case 'c': g->given[1] = 1; return parse_int("--corridor", arg, GB_GEN_MAX_CORRIDOR, &o->corridor);
    case 'r': g->given[2] = 1; return parse_int("--room", arg, GB_GEN_MAX_ROOM, &o->room);
    case 'S': return parse_u64("--seed", arg, UINT64_MAX, &o->seed);
    case 'n': return parse_int("--per-bucket", arg, 1000000, &o->per_bucket);
    case 'Q': return parse_int("--max-queries", arg, 100000000, &o->max_queries);
    case 'm': {
        int rc = gb_cli_model(CMD, arg, &o->model);
        return rc ? rc : gb_cli_no_water(CMD, o->model);
    }
    case OPT_TERRAIN: {
        gb_diag td;
        gb_diag_clear(&td);
        g->have_terrain = 1;
        int rc = gb_tfile_arg(arg, &g->terrain, &td);
        if (rc) {
            fprintf(stderr, CMD ": ");
            gb_diag_print(&td, stderr);
        }
        return rc;
    }
    case 'o': g->out = arg; return 0;
    case 'M': g->map_file = arg; return 0;
    case 'G': g->have_goals = 1; return parse_int("--goals", arg, GB_GEN_MAX_GOALS, &o->goals);
    case 'K': return parse_int("--per-goal", arg, GB_GEN_MAX_PER_GOAL, &o->per_goal);
    case OPT_DYNAMIC: g->dynamic = 1; return 0; /* abbreviated ("--dyn"): the scan missed it */
    case 'h': g->help = 1; return 0;
    default: return EX_USAGE; /* gb_opt_next said why */
    }
}

static int gen_parse(int argc, char **argv, gen_cli *g)
{
    gb_gen_defaults(&g->o);
    const char *arg;
    int c, rc = 0;
    gb_opt_parser op;
    if (gb_opt_begin(&op, &gb_doc_gen) != 0) return EX_OSERR;
    while (!rc && !g->help && !g->dynamic && (c = gb_opt_next(&op, argc, argv, &arg)) != -1)
        rc = gen_option(g, c, arg);
    gb_opt_end(&op);
    return rc;
}

static int terrain_model_ok(const gen_cli *g)
{
    if (!g->terrain.on || g->o.model == GB_MODEL_8_NOCUT || g->o.model == GB_MODEL_4) return 1;
    fprintf(stderr, CMD ": --terrain-costs: expected model 8-nocut or 4, found %s\n",
            gb_model_name(g->o.model));
    return 0;
}

/* Every rule between options: 0, or EX_USAGE after saying which. */
static int gen_check(gen_cli *g, int argc, char **argv)
{
    gb_gen_opts *o = &g->o;
    if (optind < argc) {
        fprintf(stderr, CMD ": expected no operands, found '%s'\n", argv[optind]);
        return EX_USAGE;
    }
    if (g->have_goals && !o->per_goal) {
        fprintf(stderr, CMD ": --goals: expected with --per-goal K, found no --per-goal\n");
        return EX_USAGE;
    }
    if (o->per_goal && !g->have_goals) o->goals = 10;
    if (o->per_goal && (o->goals < 1 || o->per_goal < 1)) {
        fprintf(stderr, CMD ": expected --goals and --per-goal of at least 1, found %d and %d\n",
                o->goals, o->per_goal);
        return EX_USAGE;
    }
    if (g->map_file) {
        if (!g->out) {
            fprintf(stderr, CMD ": expected --out DIR, found none (see `gridbench gen --help`)\n");
            return EX_USAGE;
        }
        if (g->have_family || g->given[0] || g->given[1] || g->given[2]) {
            fprintf(stderr, CMD ": --map: expected no --family, --percent, --corridor or "
                    "--room (the map is given), found one\n");
            return EX_USAGE;
        }
        return terrain_model_ok(g) ? 0 : EX_USAGE;
    }
    if (!g->have_family) {
        fprintf(stderr, CMD ": expected --family random|maze|rooms|terrain, found none "
                "(see `gridbench gen --help`)\n");
        return EX_USAGE;
    }
    if (!g->out) {
        fprintf(stderr, CMD ": expected --out DIR, found none (see `gridbench gen --help`)\n");
        return EX_USAGE;
    }
    static const char *const opt_name[3] = { "--percent", "--corridor", "--room" };
    static const int opt_family[3] = { GB_GEN_RANDOM, GB_GEN_MAZE, GB_GEN_ROOMS };
    for (int i = 0; i < 3; i++) {
        if (g->given[i] && o->family != opt_family[i] && !(i == 0 && o->family == GB_GEN_TERRAIN)) {
            fprintf(stderr, CMD ": %s: expected with --family %s, found --family %s\n", opt_name[i],
                    gb_gen_family_name(opt_family[i]), gb_gen_family_name(o->family));
            return EX_USAGE;
        }
    }
    if (o->family == GB_GEN_TERRAIN && !g->have_terrain) {
        char err[256];
        gb_terrain_parse(GB_GEN_TERRAIN_COSTS, &g->terrain, err, sizeof err);
    }
    if (!terrain_model_ok(g)) return EX_USAGE;
    gb_diag d;
    gb_diag_clear(&d);
    if (gb_gen_check(o, &d) != 0) {
        fprintf(stderr, CMD ": %s\n", d.msg);
        return EX_USAGE;
    }
    return 0;
}

/* The files' names: NAME.map (its map column map_field) and NAME.map.scen in --out. */
static int gen_paths(const gen_cli *g, char *name, size_t nn, char *map_field, size_t mf, char *map_path,
                     char *scen_path, size_t pn)
{
    if (gb_gen_name(&g->o, name, nn) != 0) {
        fprintf(stderr, CMD ": expected a file name shorter than %zu bytes, found a longer one\n", nn);
        return EX_SOFTWARE;
    }
    snprintf(map_field, mf, "%s.map", name);
    size_t ol = strlen(g->out);
    const char *sep = ol > 0 && g->out[ol - 1] == '/' ? "" : "/";
    int k1 = snprintf(map_path, pn, "%s%s%s", g->out, sep, map_field);
    int k2 = snprintf(scen_path, pn, "%s%s%s.scen", g->out, sep, map_field);
    if (k1 < 0 || k2 < 0 || (size_t)k2 >= pn || (size_t)k1 >= pn) {
        fprintf(stderr, CMD ": --out: expected a path shorter than %zu bytes, found %zu\n",
                pn - strlen(map_field) - 8, ol);
        return EX_USAGE;
    }
    return 0;
}

/* What was written, on stderr. */
static void gen_said(const gen_cli *g, const char *name, const char *map_path, const char *scen_path,
                     const gb_map *m, const gb_scen *s)
{
    const gb_gen_opts *o = &g->o;
    char param[64];
    if (o->family == GB_GEN_RANDOM || o->family == GB_GEN_TERRAIN) {
        /* The percentage as the name prints it: between the first and
         * the last '-' of "random<S>-<P>-<seed>". */
        const char *p1 = strchr(name, '-') + 1, *p2 = strrchr(name, '-');
        snprintf(param, sizeof param, "%.*s%% blocked", (int)(p2 - p1), p1);
    } else if (o->family == GB_GEN_MAZE) {
        snprintf(param, sizeof param, "corridor %d", o->corridor);
    } else {
        snprintf(param, sizeof param, "room %d", o->room);
    }
    fprintf(stderr, CMD ": wrote %s (%s %ldx%ld, %s, seed %llu, %ld passable cells)\n", map_path,
            gb_gen_family_name(o->family), (long)o->width, (long)o->height, param,
            (unsigned long long)o->seed, (long)m->grid.npassable);
    if (o->per_goal)
        fprintf(stderr, CMD ": wrote %s (%zu queries, %d goals x %d starts, model %s)\n", scen_path,
                s->n, o->goals, o->per_goal, gb_model_name(o->model));
    else
        fprintf(stderr,
                CMD
                ": wrote %s (%zu queries, %zu buckets from %ld to %ld, %d per bucket, model %s%s%s)\n",
                scen_path, s->n, s->n / (size_t)o->per_bucket, (long)s->q[0].bucket,
                (long)s->q[s->n - 1].bucket, o->per_bucket, gb_model_name(o->model),
                g->terrain.on ? "+" : "", g->terrain.name);
}

/* Make the map and its scenario, write them (and the terrain file). */
static int gen_write(const gen_cli *g)
{
    char name[256], map_field[272], map_path[4096], scen_path[4096];
    int rc = gen_paths(g, name, sizeof name, map_field, sizeof map_field, map_path, scen_path,
                       sizeof map_path);
    if (rc) return rc;
    gb_diag d;
    gb_diag_clear(&d);
    gb_map m;
    if ((rc = gb_gen_map(&g->o, &m, &d)) != 0) return report(&d);
    m.path = gb_strdup(map_path); /* names the map in gb_gen_scen's errors */
    if (gb_terrain_apply(&g->terrain, m.terrain, &m.grid) != 0) {
        gb_map_free(&m);
        fprintf(stderr, CMD ": expected memory for the terrain costs, found none\n");
        return EX_OSERR;
    }
    gb_scen s;
    rc = g->o.per_goal ? gb_gen_scen_m2o(&g->o, &m, map_field, &s, &d)
                       : gb_gen_scen(&g->o, &m, map_field, &s, &d);
    if (rc) {
        gb_map_free(&m);
        return report(&d);
    }
    rc = make_dirs(g->out);
    if (rc == 0) {
        rc = gb_map_write(map_path, &m, &d);
        if (rc == 0) rc = gb_scen_write(scen_path, &s, &d);
        if (rc) report(&d);
        else rc = write_terrain(scen_path, &g->terrain);
    }
    if (rc == 0) gen_said(g, name, map_path, scen_path, &m, &s);
    gb_scen_free(&s);
    gb_map_free(&m);
    return rc;
}

int gb_cmd_gen(int argc, char **argv)
{
    /* dynamic scenarios from an existing map: their own options, so the
     * hand-over comes before gen's parser would refuse them */
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--dynamic") == 0) return gb_cmd_gen_dynamic(argc, argv);
    static gen_cli g;
    memset(&g, 0, sizeof g);
    int rc = gen_parse(argc, argv, &g);
    if (rc) return rc;
    if (g.dynamic) return gb_cmd_gen_dynamic(argc, argv);
    if (g.help) {
        gb_opt_help(&gb_doc_gen, stdout);
        return 0;
    }
    if ((rc = gen_check(&g, argc, argv)) != 0) return rc;
    return g.map_file ? gen_on_map(&g.o, &g.terrain, g.map_file, g.out) : gen_write(&g);
}
