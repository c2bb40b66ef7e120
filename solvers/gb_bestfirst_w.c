/*
 * gb_bestfirst_w.c -- the best-first family's searches on grids with
 * terrain costs (gb_terrain.h): gb_search_core.pmt's weighted loop
 * (gb_core_w) instantiated per (queue, heuristic), in the table
 * gb_bestfirst_fn_w that gb_bestfirst.c's descriptor names as fn_w.
 *
 * A translation unit apart from the uniform searches only so that the
 * build, which spends most of its time in these two files, runs them on
 * two cores; the algorithm and its guarantee are gb_bestfirst.c's.
 */
#include "gb_family.h"

#ifdef GB_NO_TERRAIN_SEARCH
/* The fuzz build (Makefile, FUZZ_NO_TERRAIN): no fuzz target can make a
 * grid with terrain costs -- gb_terrain.c, the only code that gives a grid
 * its cost[], is not linked there -- so these loops would be dead code
 * that takes a third of that build.  Every entry stops the program, so a
 * target that ever reaches one fails at once instead of fuzzing nothing. */
#include <stdio.h>
#include <stdlib.h>

static void bfw_absent(gb_ws *ws, const gb_solver_spec *s, int32_t a, int32_t b, gb_result *o)
{
    (void)ws, (void)s, (void)a, (void)b, (void)o;
    fputs("gb_bestfirst_fn_w: built without the terrain searches (GB_NO_TERRAIN_SEARCH)\n", stderr);
    abort();
}
#define GB_QH_X(T, E, N) bfw_absent,
#else
#include "gb_search_core.pmt"

#define GB_QH_X(T, E, N)                                                                              \
    static void bfw_##T##_##N(gb_ws *ws, const gb_solver_spec *s, int32_t a, int32_t b, gb_result *o) \
    {                                                                                                 \
        gb_core_w(ws, s, a, b, o, GB_QT_##T, GB_H_##E);                                               \
    }
GB_FOR_QH()
#undef GB_QH_X

#define GB_QH_X(T, E, N) bfw_##T##_##N,
#endif
const gb_search_fn gb_bestfirst_fn_w[GB_Q_COUNT * GB_H_COUNT] = { GB_FOR_QH() };
#undef GB_QH_X
