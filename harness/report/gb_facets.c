/*
 * gb_facets.c -- the plot data of the faceted and derived plots, written
 * beside what gb_summary_write_plot_data wrote (definitions in
 * gb_facets.h).  It was scripts/plot-data.pl and scripts/tradeoff-data.awk;
 * the files are byte for byte what they wrote.
 *
 * Data structures
 *   fgroup[]  the summary's groups in its CSV's order (names, median and
 *             interval); the solvers' and queues' first appearance in that
 *             order decides every order below;
 *   maps[]    maps.tsv's rows (name, slug), in its order;
 *   strtabs   queues (first appearance), solvers (first appearance, with
 *             the guarantee of the first group), and for the trade-off the
 *             queries (scen, line) with Dijkstra's time on bheap.
 * Files are written through a temporary file and a rename, each whole or
 * not at all.
 */
#include "gb_facets.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gb_alloc.h"
#include "gb_csv.h"
#include "gb_strtab.h"

#define PANEL_MAX 5 /* + the dijkstra reference = 6 lines at most */

typedef struct fgroup {
    char map[512]; /* tabs and newlines as blanks, as maps.tsv has it */
    gb_summary_group g;
} fgroup;

typedef struct fmap {
    char name[512], slug[512];
} fmap;

typedef struct facets {
    const char *dir;
    gb_diag *d;
    fgroup *grp;
    size_t ngrp;
    fmap *maps;
    size_t nmaps;
    gb_strtab queues, solvers;
    const char **guar; /* per solver: the guarantee of its first group */
    const char *refq;
} facets;

static int oom(facets *f)
{
    return gb_diag_set(f->d, EX_OSERR, f->dir, 0, 0, "expected memory for the plot data, found none");
}

static FILE *open_out(facets *f, const char *name, char *path, size_t pn, char *tmp, size_t tn)
{
    snprintf(path, pn, "%s/%s", f->dir, name);
    return gb_tmp_open(path, tmp, tn, f->d);
}

static void flat(char *dst, size_t n, const char *s)
{
    size_t k = 0;
    for (; *s && k + 1 < n; s++) dst[k++] = *s == '\t' || *s == '\n' || *s == '\r' ? ' ' : *s;
    dst[k] = '\0';
}

/* ---- inputs ----------------------------------------------------------- */

/* A time as summary.csv prints it (%.3f): these files are derived from
 * the figures the CSV shows, to the digit. */
static double as_printed(double v)
{
    if (isnan(v)) return v;
    char b[64];
    snprintf(b, sizeof b, "%.3f", v);
    return strtod(b, NULL);
}

static int load_groups(facets *f, const gb_summary *s)
{
    f->ngrp = gb_summary_ngroups(s);
    f->grp = gb_calloc(f->ngrp + 1, sizeof *f->grp);
    if (!f->grp) return oom(f);
    for (size_t i = 0; i < f->ngrp; i++) {
        fgroup *g = &f->grp[i];
        gb_summary_group_at(s, i, &g->g);
        g->g.med = as_printed(g->g.med);
        g->g.med_lo = as_printed(g->g.med_lo);
        g->g.med_hi = as_printed(g->g.med_hi);
        flat(g->map, sizeof g->map, g->g.map);
        int added;
        if (gb_strtab_intern(&f->queues, g->g.queue, NULL) < 0) return oom(f);
        int32_t si = gb_strtab_intern(&f->solvers, g->g.solver, &added);
        if (si < 0) return oom(f);
        if (added) {
            const char **ng = gb_realloc(f->guar, (size_t)(si + 1) * sizeof *ng);
            if (!ng) return oom(f);
            f->guar = ng;
            ng[si] = g->g.guarantee;
        }
    }
    f->refq = gb_strtab_find(&f->queues, "bheap") >= 0 ? "bheap"
              : f->queues.n                            ? f->queues.str[0]
                                                       : "bheap";
    return 0;
}

/* The maps of maps.tsv ('#' lines and empty ones skipped). */
static int load_maps(facets *f)
{
    char path[4200], line[2048];
    snprintf(path, sizeof path, "%s/maps.tsv", f->dir);
    FILE *in = fopen(path, "r");
    if (!in)
        return gb_diag_set(f->d, EX_NOINPUT, path, 0, 0,
                           "expected the maps of the plot data, found none");
    while (fgets(line, sizeof line, in)) {
        line[strcspn(line, "\n")] = '\0';
        if (line[0] == '#' || !line[0]) continue;
        char *name = strchr(line, '\t'), *slug = name ? strchr(name + 1, '\t') : NULL;
        if (!slug) continue;
        *slug++ = '\0';
        slug[strcspn(slug, "\t")] = '\0';
        fmap *nm = gb_realloc(f->maps, (f->nmaps + 1) * sizeof *nm);
        if (!nm) {
            fclose(in);
            return oom(f);
        }
        f->maps = nm;
        snprintf(nm[f->nmaps].name, sizeof nm[0].name, "%s", name + 1);
        snprintf(nm[f->nmaps].slug, sizeof nm[0].slug, "%s", slug);
        f->nmaps++;
    }
    fclose(in);
    return 0;
}

/* ---- panels ------------------------------------------------------------- */

/* A solver's family: 1 Dijkstra, A* and bidirectional; 2 bounded and
 * greedy; 3 jump points and subgoal graphs (their expansions are not
 * cells); 4 any other. */
static int family(const char *s)
{
    if (!strncmp(s, "jps", 3) || !strncmp(s, "sg", 2)) return 3;
    if (!strncmp(s, "wastar-", 7) || !strncmp(s, "gbfs-", 5) || !strcmp(s, "bfs")) return 2;
    if (!strncmp(s, "astar-", 6) || !strncmp(s, "biastar-", 8) || !strcmp(s, "bidijkstra")) return 1;
    return 4;
}

static const char *const fam_title[] = { "", "Dijkstra, A* and bidirectional",
                                         "bounded and greedy (not optimal)",
                                         "jump points and subgoal graphs", "other solvers" };

/* panels-X.gp from the blocks of data file `blocks` (each titled
 * "SOLVER"): np, ref (dijkstra's block), and per panel pI, tI, fI. */
static int write_panels(facets *f, const char *blocks, const char *outname)
{
    char path[4200], tmp[4300], line[4096];
    snprintf(path, sizeof path, "%s/%s", f->dir, blocks);
    FILE *in = fopen(path, "r");
    if (!in) return gb_diag_set(f->d, EX_NOINPUT, path, 0, 0, "expected a plot data file, found none");
    int *by[5] = { 0 }, nby[5] = { 0 }, idx = 0, ref = -1, rc = 0;
    while (fgets(line, sizeof line, in)) {
        char *q;
        if (line[0] != '"' || !(q = strchr(line + 1, '"')) || q[1] != '\t') continue;
        *q = '\0';
        if (!strcmp(line + 1, "dijkstra")) {
            ref = idx++;
            continue;
        }
        const int fa = family(line + 1);
        int *nb = gb_realloc(by[fa], (size_t)(nby[fa] + 1) * sizeof *nb);
        if (!nb) {
            rc = oom(f);
            break;
        }
        by[fa] = nb;
        nb[nby[fa]++] = idx++;
    }
    fclose(in);
    FILE *o = rc ? NULL : open_out(f, outname, path, sizeof path, tmp, sizeof tmp);
    if (!rc && !o) rc = f->d->code;
    if (!rc) {
        char *body = NULL;
        size_t blen = 0;
        FILE *b = open_memstream(&body, &blen);
        int np = 0;
        for (int fa = 1; b && fa <= 4; fa++) {
            if (!nby[fa]) continue;
            const int chunks = (nby[fa] + PANEL_MAX - 1) / PANEL_MAX,
                      per = (nby[fa] + chunks - 1) / chunks;
            for (int c = 0; c < chunks; c++) {
                if (c * per >= nby[fa]) continue;
                fprintf(b, "p%d = '", ++np);
                for (int k = c * per; k < (c + 1) * per && k < nby[fa]; k++)
                    fprintf(b, "%s%d", k > c * per ? " " : "", by[fa][k]);
                fprintf(b, "'; t%d = '%s", np, fam_title[fa]);
                if (chunks > 1) fprintf(b, " (%d of %d)", c + 1, chunks);
                fprintf(b, "'; f%d = %d\n", np, fa == 3);
            }
        }
        if (b && !np && ref >= 0) { /* only dijkstra ran: one panel with it */
            fprintf(b, "p1 = '%d'; t1 = '%s'; f1 = 0\n", ref, fam_title[1]);
            np = 1;
            ref = -1;
        }
        if (!b || fclose(b) != 0) {
            gb_tmp_abort(o, tmp);
            rc = oom(f);
        } else {
            fprintf(o, "np = %d\nref = %d\n", np, ref);
            fwrite(body, 1, blen, o);
            rc = gb_tmp_commit(o, tmp, path, f->d);
        }
        free(body);
    }
    for (int fa = 0; fa < 5; fa++) gb_free(by[fa]);
    return rc;
}

/* ---- the speedup plot's guarantee classes and titles ------------------------ */

static int write_speedup(facets *f)
{
    char path[4200], tmp[4300], line[4096];
    snprintf(path, sizeof path, "%s/speedup.tsv", f->dir);
    struct stat st;
    if (stat(path, &st) != 0 || st.st_size == 0) return 0;
    FILE *in = fopen(path, "r");
    if (!in) return gb_diag_set(f->d, EX_NOINPUT, path, 0, 0, "expected the speedup data, found none");
    FILE *o = open_out(f, "speedup-g.tsv", path, sizeof path, tmp, sizeof tmp);
    if (!o) {
        fclose(in);
        return f->d->code;
    }
    while (fgets(line, sizeof line, in)) {
        line[strcspn(line, "\n")] = '\0';
        if (line[0] == '"') {
            fprintf(o, "%s\tgclass\n", line);
            continue;
        }
        if (!line[0]) {
            fputc('\n', o);
            continue;
        }
        char solver[512] = "";
        const char *t = strchr(line, '\t');
        if (t) snprintf(solver, sizeof solver, "%.*s", (int)strcspn(t + 1, "\t"), t + 1);
        int32_t si = gb_strtab_find(&f->solvers, solver);
        const char *g = si >= 0 ? f->guar[si] : "";
        fprintf(o, "%s\t%d\n", line,
                !strcmp(g, "optimal")   ? 1
                : !strcmp(g, "bounded") ? 2
                : !strcmp(g, "none")    ? 3
                                        : 0);
    }
    fclose(in);
    int rc = gb_tmp_commit(o, tmp, path, f->d);
    if (rc || !(o = open_out(f, "speedup-maps.gp", path, sizeof path, tmp, sizeof tmp)))
        return rc ? rc : f->d->code;
    for (size_t i = 0; i < f->nmaps; i++) { /* gnuplot strings: ' doubled */
        fprintf(o, "m%zu = '", i);
        for (const char *c = f->maps[i].name; *c; c++) fputs(*c == '\'' ? "''" : (char[2]){ *c, 0 }, o);
        fputs("'\n", o);
    }
    return gb_tmp_commit(o, tmp, path, f->d);
}

/* ---- queues per map, with intervals ----------------------------------------- */

static const fgroup *group_of(const facets *f, const char *map, const char *solver, const char *queue)
{
    for (size_t i = 0; i < f->ngrp; i++)
        if (!strcmp(f->grp[i].map, map) && !strcmp(f->grp[i].g.solver, solver)
            && !strcmp(f->grp[i].g.queue, queue))
            return &f->grp[i];
    return NULL;
}

/* The queues solver ran on, on map: their count, and the first one. */
static int queues_of(const facets *f, const char *map, const char *solver, const char **first)
{
    int n = 0;
    for (size_t i = 0; i < f->ngrp; i++)
        if (!strcmp(f->grp[i].map, map) && !strcmp(f->grp[i].g.solver, solver)) {
            if (!n) *first = f->grp[i].g.queue;
            n++;
        }
    return n;
}

static void ratio(FILE *o, double v, double base)
{
    if (isnan(v)) fputs("\tNaN", o);
    else fprintf(o, "\t%.6g", v / base);
}

static int write_queues(facets *f, const fmap *m)
{
    char name[600], path[4200], tmp[4300];
    snprintf(name, sizeof name, "queues-%s.tsv", m->slug);
    FILE *o = open_out(f, name, path, sizeof path, tmp, sizeof tmp);
    if (!o) return f->d->code;
    const size_t ns = f->solvers.n, nq = f->queues.n;
    char *multi = gb_calloc(ns + 1, 1), *used = gb_calloc(nq + 1, 1);
    if (!multi || !used) {
        gb_free(multi);
        gb_free(used);
        gb_tmp_abort(o, tmp);
        return oom(f);
    }
    int any = 0;
    const char *first;
    for (size_t s = 0; s < ns; s++) { /* the solvers on two or more queues here, the queues they used */
        if (queues_of(f, m->name, f->solvers.str[s], &first) < 2) continue;
        multi[s] = 1;
        any = 1;
        for (size_t q = 0; q < nq; q++)
            used[q] |= group_of(f, m->name, f->solvers.str[s], f->queues.str[q]) != NULL;
    }
    if (any) {
        fputs("solver", o);
        for (size_t q = 0; q < nq; q++)
            if (used[q])
                fprintf(o, "\t%s\t%s_lo\t%s_hi", f->queues.str[q], f->queues.str[q], f->queues.str[q]);
        fputc('\n', o);
    }
    for (size_t s = 0; any && s < ns; s++) {
        if (!multi[s]) continue;
        const char *sv = f->solvers.str[s];
        queues_of(f, m->name, sv, &first);
        const fgroup *rg = group_of(f, m->name, sv, f->refq);
        const double base = (rg ? rg : group_of(f, m->name, sv, first))->g.med;
        fputs(sv, o);
        for (size_t q = 0; q < nq; q++) {
            if (!used[q]) continue;
            const fgroup *g = group_of(f, m->name, sv, f->queues.str[q]);
            if (!g || isnan(base) || base <= 0) {
                fputs("\tNaN\tNaN\tNaN", o);
                continue;
            }
            ratio(o, g->g.med, base);
            ratio(o, g->g.med_lo, base);
            ratio(o, g->g.med_hi, base);
        }
        fputc('\n', o);
    }
    gb_free(multi);
    gb_free(used);
    return gb_tmp_commit(o, tmp, path, f->d);
}

/* ---- the trade-off of the solvers that are not optimal ----------------------- */

/* A number as awk prints it: an integral value as an integer, else %.6g. */
static void awk_num(FILE *o, double v)
{
    if (v == floor(v) && fabs(v) < 1e16) fprintf(o, "%.0f", v);
    else fprintf(o, "%.6g", v);
}

/* td[0..need) allocated, new entries NaN (no dijkstra time yet). */
static int grow_td(double **td, size_t *cap, size_t need)
{
    if (need <= *cap) return 0;
    size_t nc = *cap ? *cap : 256;
    while (nc < need) nc *= 2;
    double *n = gb_realloc(*td, nc * sizeof *n);
    if (!n) return -1;
    for (size_t i = *cap; i < nc; i++) n[i] = NAN;
    *td = n;
    *cap = nc;
    return 0;
}

typedef struct trow {
    char *map, *solver, *subopt;
    int32_t key;
    double t;
} trow;

/* tradeoff.tsv: per query of every solver without the optimality
 * guarantee (on the reference queue, or the queue of a family that has no
 * choice), its map, solver, subopt and speedup over dijkstra on bheap on
 * the same query; `ok` rows only, queries without a dijkstra/bheap row
 * left out.  Empty file when there is none. */
static int write_tradeoff(facets *f, const char *queries)
{
    gb_csv c;
    int rc = gb_csv_open(&c, queries, f->d);
    if (rc) return rc;
    static const char *const need[] = { "status",    "scen",   "line",    "solver", "queue",
                                        "guarantee", "subopt", "time_ns", "map" };
    int ix[9];
    if ((rc = gb_csv_require(&c, need, 9, ix, f->d)) != 0) {
        gb_csv_close(&c);
        return rc;
    }
    gb_strtab keys;
    memset(&keys, 0, sizeof keys);
    double *td = NULL;
    size_t captd = 0;
    trow *r = NULL;
    size_t nr = 0, capr = 0;
    char key[1024], flt[3][512];
    while ((rc = gb_csv_next(&c, f->d)) == 0) {
        if (strcmp(gb_csv_field(&c, ix[0]), "ok") != 0) continue;
        snprintf(key, sizeof key, "%s\x1f%s", gb_csv_field(&c, ix[1]), gb_csv_field(&c, ix[2]));
        const char *s = gb_csv_field(&c, ix[3]), *q = gb_csv_field(&c, ix[4]),
                   *sub = gb_csv_field(&c, ix[6]);
        const int dij = !strcmp(s, "dijkstra") && !strcmp(q, "bheap");
        if (!dij && (!strcmp(gb_csv_field(&c, ix[5]), "optimal") || !*sub)) continue;
        if (!dij && strcmp(q, f->refq) && strcmp(q, "own-heap") && strcmp(q, "fifo")
            && strcmp(q, "none"))
            continue;
        int32_t k = gb_strtab_intern(&keys, key, NULL);
        if (k < 0) {
            rc = oom(f);
            break;
        }
        const double t = strtod(gb_csv_field(&c, ix[7]), NULL);
        if (dij) {
            if (grow_td(&td, &captd, (size_t)k + 1) != 0) {
                rc = oom(f);
                break;
            }
            td[k] = t;
            continue;
        }
        if (nr == capr) {
            size_t ncap = capr ? 2 * capr : 256;
            trow *nrw = gb_realloc(r, ncap * sizeof *nrw);
            if (!nrw) {
                rc = oom(f);
                break;
            }
            r = nrw;
            capr = ncap;
        }
        flat(flt[0], sizeof flt[0], gb_csv_field(&c, ix[8]));
        flat(flt[1], sizeof flt[1], s);
        flat(flt[2], sizeof flt[2], sub);
        r[nr] = (trow){ gb_strdup(flt[0]), gb_strdup(flt[1]), gb_strdup(flt[2]), k, t };
        if (!r[nr].map || !r[nr].solver || !r[nr].subopt) {
            nr++;
            rc = oom(f);
            break;
        }
        nr++;
    }
    gb_csv_close(&c);
    if (rc == GB_CSV_EOF) rc = 0;
    char path[4200], tmp[4300];
    FILE *o = rc ? NULL : open_out(f, "tradeoff.tsv", path, sizeof path, tmp, sizeof tmp);
    if (!rc && !o) rc = f->d->code;
    for (size_t i = 0; o && i < nr; i++) {
        const double base = (size_t)r[i].key < captd ? td[r[i].key] : NAN;
        if (isnan(base) || !(r[i].t > 0)) continue;
        fprintf(o, "%s\t%s\t%s\t", r[i].map, r[i].solver, r[i].subopt);
        awk_num(o, base / r[i].t);
        fputc('\n', o);
    }
    if (o) rc = gb_tmp_commit(o, tmp, path, f->d);
    for (size_t i = 0; i < nr; i++) {
        gb_free(r[i].map);
        gb_free(r[i].solver);
        gb_free(r[i].subopt);
    }
    gb_free(r);
    gb_free(td);
    gb_strtab_free(&keys);
    return rc;
}

/* ---- the whole ----------------------------------------------------------------- */

int gb_facets_write(const gb_summary *s, const char *queries, const char *dir, gb_diag *d)
{
    facets f;
    memset(&f, 0, sizeof f);
    f.dir = dir;
    f.d = d;
    int rc = load_groups(&f, s);
    if (!rc) rc = load_maps(&f);
    for (size_t i = 0; !rc && i < f.nmaps; i++) {
        char b[600], p[600];
        snprintf(b, sizeof b, "bucket-%s.tsv", f.maps[i].slug);
        snprintf(p, sizeof p, "panels-%s.gp", f.maps[i].slug);
        rc = write_panels(&f, b, p);
    }
    char cactus[4200];
    snprintf(cactus, sizeof cactus, "%s/cactus.tsv", dir);
    struct stat st;
    if (!rc && stat(cactus, &st) == 0) rc = write_panels(&f, "cactus.tsv", "panels-cactus.gp");
    if (!rc) rc = write_speedup(&f);
    for (size_t i = 0; !rc && i < f.nmaps; i++) rc = write_queues(&f, &f.maps[i]);
    if (!rc && queries) rc = write_tradeoff(&f, queries);
    gb_free(f.grp);
    gb_free(f.maps);
    gb_free(f.guar);
    gb_strtab_free(&f.queues);
    gb_strtab_free(&f.solvers);
    return rc;
}
