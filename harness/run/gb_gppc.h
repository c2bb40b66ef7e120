/*
 * gb_gppc.h -- entries of the Grid-Based Path Planning Competition (GPPC,
 * classic track) as gridbench plugins: build, per-map index cache, paths.
 *
 * An entry is a folder of C++ sources implementing the GPPC API
 * (Entry.h: PreprocessMap, PrepareForSearch, GetPath, GetName).
 * gb_gppc_build compiles it, with harness/run/gppc/gb_gppc_driver.cpp
 * (gb_gppc_dyn_driver.cpp for an entry of the dynamic track, whose C API
 * has gppc_map_change), into a plugin shared object (gb_user.h) kept in
 * the per-user cache:
 *
 *   ${XDG_CACHE_HOME:-$HOME/.cache}/gridbench/gppc/<entry-hash>/
 *       entry.txt           the entry's folder, the solver names built
 *       <name>.so           the plugin (<name>: --name, else "entry")
 *       <name>.so.key       what it was built from (reused only on a match)
 *       <name>.log          the compiler's output of the last build
 *       index/<map-hash>/   PreprocessMap's output for one map (.complete
 *                           marks it whole), index/<map-hash>.lock
 *
 * Invariants
 *   - <entry-hash> depends on the entry's source files only (paths and
 *     contents), so a rebuilt driver or other flags keep the indexes,
 *     which can take hours to make; <name>.so.key names everything else
 *     that went into the .so (driver, compiler, flags, name).
 *   - an index folder holding .complete is whole and never written again;
 *     one without it is a leftover of a crash and is emptied before use.
 *   - every file appears whole or not at all (temp name + rename), and an
 *     index is built by one process at a time (flock on its .lock).
 *
 * The driver calls the index and path functions below through the symbols
 * the gridbench binary exports (-rdynamic), so the logic lives here, in
 * C, once.  Nothing here prints or exits.
 */
#ifndef GB_GPPC_H
#define GB_GPPC_H

#include <stddef.h>
#include <stdint.h>

#include "gb_diag.h"
#include "gb_grid.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Hex digits of the entry and map hashes that name cache folders (the
 * first 64 bits of a SHA-256). */
#define GB_GPPC_HASH_HEX 16

/* ${XDG_CACHE_HOME:-$HOME/.cache}/gridbench/gppc into buf (an
 * XDG_CACHE_HOME that is not absolute is ignored, as the XDG spec says).
 * 0, or -1 when neither variable helps or buf is too small. */
int gb_gppc_cache_dir(char *buf, size_t n);

/* The map's identity: SHA-256 of "gppc-map 1 W H\n" followed by one byte
 * (0 or 1) per map cell, row by row (the GPPC bits), cut to
 * GB_GPPC_HASH_HEX lower-case hex digits + NUL in hex. */
void gb_gppc_map_hash(const gb_grid *g, char hex[GB_GPPC_HASH_HEX + 1]);

/* ---- the per-map index ------------------------------------------------- */

typedef struct gb_gppc_index {
    char dir[1100];          /* the map's index folder, absolute */
    char file[1200];         /* dir + "/index": the filename the entry gets */
    uint64_t preprocess_ns;  /* PreprocessMap's time (fork to exit), also when reused: kept in .complete */
    uint64_t storage_bytes;  /* bytes of the regular files under dir (.complete aside) */
    int reused;              /* 1: found whole in the cache, 0: built now */
} gb_gppc_index;

/* What runs PreprocessMap: fn(arg, file) in a child process; its return
 * value is the child's exit status (0 = success). */
typedef int (*gb_gppc_preprocess_fn)(void *arg, const char *file);

/* Make sure the index of grid g for the entry entry_hash exists: under
 * the folder's lock, reuse it when whole, else empty the folder, fork, run
 * fn(arg, ix->file) in the child (its stdout sent to stderr, so a chatty
 * entry never writes into a CSV on stdout), time it from fork to exit,
 * sum the files' bytes and mark the folder whole.  Returns 0 with *ix
 * filled, or fills *d: EX_CANTCREAT (no cache folder, lock or marker),
 * EX_SOFTWARE ("expected PreprocessMap to return, found signal 11:
 * Segmentation fault" or "... found exit status N"); the folder then stays
 * unmarked.  Time: the preprocessing, plus O(files) to sum the bytes. */
int gb_gppc_index_open(const char *entry_hash, const gb_grid *g, gb_gppc_preprocess_fn fn, void *arg,
                       gb_gppc_index *ix, gb_diag *d);

/* Send fd 1 to stderr until the matching gb_gppc_stdout_restore, so an
 * entry that prints never writes into a CSV on stdout.  Calls nest (one
 * count for the process, shared by every plugin loaded in it): the first
 * divert saves fd 1, the last restore puts it back, in whatever order the
 * plugins release.  0, or -1 (fd 1 left as it was). */
int gb_gppc_stdout_divert(void);
void gb_gppc_stdout_restore(void);

/* ---- paths ------------------------------------------------------------- */

typedef struct gb_gppc_xy {
    int32_t x, y;            /* map coordinates, (0,0) top-left */
} gb_gppc_xy;

/* Expand GPPC waypoints wp[0..n) into the cells of the path on g: wp[0],
 * then every cell of each segment wp[i] -> wp[i+1], which must be
 * straight or diagonal (dx = 0, dy = 0 or |dx| = |dy|; a zero-length
 * segment adds nothing).  Passability and corner cutting are not looked
 * at: gridbench's validator judges the cells.
 * Returns the number of cells written to path (1..cap); 0 when n == 0
 * (no waypoints: no path, or start == goal); -1 when the waypoints are
 * refused, with *bad = the 0-based index of the first bad segment and
 * why = "expected ..., found ..." (a single waypoint, a waypoint outside
 * the map, a segment that is neither straight nor diagonal, or more than
 * cap cells).  Time O(n + cells). */
int32_t gb_gppc_expand(const gb_grid *g, const gb_gppc_xy *wp, size_t n, int32_t *path, int32_t cap,
                       int64_t *bad, char *why, size_t whyn);

/* A waypoint of a GPPC any-angle entry: real coordinates on the plane
 * where cell (x, y) is the square [x, x+1] x [y, y+1]. */
typedef struct gb_gppc_pt {
    double x, y;
} gb_gppc_pt;

/* How far a coordinate of an any-angle waypoint may lie from an integer
 * and still be read as that integer (docs/anyangle.md). */
#define GB_GPPC_SNAP_TOL 1e-6

/* Read the any-angle waypoints wp[0..n) as lattice points of g: each
 * coordinate within GB_GPPC_SNAP_TOL of an integer is that integer, and
 * the point (x, y), 0 <= x <= width, 0 <= y <= height, is written to
 * path as gb_grid_id(g, x, y) (the padding holds x = width and
 * y = height).  Nothing else is judged here: the exact validator
 * (gb_aagppc.h) checks the snapped path and the harness costs it.
 * Returns n (n <= cap), 0 when n == 0, or -1 with *bad = the 0-based
 * index of the segment that ends at the first bad waypoint (0 for
 * waypoint 0) and why = "expected ..., found ..." naming it: a
 * coordinate that is not finite, a point outside the map, a point not
 * near a lattice point, or more than cap waypoints.  Time O(n). */
int32_t gb_gppc_snap(const gb_grid *g, const gb_gppc_pt *wp, size_t n, int32_t *path, int32_t cap,
                     int64_t *bad, char *why, size_t whyn);

/* ---- building an entry -------------------------------------------------- */

typedef struct gb_gppc_build_opts {
    const char *dir;         /* the entry's folder (Entry.h, *.cpp) */
    const char *name;        /* solver name (--name), or NULL: the entry's GetName() */
    const char *cxxflags;    /* extra compiler flags, blank-separated, or NULL */
    int use_make;            /* 1: take sources and flags from `make -n -B` when there is a Makefile */
    int suboptimal;          /* 1: the solver's rows are not judged for optimality */
    int anyangle;            /* 1: an any-angle entry whatever its headers say (--anyangle);
                                0: told by its headers (gb_gppc_build) */
    int force;               /* 1: rebuild even when the cached .so matches */
} gb_gppc_build_opts;

typedef struct gb_gppc_built {
    char hash[GB_GPPC_HASH_HEX + 1];  /* the entry hash */
    char so[1200];           /* the plugin */
    char log[1200];          /* the compiler's output */
    int reused;              /* 1: the cached .so matched, nothing compiled */
    int nsources;            /* entry sources compiled (or that would have been) */
    int from_make;           /* 1: sources and flags came from the Makefile */
    int from_cmake;          /* 1: sources came from CMakeLists.txt's add_library(GPPCentry ...) */
    int dynamic;             /* 1: a dynamic-track entry (gppc_map_change), built with
                                gb_gppc_dyn_driver.cpp */
    int anyangle;            /* 1: an any-angle-track entry (real-coordinate xyLoc), built
                                with gb_gppc_driver.cpp under -DGB_GPPC_ANYANGLE=1 */
} gb_gppc_built;

/* Build (or find in the cache) the plugin of the entry in o->dir, with $CXX
 * (blank-separated words; default c++).  Sources: from the Makefile's dry
 * run when o->use_make and the folder has one and it names any (-I, -D,
 * -std, -O, -f, -m, -l, -L and -pthread are kept, relative paths made
 * absolute), else every *.cpp, *.cc and *.cxx of the folder's top level;
 * main.cpp (the GPPC harness) never.  A dynamic-track entry (its Entry.h
 * declares gppc_map_change or gppc_search_init; b->dynamic) is built with
 * gb_gppc_dyn_driver.cpp instead, and its sources may also be C (*.c,
 * compiled with -x c); without Makefile sources they come from
 * CMakeLists.txt's add_library(GPPCentry ...) (the startkit's build), else
 * from the top folder.  An any-angle-track entry (o->anyangle, or its
 * Entry.h or GPPC.h declares struct xyLoc with double fields, as
 * startkit-anyangle's GPPC.h does; b->anyangle) is built with the
 * classic driver and -DGB_GPPC_ANYANGLE=1; a dynamic entry cannot be one
 * (EX_USAGE).  Then -std=c++17 and -O3 -DNDEBUG
 * unless the Makefile chose, then o->cxxflags.  Compiled in a temp folder
 * and renamed, so concurrent builds never see half a file.  Returns 0
 * with *b filled, or fills *d: EX_NOINPUT (no folder, no Entry.h, no
 * sources, the driver not found), EX_DATAERR ("expected the entry to
 * compile, found exit status N; compiler log: PATH"), EX_UNAVAILABLE (no
 * compiler), EX_CANTCREAT (cache), EX_OSERR (memory). */
int gb_gppc_build(const gb_gppc_build_opts *o, gb_gppc_built *b, gb_diag *d);

/* The driver source and the include flags it needs, found from the
 * binary: $GB_GPPC_DRIVER (the .cpp; its headers from the same tree),
 * else the source tree beside the executable (<exe-dir>/../harness/run/
 * gppc/, headers in solvers/ and harness/{core,run}/), else the install
 * (<exe-dir>/../share/gridbench/gppc/, headers in ../include/gridbench/).
 * 0 with driver and inc ("-IA -IB -IC", blank-separated) set, or
 * EX_NOINPUT in *d naming the places tried. */
int gb_gppc_find_driver(char *driver, size_t dn, char *inc, size_t in, gb_diag *d);

#ifdef __cplusplus
}
#endif

#endif
