/*
 * gb_bestfirst.c -- the best-first family: Dijkstra, A*, weighted A* and
 * greedy best-first search, one loop (gb_search_core.pmt with the
 * eight-move expansion) instantiated per (queue, heuristic).
 *
 *   dijkstra        f = g             (h = zero)
 *   astar-H         f = g + h
 *   wastar-H:w=W    f = g + W h       (W >= 1)
 *   gbfs-H          f = h             (wg = 0)
 * H is any heuristic of GB_HEUR_LIST or diff[:k=K] (landmarks, built per
 * map by gb_ws_prepare).
 *
 * The searches for grids with terrain costs (gb_core_w) are in
 * gb_bestfirst_w.c, a translation unit of their own: the 72 instantiated
 * loops take most of the build, and two files compile on two cores.
 *
 * Guarantee (gb_search_core.pmt has the argument): optimal when h is
 * consistent under the model and W = 1 (or h = 0); cost <= W x optimum
 * for a consistent h (no reopening); none for greedy search or an
 * inconsistent h.  Every model is supported, and terrain costs
 * (gb_terrain.h) under 8-nocut and 4.  No per-map state beyond the
 * workspace's arrays and queue (and the landmark table of diff).
 */
#include "gb_family.h"

#include "gb_search_core.pmt"

#define GB_QH_X(T, E, N)                                                          \
    static void bf_##T##_##N(gb_ws *ws, const gb_solver_spec *s, int32_t a, int32_t b, \
                             gb_result *o)                                        \
    { gb_core(ws, s, a, b, o, GB_QT_##T, GB_H_##E); }
GB_FOR_QH()
#undef GB_QH_X

#define GB_QH_X(T, E, N) bf_##T##_##N,
static const gb_search_fn bf_fn[GB_Q_COUNT * GB_H_COUNT] = { GB_FOR_QH() };
#undef GB_QH_X

/* the traced searches (`gridbench trace`): binary heap, every heuristic */
#define GB_QH_X(T, E, N)                                                                          \
    static void bf_tr_##N(gb_ws *ws, const gb_solver_spec *s, int32_t a, int32_t b, gb_result *o) \
    {                                                                                             \
        gb_core_tr(ws, s, a, b, o, GB_H_##E);                                                     \
    }
GB_FOR_H()
#undef GB_QH_X
#define GB_QH_X(T, E, N) bf_tr_##N,
static const gb_search_fn bf_fn_tr[GB_H_COUNT] = { GB_FOR_H() };
#undef GB_QH_X

static gb_guarantee bf_guarantee(const gb_solver_spec *s, gb_model m, double *bound)
{
    *bound = 0.0;
    if (!(s->wg > 0.0 && gb_heur_consistent(s->heur, m))) return GB_GUAR_NONE;
    if (s->wh == 1.0 || s->heur == GB_H_ZERO) { *bound = 1.0; return GB_GUAR_OPTIMAL; }
    *bound = s->wh;
    return GB_GUAR_BOUNDED;
}

static const gb_form bf_forms[] = {
    { .pattern = "dijkstra", .wg = 1.0, .heur = GB_H_ZERO,
      .desc = "best-first with h = 0 (the oracle); optimal" },
    { .pattern = "astar-H", .wg = 1.0, .heur = GB_H_ZERO,
      .desc = "A* with heuristic H; optimal when H is consistent for the model" },
    { .pattern = "wastar-H:w=W", .wg = 1.0, .heur = GB_H_ZERO,
      .desc = "weighted A*, f = g + W h (W >= 1); cost <= W x optimal for consistent H" },
    { .pattern = "gbfs-H", .wg = 0.0, .heur = GB_H_ZERO,
      .desc = "greedy best-first, f = h; no guarantee" },
    { .pattern = "astar-diff:k=K", .wg = 1.0, .heur = GB_H_DIFF, .list_only = 1,
      .desc = "A* with the differential heuristic, K landmarks (default 8); any H takes diff" },
};

static const char *const bf_all[] = {
    "dijkstra", "astar-octile", "astar-euclidean", "astar-chebyshev", "wastar-octile:w=1.5",
    "gbfs-octile", "astar-diff:k=8",
};

const gb_family gb_family_bestfirst = {
    .forms = bf_forms,
    .nforms = GB_COUNTOF(bf_forms),
    .all = bf_all,
    .nall = GB_COUNTOF(bf_all),
    .models = (1u << GB_MODEL_COUNT) - 1,
    .guarantee = bf_guarantee,
    .dirs = 1,
    .fn = bf_fn,
    .fn_w = gb_bestfirst_fn_w,
    .fn_queues = GB_Q_COUNT,
    .fn_heurs = GB_H_COUNT,
    .fn_trace = bf_fn_tr,
};
