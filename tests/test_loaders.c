/*
 * test_loaders.c -- Criterion tests for harness/core/gb_diag, gb_map, gb_scen.
 *
 *   bad_inputs      one table of malformed .map / .scen texts, each with the
 *                   exact sysexits code and formatted diagnostic it must
 *                   produce (so line, column and wording are pinned);
 *   map_* / scen_*  accepted dialects: CRLF, missing final newline, every
 *                   terrain letter, version 0 / 1 / 1.0, tabs vs spaces,
 *                   decimals and tolerance per length dialect;
 *   resolve_*       gb_scen_resolve_map() candidate order in a mkdtemp dir;
 *   check_*         gb_scen_check_map() errors;
 *   diag_*          rendering of diagnostics (caret, tabs, long lines);
 *   real_*          every .scen under $GB_SHARED (default ../shared/movingai)
 *                   with its map: query counts, dimensions, check_map.
 */
#include "gb_test.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gb_diag.h"
#include "gb_map.h"
#include "gb_scen.h"

/* ---- helpers ---------------------------------------------------------- */

static int parse_map_str(const char *text, gb_map *m, gb_diag *d)
{
    return gb_map_parse("t.map", text, strlen(text), m, d);
}

static int parse_scen_str(const char *text, gb_scen *s, gb_diag *d)
{
    return gb_scen_parse("t.scen", text, strlen(text), s, d);
}

static void fmt_diag(const gb_diag *d, char *buf, size_t n)
{
    gb_diag_format(d, buf, n);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    cr_assert(f != NULL, "cannot create %s: %s", path, strerror(errno));
    fputs(text, f);
    cr_assert(fclose(f) == 0);
}

/* Directory holding the shared Moving AI copies, or NULL to skip. */
static const char *shared_dir(void)
{
    const char *dir = getenv("GB_SHARED");
    if (!dir || !dir[0]) dir = "../shared/movingai";
    struct stat st;
    return stat(dir, &st) == 0 && S_ISDIR(st.st_mode) ? dir : NULL;
}

/* ---- table of bad inputs ---------------------------------------------- */

enum which { MAP, SCEN };

typedef struct bad_case {
    const char *name;
    enum which which;
    const char *input;
    int code;
    const char *message;   /* exact gb_diag_format() output */
} bad_case;

#define HDR "type octile\nheight 2\nwidth 3\nmap\n"

static const bad_case bad_cases[] = {
    /* ---- .map ---- */
    { "map: empty file", MAP, "", 65,
      "t.map: error: expected 'type octile', found empty file" },
    { "map: wrong first keyword", MAP, "tipe octile\n", 65,
      "t.map:1:1: error: expected 'type octile', found other text at byte offset 0" },
    { "map: type other than octile", MAP, "type tile\nheight 2\n", 65,
      "t.map:1:6: error: expected 'type octile', found another type at byte offset 5" },
    { "map: type without value", MAP, "type\n", 65,
      "t.map:1:5: error: expected 'type octile', found no value at byte offset 4" },
    { "map: byte order mark", MAP, "\xEF\xBB\xBFtype octile\n", 65,
      "t.map:1:1: error: expected a map file in plain ASCII, found a UTF-8 byte order mark (EF BB BF) "
      "before line 1: remove it" },
    { "map: header ends early", MAP, "type octile\n", 65,
      "t.map:2: error: expected 'height <rows>', found end of file" },
    { "map: header order wrong", MAP, "type octile\nwidth 3\nheight 2\nmap\n", 65,
      "t.map:2:1: error: expected 'height <rows>', found 'width' at byte offset 12 "
      "(header order is type, height, width, map)" },
    { "map: blank header line", MAP, "type octile\n\nheight 2\n", 65,
      "t.map:2:1: error: expected 'height <rows>', found an empty line at byte offset 12" },
    { "map: non-numeric height", MAP, "type octile\nheight abc\n", 65,
      "t.map:2:8: error: expected height as a positive integer, found other text at byte offset 19" },
    { "map: negative height", MAP, "type octile\nheight -2\n", 65,
      "t.map:2:8: error: expected height as a positive integer, found other text at byte offset 19" },
    { "map: zero width", MAP, "type octile\nheight 2\nwidth 0\nmap\n", 65,
      "t.map:3:7: error: expected width as a positive integer, found zero at byte offset 27" },
    { "map: trailing garbage in number", MAP, "type octile\nheight 12x\n", 65,
      "t.map:2:8: error: expected height as a positive integer, found other text at byte offset 19" },
    { "map: absurd dimension", MAP, "type octile\nheight 99999999999999999999\n", 65,
      "t.map:2:8: error: expected height at most 2147483645, found a larger number at byte offset 19" },
    { "map: padded size overflows int32", MAP,
      "type octile\nheight 65536\nwidth 65536\nmap\n", 65,
      "t.map:3:7: error: expected (width + 2) * (height + 2) at most 2147483647 cells, "
      "found (65536 + 2) * (65536 + 2) = 4295229444" },
    { "map: extra token after value", MAP, "type octile\nheight 2 3\n", 65,
      "t.map:2:10: error: expected end of line after the height value, found more text at byte offset 21" },
    { "map: misspelt map line", MAP, "type octile\nheight 2\nwidth 3\nmaps\n", 65,
      "t.map:4:1: error: expected 'map', found other text at byte offset 29" },
    { "map: short row", MAP, HDR "...\n..\n", 65,
      "t.map:6:3: error: expected 3 cells in map row 2, found 2" },
    { "map: long row", MAP, HDR "....\n...\n", 65,
      "t.map:5:4: error: expected 3 cells in map row 1, found 4" },
    { "map: missing rows", MAP, HDR "...\n", 65,
      "t.map:6: error: expected 2 rows, found 1" },
    { "map: no rows at all", MAP, HDR, 65,
      "t.map:5: error: expected 2 rows, found 0" },
    { "map: trailing garbage after rows", MAP, HDR "...\n...\n\n  xyz\n", 65,
      "t.map:8:3: error: expected end of file after 2 rows, found 'xyz'" },
    { "map: unknown printable terrain", MAP, HDR "...\n.x.\n", 65,
      "t.map:6:2: error: expected a terrain character (. G S @ O T W), found 'x'" },
    { "map: unknown control terrain", MAP, HDR "..\x01\n...\n", 65,
      "t.map:5:3: error: expected a terrain character (. G S @ O T W), found '\\x01'" },
    { "map: tab inside a row", MAP, HDR ".\t.\n...\n", 65,
      "t.map:5:2: error: expected a terrain character (. G S @ O T W), found '\\x09'" },
    { "map: stray CR inside a row", MAP, HDR ".\r.\n...\n", 65,
      "t.map:5:2: error: expected a terrain character (. G S @ O T W), found '\\x0D'" },

    /* ---- .scen ---- */
    { "scen: byte order mark", SCEN, "\xEF\xBB\xBFversion 1\n0 m.map 3 2 0 0 2 1 1.5\n", 65,
      "t.scen:1:1: error: expected a scenario file in plain ASCII, found a UTF-8 byte order mark "
      "(EF BB BF) before line 1: remove it" },
    { "scen: a second map name", SCEN, "version 1\n0 m.map 3 2 0 0 2 1 1.5\n0 n.map 3 2 0 0 2 1 1.5\n", 65,
      "t.scen:3:3: error: expected the map of the file's first query ('m.map'), found 'n.map'" },
    { "scen: empty file", SCEN, "", 65,
      "t.scen: error: expected 'version 1' or a query, found empty file" },
    { "scen: only blank lines", SCEN, "\n \t\n\r\n", 65,
      "t.scen: error: expected at least one query, found none" },
    { "scen: header without queries", SCEN, "version 1\n", 65,
      "t.scen: error: expected at least one query, found none" },
    { "scen: version 2", SCEN, "version 2\n", 65,
      "t.scen:1:9: error: expected version 1 or 1.0, found version 2" },
    { "scen: version 1.00", SCEN, "version\t1.00\n", 65,
      "t.scen:1:9: error: expected version 1 or 1.0, found version 1.00" },
    { "scen: version without number", SCEN, "version\n", 65,
      "t.scen:1:8: error: expected version 1 or 1.0, found 'version' without a number" },
    { "scen: garbage after version", SCEN, "version 1 x\n", 65,
      "t.scen:1:11: error: expected end of line after 'version 1', found 'x'" },
    { "scen: version line after a query", SCEN,
      "0 m.map 3 2 0 0 2 1 1.5\nversion 1\n", 65,
      "t.scen:2:10: error: expected 9 columns, found 2" },
    { "scen: 8 columns", SCEN, "version 1\n0 m.map 3 2 0 0 2 1\n", 65,
      "t.scen:2:20: error: expected 9 columns, found 8" },
    { "scen: 10 columns", SCEN, "0 m.map 3 2 0 0 2 1 1.5 9\n", 65,
      "t.scen:1:25: error: expected 9 columns, found 10" },
    { "scen: 10 columns, tabs and CRLF", SCEN,
      "version 1\r\n0\tm.map\t3\t2\t0\t0\t2\t1\t1.5\tz\r\n", 65,
      "t.scen:2:25: error: expected 9 columns, found 10" },
    { "scen: non-numeric bucket", SCEN, "version 1\nb m.map 3 2 0 0 2 1 1.5\n", 65,
      "t.scen:2:1: error: expected bucket as a non-negative integer, found 'b'" },
    { "scen: negative coordinate", SCEN, "version 1\n0 m.map 3 2 -1 0 2 1 1.5\n", 65,
      "t.scen:2:13: error: expected start x as a non-negative integer, found '-1'" },
    { "scen: trailing garbage in integer", SCEN, "0 m.map 3 2 0 0 2x 1 1.5\n", 65,
      "t.scen:1:17: error: expected goal x as a non-negative integer, found '2x'" },
    { "scen: zero map width", SCEN, "0 m.map 0 2 0 0 2 1 1.5\n", 65,
      "t.scen:1:9: error: expected map width as a positive integer, found '0'" },
    { "scen: integer out of range", SCEN, "0 m.map 3 2147483648 0 0 2 1 1.5\n", 65,
      "t.scen:1:11: error: expected map height at most 2147483647, found '2147483648'" },
    { "scen: non-numeric length", SCEN, "0 m.map 3 2 0 0 2 1 abc\n", 65,
      "t.scen:1:21: error: expected optimal length as a non-negative decimal number, "
      "found 'abc'" },
    { "scen: negative length", SCEN, "0 m.map 3 2 0 0 2 1 -1.5\n", 65,
      "t.scen:1:21: error: expected optimal length as a non-negative decimal number, "
      "found '-1.5'" },
    { "scen: nan length", SCEN, "0 m.map 3 2 0 0 2 1 nan\n", 65,
      "t.scen:1:21: error: expected optimal length as a non-negative decimal number, "
      "found 'nan'" },
    { "scen: inf length", SCEN, "0 m.map 3 2 0 0 2 1 inf\n", 65,
      "t.scen:1:21: error: expected optimal length as a non-negative decimal number, "
      "found 'inf'" },
    { "scen: hex length", SCEN, "0 m.map 3 2 0 0 2 1 0x1p1\n", 65,
      "t.scen:1:21: error: expected optimal length as a non-negative decimal number, "
      "found '0x1p1'" },
    { "scen: exponent length", SCEN, "0 m.map 3 2 0 0 2 1 1e5\n", 65,
      "t.scen:1:21: error: expected optimal length as a non-negative decimal number, "
      "found '1e5'" },
    { "scen: trailing garbage in length", SCEN, "0 m.map 3 2 0 0 2 1 1.5x\n", 65,
      "t.scen:1:21: error: expected optimal length as a non-negative decimal number, "
      "found '1.5x'" },
    { "scen: length with empty fraction", SCEN, "0 m.map 3 2 0 0 2 1 1.\n", 65,
      "t.scen:1:21: error: expected optimal length as a non-negative decimal number, "
      "found '1.'" },
    { "scen: error on a later line", SCEN,
      "version 1.0\n\n0 m.map 3 2 0 0 2 1 1.5\n0 m.map 3 2 0 0 2 1 1.5.3\n", 65,
      "t.scen:4:21: error: expected optimal length as a non-negative decimal number, "
      "found '1.5.3'" },
};

GB_TEST(loaders, bad_inputs)
{
    size_t n = sizeof bad_cases / sizeof bad_cases[0];
    cr_expect(n >= 40, "table has only %zu entries", n);
    for (size_t i = 0; i < n; i++) {
        const bad_case *c = &bad_cases[i];
        gb_diag d;
        char got[2048];
        int rc;
        gb_diag_clear(&d);
        if (c->which == MAP) {
            gb_map m;
            rc = parse_map_str(c->input, &m, &d);
            cr_expect(m.grid.pass == NULL && m.terrain == NULL && m.path == NULL,
                      "[%s] failed parse left memory in *m", c->name);
        } else {
            gb_scen s;
            rc = parse_scen_str(c->input, &s, &d);
            cr_expect(s.q == NULL && s.path == NULL && s.map_field == NULL && s.n == 0,
                      "[%s] failed parse left memory in *s", c->name);
        }
        fmt_diag(&d, got, sizeof got);
        cr_expect_eq(rc, c->code, "[%s] code %d, expected %d", c->name, rc, c->code);
        cr_expect_eq(d.code, rc, "[%s] diag code %d != return %d", c->name, d.code, rc);
        cr_expect_str_eq(got, c->message, "[%s]\n   got: %s\nwanted: %s",
                         c->name, got, c->message);
    }
}

/* ---- maps ------------------------------------------------------------- */

static void expect_small_map(const gb_map *m)
{
    /* .@.
     * GTS */
    const gb_grid *g = &m->grid;
    cr_assert_eq(g->width, 3);
    cr_assert_eq(g->height, 2);
    cr_expect_eq(g->npassable, 4);
    cr_expect_eq(gb_grid_passable_xy(g, 0, 0), 1);
    cr_expect_eq(gb_grid_passable_xy(g, 1, 0), 0);
    cr_expect_eq(gb_grid_passable_xy(g, 2, 0), 1);
    cr_expect_eq(gb_grid_passable_xy(g, 0, 1), 1);
    cr_expect_eq(gb_grid_passable_xy(g, 1, 1), 0);
    cr_expect_eq(gb_grid_passable_xy(g, 2, 1), 1);
    cr_expect(memcmp(m->terrain, ".@.GTS", 6) == 0);
    cr_expect_str_eq(m->path, "t.map");
    /* padding is blocked */
    int32_t sum = 0;
    for (int32_t i = 0; i < g->ncells; i++) sum += g->pass[i];
    cr_expect_eq(sum, 4);
}

GB_TEST(loaders, map_crlf)
{
    gb_map m;
    gb_diag d;
    int rc = parse_map_str("type octile\r\nheight 2\r\nwidth 3\r\nmap\r\n.@.\r\nGTS\r\n", &m, &d);
    cr_assert_eq(rc, 0, "%s", d.msg);
    expect_small_map(&m);
    gb_map_free(&m);
}

GB_TEST(loaders, map_lf_without_final_newline)
{
    gb_map m;
    gb_diag d;
    int rc = parse_map_str(HDR ".@.\nGTS", &m, &d);
    cr_assert_eq(rc, 0, "%s", d.msg);
    expect_small_map(&m);
    gb_map_free(&m);
}

GB_TEST(loaders, map_mixed_line_ends_blanks_in_header_and_blank_tail)
{
    gb_map m;
    gb_diag d;
    int rc = parse_map_str("type\toctile \t\r\nheight  2\t\nwidth\t3 \r\nmap \n.@.\r\nGTS\n\n \t\r\n",
                           &m, &d);
    cr_assert_eq(rc, 0, "%s", d.msg);
    expect_small_map(&m);
    gb_map_free(&m);
}

GB_TEST(loaders, map_all_terrain_letters)
{
    gb_map m;
    gb_diag d;
    int rc = parse_map_str("type octile\nheight 1\nwidth 7\nmap\n.GS@OTW\n", &m, &d);
    cr_assert_eq(rc, 0, "%s", d.msg);
    static const int want[7] = { 1, 1, 1, 0, 0, 0, 0 };
    for (int x = 0; x < 7; x++)
        cr_expect_eq(gb_grid_passable_xy(&m.grid, x, 0), want[x], "x = %d", x);
    cr_expect_eq(m.grid.npassable, 3);
    cr_expect(memcmp(m.terrain, ".GS@OTW", 7) == 0);
    gb_map_free(&m);
}

GB_TEST(loaders, map_buffer_not_nul_terminated)
{
    char buf[64];
    const char *text = HDR ".@.\nGTS\n";
    size_t len = strlen(text);
    memcpy(buf, text, len);
    memset(buf + len, 'x', sizeof buf - len);       /* garbage after the end */
    gb_map m;
    gb_diag d;
    int rc = gb_map_parse("t.map", buf, len, &m, &d);
    cr_assert_eq(rc, 0, "%s", d.msg);
    expect_small_map(&m);
    gb_map_free(&m);
}

GB_TEST(loaders, map_load_missing_file_and_directory)
{
    char dir[] = "/tmp/gbtestXXXXXX";
    cr_assert(mkdtemp(dir) != NULL);
    char path[256], want[512], got[2048];
    gb_map m;
    gb_diag d;
    snprintf(path, sizeof path, "%s/nope.map", dir);
    cr_expect_eq(gb_map_load(path, &m, &d), 66);
    gb_diag_format(&d, got, sizeof got);
    snprintf(want, sizeof want,
             "%s: error: expected a readable file, found 'No such file or directory'", path);
    cr_expect_str_eq(got, want);
    cr_expect(m.grid.pass == NULL && m.path == NULL);

    cr_expect_eq(gb_map_load(dir, &m, &d), 66);
    gb_diag_format(&d, got, sizeof got);
    snprintf(want, sizeof want, "%s: error: expected a regular file, found a directory", dir);
    cr_expect_str_eq(got, want);

    gb_scen s;
    cr_expect_eq(gb_scen_load(path, &s, &d), 66);
    cr_expect(s.q == NULL);
    rmdir(dir);
}

/* A scenario's map column may name any file (an absolute path): one that
 * fails the map header -- here a line like /etc/shadow's -- is reported by
 * line, column and byte offset, and not one of its bytes is echoed. */
GB_TEST(loaders, a_file_that_is_not_a_map_is_never_quoted)
{
    char dir[] = "/tmp/gbnotmap.XXXXXX";
    cr_assert(mkdtemp(dir) != NULL);
    static char out[8192];
    cr_assert_eq(gb_test_sh(out, sizeof out,
        "printf 'root:$6$s3cr3tHash:19000:0:99999:7:::\nbin:*:19000\n' >%s/shadow && "
        "printf 'type octile\nheight s3cr3t\n' >%s/half && "
        "printf 'version 1\n0\t%s/shadow\t4\t4\t0\t0\t1\t1\t1\n' >%s/a.scen && "
        "printf 'version 1\n0\t%s/half\t4\t4\t0\t0\t1\t1\t1\n' >%s/b.scen",
        dir, dir, dir, dir, dir, dir), 0, "%s", out);
    cr_assert_eq(gb_test_sh(out, sizeof out, "%s run --quiet --no-oracle-cache -s dijkstra %s/a.scen",
                            gb_test_bin(), dir), 65, "%s", out);
    char want[256];
    snprintf(want, sizeof want, "%s/shadow:1:1: error: expected 'type octile', found other text at "
             "byte offset 0\n", dir);
    cr_assert(strstr(out, want) != NULL, "%s", out);
    cr_assert(strstr(out, "root") == NULL && strstr(out, "s3cr3t") == NULL, "%s", out);
    cr_assert_eq(gb_test_sh(out, sizeof out, "%s run --quiet --no-oracle-cache -s dijkstra %s/b.scen",
                            gb_test_bin(), dir), 65, "%s", out);
    cr_assert(strstr(out, "half:2:8: error: expected height as a positive integer, found other text "
                          "at byte offset 19\n") != NULL, "%s", out);
    cr_assert(strstr(out, "s3cr3t") == NULL, "%s", out);
    gb_test_sh(NULL, 0, "rm -rf %s", dir);
}

GB_TEST(loaders, map_write_round_trip)
{
    char dir[] = "/tmp/gbtestXXXXXX";
    cr_assert(mkdtemp(dir) != NULL);
    gb_map m, m2;
    gb_diag d;
    cr_assert_eq(parse_map_str("type octile\r\nheight 2\r\nwidth 7\r\nmap\r\n.GS@OTW\r\nWTO@SG.", &m, &d), 0);
    char path[256], tmp[300];
    snprintf(path, sizeof path, "%s/out.map", dir);
    cr_assert_eq(gb_map_write(path, &m, &d), 0, "%s", d.msg);
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    cr_expect(access(tmp, F_OK) != 0, "temporary file left behind");
    char buf[256];
    FILE *f = fopen(path, "rb");
    cr_assert(f);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    cr_expect_str_eq(buf, "type octile\nheight 2\nwidth 7\nmap\n.GS@OTW\nWTO@SG.\n");
    cr_assert_eq(gb_map_load(path, &m2, &d), 0, "%s", d.msg);
    cr_expect_eq(m2.grid.npassable, m.grid.npassable);
    cr_expect(memcmp(m2.terrain, m.terrain, 14) == 0);
    cr_expect(memcmp(m2.grid.pass, m.grid.pass, (size_t)m.grid.ncells) == 0);
    gb_map_free(&m);
    gb_map_free(&m2);
    unlink(path);
    rmdir(dir);
}

/* ---- scenarios -------------------------------------------------------- */

GB_TEST(loaders, scen_version0_headerless)
{
    gb_scen s;
    gb_diag d;
    int rc = parse_scen_str("3 maps/x/m.map 3 2 0 1 2 0 12.5\n", &s, &d);
    cr_assert_eq(rc, 0, "%s", d.msg);
    cr_expect_eq(s.version, 0);
    cr_assert_eq(s.n, 1);
    cr_expect_str_eq(s.map_field, "maps/x/m.map");
    cr_expect_str_eq(s.path, "t.scen");
    const gb_query *q = &s.q[0];
    cr_expect_eq(q->line, 1);
    cr_expect_eq(q->bucket, 3);
    cr_expect_eq(q->map_w, 3);
    cr_expect_eq(q->map_h, 2);
    cr_expect(q->sx == 0 && q->sy == 1 && q->gx == 2 && q->gy == 0);
    cr_expect_eq(q->length, 12.5);
    cr_expect_eq(q->decimals, 1);
    cr_expect_float_eq(q->tol, 0.1, 1e-7);
    gb_scen_free(&s);
}

GB_TEST(loaders, scen_version1_tabs_and_version10_spaces)
{
    gb_scen a, b;
    gb_diag d;
    cr_assert_eq(parse_scen_str("version 1\n0\tm.map\t3\t2\t0\t0\t2\t1\t2.41421356\n"
                                "1\tm.map\t3\t2\t2\t1\t0\t0\t2.41421356\n", &a, &d), 0, "%s", d.msg);
    cr_assert_eq(parse_scen_str("version 1.0\r\n\r\n0 m.map  3 2\t0 0 2 1   2.41421356 \r\n"
                                "   \r\n1 m.map 3 2 2 1 0 0 2.41421356", &b, &d), 0, "%s", d.msg);
    cr_expect_eq(a.version, 1);
    cr_expect_eq(b.version, 1);
    cr_assert_eq(a.n, 2);
    cr_assert_eq(b.n, 2);
    cr_expect_eq(b.q[0].line, 3);
    cr_expect_eq(b.q[1].line, 5);
    cr_expect_str_eq(b.map_field, "m.map");
    for (size_t i = 0; i < 2; i++) {
        cr_expect_eq(a.q[i].length, b.q[i].length);
        cr_expect_eq(a.q[i].sx, b.q[i].sx);
        cr_expect_eq(a.q[i].gy, b.q[i].gy);
        cr_expect_eq(a.q[i].decimals, 8);
        cr_expect_float_eq(a.q[i].tol, 1e-8, 1e-15);
    }
    cr_expect_eq(b.q[0].col[GB_SCEN_MAP_W], 10);
    cr_expect_eq(b.q[0].col[GB_SCEN_SX], 14);
    gb_scen_free(&a);
    gb_scen_free(&b);
}

GB_TEST(loaders, scen_tolerance_fixed_two_decimals)
{
    gb_scen s;
    gb_diag d;
    cr_assert_eq(parse_scen_str("version 1.0\n"
                                "61 m.map 512 512 210 395 87 201 244.95\n"
                                "33 m.map 512 512 244 370 359 376 132.40\n"
                                "0 m.map 512 512 443 125 441 123 2.83\n", &s, &d), 0);
    for (size_t i = 0; i < s.n; i++) {
        cr_expect_eq(s.q[i].decimals, 2);
        cr_expect_float_eq(s.q[i].tol, 0.01, 1e-8);
    }
    cr_expect_eq(s.q[0].length, 244.95);
    gb_scen_free(&s);
}

GB_TEST(loaders, scen_tolerance_significant_digits)
{
    gb_scen s;
    gb_diag d;
    cr_assert_eq(parse_scen_str("version 1\n"
                                "0\tm.map\t9\t9\t1\t1\t1\t2\t1\n"
                                "1\tm.map\t9\t9\t1\t1\t5\t5\t5.65685\n"
                                "3\tm.map\t9\t9\t1\t1\t5\t5\t12.4142\n"
                                "9\tm.map\t9\t9\t1\t1\t5\t5\t1234.57\n"
                                "9\tm.map\t9\t9\t1\t1\t5\t5\t3892.6\n"
                                "0\tm.map\t9\t9\t1\t1\t1\t1\t0\n"
                                "0\tm.map\t9\t9\t1\t1\t1\t1\t0.05\n", &s, &d), 0, "%s", d.msg);
    cr_assert_eq(s.n, 7);
    static const int dec[7] = { 0, 5, 4, 2, 1, 0, 2 };
    static const double tol[7] = { 1e-5, 1e-5, 1e-4, 1e-2, 1e-2, 1e-6, 1e-7 };
    for (size_t i = 0; i < s.n; i++) {
        cr_expect_eq(s.q[i].decimals, dec[i], "query %zu", i);
        cr_expect_float_eq(s.q[i].tol, tol[i], tol[i] * 1e-6, "query %zu: tol %g, want %g",
                           i, s.q[i].tol, tol[i]);
        cr_expect_geq(s.q[i].tol, tol[i], "slack must widen, not narrow, the tolerance");
    }
    gb_scen_free(&s);
}

GB_TEST(loaders, scen_tolerance_eight_decimals)
{
    gb_scen s;
    gb_diag d;
    cr_assert_eq(parse_scen_str("version 1\n"
                                "0\tm.map\t9\t9\t1\t1\t2\t2\t1.41421356\n"
                                "0\tm.map\t9\t9\t1\t1\t1\t1\t0.00000000\n"
                                "0\tm.map\t9\t9\t1\t1\t8\t8\t708.75649261\n", &s, &d), 0);
    for (size_t i = 0; i < s.n; i++) {
        cr_expect_eq(s.q[i].decimals, 8);
        cr_expect_float_eq(s.q[i].tol, 1e-8, 1e-15);
    }
    gb_scen_free(&s);
}

GB_TEST(loaders, scen_write_round_trip)
{
    char dir[] = "/tmp/gbtestXXXXXX";
    cr_assert(mkdtemp(dir) != NULL);
    gb_scen s, s2;
    gb_diag d;
    cr_assert_eq(parse_scen_str("version 1.0\n7 maps/m.map 9 9 1 2 3 4 5.65685\n"
                                "8 maps/m.map 9 9 4 3 2 1 0\n", &s, &d), 0);
    char path[256];
    snprintf(path, sizeof path, "%s/out.scen", dir);
    cr_assert_eq(gb_scen_write(path, &s, &d), 0, "%s", d.msg);
    char buf[512];
    FILE *f = fopen(path, "rb");
    cr_assert(f);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    cr_expect_str_eq(buf, "version 1\n"
                          "7\tmaps/m.map\t9\t9\t1\t2\t3\t4\t5.65685000\n"
                          "8\tmaps/m.map\t9\t9\t4\t3\t2\t1\t0.00000000\n");
    cr_assert_eq(gb_scen_load(path, &s2, &d), 0, "%s", d.msg);
    cr_expect_eq(s2.n, 2);
    cr_expect_eq(s2.q[0].length, s.q[0].length);
    cr_expect_eq(s2.q[1].bucket, 8);
    gb_scen_free(&s);
    gb_scen_free(&s2);
    unlink(path);
    rmdir(dir);
}

/* ---- map resolution --------------------------------------------------- */

GB_TEST(loaders, resolve_map_candidate_order)
{
    char dir[] = "/tmp/gbtestXXXXXX";
    cr_assert(mkdtemp(dir) != NULL);
    char sub[256], scen[300], c1[400], c2[400], c3[400], p[400];
    snprintf(sub, sizeof sub, "%s/sub", dir);
    cr_assert_eq(mkdir(sub, 0700), 0);
    snprintf(p, sizeof p, "%s/maps", sub);
    cr_assert_eq(mkdir(p, 0700), 0);
    snprintf(p, sizeof p, "%s/maps/dao", sub);
    cr_assert_eq(mkdir(p, 0700), 0);
    snprintf(scen, sizeof scen, "%s/b.map.scen", sub);
    snprintf(c1, sizeof c1, "%s/maps/dao/a.map", sub);
    snprintf(c2, sizeof c2, "%s/a.map", sub);
    snprintf(c3, sizeof c3, "%s/b.map", sub);
    write_file(scen, "version 1\n0\tmaps/dao/a.map\t3\t2\t0\t0\t2\t1\t2.5\n");
    write_file(c1, HDR "...\n...\n");
    write_file(c2, HDR "...\n...\n");
    write_file(c3, HDR "...\n...\n");

    gb_scen s;
    gb_diag d;
    char out[512];
    cr_assert_eq(gb_scen_load(scen, &s, &d), 0, "%s", d.msg);
    cr_expect_eq(gb_scen_resolve_map(&s, out, sizeof out, &d), 0);
    cr_expect_str_eq(out, c1, "1st: dirname(scen)/map_field");
    unlink(c1);
    cr_expect_eq(gb_scen_resolve_map(&s, out, sizeof out, &d), 0);
    cr_expect_str_eq(out, c2, "2nd: dirname(scen)/basename(map_field)");
    unlink(c2);
    cr_expect_eq(gb_scen_resolve_map(&s, out, sizeof out, &d), 0);
    cr_expect_str_eq(out, c3, "3rd: scen path minus .scen");
    cr_expect_eq(gb_scen_resolve_map(&s, out, 8, &d), 70, "out too small");
    unlink(c3);
    cr_expect_eq(gb_scen_resolve_map(&s, out, sizeof out, &d), 66);
    char want[2048], got[2048];
    snprintf(want, sizeof want,
             "%s:2:3: error: expected the map file at '%s', '%s', '%s', found none",
             scen, c1, c2, c3);
    gb_diag_format(&d, got, sizeof got);
    cr_expect_str_eq(got, want);
    gb_scen_free(&s);

    /* bare scenario name in the current directory: no dirname */
    gb_scen t;
    cr_assert_eq(gb_scen_parse("zz-none.scen", "0 x.map 3 2 0 0 2 1 1\n", strlen("0 x.map 3 2 0 0 2 1 1\n"), &t, &d), 0);
    cr_expect_eq(gb_scen_resolve_map(&t, out, sizeof out, &d), 66);
    gb_diag_format(&d, got, sizeof got);
    cr_expect_str_eq(got, "zz-none.scen:1:3: error: expected the map file at "
                          "'x.map', 'zz-none', found none");
    gb_scen_free(&t);

    snprintf(p, sizeof p, "%s/maps/dao", sub); rmdir(p);
    snprintf(p, sizeof p, "%s/maps", sub); rmdir(p);
    unlink(scen);
    rmdir(sub);
    rmdir(dir);
}

/* ---- scenario versus map ---------------------------------------------- */

typedef struct check_case {
    const char *query;
    const char *message;   /* NULL = must pass */
} check_case;

GB_TEST(loaders, check_map_errors)
{
    gb_map m;
    gb_diag d;
    cr_assert_eq(parse_map_str(HDR ".@.\n..T\n", &m, &d), 0);
    static const check_case cases[] = {
        { "0 m.map 3 2 0 0 1 1 1.41421", NULL },
        { "0 m.map 4 2 0 0 2 1 1",
          "t.scen:1:9: error: expected width 3 (from map), found 4" },
        { "0 m.map 3 5 0 0 2 1 1",
          "t.scen:1:11: error: expected height 2 (from map), found 5" },
        { "0 m.map 3 2 3 0 2 1 1",
          "t.scen:1:13: error: expected start x in 0..2 (map width 3), found 3" },
        { "0 m.map 3 2 0 0 1 2 1",
          "t.scen:1:19: error: expected goal y in 0..1 (map height 2), found 2" },
        { "0 m.map 3 2 1 0 0 1 1",
          "t.scen:1:13: error: expected start (1, 0) on a passable cell, found '@'" },
        { "0 m.map 3 2 0 0 2 1 1",
          "t.scen:1:17: error: expected goal (2, 1) on a passable cell, found 'T'" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gb_scen s;
        cr_assert_eq(parse_scen_str(cases[i].query, &s, &d), 0, "%s", d.msg);
        int rc = gb_scen_check_map(&s, &m, &d);
        if (!cases[i].message) {
            cr_expect_eq(rc, 0, "[%s] %s", cases[i].query, d.msg);
        } else {
            char got[1024];
            gb_diag_format(&d, got, sizeof got);
            cr_expect_eq(rc, 65, "[%s]", cases[i].query);
            cr_expect_str_eq(got, cases[i].message, "[%s]", cases[i].query);
        }
        gb_scen_free(&s);
    }
    gb_scen s;
    cr_assert_eq(parse_scen_str(cases[0].query, &s, &d), 0);
    cr_expect_eq(gb_scen_check_query(&s, 1, &m, &d), 70, "index past the end");
    cr_expect_eq(gb_scen_check_query(&s, 0, &m, &d), 0);
    cr_expect_eq(d.code, 0, "success clears the diagnostic");
    gb_scen_free(&s);
    gb_map_free(&m);
}

GB_TEST(loaders, success_clears_diag)
{
    gb_map m;
    gb_diag d;
    cr_assert_eq(parse_map_str("", &m, &d), 65);
    cr_assert_eq(parse_map_str(HDR "...\n...\n", &m, &d), 0);
    cr_expect_eq(d.code, 0);
    cr_expect_str_eq(d.msg, "");
    gb_map_free(&m);
}

/* ---- diagnostics rendering -------------------------------------------- */

static void print_to_string(const gb_diag *d, char *out, size_t n)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cr_assert(f);
    gb_diag_print(d, f);
    fclose(f);
    snprintf(out, n, "%s", buf);
    free(buf);
}

GB_TEST(loaders, diag_format_variants)
{
    gb_diag d;
    char got[1024];
    gb_diag_set(&d, 65, "a.map", 3, 7, "expected %d, found %s", 1, "x");
    gb_diag_format(&d, got, sizeof got);
    cr_expect_str_eq(got, "a.map:3:7: error: expected 1, found x");
    gb_diag_set(&d, 65, "a.map", 3, 0, "m");
    gb_diag_format(&d, got, sizeof got);
    cr_expect_str_eq(got, "a.map:3: error: m");
    gb_diag_set(&d, 66, "a.map", 0, 5, "m");
    gb_diag_format(&d, got, sizeof got);
    cr_expect_str_eq(got, "a.map: error: m", "col without line is dropped");
    cr_expect_eq(gb_diag_set(&d, 64, NULL, 0, 0, "m"), 64);
    gb_diag_format(&d, got, sizeof got);
    cr_expect_str_eq(got, "<input>: error: m");
    gb_diag_clear(&d);
    cr_expect_eq(d.code, 0);
    print_to_string(&d, got, sizeof got);
    cr_expect_str_eq(got, "", "nothing printed without an error");
}

GB_TEST(loaders, diag_print_caret)
{
    gb_map m;
    gb_diag d;
    char got[2048];
    cr_assert_eq(parse_map_str(HDR "...\n.x.\n", &m, &d), 65);
    print_to_string(&d, got, sizeof got);
    cr_expect_str_eq(got, "t.map:6:2: error: expected a terrain character "
                          "(. G S @ O T W), found 'x'\n"
                          "  .x.\n"
                          "   ^\n");
    gb_scen s;
    cr_assert_eq(parse_scen_str("0\tm.map\t3\t2\t0\t0\t2\t1\tabc\r\n", &s, &d), 65);
    print_to_string(&d, got, sizeof got);
    cr_expect_str_eq(got, "t.scen:1:21: error: expected optimal length as a "
                          "non-negative decimal number, found 'abc'\n"
                          "  0\tm.map\t3\t2\t0\t0\t2\t1\tabc\n"
                          "   \t     \t \t \t \t \t \t \t^\n",
                     "caret line copies the tabs");
    /* no text: only the formatted line */
    cr_assert_eq(parse_map_str(HDR "...\n", &m, &d), 65);
    print_to_string(&d, got, sizeof got);
    cr_expect_str_eq(got, "t.map:6: error: expected 2 rows, found 1\n");
}

GB_TEST(loaders, diag_long_line_window)
{
    /* 1000-column row with a bad cell at column 700 */
    size_t w = 1000;
    char *text = malloc(64 + w + 2);
    cr_assert(text);
    int k = sprintf(text, "type octile\nheight 1\nwidth %zu\nmap\n", w);
    memset(text + k, '.', w);
    text[k + 699] = 'x';
    text[(size_t)k + w] = '\n';
    text[(size_t)k + w + 1] = '\0';
    gb_map m;
    gb_diag d;
    cr_assert_eq(parse_map_str(text, &m, &d), 65);
    cr_expect_eq(d.line, 5);
    cr_expect_eq(d.col, 700);
    cr_expect_lt(strlen(d.text), sizeof d.text);
    cr_expect(strncmp(d.text, "[...]", 5) == 0, "window starts with [...]: %.20s", d.text);
    cr_expect(strcmp(d.text + strlen(d.text) - 5, "[...]") == 0, "and ends with [...]");
    cr_assert_gt(d.text_col, 5);
    cr_expect_eq(d.text[d.text_col - 1], 'x', "caret column inside the window");
    free(text);
}

/* ---- the real Moving AI files ----------------------------------------- */

typedef struct real_case {
    const char *scen;      /* path under GB_SHARED */
    size_t n;              /* queries */
    int32_t w, h;          /* map size */
    int version;
    double tol0;           /* tolerance of the first query */
    size_t nbad;           /* queries with an endpoint on a blocked cell */
    long first_bad;        /* line of the first of them */
    int found;
} real_case;

static int ends_with(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && strcmp(s + a - b, suf) == 0;
}

GB_TEST(loaders, real_files)
{
    const char *root = shared_dir();
    if (!root) cr_skip_test("no shared Moving AI directory (set GB_SHARED)");
    real_case cases[] = {
        { "dao/arena.map.scen", 160, 49, 49, 1, 1e-5, 0, 0, 0 },
        { "bgmaps/AR0011SR.map.scen", 1280, 512, 512, 1, 1e-2, 0, 0, 0 },
        { "mazes/maze512-4-0.map.scen", 9730, 512, 512, 1, 1e-5, 0, 0, 0 },
        { "random/random512-10-0.map.scen", 1780, 512, 512, 1, 1e-8, 0, 0, 0 },
        { "street/Berlin_0_256.map.scen", 930, 256, 256, 1, 1e-8, 0, 0, 0 },
        { "mapf/den312d-even-10.scen", 270, 65, 81, 1, 1e-8, 0, 0, 0 },
        /* The Warcraft III scenario does not match its map everywhere: 24
         * queries start or end on '@' or 'T' (see the shared README). */
        { "wc3/divideandconquer.map.scen", 1280, 512, 512, 1, 1e-2, 24, 240, 0 },
    };
    size_t ncases = sizeof cases / sizeof cases[0];
    DIR *top = opendir(root);
    cr_assert(top, "cannot open %s", root);
    struct dirent *e;
    int nscen = 0;
    while ((e = readdir(top)) != NULL) {
        if (e->d_name[0] == '.') continue;
        char sub[1024];
        snprintf(sub, sizeof sub, "%s/%s", root, e->d_name);
        DIR *dd = opendir(sub);
        if (!dd) continue;
        struct dirent *f;
        while ((f = readdir(dd)) != NULL) {
            if (!ends_with(f->d_name, ".scen")) continue;
            char rel[600], path[2048], mp[2048], msg[2048];
            snprintf(rel, sizeof rel, "%s/%s", e->d_name, f->d_name);
            snprintf(path, sizeof path, "%s/%s", root, rel);
            gb_scen s;
            gb_map m;
            gb_diag d;
            nscen++;
            int rc = gb_scen_load(path, &s, &d);
            gb_diag_format(&d, msg, sizeof msg);
            cr_expect_eq(rc, 0, "%s", msg);
            if (rc) continue;
            rc = gb_scen_resolve_map(&s, mp, sizeof mp, &d);
            gb_diag_format(&d, msg, sizeof msg);
            cr_expect_eq(rc, 0, "%s", msg);
            if (rc) { gb_scen_free(&s); continue; }
            rc = gb_map_load(mp, &m, &d);
            gb_diag_format(&d, msg, sizeof msg);
            cr_expect_eq(rc, 0, "%s", msg);
            if (rc) { gb_scen_free(&s); continue; }
            /* check every query on its own, to count the bad ones */
            size_t nbad = 0;
            long first_bad = 0;
            char first_msg[2048] = "";
            for (size_t i = 0; i < s.n; i++) {
                if (gb_scen_check_query(&s, i, &m, &d) == 0) continue;
                if (nbad++ == 0) {
                    first_bad = d.line;
                    gb_diag_format(&d, first_msg, sizeof first_msg);
                }
            }
            rc = gb_scen_check_map(&s, &m, &d);
            cr_expect_eq(rc, nbad ? 65 : 0, "%s: whole-file check", rel);
            cr_expect(rc == 0 || d.line == first_bad, "%s: whole-file check stops at "
                      "the first bad query", rel);
            cr_expect(ends_with(mp, ".map"), "%s resolved to %s", rel, mp);
            int known = 0;
            for (size_t i = 0; i < ncases; i++) {
                real_case *c = &cases[i];
                if (strcmp(c->scen, rel) != 0) continue;
                c->found = 1;
                known = 1;
                cr_expect_eq(s.n, c->n, "%s: %zu queries, expected %zu", rel, s.n, c->n);
                cr_expect_eq(m.grid.width, c->w, "%s: width", rel);
                cr_expect_eq(m.grid.height, c->h, "%s: height", rel);
                cr_expect_eq(s.version, c->version, "%s: version", rel);
                cr_expect_eq(nbad, c->nbad, "%s: %zu queries fail check_map (first: %s), "
                             "expected %zu", rel, nbad, first_msg, c->nbad);
                cr_expect_eq(first_bad, c->first_bad, "%s: first bad query", rel);
                cr_expect_float_eq(s.q[0].tol, c->tol0, c->tol0 * 1e-6,
                                   "%s: tol of first query %g, expected %g",
                                   rel, s.q[0].tol, c->tol0);
            }
            if (!known)   /* a scenario added later: it must match its map */
                cr_expect_eq(nbad, 0, "%s: %s", rel, first_msg);
            gb_map_free(&m);
            gb_scen_free(&s);
        }
        closedir(dd);
    }
    closedir(top);
    cr_expect_geq(nscen, (int)ncases);
    for (size_t i = 0; i < ncases; i++)
        cr_expect(cases[i].found, "%s not found under %s", cases[i].scen, root);
}

GB_TEST(loaders, real_berlin_map_is_crlf)
{
    const char *root = shared_dir();
    if (!root) cr_skip_test("no shared Moving AI directory (set GB_SHARED)");
    char path[1024], *buf;
    size_t len;
    gb_diag d;
    snprintf(path, sizeof path, "%s/street/Berlin_0_256.map", root);
    cr_assert_eq(gb_read_file(path, &buf, &len, &d), 0, "%s", d.msg);
    cr_expect(memchr(buf, '\r', len) != NULL, "fixture should have CRLF line ends");
    gb_map m;
    cr_assert_eq(gb_map_parse(path, buf, len, &m, &d), 0, "%s", d.msg);
    size_t dots = 0;
    for (size_t i = 0; i < len; i++) dots += buf[i] == '.';
    cr_expect_eq((size_t)m.grid.npassable, dots);
    free(buf);
    gb_map_free(&m);
}

GB_TEST(loaders, real_wc3_endpoint_on_blocked_cell)
{
    const char *root = shared_dir();
    if (!root) cr_skip_test("no shared Moving AI directory (set GB_SHARED)");
    char sp[1024], mp[1024], want[2048], got[2048];
    snprintf(sp, sizeof sp, "%s/wc3/divideandconquer.map.scen", root);
    gb_scen s;
    gb_map m;
    gb_diag d;
    cr_assert_eq(gb_scen_load(sp, &s, &d), 0, "%s", d.msg);
    cr_assert_eq(gb_scen_resolve_map(&s, mp, sizeof mp, &d), 0, "%s", d.msg);
    cr_assert_eq(gb_map_load(mp, &m, &d), 0, "%s", d.msg);
    cr_expect_eq(gb_scen_check_map(&s, &m, &d), 65);
    gb_diag_format(&d, got, sizeof got);
    snprintf(want, sizeof want,
             "%s:240:54: error: expected goal (189, 240) on a passable cell, found '@'", sp);
    cr_expect_str_eq(got, want);
    gb_map_free(&m);
    gb_scen_free(&s);
}
