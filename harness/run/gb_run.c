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
 * running anything, each query's rows checked against its plan position
 * (scen, line), the pairs and its '#=' statuses; --retry reads the
 * finished OUT with the same checks, runs again only the queries that have
 * a row of the statuses asked for, and rewrites OUT (temp file + rename)
 * with every other row copied as it was.  With a shard and an output file,
 * OUT.shard describes the shard for `gridbench merge` (gb_shard.h).
 */
#include "gb_run.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gb_alloc.h"
#include "gb_paths.h"
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

/* ---- rows read back: the journal (--resume) and the CSV (--retry) ----- */

/* What a row read back says of its pair. */
typedef struct row_seen {
    int st;
    uint64_t expanded;
    int64_t time_ns;
} row_seen;

/* Are the npairs lines at *at (< end; the first at line *line of path)
 * the rows this run writes for plan index k, its qn-th query: its scen
 * and line, the pairs in order, and (st not NULL) the statuses st[]?
 * Advances *at and *line past them and fills seen[] (when not NULL).
 * 0, or EX_DATAERR naming the line, with `fix` (what to do) at the end. */
static int check_rows(const gb_run_opts *o, const gb_plan *pl, size_t k, long qn, const char **at,
                      const char *end, const uint8_t *st, row_seen *seen, const char *path,
                      long *line, const char *fix, gb_diag *d)
{
    const char *scen = pl->scen[pl->item[k].scen].path;
    long qline = gb_plan_query(pl, k)->line;
    for (int p = 0; p < o->npairs; p++, ++*line) {
        const char *r = *at;
        const char *nl = r < end ? memchr(r, '\n', (size_t)(end - r)) : NULL;
        size_t n = nl ? (size_t)(nl - r) : 0;
        if (n && r[n - 1] == '\r') n--;
        gb_rows_span f[GB_ROWS_NCOL];
        char why[160], sts[64] = "";
        if (st)
            snprintf(sts, sizeof sts, ", status %s (its '#=' line)",
                     gb_row_status_name((gb_row_status)st[p]));
        const char *what = r >= end ? "the end of the file"
            : !nl ? "a row without its newline at the end of the file"
            : gb_rows_split(r, n, gb_rows_kinds(), f, why, sizeof why) != 0 ? why
            : !gb_rows_field_is(f[GB_ROWS_COL_SCEN], scen, 0)
              || gb_rows_field_ll(f[GB_ROWS_COL_LINE], -1) != qline ? "another query"
            : !gb_rows_field_is(f[GB_ROWS_COL_QUEUE], gb_pair_queue_name(&o->pairs[p]), 0)
              || !gb_rows_field_is(f[GB_ROWS_COL_SOLVER], gb_pair_solver_name(&o->pairs[p]),
                                   o->pairs[p].ext_cmd && !o->pairs[p].ext_named) ? "another pair"
            : st && !gb_rows_field_is(f[GB_ROWS_COL_STATUS], gb_row_status_name((gb_row_status)st[p]),
                                      0) ? "another status" : NULL;
        if (what)
            return gb_diag_set(d, EX_DATAERR, path, *line, 0, "expected row %d of query %ld to be "
                               "%s line %ld, solver %s, queue %s%s, found %s: %s", p + 1, qn, scen,
                               qline, gb_pair_solver_name(&o->pairs[p]),
                               gb_pair_queue_name(&o->pairs[p]), sts, what, fix);
        if (seen) {
            seen[p].st = gb_row_status_from_name(f[GB_ROWS_COL_STATUS].p, f[GB_ROWS_COL_STATUS].n);
            seen[p].expanded = (uint64_t)gb_rows_field_ll(f[GB_ROWS_COL_EXPANDED], 0);
            seen[p].time_ns = gb_rows_field_ll(f[GB_ROWS_COL_TIME_NS], 0);
        }
        *at = nl + 1;
    }
    return 0;
}

/* --retry: read the finished <out> (a CSV of this run: the n queries
 * todo[0..n), each checked by check_rows), record where each query's rows
 * start in at[0..n] and keep in todo[0..*nredo) the queries that have a
 * row of a status in o->retry; the rows of the others count into *tot.
 * 0, or a sysexits code in *d (*buf and *at then freed). */
static int retry_read(const gb_run_opts *o, const gb_plan *pl, size_t *todo, size_t n,
                      size_t *nredo, char **buf, size_t **at, gb_run_totals *tot, gb_diag *d)
{
    static const char fix[] = "it is not the CSV of this run (same options and inputs); run it "
                              "again without --retry";
    char jp[1100];
    struct stat js;
    snprintf(jp, sizeof jp, "%s.partial", o->out);
    if (lstat(jp, &js) == 0)
        return gb_diag_set(d, EX_CANTCREAT, jp, 0, 0, "expected no journal beside the CSV to retry, "
                           "found one (a run of %s interrupted or under way): finish it with "
                           "--resume first", o->out);
    size_t len;
    int rc = gb_read_file(o->out, buf, &len, d);
    if (rc) return rc;
    const char *hdr = gb_rows_header();
    size_t hl = strlen(hdr);
    row_seen *seen = gb_malloc((size_t)o->npairs * sizeof *seen);
    *at = gb_malloc((n + 1) * sizeof **at);
    if (!seen || !*at) rc = gb_diag_set(d, EX_OSERR, "", 0, 0, "expected memory, found none");
    else if (len < hl + 1 || memcmp(*buf, hdr, hl) != 0 || (*buf)[hl] != '\n')
        rc = gb_diag_set(d, EX_DATAERR, o->out, 1, 0, "expected the header of `gridbench run` CSVs, "
                         "found another: %s", fix);
    const char *p = *buf + hl + 1, *end = *buf + len;
    long line = 2;
    *nredo = 0;
    for (size_t i = 0; !rc && i < n; i++) {
        (*at)[i] = (size_t)(p - *buf);
        size_t k = todo[i];
        if ((rc = check_rows(o, pl, k, (long)i, &p, end, NULL, seen, o->out, &line, fix, d)) != 0) break;
        unsigned redo = 0;
        int mismatch = 0;
        for (int pi = 0; pi < o->npairs; pi++) {
            redo |= (o->retry >> (unsigned)seen[pi].st) & 1u;
            mismatch |= seen[pi].st == GB_ROW_SCEN_MISMATCH;
        }
        if (redo) {
            todo[(*nredo)++] = k;   /* *nredo <= i: todo[i] is read already */
            continue;
        }
        tot->queries++;
        tot->scen_mismatch += (uint64_t)mismatch;
        for (int pi = 0; pi < o->npairs; pi++)
            gb_sink_count(tot, pi, seen[pi].st, seen[pi].expanded, seen[pi].time_ns, NULL);
    }
    if (!rc && p != end)
        rc = gb_diag_set(d, EX_DATAERR, o->out, line, 0, "expected %zu rows (%zu queries x %d pairs), "
                         "found more: %s", n * (size_t)o->npairs, n, o->npairs, fix);
    if (!rc) (*at)[n] = len;
    gb_free(seen);
    if (rc) {
        gb_free(*buf);
        gb_free(*at);
        *buf = NULL;
        *at = NULL;
    }
    return rc;
}

/* ---- the run ---------------------------------------------------------- */

/* ---- the run, in stages -----------------------------------------------
 *
 * run_plan (the plan, the output checked against the inputs, this shard's
 * queries, --retry's selection) -> run_outputs (--retry's temporary file,
 * the journal, or standard output; --paths) -> run_journal (the queries a
 * resumed journal holds, checked and counted) -> run_execute (the rest,
 * in this process or a pool of workers) -> run_finish (every output
 * committed) -> run_close (on failure, the journal kept if it holds a
 * complete query; the executor closed, its notes passed on).  One
 * run_state holds what they share. */

typedef struct run_state {
    const gb_run_opts *o;
    gb_run_totals *tot;
    gb_plan pl;
    int have_pl;
    size_t *todo, ntodo, nall; /* plan indices to run, in order; nall before --retry picked */
    char *keep;                /* --retry: the CSV retried, whole */
    size_t *keep_at;
    FILE *rf; /* --retry: the temporary new CSV */
    char rtmp[1200];
    gb_sink sk;
    gb_exec ex;
    int have_ex;
    gb_qres r;
    long qn; /* queries of this run complete */
} run_state;

static int oom(gb_diag *d) { return gb_diag_set(d, EX_OSERR, "", 0, 0, "expected memory, found none"); }

/* The plan; the output, a regular file or nothing yet, none of the inputs;
 * this shard's queries; --retry: those with rows to run again. */
static int run_plan(run_state *st, char *const *scens, int nscen, gb_diag *d)
{
    const gb_run_opts *o = st->o;
    int rc = gb_plan_build(&st->pl, o, scens, nscen, d);
    if (rc) return rc;
    st->have_pl = 1;
    const gb_plan *pl = &st->pl;
    if (o->out) {
        char **in = gb_malloc((size_t)(2 * pl->nscen + 1) * sizeof *in);
        if (!in) return oom(d);
        for (int i = 0; i < pl->nscen; i++) {
            in[2 * i] = (char *)pl->scen[i].path;
            in[2 * i + 1] = pl->scen[i].map;
        }
        rc = gb_out_check(o->out, in, 2 * pl->nscen, d);
        gb_free(in);
        if (rc) return rc;
    }
    if (!(st->todo = gb_malloc((pl->n ? pl->n : 1) * sizeof *st->todo))) return oom(d);
    for (size_t k = 0; k < pl->n; k++)
        if (o->shard_n <= 1 || (long)(k % (size_t)o->shard_n) == o->shard_i) st->todo[st->ntodo++] = k;
    st->nall = st->ntodo;
    if (!o->retry) return 0;
    size_t nredo = 0;
    if ((rc = retry_read(o, pl, st->todo, st->nall, &nredo, &st->keep, &st->keep_at, st->tot, d)) != 0)
        return rc;
    st->ntodo = nredo;
    if (o->note) {
        char b[1200];
        snprintf(b, sizeof b,
                 "gridbench run: %s: %zu of %zu queries have rows to retry; the others are kept as "
                 "they are",
                 o->out, st->ntodo, st->nall);
        o->note(o->ctx, GB_NOTE_INFO, b);
    }
    return 0;
}

/* The journal of --out, opened or resumed, as the sink's stream. */
static int run_journal_open(run_state *st, gb_diag *d)
{
    const gb_run_opts *o = st->o;
    gb_sink *sk = &st->sk;
    char fp[256];
    if (o->shard_n > 1)
        snprintf(fp, sizeof fp, "%s, shard %ld/%ld", st->pl.fingerprint, o->shard_i, o->shard_n);
    else snprintf(fp, sizeof fp, "%s", st->pl.fingerprint);
    int mode = o->resume ? GB_JOURNAL_RESUME : o->fresh ? GB_JOURNAL_FRESH : GB_JOURNAL_NEW;
    int rc = gb_journal_open(&sk->jr, o->out, fp, gb_rows_header(), gb_rows_kinds(), o->npairs, mode, d);
    if (rc) return rc;
    sk->out = sk->jr.f;
    char sn[1300];
    snprintf(sn, sizeof sn,
             "gridbench run: interrupted; the completed queries are kept in %s: `--resume` (same "
             "options) continues from there\n",
             sk->jr.path);
    gb_signal_note(sn);
    if (o->resume && o->note) {
        char b[1200];
        if (sk->jr.ndone > 0)
            snprintf(b, sizeof b, "gridbench run: %s: %ld queries done before, continuing after them",
                     sk->jr.path, sk->jr.ndone);
        else
            snprintf(b, sizeof b,
                     "gridbench run: %s: no complete query to keep, the run starts from the first",
                     sk->jr.path);
        o->note(o->ctx, GB_NOTE_INFO, b);
    }
    return 0;
}

/* Where the rows go: --retry's temporary file, the journal of --out, or
 * standard output; --paths' temporary file.  A finished run (no journal,
 * its CSV there) is never run whole again by --resume. */
static int run_outputs(run_state *st, gb_diag *d)
{
    const gb_run_opts *o = st->o;
    gb_sink *sk = &st->sk;
    if (o->out && o->resume) {
        char jp[1100];
        struct stat js, os;
        snprintf(jp, sizeof jp, "%s.partial", o->out);
        if (stat(jp, &js) != 0 && stat(o->out, &os) == 0 && S_ISREG(os.st_mode))
            return gb_diag_set(
                d, EX_CANTCREAT, o->out, 0, 0,
                "expected a journal to resume (%s), found none and a "
                "finished %s: the run is complete; to run it again, remove it or use --fresh",
                jp, o->out);
    }
    if (o->retry) {   /* FILE is written anew, temp file + rename, when all is done */
        if (!(st->rf = gb_tmp_open(o->out, st->rtmp, sizeof st->rtmp, d))) return d->code;
        fprintf(st->rf, "%s\n", gb_rows_header());
        sk->out = st->rf;
        sk->keep = st->keep;
        sk->keep_at = st->keep_at;
    } else if (o->out) {
        int rc = run_journal_open(st, d);
        if (rc) return rc;
    } else {
        fprintf(stdout, "%s\n", gb_rows_header());
    }
    if (o->paths_out) {   /* --paths: a temporary file, renamed when the run completed */
        sk->paths = gb_tmp_open(o->paths_out, sk->paths_tmp, sizeof sk->paths_tmp, d);
        if (!sk->paths) return d->code;
        fprintf(sk->paths, "%s\n", gb_paths_header());
    }
    return 0;
}

/* Resume: the journal's queries, in order, are this run's first ones;
 * each is checked against the plan and counted. */
static int run_journal(run_state *st, gb_diag *d)
{
    const gb_run_opts *o = st->o;
    gb_sink *sk = &st->sk;
    if ((size_t)sk->jr.ndone > st->ntodo)
        return gb_diag_set(d, EX_DATAERR, sk->jr.path, 0, 0,
                           "expected at most %zu queries in the journal, found %ld", st->ntodo,
                           sk->jr.ndone);
    for (; st->qn < sk->jr.ndone; st->qn++) {
        const gb_journal_query *jq = &sk->jr.done[st->qn];
        size_t k = st->todo[st->qn];
        const gb_query *q = gb_plan_query(&st->pl, k);
        if (jq->line != q->line)
            return gb_diag_set(
                d, EX_DATAERR, sk->jr.path, 0, 0,
                "expected query %ld of the journal at line %ld of %s, found line %ld: has the "
                "scenario file changed?",
                st->qn, q->line, st->pl.scen[st->pl.item[k].scen].path, jq->line);
        const char *at = jq->rows;
        long jline = jq->row_line;
        int rc = check_rows(o, &st->pl, k, st->qn, &at, jq->rows + jq->rows_len, jq->status, NULL,
                            sk->jr.path, &jline, "the journal was edited; rerun with --fresh", d);
        if (rc) return rc;
        st->tot->queries++;
        if (!jq->scen_ok) st->tot->scen_mismatch++;
        for (int pi = 0; pi < o->npairs; pi++)
            gb_sink_count(st->tot, pi, jq->status[pi], jq->expanded[pi], jq->time_ns[pi], NULL);
        gb_sink_progress(sk, k);
    }
    return 0;
}

/* The queries left, here or in a pool of workers: user solvers always run
 * in a worker, so that a crash costs rows, not the run. */
static int run_execute(run_state *st, gb_diag *d)
{
    const gb_run_opts *o = st->o;
    int rc = gb_exec_init(&st->ex, o, &st->pl, d);
    if (rc) return rc;
    st->have_ex = 1;
    const size_t left = st->ntodo - (size_t)st->qn;
    st->ex.todo = st->todo + st->qn;
    st->ex.ntodo = left;
    int has_user = 0;
    for (int pi = 0; pi < o->npairs; pi++) has_user |= o->pairs[pi].user != NULL;
    if ((o->jobs > 1 && left > 1) || (has_user && left > 0)) {
        rc = gb_pool_run(&st->sk, &st->ex, st->todo + st->qn, left, st->qn, d);
        st->qn = rc ? (long)st->sk.done : (long)st->ntodo; /* on failure, what the journal holds */
        return rc;
    }
    if (gb_qres_init(&st->r, o->npairs) != 0) return oom(d);
    for (; (size_t)st->qn < st->ntodo; st->qn++) {
        if ((rc = gb_exec_query(&st->ex, st->todo[st->qn], &st->r, d)) != 0) {
            gb_sink_notes(o, st->r.notes, st->r.notes_len);
            return rc;
        }
        if ((rc = gb_sink_query(&st->sk, st->todo[st->qn], st->qn, &st->r, d)) != 0) return rc;
    }
    return 0;
}

/* Every output complete and in place.  0, a failure that leaves the
 * journal as it is (> 0), or one after which it is closed already
 * (-code). */
static int run_finish(run_state *st, gb_diag *d)
{
    const gb_run_opts *o = st->o;
    gb_sink *sk = &st->sk;
    int rc;
    if (sk->paths) {
        FILE *pf = sk->paths;
        sk->paths = NULL;
        if ((rc = gb_tmp_close(pf, sk->paths_tmp, d)) != 0) {
            sk->paths_tmp[0] = '\0';
            return rc;
        }
    }
    if (st->rf) {
        if ((rc = gb_sink_keep(sk, st->nall, d)) != 0) return rc;
        rc = gb_tmp_commit(st->rf, st->rtmp, o->out, d);
        st->rf = NULL;
        if (rc) return -rc;
        if (o->shard_n > 1 && (rc = write_shard_manifest(o, &st->pl, st->nall, d)) != 0) return -rc;
    } else if (o->out) {
        if ((rc = gb_journal_finish(&sk->jr, o->out, d)) != 0) return rc;
        if (o->shard_n > 1 && (rc = write_shard_manifest(o, &st->pl, st->ntodo, d)) != 0) return -rc;
    } else if (fflush(stdout) != 0) {
        return -gb_diag_set(d, EX_IOERR, "<stdout>", 0, 0, "expected to write the CSV, found %s",
                            strerror(errno));
    }
    if (sk->paths_tmp[0]) {
        int pe = gb_tmp_rename(sk->paths_tmp, o->paths_out, d);
        sk->paths_tmp[0] = '\0';
        if (pe) return -pe;
    }
    return 0;
}

/* After a failure (failed): the journal kept when it holds a complete
 * query, else removed.  Always: the temporaries of an incomplete run
 * removed, the executor closed (its last notes passed on), all freed. */
static void run_close(run_state *st, int failed)
{
    const gb_run_opts *o = st->o;
    gb_sink *sk = &st->sk;
    if (failed && o->out && sk->jr.f) {
        gb_journal_close(&sk->jr);
        if (st->qn > 0) {
            if (o->note) {
                char b[1300];
                snprintf(b, sizeof b,
                         "gridbench run: the %ld queries completed so far are kept in %s; `--resume` "
                         "continues from there",
                         st->qn, sk->jr.path);
                o->note(o->ctx, GB_NOTE_INFO, b);
            }
        } else {
            remove(sk->jr.path);
        }
    }
    if (sk->paths_tmp[0]) gb_tmp_abort(sk->paths, sk->paths_tmp); /* the run did not complete */
    if (st->rf) gb_tmp_abort(st->rf, st->rtmp);
    gb_free(st->keep);
    gb_free(st->keep_at);
    gb_signal_note(NULL);
    if (st->have_ex) { /* closing external solvers may leave warnings */
        gb_qres_clear_text(&st->r);
        FILE *nf = open_memstream(&st->r.notes, &st->r.notes_len);
        st->ex.notes_f = nf;
        gb_exec_free(&st->ex);
        if (nf && fclose(nf) == 0) gb_sink_notes(o, st->r.notes, st->r.notes_len);
    }
    gb_qres_free(&st->r);
    gb_free(st->todo);
    if (st->have_pl) gb_plan_free(&st->pl);
}

int gb_run(const gb_run_opts *o, char *const *scens, int nscen, gb_run_totals *tot, gb_diag *d)
{
    memset(tot, 0, sizeof *tot);
    gb_diag_clear(d);
    for (int pi = 0; pi < o->npairs; pi++)
        snprintf(tot->pair[pi].name, sizeof tot->pair[pi].name, "%s", o->pairs[pi].spec.name);
    run_state st;
    memset(&st, 0, sizeof st);
    st.o = o;
    st.tot = tot;
    int rc = run_plan(&st, scens, nscen, d);
    if (rc) {
        run_close(&st, 0);
        return rc;
    }
    gb_sink *sk = &st.sk;
    sk->o = o;
    sk->pl = &st.pl;
    sk->tot = tot;
    const char *stop = getenv("GRIDBENCH_STOP_AFTER"); /* test hook (gb_sink.h) */
    sk->stop_after = stop && *stop ? strtol(stop, NULL, 10) : 0;
    sk->out = stdout;
    sk->total = st.ntodo;
    sk->t0 = gb_now_ns();
    for (size_t i = 0; i < st.ntodo; i++) sk->work += gb_plan_work(&st.pl, st.todo[i]);
    if ((rc = run_outputs(&st, d)) == 0 && (rc = run_journal(&st, d)) == 0
        && (rc = run_execute(&st, d)) == 0)
        rc = run_finish(&st, d);
    const int failed = rc > 0;
    if (rc < 0) rc = -rc;
    else if (rc == 0) rc = tot->failures ? 1 : (o->strict && tot->scen_mismatch ? 2 : 0);
    run_close(&st, failed);
    return rc;
}
