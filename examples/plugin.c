/*
 * plugin.c -- the same solver as a plugin: a shared library exporting
 * gb_plugin_solvers(), loaded with `gridbench run --plugin`.
 *
 *   cc -O2 -shared -fPIC $(pkg-config --cflags gridbench) plugin.c -o libuserdijkstra.so
 *   gridbench run --plugin ./libuserdijkstra.so --solver plugin-dijkstra SCEN...
 *
 * Only the headers are needed: the plugin calls nothing in libgridbench,
 * so it links against nothing and loads into any gridbench binary.
 */
#include "user_dijkstra.h"

const gb_user_solver *gb_plugin_solvers(int *n);

static const gb_user_solver solvers[] = {
    { "plugin-dijkstra", user_dijkstra, NULL, 1 },
};

const gb_user_solver *gb_plugin_solvers(int *n)
{
    *n = (int)(sizeof solvers / sizeof solvers[0]);
    return solvers;
}
