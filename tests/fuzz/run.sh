#!/usr/bin/env bash
# run.sh - run the fuzz targets for a bounded time (`make fuzz` calls it):
#   bash tests/fuzz/run.sh BUILD_DIR SECONDS TARGET...
# Each target runs for SECONDS from the committed seed corpus
# (tests/fuzz/corpus/TARGET, read only) plus what earlier runs found
# (BUILD_DIR/corpus/TARGET), FUZZ_JOBS targets at a time (default: the
# number of CPUs, at most 2).  A crash, a sanitizer report or a leak stops
# that target; its input is saved as BUILD_DIR/crashes/TARGET-crash-<sha1>
# and the script exits 1 after saying how to turn it into a regression test.
set -uo pipefail
[ $# -ge 3 ] || { echo "usage: $0 BUILD_DIR SECONDS TARGET..." >&2; exit 2; }
build=$1 seconds=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
jobs=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}
[ "$jobs" -gt 2 ] && [ -z "${FUZZ_JOBS:-}" ] && jobs=2

one() {
    local t=$1
    local work=$build/corpus/$t crashes=$build/crashes log=$build/fuzz-$t.log
    mkdir -p "$work" "$crashes"
    # -max_len: the largest seed is ~15 KB; -timeout: a reader taking a
    # second on one input is a bug too
    "$build/fuzz_$t" -max_total_time="$seconds" -max_len=16384 -timeout=10 \
        -rss_limit_mb=2048 -dict="$here/csv.dict" -print_final_stats=1 \
        -artifact_prefix="$crashes/$t-" "$work" "$here/corpus/$t" >"$log" 2>&1
    local rc=$?
    local runs
    runs=$(awk '/stat::number_of_executed_units/ { print $2 }' "$log")
    if [ $rc -eq 0 ]; then
        echo "fuzz $t: ${runs:-?} inputs in ${seconds}s, no crash ($(ls "$work" | wc -l) inputs in $work)"
    else
        echo "fuzz $t: FAILED after ${runs:-?} inputs (exit $rc); log $log:"
        grep -m1 -E 'ERROR: |runtime error|invariant broken|SUMMARY' "$log" | sed 's/^/    /'
        grep -E '^artifact_prefix|Test unit written to' "$log" | sed 's/^/    /'
        echo "    replay: $build/fuzz_$t FILE; keep it as a regression test:"
        echo "    cp FILE tests/fuzz/regressions/$t/<what-it-broke>  (then fix the reader)"
    fi
    return $rc
}

status=0
pids=()
names=()
for t in "$@"; do
    [ -x "$build/fuzz_$t" ] || { echo "fuzz: $build/fuzz_$t not built (make fuzz-build)" >&2; exit 2; }
    out=$(mktemp)
    one "$t" >"$out" 2>&1 &
    pids+=($!)
    names+=("$out")
    # at most $jobs at once
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do sleep 1; done
done
for i in "${!pids[@]}"; do
    wait "${pids[$i]}" || status=1
    cat "${names[$i]}"
    rm -f "${names[$i]}"
done
exit $status
