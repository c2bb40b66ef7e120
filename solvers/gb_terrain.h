/*
 * gb_terrain.h -- terrain cost models: what a step costs when the map's
 * letters (swamp, water, trees, ground) cost different amounts.
 *
 * Data structure
 *   A gb_terrain gives each weighted letter of a Moving AI map
 *   (GB_TERRAIN_LETTERS = ". G S T W") an integer cost q[i] in units of
 *   1/den, or 0 = impassable; '@' and 'O' (out of bounds) are always
 *   impassable.  gb_terrain_apply() turns a map's letters into the grid's
 *   pass[] and cost[] (gb_grid.h): cost[id] = q of the cell's letter, 0
 *   for blocked and border cells.  Off (on == 0) is the uniform Moving AI
 *   model, and a grid without cost[] is searched exactly as before.
 *
 * The cost of a move (the mean rule: a move costs its length times the
 * mean cost of the cells it touches; a diagonal touches four):
 *   straight step p -> r:           (c(p) + c(r)) / 2
 *   diagonal step p -> r, corners u, v:  sqrt2 * (c(p) + c(r) + c(u) + c(v)) / 4
 * with c = q / den.  A diagonal step needs both corners passable
 * (8-nocut) so that all four costs exist; the cutting models are refused.
 *
 * Exact costs (the proof asked for by gb_exact.h).  Measure costs in
 * units of 1 / (4 den): then a straight step costs the integer
 * 2 (q(p) + q(r)) and a diagonal one the integer (q(p) + q(r) + q(u) +
 * q(v)) times sqrt2.  A path's cost is therefore A + B sqrt2 with integers
 * A = sum of its straight steps' 2(q + q'), B = sum of its diagonal steps'
 * four-cell sums: exactly the form a + b sqrt2 of gb_exact.h, in units
 * of 1/cscale, cscale = 4 den.  D(A, B) = A S + B T then orders paths
 * exactly (gb_exact.h's claim holds for any integers in its domain, not
 * only step counts), provided A + B <= 2^31 for every key a search forms:
 * one step adds at most 4 qmax to A + B, a search's g is the cost of a
 * path of fewer than ncells steps, and the scaled octile heuristic below
 * adds at most 4 qmin (W + H); so 4 qmax (ncells + W + H) <= 2^31
 * suffices (gb_grid_exact_ok()).  The real cost is (A + B sqrt2) / cscale,
 * computed by one expression so that solver and validator agree bit for
 * bit.
 *
 * Heuristics.  Every step costs at least qmin/den times its uniform cost
 * (a mean of costs >= qmin/den), so a uniform admissible (consistent)
 * heuristic times qmin/den is admissible (consistent): the searches scale
 * by it.  Unscaled octile overestimates when some letter costs less than
 * 1 (measured by `gridbench heuristics`, docs/terrain.md).
 *
 * No I/O: the CLI reads a costs file and passes its text here.
 */
#ifndef GB_TERRAIN_H
#define GB_TERRAIN_H

#include <stddef.h>
#include <stdint.h>

#include "gb_grid.h"

#define GB_TERRAIN_NLETTERS 5
#define GB_TERRAIN_LETTERS ".GSTW"
/* Largest cost accepted, and the finest fraction (two decimals). */
#define GB_TERRAIN_MAX_COST 255
#define GB_TERRAIN_MAX_DEN 100

typedef struct gb_terrain {
    int on;                            /* 0: uniform Moving AI model (the default) */
    uint16_t q[GB_TERRAIN_NLETTERS];   /* cost of letter i in units of 1/den; 0 = impassable */
    uint16_t den;                      /* 1, or the denominator the given decimals need */
    char name[96];                     /* canonical form, "terrain:.=1;G=1;S=3;T=inf;W=5",
                                          or "" when off */
} gb_terrain;

/* Parse spec, a comma-separated list LETTER=COST (LETTER one of ". G S T
 * W", COST "inf" or a number 0 < COST <= 255 with at most two decimals),
 * over the defaults . G S = 1, T W = inf (Moving AI's passability).
 * 0, or -1 with "expected ..., found ..." in err (errsz bytes) and *t
 * off.  The empty string and "uniform" give the model off. */
int gb_terrain_parse(const char *spec, gb_terrain *t, char *err, size_t errsz);

/* Apply t to the grid g whose W x H letters are chars (row-major, the
 * loader's terrain[]): pass[] from the letters' passability, and
 * cost[], cscale, qmin, qmax (gb_grid.h).  Off: nothing changes.  0, or
 * -1 with errno = ENOMEM (g then unchanged). */
int gb_terrain_apply(const gb_terrain *t, const char *chars, gb_grid *g);

/* The cost of letter ch under t, as a double (INFINITY when impassable;
 * 1 or INFINITY by Moving AI's rules when t is off). */
double gb_terrain_letter_cost(const gb_terrain *t, char ch);

#endif
