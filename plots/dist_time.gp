# dist_time.gp - where each rank's time went in a `gemmprof dist` run:
# stacked bars per rank (compute, exposed communication, host<->device
# transfers), the wall time of the multiply as a dot, one group per run.
#   term, out   see style.gp
#   f           CSV: x,compute_ms,comm_ms,transfer_ms,time_ms,rank
#   g           CSV: group centre x,run label
#   xmax        the last x (a gap after every run); w grows with it
#   ttl
if (!exists('w')) w = 8.5
if (!exists('h')) h = 5.2
here = ARG0[1:strlen(ARG0) - strlen('dist_time.gp')]
load here.'style.gp'

set title ttl
set xrange [0.3 : xmax]
set yrange [0:*]
set offsets 0, 0, graph 0.08, 0
set ylabel 'Time per repetition (ms, median)'
set xtics scale 0 nomirror
set bmargin 7
unset grid
set grid ytics lc rgb '#dddddd' lw 0.5
set boxwidth 0.8
set style fill solid 0.85 border lc rgb '#333333'
set key outside right top Left reverse samplen 2 box lc rgb '#bbbbbb'
plot f using 1:($2 + $3 + $4):xtic(6) with boxes lc rgb '#2ca02c' \
         title 'transfer (host-device copies)', \
     f using 1:($2 + $3) with boxes lc rgb '#ff7f0e' \
         title 'comm (exposed panel broadcasts)', \
     f using 1:2 with boxes lc rgb '#1f77b4' title 'compute (local GEMMs)', \
     f using 1:5 with points pt 7 ps 0.9 lc rgb '#000000' \
         title 'wall time of the multiply', \
     g using 1:(0):2 with labels rotate by 20 right offset 1.5, -2.4 notitle
