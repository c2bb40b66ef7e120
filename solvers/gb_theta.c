/*
 * gb_theta.c -- the Theta* family ("theta"): Basic Theta* (Nash, Daniel,
 * Koenig & Felner, "Theta*: any-angle path planning on grids", AAAI 2007)
 * on the 8-nocut grid, with the line-of-sight rule of gb_los.h and the
 * Euclidean heuristic.  Its paths are any-angle (gb_search.h's cost
 * models): the parent chain start..goal is a list of waypoints joined by
 * straight segments, costed by Euclidean length.
 *
 * Algorithm.  A* over the cells with the workspace's stamp/g/parent
 * arrays (gb_search.h's encoding) and one queue, instantiated per queue.
 * Expanding s (parent p = parent[s], none at the start) relaxes each
 * legal 8-nocut move s -> s' whose target is not closed with
 *   path 2: when p exists and p sees s', g = g[p] + |p s'|, parent p;
 *   path 1: otherwise g = g[s] + c(s, s'), parent s,
 * kept when below the g s' has.  f = g + |s' goal| (Euclidean).
 *
 * Invariants.
 *   - g[v] = g[parent[v]] + |parent[v] v| for every generated v (path 1
 *     is that too: a legal 8-nocut step's length is its cost), and a
 *     parent is always closed, so its g no longer changes; g[goal] is
 *     therefore the Euclidean length of the waypoint chain, summed from
 *     the start in the order the validator sums it.
 *   - every link parent[v] -> v has line of sight: path 2 checked it,
 *     and path 1 is a legal 8-nocut move, which has line of sight.
 *
 * What it promises (what the runner checks).  Nothing against the
 * any-angle optimum: Theta* can miss the shortest any-angle path, so its
 * guarantee is "none" (gb_solver_guarantee).  But its cost is never
 * above the 8-nocut grid optimum d(goal), so gb_solver_grid_bound() is 1:
 * by induction over expansions, every expanded s has g[s] <= d(s).  Take
 * a grid-optimal path start = v0 .. vk = s and the first vi not closed
 * when s is popped.  v(i-1) was expanded with g <= d(v(i-1)) and relaxed
 * vi with path 1 or path 2; path 2, when taken, is no longer than path 1
 * (|p vi| <= |p v(i-1)| + c(v(i-1), vi), triangle inequality), so
 * g[vi] <= d(v(i-1)) + c = d(vi).  The Euclidean h is consistent over
 * grid steps, so f(vi) <= d(vi) + h(vi) <= d(s) + h(s), and s popped no
 * later than vi means g[s] + h(s) <= f(vi): g[s] <= d(s).  (Up to the
 * rounding of the sums, which the runner's tolerance covers.)
 *
 * Terrain costs (fn_w; gb_terrain.h, cell-centre model only, the GPPC
 * model is refused by gb_solver_unsupported_w).  A segment costs its line
 * integral over the cells it crosses (gb_los_cost: Field D*, Ferguson &
 * Stentz 2006; Choi & Yu, "Any-angle path planning on non-uniform
 * costmaps", ICRA 2011).  Legality is the same line of sight; a grid step
 * costs what its segment does: straight (c(s) + c(s'))/2, diagonal
 * sqrt2 (c(s) + c(s'))/2 -- the line-integral rule, not the mean-of-four
 * rule of the grid searches (a diagonal between centres meets its corner
 * cells at one point).  Under it the triangle inequality fails (a
 * straight segment across a swamp can cost more than a detour around
 * it), so path 2 is not taken unconditionally: s' gets the cheaper of
 *   path 1: g[s] + c(s, s'), parent s;
 *   path 2: g[p] + c(p s'), parent p, when p sees s'  (ties: path 2),
 * as Choi & Yu do.  h = cmin |s' goal| (cmin = qmin / den, the cheapest
 * passable cost), consistent over grid steps since every step costs at
 * least cmin times its length.  Both invariants hold as above, and so
 * does the bound, against the optimum d_L of the 8-nocut grid whose steps
 * are costed by the line-integral rule: the proof used the triangle
 * inequality only to say that path 2, when taken, is no worse than path
 * 1, which is now what the comparison enforces.  The harness checks the
 * cost against d_L with a Dijkstra of its own (harness/check/
 * gb_aaterrain.c).  Costs are doubles (sums of length x rational
 * pieces); the uniform loop is the W = 0 instance, unchanged.
 *
 * The GPPC model (spec aa_gppc, gb_los.h): ids are read as corners, and
 * the search runs on the corner graph, as Nash et al. define Theta*: from
 * corner (x, y), 0 <= x <= width, 0 <= y <= height, the unit steps that
 * gb_los_gppc calls legal (walls may be followed, corners of blocked
 * cells visited); line of sight by gb_los_gppc.  Every legal 8-nocut step
 * read on corners is such a step (its ends keep to the south-east
 * quadrant of a double corner: the cell an 8-nocut step may enter or
 * leave a double corner by is the corner's own), so both invariants and
 * the bound carry over.
 *
 * Counters: expanded, generated, stale and the queue's as in the search
 * core; scanned = the cells the line-of-sight walks stepped into.
 *
 * Time complexity: A*'s, times one line-of-sight walk per generated
 * successor, O(distance to the parent) each.  No per-map state.
 */
#include "gb_family.h"

#include <math.h>
#include <string.h>

#include "gb_los.h"

/* Euclidean distance from padded (x, y) to padded (gx, gy). */
static inline double theta_h(int32_t x, int32_t y, int32_t gx, int32_t gy)
{
    const double dx = (double)(x - gx), dy = (double)(y - gy);
    return sqrt(dx * dx + dy * dy);
}

static inline GB_ALWAYS_INLINE void theta_core(gb_ws *ws, const gb_solver_spec *s, int32_t start,
                                               int32_t goal, gb_result *out, const int Q, const int GPPC,
                                               const int W)
{
    const gb_grid *grid = ws->grid;
    const int32_t stride = grid->stride;
    const uint8_t *moves = ws->moves;
    uint32_t *stamp = ws->stamp;
    double *g = ws->g;
    int32_t *parent = ws->parent;
    const uint32_t open = 2u * ws->gen, closed = open + 1u;
    const uint64_t max_exp = s->max_expanded ? s->max_expanded : UINT64_MAX;
    const int64_t deadline = gb_deadline_of(s);
    const int32_t gx = goal % stride, gy = goal / stride;
    /* W: terrain costs; cost[] in units of 1/den, den = cscale / 4 */
    const uint16_t *cq = W ? grid->cost : NULL;
    const double unit = W ? 4.0 / (double)grid->cscale : 1.0;
    const double hs = W ? (double)grid->qmin * unit : 1.0; /* cmin */
    uint64_t n_expanded = 0, n_generated = 0, n_stale = 0, n_scanned = 0;
    gb_stats st;
    memset(&st, 0, sizeof st);

    void *q = gb_q_at(ws, Q, 0);
    gb_q_clear(Q, q);
    stamp[start] = open;
    g[start] = 0.0;
    parent[start] = -1;
    gb_q_push(Q, q, start, (W ? hs : 1.0) * theta_h(start % stride, start / stride, gx, gy), 0.0);

    gb_result_status status = GB_UNREACHABLE;
    while (!gb_q_empty(Q, q)) {
        const int32_t id = gb_q_pop(Q, q);
        if (stamp[id] == closed) { n_stale++; continue; }
        stamp[id] = closed;
        if (id == goal) { status = GB_FOUND; break; }
        if (++n_expanded > max_exp || gb_over_time(n_expanded, deadline)) { status = GB_LIMIT; break; }
        const int32_t pid = parent[id];
        const double gid = g[id], gp = pid >= 0 ? g[pid] : 0.0;
        unsigned m = moves[id];
        if (GPPC) {   /* the corner graph: the legal unit segments from corner id */
            m = 0;
            const int32_t cx = id % stride, cy = id / stride;   /* corner x + 1, y + 1 */
            for (int k = 0; k < 8; k++) {
                const int32_t vx = cx + gb_dir_dx[k], vy = cy + gb_dir_dy[k];
                if (vx < 1 || vy < 1 || vx > grid->width + 1 || vy > grid->height + 1) continue;
                if (gb_los_gppc(grid, id, id + grid->off[k], &n_scanned)) m |= 1u << k;
            }
        }
        while (m) {
            const int k = __builtin_ctz(m);
            m &= m - 1;
            const int32_t v = id + grid->off[k];
            const uint32_t sn = stamp[v];
            if (sn == closed) continue;
            double ng;
            int32_t par;
            if (W) { /* the cheaper of path 1 and path 2 (Choi & Yu): no triangle inequality */
                double c2;
                ng = gid + (double)(cq[id] + cq[v]) * (k < 4 ? 0.5 : M_SQRT1_2) * unit;
                par = id;
                if (pid >= 0 && gb_los_cost(grid, pid, v, &n_scanned, &c2) && gp + c2 <= ng) {
                    ng = gp + c2;
                    par = pid;
                }
            } else if (pid >= 0
                       && (GPPC ? gb_los_gppc(grid, pid, v, &n_scanned)
                                : gb_los(grid, pid, v, &n_scanned))) {
                ng = gp + gb_los_dist(grid, pid, v);
                par = pid;
            } else {
                ng = gid + gb_dir_cost[k];
                par = id;
            }
            if (sn == open && ng >= g[v]) continue;
            g[v] = ng;
            parent[v] = par;
            const double f = ng + (W ? hs : 1.0) * theta_h(v % stride, v / stride, gx, gy);
            if (sn == open) {
                gb_q_decrease(Q, q, v, f, ng);
            } else {
                stamp[v] = open;
                gb_q_push(Q, q, v, f, ng);
            }
            n_generated++;
        }
    }
    st.expanded = n_expanded;
    st.generated = n_generated;
    st.stale = n_stale;
    st.scanned = n_scanned;
    const gb_pq_counters *cnt = gb_q_cnt(Q, q);
    st.pushes = cnt->pushes;
    st.pops = cnt->pops;
    st.decreases = cnt->decreases;
    st.peak_open = cnt->peak;
    out->st = st;
    out->status = status;
    if (status == GB_FOUND) {
        out->cost = g[goal];
        gb_path_build(ws, goal, NULL, out);
    } else {
        gb_result_nopath(ws, out);
    }
}

#define GB_Q_X(T)                                                                                   \
    static void theta_##T(gb_ws *ws, const gb_solver_spec *s, int32_t a, int32_t b, gb_result *o)   \
    {                                                                                               \
        if (s->aa_gppc) theta_core(ws, s, a, b, o, GB_QT_##T, 1, 0);                                \
        else theta_core(ws, s, a, b, o, GB_QT_##T, 0, 0);                                           \
    }                                                                                               \
    static void theta_w_##T(gb_ws *ws, const gb_solver_spec *s, int32_t a, int32_t b, gb_result *o) \
    {                                                                                               \
        theta_core(ws, s, a, b, o, GB_QT_##T, 0, 1);                                                \
    }
GB_FOR_Q()
#undef GB_Q_X

#define GB_Q_X(T) theta_##T,
static const gb_search_fn theta_fn[GB_Q_COUNT] = { GB_FOR_Q() };
#undef GB_Q_X
#define GB_Q_X(T) theta_w_##T,
static const gb_search_fn theta_fn_w[GB_Q_COUNT] = { GB_FOR_Q() };
#undef GB_Q_X

static const gb_form theta_forms[] = {
    { .pattern = "theta",
      .wg = 1.0,
      .heur = GB_H_EUCLIDEAN,
      .desc = "Theta* (Nash et al. 2007): any-angle A* with parent line of sight (euclidean), "
              "model 8-nocut only; guarantee none, cost <= the grid optimum (terrain costs: "
              "line-integral segments, cost <= that rule's grid optimum)" },
};
static const char *const theta_all[] = { "theta" };

const gb_family gb_family_theta = {
    .forms = theta_forms,
    .nforms = GB_COUNTOF(theta_forms),
    .all = theta_all,
    .nall = GB_COUNTOF(theta_all),
    .models = 1u << GB_MODEL_8_NOCUT,
    .dirs = 1,
    .fn = theta_fn,
    .fn_w = theta_fn_w,
    .fn_queues = GB_Q_COUNT,
    .fn_heurs = 1,
    .anyangle = 1,
};
