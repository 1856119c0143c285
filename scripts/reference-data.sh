#!/usr/bin/env bash
# reference-data.sh - the measurements committed under reports/data/<gpu>/,
# made in one device call (after scripts/device-check.sh build):
#   ceilings, the ladder at 4096 with counters, the ladder over sizes, the
#   FP32 and FP64 tile sweeps (awkward sizes, k-skinny) with the mixed
#   kernels against them (scripts/mixed-vs-best.py), FP64 ladder rounds,
#   the DFMA issue experiments,
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
# Sweeps at the seed reports' awkward sizes, twice (the second run is the
# reference the mixed kernels are judged against, and part of the noise),
# then the mixed kernels three times on the first run's tuning tables.
SW=31,32,33,128,255,256,257,384,512,768,1023,1024,1025,1536,2047,2048,2049,3072,4096
S=$D/sweep-mixed; mkdir -p "$S"
for fam in blocktile_2d:fp32:mixed dgemm_blocktile_2d:fp64:dgemm_mixed; do
    IFS=: read -r f p mk <<<"$fam"
    for r in 1 2; do
        log "sweep $f $r"; $GP sweep --kernel "$f" --sizes $SW --reps 10 --out "$S/sweep-$f-r$r.csv" \
            --tuning "$S/tuning-$f-r$r.csv" >"$S/sweep-$f-r$r.log" 2>&1
    done
    for r in 1 2 3; do
        GEMMPROF_TUNING=$S/tuning-$f-r1.csv $GP --kernel "$mk" --metrics none --reps 10 --sizes $SW \
            --out "$S/mixed-$p-r$r.csv" >>"$S/mixed.log" 2>&1
    done
    python3 scripts/mixed-vs-best.py "$S/sweep-$f-r1.csv" "$S/sweep-$f-r2.csv" "$S"/mixed-$p-r?.csv \
        >>"$S/mixed-vs-best.txt" 2>&1
done
log skinny;  $GP sweep --kernel blocktile_2d --preset k-skinny --reps 10 --out "$D/sweep-k-skinny.csv" \
                 --tuning "$D/tuning-k-skinny.csv" >"$D/sweep-k-skinny.log" 2>&1
$GP sweep --kernel dgemm_blocktile_2d --preset k-skinny --reps 10 --out "$S/sweep-fp64-k-skinny.csv" \
    --tuning "$S/tuning-fp64-k-skinny.csv" >"$S/sweep-fp64-k-skinny.log" 2>&1
# The FP64 ladder against cuBLAS, three rounds: the H200 power-limits under
# FP64 tensor work, so one round says little about a few percent.
L=$D/fp64-ladder-4096-rounds; mkdir -p "$L"
FP64=$($GP --list | awk 'NR > 1 && $2 == "fp64" && $1 !~ /mixed|cublas/ { printf "%s%s", n++ ? "," : "", $1 }')
for r in 1 2 3; do
    $GP --kernel "$FP64,cublas_fp64" --size 4096 --reps 20 --metrics none --quiet \
        --out "$L/fp64-ladder-4096-r$r.csv" >>"$L/ladder.log" 2>&1
done
for kk in 32 64 128 156; do for mn in 4096 8192; do
    $GP --kernel warptiling,cublas --mnk $mn,$mn,$kk --metrics none --reps 20 --quiet \
        --out "$D/k-skinny-$mn-$kk.csv" >/dev/null 2>>"$D/k-skinny.log"; done; done
log specimen; $GP --kernel specimen_uint,specimen_sizet --size 4096 --out "$D/specimen-4096.csv" >"$D/specimen.log" 2>&1
$GP diff "$D/specimen-4096.csv" "$D/specimen-4096.csv" --pair specimen_uint=specimen_sizet >"$D/specimen-diff.txt" 2>&1
echo "exit $?" >>"$D/specimen-diff.txt"
log bench;   OUT=$D bash scripts/bench.sh >"$D/bench-table.txt" 2>&1
log dfma;    nvcc -O3 -std=c++17 -arch=sm_90 -Isrc -Ikernels -o "$D/dfma" probes/experiments/dfma_issue.cu &&
             "$D/dfma" >"$D/dfma-issue.txt" 2>&1; rm -f "$D/dfma"
for f in dgemm_08_warptiling dgemm_12_dfma_reuse; do
    cuobjdump -sass "build/kernels/$f.cu.o" >"$D/$f.sass" &&
        python3 probes/experiments/sass_reuse.py "$D/$f.sass" Lb1E; rm -f "$D/$f.sass"
done >"$D/sass-reuse.txt" 2>&1
log triad;   nvcc -O3 -std=c++17 -arch=sm_90 -o "$D/triad" probes/experiments/triad_variants.cu &&
             "$D/triad" >"$D/triad-variants.txt" 2>&1; rm -f "$D/triad"
log ncu;     OUT=$D bash scripts/ncu-compare.sh 4096 >"$D/ncu-compare-4096.txt" 2>&1
rm -rf "$D/ncu-compare"
tar -C "$OUT" -czf "$OUT/refdata.tar.gz" refdata
tail -3 "$D/ncu-compare-4096.txt"; cat "$D/specimen-diff.txt" | head -12
grep -h crossover "$S"/sweep-*-r1.log; grep -h 'sizes:' "$S/mixed-vs-best.txt"
