/*
 * gb_summary.c -- statistics over a per-query CSV (see gb_summary.h for
 * what is computed and how percentiles are defined).
 *
 * Data structure
 *   rows[0..nrows) holds one compact record per input row: its group,
 *   query, bucket, status and the numeric columns (NaN where the CSV
 *   field is empty).  Names are interned once in string tables
 *   (gb_strtab.h: maps, solvers, queues, pairs, queries, groups): a
 *   table's index is the first-appearance order, which is the output
 *   order.  gidx[map * npairs
 *   + pair] is the group of (map, pair) or -1, and qtime[pair * nqueries +
 *   query] the time of that pair on that query (NaN when it did not run),
 *   so that speedups and queue ratios are paired per query.
 *   pair_src[pair] is the pair's time_source ("" when the column is
 *   absent, "mixed" when its rows disagree); a speedup is computed only
 *   between pairs of the same source, so a process round trip or a plugin
 *   call is never divided into an in-process time unannounced.
 *   Each group keeps the list of its rows (input order) in grow[], and
 *   the model its rows ran under (the per-query CSV's model column:
 *   movement model and terrain costs), or "mixed" when they disagree.
 *
 * Time complexity: O(rows log rows) for the sorts behind the percentiles;
 * memory O(rows + pairs x queries).
 */
#include "gb_summary.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gb_alloc.h"
#include "gb_csv.h"
#include "gb_run.h"
#include "gb_strtab.h"

/* ---- the summary ------------------------------------------------------- */

typedef struct srow {
    int32_t group;      /* index into groups */
    int32_t query;      /* index into queries */
    int32_t bucket;     /* bucket column */
    uint8_t status;     /* gb_row_status */
    double time;        /* time_ns (median of reps) */
    double cold;        /* time_cold_ns */
    double expanded;    /* expanded */
    double subopt;      /* subopt, NaN when empty */
    double len;         /* dijkstra_cost, NaN when empty */
    double mem;         /* mem_bytes, NaN when empty or the column is absent */
    double prep;        /* prep_ns, NaN when empty or the column is absent */
    double lbr;         /* lb_ratio (cost / straight line), NaN when empty or absent */
    uint8_t aa_centre;  /* cost_model "anyangle": subopt is against the grid optimum only */
} srow;

typedef struct gstat {
    int32_t map, pair;          /* interned indices */
    int32_t model;              /* index into models: the rows' model column,
                                   -1 when the column is absent, -2 when the
                                   group's rows disagree ("mixed") */
    char guarantee[16];         /* of the first row */
    size_t n;                   /* rows */
    size_t *rows;               /* indices into rows[], input order */
    double t_med, t_mean, t_p25, t_p75, t_p95, cold_med;
    double exp_mean, exp_med;
    double t_lo, t_hi;          /* bootstrap interval of t_med */
    double speedup;             /* NaN when not defined */
    double sp_lo, sp_hi;        /* paired bootstrap interval of speedup */
    size_t speedup_n;           /* queries shared with the baseline */
    double sub_mean, sub_max;   /* NaN when not reported */
    double sp_astar;            /* speedup over astar-octile/bheap, NaN when not defined */
    double mem_max;             /* largest mem_bytes, NaN when none */
    double prep_max;            /* largest prep_ns (per map preparation), NaN when none */
    double lbr_mean;            /* mean lb_ratio over the rows that have one, NaN when none */
    double opt_share;           /* share of the rows with a subopt that are at the optimum
                                   (subopt <= 1 + 1e-9), NaN when none or any-angle centre */
    uint64_t status[GB_ROW_NSTATUS];
} gstat;

struct gb_summary {
    gb_strtab maps, solvers, queues, pairs, queries, groups;
    gb_strtab models;                    /* the model column's values */
    int32_t *pair_solver, *pair_queue;   /* per pair */
    char (*pair_src)[8];                 /* per pair: time_source, "", or "mixed" */
    char **map_scen;                     /* per map: first scen file */
    char **map_slug;                     /* per map: file-name-safe name */
    size_t *map_queries;                 /* per map: distinct queries */
    int32_t *query_map;                  /* per query */
    srow *rows;
    size_t nrows, caprows;
    size_t map_cap, pair_cap, query_cap, group_cap;   /* entries of the per-X arrays */
    gstat *g;                            /* per group (interned order) */
    size_t *order;                       /* group indices in output order */
    int32_t *gidx;                       /* map x pair -> group or -1 */
    double *qtime;                       /* pair x query -> time or NaN */
    int32_t baseline;                    /* pair of dijkstra/bheap, or -1 */
    int32_t astar;                       /* pair of astar-octile/bheap, or -1 */
    int32_t ref_queue;                   /* index into queues */
    int32_t *plot_pair;                  /* per solver: the pair plotted */
    gb_boot boot;                        /* settings of the intervals */
    /* scratch for the writers, allocated by compute() so that writing
     * never allocates: nothing fails half-way through a set of files */
    double *scr_a, *scr_b;               /* nrows entries each */
    size_t *scr_t;                       /* nrows entries */
    char *scr_use;                       /* per queue */
};

static int cmp_dbl(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Were pairs a and b timed the same way (time_source)?  "mixed" never is. */
static int same_source(const gb_summary *s, int32_t a, int32_t b)
{
    return strcmp(s->pair_src[a], s->pair_src[b]) == 0 && strcmp(s->pair_src[a], "mixed") != 0;
}

static const char summary_header[] =
    "map,solver,queue,guarantee,n,time_median_ns,time_mean_ns,time_p25_ns,time_p75_ns,"
    "time_p95_ns,time_iqr_ns,time_cold_median_ns,expanded_mean,expanded_median,speedup,"
    "speedup_n,subopt_mean,subopt_max"
#define GB_X(E, N, F, D) "," N
    GB_ROW_STATUS_LIST(GB_X)
#undef GB_X
        ",mem_bytes_max,time_median_lo_ns,time_median_hi_ns,speedup_lo,speedup_hi,prep_ns_max,"
        "speedup_astar,"
        "time_source,prep_amortised_ns,lb_ratio_mean,model,optimal_share";

const char *gb_summary_csv_header(void) { return summary_header; }

size_t gb_summary_ngroups(const gb_summary *s) { return s->groups.n; }
size_t gb_summary_nrows(const gb_summary *s) { return s->nrows; }

void gb_summary_group_at(const gb_summary *s, size_t i, gb_summary_group *out)
{
    const gstat *g = &s->g[s->order[i]];
    out->map = s->maps.str[g->map];
    out->solver = s->solvers.str[s->pair_solver[g->pair]];
    out->queue = s->queues.str[s->pair_queue[g->pair]];
    out->guarantee = g->guarantee;
    out->med = g->t_med;
    out->med_lo = g->t_lo;
    out->med_hi = g->t_hi;
}

void gb_summary_free(gb_summary *s)
{
    if (!s) return;
    /* An allocation can fail between interning a name and growing its
     * per-entry arrays: only entries below both counts are owned. */
    size_t nmap = s->maps.n < s->map_cap ? s->maps.n : s->map_cap;
    for (size_t i = 0; i < nmap; i++) gb_free(s->map_scen[i]);
    if (s->map_slug)
        for (size_t i = 0; i < s->maps.n; i++) gb_free(s->map_slug[i]);
    gb_free(s->map_slug);
    size_t ngroup = s->groups.n < s->group_cap ? s->groups.n : s->group_cap;
    for (size_t i = 0; i < ngroup; i++) gb_free(s->g[i].rows);
    gb_strtab_free(&s->maps);
    gb_strtab_free(&s->solvers);
    gb_strtab_free(&s->queues);
    gb_strtab_free(&s->pairs);
    gb_strtab_free(&s->queries);
    gb_strtab_free(&s->groups);
    gb_strtab_free(&s->models);
    gb_free(s->pair_solver);
    gb_free(s->pair_queue);
    gb_free(s->pair_src);
    gb_free(s->map_scen);
    gb_free(s->map_queries);
    gb_free(s->query_map);
    gb_free(s->rows);
    gb_free(s->g);
    gb_free(s->order);
    gb_free(s->gidx);
    gb_free(s->qtime);
    gb_free(s->plot_pair);
    gb_free(s->scr_a);
    gb_free(s->scr_b);
    gb_free(s->scr_t);
    gb_free(s->scr_use);
    gb_free(s);
}

/* Grow a per-entry array from old to cap entries, the new ones zero. */
#define GROW_TO(arr, old, cap)                                              \
    do {                                                                    \
        void *p_ = gb_realloc((arr), (cap) * sizeof *(arr));                \
        if (!p_) goto nomem;                                                \
        (arr) = p_;                                                         \
        memset((arr) + (old), 0, ((cap) - (old)) * sizeof *(arr));          \
    } while (0)

enum { C_MAP, C_SCEN, C_LINE, C_BUCKET, C_SOLVER, C_QUEUE, C_GUAR, C_STATUS, C_DCOST,
       C_SUBOPT, C_EXP, C_TIME, C_COLD, C_NCOLS };

static const char *const col_names[C_NCOLS] = {
    "map", "scen", "line", "bucket", "solver", "queue", "guarantee", "status",
    "dijkstra_cost", "subopt", "expanded", "time_ns", "time_cold_ns"
};

/* Parse field col of the current record as a number; empty -> NaN when
 * optional.  0 or EX_DATAERR. */
static int num_field(const gb_csv *c, const int *idx, int col, int optional, double *v, gb_diag *d)
{
    const char *f = gb_csv_field(c, idx[col]);
    if (optional && !f[0]) { *v = NAN; return 0; }
    if (gb_csv_double(f, v) == 0) return 0;
    char q[64];
    gb_diag_quote(q, sizeof q, f, strlen(f));
    return gb_diag_set(d, EX_DATAERR, c->path, c->line, 0, "column %s: expected a number%s, found %s",
                       col_names[col], optional ? " or an empty field" : "", q);
}

/* An optional column (older CSVs lack it): *v = NaN when the column is
 * absent (col < 0) or the field empty, else a number that is >= 0
 * (positive: > 0).  0 or EX_DATAERR naming the place. */
static int opt_field(const gb_csv *c, int col, const char *name, int positive, double *v, gb_diag *d)
{
    *v = NAN;
    if (col < 0) return 0;
    const char *f = gb_csv_field(c, col);
    if (!f[0]) return 0;
    if (gb_csv_double(f, v) == 0 && (positive ? *v > 0 : *v >= 0)) return 0;
    char q[64];
    gb_diag_quote(q, sizeof q, f, strlen(f));
    return gb_diag_set(d, EX_DATAERR, c->path, c->line, 0, "column %s: expected a %s number or an "
                       "empty field, found %s", name, positive ? "positive" : "non-negative", q);
}

static int compute(gb_summary *s);

int gb_summary_load(const char *path, gb_summary **out, gb_diag *d)
{
    gb_boot b;
    gb_boot_default(&b);
    return gb_summary_load_with(path, &b, out, d);
}

int gb_summary_load_with(const char *path, const gb_boot *boot, gb_summary **out, gb_diag *d)
{
    *out = NULL;
    gb_csv c;
    int rc = gb_csv_open(&c, path, d);
    if (rc) return rc;
    int idx[C_NCOLS];
    if ((rc = gb_csv_require(&c, col_names, C_NCOLS, idx, d)) != 0) { gb_csv_close(&c); return rc; }
    const int mem_col = gb_csv_col(&c, "mem_bytes");   /* optional: older CSVs lack it */
    const int prep_col = gb_csv_col(&c, "prep_ns");    /* likewise */
    const int src_col = gb_csv_col(&c, "time_source"); /* likewise */
    const int lbr_col = gb_csv_col(&c, "lb_ratio");    /* likewise */
    const int model_col = gb_csv_col(&c, "model");     /* likewise */
    const int cm_col = gb_csv_col(&c, "cost_model");   /* likewise */
    gb_summary *s = gb_calloc(1, sizeof *s);
    if (!s) { gb_csv_close(&c); return gb_diag_set(d, EX_OSERR, path, 0, 0, "expected memory, found none"); }
    s->boot = *boot;
    char key[4096];

    while ((rc = gb_csv_next(&c, d)) == 0) {
        const char *map = gb_csv_field(&c, idx[C_MAP]);
        const char *scen = gb_csv_field(&c, idx[C_SCEN]);
        const char *line = gb_csv_field(&c, idx[C_LINE]);
        const char *solver = gb_csv_field(&c, idx[C_SOLVER]);
        const char *queue = gb_csv_field(&c, idx[C_QUEUE]);
        const char *status = gb_csv_field(&c, idx[C_STATUS]);
        srow r;
        memset(&r, 0, sizeof r);
        int st = -1;
        st = gb_row_status_from_name(status, strlen(status));
        if (st < 0) {
            char q[64];
            gb_diag_quote(q, sizeof q, status, strlen(status));
            rc = gb_diag_set(d, EX_DATAERR, path, c.line, 0, "column status: expected %s, found %s",
                             gb_row_status_expected(), q);
            break;
        }
        r.status = (uint8_t)st;
        double b;
        if ((rc = num_field(&c, idx, C_BUCKET, 0, &b, d)) != 0) break;
        if ((rc = num_field(&c, idx, C_TIME, 0, &r.time, d)) != 0) break;
        if ((rc = num_field(&c, idx, C_COLD, 0, &r.cold, d)) != 0) break;
        if ((rc = num_field(&c, idx, C_EXP, 0, &r.expanded, d)) != 0) break;
        if ((rc = num_field(&c, idx, C_SUBOPT, 1, &r.subopt, d)) != 0) break;
        if ((rc = num_field(&c, idx, C_DCOST, 1, &r.len, d)) != 0) break;
        if ((rc = opt_field(&c, mem_col, "mem_bytes", 0, &r.mem, d)) != 0) break;
        if ((rc = opt_field(&c, lbr_col, "lb_ratio", 1, &r.lbr, d)) != 0) break;
        if ((rc = opt_field(&c, prep_col, "prep_ns", 0, &r.prep, d)) != 0) break;
        r.aa_centre = cm_col >= 0 && strcmp(gb_csv_field(&c, cm_col), "anyangle") == 0;
        if (b < 0 || b > INT32_MAX || b != floor(b)) {
            rc = gb_diag_set(d, EX_DATAERR, path, c.line, 0,
                             "column bucket: expected a non-negative integer, found %g", b);
            break;
        }
        r.bucket = (int32_t)b;

        int added;
        int32_t mi = gb_strtab_intern(&s->maps, map, &added);
        if (mi < 0) goto nomem;
        if (added) {
            if (s->maps.cap > s->map_cap) {
                GROW_TO(s->map_scen, s->map_cap, s->maps.cap);
                GROW_TO(s->map_queries, s->map_cap, s->maps.cap);
                s->map_cap = s->maps.cap;
            }
            s->map_queries[mi] = 0;
            s->map_scen[mi] = gb_strdup(scen);
            if (!s->map_scen[mi]) goto nomem;
        }
        int32_t si = gb_strtab_intern(&s->solvers, solver, NULL);
        int32_t qi = gb_strtab_intern(&s->queues, queue, NULL);
        if (si < 0 || qi < 0) goto nomem;
        snprintf(key, sizeof key, "%s\x1f%s", solver, queue);
        int32_t pi = gb_strtab_intern(&s->pairs, key, &added);
        if (pi < 0) goto nomem;
        if (added) {
            if (s->pairs.cap > s->pair_cap) {
                GROW_TO(s->pair_solver, s->pair_cap, s->pairs.cap);
                GROW_TO(s->pair_queue, s->pair_cap, s->pairs.cap);
                GROW_TO(s->pair_src, s->pair_cap, s->pairs.cap);
                s->pair_cap = s->pairs.cap;
            }
            s->pair_solver[pi] = si;
            s->pair_queue[pi] = qi;
        }
        if (src_col >= 0) {   /* inproc, process, plugin (or anything short) */
            const char *src = gb_csv_field(&c, src_col);
            char v[8];
            size_t sl = strlen(src);
            if (sl >= sizeof v) sl = sizeof v - 1;
            for (size_t k = 0; k < sl; k++)
                v[k] = src[k] == ',' || src[k] == '\t' || (unsigned char)src[k] < 0x20 ? '_' : src[k];
            v[sl] = '\0';
            if (added) snprintf(s->pair_src[pi], sizeof s->pair_src[pi], "%s", v);
            else if (strcmp(s->pair_src[pi], v) != 0) snprintf(s->pair_src[pi], sizeof s->pair_src[pi], "mixed");
        }
        snprintf(key, sizeof key, "%s\x1f%s\x1f%s", map, scen, line);
        int32_t qy = gb_strtab_intern(&s->queries, key, &added);
        if (qy < 0) goto nomem;
        if (added) {
            if (s->queries.cap > s->query_cap) {
                GROW_TO(s->query_map, s->query_cap, s->queries.cap);
                s->query_cap = s->queries.cap;
            }
            s->query_map[qy] = mi;
            s->map_queries[mi]++;
        }
        snprintf(key, sizeof key, "%d:%d", mi, pi);
        int32_t gi = gb_strtab_intern(&s->groups, key, &added);
        if (gi < 0) goto nomem;
        if (added) {
            if (s->groups.cap > s->group_cap) {
                GROW_TO(s->g, s->group_cap, s->groups.cap);
                s->group_cap = s->groups.cap;
            }
            memset(&s->g[gi], 0, sizeof s->g[gi]);
            s->g[gi].map = mi;
            s->g[gi].pair = pi;
            s->g[gi].model = -1;
            snprintf(s->g[gi].guarantee, sizeof s->g[gi].guarantee, "%s",
                     gb_csv_field(&c, idx[C_GUAR]));
        }
        if (model_col >= 0) { /* the group's model, "mixed" when its rows disagree */
            int32_t mo = gb_strtab_intern(&s->models, gb_csv_field(&c, model_col), NULL);
            if (mo < 0) goto nomem;
            if (added) s->g[gi].model = mo;
            else if (s->g[gi].model != mo) s->g[gi].model = -2;
        }
        r.group = gi;
        r.query = qy;
        if (s->nrows == s->caprows) {
            size_t nc = s->caprows ? 2 * s->caprows : 1024;
            GROW_TO(s->rows, s->caprows, nc);
            s->caprows = nc;
        }
        s->rows[s->nrows++] = r;
    }
    if (rc == GB_CSV_EOF) rc = 0;
    if (!rc && s->nrows == 0)
        rc = gb_diag_set(d, EX_DATAERR, path, c.line, 0, "expected at least one data row, found none");
    gb_csv_close(&c);
    if (!rc && compute(s) != 0) goto nomem_closed;
    if (rc) { gb_summary_free(s); return rc; }
    gb_diag_clear(d);
    *out = s;
    return 0;

nomem:
    gb_csv_close(&c);
nomem_closed:
    gb_summary_free(s);
    return gb_diag_set(d, EX_OSERR, path, 0, 0, "expected memory for the summary, found none");
}

/* Output order: map, then pair (both first-appearance indices).  qsort
 * has no context argument in C11, hence the file-scope pointer. */
static const gb_summary *sort_ctx;
static int cmp_order(const void *a, const void *b)
{
    const gstat *x = &sort_ctx->g[*(const size_t *)a], *y = &sort_ctx->g[*(const size_t *)b];
    if (x->map != y->map) return x->map < y->map ? -1 : 1;
    return (x->pair > y->pair) - (x->pair < y->pair);
}

/* File-name-safe form of every map name, unique among the maps. */
static int make_slugs(gb_summary *s)
{
    gb_strtab seen;
    memset(&seen, 0, sizeof seen);
    s->map_slug = gb_calloc(s->maps.n ? s->maps.n : 1, sizeof *s->map_slug);
    if (!s->map_slug) return -1;
    for (size_t mi = 0; mi < s->maps.n; mi++) {
        char out[256];
        const char *m = s->maps.str[mi];
        size_t k = 0;
        for (; *m && k < 200; m++) {
            char c = *m;
            int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                     || c == '.' || c == '_' || c == '-';
            out[k++] = ok ? c : '_';
        }
        out[k] = '\0';
        if (k == 0 || out[0] == '.') out[0] = '_', out[k ? k : 1] = '\0';
        int added;
        if (gb_strtab_intern(&seen, out, &added) < 0) { gb_strtab_free(&seen); return -1; }
        if (!added) {   /* another map had this slug: add the index */
            snprintf(out + strlen(out), 24, "-%zu", mi);
            if (gb_strtab_intern(&seen, out, NULL) < 0) { gb_strtab_free(&seen); return -1; }
        }
        s->map_slug[mi] = gb_strdup(out);
        if (!s->map_slug[mi]) { gb_strtab_free(&seen); return -1; }
    }
    gb_strtab_free(&seen);
    return 0;
}

/* The group's times and the reference pair ref's times on the queries
 * both ran, into a[] and b[] (the group's order); 0 when ref is -1 or of
 * another time_source. */
static size_t shared_times(const gb_summary *s, const gstat *g, int32_t ref, size_t nq, double *a, double *b)
{
    if (ref < 0 || !same_source(s, g->pair, ref)) return 0;
    size_t m = 0;
    for (size_t k = 0; k < g->n; k++) {
        const srow *r = &s->rows[g->rows[k]];
        double bt = s->qtime[(size_t)ref * nq + (size_t)r->query];
        if (isnan(bt)) continue;
        a[m] = r->time;
        b[m] = bt;
        m++;
    }
    return m;
}

/* median(b) / median(a) of m > 0 values (sorts both), NaN when median(a)
 * is not positive. */
static double median_ratio(double *a, double *b, size_t m)
{
    qsort(a, m, sizeof *a, cmp_dbl);
    qsort(b, m, sizeof *b, cmp_dbl);
    double ta = gb_quantile(a, m, 0.5);
    return ta > 0 ? gb_quantile(b, m, 0.5) / ta : NAN;
}

static int compute(gb_summary *s)
{
    size_t ng = s->groups.n, np = s->pairs.n, nm = s->maps.n, nq = s->queries.n;
    /* rows per group */
    for (size_t i = 0; i < s->nrows; i++) s->g[s->rows[i].group].n++;
    for (size_t gi = 0; gi < ng; gi++) {
        s->g[gi].rows = gb_malloc((s->g[gi].n ? s->g[gi].n : 1) * sizeof *s->g[gi].rows);
        if (!s->g[gi].rows) return -1;
        s->g[gi].n = 0;
    }
    for (size_t i = 0; i < s->nrows; i++) {
        gstat *g = &s->g[s->rows[i].group];
        g->rows[g->n++] = i;
    }
    s->order = gb_malloc(ng * sizeof *s->order);
    s->gidx = gb_malloc(nm * np * sizeof *s->gidx);
    s->qtime = gb_malloc(np * nq * sizeof *s->qtime);
    s->plot_pair = gb_malloc((s->solvers.n ? s->solvers.n : 1) * sizeof *s->plot_pair);
    size_t nalloc = s->nrows ? s->nrows : 1;
    s->scr_a = gb_malloc(nalloc * sizeof *s->scr_a);
    s->scr_b = gb_malloc(nalloc * sizeof *s->scr_b);
    s->scr_t = gb_malloc(nalloc * sizeof *s->scr_t);
    s->scr_use = gb_calloc(s->queues.n ? s->queues.n : 1, 1);
    if (!s->scr_a || !s->scr_b || !s->scr_t || !s->scr_use) return -1;
    if (!s->order || !s->gidx || !s->qtime || !s->plot_pair) return -1;
    for (size_t i = 0; i < nm * np; i++) s->gidx[i] = -1;
    for (size_t i = 0; i < np * nq; i++) s->qtime[i] = NAN;
    for (size_t gi = 0; gi < ng; gi++) {
        s->order[gi] = gi;
        s->gidx[(size_t)s->g[gi].map * np + (size_t)s->g[gi].pair] = (int32_t)gi;
    }
    sort_ctx = s;
    qsort(s->order, ng, sizeof *s->order, cmp_order);
    if (make_slugs(s) != 0) return -1;
    for (size_t i = 0; i < s->nrows; i++) {
        const srow *r = &s->rows[i];
        double *t = &s->qtime[(size_t)s->g[r->group].pair * nq + (size_t)r->query];
        if (isnan(*t)) *t = r->time;   /* a query listed twice: the first row counts */
    }

    /* baseline, reference queue, plotted pair per solver */
    char key[256];
    snprintf(key, sizeof key, "dijkstra\x1f" "bheap");
    s->baseline = gb_strtab_find(&s->pairs, key);
    snprintf(key, sizeof key, "astar-octile\x1f" "bheap");
    s->astar = gb_strtab_find(&s->pairs, key);
    s->ref_queue = gb_strtab_find(&s->queues, "bheap");
    if (s->ref_queue < 0) s->ref_queue = 0;
    for (size_t si = 0; si < s->solvers.n; si++) {
        s->plot_pair[si] = -1;
        for (size_t pi = 0; pi < np; pi++) {
            if ((size_t)s->pair_solver[pi] != si) continue;
            if (s->plot_pair[si] < 0 || s->pair_queue[pi] == s->ref_queue) s->plot_pair[si] = (int32_t)pi;
            if (s->pair_queue[pi] == s->ref_queue) break;
        }
    }

    size_t maxn = 0;
    for (size_t gi = 0; gi < ng; gi++) if (s->g[gi].n > maxn) maxn = s->g[gi].n;
    double *a = gb_malloc((maxn ? maxn : 1) * sizeof *a), *b = gb_malloc((maxn ? maxn : 1) * sizeof *b);
    if (!a || !b) { gb_free(a); gb_free(b); return -1; }
    for (size_t gi = 0; gi < ng; gi++) {
        gstat *g = &s->g[gi];
        size_t n = g->n;
        double sum = 0, esum = 0;
        for (size_t k = 0; k < n; k++) {
            const srow *r = &s->rows[g->rows[k]];
            a[k] = r->time;
            sum += r->time;
            esum += r->expanded;
            g->status[r->status]++;
        }
        gb_ci ci;
        if (gb_boot_stat(a, n, GB_STAT_MEDIAN, &s->boot, &ci) != 0) goto nomem;
        g->t_lo = ci.lo;
        g->t_hi = ci.hi;
        qsort(a, n, sizeof *a, cmp_dbl);
        g->t_med = gb_quantile(a, n, 0.5);
        g->t_p25 = gb_quantile(a, n, 0.25);
        g->t_p75 = gb_quantile(a, n, 0.75);
        g->t_p95 = gb_quantile(a, n, 0.95);
        g->t_mean = sum / (double)n;
        g->exp_mean = esum / (double)n;
        for (size_t k = 0; k < n; k++) a[k] = s->rows[g->rows[k]].cold;
        qsort(a, n, sizeof *a, cmp_dbl);
        g->cold_med = gb_quantile(a, n, 0.5);
        for (size_t k = 0; k < n; k++) a[k] = s->rows[g->rows[k]].expanded;
        qsort(a, n, sizeof *a, cmp_dbl);
        g->exp_med = gb_quantile(a, n, 0.5);

        /* speedup over the baseline on the shared queries, only within one
         * time_source: a round trip or a plugin call is not an in-process
         * time (the time_source column says which it is) */
        g->speedup = g->sp_lo = g->sp_hi = NAN;
        g->speedup_n = 0;
        size_t ns = shared_times(s, g, s->baseline, nq, a, b);
        if (ns) {
            if (gb_boot_ratio(b, a, ns, GB_STAT_MEDIAN, &s->boot, &ci) != 0) goto nomem;
            g->sp_lo = ci.lo;
            g->sp_hi = ci.hi;
            g->speedup = median_ratio(a, b, ns);
            g->speedup_n = ns;
        }
        /* speedup over A* (octile, bheap): the same ratio of medians */
        ns = shared_times(s, g, s->astar, nq, a, b);
        g->sp_astar = ns ? median_ratio(a, b, ns) : NAN;
        g->mem_max = g->prep_max = NAN;
        for (size_t k = 0; k < n; k++) {
            double v = s->rows[g->rows[k]].mem;
            if (!isnan(v) && (isnan(g->mem_max) || v > g->mem_max)) g->mem_max = v;
            v = s->rows[g->rows[k]].prep;
            if (!isnan(v) && (isnan(g->prep_max) || v > g->prep_max)) g->prep_max = v;
        }
        /* cost / the straight line start-goal (any-angle rows: how close to
         * the Euclidean lower bound), over the rows that have one */
        g->lbr_mean = NAN;
        {
            double lsum = 0;
            size_t m = 0;
            for (size_t k = 0; k < n; k++) {
                double v = s->rows[g->rows[k]].lbr;
                if (isnan(v)) continue;
                lsum += v;
                m++;
            }
            if (m) g->lbr_mean = lsum / (double)m;
        }
        /* suboptimality, for solvers that may return longer paths */
        g->sub_mean = g->sub_max = g->opt_share = NAN;
        if (strcmp(g->guarantee, "optimal") != 0) {
            double ssum = 0, smax = -INFINITY;
            size_t m = 0, at = 0, centre = 0;
            for (size_t k = 0; k < n; k++) {
                const srow *r = &s->rows[g->rows[k]];
                double v = r->subopt;
                if (isnan(v)) continue;
                ssum += v;
                if (v > smax) smax = v;
                m++;
                at += v <= 1.0 + 1e-9;
                centre |= r->aa_centre;
            }
            if (m) { g->sub_mean = ssum / (double)m; g->sub_max = smax; }
            /* GPPC's "solved optimally"; a centre-model any-angle cost is
             * judged against the grid optimum only, so it has no share */
            if (m && !centre) g->opt_share = (double)at / (double)m;
        }
    }
    gb_free(a);
    gb_free(b);
    return 0;
nomem:
    gb_free(a);
    gb_free(b);
    return -1;
}


/* A number, or nothing for NaN. */
static void csv_num(FILE *f, int decimals, double v)
{
    if (!isnan(v)) fprintf(f, "%.*f", decimals, v);
}

static void write_summary(FILE *f, const gb_summary *s)
{
    fprintf(f, "%s\n", summary_header);
    for (size_t oi = 0; oi < s->groups.n; oi++) {
        const gstat *g = &s->g[s->order[oi]];
        gb_csv_write_str(f, s->maps.str[g->map]);
        fputc(',', f);
        gb_csv_write_str(f, s->solvers.str[s->pair_solver[g->pair]]);
        fputc(',', f);
        gb_csv_write_str(f, s->queues.str[s->pair_queue[g->pair]]);
        fputc(',', f);
        gb_csv_write_str(f, g->guarantee);
        fprintf(f, ",%zu,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,", g->n, g->t_med, g->t_mean,
                g->t_p25, g->t_p75, g->t_p95, g->t_p75 - g->t_p25, g->cold_med, g->exp_mean, g->exp_med);
        csv_num(f, 4, g->speedup);
        fprintf(f, ",%zu,", g->speedup_n);
        csv_num(f, 6, g->sub_mean);
        fputc(',', f);
        csv_num(f, 6, g->sub_max);
        for (int k = 0; k < GB_ROW_NSTATUS; k++) fprintf(f, ",%llu", (unsigned long long)g->status[k]);
        fputc(',', f);
        csv_num(f, 0, g->mem_max);
        fputc(',', f);
        csv_num(f, 3, g->t_lo);
        fputc(',', f);
        csv_num(f, 3, g->t_hi);
        fputc(',', f);
        csv_num(f, 4, g->sp_lo);
        fputc(',', f);
        csv_num(f, 4, g->sp_hi);
        fputc(',', f);
        csv_num(f, 0, g->prep_max);
        fputc(',', f);
        csv_num(f, 4, g->sp_astar);
        fputc(',', f);
        gb_csv_write_str(f, s->pair_src[g->pair]);
        fputc(',', f);
        /* the mean time per query with the map's preparation spread over
         * the group's queries (mean + prep / n, as the report shows it) */
        /* no preparation is none to spread: the mean itself, so every row compares */
        csv_num(f, 3,
                g->n == 0 ? NAN : g->t_mean + (isnan(g->prep_max) ? 0.0 : g->prep_max / (double)g->n));
        fputc(',', f);
        csv_num(f, 4, g->lbr_mean);
        fputc(',', f);
        gb_csv_write_str(f, g->model >= 0 ? s->models.str[g->model] : g->model == -2 ? "mixed" : "");
        fputc(',', f);
        csv_num(f, 4, g->opt_share);
        fputc('\n', f);
    }
}

int gb_summary_write_csv(const gb_summary *s, const char *path, gb_diag *d)
{
    if (!path) {
        write_summary(stdout, s);
        if (fflush(stdout) != 0 || ferror(stdout))
            return gb_diag_set(d, EX_IOERR, "<stdout>", 0, 0, "expected to write the summary, found %s",
                               strerror(errno));
        return 0;
    }
    char tmp[4200];
    FILE *f = gb_tmp_open(path, tmp, sizeof tmp, d);
    if (!f) return d->code;
    write_summary(f, s);
    return gb_tmp_commit(f, tmp, path, d);
}

/* ---- plot data --------------------------------------------------------- */

/* A gnuplot block title: quoted, without quotes, tabs or newlines inside. */
static void tsv_label(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) fputc(*s == '"' ? '\'' : (*s == '\t' || *s == '\n' || *s == '\r') ? ' ' : *s, f);
    fputc('"', f);
}

/* A plain TSV field: tabs and newlines become blanks. */
static void tsv_str(FILE *f, const char *s)
{
    for (; *s; s++) fputc((*s == '\t' || *s == '\n' || *s == '\r') ? ' ' : *s, f);
}

static void tsv_num(FILE *f, double v)
{
    if (isnan(v)) fputs("NaN", f);
    else fprintf(f, "%.6g", v);
}

static FILE *open_in(const char *dir, const char *name, char *path, size_t pathsz, char *tmp,
                     size_t tmpsz, gb_diag *d)
{
    if ((size_t)snprintf(path, pathsz, "%s/%s", dir, name) >= pathsz) {
        gb_diag_set(d, EX_CANTCREAT, dir, 0, 0, "expected a directory name shorter than %zu bytes, "
                    "found %zu", pathsz - 64, strlen(dir));
        return NULL;
    }
    return gb_tmp_open(path, tmp, tmpsz, d);
}

static int solved(int st)
{
    return st == GB_ROW_OK || st == GB_ROW_UNREACHABLE || st == GB_ROW_SCEN_MISMATCH;
}

static const gb_summary *bucket_ctx;
static int cmp_row_bucket(const void *a, const void *b)
{
    const srow *x = &bucket_ctx->rows[*(const size_t *)a], *y = &bucket_ctx->rows[*(const size_t *)b];
    return (x->bucket > y->bucket) - (x->bucket < y->bucket);
}

static void write_buckets(FILE *f, const gb_summary *s, int32_t mi, double *a, double *b, size_t *tmp)
{
    size_t np = s->pairs.n;
    int blocks = 0;
    for (size_t si = 0; si < s->solvers.n; si++) {
        int32_t pi = s->plot_pair[si];
        int32_t gi = pi < 0 ? -1 : s->gidx[(size_t)mi * np + (size_t)pi];
        if (gi < 0) continue;
        const gstat *g = &s->g[gi];
        memcpy(tmp, g->rows, g->n * sizeof *tmp);
        bucket_ctx = s;
        qsort(tmp, g->n, sizeof *tmp, cmp_row_bucket);
        if (blocks++) fputs("\n\n", f);
        tsv_label(f, s->solvers.str[si]);
        fputs("\tbucket\tn\tlen_mean\ttime_median_us\ttime_p25_us\ttime_p75_us\texpanded_mean\texpanded_median\n", f);
        for (size_t k = 0; k < g->n;) {
            size_t e = k;
            int32_t bk = s->rows[tmp[k]].bucket;
            double lsum = 0, esum = 0;
            size_t ln = 0;
            while (e < g->n && s->rows[tmp[e]].bucket == bk) {
                const srow *r = &s->rows[tmp[e]];
                a[e - k] = r->time / 1e3;
                b[e - k] = r->expanded;
                esum += r->expanded;
                if (!isnan(r->len)) { lsum += r->len; ln++; }
                e++;
            }
            size_t m = e - k;
            qsort(a, m, sizeof *a, cmp_dbl);
            qsort(b, m, sizeof *b, cmp_dbl);
            fprintf(f, "%d\t%zu\t", (int)bk, m);
            tsv_num(f, ln ? lsum / (double)ln : NAN);
            fputc('\t', f);
            tsv_num(f, gb_quantile(a, m, 0.5));
            fputc('\t', f);
            tsv_num(f, gb_quantile(a, m, 0.25));
            fputc('\t', f);
            tsv_num(f, gb_quantile(a, m, 0.75));
            fputc('\t', f);
            tsv_num(f, esum / (double)m);
            fputc('\t', f);
            tsv_num(f, gb_quantile(b, m, 0.5));
            fputc('\n', f);
            k = e;
        }
    }
}

static void write_speedup(FILE *f, const gb_summary *s, double *a)
{
    if (s->baseline < 0) return;
    size_t np = s->pairs.n, nq = s->queries.n, others = 0;
    for (size_t si = 0; si < s->solvers.n; si++)
        others += s->plot_pair[si] >= 0 && s->plot_pair[si] != s->baseline
                  && same_source(s, s->plot_pair[si], s->baseline);
    if (!others) return;   /* only the baseline ran: nothing to compare */
    for (size_t mi = 0; mi < s->maps.n; mi++) {
        if (mi) fputs("\n\n", f);
        tsv_label(f, s->maps.str[mi]);
        fputs("\tsolver\tn\tp5\tp25\tp50\tp75\tp95\n", f);
        int x = 0;
        for (size_t si = 0; si < s->solvers.n; si++) {
            int32_t pi = s->plot_pair[si];
            if (pi < 0 || pi == s->baseline || !same_source(s, pi, s->baseline)) continue;
            int32_t gi = s->gidx[mi * np + (size_t)pi];
            size_t m = 0;
            if (gi >= 0) {
                const gstat *g = &s->g[gi];
                for (size_t k = 0; k < g->n; k++) {
                    const srow *r = &s->rows[g->rows[k]];
                    double bt = s->qtime[(size_t)s->baseline * nq + (size_t)r->query];
                    if (!isnan(bt) && r->time > 0) a[m++] = bt / r->time;
                }
            }
            qsort(a, m, sizeof *a, cmp_dbl);
            fprintf(f, "%d\t", x++);
            tsv_str(f, s->solvers.str[si]);
            fprintf(f, "\t%zu", m);
            static const double ps[] = { 0.05, 0.25, 0.5, 0.75, 0.95 };
            for (int k = 0; k < 5; k++) {
                fputc('\t', f);
                tsv_num(f, gb_quantile(a, m, ps[k]));
            }
            fputc('\n', f);
        }
    }
}

/* Number of pairs solver si ran on. */
static int solver_npairs(const gb_summary *s, size_t si)
{
    int n = 0;
    for (size_t pi = 0; pi < s->pairs.n; pi++) n += (size_t)s->pair_solver[pi] == si;
    return n;
}

static void write_queues(FILE *f, const gb_summary *s, double *a)
{
    size_t np = s->pairs.n, nq = s->queries.n;
    /* columns: the queues used by some solver that ran on several queues */
    char *use = s->scr_use;
    memset(use, 0, s->queues.n);
    int rows = 0;
    for (size_t pi = 0; pi < np; pi++)
        if (solver_npairs(s, (size_t)s->pair_solver[pi]) > 1) use[s->pair_queue[pi]] = 1, rows = 1;
    if (!rows) return;   /* nothing to compare: empty file */
    fputs("solver", f);
    for (size_t qi = 0; qi < s->queues.n; qi++) {
        if (!use[qi]) continue;
        fputc('\t', f);
        tsv_str(f, s->queues.str[qi]);
    }
    fputc('\n', f);
    for (size_t si = 0; si < s->solvers.n; si++) {
        if (solver_npairs(s, si) < 2) continue;
        int32_t ref = s->plot_pair[si];
        tsv_str(f, s->solvers.str[si]);
        for (size_t qi = 0; qi < s->queues.n; qi++) {
            if (!use[qi]) continue;
            char key[512];
            snprintf(key, sizeof key, "%s\x1f%s", s->solvers.str[si], s->queues.str[qi]);
            int32_t pi = gb_strtab_find(&s->pairs, key);
            size_t m = 0;
            if (pi >= 0)
                for (size_t q = 0; q < nq; q++) {
                    double t = s->qtime[(size_t)pi * nq + q], r = s->qtime[(size_t)ref * nq + q];
                    if (!isnan(t) && !isnan(r) && r > 0) a[m++] = t / r;
                }
            qsort(a, m, sizeof *a, cmp_dbl);
            fputc('\t', f);
            tsv_num(f, gb_quantile(a, m, 0.5));
        }
        fputc('\n', f);
    }
}

static void write_cactus(FILE *f, const gb_summary *s, double *a)
{
    int blocks = 0;
    for (size_t si = 0; si < s->solvers.n; si++) {
        int32_t pi = s->plot_pair[si];
        if (pi < 0) continue;
        size_t m = 0;
        for (size_t i = 0; i < s->nrows; i++) {
            const srow *r = &s->rows[i];
            if (s->g[r->group].pair == pi && solved(r->status)) a[m++] = r->time / 1e3;
        }
        qsort(a, m, sizeof *a, cmp_dbl);
        if (blocks++) fputs("\n\n", f);
        tsv_label(f, s->solvers.str[si]);
        fputs("\trank\ttime_us\n", f);
        size_t step = m > 2000 ? (m + 1999) / 2000 : 1;
        for (size_t k = 0; k < m; k++)
            if (k % step == 0 || k + 1 == m) fprintf(f, "%zu\t%.6g\n", k + 1, a[k]);
    }
}

int gb_summary_write_plot_data(const gb_summary *s, const char *dir, gb_diag *d)
{
    char path[4096], tmp[4200], name[300];
    double *a = s->scr_a, *b = s->scr_b;
    size_t *t = s->scr_t;
    int rc = 0;
    FILE *f;

    if (!(f = open_in(dir, "meta.tsv", path, sizeof path, tmp, sizeof tmp, d))) { rc = d->code; goto out; }
    fprintf(f, "ref_queue\t");
    tsv_str(f, s->queues.str[s->ref_queue]);
    fprintf(f, "\nbaseline\t%d\nmaps\t%zu\nsolvers\t%zu\nqueues\t%zu\n", s->baseline >= 0,
            s->maps.n, s->solvers.n, s->queues.n);
    for (size_t i = 0; i < s->solvers.n; i++) {
        fputs("solver\t", f);
        tsv_str(f, s->solvers.str[i]);
        fputc('\n', f);
    }
    for (size_t i = 0; i < s->queues.n; i++) {
        fputs("queue\t", f);
        tsv_str(f, s->queues.str[i]);
        fputc('\n', f);
    }
    if ((rc = gb_tmp_commit(f, tmp, path, d)) != 0) goto out;

    if (!(f = open_in(dir, "maps.tsv", path, sizeof path, tmp, sizeof tmp, d))) { rc = d->code; goto out; }
    fputs("# idx\tmap\tslug\tscen\tqueries\n", f);
    for (size_t mi = 0; mi < s->maps.n; mi++) {
        fprintf(f, "%zu\t", mi);
        tsv_str(f, s->maps.str[mi]);
        fprintf(f, "\t%s\t", s->map_slug[mi]);
        tsv_str(f, s->map_scen[mi]);
        fprintf(f, "\t%zu\n", s->map_queries[mi]);
    }
    if ((rc = gb_tmp_commit(f, tmp, path, d)) != 0) goto out;

    for (size_t mi = 0; mi < s->maps.n; mi++) {
        snprintf(name, sizeof name, "bucket-%s.tsv", s->map_slug[mi]);
        if (!(f = open_in(dir, name, path, sizeof path, tmp, sizeof tmp, d))) { rc = d->code; goto out; }
        write_buckets(f, s, (int32_t)mi, a, b, t);
        if ((rc = gb_tmp_commit(f, tmp, path, d)) != 0) goto out;
    }

    if (!(f = open_in(dir, "speedup.tsv", path, sizeof path, tmp, sizeof tmp, d))) { rc = d->code; goto out; }
    write_speedup(f, s, a);
    if ((rc = gb_tmp_commit(f, tmp, path, d)) != 0) goto out;

    if (!(f = open_in(dir, "queues.tsv", path, sizeof path, tmp, sizeof tmp, d))) { rc = d->code; goto out; }
    write_queues(f, s, a);
    if ((rc = gb_tmp_commit(f, tmp, path, d)) != 0) goto out;

    if (!(f = open_in(dir, "cactus.tsv", path, sizeof path, tmp, sizeof tmp, d))) { rc = d->code; goto out; }
    write_cactus(f, s, a);
    rc = gb_tmp_commit(f, tmp, path, d);
out:
    return rc;
}
