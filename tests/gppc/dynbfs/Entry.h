/*
 * Entry.h -- the C API of GPPC's dynamic track (startkit-dynamic), as
 * gridbench's own test entry declares it: gridbench's `gppc build` sees
 * gppc_map_change here and builds the folder with its dynamic driver.
 *
 * Maps and patches are bit arrays, row by row, bit i = y * width + x in
 * byte i / 8 at bit i % 8, 1 = traversable.  active_map (given to
 * gppc_search_init) stays valid until the data is freed, and the runner
 * writes every patch into it before it calls gppc_map_change.
 * gppc_get_path is called until it returns incomplete = 0; the parts are
 * concatenated; length 0 with incomplete 0 means "no path".
 */
#ifndef DYNBFS_ENTRY_H
#define DYNBFS_ENTRY_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct gppc_point {
    uint16_t x, y;
};

struct gppc_path {
    const struct gppc_point *path;   /* length points, owned by the entry */
    uint32_t length;
    uint8_t incomplete;              /* 1: call again for the rest */
};

struct gppc_patch {
    const uint8_t *bitarray;         /* width * height bits */
    uint16_t width, height;
    struct gppc_point pos;           /* where its top-left cell goes */
};

void gppc_preprocess_init_map(struct gppc_patch init_map, const char *preprocess_filename);
void *gppc_search_init(struct gppc_patch active_map, const char *preprocess_filename);
void gppc_map_change(void *data, const struct gppc_patch *changes, uint32_t changes_length);
struct gppc_path gppc_get_path(void *data, struct gppc_point start, struct gppc_point goal);
void gppc_free_data(void *data);
const char *gppc_get_name(void);

#ifdef __cplusplus
}
#endif

#endif
