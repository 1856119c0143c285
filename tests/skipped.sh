#!/usr/bin/env bash
# skipped.sh - rows of kernels this GPU or build could not run ("skipped:
# needs sm_90a (wgmma)", every measurement NA): plot leaves them out, the
# report says why, and diff calls them "skipped", never a regression.
. "$(dirname "$0")/lib.sh"
FX=$(dirname "$0")/fixtures
export GEMMPROF_PLOTS=${GEMMPROF_PLOTS:-$(cd "$(dirname "$0")/../plots" && pwd)}

# row FILE KERNEL PRECISION STATUS: a row of FILE's columns, every
# measurement NA, m = n = k = 4096 (the diff fixtures' shape)
row() {
    awk -F, -v k="$2" -v p="$3" -v s="$4" '!/^#/ && !done {
        for (i = 1; i <= NF; i++) {
            v = "NA"
            if ($i == "kernel") v = k; else if ($i == "precision") v = p
            else if ($i == "status") v = s; else if ($i == "config") v = ""
            else if ($i == "m" || $i == "n" || $i == "k") v = 4096
            else if ($i == "alpha") v = 1; else if ($i == "beta") v = 0
            printf "%s%s", (i > 1 ? "," : ""), v
        }
        print ""; done = 1 }' "$1"
}

# base: the wgmma rung ran (an H100); new: a compute_80 build skipped it
ran=$(grep '^double_buffer,' "$FX/diff/base.csv" | sed 's/^double_buffer,fp32,[^,]*,/tf32_wgmma,tf32,,/')
{ cat "$FX/diff/base.csv"; echo "$ran"; } >"$TMP/base.csv"
{ sed 's/^# build_arch: .*/# build_arch: compute_80/' "$FX/diff/base.csv"
  row "$FX/diff/base.csv" tf32_wgmma tf32 'skipped: needs sm_90a (wgmma)'; } >"$TMP/new.csv"
expect diff/skipped_row_is_not_a_regression 0 \
    '^skipped +NA  tf32_wgmma tf32 4096x4096x4096: not run in new: needs sm_90a \(wgmma\)$' \
    -- "$GP" diff "$TMP/base.csv" "$TMP/new.csv"
grep -q '^5 pairs: 0 regressed, 0 faster, 4 within 5%, 1 not run on one side (skipped)' "$TMP/out" &&
    pass diff/skipped_row_in_the_summary || fail diff/skipped_row_in_the_summary "$(cat "$TMP/out")"
expect diff/skipped_in_base_is_not_a_regression 0 'not run in base: needs sm_90a \(wgmma\)' \
    -- "$GP" diff "$TMP/new.csv" "$TMP/base.csv"
"$GP" diff "$TMP/base.csv" "$TMP/new.csv" --format json >"$TMP/d.json" 2>/dev/null
grep -q '"verdict": *"skipped"' "$TMP/d.json" && pass diff/skipped_in_json ||
    fail diff/skipped_in_json "$(head -c 400 "$TMP/d.json")"

# plot and report: the skipped row is no point and no error; the report's
# summary (at the largest size, 4096 in the fixture) gives its reason
{ cat "$FX/run-fixture.csv"
  row "$FX/run-fixture.csv" dgemm_dmma_k16 fp64 'skipped: needs sm_90 (FP64 mma.sync m16n8k16)'; } >"$TMP/run.csv"
if command -v gnuplot >/dev/null; then
    expect plot/skipped_rows_plot_cleanly 0 '' -- \
        "$GP" plot "$TMP/run.csv" --ceilings "$FX/ceilings-fixture.csv" --out "$TMP/plots"
    if grep -rq dgemm_dmma_k16 "$TMP/plots"/*.dat 2>/dev/null; then
        fail plot/skipped_rows_are_no_points "$(grep -rl dgemm_dmma_k16 "$TMP/plots")"
    else pass plot/skipped_rows_are_no_points; fi
    expect report/skipped_rows_say_why 0 '' -- \
        "$GP" report "$TMP/run.csv" --ceilings "$FX/ceilings-fixture.csv" --out "$TMP/rep" --name skip
    grep -q '^| dgemm_dmma_k16 .*| skipped |' "$TMP/rep/skip/tables/summary.md" &&
        grep -qx -- '- dgemm_dmma_k16: needs sm_90 (FP64 mma.sync m16n8k16)' \
        "$TMP/rep/skip/tables/summary.md" &&
        pass report/skipped_reason_in_summary ||
        fail report/skipped_reason_in_summary "$(grep dgemm_dmma_k16 "$TMP/rep/skip/tables/summary.md")"
else
    skip plot/skipped_rows_plot_cleanly "gnuplot not installed"
    skip plot/skipped_rows_are_no_points "gnuplot not installed"
    skip report/skipped_rows_say_why "gnuplot not installed"
    skip report/skipped_reason_in_summary "gnuplot not installed"
fi
