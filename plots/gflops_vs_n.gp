# gflops_vs_n.gp - every kernel's GFLOP/s over the size sweep, cuBLAS as the
# reference line(s).
#   term, out   see style.gp
#   f           CSV blocks, one per kernel (two blank lines between): x,gflops
#   names       the kernels, one word per block, in block order
#   nref        how many trailing blocks are cuBLAS references
#   xlab, ttl
if (!exists('w')) w = 8.5
if (!exists('h')) h = 5.2
here = ARG0[1:strlen(ARG0) - strlen('gflops_vs_n.gp')]
load here.'style.gp'

nk = words(names) - nref
# gnuplot reads a data file once even for an empty iteration (nref = 0):
# keep the block index valid then.
idx(i) = (i <= words(names)) ? i - 1 : 0
set title ttl
set logscale x 2
set logscale y 10
set format x '%g'
set format y '%g'
set xlabel xlab
set ylabel 'Performance (GFLOP/s)'
set key outside right top Left reverse samplen 2 box lc rgb '#bbbbbb'
plot for [i=nk+1:nk+nref] f index idx(i) using 1:2 with lines \
         lc rgb '#000000' dt 2 lw 3 title word(names, i), \
     for [i=1:nk] f index (i - 1) using 1:2 with linespoints lt i \
         title word(names, i)
