/*
 * gb_gppc_dyn_driver.cpp -- one GPPC dynamic-track entry as a gridbench
 * plugin (the C API of gppc-dev/startkit-dynamic: gppc_search_init,
 * gppc_map_change, gppc_get_path...).
 *
 * Compiled only by `gridbench gppc build` (harness/run/gb_gppc.c) when the
 * entry's Entry.h declares gppc_map_change or gppc_search_init, together
 * with the entry's sources, into a shared object that exports the plugin
 * ABI of gb_user.h: one solver, prepare/release, metrics, and the change
 * hook (gb_plugin_changes) that `gridbench gppc-dynamic` calls between
 * batches.  Never part of the normal build.  Defines as for the classic
 * driver: GB_GPPC_ENTRY_HASH, GB_GPPC_NAME, GB_GPPC_SUBOPTIMAL.
 *
 * The active map: S.bits, bit-packed as the startkit packs it (row-major,
 * bit i = y*w+x in byte i/8 at bit i%8, 1 = traversable), made from the
 * grid by prepare and handed to gppc_search_init, which may keep the
 * pointer.  Invariant: from prepare to release S.bits is never
 * reallocated, and it equals the grid's passability after every change
 * hook: change writes each patch into it, in order, before it calls
 * gppc_map_change with the patches as gppc_patch records.  Those records'
 * bit arrays (S.kept) also stay alive until release: the startkit promises
 * every bitarray until gppc_free_data.
 *
 * Per map (prepare): gppc_preprocess_init_map runs on the map through
 * gb_gppc_index_open (a child process, the per-map index cache: GPPC runs
 * it in another execution), then gppc_search_init here, timed on its own.
 * Per batch (change): gppc_map_change alone is timed (change_ns, GPPC's
 * snapshot_time).  Per query (solve): gppc_get_path until incomplete == 0
 * (at most MAX_CALLS calls), each call timed; the parts are concatenated,
 * then expanded into cells (gb_gppc_expand).  A protocol breach (an empty
 * part marked incomplete, a NULL path with a length) fails the query (-1,
 * the reason in the metrics); a bent segment is refused (invalid_path).
 *
 * The startkit's header calls the release function gppc_free_data, its
 * example Entry.c gppc_free_search_data: both are declared weak and
 * whichever the entry defines is called by release.
 */
#include "Entry.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include "gb_gppc.h"
#include "gb_gppc_plugin.h"
#include "gb_user.h"

#ifndef GB_GPPC_ENTRY_HASH
#error "gb_gppc_dyn_driver.cpp is built by `gridbench gppc build`, which defines GB_GPPC_ENTRY_HASH"
#endif

extern "C" {
void gppc_free_data(void *data) __attribute__((weak));
void gppc_free_search_data(void *data) __attribute__((weak));
void gppc_preprocess_init_map(struct gppc_patch init_map, const char *file) __attribute__((weak));
void gppc_map_change(void *data, const struct gppc_patch *changes, uint32_t n) __attribute__((weak));
}

namespace {

namespace gp = gb_gppc_plugin;   /* qualified: an entry's own names may be anything */

struct state {
    gp::core c;                               /* prepared, diverted, the metrics */
    std::vector<uint8_t> bits;                /* the active map (see the head) */
    int w = 0, h = 0;
    void *data = nullptr;                     /* gppc_search_init's answer */
    std::vector<std::vector<uint8_t>> kept;   /* every patch's bit array since prepare */
    std::vector<gppc_patch> recs;             /* the last batch's records */
    std::vector<gppc_point> path;             /* the query's parts, concatenated */
    std::vector<gb_gppc_xy> wp;               /* the same in gridbench's coordinates */
};

state S;

void set_bit(std::vector<uint8_t> &b, size_t i, int v)
{
    if (v) b[i >> 3] = (uint8_t)(b[i >> 3] | (1u << (i & 7)));
    else b[i >> 3] = (uint8_t)(b[i >> 3] & ~(1u << (i & 7)));
}

gppc_patch whole_map()
{
    gppc_patch p;
    p.bitarray = S.bits.data();
    p.width = (uint16_t)S.w;
    p.height = (uint16_t)S.h;
    p.pos.x = p.pos.y = 0;
    return p;
}

int preprocess(void *arg, const char *file)
{
    (void)arg;
    if (gppc_preprocess_init_map) gppc_preprocess_init_map(whole_map(), file);
    return 0;
}

int prepare(void *ctx, const gb_grid *g, gb_model m)
{
    (void)ctx;
    if (gp::begin_map(S.c) != 0 || gp::check_grid(S.c, g, m, 65535, "uint16 points") != 0) return -1;
    S.w = g->width;
    S.h = g->height;
    S.bits.assign(((size_t)S.w * (size_t)S.h + 7) / 8, 0);
    for (int y = 0; y < S.h; y++)
        for (int x = 0; x < S.w; x++) set_bit(S.bits, (size_t)y * S.w + x, g->pass[gb_grid_id(g, x, y)] != 0);
    return gp::open_map(S.c, GB_GPPC_ENTRY_HASH, g, preprocess,
                        [](const char *file) { return gppc_search_init(whole_map(), file); }, &S.data);
}

void release(void *ctx)
{
    (void)ctx;
    if (S.c.prepared) {
        if (gppc_free_data) gppc_free_data(S.data);
        else if (gppc_free_search_data) gppc_free_search_data(S.data);
    }
    gp::close_map(S.c);
    S.data = nullptr;
    std::vector<std::vector<uint8_t>>().swap(S.kept);
    std::vector<uint8_t>().swap(S.bits);
}

/* The batch p[0..n): into S.bits in order, then gppc_map_change, timed. */
int change(void *ctx, const gb_grid *g, const gb_user_patch *p, int n)
{
    (void)ctx;
    (void)g;
    S.c.m.have &= ~(uint32_t)(GB_UM_CHANGE | GB_UM_ERROR);
    if (!S.c.prepared) return gp::fail(S.c, "expected a prepared map, found none");
    if (!gppc_map_change) return gp::fail(S.c, "expected the entry to define gppc_map_change, found none");
    S.recs.resize((size_t)n);
    for (int k = 0; k < n; k++) {
        const gb_user_patch *q = &p[k];
        if (q->x < 0 || q->y < 0 || q->w < 1 || q->h < 1 || q->x + q->w > S.w || q->y + q->h > S.h)
            return gp::fail(S.c, "expected a patch inside the map, found one outside");
        std::vector<uint8_t> b(((size_t)q->w * (size_t)q->h + 7) / 8, 0);
        for (int32_t y = 0; y < q->h; y++)
            for (int32_t x = 0; x < q->w; x++) {
                int v = q->cell[(size_t)y * (size_t)q->w + (size_t)x] != 0;
                set_bit(b, (size_t)y * (size_t)q->w + (size_t)x, v);
                set_bit(S.bits, (size_t)(q->y + y) * (size_t)S.w + (size_t)(q->x + x), v);
            }
        S.kept.push_back(std::move(b));
        gppc_patch &r = S.recs[(size_t)k];
        r.bitarray = S.kept.back().data();
        r.width = (uint16_t)q->w;
        r.height = (uint16_t)q->h;
        r.pos.x = (uint16_t)q->x;
        r.pos.y = (uint16_t)q->y;
    }
    uint64_t t0 = gp::now_ns();
    gppc_map_change(S.data, S.recs.data(), (uint32_t)n);
    uint64_t dt = gp::now_ns() - t0;
    S.c.m.change_ns = dt ? dt : 1;
    S.c.m.have |= GB_UM_CHANGE;
    return 0;
}

double seg_len(gppc_point a, gppc_point b)
{
    double dx = (double)b.x - a.x, dy = (double)b.y - a.y;
    return std::sqrt(dx * dx + dy * dy);
}

int32_t solve(void *ctx, const gb_grid *g, gb_model m, int32_t s, int32_t t, int32_t *out, int32_t cap,
              gb_stats *st)
{
    (void)ctx; (void)m; (void)st;
    if (gp::begin_query(S.c, GB_UM_MAP | GB_UM_CHANGE) != 0) return -1;   /* the map's and the batch's figures stay */
    gppc_point sp, gl;
    sp.x = (uint16_t)gb_grid_x(g, s);
    sp.y = (uint16_t)gb_grid_y(g, s);
    gl.x = (uint16_t)gb_grid_x(g, t);
    gl.y = (uint16_t)gb_grid_y(g, t);
    S.path.clear();
    gp::call_clock clk;
    double len = 0;
    for (bool done = false; !done;) {
        if (clk.exhausted(S.c, "gppc_get_path to return incomplete = 0, found 1")) return -1;
        uint64_t t0 = gp::now_ns();
        gppc_path r = gppc_get_path(S.data, sp, gl);
        uint64_t dt = gp::now_ns() - t0;
        done = !r.incomplete;
        if (r.length > 0 && !r.path) {
            S.c.m.calls = clk.calls + 1;
            return gp::fail(S.c, "expected a path with its length, found NULL with length > 0");
        }
        if (r.length == 0 && r.incomplete) {
            S.c.m.calls = clk.calls + 1;
            return gp::fail(S.c, "expected an empty part to end the query (incomplete = 0), found incomplete = 1");
        }
        if (r.length == 0) S.path.clear();   /* no path: parts given before are discarded */
        for (uint32_t i = 0; i < r.length; i++) {
            if (!S.path.empty()) len += seg_len(S.path.back(), r.path[i]);
            S.path.push_back(r.path[i]);
        }
        clk.add(dt, len);
    }
    clk.store(S.c);
    if (S.path.size() == 1 && s == t && S.path[0].x == sp.x && S.path[0].y == sp.y) {
        out[0] = s;             /* the one-cell path, spelt out */
        return 1;
    }
    return gp::answer(S.c, g, s, t, S.path, S.wp, out, cap);
}

int metrics(void *ctx, gb_user_metrics *out)
{
    (void)ctx;
    return gp::copy_metrics(S.c, out);
}

gb_user_change_hook chooks[1];

gb_gppc_plugin::exports &plugin_exports()
{
    static gb_gppc_plugin::exports e;
    if (gb_gppc_plugin::fill(e, gppc_get_name(), solve, prepare, release, metrics))
        chooks[0] = gb_user_change_hook{ e.name.c_str(), change };
    return e;
}

}  // namespace

extern "C" {

const gb_user_change_hook *gb_plugin_changes(int *n);

const gb_user_change_hook *gb_plugin_changes(int *n)
{
    plugin_exports();   /* fills chooks on its first call */
    *n = 1;
    return chooks;
}

}
