# expansions_vs_length.gp -- mean nodes expanded per path-length bucket on
# one map, logarithmic axis, in panels by solver family (see
# time_vs_length.gp).  A panel whose fI is 1 (jps, jps+, sg, sg-tl) counts
# jump points or subgoals, not cells: it says so on its own axis and
# draws no dijkstra reference (a cell count would not compare).
#
# Lines that coincide (A* with three heuristics on a maze, jps and jps+)
# stay visible: each line of a panel is drawn wider, with larger points,
# than the ones drawn after it, so a line on top of another leaves the
# other's edge showing.  A mean of 0 expansions (a solver that reports
# none) has no place on a log axis: such points sit on a bottom tick
# labelled "0", at zero_at, instead of vanishing.
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
# 0 expansions: drawn at zero_at, a tick labelled "0" below the smallest
# positive mean
stats data using 7 nooutput
zero_at = 0
if (STATS_min <= 0) {
    stats data using ($7 > 0 ? $7 : NaN) nooutput
    zero_at = (STATS_records > 0 ? 10.0**floor(log10(STATS_min)) : 1.0) / 4.0
    set yrange [zero_at:*]
    set ytics add ("0" zero_at)
}
ex(v) = (zero_at > 0 && v <= 0) ? zero_at : v
# the k-th of n lines: wider and with larger points the earlier it is drawn
lw_of(k, n) = 1.5 + 1.2 * (n - k)
ps_of(k, n) = 0.8 + 0.35 * (n - k)
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
    n = words(blocks)
    if (r0 >= 0) {
        plot for [k=1:n] data index int(word(blocks, k)) using 3:(ex($7)) with linespoints ls k \
                 lw lw_of(k, n) ps ps_of(k, n) title columnheader(1), \
             data index r0 using 3:(ex($7)) with lines lc rgb "#000000" dt 2 lw 1.5 title "dijkstra (reference)"
    } else {
        plot for [k=1:n] data index int(word(blocks, k)) using 3:(ex($7)) with linespoints ls k \
                 lw lw_of(k, n) ps ps_of(k, n) title columnheader(1)
    }
}
unset multiplot
