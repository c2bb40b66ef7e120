/*
 * user_dijkstra.h -- a tiny user solver for the gridbench examples: plain
 * Dijkstra with its own binary heap, written against the public headers
 * only (gb_grid.h: padded grid, pass[id], off[k]; gb_user.h: the solver
 * signature).  Not fast; short and correct, to show the contract:
 * write the path start..goal as cell ids into path[0..cap), return its
 * length, 0 for no path, -1 on error.
 *
 * Built with -DGB_USER_TRACE it also tells `gridbench trace` every step
 * (gb_user_trace_*, gb_user.h; docs/trace.md), so that the viewer replays
 * its search; those calls are gridbench's, so such a plugin loads only
 * into gridbench.  Without it, it calls nothing of gridbench at all.
 */
#include <math.h>
#include <stdlib.h>

#include <gb_grid.h>
#include <gb_search.h>
#include <gb_user.h>

/* Direction k as in gb_grid.h (N E S W NE SE SW NW); own copies, so that a
 * plugin needs no symbol from the program that loads it. */
static const int ud_dx[8] = { 0, 1, 0, -1, 1, 1, -1, -1 };
static const int ud_dy[8] = { -1, 0, 1, 0, -1, 1, 1, -1 };

#ifdef GB_USER_TRACE
#define UD_TRACE(call) call
#else
#define UD_TRACE(call) ((void)0)
#endif

static int legal(const gb_grid *g, gb_model m, int32_t id, int k)
{
    if (!g->pass[id + g->off[k]]) return 0;
    if (k < 4) return 1;
    if (m == GB_MODEL_4) return 0;
    int a = g->pass[id + ud_dx[k]], b = g->pass[id + ud_dy[k] * g->stride];
    return m == GB_MODEL_8_NOCUT ? a && b : m == GB_MODEL_8_CUT1 ? a || b : 1;
}

static int32_t user_dijkstra(void *ctx, const gb_grid *g, gb_model m, int32_t start, int32_t goal,
                             int32_t *path, int32_t cap, gb_stats *st)
{
    (void)ctx;
    int32_t n = g->ncells, hn = 0, len = 0;
    double *d = malloc((size_t)n * sizeof *d);
    int32_t *par = malloc((size_t)n * sizeof *par), *heap = malloc((size_t)n * 8 * sizeof *heap);
    double *hk = malloc((size_t)n * 8 * sizeof *hk);
    if (!d || !par || !heap || !hk) { len = -1; goto out; }
    for (int32_t i = 0; i < n; i++) d[i] = INFINITY;
    d[start] = 0; par[start] = -1; heap[hn] = start; hk[hn++] = 0;
    UD_TRACE(gb_user_trace_generate(0, start, 0.0, 0.0, -1));
    while (hn > 0) {
        int32_t u = heap[0];
        double du = hk[0];
        /* pop: move the last entry down */
        int32_t lv = heap[--hn], i = 0;
        double lk = hk[hn];
        for (int32_t c; (c = 2 * i + 1) < hn; i = c) {
            if (c + 1 < hn && hk[c + 1] < hk[c]) c++;
            if (hk[c] >= lk) break;
            heap[i] = heap[c]; hk[i] = hk[c];
        }
        heap[i] = lv; hk[i] = lk;
        if (du > d[u]) continue;             /* stale */
        if (u == goal) {
            UD_TRACE(gb_user_trace_stop(0, u));
            break;
        }
        st->expanded++;
        UD_TRACE(gb_user_trace_expand(0, u));
        for (int k = 0; k < 8; k++) {
            if (!legal(g, m, u, k)) continue;
            int32_t v = u + g->off[k];
            double nd = du + (k < 4 ? 1.0 : GB_SQRT2);
            if (nd >= d[v]) continue;
            d[v] = nd; par[v] = u; st->generated++;
            UD_TRACE(gb_user_trace_generate(0, v, nd, 0.0, u));
            int32_t j = hn++;                /* push: sift up */
            for (; j > 0 && hk[(j - 1) / 2] > nd; j = (j - 1) / 2) {
                heap[j] = heap[(j - 1) / 2]; hk[j] = hk[(j - 1) / 2];
            }
            heap[j] = v; hk[j] = nd;
        }
    }
    if (isinf(d[goal])) goto out;
    for (int32_t v = goal; v >= 0; v = par[v]) len++;
    if (len > cap) { len = -1; goto out; }
    for (int32_t v = goal, i = len - 1; v >= 0; v = par[v], i--) path[i] = v;
out:
    free(d); free(par); free(heap); free(hk);
    return len;
}
