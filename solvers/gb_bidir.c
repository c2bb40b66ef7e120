/*
 * gb_bidir.c -- the bidirectional family: bidirectional Dijkstra
 * ("bidijkstra") and A* ("biastar-H"), the driver of gb_bidir.pmt (its
 * head has the algorithm, the stopping rule and the guarantee)
 * instantiated per (queue, heuristic) for uniform grids, and the family's
 * descriptor.  The instantiations for terrain costs are gb_bidir_w.c's.
 */
#include "gb_bidir.pmt"

#define GB_QH_X(T, E, N)                                                                             \
    static void bd_##T##_##N(gb_ws *ws, const gb_solver_spec *s, int32_t a, int32_t b, gb_result *o) \
    {                                                                                                \
        bd_core(ws, s, a, b, o, GB_QT_##T, GB_H_##E, 0, 0);                                          \
    }
GB_FOR_QH()
#undef GB_QH_X

#define GB_QH_X(T, E, N) bd_##T##_##N,
static const gb_search_fn bd_fn[GB_Q_COUNT * GB_H_COUNT] = { GB_FOR_QH() };
#undef GB_QH_X

/* the traced searches (`gridbench trace`): binary heap, every heuristic */
#define GB_QH_X(T, E, N)                                                                          \
    static void bd_tr_##N(gb_ws *ws, const gb_solver_spec *s, int32_t a, int32_t b, gb_result *o) \
    {                                                                                             \
        bd_core(ws, s, a, b, o, GB_QT_bheap, GB_H_##E, 0, 1);                                     \
    }
GB_FOR_H()
#undef GB_QH_X
#define GB_QH_X(T, E, N) bd_tr_##N,
static const gb_search_fn bd_fn_tr[GB_H_COUNT] = { GB_FOR_H() };
#undef GB_QH_X

static gb_guarantee bd_guarantee(const gb_solver_spec *s, gb_model m, double *bound)
{
    int cons = gb_heur_consistent(s->heur, m);
    *bound = cons ? 1.0 : 0.0;
    return cons ? GB_GUAR_OPTIMAL : GB_GUAR_NONE;
}

static const gb_form bd_forms[] = {
    { .pattern = "bidijkstra", .wg = 1.0, .heur = GB_H_ZERO,
      .desc = "bidirectional Dijkstra; optimal" },
    { .pattern = "biastar-H", .wg = 1.0, .heur = GB_H_ZERO,
      .desc = "bidirectional A*, average potentials; optimal for consistent H" },
};
static const char *const bd_all[] = { "bidijkstra", "biastar-octile" };

const gb_family gb_family_bidir = {
    .forms = bd_forms,
    .nforms = GB_COUNTOF(bd_forms),
    .all = bd_all,
    .nall = GB_COUNTOF(bd_all),
    .models = (1u << GB_MODEL_COUNT) - 1,
    .guarantee = bd_guarantee,
    .dirs = 2,
    .fn = bd_fn,
    .fn_w = gb_bidir_fn_w,
    .fn_queues = GB_Q_COUNT,
    .fn_heurs = GB_H_COUNT,
    .fn_trace = bd_fn_tr,
};
