#!/usr/bin/env bash
# sweep_gpu.sh - `gemmprof sweep` end to end: command-line errors (no GPU
# needed), then on a GPU, for the FP32 family blocktile_2d and the FP64 one
# dgemm_blocktile_2d: every tile config verified at awkward sizes and a
# k-skinny shape, rows with a config column, the tuning table in the cache,
# and the mixed kernel of the precision (mixed, dgemm_mixed) reading it
# (and the default without it).
. "$(dirname "$0")/lib.sh"

expect sweep/help 0 'Usage: gemmprof sweep' -- "$GP" sweep --help
expect sweep/unknown_config_lists_valid 2 "unknown blocktile_2d config 'x9'.*128x128x8/8x8" -- \
    "$GP" sweep -k blocktile_2d --configs x9 -s 64
expect sweep/unknown_fp64_config_lists_fp64_ones 2 "unknown dgemm_blocktile_2d config '32x32x8/4x4'.*32x32x4/4x2" -- \
    "$GP" sweep -k dgemm_blocktile_2d --configs 32x32x8/4x4 -s 64
expect sweep/unknown_family 2 "unknown kernel family 'nope'.*blocktile_2d" -- \
    "$GP" sweep -k nope -s 64
expect sweep/no_size 2 'no size given' -- "$GP" sweep -k blocktile_2d
expect sweep/unknown_preset 2 "unknown preset 'wide'" -- \
    "$GP" sweep -k blocktile_2d --preset wide

# col FILE NAME: the 1-based index of column NAME in a run file's header
col() { awk -F, -v c="$2" '!/^#/ { for (i = 1; i <= NF; i++) if ($i == c) print i; exit }' "$1"; }

gpu_or_skip sweep/fp32_and_fp64_configs_verify_and_tuning_written || exit 0
export GEMMPROF_CACHE=$TMP/cache

# sweep_family FAMILY PREC: every config of FAMILY verifies at 31, 33, 257,
# 1025 and 4096x4096x32, and the sweep writes FAMILY's tuning table
sweep_family() {
    local fam=$1 prec=$2 name=sweep/${2}_configs_verify_and_tuning_written
    local nconf; nconf=$("$GP" sweep -k "$fam" --configs '?' -s 8 2>&1 | sed 's/.*configs: //; s/, or all.*//' | tr ',' '\n' | grep -c x)
    "$GP" sweep -k "$fam" --sizes 31,33,257,1025 --mnk 4096,4096,32 --reps 2 \
        --warmup 1 --seed 7 --out "$TMP/sweep-$fam.csv" >"$TMP/out" 2>"$TMP/err"
    local rc=$? f=$TMP/sweep-$fam.csv
    local tuning; tuning=$(ls "$GEMMPROF_CACHE"/tuning-*-"$fam".csv 2>/dev/null | head -1)
    if [ "$rc" != 0 ]; then
        fail "$name" "exit $rc: $(grep -v '^ *ok' "$TMP/out" | head -c 400) $(head -c 300 "$TMP/err")"
        return
    fi
    local kc cc vc; kc=$(col "$f" kernel); cc=$(col "$f" config); vc=$(col "$f" verified)
    local rows; rows=$(awk -F, -v k="$kc" -v c="$cc" -v v="$vc" -v fam="$fam" '!/^#/ && $k == fam && $c != "" && $v == 1' "$f" | wc -l)
    local distinct; distinct=$(awk -F, -v k="$kc" -v c="$cc" -v fam="$fam" '!/^#/ && $k == fam { print $c }' "$f" | sort -u | wc -l)
    if [ "$nconf" -lt 2 ] || [ "$distinct" != "$nconf" ] || [ "$rows" != $((5 * nconf)) ]; then
        fail "$name" "$rows verified rows, $distinct configs, want $((5 * nconf)) and $nconf"
    elif [ -z "$tuning" ] || ! grep -q '^family,precision,min_size,max_size,config,gflops$' "$tuning" ||
         ! grep -q "^$fam,$prec,1," "$tuning" || ! grep -q "^best $fam config" "$TMP/out"; then
        fail "$name" "no tuning table or summary: $(head -c 300 "$TMP/out")"
    else
        pass "$name"
    fi
}
sweep_family blocktile_2d fp32
sweep_family dgemm_blocktile_2d fp64

# mixed_uses KERNEL NAME PREFIX: KERNEL verifies and its rows' config starts
# with PREFIX
mixed_uses() {
    local kern=$1 name=$2 prefix=$3
    "$GP" -k "$kern" --sizes 31,257,1025 --mnk 4096,4096,32 --reps 2 --warmup 1 \
        --metrics none --out "$TMP/$name.csv" >"$TMP/out" 2>"$TMP/err"
    local rc=$? f=$TMP/$name.csv
    local kc cc vc; kc=$(col "$f" kernel); cc=$(col "$f" config); vc=$(col "$f" verified)
    local bad; bad=$(awk -F, -v k="$kc" -v c="$cc" -v v="$vc" -v p="$prefix" -v kern="$kern" \
        '!/^#/ && $k == kern && (index($c, p) != 1 || $v != 1) { n++ } END { print n + 0 }' "$f")
    local n; n=$(awk -F, -v k="$kc" -v kern="$kern" '!/^#/ && $k == kern' "$f" | wc -l)
    if [ "$rc" != 0 ] || [ "$n" != 4 ] || [ "$bad" != 0 ]; then
        fail "sweep/$name" "exit $rc, $n rows, $bad not verified or not '$prefix': $(head -c 300 "$TMP/err")"
    else
        pass "sweep/$name"
    fi
}
for kern in mixed dgemm_mixed; do
    fam=blocktile_2d; [ "$kern" = dgemm_mixed ] && fam=dgemm_blocktile_2d
    if ls "$GEMMPROF_CACHE"/tuning-*-"$fam".csv >/dev/null 2>&1; then
        mixed_uses "$kern" "${kern}_verifies_with_the_tuning_table" "tuned:"
    else
        fail "sweep/${kern}_verifies_with_the_tuning_table" "no $fam tuning table was written"
    fi
    GEMMPROF_CACHE=$TMP/empty-cache mixed_uses "$kern" "${kern}_verifies_with_the_default" "default:"
done
