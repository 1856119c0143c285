# speedup.gp - two panels over the size sweep: each kernel's speedup over
# the naive kernel (top) and its GFLOP/s as a percentage of cuBLAS (bottom).
#   term, out        see style.gp
#   f                CSV blocks, one per kernel (two blank lines between):
#                    x,speedup,pct_cublas
#   names            the kernels, one word per block, in block order
#   nref             how many trailing blocks are cuBLAS (speedup panel only)
#   has_sp, has_pct  1 if that panel has any value (0: panel says why not)
#   base             the baseline kernel's name; xlab, ttl
if (!exists('w')) w = 8.5
if (!exists('h')) h = 7.5
here = ARG0[1:strlen(ARG0) - strlen('speedup.gp')]
load here.'style.gp'

nk = words(names) - nref
# gnuplot reads a data file once even for an empty iteration (nref = 0):
# keep the block index valid then.
idx(i) = (i <= words(names)) ? i - 1 : 0
set multiplot title ttl
set lmargin at screen 0.10
set rmargin at screen 0.80
set logscale x 2
set format x '%g'
set mxtics default

set tmargin at screen 0.92
set bmargin at screen 0.55
set ylabel sprintf('Speedup over %s (x)', base)
set format xy '%g'
set logscale y 10
set key outside right top Left reverse samplen 2 box lc rgb '#bbbbbb'
if (has_sp) {
    plot for [i=1:nk] f index (i - 1) using 1:2 with linespoints lt i \
             title word(names, i), \
         for [i=nk+1:nk+nref] f index idx(i) using 1:2 with linespoints \
             lc rgb '#000000' dt 2 lw 2.5 pt 6 title word(names, i)
} else {
    set label 1 sprintf('no speedup: no %s rows at these sizes', base) at graph 0.5, 0.5 center
    plot [1:2] [1:10] 100 notitle
    unset label 1
}

set tmargin at screen 0.45
set bmargin at screen 0.09
unset logscale y
set yrange [0:*]
set offsets 0, 0, graph 0.08, 0
set ylabel sprintf('GFLOP/s as %s of cuBLAS', pct)
set xlabel xlab
unset key
if (has_pct) {
    plot for [i=1:nk] f index (i - 1) using 1:3 with linespoints lt i \
             title word(names, i), \
         100 lc rgb '#000000' dt 2 lw 2.5 title 'cuBLAS'
} else {
    set label 1 'no cuBLAS rows at these sizes' at graph 0.5, 0.5 center
    plot [1:2] [0:100] 200 notitle
    unset label 1
}
unset multiplot
