#!/usr/bin/env bash
# bench.sh - the top-of-ladder benchmark in one device call: every rung from
# `warptiling` up (FP32 SIMT), the TF32 rungs, and the FP64 rungs from
# dgemm_double_buffer up, each in the SAME run as its cuBLAS reference:
#   square FP32 1024, 2048, 4096, 8192    vs cublas       (timing only)
#   TF32 2048, 4096, 8192                 vs cublas_tf32
#   FP64 4096                             vs cublas_fp64
#   M,N >> K: 8192 x 8192 x K, K = 32, 64, 128, 156 (FP32 rungs vs cublas)
#   and one profiled run at 4096 (counters) of the FP32 rungs + cublas:
#   the profile that explains the remaining gap.
# Then a table: kernel, shape, TFLOP/s, % of cuBLAS of the same precision.
#   scripts/bench.sh [PART...]      (builds bin/gemmprof first if missing)
# PARTS: fp32 tf32 fp64 kskinny profile (default: all).  ROUNDS=N repeats the
# timed parts N times (files NAME.csv, NAME-r2.csv, ...) and then summarises
# each part's rounds (scripts/rounds-summary.py: median and spread over
# rounds, each round's value itself the median of REPS launches).
# Env: OUT (default ./bench-out), GEMMPROF_BIN (bin/gemmprof), REPS (20),
#      ROUNDS (1), ENERGY (seconds: each timed part also gets gemmprof's
#      --energy window, the sustained speed and joules per launch, which the
#      rounds summary then compares with cuBLAS too), TF32_RUNGS (the TF32
#      rungs, default all), TF32_SIZES (2048,4096,8192), INTERLEAVE (1, the
#      default: gemmprof --interleave, each rung's timed launches alternating
#      with cuBLAS's, so % of cuBLAS compares launches made in the same clock
#      and power state; 0: each kernel's burst on its own, cuBLAS's first).
set -uo pipefail
cd "$(dirname "$0")/.."
GP=${GEMMPROF_BIN:-bin/gemmprof}
OUT=${OUT:-$PWD/bench-out}; D=$OUT/bench; mkdir -p "$D"
REPS=${REPS:-20}
ROUNDS=${ROUNDS:-1}
RUN_ARGS=(); [ -n "${ENERGY:-}" ] && RUN_ARGS=(--energy "$ENERGY")
[ "${INTERLEAVE:-1}" = 1 ] && RUN_ARGS+=(--interleave)
parts=("$@"); [ ${#parts[@]} -gt 0 ] || parts=(fp32 tf32 fp64 kskinny profile)
want() { [[ " ${parts[*]} " == *" $1 "* ]]; }
export PATH=/usr/local/cuda/bin:$PATH
[ -x "$GP" ] || make -j"$(nproc)" all >"$D/build.log" 2>&1 || { tail -20 "$D/build.log"; exit 1; }

# Rungs by ladder order and precision (the --list table: name precision idea).
list() { "$GP" --list | awk -v p="$1" -v from="$2" 'NR > 1 {
    if ($1 == from) on = 1
    if (on && $2 == p && $1 !~ /^(specimen_|cublas|mixed|dgemm_mixed)/) printf "%s%s", n++ ? "," : "", $1 }'; }
FP32=$(list fp32 warptiling)
TF32=${TF32_RUNGS:-$(list tf32 "$("$GP" --list | awk '$2 == "tf32" { print $1; exit }')")}
FP64=$(list fp64 dgemm_double_buffer)
status=0
run() {  # name, then gemmprof arguments
    local name=$1; shift
    echo "== $name"
    "$GP" "$@" --reps "$REPS" "${RUN_ARGS[@]}" --quiet --out "$D/$name.csv" \
        >>"$D/bench.log" 2>&1 || status=1
}
rounds() {  # name, then gemmprof arguments: ROUNDS runs
    local name=$1; shift
    run "$name" "$@"
    for ((r = 2; r <= ROUNDS; r++)); do run "$name-r$r" "$@"; done
}

want fp32 && rounds fp32-square --kernel "$FP32,cublas" --sizes 1024,2048,4096,8192 --metrics none
want tf32 && [ -n "$TF32" ] && rounds tf32-square --kernel "$TF32,cublas_tf32" --sizes "${TF32_SIZES:-2048,4096,8192}" --metrics none
want fp64 && rounds fp64-4096 --kernel "$FP64,cublas_fp64" --size 4096 --metrics none
if want kskinny; then
    for kk in 32 64 128 156; do
        rounds "k-skinny-$kk" --kernel "$FP32,cublas" --mnk 8192,8192,$kk --metrics none
    done
fi
want profile && run fp32-4096-profile --kernel "$FP32,cublas" --size 4096

echo "==== bench: TFLOP/s and % of cuBLAS (same precision, same run)"
for f in "$D"/*.csv; do
    awk -F, -v file="$(basename "$f" .csv)" '
        /^#/ { next }
        !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
        { printf "%-18s %-20s %5s %6sx%6sx%6s %8.2f %7s %s\n", file, $c["kernel"], $c["precision"],
                 $c["m"], $c["n"], $c["k"], $c["gflops"] / 1000, $c["pct_cublas"],
                 $c["verified"] == 1 ? "" : "NOT VERIFIED" }' "$f"
done | sort -k1,1 -k4,4 -s
if [ "$ROUNDS" -gt 1 ]; then
    for f in "$D"/*-r2.csv; do
        base=${f%-r2.csv}
        echo "==== $(basename "$base"): $ROUNDS rounds"
        python3 scripts/rounds-summary.py --goal 95 "$base.csv" "$base"-r*.csv | tee "$base-rounds.txt"
    done
fi
tar -C "$OUT" -czf "$OUT/bench.tar.gz" bench
exit $status
