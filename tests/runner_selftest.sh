#!/usr/bin/env bash
# runner_selftest.sh - tests/run.sh's verdicts, on fake tests in a folder
# of their own (GEMMPROF_TEST_SCRIPTS) with an allowed-skips list of its
# own (GEMMPROF_ALLOWED_SKIPS): a script without its run bit, a script and a
# binary that report nothing, a skip named in the list and one that is not,
# with and without GEMMPROF_REQUIRE_GPU=1, a listed skip not taken, and the
# totals line.
. "$(dirname "$0")/lib.sh"
RUN=$(cd "$(dirname "$0")" && pwd)/run.sh
D=$TMP/scripts
mkdir -p "$D"

script() {      # script NAME BODY: an executable shell test
    printf '#!/bin/sh\n%s\n' "$2" >"$D/$1"
    chmod +x "$D/$1"
}
script good.sh 'echo "PASS fake/one"; echo "PASS fake/two"'
script skips.sh 'echo "SKIP fake/listed: no frobnicator here"
echo "SKIP fake/unlisted: no widget here"'
script silent.sh 'echo "some output, but no PASS, FAIL or SKIP line"'
printf '#!/bin/sh\necho "PASS fake/never_runs"\n' >"$D/no_run_bit.sh"
chmod -x "$D/no_run_bit.sh"
printf 'echo "PASS fake/library"\n' >"$D/lib.sh"          # sourced, never run
# a "cmocka binary": one pass, one skip with its reason, one without
cat >"$TMP/cm" <<'EOF'
#!/bin/sh
echo "[==========] Running 3 test(s)."
echo "[ RUN      ] cm_passes"
echo "[       OK ] cm_passes"
echo "[ RUN      ] cm_listed_glob_one"
echo "SKIP reason: a GPU is visible"
echo "[  SKIPPED ] cm_listed_glob_one"
echo "[ RUN      ] cm_unlisted"
echo "SKIP reason: counter unavailable"
echo "[  SKIPPED ] cm_unlisted"
echo "[  SKIPPED ] 2 test(s), listed below:"
echo "[  SKIPPED ] cm_listed_glob_one"
echo "[  SKIPPED ] cm_unlisted"
EOF
printf '#!/bin/sh\necho "[==========] Running 0 test(s)."\n' >"$TMP/cm_empty"
chmod +x "$TMP/cm" "$TMP/cm_empty"
cat >"$TMP/allowed.txt" <<'EOF'
# a comment, then a blank line

fake/listed      the frobnicator is not on the GPU machine
cm_listed_*      checks the no-GPU path
never/skipped    a stale entry
EOF

# runner OUT [ENV...]: the runner on the fakes; its status in OUT.rc
runner() {
    local out=$1; shift
    env "$@" GEMMPROF_TEST_SCRIPTS="$D" GEMMPROF_ALLOWED_SKIPS="$TMP/allowed.txt" \
        bash "$RUN" "$TMP/cm" "$TMP/cm_empty" >"$out" 2>&1
    echo $? >"$out.rc"
}
# has NAME OUT LINE...: PASS if OUT has every LINE (fixed strings, whole lines)
has() {
    local name=$1 out=$2 line; shift 2
    for line in "$@"; do
        grep -qxF -- "$line" "$out" || { fail "$name" "no line '$line' in: $(tail -15 "$out" | tr '\n' '|')"; return; }
    done
    pass "$name"
}

runner "$TMP/cpu" GEMMPROF_REQUIRE_GPU=
has runner/no_run_bit_fails "$TMP/cpu" "FAILED: no_run_bit.sh: no run bit"
grep -q 'fake/never_runs\|fake/library' "$TMP/cpu" && fail runner/no_run_bit_not_run ||
    pass runner/no_run_bit_not_run
has runner/script_with_no_result_fails "$TMP/cpu" "run.sh: silent.sh: ran no check" \
    "FAILED: silent.sh: ran no check"
has runner/binary_with_no_result_fails "$TMP/cpu" "FAILED: cm_empty: ran no check"
has runner/skips_without_gpu_requirement "$TMP/cpu" "SKIPPED: fake/listed" \
    "SKIPPED: fake/unlisted" "SKIPPED: cm_listed_glob_one" "SKIPPED: cm_unlisted"
has runner/totals_without_gpu_requirement "$TMP/cpu" "3 passed, 3 failed, 4 skipped"
[ "$(tail -1 "$TMP/cpu")" = "3 passed, 3 failed, 4 skipped" ] && [ "$(cat "$TMP/cpu.rc")" = 1 ] &&
    pass runner/totals_last_and_exit_1 ||
    fail runner/totals_last_and_exit_1 "exit $(cat "$TMP/cpu.rc"), last line '$(tail -1 "$TMP/cpu")'"

runner "$TMP/gpu" GEMMPROF_REQUIRE_GPU=1
has runner/unlisted_skip_fails_under_require_gpu "$TMP/gpu" \
    "FAILED: fake/unlisted: skip not allowed: no widget here" \
    "FAILED: cm_unlisted: skip not allowed: counter unavailable"
grep -q '^run.sh: fake/unlisted: skip not allowed: no widget here' "$TMP/gpu" &&
    pass runner/unlisted_skip_said_where_it_happens ||
    fail runner/unlisted_skip_said_where_it_happens "$(grep unlisted "$TMP/gpu")"
has runner/listed_skip_allowed_with_its_reason "$TMP/gpu" \
    "SKIPPED: fake/listed (allowed: the frobnicator is not on the GPU machine)" \
    "SKIPPED: cm_listed_glob_one (allowed: checks the no-GPU path)"
[ "$(tail -1 "$TMP/gpu")" = "3 passed, 5 failed, 2 skipped" ] && [ "$(cat "$TMP/gpu.rc")" = 1 ] &&
    pass runner/totals_under_require_gpu ||
    fail runner/totals_under_require_gpu "exit $(cat "$TMP/gpu.rc"), last line '$(tail -1 "$TMP/gpu")'"

grep -qx 'run.sh: allowed here but not skipped (.*allowed.txt): never/skipped' "$TMP/gpu" &&
    pass runner/stale_allowed_skip_named || fail runner/stale_allowed_skip_named "$(grep 'not skipped' "$TMP/gpu")"
grep -q 'not skipped' "$TMP/cpu" && fail runner/stale_named_only_under_require_gpu ||
    pass runner/stale_named_only_under_require_gpu

# all good: exit 0
rm "$D/no_run_bit.sh" "$D/silent.sh" "$D/skips.sh"
GEMMPROF_REQUIRE_GPU=1 GEMMPROF_TEST_SCRIPTS="$D" GEMMPROF_ALLOWED_SKIPS="$TMP/allowed.txt" \
    bash "$RUN" >"$TMP/ok" 2>&1
rc=$?
[ $rc = 0 ] && [ "$(tail -1 "$TMP/ok")" = "2 passed, 0 failed, 0 skipped" ] &&
    pass runner/clean_run_exits_0 || fail runner/clean_run_exits_0 "exit $rc: $(tail -3 "$TMP/ok" | tr '\n' '|')"
