/*
 * my_solver.c -- testing your own solver with gridbench, statically: your
 * main() registers the solver and hands the command line to `gridbench
 * run`.  Build against the installed library:
 *
 *   cc -O2 $(pkg-config --cflags gridbench) my_solver.c -o my_solver \
 *      $(pkg-config --libs gridbench)
 *   ./my_solver --solver my-dijkstra,astar-octile ../shared/movingai/dao/arena.map.scen
 *
 * Every option of `gridbench run` works; the exit status is gridbench's
 * (1 when a path is wrong).
 */
#include "user_dijkstra.h"

#include <gb_cmd.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    if (gb_user_register("my-dijkstra", user_dijkstra, NULL, 1) != 0) {
        fprintf(stderr, "my_solver: could not register my-dijkstra\n");
        return 70;
    }
    return gb_cmd_run(argc, argv);
}
