/*
 * gb_gppcdyn.c -- reader of GPPC's dynamic scenarios and their patch
 * files (gb_gppcdyn.h has the format and the invariants).
 *
 * Both files are read line by line (gb_text.h's cursor and tokenizer):
 * one header item or one command per line, blank lines skipped.  The
 * startkit reads them as streams of blank-or-newline separated words;
 * every file it ships is laid out one item per line, which is what this
 * reader requires, in exchange for exact line and column diagnostics.
 *
 * Numbers follow a strict grammar before conversion (digits only for
 * integers, gb_len_parse for lengths, "-1" for "no path"), so signs,
 * exponents and trailing garbage are refused with the token quoted.
 *
 * Memory: the command, patch and cell arrays grow geometrically with
 * what was read (each cell is one input byte), so a header that
 * announces 10^8 patches or an 8000 x 8000 patch costs nothing until
 * the bytes are there.  Time complexity: O(size of both files).
 */
#include "gb_gppcdyn.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gb_alloc.h"
#include "gb_scen.h"
#include "gb_text.h"

/* Most patches a file may announce (the startkit's GPPC_PATCH_LIMIT). */
#define MAX_PATCHES 100000000L
/* Tokens kept per line: Q's six fields and up to GB_GPPCDYN_MAX_COSTS lengths. */
#define MAX_TOK (6 + GB_GPPCDYN_MAX_COSTS + 1)

typedef struct parser {
    const char *path;
    gb_cursor c;
    gb_diag *d;
    const char *line;   /* current line, for diagnostics */
    size_t linelen;
    gb_tok t[MAX_TOK];  /* its tokens (the first MAX_TOK) */
    size_t nt;          /* how many it has in all */
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
    if (P->line) gb_diag_set_text(P->d, P->line, P->linelen);
    return EX_DATAERR;
}

static int out_of_memory(gb_diag *d, const char *path, const char *what)
{
    return gb_diag_set(d, EX_OSERR, path, 0, 0, "expected memory for %s, found none", what);
}

/* The next line with a token; 0 at the end of the input (line cleared). */
static int next_item(parser *P)
{
    const char *s;
    size_t n;
    while (gb_next_line(&P->c, &s, &n)) {
        P->nt = gb_split(s, n, P->t, MAX_TOK);
        if (P->nt == 0) continue;
        P->line = s;
        P->linelen = n;
        return 1;
    }
    P->line = NULL;
    P->linelen = 0;
    P->nt = 0;
    return 0;
}

/* A parser over buf[0..len) named path, diagnostics to d (cleared). */
static void parser_init(parser *P, const char *path, const char *buf, size_t len, gb_diag *d)
{
    memset(P, 0, sizeof *P);
    gb_diag_clear(d);
    P->path = path;
    P->c.buf = buf;
    P->c.len = len;
    P->d = d;
}

static void quote(char *q, size_t n, const gb_tok *t) { gb_diag_quote(q, n, t->s, t->n); }

/* Integer token: digits only, lo <= value <= hi. */
static int parse_int(parser *P, const gb_tok *t, const char *what, long lo, long hi, int32_t *out)
{
    char q[64];
    quote(q, sizeof q, t);
    long v = 0;
    int ok = t->n > 0;
    for (size_t i = 0; ok && i < t->n; i++) {
        ok = t->s[i] >= '0' && t->s[i] <= '9';
        if (ok && v <= hi) v = v * 10 + (t->s[i] - '0');
    }
    if (!ok || v < lo || v > hi)
        return fail(P, t->col, "expected %s as an integer in %ld..%ld, found %s", what, lo, hi, q);
    *out = (int32_t)v;
    return 0;
}

/* A line "KEYWORD VALUE" with VALUE in lo..hi. */
static int keyword_int(parser *P, const char *kw, long lo, long hi, int32_t *out)
{
    char q[64];
    if (!next_item(P))
        return fail(P, 0, "expected '%s N', found the end of the file", kw);
    if (!gb_tok_is(&P->t[0], kw)) {
        quote(q, sizeof q, &P->t[0]);
        return fail(P, P->t[0].col, "expected '%s', found %s", kw, q);
    }
    if (P->nt < 2)
        return fail(P, (long)P->linelen + 1, "expected a number after '%s', found the end of "
                    "the line", kw);
    if (P->nt > 2) {
        quote(q, sizeof q, &P->t[2]);
        return fail(P, P->t[2].col, "expected the end of the line after '%s N', found %s", kw, q);
    }
    return parse_int(P, &P->t[1], kw, lo, hi, out);
}

/* A line that is exactly the given words (1 or 2). */
static int keyword_line(parser *P, const char *w1, const char *w2)
{
    char q[64];
    const char *want = w2 ? "two words" : "one word";
    if (!next_item(P))
        return fail(P, 0, "expected '%s%s%s', found the end of the file", w1, w2 ? " " : "",
                    w2 ? w2 : "");
    size_t need = w2 ? 2 : 1;
    for (size_t i = 0; i < need && i < P->nt; i++)
        if (!gb_tok_is(&P->t[i], i ? w2 : w1)) {
            quote(q, sizeof q, &P->t[i]);
            return fail(P, P->t[i].col, "expected '%s', found %s", i ? w2 : w1, q);
        }
    if (P->nt < need)
        return fail(P, (long)P->linelen + 1, "expected '%s' after '%s', found the end of the "
                    "line", w2, w1);
    if (P->nt > need) {
        quote(q, sizeof q, &P->t[need]);
        return fail(P, P->t[need].col, "expected the end of the line after %s, found %s", want,
                    q);
    }
    return 0;
}

/* Grow *arr (of *cap elements of size sz) to hold n + more. */
static int reserve(void **arr, size_t *cap, size_t n, size_t more, size_t sz)
{
    if (n + more <= *cap) return 0;
    size_t ncap = *cap ? *cap : 64;
    while (ncap < n + more) {
        if (ncap > ((size_t)-1 / 2) / sz) return -1;
        ncap *= 2;
    }
    void *p = gb_realloc(*arr, ncap * sz);
    if (!p) return -1;
    *arr = p;
    *cap = ncap;
    return 0;
}

/* ---- the scenario ------------------------------------------------------ */

/* A length column: "-1" (no path) or gb_len_parse's grammar. */
static int parse_len(parser *P, const gb_tok *t, double *v, gb_lenfmt *f)
{
    if (gb_tok_is(t, "-1")) {
        *v = -1;
        memset(f, 0, sizeof *f);
        return 0;
    }
    int rc = gb_len_parse(t->s, t->n, v, f);
    if (rc == 0) return 0;
    char q[64];
    quote(q, sizeof q, t);
    if (rc == -2)
        return fail(P, t->col, "expected a length of at most 63 characters, found %zu "
                    "characters", t->n);
    return fail(P, t->col, "expected a length as a non-negative decimal number or -1, found %s",
                q);
}

static int parse_command(parser *P, gb_gppcdyn *s, int cost_pos, int32_t *last_t,
                         long *last_line, gb_gppcdyn_cmd *c, gb_lenfmt *f)
{
    char q[64];
    const gb_tok *t = P->t;
    int isq = gb_tok_is(&t[0], "Q");
    if (!isq && !gb_tok_is(&t[0], "P")) {
        quote(q, sizeof q, &t[0]);
        return fail(P, t[0].col, "expected a command 'P' (patch) or 'Q' (query), found %s", q);
    }
    size_t need = isq ? 6 + (size_t)s->ncost : 5;
    if (P->nt < need)
        return fail(P, (long)P->linelen + 1, "expected %zu fields on a '%s' line (%s), found %zu",
                    need, isq ? "Q" : "P",
                    isq ? "Q T SX SY GX GY and one length per cost" : "P T ID X Y", P->nt);
    if (P->nt > need) {
        quote(q, sizeof q, &t[need]);
        return fail(P, t[need].col, "expected the end of the line after %zu fields, found %s",
                    need, q);
    }
    memset(c, 0, sizeof *c);
    c->line = P->c.no;
    c->kind = isq ? GB_GPPCDYN_QUERY : GB_GPPCDYN_PATCH;
    int rc = parse_int(P, &t[1], "the time", 0, GB_GPPCDYN_MAX_TIME, &c->t);
    if (rc) return rc;
    if (c->t < *last_t) {
        quote(q, sizeof q, &t[1]);
        return fail(P, t[1].col, "expected a time >= %ld (that of line %ld), found %s",
                    (long)*last_t, *last_line, q);
    }
    *last_t = c->t;
    *last_line = c->line;
    const long w1 = s->width - 1, h1 = s->height - 1;
    if (!isq) {
        c->patch_col = t[2].col;
        if ((rc = parse_int(P, &t[2], "the patch index", 0, MAX_PATCHES - 1, &c->patch))
            || (rc = parse_int(P, &t[3], "the patch's x", 0, w1, &c->x))
            || (rc = parse_int(P, &t[4], "the patch's y", 0, h1, &c->y)))
            return rc;
        return 0;
    }
    if ((rc = parse_int(P, &t[2], "the start x", 0, w1, &c->x))
        || (rc = parse_int(P, &t[3], "the start y", 0, h1, &c->y))
        || (rc = parse_int(P, &t[4], "the goal x", 0, w1, &c->gx))
        || (rc = parse_int(P, &t[5], "the goal y", 0, h1, &c->gy)))
        return rc;
    for (int i = 0; i < s->ncost; i++) {
        double v;
        gb_lenfmt lf;
        if ((rc = parse_len(P, &t[6 + i], &v, &lf))) return rc;
        if (i == cost_pos) {
            c->len = v;
            c->decimals = lf.decimals;
            *f = lf;
        }
    }
    return 0;
}

static int parse_scen(parser *P, gb_gppcdyn *s)
{
    char q[64];
    int32_t version, ncost;
    int rc = keyword_int(P, "version", 0, 1000000, &version);
    if (rc) return rc;
    if (version != 2)
        return fail(P, P->t[1].col, "expected version 2 (GPPC's dynamic scenarios), found %ld",
                    (long)version);
    if ((rc = keyword_int(P, "height", 1, GB_GPPCDYN_MAX_SIDE, &s->height))
        || (rc = keyword_int(P, "width", 1, GB_GPPCDYN_MAX_SIDE, &s->width)))
        return rc;
    /* cost N NAME... with exactly one octile */
    if (!next_item(P)) return fail(P, 0, "expected 'cost N NAME...', found the end of the file");
    if (!gb_tok_is(&P->t[0], "cost")) {
        quote(q, sizeof q, &P->t[0]);
        return fail(P, P->t[0].col, "expected 'cost', found %s", q);
    }
    if (P->nt < 2)
        return fail(P, (long)P->linelen + 1, "expected a number after 'cost', found the end of "
                    "the line");
    if ((rc = parse_int(P, &P->t[1], "the number of costs", 1, GB_GPPCDYN_MAX_COSTS, &ncost)))
        return rc;
    if (P->nt != 2 + (size_t)ncost) {
        if (P->nt > 2 + (size_t)ncost) {
            quote(q, sizeof q, &P->t[2 + ncost]);
            return fail(P, P->t[2 + ncost].col, "expected %ld cost names, found another: %s",
                        (long)ncost, q);
        }
        return fail(P, (long)P->linelen + 1, "expected %ld cost names, found %zu", (long)ncost,
                    P->nt - 2);
    }
    int cost_pos = -1;
    for (int i = 0; i < ncost; i++)
        if (gb_tok_is(&P->t[2 + i], "octile")) {
            if (cost_pos >= 0)
                return fail(P, P->t[2 + i].col, "expected 'octile' once among the cost names, "
                            "found it twice");
            cost_pos = i;
        }
    if (cost_pos < 0)
        return fail(P, P->t[2].col, "expected 'octile' among the cost names, found none");
    s->ncost = ncost;
    /* patch FILE */
    if (!next_item(P)) return fail(P, 0, "expected 'patch FILE', found the end of the file");
    if (!gb_tok_is(&P->t[0], "patch")) {
        quote(q, sizeof q, &P->t[0]);
        return fail(P, P->t[0].col, "expected 'patch', found %s", q);
    }
    if (P->nt != 2)
        return P->nt < 2 ? fail(P, (long)P->linelen + 1, "expected a file name after 'patch', "
                                "found the end of the line")
                         : fail(P, P->t[2].col, "expected one file name after 'patch' (no "
                                "blanks), found more words");
    if (!(s->patch_field = gb_malloc(P->t[1].n + 1)))
        return out_of_memory(P->d, P->path, "the patch file's name");
    memcpy(s->patch_field, P->t[1].s, P->t[1].n);
    s->patch_field[P->t[1].n] = '\0';
    if ((rc = keyword_line(P, "commands", NULL))) return rc;

    size_t cap = 0, fcap = 0;
    gb_lenfmt *fmt = NULL;
    int32_t last_t = 0;
    long last_line = 0;
    while (rc == 0 && next_item(P)) {
        if (reserve((void **)&s->cmd, &cap, s->ncmd, 1, sizeof *s->cmd)
            || reserve((void **)&fmt, &fcap, s->ncmd, 1, sizeof *fmt)) {
            rc = out_of_memory(P->d, P->path, "the commands");
            break;
        }
        rc = parse_command(P, s, cost_pos, &last_t, &last_line, &s->cmd[s->ncmd], &fmt[s->ncmd]);
        if (rc == 0) {
            if (s->cmd[s->ncmd].kind == GB_GPPCDYN_QUERY) s->nquery++;
            s->ncmd++;
        }
    }
    if (rc == 0 && s->nquery == 0)
        rc = fail(P, 0, "expected at least one query 'Q T SX SY GX GY LEN', found none");
    if (rc == 0) {
        int maxsig = 0;
        for (size_t i = 0; i < s->ncmd; i++)
            if (s->cmd[i].kind == GB_GPPCDYN_QUERY && fmt[i].sig > maxsig) maxsig = fmt[i].sig;
        for (size_t i = 0; i < s->ncmd; i++)
            if (s->cmd[i].kind == GB_GPPCDYN_QUERY && s->cmd[i].len >= 0)
                s->cmd[i].tol = gb_len_tol_sig(&fmt[i], maxsig > 0 ? maxsig : 1);
    }
    gb_free(fmt);
    return rc;
}

int gb_gppcdyn_parse(const char *path, const char *buf, size_t len, gb_gppcdyn *s, gb_diag *d)
{
    memset(s, 0, sizeof *s);
    parser P;
    parser_init(&P, path, buf, len, d);
    int rc = parse_scen(&P, s);
    if (rc == 0 && path && !(s->path = gb_strdup(path)))
        rc = out_of_memory(d, path, "the path");
    if (rc) gb_gppcdyn_free(s);
    return rc;
}

/* ---- the patch file ----------------------------------------------------- */

static int terrain(char ch)
{
    switch (ch) {
    case '.': case 'G': case 'S': return 1;
    case '@': case 'O': case 'T': case 'W': return 0;
    default: return -1;
    }
}

/* Patch number i: its header and rows, cells appended to s->cell. */
static int parse_patch(parser *P, gb_gppcdyn *s, long i, size_t *pcap, size_t *ccap)
{
    char q[64];
    int32_t idx, w, h;
    int rc = keyword_int(P, "patch", 0, MAX_PATCHES - 1, &idx);
    if (rc) return rc;
    if (idx != i) return fail(P, P->t[1].col, "expected patch %ld (in order), found %ld", i,
                              (long)idx);
    long line = P->c.no;
    if ((rc = keyword_int(P, "height", 1, s->height, &h))
        || (rc = keyword_int(P, "width", 1, s->width, &w))
        || (rc = keyword_line(P, "map", NULL)))
        return rc;
    if (reserve((void **)&s->patch, pcap, s->npatch, 1, sizeof *s->patch))
        return out_of_memory(P->d, P->path, "the patches");
    gb_gppcdyn_patch *p = &s->patch[s->npatch];
    p->line = line;
    p->w = w;
    p->h = h;
    p->c0 = s->ncell;
    for (int32_t y = 0; y < h; y++) {
        if (!next_item(P))
            return fail(P, 0, "expected row %ld of patch %ld (%ld terrain characters), found "
                        "the end of the file", (long)y + 1, i, (long)w);
        const gb_tok *t = &P->t[0];
        if (P->nt > 1) {
            quote(q, sizeof q, &P->t[1]);
            return fail(P, P->t[1].col, "expected the end of row %ld of patch %ld, found %s",
                        (long)y + 1, i, q);
        }
        for (size_t x = 0; x < t->n && x < (size_t)w; x++)
            if (terrain(t->s[x]) < 0) {
                gb_diag_quote(q, sizeof q, t->s + x, 1);
                return fail(P, t->col + (long)x, "expected a terrain character ('.', 'G', 'S' "
                            "passable; '@', 'O', 'T', 'W' blocked), found %s", q);
            }
        if (t->n != (size_t)w)
            return fail(P, t->col + (long)(t->n < (size_t)w ? t->n : (size_t)w),
                        "expected %ld terrain characters in row %ld of patch %ld, found %zu",
                        (long)w, (long)y + 1, i, t->n);
        if (reserve((void **)&s->cell, ccap, s->ncell, (size_t)w, 1))
            return out_of_memory(P->d, P->path, "the patch cells");
        for (int32_t x = 0; x < w; x++) s->cell[s->ncell++] = (uint8_t)terrain(t->s[x]);
    }
    s->npatch++;
    return 0;
}

/* Every P of the scenario against the patches. */
static int check_refs(const gb_gppcdyn *s, gb_diag *d)
{
    for (size_t i = 0; i < s->ncmd; i++) {
        const gb_gppcdyn_cmd *c = &s->cmd[i];
        if (c->kind != GB_GPPCDYN_PATCH) continue;
        if ((size_t)c->patch >= s->npatch)
            return gb_diag_set(d, EX_DATAERR, s->path, c->line, c->patch_col,
                               "expected a patch index below %zu (the patches of %s), found %ld",
                               s->npatch, s->patch_path ? s->patch_path : s->patch_field,
                               (long)c->patch);
        const gb_gppcdyn_patch *p = &s->patch[c->patch];
        if ((int64_t)c->x + p->w > s->width || (int64_t)c->y + p->h > s->height)
            return gb_diag_set(d, EX_DATAERR, s->path, c->line, c->patch_col,
                               "expected patch %ld (%ld x %ld) at (%ld, %ld) inside the %ld x %ld "
                               "map, found it reaching (%ld, %ld)", (long)c->patch, (long)p->w,
                               (long)p->h, (long)c->x, (long)c->y, (long)s->width,
                               (long)s->height, (long)c->x + p->w - 1, (long)c->y + p->h - 1);
    }
    return 0;
}

int gb_gppcdyn_parse_patches(gb_gppcdyn *s, const char *ppath, const char *buf, size_t len,
                             gb_diag *d)
{
    parser P;
    parser_init(&P, ppath, buf, len, d);
    int32_t k = 0;
    size_t pcap = 0, ccap = 0;
    int rc = keyword_line(&P, "type", "patch");
    if (rc == 0) rc = keyword_int(&P, "patches", 0, MAX_PATCHES, &k);
    for (long i = 0; rc == 0 && i < k; i++) rc = parse_patch(&P, s, i, &pcap, &ccap);
    if (rc == 0 && next_item(&P)) {
        char q[64];
        quote(q, sizeof q, &P.t[0]);
        rc = fail(&P, P.t[0].col, "expected the end of the file after %ld patches, found %s",
                  (long)k, q);
    }
    if (rc == 0) rc = check_refs(s, d);
    if (rc) gb_gppcdyn_free(s);
    return rc;
}

/* ---- files -------------------------------------------------------------- */

int gb_gppcdyn_load(const char *path, gb_gppcdyn *s, gb_diag *d)
{
    memset(s, 0, sizeof *s);
    char *buf = NULL;
    size_t len = 0;
    int rc = gb_read_file(path, &buf, &len, d);
    if (rc) return rc;
    rc = gb_gppcdyn_parse(path, buf, len, s, d);
    gb_free(buf);
    if (rc) return rc;
    /* the patch file: beside the scenario unless absolute */
    const char *slash = strrchr(path, '/');
    size_t dir = s->patch_field[0] == '/' || !slash ? 0 : (size_t)(slash - path) + 1;
    size_t n = dir + strlen(s->patch_field) + 1;
    if (!(s->patch_path = gb_malloc(n))) {
        gb_gppcdyn_free(s);
        return out_of_memory(d, path, "the patch file's name");
    }
    memcpy(s->patch_path, path, dir);
    memcpy(s->patch_path + dir, s->patch_field, n - dir);
    rc = gb_read_file(s->patch_path, &buf, &len, d);
    if (rc) {
        gb_gppcdyn_free(s);
        return rc;
    }
    rc = gb_gppcdyn_parse_patches(s, s->patch_path, buf, len, d);
    gb_free(buf);
    return rc;
}

void gb_gppcdyn_free(gb_gppcdyn *s)
{
    if (!s) return;
    gb_free(s->path);
    gb_free(s->patch_field);
    gb_free(s->patch_path);
    gb_free(s->cmd);
    gb_free(s->patch);
    gb_free(s->cell);
    memset(s, 0, sizeof *s);
}
