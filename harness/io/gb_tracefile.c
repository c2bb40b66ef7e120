/*
 * gb_tracefile.c -- search traces as text: the writer and the checker
 * (the format is docs/trace.md; the contracts gb_tracefile.h).
 *
 * The writer turns a recorded search (gb_trace: padded-grid ids, doubles)
 * into lines, one per event, with map cells (y * W + x) and %.6g numbers:
 * enough to tell the costs of a viewer's cell apart, short enough that a
 * Dijkstra of 100k expansions stays near 25 MB.
 *
 * The checker reads a whole file line by line through a small state
 * machine (HEAD -> MAP -> ROWS -> QUERY -> searches), and keeps, per side,
 * a stamp array of W * H entries: seen[side][cell] == the number of the
 * current search when that side generated the cell in it, so a new search
 * needs no clearing (the same trick as the workspace's stamps).
 */
#include "gb_tracefile.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gb_alloc.h"

/* ---- writer ----------------------------------------------------------- */

void gb_tracefile_head(FILE *f, const char *map_name, const gb_map *m, const gb_query *q)
{
    const gb_grid *g = &m->grid;
    fputs("gridbench-trace 1\nmap ", f);
    for (const char *s = map_name; *s; s++)
        fputc(*s == ' ' || *s == '\t' || *s == '<' || *s == '>' || *s == '&' ? '_' : *s, f);
    fprintf(f, " %d %d\n", g->width, g->height);
    for (int32_t y = 0; y < g->height; y++) {
        fputs("row ", f);
        fwrite(m->terrain + (size_t)y * (size_t)g->width, 1, (size_t)g->width, f);
        fputc('\n', f);
    }
    fprintf(f, "query %d %d %d %d ", q->sx, q->sy, q->gx, q->gy);
    if (q->length >= 0) fprintf(f, "%.*f\n", q->decimals > 0 ? q->decimals : 8, q->length);
    else fputs("-\n", f);
}

/* The map cell of padded id, or -1 for -1. */
static long cell_of(const gb_grid *g, int32_t id)
{
    if (id < 0) return -1;
    return (long)gb_grid_y(g, id) * g->width + gb_grid_x(g, id);
}

void gb_tracefile_search(FILE *f, const gb_grid *g, const char *name, const char *kv, const gb_trace *t,
                         const gb_result *r)
{
    fprintf(f, "search %s %s\n", name, kv);
    for (size_t i = 0; i < t->n; i++) {
        const gb_trace_ev *e = &t->ev[i];
        switch (e->kind) {
        case GB_TR_GEN:
            fprintf(f, "g %d %ld %.6g %.6g %ld\n", e->side, cell_of(g, e->id), e->g, e->h,
                    cell_of(g, e->by));
            break;
        case GB_TR_EXP: fprintf(f, "x %d %ld\n", e->side, cell_of(g, e->id)); break;
        default: fprintf(f, "t %d %ld\n", e->side, cell_of(g, e->id)); break;
        }
    }
    const int found = r->status == GB_FOUND;
    fprintf(f, "path %d", found ? r->path_len : 0);
    for (int32_t i = 0; found && i < r->path_len; i++) fprintf(f, " %ld", cell_of(g, r->path[i]));
    static const char *const status[] = { "found", "unreachable", "limit" };
    fprintf(f, "\nend status=%s", status[r->status]);
    if (found) fprintf(f, " cost=%.8f", r->cost);
    fprintf(f, " expanded=%llu generated=%llu\n", (unsigned long long)r->st.expanded,
            (unsigned long long)r->st.generated);
}

/* ---- checker ---------------------------------------------------------- */

enum { MAX_FIELDS = 8, MAX_SIDE_CELLS = 1 << 26 };

typedef struct checker {
    const char *path;
    long line;
    gb_diag *d;
    long w, h;
    char *terrain; /* w * h */
    long nrows;
    uint32_t *seen[2]; /* seen[side][cell] == search number: generated in this search */
    int search;        /* the current search's number (1, 2, ...), 0 before the first */
    int in_search;     /* 1 between "search" and "end" */
    int have_query;    /* 1 once the query line was read */
    long xs;           /* x lines of the current search */
    gb_tracefile_info *info;
} checker;

/* path:line: expected (what), found (the line, cut at 60 bytes). */
static int bad(checker *c, const char *what, const char *found)
{
    return gb_diag_set(c->d, EX_DATAERR, c->path, c->line, 0, "%s, found '%.60s'", what, found);
}

/* Split s (NUL-terminated, modified) at blanks into at most max fields;
 * the count, or max + 1 when there are more. */
static int split(char *s, char **fv, int max)
{
    int n = 0;
    for (char *p = s; *p;) {
        while (*p == ' ' || *p == '\t') *p++ = '\0';
        if (!*p) break;
        if (n == max) return max + 1;
        fv[n++] = p;
        while (*p && *p != ' ' && *p != '\t') p++;
    }
    return n;
}

static int to_long(const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi) return -1;
    *out = v;
    return 0;
}

static int to_num(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !isfinite(v)) return -1;
    *out = v;
    return 0;
}

static int passable(const checker *c, long cell)
{
    char t = c->terrain[cell];
    return t != '@' && t != 'O' && t != 'T';
}

static int ck_map(checker *c, char **fv, int n, const char *orig)
{
    if (n != 4 || strcmp(fv[0], "map") != 0 || to_long(fv[2], 1, 1 << 16, &c->w) != 0
        || to_long(fv[3], 1, 1 << 16, &c->h) != 0 || c->w * c->h > MAX_SIDE_CELLS)
        return bad(c, "expected 'map NAME WIDTH HEIGHT' (sizes 1..65536, at most 2^26 cells)", orig);
    c->terrain = gb_malloc((size_t)(c->w * c->h));
    c->seen[0] = gb_calloc((size_t)(c->w * c->h), sizeof *c->seen[0]);
    c->seen[1] = gb_calloc((size_t)(c->w * c->h), sizeof *c->seen[1]);
    if (!c->terrain || !c->seen[0] || !c->seen[1])
        return gb_diag_set(c->d, EX_OSERR, c->path, c->line, 0,
                           "expected memory for a %ldx%ld map, found none", c->w, c->h);
    c->info->width = c->w;
    c->info->height = c->h;
    return 0;
}

static int ck_row(checker *c, const char *s)
{
    if (strncmp(s, "row ", 4) != 0 || (long)strlen(s + 4) != c->w) {
        char e[96];
        snprintf(e, sizeof e, "expected 'row' and %ld map characters (row %ld of %ld)", c->w,
                 c->nrows + 1, c->h);
        return bad(c, e, s);
    }
    memcpy(c->terrain + c->nrows * c->w, s + 4, (size_t)c->w);
    c->nrows++;
    return 0;
}

/* A cell field of an event: in range and passable. */
static int ck_cell(checker *c, const char *s, long *cell, const char *orig)
{
    if (to_long(s, 0, c->w * c->h - 1, cell) != 0) {
        char e[96];
        snprintf(e, sizeof e, "expected a cell in 0..%ld (y * %ld + x)", c->w * c->h - 1, c->w);
        return bad(c, e, orig);
    }
    if (!passable(c, *cell)) return bad(c, "expected a passable cell (not @, O or T)", orig);
    return 0;
}

static int ck_event(checker *c, char **fv, int n, const char *orig)
{
    const char k = fv[0][0];
    long side, cell, by;
    double g, h;
    if ((k == 'g' && n != 6) || (k != 'g' && n != 3) || to_long(fv[1], 0, 1, &side) != 0)
        return bad(c,
                   k == 'g' ? "expected 'g SIDE CELL G H BY' (SIDE 0 or 1)"
                            : "expected 'x|t SIDE CELL' (SIDE 0 or 1)",
                   orig);
    int rc = ck_cell(c, fv[2], &cell, orig);
    if (rc) return rc;
    c->info->events++;
    if (k == 'g') {
        if (to_num(fv[3], &g) != 0 || to_num(fv[4], &h) != 0 || g < 0)
            return bad(c, "expected finite numbers G >= 0 and H", orig);
        if (to_long(fv[5], -1, c->w * c->h - 1, &by) != 0)
            return bad(c, "expected BY, a cell or -1", orig);
        c->seen[side][cell] = (uint32_t)c->search;
        return 0;
    }
    if (c->seen[side][cell] != (uint32_t)c->search)
        return bad(c, "expected a cell generated before on this side (a 'g' line)", orig);
    if (k == 'x') c->xs++;
    return 0;
}

static int ck_end(checker *c, char **fv, int n, const char *orig)
{
    for (int i = 1; i < n; i++) {
        long v;
        if (strncmp(fv[i], "expanded=", 9) == 0) {
            if (to_long(fv[i] + 9, 0, LONG_MAX, &v) != 0) return bad(c, "expected expanded=N", orig);
            if (v != c->xs) {
                char e[128];
                snprintf(e, sizeof e, "expected expanded=%ld, the number of this search's x lines",
                         c->xs);
                return bad(c, e, orig);
            }
        }
    }
    c->in_search = 0;
    return 0;
}

/* One line of a search section, or a new search. */
static int ck_body(checker *c, char *s, const char *orig)
{
    char *fv[MAX_FIELDS];
    if (strncmp(s, "path ", 5) == 0 || strcmp(s, "path") == 0) {
        if (!c->in_search) return bad(c, "expected 'search NAME' before a path", orig);
        /* a path has as many fields as cells: count, then check each */
        char *p = s + 4;
        long np = -1, k = 0, cell;
        char *tok = strtok(p, " \t");
        if (!tok || to_long(tok, 0, c->w * c->h, &np) != 0)
            return bad(c, "expected 'path N CELL...'", orig);
        while ((tok = strtok(NULL, " \t")) != NULL) {
            int rc = ck_cell(c, tok, &cell, orig);
            if (rc) return rc;
            k++;
        }
        if (k != np) {
            char e[96];
            snprintf(e, sizeof e, "expected %ld cells after 'path %ld'", np, np);
            return bad(c, e, orig);
        }
        return 0;
    }
    int n = split(s, fv, MAX_FIELDS);
    if (n < 1) return 0;
    if (strcmp(fv[0], "search") == 0) {
        if (c->in_search) return bad(c, "expected 'end' before the next search", orig);
        if (n < 2) return bad(c, "expected 'search NAME [KEY=VALUE...]'", orig);
        c->in_search = 1;
        c->xs = 0;
        c->search++;
        c->info->searches++;
        return 0;
    }
    if (!c->in_search) return bad(c, "expected 'search NAME [KEY=VALUE...]'", orig);
    if (n > MAX_FIELDS) return bad(c, "expected an event line (g, x or t), a path or 'end'", orig);
    if (strcmp(fv[0], "end") == 0) return ck_end(c, fv, n, orig);
    if (strlen(fv[0]) == 1 && (fv[0][0] == 'g' || fv[0][0] == 'x' || fv[0][0] == 't'))
        return ck_event(c, fv, n, orig);
    return bad(c, "expected an event line (g, x or t), a path or 'end'", orig);
}

static int ck_line(checker *c, char *s, const char *orig)
{
    char *fv[MAX_FIELDS];
    if (strstr(s, "</"))
        return bad(c, "expected no '</' anywhere (the page embeds the trace in a script)", orig);
    if (c->line == 1)
        return strcmp(s, "gridbench-trace 1") == 0 ? 0 : bad(c, "expected 'gridbench-trace 1'", orig);
    if ((s[0] == '#' || s[0] == '\0') && !(c->w && c->nrows < c->h)) return 0;
    if (!c->w) return ck_map(c, fv, split(s, fv, MAX_FIELDS), orig);
    if (c->nrows < c->h) return ck_row(c, s);
    if (!c->have_query && strncmp(s, "query", 5) == 0) {
        long v[4];
        double opt;
        int n = split(s, fv, MAX_FIELDS);
        if (n != 6 || to_long(fv[1], 0, c->w - 1, &v[0]) || to_long(fv[2], 0, c->h - 1, &v[1])
            || to_long(fv[3], 0, c->w - 1, &v[2]) || to_long(fv[4], 0, c->h - 1, &v[3])
            || (strcmp(fv[5], "-") != 0 && to_num(fv[5], &opt) != 0))
            return bad(c, "expected 'query SX SY GX GY OPTIMUM' inside the map (OPTIMUM a number or -)",
                       orig);
        c->have_query = 1;
        return 0;
    }
    if (!c->have_query) return bad(c, "expected 'query SX SY GX GY OPTIMUM'", orig);
    return ck_body(c, s, orig);
}

int gb_tracefile_check(const char *path, const char *text, size_t len, gb_tracefile_info *info,
                       gb_diag *d)
{
    memset(info, 0, sizeof *info);
    checker c;
    memset(&c, 0, sizeof c);
    c.path = path;
    c.d = d;
    c.info = info;
    int rc = 0;
    size_t cap = 256;
    char *buf = gb_malloc(cap), *orig = gb_malloc(cap);
    if (!buf || !orig)
        rc = gb_diag_set(d, EX_OSERR, path, 0, 0, "expected memory to read a trace, found none");
    for (size_t i = 0; !rc && i < len;) {
        size_t k = i;
        while (k < len && text[k] != '\n') k++;
        size_t n = k - i;
        if (n && text[k - 1] == '\r') n--;
        if (n + 1 > cap) {
            cap = 2 * (n + 1);
            gb_free(buf);
            gb_free(orig);
            buf = gb_malloc(cap);
            orig = gb_malloc(cap);
            if (!buf || !orig) {
                rc = gb_diag_set(d, EX_OSERR, path, 0, 0, "expected memory to read a trace, found none");
                break;
            }
        }
        memcpy(buf, text + i, n);
        buf[n] = '\0';
        memcpy(orig, buf, n + 1);
        c.line++;
        rc = ck_line(&c, buf, orig);
        i = k + 1;
    }
    if (!rc) {
        const char *want = c.line == 0     ? "expected 'gridbench-trace 1'"
                           : !c.w          ? "expected 'map NAME WIDTH HEIGHT'"
                           : c.nrows < c.h ? "expected the rest of the map's rows"
                           : !c.have_query ? "expected 'query SX SY GX GY OPTIMUM'"
                           : !c.search     ? "expected at least one search"
                           : c.in_search   ? "expected 'end' to close the last search"
                                           : NULL;
        if (want)
            rc = gb_diag_set(d, EX_DATAERR, path, c.line, 0, "%s, found the end of the file", want);
    }
    gb_free(buf);
    gb_free(orig);
    gb_free(c.terrain);
    gb_free(c.seen[0]);
    gb_free(c.seen[1]);
    return rc;
}
