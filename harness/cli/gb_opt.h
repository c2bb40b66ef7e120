/*
 * gb_opt.h -- every option of a command written once.
 *
 * A command describes itself in one gb_cmd_doc: its synopsis, a
 * description, a table of options (name, short letter, argument, help
 * text), examples and exit statuses.  From that one table come
 *   - the parser: gb_opt_next() builds getopt_long()'s short-option string
 *     and long-option array from the table and returns each option's id,
 *     so a command keeps its `switch` over ids and nothing else;
 *   - `--help`: gb_opt_help() lays the same table out for a terminal;
 *   - the man page: gb_opt_man() writes roff (man(7)) for
 *     `gridbench-CMD(1)`, and gb_opt_man_overview() the overview
 *     gridbench(1) from main.c's table of commands; `make man` saves
 *     them and `make install` installs them;
 *   - docs/: the command pages link to the man pages, and
 *     tests/test_opt.c checks that every option of every table parses,
 *     shows in --help and appears in the man page.
 *
 * Help texts are plain text; a blank line separates paragraphs, and a
 * line starting with two spaces is kept as is (a code line).  Ids are the
 * short letter when there is one, else a value >= 256 unique in the table.
 *
 * Why not help2man: it rebuilds a man page by parsing --help text with
 * heuristics (indentation, "usage:" lines); here the structure is known,
 * so the roff is written from it exactly, and no tool is needed at build
 * time.
 */
#ifndef GB_OPT_H
#define GB_OPT_H

#include <stddef.h>
#include <stdio.h>

typedef struct gb_opt {
    int id;                  /* returned by gb_opt_next: the short letter, or >= 256 */
    char shortname;          /* 0: none */
    const char *name;        /* the long name, without "--" */
    const char *arg;         /* the argument's name ("N", "FILE"), or NULL for a flag */
    const char *help;        /* what it does (see the file head for the layout) */
} gb_opt;

typedef struct gb_cmd_doc {
    const char *name;        /* "run" */
    const char *synopsis;    /* after "gridbench NAME ": "[OPTIONS] SCEN..."; one line per
                                form ("build DIR\nlist"), each shown as "gridbench NAME FORM" */
    const char *summary;     /* one line, for the man page's NAME and `gridbench --help` */
    const char *description; /* paragraphs before the options */
    const gb_opt *opts;      /* the table, ending with an entry whose name is NULL */
    const char *after;       /* paragraphs after the options (NULL: none) */
    const char *examples;    /* one command per line (the lines of "Example:"); a line
                                ending in a backslash continues on the next */
    const char *exit_status; /* "0 ...; 1 ...", or NULL */
} gb_cmd_doc;

/* Parser state: what getopt_long needs, built once per command. */
typedef struct gb_opt_parser {
    const gb_cmd_doc *doc;
    char shortopts[160];
    void *longopts;          /* struct option[], malloc'd */
    int quiet;               /* 1 (set after gb_opt_begin): gb_opt_next says nothing on '?'
                                or ':', the command says it (run keeps its own texts) */
} gb_opt_parser;

/* Prepare to parse argv with doc's table (resets getopt's optind).  0, or
 * -1 out of memory. */
int gb_opt_begin(gb_opt_parser *p, const gb_cmd_doc *doc);

/* The next option's id, with its argument in *arg (NULL for a flag); -1
 * at the end of the options (optind is then the first operand); '?' for
 * an unknown option and ':' for a missing argument, after a message on
 * stderr naming the command, the option and the expected form (none when
 * p->quiet; argv[optind - 1] is then the offending word, as getopt_long
 * leaves it). */
int gb_opt_next(gb_opt_parser *p, int argc, char **argv, const char **arg);

/* Free what gb_opt_begin allocated. */
void gb_opt_end(gb_opt_parser *p);

/* All the parsing of a command whose only option is --help (list, man):
 * -1 when argv holds no option (optind is then the first operand), 0
 * after printing the help on stdout, EX_USAGE after gb_opt_next's message,
 * EX_OSERR out of memory. */
int gb_opt_only_help(const gb_cmd_doc *doc, int argc, char **argv);

/* Write the --help text (usage, description, options, examples, exit
 * statuses) to f. */
void gb_opt_help(const gb_cmd_doc *doc, FILE *f);

/* Write the man page gridbench-NAME(1) in roff to f; version and date go
 * in its footer. */
void gb_opt_man(const gb_cmd_doc *doc, const char *version, const char *date, FILE *f);

/* One command as the overview page gridbench(1) lists it. */
typedef struct gb_opt_cmd {
    const char *name;
    const char *summary;
    int has_page;            /* gridbench-NAME(1) exists: SEE ALSO names it */
} gb_opt_cmd;

/* Write the overview page gridbench(1) in roff to f: top describes the
 * binary itself (its name and options are gridbench's own), then a
 * COMMANDS section lists cmds[0..n) with their summaries, and SEE ALSO
 * names the page of every command that has one. */
void gb_opt_man_overview(const gb_cmd_doc *top, const gb_opt_cmd *cmds, size_t n, const char *version,
                         const char *date, FILE *f);

/* The option of doc called name (without "--"), or NULL. */
const gb_opt *gb_opt_find(const gb_cmd_doc *doc, const char *name);

#endif
