# speedup.gp -- per-query speedup over Dijkstra (time of dijkstra on bheap
# / time of the solver, same query), one box per solver and map: box from
# the 25th to the 75th percentile, whiskers 5th..95th, bar at the median.
# Log scale: 2 and 0.5 are equally far from 1.
#
# Parameters (gnuplot -e "name='value'; ..." speedup.gp):
#   data   speedup.tsv from `gridbench summary --plot-data` (one block per
#          map; columns: solver index, solver, n, p5, p25, p50, p75, p95)
#   out    output file; .svg -> svg terminal, anything else -> pngcairo
#   queue  the queue the solvers ran on, for the title (default: none)
if (!exists("data") || !exists("out")) { print "speedup.gp: set data and out"; exit status 64 }
if (!exists("queue")) queue = ""
load (exists("plotdir") ? plotdir : "plots")."/style.gp"
eval term_for(out, 1000, 600)

set datafile separator "\t"
set datafile missing "NaN"
stats data using 1 nooutput
nblocks = STATS_blocks
nsolv = STATS_max + 1
bw = 0.8 / nblocks                      # box width: the maps share 0.8 of a slot
off(i) = (i - (nblocks - 1) / 2.0) * bw # centre of map i's box within a slot

set title sprintf("Speedup over Dijkstra per query (dijkstra on bheap = 1)%s", \
    queue ne "" ? "  -- solvers on queue ".queue : "")
set ylabel "speedup (Dijkstra time / solver time, log scale)"
set xlabel "solver (box: 25th-75th percentile, whiskers: 5th-95th, bar: median)"
set logscale y
set format y "%g"
set xrange [-0.6:nsolv - 0.4]
set xtics rotate by 30 right nomirror scale 0
set grid ytics mytics lc rgb "#dddddd"
set boxwidth bw absolute
set style fill solid 0.35 border
set key outside right top vertical Left reverse noenhanced title "map" box lc rgb "#bbbbbb"
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead lc rgb "#333333" dt 2 lw 1.5
plot data index 0 using 1:(1):xtic(2) with points ps 0 lc rgb "#ffffff" notitle, \
     for [i=0:nblocks-1] data index i using ($1 + off(i)):5:4:8:7 \
         with candlesticks whiskerbars 0.5 ls (i+1) title columnheader(1), \
     for [i=0:nblocks-1] data index i using ($1 + off(i)):6:6:6:6 \
         with candlesticks ls (i+1) lw 3 notitle
