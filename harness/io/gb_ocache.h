/*
 * gb_ocache.h -- the oracle cache: Dijkstra's optimum of a query, paid once.
 *
 * Key: the SHA-256 of the map file's bytes, the movement model, the start
 * and goal cells, and GB_OCACHE_ORACLE_VERSION (bumped whenever the
 * oracle could answer differently).  Value: the optimum's step counts
 * (straight, diagonal) -- the exact cost a + b*sqrt 2 -- or "unreachable".
 * Another oracle keeps its own file beside (gb_ocache_open_kind: a kind
 * in place of the model); the any-angle oracle's value is a real cost,
 * its 64 bits in the two value fields (gb_ocache_get_real/_put_real).
 *
 * Layout: one file per map and model (or kind), DIR/<map sha256>.<model>.gboc:
 *
 *   a 128-byte header line   "gridbench-oracle-cache 1 oracle=N map=<sha256> model=M" + spaces + "\n"
 *   32-byte records          int32 sx, sy, gx, gy, straight, diag (diag < 0:
 *                            unreachable), uint32 check, uint32 magic
 *
 * check is a hash of the record's first 24 bytes and the map's SHA-256, so
 * a record torn, flipped or copied from another map's file is detected.
 * Records are only appended, each with one write() on an O_APPEND
 * descriptor (32 bytes: never interleaved with another writer's record on
 * a local file system), so any number of processes (--jobs workers,
 * shards on one machine) can fill one file at once; a later record of a
 * key wins.  Opening a file whose header is not this version's, whose
 * length leaves a torn record, or that holds a corrupt record rebuilds it
 * (the good records, through a fresh O_EXCL temp file and a rename, under
 * an exclusive flock of DIR/<file>.lock): nothing wrong is ever trusted.
 * A record appended by another process to the file being replaced is
 * lost, which costs one recomputation, never a wrong answer.  Reading
 * takes no lock, so a pre-filled cache this process cannot write is used
 * read-only; the lock is taken only to create or rebuild the file.
 *
 * Trust (as ssh's StrictModes): the file, its lock, DIR and every folder
 * above DIR must be owned by this user or root and writable by no other
 * user (a folder above DIR may be when its sticky bit is set, as /tmp);
 * links are never followed to the file or the lock.  Anything else is
 * ignored: gb_ocache_open fails with EX_NOPERM and a message naming it,
 * and the caller runs without the cache.  New folders are made 0755 and
 * files 0644 (before the umask).
 *
 * The caller still checks every hit against the scenario's printed length
 * and recomputes on disagreement (gb_run.c), so a stale or wrong entry
 * cannot turn into a wrong verdict either.
 */
#ifndef GB_OCACHE_H
#define GB_OCACHE_H

#include <stdint.h>

#include "gb_diag.h"
#include "gb_grid.h"

/* Bump when the oracle (or the cost model) could answer differently. */
#define GB_OCACHE_ORACLE_VERSION 1

typedef struct gb_ocache gb_ocache;

typedef struct gb_ocache_stats {
    uint64_t loaded;     /* records read when opened */
    uint64_t dropped;    /* torn or corrupt records dropped (file rebuilt) */
    int rebuilt;         /* 1: the file was rebuilt (version, torn or corrupt) */
    int readonly;        /* 1: opened for reading only (no write access): a put
                            keeps its answer in memory and returns -1 */
} gb_ocache_stats;

/* The default cache directory: $XDG_CACHE_HOME/gridbench/oracle, else
 * $HOME/.cache/gridbench/oracle; written into buf (size n).  0, or -1 when
 * neither variable is set (no default cache). */
int gb_ocache_default_dir(char *buf, size_t n);

/* Open (creating DIR and the file as needed) the cache of the map whose
 * SHA-256 is map_sha (64 hex digits) under model m.  Returns the cache, or
 * NULL with *d filled: EX_NOPERM (something fails the trust rule, or a
 * damaged file cannot be rebuilt for lack of write access), EX_CANTCREAT,
 * EX_NOINPUT, EX_OSERR.  *st (if not NULL) says what was loaded, dropped
 * or rebuilt, and whether the cache is read-only. */
gb_ocache *gb_ocache_open(const char *dir, const char *map_sha, gb_model m, gb_ocache_stats *st,
                          gb_diag *d);

/* gb_ocache_open for another oracle than Dijkstra's under a movement
 * model: the file is DIR/<map sha256>.<kind>.gboc, its header names kind.
 * kind: at most 40 characters, no '/', not starting with '.'; it names the
 * oracle and its model, and changes when that oracle could answer
 * differently (the any-angle oracle uses "anyangle-gppc-1", gb_exec.c). */
gb_ocache *gb_ocache_open_kind(const char *dir, const char *map_sha, const char *kind,
                               gb_ocache_stats *st, gb_diag *d);

/* Look up start (sx,sy) -> goal (gx,gy).  1 and *straight, *diag (diag < 0:
 * unreachable) on a hit, 0 on a miss. */
int gb_ocache_get(const gb_ocache *c, int32_t sx, int32_t sy, int32_t gx, int32_t gy,
                  int64_t *straight, int64_t *diag);

/* Record an answer (diag < 0: unreachable) in memory and append it to the
 * file.  0, -1 with errno set when the append failed or the cache is
 * read-only (the cache stays usable in memory; the caller may warn), or
 * -2 when memory ran out. */
int gb_ocache_put(gb_ocache *c, int32_t sx, int32_t sy, int32_t gx, int32_t gy,
                  int64_t straight, int64_t diag);

/* The same for an oracle whose answer is a real cost (the any-angle
 * optimum): its 64 bits are kept whole in the record's two value fields
 * (an int32 pair; a cost is >= 0, so the high word never reads as the
 * "unreachable" -1).  get: 1 and *reachable, *cost on a hit (a record
 * that holds no finite cost >= 0 is a miss), 0 on a miss.  put: as
 * gb_ocache_put; -1 with EINVAL for a cost that is not finite and >= 0. */
int gb_ocache_get_real(const gb_ocache *c, int32_t sx, int32_t sy, int32_t gx, int32_t gy,
                       int *reachable, double *cost);
int gb_ocache_put_real(gb_ocache *c, int32_t sx, int32_t sy, int32_t gx, int32_t gy, int reachable,
                       double cost);

/* The file behind c. */
const char *gb_ocache_path(const gb_ocache *c);

/* Close the file and free c.  Safe on NULL. */
void gb_ocache_close(gb_ocache *c);

/* The trust rule above, shared with the table cache (gb_tcache.h).
 * gb_cache_trust_of: NULL when the file or folder *sb passes (sticky_ok: a
 * folder above the cache's may be writable by others if sticky), else
 * what is wrong, in why.  gb_cache_trust_dirs: dir and every folder
 * above it pass; 0, or EX_NOPERM / EX_CANTCREAT with *d filled ("expected
 * a KIND cache directory ..."). */
struct stat;
const char *gb_cache_trust_of(const struct stat *sb, int sticky_ok, char *why, size_t n);

/* Write all n bytes of buf to fd, again after EINTR and short writes.
 * 0, or -1 with errno set. */
int gb_cache_write_all(int fd, const void *buf, size_t n);
int gb_cache_trust_dirs(const char *dir, const char *kind, gb_diag *d);

#endif
