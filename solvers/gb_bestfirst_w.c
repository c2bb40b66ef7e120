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

#include "gb_search_core.pmt"

#define GB_QH_X(T, E, N)                                                                              \
    static void bfw_##T##_##N(gb_ws *ws, const gb_solver_spec *s, int32_t a, int32_t b, gb_result *o) \
    {                                                                                                 \
        gb_core_w(ws, s, a, b, o, GB_QT_##T, GB_H_##E);                                               \
    }
GB_FOR_QH()
#undef GB_QH_X

#define GB_QH_X(T, E, N) bfw_##T##_##N,
const gb_search_fn gb_bestfirst_fn_w[GB_Q_COUNT * GB_H_COUNT] = { GB_FOR_QH() };
#undef GB_QH_X
