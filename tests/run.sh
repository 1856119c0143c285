#!/usr/bin/env bash
# run.sh - the test runner behind `make test`:  bash tests/run.sh BIN...
# Runs each cmocka binary, then every executable tests/*.sh (lines "PASS
# name", "FAIL name", "SKIP name"), echoing all output, and ends with one
# "SKIPPED: name" / "FAILED: name" line per test and, last, the totals:
#   N passed, N failed, N skipped
# Exit 1 if anything failed.  A binary or script that exits non-zero without
# reporting a failure (a crash) counts as one failure named after it.
export GEMMPROF_BIN=${GEMMPROF_BIN:-bin/gemmprof}
here=$(cd "$(dirname "$0")" && pwd)
results=$(mktemp)
trap 'rm -f "$results"' EXIT

# cmocka output -> "pass|fail|skip NAME" lines.  A result counts only when
# it concludes the RUN of the same name: the summary repeats FAILED/SKIPPED
# names after the last RUN.  A RUN with no result (the binary died in it)
# is a failure.
parse_cmocka() {
    awk '
    function result(kind) {
        if (run != "" && name == run) { print kind, run; run = "" }
    }
    { name = $0; sub(/^\[[^]]*\] */, "", name); sub(/[ \r]+$/, "", name) }
    /^\[ RUN      \] /                { run = name; next }
    /^\[       OK \] /                { result("pass"); next }
    /^\[  FAILED  \] /                { result("fail"); next }
    /^\[  ERROR   \] /                { result("fail"); next }
    /^\[  SKIPPED \] /                { result("skip"); next }
    END { if (run != "") print "fail", run }'
}

# Shell-test output -> "pass|fail|skip NAME" (anything after the name, such
# as ": reason", is dropped).
parse_shell() {
    awk '/^(PASS|FAIL|SKIP) / { n = $2; sub(/:$/, "", n); print tolower($1), n }'
}

# run_one NAME PARSER CMD...: echo the output, record its results, and a
# crash (non-zero exit, no failure reported) as a failure named NAME.
run_one() {
    local name=$1 parser=$2; shift 2
    local out rc
    out=$(mktemp)
    # Line-buffered so failure messages (stderr) stay next to their test;
    # in the background so bash does not add its own "Segmentation fault".
    local buf=()
    command -v stdbuf >/dev/null && buf=(stdbuf -oL -eL)
    "${buf[@]}" "$@" >"$out" 2>&1 &
    wait $!; rc=$?
    cat "$out"
    local parsed
    parsed=$($parser <"$out")
    [ -n "$parsed" ] && printf '%s\n' "$parsed" >>"$results"
    if [ "$rc" -ne 0 ] && ! grep -q '^fail ' <<<"$parsed"; then
        local how="exited with status $rc"
        [ "$rc" -gt 128 ] && how="was killed by signal $((rc - 128))"
        echo "run.sh: $name $how without reporting a failure"
        echo "fail $name" >>"$results"
    fi
    rm -f "$out"
}

for bin in "$@"; do
    if [ ! -x "$bin" ]; then
        echo "run.sh: $bin: not an executable"
        echo "fail $(basename "$bin")" >>"$results"
        continue
    fi
    run_one "$(basename "$bin")" parse_cmocka "$bin"
done

for t in "$here"/*.sh; do
    [ "$(basename "$t")" = run.sh ] && continue
    [ -x "$t" ] || continue
    echo "== $(basename "$t")"
    run_one "$(basename "$t")" parse_shell "$t"
done

echo
awk '$1 == "skip" { sub(/^skip /, ""); print "SKIPPED: " $0 }' "$results"
awk '$1 == "fail" { sub(/^fail /, ""); print "FAILED: " $0 }' "$results"
read -r pass fail skip < <(awk '
    { c[$1]++ } END { printf "%d %d %d\n", c["pass"], c["fail"], c["skip"] }' "$results")
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
