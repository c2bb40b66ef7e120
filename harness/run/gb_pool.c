/*
 * gb_pool.c -- the worker pool (--jobs N, and every run with a plugin
 * solver): forked processes execute queries, the parent sinks them.
 *
 * The parent hands out plan positions over a command pipe per worker (at
 * most WORKER_DEPTH outstanding each, at most RING positions ahead of the
 * next one to write) and reads results from a result pipe per worker with
 * poll(); results wait in a ring until every earlier position is written,
 * so the CSV is the same as with one process (timing columns aside).  A
 * worker that dies: its first outstanding position becomes `crash` rows,
 * the others are handed out again, and a new worker takes its place.  A
 * worker that meets bad input sends the diagnostic and the run stops as
 * it would in one process.
 *
 * Plugin solvers run in workers even with --jobs 1 (one worker), so that
 * one that crashes cannot take the run down.  Each worker tells the
 * parent which pair it is running through a word of shared memory
 * (inflight); when a worker dies inside a plugin pair, its position is
 * handed out again with that pair on the position's skip list (sent with
 * the command): the retry writes a `crash` row for it and runs the other
 * pairs as usual.  A death outside a plugin pair gives `crash` rows for
 * the whole query.
 */
#define _GNU_SOURCE 1   /* sched_setaffinity, pipe2 */
#include "gb_sink.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gb_alloc.h"

/* ---- workers ---------------------------------------------------------- */

#define WORKER_DEPTH 2      /* positions outstanding per worker */
#define MSG_MAGIC 0x47425251u   /* "QRBG" */
enum { MSG_RESULT = 1, MSG_ERROR = 2 };

typedef struct msg_head {
    uint32_t magic, kind;
    uint64_t pos;            /* position in the run's todo list */
    int32_t scen_ok, oracle_hit;
    uint64_t rows_len, notes_len, paths_len;
} msg_head;

/* A command to a worker: a position (UINT64_MAX: stop), then nskip int32
 * pair indices not to run (they crashed a worker on it; ws is the wait
 * status that worker ended with). */
typedef struct cmd_head {
    uint64_t pos;
    int32_t nskip, ws;
} cmd_head;

/* The pairs that crashed a worker, per position (few: a list). */
typedef struct skipent {
    size_t pos;
    int32_t pi, ws;
} skipent;

typedef struct worker {
    pid_t pid;               /* 0: none */
    int cmd, res;            /* write end of its commands, read end of its results */
    size_t out[WORKER_DEPTH];  /* positions sent, oldest first */
    int nout;
    char *buf;               /* bytes read, not yet a whole message */
    size_t len, cap;
    int cpu;                 /* CPU to pin it to, or -1 */
} worker;

static int write_full(int fd, const void *b, size_t n)
{
    const char *p = b;
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0) { if (errno == EINTR) continue; return -1; }
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

static int read_full(int fd, void *b, size_t n)
{
    char *p = b;
    while (n) {
        ssize_t r = read(fd, p, n);
        if (r < 0) { if (errno == EINTR) continue; return -1; }
        if (r == 0) return -1;
        p += r;
        n -= (size_t)r;
    }
    return 0;
}

static size_t msg_size(int npairs, const msg_head *h)
{
    return sizeof *h + (size_t)npairs * (1 + 8 + 8 + 64) + h->rows_len + h->notes_len + h->paths_len;
}

/* The worker's loop: read positions, execute, send results.  Never returns. */
static void worker_main(const gb_run_opts *o, const gb_plan *pl, const size_t *todo, size_t ntodo, int cmd,
                        int res, volatile int32_t *inflight)
{
    gb_exec ex;
    gb_diag d;
    gb_diag_clear(&d);
    gb_qres r;
    int code = 0;
    if (gb_exec_init(&ex, o, pl, &d) != 0 || gb_qres_init(&r, o->npairs) != 0) _exit(71);
    /* a test hook: GRIDBENCH_WORKER_CRASH_AT=k kills the worker that is
     * handed plan index k (tests/test_scale.c proves a crash is contained) */
    const char *ca = getenv("GRIDBENCH_WORKER_CRASH_AT");
    long crash_at = ca && *ca ? strtol(ca, NULL, 10) : -1;
    ex.inflight = inflight;
    ex.todo = todo;
    ex.ntodo = ntodo;
    cmd_head ch;
    while (read_full(cmd, &ch, sizeof ch) == 0 && ch.pos != UINT64_MAX) {
        uint64_t pos = ch.pos;
        memset(ex.skip, 0, (size_t)o->npairs);
        ex.skip_ws = ch.ws;
        for (int32_t i = 0; i < ch.nskip; i++) {
            int32_t pi;
            if (read_full(cmd, &pi, sizeof pi) != 0) _exit(1);
            if (pi >= 0 && pi < o->npairs) ex.skip[pi] = 1;
        }
        *inflight = -1;
        if (crash_at >= 0 && todo[pos] == (size_t)crash_at) kill(getpid(), SIGKILL);
        int rc = gb_exec_query(&ex, todo[pos], &r, &d);
        msg_head h = { MSG_MAGIC, rc ? MSG_ERROR : MSG_RESULT, pos, r.scen_ok, r.oracle_hit,
                       rc ? 0 : r.rows_len, r.notes_len, rc ? 0 : r.paths_len };
        int bad = write_full(res, &h, sizeof h) != 0;
        if (rc) {
            bad |= write_full(res, &d, sizeof d) != 0;
            bad |= r.notes_len && write_full(res, r.notes, r.notes_len) != 0;
            code = rc;
            break;
        }
        size_t np = (size_t)o->npairs;
        bad |= write_full(res, r.st, np) != 0;
        bad |= write_full(res, r.exp, np * 8) != 0;
        bad |= write_full(res, r.ns, np * 8) != 0;
        bad |= write_full(res, r.name, np * 64) != 0;
        bad |= r.rows_len && write_full(res, r.rows, r.rows_len) != 0;
        bad |= r.notes_len && write_full(res, r.notes, r.notes_len) != 0;
        bad |= r.paths_len && write_full(res, r.paths, r.paths_len) != 0;
        if (bad) { code = 74; break; }
    }
    gb_qres_free(&r);
    gb_exec_free(&ex);
    _exit(code ? 1 : 0);
}

typedef struct pool {
    worker *w;
    int n;
    const gb_run_opts *o;
    const gb_plan *pl;
    const size_t *todo;
    size_t ntodo;
    volatile int32_t *inflight;   /* [n] shared (mmap): each worker's running pair */
    skipent *skip;                /* pairs not to run again, per position */
    size_t nskip, capskip;
} pool;

static int worker_start(pool *pp, int i)
{
    worker *w = &pp->w[i];
    int c[2], r[2];
    if (pipe2(c, O_CLOEXEC) != 0) return -1;
    if (pipe2(r, O_CLOEXEC) != 0) { close(c[0]); close(c[1]); return -1; }
    fflush(NULL);   /* nothing buffered is written twice */
    pp->inflight[i] = -1;
    pid_t pid = fork();
    if (pid < 0) { close(c[0]); close(c[1]); close(r[0]); close(r[1]); return -1; }
    if (pid == 0) {
        /* the worker: default signal dispositions (the parent's handlers
         * remove the parent's temp files), die with the parent, keep only
         * its own pipe ends */
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        signal(SIGHUP, SIG_DFL);
        signal(SIGPIPE, SIG_DFL);
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() == 1) _exit(1);
        for (int j = 0; j < pp->n; j++)
            if (j != i && pp->w[j].pid) { close(pp->w[j].cmd); close(pp->w[j].res); }
        close(c[1]);
        close(r[0]);
        if (w->cpu >= 0) {
            cpu_set_t set;
            CPU_ZERO(&set);
            CPU_SET((size_t)w->cpu, &set);
            sched_setaffinity(0, sizeof set, &set);
        }
        worker_main(pp->o, pp->pl, pp->todo, pp->ntodo, c[0], r[1], &pp->inflight[i]);
    }
    close(c[0]);
    close(r[1]);
    w->pid = pid;
    w->cmd = c[1];
    w->res = r[0];
    w->nout = 0;
    w->len = 0;
    return 0;
}

/* Stop worker i (after its last result, or because it died): close its
 * pipes and reap it.  Its wait status goes to *ws. */
static void worker_stop(worker *w, int kill_it, int *ws)
{
    int status = 0;
    if (!w->pid) return;
    if (kill_it) kill(w->pid, SIGKILL);
    else {
        cmd_head stop = { UINT64_MAX, 0, 0 };
        (void)!write(w->cmd, &stop, sizeof stop);
    }
    close(w->cmd);
    close(w->res);
    while (waitpid(w->pid, &status, 0) < 0 && errno == EINTR) {}
    if (ws) *ws = status;
    w->pid = 0;
}

static int worker_send(pool *pp, worker *w, size_t pos)
{
    cmd_head h = { pos, 0, 0 };
    int32_t list[GB_RUN_MAX_PAIRS];
    for (size_t i = 0; i < pp->nskip; i++)
        if (pp->skip[i].pos == pos && h.nskip < GB_RUN_MAX_PAIRS) {
            list[h.nskip++] = pp->skip[i].pi;
            h.ws = pp->skip[i].ws;
        }
    if (write_full(w->cmd, &h, sizeof h) != 0) return -1;
    if (h.nskip && write_full(w->cmd, list, (size_t)h.nskip * sizeof *list) != 0) return -1;
    w->out[w->nout++] = pos;
    return 0;
}

/* Worker i died on position pos: when it was running a user pair not
 * yet skipped there, put that pair on the position's skip list and
 * return 1 (the position is handed out again); else 0. */
static int skip_crashed(pool *pp, int i, size_t pos, int wstatus)
{
    int32_t pi = pp->inflight[i];
    if (pi < 0 || pi >= pp->o->npairs || !pp->o->pairs[pi].user) return 0;
    for (size_t k = 0; k < pp->nskip; k++)
        if (pp->skip[k].pos == pos && pp->skip[k].pi == pi) return 0;
    if (pp->nskip == pp->capskip) {
        size_t nc = pp->capskip ? 2 * pp->capskip : 16;
        skipent *ns = gb_realloc(pp->skip, nc * sizeof *ns);
        if (!ns) return 0;
        pp->skip = ns;
        pp->capskip = nc;
    }
    pp->skip[pp->nskip++] = (skipent){ pos, pi, wstatus };
    return 1;
}

/* The CPUs this process may run on, in order, into cpus[] (at most n). */
static int allowed_cpus(int *cpus, int n)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0) return 0;
    int k = 0;
    for (int c = 0; c < CPU_SETSIZE && k < n; c++)
        if (CPU_ISSET((size_t)c, &set)) cpus[k++] = c;
    return k;
}

/* Parse a whole message at the head of w->buf into *r (returns its size),
 * 0 when not all of it is there yet. */
static size_t msg_take(worker *w, int npairs, gb_qres *r, msg_head *h, gb_diag *d)
{
    if (w->len < sizeof *h) return 0;
    memcpy(h, w->buf, sizeof *h);
    size_t need = h->kind == MSG_ERROR ? sizeof *h + sizeof *d + h->notes_len : msg_size(npairs, h);
    if (w->len < need) return 0;
    const char *p = w->buf + sizeof *h;
    gb_qres_clear_text(r);
    if (h->kind == MSG_ERROR) {
        memcpy(d, p, sizeof *d);
        p += sizeof *d;
    } else {
        size_t np = (size_t)npairs;
        memcpy(r->st, p, np); p += np;
        memcpy(r->exp, p, np * 8); p += np * 8;
        memcpy(r->ns, p, np * 8); p += np * 8;
        memcpy(r->name, p, np * 64); p += np * 64;
        r->rows = malloc(h->rows_len + 1);
        if (!r->rows) return (size_t)-1;
        memcpy(r->rows, p, h->rows_len);
        r->rows_len = h->rows_len;
        p += h->rows_len;
        r->scen_ok = h->scen_ok;
        r->oracle_hit = h->oracle_hit;
    }
    r->notes = malloc(h->notes_len + 1);
    if (!r->notes) return (size_t)-1;
    memcpy(r->notes, p, h->notes_len);
    r->notes_len = h->notes_len;
    p += h->notes_len;
    if (h->kind != MSG_ERROR && h->paths_len) {
        r->paths = malloc(h->paths_len + 1);
        if (!r->paths) return (size_t)-1;
        memcpy(r->paths, p, h->paths_len);
        r->paths_len = h->paths_len;
    }
    return need;
}

#define RING 256   /* results kept ahead of the next position to write */

int gb_pool_run(gb_sink *sk, gb_exec *ex, const size_t *todo, size_t ntodo, long first_qn, gb_diag *d)
{
    const gb_run_opts *o = sk->o;
    int nw = o->jobs > 1 ? o->jobs : 1;   /* 1: user solvers isolated at --jobs 1 */
    if ((size_t)nw > ntodo) nw = (int)ntodo;
    pool pp = { NULL, nw, o, sk->pl, todo, ntodo, NULL, NULL, 0, 0 };
    gb_qres *ring = gb_calloc(RING, sizeof *ring);
    unsigned char *ready = gb_calloc(RING, 1);
    size_t *retry = gb_malloc((size_t)(nw * WORKER_DEPTH + 1) * sizeof *retry);
    struct pollfd *pfd = gb_malloc((size_t)nw * sizeof *pfd);
    pp.w = gb_calloc((size_t)nw, sizeof *pp.w);
    void *shm = mmap(NULL, (size_t)nw * sizeof(int32_t), PROT_READ | PROT_WRITE,
                     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    pp.inflight = shm == MAP_FAILED ? NULL : shm;
    int rc = 0, nring = 0;
    /* a dead worker's command pipe must fail with EPIPE, not kill us */
    void (*old_pipe)(int) = signal(SIGPIPE, SIG_IGN);
    if (!ring || !ready || !retry || !pfd || !pp.w || !pp.inflight) goto oom;
    for (; nring < RING; nring++)
        if (gb_qres_init(&ring[nring], o->npairs) != 0) goto oom;
    int cpus[1024], ncpu = allowed_cpus(cpus, 1024);
    for (int i = 0; i < nw; i++) {
        pp.w[i].cpu = o->pin && nw <= ncpu ? cpus[i] : -1;
        if (worker_start(&pp, i) != 0) {
            rc = gb_diag_set(d, EX_OSERR, "", 0, 0, "expected to start worker %d of %d, found '%s'",
                             i + 1, nw, strerror(errno));
            goto done;
        }
    }
    size_t next_write = 0, next_send = 0, nretry = 0;
    while (next_write < ntodo) {
        /* hand out work: retried positions first, then new ones in order */
        for (int i = 0; i < nw; i++) {
            worker *w = &pp.w[i];
            while (w->pid && w->nout < WORKER_DEPTH) {
                size_t pos;
                if (nretry) pos = retry[--nretry];
                else if (next_send < ntodo && next_send < next_write + RING) pos = next_send++;
                else break;
                if (worker_send(&pp, w, pos) != 0) { retry[nretry++] = pos; break; }
            }
        }
        int np = 0;
        for (int i = 0; i < nw; i++) {
            pfd[i].fd = pp.w[i].pid && pp.w[i].nout ? pp.w[i].res : -1;
            pfd[i].events = POLLIN;
            pfd[i].revents = 0;
            if (pfd[i].fd >= 0) np++;
        }
        if (np == 0) {
            rc = gb_diag_set(d, EX_SOFTWARE, "", 0, 0, "expected a worker with work, found none");
            goto done;
        }
        if (poll(pfd, (nfds_t)nw, -1) < 0) {
            if (errno == EINTR) continue;
            rc = gb_diag_set(d, EX_OSERR, "", 0, 0, "expected poll() to work, found '%s'", strerror(errno));
            goto done;
        }
        for (int i = 0; i < nw; i++) {
            worker *w = &pp.w[i];
            if (pfd[i].fd < 0 || !pfd[i].revents) continue;
            if (w->len + 65536 > w->cap) {
                size_t nc = w->cap ? 2 * w->cap : 131072;
                while (nc < w->len + 65536) nc *= 2;
                char *nb = gb_realloc(w->buf, nc);
                if (!nb) goto oom;
                w->buf = nb;
                w->cap = nc;
            }
            ssize_t got = read(w->res, w->buf + w->len, w->cap - w->len);
            if (got < 0 && errno == EINTR) continue;
            if (got <= 0) {   /* the worker died: its oldest position crashed */
                int ws = 0;
                worker_stop(w, 1, &ws);
                sk->tot->worker_crashes++;
                size_t pos = w->out[0];
                for (int j = w->nout - 1; j >= 1; j--) retry[nretry++] = w->out[j];
                w->nout = 0;
                if (skip_crashed(&pp, i, pos, ws)) {
                    retry[nretry++] = pos;   /* again, without the pair that crashed */
                } else {
                    gb_qres *slot = &ring[pos % RING];
                    if (gb_exec_crash_rows(ex, todo[pos], ws, slot) != 0) goto oom;
                    ready[pos % RING] = 1;
                }
                w->len = 0;
                if (worker_start(&pp, i) != 0) {
                    rc = gb_diag_set(d, EX_OSERR, "", 0, 0, "expected to restart a worker, found '%s'",
                                     strerror(errno));
                    goto done;
                }
                continue;
            }
            w->len += (size_t)got;
            for (;;) {
                msg_head h;
                if (!w->nout) break;
                size_t pos = w->out[0];
                gb_qres *slot = &ring[pos % RING];
                size_t used = msg_take(w, o->npairs, slot, &h, d);
                if (used == (size_t)-1) goto oom;
                if (used == 0) break;
                if (h.magic != MSG_MAGIC || h.pos != pos) {
                    rc = gb_diag_set(d, EX_SOFTWARE, "", 0, 0, "expected the result of position %zu "
                                     "from a worker, found a garbled message", pos);
                    goto done;
                }
                memmove(w->buf, w->buf + used, w->len - used);
                w->len -= used;
                memmove(w->out, w->out + 1, (size_t)(w->nout - 1) * sizeof *w->out);
                w->nout--;
                if (h.kind == MSG_ERROR) {   /* bad input: stop as one process would */
                    gb_sink_notes(o, slot->notes, slot->notes_len);
                    rc = d->code ? d->code : EX_SOFTWARE;
                    goto done;
                }
                ready[pos % RING] = 1;
            }
        }
        /* write what is complete, in order */
        while (next_write < ntodo && ready[next_write % RING]) {
            gb_qres *slot = &ring[next_write % RING];
            if ((rc = gb_sink_query(sk, todo[next_write], first_qn + (long)next_write, slot, d)) != 0)
                goto done;
            gb_qres_clear_text(slot);
            ready[next_write % RING] = 0;
            next_write++;
        }
    }
    goto done;
oom:
    rc = gb_diag_set(d, EX_OSERR, "", 0, 0, "expected memory, found none");
done:
    for (int i = 0; pp.w && i < nw; i++) {
        worker_stop(&pp.w[i], rc != 0, NULL);
        gb_free(pp.w[i].buf);
    }
    signal(SIGPIPE, old_pipe);
    if (pp.inflight) munmap((void *)pp.inflight, (size_t)nw * sizeof(int32_t));
    gb_free(pp.skip);
    for (int i = 0; i < nring; i++) gb_qres_free(&ring[i]);
    gb_free(ring);
    gb_free(ready);
    gb_free(retry);
    gb_free(pfd);
    gb_free(pp.w);
    return rc;
}
