/*
 * gb_gppc.c -- GPPC entries as plugins: cache, per-map index, waypoint
 * expansion and the build (contracts and cache layout in gb_gppc.h).
 *
 * The build runs the compiler (and, for a Makefile, `make -n -B`) with
 * fork + execvp, never through a shell, so no path needs quoting.  A
 * command line is a gb_argv: a growable array of malloc'd words, NULL-
 * terminated, each word owned by the array.
 */
#define _GNU_SOURCE 1   /* strsignal */
#include "gb_gppc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gb_alloc.h"
#include "gb_sha256.h"

/* ---- small helpers ------------------------------------------------------ */

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* rm -r of what is inside dir (dir itself stays); symbolic links are
 * removed, never followed.  0 or -1. */
static int empty_dir(const char *dir)
{
    DIR *dp = opendir(dir);
    if (!dp) return errno == ENOENT ? 0 : -1;
    int rc = 0;
    struct dirent *e;
    while ((e = readdir(dp)) != NULL) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        char p[1400];
        struct stat st;
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        if (lstat(p, &st) != 0) { rc = -1; continue; }
        if (S_ISDIR(st.st_mode)) {
            if (empty_dir(p) != 0 || rmdir(p) != 0) rc = -1;
        } else if (unlink(p) != 0) rc = -1;
    }
    closedir(dp);
    return rc;
}

/* Bytes of the regular files under dir (recursively), the file named
 * skip at its top level aside. */
static uint64_t dir_bytes(const char *dir, const char *skip)
{
    DIR *dp = opendir(dir);
    if (!dp) return 0;
    uint64_t sum = 0;
    struct dirent *e;
    while ((e = readdir(dp)) != NULL) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") || (skip && !strcmp(e->d_name, skip)))
            continue;
        char p[1400];
        struct stat st;
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        if (lstat(p, &st) != 0) continue;
        if (S_ISDIR(st.st_mode)) sum += dir_bytes(p, NULL);
        else if (S_ISREG(st.st_mode)) sum += (uint64_t)st.st_size;
    }
    closedir(dp);
    return sum;
}

/* Write text to path whole (temp file + rename).  0 or -1. */
static int write_whole(const char *path, const char *text)
{
    char tmp[1300];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f) return -1;
    int bad = fputs(text, f) < 0;
    if (fclose(f) != 0) bad = 1;
    if (bad || rename(tmp, path) != 0) { unlink(tmp); return -1; }
    return 0;
}

/* How a child ended, for "found ..." messages. */
static void wait_text(int ws, char *buf, size_t n)
{
    if (WIFSIGNALED(ws))
        snprintf(buf, n, "signal %d: %s", WTERMSIG(ws), strsignal(WTERMSIG(ws)));
    else
        snprintf(buf, n, "exit status %d", WIFEXITED(ws) ? WEXITSTATUS(ws) : -1);
}

int gb_gppc_cache_dir(char *buf, size_t n)
{
    return gb_cache_dir("gppc", buf, n);
}

void gb_gppc_map_hash(const gb_grid *g, char hex[GB_GPPC_HASH_HEX + 1])
{
    gb_sha256_ctx c;
    char head[64];
    uint8_t row[4096], dig[GB_SHA256_BYTES];
    int k = snprintf(head, sizeof head, "gppc-map 1 %d %d\n", (int)g->width, (int)g->height);
    gb_sha256_init(&c);
    gb_sha256_update(&c, head, (size_t)k);
    for (int32_t y = 0; y < g->height; y++)
        for (int32_t x0 = 0; x0 < g->width; x0 += (int32_t)sizeof row) {
            int32_t m = g->width - x0 < (int32_t)sizeof row ? g->width - x0 : (int32_t)sizeof row;
            const uint8_t *p = &g->pass[gb_grid_id(g, x0, y)];
            for (int32_t i = 0; i < m; i++) row[i] = p[i] ? 1 : 0;
            gb_sha256_update(&c, row, (size_t)m);
        }
    gb_sha256_final(&c, dig);
    char full[65];
    gb_sha256_hex(dig, full);
    memcpy(hex, full, GB_GPPC_HASH_HEX);
    hex[GB_GPPC_HASH_HEX] = '\0';
}

/* ---- the per-map index -------------------------------------------------- */

#define COMPLETE ".complete"

/* Run fn(arg, file) in a child with stdout sent to stderr; its wait status
 * in *ws and the time from fork to reaping in *ns.  0, or -1 (fork).
 * The child dies with its parent (as gb_pool's workers do): a run stopped
 * while an entry preprocesses (SIGTERM to the runner kills its workers)
 * must not leave PreprocessMap running for nothing -- its index is never
 * marked whole -- and holding the index lock it inherited, on which the
 * next run of that map would wait. */
static int run_preprocess(gb_gppc_preprocess_fn fn, void *arg, const char *file, int *ws, uint64_t *ns)
{
    fflush(NULL);
    uint64_t t0 = now_ns();
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) _exit(EX_SOFTWARE);   /* the parent died before the prctl */
        dup2(2, 1);
        int rc = fn(arg, file);
        fflush(NULL);
        _exit(rc & 0xff);
    }
    while (waitpid(pid, ws, 0) < 0)
        if (errno != EINTR) return -1;
    uint64_t dt = now_ns() - t0;
    *ns = dt ? dt : 1;
    return 0;
}

int gb_gppc_index_open(const char *entry_hash, const gb_grid *g, gb_gppc_preprocess_fn fn, void *arg,
                       gb_gppc_index *ix, gb_diag *d)
{
    char base[1000], mh[GB_GPPC_HASH_HEX + 1], lockp[1200], mark[1200], note[128];
    memset(ix, 0, sizeof *ix);
    if (gb_gppc_cache_dir(base, sizeof base) != 0)
        return gb_diag_set(d, EX_CANTCREAT, "", 0, 0, "expected XDG_CACHE_HOME or HOME to name the cache "
                           "folder, found neither");
    size_t bl = strlen(base);
    snprintf(base + bl, sizeof base - bl, "/%s/index", entry_hash);
    gb_gppc_map_hash(g, mh);
    snprintf(ix->dir, sizeof ix->dir, "%s/%s", base, mh);
    snprintf(ix->file, sizeof ix->file, "%s/index", ix->dir);
    snprintf(lockp, sizeof lockp, "%s.lock", ix->dir);
    snprintf(mark, sizeof mark, "%s/" COMPLETE, ix->dir);
    if (gb_make_dirs(base) != 0)
        return gb_diag_set(d, EX_CANTCREAT, base, 0, 0, "expected a writable cache folder, found '%s'",
                           strerror(errno));
    int lk = open(lockp, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (lk < 0 || flock(lk, LOCK_EX) != 0) {
        int e = errno;
        if (lk >= 0) close(lk);
        return gb_diag_set(d, EX_CANTCREAT, lockp, 0, 0, "expected to lock the index, found '%s'", strerror(e));
    }
    int rc = 0;
    if (access(mark, F_OK) == 0) {
        ix->reused = 1;   /* the time it took when it was built, so every row can say it */
        FILE *mf = fopen(mark, "r");
        unsigned long long pn = 0;
        if (mf && fscanf(mf, "preprocess_ns %llu", &pn) == 1) ix->preprocess_ns = pn;
        if (mf) fclose(mf);
    } else if (gb_make_dirs(ix->dir) != 0 || empty_dir(ix->dir) != 0) {
        rc = gb_diag_set(d, EX_CANTCREAT, ix->dir, 0, 0, "expected an empty index folder, found '%s'",
                         strerror(errno));
    } else {
        int ws = 0;
        if (run_preprocess(fn, arg, ix->file, &ws, &ix->preprocess_ns) != 0) {
            rc = gb_diag_set(d, EX_OSERR, ix->dir, 0, 0, "expected to fork PreprocessMap, found '%s'",
                             strerror(errno));
        } else if (!WIFEXITED(ws) || WEXITSTATUS(ws) != 0) {
            wait_text(ws, note, sizeof note);
            rc = gb_diag_set(d, EX_SOFTWARE, ix->dir, 0, 0, "expected PreprocessMap to return, found %s",
                             note);
        } else {
            char text[128];
            snprintf(text, sizeof text, "preprocess_ns %llu\n", (unsigned long long)ix->preprocess_ns);
            if (write_whole(mark, text) != 0)
                rc = gb_diag_set(d, EX_CANTCREAT, mark, 0, 0, "expected to mark the index whole, found '%s'",
                                 strerror(errno));
        }
    }
    if (rc == 0) ix->storage_bytes = dir_bytes(ix->dir, COMPLETE);
    close(lk);   /* releases the lock */
    return rc;
}

static int saved_stdout = -1;   /* fd 1 before the first divert */
static int diverts;             /* diverts not yet restored */

int gb_gppc_stdout_divert(void)
{
    if (diverts == 0) {
        fflush(stdout);
        saved_stdout = dup(1);
        if (saved_stdout < 0 || dup2(2, 1) < 0) {
            if (saved_stdout >= 0) close(saved_stdout);
            saved_stdout = -1;
            return -1;
        }
    }
    diverts++;
    return 0;
}

void gb_gppc_stdout_restore(void)
{
    if (diverts == 0 || --diverts > 0) return;
    fflush(stdout);
    dup2(saved_stdout, 1);
    close(saved_stdout);
    saved_stdout = -1;
}

/* ---- paths -------------------------------------------------------------- */

static int32_t sgn(int32_t v) { return (v > 0) - (v < 0); }

int32_t gb_gppc_expand(const gb_grid *g, const gb_gppc_xy *wp, size_t n, int32_t *path, int32_t cap,
                       int64_t *bad, char *why, size_t whyn)
{
    *bad = -1;
    if (why && whyn) why[0] = '\0';
    if (n == 0) return 0;
    if (n == 1) {
        *bad = 0;
        snprintf(why, whyn, "expected no waypoint or at least two, found one, (%d,%d)", (int)wp[0].x,
                 (int)wp[0].y);
        return -1;
    }
    int32_t len = 0;
    for (size_t i = 0; i < n; i++) {
        int32_t x = wp[i].x, y = wp[i].y;
        if (x < 0 || y < 0 || x >= g->width || y >= g->height) {
            *bad = i ? (int64_t)i - 1 : 0;
            snprintf(why, whyn, "expected waypoints inside the %dx%d map, found (%d,%d) (waypoint %zu)",
                     (int)g->width, (int)g->height, (int)x, (int)y, i);
            return -1;
        }
        if (i == 0) {
            if (cap < 1) break;
            path[len++] = gb_grid_id(g, x, y);
            continue;
        }
        int32_t dx = x - wp[i - 1].x, dy = y - wp[i - 1].y;
        int32_t ax = dx < 0 ? -dx : dx, ay = dy < 0 ? -dy : dy;
        if (ax && ay && ax != ay) {
            *bad = (int64_t)i - 1;
            snprintf(why, whyn, "expected a straight or diagonal segment, found (%d,%d)->(%d,%d) "
                     "(dx %d, dy %d)", (int)wp[i - 1].x, (int)wp[i - 1].y, (int)x, (int)y, (int)dx, (int)dy);
            return -1;
        }
        int32_t steps = ax > ay ? ax : ay, off = sgn(dy) * g->stride + sgn(dx);
        if (steps > cap - len) {
            *bad = (int64_t)i - 1;
            snprintf(why, whyn, "expected a path of at most %d cells (every cell of the padded map), "
                     "found more by segment %zu", (int)cap, i - 1);
            return -1;
        }
        for (int32_t k = 0; k < steps; k++, len++) path[len] = path[len - 1] + off;
    }
    return len;
}

int32_t gb_gppc_snap(const gb_grid *g, const gb_gppc_pt *wp, size_t n, int32_t *path, int32_t cap,
                     int64_t *bad, char *why, size_t whyn)
{
    *bad = -1;
    if (why && whyn) why[0] = '\0';
    if (n > (size_t)(cap > 0 ? cap : 0)) {
        *bad = 0;
        snprintf(why, whyn, "expected at most %d waypoints (every cell of the padded map), found %zu",
                 (int)cap, n);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        const double x = wp[i].x, y = wp[i].y;
        const double rx = nearbyint(x), ry = nearbyint(y);
        const char *what = NULL;
        char where[48];
        if (!isfinite(x) || !isfinite(y)) what = "finite coordinates";
        else if (rx < 0 || ry < 0 || rx > g->width || ry > g->height) {
            snprintf(where, sizeof where, "a point of the map's [0,%d]x[0,%d]", (int)g->width,
                     (int)g->height);
            what = where;
        } else if (fabs(x - rx) > GB_GPPC_SNAP_TOL || fabs(y - ry) > GB_GPPC_SNAP_TOL)
            what = "a cell corner (each coordinate within 1e-6 of an integer)";
        if (what) {
            *bad = i ? (int64_t)i - 1 : 0;
            snprintf(why, whyn, "expected waypoint %zu at %s, found (%.9g,%.9g)", i, what, x, y);
            return -1;
        }
        path[i] = gb_grid_id(g, (int32_t)rx, (int32_t)ry);
    }
    return (int32_t)n;
}

/* ---- gb_argv: a command line being built --------------------------------- */

typedef struct gb_argv {
    char **v;     /* [n + 1], v[n] == NULL */
    int n, cap;
    int oom;      /* an append failed: the line is incomplete */
} gb_argv;

static void argv_add(gb_argv *a, const char *w)
{
    if (a->oom) return;
    if (a->n + 2 > a->cap) {
        int nc = a->cap ? 2 * a->cap : 32;
        char **nv = gb_realloc(a->v, (size_t)nc * sizeof *nv);
        if (!nv) { a->oom = 1; return; }
        a->v = nv;
        a->cap = nc;
    }
    size_t l = strlen(w);
    char *c = gb_malloc(l + 1);
    if (!c) { a->oom = 1; return; }
    memcpy(c, w, l + 1);
    a->v[a->n++] = c;
    a->v[a->n] = NULL;
}

static void argv_addf(gb_argv *a, const char *fmt, ...) GB_PRINTF_LIKE(2, 3);
static void argv_addf(gb_argv *a, const char *fmt, ...)
{
    char b[8400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b, sizeof b, fmt, ap);
    va_end(ap);
    argv_add(a, b);
}

static int argv_has(const gb_argv *a, const char *w)
{
    for (int i = 0; i < a->n; i++)
        if (!strcmp(a->v[i], w)) return 1;
    return 0;
}

/* argv_addf, unless the word is there already: a Makefile that compiles
 * each source on a line of its own repeats its -I, -D and -L options on
 * every line; the compiler searches a folder at its first place and
 * ignores the repeats, so one copy means the same. */
static void argv_addf_once(gb_argv *a, const char *fmt, ...) GB_PRINTF_LIKE(2, 3);
static void argv_addf_once(gb_argv *a, const char *fmt, ...)
{
    char b[8400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b, sizeof b, fmt, ap);
    va_end(ap);
    if (!argv_has(a, b)) argv_add(a, b);
}

/* Append the blank-separated words of s. */
static void argv_split(gb_argv *a, const char *s)
{
    while (s && *s) {
        while (*s == ' ' || *s == '\t' || *s == '\n') s++;
        size_t l = strcspn(s, " \t\n");
        if (!l) break;
        char w[1200];
        snprintf(w, sizeof w, "%.*s", (int)l, s);
        argv_add(a, w);
        s += l;
    }
}

static void argv_free(gb_argv *a)
{
    for (int i = 0; i < a->n; i++) gb_free(a->v[i]);
    gb_free(a->v);
    memset(a, 0, sizeof *a);
}

/* Run a->v in cwd with stdout to out_fd (stderr too when err_too), the
 * make variables of an enclosing make removed.  The wait status in *ws.
 * 0, or -1 when it could not start (errno; 127 in *ws: not found). */
static int run_cmd(const gb_argv *a, const char *cwd, int out_fd, int err_too, int *ws)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        if (cwd && chdir(cwd) != 0) _exit(126);
        dup2(out_fd, 1);
        if (err_too) dup2(out_fd, 2);
        else {
            int nul = open("/dev/null", O_WRONLY);
            if (nul >= 0) dup2(nul, 2);
        }
        unsetenv("MAKEFLAGS");
        unsetenv("MFLAGS");
        unsetenv("MAKELEVEL");
        unsetenv("MAKEOVERRIDES");
        execvp(a->v[0], a->v);
        _exit(127);
    }
    while (waitpid(pid, ws, 0) < 0)
        if (errno != EINTR) return -1;
    return 0;
}

/* Run a and read its stdout (at most cap - 1 bytes) into buf.  The wait
 * status in *ws.  0 or -1. */
static int run_capture(const gb_argv *a, const char *cwd, char *buf, size_t cap, int *ws)
{
    char tmpl[] = "/tmp/gb-gppc-out.XXXXXX";
    int fd = mkstemp(tmpl);
    if (fd < 0) return -1;
    unlink(tmpl);
    int rc = run_cmd(a, cwd, fd, 0, ws);
    size_t len = 0;
    if (rc == 0 && lseek(fd, 0, SEEK_SET) == 0) {
        ssize_t r;
        while (len + 1 < cap && (r = read(fd, buf + len, cap - 1 - len)) > 0) len += (size_t)r;
    }
    buf[len] = '\0';
    close(fd);
    return rc;
}

/* ---- the entry's files --------------------------------------------------- */

static int has_ext(const char *name, const char *const *ext)
{
    const char *dot = strrchr(name, '.');
    if (!dot) return 0;
    for (; *ext; ext++)
        if (!strcmp(dot + 1, *ext)) return 1;
    return 0;
}

static const char *const src_ext[] = { "cpp", "cc", "cxx", "C", NULL };
/* a dynamic-track entry may be C (the startkit's Entry.c) */
static const char *const dyn_ext[] = { "cpp", "cc", "cxx", "C", "c", NULL };
static const char *const hashed_ext[] = { "cpp", "cc", "cxx", "C", "c", "h", "hh", "hpp", "hxx", "H",
                                          "inl", "ipp", "tcc", "inc", NULL };

static int is_makefile(const char *name)
{
    return !strcmp(name, "Makefile") || !strcmp(name, "makefile") || !strcmp(name, "GNUmakefile");
}

/* Collect the relative paths (under rel, "" at the top) of dir's source,
 * header and make files into *a, recursively; hidden entries and the GPPC
 * index_data/ folder are skipped.  0 or -1. */
static int list_sources(const char *root, const char *rel, gb_argv *a)
{
    char dir[1400];
    snprintf(dir, sizeof dir, "%s%s%s", root, *rel ? "/" : "", rel);
    DIR *dp = opendir(dir);
    if (!dp) return -1;
    struct dirent *e;
    int rc = 0;
    while (rc == 0 && (e = readdir(dp)) != NULL) {
        if (e->d_name[0] == '.' || (!*rel && !strcmp(e->d_name, "index_data"))) continue;
        char r[1400], p[2800];
        struct stat st;
        snprintf(r, sizeof r, "%s%s%s", rel, *rel ? "/" : "", e->d_name);
        snprintf(p, sizeof p, "%s/%s", root, r);
        if (stat(p, &st) != 0) continue;
        if (S_ISDIR(st.st_mode)) rc = list_sources(root, r, a);
        else if (S_ISREG(st.st_mode) && (has_ext(e->d_name, hashed_ext) || is_makefile(e->d_name)))
            argv_add(a, r);
    }
    closedir(dp);
    return rc;
}

static int cmp_str(const void *x, const void *y)
{
    return strcmp(*(char *const *)x, *(char *const *)y);
}

/* The entry hash: SHA-256 over "path\0sha256(content)\n" of every file of
 * list_sources, in byte order of the paths. */
static int entry_hash(const char *root, char hex[GB_GPPC_HASH_HEX + 1], gb_diag *d)
{
    gb_argv f = { 0 };
    if (list_sources(root, "", &f) != 0 || f.oom) {
        int oom = f.oom;
        argv_free(&f);
        return oom ? gb_diag_set(d, EX_OSERR, root, 0, 0, "expected memory for the file list, found none")
                   : gb_diag_set(d, EX_NOINPUT, root, 0, 0, "expected a readable folder, found '%s'",
                                 strerror(errno));
    }
    if (f.n) qsort(f.v, (size_t)f.n, sizeof *f.v, cmp_str);
    gb_sha256_ctx c;
    gb_sha256_init(&c);
    for (int i = 0; i < f.n; i++) {
        char p[5600], fh[65];
        snprintf(p, sizeof p, "%s/%s", root, f.v[i]);
        int rc = gb_sha256_file(p, fh, d);
        if (rc) { argv_free(&f); return rc; }
        gb_sha256_update(&c, f.v[i], strlen(f.v[i]) + 1);
        gb_sha256_update(&c, fh, 64);
        gb_sha256_update(&c, "\n", 1);
    }
    argv_free(&f);
    uint8_t dig[GB_SHA256_BYTES];
    char full[65];
    gb_sha256_final(&c, dig);
    gb_sha256_hex(dig, full);
    memcpy(hex, full, GB_GPPC_HASH_HEX);
    hex[GB_GPPC_HASH_HEX] = '\0';
    return 0;
}

/* Is rel (a path as the Makefile wrote it) the GPPC harness's main.cpp? */
static int is_gppc_main(const char *rel)
{
    if (!strncmp(rel, "./", 2)) rel += 2;
    return !strcmp(rel, "main.cpp");
}

/* Add source word w (relative to root; may be a glob) to src, absolute,
 * once each. */
static void add_source(const char *root, const char *w, gb_argv *src)
{
    char pat[2400];
    if (w[0] == '/') snprintf(pat, sizeof pat, "%s", w);
    else snprintf(pat, sizeof pat, "%s/%s", root, w);
    glob_t gl;
    if (glob(pat, 0, NULL, &gl) != 0) return;
    for (size_t i = 0; i < gl.gl_pathc; i++) {
        const char *p = gl.gl_pathv[i];
        size_t rl = strlen(root);
        if (!strncmp(p, root, rl) && p[rl] == '/' && is_gppc_main(p + rl + 1)) continue;
        char real[4096];
        if (!realpath(p, real) || argv_has(src, real)) continue;
        argv_add(src, real);
    }
    globfree(&gl);
}

/* Flags that take the next word as their value. */
static int takes_value(const char *w)
{
    return !strcmp(w, "-I") || !strcmp(w, "-D") || !strcmp(w, "-U") || !strcmp(w, "-L")
        || !strcmp(w, "-include") || !strcmp(w, "-isystem") || !strcmp(w, "-o") || !strcmp(w, "-MF")
        || !strcmp(w, "-MT") || !strcmp(w, "-x");
}

/* One word (with its value v, or NULL) of a compile line of the dry run,
 * sorted into sources, compile flags and link flags. */
static void take_word(const char *root, const char *w, const char *v, const char *const *ext, gb_argv *src,
                      gb_argv *cf, gb_argv *lf)
{
    char b[6600];
    const char *val = v;
    if (v || takes_value(w)) {
        if (!val) return;
        if (!strcmp(w, "-I") || !strcmp(w, "-isystem") || !strcmp(w, "-include")) {
            if (val[0] == '/') snprintf(b, sizeof b, "%s", val);
            else snprintf(b, sizeof b, "%s/%s", root, val);
            if (!strcmp(w, "-I")) argv_addf_once(cf, "-I%s", b);
            else { argv_add(cf, w); argv_add(cf, b); }
        } else if (!strcmp(w, "-D") || !strcmp(w, "-U")) {
            argv_addf_once(cf, "%s%s", w, val);
        } else if (!strcmp(w, "-L")) {
            argv_addf_once(lf, "-L%s%s%s", val[0] == '/' ? "" : root, val[0] == '/' ? "" : "/", val);
        }
        return;
    }
    if (w[0] != '-') {
        if (has_ext(w, ext)) add_source(root, w, src);
        return;
    }
    if (!strncmp(w, "-I", 2)) {
        argv_addf_once(cf, "-I%s%s%s", w[2] == '/' ? "" : root, w[2] == '/' ? "" : "/", w + 2);
    } else if (!strncmp(w, "-L", 2)) {
        argv_addf_once(lf, "-L%s%s%s", w[2] == '/' ? "" : root, w[2] == '/' ? "" : "/", w + 2);
    } else if (!strncmp(w, "-l", 2) || !strcmp(w, "-fopenmp") || !strcmp(w, "-pthread")) {
        if (!argv_has(lf, w)) argv_add(lf, w);
        if (strncmp(w, "-l", 2) && !argv_has(cf, w)) argv_add(cf, w);
    } else if (!strncmp(w, "-D", 2) || !strncmp(w, "-U", 2) || !strncmp(w, "-std=", 5)
               || !strncmp(w, "-O", 2) || !strncmp(w, "-m", 2)
               || (!strncmp(w, "-f", 2) && strcmp(w, "-fPIC") && strcmp(w, "-fpic") && strcmp(w, "-fPIE")
                   && strcmp(w, "-fpie") && strcmp(w, "-fno-pic") && strcmp(w, "-fno-PIC"))) {
        if (!argv_has(cf, w)) argv_add(cf, w);
    }
}

/* The file at path, NUL-terminated, in a gb_malloc'd buffer the caller
 * frees (gb_read_file).  NULL when it cannot be read, or with *oom = 1
 * when the memory cannot be had.  (Heap, not static buffers: every
 * sanitized process scans its .bss at exit.) */
static char *read_text(const char *path, int *oom)
{
    char *t;
    size_t n;
    gb_diag d;
    int rc = gb_read_file(path, &t, &n, &d);
    if (rc == EX_OSERR) *oom = 1;
    return rc ? NULL : t;
}

/* Sources and flags from the dry run of the entry's Makefile (`make -n -B`
 * in root): every line that names a source (extension in ext) is a
 * compile line.  0 (src may stay empty: then the caller globs), or -1
 * (make missing or failed). */
static int from_make(const char *root, const char *const *ext, gb_argv *src, gb_argv *cf, gb_argv *lf)
{
    enum { OUT_CAP = 1 << 20 };
    char *out = gb_malloc(OUT_CAP);
    if (!out) return -1;
    gb_argv mk = { 0 };
    argv_add(&mk, "make");
    argv_add(&mk, "-n");
    argv_add(&mk, "-B");
    argv_add(&mk, "--no-print-directory");
    int ws = 0;
    int rc = mk.oom ? -1 : run_capture(&mk, root, out, OUT_CAP, &ws);
    argv_free(&mk);
    if (rc != 0 || !WIFEXITED(ws) || WEXITSTATUS(ws) != 0) {
        gb_free(out);
        return -1;
    }
    /* join continuation lines */
    for (char *p = out; (p = strstr(p, "\\\n")) != NULL;) { p[0] = ' '; p[1] = ' '; }
    char *save = NULL;
    for (char *line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        gb_argv w = { 0 };
        argv_split(&w, line);
        int compile = 0;
        for (int i = 0; i < w.n && !compile; i++)
            compile = w.v[i][0] != '-' && has_ext(w.v[i], ext) && (i == 0 || strcmp(w.v[i - 1], "-o"));
        for (int i = 1; compile && i < w.n; i++) {
            const char *v = takes_value(w.v[i]) && i + 1 < w.n ? w.v[i + 1] : NULL;
            take_word(root, w.v[i], v, ext, src, cf, lf);
            if (v) i++;
        }
        int oom = w.oom;
        argv_free(&w);
        if (oom) {
            gb_free(out);
            return -1;
        }
    }
    gb_free(out);
    return 0;
}

/* Does the Entry.h at path declare GPPC's dynamic-track API
 * (gppc_map_change or gppc_search_init)?  1 or 0; -1 out of memory. */
static int is_dynamic(const char *path)
{
    int oom = 0;
    char *text = read_text(path, &oom);
    if (!text) return oom ? -1 : 0;
    int yes = strstr(text, "gppc_map_change") != NULL || strstr(text, "gppc_search_init") != NULL;
    gb_free(text);
    return yes;
}

/* Does root/Entry.h or root/GPPC.h declare an xyLoc of real coordinates
 * (a `struct xyLoc { ... }` whose body says double or float), as the
 * any-angle track's startkit does?  1 or 0. */
static int is_anyangle(const char *root)
{
    static const char *const names[] = { "GPPC.h", "Entry.h" };
    for (int k = 0; k < 2; k++) {
        char p[4200];
        snprintf(p, sizeof p, "%s/%s", root, names[k]);
        int oom = 0, real = 0;
        char *text = read_text(p, &oom);
        if (oom) return -1;
        if (!text) continue;
        for (char *at = text; !real && (at = strstr(at, "xyLoc")) != NULL; at += 5) {
            char *b = at + 5;
            while (*b == ' ' || *b == '\t' || *b == '\n' || *b == '\r') b++;
            if (*b != '{') continue; /* a use, not the definition */
            char *e = strchr(b, '}');
            if (e) *e = '\0';
            real = strstr(b, "double") != NULL || strstr(b, "float") != NULL;
            if (e) *e = '}';
        }
        gb_free(text);
        if (real) return 1;
    }
    return 0;
}

/* Sources of the GPPCentry library in root/CMakeLists.txt, the way the
 * startkit-dynamic builds an entry: the words of add_library(GPPCentry
 * ...) with a source extension, '#' comments dropped.  0 (src may stay
 * empty), or -1 when there is no such file. */
static int from_cmake(const char *root, gb_argv *src)
{
    char p[4200];
    snprintf(p, sizeof p, "%s/CMakeLists.txt", root);
    int oom = 0;
    char *text = read_text(p, &oom);
    if (!text) return -1;
    for (char *c = text; (c = strchr(c, '#')) != NULL;)   /* comments to the end of the line */
        while (*c && *c != '\n') *c++ = ' ';
    char *at = strstr(text, "add_library(GPPCentry");
    if (at) {
        at += strlen("add_library(GPPCentry");
        char *end = strchr(at, ')');
        if (end) *end = '\0';
        gb_argv w = { 0 };
        argv_split(&w, at);
        for (int i = 0; i < w.n; i++)
            if (has_ext(w.v[i], dyn_ext)) add_source(root, w.v[i], src);
        argv_free(&w);
    }
    gb_free(text);
    return 0;
}

/* ---- finding the driver ------------------------------------------------- */

/* Is dir/gb_gppc_driver.cpp there?  Then fill driver and inc from dir,
 * whose kind says where the headers are: 't' the source tree
 * (dir = <root>/harness/run/gppc), 'i' an install (dir =
 * <prefix>/share/gridbench/gppc).  0, or -1 (tried is extended). */
static int driver_at(const char *dir, char kind, char *driver, size_t dn, char *inc, size_t in, char *tried,
                     size_t tn)
{
    char cand[4400], up[4400], r[4096];
    snprintf(cand, sizeof cand, "%s/gb_gppc_driver.cpp", dir);
    snprintf(up, sizeof up, "%s/../../..", dir);
    if (access(cand, R_OK) != 0 || !realpath(up, r)) {
        size_t tl = strlen(tried);
        snprintf(tried + tl, tn - tl, "%s%s", tl ? ", " : "", cand);
        return -1;
    }
    if (kind == 't') {
        snprintf(driver, dn, "%s/harness/run/gppc/gb_gppc_driver.cpp", r);
        snprintf(inc, in, "-I%s/solvers -I%s/harness/core -I%s/harness/run", r, r, r);
    } else {
        snprintf(driver, dn, "%s/share/gridbench/gppc/gb_gppc_driver.cpp", r);
        snprintf(inc, in, "-I%s/include/gridbench", r);
    }
    return 0;
}

int gb_gppc_find_driver(char *driver, size_t dn, char *inc, size_t in, gb_diag *d)
{
    char exe[4096], dir[4400], tried[2000] = "";
    const char *env = getenv("GB_GPPC_DRIVER");
    if (env && *env) {
        char *r = realpath(env, NULL);
        if (!r) return gb_diag_set(d, EX_NOINPUT, env, 0, 0, "expected the GPPC driver source "
                                   "(GB_GPPC_DRIVER), found '%s'", strerror(errno));
        char *slash = strrchr(r, '/');
        *slash = '\0';
        size_t l = strlen(r);
        char kind = l >= 17 && !strcmp(r + l - 17, "/harness/run/gppc") ? 't'
                  : l >= 21 && !strcmp(r + l - 21, "/share/gridbench/gppc") ? 'i' : 0;
        int ok = kind && driver_at(r, kind, driver, dn, inc, in, tried, sizeof tried) == 0;
        free(r);
        return ok ? 0 : gb_diag_set(d, EX_NOINPUT, env, 0, 0, "expected GB_GPPC_DRIVER in "
                                    "<tree>/harness/run/gppc/ or <prefix>/share/gridbench/gppc/, found "
                                    "elsewhere");
    }
    ssize_t k = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (k <= 0) return gb_diag_set(d, EX_NOINPUT, "/proc/self/exe", 0, 0, "expected the binary's path, "
                                   "found '%s'", strerror(errno));
    exe[k] = '\0';
    char *slash = strrchr(exe, '/');
    if (slash) *slash = '\0';
    /* build/gridbench of a tree (./gridbench links to it), a binary at the
     * tree's root, <prefix>/bin/gridbench of `make install` */
    static const struct { const char *rel; char kind; } at[] = {
        { "/../harness/run/gppc", 't' }, { "/harness/run/gppc", 't' }, { "/../share/gridbench/gppc", 'i' },
    };
    for (size_t i = 0; i < sizeof at / sizeof at[0]; i++) {
        snprintf(dir, sizeof dir, "%s%s", exe, at[i].rel);
        if (driver_at(dir, at[i].kind, driver, dn, inc, in, tried, sizeof tried) == 0) return 0;
    }
    return gb_diag_set(d, EX_NOINPUT, "", 0, 0, "expected the GPPC driver (or GB_GPPC_DRIVER), found none "
                       "of %s", tried);
}

/* ---- the build ----------------------------------------------------------- */

/* Words of $CXX (default c++) into a. */
static void add_compiler(gb_argv *a)
{
    const char *cxx = getenv("CXX");
    if (cxx && *cxx) argv_split(a, cxx);
    else argv_add(a, "c++");
}

/* The first line of `$CXX --version` into buf ("" when it does not run). */
static void compiler_version(char *buf, size_t n)
{
    gb_argv a = { 0 };
    add_compiler(&a);
    argv_add(&a, "--version");
    int ws = 0;
    buf[0] = '\0';
    if (!a.oom && run_capture(&a, NULL, buf, n, &ws) == 0) buf[strcspn(buf, "\n")] = '\0';
    argv_free(&a);
}

/* A solver name for files and the registry: [A-Za-z0-9._-] only. */
static int name_ok(const char *s)
{
    if (!s || !*s || strlen(s) >= 64) return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9')
              || *s == '-' || *s == '_' || *s == '.'))
            return 0;
    return 1;
}

/* Record the build in <hd>/entry.txt (for `gridbench gppc list`): the
 * entry's folder, then one line per .so built. */
static void note_entry(const char *hd, const char *root, const char *file)
{
    char p[1300], text[8192] = "", line[1400];
    snprintf(p, sizeof p, "%s/entry.txt", hd);
    FILE *f = fopen(p, "r");
    if (f) {
        size_t r = fread(text, 1, sizeof text - 1, f);
        text[r] = '\0';
        fclose(f);
    }
    if (strncmp(text, "dir ", 4) != 0) snprintf(text, sizeof text, "dir %s\n", root);
    snprintf(line, sizeof line, "so %s\n", file);
    if (!strstr(text, line) && strlen(text) + strlen(line) < sizeof text) strcat(text, line);
    write_whole(p, text);
}

/* One build, stage to stage (gb_gppc_build): the entry and its driver,
 * then its sources and flags, then the compiler's command line and the
 * build key, then (unless the cache holds that key) the compile.  Each
 * stage returns 0 or a sysexits code with *d filled; the argv are freed
 * by gb_gppc_build whatever the stage reached. */
typedef struct gppc_job {
    const gb_gppc_build_opts *o;
    gb_gppc_built *b;
    const char *const *ext;  /* the source extensions of the entry's track */
    const char *file;        /* the plugin's file name: --name, or "entry" */
    char root[4096];         /* the entry's folder, real path */
    char drv[4400];          /* the driver's source */
    char inc[13000];         /* the driver's -I flags */
    char hd[1100];           /* the entry's cache folder */
    char key[65];            /* the build key (hex SHA-256) */
    gb_argv src, cf, lf, cc; /* sources, compile flags, link flags, the command line */
} gppc_job;

/* The entry (its folder, Entry.h, its track), its hash, the driver and
 * the paths of the plugin and its log in the cache. */
static int job_locate(gppc_job *j, gb_diag *d)
{
    const gb_gppc_build_opts *o = j->o;
    gb_gppc_built *b = j->b;
    if (o->name && !name_ok(o->name))
        return gb_diag_set(d, EX_USAGE, "", 0, 0, "--name: expected letters, digits, '-', '_' or '.' "
                           "(at most 63), found '%s'", o->name);
    if (!realpath(o->dir, j->root))
        return gb_diag_set(d, EX_NOINPUT, o->dir, 0, 0, "expected a GPPC entry folder, found '%s'",
                           strerror(errno));
    snprintf(j->drv, sizeof j->drv, "%s/Entry.h", j->root);
    if (access(j->drv, R_OK) != 0)
        return gb_diag_set(d, EX_NOINPUT, j->root, 0, 0, "expected a GPPC entry (Entry.h), found none");
    const int dyn = is_dynamic(j->drv);
    const int aa = !o->anyangle && dyn == 0 ? is_anyangle(j->root) : 0;
    if (dyn < 0 || aa < 0)
        return gb_diag_set(d, EX_OSERR, j->root, 0, 0,
                           "expected memory to read the entry's headers, found none");
    b->dynamic = dyn;
    b->anyangle = o->anyangle || aa;
    if (b->dynamic && b->anyangle)
        return gb_diag_set(d, EX_USAGE, j->root, 0, 0,
                           "--anyangle: expected an entry of the classic API "
                           "(GetPath), found a dynamic-track one (gppc_map_change)");
    j->ext = b->dynamic ? dyn_ext : src_ext;
    int rc = entry_hash(j->root, b->hash, d);
    if (rc) return rc;
    if ((rc = gb_gppc_find_driver(j->drv, sizeof j->drv, j->inc, sizeof j->inc, d)) != 0) return rc;
    if (b->dynamic) {   /* the dynamic track's driver sits beside the classic one */
        char *slash = strrchr(j->drv, '/');
        snprintf(slash + 1, sizeof j->drv - (size_t)(slash + 1 - j->drv), "gb_gppc_dyn_driver.cpp");
        if (access(j->drv, R_OK) != 0)
            return gb_diag_set(d, EX_NOINPUT, j->drv, 0, 0,
                               "expected the GPPC dynamic-track driver, found "
                               "'%s'",
                               strerror(errno));
    }
    char cache[1000];
    if (gb_gppc_cache_dir(cache, sizeof cache) != 0)
        return gb_diag_set(d, EX_CANTCREAT, "", 0, 0, "expected XDG_CACHE_HOME or HOME to name the cache "
                           "folder, found neither");
    snprintf(j->hd, sizeof j->hd, "%s/%s", cache, b->hash);
    j->file = o->name ? o->name : "entry";
    snprintf(b->so, sizeof b->so, "%s/%s.so", j->hd, j->file);
    snprintf(b->log, sizeof b->log, "%s/%s.log", j->hd, j->file);
    return 0;
}

/* The sources and flags: the Makefile's (a dry run), else the
 * CMakeLists.txt's (dynamic track), else the folder's sources; then the
 * defaults for what they leave out, and --cxxflags. */
static int job_sources(gppc_job *j, gb_diag *d)
{
    gb_gppc_built *b = j->b;
    char mk[4200];
    snprintf(mk, sizeof mk, "%s/Makefile", j->root);
    if (j->o->use_make
        && (access(mk, R_OK) == 0
            || (snprintf(mk, sizeof mk, "%s/makefile", j->root), access(mk, R_OK) == 0))) {
        if (from_make(j->root, j->ext, &j->src, &j->cf, &j->lf) == 0 && j->src.n) b->from_make = 1;
        else {
            argv_free(&j->src);
            argv_free(&j->cf);
            argv_free(&j->lf);
        }
    }
    if (!b->from_make && b->dynamic && from_cmake(j->root, &j->src) == 0 && j->src.n) b->from_cmake = 1;
    if (!b->from_make && !b->from_cmake)
        for (const char *const *e = j->ext; *e; e++) {
            char g[32];
            snprintf(g, sizeof g, "*.%s", *e);
            add_source(j->root, g, &j->src);
        }
    int have_std = 0, have_o = 0;
    for (int i = 0; i < j->cf.n; i++) {
        have_std |= !strncmp(j->cf.v[i], "-std=", 5);
        have_o |= !strncmp(j->cf.v[i], "-O", 2);
    }
    if (!have_std) argv_add(&j->cf, "-std=c++17");
    if (!have_o) {
        argv_add(&j->cf, "-O3");
        argv_add(&j->cf, "-DNDEBUG");
    }
    argv_split(&j->cf, j->o->cxxflags);
    b->nsources = j->src.n;
    if (j->src.oom || j->cf.oom || j->lf.oom)
        return gb_diag_set(d, EX_OSERR, j->root, 0, 0,
                           "expected memory for the command line, found none");
    if (!j->src.n)
        return gb_diag_set(d, EX_NOINPUT, j->root, 0, 0,
                           "expected C++ sources (*.cpp, *.cc, *.cxx besides "
                           "main.cpp), found none");
    return 0;
}

/* The command line, and the build key: the hashes of the driver and of
 * gb_gppc_plugin.h, the compiler's version and the command's words. */
static int job_command(gppc_job *j, gb_diag *d)
{
    const gb_gppc_build_opts *o = j->o;
    gb_argv *cc = &j->cc;
    add_compiler(cc);
    for (int i = 0; i < j->cf.n; i++) argv_add(cc, j->cf.v[i]);
    argv_add(cc, "-fPIC");
    argv_add(cc, "-shared");
    argv_add(cc, "-Wl,-Bsymbolic");
    argv_addf(cc, "-I%s", j->root);
    argv_split(cc, j->inc);
    argv_addf(cc, "-DGB_GPPC_ENTRY_HASH=\"%s\"", j->b->hash);
    if (o->name) argv_addf(cc, "-DGB_GPPC_NAME=\"%s\"", o->name);
    if (o->suboptimal) argv_add(cc, "-DGB_GPPC_SUBOPTIMAL=1");
    if (j->b->anyangle) argv_add(cc, "-DGB_GPPC_ANYANGLE=1");
    /* C sources (dynamic entries may be C) as C, the rest as C++ */
    static const char *const c_ext[] = { "c", NULL };
    int nc = 0;
    for (int i = 0; i < j->src.n; i++) nc += has_ext(j->src.v[i], c_ext);
    if (nc) {
        argv_add(cc, "-x");
        argv_add(cc, "c");
        for (int i = 0; i < j->src.n; i++)
            if (has_ext(j->src.v[i], c_ext)) argv_add(cc, j->src.v[i]);
        argv_add(cc, "-x");
        argv_add(cc, "none");
    }
    for (int i = 0; i < j->src.n; i++)
        if (!has_ext(j->src.v[i], c_ext)) argv_add(cc, j->src.v[i]);
    argv_add(cc, j->drv);
    for (int i = 0; i < j->lf.n; i++) argv_add(cc, j->lf.v[i]);
    if (cc->oom)
        return gb_diag_set(d, EX_OSERR, j->root, 0, 0,
                           "expected memory for the command line, found none");
    gb_sha256_ctx c;
    uint8_t dig[GB_SHA256_BYTES];
    char dh[65], hh[65], hdr[4400], ver[512];
    gb_diag dd;
    if (gb_sha256_file(j->drv, dh, &dd) != 0) dh[0] = '\0';
    /* the header both drivers include, beside them (gb_gppc_plugin.h) */
    snprintf(hdr, sizeof hdr, "%.*s/gb_gppc_plugin.h", (int)(strrchr(j->drv, '/') - j->drv), j->drv);
    if (gb_sha256_file(hdr, hh, &dd) != 0) hh[0] = '\0';
    compiler_version(ver, sizeof ver);
    gb_sha256_init(&c);
    gb_sha256_update(&c, "gppc-build 1\n", 13);
    gb_sha256_update(&c, dh, strlen(dh));
    gb_sha256_update(&c, hh, strlen(hh));
    gb_sha256_update(&c, ver, strlen(ver) + 1);
    for (int i = 0; i < cc->n; i++) gb_sha256_update(&c, cc->v[i], strlen(cc->v[i]) + 1);
    gb_sha256_final(&c, dig);
    gb_sha256_hex(dig, j->key);
    return 0;
}

/* 1 when the cache holds a plugin built with this key (and --force was
 * not given), else 0. */
static int job_cached(const gppc_job *j)
{
    char keyp[1300], text[128];
    snprintf(keyp, sizeof keyp, "%s.key", j->b->so);
    if (j->o->force || access(j->b->so, R_OK) != 0) return 0;
    FILE *f = fopen(keyp, "r");
    if (!f) return 0;
    size_t r = fread(text, 1, sizeof text - 1, f);
    text[r] = '\0';
    fclose(f);
    return r >= 64 && !strncmp(text, j->key, 64);
}

/* Compile in a private folder of the cache, the command heading the log,
 * then rename the plugin into place and record its key and entry. */
static int job_compile(gppc_job *j, gb_diag *d)
{
    gb_gppc_built *b = j->b;
    gb_argv *cc = &j->cc;
    if (gb_make_dirs(j->hd) != 0)
        return gb_diag_set(d, EX_CANTCREAT, j->hd, 0, 0, "expected a writable cache folder, found '%s'",
                           strerror(errno));
    char tmpd[1300], tmpso[1400];
    snprintf(tmpd, sizeof tmpd, "%s/build.%ld", j->hd, (long)getpid());
    snprintf(tmpso, sizeof tmpso, "%s/%s.so", tmpd, j->file);
    if (gb_make_dirs(tmpd) != 0 || empty_dir(tmpd) != 0)
        return gb_diag_set(d, EX_CANTCREAT, tmpd, 0, 0, "expected a build folder, found '%s'",
                           strerror(errno));
    argv_add(cc, "-o");
    argv_add(cc, tmpso);
    int lg = open(b->log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (cc->oom || lg < 0) {
        int rc = cc->oom ? gb_diag_set(d, EX_OSERR, j->root, 0, 0,
                                       "expected memory for the command line, found none")
                         : gb_diag_set(d, EX_CANTCREAT, b->log, 0, 0,
                                       "expected a writable log, found '%s'", strerror(errno));
        if (lg >= 0) close(lg);
        rmdir(tmpd);
        return rc;
    }
    FILE *lf = fdopen(dup(lg), "w"); /* the command itself heads the log */
    if (lf) {
        for (int i = 0; i < cc->n; i++) fprintf(lf, "%s%s", i ? " " : "", cc->v[i]);
        fputs("\n\n", lf);
        fclose(lf);
    }
    int ws = 0, rc = 0;
    int started = run_cmd(cc, j->root, lg, 1, &ws) == 0;
    close(lg);
    if (!started || (WIFEXITED(ws) && WEXITSTATUS(ws) == 127)) {
        rc = gb_diag_set(d, EX_UNAVAILABLE, "", 0, 0,
                         "expected a C++ compiler (%s), found none; log: %s", cc->v[0], b->log);
    } else if (!WIFEXITED(ws) || WEXITSTATUS(ws) != 0 || access(tmpso, R_OK) != 0) {
        char how[96];
        wait_text(ws, how, sizeof how);
        rc = gb_diag_set(d, EX_DATAERR, j->root, 0, 0,
                         "expected the entry to compile, found %s; compiler "
                         "log: %s",
                         how, b->log);
    } else if (rename(tmpso, b->so) != 0) {
        rc = gb_diag_set(d, EX_CANTCREAT, b->so, 0, 0, "expected to store the plugin, found '%s'",
                         strerror(errno));
    } else {
        char keyp[1300], text[128];
        snprintf(keyp, sizeof keyp, "%s.key", b->so);
        snprintf(text, sizeof text, "%s\n", j->key);
        write_whole(keyp, text);
        note_entry(j->hd, j->root, j->file);
    }
    empty_dir(tmpd);
    rmdir(tmpd);
    return rc;
}

int gb_gppc_build(const gb_gppc_build_opts *o, gb_gppc_built *b, gb_diag *d)
{
    memset(b, 0, sizeof *b);
    gppc_job j; /* 23 KB of paths, as the one function had on its stack before */
    memset(&j, 0, sizeof j);
    j.o = o;
    j.b = b;
    int rc = job_locate(&j, d);
    if (!rc) rc = job_sources(&j, d);
    if (!rc) rc = job_command(&j, d);
    if (!rc && !(b->reused = job_cached(&j))) rc = job_compile(&j, d);
    argv_free(&j.src);
    argv_free(&j.cf);
    argv_free(&j.lf);
    argv_free(&j.cc);
    return rc;
}
