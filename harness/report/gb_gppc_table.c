/*
 * gb_gppc_table.c -- GPPC's per-entry figures from a run's CSV
 * (definitions in gb_gppc_table.h).
 *
 * One pass over the rows: each row finds its group (set, solver, queue,
 * time source, regime) through a string table of those keys; a group
 * keeps its times for the bootstrap, sums, maxima, and per map the
 * largest prep_ns and storage_bytes (a pair's per-map figures repeat on
 * every row of the map, so the largest is the map's).  Maps are told
 * apart by (set, map) keys interned in a second table, with a bit per
 * group in a small list of (group, map) pairs seen.  Then the groups of
 * one entry (set, solver, time source, regime) fold into one row, on the
 * entry's fastest queue (one_row_per_entry), and the Pareto marks are
 * computed on those rows.
 */
#include "gb_gppc_table.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gb_alloc.h"
#include "gb_csv.h"
#include "gb_status.h"
#include "gb_strtab.h"

typedef struct group {
    gb_gtab_row r;
    double *t;               /* time_ns of its answered queries */
    size_t nt, capt;
    int has_f20, has_mc, has_mem;
} group;

typedef struct mapfig {      /* a group's figures of one map */
    int32_t g, map;
    double prep, storage;
} mapfig;

static const char *dir_name(const char *path, char *buf, size_t n)
{
    const char *s = strrchr(path, '/');
    if (!s) { snprintf(buf, n, "."); return buf; }
    size_t len = (size_t)(s - path);
    const char *b = path;
    for (const char *p = path; p < s; p++) if (*p == '/') b = p + 1;   /* the last folder's name */
    len = (size_t)(s - b);
    snprintf(buf, n, "%.*s", (int)len, b);
    return buf;
}

/* Field col as a number: NaN when the column is absent or the field empty. */
static int num(const gb_csv *c, int col, const char *name, double *v, gb_diag *d)
{
    *v = NAN;
    if (col < 0) return 0;
    const char *s = gb_csv_field(c, col);
    if (!*s) return 0;
    char *end;
    *v = strtod(s, &end);
    if (*end || *v < 0)
        return gb_diag_set(d, EX_DATAERR, c->path, c->line, 0,
                           "column %s: expected a non-negative number or an empty field, found '%.40s'",
                           name, s);
    return 0;
}

static int cmp_row(const void *a, const void *b)
{
    const gb_gtab_row *x = a, *y = b;
    int c = strcmp(x->set, y->set);
    if (c) return c;
    return (x->total_s > y->total_s) - (x->total_s < y->total_s);
}

/* Is p at least as good as q in every measure and better in one? */
static int dominates(const gb_gtab_row *p, const gb_gtab_row *q)
{
    const double a[4] = { p->total_s, p->peak_mem_mb, p->prep_s, p->subopt_max };
    const double b[4] = { q->total_s, q->peak_mem_mb, q->prep_s, q->subopt_max };
    int better = 0;
    for (int k = 0; k < 4; k++) {
        if (isnan(a[k]) || isnan(b[k])) continue;   /* not known for one of them: not compared */
        if (a[k] > b[k]) return 0;
        better |= a[k] < b[k];
    }
    return better;
}

/* Does row a stand for its entry better than b?  An entry with a failure
 * on any queue shows that failure (the row with the most), else its
 * fastest queue (least total time). */
static int better_entry_row(const gb_gtab_row *a, const gb_gtab_row *b)
{
    if (a->failed != b->failed) return a->failed > b->failed;
    if (a->solved != b->solved) return a->solved > b->solved;
    return a->total_s < b->total_s;
}

/* One row per entry, as GPPC has it: an entry is (set, solver, time
 * source, regime), and it stands on the queue better_entry_row picks.
 * The queues of one solver share its index, so they share its prep_s;
 * what tells them apart is time, and the fastest is what the entry is. */
static void one_row_per_entry(gb_gtab *t)
{
    size_t n = 0;
    for (size_t i = 0; i < t->n; i++) {
        const gb_gtab_row *r = &t->row[i];
        size_t k = 0;
        while (k < n
               && !(strcmp(t->row[k].set, r->set) == 0 && strcmp(t->row[k].solver, r->solver) == 0
                    && strcmp(t->row[k].time_source, r->time_source) == 0
                    && strcmp(t->row[k].regime, r->regime) == 0))
            k++;
        if (k == n) t->row[n++] = *r;
        else if (better_entry_row(r, &t->row[k])) t->row[k] = *r;
    }
    t->n = n;
}

static int comparable(const gb_gtab_row *r)
{
    return strcmp(r->time_source, "process") != 0 && r->failed == 0 && r->solved > 0;
}

static void pareto(gb_gtab *t)
{
    for (size_t i = 0; i < t->n; i++) {
        gb_gtab_row *r = &t->row[i];
        if (!comparable(r)) { r->undominated = -1; continue; }
        r->undominated = 1;
        for (size_t j = 0; j < t->n && r->undominated; j++) {
            const gb_gtab_row *q = &t->row[j];
            if (j == i || !comparable(q) || strcmp(q->set, r->set) || strcmp(q->regime, r->regime)) continue;
            if (dominates(q, r)) r->undominated = 0;
        }
    }
}

int gb_gtab_build(const char *path, const gb_boot *b, gb_gtab *t, gb_diag *d)
{
    memset(t, 0, sizeof *t);
    gb_csv c;
    int rc = gb_csv_open(&c, path, d);
    if (rc) return rc;
    static const char *const need[] = { "map", "scen", "solver", "queue", "status", "time_ns" };
    int idx[6];
    if ((rc = gb_csv_require(&c, need, 6, idx, d)) != 0) { gb_csv_close(&c); return rc; }
    const int c_src = gb_csv_col(&c, "time_source"), c_reg = gb_csv_col(&c, "regime"),
              c_f20 = gb_csv_col(&c, "first20_ns"), c_mc = gb_csv_col(&c, "max_call_ns"),
              c_prep = gb_csv_col(&c, "prep_ns"), c_sto = gb_csv_col(&c, "storage_bytes"),
              c_mem = gb_csv_col(&c, "mem_bytes"), c_sub = gb_csv_col(&c, "subopt"),
              c_cost = gb_csv_col(&c, "cost");
    gb_strtab keys, maps;
    memset(&keys, 0, sizeof keys);
    memset(&maps, 0, sizeof maps);
    group *g = NULL;
    size_t ng = 0, capg = 0;
    mapfig *mf = NULL;
    size_t nmf = 0, capmf = 0;
    char key[512], set[128];
    while ((rc = gb_csv_next(&c, d)) == 0) {
        const char *st = gb_csv_field(&c, idx[4]);
        int sv = gb_row_status_from_name(st, strlen(st));
        if (sv < 0) {
            rc = gb_diag_set(d, EX_DATAERR, path, c.line, 0, "column status: expected %s, found '%.40s'",
                             gb_row_status_expected(), st);
            break;
        }
        dir_name(gb_csv_field(&c, idx[1]), set, sizeof set);
        const char *src = c_src >= 0 ? gb_csv_field(&c, c_src) : "inproc";
        const char *reg = c_reg >= 0 && *gb_csv_field(&c, c_reg) ? gb_csv_field(&c, c_reg) : "interleaved";
        snprintf(key, sizeof key, "%s\x1f%s\x1f%s\x1f%s\x1f%s", set, gb_csv_field(&c, idx[2]),
                 gb_csv_field(&c, idx[3]), src, reg);
        int added;
        int32_t gi = gb_strtab_intern(&keys, key, &added);
        if (gi < 0) goto oom;
        if ((size_t)gi >= capg) {
            size_t nc = capg ? 2 * capg : 16;
            group *ngp = gb_realloc(g, nc * sizeof *ngp);
            if (!ngp) goto oom;
            memset(ngp + capg, 0, (nc - capg) * sizeof *ngp);
            g = ngp;
            capg = nc;
        }
        group *gr = &g[gi];
        if (added) {
            ng++;
            snprintf(gr->r.set, sizeof gr->r.set, "%s", set);
            snprintf(gr->r.solver, sizeof gr->r.solver, "%s", gb_csv_field(&c, idx[2]));
            snprintf(gr->r.queue, sizeof gr->r.queue, "%s", gb_csv_field(&c, idx[3]));
            snprintf(gr->r.time_source, sizeof gr->r.time_source, "%s", src);
            snprintf(gr->r.regime, sizeof gr->r.regime, "%s", reg);
            gr->r.subopt_max = NAN;
            gr->has_f20 = c_f20 >= 0;
            gr->has_mc = c_mc >= 0;
        }
        gb_gtab_row *r = &gr->r;
        r->queries++;
        if (gb_row_status_failed((gb_row_status)sv)) r->failed++;
        double tn, f20, mc, prep, sto, mem, sub, cost;
        if ((rc = num(&c, idx[5], "time_ns", &tn, d)) || (rc = num(&c, c_f20, "first20_ns", &f20, d))
            || (rc = num(&c, c_mc, "max_call_ns", &mc, d)) || (rc = num(&c, c_prep, "prep_ns", &prep, d))
            || (rc = num(&c, c_sto, "storage_bytes", &sto, d)) || (rc = num(&c, c_mem, "mem_bytes", &mem, d))
            || (rc = num(&c, c_sub, "subopt", &sub, d)) || (rc = num(&c, c_cost, "cost", &cost, d)))
            break;
        if (!isnan(cost)) r->solved++;
        if (!isnan(tn) && !gb_row_status_failed((gb_row_status)sv)) {
            if (gr->nt == gr->capt) {
                size_t nc = gr->capt ? 2 * gr->capt : 64;
                double *nt = gb_realloc(gr->t, nc * sizeof *nt);
                if (!nt) goto oom;
                gr->t = nt;
                gr->capt = nc;
            }
            gr->t[gr->nt++] = tn;
            if (!isnan(f20)) r->first20_s += f20 * 1e-9;
            if (!isnan(mc) && mc * 1e-6 > r->max_call_ms) r->max_call_ms = mc * 1e-6;
        }
        if (!isnan(mem) && mem > 0) {
            gr->has_mem = 1;
            if (mem / 1048576.0 > r->peak_mem_mb) r->peak_mem_mb = mem / 1048576.0;
        }
        if (!isnan(sub)) {
            if (isnan(r->subopt_max) || sub > r->subopt_max) r->subopt_max = sub;
            if (sub > 1.0 + 1e-9) r->suboptimal++;
        }
        /* the map's per-map figures: the largest seen */
        snprintf(key, sizeof key, "%s\x1f%s", set, gb_csv_field(&c, idx[0]));
        int32_t mi = gb_strtab_intern(&maps, key, NULL);
        if (mi < 0) goto oom;
        size_t k = 0;
        while (k < nmf && !(mf[k].g == gi && mf[k].map == mi)) k++;
        if (k == nmf) {
            if (nmf == capmf) {
                size_t nc = capmf ? 2 * capmf : 64;
                mapfig *nm = gb_realloc(mf, nc * sizeof *nm);
                if (!nm) goto oom;
                mf = nm;
                capmf = nc;
            }
            mf[nmf++] = (mapfig){ gi, mi, 0.0, 0.0 };
        }
        if (!isnan(prep) && prep > mf[k].prep) mf[k].prep = prep;
        if (!isnan(sto) && sto > mf[k].storage) mf[k].storage = sto;
    }
    if (rc == GB_CSV_EOF) rc = 0;
    if (rc) goto done;
    t->row = gb_calloc(ng ? ng : 1, sizeof *t->row);
    if (!t->row) goto oom;
    for (size_t k = 0; k < nmf; k++) {
        g[mf[k].g].r.prep_s += mf[k].prep * 1e-9;
        g[mf[k].g].r.storage_mb += mf[k].storage / 1048576.0;
    }
    for (size_t i = 0; i < ng; i++) {
        gb_gtab_row *r = &g[i].r;
        double s = 0.0;
        for (size_t k = 0; k < g[i].nt; k++) s += g[i].t[k];
        r->total_s = s * 1e-9;
        r->total_lo = r->total_hi = NAN;
        gb_ci ci;
        if (g[i].nt > 1 && gb_boot_stat(g[i].t, g[i].nt, GB_STAT_MEAN, b, &ci) == 0 && !isnan(ci.lo)) {
            r->total_lo = ci.lo * (double)g[i].nt * 1e-9;
            r->total_hi = ci.hi * (double)g[i].nt * 1e-9;
        }
        if (!g[i].has_f20) r->first20_s = NAN;
        if (!g[i].has_mc) r->max_call_ms = NAN;
        if (!g[i].has_mem) r->peak_mem_mb = NAN;   /* the solver's memory is not known (a plugin) */
        if (isnan(r->subopt_max) && r->solved) r->subopt_max = 1.0;
        t->row[t->n++] = *r;
    }
    one_row_per_entry(t);
    qsort(t->row, t->n, sizeof *t->row, cmp_row);
    pareto(t);
    goto done;
oom:
    rc = gb_diag_set(d, EX_OSERR, path, 0, 0, "expected memory for the GPPC table, found none");
done:
    for (size_t i = 0; i < capg; i++) gb_free(g ? g[i].t : NULL);
    gb_free(g);
    gb_free(mf);
    gb_strtab_free(&keys);
    gb_strtab_free(&maps);
    gb_csv_close(&c);
    if (rc) gb_gtab_free(t);
    return rc;
}

void gb_gtab_free(gb_gtab *t)
{
    gb_free(t->row);
    t->row = NULL;
    t->n = 0;
}

static void fnum(FILE *f, int decimals, double v)
{
    fputc(',', f);
    if (!isnan(v)) fprintf(f, "%.*f", decimals, v);
}

void gb_gtab_write_csv(const gb_gtab *t, FILE *f)
{
    fputs("set,solver,queue,time_source,regime,queries,solved,failed,total_s,total_s_lo,total_s_hi,"
          "first20_s,max_call_ms,prep_s,storage_mb,peak_mem_mb,suboptimal,subopt_max,undominated\n", f);
    for (size_t i = 0; i < t->n; i++) {
        const gb_gtab_row *r = &t->row[i];
        gb_csv_write_str(f, r->set);
        fputc(',', f);
        gb_csv_write_str(f, r->solver);
        fprintf(f, ",%s,%s,%s,%zu,%zu,%zu", r->queue, r->time_source, r->regime, r->queries, r->solved,
                r->failed);
        fnum(f, 6, r->total_s);
        fnum(f, 6, r->total_lo);
        fnum(f, 6, r->total_hi);
        fnum(f, 6, r->first20_s);
        fnum(f, 4, r->max_call_ms);
        fnum(f, 6, r->prep_s);
        fnum(f, 3, r->storage_mb);
        fnum(f, 3, r->peak_mem_mb);
        fprintf(f, ",%zu", r->suboptimal);
        fnum(f, 6, r->subopt_max);
        fprintf(f, ",%s\n", r->undominated < 0 ? "-" : r->undominated ? "1" : "0");
    }
}
