/*
 * test_opt.c -- the option tables (harness/cli/gb_opt.h).
 *
 * Per command: every option of every command that has a table parses
 * (long and short form), shows in --help and is in the man page.  The
 * commands come from the binary under test (`gridbench man` lists those
 * with a page); their tables from the library linked into this binary,
 * found by name (gb_doc_NAME, gb_cmd.h) with dlsym -- so a command
 * converted tomorrow is checked without a line changed here.  A table
 * named otherwise is read back from the command's --help (its options
 * are checked all the same; that --help and the page equal the table's
 * rendering is checked only for the library's).
 *
 * gb_opt itself, on a table made for the purpose: wrapping, verbatim
 * lines, usage forms, the parser's ids and messages, roff escaping.
 *
 * Each test says which mutation of the code it catches ("breaks if").
 */
#include <criterion/criterion.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gb_opt.h"
#include "gb_test.h"

#define MAXCMDS 64

static char out[65536], page[65536];

/* ---- helpers ------------------------------------------------------------ */

/* The commands `gridbench man` lists, into names[]; their count. */
static size_t listed(char names[][32], size_t max)
{
    static char list[4096];
    cr_assert_eq(gb_test_sh(list, sizeof list, "%s man", gb_test_bin()), 0, "%s", list);
    size_t n = 0;
    for (char *s = strtok(list, "\n"); s && n < max; s = strtok(NULL, "\n")) {
        cr_assert_lt(strlen(s), 32, "command name '%s'", s);
        strcpy(names[n++], s);
    }
    cr_assert_gt(n, 0, "`gridbench man` lists no command");
    return n;
}

/* A table read back from `gridbench NAME --help` (usage forms and the
 * Options section), for a command whose table the library does not name
 * gb_doc_NAME: its options are checked all the same, its texts not. */
static struct {
    gb_opt opts[64];
    char names[64][48], args[64][32], synopsis[2048];
    gb_cmd_doc doc;
} from_help;

static const gb_cmd_doc *doc_from_help(const char *name)
{
    static char help[65536];
    cr_assert_eq(gb_test_sh(help, sizeof help, "%s %s --help", gb_test_bin(), name), 0, "%s", help);
    char usage[64];
    int ul = snprintf(usage, sizeof usage, "gridbench %s", name);
    size_t k = 0, n = 0;
    from_help.synopsis[0] = '\0';
    enum { USAGE, TEXT, OPTIONS } at = USAGE;
    for (char *l = help, *e; l && at <= OPTIONS; l = e ? e + 1 : NULL) {
        if ((e = strchr(l, '\n')) != NULL) *e = '\0';
        const char *u = strstr(l, usage);
        if (at == USAGE && !*l) {
            at = TEXT;
        } else if (at == USAGE && u && (u[ul] == ' ' || !u[ul]) && (u - l == 7)) {   /* a form */
            k += (size_t)snprintf(from_help.synopsis + k, sizeof from_help.synopsis - k, "%s%s", k ? "\n" : "",
                                  u[ul] ? u + ul + 1 : "");
        } else if (at == USAGE) {   /* a form's continuation */
            k += (size_t)snprintf(from_help.synopsis + k, sizeof from_help.synopsis - k, " %s", l + strspn(l, " "));
        } else if (at == TEXT && strcmp(l, "Options:") == 0) {
            at = OPTIONS;
        } else if (at == OPTIONS && (strncmp(l, "  -", 3) == 0 || strncmp(l, "      --", 8) == 0) && n < 63) {
            gb_opt *o = &from_help.opts[n];
            char letter = 0, *h = l + strspn(l, " ");
            if (h[1] != '-') { letter = h[1]; h += 4; }   /* "-X, " */
            int w = (int)strcspn(h + 2, " ");
            snprintf(from_help.names[n], sizeof from_help.names[n], "%.*s", w, h + 2);
            h += 2 + w;
            from_help.args[n][0] = '\0';
            if (h[0] == ' ' && h[1] != ' ' && h[1] != '\0')
                snprintf(from_help.args[n], sizeof from_help.args[n], "%.*s", (int)strcspn(h + 1, " "), h + 1);
            *o = (gb_opt){ letter ? letter : 256 + (int)n, letter, from_help.names[n],
                           from_help.args[n][0] ? from_help.args[n] : NULL, "(read from --help)" };
            n++;
        } else if (at == OPTIONS && l[0] != ' ') {
            at = OPTIONS + 1;   /* past the Options section */
        }
    }
    from_help.opts[n] = (gb_opt){ 0, 0, NULL, NULL, NULL };
    cr_assert_gt(n, 0, "gridbench %s --help shows no option", name);
    from_help.doc = (gb_cmd_doc){ name, from_help.synopsis, NULL, NULL, from_help.opts, NULL, NULL, NULL };
    return &from_help.doc;
}

/* The table of command name: the library's gb_doc_NAME ('-' as '_'), so
 * that its texts are checked too (*library = 1); else read back from its
 * --help (*library = 0). */
static const gb_cmd_doc *doc_of(const char *name, int *library)
{
    char sym[64];
    int k = snprintf(sym, sizeof sym, "gb_doc_%s", name);
    for (char *p = sym; *p; p++)
        if (*p == '-') *p = '_';
    cr_assert(k > 0 && (size_t)k < sizeof sym);
    void *self = dlopen(NULL, RTLD_NOW);
    cr_assert_not_null(self, "%s", dlerror());
    const gb_cmd_doc *d = dlsym(self, sym);
    dlclose(self);
    *library = d != NULL;
    if (!d) cr_log_warn("%s: no %s in the library (gb_cmd.h names a table gb_doc_NAME); its options are "
                        "read from --help", name, sym);
    return d ? d : doc_from_help(name);
}

/* s with its hyphens as roff writes them (\-), into out. */
static const char *roff_name(const char *s, char *buf, size_t n)
{
    size_t k = 0;
    for (; *s && k + 3 < n; s++) k += (size_t)snprintf(buf + k, n - k, *s == '-' ? "\\-" : "%c", *s);
    buf[k] = '\0';
    return buf;
}

/* Whether s names option `--name` as a whole word. */
static int mentions(const char *s, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = s; (p = strstr(p, "--")) != NULL; p += 2) {
        char c = p[2 + n];
        if (strncmp(p + 2, name, n) == 0 && !(c == '-' || c == '_' || (c >= 'a' && c <= 'z')
                                                || (c >= '0' && c <= '9')))
            return 1;
    }
    return 0;
}

/* The subcommand an option belongs to: the leading lower-case words of
 * the usage form that names it (else of the first form), "build" for
 * `gppc build DIR [--name NAME]`, or "" for a command without any. */
static void subcommand_of(const gb_cmd_doc *doc, const char *name, char *sub, size_t n)
{
    char forms[1024];
    snprintf(forms, sizeof forms, "%s", doc->synopsis);
    const char *form = NULL;
    for (char *save = NULL, *f = strtok_r(forms, "\n", &save); f; f = strtok_r(NULL, "\n", &save)) {
        if (!form) form = f;
        if (mentions(f, name)) { form = f; break; }
    }
    size_t k = 0;
    sub[0] = '\0';
    for (const char *p = form ? form : ""; *p;) {
        size_t w = strspn(p, "abcdefghijklmnopqrstuvwxyz");
        if (w == 0 || (p[w] != ' ' && p[w] != '\0') || k + w + 2 > n) break;
        k += (size_t)snprintf(sub + k, n - k, "%s%.*s", k ? " " : "", (int)w, p);
        p += w;
        p += strspn(p, " ");
    }
}

/* f's text (open_memstream), for the in-process renderings. */
typedef struct memout {
    FILE *f;
    char *buf;
    size_t len;
} memout;

static FILE *mem_open(memout *m)
{
    m->buf = NULL;
    m->len = 0;
    m->f = open_memstream(&m->buf, &m->len);
    cr_assert_not_null(m->f);
    return m->f;
}

static char *mem_close(memout *m)
{
    fclose(m->f);
    return m->buf;   /* the caller frees it */
}

/* stderr into a temporary file between capture_begin and capture_end,
 * which copies its text into err. */
static FILE *captured;
static int saved_stderr = -1;

static void capture_begin(void)
{
    fflush(stderr);
    captured = tmpfile();
    cr_assert_not_null(captured);
    saved_stderr = dup(2);
    cr_assert_geq(saved_stderr, 0);
    dup2(fileno(captured), 2);
}

static void capture_end(char *err, size_t n)
{
    fflush(stderr);
    dup2(saved_stderr, 2);
    close(saved_stderr);
    rewind(captured);
    size_t k = fread(err, 1, n - 1, captured);
    err[k] = '\0';
    fclose(captured);
}

/* Parse argv with doc until the end or the first error; stderr's text
 * goes to err.  Returns gb_opt_next's last value. */
static int parse_capturing(const gb_cmd_doc *doc, int argc, char **argv, char *err, size_t n)
{
    capture_begin();
    gb_opt_parser p;
    cr_assert_eq(gb_opt_begin(&p, doc), 0);
    const char *arg;
    int c;
    while ((c = gb_opt_next(&p, argc, argv, &arg)) != -1 && c != '?' && c != ':') {}
    gb_opt_end(&p);
    capture_end(err, n);
    return c;
}

/* check(name, table, library) for every command `gridbench man` lists
 * (library: the table is the library's, not read back from --help); their
 * count. */
typedef void check_fn(const char *name, const gb_cmd_doc *d, int library);

static size_t each_command(check_fn *check)
{
    char names[MAXCMDS][32];
    size_t n = listed(names, MAXCMDS);
    for (size_t i = 0; i < n; i++) {
        int library;
        const gb_cmd_doc *d = doc_of(names[i], &library);
        check(names[i], d, library);
    }
    return n;
}

/* ---- every command with a table --------------------------------------- */

static int seen_env;

static void check_table(const char *name, const gb_cmd_doc *d, int library)
{
    seen_env |= library && strcmp(name, "env") == 0;
    cr_expect_str_eq(d->name, name);
    if (library) {
        cr_expect(d->synopsis && d->summary && d->description && d->examples, "%s: a text is missing", name);
        /* what doc_from_help reads back is the table: the fallback is sound */
        const gb_cmd_doc *h = doc_from_help(name);
        cr_expect_str_eq(h->synopsis, d->synopsis, "%s: the usage forms read back from --help", name);
        const gb_opt *o = d->opts, *q = h->opts;
        for (; o->name && q->name; o++, q++) {
            cr_expect_str_eq(q->name, o->name, "%s: an option read back from --help", name);
            cr_expect_eq(q->shortname, o->shortname, "%s --%s: its letter read back from --help", name, o->name);
            cr_expect_str_eq(q->arg ? q->arg : "", o->arg ? o->arg : "", "%s --%s: its argument read back", name,
                             o->name);
        }
        cr_expect(!o->name && !q->name, "%s: %s options read back from --help", name, o->name ? "fewer" : "more");
    }
    cr_expect_not_null(gb_opt_find(d, "help"), "%s has no --help", name);
    for (const gb_opt *o = d->opts; o->name; o++) {
        cr_expect(o->help && o->help[0], "%s --%s: no help text", name, o->name);
        cr_expect(o->shortname ? o->id == o->shortname : o->id >= 256,
                  "%s --%s: id %d, expected its short letter or >= 256", name, o->name, o->id);
        for (const gb_opt *q = d->opts; q < o; q++) {
            cr_expect_neq(q->id, o->id, "%s: --%s and --%s share id %d", name, q->name, o->name, o->id);
            cr_expect_str_neq(q->name, o->name, "%s: --%s twice", name, o->name);
        }
    }
}

/* Breaks if a command is listed by `gridbench man` without its gb_doc_NAME
 * in the library, or a table gets two options with one id or one name, an
 * id that is neither its short letter nor >= 256 (the parser would mix two
 * options up), or no --help. */
GB_TEST(opt, every_listed_command_has_a_sound_table_in_the_library)
{
    each_command(check_table);
    cr_expect(seen_env, "`gridbench man` does not list env, which has a table");
}

static char work_dir[] = "/tmp/gb-test-opt-XXXXXX";

/* Whether a command's stderr says its parser refused the command line:
 * gb_opt_next's messages, or those of run, which prints its own (its
 * parser is quiet, gb_opt.h) in the words it always had. */
static int refused(const char *err)
{
    static const char *const said[] = {
        "expected an option of `gridbench", "expected an argument",               /* gb_opt */
        "expected an option listed by --help", ": expected a value, found none",  /* run */
    };
    for (size_t i = 0; i < sizeof said / sizeof said[0]; i++)
        if (strstr(err, said[i])) return 1;
    return 0;
}
static int lines_checked;

static void check_parses(const char *name, const gb_cmd_doc *d, int library)
{
    (void)library;
    const char *bin = gb_test_bin();
    char sub[64];
    subcommand_of(d, "help", sub, sizeof sub);
    int rc = gb_test_sh(out, sizeof out, "cd %s && timeout 60 %s %s %s --gb-no-such-option </dev/null",
                        work_dir, bin, name, sub);
    cr_expect_eq(rc, 64, "%s %s --gb-no-such-option: exit %d", name, sub, rc);
    cr_expect(refused(out), "%s %s: an unknown option is not refused by gb_opt:\n%s", name, sub, out);
    /* a sanitizer build (make check) tries the long forms only, of every
     * third option: the short ones reach the same case, each try starts a
     * process (half a second under ASan), and `make test` tries them all */
    int k = 0;
    for (const gb_opt *o = d->opts; o->name; o++, k++) {
        if (gb_test_san() && k % 3 != 0) continue;
        subcommand_of(d, o->name, sub, sizeof sub);
        for (int form = 0; form < (gb_test_san() ? 1 : 2); form++) {
            char flag[80];
            if (form == 0) snprintf(flag, sizeof flag, "--%s", o->name);
            else if (o->shortname) snprintf(flag, sizeof flag, "-%c", o->shortname);
            else continue;
            rc = gb_test_sh(out, sizeof out, "cd %s && timeout 60 %s %s %s %s %s /nonexistent/gb-opt-operand "
                            "</dev/null", work_dir, bin, name, sub, flag, o->arg ? "dummy" : "");
            lines_checked++;
            cr_expect(!refused(out), "gridbench %s %s %s: refused by the parser:\n%s", name, sub, flag, out);
            cr_expect(rc == 0 || out[0] != '\0', "gridbench %s %s %s: exit %d without a word", name, sub, flag, rc);
            cr_expect_neq(rc, 124, "gridbench %s %s %s: timed out", name, sub, flag);
        }
    }
}

/* Every option, long and short, reaches the command's code: not refused
 * as unknown or as lacking its argument, and not refused in silence (a
 * `switch` without its case falls to `default: return EX_USAGE`, after
 * gb_opt_next said nothing).  A missing operand (/nonexistent/...) stops
 * each command before any work; the run happens in an empty folder.
 * The control (an unknown option must be refused with gb_opt's message)
 * proves that the command line reaches the parser at all -- a subcommand
 * the test did not find would fail it.
 * Breaks if a case is dropped from a command's switch, a short letter is
 * lost (the short-option string is full), or a table names an option its
 * command never parses with gb_opt. */
GB_TEST(opt, every_option_parses_in_its_long_and_short_form, .timeout = 300)
{
    cr_assert_not_null(mkdtemp(work_dir));
    each_command(check_parses);
    cr_expect_geq(lines_checked, gb_test_san() ? 10 : 20, "only %d command lines checked",
                  lines_checked);
    gb_test_sh(NULL, 0, "rm -rf '%s'", work_dir);
}

static void check_help(const char *name, const gb_cmd_doc *d, int library)
{
    cr_assert_eq(gb_test_sh(out, sizeof out, "%s %s --help", gb_test_bin(), name), 0, "%s", out);
    if (library) {
        memout m;
        gb_opt_help(d, mem_open(&m));
        char *want = mem_close(&m);
        cr_expect_str_eq(out, want, "gridbench %s --help is not gb_opt_help of gb_doc_%s", name, name);
        free(want);
    }
    for (const gb_opt *o = d->opts; o->name; o++) {
        char head[128], letter[8] = "";
        if (o->shortname) snprintf(letter, sizeof letter, "-%c, ", o->shortname);
        snprintf(head, sizeof head, "%s--%s%s%s", letter, o->name, o->arg ? " " : "", o->arg ? o->arg : "");
        cr_expect(strstr(out, head) != NULL, "gridbench %s --help does not show '%s'", name, head);
    }
}

/* The binary's --help is its table's, and shows each option as
 * "-X, --name ARG".  Breaks if a command prints a help text of its own,
 * or gb_opt_help skips an option or its argument. */
GB_TEST(opt, every_option_shows_in_help)
{
    each_command(check_help);
}

static void check_man(const char *name, const gb_cmd_doc *d, int library)
{
    cr_assert_eq(gb_test_sh(page, sizeof page, "%s man %s", gb_test_bin(), name), 0, "%s", page);
    cr_expect(strncmp(page, ".TH GRIDBENCH\\-", 15) == 0, "%s", page);
    if (library) {
        memout m;
        gb_opt_man(d, "V", "D", mem_open(&m));   /* all but the .TH line is the binary's */
        char *want = mem_close(&m);
        cr_expect_str_eq(strchr(page, '\n'), strchr(want, '\n'), "gridbench man %s is not gb_opt_man of "
                         "gb_doc_%s", name, name);
        free(want);
    }
    for (const gb_opt *o = d->opts; o->name; o++) {
        char esc[128], want[160];
        snprintf(want, sizeof want, "\\fB\\-\\-%s\\fR", roff_name(o->name, esc, sizeof esc));
        cr_expect(strstr(page, want) != NULL, "gridbench man %s: no %s", name, want);
    }
}

/* Breaks if gb_opt_man skips an option, or a command's page is not its
 * table's. */
GB_TEST(opt, every_option_is_in_the_man_page)
{
    each_command(check_man);
}

static void check_overview_entry(const char *name, const gb_cmd_doc *d, int library)
{
    (void)d;
    (void)library;
    char esc[96], want[128];
    roff_name(name, esc, sizeof esc);
    snprintf(want, sizeof want, ".BR gridbench\\-%s (1)", esc);
    cr_expect(strstr(page, want) != NULL, "gridbench(1) does not refer to %s", want);
    snprintf(want, sizeof want, ".TP\n\\fB%s\\fR\n", esc);
    cr_expect(strstr(page, want) != NULL, "gridbench(1) does not list %s", name);
    cr_assert_eq(gb_test_sh(out, sizeof out, "%s man %s", gb_test_bin(), name), 0);
    cr_expect(strstr(out, ".SH SEE ALSO\n.BR gridbench (1)\n") != NULL, "%s does not refer to gridbench(1)", name);
}

/* Breaks if the overview forgets a command's page or a page forgets the
 * overview. */
GB_TEST(opt, overview_page_refers_to_every_page_and_back)
{
    cr_assert_eq(gb_test_sh(page, sizeof page, "%s man gridbench", gb_test_bin()), 0, "%s", page);
    cr_expect(strncmp(page, ".TH GRIDBENCH 1 ", 16) == 0, "%.80s", page);
    cr_expect(strstr(page, ".SH COMMANDS\n") != NULL);
    each_command(check_overview_entry);
    /* a command without a page is listed too */
    cr_expect(strstr(page, ".TP\n\\fBman\\fR\n") != NULL, "man missing from the overview");
}

/* docs/man/ holds every command's --help as a page a reader sees without
 * building (scripts/docs-man.sh).  Breaks if an option table changes and
 * the pages are not rewritten, or if the check stops seeing a changed or
 * an extra page. */
GB_TEST(opt, docs_man_pages_are_the_help_of_every_command)
{
    GB_TEST_SCRIPT_ONLY();
    const char *bin = gb_test_bin();
    int rc = gb_test_sh(out, sizeof out, "./scripts/docs-man.sh --check %s 2>&1", bin);
    cr_expect_eq(rc, 0, "docs/man is stale (make docs-man): %s", out);
    rc = gb_test_sh(out, sizeof out,
                    "d=$(mktemp -d) && cp docs/man/*.md \"$d\"/ && echo x >>\"$d\"/gridbench-run.md && "
                    ": >\"$d\"/gridbench-nosuch.md && ./scripts/docs-man.sh --check %s \"$d\" 2>&1; "
                    "r=$?; rm -rf \"$d\"; exit $r",
                    bin);
    cr_expect_eq(rc, 1, "%s", out);
    cr_expect(strstr(out, "/gridbench-run.md: expected the text the option table writes") != NULL, "%s",
              out);
    cr_expect(strstr(out, "/gridbench-nosuch.md: expected no page") != NULL, "%s", out);
}

/* Reproducible pages.  Breaks if the date ignores SOURCE_DATE_EPOCH. */
GB_TEST(opt, man_date_is_source_date_epoch)
{
    cr_assert_eq(gb_test_sh(out, sizeof out, "SOURCE_DATE_EPOCH=86400 %s man env | head -1", gb_test_bin()), 0);
    cr_expect(strstr(out, " 1 \"1970-01-02\" ") != NULL, "%s", out);
}

static void check_groff(const char *name, const gb_cmd_doc *d, int library)
{
    (void)d;
    (void)library;
    int rc = gb_test_sh(out, sizeof out, "%s man %s | groff -man -ww -z -Tutf8", gb_test_bin(), name);
    cr_expect(rc == 0 && out[0] == '\0', "gridbench-%s(1): %s", name, out);
}

/* groff's own verdict on every page (skipped without groff).  Breaks if
 * the roff has a stray request or escape. */
GB_TEST(opt, every_page_renders_without_groff_warnings)
{
    if (gb_test_sh(NULL, 0, "command -v groff") != 0) cr_skip_test("groff not installed");
    int rc = gb_test_sh(out, sizeof out, "%s man gridbench | groff -man -ww -z -Tutf8", gb_test_bin());
    cr_expect(rc == 0 && out[0] == '\0', "gridbench(1): %s", out);
    each_command(check_groff);
}

/* ---- gb_opt itself, on a table made for the purpose ---------------------- */

#define LONG_HELP "a help text long enough to need four lines of the help column, whose words must " \
                  "all come out in their order, none of them past the seventy-ninth column, and every " \
                  "line after the first indented to the help column"

enum { T_LONG = 256 };

static const gb_opt t_opts[] = {
    { 'o', 'o', "out", "FILE", "write to FILE" },
    { T_LONG, 0, "long-only", "N", LONG_HELP },
    { 'v', 'v', "verbatim", NULL, "before the code\n  code   with   its  blanks\nafter the code\n\n"
      "a second paragraph" },
    { 'q', 'q', "quiet", NULL, ".leading dot, a back\\slash and -hyphens --twice\n'quoted line start" },
    { 'h', 'h', "help", NULL, "this text" },
    { 0, 0, NULL, NULL, NULL }
};

static const gb_cmd_doc t_doc = {
    "t", "build DIR [--cxxflags FLAGS] [--no-make] [--suboptimal] [--q Q] [--force] [--quiet] "
    "[--another-option VALUE]\nlist",
    "a command of the tests",
    "The description.\n  verbatim   in  the  description\n",
    t_opts, NULL, "t build x \\\n    --out y", NULL
};

/* Breaks if WIDTH or HELP_COL change, a word is lost or reordered, a
 * long-only option is not aligned with the others ("--" at column 6), or
 * a line ends with blanks (the blank line between paragraphs did). */
GB_TEST(opt, help_wraps_long_text_at_79_columns_in_the_help_column)
{
    memout m;
    gb_opt_help(&t_doc, mem_open(&m));
    char *h = mem_close(&m);
    cr_expect(strstr(h, "\n  -o, --out FILE        write to FILE\n") != NULL, "%s", h);
    const char *p = strstr(h, "\n      --long-only N     a help text");
    cr_assert_not_null(p, "%s", h);
    /* the option's lines, up to the next option */
    char words[1024] = "";
    int lines = 0;
    for (const char *s = p + 1; *s && strncmp(s, "  -v", 4) != 0; lines++) {
        const char *e = strchr(s, '\n');
        cr_assert_not_null(e);
        cr_expect_leq(e - s, 79, "line longer than 79 columns: %.*s", (int)(e - s), s);
        if (lines > 0) cr_expect(strncmp(s, "                        ", 24) == 0 && s[24] != ' ', "%.*s", (int)(e - s), s);
        size_t k = strlen(words);
        snprintf(words + k, sizeof words - k, "%s%.*s", k ? " " : "", (int)(e - s - 24), s + 24);
        s = e + 1;
    }
    cr_expect_eq(lines, 4, "%d lines:\n%s", lines, h);
    cr_expect_str_eq(words, LONG_HELP);
    for (const char *s = h; *s;) {
        const char *e = strchr(s, '\n');
        cr_assert_not_null(e);
        if (strncmp(s, "  t build", 9) != 0)   /* an example is verbatim */
            cr_expect_leq(e - s, 79, "line longer than 79 columns: %.*s", (int)(e - s), s);
        cr_expect(e == s || e[-1] != ' ', "a line ends with a blank: '%.*s'", (int)(e - s), s);
        s = e + 1;
    }
    free(h);
}

/* Breaks if a line with two leading blanks is joined to its paragraph or
 * loses its inner blanks. */
GB_TEST(opt, help_keeps_verbatim_lines)
{
    memout m;
    gb_opt_help(&t_doc, mem_open(&m));
    char *h = mem_close(&m);
    cr_expect(strstr(h, "\nThe description.\n  verbatim   in  the  description\n") != NULL, "%s", h);
    cr_expect(strstr(h, "  -v, --verbatim        before the code\n"
                        "                          code   with   its  blanks\n"
                        "                        after the code\n"
                        "\n"
                        "                        a second paragraph\n") != NULL, "%s", h);
    free(h);
}

/* Breaks if the forms run together, the second is not aligned under the
 * first, or a form is wrapped inside brackets. */
GB_TEST(opt, help_shows_one_usage_line_per_form_wrapped_outside_brackets)
{
    memout m;
    gb_opt_help(&t_doc, mem_open(&m));
    char *h = mem_close(&m);
    /* "[--q" would end at column 79, "Q]" beyond it */
    const char *want = "usage: gridbench t build DIR [--cxxflags FLAGS] [--no-make] [--suboptimal]\n"
                       "                   [--q Q] [--force] [--quiet] [--another-option VALUE]\n"
                       "       gridbench t list\n\n";
    cr_expect(strncmp(h, want, strlen(want)) == 0, "%s", h);
    cr_expect(strstr(h, "\nExample:\n  t build x \\\n      --out y\n") != NULL, "one example, continued:\n%s", h);
    free(h);
}

/* Breaks if a long-only option does not return its id, an argument is
 * lost, or the operands are not left at optind. */
GB_TEST(opt, parser_returns_ids_arguments_and_operands)
{
    char a0[] = "t", a1[] = "--long-only", a2[] = "7", a3[] = "operand", a4[] = "-qo", a5[] = "f";
    char *argv[] = { a0, a1, a2, a3, a4, a5, NULL };
    gb_opt_parser p;
    cr_assert_eq(gb_opt_begin(&p, &t_doc), 0);
    const char *arg;
    cr_expect_eq(gb_opt_next(&p, 6, argv, &arg), T_LONG);
    cr_expect_str_eq(arg, "7");
    cr_expect_eq(gb_opt_next(&p, 6, argv, &arg), 'q');
    cr_expect_null(arg);
    cr_expect_eq(gb_opt_next(&p, 6, argv, &arg), 'o');
    cr_expect_str_eq(arg, "f");
    cr_expect_eq(gb_opt_next(&p, 6, argv, &arg), -1);
    gb_opt_end(&p);
    cr_expect_eq(optind, 5);
    cr_expect_str_eq(argv[optind], "operand");
}

/* The messages gb_opt.h documents.  Breaks if the ':' is dropped from the
 * short-option string (getopt then says '?'), a message loses the
 * option's name or argument, or an unknown letter inside a cluster is
 * named by the word before it. */
GB_TEST(opt, missing_argument_and_unknown_option_say_what_was_expected)
{
    char err[512];
    char a0[] = "t", l[] = "--out", s[] = "-o";
    char *m1[] = { a0, l, NULL }, *m2[] = { a0, s, NULL };
    cr_expect_eq(parse_capturing(&t_doc, 2, m1, err, sizeof err), ':');
    cr_expect_str_eq(err, "gridbench t: --out: expected an argument FILE, found none\n");
    cr_expect_eq(parse_capturing(&t_doc, 2, m2, err, sizeof err), ':');
    cr_expect_str_eq(err, "gridbench t: --out: expected an argument FILE, found none\n");

    char b[] = "--bogus", x[] = "-x", cl[] = "-xq", fl[] = "--quiet=1";
    char *u1[] = { a0, b, NULL }, *u2[] = { a0, x, NULL }, *u3[] = { a0, cl, NULL }, *u4[] = { a0, fl, NULL };
    cr_expect_eq(parse_capturing(&t_doc, 2, u1, err, sizeof err), '?');
    cr_expect_str_eq(err, "gridbench t: expected an option of `gridbench t --help`, found '--bogus'\n");
    cr_expect_eq(parse_capturing(&t_doc, 2, u2, err, sizeof err), '?');
    cr_expect_str_eq(err, "gridbench t: expected an option of `gridbench t --help`, found '-x'\n");
    cr_expect_eq(parse_capturing(&t_doc, 2, u3, err, sizeof err), '?');
    cr_expect_str_eq(err, "gridbench t: expected an option of `gridbench t --help`, found '-x'\n");
    cr_expect_eq(parse_capturing(&t_doc, 2, u4, err, sizeof err), '?');
    cr_expect_str_eq(err, "gridbench t: expected an option of `gridbench t --help`, found '--quiet=1'\n");
}

/* A quiet parser leaves the words to its command (run's texts).  Breaks
 * if gb_opt_next prints anyway, or no longer returns '?' and ':' or leaves
 * the offending word at argv[optind - 1]. */
GB_TEST(opt, quiet_parser_returns_errors_without_a_word)
{
    char a0[] = "t", b[] = "--bogus", l[] = "--out", err[512];
    char *u[] = { a0, b, NULL }, *m[] = { a0, l, NULL };
    gb_opt_parser p;
    const char *arg;
    capture_begin();
    cr_assert_eq(gb_opt_begin(&p, &t_doc), 0);
    p.quiet = 1;
    int c1 = gb_opt_next(&p, 2, u, &arg), at1 = optind;
    gb_opt_end(&p);
    cr_assert_eq(gb_opt_begin(&p, &t_doc), 0);
    p.quiet = 1;
    int c2 = gb_opt_next(&p, 2, m, &arg), at2 = optind;
    gb_opt_end(&p);
    capture_end(err, sizeof err);
    cr_expect_eq(c1, '?');
    cr_expect_str_eq(u[at1 - 1], "--bogus");
    cr_expect_eq(c2, ':');
    cr_expect_str_eq(m[at2 - 1], "--out");
    cr_expect_str_eq(err, "");
}

/* Breaks if a leading '.' or '\'' is not protected by \&, a backslash is
 * not \e, a hyphen is not \-, an option's second paragraph uses .PP (which
 * ends its .TP), or any line starts a request man(7) does not know. */
GB_TEST(opt, man_escapes_roff)
{
    memout m;
    gb_opt_man(&t_doc, "9.9", "2000-01-01", mem_open(&m));
    char *r = mem_close(&m);
    /* the two lines are one paragraph: the ' is inside a line, unescaped */
    cr_expect(strstr(r, "\n\\&.leading dot, a back\\eslash and \\-hyphens \\-\\-twice 'quoted line start\n")
              != NULL, "%s", r);
    cr_expect(strstr(r, "\\fB\\-\\-long\\-only\\fR \\fIN\\fR\n") != NULL, "%s", r);
    cr_expect(strstr(r, "after the code\n.IP\na second paragraph\n") != NULL, "%s", r);
    cr_expect(strstr(r, ".nf\n  code   with   its  blanks\n.fi\n") != NULL, "%s", r);
    cr_expect(strstr(r, ".SH SYNOPSIS\n.B gridbench t\nbuild DIR [\\-\\-cxxflags FLAGS]") != NULL, "%s", r);
    cr_expect(strstr(r, "\n.br\n.B gridbench t\nlist\n") != NULL, "%s", r);
    static const char *const known[] = { ".TH ", ".SH ", ".TP\n", ".PP\n", ".IP\n", ".B ", ".BR ", ".nf\n",
                                         ".fi\n", ".br\n" };
    for (const char *s = r; *s; s = strchr(s, '\n') + 1) {
        if (*s == '\'') cr_expect_fail("a line starts with ': %.40s", s);
        if (*s != '.') continue;
        int ok = 0;
        for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) ok |= strncmp(s, known[i], strlen(known[i])) == 0;
        cr_expect(ok, "a line starts an unknown request: %.40s", s);
    }
    free(r);

    /* the same text as a line of its own: the ' is protected too */
    static const gb_opt q_opts[] = { { 'h', 'h', "help", NULL, "'quoted\n\n.dot" }, { 0, 0, NULL, NULL, NULL } };
    const gb_cmd_doc q = { "q-x", "", "s", "d", q_opts, NULL, NULL, NULL };
    gb_opt_man(&q, "9.9", "2000-01-01", mem_open(&m));
    r = mem_close(&m);
    cr_expect(strstr(r, "\n\\&'quoted\n.IP\n\\&.dot\n") != NULL, "%s", r);
    cr_expect(strncmp(r, ".TH GRIDBENCH\\-Q\\-X 1 \"2000-01-01\" \"gridbench 9.9\"", 49) == 0, "%s", r);
    free(r);
}

/* Breaks if gb_opt_only_help lets an option of the table through in
 * silence (`gppc list --name`), or does not leave optind at the operand. */
GB_TEST(opt, only_help_refuses_every_other_option_with_a_message)
{
    char err[512], a0[] = "t", op[] = "operand", o[] = "--out", f[] = "f", b[] = "--bogus";
    char *none[] = { a0, op, NULL }, *other[] = { a0, o, f, NULL }, *unknown[] = { a0, b, NULL };
    capture_begin();
    int rc = gb_opt_only_help(&t_doc, 2, none);
    capture_end(err, sizeof err);
    cr_expect_eq(rc, -1);
    cr_expect_eq(optind, 1);
    cr_expect_str_eq(err, "");
    capture_begin();
    rc = gb_opt_only_help(&t_doc, 3, other);
    capture_end(err, sizeof err);
    cr_expect_eq(rc, 64);
    cr_expect_str_eq(err, "gridbench t: expected no option but --help, found --out\n");
    capture_begin();
    rc = gb_opt_only_help(&t_doc, 2, unknown);
    capture_end(err, sizeof err);
    cr_expect_eq(rc, 64);
    cr_expect_str_eq(err, "gridbench t: expected an option of `gridbench t --help`, found '--bogus'\n");
}
