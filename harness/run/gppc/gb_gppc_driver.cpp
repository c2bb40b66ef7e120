/*
 * gb_gppc_driver.cpp -- one GPPC classic or any-angle entry as a
 * gridbench plugin.
 *
 * Compiled only by `gridbench gppc build` (harness/run/gb_gppc.c), together
 * with the entry's own sources, into a shared object that exports the
 * plugin ABI of gb_user.h: one solver, its prepare/release hooks and its
 * metrics (gb_plugin_metrics).  Never part of the normal build.
 *
 * Defines given by the build:
 *   GB_GPPC_ENTRY_HASH   the entry's content hash: its index cache folder
 *   GB_GPPC_NAME         the solver's name (--name); else GetName(), with
 *                        characters outside [A-Za-z0-9._:-] made '_'
 *   GB_GPPC_SUBOPTIMAL   the rows are not judged for optimality
 *   GB_GPPC_ANYANGLE     an entry of the any-angle track: the same API,
 *                        but xyLoc holds doubles and a path is corners
 *                        joined by straight segments (below)
 *
 * Per map (prepare): the padded grid becomes the GPPC bits (bits[y*w+x]
 * true = passable: '.', 'G', 'S', the same set as gridbench's loader), the
 * index is found or built by gb_gppc_index_open (PreprocessMap in a child
 * process, as GPPC runs it in a separate execution), then
 * PrepareForSearch runs here, timed on its own.  The entry's stdout goes
 * to stderr from prepare to release (gb_gppc_stdout_divert), so it never
 * lands in a CSV.
 *
 * Per query (solve): GetPath is called until it returns true (at most
 * MAX_CALLS times), each call timed with CLOCK_MONOTONIC; then the
 * waypoints are expanded into cells (gb_gppc_expand).  An any-angle
 * entry's waypoints are read as lattice points instead (gb_gppc_snap:
 * each coordinate within 1e-6 of an integer), which the runner validates
 * exactly in the GPPC any-angle model; the plugin is flagged
 * GB_USER_AA_GPPC so it runs only under --anyangle-model gppc, and the
 * map's model is not its business (the GPPC bits are the same).  A
 * refused path is returned as a length past the buffer (the runner's
 * invalid_path), with the segment and the reason in the metrics.
 *
 * State: one static `state` (a plugin holds one solver); the data
 * PrepareForSearch returns is never freed (the GPPC API has no call for
 * it), so a worker keeps each map's search data until it exits.
 */
#include "Entry.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include <unistd.h>

#include "gb_gppc.h"
#include "gb_gppc_plugin.h"
#include "gb_user.h"

#ifndef GB_GPPC_ENTRY_HASH
#error "gb_gppc_driver.cpp is built by `gridbench gppc build`, which defines GB_GPPC_ENTRY_HASH"
#endif

namespace {

const unsigned long MAX_CALLS = 1ul << 24;   /* GetPath calls for one query */
const double FIRST_LEN = 20.0;               /* GPPC's "first 20 steps": Euclidean length */

struct state {
    std::vector<bool> bits;       /* the map, GPPC's way: bits[y*w+x] true = passable */
    int w = 0, h = 0;
    void *data = nullptr;         /* PrepareForSearch's answer for this map */
    int prepared = 0;             /* 1 between a successful prepare and release */
    int diverted = 0;             /* 1: this plugin holds a gb_gppc_stdout_divert */
    std::vector<xyLoc> path;      /* GetPath's output, reused by every query */
#ifdef GB_GPPC_ANYANGLE
    std::vector<gb_gppc_pt> wp;   /* the same as real points */
#else
    std::vector<gb_gppc_xy> wp;   /* the same in gridbench's coordinates */
#endif
    gb_user_metrics m;            /* what the last prepare and solve measured */
};

state S;

uint64_t now_ns()
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void fail(const char *fmt, const char *what)
{
    S.m.have |= GB_UM_ERROR;
    snprintf(S.m.reason, sizeof S.m.reason, fmt, what);
}

double path_length(const std::vector<xyLoc> &p)
{
    double len = 0;
    for (size_t i = 1; i < p.size(); i++) {
        double dx = (double)p[i].x - p[i - 1].x, dy = (double)p[i].y - p[i - 1].y;
        len += std::sqrt(dx * dx + dy * dy);
    }
    return len;
}

int preprocess(void *arg, const char *file)
{
    (void)arg;
    std::string fn(file);   /* some entries take non-const references */
    PreprocessMap(S.bits, S.w, S.h, fn);
    return 0;
}

int prepare(void *ctx, const gb_grid *g, gb_model m)
{
    (void)ctx;
    std::memset(&S.m, 0, sizeof S.m);
    if (S.prepared) return fail("expected release before the next prepare, found %s", "none"), -1;
#ifdef GB_GPPC_ANYANGLE
    (void)m;   /* corners on the plane: no movement model, no int16 limit */
#else
    if (m != GB_MODEL_8_NOCUT)
        return fail("expected the model 8-nocut (GPPC's only one), found %s",
                    m == GB_MODEL_8_CUT1 ? "8-cut1" : m == GB_MODEL_8_CUTALL ? "8-cutall" : "4"), -1;
    if (g->width > 32767 || g->height > 32767)
        return fail("expected a map of at most 32767 columns and rows (GPPC's int16 xyLoc), found %s",
                    "a larger one"), -1;
#endif
    S.w = g->width;
    S.h = g->height;
    S.bits.assign((size_t)S.w * (size_t)S.h, false);
    for (int y = 0; y < S.h; y++)
        for (int x = 0; x < S.w; x++) S.bits[(size_t)y * S.w + x] = g->pass[gb_grid_id(g, x, y)] != 0;
    S.diverted = gb_gppc_stdout_divert() == 0;
    gb_gppc_index ix;
    gb_diag d;
    std::memset(&d, 0, sizeof d);
    if (gb_gppc_index_open(GB_GPPC_ENTRY_HASH, g, preprocess, nullptr, &ix, &d) != 0) {
        char b[200];
        snprintf(b, sizeof b, "%s (index %s)", d.msg, d.path);
        fail("%s", b);
        goto undo;
    }
    {
        std::string fn(ix.file);
        uint64_t t0 = now_ns();
        S.data = PrepareForSearch(S.bits, S.w, S.h, fn);
        uint64_t dt = now_ns() - t0;
        S.m.prepare_ns = dt ? dt : 1;
    }
    S.m.preprocess_ns = ix.preprocess_ns;
    S.m.storage_bytes = ix.storage_bytes;
    S.m.index_reused = ix.reused;
    S.m.have |= GB_UM_MAP;
    S.prepared = 1;
    return 0;
undo:
    if (S.diverted) gb_gppc_stdout_restore();
    S.diverted = 0;
    return -1;
}

void release(void *ctx)
{
    (void)ctx;
    if (S.diverted) gb_gppc_stdout_restore();
    S.diverted = 0;
    S.data = nullptr;   /* not freed: the GPPC API has no call for it */
    S.prepared = 0;
}

int32_t solve(void *ctx, const gb_grid *g, gb_model m, int32_t s, int32_t t, int32_t *out, int32_t cap,
              gb_stats *st)
{
    (void)ctx; (void)m; (void)st;
    uint32_t keep = S.m.have & GB_UM_MAP;   /* the map's figures stay; the query's are new */
    S.m.have = keep;
    S.m.calls = S.m.total_ns = S.m.first20_ns = S.m.max_call_ns = 0;
    S.m.bad_segment = -1;
    S.m.reason[0] = '\0';
    if (!S.prepared) return fail("expected a prepared map, found %s", "none"), -1;
    xyLoc sl, gl;
    sl.x = static_cast<decltype(sl.x)>(gb_grid_x(g, s));
    sl.y = static_cast<decltype(sl.y)>(gb_grid_y(g, s));
    gl.x = static_cast<decltype(gl.x)>(gb_grid_x(g, t));
    gl.y = static_cast<decltype(gl.y)>(gb_grid_y(g, t));
    S.path.clear();
    bool done = false, reached = false;
    uint64_t total = 0, first = 0, longest = 0, calls = 0;
    while (!done) {
        if (calls == MAX_CALLS) {
            char b[64];
            snprintf(b, sizeof b, "%lu calls", MAX_CALLS);
            S.m.calls = calls;
            return fail("expected GetPath to return true, found false after %s", b), -1;
        }
        uint64_t t0 = now_ns();
        done = GetPath(S.data, sl, gl, S.path);
        uint64_t dt = now_ns() - t0;
        calls++;
        total += dt;
        if (dt > longest) longest = dt;
        if (!reached) {
            first += dt;
            reached = path_length(S.path) >= FIRST_LEN - 1e-6;
        }
    }
    S.m.calls = calls;
    S.m.total_ns = total;
    S.m.first20_ns = first;
    S.m.max_call_ns = longest;
    S.m.have |= GB_UM_QUERY;
    size_t n = S.path.size();
    if (n == 0) {
        if (s != t) return 0;   /* no path */
        out[0] = s;             /* GPPC's empty answer to start == goal */
        return 1;
    }
    S.wp.resize(n);
    for (size_t i = 0; i < n; i++) {
        S.wp[i].x = S.path[i].x;
        S.wp[i].y = S.path[i].y;
    }
    int64_t bad = -1;
#ifdef GB_GPPC_ANYANGLE
    int32_t len = gb_gppc_snap(g, S.wp.data(), n, out, cap, &bad, S.m.reason, sizeof S.m.reason);
#else
    int32_t len = gb_gppc_expand(g, S.wp.data(), n, out, cap, &bad, S.m.reason, sizeof S.m.reason);
#endif
    if (len < 0) {
        S.m.bad_segment = bad;
        S.m.have |= GB_UM_SEGMENT;
        return cap + 1;         /* the runner's invalid_path */
    }
    return len;
}

int metrics(void *ctx, gb_user_metrics *out)
{
    (void)ctx;
    uint32_t size = out->size;
    gb_user_metrics m = S.m;
    m.version = GB_USER_METRICS_VERSION;
    snprintf(m.time_source, sizeof m.time_source, "gppc");
    /* the whole struct of this version: write what the caller owns of it */
    std::memcpy(out, &m, size < sizeof m ? size : sizeof m);
    out->size = size;
    return 0;
}

gb_gppc_plugin::exports &plugin_exports()
{
    static gb_gppc_plugin::exports e;
    if (e.name.empty()) {
        std::string raw = GetName();
        gb_gppc_plugin::fill(e, raw.c_str(), solve, prepare, release, metrics);
    }
    return e;
}

}  // namespace
