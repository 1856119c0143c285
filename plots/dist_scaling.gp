# dist_scaling.gp - strong scaling of `gemmprof dist`, laid out by
# src/plot/dist_scaling.c: one column of panels per transport; on top the
# speed-up over one GPU with the ideal line, under it the parallel
# efficiency against 100%; each (kernel, transport) one series; each point
# tagged with its process grid (leader lines where the tag stands apart).
#   term, out, geometry, ttl, note1, note2   see style.gp
#   f        CSV blocks (two blank lines apart): per series its points
#            x,speedup,efficiency_pct,ranks,grid,best,gflops; then per
#            series its line (the best grid at each GPU count), same columns
#   tf       CSV blocks, one per column: the grid tags, shown,px,py,
#            anchor_x,anchor_y,just (L|R),leader (0|1),leader_x,leader_y
#   names    the series' legend titles, one word each
#   ncols    columns; for column C: sClm..sCtm, eClm..eCtm (the speed-up and
#            efficiency panels' edges), cserC (its series, "1 2"), cheadC
#            (its heading), ntagC (tags in its block)
#   xmin, xmax, xt, smax, emax   the x range and tics (the GPU counts), the
#            y axes' tops
here = ARG0[1:strlen(ARG0) - strlen('dist_scaling.gp')]
load here.'style.gp'

ns = words(names)
# the ideal: black, dashed, thinner than the series (solid, in colour)
ideal = "lc rgb '#000000' lw 1.5 dt (6, 4)"
do for [i=1:2] {
    set label 901 + i value(sprintf('note%d', i)) at screen cmid, ctop - (13 + 11 * i) * pty \
        center font ',8' tc rgb '#8b0000' front
}
v(s, c) = value(sprintf(s, c))
lab_l(x) = (strcol(6) eq 'L') ? x : NaN
lab_r(x) = (strcol(6) eq 'R') ? x : NaN
set multiplot
set xrange [xmin : xmax]
eval('set xtics '.xt)
set offsets 0, 0, 0, 0
do for [c=1:ncols] {
    cs = v('cser%d', c)
    # ---- speed-up: the ideal line, each series' line and points, the tags
    set lmargin at screen v('s%dlm', c)
    set rmargin at screen v('s%drm', c)
    set bmargin at screen v('s%dbm', c)
    set tmargin at screen v('s%dtm', c)
    set label 930 v('chead%d', c) at screen (v('s%dlm', c) + v('s%drm', c)) / 2, \
        v('s%dtm', c) + 5 * pty center font ',9' front
    set yrange [0 : smax]
    set format x ''
    unset xlabel
    set format y (c == 1 ? '%g' : '')
    set ylabel (c == 1 ? 'Speed-up over 1 GPU' : '') offset 0.5, 0
    # (built as a string and eval'd: a macro in a loop is expanded once,
    # before the loop runs)
    cmd = 'plot '
    if (c == 1) {
        cmd = cmd . "for [i=1:ns] keyentry with linespoints lt i dt 1 title word(names, i), " . \
              "keyentry with lines ".ideal." title 'ideal (speed-up = GPUs)', "
    }
    cmd = cmd . "x with lines ".ideal." notitle, " . \
          "for [w in cs] f index (ns + w - 1) using 1:2 with lines lt (w + 0) dt 1 notitle, " . \
          "for [w in cs] f index (w - 1) using 1:2 with points lt (w + 0) notitle"
    if (v('ntag%d', c) > 0) {
        cmd = cmd . ", tf index (c - 1) using 2:3:($7 != 0 ? $8 - $2 : NaN):($9 - $3) " . \
              "with vectors nohead lc rgb '#777777' lw 0.8 dt 1 notitle, " . \
              "tf index (c - 1) using (lab_l($4)):5:1 with labels left font ',8' notitle, " . \
              "tf index (c - 1) using (lab_r($4)):5:1 with labels right font ',8' notitle"
    }
    eval(cmd)
    unset label 930
    unset label 901
    unset label 902
    unset label 903
    do for [i=911:918] { unset label i }
    # ---- efficiency, under it
    set lmargin at screen v('e%dlm', c)
    set rmargin at screen v('e%drm', c)
    set bmargin at screen v('e%dbm', c)
    set tmargin at screen v('e%dtm', c)
    set yrange [0 : emax]
    set ytics 0, 50
    set format x '%g'
    set xlabel 'GPUs (one MPI rank each)' offset 0, 0.3
    set ylabel (c == 1 ? sprintf('Efficiency (%s)', pct) : '') offset 0.5, 0
    plot 100 with lines @ideal notitle, \
         for [w in cs] f index (ns + w - 1) using 1:3 with lines lt (w + 0) dt 1 notitle, \
         for [w in cs] f index (w - 1) using 1:3 with points lt (w + 0) notitle
    set ytics autofreq
}
unset multiplot
