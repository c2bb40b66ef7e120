/*
 * gb_cmd_merge.c -- `gridbench merge`: the CSVs of `gridbench run --shard
 * I/N` back into the CSV an unsharded run writes (timing columns aside).
 *
 * The checks and the merge itself are gb_shard_merge (gb_shard.h: what a
 * manifest carries and what every row is checked against); this file
 * parses the command line, guards the output (none of the inputs; temp
 * file + rename) and prints the summary or the diagnostic.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gb_alloc.h"
#include "gb_cmd.h"
#include "gb_diag.h"
#include "gb_shard.h"

static const gb_opt merge_opts[] = {
    { 'o', 'o', "out", "FILE", "the merged CSV (temp file + rename; default stdout)" },
    { 'q', 'q', "quiet", NULL, "no summary line on stderr" },
    { 'h', 'h', "help", NULL, "this text" },
    { 0, 0, NULL, NULL, NULL }
};

const gb_cmd_doc gb_doc_merge = {
    "merge", "[--out FILE] SHARD.csv...",
    "merge the CSVs of `run --shard I/N` into the CSV of one run",
    "Merge the CSVs written by `gridbench run --shard I/N --out SHARD.csv` (each with its manifest "
    "SHARD.csv.shard) into the CSV one unsharded run writes, rows in plan order (timing columns are "
    "those the shards measured).\n"
    "\n"
    "Refused: shards of different plans (options, pairs, or the contents of any scenario or map "
    "file differ), a shard given twice, a missing shard, a manifest that is not exactly what `run "
    "--shard` writes (v1 manifests of earlier versions included: re-run those shards), and a CSV "
    "whose bytes or rows are not its manifest's: every row must have the run's columns and kinds, "
    "be of the shard's queries in plan order and of the run's solver x queue pairs in order, and "
    "the CSV must match its SHA-256 in the manifest.",
    merge_opts, NULL,
    "for i in 0 1 2 3; do gridbench run -s jps --shard $i/4 --out q.$i.csv datasets/default/*.scen; done\n"
    "gridbench merge --out q.csv q.0.csv q.1.csv q.2.csv q.3.csv",
    "0 merged, every row right; 1 merged, and some rows are solver failures; 64 bad usage; 65 "
    "refused (message names the shard and what is wrong); 66 a shard or manifest missing; 71 out of "
    "memory; 73/74 cannot write."
};

int gb_cmd_merge(int argc, char **argv)
{
    const char *out = NULL, *arg;
    int quiet = 0, c;
    gb_opt_parser op;
    if (gb_opt_begin(&op, &gb_doc_merge) != 0) return EX_OSERR;
    while ((c = gb_opt_next(&op, argc, argv, &arg)) != -1) {
        switch (c) {
        case 'o': out = arg; break;
        case 'q': quiet = 1; break;
        case 'h': gb_opt_end(&op); gb_opt_help(&gb_doc_merge, stdout); return 0;
        default: gb_opt_end(&op); return EX_USAGE;   /* gb_opt_next said why */
        }
    }
    gb_opt_end(&op);
    int n = argc - optind;
    if (n < 1) {
        fprintf(stderr, "gridbench merge: expected at least one shard CSV, found none\n");
        gb_opt_help(&gb_doc_merge, stderr);
        return EX_USAGE;
    }
    char *const *csv = argv + optind;
    gb_diag d;
    gb_diag_clear(&d);
    gb_shard_summary sum;
    int rc = 0;
    char tmp[1200];
    FILE *f = stdout;
    if (out) {   /* none of the shards or their manifests */
        char **in = gb_calloc((size_t)(2 * n), sizeof *in);
        char (*man)[1100] = gb_calloc((size_t)n, sizeof *man);
        if (!in || !man) rc = gb_diag_set(&d, EX_OSERR, "", 0, 0, "expected memory, found none");
        for (int i = 0; !rc && i < n; i++) {
            snprintf(man[i], sizeof man[i], "%s.shard", csv[i]);
            in[2 * i] = csv[i];
            in[2 * i + 1] = man[i];
        }
        if (!rc) rc = gb_out_check(out, in, 2 * n, &d);
        gb_free(in);
        gb_free(man);
        if (!rc && !(f = gb_tmp_open(out, tmp, sizeof tmp, &d))) rc = d.code;
    }
    if (!rc) {
        rc = gb_shard_merge(csv, n, f, &sum, &d);
        if (out) {
            if (rc) gb_tmp_abort(f, tmp);
            else rc = gb_tmp_commit(f, tmp, out, &d);
        } else if (rc == EX_IOERR) {
            snprintf(d.path, sizeof d.path, "<stdout>");
        }
    }
    if (rc) {
        fprintf(stderr, "gridbench merge: ");
        gb_diag_print(&d, stderr);
        return rc;
    }
    if (!quiet)
        fprintf(stderr, "gridbench merge: %d shards, %llu queries, %llu rows, %llu solver "
                "failures\n", sum.shards, (unsigned long long)sum.queries,
                (unsigned long long)sum.rows, (unsigned long long)sum.failures);
    return sum.failures ? 1 : 0;
}
