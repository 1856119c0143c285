# gflops_vs_n.gp - each kernel of one family over the size sweep, cuBLAS
# as the reference line(s).
#   term, out, geometry, ttl   see style.gp
#   f           CSV blocks, one per kernel (two blank lines between): x,perf
#   names, lts  the kernels (one word each) and their linetypes, block order
#   nref        how many trailing blocks are cuBLAS references
#   xmin, xmax, xt, xlab   the size axis (log 2) and its tic list
#   ymin, ymax, yt, ylab   the performance axis (log 10, engineering units)
here = ARG0[1:strlen(ARG0) - strlen('gflops_vs_n.gp')]
load here.'style.gp'

nk = words(names) - nref
set logscale x 2
set logscale y 10
set xrange [xmin:xmax]
set yrange [ymin:ymax]
eval('set xtics '.xt)
eval('set ytics '.yt)
set xlabel xlab offset 0, 0.3
set ylabel ylab offset 0.5, 0
plot for [i=1:words(names)] f index (i - 1) using 1:2 with linespoints \
         lt (word(lts, i) + 0) title word(names, i)
