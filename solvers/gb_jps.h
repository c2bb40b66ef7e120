/*
 * gb_jps.h -- the pruning rule of jump point search under the
 * no-corner-cutting model (Harabor & Grastien 2011, for 8-nocut), shared
 * by the online family (gb_jps.c) and the precomputed one (gb_jpsplus.c),
 * which therefore find the same jump points.
 *
 * Under no corner cutting a diagonal move has no forced neighbours (every
 * cell a diagonal step could reach "around" an obstacle is reached as
 * cheaply through the two orthogonal cells the move requires), and a
 * straight move in direction k from p to x has a forced neighbour on side
 * L (L perpendicular to k) iff the cell beside the PARENT p on side L is
 * blocked and the cell beside x on side L is free: then the moves L and
 * k+L from x are forced.
 */
#ifndef GB_JPS_H
#define GB_JPS_H

#include <stdint.h>

#include "gb_grid.h"

/* The diagonal direction whose components are straight directions a, b. */
static inline int gb_jps_diag_of(int a, int b)
{
    int dx = gb_dir_dx[a] + gb_dir_dx[b], dy = gb_dir_dy[a] + gb_dir_dy[b];
    for (int k = 4; k < 8; k++)
        if (gb_dir_dx[k] == dx && gb_dir_dy[k] == dy) return k;
    return -1;
}

/* Nonzero when the straight step into cell id in direction k (0..3)
 * gives id a forced neighbour (see above). */
static inline int gb_jps_forced(const gb_grid *g, int32_t id, int k)
{
    const uint8_t *pass = g->pass;
    const int32_t *off = g->off;
    const int32_t l = off[(k + 1) & 3], r = off[(k + 3) & 3], back = id - off[k];
    return (!pass[back + l] && pass[id + l]) || (!pass[back + r] && pass[id + r]);
}

/* Directions to jump in from node id that was reached by direction din
 * (8 = the start node: all directions): the natural directions (k for a
 * straight din; din and its two components for a diagonal) and the
 * forced ones. */
static inline unsigned gb_jps_dirs(const gb_grid *g, int32_t id, int din)
{
    /* natural[din]: din itself, with a diagonal's two components; the
     * start (8): all.  forced[din][i]: side L = (din + 1 + 2i) & 3 and the
     * diagonal between din and L (gb_jps_diag_of), as bits. */
    static const uint8_t natural[9] = { 0x01, 0x02, 0x04, 0x08, 0x13, 0x26, 0x4c, 0x89, 0xff };
    static const uint8_t forced[4][2] = { { 0x12, 0x88 }, { 0x24, 0x11 },
                                          { 0x48, 0x22 }, { 0x81, 0x44 } };
    if (din >= 4) return natural[din];
    const uint8_t *pass = g->pass;
    const int32_t *off = g->off;
    const int32_t back = id - off[din], l = off[(din + 1) & 3], r = off[(din + 3) & 3];
    unsigned d = natural[din];
    if (!pass[back + l] && pass[id + l]) d |= forced[din][0];
    if (!pass[back + r] && pass[id + r]) d |= forced[din][1];
    return d;
}

#endif
