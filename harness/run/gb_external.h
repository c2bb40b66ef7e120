/*
 * gb_external.h -- "bring your own solver": drive a solver that runs as a
 * separate process and speaks the line protocol of docs/protocol.md over
 * its stdin and stdout.
 *
 * Data structure
 *   A gb_ext owns one child process at a time (`/bin/sh -c CMD`, spawned
 *   as the leader of its own process group), the write end of a pipe to
 *   its stdin, the read end of a pipe from its stdout, a read buffer, the
 *   encoded map block (a copy, kept so that a restarted child can be sent
 *   the map again: the gb_map itself may be freed after gb_ext_open or
 *   gb_ext_set_map returns) and a path buffer of at most `npassable + 1`
 *   cells.  The child's stderr is inherited: its diagnostics reach
 *   gridbench's stderr.
 *
 * Invariants
 *   - pid > 0 exactly when a child is running and has answered `ready`
 *     to the current map; then to_fd and from_fd are open (O_CLOEXEC,
 *     to_fd non-blocking) and the read buffer holds no complete answer.
 *   - After any answer that is not GB_EXT_PATH or GB_EXT_NOPATH the child
 *     is killed (SIGKILL to its process group and to every descendant,
 *     also one that called setsid()) and reaped before gb_ext_query
 *     returns; the next query spawns a fresh child and sends it the map
 *     again.  So one bad answer never poisons the next query, and no
 *     zombie or straggler outlives a gb_ext.
 *   - The process that spawns a child becomes a child subreaper
 *     (prctl PR_SET_CHILD_SUBREAPER, for the rest of its life): orphaned
 *     descendants of the solver are reparented to it, found by the tree
 *     walk, killed with the tree and reaped by it.  Strays are children of
 *     this process started after the solver's leader that are no open
 *     driver's leader or member: a caller that forks children of its own
 *     while a gb_ext is open may see them counted and killed with the
 *     solver (gridbench's own workers never run beside one).
 *   - A leader that exits while a descendant keeps its stdout open ends
 *     the wait for an answer at once (a pidfd is polled with the pipe):
 *     GB_EXT_CRASH, not GB_EXT_TIMEOUT.
 *   - Every wait is bounded: writing the map or a request, waiting for
 *     `ready` and for each answer each take at most max_ms milliseconds
 *     (poll() on the pipes, CLOCK_MONOTONIC deadlines).
 *   - gridbench never dies with the child: writes are made with SIGPIPE
 *     blocked (sigprocmask), and a SIGPIPE raised by a write to a dead
 *     child is consumed (sigtimedwait) before the mask is restored, so the
 *     write fails with EPIPE instead.  The process's SIGPIPE disposition is
 *     never changed.  (sigprocmask: the harness is single-threaded.)
 *   - The library never prints and never exits; failures to start fill a
 *     caller-owned gb_diag, per-query failures fill gb_ext_answer.msg.
 *
 * Costs: the child reports a path only, never a cost.  gb_ext_path_cost()
 * computes the cost of a path from its geometry (diagonal steps sqrt 2,
 * others 1) so that it can be passed to gb_validate_path() as the
 * "reported" cost; the validator's check of a reported cost is then
 * vacuous, while its legality checks and the (straight, diagonal) step
 * counts it returns -- which the runner compares with the oracle's --
 * are not.
 */
#ifndef GB_EXTERNAL_H
#define GB_EXTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "gb_diag.h"
#include "gb_grid.h"
#include "gb_map.h"
#include "gb_validate.h"

/* Default for max_ms <= 0: every wait (ready, each answer) 10 s. */
#define GB_EXT_DEFAULT_MS 10000
/* gb_ext_close: how long a child may take to exit after `quit`. */
#define GB_EXT_QUIT_MS 2000
/* After this many restarts in a row that fail, queries fail at once
 * (GB_EXT_CRASH) instead of trying again. */
#define GB_EXT_MAX_RESTART_FAILS 3

typedef struct gb_ext gb_ext;

typedef enum gb_ext_status {
    GB_EXT_PATH = 0,    /* a well-formed path (not yet validated!) */
    GB_EXT_NOPATH,      /* the solver says the goal is unreachable */
    GB_EXT_PROTOCOL,    /* malformed answer, wrong id, wrong cell count... */
    GB_EXT_TIMEOUT,     /* no complete answer within max_ms */
    GB_EXT_CRASH,       /* the child died (even with a descendant holding its output),
                           closed a pipe, or cannot be restarted */
    GB_EXT_LIMIT,       /* the child's resident memory passed gb_ext_set_max_mem's bound */
    GB_EXT_NSTATUS
} gb_ext_status;

typedef struct gb_ext_answer {
    gb_ext_status status;
    gb_xy *path;        /* GB_EXT_PATH: n cells, start and goal included;
                           owned by the gb_ext, valid until its next call */
    size_t n;           /* number of cells (0 unless GB_EXT_PATH) */
    int64_t wall_ns;    /* request written -> answer line read (CLOCK_MONOTONIC);
                           for TIMEOUT/CRASH the time until that was known */
    int64_t self_ns;    /* the solver's own `time_ns T`, -1 if not given */
    char msg[256];      /* "" for PATH/NOPATH; else "query ID: expected ..., found ..." */
} gb_ext_answer;

/* "path", "nopath", "protocol_error", "timeout", "crash". */
const char *gb_ext_status_name(gb_ext_status s);

/* Start `/bin/sh -c cmd`, send it map m (copied; terrain letters, or
 * '.'/'@' from the grid when m->terrain is NULL) under model, and wait
 * for `ready`.  max_ms bounds every wait (<= 0: GB_EXT_DEFAULT_MS).
 * Returns the driver, or NULL with *d filled: EX_OSERR (no memory, pipe
 * or spawn failure), EX_UNAVAILABLE (the child exited, timed out or
 * answered something other than `ready`; the message says which, with the
 * exit status or signal).  d->path is the command. */
gb_ext *gb_ext_open(const char *cmd, const gb_map *m, gb_model model, int max_ms,
                    gb_diag *d);

/* As gb_ext_open, except that waiting for `ready` after a map (start-up
 * and map loading) may take start_ms (<= 0: max_ms), and that a solver
 * that fails to start (EX_UNAVAILABLE in *d: it exited, timed out or
 * answered garbage) still gives a driver: its queries try a restart and
 * answer GB_EXT_CRASH with the reason while it cannot start (after
 * GB_EXT_MAX_RESTART_FAILS failed starts in a row, at once).  So one
 * solver that cannot start costs its own rows, not the run.  NULL only
 * with EX_OSERR. */
gb_ext *gb_ext_open_keep(const char *cmd, const gb_map *m, gb_model model, int max_ms,
                         int start_ms, gb_diag *d);

/* Send the solver a new map (copied; it replaces the previous one) and
 * wait for `ready`.  Starts a child when none is running.
 * Returns 0, or a code as gb_ext_open with *d filled; after a failure the
 * child is killed, and the next query tries a restart with the new map. */
int gb_ext_set_map(gb_ext *e, const gb_map *m, gb_model model, gb_diag *d);

/* Bound the solver's resident memory while it works on a query (0 = none):
 * the sum of the resident sets of its whole process tree -- the shell and
 * every descendant, also those that left its process group or session
 * (/proc/[pid]/stat; gb_external.c says how the tree is found) -- is read
 * every 10 ms while an answer is awaited and when it arrives (not while it
 * loads a map); a tree above bytes is ended and the query is
 * GB_EXT_LIMIT.  All of /proc is read at most every 200 ms (the known
 * members in between), so a new helper counts within 200 ms. */
void gb_ext_set_max_mem(gb_ext *e, uint64_t bytes);

/* Resident bytes of the running solver's whole process tree now (as
 * gb_ext_set_max_mem counts them), 0 when no child runs or /proc cannot
 * be read. */
uint64_t gb_ext_resident(gb_ext *e);

/* Ask for a path from s to t (map coordinates; the driver does not check
 * them), tagged with id.  Always fills *a and returns a->status.  After a
 * status other than PATH/NOPATH the child has been killed and reaped; the
 * next call starts a new one (its start-up time is not counted in that
 * query's wall_ns).  A path is only checked for form (an integer pair per
 * cell, at most npassable + 1 cells); legality and cost are the
 * validator's job. */
gb_ext_status gb_ext_query(gb_ext *e, long id, gb_xy s, gb_xy t, gb_ext_answer *a);

/* Name the solver gave in `ready NAME` ("" if none), at most 63 bytes. */
const char *gb_ext_name(const gb_ext *e);

/* Number of times a child was (re)started after the first one. */
long gb_ext_restarts(const gb_ext *e);

/* Cost of path[0..n) from its geometry: a step changing both coordinates
 * costs sqrt 2, any other step 1 (legality is not checked).  Equal to
 * what gb_validate_path() recomputes for every legal path, so it is the
 * reported cost to pass for an external solver's path. */
double gb_ext_path_cost(const gb_xy *path, size_t n);

/* Send `quit`, close the child's stdin, wait up to GB_EXT_QUIT_MS for it
 * to exit, SIGKILL its process group if it has not, reap it, free
 * everything.  Returns 0 when no child was running or it exited with
 * status 0; otherwise 1, with *d (may be NULL) saying how it ended
 * (EX_UNAVAILABLE).  e == NULL is a no-op returning 0. */
int gb_ext_close(gb_ext *e, gb_diag *d);

#endif
