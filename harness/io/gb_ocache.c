/*
 * gb_ocache.c -- the oracle cache (format and guarantees in gb_ocache.h).
 *
 * In memory: an open-addressing hash table of records keyed by the four
 * coordinates (linear probing, load <= 1/2, grown by doubling); a later
 * put of a key overwrites.  Time: O(1) expected per get/put; O(file) to
 * open, O(file) again when it must be rebuilt.
 */
#include "gb_ocache.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gb_alloc.h"

#define HDR_BYTES 128
#define REC_BYTES 32
#define REC_MAGIC 0x43424f47u   /* "GOBC" little-endian */

typedef struct rec {
    int32_t sx, sy, gx, gy, straight, diag;
    uint32_t check, magic;
} rec;
_Static_assert(sizeof(rec) == REC_BYTES, "a record is 32 bytes");

struct gb_ocache {
    int fd;                /* O_APPEND, or -1: read-only, or an append failed */
    int ro_errno;          /* why fd is -1 (errno), for the caller's warning */
    char path[1200];
    char sha[65];
    rec *slot;             /* [cap], magic == 0: empty */
    size_t cap, n;
};

int gb_ocache_default_dir(char *buf, size_t n)
{
    return gb_cache_dir("oracle", buf, n);
}

static uint32_t rec_check(const rec *r, const char *sha)
{
    uint32_t h = 2166136261u;
    const unsigned char *b = (const unsigned char *)r;
    for (int i = 0; i < 24; i++) h = (h ^ b[i]) * 16777619u;
    for (int i = 0; i < 64; i++) h = (h ^ (unsigned char)sha[i]) * 16777619u;
    return h;
}

static size_t key_hash(int32_t sx, int32_t sy, int32_t gx, int32_t gy)
{
    uint64_t a = ((uint64_t)(uint32_t)sx << 32) | (uint32_t)sy;
    uint64_t b = ((uint64_t)(uint32_t)gx << 32) | (uint32_t)gy;
    uint64_t h = a * 0x9E3779B97F4A7C15ull ^ (b + 0x632BE59BD9B4E019ull) * 0xC2B2AE3D27D4EB4Full;
    h ^= h >> 29;
    return (size_t)h;
}

static rec *find(const gb_ocache *c, int32_t sx, int32_t sy, int32_t gx, int32_t gy)
{
    size_t m = c->cap - 1, i = key_hash(sx, sy, gx, gy) & m;
    for (;;) {
        rec *r = &c->slot[i];
        if (!r->magic || (r->sx == sx && r->sy == sy && r->gx == gx && r->gy == gy)) return r;
        i = (i + 1) & m;
    }
}

static int grow(gb_ocache *c)
{
    size_t ncap = c->cap ? 2 * c->cap : 1024;
    rec *ns = gb_calloc(ncap, sizeof *ns);
    if (!ns) return -1;
    rec *old = c->slot;
    size_t ocap = c->cap;
    c->slot = ns;
    c->cap = ncap;
    for (size_t i = 0; i < ocap; i++)
        if (old[i].magic) *find(c, old[i].sx, old[i].sy, old[i].gx, old[i].gy) = old[i];
    gb_free(old);
    return 0;
}

static int insert(gb_ocache *c, const rec *r)
{
    if (2 * (c->n + 1) > c->cap && grow(c) != 0) return -1;
    rec *s = find(c, r->sx, r->sy, r->gx, r->gy);
    if (!s->magic) c->n++;
    *s = *r;
    return 0;
}

static void header_of(char *h, const char *sha, const char *kind)
{
    memset(h, ' ', HDR_BYTES);
    int k = snprintf(h, HDR_BYTES, "gridbench-oracle-cache 1 oracle=%d map=%s model=%s",
                     GB_OCACHE_ORACLE_VERSION, sha, kind);
    if (k > 0 && k < HDR_BYTES) h[k] = ' ';
    h[HDR_BYTES - 1] = '\n';
}

int gb_cache_write_all(int fd, const void *buf, size_t n)
{
    const char *p = buf;
    while (n) {
        ssize_t w = write(fd, p, n > ((size_t)1 << 30) ? (size_t)1 << 30 : n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) { if (w == 0) errno = EIO; return -1; }
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* The trust rule (ssh's StrictModes): what the cache reads must belong to
 * us or to root, and no other user may write it -- neither the file nor
 * the folder holding it (who can write a folder can replace its files).
 * A folder above the cache folder may be writable by others when its
 * sticky bit is set (/tmp): they cannot rename or remove what is ours in
 * it.  The cache folder itself gets no such exception: there others could
 * plant the file names the cache opens.  NULL when *sb passes, else what
 * is wrong ("found ..."). */
const char *gb_cache_trust_of(const struct stat *sb, int sticky_ok, char *why, size_t n)
{
    uid_t me = geteuid();
    if (sb->st_uid != me && sb->st_uid != 0) {
        snprintf(why, n, "owned by uid %ld", (long)sb->st_uid);
        return why;
    }
    if ((sb->st_mode & (S_IWGRP | S_IWOTH)) && !(sticky_ok && S_ISDIR(sb->st_mode) && (sb->st_mode & S_ISVTX))) {
        snprintf(why, n, "mode %04o (%s-writable)", (unsigned)(sb->st_mode & 07777),
                 sb->st_mode & S_IWOTH ? "world" : "group");
        return why;
    }
    return NULL;
}

#define UNTRUSTED(d, path, what, why) UNTRUSTED_K(d, "oracle", path, what, why)
#define UNTRUSTED_K(d, kind, path, what, why)                                                      \
    gb_diag_set(d, EX_NOPERM, path, 0, 0, "expected %s %s cache %s owned by uid %ld or root "     \
                "that no other user can write, found %s; it is ignored",                          \
                (kind)[0] == 'o' ? "an" : "a", kind, what, (long)geteuid(), why)

/* Check the cache folder and every folder above it (after resolving
 * links) by trust_of.  0, or EX_NOPERM / EX_CANTCREAT with *d filled. */
int gb_cache_trust_dirs(const char *dir, const char *kind, gb_diag *d)
{
    char real[PATH_MAX], why[64];
    if (!realpath(dir, real))
        return gb_diag_set(d, EX_CANTCREAT, dir, 0, 0, "expected %s %s cache directory, found '%s'",
                           kind[0] == 'o' ? "an" : "a", kind, strerror(errno));
    size_t n = strlen(real);
    for (size_t i = 1; i <= n; i++) {
        if (i < n && real[i] != '/') continue;
        char c = real[i];
        real[i] = '\0';
        struct stat sb;
        const char *bad = stat(real, &sb) != 0 ? strerror(errno)
                                               : gb_cache_trust_of(&sb, i < n, why, sizeof why);
        if (bad) {
            int rc = UNTRUSTED_K(d, kind, real, i < n ? "directory (and the ones above it)" : "directory", bad);
            real[i] = c;
            return rc;
        }
        real[i] = c;
    }
    return 0;
}

/* The records of the open file fd into c (emptied first), the counts into
 * *st.  0: the file is intact; 1: it must be rebuilt (another version, a
 * torn header or tail, a corrupt record); -1: out of memory. */
static int load(gb_ocache *c, int fd, const char *hdr, gb_ocache_stats *st)
{
    memset(c->slot, 0, c->cap * sizeof *c->slot);
    c->n = 0;
    st->loaded = st->dropped = 0;
    struct stat sb;
    char h[HDR_BYTES];
    if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode) || read(fd, h, HDR_BYTES) != HDR_BYTES
        || memcmp(h, hdr, HDR_BYTES) != 0)
        return 1;   /* another version, a torn header, not a file: start over */
    int need_rebuild = 0;
    off_t body = sb.st_size - HDR_BYTES;
    if (body % REC_BYTES) { need_rebuild = 1; st->dropped++; }
    rec buf[256];
    ssize_t r;
    size_t carry = 0;
    while ((r = read(fd, (char *)buf + carry, sizeof buf - carry)) > 0) {
        size_t have = carry + (size_t)r, nrec = have / REC_BYTES;
        for (size_t i = 0; i < nrec; i++) {
            if (buf[i].magic != REC_MAGIC || buf[i].check != rec_check(&buf[i], c->sha)) {
                st->dropped++;
                need_rebuild = 1;
                continue;
            }
            if (insert(c, &buf[i]) != 0) return -1;
            st->loaded++;
        }
        carry = have - nrec * REC_BYTES;
        memmove(buf, (char *)buf + nrec * REC_BYTES, carry);
    }
    return need_rebuild;
}

/* Open c->path for reading (never through a link) and check it by
 * trust_of.  The descriptor; -1 when there is no file (ENOENT); -2 with
 * *d filled when the file may not be trusted or cannot be read. */
static int open_trusted(gb_ocache *c, gb_diag *d)
{
    char why[64];
    int fd = open(c->path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENOENT) return -1;
        if (errno == ELOOP) UNTRUSTED(d, c->path, "file", "a symbolic link");
        else gb_diag_set(d, EX_NOINPUT, c->path, 0, 0, "expected a readable oracle cache file, "
                         "found '%s'", strerror(errno));
        return -2;
    }
    struct stat sb;
    const char *bad = fstat(fd, &sb) != 0 ? strerror(errno) : gb_cache_trust_of(&sb, 0, why, sizeof why);
    if (bad) {
        UNTRUSTED(d, c->path, "file", bad);
        close(fd);
        return -2;
    }
    return fd;
}

/* Replace the file by the header and the records in memory (a fresh temp
 * file, 0644, and a rename), the caller holding the lock. */
static int rebuild(gb_ocache *c, const char *hdr, gb_diag *d)
{
    char tmp[1300];
    int fd = gb_tmp_create(c->path, 0644, tmp, sizeof tmp, d);
    if (fd < 0) return -1;
    int bad = gb_cache_write_all(fd, hdr, HDR_BYTES);
    for (size_t i = 0; !bad && i < c->cap; i++)
        if (c->slot[i].magic) bad = gb_cache_write_all(fd, &c->slot[i], REC_BYTES);
    int e = errno;
    if (close(fd) != 0 && !bad) { bad = 1; e = errno; }
    if (bad) {
        gb_tmp_abort(NULL, tmp);
        gb_diag_set(d, EX_CANTCREAT, c->path, 0, 0, "expected a writable oracle cache file, found '%s'",
                    strerror(e));
        return -1;
    }
    return gb_tmp_rename(tmp, c->path, d) ? -1 : 0;
}

/* Errors that say "read-only" (the permission bits, a read-only mount). */
static int denied(int e) { return e == EACCES || e == EPERM || e == EROFS; }

gb_ocache *gb_ocache_open(const char *dir, const char *map_sha, gb_model m, gb_ocache_stats *st,
                          gb_diag *d)
{
    return gb_ocache_open_kind(dir, map_sha, gb_model_name(m), st, d);
}

gb_ocache *gb_ocache_open_kind(const char *dir, const char *map_sha, const char *kind,
                               gb_ocache_stats *st, gb_diag *d)
{
    gb_ocache_stats dummy;
    if (!st) st = &dummy;
    memset(st, 0, sizeof *st);
    gb_ocache *c = gb_calloc(1, sizeof *c);
    if (!c) { gb_diag_set(d, EX_OSERR, dir, 0, 0, "expected memory, found none"); return NULL; }
    c->fd = -1;
    snprintf(c->sha, sizeof c->sha, "%s", map_sha);
    int k = snprintf(c->path, sizeof c->path, "%s/%s.%s.gboc", dir, map_sha, kind);
    if (k < 0 || (size_t)k >= sizeof c->path || strlen(map_sha) != 64 || strlen(kind) > 40
        || strchr(kind, '/') || kind[0] == '.') {
        gb_diag_set(d, EX_CANTCREAT, dir, 0, 0, "expected a cache directory path of at most "
                    "1000 bytes, a 64-digit map hash and a plain kind name, found otherwise");
        gb_free(c);
        return NULL;
    }
    if (gb_make_dirs(dir) != 0) {
        gb_diag_set(d, EX_CANTCREAT, dir, 0, 0, "expected a writable oracle cache directory, "
                    "found '%s'", strerror(errno));
        gb_free(c);
        return NULL;
    }
    char hdr[HDR_BYTES], lockp[1300], why[64];
    header_of(hdr, map_sha, kind);
    snprintf(lockp, sizeof lockp, "%s.lock", c->path);
    int lk = -1, fd;
    if (gb_cache_trust_dirs(dir, "oracle", d) != 0) goto fail;
    if (grow(c) != 0) goto oom;

    /* Reading takes no lock (records are only appended, a rebuild is a
     * rename), so a cache this process may not write is still used. */
    fd = open_trusted(c, d);
    if (fd == -2) goto fail;
    int need = fd < 0 ? 2 : load(c, fd, hdr, st);
    if (fd >= 0) close(fd);
    if (need < 0) goto oom;
    if (need == 0) {
        c->fd = open(c->path, O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC);
        if (c->fd < 0 && !denied(errno)) {
            gb_diag_set(d, EX_CANTCREAT, c->path, 0, 0, "expected a writable oracle cache file, "
                        "found '%s'", strerror(errno));
            goto fail;
        }
        if (c->fd < 0) c->ro_errno = errno;
        st->readonly = c->fd < 0;
        return c;
    }

    /* To create or rebuild the file: under the lock, look again (another
     * process may have done it meanwhile). */
    lk = open(lockp, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (lk < 0) {
        int e = errno;
        if (e == ELOOP) UNTRUSTED(d, lockp, "lock file", "a symbolic link");
        else if (denied(e) && need == 1)
            gb_diag_set(d, EX_NOPERM, c->path, 0, 0, "expected an intact oracle cache file, found %s "
                        "and no write access to rebuild it; it is ignored",
                        st->dropped ? "torn or corrupt entries" : "another version");
        else gb_diag_set(d, EX_CANTCREAT, lockp, 0, 0, "expected a lockable oracle cache file, found "
                         "'%s'", strerror(e));
        goto fail;
    }
    struct stat sb;
    const char *bad;
    if (fstat(lk, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        gb_diag_set(d, EX_CANTCREAT, lockp, 0, 0, "expected a regular lock file, found another kind");
        goto fail;
    }
    if ((bad = gb_cache_trust_of(&sb, 0, why, sizeof why))) {   /* a lock others hold would block us */
        UNTRUSTED(d, lockp, "lock file", bad);
        goto fail;
    }
    if (flock(lk, LOCK_EX) != 0) {
        gb_diag_set(d, EX_CANTCREAT, lockp, 0, 0, "expected a lockable oracle cache file, found '%s'",
                    strerror(errno));
        goto fail;
    }
    fd = open_trusted(c, d);
    if (fd == -2) goto fail;
    need = fd < 0 ? 2 : load(c, fd, hdr, st);
    if (fd >= 0) close(fd);
    if (need < 0) goto oom;
    if (need) {
        st->rebuilt = need == 1;
        if (rebuild(c, hdr, d) != 0) goto fail;
    }
    c->fd = open(c->path, O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC);
    if (c->fd < 0) {
        gb_diag_set(d, EX_CANTCREAT, c->path, 0, 0, "expected a writable oracle cache file, found '%s'",
                    strerror(errno));
        goto fail;
    }
    close(lk);
    return c;
oom:
    gb_diag_set(d, EX_OSERR, c->path, 0, 0, "expected memory for the oracle cache, found none");
fail:
    if (lk >= 0) close(lk);
    gb_free(c->slot);
    gb_free(c);
    return NULL;
}

int gb_ocache_get(const gb_ocache *c, int32_t sx, int32_t sy, int32_t gx, int32_t gy,
                  int64_t *straight, int64_t *diag)
{
    const rec *r = find(c, sx, sy, gx, gy);
    if (!r->magic) return 0;
    *straight = r->straight;
    *diag = r->diag;
    return 1;
}

int gb_ocache_put(gb_ocache *c, int32_t sx, int32_t sy, int32_t gx, int32_t gy,
                  int64_t straight, int64_t diag)
{
    rec r = { sx, sy, gx, gy, (int32_t)straight, diag < 0 ? -1 : (int32_t)diag, 0, REC_MAGIC };
    r.check = rec_check(&r, c->sha);
    if (insert(c, &r) != 0) return -2;
    if (c->fd < 0) { errno = c->ro_errno ? c->ro_errno : EBADF; return -1; }
    if (gb_cache_write_all(c->fd, &r, REC_BYTES) != 0) {   /* one write of 32 bytes: atomic append */
        c->ro_errno = errno;
        close(c->fd);
        c->fd = -1;
        errno = c->ro_errno;
        return -1;
    }
    return 0;
}

/* A real value rides in the two step-count fields: the low and the high
 * 32 bits of the double.  A cost is >= 0, so its sign bit is 0 and the high
 * word, read as int32, is >= 0; -1 there says "unreachable", as for
 * step counts. */
int gb_ocache_get_real(const gb_ocache *c, int32_t sx, int32_t sy, int32_t gx, int32_t gy,
                       int *reachable, double *cost)
{
    int64_t lo, hi;
    if (!gb_ocache_get(c, sx, sy, gx, gy, &lo, &hi)) return 0;
    *reachable = hi >= 0;
    *cost = 0.0;
    if (hi >= 0) {
        uint64_t bits = (uint64_t)(uint32_t)hi << 32 | (uint32_t)lo;
        memcpy(cost, &bits, sizeof bits);
        if (!(*cost >= 0.0) || *cost == HUGE_VAL) return 0;   /* not a cost: a miss */
    }
    return 1;
}

int gb_ocache_put_real(gb_ocache *c, int32_t sx, int32_t sy, int32_t gx, int32_t gy, int reachable,
                       double cost)
{
    if (!reachable) return gb_ocache_put(c, sx, sy, gx, gy, 0, -1);
    if (!(cost >= 0.0) || cost == HUGE_VAL) { errno = EINVAL; return -1; }
    uint64_t bits;
    memcpy(&bits, &cost, sizeof bits);
    return gb_ocache_put(c, sx, sy, gx, gy, (int32_t)(uint32_t)bits, (int32_t)(bits >> 32));
}

const char *gb_ocache_path(const gb_ocache *c) { return c->path; }

void gb_ocache_close(gb_ocache *c)
{
    if (!c) return;
    if (c->fd >= 0) close(c->fd);
    gb_free(c->slot);
    gb_free(c);
}
