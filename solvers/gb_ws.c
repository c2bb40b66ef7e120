/*
 * gb_ws.c -- the workspace: its lifetime, gb_ws_prepare() and the exact
 * byte count of what it holds, the one dispatch of gb_solve(), and the
 * path builder every family shares.
 *
 * Data structure: struct gb_ws (gb_family.h), the struct-of-arrays search
 * state of gb_search.h reset by a generation stamp, plus what
 * gb_ws_prepare() adds on demand and keeps until gb_ws_free():
 *   - two queues of each kind (index 0 forward, 1 backward), for the
 *     families whose descriptor has dirs >= 1 (2 for both);
 *   - the backward arrays stamp2/g2/parent2 (dirs 2);
 *   - up to GB_WS_MAX_LM landmark tables, one per k in use;
 *   - each family's per-map state ws->fam[a], built once by its prepare
 *     (a family with a holds hook, hpa, extends it per cluster size).
 * Invariant: whatever gb_ws_prepare() holds for a solver and queue,
 * gb_ws_bytes_all() counts exactly (the sizes asked of the allocator):
 * the core arrays, the backward arrays once, each queue kind once per
 * direction, each family's bytes() once, each landmark table once.
 *
 * The "+smooth" modifier (gb_search.h) is applied here, after the
 * family's search: gb_los_smooth() rewrites the path in place.
 *
 * Nothing here knows a particular family or queue: families come from
 * gb_family_get(), queues from GB_QUEUE_LIST.
 */
#include "gb_family.h"
#include "gb_los.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Generation counter limit: 2*gen + 1 must fit in uint32_t. */
#define GEN_MAX 0x7ffffffeu

gb_ws *gb_ws_new(const gb_grid *g, gb_model m)
{
    gb_ws *ws = gb_calloc(1, sizeof *ws);
    if (!ws) return NULL;
    size_t n = (size_t)g->ncells;
    ws->grid = g;
    ws->model = m;
    ws->gen = 0;
    ws->moves = gb_malloc(n);
    ws->stamp = gb_calloc(n, sizeof *ws->stamp);
    ws->g = gb_malloc(n * sizeof *ws->g);
    ws->parent = gb_malloc(n * sizeof *ws->parent);
    ws->path = gb_malloc(n * sizeof *ws->path);
    if (!ws->moves || !ws->stamp || !ws->g || !ws->parent || !ws->path) {
        gb_ws_free(ws);
        errno = ENOMEM;
        return NULL;
    }
    gb_grid_moves(g, m, ws->moves);
    return ws;
}

void gb_ws_free(gb_ws *ws)
{
    if (!ws) return;
#define GB_X(E, T, N, L, D) \
    for (int d = 0; d < 2; d++) if (ws->ready_##T[d]) gb_##T##_free(&ws->q_##T[d]);
    GB_QUEUE_LIST(GB_X)
#undef GB_X
    for (int a = 0; a < GB_ALGO_COUNT; a++) {
        const gb_family *f = gb_family_get((gb_algo)a);
        if (ws->fam_ready[a] && f->release) f->release(ws->fam[a]);
    }
    gb_free(ws->moves);
    gb_free(ws->stamp);
    gb_free(ws->g);
    gb_free(ws->parent);
    gb_free(ws->stamp2);
    gb_free(ws->g2);
    gb_free(ws->parent2);
    gb_free(ws->path);
    for (int i = 0; i < GB_WS_MAX_LM; i++) gb_landmarks_free(&ws->lm[i]);
    gb_free(ws);
}

size_t gb_ws_bytes_all(int32_t width, int32_t height, const gb_solver_spec *s,
                       const gb_queue_kind *q, int n)
{
    const gb_ws *ws = NULL;   /* for sizeof only */
    const int32_t ncells = (int32_t)(((int64_t)width + 2) * ((int64_t)height + 2));
    size_t nc = ncells > 0 ? (size_t)ncells : 0;
    size_t b = sizeof *ws + nc * (sizeof *ws->moves + sizeof *ws->stamp + sizeof *ws->g
                                  + sizeof *ws->parent + sizeof *ws->path);
    int backward = 0, nk = 0;
    int qdirs[GB_Q_COUNT] = { 0 };     /* directions prepared per queue kind */
    int fam[GB_ALGO_COUNT] = { 0 };    /* families whose state is held */
    int ks[GB_WS_MAX_LM];              /* landmark counts held, distinct */
    for (int i = 0; i < n; i++) {
        if ((unsigned)s[i].algo >= GB_ALGO_COUNT) continue;
        const gb_family *f = gb_family_get(s[i].algo);
        if (!fam[s[i].algo] && f->bytes) b += f->bytes(width, height, &s[i]);
        fam[s[i].algo] = 1;
        if (f->dirs == 2) backward = 1;
        if (f->dirs > 0 && (unsigned)q[i] < GB_Q_COUNT && qdirs[q[i]] < f->dirs)
            qdirs[q[i]] = f->dirs;
        if (s[i].heur == GB_H_DIFF) {
            int seen = 0;
            for (int k = 0; k < nk; k++) seen |= ks[k] == s[i].k;
            if (!seen && nk < GB_WS_MAX_LM) ks[nk++] = s[i].k;
        }
    }
    if (backward) b += nc * (sizeof *ws->stamp2 + sizeof *ws->g2 + sizeof *ws->parent2);
    for (int k = 0; k < nk; k++) b += gb_landmarks_bytes(ncells, ks[k]);
    for (int k = 0; k < GB_Q_COUNT; k++) {
        if (!qdirs[k]) continue;
        size_t qb = 0;
        switch ((gb_queue_kind)k) {
#define GB_X(E, T, N, L, D) case GB_Q_##E: qb = gb_##T##_bytes(ncells); break;
        GB_QUEUE_LIST(GB_X)
#undef GB_X
        default: break;
        }
        b += (size_t)qdirs[k] * qb;
    }
    return b;
}

size_t gb_ws_bytes(int32_t width, int32_t height, const gb_solver_spec *s, gb_queue_kind q)
{
    return gb_ws_bytes_all(width, height, s, &q, 1);
}

const uint8_t *gb_ws_moves(const gb_ws *ws) { return ws->moves; }
gb_model gb_ws_model(const gb_ws *ws) { return ws->model; }
const gb_grid *gb_ws_grid(const gb_ws *ws) { return ws->grid; }

static int prepare_queue(gb_ws *ws, gb_queue_kind q, int dirs)
{
    for (int d = 0; d < dirs; d++) {
        switch (q) {
#define GB_X(E, T, N, L, D)                                                       \
        case GB_Q_##E:                                                            \
            if (!ws->ready_##T[d]) {                                              \
                if (gb_##T##_init(&ws->q_##T[d], ws->grid->ncells) != 0) return -1; \
                ws->ready_##T[d] = 1;                                             \
            }                                                                     \
            break;
        GB_QUEUE_LIST(GB_X)
#undef GB_X
        default:
            errno = EINVAL;
            return -1;
        }
    }
    return 0;
}

/* The landmark table for k (built into a free slot, else the last slot
 * recycled).  0, or -1 (ENOMEM). */
static int prepare_landmarks(gb_ws *ws, int k)
{
    int slot = -1;
    for (int i = 0; i < GB_WS_MAX_LM && slot < 0; i++)
        if (ws->lm_req[i] == k) slot = i;
    if (slot < 0) {
        slot = GB_WS_MAX_LM - 1;
        for (int i = GB_WS_MAX_LM - 1; i >= 0; i--)
            if (!ws->lm_req[i]) slot = i;
        gb_landmarks_free(&ws->lm[slot]);
        ws->lm_req[slot] = 0;
        if (gb_landmarks_build(&ws->lm[slot], ws->grid, ws->model, k) != 0) return -1;
        ws->lm_req[slot] = k;
    }
    ws->lm_cur = &ws->lm[slot];
    return 0;
}

/* The backward arrays of two-directional families.  0, or -1 (ENOMEM). */
static int prepare_backward(gb_ws *ws)
{
    if (ws->stamp2) return 0;
    size_t n = (size_t)ws->grid->ncells;
    ws->stamp2 = gb_calloc(n, sizeof *ws->stamp2);
    ws->g2 = gb_malloc(n * sizeof *ws->g2);
    ws->parent2 = gb_malloc(n * sizeof *ws->parent2);
    if (!ws->stamp2 || !ws->g2 || !ws->parent2) {
        gb_free(ws->stamp2); gb_free(ws->g2); gb_free(ws->parent2);
        ws->stamp2 = NULL; ws->g2 = NULL; ws->parent2 = NULL;
        errno = ENOMEM;
        return -1;
    }
    /* stamp2 must not look "current": restart the generations */
    memset(ws->stamp, 0, n * sizeof *ws->stamp);
    ws->gen = 0;
    return 0;
}

int gb_ws_prepare(gb_ws *ws, const gb_solver_spec *s, gb_queue_kind q)
{
    if ((unsigned)s->algo >= GB_ALGO_COUNT || (unsigned)s->heur >= GB_H_COUNT) {
        errno = EINVAL;
        return -1;
    }
    const gb_family *f = gb_family_get(s->algo);
    if (!(f->models >> ws->model & 1u) || (ws->grid->cost && !f->fn_w)) {
        errno = EINVAL;
        return -1;
    }
    if (s->heur == GB_H_DIFF && prepare_landmarks(ws, s->k) != 0) return -1;
    if (f->prepare && (!ws->fam_ready[s->algo]
                       || (f->holds && !f->holds(ws->fam[s->algo], s)))) {
        int64_t t0 = gb_mono_ns();
        void *state = ws->fam_ready[s->algo] ? ws->fam[s->algo] : NULL;
        ws->prep_msg[0] = '\0';
        if (f->prepare(ws, s, &state) != 0) return -1;   /* errno set */
        ws->fam[s->algo] = state;
        ws->fam_prep_ns[s->algo] = (double)(gb_mono_ns() - t0);
        ws->fam_ready[s->algo] = 1;
    }
    if (f->dirs == 2 && prepare_backward(ws) != 0) return -1;
    return f->dirs > 0 ? prepare_queue(ws, q, f->dirs) : 0;
}

size_t gb_ws_bytes_prepared(const gb_ws *ws, const gb_solver_spec *s, gb_queue_kind q)
{
    size_t b = gb_ws_bytes(ws->grid->width, ws->grid->height, s, q);
    if ((unsigned)s->algo >= GB_ALGO_COUNT) return b;
    const gb_family *f = gb_family_get(s->algo);
    if (!f->state_bytes || !ws->fam_ready[s->algo]) return b;
    size_t lo = f->bytes ? f->bytes(ws->grid->width, ws->grid->height, s) : 0;
    return b - lo + f->state_bytes(ws->fam[s->algo]);
}

const char *gb_ws_prep_msg(const gb_ws *ws) { return ws->prep_msg; }

void gb_ws_set_store(gb_ws *ws, const gb_store *st) { ws->store = st; }

int gb_solver_traceable(const gb_solver_spec *s, const gb_grid *g)
{
    if ((unsigned)s->algo >= GB_ALGO_COUNT) return 0;
    return gb_family_get(s->algo)->fn_trace != NULL && !g->cost;
}

int gb_ws_set_trace(gb_ws *ws, gb_trace *t)
{
    ws->trace = t;
    return 0;
}

double gb_ws_prep_ns(const gb_ws *ws, const gb_solver_spec *s)
{
    if ((unsigned)s->algo >= GB_ALGO_COUNT) return 0.0;
    const gb_family *f = gb_family_get(s->algo);
    double t = !ws->fam_ready[s->algo] ? 0.0
             : f->prep_ns ? f->prep_ns(ws->fam[s->algo], s) : ws->fam_prep_ns[s->algo];
    if (s->heur == GB_H_DIFF)
        for (int i = 0; i < GB_WS_MAX_LM; i++)
            if (ws->lm_req[i] == s->k) t += ws->lm[i].prep_ns;
    return t;
}

void gb_ws_cell_changed(gb_ws *ws, int32_t id)
{
    gb_grid_moves_around(ws->grid, ws->model, ws->moves, id);
    for (int a = 0; a < GB_ALGO_COUNT; a++) {
        const gb_family *f = gb_family_get((gb_algo)a);
        if (ws->fam_ready[a] && f->release) f->release(ws->fam[a]);
        ws->fam[a] = NULL;
        ws->fam_ready[a] = 0;
        ws->fam_prep_ns[a] = 0.0;
    }
    for (int i = 0; i < GB_WS_MAX_LM; i++) {
        gb_landmarks_free(&ws->lm[i]);
        ws->lm_req[i] = 0;
    }
    ws->lm_cur = NULL;
}

static void next_gen(gb_ws *ws)
{
    if (ws->gen >= GEN_MAX) {
        size_t n = (size_t)ws->grid->ncells;
        memset(ws->stamp, 0, n * sizeof *ws->stamp);
        if (ws->stamp2) memset(ws->stamp2, 0, n * sizeof *ws->stamp2);
        ws->gen = 0;
    }
    ws->gen++;
}

int gb_solve(gb_ws *ws, const gb_solver_spec *s, gb_queue_kind q,
             int32_t start, int32_t goal, gb_result *out)
{
    char err[128];
    if ((unsigned)q >= GB_Q_COUNT || (unsigned)s->heur >= GB_H_COUNT
        || (unsigned)s->algo >= GB_ALGO_COUNT
        || gb_solver_unsupported_w(s, ws->model, ws->grid->cost != NULL, err, sizeof err)) {
        errno = EINVAL;
        return -1;
    }
    const gb_family *f = gb_family_get(s->algo);
    /* gb_ws_set_trace: a traceable solver runs its recording search, on
     * the binary heap (gb_core_tr); any other runs as usual on q */
    const int traced = ws->trace && gb_solver_traceable(s, ws->grid);
    if (gb_ws_prepare(ws, s, traced ? GB_Q_BHEAP : q) != 0) return -1;
    next_gen(ws);
    ws->last_dirs = f->dirs;
    const int qi = f->fn_queues > 1 ? (int)q : 0, hi = f->fn_heurs > 1 ? (int)s->heur : 0;
    if (traced) f->fn_trace[hi](ws, s, start, goal, out);
    else (ws->grid->cost ? f->fn_w : f->fn)[qi * f->fn_heurs + hi](ws, s, start, goal, out);
    /* the +smooth modifier: inside the timed call, on every family's path */
    if (s->smooth && out->status == GB_FOUND && out->path_len > 0)
        out->path_len = gb_los_smooth(ws->grid, out->path, out->path_len, s->aa_gppc,
                                      &out->cost);
    return 0;
}

int gb_ws_visit_state(const gb_ws *ws, int32_t id)
{
    const uint32_t open = 2u * ws->gen, closed = open + 1u;
    int st = 0;
    uint32_t a = ws->stamp[id];
    if (a == closed) st = 2; else if (a == open) st = 1;
    if (ws->last_dirs == 2 && ws->stamp2) {
        uint32_t b = ws->stamp2[id];
        if (b == closed) st = 2; else if (b == open && st < 1) st = 1;
    }
    return st;
}

const gb_landmarks *gb_ws_landmarks(const gb_ws *ws)
{
    return ws->lm_cur;
}

/* ---- paths ------------------------------------------------------------ */

void gb_path_reverse(int32_t *p, int32_t n)
{
    for (int32_t i = 0, j = n - 1; i < j; i++, j--) {
        int32_t t = p[i]; p[i] = p[j]; p[j] = t;
    }
}

int32_t gb_path_walk(const gb_ws *ws, const int32_t *parent, const uint8_t *indir,
                     int32_t from, int32_t *p, int32_t cap)
{
    int32_t n = 0, cur = from;
    while (cur >= 0) {
        int32_t par = parent[cur];
        if (indir && par >= 0) {
            int32_t step = ws->grid->off[indir[cur]];
            for (int32_t c = cur; c != par; c -= step) {
                if (n >= cap) return -1;
                p[n++] = c;
            }
        } else {
            if (n >= cap) return -1;
            p[n++] = cur;
        }
        cur = par;
    }
    return n;
}

void gb_path_build(gb_ws *ws, int32_t goal, const uint8_t *indir, gb_result *out)
{
    int32_t n = gb_path_walk(ws, ws->parent, indir, goal, ws->path, ws->grid->ncells);
    out->path = ws->path;
    if (n < 0) { out->path_len = 0; return; }
    gb_path_reverse(ws->path, n);
    out->path_len = n;
}
