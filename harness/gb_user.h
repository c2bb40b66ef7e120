/*
 * gb_user.h -- solvers written by users, run by gridbench like its own.
 *
 * A user solver is one C function with the signature gb_user_solve_fn.
 * It gets the padded grid (solvers/gb_grid.h: pass[id], gb_grid_id,
 * gb_grid_x/y, off[k]), the movement model, the start and goal cell ids,
 * and a path buffer of cap ids, cap = g->ncells (every cell of the padded
 * grid, so any simple path fits); it writes the path start..goal (cell
 * ids) and returns its length, 0 when it finds no path, or -1 on an
 * internal error (its row is then `crash`, with that reason; a length
 * above cap is an `invalid_path`).  It may fill *st with its own counters (expanded, generated...);
 * *st is zeroed before the call.  gridbench validates the path, recomputes
 * its cost, compares it with Dijkstra and the scenario, and times the call,
 * exactly as for the built-in solvers.
 *
 * Two ways to make gridbench see it:
 *   - static: in your own main(), call gb_user_register("mine", fn, ctx)
 *     and then gb_cmd_run(argc, argv) (or gb_run) with --solver mine;
 *   - plugin: build a shared library exporting
 *         const gb_user_solver *gb_plugin_solvers(int *n);
 *     returning a table of n solvers, and run
 *         gridbench run --plugin ./libmine.so --solver mine SCEN...
 *
 * A plugin may call any function of the public headers (gb_search.h,
 * gb_grid.h, gb_validate.h, ...): the gridbench binary exports its whole
 * library, and libgridbench.a / libgridbench.so are built position
 * independent, so `$(pkg-config --libs gridbench)` also links.
 *
 * The registry is a small process-wide table (GB_USER_MAX entries); it is
 * not thread-safe and is meant to be filled once at start-up.
 */
#ifndef GB_USER_H
#define GB_USER_H

#include <stdint.h>

#include "gb_diag.h"
#include "gb_grid.h"
#include "gb_search.h"

#define GB_USER_MAX 32

typedef int32_t (*gb_user_solve_fn)(void *ctx, const gb_grid *g, gb_model m, int32_t start,
                                    int32_t goal, int32_t *path, int32_t cap, gb_stats *st);

typedef struct gb_user_solver {
    const char *name;          /* --solver name; letters, digits, - _ . : */
    gb_user_solve_fn solve;
    void *ctx;                 /* passed back to solve */
    int optimal;               /* 1: rows are checked as an optimal solver's */
} gb_user_solver;

/* What a plugin exports (the symbol name is GB_PLUGIN_SYMBOL). */
typedef const gb_user_solver *(*gb_plugin_fn)(int *n);
#define GB_PLUGIN_SYMBOL "gb_plugin_solvers"

/* Register a solver (name copied by pointer: it must outlive the run).
 * 0, or -1 when the table is full, the name is taken by a built-in or
 * user solver, or it has characters outside [A-Za-z0-9._:-]. */
int gb_user_register(const char *name, gb_user_solve_fn fn, void *ctx, int optimal);

/* The registered solver called name, or NULL. */
const gb_user_solver *gb_user_find(const char *name);

/* dlopen() path and register every solver of its gb_plugin_solvers()
 * table.  0, or EX_NOINPUT / EX_DATAERR with a message in *d. */
int gb_user_load_plugin(const char *path, gb_diag *d);

#endif
