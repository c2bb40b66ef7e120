/*
 * gb_dynreplay.h -- replay the queries of a dynamic scenario
 * (docs/dynamic.md) on a map that changes while an agent moves: the
 * agent follows D* Lite's plans, and every plan is checked against A*
 * from scratch and Dijkstra on the map as it is then.  `gridbench
 * dynamic` writes one CSV row per replayed query; the dynamic fuzz
 * target replays what it loads through the same code.
 *
 * One replay (gb_dynrep_query), for one query:
 *   t = 0, agent = start; fire the `near` events the agent already senses;
 *   plan (D* Lite, the from-scratch baseline, the Dijkstra oracle), check;
 *   while the agent is not on the goal and a path exists:
 *     the agent takes the next step of the D* Lite plan; t += 1;
 *     fire every event not yet fired whose trigger holds (`at T` with
 *     T == t, `near R` with a cell within Chebyshev distance R of the
 *     agent); a fired event sets its cells' passability (a block of the
 *     cell the agent stands on is dropped and counted; under terrain
 *     costs a freed cell gets its cost back, see gb_dynrep_new);
 *     if a cell changed: replan with all three and check.
 *   Then the map is restored, cell by cell, and every solver told.
 * Checks on every plan: D* Lite and the baseline find a path iff
 * Dijkstra does; both paths pass the independent validator on the map
 * now; both cost exactly (same straight and diagonal step counts, or
 * under terrain costs the same straight and diagonal units) what
 * Dijkstra's path costs.  The first failure is the row's message and
 * makes its status "wrong".
 *
 * Timing (CLOCK_MONOTONIC, one measurement per plan: the searches cannot
 * be repeated without undoing their state): D* Lite's replan time counts
 * telling it the changed cells (its repair) and its plan; the baseline's
 * counts telling its workspace the changed cells and one gb_solve.  The
 * oracle, the checks and the observer are not timed.
 *
 * An observer (may be NULL, as may each of its functions) sees what the
 * agent sees, in order: each fired event (the map already changed), each
 * D* Lite plan, each move.  `gridbench dynamic --trace` writes them
 * (gb_dyntrace.h); the fuzz target checks them.
 *
 * No printing, no exit; allocation in gb_dynrep_new and, for the
 * per-event flags and the changed-cell list, while replaying.
 */
#ifndef GB_DYNREPLAY_H
#define GB_DYNREPLAY_H

#include <stddef.h>
#include <stdint.h>

#include "gb_dstar.h"
#include "gb_dynscen.h"
#include "gb_grid.h"
#include "gb_search.h"

/* What one planner did over one replay. */
typedef struct gb_dynrep_acc {
    int64_t first_ns, replan_ns;      /* time of the first plan, of all replans */
    uint64_t first_exp, replan_exp;   /* expansions, likewise */
    uint64_t replan_pops, replan_updates;   /* D* Lite only: queue pops and
                                               UpdateVertex calls of the replans */
} gb_dynrep_acc;

/* One replay's outcome: the values of a CSV row of `gridbench dynamic`. */
typedef struct gb_dynrep_row {
    const char *status;      /* "arrived", "unreachable" or "wrong" (static) */
    int64_t steps;           /* moves made */
    double travelled;        /* their cost */
    double first_cost;       /* cost of the first plan (0 when none) */
    int64_t cells_changed;   /* passability flips by fired events */
    int64_t dropped;         /* blocks of the agent's own cell, dropped */
    int64_t plans;           /* plans made (1 + replans) */
    gb_dynrep_acc ds, as;    /* D* Lite, the from-scratch baseline */
    char msg[512];           /* the first failure; "" when none */
} gb_dynrep_row;

/* Sees a replay (gb_dynrep_query) as it happens; t is the agent's step
 * count, the query's index qi into s->q.  Called outside the timed parts. */
typedef struct gb_dynrep_obs {
    void *arg;
    /* event ev (its cells cl[0 .. ev->nc)) fired with the agent on cell
     * agent; the map shows its effect already (a block of the agent's
     * cell was dropped) */
    void (*event)(void *arg, int64_t t, const gb_dyn_event *ev, const gb_dyn_cell *cl,
                  int32_t agent);
    /* D* Lite planned p from agent (p->path valid during the call only) */
    void (*plan)(void *arg, int64_t t, int32_t agent, const gb_dstar_plan *p);
    /* the agent moved onto cell agent (its t-th move) */
    void (*move)(void *arg, int64_t t, int32_t agent);
} gb_dynrep_obs;

typedef struct gb_dynrep gb_dynrep;

/* A replayer for grid g (not owned; changed during a replay and restored
 * after it, so it must outlive the replayer and not change otherwise)
 * under model m, with the from-scratch baseline astar (an optimal solver
 * under m, and under terrain costs when g has them: the caller checks) on
 * queue q.  On a grid with terrain costs (gb_terrain.h) an event that
 * blocks a cell sets its cost to 0 and one that frees it gives it back
 * its own cost or, for a cell the map blocks, fill (units of 1/den; 0:
 * such a cell stays blocked); g's qmin and qmax are widened to include
 * fill before any search is prepared.  fill is ignored on a uniform grid.
 * NULL with errno = ENOMEM. */
gb_dynrep *gb_dynrep_new(gb_grid *g, gb_model m, const gb_solver_spec *astar, gb_queue_kind q,
                         uint16_t fill);
void gb_dynrep_free(gb_dynrep *r);

/* Replay query qi of s, which passed gb_dynscen_check_query() against
 * the map of g, and fill *row.  obs may be NULL.  Returns 0 (row->status
 * says how it went), or EX_OSERR (out of memory; the map is restored
 * either way). */
int gb_dynrep_query(gb_dynrep *r, const gb_dynscen *s, size_t qi, const gb_dynrep_obs *obs,
                    gb_dynrep_row *row);

#endif
