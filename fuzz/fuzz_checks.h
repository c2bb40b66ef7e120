/*
 * fuzz_checks.h -- the bodies of the libFuzzer targets, as plain functions
 * that the fuzz targets (fuzz/fuzz_*.c) and the regression test
 * (tests/test_fuzz_regressions.c) both call.
 *
 *   int gb_fuzz_map(const uint8_t *data, size_t size);
 *   int gb_fuzz_scen(const uint8_t *data, size_t size);
 *   int gb_fuzz_solve(const uint8_t *data, size_t size);
 *   int gb_fuzz_journal(const uint8_t *data, size_t size);
 *   int gb_fuzz_dyn(const uint8_t *data, size_t size);
 *   int gb_fuzz_merge(const uint8_t *data, size_t size);
 *
 * Each returns 0 when every invariant held, otherwise a nonzero code and a
 * message in gb_fuzz_msg (what failed, with the actual values).  The fuzz
 * target traps on nonzero; the test asserts 0.  Memory errors, leaks and
 * undefined behaviour are the sanitizers' job, not these functions'.
 * Everything here is static: the header is included once per program.
 *
 * gb_fuzz_map: data is a .map file (not NUL-terminated).
 *   On success: width, height > 0; stride = width + 2; ncells =
 *   stride * (height + 2); off[] matches the directions; pass[] holds only
 *   0 and 1, 0 on the border; npassable = number of 1s; every terrain byte
 *   is one of . G S @ O T W and pass[] is 1 exactly under . G S; path is
 *   the name given.  On failure: the code is EX_DATAERR or EX_OSERR, the
 *   diagnostic carries the same code, a non-empty NUL-terminated message
 *   and text, a caret that falls inside the text, and *m owns nothing.
 *
 * gb_fuzz_scen: data is a .scen file.
 *   On success: n >= 1; version 0 or 1; map_field set; per query: line
 *   strictly increasing and >= 1; decimals >= 0; length finite and >= 0;
 *   tol finite and > 0; map size > 0, coordinates and bucket >= 0; the
 *   column of every field >= 1 and increasing along the line.  On failure:
 *   as for maps.
 *
 * gb_fuzz_solve: data encodes a small grid and up to GB_FUZZ_MAXQ queries:
 *     byte 0      width  - 1 (mod 32)    byte 1   height - 1 (mod 32)
 *     byte 2      movement model (mod 4)
 *     bytes 3..   width*height bits, row-major, LSB first: 1 = blocked
 *                 (missing bytes count as 0 = passable)
 *     then        4 bytes per query: start x, start y, goal x, goal y
 *                 (mod width / height); an endpoint on a blocked cell
 *                 moves to the next passable cell in row-major order.
 *     No query bytes: one query, first to last passable cell.
 *   Per query, with Dijkstra on the binary heap as the oracle:
 *     - Dijkstra's reachability and exact cost (straight and diagonal step
 *       counts) equal an independent reference search written here from
 *       the model definitions (no gb_grid_moves, no solver code);
 *     - every solver of gb_fuzz_solvers and of the registry's `--solver
 *       all` list (gb_solver_all) on every queue (unsupported
 *       combinations skipped): gb_solve succeeds, status is FOUND or
 *       UNREACHABLE, FOUND iff Dijkstra found a path, the path passes
 *       gb_validate_path, its cost is never below Dijkstra's, equal for an
 *       optimal solver, <= bound * optimum for a bounded one; an
 *       any-angle solver's (theta) passes gb_validate_anyangle instead,
 *       with guarantee none and a cost between the straight line and
 *       gb_solver_grid_bound() x Dijkstra's;
 *     - every queue gives the same status, path, expanded and generated
 *       counts as the binary heap (one ordering rule, gb_pq.h).
 *
 * gb_fuzz_journal: data is the journal FILE.partial of an interrupted
 *   `gridbench run --out FILE` with 2 pairs, fingerprint GB_FUZZ_JFP and
 *   CSV header GB_FUZZ_JHDR (written to a file in a private temp folder),
 *   resumed with gb_journal_open(GB_JOURNAL_RESUME).
 *   On failure: a well-formed diagnostic (as for maps, code 65 or 71) and
 *   the file left byte for byte as it was.
 *   On success: the file is cut to a prefix of data that ends a line and
 *   begins with the two header lines; its "#=" lines after line 2 are
 *   exactly the ndone complete queries, each with a line >= 0 and scen_ok
 *   0 or 1.  Resuming the cut file again gives the same queries and cuts
 *   nothing.  Two rows and a gb_journal_commit() of values taken from the
 *   data are read back by a third resume as one more complete query with
 *   those values.  gb_journal_finish() then writes FILE with no comment
 *   line, one line per row line of the journal, and removes the journal.
 *
 * gb_fuzz_dyn: data is a dynamic scenario (docs/dynamic.md,
 *   gb_dynscen_parse).  On failure: as for maps, and *s owns nothing.
 *   On success: n >= 1, version GB_DYN_VERSION, a map field; query lines
 *   strictly increasing, W, H >= 1, start and goal inside W x H; the
 *   events of each query follow it in the file (lines increasing, after
 *   the query's line and before the next query's), are contiguous
 *   (ev0 = the events before), AT or NEAR with a value >= 1, block 0 or 1,
 *   at least one cell, cells contiguous and inside W x H, a blocked one
 *   never the goal; the totals add up.  Round trip: gb_dynscen_write() of it, read
 *   back by gb_dynscen_load(), gives the same queries, events and cells.
 *   Replay: when the first query's map is at most GB_FUZZ_MAXDIM square,
 *   that map is built (terrain from the "#|" comment lines: the k-th one
 *   is row k, its bytes after "#|" one cell each, blocked when one of
 *   @ O T W; missing rows and cells are passable; the start and goal of
 *   the replayed queries are forced passable), and the first GB_FUZZ_MAXQ
 *   queries of that size are replayed by gb_dynrep_query under every
 *   movement model, each model on a fresh replayer (so the first query
 *   meets a fresh D* Lite), A* octile as the baseline.  Checks: no row
 *   is "wrong" (D* Lite and A* equal Dijkstra and pass the validator at
 *   every plan, gb_dynreplay.c); and, from the observer: every fired
 *   event's cells have its state on the map (a block of the agent's cell
 *   dropped); every D* Lite plan is found iff fz_reference (independent
 *   of the solvers) finds a path on the map as it then is, passes
 *   gb_validate_path there, and has the reference's straight and diagonal
 *   step counts; every move goes to the next cell of the last plan; the
 *   row's plans and steps equal what the observer saw; and after each
 *   query the map is the file's again, cell for cell.
 *
 * gb_fuzz_merge: data is up to GB_FUZZ_MSHARDS shards for `gridbench
 *   merge`, as parts separated by lines "%%": manifest 0, CSV 0, manifest
 *   1, CSV 1, ... (a part that is not there is a file that is not there),
 *   written to a private temp folder and merged with gb_shard_merge() into
 *   a memory stream.
 *   On failure: a well-formed diagnostic (as for maps, code 65, 66 or 71)
 *   and nothing written.
 *   On success: the output is the rows header and sum.rows rows, each of
 *   the run's columns and kinds (gb_rows_split), sum.rows = sum.queries x
 *   the manifests' pairs, the statuses counted add up to sum.rows; with one
 *   shard the output is that CSV byte for byte; merging the shards again
 *   in reverse order writes the same bytes.
 */
#ifndef GB_FUZZ_CHECKS_H
#define GB_FUZZ_CHECKS_H

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>
#include <unistd.h>

#include "gb_alloc.h"
#include "gb_anyangle.h"
#include "gb_diag.h"
#include "gb_dynreplay.h"
#include "gb_dynscen.h"
#include "gb_grid.h"
#include "gb_journal.h"
#include "gb_map.h"
#include "gb_rows.h"
#include "gb_scen.h"
#include "gb_search.h"
#include "gb_shard.h"
#include "gb_validate.h"

/* What the last failing check found ("" after a pass). */
static char gb_fuzz_msg[768];

/* Record a failure; returns code (nonzero). */
static int fz_fail(int code, const char *fmt, ...) GB_PRINTF_LIKE(2, 3);
static int fz_fail(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(gb_fuzz_msg, sizeof gb_fuzz_msg, fmt, ap);
    va_end(ap);
    return code;
}

/* ---- diagnostics ------------------------------------------------------- */

/* Invariants of the diagnostic of a failed load (see gb_diag.h). */
static int fz_check_diag(const char *what, int rc, const gb_diag *d)
{
    char buf[sizeof d->path + sizeof d->msg + 64];
    if (rc != EX_DATAERR && rc != EX_OSERR)
        return fz_fail(20, "%s: expected code 65 or 71, found %d", what, rc);
    if (d->code != rc)
        return fz_fail(21, "%s: expected diag code %d, found %d", what, rc, d->code);
    if (!memchr(d->msg, '\0', sizeof d->msg) || !memchr(d->text, '\0', sizeof d->text)
        || !memchr(d->path, '\0', sizeof d->path))
        return fz_fail(22, "%s: diagnostic string not NUL-terminated", what);
    if (d->msg[0] == '\0')
        return fz_fail(23, "%s: expected a message, found none", what);
    if (d->line < 0 || d->col < 0 || d->text_col < 0)
        return fz_fail(24, "%s: expected line/col >= 0, found %ld:%ld (text_col %ld)",
                       what, d->line, d->col, d->text_col);
    if (d->col > 0 && d->line == 0)
        return fz_fail(25, "%s: column %ld without a line", what, d->col);
    size_t tlen = strlen(d->text);
    long tc = d->text_col > 0 ? d->text_col : d->col;
    if (tlen > 0 && tc > (long)tlen + 1)
        return fz_fail(26, "%s: expected the caret column within the text (%zu bytes), "
                       "found %ld (col %ld, text_col %ld): %s", what, tlen, tc, d->col,
                       d->text_col, d->msg);
    if (d->text_col > 0 && tlen == 0)
        return fz_fail(27, "%s: text_col %ld without text", what, d->text_col);
    gb_diag_format(d, buf, sizeof buf);
    if (strstr(buf, ": error: ") == NULL)
        return fz_fail(28, "%s: formatted diagnostic lacks ': error: ': %s", what, buf);
    for (const char *m = d->msg; *m; m++)   /* input bytes are quoted, never raw */
        if ((unsigned char)*m < 0x20 || *m == 0x7f)
            return fz_fail(29, "%s: a raw control byte 0x%02x in the message: %s", what,
                           (unsigned)(unsigned char)*m, d->msg);
    return 0;
}

/* ---- .map -------------------------------------------------------------- */

static int fz_terrain_class(unsigned char ch)   /* 1 pass, 2 block, 0 bad */
{
    switch (ch) {
    case '.': case 'G': case 'S': return 1;
    case '@': case 'O': case 'T': case 'W': return 2;
    default: return 0;
    }
}

static int fz_check_map(const gb_map *m, const char *path)
{
    const gb_grid *g = &m->grid;
    if (g->width <= 0 || g->height <= 0)
        return fz_fail(1, "map: expected positive dimensions, found %ld x %ld",
                       (long)g->width, (long)g->height);
    if (g->stride != g->width + 2)
        return fz_fail(2, "map: expected stride %ld, found %ld",
                       (long)g->width + 2, (long)g->stride);
    int64_t cells = ((int64_t)g->width + 2) * ((int64_t)g->height + 2);
    if (cells > GB_GRID_MAX_CELLS || g->ncells != cells)
        return fz_fail(3, "map: expected ncells %lld, found %ld",
                       (long long)cells, (long)g->ncells);
    if (!g->pass || !m->terrain)
        return fz_fail(4, "map: expected pass[] and terrain, found NULL");
    for (int k = 0; k < 8; k++)
        if (g->off[k] != gb_dir_dy[k] * g->stride + gb_dir_dx[k])
            return fz_fail(5, "map: off[%d] = %ld, expected %ld", k, (long)g->off[k],
                           (long)(gb_dir_dy[k] * g->stride + gb_dir_dx[k]));
    if (path && (!m->path || strcmp(m->path, path) != 0))
        return fz_fail(6, "map: expected path '%s', found '%s'", path,
                       m->path ? m->path : "(null)");
    int64_t count = 0;
    for (int32_t id = 0; id < g->ncells; id++) {
        uint8_t p = g->pass[id];
        if (p > 1)
            return fz_fail(7, "map: pass[%ld] = %u, expected 0 or 1", (long)id, p);
        int32_t x = id % g->stride - 1, y = id / g->stride - 1;
        int border = x < 0 || y < 0 || x >= g->width || y >= g->height;
        if (border && p)
            return fz_fail(8, "map: border cell id %ld is passable", (long)id);
        if (border) continue;
        unsigned char ch = (unsigned char)m->terrain[(size_t)y * (size_t)g->width + (size_t)x];
        int cls = fz_terrain_class(ch);
        if (cls == 0)
            return fz_fail(9, "map: terrain (%ld, %ld) = 0x%02X, not a terrain letter",
                           (long)x, (long)y, ch);
        if ((cls == 1) != (p == 1))
            return fz_fail(10, "map: (%ld, %ld) terrain '%c' but pass = %u",
                           (long)x, (long)y, ch, p);
        count += p;
    }
    if (count != g->npassable)
        return fz_fail(11, "map: npassable %ld, but %lld passable cells",
                       (long)g->npassable, (long long)count);
    return 0;
}

__attribute__((unused)) static int gb_fuzz_map(const uint8_t *data, size_t size)
{
    static const char path[] = "fuzz.map";
    gb_map m;
    gb_diag d;
    gb_fuzz_msg[0] = '\0';
    int rc = gb_map_parse(path, (const char *)data, size, &m, &d);
    if (rc != 0) {
        if (m.path || m.terrain || m.grid.pass || m.grid.width || m.grid.npassable)
            return fz_fail(12, "map: failed parse (%d) left *m non-zero", rc);
        return fz_check_diag("map", rc, &d);
    }
    if (d.code != 0)
        return fz_fail(13, "map: success but diag code %d", d.code);
    int bad = fz_check_map(&m, path);
    gb_map_free(&m);
    if (m.path || m.terrain || m.grid.pass)
        return fz_fail(14, "map: gb_map_free left pointers set");
    return bad;
}

/* ---- .scen ------------------------------------------------------------- */

__attribute__((unused)) static int gb_fuzz_scen(const uint8_t *data, size_t size)
{
    static const char path[] = "fuzz.scen";
    gb_scen s;
    gb_diag d;
    gb_fuzz_msg[0] = '\0';
    int rc = gb_scen_parse(path, (const char *)data, size, &s, &d);
    if (rc != 0) {
        if (s.path || s.map_field || s.q || s.n)
            return fz_fail(40, "scen: failed parse (%d) left *s non-zero", rc);
        return fz_check_diag("scen", rc, &d);
    }
    int bad = 0;
    if (d.code != 0)
        bad = fz_fail(41, "scen: success but diag code %d", d.code);
    else if (s.n < 1 || !s.q)
        bad = fz_fail(42, "scen: success with %zu queries", s.n);
    else if (s.version != 0 && s.version != 1)
        bad = fz_fail(43, "scen: version %d", s.version);
    else if (!s.map_field)
        bad = fz_fail(44, "scen: no map_field");
    else if (!s.path || strcmp(s.path, path) != 0)
        bad = fz_fail(45, "scen: expected path '%s', found '%s'", path,
                      s.path ? s.path : "(null)");
    for (size_t i = 0; !bad && i < s.n; i++) {
        const gb_query *q = &s.q[i];
        if (q->decimals < 0)
            bad = fz_fail(46, "scen: query %zu (line %ld): decimals %d < 0", i, q->line,
                          q->decimals);
        else if (!(q->tol > 0) || !isfinite(q->tol))
            bad = fz_fail(47, "scen: query %zu (line %ld): tol %g, expected finite > 0", i,
                          q->line, q->tol);
        else if (!(q->length >= 0) || !isfinite(q->length))
            bad = fz_fail(48, "scen: query %zu (line %ld): length %g, expected finite >= 0",
                          i, q->line, q->length);
        else if (q->line < 1 || (i > 0 && q->line <= s.q[i - 1].line))
            bad = fz_fail(49, "scen: query %zu: line %ld after line %ld", i, q->line,
                          i > 0 ? s.q[i - 1].line : 0L);
        else if (q->map_w < 1 || q->map_h < 1 || q->sx < 0 || q->sy < 0 || q->gx < 0
                 || q->gy < 0 || q->bucket < 0)
            bad = fz_fail(50, "scen: query %zu (line %ld): fields out of range "
                          "(%ld %ld %ld %ld %ld %ld %ld)", i, q->line, (long)q->bucket,
                          (long)q->map_w, (long)q->map_h, (long)q->sx, (long)q->sy,
                          (long)q->gx, (long)q->gy);
        for (int j = 0; !bad && j < GB_SCEN_NCOLS; j++)
            if (q->col[j] < 1 || (j > 0 && q->col[j] <= q->col[j - 1]))
                bad = fz_fail(51, "scen: query %zu (line %ld): column %d starts at %ld "
                              "after %ld", i, q->line, j, (long)q->col[j],
                              j > 0 ? (long)q->col[j - 1] : 0L);
    }
    gb_scen_free(&s);
    return bad;
}

/* ---- solve ------------------------------------------------------------- */

#define GB_FUZZ_MAXDIM 32
#define GB_FUZZ_MAXQ 4
#define GB_FUZZ_MAXCELLS (GB_FUZZ_MAXDIM * GB_FUZZ_MAXDIM)

/* The solvers checked: these (Dijkstra first: the oracle), then every
 * other name of the registry's `--solver all` list, so that a new family
 * is fuzzed without a line here. */
static const char *const gb_fuzz_solvers[] = {
    "dijkstra", "astar-octile", "astar-manhattan", "wastar-octile:w=2", "gbfs-octile",
    "bfs", "bidijkstra", "biastar-octile", "jps", "astar-diff:k=2", "astar-octile+smooth",
    "gbfs-octile+smooth",
};
#define GB_FUZZ_MAXSOLVERS 64

/* Parse the solvers checked into specs[] (GB_FUZZ_MAXSOLVERS); their
 * number, or -1 with a message when a name does not parse. */
static int fz_specs(gb_solver_spec *specs)
{
    char err[256];
    int n = 0;
    const char *name;
    for (size_t i = 0; i < sizeof gb_fuzz_solvers / sizeof gb_fuzz_solvers[0]; i++)
        if (gb_solver_parse(gb_fuzz_solvers[i], &specs[n++], err, sizeof err) != 0)
            return fz_fail(-1, "solve: cannot parse '%s': %s", gb_fuzz_solvers[i], err);
    for (int i = 0; (name = gb_solver_all(i)) != NULL && n < GB_FUZZ_MAXSOLVERS; i++) {
        int seen = 0;
        for (size_t j = 0; j < sizeof gb_fuzz_solvers / sizeof gb_fuzz_solvers[0]; j++)
            seen |= strcmp(name, gb_fuzz_solvers[j]) == 0;
        if (seen) continue;
        if (gb_solver_parse(name, &specs[n++], err, sizeof err) != 0)
            return fz_fail(-1, "solve: cannot parse '%s': %s", name, err);
    }
    return n;
}

/* The decoded input: terrain of w x h cells (1 = passable), row-major. */
typedef struct fz_grid {
    int w, h;
    gb_model model;
    uint8_t free_[GB_FUZZ_MAXCELLS];
} fz_grid;

static int fz_free(const fz_grid *G, int x, int y)
{
    return x >= 0 && y >= 0 && x < G->w && y < G->h && G->free_[y * G->w + x];
}

/* Legality of the step (x,y) -> (x+dx,y+dy) from the definitions in
 * gb_grid.h, written independently of gb_grid_moves(). */
static int fz_legal(const fz_grid *G, int x, int y, int dx, int dy)
{
    if (!fz_free(G, x + dx, y + dy)) return 0;
    if (dx == 0 || dy == 0) return 1;
    int a = fz_free(G, x + dx, y), b = fz_free(G, x, y + dy);
    switch (G->model) {
    case GB_MODEL_8_NOCUT:  return a && b;
    case GB_MODEL_8_NOCUT_WATER: return a && b; /* no W cells here: 8-nocut */
    case GB_MODEL_8_CUT1:   return a || b;
    case GB_MODEL_8_CUTALL: return 1;
    default:                return 0;
    }
}

/* Reference shortest path: Dijkstra on (straight, diagonal) step counts
 * with a simple lazy binary heap; cells are y * w + x.  Since sqrt 2 is
 * irrational, distinct count pairs of these small grids differ in cost by
 * far more than rounding, so comparing s + d * sqrt 2 orders them exactly.
 * Returns 1 and the counts of an optimal path, or 0 when unreachable. */
typedef struct fz_hent { double key; int cell; } fz_hent;

static int fz_reference(const fz_grid *G, int src, int dst, int64_t *ns, int64_t *nd)
{
    static int32_t cs[GB_FUZZ_MAXCELLS], cd[GB_FUZZ_MAXCELLS];
    static uint8_t seen[GB_FUZZ_MAXCELLS], done[GB_FUZZ_MAXCELLS];
    static fz_hent heap[8 * GB_FUZZ_MAXCELLS + 1];
    const int n = G->w * G->h;
    size_t hn = 0;
    memset(seen, 0, (size_t)n);
    memset(done, 0, (size_t)n);
    cs[src] = cd[src] = 0;
    seen[src] = 1;
    heap[hn++] = (fz_hent){ 0.0, src };
    while (hn > 0) {
        fz_hent top = heap[0];
        fz_hent last = heap[--hn];
        size_t i = 0;
        for (;;) {                        /* sift last down from the root */
            size_t c = 2 * i + 1;
            if (c >= hn) break;
            if (c + 1 < hn && heap[c + 1].key < heap[c].key) c++;
            if (!(heap[c].key < last.key)) break;
            heap[i] = heap[c];
            i = c;
        }
        if (hn > 0) heap[i] = last;
        int u = top.cell;
        if (done[u]) continue;
        done[u] = 1;
        if (u == dst) { *ns = cs[u]; *nd = cd[u]; return 1; }
        int x = u % G->w, y = u / G->w;
        for (int dy = -1; dy <= 1; dy++) {
            for (int dx = -1; dx <= 1; dx++) {
                if ((dx == 0 && dy == 0) || ((dx && dy) && G->model == GB_MODEL_4)) continue;
                if (!fz_legal(G, x, y, dx, dy)) continue;
                int v = (y + dy) * G->w + (x + dx);
                if (done[v]) continue;
                int32_t s2 = cs[u] + (dx && dy ? 0 : 1), d2 = cd[u] + (dx && dy ? 1 : 0);
                double k = (double)s2 + (double)d2 * GB_SQRT2;
                if (seen[v] && !(k < (double)cs[v] + (double)cd[v] * GB_SQRT2)) continue;
                seen[v] = 1;
                cs[v] = s2;
                cd[v] = d2;
                size_t j = hn++;          /* sift up */
                while (j > 0 && k < heap[(j - 1) / 2].key) {
                    heap[j] = heap[(j - 1) / 2];
                    j = (j - 1) / 2;
                }
                heap[j] = (fz_hent){ k, v };
            }
        }
    }
    return 0;
}

/* One solver run, as compared across queues. */
typedef struct fz_run {
    gb_result_status status;
    int32_t len;
    uint64_t expanded, generated;
    gb_check chk;
    int32_t path[GB_FUZZ_MAXCELLS];
} fz_run;

/* Solve, then validate a found path.  0 or a failure code. */
static int fz_solve_one(gb_ws *ws, const gb_solver_spec *sp, gb_queue_kind q, int32_t s,
                        int32_t t, fz_run *o)
{
    static gb_xy xy[GB_FUZZ_MAXCELLS];
    const gb_grid *g = gb_ws_grid(ws);
    gb_result r;
    memset(&r, 0, sizeof r);
    if (gb_solve(ws, sp, q, s, t, &r) != 0)
        return fz_fail(60, "solve: gb_solve(%s, %s) failed", sp->name, gb_queue_name(q));
    o->status = r.status;
    o->len = 0;
    o->expanded = r.st.expanded;
    o->generated = r.st.generated;
    memset(&o->chk, 0, sizeof o->chk);
    if (r.status != GB_FOUND && r.status != GB_UNREACHABLE)
        return fz_fail(61, "solve: %s/%s: status %d without a limit", sp->name,
                       gb_queue_name(q), (int)r.status);
    if (r.status != GB_FOUND) return 0;
    if (r.path_len < 1 || r.path_len > g->npassable || !r.path)
        return fz_fail(62, "solve: %s/%s: path of %ld cells on a map with %ld passable",
                       sp->name, gb_queue_name(q), (long)r.path_len, (long)g->npassable);
    for (int32_t i = 0; i < r.path_len; i++) {
        if (r.path[i] < 0 || r.path[i] >= g->ncells)
            return fz_fail(63, "solve: %s/%s: path[%ld] = id %ld out of range", sp->name,
                           gb_queue_name(q), (long)i, (long)r.path[i]);
        xy[i] = (gb_xy){ gb_grid_x(g, r.path[i]), gb_grid_y(g, r.path[i]) };
        o->path[i] = r.path[i];
    }
    o->len = r.path_len;
    gb_xy a = { gb_grid_x(g, s), gb_grid_y(g, s) }, b = { gb_grid_x(g, t), gb_grid_y(g, t) };
    const int aa = gb_solver_cost_model(sp) == GB_COST_ANYANGLE;
    if (!(aa ? gb_validate_anyangle(g, a, b, xy, (size_t)r.path_len, r.cost, &o->chk)
             : gb_validate_path(g, gb_ws_model(ws), a, b, xy, (size_t)r.path_len, r.cost, &o->chk)))
        return fz_fail(64, "solve: %s/%s (%d,%d)->(%d,%d) model %s: invalid path: %s",
                       sp->name, gb_queue_name(q), a.x, a.y, b.x, b.y,
                       gb_model_name(gb_ws_model(ws)), o->chk.msg);
    return 0;
}

/* Decode the input into *G and the queries (cell indices y * w + x).
 * Returns the number of queries (0 when the grid has no passable cell). */
static int fz_decode(const uint8_t *data, size_t size, fz_grid *G, int qs[][2])
{
    G->w = 1 + (size > 0 ? data[0] % GB_FUZZ_MAXDIM : 0);
    G->h = 1 + (size > 1 ? data[1] % GB_FUZZ_MAXDIM : 0);
    /* the four models of a bit grid, as the corpus was written (the water
     * rule needs letters, and is 8-nocut without them) */
    G->model = (gb_model)(size > 2 ? data[2] % 4 : 0);
    const int n = G->w * G->h;
    const size_t nbytes = ((size_t)n + 7) / 8;
    int first = -1, last = -1;
    for (int i = 0; i < n; i++) {
        size_t at = 3 + (size_t)i / 8;
        int blocked = at < size ? (data[at] >> (i % 8)) & 1 : 0;
        G->free_[i] = (uint8_t)!blocked;
        if (!blocked) { if (first < 0) first = i; last = i; }
    }
    if (first < 0) return 0;
    size_t p = 3 + nbytes;
    int nq = 0;
    while (nq < GB_FUZZ_MAXQ && p + 4 <= size) {
        for (int e = 0; e < 2; e++) {
            int c = (data[p + (size_t)(2 * e) + 1] % G->h) * G->w + data[p + (size_t)(2 * e)] % G->w;
            while (!G->free_[c]) c = (c + 1) % n;     /* next passable cell */
            qs[nq][e] = c;
        }
        nq++;
        p += 4;
    }
    if (nq == 0) { qs[0][0] = first; qs[0][1] = last; nq = 1; }
    return nq;
}

/* Every solver on every queue for one query, against Dijkstra. */
static int fz_check_query(gb_ws *ws, const fz_grid *G, int32_t s, int32_t t,
                          const gb_solver_spec *specs, int nspecs)
{
    static fz_run dij, first, o;
    const gb_model m = G->model;
    int rc;
    if ((rc = fz_solve_one(ws, &specs[0], GB_Q_BHEAP, s, t, &dij)) != 0) return rc;
    const gb_grid *g = gb_ws_grid(ws);
    int sc = gb_grid_y(g, s) * G->w + gb_grid_x(g, s);
    int tc = gb_grid_y(g, t) * G->w + gb_grid_x(g, t);
    int64_t rs = 0, rd = 0;
    int found = fz_reference(G, sc, tc, &rs, &rd);
    if (found != (dij.status == GB_FOUND))
        return fz_fail(70, "solve: model %s (%d,%d)->(%d,%d): Dijkstra found=%d, "
                       "reference found=%d", gb_model_name(m), sc % G->w, sc / G->w,
                       tc % G->w, tc / G->w, dij.status == GB_FOUND, found);
    if (found && (dij.chk.straight != rs || dij.chk.diag != rd))
        return fz_fail(71, "solve: model %s (%d,%d)->(%d,%d): Dijkstra cost %.9f "
                       "(%lld straight, %lld diagonal), reference %.9f (%lld, %lld)",
                       gb_model_name(m), sc % G->w, sc / G->w, tc % G->w, tc / G->w,
                       dij.chk.cost, (long long)dij.chk.straight, (long long)dij.chk.diag,
                       gb_check_cost(rs, rd), (long long)rs, (long long)rd);
    char err[256];
    for (int i = 0; i < nspecs; i++) {
        const gb_solver_spec *sp = &specs[i];
        if (gb_solver_unsupported(sp, m, err, sizeof err)) continue;
        double bound = 0.0;
        gb_guarantee gu = gb_solver_guarantee(sp, m, &bound);
        for (int q = 0; q < GB_Q_COUNT; q++) {
            fz_run *r = q == 0 ? &first : &o;
            const char *qn = gb_queue_name((gb_queue_kind)q);
            if ((rc = fz_solve_one(ws, sp, (gb_queue_kind)q, s, t, r)) != 0) return rc;
            if ((r->status == GB_FOUND) != (dij.status == GB_FOUND))
                return fz_fail(72, "solve: %s/%s model %s: found=%d, Dijkstra found=%d",
                               sp->name, qn, gb_model_name(m), r->status == GB_FOUND,
                               dij.status == GB_FOUND);
            if (r->status == GB_FOUND && gb_solver_cost_model(sp) == GB_COST_ANYANGLE) {
                const double lb = gb_anyangle_dist((gb_xy){ gb_grid_x(g, s), gb_grid_y(g, s) },
                                                   (gb_xy){ gb_grid_x(g, t), gb_grid_y(g, t) });
                const double gbnd = gb_solver_grid_bound(sp, m);
                if (r->chk.cost < lb - 1e-9 || gu != GB_GUAR_NONE
                    || (gbnd > 0 && !(r->chk.cost <= gbnd * dij.chk.cost * (1 + 1e-12) + 1e-9)))
                    return fz_fail(77, "solve: %s/%s model %s: any-angle cost %.9f outside "
                                   "[%.9f, %g x grid optimum %.9f] or guarantee not none",
                                   sp->name, qn, gb_model_name(m), r->chk.cost, lb, gbnd,
                                   dij.chk.cost);
            } else if (r->status == GB_FOUND) {
                int cmp = gb_check_cmp(&r->chk, &dij.chk);
                if (cmp < 0)
                    return fz_fail(73, "solve: %s/%s model %s: cost %.9f below Dijkstra's %.9f",
                                   sp->name, qn, gb_model_name(m), r->chk.cost, dij.chk.cost);
                if (gu == GB_GUAR_OPTIMAL && cmp != 0)
                    return fz_fail(74, "solve: %s/%s model %s: cost %.9f, optimum %.9f",
                                   sp->name, qn, gb_model_name(m), r->chk.cost, dij.chk.cost);
                if (gu == GB_GUAR_BOUNDED
                    && !(r->chk.cost <= bound * dij.chk.cost * (1 + 1e-12) + 1e-12))
                    return fz_fail(75, "solve: %s/%s model %s: cost %.9f > %g x optimum %.9f",
                                   sp->name, qn, gb_model_name(m), r->chk.cost, bound,
                                   dij.chk.cost);
            }
            if (q == 0) continue;
            if (r->status != first.status || r->len != first.len
                || r->expanded != first.expanded || r->generated != first.generated
                || memcmp(r->path, first.path, (size_t)r->len * sizeof *r->path) != 0)
                return fz_fail(76, "solve: %s model %s: %s gives status %d, %ld cells, "
                               "%llu expanded, %llu generated; %s gives %d, %ld, %llu, %llu",
                               sp->name, gb_model_name(m), qn, (int)r->status, (long)r->len,
                               (unsigned long long)r->expanded,
                               (unsigned long long)r->generated,
                               gb_queue_name(GB_Q_BHEAP), (int)first.status,
                               (long)first.len, (unsigned long long)first.expanded,
                               (unsigned long long)first.generated);
        }
    }
    return 0;
}

__attribute__((unused)) static int gb_fuzz_solve(const uint8_t *data, size_t size)
{
    static fz_grid G;
    gb_solver_spec specs[GB_FUZZ_MAXSOLVERS];
    int qs[GB_FUZZ_MAXQ][2];
    gb_fuzz_msg[0] = '\0';
    const int nspecs = fz_specs(specs);
    if (nspecs < 0) return 80;   /* the message says which name */
    int nq = fz_decode(data, size, &G, qs);
    if (nq == 0) return 0;
    gb_grid g;
    if (gb_grid_init(&g, G.w, G.h) != 0)
        return fz_fail(81, "solve: gb_grid_init(%d, %d) failed", G.w, G.h);
    for (int y = 0; y < G.h; y++)
        for (int x = 0; x < G.w; x++)
            g.pass[gb_grid_id(&g, x, y)] = G.free_[y * G.w + x];
    gb_grid_recount(&g);
    gb_ws *ws = gb_ws_new(&g, G.model);
    if (!ws) {
        gb_grid_free(&g);
        return fz_fail(82, "solve: gb_ws_new failed");
    }
    int rc = 0;
    for (int i = 0; rc == 0 && i < nq; i++) {
        int32_t s = gb_grid_id(&g, qs[i][0] % G.w, qs[i][0] / G.w);
        int32_t t = gb_grid_id(&g, qs[i][1] % G.w, qs[i][1] / G.w);
        rc = fz_check_query(ws, &G, s, t, specs, nspecs);
    }
    gb_ws_free(ws);
    gb_grid_free(&g);
    return rc;
}

/* ---- run journal ------------------------------------------------------ */

#define GB_FUZZ_JMAGIC "# gridbench run journal v2 "   /* gb_journal.c's MAGIC */
#define GB_FUZZ_JFP "fz 2 pairs"
#define GB_FUZZ_JHDR "map,scen,line,queue"
#define GB_FUZZ_JPAIRS 2

/* gb_read_file, the buffer or NULL (freed with gb_free). */
static char *fz_slurp(const char *path, size_t *n)
{
    char *b;
    gb_diag d;
    return gb_read_file(path, &b, n, &d) == 0 ? b : NULL;
}

/* Complete queries ("#=" lines after line 2) in b[0..n), or -1 when the
 * text does not begin with the two header lines. */
static long fz_journal_commits(const char *b, size_t n)
{
    size_t pos = 0;
    long lineno = 0, commits = 0;
    while (pos < n) {
        const char *nl = memchr(b + pos, '\n', n - pos);
        size_t e = nl ? (size_t)(nl - b) : n;
        size_t m = e - pos;
        if (m && b[e - 1] == '\r') m--;
        lineno++;
        if (lineno == 1 && (m != strlen(GB_FUZZ_JMAGIC GB_FUZZ_JFP)
                            || memcmp(b + pos, GB_FUZZ_JMAGIC GB_FUZZ_JFP, m) != 0))
            return -1;
        if (lineno == 2 && (m != strlen(GB_FUZZ_JHDR) || memcmp(b + pos, GB_FUZZ_JHDR, m) != 0))
            return -1;
        if (lineno > 2 && m >= 2 && b[pos] == '#' && b[pos + 1] == '=') commits++;
        pos = e + 1;
    }
    return lineno < 2 ? -1 : commits;
}

/* The private folder of gb_fuzz_journal, removed at exit (it is empty
 * between inputs). */
static char fz_jdir[64];
static void fz_jdir_remove(void)
{
    if (fz_jdir[0]) rmdir(fz_jdir);
}

__attribute__((unused)) static int gb_fuzz_journal(const uint8_t *data, size_t size)
{
    static char out[128], jpath[160];
    char *dir = fz_jdir;
    gb_fuzz_msg[0] = '\0';
    if (!dir[0]) {
        snprintf(dir, sizeof fz_jdir, "%s", "/tmp/gbfuzz-journal.XXXXXX");
        if (!mkdtemp(dir)) { dir[0] = '\0'; return fz_fail(90, "journal: mkdtemp failed"); }
        atexit(fz_jdir_remove);
        snprintf(out, sizeof out, "%s/q.csv", dir);
        snprintf(jpath, sizeof jpath, "%s.partial", out);
    }
    remove(out);
    FILE *f = fopen(jpath, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
        return fz_fail(91, "journal: cannot write %s", jpath);
    gb_journal j;
    gb_diag d;
    int rc = gb_journal_open(&j, out, GB_FUZZ_JFP, GB_FUZZ_JHDR, NULL, GB_FUZZ_JPAIRS, GB_JOURNAL_RESUME, &d);
    size_t n = 0;
    char *now = NULL;
    if (rc) {
        if ((rc = fz_check_diag("journal", rc, &d)) != 0) goto done;
        now = fz_slurp(jpath, &n);
        if (!now || n != size || (size && memcmp(now, data, size) != 0))
            rc = fz_fail(92, "journal: a refused journal was changed (%zu bytes, now %zu)", size, n);
        goto done;
    }
    {
        long ndone = j.ndone;
        gb_journal_query q0 = { 0, 0, NULL, NULL, NULL, NULL, 0, 0 };
        uint8_t st0 = 0;
        uint64_t ex0 = 0;
        int64_t ns0 = 0;
        for (long k = 0; k < ndone; k++)
            if (j.done[k].line < 0 || (j.done[k].scen_ok != 0 && j.done[k].scen_ok != 1)) {
                rc = fz_fail(93, "journal: query %ld has line %ld, scen_ok %d", k, j.done[k].line,
                             j.done[k].scen_ok);
                gb_journal_close(&j);
                goto done;
            }
        if (ndone > 0) {
            q0 = j.done[ndone - 1];
            st0 = q0.status[1];
            ex0 = q0.expanded[1];
            ns0 = q0.time_ns[1];
        }
        gb_journal_close(&j);
        now = fz_slurp(jpath, &n);
        if (!now || n > size || (n && memcmp(now, data, n) != 0) || (n && now[n - 1] != '\n')) {
            rc = fz_fail(94, "journal: expected the file cut to a prefix of the data ending a line, "
                         "found %zu of %zu bytes", n, size);
            goto done;
        }
        long c = fz_journal_commits(now, n);
        if (c != ndone) {
            rc = fz_fail(95, "journal: the kept file has %ld complete queries (-1: no header "
                         "lines), the journal read %ld", c, ndone);
            goto done;
        }
        /* again: the same queries, nothing more cut */
        if ((rc = gb_journal_open(&j, out, GB_FUZZ_JFP, GB_FUZZ_JHDR, NULL, GB_FUZZ_JPAIRS, GB_JOURNAL_RESUME, &d)) != 0) {
            rc = fz_fail(96, "journal: a journal it cut is refused: %s", d.msg);
            goto done;
        }
        if (j.ndone != ndone
            || (ndone > 0 && (j.done[ndone - 1].line != q0.line || j.done[ndone - 1].status[1] != st0
                              || j.done[ndone - 1].expanded[1] != ex0
                              || j.done[ndone - 1].time_ns[1] != ns0))) {
            long got = j.ndone;
            gb_journal_close(&j);
            rc = fz_fail(97, "journal: resumed twice, %ld then %ld queries (or other values)",
                         ndone, got);
            goto done;
        }
        /* one more query: two rows and its commit, read back */
        uint8_t st[2] = { size ? data[0] : 0, size > 1 ? data[size - 1] : 7 };
        uint64_t ex[2] = { (uint64_t)size, UINT64_MAX - (uint64_t)size };
        int64_t ns[2] = { -(int64_t)size, INT64_MAX };
        long line = (long)(size * 7);
        int scen_ok = (int)(size & 1);
        if (gb_journal_commit(&j, ndone, line, scen_ok, st, ex, ns, "r1\nr2\n", 6, &d) != 0) {
            gb_journal_close(&j);
            rc = fz_fail(98, "journal: commit failed: %s", d.msg);
            goto done;
        }
        gb_journal_close(&j);
        if ((rc = gb_journal_open(&j, out, GB_FUZZ_JFP, GB_FUZZ_JHDR, NULL, GB_FUZZ_JPAIRS, GB_JOURNAL_RESUME, &d)) != 0) {
            rc = fz_fail(99, "journal: refused after a commit: %s", d.msg);
            goto done;
        }
        const gb_journal_query *q = j.ndone == ndone + 1 ? &j.done[ndone] : NULL;
        if (!q || q->line != line || q->scen_ok != scen_ok || q->status[0] != st[0]
            || q->status[1] != st[1] || q->expanded[0] != ex[0] || q->expanded[1] != ex[1]
            || q->time_ns[0] != ns[0] || q->time_ns[1] != ns[1]) {
            long got = j.ndone;
            gb_journal_close(&j);
            rc = fz_fail(100, "journal: a commit did not read back (%ld queries, expected %ld)",
                         got, ndone + 1);
            goto done;
        }
        /* finish: FILE holds the row lines only, the journal is gone */
        gb_free(now);
        now = fz_slurp(jpath, &n);
        long rows = 0;
        for (size_t i = 0; now && i < n; i++)
            if ((i == 0 || now[i - 1] == '\n') && now[i] != '#') rows++;
        if (gb_journal_finish(&j, out, &d) != 0) {
            rc = fz_fail(101, "journal: finish failed: %s", d.msg);
            goto done;
        }
        gb_free(now);
        now = fz_slurp(out, &n);
        long lines = 0, hashes = 0;
        for (size_t i = 0; now && i < n; i++)
            if (i == 0 || now[i - 1] == '\n') {
                lines++;
                hashes += now[i] == '#';
            }
        if (!now || hashes || lines != rows || access(jpath, F_OK) == 0)
            rc = fz_fail(102, "journal: finish wrote %ld lines (%ld comments), expected %ld rows, "
                         "journal %s", lines, hashes, rows,
                         access(jpath, F_OK) == 0 ? "left behind" : "removed");
    }
done:
    gb_free(now);
    remove(jpath);
    remove(out);
    return rc;
}

/* ---- dynamic scenarios ------------------------------------------------- */

/* Invariants of a loaded gb_dynscen (see gb_fuzz_dyn). */
static int fz_check_dyn(const gb_dynscen *s)
{
    size_t ev = 0, cells = 0;
    if (s->n < 1 || !s->q) return fz_fail(110, "dyn: success with %zu queries", s->n);
    if (s->version != GB_DYN_VERSION) return fz_fail(111, "dyn: version %d", s->version);
    if (!s->map_field) return fz_fail(112, "dyn: no map field");
    for (size_t i = 0; i < s->n; i++) {
        const gb_dyn_query *q = &s->q[i];
        long next = i + 1 < s->n ? s->q[i + 1].line : LONG_MAX;
        if (q->line < 1 || (i > 0 && q->line <= s->q[i - 1].line))
            return fz_fail(113, "dyn: query %zu on line %ld after line %ld", i, q->line,
                           i > 0 ? s->q[i - 1].line : 0L);
        if (q->map_w < 1 || q->map_h < 1 || q->sx < 0 || q->sy < 0 || q->gx < 0 || q->gy < 0
            || q->sx >= q->map_w || q->gx >= q->map_w || q->sy >= q->map_h || q->gy >= q->map_h)
            return fz_fail(114, "dyn: query %zu: map %ldx%ld, start (%ld,%ld), goal (%ld,%ld)",
                           i, (long)q->map_w, (long)q->map_h, (long)q->sx, (long)q->sy,
                           (long)q->gx, (long)q->gy);
        if (q->ev0 != ev || q->nev > s->nev - ev)
            return fz_fail(115, "dyn: query %zu: events [%zu, +%zu), expected to start at %zu "
                           "of %zu", i, q->ev0, q->nev, ev, s->nev);
        for (size_t k = q->ev0; k < q->ev0 + q->nev; k++) {
            const gb_dyn_event *e = &s->ev[k];
            if (e->line <= q->line || e->line >= next || (k > q->ev0 && e->line <= e[-1].line))
                return fz_fail(116, "dyn: event %zu on line %ld, its query on line %ld", k,
                               e->line, q->line);
            if ((e->trigger != GB_DYN_AT && e->trigger != GB_DYN_NEAR) || e->value < 1
                || (e->block != 0 && e->block != 1))
                return fz_fail(117, "dyn: event %zu: trigger %d, value %ld, block %d", k,
                               (int)e->trigger, (long)e->value, e->block);
            if (e->nc < 1 || e->c0 != cells || e->nc > s->ncell - cells)
                return fz_fail(118, "dyn: event %zu: cells [%zu, +%zu), expected to start at "
                               "%zu of %zu", k, e->c0, e->nc, cells, s->ncell);
            for (size_t c = e->c0; c < e->c0 + e->nc; c++) {
                const gb_dyn_cell *p = &s->cell[c];
                if (p->x < 0 || p->y < 0 || p->x >= q->map_w || p->y >= q->map_h
                    || (e->block && p->x == q->gx && p->y == q->gy))
                    return fz_fail(119, "dyn: event %zu: cell (%ld,%ld) outside %ldx%ld or "
                                   "the blocked goal", k, (long)p->x, (long)p->y, (long)q->map_w,
                                   (long)q->map_h);
            }
            cells += e->nc;
        }
        ev += q->nev;
    }
    if (ev != s->nev || cells != s->ncell)
        return fz_fail(120, "dyn: %zu events and %zu cells counted, %zu and %zu held", ev,
                       cells, s->nev, s->ncell);
    return 0;
}

/* Same queries, events and cells (lines aside: the writer lays them out). */
static int fz_same_dyn(const gb_dynscen *a, const gb_dynscen *b)
{
    if (a->n != b->n || a->nev != b->nev || a->ncell != b->ncell
        || strcmp(a->map_field, b->map_field) != 0)
        return fz_fail(121, "dyn: read back %zu queries, %zu events, %zu cells, map '%s'; "
                       "wrote %zu, %zu, %zu, '%s'", b->n, b->nev, b->ncell, b->map_field,
                       a->n, a->nev, a->ncell, a->map_field);
    for (size_t i = 0; i < a->n; i++) {
        const gb_dyn_query *p = &a->q[i], *q = &b->q[i];
        if (p->map_w != q->map_w || p->map_h != q->map_h || p->sx != q->sx || p->sy != q->sy
            || p->gx != q->gx || p->gy != q->gy || p->ev0 != q->ev0 || p->nev != q->nev)
            return fz_fail(122, "dyn: query %zu differs after the round trip", i);
    }
    for (size_t k = 0; k < a->nev; k++) {
        const gb_dyn_event *e = &a->ev[k], *f = &b->ev[k];
        if (e->trigger != f->trigger || e->value != f->value || e->block != f->block
            || e->c0 != f->c0 || e->nc != f->nc)
            return fz_fail(123, "dyn: event %zu differs after the round trip", k);
    }
    for (size_t c = 0; c < a->ncell; c++)
        if (a->cell[c].x != b->cell[c].x || a->cell[c].y != b->cell[c].y)
            return fz_fail(124, "dyn: cell %zu differs after the round trip", c);
    return 0;
}

/* Replays made and plans seen since the program started (all models),
 * so that a test can tell that the replay ran. */
static long fz_dyn_replays;
static int64_t fz_dyn_plans;

/* What the replay observer checks (see gb_fuzz_dyn, "Replay"). */
typedef struct fz_dynobs {
    fz_grid G;                    /* the map now, for fz_reference */
    const gb_grid *g;
    gb_model model;
    int32_t goal;
    int32_t plan[GB_FUZZ_MAXCELLS];   /* the last plan found */
    int32_t plen, at;
    int64_t plans, moves;
    int rc;                       /* the first failure (0: none) */
} fz_dynobs;

static void fz_dyn_event(void *arg, int64_t t, const gb_dyn_event *ev, const gb_dyn_cell *cl,
                         int32_t agent)
{
    fz_dynobs *o = arg;
    for (size_t i = 0; i < ev->nc && !o->rc; i++) {
        int32_t id = gb_grid_id(o->g, cl[i].x, cl[i].y);
        int want = ev->block && id == agent ? 1 : !ev->block;
        if (o->g->pass[id] != want)
            o->rc = fz_fail(131, "dyn replay (%s): event of line %ld at step %lld: cell "
                            "(%ld,%ld) is %s", gb_model_name(o->model), ev->line, (long long)t,
                            (long)cl[i].x, (long)cl[i].y, o->g->pass[id] ? "free" : "blocked");
    }
}

static void fz_dyn_plan(void *arg, int64_t t, int32_t agent, const gb_dstar_plan *p)
{
    static gb_xy xy[GB_FUZZ_MAXCELLS];
    fz_dynobs *o = arg;
    const gb_grid *g = o->g;
    o->plans++;
    fz_dyn_plans++;
    o->plen = o->at = 0;
    if (o->rc) return;
    for (int32_t y = 0; y < g->height; y++)
        for (int32_t x = 0; x < g->width; x++)
            o->G.free_[y * g->width + x] = g->pass[gb_grid_id(g, x, y)];
    int32_t ax = gb_grid_x(g, agent), ay = gb_grid_y(g, agent);
    int32_t bx = gb_grid_x(g, o->goal), by = gb_grid_y(g, o->goal);
    int64_t rs = 0, rd = 0;
    int found = fz_reference(&o->G, ay * g->width + ax, by * g->width + bx, &rs, &rd);
    if (found != p->found) {
        o->rc = fz_fail(132, "dyn replay (%s): step %lld, (%ld,%ld)->(%ld,%ld): D* Lite "
                        "found=%d, reference found=%d", gb_model_name(o->model), (long long)t,
                        (long)ax, (long)ay, (long)bx, (long)by, p->found, found);
        return;
    }
    if (!found) return;
    if (p->path_len < 1 || p->path_len > g->npassable) {
        o->rc = fz_fail(133, "dyn replay: a plan of %ld cells", (long)p->path_len);
        return;
    }
    for (int32_t i = 0; i < p->path_len; i++) {
        xy[i] = (gb_xy){ gb_grid_x(g, p->path[i]), gb_grid_y(g, p->path[i]) };
        o->plan[i] = p->path[i];
    }
    o->plen = p->path_len;
    gb_check chk;
    if (!gb_validate_path(g, o->model, (gb_xy){ ax, ay }, (gb_xy){ bx, by }, xy,
                          (size_t)p->path_len, p->cost, &chk))
        o->rc = fz_fail(134, "dyn replay (%s): step %lld: D* Lite path invalid: %s",
                        gb_model_name(o->model), (long long)t, chk.msg);
    else if (chk.straight != rs || chk.diag != rd || p->straight != rs || p->diag != rd)
        o->rc = fz_fail(135, "dyn replay (%s): step %lld, (%ld,%ld)->(%ld,%ld): D* Lite "
                        "%lld+%lld sqrt2 (its path %lld+%lld), reference %lld+%lld",
                        gb_model_name(o->model), (long long)t, (long)ax, (long)ay, (long)bx,
                        (long)by, (long long)p->straight, (long long)p->diag,
                        (long long)chk.straight, (long long)chk.diag, (long long)rs,
                        (long long)rd);
}

static void fz_dyn_move(void *arg, int64_t t, int32_t agent)
{
    fz_dynobs *o = arg;
    o->moves++;
    if (o->rc) return;
    if (t != o->moves || o->at + 1 >= o->plen || o->plan[o->at + 1] != agent)
        o->rc = fz_fail(136, "dyn replay (%s): move %lld (of %lld seen) to cell %ld, off the "
                        "plan (%ld cells, at %ld)", gb_model_name(o->model), (long long)t,
                        (long long)o->moves, (long)agent, (long)o->plen, (long)o->at);
    o->at++;
}

/* The map of the replay: w x h, terrain from the "#|" lines of data. */
static void fz_dyn_terrain(const uint8_t *data, size_t size, gb_grid *g)
{
    int32_t y = 0;
    for (size_t i = 0; i < size && y < g->height;) {
        size_t e = i;
        while (e < size && data[e] != '\n') e++;
        if (e - i >= 2 && data[i] == '#' && data[i + 1] == '|') {
            for (int32_t x = 0; x < g->width && i + 2 + (size_t)x < e; x++)
                if (memchr("@OTW", data[i + 2 + (size_t)x], 4))
                    g->pass[gb_grid_id(g, x, y)] = 0;
            y++;
        }
        i = e + 1;
    }
}

/* Replay the queries of s on the map of data (see gb_fuzz_dyn, "Replay"). */
static int fz_replay_dyn(const uint8_t *data, size_t size, const gb_dynscen *s)
{
    static fz_dynobs o;
    const int32_t w = s->q[0].map_w, h = s->q[0].map_h;
    if (w > GB_FUZZ_MAXDIM || h > GB_FUZZ_MAXDIM) return 0;
    gb_map m;
    memset(&m, 0, sizeof m);
    if (gb_grid_init(&m.grid, w, h) != 0) return fz_fail(140, "dyn replay: gb_grid_init failed");
    gb_grid *g = &m.grid;
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++) g->pass[gb_grid_id(g, x, y)] = 1;
    fz_dyn_terrain(data, size, g);
    size_t qs[GB_FUZZ_MAXQ], nq = 0;
    for (size_t i = 0; i < s->n && nq < GB_FUZZ_MAXQ; i++) {
        const gb_dyn_query *q = &s->q[i];
        if (q->map_w != w || q->map_h != h) continue;
        g->pass[gb_grid_id(g, q->sx, q->sy)] = 1;
        g->pass[gb_grid_id(g, q->gx, q->gy)] = 1;
        qs[nq++] = i;
    }
    gb_grid_recount(g);
    static uint8_t orig[(GB_FUZZ_MAXDIM + 2) * (GB_FUZZ_MAXDIM + 2)];
    memcpy(orig, g->pass, (size_t)g->ncells);
    gb_solver_spec astar;
    char err[128];
    gb_diag d;
    int rc = 0;
    if (gb_solver_parse("astar-octile", &astar, err, sizeof err) != 0)
        rc = fz_fail(141, "dyn replay: %s", err);
    gb_dynrep_obs obs = { &o, fz_dyn_event, fz_dyn_plan, fz_dyn_move };
    for (int mi = 0; rc == 0 && mi < GB_MODEL_COUNT; mi++) {
        gb_model model = (gb_model)mi;
        gb_dynrep *r = gb_dynrep_new(g, model, &astar, GB_Q_BHEAP, 0);
        if (!r) { rc = fz_fail(142, "dyn replay: gb_dynrep_new failed"); break; }
        for (size_t k = 0; rc == 0 && k < nq; k++) {
            const gb_dyn_query *q = &s->q[qs[k]];
            if (gb_dynscen_check_query(s, qs[k], &m, &d) != 0) {
                rc = fz_fail(143, "dyn replay: query %zu refused: %s", qs[k], d.msg);
                break;
            }
            memset(&o, 0, sizeof o);
            o.G.w = w;
            o.G.h = h;
            o.G.model = model;
            o.g = g;
            o.model = model;
            o.goal = gb_grid_id(g, q->gx, q->gy);
            gb_dynrep_row row;
            fz_dyn_replays++;
            if (gb_dynrep_query(r, s, qs[k], &obs, &row) != 0)
                rc = fz_fail(144, "dyn replay: out of memory");
            else if (o.rc)
                rc = o.rc;
            else if (strcmp(row.status, "wrong") == 0)
                rc = fz_fail(145, "dyn replay (%s): query %zu (line %ld) wrong: %s",
                             gb_model_name(model), qs[k], q->line, row.msg);
            else if (row.plans != o.plans || row.steps != o.moves)
                rc = fz_fail(146, "dyn replay (%s): row says %lld plans and %lld steps, the "
                             "observer saw %lld and %lld", gb_model_name(model),
                             (long long)row.plans, (long long)row.steps, (long long)o.plans,
                             (long long)o.moves);
            else if (memcmp(orig, g->pass, (size_t)g->ncells) != 0)
                rc = fz_fail(147, "dyn replay (%s): query %zu left the map changed",
                             gb_model_name(model), qs[k]);
        }
        gb_dynrep_free(r);
    }
    gb_grid_free(g);
    return rc;
}

static char fz_ddir[64];
static void fz_ddir_remove(void)
{
    if (fz_ddir[0]) rmdir(fz_ddir);
}

__attribute__((unused)) static int gb_fuzz_dyn(const uint8_t *data, size_t size)
{
    static const char path[] = "fuzz.dyn";
    static char out[128];
    gb_dynscen s, t;
    gb_diag d;
    gb_fuzz_msg[0] = '\0';
    int rc = gb_dynscen_parse(path, (const char *)data, size, &s, &d);
    if (rc != 0) {
        if (s.path || s.map_field || s.q || s.n || s.ev || s.nev || s.cell || s.ncell)
            return fz_fail(125, "dyn: failed parse (%d) left *s non-zero", rc);
        return fz_check_diag("dyn", rc, &d);
    }
    if (d.code != 0) {
        gb_dynscen_free(&s);
        return fz_fail(126, "dyn: success but diag code %d", d.code);
    }
    if ((rc = fz_check_dyn(&s)) != 0) {
        gb_dynscen_free(&s);
        return rc;
    }
    if (!fz_ddir[0]) {
        snprintf(fz_ddir, sizeof fz_ddir, "%s", "/tmp/gbfuzz-dyn.XXXXXX");
        if (!mkdtemp(fz_ddir)) {
            fz_ddir[0] = '\0';
            gb_dynscen_free(&s);
            return fz_fail(127, "dyn: mkdtemp failed");
        }
        atexit(fz_ddir_remove);
        snprintf(out, sizeof out, "%s/q.dyn", fz_ddir);
    }
    if (gb_dynscen_write(out, &s, &d) != 0) {
        rc = fz_fail(128, "dyn: cannot write it back: %s", d.msg);
    } else if (gb_dynscen_load(out, &t, &d) != 0) {
        rc = fz_fail(129, "dyn: what the writer wrote is refused: %s", d.msg);
    } else {
        rc = fz_check_dyn(&t);
        if (!rc) rc = fz_same_dyn(&s, &t);
        gb_dynscen_free(&t);
    }
    remove(out);
    if (!rc) rc = fz_replay_dyn(data, size, &s);
    gb_dynscen_free(&s);
    if (!rc && (s.q || s.ev || s.cell || s.map_field))
        rc = fz_fail(130, "dyn: gb_dynscen_free left pointers set");
    return rc;
}

/* ---- shard merge ------------------------------------------------------ */

#define GB_FUZZ_MSHARDS 4

/* 1 when the last gb_fuzz_merge input merged (0: refused). */
static int gb_fuzz_merged;

/* The private folder of gb_fuzz_merge (in /dev/shm when there is one:
 * each input creates and removes files), emptied between inputs and
 * removed at exit. */
static char fz_mdir[64];
static void fz_mdir_empty(void)
{
    char p[128];
    for (int i = 0; fz_mdir[0] && i < GB_FUZZ_MSHARDS; i++) {
        snprintf(p, sizeof p, "%s/s%d.csv", fz_mdir, i);
        unlink(p);
        snprintf(p, sizeof p, "%s/s%d.csv.shard", fz_mdir, i);
        unlink(p);
    }
}
static void fz_mdir_remove(void)
{
    fz_mdir_empty();
    if (fz_mdir[0]) rmdir(fz_mdir);
}

/* Merge csv[0..n) (reversed when rev) into a fresh buffer *o of *olen bytes. */
static int fz_merge(char **csv, int n, int rev, char **o, size_t *olen, gb_shard_summary *sum,
                    gb_diag *d)
{
    char *v[GB_FUZZ_MSHARDS];
    for (int i = 0; i < n; i++) v[i] = csv[rev ? n - 1 - i : i];
    *o = NULL;
    *olen = 0;
    FILE *f = open_memstream(o, olen);
    if (!f) return -1;
    int rc = gb_shard_merge(v, n, f, sum, d);
    fclose(f);
    return rc;
}

__attribute__((unused)) static int gb_fuzz_merge(const uint8_t *data, size_t size)
{
    gb_fuzz_msg[0] = '\0';
    gb_fuzz_merged = 0;
    if (!fz_mdir[0]) {
        struct stat st;
        snprintf(fz_mdir, sizeof fz_mdir, "%s/gbfuzz-merge.XXXXXX",
                 stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode) && access("/dev/shm", W_OK) == 0
                 ? "/dev/shm" : "/tmp");
        if (!mkdtemp(fz_mdir)) { fz_mdir[0] = '\0'; return fz_fail(140, "merge: mkdtemp failed"); }
        atexit(fz_mdir_remove);
    }
    fz_mdir_empty();
    /* the parts: manifest 0, CSV 0, manifest 1, ... separated by "%%" lines */
    const char *b = (const char *)data;
    size_t at = 0;
    int part = 0;
    char *csv[GB_FUZZ_MSHARDS];
    static char names[GB_FUZZ_MSHARDS][96];
    const char *one = NULL;   /* CSV 0's bytes, for the one-shard property */
    size_t one_len = 0;
    while (part < 2 * GB_FUZZ_MSHARDS && at <= size) {
        size_t e = at;
        while (e < size && !(b[e] == '%' && e + 2 < size && b[e + 1] == '%' && b[e + 2] == '\n'
                             && (e == 0 || b[e - 1] == '\n')))
            e++;
        int sh = part / 2;
        snprintf(names[sh], sizeof names[sh], "%s/s%d.csv", fz_mdir, sh);
        csv[sh] = names[sh];
        char p[128];
        snprintf(p, sizeof p, "%s%s", names[sh], part % 2 ? "" : ".shard");
        FILE *f = fopen(p, "wb");
        if (!f || fwrite(b + at, 1, e - at, f) != e - at || fclose(f) != 0)
            return fz_fail(141, "merge: cannot write %s", p);
        if (part == 1) { one = b + at; one_len = e - at; }
        part++;
        if (e >= size) break;
        at = e + 3;
    }
    int n = (part + 1) / 2;
    gb_shard_summary sum;
    gb_diag d;
    char *o = NULL;
    size_t olen = 0;
    int rc = fz_merge(csv, n, 0, &o, &olen, &sum, &d);
    if (rc < 0) return fz_fail(142, "merge: open_memstream failed");
    if (rc) {
        gb_diag c = d;
        int code = rc == EX_NOINPUT ? EX_DATAERR : rc;
        if (rc == EX_NOINPUT) c.code = EX_DATAERR;
        rc = fz_check_diag("merge", code, &c);
        if (!rc && olen) rc = fz_fail(143, "merge: refused, and wrote %zu bytes", olen);
        free(o);
        return rc;
    }
    gb_fuzz_merged = 1;
    /* the output: the header and sum.rows checked rows */
    const char *hdr = gb_rows_header();
    size_t hl = strlen(hdr);
    uint64_t rows = 0, st = 0;
    for (int k = 0; k < GB_ROW_NSTATUS; k++) st += sum.status[k];
    if (olen < hl + 1 || memcmp(o, hdr, hl) != 0 || o[hl] != '\n') rc = fz_fail(144, "merge: no header");
    for (size_t i = hl + 1; !rc && i < olen; rows++) {
        size_t e = i;
        int q = 0;
        while (e < olen && (o[e] != '\n' || q)) q ^= o[e++] == '"';
        char why[160];
        if (e >= olen) rc = fz_fail(145, "merge: a last row without its newline");
        else if (gb_rows_split(o + i, e - i, gb_rows_kinds(), NULL, why, sizeof why) != 0)
            rc = fz_fail(146, "merge: row %llu of the output: %s", (unsigned long long)rows, why);
        i = e + 1;
    }
    if (!rc && (rows != sum.rows || st != sum.rows || sum.shards != n))
        rc = fz_fail(147, "merge: %llu rows written, summary %llu rows, %llu statuses, %d shards of %d",
                     (unsigned long long)rows, (unsigned long long)sum.rows,
                     (unsigned long long)st, sum.shards, n);
    if (!rc && n == 1 && (olen != one_len || memcmp(o, one, olen) != 0))
        rc = fz_fail(148, "merge: one shard, and the output is not its CSV (%zu, %zu bytes)", olen, one_len);
    if (!rc && n > 1) {
        char *o2 = NULL;
        size_t l2 = 0;
        gb_shard_summary s2;
        int rc2 = fz_merge(csv, n, 1, &o2, &l2, &s2, &d);
        if (rc2 != 0 || l2 != olen || memcmp(o2, o, olen) != 0)
            rc = fz_fail(149, "merge: the shards in reverse order give %d, %zu bytes (first: %zu)", rc2,
                         l2, olen);
        free(o2);
    }
    free(o);
    return rc;
}

#endif
