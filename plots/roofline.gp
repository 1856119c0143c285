# roofline.gp - log-log roofline: measured and theoretical ceilings, the
# ridge point, every kernel a labelled point at (ai_dram, GFLOP/s).
# gemmprof plot computes everything that needs choosing (which rows, the
# ridge, where labels go) and passes it in:
#   term, out          see style.gp
#   pts                CSV: label,ai_dram,gflops,ai_l2,lx,ly,just,moved
#                      (lx,ly: label position; just: L or R alignment;
#                      moved: 1 if the label is above or below its point)
#   nmoved             how many labels moved (they get a leader line)
#   bw_m, bw_t         DRAM bandwidth, measured / theoretical, GB/s (NaN: none)
#   l2_m, smem_m       L2 / shared-memory bandwidth, GB/s (NaN: not drawn)
#   pkm_v, pkm_n       measured compute ceilings (GFLOP/s) and their names
#   pkt_v, pkt_n       theoretical ones (word lists of equal length)
#   ridge_x, ridge_y   the ridge point (FLOP/byte, GFLOP/s)
#   ridge_lx, ridge_ly, ridge_just   where its label goes: left or right
#   hier               1: also plot L2 points (ai_l2) joined to DRAM points
#   xmin,xmax,ymin,ymax  axis ranges; ttl  title
if (!exists('w')) w = 8.5
if (!exists('h')) h = 5.2
here = ARG0[1:strlen(ARG0) - strlen('roofline.gp')]
load here.'style.gp'

set title ttl
set logscale xy 10
set xrange [xmin:xmax]
set yrange [ymin:ymax]
set format x '%g'
set format y '%g'
set xlabel hier ? 'Arithmetic intensity (FLOP/byte of DRAM traffic; squares: of L2 traffic)' \
               : 'Arithmetic intensity (FLOP/byte of DRAM traffic)'
set ylabel 'Performance (GFLOP/s)'
set key outside right top Left reverse samplen 2 spacing 1.2 box lc rgb '#bbbbbb'
set samples 1000

min(a, b) = (a < b) ? a : b
roof(x, bw, pk) = min(bw * x, pk)
has(v) = (v == v)
# The first compute ceiling caps the bandwidth lines (measured ones the
# measured, theoretical ones the theoretical, either where one is missing).
# (wnum: the i-th number of a word list; gnuplot evaluates a loop body once
# even when the loop is empty, so it must not fail on an empty list.)
wnum(list, i) = (i <= words(list)) ? word(list, i) + 0 : NaN
pk_top = (words(pkm_v) > 0) ? wnum(pkm_v, 1) : wnum(pkt_v, 1)
pkt_top = (words(pkt_v) > 0) ? wnum(pkt_v, 1) : pk_top

set label 1 sprintf('ridge %.3g FLOP/B', ridge_x) at ridge_lx, ridge_ly \
    @ridge_just font ',9' tc rgb '#8b0000'

lab_l(x) = (strcol(7) eq 'L') ? x : NaN
lab_r(x) = (strcol(7) eq 'R') ? x : NaN

# gnuplot reads a data file even for an empty iteration, so the L2 points
# are added only when asked for.
l2pts = (hier == 0) ? "" : \
  "pts using 4:3:($2 - $4):(0) with vectors nohead lc rgb '#999999' lw 1 dt 3 notitle, " . \
  "pts using 4:3 with points pt 4 ps 1.0 lc rgb '#444444' lw 1.5 title 'kernel at L2 intensity', "
leaders = (nmoved == 0) ? "" : \
  "pts using 2:3:($8 != 0 ? $5 - $2 : NaN):($6 - $3) with vectors nohead lc rgb '#888888' lw 0.7 notitle, "
plot \
  for [i=1:words(pkm_v)] roof(x, has(bw_m) ? bw_m : bw_t, wnum(pkm_v, i)) \
      lc rgb (i == 1 ? '#8b0000' : '#b8860b') lw 2.5 \
      title sprintf('%s FMA %.4g TFLOP/s (measured)', word(pkm_n, i), wnum(pkm_v, i) / 1000), \
  for [i=1:words(pkt_v)] wnum(pkt_v, i) \
      lc rgb (i == 1 ? '#8b0000' : '#b8860b') lw 1.2 dt 2 \
      title sprintf('%s FMA %.4g TFLOP/s (theoretical)', word(pkt_n, i), wnum(pkt_v, i) / 1000), \
  for [i=1:has(bw_m)] bw_m * x < pk_top ? bw_m * x : NaN lc rgb '#00008b' lw 2.5 \
      title sprintf('DRAM %.0f GB/s (measured)', bw_m), \
  for [i=1:has(bw_t)] bw_t * x < pkt_top ? bw_t * x : NaN lc rgb '#00008b' lw 1.2 dt 2 \
      title sprintf('DRAM %.0f GB/s (theoretical)', bw_t), \
  for [i=1:has(l2_m)] l2_m * x < pk_top ? l2_m * x : NaN lc rgb '#2e8b57' lw 2 dt 4 \
      title sprintf('L2 %.0f GB/s (measured)', l2_m), \
  for [i=1:has(smem_m)] smem_m * x < pk_top ? smem_m * x : NaN lc rgb '#6a3d9a' lw 2 dt 5 \
      title sprintf('shared mem %.0f GB/s (measured)', smem_m), \
  '+' using (ridge_x):(ridge_y) every ::0::0 with points pt 6 ps 2 lc rgb '#8b0000' lw 2 \
      title 'ridge point', \
  @l2pts @leaders \
  keyentry with points pt 7 ps 1.1 lc rgb '#555555' title 'kernel at DRAM intensity', \
  pts using 2:3:($0 + 1) with points pt 7 ps 1.1 lc variable notitle, \
  pts using (lab_l($5)):6:1 with labels left font ',9' notitle, \
  pts using (lab_r($5)):6:1 with labels right font ',9' notitle
