/*
 * gb_text.h -- the line cursor and blank-separated tokenizer shared by
 * the .map and .scen loaders (internal to harness/, not installed API
 * beyond being a header).
 *
 * A cursor walks buf[0..len) line by line; lines end at LF, and a CR
 * right before the LF is dropped too, so LF and CRLF files read alike (a
 * CR anywhere else is data).  Tokens are runs of non-blank bytes, blanks
 * being space and tab; each token remembers its 1-based column for
 * diagnostics.
 */
#ifndef GB_TEXT_H
#define GB_TEXT_H

#include <stddef.h>
#include <string.h>

typedef struct gb_cursor {
    const char *buf;
    size_t len;
    size_t pos;     /* offset of the next unread byte */
    long no;        /* 1-based number of the last line returned */
} gb_cursor;

/* Next line as s[0..n), without its LF or CRLF.  0 at end of input. */
static inline int gb_next_line(gb_cursor *c, const char **s, size_t *n)
{
    if (c->pos >= c->len) return 0;
    const char *p = c->buf + c->pos;
    size_t rest = c->len - c->pos;
    const char *nl = memchr(p, '\n', rest);
    size_t k = nl ? (size_t)(nl - p) : rest;
    c->pos += nl ? k + 1 : k;
    if (k > 0 && p[k - 1] == '\r') k--;
    c->no++;
    *s = p;
    *n = k;
    return 1;
}

static inline int gb_is_blank(char ch) { return ch == ' ' || ch == '\t'; }

/* A blank-separated token: s[0..n) starting at 1-based column col. */
typedef struct gb_tok {
    const char *s;
    size_t n;
    long col;
} gb_tok;

/* Split s[0..n) at runs of blanks; store at most max tokens in t and
 * return how many there are in all. */
static inline size_t gb_split(const char *s, size_t n, gb_tok *t, size_t max)
{
    size_t k = 0, i = 0;
    for (;;) {
        while (i < n && gb_is_blank(s[i])) i++;
        if (i >= n) break;
        size_t b = i;
        while (i < n && !gb_is_blank(s[i])) i++;
        if (k < max) {
            t[k].s = s + b;
            t[k].n = i - b;
            t[k].col = (long)b + 1;
        }
        k++;
    }
    return k;
}

/* Nonzero when token t is exactly word. */
static inline int gb_tok_is(const gb_tok *t, const char *word)
{
    size_t n = strlen(word);
    return t->n == n && memcmp(t->s, word, n) == 0;
}

#endif
