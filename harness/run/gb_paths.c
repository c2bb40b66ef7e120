/*
 * gb_paths.c -- write the paths file of `run --paths` (format: gb_paths.h).
 */
#include "gb_paths.h"

#include <string.h>

#include "gb_csv.h"

const char *gb_paths_header(void) { return "scen,line,solver,queue,cost_model,cells,waypoints"; }

/* Are the steps a -> b and b -> c the same unit step? */
static int same_unit_step(gb_xy a, gb_xy b, gb_xy c)
{
    int32_t dx = b.x - a.x, dy = b.y - a.y;
    return dx == c.x - b.x && dy == c.y - b.y && dx >= -1 && dx <= 1 && dy >= -1 && dy <= 1;
}

void gb_paths_write(FILE *out, const char *scen, long line, const char *solver, const char *queue,
                    const char *cost_model, const gb_xy *xy, int32_t n)
{
    gb_csv_write_str(out, scen);
    fprintf(out, ",%ld,", line);
    gb_csv_write_str(out, solver);
    fprintf(out, ",%s,%s,%ld,", queue, cost_model, (long)n);
    const int grid = strcmp(cost_model, "grid") == 0;
    for (int32_t i = 0; i < n; i++) {
        /* a grid path's cell i is a waypoint unless the steps into it and
         * out of it are the same unit step (so an illegal jump, or a
         * repeated cell, always shows) */
        if (grid && i > 0 && i + 1 < n && same_unit_step(xy[i - 1], xy[i], xy[i + 1])) continue;
        fprintf(out, i ? " %d:%d" : "%d:%d", (int)xy[i].x, (int)xy[i].y);
    }
    fputc('\n', out);
}
