# table.gp - one page of fixed-width text (the report's front pages when
# groff is not installed).
#   term, out   see style.gp; cw, ch: the paper in inches
#   f           text file: line number, a tab, the text (no tabs in it)
#   nlines      lines a page holds; ttl
here = ARG0[1:strlen(ARG0) - strlen('table.gp')]
load here.'style.gp'

# The text is one column (tab-separated, no comment character); the line
# number places it, so blank lines keep their space.
set datafile separator '\t'
set datafile commentschars ''
unset border
unset tics
unset key
unset grid
set title ttl font ',12'
set lmargin at screen 0.06
set rmargin at screen 0.97
set tmargin at screen 0.93
set bmargin at screen 0.04
set xrange [0:1]
set yrange [-nlines - 0.5:0.5]
plot f using (0):(-$1):(stringcolumn(2)) with labels left font 'Mono,7'
