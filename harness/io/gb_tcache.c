/*
 * gb_tcache.c -- the table cache (format and guarantees in gb_tcache.h):
 * the gb_store callbacks over one file per map and table name.
 */
#include "gb_tcache.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gb_alloc.h"
#include "gb_ocache.h"

struct gb_tcache {
    gb_store st;          /* ctx = this */
    char dir[1024];
    char sha[65];
    char note[2048];      /* events since the last gb_tcache_note */
    char out[2048];       /* the text gb_tcache_note returned */
    int warn;             /* a file was refused since then */
};

typedef struct tfile {
    gb_tcache *c;
    int fd;
    char path[1300];      /* the file (reading) or the temp file (writing) */
    char final[1300];     /* writing: the name it gets */
} tfile;

static void note(gb_tcache *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(gb_tcache *c, const char *fmt, ...)
{
    size_t k = strlen(c->note);
    if (k + 2 >= sizeof c->note) return;
    if (k) c->note[k++] = '\n';
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->note + k, sizeof c->note - k, fmt, ap);
    va_end(ap);
}

static int name_ok(const char *name)
{
    if (!*name || strlen(name) > 64) return 0;
    for (const char *p = name; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '.' || *p == '-'))
            return 0;
    return 1;
}

static void *t_open_read(void *ctx, const char *name, uint64_t *size)
{
    gb_tcache *c = ctx;
    if (!name_ok(name)) return NULL;
    tfile *f = gb_calloc(1, sizeof *f);
    if (!f) return NULL;
    f->c = c;
    snprintf(f->path, sizeof f->path, "%s/%s.%s.gbt", c->dir, c->sha, name);
    f->fd = open(f->path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    struct stat sb;
    char why[64];
    const char *bad = NULL;
    if (f->fd < 0) {
        if (errno != ENOENT) note(c, "%s: warning: expected a readable table cache file, found "
                                  "'%s'; the table is built", f->path, strerror(errno));
        if (errno != ENOENT) c->warn = 1;
        gb_free(f);
        return NULL;
    }
    if (fstat(f->fd, &sb) != 0) bad = strerror(errno);
    else if (!S_ISREG(sb.st_mode)) bad = "not a regular file";
    else bad = gb_cache_trust_of(&sb, 0, why, sizeof why);
    if (bad) {
        note(c, "%s: warning: expected a table cache file owned by uid %ld or root that no other "
             "user can write, found %s; it is ignored", f->path, (long)geteuid(), bad);
        c->warn = 1;
        close(f->fd);
        gb_free(f);
        return NULL;
    }
    *size = (uint64_t)sb.st_size;
    return f;
}

static int read_all(int fd, void *buf, size_t n)
{
    char *p = buf;
    while (n) {
        ssize_t r = read(fd, p, n > ((size_t)1 << 30) ? (size_t)1 << 30 : n);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return -1;
        p += r;
        n -= (size_t)r;
    }
    return 0;
}

static int t_read(void *h, void *buf, size_t n)
{
    tfile *f = h;
    return read_all(f->fd, buf, n);
}

static void t_close_read(void *h, const char *why)
{
    tfile *f = h;
    struct stat sb;
    if (why) {
        note(f->c, "%s: warning: %s; deleted, the table is built anew", f->path, why);
        f->c->warn = 1;
        unlink(f->path);
    } else if (fstat(f->fd, &sb) == 0) {
        note(f->c, "table cache: read %s (%lld bytes)", f->path, (long long)sb.st_size);
    }
    close(f->fd);
    gb_free(f);
}

static void *t_open_write(void *ctx, const char *name)
{
    gb_tcache *c = ctx;
    if (!name_ok(name)) return NULL;
    tfile *f = gb_calloc(1, sizeof *f);
    if (!f) return NULL;
    f->c = c;
    snprintf(f->final, sizeof f->final, "%s/%s.%s.gbt", c->dir, c->sha, name);
    gb_diag d;
    f->fd = gb_tmp_create(f->final, 0644, f->path, sizeof f->path, &d);   /* removed by a signal too */
    if (f->fd < 0) {
        note(c, "%s: warning: expected to write a table cache file, found '%s'; nothing is kept",
             c->dir, d.msg);
        c->warn = 1;
        gb_free(f);
        return NULL;
    }
    return f;
}

static int t_write(void *h, const void *buf, size_t n)
{
    tfile *f = h;
    return gb_cache_write_all(f->fd, buf, n);
}

static void t_close_write(void *h, int ok)
{
    tfile *f = h;
    gb_diag d;
    if (close(f->fd) != 0) ok = 0;
    if (!ok) {
        gb_tmp_abort(NULL, f->path);
        note(f->c, "%s: warning: expected to write a table cache file, found a write error; "
             "nothing is kept", f->final);
        f->c->warn = 1;
    } else if (gb_tmp_rename(f->path, f->final, &d) == 0) {
        note(f->c, "table cache: wrote %s", f->final);
    } else {
        note(f->c, "%s: warning: expected to write a table cache file, found '%s'; nothing is "
             "kept", f->final, d.msg);
        f->c->warn = 1;
    }
    gb_free(f);
}

int gb_tcache_default_dir(char *buf, size_t n)
{
    return gb_cache_dir("tables", buf, n);
}

gb_tcache *gb_tcache_open(const char *dir, const char *map_sha, gb_diag *d)
{
    if (strlen(map_sha) != 64 || strlen(dir) > 1000) {
        gb_diag_set(d, EX_CANTCREAT, dir, 0, 0, "expected a cache directory path of at most "
                    "1000 bytes and a 64-digit map hash, found longer");
        return NULL;
    }
    if (gb_make_dirs(dir) != 0) {
        gb_diag_set(d, EX_CANTCREAT, dir, 0, 0, "expected a writable table cache directory, "
                    "found '%s'", strerror(errno));
        return NULL;
    }
    if (gb_cache_trust_dirs(dir, "table", d) != 0) return NULL;
    gb_tcache *c = gb_calloc(1, sizeof *c);
    if (!c) {
        gb_diag_set(d, EX_OSERR, dir, 0, 0, "expected memory, found none");
        return NULL;
    }
    snprintf(c->dir, sizeof c->dir, "%s", dir);
    snprintf(c->sha, sizeof c->sha, "%s", map_sha);
    c->st = (gb_store){ c, t_open_read, t_read, t_close_read, t_open_write, t_write, t_close_write };
    return c;
}

const gb_store *gb_tcache_store(gb_tcache *c) { return &c->st; }

const char *gb_tcache_note(gb_tcache *c, int *warn)
{
    memcpy(c->out, c->note, sizeof c->out);
    c->note[0] = '\0';
    if (warn) *warn = c->warn;
    c->warn = 0;
    return c->out;
}

void gb_tcache_close(gb_tcache *c) { gb_free(c); }
