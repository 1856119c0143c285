# dist_scaling.gp - strong scaling of `gemmprof dist`: GFLOP/s of the whole
# run over the number of ranks (left axis), the ideal line from the 1-rank
# point, and parallel efficiency (right axis, dotted).
#   term, out, geometry, ttl   see style.gp
#   f           CSV blocks (two blank lines between): first one per series,
#               ranks,gflops,efficiency_pct,grid; then one per ideal line,
#               ranks,gflops
#   names       the series (kernel/transport), one word per block
#   inames      the ideal lines, one word per block, after the series
#   ilt         the linetype of each ideal line (its kernel's first series)
#   xmax        the largest rank count
#   xt          the xtics list, e.g. ('1' 1, '2' 2)
#   yscale, ylab   GFLOP/s per unit of the left axis, and its title
here = ARG0[1:strlen(ARG0) - strlen('dist_scaling.gp')]
load here.'style.gp'

ns = words(names)
ni = words(inames)
set border 11
set xrange [0.5 : xmax + 0.5]
eval('set xtics '.xt)
set xtics nomirror
set xlabel 'MPI ranks (one GPU each)' offset 0, 0.3
set ylabel ylab offset 0.5, 0
set y2label sprintf('Parallel efficiency (%s of ideal)', pct) offset -0.5, 0
set format y '%g'
set yrange [0:*]
set y2range [0:*]
set ytics nomirror
set y2tics out scale 0.6
set offsets 0, 0, graph 0.08, 0
# (grid labels of the first half of the series above their point, of the
# second half below: series are kernel by kernel, the same transport of
# two kernels sits close)
plot for [j=1:ni] f index (ns + j - 1) using 1:($2 / yscale) with lines \
         lt (word(ilt, j) + 0) dt 2 lw 1.5 title word(inames, j), \
     for [i=1:ns] f index (i - 1) using 1:($2 / yscale) with linespoints lt i \
         title word(names, i), \
     for [i=1:ns] f index (i - 1) using 1:($2 / yscale):4 with labels \
         offset 1.6, (2 * i <= ns ? 0.75 : -0.75) font ',8' tc rgb '#555555' notitle, \
     for [i=1:ns] f index (i - 1) using 1:3 axes x1y2 with linespoints lt i \
         dt 3 pt 6 notitle, \
     NaN with linespoints lc rgb '#555555' dt 3 pt 6 \
         title 'efficiency (right axis)'
