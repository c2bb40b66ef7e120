/*
 * gb_run.c -- the runner: plan -> execute -> sink (gb_run.h says what a
 * row means).  This file only strings the stages together:
 *
 *   plan     gb_plan.c: the queries, in order, and the run's fingerprint;
 *   execute  gb_exec.c: oracle -> for each pair: backend.solve -> judge ->
 *            row, in this process or in the worker pool (gb_pool.c);
 *   sink     gb_sink.c: rows into the journal (or stdout) in plan order.
 *
 * --resume replays the queries the journal holds into the totals without
 * running anything; with a shard and an output file, OUT.shard describes
 * the shard for `gridbench merge`.
 */
#include "gb_run.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "gb_alloc.h"
#include "gb_rows.h"
#include "gb_sha256.h"
#include "gb_shard.h"
#include "gb_sink.h"

const char *gb_run_csv_header(void) { return gb_rows_header(); }

/* ---- the shard manifest ------------------------------------------------ */

/* OUT.shard for `merge` (gb_shard.h), once OUT is written: what the
 * rows must be, and their digests. */
static int write_shard_manifest(const gb_run_opts *o, const gb_plan *pl, size_t nq, gb_diag *d)
{
    char path[1100];
    snprintf(path, sizeof path, "%s.shard", o->out);
    gb_shard_manifest m;
    memset(&m, 0, sizeof m);
    snprintf(m.plan, sizeof m.plan, "%s", pl->fingerprint);
    m.i = o->shard_i;
    m.n = o->shard_n;
    m.plan_queries = pl->n;
    m.queries = nq;
    m.npairs = o->npairs;
    m.rows = nq * (uint64_t)o->npairs;
    m.queue = gb_calloc((size_t)o->npairs, sizeof *m.queue);
    m.solver = gb_calloc((size_t)o->npairs, sizeof *m.solver);
    if (!m.queue || !m.solver) {
        gb_shard_free(&m);
        return gb_diag_set(d, EX_OSERR, "", 0, 0, "expected memory, found none");
    }
    for (int p = 0; p < o->npairs; p++) {
        snprintf(m.queue[p], sizeof m.queue[p], "%s", gb_pair_queue_name(&o->pairs[p]));
        snprintf(m.solver[p], sizeof m.solver[p], "%s", gb_pair_solver_name(&o->pairs[p]));
    }
    uint8_t dg[GB_SHA256_BYTES];
    gb_plan_keys(pl, (size_t)o->shard_i, (size_t)o->shard_n, dg);
    gb_sha256_hex(dg, m.keys_sha);
    gb_plan_keys(pl, 0, 1, dg);
    gb_sha256_hex(dg, m.plan_keys_sha);
    int rc = gb_sha256_file(o->out, m.csv_sha, d);
    if (!rc) rc = gb_shard_write(path, &m, d);
    gb_shard_free(&m);
    return rc;
}

/* ---- resume ------------------------------------------------------------ */

/* Are the journal's rows of its qn-th query (plan index k) the rows this
 * run would write: its query (scen, line), the pairs in order, and the
 * statuses of its "#=" line?  0, or EX_DATAERR naming the journal line. */
static int check_journal_query(const gb_run_opts *o, const gb_plan *pl, size_t k, long qn,
                               const gb_journal_query *jq, const char *path, gb_diag *d)
{
    const char *scen = pl->scen[pl->item[k].scen].path;
    long line = gb_plan_query(pl, k)->line;
    const char *r = jq->rows, *end = jq->rows + jq->rows_len;
    for (int p = 0; p < o->npairs; p++) {
        const char *nl = memchr(r, '\n', (size_t)(end - r));
        size_t n = nl ? (size_t)(nl - r) : (size_t)(end - r);
        if (n && r[n - 1] == '\r') n--;
        gb_rows_span f[GB_ROWS_NCOL];
        char why[160];
        const char *st = gb_row_status_name((gb_row_status)jq->status[p]);
        const char *what = gb_rows_split(r, n, gb_rows_kinds(), f, why, sizeof why) != 0 ? why
            : !gb_rows_field_is(f[GB_ROWS_COL_SCEN], scen, 0)
              || gb_rows_field_ll(f[GB_ROWS_COL_LINE], -1) != line ? "another query"
            : !gb_rows_field_is(f[GB_ROWS_COL_QUEUE], gb_pair_queue_name(&o->pairs[p]), 0)
              || !gb_rows_field_is(f[GB_ROWS_COL_SOLVER], gb_pair_solver_name(&o->pairs[p]),
                                   o->pairs[p].ext_cmd && !o->pairs[p].ext_named) ? "another pair"
            : !gb_rows_field_is(f[GB_ROWS_COL_STATUS], st, 0) ? "another status" : NULL;
        if (what)
            return gb_diag_set(d, EX_DATAERR, path, jq->row_line + p, 0, "expected row %d of query "
                               "%ld to be %s line %ld, solver %s, queue %s, status %s (its '#=' "
                               "line), found %s: the journal was edited; rerun with --fresh",
                               p + 1, qn, scen, line, gb_pair_solver_name(&o->pairs[p]),
                               gb_pair_queue_name(&o->pairs[p]), st, what);
        r += nl ? (size_t)(nl - r) + 1 : (size_t)(end - r);
    }
    return 0;
}

/* ---- the run ---------------------------------------------------------- */

int gb_run(const gb_run_opts *o, char *const *scens, int nscen, gb_run_totals *tot, gb_diag *d)
{
    memset(tot, 0, sizeof *tot);
    gb_diag_clear(d);
    for (int pi = 0; pi < o->npairs; pi++)
        snprintf(tot->pair[pi].name, sizeof tot->pair[pi].name, "%s", o->pairs[pi].spec.name);

    /* plan */
    gb_plan pl;
    int rc = gb_plan_build(&pl, o, scens, nscen, d);
    if (rc) return rc;
    if (o->out) {   /* the output: a regular file or nothing yet, none of the inputs */
        char **in = gb_malloc((size_t)(2 * pl.nscen + 1) * sizeof *in);
        if (!in) { gb_plan_free(&pl); return gb_diag_set(d, EX_OSERR, "", 0, 0, "expected memory, found none"); }
        for (int i = 0; i < pl.nscen; i++) {
            in[2 * i] = (char *)pl.scen[i].path;
            in[2 * i + 1] = pl.scen[i].map;
        }
        rc = gb_out_check(o->out, in, 2 * pl.nscen, d);
        gb_free(in);
        if (rc) { gb_plan_free(&pl); return rc; }
    }
    size_t *todo = gb_malloc((pl.n ? pl.n : 1) * sizeof *todo);
    size_t ntodo = 0;
    if (!todo) { gb_plan_free(&pl); return gb_diag_set(d, EX_OSERR, "", 0, 0, "expected memory, found none"); }
    for (size_t k = 0; k < pl.n; k++)
        if (o->shard_n <= 1 || (long)(k % (size_t)o->shard_n) == o->shard_i) todo[ntodo++] = k;

    /* sink */
    gb_sink sk;
    memset(&sk, 0, sizeof sk);
    sk.o = o;
    sk.pl = &pl;
    sk.tot = tot;
    sk.out = stdout;
    sk.total = ntodo;
    sk.t0 = gb_now_ns();
    for (size_t i = 0; i < ntodo; i++) sk.work += gb_plan_work(&pl, todo[i]);
    gb_exec ex;
    int have_ex = 0;
    gb_qres r;
    memset(&r, 0, sizeof r);
    long qn = 0;
    if (o->out && o->resume) {   /* a finished run has no journal: never run it all again */
        char jp[1100];
        struct stat js, os;
        snprintf(jp, sizeof jp, "%s.partial", o->out);
        if (stat(jp, &js) != 0 && stat(o->out, &os) == 0 && S_ISREG(os.st_mode)) {
            gb_free(todo);
            gb_plan_free(&pl);
            return gb_diag_set(d, EX_CANTCREAT, o->out, 0, 0, "expected a journal to resume (%s), "
                               "found none and a finished %s: the run is complete; to run it again, "
                               "remove it or use --fresh", jp, o->out);
        }
    }
    if (o->out) {
        char fp[256];
        if (o->shard_n > 1) snprintf(fp, sizeof fp, "%s, shard %ld/%ld", pl.fingerprint, o->shard_i, o->shard_n);
        else snprintf(fp, sizeof fp, "%s", pl.fingerprint);
        int mode = o->resume ? GB_JOURNAL_RESUME : o->fresh ? GB_JOURNAL_FRESH : GB_JOURNAL_NEW;
        if ((rc = gb_journal_open(&sk.jr, o->out, fp, gb_rows_header(), gb_rows_kinds(), o->npairs, mode, d)) != 0) {
            gb_free(todo);
            gb_plan_free(&pl);
            return rc;
        }
        sk.out = sk.jr.f;
        char sn[1300];
        snprintf(sn, sizeof sn, "gridbench run: interrupted; the completed queries are kept in %s: "
                 "`--resume` (same options) continues from there\n", sk.jr.path);
        gb_signal_note(sn);
        if (o->resume && o->note) {
            char b[1200];
            if (sk.jr.ndone > 0)
                snprintf(b, sizeof b, "gridbench run: %s: %ld queries done before, continuing after them",
                         sk.jr.path, sk.jr.ndone);
            else
                snprintf(b, sizeof b, "gridbench run: %s: no complete query to keep, the run starts "
                         "from the first", sk.jr.path);
            o->note(o->ctx, GB_NOTE_INFO, b);
        }
    } else {
        fprintf(stdout, "%s\n", gb_rows_header());
    }

    /* resume: the journal's queries, in order, are this run's first ones */
    if ((size_t)sk.jr.ndone > ntodo) {
        rc = gb_diag_set(d, EX_DATAERR, sk.jr.path, 0, 0, "expected at most %zu queries in the "
                         "journal, found %ld", ntodo, sk.jr.ndone);
        goto done;
    }
    for (; qn < sk.jr.ndone; qn++) {
        const gb_journal_query *jq = &sk.jr.done[qn];
        size_t k = todo[qn];
        const gb_query *q = gb_plan_query(&pl, k);
        if (jq->line != q->line) {
            rc = gb_diag_set(d, EX_DATAERR, sk.jr.path, 0, 0,
                             "expected query %ld of the journal at line %ld of %s, found "
                             "line %ld: has the scenario file changed?",
                             qn, q->line, pl.scen[pl.item[k].scen].path, jq->line);
            goto done;
        }
        if ((rc = check_journal_query(o, &pl, k, qn, jq, sk.jr.path, d)) != 0) goto done;
        tot->queries++;
        if (!jq->scen_ok) tot->scen_mismatch++;
        for (int pi = 0; pi < o->npairs; pi++)
            gb_sink_count(tot, pi, jq->status[pi], jq->expanded[pi], jq->time_ns[pi], NULL);
        gb_sink_progress(&sk, k);
    }

    /* execute */
    if ((rc = gb_exec_init(&ex, o, &pl, d)) != 0) goto done;
    have_ex = 1;
    /* user solvers always run in a worker: a crash costs rows, not the run */
    int has_user = 0;
    for (int pi = 0; pi < o->npairs; pi++) has_user |= o->pairs[pi].user != NULL;
    if ((o->jobs > 1 && ntodo - (size_t)qn > 1) || (has_user && ntodo > (size_t)qn)) {
        rc = gb_pool_run(&sk, &ex, todo + qn, ntodo - (size_t)qn, qn, d);
        if (rc) {
            qn = (long)sk.done;   /* what the journal holds */
            goto done;
        }
        qn = (long)ntodo;
    } else {
        if (gb_qres_init(&r, o->npairs) != 0) { rc = gb_diag_set(d, EX_OSERR, "", 0, 0, "expected memory, found none"); goto done; }
        for (; (size_t)qn < ntodo; qn++) {
            rc = gb_exec_query(&ex, todo[qn], &r, d);
            if (rc) { gb_sink_notes(o, r.notes, r.notes_len); goto done; }
            if ((rc = gb_sink_query(&sk, todo[qn], qn, &r, d)) != 0) goto done;
        }
    }

    /* finish */
    if (o->out) {
        rc = gb_journal_finish(&sk.jr, o->out, d);
        if (rc) goto done;
        if (o->shard_n > 1 && (rc = write_shard_manifest(o, &pl, ntodo, d)) != 0) goto done_nofile;
    } else if (fflush(stdout) != 0) {
        rc = gb_diag_set(d, EX_IOERR, "<stdout>", 0, 0, "expected to write the CSV, found %s", strerror(errno));
        goto done_nofile;
    }
    rc = tot->failures ? 1 : (o->strict && tot->scen_mismatch ? 2 : 0);
    goto done_nofile;

done:
    if (o->out && sk.jr.f) {   /* failed: keep what is complete, if anything is */
        gb_journal_close(&sk.jr);
        if (qn > 0) {
            if (o->note) {
                char b[1300];
                snprintf(b, sizeof b, "gridbench run: the %ld queries completed so far are kept in "
                         "%s; `--resume` continues from there", qn, sk.jr.path);
                o->note(o->ctx, GB_NOTE_INFO, b);
            }
        } else {
            remove(sk.jr.path);
        }
    }
done_nofile:
    gb_signal_note(NULL);
    if (have_ex) {
        /* closing external solvers may leave warnings */
        gb_qres_clear_text(&r);
        FILE *nf = open_memstream(&r.notes, &r.notes_len);
        ex.notes_f = nf;
        gb_exec_free(&ex);
        if (nf && fclose(nf) == 0) gb_sink_notes(o, r.notes, r.notes_len);
    }
    gb_qres_free(&r);
    gb_free(todo);
    gb_plan_free(&pl);
    return rc;
}
