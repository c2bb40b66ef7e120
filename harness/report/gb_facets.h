/*
 * gb_facets.h -- the plot data that the faceted and derived plots read,
 * derived from a summary and the files gb_summary_write_plot_data wrote
 * (maps.tsv, bucket-SLUG.tsv, speedup.tsv, cactus.tsv), into the same
 * folder:
 *
 *   panels-SLUG.gp   per map: gnuplot assignments that split the solvers of
 *                    bucket-SLUG.tsv into panels of at most 5 by family
 *                    (Dijkstra, A* and bidirectional; bounded and greedy;
 *                    jump points and subgoal graphs, whose expansions are
 *                    not cells; others): np (panels); per panel pI (block
 *                    indices), tI (title), fI (1: not cells); ref
 *                    (dijkstra's block, -1 if none; dijkstra is drawn in
 *                    every panel, not a member)
 *   panels-cactus.gp the same for the blocks of cactus.tsv
 *   speedup-g.tsv    speedup.tsv plus a column gclass: the solver's
 *                    guarantee (1 optimal, 2 bounded, 3 none, 0 unknown)
 *   speedup-maps.gp  mI = 'name of map I': the panel titles of speedup.gp
 *   queues-SLUG.tsv  per map, the solvers that ran on two or more queues
 *                    there: header "solver" then per queue Q: Q, Q_lo,
 *                    Q_hi; per solver its median time on Q / its median on
 *                    its reference queue (bheap, else its first queue), and
 *                    the 95 % interval of the median divided by the same;
 *                    NaN when not run on Q (empty file: no such solver)
 *   tradeoff.tsv     from the per-query CSV: per query of every solver
 *                    without the optimality guarantee on the reference queue
 *                    (or its family's only queue: own-heap, fifo, none),
 *                    map, solver, subopt, and the speedup over dijkstra on
 *                    bheap on the same query; `ok` rows only
 * Solvers and queues come in the order of their first appearance in the
 * summary.  These were scripts/plot-data.pl and scripts/tradeoff-data.awk,
 * whose files these are byte for byte.
 */
#ifndef GB_FACETS_H
#define GB_FACETS_H

#include "gb_diag.h"
#include "gb_summary.h"

/* Write the files above into dir (each through a temp file and a rename).
 * queries: the per-query CSV s was loaded from (NULL: no tradeoff.tsv).
 * 0, or a sysexits code with *d filled. */
int gb_facets_write(const gb_summary *s, const char *queries, const char *dir, gb_diag *d);

#endif
