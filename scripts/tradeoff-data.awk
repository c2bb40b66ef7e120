# tradeoff-data.awk -- from a `gridbench run` CSV, one line per query of
# every solver without the optimality guarantee (bounded, none; any-angle
# rows included): map, solver, cost / Dijkstra's optimum (subopt), and the
# speed-up over `dijkstra` on `bheap` on the same query (its time_ns / the
# row's).  Only `ok` rows; one queue per solver: the reference queue
# (-v ref=Q), or the queue column of a family that has no choice of queue
# (own-heap, fifo, none).  Queries without a dijkstra/bheap row are left
# out.  Output: tab-separated, for plots/hpa_tradeoff.gp.  Input: the
# run's columns as scripts/csv-cut.pl prints them (tab-separated, header
# first; any order), so a comma in a map name cannot shift a column:
#
#   scripts/csv-cut.pl queries.csv status scen line solver queue guarantee \
#       subopt time_ns map | awk -F'\t' -v ref=bheap -f scripts/tradeoff-data.awk
BEGIN { OFS = "\t" }
NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
$(col["status"]) != "ok" { next }
{ key = $(col["scen"]) SUBSEP $(col["line"]); s = $(col["solver"]); q = $(col["queue"])
  if (s == "dijkstra" && q == "bheap") { td[key] = $(col["time_ns"]); next }
  if ($(col["guarantee"]) == "optimal" || $(col["subopt"]) == "") next
  if (q != ref && q != "own-heap" && q != "fifo" && q != "none") next   # one queue per solver
  n++; m[n] = $(col["map"]); sv[n] = s; so[n] = $(col["subopt"]); th[n] = $(col["time_ns"]); k[n] = key }
END { for (i = 1; i <= n; i++) if (k[i] in td && th[i] > 0) print m[i], sv[i], so[i], td[k[i]] / th[i] }
