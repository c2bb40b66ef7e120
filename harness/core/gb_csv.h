/*
 * gb_csv.h -- a streaming reader for CSV files with a header line, whose
 * columns are looked up by name, not by position.
 *
 * Format accepted (RFC 4180, plus what spreadsheets write)
 *   - records end in LF or CRLF; the last one may lack its newline;
 *   - fields are separated by ','; a field may be quoted with '"', and
 *     inside quotes '""' is one '"' and commas, CR and LF are data;
 *   - an unquoted field is taken as is (a '"' inside it is data);
 *   - a UTF-8 byte order mark before the header is skipped;
 *   - empty lines (no byte before the newline) are skipped;
 *   - every record has exactly as many fields as the header.
 * Anything else (a record with another field count, a character after a
 * closing quote, a quote left open at the end of the file) is an
 * EX_DATAERR naming the file, the line and, where it helps, the column.
 *
 * Data structure
 *   One record is held at a time: buf holds its fields, each
 *   NUL-terminated, at offsets off[0..nf).  The header's names are kept
 *   in their own copies (hdr[0..nhdr)).  line is the 1-based line on
 *   which the current record starts (records with quoted newlines span
 *   several lines), so messages point at the record.
 *
 * Time complexity: O(bytes) per file; lookups by name are O(columns) and
 * meant to be done once, before the loop over records.
 */
#ifndef GB_CSV_H
#define GB_CSV_H

#include <stddef.h>
#include <stdio.h>

#include "gb_diag.h"

#define GB_CSV_EOF (-1)

typedef struct gb_csv {
    FILE *f;           /* the open file */
    char path[1024];   /* file name, for messages */
    long line;         /* 1-based line where the current record starts */
    long next_line;    /* line of the next unread byte */
    char *buf;         /* fields of the current record, NUL-terminated */
    size_t len, cap;   /* bytes used / allocated in buf */
    size_t *off;       /* off[i]: start of field i in buf */
    int nf, capf;      /* fields in the current record / slots in off */
    char **hdr;        /* header names (malloc'd copies) */
    int nhdr;          /* header fields */
} gb_csv;

/* Open path and read its header line.  Returns 0, or fills *d and returns
 * EX_NOINPUT (cannot open), EX_DATAERR (empty file, bad header: an empty
 * or repeated column name), EX_IOERR or EX_OSERR; on failure *c owns
 * nothing. */
int gb_csv_open(gb_csv *c, const char *path, gb_diag *d);

/* Index of the header column called name, or -1. */
int gb_csv_col(const gb_csv *c, const char *name);

/* Look up names[0..n) into idx[0..n).  Returns 0, or EX_DATAERR with *d
 * naming the first missing column ("expected a column 'x' in the header,
 * found none"). */
int gb_csv_require(const gb_csv *c, const char *const *names, int n, int *idx, gb_diag *d);

/* Read the next record.  Returns 0 (fields available through
 * gb_csv_field), GB_CSV_EOF at the end of the file, or a sysexits code
 * with *d filled (EX_DATAERR with the record's line, EX_IOERR, EX_OSERR). */
int gb_csv_next(gb_csv *c, gb_diag *d);

/* Field i of the current record (0 <= i < nhdr), NUL-terminated, valid
 * until the next gb_csv_next. */
static inline const char *gb_csv_field(const gb_csv *c, int i) { return c->buf + c->off[i]; }

/* Close the file and free everything; *c is zeroed.  Safe on a zeroed
 * reader. */
void gb_csv_close(gb_csv *c);

/* Write s as one CSV field: as is, or quoted (with quotes doubled) when
 * it contains a comma, a quote or a line break. */
void gb_csv_write_str(FILE *f, const char *s);

/* Parse field text s as a finite double (strtod, whole text, no blanks).
 * Returns 0, or -1 for an empty or malformed field (*v untouched). */
int gb_csv_double(const char *s, double *v);

#endif
