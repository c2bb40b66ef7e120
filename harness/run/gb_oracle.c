/*
 * gb_oracle.c -- the optimum every row is judged against.
 *
 * The oracle is Dijkstra on the bucket queue (exact on every queue; the
 * fastest), whose path is validated like any other: an oracle path that
 * fails validation is an internal error and stops the run.
 *
 * The oracle cache (gb_ocache.h) lets a run skip Dijkstra on a query it
 * has seen.  A record is a CLAIM, not a proof: its checksum catches a torn
 * or corrupted file, not a forged one, and a record that agrees with the
 * scenario's printed length to its printed precision can still be wrong
 * (on a 2-decimal file another step count often fits within 0.005).  So
 * the trust model is:
 *   - a record is used only when it agrees with the scenario's printed
 *     length (an "unreachable" record only when the scenario prints 0);
 *   - a verdict is never given on a record alone when it would hurt or
 *     excuse a solver: whenever a row would fail, a grid path is cheaper
 *     than the record, a solver reports no path, or a valid path exists
 *     where the record says none (gb_judge_needs_proof), the query is
 *     re-derived by Dijkstra before any of its rows is written, the
 *     record replaced if it was wrong (with a warning), and every pair of
 *     the query judged again;
 *   - what the cache can still do: make a wrong path pass that is exactly
 *     as long as a forged record which every other solver on the query
 *     also matches.  The cache is therefore trusted as much as the user's
 *     own files, and gb_ocache.c refuses directories and files another
 *     user can write (docs/trust.md).
 * With the cache off, every optimum is Dijkstra's and nothing is trusted.
 */
#include "gb_exec.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <string.h>

#include "gb_scen.h"

/* sqrt 2 as the Moving AI generator used it for the 8-decimal files: their
 * lengths are %.8f of straight + 1.414213562 * diagonal, which drifts from
 * the true cost by 3.7e-10 per diagonal step -- more than the printed
 * precision on long paths (den312d line 5: 70.11269836 printed, 70.11269837
 * true).  Checked on ../shared/movingai. */
#define SCEN_SQRT2_PUBLISHED 1.414213562

int gb_scen_agrees(const gb_check *oc, const gb_query *q)
{
    if (fabs(oc->cost - q->length) <= q->tol) return 1;
    double pub = ((double)oc->straight + SCEN_SQRT2_PUBLISHED * (double)oc->diag)
                 / (double)(oc->scale > 0 ? oc->scale : 1);
    return fabs(pub - q->length) <= q->tol;
}

/* The check of an optimum known by its step counts (a cache record), as
 * the validator would have filled it for such a path. */
static void check_of_counts(int64_t straight, int64_t diag, gb_check *c)
{
    memset(c, 0, sizeof *c);
    c->ok = 1;
    c->straight = straight;
    c->diag = diag;
    c->scale = 1;
    c->cost = gb_check_cost(straight, diag);
    c->tol = ((double)(straight + diag + 1) + 2.0) * DBL_EPSILON * (c->cost > 1.0 ? c->cost : 1.0);
    c->bad_step = -1;
}

/* Dijkstra on query q into *opt (found, scen_ok, oc), its path validated. */
static int dijkstra(gb_exec *ex, const gb_query *q, const char *scen, gb_optimum *opt, gb_diag *d)
{
    const gb_grid *g = &ex->map.grid;
    int32_t s = gb_grid_id(g, q->sx, q->sy), t = gb_grid_id(g, q->gx, q->gy);
    gb_xy sxy = { q->sx, q->sy }, txy = { q->gx, q->gy };
    gb_result r;
    if (gb_solve(ex->ws, &ex->oracle, GB_ORACLE_QUEUE, s, t, &r) != 0)
        return gb_diag_set(d, EX_OSERR, scen, q->line, 0, "expected memory for the search, found none");
    memset(&opt->oc, 0, sizeof opt->oc);
    opt->found = r.status == GB_FOUND;
    opt->from_cache = 0;
    if (opt->found) {
        for (int32_t i = 0; i < r.path_len; i++) {
            ex->xy[i].x = gb_grid_x(g, r.path[i]);
            ex->xy[i].y = gb_grid_y(g, r.path[i]);
        }
        if (!gb_validate_path(g, ex->o->model, sxy, txy, ex->xy, (size_t)r.path_len, r.cost, &opt->oc))
            return gb_diag_set(d, EX_SOFTWARE, scen, q->line, 0,
                               "expected the Dijkstra oracle's path to be valid, found: %s",
                               opt->oc.msg);
    }
    /* (a scenario printing a length for an unreachable goal disagrees) */
    opt->scen_ok = opt->found ? gb_scen_agrees(&opt->oc, q) : q->length <= 0.0;
    return 0;
}

/* Record Dijkstra's answer in the cache when it differs from what the
 * cache held (had: a record was there, (ca, cb) its counts). */
static int record(gb_exec *ex, const gb_query *q, const char *scen, const gb_optimum *opt, int had,
                  int64_t ca, int64_t cb, gb_diag *d)
{
    int64_t na = opt->found ? opt->oc.straight : 0, nb = opt->found ? opt->oc.diag : -1;
    if (!ex->oc || (had && ca == na && cb == nb)) return 0;
    if (had)
        gb_exec_note(ex, GB_NOTE_WARNING, "%s:%ld: warning: the oracle cache said %s, Dijkstra "
                     "says %s; the cache entry is replaced", scen, q->line,
                     cb < 0 ? "unreachable" : "another optimum", nb < 0 ? "unreachable" : "this one");
    int pe = gb_ocache_put(ex->oc, q->sx, q->sy, q->gx, q->gy, na, nb);
    if (pe == -2)
        return gb_diag_set(d, EX_OSERR, scen, q->line, 0, "expected memory for the oracle cache, "
                           "found none");
    if (pe != 0 && !ex->oc_warned) {
        ex->oc_warned = 1;
        gb_exec_note(ex, GB_NOTE_WARNING, "%s: warning: expected to append to the oracle cache, "
                     "found '%s'; it is no longer written", gb_ocache_path(ex->oc), strerror(errno));
    }
    return 0;
}

int gb_oracle_get(gb_exec *ex, const gb_query *q, const char *scen, gb_optimum *opt, gb_diag *d)
{
    memset(opt, 0, sizeof *opt);
    int64_t ca = 0, cb = 0;
    int had = ex->oc && gb_ocache_get(ex->oc, q->sx, q->sy, q->gx, q->gy, &ca, &cb);
    if (had) {
        if (cb >= 0) {
            check_of_counts(ca, cb, &opt->oc);
            if (gb_scen_agrees(&opt->oc, q)) {
                opt->found = opt->scen_ok = opt->from_cache = 1;
                return 0;
            }
        } else if (q->length <= 0.0) {   /* "unreachable", and the scenario agrees */
            opt->scen_ok = opt->from_cache = 1;
            return 0;
        }
    }
    int rc = dijkstra(ex, q, scen, opt, d);
    return rc ? rc : record(ex, q, scen, opt, had, ca, cb, d);
}

int gb_oracle_rederive(gb_exec *ex, const gb_query *q, const char *scen, gb_optimum *opt,
                       gb_diag *d)
{
    if (!opt->from_cache) return 0;
    int64_t ca = opt->found ? opt->oc.straight : 0, cb = opt->found ? opt->oc.diag : -1;
    int rc = dijkstra(ex, q, scen, opt, d);
    return rc ? rc : record(ex, q, scen, opt, 1, ca, cb, d);
}
