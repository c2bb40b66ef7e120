/*
 * gb_shard.h -- the shards of a run (`gridbench run --shard I/N --out
 * FILE`), their manifests FILE.shard, and `gridbench merge`.
 *
 * Shard I of N holds the plan indices k with k mod N == I, in plan order,
 * each query as npairs rows in pair order.  Merge has only the shard CSVs
 * and their manifests (not the scenario files: it may run elsewhere), so
 * the manifest carries what the rows are checked against:
 *
 *   gridbench shard v2
 *   plan <fingerprint>             the plan (gb_plan.h): options, pairs, files
 *   shard I/N                      0 <= I < N <= GB_SHARD_MAX_N
 *   plan_queries Q                 queries of the whole plan
 *   queries q                      of this shard: ceil((Q - I) / N), 0 if Q <= I
 *   pairs P                        rows per query, >= 1
 *   rows R                         = q x P
 *   pair 0 QUEUE SOLVER            P lines, in row order: the queue and
 *   ...                            solver columns (SOLVER "external:*":
 *                                  an external solver that names itself)
 *   csv sha256:HEX                 the shard CSV, byte for byte
 *   keys sha256:HEX                the keys of this shard's queries, in order
 *   plan_keys sha256:HEX           the keys of every query of the plan
 *
 * A query's key is its (scen, line) columns; gb_shard_key() hashes one.
 * Every line is required, once, in this order, with its newline; numbers
 * are decimal without sign or leading zeros.  v1 manifests (no digests)
 * are refused: re-run those shards.
 *
 * Merge accepts shards of one plan (same plan, N, Q, pairs and plan_keys),
 * each I once; checks every row of every CSV (header; field count and
 * kinds, gb_rows_kinds(); each query's rows together, in pair order, with
 * the manifest's solver and queue), the shard's keys and its CSV digest;
 * and writes the rows in plan order (plan index k = the next query of
 * shard k mod N), checking the plan's keys digest before any row.
 * Memory: every shard CSV whole; time O(total bytes).
 */
#ifndef GB_SHARD_H
#define GB_SHARD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gb_diag.h"
#include "gb_sha256.h"
#include "gb_status.h"

/* The most shards a plan may be cut into (`run --shard` and manifests). */
#define GB_SHARD_MAX_N 1000000

/* The solver of a pair that is an external solver naming itself at run
 * time (`ready NAME`): any solver column that begins "external:". */
#define GB_SHARD_ANY_EXTERNAL "external:*"

/* One shard's manifest. */
typedef struct gb_shard_manifest {
    char plan[160];            /* the plan's fingerprint (printable text) */
    long i, n;                 /* shard I of N */
    uint64_t plan_queries;     /* Q */
    uint64_t queries;          /* of this shard */
    int npairs;                /* P */
    uint64_t rows;             /* queries x npairs */
    char (*queue)[64];         /* [npairs] the queue column of pair p (owned) */
    char (*solver)[64];        /* [npairs] the solver column, or GB_SHARD_ANY_EXTERNAL (owned) */
    char csv_sha[65], keys_sha[65], plan_keys_sha[65];   /* lower-case hex */
} gb_shard_manifest;

/* What a merge wrote. */
typedef struct gb_shard_summary {
    int shards;
    uint64_t queries, rows, failures;
    uint64_t status[GB_ROW_NSTATUS];
} gb_shard_summary;

/* Add the key of one query (its scen column scen[0..len), its line) to a
 * keys digest. */
void gb_shard_key(gb_sha256_ctx *c, const char *scen, size_t len, long line);

/* Write m to path (temp file + rename).  npairs queue/solver names must
 * be printable without newlines.  0, or EX_CANTCREAT / EX_IOERR in *d. */
int gb_shard_write(const char *path, const gb_shard_manifest *m, gb_diag *d);

/* Read the manifest at path into *m, checking every line as above and
 * the numbers' consistency.  0, or EX_NOINPUT / EX_IOERR (cannot read),
 * EX_DATAERR ("path:line: expected ..., found ..."), EX_OSERR; on failure
 * *m owns nothing. */
int gb_shard_read(const char *path, gb_shard_manifest *m, gb_diag *d);

/* Release what *m owns.  Safe on a zeroed or failed manifest. */
void gb_shard_free(gb_shard_manifest *m);

/* Merge the shard CSVs csv[0..n) (each with its manifest CSV.shard) and
 * write the merged CSV, header first, to out.  Fills *sum.  0, or a
 * sysexits code in *d naming the file (and line) and what is wrong:
 * EX_DATAERR for shards that do not make one plan or rows that are not
 * the manifest's, EX_NOINPUT for a missing file, EX_OSERR, EX_IOERR.
 * Nothing is written to out unless every check passed, except on a
 * write error. */
int gb_shard_merge(char *const *csv, int n, FILE *out, gb_shard_summary *sum, gb_diag *d);

#endif
