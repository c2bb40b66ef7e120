/*
 * gb_los.c -- any-angle path length and greedy post-smoothing (see
 * gb_los.h for the line-of-sight rule and the walk).
 *
 * Smoothing keeps an anchor (the last waypoint written) and scans the
 * input once: p[k] is dropped when the anchor sees p[k+1].  It writes
 * into the same array it reads: waypoint m is written only when the scan
 * is at k >= m, and the scan reads p[k] and p[k+1] only, so nothing is
 * read after it was overwritten.
 *
 * Time complexity: one line-of-sight walk per input cell, each O(length
 * of the segment from the anchor): O(n * L) for L the longest segment.
 */
#include "gb_los.h"

double gb_los_path_length(const gb_grid *g, const int32_t *p, int32_t n)
{
    double len = 0.0;
    for (int32_t i = 0; i + 1 < n; i++) len += gb_los_dist(g, p[i], p[i + 1]);
    return len;
}

int32_t gb_los_smooth(const gb_grid *g, int32_t *p, int32_t n, int gppc, double *length)
{
    if (n > 2) {
        int32_t m = 1, anchor = p[0];
        for (int32_t k = 1; k + 1 < n; k++) {
            if (gppc ? gb_los_gppc(g, anchor, p[k + 1], NULL) : gb_los(g, anchor, p[k + 1], NULL))
                continue;
            anchor = p[k];
            p[m++] = anchor;
        }
        p[m++] = p[n - 1];
        n = m;
    }
    *length = gb_los_path_length(g, p, n);
    return n;
}
