/*
 * test_report.c -- Criterion tests for the reporting chain: the CSV and
 * JSON readers (harness/core/gb_csv, harness/core/gb_jvalue), the statistics of
 * `gridbench summary` (harness/report/gb_summary), `gridbench footprint`,
 * `gridbench report`, and scripts/report.sh end to end.
 *
 *   quantile     gb_quantile is Hyndman & Fan type 7, value by value
 *   csv_reader   quoting, "" escapes, newlines in quotes, CRLF, BOM, blank
 *                lines, the pinned message for a short record
 *   json_reader  values, escapes (\u, surrogate pairs), pinned error text
 *   summary      a hand-written per-query CSV (shuffled and extra columns,
 *                a quoted map name with a comma, CRLF, unequal query sets)
 *                -> every figure of summary.csv as the header documents,
 *                the plot data, and the pinned errors; the CLI writes the
 *                same bytes as the library ($GB_BIN)
 *   footprint    a 6x3 map: the PPM's header, size and pixels, the tables
 *   report       `gridbench report` on hand-written run folders: winners
 *                and ties, tables, embedded images, the cross-map table
 *   plots        the gnuplot scripts on hand-written plot data
 *   report_browser  report.html in headless Chromium (scripts/check-html.sh)
 *   report_cli   usage errors of the new subcommands and of the script
 *   report_e2e   scripts/report.sh on a tiny generated dataset: every
 *                artefact exists and is well-formed (CSV headers and row
 *                counts, PNG signatures, SVG heads, every link of
 *                report.html and report.md resolves, env.json keys and
 *                checksums), and summary figures recomputed here from
 *                queries.csv match summary.csv
 *
 * The shared fixture is a run_dir: a fresh folder under /tmp and the log
 * of its last command (rd_open, rd_write, rd_env, rd_summary with the
 * rows of a summary.csv as a table of srow, rd_report, rd_slurp,
 * rd_close).  What a test expects is written as a table wherever the
 * same check repeats:
 *   - a page or a log against a table of `want`s: it HAS a string, LACKS
 *     it, has it ONCE, is it (EQ), STARTS with it, or has it AFTER the
 *     string of the check before (an order); EXPECT_TEXT names a failing
 *     check by its index, its string and its note, above the text;
 *   - the figures of a summary table as `cell`s: row, column, a string or
 *     a number within a tolerance (EXPECT_CELLS);
 *   - errors as tables of cases (the input, the exit status or code, the
 *     pinned message), walked in a loop whose messages name the case.
 *
 * Tests that run the binary take it from $GB_BIN (set by `make test`) and
 * are skipped without it, or when it lacks the new subcommands; the
 * end-to-end test runs from the repository root (the directory `make
 * test` runs in) and needs gnuplot and hyperfine.
 */
#include "gb_test.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gb_csv.h"
#include "gb_diag.h"
#include "gb_env.h"
#include "gb_jvalue.h"
#include "gb_run.h"
#include "gb_sha256.h"
#include "gb_status.h"
#include "gb_stats.h"
#include "gb_summary.h"

/* ---- helpers ---------------------------------------------------------- */

static void make_tmpdir(char *buf, size_t n)
{
    snprintf(buf, n, "/tmp/gb-test-report-XXXXXX");
    cr_assert(mkdtemp(buf) != NULL, "mkdtemp: %s", strerror(errno));
}

static void rm_rf(const char *dir)
{
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    cr_assert(f != NULL, "cannot create %s: %s", path, strerror(errno));
    fputs(text, f);
    cr_assert_eq(fclose(f), 0);
}

static char *slurp(const char *path, size_t *len)
{
    char *buf;
    size_t l;
    gb_diag d;
    int rc = gb_read_file(path, &buf, &l, &d);
    cr_assert_eq(rc, 0, "cannot read %s: %s", path, d.msg);
    if (len) *len = l;
    return buf;
}

static int file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Run a shell command (printf-style), output to log; the exit status. */
static int sh(const char *log, const char *fmt, ...) GB_PRINTF_LIKE(2, 3);
static int sh(const char *log, const char *fmt, ...)
{
    char cmd[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    char full[8400];
    snprintf(full, sizeof full, "( %s ) >'%s' 2>&1", cmd, log);
    int st = system(full);
    return st == -1 ? -1 : WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Last ~1500 bytes of a log, for failure messages. */
static const char *tail_of(const char *path)
{
    static char buf[1600];
    FILE *f = fopen(path, "rb");
    if (!f) return "(no log)";
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, n > 1500 ? n - 1500 : 0, SEEK_SET);
    size_t k = fread(buf, 1, sizeof buf - 1, f);
    buf[k] = '\0';
    fclose(f);
    return buf;
}

/* $GB_BIN when it is set and knows the reporting subcommands, else NULL. */
static const char *gb_bin_or_null(void)
{
    const char *bin = getenv("GB_BIN");
    if (!bin || !bin[0]) return NULL;
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "'%s' summary --help >/dev/null 2>&1 && '%s' footprint --help >/dev/null 2>&1"
             " && '%s' report --help >/dev/null 2>&1", bin, bin, bin);
    return system(cmd) == 0 ? bin : NULL;
}

/* The same, or skip the test. */
static const char *gb_bin(void)
{
    const char *bin = getenv("GB_BIN");
    if (!bin || !bin[0]) cr_skip_test("GB_BIN is not set (make test sets it)");
    if (!gb_bin_or_null())
        cr_skip_test("%s lacks the summary/footprint/report subcommands (register gb_cmd_summary, "
                     "gb_cmd_footprint and gb_cmd_report in harness/cli/main.c)", bin);
    return bin;
}

/* Type 7 quantile, written independently of gb_quantile (sorts a copy). */
static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}
static double q7(const double *v, size_t n, double p)
{
    double *x = malloc(n * sizeof *x);
    cr_assert(x != NULL);
    memcpy(x, v, n * sizeof *x);
    qsort(x, n, sizeof *x, cmp_d);
    double pos = p * (double)(n - 1);
    size_t i = (size_t)pos;
    double r = i + 1 < n ? x[i] + (pos - (double)i) * (x[i + 1] - x[i]) : x[n - 1];
    free(x);
    return r;
}

/* A CSV read completely: header names and the records, by column name. */
typedef struct table {
    char **hdr;
    int ncol;
    char ***row;    /* row[r][c] */
    size_t nrow;
} table;

static void table_load(const char *path, table *t)
{
    gb_csv c;
    gb_diag d;
    memset(t, 0, sizeof *t);
    cr_assert_eq(gb_csv_open(&c, path, &d), 0, "%s: %s", path, d.msg);
    t->ncol = c.nhdr;
    t->hdr = calloc((size_t)c.nhdr, sizeof *t->hdr);
    for (int i = 0; i < c.nhdr; i++) t->hdr[i] = strdup(c.hdr[i]);
    size_t cap = 0;
    int rc;
    while ((rc = gb_csv_next(&c, &d)) == 0) {
        if (t->nrow == cap) {
            cap = cap ? 2 * cap : 256;
            t->row = realloc(t->row, cap * sizeof *t->row);
            cr_assert(t->row != NULL);
        }
        char **r = calloc((size_t)c.nhdr, sizeof *r);
        for (int i = 0; i < c.nhdr; i++) r[i] = strdup(gb_csv_field(&c, i));
        t->row[t->nrow++] = r;
    }
    cr_assert_eq(rc, GB_CSV_EOF, "%s:%ld: %s", path, d.line, d.msg);
    gb_csv_close(&c);
}

static int tcol(const table *t, const char *name)
{
    for (int i = 0; i < t->ncol; i++)
        if (strcmp(t->hdr[i], name) == 0) return i;
    cr_assert_fail("no column '%s'", name);
    return -1;
}

static const char *tget(const table *t, size_t r, const char *name) { return t->row[r][tcol(t, name)]; }
static double tnum(const table *t, size_t r, const char *name) { return atof(tget(t, r, name)); }

static void table_free(table *t)
{
    for (size_t r = 0; r < t->nrow; r++) {
        for (int i = 0; i < t->ncol; i++) free(t->row[r][i]);
        free(t->row[r]);
    }
    for (int i = 0; i < t->ncol; i++) free(t->hdr[i]);
    free(t->row);
    free(t->hdr);
}

/* Row of (map, solver, queue) in a summary table, or -1. */
static long find_group(const table *t, const char *map, const char *solver, const char *queue)
{
    for (size_t r = 0; r < t->nrow; r++)
        if (!strcmp(tget(t, r, "map"), map) && !strcmp(tget(t, r, "solver"), solver)
            && !strcmp(tget(t, r, "queue"), queue))
            return (long)r;
    return -1;
}

static void first_line(const char *path, char *out, size_t n)
{
    FILE *f = fopen(path, "rb");
    cr_assert(f != NULL, "cannot open %s", path);
    cr_assert(fgets(out, (int)n, f) != NULL, "%s is empty", path);
    out[strcspn(out, "\r\n")] = '\0';
    fclose(f);
}

#define EXPECT_NEAR(a, b, tol) \
    cr_expect(fabs((double)(a) - (double)(b)) <= (tol), "%s = %.9g, expected %.9g", #a, (double)(a), (double)(b))

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

/* ---- tables of checks ------------------------------------------------- */

/* One check of a text: it has the string s (HAS), has it not (LACKS), has
 * it once (ONCE: not again after its first place), is it (EQ), starts with
 * it (STARTS), or has it after the first place of the string of the check
 * before (AFTER).  why, when set, says what the check means. */
enum { W_HAS, W_LACKS, W_ONCE, W_EQ, W_STARTS, W_AFTER };
typedef struct want {
    int how;
    const char *s, *why;
} want;
/* clang-format off */
#define HAS(s)    { W_HAS, (s), NULL }
#define LACKS(s)  { W_LACKS, (s), NULL }
#define ONCE(s)   { W_ONCE, (s), NULL }
#define EQ(s)     { W_EQ, (s), NULL }
#define STARTS(s) { W_STARTS, (s), NULL }
#define AFTER(s)  { W_AFTER, (s), NULL }
/* clang-format on */

/* Every check of w[0..n) on text, called name in the messages; show: the
 * text under a failing check (not for an SVG, or a page with its images). */
static void expect_text_n(const char *text, const char *name, int show, const want *w, size_t n)
{
    static const char *const verb[] = {
        "contain",    "not contain", "contain once",
        "be exactly", "start with",  "contain, after the string before,"
    };
    const char *prev = NULL;
    for (size_t i = 0; i < n; i++) {
        const char *at = strstr(text, w[i].s);
        int ok = w[i].how == W_HAS      ? at != NULL
                 : w[i].how == W_LACKS  ? at == NULL
                 : w[i].how == W_ONCE   ? at != NULL && strstr(at + 1, w[i].s) == NULL
                 : w[i].how == W_EQ     ? strcmp(text, w[i].s) == 0
                 : w[i].how == W_STARTS ? at == text
                                        : at != NULL && prev != NULL && prev < at;
        cr_expect(ok, "%s, check %zu: expected it to %s \"%s\"%s%s%s%s", name, i, verb[w[i].how], w[i].s,
                  w[i].why ? " -- " : "", w[i].why ? w[i].why : "", show ? "\n--- found:\n" : "",
                  show ? text : "");
        prev = at;
    }
}
#define EXPECT_TEXT(text, name, w)       expect_text_n((text), (name), 1, (w), N_OF(w))
#define EXPECT_TEXT_QUIET(text, name, w) expect_text_n((text), (name), 0, (w), N_OF(w))

/* The file dir/rel against w[0..n), shown in the messages. */
static void expect_file(const char *dir, const char *rel, const want *w, size_t n)
{
    char p[4300];
    snprintf(p, sizeof p, "%s/%s", dir, rel);
    char *text = slurp(p, NULL);
    expect_text_n(text, rel, 1, w, n);
    free(text);
}
#define EXPECT_FILE(dir, rel, w) expect_file((dir), (rel), (w), N_OF(w))

/* One check of a file, in a folder the test names. */
typedef struct file_want {
    const char *file;
    want w;
} file_want;

static void expect_files(const char *dir, const file_want *fw, size_t n)
{
    for (size_t i = 0; i < n; i++) expect_file(dir, fw[i].file, &fw[i].w, 1);
}

/* One figure of a summary table: row r's column col is the string str,
 * or (str NULL) the number num within tol. */
typedef struct cell {
    int r;
    const char *col, *str;
    double num, tol;
} cell;
/* clang-format off */
#define CELL_S(r, col, s)        { (r), (col), (s), 0, 0 }
#define CELL_N(r, col, num, tol) { (r), (col), NULL, (num), (tol) }
/* clang-format on */

static void expect_cells(const table *t, const char *name, const cell *c, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const char *got = tget(t, (size_t)c[i].r, c[i].col);
        if (c[i].str)
            cr_expect_str_eq(got, c[i].str, "%s, cell %zu: row %d, %s is '%s', expected '%s'", name, i,
                             c[i].r, c[i].col, got, c[i].str);
        else
            cr_expect(fabs(atof(got) - c[i].num) <= c[i].tol,
                      "%s, cell %zu: row %d, %s = %.9g, expected %.9g", name, i, c[i].r, c[i].col,
                      atof(got), c[i].num);
    }
}
#define EXPECT_CELLS(t, name, c) expect_cells((t), (name), (c), N_OF(c))

/* ---- the run folder ------------------------------------------------------ */

/* A fresh folder: top under /tmp, dir the one the test works in (top, or
 * a folder in it), log the output of its last command (in top). */
typedef struct run_dir {
    char top[64], dir[128], log[128];
} run_dir;

static void rd_open(run_dir *r, const char *sub)
{
    make_tmpdir(r->top, sizeof r->top);
    snprintf(r->log, sizeof r->log, "%s/log", r->top);
    snprintf(r->dir, sizeof r->dir, "%s%s%s", r->top, sub ? "/" : "", sub ? sub : "");
    if (sub) cr_assert_eq(mkdir(r->dir, 0777), 0);
}

static void rd_close(const run_dir *r) { rm_rf(r->top); }

/* dir/rel, in one of four buffers: good until the fourth call after. */
static const char *rd_path(const run_dir *r, const char *rel)
{
    static char buf[4][512];
    static unsigned k;
    char *p = buf[k++ % 4];
    snprintf(p, sizeof buf[0], "%s/%s", r->dir, rel);
    return p;
}

#define rd_write(r, rel, text) write_file(rd_path((r), (rel)), (text))
#define rd_slurp(r, rel)       slurp(rd_path((r), (rel)), NULL)
/* A shell command (printf-style), its output to r's log: the exit status. */
#define rd_sh(r, ...) sh((r)->log, __VA_ARGS__)

/* env.json naming the run only. */
static void rd_env(const run_dir *r, const char *run_id)
{
    char text[256];
    snprintf(text, sizeof text, "{\"run\": {\"run_id\": \"%s\"}}\n", run_id);
    rd_write(r, "env.json", text);
}

/* `$GB_BIN report DIR` (the test has called gb_bin): its exit status;
 * rd_report: it must succeed. */
#define rd_run_report(r) rd_sh((r), "'%s' report '%s'", getenv("GB_BIN"), (r)->dir)
static size_t count_of(const char *s, const char *what)
{
    size_t n = 0, k = strlen(what);
    for (const char *p = strstr(s, what); p; p = strstr(p + k, what)) n++;
    return n;
}

/* What every page must be, whatever its sections: in report.md a blank
 * line before and after each table (else Markdown runs the next paragraph
 * into it), in report.html each table, body and row closed. */
static void expect_well_formed(const run_dir *r)
{
    char *md = slurp(rd_path(r, "report.md"), NULL);
    const char *prev = NULL;
    for (const char *l = md; *l;) {
        const char *e = strchr(l, '\n');
        if (!e) e = l + strlen(l);
        const int row = *l == '|', prev_row = prev && *prev == '|';
        if (row && !prev_row)
            cr_expect(prev && *prev == '\n', "report.md: a table without a blank line before it: %.*s",
                      (int)(e - l), l);
        if (prev_row && !row)
            cr_expect(*l == '\n', "report.md: a table without a blank line after it: %.*s", (int)(e - l),
                      l);
        prev = l;
        l = *e ? e + 1 : e;
    }
    free(md);
    char *html = slurp(rd_path(r, "report.html"), NULL);
    static const char *const pair[][2] = { { "<table>", "</table>" },
                                           { "<tbody>", "</tbody>" },
                                           { "<tr>", "</tr>" } };
    for (size_t i = 0; i < sizeof pair / sizeof pair[0]; i++)
        cr_expect_eq(count_of(html, pair[i][0]), count_of(html, pair[i][1]),
                     "report.html: %zu %s, %zu %s", count_of(html, pair[i][0]), pair[i][0],
                     count_of(html, pair[i][1]), pair[i][1]);
    free(html);
}

static void rd_report(const run_dir *r)
{
    int rc = rd_run_report(r);
    cr_assert_eq(rc, 0, "report exit %d: %s", rc, tail_of(r->log));
    expect_well_formed(r);
}

/* The last command, called label, exited with want_rc and, when msg is
 * set, said msg. */
static void expect_exit(const run_dir *r, const char *label, int rc, int want_rc, const char *msg)
{
    char *l = slurp(r->log, NULL);
    cr_expect_eq(rc, want_rc, "%s: exit %d, expected %d:\n%s", label, rc, want_rc, l);
    if (msg)
        cr_expect(strstr(l, msg) != NULL, "%s: expected the message \"%s\", found:\n%s", label, msg, l);
    free(l);
}

/* A pinned error: what it is, its input, the code returned, the stage it
 * fails at (where a test has several), the place line:col (0: not
 * checked), the message and the text shown (NULL: not checked). */
typedef struct err_case {
    const char *what, *in;
    int rc, stage;
    long line, col;
    const char *msg, *text;
} err_case;

/* A command line (a shell command), its exit status and what it says
 * (NULL: not checked). */
typedef struct cli_case {
    const char *in;
    int rc;
    const char *msg;
} cli_case;

/* Case i of a table of pinned errors returned rc with the diagnosis d. */
static void expect_err(const err_case *e, size_t i, int rc, const gb_diag *d)
{
    cr_expect_eq(rc, e->rc, "case %zu (%s): returned %d, expected %d", i, e->what, rc, e->rc);
    if (e->line)
        cr_expect_eq(d->line, e->line, "case %zu (%s): line %ld, expected %ld", i, e->what, d->line,
                     e->line);
    if (e->col)
        cr_expect_eq(d->col, e->col, "case %zu (%s): column %ld, expected %ld", i, e->what, d->col,
                     e->col);
    cr_expect_str_eq(d->msg, e->msg, "case %zu (%s): '%s', expected '%s'", i, e->what, d->msg, e->msg);
    if (e->text)
        cr_expect_str_eq(d->text, e->text, "case %zu (%s): text '%s', expected '%s'", i, e->what,
                         d->text, e->text);
}

/* ---- quantiles ------------------------------------------------------- */

GB_TEST(quantile, type7_values)
{
    const double x4[] = { 1, 2, 3, 4 };
    cr_expect_eq(gb_quantile(x4, 4, 0.0), 1.0);
    cr_expect_eq(gb_quantile(x4, 4, 1.0), 4.0);
    EXPECT_NEAR(gb_quantile(x4, 4, 0.5), 2.5, 1e-12);
    EXPECT_NEAR(gb_quantile(x4, 4, 0.25), 1.75, 1e-12);
    EXPECT_NEAR(gb_quantile(x4, 4, 0.75), 3.25, 1e-12);
    EXPECT_NEAR(gb_quantile(x4, 4, 0.95), 3.85, 1e-12);
    const double x5[] = { 100, 200, 300, 400, 1000 };
    EXPECT_NEAR(gb_quantile(x5, 5, 0.5), 300, 1e-9);
    EXPECT_NEAR(gb_quantile(x5, 5, 0.95), 880, 1e-9);   /* h = 3.8: 400 + 0.8 * 600 */
    const double x1[] = { 7 };
    cr_expect_eq(gb_quantile(x1, 1, 0.5), 7.0);
    cr_expect_eq(gb_quantile(x1, 1, 0.95), 7.0);
    cr_expect(isnan(gb_quantile(x1, 0, 0.5)));
}

/* ---- CSV reader ------------------------------------------------------- */

GB_TEST(csv_reader, quoting_crlf_bom_and_blank_lines)
{
    char dir[64], path[128];
    make_tmpdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/t.csv", dir);
    write_file(path, "\xEF\xBB\xBF" "a,b,c\r\n1,\"x,y\",\"he said \"\"hi\"\"\"\r\n\n"
                     "2,\"multi\nline\",z\n,,\r\n3,4");
    gb_csv c;
    gb_diag d;
    cr_assert_eq(gb_csv_open(&c, path, &d), 0, "%s", d.msg);
    cr_expect_eq(c.nhdr, 3);
    cr_expect_eq(gb_csv_col(&c, "a"), 0);
    cr_expect_eq(gb_csv_col(&c, "c"), 2);
    cr_expect_eq(gb_csv_col(&c, "d"), -1);
    cr_assert_eq(gb_csv_next(&c, &d), 0, "%s", d.msg);
    cr_expect_eq(c.line, 2);
    cr_expect_str_eq(gb_csv_field(&c, 0), "1");
    cr_expect_str_eq(gb_csv_field(&c, 1), "x,y");
    cr_expect_str_eq(gb_csv_field(&c, 2), "he said \"hi\"");
    cr_assert_eq(gb_csv_next(&c, &d), 0, "%s", d.msg);
    cr_expect_eq(c.line, 4);
    cr_expect_str_eq(gb_csv_field(&c, 1), "multi\nline");
    cr_expect_str_eq(gb_csv_field(&c, 2), "z");
    cr_assert_eq(gb_csv_next(&c, &d), 0, "%s", d.msg);
    cr_expect_eq(c.line, 6);
    cr_expect_str_eq(gb_csv_field(&c, 0), "");
    cr_expect_str_eq(gb_csv_field(&c, 2), "");
    cr_expect_eq(gb_csv_next(&c, &d), EX_DATAERR);
    cr_expect_eq(d.line, 7);
    cr_expect_str_eq(d.msg, "expected 3 fields as in the header, found 2");
    gb_csv_close(&c);
    rm_rf(dir);
}

GB_TEST(csv_reader, errors)
{
    /* stage: where it fails -- 0 gb_csv_open, 1 the first gb_csv_next, 2 gb_csv_require of a and zz */
    static const err_case cases[] = {
        { "an empty file", "", EX_DATAERR, 0, 0, 0, "expected a header line, found an empty file",
          NULL },
        { "a name twice", "a,b,a\n", EX_DATAERR, 0, 0, 0,
          "expected unique header names, found 'a' twice", NULL },
        { "text after a closing quote", "a,b\n\"x\"y,2\n", EX_DATAERR, 1, 2, 4,
          "expected ',' or the end of the line after a closing quote, found 'y'", NULL },
        { "an open quote", "a,b\n1,\"open\n", EX_DATAERR, 1, 0, 0,
          "expected a closing quote before the end of the file, found none", NULL },
        { "a required column missing", "a,b\n", EX_DATAERR, 2, 0, 0,
          "expected a column 'zz' in the header, found none", NULL },
    };
    static const char *const need[] = { "a", "zz" };
    char dir[64], path[128];
    make_tmpdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/t.csv", dir);
    gb_csv c;
    gb_diag d;
    for (size_t i = 0; i < N_OF(cases); i++) {
        write_file(path, cases[i].in);
        int rc = gb_csv_open(&c, path, &d), idx[2];
        if (cases[i].stage) {
            cr_assert_eq(rc, 0, "case %zu (%s): %s", i, cases[i].what, d.msg);
            rc = cases[i].stage == 1 ? gb_csv_next(&c, &d) : gb_csv_require(&c, need, 2, idx, &d);
        }
        expect_err(&cases[i], i, rc, &d);
        if (cases[i].stage) gb_csv_close(&c);
    }
    snprintf(path, sizeof path, "%s/missing.csv", dir);
    cr_expect_eq(gb_csv_open(&c, path, &d), EX_NOINPUT);
    rm_rf(dir);
}

/* ---- JSON reader ------------------------------------------------------ */

GB_TEST(json_reader, values_and_escapes)
{
    const char *src = " {\"a\": [1, 2.5e1, -0.5], \"s\": \"x\\u00e9\\ud83d\\ude00\\n\\\"\", "
                      "\"t\": true, \"f\": false, \"n\": null, \"o\": {\"k\": \"v\"}, \"e\": []} ";
    gb_jv *v;
    gb_diag d;
    cr_assert_eq(gb_jv_parse("<t>", src, strlen(src), &v, &d), 0, "%s", d.msg);
    const gb_jv *a = gb_jv_get(v, "a");
    cr_assert(a && a->type == GB_JV_ARR && a->n == 3);
    cr_expect_eq(a->items[1].num, 25.0);
    cr_expect_eq(a->items[2].num, -0.5);
    cr_expect_str_eq(gb_jv_str(gb_jv_get(v, "s"), ""), "x\xc3\xa9\xf0\x9f\x98\x80\n\"");
    cr_expect_eq(gb_jv_get(v, "t")->type, GB_JV_BOOL);
    cr_expect_eq(gb_jv_get(v, "t")->num, 1.0);
    cr_expect_eq(gb_jv_get(v, "f")->num, 0.0);
    cr_expect_eq(gb_jv_get(v, "n")->type, GB_JV_NULL);
    cr_expect_str_eq(gb_jv_str(gb_jv_path(v, "o/k"), ""), "v");
    cr_expect_null(gb_jv_path(v, "o/missing"));
    cr_expect_eq(gb_jv_get(v, "e")->n, 0);
    cr_expect_eq(gb_jv_num(gb_jv_get(v, "s"), 42), 42);
    gb_jv_free(v);
}

GB_TEST(json_reader, errors_name_the_place)
{
    static const err_case cases[] = {
        { "a trailing comma", "{\"a\": 1,}", EX_DATAERR, 0, 1, 9,
          "expected a member name in quotes, found '}'", NULL },
        { "a missing comma", "[1,\n 2 3]", EX_DATAERR, 0, 2, 4, "expected ',' or ']', found '3]'",
          " 2 3]" },
        { "text after the value", "{} x", EX_DATAERR, 0, 0, 0,
          "expected the end of the input after the JSON value, found 'x'", NULL },
        { "an open string", "\"abc", EX_DATAERR, 0, 0, 0,
          "expected a closing '\"' of the string, found the end of the input", NULL },
    };
    for (size_t i = 0; i < N_OF(cases); i++) {
        gb_jv *v;
        gb_diag d;
        int rc = gb_jv_parse("x.json", cases[i].in, strlen(cases[i].in), &v, &d);
        cr_expect_null(v, "case %zu (%s)", i, cases[i].what);
        expect_err(&cases[i], i, rc, &d);
    }
}

/* ---- summary ---------------------------------------------------------- */

/* Columns shuffled, an extra one ("note"), a map name with a comma, CRLF
 * on some lines.  m1: dijkstra/bheap on q2..q6, astar-octile/bheap on
 * q2..q5, wastar/bucket (bounded) on q2..q6 (q6 hits the limit), bfs/fifo
 * on q2 only; "m,2": dijkstra and astar on one query. */
static const char hand_csv[] =
    "time_ns,note,map,scen,line,bucket,solver,queue,guarantee,status,dijkstra_cost,subopt,expanded,time_cold_ns\r\n"
    "100,\"a, b\",m1,s1.scen,2,0,dijkstra,bheap,optimal,ok,1,1.000000,10,105\r\n"
    "50,,m1,s1.scen,2,0,astar-octile,bheap,optimal,ok,1,1.000000,1,55\n"
    "10,,m1,s1.scen,2,0,wastar-octile:w=1.5,bucket,bounded,ok,1,1.000000,5,15\n"
    "7,,m1,s1.scen,2,0,bfs,fifo,none,ok,1,1.000000,3,9\n"
    "200,,m1,s1.scen,3,1,dijkstra,bheap,optimal,ok,5,1.000000,20,205\n"
    "100,,m1,s1.scen,3,1,astar-octile,bheap,optimal,ok,5,1.000000,2,105\n"
    "20,,m1,s1.scen,3,1,wastar-octile:w=1.5,bucket,bounded,ok,5,1.100000,5,25\n"
    "300,,m1,s1.scen,4,1,dijkstra,bheap,optimal,ok,6,1.000000,30,305\n"
    "100,,m1,s1.scen,4,1,astar-octile,bheap,optimal,ok,6,1.000000,3,105\n"
    "30,,m1,s1.scen,4,1,wastar-octile:w=1.5,bucket,bounded,ok,6,1.200000,5,35\n"
    "400,,m1,s1.scen,5,2,dijkstra,bheap,optimal,ok,9,1.000000,40,405\n"
    "200,,m1,s1.scen,5,2,astar-octile,bheap,optimal,ok,9,1.000000,4,205\n"
    "40,,m1,s1.scen,5,2,wastar-octile:w=1.5,bucket,bounded,ok,9,1.300000,5,45\n"
    "1000,,m1,s1.scen,6,2,dijkstra,bheap,optimal,ok,10,1.000000,50,1005\n"
    "50,,m1,s1.scen,6,2,wastar-octile:w=1.5,bucket,bounded,limit,10,,5,55\n"
    "42,,\"m,2\",s2.scen,2,0,dijkstra,bheap,optimal,scen_mismatch,3,1.000000,4,50\n"
    "21,,\"m,2\",s2.scen,2,0,astar-octile,bheap,optimal,scen_mismatch,3,1.000000,2,30\n"
    "\n";

/* The columns `gridbench summary` requires, in the order of `run`. */
#define QHDR                                                                                         \
    "map,scen,line,bucket,solver,queue,guarantee,status,dijkstra_cost,subopt,expanded,time_ns,time_" \
    "cold_ns"

/* text as q.csv in r, through gb_summary_load and gb_summary_write_csv
 * into s.csv, read back into t. */
static void summarize(const run_dir *r, const char *text, table *t)
{
    char in[512], out[512];
    snprintf(in, sizeof in, "%s", rd_path(r, "q.csv"));
    snprintf(out, sizeof out, "%s", rd_path(r, "s.csv"));
    write_file(in, text);
    gb_summary *s;
    gb_diag d;
    cr_assert_eq(gb_summary_load(in, &s, &d), 0, "%s:%ld: %s", d.path, d.line, d.msg);
    cr_assert_eq(gb_summary_write_csv(s, out, &d), 0, "%s", d.msg);
    gb_summary_free(s);
    table_load(out, t);
}

/* lb_ratio_mean: the mean of the run's lb_ratio over the rows that have
 * one (empty fields skipped); a group without any leaves it empty. */
GB_TEST(summary, lb_ratio_mean_over_the_rows_that_have_one)
{
    static const cell cells[] = { CELL_S(0, "lb_ratio_mean", "1.3000"),
                                  CELL_S(1, "lb_ratio_mean", "1.1000"), CELL_S(2, "lb_ratio_mean", "") };
    run_dir r;
    rd_open(&r, NULL);
    table t;
    summarize(&r,
              QHDR ",lb_ratio\n"
                   "m,s,2,0,dijkstra,bheap,optimal,ok,2,1,10,100,100,1.2\n"
                   "m,s,2,0,theta,bheap,none,ok,2,0.95,10,100,100,1.05\n"
                   "m,s,3,0,dijkstra,bheap,optimal,ok,4,1,10,100,100,1.4\n"
                   "m,s,3,0,theta,bheap,none,ok,4,0.9,10,100,100,1.15\n"
                   "m,s,4,0,dijkstra,bheap,optimal,ok,0,1,10,100,100,\n"
                   "m,s,4,0,theta,bheap,none,ok,0,1,10,100,100,\n"
                   "m,s,2,0,bfs,fifo,none,ok,2,1,10,100,100,\n",
              &t);
    cr_assert_eq(t.nrow, 3);
    EXPECT_CELLS(&t, "s.csv", cells);
    table_free(&t);
    /* a field that is no positive number is an error naming the place */
    rd_write(&r, "q.csv", QHDR ",lb_ratio\nm,s,2,0,dijkstra,bheap,optimal,ok,2,1,10,100,100,x\n");
    gb_summary *s;
    gb_diag d;
    cr_assert_neq(gb_summary_load(rd_path(&r, "q.csv"), &s, &d), 0);
    cr_expect(strstr(d.msg, "column lb_ratio: expected a positive number or an empty field, found") != NULL,
              "%s", d.msg);
    cr_expect_eq(d.line, 2);
    rd_close(&r);
}

/* optimal_share: GPPC's "solved optimally", the share of a group's rows
 * whose subopt is 1 (within 1e-9) -- for solvers without the guarantee,
 * and not for any-angle rows of the centre model (judged against the grid
 * optimum only); empty for optimal solvers. */
GB_TEST(summary, optimal_share_of_the_solvers_without_the_guarantee)
{
    run_dir r;
    rd_open(&r, NULL);
    table t;
    summarize(&r,
              QHDR ",cost_model\n"
                   "m,s,2,0,dijkstra,bheap,optimal,ok,2,1,10,100,100,grid\n"
                   "m,s,2,0,theta,bheap,none,ok,2,1.0000000001,10,100,100,anyangle-gppc\n"
                   "m,s,2,0,anya,own-heap,none,ok,2,1,10,100,100,anyangle-gppc\n"
                   "m,s,2,0,gbfs-octile,bheap,none,ok,2,1.2,10,100,100,grid\n"
                   "m,s,2,0,theta+c,bheap,none,ok,2,0.95,10,100,100,anyangle\n"
                   "m,s,3,0,dijkstra,bheap,optimal,ok,4,1,10,100,100,grid\n"
                   "m,s,3,0,theta,bheap,none,ok,4,1.01,10,100,100,anyangle-gppc\n"
                   "m,s,3,0,anya,own-heap,none,ok,4,1,10,100,100,anyangle-gppc\n"
                   "m,s,3,0,gbfs-octile,bheap,none,ok,4,1,10,100,100,grid\n"
                   "m,s,3,0,theta+c,bheap,none,ok,4,1,10,100,100,anyangle\n"
                   "m,s,4,0,theta,bheap,none,ok,4,,10,100,100,anyangle-gppc\n",
              &t);
    cr_assert_eq(t.nrow, 5);
    for (int i = 0; i < 5; i++) {
        const char *sv = tget(&t, (size_t)i, "solver"), *sh = tget(&t, (size_t)i, "optimal_share");
        if (!strcmp(sv, "dijkstra") || !strcmp(sv, "theta+c")) cr_expect_str_eq(sh, "", "%s", sv);
        else if (!strcmp(sv, "anya")) cr_expect_str_eq(sh, "1.0000");
        else cr_expect_str_eq(sh, "0.5000", "%s: one of two rows with a subopt", sv);
    }
    table_free(&t);
    rd_close(&r);
}

/* model: each group carries the model column of its rows (movement model
 * and terrain costs), "mixed" when they disagree, empty without the
 * column; the column is appended after the older ones. */
GB_TEST(summary, model_column_per_group)
{
    static const cell cells[] = { CELL_S(0, "model", "8-nocut+terrain:.=1;G=1;S=3;T=inf;W=5"),
                                  CELL_S(1, "model", "mixed") };
    run_dir r;
    rd_open(&r, NULL);
    table t;
    summarize(&r,
              QHDR
              ",model\n"
              "m,s,2,0,dijkstra,bheap,optimal,ok,2,1,10,100,100,8-nocut+terrain:.=1;G=1;S=3;T=inf;W=5\n"
              "m,s,3,0,dijkstra,bheap,optimal,ok,4,1,10,100,100,8-nocut+terrain:.=1;G=1;S=3;T=inf;W=5\n"
              "m,s,2,0,astar-octile,bheap,optimal,ok,2,1,10,100,100,4\n"
              "m,s,3,0,astar-octile,bheap,optimal,ok,4,1,10,100,100,8-nocut\n",
              &t);
    cr_assert_eq(t.nrow, 2);
    EXPECT_CELLS(&t, "s.csv", cells);
    table_free(&t);
    const char *h = gb_summary_csv_header();
    size_t hl = strlen(h);
    cr_expect(hl > 34 && strcmp(h + hl - 34, ",lb_ratio_mean,model,optimal_share") == 0,
              "model is appended after lb_ratio_mean: %s", h);
    /* an older CSV without the column: the field is empty */
    summarize(&r, QHDR "\nm,s,2,0,dijkstra,bheap,optimal,ok,2,1,10,100,100\n", &t);
    cr_assert_eq(t.nrow, 1);
    cr_expect_str_eq(tget(&t, 0, "model"), "");
    table_free(&t);
    rd_close(&r);
}

GB_TEST(summary, hand_written_csv)
{
    char dir[64], in[128], out[128], pd[128];
    make_tmpdir(dir, sizeof dir);
    snprintf(in, sizeof in, "%s/q.csv", dir);
    snprintf(out, sizeof out, "%s/s.csv", dir);
    snprintf(pd, sizeof pd, "%s/pd", dir);
    write_file(in, hand_csv);
    gb_summary *s;
    gb_diag d;
    cr_assert_eq(gb_summary_load(in, &s, &d), 0, "%s:%ld: %s", d.path, d.line, d.msg);
    cr_expect_eq(gb_summary_nrows(s), 17);
    cr_expect_eq(gb_summary_ngroups(s), 6);
    cr_assert_eq(gb_summary_write_csv(s, out, &d), 0, "%s", d.msg);
    cr_assert_eq(mkdir(pd, 0777), 0);
    cr_assert_eq(gb_summary_write_plot_data(s, pd, &d), 0, "%s", d.msg);
    gb_summary_free(s);

    char hdr[1024];
    first_line(out, hdr, sizeof hdr);
    cr_expect_str_eq(hdr, gb_summary_csv_header());
    table t;
    table_load(out, &t);
    cr_assert_eq(t.nrow, 6);
    /* output order: map by first appearance, then pair by first appearance */
    static const char *const order[6][3] = {
        { "m1", "dijkstra", "bheap" }, { "m1", "astar-octile", "bheap" },
        { "m1", "wastar-octile:w=1.5", "bucket" }, { "m1", "bfs", "fifo" },
        { "m,2", "dijkstra", "bheap" }, { "m,2", "astar-octile", "bheap" }
    };
    for (size_t r = 0; r < 6; r++) {
        cr_expect_str_eq(tget(&t, r, "map"), order[r][0]);
        cr_expect_str_eq(tget(&t, r, "solver"), order[r][1]);
        cr_expect_str_eq(tget(&t, r, "queue"), order[r][2]);
    }
    static const cell cells[] = {
        /* dijkstra on m1: times 100 200 300 400 1000 */
        CELL_S(0, "guarantee", "optimal"), CELL_S(0, "n", "5"), CELL_N(0, "time_median_ns", 300, 1e-9),
        CELL_N(0, "time_mean_ns", 400, 1e-9), CELL_N(0, "time_p25_ns", 200, 1e-9),
        CELL_N(0, "time_p75_ns", 400, 1e-9), CELL_N(0, "time_p95_ns", 880, 1e-9),
        CELL_N(0, "time_iqr_ns", 200, 1e-9), CELL_N(0, "time_cold_median_ns", 305, 1e-9),
        CELL_N(0, "expanded_mean", 30, 1e-9), CELL_N(0, "expanded_median", 30, 1e-9),
        CELL_S(0, "speedup", "1.0000"), CELL_S(0, "speedup_n", "5"),
        CELL_S(0, "subopt_mean", ""),                         /* optimal: not reported */
        CELL_S(0, "ok", "5"), CELL_S(0, "mem_bytes_max", ""), /* no mem_bytes column */
        /* astar on m1: 50 100 100 200 (no q6) */
        CELL_N(1, "time_median_ns", 100, 1e-9), CELL_N(1, "time_mean_ns", 112.5, 1e-9),
        CELL_N(1, "time_p25_ns", 87.5, 1e-9), CELL_N(1, "time_p75_ns", 125, 1e-9),
        CELL_N(1, "time_p95_ns", 185, 1e-9), CELL_N(1, "time_iqr_ns", 37.5, 1e-9),
        CELL_N(1, "expanded_mean", 2.5, 1e-9),
        /* speedup on the 4 shared queries: median(100,200,300,400) / 100 */
        CELL_S(1, "speedup", "2.5000"), CELL_S(1, "speedup_n", "4"),
        /* wastar: bounded, subopt 1.0 1.1 1.2 1.3 (q6 empty), one limit */
        CELL_S(2, "guarantee", "bounded"), CELL_N(2, "time_median_ns", 30, 1e-9),
        CELL_S(2, "speedup", "10.0000"), CELL_S(2, "subopt_mean", "1.150000"),
        CELL_S(2, "subopt_max", "1.300000"),
        CELL_S(2, "lb_ratio_mean", ""), /* no lb_ratio column in the input */
        CELL_S(2, "ok", "4"), CELL_S(2, "limit", "1"),
        /* bfs: one row; 100 / 7 on q2 */
        CELL_S(3, "n", "1"), CELL_N(3, "time_p95_ns", 7, 1e-9), CELL_S(3, "time_iqr_ns", "0.000"),
        CELL_S(3, "subopt_max", "1.000000"), CELL_S(3, "speedup", "14.2857"),
        /* m,2 */
        CELL_S(5, "speedup", "2.0000"), CELL_S(5, "scen_mismatch", "1"), CELL_S(5, "ok", "0"),
        /* intervals (appended columns): the baseline against itself is
         * exactly 1; one row is its own interval */
        CELL_S(0, "speedup_lo", "1.0000"), CELL_S(0, "speedup_hi", "1.0000"),
        CELL_S(3, "time_median_lo_ns", "7.000"), CELL_S(3, "time_median_hi_ns", "7.000"),
        CELL_S(3, "speedup_lo", "14.2857"), CELL_S(3, "speedup_hi", "14.2857")
    };
    EXPECT_CELLS(&t, "s.csv", cells);
    /* the other intervals are what gb_stats computes on the same values
     * with the default settings */
    {
        gb_boot bt;
        gb_boot_default(&bt);
        gb_ci ci;
        const double dt[] = { 100, 200, 300, 400, 1000 };
        cr_assert_eq(gb_boot_stat(dt, 5, GB_STAT_MEDIAN, &bt, &ci), 0);
        EXPECT_NEAR(tnum(&t, 0, "time_median_lo_ns"), ci.lo, 1e-3);
        EXPECT_NEAR(tnum(&t, 0, "time_median_hi_ns"), ci.hi, 1e-3);
        cr_expect(ci.lo >= 100 && ci.lo < 300 && ci.hi > 300 && ci.hi <= 1000, "[%g, %g]", ci.lo, ci.hi);
        /* astar vs the baseline on q2..q5, in input order */
        const double base[] = { 100, 200, 300, 400 }, as[] = { 50, 100, 100, 200 };
        cr_assert_eq(gb_boot_ratio(base, as, 4, GB_STAT_MEDIAN, &bt, &ci), 0);
        EXPECT_NEAR(ci.est, 2.5, 1e-12);
        EXPECT_NEAR(tnum(&t, 1, "speedup_lo"), ci.lo, 1e-4);
        EXPECT_NEAR(tnum(&t, 1, "speedup_hi"), ci.hi, 1e-4);
        cr_expect(ci.lo < 2.5 && ci.hi > 2.5 && ci.lo >= 1.5 && ci.hi <= 4, "[%g, %g]", ci.lo, ci.hi);
    }
    table_free(&t);

    /* plot data */
    static const file_want plot[] = {
        { "meta.tsv", STARTS("ref_queue\tbheap\nbaseline\t1\nmaps\t2\nsolvers\t4\nqueues\t3\n") },
        { "meta.tsv", HAS("solver\twastar-octile:w=1.5\n") },
        { "maps.tsv",
          EQ("# idx\tmap\tslug\tscen\tqueries\n0\tm1\tm1\ts1.scen\t5\n1\tm,2\tm_2\ts2.scen\t1\n") },
        { "speedup.tsv",
          { W_HAS,
            "\"m1\"\tsolver\tn\tp5\tp25\tp50\tp75\tp95\n0\tastar-octile\t4\t2\t2\t2\t2.25\t2.85\n",
            "astar per query: 2 2 3 2 -> p5 2, p25 2, p50 2, p75 2.25, p95 2.85" } },
        { "bucket-m1.tsv",
          { W_HAS,
            "\"dijkstra\"\tbucket\tn\tlen_mean\ttime_median_us\ttime_p25_us\ttime_p75_us\texpanded_"
            "mean\t"
            "expanded_median\n0\t1\t1\t0.1\t0.1\t0.1\t10\t10\n1\t2\t5.5\t0.25\t0.225\t0.275\t25\t25\n",
            "dijkstra bucket 1: q3, q4 -> len mean 5.5, times 0.2 0.3 us" } },
        { "queues.tsv", { W_EQ, "", "no solver ran on two queues" } },
        { "cactus.tsv",
          { W_HAS, "\"wastar-octile:w=1.5\"\trank\ttime_us\n1\t0.01\n2\t0.02\n3\t0.03\n4\t0.04\n\n\n",
            "wastar: 4 solved rows (the limit row is not solved)" } },
    };
    expect_files(pd, plot, N_OF(plot));

    /* the CLI writes the same bytes */
    const char *bin = gb_bin_or_null();
    if (bin) {
        char log[128], out2[128];
        snprintf(log, sizeof log, "%s/log", dir);
        snprintf(out2, sizeof out2, "%s/s2.csv", dir);
        int rc = sh(log, "'%s' summary '%s' --out '%s'", bin, in, out2);
        cr_expect_eq(rc, 0, "summary exit %d: %s", rc, tail_of(log));
        char *x = slurp(out, NULL), *y = slurp(out2, NULL);
        cr_expect_str_eq(x, y);
        free(y);
        /* another seed and 3 resamples move the intervals only */
        rc = sh(log, "'%s' summary '%s' --seed 7 --resamples 3 --out '%s'", bin, in, out2);
        cr_expect_eq(rc, 0, "summary exit %d: %s", rc, tail_of(log));
        y = slurp(out2, NULL);
        cr_expect_str_neq(x, y);
        table t2;
        table_load(out2, &t2);
        cr_expect_str_eq(tget(&t2, 1, "speedup"), "2.5000");
        cr_expect_str_eq(tget(&t2, 0, "speedup_lo"), "1.0000");
        table_free(&t2);
        free(x);
        free(y);
        cr_expect_eq(sh(log, "'%s' summary '%s' --resamples 0", bin, in), EX_USAGE);
    }
    rm_rf(dir);
}

GB_TEST(summary, errors_are_pinned)
{
    /* the place: its line only; mem_bytes is optional, but when present it is a byte count */
    static const err_case cases[] = {
        { "no time_ns column",
          "map,scen,line,bucket,solver,queue,guarantee,status,dijkstra_cost,subopt,expanded,time_cold_"
          "ns\n",
          EX_DATAERR, 0, 0, 0, "expected a column 'time_ns' in the header, found none", NULL },
        { "a time that is no number", QHDR "\nm,s,2,0,dijkstra,bheap,optimal,ok,1,1,3,abc,4\n",
          EX_DATAERR, 0, 2, 0, "column time_ns: expected a number, found 'abc'", NULL },
        { "an unknown status", QHDR "\nm,s,2,0,dijkstra,bheap,optimal,fine,1,1,3,5,4\n", EX_DATAERR, 0,
          0, 0,
          "column status: expected ok, unreachable, invalid_path, suboptimal, scen_mismatch, "
          "false_unreachable, limit, protocol_error, timeout or crash, found 'fine'",
          NULL },
        { "a subopt that is no number", QHDR "\nm,s,2,0,dijkstra,bheap,optimal,ok,1,x,3,5,4\n",
          EX_DATAERR, 0, 0, 0, "column subopt: expected a number or an empty field, found 'x'", NULL },
        { "a negative mem_bytes", QHDR ",mem_bytes\nm,s,2,0,dijkstra,bheap,optimal,ok,1,1,3,5,4,-8\n",
          EX_DATAERR, 0, 2, 0,
          "column mem_bytes: expected a non-negative number or an empty field, found '-8'", NULL },
        { "no data row", QHDR "\n", EX_DATAERR, 0, 0, 0, "expected at least one data row, found none",
          NULL },
    };
    static const cell cells[] = { CELL_N(0, "mem_bytes_max", 4096, 0) }; /* the largest; empty skipped */
    run_dir r;
    rd_open(&r, NULL);
    for (size_t i = 0; i < N_OF(cases); i++) {
        rd_write(&r, "q.csv", cases[i].in);
        gb_summary *s;
        gb_diag d;
        expect_err(&cases[i], i, gb_summary_load(rd_path(&r, "q.csv"), &s, &d), &d);
    }
    table t;
    summarize(&r,
              QHDR ",mem_bytes\nm,s,2,0,dijkstra,bheap,optimal,ok,1,1,3,5,4,\n"
                   "m,s,3,0,dijkstra,bheap,optimal,ok,1,1,3,5,4,4096\n"
                   "m,s,4,0,dijkstra,bheap,optimal,ok,1,1,3,5,4,1024\n",
              &t);
    cr_assert_eq(t.nrow, 1);
    EXPECT_CELLS(&t, "s.csv", cells);
    table_free(&t);
    rd_close(&r);
}

/* ---- footprint -------------------------------------------------------- */

/* The path colour of the footprint's PPM. */
#define RGB_PATH "\xd6\x27\x28"

/* Run `footprint --line 2 --solver SOLVERS` on a w x h map (map and scen
 * texts given) in a fresh folder r and return the PPM of the first
 * solver, checked for its header and size; *px points at its pixels.
 * The caller frees it and closes r. */
static char *footprint_ppm(run_dir *r, const char *map, const char *scen, const char *solvers, int w,
                           int h, const unsigned char **px)
{
    char head[64], rel[128];
    rd_open(r, NULL);
    rd_write(r, "t.map", map);
    rd_write(r, "t.map.scen", scen);
    int rc = rd_sh(r, "'%s' footprint --scen '%s' --line 2 --solver %s --out '%s/fp'", gb_bin(),
                   rd_path(r, "t.map.scen"), solvers, r->dir);
    cr_assert_eq(rc, 0, "exit %d: %s", rc, tail_of(r->log));
    size_t len, first = strcspn(solvers, ",");
    snprintf(rel, sizeof rel, "fp-%.*s.ppm", (int)first, solvers);
    char *ppm = slurp(rd_path(r, rel), &len);
    snprintf(head, sizeof head, "P6\n%d %d\n255\n", w, h);
    size_t hl = strlen(head);
    cr_assert_eq(len, hl + (size_t)w * (size_t)h * 3);
    cr_assert(memcmp(ppm, head, hl) == 0);
    *px = (const unsigned char *)ppm + hl;
    return ppm;
}

GB_TEST(footprint, tiny_map_pixels_and_tables)
{
    static const struct {
        int x, y;
        const char *rgb, *what;
    } colour[] = { { 1, 1, "\x3a\x3a\x3a", "blocked cell" },
                   { 0, 1, "\x2c\xa0\x2c", "start" },
                   { 5, 1, "\x7b\x2f\xbe", "goal" } };
    static const file_want tables[] = {
        { "fp.tsv", HAS(" line 2: (0,1) -> (5,1), map t.map 6x3, model 8-nocut, queue bheap\n") },
        { "fp.tsv", HAS("\ndijkstra\tfp-dijkstra.ppm\tfound\t7.00000000\t8\t") },
        { "fp.tsv", HAS("\njps\tfp-jps.ppm\tfound\t7.00000000\t8\t") },
        { "fp.gp", HAS("fp_n = 2\nfp_w = 6\nfp_h = 3\nfp_sx = 0\nfp_sy = 1\nfp_gx = 5\nfp_gy = 1\n") },
        { "fp.gp", HAS("fp_skip1 = 11\n") },
    };
    /* errors: the options after --scen */
    static const cli_case bad[] = {
        { "--line 9 --solver dijkstra", EX_DATAERR,
          "expected a query on line 9, found none (queries are on lines 2..2)" },
        { "--solver dijkstra", EX_USAGE,
          "expected exactly one of --line N and --longest, found neither" },
        { "--longest --model 4 --solver jps", EX_USAGE, NULL },
    };
    const char *bin = gb_bin();
    run_dir r;
    const unsigned char *px;
    char *ppm =
        footprint_ppm(&r, "type octile\nheight 3\nwidth 6\nmap\n......\n.@@@@.\n......\n",
                      "version 1\n0\tt.map\t6\t3\t0\t1\t5\t1\t7.00000000\n", "dijkstra,jps", 6, 3, &px);
    for (size_t i = 0; i < N_OF(colour); i++)
        cr_expect(memcmp(px + (colour[i].y * 6 + colour[i].x) * 3, colour[i].rgb, 3) == 0, "%s colour",
                  colour[i].what);
    int red = 0;
    for (int i = 0; i < 18; i++) red += memcmp(px + i * 3, RGB_PATH, 3) == 0;
    cr_expect_eq(red, 6, "path cells between start and goal: expected 6, found %d", red);
    free(ppm);
    cr_expect(file_exists(rd_path(&r, "fp-jps.ppm")));
    expect_files(r.dir, tables, N_OF(tables));
    for (size_t i = 0; i < N_OF(bad); i++) {
        int rc = rd_sh(&r, "'%s' footprint --scen '%s' %s --out '%s/fp'", bin, rd_path(&r, "t.map.scen"),
                       bad[i].in, r.dir);
        expect_exit(&r, bad[i].in, rc, bad[i].rc, bad[i].msg);
    }
    rd_close(&r);
}

/* An any-angle path is a list of waypoints: its segments are drawn as
 * digital lines, not as the waypoints alone.  On an open 8x3 map Theta*
 * goes from (0,0) to (7,2) in one segment: the cells between get the path
 * colour, one per column. */
GB_TEST(footprint, any_angle_segments_are_drawn_in_full)
{
    run_dir r;
    const unsigned char *px;
    char *ppm = footprint_ppm(&r, "type octile\nheight 3\nwidth 8\nmap\n........\n........\n........\n",
                              "version 1\n0\tt.map\t8\t3\t0\t0\t7\t2\t7.82842712\n", "theta", 8, 3, &px);
    int red = 0, cols = 0;
    for (int x = 1; x < 7; x++) {
        int in_col = 0;
        for (int y = 0; y < 3; y++) in_col += memcmp(px + (y * 8 + x) * 3, RGB_PATH, 3) == 0;
        red += in_col;
        cols += in_col == 1;
    }
    cr_expect_eq(red, 6, "path cells between the two waypoints: expected 6, found %d", red);
    cr_expect_eq(cols, 6, "one path cell per column: %d columns have one", cols);
    cr_expect(memcmp(px + (1 * 8 + 3) * 3, RGB_PATH, 3) == 0, "(3,1) lies on the segment");
    free(ppm);
    rd_close(&r);
}

/* ---- the report's run folder -------------------------------------------- */

/* One summary.csv row: the figures the headlines use (median time and its
 * interval, speedup and its interval), the rest fixed.  guar NULL: an
 * optimal solver (no subopt, lb_ratio_mean nor optimal_share); else that
 * guarantee, the subopt mean and max and the other two (NAN: empty). */
typedef struct srow {
    const char *map, *solver, *queue;
    double t_med, t_lo, t_hi, sp, sp_lo, sp_hi;
    const char *guar;
    double sub_mean, sub_max, lbr, share;
} srow;
/* clang-format off */
#define ROW(map, solver, queue, t_med, t_lo, t_hi, sp, sp_lo, sp_hi) \
    { (map), (solver), (queue), (t_med), (t_lo), (t_hi), (sp), (sp_lo), (sp_hi), NULL, 0, 0, 0, 0 }
/* clang-format on */
/* The baseline, and a solver ten times faster. */
#define ROW_DIJKSTRA(map) ROW((map), "dijkstra", "bheap", 1000, 900, 1100, 1, 1, 1)
#define ROW_JPS(map)      ROW((map), "jps", "bheap", 100, 90, 110, 10, 9, 11)

static void sum_row(FILE *f, const srow *s)
{
    double sub_mean = s->guar ? s->sub_mean : NAN, lbr = s->guar ? s->lbr : NAN;
    double share = s->guar ? s->share : NAN;
    fprintf(f, "%s,%s,%s,%s,50,%.3f,%.3f,%.3f,%.3f,%.3f,1.000,%.3f,10.000,10.000,%.4f,50,", s->map,
            s->solver, s->queue, s->guar ? s->guar : "optimal", s->t_med, s->t_med, s->t_med, s->t_med,
            s->t_med, s->t_med, s->sp);
    if (isnan(sub_mean)) fputs(",", f);
    else fprintf(f, "%.4f,%.4f", sub_mean, s->sub_max);
    for (int k = 0; k < GB_ROW_NSTATUS; k++) fprintf(f, ",%d", k == GB_ROW_OK ? 50 : 0);
    /* prep_ns_max, speedup_astar: none; time_source inproc; prep_amortised_ns: none */
    fprintf(f, ",1024,%.3f,%.3f,%.4f,%.4f,,,inproc,,", s->t_lo, s->t_hi, s->sp_lo, s->sp_hi);
    if (!isnan(lbr)) fprintf(f, "%.4f", lbr);
    fputs(",8-nocut,", f);   /* model, optimal_share */
    if (!isnan(share)) fprintf(f, "%.4f", share);
    fputc('\n', f);
}

/* r's summary.csv: the header and rows[0..n). */
static void rd_summary(const run_dir *r, const srow *rows, size_t n)
{
    FILE *f = fopen(rd_path(r, "summary.csv"), "w");
    cr_assert(f != NULL);
    fprintf(f, "%s\n", gb_summary_csv_header());
    for (size_t i = 0; i < n; i++) sum_row(f, &rows[i]);
    cr_assert_eq(fclose(f), 0);
}

/* A report test's run folder r: env.json naming run_id, summary.csv of rows[0..n). */
static void rd_report_folder(run_dir *r, const char *run_id, const srow *rows, size_t n)
{
    gb_bin();
    rd_open(r, NULL);
    rd_env(r, run_id);
    rd_summary(r, rows, n);
}

static const srow baseline_only[] = { ROW_DIJKSTRA("A") };

/* ---- winners and ties ---------------------------------------------------- */

/* Solvers without the optimality guarantee get a table of path length
 * against speed-up (any-angle ones below 1); a run of optimal solvers
 * only has none. */
GB_TEST(report, tradeoff_table_of_the_solvers_that_are_not_optimal)
{
    /* pass 0: the first two rows; pass 1: all */
    static const srow rows[] = {
        ROW_DIJKSTRA("A"),
        ROW_JPS("A"),
        { "A", "theta", "bheap", 2000, 1900, 2100, 0.5, 0.45, 0.55, "none", 0.9550, 1.0, 1.0312, 0.25 },
        { "A", "hpa:c=16", "bheap", 50, 40, 60, 20, 18, 22, "none", 1.0420, 1.2040, NAN, NAN },
        { "A", "hpa:c=16", "bucket", 50, 40, 60, 20, 18, 22, "none", 1.0420, 1.2040, NAN, NAN },
    };
    static const want optimal_only[] = { LACKS("not grid-optimal") };
    static const want others[] = {
        HAS("### Paths that are not grid-optimal: length against speed"),
        HAS("| `A` | `theta` | none | 50 | 0.9550 | 1.0000 | 25.0 % | 1.0312 | 0.50× [0.45, 0.55] |"),
        HAS("| `A` | `hpa:c=16` | none | 50 | 1.0420 | 1.2040 | - | - | 20.0× [18.0, 22.0] |"),
        { W_ONCE, "| `A` | `hpa:c=16` |", "one row per solver, on the reference queue only" },
        LACKS("| `A` | `jps` | optimal"),
    };
    gb_bin();
    run_dir r;
    rd_open(&r, NULL);
    rd_write(&r, "env.json", "{\"commit\": \"x\", \"run\": {\"run_id\": \"trade\"}}\n");
    rd_summary(&r, rows, 2);
    rd_report(&r);
    EXPECT_FILE(r.dir, "report.md", optimal_only);
    rd_summary(&r, rows, N_OF(rows));
    rd_report(&r);
    EXPECT_FILE(r.dir, "report.md", others);
    rd_close(&r);
}

/* The data of the report's tradeoff plot (`gridbench summary --plot-data`,
 * harness/report/gb_facets.c): one line per query of every solver that is
 * not optimal, on the reference queue or its only one, with its speed-up
 * over dijkstra/bheap on the same query. */
GB_TEST(report, tradeoff_plot_data)
{
    const char *bin = gb_bin();
    run_dir r;
    rd_open(&r, NULL);
    rd_write(&r, "q.csv",
             "scen,line,bucket,map,solver,queue,guarantee,status,dijkstra_cost,subopt,expanded,"
             "time_ns,time_cold_ns\n"
             "s,2,0,M,dijkstra,bheap,optimal,ok,5,1,9,1000,1000\n"
             "s,2,0,M,astar-octile,bheap,optimal,ok,5,1,9,100,100\n"
             "s,2,0,M,wastar-octile:w=2,bheap,bounded,ok,5,1.25,9,50,50\n"
             "s,2,0,M,wastar-octile:w=2,bucket,bounded,ok,5,1.25,9,40,40\n"
             "s,2,0,M,hpa:c=8,own-heap,none,ok,5,1.5,9,20,20\n"
             "s,2,0,M,theta,bheap,none,ok,5,0.95,9,4000,4000\n"
             "s,3,0,M,dijkstra,bheap,optimal,ok,5,1,9,1000,1000\n"
             "s,3,0,M,hpa:c=8,own-heap,none,suboptimal,5,0.5,9,20,20\n"
             "s,4,0,M,hpa:c=8,own-heap,none,ok,5,1.1,9,10,10\n");
    int rc = rd_sh(&r, "'%s' summary '%s/q.csv' --out '%s/s.csv' --plot-data '%s/data'", bin, r.dir,
                   r.dir, r.dir);
    cr_assert_eq(rc, 0, "summary exit %d: %s", rc, tail_of(r.log));
    char *out = rd_slurp(&r, "data/tradeoff.tsv");
    cr_assert_not_null(out, "no tradeoff.tsv");
    cr_expect_str_eq(out, "M\twastar-octile:w=2\t1.25\t20\n"
                          "M\thpa:c=8\t1.5\t50\n"
                          "M\ttheta\t0.95\t0.25\n");
    free(out);
    rd_close(&r);
}

/* Headlines name a winner only when its interval is clear of the
 * runner-up's; overlapping intervals are called a tie. */
GB_TEST(report, winners_only_when_intervals_are_apart)
{
    static const srow rows[] = {
        /* A: jps/bucket 10x [9, 11] clear of astar 5x [4.5, 5.5]; jps/bheap 9.8x [9.2, 10.5] ties on the
         * queue */
        ROW_DIJKSTRA("A"),
        ROW("A", "astar-octile", "bheap", 200, 180, 220, 5, 4.5, 5.5),
        ROW("A", "jps", "bheap", 102, 95, 110, 9.8, 9.2, 10.5),
        ROW("A", "jps", "bucket", 100, 92, 108, 10, 9, 11),
        /* B: jps 10x [8, 12] and astar 9x [7, 11] overlap: a tie; astar-zero 0.95x [0.9, 1.05] is no loss */
        ROW_DIJKSTRA("B"),
        ROW("B", "jps", "bheap", 100, 80, 120, 10, 8, 12),
        ROW("B", "astar-octile", "bheap", 111, 90, 130, 9, 7, 11),
        ROW("B", "astar-zero", "bheap", 1052, 950, 1150, 0.95, 0.9, 1.05),
        ROW("B", "bidijkstra", "bheap", 1250, 1150, 1350, 0.8, 0.75, 0.85),
    };
    static const want md[] = {
        HAS("- `A`: fastest optimal solver **`jps`** (on `bucket`), median 0.100 µs per query [0.092, "
            "0.108], 10.0× [9.0, 11.0] faster than `dijkstra` on `bheap` (1.00 µs); its interval is "
            "clear of the runner-up `astar-octile` (on `bheap`, 5.00× [4.50, 5.50]); queue for `jps`: "
            "**a tie** between `bucket` and `bheap` (intervals overlap);"),
        HAS("- `B`: fastest optimal solver: **a tie** between `jps` on `bheap` (median 0.100 µs, "
            "speedup 10.0× [8.0, 12.0]) and `astar-octile` on `bheap` (median 0.111 µs, speedup 9.00× "
            "[7.00, 11.00]): their 95 % intervals overlap"),
        { W_HAS,
          "slower than Dijkstra here (speedup and its whole interval below 1, queue `bheap`): "
          "`bidijkstra` 0.80× [0.75, 0.85].",
          "slower than Dijkstra: only bidijkstra, whose whole interval is below 1" },
        LACKS("`astar-zero` 0.95"),
        HAS("| `jps` | `bucket` | optimal | 50 | 0.100 | [0.092, 0.108] |"),
    };
    gb_bin();
    run_dir r;
    rd_open(&r, NULL);
    rd_write(&r, "env.json", "{\"commit\": \"x\", \"run\": {\"run_id\": \"ties\"}}\n");
    rd_summary(&r, rows, N_OF(rows));
    rd_report(&r);
    EXPECT_FILE(r.dir, "report.md", md);
    rd_close(&r);
}

/* A summary row with a per-map preparation (prep_ns_max, NAN: none), a
 * time_source and a speedup (NAN: none, as summary writes it for a row
 * timed another way). */
typedef struct src_row {
    const char *solver, *queue;
    double t_med, sp, prep;
    const char *src;
} src_row;

static void sum_row_src(FILE *f, const char *map, const src_row *s)
{
    double t_med = s->t_med, sp = s->sp;
    fprintf(f, "%s,%s,%s,optimal,50,%.3f,%.3f,%.3f,%.3f,%.3f,1.000,%.3f,10.000,10.000,", map, s->solver,
            s->queue, t_med, t_med, t_med, t_med, t_med, t_med);
    if (isnan(sp)) fputs(",,,", f);
    else fprintf(f, "%.4f,50,,", sp);
    for (int k = 0; k < GB_ROW_NSTATUS; k++) fprintf(f, ",%d", k == GB_ROW_OK ? 50 : 0);
    fprintf(f, ",1024,%.3f,%.3f,", 0.97 * t_med, 1.03 * t_med);
    if (isnan(sp)) fputs(",,", f);
    else fprintf(f, "%.4f,%.4f,", 0.985 * sp, 1.015 * sp);
    if (!isnan(s->prep)) fprintf(f, "%.0f", s->prep);
    fprintf(f, ",,%s,,,8-nocut,\n", s->src); /* ..., lb_ratio_mean, model, optimal_share */
}

/* The friction of a first report: per-map rows in the order of their
 * medians (not the registry's), a speedup that leaves out a per-map
 * preparation says so in the headline, and an external solver has no
 * speedup anywhere -- not in the headline, the summary, nor across maps.
 * Breaks if pair_table goes back to summary order, fmt_prep is dropped,
 * or xmap_load ranks a row of another time_source. */
GB_TEST(report, rows_by_median_prep_named_and_no_speedup_for_externals)
{
    /* each solver's queries (3) take its median */
    static const src_row rows[] = {
        { "dijkstra", "bheap", 1e6, 1, 2e4, "inproc" }, /* a queue's prep: below a query */
        { "jps", "bheap", 1e5, 10, NAN, "inproc" },
        { "external:foo", "none", 5e4, NAN, 3e6, "process" },
        { "sg-tl-dt", "own-heap", 1016, 984, 18.9e6, "inproc" },
    };
    static const want md[] = {
        HAS("fastest optimal solver **`sg-tl-dt`** (on `own-heap`), median 1.02 µs per query [0.986, "
            "1.05], 984× [969, 999] (+18.9 ms prep per map) faster than `dijkstra` on `bheap` (1000 "
            "µs); its interval is clear of the runner-up `jps` (on `bheap`, 10.0× [9.8, 10.2])"),
        { W_LACKS,
          "prep per map) faster than `dijkstra` on `bheap` (1000 µs); its interval is clear of the "
          "runner-up `jps` (on `bheap`, 10.0× [9.8, 10.2] (+",
          "jps has no prep" },
        /* across maps: the same rule as the headline's */
        HAS("| `external:foo` | `none` | optimal | 0 | no speedup (timed as `process`) | - | - |"),
        HAS("| `sg-tl-dt` | `own-heap` | optimal | 1 | 984× [984, 984] |"),
    };
    /* the per-map table, fastest first: sg-tl-dt, the external, jps, dijkstra */
    static const want by_median[] = { HAS("| `sg-tl-dt` | `own-heap` |"),
                                      AFTER("| `external:foo` | `none` |"), AFTER("| `jps` | `bheap` |"),
                                      AFTER("| `dijkstra` | `bheap` |") };
    gb_bin();
    run_dir r;
    rd_open(&r, NULL);
    rd_env(&r, "order");
    FILE *f = fopen(rd_path(&r, "summary.csv"), "w"), *q = fopen(rd_path(&r, "queries.csv"), "w");
    cr_assert(f != NULL && q != NULL);
    fprintf(f, "%s\n", gb_summary_csv_header());
    fputs("map,scen,line,solver,queue,status,time_ns\n", q);
    for (size_t i = 0; i < N_OF(rows); i++) sum_row_src(f, "A", &rows[i]);
    for (int k = 0; k < 3; k++)
        for (size_t i = 0; i < N_OF(rows); i++)
            fprintf(q, "A,A.scen,%d,%s,%s,ok,%.0f\n", k + 2, rows[i].solver, rows[i].queue,
                    rows[i].t_med);
    cr_assert(fclose(f) == 0 && fclose(q) == 0);
    rd_report(&r);
    char *page = rd_slurp(&r, "report.md");
    EXPECT_TEXT(page, "report.md", md);
    const char *tab = strstr(page, "| solver | queue | guarantee | n | median µs |");
    cr_assert_not_null(tab, "%s", page);
    EXPECT_TEXT(tab, "report.md's per-map table, by median", by_median);
    free(page);
    rd_close(&r);
}

/* A machine that was busy (env.json says so) puts a warning first among
 * the findings, with the reason; a quiet one does not.  And the rule
 * behind machine_busy (gb_env_busy). */
GB_TEST(report, a_busy_machine_is_flagged_first)
{
    /* the load on 2 cores, the calibration's fastest and slowest run (0:
     * none), the verdict, its reason (NULL: not checked) */
    static const struct {
        double load;
        int64_t min_ns, max_ns;
        int busy;
        const char *why;
    } rule[] = { { 0.5, 0, 0, 0, "" },
                 { 1.6, 0, 0, 1, "load average 1.60 on 2 cores before the run" },
                 { 0.1, 100, 140, 0, NULL },
                 { 0.1, 100, 230, 1, "the calibration's slowest run took 2.3x its fastest" } };
    for (size_t i = 0; i < N_OF(rule); i++) {
        gb_env e;
        gb_calib c;
        char why[160];
        memset(&e, 0, sizeof e);
        memset(&c, 0, sizeof c);
        e.cores = 2;
        e.load[0] = rule[i].load;
        c.min_ns = rule[i].min_ns;
        c.max_ns = rule[i].max_ns;
        cr_assert_eq(gb_env_busy(&e, rule[i].max_ns ? &c : NULL, why, sizeof why), rule[i].busy,
                     "case %zu", i);
        if (rule[i].why) cr_assert_str_eq(why, rule[i].why, "case %zu: '%s'", i, why);
    }

    static const char warning[] =
        "**Warning: the machine was busy while this was measured** (load average "
        "3.10 on 2 cores before the run)";
    static const char findings[] = "## Headline findings\n\n- ";
    static const want busy_md[] = {
        HAS(warning), HAS("| Load average | 3.10, 2.00, 1.00 (1, 5, 15 minutes, before the run) |")
    };
    static const want quiet_md[] = { LACKS("machine was busy") };
    static const srow rows[] = { ROW_DIJKSTRA("A"), ROW_JPS("A") };
    gb_bin();
    for (int busy = 0; busy < 2; busy++) {
        run_dir r;
        rd_open(&r, NULL);
        rd_write(
            &r, "env.json",
            busy
                ? "{\"machine_busy\": true, \"machine_busy_why\": \"load average 3.10 on 2 cores before "
                  "the run\", \"load_avg\": [3.1, 2, 1], \"run\": {\"run_id\": \"b\"}}\n"
                : "{\"machine_busy\": false, \"machine_busy_why\": \"\", \"load_avg\": [0.1, 0.2, 0.3], "
                  "\"run\": {\"run_id\": \"q\"}}\n");
        rd_summary(&r, rows, N_OF(rows));
        rd_report(&r);
        char *md = rd_slurp(&r, "report.md");
        if (busy) {
            EXPECT_TEXT(md, "report.md (busy)", busy_md);
            const char *w = strstr(md, warning), *f1 = strstr(md, findings);
            cr_expect(f1 && w && w == f1 + strlen(findings), "not first: %s", md);
        } else {
            EXPECT_TEXT(md, "report.md (quiet)", quiet_md);
        }
        free(md);
        rd_close(&r);
    }
}

/* A 1x1 PNG (67 bytes). */
static const unsigned char tiny_png[67] =
    "\x89\x50\x4e\x47\x0d\x0a\x1a\x0a\x00\x00\x00\x0d\x49\x48\x44\x52\x00\x00\x00\x01\x00\x00\x00\x01"
    "\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\x0a\x49\x44\x41\x54\x78\x9c\x63\x00\x01\x00\x00"
    "\x05\x00\x01\x0d\x0a\x2d\xb4\x00\x00\x00\x00\x49\x45\x4e\x44\xae\x42\x60\x82";

/* The first n bytes of tiny_png into r's rel. */
static void rd_png(const run_dir *r, const char *rel, size_t n)
{
    FILE *f = fopen(rd_path(r, rel), "wb");
    cr_assert(f != NULL, "%s", rel);
    cr_assert_eq(fwrite(tiny_png, 1, n, f), n);
    cr_assert_eq(fclose(f), 0);
}

/* A run folder r for the image tests: env.json, summary.csv of rows[0..n)
 * and plots/. */
static void rd_image_folder(const run_dir *r, const char *run_id, const srow *rows, size_t n)
{
    rd_env(r, run_id);
    rd_summary(r, rows, n);
    cr_assert_eq(mkdir(rd_path(r, "plots"), 0777), 0);
}

/* Decode base64 s[0..n) into out (size >= 3 n / 4); the length, or -1
 * for a character outside the alphabet (written independently of the
 * encoder in gb_cmd_report.c). */
static long unbase64(const char *s, size_t n, unsigned char *out)
{
    long k = 0;
    unsigned acc = 0;
    int bits = 0;
    for (size_t i = 0; i < n && s[i] != '='; i++) {
        const char *al = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        const char *q = strchr(al, s[i]);
        if (!q || !s[i]) return -1;
        acc = (acc << 6) | (unsigned)(q - al);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[k++] = (unsigned char)(acc >> bits & 0xff);
        }
    }
    return k;
}

/* A page that needs no other file: no script, every src= a PNG data: URI
 * that decodes to a whole PNG (signature first, IEND chunk last), every
 * href= an anchor in the page or a search viewer of traces/ beside it
 * (which must exist).  Returns the number of images. */
static int check_self_contained(const char *path)
{
    char *html = slurp(path, NULL);
    cr_expect(strstr(html, "<script") == NULL, "%s uses JavaScript", path);
    cr_expect(strstr(html, "url(") == NULL, "%s loads something from CSS", path);
    int n = 0;
    for (const char *s = strstr(html, "src=\""); s; s = strstr(s + 1, "src=\"")) {
        const char *b = s + 5, *e = strchr(b, '"');
        cr_assert(e != NULL);
        static const char pre[] = "data:image/png;base64,";
        cr_assert(strncmp(b, pre, sizeof pre - 1) == 0, "%s: an image that is not embedded: %.60s", path,
                  b);
        b += sizeof pre - 1;
        unsigned char *png = malloc((size_t)(e - b) + 4);
        cr_assert(png != NULL);
        long len = unbase64(b, (size_t)(e - b), png);
        cr_expect(len > 20 && memcmp(png, "\x89PNG\r\n\x1a\n", 8) == 0, "%s: image %d is no PNG", path,
                  n);
        int iend = 0; /* the IEND chunk ends the file (the test's own images cut its CRC) */
        for (long k = len - 12; k >= 0 && k <= len - 4 && !iend; k++)
            iend = memcmp(png + k, "IEND", 4) == 0;
        cr_expect(iend, "%s: image %d is truncated", path, n);
        free(png);
        n++;
    }
    /* anchors, and the search viewers beside the page (traces/MAP.html), which exist */
    char dir[4200];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash) *slash = '\0';
    else snprintf(dir, sizeof dir, ".");
    for (const char *s = strstr(html, "href=\""); s; s = strstr(s + 1, "href=\"")) {
        if (s[6] == '#') continue;
        const char *e = strchr(s + 6, '"');
        cr_assert(e != NULL);
        int viewer = strncmp(s + 6, "traces/", 7) == 0 && e - s > 18 && strncmp(e - 5, ".html", 5) == 0;
        cr_expect(viewer, "%s links a file other than a search viewer: %.60s", path, s);
        char f[8400];
        snprintf(f, sizeof f, "%s/%.*s", dir, (int)(e - s - 6), s + 6);
        cr_expect(!viewer || access(f, R_OK) == 0, "%s links a viewer that is not there: %s", path, f);
    }
    free(html);
    return n;
}

/* report.html embeds each PNG as base64 (every padding case), marks an
 * image the folder lacks, and links no file; report.md keeps the
 * relative links. */
GB_TEST(report, html_embeds_images_and_marks_missing_ones)
{
    static const want log_want[] = { HAS("gridbench report: warning: "),
                                     HAS("/plots/gone.png: expected the image the plots manifest names, "
                                         "found none") };
    static const want html[] = {
        HAS("<img src=\"data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAACklEQVR4"
            "nGMAAQAABQABDQottAAAAABJRU5ErkJggg==\" alt=\"First &lt;plot&gt;\">"),
        HAS("base64,"
            "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAACklEQVR4nGMAAQAABQABDQottAAAAABJRU5ErkJg"
            "\""),
        HAS("base64,"
            "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAACklEQVR4nGMAAQAABQABDQottAAAAABJRU5ErkI="
            "\""),
        HAS("<p class=\"bad\">Image missing from the run folder: <code>plots/gone.png</code></p>"),
        HAS("(vector version: <code>plots/p0.svg</code> in the run folder)"),
    };
    gb_bin();
    run_dir r;
    rd_open(&r, NULL);
    rd_image_folder(&r, "img", baseline_only, N_OF(baseline_only));
    for (int k = 0; k < 3; k++) {   /* 67, 66 and 65 bytes: padding "==", none, "=" */
        char rel[32];
        snprintf(rel, sizeof rel, "plots/p%d.png", k);
        rd_png(&r, rel, sizeof tiny_png - (size_t)k);
    }
    rd_write(&r, "plots.tsv",
             "time\tplots/p0.png\tplots/p0.svg\tFirst <plot>\ntime\tplots/p1.png\t-\tSecond\n"
             "cactus\tplots/p2.png\t-\tThird\ncactus\tplots/gone.png\t-\tMissing\n");
    int rc = rd_run_report(&r);
    char *l = slurp(r.log, NULL);
    cr_expect_eq(rc, 0, "%s", l);
    EXPECT_TEXT(l, "the report's output", log_want);
    free(l);
    cr_expect_eq(check_self_contained(rd_path(&r, "report.html")), 3);
    EXPECT_FILE(r.dir, "report.html", html);
    char *md = rd_slurp(&r, "report.md");
    cr_expect(strstr(md, "![First plot](plots/p0.png)\n\nFirst <plot> ([SVG](plots/p0.svg))") != NULL
                  || strstr(md, "![First <plot>](plots/p0.png)") != NULL,
              "%s", md);
    cr_expect(strstr(md, "](plots/gone.png)") != NULL, "%s", md);
    free(md);
    rd_close(&r);
}

/* plots.tsv is data: an image is embedded or linked only when it lies
 * inside the run folder (no "..", no absolute path, no link leading out)
 * and its first bytes say PNG (or SVG for the svg column); anything else
 * is skipped with a warning naming the manifest line. */
GB_TEST(report, images_outside_the_run_folder_or_not_images_are_skipped)
{
    static const want log_want[] = {
        HAS(":1: expected a PNG inside the run folder, found '../../../../../../../../etc/hostname' (a "
            "path leading outside it); skipped"),
        HAS("/out.png' (a path leading outside it); skipped"),
        HAS(":3: expected a PNG inside the run folder, found 'plots/link.png' (a link leading outside "
            "it); skipped"),
        HAS(":4: expected a PNG inside the run folder, found 'plots/fake.png' (a file that is not a PNG "
            "by its first bytes); skipped"),
        HAS(":5: expected a PNG inside the run folder, found 'plots/../../out.png' (a path leading "
            "outside it)"),
        HAS(":6: expected an SVG inside the run folder, found 'plots/link.svg' (a link leading outside "
            "it); skipped"),
        HAS(":7: expected an SVG inside the run folder, found 'plots/fake.png' (a file that is not an "
            "SVG by its first bytes); skipped"),
        LACKS(":8:"),
    };
    static const want html[] = { { W_LACKS, "RU5ErkJggg==", "a PNG from outside was embedded" },
                                 { W_LACKS, "czNjcjN0", "the secret was embedded" },
                                 { W_LACKS, "s3cr3t", "the secret was embedded" },
                                 LACKS("Up and out"),
                                 LACKS("hostname"),
                                 HAS("(vector version: <code>plots/in.svg</code> in the run folder)"),
                                 LACKS("link.svg"),
                                 LACKS("fake.png") };
    static const want md[] = { LACKS("hostname"), LACKS("out.png"), LACKS("fake.png"),
                               HAS("([SVG](plots/in.svg))") };
    gb_bin();
    run_dir r;
    rd_open(&r, "run"); /* the run folder top/run; what lies outside it, in top */
    rd_image_folder(&r, "img", baseline_only, N_OF(baseline_only));
    /* a real PNG inside (its last byte cut: its base64 ends "RU5ErkJg"),
     * a real PNG outside (whole: "RU5ErkJggg=="), a secret outside */
    rd_png(&r, "plots/in.png", sizeof tiny_png - 1);
    rd_png(&r, "../out.png", sizeof tiny_png);
    rd_write(&r, "../secret", "s3cr3t\n");
    rd_write(&r, "plots/in.svg",
             "<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"></svg>\n");
    rd_write(&r, "plots/fake.png", "s3cr3t, named .png\n");
    cr_assert_eq(rd_sh(&r,
                       "cd '%s/plots' && ln -s ../../out.png link.png && ln -s in.png ok-link.png "
                       "&& ln -s ../../secret link.svg",
                       r.dir),
                 0);
    char man[1024];
    snprintf(man, sizeof man,
             "time\t../../../../../../../../etc/hostname\t-\tUp and out\n"  /* line 1 */
             "time\t%s/out.png\t-\tAbsolute\n"                              /* 2 */
             "time\tplots/link.png\t-\tA link leading out\n"                /* 3 */
             "time\tplots/fake.png\t-\tNot a PNG\n"                         /* 4 */
             "time\tplots/../../out.png\t-\tDown and up\n"                  /* 5 */
             "cactus\tplots/in.png\tplots/link.svg\tSVG leading out\n"      /* 6 */
             "cactus\tplots/ok-link.png\tplots/fake.png\tSVG that is not\n" /* 7 */
             "cactus\tplots/in.png\tplots/in.svg\tAll good\n",              /* 8 */
             r.top);
    rd_write(&r, "plots.tsv", man);
    int rc = rd_run_report(&r);
    char *l = slurp(r.log, NULL);
    cr_expect_eq(rc, 0, "%s", l);
    EXPECT_TEXT(l, "the report's output", log_want);
    free(l);
    cr_expect_eq(check_self_contained(rd_path(&r, "report.html")), 3); /* lines 6, 7 and 8 */
    EXPECT_FILE(r.dir, "report.html", html);
    EXPECT_FILE(r.dir, "report.md", md);
    rd_close(&r);
}

/* ---- across maps ------------------------------------------------------------ */

/* The cross-map table: the geometric mean of the per-map speedups, with a
 * stratified bootstrap interval.  Constant per-query ratios make every
 * resample equal (4x on A, 16x on B: 8x [8, 8]); a noisy solver gets an
 * interval around its estimate; the same input gives the same bytes. */
GB_TEST(report, cross_map_geometric_mean_with_intervals)
{
    static const srow rows[] = {
        ROW("A", "dijkstra", "bheap", 300, 200, 400, 1, 1, 1),
        ROW("A", "jps", "bheap", 75, 50, 100, 4, 4, 4),
        ROW("A", "astar-octile", "bheap", 150, 100, 200, 2, 2, 2),
        ROW("A", "noisy", "bheap", 150, 100, 200, 2, 1, 3),
        ROW("B", "dijkstra", "bheap", 300, 200, 400, 1, 1, 1),
        ROW("B", "jps", "bheap", 19, 12, 25, 16, 16, 16),
        ROW("B", "noisy", "bheap", 150, 100, 200, 2, 1, 3),
    };
    static const want md_want[] = {
        HAS("### Across maps: geometric-mean speedup over Dijkstra"),
        /* the slice each map ran (no dijkstra_cost column here: no length range) */
        HAS("| Slice per map | `A`: 5 queries; `B`: 4 queries |"),
        HAS("| `jps` | `bheap` | optimal | 2 | 8.00× [8.00, 8.00] | 4.00× `A` | 16.0× `B` |"),
        HAS("| `astar-octile` | `bheap` | optimal | 1 | 2.00× [2.00, 2.00] | 2.00× `A` | 2.00× `A` |"),
        /* sorted by the estimate, fastest first */
        HAS("| `jps` | `bheap` | optimal | 2 |"),
        AFTER("| `astar-octile` | `bheap` | optimal | 1 |"),
    };
    static const want without[] = { LACKS("Across maps: geometric-mean") };
    run_dir r;
    rd_report_folder(&r, "geo", rows, N_OF(rows));
    FILE *f = fopen(rd_path(&r, "queries.csv"), "w");
    cr_assert(f != NULL);
    fputs("map,scen,line,solver,queue,status,time_ns\n", f);
    for (int m = 0; m < 2; m++) {
        int nq = m == 0 ? 5 : 4;
        for (int q = 0; q < nq; q++) {
            double base = 100.0 * (q + 1) * (m + 1);
            const char *map = m ? "B" : "A";
            fprintf(f, "%s,%s.scen,%d,dijkstra,bheap,ok,%.3f\n", map, map, q + 2, base);
            fprintf(f, "%s,%s.scen,%d,jps,bheap,ok,%.6f\n", map, map, q + 2, base / (m ? 16 : 4));
            fprintf(f, "%s,%s.scen,%d,jps,bucket,ok,%.6f\n", map, map, q + 2, base);   /* not its queue */
            if (!m) fprintf(f, "%s,%s.scen,%d,astar-octile,bheap,ok,%.6f\n", map, map, q + 2, base / 2);
            fprintf(f, "%s,%s.scen,%d,noisy,bheap,ok,%.6f\n", map, map, q + 2, base / (1.0 + (q * 7 % 5)));
        }
    }
    cr_assert_eq(fclose(f), 0);
    rd_report(&r);
    char *md = rd_slurp(&r, "report.md");
    EXPECT_TEXT(md, "report.md", md_want);
    /* noisy: per-query ratios 1..5, so resamples differ -- read the row back */
    const char *nz = strstr(md, "| `noisy` | `bheap` | optimal | 2 | ");
    cr_assert(nz != NULL, "%s", md);
    double est = 0, lo = 0, hi = 0;
    cr_assert_eq(sscanf(nz, "| `noisy` | `bheap` | optimal | 2 | %lf× [%lf, %lf]", &est, &lo, &hi), 3,
                 "%.120s", nz);
    cr_expect(lo < hi && lo <= est && est <= hi, "noisy: %g [%g, %g]", est, lo, hi);
    /* the same input, the same page */
    rd_report(&r);
    char *md2 = rd_slurp(&r, "report.md");
    cr_expect_str_eq(md2, md);
    free(md2);
    free(md);
    /* without queries.csv (or without the baseline) the table is left out */
    cr_assert_eq(remove(rd_path(&r, "queries.csv")), 0);
    rd_report(&r);
    EXPECT_FILE(r.dir, "report.md", without);
    rd_close(&r);
}

/* The verdicts of `gridbench heuristics --verdicts`, when the folder has
 * them, become a table: failing verdicts and a wrong registry claim in
 * bold; a malformed file is an error naming it. */
GB_TEST(report, heuristic_verdict_table)
{
    static const want md[] = {
        HAS("### Heuristics: admissible? consistent? (`gridbench heuristics`)"),
        HAS("| `octile` | 1 | `8-nocut` | `m.map` | 4 | admissible+consistent | 0 | 0.0000 | 0 | 0.0000 "
            "| 0.5000 | agrees |"),
        HAS("| `manhattan` | 1 | `8-nocut` | `m.map` | 4 | **neither** | 74 | 1.1716 | 10648 | 0.5858 | "
            "0.6000 | agrees |"),
        HAS("| **WRONG: claims admissible** |"),
    };
    static const want html[] = { HAS("<td class=\"l\"><strong>neither</strong></td>") };
    run_dir r;
    rd_report_folder(&r, "heur", baseline_only, N_OF(baseline_only));
    rd_write(&r, "heuristics-verdicts.csv",
             "map,model,heuristic,weight,goals,verdict,inadmissible_cells,max_over,inconsistent_edges,"
             "max_violation,mean_ratio,registry\n"
             "m.map,8-nocut,octile,1,4,admissible+consistent,0,0,0,0,0.5,agrees\n"
             "m.map,8-nocut,manhattan,1,4,neither,74,1.171572875,10648,0.5857864376,0.6,agrees\n"
             "m.map,8-nocut,euclidean,1,4,neither,3,0.5,2,0.25,0.4,WRONG: claims admissible\n");
    rd_report(&r);
    EXPECT_FILE(r.dir, "report.md", md);
    EXPECT_FILE(r.dir, "report.html", html);
    rd_write(&r, "heuristics-verdicts.csv",
             "heuristic,weight,bucket,lo,hi,mean_ratio,cells\noctile,1,0,0,4,0.5,10\n");
    int rc = rd_run_report(&r);
    cr_expect_eq(rc, 65, "%s", tail_of(r.log));
    cr_expect(strstr(tail_of(r.log), "heuristics-verdicts.csv") != NULL, "%s", tail_of(r.log));
    rd_close(&r);
}

/* ---- the plots, rendered ------------------------------------------------ */

/* gnuplot and plots/ at hand, else skip the calling test. */
static void need_gnuplot(void)
{
    if (!file_exists("plots/style.gp")) cr_skip_test("not run from the repository root");
    if (system("command -v gnuplot >/dev/null 2>&1") != 0) cr_skip_test("gnuplot not installed");
}

/* The stroke width of the data line drawn in colour rgb (as gnuplot's svg
 * writes it, "rgb( 31, 119, 180)") with at least two segments: the width
 * of the group around it; its path's d into d.  -1 when there is none. */
static double svg_line_width(const char *svg, const char *rgb, char *d, size_t n)
{
    char pat[64];
    snprintf(pat, sizeof pat, "<path stroke='%s'  d='", rgb);
    for (const char *p = svg; (p = strstr(p, pat)) != NULL; p++) {
        const char *dd = p + strlen(pat), *e = strchr(dd, '\'');
        int segs = 0;
        for (const char *q = dd; q < e; q++) segs += *q == 'L';
        if (!e || segs < 2) continue;
        snprintf(d, n, "%.*s", (int)(e - dd), dd);
        const char *w = NULL;
        for (const char *q = svg; (q = strstr(q, "stroke-width=\"")) != NULL && q < p; q++) w = q;
        return w ? atof(w + 14) : -1;
    }
    return -1;
}

/* Two solvers with the same means (A* with two heuristics on a maze) and
 * one that expands nothing.  Breaks if the later line is drawn as wide as
 * the earlier (it would hide it), or 0 is dropped from the log axis. */
GB_TEST(plots, expansions_keep_identical_lines_and_zero_visible)
{
    need_gnuplot();
    run_dir r;
    rd_open(&r, NULL);
    static const char *const hdr = "\tbucket\tn\tlen_mean\ttime_median_us\ttime_p25_us\ttime_p75_us\t"
                                   "expanded_mean\texpanded_median\n";
    char tsv[2048];
    size_t k = 0;
    const char *names[3] = { "a", "b", "z" };
    for (int b = 0; b < 3; b++) {
        k += (size_t)snprintf(tsv + k, sizeof tsv - k, "%s\"%s\"%s", b ? "\n\n" : "", names[b], hdr);
        for (int i = 0; i < 3; i++) {
            double e = b == 2 ? 0 : 4.0 * (i == 0 ? 1 : i == 1 ? 10 : 100);
            k += (size_t)snprintf(tsv + k, sizeof tsv - k, "%d\t3\t%d\t1\t1\t1\t%g\t%g\n", i, 2 + 20 * i, e, e);
        }
    }
    rd_write(&r, "bucket.tsv", tsv);
    int rc =
        rd_sh(&r, "gnuplot -e \"data='%s/bucket.tsv'; out='%s/e.svg'\" plots/expansions_vs_length.gp",
              r.dir, r.dir);
    cr_assert_eq(rc, 0, "gnuplot: %s", tail_of(r.log));
    char *svg = rd_slurp(&r, "e.svg");
    char da[512], db[512], dz[512];
    double wa = svg_line_width(svg, "rgb( 31, 119, 180)", da, sizeof da);   /* line styles 1, 2, 3 */
    double wb = svg_line_width(svg, "rgb(214,  39,  40)", db, sizeof db);
    double wz = svg_line_width(svg, "rgb( 44, 160,  44)", dz, sizeof dz);
    cr_assert(wa > 0 && wb > 0, "lines a and b not found");
    cr_expect_str_eq(da, db, "a and b should coincide");
    cr_expect_gt(wa, wb + 0.5, "the earlier line (%g) must stay wider than the one drawn on it (%g)", wa, wb);
    cr_expect_gt(wz, 0, "the solver with 0 expansions has no line");
    cr_expect(strstr(svg, ">0</text>") != NULL, "no tick labelled 0");
    free(svg);
    rd_close(&r);
}

/* The trade-off plot: each box's label "solver  map" upright below it
 * (never running past the plot's edge), and a log axis that reads 0.01,
 * 1, 100 -- not 1024 ... 0.00098.  Breaks if the labels go back to a
 * slant or the axis to base 2 or a fixed format. */
GB_TEST(plots, tradeoff_labels_under_their_boxes_and_plain_log_ticks)
{
    static const want svg_want[] = { HAS(">theta  B</text>"),
                                     { W_HAS, ">0.01</text>", "no plain powers of 10" },
                                     { W_HAS, ">100</text>", "no plain powers of 10" },
                                     { W_LACKS, ">1024", "unreadable ticks" },
                                     { W_LACKS, ">0.03125", "unreadable ticks" },
                                     { W_LACKS, ".00000<", "unreadable ticks" } };
    need_gnuplot();
    run_dir r;
    rd_open(&r, NULL);
    char tsv[4096];
    size_t k = 0;
    for (int i = 0; i < 20; i++)
        k += (size_t)snprintf(tsv + k, sizeof tsv - k, "A.map\twastar-octile:w=1.5\t%.3f\t%g\nB.map\ttheta\t0.97\t%g\n",
                              1.0 + i / 100.0, 0.001 * pow(10, i / 3.0), 2.0 + i);
    rd_write(&r, "tradeoff.tsv", tsv);
    int rc = rd_sh(&r, "gnuplot -e \"data='%s/tradeoff.tsv'; out='%s/t.svg'\" plots/hpa_tradeoff.gp",
                   r.dir, r.dir);
    cr_assert_eq(rc, 0, "gnuplot: %s", tail_of(r.log));
    char *svg = rd_slurp(&r, "t.svg");
    const char *l = strstr(svg, ">wastar-octile:w=1.5  A</text>");
    cr_assert_not_null(l, "no box label 'wastar-octile:w=1.5  A'");
    const char *g = l;
    while (g > svg && strncmp(g, "<g transform=", 13) != 0) g--;
    cr_expect(strstr(g, "rotate(-90)") && strstr(g, "rotate(-90)") < l && strstr(g, "text-anchor=\"end\"") < l,
              "the label is not upright and ending at its box: %.200s", g);
    EXPECT_TEXT_QUIET(svg, "t.svg", svg_want);
    free(svg);
    rd_close(&r);
}

/* ---- the page in a real browser ----------------------------------------- */

/* Chromium on $PATH (or $GB_CHROMIUM), else skip the calling test with a
 * message that says how to get it. */
static void need_chromium(void)
{
    if (!file_exists("scripts/check-html.sh")) cr_skip_test("not run from the repository root");
    const char *c = getenv("GB_CHROMIUM");
    if (c && c[0] ? access(c, X_OK) != 0
                  : system("command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1") != 0)
        cr_skip_test("chromium is not installed (Debian package chromium, see scripts/deps.sh): "
                     "report.html was not rendered in a browser");
}

/* A run folder r with two summary rows, plots/good.png, plots/bad.png and
 * the given plots.tsv; `gridbench report` must write its pages. */
static void browser_fixture(run_dir *r, const char *manifest)
{
    static const srow rows[] = { ROW_DIJKSTRA("A"), ROW_JPS("A") };
    gb_bin();
    rd_open(r, NULL);
    rd_image_folder(r, "browser", rows, N_OF(rows));
    rd_png(r, "plots/good.png", sizeof tiny_png);
    /* a PNG's signature, then bytes no browser can decode (without the
     * signature, gridbench report would not embed it at all) */
    rd_write(r, "plots/bad.png", "\x89PNG\r\n\x1a\nnot a png at all\n");
    rd_write(r, "plots.tsv", manifest);
    int rc = rd_run_report(r);
    cr_assert_eq(rc, 0, "report: %s", tail_of(r->log));
}

/* report.html rendered by headless Chromium: every image loads, and the
 * screenshot is a PNG.  Skipped only when chromium is absent. */
GB_TEST(report_browser, every_image_loads_and_a_screenshot_is_kept)
{
    static const want out[] = { HAS("all 2 images loaded in Chromium") };
    static const want html[] = { LACKS("<script") };
    GB_TEST_E2E();
    gb_bin();
    need_chromium();
    run_dir r;
    browser_fixture(
        &r, "time\tplots/good.png\t-\tA good image\ncactus\tplots/good.png\t-\tThe same again\n");
    int rc =
        rd_sh(&r, "scripts/check-html.sh --min-images 2 --screenshot '%s/report.png' '%s/report.html'",
              r.dir, r.dir);
    cr_expect_eq(rc, 0, "check-html.sh exit %d: %s", rc, tail_of(r.log));
    EXPECT_TEXT(tail_of(r.log), "check-html.sh's output", out);
    size_t len = 0;
    const char *p = rd_path(&r, "report.png");
    char *shot = file_exists(p) ? slurp(p, &len) : NULL;
    cr_expect(shot && len > 1000 && memcmp(shot, "\x89PNG\r\n\x1a\n", 8) == 0, "no screenshot %s", p);
    free(shot);
    /* the check copy is not left in the run folder, and the page stays script-free */
    EXPECT_FILE(r.dir, "report.html", html);
    rd_close(&r);
}

/* The screenshot shows the whole page, not its top 2400 px (where a
 * report's plots never were).  Breaks if the window keeps a fixed height
 * or the page's height is measured at another width. */
GB_TEST(report_browser, the_screenshot_covers_the_whole_page)
{
    static const want out[] = { HAS("1280 x ") };
    GB_TEST_E2E(); /* two Chromium starts, 4 s of CPU: make test-full */
    need_chromium();
    run_dir r;
    rd_open(&r, NULL);
    rd_write(&r, "tall.html",
             "<!DOCTYPE html><html><head><title>t</title></head><body style=\"margin:0\">"
             "<div style=\"height:6000px\">a long page</div><p>its end</p></body></html>\n");
    int rc = rd_sh(&r, "scripts/check-html.sh --screenshot '%s/tall.png' '%s/tall.html'", r.dir, r.dir);
    cr_assert_eq(rc, 0, "check-html.sh exit %d: %s", rc, tail_of(r.log));
    size_t len = 0;
    unsigned char *png = (unsigned char *)slurp(rd_path(&r, "tall.png"), &len);
    cr_assert(png && len > 24 && memcmp(png, "\x89PNG\r\n\x1a\n", 8) == 0, "no PNG tall.png");
    unsigned long w = (unsigned long)png[16] << 24 | (unsigned long)png[17] << 16
                      | (unsigned long)png[18] << 8 | (unsigned long)png[19];
    unsigned long h = (unsigned long)png[20] << 24 | (unsigned long)png[21] << 16
                      | (unsigned long)png[22] << 8 | (unsigned long)png[23];
    cr_expect_eq(w, 1280, "screenshot %lu px wide", w);
    cr_expect(h > 6000 && h < 6200, "screenshot %lu px tall, the page about 6050", h);
    EXPECT_TEXT(tail_of(r.log), "check-html.sh's output", out);
    free(png);
    rd_close(&r);
}

/* The check fails on a deliberately broken image -- an embedded PNG that
 * does not decode, and a reference to a file that is not there -- and
 * names each; --min-images fails a page without images. */
GB_TEST(report_browser, a_broken_image_fails_the_check)
{
    /* the page checked (NULL: report.html), the options, what the check says */
    static const struct {
        const char *what, *page, *opts;
        want out[2];
        size_t nout;
    } cases[] = {
        /* the signature and "not a png" in base64 */
        { "a broken embedded image",
          NULL,
          "",
          { HAS("1 of 2 images did not load in Chromium"),
            HAS("data:image/png;base64,iVBORw0KGgpub3QgYSBwbmcg") },
          2 },
        /* a hand-made page: one good image, one missing file */
        { "a missing file",
          "<!DOCTYPE html><html><head><title>t</title></head><body><img src=\"plots/good.png\" alt=\"\">"
          "<img src=\"plots/gone.png\" alt=\"\"></body></html>\n",
          "",
          { HAS("  plots/gone.png"), LACKS("good.png") },
          2 },
        { "no image",
          "<!DOCTYPE html><html><body><p>no image</p></body></html>\n",
          "--min-images 1 ",
          { HAS("expected at least 1 images, found 0") },
          1 },
    };
    GB_TEST_E2E();
    gb_bin();
    need_chromium();
    run_dir r;
    browser_fixture(&r, "time\tplots/good.png\t-\tGood\ntime\tplots/bad.png\t-\tBroken on purpose\n");
    for (size_t i = 0; i < N_OF(cases); i++) {
        if (cases[i].page) rd_write(&r, "links.html", cases[i].page);
        int rc = rd_sh(&r, "scripts/check-html.sh %s'%s/%s'", cases[i].opts, r.dir,
                       cases[i].page ? "links.html" : "report.html");
        cr_expect_eq(rc, 1, "expected exit 1 for %s, found %d: %s", cases[i].what, rc, tail_of(r.log));
        char name[96];
        snprintf(name, sizeof name, "check-html.sh's output for %s", cases[i].what);
        expect_text_n(tail_of(r.log), name, 1, cases[i].out, cases[i].nout);
    }
    rd_close(&r);
}

/* Without chromium the check says so and exits 3 (report.sh then skips
 * its screenshot with a note); this needs no browser. */
GB_TEST(report_browser, absent_chromium_is_named)
{
    static const want out[] = { HAS("chromium not found"), HAS("install the Debian package chromium") };
    if (!file_exists("scripts/check-html.sh")) cr_skip_test("not run from the repository root");
    run_dir r;
    rd_open(&r, NULL);
    rd_write(&r, "page.html", "<html><body></body></html>\n");
    int rc =
        rd_sh(&r, "GB_CHROMIUM=%s/no-such-browser scripts/check-html.sh '%s/page.html'", r.dir, r.dir);
    cr_expect_eq(rc, 3, "%s", tail_of(r.log));
    EXPECT_TEXT(tail_of(r.log), "check-html.sh's output", out);
    rd_close(&r);
}

/* ---- CLI errors ------------------------------------------------------- */

/* Each case: a shell command ($B: the binary, $D: the test's folder). */
static void expect_cli(const cli_case *cases, size_t n)
{
    run_dir r;
    rd_open(&r, NULL);
    for (size_t i = 0; i < n; i++) {
        int rc = rd_sh(&r, "B='%s'; D='%s'; %s", getenv("GB_BIN"), r.dir, cases[i].in);
        char label[256];
        snprintf(label, sizeof label, "case %zu: %s", i, cases[i].in);
        expect_exit(&r, label, rc, cases[i].rc, cases[i].msg);
    }
    rd_close(&r);
}

GB_TEST(report_cli, usage_errors)
{
    static const cli_case cases[] = {
        { "\"$B\" summary", EX_USAGE,
          "gridbench summary: expected one QUERIES.csv, found 0 file arguments" },
        { "\"$B\" summary \"$D/none.csv\"", EX_NOINPUT, NULL },
        { "\"$B\" report \"$D\"", EX_NOINPUT, "env.json" },
        { "\"$B\" report", EX_USAGE, NULL },
        { "\"$B\" summary --help", 0, NULL },
    };
    gb_bin();
    expect_cli(cases, N_OF(cases));
}

GB_TEST(report_cli, script_names_missing_tools_and_bad_options)
{
    static const cli_case cases[] = {
        { "/bin/bash scripts/report.sh --bin \"$B\" --reps 0", 2,
          "report.sh: error: --reps: expected a positive integer, found '0'" },
        { "/bin/bash scripts/report.sh --bin \"$B\" --anyangle-model corner", 2,
          "report.sh: error: --anyangle-model: expected centre or gppc, found 'corner'" },
        /* no gnuplot on PATH: the message names the Debian package */
        { "PATH=/nonexistent /bin/bash scripts/report.sh --bin \"$B\"", 3,
          "gnuplot not found: install the Debian package gnuplot-nox" },
    };
    gb_bin();
    if (!file_exists("scripts/report.sh")) cr_skip_test("not run from the repository root");
    expect_cli(cases, N_OF(cases));
}

/* ---- end to end ------------------------------------------------------- */

/* Every src="..." / href="..." of an HTML file (except anchors and
 * absolute URLs) and every ](...) of a Markdown file names a file in dir. */
static int check_links(const char *dir, const char *file, const char *const *marks, int nmarks, char close)
{
    char p[4200];
    snprintf(p, sizeof p, "%s/%s", dir, file);
    char *text = slurp(p, NULL);
    int n = 0;
    for (int m = 0; m < nmarks; m++) {
        for (const char *s = strstr(text, marks[m]); s; s = strstr(s + 1, marks[m])) {
            const char *b = s + strlen(marks[m]);
            const char *e = strchr(b, close);
            cr_assert(e != NULL);
            char link[1024];
            snprintf(link, sizeof link, "%.*s", (int)(e - b), b);
            if (link[0] == '#' || strstr(link, "://")) continue;
            snprintf(p, sizeof p, "%s/%s", dir, link);
            cr_expect(file_exists(p), "%s links to %s, which does not exist", file, link);
            n++;
        }
    }
    free(text);
    return n;
}

/* Count the query lines of a scenario file (all but "version"). */
static size_t scen_queries(const char *path)
{
    char *t = slurp(path, NULL);
    size_t n = 0;
    for (char *l = strtok(t, "\n"); l; l = strtok(NULL, "\n"))
        if (strncmp(l, "version", 7) != 0 && l[0]) n++;
    free(t);
    return n;
}

/* Ordinary file names: a map called "#are,na"<form feed>.map" (a leading
 * '#', a ',' and a '"' for the CSV readers, a control character for the
 * JSON writers) goes through report.sh end to end: the plots are made and
 * env.json is valid JSON that names the file exactly. */
GB_TEST(report_e2e, a_map_name_with_csv_and_json_specials, .timeout = 180)
{
    GB_TEST_E2E();
    const char *bin = gb_bin();
    if (!file_exists("scripts/report.sh") || !file_exists("plots/style.gp"))
        cr_skip_test("not run from the repository root");
    if (system("command -v gnuplot >/dev/null 2>&1") != 0) cr_skip_test("gnuplot not installed");
    const char *name = "#are,na\"\f.map";
    char dir[64], log[128], p[512], q[512];
    make_tmpdir(dir, sizeof dir);
    snprintf(log, sizeof log, "%s/log", dir);
    int rc = sh(log, "'%s' gen --family random --size 32x32 --percent 20 --seed 3 --per-bucket 1 "
                "--max-queries 5 --out '%s'", bin, dir);
    cr_assert_eq(rc, 0, "gen: %s", tail_of(log));
    /* the map renamed, its scenario rewritten to name it */
    snprintf(p, sizeof p, "%s/random32-20-3.map", dir);
    snprintf(q, sizeof q, "%s/%s", dir, name);
    cr_assert_eq(rename(p, q), 0);
    snprintf(p, sizeof p, "%s/random32-20-3.map.scen", dir);
    char *sc = slurp(p, NULL);
    snprintf(q, sizeof q, "%s/%s.scen", dir, name);
    FILE *f = fopen(q, "w");
    cr_assert(f != NULL);
    for (char *line = sc, *nl; *line; line = nl + 1) {
        nl = strchr(line, '\n');
        cr_assert(nl != NULL);
        const char *col = "\trandom32-20-3.map\t";
        char *m = strstr(line, col);
        int k = (int)strlen(col);
        if (m && m < nl) fprintf(f, "%.*s\t%s\t%.*s\n", (int)(m - line), line, name,
                                 (int)(nl - m - k), m + k);
        else fprintf(f, "%.*s\n", (int)(nl - line), line);
    }
    free(sc);
    cr_assert_eq(fclose(f), 0);
    cr_assert_eq(setenv("GB_T_SCEN", q, 1), 0);
    rc = sh(log, "GB_CHROMIUM=/nonexistent /bin/bash scripts/report.sh --bin '%s' --scen \"$GB_T_SCEN\" "
            "--solvers dijkstra,jps,gbfs-octile --queues bheap,bucket --reps 1 --no-hyperfine --no-footprints "
            "--out-dir '%s/results' --run-id odd", bin, dir);
    cr_assert_eq(rc, 0, "report.sh exit %d: %s", rc, tail_of(log));
    snprintf(p, sizeof p, "%s/results/odd/plots/queues-_are_na__.map.png", dir);
    cr_expect(file_exists(p), "no queue plot: %s", tail_of(log));
    snprintf(p, sizeof p, "%s/results/odd/data/queues-_are_na__.map.tsv", dir);
    char *qt = slurp(p, NULL);
    cr_expect(strncmp(qt, "solver\tbheap\tbheap_lo\tbheap_hi\tbucket\tbucket_lo\tbucket_hi\ndijkstra\t1\t", 68) == 0,
              "%s", qt);
    free(qt);
    /* the trade-off data of the solver without a guarantee: the map's
     * name whole in its first column (a comma in it shifts no column) */
    snprintf(p, sizeof p, "%s/results/odd/data/tradeoff.tsv", dir);
    char *tt = slurp(p, NULL);
    cr_assert_not_null(tt, "no tradeoff.tsv");
    char first[64];
    snprintf(first, sizeof first, "%s\tgbfs-octile\t", name);
    cr_expect(strncmp(tt, first, strlen(first)) == 0, "tradeoff.tsv starts: %.80s", tt);
    free(tt);
    /* env.json: valid for the project's reader and for python's */
    snprintf(p, sizeof p, "%s/results/odd/env.json", dir);
    gb_jv *env = NULL;
    gb_diag d;
    cr_assert_eq(gb_jv_load(p, &env, &d), 0, "%s:%ld:%ld: %s", d.path, d.line, d.col, d.msg);
    const gb_jv *scens = gb_jv_path(env, "run/scenarios");
    cr_assert(scens && scens->type == GB_JV_ARR && scens->n == 1);
    const char *got = gb_jv_str(gb_jv_get(&scens->items[0], "path"), "");
    cr_expect_str_eq(got, q);
    /* the timing regime is recorded, and GPPC's table is in the report */
    cr_expect_str_eq(gb_jv_str(gb_jv_path(env, "run/regime"), ""), "interleaved");
    gb_jv_free(env);
    cr_expect_eq(sh(log, "python3 -m json.tool '%s' >/dev/null", p), 0, "%s", tail_of(log));
    snprintf(p, sizeof p, "%s/results/odd/gppc.csv", dir);
    char *gt = slurp(p, NULL);
    cr_assert_not_null(gt, "no gppc.csv");
    /* one row per entry: dijkstra once, on whichever of its queues was fastest */
    const char *dj = strstr(gt, ",dijkstra,");
    cr_expect(dj != NULL && strstr(dj + 1, ",dijkstra,") == NULL, "dijkstra is not one row: %s", gt);
    cr_expect(dj && strstr(dj, ",inproc,interleaved,5,5,0,") != NULL, "%s", gt);
    free(gt);
    snprintf(p, sizeof p, "%s/results/odd/report.md", dir);
    char *md = slurp(p, NULL);
    cr_expect(strstr(md, "### GPPC's table") != NULL && strstr(md, "| `dijkstra` | "),
              "no GPPC table in report.md");
    free(md);
    rm_rf(dir);
}

/* The whole of scripts/report.sh on two tiny generated maps: every step
 * and every artefact, checked for form and for the figures behind it.
 * The smoke test that `make test` keeps (about 3.5 s of CPU): there it
 * runs without the browser (GB_CHROMIUM names none; two Chromium starts
 * would more than double its cost) and checks that the report says so;
 * under `make test-full` the browser runs, and report.png must be there. */
GB_TEST(report_e2e, report_script_on_tiny_dataset, .timeout = 180)
{
    const char *bin = gb_bin();
    if (!file_exists("scripts/report.sh") || !file_exists("plots/style.gp"))
        cr_skip_test("not run from the repository root");
    if (system("command -v gnuplot >/dev/null 2>&1 && command -v hyperfine >/dev/null 2>&1") != 0)
        cr_skip_test("gnuplot or hyperfine not installed");
    char dir[64], log[128], p[4200], run[256];
    make_tmpdir(dir, sizeof dir);
    snprintf(log, sizeof log, "%s/log", dir);
    int rc = sh(log, "'%s' gen --family random --size 32x32 --percent 20 --seed 3 --per-bucket 1 "
                "--max-queries 5 --out '%s/data' && '%s' gen --family rooms --room 8 --size 32x24 --seed 2 "
                "--per-bucket 1 --max-queries 4 --out '%s/data'", bin, dir, bin, dir);
    cr_assert_eq(rc, 0, "gen: %s", tail_of(log));
    char s1[256], s2[256];
    snprintf(s1, sizeof s1, "%s/data/random32-20-3.map.scen", dir);
    snprintf(s2, sizeof s2, "%s/data/room32x24-8-2.map.scen", dir);
    cr_assert(file_exists(s1) && file_exists(s2), "generated scenarios missing");
    size_t nq = scen_queries(s1) + scen_queries(s2);
    cr_assert(nq >= 4, "expected a few queries, found %zu", nq);

    int browser = gb_test_full() && system("command -v chromium >/dev/null 2>&1") == 0;
    rc = sh(log,
            "%s/bin/bash scripts/report.sh --bin '%s' --scen '%s' --scen '%s' "
            "--solvers dijkstra,astar-octile,jps --queues bheap,bucket --reps 1 "
            "--hyperfine-runs 2 --hyperfine-warmup 0 --hyperfine-solvers dijkstra,jps "
            "--footprint-solvers dijkstra,jps --out-dir '%s/results' --run-id test-run",
            browser ? "" : "GB_CHROMIUM=/nonexistent ", bin, s1, s2, dir);
    cr_assert_eq(rc, 0, "report.sh exit %d: %s", rc, tail_of(log));
    snprintf(run, sizeof run, "%s/results/test-run", dir);
    snprintf(p, sizeof p, "%s/results/test-run.tmp", dir);
    cr_expect(access(p, F_OK) != 0, "the temporary run folder was left behind");
    snprintf(p, sizeof p, "%s/results/latest", dir);
    char target[256] = "";
    ssize_t tl = readlink(p, target, sizeof target - 1);
    cr_expect(tl > 0, "results/latest is not a symlink");
    if (tl > 0) target[tl] = '\0';
    cr_expect_str_eq(target, "test-run");

    static const char *const files[] = {
        "queries.csv", "summary.csv", "env.json", "hyperfine.json", "report.md", "report.html",
        "plots/speedup.png", "plots/speedup.svg", "plots/queues-random32-20-3.map.png",
        "plots/queues-room32x24-8-2.map.svg", "data/speedup-g.tsv", "data/panels-random32-20-3.map.gp",
        "data/panels-cactus.gp", "data/queues-room32x24-8-2.map.tsv",
        "plots/cactus.png", "plots/cactus.svg",
        "plots/time-random32-20-3.map.png", "plots/time-room32x24-8-2.map.svg",
        "plots/expansions-random32-20-3.map.png", "plots/footprint-room32x24-8-2.map.png",
        "footprints/random32-20-3.map-jps.ppm", "data/meta.tsv", "plots.tsv",
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        snprintf(p, sizeof p, "%s/%s", run, files[i]);
        cr_expect(file_exists(p), "missing %s", files[i]);
    }

    /* every PNG starts with the PNG signature, every SVG with <?xml or <svg */
    snprintf(p, sizeof p, "%s/plots", run);
    DIR *dp = opendir(p);
    cr_assert(dp != NULL);
    int npng = 0, nsvg = 0;
    struct dirent *e;
    while ((e = readdir(dp)) != NULL) {
        size_t l = strlen(e->d_name);
        if (l < 5) continue;
        char f[4300];
        snprintf(f, sizeof f, "%s/plots/%s", run, e->d_name);
        if (!strcmp(e->d_name + l - 4, ".png")) {
            size_t len;
            char *b = slurp(f, &len);
            cr_expect(len > 8 && memcmp(b, "\x89PNG\r\n\x1a\n", 8) == 0, "%s is not a PNG", e->d_name);
            free(b);
            npng++;
        } else if (!strcmp(e->d_name + l - 4, ".svg")) {
            char *b = slurp(f, NULL);
            cr_expect(!strncmp(b, "<?xml", 5) || !strncmp(b, "<svg", 4), "%s is not an SVG", e->d_name);
            cr_expect(strstr(b, "</svg>") != NULL, "%s is truncated", e->d_name);
            free(b);
            nsvg++;
        }
    }
    closedir(dp);
    /* 2 maps x (time, expansions, queues, footprint) + speedup, cactus, and
     * the heuristics' informedness (gridbench heuristics runs by default) */
    cr_expect_eq(npng, 11);
    cr_expect_eq(nsvg, 11);

    /* facets: dijkstra is the reference of every panel, jps has its own
     * (jump points) panel, no panel has more than 5 solvers */
    {
        snprintf(p, sizeof p, "%s/data/panels-random32-20-3.map.gp", run);
        char *pg = slurp(p, NULL);
        cr_expect(strstr(pg, "np = 2\nref = 0\np1 = '1'; t1 = 'Dijkstra, A* and bidirectional'; f1 = 0\n"
                             "p2 = '2'; t2 = 'jump points and subgoal graphs'; f2 = 1\n") != NULL, "%s", pg);
        free(pg);
        /* speedup boxes carry the guarantee class: astar-octile and jps optimal (1) */
        snprintf(p, sizeof p, "%s/data/speedup-g.tsv", run);
        char *sg = slurp(p, NULL);
        cr_expect(strstr(sg, "\tgclass\n") != NULL && strstr(sg, "\tjps\t") != NULL, "%s", sg);
        for (const char *l = strstr(sg, "\tjps\t"); l; l = strstr(l + 1, "\tjps\t")) {
            const char *eol = strchr(l, '\n');
            cr_expect(eol && eol[-1] == '1' && eol[-2] == '\t', "jps is not marked optimal: %.80s", l);
        }
        free(sg);
        /* queue chart: header with intervals per queue, one row per solver */
        snprintf(p, sizeof p, "%s/data/queues-room32x24-8-2.map.tsv", run);
        char *qt = slurp(p, NULL);
        cr_expect(strncmp(qt, "solver\tbheap\tbheap_lo\tbheap_hi\tbucket\tbucket_lo\tbucket_hi\n"
                              "dijkstra\t1\t", 68) == 0, "%s", qt);
        free(qt);
    }
    /* with chromium: the page was rendered and its screenshot kept;
     * without: no screenshot, and the report says why */
    snprintf(p, sizeof p, "%s/report.png", run);
    if (browser) {
        size_t len = 0;
        char *shot = file_exists(p) ? slurp(p, &len) : NULL;
        cr_expect(shot && len > 8 && memcmp(shot, "\x89PNG\r\n\x1a\n", 8) == 0, "report.png missing");
        free(shot);
    } else {
        cr_expect(!file_exists(p), "report.png without a browser");
        snprintf(p, sizeof p, "%s/report.md", run);
        char *md = slurp(p, NULL);
        cr_expect(strstr(md, "No screenshot `report.png` and no browser check of the page") != NULL,
                  "report.md does not say that the page was not rendered");
        free(md);
    }

    /* queries.csv: the runner's header, queries x pairs rows */
    char hdr[2048];
    snprintf(p, sizeof p, "%s/queries.csv", run);
    first_line(p, hdr, sizeof hdr);
    cr_expect_str_eq(hdr, gb_run_csv_header());
    table q;
    table_load(p, &q);
    cr_expect_eq(q.nrow, nq * 6, "queries.csv rows: expected %zu x 6, found %zu", nq, q.nrow);
    /* summary.csv: its header, maps x pairs rows */
    snprintf(p, sizeof p, "%s/summary.csv", run);
    first_line(p, hdr, sizeof hdr);
    cr_expect_str_eq(hdr, gb_summary_csv_header());
    table s;
    table_load(p, &s);
    cr_expect_eq(s.nrow, 2 * 6);

    /* summary figures recomputed from queries.csv */
    static const char *const groups[][3] = {
        { "random32-20-3.map", "astar-octile", "bheap" },
        { "room32x24-8-2.map", "jps", "bucket" },
    };
    for (size_t g = 0; g < 2; g++) {
        double t[64], ex = 0, base[64], mine[64], mem = 0;
        size_t n = 0, nb = 0;
        for (size_t r = 0; r < q.nrow; r++) {
            if (strcmp(tget(&q, r, "map"), groups[g][0])) continue;
            if (!strcmp(tget(&q, r, "solver"), groups[g][1]) && !strcmp(tget(&q, r, "queue"), groups[g][2])) {
                cr_assert(n < 64);
                t[n++] = tnum(&q, r, "time_ns");
                ex += tnum(&q, r, "expanded");
                if (tnum(&q, r, "mem_bytes") > mem) mem = tnum(&q, r, "mem_bytes");
            }
        }
        /* baseline times on the same queries (every query ran both) */
        for (size_t r = 0; r < q.nrow; r++) {
            if (strcmp(tget(&q, r, "map"), groups[g][0])) continue;
            if (!strcmp(tget(&q, r, "solver"), "dijkstra") && !strcmp(tget(&q, r, "queue"), "bheap"))
                base[nb++] = tnum(&q, r, "time_ns");
        }
        memcpy(mine, t, n * sizeof *t);
        cr_assert(n > 0 && nb == n);
        long row = find_group(&s, groups[g][0], groups[g][1], groups[g][2]);
        cr_assert(row >= 0, "no summary row for %s/%s/%s", groups[g][0], groups[g][1], groups[g][2]);
        cr_expect_eq((size_t)tnum(&s, (size_t)row, "n"), n);
        EXPECT_NEAR(tnum(&s, (size_t)row, "time_median_ns"), q7(t, n, 0.5), 1e-3);
        EXPECT_NEAR(tnum(&s, (size_t)row, "time_p95_ns"), q7(t, n, 0.95), 1e-3);
        EXPECT_NEAR(tnum(&s, (size_t)row, "time_iqr_ns"), q7(t, n, 0.75) - q7(t, n, 0.25), 2e-3);
        EXPECT_NEAR(tnum(&s, (size_t)row, "expanded_mean"), ex / (double)n, 1e-3);
        cr_expect(mem > 0, "no mem_bytes in queries.csv");
        EXPECT_NEAR(tnum(&s, (size_t)row, "mem_bytes_max"), mem, 0);
        double sp = q7(base, nb, 0.5) / q7(mine, n, 0.5);
        EXPECT_NEAR(tnum(&s, (size_t)row, "speedup"), sp, 1e-4 * sp + 1e-4);
    }
    table_free(&q);
    table_free(&s);

    /* env.json: the environment keys and the run's settings */
    gb_jv *env;
    gb_diag d;
    snprintf(p, sizeof p, "%s/env.json", run);
    cr_assert_eq(gb_jv_load(p, &env, &d), 0, "env.json:%ld:%ld: %s", d.line, d.col, d.msg);
    static const char *const keys[] = { "cpu", "cores", "kernel", "compiler", "cflags", "commit", "date",
                                        "host", "files", "calibration", "run" };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        cr_expect_not_null(gb_jv_get(env, keys[i]), "env.json lacks \"%s\"", keys[i]);
    cr_expect(gb_jv_num(gb_jv_path(env, "calibration/median_ns"), 0) > 0);
    const gb_jv *runo = gb_jv_get(env, "run");
    cr_expect_str_eq(gb_jv_str(gb_jv_get(runo, "run_id"), ""), "test-run");
    cr_expect_str_eq(gb_jv_str(gb_jv_get(runo, "model"), ""), "8-nocut");
    cr_expect_eq(gb_jv_num(gb_jv_get(runo, "reps"), 0), 1);
    cr_expect_eq(gb_jv_num(gb_jv_get(runo, "run_status"), -1), 0);
    const gb_jv *sv = gb_jv_get(runo, "solvers");
    cr_assert(sv && sv->type == GB_JV_ARR && sv->n == 3);
    cr_expect_str_eq(gb_jv_str(&sv->items[2], ""), "jps");
    const gb_jv *qs = gb_jv_get(runo, "queues");
    cr_expect(qs && qs->type == GB_JV_ARR && qs->n == 2);
    const gb_jv *sc = gb_jv_get(runo, "scenarios");
    cr_assert(sc && sc->type == GB_JV_ARR && sc->n == 2);
    char hex[65];
    cr_assert_eq(gb_sha256_file(s1, hex, &d), 0);
    cr_expect_str_eq(gb_jv_str(gb_jv_get(&sc->items[0], "sha256"), ""), hex);
    cr_expect_str_eq(gb_jv_str(gb_jv_get(&sc->items[0], "path"), ""), s1);
    const gb_jv *hfo = gb_jv_get(runo, "hyperfine");
    cr_expect(hfo && hfo->type == GB_JV_OBJ && gb_jv_num(gb_jv_get(hfo, "runs"), 0) == 2);
    gb_jv_free(env);

    /* hyperfine.json: one result per solver with its times */
    gb_jv *hf;
    snprintf(p, sizeof p, "%s/hyperfine.json", run);
    cr_assert_eq(gb_jv_load(p, &hf, &d), 0, "%s", d.msg);
    const gb_jv *res = gb_jv_get(hf, "results");
    cr_assert(res && res->type == GB_JV_ARR && res->n == 2);
    cr_expect_str_eq(gb_jv_str(gb_jv_get(&res->items[0], "command"), ""), "dijkstra");
    cr_expect(gb_jv_num(gb_jv_get(&res->items[1], "mean"), 0) > 0);
    gb_jv_free(hf);

    /* report.md: every link resolves; report.html: self-contained, every
     * image an embedded PNG; the sections are there */
    static const char *const md_marks[] = { "](" };
    snprintf(p, sizeof p, "%s/report.html", run);
    cr_expect_eq(check_self_contained(p), 11, "expected the 11 images embedded in report.html");
    int nl = check_links(run, "report.md", md_marks, 1, ')');
    cr_expect(nl >= 11 + 2, "expected the 11 images and 2 viewers in report.md, found %d links", nl);
    /* the first screen (correctness, winners, queues, heuristics, viewers)
     * before the findings; the tables show each row's workspace */
    static const want first_screen[] = {
        HAS("## At a glance"),
        { W_AFTER, "## Headline findings", "no first screen before the findings" },
    };
    static const want glance[] = {
        { W_HAS, "**Correct.** All ", "no correctness line" },
        { W_HAS, "| fastest optimal (solver · queue) |", "no winner table" },
        { W_HAS, "**Queues:** of the ", "no queue sentence" },
        { W_HAS, "| `octile` | yes | yes | ", "no heuristic verdicts: octile" },
        { W_HAS, "](traces/random32-20-3.map.html)", "no viewer link" },
    };
    static const want md_want[] = {
        { W_HAS, "| memory |", "report.md tables lack the memory column" },
        { W_HAS, "| Slice per map | `random32-20-3.map`: ", "report.md states no slice" },
        { W_HAS, " queries, optimal lengths ", "report.md states no slice" },
        { W_HAS, "### Across maps: geometric-mean speedup over Dijkstra", "no cross-map table" },
        { W_HAS, "| `jps` | `bheap` | optimal | 2 | ", "no cross-map table" },
    };
    snprintf(p, sizeof p, "%s/report.md", run);
    char *md = slurp(p, NULL);
    const char *g = strstr(md, "## At a glance");
    EXPECT_TEXT(md, "report.md", first_screen);
    EXPECT_TEXT(g ? g : "", "report.md from its first screen on", glance);
    EXPECT_TEXT(md, "report.md", md_want);
    cr_expect(strstr(md, " KiB |") != NULL || strstr(md, " MiB |") != NULL,
              "report.md shows no workspace size");
    free(md);
    /* report.html: the first screen first, the environment after the plots */
    static const want html_want[] = {
        { W_LACKS, "<script", "report.html must not use JavaScript" },
        HAS("id=\"glance\""),
        AFTER("id=\"findings\""),
        AFTER("id=\"tables\""),
        AFTER("id=\"plots\""),
        AFTER("id=\"environment\""),
        HAS("No solver failures"),
        HAS("hyperfine"),
    };
    snprintf(p, sizeof p, "%s/report.html", run);
    char *html = slurp(p, NULL);
    EXPECT_TEXT_QUIET(html, "report.html", html_want);
    free(html);
    rm_rf(dir);
}
