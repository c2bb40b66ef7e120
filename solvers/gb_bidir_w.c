/*
 * gb_bidir_w.c -- the bidirectional family's searches on grids with
 * terrain costs (gb_terrain.h): gb_bidir.pmt's driver with WT = 1,
 * instantiated per (queue, heuristic) in the table gb_bidir_fn_w that
 * gb_bidir.c's descriptor names as fn_w.  A translation unit of its own
 * only so that the build runs it beside gb_bidir.c on two cores.
 */
#include "gb_bidir.pmt"

#define GB_QH_X(T, E, N)                                                                              \
    static void bdw_##T##_##N(gb_ws *ws, const gb_solver_spec *s, int32_t a, int32_t b, gb_result *o) \
    {                                                                                                 \
        bd_core(ws, s, a, b, o, GB_QT_##T, GB_H_##E, 1, 0);                                           \
    }
GB_FOR_QH()
#undef GB_QH_X

#define GB_QH_X(T, E, N) bdw_##T##_##N,
const gb_search_fn gb_bidir_fn_w[GB_Q_COUNT * GB_H_COUNT] = { GB_FOR_QH() };
#undef GB_QH_X
