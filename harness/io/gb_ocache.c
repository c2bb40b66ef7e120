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
    int fd;                /* O_APPEND, or -1 once an append failed */
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

static void header_of(char *h, const char *sha, gb_model m)
{
    memset(h, ' ', HDR_BYTES);
    int k = snprintf(h, HDR_BYTES, "gridbench-oracle-cache 1 oracle=%d map=%s model=%s",
                     GB_OCACHE_ORACLE_VERSION, sha, gb_model_name(m));
    if (k > 0 && k < HDR_BYTES) h[k] = ' ';
    h[HDR_BYTES - 1] = '\n';
}

static int write_all(int fd, const void *buf, size_t n)
{
    const char *p = buf;
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0) { if (errno == EINTR) continue; return -1; }
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* Replace the file by the header and the records in memory (temp file +
 * rename), the caller holding the lock. */
static int rebuild(gb_ocache *c, const char *hdr)
{
    char tmp[1300];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", c->path, (long)getpid());
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0) return -1;
    int bad = write_all(fd, hdr, HDR_BYTES);
    for (size_t i = 0; !bad && i < c->cap; i++)
        if (c->slot[i].magic) bad = write_all(fd, &c->slot[i], REC_BYTES);
    if (close(fd) != 0) bad = 1;
    if (bad || rename(tmp, c->path) != 0) { unlink(tmp); return -1; }
    return 0;
}

gb_ocache *gb_ocache_open(const char *dir, const char *map_sha, gb_model m, gb_ocache_stats *st,
                          gb_diag *d)
{
    gb_ocache_stats dummy;
    if (!st) st = &dummy;
    memset(st, 0, sizeof *st);
    gb_ocache *c = gb_calloc(1, sizeof *c);
    if (!c) { gb_diag_set(d, EX_OSERR, dir, 0, 0, "expected memory, found none"); return NULL; }
    c->fd = -1;
    snprintf(c->sha, sizeof c->sha, "%s", map_sha);
    int k = snprintf(c->path, sizeof c->path, "%s/%s.%s.gboc", dir, map_sha, gb_model_name(m));
    if (k < 0 || (size_t)k >= sizeof c->path || strlen(map_sha) != 64) {
        gb_diag_set(d, EX_CANTCREAT, dir, 0, 0, "expected a cache directory path of at most "
                    "1000 bytes and a 64-digit map hash, found longer");
        gb_free(c);
        return NULL;
    }
    if (gb_make_dirs(dir) != 0) {
        gb_diag_set(d, EX_CANTCREAT, dir, 0, 0, "expected a writable oracle cache directory, "
                    "found '%s'", strerror(errno));
        gb_free(c);
        return NULL;
    }
    char hdr[HDR_BYTES], lockp[1300];
    header_of(hdr, map_sha, m);
    snprintf(lockp, sizeof lockp, "%s.lock", c->path);
    int lk = open(lockp, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (lk < 0 || flock(lk, LOCK_EX) != 0) {
        gb_diag_set(d, EX_CANTCREAT, lockp, 0, 0, "expected a lockable oracle cache file, found '%s'",
                    strerror(errno));
        if (lk >= 0) close(lk);
        gb_free(c);
        return NULL;
    }
    if (grow(c) != 0) goto oom;

    /* read what is there: header, whole records, the torn tail */
    int fd = open(c->path, O_RDONLY | O_CLOEXEC);
    int need_rebuild = 0;
    if (fd >= 0) {
        struct stat sb;
        char h[HDR_BYTES];
        if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode) || read(fd, h, HDR_BYTES) != HDR_BYTES
            || memcmp(h, hdr, HDR_BYTES) != 0) {
            need_rebuild = 1;   /* another version, a torn header, not a file: start over */
        } else {
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
                    if (insert(c, &buf[i]) != 0) { close(fd); goto oom; }
                    st->loaded++;
                }
                carry = have - nrec * REC_BYTES;
                memmove(buf, (char *)buf + nrec * REC_BYTES, carry);
            }
        }
        close(fd);
    } else {
        need_rebuild = 1;   /* no file yet: create it */
    }
    if (need_rebuild) {
        st->rebuilt = fd >= 0;
        if (rebuild(c, hdr) != 0) {
            gb_diag_set(d, EX_CANTCREAT, c->path, 0, 0, "expected a writable oracle cache file, "
                        "found '%s'", strerror(errno));
            goto fail;
        }
    }
    c->fd = open(c->path, O_WRONLY | O_APPEND | O_CLOEXEC);
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
    close(lk);
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
    if (c->fd < 0) return -1;
    if (write_all(c->fd, &r, REC_BYTES) != 0) {   /* one write of 32 bytes: atomic append */
        close(c->fd);
        c->fd = -1;
        return -1;
    }
    return 0;
}

const char *gb_ocache_path(const gb_ocache *c) { return c->path; }

void gb_ocache_close(gb_ocache *c)
{
    if (!c) return;
    if (c->fd >= 0) close(c->fd);
    gb_free(c->slot);
    gb_free(c);
}
