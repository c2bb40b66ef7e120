/*
 * gb_dynscen.c -- the dynamic scenario reader, writer and checks.  See
 * gb_dynscen.h for the format and docs/dynamic.md for the grammar.
 *
 * Data structure
 *   Three growing arrays (queries, events, cells; capacity doubles,
 *   overflow-checked), filled in file order while the lines are read
 *   with the shared cursor/tokenizer of gb_text.h.  An event line
 *   appends its cells, then itself, then counts itself in the last
 *   query, so the index ranges of gb_dynscen.h hold at every line.
 *
 * Numbers follow a strict grammar before conversion: [0-9]+, at most 10
 * digits, value <= INT32_MAX; a cell is [0-9]+ ',' [0-9]+.  Every refusal
 * quotes the token with gb_diag_quote.
 *
 * Time complexity: O(file size) to parse and O(n + events + cells) to
 * write or check.
 */
#include "gb_dynscen.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "gb_alloc.h"
#include "gb_scen.h"
#include "gb_text.h"

typedef struct parser {
    const char *path;
    gb_cursor c;
    gb_diag *d;
    const char *line;
    size_t linelen;
    gb_dynscen *s;
    size_t qcap, ecap, ccap;
} parser;

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
    return gb_diag_set(P->d, EX_OSERR, P->path, 0, 0, "expected memory for %s, found none",
                       what);
}

/* Make room for one more element of size sz in *arr (capacity *cap). */
static int grow(parser *P, void **arr, size_t n, size_t *cap, size_t sz, const char *what)
{
    if (n < *cap) return 0;
    size_t ncap = *cap ? *cap * 2 : 64;
    if (ncap < *cap || ncap > SIZE_MAX / sz) return out_of_memory(P, what);
    void *p = gb_realloc(*arr, ncap * sz);
    if (!p) return out_of_memory(P, what);
    *arr = p;
    *cap = ncap;
    return 0;
}

/* Digits only, at most 10 of them, min <= value <= INT32_MAX. */
static int parse_int(parser *P, const char *s, size_t n, long col, const char *what, int32_t min,
                     int32_t *out)
{
    char q[64];
    gb_diag_quote(q, sizeof q, s, n);
    int64_t v = 0;
    int ok = n > 0;
    for (size_t i = 0; ok && i < n; i++) {
        if (s[i] < '0' || s[i] > '9') ok = 0;
        else if ((v = v * 10 + (s[i] - '0')) > INT32_MAX) {
            return fail(P, col, "expected %s at most %ld, found %s", what, (long)INT32_MAX, q);
        }
    }
    if (!ok || v < min)
        return fail(P, col, "expected %s as an integer >= %ld, found %s", what, (long)min, q);
    *out = (int32_t)v;
    return 0;
}

static int header_line(parser *P, const gb_tok *t, size_t k)
{
    char q[64];
    if (k == 0 || !gb_tok_is(&t[0], "gridbench-dynamic")) {
        gb_diag_quote(q, sizeof q, k ? t[0].s : "", k ? t[0].n : 0);
        return fail(P, k ? t[0].col : 1, "expected the header 'gridbench-dynamic 1', found %s", q);
    }
    if (k < 2) return fail(P, (long)P->linelen + 1, "expected a version number, found the end of the line");
    int32_t v;
    if (parse_int(P, t[1].s, t[1].n, t[1].col, "version", 0, &v)) return EX_DATAERR;
    if (v != GB_DYN_VERSION)
        return fail(P, t[1].col, "expected version %d, found %ld", GB_DYN_VERSION, (long)v);
    if (k > 2) {
        gb_diag_quote(q, sizeof q, t[2].s, t[2].n);
        return fail(P, t[2].col, "expected the end of the header line, found %s", q);
    }
    P->s->version = (int)v;
    return 0;
}

static int query_line(parser *P, const gb_tok *t, size_t k)
{
    static const char *const what[7] = { "map", "map width", "map height", "start x",
                                         "start y", "goal x", "goal y" };
    char q[64];
    if (k != 8) {
        long col = k > 8 ? t[8].col : (long)P->linelen + 1;
        if (k > 8) {
            gb_diag_quote(q, sizeof q, t[8].s, t[8].n);
            return fail(P, col, "expected 8 fields (query MAP W H SX SY GX GY), found "
                        "%zu: extra %s", k, q);
        }
        return fail(P, col, "expected %s (query MAP W H SX SY GX GY), found the end of "
                    "the line", what[k - 1]);
    }
    if (memchr(t[1].s, '\0', t[1].n)) {      /* could not be written back */
        gb_diag_quote(q, sizeof q, t[1].s, t[1].n);
        return fail(P, t[1].col, "expected a map file name, found a NUL byte in %s", q);
    }
    gb_dynscen *s = P->s;
    if (!s->map_field) {
        s->map_field = gb_malloc(t[1].n + 1);
        if (!s->map_field) return out_of_memory(P, "the map name");
        memcpy(s->map_field, t[1].s, t[1].n);
        s->map_field[t[1].n] = '\0';
    } else if (strlen(s->map_field) != t[1].n || memcmp(s->map_field, t[1].s, t[1].n) != 0) {
        char q0[64];
        gb_diag_quote(q, sizeof q, t[1].s, t[1].n);
        gb_diag_quote(q0, sizeof q0, s->map_field, strlen(s->map_field));
        return fail(P, t[1].col, "expected the map of the first query %s (line %ld), found %s",
                    q0, s->q[0].line, q);
    }
    int32_t v[6];
    for (int i = 0; i < 6; i++)
        if (parse_int(P, t[2 + i].s, t[2 + i].n, t[2 + i].col, what[1 + i], i < 2 ? 1 : 0, &v[i]))
            return EX_DATAERR;
    for (int i = 2; i < 6; i++) {
        int32_t lim = (i % 2 == 0) ? v[0] : v[1];
        if (v[i] >= lim)
            return fail(P, t[2 + i].col, "expected %s below the map %s %ld, found %ld",
                        what[1 + i], i % 2 == 0 ? "width" : "height", (long)lim, (long)v[i]);
    }
    if (grow(P, (void **)&s->q, s->n, &P->qcap, sizeof *s->q, "the query array"))
        return EX_OSERR;
    gb_dyn_query *dq = &s->q[s->n++];
    memset(dq, 0, sizeof *dq);
    dq->line = P->c.no;
    dq->map_w = v[0];
    dq->map_h = v[1];
    dq->sx = v[2];
    dq->sy = v[3];
    dq->gx = v[4];
    dq->gy = v[5];
    dq->ev0 = s->nev;
    return 0;
}

/* One "X,Y" token inside the query's map. */
static int cell_tok(parser *P, const gb_tok *t, const gb_dyn_query *dq, gb_dyn_cell *out)
{
    char q[64];
    gb_diag_quote(q, sizeof q, t->s, t->n);
    const char *comma = memchr(t->s, ',', t->n);
    if (!comma)
        return fail(P, t->col, "expected a cell X,Y (digits, a comma, digits), found %s", q);
    size_t nx = (size_t)(comma - t->s);
    int32_t x, y;
    if (parse_int(P, t->s, nx, t->col, "cell x", 0, &x)) return EX_DATAERR;
    if (parse_int(P, comma + 1, t->n - nx - 1, t->col + (long)nx + 1, "cell y", 0, &y))
        return EX_DATAERR;
    if (x >= dq->map_w || y >= dq->map_h)
        return fail(P, t->col, "expected a cell inside the %ldx%ld map of line %ld, found %s",
                    (long)dq->map_w, (long)dq->map_h, dq->line, q);
    out->x = x;
    out->y = y;
    return 0;
}

static int event_line(parser *P, const gb_tok *t, size_t k, gb_dyn_trigger trig)
{
    gb_dynscen *s = P->s;
    char q[64];
    if (s->n == 0)
        return fail(P, t[0].col, "expected a query line before the first event, found '%s'",
                    trig == GB_DYN_AT ? "at" : "near");
    gb_dyn_query *dq = &s->q[s->n - 1];
    const char *vn = trig == GB_DYN_AT ? "step" : "radius";
    if (k < 2)
        return fail(P, (long)P->linelen + 1, "expected a %s, found the end of the line", vn);
    int32_t v;
    if (parse_int(P, t[1].s, t[1].n, t[1].col, vn, 1, &v)) return EX_DATAERR;
    if (k < 3)
        return fail(P, (long)P->linelen + 1, "expected block or free, found the end of the line");
    int block;
    if (gb_tok_is(&t[2], "block")) block = 1;
    else if (gb_tok_is(&t[2], "free")) block = 0;
    else {
        gb_diag_quote(q, sizeof q, t[2].s, t[2].n);
        return fail(P, t[2].col, "expected block or free, found %s", q);
    }
    if (k < 4)
        return fail(P, (long)P->linelen + 1, "expected at least one cell X,Y, found the end of "
                    "the line");
    size_t c0 = s->ncell;
    gb_tok tk[1];
    /* walk the tokens again from the 4th: k may exceed what t holds */
    size_t idx = 0;
    const char *ln = P->line;
    size_t i = 0, n = P->linelen;
    for (;;) {
        while (i < n && gb_is_blank(ln[i])) i++;
        if (i >= n) break;
        size_t b = i;
        while (i < n && !gb_is_blank(ln[i])) i++;
        if (idx++ < 3) continue;
        tk[0].s = ln + b;
        tk[0].n = i - b;
        tk[0].col = (long)b + 1;
        gb_dyn_cell c;
        if (cell_tok(P, &tk[0], dq, &c)) return EX_DATAERR;
        if (block && c.x == dq->gx && c.y == dq->gy) {
            gb_diag_quote(q, sizeof q, tk[0].s, tk[0].n);
            return fail(P, tk[0].col, "expected a cell other than the goal %ld,%ld of line %ld "
                        "(the goal is never blocked), found %s", (long)dq->gx, (long)dq->gy,
                        dq->line, q);
        }
        if (grow(P, (void **)&s->cell, s->ncell, &P->ccap, sizeof *s->cell, "the cell array"))
            return EX_OSERR;
        s->cell[s->ncell++] = c;
    }
    if (grow(P, (void **)&s->ev, s->nev, &P->ecap, sizeof *s->ev, "the event array"))
        return EX_OSERR;
    gb_dyn_event *e = &s->ev[s->nev++];
    e->line = P->c.no;
    e->trigger = trig;
    e->value = v;
    e->block = block;
    e->c0 = c0;
    e->nc = s->ncell - c0;
    dq->nev++;
    return 0;
}

int gb_dynscen_parse(const char *path, const char *buf, size_t len, gb_dynscen *s, gb_diag *d)
{
    memset(s, 0, sizeof *s);
    gb_diag_clear(d);
    parser P;
    memset(&P, 0, sizeof P);
    P.path = path ? path : "";
    P.c.buf = buf;
    P.c.len = len;
    P.d = d;
    P.s = s;
    int rc = 0, have_header = 0;
    const char *ln;
    size_t n;
    while (rc == 0 && gb_next_line(&P.c, &ln, &n)) {
        P.line = ln;
        P.linelen = n;
        gb_tok t[9];
        size_t k = gb_split(ln, n, t, 9);
        if (k == 0 || t[0].s[0] == '#') continue;
        if (!have_header) {
            rc = header_line(&P, t, k);
            have_header = 1;
            continue;
        }
        if (gb_tok_is(&t[0], "query")) rc = query_line(&P, t, k);
        else if (gb_tok_is(&t[0], "at")) rc = event_line(&P, t, k, GB_DYN_AT);
        else if (gb_tok_is(&t[0], "near")) rc = event_line(&P, t, k, GB_DYN_NEAR);
        else {
            char q[64];
            gb_diag_quote(q, sizeof q, t[0].s, t[0].n);
            rc = fail(&P, t[0].col, "expected query, at, near or a '#' comment, found %s", q);
        }
    }
    if (rc == 0 && !have_header)
        rc = gb_diag_set(d, EX_DATAERR, P.path, P.c.no ? P.c.no : 1, 0,
                         "expected the header 'gridbench-dynamic 1', found %s",
                         len ? "only blank and comment lines" : "an empty file");
    else if (rc == 0 && s->n == 0)
        rc = gb_diag_set(d, EX_DATAERR, P.path, P.c.no, 0,
                         "expected at least one query line, found none");
    if (rc == 0 && path && !(s->path = gb_strdup(path))) rc = out_of_memory(&P, "the path");
    if (rc) gb_dynscen_free(s);
    return rc;
}

int gb_dynscen_load(const char *path, gb_dynscen *s, gb_diag *d)
{
    memset(s, 0, sizeof *s);
    char *buf;
    size_t len;
    int rc = gb_read_file(path, &buf, &len, d);
    if (rc) return rc;
    rc = gb_dynscen_parse(path, buf, len, s, d);
    gb_free(buf);
    return rc;
}

void gb_dynscen_free(gb_dynscen *s)
{
    gb_free(s->path);
    gb_free(s->map_field);
    gb_free(s->q);
    gb_free(s->ev);
    gb_free(s->cell);
    memset(s, 0, sizeof *s);
}

int gb_dynscen_check_query(const gb_dynscen *s, size_t i, const gb_map *m, gb_diag *d)
{
    gb_diag_clear(d);
    const char *p = s->path ? s->path : "";
    if (i >= s->n)
        return gb_diag_set(d, EX_SOFTWARE, p, 0, 0, "expected a query index below %zu, found %zu",
                           s->n, i);
    const gb_dyn_query *q = &s->q[i];
    const gb_grid *g = &m->grid;
    if (q->map_w != g->width || q->map_h != g->height)
        return gb_diag_set(d, EX_DATAERR, p, q->line, 0,
                           "expected the map size %ldx%ld, found %ldx%ld",
                           (long)g->width, (long)g->height, (long)q->map_w, (long)q->map_h);
    if (!gb_grid_passable_xy(g, q->sx, q->sy))
        return gb_diag_set(d, EX_DATAERR, p, q->line, 0,
                           "expected a passable start, found a blocked cell at %ld,%ld",
                           (long)q->sx, (long)q->sy);
    if (!gb_grid_passable_xy(g, q->gx, q->gy))
        return gb_diag_set(d, EX_DATAERR, p, q->line, 0,
                           "expected a passable goal, found a blocked cell at %ld,%ld",
                           (long)q->gx, (long)q->gy);
    return 0;
}

int gb_dynscen_resolve_map(const gb_dynscen *s, char *out, size_t outsz, gb_diag *d)
{
    gb_scen shim;
    memset(&shim, 0, sizeof shim);
    shim.path = s->path;
    shim.map_field = s->map_field;
    return gb_scen_resolve_map(&shim, out, outsz, d);
}

int gb_dynscen_write(const char *path, const gb_dynscen *s, gb_diag *d)
{
    char tmp[4200];
    FILE *f = gb_tmp_open(path, tmp, sizeof tmp, d);
    if (!f) return d->code;
    fprintf(f, "gridbench-dynamic %d\n", GB_DYN_VERSION);
    for (size_t i = 0; i < s->n; i++) {
        const gb_dyn_query *q = &s->q[i];
        fprintf(f, "query %s %ld %ld %ld %ld %ld %ld\n", s->map_field, (long)q->map_w,
                (long)q->map_h, (long)q->sx, (long)q->sy, (long)q->gx, (long)q->gy);
        for (size_t e = q->ev0; e < q->ev0 + q->nev; e++) {
            const gb_dyn_event *ev = &s->ev[e];
            fprintf(f, "%s %ld %s", ev->trigger == GB_DYN_AT ? "at" : "near", (long)ev->value,
                    ev->block ? "block" : "free");
            for (size_t c = ev->c0; c < ev->c0 + ev->nc; c++)
                fprintf(f, " %ld,%ld", (long)s->cell[c].x, (long)s->cell[c].y);
            fputc('\n', f);
        }
    }
    return gb_tmp_commit(f, tmp, path, d);
}
