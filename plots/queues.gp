# queues.gp -- priority queues compared on one map: for every solver that
# ran on several queues there, the median time per query on each queue
# divided by the solver's median time on the reference queue, as grouped
# bars (one group per solver, one bar per queue), each with the 95 %
# interval of its median (bootstrap, from summary.csv) divided by the
# same.  Bars whose intervals overlap are a tie: do not read a winner
# into them.  Below 1 = faster than the reference queue.
#
# Parameters (gnuplot -e "name='value'; ..." queues.gp):
#   data   queues-MAP.tsv from scripts/plot-data.pl (header row: solver,
#          then Q, Q_lo, Q_hi per queue; one row per solver; NaN = not run)
#   out    output file; .svg -> svg terminal, anything else -> pngcairo
#   queue  the reference queue, for the title and the y label
#   map    map name for the title (default: none)
if (!exists("data") || !exists("out")) { print "queues.gp: set data and out"; exit status 64 }
if (!exists("queue")) queue = "reference queue"
if (!exists("map")) map = ""
load (exists("plotdir") ? plotdir : "plots")."/style.gp"

set datafile separator "\t"
set datafile missing "NaN"
stats data using (0) nooutput
nq = (STATS_columns - 1) / 3
nrow = STATS_records
eval term_for(out, nrow > 8 ? 1300 : 1100, 600)

set title sprintf("Priority queues compared%s: median time relative to %s, with 95 %% intervals", \
    map ne "" ? " on ".map : "", queue)
set ylabel sprintf("median time / median time on %s", queue)
set xlabel "solver (error bar: 95 % bootstrap interval of the median; overlapping bars are a tie)"
set style data histogram
set style histogram errorbars gap 1.5 lw 1
set style fill solid 0.7 border lc rgb "#333333"
set boxwidth 0.95
set yrange [0:*]
set xtics rotate by 30 right nomirror scale 0
set grid ytics lc rgb "#dddddd"
set key outside right top vertical Left reverse noenhanced title "queue" box lc rgb "#bbbbbb"
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead front lc rgb "#333333" dt 2 lw 1.5
plot for [k=0:nq-1] data using (column(2 + 3 * k)):(column(3 + 3 * k)):(column(4 + 3 * k)):xtic(1) \
    ls (k + 1) title columnheader(2 + 3 * k)
