/*
 * gb_shard.c -- shard manifests and `merge` (the format and what is
 * checked: gb_shard.h).
 *
 * Reading a manifest walks its lines against the fixed list of keys; a
 * shard CSV is read whole, and one pass over its records checks each row
 * and records where each query's rows start (q[0..queries]), so the merge
 * is then copies of byte ranges in plan order.  A CSV record ends at a
 * newline outside double quotes (gb_csv_write_str quotes what needs it).
 */
#include "gb_shard.h"

#include <errno.h>
#include <string.h>

#include "gb_alloc.h"
#include "gb_rows.h"

#define MAGIC "gridbench shard v2"
#define STR_(x) #x
#define STR(x) STR_(x)

void gb_shard_key(gb_sha256_ctx *c, const char *scen, size_t len, long line)
{
    char b[48];
    int k = snprintf(b, sizeof b, "%zu:", len);
    gb_sha256_update(c, b, (size_t)k);
    gb_sha256_update(c, scen, len);
    k = snprintf(b, sizeof b, ":%ld\n", line);
    gb_sha256_update(c, b, (size_t)k);
}

void gb_shard_free(gb_shard_manifest *m)
{
    gb_free(m->queue);
    gb_free(m->solver);
    m->queue = NULL;
    m->solver = NULL;
}

int gb_shard_write(const char *path, const gb_shard_manifest *m, gb_diag *d)
{
    char tmp[1200];
    FILE *f = gb_tmp_open(path, tmp, sizeof tmp, d);
    if (!f) return d->code;
    fprintf(f, MAGIC "\nplan %s\nshard %ld/%ld\nplan_queries %llu\nqueries %llu\npairs %d\n"
            "rows %llu\n", m->plan, m->i, m->n, (unsigned long long)m->plan_queries,
            (unsigned long long)m->queries, m->npairs, (unsigned long long)m->rows);
    for (int p = 0; p < m->npairs; p++) fprintf(f, "pair %d %s %s\n", p, m->queue[p], m->solver[p]);
    fprintf(f, "csv sha256:%s\nkeys sha256:%s\nplan_keys sha256:%s\n", m->csv_sha, m->keys_sha,
            m->plan_keys_sha);
    return gb_tmp_commit(f, tmp, path, d);
}

/* ---- reading a manifest ------------------------------------------------ */

/* A decimal number s[0..n) without sign or leading zeros, <= max. */
static int number(const char *s, size_t n, uint64_t max, uint64_t *v)
{
    if (n == 0 || n > 20 || (n > 1 && s[0] == '0')) return -1;
    uint64_t x = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9') return -1;
        unsigned dg = (unsigned)(s[i] - '0');
        if (x > (max - dg) / 10) return -1;
        x = x * 10 + dg;
    }
    *v = x;
    return 0;
}

/* No control byte, no leading or trailing blank, 1..max-1 bytes. */
static int text_ok(const char *s, size_t n, size_t max)
{
    if (n == 0 || n >= max || s[0] == ' ' || s[n - 1] == ' ') return 0;
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f) return 0;
    return 1;
}

/* "sha256:" and 64 lower-case hex digits into hex. */
static int digest(const char *s, size_t n, char hex[65])
{
    if (n != 7 + 64 || memcmp(s, "sha256:", 7) != 0) return -1;
    for (size_t i = 7; i < n; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f'))) return -1;
    memcpy(hex, s + 7, 64);
    hex[64] = '\0';
    return 0;
}

static const char *const keys[] = { "plan", "shard", "plan_queries", "queries", "pairs", "rows",
                                    "pair", "csv", "keys", "plan_keys" };
static const char *const forms[] = { "plan FINGERPRINT",
                                     "shard I/N (0 <= I < N <= " STR(GB_SHARD_MAX_N) ")", "plan_queries Q", "queries q",
                                     "pairs P", "rows R", "pair P QUEUE SOLVER", "csv sha256:HEX",
                                     "keys sha256:HEX", "plan_keys sha256:HEX" };
enum { K_PLAN, K_SHARD, K_PLANQ, K_QUERIES, K_PAIRS, K_ROWS, K_PAIR, K_CSV, K_KEYS, K_PLANKEYS, K_N };

/* Parse the value v[0..n) of key k into m (pair: the p-th pair line). */
static int value(gb_shard_manifest *m, int k, int p, const char *v, size_t n)
{
    uint64_t x, y;
    switch (k) {
    case K_PLAN:
        if (!text_ok(v, n, sizeof m->plan)) return -1;
        memcpy(m->plan, v, n);
        m->plan[n] = '\0';
        return 0;
    case K_SHARD: {
        const char *sl = memchr(v, '/', n);
        if (!sl || number(v, (size_t)(sl - v), (uint64_t)GB_SHARD_MAX_N, &x) != 0
            || number(sl + 1, n - (size_t)(sl - v) - 1, (uint64_t)GB_SHARD_MAX_N, &y) != 0
            || y < 1 || x >= y)
            return -1;
        m->i = (long)x;
        m->n = (long)y;
        return 0;
    }
    case K_PLANQ: return number(v, n, UINT64_MAX, &m->plan_queries);
    case K_QUERIES: return number(v, n, UINT64_MAX, &m->queries);
    case K_ROWS: return number(v, n, UINT64_MAX, &m->rows);
    case K_PAIRS:
        if (number(v, n, 4096, &x) != 0 || x < 1) return -1;
        m->npairs = (int)x;
        m->queue = gb_calloc(x, sizeof *m->queue);
        m->solver = gb_calloc(x, sizeof *m->solver);
        return m->queue && m->solver ? 0 : -2;
    case K_PAIR: {
        char idx[16];
        int w = snprintf(idx, sizeof idx, "%d ", p);
        if (n <= (size_t)w || memcmp(v, idx, (size_t)w) != 0) return -1;
        const char *q = v + w, *sp;
        size_t rest = n - (size_t)w;
        if (!(sp = memchr(q, ' ', rest))) return -1;
        size_t ql = (size_t)(sp - q), sl = rest - ql - 1;
        if (!text_ok(q, ql, sizeof m->queue[p]) || !text_ok(sp + 1, sl, sizeof m->solver[p])) return -1;
        memcpy(m->queue[p], q, ql);
        m->queue[p][ql] = '\0';
        memcpy(m->solver[p], sp + 1, sl);
        m->solver[p][sl] = '\0';
        return 0;
    }
    case K_CSV: return digest(v, n, m->csv_sha);
    case K_KEYS: return digest(v, n, m->keys_sha);
    default: return digest(v, n, m->plan_keys_sha);
    }
}

static int bad_line(gb_diag *d, const char *path, long line, const char *want, const char *found,
                    size_t n, const char *why)
{
    char q[100];
    gb_diag_quote(q, sizeof q, found, n);
    return gb_diag_set(d, EX_DATAERR, path, line, 1, "expected '%s', found %s%s", want, q, why);
}

int gb_shard_read(const char *path, gb_shard_manifest *m, gb_diag *d)
{
    memset(m, 0, sizeof *m);
    char *b;
    size_t len;
    int rc = gb_read_file(path, &b, &len, d);
    if (rc) {
        size_t l = strlen(d->msg);
        snprintf(d->msg + l, sizeof d->msg - l, " (the manifest that `run --shard` writes)");
        return rc;
    }
    size_t at = 0;
    long line = 0;
    int want = -1, p = 0, seen[K_N] = { 0 };   /* want: the next key (-1: the magic line) */
    while (!rc) {
        const char *s = b + at;
        const char *nl = memchr(s, '\n', len - at);
        size_t n = nl ? (size_t)(nl - s) : len - at;
        if (at == len) {
            if (want < K_N)
                rc = gb_diag_set(d, EX_DATAERR, path, line + 1, 0, "expected '%s', found the end of "
                                 "the manifest", want < 0 ? MAGIC : forms[want]);
            break;
        }
        line++;
        if (!nl) {
            rc = bad_line(d, path, line, "a newline", s, n, " at the end of the manifest");
            break;
        }
        at += n + 1;
        if (want < 0) {
            if (n != strlen(MAGIC) || memcmp(s, MAGIC, n) != 0)
                rc = bad_line(d, path, line, MAGIC, s, n, n == 18 && memcmp(s, "gridbench shard v1", n) == 0
                              ? ": a shard of an earlier gridbench, whose manifest has no digest of its "
                                "rows; re-run the shard with this gridbench" : "");
            want = K_PLAN;
            continue;
        }
        if (want >= K_N) {
            rc = bad_line(d, path, line, "the end of the manifest", s, n, "");
            break;
        }
        const char *sp = memchr(s, ' ', n);
        size_t kl = sp ? (size_t)(sp - s) : n;
        int got = -1;
        for (int i = 0; i < K_N; i++)
            if (strlen(keys[i]) == kl && memcmp(s, keys[i], kl) == 0) got = i;
        if (got != want) {
            char why[80];
            snprintf(why, sizeof why, got < 0 ? ": an unknown key" : seen[got] ? ": a second '%s' line"
                     : ": '%s' out of order", got < 0 ? "" : keys[got]);
            rc = bad_line(d, path, line, forms[want], s, n, why);
            break;
        }
        int v = sp ? value(m, got, p, sp + 1, n - kl - 1) : -1;
        if (v == -2) rc = gb_diag_set(d, EX_OSERR, path, line, 0, "expected memory, found none");
        else if (v) rc = bad_line(d, path, line, forms[want], s, n, "");
        seen[got] = 1;
        if (got == K_PAIR) p++;
        want = got == K_ROWS || (got == K_PAIR && p < m->npairs) ? K_PAIR : got + 1;
    }
    gb_free(b);
    if (!rc) {   /* the numbers agree with each other */
        uint64_t I = (uint64_t)m->i, N = (uint64_t)m->n;
        uint64_t wq = m->plan_queries > I ? (m->plan_queries - I - 1) / N + 1 : 0;
        if (m->queries != wq)
            rc = gb_diag_set(d, EX_DATAERR, path, 5, 0, "expected queries %llu (the plan indices "
                             "k < %llu with k mod %ld = %ld), found %llu",
                             (unsigned long long)wq, (unsigned long long)m->plan_queries, m->n,
                             m->i, (unsigned long long)m->queries);
        else if (m->rows / (uint64_t)m->npairs != m->queries || m->rows % (uint64_t)m->npairs)
            rc = gb_diag_set(d, EX_DATAERR, path, 7, 0, "expected rows = queries x pairs = %llu x "
                             "%d, found %llu", (unsigned long long)m->queries, m->npairs,
                             (unsigned long long)m->rows);
    }
    if (rc) gb_shard_free(m);
    return rc;
}

/* ---- merge ------------------------------------------------------------- */

typedef struct shard {
    const char *csv;
    char man[1100];
    gb_shard_manifest m;
    char *buf;          /* the CSV, whole */
    size_t len;
    size_t *q;          /* [m.queries + 1] where query g's rows start in buf */
} shard;

/* The length of the CSV record at b[0..n) including its newline (n when
 * it has none); *lines += the newlines in it. */
static size_t record_len(const char *b, size_t n, long *lines)
{
    int q = 0;
    for (size_t i = 0; i < n; i++) {
        if (b[i] == '"') q = !q;
        else if (b[i] == '\n') {
            ++*lines;
            if (!q) return i + 1;
        }
    }
    return n;
}

/* The key of the query whose first row starts at r (a checked row) into c. */
static int hash_key(gb_sha256_ctx *c, const char *r, size_t n)
{
    gb_rows_span f[GB_ROWS_NCOL];
    char why[8], scen[4096];
    if (gb_rows_split(r, n, gb_rows_kinds(), f, why, sizeof why) != 0) return -1;
    long long line = gb_rows_field_ll(f[GB_ROWS_COL_LINE], -1);
    long sl = gb_rows_field_text(f[GB_ROWS_COL_SCEN], scen, sizeof scen);
    if (line < 0 || sl < 0) return -1;
    gb_shard_key(c, scen, (size_t)sl, (long)line);
    return 0;
}

static void digest_hex(gb_sha256_ctx *c, char hex[65])
{
    uint8_t dg[GB_SHA256_BYTES];
    gb_sha256_final(c, dg);
    gb_sha256_hex(dg, hex);
}

/* Read s's CSV and check every row (gb_shard.h); fill s->q, count statuses. */
static int check_csv(shard *s, gb_shard_summary *sum, gb_diag *d)
{
    int rc = gb_read_file(s->csv, &s->buf, &s->len, d);
    if (rc) return rc;
    const gb_shard_manifest *m = &s->m;
    const char *hdr = gb_rows_header();
    size_t hl = strlen(hdr);
    if (s->len < hl + 1 || memcmp(s->buf, hdr, hl) != 0 || s->buf[hl] != '\n')
        return gb_diag_set(d, EX_DATAERR, s->csv, 1, 1, "expected the header of `gridbench run` "
                           "CSVs (%.40s...), found another", hdr);
    /* at most one query per GB_ROWS_NCOL bytes: q[] is never larger than the file */
    uint64_t cap = s->len / GB_ROWS_NCOL / (uint64_t)m->npairs + 1;
    if (m->queries >= cap)
        return gb_diag_set(d, EX_DATAERR, s->csv, 0, 0, "expected %llu rows (manifest %s), found a "
                           "file of %zu bytes", (unsigned long long)m->rows, s->man, s->len);
    s->q = gb_malloc((size_t)(m->queries + 1) * sizeof *s->q);
    if (!s->q) return gb_diag_set(d, EX_OSERR, s->csv, 0, 0, "expected memory, found none");
    gb_sha256_ctx kc;
    gb_sha256_init(&kc);
    size_t at = hl + 1;
    long line = 2, nl = 0;   /* line: where the row starts */
    uint64_t r = 0;
    char why[160];
    gb_rows_span f[GB_ROWS_NCOL], q0[GB_ROWS_QUERY_COLS];
    for (; at < s->len; r++, line += nl) {
        nl = 0;
        const char *row = s->buf + at;
        size_t l = record_len(row, s->len - at, &nl);
        if (row[l - 1] != '\n')
            return gb_diag_set(d, EX_DATAERR, s->csv, line, 0, "expected a row ending in a newline, "
                               "found the end of the file: the CSV was cut");
        if (r >= m->rows)
            return gb_diag_set(d, EX_DATAERR, s->csv, line, 0, "expected %llu rows (manifest %s), "
                               "found more", (unsigned long long)m->rows, s->man);
        if (gb_rows_split(row, l - 1, gb_rows_kinds(), f, why, sizeof why) != 0)
            return gb_diag_set(d, EX_DATAERR, s->csv, line, 0, "expected a row of `gridbench run`, "
                               "%s", why);
        int p = (int)(r % (uint64_t)m->npairs);
        int ext = strcmp(m->solver[p], GB_SHARD_ANY_EXTERNAL) == 0;
        if (!gb_rows_field_is(f[GB_ROWS_COL_QUEUE], m->queue[p], 0)
            || !gb_rows_field_is(f[GB_ROWS_COL_SOLVER], m->solver[p], ext)) {
            char qs[80], qq[40];
            gb_diag_quote(qs, sizeof qs, f[GB_ROWS_COL_SOLVER].p, f[GB_ROWS_COL_SOLVER].n);
            gb_diag_quote(qq, sizeof qq, f[GB_ROWS_COL_QUEUE].p, f[GB_ROWS_COL_QUEUE].n);
            return gb_diag_set(d, EX_DATAERR, s->csv, line, 0, "expected pair %d of %d (solver '%s', "
                               "queue '%s') of query %llu, found solver %s, queue %s", p + 1,
                               m->npairs, m->solver[p], m->queue[p],
                               (unsigned long long)(r / (uint64_t)m->npairs), qs, qq);
        }
        if (p == 0) {
            s->q[r / (uint64_t)m->npairs] = at;
            memcpy(q0, f, sizeof q0);
            if (hash_key(&kc, row, l - 1) != 0)
                return gb_diag_set(d, EX_DATAERR, s->csv, line, 0, "expected a scenario path under "
                                   "4096 bytes and a line >= 0, found another");
        } else {
            for (int c = 0; c < GB_ROWS_QUERY_COLS; c++)
                if (f[c].n != q0[c].n || memcmp(f[c].p, q0[c].p, f[c].n) != 0)
                    return gb_diag_set(d, EX_DATAERR, s->csv, line, 0, "expected the %d rows of a "
                                       "query together, found row %d of query %llu naming another "
                                       "query (column %d)", m->npairs, p + 1,
                                       (unsigned long long)(r / (uint64_t)m->npairs), c + 1);
        }
        int st = gb_row_status_from_name(f[GB_ROWS_COL_STATUS].p, f[GB_ROWS_COL_STATUS].n);
        sum->status[st]++;
        if (gb_row_status_failed((gb_row_status)st)) sum->failures++;
        at += l;
    }
    if (r != m->rows)
        return gb_diag_set(d, EX_DATAERR, s->csv, 0, 0, "expected %llu rows (%llu queries of shard "
                           "%ld/%ld x %d pairs, manifest %s), found %llu", (unsigned long long)m->rows,
                           (unsigned long long)m->queries, m->i, m->n, m->npairs, s->man,
                           (unsigned long long)r);
    s->q[m->queries] = at;
    char hex[65];
    digest_hex(&kc, hex);
    if (strcmp(hex, m->keys_sha) != 0)
        return gb_diag_set(d, EX_DATAERR, s->csv, 0, 0, "expected the queries of shard %ld/%ld in "
                           "plan order (keys sha256:%.16s... in %s), found other queries (sha256:%.16s...): "
                           "rows were moved between shards or reordered", m->i, m->n, m->keys_sha,
                           s->man, hex);
    uint8_t dg[GB_SHA256_BYTES];
    gb_sha256(s->buf, s->len, dg);
    gb_sha256_hex(dg, hex);
    if (strcmp(hex, m->csv_sha) != 0)
        return gb_diag_set(d, EX_DATAERR, s->csv, 0, 0, "expected the CSV its manifest %s describes "
                           "(sha256:%.16s...), found other bytes (sha256:%.16s...): the file was "
                           "edited or replaced after the run; re-run the shard", s->man, m->csv_sha, hex);
    return 0;
}

/* Does shard b belong to the plan of shard a? */
static int same_plan(const shard *a, const shard *b, gb_diag *d)
{
    const gb_shard_manifest *x = &a->m, *y = &b->m;
    const char *what = strcmp(x->plan, y->plan) != 0 ? "plan" : x->n != y->n ? "shard count"
                     : x->plan_queries != y->plan_queries ? "plan_queries"
                     : x->npairs != y->npairs ? "pairs"
                     : strcmp(x->plan_keys_sha, y->plan_keys_sha) != 0 ? "plan_keys" : NULL;
    for (int p = 0; !what && p < x->npairs; p++)
        if (strcmp(x->queue[p], y->queue[p]) != 0 || strcmp(x->solver[p], y->solver[p]) != 0)
            what = "pair list";
    if (!what) return 0;
    return gb_diag_set(d, EX_DATAERR, b->man, 0, 0, "expected a shard of the plan of %s (%s, %ld "
                       "shards), found another %s (%s, %ld shards): options or input files differ",
                       a->csv, x->plan, x->n, what, y->plan, y->n);
}

int gb_shard_merge(char *const *csv, int n, FILE *out, gb_shard_summary *sum, gb_diag *d)
{
    memset(sum, 0, sizeof *sum);
    gb_diag_clear(d);
    if (n < 1) return gb_diag_set(d, EX_USAGE, "", 0, 0, "expected at least one shard, found none");
    shard *s = gb_calloc((size_t)n, sizeof *s);
    int *who = NULL;
    if (!s) return gb_diag_set(d, EX_OSERR, "", 0, 0, "expected memory, found none");
    int rc = 0;
    for (int i = 0; i < n && !rc; i++) {
        s[i].csv = csv[i];
        int w = snprintf(s[i].man, sizeof s[i].man, "%s.shard", csv[i]);
        if (w < 0 || (size_t)w >= sizeof s[i].man)
            rc = gb_diag_set(d, EX_USAGE, csv[i], 0, 0, "expected a path under %zu bytes, found a "
                             "longer one", sizeof s[i].man - 7);
        else rc = gb_shard_read(s[i].man, &s[i].m, d);
    }
    for (int i = 1; i < n && !rc; i++) rc = same_plan(&s[0], &s[i], d);
    /* each shard once, none missing (N <= GB_SHARD_MAX_N: who[] is small) */
    long N = rc ? 0 : s[0].m.n;
    if (!rc && !(who = gb_malloc((size_t)N * sizeof *who)))
        rc = gb_diag_set(d, EX_OSERR, "", 0, 0, "expected memory, found none");
    for (long k = 0; !rc && k < N; k++) who[k] = -1;
    for (int i = 0; i < n && !rc; i++) {
        if (who[s[i].m.i] >= 0)
            rc = gb_diag_set(d, EX_DATAERR, s[i].csv, 0, 0, "expected each shard once, found shard "
                             "%ld/%ld twice (also in %s)", s[i].m.i, N, s[who[s[i].m.i]].csv);
        else who[s[i].m.i] = i;
    }
    for (long k = 0; !rc && k < N; k++)
        if (who[k] < 0)
            rc = gb_diag_set(d, EX_DATAERR, s[0].man, 0, 0, "expected shards 0..%ld of %ld, found "
                             "no shard %ld/%ld among the %d given", N - 1, N, k, N, n);
    for (long k = 0; k < N && !rc; k++) rc = check_csv(&s[who[k]], sum, d);
    /* the plan's keys, in plan order, before any row is written */
    uint64_t Q = rc ? 0 : s[0].m.plan_queries;
    if (!rc) {
        gb_sha256_ctx c;
        gb_sha256_init(&c);
        for (uint64_t k = 0; k < Q; k++) {
            const shard *sh = &s[who[k % (uint64_t)N]];
            size_t g = (size_t)(k / (uint64_t)N), a = sh->q[g];
            long nl = 0;
            hash_key(&c, sh->buf + a, record_len(sh->buf + a, sh->len - a, &nl) - 1);
        }
        char hex[65];
        digest_hex(&c, hex);
        if (strcmp(hex, s[0].m.plan_keys_sha) != 0)
            rc = gb_diag_set(d, EX_DATAERR, s[0].man, 0, 0, "expected the plan's queries in plan "
                             "order (plan_keys sha256:%.16s...), found others (sha256:%.16s...): "
                             "the manifests were edited", s[0].m.plan_keys_sha, hex);
    }
    if (!rc) {
        fprintf(out, "%s\n", gb_rows_header());
        for (uint64_t k = 0; k < Q; k++) {
            const shard *sh = &s[who[k % (uint64_t)N]];
            size_t g = (size_t)(k / (uint64_t)N);
            fwrite(sh->buf + sh->q[g], 1, sh->q[g + 1] - sh->q[g], out);
        }
        if (fflush(out) != 0 || ferror(out))
            rc = gb_diag_set(d, EX_IOERR, "", 0, 0, "expected to write the merged CSV, found '%s'",
                             strerror(errno));
        sum->shards = n;
        sum->queries = Q;
        sum->rows = Q * (uint64_t)s[0].m.npairs;
    }
    for (int i = 0; i < n; i++) {
        gb_free(s[i].buf);
        gb_free(s[i].q);
        gb_shard_free(&s[i].m);
    }
    gb_free(who);
    gb_free(s);
    return rc;
}
