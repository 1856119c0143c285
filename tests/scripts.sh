#!/usr/bin/env bash
# scripts.sh - the evidence scripts on the committed H200 data: mixed
# against the best single config (noise measured), and the rounds summary.
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/.." && pwd)
S=$ROOT/reports/data/h200/sweep-mixed
L=$ROOT/reports/data/h200/fp64-ladder-4096-rounds
if ! command -v python3 >/dev/null; then
    for t in mixed_vs_best_h200_fp64 mixed_vs_best_h200_fp32 mixed_vs_best_slow_mixed_fails \
             mixed_vs_best_bad_file mixed_vs_best_usage mixed_vs_best_usage_one_line rounds_summary_h200; do skip "scripts/$t" "no python3"; done
    exit 0
fi
MVB="python3 $ROOT/scripts/mixed-vs-best.py"

expect scripts/mixed_vs_best_h200_fp64 0 '^19 of 19 sizes' -- \
    $MVB "$S/sweep-dgemm_blocktile_2d-r1.csv" "$S/sweep-dgemm_blocktile_2d-r2.csv" "$S"/mixed-fp64-r?.csv
expect scripts/mixed_vs_best_h200_fp32 0 '^19 of 19 sizes' -- \
    $MVB "$S/sweep-blocktile_2d-r1.csv" "$S/sweep-blocktile_2d-r2.csv" "$S"/mixed-fp32-r?.csv

# the same mixed rows with one size made 30% slower in every run must fail there
for r in 1 2 3; do
    awk -F, -v OFS=, '/^#/ || !h { if (!/^#/) { for (i = 1; i <= NF; i++) c[$i] = i; h = 1 } print; next }
        $c["m"] == 1536 { $c["gflops"] = $c["gflops"] * 0.7 } { print }' \
        "$S/mixed-fp64-r$r.csv" >"$TMP/slow-r$r.csv"
done
expect scripts/mixed_vs_best_slow_mixed_fails 1 '1536x1536x1536 .* BELOW' -- \
    $MVB "$S/sweep-dgemm_blocktile_2d-r1.csv" "$S/sweep-dgemm_blocktile_2d-r2.csv" "$TMP"/slow-r?.csv
printf 'kernel,config\nx,y\n' >"$TMP/bad.csv"
expect scripts/mixed_vs_best_bad_file 2 'KeyError' -- \
    $MVB "$TMP/bad.csv" "$TMP/bad.csv" "$TMP/bad.csv"
expect scripts/mixed_vs_best_usage 2 '^usage: .*mixed-vs-best.py SWEEP1.csv SWEEP2.csv MIXED.csv' -- \
    $MVB "$S/sweep-dgemm_blocktile_2d-r1.csv"
[ "$(wc -l <"$TMP/err")" -eq 1 ] && pass scripts/mixed_vs_best_usage_one_line || \
    fail scripts/mixed_vs_best_usage_one_line "$(cat "$TMP/err")"

expect scripts/rounds_summary_h200 0 'dgemm_dmma_interior +4096x4096x4096 +8 .* 7/8' -- \
    python3 "$ROOT/scripts/rounds-summary.py" "$ROOT"/reports/data/h200/experiments/fp64-rounds-4096/round?.csv \
    "$L"/fp64-ladder-4096-r?.csv
