/*
 * gb_cmd_footprint.c -- `gridbench footprint`: run several solvers on one
 * query and write, per solver, an image of the map with the cells the
 * search expanded (closed), generated but never expanded (open), and the
 * path; plus a table of the counts and a gnuplot parameter file from which
 * plots/footprint.gp draws the images side by side.
 *
 * Image format: binary PPM (P6), one pixel per map cell, row 0 = map row 0
 * (the top).  Why PPM and not PNG: it is the simplest exact raster format
 * (a text header and raw RGB bytes, no compression, no checksum, no
 * library), any image viewer opens it, and gnuplot reads it directly as a
 * binary array by skipping the header (`binary array=(W,H) skip=N
 * format="%uchar" with rgbimage`), which is where titles, a legend, axes
 * and the side-by-side layout come from -- and gnuplot writes the PNG and
 * SVG.  A PNG encoder of our own would duplicate that for no gain.
 *
 * Colours (also in the legend of plots/footprint.gp):
 *   blocked #3a3a3a, untouched #ffffff, open #ffd27f, closed #8fb8de,
 *   path #d62728, start #2ca02c, goal #7b2fbe.
 * Jump point search marks only the jump points it generated and expanded;
 * the cells it stepped over while jumping are counted (scanned) but not
 * drawn.  The search state comes from gb_ws_visit_state() after each
 * solve, so the image shows exactly what the timed runs of `gridbench run`
 * do on that query.
 *
 * Outputs for --out PREFIX:
 *   PREFIX-SOLVER.ppm  one per solver (SOLVER with characters other than
 *                      [A-Za-z0-9._-] replaced by '_')
 *   PREFIX.tsv         '#' comment with the query, then one row per solver:
 *                      solver file status cost path_len expanded generated
 *                      scanned open closed
 *   PREFIX.gp          gnuplot variables fp_* (see plots/footprint.gp)
 * each written to a temporary file and renamed.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gb_alloc.h"
#include "gb_cmd.h"
#include "gb_map.h"
#include "gb_scen.h"
#include "gb_search.h"

#define CMD "gridbench footprint"
#define MAX_SOLVERS 16

enum { OPT_MAP = 256 };

static const gb_opt footprint_opts[] = {
    { 'S', 'S', "scen", "FILE", "scenario file (its map is found as by `gridbench run`)" },
    { 'l', 'l', "line", "N", "the query on line N of FILE (the CSV's `line`)" },
    { 'L', 'L', "longest", NULL, "the query with the largest printed length (first of equals)" },
    { 's', 's', "solver", "NAME", "solver (repeatable, or comma-separated; at most "
      GB_STR(MAX_SOLVERS) ")" },
    { 'q', 'q', "queue", "NAME", "priority queue (default bheap)" },
    { 'm', 'm', "model", "NAME", "movement model (default 8-nocut)" },
    { OPT_MAP, 0, "map", "FILE", "use FILE as the map" },
    { 'o', 'o', "out", "PREFIX", "output prefix, e.g. results/x/footprints/maze" },
    { 'h', 'h', "help", NULL, "this text" },
    { 0, 0, NULL, NULL, NULL }
};

const gb_cmd_doc gb_doc_footprint = {
    "footprint", "--scen FILE (--line N | --longest) --solver S [--solver S...] [OPTIONS] --out PREFIX",
    "images of the cells each solver expanded on one query (PPM + gnuplot parameters)",
    "Run each solver on one query of a scenario and draw its search footprint: an image of the "
    "map (one pixel per cell) with the cells it expanded, the cells it generated but never "
    "expanded, and its path.  Writes PREFIX-S.ppm per solver, PREFIX.tsv (counts) and PREFIX.gp "
    "(parameters for plots/footprint.gp, which renders the images side by side as PNG or SVG).",
    footprint_opts,
    "Colours: blocked dark grey, untouched white, open (generated, not expanded) orange, closed "
    "(expanded) blue, path red, start green, goal purple.  JPS shows only its jump points; the "
    "cells it scanned are counted, not drawn.",
    "gridbench footprint --scen datasets/default/maze128-2-1.map.scen --longest "
    "--solver dijkstra,astar-octile,jps,bidijkstra --out /tmp/fp/maze",
    "0 written; 64 bad usage; 65 bad input (no such line, bad query); 66 unreadable file; 71 out "
    "of memory; 73/74 cannot write."
};

static int report(const gb_diag *d)
{
    fprintf(stderr, CMD ": ");
    gb_diag_print(d, stderr);
    return d->code;
}

static const uint8_t col_blocked[3] = { 0x3a, 0x3a, 0x3a };
static const uint8_t col_free[3] = { 0xff, 0xff, 0xff };
static const uint8_t col_open[3] = { 0xff, 0xd2, 0x7f };
static const uint8_t col_closed[3] = { 0x8f, 0xb8, 0xde };
static const uint8_t col_path[3] = { 0xd6, 0x27, 0x28 };
static const uint8_t col_start[3] = { 0x2c, 0xa0, 0x2c };
static const uint8_t col_goal[3] = { 0x7b, 0x2f, 0xbe };

/* floor(a / b) for b > 0. */
static int64_t floor_div(int64_t a, int64_t b)
{
    return a >= 0 ? a / b : -((-a + b - 1) / b);
}

static void put_px(uint8_t *rgb, const gb_grid *g, int32_t id, const uint8_t c[3])
{
    size_t i = ((size_t)gb_grid_y(g, id) * (size_t)g->width + (size_t)gb_grid_x(g, id)) * 3;
    memcpy(rgb + i, c, 3);
}

/* Paint the path colour along the segment between the centres of cells a
 * and b: one cell per step of the longer axis, rounded to the nearest
 * cell (a digital line).  Consecutive cells of a grid path are
 * neighbours, so only their own two cells are painted; an any-angle
 * path (theta, SOLVER+smooth) is a list of waypoints, and its segments
 * are drawn in full, not as dots. */
static void paint_segment(uint8_t *rgb, const gb_grid *g, int32_t a, int32_t b)
{
    const int32_t x0 = gb_grid_x(g, a), y0 = gb_grid_y(g, a);
    const int32_t dx = gb_grid_x(g, b) - x0, dy = gb_grid_y(g, b) - y0;
    const int32_t n = abs(dx) > abs(dy) ? abs(dx) : abs(dy);
    for (int32_t k = 1; k < n; k++) {
        /* round(x0 + k dx / n) with integers: floor((2 k dx + n) / 2n) */
        const int64_t nx = (int64_t)x0 + floor_div((int64_t)2 * k * dx + n, (int64_t)2 * n);
        const int64_t ny = (int64_t)y0 + floor_div((int64_t)2 * k * dy + n, (int64_t)2 * n);
        put_px(rgb, g, gb_grid_id(g, (int32_t)nx, (int32_t)ny), col_path);
    }
}

/* Paint the footprint of the last search on ws into rgb (W*H*3 bytes);
 * count open and closed cells. */
static void paint(const gb_ws *ws, const gb_grid *g, const gb_result *r, int32_t s, int32_t t,
                  uint8_t *rgb, long *nopen, long *nclosed)
{
    *nopen = *nclosed = 0;
    for (int32_t y = 0; y < g->height; y++)
        for (int32_t x = 0; x < g->width; x++) {
            int32_t id = gb_grid_id(g, x, y);
            const uint8_t *c = col_blocked;
            if (g->pass[id]) {
                int v = gb_ws_visit_state(ws, id);
                c = v == 2 ? col_closed : v == 1 ? col_open : col_free;
                *nopen += v == 1;
                *nclosed += v == 2;
            }
            put_px(rgb, g, id, c);
        }
    if (r->status == GB_FOUND)
        for (int32_t i = 0; i < r->path_len; i++) {
            put_px(rgb, g, r->path[i], col_path);
            if (i > 0) paint_segment(rgb, g, r->path[i - 1], r->path[i]);
        }
    put_px(rgb, g, s, col_start);
    put_px(rgb, g, t, col_goal);
}

/* strncpy that always terminates (dst of size n > 0). */
static void copy_str(char *dst, size_t n, const char *src)
{
    size_t k = strlen(src);
    if (k >= n) k = n - 1;
    memcpy(dst, src, k);
    dst[k] = '\0';
}

static void slug(const char *s, char *out, size_t n)
{
    size_t k = 0;
    for (; *s && k + 1 < n; s++) {
        char c = *s;
        int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                 || c == '.' || c == '_' || c == '-';
        out[k++] = ok ? c : '_';
    }
    out[k] = '\0';
}

/* A gnuplot single-quoted string: ' doubled, newlines as blanks. */
static void gp_str(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++) {
        if (*s == '\'') fputc('\'', f);
        fputc(*s == '\n' || *s == '\r' ? ' ' : *s, f);
    }
    fputc('\'', f);
}

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

static int parse_line(const char *s, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < 1) return -1;
    *out = v;
    return 0;
}

typedef struct fp_row {
    char name[64];       /* canonical solver name */
    char file[4200];     /* PPM path */
    gb_result_status status;
    double cost;
    int32_t path_len;
    gb_stats st;
    long nopen, nclosed;
    int header_bytes;    /* PPM header length (gnuplot's skip=) */
} fp_row;

int gb_cmd_footprint(int argc, char **argv)
{
    const char *scen = NULL, *out = NULL, *map_override = NULL, *arg;
    long line = 0;
    int longest = 0, nsl = 0;
    char *slists[MAX_SOLVERS];
    gb_queue_kind queue = GB_Q_BHEAP;
    gb_model model = GB_MODEL_8_NOCUT;
    int c, rc = 0;
    gb_opt_parser op;
    if (gb_opt_begin(&op, &gb_doc_footprint) != 0) return EX_OSERR;
    while (!rc && (c = gb_opt_next(&op, argc, argv, &arg)) != -1) {
        switch (c) {
        case 'S': scen = arg; break;
        case 'l':
            if (parse_line(arg, &line) != 0) {
                fprintf(stderr, CMD ": --line: expected a positive line number, found '%s'\n", arg);
                rc = EX_USAGE;
            }
            break;
        case 'L': longest = 1; break;
        case 's':
            if (nsl >= MAX_SOLVERS) {
                fprintf(stderr, CMD ": expected at most %d --solver options, found more\n", MAX_SOLVERS);
                rc = EX_USAGE;
                break;
            }
            slists[nsl++] = (char *)arg;   /* an argv string: strtok may cut it */
            break;
        case 'q': {
            int q = gb_queue_from_name(arg);
            if (q < 0) {
                char names[256];
                gb_queue_names(names, sizeof names);
                const char *qn[GB_Q_COUNT];
                for (int i = 0; i < GB_Q_COUNT; i++) qn[i] = gb_queue_name((gb_queue_kind)i);
                const char *cq = gb_closest(arg, qn, GB_Q_COUNT);
                fprintf(stderr, CMD ": --queue: expected one of %s, found '%s'%s%s%s\n", names, arg,
                        cq ? "; did you mean '" : "", cq ? cq : "", cq ? "'?" : "");
                rc = EX_USAGE;
                break;
            }
            queue = (gb_queue_kind)q;
            break;
        }
        case 'm':
            rc = gb_cli_model(CMD, arg, &model);
            if (!rc) rc = gb_cli_no_water(CMD, model);
            break;
        case OPT_MAP: map_override = arg; break;
        case 'o': out = arg; break;
        case 'h': gb_opt_end(&op); gb_opt_help(&gb_doc_footprint, stdout); return 0;
        default: rc = EX_USAGE; break;   /* gb_opt_next said why */
        }
    }
    gb_opt_end(&op);
    if (rc) return rc;
    if (optind < argc) {
        fprintf(stderr, CMD ": expected only options, found '%s'\n", argv[optind]);
        return EX_USAGE;
    }
    if (!scen || !out || !out[0]) {
        fprintf(stderr, CMD ": expected --scen FILE and --out PREFIX, found %s missing\n",
                !scen ? "--scen" : "--out");
        return EX_USAGE;
    }
    if ((line > 0) == longest) {
        fprintf(stderr, CMD ": expected exactly one of --line N and --longest, found %s\n",
                longest ? "both" : "neither");
        return EX_USAGE;
    }

    /* solvers */
    static fp_row rows[MAX_SOLVERS];
    gb_solver_spec specs[MAX_SOLVERS];
    int ns = 0;
    char err[512];
    for (int i = 0; i < nsl; i++) {
        for (char *tok = strtok(slists[i], ","); tok; tok = strtok(NULL, ",")) {
            if (ns >= MAX_SOLVERS) {
                fprintf(stderr, CMD ": expected at most %d solvers, found more\n", MAX_SOLVERS);
                return EX_USAGE;
            }
            if (gb_solver_parse(tok, &specs[ns], err, sizeof err) != 0
                || gb_solver_unsupported(&specs[ns], model, err, sizeof err)) {
                fprintf(stderr, CMD ": %s\n", err);
                return EX_USAGE;
            }
            ns++;
        }
    }
    if (ns == 0) {
        fprintf(stderr, CMD ": expected at least one --solver, found none\n");
        return EX_USAGE;
    }

    /* the query */
    gb_diag d;
    gb_diag_clear(&d);
    gb_scen sc;
    gb_map map;
    memset(&map, 0, sizeof map);
    rc = gb_scen_load(scen, &sc, &d);
    if (rc) return report(&d);
    size_t qi = 0;
    if (longest) {
        for (size_t i = 1; i < sc.n; i++)
            if (sc.q[i].length > sc.q[qi].length) qi = i;
    } else {
        for (qi = 0; qi < sc.n && sc.q[qi].line != line; qi++) {}
        if (qi == sc.n) {
            gb_diag_set(&d, EX_DATAERR, scen, 0, 0, "expected a query on line %ld, found none "
                        "(queries are on lines %ld..%ld)", line, sc.q[0].line, sc.q[sc.n - 1].line);
            gb_scen_free(&sc);
            return report(&d);
        }
    }
    char mpath[1024];
    if (map_override) snprintf(mpath, sizeof mpath, "%s", map_override);
    else if ((rc = gb_scen_resolve_map(&sc, mpath, sizeof mpath, &d)) != 0) { gb_scen_free(&sc); return report(&d); }
    if ((rc = gb_map_load(mpath, &map, &d)) != 0 || (rc = gb_scen_check_query(&sc, qi, &map, &d)) != 0) {
        gb_scen_free(&sc);
        gb_map_free(&map);
        return report(&d);
    }
    const gb_query q = sc.q[qi];
    gb_scen_free(&sc);
    const gb_grid *g = &map.grid;
    gb_ws *ws = gb_ws_new(g, model);
    uint8_t *rgb = gb_malloc((size_t)g->width * (size_t)g->height * 3);
    if (!ws || !rgb) {
        gb_ws_free(ws);
        gb_free(rgb);
        gb_map_free(&map);
        fprintf(stderr, CMD ": expected memory for a %dx%d map, found none\n", g->width, g->height);
        return EX_OSERR;
    }
    int32_t s = gb_grid_id(g, q.sx, q.sy), t = gb_grid_id(g, q.gx, q.gy);
    /* All outputs appear together or not at all: each file is written to
     * its temporary file and closed; only when every one is complete are
     * they renamed into place (ns images, then the .tsv and the .gp). */
    static char tmps[MAX_SOLVERS + 2][4300];
    static char dest[MAX_SOLVERS + 2][4200];
    int ntmp = 0;
    char path[4200];

    for (int i = 0; i < ns && !rc; i++) {
        fp_row *r = &rows[i];
        gb_result res;
        if (gb_solve(ws, &specs[i], queue, s, t, &res) != 0) {
            fprintf(stderr, CMD ": expected memory for solver %s, found none\n", specs[i].name);
            rc = EX_OSERR;
            break;
        }
        copy_str(r->name, sizeof r->name, specs[i].name);
        r->status = res.status;
        r->cost = res.status == GB_FOUND ? res.cost : 0.0;
        r->path_len = res.status == GB_FOUND ? res.path_len : 0;
        r->st = res.st;
        paint(ws, g, &res, s, t, rgb, &r->nopen, &r->nclosed);
        char sl[128];
        slug(specs[i].name, sl, sizeof sl);
        if ((size_t)snprintf(r->file, sizeof r->file, "%s-%s.ppm", out, sl) >= sizeof r->file) {
            fprintf(stderr, CMD ": --out: expected a shorter prefix, found %zu bytes\n", strlen(out));
            rc = EX_USAGE;
            break;
        }
        FILE *f = gb_tmp_open(r->file, tmps[ntmp], sizeof tmps[ntmp], &d);
        if (!f) { rc = report(&d); break; }
        r->header_bytes = fprintf(f, "P6\n%d %d\n255\n", g->width, g->height);
        fwrite(rgb, 3, (size_t)g->width * (size_t)g->height, f);
        if (gb_tmp_close(f, tmps[ntmp], &d) != 0) { rc = report(&d); break; }
        copy_str(dest[ntmp++], sizeof dest[0], r->file);
    }
    static const char *const status_name[] = { "found", "unreachable", "limit" };
    double opt = -1;
    for (int i = 0; i < ns; i++)
        if (rows[i].status == GB_FOUND && gb_solver_guarantee(&specs[i], model, &(double){ 0 }) == GB_GUAR_OPTIMAL)
            opt = rows[i].cost;

    if (!rc) {   /* the table */
        snprintf(path, sizeof path, "%s.tsv", out);
        char *tmp = tmps[ntmp];
        FILE *f = gb_tmp_open(path, tmp, sizeof tmps[0], &d);
        if (!f) rc = report(&d);
        else {
            fprintf(f, "# %s line %ld: (%d,%d) -> (%d,%d), map %s %dx%d, model %s, queue %s\n",
                    scen, q.line, q.sx, q.sy, q.gx, q.gy, base_name(mpath), g->width, g->height,
                    gb_model_name(model), gb_queue_name(queue));
            fputs("solver\tfile\tstatus\tcost\tpath_len\texpanded\tgenerated\tscanned\topen\tclosed\n", f);
            for (int i = 0; i < ns; i++) {
                const fp_row *r = &rows[i];
                fprintf(f, "%s\t%s\t%s\t%.8f\t%d\t%llu\t%llu\t%llu\t%ld\t%ld\n", r->name,
                        base_name(r->file), status_name[r->status], r->cost, r->path_len,
                        (unsigned long long)r->st.expanded, (unsigned long long)r->st.generated,
                        (unsigned long long)r->st.scanned, r->nopen, r->nclosed);
            }
            if (gb_tmp_close(f, tmp, &d) != 0) rc = report(&d);
            else copy_str(dest[ntmp++], sizeof dest[0], path);
        }
    }
    if (!rc) {   /* the gnuplot parameters */
        snprintf(path, sizeof path, "%s.gp", out);
        char *tmp = tmps[ntmp];
        FILE *f = gb_tmp_open(path, tmp, sizeof tmps[0], &d);
        if (!f) rc = report(&d);
        else {
            char title[2048];
            fprintf(f, "# gnuplot parameters for plots/footprint.gp, written by gridbench footprint\n");
            fprintf(f, "fp_n = %d\nfp_w = %d\nfp_h = %d\n", ns, g->width, g->height);
            fprintf(f, "fp_sx = %d\nfp_sy = %d\nfp_gx = %d\nfp_gy = %d\n", q.sx, q.sy, q.gx, q.gy);
            if (opt >= 0)
                snprintf(title, sizeof title, "%s, %s line %ld: (%d,%d) to (%d,%d), optimal cost %.2f",
                         base_name(mpath), base_name(scen), q.line, q.sx, q.sy, q.gx, q.gy, opt);
            else
                snprintf(title, sizeof title, "%s, %s line %ld: (%d,%d) to (%d,%d)",
                         base_name(mpath), base_name(scen), q.line, q.sx, q.sy, q.gx, q.gy);
            fputs("fp_title = ", f);
            gp_str(f, title);
            fputc('\n', f);
            for (int i = 0; i < ns; i++) {
                const fp_row *r = &rows[i];
                char l1[256], l2[256];
                copy_str(l1, sizeof l1, r->name);
                if (r->st.scanned)
                    snprintf(l2, sizeof l2, "%llu expanded, %llu generated, %llu scanned",
                             (unsigned long long)r->st.expanded, (unsigned long long)r->st.generated,
                             (unsigned long long)r->st.scanned);
                else
                    snprintf(l2, sizeof l2, "%llu expanded, %llu generated",
                             (unsigned long long)r->st.expanded, (unsigned long long)r->st.generated);
                fprintf(f, "fp_file%d = ", i + 1);
                gp_str(f, r->file);
                fprintf(f, "\nfp_skip%d = %d\nfp_name%d = ", i + 1, r->header_bytes, i + 1);
                gp_str(f, l1);
                fprintf(f, "\nfp_stats%d = ", i + 1);
                gp_str(f, l2);
                fprintf(f, "\nfp_cost%d = ", i + 1);
                if (r->status == GB_FOUND) snprintf(l1, sizeof l1, "path cost %.2f", r->cost);
                else snprintf(l1, sizeof l1, "no path (%s)", status_name[r->status]);
                gp_str(f, l1);
                fputc('\n', f);
            }
            if (gb_tmp_close(f, tmp, &d) != 0) rc = report(&d);
            else copy_str(dest[ntmp++], sizeof dest[0], path);
        }
    }
    for (int i = 0; i < ntmp; i++) {
        if (rc) gb_tmp_abort(NULL, tmps[i]);
        else if (gb_tmp_rename(tmps[i], dest[i], &d) != 0) rc = report(&d);
    }
    if (!rc)
        fprintf(stderr, CMD ": %s line %ld, %d solvers -> %s.{tsv,gp} and %d images\n", base_name(scen),
                q.line, ns, out, ns);
    gb_ws_free(ws);
    gb_free(rgb);
    gb_map_free(&map);
    return rc;
}
