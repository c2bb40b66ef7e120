# expansions_vs_length.gp -- mean nodes expanded per path-length bucket on
# one map, logarithmic axis, in panels by solver family (see
# time_vs_length.gp).  A panel whose fI is 1 (jps, jps+, sg, sg-tl) counts
# jump points or subgoals, not cells: it says so on its own axis and
# draws no dijkstra reference (a cell count would not compare).
#
# Parameters (gnuplot -e "name='value'; ..." expansions_vs_length.gp):
#   data    bucket-MAP.tsv from `gridbench summary --plot-data`
#   out     output file; .svg -> svg terminal, anything else -> pngcairo
#   panels  panels-MAP.gp from scripts/plot-data.pl; default one panel
#   map     map name for the title (default: none)
#   queue   the queue the solvers ran on, for the title (default: none)
if (!exists("data") || !exists("out")) { print "expansions_vs_length.gp: set data and out"; exit status 64 }
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
set logscale y
set format y "%g"
set grid xtics ytics mytics lc rgb "#dddddd"
set key inside left top vertical Left reverse noenhanced box lc rgb "#bbbbbb" opaque samplen 2 font ",10"
set multiplot layout rows, cols title sprintf("Nodes expanded by path length%s%s", \
    map ne "" ? " -- ".map : "", queue ne "" ? "  (queue ".queue.")" : "") font ",13"
do for [p=1:np] {
    blocks = value(sprintf("p%d", p))
    jp = value(sprintf("f%d", p))
    set title value(sprintf("t%d", p)).(jp ? "\nexpansions = JUMP POINTS / SUBGOALS, not cells" : "") font ",11"
    set ylabel (jp ? "jump points or subgoals expanded (mean, log)" : "cells expanded per query (mean, log)")
    r0 = jp ? -1 : ref
    if (r0 >= 0) {
        plot for [k=1:words(blocks)] data index int(word(blocks, k)) using 3:7 with linespoints ls k \
                 title columnheader(1), \
             data index r0 using 3:7 with lines lc rgb "#000000" dt 2 lw 1.5 title "dijkstra (reference)"
    } else {
        plot for [k=1:words(blocks)] data index int(word(blocks, k)) using 3:7 with linespoints ls k \
                 title columnheader(1)
    }
}
unset multiplot
