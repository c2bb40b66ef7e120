/*
 * gb_cmd_merge.c -- `gridbench merge`: the CSVs of `gridbench run --shard
 * I/N` back into the CSV an unsharded run writes (timing columns aside).
 *
 * Each shard CSV comes with its manifest FILE.shard (gb_run.c writes it):
 * the plan's fingerprint, I/N, the plan's query count, the pairs per
 * query and the rows it holds.  The shards are accepted only when they
 * are of one plan (same fingerprint, N, query count and pairs), each I in
 * 0..N-1 is there exactly once, every CSV has the run's header and exactly
 * the rows its manifest promises (queries(I) x pairs, queries(I) = the k
 * < plan_queries with k mod N = I).  Then plan index k takes the next
 * `pairs` rows of shard k mod N: the rows come out in plan order.
 *
 * A CSV record ends at a newline outside double quotes (gb_csv_write_str
 * quotes any field that needs it).  Memory: every shard file is held
 * whole; time O(total bytes).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gb_alloc.h"
#include "gb_cmd.h"
#include "gb_diag.h"
#include "gb_run.h"
#include "gb_status.h"

typedef struct shard {
    const char *csv;
    char man[1100];
    char plan[256];
    long i, n;
    size_t plan_queries, queries, rows;
    int pairs;
    char *buf;         /* the CSV, whole */
    size_t len, at;    /* bytes, read position (after the header) */
} shard;

static void merge_usage(FILE *f)
{
    fprintf(f,
"usage: gridbench merge [--out FILE] SHARD.csv...\n"
"\n"
"Merge the CSVs written by `gridbench run --shard I/N --out SHARD.csv` (each\n"
"with its manifest SHARD.csv.shard) into the CSV one unsharded run writes,\n"
"rows in plan order (timing columns are those the shards measured).\n"
"Refused: shards of different plans (options, pairs, or the contents of\n"
"any scenario or map file differ), a shard given twice, a missing shard,\n"
"a CSV whose rows do not match its manifest.\n"
"\n"
"  -o, --out FILE   the merged CSV (temp file + rename; default stdout)\n"
"  -q, --quiet      no summary line on stderr\n"
"  -h, --help       this text\n"
"\n"
"Exit status: 0 merged, every row right; 1 merged, and some rows are solver\n"
"failures; 64 bad usage; 65 refused (message names the shard and what is\n"
"wrong); 66 a shard or manifest missing; 71 out of memory; 73/74 cannot write.\n"
"\n"
"Example:\n"
"  for i in 0 1 2 3; do gridbench run -s jps --shard $i/4 --out q.$i.csv datasets/default/*.scen; done\n"
"  gridbench merge --out q.csv q.0.csv q.1.csv q.2.csv q.3.csv\n");
}

/* Read SHARD.csv.shard into *s. */
static int read_manifest(shard *s, gb_diag *d)
{
    snprintf(s->man, sizeof s->man, "%s.shard", s->csv);
    char *b;
    size_t len;
    int rc = gb_read_file(s->man, &b, &len, d);
    if (rc) {
        size_t l = strlen(d->msg);
        snprintf(d->msg + l, sizeof d->msg - l, " (the manifest that `run --shard` writes)");
        return rc;
    }
    long line = 0;
    int seen = 0;
    char *save = NULL;
    for (char *l = strtok_r(b, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        line++;
        unsigned long long v;
        int ok = 1;
        if (line == 1) ok = strcmp(l, "gridbench shard v1") == 0;
        else if (strncmp(l, "plan ", 5) == 0) { snprintf(s->plan, sizeof s->plan, "%s", l + 5); seen |= 1; }
        else if (sscanf(l, "shard %ld/%ld", &s->i, &s->n) == 2) seen |= 2;
        else if (sscanf(l, "plan_queries %llu", &v) == 1) { s->plan_queries = v; seen |= 4; }
        else if (sscanf(l, "queries %llu", &v) == 1) { s->queries = v; seen |= 8; }
        else if (sscanf(l, "pairs %llu", &v) == 1) { s->pairs = (int)v; seen |= 16; }
        else if (sscanf(l, "rows %llu", &v) == 1) { s->rows = v; seen |= 32; }
        else ok = 0;
        if (!ok) {
            char q[80];
            gb_diag_quote(q, sizeof q, l, strlen(l));
            rc = gb_diag_set(d, EX_DATAERR, s->man, line, 1, "expected %s, found %s",
                             line == 1 ? "'gridbench shard v1'" : "plan, shard, plan_queries, queries, "
                             "pairs or rows", q);
            gb_free(b);
            return rc;
        }
    }
    gb_free(b);
    if (seen != 63 || s->n < 1 || s->i < 0 || s->i >= s->n || s->pairs < 1)
        return gb_diag_set(d, EX_DATAERR, s->man, 0, 0, "expected a complete shard manifest (plan, "
                           "shard I/N, plan_queries, queries, pairs, rows), found %s",
                           seen != 63 ? "missing lines" : "values out of range");
    return 0;
}

/* The length of the CSV record at b[0..n) including its newline (n when
 * the last record has none). */
static size_t record_len(const char *b, size_t n)
{
    int q = 0;
    for (size_t i = 0; i < n; i++) {
        if (b[i] == '"') q = !q;
        else if (b[i] == '\n' && !q) return i + 1;
    }
    return n;
}

/* Count the records of s after its header (which must be the run's). */
static int check_csv(shard *s, gb_diag *d)
{
    int rc = gb_read_file(s->csv, &s->buf, &s->len, d);
    if (rc) return rc;
    const char *hdr = gb_run_csv_header();
    size_t hl = strlen(hdr);
    if (s->len < hl + 1 || memcmp(s->buf, hdr, hl) != 0 || s->buf[hl] != '\n')
        return gb_diag_set(d, EX_DATAERR, s->csv, 1, 1, "expected the header of `gridbench run` "
                           "CSVs (%.40s...), found another", hdr);
    s->at = hl + 1;
    size_t n = 0;
    for (size_t at = s->at; at < s->len; n++) at += record_len(s->buf + at, s->len - at);
    size_t want = (s->plan_queries - (size_t)s->i + (size_t)s->n - 1) / (size_t)s->n;
    if (s->queries != want || s->rows != want * (size_t)s->pairs || n != s->rows)
        return gb_diag_set(d, EX_DATAERR, s->csv, 0, 0, "expected %zu rows (%zu queries of shard "
                           "%ld/%ld x %d pairs), found %zu rows (manifest: %zu queries, %zu rows)",
                           want * (size_t)s->pairs, want, s->i, s->n, s->pairs, n, s->queries,
                           s->rows);
    return 0;
}

/* The status field (column col) of record r[0..n). */
static int record_status(const char *r, size_t n, int col)
{
    int c = 0, q = 0;
    size_t start = 0;
    for (size_t i = 0; i <= n; i++) {
        if (i < n && r[i] == '"') q = !q;
        if (i == n || r[i] == '\n' || (r[i] == ',' && !q)) {
            if (c == col) return gb_row_status_from_name(r + start, i - start);
            c++;
            start = i + 1;
            if (i < n && r[i] == '\n') break;
        }
    }
    return -1;
}

int gb_cmd_merge(int argc, char **argv)
{
    static const struct option lo[] = {
        { "out", required_argument, 0, 'o' }, { "quiet", no_argument, 0, 'q' },
        { "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 }
    };
    const char *out = NULL;
    int quiet = 0, c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "o:qh", lo, NULL)) != -1) {
        switch (c) {
        case 'o': out = optarg; break;
        case 'q': quiet = 1; break;
        case 'h': merge_usage(stdout); return 0;
        default:
            fprintf(stderr, "gridbench merge: expected an option of `gridbench merge --help`, "
                    "found '%s'\n", argv[optind - 1]);
            return EX_USAGE;
        }
    }
    int n = argc - optind;
    if (n < 1) {
        fprintf(stderr, "gridbench merge: expected at least one shard CSV, found none\n");
        merge_usage(stderr);
        return EX_USAGE;
    }
    shard *s = gb_calloc((size_t)n, sizeof *s);
    if (!s) { fprintf(stderr, "gridbench merge: expected memory, found none\n"); return EX_OSERR; }
    gb_diag d;
    gb_diag_clear(&d);
    int rc = 0;
    for (int i = 0; i < n && !rc; i++) {
        s[i].csv = argv[optind + i];
        if (out && strcmp(out, s[i].csv) == 0) {
            rc = gb_diag_set(&d, EX_USAGE, out, 0, 0, "expected --out to name a new file, found "
                             "one of the shards");
            break;
        }
        rc = read_manifest(&s[i], &d);
    }
    /* one plan, each shard once, none missing */
    if (!rc && out) {   /* none of the shards or their manifests */
        char **in = gb_calloc((size_t)(2 * n), sizeof *in);
        if (!in) rc = gb_diag_set(&d, EX_OSERR, "", 0, 0, "expected memory, found none");
        for (int i = 0; in && i < n; i++) {
            in[2 * i] = (char *)s[i].csv;
            in[2 * i + 1] = s[i].man;
        }
        if (in) rc = gb_out_check(out, in, 2 * n, &d);
        gb_free(in);
    }
    for (int i = 1; i < n && !rc; i++) {
        if (strcmp(s[i].plan, s[0].plan) != 0 || s[i].n != s[0].n
            || s[i].plan_queries != s[0].plan_queries || s[i].pairs != s[0].pairs)
        {
            char p0[200], pi[200];   /* the manifests' text, quoted (any byte may be there) */
            gb_diag_quote(p0, sizeof p0, s[0].plan, strlen(s[0].plan));
            gb_diag_quote(pi, sizeof pi, s[i].plan, strlen(s[i].plan));
            rc = gb_diag_set(&d, EX_DATAERR, s[i].man, 2, 6, "expected a shard of the plan of %s "
                             "(%s, %ld shards), found another plan (%s, %ld shards): options or "
                             "input files differ", s[0].csv, p0, s[0].n, pi, s[i].n);
        }
    }
    if (!rc) {
        long N = s[0].n;
        int *who = gb_malloc((size_t)N * sizeof *who);
        if (!who) rc = gb_diag_set(&d, EX_OSERR, "", 0, 0, "expected memory, found none");
        for (long k = 0; !rc && k < N; k++) who[k] = -1;
        for (int i = 0; !rc && i < n; i++) {
            if (who[s[i].i] >= 0)
                rc = gb_diag_set(&d, EX_DATAERR, s[i].csv, 0, 0, "expected each shard once, found "
                                 "shard %ld/%ld twice (also in %s)", s[i].i, N, s[who[s[i].i]].csv);
            else who[s[i].i] = i;
        }
        for (long k = 0; !rc && k < N; k++)
            if (who[k] < 0)
                rc = gb_diag_set(&d, EX_DATAERR, s[0].man, 0, 0, "expected shards 0..%ld of %ld, found "
                                 "no shard %ld/%ld among the %d given", N - 1, N, k, N, n);
        /* order the shards by index */
        if (!rc) {
            shard *t = gb_malloc((size_t)n * sizeof *t);
            if (!t) rc = gb_diag_set(&d, EX_OSERR, "", 0, 0, "expected memory, found none");
            else {
                for (long k = 0; k < N; k++) t[k] = s[who[k]];
                memcpy(s, t, (size_t)n * sizeof *s);
                gb_free(t);
            }
        }
        gb_free(who);
    }
    for (int i = 0; i < n && !rc; i++) rc = check_csv(&s[i], &d);

    /* interleave in plan order */
    uint64_t status[GB_ROW_NSTATUS] = { 0 }, rows = 0, failures = 0;
    if (!rc) {
        char tmp[1200];
        FILE *f = out ? gb_tmp_open(out, tmp, sizeof tmp, &d) : stdout;
        if (!f) rc = d.code;
        int col = -1, k = 0;
        for (const char *p = gb_run_csv_header(); p; k++) {   /* the status column */
            const char *e = strchr(p, ',');
            size_t l = e ? (size_t)(e - p) : strlen(p);
            if (l == 6 && memcmp(p, "status", 6) == 0) col = k;
            p = e ? e + 1 : NULL;
        }
        if (!rc) fprintf(f, "%s\n", gb_run_csv_header());
        for (size_t q = 0; !rc && q < s[0].plan_queries; q++) {
            shard *sh = &s[q % (size_t)s[0].n];
            for (int p = 0; p < sh->pairs; p++) {
                size_t l = record_len(sh->buf + sh->at, sh->len - sh->at);
                const char *r = sh->buf + sh->at;
                int st = record_status(r, l, col);
                if (st < 0) {
                    rc = gb_diag_set(&d, EX_DATAERR, sh->csv, 0, 0, "expected a status (%s) in "
                                     "every row, found a row without one", gb_row_status_expected());
                    break;
                }
                status[st]++;
                rows++;
                if (gb_row_status_failed((gb_row_status)st)) failures++;
                fwrite(r, 1, l, f);
                if (l == 0 || r[l - 1] != '\n') fputc('\n', f);
                sh->at += l;
            }
        }
        if (f && out) {
            if (rc) gb_tmp_abort(f, tmp);
            else rc = gb_tmp_commit(f, tmp, out, &d);
        } else if (f && !rc && fflush(f) != 0) {
            rc = gb_diag_set(&d, EX_IOERR, "<stdout>", 0, 0, "expected to write the CSV, found '%s'",
                             strerror(errno));
        }
    }
    if (rc) {
        fprintf(stderr, "gridbench merge: ");
        gb_diag_print(&d, stderr);
    } else {
        if (!quiet)
            fprintf(stderr, "gridbench merge: %d shards, %zu queries, %llu rows, %llu solver "
                    "failures\n", n, s[0].plan_queries, (unsigned long long)rows,
                    (unsigned long long)failures);
        rc = failures ? 1 : 0;
    }
    for (int i = 0; i < n; i++) gb_free(s[i].buf);
    gb_free(s);
    return rc;
}
