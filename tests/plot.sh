#!/usr/bin/env bash
# plot.sh - charts and reports from data files (CPU only): every chart from
# the fixtures and from the committed reference data, checked with pdfinfo
# (pages) and pdftotext (kernels, axis titles); bad input gives exit 2, one
# line naming the file, and leaves nothing behind.
. "$(dirname "$0")/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
export GEMMPROF_PLOTS=${GEMMPROF_PLOTS:-$here/../plots}
FX=$here/fixtures
RUN=$FX/run-fixture.csv SWEEP=$FX/sweep-fixture.csv CEIL=$FX/ceilings-fixture.csv

for tool in gnuplot pdfinfo pdftotext pdfunite; do
    if ! command -v $tool >/dev/null; then
        skip plot/all "$tool not installed (apt-get install gnuplot-nox poppler-utils)"
        exit 0
    fi
done

pages() { pdfinfo "$1" 2>/dev/null | awk '/^Pages:/ { print $2 }'; }

# check_pdf NAME FILE PAGES WORD...: FILE has PAGES pages and its text
# holds every WORD (rotated labels come out whole only with -raw).
check_pdf() {
    local name=$1 f=$2 want=$3; shift 3
    if [ ! -s "$f" ]; then fail "$name" "$f missing"; return; fi
    local n; n=$(pages "$f")
    if [ "$n" != "$want" ]; then fail "$name" "$f has ${n:-no} pages, wanted $want"; return; fi
    local text; text=$(pdftotext "$f" - 2>/dev/null; pdftotext -raw "$f" - 2>/dev/null)
    for w in "$@"; do
        if ! grep -qF -- "$w" <<<"$text"; then fail "$name" "no '$w' in the text of $f"; return; fi
    done
    pass "$name"
}

# ---- every chart from the fixtures ----
O=$TMP/charts
"$GP" plot "$RUN" "$SWEEP" --ceilings "$CEIL" --out "$O" >"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc = 0 ] && pass plot/fixtures_exit_0 || fail plot/fixtures_exit_0 "exit $rc: $(cat "$TMP/err")"
grep -qi warning "$TMP/err" && fail plot/no_gnuplot_warnings "$(cat "$TMP/err")" || pass plot/no_gnuplot_warnings
[ "$(grep -c "^$O/" "$TMP/out")" = 5 ] && pass plot/prints_each_path || fail plot/prints_each_path "$(cat "$TMP/out")"
KERNELS=(naive coalesced smem blocktile_2d warptile cublas)
check_pdf plot/roofline "$O/roofline.pdf" 1 "${KERNELS[@]}" "Arithmetic intensity" \
    "Performance (GFLOP/s)" "ridge" "DRAM 4300 GB/s (measured)" "FP32 FMA" "size 4096"
check_pdf plot/gflops_vs_n "$O/gflops_vs_n.pdf" 1 "${KERNELS[@]}" tiled \
    "Performance (GFLOP/s)" "N (M = N = K)"
check_pdf plot/speedup "$O/speedup.pdf" 1 "${KERNELS[@]}" "Speedup over naive" "% of cuBLAS"
check_pdf plot/crossover "$O/crossover-tiled.pdf" 1 32x32x4/4x2 64x64x8/8x4 128x128x8/8x8 \
    "best above" "N (M = N = K)"
# (pdftotext splits "smem" of the rotated tick labels)
check_pdf plot/metrics "$O/metrics.pdf" 1 naive coalesced blocktile_2d warptile cublas \
    "DRAM traffic" "bank conflicts" \
    "spills" "Occupancy"
# The synthetic crossovers: 32x32 -> 64x64 between 128 and 256, 64x64 ->
# 128x128 between 512 and 1024.
pdftotext "$O/crossover-tiled.pdf" - | grep -Eq '(1[3-9][0-9]|2[0-4][0-9]).*64x64x8/8x4 best above' &&
    pdftotext "$O/crossover-tiled.pdf" - | grep -Eq '([5-9][0-9][0-9]|10[0-2][0-9]).*128x128x8/8x8 best above' &&
    pass plot/crossover_sizes_labelled || fail plot/crossover_sizes_labelled "$(pdftotext "$O/crossover-tiled.pdf" - | grep best)"
# double_buffer failed verification at 4096: not a point on the roofline.
pdftotext "$O/roofline.pdf" - | grep -q double_buffer &&
    fail plot/failed_kernel_not_drawn || pass plot/failed_kernel_not_drawn
ls -A "$O" | grep -q '^\.' && fail plot/no_scratch_left "$(ls -A "$O")" || pass plot/no_scratch_left

# ---- options ----
"$GP" plot "$RUN" --ceilings "$CEIL" --charts roofline --hierarchical --out "$TMP/h" >/dev/null 2>&1
check_pdf plot/hierarchical_adds_l2 "$TMP/h/roofline.pdf" 1 "L2 11000 GB/s" "shared mem 28000 GB/s" \
    "kernel at L2 intensity"
"$GP" plot "$RUN" --ceilings "$CEIL" --charts roofline,metrics --size 1024 --out "$TMP/s" >/dev/null 2>&1
check_pdf plot/size_option "$TMP/s/roofline.pdf" 1 "size 1024" double_buffer
for fmt in png svg; do
    "$GP" plot "$RUN" --ceilings "$CEIL" --format $fmt --out "$TMP/$fmt" >/dev/null 2>&1
    n=$(ls "$TMP/$fmt"/*.$fmt 2>/dev/null | wc -l)
    [ "$n" = 4 ] && pass plot/format_$fmt || fail plot/format_$fmt "$n files: $(ls "$TMP/$fmt" 2>&1)"
done
"$GP" plot "$RUN" --ceilings "$CEIL" --format cairolatex --charts roofline --out "$TMP/tex" >/dev/null 2>&1
if [ -s "$TMP/tex/roofline.tex" ] && [ -s "$TMP/tex/roofline.pdf" ] &&
   grep -q 'blocktile\\_2d' "$TMP/tex/roofline.tex" && grep -q 'includegraphics.*{roofline}' "$TMP/tex/roofline.tex"; then
    pass plot/format_cairolatex_escaped
else
    fail plot/format_cairolatex_escaped "$(ls "$TMP/tex" 2>&1)"
fi

# Only theoretical ceilings known (the probe could not run): drawn from those.
sed 's/^fp32_fma,GFLOP\/s,[0-9.]*,/fp32_fma,GFLOP\/s,NA,/; s/^dram_bw,GB\/s,[0-9.]*,/dram_bw,GB\/s,NA,/' \
    "$CEIL" >"$TMP/theoretical.csv"
"$GP" plot "$RUN" --ceilings "$TMP/theoretical.csv" --charts roofline --out "$TMP/t" >/dev/null 2>"$TMP/err"
check_pdf plot/roofline_theoretical_ceilings_only "$TMP/t/roofline.pdf" 1 "(theoretical)" naive
grep -q '(measured)' <(pdftotext "$TMP/t/roofline.pdf" -) && fail plot/no_measured_line_without_measurement ||
    pass plot/no_measured_line_without_measurement

# ---- charts the data cannot support: a note, not an error ----
expect plot/roofline_needs_ceilings 0 '^gemmprof: roofline: skipped, no ceilings file' -- \
    "$GP" plot "$RUN" --out "$TMP/n1"
expect plot/roofline_needs_counters 0 'roofline: skipped, no ai_dram values \(run with counters\)' -- \
    "$GP" plot "$SWEEP" --ceilings "$CEIL" --out "$TMP/n2"
grep -qi warning "$TMP/err" && fail plot/sweep_only_no_gnuplot_warnings "$(cat "$TMP/err")" ||
    pass plot/sweep_only_no_gnuplot_warnings
expect plot/no_chart_possible_exit_2 2 'no chart could be drawn' -- \
    "$GP" plot "$RUN" --charts roofline --out "$TMP/n3"
[ -e "$TMP/n3" ] && fail plot/no_chart_leaves_nothing || pass plot/no_chart_leaves_nothing

# ---- bad input: exit 2, one line naming the file, nothing written ----
printf '' >"$TMP/empty.csv"
printf '\x89PNG\r\n\x1a\n\x00\x00binary' >"$TMP/image.csv"
grep -v '^#' "$RUN" | cut -d, -f1-5,7- >"$TMP/no_k.csv"          # drops column k
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "gflops") g = i; if ($i == "ai_dram") a = i } print; next }
                  { $g = "NA"; $a = "NA"; print }' <(grep -v '^#' "$RUN") >"$TMP/all_na.csv"
bad() {
    local name=$1 re=$2 file=$3
    expect "plot/bad_input_$name" 2 "^gemmprof: $re" -- "$GP" plot "$file" --out "$TMP/bad-$name"
    [ "$(wc -l <"$TMP/err")" = 1 ] && pass "plot/bad_input_${name}_one_line" ||
        fail "plot/bad_input_${name}_one_line" "$(cat "$TMP/err")"
    [ -e "$TMP/bad-$name" ] && fail "plot/bad_input_${name}_leaves_nothing" ||
        pass "plot/bad_input_${name}_leaves_nothing"
}
bad empty ".*empty.csv: empty" "$TMP/empty.csv"
bad not_csv ".*image.csv: .*no column 'kernel'" "$TMP/image.csv"
bad missing_column ".*no_k.csv: no column 'k'" "$TMP/no_k.csv"
bad all_na ".*all_na.csv: nothing measured" "$TMP/all_na.csv"
bad no_such_file ".*nope.csv: No such file" "$TMP/nope.csv"
expect plot/unknown_chart 2 "unknown chart 'pie'" -- "$GP" plot "$RUN" --charts pie
expect plot/unknown_format 2 "unknown format 'jpeg'" -- "$GP" plot "$RUN" --format jpeg
expect plot/no_data_file 2 'no data file given' -- "$GP" plot
expect plot/gnuplot_missing 2 '^gemmprof: gnuplot not found: apt-get install gnuplot-nox' -- \
    env PATH=/nonexistent "$GP" plot "$RUN" --out "$TMP/nognuplot"
[ -e "$TMP/nognuplot" ] && fail plot/gnuplot_missing_leaves_nothing || pass plot/gnuplot_missing_leaves_nothing

# ---- report ----
R=$TMP/reports
"$GP" report "$RUN" "$SWEEP" --ceilings "$CEIL" --out "$R" >"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc = 0 ] && pass report/exit_0 || fail report/exit_0 "exit $rc: $(cat "$TMP/err")"
D=$R/run-fixture
check_pdf report/pdf_has_summary_and_every_chart "$D/report.pdf" 6 "gemmprof report: run-fixture" \
    "Synthetic GPU (fixture)" "${KERNELS[@]}" FAILED "GFLOP/s by size" "Arithmetic intensity" \
    "Speedup over naive" "best above" "Occupancy"
missing=
for f in figures/{roofline,gflops_vs_n,speedup,crossover-tiled,metrics}.pdf \
         latex/{roofline,gflops_vs_n,speedup,crossover-tiled,metrics}.{tex,pdf} \
         tables/summary.{md,tex} tables/gflops_by_size.{md,tex} \
         data/run-fixture.csv data/sweep-fixture.csv data/ceilings-fixture.csv README.md; do
    [ -s "$D/$f" ] || missing="$missing $f"
done
[ -z "$missing" ] && pass report/every_file || fail report/every_file "missing:$missing"
grep -q '\\toprule' "$D/tables/summary.tex" && grep -q 'blocktile\\_2d' "$D/tables/summary.tex" &&
    grep -q '\\% cuBLAS' "$D/tables/summary.tex" && pass report/latex_table_booktabs ||
    fail report/latex_table_booktabs "$(head -12 "$D/tables/summary.tex")"
grep -q '^| warptile | fp32 |' "$D/tables/summary.md" && grep -q '^| double_buffer .*FAILED' "$D/tables/summary.md" &&
    pass report/markdown_table || fail report/markdown_table "$(cat "$D/tables/summary.md")"
cmp -s "$RUN" "$D/data/run-fixture.csv" && pass report/copies_data || fail report/copies_data
ls -A "$R" | grep -q '^\.' && fail report/no_scratch_left "$(ls -A "$R")" || pass report/no_scratch_left
"$GP" report "$RUN" --ceilings "$CEIL" --out "$R" --name run-fixture >/dev/null 2>&1
[ "$(pages "$D/report.pdf")" = 5 ] && [ ! -e "$D/figures/crossover-tiled.pdf" ] &&
    ! ls -A "$R" | grep -q '^\.' && pass report/replaces_old_report ||
    fail report/replaces_old_report "$(ls -A "$R" "$D/figures")"
expect report/bad_data_exit_2 2 "^gemmprof: .*empty.csv: empty" -- "$GP" report "$TMP/empty.csv" --out "$TMP/badrep"
[ -e "$TMP/badrep" ] && fail report/bad_data_leaves_nothing || pass report/bad_data_leaves_nothing
expect report/bad_name 2 "bad --name" -- "$GP" report "$RUN" --name ../x --out "$TMP/badname"

# ---- the committed reference data (reports/data/<gpu>/), once there is some ----
ref=$(ls "$here"/../reports/data/*/*.csv 2>/dev/null | head -1)
if [ -z "$ref" ]; then
    skip plot/reference_data "no reports/data/<gpu>/*.csv committed yet"
else
    for dir in "$here"/../reports/data/*/; do
        gpu=$(basename "$dir")
        "$GP" report "$dir"*.csv --name "$gpu" --out "$TMP/ref" >"$TMP/out" 2>"$TMP/err"
        rc=$?
        n=$(pages "$TMP/ref/$gpu/report.pdf")
        [ $rc = 0 ] && [ "${n:-0}" -ge 2 ] && pass "plot/reference_data_$gpu" ||
            fail "plot/reference_data_$gpu" "exit $rc, ${n:-no} pages: $(cat "$TMP/err")"
    done
fi
