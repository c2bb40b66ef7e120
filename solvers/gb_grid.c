/*
 * gb_grid.c -- padded grid allocation and per-model legal-move masks.
 * See gb_grid.h for the layout and its invariants.
 */
#include "gb_grid.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "gb_alloc.h"

const int8_t gb_dir_dx[8] = { 0, 1, 0, -1, 1, 1, -1, -1 };
const int8_t gb_dir_dy[8] = { -1, 0, 1, 0, -1, 1, 1, -1 };
const double gb_dir_cost[8] = { 1, 1, 1, 1, GB_SQRT2, GB_SQRT2, GB_SQRT2, GB_SQRT2 };

static const char *const model_names[GB_MODEL_COUNT] = { "8-nocut", "8-cut1", "8-cutall", "4",
                                                         "8-nocut-water" };
static const char *const model_descs[GB_MODEL_COUNT] = {
    "8-connected, diagonal sqrt2, no corner cutting (Moving AI default)",
    "8-connected, diagonal sqrt2, may cut past one blocked corner",
    "8-connected, diagonal sqrt2, diagonal needs only the target free",
    "4-connected, unit cost",
    "8-nocut, and water W passable from W only (HOG2's rule)",
};

static void set_offsets(gb_grid *g)
{
    for (int k = 0; k < 8; k++)
        g->off[k] = gb_dir_dy[k] * g->stride + gb_dir_dx[k];
}

int gb_grid_init(gb_grid *g, int32_t width, int32_t height)
{
    memset(g, 0, sizeof *g);
    if (width <= 0 || height <= 0) { errno = EINVAL; return -1; }
    int64_t n = ((int64_t)width + 2) * ((int64_t)height + 2);
    if (n > GB_GRID_MAX_CELLS) { errno = EOVERFLOW; return -1; }
    uint8_t *p = gb_calloc((size_t)n, 1);
    if (!p) { errno = ENOMEM; return -1; }
    g->width = width;
    g->height = height;
    g->stride = width + 2;
    g->ncells = (int32_t)n;
    g->pass = p;
    set_offsets(g);
    return 0;
}

void gb_grid_free(gb_grid *g)
{
    gb_free(g->pass);
    gb_free(g->cost);
    gb_free(g->water);
    memset(g, 0, sizeof *g);
}

int gb_grid_copy(gb_grid *dst, const gb_grid *src)
{
    if (gb_grid_init(dst, src->width, src->height) != 0) return -1;
    memcpy(dst->pass, src->pass, (size_t)src->ncells);
    dst->npassable = src->npassable;
    if (src->cost) {
        dst->cost = gb_malloc((size_t)src->ncells * sizeof *dst->cost);
        if (!dst->cost) { gb_grid_free(dst); errno = ENOMEM; return -1; }
        memcpy(dst->cost, src->cost, (size_t)src->ncells * sizeof *dst->cost);
        dst->cscale = src->cscale;
        dst->qmin = src->qmin;
        dst->qmax = src->qmax;
    }
    if (src->water) {
        dst->water = gb_malloc((size_t)src->ncells);
        if (!dst->water) {
            gb_grid_free(dst);
            errno = ENOMEM;
            return -1;
        }
        memcpy(dst->water, src->water, (size_t)src->ncells);
    }
    return 0;
}

void gb_grid_recount(gb_grid *g)
{
    int32_t n = 0;
    for (int32_t i = 0; i < g->ncells; i++) n += g->pass[i];
    g->npassable = n;
}

/* Legal-move mask of cell id under the water rule: 8-nocut within the
 * cell's class (ground or water, gb_grid.h). */
static unsigned water_mask(const gb_grid *g, int32_t id)
{
    const uint8_t *p = g->pass, *w = g->water;
    const uint8_t c = w[id];
    unsigned mask = 0;
    for (int k = 0; k < 4; k++) {
        int32_t n = id + g->off[k];
        if (p[n] && w[n] == c) mask |= 1u << k;
    }
    for (int k = 4; k < 8; k++) {
        int32_t n = id + g->off[k], hx = id + gb_dir_dx[k], vy = id + gb_dir_dy[k] * g->stride;
        if (p[n] && w[n] == c && p[hx] && w[hx] == c && p[vy] && w[vy] == c) mask |= 1u << k;
    }
    return mask;
}

/* Legal-move mask of cell id under model m (0 for a blocked cell). */
static unsigned cell_mask(const gb_grid *g, gb_model m, int32_t id)
{
    const uint8_t *p = g->pass;
    if (!p[id]) return 0;
    if (m == GB_MODEL_8_NOCUT_WATER) {
        if (g->water) return water_mask(g, id);
        m = GB_MODEL_8_NOCUT; /* no water recorded: no W passable */
    }
    unsigned mask = 0;
    for (int k = 0; k < 4; k++)
        if (p[id + g->off[k]]) mask |= 1u << k;
    if (m != GB_MODEL_4) {
        for (int k = 4; k < 8; k++) {
            if (!p[id + g->off[k]]) continue;
            int ox = p[id + gb_dir_dx[k]];                 /* horizontal side */
            int oy = p[id + gb_dir_dy[k] * g->stride];     /* vertical side */
            int ok = m == GB_MODEL_8_NOCUT ? (ox && oy)
                   : m == GB_MODEL_8_CUT1  ? (ox || oy)
                   : 1;
            if (ok) mask |= 1u << k;
        }
    }
    return mask;
}

void gb_grid_moves(const gb_grid *g, gb_model m, uint8_t *moves)
{
    memset(moves, 0, (size_t)g->ncells);
    for (int32_t y = 0; y < g->height; y++)
        for (int32_t x = 0; x < g->width; x++) {
            int32_t id = gb_grid_id(g, x, y);
            moves[id] = (uint8_t)cell_mask(g, m, id);
        }
}

void gb_grid_moves_around(const gb_grid *g, gb_model m, uint8_t *moves, int32_t id)
{
    for (int32_t dy = -1; dy <= 1; dy++)
        for (int32_t dx = -1; dx <= 1; dx++) {
            int32_t n = id + dy * g->stride + dx;
            int32_t x = gb_grid_x(g, n), y = gb_grid_y(g, n);
            /* border cells keep mask 0 (their pass is 0 anyway) */
            moves[n] = x >= 0 && y >= 0 && x < g->width && y < g->height
                     ? (uint8_t)cell_mask(g, m, n) : 0;
        }
}

int gb_grid_set(gb_grid *g, int32_t id, int passable)
{
    int32_t x = gb_grid_x(g, id), y = gb_grid_y(g, id);
    if (g->cost) return -1;   /* weighted grids are not dynamic (gb_grid.h) */
    if (id < 0 || id >= g->ncells || x < 0 || y < 0 || x >= g->width || y >= g->height)
        return -1;
    uint8_t v = passable ? 1 : 0;
    if (g->pass[id] == v) return 0;
    g->pass[id] = v;
    g->npassable += v ? 1 : -1;
    return 1;
}

int gb_grid_water(gb_grid *g, const char *chars)
{
    uint8_t *w = gb_calloc((size_t)g->ncells, 1);
    if (!w) {
        errno = ENOMEM;
        return -1;
    }
    for (int32_t y = 0; y < g->height; y++)
        for (int32_t x = 0; x < g->width; x++)
            if (chars[(size_t)y * (size_t)g->width + (size_t)x] == 'W') {
                int32_t id = gb_grid_id(g, x, y);
                w[id] = 1;
                if (!g->pass[id]) {
                    g->pass[id] = 1;
                    g->npassable++;
                }
            }
    gb_free(g->water);
    g->water = w;
    return 0;
}

int gb_grid_set_cost(gb_grid *g, int32_t id, uint16_t q)
{
    if (!g->cost || id < 0 || id >= g->ncells) return -1;
    int32_t x = gb_grid_x(g, id), y = gb_grid_y(g, id);
    if (x < 0 || y < 0 || x >= g->width || y >= g->height) return -1;
    if (q && (q < g->qmin || q > g->qmax)) return -1;
    uint8_t v = q ? 1 : 0;
    if (g->pass[id] == v && g->cost[id] == q) return 0;
    if (g->pass[id] != v) g->npassable += v ? 1 : -1;
    g->pass[id] = v;
    g->cost[id] = q;
    return 1;
}

const char *gb_model_name(gb_model m)
{
    return (unsigned)m < GB_MODEL_COUNT ? model_names[m] : "?";
}

const char *gb_model_desc(gb_model m)
{
    return (unsigned)m < GB_MODEL_COUNT ? model_descs[m] : "?";
}

int gb_model_from_name(const char *name)
{
    for (int m = 0; m < GB_MODEL_COUNT; m++)
        if (strcmp(name, model_names[m]) == 0) return m;
    return -1;
}
