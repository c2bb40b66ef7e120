/*
 * gb_glance.c -- the answers at a glance (definitions in gb_glance.h).
 *
 * Data structures
 *   recs[]    one per summary.csv row: (map index, solver, queue) and the
 *             figures the winners and the queue finding need;
 *   series[]  per (map, solver, queue) of queries.csv, the warm time of
 *             each answered query with the query's id, an index into the
 *             string table `qids` of "scen\x1fline" keys, so two series
 *             pair up by id (the paired bootstrap needs the same queries);
 *   maps      a string table of map names; map i's class and query count.
 * Two passes: queries.csv (counts, series), then summary.csv (recs); all
 * else is computed from those.  Every allocation failure is EX_OSERR.
 */
#include "gb_glance.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gb_alloc.h"
#include "gb_csv.h"
#include "gb_stats.h"
#include "gb_strtab.h"

typedef struct rec {
    int32_t map;
    char solver[64], queue[32];
    int optimal, inproc, failed;
    double n, med, lo, hi, mean, p95, prep, amort, exp_mean;
} rec;

typedef struct series {
    int32_t *qid;
    double *t;
    size_t n, cap;
} series;

typedef struct work {
    gb_strtab maps, keys, qids, mism;
    char (*cls)[64]; /* per map: its class */
    size_t capm;
    series *ser;
    size_t capser;
    rec *rec;
    size_t nrec, caprec;
} work;

static int oom(gb_diag *d, const char *path)
{
    return gb_diag_set(d, EX_OSERR, path, 0, 0,
                       "expected memory for the report's first screen, found none");
}

static int grow(void **p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap) return 0;
    size_t nc = *cap ? *cap : 16;
    while (nc < need) nc *= 2;
    void *np = gb_realloc(*p, nc * size);
    if (!np) return -1;
    memset((char *)np + *cap * size, 0, (nc - *cap) * size);
    *p = np;
    *cap = nc;
    return 0;
}

static double numf(const gb_csv *c, int col)
{
    if (col < 0) return NAN;
    double v;
    return gb_csv_double(gb_csv_field(c, col), &v) == 0 ? v : NAN;
}

static void copy(char *dst, size_t n, const char *s) { snprintf(dst, n, "%s", s); }

void gb_glance_class_of(const char *map, const char *scen, char *out, size_t n)
{
    static const char *const fam[] = { "maze", "random", "room" };
    for (size_t i = 0; i < sizeof fam / sizeof fam[0]; i++) {
        size_t k = strlen(fam[i]);
        if (strncmp(map, fam[i], k) == 0 && map[k] >= '0' && map[k] <= '9') {
            copy(out, n, fam[i]);
            return;
        }
    }
    const char *e = strrchr(scen, '/');
    if (e) {
        const char *b = e;
        while (b > scen && b[-1] != '/') b--;
        if (e > b && !(e - b == 7 && strncmp(b, "default", 7) == 0)) {
            snprintf(out, n, "%.*s", (int)(e - b), b);
            return;
        }
    }
    size_t k = 0; /* the name's leading letters */
    while (map[k] && ((map[k] >= 'a' && map[k] <= 'z') || (map[k] >= 'A' && map[k] <= 'Z'))) k++;
    snprintf(out, n, "%.*s", (int)(k ? k : strlen(map)), map);
}

/* ---- pass 1: queries.csv ---------------------------------------------- */

static int add_time(work *w, int32_t si, int32_t qid, double t)
{
    if (grow((void **)&w->ser, &w->capser, (size_t)si + 1, sizeof *w->ser) != 0) return -1;
    series *s = &w->ser[si];
    if (s->n == s->cap) {
        size_t nc = s->cap ? 2 * s->cap : 64;
        int32_t *nq = gb_realloc(s->qid, nc * sizeof *nq);
        if (!nq) return -1;
        s->qid = nq;
        double *nt = gb_realloc(s->t, nc * sizeof *nt);
        if (!nt) return -1;
        s->t = nt;
        s->cap = nc;
    }
    s->qid[s->n] = qid;
    s->t[s->n++] = t;
    return 0;
}

static gb_glance_fail *fail_of(gb_glance *g, const char *solver)
{
    for (size_t i = 0; i < g->nfail; i++)
        if (!strcmp(g->fail[i].solver, solver)) return &g->fail[i];
    gb_glance_fail *nf = gb_realloc(g->fail, (g->nfail + 1) * sizeof *nf);
    if (!nf) return NULL;
    g->fail = nf;
    memset(&nf[g->nfail], 0, sizeof nf[0]);
    copy(nf[g->nfail].solver, sizeof nf[0].solver, solver);
    return &nf[g->nfail++];
}

static int read_queries(const char *path, work *w, gb_glance *g, gb_diag *d)
{
    gb_csv c;
    int rc = gb_csv_open(&c, path, d);
    if (rc) return rc;
    static const char *const need[] = { "map", "scen", "line", "solver", "queue", "status", "time_ns" };
    int ix[7];
    if ((rc = gb_csv_require(&c, need, 7, ix, d)) != 0) {
        gb_csv_close(&c);
        return rc;
    }
    char key[512];
    while ((rc = gb_csv_next(&c, d)) == 0) {
        const char *map = gb_csv_field(&c, ix[0]), *scen = gb_csv_field(&c, ix[1]),
                   *st = gb_csv_field(&c, ix[5]);
        int sv = gb_row_status_from_name(st, strlen(st));
        if (sv < 0) {
            rc = gb_diag_set(d, EX_DATAERR, path, c.line, 0, "column status: expected %s, found '%.40s'",
                             gb_row_status_expected(), st);
            break;
        }
        int added;
        int32_t mi = gb_strtab_intern(&w->maps, map, &added);
        if (mi < 0 || grow((void **)&w->cls, &w->capm, (size_t)mi + 1, sizeof *w->cls) != 0) goto nomem;
        if (added) gb_glance_class_of(map, scen, w->cls[mi], sizeof w->cls[mi]);
        snprintf(key, sizeof key, "%s\x1f%s", scen, gb_csv_field(&c, ix[2]));
        int32_t qid = gb_strtab_intern(&w->qids, key, &added);
        if (qid < 0) goto nomem;
        if (added) g->queries++;
        g->rows++;
        g->by_status[sv]++;
        if (sv == GB_ROW_SCEN_MISMATCH && gb_strtab_intern(&w->mism, key, &added) >= 0 && added)
            g->scen_mismatch++;
        if (gb_row_status_failed((gb_row_status)sv)) {
            gb_glance_fail *f = fail_of(g, gb_csv_field(&c, ix[3]));
            if (!f) goto nomem;
            f->failed++;
            f->by_status[sv]++;
            g->failed++;
        }
        const double t = numf(&c, ix[6]);
        if (isnan(t) || gb_row_status_failed((gb_row_status)sv)) continue;
        snprintf(key, sizeof key, "%s\x1f%s\x1f%s", map, gb_csv_field(&c, ix[3]),
                 gb_csv_field(&c, ix[4]));
        int32_t si = gb_strtab_intern(&w->keys, key, NULL);
        if (si < 0 || add_time(w, si, qid, t) != 0) goto nomem;
    }
    if (rc == GB_CSV_EOF) rc = 0;
    gb_csv_close(&c);
    return rc;
nomem:
    gb_csv_close(&c);
    return oom(d, path);
}

/* ---- pass 2: summary.csv ---------------------------------------------- */

static int read_summary(const char *path, work *w, gb_diag *d)
{
    gb_csv c;
    int rc = gb_csv_open(&c, path, d);
    if (rc) return rc;
    static const char *const need[] = { "map", "solver",         "queue",        "guarantee",
                                        "n",   "time_median_ns", "time_mean_ns", "time_p95_ns" };
    int ix[8];
    if ((rc = gb_csv_require(&c, need, 8, ix, d)) != 0) {
        gb_csv_close(&c);
        return rc;
    }
    const int c_lo = gb_csv_col(&c, "time_median_lo_ns"), c_hi = gb_csv_col(&c, "time_median_hi_ns"),
              c_prep = gb_csv_col(&c, "prep_ns_max"), c_am = gb_csv_col(&c, "prep_amortised_ns"),
              c_src = gb_csv_col(&c, "time_source"), c_exp = gb_csv_col(&c, "expanded_mean");
    int c_st[GB_ROW_NSTATUS];
    for (int s = 0; s < GB_ROW_NSTATUS; s++)
        c_st[s] = gb_csv_col(&c, gb_row_status_name((gb_row_status)s));
    while ((rc = gb_csv_next(&c, d)) == 0) {
        if (grow((void **)&w->rec, &w->caprec, w->nrec + 1, sizeof *w->rec) != 0) {
            rc = oom(d, path);
            break;
        }
        rec *r = &w->rec[w->nrec];
        r->map = gb_strtab_intern(&w->maps, gb_csv_field(&c, ix[0]), NULL);
        if (r->map < 0 || grow((void **)&w->cls, &w->capm, (size_t)r->map + 1, sizeof *w->cls) != 0) {
            rc = oom(d, path);
            break;
        }
        if (!w->cls[r->map][0])
            gb_glance_class_of(gb_csv_field(&c, ix[0]), "", w->cls[r->map], sizeof w->cls[0]);
        copy(r->solver, sizeof r->solver, gb_csv_field(&c, ix[1]));
        copy(r->queue, sizeof r->queue, gb_csv_field(&c, ix[2]));
        r->optimal = !strcmp(gb_csv_field(&c, ix[3]), "optimal");
        r->inproc = c_src < 0 || !strcmp(gb_csv_field(&c, c_src), "inproc");
        r->failed = 0;
        for (int s = 0; s < GB_ROW_NSTATUS; s++)
            if (gb_row_status_failed((gb_row_status)s) && numf(&c, c_st[s]) > 0) r->failed = 1;
        r->n = numf(&c, ix[4]);
        r->med = numf(&c, ix[5]);
        r->mean = numf(&c, ix[6]);
        r->p95 = numf(&c, ix[7]);
        r->lo = numf(&c, c_lo);
        r->hi = numf(&c, c_hi);
        r->prep = numf(&c, c_prep);
        r->amort = numf(&c, c_am);
        if (isnan(r->amort)) r->amort = r->mean + (isnan(r->prep) || !(r->n > 0) ? 0.0 : r->prep / r->n);
        r->exp_mean = numf(&c, c_exp);
        if (isnan(r->med)) continue; /* no answered query: nothing to rank */
        w->nrec++;
    }
    if (rc == GB_CSV_EOF) rc = 0;
    gb_csv_close(&c);
    return rc;
}

/* ---- winners -------------------------------------------------------------- */

static void pair_of(const rec *r, gb_glance_pair *p)
{
    copy(p->solver, sizeof p->solver, r->solver);
    copy(p->queue, sizeof p->queue, r->queue);
    p->med = r->med;
    p->med_lo = r->lo;
    p->med_hi = r->hi;
    p->mean = r->mean;
    p->p95 = r->p95;
    p->prep = r->prep;
    p->amort = r->amort;
    p->outlier = r->mean > r->p95;
}

static const series *series_of(const work *w, const char *map, const char *solver, const char *queue)
{
    char key[512];
    snprintf(key, sizeof key, "%s\x1f%s\x1f%s", map, solver, queue);
    int32_t si = gb_strtab_find(&w->keys, key);
    return si < 0 || (size_t)si >= w->capser ? NULL : &w->ser[si];
}

/* The times of a and b on the queries both answered: num[k] (a), den[k]
 * (b); the count.  Series come in queries.csv's order, a query at most
 * once per series, so a lookup table by id pairs them. */
static size_t pair_up(const series *a, const series *b, size_t nq, double *num, double *den,
                      int32_t *slot)
{
    for (size_t i = 0; i < nq; i++) slot[i] = -1;
    for (size_t i = 0; i < b->n; i++) slot[b->qid[i]] = (int32_t)i;
    size_t k = 0;
    for (size_t i = 0; i < a->n; i++) {
        int32_t j = slot[a->qid[i]];
        if (j < 0) continue;
        num[k] = a->t[i];
        den[k++] = b->t[j];
    }
    return k;
}

/* Is r a candidate for "fastest optimal" on its map (maxn: the map's most queries)? */
static int candidate(const rec *r, double maxn)
{
    return r->optimal && r->inproc && !r->failed && r->n >= maxn;
}

static int map_row(const work *w, int32_t m, const char *map, gb_glance_row *row, double *num,
                   double *den, int32_t *slot, size_t nq)
{
    memset(row, 0, sizeof *row);
    copy(row->name, sizeof row->name, map);
    copy(row->cls, sizeof row->cls, w->cls[m]);
    row->maps = 1;
    row->ratio = row->ratio_lo = row->ratio_hi = NAN;
    double maxn = 0;
    for (size_t i = 0; i < w->nrec; i++)
        if (w->rec[i].map == m && w->rec[i].n > maxn) maxn = w->rec[i].n;
    row->queries = (size_t)maxn;
    const rec *win = NULL, *run = NULL, *am = NULL;
    for (size_t i = 0; i < w->nrec; i++) {
        const rec *r = &w->rec[i];
        if (r->map != m || !candidate(r, maxn)) continue;
        if (!win || r->med < win->med) win = r;
        if (!am || r->amort < am->amort) am = r;
    }
    for (size_t i = 0; win && i < w->nrec; i++) {
        const rec *r = &w->rec[i];
        if (r->map == m && candidate(r, maxn) && strcmp(r->solver, win->solver)
            && (!run || r->med < run->med))
            run = r;
    }
    if (win) {
        row->have_win = 1;
        pair_of(win, &row->win);
    }
    if (am) {
        row->have_amort = 1;
        pair_of(am, &row->amort);
    }
    if (!run) return 0;
    row->have_run = 1;
    pair_of(run, &row->run);
    const series *a = series_of(w, map, run->solver, run->queue),
                 *b = series_of(w, map, win->solver, win->queue);
    if (!a || !b) return 0;
    size_t k = pair_up(a, b, nq, num, den, slot);
    gb_boot bt;
    gb_boot_default(&bt);
    gb_ci ci;
    if (gb_boot_ratio(num, den, k, GB_STAT_MEDIAN, &bt, &ci) != 0) return -1;
    row->ratio = ci.est;
    row->ratio_lo = ci.lo;
    row->ratio_hi = ci.hi;
    return 0;
}

/* The geometric mean over m maps of median(num) / median(den), each map's
 * pairs at [off[j], off[j+1]), with a bootstrap stratified by map
 * (gb_boot_strat_ratio: the across-map table's statistic).  NaN when a
 * map has no pair.  0, or -1 out of memory. */
static int strat_ratio(const double *num, const double *den, const size_t *off, int m, double *est,
                       double *lo, double *hi)
{
    *est = *lo = *hi = NAN;
    for (int j = 0; j < m; j++)
        if (off[j + 1] == off[j]) return 0;
    gb_boot b;
    gb_boot_default(&b);
    gb_ci ci;
    if (gb_boot_strat_ratio(num, den, off, (size_t)m, &b, &ci, NULL, NULL) != 0) return -1;
    *est = ci.est;
    *lo = ci.lo;
    *hi = ci.hi;
    return 0;
}

/* The sums of log median time and log amortised time of pair r's solver
 * and queue over the class's maps, where it is a candidate on each: 1, or
 * 0 when it is not a candidate on one of them. */
static int class_score(const work *w, const rec *r, const int32_t *idx, const double *maxn, int m,
                       double *lg, double *la)
{
    *lg = *la = 0;
    for (int j = 0; j < m; j++) {
        size_t k = 0;
        while (k < w->nrec
               && !(w->rec[k].map == idx[j] && !strcmp(w->rec[k].solver, r->solver)
                    && !strcmp(w->rec[k].queue, r->queue) && candidate(&w->rec[k], maxn[j])))
            k++;
        if (k == w->nrec) return 0;
        *lg += log(w->rec[k].med);
        *la += log(w->rec[k].amort);
    }
    return 1;
}

/* A class of m >= 2 maps (idx[]): the pairs that are candidates on every
 * one, ranked by the geometric mean of their median times; the ratio of
 * runner-up to winner is the geometric mean of the per-map ratios, its
 * interval a bootstrap stratified by map (strat_ratio). */
static int class_row(const work *w, const int32_t *idx, int m, gb_glance_row *row, double *num,
                     double *den, int32_t *slot, size_t nq)
{
    double maxn[64];
    for (int j = 0; j < m; j++) {
        maxn[j] = 0;
        for (size_t i = 0; i < w->nrec; i++)
            if (w->rec[i].map == idx[j] && w->rec[i].n > maxn[j]) maxn[j] = w->rec[i].n;
        row->queries += (size_t)maxn[j];
    }
    double best[2] = { INFINITY, INFINITY }, best_am = INFINITY, lg, la;
    const rec *top[2] = { NULL, NULL }, *am = NULL;
    for (size_t i = 0; i < w->nrec; i++) { /* the first map's candidates, scored on all */
        const rec *r = &w->rec[i];
        if (r->map != idx[0] || !candidate(r, maxn[0]) || !class_score(w, r, idx, maxn, m, &lg, &la))
            continue;
        if (la < best_am) {
            best_am = la;
            am = r;
        }
        if (lg < best[0]) {
            if (top[0] && strcmp(top[0]->solver, r->solver)) {
                best[1] = best[0];
                top[1] = top[0];
            }
            best[0] = lg;
            top[0] = r;
        } else if (lg < best[1] && strcmp(top[0]->solver, r->solver)) {
            best[1] = lg;
            top[1] = r;
        }
    }
    if (am) {
        row->have_amort = 1;
        pair_of(am, &row->amort);
        row->amort.amort = exp(best_am / m);
    }
    for (int t = 0; t < 2; t++) {
        if (!top[t]) continue;
        gb_glance_pair *p = t ? &row->run : &row->win;
        pair_of(top[t], p);
        p->med = exp(best[t] / m);
        p->med_lo = p->med_hi = NAN;
        *(t ? &row->have_run : &row->have_win) = 1;
    }
    if (!top[1]) return 0;
    size_t off[65], k = 0; /* the paired times of each map, one after another */
    for (int j = 0; j < m; j++) {
        off[j] = k;
        const char *map = w->maps.str[idx[j]];
        const series *a = series_of(w, map, top[1]->solver, top[1]->queue),
                     *b = series_of(w, map, top[0]->solver, top[0]->queue);
        if (!a || !b) return 0;
        k += pair_up(a, b, nq, num + k, den + k, slot);
    }
    off[m] = k;
    return strat_ratio(num, den, off, m, &row->ratio, &row->ratio_lo, &row->ratio_hi);
}

static int winners(const work *w, gb_glance *g, const char *path, gb_diag *d)
{
    const size_t nm = (size_t)w->maps.n, nq = (size_t)w->qids.n;
    size_t cap = 1;
    for (size_t i = 0; i < w->capser; i++) cap += w->ser[i].n;
    double *num = gb_malloc(cap * sizeof *num), *den = gb_malloc(cap * sizeof *den);
    int32_t *slot = gb_malloc((nq + 1) * sizeof *slot), *idx = gb_malloc((nm + 1) * sizeof *idx);
    g->map = gb_calloc(nm + 1, sizeof *g->map);
    g->cls = gb_calloc(nm + 1, sizeof *g->cls);
    int rc = !num || !den || !slot || !idx || !g->map || !g->cls;
    const char *const *names = (const char *const *)w->maps.str;
    for (size_t m = 0; !rc && m < nm; m++)
        rc = map_row(w, (int32_t)m, names[m], &g->map[g->nmap++], num, den, slot, nq) != 0;
    for (size_t m = 0; !rc && m < nm; m++) { /* classes in order of first appearance */
        int seen = 0, k = 0;
        for (size_t p = 0; p < m; p++) seen |= !strcmp(w->cls[p], w->cls[m]);
        if (seen) continue;
        for (size_t p = m; p < nm && k < 64; p++)
            if (!strcmp(w->cls[p], w->cls[m])) idx[k++] = (int32_t)p;
        gb_glance_row *row = &g->cls[g->ncls++];
        if (k == 1) {
            *row = g->map[m];
        } else {
            memset(row, 0, sizeof *row);
            row->ratio = row->ratio_lo = row->ratio_hi = NAN;
            rc = class_row(w, idx, k, row, num, den, slot, nq) != 0;
        }
        copy(row->name, sizeof row->name, w->cls[m]);
        copy(row->cls, sizeof row->cls, w->cls[m]);
        row->maps = k;
    }
    gb_free(num);
    gb_free(den);
    gb_free(slot);
    gb_free(idx);
    return rc ? oom(d, path) : 0;
}

/* ---- the queue finding ----------------------------------------------------- */

static gb_glance_queue *queue_of(gb_glance *g, const char *q)
{
    for (size_t i = 0; i < g->nq; i++)
        if (!strcmp(g->q[i].queue, q)) return &g->q[i];
    gb_glance_queue *nq = gb_realloc(g->q, (g->nq + 1) * sizeof *nq);
    if (!nq) return NULL;
    g->q = nq;
    memset(&nq[g->nq], 0, sizeof nq[0]);
    copy(nq[g->nq].queue, sizeof nq[0].queue, q);
    return &nq[g->nq++];
}

static int cmp_queue(const void *a, const void *b)
{
    const gb_glance_queue *x = a, *y = b;
    return (x->gm_ratio > y->gm_ratio) - (x->gm_ratio < y->gm_ratio);
}

/* The group of rec i: the recs of its map and solver that ran in process
 * without failure; their indices in grp[], the count. */
static size_t group_of(const work *w, size_t i, size_t *grp)
{
    size_t n = 0;
    for (size_t k = 0; k < w->nrec; k++)
        if (w->rec[k].map == w->rec[i].map && !strcmp(w->rec[k].solver, w->rec[i].solver)
            && w->rec[k].inproc && !w->rec[k].failed)
            grp[n++] = k;
    return n;
}

static int queues_(const work *w, gb_glance *g, double *num, double *den, int32_t *slot, char *clear);

/* Is a clearly slower than b (same map): the paired 95 % interval of
 * median(a) / median(b) over the queries both answered lies above 1. */
static int clearly_slower(const work *w, const rec *a, const rec *b, double *num, double *den,
                          int32_t *slot)
{
    const char *map = w->maps.str[a->map];
    const series *sa = series_of(w, map, a->solver, a->queue),
                 *sb = series_of(w, map, b->solver, b->queue);
    if (!sa || !sb) return 0;
    size_t k = pair_up(sa, sb, (size_t)w->qids.n, num, den, slot);
    gb_boot bt;
    gb_boot_default(&bt);
    gb_ci ci;
    return gb_boot_ratio(num, den, k, GB_STAT_MEDIAN, &bt, &ci) == 0 && ci.lo > 1.0;
}

static int queues(const work *w, gb_glance *g)
{
    size_t cap = 1;
    for (size_t i = 0; i < w->capser; i++)
        if (w->ser[i].n > cap) cap = w->ser[i].n;
    double *num = gb_malloc(cap * sizeof *num), *den = gb_malloc(cap * sizeof *den);
    int32_t *slot = gb_malloc(((size_t)w->qids.n + 1) * sizeof *slot);
    char *clear = gb_calloc(w->nrec + 1, 1); /* clear[i]: rec i is its group's clear fastest */
    if (!num || !den || !slot || !clear) {
        gb_free(num);
        gb_free(den);
        gb_free(slot);
        gb_free(clear);
        return -1;
    }
    int rc = queues_(w, g, num, den, slot, clear);
    gb_free(num);
    gb_free(den);
    gb_free(slot);
    gb_free(clear);
    return rc;
}

static int queues_(const work *w, gb_glance *g, double *num, double *den, int32_t *slot, char *clear)
{
    copy(g->ref_queue, sizeof g->ref_queue, "bheap");
    g->same_expansions = 1;
    size_t *grp = gb_malloc((w->nrec + 1) * sizeof *grp);
    double *lsum = gb_calloc(64, sizeof *lsum);
    size_t *lcnt = gb_calloc(64, sizeof *lcnt);
    if (!grp || !lsum || !lcnt) {
        gb_free(grp);
        gb_free(lsum);
        gb_free(lcnt);
        return -1;
    }
    for (size_t i = 0; i < w->nrec; i++) {
        size_t n = group_of(w, i, grp);
        if (n < 2 || grp[0] != i) continue; /* each group once, at its first rec */
        g->qgroups++;
        const rec *ref = NULL, *fast = NULL, *slow = NULL, *fast2 = NULL, *slow2 = NULL;
        for (size_t k = 0; k < n; k++) {
            const rec *r = &w->rec[grp[k]];
            if (!strcmp(r->queue, g->ref_queue)) ref = r;
            if (!fast || r->med < fast->med) {
                fast2 = fast;
                fast = r;
            } else if (!fast2 || r->med < fast2->med) fast2 = r;
            if (!slow || r->med > slow->med) {
                slow2 = slow;
                slow = r;
            } else if (!slow2 || r->med > slow2->med) slow2 = r;
            if (fabs(r->exp_mean - w->rec[grp[0]].exp_mean) > 1e-6 * (1.0 + fabs(r->exp_mean)))
                g->same_expansions = 0;
        }
        for (size_t k = 0; k < n; k++) {
            const rec *r = &w->rec[grp[k]];
            gb_glance_queue *q = queue_of(g, r->queue);
            if (!q) goto nomem;
            q->groups++;
            size_t qi = (size_t)(q - g->q);
            if (ref && qi < 64) {
                lsum[qi] += log(r->med / ref->med);
                lcnt[qi]++;
            }
        }
        /* fastest (slowest) only when clearly so against the next one, paired on the same queries */
        if (!clearly_slower(w, fast2, fast, num, den, slot)) g->qties_fast++;
        else {
            queue_of(g, fast->queue)->fastest++;
            clear[fast - w->rec] = 1;
        }
        if (clearly_slower(w, slow, slow2, num, den, slot)) queue_of(g, slow->queue)->slowest++;
    }
    for (size_t i = 0; i < g->nq && i < 64; i++)
        g->q[i].gm_ratio = lcnt[i] ? exp(lsum[i] / (double)lcnt[i]) : NAN;
    /* which queue wins most often, and for which solvers on every map */
    size_t best = 0;
    for (size_t i = 1; i < g->nq; i++)
        if (g->q[i].fastest > g->q[best].fastest) best = i;
    char bestq[32] = "";
    if (g->nq) copy(bestq, sizeof bestq, g->q[best].queue);
    size_t len = 0;
    for (size_t i = 0; g->nq && i < w->nrec; i++) {
        const rec *r = &w->rec[i];
        int first = 1, all = 1, any = 0; /* r's solver: first rec of it; fastest on every map? */
        for (size_t k = 0; k < i && first; k++) first = strcmp(w->rec[k].solver, r->solver) != 0;
        if (!first) continue;
        for (size_t k = i; k < w->nrec && all; k++) {
            if (strcmp(w->rec[k].solver, r->solver)) continue;
            size_t n = group_of(w, k, grp);
            if (n < 2 || grp[0] != k) continue;
            const rec *fast = NULL;
            for (size_t j = 0; j < n; j++)
                if (!fast || w->rec[grp[j]].med < fast->med) fast = &w->rec[grp[j]];
            any = 1;
            all = !strcmp(fast->queue, bestq) && clear[fast - w->rec];
        }
        if (any && all && len + strlen(r->solver) + 4 < sizeof g->qsolvers_fast)
            len += (size_t)snprintf(g->qsolvers_fast + len, sizeof g->qsolvers_fast - len, "%s%s",
                                    len ? ", " : "", r->solver);
    }
    if (g->nq) { /* the winner first, then by ratio */
        gb_glance_queue t = g->q[best];
        g->q[best] = g->q[0];
        g->q[0] = t;
        qsort(g->q + 1, g->nq - 1, sizeof *g->q, cmp_queue);
    }
    gb_free(grp);
    gb_free(lsum);
    gb_free(lcnt);
    return 0;
nomem:
    gb_free(grp);
    gb_free(lsum);
    gb_free(lcnt);
    return -1;
}

/* ---- heuristics --------------------------------------------------------------- */

static int heuristics(const char *path, gb_glance *g, gb_diag *d)
{
    FILE *probe = fopen(path, "r");
    if (!probe) return 0; /* the run has no verdicts */
    fclose(probe);
    gb_csv c;
    int rc = gb_csv_open(&c, path, d);
    if (rc) return rc;
    static const char *const need[] = { "heuristic", "weight", "verdict", "mean_ratio", "registry" };
    int ix[5];
    if ((rc = gb_csv_require(&c, need, 5, ix, d)) != 0) {
        gb_csv_close(&c);
        return rc;
    }
    while ((rc = gb_csv_next(&c, d)) == 0) {
        char name[64];
        const char *wt = gb_csv_field(&c, ix[1]);
        if (strcmp(wt, "1") == 0 || !*wt) copy(name, sizeof name, gb_csv_field(&c, ix[0]));
        else snprintf(name, sizeof name, "%s:w=%s", gb_csv_field(&c, ix[0]), wt);
        size_t i = 0;
        while (i < g->nheur && strcmp(g->heur[i].name, name)) i++;
        if (i == g->nheur) {
            gb_glance_heur *nh = gb_realloc(g->heur, (g->nheur + 1) * sizeof *nh);
            if (!nh) {
                rc = oom(d, path);
                break;
            }
            g->heur = nh;
            memset(&nh[i], 0, sizeof nh[i]);
            copy(nh[i].name, sizeof nh[i].name, name);
            g->nheur++;
        }
        gb_glance_heur *h = &g->heur[i];
        const char *v = gb_csv_field(&c, ix[2]);
        h->maps++;
        h->admissible += strstr(v, "admissible") != NULL;
        h->consistent += strstr(v, "consistent") != NULL;
        h->registry_agrees += !strcmp(gb_csv_field(&c, ix[4]), "agrees");
        double r = numf(&c, ix[3]);
        if (!isnan(r)) h->info_mean += (r - h->info_mean) / h->maps;
    }
    if (rc == GB_CSV_EOF) rc = 0;
    gb_csv_close(&c);
    return rc;
}

/* ---- the whole ---------------------------------------------------------------- */

int gb_glance_build(const char *dir, gb_glance *g, gb_diag *d)
{
    memset(g, 0, sizeof *g);
    work w;
    memset(&w, 0, sizeof w);
    char path[4200];
    snprintf(path, sizeof path, "%s/queries.csv", dir);
    int rc = read_queries(path, &w, g, d);
    if (!rc) {
        snprintf(path, sizeof path, "%s/summary.csv", dir);
        rc = read_summary(path, &w, d);
    }
    if (!rc) rc = winners(&w, g, path, d);
    if (!rc && queues(&w, g) != 0) rc = oom(d, path);
    if (!rc) {
        snprintf(path, sizeof path, "%s/heuristics-verdicts.csv", dir);
        rc = heuristics(path, g, d);
    }
    for (size_t i = 0; i < w.capser; i++) {
        gb_free(w.ser[i].qid);
        gb_free(w.ser[i].t);
    }
    gb_free(w.ser);
    gb_free(w.rec);
    gb_free(w.cls);
    gb_strtab_free(&w.maps);
    gb_strtab_free(&w.keys);
    gb_strtab_free(&w.qids);
    gb_strtab_free(&w.mism);
    return rc;
}

void gb_glance_free(gb_glance *g)
{
    gb_free(g->fail);
    gb_free(g->map);
    gb_free(g->cls);
    gb_free(g->q);
    gb_free(g->heur);
    memset(g, 0, sizeof *g);
}
