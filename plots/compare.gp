# compare.gp -- the plot of `gridbench compare OLD NEW`: a forest plot,
# one row per map x solver x queue, the NEW/OLD ratio of the median time
# per query (point) and its 95 % bootstrap interval (bar), on a log axis
# with 1 (no change) marked.  Colour = the verdict of `gridbench compare`:
# red slower, green faster (interval clear of 1 and Mann-Whitney p < 0.05),
# grey no change (a tie), light grey not comparable.
#
# Parameters (gnuplot -e "name='value'; ..." compare.gp):
#   data   the --out CSV of `gridbench compare` (header row; columns map,
#          solver, queue, n, ..., time_ratio (9), time_ratio_lo (10),
#          time_ratio_hi (11), time_p (12), time_verdict (13), ...)
#   out    output file; .svg -> svg terminal, anything else -> pngcairo
#   title  the title (default: "NEW / OLD")
if (!exists("data") || !exists("out")) { print "compare.gp: set data and out"; exit status 64 }
if (!exists("title")) title = "NEW / OLD"
load (exists("plotdir") ? plotdir : "plots")."/style.gp"

set datafile separator comma
set datafile missing ""
set datafile columnheaders
stats data using 4 nooutput
n = STATS_records
h = 130 + 16 * n
eval term_for(out, 1000, h < 300 ? 300 : (h > 8000 ? 8000 : h))

set title sprintf("%s: median time per query, NEW / OLD with 95 %% intervals", title) noenhanced
set xlabel "time ratio NEW / OLD (log; < 1 = NEW faster; bar: 95 % paired bootstrap interval)"
set logscale x
set format x "%g"
set yrange [-n - 0.5 : 0.5]
set ytics nomirror scale 0 font ",9" noenhanced
set grid xtics mxtics lc rgb "#e4e4e4"
set key outside bottom center horizontal noenhanced
set bmargin 6
set arrow 1 from first 1, graph 0 to first 1, graph 1 nohead lc rgb "#333333" dt 2 lw 1.5
lab(m, s, q) = sprintf("%s  %s / %s", m, s, q)
is(v) = strcol(13) eq v
plot data using (is("slower") ? $9 : NaN):(-$0 - 1):10:11:ytic(lab(strcol(1), strcol(2), strcol(3))) \
         with xerrorbars pt 7 ps 0.8 lc rgb "#d62728" title "slower", \
     data using (is("faster") ? $9 : NaN):(-$0 - 1):10:11 with xerrorbars pt 7 ps 0.8 lc rgb "#2ca02c" title "faster", \
     data using (is("no_change") ? $9 : NaN):(-$0 - 1):10:11 with xerrorbars pt 7 ps 0.8 lc rgb "#7f7f7f" title "no change (tie)", \
     data using (is("n/a") ? $9 : NaN):(-$0 - 1):10:11 with xerrorbars pt 6 ps 0.8 lc rgb "#c0c0c0" title "not comparable"
