/*
 * gb_map.c -- Moving AI .map reader and writer.  See gb_map.h for the
 * format and the invariants of a loaded map.
 *
 * Parsing works on an in-memory buffer with a line gb_cursor (LF or CRLF,
 * final newline optional) and runs in two passes:
 *   1. read the header, check the dimensions (each <= INT32_MAX - 2 and
 *      (W + 2) * (H + 2) <= GB_GRID_MAX_CELLS, in 64-bit arithmetic that
 *      cannot overflow), then check every row's terrain and length, the
 *      row count and the tail -- without allocating anything;
 *   2. allocate the grid and the terrain copy (their size is now known to
 *      be justified by the bytes actually present) and fill them.
 * Every error is EX_DATAERR with the line, the column and an "expected
 * X, found Y" message; the first error wins.  Errors in the rows carry the
 * source line and quote the offending bytes.  Errors in the header quote
 * nothing from the file (Y names a kind -- "other text", "a number too
 * large" -- plus the byte offset): a map named in a scenario may be any
 * file, /etc/shadow when run as root, and a file that fails the header
 * is not known to be a map.
 *
 * Terrain rules live in one table, terrain_class[].
 *
 * Time complexity: O(file size) for parsing, O(W * H) for writing.
 */
#include "gb_map.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "gb_alloc.h"
#include "gb_text.h"

/* ---- terrain ---------------------------------------------------------- */

enum { T_BAD = 0, T_PASS = 1, T_BLOCK = 2 };

static const unsigned char terrain_class[256] = {
    ['.'] = T_PASS,  ['G'] = T_PASS,  ['S'] = T_PASS,
    ['@'] = T_BLOCK, ['O'] = T_BLOCK, ['T'] = T_BLOCK, ['W'] = T_BLOCK,
};
#define TERRAIN_LIST ". G S @ O T W"

/* ---- lines and tokens ------------------------------------------------- */

/* Line gb_cursor over buf[0..len): no = number of lines returned so far. */
/* ---- parser state and errors ------------------------------------------ */

typedef struct parser {
    const char *path;
    gb_cursor c;
    gb_diag *d;
    const char *line;   /* current line, for diagnostics */
    size_t linelen;
} parser;

/* Fill the diagnostic (EX_DATAERR) at line:col; with_text attaches the
 * current line.  Returns EX_DATAERR. */
static int fail_at(parser *P, long line, long col, int with_text, const char *fmt, ...)
    GB_PRINTF_LIKE(5, 6);
static int fail_at(parser *P, long line, long col, int with_text, const char *fmt, ...)
{
    char msg[sizeof P->d->msg];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    gb_diag_set(P->d, EX_DATAERR, P->path, line, col, "%s", msg);
    if (with_text) gb_diag_set_text(P->d, P->line, P->linelen);
    return EX_DATAERR;
}

/* Quote the current line without its surrounding blanks. */
static void quote_trimmed(char *q, size_t qsz, const char *s, size_t n)
{
    while (n > 0 && gb_is_blank(*s)) { s++; n--; }
    while (n > 0 && gb_is_blank(s[n - 1])) n--;
    gb_diag_quote(q, qsz, s, n);
}

/* A header error at column col of the current line: no source text, and
 * "found <what>" followed by the byte offset of that column in the file
 * (and tail, our own words). */
static int fail_header(parser *P, long col, const char *expected, const char *what, const char *tail)
{
    size_t off = (size_t)(P->line - P->c.buf) + (size_t)(col > 0 ? col - 1 : 0);
    return fail_at(P, P->c.no, col, 0, "expected %s, found %s at byte offset %zu%s", expected, what,
                   off, tail);
}

/* ---- header ----------------------------------------------------------- */

enum { H_TYPE, H_HEIGHT, H_WIDTH, H_MAP, H_COUNT };
static const char *const hdr_kw[H_COUNT] = { "type", "height", "width", "map" };
static const char *const hdr_desc[H_COUNT] = {
    "type octile", "height <rows>", "width <columns>", "map"
};

/* Read header line `which`; for type/height/width store its value token.
 * Nothing of the line is quoted in an error (see the file head). */
static int header_line(parser *P, int which, gb_tok *val)
{
    const char *s;
    size_t n;
    char e[64];
    if (!gb_next_line(&P->c, &s, &n))
        return fail_at(P, P->c.no + 1, 0, 0, "expected '%s', found end of file",
                       hdr_desc[which]);
    P->line = s;
    P->linelen = n;
    snprintf(e, sizeof e, "'%s'", hdr_desc[which]);
    gb_tok t[3];
    size_t k = gb_split(s, n, t, 3);
    if (k == 0)
        return fail_header(P, 1, e, "an empty line", "");
    if (!gb_tok_is(&t[0], hdr_kw[which])) {
        for (int j = 0; j < H_COUNT; j++)
            if (gb_tok_is(&t[0], hdr_kw[j])) {
                char w[16];   /* our own keyword, not the file's bytes */
                snprintf(w, sizeof w, "'%s'", hdr_kw[j]);
                return fail_header(P, t[0].col, e, w, " (header order is type, height, width, map)");
            }
        return fail_header(P, t[0].col, e, "other text", "");
    }
    if (which == H_MAP) {
        if (k > 1) return fail_header(P, t[1].col, "end of line after 'map'", "more text", "");
        return 0;
    }
    if (k < 2)
        return fail_header(P, t[0].col + (long)t[0].n, e, "no value", "");
    if (k > 2) {
        snprintf(e, sizeof e, "end of line after the %s value", hdr_kw[which]);
        return fail_header(P, t[2].col, e, "more text", "");
    }
    if (which == H_TYPE && !gb_tok_is(&t[1], "octile"))
        return fail_header(P, t[1].col, e, "another type", "");
    *val = t[1];
    return 0;
}

/* Largest single dimension: the padded size W + 2 must fit int32_t. */
#define DIM_MAX ((long long)INT32_MAX - 2)

/* Parse a dimension token: decimal digits only, 1 <= value <= DIM_MAX. */
static int parse_dim(parser *P, const gb_tok *t, const char *what, int32_t *out)
{
    char e[64];
    snprintf(e, sizeof e, "%s as a positive integer", what);
    for (size_t i = 0; i < t->n; i++)
        if (t->s[i] < '0' || t->s[i] > '9')
            return fail_header(P, t->col, e, "other text", "");
    char num[24];
    long long v = DIM_MAX + 1;        /* more than 20 digits: out of range */
    if (t->n < sizeof num) {
        memcpy(num, t->s, t->n);
        num[t->n] = '\0';
        char *end;
        errno = 0;
        v = strtoll(num, &end, 10);
        if (errno == ERANGE || *end != '\0') v = DIM_MAX + 1;
    }
    if (v > DIM_MAX) {
        snprintf(e, sizeof e, "%s at most %lld", what, DIM_MAX);
        return fail_header(P, t->col, e, "a larger number", "");
    }
    if (v <= 0)
        return fail_header(P, t->col, e, "zero", "");
    *out = (int32_t)v;
    return 0;
}

/* ---- rows ------------------------------------------------------------- */

/* Pass 1: check H rows of W terrain characters, then only blank lines. */
static int check_rows(parser *P, int32_t W, int32_t H)
{
    const char *s;
    size_t n;
    char q[80];
    for (int32_t r = 0; r < H; r++) {
        if (!gb_next_line(&P->c, &s, &n))
            return fail_at(P, P->c.no + 1, 0, 0, "expected %ld rows, found %ld",
                           (long)H, (long)r);
        P->line = s;
        P->linelen = n;
        size_t lim = n < (size_t)W ? n : (size_t)W;
        for (size_t i = 0; i < lim; i++) {
            if (terrain_class[(unsigned char)s[i]] == T_BAD) {
                gb_diag_quote(q, sizeof q, s + i, 1);
                return fail_at(P, P->c.no, (long)i + 1, 1,
                               "expected a terrain character (" TERRAIN_LIST
                               "), found %s", q);
            }
        }
        if (n != (size_t)W)
            return fail_at(P, P->c.no, n < (size_t)W ? (long)n + 1 : (long)W + 1, 1,
                           "expected %ld cells in map row %ld, found %zu",
                           (long)W, (long)r + 1, n);
    }
    while (gb_next_line(&P->c, &s, &n)) {
        size_t j = 0;
        while (j < n && gb_is_blank(s[j])) j++;
        if (j < n) {
            P->line = s;
            P->linelen = n;
            quote_trimmed(q, sizeof q, s + j, n - j);
            return fail_at(P, P->c.no, (long)j + 1, 1,
                           "expected end of file after %ld rows, found %s",
                           (long)H, q);
        }
    }
    return 0;
}

/* Pass 2: allocate and fill m from the rows starting at gb_cursor c. */
static int fill(parser *P, gb_cursor c, int32_t W, int32_t H, gb_map *m)
{
    if (gb_grid_init(&m->grid, W, H) != 0)
        return gb_diag_set(P->d, EX_OSERR, P->path, 0, 0,
                           "expected memory for %lld grid cells, found none",
                           ((long long)W + 2) * ((long long)H + 2));
    m->terrain = gb_malloc((size_t)W * (size_t)H);
    if (!m->terrain)
        return gb_diag_set(P->d, EX_OSERR, P->path, 0, 0,
                           "expected memory for %lld terrain cells, found none",
                           (long long)W * H);
    int32_t npass = 0;
    for (int32_t y = 0; y < H; y++) {
        const char *s = NULL;
        size_t n = 0;
        gb_next_line(&c, &s, &n);          /* pass 1 proved the row is there */
        memcpy(m->terrain + (size_t)y * (size_t)W, s, (size_t)W);
        uint8_t *row = m->grid.pass + gb_grid_id(&m->grid, 0, y);
        for (int32_t x = 0; x < W; x++) {
            uint8_t p = terrain_class[(unsigned char)s[x]] == T_PASS;
            row[x] = p;
            npass += p;
        }
    }
    m->grid.npassable = npass;
    return 0;
}

/* The header of buf[0..len): dimensions, validated.  0 or the error. */
static int parse_header(parser *P, int32_t *W, int32_t *H)
{
    gb_tok tv, hv, wv;
    int rc;
    if (P->c.len == 0)
        return gb_diag_set(P->d, EX_DATAERR, P->path, 0, 0,
                           "expected 'type octile', found empty file");
    if ((rc = header_line(P, H_TYPE, &tv)) != 0) return rc;
    if ((rc = header_line(P, H_HEIGHT, &hv)) != 0) return rc;
    if ((rc = parse_dim(P, &hv, "height", H)) != 0) return rc;
    if ((rc = header_line(P, H_WIDTH, &wv)) != 0) return rc;
    if ((rc = parse_dim(P, &wv, "width", W)) != 0) return rc;
    long long cells = ((long long)*W + 2) * ((long long)*H + 2);   /* < 2^63 */
    if (cells > GB_GRID_MAX_CELLS)
        return fail_at(P, P->c.no, wv.col, 0,
                       "expected (width + 2) * (height + 2) at most %lld cells, "
                       "found (%ld + 2) * (%ld + 2) = %lld",
                       (long long)GB_GRID_MAX_CELLS, (long)*W, (long)*H, cells);
    return 0;
}

/* ---- public ----------------------------------------------------------- */

void gb_map_free(gb_map *m)
{
    if (!m) return;
    gb_free(m->path);
    gb_free(m->terrain);
    gb_grid_free(&m->grid);
    memset(m, 0, sizeof *m);
}

int gb_map_parse(const char *path, const char *buf, size_t len, gb_map *m,
                 gb_diag *d)
{
    memset(m, 0, sizeof *m);
    /* a UTF-8 byte order mark (some editors add one): say so, not "expected ..." of line 1 */
    if (len >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0)
        return gb_diag_set(d, EX_DATAERR, path, 1, 1, "expected a %s file in plain ASCII, found a "
                           "UTF-8 byte order mark (EF BB BF) before line 1: remove it", "map");
    gb_diag_clear(d);
    parser P = { .path = path, .c = { .buf = buf, .len = len }, .d = d };
    int32_t W = 0, H = 0;
    int rc;
    if ((rc = parse_header(&P, &W, &H)) != 0) return rc;
    if ((rc = header_line(&P, H_MAP, NULL)) != 0) return rc;
    gb_cursor rows = P.c;
    if ((rc = check_rows(&P, W, H)) != 0) return rc;
    if ((rc = fill(&P, rows, W, H, m)) != 0) { gb_map_free(m); return rc; }
    if (path && !(m->path = gb_strdup(path))) {
        gb_map_free(m);
        return gb_diag_set(d, EX_OSERR, path, 0, 0,
                           "expected memory for the map's path, found none");
    }
    return 0;
}

int gb_map_peek(const char *path, int32_t *width, int32_t *height, long long *file_bytes,
                gb_diag *d)
{
    gb_diag_clear(d);
    FILE *f = gb_open_regular(path, file_bytes, d);
    if (!f) return d->code;
    char buf[4096];
    size_t len = fread(buf, 1, sizeof buf, f);
    int err = ferror(f);
    fclose(f);
    if (err)
        return gb_diag_set(d, EX_IOERR, path, 0, 0, "expected to read the header, found a read error");
    /* a header cut by the 4 KiB window fails here as it would in full */
    parser P = { .path = path, .c = { .buf = buf, .len = len }, .d = d };
    return parse_header(&P, width, height);
}

/* Bytes this process can still allocate: MemAvailable (/proc/meminfo, or
 * the free pages), less when RLIMIT_AS or RLIMIT_DATA leave less room
 * above the current size. */
static uint64_t mem_available(void)
{
    uint64_t avail = UINT64_MAX;
    FILE *f = fopen("/proc/meminfo", "r");
    if (f) {
        char line[256];
        unsigned long long kb;
        while (fgets(line, sizeof line, f))
            if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1) avail = (uint64_t)kb * 1024;
        fclose(f);
    }
    long pg = sysconf(_SC_PAGESIZE);
    if (avail == UINT64_MAX) {
        long n = sysconf(_SC_AVPHYS_PAGES);
        if (n > 0 && pg > 0) avail = (uint64_t)n * (uint64_t)pg;
    }
    unsigned long long vsize = 0;
    if ((f = fopen("/proc/self/statm", "r"))) {
        if (fscanf(f, "%llu", &vsize) != 1) vsize = 0;
        fclose(f);
    }
    uint64_t used = pg > 0 ? (uint64_t)vsize * (uint64_t)pg : 0;
    const int res[2] = { RLIMIT_AS, RLIMIT_DATA };
    for (int i = 0; i < 2; i++) {
        struct rlimit rl;
        if (getrlimit(res[i], &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
            uint64_t room = (uint64_t)rl.rlim_cur > used ? (uint64_t)rl.rlim_cur - used : 0;
            if (room < avail) avail = room;
        }
    }
    return avail;
}

/* "12.3 MiB" / "4.5 GiB" */
static const char *human_bytes(uint64_t n, char *out, size_t sz)
{
    if (n >= ((uint64_t)1 << 30)) snprintf(out, sz, "%.1f GiB", (double)n / 1073741824.0);
    else snprintf(out, sz, "%.1f MiB", (double)n / 1048576.0);
    return out;
}

int gb_map_load_fit(const char *path, gb_map *m, uint64_t extra_bytes, gb_diag *d)
{
    memset(m, 0, sizeof *m);
    int32_t W, H;
    long long fbytes = 0;
    int rc = gb_map_peek(path, &W, &H, &fbytes, d);
    if (rc != 0) return rc;
    uint64_t cells = ((uint64_t)W + 2) * ((uint64_t)H + 2);
    uint64_t need = (uint64_t)(fbytes > 0 ? fbytes : 0) + cells * sizeof *m->grid.pass
                    + (uint64_t)W * (uint64_t)H;
    need = need > UINT64_MAX - extra_bytes ? UINT64_MAX : need + extra_bytes;
    uint64_t avail = mem_available();
    if (need > avail) {
        char a[32], b[32];
        return gb_diag_set(d, EX_OSERR, path, 3, 0,
                           "expected a map that fits in memory: %ldx%ld cells need about %s "
                           "(file, grid%s), found %s available", (long)W, (long)H,
                           human_bytes(need, a, sizeof a), extra_bytes ? " and search state" : "",
                           human_bytes(avail, b, sizeof b));
    }
    char *buf;
    size_t len;
    rc = gb_read_file(path, &buf, &len, d);
    if (rc != 0) return rc;
    rc = gb_map_parse(path, buf, len, m, d);
    gb_free(buf);
    if (rc == 0) m->fit_bytes = need;
    return rc;
}

int gb_map_load(const char *path, gb_map *m, gb_diag *d)
{
    return gb_map_load_fit(path, m, 0, d);
}

int gb_map_write(const char *path, const gb_map *m, gb_diag *d)
{
    const gb_grid *g = &m->grid;
    gb_diag_clear(d);
    if (!g->pass || g->width <= 0 || g->height <= 0)
        return gb_diag_set(d, EX_SOFTWARE, path, 0, 0,
                           "expected a loaded map to write, found an empty one");
    char tmp[4096];
    FILE *f = gb_tmp_open(path, tmp, sizeof tmp, d);
    if (!f) return EX_CANTCREAT;
    fprintf(f, "type octile\nheight %ld\nwidth %ld\nmap\n",
            (long)g->height, (long)g->width);
    char *row = gb_malloc((size_t)g->width + 1);
    if (!row) {
        fclose(f);
        remove(tmp);
        return gb_diag_set(d, EX_OSERR, path, 0, 0,
                           "expected memory for a row of %ld cells, found none",
                           (long)g->width);
    }
    for (int32_t y = 0; y < g->height; y++) {
        if (m->terrain) {
            memcpy(row, m->terrain + (size_t)y * (size_t)g->width, (size_t)g->width);
        } else {
            for (int32_t x = 0; x < g->width; x++)
                row[x] = g->pass[gb_grid_id(g, x, y)] ? '.' : '@';
        }
        row[g->width] = '\n';
        if (fwrite(row, 1, (size_t)g->width + 1, f) != (size_t)g->width + 1) break;
    }
    gb_free(row);
    return gb_tmp_commit(f, tmp, path, d);
}
