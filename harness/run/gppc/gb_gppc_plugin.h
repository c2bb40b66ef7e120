/*
 * gb_gppc_plugin.h -- what both GPPC drivers do the same way: the
 * solver's name, its kind (optimal or not, grid or any-angle path), the
 * three tables of the plugin ABI (gb_user.h: one solver, its
 * prepare/release hooks, its metrics), and the driver's side of a map and
 * a query -- the checks GPPC's coordinate types impose, the index and the
 * timed init call, the clock around the entry's calls, and the turn of its
 * waypoints into the runner's answer.  The classic driver
 * (gb_gppc_driver.cpp, which also builds any-angle entries under
 * GB_GPPC_ANYANGLE) and the dynamic-track driver (gb_gppc_dyn_driver.cpp,
 * which adds a change hook of its own) include it; nothing else does.
 * What is left in each driver is what differs: the entry's API (its map
 * bits, its init and path calls, the dynamic track's patches).
 *
 * State: a driver holds one `core` (a plugin holds one solver).  Its
 * invariants: prepared == 1 from a successful open_map to close_map;
 * diverted == 1 while this plugin holds a gb_gppc_stdout_divert; m.have
 * says which of m's figures are current (GB_UM_MAP from open_map,
 * GB_UM_QUERY from a finished query, GB_UM_ERROR with m.reason after
 * fail).
 *
 * Contract with the including driver: it includes this header once, and
 * defines, in its unnamed namespace, `gb_gppc_plugin::exports
 * &plugin_exports()`, which fills its exports on the first call
 * (gb_gppc_plugin::fill) and returns the same object every time.  The
 * three extern "C" entry points below call it.
 *
 * Found beside the driver (a quoted include searches the including file's
 * folder first): harness/run/gppc/ in the tree, share/gridbench/gppc/ once
 * installed.  `gridbench gppc build` hashes it into the build key with the
 * driver, so an edit here rebuilds every cached entry.
 */
#ifndef GB_GPPC_PLUGIN_H
#define GB_GPPC_PLUGIN_H

#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include "gb_gppc.h"
#include "gb_user.h"

namespace gb_gppc_plugin {

#ifdef GB_GPPC_SUBOPTIMAL
const int OPTIMAL = 0;   /* rows are not judged for optimality */
#else
const int OPTIMAL = GB_USER_OPTIMAL;
#endif

/* An entry of the any-angle track (GB_GPPC_ANYANGLE, set by the build):
 * its paths are corners in the GPPC any-angle model. */
#ifdef GB_GPPC_ANYANGLE
const int ANYANGLE = GB_USER_AA_GPPC;
#else
const int ANYANGLE = 0;
#endif

/* The solver's name: GB_GPPC_NAME (--name) when given, else the entry's
 * own name raw (NULL: none) with each character outside [A-Za-z0-9._:-]
 * made '_', "gppc-entry" when empty, cut to 63 characters. */
inline std::string solver_name(const char *raw)
{
#ifdef GB_GPPC_NAME
    (void)raw;
    return GB_GPPC_NAME;
#else
    std::string n = raw ? raw : "";
    for (char &c : n)
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-'
              || c == '_' || c == '.' || c == ':'))
            c = '_';
    if (n.empty()) n = "gppc-entry";
    if (n.size() > 63) n.resize(63);
    return n;
#endif
}

struct exports {
    std::string name;               /* empty until filled */
    gb_user_solver solvers[1];
    gb_user_hooks hooks[1];
    gb_user_metrics_hook mhooks[1];
};

/* Fill e from the entry's raw name and the driver's functions, once:
 * later calls leave e as it is.  1 when this call filled it. */
inline int fill(exports &e, const char *raw, gb_user_solve_fn solve, gb_user_prepare_fn prepare,
                gb_user_release_fn release, gb_user_metrics_fn metrics)
{
    if (!e.name.empty()) return 0;
    e.name = solver_name(raw);
    e.solvers[0] = gb_user_solver{ e.name.c_str(), solve, nullptr, OPTIMAL | ANYANGLE };
    e.hooks[0] = gb_user_hooks{ e.name.c_str(), prepare, release };
    e.mhooks[0] = gb_user_metrics_hook{ e.name.c_str(), metrics };
    return 1;
}

/* ---- the driver's side of a map and a query ------------------------- */

const unsigned long MAX_CALLS = 1ul << 24; /* an entry's path calls for one query */
const double FIRST_LEN = 20.0;             /* GPPC's "first 20 steps": Euclidean length */

struct core {
    gb_user_metrics m; /* what the last prepare (and change) and solve measured */
    int prepared = 0;  /* 1 between a successful open_map and close_map */
    int diverted = 0;  /* 1: this plugin holds a gb_gppc_stdout_divert */
};

inline uint64_t now_ns()
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Record a failure: m.reason = the printf-style fmt.  Returns -1, what
 * a hook returns on a failure. */
inline int fail(core &c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
inline int fail(core &c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    c.m.have |= GB_UM_ERROR;
    vsnprintf(c.m.reason, sizeof c.m.reason, fmt, ap);
    va_end(ap);
    return -1;
}

/* The start of prepare: m zeroed; 0, or -1 (failed) when a map is still
 * prepared. */
inline int begin_map(core &c)
{
    std::memset(&c.m, 0, sizeof c.m);
    if (c.prepared) return fail(c, "expected release before the next prepare, found none");
    return 0;
}

/* A grid entry's map: 0, or -1 (failed) when m is not GPPC's one model
 * (8-nocut) or g is wider or taller than max, the limit of GPPC's
 * coordinate type (named by type, e.g. "int16 xyLoc"). */
inline int check_grid(core &c, const gb_grid *g, gb_model m, int32_t max, const char *type)
{
    if (m != GB_MODEL_8_NOCUT)
        return fail(c, "expected the model 8-nocut (GPPC's only one), found %s",
                    m == GB_MODEL_8_CUT1     ? "8-cut1"
                    : m == GB_MODEL_8_CUTALL ? "8-cutall"
                                             : "4");
    if (g->width > max || g->height > max)
        return fail(c, "expected a map of at most %d columns and rows (GPPC's %s), found a larger one",
                    (int)max, type);
    return 0;
}

/* The rest of prepare, once the driver holds the entry's map: the entry's
 * stdout goes to stderr, the map's index is found or built
 * (gb_gppc_index_open: pre in a child process), then init(index file)
 * runs here, timed on its own (prepare_ns), and its answer is *data.
 * 0 (prepared), or -1 (failed, stdout restored). */
template <class Init>
int open_map(core &c, const char *entry_hash, const gb_grid *g, gb_gppc_preprocess_fn pre, Init init,
             void **data)
{
    c.diverted = gb_gppc_stdout_divert() == 0;
    gb_gppc_index ix;
    gb_diag d;
    std::memset(&d, 0, sizeof d);
    if (gb_gppc_index_open(entry_hash, g, pre, nullptr, &ix, &d) != 0) {
        fail(c, "%s (index %s)", d.msg, d.path);
        if (c.diverted) gb_gppc_stdout_restore();
        c.diverted = 0;
        return -1;
    }
    uint64_t t0 = now_ns();
    *data = init(ix.file);
    uint64_t dt = now_ns() - t0;
    c.m.prepare_ns = dt ? dt : 1;
    c.m.preprocess_ns = ix.preprocess_ns;
    c.m.storage_bytes = ix.storage_bytes;
    c.m.index_reused = ix.reused;
    c.m.have |= GB_UM_MAP;
    c.prepared = 1;
    return 0;
}

/* The driver's part of release: stdout back, no map prepared. */
inline void close_map(core &c)
{
    if (c.diverted) gb_gppc_stdout_restore();
    c.diverted = 0;
    c.prepared = 0;
}

/* The start of solve: the query's figures cleared, the flags in keep
 * kept.  0, or -1 (failed) when no map is prepared. */
inline int begin_query(core &c, uint32_t keep)
{
    c.m.have &= keep;
    c.m.calls = c.m.total_ns = c.m.first20_ns = c.m.max_call_ns = 0;
    c.m.bad_segment = -1;
    c.m.reason[0] = '\0';
    if (!c.prepared) return fail(c, "expected a prepared map, found none");
    return 0;
}

/* The clock around one query's calls: GPPC's total, first-20-steps and
 * longest call. */
struct call_clock {
    uint64_t total = 0, first = 0, longest = 0, calls = 0;
    bool reached = false; /* the path so far is FIRST_LEN long */

    /* true (and c failed: "expected <what> after MAX_CALLS calls") when
     * the query has had MAX_CALLS calls */
    bool exhausted(core &c, const char *what)
    {
        if (calls != MAX_CALLS) return false;
        c.m.calls = calls;
        fail(c, "expected %s after %lu calls", what, MAX_CALLS);
        return true;
    }
    /* one call of dt ns, after which the path is len long */
    void add(uint64_t dt, double len)
    {
        calls++;
        total += dt;
        if (dt > longest) longest = dt;
        if (!reached) {
            first += dt;
            reached = len >= FIRST_LEN - 1e-6;
        }
    }
    void store(core &c) const
    {
        c.m.calls = calls;
        c.m.total_ns = total;
        c.m.first20_ns = first;
        c.m.max_call_ns = longest;
        c.m.have |= GB_UM_QUERY;
    }
};

/* The runner's answer from the entry's n waypoints in path (any type with
 * x and y), through wp (reused): no waypoints is no path, or the one-cell
 * path when s == t; else the cells of gb_gppc_expand (grid waypoints,
 * gb_gppc_xy) or the lattice points of gb_gppc_snap (any-angle ones,
 * gb_gppc_pt).  Refused waypoints are cap + 1 (the runner's
 * invalid_path), with the segment and the reason in c.m. */
inline int32_t to_cells(const gb_grid *g, const gb_gppc_xy *wp, size_t n, int32_t *out, int32_t cap,
                        int64_t *bad, char *why, size_t whyn)
{
    return gb_gppc_expand(g, wp, n, out, cap, bad, why, whyn);
}
inline int32_t to_cells(const gb_grid *g, const gb_gppc_pt *wp, size_t n, int32_t *out, int32_t cap,
                        int64_t *bad, char *why, size_t whyn)
{
    return gb_gppc_snap(g, wp, n, out, cap, bad, why, whyn);
}

template <class P, class W>
int32_t answer(core &c, const gb_grid *g, int32_t s, int32_t t, const std::vector<P> &path,
               std::vector<W> &wp, int32_t *out, int32_t cap)
{
    size_t n = path.size();
    if (n == 0) {
        if (s != t) return 0; /* no path */
        out[0] = s;           /* GPPC's empty answer to start == goal */
        return 1;
    }
    wp.resize(n);
    for (size_t i = 0; i < n; i++) {
        wp[i].x = path[i].x;
        wp[i].y = path[i].y;
    }
    int64_t bad = -1;
    int32_t len = to_cells(g, wp.data(), n, out, cap, &bad, c.m.reason, sizeof c.m.reason);
    if (len < 0) {
        c.m.bad_segment = bad;
        c.m.have |= GB_UM_SEGMENT;
        return cap + 1;
    }
    return len;
}

/* The metrics hook's body: c's figures, as much of them as the caller's
 * struct (out->size) holds. */
inline int copy_metrics(const core &c, gb_user_metrics *out)
{
    uint32_t size = out->size;
    gb_user_metrics m = c.m;
    m.version = GB_USER_METRICS_VERSION;
    snprintf(m.time_source, sizeof m.time_source, "gppc");
    std::memcpy(out, &m, size < sizeof m ? size : sizeof m);
    out->size = size;
    return 0;
}

}  // namespace gb_gppc_plugin

namespace {
gb_gppc_plugin::exports &plugin_exports();   /* the driver's (contract above) */
}

extern "C" {

const gb_user_solver *gb_plugin_solvers(int *n);
const gb_user_hooks *gb_plugin_hooks(int *n);
const gb_user_metrics_hook *gb_plugin_metrics(int *n);

const gb_user_solver *gb_plugin_solvers(int *n)
{
    *n = 1;
    return plugin_exports().solvers;
}

const gb_user_hooks *gb_plugin_hooks(int *n)
{
    *n = 1;
    return plugin_exports().hooks;
}

const gb_user_metrics_hook *gb_plugin_metrics(int *n)
{
    *n = 1;
    return plugin_exports().mhooks;
}

}

#endif
