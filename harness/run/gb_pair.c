/*
 * gb_pair.c -- what a (solver, queue) pair of a run is called and what it
 * promises (gb_run_opts.h): the queue and solver columns of its rows, its
 * guarantee and its cost model, whichever backend runs it, and the name
 * of the timing regime.  Pure functions of the pair: the executor, the
 * judge and the shard checks read them alike.
 */
#include "gb_run_opts.h"

#include "gb_shard.h"
#include "gb_user.h"

const char *gb_pair_queue_name(const gb_pair *p)
{
    if (p->user || p->ext_cmd) return "none";
    return p->queue < 0 ? gb_solver_queue_label(&p->spec) : gb_queue_name((gb_queue_kind)p->queue);
}

const char *gb_pair_solver_name(const gb_pair *p)
{
    return p->ext_cmd && !p->ext_named ? GB_SHARD_ANY_EXTERNAL : p->spec.name;
}

const char *gb_regime_name(int regime) { return regime == GB_REGIME_GPPC ? "gppc" : "interleaved"; }

gb_guarantee gb_pair_guarantee(const gb_pair *p, gb_model m, double *bound)
{
    if (p->ext_cmd) {
        *bound = 1.0;
        return GB_GUAR_OPTIMAL;
    } /* externals claim optimality */
    if (!p->user) return gb_solver_guarantee(&p->spec, m, bound);
    /* a GPPC any-angle entry's optimality is against the any-angle optimum
     * (gb_outcome.aa_optimal), never against Dijkstra's grid cost */
    const int opt = (p->user->optimal & GB_USER_OPTIMAL) && !(p->user->optimal & GB_USER_AA_GPPC);
    *bound = opt ? 1.0 : 0.0;
    return opt ? GB_GUAR_OPTIMAL : GB_GUAR_NONE;
}

gb_cost_model gb_pair_cost_model(const gb_pair *p)
{
    if (p->user) return p->user->optimal & GB_USER_AA_GPPC ? GB_COST_ANYANGLE : GB_COST_GRID;
    return p->ext_cmd ? GB_COST_GRID : gb_solver_cost_model(&p->spec);
}
