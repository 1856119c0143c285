#!/usr/bin/env bash
# plot_dist.sh - `gemmprof plot` on `gemmprof dist` run files (CPU only):
# the dist charts are drawn by name and with --charts all (the other charts
# skip with notes), and a malformed dist file ends it with exit 2, one line
# naming the file, and nothing left behind.  Drawing details are tested by
# test_plot_dist.c.
. "$(dirname "$0")/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
export GEMMPROF_PLOTS=${GEMMPROF_PLOTS:-$here/../plots}
FX=$here/fixtures/dist
for tool in gnuplot pdfinfo pdftotext; do
    if ! command -v $tool >/dev/null; then
        skip plot_dist/all "$tool not installed (apt-get install gnuplot-nox poppler-utils)"
        exit 0
    fi
done

O=$TMP/charts
"$GP" plot "$FX"/cublas-*.csv "$FX"/skinny-*.csv --charts dist_scaling,dist_time \
    --out "$O" >"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc = 0 ] && pass plot_dist/by_name_exit_0 || fail plot_dist/by_name_exit_0 "exit $rc: $(cat "$TMP/err")"
want="$O/dist_scaling-8192x8192x8192.pdf $O/dist_scaling-16384x16384x128.pdf $O/dist_time-8192x8192x8192.pdf $O/dist_time-16384x16384x128.pdf"
[ "$(sort "$TMP/out" | tr '\n' ' ')" = "$(tr ' ' '\n' <<<"$want" | sort | tr '\n' ' ')" ] &&
    pass plot_dist/one_chart_per_shape || fail plot_dist/one_chart_per_shape "$(cat "$TMP/out")"
text=$(pdftotext "$O/dist_scaling-8192x8192x8192.pdf" - 2>/dev/null)
grep -q 'GPUs (one MPI rank each)' <<<"$text" && grep -q 'Speed-up over 1 GPU' <<<"$text" &&
    grep -q 'Efficiency (%)' <<<"$text" &&
    pass plot_dist/scaling_axis_titles || fail plot_dist/scaling_axis_titles "$text"

"$GP" plot "$FX"/cublas-*.csv --out "$TMP/all" >"$TMP/out" 2>"$TMP/err"
rc=$?
if [ $rc = 0 ] && [ -s "$TMP/all/dist_scaling.pdf" ] && [ -s "$TMP/all/dist_time.pdf" ]; then
    pass plot_dist/all_charts_include_dist
else
    fail plot_dist/all_charts_include_dist "exit $rc: $(cat "$TMP/err")"
fi

expect plot_dist/malformed_exit_2 2 'malformed\.csv' -- "$GP" plot "$FX/cublas-1.csv" "$FX/malformed.csv" --out "$TMP/bad"
[ "$(wc -l <"$TMP/err")" = 1 ] && pass plot_dist/malformed_one_line || fail plot_dist/malformed_one_line "$(cat "$TMP/err")"
[ ! -e "$TMP/bad" ] && pass plot_dist/malformed_leaves_nothing || fail plot_dist/malformed_leaves_nothing "$(ls -A "$TMP/bad")"

expect plot_dist/single_gpu_data_skips_dist 2 'dist_scaling: skipped' -- \
    "$GP" plot "$here/fixtures/run-fixture.csv" --charts dist_scaling,dist_time --out "$TMP/none"
