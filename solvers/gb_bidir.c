/*
 * gb_bidir.c -- the bidirectional family: bidirectional Dijkstra
 * ("bidijkstra") and A* ("biastar-H"), one driver instantiated per
 * (queue, heuristic) like the unidirectional core.
 *
 * Data: the forward search uses stamp/g/parent and queue direction 0, the
 * backward search stamp2/g2/parent2 (the workspace allocates them for a
 * family with dirs 2) and queue direction 1; both share ws->gen
 * (same open/closed encoding as the unidirectional core).  The grid is
 * undirected with symmetric costs, so the backward search runs the same
 * successor generator from the goal.
 *
 * Potentials (Ikeda et al. 1994; Goldberg & Harrelson 2005, "average"
 * potentials).  With h_t(v) = h(v, goal) and h_s(v) = h(v, start) both
 * consistent, p(v) = (h_t(v) - h_s(v)) / 2 is consistent for the forward
 * search and -p(v) for the backward one.  Keys, shifted by h(s,t)/2 so that
 * they are never negative (the bucket and radix queues need keys >= 0;
 * |p(v)| <= h(s,t)/2 by the triangle inequality):
 *     kf(v) = gf(v) + p(v) + h(s,t)/2        kb(v) = gb(v) - p(v) + h(s,t)/2
 * Each side is then Dijkstra on non-negative reduced costs, so keys pop in
 * non-decreasing order and popped nodes are final.  For Dijkstra, h = 0.
 *
 * Stopping rule.  mu = best gf(v) + gb(v) over nodes v reached from both
 * sides (updated whenever either g improves at a node the other side has
 * reached).  topf, topb are the minimum keys of the two open lists (each
 * side's first valid entry is popped ahead and held, so stale entries of
 * lazy queues never count).  Any s-t path cheaper than mu would have to
 * leave the forward closed set through a node u open forward and enter the
 * backward closed set through a node v open backward, with reduced
 * lengths >= 0 in between; the potentials telescope, so its cost is
 *     >= kf(u) + kb(v) - h(s,t) >= topf + topb - h(s,t).
 * Hence once  topf + topb >= mu + h(s,t)  no unseen path beats mu: stop.
 * The side with the smaller top key expands next (ties forward), which
 * keeps the two searches balanced; an exhausted side has top = +inf.
 *
 * Ties broken toward larger g as everywhere; deterministic.
 * Guarantee: optimal when H is consistent under the model (always for
 * Dijkstra).  Every model is supported, and terrain costs (gb_terrain.h)
 * under 8-nocut and 4: a move costs gb_grid_units / cscale (times sqrt2
 * diagonally), symmetric, so the backward search is still the same
 * generator, and h is scaled by the cheapest terrain (WT, a constant of
 * each instantiation).
 *
 * Time complexity: as unidirectional Dijkstra/A*, typically about half the
 * expansions of Dijkstra on open maps.
 */
#include "gb_family.h"

#include <math.h>
#include <string.h>

/* The path start..goal through meet: the forward chain to meet, then the
 * backward chain from meet's backward parent to the goal. */
static void path_build_bidir(gb_ws *ws, int32_t meet, gb_result *out)
{
    int32_t cap = ws->grid->ncells;
    int32_t n = gb_path_walk(ws, ws->parent, NULL, meet, ws->path, cap);
    out->path = ws->path;
    if (n < 0) { out->path_len = 0; return; }
    gb_path_reverse(ws->path, n);
    int32_t m = ws->parent2[meet] >= 0
        ? gb_path_walk(ws, ws->parent2, NULL, ws->parent2[meet], ws->path + n, cap - n) : 0;
    if (m < 0) { out->path_len = 0; return; }
    out->path_len = n + m;
}

/* h scaled by the cheapest terrain on a grid with costs (WT). */
#define HB_(to, v, vx, vy) (WT ? hsc * gb_heur_inline(HEUR, to, v, vx, vy) \
                               : gb_heur_inline(HEUR, to, v, vx, vy))

static inline GB_ALWAYS_INLINE void
bd_core(gb_ws *ws, const gb_solver_spec *s, int32_t start, int32_t goal, gb_result *out,
        const int Q, const int HEUR, const int WT)
{
    const gb_grid *grid = ws->grid;
    const double wscale = WT ? 1.0 / (double)grid->cscale : 1.0;
    const double hsc = WT && HEUR != GB_H_DIFF ? 4.0 * (double)grid->qmin * wscale : 1.0;
    const int32_t stride = grid->stride;
    const int32_t *off = grid->off;
    const uint8_t *moves = ws->moves;
    const uint32_t open = 2u * ws->gen, closed = open + 1u;
    const uint64_t max_exp = s->max_expanded;
    const int64_t deadline = gb_deadline_of(s);
    void *qs[2] = { gb_q_at(ws, Q, 0), gb_q_at(ws, Q, 1) };
    uint32_t *stamps[2] = { ws->stamp, ws->stamp2 };
    double *gs[2] = { ws->g, ws->g2 };
    int32_t *parents[2] = { ws->parent, ws->parent2 };
    gb_hctx ht, hs;   /* heuristic towards the goal, towards the start */
    ht.goal = goal; ht.gx = goal % stride - 1; ht.gy = goal / stride - 1;
    hs.goal = start; hs.gx = start % stride - 1; hs.gy = start / stride - 1;
    ht.lm = hs.lm = ws->lm_cur;
    const double half = 0.5 * HB_(&ht, start, hs.gx, hs.gy);
    gb_stats st;
    memset(&st, 0, sizeof st);

    double mu = INFINITY, top[2];
    int32_t pend[2] = { -1, -1 };   /* each side's next node, already popped */
    int32_t meet = -1;
    gb_result_status status = GB_UNREACHABLE;

    for (int d = 0; d < 2; d++) {
        int32_t src = d ? goal : start;
        gb_q_clear(Q, qs[d]);
        stamps[d][src] = open;
        gs[d][src] = 0.0;
        parents[d][src] = -1;
        gb_q_push(Q, qs[d], src, 2.0 * half, 0.0);
    }
    if (start == goal) { mu = 0.0; meet = start; }

    for (;;) {
        /* Pull each side's first valid node (skipping stale entries), so
         * that top[] is the exact minimum key of each open list and the
         * same for every queue.  An exhausted side has top = +inf: it has
         * closed its whole component. */
        for (int e = 0; e < 2; e++) {
            while (pend[e] < 0 && !gb_q_empty(Q, qs[e])) {
                int32_t v = gb_q_pop(Q, qs[e]);
                if (stamps[e][v] == closed) { st.stale++; continue; }
                pend[e] = v;
            }
            if (pend[e] < 0) {
                top[e] = INFINITY;
            } else {
                const int32_t v = pend[e], vx = v % stride - 1, vy = v / stride - 1;
                const gb_hctx *to = e ? &hs : &ht, *from = e ? &ht : &hs;
                top[e] = gs[e][v] + 0.5 * (HB_(to, v, vx, vy) - HB_(from, v, vx, vy)) + half;
            }
        }
        if (meet >= 0 && top[0] + top[1] >= mu + 2.0 * half) { status = GB_FOUND; break; }
        if (top[0] == INFINITY || top[1] == INFINITY) break;   /* disconnected */
        const int d = top[1] < top[0] ? 1 : 0;
        uint32_t *stamp = stamps[d], *ostamp = stamps[d ^ 1];
        double *g = gs[d], *og = gs[d ^ 1];
        int32_t *parent = parents[d];
        const gb_hctx *hto = d ? &hs : &ht, *hfrom = d ? &ht : &hs;
        void *q = qs[d];

        const int32_t id = pend[d];
        pend[d] = -1;
        stamp[id] = closed;
        st.expanded++;
        if ((max_exp && st.expanded > max_exp) || gb_over_time(st.expanded, deadline)) {
            status = GB_LIMIT;
            break;
        }
        const double gid = g[id];
        const int32_t x = id % stride - 1, y = id / stride - 1;

        unsigned m = moves[id];
        while (m) {
            int k = __builtin_ctz(m);
            m &= m - 1;
            int32_t nb = id + off[k];
            uint32_t sn = stamp[nb];
            if (sn == closed) continue;
            double ng = gid + (WT ? (double)gb_grid_units(grid, id, k) * gb_dir_cost[k] * wscale
                                  : gb_dir_cost[k]);
            if (sn == open && ng >= g[nb]) continue;
            g[nb] = ng;
            parent[nb] = id;
            const int32_t nx = x + gb_dir_dx[k], ny = y + gb_dir_dy[k];
            double key = ng + 0.5 * (HB_(hto, nb, nx, ny) - HB_(hfrom, nb, nx, ny)) + half;
            if (key < 0.0) key = 0.0;   /* rounding only: |p| <= half */
            if (sn == open) {
                gb_q_decrease(Q, q, nb, key, ng);
            } else {
                stamp[nb] = open;
                gb_q_push(Q, q, nb, key, ng);
            }
            st.generated++;
            uint32_t so = ostamp[nb];
            if ((so == open || so == closed) && ng + og[nb] < mu) {
                mu = ng + og[nb];
                meet = nb;
            }
        }
    }

    for (int d = 0; d < 2; d++) {
        const gb_pq_counters *cnt = gb_q_cnt(Q, qs[d]);
        st.pushes += cnt->pushes;
        st.pops += cnt->pops;
        st.decreases += cnt->decreases;
        st.peak_open += cnt->peak;
    }
    out->st = st;
    out->status = status;
    if (status == GB_FOUND) {
        out->cost = ws->g[meet] + ws->g2[meet];
        path_build_bidir(ws, meet, out);
    } else {
        gb_result_nopath(ws, out);
    }
}


#undef HB_

#define GB_QH_X(T, E, N)                                                          \
    static void bd_##T##_##N(gb_ws *ws, const gb_solver_spec *s, int32_t a, int32_t b, \
                             gb_result *o)                                        \
    { bd_core(ws, s, a, b, o, GB_QT_##T, GB_H_##E, 0); }                        \
    static void bdw_##T##_##N(gb_ws *ws, const gb_solver_spec *s, int32_t a, int32_t b, \
                              gb_result *o)                                       \
    { bd_core(ws, s, a, b, o, GB_QT_##T, GB_H_##E, 1); }
GB_FOR_QH()
#undef GB_QH_X

#define GB_QH_X(T, E, N) bd_##T##_##N,
static const gb_search_fn bd_fn[GB_Q_COUNT * GB_H_COUNT] = { GB_FOR_QH() };
#undef GB_QH_X
#define GB_QH_X(T, E, N) bdw_##T##_##N,
static const gb_search_fn bd_fn_w[GB_Q_COUNT * GB_H_COUNT] = { GB_FOR_QH() };
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
    .forms = bd_forms, .nforms = GB_COUNTOF(bd_forms),
    .all = bd_all, .nall = GB_COUNTOF(bd_all),
    .models = (1u << GB_MODEL_COUNT) - 1,
    .guarantee = bd_guarantee,
    .dirs = 2,
    .fn = bd_fn, .fn_w = bd_fn_w, .fn_queues = GB_Q_COUNT, .fn_heurs = GB_H_COUNT,
};
