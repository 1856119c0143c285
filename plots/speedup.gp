# speedup.gp - two panels over the size sweep for one family: each
# kernel's speedup over the naive kernel (top) and its performance as a
# percentage of cuBLAS (bottom).  One legend, under both.
#   term, out, geometry, ttl   see style.gp
#   split_lo, split_hi  the bottom panel's top, the top panel's bottom (screen)
#   f                CSV blocks, one per kernel (two blank lines between):
#                    x,speedup,pct_cublas
#   names, lts       the kernels (one word each) and their linetypes
#   nref             how many trailing blocks are cuBLAS (speedup panel only)
#   has_sp, has_pct  1 if that panel has any value (0: panel says why not)
#   spmin, spmax, spt  the speedup axis (log 10) and its tics; pctmax
#   base             the baseline kernel's name; xmin, xmax, xt, xt_bare
#                    (the same tics unlabelled), xlab
here = ARG0[1:strlen(ARG0) - strlen('speedup.gp')]
load here.'style.gp'

nk = words(names) - nref
set multiplot
set logscale x 2
set xrange [xmin:xmax]

set bmargin at screen split_hi
eval('set xtics '.xt_bare)
set ylabel sprintf('Speedup over %s (x)', base) offset -0.2, 0   # left of the tick labels: a kernel name's '_' descends toward them
set logscale y 10
set yrange [spmin:spmax]
eval('set ytics '.spt)
if (has_sp) {
    plot for [i=1:words(names)] f index (i - 1) using 1:2 with linespoints \
             lt (word(lts, i) + 0) title word(names, i)
} else {
    set label 1 sprintf('no speedup: no %s rows at these sizes', base) at graph 0.5, 0.5 center
    plot [xmin:xmax] [1:10] 100 notitle
    unset label 1
}
do for [i=911:918] { unset label i }
unset label 901
unset key

set tmargin at screen split_lo
set bmargin at screen bm
eval('set xtics '.xt)
unset logscale y
set yrange [0:pctmax]
set ytics autofreq
set ytics 0, 20
set ylabel sprintf('%s of cuBLAS', pct) offset 0.5, 0
set xlabel xlab offset 0, 0.3
if (has_pct) {
    plot for [i=1:nk] f index (i - 1) using 1:3 with linespoints lt (word(lts, i) + 0) notitle, \
         100 lc rgb '#000000' dt 2 lw 1.5 notitle
} else {
    set label 1 'no cuBLAS rows at these sizes' at graph 0.5, 0.5 center
    plot [xmin:xmax] [0:100] 200 notitle
    unset label 1
}
unset multiplot
