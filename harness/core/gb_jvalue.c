/*
 * gb_jvalue.c -- recursive-descent JSON reader (see gb_jvalue.h).
 *
 * The parser walks buf with a cursor; every error records the byte
 * offset, from which the line, the column and the offending line's text
 * are computed once, when the diagnostic is filled.  Children of arrays
 * and objects are collected in a growing array and moved into the parent
 * when the closing bracket is seen.
 */
#include "gb_jvalue.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gb_alloc.h"

typedef struct parser {
    const char *path;
    const char *s;     /* buffer */
    size_t len, pos;   /* size, cursor */
    gb_diag *d;
} parser;

/* Fill the diagnostic at offset at; returns EX_DATAERR. */
static int fail_at(parser *p, size_t at, const char *expected)
{
    long line = 1;
    size_t ls = 0;
    for (size_t i = 0; i < at && i < p->len; i++)
        if (p->s[i] == '\n') { line++; ls = i + 1; }
    char found[48];
    if (at >= p->len) snprintf(found, sizeof found, "the end of the input");
    else gb_diag_quote(found, sizeof found, p->s + at, p->len - at < 8 ? p->len - at : 8);
    gb_diag_set(p->d, EX_DATAERR, p->path, line, (long)(at - ls) + 1, "expected %s, found %s",
                expected, found);
    size_t le = ls;
    while (le < p->len && p->s[le] != '\n') le++;
    gb_diag_set_text(p->d, p->s + ls, le - ls);
    return EX_DATAERR;
}

static int oom(parser *p)
{
    return gb_diag_set(p->d, EX_OSERR, p->path, 0, 0, "expected memory for the JSON tree, found none");
}

static void skip_ws(parser *p)
{
    while (p->pos < p->len) {
        char c = p->s[p->pos];
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r') break;
        p->pos++;
    }
}

static void free_children(gb_jv *v)
{
    for (size_t i = 0; i < v->n; i++) {
        free_children(&v->items[i]);
        gb_free(v->items[i].key);
        gb_free(v->items[i].str);
    }
    gb_free(v->items);
    v->items = NULL;
    v->n = 0;
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static int read_hex4(parser *p, size_t at, uint32_t *u)
{
    if (at + 4 > p->len) return -1;
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) {
        int h = hexval(p->s[at + (size_t)i]);
        if (h < 0) return -1;
        v = v * 16 + (uint32_t)h;
    }
    *u = v;
    return 0;
}

static size_t put_utf8(char *o, uint32_t u)
{
    if (u < 0x80) { o[0] = (char)u; return 1; }
    if (u < 0x800) { o[0] = (char)(0xC0 | (u >> 6)); o[1] = (char)(0x80 | (u & 0x3F)); return 2; }
    if (u < 0x10000) {
        o[0] = (char)(0xE0 | (u >> 12)); o[1] = (char)(0x80 | ((u >> 6) & 0x3F));
        o[2] = (char)(0x80 | (u & 0x3F));
        return 3;
    }
    o[0] = (char)(0xF0 | (u >> 18)); o[1] = (char)(0x80 | ((u >> 12) & 0x3F));
    o[2] = (char)(0x80 | ((u >> 6) & 0x3F)); o[3] = (char)(0x80 | (u & 0x3F));
    return 4;
}

/* At a '"': decode the string into a fresh buffer. */
static int parse_string(parser *p, char **out, size_t *outlen)
{
    size_t start = ++p->pos;   /* after the quote */
    size_t end = start;
    while (end < p->len && p->s[end] != '"') end += p->s[end] == '\\' ? 2 : 1;
    if (end >= p->len) return fail_at(p, p->len, "a closing '\"' of the string");
    /* decoded text is never longer than the source */
    char *o = gb_malloc(end - start + 1);
    if (!o) return oom(p);
    size_t k = 0;
    while (p->pos < end) {
        unsigned char c = (unsigned char)p->s[p->pos];
        if (c < 0x20) { gb_free(o); return fail_at(p, p->pos, "no control character inside a string"); }
        if (c != '\\') { o[k++] = (char)c; p->pos++; continue; }
        char e = p->s[p->pos + 1];
        switch (e) {
        case '"': o[k++] = '"'; break;
        case '\\': o[k++] = '\\'; break;
        case '/': o[k++] = '/'; break;
        case 'b': o[k++] = '\b'; break;
        case 'f': o[k++] = '\f'; break;
        case 'n': o[k++] = '\n'; break;
        case 'r': o[k++] = '\r'; break;
        case 't': o[k++] = '\t'; break;
        case 'u': {
            uint32_t u;
            if (read_hex4(p, p->pos + 2, &u) != 0) {
                gb_free(o);
                return fail_at(p, p->pos, "4 hex digits after \\u");
            }
            size_t adv = 6;
            if (u >= 0xD800 && u <= 0xDBFF) {
                uint32_t lo;
                if (p->pos + 12 <= p->len && p->s[p->pos + 6] == '\\' && p->s[p->pos + 7] == 'u'
                    && read_hex4(p, p->pos + 8, &lo) == 0 && lo >= 0xDC00 && lo <= 0xDFFF) {
                    u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
                    adv = 12;
                } else {
                    u = 0xFFFD;   /* lone surrogate */
                }
            } else if (u >= 0xDC00 && u <= 0xDFFF) {
                u = 0xFFFD;
            }
            /* the escape is 6 or 12 source bytes, its UTF-8 at most 4 */
            k += put_utf8(o + k, u);
            p->pos += adv;
            continue;
        }
        default:
            gb_free(o);
            return fail_at(p, p->pos, "an escape \\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX");
        }
        p->pos += 2;
    }
    o[k] = '\0';
    p->pos = end + 1;
    *out = o;
    *outlen = k;
    return 0;
}

static int parse_number(parser *p, gb_jv *v)
{
    size_t i = p->pos;
    const char *s = p->s;
    if (i < p->len && s[i] == '-') i++;
    if (i >= p->len || s[i] < '0' || s[i] > '9') return fail_at(p, p->pos, "a JSON value");
    if (s[i] == '0') i++;
    else while (i < p->len && s[i] >= '0' && s[i] <= '9') i++;
    if (i < p->len && s[i] == '.') {
        i++;
        if (i >= p->len || s[i] < '0' || s[i] > '9') return fail_at(p, i, "a digit after '.'");
        while (i < p->len && s[i] >= '0' && s[i] <= '9') i++;
    }
    if (i < p->len && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < p->len && (s[i] == '+' || s[i] == '-')) i++;
        if (i >= p->len || s[i] < '0' || s[i] > '9') return fail_at(p, i, "a digit in the exponent");
        while (i < p->len && s[i] >= '0' && s[i] <= '9') i++;
    }
    char tmp[64];
    size_t n = i - p->pos;
    if (n >= sizeof tmp) return fail_at(p, p->pos, "a number of at most 63 characters");
    memcpy(tmp, s + p->pos, n);
    tmp[n] = '\0';
    v->type = GB_JV_NUM;
    v->num = strtod(tmp, NULL);   /* the grammar above is a subset of strtod's */
    p->pos = i;
    return 0;
}

static int parse_value(parser *p, gb_jv *v, int depth);

/* Parse the members (obj) or items of a container opened at p->pos. */
static int parse_container(parser *p, gb_jv *v, int obj, int depth)
{
    char close = obj ? '}' : ']';
    v->type = obj ? GB_JV_OBJ : GB_JV_ARR;
    p->pos++;
    skip_ws(p);
    size_t cap = 0;
    if (p->pos < p->len && p->s[p->pos] == close) { p->pos++; return 0; }
    for (;;) {
        if (v->n == cap) {
            size_t nc = cap ? cap * 2 : 4;
            gb_jv *it = gb_realloc(v->items, nc * sizeof *it);
            if (!it) return oom(p);
            v->items = it;
            cap = nc;
        }
        gb_jv *c = &v->items[v->n];
        memset(c, 0, sizeof *c);
        v->n++;
        skip_ws(p);
        if (obj) {
            if (p->pos >= p->len || p->s[p->pos] != '"') return fail_at(p, p->pos, "a member name in quotes");
            size_t kl;
            int rc = parse_string(p, &c->key, &kl);
            if (rc) return rc;
            skip_ws(p);
            if (p->pos >= p->len || p->s[p->pos] != ':') return fail_at(p, p->pos, "':' after the member name");
            p->pos++;
        }
        int rc = parse_value(p, c, depth + 1);
        if (rc) return rc;
        skip_ws(p);
        if (p->pos < p->len && p->s[p->pos] == ',') { p->pos++; continue; }
        if (p->pos < p->len && p->s[p->pos] == close) { p->pos++; return 0; }
        return fail_at(p, p->pos, obj ? "',' or '}'" : "',' or ']'");
    }
}

static int parse_value(parser *p, gb_jv *v, int depth)
{
    if (depth > GB_JV_MAX_DEPTH) return fail_at(p, p->pos, "at most 64 nested arrays/objects");
    skip_ws(p);
    if (p->pos >= p->len) return fail_at(p, p->pos, "a JSON value");
    char c = p->s[p->pos];
    switch (c) {
    case '{': return parse_container(p, v, 1, depth);
    case '[': return parse_container(p, v, 0, depth);
    case '"': v->type = GB_JV_STR; return parse_string(p, &v->str, &v->slen);
    case 't': case 'f': case 'n': {
        static const char *const words[] = { "true", "false", "null" };
        for (int i = 0; i < 3; i++) {
            size_t wl = strlen(words[i]);
            if (p->len - p->pos >= wl && memcmp(p->s + p->pos, words[i], wl) == 0) {
                v->type = i == 2 ? GB_JV_NULL : GB_JV_BOOL;
                v->num = i == 0;
                p->pos += wl;
                return 0;
            }
        }
        return fail_at(p, p->pos, "a JSON value");
    }
    default:
        return parse_number(p, v);
    }
}

int gb_jv_parse(const char *path, const char *buf, size_t len, gb_jv **out, gb_diag *d)
{
    *out = NULL;
    gb_diag_clear(d);
    parser p = { path, buf, len, 0, d };
    gb_jv *v = gb_calloc(1, sizeof *v);
    if (!v) return oom(&p);
    int rc = parse_value(&p, v, 0);
    if (!rc) {
        skip_ws(&p);
        if (p.pos < p.len) rc = fail_at(&p, p.pos, "the end of the input after the JSON value");
    }
    if (rc) { gb_jv_free(v); return rc; }
    *out = v;
    return 0;
}

int gb_jv_load(const char *path, gb_jv **out, gb_diag *d)
{
    char *buf;
    size_t len;
    *out = NULL;
    int rc = gb_read_file(path, &buf, &len, d);
    if (rc) return rc;
    rc = gb_jv_parse(path, buf, len, out, d);
    gb_free(buf);
    return rc;
}

void gb_jv_free(gb_jv *v)
{
    if (!v) return;
    free_children(v);
    gb_free(v->key);
    gb_free(v->str);
    gb_free(v);
}

const gb_jv *gb_jv_get(const gb_jv *v, const char *key)
{
    if (!v || v->type != GB_JV_OBJ) return NULL;
    for (size_t i = 0; i < v->n; i++)
        if (strcmp(v->items[i].key, key) == 0) return &v->items[i];
    return NULL;
}

const gb_jv *gb_jv_path(const gb_jv *v, const char *path)
{
    char part[256];
    while (v && *path) {
        const char *sl = strchr(path, '/');
        size_t n = sl ? (size_t)(sl - path) : strlen(path);
        if (n >= sizeof part) return NULL;
        memcpy(part, path, n);
        part[n] = '\0';
        v = gb_jv_get(v, part);
        path += n + (sl ? 1 : 0);
    }
    return v;
}

const char *gb_jv_str(const gb_jv *v, const char *dflt)
{
    return v && v->type == GB_JV_STR ? v->str : dflt;
}

double gb_jv_num(const gb_jv *v, double dflt)
{
    return v && v->type == GB_JV_NUM ? v->num : dflt;
}
