# metrics.gp - the "why" behind each rung of one family, at one size: one
# row per kernel (ladder order, top to bottom), four panels side by side:
# DRAM traffic against the compulsory minimum, shared-memory bank
# conflicts, register spills, achieved against theoretical occupancy.
#   term, out, geometry, ttl   see style.gp
#   gap         between panels (screen)
#   f           CSV, one row per kernel: label,dram_mb,compulsory_mb,
#               bank_ratio,spill_bytes,occ_achieved,occ_theoretical
#   nrow        rows in f
#   has_dram, has_comp, has_bank, has_spill, has_ach, has_theo   1 if there
#               is any value (has_comp: no compulsory minimum for traced
#               kernels, which have no GEMM shape)
#   no_spill    1 if every kernel's spills are 0
#   dram_lo, dram_hi, dram_t   DRAM axis (log) and its tics
#   bank_hi, bank_step, spill_hi, spill_step   the linear axes
here = ARG0[1:strlen(ARG0) - strlen('metrics.gp')]
load here.'style.gp'

pw = (rm - lm - 3 * gap) / 4
panel(i) = lm + (i - 1) * (pw + gap)
set yrange [nrow - 0.5 : -0.5]
set grid noytics xtics
set style fill solid 0.9 noborder
set tics font ',8'
set title font ',8' offset 0, -0.3
# Two bars share a row (upper, lower); one bar takes most of it.
up(y) = y - 0.42
mid(y) = y
lowb(y) = y + 0.42
one_lo(y) = y - 0.32
one_hi(y) = y + 0.32
notmeasured = "set label 1 why at graph 0.5, 0.5 center font ',8'; unset xtics; plot 1e30 notitle; unset label 1; set xtics"

set multiplot
set lmargin at screen panel(1)
set rmargin at screen panel(1) + pw
set title "DRAM traffic\n(MB, log scale)"
set logscale x 10
set xrange [dram_lo:dram_hi]
eval('set xtics '.dram_t)
set ytics scale 0 font ',8'
keys = "keyentry with boxes fc rgb '#0072B2' title 'DRAM bytes (read + write)', " . \
       "keyentry with boxes fc rgb '#BBBBBB' title 'compulsory (A, B once, C once)', " . \
       "keyentry with boxes fc rgb '#009E73' title 'achieved occupancy', " . \
       "keyentry with boxes fc rgb '#CCCCCC' title 'theoretical occupancy'"
if (has_dram && has_comp) {
    plot f using (dram_lo):0:(dram_lo):2:(up($0)):(mid($0)):ytic(1) with boxxyerror \
             fc rgb '#0072B2' notitle, \
         '' using (dram_lo):0:(dram_lo):3:(mid($0)):(lowb($0)) with boxxyerror \
             fc rgb '#BBBBBB' notitle, \
         @keys
}
if (has_dram && !has_comp) {
    plot f using (dram_lo):0:(dram_lo):2:(one_lo($0)):(one_hi($0)):ytic(1) with boxxyerror \
             fc rgb '#0072B2' notitle, \
         @keys
}
if (!has_dram) {
    set label 1 'not measured' at graph 0.5, 0.5 center font ',8'
    plot f using (dram_lo):0:ytic(1) with points ps 0 notitle, @keys
    unset label 1
}
do for [i=911:918] { unset label i }
unset label 901
unset key
unset logscale x
set format y ''
set ytics scale 0

set lmargin at screen panel(2)
set rmargin at screen panel(2) + pw
set title "bank conflicts\n(per wavefront)"
set xrange [0:bank_hi]
set xtics 0, bank_step nomirror
if (has_bank) {
    plot f using (0):0:(0):4:(one_lo($0)):(one_hi($0)) with boxxyerror fc rgb '#D55E00' notitle
} else {
    why = 'not measured'
    @notmeasured
}

set lmargin at screen panel(3)
set rmargin at screen panel(3) + pw
set title "register spills\n(B per thread)"
set xrange [0:spill_hi]
set xtics 0, spill_step nomirror
if (has_spill && no_spill) {
    why = 'none'
    @notmeasured
} else { if (has_spill) {
    plot f using (0):0:(0):5:(one_lo($0)):(one_hi($0)) with boxxyerror fc rgb '#CC79A7' notitle
} else {
    why = 'not reported'
    @notmeasured
}}

set lmargin at screen panel(4)
set rmargin at screen panel(4) + pw
set title sprintf("occupancy\n(%s of peak warps)", pct)
set xrange [0:100]
set xtics 0, 50 nomirror
# (a column with no number would make gnuplot warn: plot only what exists)
achieved = "f using (0):0:(0):6:(up($0)):(mid($0)) with boxxyerror fc rgb '#009E73' notitle"
theoretical = "f using (0):0:(0):7:(mid($0)):(lowb($0)) with boxxyerror fc rgb '#CCCCCC' notitle"
if (has_ach && has_theo) {
    plot @achieved, @theoretical
} else { if (has_ach) {
    plot @achieved
} else { if (has_theo) {
    plot @theoretical
} else {
    why = 'not measured'
    @notmeasured
}}}
unset multiplot
