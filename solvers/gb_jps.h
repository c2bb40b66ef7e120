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
    if (din == 8) return 0xffu;
    if (din >= 4) {
        int kh = gb_dir_dx[din] > 0 ? GB_DIR_E : GB_DIR_W;
        int kv = gb_dir_dy[din] > 0 ? GB_DIR_S : GB_DIR_N;
        return (1u << din) | (1u << kh) | (1u << kv);
    }
    const uint8_t *pass = g->pass;
    const int32_t *off = g->off;
    unsigned d = 1u << din;
    for (int side = 1; side <= 3; side += 2) {
        int kl = (din + side) & 3;
        if (!pass[id - off[din] + off[kl]] && pass[id + off[kl]])
            d |= (1u << kl) | (1u << gb_jps_diag_of(din, kl));
    }
    return d;
}

#endif
