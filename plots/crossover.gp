# crossover.gp - performance over the size sweep for each tile configuration
# of one kernel; where the best configuration changes, a labelled dotted line.
#   term, out, geometry, ttl   see style.gp
#   f           CSV blocks, one per config (two blank lines between): x,perf
#   names       the configs, one word per block, in block order
#   xf          CSV: x,label (one row per crossover; may have none)
#   nx          number of crossovers
#   ymax, ylab  top of the (linear) performance axis and its title
#   xmin, xmax, xt, xlab   the size axis (log 2)
here = ARG0[1:strlen(ARG0) - strlen('crossover.gp')]
load here.'style.gp'

set logscale x 2
set xrange [xmin:xmax]
eval('set xtics '.xt)
set yrange [0:ymax]
set format y '%g'
set style textbox opaque noborder margins 1, 1
set xlabel xlab offset 0, 0.3
set ylabel ylab offset 0.5, 0
configs = "for [i=1:words(names)] f index (i - 1) using 1:2 with linespoints lt i title word(names, i)"
if (nx > 0) {
    plot @configs, \
         xf using 1:(0):(0):(ymax) with vectors nohead lc rgb '#555555' dt 3 lw 1.5 \
            title 'crossover', \
         xf using 1:(ymax * 0.98):2 with labels rotate by 90 right offset -0.8, 0 \
            font ',8' boxed notitle
} else {
    plot @configs
}
