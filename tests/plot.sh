#!/usr/bin/env bash
# plot.sh - charts and reports from data files (CPU only): every chart from
# the fixtures and from the committed reference data, checked with pdfinfo
# (pages) and pdftotext (kernels, axis titles; with -bbox: no two words of
# a chart overlap); the families and --family/--kernel; the report typeset
# by groff or, without it, as text pages; bad input gives exit 2, one line
# naming the file, and leaves nothing behind.
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

# check_pdf NAME FILE PAGES WORD...: FILE has PAGES pages (N+: at least N)
# and its text holds every WORD (rotated labels come out whole only with -raw).
check_pdf() {
    local name=$1 f=$2 want=$3; shift 3
    if [ ! -s "$f" ]; then fail "$name" "$f missing"; return; fi
    local n; n=$(pages "$f")
    if [ "${want%+}" != "$want" ] && [ "${n:-0}" -ge "${want%+}" ]; then :
    elif [ "$n" != "$want" ]; then fail "$name" "$f has ${n:-no} pages, wanted $want"; return; fi
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
# The fixture has no warptiling rung: FP32 is one family, "fp32".
KERNELS=(naive coalesced smem blocktile_2d warptile cublas)
check_pdf plot/roofline "$O/roofline-fp32.pdf" 1 "${KERNELS[@]}" "Arithmetic intensity" \
    "Performance (TFLOP/s)" "ridge" "DRAM 4300 GB/s (measured)" "FP32 FMA" "size 4096" \
    "L2 11000 GB/s (measured)"
check_pdf plot/gflops_vs_n "$O/gflops_vs_n-fp32.pdf" 1 "${KERNELS[@]}" tiled \
    "Performance (TFLOP/s)" "N (M = N = K)"
check_pdf plot/speedup "$O/speedup-fp32.pdf" 1 "${KERNELS[@]}" "Speedup over naive" "% of cuBLAS"
check_pdf plot/crossover "$O/crossover-tiled.pdf" 1 32x32x4/4x2 64x64x8/8x4 128x128x8/8x8 \
    "best above" "N (M = N = K)"
check_pdf plot/metrics "$O/metrics-fp32.pdf" 1 naive coalesced smem blocktile_2d warptile cublas \
    "DRAM traffic" "bank conflicts" "spills" "occupancy"
# The synthetic crossovers: 32x32 -> 64x64 between 128 and 256, 64x64 ->
# 128x128 between 512 and 1024.
pdftotext "$O/crossover-tiled.pdf" - | grep -Eq '(1[3-9][0-9]|2[0-4][0-9]).*64x64x8/8x4 best above' &&
    pdftotext "$O/crossover-tiled.pdf" - | grep -Eq '([5-9][0-9][0-9]|10[0-2][0-9]).*128x128x8/8x8 best above' &&
    pass plot/crossover_sizes_labelled || fail plot/crossover_sizes_labelled "$(pdftotext "$O/crossover-tiled.pdf" - | grep best)"
# double_buffer failed verification at 4096: not a point on the roofline.
pdftotext "$O/roofline-fp32.pdf" - | grep -q double_buffer &&
    fail plot/failed_kernel_not_drawn || pass plot/failed_kernel_not_drawn
ls -A "$O" | grep -q '^\.' && fail plot/no_scratch_left "$(ls -A "$O")" || pass plot/no_scratch_left

# ---- options ----
"$GP" plot "$RUN" --ceilings "$CEIL" --charts roofline --hierarchical --out "$TMP/h" >/dev/null 2>&1
check_pdf plot/hierarchical_adds_l2 "$TMP/h/roofline-fp32.pdf" 1 "L2 11000 GB/s" \
    "shared mem 28000 GB/s" "kernel at L2 intensity"
"$GP" plot "$RUN" --ceilings "$CEIL" --charts roofline,metrics --size 1024 --out "$TMP/s" >/dev/null 2>&1
check_pdf plot/size_option "$TMP/s/roofline-fp32.pdf" 1 "size 1024" double_buffer
for fmt in png svg; do
    "$GP" plot "$RUN" --ceilings "$CEIL" --format $fmt --out "$TMP/$fmt" >/dev/null 2>&1
    n=$(ls "$TMP/$fmt"/*.$fmt 2>/dev/null | wc -l)
    [ "$n" = 4 ] && pass plot/format_$fmt || fail plot/format_$fmt "$n files: $(ls "$TMP/$fmt" 2>&1)"
done
"$GP" plot "$RUN" --ceilings "$CEIL" --format cairolatex --charts roofline --out "$TMP/tex" >/dev/null 2>&1
if [ -s "$TMP/tex/roofline-fp32.tex" ] && [ -s "$TMP/tex/roofline-fp32.pdf" ] &&
   grep -q 'blocktile\\_2d' "$TMP/tex/roofline-fp32.tex" &&
   grep -q 'includegraphics.*{roofline-fp32}' "$TMP/tex/roofline-fp32.tex"; then
    pass plot/format_cairolatex_escaped
else
    fail plot/format_cairolatex_escaped "$(ls "$TMP/tex" 2>&1)"
fi

# Only theoretical ceilings known (the probe could not run): drawn from those.
sed 's/^fp32_fma,GFLOP\/s,[0-9.]*,/fp32_fma,GFLOP\/s,NA,/; s/^dram_bw,GB\/s,[0-9.]*,/dram_bw,GB\/s,NA,/' \
    "$CEIL" >"$TMP/theoretical.csv"
"$GP" plot "$RUN" --ceilings "$TMP/theoretical.csv" --charts roofline --out "$TMP/t" >/dev/null 2>"$TMP/err"
check_pdf plot/roofline_theoretical_ceilings_only "$TMP/t/roofline-fp32.pdf" 1 "(theoretical)" naive
grep -q 'FMA.*(measured)\|DRAM.*(measured)' <(pdftotext "$TMP/t/roofline-fp32.pdf" -) &&
    fail plot/no_measured_line_without_measurement ||
    pass plot/no_measured_line_without_measurement

# ---- families: --family, --kernel ----
"$GP" plot "$RUN" --ceilings "$CEIL" --charts roofline,metrics --family all --out "$TMP/fa" >"$TMP/out" 2>&1
[ -s "$TMP/fa/roofline.pdf" ] && [ -s "$TMP/fa/metrics.pdf" ] && pass plot/family_all_one_chart ||
    fail plot/family_all_one_chart "$(cat "$TMP/out")"
"$GP" plot "$RUN" --ceilings "$CEIL" --charts roofline --kernel naive,cublas --out "$TMP/k" >/dev/null 2>&1
check_pdf plot/kernel_option "$TMP/k/roofline.pdf" 1 naive cublas
pdftotext "$TMP/k/roofline.pdf" - | grep -q smem && fail plot/kernel_option_only_those ||
    pass plot/kernel_option_only_those
expect plot/unknown_family 2 "^gemmprof: --family: no family 'fp16' in this data \(it has fp32, all\)" -- \
    "$GP" plot "$RUN" --family fp16 --out "$TMP/nf"
expect plot/unknown_kernel 2 "^gemmprof: --kernel: no kernel 'nope' in the data" -- \
    "$GP" plot "$RUN" --kernel naive,nope --out "$TMP/nk"
expect plot/family_and_kernel 2 "one chart set at a time" -- \
    "$GP" plot "$RUN" --family fp32 --kernel naive --out "$TMP/fk"

# The committed H200 data: one chart per family, and --family picks.
H=$here/../reports/data/h200
if [ -s "$H/ladder-4096.csv" ]; then
    "$GP" plot "$H"/*.csv --out "$TMP/h200" >"$TMP/out" 2>"$TMP/err"
    want="roofline-fp32-ladder roofline-fp32-top roofline-tf32 roofline-fp64 gflops_vs_n-fp32-ladder
          gflops_vs_n-fp32-top gflops_vs_n-fp64 speedup-fp32-ladder speedup-fp32-top speedup-fp64
          metrics-fp32-ladder metrics-fp32-top metrics-tf32 metrics-fp64 crossover-blocktile_2d"
    missing=
    for c in $want; do [ -s "$TMP/h200/$c.pdf" ] || missing="$missing $c"; done
    [ -z "$missing" ] && pass plot/h200_one_chart_per_family || fail plot/h200_one_chart_per_family "missing:$missing"
    # A point above every roof drawn is named, with the reason: here the
    # ceilings lack the tensor rows and both files the GPU's architecture (no
    # compute_capability line), so no tensor roof can be drawn.
    mkdir -p "$TMP/noarch"
    grep -v '^# compute_capability' "$H/ladder-4096.csv" >"$TMP/noarch/ladder-4096.csv"
    grep -v '^# compute_capability' "$H/ceilings.csv" >"$TMP/noarch/ceilings.csv"
    "$GP" plot "$TMP/noarch/ladder-4096.csv" --ceilings "$TMP/noarch/ceilings.csv" --charts roofline \
        --family tf32 --out "$TMP/noarch/charts" >/dev/null 2>"$TMP/err"
    grep -q "roofline (tf32): .*no tf32_tensor row" "$TMP/err" && pass plot/h200_says_why_above_roofs ||
        fail plot/h200_says_why_above_roofs "$(cat "$TMP/err")"
    check_pdf plot/h200_roofline_notes "$TMP/noarch/charts/roofline-tf32.pdf" 1 \
        "Above every roof drawn" "no tf32_tensor row"
    # engineering units: tick labels are plain numbers, never 1e+06
    exps=$(for f in "$TMP"/h200/*.pdf; do pdftotext "$f" - | grep -l 'e+0' >/dev/null && echo "$f"; done)
    [ -z "$exps" ] && pass plot/h200_no_exponent_ticks || fail plot/h200_no_exponent_ticks "$exps"
    check_pdf plot/h200_roofline_tflops "$TMP/h200/roofline-fp32-ladder.pdf" 1 "Performance (TFLOP/s)" \
        naive warptiling cublas
    "$GP" plot "$H"/*.csv --family fp64 --out "$TMP/h64" >/dev/null 2>&1
    other=$(ls "$TMP/h64" | grep -v -- '-fp64\.pdf$' | grep -v '^crossover-dgemm_')
    [ -z "$other" ] && [ -s "$TMP/h64/roofline-fp64.pdf" ] && pass plot/h200_family_fp64_only ||
        fail plot/h200_family_fp64_only "$(ls "$TMP/h64")"
    # No two words of any chart overlap (labels, ticks, legend, titles):
    # pdftotext -bbox gives each word's box as drawn.  The layout measures
    # text with DejaVu Sans; with another "Sans" the check would not hold.
    if fc-match -f '%{family}' Sans 2>/dev/null | grep -q DejaVu; then
        bad=
        for f in "$TMP"/h200/*.pdf; do
            o=$(words_overlap "$f")
            [ -n "$o" ] && bad="$bad $(basename "$f"): $(head -2 <<<"$o" | tr '\n' ';')"
        done
        [ -z "$bad" ] && pass plot/h200_no_text_overlaps || fail plot/h200_no_text_overlaps "$bad"
    else
        skip plot/h200_no_text_overlaps "fontconfig's Sans is not DejaVu Sans (fonts-dejavu-core)"
    fi
else
    skip plot/h200_one_chart_per_family "no reports/data/h200"
fi

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
bad empty ".*empty.csv:1:1: empty file" "$TMP/empty.csv"
bad not_csv ".*image.csv:1:1: no column 'kernel'" "$TMP/image.csv"
bad missing_column ".*no_k.csv:1:1: no column 'k'" "$TMP/no_k.csv"
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
check_pdf report/pdf_has_tables_and_every_chart "$D/report.pdf" 6+ "gemmprof report: run-fixture" \
    "Synthetic GPU (fixture)" "${KERNELS[@]}" FAILED "GFLOP/s by size" "Arithmetic intensity" \
    "Speedup over naive" "best above" "occupancy" "Table 1." "Figure 1." "Figure 5."
# every page A4 (the default), the figures on them 6 in wide
sizes=$(pdfinfo -f 1 -l 99 "$D/report.pdf" 2>/dev/null | awk '/Page.*size:/ { print $4 "x" $6 }' | sort -u)
[ "$sizes" = "595x842" ] && pass report/a4_pages || fail report/a4_pages "$sizes"
fw=$(pdfinfo "$D/figures/roofline-fp32.pdf" | awk '/Page size:/ { print $3 }')
[ "$fw" = 432 ] && pass report/figures_6in_wide || fail report/figures_6in_wide "width $fw pt"
if command -v gropdf >/dev/null; then
    # typeset: groff's Times on the first page, not the text pages' mono font
    pdffonts -f 1 -l 1 "$D/report.pdf" 2>/dev/null | grep -q Times &&
        pass report/tables_typeset_by_groff ||
        fail report/tables_typeset_by_groff "$(pdffonts -f 1 -l 1 "$D/report.pdf" 2>&1)"
else
    skip report/tables_typeset_by_groff "groff not installed (apt-get install groff)"
fi
missing=
for f in figures/{roofline-fp32,gflops_vs_n-fp32,speedup-fp32,crossover-tiled,metrics-fp32}.pdf \
         latex/{roofline-fp32,gflops_vs_n-fp32,speedup-fp32,crossover-tiled,metrics-fp32}.{tex,pdf} \
         tables/summary.{md,tex} tables/gflops_by_size.{md,tex} tables/summary-fp32.{md,tex} \
         data/run-fixture.csv data/sweep-fixture.csv data/ceilings-fixture.csv README.md \
         writeup-example.tex; do
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
# The example write-up builds where LaTeX is installed (texlive-latex-base
# and -recommended); CI has no TeX: gemmprof itself never needs it.
if command -v pdflatex >/dev/null; then
    cp -r "$D" "$TMP/writeup"
    (cd "$TMP/writeup" && pdflatex -interaction=nonstopmode -halt-on-error writeup-example.tex \
        >"$TMP/latex.log" 2>&1)
    check_pdf report/writeup_example_builds "$TMP/writeup/writeup-example.pdf" 1+ Results \
        "Roofline" naive "Figure 1"
else
    skip report/writeup_example_builds "pdflatex not installed (texlive-latex-base, -recommended)"
fi
[ ! -e "$D/tables/energy.md" ] && pass report/no_energy_table_without_energy ||
    fail report/no_energy_table_without_energy "$(cat "$D/tables/energy.md")"
# Rows measured with --energy get an energy table: the committed H100 TF32 run,
# its ratios recomputed here from the CSV's own columns.
E=$here/../reports/data/h100/tf32-bench/energy-b72f747/tf32-square.csv
if [ -s "$E" ]; then
    "$GP" report "$E" --size 8192 --out "$TMP/energy" --name energy >/dev/null 2>"$TMP/err"
    want=$(awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
        $c["m"] == 8192 { s[$c["kernel"]] = $c["sustained_ms"]; j[$c["kernel"]] = $c["energy_j"] }
        END { printf "| tf32_wgmma_rs | tf32 | %s | %.1f | %.1f |", "", 100 * s["cublas_tf32"] / s["tf32_wgmma_rs"],
              100 * j["tf32_wgmma_rs"] / j["cublas_tf32"] }' "$E")
    got=$(awk -F' [|] ' '/^[|] tf32_wgmma_rs / { printf "| %s | %s | %s | %s | %s |", "tf32_wgmma_rs", $2, "", $5, $8 }' \
          "$TMP/energy/energy/tables/energy.md" 2>/dev/null)
    [ -n "$want" ] && [ "$got" = "$want" ] && grep -q '^| cublas_tf32 | tf32 |.* 100.0 |' "$TMP/energy/energy/tables/energy.md" &&
        pdftotext -raw "$TMP/energy/energy/report.pdf" - 2>/dev/null | grep -q '^Table [0-9]*\. Energy at size 8192' &&
        pass report/energy_table || fail report/energy_table "want '$want', got '$got': $(cat "$TMP/err")"
else
    skip report/energy_table "no reports/data/h100/tf32-bench/energy-b72f747"
fi
first=$(pages "$D/report.pdf")
"$GP" report "$RUN" --ceilings "$CEIL" --out "$R" --name run-fixture >/dev/null 2>&1
[ "$(pages "$D/report.pdf")" -lt "$first" ] && [ ! -e "$D/figures/crossover-tiled.pdf" ] &&
    ! ls -A "$R" | grep -q '^\.' && pass report/replaces_old_report ||
    fail report/replaces_old_report "$(ls -A "$R" "$D/figures")"
"$GP" report "$RUN" --ceilings "$CEIL" --out "$R" --name letter --paper letter >/dev/null 2>&1
sizes=$(pdfinfo -f 1 -l 99 "$R/letter/report.pdf" 2>/dev/null | awk '/Page.*size:/ { print $4 "x" $6 }' | sort -u)
[ "$sizes" = "612x792" ] && pass report/letter_pages || fail report/letter_pages "$sizes"
expect report/bad_paper 2 "unknown --paper 'a3'" -- "$GP" report "$RUN" --paper a3 --out "$TMP/badpaper"

# Rows skipped on purpose ("skipped: why", NA numbers): not drawn, listed
# in the tables as skipped, with the reason under the table.
awk -F, -v OFS=, '/^#/ { next } !h { h = 1; n = NF; for (i = 1; i <= NF; i++) c[$i] = i; next }
    !done { for (i = 1; i <= n; i++) $i = "NA"; $c["kernel"] = "tensor_rung"; $c["precision"] = "fp32";
            $c["m"] = $c["n"] = $c["k"] = 4096; $c["status"] = "skipped: no TF32 tensor cores here";
            print; done = 1 }' "$RUN" | cat "$RUN" - >"$TMP/skipped.csv"
"$GP" report "$TMP/skipped.csv" --ceilings "$CEIL" --out "$R" --name skipped >"$TMP/out" 2>"$TMP/err"
rc=$?
grep -q '^| tensor_rung | fp32 | .* | skipped |' "$R/skipped/tables/summary.md" &&
    pdftotext "$R/skipped/report.pdf" - | grep -q 'Skipped: tensor_rung: no TF32 tensor cores here' &&
    ! pdftotext "$R/skipped/figures/roofline-fp32.pdf" - | grep -q tensor_rung &&
    [ $rc = 0 ] && pass report/skipped_rows_listed_not_drawn ||
    fail report/skipped_rows_listed_not_drawn "exit $rc: $(cat "$TMP/err"; grep tensor_rung "$R/skipped/tables/summary.md")"

# Without groff's PDF device the tables are fixed-width text pages, and the
# report says so (gnuplot and pdfunite only on PATH).
mkdir -p "$TMP/nogroff"
for tool in gnuplot pdfunite; do ln -s "$(command -v $tool)" "$TMP/nogroff/$tool"; done
PATH=$TMP/nogroff "$GP" report "$RUN" --ceilings "$CEIL" --out "$R" --name nogroff >"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc = 0 ] && grep -q "groff's PDF device is not installed (apt-get install groff)" "$TMP/err" &&
    pdffonts -f 1 -l 1 "$R/nogroff/report.pdf" 2>/dev/null | grep -q Mono &&
    pdftotext "$R/nogroff/report.pdf" - | grep -q 'Figure 1. ' &&
    pass report/without_groff_text_pages ||
    fail report/without_groff_text_pages "exit $rc: $(cat "$TMP/err")"
expect report/bad_data_exit_2 2 "^gemmprof: .*empty.csv:1:1: empty file" -- "$GP" report "$TMP/empty.csv" --out "$TMP/badrep"
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
