/*
 * gb_bfs.c -- the breadth-first family ("bfs"): fewest steps over the
 * legal moves, with a plain FIFO of ids instead of a priority queue.
 *
 * Per-map state: the FIFO, ncells ids (every cell enters it at most once
 * per query, so it never wraps).  The goal test is on generation, which
 * is exact for unit costs.  g[] still accumulates the true step costs, so
 * the reported cost is the cost of the returned path under the model.
 *
 * Invariant: fifo[head .. tail) are the generated, unexpanded cells in
 * order of generation, i.e. of non-decreasing step count; stamp[] as in
 * gb_search.h (a generated cell is never generated again).
 *
 * Guarantee: optimal on model 4 (every step costs 1, so fewest steps is
 * cheapest); on 8-connected models only a valid path.  Time: O(ncells).
 */
#include "gb_family.h"

#include <errno.h>
#include <string.h>

static void bfs_run(gb_ws *ws, const gb_solver_spec *s, int32_t start, int32_t goal,
                    gb_result *out)
{
    const uint32_t open = 2u * ws->gen, closed = open + 1u;
    const int32_t *off = ws->grid->off;
    uint32_t *stamp = ws->stamp;
    double *g = ws->g;
    int32_t *parent = ws->parent, *fifo = ws->fam[GB_ALGO_BFS];
    int32_t head = 0, tail = 0;
    const int64_t deadline = gb_deadline_of(s);
    gb_stats st;
    memset(&st, 0, sizeof st);
    gb_result_status status = GB_UNREACHABLE;

    stamp[start] = open;
    g[start] = 0.0;
    parent[start] = -1;
    fifo[tail++] = start;
    st.pushes = 1;
    if (start == goal) status = GB_FOUND;
    while (status == GB_UNREACHABLE && head < tail) {
        int32_t id = fifo[head++];
        st.pops++;
        stamp[id] = closed;
        st.expanded++;
        if ((s->max_expanded && st.expanded > s->max_expanded)
            || gb_over_time(st.expanded, deadline)) {
            status = GB_LIMIT;
            break;
        }
        unsigned m = ws->moves[id];
        while (m) {
            int k = __builtin_ctz(m);
            m &= m - 1;
            int32_t nb = id + off[k];
            if (stamp[nb] >= open) continue;
            stamp[nb] = open;
            g[nb] = g[id] + gb_dir_cost[k];
            parent[nb] = id;
            fifo[tail++] = nb;
            st.pushes++;
            st.generated++;
            if (nb == goal) { status = GB_FOUND; break; }
        }
        if ((uint64_t)(tail - head) > st.peak_open) st.peak_open = (uint64_t)(tail - head);
    }
    out->st = st;
    out->status = status;
    if (status == GB_FOUND) {
        out->cost = g[goal];
        gb_path_build(ws, goal, NULL, out);
    } else {
        gb_result_nopath(ws, out);
    }
}

static size_t bfs_bytes(int32_t width, int32_t height, const gb_solver_spec *s)
{
    (void)s;
    const int64_t nc = ((int64_t)width + 2) * ((int64_t)height + 2);
    return (size_t)(nc > 0 ? nc : 0) * sizeof(int32_t);
}

static int bfs_prepare(gb_ws *ws, const gb_solver_spec *s, void **state)
{
    (void)s;
    int32_t *fifo = gb_malloc((size_t)ws->grid->ncells * sizeof *fifo);
    if (!fifo) { errno = ENOMEM; return -1; }
    *state = fifo;
    return 0;
}

static void bfs_release(void *state)
{
    gb_free(state);
}

static gb_guarantee bfs_guarantee(const gb_solver_spec *s, gb_model m, double *bound)
{
    (void)s;
    *bound = m == GB_MODEL_4 ? 1.0 : 0.0;
    return m == GB_MODEL_4 ? GB_GUAR_OPTIMAL : GB_GUAR_NONE;
}

static const gb_form bfs_forms[] = {
    { .pattern = "bfs", .wg = 1.0, .heur = GB_H_ZERO,
      .desc = "breadth-first; optimal on model 4, fewest hops otherwise" },
};
static const char *const bfs_all[] = { "bfs" };
static const gb_search_fn bfs_fn[] = { bfs_run };

const gb_family gb_family_bfs = {
    .forms = bfs_forms, .nforms = GB_COUNTOF(bfs_forms),
    .all = bfs_all, .nall = GB_COUNTOF(bfs_all),
    .models = (1u << GB_MODEL_COUNT) - 1,
    .guarantee = bfs_guarantee,
    .dirs = 0,
    .bytes = bfs_bytes, .prepare = bfs_prepare, .release = bfs_release,
    .fn = bfs_fn, .fn_queues = 1, .fn_heurs = 1,
};
