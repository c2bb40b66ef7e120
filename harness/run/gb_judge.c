/*
 * gb_judge.c -- the verdict: one pure classification of what a pair's run
 * came to, over the one status table of gb_status.h.
 *
 * gb_judge reads only its argument: the same outcome gives the same
 * status in every process, which is what lets --jobs and --resume write
 * the same CSV as one process.  The order of the tests is the order of
 * the status list in gb_run.h (first that applies).
 */
#include "gb_exec.h"

int gb_judge(const gb_outcome *w)
{
    if (w->ext_status == GB_EXT_LIMIT || w->over_mem) return GB_ROW_LIMIT;
    if (w->ext_status == GB_EXT_PROTOCOL) return GB_ROW_PROTOCOL;
    if (w->ext_status == GB_EXT_TIMEOUT) return GB_ROW_TIMEOUT;
    if (w->ext_status == GB_EXT_CRASH) return GB_ROW_CRASH;
    if (w->rs == GB_LIMIT) return GB_ROW_LIMIT;
    if (w->rs == GB_FOUND) {
        if (!w->valid) return GB_ROW_INVALID;
        if (!w->oracle_found) return -1;
        /* any-angle: between the straight line and grid_bound x the grid optimum */
        if (w->anyangle && w->pc->cost < w->euclid - w->pc->tol) return GB_ROW_INVALID;
        /* GPPC model: not below the exact any-angle optimum either */
        if (w->anyangle && w->aa_has && w->pc->cost < w->aa_opt * (1.0 - 1e-12) - w->pc->tol)
            return GB_ROW_INVALID;
        /* an optimal any-angle search (anya): not above it */
        if (w->anyangle && w->aa_has && w->aa_optimal
            && w->pc->cost > w->aa_opt * (1.0 + 1e-9) + w->pc->tol)
            return GB_ROW_SUBOPTIMAL;
        /* under terrain costs the grid optimum is the line-integral one (d_L) */
        const gb_check *gc = w->li ? w->li : w->oc;
        if (w->anyangle && w->grid_bound > 0
            && w->pc->cost > w->grid_bound * gc->cost + w->pc->tol + gc->tol * w->grid_bound)
            return GB_ROW_SUBOPTIMAL;
        if (w->gu == GB_GUAR_OPTIMAL && gb_check_cmp(w->pc, w->oc) != 0) return GB_ROW_SUBOPTIMAL;
        if (w->gu == GB_GUAR_BOUNDED
            && w->pc->cost > w->bound * w->oc->cost + w->pc->tol + w->oc->tol * w->bound)
            return GB_ROW_SUBOPTIMAL;
        return w->scen_ok ? GB_ROW_OK : GB_ROW_SCEN_MISMATCH;
    }
    if (w->oracle_found) return GB_ROW_FALSE_UNREACHABLE;
    return w->scen_ok ? GB_ROW_UNREACHABLE : GB_ROW_SCEN_MISMATCH;
}

int gb_judge_needs_proof(const gb_outcome *w, int status)
{
    /* a misbehaving solver fails whatever the optimum; limits prove nothing either way */
    if (w->ext_status != GB_EXT_PATH || w->over_mem || w->rs == GB_LIMIT) return 0;
    if (status < 0 || gb_row_status_failed((gb_row_status)status)) return 1;
    if (w->rs != GB_FOUND) return 1;                 /* "no path": only Dijkstra may agree */
    return w->valid && !w->anyangle && w->oracle_found && gb_check_cmp(w->pc, w->oc) < 0;
}
