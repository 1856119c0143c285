#!/usr/bin/env bash
# arch-emulate.sh - on one Hopper GPU, the builds other GPUs would get (issue
# 15): the default build (make picks the GPU's own architecture), then
# PTX-only builds for compute_80 (what an A100 can run) and compute_75 (a
# T4), each in its own folder, each running `--kernel all` at SIZE.  The
# driver JIT-compiles the PTX for this GPU, so exactly the kernels those
# GPUs could run exist; every other one must be a row 'skipped: needs ...'.
#   scripts/arch-emulate.sh [SIZE]        (default 4096; OUT=DIR for the files;
#                                          BUILDS="compute_80 compute_75" for a subset)
# Per build: PASS when every row that ran verified and the skipped set is
# the one the PTX ISA's target notes give (as tests/registry/test_needs.c),
# else FAIL with the difference.  Exit 1 if any build failed.
set -uo pipefail
cd "$(dirname "$0")/.."
SIZE=${1:-4096}
OUT=${OUT:-results/arch-emulate-$(date -u +%Y%m%d-%H%M%S)}
JOBS=$(nproc)
mkdir -p "$OUT"

# kernels a build must skip on a CC 9.0 GPU
sm90_only="dgemm_dmma_k16 dgemm_dmma_tuned dgemm_dmma_interior dgemm_dmma_k8 tf32_wgmma
           tf32_wgmma_rs tf32_wgmma_mc tf32_wgmma_persist"
declare -A want=(
    [default]=""
    [compute_80]="$sm90_only"
    [compute_75]="$sm90_only cp_async frag_prefetch swizzle bk16 wide_tile split_tail subgemm_tail steady_loop dgemm_dmma
                  dgemm_warptiling dgemm_dfma_reuse tf32_mma"
)
status=0
for build in ${BUILDS:-default compute_80 compute_75}; do
    if [ "$build" = default ]; then b=build bin=bin args=(); else
        b=build-$build bin=bin-$build args=(ARCH="$build"); fi
    echo "== $build: make ${args[*]} B=$b BIN=$bin"
    if ! make -j"$JOBS" "${args[@]}" B="$b" BIN="$bin" all >"$OUT/$build-build.log" 2>&1; then
        echo "FAIL $build: build failed (tail of $OUT/$build-build.log):"; tail -5 "$OUT/$build-build.log"
        status=1; continue
    fi
    "$bin/gemmprof" --version
    "$bin/gemmprof" --list >"$OUT/$build-list.txt" 2>"$OUT/$build-list.err"
    cat "$OUT/$build-list.err"
    # counters on for the default build (the chip's name goes in the file);
    # the emulations only need rows
    metrics=(); [ "$build" = default ] || metrics=(--metrics none --reps 5)
    "$bin/gemmprof" --kernel all --size "$SIZE" "${metrics[@]}" --quiet \
        --out "$OUT/$build.csv" >"$OUT/$build-run.log" 2>&1
    echo "exit status $? ($OUT/$build.csv)"
    grep '^# \(build_arch\|cupti_chip\|metrics_not_on_chip\):' "$OUT/$build.csv"
    # kernel, status for every row
    awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
             { print $c["kernel"], $c["verified"], $c["status"] }' "$OUT/$build.csv" \
        >"$OUT/$build-rows.txt"
    skipped=$(awk '$3 == "skipped:" { print $1 }' "$OUT/$build-rows.txt" | sort | tr '\n' ' ')
    expected=$(tr -s ' \n' '\n' <<<"${want[$build]}" | grep . | sort | tr '\n' ' ')
    bad=$(awk '$3 != "skipped:" && $2 != 1' "$OUT/$build-rows.txt")
    awk '$3 == "skipped:"' "$OUT/$build-rows.txt" | sed 's/^/    /'
    if [ "$skipped" = "$expected" ] && [ -z "$bad" ]; then
        echo "PASS $build: $(grep -vc 'skipped:' "$OUT/$build-rows.txt") rows verified, skipped: ${skipped:-none}"
    else
        echo "FAIL $build: skipped '$skipped', expected '$expected'${bad:+; not verified: $bad}"
        status=1
    fi
done
exit $status
