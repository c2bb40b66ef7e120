# cactus.gp -- cactus plot: each solver's query times sorted ascending, so
# the point (k, t) reads "k queries were solved within t each".  Lower and
# further right is better; the lines never cross for a solver that is
# uniformly faster.  Queries of every map are pooled.  One panel per
# solver family (at most ~6 lines each), dijkstra dashed in every panel.
#
# Parameters (gnuplot -e "name='value'; ..." cactus.gp):
#   data    cactus.tsv from `gridbench summary --plot-data` (one block per
#           solver; columns rank, time_us)
#   out     output file; .svg -> svg terminal, anything else -> pngcairo
#   panels  panels-cactus.gp from scripts/plot-data.pl (np, ref, pI, tI);
#           default: one panel with every block
#   queue   the queue the solvers ran on, for the title (default: none)
if (!exists("data") || !exists("out")) { print "cactus.gp: set data and out"; exit status 64 }
if (!exists("queue")) queue = ""
load (exists("plotdir") ? plotdir : "plots")."/style.gp"

set datafile separator "\t"
stats data using (0) nooutput
nblocks = STATS_blocks
if (exists("panels")) { load panels } else {
    np = 1; ref = -1; t1 = ""; p1 = ""
    do for [i=0:nblocks-1] { p1 = p1.sprintf(" %d", i) }
}
cols = np > 1 ? 2 : 1
rows = (np + cols - 1) / cols
eval term_for(out, cols == 1 ? 1000 : 1300, cols == 1 ? 600 : 60 + rows * 420)

set xlabel "number of queries solved (all maps pooled)"
set ylabel "time per query (µs, log)"
set logscale y
set format y "%g"
set grid xtics ytics mytics lc rgb "#dddddd"
set key inside left top vertical Left reverse noenhanced box lc rgb "#bbbbbb" opaque samplen 2 font ",10"
set multiplot layout rows, cols title sprintf("Cactus plot: queries solved within a time per query%s", \
    queue ne "" ? "  (queue ".queue.")" : "") font ",13"
do for [p=1:np] {
    blocks = value(sprintf("p%d", p))
    set title value(sprintf("t%d", p)) font ",11"
    if (ref >= 0) {
        plot for [k=1:words(blocks)] data index int(word(blocks, k)) using 1:2 with lines ls k lw 2.5 \
                 title columnheader(1), \
             data index ref using 1:2 with lines lc rgb "#000000" dt 2 lw 1.5 title "dijkstra (reference)"
    } else {
        plot for [k=1:words(blocks)] data index int(word(blocks, k)) using 1:2 with lines ls k lw 2.5 \
                 title columnheader(1)
    }
}
unset multiplot
