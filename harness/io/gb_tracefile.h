/*
 * gb_tracefile.h -- search traces as text (docs/trace.md, format 1):
 * written from a recorded search (solvers/gb_trace.h), and checked when
 * another program wrote them.
 *
 * A trace file is a header (the map's name, size and rows, the query) and
 * one or more searches, each "search NAME K=V..." .. events .. "path" ..
 * "end K=V...".  Cells are map cells in row-major order (y * W + x), not
 * the padded grid's ids; side 0 searches from the start, 1 from the goal.
 *
 * Invariants of a file gb_tracefile_check accepts: every line parses; the
 * rows are exactly H lines of W characters; every cell is in [0, W*H) and
 * passable; every `x` or `t` cell was generated before on its side; a
 * search's `x` lines number its `end` line's expanded= when it gives one.
 */
#ifndef GB_TRACEFILE_H
#define GB_TRACEFILE_H

#include <stddef.h>
#include <stdio.h>

#include "gb_diag.h"
#include "gb_map.h"
#include "gb_scen.h"
#include "gb_search.h"
#include "gb_trace.h"

/* The header: version line, map name (blanks and '<' replaced by '_'),
 * size and rows of m, and the query q (its printed length as the
 * optimum, "-" when negative). */
void gb_tracefile_head(FILE *f, const char *map_name, const gb_map *m, const gb_query *q);

/* One search of solver `name` on g: the search line with its KEY=VALUE
 * words kv (queue, model, heuristic, wg, wh), t's events as text lines,
 * the path of r and the end line with r's status, cost and counters. */
void gb_tracefile_search(FILE *f, const gb_grid *g, const char *name, const char *kv, const gb_trace *t,
                         const gb_result *r);

/* What gb_tracefile_check found. */
typedef struct gb_tracefile_info {
    int searches;
    long width, height;
    long events; /* g, x and t lines */
} gb_tracefile_info;

/* Check text (len bytes, the contents of path) against format 1 and the
 * invariants above.  0, or EX_DATAERR with *d naming path:line, what was
 * expected and what was found; EX_OSERR out of memory. */
int gb_tracefile_check(const char *path, const char *text, size_t len, gb_tracefile_info *info,
                       gb_diag *d);

#endif
