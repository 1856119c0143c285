#!/usr/bin/env bash
# sanitizer.sh - compute-sanitizer memcheck on one small, tile-unfriendly size
# per rung (out-of-bounds loads at edges are the classic GEMM bug).
. "$(dirname "$0")/lib.sh"
# --list columns are 2+ spaces apart: name, precision, needs, here, idea
"$GP" --list 2>/dev/null | awk -F'  +' 'NR > 1 && $1 !~ /^cublas/ {print $1, $3 "|" $4}' |
while read -r k needs; do
    name=sanitizer/memcheck/$k
    gpu_or_skip "$name" || continue
    if [ "${needs#*|}" = skipped ]; then skip "$name" "this GPU or build lacks ${needs%|*}"; continue; fi
    if ! command -v compute-sanitizer >/dev/null; then fail "$name" "compute-sanitizer not on PATH"; continue; fi
    if compute-sanitizer --tool memcheck --error-exitcode 99 "$GP" --kernel "$k" \
        --mnk 67,45,37 --reps 1 --warmup 0 --metrics none --quiet --out "$TMP/$k.csv" \
        >"$TMP/$k.log" 2>&1; then pass "$name"
    else fail "$name" "$(grep -m3 -E 'ERROR|Invalid|error' "$TMP/$k.log" | tr '\n' ' ')"; fi
done
