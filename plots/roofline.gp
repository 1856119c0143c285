# roofline.gp - log-log roofline of one family: its roofs, the ridge point,
# each kernel a point at (ai_dram, performance) with its label.  gemmprof
# lays everything out (src/plot/roofline.c) and passes it in:
#   term, out, geometry, ttl   see style.gp
#   segs     CSV blocks (two blank lines apart), one per roof: two rows x,y
#   snames   the roofs' legend titles, one word each, in block order
#   sstyles  each roof's colour and kind, 'COLOUR:1' measured, ':0' theoretical
#   pts      CSV, one row per kernel, then the ridge: shown,ai_dram,perf,
#            ai_l2,label_x,label_y,just (L|R),leader (0|1),leader_x,leader_y,lt
#   npts, plts   kernel rows in pts, and each one's linetype (style.gp)
#   knames, klts   numbered points: "N name" (one word each) and their lt
#   hier     1: also the L2 points (ai_l2) joined to the DRAM ones
#   xmin, xmax, ymin, ymax, xt, yt   axis ranges and tic lists
#   ylab, note1..note3   the y axis title; lines under the title: why points
#            lie above every roof, which markers are drawn over others
#   pss      (optional) each kernel's marker size (ps), one word per point:
#            filled circles with a rim, sized by trace_roofline.gp's caller
#   here     (optional) the plots/ folder, set by a script that loads this
if (!exists("here")) here = ARG0[1:strlen(ARG0) - strlen('roofline.gp')]
load here.'style.gp'

set logscale xy 10
set xrange [xmin:xmax]
set yrange [ymin:ymax]
eval('set xtics '.xt)
eval('set ytics '.yt)
set xlabel 'Arithmetic intensity (FLOP/byte of DRAM traffic)' offset 0, 0.3
set ylabel ylab offset 0.5, 0
if (hier) { set xlabel 'Arithmetic intensity (FLOP/byte of DRAM traffic; squares: of L2 traffic)' }
do for [i=1:3] {
    set label 901 + i value(sprintf('note%d', i)) at screen cmid, ctop - (13 + 11 * i) * pty \
        center font ',8' tc rgb '#8b0000' front
}

col(s) = s[1:strstrt(s, ':') - 1]
measured(s) = s[strstrt(s, ':') + 1:] eq '1'
# (a dash type in parentheses would be read as a dash pattern)
dash(s) = measured(s) ? 1 : 2
lab_l(x) = (strcol(7) eq 'L') ? x : NaN
lab_r(x) = (strcol(7) eq 'R') ? x : NaN
nr = words(snames)
nk = words(knames)

# Leaders under the points, points under the labels.  gnuplot reads a data
# file even for an empty loop, so optional parts are strings added only
# when there is something to draw.
l2pts = (hier == 0) ? "" : \
  "pts every ::0::npts-1 using 4:3:($2 - $4):(0) with vectors nohead lc rgb '#999999' lw 1 dt 3 notitle, " . \
  "pts every ::0::npts-1 using 4:3 with points pt 4 ps 0.9 lc rgb '#444444' lw 1.5 title 'kernel at L2 intensity', "
# Sized markers: filled circles, their rims drawn after them all.
psz = exists("pss") ? "pt 7 ps (word(pss, i) + 0)" : ""
rims = !exists("pss") ? "" : \
  "for [i=1:npts] pts every ::(i - 1)::(i - 1) using 2:3 with points pt 6 ps (word(pss, i) + 0) lw 0.8 lc rgb '#333333' notitle, "
kpt = exists("pss") ? "pt 7" : ""
keys = (nk == 0) ? "" : \
  "for [i=1:nk] keyentry with points lt (word(klts, i) + 0) ".kpt." title word(knames, i), "
plot \
  for [i=1:nr] segs index (i - 1) using 1:2 with lines lc rgb col(word(sstyles, i)) \
      lw (measured(word(sstyles, i)) ? 4 : 2.5) dt dash(word(sstyles, i)) \
      title word(snames, i), \
  pts using 2:3:($8 != 0 ? $9 - $2 : NaN):($10 - $3) with vectors nohead \
      lc rgb '#777777' lw 0.8 dt 1 notitle, \
  pts every ::npts::npts using 2:3 with points pt 6 ps 2 lw 2 lc rgb '#000000' \
      title 'ridge point', \
  @l2pts @keys \
  for [i=1:npts] pts every ::(i - 1)::(i - 1) using 2:3 with points lt (word(plts, i) + 0) @psz notitle, \
  @rims \
  pts using (lab_l($5)):6:1 with labels left font ',8' notitle, \
  pts using (lab_r($5)):6:1 with labels right font ',8' notitle
