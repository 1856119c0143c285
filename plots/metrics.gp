# metrics.gp - the "why" behind each rung of the ladder, one size, four bar
# charts: DRAM traffic against the compulsory minimum, shared-memory bank
# conflicts, register spills, achieved against theoretical occupancy.
#   term, out   see style.gp
#   f           CSV, one row per kernel in ladder order: label,dram_mb,
#               compulsory_mb,bank_ratio,spill_bytes,occ_achieved,occ_theoretical
#   nrow        rows in f
#   has_dram, has_comp, has_bank, has_spill, has_ach, has_theo   1 if there is any value
#               (has_ach: achieved occupancy; has_theo: theoretical)
#   dram_lo, dram_hi, bank_hi, spill_hi      y ranges; ttl
if (!exists('w')) w = 11
if (!exists('h')) h = 7.5
here = ARG0[1:strlen(ARG0) - strlen('metrics.gp')]
load here.'style.gp'

set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border rgb '#333333'
set boxwidth 0.9
set xtics rotate by 35 right nomirror font ',8'
set grid noxtics nomxtics ytics
set key inside top right horizontal samplen 1.5 font ',9' opaque box lc rgb '#bbbbbb'

set xrange [-0.6:nrow - 0.4]

# A panel with nothing measured says so instead of drawing empty bars (it
# does not read f: gnuplot would warn about a column with no numbers).
empty_panel = "set label 1 why at graph 0.5, 0.5 center; unset xtics; " . \
              "plot 1e30 notitle; unset label 1; " . \
              "set xtics rotate by 35 right nomirror font ',8'"

set multiplot layout 2, 2 title ttl font ',12'

set title 'DRAM traffic vs compulsory (A, B read once, C written once)'
set ylabel 'MB (log scale)'
set logscale y 10
set format y '%g'
set yrange [dram_lo:dram_hi]
# (traced kernels have no GEMM shape, so no compulsory minimum)
if (has_dram) {
    if (has_comp) {
        plot f using 2:xtic(1) lc rgb '#1f77b4' title 'DRAM bytes (read + write)', \
             '' using 3 lc rgb '#bbbbbb' title 'compulsory bytes'
    } else {
        plot f using 2:xtic(1) lc rgb '#1f77b4' title 'DRAM bytes (read + write)'
    }
} else {
    why = 'not measured (run with counters)'
    @empty_panel
}
unset logscale y

set title 'Shared-memory bank conflicts (conflicts per wavefront)'
set ylabel 'ratio'
set yrange [0:bank_hi]
if (has_bank) {
    plot f using 4:xtic(1) lc rgb '#ff7f0e' title 'bank-conflict ratio'
} else {
    why = 'not measured (run with counters)'
    @empty_panel
}

set title 'Register spills (ptxas, per thread)'
set ylabel 'bytes (store + load)'
set yrange [0:spill_hi]
if (has_spill) {
    plot f using 5:xtic(1) lc rgb '#d62728' title 'spill bytes'
} else {
    why = 'not reported'
    @empty_panel
}

set title 'Occupancy: achieved vs theoretical'
set ylabel sprintf('%s of peak warps', pct)
set yrange [0:130]
set ytics 0, 20, 100
achieved = "f using 6:xtic(1) lc rgb '#2ca02c' title 'achieved'"
theoretical = "f using 7:xtic(1) lc rgb '#bbbbbb' title 'theoretical'"
if (has_ach && has_theo) {
    plot @achieved, '' using 7 lc rgb '#bbbbbb' title 'theoretical'
} else { if (has_ach) {
    plot @achieved
} else { if (has_theo) {
    plot @theoretical
} else {
    why = 'not measured (run with counters)'
    @empty_panel
}}}
unset multiplot
