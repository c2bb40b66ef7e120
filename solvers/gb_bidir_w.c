/*
 * gb_bidir_w.c -- the bidirectional family's searches on grids with
 * terrain costs (gb_terrain.h): gb_bidir.pmt's driver with WT = 1,
 * instantiated per (queue, heuristic) in the table gb_bidir_fn_w that
 * gb_bidir.c's descriptor names as fn_w.  A translation unit of its own
 * only so that the build runs it beside gb_bidir.c on two cores.
 */
#ifdef GB_NO_TERRAIN_SEARCH
/* The fuzz build: no terrain grid there (see gb_bestfirst_w.c). */
#include <stdio.h>
#include <stdlib.h>

#include "gb_family.h"

static void bdw_absent(gb_ws *ws, const gb_solver_spec *s, int32_t a, int32_t b, gb_result *o)
{
    (void)ws, (void)s, (void)a, (void)b, (void)o;
    fputs("gb_bidir_fn_w: built without the terrain searches (GB_NO_TERRAIN_SEARCH)\n", stderr);
    abort();
}
#define GB_QH_X(T, E, N) bdw_absent,
#else
#include "gb_bidir.pmt"

#define GB_QH_X(T, E, N)                                                                              \
    static void bdw_##T##_##N(gb_ws *ws, const gb_solver_spec *s, int32_t a, int32_t b, gb_result *o) \
    {                                                                                                 \
        bd_core(ws, s, a, b, o, GB_QT_##T, GB_H_##E, 1);                                              \
    }
GB_FOR_QH()
#undef GB_QH_X

#define GB_QH_X(T, E, N) bdw_##T##_##N,
#endif
const gb_search_fn gb_bidir_fn_w[GB_Q_COUNT * GB_H_COUNT] = { GB_FOR_QH() };
#undef GB_QH_X
