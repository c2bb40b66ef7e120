/*
 * gb_rows.c -- write one row of the run CSV (gb_rows.h holds the contract).
 *
 * The column list and its kinds are two string constants kept in step by
 * a static assertion on their lengths; gb_row_write prints the fields in
 * the header's order, with %.8f for costs and %.6f for ratios, the
 * formats every earlier release wrote.
 */
#include "gb_rows.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "gb_csv.h"
#include "gb_diag.h"
#include "gb_status.h"

static const char header[] =
    "map,scen,line,bucket,start_x,start_y,goal_x,goal_y,model,solver,queue,"
    "guarantee,bound,status,cost,dijkstra_cost,scen_cost,scen_decimals,subopt,"
    "path_len,expanded,generated,scanned,pushes,pops,decreases,stale,peak_open,"
    "time_ns,time_cold_ns,reps,mem_bytes,prep_ns,time_source,solver_time_ns,"
    "cost_model,euclid_lb,lb_ratio,regime,first20_ns,max_call_ns,calls,storage_bytes,"
    "prepare_ns";

static const char kinds[] =
    "..nnnnnn....nsnnnnnnnnnnnnnnnnnnn.n.nn.nnnnn";
_Static_assert(sizeof kinds == GB_ROWS_NCOL + 1, "one kind per column of the header");

const char *gb_rows_header(void) { return header; }
const char *gb_rows_kinds(void) { return kinds; }

int gb_rows_split(const char *s, size_t n, const char *kind, gb_rows_span *f, char *why,
                  size_t wsz)
{
    size_t nk = strlen(kind), col = 0, start = 0;
    int q = 0;
    for (size_t i = 0; i <= n; i++) {
        if (i < n && s[i] == '"') { q = !q; continue; }
        if (i < n && (s[i] != ',' || q)) continue;
        if (col >= nk) { col++; break; }
        const char *p = s + start;
        size_t len = i - start;
        char k = kind[col];
        if (k == 'n' && len) {
            char b[64], *end;
            if (len >= sizeof b) goto bad;
            memcpy(b, p, len);
            b[len] = '\0';
            errno = 0;
            (void)strtod(b, &end);
            if (*end || errno) goto bad;
        } else if (k == 's' && gb_row_status_from_name(p, len) < 0) {
            goto bad;
        }
        if (f) {
            f[col].p = p;
            f[col].n = len;
        }
        col++;
        start = i + 1;
        continue;
    bad:;
        char qv[48];
        gb_diag_quote(qv, sizeof qv, p, len);
        snprintf(why, wsz, "field %zu: expected %s, found %s", col + 1,
                 k == 'n' ? "a number or nothing" : "a row status", qv);
        return -1;
    }
    if (col != nk || q) {
        if (q) snprintf(why, wsz, "expected %zu fields, found a quote left open", nk);
        else snprintf(why, wsz, "expected %zu fields, found %s%zu", nk, col > nk ? "more than " : "",
                      col > nk ? nk : col);
        return -1;
    }
    return 0;
}

long gb_rows_field_text(gb_rows_span f, char *buf, size_t n)
{
    size_t j = 0;
    int quoted = f.n >= 2 && f.p[0] == '"' && f.p[f.n - 1] == '"';
    size_t i0 = quoted ? 1 : 0, i1 = quoted ? f.n - 1 : f.n;
    for (size_t i = i0; i < i1; i++) {
        if (quoted && f.p[i] == '"') i++;   /* "" is one quote */
        if (j + 1 >= n) return -1;
        buf[j++] = f.p[i];
    }
    if (n == 0) return -1;
    buf[j] = '\0';
    return (long)j;
}

int gb_rows_field_is(gb_rows_span f, const char *t, int star)
{
    char b[4096];
    long n = gb_rows_field_text(f, b, sizeof b);
    size_t tl = strlen(t) - (star && *t ? 1 : 0);
    if (n < 0) return 0;
    return star ? (size_t)n >= tl && memcmp(b, t, tl) == 0 : (size_t)n == tl && memcmp(b, t, tl) == 0;
}

long long gb_rows_field_ll(gb_rows_span f, long long def)
{
    char b[32], *end;
    if (f.n == 0 || f.n >= sizeof b) return def;
    memcpy(b, f.p, f.n);
    b[f.n] = '\0';
    errno = 0;
    long long v = strtoll(b, &end, 10);
    return *end || errno ? def : v;
}

void gb_row_write(FILE *out, const gb_row *w)
{
    gb_csv_write_str(out, w->map);
    fputc(',', out);
    gb_csv_write_str(out, w->scen);
    fprintf(out, ",%ld,%d,%d,%d,%d,%d,%s,", w->line, w->bucket, w->sx, w->sy, w->gx, w->gy,
            w->model);
    gb_csv_write_str(out, w->solver);
    fprintf(out, ",%s,%s,%g,%s,", w->queue, w->guarantee, w->bound, w->status);
    if (w->has_cost) fprintf(out, "%.8f", w->cost);
    fputc(',', out);
    if (w->has_opt) fprintf(out, "%.8f", w->opt);
    fprintf(out, ",%.*f,%d,", w->scen_decimals, w->scen_cost, w->scen_decimals);
    if (w->has_path_cost && w->has_li)
        fprintf(out, "%.6f", w->li_opt > 0 ? w->path_cost / w->li_opt : 1.0);
    else if (w->has_path_cost && w->has_aa)
        fprintf(out, "%.6f", w->aa_opt > 0 ? w->path_cost / w->aa_opt : 1.0);
    else if (w->has_path_cost && w->has_opt)
        fprintf(out, "%.6f", w->opt > 0 ? w->path_cost / w->opt : 1.0);
    fprintf(out, ",%d,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%lld,%lld,%d,",
            w->has_cost ? w->path_len : 0,
            (unsigned long long)w->expanded, (unsigned long long)w->generated,
            (unsigned long long)w->scanned, (unsigned long long)w->pushes,
            (unsigned long long)w->pops, (unsigned long long)w->decreases,
            (unsigned long long)w->stale, (unsigned long long)w->peak_open,
            (long long)w->time_ns, (long long)w->time_cold_ns, w->reps);
    if (w->mem_bytes) fprintf(out, "%llu", (unsigned long long)w->mem_bytes);
    fputc(',', out);
    if (w->prep_ns) fprintf(out, "%llu", (unsigned long long)w->prep_ns);
    fprintf(out, ",%s,", w->time_source);
    if (w->solver_time_ns >= 0) fprintf(out, "%lld", (long long)w->solver_time_ns);
    fprintf(out, ",%s,%.8f,", w->cost_model, w->euclid_lb);
    if (w->has_path_cost && w->euclid_lb > 0) fprintf(out, "%.6f", w->path_cost / w->euclid_lb);
    fprintf(out, ",%s,", w->regime ? w->regime : "interleaved");
    if (w->first20_ns >= 0) fprintf(out, "%lld", (long long)w->first20_ns);
    fputc(',', out);
    if (w->max_call_ns >= 0) fprintf(out, "%lld", (long long)w->max_call_ns);
    fputc(',', out);
    if (w->calls > 0) fprintf(out, "%d", w->calls);
    fputc(',', out);
    if (w->storage_bytes) fprintf(out, "%llu", (unsigned long long)w->storage_bytes);
    fputc(',', out);
    if (w->prepare_ns) fprintf(out, "%llu", (unsigned long long)w->prepare_ns);
    fputc('\n', out);
}
