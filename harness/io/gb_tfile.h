/*
 * gb_tfile.h -- terrain cost files: a terrain cost model (gb_terrain.h)
 * written as a small text file instead of on the command line.
 *
 * Format: one "LETTER COST" or "LETTER=COST" per line (LETTER one of
 * . G S T W, COST "inf" or a number in (0, 255] with at most two
 * decimals); '#' starts a comment; blank lines are skipped; a letter not
 * named keeps its default (. G S = 1, T W = inf).  docs/terrain.md.
 */
#ifndef GB_TFILE_H
#define GB_TFILE_H

#include "gb_diag.h"
#include "gb_terrain.h"

/* Load the terrain cost model in path into *t.  0, or a sysexits code
 * with *d filled: EX_NOINPUT / EX_IOERR (cannot read), EX_DATAERR (a bad
 * line: "path:line: expected ..., found ..."); *t is then off. */
int gb_tfile_load(const char *path, gb_terrain *t, gb_diag *d);

/* A --terrain-costs argument: inline costs when arg holds '=' (or is
 * "uniform" or empty), else the path of a cost file.  0, or EX_USAGE
 * (bad inline costs) / gb_tfile_load's codes with *d filled. */
int gb_tfile_arg(const char *arg, gb_terrain *t, gb_diag *d);

#endif
