/*
 * gb_dyntrace.h -- the trace of `gridbench dynamic --trace FILE`: every
 * event applied, every D* Lite plan and every move of the agent, one
 * line each, so that anyone can re-check a run with a map reader and a
 * shortest-path search of their own (docs/dynamic.md, "Trace").
 *
 * Format (version 1; fields separated by one space, lines end in LF):
 *     gridbench-dynamic-trace 1                 first line
 *     file PATH                                 a scenario file (as given)
 *     map W H MODEL PATH                        its map, as read
 *     query Q LINE SX,SY GX,GY                  CSV row `query` Q of the file
 *     event Q T LINE block|free [X,Y ...]       fired at step T: these cells
 *                                               now have that state
 *     drop Q T X,Y                              a block of the agent's cell,
 *                                               not applied
 *     plan Q T COST STRAIGHT DIAG X,Y ...       D* Lite's path, agent..goal
 *     plan Q T none                             no path
 *     move Q T X,Y                              the agent after its T-th move
 *     end Q STATUS STEPS TRAVELLED              the row's outcome
 *   PATH is the rest of the line; its bytes below 0x20, 0x7f and '\' are
 *   written as \xHH.  COST and TRAVELLED with 8 decimals (as in the CSV);
 *   STRAIGHT and DIAG are exact step counts.  Readers skip lines of a
 *   kind they do not know (later versions may add kinds).
 *
 * Order: header; per file, `file` and `map`; per query, `query`, then
 * what happened in time order (events before the plan they cause), then
 * `end`.  The writer only prints: the caller owns the stream (a
 * temporary file renamed when complete) and checks it for errors.
 */
#ifndef GB_DYNTRACE_H
#define GB_DYNTRACE_H

#include <stdio.h>

#include "gb_dynreplay.h"

#define GB_DYNTRACE_MAGIC "gridbench-dynamic-trace"
#define GB_DYNTRACE_VERSION 1

typedef struct gb_dyntrace {
    FILE *f;             /* the trace (not owned) */
    const gb_grid *g;    /* the map of the current file (ids to X,Y) */
    size_t q;            /* the current query's number Q (1-based) */
} gb_dyntrace;

/* Start a trace on f: the header line.  *t is ready for gb_dyntrace_file. */
void gb_dyntrace_begin(gb_dyntrace *t, FILE *f);

/* A scenario file dscen whose map, read from map, is grid g, replayed
 * under model m. */
void gb_dyntrace_file(gb_dyntrace *t, const char *dscen, const char *map, const gb_grid *g,
                      gb_model m);

/* Query number qno (1-based, the CSV's `query`) of the file, q. */
void gb_dyntrace_query(gb_dyntrace *t, size_t qno, const gb_dyn_query *q);

/* The observer that writes the event, drop, plan and move lines of the
 * current query (pass it to gb_dynrep_query). */
gb_dynrep_obs gb_dyntrace_obs(gb_dyntrace *t);

/* The current query ended with *row. */
void gb_dyntrace_end(gb_dyntrace *t, const gb_dynrep_row *row);

#endif
