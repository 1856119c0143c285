#!/usr/bin/env bash
# run.sh - the test runner behind `make test`:  bash tests/run.sh BIN...
# Runs each cmocka binary, then every tests/*.sh but this one and lib.sh
# (lines "PASS name", "FAIL name[: why]", "SKIP name[: why]"), echoing all
# output, and ends with one "SKIPPED: name" / "FAILED: name" line per test
# and, last, the totals:
#   N passed, N failed, N skipped
# Exit 1 if anything failed.  A test that passes while checking nothing is
# a failure:
# - a binary or script that exits non-zero without reporting a failure (a
#   crash), or that reports no result at all ("ran no check"), is one
#   failure named after it;
# - a tests/*.sh without its run bit is a failure, not a silent omission;
# - with GEMMPROF_REQUIRE_GPU=1 (the GPU machine) a skip is a failure
#   ("skip not allowed: <the reason it printed>") unless its name matches a
#   line of tests/allowed-skips.txt, which says why it may skip there; the
#   skips taken are listed with that reason at the end, and the list's
#   lines that matched no skip are named (a stale line hides a future skip).
# cmocka tests give a skip's reason on a line "SKIP reason: ..." before it.
# GEMMPROF_TEST_SCRIPTS (a folder of *.sh instead of tests/) and
# GEMMPROF_ALLOWED_SKIPS (another list) serve the runner's own test.
export GEMMPROF_BIN=${GEMMPROF_BIN:-bin/gemmprof}
here=$(cd "$(dirname "$0")" && pwd)
scripts=${GEMMPROF_TEST_SCRIPTS:-$here}
allowed=${GEMMPROF_ALLOWED_SKIPS:-$here/allowed-skips.txt}
require=${GEMMPROF_REQUIRE_GPU:-}
results=$(mktemp)          # lines "pass|fail|skip<TAB>NAME<TAB>why"
taken=$(mktemp)            # the allowed-skips globs that matched a skip
trap 'rm -f "$results" "$taken"' EXIT
T=$'\t'

# cmocka output -> result lines.  A result counts only when it concludes
# the RUN of the same name: the summary repeats FAILED/SKIPPED names after
# the last RUN.  A RUN with no result (the binary died in it) is a failure.
parse_cmocka() {
    awk -v OFS='\t' '
    function result(kind) {
        if (run != "" && name == run) print kind, run, (kind == "skip" ? why : "")
        if (run != "" && name == run) run = ""
    }
    { name = $0; sub(/^\[[^]]*\] */, "", name); sub(/[ \r]+$/, "", name) }
    /^\[ RUN      \] /                { run = name; why = ""; next }
    /^SKIP reason: /                  { why = substr($0, 14); sub(/[ \r]+$/, "", why); next }
    /^\[       OK \] /                { result("pass"); next }
    /^\[  FAILED  \] /                { result("fail"); next }
    /^\[  ERROR   \] /                { result("fail"); next }
    /^\[  SKIPPED \] /                { result("skip"); next }
    END { if (run != "") print "fail", run, "died in it" }'
}

# Shell-test output -> result lines; a skip keeps its reason (after "NAME:").
parse_shell() {
    awk -v OFS='\t' '/^(PASS|FAIL|SKIP) / {
        n = $2; sub(/:$/, "", n)
        why = $0; sub(/^[A-Z]+ [^ ]+ */, "", why); sub(/[ \r]+$/, "", why)
        print tolower($1), n, ($1 == "SKIP" ? why : "") }'
}

# The globs of allowed-skips.txt, one a line "GLOB<TAB>why".
allowed_globs() {
    [ -r "$allowed" ] && awk '!/^[ \t]*(#|$)/ { g = $1; sub(/^[ \t]*[^ \t]+[ \t]*/, "")
        print g "\t" $0 }' "$allowed"
}

# The reason allowed-skips.txt gives for NAME (its first glob that
# matches, noted in $taken); status 1 if none does.
allowed_reason() {
    local glob why
    while IFS=$T read -r glob why; do
        # shellcheck disable=SC2053  # the list holds globs
        [[ $1 == $glob ]] && { echo "$glob" >>"$taken"; printf '%s\n' "$why"; return 0; }
    done < <(allowed_globs)
    return 1
}

# record KIND NAME WHY: one result.  Under GEMMPROF_REQUIRE_GPU=1 a skip
# not in the list becomes a failure; one in it carries the listed reason.
record() {
    local kind=$1 name=$2 why=$3 listed
    if [ "$kind" = skip ] && [ "$require" = 1 ]; then
        if listed=$(allowed_reason "$name"); then
            why="allowed: $listed"
        else
            why="skip not allowed: ${why:-(no reason printed)}"
            echo "run.sh: $name: $why (GEMMPROF_REQUIRE_GPU=1; allowed skips: ${allowed#"$PWD"/})"
            kind=fail
        fi
    fi
    printf '%s\t%s\t%s\n' "$kind" "$name" "$why" >>"$results"
}

# run_one NAME PARSER CMD...: echo the output and record its results.  No
# result at all, or a non-zero exit with no failure reported (a crash), is
# a failure named NAME.
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
    local parsed kind test why how="exited with status $rc"
    parsed=$($parser <"$out")
    rm -f "$out"
    [ "$rc" -gt 128 ] && how="was killed by signal $((rc - 128))"
    if [ -z "$parsed" ]; then
        [ "$rc" -ne 0 ] && how="ran no check and $how" || how="ran no check"
        echo "run.sh: $name: $how"
        record fail "$name" "$how"
        return
    fi
    while IFS=$T read -r kind test why; do
        record "$kind" "$test" "$why"
    done <<<"$parsed"
    if [ "$rc" -ne 0 ] && ! grep -q "^fail$T" <<<"$parsed"; then
        echo "run.sh: $name $how without reporting a failure"
        record fail "$name" "$how without reporting a failure"
    fi
}

for bin in "$@"; do
    if [ ! -x "$bin" ]; then
        echo "run.sh: $bin: not an executable"
        record fail "$(basename "$bin")" "not an executable"
        continue
    fi
    run_one "$(basename "$bin")" parse_cmocka "$bin"
done

for t in "$scripts"/*.sh; do
    [ -e "$t" ] || continue
    case $(basename "$t") in run.sh|lib.sh) continue ;; esac   # the runner, a library
    echo "== $(basename "$t")"
    if [ ! -x "$t" ]; then
        echo "run.sh: $t: no run bit, so none of its tests ran (chmod +x it)"
        record fail "$(basename "$t")" "no run bit"
        continue
    fi
    run_one "$(basename "$t")" parse_shell "$t"
done

echo
awk -F'\t' '$1 == "skip" { print "SKIPPED: " $2 ($3 ~ /^allowed: / ? " (" $3 ")" : "") }' "$results"
awk -F'\t' '$1 == "fail" { print "FAILED: " $2 ($3 != "" ? ": " $3 : "") }' "$results"
if [ "$require" = 1 ]; then          # a stale entry would hide a future skip
    unused=$(allowed_globs | cut -f1 | grep -vxFf "$taken" | tr '\n' ' ')
    [ -n "$unused" ] && echo "run.sh: allowed here but not skipped (${allowed#"$PWD"/}): ${unused% }"
fi
read -r pass fail skip < <(awk -F'\t' '
    { c[$1]++ } END { printf "%d %d %d\n", c["pass"], c["fail"], c["skip"] }' "$results")
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
