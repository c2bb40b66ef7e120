/*
 * gb_tcache.h -- the table cache: a family's prepared table (cpd's
 * first-move table, hours to build on a 512 x 512 map), built once per
 * map and read back by later runs.
 *
 * Key: the SHA-256 of the map file's bytes and the name the family gives
 * its table, which holds its movement model and format version
 * ("cpd.8-nocut.v1").  One file per key, DIR/<map sha256>.<name>.gbt.  The
 * bytes are the family's (gb_store, gb_search.h): it checks everything it
 * reads -- its version and byte order, the grid's size and passability,
 * the file's exact size, a checksum of every byte, the structure of the
 * table -- and refuses a file that fails; the cache then deletes it and
 * the family builds the table again and writes it anew.  A damaged file
 * costs a rebuild, never a wrong answer.
 *
 * Writing: a fresh temp file DIR/.<file>.XXXXXX, renamed over the file
 * once whole, so a reader sees a whole file or none, and concurrent
 * writers (--jobs workers) each publish a whole file.
 *
 * Trust: the oracle cache's rule (gb_ocache.h): DIR and the folders above
 * it, and the file, must belong to this user or root and be writable by
 * no other user; links are not followed to the file.  An untrusted
 * folder makes gb_tcache_open fail (the caller runs without the cache);
 * an untrusted file is not read (the table is built).
 */
#ifndef GB_TCACHE_H
#define GB_TCACHE_H

#include "gb_diag.h"
#include "gb_search.h"

typedef struct gb_tcache gb_tcache;

/* The default directory: $XDG_CACHE_HOME/gridbench/tables, else
 * $HOME/.cache/gridbench/tables, into buf (size n).  0, or -1 when
 * neither variable is set. */
int gb_tcache_default_dir(char *buf, size_t n);

/* The cache of the map whose SHA-256 is map_sha (64 hex digits) in dir
 * (made if missing).  NULL with *d filled: EX_NOPERM (untrusted),
 * EX_CANTCREAT, EX_OSERR (memory). */
gb_tcache *gb_tcache_open(const char *dir, const char *map_sha, gb_diag *d);

/* The store to give the workspace (gb_ws_set_store). */
const gb_store *gb_tcache_store(gb_tcache *c);

/* What the cache did since the last call, one line per event ("read
 * FILE (N bytes)", "wrote FILE", "FILE: expected ..., found ...; deleted,
 * the table is built anew"), or "".  *warn is set to 1 when a file was
 * refused. The text stays valid until the next call. */
const char *gb_tcache_note(gb_tcache *c, int *warn);

/* Free c.  Safe on NULL. */
void gb_tcache_close(gb_tcache *c);

#endif
