#!/usr/bin/env bash
# bad_input.sh - damaged data files (tests/fixtures/bad) fed to diff, plot
# and report: each is refused with exit 2 and exactly one line
# "gemmprof: FILE:LINE:COL: what", and nothing is left behind: no output
# folder, no temporary folder, nothing new in the source tree.  Each case's
# line is printed under its PASS, for the record.
. "$(dirname "$0")/lib.sh"
BAD=$(dirname "$0")/fixtures/bad
GOOD=$(dirname "$0")/fixtures/diff/base.csv
DIST=$(dirname "$0")/fixtures/dist/cublas-2-1x2-nccl.csv
ONE_GPU=roofline,gflops_vs_n,speedup,crossover,metrics

# FILE:LINE:COL and the problem, in one line (diff's lines say "diff: ")
pos_re() { printf '^gemmprof: (diff: )?%s:[0-9]+:[0-9]+: .+' "$(sed 's/[.]/[.]/g' <<<"$1")"; }

tree_before=$(git status --porcelain 2>/dev/null)

# refused NAME WANT_RE -- CMD...: exit 2, one stderr line matching WANT_RE,
# nothing on stdout, nothing left in $TMP/out (created fresh for each; the
# commands' --out points into it).
refused() {
    local name=$1 re=$2; shift 3
    rm -rf "$TMP/out"; mkdir "$TMP/out"
    "$@" >"$TMP/stdout" 2>"$TMP/stderr"; local rc=$?
    local lines; lines=$(wc -l <"$TMP/stderr")
    local left; left=$(find "$TMP/out" -mindepth 1 | head -3)
    if [ "$rc" != 2 ]; then fail "$name" "exit $rc, wanted 2: $(head -c 300 "$TMP/stderr")"
    elif [ "$lines" != 1 ]; then fail "$name" "$lines lines on stderr: $(head -c 400 "$TMP/stderr")"
    elif ! grep -Eq -- "$re" "$TMP/stderr"; then fail "$name" "no /$re/ in: $(cat "$TMP/stderr")"
    elif [ -s "$TMP/stdout" ]; then fail "$name" "wrote to stdout: $(head -c 200 "$TMP/stdout")"
    elif [ -n "$left" ]; then fail "$name" "left behind: $left"
    else pass "$name"; echo "    exit 2: $(cat "$TMP/stderr")"; fi
}

O=$TMP/out
for f in "$BAD"/*.csv; do
    case=$(basename "$f" .csv); re=$(pos_re "$f")
    if [ "$case" = ceilings-nan ]; then     # a ceilings file: plot's and report's --ceilings
        refused "bad_input/$case/plot" "$re" -- "$GP" plot "$GOOD" --ceilings "$f" --out "$O/charts"
        refused "bad_input/$case/report" "$re" -- "$GP" report "$GOOD" --ceilings "$f" --out "$O/reports"
        continue
    fi
    refused "bad_input/$case/diff" "$re" -- "$GP" diff "$GOOD" "$f"
    refused "bad_input/$case/diff_as_base" "$re" -- "$GP" diff "$f" "$GOOD"
    refused "bad_input/$case/plot" "$re" -- "$GP" plot "$f" --out "$O/charts"
    refused "bad_input/$case/report" "$re" -- "$GP" report "$f" --out "$O/reports"
done

# A dist run over two GPUs given to the one-GPU charts: one line at its
# first row.  Not bad input for report (it draws the dist charts too), and
# diff pairs it with no single-GPU row.
refused bad_input/dist_to_one_gpu_charts/plot "$(pos_re "$DIST")" -- \
    "$GP" plot "$DIST" --charts "$ONE_GPU" --out "$O/charts"
refused bad_input/dist_to_one_gpu_charts/diff '^gemmprof: diff: no common rows: ' -- \
    "$GP" diff "$GOOD" "$DIST"

# plot never shows gnuplot's own lines: a script that fails, or one that
# only warns, gives one line naming the chart and the data (GEMMPROF_PLOTS
# points at copies of plots/ whose roofline.gp is replaced)
RUN=$(dirname "$0")/fixtures/run-fixture.csv
CEIL=$(dirname "$0")/fixtures/ceilings-fixture.csv
for kind in failed warned; do
    mkdir -p "$TMP/plots-$kind"; cp "$(dirname "$0")"/../plots/*.gp "$TMP/plots-$kind/"
    { echo 'set terminal dumb; set output out'
      if [ $kind = failed ]; then printf 'plot "-" using 1:2 notitle\n1 NaN\ne\n'
      else printf 'plot "-" using 1:2 notitle, x notitle\n1 NaN\ne\n'; fi
    } >"$TMP/plots-$kind/roofline.gp"
done
if command -v gnuplot >/dev/null; then
    refused bad_input/gnuplot_error_is_one_line \
        '^gemmprof: roofline[^:]*: not drawn, gnuplot failed: all points y value undefined! \(data: .*run-fixture.csv\)$' -- \
        env GEMMPROF_PLOTS="$TMP/plots-failed" "$GP" plot "$RUN" --ceilings "$CEIL" --charts roofline --out "$O/charts"
    refused bad_input/gnuplot_warning_is_one_line \
        '^gemmprof: roofline[^:]*: not drawn, gnuplot warned: [Ww]arning: empty x range \[1:1\].* \(data: .*run-fixture.csv\)$' -- \
        env GEMMPROF_PLOTS="$TMP/plots-warned" "$GP" plot "$RUN" --ceilings "$CEIL" --charts roofline --out "$O/charts"
else
    skip bad_input/gnuplot_error_is_one_line "gnuplot not installed"
    skip bad_input/gnuplot_warning_is_one_line "gnuplot not installed"
fi

# the default output folders are under results/, never the source tree
tree_after=$(git status --porcelain 2>/dev/null)
[ "$tree_before" = "$tree_after" ] && pass bad_input/source_tree_unchanged ||
    fail bad_input/source_tree_unchanged "$(diff <(echo "$tree_before") <(echo "$tree_after") | head -5)"
