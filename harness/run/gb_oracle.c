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
 * The any-angle oracle's cache (its own kind, AA_CACHE_KIND) is trusted
 * the same way: a record the grid optimum contradicts is not used, and a
 * failing any-angle verdict on a record is re-derived (GB_ORACLE_AA).
 *
 * Data structure: one gb_oracle per map (gb_oracle.h), holding the map's
 * caches and the any-angle and line-integral oracles it needs; it never
 * reaches into the executor, which hears from it through a note callback.
 */
#include "gb_oracle.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "gb_aaoracle.h"
#include "gb_aaterrain.h"
#include "gb_alloc.h"
#include "gb_anyangle.h"
#include "gb_ocache.h"

/* The any-angle oracle's cache kind: bump the number whenever
 * gb_aaoracle could answer differently. */
#define AA_CACHE_KIND "anyangle-gppc-1"

struct gb_oracle {
    const gb_grid *g;
    gb_ws *ws;          /* the executor's: the oracle's search state */
    gb_solver_spec dij; /* dijkstra */
    gb_oracle_cfg cfg;
    gb_xy *xy;           /* the oracle's path in map coordinates, for the validator */
    gb_ocache *oc;       /* Dijkstra's cache of this map, or NULL */
    gb_ocache *aaoc;     /* the any-angle oracle's cache, or NULL */
    int oc_write_warned; /* "no longer written": said once */
    gb_aaoracle *aao;    /* the GPPC any-angle oracle, or NULL */
    gb_aaterrain *aat;   /* the line-integral grid Dijkstra, or NULL */
};

static void note(gb_oracle *o, gb_run_note_kind k, const char *fmt, ...) GB_PRINTF_LIKE(3, 4);
static void note(gb_oracle *o, gb_run_note_kind k, const char *fmt, ...)
{
    if (!o->cfg.note) return;
    char b[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b, sizeof b, fmt, ap);
    va_end(ap);
    o->cfg.note(o->cfg.note_ctx, k, b);
}

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

/* ---- opening ------------------------------------------------------------ */

/* Open one cache of the map into *oc: Dijkstra's under the movement model
 * (kind NULL) or another oracle's (a failure to open is a note, once per
 * run). */
static int open_cache_kind(gb_oracle *o, const char *kind, gb_ocache **oc, gb_diag *d)
{
    gb_diag cd;
    gb_diag_clear(&cd);
    gb_ocache_stats cs;
    *oc = kind ? gb_ocache_open_kind(o->cfg.cache_dir, o->cfg.map_sha, kind, &cs, &cd)
               : gb_ocache_open(o->cfg.cache_dir, o->cfg.map_sha, o->cfg.model, &cs, &cd);
    if (!*oc && cd.code == EX_OSERR) {
        *d = cd;
        return cd.code;
    }
    if (!*oc) {
        if (!o->cfg.cache_warned || !*o->cfg.cache_warned) {
            char b[1024];
            gb_diag_format(&cd, b, sizeof b);
            note(o, GB_NOTE_WARNING, "%s (the oracle runs without its cache)", b);
        }
        if (o->cfg.cache_warned) *o->cfg.cache_warned = 1;
    } else if (cs.rebuilt || cs.dropped) {
        note(o, GB_NOTE_WARNING,
             "%s: warning: expected an intact oracle cache file, found %s; "
             "rebuilt with the %llu good entries",
             gb_ocache_path(*oc), cs.dropped ? "torn or corrupt entries" : "another version",
             (unsigned long long)cs.loaded);
    }
    return 0;
}

gb_oracle *gb_oracle_open(const gb_grid *g, gb_ws *ws, const gb_oracle_cfg *cfg, gb_diag *d)
{
    gb_oracle *o = gb_calloc(1, sizeof *o);
    if (!o) {
        gb_diag_set(d, EX_OSERR, "", 0, 0, "expected memory for the oracle, found none");
        return NULL;
    }
    o->g = g;
    o->ws = ws;
    o->cfg = *cfg;
    char err[128];
    gb_solver_parse("dijkstra", &o->dij, err, sizeof err);
    o->xy = gb_malloc((size_t)g->ncells * sizeof *o->xy);
    int bad = !o->xy || gb_ws_prepare(ws, &o->dij, GB_ORACLE_QUEUE) != 0;
    if (!bad && cfg->anyangle && cfg->aa_gppc) { /* the exact GPPC any-angle optimum */
        o->aao = gb_malloc(sizeof *o->aao);
        if (!o->aao || gb_aaoracle_init(o->aao, g) != 0) {
            gb_free(o->aao);
            o->aao = NULL;
            bad = 1;
        }
    }
    if (!bad && cfg->anyangle && g->cost && !(o->aat = gb_aaterrain_new(g))) bad = 1;
    if (bad) {
        gb_oracle_close(o);
        gb_diag_set(d, EX_OSERR, "", 0, 0, "expected memory for the oracle, found none");
        return NULL;
    }
    if (cfg->cache_dir
        && (open_cache_kind(o, NULL, &o->oc, d) != 0
            || (o->aao && open_cache_kind(o, AA_CACHE_KIND, &o->aaoc, d) != 0))) {
        gb_oracle_close(o);
        return NULL;
    }
    return o;
}

void gb_oracle_close(gb_oracle *o)
{
    if (!o) return;
    gb_ocache_close(o->oc);
    gb_ocache_close(o->aaoc);
    gb_aaterrain_free(o->aat);
    if (o->aao) gb_aaoracle_free(o->aao);
    gb_free(o->aao);
    gb_free(o->xy);
    gb_free(o);
}

/* ---- the grid optimum ------------------------------------------------------ */

/* Dijkstra on query q into *opt (found, scen_ok, oc), its path validated. */
static int dijkstra(gb_oracle *o, const gb_query *q, const char *scen, gb_optimum *opt, gb_diag *d)
{
    const gb_grid *g = o->g;
    int32_t s = gb_grid_id(g, q->sx, q->sy), t = gb_grid_id(g, q->gx, q->gy);
    gb_xy sxy = { q->sx, q->sy }, txy = { q->gx, q->gy };
    gb_result r;
    if (gb_solve(o->ws, &o->dij, GB_ORACLE_QUEUE, s, t, &r) != 0)
        return gb_diag_set(d, EX_OSERR, scen, q->line, 0, "expected memory for the search, found none");
    memset(&opt->oc, 0, sizeof opt->oc);
    opt->found = r.status == GB_FOUND;
    opt->from_cache = 0;
    if (opt->found) {
        for (int32_t i = 0; i < r.path_len; i++) {
            o->xy[i].x = gb_grid_x(g, r.path[i]);
            o->xy[i].y = gb_grid_y(g, r.path[i]);
        }
        if (!gb_validate_path(g, o->cfg.model, sxy, txy, o->xy, (size_t)r.path_len, r.cost, &opt->oc))
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
static int record(gb_oracle *o, const gb_query *q, const char *scen, const gb_optimum *opt, int had,
                  int64_t ca, int64_t cb, gb_diag *d)
{
    int64_t na = opt->found ? opt->oc.straight : 0, nb = opt->found ? opt->oc.diag : -1;
    if (!o->oc || (had && ca == na && cb == nb)) return 0;
    if (had)
        note(o, GB_NOTE_WARNING,
             "%s:%ld: warning: the oracle cache said %s, Dijkstra says %s; the cache "
             "entry is replaced",
             scen, q->line, cb < 0 ? "unreachable" : "another optimum",
             nb < 0 ? "unreachable" : "this one");
    int pe = gb_ocache_put(o->oc, q->sx, q->sy, q->gx, q->gy, na, nb);
    if (pe == -2)
        return gb_diag_set(d, EX_OSERR, scen, q->line, 0,
                           "expected memory for the oracle cache, found none");
    if (pe != 0 && !o->oc_write_warned) {
        o->oc_write_warned = 1;
        note(o, GB_NOTE_WARNING,
             "%s: warning: expected to append to the oracle cache, found '%s'; it is no "
             "longer written",
             gb_ocache_path(o->oc), strerror(errno));
    }
    return 0;
}

static int grid_optimum(gb_oracle *o, const gb_query *q, const char *scen, gb_optimum *opt, gb_diag *d)
{
    int64_t ca = 0, cb = 0;
    int had = o->oc && gb_ocache_get(o->oc, q->sx, q->sy, q->gx, q->gy, &ca, &cb);
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
    int rc = dijkstra(o, q, scen, opt, d);
    return rc ? rc : record(o, q, scen, opt, had, ca, cb, d);
}

/* ---- the any-angle optima ------------------------------------------------------ */

/* The GPPC any-angle optimum of q into opt (aa_has, aa_opt, aa_cached):
 * from the map's any-angle cache when use_cache and it holds the query,
 * else from the oracle, searched first under the grid optimum (a grid path
 * read on corners is a legal GPPC path, so the any-angle optimum is never
 * above it), and recorded.  A cached answer the grid optimum contradicts
 * (above it, or "unreachable" where Dijkstra found a path) is not used. */
static int aa_optimum(gb_oracle *o, const gb_query *q, const char *scen, gb_optimum *opt, int use_cache,
                      gb_diag *d)
{
    double c = 0.0;
    const gb_xy s = { q->sx, q->sy }, t = { q->gx, q->gy };
    const int grid_ok = o->cfg.model == GB_MODEL_8_NOCUT || o->cfg.model == GB_MODEL_4;
    const double bound = grid_ok ? opt->oc.cost : INFINITY;
    int r = -2, reach = 0;
    opt->aa_cached = 0;
    if (use_cache && o->aaoc && gb_ocache_get_real(o->aaoc, q->sx, q->sy, q->gx, q->gy, &reach, &c)
        && (reach ? c <= bound * (1.0 + 1e-12) : !grid_ok)) {
        r = reach;
        opt->aa_cached = 1;
    }
    if (r == -2) {
        r = gb_aaoracle_solve(o->aao, s, t, bound, &c, NULL, NULL);
        if (r == 0 && grid_ok) r = gb_aaoracle_solve(o->aao, s, t, INFINITY, &c, NULL, NULL);
        if (r < 0)
            return gb_diag_set(d, EX_OSERR, scen, q->line, 0,
                               "expected memory for the any-angle oracle, found none");
        if (r == 0 && grid_ok)
            return gb_diag_set(d, EX_SOFTWARE, scen, q->line, 0,
                               "expected an any-angle optimum (Dijkstra "
                               "found a path), found none");
        if (o->aaoc) (void)gb_ocache_put_real(o->aaoc, q->sx, q->sy, q->gx, q->gy, r == 1, c);
    }
    opt->aa_has = r == 1;
    opt->aa_opt = c;
    return 0;
}

/* Terrain costs with any-angle pairs: the line-integral grid optimum d_L
 * (gb_aaterrain.h) into opt->li; li.ok = 0 when there is no grid path. */
static int li_optimum(gb_oracle *o, const gb_query *q, const char *scen, gb_optimum *opt, gb_diag *d)
{
    memset(&opt->li, 0, sizeof opt->li);
    if (!opt->found) return 0;
    const int r =
        gb_aaterrain_grid_opt(o->aat, (gb_xy){ q->sx, q->sy }, (gb_xy){ q->gx, q->gy }, &opt->li);
    if (r < 0)
        return gb_diag_set(d, EX_OSERR, scen, q->line, 0,
                           "expected memory for the line-integral grid optimum, "
                           "found none");
    if (r == 0)
        return gb_diag_set(d, EX_SOFTWARE, scen, q->line, 0,
                           "expected a line-integral grid optimum (Dijkstra "
                           "found a path), found none");
    return 0;
}

/* ---- the queries ---------------------------------------------------------------- */

int gb_oracle_get(gb_oracle *o, const gb_query *q, const char *scen, gb_optimum *opt, gb_diag *d)
{
    memset(opt, 0, sizeof *opt);
    int rc = grid_optimum(o, q, scen, opt, d);
    if (!rc && o->aat) rc = li_optimum(o, q, scen, opt, d);
    if (!rc && o->aao && opt->found) rc = aa_optimum(o, q, scen, opt, 1, d);
    return rc;
}

int gb_oracle_rederive(gb_oracle *o, const gb_query *q, const char *scen, unsigned what, gb_optimum *opt,
                       gb_diag *d)
{
    if ((what & GB_ORACLE_GRID) && opt->from_cache) {
        int64_t ca = opt->found ? opt->oc.straight : 0, cb = opt->found ? opt->oc.diag : -1;
        int rc = dijkstra(o, q, scen, opt, d);
        if (!rc) rc = record(o, q, scen, opt, 1, ca, cb, d);
        if (rc) return rc;
    }
    if ((what & GB_ORACLE_AA) && opt->aa_cached) { /* the oracle decides */
        const int had = opt->aa_has;
        const double was = opt->aa_opt;
        int rc = aa_optimum(o, q, scen, opt, 0, d);
        if (rc) return rc;
        if (had != opt->aa_has || was != opt->aa_opt)
            note(o, GB_NOTE_WARNING,
                 "%s:%ld: warning: the any-angle oracle cache said %.10g, the oracle says "
                 "%.10g; the cache entry is replaced",
                 scen, q->line, had ? was : INFINITY, opt->aa_has ? opt->aa_opt : INFINITY);
    }
    return 0;
}
