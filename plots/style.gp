# style.gp - terminal, geometry and series styles shared by every chart
# script (loaded by them, not run on its own).  gemmprof decides the
# geometry in points (src/plot/frame.h) and passes it in:
#   term        pdf | png | svg | cairolatex      out   file to write
#   cw, ch      the canvas in inches: the chart, or a report page
#   lm, rm, bm, tm   the plot area's edges (screen fractions)
#   kx, ky, kcols, krows   the legend's top left corner (screen), its columns
#                    and rows
#   ctop, cleft, cmid, ptx, pty   the chart's top, left edge and middle, one
#                    point (screen)
#   ncap, cap1.., capx, capy  on a report page: the caption's lines, where
#                    the first goes
#   ttl         the title
# cairolatex writes OUT (.tex) plus a .pdf of the same stem, both in the
# current directory, so gemmprof runs gnuplot inside the output directory.
#
# Text is DejaVu Sans ("Sans").  The cairo terminals draw a nominal size
# at 2/3 of it (fontscale 0.5 at pango's 96 dpi); fontscale 0.75 makes
# 9 pt 9 pt on the page, which is what gemmprof's label layout measures
# with.  Line width 1 is 0.5 pt.  PNG is 150 dpi with text, lines and
# points scaled to match the PDF.
if (!exists('term')) term = 'pdf'
if (term eq 'pdf') {
    set terminal pdfcairo size cw,ch font 'Sans,9' fontscale 0.75 noenhanced
} else { if (term eq 'png') {
    set terminal pngcairo size cw*150,ch*150 font 'Sans,9' fontscale 150.0/72*0.75 \
        linewidth 150.0/72*0.5 pointscale 150.0/72 noenhanced
} else { if (term eq 'svg') {
    set terminal svg size cw*72,ch*72 font 'Sans,9' noenhanced
} else { if (term eq 'cairolatex') {
    # LaTeX sets the text in the document's font; at 8 pt it fits the
    # places laid out for the PDF's 8 and 9 pt DejaVu Sans (narrower).
    set terminal cairolatex pdf size cw,ch color colortext \
        header '\fontsize{8}{9.5}\selectfont'
} else {
    exit error "unknown term '".term."' (pdf, png, svg, cairolatex)"
}}}}
set output out

# Text that LaTeX would read as markup when term is cairolatex.
pct = (term eq 'cairolatex') ? '\%' : '%'

set datafile separator ','
set datafile missing 'NA'
set datafile commentschars '#'

# Series: colour-blind-safe colours from Okabe & Ito, "Color Universal
# Design" (2008; Wong, Nature Methods 8:441, 2011), without its yellow
# (too faint on white) and its black (kept for the cuBLAS references).
# Each series also has its own marker (12) and dash pattern (5), so a
# chart reads in grey; past 12 series the colours shift by one, so no two
# series share colour, marker and dash.
oi = '#0072B2 #D55E00 #009E73 #CC79A7 #E69F00 #56B4E9'
marks = '7 5 9 11 13 15 6 4 8 10 12 14'
do for [i=1:40] {
    eval sprintf("set linetype %d lc rgb '%s' lw 2.5 pt %s ps 0.9 dt %d", i, \
                 word(oi, ((i - 1) + (i - 1) / 12) % 6 + 1), word(marks, (i - 1) % 12 + 1), \
                 (i - 1) % 5 + 1)
}
# References (cuBLAS): black, dashed, open markers.
set linetype 41 lc rgb '#000000' lw 3 pt 6 ps 1.0 dt 2
set linetype 42 lc rgb '#000000' lw 3 pt 4 ps 1.0 dt 4
set linetype 43 lc rgb '#000000' lw 3 pt 8 ps 1.0 dt 5

set grid xtics ytics lc rgb '#dddddd' lw 1 dt 1
set border lw 1.5
set tics nomirror out scale 0.6
set border 3

# The plot area and the legend, where gemmprof put them (a chart; the
# report's text pages place themselves).
if (exists('lm')) {
    set lmargin at screen lm
    set rmargin at screen rm
    set bmargin at screen bm
    set tmargin at screen tm
    set key at screen kx, ky left top Left reverse samplen 2.5 spacing 1.05 font ',8' \
        width 1 noautotitle nobox
    if (kcols > 0) { set key vertical maxcols kcols maxrows krows } else { set key vertical }
    # The title at the chart's top edge (notes may follow it, the plot area
    # starts below them); in a multiplot the first panel draws it.
    set label 901 ttl at screen cmid, ctop - 12 * pty center font ',10' front
}
# The caption, wrapped by gemmprof into ncap lines (cap1, cap2, ...):
# labels 911 to 918 (a multiplot's later panels unset them).
if (exists('ncap')) {
    do for [i=1:ncap] {
        set label 910 + i value(sprintf('cap%d', i)) at screen capx, capy - (i - 1) * 11 * pty \
            left font ',9' front
    }
}
