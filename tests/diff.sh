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

# bad input: exit 2 and one line naming the file or the problem
expect diff/missing_file 2 '^gemmprof: diff: .*nope.csv: No such file' -- "$GP" diff "$FX/base.csv" "$FX/nope.csv"
expect diff/malformed 2 'malformed.csv:17: column time_ms' -- "$GP" diff "$FX/base.csv" "$FX/malformed.csv"
expect diff/mismatched_schema 2 'mismatched schema: .* is gemmprof-run/1, .* is gemmprof-run/2' -- \
    "$GP" diff "$FX/base.csv" "$FX/schema2.csv"
expect diff/no_common_rows 2 'no common rows' -- "$GP" diff "$FX/base.csv" "$FX/other-size.csv"
expect diff/one_file 2 'needs two run files' -- "$GP" diff "$FX/base.csv"
expect diff/bad_format 2 "--format: 'xml' is not text, md or json" -- "$GP" diff "$FX/base.csv" "$FX/base.csv" --format xml
expect diff/bad_threshold 2 "--threshold: '-1'" -- "$GP" diff "$FX/base.csv" "$FX/base.csv" --threshold=-1
expect diff/bad_pair 2 "--pair: 'x' is not OLD=NEW" -- "$GP" diff "$FX/base.csv" "$FX/base.csv" --pair x
"$GP" diff "$FX/base.csv" "$FX/nope.csv" >/dev/null 2>"$TMP/err"
[ "$(wc -l <"$TMP/err")" -eq 1 ] && pass diff/error_is_one_line || fail diff/error_is_one_line "$(cat "$TMP/err")"
expect diff/help 0 'Usage: gemmprof diff' -- "$GP" diff --help

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
