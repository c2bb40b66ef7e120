/*
 * test_env.c -- Criterion tests for harness/core/gb_sha256, harness/run/gb_env and
 * `gridbench env` (harness/cli/gb_cmd_env.c).
 *
 *   sha256_*   FIPS 180-4 / NIST example vectors ("abc", "", the 448-bit
 *              and 896-bit messages, one million 'a'), incremental updates
 *              split at every block boundary case, gb_sha256_file on the
 *              shared Moving AI copies against their SHA256SUMS ($GB_SHARED,
 *              default ../shared/movingai; skipped when absent), and the
 *              pinned error texts
 *   env_*      gb_env_collect fills every field (date in ISO 8601 UTC)
 *   json_*     gb_json_str escaping byte for byte; the command's output is
 *              checked with a small recursive-descent JSON parser (syntax,
 *              required keys, file checksums and sizes)
 *   calib_*    the calibration record is consistent
 *   cli_*      usage errors and their exit codes
 */
#include "gb_test.h"
#include <criterion/redirect.h>

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gb_cmd.h"
#include "gb_diag.h"
#include "gb_env.h"
#include "gb_sha256.h"

/* ---- helpers ---------------------------------------------------------- */

static void hex_of(const void *buf, size_t len, char hex[65])
{
    uint8_t dig[32];
    gb_sha256(buf, len, dig);
    gb_sha256_hex(dig, hex);
}

static const char *shared_dir(void)
{
    const char *dir = getenv("GB_SHARED");
    if (!dir || !dir[0]) dir = "../shared/movingai";
    char p[4096];
    snprintf(p, sizeof p, "%s/SHA256SUMS", dir);
    struct stat st;
    return stat(p, &st) == 0 ? dir : NULL;
}

static char *read_text(const char *path)
{
    char *buf;
    size_t len;
    gb_diag d;
    cr_assert_eq(gb_read_file(path, &buf, &len, &d), 0, "%s", d.msg);
    cr_assert_eq(strlen(buf), len, "NUL byte in %s", path);
    return buf;
}

/* ---- SHA-256 ---------------------------------------------------------- */

GB_TEST(sha256, fips_vectors)
{
    char hex[65];
    hex_of("abc", 3, hex);
    cr_expect_str_eq(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    hex_of("", 0, hex);
    cr_expect_str_eq(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    const char *m448 = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    cr_assert_eq(strlen(m448) * 8, 448);
    hex_of(m448, strlen(m448), hex);
    cr_expect_str_eq(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    const char *m896 = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
                       "hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";
    cr_assert_eq(strlen(m896) * 8, 896);
    hex_of(m896, strlen(m896), hex);
    cr_expect_str_eq(hex, "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
}

GB_TEST(sha256, million_a)
{
    char *buf = malloc(1000000);
    cr_assert(buf != NULL);
    memset(buf, 'a', 1000000);
    char hex[65];
    hex_of(buf, 1000000, hex);
    cr_expect_str_eq(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    /* Same digest fed 1000 bytes at a time. */
    gb_sha256_ctx c;
    gb_sha256_init(&c);
    for (int i = 0; i < 1000; i++) gb_sha256_update(&c, buf + 1000 * i, 1000);
    uint8_t dig[32];
    gb_sha256_final(&c, dig);
    gb_sha256_hex(dig, hex);
    cr_expect_str_eq(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    free(buf);
}

GB_TEST(sha256, incremental_equals_one_shot)
{
    /* Lengths around the padding boundaries (55, 56, 63, 64, 65 ...) and
     * every split point of each message. */
    uint8_t msg[200];
    for (int i = 0; i < 200; i++) msg[i] = (uint8_t)(i * 37 + 11);
    static const size_t lens[] = { 1, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129, 200 };
    for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
        size_t n = lens[li];
        char want[65], got[65];
        hex_of(msg, n, want);
        for (size_t cut = 0; cut <= n; cut++) {
            gb_sha256_ctx c;
            gb_sha256_init(&c);
            gb_sha256_update(&c, msg, cut);
            gb_sha256_update(&c, NULL, 0);
            gb_sha256_update(&c, msg + cut, n - cut);
            uint8_t dig[32];
            gb_sha256_final(&c, dig);
            gb_sha256_hex(dig, got);
            cr_assert_str_eq(got, want, "length %zu split at %zu", n, cut);
        }
    }
}

GB_TEST(sha256, shared_files_match_sha256sums)
{
    const char *dir = shared_dir();
    if (!dir) cr_skip_test("no shared Moving AI directory with SHA256SUMS (set GB_SHARED)");
    char p[4096];
    snprintf(p, sizeof p, "%s/SHA256SUMS", dir);
    FILE *f = fopen(p, "r");
    cr_assert(f != NULL);
    char line[4096];
    int checked = 0;
    while (fgets(line, sizeof line, f)) {
        char want[65], rel[2048];
        if (sscanf(line, "%64s %2047s", want, rel) != 2) continue;
        const char *r = strncmp(rel, "./", 2) == 0 ? rel + 2 : rel;
        snprintf(p, sizeof p, "%s/%s", dir, r);
        char hex[65];
        uint64_t bytes;
        gb_diag d;
        cr_assert_eq(gb_sha256_file_n(p, hex, &bytes, &d), 0, "%s", d.msg);
        cr_expect_str_eq(hex, want, "%s", p);
        struct stat st;
        cr_assert_eq(stat(p, &st), 0);
        cr_expect_eq(bytes, (uint64_t)st.st_size, "%s", p);
        char hex2[65];
        cr_assert_eq(gb_sha256_file(p, hex2, &d), 0);
        cr_expect_str_eq(hex2, hex);
        checked++;
    }
    fclose(f);
    cr_expect_geq(checked, 14, "only %d files listed", checked);
}

GB_TEST(sha256, file_errors)
{
    char hex[65] = "x";
    gb_diag d;
    cr_expect_eq(gb_sha256_file("/nonexistent/gb/none.map", hex, &d), EX_NOINPUT);
    cr_expect_str_eq(d.path, "/nonexistent/gb/none.map");
    cr_expect_str_eq(d.msg, "expected a readable file, found 'No such file or directory'");
    cr_expect_str_eq(hex, "");
    cr_expect_eq(gb_sha256_file("/tmp", hex, &d), EX_NOINPUT);
    cr_expect_str_eq(d.msg, "expected a regular file, found a directory");
}

GB_TEST(sha256, file_matches_buffer)
{
    char path[] = "/tmp/gb-test-sha-XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    /* 100000 bytes: several read chunks plus a tail. */
    size_t n = 100000;
    uint8_t *buf = malloc(n);
    for (size_t i = 0; i < n; i++) buf[i] = (uint8_t)(i ^ (i >> 8));
    cr_assert_eq(write(fd, buf, n), (ssize_t)n);
    close(fd);
    char want[65], got[65];
    hex_of(buf, n, want);
    uint64_t bytes;
    gb_diag d;
    cr_assert_eq(gb_sha256_file_n(path, got, &bytes, &d), 0, "%s", d.msg);
    cr_expect_str_eq(got, want);
    cr_expect_eq(bytes, n);
    unlink(path);
    free(buf);
}

/* ---- environment ------------------------------------------------------ */

GB_TEST(env, collect_fills_fields)
{
    gb_env e;
    gb_env_collect(&e);
    cr_expect_gt(strlen(e.cpu), 0);
    cr_expect_gt(strlen(e.compiler), 0);
    cr_expect(strncmp(e.compiler, "gcc ", 4) == 0 || strncmp(e.compiler, "clang ", 6) == 0,
              "compiler: %s", e.compiler);
    cr_expect_gt(strlen(e.kernel), 0);
    cr_expect_gt(strlen(e.host), 0);
    cr_expect_gt(strlen(e.cflags), 0);
    cr_expect_gt(strlen(e.commit), 0);
    cr_expect_geq(e.cores, 1);
    /* YYYY-MM-DDTHH:MM:SSZ */
    cr_assert_eq(strlen(e.date), 20, "date: %s", e.date);
    for (int i = 0; i < 20; i++) {
        char c = e.date[i];
        switch (i) {
        case 4: case 7: cr_expect_eq(c, '-'); break;
        case 10: cr_expect_eq(c, 'T'); break;
        case 13: case 16: cr_expect_eq(c, ':'); break;
        case 19: cr_expect_eq(c, 'Z'); break;
        default: cr_expect(isdigit((unsigned char)c), "date: %s", e.date);
        }
    }
    cr_expect(strncmp(e.date, "20", 2) == 0, "date: %s", e.date);
}

/* ---- JSON ------------------------------------------------------------- */

static char *json_of_str(const char *s)
{
    char *out = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&out, &n);
    cr_assert(f != NULL);
    gb_json_str(f, s);
    fclose(f);
    return out;
}

GB_TEST(json, string_escaping)
{
    static const struct { const char *in, *out; } cases[] = {
        { "plain", "\"plain\"" },
        { "", "\"\"" },
        { "q\"b\\s/", "\"q\\\"b\\\\s/\"" },
        { "a\nb\tc\rd\be\ff", "\"a\\nb\\tc\\rd\\be\\ff\"" },
        { "\x01\x1f\x7f", "\"\\u0001\\u001f\\u007f\"" },
        { "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"" },
        { "bad\xff", "\"bad\\ufffd\"" },
        { "\xc0\xaf", "\"\\ufffd\\ufffd\"" },             /* overlong '/' */
        { "\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"" },  /* surrogate */
        { "cut\xe2\x82", "\"cut\\ufffd\\ufffd\"" },       /* truncated */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *got = json_of_str(cases[i].in);
        cr_expect_str_eq(got, cases[i].out, "case %zu", i);
        free(got);
    }
    char *null = json_of_str(NULL);
    cr_expect_str_eq(null, "null");
    free(null);
}

GB_TEST(json, numbers)
{
    static const struct { double v; const char *out; } cases[] = {
        { 0, "0" }, { 2, "2" }, { -17, "-17" }, { 1234567890123.0, "1234567890123" },
        { 0.5, "0.5" }, { 1.0 / 3, "0.33333333333333331" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *out = NULL;
        size_t n = 0;
        FILE *f = open_memstream(&out, &n);
        gb_json_num(f, cases[i].v);
        fclose(f);
        cr_expect_str_eq(out, cases[i].out, "case %zu", i);
        free(out);
    }
    char *out = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&out, &n);
    gb_json_num(f, NAN);
    fputc(' ', f);
    gb_json_num(f, INFINITY);
    fclose(f);
    cr_expect_str_eq(out, "null null");
    free(out);
}

/* A small JSON parser: validates syntax and lets the tests look values up
 * by key in the top-level object (one level of nesting for "files"). */
typedef struct jp { const char *s; int err; } jp;

static void ws(jp *p) { while (*p->s == ' ' || *p->s == '\n' || *p->s == '\t' || *p->s == '\r') p->s++; }
static void parse_value(jp *p);

static void parse_string(jp *p)
{
    if (*p->s != '"') { p->err = 1; return; }
    p->s++;
    while (*p->s && *p->s != '"') {
        unsigned char c = (unsigned char)*p->s;
        if (c < 0x20) { p->err = 1; return; }
        if (c == '\\') {
            p->s++;
            if (*p->s == 'u') {
                for (int i = 1; i <= 4; i++)
                    if (!isxdigit((unsigned char)p->s[i])) { p->err = 1; return; }
                p->s += 5;
                continue;
            }
            if (!strchr("\"\\/bfnrt", *p->s) || !*p->s) { p->err = 1; return; }
        }
        p->s++;
    }
    if (*p->s != '"') { p->err = 1; return; }
    p->s++;
}

static void parse_number(jp *p)
{
    const char *st = p->s;
    if (*p->s == '-') p->s++;
    if (!isdigit((unsigned char)*p->s)) { p->err = 1; return; }
    if (*p->s == '0' && isdigit((unsigned char)p->s[1])) { p->err = 1; return; }
    while (isdigit((unsigned char)*p->s)) p->s++;
    if (*p->s == '.') {
        p->s++;
        if (!isdigit((unsigned char)*p->s)) { p->err = 1; return; }
        while (isdigit((unsigned char)*p->s)) p->s++;
    }
    if (*p->s == 'e' || *p->s == 'E') {
        p->s++;
        if (*p->s == '+' || *p->s == '-') p->s++;
        if (!isdigit((unsigned char)*p->s)) { p->err = 1; return; }
        while (isdigit((unsigned char)*p->s)) p->s++;
    }
    if (p->s == st) p->err = 1;
}

static void parse_container(jp *p, char open, char close)
{
    p->s++;
    ws(p);
    if (*p->s == close) { p->s++; return; }
    for (;;) {
        ws(p);
        if (open == '{') {
            parse_string(p);
            if (p->err) return;
            ws(p);
            if (*p->s != ':') { p->err = 1; return; }
            p->s++;
        }
        parse_value(p);
        if (p->err) return;
        ws(p);
        if (*p->s == ',') { p->s++; continue; }
        if (*p->s == close) { p->s++; return; }
        p->err = 1;
        return;
    }
}

static void parse_value(jp *p)
{
    ws(p);
    switch (*p->s) {
    case '{': parse_container(p, '{', '}'); break;
    case '[': parse_container(p, '[', ']'); break;
    case '"': parse_string(p); break;
    case 't': if (strncmp(p->s, "true", 4)) p->err = 1; else p->s += 4; break;
    case 'f': if (strncmp(p->s, "false", 5)) p->err = 1; else p->s += 5; break;
    case 'n': if (strncmp(p->s, "null", 4)) p->err = 1; else p->s += 4; break;
    default: parse_number(p); break;
    }
}

/* Whole text is exactly one JSON value (plus blanks). */
static int json_valid(const char *text)
{
    jp p = { text, 0 };
    parse_value(&p);
    if (p.err) return 0;
    ws(&p);
    return *p.s == '\0';
}

/* Start of the value of "key" at top level of the object text, or NULL. */
static const char *json_member(const char *text, const char *key)
{
    jp p = { text, 0 };
    ws(&p);
    if (*p.s != '{') return NULL;
    p.s++;
    for (;;) {
        ws(&p);
        const char *k = p.s;
        parse_string(&p);
        if (p.err) return NULL;
        size_t kl = (size_t)(p.s - k) - 2;
        ws(&p);
        if (*p.s != ':') return NULL;
        p.s++;
        ws(&p);
        if (kl == strlen(key) && strncmp(k + 1, key, kl) == 0) return p.s;
        parse_value(&p);
        if (p.err) return NULL;
        ws(&p);
        if (*p.s != ',') return NULL;
        p.s++;
    }
}

GB_TEST(json, parser_self_check)
{
    cr_expect(json_valid("{\"a\": [1, -2.5e3, \"x\\u00e9\"], \"b\": {\"c\": null}}"));
    cr_expect(!json_valid("{\"a\": 1,}"));
    cr_expect(!json_valid("{\"a\" 1}"));
    cr_expect(!json_valid("{\"a\": \"x}"));
    cr_expect(!json_valid("{\"a\": 01}"));
    cr_expect(!json_valid("{\"a\": 1}}"));
    cr_expect(!json_valid("[1, 2"));
}

static void redirect_all(void)
{
    cr_redirect_stderr();
    cr_redirect_stdout();
}

GB_TEST(cli, env_json_output, .timeout = 120)
{
    char dir[] = "/tmp/gb-test-env-XXXXXX";
    cr_assert(mkdtemp(dir) != NULL);
    char data[256], out[256], weird[256];
    snprintf(data, sizeof data, "%s/data.bin", dir);
    snprintf(weird, sizeof weird, "%s/we\"ird\\name.map", dir);
    snprintf(out, sizeof out, "%s/env.json", dir);
    FILE *f = fopen(data, "wb");
    fputs("abc", f);
    fclose(f);
    f = fopen(weird, "wb");
    fclose(f);
    char *argv[] = { (char *)"env", (char *)"--calibrate", (char *)"--out", out, data, weird, NULL };
    cr_assert_eq(gb_cmd_env(6, argv), 0);
    char *text = read_text(out);
    cr_assert(json_valid(text), "not valid JSON:\n%s", text);
    static const char *const keys[] = { "cpu", "cores", "kernel", "compiler", "cflags",
                                        "commit", "date", "host", "files", "calibration" };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        cr_expect_not_null(json_member(text, keys[i]), "key %s missing:\n%s", keys[i], text);
    const char *files = json_member(text, "files");
    cr_assert_not_null(files);
    cr_expect_eq(*files, '[');
    /* "abc": its FIPS digest and 3 bytes; the empty file: the empty digest. */
    cr_expect_not_null(strstr(files, "\"sha256\": \"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad\", \"bytes\": 3}"));
    cr_expect_not_null(strstr(files, "\"sha256\": \"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\", \"bytes\": 0}"));
    cr_expect_not_null(strstr(files, "we\\\"ird\\\\name.map"), "path not escaped:\n%s", text);
    const char *cal = json_member(text, "calibration");
    cr_assert_not_null(cal);
    cr_expect_eq(*cal, '{');
    cr_expect_not_null(strstr(cal, "\"median_ns\": "));
    cr_expect_not_null(strstr(cal, "\"cells_per_s\": "));
    cr_expect_not_null(strstr(cal, "\"map\": \"random256-20-1\""));
    free(text);
    unlink(out);
    unlink(data);
    unlink(weird);
    rmdir(dir);
}

GB_TEST(cli, env_without_calibration_to_stdout, .init = redirect_all)
{
    char *argv[] = { (char *)"env", NULL };
    cr_assert_eq(gb_cmd_env(1, argv), 0);
    fflush(stdout);
    FILE *f = cr_get_redirected_stdout();
    static char buf[65536];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    cr_assert(json_valid(buf), "not valid JSON:\n%s", buf);
    const char *cal = json_member(buf, "calibration");
    cr_assert_not_null(cal);
    cr_expect(strncmp(cal, "null", 4) == 0);
    const char *files = json_member(buf, "files");
    cr_assert_not_null(files);
    cr_expect(strncmp(files, "[]", 2) == 0);
}

GB_TEST(cli, env_errors, .init = redirect_all)
{
    char *a1[] = { (char *)"env", (char *)"--model", (char *)"hex", NULL };
    cr_expect_eq(gb_cmd_env(3, a1), EX_USAGE);
    char *a2[] = { (char *)"env", (char *)"--bogus", NULL };
    cr_expect_eq(gb_cmd_env(2, a2), EX_USAGE);
    char *a3[] = { (char *)"env", (char *)"--out", NULL };
    cr_expect_eq(gb_cmd_env(2, a3), EX_USAGE);
    /* A missing input: EX_NOINPUT and no output file at all. */
    char out[] = "/tmp/gb-test-env-none.json";
    unlink(out);
    char *a4[] = { (char *)"env", (char *)"--out", out, (char *)"/nonexistent/x.map", NULL };
    cr_expect_eq(gb_cmd_env(4, a4), EX_NOINPUT);
    struct stat st;
    cr_expect_neq(stat(out, &st), 0, "output written despite the error");
    fflush(stderr);
    cr_assert_stderr_eq_str(
        "gridbench env: --model: expected 8-nocut, 8-cut1, 8-cutall, 4 or 8-nocut-water, found 'hex'\n"
        "gridbench env: expected an option of `gridbench env --help`, found '--bogus'\n"
        "gridbench env: --out: expected an argument FILE, found none\n"
        "gridbench env: /nonexistent/x.map: expected a readable file, found "
        "'No such file or directory'\n");
}

GB_TEST(cli, env_help, .init = redirect_all)
{
    char *argv[] = { (char *)"env", (char *)"--help", NULL };
    cr_assert_eq(gb_cmd_env(2, argv), 0);
    fflush(stdout);
    FILE *f = cr_get_redirected_stdout();
    char buf[8192];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    cr_expect(strstr(buf, "usage: gridbench env [--out FILE] [--calibrate] [--model M] [FILE...]")
              == buf);
    cr_expect_not_null(strstr(buf, "Example:"));
}

/* ---- calibration ------------------------------------------------------ */

GB_TEST(calib, record_consistent, .timeout = 120)
{
    gb_calib c;
    gb_diag d;
    cr_assert_eq(gb_env_calibrate(GB_MODEL_4, &c, &d), 0, "%s", d.msg);
    cr_expect_str_eq(c.map, "random256-20-1");
    cr_expect_eq(c.model, GB_MODEL_4);
    cr_expect_eq(c.runs, GB_CALIB_RUNS);
    cr_expect(c.min_ns > 0 && c.min_ns <= c.median_ns && c.median_ns <= c.max_ns);
    /* 80 % of 65536 cells are free; the largest component holds most. */
    cr_expect(c.cells > 40000 && c.cells <= 52428, "cells %lld", (long long)c.cells);
    double want = (double)c.cells * 1e9 / (double)c.median_ns;
    cr_expect(fabs(c.cells_per_s - want) <= 1e-6 * want);
    cr_expect(c.src_x >= 128 && c.src_y >= 128, "source (%d,%d)", c.src_x, c.src_y);
}
