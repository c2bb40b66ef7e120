/*
 * noterrain.c -- the terrain search tables of the fuzz build, as
 * stubs that stop the program.
 *
 * No fuzz target can make a grid with terrain costs: gb_terrain.c, the
 * only code that gives a grid its cost[], is not in the fuzz archive.  The
 * instantiated loops for such grids (gb_bestfirst_w.c, gb_bidir_w.c) would
 * be dead code taking a third of that build, so the Makefile links these
 * tables instead (FUZZ_LIB_SRC).  Every entry aborts, so a target that
 * ever reaches one fails at once instead of fuzzing nothing.
 */
#include <stdio.h>
#include <stdlib.h>

#include "gb_family.h"

static void absent(gb_ws *ws, const gb_solver_spec *s, int32_t a, int32_t b, gb_result *o)
{
    (void)ws, (void)s, (void)a, (void)b, (void)o;
    fputs("fuzz: a terrain search was reached, but the fuzz build has none (fuzz/noterrain.c)\n",
          stderr);
    abort();
}

#define GB_QH_X(T, E, N) absent,
const gb_search_fn gb_bestfirst_fn_w[GB_Q_COUNT * GB_H_COUNT] = { GB_FOR_QH() };
const gb_search_fn gb_bidir_fn_w[GB_Q_COUNT * GB_H_COUNT] = { GB_FOR_QH() };
#undef GB_QH_X
