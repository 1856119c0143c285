#!/usr/bin/env bash
# report.sh - one number per fact: the report of each committed data folder
# (reports/data/h200, h100 and the two-GPU h200x2, h100x2), rendered into a
# temporary folder, shows every (kernel, precision, config, shape) value
# alike in every table and chart data file (tests/report/consistency.py),
# and every "best config" claim is the fastest config measured.  The
# checker is shown to fail on a report with one number changed.  CPU only.
. "$(dirname "$0")/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
export GEMMPROF_PLOTS=${GEMMPROF_PLOTS:-$here/../plots}
CHECK="python3 $here/report/consistency.py"

for tool in python3 gnuplot pdfunite; do
    if ! command -v $tool >/dev/null; then
        skip report/consistency "$tool not installed"
        exit 0
    fi
done

for g in h200 h100 h200x2 h100x2; do
    data=$here/../reports/data/$g
    if [ ! -d "$data" ]; then skip "report/consistency_$g" "no reports/data/$g"; continue; fi
    if ! "$GP" report "$data"/*.csv --name "$g" --out "$TMP" >/dev/null 2>"$TMP/err.$g"; then
        fail "report/consistency_$g" "gemmprof report: $(tail -1 "$TMP/err.$g")"
        continue
    fi
    if $CHECK "$TMP/$g" >"$TMP/check.$g" 2>&1; then
        pass "report/consistency_$g"
    else
        fail "report/consistency_$g" "$(head -c 600 "$TMP/check.$g")"
    fi
    tail -1 "$TMP/check.$g"
done

# The checker can fail: the h200 report with blocktile_2d's GFLOP/s at 4096
# changed in one chart data file, and with a "best config" claim lowered.
R=$TMP/h200
if [ -d "$R/chart-data" ]; then
    P=$TMP/planted/h200
    mkdir -p "$TMP/planted" && cp -r "$R" "$P"
    f=$P/chart-data/gflops_vs_n-fp32-ladder.csv
    awk '/^# series: blocktile_2d\|/ { s = 1 } /^# series: / && !/blocktile_2d\|/ { s = 0 }
         s && /^4096,/ { $0 = "4096,32.41" } { print }' "$f" >"$f.new" && mv "$f.new" "$f"
    if ! $CHECK "$P" >"$TMP/out" 2>&1 &&
       grep -q 'CONTRADICTION h200: blocktile_2d fp32 \[128x128x8/8x8\] at 4096, GFLOP/s' "$TMP/out"
    then pass report/consistency_finds_planted_contradiction
    else fail report/consistency_finds_planted_contradiction "$(head -c 400 "$TMP/out")"; fi
    rm -rf "$P" && cp -r "$R" "$P"
    sed -i 's/^\(| blocktile_2d | fp32 | 128x128x8\/8x8 |.*| 64x64x16\/8x4 | \)[0-9]* |$/\128613 |/' \
        "$P/tables/configs.md"
    if ! $CHECK "$P" >"$TMP/out" 2>&1 && grep -q 'best config claimed' "$TMP/out"
    then pass report/consistency_finds_false_best
    else fail report/consistency_finds_false_best "$(head -c 400 "$TMP/out")"; fi
else
    skip report/consistency_finds_planted_contradiction "no h200 report"
    skip report/consistency_finds_false_best "no h200 report"
fi
