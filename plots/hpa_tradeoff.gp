# hpa_tradeoff.gp -- HPA*'s trade per map: box plots of the per-query
# suboptimality (cost / Dijkstra's optimum, left) and of the per-query
# speed-up over A* (time of astar-octile / time of hpa on the same query,
# right, log scale), one box per (map, solver).  Boxes from the 25th to
# the 75th percentile, whiskers to 1.5 IQR, outliers as points.  Each box
# is labelled "solver  map" (without .map), written upwards below it so
# that no label runs past the plot's edge; the speed-up axis is a log
# axis with ticks at powers of 10 printed plainly (0.01, 1, 1000).
#
# Parameters (gnuplot -e "name='value'; ..." hpa_tradeoff.gp):
#   data   tradeoff.tsv of scripts/hpa-tradeoff.sh (map, solver, subopt, speedup)
#   out    output file; .svg -> svg terminal, anything else -> pngcairo
#   title  (optional) the figure's title (default: HPA*'s)
#   vs     (optional) the reference solver of the speed-up (default astar-octile)
if (!exists("data") || !exists("out")) { print "hpa_tradeoff.gp: set data and out"; exit status 64 }
load (exists("plotdir") ? plotdir : "plots")."/style.gp"
eval term_for(out, 1200, 760)
set datafile separator "\t"
set datafile commentschars ""   # a map may be named "#..."; the data has no comments
set style data boxplot
set style boxplot outliers pointtype 7
set pointsize 0.3
set style fill solid 0.35 border -1
set xtics rotate by 90 right nomirror font ",10"
# the box label: "solver  map", the map without its .map
nomap(m) = (strlen(m) > 4 && m[strlen(m)-3:] eq ".map") ? m[1:strlen(m)-4] : m
lab(m, s) = s."  ".nomap(m)
set key off
set grid ytics lc rgb "#dddddd"
if (!exists("title")) { title = "HPA*: suboptimality against speed-up over A*, per map" }
if (!exists("vs")) { vs = "astar-octile" }
set multiplot layout 1,2 title title noenhanced
set title "suboptimality (cost / optimum)"
plot data using (1):3:(0.5):(lab(strcol(1), strcol(2))) ls 1
set title "speed-up over ".vs." (per query)" noenhanced
set logscale y 10
set format y "%g"
set ytics 10
plot data using (1):4:(0.5):(lab(strcol(1), strcol(2))) ls 2, 1 with lines lc rgb "#888888" dt 2
unset multiplot
