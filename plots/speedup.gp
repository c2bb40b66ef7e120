# speedup.gp -- per-query speedup over Dijkstra (time of dijkstra on bheap
# / time of the solver, same query), one panel per map, one box per
# solver: box from the 25th to the 75th percentile, whiskers 5th..95th,
# bar at the median.  The colour says what the solver guarantees about
# its paths: optimal (blue), bounded suboptimal (orange: cost <= w x
# optimal), none (red); a fast box in red or orange is not a like-for-like
# win.  Log scale: 2 and 0.5 are equally far from 1.
#
# Parameters (gnuplot -e "name='value'; ..." speedup.gp):
#   data   speedup-g.tsv from scripts/plot-data.pl (speedup.tsv of
#          `gridbench summary --plot-data` -- one block per map; columns
#          solver index, solver, n, p5, p25, p50, p75, p95 -- plus gclass:
#          1 optimal, 2 bounded, 3 none, 0 unknown); speedup.tsv itself
#          works too (every box then drawn as unknown)
#   out    output file; .svg -> svg terminal, anything else -> pngcairo
#   queue  the queue the solvers ran on, for the title (default: none)
#   titles speedup-maps.gp from scripts/plot-data.pl: mI = the name of
#          map block I (from 0), the panel titles (default: "map I+1")
if (!exists("data") || !exists("out")) { print "speedup.gp: set data and out"; exit status 64 }
if (!exists("queue")) queue = ""
load (exists("plotdir") ? plotdir : "plots")."/style.gp"

set datafile separator "\t"
set datafile missing "NaN"
stats data using 1 nooutput
nblocks = STATS_blocks
nsolv = STATS_max + 1
cols = nblocks > 1 ? 2 : 1
rows = (nblocks + cols - 1) / cols
eval term_for(out, cols == 1 ? 1000 : 1300, cols == 1 ? 600 : 60 + rows * 430)
# the row's guarantee class is c (0: a data row without one; a block's
# header line, whose first column is its title, is no row of any class)
gc(c) = valid(1) ? ((valid(9) ? column(9) : 0) == c) : 0

set ylabel "speedup (Dijkstra time / solver time, log)"
set logscale y
set format y "%g"
set xrange [-0.6:nsolv - 0.4]
set xtics rotate by 35 right nomirror scale 0 font ",9"
set grid ytics mytics lc rgb "#dddddd"
set boxwidth 0.6 absolute
set style fill solid 0.45 border
set key outside top center horizontal noenhanced samplen 1.5 font ",10"
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead lc rgb "#333333" dt 2 lw 1.5
set multiplot layout rows, cols title sprintf("Speedup over Dijkstra per query (dijkstra on bheap = 1)%s" \
    ."\nbox: 25th-75th percentile, whiskers: 5th-95th, bar: median", \
    queue ne "" ? " -- solvers on queue ".queue : "") font ",12"
cls = "1 2 3 0"
cname(c) = c == 1 ? "optimal" : c == 2 ? "bounded (cost <= w x optimal)" : c == 3 ? "no guarantee" : "guarantee unknown"
ccol(c) = c == 1 ? "#1f77b4" : c == 2 ? "#ff7f0e" : c == 3 ? "#d62728" : "#7f7f7f"
if (exists("titles")) { load titles }
do for [i=0:nblocks-1] {
    set title (exists(sprintf("m%d", i)) ? value(sprintf("m%d", i)) : sprintf("map %d", i + 1)) font ",11"
    # the classes this panel has: only they are drawn and get a key entry
    pres = ""
    # (counted on a linear axis, where a zero is a valid value)
    unset logscale y
    do for [k=1:4] {
        stats data index i using (gc(int(word(cls, k))) ? 1 : 0) nooutput
        if (STATS_sum > 0) { pres = pres." ".word(cls, k) }
    }
    set logscale y
    plot data index i using 1:(1):xtic(2) with points ps 0 lc rgb "#ffffff" notitle, \
         for [k=1:words(pres)] data index i using (gc(int(word(pres, k))) ? $1 : NaN):5:4:8:7 \
             with candlesticks whiskerbars 0.5 lc rgb ccol(int(word(pres, k))) title cname(int(word(pres, k))), \
         for [k=1:words(pres)] data index i using (gc(int(word(pres, k))) ? $1 : NaN):6:6:6:6 \
             with candlesticks lc rgb ccol(int(word(pres, k))) lw 3 notitle
}
unset multiplot
