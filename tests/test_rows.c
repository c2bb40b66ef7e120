/*
 * test_rows.c -- the row format read back (harness/io/gb_rows.h): the
 * column constants name their header columns, and gb_rows_split counts
 * fields, checks kinds and unquotes as the CSV writer quotes.
 */
#include "gb_test.h"

#include <string.h>

#include "gb_rows.h"

/* The name of column c of the header. */
static const char *column(int c, char *b, size_t n)
{
    const char *p = gb_rows_header();
    for (int i = 0; i < c; i++) p = strchr(p, ',') + 1;
    size_t l = strcspn(p, ",");
    snprintf(b, n, "%.*s", (int)l, p);
    return b;
}

GB_TEST(rows, column_constants_name_their_header_columns)
{
    char b[64];
    cr_expect_str_eq(column(GB_ROWS_COL_SCEN, b, sizeof b), "scen");
    cr_expect_str_eq(column(GB_ROWS_COL_LINE, b, sizeof b), "line");
    cr_expect_str_eq(column(GB_ROWS_COL_SOLVER, b, sizeof b), "solver");
    cr_expect_str_eq(column(GB_ROWS_COL_QUEUE, b, sizeof b), "queue");
    cr_expect_str_eq(column(GB_ROWS_COL_STATUS, b, sizeof b), "status");
    cr_expect_str_eq(column(GB_ROWS_COL_EXPANDED, b, sizeof b), "expanded");
    cr_expect_str_eq(column(GB_ROWS_COL_TIME_NS, b, sizeof b), "time_ns");
    cr_expect_str_eq(column(GB_ROWS_QUERY_COLS - 1, b, sizeof b), "model");
    cr_expect_eq(strlen(gb_rows_kinds()), GB_ROWS_NCOL);
}

GB_TEST(rows, split_counts_fields_checks_kinds_and_unquotes)
{
    char why[160];
    gb_rows_span f[4];
    static const char ok[] = "\"a,\"\"b\",12,ok,x";
    cr_assert_eq(gb_rows_split(ok, sizeof ok - 1, ".ns.", f, why, sizeof why), 0, "%s", why);
    char t[16];
    cr_expect_eq(gb_rows_field_text(f[0], t, sizeof t), 4);
    cr_expect_str_eq(t, "a,\"b");
    cr_expect(gb_rows_field_is(f[0], "a,\"b", 0));
    cr_expect(gb_rows_field_is(f[0], "a,*", 1));
    cr_expect(!gb_rows_field_is(f[0], "a,", 0));
    cr_expect_eq(gb_rows_field_ll(f[1], -1), 12);
    cr_expect_eq(gb_rows_field_text(f[0], t, 4), -1, "does not fit");
    static const struct { const char *row, *why; } bad[] = {
        { "a,1,ok,x,y", "expected 4 fields, found more than 4" },
        { "a,1", "expected 4 fields, found 2" },
        { "a,1x,ok,x", "field 2: expected a number or nothing, found '1x'" },
        { "a,1,ok,\"x", "expected 4 fields, found a quote left open" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cr_expect_eq(gb_rows_split(bad[i].row, strlen(bad[i].row), ".ns.", f, why, sizeof why), -1,
                     "%s", bad[i].row);
        cr_expect_str_eq(why, bad[i].why, "%s", bad[i].row);
    }
}
