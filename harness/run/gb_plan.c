/*
 * gb_plan.c -- building a run's plan (see gb_plan.h): load every scenario,
 * resolve and hash its map, select its queries, fingerprint the lot.
 *
 * A map shared by consecutive scenarios (the usual layout) is hashed once.
 * Time: O(total bytes of the scenario and map files) to hash, plus
 * O(queries) for the items.
 */
#include "gb_plan.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gb_alloc.h"
#include "gb_run_opts.h"
#include "gb_sha256.h"
#include "gb_shard.h"

void gb_plan_free(gb_plan *p)
{
    for (int i = 0; p->scen && i < p->nscen; i++) gb_scen_free(&p->scen[i].sc);
    gb_free(p->scen);
    gb_free(p->item);
    memset(p, 0, sizeof *p);
}

const gb_query *gb_plan_query(const gb_plan *p, size_t k)
{
    return &p->scen[p->item[k].scen].sc.q[p->item[k].qi];
}

void gb_plan_keys(const gb_plan *p, size_t k0, size_t step, uint8_t out[32])
{
    gb_sha256_ctx c;
    gb_sha256_init(&c);
    for (size_t k = k0; k < p->n; k += step) {
        const char *scen = p->scen[p->item[k].scen].path;
        gb_shard_key(&c, scen, strlen(scen), gb_plan_query(p, k)->line);
    }
    gb_sha256_final(&c, out);
}

double gb_plan_work(const gb_plan *p, size_t k)
{
    const gb_query *q = gb_plan_query(p, k);
    double len = q->length > 0 ? q->length : 0, disc = len * len;
    if (q->map_w <= 0 || q->map_h <= 0) return 64.0 + disc;   /* no size printed: no cap */
    double cells = (double)q->map_w * (double)q->map_h;
    return 64.0 + cells / 4 + (disc < cells ? disc : cells);
}

int gb_plan_parse_shard(const char *s, long *i, long *n)
{
    char *end;
    long a = strtol(s, &end, 10);
    if (end == s || *end != '/' || a < 0) return -1;
    const char *t = end + 1;
    long b = strtol(t, &end, 10);
    if (end == t || *end || b < 1 || b > GB_SHARD_MAX_N || a >= b) return -1;
    *i = a;
    *n = b;
    return 0;
}

/* The selected query range of a scenario of nq queries. */
static void selection(const gb_run_opts *o, size_t nq, size_t *q0, size_t *q1, size_t *step)
{
    *q0 = (size_t)(o->first > 0 ? o->first : 0);
    *q1 = nq;
    if (o->count > 0 && *q0 + (size_t)o->count < *q1) *q1 = *q0 + (size_t)o->count;
    *step = 1;
    if (o->sample > 0 && *q1 > *q0 && (*q1 - *q0) > (size_t)o->sample)
        *step = (*q1 - *q0) / (size_t)o->sample;
}

static void fp_line(gb_sha256_ctx *c, const char *fmt, ...) GB_PRINTF_LIKE(2, 3);
static void fp_line(gb_sha256_ctx *c, const char *fmt, ...)
{
    char b[2600];
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(b, sizeof b, fmt, ap);
    va_end(ap);
    if (k < 0) return;
    gb_sha256_update(c, b, (size_t)k < sizeof b ? (size_t)k : sizeof b - 1);
}

int gb_plan_build(gb_plan *p, const gb_run_opts *o, char *const *scens, int nscen, gb_diag *d)
{
    memset(p, 0, sizeof *p);
    p->scen = gb_calloc(nscen > 0 ? (size_t)nscen : 1, sizeof *p->scen);
    if (!p->scen) return gb_diag_set(d, EX_OSERR, "", 0, 0, "expected memory, found none");
    p->nscen = nscen;
    size_t n = 0;
    int rc = 0;
    for (int i = 0; i < nscen; i++) {
        gb_plan_scen *ps = &p->scen[i];
        ps->path = scens[i];
        if ((rc = gb_scen_load(scens[i], &ps->sc, d)) != 0) goto fail;
        if (o->map_override) snprintf(ps->map, sizeof ps->map, "%s", o->map_override);
        else if ((rc = gb_scen_resolve_map(&ps->sc, ps->map, sizeof ps->map, d)) != 0) goto fail;
        if ((rc = gb_sha256_file(scens[i], ps->scen_sha, d)) != 0) goto fail;
        if (i > 0 && strcmp(p->scen[i - 1].map, ps->map) == 0)
            memcpy(ps->map_sha, p->scen[i - 1].map_sha, sizeof ps->map_sha);
        else if ((rc = gb_sha256_file(ps->map, ps->map_sha, d)) != 0) goto fail;
        size_t q0, q1, step;
        selection(o, ps->sc.n, &q0, &q1, &step);
        n += q1 > q0 ? (q1 - q0 + step - 1) / step : 0;
    }
    p->item = gb_malloc((n ? n : 1) * sizeof *p->item);
    if (!p->item) { rc = gb_diag_set(d, EX_OSERR, "", 0, 0, "expected memory, found none"); goto fail; }
    for (int i = 0; i < nscen; i++) {
        size_t q0, q1, step;
        selection(o, p->scen[i].sc.n, &q0, &q1, &step);
        for (size_t qi = q0; qi < q1; qi += step) {
            p->item[p->n].scen = i;
            p->item[p->n].qi = (uint32_t)qi;
            p->work += gb_plan_work(p, p->n);
            p->n++;
        }
    }

    /* the fingerprint: everything that decides the rows, contents included */
    gb_sha256_ctx c;
    gb_sha256_init(&c);
    fp_line(&c, "gridbench plan v2 model=%s reps=%d first=%ld count=%ld sample=%ld ext_ms=%d "
            "max_mem=%llu\n", gb_model_name(o->model), o->reps, o->first, o->count, o->sample,
            o->ext_ms, (unsigned long long)o->max_mem);
    if (o->terrain.on) fp_line(&c, "%s\n", o->terrain.name);   /* absent: uniform, as before */
    for (int i = 0; i < o->npairs; i++) {
        const gb_pair *pr = &o->pairs[i];
        fp_line(&c, "pair %s queue=%d max_expanded=%llu max_ns=%llu user=%d ext=%s\n",
                pr->spec.name, pr->queue, (unsigned long long)pr->spec.max_expanded,
                (unsigned long long)pr->spec.max_ns, pr->user != NULL,
                pr->ext_cmd ? pr->ext_cmd : "");
    }
    for (int i = 0; i < nscen; i++)
        fp_line(&c, "scen %s sha256=%s map %s sha256=%s\n", p->scen[i].path, p->scen[i].scen_sha,
                p->scen[i].map, p->scen[i].map_sha);
    uint8_t dig[GB_SHA256_BYTES];
    char hex[65];
    gb_sha256_final(&c, dig);
    gb_sha256_hex(dig, hex);
    snprintf(p->fingerprint, sizeof p->fingerprint,
             "%d scenario files, %zu queries, %d solver x queue pairs, model %s%s, %d reps, sha256 %.32s",
             nscen, p->n, o->npairs, gb_model_name(o->model), o->terrain.on ? "+terrain" : "",
             o->reps, hex);
    return 0;
fail:
    gb_plan_free(p);
    return rc;
}
