#!/usr/bin/env bash
# reference-data.sh - the measurements committed under reports/data/<gpu>/,
# made in one device call (after scripts/device-check.sh build):
#   ceilings, the ladder at 4096 with counters, the ladder over sizes, the
#   FP32 tile sweep (square and k-skinny) with the mixed kernel against it,
#   the spill specimen and its diff, the top-of-ladder benchmark
#   (scripts/bench.sh), the triad experiments, and the ncu comparison.
# Everything goes to $OUT/refdata (default ./refdata) and is tarred into
# $OUT/refdata.tar.gz.  Env: GEMMPROF_BIN (bin/gemmprof).
set -uo pipefail
cd "$(dirname "$0")/.."
GP=${GEMMPROF_BIN:-bin/gemmprof}
OUT=${OUT:-$PWD}; D=$OUT/refdata; mkdir -p "$D"
export GEMMPROF_CACHE=$D/cache
log() { echo "== $*"; }

log probe;   $GP probe --out "$D/ceilings.csv" >"$D/probe.log" 2>&1
$GP probe --probe-bytes 2G --out "$D/ceilings-2G.csv" >"$D/probe-2G.log" 2>&1
log ladder;  $GP --kernel all --size 4096 --roofline --out "$D/ladder-4096.csv" >"$D/ladder-4096.log" 2>&1
log sizes;   $GP --kernel all --sizes 256,512,1024,2048,4096 --reps 10 --out "$D/ladder-sizes.csv" >"$D/ladder-sizes.log" 2>&1
log sweep;   $GP sweep --kernel blocktile_2d --sizes 128,256,384,512,768,1024,1536,2048,3072,4096 \
                 --reps 10 --out "$D/sweep-fp32.csv" --tuning "$D/tuning-blocktile_2d.csv" >"$D/sweep-fp32.log" 2>&1
log mixed;   GEMMPROF_TUNING=$D/tuning-blocktile_2d.csv $GP --kernel mixed --metrics none --reps 10 \
                 --sizes 128,256,384,512,768,1024,1536,2048,3072,4096 --out "$D/mixed-fp32.csv" >"$D/mixed-fp32.log" 2>&1
log sweep64; $GP sweep --kernel dgemm_blocktile_2d --sizes 128,256,384,512,768,1024,1536,2048,3072,4096 \
                 --reps 10 --out "$D/sweep-fp64.csv" --tuning "$D/tuning-dgemm_blocktile_2d.csv" >"$D/sweep-fp64.log" 2>&1
log mixed64; GEMMPROF_TUNING=$D/tuning-dgemm_blocktile_2d.csv $GP --kernel dgemm_mixed --metrics none --reps 10 \
                 --sizes 128,256,384,512,768,1024,1536,2048,3072,4096 --out "$D/mixed-fp64.csv" >"$D/mixed-fp64.log" 2>&1
log skinny;  $GP sweep --kernel blocktile_2d --preset k-skinny --reps 10 --out "$D/sweep-k-skinny.csv" \
                 --tuning "$D/tuning-k-skinny.csv" >"$D/sweep-k-skinny.log" 2>&1
for kk in 32 64 128 156; do for mn in 4096 8192; do
    $GP --kernel warptiling,cublas --mnk $mn,$mn,$kk --metrics none --reps 20 --quiet \
        --out "$D/k-skinny-$mn-$kk.csv" >/dev/null 2>>"$D/k-skinny.log"; done; done
log specimen; $GP --kernel specimen_uint,specimen_sizet --size 4096 --out "$D/specimen-4096.csv" >"$D/specimen.log" 2>&1
$GP diff "$D/specimen-4096.csv" "$D/specimen-4096.csv" --pair specimen_uint=specimen_sizet >"$D/specimen-diff.txt" 2>&1
echo "exit $?" >>"$D/specimen-diff.txt"
log bench;   OUT=$D bash scripts/bench.sh >"$D/bench-table.txt" 2>&1
log triad;   nvcc -O3 -std=c++17 -arch=sm_90 -o "$D/triad" probes/experiments/triad_variants.cu &&
             "$D/triad" >"$D/triad-variants.txt" 2>&1; rm -f "$D/triad"
log ncu;     OUT=$D bash scripts/ncu-compare.sh 4096 >"$D/ncu-compare-4096.txt" 2>&1
rm -rf "$D/ncu-compare"
tar -C "$OUT" -czf "$OUT/refdata.tar.gz" refdata
tail -3 "$D/ncu-compare-4096.txt"; cat "$D/specimen-diff.txt" | head -12
grep -E "best|crossover" "$D/sweep-fp32.log" | head -20
