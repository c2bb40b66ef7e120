# style.gp -- shared look of the gridbench plots, loaded by every script.
# Defines term_for(file, w, h): svg terminal for *.svg, pngcairo otherwise,
# both noenhanced (names print as-is: underscores are not subscripts).
# Line styles 1..12: distinct colours and point types, in the same order in
# every plot, so a solver keeps its colour across the figures of a report.
term_for(f, w, h) = (strlen(f) > 4 && f[strlen(f)-3:] eq ".svg") ? \
    sprintf("set terminal svg size %d,%d dynamic noenhanced font 'Sans,12' background '#ffffff'; set output '%s'", w, h, f) : \
    sprintf("set terminal pngcairo size %d,%d noenhanced font 'Sans,11' background '#ffffff'; set output '%s'", w, h, f)
colors = "#1f77b4 #d62728 #2ca02c #ff7f0e #9467bd #8c564b #e377c2 #7f7f7f #bcbd22 #17becf #393b79 #637939"
do for [i=1:12] {
    set style line i lc rgb word(colors, i) lw 2 pt (i % 7 + 4) ps 0.9
}
set border lc rgb "#444444"
set encoding utf8
