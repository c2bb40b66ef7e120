/*
 * gb_cmd.h -- the subcommands of the gridbench binary.  Each takes the
 * argv of its subcommand (argv[0] is the subcommand name), prints its own
 * --help, reports errors on stderr as "gridbench CMD: ..." and returns
 * the process exit status (0, 1 for wrong results, sysexits codes for
 * bad usage or input).  harness/cli/main.c only dispatches.
 */
#ifndef GB_CMD_H
#define GB_CMD_H

#include <stddef.h>
#include <stdint.h>

#include "gb_grid.h"
#include "gb_opt.h"

/* A macro value as a string literal. */
#define GB_STR(x) GB_STR_(x)
#define GB_STR_(x) #x

/* Parse the value of --model for command cmd ("gridbench run"): 0 with
 * *out set, or EX_USAGE after printing "CMD: --model: expected 8-nocut,
 * 8-cut1, 8-cutall, 4 or 8-nocut-water, found 'ARG'" on stderr. */
int gb_cli_model(const char *cmd, const char *arg, gb_model *out);

/* For a command that does not load maps under the water rule: 0, or
 * EX_USAGE after saying so when m is 8-nocut-water. */
int gb_cli_no_water(const char *cmd, gb_model m);

/* A byte count with an optional K, M or G suffix (powers of 1024), > 0,
 * for option opt of command cmd: 0 with *out set, or EX_USAGE after
 * "CMD: OPT: expected a positive byte count ..." on stderr. */
int gb_cli_size(const char *cmd, const char *opt, const char *s, uint64_t *out);

/* The value of --line of command cmd, a scenario line number (>= 1): 0
 * with *out set, or EX_USAGE after "CMD: --line: expected a positive line
 * number, found 'S'" on stderr. */
int gb_cli_line(const char *cmd, const char *s, long *out);

/* One query of a scenario file and its map, for the commands that look at
 * a single query (footprint, trace): the query on line `line` of scen, or
 * with longest the one of largest printed length (the first of equals);
 * its map map_override, else the one the scenario names (as gridbench run
 * finds it), loaded into *map and checked against the query.  *q is the
 * query, mpath (n bytes) the map's path.  0, or a sysexits code with *d
 * filled (no such line: scen's range of lines). */
struct gb_map;
struct gb_query;
struct gb_diag;
int gb_cli_query(const char *scen, long line, int longest, const char *map_override, struct gb_map *map,
                 struct gb_query *q, char *mpath, size_t n, struct gb_diag *d);

/* The --terrain-costs entry of the option tables of the commands that
 * search under a terrain cost model (run, dynamic): one text for all,
 * with option id ID and no short letter.  The value goes to
 * gb_tfile_arg() (an inline list or a costs file, docs/terrain.md). */
#define GB_OPT_TERRAIN_COSTS(ID)                                                                 \
    {                                                                                            \
        (ID), 0, "terrain-costs", "COSTS",                                                       \
            "terrain cost model: 'S=3,W=5,T=inf' (letters . G S T W, costs in (0, 255] or inf) " \
            "or a costs file; default uniform (docs/terrain.md); the model column then reads "   \
            "MODEL+terrain:..."                                                                  \
    }

int gb_cmd_run(int argc, char **argv);
int gb_cmd_merge(int argc, char **argv);
int gb_cmd_list(int argc, char **argv);
int gb_cmd_gen(int argc, char **argv);
/* `gen --dynamic` (gb_cmd_gendyn.c): gb_cmd_gen hands it the same argv. */
int gb_cmd_gen_dynamic(int argc, char **argv);
int gb_cmd_env(int argc, char **argv);
int gb_cmd_heuristics(int argc, char **argv);
int gb_cmd_summary(int argc, char **argv);
int gb_cmd_footprint(int argc, char **argv);
int gb_cmd_trace(int argc, char **argv);
int gb_cmd_report(int argc, char **argv);
int gb_cmd_compare(int argc, char **argv);
int gb_cmd_dynamic(int argc, char **argv);
int gb_cmd_export(int argc, char **argv);
int gb_cmd_gppc(int argc, char **argv);
int gb_cmd_gppc_dynamic(int argc, char **argv);

/* The option tables (gb_opt.h) of the commands that have one: --help, the
 * man page and tests/test_opt.c come from them. */
extern const gb_cmd_doc gb_doc_env;
extern const gb_cmd_doc gb_doc_export;
extern const gb_cmd_doc gb_doc_gppc_dynamic;
extern const gb_cmd_doc gb_doc_gppc;
extern const gb_cmd_doc gb_doc_list;
extern const gb_cmd_doc gb_doc_gen;
extern const gb_cmd_doc gb_doc_compare;
extern const gb_cmd_doc gb_doc_heuristics;
extern const gb_cmd_doc gb_doc_footprint;
extern const gb_cmd_doc gb_doc_trace;
extern const gb_cmd_doc gb_doc_summary;
extern const gb_cmd_doc gb_doc_dynamic;
extern const gb_cmd_doc gb_doc_report;
extern const gb_cmd_doc gb_doc_run;
extern const gb_cmd_doc gb_doc_merge;

#endif
