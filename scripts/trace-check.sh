#!/usr/bin/env bash
# trace-check.sh - gemmprof trace on the GPU machine, in one device call:
#   1. build (gemmprof, the injection library, the tests, the fixture app)
#   2. the trace tests: tests/trace_gpu.sh, tests/trace_harm.sh and
#      tests/trace.sh, the cmocka tests of src/trace and src/inject
#      (GEMMPROF_REQUIRE_GPU=1: nothing may skip)
#   3. an outside client: PyTorch 4096^3 matmuls in FP32 (TF32 off), TF32
#      and BF16, two of each (--tensor-counters auto takes a tensor GEMM's
#      tensor-path counters from the second); their GEMM rows' counted
#      FLOPs per launch against 2*4096^3 (1%)
#   4. the fixture app against ncu --clock-control none, same metrics,
#      per-metric ratios (instruction counts exact, the rest 2%), with ncu's
#      default cache flush and with --cache-control none; and the profiled
#      launches' Activity durations against a --metrics none trace's
#   5. overhead on the fixture at 100 launches: wall time of gemmprof trace
#      and of ncu (same metrics, every launch), each minus the plain run's
#   6. the ladder's counter tests (tests/cupti/test_counters.c), which now
#      check flop_count with the tensor-path counters on every TF32/FP64 rung
# and a summary table.  Every launch is profiled here (--sample all
# --per-launch), as ncu does without a filter; scripts/trace-scale.sh
# measures the default sampling.  Run files and logs go to $OUT; nothing is rendered
# (no gnuplot there): plot them elsewhere with gemmprof plot.
#   7. (cost, on request) the overhead by pass count, with each launch's cost by phase
#   scripts/trace-check.sh [STAGE...]   stages: build test torch ncu overhead cost ladder
# Env: OUT (default ./trace-out), JOBS (nproc), NCU (ncu), PYTHON (python3),
#      LAUNCH_RUNS (20: 5 launches each), NCU_TIMEOUT (150 s a run).
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
OUT=${OUT:-$PWD/trace-out}; mkdir -p "$OUT"; OUT=$(cd "$OUT" && pwd)
JOBS=${JOBS:-$(nproc)}
NCU=${NCU:-ncu}
PYTHON=${PYTHON:-python3}
RUNS=${LAUNCH_RUNS:-20}
NCU_TIMEOUT=${NCU_TIMEOUT:-150}
export PATH=/usr/local/cuda/bin:$PATH
[ -f /usr/include/cmocka.h ] || export CMOCKA=$ROOT/.devdeps/cmocka
[ -f /usr/include/jansson.h ] || export JANSSON=$ROOT/.devdeps/jansson
GP=$ROOT/bin/gemmprof
CMP="$PYTHON $ROOT/scripts/trace-compare.py"
APP=$OUT/app
stages=("$@"); [ ${#stages[@]} -gt 0 ] || stages=(build test torch ncu overhead ladder)
status=0
summary=()
note() { summary+=("$1"); }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
metrics_of() { sed -n 's/^# metrics: //p' "$1" | head -1; }

stage_build() {
    local t0; t0=$(now)
    if ! make -j"$JOBS" all tests >"$OUT/build.log" 2>&1; then
        tail -30 "$OUT/build.log"; note "build: FAILED (build.log)"; status=1; return 1
    fi
    local cc; cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d ' .')
    if ! nvcc -O3 -arch="sm_${cc:-90}" -o "$APP" tests/fixtures/trace/app.cu >>"$OUT/build.log" 2>&1; then
        note "build: fixture app FAILED (build.log)"; status=1; return 1
    fi
    note "build: ok ($(since "$t0") s; $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1))"
}

stage_test() {
    local t0 t; t0=$(now)
    : >"$OUT/test.log"
    for t in build/tests/trace/test_* build/tests/inject/test_*; do
        "$t" >>"$OUT/test.log" 2>&1 || status=1
    done
    for t in tests/trace_gpu.sh tests/trace_harm.sh tests/trace.sh; do
        GEMMPROF_REQUIRE_GPU=1 GEMMPROF_BIN=$GP TRACE_KEEP=$OUT/fixture bash "$t" >>"$OUT/test.log" 2>&1
    done
    local p f s ok bad
    p=$(grep -c '^PASS' "$OUT/test.log"); f=$(grep -c '^FAIL' "$OUT/test.log")
    s=$(grep -c '^SKIP' "$OUT/test.log")
    ok=$(grep -c '^\[       OK \]' "$OUT/test.log"); bad=$(grep -c '^\[  FAILED  \] [a-z]' "$OUT/test.log")
    grep -E '^FAIL|^\[  FAILED  \] [a-z]' "$OUT/test.log" | head -20
    [ "$f" = 0 ] && [ "$bad" = 0 ] || status=1
    note "test: trace shell tests $p passed, $f failed, $s skipped; cmocka $ok passed, $bad failed ($(since "$t0") s; test.log)"
}

# One PyTorch matmul, traced: only the GEMM kernels (cuBLAS/CUTLASS names).
stage_torch() {
    local mode t0 rc
    "$PYTHON" -c 'import torch; print(torch.__version__, torch.version.cuda)' >"$OUT/torch-version.txt" 2>&1 ||
        { note "torch: no PyTorch ($(tail -1 "$OUT/torch-version.txt"))"; status=1; return 1; }
    for mode in fp32 tf32 bf16; do
        t0=$(now)
        "$GP" trace --kernel-regex 'gemm|xmma|cutlass|nvjet|cublas' -o "$OUT/torch-$mode.csv" -- \
            "$PYTHON" scripts/trace-matmul.py "$mode" 4096 2 >"$OUT/torch-$mode.log" 2>&1
        rc=$?
        $CMP flops "$OUT/torch-$mode.csv" 'gemm|xmma|cutlass|nvjet' '2*4096**3' --tol 1 \
            >"$OUT/torch-$mode.flops" 2>&1 || status=1
        cat "$OUT/torch-$mode.flops"
        note "torch $mode: exit $rc ($(since "$t0") s); $(grep -m1 -E '^(ok|BAD)' "$OUT/torch-$mode.flops" | cut -c1-150)"
        [ $rc = 0 ] || status=1
    done
}

# The fixture app under gemmprof trace and under ncu, the same metrics.
stage_ncu() {
    command -v "$NCU" >/dev/null || { note "ncu: $NCU not found"; status=1; return 1; }
    local t0 cache; t0=$(now)
    "$GP" trace --sample all --per-launch -o "$OUT/fixture-trace.csv" -- "$APP" --expect "$OUT/fixture-expect.txt" \
        >"$OUT/fixture-trace.log" 2>&1 || status=1
    $CMP expect "$OUT/fixture-trace.csv" "$OUT/fixture-expect.txt" >"$OUT/fixture-expect.log" 2>&1 ||
        status=1
    # the same launches without replay: how far a profiled launch's duration is
    "$GP" trace --metrics none --per-launch -o "$OUT/fixture-unprofiled.csv" -- "$APP" \
        >"$OUT/fixture-unprofiled.log" 2>&1 || status=1
    $CMP times "$OUT/fixture-trace.csv" "$OUT/fixture-unprofiled.csv" >"$OUT/fixture-times.cmp" 2>&1
    cat "$OUT/fixture-times.cmp"
    note "durations, profiled/unprofiled: $(awk 'NR > 1 { printf "%s %s; ", $1, $5 }' "$OUT/fixture-times.cmp")"
    local metrics; metrics=$(metrics_of "$OUT/fixture-trace.csv")
    for cache in all none; do
        LC_ALL=C timeout "$NCU_TIMEOUT" "$NCU" --clock-control none --cache-control "$cache" \
            --print-units base --csv --metrics "$metrics" --log-file "$OUT/ncu-$cache.csv" \
            "$APP" >"$OUT/ncu-$cache.app.log" 2>&1 || status=1
        $CMP ncu "$OUT/fixture-trace.csv" "$OUT/ncu-$cache.csv" --tol 2 >"$OUT/ncu-$cache.cmp" 2>&1 ||
            status=1
        note "ncu (cache-control $cache): $(tail -1 "$OUT/ncu-$cache.cmp")"
    done
    cat "$OUT/ncu-all.cmp"
    note "fixture counts: $(grep -c '^ok' "$OUT/fixture-expect.log") exact, $(grep -c '^BAD\|^MISSING' "$OUT/fixture-expect.log") not ($(since "$t0") s)"
}

# Wall time over a plain run, the same launches and metrics for both tools.
stage_overhead() {
    local t0 plain tr nc metrics
    "$APP" --launches "$RUNS" >/dev/null 2>&1              # warm the driver's caches
    t0=$(now); "$APP" --launches "$RUNS" >"$OUT/overhead-plain.log" 2>&1; plain=$(since "$t0")
    t0=$(now)
    "$GP" trace --sample all --per-launch -o "$OUT/overhead-trace.csv" -- "$APP" --launches "$RUNS" >"$OUT/overhead-trace.log" 2>&1 ||
        status=1
    tr=$(since "$t0")
    metrics=$(metrics_of "$OUT/overhead-trace.csv")
    t0=$(now)
    LC_ALL=C timeout "$NCU_TIMEOUT" "$NCU" --clock-control none --print-units base --csv \
        --metrics "$metrics" --log-file "$OUT/overhead-ncu.csv" "$APP" --launches "$RUNS" \
        >"$OUT/overhead-ncu.app.log" 2>&1 || status=1
    nc=$(since "$t0")
    local rows ncu_launches
    rows=$(grep -vc '^#' "$OUT/overhead-trace.csv"); rows=$((rows - 1))
    ncu_launches=$(grep '^"' "$OUT/overhead-ncu.csv" | awk -F'","' 'NR > 1 { print $1 }' | sort -u | wc -l)
    note "$(awk -v p="$plain" -v t="$tr" -v n="$nc" -v r="$rows" -v l="$ncu_launches" 'BEGIN {
        printf "overhead: %d launches traced, %d under ncu; plain %.1f s, trace %.1f s (+%.1f), ncu %.1f s (+%.1f): trace/ncu overhead %.3f (goal <= 0.25)",
               r, l, p, t, t - p, n, n - p, ((n - p) > 0 ? (t - p) / (n - p) : -1) }')"
}

# Where the overhead goes, by pass count: the fixture at LAUNCH_RUNS x 5
# launches under trace with metric sets of 1 and 2 passes and the default
# set, twice each (the spread), and under ncu with the same metrics; each
# minus the plain run.  The default set's rows are checked against the
# app's exact counts; each trace's profiling_cost line (host time per
# launch, by phase) is kept.
COST_ONE="sm__sass_thread_inst_executed_op_ffma_pred_on.sum,sm__sass_thread_inst_executed_op_fadd_pred_on.sum,sm__sass_thread_inst_executed_op_fmul_pred_on.sum,sm__sass_thread_inst_executed_op_dfma_pred_on.sum,sm__sass_thread_inst_executed_op_dadd_pred_on.sum,sm__sass_thread_inst_executed_op_dmul_pred_on.sum"
COST_TWO="gpu__time_duration.sum,$COST_ONE"
stage_cost() {
    local t0 plain set metrics run tr nc f passes line
    "$APP" --launches "$RUNS" >/dev/null 2>&1
    t0=$(now); "$APP" --launches "$RUNS" >/dev/null 2>&1; plain=$(since "$t0")
    for set in one two default; do
        case $set in one) metrics=$COST_ONE ;; two) metrics=$COST_TWO ;; *) metrics=default ;; esac
        line="cost $set:"
        for run in 1 2; do
            f=$OUT/cost-$set-$run
            t0=$(now)
            "$GP" trace --sample all --per-launch --metrics "$metrics" -o "$f.csv" -- \
                "$APP" --launches "$RUNS" --expect "$f.expect" >"$f.log" 2>&1 || status=1
            tr=$(since "$t0")
            passes=$(sed -n 's/^# passes: //p' "$f.csv" | head -1)
            line+=" $passes passes; trace run $run +$(awk -v a="$tr" -v b="$plain" 'BEGIN { printf "%.1f", a - b }') s"
            if [ "$set" = default ]; then
                $CMP expect "$f.csv" "$f.expect" >"$f.cmp" 2>&1 || status=1
                line+=" (exact counts: $(grep -c '^ok' "$f.cmp") ok, $(grep -c '^BAD\|^MISSING' "$f.cmp") not)"
            fi
            sed -n 's/^# profiling_cost: /    /p' "$f.csv" >>"$OUT/cost.txt"
        done
        [ "$metrics" != default ] || metrics=$(metrics_of "$OUT/cost-default-1.csv")
        t0=$(now)
        LC_ALL=C timeout "$NCU_TIMEOUT" "$NCU" --clock-control none --print-units base --csv \
            --metrics "$metrics" --log-file "$OUT/cost-$set-ncu.csv" "$APP" --launches "$RUNS" \
            >/dev/null 2>&1 || status=1
        nc=$(since "$t0")
        line+="; ncu +$(awk -v a="$nc" -v b="$plain" 'BEGIN { printf "%.1f", a - b }') s (plain $plain s)"
        echo "$line" >>"$OUT/cost.txt"
        note "$line"
    done
}

stage_ladder() {
    local t0; t0=$(now)
    GEMMPROF_REQUIRE_GPU=1 timeout 240 build/tests/cupti/test_counters >"$OUT/ladder-counters.log" 2>&1 ||
        status=1
    grep -E '^counters/flop_count.*flop_count|^\[  FAILED  \] counters' "$OUT/ladder-counters.log" | head -40
    note "ladder counters: $(grep -c '^\[       OK \]' "$OUT/ladder-counters.log") passed, $(grep -c '^\[  FAILED  \] counters' "$OUT/ladder-counters.log") failed, $(grep -c '^\[  SKIPPED \]' "$OUT/ladder-counters.log") skipped ($(since "$t0") s; ladder-counters.log)"
}

for s in "${stages[@]}"; do
    case $s in
    build|test|torch|ncu|overhead|cost|ladder) "stage_$s" || [ "$s" != build ] || break ;;
    *) echo "trace-check: unknown stage $s"; status=2 ;;
    esac
done

echo "==== trace-check summary ($(date -u +%Y-%m-%dT%H:%M:%SZ), commit $(git rev-parse --short=12 HEAD 2>/dev/null || cat .git-commit 2>/dev/null || echo unknown))"
printf '%s\n' "${summary[@]}"
echo "files: $OUT"
exit $status
