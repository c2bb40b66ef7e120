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

namespace gp = gb_gppc_plugin;   /* qualified: an entry's own names may be anything */

struct state {
    gp::core c;                       /* prepared, diverted, the metrics */
    std::vector<bool> bits;       /* the map, GPPC's way: bits[y*w+x] true = passable */
    int w = 0, h = 0;
    void *data = nullptr;         /* PrepareForSearch's answer for this map */
    std::vector<xyLoc> path;      /* GetPath's output, reused by every query */
#ifdef GB_GPPC_ANYANGLE
    std::vector<gb_gppc_pt> wp;   /* the same as real points */
#else
    std::vector<gb_gppc_xy> wp;   /* the same in gridbench's coordinates */
#endif
};

state S;

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
    if (gp::begin_map(S.c) != 0) return -1;
#ifdef GB_GPPC_ANYANGLE
    (void)m;   /* corners on the plane: no movement model, no int16 limit */
#else
    if (gp::check_grid(S.c, g, m, 32767, "int16 xyLoc") != 0) return -1;
#endif
    S.w = g->width;
    S.h = g->height;
    S.bits.assign((size_t)S.w * (size_t)S.h, false);
    for (int y = 0; y < S.h; y++)
        for (int x = 0; x < S.w; x++) S.bits[(size_t)y * S.w + x] = g->pass[gb_grid_id(g, x, y)] != 0;
    return gp::open_map(S.c, GB_GPPC_ENTRY_HASH, g, preprocess,
                    [](const char *file) {
                        std::string fn(file);
                        return PrepareForSearch(S.bits, S.w, S.h, fn);
                    },
                    &S.data);
}

void release(void *ctx)
{
    (void)ctx;
    gp::close_map(S.c);
    S.data = nullptr;   /* not freed: the GPPC API has no call for it */
}

int32_t solve(void *ctx, const gb_grid *g, gb_model m, int32_t s, int32_t t, int32_t *out, int32_t cap,
              gb_stats *st)
{
    (void)ctx; (void)m; (void)st;
    if (gp::begin_query(S.c, GB_UM_MAP) != 0) return -1;   /* the map's figures stay */
    xyLoc sl, gl;
    sl.x = static_cast<decltype(sl.x)>(gb_grid_x(g, s));
    sl.y = static_cast<decltype(sl.y)>(gb_grid_y(g, s));
    gl.x = static_cast<decltype(gl.x)>(gb_grid_x(g, t));
    gl.y = static_cast<decltype(gl.y)>(gb_grid_y(g, t));
    S.path.clear();
    gp::call_clock clk;
    for (bool done = false; !done;) {
        if (clk.exhausted(S.c, "GetPath to return true, found false")) return -1;
        uint64_t t0 = gp::now_ns();
        done = GetPath(S.data, sl, gl, S.path);
        clk.add(gp::now_ns() - t0, clk.reached ? 0 : path_length(S.path));
    }
    clk.store(S.c);
    return gp::answer(S.c, g, s, t, S.path, S.wp, out, cap);
}

int metrics(void *ctx, gb_user_metrics *out)
{
    (void)ctx;
    return gp::copy_metrics(S.c, out);
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
