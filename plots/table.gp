# table.gp - one page of monospaced text (the report's summary table).
#   term, out   see style.gp
#   f           text file: line number, a tab, the text (no tabs in it)
#   nlines      lines a page holds; ttl
if (!exists('w')) w = 11
if (!exists('h')) h = 8.5
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
set title ttl font ',14'
set lmargin at screen 0.04
set rmargin at screen 0.98
set tmargin at screen 0.92
set bmargin at screen 0.03
set xrange [0:1]
set yrange [-nlines - 0.5:0.5]
plot f using (0):(-$1):(stringcolumn(2)) with labels left font 'Mono,9'
