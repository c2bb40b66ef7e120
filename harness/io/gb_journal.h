/*
 * gb_journal.h -- the resumable output of `gridbench run --out FILE`.
 *
 * While a run works, its rows go to the journal FILE.partial, flushed
 * after every query, so a killed run loses at most the query it was on.
 * The journal is the final CSV plus comment lines (every CSV field that
 * starts with '#' is quoted, so no row starts with '#'):
 *
 *   # gridbench run journal v2 <fingerprint>        line 1: what run this is
 *   map,scen,line,...                                line 2: the CSV header
 *   <the rows of query 0>                            one row per solver x queue
 *   #=<TAB>0<TAB>line<TAB>scen_ok<TAB>st:exp:ns ...<TAB>sha256:HEX
 *                                                    query 0 is complete
 *   <the rows of query 1>
 *   #=<TAB>1<TAB>...
 *
 * A query is complete when its "#=" line (with its newline) is in the file;
 * rows after the last complete query are a torn tail.  HEX is the SHA-256
 * of the query's rows, bytes as written: a complete query whose rows were
 * edited is refused (v1 journals, without it, are refused: start over).  Resuming reads the
 * journal, checks line 1 against the fingerprint of the new run (the same
 * scenarios, query selection, solvers, queues, model, repetitions and
 * limits), cuts the torn tail and appends from the first query that is not
 * complete.  The "#=" lines carry what the run's totals need (whether the
 * scenario agreed, each pair's status, expansions and median time), so a
 * resumed run ends with the same summary and exit status as one that was
 * never interrupted.  Finishing copies the journal without its comment
 * lines to FILE (through a temp file and a rename) and removes it.
 */
#ifndef GB_JOURNAL_H
#define GB_JOURNAL_H

#include <stdint.h>
#include <stdio.h>

#include "gb_diag.h"

/* What one complete query recorded (per pair arrays have npairs entries). */
typedef struct gb_journal_query {
    long line;           /* the query's line in its scenario file */
    int scen_ok;         /* 1 = the scenario's length agreed with Dijkstra */
    uint8_t *status;     /* per pair: gb_row_status */
    uint64_t *expanded;  /* per pair */
    int64_t *time_ns;    /* per pair: median time */
    const char *rows;    /* its rows, as in the journal (valid while the journal is open) */
    size_t rows_len;
    long row_line;       /* the journal line of its first row */
} gb_journal_query;

/* How gb_journal_open treats a journal that is already there. */
enum {
    GB_JOURNAL_NEW = 0,      /* refuse one that holds complete queries (EX_CANTCREAT) */
    GB_JOURNAL_RESUME = 1,   /* continue it */
    GB_JOURNAL_FRESH = 2     /* discard it and start over */
};

typedef struct gb_journal {
    FILE *f;             /* open for appending; NULL when closed */
    int lockfd;          /* holds the flock(LOCK_EX) of FILE.partial while open, or -1 */
    char path[1100];     /* FILE.partial */
    int npairs;
    long ndone;          /* complete queries found when resuming */
    gb_journal_query *done;   /* [ndone], in run order */
    uint8_t *st_buf;          /* storage behind done[] */
    uint64_t *exp_buf;
    int64_t *ns_buf;
    char *text;               /* the journal as read when resuming (done[].rows point here) */
} gb_journal;

/* Open the journal of `out` for a run with npairs pairs, and lock it
 * (flock, exclusive, not waiting): a second process opening the same
 * journal is refused with EX_TEMPFAIL and changes nothing.  A journal path
 * that is a symlink, or not a regular file, is refused (EX_CANTCREAT).
 *   mode GB_JOURNAL_NEW: start a journal; an existing one that holds
 *     complete queries is refused (EX_CANTCREAT, the message says to use
 *     --resume or --fresh) and left as it was;
 *   GB_JOURNAL_FRESH: start a journal, discarding any old one;
 *   in both, a file at FILE.partial that is not empty and is not a
 *     gridbench journal (line 1) is refused (EX_CANTCREAT) and left alone;
 *   GB_JOURNAL_RESUME: continue an existing journal whose line 1 matches
 *     fingerprint (else EX_DATAERR naming both) and whose complete queries
 *     have the rows their digests say (else EX_DATAERR naming the line),
 *     cutting its torn tail; done[] keeps each query's rows for the caller
 *     to check against its plan;
 *     with no journal, start one.
 * kinds, when not NULL, has one letter per header column and every row of
 * a complete query is checked against it when resuming: 'n' a number or
 * empty, 's' a row status (gb_status.h), '.' anything; and every row must
 * have as many fields as the header (else EX_DATAERR with file:line).
 * Writes line 1 and header (with their newlines) when starting.  Returns
 * 0, or fills *d (EX_CANTCREAT, EX_TEMPFAIL, EX_IOERR, EX_DATAERR,
 * EX_OSERR). */
int gb_journal_open(gb_journal *j, const char *out, const char *fingerprint,
                    const char *header, const char *kinds, int npairs, int mode, gb_diag *d);

/* Write the rows rows[0..len) of query `index` (npairs lines), mark it
 * complete (with their digest) and flush.  Returns 0, or EX_IOERR in *d. */
int gb_journal_commit(gb_journal *j, long index, long line, int scen_ok,
                      const uint8_t *status, const uint64_t *expanded,
                      const int64_t *time_ns, const char *rows, size_t len, gb_diag *d);

/* Write `out` from the journal (rows only, through a temp file and a
 * rename), then remove the journal and release j.  Returns 0 or fills *d;
 * the journal stays on failure. */
int gb_journal_finish(gb_journal *j, const char *out, gb_diag *d);

/* Close the journal and leave it on disk (an interrupted or failed run),
 * releasing j and its lock.  Safe on a journal that failed to open. */
void gb_journal_close(gb_journal *j);

#endif
