/*
 * gb_grid.h -- padded occupancy grid with 1-D cell ids, and movement models.
 *
 * Data structure
 *   A map of width W and height H is stored as a byte array of
 *   (W + 2) * (H + 2) cells: the map plus a one-cell border of blocked
 *   cells on every side.  Cell (x, y) of the map (x = column, y = row,
 *   (0,0) top-left) has id  (y + 1) * stride + (x + 1),  stride = W + 2.
 *   Because the border is blocked, every neighbour id  id + off[k]  of a map
 *   cell is a valid array index, so the hot loops never bounds-check.
 *
 * Invariants
 *   - pass[id] is 1 for a passable map cell and 0 for a blocked cell or a
 *     border cell; no other values.
 *   - ncells = stride * (height + 2) fits in int32_t (the loader refuses
 *     larger maps before allocating: see GB_GRID_MAX_CELLS).
 *
 * Directions are numbered 0..7: N E S W (straight, cost 1) then
 * NE SE SW NW (diagonal, cost sqrt 2).  y grows downwards, so N is dy = -1.
 *
 * Movement models (gb_model) decide which of the 8 moves are legal:
 *   GB_MODEL_8_NOCUT  (default, the model of the Moving AI optimal lengths)
 *                     diagonal needs the target and both orthogonal cells
 *                     it passes passable;
 *   GB_MODEL_8_CUT1   diagonal needs the target and at least one of the
 *                     two orthogonal cells passable;
 *   GB_MODEL_8_CUTALL diagonal needs only the target passable;
 *   GB_MODEL_4        straight moves only (unit cost);
 *   GB_MODEL_8_NOCUT_WATER  8-nocut, with HOG2's water rule: water W is
 *                     passable, but a move must stay within one terrain
 *                     class -- ground (. G S) or water (W) -- so W is
 *                     entered only from W; a diagonal needs its two
 *                     corners in the class too.  (HOG2, Moving AI's
 *                     reference code: utils/Map.h gives the classes by
 *                     the high bits of tTerrain -- kWater 0x10; kGround,
 *                     kSwamp 0x2x; kTrees 0x30 -- and Map::CanStep in
 *                     utils/Map.cpp allows an octile step between two
 *                     cells of one class; MapEnvironment::GetSuccessors in
 *                     environments/Map2DEnvironment.cpp takes a diagonal
 *                     only when both its straight steps are legal.  T
 *                     stays blocked, as the Moving AI format says, where
 *                     HOG2 would let trees connect to trees.)  The W
 *                     cells are made passable and recorded in water[] by
 *                     gb_grid_water(); without water[] the model is
 *                     8-nocut.
 * gb_grid_moves() turns a grid and a model into one byte per cell whose bit
 * k says "move k is legal from here": successor generation is then a loop
 * over set bits with constant offsets and costs.
 *
 * Terrain costs (gb_terrain.h).  cost is NULL on a uniform grid (every
 * step costs 1 or sqrt 2, the Moving AI model).  A terrain model fills
 * cost[id] with the integer cost of each passable cell in units of
 * 1/den (0 exactly where pass[id] is 0), and cscale = 4 den: a step
 * then costs an integer number of units of 1/cscale (times sqrt2 for a
 * diagonal), gb_terrain.h's mean rule.
 *
 * This module does no I/O; the loaders in harness/ fill a gb_grid.
 */
#ifndef GB_GRID_H
#define GB_GRID_H

#include <stddef.h>
#include <stdint.h>

/* Largest padded cell count we accept: ids must fit in int32_t. */
#define GB_GRID_MAX_CELLS ((int64_t)INT32_MAX)

/* sqrt(2) correctly rounded to double. */
#define GB_SQRT2 1.4142135623730951

typedef enum gb_model {
    GB_MODEL_8_NOCUT = 0,
    GB_MODEL_8_CUT1,
    GB_MODEL_8_CUTALL,
    GB_MODEL_4,
    GB_MODEL_8_NOCUT_WATER,
    GB_MODEL_COUNT
} gb_model;

enum { GB_DIR_N, GB_DIR_E, GB_DIR_S, GB_DIR_W,
       GB_DIR_NE, GB_DIR_SE, GB_DIR_SW, GB_DIR_NW };

/* dx, dy of direction k; diagonals are k >= 4. */
extern const int8_t gb_dir_dx[8];
extern const int8_t gb_dir_dy[8];
/* Cost of direction k: 1 for k < 4, GB_SQRT2 for k >= 4. */
extern const double gb_dir_cost[8];

typedef struct gb_grid {
    int32_t width;    /* map columns (without padding) */
    int32_t height;   /* map rows (without padding) */
    int32_t stride;   /* width + 2 */
    int32_t ncells;   /* stride * (height + 2): length of pass[] */
    int32_t npassable;/* number of passable map cells */
    uint8_t *pass;    /* 1 = passable map cell, 0 = blocked or border */
    int32_t off[8];   /* id offset of direction k: dy * stride + dx */
    uint16_t *cost;   /* NULL: uniform; else per-cell terrain cost (gb_terrain.h),
                         0 exactly where pass is 0 */
    int32_t cscale;   /* cost: cost units per unit of path cost (4 den), else 0 */
    int32_t qmin, qmax; /* cost: least and largest cost[] of a passable cell */
    uint8_t *water;     /* NULL, or per cell 1 for a W cell made passable by
                         gb_grid_water() (the water rule's class), else 0 */
} gb_grid;

/* Allocate an all-blocked grid of width x height.  Returns 0, or -1 when
 * the size is not positive or the padded size exceeds GB_GRID_MAX_CELLS
 * (errno = EOVERFLOW) or memory is short (errno = ENOMEM); on failure
 * *g is left zeroed and nothing is allocated. */
int gb_grid_init(gb_grid *g, int32_t width, int32_t height);

/* Release the cell array (and cost[]); *g is zeroed.  Safe on a zeroed grid. */
void gb_grid_free(gb_grid *g);

/* Deep copy of src into dst (dst must not own memory).  0 or -1 (ENOMEM). */
int gb_grid_copy(gb_grid *dst, const gb_grid *src);

/* Recount npassable after the caller changed pass[] directly. */
void gb_grid_recount(gb_grid *g);

static inline int32_t gb_grid_id(const gb_grid *g, int32_t x, int32_t y)
{
    return (y + 1) * g->stride + (x + 1);
}
static inline int32_t gb_grid_x(const gb_grid *g, int32_t id) { return id % g->stride - 1; }
static inline int32_t gb_grid_y(const gb_grid *g, int32_t id) { return id / g->stride - 1; }

/* Passable test for map coordinates; anything outside the map is blocked. */
static inline int gb_grid_passable_xy(const gb_grid *g, int32_t x, int32_t y)
{
    if (x < 0 || y < 0 || x >= g->width || y >= g->height) return 0;
    return g->pass[gb_grid_id(g, x, y)];
}

/* A grid with terrain costs: the integer units of 1/cscale of move k from
 * cell id (gb_terrain.h's mean rule): 2 (q(id) + q(nb)) for a straight
 * step, q(id) + q(nb) + the two corners' q for a diagonal one (whose cost
 * is that times sqrt2).  The move must be legal under 8-nocut or 4. */
static inline uint32_t gb_grid_units(const gb_grid *g, int32_t id, int k)
{
    const uint16_t *c = g->cost;
    const int32_t nb = id + g->off[k];
    if (k < 4) return 2u * ((uint32_t)c[id] + c[nb]);
    return (uint32_t)c[id] + c[nb] + c[id + gb_dir_dx[k]] + c[id + gb_dir_dy[k] * g->stride];
}

/* Fill moves[0..ncells) with the legal-move mask of every cell under
 * model m (bit k set = direction k legal; 0 for blocked and border
 * cells).  moves must hold g->ncells bytes. */
void gb_grid_moves(const gb_grid *g, gb_model m, uint8_t *moves);

/* Dynamic maps.  A cell's move mask depends only on the cells within
 * one step of it (its 3x3 block), so flipping cell c changes the masks of
 * c's 3x3 block and nothing else, and changes exactly the edges whose two
 * ends lie in that block.  To change a map: gb_grid_set() the cell, then
 * gb_grid_moves_around() every moves[] array kept for the grid.
 *
 * gb_grid_set: make map cell id passable (passable != 0) or blocked and
 * keep npassable right.  Returns 1 when the cell changed, 0 when it
 * already was so, -1 (nothing done) when id is not a map cell or the grid
 * has terrain costs (a freed cell would need a cost: gb_grid_set_cost).
 * Time complexity: O(1). */
int gb_grid_set(gb_grid *g, int32_t id, int passable);

/* gb_grid_set_cost: the same on a grid with terrain costs: make map cell
 * id passable with cost q (units of 1/den, as cost[]) or blocked (q = 0),
 * keeping npassable and "cost 0 exactly where pass is 0" right.  q must
 * lie in [qmin, qmax], which the searches' heuristics and exact-key bounds
 * were sized for (widen them before any search is prepared when changes
 * may bring other costs).  Returns 1 when the cell changed (passability
 * or cost), 0 when it already was so, -1 (nothing done) when id is not a
 * map cell, the grid has no cost[] or q is outside [qmin, qmax].
 * Time complexity: O(1). */
int gb_grid_set_cost(gb_grid *g, int32_t id, uint16_t q);

/* Recompute the legal-move masks of the 3x3 block centred on map cell id
 * (id must be a map cell: its neighbours are then valid ids) from the
 * current pass[], as gb_grid_moves() would.  Time complexity: O(1). */
void gb_grid_moves_around(const gb_grid *g, gb_model m, uint8_t *moves, int32_t id);

/* The water rule (GB_MODEL_8_NOCUT_WATER): make the W cells of the map,
 * whose W x H letters are chars (row-major, the loader's terrain[]),
 * passable and mark them in water[], keeping npassable right.  0, or -1
 * with errno = ENOMEM (g then unchanged).  Call it only for that model:
 * under the others W stays blocked, as Moving AI's maps define it. */
int gb_grid_water(gb_grid *g, const char *chars);

/* Model names for the CLI and CSV ("8-nocut", "8-cut1", "8-cutall", "4",
 * "8-nocut-water").
 * gb_model_from_name returns -1 for an unknown name. */
const char *gb_model_name(gb_model m);
int gb_model_from_name(const char *name);
/* One-line human description of a model. */
const char *gb_model_desc(gb_model m);

#endif
