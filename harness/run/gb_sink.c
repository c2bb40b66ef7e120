/*
 * gb_sink.c -- the sink stage: rows into the journal or stdout, in plan
 * order, with the totals, notes and progress (gb_sink.h).
 */
#include "gb_sink.h"

#include "gb_alloc.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

void gb_sink_notes(const gb_run_opts *o, const char *s, size_t n)
{
    while (n > 0) {
        const char *e = memchr(s, '\n', n);
        size_t len = e ? (size_t)(e - s) : n;
        if (len > 1 && o->note) {
            char b[1100];
            size_t m = len - 1 < sizeof b - 1 ? len - 1 : sizeof b - 1;
            memcpy(b, s + 1, m);
            b[m] = '\0';
            int kind = s[0] - '0';
            o->note(o->ctx, kind >= 0 && kind <= GB_NOTE_INFO ? (gb_run_note_kind)kind
                                                             : GB_NOTE_WARNING, b);
        }
        if (!e) break;
        n -= len + 1;
        s = e + 1;
    }
}

void gb_sink_count(gb_run_totals *tot, int pi, int st, uint64_t expanded, int64_t ns,
                   const char *name)
{
    if (st >= GB_ROW_NSTATUS) st = GB_ROW_CRASH;
    if (gb_row_status_failed((gb_row_status)st)) tot->failures++;
    tot->status[st]++;
    tot->rows++;
    gb_run_pairsum *ps = &tot->pair[pi];
    if (name) snprintf(ps->name, sizeof ps->name, "%s", name);
    ps->rows++;
    ps->status[st]++;
    ps->expanded += expanded;
    ps->time_ns += ns;
    if (ps->nns == ps->capns) {   /* out of memory: the median is over the times kept */
        size_t nc = ps->capns ? 2 * ps->capns : 256;
        int64_t *nv = gb_realloc(ps->ns, nc * sizeof *nv);
        if (!nv) return;
        ps->ns = nv;
        ps->capns = nc;
    }
    ps->ns[ps->nns++] = ns;
}

void gb_run_totals_free(gb_run_totals *tot)
{
    for (int pi = 0; pi < GB_RUN_MAX_PAIRS; pi++) {
        gb_free(tot->pair[pi].ns);
        tot->pair[pi].ns = NULL;
        tot->pair[pi].nns = tot->pair[pi].capns = 0;
    }
}

static int cmp_ns(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

size_t gb_run_pair_median(gb_run_totals *tot, int pi, double *med, double *lo, double *hi)
{
    gb_run_pairsum *ps = &tot->pair[pi];
    size_t n = ps->nns;
    *med = *lo = *hi = NAN;
    if (n == 0) return 0;
    qsort(ps->ns, n, sizeof *ps->ns, cmp_ns);
    *med = n % 2 ? (double)ps->ns[n / 2] : 0.5 * ((double)ps->ns[n / 2 - 1] + (double)ps->ns[n / 2]);
    if (n < 6) return n;
    /* ranks j < k with P(X(j) <= median <= X(k)) ~ 0.95: n/2 -+ 1.96 sqrt(n)/2 */
    double h = 0.98 * sqrt((double)n);
    long j = (long)floor((double)n / 2.0 - h), k = (long)ceil((double)n / 2.0 + h);
    if (j < 0) j = 0;
    if (k > (long)n - 1) k = (long)n - 1;
    *lo = (double)ps->ns[j];
    *hi = (double)ps->ns[k];
    return n;
}

void gb_sink_progress(gb_sink *sk, size_t k)
{
    sk->done++;
    sk->work_done += gb_plan_work(sk->pl, k);
    if (!sk->o->progress) return;
    gb_run_progress p = { sk->done, sk->total, sk->work_done, sk->work,
                          sk->pl->scen[sk->pl->item[k].scen].path,
                          (double)(gb_now_ns() - sk->t0) * 1e-9 };
    sk->o->progress(sk->o->ctx, &p);
}

int gb_sink_keep(gb_sink *sk, size_t i, gb_diag *d)
{
    if (i <= sk->keep_next) return 0;
    size_t a = sk->keep_at[sk->keep_next], n = sk->keep_at[i] - a;
    sk->keep_next = i;
    if (fwrite(sk->keep + a, 1, n, sk->out) != n)
        return gb_diag_set(d, EX_IOERR, sk->o->out, 0, 0, "expected to write the rows, found '%s'",
                           strerror(errno));
    return 0;
}

int gb_sink_query(gb_sink *sk, size_t k, long qn, const gb_qres *r, gb_diag *d)
{
    const gb_run_opts *o = sk->o;
    if (sk->keep) {   /* --retry: the kept rows before it, then its new ones */
        size_t i = o->shard_n > 1 ? (k - (size_t)o->shard_i) / (size_t)o->shard_n : k;
        int rc = gb_sink_keep(sk, i, d);
        if (rc) return rc;
        sk->keep_next = i + 1;
    }
    if ((!o->out || sk->keep) && r->rows_len && fwrite(r->rows, 1, r->rows_len, sk->out) != r->rows_len)
        return gb_diag_set(d, EX_IOERR, o->out ? o->out : "<stdout>", 0, 0, "expected to write the "
                           "rows, found '%s'", strerror(errno));
    if (sk->paths && r->paths_len && fwrite(r->paths, 1, r->paths_len, sk->paths) != r->paths_len)
        return gb_diag_set(d, EX_IOERR, sk->paths_tmp, 0, 0, "expected to write the paths, found '%s'",
                           strerror(errno));
    gb_sink_notes(o, r->notes, r->notes_len);
    gb_run_totals *tot = sk->tot;
    tot->queries++;
    if (!r->scen_ok) tot->scen_mismatch++;
    if (r->oracle_hit & GB_QRES_HIT_GRID) tot->oracle_hits++;
    if (r->oracle_hit & GB_QRES_HIT_AA) tot->aa_hits++;
    for (int pi = 0; pi < o->npairs; pi++)
        gb_sink_count(tot, pi, r->st[pi], r->exp[pi], r->ns[pi], r->name[pi][0] ? r->name[pi] : NULL);
    if (o->out && !sk->keep) {
        int rc = gb_journal_commit(&sk->jr, qn, gb_plan_query(sk->pl, k)->line, r->scen_ok, r->st,
                                   r->exp, r->ns, r->rows, r->rows_len, d);
        if (rc) return rc;
        if (sk->stop_after > 0 && tot->queries == (uint64_t)sk->stop_after) raise(SIGSTOP);
    }
    gb_sink_progress(sk, k);
    return 0;
}
