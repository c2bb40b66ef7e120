/*
 * gb_gppcdyn.h -- GPPC's dynamic scenarios (the dynamic track of the
 * Grid-based Path Planning Competition, startkit-dynamic): a map that
 * starts all passable and is rewritten by patches between batches of
 * queries.  docs/dynamic.md, "GPPC's dynamic format", has the grammar.
 *
 * Scenario (FILE.scen), one item per line, blank lines skipped:
 *     version 2
 *     height H                 1 <= H <= 8000
 *     width W                  1 <= W <= 8000
 *     cost N NAME...           N <= GB_GPPCDYN_MAX_COSTS names, exactly one "octile"
 *     patch FILE               the patch file, relative to the scenario's folder
 *     commands
 *     P T ID X Y               at time T, write patch ID with its top-left on (X, Y)
 *     Q T SX SY GX GY LEN...   at time T, a query; N lengths, one per cost name;
 *                              the octile one is kept; -1 means "no path"
 * Patch file:
 *     type patch
 *     patches K
 *     then K times:  patch I (I = 0, 1, ... in order) / height h / width w /
 *                    map / h rows of exactly w terrain characters
 *   Terrain: '.' 'G' 'S' passable; '@' 'O' 'T' 'W' blocked (the Moving AI
 *   set, as the startkit reads it).  A patch is no larger than the map.
 *
 * Replay semantics (the startkit's): the map is W x H, all passable, at
 * the start; commands run in file order; a P overwrites every cell of the
 * patch's rectangle with the patch's cells; a maximal run of Q commands
 * is a batch, answered on the map as it then is.  Times T (0..65535) are
 * labels for the batch (GPPC's "snapshot"); they may not decrease.
 *
 * Lengths are GPPC's printf("%.14g") of the optimal octile cost: the
 * tolerance is one unit in the S-th significant digit, S the most
 * significant digits printed by any length of the file (gb_scen.h's rule
 * for significant-digit files, via gb_len_parse / gb_len_tol_sig).
 *
 * Invariants of a loaded gb_gppcdyn
 *   - every P names a patch < npatch whose rectangle lies inside W x H;
 *   - every Q's start and goal lie inside W x H; tol > 0 unless len < 0;
 *   - patch p's cells are cell[p.c0 .. p.c0 + p.w * p.h), row-major,
 *     1 passable, 0 blocked;
 *   - cmd[].t never decreases.
 * Memory is linear in the input: arrays grow with what was read, and a
 * patch's cells are allocated only once the input is known to hold
 * that many row bytes.  Nothing prints, nothing exits.
 */
#ifndef GB_GPPCDYN_H
#define GB_GPPCDYN_H

#include <stddef.h>
#include <stdint.h>

#include "gb_diag.h"

/* Bounds from the startkit (GPPC_HARD_MAP_LIMIT) and of this loader. */
#define GB_GPPCDYN_MAX_SIDE 8000
#define GB_GPPCDYN_MAX_TIME 65535
#define GB_GPPCDYN_MAX_COSTS 16

typedef enum gb_gppcdyn_kind { GB_GPPCDYN_QUERY = 0, GB_GPPCDYN_PATCH } gb_gppcdyn_kind;

typedef struct gb_gppcdyn_cmd {
    long line;              /* 1-based line in the scenario */
    gb_gppcdyn_kind kind;
    int32_t t;              /* its time (GPPC's bucket / snapshot) */
    int32_t patch;          /* P: the patch's index */
    long patch_col;         /* P: column of ID, for the check against the patch file */
    int32_t x, y;           /* P: top-left cell; Q: start */
    int32_t gx, gy;         /* Q: goal */
    double len;             /* Q: the octile length printed, -1 when "no path" */
    int decimals;           /* Q: its digits after the '.' */
    double tol;             /* Q: tolerance for |optimum - len| (0 when len < 0) */
} gb_gppcdyn_cmd;

typedef struct gb_gppcdyn_patch {
    long line;              /* line of its "patch I" in the patch file */
    int32_t w, h;
    size_t c0;              /* its cells: cell[c0 .. c0 + w * h) */
} gb_gppcdyn_patch;

typedef struct gb_gppcdyn {
    char *path;             /* malloc'd copy of the scenario's name */
    char *patch_field;      /* FILE of "patch FILE", as printed */
    char *patch_path;       /* the patch file as opened (gb_gppcdyn_load), or NULL */
    int32_t width, height;
    int ncost;              /* lengths per Q */
    gb_gppcdyn_cmd *cmd;    /* commands, file order */
    size_t ncmd, nquery;
    gb_gppcdyn_patch *patch;
    size_t npatch;
    uint8_t *cell;          /* cells of all patches */
    size_t ncell;
} gb_gppcdyn;

/* Load the scenario at path and the patch file it names (relative to the
 * scenario's folder unless absolute) into *s.  0, or a sysexits code with
 * *d filled ("file:line:col: expected ..., found ...", the line attached):
 * EX_NOINPUT, EX_IOERR, EX_DATAERR, EX_OSERR.  On failure *s is zeroed and
 * owns nothing. */
int gb_gppcdyn_load(const char *path, gb_gppcdyn *s, gb_diag *d);

/* The scenario alone, from buf[0..len) (path names it in diagnostics):
 * *s gets everything but the patches, whose references stay unchecked
 * until gb_gppcdyn_parse_patches.  Same returns as gb_gppcdyn_load. */
int gb_gppcdyn_parse(const char *path, const char *buf, size_t len, gb_gppcdyn *s,
                     gb_diag *d);

/* Read the patch file buf[0..len) (ppath names it) into *s, parsed by
 * gb_gppcdyn_parse without patches, then check every P of the scenario
 * against them (index, fit).  0, or EX_DATAERR / EX_OSERR with *d filled
 * (the patch file's or the scenario's location); *s is freed and zeroed
 * on failure. */
int gb_gppcdyn_parse_patches(gb_gppcdyn *s, const char *ppath, const char *buf, size_t len,
                             gb_diag *d);

/* Release everything *s owns and zero it.  Safe on a zeroed one. */
void gb_gppcdyn_free(gb_gppcdyn *s);

#endif
