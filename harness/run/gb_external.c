/*
 * gb_external.c -- the external-solver driver (see gb_external.h for the
 * invariants and docs/protocol.md for the protocol).
 *
 * Life of a child
 *   spawn (posix_spawn of /bin/sh -c CMD, own process group, default
 *   signal dispositions, empty signal mask, stdin/stdout on pipes whose
 *   parent ends are O_CLOEXEC and non-blocking) -> write the map block ->
 *   read `ready` -> per query: write `query ...`, read one answer line ->
 *   `quit` -> exit.  Any failure ends the child the same way (end_child):
 *   close both pipes, optionally give it a grace period to exit by itself
 *   (so that its real exit status can be reported), SIGKILL its process
 *   group (stragglers such as a shell's children included), reap it.  The
 *   leader is only observed with waitid(WNOWAIT) until the group has been
 *   killed, so its pid -- and hence the group id -- cannot be reused by
 *   another process before kill(-pid) runs.
 *
 * The process tree
 *   The solver is every descendant of the leader, not only the leader
 *   (`cd dir && ./solver`, pipes, helpers).  The spawning process makes
 *   itself a child subreaper (PR_SET_CHILD_SUBREAPER), so a descendant
 *   whose parent dies -- one that called setsid() included -- becomes its
 *   child instead of init's and can still be found, killed and reaped.
 *   A full tree walk (tree_walk) reads /proc/[pid]/stat of every process
 *   (milliseconds on a busy machine, so at most every FULL_SCAN_MS while
 *   polling memory; in between only the known members are read) and
 *   takes: the leader; the pids met in earlier walks that still run with
 *   the same start time (tree[]); children of this process that are no
 *   live driver's leader nor in another driver's tree[] and started after
 *   this driver's leader (orphans reparented here; one process drives one
 *   query at a time, so an orphan that appears is the active solver's);
 *   and, to a fixed point, every child of those.  Memory (--max-mem,
 *   mem_bytes) is the sum of their resident sets (shared pages count in
 *   each, so it is an upper bound); ending a child SIGKILLs the leader's
 *   group and every member, walking again until none runs, then reaps
 *   the members that became this process's children.  The leader's exit
 *   is watched with a pidfd (poll), so a leader that died while a
 *   descendant keeps its stdout open is a crash at once, not a timeout.
 *
 * Reading
 *   One buffer per driver, grown on demand up to line_max + 1 bytes, where
 *   line_max allows cap_cells = npassable + 1 cells written with the
 *   map's coordinate widths and generous whitespace.  A longer line is a
 *   protocol error.  Bytes after an answer line, or output that arrives
 *   between queries, are a protocol error too (the solver spoke out of
 *   turn).
 *
 * Time complexity: O(W*H) per (re)start to send the map, O(answer length)
 * per query.
 */
#include "gb_external.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gb_alloc.h"

extern char **environ;

/* Grace period for a child that closed a pipe to exit by itself, so that
 * its exit status or signal can be reported. */
#define EXIT_GRACE_MS 300
/* Bytes of an offending line quoted in a message. */
#define QUOTE_SZ 48

struct gb_ext {
    char *cmd;            /* malloc'd copy of the command */
    int max_ms;           /* bound of every wait */
    int start_ms;         /* bound of the wait for `ready` after the map (start-up, map load) */
    uint64_t max_mem;     /* bound of the child's resident bytes, 0 = none */
    pid_t pid;            /* running child (process group leader), or -1 */
    int to_fd;            /* parent's write end of the child's stdin, or -1 */
    int from_fd;          /* parent's read end of the child's stdout, or -1 */
    long spawns;          /* children started so far */
    int failed_starts;    /* consecutive failed restarts */
    char last_err[256];   /* why the last restart failed */
    char name[64];        /* from `ready NAME` */

    char *mapblock;       /* "map W H MODEL\n" + rows + "end\n" */
    size_t maplen;        /* its length */
    int32_t width, height;/* map size (for the line limit) */
    size_t cap_cells;     /* largest accepted cell count: npassable + 1 */

    char *buf;            /* read buffer: pending bytes are buf[rs..re) */
    size_t bufsz, rs, re;
    size_t line_max;      /* longest accepted line, without its newline */

    gb_xy *path;          /* cap_cells cells */

    int pidfd;            /* pidfd of the leader (readable once it exited), or -1 */
    unsigned long long lstart; /* the leader's start time (clock ticks after boot) */
    int64_t last_full;    /* CLOCK_MONOTONIC ns of the last full walk, 0: none yet */
    pid_t *tree;          /* members other than the leader met by a walk */
    unsigned long long *tstart; /* their start times */
    size_t ntree, captree;
    gb_ext *next;         /* the list of open drivers of this process */
};

/* Every open driver of this process (strays are attributed against it). */

/* Said after "found nothing": the usual cause is an answer sitting in the
 * solver's stdout buffer, which a pipe makes block-buffered. */
#define NO_FLUSH_HINT "; is the solver's stdout flushed after each line? On a pipe it is " \
                      "block-buffered: fflush(stdout), print(..., flush=True), std::endl"

static gb_ext *live_head;

static const char *const status_names[GB_EXT_NSTATUS] = {
    "path", "nopath", "protocol_error", "timeout", "crash", "limit"
};

const char *gb_ext_status_name(gb_ext_status s)
{
    return (unsigned)s < GB_EXT_NSTATUS ? status_names[s] : "?";
}

/* ---- time --------------------------------------------------------------- */
static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Milliseconds left until deadline (ns), rounded up, >= 0. */
static int ms_left(int64_t deadline)
{
    int64_t left = deadline - now_ns();
    if (left <= 0) return 0;
    int64_t ms = (left + 999999) / 1000000;
    return ms > INT_MAX ? INT_MAX : (int)ms;
}

static void sleep_ms(int ms)
{
    struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {}
}

/* ---- messages ----------------------------------------------------------- */
static void set_msg(char *out, size_t outsz, const char *fmt, ...) GB_PRINTF_LIKE(3, 4);
static void set_msg(char *out, size_t outsz, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out, outsz, fmt, ap);
    va_end(ap);
}

/* ---- pipes and spawning ------------------------------------------------- */

/* Move fd to a descriptor >= 3 with FD_CLOEXEC set (so that dup2 onto 0 or
 * 1 in the child always creates a fresh, inheritable descriptor).
 * Returns the new fd or -1. */
static int fd_high_cloexec(int fd)
{
    if (fd >= 3) return fcntl(fd, F_SETFD, FD_CLOEXEC) == 0 ? fd : -1;
    int nfd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
    close(fd);
    return nfd;
}

static int make_pipe(int p[2])
{
    if (pipe(p) != 0) return -1;
    p[0] = fd_high_cloexec(p[0]);
    p[1] = fd_high_cloexec(p[1]);
    if (p[0] < 0 || p[1] < 0) {
        int e = errno;
        if (p[0] >= 0) close(p[0]);
        if (p[1] >= 0) close(p[1]);
        errno = e;
        return -1;
    }
    return 0;
}

static void close_fd(int *fd)
{
    if (*fd >= 0) close(*fd);
    *fd = -1;
}


/* ---- the process tree --------------------------------------------------- */

typedef struct pinfo {
    pid_t pid, ppid;
    char state;
    unsigned long long start;   /* starttime, clock ticks after boot */
    uint64_t rss;               /* resident pages */
} pinfo;

/* /proc/PID/stat of one process into *pi.  1 on success. */
static int read_stat(pid_t pid, pinfo *pi)
{
    char path[64], b[1024];
    snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    ssize_t n = read(fd, b, sizeof b - 1);
    close(fd);
    if (n <= 0) return 0;
    b[n] = '\0';
    char *p = strrchr(b, ')');          /* the command name may hold ')' and blanks */
    if (!p || p[1] != ' ') return 0;
    p += 2;
    pi->pid = pid;
    pi->state = *p;
    /* fields 4 (ppid) .. 24 (rss) after the state (field 3) */
    unsigned long long f[22] = { 0 };
    char *q = p + 1;
    for (int i = 4; i <= 24; i++) {
        char *end;
        f[i - 4] = strtoull(q, &end, 10);
        if (end == q) return 0;
        q = end;
    }
    pi->ppid = (pid_t)f[0];
    pi->start = f[22 - 4];
    pi->rss = f[24 - 4];
    return 1;
}

/* Every process now (/proc/[0-9]*): *out (gb_malloc'd) and its length;
 * -1 when /proc cannot be read or no memory. */
static int proc_scan(pinfo **out, size_t *n)
{
    *out = NULL;
    *n = 0;
    DIR *d = opendir("/proc");
    if (!d) return -1;
    size_t cap = 256, k = 0;
    pinfo *v = gb_malloc(cap * sizeof *v);
    struct dirent *de;
    while (v && (de = readdir(d)) != NULL) {
        if (de->d_name[0] < '1' || de->d_name[0] > '9') continue;
        pid_t pid = (pid_t)strtol(de->d_name, NULL, 10);
        if (k == cap) {
            pinfo *nv = gb_realloc(v, 2 * cap * sizeof *v);
            if (!nv) { gb_free(v); v = NULL; break; }
            v = nv;
            cap *= 2;
        }
        if (read_stat(pid, &v[k])) k++;
    }
    closedir(d);
    if (!v) return -1;
    *out = v;
    *n = k;
    return 0;
}

static int in_tree(const gb_ext *e, pid_t pid)
{
    for (size_t i = 0; i < e->ntree; i++)
        if (e->tree[i] == pid) return 1;
    return 0;
}

/* Is pid another open driver's leader or a member of its tree? */
static int others(const gb_ext *e, pid_t pid)
{
    for (const gb_ext *o = live_head; o; o = o->next)
        if (o != e && (o->pid == pid || in_tree(o, pid))) return 1;
    return 0;
}

/* The leader and the known members only (no discovery): *out
 * (gb_malloc'd) and its length; -1 when no memory. */
static int known_scan(const gb_ext *e, pinfo **out, size_t *n)
{
    pinfo *v = gb_malloc((e->ntree + 1) * sizeof *v);
    size_t k = 0;
    if (!v) return -1;
    if (read_stat(e->pid, &v[k])) k++;
    for (size_t i = 0; i < e->ntree; i++)
        if (read_stat(e->tree[i], &v[k])) k++;
    *out = v;
    *n = k;
    return 0;
}

/* How often a memory poll may walk all of /proc (it reads only the known
 * members in between: a new helper is found within this time). */
#define FULL_SCAN_MS 200

/* Walk the tree of e's leader (see the top of the file): its members
 * other than the leader become e->tree; *rss_bytes (may be NULL) gets the
 * resident bytes of all of them, leader included; *live (may be NULL) the
 * number of members not yet dead (zombies excluded), leader included.
 * full: read every process (else only the known members, unless the last
 * full walk is FULL_SCAN_MS old).  With reap, members that are zombie
 * children of this process (left by the kill) are reaped.  -1 when /proc
 * cannot be read. */
static int tree_walk(gb_ext *e, uint64_t *rss_bytes, int *live, int reap, int full)
{
    pinfo *v;
    size_t n;
    if (rss_bytes) *rss_bytes = 0;
    if (live) *live = 0;
    if (e->pid <= 0) return 0;
    int64_t now = now_ns();
    if (!full && (e->last_full == 0 || now - e->last_full >= (int64_t)FULL_SCAN_MS * 1000000))
        full = 1;
    if (full) {
        if (proc_scan(&v, &n) != 0) return -1;
        e->last_full = now;
    } else if (known_scan(e, &v, &n) != 0) {
        return -1;
    }
    pid_t self = getpid();
    unsigned char *mem = gb_calloc(n ? n : 1, 1);
    if (!mem) { gb_free(v); return -1; }
    size_t nm = 0;
    for (size_t i = 0; i < n; i++) {
        int m = v[i].pid == e->pid;
        for (size_t j = 0; !m && j < e->ntree; j++)
            m = e->tree[j] == v[i].pid && e->tstart[j] == v[i].start;
        if (!m && v[i].ppid == self && v[i].start >= e->lstart && !others(e, v[i].pid)) m = 1;
        if (m) { mem[i] = 1; nm++; }
    }
    for (int grew = 1; grew;) {             /* children of members, to a fixed point */
        grew = 0;
        for (size_t i = 0; i < n; i++) {
            if (mem[i]) continue;
            for (size_t j = 0; j < n; j++)
                if (mem[j] && v[j].pid == v[i].ppid) { mem[i] = 1; nm++; grew = 1; break; }
        }
    }
    if (nm > e->captree) {
        size_t nc = nm + 16;
        pid_t *nt = gb_realloc(e->tree, nc * sizeof *nt);
        if (nt) e->tree = nt;
        unsigned long long *ns = nt ? gb_realloc(e->tstart, nc * sizeof *ns) : NULL;
        if (ns) { e->tstart = ns; e->captree = nc; }
    }
    size_t k = 0;
    uint64_t pages = 0;
    long pg = sysconf(_SC_PAGESIZE);
    for (size_t i = 0; i < n; i++) {
        if (!mem[i]) continue;
        pages += v[i].rss;
        if (live && v[i].state != 'Z' && v[i].state != 'X') ++*live;
        if (v[i].pid == e->pid) continue;
        if (reap && v[i].ppid == self && v[i].state == 'Z') {
            while (waitpid(v[i].pid, NULL, WNOHANG) < 0 && errno == EINTR) {}
            continue;
        }
        if (k < e->captree) {
            e->tree[k] = v[i].pid;
            e->tstart[k] = v[i].start;
            k++;
        }
    }
    e->ntree = k;
    if (rss_bytes) *rss_bytes = pg > 0 ? pages * (uint64_t)pg : 0;
    gb_free(mem);
    gb_free(v);
    return 0;
}

/* SIGKILL the leader and every member of its tree, walking again until
 * none runs (at most ~1 s). */
static void tree_kill(gb_ext *e)
{
    for (int iter = 0; iter < 200; iter++) {
        int live = 0;
        if (tree_walk(e, NULL, &live, 1, 1) != 0) return;
        kill(e->pid, SIGKILL);          /* not reaped yet: the pid is still the leader's */
        for (size_t i = 0; i < e->ntree; i++) kill(e->tree[i], SIGKILL);
        if (live == 0) return;
        sleep_ms(iter < 10 ? 1 : 5);
    }
}

/* Reap the members that became this process's children after the kill
 * (their parents died first), until no member is left (at most ~1 s). */
static void tree_reap(gb_ext *e)
{
    pid_t self = getpid();
    for (int iter = 0; iter < 200 && e->ntree > 0; iter++) {
        int left = 0;
        for (size_t i = 0; i < e->ntree; i++) {
            pinfo pi;
            if (!read_stat(e->tree[i], &pi) || pi.start != e->tstart[i]) continue;   /* gone */
            left = 1;
            if (pi.ppid == self) {
                if (pi.state != 'Z') kill(pi.pid, SIGKILL);
                while (waitpid(pi.pid, NULL, WNOHANG) < 0 && errno == EINTR) {}
            }
        }
        if (!left) break;
        sleep_ms(iter < 10 ? 1 : 5);
    }
    e->ntree = 0;
}

/* Make this process a child subreaper, once per process (fork does not
 * inherit it). */
static void become_subreaper(void)
{
    static pid_t done_for;
    if (done_for == getpid()) return;
    prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    done_for = getpid();
}

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif

/* Start the child.  0, or an errno value. */
static int spawn_child(gb_ext *e)
{
    int in[2], out[2];
    if (make_pipe(in) != 0) return errno;
    if (make_pipe(out) != 0) {
        int err = errno;
        close(in[0]);
        close(in[1]);
        return err;
    }
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t at;
    int rc = posix_spawn_file_actions_init(&fa);
    if (rc == 0 && (rc = posix_spawnattr_init(&at)) != 0) posix_spawn_file_actions_destroy(&fa);
    if (rc == 0) {
        sigset_t none, dflt;
        sigemptyset(&none);
        sigemptyset(&dflt);
        /* the caller may ignore or catch these; the child starts clean */
        int sigs[] = { SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGCHLD, SIGALRM,
                       SIGUSR1, SIGUSR2 };
        for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) sigaddset(&dflt, sigs[i]);
        if (!rc) rc = posix_spawn_file_actions_adddup2(&fa, in[0], 0);
        if (!rc) rc = posix_spawn_file_actions_adddup2(&fa, out[1], 1);
        if (!rc) rc = posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK
                                                    | POSIX_SPAWN_SETSIGDEF);
        if (!rc) rc = posix_spawnattr_setpgroup(&at, 0);
        if (!rc) rc = posix_spawnattr_setsigmask(&at, &none);
        if (!rc) rc = posix_spawnattr_setsigdefault(&at, &dflt);
        char *argv[] = { (char *)"sh", (char *)"-c", e->cmd, NULL };
        pid_t pid = -1;
        become_subreaper();
        if (!rc) rc = posix_spawn(&pid, "/bin/sh", &fa, &at, argv, environ);
        posix_spawn_file_actions_destroy(&fa);
        posix_spawnattr_destroy(&at);
        if (!rc) {
            e->pid = pid;
            e->ntree = 0;
            e->last_full = 0;   /* its first walk reads all of /proc */
            pinfo pi;
            /* its start time bounds the orphans it may leave */
            e->lstart = read_stat(pid, &pi) ? pi.start : 0;
            e->pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
            if (e->pidfd >= 0) fcntl(e->pidfd, F_SETFD, FD_CLOEXEC);
        }
    }
    close(in[0]);
    close(out[1]);
    if (rc) {
        close(in[1]);
        close(out[0]);
        return rc;
    }
    e->to_fd = in[1];
    e->from_fd = out[0];
    fcntl(e->to_fd, F_SETFL, fcntl(e->to_fd, F_GETFL) | O_NONBLOCK);
    fcntl(e->from_fd, F_SETFL, fcntl(e->from_fd, F_GETFL) | O_NONBLOCK);
    e->rs = e->re = 0;
    e->spawns++;
    return 0;
}

/* ---- ending a child ----------------------------------------------------- */

/* Has the child exited?  Observes without reaping (WNOWAIT). */
static int child_exited(pid_t pid, siginfo_t *si)
{
    memset(si, 0, sizeof *si);
    for (;;) {
        if (waitid(P_PID, (id_t)pid, si, WEXITED | WNOHANG | WNOWAIT) == 0) return si->si_pid != 0;
        if (errno != EINTR) return 1;   /* ECHILD: nothing left to wait for */
    }
}

/* Close the pipes, wait up to grace_ms for the child to exit by itself,
 * SIGKILL its process group, reap it.  Describes the end in how (may be
 * NULL): "exited with status N", "was killed by signal N: NAME", or
 * "did not exit and was killed".  Returns 1 when the child exited with
 * status 0 by itself, else 0.  No-op (returning 1) without a child. */
static int end_child(gb_ext *e, int grace_ms, char *how, size_t howsz)
{
    close_fd(&e->to_fd);
    close_fd(&e->from_fd);
    e->rs = e->re = 0;
    if (e->pid <= 0) {
        if (how) set_msg(how, howsz, "was not running");
        return 1;
    }
    siginfo_t si;
    int exited = child_exited(e->pid, &si);
    int64_t deadline = now_ns() + (int64_t)grace_ms * 1000000;
    for (int step = 1; !exited && now_ns() < deadline; step = step < 16 ? step * 2 : 16) {
        sleep_ms(step);
        exited = child_exited(e->pid, &si);
    }
    kill(-e->pid, SIGKILL);             /* the leader is not reaped yet: pid still ours */
    tree_kill(e);                       /* descendants in other groups or sessions too */
    int st = 0;
    while (waitpid(e->pid, &st, 0) < 0 && errno == EINTR) {}
    close_fd(&e->pidfd);
    tree_reap(e);
    int clean = 0;
    if (how) {
        if (!exited)
            set_msg(how, howsz, grace_ms > 0 ? "did not exit and was killed" : "was killed");
        else if (WIFEXITED(st))
            set_msg(how, howsz, "exited with status %d", WEXITSTATUS(st));
        else if (WIFSIGNALED(st))
            set_msg(how, howsz, "was killed by signal %d: %s", WTERMSIG(st), strsignal(WTERMSIG(st)));
        else
            set_msg(how, howsz, "ended with wait status %d", st);
    }
    if (exited && WIFEXITED(st) && WEXITSTATUS(st) == 0) clean = 1;
    e->pid = -1;
    return clean;
}

/* ---- writing ------------------------------------------------------------ */

/* write() with SIGPIPE blocked; a SIGPIPE this write raised is consumed
 * before the mask is restored, so a dead reader gives EPIPE, not death. */
static ssize_t write_nosigpipe(int fd, const char *p, size_t n)
{
    sigset_t pipeset, old, pending;
    sigemptyset(&pipeset);
    sigaddset(&pipeset, SIGPIPE);
    sigemptyset(&pending);
    sigpending(&pending);
    int was_pending = sigismember(&pending, SIGPIPE);
    sigprocmask(SIG_BLOCK, &pipeset, &old);
    ssize_t w = write(fd, p, n);
    int err = errno;
    if (w < 0 && err == EPIPE && !was_pending) {
        struct timespec zero = { 0, 0 };
        while (sigtimedwait(&pipeset, NULL, &zero) < 0 && errno == EINTR) {}
    }
    sigprocmask(SIG_SETMASK, &old, NULL);
    errno = err;
    return w;
}

/* Write p[0..n) before deadline.  0, or -1 with errno ETIMEDOUT, EPIPE or
 * another write error. */
static int write_all(gb_ext *e, const char *p, size_t n, int64_t deadline)
{
    while (n > 0) {
        ssize_t w = write_nosigpipe(e->to_fd, p, n);
        if (w > 0) {
            p += w;
            n -= (size_t)w;
            continue;
        }
        if (w < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) return -1;
        struct pollfd pf = { e->to_fd, POLLOUT, 0 };
        int left = ms_left(deadline);
        if (left == 0) { errno = ETIMEDOUT; return -1; }
        int r = poll(&pf, 1, left);
        if (r < 0 && errno != EINTR) return -1;
        if (r == 0) { errno = ETIMEDOUT; return -1; }
        if (r > 0 && (pf.revents & (POLLERR | POLLHUP)) && !(pf.revents & POLLOUT)) {
            errno = EPIPE;
            return -1;
        }
    }
    return 0;
}

/* ---- reading ------------------------------------------------------------ */
enum { RL_LINE = 1, RL_EOF = 0, RL_TIMEOUT = -1, RL_LONG = -2, RL_ERROR = -3, RL_MEMLIMIT = -4,
       RL_DEAD = -5 };
/* While an answer is awaited with a memory bound, how often to look. */
#define MEM_POLL_MS 10
/* Without a pidfd, how often to look whether the leader exited. */
#define DEAD_POLL_MS 50

/* Resident bytes of the child's whole tree, 0 when unknown. */
static uint64_t tree_rss(gb_ext *e)
{
    uint64_t b = 0;
    return tree_walk(e, &b, NULL, 0, 0) == 0 ? b : 0;
}

/* Read one line before deadline: on RL_LINE (*line, *len) is it (no LF, no
 * trailing CR), consumed from the buffer.  RL_EOF: end of output before a
 * newline; RL_DEAD: the leader exited and no line came while a descendant
 * keeps the output open; RL_TIMEOUT; RL_LONG: more than line_max bytes
 * without a newline; RL_MEMLIMIT: the tree's resident memory passed
 * max_mem (checked every MEM_POLL_MS when max_mem > 0); RL_ERROR: read
 * error or no memory (errno).  On failure the pending bytes stay in
 * buf[rs..re) for the message. */
static int read_line(gb_ext *e, int64_t deadline, uint64_t max_mem, char **line, size_t *len)
{
    size_t scanned = e->rs;
    int dead = 0;
    for (;;) {
        char *nl = memchr(e->buf + scanned, '\n', e->re - scanned);
        if (nl) {
            *line = e->buf + e->rs;
            *len = (size_t)(nl - *line);
            if (*len > 0 && (*line)[*len - 1] == '\r') (*len)--;
            e->rs = (size_t)(nl - e->buf) + 1;
            if (e->rs == e->re) e->rs = e->re = 0;
            return *len > e->line_max ? RL_LONG : RL_LINE;
        }
        scanned = e->re;
        if (e->re - e->rs > e->line_max) return RL_LONG;
        if (e->re == e->bufsz) {                     /* make room */
            if (e->rs > 0) {
                memmove(e->buf, e->buf + e->rs, e->re - e->rs);
                e->re -= e->rs;
                scanned -= e->rs;
                e->rs = 0;
            } else {
                size_t nsz = e->bufsz * 2;
                if (nsz > e->line_max + 2) nsz = e->line_max + 2;
                char *nb = nsz > e->bufsz ? gb_realloc(e->buf, nsz) : NULL;
                if (!nb) { errno = ENOMEM; return RL_ERROR; }
                e->buf = nb;
                e->bufsz = nsz;
            }
        }
        ssize_t r = read(e->from_fd, e->buf + e->re, e->bufsz - e->re);
        if (r > 0) { e->re += (size_t)r; continue; }
        if (r == 0) return RL_EOF;
        if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) return RL_ERROR;
        if (dead) return RL_DEAD;          /* all it wrote is read, and no line */
        struct pollfd pf[2] = { { e->from_fd, POLLIN, 0 }, { e->pidfd, POLLIN, 0 } };
        int left = ms_left(deadline);
        if (left == 0) return RL_TIMEOUT;
        int slice = left;
        if (max_mem && slice > MEM_POLL_MS) slice = MEM_POLL_MS;
        if (e->pidfd < 0 && e->pid > 0 && slice > DEAD_POLL_MS) slice = DEAD_POLL_MS;
        int pr = poll(pf, e->pidfd >= 0 ? 2 : 1, slice);
        if (pr < 0 && errno != EINTR) return RL_ERROR;
        if (max_mem && tree_rss(e) > max_mem) return RL_MEMLIMIT;
        siginfo_t si;
        if (e->pidfd >= 0 ? pr > 0 && (pf[1].revents & POLLIN)
                          : e->pid > 0 && pr == 0 && child_exited(e->pid, &si))
            dead = 1;                      /* read once more, then RL_DEAD */
        else if (pr == 0 && slice == left)
            return RL_TIMEOUT;
    }
}

/* Quote the first pending line (or the unterminated rest) for a message. */
static void quote_pending(const gb_ext *e, char *out, size_t outsz)
{
    const char *p = e->buf + e->rs;
    size_t n = e->re - e->rs;
    const char *nl = memchr(p, '\n', n);
    if (nl) n = (size_t)(nl - p);
    if (n > 0 && p[n - 1] == '\r') n--;
    gb_diag_quote(out, outsz, p, n);
}

/* ---- tokens ------------------------------------------------------------- */
typedef struct tok {
    const char *p;
    size_t n;
} tok;

/* Next token of [*p, end) separated by spaces or tabs; n = 0 at the end. */
static tok next_tok(const char **p, const char *end)
{
    const char *s = *p;
    while (s < end && (*s == ' ' || *s == '\t')) s++;
    const char *t = s;
    while (t < end && *t != ' ' && *t != '\t') t++;
    *p = t;
    return (tok){ s, (size_t)(t - s) };
}

static int tok_is(tok t, const char *word)
{
    size_t n = strlen(word);
    return t.n == n && memcmp(t.p, word, n) == 0;
}

/* Decimal integer, optional '-', within [lo, hi].  1 on success. */
static int tok_int(tok t, int64_t lo, int64_t hi, int64_t *out)
{
    size_t i = 0;
    int neg = 0;
    if (t.n > 0 && t.p[0] == '-') { neg = 1; i = 1; }
    if (i == t.n || t.n - i > 18) return 0;
    int64_t v = 0;
    for (; i < t.n; i++) {
        if (t.p[i] < '0' || t.p[i] > '9') return 0;
        v = v * 10 + (t.p[i] - '0');
    }
    if (neg) v = -v;
    if (v < lo || v > hi) return 0;
    *out = v;
    return 1;
}

static void quote_tok(tok t, char *out, size_t outsz)
{
    gb_diag_quote(out, outsz, t.p, t.n);
}

/* ---- map block and start-up --------------------------------------------- */
static int digits(int32_t v)
{
    int d = 1;
    while (v >= 10) { v /= 10; d++; }
    return d;
}

/* Encode map m for the child and size the buffers.  0 or ENOMEM. */
static int load_map(gb_ext *e, const gb_map *m, gb_model model)
{
    const gb_grid *g = &m->grid;
    size_t w = (size_t)g->width, h = (size_t)g->height;
    char head[96];
    int hl = snprintf(head, sizeof head, "map %d %d %s\n", g->width, g->height, gb_model_name(model));
    size_t len = (size_t)hl + h * (w + 1) + 4;
    char *blk = gb_malloc(len);
    size_t cap = (size_t)(g->npassable > 0 ? g->npassable : 0) + 1;
    gb_xy *path = gb_malloc(cap * sizeof *path);
    if (!blk || !path) {
        gb_free(blk);
        gb_free(path);
        return ENOMEM;
    }
    memcpy(blk, head, (size_t)hl);
    char *p = blk + hl;
    for (size_t y = 0; y < h; y++) {
        for (size_t x = 0; x < w; x++)
            *p++ = m->terrain ? m->terrain[y * w + x]
                              : (g->pass[gb_grid_id(g, (int32_t)x, (int32_t)y)] ? '.' : '@');
        *p++ = '\n';
    }
    memcpy(p, "end\n", 4);
    gb_free(e->mapblock);
    gb_free(e->path);
    e->mapblock = blk;
    e->maplen = len;
    e->path = path;
    e->cap_cells = cap;
    e->width = g->width;
    e->height = g->height;
    /* "path ID N " + cells * ("X Y " with room for signs and doubled
     * blanks) + " time_ns T" */
    size_t per_cell = 2 * ((size_t)digits(g->width) + (size_t)digits(g->height) + 4);
    e->line_max = 256 + cap * per_cell;
    return 0;
}

/* Keep NAME from `ready NAME`: printable, no blank, comma or quote (it
 * may end up in a CSV field), at most 63 bytes. */
static void set_name(gb_ext *e, tok t)
{
    size_t n = t.n < sizeof e->name ? t.n : sizeof e->name - 1;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)t.p[i];
        e->name[i] = (c > 0x20 && c < 0x7f && c != ',' && c != '"') ? (char)c : '_';
    }
    e->name[n] = '\0';
}

/* Write the map block to the running child and read its `ready`.  0, or
 * EX_UNAVAILABLE with the reason in err (what = "the map" or "the new
 * map" for the message); the child is gone then. */
static int send_map(gb_ext *e, const char *what, char *err, size_t errsz)
{
    char how[96], q[QUOTE_SZ];
    if (e->re > e->rs) {
        quote_pending(e, q, sizeof q);
        end_child(e, 0, NULL, 0);
        set_msg(err, errsz, "expected no output before %s, found %s (solver was killed)", what, q);
        return EX_UNAVAILABLE;
    }
    /* A child that exits at once (a typo in the command: status 127) may
     * be gone before or after the map is written.  Either way the answer
     * is judged by what it printed, so both races give one message; only
     * a child that closed its stdin but lingers is reported as such. */
    int we = 0;
    if (write_all(e, e->mapblock, e->maplen, now_ns() + (int64_t)e->max_ms * 1000000) != 0) {
        we = errno;
        if (we == ETIMEDOUT) {
            end_child(e, 0, NULL, 0);
            set_msg(err, errsz, "expected the solver to read %s (%dx%d) within %d ms, "
                    "found it stalled (solver was killed)", what, e->width, e->height, e->max_ms);
            return EX_UNAVAILABLE;
        }
        if (we != EPIPE) {
            end_child(e, 0, NULL, 0);
            set_msg(err, errsz, "expected the solver to read %s, found %s (solver was killed)", what,
                    strerror(we));
            return EX_UNAVAILABLE;
        }
    }
    char *line = NULL;
    size_t len = 0;
    /* no memory bound while the solver loads the map: it bounds queries */
    int r = read_line(e, now_ns() + (int64_t)(we ? EXIT_GRACE_MS : e->start_ms) * 1000000, 0, &line, &len);
    tok t0 = { "", 0 }, t1 = t0, t2 = t0;
    if (r == RL_LINE) {
        const char *p = line, *end = line + len;
        t0 = next_tok(&p, end), t1 = next_tok(&p, end), t2 = next_tok(&p, end);
    }
    int is_ready = r == RL_LINE && tok_is(t0, "ready") && t2.n == 0;
    if (we && (r == RL_TIMEOUT || is_ready)) {
        end_child(e, 0, NULL, 0);
        set_msg(err, errsz, "expected the solver to read %s, found its input closed (solver was killed)",
                what);
        return EX_UNAVAILABLE;
    }
    if (r == RL_LINE) {
        if (is_ready) {
            set_name(e, t1);
            return 0;
        }
        gb_diag_quote(q, sizeof q, line, len);
        end_child(e, 0, NULL, 0);
        set_msg(err, errsz, "expected 'ready' or 'ready NAME' after %s, found %s (solver was killed)",
                what, q);
        return EX_UNAVAILABLE;
    }
    quote_pending(e, q, sizeof q);
    int had = e->re > e->rs;
    if (r == RL_EOF || r == RL_DEAD) {
        end_child(e, EXIT_GRACE_MS, how, sizeof how);
        set_msg(err, errsz, "expected 'ready' after %s, found %s%s%s (solver %s)", what,
                r == RL_DEAD ? "the solver gone, its output held open by a process it started"
                             : "end of output", had ? " after " : "", had ? q : "", how);
    } else if (r == RL_TIMEOUT) {
        end_child(e, 0, NULL, 0);
        set_msg(err, errsz, "expected 'ready' after %s within %d ms, found %s%s (solver was killed)%s",
                what, e->start_ms, had ? "the partial line " : "nothing", had ? q : "",
                had ? "" : NO_FLUSH_HINT);
    } else if (r == RL_LONG) {
        end_child(e, 0, NULL, 0);
        set_msg(err, errsz, "expected 'ready' after %s, found a line longer than %zu bytes "
                "(solver was killed)", what, e->line_max);

    } else {
        int re = errno;
        end_child(e, 0, NULL, 0);
        set_msg(err, errsz, "expected 'ready' after %s, found a read error: %s (solver was killed)",
                what, strerror(re));
    }
    return EX_UNAVAILABLE;
}

/* Spawn a child, send the map, read `ready`.  0, or EX_OSERR /
 * EX_UNAVAILABLE with the reason in err (the child is gone then). */
static int start_child(gb_ext *e, char *err, size_t errsz)
{
    int rc = spawn_child(e);
    if (rc) {
        set_msg(err, errsz, "expected to start /bin/sh -c '%s', found %s", e->cmd, strerror(rc));
        return EX_OSERR;
    }
    return send_map(e, "the map", err, errsz);
}

/* ---- public API --------------------------------------------------------- */
static gb_ext *open_ext(const char *cmd, const gb_map *m, gb_model model, int max_ms, int start_ms,
                        int keep, gb_diag *d)
{
    gb_diag_clear(d);
    gb_ext *e = gb_calloc(1, sizeof *e);
    if (e) {
        e->cmd = gb_strdup(cmd);
        e->bufsz = 4096;
        e->buf = gb_malloc(e->bufsz);
    }
    if (!e || !e->cmd || !e->buf || load_map(e, m, model) != 0) {
        if (e) { gb_free(e->cmd); gb_free(e->buf); gb_free(e); }
        gb_diag_set(d, EX_OSERR, cmd, 0, 0, "expected memory for the external solver, found none");
        return NULL;
    }
    e->pid = -1;
    e->pidfd = -1;
    e->to_fd = e->from_fd = -1;
    e->next = live_head;
    live_head = e;
    e->max_ms = max_ms > 0 ? max_ms : GB_EXT_DEFAULT_MS;
    e->start_ms = start_ms > 0 ? start_ms : e->max_ms;
    char err[256];
    int rc = start_child(e, err, sizeof err);
    if (rc) {
        gb_diag_set(d, rc, cmd, 0, 0, "%s", err);
        if (keep && rc == EX_UNAVAILABLE) {   /* queries retry, then answer crash */
            e->failed_starts = 1;
            snprintf(e->last_err, sizeof e->last_err, "%s", err);
            return e;
        }
        gb_ext_close(e, NULL);
        return NULL;
    }
    return e;
}

gb_ext *gb_ext_open(const char *cmd, const gb_map *m, gb_model model, int max_ms, gb_diag *d)
{
    return open_ext(cmd, m, model, max_ms, 0, 0, d);
}

gb_ext *gb_ext_open_keep(const char *cmd, const gb_map *m, gb_model model, int max_ms,
                         int start_ms, gb_diag *d)
{
    return open_ext(cmd, m, model, max_ms, start_ms, 1, d);
}

int gb_ext_set_map(gb_ext *e, const gb_map *m, gb_model model, gb_diag *d)
{
    gb_diag_clear(d);
    if (load_map(e, m, model) != 0)
        return gb_diag_set(d, EX_OSERR, e->cmd, 0, 0, "expected memory for the map, found none");
    char err[256];
    e->failed_starts = 0;
    int rc = e->pid > 0 ? send_map(e, "the new map", err, sizeof err)  /* replaces the old one */
                        : start_child(e, err, sizeof err);
    if (rc) {
        snprintf(e->last_err, sizeof e->last_err, "%s", err);
        return gb_diag_set(d, rc, e->cmd, 0, 0, "%s", err);
    }
    return 0;
}

const char *gb_ext_name(const gb_ext *e) { return e->name; }

long gb_ext_restarts(const gb_ext *e) { return e->spawns > 0 ? e->spawns - 1 : 0; }

double gb_ext_path_cost(const gb_xy *path, size_t n)
{
    int64_t straight = 0, diag = 0;
    for (size_t i = 0; i + 1 < n; i++) {
        if (path[i + 1].x != path[i].x && path[i + 1].y != path[i].y) diag++;
        else straight++;
    }
    return gb_check_cost(straight, diag);
}

/* Fill a with a failure; the child is ended (grace_ms as in end_child)
 * and its end appended to the message when grace_ms >= 0. */
static gb_ext_status fail(gb_ext *e, gb_ext_answer *a, gb_ext_status st, int grace_ms,
                          int64_t t0, const char *fmt, ...) GB_PRINTF_LIKE(6, 7);
static gb_ext_status fail(gb_ext *e, gb_ext_answer *a, gb_ext_status st, int grace_ms,
                          int64_t t0, const char *fmt, ...)
{
    a->wall_ns = t0 ? now_ns() - t0 : 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(a->msg, sizeof a->msg, fmt, ap);
    va_end(ap);
    char how[96];
    end_child(e, grace_ms > 0 ? grace_ms : 0, how, sizeof how);
    if (grace_ms >= 0) {
        size_t l = strlen(a->msg);
        snprintf(a->msg + l, sizeof a->msg - l, " (solver %s)", how);
    }
    a->status = st;
    a->path = NULL;
    a->n = 0;
    return st;
}

/* Parse the answer line to query id.  Returns PATH/NOPATH, or PROTOCOL
 * with the reason in a->msg (the caller ends the child). */
static gb_ext_status parse_answer(gb_ext *e, long id, const char *line, size_t len,
                                  gb_ext_answer *a)
{
    const char *p = line, *end = line + len;
    char q[QUOTE_SZ];
    tok kw = next_tok(&p, end);
    int is_path = tok_is(kw, "path");
    if (!is_path && !tok_is(kw, "nopath")) {
        gb_diag_quote(q, sizeof q, line, len);
        set_msg(a->msg, sizeof a->msg, "query %ld: expected 'path %ld N X0 Y0 ...' or "
                "'nopath %ld', found %s", id, id, id, q);
        return GB_EXT_PROTOCOL;
    }
    tok t = next_tok(&p, end);
    int64_t v;
    if (!tok_int(t, INT64_MIN / 2, INT64_MAX / 2, &v) || v != (int64_t)id) {
        quote_tok(t, q, sizeof q);
        set_msg(a->msg, sizeof a->msg, "query %ld: expected id %ld after '%s', found %s", id, id,
                is_path ? "path" : "nopath", q);
        return GB_EXT_PROTOCOL;
    }
    size_t n = 0;
    if (is_path) {
        t = next_tok(&p, end);
        if (!tok_int(t, 1, (int64_t)e->cap_cells, &v)) {
            quote_tok(t, q, sizeof q);
            set_msg(a->msg, sizeof a->msg, "query %ld: expected a cell count from 1 to %zu "
                    "(passable cells + 1), found %s", id, e->cap_cells, q);
            return GB_EXT_PROTOCOL;
        }
        n = (size_t)v;
        for (size_t i = 0; i < 2 * n; i++) {
            t = next_tok(&p, end);
            if (!tok_int(t, INT32_MIN, INT32_MAX, &v)) {
                if (t.n == 0)
                    set_msg(a->msg, sizeof a->msg, "query %ld: expected %zu coordinates (%zu cells), "
                            "found %zu", id, 2 * n, n, i);
                else {
                    quote_tok(t, q, sizeof q);
                    set_msg(a->msg, sizeof a->msg, "query %ld: expected %zu integer coordinates "
                            "(%zu cells), found %zu then %s", id, 2 * n, n, i, q);
                }
                return GB_EXT_PROTOCOL;
            }
            if (i % 2 == 0) e->path[i / 2].x = (int32_t)v;
            else e->path[i / 2].y = (int32_t)v;
        }
    }
    a->self_ns = -1;
    t = next_tok(&p, end);
    if (t.n != 0) {
        if (!tok_is(t, "time_ns")) {
            quote_tok(t, q, sizeof q);
            if (is_path)
                set_msg(a->msg, sizeof a->msg, "query %ld: expected end of line or 'time_ns T' "
                        "after %zu cells, found %s", id, n, q);
            else
                set_msg(a->msg, sizeof a->msg, "query %ld: expected end of line or 'time_ns T' "
                        "after 'nopath %ld', found %s", id, id, q);
            return GB_EXT_PROTOCOL;
        }
        t = next_tok(&p, end);
        if (!tok_int(t, 0, INT64_MAX / 2, &v)) {
            quote_tok(t, q, sizeof q);
            set_msg(a->msg, sizeof a->msg, "query %ld: expected a time_ns value >= 0, found %s",
                    id, q);
            return GB_EXT_PROTOCOL;
        }
        a->self_ns = v;
        t = next_tok(&p, end);
        if (t.n != 0) {
            quote_tok(t, q, sizeof q);
            set_msg(a->msg, sizeof a->msg, "query %ld: expected end of line after 'time_ns %lld', "
                    "found %s", id, (long long)v, q);
            return GB_EXT_PROTOCOL;
        }
    }
    a->path = is_path ? e->path : NULL;
    a->n = n;
    return is_path ? GB_EXT_PATH : GB_EXT_NOPATH;
}

gb_ext_status gb_ext_query(gb_ext *e, long id, gb_xy s, gb_xy t, gb_ext_answer *a)
{
    memset(a, 0, sizeof *a);
    a->self_ns = -1;
    char q[QUOTE_SZ];
    if (e->pid <= 0) {                                   /* (re)start */
        if (e->failed_starts >= GB_EXT_MAX_RESTART_FAILS)
            return fail(e, a, GB_EXT_CRASH, -1, 0, "query %ld: expected a running solver, found "
                        "%d failed restarts in a row; last: %s", id, e->failed_starts, e->last_err);
        char err[256];
        if (start_child(e, err, sizeof err) != 0) {
            e->failed_starts++;
            snprintf(e->last_err, sizeof e->last_err, "%s", err);
            return fail(e, a, GB_EXT_CRASH, -1, 0, "query %ld: could not restart the solver: %s",
                        id, err);
        }
        e->failed_starts = 0;
    }
    /* output between answers is the solver speaking out of turn */
    if (e->re == e->rs) {
        ssize_t r = read(e->from_fd, e->buf, e->bufsz);
        if (r > 0) { e->rs = 0; e->re = (size_t)r; }
        else if (r == 0)
            return fail(e, a, GB_EXT_CRASH, EXIT_GRACE_MS, 0, "query %ld: expected the solver "
                        "to wait for a request, found end of output", id);
    }
    if (e->re > e->rs) {
        quote_pending(e, q, sizeof q);
        return fail(e, a, GB_EXT_PROTOCOL, -1, 0, "query %ld: expected no output before the "
                    "request, found %s", id, q);
    }

    char req[128];
    int rl = snprintf(req, sizeof req, "query %ld %d %d %d %d\n", id, s.x, s.y, t.x, t.y);
    int64_t t0 = now_ns();
    int64_t deadline = t0 + (int64_t)e->max_ms * 1000000;
    int we = 0;
    if (write_all(e, req, (size_t)rl, deadline) != 0) {
        we = errno;
        if (we == ETIMEDOUT)
            return fail(e, a, GB_EXT_TIMEOUT, 0, t0, "query %ld: expected the solver to read the "
                        "request within %d ms, found it stalled", id, e->max_ms);
        if (we != EPIPE)
            return fail(e, a, GB_EXT_CRASH, 0, t0, "query %ld: expected the solver to read the "
                        "request, found %s", id, strerror(we));
        /* stdin closed: if the child is exiting, its output ends soon, and
         * the end is reported as for a child that died after the request */
        deadline = now_ns() + (int64_t)EXIT_GRACE_MS * 1000000;
    }
    char *line;
    size_t len;
    int r = read_line(e, deadline, e->max_mem, &line, &len);
    int64_t t1 = now_ns();   /* the memory check below is not the solver's time */
    if (r == RL_LINE && e->max_mem && tree_rss(e) > e->max_mem) r = RL_MEMLIMIT;
    if (we && r != RL_EOF)
        return fail(e, a, GB_EXT_CRASH, 0, t0, "query %ld: expected the solver to read the "
                    "request, found its input closed", id);
    int had = e->re > e->rs;
    if (r != RL_LINE && r != RL_LONG) quote_pending(e, q, sizeof q);
    switch (r) {
    case RL_LINE: break;
    case RL_EOF:
        return fail(e, a, GB_EXT_CRASH, EXIT_GRACE_MS, t0, "query %ld: expected an answer, found "
                    "end of output%s%s", id, had ? " after " : "", had ? q : "");
    case RL_DEAD:
        return fail(e, a, GB_EXT_CRASH, EXIT_GRACE_MS, t0, "query %ld: expected an answer, found "
                    "the solver gone%s%s while a process it started holds its output open", id,
                    had ? " after " : "", had ? q : "");
    case RL_TIMEOUT:
        return fail(e, a, GB_EXT_TIMEOUT, 0, t0, "query %ld: expected an answer within %d ms, "
                    "found %s%s%s", id, e->max_ms, had ? "the partial line " : "nothing",
                    had ? q : "", had ? "" : NO_FLUSH_HINT);
    case RL_MEMLIMIT:
        return fail(e, a, GB_EXT_LIMIT, 0, t0, "query %ld: expected the solver to stay within "
                    "%llu bytes of memory, found it resident in more", id,
                    (unsigned long long)e->max_mem);
    case RL_LONG:
        return fail(e, a, GB_EXT_PROTOCOL, 0, t0, "query %ld: expected a line of at most %zu "
                    "bytes (%zu cells), found a longer one", id, e->line_max, e->cap_cells);
    default: {
        int re = errno;
        return fail(e, a, GB_EXT_CRASH, 0, t0, "query %ld: expected an answer, found a read "
                    "error: %s", id, strerror(re));
    }
    }
    gb_ext_status st = parse_answer(e, id, line, len, a);
    a->wall_ns = t1 - t0;
    if (st == GB_EXT_PROTOCOL) {            /* out of step: never reuse this child */
        end_child(e, 0, NULL, 0);
        a->path = NULL;
        a->n = 0;
    }
    a->status = st;
    return st;
}

void gb_ext_set_max_mem(gb_ext *e, uint64_t bytes) { e->max_mem = bytes; }
uint64_t gb_ext_resident(gb_ext *e) { return e->pid > 0 ? tree_rss(e) : 0; }

int gb_ext_close(gb_ext *e, gb_diag *d)
{
    gb_diag_clear(d);
    if (!e) return 0;
    int rc = 0;
    if (e->pid > 0) {
        char how[96];
        int wrote = write_all(e, "quit\n", 5, now_ns() + (int64_t)GB_EXT_QUIT_MS * 1000000) == 0;
        int clean = end_child(e, GB_EXT_QUIT_MS, how, sizeof how);
        if (!clean) {
            rc = 1;
            gb_diag_set(d, EX_UNAVAILABLE, e->cmd, 0, 0, "expected the solver to exit with status 0 "
                        "after 'quit', found it %s%s", how, wrote ? "" : " (could not send 'quit')");
        }
    }
    for (gb_ext **pp = &live_head; *pp; pp = &(*pp)->next)
        if (*pp == e) { *pp = e->next; break; }
    gb_free(e->cmd);
    gb_free(e->mapblock);
    gb_free(e->buf);
    gb_free(e->path);
    gb_free(e->tree);
    gb_free(e->tstart);
    gb_free(e);
    return rc;
}
