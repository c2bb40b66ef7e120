/*
 * gb_uworker.c -- a user solver in a forked worker that follows patches
 * (contract in gb_uworker.h).
 *
 * Wire format, over a SOCK_STREAM socket pair, native byte order (both
 * ends are the same binary): the caller sends struct req records ('P' a
 * patch, 'Q' a query); the child answers each 'Q' with an int32 mark
 * 'P' before it prepares the solver (when it does), the mark 'S' before
 * it solves, then one struct rep and rep.ncell int32 cell ids.  The marks
 * set the caller's deadline: the change hook and the solve are limited,
 * a prepare (a GPPC entry's preprocessing may take hours) is not.  The child's state: its grid (a fork-time copy
 * of the caller's, patched in place), the solver's per-map state (prep:
 * none, done, failed), and the patches since the last query (pend).
 * Time: O(patch cells) per patch in the child, the solve, and O(path) to
 * copy the answer.
 */
#define _GNU_SOURCE 1   /* strsignal */
#include "gb_uworker.h"

#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gb_alloc.h"
#include "gb_external.h"

typedef struct req {
    int32_t kind;            /* 'P' or 'Q' */
    int32_t s, t;            /* 'Q': start and goal cell ids */
    gb_user_patch p;         /* 'P': the patch (cell points into fork-time memory) */
} req;

typedef struct rep {
    int32_t n, ncell, prep_failed, ready, have_metrics;
    int64_t wall_ns, ready_ns;
    gb_stats st;
    gb_user_metrics m;
} rep;

enum { PREP_NONE, PREP_DONE, PREP_FAILED };

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Write all n bytes; 0 or -1. */
static int put(int fd, const void *b, size_t n)
{
    const char *p = b;
    while (n) {
        ssize_t k = send(fd, p, n, MSG_NOSIGNAL);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return -1;
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

/* Read all n bytes before deadline (ns of now_ns, 0: none): 0, -1 (EOF or
 * error), or 1 (the deadline passed). */
static int get(int fd, void *b, size_t n, int64_t deadline)
{
    char *p = b;
    while (n) {
        if (deadline) {
            int64_t left = deadline - now_ns();
            if (left <= 0) return 1;
            struct pollfd pf = { fd, POLLIN, 0 };
            int ms = (int)(left / 1000000 + 1);
            int r = poll(&pf, 1, ms);
            if (r < 0 && errno == EINTR) continue;
            if (r < 0) return -1;
            if (r == 0) continue;   /* loop: the deadline decides */
        }
        ssize_t k = read(fd, p, n);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return -1;
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

/* ---- the child ----------------------------------------------------------- */

static void child(const gb_user_solver *u, gb_model m, gb_grid *g, int fd)
{
    int prep = PREP_NONE;
    gb_user_patch *pend = NULL;
    size_t npend = 0, cap = 0;
    int32_t *path = gb_malloc((size_t)g->ncells * sizeof *path);
    if (!path) _exit(71);
    for (;;) {
        req q;
        if (get(fd, &q, sizeof q, 0) != 0) break;   /* the caller is done (or gone) */
        if (q.kind == 'P') {
            for (int32_t y = 0; y < q.p.h; y++)
                for (int32_t x = 0; x < q.p.w; x++)
                    gb_grid_set(g, gb_grid_id(g, q.p.x + x, q.p.y + y),
                                q.p.cell[(size_t)y * (size_t)q.p.w + (size_t)x]);
            if (npend == cap) {
                size_t nc = cap ? 2 * cap : 16;
                gb_user_patch *np = gb_realloc(pend, nc * sizeof *np);
                if (!np) _exit(71);
                pend = np;
                cap = nc;
            }
            pend[npend++] = q.p;
            continue;
        }
        rep r;
        memset(&r, 0, sizeof r);
        if (npend) {   /* the map changed since the last query */
            int ok = 0;
            if (prep == PREP_DONE && gb_user_has_change(u)) {
                int64_t t0 = now_ns();
                ok = gb_user_change(u, g, pend, (int)npend) == 0;
                r.ready_ns = now_ns() - t0;
                r.ready = ok ? 2 : 0;
            }
            if (!ok) {
                if (prep == PREP_DONE) gb_user_release(u);
                prep = PREP_NONE;
            }
            npend = 0;
        }
        if (prep == PREP_NONE) {
            int32_t mark = 'P';
            if (put(fd, &mark, sizeof mark) != 0) break;
            int64_t t0 = now_ns();
            prep = gb_user_prepare(u, g, m) == 0 ? PREP_DONE : PREP_FAILED;
            r.ready_ns = now_ns() - t0;
            r.ready = 1;
        }
        int32_t mark = 'S';
        if (put(fd, &mark, sizeof mark) != 0) break;
        if (prep == PREP_FAILED) {
            r.prep_failed = 1;
            r.have_metrics = gb_user_metrics_get(u, &r.m);
        } else {
            int64_t t0 = now_ns();
            r.n = u->solve(u->ctx, g, m, q.s, q.t, path, g->ncells, &r.st);
            r.wall_ns = now_ns() - t0;
            r.have_metrics = gb_user_metrics_get(u, &r.m);
            r.ncell = r.n > 0 && r.n <= g->ncells ? r.n : 0;
        }
        if (put(fd, &r, sizeof r) != 0 || put(fd, path, (size_t)r.ncell * sizeof *path) != 0) break;
    }
    if (prep == PREP_DONE) gb_user_release(u);
    fflush(NULL);
    _exit(0);
}

/* Close every descriptor above stderr but keep: the other workers' socket
 * ends would otherwise stay open in this child, and a worker whose caller
 * closed its socket would never read EOF. */
static void close_others(int keep)
{
    DIR *dp = opendir("/proc/self/fd");
    if (!dp) return;
    int self = dirfd(dp), fds[1024], n = 0;
    struct dirent *e;
    while ((e = readdir(dp)) != NULL && n < 1024) {
        int fd = atoi(e->d_name);
        if (fd > 2 && fd != keep && fd != self) fds[n++] = fd;
    }
    closedir(dp);
    for (int i = 0; i < n; i++) close(fds[i]);
}

/* ---- the caller ----------------------------------------------------------- */

void gb_uworker_init(gb_uworker *w, const gb_user_solver *u, gb_model m)
{
    memset(w, 0, sizeof *w);
    w->u = u;
    w->model = m;
    w->fd = -1;
}

/* End the child, whatever state it is in; its wait status in *ws (when not
 * NULL).  kill: SIGKILL it first (it does not answer). */
static void end_child(gb_uworker *w, int kill_it, int *ws)
{
    int st = 0;
    if (w->fd >= 0) close(w->fd);   /* a live child reads EOF and exits */
    w->fd = -1;
    if (w->pid > 0) {
        if (kill_it) kill(w->pid, SIGKILL);
        while (waitpid(w->pid, &st, 0) < 0 && errno == EINTR) {}
    }
    w->pid = 0;
    if (ws) *ws = st;
}

static int start(gb_uworker *w, const gb_grid *g)
{
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) return -1;
    if (w->ncells < g->ncells) {
        int32_t *c = gb_realloc(w->cells, (size_t)g->ncells * sizeof *c);
        if (!c) { close(sv[0]); close(sv[1]); errno = ENOMEM; return -1; }
        w->cells = c;
        w->ncells = g->ncells;
    }
    fflush(NULL);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) { close(sv[0]); close(sv[1]); return -1; }
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);   /* never outlive the replay */
        if (getppid() != parent) _exit(70);
        close_others(sv[1]);
        dup2(2, 1);                         /* a chatty solver never writes into stdout */
        child(w->u, w->model, (gb_grid *)g, sv[1]);   /* its own copy, after the fork */
    }
    close(sv[1]);
    w->pid = pid;
    w->fd = sv[0];
    return 0;
}

void gb_uworker_patch(gb_uworker *w, const gb_user_patch *p)
{
    if (w->pid <= 0) return;
    req q;
    memset(&q, 0, sizeof q);
    q.kind = 'P';
    q.p = *p;
    if (put(w->fd, &q, sizeof q) != 0) end_child(w, 1, NULL);   /* gone: restarted at the next query */
}

int gb_uworker_solve(gb_uworker *w, const gb_grid *g, int32_t s, int32_t t, int timeout_ms,
                     gb_uanswer *a)
{
    memset(a, 0, sizeof *a);
    a->fail = GB_EXT_PATH;
    if (w->pid <= 0 && start(w, g) != 0) return -1;
    req q;
    memset(&q, 0, sizeof q);
    q.kind = 'Q';
    q.s = s;
    q.t = t;
    int64_t limit = timeout_ms > 0 ? (int64_t)timeout_ms * 1000000 : 0;
    int64_t deadline = limit ? now_ns() + limit : 0;
    rep r;
    int32_t mark = 0;
    int rc = put(w->fd, &q, sizeof q) != 0 ? -1 : 0;
    while (rc == 0 && mark != 'S') {   /* no limit while it prepares; the limit again to solve */
        rc = get(w->fd, &mark, sizeof mark, deadline);
        if (rc == 0 && mark == 'P') deadline = 0;
        else if (rc == 0 && mark == 'S') deadline = limit ? now_ns() + limit : 0;
        else if (rc == 0) rc = -1;
    }
    if (rc == 0) rc = get(w->fd, &r, sizeof r, deadline);
    if (rc == 0 && (r.ncell < 0 || r.ncell > g->ncells)) rc = -1;
    if (rc == 0) rc = get(w->fd, w->cells, (size_t)r.ncell * sizeof *w->cells, deadline);
    if (rc == 1) {
        end_child(w, 1, NULL);
        a->fail = GB_EXT_TIMEOUT;
        snprintf(a->msg, sizeof a->msg, "the user solver did not answer within %d ms; its worker was "
                 "killed", timeout_ms);
        return 0;
    }
    if (rc != 0) {
        int ws = 0;
        end_child(w, 0, &ws);
        a->fail = GB_EXT_CRASH;
        if (WIFSIGNALED(ws))
            snprintf(a->msg, sizeof a->msg, "the user solver crashed the worker process running it "
                     "(signal %d: %s)", WTERMSIG(ws), strsignal(WTERMSIG(ws)));
        else
            snprintf(a->msg, sizeof a->msg, "the user solver ended the worker process running it "
                     "(exit status %d)", WIFEXITED(ws) ? WEXITSTATUS(ws) : -1);
        return 0;
    }
    a->prep_failed = r.prep_failed;
    a->n = r.n;
    a->ncell = r.ncell;
    a->wall_ns = r.wall_ns;
    a->ready = r.ready;
    a->ready_ns = r.ready_ns;
    a->st = r.st;
    a->have_metrics = r.have_metrics;
    a->m = r.m;
    return 0;
}

void gb_uworker_stop(gb_uworker *w)
{
    end_child(w, 0, NULL);
    gb_free(w->cells);
    w->cells = NULL;
    w->ncells = 0;
}
