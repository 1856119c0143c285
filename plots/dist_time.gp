# dist_time.gp - where each rank's time went in a `gemmprof dist` run:
# stacked bars per rank (compute, exposed communication, host<->device
# transfers), the wall time of the multiply as a dot, one group per run.
#   term, out, geometry, ttl   see style.gp
#   f           CSV: x,compute_ms,comm_ms,transfer_ms,time_ms,rank
#   g           CSV: group centre x,run label
#   xmax        the last x (a gap after every run)
here = ARG0[1:strlen(ARG0) - strlen('dist_time.gp')]
load here.'style.gp'

set xrange [0.3 : xmax]
set yrange [0:*]
set offsets 0, 0, graph 0.08, 0
set ylabel 'Time per repetition (ms, median)' offset 0.5, 0
set xtics scale 0 nomirror font ',8'
unset grid
set grid ytics lc rgb '#dddddd' lw 1
set boxwidth 0.8
set style fill solid 0.9 border lc rgb '#333333'
# Okabe-Ito: compute blue, comm vermillion, transfer bluish green.
plot f using 1:($2 + $3 + $4):xtic(6) with boxes lc rgb '#009E73' dt 1 \
         title 'transfer (host-device copies)', \
     f using 1:($2 + $3) with boxes lc rgb '#D55E00' dt 1 \
         title 'comm (exposed panel broadcasts)', \
     f using 1:2 with boxes lc rgb '#0072B2' dt 1 title 'compute (local GEMMs)', \
     f using 1:5 with points pt 7 ps 0.9 lc rgb '#000000' \
         title 'wall time of the multiply', \
     g using 1:(0):2 with labels rotate by 30 right offset 0.8, -2.0 font ',8' notitle
