#!/usr/bin/env bash
# device-check.sh - everything the GPU half needs, in one device call:
# build, GPU tests, the benchmark, the probes; data and logs under $OUT,
# a short table last.
#   scripts/device-check.sh [STAGE...]   stages: info build test test2 bench probe ncu
#   (test2: the GPU tests over two GPUs, on a 2-GPU machine)
#   (default: info build test probe bench)
# Env: OUT (default ./device-out), SIZE (4096), KERNELS (all), JOBS (nproc).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
SIZE=${SIZE:-4096}; KERNELS=${KERNELS:-all}; JOBS=${JOBS:-$(nproc)}
export PATH=/usr/local/cuda/bin:$PATH
# The GPU machine has no apt: carry cmocka unpacked from its .deb (see docs/ci.md)
[ -f /usr/include/cmocka.h ] || export CMOCKA=$PWD/.devdeps/cmocka
[ -f /usr/include/jansson.h ] || export JANSSON=$PWD/.devdeps/jansson
stages=("$@"); [ ${#stages[@]} -gt 0 ] || stages=(info build test probe bench)
status=0
summary=()

note() { summary+=("$1"); }
run_stage() {
    local s=$1 t0=$SECONDS
    case $s in
    info)
        { nvidia-smi; nvcc --version; uname -r; } >"$OUT/info.log" 2>&1
        nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw \
            --format=csv >>"$OUT/info.log" 2>&1
        note "info: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -1)" ;;
    build)
        if make -j"$JOBS" all tests >"$OUT/build.log" 2>&1; then
            note "build: ok ($((SECONDS - t0)) s)"
        else
            note "build: FAILED (see build.log)"; tail -30 "$OUT/build.log"; status=1; return 1
        fi ;;
    test)
        GEMMPROF_REQUIRE_GPU=1 make test >"$OUT/test.log" 2>&1 || status=1
        grep -E '^(FAILED|SKIPPED):' "$OUT/test.log" | head -40
        note "test: $(tail -1 "$OUT/test.log") ($((SECONDS - t0)) s)" ;;
    test2)      # the same over two GPUs side by side (scripts/gpu-tests-split.sh)
        GEMMPROF_REQUIRE_GPU=1 bash scripts/gpu-tests-split.sh "$OUT/test-split" \
            >"$OUT/test.log" 2>&1 || status=1
        grep -E '^(FAILED|SKIPPED):' "$OUT/test.log" | head -40
        note "test2: $(tail -1 "$OUT/test.log") ($((SECONDS - t0)) s)" ;;
    probe)
        bin/gemmprof probe --out "$OUT/ceilings.csv" >"$OUT/probe.log" 2>&1 || status=1
        note "probe: exit ${PIPESTATUS[0]} ($((SECONDS - t0)) s)" ;;
    bench)
        bin/gemmprof --kernel "$KERNELS" --size "$SIZE" --out "$OUT/ladder-$SIZE.csv" \
            >"$OUT/bench.log" 2>&1 || status=1
        note "bench: $((SECONDS - t0)) s" ;;
    ncu)
        bash scripts/ncu-compare.sh "$SIZE" >"$OUT/ncu-compare.log" 2>&1 || status=1
        note "ncu: $((SECONDS - t0)) s" ;;
    *) echo "unknown stage $s"; status=2 ;;
    esac
}

for s in "${stages[@]}"; do run_stage "$s" || break; done

echo "==== summary"
[ -f "$OUT/probe.log" ] && tail -25 "$OUT/probe.log"
[ -f "$OUT/bench.log" ] && cat "$OUT/bench.log"
printf '%s\n' "${summary[@]}"
exit $status
