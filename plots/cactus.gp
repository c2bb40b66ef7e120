# cactus.gp -- cactus plot: each solver's query times sorted ascending, so
# the point (k, t) reads "k queries were solved within t each".  Lower and
# further right is better; the lines never cross for a solver that is
# uniformly faster.  Queries of every map are pooled.
#
# Parameters (gnuplot -e "name='value'; ..." cactus.gp):
#   data   cactus.tsv from `gridbench summary --plot-data` (one block per
#          solver; columns rank, time_us)
#   out    output file; .svg -> svg terminal, anything else -> pngcairo
#   queue  the queue the solvers ran on, for the title (default: none)
if (!exists("data") || !exists("out")) { print "cactus.gp: set data and out"; exit status 64 }
if (!exists("queue")) queue = ""
load (exists("plotdir") ? plotdir : "plots")."/style.gp"
eval term_for(out, 1000, 600)

set datafile separator "\t"
stats data using (0) nooutput
nblocks = STATS_blocks

set title sprintf("Cactus plot: queries solved within a time per query%s", \
    queue ne "" ? "  (queue ".queue.")" : "")
set xlabel "number of queries solved (all maps pooled)"
set ylabel "time per query (µs, log scale)"
set logscale y
set format y "%g"
set grid xtics ytics mytics lc rgb "#dddddd"
set key outside right top vertical Left reverse noenhanced title "solver" box lc rgb "#bbbbbb"
plot for [i=0:nblocks-1] data index i using 1:2 with lines ls (i+1) lw 2.5 title columnheader(1)
