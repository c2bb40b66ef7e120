/*
 * gb_dynscen.h -- dynamic scenarios (docs/dynamic.md): queries on a map
 * that changes while the agent moves, as events "cells ... become
 * blocked / free", triggered at a fixed step or when the agent comes
 * within a sensing radius.
 *
 * Format (version 1; docs/dynamic.md has the grammar and examples)
 *     gridbench-dynamic 1
 *     query  MAP  W  H  SX  SY  GX  GY
 *     at     T  block|free  X,Y [X,Y ...]
 *     near   R  block|free  X,Y [X,Y ...]
 *   The header is the first line that is neither blank nor a comment
 *   ('#' as first non-blank byte).  Tokens are separated by runs of
 *   spaces/tabs; lines end in LF or CRLF.  Events belong to the query
 *   line above them.  Every query names the same map (MAP of the first
 *   query, kept in map_field).  Integers are digits only: W, H >= 1;
 *   coordinates inside W x H; T >= 1 (agent moves); R >= 1 (Chebyshev
 *   cells).  No event may block the goal of its query.
 *
 * Invariants of a loaded gb_dynscen
 *   - n >= 1; the events of query i are ev[q[i].ev0 .. q[i].ev0 + q[i].nev),
 *     in file order; the cells of event e are cell[e.c0 .. e.c0 + e.nc),
 *     nc >= 1, each inside the query's W x H and never its goal.
 */
#ifndef GB_DYNSCEN_H
#define GB_DYNSCEN_H

#include <stddef.h>
#include <stdint.h>

#include "gb_diag.h"
#include "gb_map.h"

/* The format version this loader reads and the generator writes. */
#define GB_DYN_VERSION 1

typedef enum gb_dyn_trigger {
    GB_DYN_AT = 0,      /* applied after the agent's T-th move */
    GB_DYN_NEAR         /* applied when the agent is within R of a cell */
} gb_dyn_trigger;

typedef struct gb_dyn_cell {
    int32_t x, y;
} gb_dyn_cell;

typedef struct gb_dyn_event {
    long line;          /* 1-based line in the file */
    gb_dyn_trigger trigger;
    int32_t value;      /* T for GB_DYN_AT, R for GB_DYN_NEAR */
    int block;          /* 1: the cells become blocked; 0: free */
    size_t c0, nc;      /* its cells: cell[c0 .. c0 + nc) */
} gb_dyn_event;

typedef struct gb_dyn_query {
    long line;                /* 1-based line of the query line */
    int32_t map_w, map_h;     /* map size as printed */
    int32_t sx, sy, gx, gy;   /* start and goal */
    size_t ev0, nev;          /* its events: ev[ev0 .. ev0 + nev) */
} gb_dyn_query;

typedef struct gb_dynscen {
    char *path;          /* malloc'd copy of the file name (may be NULL) */
    int version;         /* GB_DYN_VERSION */
    char *map_field;     /* MAP of the queries */
    gb_dyn_query *q;     /* queries, file order */
    size_t n;
    gb_dyn_event *ev;    /* events of all queries, file order */
    size_t nev;
    gb_dyn_cell *cell;   /* cells of all events */
    size_t ncell;
} gb_dynscen;

/* Load the dynamic scenario at path into *s.  Returns 0, or a sysexits
 * code with *d filled ("file:line:col: expected ..., found ..." with the
 * input quoted by gb_diag_quote): EX_NOINPUT, EX_IOERR, EX_DATAERR (bad
 * content, including a file without queries), EX_OSERR.  On failure *s
 * is zeroed and owns nothing.  Never prints, never exits. */
int gb_dynscen_load(const char *path, gb_dynscen *s, gb_diag *d);

/* Same from buf[0..len); path names the input in diagnostics. */
int gb_dynscen_parse(const char *path, const char *buf, size_t len, gb_dynscen *s,
                     gb_diag *d);

/* Release everything *s owns and zero it.  Safe on a zeroed one. */
void gb_dynscen_free(gb_dynscen *s);

/* Check query i against map *m: W and H equal the map's, start and goal
 * passable.  0 (and *d cleared), EX_DATAERR naming the file, the line
 * and the column, or EX_SOFTWARE when i >= s->n.  (Event cells may be
 * blocked or free on the map: a change that changes nothing is legal.) */
int gb_dynscen_check_query(const gb_dynscen *s, size_t i, const gb_map *m, gb_diag *d);

/* Find the map file, as gb_scen_resolve_map() does for a .scen (the map
 * field beside the file, then its base name beside it). */
int gb_dynscen_resolve_map(const gb_dynscen *s, char *out, size_t outsz, gb_diag *d);

/* Write *s in the format above (LF ends, one event per line, cells as
 * X,Y) through a temporary file renamed over path.  0, or EX_CANTCREAT /
 * EX_IOERR with *d filled. */
int gb_dynscen_write(const char *path, const gb_dynscen *s, gb_diag *d);

#endif
