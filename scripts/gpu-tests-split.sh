#!/usr/bin/env bash
# gpu-tests-split.sh - `make test` over two GPUs side by side, for a device
# call on a 2-GPU machine: the GPU suite takes ~9 minutes on one H200, near
# a call's 10-minute limit; split, the longer half took 4.8 minutes (2 x
# H200, 2026-11-27).
#   GPU A: every cmocka binary and the scripts not in SLOW
#   GPU B: the scripts in SLOW (the GPU-heavy ones)
# Each half is the real runner (make test), scripts picked by
# GEMMPROF_TEST_SCRIPTS: a folder at the repository root that mirrors
# tests/ by symlinks, less the other half's scripts (tests find the root
# as their folder's parent).  Both logs go to OUT; the two totals lines
# and their sum are printed, the sum last.  Exit 1 if either half failed.
#   scripts/gpu-tests-split.sh [OUT]      (build first: make all tests)
# Env: SLOW (default below), GPUS ("0 1": CUDA_VISIBLE_DEVICES of A and
# B), GEMMPROF_REQUIRE_GPU (passed on; set it to 1 on the GPU machine).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-test-split-out}; mkdir -p "$OUT"
SLOW=${SLOW:-sanitizer.sh trace_harm.sh trace_gpu.sh trace.sh dist.sh plugin_gpu.sh ncu_compare.sh}
read -r gpu_a gpu_b <<<"${GPUS:-0 1}"
dir_a=$PWD/.tests-split-a dir_b=$PWD/.tests-split-b
trap 'rm -rf "$dir_a" "$dir_b"' EXIT

# mirror DIR SCRIPT...: tests/ by symlinks, less the scripts named.
mirror() {
    local d=$1 f; shift
    rm -rf "$d"; mkdir -p "$d"
    for f in tests/*; do ln -s "../$f" "$d/"; done
    for f in "$@"; do rm -f "$d/$f"; done
}
# shellcheck disable=SC2086  # SLOW is a list of names
others=$(cd tests && ls ./*.sh | sed 's|^\./||' | grep -vxF -e run.sh -e lib.sh $(printf -- '-e %s ' $SLOW))
# shellcheck disable=SC2086
mirror "$dir_a" $SLOW
# shellcheck disable=SC2086
mirror "$dir_b" $others

half() {  # NAME GPU SCRIPTS [make args]
    local name=$1 gpu=$2 dir=$3 t=$SECONDS; shift 3
    CUDA_VISIBLE_DEVICES=$gpu GEMMPROF_TEST_SCRIPTS=$dir make test "$@" >"$OUT/test-$name.log" 2>&1
    echo "$name: exit $?, $((SECONDS - t)) s" >"$OUT/test-$name.rc"
}
half a "$gpu_a" "$dir_a" &
# make test rewrites build/gen/arch.txt first (through a temporary file):
# B starts once A has begun its tests, so the two never race on it.
for _ in $(seq 1 120); do
    grep -qE '^(\[=|== )' "$OUT/test-a.log" 2>/dev/null && break
    sleep 0.5
done
half b "$gpu_b" "$dir_b" TESTS= &
wait
cat "$OUT/test-a.rc" "$OUT/test-b.rc"
status=0
p=0 f=0 s=0
for h in a b; do
    last=$(tail -1 "$OUT/test-$h.log")
    grep -E '^(FAILED|SKIPPED):' "$OUT/test-$h.log"
    echo "half $h: $last"
    read -r hp hf hs < <(echo "$last" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed, \([0-9]*\) skipped$/\1 \2 \3/p')
    if [ -z "${hp:-}" ]; then status=1; echo "half $h: no totals line"; continue; fi
    p=$((p + hp)) f=$((f + hf)) s=$((s + hs))
    grep -q ': exit 0,' "$OUT/test-$h.rc" || status=1
done
echo "$p passed, $f failed, $s skipped"
exit $status
