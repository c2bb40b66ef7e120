/*
 * gb_scen.h -- Moving AI .scen scenario files: queries with printed
 * optimal lengths, and the tolerance to compare a computed optimum with.
 *
 * Format
 *   An optional first line "version 1" or "version 1.0" (version 1);
 *   without it the file is version 0 and its first non-blank line is
 *   already a query.  Any other version is an error.  Each query line has
 *   9 columns separated by runs of spaces/tabs:
 *       bucket  map  map-width  map-height  start-x  start-y  goal-x  goal-y  length
 *   Lines end in LF or CRLF; blank lines are ignored.  Integers are plain
 *   decimal digits; bucket and coordinates are >= 0, width and height
 *   > 0, all fit int32_t.  The length is digits, optionally "." and more
 *   digits: no sign, exponent, hex, inf or nan (Moving AI files never
 *   print those).
 *
 *   The map column of the first query is kept in map_field.  Later queries
 *   may print a different map column (the Moving AI tools never do);
 *   it is accepted and ignored: a scenario is about one map, and
 *   gb_scen_check_map() checks that every query's width and height match
 *   that map.
 *
 * Tolerance rule (gb_query.tol)
 *   The Moving AI files print lengths in three dialects: fixed 2 decimals
 *   ("244.95"), fixed 8 decimals ("2.41421356"), and %g with 6 significant
 *   digits ("5.65685", "1", "12.4142", "1234.57", trailing zeros dropped,
 *   so the number of decimals varies per line).  The printed values are
 *   right to within one unit in the last printed digit.  After the whole
 *   file is read:
 *     - if every length has the same number of decimals D (fixed style),
 *       tol = 10^-D for every query;
 *     - otherwise (significant-digit style) let S be the largest number of
 *       significant digits printed by any length of the file; a length L
 *       whose leading digit has decimal exponent e = floor(log10(L)) gets
 *       tol = 10^(e - S + 1), one unit in its S-th significant digit (so
 *       "3892.6" from a 6-digit file gets 0.01, not 0.1); L = 0 gets 10^-S.
 *   e and S are read from the printed text, not computed from the double.
 *   Every tol is then multiplied by (1 + 1e-9) to absorb the rounding of
 *   the decimal text to a double.  A computed optimum c agrees with the
 *   file when |c - length| <= tol.
 */
#ifndef GB_SCEN_H
#define GB_SCEN_H

#include <stddef.h>
#include <stdint.h>

#include "gb_diag.h"
#include "gb_map.h"

/* Columns of a query line, in file order. */
enum {
    GB_SCEN_BUCKET, GB_SCEN_MAP, GB_SCEN_MAP_W, GB_SCEN_MAP_H,
    GB_SCEN_SX, GB_SCEN_SY, GB_SCEN_GX, GB_SCEN_GY, GB_SCEN_LENGTH,
    GB_SCEN_NCOLS
};

typedef struct gb_query {
    long line;                /* 1-based line in the .scen */
    int32_t bucket;           /* bucket column as printed */
    int32_t map_w, map_h;     /* map size as printed */
    int32_t sx, sy, gx, gy;   /* start and goal (x = column, y = row) */
    double length;            /* printed optimal length */
    int decimals;             /* digits printed after the decimal point */
    double tol;               /* tolerance for |computed - length| (see above) */
    int32_t col[GB_SCEN_NCOLS]; /* 1-based column where each field starts
                                   (for diagnostics) */
} gb_query;

typedef struct gb_scen {
    char *path;        /* malloc'd copy of the file name (may be NULL) */
    int version;       /* 0 (headerless) or 1 ("version 1" / "version 1.0") */
    char *map_field;   /* map column as printed in the first query */
    gb_query *q;       /* queries in file order */
    size_t n;          /* number of queries (>= 1 in a loaded scenario) */
} gb_scen;

/* Load the .scen file at path into *s.  Returns 0, or a sysexits code with
 * *d filled: EX_NOINPUT (missing/unreadable), EX_IOERR (read error),
 * EX_DATAERR (bad content, with line and column, including a file with no
 * query), EX_OSERR (out of memory).  On failure *s is zeroed and owns
 * nothing. */
int gb_scen_load(const char *path, gb_scen *s, gb_diag *d);

/* Same as gb_scen_load, from buf[0..len) (need not be NUL-terminated);
 * path is used for diagnostics and copied into s->path. */
int gb_scen_parse(const char *path, const char *buf, size_t len, gb_scen *s,
                  gb_diag *d);

/* Release everything *s owns and zero it.  Safe on a zeroed scenario. */
void gb_scen_free(gb_scen *s);

/* Find the map file of *s and copy its path into out (size outsz).
 * Candidates, first existing regular file wins:
 *   1. dirname(s->path)/map_field   (map_field itself when absolute)
 *   2. dirname(s->path)/basename(map_field)
 *   3. s->path minus a trailing ".scen"
 * Returns 0, EX_NOINPUT when none exists (the message lists every
 * candidate tried), or EX_SOFTWARE when the winner does not fit in out.
 * *s is not modified. */
int gb_scen_resolve_map(const gb_scen *s, char *out, size_t outsz, gb_diag *d);

/* Check every query of *s against map *m: map_w/map_h equal the map's
 * width/height, start and goal inside the map and on passable cells.
 * Returns 0 (and clears *d) or EX_DATAERR for the first bad query, with *d
 * naming the scen file, the query's line and the column of the offending
 * field.  Note: the shared wc3/divideandconquer scenario fails this check
 * (24 of its 1280 queries start or end on '@' or 'T'); use
 * gb_scen_check_query() to skip such queries one by one. */
int gb_scen_check_map(const gb_scen *s, const gb_map *m, gb_diag *d);

/* The same check for query s->q[i] alone.  Returns 0 (and clears *d),
 * EX_DATAERR as above, or EX_SOFTWARE when i >= s->n. */
int gb_scen_check_query(const gb_scen *s, size_t i, const gb_map *m, gb_diag *d);

/* How a length was printed, read from its text (the tolerance rule). */
typedef struct gb_lenfmt {
    int decimals;   /* digits after the '.' (0 without one) */
    int sig;        /* significant digits printed (0 for a zero length) */
    int exp;        /* decimal exponent of the leading significant digit */
} gb_lenfmt;

/* Parse the printed length s[0..n) (need not be NUL-terminated) with the
 * grammar [0-9]+(\.[0-9]+)?, whatever the locale's radix.  0 with *value
 * and *f filled; -1 when s is not of that grammar (signs, blanks,
 * exponents, "inf" ...), -2 when it is longer than 63 characters.  Used
 * by this loader and by GPPC's dynamic scenarios (gb_gppcdyn.h). */
int gb_len_parse(const char *s, size_t n, double *value, gb_lenfmt *f);

/* The significant-digit branch of the tolerance rule: one unit in the
 * maxsig-th significant digit of a length printed as *f (10^-maxsig for
 * a zero length), times (1 + 1e-9). */
double gb_len_tol_sig(const gb_lenfmt *f, int maxsig);

/* Write *s as "version 1" then one line per query, 9 tab-separated
 * columns, map column = map_field, length printed "%.8f" (always with a
 * '.' radix), LF line ends; through a temporary "<path>.tmp.<pid>" renamed
 * over path.  Returns 0, or EX_CANTCREAT / EX_IOERR with *d filled. */
int gb_scen_write(const char *path, const gb_scen *s, gb_diag *d);

#endif
