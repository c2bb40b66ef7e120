/*
 * gb_cmd_report.c -- `gridbench report DIR`: render DIR/report.md and
 * DIR/report.html from the artefacts scripts/report.sh leaves in a run
 * folder.  Static HTML (inline CSS, no JavaScript); both files say the
 * same things in the same order:
 *
 *   title, environment (env.json), headline findings (from summary.csv:
 *   fastest solver per map -- named only when its 95 % interval is clear
 *   of the runner-up's, else "a tie" (tie_of) --, speedups with their
 *   intervals, fewest expansions, failures, scenario disagreements;
 *   hyperfine), tables (per map on the reference
 *   queue, hyperfine, every pair), plots (plots.tsv), notes (notes.txt and
 *   the definitions of the figures).
 *
 * Inputs in DIR (paths in the report are relative to DIR):
 *   env.json       required: `gridbench env` output plus a "run" object
 *                  (run_id, model, reps, count, solvers[], queues[],
 *                  scenarios[{path, sha256, bytes}], run_status,
 *                  hyperfine {runs, warmup, scen, solvers[]} or null)
 *   summary.csv    required: `gridbench summary` output (read by header)
 *   hyperfine.json optional: `hyperfine --export-json`
 *   plots.tsv      optional manifest, one image per line:
 *                  section<TAB>png<TAB>svg<TAB>caption (svg may be "-")
 *                  report.md links png and svg; report.html embeds the
 *                  PNG's bytes (base64 data: URI) and links no file.
 *                  An image is used only when it lies inside DIR (no
 *                  "..", no absolute path, no link leading out) and is a
 *                  PNG (an SVG) by its first bytes (vet_image); others
 *                  are skipped with a warning
 *   notes.txt      optional: one note per line
 *   queries.csv    optional: the cross-map table of geometric-mean
 *                  speedups (see "across maps" below)
 *   heuristics-verdicts.csv  optional: the --verdicts CSV of `gridbench
 *                  heuristics`, shown as the table of heuristic verdicts
 *
 * Inline markup in the text this file produces: `code` and **bold**;
 * data values (names, paths) are always put inside `code` spans or table
 * cells and escaped for the output format.
 */
#define _GNU_SOURCE 1   /* memmem */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gb_alloc.h"
#include "gb_cmd.h"
#include "gb_csv.h"
#include "gb_glance.h"
#include "gb_jvalue.h"
#include "gb_opt.h"
#include "gb_stats.h"
#include "gb_status.h"
#include "gb_strtab.h"

#define CMD "gridbench report"

static const gb_opt report_opts[] = {
    { 'h', 'h', "help", NULL, "this text" },
    { 0, 0, NULL, NULL, NULL }
};

const gb_cmd_doc gb_doc_report = {
    "report", "DIR",
    "render report.md and report.html of a results/<run-id>/ folder",
    "Render DIR/report.md and DIR/report.html (static, no JavaScript) from the files "
    "scripts/report.sh writes into a run folder: env.json and summary.csv (required), "
    "hyperfine.json, plots.tsv (section, png, svg, caption per line), notes.txt, queries.csv (the "
    "cross-map table of geometric-mean speedups with bootstrap intervals) and "
    "heuristics-verdicts.csv (`gridbench heuristics --verdicts`: the table of heuristic verdicts) "
    "(optional).  Both files are written to a temporary file and renamed.\n"
    "\n"
    "report.html is self-contained: the PNGs of plots.tsv are embedded as data: URIs (an image the "
    "folder lacks is marked in the page and named on stderr); report.md links the files with paths "
    "relative to DIR.  An image outside DIR (a \"..\" step, an absolute path, a link leading out) or "
    "not a PNG (SVG) by its first bytes is skipped with a warning.",
    report_opts, NULL,
    "gridbench report results/latest",
    "0 written; 64 bad usage; 65 bad input; 66 missing input; 71 out of memory; 73/74 cannot write."
};

/* ---- summary rows ------------------------------------------------------ */

/* Status columns come from the one status table (gb_status.h). */
#define ST_N GB_ROW_NSTATUS

typedef struct srow {
    char *map, *solver, *queue, *guarantee;
    double n, t_med, t_mean, t_p25, t_p75, t_p95, t_iqr, cold, exp_mean, exp_med;
    double speedup, speedup_n, sub_mean, sub_max;   /* NaN when empty */
    double mem;         /* mem_bytes_max, NaN when empty or absent (older summaries) */
    double prep;        /* prep_ns_max, NaN when empty or absent */
    double t_lo, t_hi;  /* interval of t_med, NaN when absent (older summaries) */
    double sp_lo, sp_hi;   /* interval of speedup, NaN when absent or undefined */
    double st[ST_N];
    char src[8];        /* time_source ("" when absent: older summaries) */
    double lbr;         /* lb_ratio_mean, NaN when empty or absent */
    double oshare;      /* optimal_share, NaN when empty or absent */
} srow;

typedef struct table {
    srow *r;
    size_t n;
    char **maps;        /* distinct maps, first-appearance order */
    size_t nmaps;
    const char *ref;    /* reference queue */
} table;

enum { C_MAP, C_SOLVER, C_QUEUE, C_GUAR, C_N, C_TMED, C_TMEAN, C_P25, C_P75, C_P95, C_IQR, C_COLD,
       C_EMEAN, C_EMED, C_SPEED, C_SPEEDN, C_SUBM, C_SUBX, C_NCOL };
static const char *col_names[C_NCOL + ST_N] = {
    "map", "solver", "queue", "guarantee", "n", "time_median_ns", "time_mean_ns", "time_p25_ns",
    "time_p75_ns", "time_p95_ns", "time_iqr_ns", "time_cold_median_ns", "expanded_mean",
    "expanded_median", "speedup", "speedup_n", "subopt_mean", "subopt_max",
#define GB_X(E, N, F, D) N,
    GB_ROW_STATUS_LIST(GB_X)
#undef GB_X
};

static double numf(const char *s)
{
    double v;
    return gb_csv_double(s, &v) == 0 ? v : NAN;
}

static void table_free(table *t)
{
    for (size_t i = 0; i < t->n; i++) {
        gb_free(t->r[i].map);
        gb_free(t->r[i].solver);
        gb_free(t->r[i].queue);
        gb_free(t->r[i].guarantee);
    }
    gb_free(t->r);
    gb_free(t->maps);
    memset(t, 0, sizeof *t);
}

static int table_load(const char *path, table *t, gb_diag *d)
{
    memset(t, 0, sizeof *t);
    gb_csv c;
    int rc = gb_csv_open(&c, path, d);
    if (rc) return rc;
    int idx[C_NCOL + ST_N];
    if ((rc = gb_csv_require(&c, col_names, C_NCOL + ST_N, idx, d)) != 0) { gb_csv_close(&c); return rc; }
    const int mem_col = gb_csv_col(&c, "mem_bytes_max");
    const int prep_col = gb_csv_col(&c, "prep_ns_max");
    const int src_col = gb_csv_col(&c, "time_source");
    const int lbr_col = gb_csv_col(&c, "lb_ratio_mean");
    const int osh_col = gb_csv_col(&c, "optimal_share");
    static const char *const ci_names[4] = { "time_median_lo_ns", "time_median_hi_ns", "speedup_lo", "speedup_hi" };
    int ci_col[4];
    for (int k = 0; k < 4; k++) ci_col[k] = gb_csv_col(&c, ci_names[k]);
    size_t cap = 0;
    while ((rc = gb_csv_next(&c, d)) == 0) {
        if (t->n == cap) {
            cap = cap ? 2 * cap : 64;
            srow *nr = gb_realloc(t->r, cap * sizeof *nr);
            if (!nr) { rc = EX_OSERR; break; }
            t->r = nr;
        }
        srow *r = &t->r[t->n++];
        memset(r, 0, sizeof *r);
        r->map = gb_strdup(gb_csv_field(&c, idx[C_MAP]));
        r->solver = gb_strdup(gb_csv_field(&c, idx[C_SOLVER]));
        r->queue = gb_strdup(gb_csv_field(&c, idx[C_QUEUE]));
        r->guarantee = gb_strdup(gb_csv_field(&c, idx[C_GUAR]));
        if (!r->map || !r->solver || !r->queue || !r->guarantee) { rc = EX_OSERR; break; }
        double *dst[] = { &r->n, &r->t_med, &r->t_mean, &r->t_p25, &r->t_p75, &r->t_p95, &r->t_iqr,
                          &r->cold, &r->exp_mean, &r->exp_med, &r->speedup, &r->speedup_n,
                          &r->sub_mean, &r->sub_max };
        for (int k = C_N; k < C_NCOL; k++) *dst[k - C_N] = numf(gb_csv_field(&c, idx[k]));
        r->mem = mem_col >= 0 ? numf(gb_csv_field(&c, mem_col)) : NAN;
        r->prep = prep_col >= 0 ? numf(gb_csv_field(&c, prep_col)) : NAN;
        r->lbr = lbr_col >= 0 ? numf(gb_csv_field(&c, lbr_col)) : NAN;
        r->oshare = osh_col >= 0 ? numf(gb_csv_field(&c, osh_col)) : NAN;
        if (src_col >= 0) snprintf(r->src, sizeof r->src, "%s", gb_csv_field(&c, src_col));
        double *ci[4] = { &r->t_lo, &r->t_hi, &r->sp_lo, &r->sp_hi };
        for (int k = 0; k < 4; k++) *ci[k] = ci_col[k] >= 0 ? numf(gb_csv_field(&c, ci_col[k])) : NAN;
        for (int k = 0; k < ST_N; k++) {
            r->st[k] = numf(gb_csv_field(&c, idx[C_NCOL + k]));
            if (isnan(r->st[k])) r->st[k] = 0;
        }
    }
    gb_csv_close(&c);
    if (rc == EX_OSERR) gb_diag_set(d, EX_OSERR, path, 0, 0, "expected memory, found none");
    if (rc == GB_CSV_EOF) rc = 0;
    if (!rc && t->n == 0) rc = gb_diag_set(d, EX_DATAERR, path, 0, 0, "expected at least one summary row, found none");
    if (!rc) {
        t->maps = gb_malloc(t->n * sizeof *t->maps);
        if (!t->maps) rc = gb_diag_set(d, EX_OSERR, path, 0, 0, "expected memory, found none");
    }
    if (rc) { table_free(t); return rc; }
    t->ref = NULL;
    for (size_t i = 0; i < t->n; i++) {
        size_t m = 0;
        while (m < t->nmaps && strcmp(t->maps[m], t->r[i].map) != 0) m++;
        if (m == t->nmaps) t->maps[t->nmaps++] = t->r[i].map;
        if (strcmp(t->r[i].queue, "bheap") == 0) t->ref = "bheap";
    }
    if (!t->ref) t->ref = t->r[0].queue;
    return 0;
}

/* Solver failures of a summary row: the statuses the table calls failures
 * (the same count `gridbench run` reports; a `limit` row is not one). */
static double failures(const srow *r)
{
    double n = 0;
    for (int k = 0; k < ST_N; k++)
        if (gb_row_status_failed((gb_row_status)k)) n += r->st[k];
    return n;
}

/* The row of solver on map at the reference queue, or its first row. */
static const srow *ref_row(const table *t, const char *map, const char *solver)
{
    const srow *first = NULL;
    for (size_t i = 0; i < t->n; i++) {
        const srow *r = &t->r[i];
        if (strcmp(r->map, map) || strcmp(r->solver, solver)) continue;
        if (strcmp(r->queue, t->ref) == 0) return r;
        if (!first) first = r;
    }
    return first;
}

static const srow *find_row(const table *t, const char *map, const char *solver, const char *queue)
{
    for (size_t i = 0; i < t->n; i++)
        if (!strcmp(t->r[i].map, map) && !strcmp(t->r[i].solver, solver) && !strcmp(t->r[i].queue, queue))
            return &t->r[i];
    return NULL;
}

/* Is r timed another way than the baseline (time_source; without a
 * baseline, than in-process)?  Such rows are not ranked against it. */
static int other_source(const srow *r, const srow *base)
{
    const char *want = base ? base->src : "inproc";
    return r->src[0] && strcmp(r->src, want[0] ? want : "inproc") != 0;
}

/* ---- formatting -------------------------------------------------------- */

/* A time in ns as microseconds with about 3 significant digits. */
static const char *fmt_us(char *b, size_t n, double ns)
{
    if (isnan(ns)) { snprintf(b, n, "-"); return b; }
    double us = ns / 1e3;
    int dec = us >= 100 ? 0 : us >= 10 ? 1 : us >= 1 ? 2 : 3;
    snprintf(b, n, "%.*f", dec, us);
    return b;
}

static const char *fmt_num(char *b, size_t n, double v, int dec)
{
    if (isnan(v)) snprintf(b, n, "-");
    else snprintf(b, n, "%.*f", dec, v);
    return b;
}

/* Bytes in KiB, MiB or GiB with about 3 significant digits. */
static const char *fmt_bytes(char *b, size_t n, double v)
{
    static const char *const unit[] = { "KiB", "MiB", "GiB" };
    int u = 0;
    if (isnan(v)) { snprintf(b, n, "-"); return b; }
    v /= 1024;
    while (u < 2 && v >= 1024) { v /= 1024; u++; }
    snprintf(b, n, "%.*f %s", v >= 100 ? 0 : v >= 10 ? 1 : 2, v, unit[u]);
    return b;
}

static const char *fmt_x(char *b, size_t n, double v)
{
    if (isnan(v)) snprintf(b, n, "-");
    else snprintf(b, n, "%.*f×", v >= 100 ? 0 : v >= 10 ? 1 : 2, v);
    return b;
}

/* A speedup and its interval: "12.3× [11.8, 12.9]" (no interval: as fmt_x). */
static const char *fmt_x_ci(char *b, size_t n, double v, double lo, double hi)
{
    if (isnan(v) || isnan(lo) || isnan(hi)) return fmt_x(b, n, v);
    int dec = v >= 100 ? 0 : v >= 10 ? 1 : 2;
    snprintf(b, n, "%.*f× [%.*f, %.*f]", dec, v, dec, lo, dec, hi);
    return b;
}

/* The 95 % interval of a median time in µs: "[26.4, 49.8]", or "-". */
static const char *fmt_us_ci(char *b, size_t n, double lo, double hi)
{
    char x[32], y[32];
    if (isnan(lo) || isnan(hi)) snprintf(b, n, "-");
    else snprintf(b, n, "[%s, %s]", fmt_us(x, sizeof x, lo), fmt_us(y, sizeof y, hi));
    return b;
}

/* What a speedup leaves out: " (+18.9 ms prep per map)" when r prepares
 * per map (jump tables, subgoal graphs, landmarks) for at least one
 * median query's time, else "".  summary.csv's speedup compares query
 * times only. */
static const char *fmt_prep(char *b, size_t n, const srow *r)
{
    b[0] = '\0';
    if (r->prep > 0 && r->prep >= r->t_med) snprintf(b, n, " (+%.3g ms prep per map)", r->prep / 1e6);
    return b;
}

/* Are rows a and b a tie?  1: their intervals overlap; 0: they do not;
 * -1: no interval to tell (a summary.csv of an older gridbench).  The
 * speedup intervals are used when both rows have one (each is paired
 * with the baseline on the same queries, so the mix of query sizes
 * cancels out), else the intervals of the median times. */
static int tie_of(const srow *a, const srow *b)
{
    gb_ci x, y;
    if (!isnan(a->sp_lo) && !isnan(b->sp_lo)) {
        x = (gb_ci){ a->speedup, a->sp_lo, a->sp_hi };
        y = (gb_ci){ b->speedup, b->sp_lo, b->sp_hi };
    } else if (!isnan(a->t_lo) && !isnan(b->t_lo)) {
        x = (gb_ci){ a->t_med, a->t_lo, a->t_hi };
        y = (gb_ci){ b->t_med, b->t_lo, b->t_hi };
    } else {
        return -1;
    }
    return gb_ci_overlap(&x, &y);
}

/* ---- the two documents ------------------------------------------------- */

typedef struct doc {
    FILE *md, *html;
    const char *dir;    /* the run folder: images are read from it */
    int missing;        /* images the manifest names but the folder lacks */
} doc;

static void html_esc(FILE *f, const char *s, size_t n)
{
    for (size_t i = 0; i < n && s[i]; i++) {
        switch (s[i]) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&#39;", f); break;
        default: fputc(s[i], f);
        }
    }
}

/* Inline markup to HTML: `code`, **bold**, everything else escaped. */
static void html_inline(FILE *f, const char *s)
{
    while (*s) {
        if (*s == '`') {
            const char *e = strchr(s + 1, '`');
            if (e) {
                fputs("<code>", f);
                html_esc(f, s + 1, (size_t)(e - s - 1));
                fputs("</code>", f);
                s = e + 1;
                continue;
            }
        }
        if (s[0] == '*' && s[1] == '*') {
            const char *e = strstr(s + 2, "**");
            if (e) {
                fputs("<strong>", f);
                char tmp[1024];
                size_t k = (size_t)(e - s - 2);
                if (k >= sizeof tmp) k = sizeof tmp - 1;
                memcpy(tmp, s + 2, k);
                tmp[k] = '\0';
                html_inline(f, tmp);
                fputs("</strong>", f);
                s = e + 2;
                continue;
            }
        }
        html_esc(f, s, 1);
        s++;
    }
}

/* Inline markup to Markdown: `code` spans and **bold** kept; outside
 * them '*', '_', '<' and '\\' escaped; in a table cell also '|' (GFM
 * wants it escaped inside code spans too); newlines as blanks. */
static void md_inline(FILE *f, const char *s, int cell)
{
    int code = 0;
    for (; *s; s++) {
        char c = *s;
        if (c == '\n' || c == '\r') { fputc(' ', f); continue; }
        if (c == '`') { code = !code; fputc(c, f); continue; }
        if (cell && c == '|') { fputs("\\|", f); continue; }
        if (!code && c == '*' && s[1] == '*') { fputs("**", f); s++; continue; }
        if (!code && (c == '*' || c == '_' || c == '<' || c == '\\')) fputc('\\', f);
        fputc(c, f);
    }
}

static void md_cell(FILE *f, const char *s) { md_inline(f, s, 1); }

/* Image alt text: the words only (no markup, no brackets). */
static void md_alt(FILE *f, const char *s)
{
    for (; *s; s++)
        if (!strchr("`*[]\\\n", *s)) fputc(*s, f);
}

static void d_heading(doc *d, int level, const char *id, const char *text)
{
    fprintf(d->md, "\n%.*s ", level, "######");
    md_inline(d->md, text, 0);
    fputs("\n\n", d->md);
    fprintf(d->html, "<h%d id=\"%s\">", level, id);
    html_inline(d->html, text);
    fprintf(d->html, "</h%d>\n", level);
}

/* One block of inline text in both documents: md_pre before and md_post
 * after it in Markdown, inside the HTML element tag. */
static void d_block(doc *d, const char *md_pre, const char *md_post, const char *tag, const char *fmt,
                    va_list ap) GB_PRINTF_LIKE(5, 0);
static void d_block(doc *d, const char *md_pre, const char *md_post, const char *tag, const char *fmt,
                    va_list ap)
{
    char buf[4096];
    vsnprintf(buf, sizeof buf, fmt, ap);
    fputs(md_pre, d->md);
    md_inline(d->md, buf, 0);
    fputs(md_post, d->md);
    fprintf(d->html, "<%s>", tag);
    html_inline(d->html, buf);
    fprintf(d->html, "</%s>\n", tag);
}

static void d_para(doc *d, const char *fmt, ...) GB_PRINTF_LIKE(2, 3);
static void d_para(doc *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    d_block(d, "", "\n\n", "p", fmt, ap);
    va_end(ap);
}

static void d_list_begin(doc *d) { fputs("<ul>\n", d->html); }
static void d_list_end(doc *d) { fputs("</ul>\n", d->html); fputc('\n', d->md); }

static void d_item(doc *d, const char *fmt, ...) GB_PRINTF_LIKE(2, 3);
static void d_item(doc *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    d_block(d, "- ", "\n", "li", fmt, ap);
    va_end(ap);
}

/* A table's header or data row: cells in Markdown and in HTML (cell tag
 * th or td, aligned by align[i], 'l' or 'r'). */
static void d_cells(doc *d, int n, const char *const *cells, const char *align, const char *tag)
{
    fputs("|", d->md);
    for (int i = 0; i < n; i++) {
        fputc(' ', d->md);
        md_cell(d->md, cells[i]);
        fputs(" |", d->md);
    }
    fputc('\n', d->md);
    for (int i = 0; i < n; i++) {
        fprintf(d->html, "<%s class=\"%s\">", tag, align[i] == 'r' ? "r" : "l");
        html_inline(d->html, cells[i]);
        fprintf(d->html, "</%s>", tag);
    }
}

/* A table being written: its columns (n of them, aligned by align) and
 * the cells of one row, which the caller fills (d_set, or D_CELL bytes at
 * d_cell) before d_tab_row writes them; d_tab_put writes a row of the
 * caller's own strings instead (for cells that may be longer).  A row's
 * cells are not cleared: every row sets each of them. */
enum { D_MAXCOL = 19, D_CELL = 400 };
typedef struct d_tab {
    doc *d;
    int n;             /* columns: strlen(align), at most D_MAXCOL */
    const char *align; /* 'l' / 'r' per column */
    char cell[D_MAXCOL][D_CELL];
} d_tab;

/* Start a table on d: the header row hdr[0 .. strlen(align)). */
static void d_tab_open(d_tab *t, doc *d, const char *const *hdr, const char *align)
{
    t->d = d;
    t->n = (int)strlen(align);
    t->align = align;
    fputs("<div class=\"scroll\"><table>\n<thead><tr>", d->html);
    d_cells(d, t->n, hdr, align, "th");
    fputs("</tr></thead>\n<tbody>\n", d->html);
    fputc('|', d->md);
    for (int i = 0; i < t->n; i++) fputs(align[i] == 'r' ? "---:|" : "---|", d->md);
    fputc('\n', d->md);
}

/* d_tab_open for a static header array and alignment string, whose
 * lengths are checked against each other at compile time. */
#define D_TAB_OPEN(t, d, hdr, align)                                                    \
    do {                                                                                \
        _Static_assert(sizeof(hdr) / sizeof((hdr)[0]) == sizeof(align) - 1, "columns"); \
        d_tab_open((t), (d), (hdr), (align));                                           \
    } while (0)

static char *d_cell(d_tab *t, int k) { return t->cell[k]; }

static void d_set(d_tab *t, int k, const char *fmt, ...) GB_PRINTF_LIKE(3, 4);
static void d_set(d_tab *t, int k, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t->cell[k], sizeof t->cell[k], fmt, ap);
    va_end(ap);
}

/* One row of cells[0 .. n). */
static void d_tab_put(d_tab *t, const char *const *cells)
{
    fputs("<tr>", t->d->html);
    d_cells(t->d, t->n, cells, t->align, "td");
    fputs("</tr>\n", t->d->html);
}

/* One row of the table's own cells. */
static void d_tab_row(d_tab *t)
{
    const char *cells[D_MAXCOL];
    for (int k = 0; k < t->n; k++) cells[k] = t->cell[k];
    d_tab_put(t, cells);
}

static void d_tab_close(d_tab *t)
{
    fputc('\n', t->d->md);
    fputs("</tbody>\n</table></div>\n", t->d->html);
}

/* s[0..n) as base64 (RFC 4648, with '=' padding), on one line. */
static void base64(FILE *f, const unsigned char *s, size_t n)
{
    static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (size_t i = 0; i < n; i += 3) {
        unsigned v = (unsigned)s[i] << 16;
        if (i + 1 < n) v |= (unsigned)s[i + 1] << 8;
        if (i + 2 < n) v |= s[i + 2];
        fputc(tab[v >> 18 & 63], f);
        fputc(tab[v >> 12 & 63], f);
        fputc(i + 1 < n ? tab[v >> 6 & 63] : '=', f);
        fputc(i + 2 < n ? tab[v & 63] : '=', f);
    }
}

/* An image the manifest names is used only when it lies inside the run
 * folder and is what its column says by its first bytes: plots.tsv is
 * data, and report.html embeds what it names (a line naming
 * ../../../../etc/hostname must not put that file in the page). */
enum { IMG_OK, IMG_MISSING, IMG_REFUSED };

/* Vet dir/rel as a PNG (png != 0) or an SVG: a relative path without a
 * ".." step whose real path (links resolved) lies under dir's, and whose
 * bytes start as the format says.  IMG_OK with the resolved path in real
 * (size PATH_MAX), IMG_MISSING when there is no such file, or IMG_REFUSED
 * with what was found in why. */
static int vet_image(const char *dir, const char *rel, int png, char *real, char *why, size_t wsz)
{
    const char *p = rel;
    int dots = rel[0] == '/';
    while (*p && !dots) {
        size_t k = strcspn(p, "/");
        dots = k == 2 && p[0] == '.' && p[1] == '.';
        p += k + (p[k] == '/');
    }
    if (dots || !rel[0]) {
        snprintf(why, wsz, "a path leading outside it");
        return IMG_REFUSED;
    }
    char path[4200], rdir[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    if (!realpath(path, real)) return IMG_MISSING;
    size_t n = realpath(dir, rdir) ? strlen(rdir) : 0;
    if (!n || strncmp(real, rdir, n) != 0 || (real[n] != '/' && rdir[n - 1] != '/')) {
        snprintf(why, wsz, "a link leading outside it");
        return IMG_REFUSED;
    }
    unsigned char b[4096];
    size_t got = 0;
    FILE *f = fopen(real, "rb");
    if (f) { got = fread(b, 1, sizeof b, f); fclose(f); }
    int ok;
    if (png) {
        ok = got >= 8 && memcmp(b, "\x89PNG\r\n\x1a\n", 8) == 0;
    } else {   /* optional BOM and blanks, then markup that holds "<svg" early on */
        size_t i = got >= 3 && memcmp(b, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
        while (i < got && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n')) i++;
        ok = i < got && b[i] == '<' && memmem(b + i, got - i, "<svg", 4) != NULL;
    }
    if (!ok) {
        snprintf(why, wsz, "a file that is not %s by its first bytes", png ? "a PNG" : "an SVG");
        return IMG_REFUSED;
    }
    return IMG_OK;
}

/* Say on stderr that plots.tsv's line ln names an image that is refused. */
static void warn_refused(const doc *d, long ln, const char *rel, int png, const char *why)
{
    char q[256];
    gb_diag_quote(q, sizeof q, rel, strlen(rel));
    fprintf(stderr, CMD ": warning: %s/plots.tsv:%ld: expected %s inside the run folder, found %s "
            "(%s); skipped\n", d->dir, ln, png ? "a PNG" : "an SVG", q, why);
}

/* One image (plots.tsv line ln).  report.md links png (and svg) relative
 * to the folder; report.html embeds the PNG's bytes as a data: URI, so
 * that the page alone shows every image (mail it, open it from anywhere).
 * A PNG the folder lacks becomes a visible note in the page and a warning
 * on stderr (d->missing counts them); one vet_image refuses is left out
 * with a warning (an SVG so refused loses its link only).  0, or
 * EX_OSERR / EX_IOERR with *dg filled. */
static int d_figure(doc *d, long ln, const char *png, const char *svg, const char *caption, gb_diag *dg)
{
    char real[PATH_MAX], why[64];
    int vet = vet_image(d->dir, png, 1, real, why, sizeof why);
    if (vet == IMG_REFUSED) {
        warn_refused(d, ln, png, 1, why);
        return 0;
    }
    int has_svg = svg && svg[0] && strcmp(svg, "-") != 0;
    char sreal[PATH_MAX];
    if (has_svg && vet_image(d->dir, svg, 0, sreal, why, sizeof why) == IMG_REFUSED) {
        warn_refused(d, ln, svg, 0, why);
        has_svg = 0;
    }
    fputs("![", d->md);
    md_alt(d->md, caption);
    fprintf(d->md, "](%s)\n\n", png);
    md_inline(d->md, caption, 0);
    if (has_svg) fprintf(d->md, " ([SVG](%s))", svg);
    fputs("\n\n", d->md);

    char path[4200];
    char *buf = NULL;
    size_t len = 0;
    snprintf(path, sizeof path, "%s/%s", d->dir, png);
    int rc = vet == IMG_OK ? gb_read_file(real, &buf, &len, dg) : EX_NOINPUT;
    if (rc == EX_OSERR || rc == EX_IOERR) return rc;
    fputs("<figure>\n", d->html);
    if (rc) {
        d->missing++;
        fprintf(stderr, CMD ": warning: %s: expected the image the plots manifest names, found none\n", path);
        fputs("<p class=\"bad\">Image missing from the run folder: <code>", d->html);
        html_esc(d->html, png, (size_t)-1);
        fputs("</code></p>\n", d->html);
        gb_diag_clear(dg);
    } else {
        fputs("<img src=\"data:image/png;base64,", d->html);
        base64(d->html, (const unsigned char *)buf, len);
        fputs("\" alt=\"", d->html);
        html_esc(d->html, caption, (size_t)-1);
        fputs("\">\n", d->html);
        gb_free(buf);
    }
    fputs("<figcaption>", d->html);
    html_inline(d->html, caption);
    if (has_svg) {
        fputs(" (vector version: <code>", d->html);
        html_esc(d->html, svg, (size_t)-1);
        fputs("</code> in the run folder)", d->html);
    }
    fputs("</figcaption>\n</figure>\n", d->html);
    return 0;
}

static const char html_head[] =
    "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
    "<title>gridbench report</title>\n<style>\n"
    "body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;max-width:1280px;"
    "margin:2em auto;padding:0 1em;color:#222;line-height:1.45}\n"
    "h1{border-bottom:2px solid #ddd;padding-bottom:.3em}h2{border-bottom:1px solid #eee;"
    "padding-bottom:.2em;margin-top:2em}\n"
    "table{border-collapse:collapse;margin:.5em 0 1.5em;font-size:.9em}\n"
    ".scroll{overflow-x:auto;max-width:100%}\n"
    "th,td{border:1px solid #ddd;padding:.25em .6em}th{background:#f4f4f4}\n"
    "td.r,th.r{text-align:right;font-variant-numeric:tabular-nums}\n"
    "tbody tr:nth-child(even){background:#fafafa}\n"
    "code{background:#f2f2f2;padding:0 .25em;border-radius:3px;font-size:.92em}\n"
    "figure{margin:1em 0 2em}figure img{max-width:100%;height:auto;border:1px solid #eee}\n"
    "figcaption{color:#555;font-size:.9em}\n"
    ".env td:first-child{font-weight:600;white-space:nowrap}\n"
    ".bad{color:#b00020;font-weight:600}details{margin:1em 0}summary{cursor:pointer}\n"
    "nav a{margin-right:1em}\n"
    ".glance{background:#f7faf7;border:1px solid #d8e6d8;border-radius:6px;padding:.2em 1em .1em}\n"
    ".glance td strong code{background:#d9f0d9;font-weight:700}\n"
    "</style>\n</head>\n<body>\n";

/* ---- at a glance: the first screen -----------------------------------
 *
 * What harness/report/gb_glance.c computes, laid out so that a 1400x900
 * window shows it whole before anything else: (a) correctness, (b) the
 * fastest optimal solver x queue per class of maps (and per map when a
 * class has several), (c) the queue finding as a sentence, (d) the
 * heuristics, and links to the search viewers.  "‡" marks a mean above
 * the 95th percentile (a few queries dominate it), wherever a mean shows.
 */

static void glance_correct(doc *d, const gb_glance *g)
{
    char scen[400];
    if (g->scen_mismatch)
        snprintf(scen, sizeof scen,
                 "  **Scenario files: %zu of %zu queries print an optimal length that disagrees "
                 "with Dijkstra's** (rows `scen_mismatch`: the solvers agree with Dijkstra, the file "
                 "does not).",
                 g->scen_mismatch, g->queries);
    else
        snprintf(scen, sizeof scen,
                 "  The scenario files' printed optimum agrees with Dijkstra's on all %zu queries.",
                 g->queries);
    if (!g->failed) {
        d_para(d,
               "✔ **Correct.** All %zu rows (%zu queries × solvers × queues) were checked: legal moves, "
               "the cost "
               "recomputed, equal to Dijkstra's optimum for every optimal solver and within the bound "
               "for the "
               "bounded ones. 0 failures.%s",
               g->rows, g->queries, scen);
        return;
    }
    d_para(d,
           "✘ **%zu of %zu rows FAILED** the checks (by solver below; every failing row is in "
           "`queries.csv` "
           "with its status and message).%s",
           g->failed, g->rows, scen);
    static const char *const hdr[] = { "solver", "failed rows", "statuses" };
    d_tab t;
    D_TAB_OPEN(&t, d, hdr, "lrl");
    for (size_t i = 0; i < g->nfail; i++) {
        char *st = d_cell(&t, 2);
        size_t k = 0;
        st[0] = '\0';
        for (int s = 0; s < GB_ROW_NSTATUS && k < D_CELL - 64; s++)
            if (g->fail[i].by_status[s])
                k += (size_t)snprintf(st + k, D_CELL - k, "%s%zu `%s`", k ? ", " : "",
                                      g->fail[i].by_status[s], gb_row_status_name((gb_row_status)s));
        d_set(&t, 0, "`%s`", g->fail[i].solver);
        d_set(&t, 1, "%zu", g->fail[i].failed);
        d_tab_row(&t);
    }
    d_tab_close(&t);
}

/* "`solver` · `queue`" */
static const char *fmt_pair(char *b, size_t n, const gb_glance_pair *p)
{
    snprintf(b, n, "`%s` · `%s`", p->solver, p->queue);
    return b;
}

static void glance_row(d_tab *t, const gb_glance_row *r, int per_class, const char *map1)
{
    char name[256], q[32], win[200], med[96], run[200], ratio[96], am[240], u1[32], u2[32], u3[32];
    if (per_class && r->maps == 1) snprintf(name, sizeof name, "**%s**: `%s`", r->name, map1);
    else if (per_class) snprintf(name, sizeof name, "**%s** (%d maps)", r->name, r->maps);
    else snprintf(name, sizeof name, "`%s` (%s)", r->name, r->cls);
    snprintf(q, sizeof q, "%zu", r->queries);
    if (!r->have_win) {
        const char *cells[7] = { name, q, "no optimal solver ran on every query", "-", "-", "-", "-" };
        d_tab_put(t, cells);
        return;
    }
    char pw[160];
    snprintf(win, sizeof win, "**%s**", fmt_pair(pw, sizeof pw, &r->win));
    if (isnan(r->win.med_lo)) snprintf(med, sizeof med, "%s", fmt_us(u1, sizeof u1, r->win.med));
    else
        snprintf(med, sizeof med, "%s %s", fmt_us(u1, sizeof u1, r->win.med),
                 fmt_us_ci(u2, sizeof u2, r->win.med_lo, r->win.med_hi));
    if (r->have_run) {
        fmt_pair(run, sizeof run, &r->run);
        snprintf(run + strlen(run), sizeof run - strlen(run), " %s", fmt_us(u3, sizeof u3, r->run.med));
        fmt_x_ci(ratio, sizeof ratio, r->ratio, r->ratio_lo, r->ratio_hi);
        if (!isnan(r->ratio_lo) && r->ratio_lo <= 1.0)
            snprintf(ratio + strlen(ratio), sizeof ratio - strlen(ratio), " (a tie)");
    } else {
        snprintf(run, sizeof run, "-");
        snprintf(ratio, sizeof ratio, "-");
    }
    if (!r->have_amort) snprintf(am, sizeof am, "-");
    else {
        char pr[160];
        fmt_pair(pr, sizeof pr, &r->amort);
        snprintf(am, sizeof am, "%s%s %s%s",
                 !strcmp(r->amort.solver, r->win.solver) && !strcmp(r->amort.queue, r->win.queue)
                     ? "the same: "
                     : "",
                 pr, fmt_us(u1, sizeof u1, r->amort.amort), r->amort.outlier ? " ‡" : "");
    }
    const char *cells[7] = { name, q, win, med, run, ratio, am };
    d_tab_put(t, cells);
}

static void glance_winners(doc *d, const gb_glance *g)
{
    static const char *const hdr[] = { "class: maps",
                                       "queries",
                                       "fastest optimal (solver · queue)",
                                       "median µs [95% CI]",
                                       "runner-up (another solver), µs",
                                       "runner-up / fastest [95% CI]",
                                       "fastest with prep amortised (mean + prep/n), µs" };
    int multi = 0;
    for (size_t i = 0; i < g->ncls; i++) multi |= g->cls[i].maps > 1;
    d_tab t;
    D_TAB_OPEN(&t, d, hdr, "lrlrlll");
    for (size_t i = 0; i < g->ncls; i++) { /* a one-map class names its map */
        const char *m1 = "";
        for (size_t m = 0; m < g->nmap; m++)
            if (!strcmp(g->map[m].cls, g->cls[i].name)) {
                m1 = g->map[m].name;
                break;
            }
        glance_row(&t, &g->cls[i], 1, m1);
    }
    for (size_t i = 0; multi && i < g->nmap; i++) glance_row(&t, &g->map[i], 0, NULL);
    d_tab_close(&t);
    int ties = 0, outl = 0;
    for (size_t i = 0; i < g->ncls; i++) {
        ties |= g->cls[i].have_run && !isnan(g->cls[i].ratio_lo) && g->cls[i].ratio_lo <= 1.0;
        outl |= g->cls[i].have_amort && g->cls[i].amort.outlier;
    }
    d_para(d,
           "Optimal solvers only (guarantee `optimal`, timed in process, no failure, every query of the "
           "map), "
           "ranked by median time per query; a class row is the geometric mean over its maps. The "
           "ratio's interval "
           "is a paired bootstrap over the same queries%s.%s",
           ties ? "; an interval reaching 1 is a tie" : "",
           outl ? "  ‡ mean above the 95th percentile: a few slow queries dominate the mean." : "");
}

static void glance_queues(doc *d, const gb_glance *g)
{
    if (!g->qgroups || !g->nq) {
        d_para(d, "**Queues:** no solver ran on two or more queues in this run.");
        return;
    }
    const gb_glance_queue *best = &g->q[0], *worst = NULL;
    for (size_t i = 0; i < g->nq; i++)
        if (g->q[i].slowest && (!worst || g->q[i].slowest > worst->slowest)) worst = &g->q[i];
    char buf[2048], x[32];
    size_t k = (size_t)snprintf(buf, sizeof buf,
                                "**Queues:** of the %zu (map, solver) pairs that ran on two or more "
                                "queues, `%s` was the fastest in %zu",
                                g->qgroups, best->queue, best->fastest);
    if (g->qsolvers_fast[0])
        k += (size_t)snprintf(buf + k, sizeof buf - k, " (on every map for %s)", g->qsolvers_fast);
    if (worst)
        k += (size_t)snprintf(buf + k, sizeof buf - k, " and `%s` the slowest in %zu", worst->queue,
                              worst->slowest);
    k += (size_t)snprintf(buf + k, sizeof buf - k,
                          "; %zu were too close to call (the paired 95 %% interval of the "
                          "runner-up queue's time over the fastest's reaches 1). Median time relative "
                          "to `%s`, geometric mean over those pairs:",
                          g->qties_fast, g->ref_queue);
    for (size_t i = 0; i < g->nq && k < sizeof buf - 64; i++)
        if (!isnan(g->q[i].gm_ratio))
            k += (size_t)snprintf(buf + k, sizeof buf - k, "%s `%s` %s", i ? "," : "", g->q[i].queue,
                                  fmt_x(x, sizeof x, g->q[i].gm_ratio));
    snprintf(buf + k, sizeof buf - k, ". %s",
             g->same_expansions
                 ? "The queue never changed what a search did: every solver expanded the same nodes on "
                   "every queue."
                 : "**The expansions differ between queues for some solver**: see the per-map tables.");
    d_para(d, "%s", buf);
}

static void glance_heuristics(doc *d, const gb_glance *g)
{
    if (!g->nheur) {
        d_para(
            d,
            "**Heuristics:** not checked in this run (`scripts/report.sh` runs `gridbench heuristics` "
            "unless `--no-heuristics`).");
        return;
    }
    d_para(d, "**Heuristics** (`gridbench heuristics` against exact distances on %d map%s of this run):",
           g->heur[0].maps, g->heur[0].maps == 1 ? "" : "s");
    static const char *const hdr[] = { "heuristic", "admissible", "consistent",
                                       "informedness (mean h/h*)", "as the registry claims" };
    d_tab t;
    D_TAB_OPEN(&t, d, hdr, "lllrl");
    for (size_t i = 0; i < g->nheur; i++) {
        const gb_glance_heur *h = &g->heur[i];
        d_set(&t, 0, "`%s`", h->name);
        d_set(&t, 1, h->admissible == h->maps ? "yes" : "**no**: on %d of %d maps",
              h->maps - h->admissible, h->maps);
        d_set(&t, 2, h->consistent == h->maps ? "yes" : "**no**: on %d of %d maps",
              h->maps - h->consistent, h->maps);
        d_set(&t, 3, "%.3f", h->info_mean);
        d_set(&t, 4, h->registry_agrees == h->maps ? "yes" : "**no**");
        d_tab_row(&t);
    }
    d_tab_close(&t);
}

/* Links to the search viewers of `traces/` (traces.tsv: map, page). */
static void glance_traces(doc *d, const char *dir)
{
    char path[4200], line[1024];
    snprintf(path, sizeof path, "%s/traces.tsv", dir);
    FILE *f = fopen(path, "r");
    if (!f) return;
    int n = 0;
    fputs("**Watch a search step by step** (open and closed lists, g, h, f under the pointer):", d->md);
    fputs("<p><strong>Watch a search step by step</strong> (open and closed lists, g, h, f under the "
          "pointer):",
          d->html);
    while (fgets(line, sizeof line, f)) {
        char *tab = strchr(line, '\t');
        if (!tab || line[0] == '#') continue;
        *tab++ = '\0';
        tab[strcspn(tab, "\r\n")] = '\0';
        if (strchr(tab, '"') || strchr(tab, '<') || strchr(tab, ')')) continue;
        fprintf(d->md, "%s [", n ? "," : "");
        md_inline(d->md, line, 0);
        fprintf(d->md, "](%s)", tab);
        fprintf(d->html, "%s <a href=\"%s\">", n ? "," : "", tab);
        html_esc(d->html, line, (size_t)-1);
        fputs("</a>", d->html);
        n++;
    }
    fclose(f);
    fputs(".\n\n", d->md);
    fputs(".</p>\n", d->html);
}

static int section_glance(doc *d, const char *dir, gb_diag *dg)
{
    gb_glance g;
    int rc = gb_glance_build(dir, &g, dg);
    if (rc) {
        gb_glance_free(&g);
        return rc;
    }
    d_heading(d, 2, "glance", "At a glance");
    fputs("<div class=\"glance\">\n", d->html);
    glance_correct(d, &g);
    glance_winners(d, &g);
    glance_queues(d, &g);
    glance_heuristics(d, &g);
    glance_traces(d, dir);
    fputs("</div>\n", d->html);
    gb_glance_free(&g);
    return 0;
}

/* ---- across maps: geometric-mean speedups -------------------------------
 *
 * From queries.csv (columns map, scen, line, solver, queue, time_ns), for
 * each solver on the reference queue (its first queue when it never ran
 * on it) against `dijkstra` on `bheap`: per map m the speedup
 * s_m = median(baseline times) / median(solver times) over the queries
 * of m both ran (as summary.csv's speedup), and across the M maps the
 * geometric mean G = exp(mean_m log s_m), so that no map weighs more for
 * its larger times.  Interval: stratified percentile bootstrap -- each
 * resample draws, map by map, n_m of that map's query pairs with
 * replacement (paired: a query keeps both times), and takes G of the
 * resampled s_m; GB_BOOT_RESAMPLES resamples, 95 %.  Map m's draws come
 * from its own splitmix64 stream seeded GB_BOOT_SEED + m + 1 (m = the
 * map's order in queries.csv), so the figure never depends on another
 * solver: gb_boot_strat_ratio (gb_stats.h), as the first screen's class
 * ratios. */

typedef struct xsolver {
    const char *solver, *queue, *guarantee;
    int maps;                 /* maps with at least one shared query */
    double est, lo, hi;       /* G and its interval; NaN when undefined */
    double smin, smax;        /* lowest and highest per-map speedup */
    char min_map[160], max_map[160];   /* "" when none */
    const char *other;        /* its time_source when not the baseline's (an external
                                 solver's round trip, a plugin call): no speedup, as in
                                 the headlines and summary.csv; else NULL */
} xsolver;

typedef struct xslice {      /* the queries of one map in queries.csv */
    char name[160];
    size_t nq;                /* distinct (scen, line) */
    double lmin, lmax;        /* range of dijkstra_cost; NaN when absent */
} xslice;

typedef struct xmap {
    xsolver *s;
    size_t n;
    size_t nmaps;             /* maps in queries.csv */
    int have;                 /* 1 when queries.csv was read and has the baseline */
    xslice *sl;               /* per map, when queries.csv was read */
    size_t nsl;
} xmap;

static int cmp_xsolver(const void *a, const void *b)
{
    const xsolver *x = a, *y = b;
    double u = isnan(x->est) ? -1 : x->est, v = isnan(y->est) ? -1 : y->est;
    return (u < v) - (u > v);
}

static void xmap_free(xmap *x)
{
    gb_free(x->s);
    gb_free(x->sl);
    memset(x, 0, sizeof *x);
}

/* DIR/NAME, a CSV of the run folder, opened with the columns need[0..n)
 * (their indices into idx): 0 open (close it), 1 absent (what it feeds is
 * left out), or a sysexits code with *d filled (unreadable, a column
 * missing). */
static int open_run_csv(const char *dir, const char *name, const char *const *need, int n, int *idx,
                        gb_csv *c, gb_diag *d)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *probe = fopen(path, "r");
    if (!probe) return 1;
    fclose(probe);
    int rc = gb_csv_open(c, path, d);
    if (rc) return rc;
    if ((rc = gb_csv_require(c, need, n, idx, d)) != 0) gb_csv_close(c);
    return rc;
}

/* Read DIR/queries.csv and fill *x.  0 (x->have = 0 when the file is
 * absent or lacks the baseline), or a sysexits code with *d filled. */
static int xmap_load(const char *dir, const table *t, xmap *x, gb_diag *d)
{
    memset(x, 0, sizeof *x);
    static const char *const need[6] = { "map", "scen", "line", "solver", "queue", "time_ns" };
    int idx[6];
    gb_csv c;
    int rc = open_run_csv(dir, "queries.csv", need, 6, idx, &c, d);
    if (rc) return rc == 1 ? 0 : rc;
    char path[4200];
    snprintf(path, sizeof path, "%s/queries.csv", dir);
    const int cost_col = gb_csv_col(&c, "dijkstra_cost");
    gb_strtab maps = { 0 }, pairs = { 0 }, queries = { 0 };
    int32_t *rq = NULL, *rp = NULL, *qmap = NULL;
    double *rt = NULL, *tm = NULL, *bt = NULL, *a = NULL, *b = NULL, *sp = NULL;
    size_t *off = NULL;
    const gb_boot boot = { GB_BOOT_RESAMPLES, GB_BOOT_SEED, GB_BOOT_LEVEL };
    size_t nr = 0, cap = 0, qcap = 0;
    char key[1024];
    while ((rc = gb_csv_next(&c, d)) == 0) {
        if (nr == cap) {
            cap = cap ? 2 * cap : 1024;
            int32_t *q2 = gb_realloc(rq, cap * sizeof *q2);
            if (q2) rq = q2;
            int32_t *p2 = q2 ? gb_realloc(rp, cap * sizeof *p2) : NULL;
            if (p2) rp = p2;
            double *t2 = p2 ? gb_realloc(rt, cap * sizeof *t2) : NULL;
            if (!t2) { rc = EX_OSERR; break; }
            rt = t2;
        }
        const char *map = gb_csv_field(&c, idx[0]);
        int32_t mi = gb_strtab_intern(&maps, map, NULL);
        snprintf(key, sizeof key, "%s\x1f%s\x1f%s", map, gb_csv_field(&c, idx[1]), gb_csv_field(&c, idx[2]));
        int added = 0;
        int32_t qi = mi < 0 ? -1 : gb_strtab_intern(&queries, key, &added);
        snprintf(key, sizeof key, "%s\x1f%s", gb_csv_field(&c, idx[3]), gb_csv_field(&c, idx[4]));
        int32_t pi = qi < 0 ? -1 : gb_strtab_intern(&pairs, key, NULL);
        if (pi < 0) { rc = EX_OSERR; break; }
        if (added) {
            if ((size_t)qi >= qcap) {
                qcap = qcap ? 2 * qcap : 1024;
                int32_t *m2 = gb_realloc(qmap, qcap * sizeof *m2);
                if (!m2) { rc = EX_OSERR; break; }
                qmap = m2;
            }
            qmap[qi] = mi;
            if ((size_t)mi >= x->nsl) {   /* a new map: maps are interned in order */
                xslice *ns = gb_realloc(x->sl, ((size_t)mi + 1) * sizeof *ns);
                if (!ns) { rc = EX_OSERR; break; }
                x->sl = ns;
                x->nsl = (size_t)mi + 1;
                snprintf(x->sl[mi].name, sizeof x->sl[mi].name, "%s", map);
                x->sl[mi].nq = 0;
                x->sl[mi].lmin = x->sl[mi].lmax = NAN;
            }
            xslice *sl = &x->sl[mi];
            sl->nq++;
            double len = cost_col >= 0 ? numf(gb_csv_field(&c, cost_col)) : NAN;
            if (len >= 0) {
                if (isnan(sl->lmin) || len < sl->lmin) sl->lmin = len;
                if (isnan(sl->lmax) || len > sl->lmax) sl->lmax = len;
            }
        }
        rq[nr] = qi;
        rp[nr] = pi;
        rt[nr] = numf(gb_csv_field(&c, idx[5]));
        nr++;
    }
    gb_csv_close(&c);
    if (rc == GB_CSV_EOF) rc = 0;
    if (rc == EX_OSERR) gb_diag_set(d, EX_OSERR, path, 0, 0, "expected memory, found none");
    int32_t base = rc ? -1 : gb_strtab_find(&pairs, "dijkstra\x1f" "bheap");
    if (rc || base < 0) goto out;
    const size_t nq = queries.n, nm = maps.n;
    x->nmaps = nm;
    /* the solvers, in summary order, each on its reference pair */
    x->s = gb_calloc(t->n ? t->n : 1, sizeof *x->s);
    tm = gb_malloc((nq ? nq : 1) * sizeof *tm);
    bt = gb_malloc((nq ? nq : 1) * sizeof *bt);
    a = gb_malloc((nq ? nq : 1) * sizeof *a);
    b = gb_malloc((nq ? nq : 1) * sizeof *b);
    sp = gb_malloc((nm ? nm : 1) * sizeof *sp);
    off = gb_malloc((nm + 1) * sizeof *off);
    if (!x->s || !tm || !bt || !a || !b || !sp || !off) {
        rc = gb_diag_set(d, EX_OSERR, path, 0, 0, "expected memory, found none");
        goto out;
    }
    for (size_t q = 0; q < nq; q++) bt[q] = NAN;
    for (size_t r = 0; r < nr; r++) if (rp[r] == base) bt[rq[r]] = rt[r];
    for (size_t i = 0; i < t->n; i++) {
        const srow *sr = &t->r[i];
        int seen = 0;
        for (size_t k = 0; k < x->n; k++) seen |= strcmp(x->s[k].solver, sr->solver) == 0;
        if (seen || strcmp(sr->solver, "dijkstra") == 0) continue;
        snprintf(key, sizeof key, "%s\x1f%s", sr->solver, t->ref);
        int32_t pi = gb_strtab_find(&pairs, key);
        const char *queue = t->ref;
        if (pi < 0) {   /* its first queue in summary order */
            snprintf(key, sizeof key, "%s\x1f%s", sr->solver, sr->queue);
            pi = gb_strtab_find(&pairs, key);
            queue = sr->queue;
        }
        if (pi < 0) continue;
        xsolver *xs = &x->s[x->n++];
        xs->solver = sr->solver;
        xs->queue = queue;
        xs->guarantee = sr->guarantee;
        xs->est = xs->lo = xs->hi = xs->smin = xs->smax = NAN;
        if (other_source(sr, find_row(t, sr->map, "dijkstra", "bheap"))) {
            xs->other = sr->src;
            continue;
        }
        for (size_t q = 0; q < nq; q++) tm[q] = NAN;
        for (size_t r = 0; r < nr; r++) if (rp[r] == pi) tm[rq[r]] = rt[r];
        /* the pairs of each map, in file order, map after map */
        size_t n = 0;
        for (size_t m = 0; m < nm; m++) {
            off[m] = n;
            for (size_t q = 0; q < nq; q++)
                if (qmap[q] == (int32_t)m && !isnan(bt[q]) && !isnan(tm[q])) {
                    a[n] = bt[q];
                    b[n] = tm[q];
                    n++;
                }
        }
        off[nm] = n;
        gb_ci ci;
        size_t used = 0;
        if (gb_boot_strat_ratio(a, b, off, nm, &boot, &ci, sp, &used) != 0) {
            rc = gb_diag_set(d, EX_OSERR, path, 0, 0, "expected memory, found none");
            goto out;
        }
        xs->maps = (int)used;
        xs->est = ci.est;
        xs->lo = ci.lo;
        xs->hi = ci.hi;
        for (size_t m = 0; m < nm; m++) {
            if (!(sp[m] > 0)) continue;
            if (isnan(xs->smin) || sp[m] < xs->smin) {
                xs->smin = sp[m];
                snprintf(xs->min_map, sizeof xs->min_map, "%s", maps.str[m]);
            }
            if (isnan(xs->smax) || sp[m] > xs->smax) {
                xs->smax = sp[m];
                snprintf(xs->max_map, sizeof xs->max_map, "%s", maps.str[m]);
            }
        }
    }
    qsort(x->s, x->n, sizeof *x->s, cmp_xsolver);
    x->have = 1;
out:
    gb_free(rq); gb_free(rp); gb_free(rt); gb_free(qmap);
    gb_free(tm);
    gb_free(bt);
    gb_free(a);
    gb_free(b);
    gb_free(sp);
    gb_free(off);
    gb_strtab_free(&maps);
    gb_strtab_free(&pairs);
    gb_strtab_free(&queries);
    if (rc) xmap_free(x);
    return rc;
}

static void section_across(doc *d, const table *t, const xmap *x)
{
    if (!x->have || x->n == 0) return;
    d_heading(d, 3, "across-maps", "Across maps: geometric-mean speedup over Dijkstra");
    d_para(d, "Per solver (on queue `%s`): the geometric mean over the %zu maps of its per-map speedup over "
           "`dijkstra` on `bheap` (median time ratio on the same queries, as in the per-map tables), so every "
           "map counts alike whatever its size.  Brackets: 95 %% interval, stratified paired bootstrap over each "
           "map's queries (%d resamples, seeded: see the notes).  Two solvers whose intervals overlap are a tie.",
           t->ref, x->nmaps, GB_BOOT_RESAMPLES);
    static const char *const hdr[] = { "solver", "queue", "guarantee", "maps", "geometric-mean speedup [95% CI]",
                                       "lowest map", "highest map" };
    d_tab tb;
    D_TAB_OPEN(&tb, d, hdr, "lllrrll");
    for (size_t i = 0; i < x->n; i++) {
        const xsolver *s = &x->s[i];
        char fx[96];
        d_set(&tb, 0, "`%s`", s->solver);
        d_set(&tb, 1, "`%s`", s->queue);
        d_set(&tb, 2, "%s", s->guarantee);
        d_set(&tb, 3, "%d", s->maps);
        if (s->other) d_set(&tb, 4, "no speedup (timed as `%s`)", s->other);
        else fmt_x_ci(d_cell(&tb, 4), D_CELL, s->est, s->lo, s->hi);
        if (s->min_map[0]) d_set(&tb, 5, "%s `%s`", fmt_x(fx, sizeof fx, s->smin), s->min_map);
        else d_set(&tb, 5, "-");
        if (s->max_map[0]) d_set(&tb, 6, "%s `%s`", fmt_x(fx, sizeof fx, s->smax), s->max_map);
        else d_set(&tb, 6, "-");
        d_tab_row(&tb);
    }
    d_tab_close(&tb);
}

/* ---- sections ---------------------------------------------------------- */

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

/* Join the strings of a JSON array with ", " (each in `code`). */
static void join_names(const gb_jv *arr, char *out, size_t n)
{
    out[0] = '\0';
    if (!arr || arr->type != GB_JV_ARR) { snprintf(out, n, "-"); return; }
    size_t k = 0;
    for (size_t i = 0; i < arr->n && k + 4 < n; i++) {
        int w = snprintf(out + k, n - k, "%s`%s`", i ? ", " : "", gb_jv_str(&arr->items[i], "?"));
        if (w < 0) break;
        k += (size_t)w;
    }
    if (k >= n) out[n - 1] = '\0';
}

static void env_row(d_tab *t, const char *key, const char *val)
{
    const char *cells[2] = { key, val };
    d_tab_put(t, cells);
}

static void section_env(doc *d, const gb_jv *env, const xmap *x)
{
    char b[4096], c[1024];
    d_heading(d, 2, "environment", "Environment");
    fputs("<div class=\"env\">\n", d->html);
    static const char *const hdr[2] = { "item", "value" };
    d_tab t;
    D_TAB_OPEN(&t, d, hdr, "ll");
    const gb_jv *run = gb_jv_get(env, "run");
    snprintf(b, sizeof b, "`%s`", gb_jv_str(gb_jv_get(run, "run_id"), "?"));
    env_row(&t, "Run", b);
    env_row(&t, "Date (UTC)", gb_jv_str(gb_jv_get(env, "date"), "unknown"));
    snprintf(b, sizeof b, "`%s`", gb_jv_str(gb_jv_get(env, "commit"), "unknown"));
    env_row(&t, "Commit", b);
    snprintf(b, sizeof b, "%s, %.0f logical cores", gb_jv_str(gb_jv_get(env, "cpu"), "unknown"),
             gb_jv_num(gb_jv_get(env, "cores"), 0));
    env_row(&t, "CPU", b);
    env_row(&t, "Kernel", gb_jv_str(gb_jv_get(env, "kernel"), "unknown"));
    env_row(&t, "Host", gb_jv_str(gb_jv_get(env, "host"), "unknown"));
    const gb_jv *la = gb_jv_get(env, "load_avg");
    if (la && la->type == GB_JV_ARR && la->n == 3) {
        snprintf(b, sizeof b, "%.2f, %.2f, %.2f (1, 5, 15 minutes, before the run)",
                 gb_jv_num(&la->items[0], NAN), gb_jv_num(&la->items[1], NAN), gb_jv_num(&la->items[2], NAN));
        env_row(&t, "Load average", b);
    }
    env_row(&t, "Compiler", gb_jv_str(gb_jv_get(env, "compiler"), "unknown"));
    snprintf(b, sizeof b, "`%s`", gb_jv_str(gb_jv_get(env, "cflags"), "unknown"));
    env_row(&t, "Build flags", b);
    const gb_jv *cal = gb_jv_get(env, "calibration");
    if (cal && cal->type == GB_JV_OBJ) {
        snprintf(b, sizeof b, "single-source Dijkstra on `%s` (%s): median %.2f ms over %.0f runs, "
                 "%.2f M cells/s (compare machines by this figure)",
                 gb_jv_str(gb_jv_get(cal, "map"), "?"), gb_jv_str(gb_jv_get(cal, "model"), "?"),
                 gb_jv_num(gb_jv_get(cal, "median_ns"), NAN) / 1e6, gb_jv_num(gb_jv_get(cal, "runs"), NAN),
                 gb_jv_num(gb_jv_get(cal, "cells_per_s"), NAN) / 1e6);
        env_row(&t, "Calibration", b);
    }
    snprintf(b, sizeof b, "`%s`", gb_jv_str(gb_jv_get(run, "model"), "?"));
    env_row(&t, "Movement model", b);
    double count = gb_jv_num(gb_jv_get(run, "count"), 0);
    snprintf(b, sizeof b, "%.0f timed runs per query and pair (cold = the first; warm, the time reported, = the median of the others)",
             gb_jv_num(gb_jv_get(run, "reps"), NAN));
    env_row(&t, "Repetitions", b);
    double jobs = gb_jv_num(gb_jv_get(run, "jobs"), 1);
    if (jobs > 1) {
        snprintf(b, sizeof b, "%.0f worker processes, each pinned to its own CPU when there were "
                 "enough (times measured side by side with other workers: see docs/timing.md)", jobs);
        env_row(&t, "Parallel", b);
    }
    const char *from = gb_jv_str(gb_jv_get(run, "queries_from"), "gridbench run");
    if (strcmp(from, "gridbench run") != 0) {
        snprintf(b, sizeof b, "`%s` (not run in this folder, e.g. merged from shards)", from);
        env_row(&t, "Per-query rows", b);
    }
    double sample = gb_jv_num(gb_jv_get(run, "sample"), 0);
    if (count > 0 || sample > 0) {
        char c1[64] = "", c2[96] = "";
        if (count > 0) snprintf(c1, sizeof c1, "the first %.0f queries of each scenario", count);
        if (sample > 0)
            snprintf(c2, sizeof c2, "%sabout %.0f evenly spaced queries (every k-th, all lengths)",
                     count > 0 ? "; of those, " : "of each scenario, ", sample);
        snprintf(b, sizeof b, "%s%s", c1, c2);
        env_row(&t, "Queries", b);
    } else {
        env_row(&t, "Queries", "every query of each scenario");
    }
    if (x && x->nsl) {   /* what the slice covers, from queries.csv */
        size_t k = 0;
        b[0] = '\0';
        for (size_t i = 0; i < x->nsl && k + 16 < sizeof b; i++) {
            const xslice *sl = &x->sl[i];
            int w = isnan(sl->lmin)
                ? snprintf(b + k, sizeof b - k, "%s`%s`: %zu queries", i ? "; " : "", sl->name, sl->nq)
                : snprintf(b + k, sizeof b - k, "%s`%s`: %zu queries, optimal lengths %.1f to %.1f", i ? "; " : "",
                           sl->name, sl->nq, sl->lmin, sl->lmax);
            if (w < 0 || (size_t)w >= sizeof b - k) break;
            k += (size_t)w;
        }
        env_row(&t, "Slice per map", b);
    }
    join_names(gb_jv_get(run, "solvers"), b, sizeof b);
    env_row(&t, "Solvers", b);
    join_names(gb_jv_get(run, "queues"), b, sizeof b);
    env_row(&t, "Queues", b);
    const gb_jv *sc = gb_jv_get(run, "scenarios");
    if (sc && sc->type == GB_JV_ARR) {
        size_t k = 0;
        b[0] = '\0';
        size_t shown = sc->n > 12 ? 10 : sc->n;   /* long lists: the first ten */
        for (size_t i = 0; i < shown && k + 8 < sizeof b; i++) {
            const char *p = gb_jv_str(gb_jv_get(&sc->items[i], "path"), "?");
            const char *h = gb_jv_str(gb_jv_get(&sc->items[i], "sha256"), "?");
            int w = snprintf(b + k, sizeof b - k, "%s`%s` (SHA-256 `%.12s…`)", i ? ", " : "", p, h);
            if (w < 0) break;
            k += (size_t)w;
        }
        if (k >= sizeof b) k = sizeof b - 1;
        if (shown < sc->n)
            snprintf(b + k, sizeof b - k, " and %zu more (every path and SHA-256 in `env.json`)",
                     sc->n - shown);
        env_row(&t, "Scenarios", b);
    }
    const gb_jv *hf = gb_jv_get(run, "hyperfine");
    if (hf && hf->type == GB_JV_OBJ) {
        join_names(gb_jv_get(hf, "solvers"), c, sizeof c);
        snprintf(b, sizeof b, "%.0f runs after %.0f warm-up per command, scenario `%s`, solvers %s",
                 gb_jv_num(gb_jv_get(hf, "runs"), NAN), gb_jv_num(gb_jv_get(hf, "warmup"), NAN),
                 base_name(gb_jv_str(gb_jv_get(hf, "scen"), "?")), c);
        env_row(&t, "hyperfine", b);
    }
    d_tab_close(&t);
    fputs("</div>\n", d->html);
    d_para(d, "Full record: `env.json`; per-query rows: `queries.csv`; statistics: `summary.csv`.");
}

static void status_text(const srow *r, char *b, size_t n)
{
    size_t k = 0;
    b[0] = '\0';
    for (int s = 0; s < ST_N; s++) {
        if (r->st[s] <= 0) continue;
        int w = snprintf(b + k, n - k, "%s%.0f %s", k ? ", " : "", r->st[s], gb_row_status_name((gb_row_status)s));
        if (w < 0 || (size_t)w >= n - k) break;
        k += (size_t)w;
    }
    if (!k) snprintf(b, n, "-");
}

/* A headline: the optimal solvers slower than Dijkstra on map (on the
 * reference queue), when their whole speedup interval is below 1. */
static void headline_slower(doc *d, const table *t, const char *map, const srow *base)
{
    char fx[96];
    if (!base) return;
    char slow[1024] = "";
    size_t sk = 0;
    for (size_t i = 0; i < t->n; i++) {
        const srow *r = &t->r[i];
        if (strcmp(r->map, map) || r == base || ref_row(t, map, r->solver) != r) continue;
        if (strcmp(r->guarantee, "optimal") || isnan(r->speedup) || r->speedup >= 1.0) continue;
        if (!isnan(r->sp_hi) && r->sp_hi >= 1.0) continue; /* interval holds 1: a tie */
        int w = snprintf(slow + sk, sizeof slow - sk, "%s`%s` %s", sk ? ", " : "", r->solver,
                         fmt_x_ci(fx, sizeof fx, r->speedup, r->sp_lo, r->sp_hi));
        if (w < 0 || (size_t)w >= sizeof slow - sk) break;
        sk += (size_t)w;
    }
    if (sk)
        d_item(d,
               "`%s`: slower than Dijkstra here (speedup and its whole interval below 1, queue "
               "`%s`): %s.",
               map, t->ref, slow);
}

/* The headlines of one map: its fastest optimal solver (or the tie), the
 * runner-up and the queue that won, the fastest of all, the fewest
 * expansions; then the solvers slower than Dijkstra.  *unranked is set
 * when a row was timed by another clock (not ranked). */
static void headline_map(doc *d, const table *t, const char *map, int *unranked)
{
    char a[64], b2[64], c2[64], fx[96], fy[96], ci[96], px[64], py[64];
    const srow *best = NULL, *bestany = NULL, *fewest = NULL;
    const srow *base = find_row(t, map, "dijkstra", "bheap");
    for (size_t i = 0; i < t->n; i++) {
        const srow *r = &t->r[i];
        if (strcmp(r->map, map) || failures(r) > 0) continue;
        if (other_source(r, base)) { /* another clock: not ranked */
            *unranked = 1;
            continue;
        }
        if (!bestany || r->t_med < bestany->t_med) bestany = r;
        if (strcmp(r->guarantee, "optimal") != 0) continue;
        if (!best || r->t_med < best->t_med) best = r;
        if (!fewest || r->exp_mean < fewest->exp_mean) fewest = r;
    }
    if (!best && !bestany) {
        d_item(d, "`%s`: every solver failed on some query (see below).", map);
        return;
    }
    char line[2048];
    int k = 0;
    if (best) {
        /* the runner-up among the other solvers, and among best's other queues */
        const srow *rival = NULL, *qrival = NULL;
        for (size_t i = 0; i < t->n; i++) {
            const srow *r = &t->r[i];
            if (strcmp(r->map, map) || failures(r) > 0 || strcmp(r->guarantee, "optimal") != 0
                || other_source(r, base))
                continue;
            if (strcmp(r->solver, best->solver) != 0) {
                if (!rival || r->t_med < rival->t_med) rival = r;
            } else if (r != best && (!qrival || r->t_med < qrival->t_med)) {
                qrival = r;
            }
        }
        int stie = rival ? tie_of(best, rival) : 0, qtie = qrival ? tie_of(best, qrival) : 0;
        if (stie == 1) {
            k = snprintf(
                line, sizeof line,
                "`%s`: fastest optimal solver: **a tie** between `%s` on `%s` "
                "(median %s µs, speedup %s%s) and `%s` on `%s` (median %s µs, speedup %s%s): their "
                "95 %% intervals overlap",
                map, best->solver, best->queue, fmt_us(a, sizeof a, best->t_med),
                fmt_x_ci(fx, sizeof fx, best->speedup, best->sp_lo, best->sp_hi),
                fmt_prep(px, sizeof px, best), rival->solver, rival->queue,
                fmt_us(b2, sizeof b2, rival->t_med),
                fmt_x_ci(fy, sizeof fy, rival->speedup, rival->sp_lo, rival->sp_hi),
                fmt_prep(py, sizeof py, rival));
        } else {
            k = snprintf(line, sizeof line,
                         "`%s`: fastest optimal solver **`%s`** (on `%s`), median %s µs "
                         "per query %s",
                         map, best->solver, best->queue, fmt_us(a, sizeof a, best->t_med),
                         fmt_us_ci(ci, sizeof ci, best->t_lo, best->t_hi));
            if (base && !isnan(best->speedup) && best != base)
                k += snprintf(line + k, sizeof line - (size_t)k,
                              ", %s%s faster than `dijkstra` on `bheap` "
                              "(%s µs)",
                              fmt_x_ci(fx, sizeof fx, best->speedup, best->sp_lo, best->sp_hi),
                              fmt_prep(px, sizeof px, best), fmt_us(b2, sizeof b2, base->t_med));
            if (rival && stie == 0)
                k += snprintf(line + k, sizeof line - (size_t)k,
                              "; its interval is clear of the runner-up "
                              "`%s` (on `%s`, %s%s)",
                              rival->solver, rival->queue,
                              fmt_x_ci(fy, sizeof fy, rival->speedup, rival->sp_lo, rival->sp_hi),
                              fmt_prep(py, sizeof py, rival));
            if (stie < 0 || qtie < 0)
                k += snprintf(line + k, sizeof line - (size_t)k,
                              " (summary.csv has no intervals: rerun "
                              "`gridbench summary` to tell winners from ties)");
        }
        if (qrival && qtie == 1 && k < (int)sizeof line)
            k += snprintf(line + k, sizeof line - (size_t)k,
                          "; queue for `%s`: **a tie** between `%s` and "
                          "`%s` (intervals overlap)",
                          best->solver, best->queue, qrival->queue);
        else if (qrival && qtie == 0 && k < (int)sizeof line)
            k += snprintf(line + k, sizeof line - (size_t)k,
                          "; queue for `%s`: `%s` beats `%s` (intervals "
                          "apart)",
                          best->solver, best->queue, qrival->queue);
    } else {
        k = snprintf(line, sizeof line, "`%s`: no optimal solver ran without failures", map);
    }
    if (bestany && bestany != best && k < (int)sizeof line)
        k += snprintf(line + k, sizeof line - (size_t)k,
                      "; fastest of all: `%s` on `%s` (%s, "
                      "median %s µs, %s%s faster than Dijkstra, paths %s × optimal on average)",
                      bestany->solver, bestany->queue,
                      strcmp(bestany->guarantee, "bounded") == 0 ? "bounded suboptimal" : "no guarantee",
                      fmt_us(a, sizeof a, bestany->t_med),
                      fmt_x_ci(fx, sizeof fx, bestany->speedup, bestany->sp_lo, bestany->sp_hi),
                      fmt_prep(px, sizeof px, bestany), fmt_num(c2, sizeof c2, bestany->sub_mean, 3));
    if (fewest && base && fewest->exp_mean > 0 && k < (int)sizeof line)
        snprintf(line + k, sizeof line - (size_t)k,
                 "; fewest expansions among optimal solvers: `%s` "
                 "(mean %s, %s fewer than Dijkstra's %s).",
                 fewest->solver, fmt_num(a, sizeof a, fewest->exp_mean, 0),
                 fmt_x(fx, sizeof fx, base->exp_mean / fewest->exp_mean),
                 fmt_num(b2, sizeof b2, base->exp_mean, 0));
    else if (k < (int)sizeof line) snprintf(line + k, sizeof line - (size_t)k, ".");
    d_item(d, "%s", line);
    headline_slower(d, t, map, base);
}

/* The headline on failures: none, or every failing pair with its statuses. */
static void headline_failures(doc *d, const table *t)
{
    double nfail = 0, rows = 0;
    for (size_t i = 0; i < t->n; i++) { nfail += failures(&t->r[i]); rows += t->r[i].n; }
    if (nfail == 0) {
        d_item(d, "**No solver failures**: all %.0f rows returned a valid path within the solver's "
               "guarantee (or agreed with Dijkstra that there is none).", rows);
    } else {
        d_item(d, "**%.0f solver failures** in %.0f rows (invalid path, suboptimal beyond the guarantee, "
               "false unreachable, or an external solver or worker that failed):", nfail, rows);
        fputs("<ul>\n", d->html);
        for (size_t i = 0; i < t->n; i++) {
            const srow *r = &t->r[i];
            if (failures(r) == 0) continue;
            char st[256];
            status_text(r, st, sizeof st);
            char buf[1024];
            snprintf(buf, sizeof buf, "`%s` / `%s` on `%s`: %s", r->solver, r->queue, r->map, st);
            fputs("    - ", d->md);
            md_inline(d->md, buf, 0);
            fputc('\n', d->md);
            fputs("<li class=\"bad\">", d->html);
            html_inline(d->html, buf);
            fputs("</li>\n", d->html);
        }
        fputs("</ul>\n", d->html);
    }
}

/* The headline on the scenario files: per map the largest count of
 * scen_mismatch over its pairs. */
static void headline_scen(doc *d, const table *t)
{
    double nscen = 0;
    char maps[2048] = "";
    size_t mk = 0;
    for (size_t m = 0; m < t->nmaps; m++) {
        double mx = 0;
        for (size_t i = 0; i < t->n; i++)
            if (!strcmp(t->r[i].map, t->maps[m]) && t->r[i].st[GB_ROW_SCEN_MISMATCH] > mx) mx = t->r[i].st[GB_ROW_SCEN_MISMATCH];
        if (mx > 0) {
            int w = snprintf(maps + mk, sizeof maps - mk, "%s`%s` (%.0f)", mk ? ", " : "", t->maps[m], mx);
            if (w > 0 && (size_t)w < sizeof maps - mk) mk += (size_t)w;
        }
        nscen += mx;
    }
    if (nscen == 0)
        d_item(d, "Every scenario's printed optimal length agrees with Dijkstra's.");
    else
        d_item(d, "**%.0f queries** whose printed length disagrees with Dijkstra's optimum "
               "(status `scen_mismatch`; the solvers are not at fault): %s.", nscen, maps);
}

/* The headline on whole processes (hyperfine.json), when there is one. */
static void headline_hyperfine(doc *d, const gb_jv *hf)
{
    const gb_jv *res = gb_jv_get(hf, "results");
    if (res && res->type == GB_JV_ARR && res->n > 0) {
        const gb_jv *fast = NULL;
        for (size_t i = 0; i < res->n; i++)
            if (!fast || gb_jv_num(gb_jv_get(&res->items[i], "mean"), INFINITY)
                         < gb_jv_num(gb_jv_get(fast, "mean"), INFINITY))
                fast = &res->items[i];
        d_item(d, "Whole `gridbench run` processes (hyperfine): fastest `%s`, %.1f ± %.1f ms per "
               "process: start-up, loading the map, the solver and the checks (the oracle's answers "
               "come from a cache the warm-up filled).  An overhead figure, not a ranking: the tables "
               "rank the solvers per query.",
               gb_jv_str(gb_jv_get(fast, "command"), "?"), gb_jv_num(gb_jv_get(fast, "mean"), NAN) * 1e3,
               gb_jv_num(gb_jv_get(fast, "stddev"), NAN) * 1e3);
    }
}

static void section_headlines(doc *d, const table *t, const gb_jv *hf, const gb_jv *env)
{
    int unranked = 0;
    d_heading(d, 2, "findings", "Headline findings");
    d_list_begin(d);
    const gb_jv *busy = gb_jv_get(env, "machine_busy");
    if (busy && busy->type == GB_JV_BOOL && busy->num != 0) /* first, so nobody misses it */
        d_item(d,
               "**Warning: the machine was busy while this was measured** (%s): every time "
               "here is noisier and slower than on a quiet machine; trust ratios measured side by "
               "side, and intervals, more than absolute times.",
               gb_jv_str(gb_jv_get(env, "machine_busy_why"), "?"));
    for (size_t m = 0; m < t->nmaps; m++) headline_map(d, t, t->maps[m], &unranked);
    if (unranked)
        d_item(d, "Solvers timed another way than the in-process ones (`time_source` `process`: an "
                  "external solver's protocol round trip; `plugin`: a call into a user library) are "
                  "not ranked against them above and have no speedup; their times are in the tables, "
                  "marked by that column.");
    headline_failures(d, t);
    headline_scen(d, t);
    headline_hyperfine(d, hf);
    d_list_end(d);
}

/* ---- heuristic verdicts --------------------------------------------------
 * DIR/heuristics-verdicts.csv, the --verdicts CSV of `gridbench
 * heuristics` (columns by header name), as a table: one row per
 * heuristic x weight x model, the verdict bold unless it is
 * admissible+consistent.  Absent file: no section.  0, or a sysexits code
 * with *dg filled (a malformed file). */
static int section_heur_verdicts(doc *d, const char *dir, gb_diag *dg)
{
    static const char *const need[] = { "map", "model", "heuristic", "weight", "goals", "verdict",
                                        "inadmissible_cells", "max_over", "inconsistent_edges",
                                        "max_violation", "mean_ratio", "registry" };
    enum { NV = sizeof need / sizeof need[0] };
    int idx[NV];
    gb_csv c;
    int rc = open_run_csv(dir, "heuristics-verdicts.csv", need, NV, idx, &c, dg);
    if (rc) return rc == 1 ? 0 : rc;
    d_heading(d, 3, "heuristic-verdicts", "Heuristics: admissible? consistent? (`gridbench heuristics`)");
    d_para(d, "From `heuristics-verdicts.csv` (`gridbench heuristics --verdicts`): each heuristic checked "
           "against exact distances to sampled goals over every reachable cell.  Admissible = never above the "
           "true distance; consistent = never drops by more than a move's cost.  A weighted heuristic "
           "(w > 1) is expected to fail both.  Registry: what `gridbench list` claims (**WRONG** = the "
           "claim failed on this map).");
    static const char *const hdr[] = { "heuristic", "weight", "model", "map", "goals", "verdict",
                                       "cells overestimated", "largest overestimate", "inconsistent moves",
                                       "largest violation", "mean h/h*", "registry" };
    d_tab t;
    D_TAB_OPEN(&t, d, hdr, "lrllrlrrrrrl");
    while ((rc = gb_csv_next(&c, dg)) == 0) {
        const char *verdict = gb_csv_field(&c, idx[5]);
        const int good = strcmp(verdict, "admissible+consistent") == 0;
        d_set(&t, 0, "`%s`", gb_csv_field(&c, idx[2]));
        d_set(&t, 1, "%s", gb_csv_field(&c, idx[3]));
        d_set(&t, 2, "`%s`", gb_csv_field(&c, idx[1]));
        d_set(&t, 3, "`%s`", gb_csv_field(&c, idx[0]));
        d_set(&t, 4, "%s", gb_csv_field(&c, idx[4]));
        d_set(&t, 5, good ? "%s" : "**%s**", verdict);
        d_set(&t, 6, "%s", gb_csv_field(&c, idx[6]));
        fmt_num(d_cell(&t, 7), D_CELL, numf(gb_csv_field(&c, idx[7])), 4);
        d_set(&t, 8, "%s", gb_csv_field(&c, idx[8]));
        fmt_num(d_cell(&t, 9), D_CELL, numf(gb_csv_field(&c, idx[9])), 4);
        fmt_num(d_cell(&t, 10), D_CELL, numf(gb_csv_field(&c, idx[10])), 4);
        const char *reg = gb_csv_field(&c, idx[11]);
        d_set(&t, 11, strncmp(reg, "WRONG", 5) == 0 ? "**%s**" : "%s", reg);
        d_tab_row(&t);
    }
    gb_csv_close(&c);
    d_tab_close(&t);
    return rc == GB_CSV_EOF ? 0 : rc;
}

/* GPPC's per-entry table (gppc.csv, `gridbench export --gppc-table`):
 * built-in solvers and GPPC entries in one table per map set, one row per
 * entry (a solver on its fastest queue), with the intervals and the
 * undominated mark.  A column with nothing to say on any row is dropped,
 * with a note why: "first 20 steps" when it equals the total on every row
 * (no entry returned its path in parts), "storage" when no entry kept
 * preprocessed data on disk.  Absent file: no section. */
static const char *const gppc_need[] = { "set",         "solver",     "queue",      "time_source",
                                         "regime",      "queries",    "solved",     "failed",
                                         "total_s",     "total_s_lo", "total_s_hi", "first20_s",
                                         "max_call_ms", "prep_s",     "storage_mb", "peak_mem_mb",
                                         "suboptimal",  "subopt_max", "undominated" };
enum { GPPC_NG = sizeof gppc_need / sizeof gppc_need[0], GPPC_NC = 13 };

/* Pass 1: does any row have a first-20 time apart from its total, or storage?
 * 0, 1 (no gppc.csv), or a sysexits code with *dg filled. */
static int gppc_scan(const char *dir, int *f20, int *sto, gb_diag *dg)
{
    gb_csv c;
    int idx[GPPC_NG], rc = open_run_csv(dir, "gppc.csv", gppc_need, GPPC_NG, idx, &c, dg);
    if (rc) return rc;
    *f20 = *sto = 0;
    while ((rc = gb_csv_next(&c, dg)) == 0) {
        const double t = numf(gb_csv_field(&c, idx[8])), f = numf(gb_csv_field(&c, idx[11]));
        *f20 |= !isnan(f) && fabs(f - t) > 1e-6 * (t > 1e-3 ? t : 1e-3);
        *sto |= numf(gb_csv_field(&c, idx[14])) > 0;
    }
    gb_csv_close(&c);
    return rc == GB_CSV_EOF ? 0 : rc;
}

static void gppc_cells(const gb_csv *c, const int *idx, char cell[GPPC_NC][256])
{
    const char *und = gb_csv_field(c, idx[18]);
    snprintf(cell[0], sizeof cell[0], "`%s`", gb_csv_field(c, idx[0]));
    snprintf(cell[1], sizeof cell[1], "`%s`", gb_csv_field(c, idx[1]));
    snprintf(cell[2], sizeof cell[2], "%s", gb_csv_field(c, idx[2]));
    snprintf(cell[3], sizeof cell[3], "%s", gb_csv_field(c, idx[4]));
    snprintf(cell[4], sizeof cell[4], "%s (%s solved%s%s)", gb_csv_field(c, idx[5]),
             gb_csv_field(c, idx[6]), strcmp(gb_csv_field(c, idx[7]), "0") ? ", failed " : "",
             strcmp(gb_csv_field(c, idx[7]), "0") ? gb_csv_field(c, idx[7]) : "");
    char a[64], b[64], e[64];
    fmt_num(a, sizeof a, 1e3 * numf(gb_csv_field(c, idx[8])), 3);
    fmt_num(b, sizeof b, 1e3 * numf(gb_csv_field(c, idx[9])), 3);
    fmt_num(e, sizeof e, 1e3 * numf(gb_csv_field(c, idx[10])), 3);
    snprintf(cell[5], sizeof cell[5], "%s [%s, %s]", a, b, e);
    fmt_num(cell[6], sizeof cell[6], 1e3 * numf(gb_csv_field(c, idx[11])), 3);
    fmt_num(cell[7], sizeof cell[7], numf(gb_csv_field(c, idx[12])), 3);
    fmt_num(cell[8], sizeof cell[8], 1e3 * numf(gb_csv_field(c, idx[13])), 3);
    const double mb = numf(gb_csv_field(c, idx[14]));
    if (mb > 0) fmt_bytes(cell[9], sizeof cell[9], mb * 1048576.0);
    else snprintf(cell[9], sizeof cell[9], "-");
    const double pm = numf(gb_csv_field(c, idx[15]));
    if (pm > 0) fmt_bytes(cell[10], sizeof cell[10], pm * 1048576.0);
    else snprintf(cell[10], sizeof cell[10], "-");
    fmt_num(a, sizeof a, numf(gb_csv_field(c, idx[17])), 4);
    snprintf(cell[11], sizeof cell[11], "%s (%s)", gb_csv_field(c, idx[16]), a);
    snprintf(cell[12], sizeof cell[12],
             strcmp(und, "1") == 0   ? "**yes**"
             : strcmp(und, "0") == 0 ? "no"
                                     : "-");
}

static int section_gppc(doc *d, const char *dir, gb_diag *dg)
{
    int f20, sto, rc = gppc_scan(dir, &f20, &sto, dg);
    if (rc) return rc == 1 ? 0 : rc;
    gb_csv c;
    int idx[GPPC_NG];
    if ((rc = open_run_csv(dir, "gppc.csv", gppc_need, GPPC_NG, idx, &c, dg)) != 0)
        return rc == 1 ? 0 : rc;
    d_heading(d, 3, "gppc-table", "GPPC's table: time, memory, preprocessing, suboptimality");
    d_para(
        d,
        "The figures the Grid-Based Path Planning Competition publishes per entry, per map set "
        "(`gppc.csv`, `gridbench export --gppc-table`).  An entry is a solver, as in GPPC: its row is "
        "the solver on its fastest queue (named; the queues are compared in the queue plots and the "
        "first screen).  Its preprocessing is its per-map index, built once and the same on every "
        "queue.  Columns: total query time with its 95 %% interval, the longest single call, "
        "preprocessing summed over the set's maps, peak search memory (`-` when not known, as for "
        "plugins), queries with a longer path than the optimum and "
        "the worst ratio.  **Undominated** (GPPC's Pareto front): no other entry of the set, timed in "
        "the same regime and by the same kind of clock, is at least as good in time, memory, "
        "preprocessing and suboptimality and better in one; `-` = not compared (a process timed over "
        "a pipe, or an entry with failures).  Fastest first.%s%s",
        f20 ? ""
            : "  *First 20 steps* is left out: it equals the total on every row, as no entry "
              "returned its path in parts (GPPC's incremental `GetPath`).",
        sto ? ""
            : "  *Storage* is left out: no entry kept preprocessed data on disk (gridbench's own "
              "solvers keep their index in memory, counted in peak memory).");
    static const char *const hdr_all[GPPC_NC] = { "set",
                                                  "solver",
                                                  "queue",
                                                  "regime",
                                                  "queries",
                                                  "total ms [95 % CI]",
                                                  "first 20 steps ms",
                                                  "max call ms",
                                                  "prep ms",
                                                  "storage",
                                                  "peak memory",
                                                  "suboptimal (max)",
                                                  "undominated" };
    static const char align_all[] = "lllllrrrrrrrl";
    const char *hdr[GPPC_NC];
    char align[GPPC_NC + 1];
    int keep[GPPC_NC], nk = 0;
    for (int k = 0; k < GPPC_NC; k++) {
        if ((k == 6 && !f20) || (k == 9 && !sto)) continue;
        keep[nk] = k;
        hdr[nk] = hdr_all[k];
        align[nk++] = align_all[k];
    }
    align[nk] = '\0';
    d_tab t;
    d_tab_open(&t, d, hdr, align);
    while ((rc = gb_csv_next(&c, dg)) == 0) {
        char cell[GPPC_NC][256];
        const char *cells[GPPC_NC];
        gppc_cells(&c, idx, cell);
        for (int k = 0; k < nk; k++) cells[k] = cell[keep[k]];
        d_tab_put(&t, cells);
    }
    gb_csv_close(&c);
    d_tab_close(&t);
    return rc == GB_CSV_EOF ? 0 : rc;
}

/* Rows by median time, fastest first; no median last; ties in summary
 * order (the rows lie in one array, in that order). */
static int cmp_by_median(const void *a, const void *b)
{
    const srow *x = *(const srow *const *)a, *y = *(const srow *const *)b;
    int nx = isnan(x->t_med), ny = isnan(y->t_med);
    if (nx != ny) return nx - ny;
    if (!nx && x->t_med != y->t_med) return x->t_med < y->t_med ? -1 : 1;
    return (x > y) - (x < y);
}

static void pair_table(doc *d, const table *t, const char *map, int all)
{
    static const char *const hdr[] = {
        "solver", "queue", "guarantee", "n", "median µs", "95% CI µs", "mean µs", "p95 µs", "IQR µs",
        "cold median µs", "mean expanded", "median expanded", "speedup [95% CI]", "subopt mean", "subopt max",
        "memory", "prep ms", "mean + prep/n µs", "status"
    };
    static const char align[] = "lllrrrrrrrrrrrrrrrl";
    d_tab tb;
    D_TAB_OPEN(&tb, d, hdr, align);
    /* one row per solver (reference queue) or every pair, fastest median first */
    const srow **rows = gb_malloc((t->n ? t->n : 1) * sizeof *rows);
    size_t nrows = 0;
    for (size_t i = 0; rows && i < t->n; i++) {
        const srow *r = &t->r[i];
        if (strcmp(r->map, map) == 0 && (all || ref_row(t, map, r->solver) == r)) rows[nrows++] = r;
    }
    if (rows) qsort(rows, nrows, sizeof *rows, cmp_by_median);
    for (size_t i = 0; i < nrows; i++) {
        const srow *r = rows[i];
        d_set(&tb, 0, "`%s`", r->solver);
        d_set(&tb, 1, "`%s`", r->queue);
        d_set(&tb, 2, "%s", r->guarantee);
        fmt_num(d_cell(&tb, 3), D_CELL, r->n, 0);
        fmt_us(d_cell(&tb, 4), D_CELL, r->t_med);
        fmt_us_ci(d_cell(&tb, 5), D_CELL, r->t_lo, r->t_hi);
        fmt_us(d_cell(&tb, 6), D_CELL, r->t_mean);
        fmt_us(d_cell(&tb, 7), D_CELL, r->t_p95);
        fmt_us(d_cell(&tb, 8), D_CELL, r->t_iqr);
        fmt_us(d_cell(&tb, 9), D_CELL, r->cold);
        fmt_num(d_cell(&tb, 10), D_CELL, r->exp_mean, 1);
        fmt_num(d_cell(&tb, 11), D_CELL, r->exp_med, 0);
        fmt_x_ci(d_cell(&tb, 12), D_CELL, r->speedup, r->sp_lo, r->sp_hi);
        fmt_num(d_cell(&tb, 13), D_CELL, r->sub_mean, 4);
        fmt_num(d_cell(&tb, 14), D_CELL, r->sub_max, 4);
        fmt_bytes(d_cell(&tb, 15), D_CELL, r->mem);
        /* preprocessing per map (landmarks, jump tables, subgoal graphs, an external
         * solver's start) apart, then amortised over the map's queries */
        fmt_num(d_cell(&tb, 16), D_CELL, isnan(r->prep) ? NAN : r->prep / 1e6, 2);
        fmt_us(d_cell(&tb, 17), D_CELL,
               isnan(r->prep) || !(r->n > 0) ? NAN : r->t_mean + r->prep / r->n);
        if (r->t_mean > r->t_p95) { /* an outlier: a few queries make the mean */
            strcat(d_cell(&tb, 6), " ‡");
            if (strcmp(d_cell(&tb, 17), "-") != 0) strcat(d_cell(&tb, 17), " ‡");
        }
        if (failures(r) > 0) {   /* bold: status_text leaves room for the markers */
            memcpy(d_cell(&tb, 18), "**", 2);
            status_text(r, d_cell(&tb, 18) + 2, D_CELL - 4);
            strcat(d_cell(&tb, 18), "**");
        } else {
            status_text(r, d_cell(&tb, 18), D_CELL);
        }
        d_tab_row(&tb);
    }
    gb_free(rows);
    d_tab_close(&tb);
}

/* Solvers that do not promise the grid optimum (bounded, none, and the
 * any-angle ones, whose subopt < 1 means shorter than the grid optimum):
 * per map, what their paths cost against what they save, on the
 * reference queue.  Nothing is written when every solver is optimal. */
static void section_tradeoff(doc *d, const table *t)
{
    size_t n = 0;
    for (size_t i = 0; i < t->n; i++) {
        const srow *r = &t->r[i];
        if (strcmp(r->guarantee, "optimal") != 0 && ref_row(t, r->map, r->solver) == r) n++;
    }
    if (n == 0) return;
    d_heading(d, 3, "tradeoff", "Paths that are not grid-optimal: length against speed");
    d_para(d, "Per map, each solver without an optimality guarantee on queue `%s`: its mean and "
           "largest cost / Dijkstra's optimum (`subopt`) and its mean cost / the straight line from start to goal "
           "(the Euclidean lower bound; `lb_ratio_mean`) beside its speedup over Dijkstra.  Bounded "
           "solvers promise subopt <= w; `none` promises nothing (HPA*, greedy search).  Any-angle "
           "solvers (`theta`, `SOLVER+smooth`) are costed by Euclidean length: subopt < 1 means "
           "shorter than the best grid path; under `--anyangle-model gppc` their subopt is against the "
           "exact any-angle optimum instead, and `anya` reaches it.  \"At the optimum\" is the share of "
           "queries solved optimally (subopt 1), as GPPC reports it (`-`: the centre model, which has no "
           "exact any-angle optimum).", t->ref);
    static const char *const hdr[] = { "map", "solver", "guarantee", "n", "subopt mean", "subopt max",
                                       "at the optimum", "cost / straight line", "speedup [95% CI]" };
    static const char align[] = "lllrrrrrr";
    d_tab tb;
    D_TAB_OPEN(&tb, d, hdr, align);
    for (size_t m = 0; m < t->nmaps; m++)
        for (size_t i = 0; i < t->n; i++) {
            const srow *r = &t->r[i];
            if (strcmp(r->map, t->maps[m]) != 0 || strcmp(r->guarantee, "optimal") == 0) continue;
            if (ref_row(t, r->map, r->solver) != r) continue;
            d_set(&tb, 0, "`%s`", r->map);
            d_set(&tb, 1, "`%s`", r->solver);
            d_set(&tb, 2, "%s", r->guarantee);
            fmt_num(d_cell(&tb, 3), D_CELL, r->n, 0);
            fmt_num(d_cell(&tb, 4), D_CELL, r->sub_mean, 4);
            fmt_num(d_cell(&tb, 5), D_CELL, r->sub_max, 4);
            if (isnan(r->oshare)) d_set(&tb, 6, "-");
            else d_set(&tb, 6, "%.1f %%", 100.0 * r->oshare);
            fmt_num(d_cell(&tb, 7), D_CELL, r->lbr, 4);
            fmt_x_ci(d_cell(&tb, 8), D_CELL, r->speedup, r->sp_lo, r->sp_hi);
            d_tab_row(&tb);
        }
    d_tab_close(&tb);
}

static int section_tables(doc *d, const table *t, const gb_jv *hf, const xmap *x, const char *dir, gb_diag *dg)
{
    d_heading(d, 2, "tables", "Tables");
    d_para(
        d,
        "Times are per query in microseconds: each query's warm time (the median of its "
        "timed repetitions after the first; the one run with `--reps 1`), then summarised over "
        "the queries (median, mean, 95th percentile, interquartile range); \"cold\" is the first "
        "repetition.  Speedup = median time of `dijkstra` on "
        "`bheap` / median time of the row, on the same queries.  Brackets hold 95 %% confidence "
        "intervals (bootstrap over the queries, see the notes); two figures whose intervals overlap "
        "are a tie.  Prep = the per-map preparation of the row's solver (landmark tables, jump "
        "tables, subgoal graphs, an external solver's start), shown apart and amortised over the "
        "map's queries (mean + prep / n); a solver's index is built once per map and charged alike "
        "to every queue it runs on.  ‡ marks a mean above the 95th percentile: a few slow queries make "
        "most of it (and of mean + prep / n), so compare medians.  Times of `time_source` process "
        "(external solvers) are "
        "round trips, not comparable with in-process times.  Memory = the largest "
        "workspace of the row's queries (search arrays, queue, landmarks: `mem_bytes`).  Expansions "
        "of `jps` and `jps+` count jump points, and those of `sg` and `sg-tl` subgoals, not cells: "
        "compare "
        "them with each other, not with the cell counts of the other solvers.");
    section_across(d, t, x);
    section_tradeoff(d, t);
    int grc = section_gppc(d, dir, dg);
    if (grc) return grc;
    for (size_t m = 0; m < t->nmaps; m++) {
        char h[512], id[64];
        snprintf(h, sizeof h, "`%s`: each solver on queue `%s`", t->maps[m], t->ref);
        snprintf(id, sizeof id, "map-%zu", m);
        d_heading(d, 3, id, h);
        pair_table(d, t, t->maps[m], 0);
    }
    const gb_jv *res = gb_jv_get(hf, "results");
    if (res && res->type == GB_JV_ARR && res->n > 0) {
        d_heading(d, 3, "hyperfine", "Whole-process timing (hyperfine)");
        d_para(d, "Wall time of complete `gridbench run` processes, one per solver (map loading, the "
               "Dijkstra oracle and path validation included), from `hyperfine.json`.");
        static const char *const hdr[] = { "command", "mean ± σ (ms)", "median (ms)", "min (ms)",
                                           "max (ms)", "user (ms)", "system (ms)", "runs", "relative" };
        static const char align[] = "lrrrrrrrr";
        double fastest = INFINITY;
        for (size_t i = 0; i < res->n; i++) {
            double v = gb_jv_num(gb_jv_get(&res->items[i], "mean"), INFINITY);
            if (v < fastest) fastest = v;
        }
        d_tab tb;
        D_TAB_OPEN(&tb, d, hdr, align);
        for (size_t i = 0; i < res->n; i++) {
            const gb_jv *r = &res->items[i];
            double mean = gb_jv_num(gb_jv_get(r, "mean"), NAN) * 1e3;
            const gb_jv *times = gb_jv_get(r, "times");
            d_set(&tb, 0, "`%s`", gb_jv_str(gb_jv_get(r, "command"), "?"));
            d_set(&tb, 1, "%.1f ± %.1f", mean, gb_jv_num(gb_jv_get(r, "stddev"), NAN) * 1e3);
            fmt_num(d_cell(&tb, 2), D_CELL, gb_jv_num(gb_jv_get(r, "median"), NAN) * 1e3, 1);
            fmt_num(d_cell(&tb, 3), D_CELL, gb_jv_num(gb_jv_get(r, "min"), NAN) * 1e3, 1);
            fmt_num(d_cell(&tb, 4), D_CELL, gb_jv_num(gb_jv_get(r, "max"), NAN) * 1e3, 1);
            fmt_num(d_cell(&tb, 5), D_CELL, gb_jv_num(gb_jv_get(r, "user"), NAN) * 1e3, 1);
            fmt_num(d_cell(&tb, 6), D_CELL, gb_jv_num(gb_jv_get(r, "system"), NAN) * 1e3, 1);
            d_set(&tb, 7, "%zu", times && times->type == GB_JV_ARR ? times->n : 0);
            d_set(&tb, 8, "%.2f", mean / (fastest * 1e3));
            d_tab_row(&tb);
        }
        d_tab_close(&tb);
    }
    d_heading(d, 3, "all-pairs", "Every solver × queue pair");
    fputs("<details>\n<summary>Show the full table per map (from <code>summary.csv</code>)</summary>\n", d->html);
    for (size_t m = 0; m < t->nmaps; m++) {
        char h[512];
        snprintf(h, sizeof h, "`%s`", t->maps[m]);
        d_para(d, "**%s**", h);
        pair_table(d, t, t->maps[m], 1);
    }
    fputs("</details>\n", d->html);
    return section_heur_verdicts(d, dir, dg);
}

/* ---- plots manifest ---------------------------------------------------- */

static const char *section_title(const char *s)
{
    static const char *const map[][2] = {
        { "time", "Search time vs path length" },
        { "expansions", "Expansions vs path length" },
        { "speedup", "Speedup over Dijkstra" },
        { "tradeoff", "Path length against speed-up (solvers that are not optimal)" },
        { "queues", "Priority queues compared" },
        { "cactus", "Cactus plot" },
        { "heuristics", "Heuristic accuracy (h / h*)" },
        { "footprint", "Search footprints" },
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (strcmp(map[i][0], s) == 0) return map[i][1];
    return s;
}

static int section_plots(doc *d, const char *dir, gb_diag *dg)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/plots.tsv", dir);
    FILE *f = fopen(path, "r");
    d_heading(d, 2, "plots", "Plots");
    if (!f) {
        d_para(d, "No plots were made for this run (no `plots.tsv`).");
        return 0;
    }
    char line[8192], last[128] = "";
    long ln = 0;
    int nsec = 0;
    while (fgets(line, sizeof line, f)) {
        ln++;
        line[strcspn(line, "\r\n")] = '\0';
        if (!line[0] || line[0] == '#') continue;
        char *fld[4];
        int n = 0;
        char *p = line;
        while (n < 4) {
            fld[n++] = p;
            char *tab = strchr(p, '\t');
            if (!tab) break;
            *tab = '\0';
            p = tab + 1;
        }
        if (n < 4) {
            fclose(f);
            return gb_diag_set(dg, EX_DATAERR, path, ln, 0, "expected 4 tab-separated fields "
                               "(section, png, svg, caption), found %d", n);
        }
        if (strcmp(fld[0], last) != 0) {
            char id[160];
            snprintf(last, sizeof last, "%s", fld[0]);
            snprintf(id, sizeof id, "plot-%s", fld[0]);
            d_heading(d, 3, id, section_title(fld[0]));
            nsec++;
        }
        int frc = d_figure(d, ln, fld[1], fld[2], fld[3], dg);
        if (frc) {
            fclose(f);
            return frc;
        }
    }
    fclose(f);
    if (!nsec) d_para(d, "No plots were made for this run.");
    return 0;
}

static void section_notes(doc *d, const char *dir, const table *t)
{
    char path[4200], line[4096];
    d_heading(d, 2, "notes", "Notes");
    d_list_begin(d);
    snprintf(path, sizeof path, "%s/notes.txt", dir);
    FILE *f = fopen(path, "r");
    if (f) {
        while (fgets(line, sizeof line, f)) {
            line[strcspn(line, "\r\n")] = '\0';
            if (line[0]) d_item(d, "%s", line);
        }
        fclose(f);
    }
    d_item(d, "Percentiles interpolate linearly between closest ranks (Hyndman & Fan type 7): "
           "over n sorted values, Q(p) = x[⌊h⌋] + (h − ⌊h⌋)(x[⌊h⌋+1] − x[⌊h⌋]) with h = (n−1)p.");
    d_item(d, "Confidence intervals (95 %%): percentile bootstrap over the queries, %d resamples, "
           "splitmix64 seed %d (`gridbench summary` computes them; `--resamples` and `--seed` change "
           "them).  The interval of a median time resamples the row's queries; the interval of a "
           "speedup resamples the queries shared with `dijkstra` on `bheap`, the same queries for both "
           "(paired).  A winner is named only when its interval does not overlap the runner-up's "
           "(speedup intervals when both rows have one, else median-time intervals); otherwise the "
           "report says **tie**.", GB_BOOT_RESAMPLES, GB_BOOT_SEED);
    d_item(d, "Across maps: the geometric mean of the per-map speedups (each map's median-time ratio "
           "over the queries it shares with `dijkstra` on `bheap`).  Its interval is a stratified bootstrap: "
           "each of %d resamples redraws every map's query pairs with replacement (a query keeps both of its "
           "times) and takes the geometric mean again; map m (its order in `queries.csv`, from 0) draws from "
           "its own splitmix64 stream, seeded s + m + 1 with s = %d.  Computed by `gridbench report` from `queries.csv`.",
           GB_BOOT_RESAMPLES, GB_BOOT_SEED);
    d_item(d, "`report.html` is one self-contained file: its images are embedded (PNG as `data:` "
           "URIs), it uses no JavaScript and links no other file, so it can be mailed or opened from "
           "anywhere.  `report.md` links the images, their SVG versions and the data in the run folder.");
    d_item(d, "Each row of `queries.csv` is one query × solver × queue; every path was checked by "
           "the independent validator and against the Dijkstra oracle (column `status`).");
    d_item(d, "Per-solver plots and the per-map tables show each solver on the reference queue `%s` "
           "(`bheap` when the run used it), or on its first queue when it never ran on that one "
           "(`bfs` runs only on `fifo`).", t->ref);
    d_list_end(d);
}

/* ---- command ----------------------------------------------------------- */

static int report_err(const gb_diag *d)
{
    fprintf(stderr, CMD ": ");
    gb_diag_print(d, stderr);
    return d->code;
}

int gb_cmd_report(int argc, char **argv)
{
    int rc = gb_opt_only_help(&gb_doc_report, argc, argv);
    if (rc != -1) return rc;
    if (argc - optind != 1) {
        fprintf(stderr, CMD ": expected one run directory, found %d arguments\n", argc - optind);
        gb_opt_help(&gb_doc_report, stderr);
        return EX_USAGE;
    }
    const char *dir = argv[optind];
    char path[4200], mdp[4200], htp[4200], mdt[4300], htt[4300];
    gb_diag d;
    gb_diag_clear(&d);
    gb_jv *env = NULL, *hf = NULL;
    table t;
    snprintf(path, sizeof path, "%s/env.json", dir);
    rc = gb_jv_load(path, &env, &d);
    if (rc) return report_err(&d);
    if (!env || env->type != GB_JV_OBJ) {
        gb_jv_free(env);
        gb_diag_set(&d, EX_DATAERR, path, 0, 0, "expected a JSON object, found another value");
        return report_err(&d);
    }
    snprintf(path, sizeof path, "%s/summary.csv", dir);
    if ((rc = table_load(path, &t, &d)) != 0) { gb_jv_free(env); return report_err(&d); }
    xmap xm;
    if ((rc = xmap_load(dir, &t, &xm, &d)) != 0) { gb_jv_free(env); table_free(&t); return report_err(&d); }
    snprintf(path, sizeof path, "%s/hyperfine.json", dir);
    FILE *probe = fopen(path, "r");
    if (probe) {
        fclose(probe);
        if ((rc = gb_jv_load(path, &hf, &d)) != 0) {
            gb_jv_free(env);
            table_free(&t);
            xmap_free(&xm);
            return report_err(&d);
        }
    }

    snprintf(mdp, sizeof mdp, "%s/report.md", dir);
    snprintf(htp, sizeof htp, "%s/report.html", dir);
    doc dc;
    dc.dir = dir;
    dc.missing = 0;
    dc.md = gb_tmp_open(mdp, mdt, sizeof mdt, &d);
    dc.html = dc.md ? gb_tmp_open(htp, htt, sizeof htt, &d) : NULL;
    if (!dc.md || !dc.html) {
        if (dc.md) gb_tmp_abort(dc.md, mdt);
        gb_jv_free(env);
        gb_jv_free(hf);
        table_free(&t);
        xmap_free(&xm);
        return report_err(&d);
    }
    const char *run_id = gb_jv_str(gb_jv_path(env, "run/run_id"), "run");
    char title[512];
    snprintf(title, sizeof title, "gridbench report %s", run_id);
    fprintf(dc.md, "# %s\n\n", title);
    fputs(html_head, dc.html);
    fputs("<h1>", dc.html);
    html_esc(dc.html, title, (size_t)-1);
    fputs("</h1>\n<nav><a href=\"#glance\">At a glance</a><a href=\"#findings\">Findings</a>"
          "<a href=\"#tables\">Tables</a><a href=\"#plots\">Plots</a><a "
          "href=\"#environment\">Environment</a>"
          "<a href=\"#notes\">Notes</a></nav>\n",
          dc.html);
    snprintf(path, sizeof path, "%s/queries.csv", dir);
    probe = fopen(path, "r"); /* the first screen needs the per-query rows */
    if (probe) fclose(probe);
    rc = probe ? section_glance(&dc, dir, &d) : 0;
    if (!rc) section_headlines(&dc, &t, hf, env);
    if (!rc) rc = section_tables(&dc, &t, hf, &xm, dir, &d);
    if (!rc) rc = section_plots(&dc, dir, &d);
    if (!rc) section_env(&dc, env, &xm);
    if (!rc) section_notes(&dc, dir, &t);
    fputs("</body>\n</html>\n", dc.html);
    if (rc) {
        gb_tmp_abort(dc.md, mdt);
        gb_tmp_abort(dc.html, htt);
    } else if ((rc = gb_tmp_commit(dc.md, mdt, mdp, &d)) != 0) {
        gb_tmp_abort(dc.html, htt);
    } else {
        rc = gb_tmp_commit(dc.html, htt, htp, &d);
    }
    gb_jv_free(env);
    gb_jv_free(hf);
    table_free(&t);
    xmap_free(&xm);
    if (rc) return report_err(&d);
    fprintf(stderr, CMD ": wrote %s and %s\n", mdp, htp);
    return 0;
}
