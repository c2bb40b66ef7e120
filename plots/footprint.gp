# footprint.gp -- search footprints of one query, one panel per solver,
# side by side: the map with the cells each solver expanded (closed),
# generated but never expanded (open), and its path.
#
# Parameters (gnuplot -e "name='value'; ..." footprint.gp):
#   params  PREFIX.gp written by `gridbench footprint --out PREFIX`: the
#           variables fp_n, fp_w, fp_h, fp_sx, fp_sy, fp_gx, fp_gy,
#           fp_title and, per panel i = 1..fp_n, fp_fileI (a binary PPM,
#           one pixel per cell, first row = map row 0), fp_skipI (its
#           header bytes), fp_nameI, fp_statsI, fp_costI
#   out     output file; .svg -> svg terminal, anything else -> pngcairo
#   panel   panel width in pixels (default: the map width, within 420..600)
# The PPM paths in params are read relative to gnuplot's working directory
# (gridbench footprint writes them as given by --out).
if (!exists("params") || !exists("out")) { print "footprint.gp: set params and out"; exit status 64 }
load (exists("plotdir") ? plotdir : "plots")."/style.gp"
load params
# one screen pixel per cell up to 600 px per panel, at least 420
if (!exists("panel")) panel = fp_w < 420 ? 420 : (fp_w > 600 ? 600 : fp_w)

# panels keep the map's aspect ratio; room above for titles, below for the key
pw = (fp_n * panel < 760) ? int(760 / fp_n) : panel   # room for the legend
ph = int(panel * fp_h / fp_w)
top = 110
bottom = 70
eval term_for(out, fp_n * pw, ph + top + bottom)
W = fp_n * pw * 1.0
H = (ph + top + bottom) * 1.0

set multiplot title fp_title font ",13" offset 0,-0.3
unset xtics
unset ytics
unset colorbox
set border lw 1 lc rgb "#888888"
set xrange [-0.5:fp_w - 0.5]
set yrange [fp_h - 0.5:-0.5]        # map row 0 at the top, as in the file
set size ratio -1
set label 1 "" at fp_sx, fp_sy point pt 7 ps 1.6 lc rgb "#2ca02c" front
set label 2 "" at fp_gx, fp_gy point pt 9 ps 1.9 lc rgb "#7b2fbe" front
# Legend under the panels, drawn by hand in screen coordinates (a key
# belongs to one panel and would wrap to the panel's width).
lg_cols = "#8fb8de #ffd27f #d62728 #3a3a3a #2ca02c #7b2fbe"
lg_text1 = "expanded (closed)"
lg_text2 = "generated, not expanded (open)"
lg_text3 = "path"
lg_text4 = "blocked"
lg_text5 = "start"
lg_text6 = "goal"
cw = 8.0                                  # approximate width of a character, px
lg_w(i) = 22 + cw * strlen(value(sprintf("lg_text%d", i))) + 28
lg_total = 0
do for [i=1:6] { lg_total = lg_total + lg_w(i) }
lx = (W - lg_total) / 2
ly = bottom * 0.45
do for [i=1:6] {
    if (i <= 4) {
        set object 100+i rect from screen lx / W, (ly - 7) / H to screen (lx + 16) / W, (ly + 7) / H \
            fc rgb word(lg_cols, i) fs solid 1.0 border lc rgb "#888888" front
    } else {
        set label 100+i "" at screen (lx + 8) / W, ly / H point pt (i == 5 ? 7 : 9) \
            ps (i == 5 ? 1.6 : 1.9) lc rgb word(lg_cols, i) front
    }
    set label 110+i value(sprintf("lg_text%d", i)) at screen (lx + 22) / W, ly / H left front font ",11"
    lx = lx + lg_w(i)
}
unset key
do for [i=1:fp_n] {
    set lmargin at screen (i - 1) * pw / W + 6 / W
    set rmargin at screen i * pw / W - 6 / W
    set tmargin at screen 1 - (top - 10) / H
    set bmargin at screen bottom / H
    set title sprintf("%s\n%s\n%s", value(sprintf("fp_name%d", i)), \
        value(sprintf("fp_stats%d", i)), value(sprintf("fp_cost%d", i))) font ",11"
    plot value(sprintf("fp_file%d", i)) binary array=(fp_w, fp_h) skip=value(sprintf("fp_skip%d", i)) \
             format="%uchar" with rgbimage notitle
    if (i == 1) {   # the legend once, not in every panel
        do for [k=101:106] { unset object k; unset label k }
        do for [k=111:116] { unset label k }
    }
}
unset multiplot
