/*
 * gb_sgfam.c -- the subgoal-graph families `sg`, `sg-tl` and `sg-tl-dt`
 * (sg-tl plus the distance table of its global subgoals): the
 * standalone module gb_subgoal.{h,c} (construction, invariants and the
 * optimality proof are in its file head) registered by three descriptors.
 *
 * Per map, prepare builds the graph (gb_sg_build) into the family's state
 * -- timed into prep_ns, never inside gb_solve -- and the search is one
 * gb_sg_query per query, its cell path written into the workspace's path
 * buffer (ncells ids, more than the npassable a query can need) so the
 * validator checks every step.  Three families, not one with variants,
 * so that running one of them builds only what it needs.
 *
 * The graph searches with its own indexed binary heap, so the families
 * take no gridbench queue (dirs 0, queue column "own-heap"; sg-tl-dt,
 * with its table, searches nothing: its expanded count is 0 and generated
 * counts the table indices its two sides touched).  Its size
 * depends on the map's content (subgoals, edges): bytes() is the lower
 * bound the dimensions give (20 bytes per cell: the subgoal index and the
 * two clearance tables), state_bytes the exact figure once built (gb_sg_bytes),
 * which is what mem_bytes and --max-mem go by after the build.
 * --max-expanded counts graph nodes expanded, --max-ms is checked every
 * GB_SG_TIME_CHECK of them (gb_sg_query_limited); either ends the query
 * as GB_LIMIT.  A query that sg-tl-dt answers from its table (no search,
 * work bounded by the two sides' sizes) ignores both limits.
 */
#include <errno.h>
#include <math.h>

#include "gb_family.h"
#include "gb_subgoal.h"

static size_t sg_bytes(int32_t width, int32_t height, const gb_solver_spec *s)
{
    (void)s;
    return 20 * ((size_t)width + 2) * ((size_t)height + 2);
}

static size_t sg_state_bytes(const void *state)
{
    return gb_sg_bytes((const gb_sg *)state);
}

static int sg_build(gb_ws *ws, void **state, int two_level)
{
    gb_sg *g = NULL;
    if (gb_sg_build(&g, ws->grid, two_level) != 0) return -1;   /* errno set */
    *state = g;
    return 0;
}

static int sg_prepare(gb_ws *ws, const gb_solver_spec *s, void **state)
{
    (void)s;
    return sg_build(ws, state, 0);
}

static int sgtl_prepare(gb_ws *ws, const gb_solver_spec *s, void **state)
{
    (void)s;
    return sg_build(ws, state, 1);
}

static int sgtldt_prepare(gb_ws *ws, const gb_solver_spec *s, void **state)
{
    (void)s;
    return sg_build(ws, state, 2);
}

static void sg_release(void *state) { gb_sg_free((gb_sg *)state); }

static void sg_query(gb_ws *ws, const gb_solver_spec *s, gb_sg *g, int32_t start, int32_t goal,
                     gb_result *out)
{
    gb_sg_stats st;
    int32_t len = 0;
    double cost = 0.0;
    memset(out, 0, sizeof *out);
    int r = gb_sg_query_limited(g, start, goal, ws->path, ws->grid->ncells, &len, &cost, &st,
                                s->max_expanded, gb_deadline_of(s));
    out->path = ws->path;
    out->st.expanded = st.expanded;
    out->st.generated = st.generated;
    out->st.pushes = st.pushes;
    out->st.pops = st.pops;
    out->st.decreases = st.decreases;
    out->st.peak_open = st.peak_open;
    if (r == GB_SG_FOUND) {
        out->status = GB_FOUND;
        out->cost = cost;
        out->path_len = len;
    } else if (r == GB_SG_LIMIT) {
        out->status = GB_LIMIT;
        out->cost = INFINITY;
    } else {   /* unreachable (a bad endpoint cannot reach here: the harness checks them) */
        out->status = GB_UNREACHABLE;
        out->cost = INFINITY;
    }
}

static void sg_search(gb_ws *ws, const gb_solver_spec *s, int32_t start, int32_t goal, gb_result *out)
{
    sg_query(ws, s, (gb_sg *)ws->fam[s->algo], start, goal, out);
}

static const gb_search_fn sg_fn[1] = { sg_search };

static const gb_form sg_forms[] = {
    { .pattern = "sg", .wg = 1.0, .heur = GB_H_OCTILE,
      .desc = "simple subgoal graph (Uras, Koenig & Hernandez 2013): subgoals at obstacle "
              "corners, h-reachable edges, built per map; model 8-nocut only; optimal" },
};
static const char *const sg_all[] = { "sg" };

static const gb_form sgtl_forms[] = {
    { .pattern = "sg-tl", .wg = 1.0, .heur = GB_H_OCTILE,
      .desc = "two-level subgoal graph (Uras & Koenig): the search sees global subgoals "
              "and the local ones start and goal reach; model 8-nocut only; optimal" },
};
static const char *const sgtl_all[] = { "sg-tl" };

static const gb_form sgtldt_forms[] = {
    { .pattern = "sg-tl-dt", .wg = 1.0, .heur = GB_H_OCTILE,
      .desc = "sg-tl plus a precomputed table of the distances between its global subgoals "
              "(a gridbench variant): no graph search when they are at most 1024; model "
              "8-nocut only; optimal" },
};
static const char *const sgtldt_all[] = { "sg-tl-dt" };

const gb_family gb_family_sg = {
    .forms = sg_forms, .nforms = GB_COUNTOF(sg_forms),
    .all = sg_all, .nall = GB_COUNTOF(sg_all),
    .models = 1u << GB_MODEL_8_NOCUT,
    .dirs = 0,
    .bytes = sg_bytes, .prepare = sg_prepare, .release = sg_release,
    .fn = sg_fn, .fn_queues = 1, .fn_heurs = 1,
    .queue_label = "own-heap", .state_bytes = sg_state_bytes,
};

const gb_family gb_family_sgtl = {
    .forms = sgtl_forms, .nforms = GB_COUNTOF(sgtl_forms),
    .all = sgtl_all, .nall = GB_COUNTOF(sgtl_all),
    .models = 1u << GB_MODEL_8_NOCUT,
    .dirs = 0,
    .bytes = sg_bytes, .prepare = sgtl_prepare, .release = sg_release,
    .fn = sg_fn, .fn_queues = 1, .fn_heurs = 1,
    .queue_label = "own-heap", .state_bytes = sg_state_bytes,
};

const gb_family gb_family_sgtldt = {
    .forms = sgtldt_forms, .nforms = GB_COUNTOF(sgtldt_forms),
    .all = sgtldt_all, .nall = GB_COUNTOF(sgtldt_all),
    .models = 1u << GB_MODEL_8_NOCUT,
    .dirs = 0,
    .bytes = sg_bytes, .prepare = sgtldt_prepare, .release = sg_release,
    .fn = sg_fn, .fn_queues = 1, .fn_heurs = 1,
    .queue_label = "own-heap", .state_bytes = sg_state_bytes,
};
