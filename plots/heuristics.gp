# heuristics.gp -- heuristic informedness: mean w*h / h* per true-distance
# bucket, one line per heuristic (and weight).  1 = exact; above 1 the
# heuristic overestimates (inadmissible), near 0 it tells the search little.
#
# Parameters (gnuplot -e "name='value'; ..." heuristics.gp):
#   data   the --hist CSV of `gridbench heuristics` (header row, then
#          heuristic,weight,bucket,lo,hi,mean_ratio,cells; the rows of one
#          heuristic and weight together)
#   out    output file; .svg -> svg terminal, anything else -> pngcairo
#   map    map name for the title (default: none)
# The distinct heuristic/weight pairs are listed with awk (gnuplot cannot
# collect string columns itself).
if (!exists("data") || !exists("out")) { print "heuristics.gp: set data and out"; exit status 64 }
if (!exists("map")) map = ""
load (exists("plotdir") ? plotdir : "plots")."/style.gp"
eval term_for(out, 1000, 600)

set datafile separator comma
keys = system(sprintf("awk -F, 'NR > 1 && !seen[$1 \"|\" $2]++ { printf \"%%s|%%s \", $1, $2 }' '%s'", data))
nkeys = words(keys)
key_of(i) = word(keys, i)
label_of(i) = (k = word(keys, i), p = strstrt(k, "|"), \
    k[p+1:] eq "1" ? k[1:p-1] : sprintf("%s (w=%s)", k[1:p-1], k[p+1:]))

set title sprintf("Heuristic informedness: mean w·h / h* by true distance%s", map ne "" ? " -- ".map : "")
set xlabel "true distance h* to the goal (cost units, bucket middle)"
set ylabel "mean w·h / h*  (1 = exact)"
set yrange [0:*]
set grid xtics ytics lc rgb "#dddddd"
set key outside right top vertical Left reverse noenhanced title "heuristic" box lc rgb "#bbbbbb" width 1
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead lc rgb "#333333" dt 2 lw 1.5
plot for [i=1:nkeys] data using \
        ((strcol(1)."|".strcol(2)) eq key_of(i) && $7 > 0 ? ($4 + $5) / 2 : NaN):6 \
        with linespoints ls i title label_of(i)
