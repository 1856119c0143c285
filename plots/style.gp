# style.gp - terminal and colours shared by every chart script (loaded by
# them, not run on its own).
#   term   pdf | png | svg | cairolatex      out   file to write
#   w, h   page size in inches (optional; each script sets its default)
# cairolatex writes OUT (.tex) plus a .pdf of the same stem, both in the
# current directory, so gemmprof runs gnuplot inside the output directory.
if (!exists('term')) term = 'pdf'
if (term eq 'pdf') {
    set terminal pdfcairo size w,h font 'Sans,10' noenhanced
} else { if (term eq 'png') {
    set terminal pngcairo size w*150,h*150 font 'Sans,10' fontscale 1.4 noenhanced
} else { if (term eq 'svg') {
    set terminal svg size w*96,h*96 font 'Sans,10' noenhanced
} else { if (term eq 'cairolatex') {
    set terminal cairolatex pdf size w,h color colortext
} else {
    exit error "unknown term '".term."' (pdf, png, svg, cairolatex)"
}}}}
set output out

# Text that LaTeX would read as markup when term is cairolatex.
pct = (term eq 'cairolatex') ? '\%' : '%'

set datafile separator ','
set datafile missing 'NA'
set datafile commentschars '#'

# Twelve distinguishable series (Tableau 10 plus two), filled markers.
set linetype 1  lc rgb '#1f77b4' lw 2 pt 7  ps 0.8
set linetype 2  lc rgb '#ff7f0e' lw 2 pt 5  ps 0.8
set linetype 3  lc rgb '#2ca02c' lw 2 pt 9  ps 0.9
set linetype 4  lc rgb '#d62728' lw 2 pt 11 ps 0.9
set linetype 5  lc rgb '#9467bd' lw 2 pt 13 ps 0.9
set linetype 6  lc rgb '#8c564b' lw 2 pt 7  ps 0.8
set linetype 7  lc rgb '#e377c2' lw 2 pt 5  ps 0.8
set linetype 8  lc rgb '#7f7f7f' lw 2 pt 9  ps 0.9
set linetype 9  lc rgb '#bcbd22' lw 2 pt 11 ps 0.9
set linetype 10 lc rgb '#17becf' lw 2 pt 13 ps 0.9
set linetype 11 lc rgb '#393b79' lw 2 pt 7  ps 0.8
set linetype 12 lc rgb '#637939' lw 2 pt 5  ps 0.8
set linetype cycle 12

set grid xtics ytics mxtics mytics lc rgb '#dddddd' lw 0.5
set border lw 1
