#!/usr/bin/env bash
# diff.sh - `gemmprof diff` as a CI gate: exit codes, one-line errors, and
# every format from the command line (tests/fixtures/diff: synthetic runs).
. "$(dirname "$0")/lib.sh"
FX=$(dirname "$0")/fixtures/diff

expect diff/identical_exit_0 0 '4 pairs: 0 regressed' -- "$GP" diff "$FX/base.csv" "$FX/base.csv"
expect diff/noise_exit_0 0 '0 regressed' -- "$GP" diff "$FX/base.csv" "$FX/same.csv"
expect diff/spill_exit_1_with_cause 1 'cause: now spills 96 B/thread: registers 64 -> 128, local traffic 0 -> 1.2 GB; occupancy 50% -> 25% limited by registers' \
    -- "$GP" diff "$FX/base.csv" "$FX/spill.csv"
expect diff/threshold_option_new_spill_still_flagged 1 'now spills' -- "$GP" diff "$FX/base.csv" "$FX/spill.csv" --threshold 50
expect diff/threshold_option_tightens 1 '2 regressed' -- "$GP" diff "$FX/base.csv" "$FX/spill.csv" --threshold 2
expect diff/broken_exit_1 1 'BROKEN .* smem' -- "$GP" diff "$FX/base.csv" "$FX/broken.csv"
expect diff/pair_option 1 'cause: now spills 44 B/thread' -- \
    "$GP" diff "$FX/specimens.csv" "$FX/specimens.csv" --pair specimen_uint=specimen_sizet

# a different GPU is the first thing said
"$GP" diff "$FX/base.csv" "$FX/other-gpu.csv" >"$TMP/out" 2>&1
if sed -n 2p "$TMP/out" | grep -q '^warning: different GPU: NVIDIA H100 80GB HBM3 -> NVIDIA H200: not a like-for-like comparison$'; then
    pass diff/different_gpu_first
else
    fail diff/different_gpu_first "$(head -3 "$TMP/out")"
fi

# a gate: rows NEW lost fail, each named on its own line; rows only in
# NEW are listed and pass; --allow-missing lets lost rows pass
expect diff/lost_rows_exit_1 1 '2 rows only in base \(missing: a failure\)' -- \
    "$GP" diff "$FX/base.csv" "$FX/lost-rows.csv"
for k in 'naive fp32 4096x4096x4096 32x32' 'smem fp32 4096x4096x4096 32x32x32'; do
    grep -Eq "^MISSING +$k  \(only in base\)$" "$TMP/out" && pass "diff/lost_row_named/${k%% *}" ||
        fail "diff/lost_row_named/${k%% *}" "$(grep -i missing "$TMP/out")"
done
expect diff/allow_missing_exit_0 0 '^missing +naive fp32' -- \
    "$GP" diff "$FX/base.csv" "$FX/lost-rows.csv" --allow-missing
expect diff/only_in_new_exit_0 0 '^new +smem fp32 4096x4096x4096 32x32x32  \(only in new\)$' -- \
    "$GP" diff "$FX/lost-rows.csv" "$FX/base.csv"
expect diff/lost_rows_markdown 1 '^- MISSING `naive fp32 4096x4096x4096 32x32`: only in base$' -- \
    "$GP" diff "$FX/base.csv" "$FX/lost-rows.csv" --format md
"$GP" diff "$FX/base.csv" "$FX/lost-rows.csv" --format json >"$TMP/lost.json" 2>"$TMP/err"
rc=$?
if ! command -v python3 >/dev/null; then skip diff/lost_rows_json "no python3"
elif [ $rc = 1 ] && python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["failed"] is True and d["regressed"] is False, d
assert d["summary"]["missing"] == 2 and d["summary"]["only_in_base"] == 2, d["summary"]
assert sorted(r["kernel"] for r in d["only_in_base"]) == ["naive", "smem"], d["only_in_base"]
assert d["only_in_base"][0]["config"] and d["only_in_base"][0]["m"] == 4096
' "$TMP/lost.json" 2>"$TMP/err"; then pass diff/lost_rows_json
else fail diff/lost_rows_json "exit $rc: $(tail -2 "$TMP/err")"; fi

# bad input: exit 2 and one line naming the file or the problem
expect diff/missing_file 2 '^gemmprof: diff: .*nope.csv: No such file' -- "$GP" diff "$FX/base.csv" "$FX/nope.csv"
expect diff/malformed 2 'malformed.csv:17:33: column time_ms' -- "$GP" diff "$FX/base.csv" "$FX/malformed.csv"
expect diff/other_schema 2 "schema2.csv:2:11: schema 'gemmprof-run/2': this gemmprof reads gemmprof-run/1" -- \
    "$GP" diff "$FX/base.csv" "$FX/schema2.csv"
expect diff/no_common_rows 2 'no common rows' -- "$GP" diff "$FX/base.csv" "$FX/other-size.csv"
expect diff/one_file 2 'needs two run files' -- "$GP" diff "$FX/base.csv"
expect diff/bad_format 2 "--format: 'xml' is not text, md or json" -- "$GP" diff "$FX/base.csv" "$FX/base.csv" --format xml
expect diff/bad_threshold 2 "--threshold: '-1'" -- "$GP" diff "$FX/base.csv" "$FX/base.csv" --threshold=-1
expect diff/bad_pair 2 "--pair: 'x' is not OLD=NEW" -- "$GP" diff "$FX/base.csv" "$FX/base.csv" --pair x
"$GP" diff "$FX/base.csv" "$FX/nope.csv" >/dev/null 2>"$TMP/err"
[ "$(wc -l <"$TMP/err")" -eq 1 ] && pass diff/error_is_one_line || fail diff/error_is_one_line "$(cat "$TMP/err")"
expect diff/help 0 'Usage: gemmprof diff' -- "$GP" diff --help
expect diff/help_exit_status 0 '^  1  a row regressed, or rows of BASE are missing from NEW' -- "$GP" diff --help

# JSON parses; Markdown is a table
"$GP" diff "$FX/base.csv" "$FX/spill.csv" --format json >"$TMP/d.json" 2>"$TMP/err"
rc=$?
if [ $rc != 1 ]; then fail diff/json_parses "exit $rc: $(cat "$TMP/err")"
elif ! command -v python3 >/dev/null; then skip diff/json_parses "no python3"
elif python3 -m json.tool "$TMP/d.json" >/dev/null 2>"$TMP/err"; then pass diff/json_parses
else fail diff/json_parses "$(cat "$TMP/err")"; fi
expect diff/markdown_table 1 '^\| \*\*regressed\*\* \| double_buffer \|' -- \
    "$GP" diff "$FX/base.csv" "$FX/spill.csv" --format md

# --baseline is checked before any GPU work: a bad one costs no device time
expect diff/baseline_checked_first 2 '^gemmprof: --baseline: .*nope.csv' -- \
    "$GP" --kernel naive --size 64 --metrics none --baseline "$FX/nope.csv" --out "$TMP/run.csv"
[ -e "$TMP/run.csv" ] && fail diff/bad_baseline_writes_nothing || pass diff/bad_baseline_writes_nothing
