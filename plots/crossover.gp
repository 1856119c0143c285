# crossover.gp - GFLOP/s over the size sweep for each tile configuration of
# one kernel; where the best configuration changes, a labelled vertical line.
#   term, out   see style.gp
#   f           CSV blocks, one per config (two blank lines between): x,gflops
#   names       the configs, one word per block, in block order
#   xf          CSV: x,label (one row per crossover; may have none)
#   nx          number of crossovers
#   ymax        top of the y range (GFLOP/s); xlab, ttl
if (!exists('w')) w = 8.5
if (!exists('h')) h = 5.2
here = ARG0[1:strlen(ARG0) - strlen('crossover.gp')]
load here.'style.gp'

set title ttl
set logscale x 2
set format x '%g'
set yrange [0:ymax]
set xlabel xlab
set ylabel 'Performance (GFLOP/s)'
set key outside right top Left reverse samplen 2 box lc rgb '#bbbbbb'
configs = "for [i=1:words(names)] f index (i - 1) using 1:2 with linespoints lt i title word(names, i)"
if (nx > 0) {
    plot @configs, \
         xf using 1:(0):(0):(ymax) with vectors nohead lc rgb '#555555' dt 2 lw 1.5 \
            title 'crossover', \
         xf using 1:(ymax * 0.98):2 with labels rotate by 90 right offset -1.4, 0 \
            font ',9' notitle
} else {
    plot @configs
}
