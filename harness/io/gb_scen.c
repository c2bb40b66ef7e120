/*
 * gb_scen.c -- Moving AI .scen reader, writer, map resolution and the
 * query-versus-map check.  See gb_scen.h for the format and for the
 * tolerance rule, which is applied here in set_tolerances() once the
 * whole file has been read.
 *
 * Data structure
 *   Queries go into a growing array (capacity doubles, overflow-checked).
 *   While parsing, a parallel array records for every length how many
 *   significant digits were printed and the decimal exponent of the
 *   leading one, both read from the text; it is freed before returning.
 *
 * Numbers are checked against a strict grammar before conversion:
 *   integers  [0-9]+                then strtoll + errno + range check;
 *   lengths   [0-9]+(\.[0-9]+)?     then strtod (radix made locale-proof).
 * so signs, blanks, "0x", exponents, "inf", "nan" and trailing garbage
 * ("12x", "1.5.3") are all refused with the token quoted in the message.
 *
 * Time complexity: O(file size) to parse; O(n) to check or write.
 */
#include "gb_scen.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gb_alloc.h"
#include "gb_text.h"

/* ---- lines and tokens ------------------------------------------------- */

/* Line gb_cursor over buf[0..len): no = number of lines returned so far. */
/* How each length was printed, for the tolerance rule. */
typedef struct parser {
    const char *path;
    gb_cursor c;
    gb_diag *d;
    const char *line;   /* current line, for diagnostics */
    size_t linelen;
    gb_scen *s;
    size_t cap;         /* capacity of s->q and fmt */
    gb_lenfmt *fmt;        /* parallel to s->q */
} parser;

/* Fill the diagnostic (EX_DATAERR) at line:col of the current line, with
 * its text attached.  Returns EX_DATAERR. */
static int fail(parser *P, long col, const char *fmt, ...) GB_PRINTF_LIKE(3, 4);
static int fail(parser *P, long col, const char *fmt, ...)
{
    char msg[sizeof P->d->msg];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    gb_diag_set(P->d, EX_DATAERR, P->path, P->c.no, col, "%s", msg);
    gb_diag_set_text(P->d, P->line, P->linelen);
    return EX_DATAERR;
}

static int out_of_memory(parser *P, const char *what)
{
    return gb_diag_set(P->d, EX_OSERR, P->path, 0, 0,
                       "expected memory for %s, found none", what);
}

/* ---- numbers ---------------------------------------------------------- */

static int all_digits(const gb_tok *t)
{
    if (t->n == 0) return 0;
    for (size_t i = 0; i < t->n; i++)
        if (t->s[i] < '0' || t->s[i] > '9') return 0;
    return 1;
}

/* Integer column: digits only, min <= value <= INT32_MAX (min is 0 or 1). */
static int parse_int(parser *P, const gb_tok *t, const char *what, int min, int32_t *out)
{
    char q[64];
    gb_diag_quote(q, sizeof q, t->s, t->n);
    const char *kind = min > 0 ? "positive" : "non-negative";
    if (!all_digits(t))
        return fail(P, t->col, "expected %s as a %s integer, found %s", what, kind, q);
    char num[24];
    long long v = (long long)INT32_MAX + 1;     /* too many digits: too big */
    if (t->n < sizeof num) {
        memcpy(num, t->s, t->n);
        num[t->n] = '\0';
        char *end;
        errno = 0;
        v = strtoll(num, &end, 10);
        if (errno == ERANGE || *end != '\0') v = (long long)INT32_MAX + 1;
    }
    if (v > INT32_MAX)
        return fail(P, t->col, "expected %s at most %ld, found %s",
                    what, (long)INT32_MAX, q);
    if (v < min)
        return fail(P, t->col, "expected %s as a %s integer, found %s", what, kind, q);
    *out = (int32_t)v;
    return 0;
}

/* A printed length, for both loaders of printed optima (.scen here, GPPC's
 * dynamic scenarios in gb_gppcdyn.c): the grammar, the locale-proof
 * conversion, and the digits the tolerance rule reads from the text. */
int gb_len_parse(const char *s, size_t n, double *value, gb_lenfmt *f)
{
    size_t i = 0, intlen, dot = 0;
    while (i < n && s[i] >= '0' && s[i] <= '9') i++;
    intlen = i;
    int ok = intlen > 0;
    if (ok && i < n) {
        dot = i;
        ok = s[i] == '.';
        for (i++; ok && i < n; i++) ok = s[i] >= '0' && s[i] <= '9';
        ok = ok && n > dot + 1;
    }
    char num[64];
    if (!ok) return -1;
    if (n >= sizeof num) return -2;
    f->decimals = intlen < n ? (int)(n - intlen - 1) : 0;
    /* Significant digits and the exponent of the leading one, from the text. */
    f->sig = 0;
    f->exp = 0;
    for (size_t j = 0; j < n; j++) {
        char ch = s[j];
        if (ch == '.') continue;
        if (f->sig == 0 && ch == '0') continue;
        if (f->sig == 0)
            f->exp = j < intlen ? (int)(intlen - 1 - j) : -(int)(j - intlen);
        f->sig++;
    }
    memcpy(num, s, n);
    num[n] = '\0';
    const char *radix = localeconv()->decimal_point;
    if (radix && radix[0] && radix[0] != '.' && !radix[1] && f->decimals > 0)
        num[intlen] = radix[0];
    char *end;
    errno = 0;
    double v = strtod(num, &end);
    if (*end != '\0' || errno == ERANGE || !isfinite(v) || v < 0) return -1;
    *value = v;
    return 0;
}

/* Length column: [0-9]+(\.[0-9]+)?; fills value, decimals and *f. */
static int parse_length(parser *P, const gb_tok *t, double *value, int *decimals,
                        gb_lenfmt *f)
{
    char q[64];
    gb_diag_quote(q, sizeof q, t->s, t->n);
    int rc = gb_len_parse(t->s, t->n, value, f);
    if (rc == -2)
        return fail(P, t->col, "expected optimal length of at most %d characters, "
                    "found %zu characters", 63, t->n);
    if (rc)
        return fail(P, t->col,
                    "expected optimal length as a non-negative decimal number, found %s", q);
    *decimals = f->decimals;
    return 0;
}

/* ---- lines ------------------------------------------------------------ */

static const char *const col_name[GB_SCEN_NCOLS] = {
    "bucket", "map", "map width", "map height",
    "start x", "start y", "goal x", "goal y", "optimal length"
};

static int grow(parser *P)
{
    gb_scen *s = P->s;
    if (s->n < P->cap) return 0;
    size_t ncap = P->cap ? P->cap * 2 : 256;
    if (ncap < P->cap || ncap > SIZE_MAX / sizeof(gb_query))
        return out_of_memory(P, "the query array");
    gb_query *q = gb_realloc(s->q, ncap * sizeof *q);
    if (!q) return out_of_memory(P, "the query array");
    s->q = q;
    gb_lenfmt *f = gb_realloc(P->fmt, ncap * sizeof *f);
    if (!f) return out_of_memory(P, "the query array");
    P->fmt = f;
    P->cap = ncap;
    return 0;
}

/* Parse the current line (non-blank) as a query and append it. */
static int query_line(parser *P, const char *line, size_t n)
{
    gb_tok t[GB_SCEN_NCOLS + 1];
    size_t k = gb_split(line, n, t, GB_SCEN_NCOLS + 1);
    if (k != GB_SCEN_NCOLS) {
        long col;
        if (k > GB_SCEN_NCOLS) {
            col = t[GB_SCEN_NCOLS].col;
        } else {
            size_t e = n;
            while (e > 0 && gb_is_blank(line[e - 1])) e--;
            col = (long)e + 1;
        }
        return fail(P, col, "expected %d columns, found %zu", GB_SCEN_NCOLS, k);
    }
    int rc;
    if ((rc = grow(P)) != 0) return rc;
    gb_query *q = &P->s->q[P->s->n];
    memset(q, 0, sizeof *q);
    q->line = P->c.no;
    for (int j = 0; j < GB_SCEN_NCOLS; j++)
        q->col[j] = t[j].col > INT32_MAX ? INT32_MAX : (int32_t)t[j].col;
    struct { int col, min; int32_t *dst; } ints[] = {
        { GB_SCEN_BUCKET, 0, &q->bucket },
        { GB_SCEN_MAP_W, 1, &q->map_w }, { GB_SCEN_MAP_H, 1, &q->map_h },
        { GB_SCEN_SX, 0, &q->sx }, { GB_SCEN_SY, 0, &q->sy },
        { GB_SCEN_GX, 0, &q->gx }, { GB_SCEN_GY, 0, &q->gy },
    };
    for (size_t j = 0; j < sizeof ints / sizeof ints[0]; j++)
        if ((rc = parse_int(P, &t[ints[j].col], col_name[ints[j].col],
                            ints[j].min, ints[j].dst)) != 0)
            return rc;
    if ((rc = parse_length(P, &t[GB_SCEN_LENGTH], &q->length, &q->decimals,
                           &P->fmt[P->s->n])) != 0)
        return rc;
    const gb_tok *m = &t[GB_SCEN_MAP];
    if (P->s->n == 0) {
        P->s->map_field = gb_malloc(m->n + 1);
        if (!P->s->map_field) return out_of_memory(P, "the map column");
        memcpy(P->s->map_field, m->s, m->n);
        P->s->map_field[m->n] = '\0';
    } else if (strlen(P->s->map_field) != m->n || memcmp(P->s->map_field, m->s, m->n) != 0) {
        /* one scenario file, one map: a second name would be run on the first's map */
        char qm[80], q0[80];
        gb_diag_quote(qm, sizeof qm, m->s, m->n);
        gb_diag_quote(q0, sizeof q0, P->s->map_field, strlen(P->s->map_field));
        return fail(P, t[GB_SCEN_MAP].col, "expected the map of the file's first query (%s), "
                    "found %s", q0, qm);
    }
    P->s->n++;
    return 0;
}

/* The version header: "version 1" or "version 1.0", nothing else. */
static int version_line(parser *P, const gb_tok *t, size_t k)
{
    if (k < 2)
        return fail(P, t[0].col + (long)t[0].n,
                    "expected version 1 or 1.0, found 'version' without a number");
    if (!gb_tok_is(&t[1], "1") && !gb_tok_is(&t[1], "1.0")) {
        int printable = t[1].n <= 32;
        for (size_t i = 0; printable && i < t[1].n; i++)
            printable = t[1].s[i] > 0x20 && t[1].s[i] < 0x7f;
        char q[64];
        gb_diag_quote(q, sizeof q, t[1].s, t[1].n);
        if (printable)
            return fail(P, t[1].col, "expected version 1 or 1.0, found version %.*s",
                        (int)t[1].n, t[1].s);
        return fail(P, t[1].col, "expected version 1 or 1.0, found version %s", q);
    }
    if (k > 2) {
        char q[64];
        gb_diag_quote(q, sizeof q, t[2].s, t[2].n);
        return fail(P, t[2].col, "expected end of line after 'version %.*s', found %s",
                    (int)t[1].n, t[1].s, q);
    }
    P->s->version = 1;
    return 0;
}

/* 10^k, exact for |k| <= 22 and correctly rounded for k < 0 down to -22. */
static double pow10i(int k)
{
    double p = 1.0;
    for (int i = 0; i < (k < 0 ? -k : k); i++) p *= 10.0;
    return k < 0 ? 1.0 / p : p;
}

double gb_len_tol_sig(const gb_lenfmt *f, int maxsig)
{
    return (f->sig == 0 ? pow10i(-maxsig) : pow10i(f->exp - maxsig + 1)) * (1 + 1e-9);
}

/* The tolerance rule of gb_scen.h. */
static void set_tolerances(gb_scen *s, const gb_lenfmt *f)
{
    int fixed = 1, maxsig = 0;
    for (size_t i = 0; i < s->n; i++) {
        if (s->q[i].decimals != s->q[0].decimals) fixed = 0;
        if (f[i].sig > maxsig) maxsig = f[i].sig;
    }
    for (size_t i = 0; i < s->n; i++) {
        s->q[i].tol = fixed ? pow10i(-s->q[i].decimals) * (1 + 1e-9)
                            : gb_len_tol_sig(&f[i], maxsig);
    }
}

/* ---- public ----------------------------------------------------------- */

void gb_scen_free(gb_scen *s)
{
    if (!s) return;
    gb_free(s->path);
    gb_free(s->map_field);
    gb_free(s->q);
    memset(s, 0, sizeof *s);
}

int gb_scen_parse(const char *path, const char *buf, size_t len, gb_scen *s,
                  gb_diag *d)
{
    memset(s, 0, sizeof *s);
    /* a UTF-8 byte order mark (some editors add one): say so, not "expected ..." of line 1 */
    if (len >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0)
        return gb_diag_set(d, EX_DATAERR, path, 1, 1, "expected a %s file in plain ASCII, found a "
                           "UTF-8 byte order mark (EF BB BF) before line 1: remove it", "scenario");
    gb_diag_clear(d);
    if (len == 0)
        return gb_diag_set(d, EX_DATAERR, path, 0, 0,
                           "expected 'version 1' or a query, found empty file");
    parser P = { .path = path, .c = { .buf = buf, .len = len }, .d = d, .s = s };
    const char *line;
    size_t n;
    int rc = 0, first = 1;
    while (rc == 0 && gb_next_line(&P.c, &line, &n)) {
        P.line = line;
        P.linelen = n;
        gb_tok t[3];
        size_t k = gb_split(line, n, t, 3);
        if (k == 0) continue;                    /* blank line */
        if (first && gb_tok_is(&t[0], "version"))
            rc = version_line(&P, t, k);
        else
            rc = query_line(&P, line, n);
        first = 0;
    }
    if (rc == 0 && s->n == 0)
        rc = gb_diag_set(d, EX_DATAERR, path, 0, 0,
                         "expected at least one query, found none");
    if (rc == 0 && path && !(s->path = gb_strdup(path)))
        rc = out_of_memory(&P, "the scenario's path");
    if (rc == 0)
        set_tolerances(s, P.fmt);
    gb_free(P.fmt);
    if (rc != 0) gb_scen_free(s);
    return rc;
}

int gb_scen_load(const char *path, gb_scen *s, gb_diag *d)
{
    char *buf;
    size_t len;
    memset(s, 0, sizeof *s);
    int rc = gb_read_file(path, &buf, &len, d);
    if (rc != 0) return rc;
    rc = gb_scen_parse(path, buf, len, s, d);
    gb_free(buf);
    return rc;
}

/* Concatenate a[0..an) and b into a fresh string (NULL if out of memory). */
static char *join(const char *a, size_t an, const char *b)
{
    size_t bn = strlen(b);
    char *r = gb_malloc(an + bn + 1);
    if (!r) return NULL;
    memcpy(r, a, an);
    memcpy(r + an, b, bn + 1);
    return r;
}

static int is_regular_file(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

int gb_scen_resolve_map(const gb_scen *s, char *out, size_t outsz, gb_diag *d)
{
    gb_diag_clear(d);
    const char *sp = s->path ? s->path : "";
    const char *slash = strrchr(sp, '/');
    size_t dirlen = slash ? (size_t)(slash - sp) + 1 : 0;  /* keeps the '/' */
    const char *mf = s->map_field;
    char *cand[3] = { NULL, NULL, NULL };
    int nc = 0, rc = 0;

    if (mf && mf[0]) {
        cand[nc++] = mf[0] == '/' ? join("", 0, mf) : join(sp, dirlen, mf);
        const char *base = strrchr(mf, '/');
        base = base ? base + 1 : mf;
        if (base[0]) cand[nc++] = join(sp, dirlen, base);
    }
    size_t splen = strlen(sp);
    if (splen > 5 && strcmp(sp + splen - 5, ".scen") == 0)
        cand[nc++] = join(sp, splen - 5, "");
    for (int i = 0; i < nc; i++)
        if (!cand[i]) {
            rc = gb_diag_set(d, EX_OSERR, s->path, 0, 0,
                             "expected memory for a map path, found none");
            goto done;
        }
    long line = s->n ? s->q[0].line : 0;
    long col = s->n ? s->q[0].col[GB_SCEN_MAP] : 0;
    for (int i = 0; i < nc; i++) {
        if (!is_regular_file(cand[i])) continue;
        size_t len = strlen(cand[i]);
        if (len >= outsz)
            rc = gb_diag_set(d, EX_SOFTWARE, s->path, line, col,
                             "expected a path buffer of more than %zu bytes, "
                             "found %zu bytes", len, outsz);
        else
            memcpy(out, cand[i], len + 1);
        goto done;
    }
    /* Nothing found: list what was tried, without duplicates. */
    char tried[400];
    size_t k = 0;
    tried[0] = '\0';
    for (int i = 0; i < nc; i++) {
        int dup = 0;
        for (int j = 0; j < i; j++) dup |= strcmp(cand[i], cand[j]) == 0;
        if (dup) continue;
        int w = snprintf(tried + k, sizeof tried - k, "%s'%s'", k ? ", " : "", cand[i]);
        if (w < 0 || (size_t)w >= sizeof tried - k) break;
        k += (size_t)w;
    }
    /* a candidate that exists but is no regular file is named as what it is */
    const char *what = "none";
    for (int i = 0; i < nc && what[0] == 'n'; i++) {
        struct stat st;
        if (stat(cand[i], &st) == 0)
            what = S_ISDIR(st.st_mode) ? "a directory, not a map file"
                 : S_ISFIFO(st.st_mode) ? "a FIFO, not a map file" : "a special file, not a map file";
    }
    rc = gb_diag_set(d, EX_NOINPUT, s->path, line, col,
                     "expected the map file at %s, found %s",
                     nc ? tried : "(no candidate: empty map column and no .scen suffix)", what);
done:
    for (int i = 0; i < nc; i++) gb_free(cand[i]);
    return rc;
}

/* Check one endpoint (what = "start"/"goal") of query q against map m. */
static int check_point(const gb_scen *s, const gb_query *q, const gb_map *m,
                       const char *what, int32_t x, int32_t y, int xcol, gb_diag *d)
{
    const gb_grid *g = &m->grid;
    if (x < 0 || x >= g->width)
        return gb_diag_set(d, EX_DATAERR, s->path, q->line, q->col[xcol],
                           "expected %s x in 0..%ld (map width %ld), found %ld",
                           what, (long)g->width - 1, (long)g->width, (long)x);
    if (y < 0 || y >= g->height)
        return gb_diag_set(d, EX_DATAERR, s->path, q->line, q->col[xcol + 1],
                           "expected %s y in 0..%ld (map height %ld), found %ld",
                           what, (long)g->height - 1, (long)g->height, (long)y);
    if (!g->pass[gb_grid_id(g, x, y)]) {
        char t[16] = "a blocked cell";
        if (m->terrain) {
            char ch = m->terrain[(size_t)y * (size_t)g->width + (size_t)x];
            gb_diag_quote(t, sizeof t, &ch, 1);
        }
        return gb_diag_set(d, EX_DATAERR, s->path, q->line, q->col[xcol],
                           "expected %s (%ld, %ld) on a passable cell, found %s",
                           what, (long)x, (long)y, t);
    }
    return 0;
}

int gb_scen_check_query(const gb_scen *s, size_t i, const gb_map *m, gb_diag *d)
{
    const gb_grid *g = &m->grid;
    gb_diag_clear(d);
    if (i >= s->n)
        return gb_diag_set(d, EX_SOFTWARE, s->path, 0, 0,
                           "expected a query index below %zu, found %zu", s->n, i);
    const gb_query *q = &s->q[i];
    if (q->map_w != g->width)
        return gb_diag_set(d, EX_DATAERR, s->path, q->line, q->col[GB_SCEN_MAP_W],
                           "expected width %ld (from map), found %ld",
                           (long)g->width, (long)q->map_w);
    if (q->map_h != g->height)
        return gb_diag_set(d, EX_DATAERR, s->path, q->line, q->col[GB_SCEN_MAP_H],
                           "expected height %ld (from map), found %ld",
                           (long)g->height, (long)q->map_h);
    int rc = check_point(s, q, m, "start", q->sx, q->sy, GB_SCEN_SX, d);
    if (rc == 0) rc = check_point(s, q, m, "goal", q->gx, q->gy, GB_SCEN_GX, d);
    return rc;
}

int gb_scen_check_map(const gb_scen *s, const gb_map *m, gb_diag *d)
{
    gb_diag_clear(d);
    for (size_t i = 0; i < s->n; i++) {
        int rc = gb_scen_check_query(s, i, m, d);
        if (rc != 0) return rc;
    }
    return 0;
}

/* "%.8f" of v with a '.' radix whatever the locale. */
static void format_length(char *buf, size_t n, double v)
{
    snprintf(buf, n, "%.8f", v);
    const char *radix = localeconv()->decimal_point;
    if (!radix || !radix[0] || (radix[0] == '.' && !radix[1])) return;
    char *p = strstr(buf, radix);
    if (!p) return;
    size_t rl = strlen(radix);
    *p = '.';
    memmove(p + 1, p + rl, strlen(p + rl) + 1);
}

int gb_scen_write(const char *path, const gb_scen *s, gb_diag *d)
{
    const char *mf = s->map_field;
    gb_diag_clear(d);
    if (!mf || !mf[0] || strpbrk(mf, " \t\r\n"))
        return gb_diag_set(d, EX_SOFTWARE, path, 0, 0,
                           "expected a map column without blanks, found %s",
                           mf ? "one with blanks or an empty one" : "none");
    char tmp[4096];
    FILE *f = gb_tmp_open(path, tmp, sizeof tmp, d);
    if (!f) return EX_CANTCREAT;
    fputs("version 1\n", f);
    for (size_t i = 0; i < s->n; i++) {
        const gb_query *q = &s->q[i];
        char len[64];
        format_length(len, sizeof len, q->length);
        fprintf(f, "%ld\t%s\t%ld\t%ld\t%ld\t%ld\t%ld\t%ld\t%s\n",
                (long)q->bucket, mf, (long)q->map_w, (long)q->map_h,
                (long)q->sx, (long)q->sy, (long)q->gx, (long)q->gy, len);
    }
    return gb_tmp_commit(f, tmp, path, d);
}
