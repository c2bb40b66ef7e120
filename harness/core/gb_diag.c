/*
 * gb_diag.c -- filling, formatting and printing gb_diag records, plus the
 * whole-file reader shared by the loaders.  See gb_diag.h for the record's
 * invariants.  Nothing here allocates except gb_read_file(), and only
 * gb_diag_print() writes to a stream.
 */
#include "gb_diag.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "gb_alloc.h"

/* Marks a cut end of a windowed line ("..." would read as map cells). */
#define CUT "[...]"
#define CUT_LEN (sizeof CUT - 1)
/* Width of the window kept from a long source line: CUT + body + CUT +
 * NUL must fit in text. */
#define TEXT_BODY (sizeof(((gb_diag *)0)->text) - 2 * CUT_LEN - 1)
/* How many bytes of context to keep left of the caret in a window. */
#define TEXT_LEFT 60

static void copy_str(char *dst, size_t dstsz, const char *src)
{
    size_t n = src ? strlen(src) : 0;
    if (n >= dstsz) n = dstsz - 1;
    if (n) memcpy(dst, src, n);
    dst[n] = '\0';
}

void gb_diag_clear(gb_diag *d)
{
    if (d) memset(d, 0, sizeof *d);
}

int gb_diag_set(gb_diag *d, int code, const char *path, long line, long col,
                const char *fmt, ...)
{
    if (!d) return code;
    gb_diag_clear(d);
    d->code = code;
    copy_str(d->path, sizeof d->path, path);
    d->line = line > 0 ? line : 0;
    d->col = (line > 0 && col > 0) ? col : 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->msg, sizeof d->msg, fmt, ap);
    va_end(ap);
    return code;
}

/* Copy s[0..n) into dst, tabs kept, other non-printable bytes as '?'. */
static size_t put_printable(char *dst, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        dst[i] = (c == '\t' || (c >= 0x20 && c < 0x7f)) ? (char)c : '?';
    }
    return n;
}

void gb_diag_set_text(gb_diag *d, const char *line, size_t len)
{
    if (!d) return;
    /* drop one line ending (LF or CRLF) if the caller left it on; a CR
     * that does not end a CRLF is part of the line as the loaders saw it
     * and shows as '?', so the caret lines up with the columns counted */
    if (len > 0 && line[len - 1] == '\n') {
        len--;
        if (len > 0 && line[len - 1] == '\r') len--;
    }
    d->text[0] = '\0';
    d->text_col = 0;
    if (len < sizeof d->text) {
        d->text[put_printable(d->text, line, len)] = '\0';
        return;
    }
    /* Too long: keep a window of TEXT_BODY bytes around the caret. */
    size_t caret = d->col > 0 ? (size_t)d->col - 1 : 0;
    size_t start = caret > TEXT_LEFT ? caret - TEXT_LEFT : 0;
    if (start > 0 && start + TEXT_BODY > len)
        start = len > TEXT_BODY ? len - TEXT_BODY : 0;
    size_t body = len - start < TEXT_BODY ? len - start : TEXT_BODY;
    size_t k = 0;
    if (start > 0) { memcpy(d->text, CUT, CUT_LEN); k = CUT_LEN; }
    k += put_printable(d->text + k, line + start, body);
    if (start + body < len) { memcpy(d->text + k, CUT, CUT_LEN); k += CUT_LEN; }
    d->text[k] = '\0';
    if (d->col > 0)
        d->text_col = (long)(caret - start) + 1 + (start > 0 ? (long)CUT_LEN : 0);
}

void gb_diag_format(const gb_diag *d, char *buf, size_t n)
{
    if (n == 0) return;
    const char *path = d->path[0] ? d->path : "<input>";
    if (d->line > 0 && d->col > 0)
        snprintf(buf, n, "%s:%ld:%ld: error: %s", path, d->line, d->col, d->msg);
    else if (d->line > 0)
        snprintf(buf, n, "%s:%ld: error: %s", path, d->line, d->msg);
    else
        snprintf(buf, n, "%s: error: %s", path, d->msg);
}

void gb_diag_print(const gb_diag *d, FILE *f)
{
    if (!d || d->code == 0) return;
    char buf[sizeof d->path + sizeof d->msg + 64];
    gb_diag_format(d, buf, sizeof buf);
    fprintf(f, "%s\n", buf);
    if (!d->text[0]) return;
    fprintf(f, "  %s\n", d->text);
    long tc = d->text_col > 0 ? d->text_col : d->col;
    if (tc <= 0) return;
    fputs("  ", f);
    size_t tlen = strlen(d->text);
    for (long i = 0; i < tc - 1; i++)
        fputc((size_t)i < tlen && d->text[i] == '\t' ? '\t' : ' ', f);
    fputs("^\n", f);
}

void gb_diag_quote(char *out, size_t outsz, const char *s, size_t n)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t k = 0;
    if (outsz < 8) { if (outsz) out[0] = '\0'; return; }
    out[k++] = '\'';
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        size_t need = (c >= 0x20 && c < 0x7f) ? 1 : 4;
        /* keep room for CUT + "'" + NUL unless this is the last byte */
        size_t reserve = (i + 1 < n) ? CUT_LEN + 2 : 2;
        if (k + need + reserve > outsz) {
            memcpy(out + k, CUT, CUT_LEN);
            k += CUT_LEN;
            break;
        }
        if (need == 1) {
            out[k++] = (char)c;
        } else {
            out[k++] = '\\'; out[k++] = 'x';
            out[k++] = hex[c >> 4]; out[k++] = hex[c & 15];
        }
    }
    out[k++] = '\'';
    out[k] = '\0';
}

FILE *gb_open_regular(const char *path, long long *size, gb_diag *d)
{
    /* O_NONBLOCK: opening a FIFO must not wait for a writer before its
     * type is known; a regular file reads the same either way */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        gb_diag_set(d, EX_NOINPUT, path, 0, 0, "expected a readable file, found '%s'", strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        gb_diag_set(d, EX_NOINPUT, path, 0, 0, "expected a readable file, found '%s'", strerror(e));
        return NULL;
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        gb_diag_set(d, EX_NOINPUT, path, 0, 0, "expected a regular file, found %s",
                    S_ISDIR(st.st_mode) ? "a directory" : S_ISFIFO(st.st_mode) ? "a FIFO"
                    : "a special file");
        return NULL;
    }
    int fl = fcntl(fd, F_GETFL);
    FILE *f = fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) != 0 ? NULL : fdopen(fd, "rb");
    if (!f) {
        int e = errno;
        close(fd);
        gb_diag_set(d, EX_NOINPUT, path, 0, 0, "expected a readable file, found '%s'", strerror(e));
        return NULL;
    }
    if (size) *size = (long long)st.st_size;
    return f;
}

int gb_out_check(const char *path, char *const *inputs, int n, gb_diag *d)
{
    struct stat st;
    if (!path || !path[0]) return gb_diag_set(d, EX_USAGE, "", 0, 0, "expected an output file name, found an empty one");
    if (lstat(path, &st) == 0) {
        if (!S_ISREG(st.st_mode))
            return gb_diag_set(d, EX_CANTCREAT, path, 0, 0, "expected an output that is a regular file "
                               "or does not exist yet, found %s",
                               S_ISDIR(st.st_mode) ? "a directory" : S_ISLNK(st.st_mode) ? "a symbolic link"
                               : S_ISFIFO(st.st_mode) ? "a FIFO" : "a special file (a device or socket)");
        for (int i = 0; i < n; i++) {
            struct stat in;
            if (inputs[i] && stat(inputs[i], &in) == 0 && in.st_dev == st.st_dev && in.st_ino == st.st_ino)
                return gb_diag_set(d, EX_CANTCREAT, path, 0, 0, "expected an output that is none of "
                                   "the inputs, found the input %s", inputs[i]);
        }
    } else if (errno != ENOENT) {
        return gb_diag_set(d, EX_CANTCREAT, path, 0, 0, "expected a writable output path, found '%s'",
                           strerror(errno));
    }
    /* the temp file and the rename happen in the output's folder */
    char dir[1100];
    const char *sl = strrchr(path, '/');
    if (sl) snprintf(dir, sizeof dir, "%.*s", (int)(sl - path) + (sl == path), path);
    else snprintf(dir, sizeof dir, ".");
    if (access(dir, W_OK | X_OK) != 0)
        return gb_diag_set(d, EX_CANTCREAT, path, 0, 0, "expected a writable folder %s, found '%s'",
                           dir, strerror(errno));
    return 0;
}

int gb_read_file(const char *path, char **buf, size_t *len, gb_diag *d)
{
    gb_diag_clear(d);
    *buf = NULL;
    *len = 0;
    long long fsize;
    FILE *f = gb_open_regular(path, &fsize, d);
    if (!f) return d->code;
    /* Start from the size stat reports; grow if the file turns out longer. */
    size_t cap = fsize > 0 ? (size_t)fsize + 1 : 4096;
    char *p = gb_malloc(cap);
    if (!p) {
        fclose(f);
        return gb_diag_set(d, EX_OSERR, path, 0, 0,
                           "expected %zu bytes of memory for the file, found none", cap);
    }
    size_t n = 0;
    for (;;) {
        if (n + 1 >= cap) {
            size_t ncap = cap * 2;
            char *q = ncap > cap ? gb_realloc(p, ncap) : NULL;
            if (!q) {
                gb_free(p);
                fclose(f);
                return gb_diag_set(d, EX_OSERR, path, 0, 0,
                                   "expected memory to grow the file buffer "
                                   "past %zu bytes, found none", cap);
            }
            p = q;
            cap = ncap;
        }
        size_t got = fread(p + n, 1, cap - 1 - n, f);
        n += got;
        if (got == 0) break;
    }
    if (ferror(f)) {
        int e = errno;
        gb_free(p);
        fclose(f);
        return gb_diag_set(d, EX_IOERR, path, 0, 0,
                           "expected to read the whole file, found read error '%s' "
                           "after %zu bytes", e ? strerror(e) : "unknown", n);
    }
    fclose(f);
    p[n] = '\0';
    *buf = p;
    *len = n;
    return 0;
}

/* Temporary files not yet committed, removed if SIGINT, SIGTERM or SIGHUP
 * ends the process (the handler only calls unlink, raise and signal,
 * which are async-signal-safe).  A slot is free when its first byte is 0. */
#define TMP_SLOTS 32
static char tmp_live[TMP_SLOTS][1100];

static char sig_note[1300];   /* said on stderr when a signal ends the process */

static void tmp_on_signal(int sig)
{
    for (int i = 0; i < TMP_SLOTS; i++)
        if (tmp_live[i][0]) unlink(tmp_live[i]);
    if (sig_note[0]) {
        size_t n = 0;
        while (n < sizeof sig_note && sig_note[n]) n++;
        ssize_t w = write(2, sig_note, n);
        (void)w;
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

static int armed;

static void arm(void)
{
    if (armed) return;
    armed = 1;
    signal(SIGINT, tmp_on_signal);
    signal(SIGTERM, tmp_on_signal);
    signal(SIGHUP, tmp_on_signal);
}

void gb_signal_note(const char *msg)
{
    if (!msg) { sig_note[0] = '\0'; return; }
    snprintf(sig_note, sizeof sig_note, "%s", msg);
    arm();
}

static void tmp_track(const char *tmp)
{
    for (int i = 0; i < TMP_SLOTS; i++) {
        if (tmp_live[i][0]) continue;
        if (strlen(tmp) >= sizeof tmp_live[i]) return;
        memcpy(tmp_live[i], tmp, strlen(tmp) + 1);
        break;
    }
    arm();
}

static void tmp_untrack(const char *tmp)
{
    for (int i = 0; i < TMP_SLOTS; i++)
        if (tmp_live[i][0] && strcmp(tmp_live[i], tmp) == 0) tmp_live[i][0] = '\0';
}

void gb_tmp_abort(FILE *f, const char *tmp)
{
    if (f) fclose(f);
    if (tmp && tmp[0]) {
        remove(tmp);
        tmp_untrack(tmp);
    }
}

/* A name for the k-th try: "<path>.tmp.<pid>" first, then a random tail
 * (k > 0), so that a name somebody planted costs a retry, nothing more. */
static int tmp_name(char *tmp, size_t tmpsz, const char *path, int k)
{
    static const char al[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    static uint64_t seq;
    if (k == 0) return snprintf(tmp, tmpsz, "%s.tmp.%ld", path, (long)getpid());
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t x = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 30) ^ ((uint64_t)getpid() << 17)
                 ^ (++seq * 0x9E3779B97F4A7C15ull) ^ (uint64_t)(uintptr_t)tmp;
    char r[9];
    for (int i = 0; i < 8; i++) {
        x ^= x >> 31; x *= 0xBF58476D1CE4E5B9ull; x ^= x >> 27;
        r[i] = al[x % (sizeof al - 1)];
    }
    r[8] = '\0';
    return snprintf(tmp, tmpsz, "%s.tmp.%ld.%s", path, (long)getpid(), r);
}

int gb_tmp_create(const char *path, unsigned mode, char *tmp, size_t tmpsz, gb_diag *d)
{
    enum { TRIES = 64 };
    for (int k = 0; k < TRIES; k++) {
        int n = tmp_name(tmp, tmpsz, path, k);
        if (n < 0 || (size_t)n >= tmpsz) {
            if (tmpsz) tmp[0] = '\0';
            gb_diag_set(d, EX_CANTCREAT, path, 0, 0,
                        "expected an output path shorter than %zu bytes, found %zu bytes",
                        tmpsz > 24 ? tmpsz - 24 : 0, strlen(path));
            return -1;
        }
        /* O_EXCL: never open what is already there (O_NOFOLLOW says the
         * same of a symbolic link, which O_EXCL already refuses) */
        int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, (mode_t)mode);
        if (fd >= 0) {
            tmp_track(tmp);
            return fd;
        }
        if (errno != EEXIST && errno != ELOOP) {
            gb_diag_set(d, EX_CANTCREAT, tmp, 0, 0, "expected a writable file, found '%s'",
                        strerror(errno));
            if (tmpsz) tmp[0] = '\0';
            return -1;
        }
    }
    gb_diag_set(d, EX_CANTCREAT, tmp, 0, 0, "expected a fresh temporary file name, found %d "
                "names taken (by files or links that are not ours)", TRIES);
    if (tmpsz) tmp[0] = '\0';
    return -1;
}

FILE *gb_tmp_open(const char *path, char *tmp, size_t tmpsz, gb_diag *d)
{
    struct stat st;   /* never replace what is not a regular file (a device, a FIFO, a link) */
    if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        if (tmpsz) tmp[0] = '\0';
        gb_out_check(path, NULL, 0, d);
        return NULL;
    }
    int fd = gb_tmp_create(path, 0666, tmp, tmpsz, d);
    if (fd < 0) return NULL;
    FILE *f = fdopen(fd, "wb");
    if (!f) {
        gb_diag_set(d, EX_CANTCREAT, tmp, 0, 0, "expected a writable file, found '%s'", strerror(errno));
        close(fd);
        gb_tmp_abort(NULL, tmp);
    }
    return f;
}

int gb_tmp_close(FILE *f, const char *tmp, gb_diag *d)
{
    int bad = fflush(f) != 0 || ferror(f);
    int e = bad ? errno : 0;
    if (fclose(f) != 0 && !bad) { bad = 1; e = errno; }
    if (bad) {
        remove(tmp);
        tmp_untrack(tmp);
        return gb_diag_set(d, EX_IOERR, tmp, 0, 0,
                           "expected all bytes written, found write error '%s'",
                           e ? strerror(e) : "unknown");
    }
    return 0;
}

int gb_tmp_rename(const char *tmp, const char *path, gb_diag *d)
{
    tmp_untrack(tmp);
    if (rename(tmp, path) != 0) {
        int e = errno;
        remove(tmp);
        return gb_diag_set(d, EX_CANTCREAT, path, 0, 0,
                           "expected to rename the temporary file over it, "
                           "found '%s'", strerror(e));
    }
    return 0;
}

int gb_tmp_commit(FILE *f, const char *tmp, const char *path, gb_diag *d)
{
    int rc = gb_tmp_close(f, tmp, d);
    return rc ? rc : gb_tmp_rename(tmp, path, d);
}

int gb_make_dirs(const char *dir)
{
    char b[1100];
    int k = snprintf(b, sizeof b, "%s", dir);
    if (k < 0 || (size_t)k >= sizeof b) { errno = ENAMETOOLONG; return -1; }
    for (char *p = b + 1; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        if (mkdir(b, 0755) != 0 && errno != EEXIST) return -1;
        *p = '/';
    }
    return mkdir(b, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

int gb_cache_dir(const char *sub, char *buf, size_t n)
{
    const char *x = getenv("XDG_CACHE_HOME");
    int k;
    if (x && x[0] == '/') k = snprintf(buf, n, "%s/gridbench/%s", x, sub);
    else if ((x = getenv("HOME")) && x[0]) k = snprintf(buf, n, "%s/.cache/gridbench/%s", x, sub);
    else return -1;
    return k < 0 || (size_t)k >= n ? -1 : 0;
}
