/*
 * gb_gppc_plugin.h -- what both GPPC drivers export the same way: the
 * solver's name, its kind (optimal or not, grid or any-angle path) and
 * the three tables of the plugin ABI (gb_user.h): one solver, its
 * prepare/release hooks, its metrics.  The classic driver
 * (gb_gppc_driver.cpp, which also builds any-angle entries under
 * GB_GPPC_ANYANGLE) and the dynamic-track driver (gb_gppc_dyn_driver.cpp,
 * which adds a change hook of its own) include it; nothing else does.
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

#include <string>

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
