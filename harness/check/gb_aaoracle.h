/*
 * gb_aaoracle.h -- the exact any-angle optimum in the GPPC model
 * (gb_aagppc.h): A* over the visibility graph of the convex corners.
 *
 * Why it is exact.  A shortest path among polygonal obstacles is a
 * polyline whose inner vertices are reflex vertices of the free space,
 * where the path wraps around an obstacle (a taut string).  On a grid the
 * free space's reflex vertices are the CONVEX CORNERS: lattice points
 * with exactly one blocked cell around them (a 270-degree free wedge).
 * Corners with two adjacent blocked cells are flat (180 degrees), with
 * three concave (90), and a double corner is two 90-degree wedges, one
 * per free side: none of them can be a bend of a shortest path.  So the
 * graph whose nodes are the convex corners plus start and goal, with an
 * edge for each legal segment (gb_aagppc_segment, and V2 at a start or
 * goal on a double corner), costed by Euclidean length, has the optimum
 * as its shortest start-goal distance.  Two prunings keep it exact:
 *   - taut: at a convex corner, an inner vertex of a shortest path, both
 *     segments lie in the closed quadrants beside the blocked one (a
 *     segment into the opposite quadrant cannot wrap the corner); edges
 *     that break this at a convex end are skipped;
 *   - ellipse: given an upper bound U on the optimum (any legal path's
 *     cost, e.g. the 8-nocut grid optimum: every 8-nocut path read on
 *     corners is legal), a node w is only reached from u when
 *     g(u) + |uw| + |wt| <= U (1 + 1e-9).
 * The search is A* with the Euclidean heuristic (consistent on this
 * graph), lazy deletion, ties broken by larger g.
 *
 * Tolerance.  Costs are sums of square roots in double: the optimum is
 * exact up to the rounding of those sums (about n DBL_EPSILON relative
 * for n segments); two paths closer than that may be taken for one
 * another.  The tests compare with 1e-9 relative; the runner judges a
 * path below the optimum by 1e-12 relative plus the path's tolerance.
 *
 * Kept edges.  Which corners a corner sees, tautly at both ends, does not
 * depend on the query.  So each convex corner's list of them (every
 * other corner w with gb_aagppc_segment legal and the taut test passed
 * at both ends) is built the first time the corner is expanded, by a scan
 * of all corners, and kept for the map's lifetime; a query applies only
 * its own tests to the list (closed, ellipse, better g).  The relation is
 * symmetric, so a pair whose other end's list is built is looked up
 * there, not walked again.  The start's edges, which depend on it (V2),
 * come from the ellipse scan: the corners of the buckets that meet the
 * ellipse, each tested on the spot, and so are a corner's first
 * expansions: a list pays only for a corner expanded several times
 * (memo, GB_AAORACLE_AUTO).  With memo = 0 every node uses the ellipse
 * scan (the previous method, kept as the tests' reference).
 *
 * Layout.  Per map: the convex corners (points, blocked-quadrant bit),
 * sorted into square buckets of GB_AAORACLE_BUCKET cells for the ellipse
 * scan, and the kept-edge lists (one int32 array, an offset and length per
 * corner); per query: g, parent, stamp arrays over the nodes (stamp by
 * generation, never cleared), and a binary heap of (f, node).
 *
 * Time complexity: the build is O(cells); a corner's list costs one taut
 * test per corner and one O(length) segment check per pair that passes
 * it, once per map; then an expansion costs O(its list) plus one segment
 * check towards the goal.  The start's expansion: one distance test per
 * corner in the buckets that meet the ellipse, a segment check per
 * survivor.
 */
#ifndef GB_AAORACLE_H
#define GB_AAORACLE_H

#include <stdint.h>

#include "gb_grid.h"
#include "gb_validate.h"

#define GB_AAORACLE_BUCKET 16
/* memo's default: a corner's list is built once its expansions have cost
 * about what the build costs (rent or buy).  A build checks a segment to
 * every corner in view of the taut tests: on maze512-4-0 fewer than one
 * ellipse scan does, on random512-10-0 about six. */
#define GB_AAORACLE_AUTO (-1)

typedef struct gb_aaoracle {
    const gb_grid *g;     /* the map (not owned; must outlive the oracle) */
    int32_t nv;           /* convex corners; nodes nv and nv+1 are start and goal */
    gb_xy *v;             /* v[0..nv+2): the nodes' points, corners bucket by bucket */
    uint8_t *q;           /* q[0..nv): the blocked cell's mask bit (gb_aagppc_around) */
    int32_t bw, bh;       /* buckets per row, per column */
    int32_t *bstart;      /* bucket b holds corners bstart[b] .. bstart[b+1]-1 */
    double *gv;           /* per node: g of this generation */
    int32_t *parent;      /* per node: parent node, -1 at the start */
    uint32_t *stamp;      /* per node: 2 gen open, 2 gen + 1 closed, older: unseen */
    uint32_t gen;         /* the query's generation */
    double *hf;           /* heap: f keys */
    double *hg;           /* heap: g at push (ties: larger g first) */
    int32_t *hn;          /* heap: nodes */
    int64_t hcap, hlen;   /* heap capacity and size */
    int memo;             /* 1 .. 250: a corner's edges come from its kept-edge list
                             from its memo-th expansion on (the earlier ones
                             scan); 0: every node's edges from the ellipse scan;
                             GB_AAORACLE_AUTO (set by init): from the expansion
                             where the scans' measured cost reaches a build's */
    uint8_t *seen;        /* per corner: expansions so far, saturating at 250 */
    int64_t *adj_at;      /* per corner: its list's offset in adj, -1 until built */
    int32_t *adj_n;       /* per corner: its list's length */
    int32_t *adj;         /* the lists, each sorted by corner index */
    int64_t adj_len, adj_cap; /* entries in adj, and room */
    uint64_t expanded;    /* last query: nodes expanded */
    uint64_t checked;     /* last query: segments checked (gb_aagppc_segment calls) */
    uint64_t built;       /* since init: corners whose kept-edge list was built */
    uint64_t built_checked;       /* since init: segments checked to build them */
    uint64_t scans, scan_checked; /* since init: ellipse scans, their segment checks */
} gb_aaoracle;

/* Build the oracle of map g: find and bucket its convex corners and size
 * the search arrays.  0, or -1 with errno = ENOMEM (then *o is zeroed
 * and owns nothing).  g must stay alive and unchanged while o is used. */
int gb_aaoracle_init(gb_aaoracle *o, const gb_grid *g);

/* Release what o owns; *o is zeroed.  Safe on a zeroed oracle. */
void gb_aaoracle_free(gb_aaoracle *o);

/* The GPPC any-angle optimum from corner s to corner t (both the top-left
 * corners of passable cells), with upper a bound on it (INFINITY when none
 * is known; a bound below the optimum makes the answer "unreachable").
 * Returns 1 and the cost in *cost, and when path is not NULL writes the
 * waypoints s .. t into path[0..*n) (path must hold nv + 2 points);
 * returns 0 when no path exists within the bound; -1 with errno = ENOMEM
 * when the heap cannot grow.  Counters in o->expanded and o->checked. */
int gb_aaoracle_solve(gb_aaoracle *o, gb_xy s, gb_xy t, double upper, double *cost, gb_xy *path,
                      int32_t *n);

#endif
