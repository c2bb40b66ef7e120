# queues.gp -- queue comparison: for every solver that ran on several
# priority queues, the median over queries of time(queue) / time(reference
# queue), same solver and same query, as grouped bars (one group per
# solver, one bar per queue).  Below 1 = faster than the reference queue.
#
# Parameters (gnuplot -e "name='value'; ..." queues.gp):
#   data   queues.tsv from `gridbench summary --plot-data` (header row:
#          solver and the queue names; one row per solver; NaN = not run)
#   out    output file; .svg -> svg terminal, anything else -> pngcairo
#   queue  the reference queue, for the title and the y label
if (!exists("data") || !exists("out")) { print "queues.gp: set data and out"; exit status 64 }
if (!exists("queue")) queue = "reference queue"
load (exists("plotdir") ? plotdir : "plots")."/style.gp"
eval term_for(out, 1100, 600)

set datafile separator "\t"
set datafile missing "NaN"
stats data using (0) nooutput
ncols = STATS_columns

set title sprintf("Priority queues compared per solver: median time relative to %s (same query)", queue)
set ylabel sprintf("time / time on %s (median over queries)", queue)
set xlabel "solver"
set style data histogram
set style histogram clustered gap 1.5
set style fill solid 0.8 border lc rgb "#333333"
set boxwidth 0.95
set yrange [0:*]
set xtics rotate by 30 right nomirror scale 0
set grid ytics lc rgb "#dddddd"
set key outside right top vertical Left reverse noenhanced title "queue" box lc rgb "#bbbbbb"
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead front lc rgb "#333333" dt 2 lw 1.5
plot for [c=2:ncols] data using c:xtic(1) ls (c-1) title columnheader(c)
