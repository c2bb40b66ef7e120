/*
 * gb_csv.c -- streaming CSV reader (see gb_csv.h for the accepted format
 * and the record layout).
 *
 * The parser is a small state machine over getc_unlocked: START (at the
 * beginning of a field), UNQUOTED, QUOTED, QUOTE_IN_QUOTED (saw '"' inside
 * quotes: either an escaped quote or the closing one).  A record ends at
 * an LF outside quotes; a CR directly before it is dropped.
 */
#include "gb_csv.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gb_alloc.h"

static int grow_buf(gb_csv *c, size_t need)
{
    if (need <= c->cap) return 0;
    size_t cap = c->cap ? c->cap : 256;
    while (cap < need) cap *= 2;
    char *b = gb_realloc(c->buf, cap);
    if (!b) return -1;
    c->buf = b;
    c->cap = cap;
    return 0;
}

static int push_byte(gb_csv *c, int ch)
{
    if (c->len + 1 >= c->cap && grow_buf(c, c->len + 2) != 0) return -1;
    c->buf[c->len++] = (char)ch;
    return 0;
}

/* Close the current field (NUL) and open the next one at len. */
static int end_field(gb_csv *c)
{
    if (push_byte(c, '\0') != 0) return -1;
    if (c->nf + 1 >= c->capf) {
        int capf = c->capf ? c->capf * 2 : 32;
        size_t *o = gb_realloc(c->off, (size_t)capf * sizeof *o);
        if (!o) return -1;
        c->off = o;
        c->capf = capf;
    }
    c->off[++c->nf] = c->len;
    return 0;
}

enum { ST_START, ST_UNQUOTED, ST_QUOTED, ST_QUOTE_IN_QUOTED };

/* Read one record into buf/off.  0, GB_CSV_EOF (no byte left), or a code. */
static int read_record(gb_csv *c, gb_diag *d)
{
    for (;;) {
        c->len = 0;
        c->nf = 0;
        if (c->capf == 0) {
            c->off = gb_malloc(32 * sizeof *c->off);
            if (!c->off) return gb_diag_set(d, EX_OSERR, c->path, c->next_line, 0,
                                            "expected memory for a record, found none");
            c->capf = 32;
        }
        c->off[0] = 0;
        c->line = c->next_line;
        int st = ST_START, ch, any = 0;
        long col = 0;
        for (;;) {
            ch = getc_unlocked(c->f);
            if (ch == EOF) break;
            any = 1;
            col++;
            if (ch == '\n') {
                c->next_line++;
                if (st == ST_QUOTED) { col = 0; if (push_byte(c, ch)) goto oom; continue; }
                break;
            }
            switch (st) {
            case ST_START:
                if (ch == '"') { st = ST_QUOTED; break; }
                st = ST_UNQUOTED;
                /* fall through */
            case ST_UNQUOTED:
                if (ch == ',') { if (end_field(c)) goto oom; st = ST_START; }
                else if (push_byte(c, ch)) goto oom;
                break;
            case ST_QUOTED:
                if (ch == '"') st = ST_QUOTE_IN_QUOTED;
                else if (push_byte(c, ch)) goto oom;
                break;
            case ST_QUOTE_IN_QUOTED:
                if (ch == '"') { if (push_byte(c, ch)) goto oom; st = ST_QUOTED; }
                else if (ch == ',') { if (end_field(c)) goto oom; st = ST_START; }
                else if (ch == '\r') { /* only legal right before the newline */
                    int nx = getc_unlocked(c->f);
                    if (nx != '\n' && nx != EOF) {
                        return gb_diag_set(d, EX_DATAERR, c->path, c->next_line, col,
                                           "expected ',' or the end of the line after a closing quote, found '\\r'");
                    }
                    if (nx == '\n') c->next_line++;
                    goto record_done;
                } else {
                    char q[16];
                    gb_diag_quote(q, sizeof q, (const char *)&(char){ (char)ch }, 1);
                    return gb_diag_set(d, EX_DATAERR, c->path, c->next_line, col,
                                       "expected ',' or the end of the line after a closing quote, found %s", q);
                }
                break;
            }
        }
        if (ch == EOF && ferror(c->f))
            return gb_diag_set(d, EX_IOERR, c->path, c->next_line, 0, "expected to read the file, found %s",
                               strerror(errno));
        if (st == ST_QUOTED)
            return gb_diag_set(d, EX_DATAERR, c->path, c->line, 0,
                               "expected a closing quote before the end of the file, found none");
        if (!any) return GB_CSV_EOF;
        /* a CR right before the LF (or the end) belongs to the line end */
        if (st == ST_UNQUOTED && c->len > c->off[c->nf] && c->buf[c->len - 1] == '\r') c->len--;
        if (st == ST_START && c->nf == 0 && c->len == 0 && ch == '\n') continue; /* empty line */
    record_done:
        if (push_byte(c, '\0')) goto oom;
        c->nf++;
        if (c->nf == 1 && c->buf[0] == '\0' && st != ST_QUOTE_IN_QUOTED) {
            /* a line holding only "\r" */
            if (ch == EOF) return GB_CSV_EOF;
            continue;
        }
        return 0;
    oom:
        return gb_diag_set(d, EX_OSERR, c->path, c->line, 0, "expected memory for a record, found none");
    }
}

int gb_csv_open(gb_csv *c, const char *path, gb_diag *d)
{
    memset(c, 0, sizeof *c);
    snprintf(c->path, sizeof c->path, "%s", path);
    c->f = gb_open_regular(path, NULL, d);
    if (!c->f) return d->code;
    c->next_line = 1;
    /* UTF-8 byte order mark */
    int b0 = getc(c->f);
    if (b0 == 0xEF) {
        int b1 = getc(c->f), b2 = getc(c->f);
        if (b1 != 0xBB || b2 != 0xBF) rewind(c->f);
    } else if (b0 != EOF) {
        ungetc(b0, c->f);
    }
    int rc = read_record(c, d);
    if (rc == GB_CSV_EOF) {
        gb_csv_close(c);
        return gb_diag_set(d, EX_DATAERR, path, 0, 0, "expected a header line, found an empty file");
    }
    if (rc) { gb_csv_close(c); return rc; }
    c->hdr = gb_calloc((size_t)c->nf, sizeof *c->hdr);
    if (!c->hdr) { gb_csv_close(c); return gb_diag_set(d, EX_OSERR, path, 1, 0, "expected memory, found none"); }
    c->nhdr = c->nf;
    for (int i = 0; i < c->nf; i++) {
        const char *name = gb_csv_field(c, i);
        if (!name[0]) {
            rc = gb_diag_set(d, EX_DATAERR, path, c->line, 0,
                             "expected a name for header column %d, found an empty field", i + 1);
            gb_csv_close(c);
            return rc;
        }
        if (gb_csv_col(c, name) >= 0) {
            rc = gb_diag_set(d, EX_DATAERR, path, c->line, 0,
                             "expected unique header names, found '%s' twice", name);
            gb_csv_close(c);
            return rc;
        }
        c->hdr[i] = gb_strdup(name);
        if (!c->hdr[i]) { gb_csv_close(c); return gb_diag_set(d, EX_OSERR, path, 1, 0, "expected memory, found none"); }
    }
    gb_diag_clear(d);
    return 0;
}

int gb_csv_col(const gb_csv *c, const char *name)
{
    for (int i = 0; i < c->nhdr; i++)
        if (c->hdr[i] && strcmp(c->hdr[i], name) == 0) return i;
    return -1;
}

int gb_csv_require(const gb_csv *c, const char *const *names, int n, int *idx, gb_diag *d)
{
    for (int i = 0; i < n; i++) {
        idx[i] = gb_csv_col(c, names[i]);
        if (idx[i] < 0)
            return gb_diag_set(d, EX_DATAERR, c->path, 1, 0,
                               "expected a column '%s' in the header, found none", names[i]);
    }
    return 0;
}

int gb_csv_next(gb_csv *c, gb_diag *d)
{
    int rc = read_record(c, d);
    if (rc) return rc;
    if (c->nf != c->nhdr)
        return gb_diag_set(d, EX_DATAERR, c->path, c->line, 0,
                           "expected %d fields as in the header, found %d", c->nhdr, c->nf);
    return 0;
}

void gb_csv_close(gb_csv *c)
{
    if (c->f) fclose(c->f);
    if (c->hdr)
        for (int i = 0; i < c->nhdr; i++) gb_free(c->hdr[i]);
    gb_free(c->hdr);
    gb_free(c->buf);
    gb_free(c->off);
    memset(c, 0, sizeof *c);
}

int gb_csv_double(const char *s, double *v)
{
    if (!s[0]) return -1;
    char *end;
    errno = 0;
    double x = strtod(s, &end);
    if (end == s || *end || errno == ERANGE || !isfinite(x)) return -1;
    *v = x;
    return 0;
}

void gb_csv_write_str(FILE *f, const char *s)
{
    if (s[0] != '#' && !strpbrk(s, ",\"\n\r")) { fputs(s, f); return; }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}
