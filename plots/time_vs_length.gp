# time_vs_length.gp -- median search time per path-length bucket, one line
# per solver, logarithmic time axis.
#
# Parameters (gnuplot -e "name='value'; ..." time_vs_length.gp):
#   data   bucket-MAP.tsv from `gridbench summary --plot-data` (one block
#          per solver; columns bucket n len_mean time_median_us time_p25_us
#          time_p75_us expanded_mean expanded_median)
#   out    output file; .svg -> svg terminal, anything else -> pngcairo
#   map    map name for the title (default: none)
#   queue  the queue the solvers ran on, for the title (default: none)
if (!exists("data") || !exists("out")) { print "time_vs_length.gp: set data and out"; exit status 64 }
if (!exists("map")) map = ""
if (!exists("queue")) queue = ""
load (exists("plotdir") ? plotdir : "plots")."/style.gp"
eval term_for(out, 1000, 600)

set datafile separator "\t"
set datafile missing "NaN"
stats data using (0) nooutput
nblocks = STATS_blocks

set title sprintf("Median search time by path length%s%s", \
    map ne "" ? " -- ".map : "", queue ne "" ? "  (queue ".queue.")" : "")
set xlabel "optimal path length (mean of each scenario bucket; a straight step costs 1)"
set ylabel "median time per query (µs, log scale)"
set logscale y
set format y "%g"
set grid xtics ytics mytics lc rgb "#dddddd"
set key outside right top vertical Left reverse noenhanced title "solver" box lc rgb "#bbbbbb"
plot for [i=0:nblocks-1] data index i using 3:4 with linespoints ls (i+1) title columnheader(1)
