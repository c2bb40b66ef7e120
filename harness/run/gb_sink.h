/*
 * gb_sink.h -- the sink stage of the runner and the worker pool that feeds
 * it (internal to harness/run/).
 *
 * The sink lives in the process that writes the output: the rows of each
 * query, in plan order, go to the journal "<out>.partial" (gb_journal.h),
 * flushed after every query together with a line that marks the query
 * complete, or to stdout; the totals, the notes and the progress follow.
 * <out> itself is written (temp file + rename) only when the run
 * completed, so it is never half-written.
 */
#ifndef GB_SINK_H
#define GB_SINK_H

#include "gb_exec.h"
#include "gb_journal.h"

typedef struct gb_sink {
    const gb_run_opts *o;
    const gb_plan *pl;
    gb_journal jr;
    FILE *out;               /* the journal's stream, or stdout */
    FILE *paths;             /* --paths: the temporary paths file, or NULL */
    char paths_tmp[1200];    /* its name */
    gb_run_totals *tot;
    size_t done, total;      /* queries of this run written / to write */
    double work_done, work;
    int64_t t0;
    const char *keep;        /* --retry: the CSV being retried, whole, or NULL (then the
                                rows of the queries not run again are copied from it) */
    const size_t *keep_at;   /* [queries of the shard + 1]: where the rows of its i-th
                                query start in keep */
    size_t keep_next;        /* the first query of keep not written yet */
    long stop_after;         /* a test hook, GRIDBENCH_STOP_AFTER=n: the process stops
                                itself (SIGSTOP) once the journal holds n complete
                                queries, so a test can interrupt a run at a known
                                point whatever the machine's load; 0: never */
} gb_sink;

/* Pass a query's notes ("<kind digit><text>\n" lines) to o->note. */
void gb_sink_notes(const gb_run_opts *o, const char *s, size_t n);

/* Count one row of pair pi into the totals (name: the row's solver name,
 * or NULL to keep the one known). */
void gb_sink_count(gb_run_totals *tot, int pi, int st, uint64_t expanded, int64_t ns,
                   const char *name);

/* One more query of the run is done (plan index k): progress. */
void gb_sink_progress(gb_sink *sk, size_t k);

/* --retry: copy the kept rows of the shard's queries keep_next .. i-1
 * (shard positions) to out.  0, or EX_IOERR in *d. */
int gb_sink_keep(gb_sink *sk, size_t i, gb_diag *d);

/* Write the result of plan index k, the qn-th query of this run.  0, or
 * a sysexits code with *d filled. */
int gb_sink_query(gb_sink *sk, size_t k, long qn, const gb_qres *r, gb_diag *d);

/* Execute todo[0..ntodo) on o->jobs worker processes (at least one) and
 * sink them in order; position i is the (first_qn + i)-th query of the
 * run.  ex serves the parent's crash rows only.  0, or a sysexits code
 * with *d filled (gb_pool.c). */
int gb_pool_run(gb_sink *sk, gb_exec *ex, const size_t *todo, size_t ntodo, long first_qn,
                gb_diag *d);

#endif
