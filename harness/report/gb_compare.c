/*
 * gb_compare.c -- pair two run CSVs and compare them (see gb_compare.h
 * for what is compared and how).
 *
 * Data structure
 *   Names (maps, scenario file names, solvers, queues, models, groups)
 *   are interned in string tables shared by both runs, so equal names
 *   have equal ids across the runs.  Each run (side[0] = OLD, side[1] =
 *   NEW) keeps its rows in input order (keys listed twice dropped) and an
 *   open-addressing hash of row indices keyed by (map, scen, line,
 *   solver, queue) ids.  After loading, every NEW row holds the index of
 *   its OLD partner or -1, and every OLD row a flag "paired".  Pairs are
 *   then bucketed by group (counts, offsets: CSR) for the statistics.
 *
 * Time complexity: O(rows) to load and pair; per group O(B n) for the
 * bootstraps and O(n log n) for the tests.
 */
#include "gb_compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gb_alloc.h"
#include "gb_csv.h"
#include "gb_strtab.h"

typedef struct crow {
    int32_t map, scen, solver, queue;   /* interned ids */
    int32_t model;                      /* interned id, -1 without the column */
    int32_t timing;                     /* interned "regime, reps N", -1 without a reps column */
    int32_t group;
    long line;
    uint8_t status;                     /* gb_row_status */
    double time, expanded;
    double xy[4];                       /* start_x, start_y, goal_x, goal_y; NaN absent */
    int32_t partner;                    /* NEW: OLD row index or -1; OLD: 1 paired, else -1 */
} crow;

typedef struct side {
    crow *r;
    size_t n, cap;
    int32_t *hash;      /* row indices, -1 empty; nhash a power of two > 2 n */
    size_t nhash;
    size_t dup;         /* keys listed twice */
    int has_model, has_xy;
} side;

struct gb_cmp {
    gb_strtab maps, scens, solvers, queues, models, groups, mapscen, timings;
    side s[2];
    gb_cmp_group *g;
    size_t gcap;
    uint8_t *ms_seen;    /* per mapscen entry: bit 0 OLD, bit 1 NEW */
    size_t ms_cap;
    gb_cmp_change *ch;
    size_t nch;
    size_t npairs;
    char reason[512];    /* first pair whose data differ, "" when none */
    char treason[512];   /* first pair timed differently, "" when none */
};

/* ---- row keys ----------------------------------------------------------- */

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    return h * 0xff51afd7ed558ccdull;
}

static uint64_t row_hash(const crow *r)
{
    uint64_t h = 0;
    h = mix(h, (uint64_t)(uint32_t)r->map);
    h = mix(h, (uint64_t)(uint32_t)r->scen);
    h = mix(h, (uint64_t)r->line);
    h = mix(h, (uint64_t)(uint32_t)r->solver);
    h = mix(h, (uint64_t)(uint32_t)r->queue);
    return h ^ (h >> 29);
}

static int same_key(const crow *a, const crow *b)
{
    return a->map == b->map && a->scen == b->scen && a->line == b->line && a->solver == b->solver
           && a->queue == b->queue;
}

/* Index of the row of s with r's key, or -1. */
static int32_t side_find(const side *s, const crow *r)
{
    if (!s->nhash) return -1;
    size_t h = (size_t)row_hash(r) & (s->nhash - 1);
    while (s->hash[h] >= 0) {
        if (same_key(&s->r[s->hash[h]], r)) return s->hash[h];
        h = (h + 1) & (s->nhash - 1);
    }
    return -1;
}

static int side_rehash(side *s, size_t nhash)
{
    int32_t *t = gb_malloc(nhash * sizeof *t);
    if (!t) return -1;
    for (size_t i = 0; i < nhash; i++) t[i] = -1;
    for (size_t i = 0; i < s->n; i++) {
        size_t h = (size_t)row_hash(&s->r[i]) & (nhash - 1);
        while (t[h] >= 0) h = (h + 1) & (nhash - 1);
        t[h] = (int32_t)i;
    }
    gb_free(s->hash);
    s->hash = t;
    s->nhash = nhash;
    return 0;
}

/* Append r unless its key is there already (then dup++).  0 or -1 (memory). */
static int side_add(side *s, const crow *r)
{
    if (side_find(s, r) >= 0) { s->dup++; return 0; }
    if (s->n >= INT32_MAX - 1) return -1;
    if (2 * (s->n + 1) >= s->nhash && side_rehash(s, s->nhash ? 2 * s->nhash : 1024) != 0) return -1;
    if (s->n == s->cap) {
        size_t nc = s->cap ? 2 * s->cap : 1024;
        crow *nr = gb_realloc(s->r, nc * sizeof *nr);
        if (!nr) return -1;
        s->r = nr;
        s->cap = nc;
    }
    s->r[s->n] = *r;
    size_t h = (size_t)row_hash(r) & (s->nhash - 1);
    while (s->hash[h] >= 0) h = (h + 1) & (s->nhash - 1);
    s->hash[h] = (int32_t)s->n++;
    return 0;
}

/* ---- loading ------------------------------------------------------------- */

enum { C_MAP, C_SCEN, C_LINE, C_SOLVER, C_QUEUE, C_STATUS, C_TIME, C_EXP, C_NCOLS };
static const char *const col_names[C_NCOLS] = {
    "map", "scen", "line", "solver", "queue", "status", "time_ns", "expanded"
};
static const char *const xy_names[4] = { "start_x", "start_y", "goal_x", "goal_y" };

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

/* Field f (column name col) as a finite number, empty allowed when
 * optional (NaN).  0 or EX_DATAERR. */
static int num_of(const gb_csv *c, const char *f, const char *col, int optional, double *v, gb_diag *d)
{
    if (optional && !f[0]) { *v = NAN; return 0; }
    if (gb_csv_double(f, v) == 0) return 0;
    char q[64];
    gb_diag_quote(q, sizeof q, f, strlen(f));
    return gb_diag_set(d, EX_DATAERR, c->path, c->line, 0, "column %s: expected a number%s, found %s",
                       col, optional ? " or an empty field" : "", q);
}

static int load_side(gb_cmp *c, int which, const char *path, gb_diag *d)
{
    side *s = &c->s[which];
    gb_csv csv;
    int rc = gb_csv_open(&csv, path, d);
    if (rc) return rc;
    int idx[C_NCOLS], xy[4];
    if ((rc = gb_csv_require(&csv, col_names, C_NCOLS, idx, d)) != 0) { gb_csv_close(&csv); return rc; }
    int model_col = gb_csv_col(&csv, "model");
    s->has_model = model_col >= 0;
    /* how a row was timed: its regime (absent: the only one there was) and reps */
    int regime_col = gb_csv_col(&csv, "regime"), reps_col = gb_csv_col(&csv, "reps");
    s->has_xy = 1;
    for (int k = 0; k < 4; k++)
        if ((xy[k] = gb_csv_col(&csv, xy_names[k])) < 0) s->has_xy = 0;
    char key[4096];
    while ((rc = gb_csv_next(&csv, d)) == 0) {
        crow r;
        memset(&r, 0, sizeof r);
        const char *st = gb_csv_field(&csv, idx[C_STATUS]);
        int sv = gb_row_status_from_name(st, strlen(st));
        if (sv < 0) {
            char q[64];
            gb_diag_quote(q, sizeof q, st, strlen(st));
            rc = gb_diag_set(d, EX_DATAERR, path, csv.line, 0, "column status: expected %s, found %s",
                             gb_row_status_expected(), q);
            break;
        }
        r.status = (uint8_t)sv;
        double line;
        if ((rc = num_of(&csv, gb_csv_field(&csv, idx[C_LINE]), "line", 0, &line, d)) != 0) break;
        if (line < 0 || line > 1e15 || line != floor(line)) {
            rc = gb_diag_set(d, EX_DATAERR, path, csv.line, 0,
                             "column line: expected a non-negative integer, found %g", line);
            break;
        }
        r.line = (long)line;
        if ((rc = num_of(&csv, gb_csv_field(&csv, idx[C_TIME]), "time_ns", 0, &r.time, d)) != 0) break;
        if ((rc = num_of(&csv, gb_csv_field(&csv, idx[C_EXP]), "expanded", 0, &r.expanded, d)) != 0) break;
        for (int k = 0; k < 4; k++) {
            r.xy[k] = NAN;
            if (s->has_xy && (rc = num_of(&csv, gb_csv_field(&csv, xy[k]), xy_names[k], 1, &r.xy[k], d)) != 0)
                break;
        }
        if (rc) break;
        const char *map = gb_csv_field(&csv, idx[C_MAP]);
        const char *scen = base_name(gb_csv_field(&csv, idx[C_SCEN]));
        const char *solver = gb_csv_field(&csv, idx[C_SOLVER]);
        const char *queue = gb_csv_field(&csv, idx[C_QUEUE]);
        r.map = gb_strtab_intern(&c->maps, map, NULL);
        r.scen = gb_strtab_intern(&c->scens, scen, NULL);
        r.solver = gb_strtab_intern(&c->solvers, solver, NULL);
        r.queue = gb_strtab_intern(&c->queues, queue, NULL);
        r.model = model_col >= 0 ? gb_strtab_intern(&c->models, gb_csv_field(&csv, model_col), NULL) : -1;
        if (r.map < 0 || r.scen < 0 || r.solver < 0 || r.queue < 0 || (model_col >= 0 && r.model < 0))
            goto nomem;
        r.timing = -1;
        if (reps_col >= 0) {
            snprintf(key, sizeof key, "regime %s, reps %s",
                     regime_col >= 0 ? gb_csv_field(&csv, regime_col) : "interleaved",
                     gb_csv_field(&csv, reps_col));
            if ((r.timing = gb_strtab_intern(&c->timings, key, NULL)) < 0) goto nomem;
        }
        int added;
        snprintf(key, sizeof key, "%d:%d", (int)r.map, (int)r.scen);
        int32_t ms = gb_strtab_intern(&c->mapscen, key, &added);
        if (ms < 0) goto nomem;
        if (c->mapscen.cap > c->ms_cap) {
            uint8_t *nm = gb_realloc(c->ms_seen, c->mapscen.cap);
            if (!nm) goto nomem;
            memset(nm + c->ms_cap, 0, c->mapscen.cap - c->ms_cap);
            c->ms_seen = nm;
            c->ms_cap = c->mapscen.cap;
        }
        c->ms_seen[ms] |= (uint8_t)(1u << which);
        snprintf(key, sizeof key, "%d:%d:%d", (int)r.map, (int)r.solver, (int)r.queue);
        r.group = gb_strtab_intern(&c->groups, key, &added);
        if (r.group < 0) goto nomem;
        if (c->groups.cap > c->gcap) {
            gb_cmp_group *ng = gb_realloc(c->g, c->groups.cap * sizeof *ng);
            if (!ng) goto nomem;
            memset(ng + c->gcap, 0, (c->groups.cap - c->gcap) * sizeof *ng);
            c->g = ng;
            c->gcap = c->groups.cap;
        }
        if (added) {
            gb_cmp_group *g = &c->g[r.group];
            g->map = c->maps.str[r.map];
            g->solver = c->solvers.str[r.solver];
            g->queue = c->queues.str[r.queue];
        }
        r.partner = -1;
        if (side_add(s, &r) != 0) goto nomem;
    }
    gb_csv_close(&csv);
    if (rc == GB_CSV_EOF) rc = 0;
    if (!rc && s->n == 0 && s->dup == 0)
        rc = gb_diag_set(d, EX_DATAERR, path, 0, 0, "expected at least one data row, found none");
    return rc;
nomem:
    gb_csv_close(&csv);
    return gb_diag_set(d, EX_OSERR, path, 0, 0, "expected memory for the comparison, found none");
}

/* Pair NEW's rows with OLD's; note the first pair whose data differ. */
static void pair_rows(gb_cmp *c)
{
    side *o = &c->s[0], *n = &c->s[1];
    int check_model = o->has_model && n->has_model, check_xy = o->has_xy && n->has_xy;
    for (size_t i = 0; i < n->n; i++) {
        crow *r = &n->r[i];
        int32_t j = side_find(o, r);
        r->partner = j;
        if (j < 0) continue;
        crow *q = &o->r[j];
        q->partner = 1;
        c->npairs++;
        /* crash and limit rows ran fewer reps: only rows that answered say how they were timed */
        if (!c->treason[0] && q->timing >= 0 && r->timing >= 0 && q->timing != r->timing
            && !gb_row_status_failed((gb_row_status)q->status)
            && !gb_row_status_failed((gb_row_status)r->status) && q->status != GB_ROW_LIMIT
            && r->status != GB_ROW_LIMIT)
            snprintf(c->treason, sizeof c->treason, "%s/%s line %ld of %s: %s in OLD, %s in NEW",
                     c->solvers.str[r->solver], c->queues.str[r->queue], r->line, c->scens.str[r->scen],
                     c->timings.str[q->timing], c->timings.str[r->timing]);
        if (c->reason[0]) continue;
        if (check_model && q->model != r->model) {
            snprintf(c->reason, sizeof c->reason, "movement model '%s' in OLD, '%s' in NEW",
                     c->models.str[q->model], c->models.str[r->model]);
            continue;
        }
        if (!check_xy) continue;
        for (int k = 0; k < 4; k++) {
            if (isnan(q->xy[k]) || isnan(r->xy[k]) || q->xy[k] == r->xy[k]) continue;
            snprintf(c->reason, sizeof c->reason, "line %ld of %s: start (%g, %g) goal (%g, %g) in OLD, "
                     "start (%g, %g) goal (%g, %g) in NEW", r->line, c->scens.str[r->scen], q->xy[0],
                     q->xy[1], q->xy[2], q->xy[3], r->xy[0], r->xy[1], r->xy[2], r->xy[3]);
            break;
        }
    }
}

int gb_cmp_load(const char *old_csv, const char *new_csv, gb_cmp **out, gb_diag *d)
{
    *out = NULL;
    gb_cmp *c = gb_calloc(1, sizeof *c);
    if (!c) return gb_diag_set(d, EX_OSERR, old_csv, 0, 0, "expected memory for the comparison, found none");
    int rc = load_side(c, 0, old_csv, d);
    if (!rc) rc = load_side(c, 1, new_csv, d);
    if (rc) { gb_cmp_free(c); return rc; }
    pair_rows(c);
    gb_diag_clear(d);
    *out = c;
    return 0;
}

size_t gb_cmp_rows(const gb_cmp *c, int which_new) { return c->s[which_new ? 1 : 0].n; }
size_t gb_cmp_pairs(const gb_cmp *c) { return c->npairs; }
size_t gb_cmp_duplicates(const gb_cmp *c, int which_new) { return c->s[which_new ? 1 : 0].dup; }
size_t gb_cmp_ngroups(const gb_cmp *c) { return c->groups.n; }
const gb_cmp_group *gb_cmp_group_at(const gb_cmp *c, size_t i) { return &c->g[i]; }
size_t gb_cmp_nchanges(const gb_cmp *c) { return c->nch; }
const gb_cmp_change *gb_cmp_change_at(const gb_cmp *c, size_t i) { return &c->ch[i]; }

int gb_cmp_timing_differs(const gb_cmp *c, char *buf, size_t n)
{
    if (!c->treason[0]) return 0;
    snprintf(buf, n, "%s", c->treason);
    return 1;
}

int gb_cmp_data_differs(const gb_cmp *c, int sets, char *buf, size_t n)
{
    for (size_t i = 0; sets && i < c->mapscen.n; i++) {
        if (c->ms_seen[i] == 3) continue;
        int m, s;
        if (sscanf(c->mapscen.str[i], "%d:%d", &m, &s) != 2) continue;
        snprintf(buf, n, "scenario %s (map %s) only in %s", c->scens.str[s], c->maps.str[m],
                 c->ms_seen[i] == 1 ? "OLD" : "NEW");
        return 1;
    }
    if (c->reason[0]) {
        snprintf(buf, n, "%s", c->reason);
        return 1;
    }
    if (n) buf[0] = '\0';
    return 0;
}

/* ---- statistics ---------------------------------------------------------- */

static int verdict(const gb_ci *ci, double p)
{
    if (isnan(ci->est)) return GB_CMP_NA;
    if (gb_ci_contains(ci, 1.0) || !(p < GB_STATS_ALPHA)) return GB_CMP_SAME;
    return ci->est > 1 ? GB_CMP_SLOWER : GB_CMP_FASTER;
}

static int cmp_dbl(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median_of(double *tmp, const double *x, size_t n)
{
    memcpy(tmp, x, n * sizeof *x);
    qsort(tmp, n, sizeof *tmp, cmp_dbl);
    return gb_quantile(tmp, n, 0.5);
}

static double mean_of(const double *x, size_t n)
{
    if (!n) return NAN;
    double s = 0;
    for (size_t i = 0; i < n; i++) s += x[i];
    return s / (double)n;
}

/* Status changes, regressions first, then fixes, then the others. */
static int collect_changes(gb_cmp *c)
{
    const side *o = &c->s[0], *n = &c->s[1];
    size_t k = 0;
    for (size_t i = 0; i < n->n; i++)
        if (n->r[i].partner >= 0 && n->r[i].status != o->r[n->r[i].partner].status) k++;
    gb_free(c->ch);
    c->nch = 0;
    c->ch = gb_malloc((k ? k : 1) * sizeof *c->ch);
    if (!c->ch) return -1;
    for (int kind = GB_CMP_REGRESSION; kind <= GB_CMP_OTHER; kind++) {
        for (size_t i = 0; i < n->n; i++) {
            const crow *r = &n->r[i];
            if (r->partner < 0) continue;
            const crow *q = &o->r[r->partner];
            if (q->status == r->status) continue;
            int fo = gb_row_status_failed((gb_row_status)q->status), fn = gb_row_status_failed((gb_row_status)r->status);
            gb_cmp_kind kd = !fo && fn ? GB_CMP_REGRESSION : fo && !fn ? GB_CMP_FIX : GB_CMP_OTHER;
            if ((int)kd != kind) continue;
            gb_cmp_change *ch = &c->ch[c->nch++];
            ch->group = (size_t)r->group;
            ch->scen = c->scens.str[r->scen];
            ch->line = r->line;
            ch->old_st = (gb_row_status)q->status;
            ch->new_st = (gb_row_status)r->status;
            ch->kind = kd;
            gb_cmp_group *g = &c->g[r->group];
            if (kd == GB_CMP_REGRESSION) g->regressions++;
            else if (kd == GB_CMP_FIX) g->fixes++;
            else g->others++;
        }
    }
    return 0;
}

int gb_cmp_compute(gb_cmp *c, const gb_boot *b)
{
    const side *o = &c->s[0], *n = &c->s[1];
    size_t ng = c->groups.n, np = c->npairs;
    size_t *off = gb_calloc(ng + 1, sizeof *off), *fill = gb_calloc(ng + 1, sizeof *fill);
    size_t *pr = gb_malloc((np ? np : 1) * sizeof *pr);   /* NEW row of each pair, by group */
    double *ot = gb_malloc((np ? np : 1) * sizeof *ot), *nt = gb_malloc((np ? np : 1) * sizeof *nt);
    double *oe = gb_malloc((np ? np : 1) * sizeof *oe), *ne = gb_malloc((np ? np : 1) * sizeof *ne);
    double *tmp = gb_malloc((np ? np : 1) * sizeof *tmp);
    int rc = -1;
    if (!off || !fill || !pr || !ot || !nt || !oe || !ne || !tmp) goto out;
    for (size_t gi = 0; gi < ng; gi++) {
        gb_cmp_group *g = &c->g[gi];
        g->n = g->old_only = g->new_only = g->regressions = g->fixes = g->others = 0;
    }
    for (size_t i = 0; i < o->n; i++)
        if (o->r[i].partner < 0) c->g[o->r[i].group].old_only++;
    for (size_t i = 0; i < n->n; i++) {
        if (n->r[i].partner < 0) c->g[n->r[i].group].new_only++;
        else off[n->r[i].group + 1]++;
    }
    for (size_t gi = 0; gi < ng; gi++) off[gi + 1] += off[gi];
    for (size_t i = 0; i < n->n; i++)
        if (n->r[i].partner >= 0) {
            size_t gi = (size_t)n->r[i].group;
            pr[off[gi] + fill[gi]++] = i;
        }
    for (size_t gi = 0; gi < ng; gi++) {
        gb_cmp_group *g = &c->g[gi];
        size_t m = off[gi + 1] - off[gi];
        g->n = m;
        for (size_t k = 0; k < m; k++) {
            const crow *r = &n->r[pr[off[gi] + k]], *q = &o->r[r->partner];
            ot[k] = q->time;
            nt[k] = r->time;
            oe[k] = q->expanded;
            ne[k] = r->expanded;
        }
        g->old_med = m ? median_of(tmp, ot, m) : NAN;
        g->new_med = m ? median_of(tmp, nt, m) : NAN;
        g->old_exp = mean_of(oe, m);
        g->new_exp = mean_of(ne, m);
        if (gb_boot_ratio(nt, ot, m, GB_STAT_MEDIAN, b, &g->time) != 0) goto out;
        if (gb_boot_ratio(ne, oe, m, GB_STAT_MEAN, b, &g->exp) != 0) goto out;
        if (gb_mwu(nt, m, ot, m, NULL, &g->time_p) != 0) goto out;
        if (gb_mwu(ne, m, oe, m, NULL, &g->exp_p) != 0) goto out;
        g->time_verdict = verdict(&g->time, g->time_p);
        g->exp_verdict = verdict(&g->exp, g->exp_p);
    }
    rc = collect_changes(c);
out:
    gb_free(off);
    gb_free(fill);
    gb_free(pr);
    gb_free(ot);
    gb_free(nt);
    gb_free(oe);
    gb_free(ne);
    gb_free(tmp);
    return rc;
}

const char *gb_cmp_verdict_name(int v, int expansions, int csv)
{
    switch (v) {
    case GB_CMP_SLOWER: return expansions ? "more" : "slower";
    case GB_CMP_FASTER: return expansions ? "fewer" : "faster";
    case GB_CMP_SAME: return csv ? "no_change" : "no change";
    default: return "n/a";
    }
}

void gb_cmp_free(gb_cmp *c)
{
    if (!c) return;
    for (int k = 0; k < 2; k++) {
        gb_free(c->s[k].r);
        gb_free(c->s[k].hash);
    }
    gb_strtab_free(&c->maps);
    gb_strtab_free(&c->scens);
    gb_strtab_free(&c->solvers);
    gb_strtab_free(&c->queues);
    gb_strtab_free(&c->models);
    gb_strtab_free(&c->timings);
    gb_strtab_free(&c->groups);
    gb_strtab_free(&c->mapscen);
    gb_free(c->g);
    gb_free(c->ms_seen);
    gb_free(c->ch);
    gb_free(c);
}
