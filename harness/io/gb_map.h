/*
 * gb_map.h -- Moving AI .map files: load into a padded gb_grid, write back.
 *
 * Format (Moving AI Lab, "octile" maps):
 *     type octile
 *     height H
 *     width W
 *     map
 *     H rows of exactly W terrain characters
 * Header lines come in exactly that order; keyword and value are separated
 * by spaces or tabs, and blanks may surround them.  Lines end in LF or
 * CRLF (mixed within a file is fine; the last newline may be missing).
 * Blank lines after the last row are ignored; anything else is an error.
 *
 * Terrain: '.' 'G' 'S' passable; '@' 'O' 'T' 'W' blocked; any other byte
 * is an error.  The original characters are kept in terrain[] so that a
 * map can be written back unchanged and so that diagnostics can name the
 * terrain under a point.
 *
 * Invariants of a loaded gb_map
 *   - grid is a valid gb_grid (see gb_grid.h): pass[id] is 1 exactly for
 *     the passable map cells, npassable is their count.
 *   - terrain has width * height bytes, row-major, terrain[y * W + x] is
 *     the character of cell (x, y); it is not NUL-terminated.
 *   - path is a malloc'd copy of the path given to the loader.
 */
#ifndef GB_MAP_H
#define GB_MAP_H

#include <stddef.h>

#include "gb_diag.h"
#include "gb_grid.h"

typedef struct gb_map {
    char *path;      /* malloc'd copy of the file name (may be NULL) */
    gb_grid grid;    /* padded occupancy grid */
    char *terrain;   /* width*height original characters, row-major */
    uint64_t fit_bytes;  /* gb_map_load_fit: the bytes it checked against the
                            memory available (file, grid, extra); else 0 */
} gb_map;

/* Load the .map file at path into *m.  Returns 0, or a sysexits code with
 * *d filled: EX_NOINPUT (missing/unreadable), EX_IOERR (read error),
 * EX_DATAERR (bad content, with line and column), EX_OSERR (out of
 * memory).  On failure *m is zeroed and owns nothing. */
int gb_map_load(const char *path, gb_map *m, gb_diag *d);

/* Read only the header of the .map file at path: *width and *height
 * (validated as gb_map_parse does, padded cell count included) and the
 * file's size in *file_bytes.  Reads at most 4 KiB; allocates nothing.
 * Returns 0, or the code and *d that loading the file would give for a
 * header error (or EX_NOINPUT/EX_IOERR). */
int gb_map_peek(const char *path, int32_t *width, int32_t *height, long long *file_bytes,
                gb_diag *d);

/* gb_map_load for a caller that will also need extra_bytes for this map
 * (a search workspace, say): before reading the file, the header is
 * peeked and the map is refused with EX_OSERR ("expected a map that fits
 * in memory ...") when the file, the grid, the terrain copy and
 * extra_bytes together exceed the memory available to the process
 * (MemAvailable, and the RLIMIT_AS / RLIMIT_DATA headroom).
 * gb_map_load(p, m, d) is gb_map_load_fit(p, m, 0, d). */
int gb_map_load_fit(const char *path, gb_map *m, uint64_t extra_bytes, gb_diag *d);

/* Same as gb_map_load, from buf[0..len) (need not be NUL-terminated);
 * path is used for diagnostics and copied into m->path.  The whole input
 * is validated before anything is allocated, and dimensions whose padded
 * cell count exceeds GB_GRID_MAX_CELLS are refused. */
int gb_map_parse(const char *path, const char *buf, size_t len, gb_map *m,
                 gb_diag *d);

/* Release everything *m owns and zero it.  Safe on a zeroed map. */
void gb_map_free(gb_map *m);

/* Write *m in Moving AI format (LF line ends) to path, through a
 * temporary "<path>.tmp.<pid>" renamed over path.  Cells come from
 * terrain when present, else '.' / '@' from grid.pass.  Returns 0, or
 * EX_SOFTWARE (m holds no map), EX_CANTCREAT or EX_IOERR with *d filled.
 * m is not modified. */
int gb_map_write(const char *path, const gb_map *m, gb_diag *d);

#endif
