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
#include <sysexits.h>

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

/* The option of doc whose id is id, or NULL. */
static const gb_opt *by_id(const gb_cmd_doc *doc, int id)
{
    for (const gb_opt *o = doc->opts; o->name; o++)
        if (o->id == id) return o;
    return NULL;
}

/* The option whose id getopt_long left in optopt (a short letter is its
 * option's id too). */
static const gb_opt *offending(const gb_cmd_doc *doc)
{
    return by_id(doc, optopt);
}

int gb_opt_next(gb_opt_parser *p, int argc, char **argv, const char **arg)
{
    int c = getopt_long(argc, argv, p->shortopts, p->longopts, NULL);
    *arg = optarg;
    if (p->quiet) return c;
    if (c == ':') {
        const gb_opt *o = offending(p->doc);
        fprintf(stderr, "gridbench %s: %s%s: expected an argument %s, found none\n", p->doc->name,
                o ? "--" : "", o ? o->name : argv[optind - 1], o && o->arg ? o->arg : "");
    } else if (c == '?') {
        /* optopt: 0 for an unknown long option (argv[optind - 1] is it),
         * an option's id for a flag given a value (`--help=x`, the same),
         * else an unknown short letter, which may sit inside a cluster
         * ("-xq") that optind has not passed yet: name the letter. */
        char letter[3] = { '-', (char)optopt, '\0' };
        const char *found = optopt > 0 && !offending(p->doc) ? letter : argv[optind - 1];
        fprintf(stderr, "gridbench %s: expected an option of `gridbench %s --help`, found '%s'\n",
                p->doc->name, p->doc->name, found);
    }
    return c;
}

int gb_opt_only_help(const gb_cmd_doc *doc, int argc, char **argv)
{
    gb_opt_parser p;
    const char *arg;
    if (gb_opt_begin(&p, doc) != 0) return EX_OSERR;
    int c = gb_opt_next(&p, argc, argv, &arg);
    gb_opt_end(&p);
    if (c == 'h') {
        gb_opt_help(doc, stdout);
        return 0;
    }
    const gb_opt *o = c == '?' || c == ':' ? NULL : by_id(doc, c);
    if (o)   /* an option of the table, but not of this use of it (`gppc list --name`) */
        fprintf(stderr, "gridbench %s: expected no option but --help, found --%s\n", doc->name, o->name);
    return c == -1 ? -1 : EX_USAGE;   /* else gb_opt_next said why */
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
    if (n == 0) { fputc('\n', w->f); return; }   /* the blank line between paragraphs, unindented */
    if (!first) fprintf(w->f, "%*s", w->indent, "");
    else if (w->col < w->indent) fprintf(w->f, "%*s", w->indent - w->col, "");
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

/* "usage: gridbench NAME FORM", one line per line of the synopsis, the
 * others aligned under the first; a long form is wrapped at blanks outside
 * brackets, so "[--name NAME]" never splits. */
static void help_usage(const gb_cmd_doc *doc, FILE *f)
{
    const char *s = doc->synopsis;
    int first = 1;
    do {
        const char *e = strchr(s, '\n');
        size_t len = e ? (size_t)(e - s) : strlen(s), i = 0;
        int col = fprintf(f, "%s gridbench %s", first ? "usage:" : "      ", doc->name);
        const int indent = col + 1;
        while (i < len) {
            size_t j = i;
            for (int depth = 0; j < len && (s[j] != ' ' || depth > 0); j++)
                depth += (s[j] == '[' || s[j] == '(') - (depth > 0 && (s[j] == ']' || s[j] == ')'));
            int w = (int)(j - i);
            if (col > indent && col + 1 + w > WIDTH) col = fprintf(f, "\n%*s", indent, "") - 1;
            else col += fprintf(f, " ");
            col += fprintf(f, "%.*s", w, s + i);
            for (i = j; i < len && s[i] == ' '; i++) {}
        }
        fputc('\n', f);
        first = 0;
        s = e ? e + 1 : s + len;
    } while (*s);
}

/* Whether the examples hold more than one command: a line break that
 * does not follow a backslash (a continued command) and ends no text. */
static int several_commands(const char *s)
{
    for (const char *e = s; (e = strchr(e, '\n')) != NULL; e++)
        if (e[1] && (e == s || e[-1] != '\\')) return 1;
    return 0;
}

void gb_opt_help(const gb_cmd_doc *doc, FILE *f)
{
    help_usage(doc, f);
    fputc('\n', f);
    if (doc->description) { wrap(f, doc->description, 0, 0); fputc('\n', f); }
    fprintf(f, "Options:\n");
    for (const gb_opt *o = doc->opts; o->name; o++) {
        char head[128];
        int k = snprintf(head, sizeof head, "  %s%c%s--%s%s%s", o->shortname ? "-" : " ",
                         o->shortname ? o->shortname : ' ', o->shortname ? ", " : "  ", o->name,
                         o->arg ? " " : "", o->arg ? o->arg : "");
        fputs(head, f);
        if (k + 2 > HELP_COL) { fputc('\n', f); k = 0; }
        wrap(f, o->help, HELP_COL, k);
    }
    if (doc->after) { fputc('\n', f); wrap(f, doc->after, 0, 0); }
    if (doc->examples) {
        fprintf(f, "\nExample%s:\n", several_commands(doc->examples) ? "s" : "");
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

typedef struct roffctx {
    FILE *f;
    const char *next;   /* the macro that starts a paragraph after the first: ".PP", or
                           ".IP" inside an option's .TP, where .PP would lose its indent */
} roffctx;

static void roff_para(void *ctx, const char *s, size_t n, int verbatim, int first)
{
    const roffctx *r = ctx;
    if (n == 0) return;
    if (verbatim) {
        fputs(".nf\n", r->f);
        roff_text(r->f, s, n, 1);
        fputs("\n.fi\n", r->f);
        return;
    }
    if (!first) fprintf(r->f, "%s\n", r->next);
    roff_text(r->f, s, n, 1);
    fputc('\n', r->f);
}

static void roff_paragraphs(FILE *f, const char *s, const char *next)
{
    roffctx r = { f, next };
    paragraphs(s, roff_para, &r);
}

/* s in capitals, hyphens escaped (the page title). */
static void roff_upper(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '-') fputs("\\-", f);
        else fputc(*s >= 'a' && *s <= 'z' ? *s - 'a' + 'A' : *s, f);
    }
}

/* The SYNOPSIS: per line of the synopsis, "gridbench NAME" in bold
 * (just "gridbench" for the overview page) and the form. */
static void roff_synopsis(const gb_cmd_doc *doc, int overview, FILE *f)
{
    fputs(".SH SYNOPSIS\n", f);
    for (const char *s = doc->synopsis, *e; ; s = e + 1) {
        e = strchr(s, '\n');
        size_t len = e ? (size_t)(e - s) : strlen(s);
        fputs(".B gridbench", f);
        if (!overview) {
            fputc(' ', f);
            roff_text(f, doc->name, strlen(doc->name), 0);
        }
        fputc('\n', f);
        if (len) {
            roff_text(f, s, len, 1);
            fputc('\n', f);
        }
        if (!e) break;
        fputs(".br\n", f);
    }
}

/* A man(7) page from doc: gridbench-NAME(1), or with cmds the overview
 * gridbench(1), which lists cmds[0..n) and refers to their pages. */
static void man_page(const gb_cmd_doc *doc, const gb_opt_cmd *cmds, size_t n, const char *version,
                     const char *date, FILE *f)
{
    const int overview = cmds != NULL;
    fputs(".TH GRIDBENCH", f);
    if (!overview) { fputs("\\-", f); roff_upper(f, doc->name); }
    fprintf(f, " 1 \"%s\" \"gridbench %s\" \"gridbench manual\"\n.SH NAME\ngridbench", date, version);
    if (!overview) { fputs("\\-", f); roff_text(f, doc->name, strlen(doc->name), 0); }
    fputs(" \\- ", f);
    roff_text(f, doc->summary, strlen(doc->summary), 0);
    fputc('\n', f);
    roff_synopsis(doc, overview, f);
    fputs(".SH DESCRIPTION\n", f);
    if (doc->description) roff_paragraphs(f, doc->description, ".PP");
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
        roff_paragraphs(f, o->help, ".IP");
    }
    if (overview) {
        fputs(".SH COMMANDS\n", f);
        for (size_t i = 0; i < n; i++) {
            fputs(".TP\n\\fB", f);
            roff_text(f, cmds[i].name, strlen(cmds[i].name), 0);
            fputs("\\fR\n", f);
            roff_text(f, cmds[i].summary, strlen(cmds[i].summary), 1);
            if (!cmds[i].has_page) {   /* where its options are told, then */
                fputs(" (no page of its own: \\fBgridbench ", f);
                roff_text(f, cmds[i].name, strlen(cmds[i].name), 0);
                fputs(" \\-\\-help\\fR)", f);
            }
            fputc('\n', f);
        }
    }
    if (doc->after) { fputs(".PP\n", f); roff_paragraphs(f, doc->after, ".PP"); }
    if (doc->examples) {
        fputs(".SH EXAMPLES\n.nf\n", f);
        roff_text(f, doc->examples, strlen(doc->examples), 1);
        fputs("\n.fi\n", f);
    }
    if (doc->exit_status) {
        fputs(".SH EXIT STATUS\n", f);
        roff_paragraphs(f, doc->exit_status, ".PP");
    }
    fputs(".SH SEE ALSO\n", f);
    if (!overview) { fputs(".BR gridbench (1)\n", f); return; }
    size_t last = n;
    for (size_t i = 0; i < n; i++)
        if (cmds[i].has_page) last = i;
    for (size_t i = 0; i < n; i++)
        if (cmds[i].has_page) {
            fputs(".BR gridbench\\-", f);
            roff_text(f, cmds[i].name, strlen(cmds[i].name), 0);
            fputs(i == last ? " (1)\n" : " (1),\n", f);
        }
}

void gb_opt_man(const gb_cmd_doc *doc, const char *version, const char *date, FILE *f)
{
    man_page(doc, NULL, 0, version, date, f);
}

void gb_opt_man_overview(const gb_cmd_doc *top, const gb_opt_cmd *cmds, size_t n, const char *version,
                         const char *date, FILE *f)
{
    man_page(top, cmds, n, version, date, f);
}
