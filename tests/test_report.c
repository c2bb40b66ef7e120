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
 *   report_cli   usage errors of the new subcommands and of the script
 *   report_e2e   scripts/report.sh on a tiny generated dataset: every
 *                artefact exists and is well-formed (CSV headers and row
 *                counts, PNG signatures, SVG heads, every link of
 *                report.html and report.md resolves, env.json keys and
 *                checksums), and summary figures recomputed here from
 *                queries.csv match summary.csv
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
    char dir[64], path[128];
    make_tmpdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/t.csv", dir);
    gb_csv c;
    gb_diag d;
    write_file(path, "");
    cr_expect_eq(gb_csv_open(&c, path, &d), EX_DATAERR);
    cr_expect_str_eq(d.msg, "expected a header line, found an empty file");
    write_file(path, "a,b,a\n");
    cr_expect_eq(gb_csv_open(&c, path, &d), EX_DATAERR);
    cr_expect_str_eq(d.msg, "expected unique header names, found 'a' twice");
    write_file(path, "a,b\n\"x\"y,2\n");
    cr_assert_eq(gb_csv_open(&c, path, &d), 0);
    cr_expect_eq(gb_csv_next(&c, &d), EX_DATAERR);
    cr_expect_eq(d.line, 2);
    cr_expect_eq(d.col, 4);
    cr_expect_str_eq(d.msg, "expected ',' or the end of the line after a closing quote, found 'y'");
    gb_csv_close(&c);
    write_file(path, "a,b\n1,\"open\n");
    cr_assert_eq(gb_csv_open(&c, path, &d), 0);
    cr_expect_eq(gb_csv_next(&c, &d), EX_DATAERR);
    cr_expect_str_eq(d.msg, "expected a closing quote before the end of the file, found none");
    gb_csv_close(&c);
    static const char *const need[] = { "a", "zz" };
    int idx[2];
    write_file(path, "a,b\n");
    cr_assert_eq(gb_csv_open(&c, path, &d), 0);
    cr_expect_eq(gb_csv_require(&c, need, 2, idx, &d), EX_DATAERR);
    cr_expect_str_eq(d.msg, "expected a column 'zz' in the header, found none");
    gb_csv_close(&c);
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
    gb_jv *v;
    gb_diag d;
    const char *s1 = "{\"a\": 1,}";
    cr_expect_eq(gb_jv_parse("x.json", s1, strlen(s1), &v, &d), EX_DATAERR);
    cr_expect_null(v);
    cr_expect_eq(d.line, 1);
    cr_expect_eq(d.col, 9);
    cr_expect_str_eq(d.msg, "expected a member name in quotes, found '}'");
    const char *s2 = "[1,\n 2 3]";
    cr_expect_eq(gb_jv_parse("x.json", s2, strlen(s2), &v, &d), EX_DATAERR);
    cr_expect_eq(d.line, 2);
    cr_expect_eq(d.col, 4);
    cr_expect_str_eq(d.msg, "expected ',' or ']', found '3]'");
    cr_expect_str_eq(d.text, " 2 3]");
    const char *s3 = "{} x";
    cr_expect_eq(gb_jv_parse("x.json", s3, strlen(s3), &v, &d), EX_DATAERR);
    cr_expect_str_eq(d.msg, "expected the end of the input after the JSON value, found 'x'");
    const char *s4 = "\"abc";
    cr_expect_eq(gb_jv_parse("x.json", s4, strlen(s4), &v, &d), EX_DATAERR);
    cr_expect_str_eq(d.msg, "expected a closing '\"' of the string, found the end of the input");
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

/* lb_ratio_mean: the mean of the run's lb_ratio over the rows that have
 * one (empty fields skipped); a group without any leaves it empty. */
GB_TEST(summary, lb_ratio_mean_over_the_rows_that_have_one)
{
    char dir[64], in[128], out[128];
    make_tmpdir(dir, sizeof dir);
    snprintf(in, sizeof in, "%s/q.csv", dir);
    snprintf(out, sizeof out, "%s/s.csv", dir);
    write_file(in, "map,scen,line,bucket,solver,queue,guarantee,status,dijkstra_cost,subopt,expanded,"
                   "time_ns,time_cold_ns,lb_ratio\n"
                   "m,s,2,0,dijkstra,bheap,optimal,ok,2,1,10,100,100,1.2\n"
                   "m,s,2,0,theta,bheap,none,ok,2,0.95,10,100,100,1.05\n"
                   "m,s,3,0,dijkstra,bheap,optimal,ok,4,1,10,100,100,1.4\n"
                   "m,s,3,0,theta,bheap,none,ok,4,0.9,10,100,100,1.15\n"
                   "m,s,4,0,dijkstra,bheap,optimal,ok,0,1,10,100,100,\n"
                   "m,s,4,0,theta,bheap,none,ok,0,1,10,100,100,\n"
                   "m,s,2,0,bfs,fifo,none,ok,2,1,10,100,100,\n");
    gb_summary *s;
    gb_diag d;
    cr_assert_eq(gb_summary_load(in, &s, &d), 0, "%s:%ld: %s", d.path, d.line, d.msg);
    cr_assert_eq(gb_summary_write_csv(s, out, &d), 0, "%s", d.msg);
    gb_summary_free(s);
    table t;
    table_load(out, &t);
    cr_assert_eq(t.nrow, 3);
    cr_expect_str_eq(tget(&t, 0, "lb_ratio_mean"), "1.3000");
    cr_expect_str_eq(tget(&t, 1, "lb_ratio_mean"), "1.1000");
    cr_expect_str_eq(tget(&t, 2, "lb_ratio_mean"), "");
    table_free(&t);
    /* a field that is no positive number is an error naming the place */
    write_file(in, "map,scen,line,bucket,solver,queue,guarantee,status,dijkstra_cost,subopt,expanded,"
                   "time_ns,time_cold_ns,lb_ratio\n"
                   "m,s,2,0,dijkstra,bheap,optimal,ok,2,1,10,100,100,x\n");
    cr_assert_neq(gb_summary_load(in, &s, &d), 0);
    cr_expect(strstr(d.msg, "column lb_ratio: expected a positive number or an empty field, found") != NULL,
              "%s", d.msg);
    cr_expect_eq(d.line, 2);
    rm_rf(dir);
}

/* optimal_share: GPPC's "solved optimally", the share of a group's rows
 * whose subopt is 1 (within 1e-9) -- for solvers without the guarantee,
 * and not for any-angle rows of the centre model (judged against the grid
 * optimum only); empty for optimal solvers. */
GB_TEST(summary, optimal_share_of_the_solvers_without_the_guarantee)
{
    char dir[64], in[128], out[128];
    make_tmpdir(dir, sizeof dir);
    snprintf(in, sizeof in, "%s/q.csv", dir);
    snprintf(out, sizeof out, "%s/s.csv", dir);
    write_file(in, "map,scen,line,bucket,solver,queue,guarantee,status,dijkstra_cost,subopt,expanded,"
                   "time_ns,time_cold_ns,cost_model\n"
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
                   "m,s,4,0,theta,bheap,none,ok,4,,10,100,100,anyangle-gppc\n");
    gb_summary *s;
    gb_diag d;
    cr_assert_eq(gb_summary_load(in, &s, &d), 0, "%s:%ld: %s", d.path, d.line, d.msg);
    cr_assert_eq(gb_summary_write_csv(s, out, &d), 0, "%s", d.msg);
    gb_summary_free(s);
    table t;
    table_load(out, &t);
    cr_assert_eq(t.nrow, 5);
    for (int i = 0; i < 5; i++) {
        const char *sv = tget(&t, (size_t)i, "solver"), *sh = tget(&t, (size_t)i, "optimal_share");
        if (!strcmp(sv, "dijkstra") || !strcmp(sv, "theta+c")) cr_expect_str_eq(sh, "", "%s", sv);
        else if (!strcmp(sv, "anya")) cr_expect_str_eq(sh, "1.0000");
        else cr_expect_str_eq(sh, "0.5000", "%s: one of two rows with a subopt", sv);
    }
    table_free(&t);
    rm_rf(dir);
}

/* model: each group carries the model column of its rows (movement model
 * and terrain costs), "mixed" when they disagree, empty without the
 * column; the column is appended after the older ones. */
GB_TEST(summary, model_column_per_group)
{
    char dir[64], in[128], out[128];
    make_tmpdir(dir, sizeof dir);
    snprintf(in, sizeof in, "%s/q.csv", dir);
    snprintf(out, sizeof out, "%s/s.csv", dir);
    write_file(in,
               "map,scen,line,bucket,solver,queue,guarantee,status,dijkstra_cost,subopt,expanded,"
               "time_ns,time_cold_ns,model\n"
               "m,s,2,0,dijkstra,bheap,optimal,ok,2,1,10,100,100,8-nocut+terrain:.=1;G=1;S=3;T=inf;W=5\n"
               "m,s,3,0,dijkstra,bheap,optimal,ok,4,1,10,100,100,8-nocut+terrain:.=1;G=1;S=3;T=inf;W=5\n"
               "m,s,2,0,astar-octile,bheap,optimal,ok,2,1,10,100,100,4\n"
               "m,s,3,0,astar-octile,bheap,optimal,ok,4,1,10,100,100,8-nocut\n");
    gb_summary *s;
    gb_diag d;
    cr_assert_eq(gb_summary_load(in, &s, &d), 0, "%s:%ld: %s", d.path, d.line, d.msg);
    cr_assert_eq(gb_summary_write_csv(s, out, &d), 0, "%s", d.msg);
    gb_summary_free(s);
    table t;
    table_load(out, &t);
    cr_assert_eq(t.nrow, 2);
    cr_expect_str_eq(tget(&t, 0, "model"), "8-nocut+terrain:.=1;G=1;S=3;T=inf;W=5");
    cr_expect_str_eq(tget(&t, 1, "model"), "mixed");
    table_free(&t);
    const char *h = gb_summary_csv_header();
    size_t hl = strlen(h);
    cr_expect(hl > 34 && strcmp(h + hl - 34, ",lb_ratio_mean,model,optimal_share") == 0,
              "model is appended after lb_ratio_mean: %s", h);
    /* an older CSV without the column: the field is empty */
    write_file(in, "map,scen,line,bucket,solver,queue,guarantee,status,dijkstra_cost,subopt,expanded,"
                   "time_ns,time_cold_ns\n"
                   "m,s,2,0,dijkstra,bheap,optimal,ok,2,1,10,100,100\n");
    cr_assert_eq(gb_summary_load(in, &s, &d), 0, "%s:%ld: %s", d.path, d.line, d.msg);
    cr_assert_eq(gb_summary_write_csv(s, out, &d), 0, "%s", d.msg);
    gb_summary_free(s);
    table_load(out, &t);
    cr_assert_eq(t.nrow, 1);
    cr_expect_str_eq(tget(&t, 0, "model"), "");
    table_free(&t);
    rm_rf(dir);
}

GB_TEST(summary, hand_written_csv)
{
    char dir[64], in[128], out[128], pd[128], p[256];
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
    /* dijkstra on m1: times 100 200 300 400 1000 */
    cr_expect_str_eq(tget(&t, 0, "guarantee"), "optimal");
    cr_expect_str_eq(tget(&t, 0, "n"), "5");
    EXPECT_NEAR(tnum(&t, 0, "time_median_ns"), 300, 1e-9);
    EXPECT_NEAR(tnum(&t, 0, "time_mean_ns"), 400, 1e-9);
    EXPECT_NEAR(tnum(&t, 0, "time_p25_ns"), 200, 1e-9);
    EXPECT_NEAR(tnum(&t, 0, "time_p75_ns"), 400, 1e-9);
    EXPECT_NEAR(tnum(&t, 0, "time_p95_ns"), 880, 1e-9);
    EXPECT_NEAR(tnum(&t, 0, "time_iqr_ns"), 200, 1e-9);
    EXPECT_NEAR(tnum(&t, 0, "time_cold_median_ns"), 305, 1e-9);
    EXPECT_NEAR(tnum(&t, 0, "expanded_mean"), 30, 1e-9);
    EXPECT_NEAR(tnum(&t, 0, "expanded_median"), 30, 1e-9);
    cr_expect_str_eq(tget(&t, 0, "speedup"), "1.0000");
    cr_expect_str_eq(tget(&t, 0, "speedup_n"), "5");
    cr_expect_str_eq(tget(&t, 0, "subopt_mean"), "");     /* optimal: not reported */
    cr_expect_str_eq(tget(&t, 0, "ok"), "5");
    cr_expect_str_eq(tget(&t, 0, "mem_bytes_max"), "");   /* no mem_bytes column */
    /* astar on m1: 50 100 100 200 (no q6) */
    EXPECT_NEAR(tnum(&t, 1, "time_median_ns"), 100, 1e-9);
    EXPECT_NEAR(tnum(&t, 1, "time_mean_ns"), 112.5, 1e-9);
    EXPECT_NEAR(tnum(&t, 1, "time_p25_ns"), 87.5, 1e-9);
    EXPECT_NEAR(tnum(&t, 1, "time_p75_ns"), 125, 1e-9);
    EXPECT_NEAR(tnum(&t, 1, "time_p95_ns"), 185, 1e-9);
    EXPECT_NEAR(tnum(&t, 1, "time_iqr_ns"), 37.5, 1e-9);
    EXPECT_NEAR(tnum(&t, 1, "expanded_mean"), 2.5, 1e-9);
    /* speedup on the 4 shared queries: median(100,200,300,400) / 100 */
    cr_expect_str_eq(tget(&t, 1, "speedup"), "2.5000");
    cr_expect_str_eq(tget(&t, 1, "speedup_n"), "4");
    /* wastar: bounded, subopt 1.0 1.1 1.2 1.3 (q6 empty), one limit */
    cr_expect_str_eq(tget(&t, 2, "guarantee"), "bounded");
    EXPECT_NEAR(tnum(&t, 2, "time_median_ns"), 30, 1e-9);
    cr_expect_str_eq(tget(&t, 2, "speedup"), "10.0000");
    cr_expect_str_eq(tget(&t, 2, "subopt_mean"), "1.150000");
    cr_expect_str_eq(tget(&t, 2, "subopt_max"), "1.300000");
    cr_expect_str_eq(tget(&t, 2, "lb_ratio_mean"), "");   /* no lb_ratio column in the input */
    cr_expect_str_eq(tget(&t, 2, "ok"), "4");
    cr_expect_str_eq(tget(&t, 2, "limit"), "1");
    /* bfs: one row */
    cr_expect_str_eq(tget(&t, 3, "n"), "1");
    EXPECT_NEAR(tnum(&t, 3, "time_p95_ns"), 7, 1e-9);
    cr_expect_str_eq(tget(&t, 3, "time_iqr_ns"), "0.000");
    cr_expect_str_eq(tget(&t, 3, "subopt_max"), "1.000000");
    cr_expect_str_eq(tget(&t, 3, "speedup"), "14.2857");    /* 100 / 7 on q2 */
    /* m,2 */
    cr_expect_str_eq(tget(&t, 5, "speedup"), "2.0000");
    cr_expect_str_eq(tget(&t, 5, "scen_mismatch"), "1");
    cr_expect_str_eq(tget(&t, 5, "ok"), "0");
    /* intervals (appended columns): the baseline against itself is exactly
     * 1; one row is its own interval; the others are what gb_stats
     * computes on the same values with the default settings */
    cr_expect_str_eq(tget(&t, 0, "speedup_lo"), "1.0000");
    cr_expect_str_eq(tget(&t, 0, "speedup_hi"), "1.0000");
    cr_expect_str_eq(tget(&t, 3, "time_median_lo_ns"), "7.000");
    cr_expect_str_eq(tget(&t, 3, "time_median_hi_ns"), "7.000");
    cr_expect_str_eq(tget(&t, 3, "speedup_lo"), "14.2857");
    cr_expect_str_eq(tget(&t, 3, "speedup_hi"), "14.2857");
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
    char *meta = slurp((snprintf(p, sizeof p, "%s/meta.tsv", pd), p), NULL);
    cr_expect(strstr(meta, "ref_queue\tbheap\nbaseline\t1\nmaps\t2\nsolvers\t4\nqueues\t3\n") == meta, "%s", meta);
    cr_expect(strstr(meta, "solver\twastar-octile:w=1.5\n") != NULL);
    free(meta);
    char *maps = slurp((snprintf(p, sizeof p, "%s/maps.tsv", pd), p), NULL);
    cr_expect_str_eq(maps, "# idx\tmap\tslug\tscen\tqueries\n0\tm1\tm1\ts1.scen\t5\n1\tm,2\tm_2\ts2.scen\t1\n");
    free(maps);
    char *sp = slurp((snprintf(p, sizeof p, "%s/speedup.tsv", pd), p), NULL);
    /* astar per query: 2 2 3 2 -> p5 2, p25 2, p50 2, p75 2.25, p95 2.85 */
    cr_expect(strstr(sp, "\"m1\"\tsolver\tn\tp5\tp25\tp50\tp75\tp95\n0\tastar-octile\t4\t2\t2\t2\t2.25\t2.85\n") != NULL,
              "%s", sp);
    free(sp);
    char *bk = slurp((snprintf(p, sizeof p, "%s/bucket-m1.tsv", pd), p), NULL);
    /* dijkstra bucket 1: q3, q4 -> len mean 5.5, times 0.2 0.3 us */
    cr_expect(strstr(bk, "\"dijkstra\"\tbucket\tn\tlen_mean\ttime_median_us\ttime_p25_us\ttime_p75_us\t"
                         "expanded_mean\texpanded_median\n0\t1\t1\t0.1\t0.1\t0.1\t10\t10\n"
                         "1\t2\t5.5\t0.25\t0.225\t0.275\t25\t25\n") != NULL, "%s", bk);
    free(bk);
    char *qu = slurp((snprintf(p, sizeof p, "%s/queues.tsv", pd), p), NULL);
    cr_expect_str_eq(qu, "");    /* no solver ran on two queues */
    free(qu);
    char *ca = slurp((snprintf(p, sizeof p, "%s/cactus.tsv", pd), p), NULL);
    /* wastar: 4 solved rows (the limit row is not solved) */
    cr_expect(strstr(ca, "\"wastar-octile:w=1.5\"\trank\ttime_us\n1\t0.01\n2\t0.02\n3\t0.03\n4\t0.04\n\n\n") != NULL,
              "%s", ca);
    free(ca);

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
    char dir[64], in[128];
    make_tmpdir(dir, sizeof dir);
    snprintf(in, sizeof in, "%s/q.csv", dir);
    gb_summary *s;
    gb_diag d;
    write_file(in, "map,scen,line,bucket,solver,queue,guarantee,status,dijkstra_cost,subopt,expanded,time_cold_ns\n");
    cr_expect_eq(gb_summary_load(in, &s, &d), EX_DATAERR);
    cr_expect_str_eq(d.msg, "expected a column 'time_ns' in the header, found none");
    const char *hdr = "map,scen,line,bucket,solver,queue,guarantee,status,dijkstra_cost,subopt,expanded,time_ns,time_cold_ns\n";
    char buf[1024];
    snprintf(buf, sizeof buf, "%sm,s,2,0,dijkstra,bheap,optimal,ok,1,1,3,abc,4\n", hdr);
    write_file(in, buf);
    cr_expect_eq(gb_summary_load(in, &s, &d), EX_DATAERR);
    cr_expect_eq(d.line, 2);
    cr_expect_str_eq(d.msg, "column time_ns: expected a number, found 'abc'");
    snprintf(buf, sizeof buf, "%sm,s,2,0,dijkstra,bheap,optimal,fine,1,1,3,5,4\n", hdr);
    write_file(in, buf);
    cr_expect_eq(gb_summary_load(in, &s, &d), EX_DATAERR);
    cr_expect_str_eq(d.msg, "column status: expected ok, unreachable, invalid_path, suboptimal, "
                            "scen_mismatch, false_unreachable, limit, protocol_error, timeout or "
                            "crash, found 'fine'");
    snprintf(buf, sizeof buf, "%sm,s,2,0,dijkstra,bheap,optimal,ok,1,x,3,5,4\n", hdr);
    write_file(in, buf);
    cr_expect_eq(gb_summary_load(in, &s, &d), EX_DATAERR);
    cr_expect_str_eq(d.msg, "column subopt: expected a number or an empty field, found 'x'");
    /* mem_bytes is optional, but when present it is a byte count */
    snprintf(buf, sizeof buf, "%.*s,mem_bytes\nm,s,2,0,dijkstra,bheap,optimal,ok,1,1,3,5,4,-8\n",
             (int)strlen(hdr) - 1, hdr);
    write_file(in, buf);
    cr_expect_eq(gb_summary_load(in, &s, &d), EX_DATAERR);
    cr_expect_eq(d.line, 2);
    cr_expect_str_eq(d.msg, "column mem_bytes: expected a non-negative number or an empty field, "
                            "found '-8'");
    snprintf(buf, sizeof buf, "%.*s,mem_bytes\nm,s,2,0,dijkstra,bheap,optimal,ok,1,1,3,5,4,\n"
             "m,s,3,0,dijkstra,bheap,optimal,ok,1,1,3,5,4,4096\nm,s,4,0,dijkstra,bheap,optimal,ok,1,1,3,5,4,1024\n",
             (int)strlen(hdr) - 1, hdr);
    write_file(in, buf);
    cr_assert_eq(gb_summary_load(in, &s, &d), 0, "%s", d.msg);
    {
        char out[160];
        snprintf(out, sizeof out, "%s/s.csv", dir);
        cr_assert_eq(gb_summary_write_csv(s, out, &d), 0, "%s", d.msg);
        gb_summary_free(s);
        table t;
        table_load(out, &t);
        cr_assert_eq(t.nrow, 1);
        EXPECT_NEAR(tnum(&t, 0, "mem_bytes_max"), 4096, 0);   /* the largest; empty skipped */
        table_free(&t);
    }
    write_file(in, hdr);
    cr_expect_eq(gb_summary_load(in, &s, &d), EX_DATAERR);
    cr_expect_str_eq(d.msg, "expected at least one data row, found none");
    rm_rf(dir);
}

/* ---- footprint -------------------------------------------------------- */

/* Run `footprint --line 2 --solver SOLVERS` on a w x h map (map and scen
 * texts given) in a fresh folder dir (of size 64) and return the PPM of
 * the first solver, checked for its header and size; *px points at its
 * pixels.  The caller frees it and removes dir. */
static char *footprint_ppm(char *dir, const char *map, const char *scen, const char *solvers,
                           int w, int h, const unsigned char **px)
{
    char p[256], log[128], head[64];
    make_tmpdir(dir, 64);
    snprintf(log, sizeof log, "%s/log", dir);
    snprintf(p, sizeof p, "%s/t.map", dir);
    write_file(p, map);
    snprintf(p, sizeof p, "%s/t.map.scen", dir);
    write_file(p, scen);
    int rc = sh(log, "'%s' footprint --scen '%s' --line 2 --solver %s --out '%s/fp'", gb_bin(), p,
                solvers, dir);
    cr_assert_eq(rc, 0, "exit %d: %s", rc, tail_of(log));
    size_t len, first = strcspn(solvers, ",");
    snprintf(p, sizeof p, "%s/fp-%.*s.ppm", dir, (int)first, solvers);
    char *ppm = slurp(p, &len);
    snprintf(head, sizeof head, "P6\n%d %d\n255\n", w, h);
    size_t hl = strlen(head);
    cr_assert_eq(len, hl + (size_t)w * (size_t)h * 3);
    cr_assert(memcmp(ppm, head, hl) == 0);
    *px = (const unsigned char *)ppm + hl;
    return ppm;
}

GB_TEST(footprint, tiny_map_pixels_and_tables)
{
    const char *bin = gb_bin();
    char dir[64], p[256], log[128];
    const unsigned char *px;
    char *ppm = footprint_ppm(dir, "type octile\nheight 3\nwidth 6\nmap\n......\n.@@@@.\n......\n",
                              "version 1\n0\tt.map\t6\t3\t0\t1\t5\t1\t7.00000000\n", "dijkstra,jps",
                              6, 3, &px);
    int rc;
    snprintf(log, sizeof log, "%s/log", dir);
#define PX(x, y) (px + ((y) * 6 + (x)) * 3)
    cr_expect(memcmp(PX(1, 1), "\x3a\x3a\x3a", 3) == 0, "blocked cell colour");
    cr_expect(memcmp(PX(0, 1), "\x2c\xa0\x2c", 3) == 0, "start colour");
    cr_expect(memcmp(PX(5, 1), "\x7b\x2f\xbe", 3) == 0, "goal colour");
    int red = 0;
    for (int i = 0; i < 18; i++) red += memcmp(px + i * 3, "\xd6\x27\x28", 3) == 0;
    cr_expect_eq(red, 6, "path cells between start and goal: expected 6, found %d", red);
#undef PX
    free(ppm);
    cr_expect(file_exists((snprintf(p, sizeof p, "%s/fp-jps.ppm", dir), p)));
    char *tsv = slurp((snprintf(p, sizeof p, "%s/fp.tsv", dir), p), NULL);
    cr_expect(strstr(tsv, " line 2: (0,1) -> (5,1), map t.map 6x3, model 8-nocut, queue bheap\n") != NULL, "%s", tsv);
    cr_expect(strstr(tsv, "\ndijkstra\tfp-dijkstra.ppm\tfound\t7.00000000\t8\t") != NULL, "%s", tsv);
    cr_expect(strstr(tsv, "\njps\tfp-jps.ppm\tfound\t7.00000000\t8\t") != NULL, "%s", tsv);
    free(tsv);
    char *gp = slurp((snprintf(p, sizeof p, "%s/fp.gp", dir), p), NULL);
    cr_expect(strstr(gp, "fp_n = 2\nfp_w = 6\nfp_h = 3\nfp_sx = 0\nfp_sy = 1\nfp_gx = 5\nfp_gy = 1\n") != NULL, "%s", gp);
    cr_expect(strstr(gp, "fp_skip1 = 11\n") != NULL, "%s", gp);
    free(gp);
    /* errors */
    snprintf(p, sizeof p, "%s/t.map.scen", dir);
    rc = sh(log, "'%s' footprint --scen '%s' --line 9 --solver dijkstra --out '%s/fp'", bin, p, dir);
    cr_expect_eq(rc, EX_DATAERR);
    char *l = slurp(log, NULL);
    cr_expect(strstr(l, "expected a query on line 9, found none (queries are on lines 2..2)") != NULL, "%s", l);
    free(l);
    rc = sh(log, "'%s' footprint --scen '%s' --solver dijkstra --out '%s/fp'", bin, p, dir);
    cr_expect_eq(rc, EX_USAGE);
    l = slurp(log, NULL);
    cr_expect(strstr(l, "expected exactly one of --line N and --longest, found neither") != NULL, "%s", l);
    free(l);
    rc = sh(log, "'%s' footprint --scen '%s' --longest --model 4 --solver jps --out '%s/fp'", bin, p, dir);
    cr_expect_eq(rc, EX_USAGE);
    rm_rf(dir);
}

/* An any-angle path is a list of waypoints: its segments are drawn as
 * digital lines, not as the waypoints alone.  On an open 8x3 map Theta*
 * goes from (0,0) to (7,2) in one segment: the cells between get the path
 * colour, one per column. */
GB_TEST(footprint, any_angle_segments_are_drawn_in_full)
{
    char dir[64];
    const unsigned char *px;
    char *ppm = footprint_ppm(dir, "type octile\nheight 3\nwidth 8\nmap\n........\n........\n........\n",
                              "version 1\n0\tt.map\t8\t3\t0\t0\t7\t2\t7.82842712\n", "theta", 8, 3,
                              &px);
    int red = 0, cols = 0;
    for (int x = 1; x < 7; x++) {
        int in_col = 0;
        for (int y = 0; y < 3; y++) in_col += memcmp(px + (y * 8 + x) * 3, "\xd6\x27\x28", 3) == 0;
        red += in_col;
        cols += in_col == 1;
    }
    cr_expect_eq(red, 6, "path cells between the two waypoints: expected 6, found %d", red);
    cr_expect_eq(cols, 6, "one path cell per column: %d columns have one", cols);
    cr_expect(memcmp(px + (1 * 8 + 3) * 3, "\xd6\x27\x28", 3) == 0, "(3,1) lies on the segment");
    free(ppm);
    rm_rf(dir);
}

/* ---- winners and ties ---------------------------------------------------- */

/* One summary.csv row: the figures the headlines use, the rest fixed;
 * sum_row_g also sets the guarantee and subopt mean / max (NaN: empty). */
static void sum_row_g(FILE *f, const char *map, const char *solver, const char *queue, const char *guar,
                      double sub_mean, double sub_max, double t_med, double t_lo, double t_hi, double sp,
                      double sp_lo, double sp_hi, double lbr, double share)
{
    fprintf(f, "%s,%s,%s,%s,50,%.3f,%.3f,%.3f,%.3f,%.3f,1.000,%.3f,10.000,10.000,%.4f,50,", map, solver,
            queue, guar, t_med, t_med, t_med, t_med, t_med, t_med, sp);
    if (isnan(sub_mean)) fputs(",", f);
    else fprintf(f, "%.4f,%.4f", sub_mean, sub_max);
    for (int k = 0; k < GB_ROW_NSTATUS; k++) fprintf(f, ",%d", k == GB_ROW_OK ? 50 : 0);
    /* prep_ns_max, speedup_astar: none; time_source inproc; prep_amortised_ns: none */
    fprintf(f, ",1024,%.3f,%.3f,%.4f,%.4f,,,inproc,,", t_lo, t_hi, sp_lo, sp_hi);
    if (!isnan(lbr)) fprintf(f, "%.4f", lbr);
    fputs(",8-nocut,", f);   /* model, optimal_share */
    if (!isnan(share)) fprintf(f, "%.4f", share);
    fputc('\n', f);
}

static void sum_row(FILE *f, const char *map, const char *solver, const char *queue, double t_med, double t_lo,
                    double t_hi, double sp, double sp_lo, double sp_hi)
{
    sum_row_g(f, map, solver, queue, "optimal", NAN, NAN, t_med, t_lo, t_hi, sp, sp_lo, sp_hi, NAN, NAN);
}

/* Solvers without the optimality guarantee get a table of path length
 * against speed-up (any-angle ones below 1); a run of optimal solvers
 * only has none. */
GB_TEST(report, tradeoff_table_of_the_solvers_that_are_not_optimal)
{
    const char *bin = gb_bin();
    char dir[64], p[256], log[128];
    make_tmpdir(dir, sizeof dir);
    snprintf(log, sizeof log, "%s/log", dir);
    snprintf(p, sizeof p, "%s/env.json", dir);
    write_file(p, "{\"commit\": \"x\", \"run\": {\"run_id\": \"trade\"}}\n");
    for (int pass = 0; pass < 2; pass++) {
        snprintf(p, sizeof p, "%s/summary.csv", dir);
        FILE *f = fopen(p, "w");
        cr_assert(f != NULL);
        fprintf(f, "%s\n", gb_summary_csv_header());
        sum_row(f, "A", "dijkstra", "bheap", 1000, 900, 1100, 1, 1, 1);
        sum_row(f, "A", "jps", "bheap", 100, 90, 110, 10, 9, 11);
        if (pass == 1) {
            sum_row_g(f, "A", "theta", "bheap", "none", 0.9550, 1.0, 2000, 1900, 2100, 0.5, 0.45, 0.55, 1.0312, 0.25);
            sum_row_g(f, "A", "hpa:c=16", "bheap", "none", 1.0420, 1.2040, 50, 40, 60, 20, 18, 22, NAN, NAN);
            sum_row_g(f, "A", "hpa:c=16", "bucket", "none", 1.0420, 1.2040, 50, 40, 60, 20, 18, 22, NAN, NAN);
        }
        cr_assert_eq(fclose(f), 0);
        int rc = sh(log, "'%s' report '%s'", bin, dir);
        cr_assert_eq(rc, 0, "report exit %d: %s", rc, tail_of(log));
        snprintf(p, sizeof p, "%s/report.md", dir);
        char *md = slurp(p, NULL);
        if (pass == 0) {
            cr_expect(strstr(md, "not grid-optimal") == NULL, "%s", md);
        } else {
            cr_expect(strstr(md, "### Paths that are not grid-optimal: length against speed") != NULL, "%s", md);
            cr_expect(strstr(md, "| `A` | `theta` | none | 50 | 0.9550 | 1.0000 | 25.0 % | 1.0312 | 0.50× [0.45, 0.55] |") != NULL,
                      "%s", md);
            cr_expect(strstr(md, "| `A` | `hpa:c=16` | none | 50 | 1.0420 | 1.2040 | - | - | 20.0× [18.0, 22.0] |") != NULL,
                      "%s", md);
            /* one row per solver, on the reference queue only */
            const char *a = strstr(md, "| `A` | `hpa:c=16` |");
            cr_expect(a && strstr(a + 1, "| `A` | `hpa:c=16` |") == NULL, "%s", md);
            cr_expect(strstr(md, "| `A` | `jps` | optimal") == NULL, "%s", md);
        }
        free(md);
    }
    rm_rf(dir);
}

/* The data of the report's tradeoff plot (`gridbench summary --plot-data`,
 * harness/report/gb_facets.c): one line per query of every solver that is
 * not optimal, on the reference queue or its only one, with its speed-up
 * over dijkstra/bheap on the same query. */
GB_TEST(report, tradeoff_plot_data)
{
    const char *bin = gb_bin();
    char dir[64], p[256], log[128];
    make_tmpdir(dir, sizeof dir);
    snprintf(log, sizeof log, "%s/out", dir);
    snprintf(p, sizeof p, "%s/q.csv", dir);
    write_file(p, "scen,line,bucket,map,solver,queue,guarantee,status,dijkstra_cost,subopt,expanded,"
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
    int rc = sh(log, "'%s' summary '%s' --out '%s/s.csv' --plot-data '%s/data'", bin, p, dir, dir);
    cr_assert_eq(rc, 0, "summary exit %d: %s", rc, tail_of(log));
    snprintf(p, sizeof p, "%s/data/tradeoff.tsv", dir);
    char *out = slurp(p, NULL);
    cr_assert_not_null(out, "no tradeoff.tsv");
    cr_expect_str_eq(out, "M\twastar-octile:w=2\t1.25\t20\n"
                          "M\thpa:c=8\t1.5\t50\n"
                          "M\ttheta\t0.95\t0.25\n");
    free(out);
    rm_rf(dir);
}

/* Headlines name a winner only when its interval is clear of the
 * runner-up's; overlapping intervals are called a tie. */
GB_TEST(report, winners_only_when_intervals_are_apart)
{
    const char *bin = gb_bin();
    char dir[64], p[256], log[128];
    make_tmpdir(dir, sizeof dir);
    snprintf(log, sizeof log, "%s/log", dir);
    snprintf(p, sizeof p, "%s/env.json", dir);
    write_file(p, "{\"commit\": \"x\", \"run\": {\"run_id\": \"ties\"}}\n");
    snprintf(p, sizeof p, "%s/summary.csv", dir);
    FILE *f = fopen(p, "w");
    cr_assert(f != NULL);
    fprintf(f, "%s\n", gb_summary_csv_header());
    /* A: jps/bucket 10x [9, 11] clear of astar 5x [4.5, 5.5]; jps/bheap 9.8x [9.2, 10.5] ties on the queue */
    sum_row(f, "A", "dijkstra", "bheap", 1000, 900, 1100, 1, 1, 1);
    sum_row(f, "A", "astar-octile", "bheap", 200, 180, 220, 5, 4.5, 5.5);
    sum_row(f, "A", "jps", "bheap", 102, 95, 110, 9.8, 9.2, 10.5);
    sum_row(f, "A", "jps", "bucket", 100, 92, 108, 10, 9, 11);
    /* B: jps 10x [8, 12] and astar 9x [7, 11] overlap: a tie; astar-zero 0.95x [0.9, 1.05] is no loss */
    sum_row(f, "B", "dijkstra", "bheap", 1000, 900, 1100, 1, 1, 1);
    sum_row(f, "B", "jps", "bheap", 100, 80, 120, 10, 8, 12);
    sum_row(f, "B", "astar-octile", "bheap", 111, 90, 130, 9, 7, 11);
    sum_row(f, "B", "astar-zero", "bheap", 1052, 950, 1150, 0.95, 0.9, 1.05);
    sum_row(f, "B", "bidijkstra", "bheap", 1250, 1150, 1350, 0.8, 0.75, 0.85);
    cr_assert_eq(fclose(f), 0);
    int rc = sh(log, "'%s' report '%s'", bin, dir);
    cr_assert_eq(rc, 0, "report exit %d: %s", rc, tail_of(log));
    snprintf(p, sizeof p, "%s/report.md", dir);
    char *md = slurp(p, NULL);
    cr_expect(strstr(md, "- `A`: fastest optimal solver **`jps`** (on `bucket`), median 0.100 µs per query "
                         "[0.092, 0.108], 10.0× [9.0, 11.0] faster than `dijkstra` on `bheap` (1.00 µs); its "
                         "interval is clear of the runner-up `astar-octile` (on `bheap`, 5.00× [4.50, 5.50]); "
                         "queue for `jps`: **a tie** between `bucket` and `bheap` (intervals overlap);") != NULL,
              "%s", md);
    cr_expect(strstr(md, "- `B`: fastest optimal solver: **a tie** between `jps` on `bheap` (median 0.100 µs, "
                         "speedup 10.0× [8.0, 12.0]) and `astar-octile` on `bheap` (median 0.111 µs, speedup "
                         "9.00× [7.00, 11.00]): their 95 % intervals overlap") != NULL, "%s", md);
    /* slower than Dijkstra: only bidijkstra, whose whole interval is below 1 */
    cr_expect(strstr(md, "slower than Dijkstra here (speedup and its whole interval below 1, queue `bheap`): "
                         "`bidijkstra` 0.80× [0.75, 0.85].") != NULL, "%s", md);
    cr_expect(strstr(md, "`astar-zero` 0.95") == NULL, "%s", md);
    cr_expect(strstr(md, "| `jps` | `bucket` | optimal | 50 | 0.100 | [0.092, 0.108] |") != NULL, "%s", md);
    free(md);
    rm_rf(dir);
}

/* A summary row with a per-map preparation (prep_ns_max, NAN: none), a
 * time_source and a speedup (NAN: none, as summary writes it for a row
 * timed another way). */
static void sum_row_src(FILE *f, const char *map, const char *solver, const char *queue, double t_med,
                        double sp, double prep, const char *src)
{
    fprintf(f, "%s,%s,%s,optimal,50,%.3f,%.3f,%.3f,%.3f,%.3f,1.000,%.3f,10.000,10.000,", map, solver, queue,
            t_med, t_med, t_med, t_med, t_med, t_med);
    if (isnan(sp)) fputs(",,,", f);
    else fprintf(f, "%.4f,50,,", sp);
    for (int k = 0; k < GB_ROW_NSTATUS; k++) fprintf(f, ",%d", k == GB_ROW_OK ? 50 : 0);
    fprintf(f, ",1024,%.3f,%.3f,", 0.97 * t_med, 1.03 * t_med);
    if (isnan(sp)) fputs(",,", f);
    else fprintf(f, "%.4f,%.4f,", 0.985 * sp, 1.015 * sp);
    if (!isnan(prep)) fprintf(f, "%.0f", prep);
    fprintf(f, ",,%s,,,8-nocut,\n", src);   /* ..., lb_ratio_mean, model, optimal_share */
}

/* The friction of a first report: per-map rows in the order of their
 * medians (not the registry's), a speedup that leaves out a per-map
 * preparation says so in the headline, and an external solver has no
 * speedup anywhere -- not in the headline, the summary, nor across maps.
 * Breaks if pair_table goes back to summary order, fmt_prep is dropped,
 * or xmap_load ranks a row of another time_source. */
GB_TEST(report, rows_by_median_prep_named_and_no_speedup_for_externals)
{
    const char *bin = gb_bin();
    char dir[64], p[256], log[128];
    make_tmpdir(dir, sizeof dir);
    snprintf(log, sizeof log, "%s/log", dir);
    snprintf(p, sizeof p, "%s/env.json", dir);
    write_file(p, "{\"run\": {\"run_id\": \"order\"}}\n");
    snprintf(p, sizeof p, "%s/summary.csv", dir);
    FILE *f = fopen(p, "w");
    cr_assert(f != NULL);
    fprintf(f, "%s\n", gb_summary_csv_header());
    sum_row_src(f, "A", "dijkstra", "bheap", 1e6, 1, 2e4, "inproc");   /* a queue's prep: below a query */
    sum_row_src(f, "A", "jps", "bheap", 1e5, 10, NAN, "inproc");
    sum_row_src(f, "A", "external:foo", "none", 5e4, NAN, 3e6, "process");
    sum_row_src(f, "A", "sg-tl-dt", "own-heap", 1016, 984, 18.9e6, "inproc");
    cr_assert_eq(fclose(f), 0);
    snprintf(p, sizeof p, "%s/queries.csv", dir);
    f = fopen(p, "w");
    cr_assert(f != NULL);
    fputs("map,scen,line,solver,queue,status,time_ns\n", f);
    for (int q = 0; q < 3; q++) {
        fprintf(f, "A,A.scen,%d,dijkstra,bheap,ok,1000000\n", q + 2);
        fprintf(f, "A,A.scen,%d,jps,bheap,ok,100000\n", q + 2);
        fprintf(f, "A,A.scen,%d,external:foo,none,ok,50000\n", q + 2);
        fprintf(f, "A,A.scen,%d,sg-tl-dt,own-heap,ok,1016\n", q + 2);
    }
    cr_assert_eq(fclose(f), 0);
    int rc = sh(log, "'%s' report '%s'", bin, dir);
    cr_assert_eq(rc, 0, "report exit %d: %s", rc, tail_of(log));
    snprintf(p, sizeof p, "%s/report.md", dir);
    char *md = slurp(p, NULL);
    cr_expect(strstr(md, "fastest optimal solver **`sg-tl-dt`** (on `own-heap`), median 1.02 µs per query "
                         "[0.986, 1.05], 984× [969, 999] (+18.9 ms prep per map) faster than `dijkstra` on "
                         "`bheap` (1000 µs); its interval is clear of the runner-up `jps` (on `bheap`, "
                         "10.0× [9.8, 10.2])") != NULL, "%s", md);
    cr_expect(strstr(md, "prep per map) faster than `dijkstra` on `bheap` (1000 µs); its interval is clear of the "
                         "runner-up `jps` (on `bheap`, 10.0× [9.8, 10.2] (+") == NULL, "jps has no prep: %s", md);
    /* the per-map table, fastest first: sg-tl-dt, the external, jps, dijkstra */
    const char *tab = strstr(md, "| solver | queue | guarantee | n | median µs |");
    cr_assert_not_null(tab, "%s", md);
    const char *r1 = strstr(tab, "| `sg-tl-dt` | `own-heap` |"), *r2 = strstr(tab, "| `external:foo` | `none` |"),
               *r3 = strstr(tab, "| `jps` | `bheap` |"), *r4 = strstr(tab, "| `dijkstra` | `bheap` |");
    cr_expect(r1 && r2 && r3 && r4 && r1 < r2 && r2 < r3 && r3 < r4, "rows not by median:\n%s", tab);
    /* across maps: the same rule as the headline's */
    cr_expect(strstr(md, "| `external:foo` | `none` | optimal | 0 | no speedup (timed as `process`) | - | - |")
              != NULL, "%s", md);
    cr_expect(strstr(md, "| `sg-tl-dt` | `own-heap` | optimal | 1 | 984× [984, 984] |") != NULL, "%s", md);
    free(md);
    rm_rf(dir);
}

/* A machine that was busy (env.json says so) puts a warning first among
 * the findings, with the reason; a quiet one does not.  And the rule
 * behind machine_busy (gb_env_busy). */
GB_TEST(report, a_busy_machine_is_flagged_first)
{
    gb_env e;
    memset(&e, 0, sizeof e);
    e.cores = 2;
    e.load[0] = 0.5;
    char why[160];
    cr_assert_eq(gb_env_busy(&e, NULL, why, sizeof why), 0);
    cr_assert_str_empty(why);
    e.load[0] = 1.6;
    cr_assert_eq(gb_env_busy(&e, NULL, why, sizeof why), 1);
    cr_assert_str_eq(why, "load average 1.60 on 2 cores before the run");
    e.load[0] = 0.1;
    gb_calib c;
    memset(&c, 0, sizeof c);
    c.min_ns = 100;
    c.max_ns = 140;
    cr_assert_eq(gb_env_busy(&e, &c, why, sizeof why), 0);
    c.max_ns = 230;
    cr_assert_eq(gb_env_busy(&e, &c, why, sizeof why), 1);
    cr_assert_str_eq(why, "the calibration's slowest run took 2.3x its fastest");

    const char *bin = gb_bin();
    for (int busy = 0; busy < 2; busy++) {
        char dir[64], p[256], log[128];
        make_tmpdir(dir, sizeof dir);
        snprintf(log, sizeof log, "%s/log", dir);
        snprintf(p, sizeof p, "%s/env.json", dir);
        write_file(p, busy ? "{\"machine_busy\": true, \"machine_busy_why\": \"load average 3.10 on 2 "
                             "cores before the run\", \"load_avg\": [3.1, 2, 1], \"run\": {\"run_id\": \"b\"}}\n"
                           : "{\"machine_busy\": false, \"machine_busy_why\": \"\", \"load_avg\": [0.1, 0.2, 0.3], "
                             "\"run\": {\"run_id\": \"q\"}}\n");
        snprintf(p, sizeof p, "%s/summary.csv", dir);
        FILE *f = fopen(p, "w");
        cr_assert(f != NULL);
        fprintf(f, "%s\n", gb_summary_csv_header());
        sum_row(f, "A", "dijkstra", "bheap", 1000, 900, 1100, 1, 1, 1);
        sum_row(f, "A", "jps", "bheap", 100, 90, 110, 10, 9, 11);
        cr_assert_eq(fclose(f), 0);
        int rc = sh(log, "'%s' report '%s'", bin, dir);
        cr_assert_eq(rc, 0, "report exit %d: %s", rc, tail_of(log));
        snprintf(p, sizeof p, "%s/report.md", dir);
        char *md = slurp(p, NULL);
        const char *w = strstr(md, "**Warning: the machine was busy while this was measured** (load average "
                                   "3.10 on 2 cores before the run)");
        if (busy) {
            cr_expect(w != NULL, "%s", md);
            const char *f1 = strstr(md, "## Headline findings\n\n- ");
            cr_expect(f1 && w && w == f1 + strlen("## Headline findings\n\n- "), "not first: %s", md);
            cr_expect(strstr(md, "| Load average | 3.10, 2.00, 1.00 (1, 5, 15 minutes, before the run) |") != NULL,
                      "%s", md);
        } else {
            cr_expect(strstr(md, "machine was busy") == NULL, "%s", md);
        }
        free(md);
        rm_rf(dir);
    }
}

static int check_self_contained(const char *path);

/* report.html embeds each PNG as base64 (every padding case), marks an
 * image the folder lacks, and links no file; report.md keeps the
 * relative links. */
/* A 1x1 PNG (67 bytes). */
static const unsigned char tiny_png[67] =
    "\x89\x50\x4e\x47\x0d\x0a\x1a\x0a\x00\x00\x00\x0d\x49\x48\x44\x52\x00\x00\x00\x01\x00\x00\x00\x01"
    "\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\x0a\x49\x44\x41\x54\x78\x9c\x63\x00\x01\x00\x00"
    "\x05\x00\x01\x0d\x0a\x2d\xb4\x00\x00\x00\x00\x49\x45\x4e\x44\xae\x42\x60\x82";

/* The first n bytes of tiny_png into dir/rel. */
static void write_png(const char *dir, const char *rel, size_t n)
{
    char p[512];
    snprintf(p, sizeof p, "%s/%s", dir, rel);
    FILE *f = fopen(p, "wb");
    cr_assert(f != NULL, "%s", p);
    cr_assert_eq(fwrite(tiny_png, 1, n, f), n);
    cr_assert_eq(fclose(f), 0);
}

/* A run folder dir with an env.json, a one-row summary.csv and plots/. */
static void image_run_folder(const char *dir)
{
    char p[256];
    snprintf(p, sizeof p, "%s/env.json", dir);
    write_file(p, "{\"run\": {\"run_id\": \"img\"}}\n");
    snprintf(p, sizeof p, "%s/summary.csv", dir);
    FILE *f = fopen(p, "w");
    cr_assert(f != NULL);
    fprintf(f, "%s\n", gb_summary_csv_header());
    sum_row(f, "A", "dijkstra", "bheap", 1000, 900, 1100, 1, 1, 1);
    cr_assert_eq(fclose(f), 0);
    snprintf(p, sizeof p, "%s/plots", dir);
    cr_assert_eq(mkdir(p, 0777), 0);
}

GB_TEST(report, html_embeds_images_and_marks_missing_ones)
{
    const char *bin = gb_bin();
    char dir[64], p[256], log[128];
    make_tmpdir(dir, sizeof dir);
    snprintf(log, sizeof log, "%s/log", dir);
    image_run_folder(dir);
    for (int k = 0; k < 3; k++) {   /* 67, 66 and 65 bytes: padding "==", none, "=" */
        char rel[32];
        snprintf(rel, sizeof rel, "plots/p%d.png", k);
        write_png(dir, rel, sizeof tiny_png - (size_t)k);
    }
    snprintf(p, sizeof p, "%s/plots.tsv", dir);
    write_file(p, "time\tplots/p0.png\tplots/p0.svg\tFirst <plot>\n"
                  "time\tplots/p1.png\t-\tSecond\n"
                  "cactus\tplots/p2.png\t-\tThird\n"
                  "cactus\tplots/gone.png\t-\tMissing\n");
    int rc = sh(log, "'%s' report '%s'", bin, dir);
    char *l = slurp(log, NULL);
    cr_expect_eq(rc, 0, "%s", l);
    cr_expect(strstr(l, "gridbench report: warning: ") != NULL && strstr(l, "/plots/gone.png: expected the "
              "image the plots manifest names, found none") != NULL, "%s", l);
    free(l);
    snprintf(p, sizeof p, "%s/report.html", dir);
    cr_expect_eq(check_self_contained(p), 3);
    char *html = slurp(p, NULL);
    cr_expect(strstr(html, "<img src=\"data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAACklEQVR4"
                           "nGMAAQAABQABDQottAAAAABJRU5ErkJggg==\" alt=\"First &lt;plot&gt;\">") != NULL, "%s", html);
    cr_expect(strstr(html, "base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAACklEQVR4nGMAAQAABQABDQottAAAAABJ"
                           "RU5ErkJg\"") != NULL);
    cr_expect(strstr(html, "base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAACklEQVR4nGMAAQAABQABDQottAAAAABJ"
                           "RU5ErkI=\"") != NULL);
    cr_expect(strstr(html, "<p class=\"bad\">Image missing from the run folder: <code>plots/gone.png</code></p>")
              != NULL, "%s", html);
    cr_expect(strstr(html, "(vector version: <code>plots/p0.svg</code> in the run folder)") != NULL);
    free(html);
    snprintf(p, sizeof p, "%s/report.md", dir);
    char *md = slurp(p, NULL);
    cr_expect(strstr(md, "![First plot](plots/p0.png)\n\nFirst <plot> ([SVG](plots/p0.svg))") != NULL ||
              strstr(md, "![First <plot>](plots/p0.png)") != NULL, "%s", md);
    cr_expect(strstr(md, "](plots/gone.png)") != NULL, "%s", md);
    free(md);
    rm_rf(dir);
}

/* plots.tsv is data: an image is embedded or linked only when it lies
 * inside the run folder (no "..", no absolute path, no link leading out)
 * and its first bytes say PNG (or SVG for the svg column); anything else
 * is skipped with a warning naming the manifest line. */
GB_TEST(report, images_outside_the_run_folder_or_not_images_are_skipped)
{
    const char *bin = gb_bin();
    char top[64], dir[128], p[256], log[128];
    make_tmpdir(top, sizeof top);
    snprintf(dir, sizeof dir, "%s/run", top);
    snprintf(log, sizeof log, "%s/log", top);
    cr_assert_eq(mkdir(dir, 0777), 0);
    image_run_folder(dir);
    /* a real PNG inside (its last byte cut: its base64 ends "RU5ErkJg"),
     * a real PNG outside (whole: "RU5ErkJggg=="), a secret outside */
    write_png(dir, "plots/in.png", sizeof tiny_png - 1);
    write_png(top, "out.png", sizeof tiny_png);
    snprintf(p, sizeof p, "%s/secret", top);
    write_file(p, "s3cr3t\n");
    snprintf(p, sizeof p, "%s/plots/in.svg", dir);
    write_file(p, "<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"></svg>\n");
    snprintf(p, sizeof p, "%s/plots/fake.png", dir);
    write_file(p, "s3cr3t, named .png\n");
    char cmd[512];
    snprintf(cmd, sizeof cmd, "ln -s ../../out.png %s/plots/link.png && ln -s in.png %s/plots/ok-link.png "
             "&& ln -s ../../secret %s/plots/link.svg", dir, dir, dir);
    cr_assert_eq(system(cmd), 0);
    snprintf(p, sizeof p, "%s/plots.tsv", dir);
    char man[1024];
    snprintf(man, sizeof man,
             "time\t../../../../../../../../etc/hostname\t-\tUp and out\n"   /* line 1 */
             "time\t%s/out.png\t-\tAbsolute\n"                                /* 2 */
             "time\tplots/link.png\t-\tA link leading out\n"                  /* 3 */
             "time\tplots/fake.png\t-\tNot a PNG\n"                           /* 4 */
             "time\tplots/../../out.png\t-\tDown and up\n"                    /* 5 */
             "cactus\tplots/in.png\tplots/link.svg\tSVG leading out\n"        /* 6 */
             "cactus\tplots/ok-link.png\tplots/fake.png\tSVG that is not\n"   /* 7 */
             "cactus\tplots/in.png\tplots/in.svg\tAll good\n", top);          /* 8 */
    write_file(p, man);
    int rc = sh(log, "'%s' report '%s'", bin, dir);
    char *l = slurp(log, NULL);
    cr_expect_eq(rc, 0, "%s", l);
    const char *want[] = {
        ":1: expected a PNG inside the run folder, found '../../../../../../../../etc/hostname' "
            "(a path leading outside it); skipped",
        "/out.png' (a path leading outside it); skipped",
        ":3: expected a PNG inside the run folder, found 'plots/link.png' (a link leading outside it); skipped",
        ":4: expected a PNG inside the run folder, found 'plots/fake.png' (a file that is not a PNG by its "
            "first bytes); skipped",
        ":5: expected a PNG inside the run folder, found 'plots/../../out.png' (a path leading outside it)",
        ":6: expected an SVG inside the run folder, found 'plots/link.svg' (a link leading outside it); skipped",
        ":7: expected an SVG inside the run folder, found 'plots/fake.png' (a file that is not an SVG by "
            "its first bytes); skipped",
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        cr_expect(strstr(l, want[i]) != NULL, "wanted: %s\nin: %s", want[i], l);
    cr_expect(strstr(l, ":8:") == NULL, "%s", l);
    free(l);
    snprintf(p, sizeof p, "%s/report.html", dir);
    cr_expect_eq(check_self_contained(p), 3);   /* lines 6, 7 and 8 */
    char *html = slurp(p, NULL);
    cr_expect(strstr(html, "RU5ErkJggg==") == NULL, "a PNG from outside was embedded");
    cr_expect(strstr(html, "czNjcjN0") == NULL && strstr(html, "s3cr3t") == NULL, "the secret was embedded");
    cr_expect(strstr(html, "Up and out") == NULL && strstr(html, "hostname") == NULL, "%s", html);
    cr_expect(strstr(html, "(vector version: <code>plots/in.svg</code> in the run folder)") != NULL, "%s", html);
    cr_expect(strstr(html, "link.svg") == NULL && strstr(html, "fake.png") == NULL, "%s", html);
    free(html);
    snprintf(p, sizeof p, "%s/report.md", dir);
    char *md = slurp(p, NULL);
    cr_expect(strstr(md, "hostname") == NULL && strstr(md, "out.png") == NULL && strstr(md, "fake.png") == NULL,
              "%s", md);
    cr_expect(strstr(md, "([SVG](plots/in.svg))") != NULL, "%s", md);
    free(md);
    rm_rf(top);
}

/* ---- across maps ------------------------------------------------------------ */

/* The cross-map table: the geometric mean of the per-map speedups, with a
 * stratified bootstrap interval.  Constant per-query ratios make every
 * resample equal (4x on A, 16x on B: 8x [8, 8]); a noisy solver gets an
 * interval around its estimate; the same input gives the same bytes. */
GB_TEST(report, cross_map_geometric_mean_with_intervals)
{
    const char *bin = gb_bin();
    char dir[64], p[256], log[128];
    make_tmpdir(dir, sizeof dir);
    snprintf(log, sizeof log, "%s/log", dir);
    snprintf(p, sizeof p, "%s/env.json", dir);
    write_file(p, "{\"run\": {\"run_id\": \"geo\"}}\n");
    snprintf(p, sizeof p, "%s/summary.csv", dir);
    FILE *f = fopen(p, "w");
    cr_assert(f != NULL);
    fprintf(f, "%s\n", gb_summary_csv_header());
    sum_row(f, "A", "dijkstra", "bheap", 300, 200, 400, 1, 1, 1);
    sum_row(f, "A", "jps", "bheap", 75, 50, 100, 4, 4, 4);
    sum_row(f, "A", "astar-octile", "bheap", 150, 100, 200, 2, 2, 2);
    sum_row(f, "A", "noisy", "bheap", 150, 100, 200, 2, 1, 3);
    sum_row(f, "B", "dijkstra", "bheap", 300, 200, 400, 1, 1, 1);
    sum_row(f, "B", "jps", "bheap", 19, 12, 25, 16, 16, 16);
    sum_row(f, "B", "noisy", "bheap", 150, 100, 200, 2, 1, 3);
    cr_assert_eq(fclose(f), 0);
    snprintf(p, sizeof p, "%s/queries.csv", dir);
    f = fopen(p, "w");
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
    int rc = sh(log, "'%s' report '%s'", bin, dir);
    cr_assert_eq(rc, 0, "report exit %d: %s", rc, tail_of(log));
    snprintf(p, sizeof p, "%s/report.md", dir);
    char *md = slurp(p, NULL);
    cr_expect(strstr(md, "### Across maps: geometric-mean speedup over Dijkstra") != NULL, "%s", md);
    /* the slice each map ran (no dijkstra_cost column here: no length range) */
    cr_expect(strstr(md, "| Slice per map | `A`: 5 queries; `B`: 4 queries |") != NULL, "%s", md);
    cr_expect(strstr(md, "| `jps` | `bheap` | optimal | 2 | 8.00× [8.00, 8.00] | 4.00× `A` | 16.0× `B` |") != NULL,
              "%s", md);
    cr_expect(strstr(md, "| `astar-octile` | `bheap` | optimal | 1 | 2.00× [2.00, 2.00] | 2.00× `A` | 2.00× `A` |")
              != NULL, "%s", md);
    /* sorted by the estimate, fastest first */
    const char *j = strstr(md, "| `jps` | `bheap` | optimal | 2 |"), *a = strstr(md, "| `astar-octile` | `bheap` | optimal | 1 |");
    cr_expect(j && a && j < a, "not sorted by speedup");
    /* noisy: per-query ratios 1..5, so resamples differ -- read the row back */
    const char *nz = strstr(md, "| `noisy` | `bheap` | optimal | 2 | ");
    cr_assert(nz != NULL, "%s", md);
    double est = 0, lo = 0, hi = 0;
    cr_assert_eq(sscanf(nz, "| `noisy` | `bheap` | optimal | 2 | %lf× [%lf, %lf]", &est, &lo, &hi), 3, "%.120s", nz);
    cr_expect(lo < hi && lo <= est && est <= hi, "noisy: %g [%g, %g]", est, lo, hi);
    /* the same input, the same page */
    rc = sh(log, "'%s' report '%s'", bin, dir);
    cr_assert_eq(rc, 0);
    char *md2 = slurp(p, NULL);
    cr_expect_str_eq(md2, md);
    free(md2);
    free(md);
    /* without queries.csv (or without the baseline) the table is left out */
    snprintf(p, sizeof p, "%s/queries.csv", dir);
    cr_assert_eq(remove(p), 0);
    rc = sh(log, "'%s' report '%s'", bin, dir);
    cr_assert_eq(rc, 0);
    snprintf(p, sizeof p, "%s/report.md", dir);
    md = slurp(p, NULL);
    cr_expect(strstr(md, "Across maps: geometric-mean") == NULL);
    free(md);
    rm_rf(dir);
}

/* The verdicts of `gridbench heuristics --verdicts`, when the folder has
 * them, become a table: failing verdicts and a wrong registry claim in
 * bold; a malformed file is an error naming it. */
GB_TEST(report, heuristic_verdict_table)
{
    const char *bin = gb_bin();
    char dir[64], p[256], log[128];
    make_tmpdir(dir, sizeof dir);
    snprintf(log, sizeof log, "%s/log", dir);
    snprintf(p, sizeof p, "%s/env.json", dir);
    write_file(p, "{\"run\": {\"run_id\": \"heur\"}}\n");
    snprintf(p, sizeof p, "%s/summary.csv", dir);
    FILE *f = fopen(p, "w");
    cr_assert(f != NULL);
    fprintf(f, "%s\n", gb_summary_csv_header());
    sum_row(f, "A", "dijkstra", "bheap", 1000, 900, 1100, 1, 1, 1);
    cr_assert_eq(fclose(f), 0);
    snprintf(p, sizeof p, "%s/heuristics-verdicts.csv", dir);
    write_file(p, "map,model,heuristic,weight,goals,verdict,inadmissible_cells,max_over,inconsistent_edges,"
                  "max_violation,mean_ratio,registry\n"
                  "m.map,8-nocut,octile,1,4,admissible+consistent,0,0,0,0,0.5,agrees\n"
                  "m.map,8-nocut,manhattan,1,4,neither,74,1.171572875,10648,0.5857864376,0.6,agrees\n"
                  "m.map,8-nocut,euclidean,1,4,neither,3,0.5,2,0.25,0.4,WRONG: claims admissible\n");
    int rc = sh(log, "'%s' report '%s'", bin, dir);
    cr_assert_eq(rc, 0, "report exit %d: %s", rc, tail_of(log));
    snprintf(p, sizeof p, "%s/report.md", dir);
    char *md = slurp(p, NULL);
    cr_expect(strstr(md, "### Heuristics: admissible? consistent? (`gridbench heuristics`)") != NULL, "%s", md);
    cr_expect(strstr(md, "| `octile` | 1 | `8-nocut` | `m.map` | 4 | admissible+consistent | 0 | 0.0000 | 0 | "
                         "0.0000 | 0.5000 | agrees |") != NULL, "%s", md);
    cr_expect(strstr(md, "| `manhattan` | 1 | `8-nocut` | `m.map` | 4 | **neither** | 74 | 1.1716 | 10648 | "
                         "0.5858 | 0.6000 | agrees |") != NULL, "%s", md);
    cr_expect(strstr(md, "| **WRONG: claims admissible** |") != NULL, "%s", md);
    free(md);
    snprintf(p, sizeof p, "%s/report.html", dir);
    char *html = slurp(p, NULL);
    cr_expect(strstr(html, "<td class=\"l\"><strong>neither</strong></td>") != NULL);
    free(html);
    snprintf(p, sizeof p, "%s/heuristics-verdicts.csv", dir);
    write_file(p, "heuristic,weight,bucket,lo,hi,mean_ratio,cells\noctile,1,0,0,4,0.5,10\n");
    rc = sh(log, "'%s' report '%s'", bin, dir);
    cr_expect_eq(rc, 65, "%s", tail_of(log));
    cr_expect(strstr(tail_of(log), "heuristics-verdicts.csv") != NULL, "%s", tail_of(log));
    rm_rf(dir);
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
    char dir[64], p[256], svgp[256], log[128];
    make_tmpdir(dir, sizeof dir);
    snprintf(log, sizeof log, "%s/log", dir);
    snprintf(p, sizeof p, "%s/bucket.tsv", dir);
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
    write_file(p, tsv);
    snprintf(svgp, sizeof svgp, "%s/e.svg", dir);
    int rc = sh(log, "gnuplot -e \"data='%s'; out='%s'\" plots/expansions_vs_length.gp", p, svgp);
    cr_assert_eq(rc, 0, "gnuplot: %s", tail_of(log));
    char *svg = slurp(svgp, NULL);
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
    rm_rf(dir);
}

/* The trade-off plot: each box's label "solver  map" upright below it
 * (never running past the plot's edge), and a log axis that reads 0.01,
 * 1, 100 -- not 1024 ... 0.00098.  Breaks if the labels go back to a
 * slant or the axis to base 2 or a fixed format. */
GB_TEST(plots, tradeoff_labels_under_their_boxes_and_plain_log_ticks)
{
    need_gnuplot();
    char dir[64], p[256], svgp[256], log[128];
    make_tmpdir(dir, sizeof dir);
    snprintf(log, sizeof log, "%s/log", dir);
    snprintf(p, sizeof p, "%s/tradeoff.tsv", dir);
    char tsv[4096];
    size_t k = 0;
    for (int i = 0; i < 20; i++)
        k += (size_t)snprintf(tsv + k, sizeof tsv - k, "A.map\twastar-octile:w=1.5\t%.3f\t%g\nB.map\ttheta\t0.97\t%g\n",
                              1.0 + i / 100.0, 0.001 * pow(10, i / 3.0), 2.0 + i);
    write_file(p, tsv);
    snprintf(svgp, sizeof svgp, "%s/t.svg", dir);
    int rc = sh(log, "gnuplot -e \"data='%s'; out='%s'\" plots/hpa_tradeoff.gp", p, svgp);
    cr_assert_eq(rc, 0, "gnuplot: %s", tail_of(log));
    char *svg = slurp(svgp, NULL);
    const char *l = strstr(svg, ">wastar-octile:w=1.5  A</text>");
    cr_assert_not_null(l, "no box label 'wastar-octile:w=1.5  A'");
    const char *g = l;
    while (g > svg && strncmp(g, "<g transform=", 13) != 0) g--;
    cr_expect(strstr(g, "rotate(-90)") && strstr(g, "rotate(-90)") < l && strstr(g, "text-anchor=\"end\"") < l,
              "the label is not upright and ending at its box: %.200s", g);
    cr_expect(strstr(svg, ">theta  B</text>") != NULL);
    cr_expect(strstr(svg, ">0.01</text>") != NULL && strstr(svg, ">100</text>") != NULL, "no plain powers of 10");
    cr_expect(strstr(svg, ">1024") == NULL && strstr(svg, ">0.03125") == NULL && strstr(svg, ".00000<") == NULL,
              "unreadable ticks");
    free(svg);
    rm_rf(dir);
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

/* A run folder with one summary row and the given plots.tsv; 0 when
 * `gridbench report` wrote its pages. */
static int browser_fixture(const char *bin, const char *dir, const char *manifest, const char *log)
{
    static const unsigned char png[67] =
        "\x89\x50\x4e\x47\x0d\x0a\x1a\x0a\x00\x00\x00\x0d\x49\x48\x44\x52\x00\x00\x00\x01\x00\x00\x00\x01"
        "\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\x0a\x49\x44\x41\x54\x78\x9c\x63\x00\x01\x00\x00"
        "\x05\x00\x01\x0d\x0a\x2d\xb4\x00\x00\x00\x00\x49\x45\x4e\x44\xae\x42\x60\x82";
    char p[256];
    snprintf(p, sizeof p, "%s/env.json", dir);
    write_file(p, "{\"run\": {\"run_id\": \"browser\"}}\n");
    snprintf(p, sizeof p, "%s/summary.csv", dir);
    FILE *f = fopen(p, "w");
    cr_assert(f != NULL);
    fprintf(f, "%s\n", gb_summary_csv_header());
    sum_row(f, "A", "dijkstra", "bheap", 1000, 900, 1100, 1, 1, 1);
    sum_row(f, "A", "jps", "bheap", 100, 90, 110, 10, 9, 11);
    cr_assert_eq(fclose(f), 0);
    snprintf(p, sizeof p, "%s/plots", dir);
    mkdir(p, 0777);
    snprintf(p, sizeof p, "%s/plots/good.png", dir);
    f = fopen(p, "wb");
    cr_assert(f != NULL);
    cr_assert_eq(fwrite(png, 1, sizeof png, f), sizeof png);
    cr_assert_eq(fclose(f), 0);
    /* a PNG's signature, then bytes no browser can decode (without the
     * signature, gridbench report would not embed it at all) */
    snprintf(p, sizeof p, "%s/plots/bad.png", dir);
    write_file(p, "\x89PNG\r\n\x1a\nnot a png at all\n");
    snprintf(p, sizeof p, "%s/plots.tsv", dir);
    write_file(p, manifest);
    return sh(log, "'%s' report '%s'", bin, dir);
}

/* report.html rendered by headless Chromium: every image loads, and the
 * screenshot is a PNG.  Skipped only when chromium is absent. */
GB_TEST(report_browser, every_image_loads_and_a_screenshot_is_kept)
{
    GB_TEST_E2E();
    const char *bin = gb_bin();
    need_chromium();
    char dir[64], p[256], log[128];
    make_tmpdir(dir, sizeof dir);
    snprintf(log, sizeof log, "%s/log", dir);
    int rc = browser_fixture(bin, dir, "time\tplots/good.png\t-\tA good image\n"
                                       "cactus\tplots/good.png\t-\tThe same again\n", log);
    cr_assert_eq(rc, 0, "report: %s", tail_of(log));
    rc = sh(log, "scripts/check-html.sh --min-images 2 --screenshot '%s/report.png' '%s/report.html'", dir, dir);
    cr_expect_eq(rc, 0, "check-html.sh exit %d: %s", rc, tail_of(log));
    cr_expect(strstr(tail_of(log), "all 2 images loaded in Chromium") != NULL, "%s", tail_of(log));
    size_t len = 0;
    snprintf(p, sizeof p, "%s/report.png", dir);
    char *shot = file_exists(p) ? slurp(p, &len) : NULL;
    cr_expect(shot && len > 1000 && memcmp(shot, "\x89PNG\r\n\x1a\n", 8) == 0, "no screenshot %s", p);
    free(shot);
    /* the check copy is not left in the run folder, and the page stays script-free */
    snprintf(p, sizeof p, "%s/report.html", dir);
    char *html = slurp(p, NULL);
    cr_expect(strstr(html, "<script") == NULL);
    free(html);
    rm_rf(dir);
}

/* The screenshot shows the whole page, not its top 2400 px (where a
 * report's plots never were).  Breaks if the window keeps a fixed height
 * or the page's height is measured at another width. */
GB_TEST(report_browser, the_screenshot_covers_the_whole_page)
{
    GB_TEST_E2E(); /* two Chromium starts, 4 s of CPU: make test-full */
    need_chromium();
    char dir[64], p[256], shot[256], log[128];
    make_tmpdir(dir, sizeof dir);
    snprintf(log, sizeof log, "%s/log", dir);
    snprintf(p, sizeof p, "%s/tall.html", dir);
    write_file(p, "<!DOCTYPE html><html><head><title>t</title></head><body style=\"margin:0\">"
                  "<div style=\"height:6000px\">a long page</div><p>its end</p></body></html>\n");
    snprintf(shot, sizeof shot, "%s/tall.png", dir);
    int rc = sh(log, "scripts/check-html.sh --screenshot '%s' '%s'", shot, p);
    cr_assert_eq(rc, 0, "check-html.sh exit %d: %s", rc, tail_of(log));
    size_t len = 0;
    unsigned char *png = (unsigned char *)slurp(shot, &len);
    cr_assert(png && len > 24 && memcmp(png, "\x89PNG\r\n\x1a\n", 8) == 0, "no PNG %s", shot);
    unsigned long w = (unsigned long)png[16] << 24 | (unsigned long)png[17] << 16
                      | (unsigned long)png[18] << 8 | (unsigned long)png[19];
    unsigned long h = (unsigned long)png[20] << 24 | (unsigned long)png[21] << 16
                      | (unsigned long)png[22] << 8 | (unsigned long)png[23];
    cr_expect_eq(w, 1280, "screenshot %lu px wide", w);
    cr_expect(h > 6000 && h < 6200, "screenshot %lu px tall, the page about 6050", h);
    cr_expect(strstr(tail_of(log), "1280 x ") != NULL, "%s", tail_of(log));
    free(png);
    rm_rf(dir);
}

/* The check fails on a deliberately broken image -- an embedded PNG that
 * does not decode, and a reference to a file that is not there -- and
 * names each; --min-images fails a page without images. */
GB_TEST(report_browser, a_broken_image_fails_the_check)
{
    GB_TEST_E2E();
    const char *bin = gb_bin();
    need_chromium();
    char dir[64], p[256], log[128];
    make_tmpdir(dir, sizeof dir);
    snprintf(log, sizeof log, "%s/log", dir);
    int rc = browser_fixture(bin, dir, "time\tplots/good.png\t-\tGood\n"
                                       "time\tplots/bad.png\t-\tBroken on purpose\n", log);
    cr_assert_eq(rc, 0, "report: %s", tail_of(log));
    rc = sh(log, "scripts/check-html.sh '%s/report.html'", dir);
    cr_expect_eq(rc, 1, "expected exit 1 for a broken embedded image, found %d: %s", rc, tail_of(log));
    /* the signature and "not a png" in base64 */
    cr_expect(strstr(tail_of(log), "1 of 2 images did not load in Chromium") != NULL &&
              strstr(tail_of(log), "data:image/png;base64,iVBORw0KGgpub3QgYSBwbmcg") != NULL, "%s", tail_of(log));
    /* a hand-made page: one good image, one missing file */
    snprintf(p, sizeof p, "%s/links.html", dir);
    write_file(p, "<!DOCTYPE html><html><head><title>t</title></head><body>"
                  "<img src=\"plots/good.png\" alt=\"\"><img src=\"plots/gone.png\" alt=\"\"></body></html>\n");
    rc = sh(log, "scripts/check-html.sh '%s'", p);
    cr_expect_eq(rc, 1, "expected exit 1 for a missing file, found %d: %s", rc, tail_of(log));
    cr_expect(strstr(tail_of(log), "  plots/gone.png") != NULL && strstr(tail_of(log), "good.png") == NULL,
              "%s", tail_of(log));
    write_file(p, "<!DOCTYPE html><html><body><p>no image</p></body></html>\n");
    rc = sh(log, "scripts/check-html.sh --min-images 1 '%s'", p);
    cr_expect_eq(rc, 1, "%s", tail_of(log));
    cr_expect(strstr(tail_of(log), "expected at least 1 images, found 0") != NULL, "%s", tail_of(log));
    rm_rf(dir);
}

/* Without chromium the check says so and exits 3 (report.sh then skips
 * its screenshot with a note); this needs no browser. */
GB_TEST(report_browser, absent_chromium_is_named)
{
    if (!file_exists("scripts/check-html.sh")) cr_skip_test("not run from the repository root");
    char dir[64], p[256], log[128];
    make_tmpdir(dir, sizeof dir);
    snprintf(log, sizeof log, "%s/log", dir);
    snprintf(p, sizeof p, "%s/page.html", dir);
    write_file(p, "<html><body></body></html>\n");
    int rc = sh(log, "GB_CHROMIUM=%s/no-such-browser scripts/check-html.sh '%s'", dir, p);
    cr_expect_eq(rc, 3, "%s", tail_of(log));
    cr_expect(strstr(tail_of(log), "chromium not found") != NULL &&
              strstr(tail_of(log), "install the Debian package chromium") != NULL, "%s", tail_of(log));
    rm_rf(dir);
}

/* ---- CLI errors ------------------------------------------------------- */

GB_TEST(report_cli, usage_errors)
{
    const char *bin = gb_bin();
    char dir[64], log[128];
    make_tmpdir(dir, sizeof dir);
    snprintf(log, sizeof log, "%s/log", dir);
    cr_expect_eq(sh(log, "'%s' summary", bin), EX_USAGE);
    char *l = slurp(log, NULL);
    cr_expect(strstr(l, "gridbench summary: expected one QUERIES.csv, found 0 file arguments") != NULL, "%s", l);
    free(l);
    cr_expect_eq(sh(log, "'%s' summary '%s/none.csv'", bin, dir), EX_NOINPUT);
    cr_expect_eq(sh(log, "'%s' report '%s'", bin, dir), EX_NOINPUT);
    l = slurp(log, NULL);
    cr_expect(strstr(l, "env.json") != NULL, "%s", l);
    free(l);
    cr_expect_eq(sh(log, "'%s' report", bin), EX_USAGE);
    cr_expect_eq(sh(log, "'%s' summary --help", bin), 0);
    rm_rf(dir);
}

GB_TEST(report_cli, script_names_missing_tools_and_bad_options)
{
    const char *bin = gb_bin();
    if (!file_exists("scripts/report.sh")) cr_skip_test("not run from the repository root");
    char dir[64], log[128];
    make_tmpdir(dir, sizeof dir);
    snprintf(log, sizeof log, "%s/log", dir);
    int rc = sh(log, "/bin/bash scripts/report.sh --bin '%s' --reps 0", bin);
    cr_expect_eq(rc, 2);
    char *l = slurp(log, NULL);
    cr_expect(strstr(l, "report.sh: error: --reps: expected a positive integer, found '0'") != NULL, "%s", l);
    free(l);
    rc = sh(log, "/bin/bash scripts/report.sh --bin '%s' --anyangle-model corner", bin);
    cr_expect_eq(rc, 2);
    l = slurp(log, NULL);
    cr_expect(strstr(l, "report.sh: error: --anyangle-model: expected centre or gppc, found 'corner'") != NULL,
              "%s", l);
    free(l);
    /* no gnuplot on PATH: the message names the Debian package */
    rc = sh(log, "PATH=/nonexistent /bin/bash scripts/report.sh --bin '%s'", bin);
    cr_expect_eq(rc, 3);
    l = slurp(log, NULL);
    cr_expect(strstr(l, "gnuplot not found: install the Debian package gnuplot-nox") != NULL, "%s", l);
    free(l);
    rm_rf(dir);
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
        cr_assert(strncmp(b, pre, sizeof pre - 1) == 0, "%s: an image that is not embedded: %.60s", path, b);
        b += sizeof pre - 1;
        unsigned char *png = malloc((size_t)(e - b) + 4);
        cr_assert(png != NULL);
        long len = unbase64(b, (size_t)(e - b), png);
        cr_expect(len > 20 && memcmp(png, "\x89PNG\r\n\x1a\n", 8) == 0, "%s: image %d is no PNG", path, n);
        int iend = 0;   /* the IEND chunk ends the file (the test's own images cut its CRC) */
        for (long k = len - 12; k >= 0 && k <= len - 4 && !iend; k++) iend = memcmp(png + k, "IEND", 4) == 0;
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
    char want[64];
    snprintf(want, sizeof want, "%s\tgbfs-octile\t", name);
    cr_expect(strncmp(tt, want, strlen(want)) == 0, "tradeoff.tsv starts: %.80s", tt);
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
    { /* the first screen: correctness, winners, queues, heuristics, viewers */
        snprintf(p, sizeof p, "%s/report.md", run);
        char *md = slurp(p, NULL);
        const char *g = strstr(md, "## At a glance"), *h = strstr(md, "## Headline findings");
        cr_expect(g && h && g < h, "no first screen before the findings");
        cr_expect(g && strstr(g, "**Correct.** All ") != NULL, "no correctness line");
        cr_expect(g && strstr(g, "| fastest optimal (solver · queue) |") != NULL, "no winner table");
        cr_expect(g && strstr(g, "**Queues:** of the ") != NULL, "no queue sentence");
        cr_expect(g && strstr(g, "| `octile` | yes | yes | ") != NULL, "no heuristic verdicts: octile");
        cr_expect(g && strstr(g, "](traces/random32-20-3.map.html)") != NULL, "no viewer link");
        free(md);
    }
    {   /* the tables show each row's workspace */
        snprintf(p, sizeof p, "%s/report.md", run);
        char *md = slurp(p, NULL);
        cr_expect(strstr(md, "| memory |") != NULL, "report.md tables lack the memory column");
        cr_expect(strstr(md, "| Slice per map | `random32-20-3.map`: ") != NULL &&
                  strstr(md, " queries, optimal lengths ") != NULL, "report.md states no slice");
        cr_expect(strstr(md, "### Across maps: geometric-mean speedup over Dijkstra") != NULL &&
                  strstr(md, "| `jps` | `bheap` | optimal | 2 | ") != NULL, "no cross-map table");
        cr_expect(strstr(md, " KiB |") != NULL || strstr(md, " MiB |") != NULL,
                  "report.md shows no workspace size");
        free(md);
    }
    snprintf(p, sizeof p, "%s/report.html", run);
    char *html = slurp(p, NULL);
    cr_expect(strstr(html, "<script") == NULL, "report.html must not use JavaScript");
    const char *env_at = strstr(html, "id=\"environment\""), *find_at = strstr(html, "id=\"findings\""),
               *tab_at = strstr(html, "id=\"tables\""), *plot_at = strstr(html, "id=\"plots\""),
               *glance_at = strstr(html, "id=\"glance\"");
    cr_expect(
        glance_at && env_at && find_at && tab_at && plot_at && glance_at < find_at && find_at < tab_at
            && tab_at < plot_at && plot_at < env_at,
        "report.html sections out of order: the first screen first, the environment after the plots");
    cr_expect(strstr(html, "No solver failures") != NULL);
    cr_expect(strstr(html, "hyperfine") != NULL);
    free(html);
    rm_rf(dir);
}
