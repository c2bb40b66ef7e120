# time_vs_length.gp -- median search time per path-length bucket on one
# map, logarithmic time axis, in panels of a few solvers each (one panel
# per solver family, so that no panel has more than ~6 lines), with
# dijkstra drawn in every panel as the dashed black reference.
#
# Parameters (gnuplot -e "name='value'; ..." time_vs_length.gp):
#   data    bucket-MAP.tsv from `gridbench summary --plot-data` (one block
#           per solver; columns bucket n len_mean time_median_us
#           time_p25_us time_p75_us expanded_mean expanded_median)
#   out     output file; .svg -> svg terminal, anything else -> pngcairo
#   panels  panels-MAP.gp from scripts/plot-data.pl (np, ref, pI, tI, fI);
#           default: one panel with every block
#   map     map name for the title (default: none)
#   queue   the queue the solvers ran on, for the title (default: none)
if (!exists("data") || !exists("out")) { print "time_vs_length.gp: set data and out"; exit status 64 }
if (!exists("map")) map = ""
if (!exists("queue")) queue = ""
load (exists("plotdir") ? plotdir : "plots")."/style.gp"

set datafile separator "\t"
set datafile missing "NaN"
stats data using (0) nooutput
nblocks = STATS_blocks
if (exists("panels")) { load panels } else {
    np = 1; ref = -1; t1 = ""; f1 = 0; p1 = ""
    do for [i=0:nblocks-1] { p1 = p1.sprintf(" %d", i) }
}
cols = np > 1 ? 2 : 1
rows = (np + cols - 1) / cols
eval term_for(out, cols == 1 ? 1000 : 1300, cols == 1 ? 600 : 60 + rows * 420)

set xlabel "optimal path length (bucket mean)"
set ylabel "median time per query (µs, log)"
set logscale y
set format y "%g"
set grid xtics ytics mytics lc rgb "#dddddd"
set key inside left top vertical Left reverse noenhanced box lc rgb "#bbbbbb" opaque samplen 2 font ",10"
set multiplot layout rows, cols title sprintf("Median search time by path length%s%s", \
    map ne "" ? " -- ".map : "", queue ne "" ? "  (queue ".queue.")" : "") font ",13"
do for [p=1:np] {
    blocks = value(sprintf("p%d", p))
    set title value(sprintf("t%d", p)) font ",11"
    if (ref >= 0) {
        plot for [k=1:words(blocks)] data index int(word(blocks, k)) using 3:4 with linespoints ls k \
                 title columnheader(1), \
             data index ref using 3:4 with lines lc rgb "#000000" dt 2 lw 1.5 title "dijkstra (reference)"
    } else {
        plot for [k=1:words(blocks)] data index int(word(blocks, k)) using 3:4 with linespoints ls k \
                 title columnheader(1)
    }
}
unset multiplot
