/*
 * gb_opt.c -- one option table, three renderings: the getopt_long parser,
 * --help and the man page (gb_opt.h).
 *
 * Text layout: help and description strings are split into paragraphs at
 * blank lines; a line that starts with two spaces is verbatim (code); the
 * other lines of a paragraph are joined and re-wrapped, at 79 columns for
 * --help (option help in a column starting at 24) and left to the man
 * viewer in roff.
 */
#include "gb_opt.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#define HELP_COL 24
#define WIDTH 79

/* ---- parser ------------------------------------------------------------- */

int gb_opt_begin(gb_opt_parser *p, const gb_cmd_doc *doc)
{
    memset(p, 0, sizeof *p);
    p->doc = doc;
    size_t n = 0, k = 0;
    while (doc->opts[n].name) n++;
    struct option *lo = calloc(n + 2, sizeof *lo);
    if (!lo) return -1;
    p->shortopts[k++] = ':';   /* a missing argument is ':' */
    for (size_t i = 0; i < n; i++) {
        const gb_opt *o = &doc->opts[i];
        lo[i].name = o->name;
        lo[i].has_arg = o->arg ? required_argument : no_argument;
        lo[i].val = o->id;
        if (o->shortname && k + 3 < sizeof p->shortopts) {
            p->shortopts[k++] = o->shortname;
            if (o->arg) p->shortopts[k++] = ':';
        }
    }
    p->shortopts[k] = '\0';
    p->longopts = lo;
    optind = 0;   /* glibc: a full re-initialisation */
    opterr = 0;
    return 0;
}

void gb_opt_end(gb_opt_parser *p)
{
    free(p->longopts);
    p->longopts = NULL;
}

/* The option whose id getopt_long left in optopt (a short letter is its
 * option's id too). */
static const gb_opt *offending(const gb_cmd_doc *doc)
{
    for (const gb_opt *o = doc->opts; o->name; o++)
        if (o->id == optopt) return o;
    return NULL;
}

int gb_opt_next(gb_opt_parser *p, int argc, char **argv, const char **arg)
{
    int c = getopt_long(argc, argv, p->shortopts, p->longopts, NULL);
    *arg = optarg;
    if (c == ':') {
        const gb_opt *o = offending(p->doc);
        fprintf(stderr, "gridbench %s: %s%s: expected an argument %s, found none\n", p->doc->name,
                o ? "--" : "", o ? o->name : argv[optind - 1], o && o->arg ? o->arg : "");
    } else if (c == '?') {
        fprintf(stderr, "gridbench %s: expected an option of `gridbench %s --help`, found '%s'\n",
                p->doc->name, p->doc->name, argv[optind - 1]);
    }
    return c;
}

const gb_opt *gb_opt_find(const gb_cmd_doc *doc, const char *name)
{
    for (const gb_opt *o = doc->opts; o->name; o++)
        if (strcmp(o->name, name) == 0) return o;
    return NULL;
}

/* ---- text --------------------------------------------------------------- */

/* Call emit(ctx, para, len, verbatim) for each paragraph or verbatim line
 * of s; a paragraph is its lines joined by single spaces. */
typedef void (*para_fn)(void *ctx, const char *s, size_t n, int verbatim, int first);

static void paragraphs(const char *s, para_fn emit, void *ctx)
{
    char buf[4096];
    size_t n = 0;
    int first = 1;
    while (s && *s) {
        const char *e = strchr(s, '\n');
        size_t len = e ? (size_t)(e - s) : strlen(s);
        int blank = len == 0, verb = len >= 2 && s[0] == ' ' && s[1] == ' ';
        if ((blank || verb) && n) { emit(ctx, buf, n, 0, first); first = 0; n = 0; }
        if (verb) { emit(ctx, s, len, 1, first); first = 0; }
        else if (blank) { if (!first) emit(ctx, "", 0, 0, 0); }
        else {
            if (n && n + 1 < sizeof buf) buf[n++] = ' ';
            size_t m = len < sizeof buf - 1 - n ? len : sizeof buf - 1 - n;
            memcpy(buf + n, s, m);
            n += m;
        }
        s = e ? e + 1 : s + len;
    }
    if (n) emit(ctx, buf, n, 0, first);
}

typedef struct wrapctx {
    FILE *f;
    int indent;      /* column of every line but maybe the first */
    int col;         /* the column the cursor is at when a paragraph starts */
} wrapctx;

/* Wrap s[0..n) from column w->col, continuing lines at w->indent. */
static void wrap_para(void *ctx, const char *s, size_t n, int verbatim, int first)
{
    wrapctx *w = ctx;
    if (!first) fprintf(w->f, "%*s", w->indent, "");
    else if (w->col < w->indent) fprintf(w->f, "%*s", w->indent - w->col, "");
    if (n == 0) { fputc('\n', w->f); return; }   /* the blank line between paragraphs */
    if (verbatim) { fprintf(w->f, "%.*s\n", (int)n, s); return; }
    int col = first && w->col > w->indent ? w->col : w->indent, empty = 1;   /* empty: no word yet */
    size_t i = 0;
    while (i < n) {
        while (i < n && s[i] == ' ') i++;
        if (i == n) break;
        size_t j = i;
        while (j < n && s[j] != ' ') j++;
        int len = (int)(j - i);
        if (!empty && col + 1 + len > WIDTH) {
            fprintf(w->f, "\n%*s", w->indent, "");
            col = w->indent;
            empty = 1;
        }
        if (!empty) { fputc(' ', w->f); col++; }
        fprintf(w->f, "%.*s", len, s + i);
        col += len;
        empty = 0;
        i = j;
    }
    fputc('\n', w->f);
}

static void wrap(FILE *f, const char *s, int indent, int col)
{
    wrapctx w = { f, indent, col };
    paragraphs(s, wrap_para, &w);
}

void gb_opt_help(const gb_cmd_doc *doc, FILE *f)
{
    fprintf(f, "usage: gridbench %s %s\n\n", doc->name, doc->synopsis);
    if (doc->description) { wrap(f, doc->description, 0, 0); fputc('\n', f); }
    fprintf(f, "Options:\n");
    for (const gb_opt *o = doc->opts; o->name; o++) {
        char head[128];
        int k = snprintf(head, sizeof head, "  %s%c%s--%s%s%s", o->shortname ? "-" : "  ",
                         o->shortname ? o->shortname : ' ', o->shortname ? ", " : "  ", o->name,
                         o->arg ? " " : "", o->arg ? o->arg : "");
        fputs(head, f);
        if (k + 2 > HELP_COL) { fputc('\n', f); k = 0; }
        wrap(f, o->help, HELP_COL, k);
    }
    if (doc->after) { fputc('\n', f); wrap(f, doc->after, 0, 0); }
    if (doc->examples) {
        fprintf(f, "\nExample%s:\n", strchr(doc->examples, '\n') && strchr(doc->examples, '\n')[1] ? "s" : "");
        for (const char *s = doc->examples; *s;) {
            const char *e = strchr(s, '\n');
            size_t len = e ? (size_t)(e - s) : strlen(s);
            fprintf(f, "  %.*s\n", (int)len, s);
            s = e ? e + 1 : s + len;
        }
    }
    if (doc->exit_status) { fprintf(f, "\nExit status: "); wrap(f, doc->exit_status, 0, 13); }
}

/* ---- roff ---------------------------------------------------------------- */

/* Write s[0..n) escaped for roff: backslashes, hyphens (as \-), and a
 * leading . or ' (as \&). */
static void roff_text(FILE *f, const char *s, size_t n, int line_start)
{
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (line_start && (c == '.' || c == '\'')) fputs("\\&", f);
        line_start = 0;
        if (c == '\\') fputs("\\e", f);
        else if (c == '-') fputs("\\-", f);
        else fputc(c, f);
        line_start = c == '\n';
    }
}

static void roff_para(void *ctx, const char *s, size_t n, int verbatim, int first)
{
    FILE *f = ctx;
    if (n == 0) return;
    if (verbatim) {
        fputs(".nf\n", f);
        roff_text(f, s, n, 1);
        fputs("\n.fi\n", f);
        return;
    }
    if (!first) fputs(".PP\n", f);
    roff_text(f, s, n, 1);
    fputc('\n', f);
}

static void roff_upper(FILE *f, const char *s)
{
    for (; *s; s++) fputc(*s >= 'a' && *s <= 'z' ? *s - 'a' + 'A' : *s, f);
}

void gb_opt_man(const gb_cmd_doc *doc, const char *version, const char *date, FILE *f)
{
    fputs(".TH GRIDBENCH\\-", f);
    roff_upper(f, doc->name);
    fprintf(f, " 1 \"%s\" \"gridbench %s\" \"gridbench manual\"\n", date, version);
    fprintf(f, ".SH NAME\ngridbench\\-%s \\- ", doc->name);
    roff_text(f, doc->summary, strlen(doc->summary), 0);
    fprintf(f, "\n.SH SYNOPSIS\n.B gridbench %s\n", doc->name);
    roff_text(f, doc->synopsis, strlen(doc->synopsis), 1);
    fputs("\n.SH DESCRIPTION\n", f);
    if (doc->description) paragraphs(doc->description, roff_para, f);
    fputs(".SH OPTIONS\n", f);
    for (const gb_opt *o = doc->opts; o->name; o++) {
        fputs(".TP\n", f);
        if (o->shortname) fprintf(f, "\\fB\\-%c\\fR, ", o->shortname);
        fputs("\\fB\\-\\-", f);
        roff_text(f, o->name, strlen(o->name), 0);
        fputs("\\fR", f);
        if (o->arg) {
            fputs(" \\fI", f);
            roff_text(f, o->arg, strlen(o->arg), 0);
            fputs("\\fR", f);
        }
        fputc('\n', f);
        paragraphs(o->help, roff_para, f);
    }
    if (doc->after) { fputs(".PP\n", f); paragraphs(doc->after, roff_para, f); }
    if (doc->examples) {
        fputs(".SH EXAMPLES\n.nf\n", f);
        roff_text(f, doc->examples, strlen(doc->examples), 1);
        fputs("\n.fi\n", f);
    }
    if (doc->exit_status) {
        fputs(".SH EXIT STATUS\n", f);
        paragraphs(doc->exit_status, roff_para, f);
    }
    fputs(".SH SEE ALSO\n.BR gridbench (1)\n", f);
}
