/*
 * gb_journal.c -- the journal behind `gridbench run --out` and --resume;
 * the file format and its invariant (every complete query ends with its
 * "#=" line) are in gb_journal.h.
 *
 * Resuming reads the whole journal (gb_read_file), validates it line by
 * line, truncates the file after the last complete query and reopens it
 * for appending.  Finishing streams the journal into the final CSV,
 * dropping the lines that start with '#'.
 *
 * Time: O(journal size) to resume and to finish; a commit is one line.
 */
#include "gb_journal.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <sys/file.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gb_alloc.h"
#include "gb_rows.h"
#include "gb_sha256.h"
#include "gb_status.h"

#define MAGIC "# gridbench run journal v2 "
#define MAGIC_ANY "# gridbench run journal "

static void release(gb_journal *j)
{
    gb_free(j->done);
    gb_free(j->st_buf);
    gb_free(j->exp_buf);
    gb_free(j->ns_buf);
    gb_free(j->text);
    j->text = NULL;
    j->done = NULL;
    j->st_buf = NULL;
    j->exp_buf = NULL;
    j->ns_buf = NULL;
    j->ndone = 0;
}

static void unlock(gb_journal *j)
{
    if (j->lockfd >= 0) close(j->lockfd);
    j->lockfd = -1;
}

void gb_journal_close(gb_journal *j)
{
    if (j->f) fclose(j->f);
    j->f = NULL;
    release(j);
    unlock(j);
}

/* A stream on the journal already open (and locked) as j->lockfd, cut to
 * cut bytes, appending: never the path again, which somebody could have
 * replaced by a link meanwhile. */
static FILE *reopen(gb_journal *j, off_t cut)
{
    int fd = ftruncate(j->lockfd, cut) == 0 ? dup(j->lockfd) : -1;
    if (fd < 0) return NULL;
    int fl = fcntl(fd, F_GETFL);
    FILE *f = fl < 0 || fcntl(fd, F_SETFL, (fl & ~O_NONBLOCK) | O_APPEND) != 0 ? NULL : fdopen(fd, "ab");
    if (!f) close(fd);
    return f;
}

/* Start a new journal: line 1 and the header. */
static int start(gb_journal *j, const char *fingerprint, const char *header, gb_diag *d)
{
    j->f = reopen(j, 0);
    if (!j->f)
        return gb_diag_set(d, EX_CANTCREAT, j->path, 0, 0, "expected a writable journal file, "
                           "found '%s'", strerror(errno));
    fprintf(j->f, MAGIC "%s\n%s\n", fingerprint, header);
    if (fflush(j->f) != 0 || ferror(j->f)) {
        int e = errno;
        fclose(j->f);
        j->f = NULL;
        remove(j->path);
        return gb_diag_set(d, EX_IOERR, j->path, 0, 0, "expected to write the journal, found '%s'",
                           strerror(e));
    }
    return 0;
}

/* Parse one "#=" line s[0..n) (without "#=\t" and the newline) of the
 * query with index k into q, its digest into hex.  0, or -1 when it is
 * malformed. */
static int parse_commit(const char *s, size_t n, long k, int npairs, gb_journal_query *q,
                        char hex[65])
{
    char buf[64];
    size_t i = 0;
    long v[3];
    for (int f = 0; f < 3; f++) {   /* index, line, scen_ok */
        size_t b = i;
        while (i < n && s[i] != '\t') i++;
        if (i == b || i - b >= sizeof buf) return -1;
        memcpy(buf, s + b, i - b);
        buf[i - b] = '\0';
        char *end;
        errno = 0;
        v[f] = strtol(buf, &end, 10);
        if (*end || errno) return -1;
        if (i < n) i++;
    }
    if (v[0] != k || v[1] < 0 || (v[2] != 0 && v[2] != 1)) return -1;
    q->line = v[1];
    q->scen_ok = (int)v[2];
    for (int p = 0; p < npairs; p++) {
        size_t b = i;
        while (i < n && s[i] != '\t') i++;
        if (i == b || i - b >= sizeof buf) return -1;
        memcpy(buf, s + b, i - b);
        buf[i - b] = '\0';
        unsigned st;
        uint64_t e;
        int64_t t;
        int used = 0;
        if (sscanf(buf, "%u:%" SCNu64 ":%" SCNd64 "%n", &st, &e, &t, &used) != 3
            || (size_t)used != i - b || st > 255)
            return -1;
        q->status[p] = (uint8_t)st;
        q->expanded[p] = e;
        q->time_ns[p] = t;
        if (i < n) i++;
    }
    if (n - i != 7 + 64 || memcmp(s + i, "sha256:", 7) != 0) return -1;
    for (size_t h = i + 7; h < n; h++)   /* lower-case hex, as written (and printed back) */
        if (!((s[h] >= '0' && s[h] <= '9') || (s[h] >= 'a' && s[h] <= 'f'))) return -1;
    memcpy(hex, s + i + 7, 64);
    hex[64] = '\0';
    return 0;
}

/* Load an existing journal: check it, fill j->done, cut the torn tail. */
static int resume(gb_journal *j, const char *fingerprint, const char *header, const char *kinds,
                  gb_diag *d)
{
    long bad_line = 0;      /* the first bad row since the last complete query */
    char why[160] = "";
    char *buf;
    size_t len;
    int rc = gb_read_file(j->path, &buf, &len, d);
    if (rc) return rc;
    /* count the complete queries to size the arrays */
    long ncommit = 0;
    for (size_t i = 0; i + 2 < len; i++)
        if ((i == 0 || buf[i - 1] == '\n') && buf[i] == '#' && buf[i + 1] == '=') ncommit++;
    size_t cells = (size_t)(ncommit ? ncommit : 1) * (size_t)j->npairs;
    j->done = gb_calloc((size_t)(ncommit ? ncommit : 1), sizeof *j->done);
    j->st_buf = gb_malloc(cells);
    j->exp_buf = gb_malloc(cells * sizeof *j->exp_buf);
    j->ns_buf = gb_malloc(cells * sizeof *j->ns_buf);
    if (!j->done || !j->st_buf || !j->exp_buf || !j->ns_buf) {
        gb_free(buf);
        release(j);
        return gb_diag_set(d, EX_OSERR, j->path, 0, 0, "expected memory for the journal, found none");
    }
    size_t pos = 0, cut = 0;
    long lineno = 0, rows = 0, first_row = 0;   /* first_row: line of the query's first row */
    rc = 0;
    while (pos < len && !rc) {
        const char *s = buf + pos;
        const char *nl = memchr(s, '\n', len - pos);
        if (!nl) break;                          /* a torn last line */
        size_t n = (size_t)(nl - s);
        size_t m = n && s[n - 1] == '\r' ? n - 1 : n;
        lineno++;
        pos += n + 1;
        if (lineno == 1) {
            size_t lm = strlen(MAGIC), lf = strlen(fingerprint);
            if (m >= strlen(MAGIC_ANY) + 3 && memcmp(s, MAGIC_ANY "v1 ", strlen(MAGIC_ANY) + 3) == 0) {
                rc = gb_diag_set(d, EX_DATAERR, j->path, 1, 0,
                                 "expected a journal of this gridbench (v2), found one of an earlier "
                                 "version (v1, no digests of its rows): rerun without --resume to "
                                 "start over with --fresh");
            } else if (m != lm + lf || memcmp(s, MAGIC, lm) != 0 || memcmp(s + lm, fingerprint, lf) != 0) {
                char q[120];
                gb_diag_quote(q, sizeof q, s, m);
                rc = gb_diag_set(d, EX_DATAERR, j->path, 1, 0,
                                 "expected the journal of this run (%s), found %s: the options "
                                 "differ from the interrupted run's; rerun without --resume to "
                                 "start over with --fresh", fingerprint, q);
            }
        } else if (lineno == 2) {
            if (m != strlen(header) || memcmp(s, header, m) != 0)
                rc = gb_diag_set(d, EX_DATAERR, j->path, 2, 0,
                                 "expected the CSV header of this version of gridbench, found another");
            cut = pos;                           /* lines 1 and 2 always stay */
        } else if (m >= 3 && s[0] == '#' && s[1] == '=' && s[2] == '\t') {
            gb_journal_query *q = &j->done[j->ndone];
            size_t o = (size_t)j->ndone * (size_t)j->npairs;
            q->status = j->st_buf + o;
            q->expanded = j->exp_buf + o;
            q->time_ns = j->ns_buf + o;
            char want[65] = "", got[65];
            if (bad_line) {   /* a row of a complete query that is not a row of this run */
                rc = gb_diag_set(d, EX_DATAERR, j->path, bad_line, 0, "expected a row of this run, "
                                 "%s: the journal was edited or damaged; rerun with --fresh", why);
            } else if (rows != j->npairs || parse_commit(s + 3, m - 3, j->ndone, j->npairs, q, want) != 0) {
                rc = gb_diag_set(d, EX_DATAERR, j->path, lineno, 0,
                                 "expected the completion line of query %ld after %d rows, "
                                 "found a malformed line after %ld rows", j->ndone, j->npairs, rows);
            } else {
                uint8_t dg[GB_SHA256_BYTES];
                gb_sha256(buf + cut, (size_t)(s - buf) - cut, dg);
                gb_sha256_hex(dg, got);
                if (strcmp(got, want) != 0) {
                    rc = gb_diag_set(d, EX_DATAERR, j->path, first_row, 0, "expected the rows of "
                                     "query %ld as the run wrote them (sha256:%.16s...), found "
                                     "other bytes (sha256:%.16s...): the journal was edited or "
                                     "damaged; rerun with --fresh", j->ndone, want, got);
                    break;
                }
                q->rows = buf + cut;
                q->rows_len = (size_t)(s - buf) - cut;
                q->row_line = first_row;
                j->ndone++;
                rows = 0;
                cut = pos;
                bad_line = 0;
            }
        } else if (m && s[0] == '#') {
            rc = gb_diag_set(d, EX_DATAERR, j->path, lineno, 0,
                             "expected a CSV row or a '#=' line, found another comment");
        } else {
            if (rows++ == 0) first_row = lineno;
            if (kinds && !bad_line && gb_rows_split(s, m, kinds, NULL, why, sizeof why) != 0) bad_line = lineno;
        }
    }
    j->text = buf;   /* done[].rows point into it */
    if (!rc && lineno < 2)
        rc = gb_diag_set(d, EX_DATAERR, j->path, lineno + 1, 0,
                         "expected a journal header, found %s", lineno ? "one line" : "nothing");
    if (rc) {
        release(j);
        return rc;
    }
    if (!(j->f = reopen(j, (off_t)cut))) {
        int e = errno;
        release(j);
        return gb_diag_set(d, EX_CANTCREAT, j->path, 0, 0,
                           "expected to continue the journal, found '%s'", strerror(e));
    }
    return 0;
}

/* Does the open file fd begin as a journal does (any version)? */
static int ours(int fd)
{
    char b[sizeof MAGIC_ANY - 1];
    return pread(fd, b, sizeof b, 0) == (ssize_t)sizeof b && memcmp(b, MAGIC_ANY, sizeof b) == 0;
}

/* The number of complete queries ("#=" lines) in the file at path, or -1
 * when it cannot be read. */
static long count_commits(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    long n = 0;
    int c, p1 = '\n', p2 = 0;
    while ((c = fgetc(f)) != EOF) {
        if (p2 == '\n' && p1 == '#' && c == '=') n++;
        p2 = p1;
        p1 = c;
    }
    fclose(f);
    return n;
}

int gb_journal_open(gb_journal *j, const char *out, const char *fingerprint,
                    const char *header, const char *kinds, int npairs, int mode, gb_diag *d)
{
    memset(j, 0, sizeof *j);
    j->lockfd = -1;
    j->npairs = npairs;
    int k = snprintf(j->path, sizeof j->path, "%s.partial", out);
    if (k < 0 || (size_t)k >= sizeof j->path)
        return gb_diag_set(d, EX_CANTCREAT, out, 0, 0, "expected an output path shorter than "
                           "%zu bytes, found %zu bytes", sizeof j->path - 9, strlen(out));
    /* lock first, change nothing before: a second writer must find it all as it was */
    struct stat st;
    int existed = lstat(j->path, &st) == 0;
    j->lockfd = open(j->path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0666);
    if (j->lockfd < 0)
        return gb_diag_set(d, EX_CANTCREAT, j->path, 0, 0, "expected a regular journal file, found "
                           "%s", errno == ELOOP ? "a symbolic link" : strerror(errno));
    if (fstat(j->lockfd, &st) != 0 || !S_ISREG(st.st_mode)) {
        unlock(j);
        return gb_diag_set(d, EX_CANTCREAT, j->path, 0, 0, "expected a regular journal file, found "
                           "%s", S_ISDIR(st.st_mode) ? "a directory" : "a special file");
    }
    if (flock(j->lockfd, LOCK_EX | LOCK_NB) != 0) {
        int e = errno;
        unlock(j);
        if (!existed) remove(j->path);
        if (e == EWOULDBLOCK)
            return gb_diag_set(d, EX_TEMPFAIL, j->path, 0, 0, "expected to be the only run writing "
                               "%s, found another run holding its journal", out);
        return gb_diag_set(d, EX_CANTCREAT, j->path, 0, 0, "expected a lockable journal, found '%s'",
                           strerror(e));
    }
    int rc;
    if (mode == GB_JOURNAL_RESUME && existed) {
        rc = resume(j, fingerprint, header, kinds, d);
    } else if (st.st_size > 0 && !ours(j->lockfd)) {
        char q[60], head[40];
        ssize_t hn = pread(j->lockfd, head, sizeof head, 0);
        gb_diag_quote(q, sizeof q, head, hn > 0 ? (size_t)hn : 0);
        unlock(j);
        return gb_diag_set(d, EX_CANTCREAT, j->path, 0, 0, "expected no file or a journal of "
                           "`gridbench run`, found another file (%s...): it is not removed; "
                           "move it away, or choose another --out", q);
    } else {
        long done = mode == GB_JOURNAL_NEW && st.st_size > 0 ? count_commits(j->path) : 0;
        if (done > 0) {
            unlock(j);
            return gb_diag_set(d, EX_CANTCREAT, j->path, 0, 0, "expected no journal of an earlier "
                               "run, found one with %ld complete queries: continue it with --resume "
                               "(same options), or start over with --fresh", done);
        }
        rc = start(j, fingerprint, header, d);
    }
    if (rc) unlock(j);
    return rc;
}

int gb_journal_commit(gb_journal *j, long index, long line, int scen_ok,
                      const uint8_t *status, const uint64_t *expanded,
                      const int64_t *time_ns, const char *rows, size_t len, gb_diag *d)
{
    uint8_t dg[GB_SHA256_BYTES];
    char hex[65];
    gb_sha256(rows, len, dg);
    gb_sha256_hex(dg, hex);
    if (len) fwrite(rows, 1, len, j->f);
    fprintf(j->f, "#=\t%ld\t%ld\t%d", index, line, scen_ok ? 1 : 0);
    for (int p = 0; p < j->npairs; p++)
        fprintf(j->f, "\t%u:%" PRIu64 ":%" PRId64, (unsigned)status[p], expanded[p], time_ns[p]);
    fprintf(j->f, "\tsha256:%s\n", hex);
    if (fflush(j->f) != 0 || ferror(j->f))
        return gb_diag_set(d, EX_IOERR, j->path, 0, 0, "expected to write the journal, found '%s'",
                           strerror(errno));
    return 0;
}

int gb_journal_finish(gb_journal *j, const char *out, gb_diag *d)
{
    int bad = fflush(j->f) != 0 || ferror(j->f);
    if (fclose(j->f) != 0) bad = 1;
    j->f = NULL;
    if (bad) {
        release(j);
        unlock(j);
        return gb_diag_set(d, EX_IOERR, j->path, 0, 0, "expected to write the journal, found '%s'",
                           strerror(errno));
    }
    FILE *in = fopen(j->path, "rb");
    if (!in) {
        release(j);
        unlock(j);
        return gb_diag_set(d, EX_NOINPUT, j->path, 0, 0, "expected to read the journal back, "
                           "found '%s'", strerror(errno));
    }
    char tmp[1200];
    FILE *o = gb_tmp_open(out, tmp, sizeof tmp, d);
    if (!o) {
        fclose(in);
        release(j);
        unlock(j);
        return d->code;
    }
    /* copy every line that does not start with '#' */
    char blk[1 << 16];
    size_t n;
    int at_start = 1, skip = 0;
    while ((n = fread(blk, 1, sizeof blk, in)) > 0) {
        size_t i = 0;
        while (i < n) {
            if (at_start) {
                skip = blk[i] == '#';
                at_start = 0;
            }
            char *nl = memchr(blk + i, '\n', n - i);
            size_t e = nl ? (size_t)(nl - blk) + 1 : n;
            if (!skip) fwrite(blk + i, 1, e - i, o);
            if (nl) at_start = 1;
            i = e;
        }
    }
    int rerr = ferror(in);
    fclose(in);
    release(j);
    if (rerr) {
        unlock(j);
        gb_tmp_abort(o, tmp);
        return gb_diag_set(d, EX_IOERR, j->path, 0, 0, "expected to read the journal back, found "
                           "a read error");
    }
    int rc = gb_tmp_commit(o, tmp, out, d);
    if (rc) { unlock(j); return rc; }
    remove(j->path);
    unlock(j);
    return 0;
}
