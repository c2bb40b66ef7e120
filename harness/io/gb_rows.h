/*
 * gb_rows.h -- the row format of `gridbench run`: the CSV column contract.
 *
 * Users script against these columns, so the list is a public contract:
 * columns are only ever added at the end, never renamed, removed or
 * reordered.  This module is the one home of that list: the runner writes
 * rows through gb_row_write, `merge` and the journal check rows against
 * gb_rows_header and gb_rows_kinds, and the report reads the same names.
 *
 * A gb_row is plain data: every field is what the column prints, already
 * decided by the runner (names, status, checked costs), so this module
 * knows nothing of solvers, pairs or validators.  Empty fields are spelt
 * by the has_* flags and by 0 for the unsigned "not known" columns
 * (mem_bytes, prep_ns), as documented per field below.
 */
#ifndef GB_ROWS_H
#define GB_ROWS_H

#include <stdint.h>
#include <stdio.h>

/* Number of columns of gb_rows_header(). */
#define GB_ROWS_NCOL 44

/* Columns that rows read back are checked by (0-based, in the header). */
enum {
    GB_ROWS_COL_SCEN = 1, GB_ROWS_COL_LINE = 2, GB_ROWS_COL_SOLVER = 9,
    GB_ROWS_COL_QUEUE = 10, GB_ROWS_COL_STATUS = 13, GB_ROWS_COL_EXPANDED = 20,
    GB_ROWS_COL_TIME_NS = 28,
    GB_ROWS_QUERY_COLS = 9    /* columns 0..8 (map .. model) name the query */
};

/* One row. */
typedef struct gb_row {
    /* the query */
    const char *map;            /* the map's base name */
    const char *scen;           /* the scenario file as given */
    long line;                  /* its line in the scenario file */
    int bucket, sx, sy, gx, gy;
    const char *model;          /* movement model name */
    double scen_cost;           /* the printed optimum ... */
    int scen_decimals;          /* ... and its number of decimals */
    double euclid_lb;           /* the straight line start-goal */
    /* the pair */
    const char *solver, *queue, *guarantee;
    double bound;
    const char *status;         /* gb_row_status_name() */
    const char *time_source;    /* inproc, plugin, process */
    const char *cost_model;     /* grid, any-angle */
    /* the answer */
    int has_cost;               /* cost and path_len are the solver's */
    double cost;
    int32_t path_len;
    int has_opt;                /* dijkstra_cost is known */
    double opt;                 /* Dijkstra's optimum */
    int has_aa;                 /* any-angle row in the GPPC model: aa_opt is known */
    double aa_opt;              /* the GPPC any-angle optimum: subopt = path_cost / aa_opt */
    int has_li;                 /* any-angle row under terrain costs: li_opt is known */
    double li_opt;              /* the line-integral grid optimum (gb_aaterrain.h):
                                   subopt = path_cost / li_opt */
    int has_path_cost;          /* the validated cost is known (subopt, lb_ratio) */
    double path_cost;
    uint64_t expanded, generated, scanned, pushes, pops, decreases, stale, peak_open;
    int64_t time_ns, time_cold_ns;
    int reps;
    uint64_t mem_bytes, prep_ns;   /* 0: not known (an empty field) */
    int64_t solver_time_ns;        /* < 0: none (an empty field) */
    /* the timing regime and GPPC's measures (docs/timing.md) */
    const char *regime;            /* "interleaved" or "gppc" */
    int64_t first20_ns;            /* time until the path covers 20 steps (or is complete); < 0: none */
    int64_t max_call_ns;           /* the longest single call of the solver; < 0: none */
    int calls;                     /* calls the solver took for its path; 0: none */
    uint64_t storage_bytes;        /* per-map preprocessed data on disk; 0: none */
    uint64_t prepare_ns;           /* per-map loading of that data (GPPC's PrepareForSearch); 0: none */
} gb_row;

/* The CSV header line, without a newline. */
const char *gb_rows_header(void);

/* The kind of each column, one character per column of the header, for
 * checking rows read back (journal, merge): 'n' a number or empty, 's' a
 * row status name, '.' any text. */
const char *gb_rows_kinds(void);

/* One field of a row read back: its bytes in the line, quotes included. */
typedef struct gb_rows_span {
    const char *p;
    size_t n;
} gb_rows_span;

/* Split the row s[0..n) (without its newline) into fields and check them
 * against kinds (one letter per column, as gb_rows_kinds(): 'n' a number
 * or empty, 's' a row status name, '.' any text): the field count must be
 * strlen(kinds), quotes balanced.  The spans go to f[0..strlen(kinds)) when
 * f is not NULL.  0, or -1 with "field 3: expected ..., found ..." or
 * "expected 38 fields, found 17" in why (a quoted rendering of the bytes,
 * never raw).  Reads nothing outside s[0..n). */
int gb_rows_split(const char *s, size_t n, const char *kinds, gb_rows_span *f, char *why,
                  size_t wsz);

/* The text of field f, CSV-unquoted, into buf (NUL-terminated): its
 * length, or -1 when it does not fit in n bytes. */
long gb_rows_field_text(gb_rows_span f, char *buf, size_t n);

/* Does field f, CSV-unquoted, spell t?  With star, t ends in '*' and
 * the field need only begin with what comes before it. */
int gb_rows_field_is(gb_rows_span f, const char *t, int star);

/* The integer of a number field (what gb_rows_split accepted as 'n'),
 * or def when it is empty or not an integer. */
long long gb_rows_field_ll(gb_rows_span f, long long def);

/* Write *r as one CSV line (with its newline) to out.  Text fields are
 * quoted as RFC 4180 needs; write errors are left in out's error flag. */
void gb_row_write(FILE *out, const gb_row *r);

#endif
