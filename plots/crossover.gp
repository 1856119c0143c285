# crossover.gp - performance over the size sweep for each tile configuration
# of one kernel; where the best configuration changes, a labelled dotted line.
#   term, out, geometry, ttl   see style.gp
#   f           CSV blocks, one per config (two blank lines between): x,perf
#   names       the configs, one word per block, in block order
#   xf          CSV: x,tag (one row per crossover, tagged 1, 2, ...; may have none)
#   xnames      the crossovers' legend entries, one quoted word each ("1  N = 724: ... best above")
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
# Each crossover: a dotted line with its number at the top (above the curves:
# ymax is 1.15 times the highest point), its text in the legend.
if (nx > 0) {
    plot @configs, \
         for [i=1:nx] xf every ::(i - 1)::(i - 1) using 1:(0):(0):(ymax) \
            with vectors nohead lc rgb '#555555' dt 3 lw 1.5 title word(xnames, i), \
         xf using 1:(ymax * 0.955):2 with labels center font ',8' boxed notitle
} else {
    plot @configs
}
