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

/* ---- the command, in stages -----------------------------------------
 *
 * fp_parse (argv -> fp_cli through the option table) -> fp_check (the
 * rules between options) -> fp_solvers -> the query and its map
 * (gb_cli_query) -> per solver an image (fp_images) -> the table
 * (fp_write_tsv) and the gnuplot parameters (fp_write_gp) -> every file
 * renamed into place, or none (fp_finish).  One fp_job holds what they
 * share. */

typedef struct fp_cli {
    const char *scen, *out, *map;
    long line;
    int longest, nsl, help;
    char *slists[MAX_SOLVERS];
    gb_queue_kind queue;
    gb_model model;
} fp_cli;

typedef struct fp_job {
    const fp_cli *o;
    gb_diag d;
    gb_map map;
    gb_query q;
    char mpath[1024];
    gb_solver_spec specs[MAX_SOLVERS];
    fp_row rows[MAX_SOLVERS];
    int ns;
    gb_ws *ws;
    uint8_t *rgb;
    /* All outputs appear together or not at all: each file is written to
     * its temporary file and closed; only when every one is complete are
     * they renamed into place (ns images, then the .tsv and the .gp). */
    char tmps[MAX_SOLVERS + 2][4300], dest[MAX_SOLVERS + 2][4200];
    int ntmp;
} fp_job;

static const char *const status_name[] = { "found", "unreachable", "limit" };

static int fp_queue(const char *arg, gb_queue_kind *out)
{
    int q = gb_queue_from_name(arg);
    if (q >= 0) {
        *out = (gb_queue_kind)q;
        return 0;
    }
    char names[256];
    gb_queue_names(names, sizeof names);
    const char *qn[GB_Q_COUNT];
    for (int i = 0; i < GB_Q_COUNT; i++) qn[i] = gb_queue_name((gb_queue_kind)i);
    const char *cq = gb_closest(arg, qn, GB_Q_COUNT);
    fprintf(stderr, CMD ": --queue: expected one of %s, found '%s'%s%s%s\n", names, arg,
            cq ? "; did you mean '" : "", cq ? cq : "", cq ? "'?" : "");
    return EX_USAGE;
}

static int fp_parse(int argc, char **argv, fp_cli *o)
{
    o->queue = GB_Q_BHEAP;
    o->model = GB_MODEL_8_NOCUT;
    const char *arg;
    int c, rc = 0;
    gb_opt_parser op;
    if (gb_opt_begin(&op, &gb_doc_footprint) != 0) return EX_OSERR;
    while (!rc && !o->help && (c = gb_opt_next(&op, argc, argv, &arg)) != -1) {
        switch (c) {
        case 'S': o->scen = arg; break;
        case 'l': rc = gb_cli_line(CMD, arg, &o->line); break;
        case 'L': o->longest = 1; break;
        case 's':
            if (o->nsl >= MAX_SOLVERS) {
                fprintf(stderr, CMD ": expected at most %d --solver options, found more\n", MAX_SOLVERS);
                rc = EX_USAGE;
                break;
            }
            o->slists[o->nsl++] = (char *)arg; /* an argv string: strtok may cut it */
            break;
        case 'q': rc = fp_queue(arg, &o->queue); break;
        case 'm':
            rc = gb_cli_model(CMD, arg, &o->model);
            if (!rc) rc = gb_cli_no_water(CMD, o->model);
            break;
        case OPT_MAP: o->map = arg; break;
        case 'o': o->out = arg; break;
        case 'h': o->help = 1; break;
        default: rc = EX_USAGE; break;   /* gb_opt_next said why */
        }
    }
    gb_opt_end(&op);
    return rc;
}

static int fp_check(const fp_cli *o, int argc, char **argv)
{
    if (optind < argc) {
        fprintf(stderr, CMD ": expected only options, found '%s'\n", argv[optind]);
        return EX_USAGE;
    }
    if (!o->scen || !o->out || !o->out[0]) {
        fprintf(stderr, CMD ": expected --scen FILE and --out PREFIX, found %s missing\n",
                !o->scen ? "--scen" : "--out");
        return EX_USAGE;
    }
    if ((o->line > 0) == o->longest) {
        fprintf(stderr, CMD ": expected exactly one of --line N and --longest, found %s\n",
                o->longest ? "both" : "neither");
        return EX_USAGE;
    }
    return 0;
}

/* The solvers of --solver, each one the model allows. */
static int fp_solvers(fp_job *j, char *const *slists, int nsl)
{
    char err[512];
    for (int i = 0; i < nsl; i++)
        for (char *tok = strtok(slists[i], ","); tok; tok = strtok(NULL, ",")) {
            if (j->ns >= MAX_SOLVERS) {
                fprintf(stderr, CMD ": expected at most %d solvers, found more\n", MAX_SOLVERS);
                return EX_USAGE;
            }
            if (gb_solver_parse(tok, &j->specs[j->ns], err, sizeof err) != 0
                || gb_solver_unsupported(&j->specs[j->ns], j->o->model, err, sizeof err)) {
                fprintf(stderr, CMD ": %s\n", err);
                return EX_USAGE;
            }
            j->ns++;
        }
    if (j->ns == 0) {
        fprintf(stderr, CMD ": expected at least one --solver, found none\n");
        return EX_USAGE;
    }
    return 0;
}

/* Solve with every solver and write its image (a temporary file). */
static int fp_images(fp_job *j)
{
    const gb_grid *g = &j->map.grid;
    const int32_t s = gb_grid_id(g, j->q.sx, j->q.sy), t = gb_grid_id(g, j->q.gx, j->q.gy);
    for (int i = 0; i < j->ns; i++) {
        fp_row *r = &j->rows[i];
        gb_result res;
        if (gb_solve(j->ws, &j->specs[i], j->o->queue, s, t, &res) != 0) {
            fprintf(stderr, CMD ": expected memory for solver %s, found none\n", j->specs[i].name);
            return EX_OSERR;
        }
        copy_str(r->name, sizeof r->name, j->specs[i].name);
        r->status = res.status;
        r->cost = res.status == GB_FOUND ? res.cost : 0.0;
        r->path_len = res.status == GB_FOUND ? res.path_len : 0;
        r->st = res.st;
        paint(j->ws, g, &res, s, t, j->rgb, &r->nopen, &r->nclosed);
        char sl[128];
        slug(j->specs[i].name, sl, sizeof sl);
        if ((size_t)snprintf(r->file, sizeof r->file, "%s-%s.ppm", j->o->out, sl) >= sizeof r->file) {
            fprintf(stderr, CMD ": --out: expected a shorter prefix, found %zu bytes\n",
                    strlen(j->o->out));
            return EX_USAGE;
        }
        FILE *f = gb_tmp_open(r->file, j->tmps[j->ntmp], sizeof j->tmps[j->ntmp], &j->d);
        if (!f) return report(&j->d);
        r->header_bytes = fprintf(f, "P6\n%d %d\n255\n", g->width, g->height);
        fwrite(j->rgb, 3, (size_t)g->width * (size_t)g->height, f);
        if (gb_tmp_close(f, j->tmps[j->ntmp], &j->d) != 0) return report(&j->d);
        copy_str(j->dest[j->ntmp++], sizeof j->dest[0], r->file);
    }
    return 0;
}

/* A temporary file for PREFIX.ext: opened, and named as the next output. */
static FILE *fp_open(fp_job *j, const char *ext)
{
    char path[4200];
    snprintf(path, sizeof path, "%s.%s", j->o->out, ext);
    FILE *f = gb_tmp_open(path, j->tmps[j->ntmp], sizeof j->tmps[0], &j->d);
    if (f) copy_str(j->dest[j->ntmp], sizeof j->dest[0], path);
    return f;
}

/* Close the output fp_open gave, and count it. */
static int fp_close(fp_job *j, FILE *f)
{
    if (gb_tmp_close(f, j->tmps[j->ntmp], &j->d) != 0) return report(&j->d);
    j->ntmp++;
    return 0;
}

static int fp_write_tsv(fp_job *j)
{
    FILE *f = fp_open(j, "tsv");
    if (!f) return report(&j->d);
    const gb_grid *g = &j->map.grid;
    fprintf(f, "# %s line %ld: (%d,%d) -> (%d,%d), map %s %dx%d, model %s, queue %s\n", j->o->scen,
            j->q.line, j->q.sx, j->q.sy, j->q.gx, j->q.gy, base_name(j->mpath), g->width, g->height,
            gb_model_name(j->o->model), gb_queue_name(j->o->queue));
    fputs("solver\tfile\tstatus\tcost\tpath_len\texpanded\tgenerated\tscanned\topen\tclosed\n", f);
    for (int i = 0; i < j->ns; i++) {
        const fp_row *r = &j->rows[i];
        fprintf(f, "%s\t%s\t%s\t%.8f\t%d\t%llu\t%llu\t%llu\t%ld\t%ld\n", r->name, base_name(r->file),
                status_name[r->status], r->cost, r->path_len, (unsigned long long)r->st.expanded,
                (unsigned long long)r->st.generated, (unsigned long long)r->st.scanned, r->nopen,
                r->nclosed);
    }
    return fp_close(j, f);
}

/* One solver's fp_* variables of the .gp file. */
static void fp_gp_solver(FILE *f, int i, const fp_row *r)
{
    char l1[256], l2[256];
    copy_str(l1, sizeof l1, r->name);
    if (r->st.scanned)
        snprintf(l2, sizeof l2, "%llu expanded, %llu generated, %llu scanned",
                 (unsigned long long)r->st.expanded, (unsigned long long)r->st.generated,
                 (unsigned long long)r->st.scanned);
    else
        snprintf(l2, sizeof l2, "%llu expanded, %llu generated", (unsigned long long)r->st.expanded,
                 (unsigned long long)r->st.generated);
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

static int fp_write_gp(fp_job *j)
{
    double opt = -1;
    for (int i = 0; i < j->ns; i++)
        if (j->rows[i].status == GB_FOUND
            && gb_solver_guarantee(&j->specs[i], j->o->model, &(double){ 0 }) == GB_GUAR_OPTIMAL)
            opt = j->rows[i].cost;
    FILE *f = fp_open(j, "gp");
    if (!f) return report(&j->d);
    const gb_query *q = &j->q;
    char title[2048];
    fprintf(f, "# gnuplot parameters for plots/footprint.gp, written by gridbench footprint\n");
    fprintf(f, "fp_n = %d\nfp_w = %d\nfp_h = %d\n", j->ns, j->map.grid.width, j->map.grid.height);
    fprintf(f, "fp_sx = %d\nfp_sy = %d\nfp_gx = %d\nfp_gy = %d\n", q->sx, q->sy, q->gx, q->gy);
    if (opt >= 0)
        snprintf(title, sizeof title, "%s, %s line %ld: (%d,%d) to (%d,%d), optimal cost %.2f",
                 base_name(j->mpath), base_name(j->o->scen), q->line, q->sx, q->sy, q->gx, q->gy, opt);
    else
        snprintf(title, sizeof title, "%s, %s line %ld: (%d,%d) to (%d,%d)", base_name(j->mpath),
                 base_name(j->o->scen), q->line, q->sx, q->sy, q->gx, q->gy);
    fputs("fp_title = ", f);
    gp_str(f, title);
    fputc('\n', f);
    for (int i = 0; i < j->ns; i++) fp_gp_solver(f, i, &j->rows[i]);
    return fp_close(j, f);
}

/* Every output renamed into place when rc is 0, else every one removed. */
static int fp_finish(fp_job *j, int rc)
{
    for (int i = 0; i < j->ntmp; i++) {
        if (rc) gb_tmp_abort(NULL, j->tmps[i]);
        else if (gb_tmp_rename(j->tmps[i], j->dest[i], &j->d) != 0) rc = report(&j->d);
    }
    if (!rc)
        fprintf(stderr, CMD ": %s line %ld, %d solvers -> %s.{tsv,gp} and %d images\n",
                base_name(j->o->scen), j->q.line, j->ns, j->o->out, j->ns);
    return rc;
}

int gb_cmd_footprint(int argc, char **argv)
{
    fp_cli o;
    memset(&o, 0, sizeof o);
    int rc = fp_parse(argc, argv, &o);
    if (rc) return rc;
    if (o.help) {
        gb_opt_help(&gb_doc_footprint, stdout);
        return 0;
    }
    if ((rc = fp_check(&o, argc, argv)) != 0) return rc;
    static fp_job j;
    memset(&j, 0, sizeof j);
    j.o = &o;
    if ((rc = fp_solvers(&j, o.slists, o.nsl)) != 0) return rc;
    gb_diag_clear(&j.d);
    rc = gb_cli_query(o.scen, o.line, o.longest, o.map, &j.map, &j.q, j.mpath, sizeof j.mpath, &j.d);
    if (rc) {
        gb_map_free(&j.map);
        return report(&j.d);
    }
    const gb_grid *g = &j.map.grid;
    j.ws = gb_ws_new(g, o.model);
    j.rgb = gb_malloc((size_t)g->width * (size_t)g->height * 3);
    if (!j.ws || !j.rgb) {
        fprintf(stderr, CMD ": expected memory for a %dx%d map, found none\n", g->width, g->height);
        rc = EX_OSERR;
    }
    if (!rc) rc = fp_images(&j);
    if (!rc) rc = fp_write_tsv(&j);
    if (!rc) rc = fp_write_gp(&j);
    rc = fp_finish(&j, rc);
    gb_ws_free(j.ws);
    gb_free(j.rgb);
    gb_map_free(&j.map);
    return rc;
}
