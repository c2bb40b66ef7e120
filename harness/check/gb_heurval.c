/*
 * gb_heurval.c -- the heuristic validator (see gb_heurval.h for what is
 * measured and the tolerance rule).
 *
 * Data structure
 *   struct gb_hv: the grid (not owned), the model, moves[] (legal-move
 *   mask per id), hstar[] (h* of the current goal per id, INFINITY off the
 *   reachable set R), wh[] (w * h of the spec being evaluated; written only
 *   on R, read only on R), the goal and its eccentricity, and a small cache
 *   of landmark tables keyed by k.
 *
 * One evaluation = three passes over the map rows in id order:
 *   1. fill wh[] on R (one heuristic call per reachable cell);
 *   2. admissibility, histogram and distance buckets per cell of R;
 *   3. consistency over every legal move leaving a cell of R.
 * Row-major scans in id order make "ties go to the smallest id" a strict
 * '>' when updating a maximum.
 */
#include "gb_heurval.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gb_alloc.h"

/* Distinct k values of diff specs one validator keeps tables for. */
#define HV_MAX_TABLES 8

struct gb_hv {
    const gb_grid *g;       /* the map (not owned) */
    gb_model model;         /* movement model of moves[] and hstar[] */
    uint8_t *moves;         /* legal-move mask per id */
    double *hstar;          /* h* of the current goal per id */
    double *wh;             /* w * h of the current spec, valid on R */
    int32_t goal;           /* current goal id, -1 before the first */
    int32_t reachable;      /* |R| of the current goal */
    double ecc;             /* largest finite h* of the current goal */
    int ntables;            /* landmark tables in use */
    gb_landmarks tables[HV_MAX_TABLES]; /* cache of landmark tables */
    int table_k[HV_MAX_TABLES];  /* k requested for tables[i] (tables[i].k
                                    is smaller on a component of < k cells) */
};

/* ---- specs ------------------------------------------------------------ */

void gb_hv_spec_builtin(gb_hv_spec *s, gb_heur h, double w)
{
    memset(s, 0, sizeof *s);
    s->kind = GB_HV_BUILTIN;
    s->heur = h;
    s->weight = w;
    const char *n = gb_heur_name(h);
    snprintf(s->name, sizeof s->name, "%s", n ? n : "?");
}

void gb_hv_spec_diff(gb_hv_spec *s, int k, double w)
{
    memset(s, 0, sizeof *s);
    s->kind = GB_HV_DIFF;
    s->k = k;
    s->weight = w;
    snprintf(s->name, sizeof s->name, "diff:k=%d", k);
}

void gb_hv_spec_user(gb_hv_spec *s, const char *name, gb_hv_fn fn, void *ctx, double w)
{
    memset(s, 0, sizeof *s);
    s->kind = GB_HV_USER;
    s->fn = fn;
    s->ctx = ctx;
    s->weight = w;
    snprintf(s->name, sizeof s->name, "%s", name ? name : "user");
}

/* List of built-in names for messages: "zero, manhattan, ..., diff". */
static void heur_names(char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int h = 0; h < GB_H_NSIMPLE; h++) {
        int w = snprintf(buf + len, n - len, "%s, ", gb_heur_name((gb_heur)h));
        if (w < 0 || (size_t)w >= n - len) return;
        len += (size_t)w;
    }
    snprintf(buf + len, n - len, "diff");
}

int gb_hv_parse(const char *text, gb_hv_spec *out, char *err, size_t errsz)
{
    char buf[128];
    if (strlen(text) >= sizeof buf) {
        snprintf(err, errsz, "expected a heuristic NAME[:k=K][:w=W], found '%.40s...' (too long)", text);
        return -1;
    }
    strcpy(buf, text);
    char *rest = strchr(buf, ':');
    if (rest) *rest++ = '\0';

    int is_diff = strcmp(buf, "diff") == 0, h = -1;
    if (!is_diff) {
        h = gb_heur_from_name(buf);
        if (h < 0) {
            char names[160];
            heur_names(names, sizeof names);
            snprintf(err, errsz, "expected a heuristic name (%s), found '%s'", names, buf);
            return -1;
        }
    }
    long k = GB_HV_DEFAULT_K;
    double w = 1.0;
    int seen_k = 0, seen_w = 0;
    while (rest) {
        char *p = rest;
        rest = strchr(p, ':');
        if (rest) *rest++ = '\0';
        char *end;
        if (strncmp(p, "k=", 2) == 0 && is_diff && !seen_k) {
            errno = 0;
            k = strtol(p + 2, &end, 10);
            if (errno || end == p + 2 || *end || k < 1 || k > GB_LANDMARKS_MAX) {
                snprintf(err, errsz, "%s: expected k from 1 to %d, found '%s'", text,
                         GB_LANDMARKS_MAX, p + 2);
                return -1;
            }
            seen_k = 1;
        } else if (strncmp(p, "w=", 2) == 0 && !seen_w) {
            errno = 0;
            w = strtod(p + 2, &end);
            if (errno || end == p + 2 || *end || !(w > 0.0) || !(w <= GB_HV_MAX_WEIGHT)) {
                snprintf(err, errsz, "%s: expected a weight w > 0 and <= %g, found '%s'", text,
                         GB_HV_MAX_WEIGHT, p + 2);
                return -1;
            }
            seen_w = 1;
        } else {
            snprintf(err, errsz, "%s: expected %s, found '%s'", text,
                     is_diff ? "parameter k=K or w=W (each at most once)"
                             : "parameter w=W (at most once)", p);
            return -1;
        }
    }
    if (is_diff) gb_hv_spec_diff(out, (int)k, w);
    else gb_hv_spec_builtin(out, (gb_heur)h, w);
    return 0;
}

int gb_hv_claim(const gb_hv_spec *s, gb_model m, int *adm, int *cons)
{
    if (s->weight > 1.0) return 0;
    switch (s->kind) {
    case GB_HV_BUILTIN:
        *adm = gb_heur_admissible(s->heur, m) != 0;
        *cons = gb_heur_consistent(s->heur, m) != 0;
        return 1;
    case GB_HV_DIFF:
        *adm = *cons = 1;
        return 1;
    default:
        return 0;
    }
}

/* ---- goals ------------------------------------------------------------ */

static uint64_t splitmix64(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* Uniform integer in [0, n), n >= 1, by rejection (no modulo bias). */
static uint64_t below(uint64_t *s, uint64_t n)
{
    uint64_t lim = UINT64_MAX - UINT64_MAX % n;
    uint64_t r;
    do r = splitmix64(s); while (r >= lim);
    return r % n;
}

int32_t gb_hv_sample_goals(const gb_grid *g, int32_t n, uint64_t seed, int32_t *out)
{
    if (n <= 0 || g->npassable <= 0) return 0;
    int32_t *ids = gb_malloc((size_t)g->npassable * sizeof *ids);
    if (!ids) { errno = ENOMEM; return -1; }
    int32_t np = 0;
    for (int32_t id = 0; id < g->ncells && np < g->npassable; id++)
        if (g->pass[id]) ids[np++] = id;
    if (n > np) n = np;
    uint64_t st = seed;
    for (int32_t i = 0; i < n; i++) {
        int32_t j = i + (int32_t)below(&st, (uint64_t)(np - i));
        int32_t t = ids[i];
        ids[i] = ids[j];
        ids[j] = t;
        out[i] = ids[i];
    }
    gb_free(ids);
    return n;
}

int32_t gb_hv_scen_goals(const gb_scen *s, const gb_grid *g, int32_t max, int32_t *out,
                         int32_t *skipped)
{
    uint8_t *seen = gb_calloc((size_t)g->ncells, 1);
    if (!seen) { errno = ENOMEM; return -1; }
    int32_t n = 0, skip = 0;
    for (size_t i = 0; i < s->n && (max <= 0 || n < max); i++) {
        const gb_query *q = &s->q[i];
        if (!gb_grid_passable_xy(g, q->gx, q->gy)) { skip++; continue; }
        int32_t id = gb_grid_id(g, q->gx, q->gy);
        if (seen[id]) continue;
        seen[id] = 1;
        out[n++] = id;
    }
    gb_free(seen);
    if (skipped) *skipped = skip;
    return n;
}

/* ---- validator -------------------------------------------------------- */

gb_hv *gb_hv_new(const gb_grid *g, gb_model m)
{
    if ((unsigned)m >= GB_MODEL_COUNT) { errno = EINVAL; return NULL; }
    gb_hv *v = gb_calloc(1, sizeof *v);
    if (!v) { errno = ENOMEM; return NULL; }
    const size_t n = (size_t)g->ncells;
    v->g = g;
    v->model = m;
    v->goal = -1;
    v->moves = gb_malloc(n);
    v->hstar = gb_malloc(n * sizeof *v->hstar);
    v->wh = gb_malloc(n * sizeof *v->wh);
    if (!v->moves || !v->hstar || !v->wh) {
        gb_hv_free(v);
        errno = ENOMEM;
        return NULL;
    }
    gb_grid_moves(g, m, v->moves);
    return v;
}

void gb_hv_free(gb_hv *v)
{
    if (!v) return;
    for (int i = 0; i < v->ntables; i++) gb_landmarks_free(&v->tables[i]);
    gb_free(v->moves);
    gb_free(v->hstar);
    gb_free(v->wh);
    gb_free(v);
}

int gb_hv_set_goal(gb_hv *v, int32_t goal, gb_diag *d)
{
    const gb_grid *g = v->g;
    if (goal < 0 || goal >= g->ncells || !g->pass[goal]) {
        v->goal = -1;
        return gb_diag_set(d, EX_DATAERR, "", 0, 0,
                           "expected a passable goal cell, found id %ld (%ld, %ld)%s",
                           (long)goal, (long)(goal >= 0 ? gb_grid_x(g, goal) : -1),
                           (long)(goal >= 0 ? gb_grid_y(g, goal) : -1),
                           goal >= 0 && goal < g->ncells ? " blocked" : " outside the map");
    }
    if (gb_dijkstra_all(g, v->model, goal, v->hstar) != 0) {
        v->goal = -1;
        return gb_diag_set(d, EX_OSERR, "", 0, 0, "expected memory for a Dijkstra, found none");
    }
    int32_t reach = 0;
    double ecc = 0.0;
    for (int32_t i = 0; i < g->ncells; i++)
        if (v->hstar[i] < INFINITY) {
            reach++;
            if (v->hstar[i] > ecc) ecc = v->hstar[i];
        }
    v->goal = goal;
    v->reachable = reach;
    v->ecc = ecc;
    gb_diag_clear(d);
    return 0;
}

const double *gb_hv_hstar(const gb_hv *v) { return v->goal >= 0 ? v->hstar : NULL; }
const uint8_t *gb_hv_moves(const gb_hv *v) { return v->moves; }

const gb_landmarks *gb_hv_landmarks(gb_hv *v, int k)
{
    for (int i = 0; i < v->ntables; i++)
        if (v->table_k[i] == k) return &v->tables[i];
    if (k < 1 || k > GB_LANDMARKS_MAX || v->ntables >= HV_MAX_TABLES) {
        errno = EINVAL;
        return NULL;
    }
    gb_landmarks *L = &v->tables[v->ntables];
    if (gb_landmarks_build(L, v->g, v->model, k) != 0) return NULL;
    v->table_k[v->ntables++] = k;
    return L;
}

/* Fill v->wh on R with w * h for spec s. */
static int fill_wh(gb_hv *v, const gb_hv_spec *s, gb_diag *d)
{
    const gb_grid *g = v->g;
    const double w = s->weight;
    const gb_landmarks *L = NULL;
    gb_hctx c = { gb_grid_x(g, v->goal), gb_grid_y(g, v->goal), v->goal, NULL };
    if (s->kind == GB_HV_DIFF) {
        L = gb_hv_landmarks(v, s->k);
        if (!L)
            return errno == ENOMEM
                ? gb_diag_set(d, EX_OSERR, "", 0, 0, "expected memory for %d landmarks, found none", s->k)
                : gb_diag_set(d, EX_SOFTWARE, "", 0, 0, "expected k from 1 to %d, found %d",
                              GB_LANDMARKS_MAX, s->k);
    } else if (s->kind == GB_HV_BUILTIN) {
        if ((unsigned)s->heur >= GB_H_NSIMPLE)
            return gb_diag_set(d, EX_SOFTWARE, "", 0, 0, "expected a heuristic 0..%d, found %d",
                               GB_H_NSIMPLE - 1, (int)s->heur);
    } else if (s->kind != GB_HV_USER || !s->fn) {
        return gb_diag_set(d, EX_SOFTWARE, "", 0, 0,
                           "expected a built-in, diff or user heuristic with a callback, found kind %d",
                           (int)s->kind);
    }
    for (int32_t y = 0; y < g->height; y++)
        for (int32_t x = 0; x < g->width; x++) {
            int32_t id = gb_grid_id(g, x, y);
            if (!(v->hstar[id] < INFINITY)) continue;
            double h;
            switch (s->kind) {
            case GB_HV_BUILTIN: h = gb_heur_eval(s->heur, &c, id, x, y); break;
            case GB_HV_DIFF:    h = gb_landmarks_h(L, id, v->goal); break;
            default:            h = s->fn(s->ctx, id, x, y, v->goal); break;
            }
            v->wh[id] = w * h;
        }
    return 0;
}

int gb_hv_eval(gb_hv *v, const gb_hv_spec *s, gb_hv_result *r, gb_diag *d)
{
    memset(r, 0, sizeof *r);
    if (v->goal < 0)
        return gb_diag_set(d, EX_SOFTWARE, "", 0, 0, "expected a goal (gb_hv_set_goal), found none");
    if (!(s->weight > 0.0) || !(s->weight < INFINITY))
        return gb_diag_set(d, EX_SOFTWARE, "", 0, 0, "expected a finite weight > 0, found %g", s->weight);
    int rc = fill_wh(v, s, d);
    if (rc) return rc;

    const gb_grid *g = v->g;
    const double E = v->ecc > 1.0 ? v->ecc : 1.0;
    /* terrain: a distance D is a sum of at most D / cmin steps */
    const double cmin = g->cost ? 4.0 * (double)g->qmin / (double)g->cscale : 1.0;
    const double tol = 16.0 * DBL_EPSILON * (s->weight > 1.0 ? s->weight : 1.0) * E * E
                       * (cmin < 1.0 ? 1.0 / cmin : 1.0);
    r->goal = v->goal;
    r->goal_x = gb_grid_x(g, v->goal);
    r->goal_y = gb_grid_y(g, v->goal);
    r->reachable = v->reachable;
    r->ecc = v->ecc;
    r->tol = tol;
    r->over_x = r->over_y = -1;
    r->viol_x1 = r->viol_y1 = r->viol_x2 = r->viol_y2 = -1;
    r->nbuckets = (int32_t)floor(v->ecc / GB_HV_BUCKET_WIDTH) + 1;
    r->bucket_sum = gb_calloc((size_t)r->nbuckets, sizeof *r->bucket_sum);
    r->bucket_cells = gb_calloc((size_t)r->nbuckets, sizeof *r->bucket_cells);
    if (!r->bucket_sum || !r->bucket_cells) {
        gb_hv_result_free(r);
        return gb_diag_set(d, EX_OSERR, "", 0, 0, "expected memory for %ld buckets, found none",
                           (long)floor(v->ecc / GB_HV_BUCKET_WIDTH) + 1);
    }

    /* Pass 2: admissibility and informedness per reachable cell. */
    for (int32_t y = 0; y < g->height; y++)
        for (int32_t x = 0; x < g->width; x++) {
            const int32_t id = gb_grid_id(g, x, y);
            const double hs = v->hstar[id];
            if (!(hs < INFINITY)) continue;
            const double wh = v->wh[id], over = wh - hs;
            const int bad = !(over <= tol);
            if (bad) {
                double ratio = hs > 0.0 ? wh / hs : INFINITY;
                if (r->inadmissible == 0 || over > r->max_over) {
                    r->max_over = over;
                    r->over_x = x;
                    r->over_y = y;
                }
                if (r->inadmissible == 0 || ratio > r->max_over_ratio) r->max_over_ratio = ratio;
                r->inadmissible++;
            }
            if (!(hs > 0.0)) continue;
            const double ratio = wh / hs;
            int bin;
            if (bad) bin = GB_HV_NBINS;
            else if (!(ratio > 0.0)) bin = 0;    /* 0, negative, NaN-free here */
            else {
                bin = (int)(ratio * GB_HV_NBINS);
                if (bin >= GB_HV_NBINS) bin = GB_HV_NBINS - 1;
            }
            r->bins[bin]++;
            r->ratio_cells++;
            r->ratio_sum += ratio;
            int32_t b = (int32_t)(hs / GB_HV_BUCKET_WIDTH);
            if (b >= r->nbuckets) b = r->nbuckets - 1;
            r->bucket_sum[b] += ratio;
            r->bucket_cells[b]++;
        }
    r->mean_ratio = r->ratio_cells ? r->ratio_sum / (double)r->ratio_cells : 0.0;

    /* Pass 3: consistency over every legal move leaving R. */
    for (int32_t y = 0; y < g->height; y++)
        for (int32_t x = 0; x < g->width; x++) {
            const int32_t id = gb_grid_id(g, x, y);
            if (!(v->hstar[id] < INFINITY)) continue;
            const double wh = v->wh[id];
            for (unsigned mv = v->moves[id]; mv; mv &= mv - 1) {
                const int k = __builtin_ctz(mv);
                const int32_t nb = id + g->off[k];
                const double c = g->cost ? (double)gb_grid_units(g, id, k) * gb_dir_cost[k]
                                           / (double)g->cscale : gb_dir_cost[k];
                const double viol = wh - (c + v->wh[nb]);
                r->edges++;
                if (viol <= tol) continue;
                if (r->inconsistent == 0 || viol > r->max_violation) {
                    r->max_violation = viol;
                    r->viol_x1 = x;
                    r->viol_y1 = y;
                    r->viol_x2 = x + gb_dir_dx[k];
                    r->viol_y2 = y + gb_dir_dy[k];
                }
                r->inconsistent++;
            }
        }
    gb_diag_clear(d);
    return 0;
}

void gb_hv_result_free(gb_hv_result *r)
{
    gb_free(r->bucket_sum);
    gb_free(r->bucket_cells);
    memset(r, 0, sizeof *r);
}
