#!/usr/bin/env bash
# sweep_gpu.sh - `gemmprof sweep` end to end: command-line errors (no GPU
# needed), then on a GPU every FP32 tile config verified at awkward sizes
# and a k-skinny shape, rows with a config column, the tuning table in the
# cache, and the mixed kernel reading it (and the default without it).
. "$(dirname "$0")/lib.sh"

expect sweep/help 0 'Usage: gemmprof sweep' -- "$GP" sweep --help
expect sweep/unknown_config_lists_valid 2 "unknown blocktile_2d config 'x9'.*128x128x8/8x8" -- \
    "$GP" sweep -k blocktile_2d --configs x9 -s 64
expect sweep/unknown_family 2 "unknown kernel family 'nope'.*blocktile_2d" -- \
    "$GP" sweep -k nope -s 64
expect sweep/no_size 2 'no size given' -- "$GP" sweep -k blocktile_2d
expect sweep/unknown_preset 2 "unknown preset 'wide'" -- \
    "$GP" sweep -k blocktile_2d --preset wide

# col FILE NAME: the 1-based index of column NAME in a run file's header
col() { awk -F, -v c="$2" '!/^#/ { for (i = 1; i <= NF; i++) if ($i == c) print i; exit }' "$1"; }

gpu_or_skip sweep/fp32_configs_verify_and_tuning_written || exit 0
export GEMMPROF_CACHE=$TMP/cache
nconf=$("$GP" sweep -k blocktile_2d --configs '?' -s 8 2>&1 | sed 's/.*configs: //; s/, or all.*//' | tr ',' '\n' | grep -c x)
"$GP" sweep -k blocktile_2d --sizes 31,33,257,1025 --mnk 4096,4096,32 --reps 2 \
    --warmup 1 --seed 7 --out "$TMP/sweep.csv" >"$TMP/out" 2>"$TMP/err"
rc=$?
f=$TMP/sweep.csv
tuning=$(ls "$GEMMPROF_CACHE"/tuning-*-blocktile_2d.csv 2>/dev/null | head -1)
if [ "$rc" != 0 ]; then
    fail sweep/fp32_configs_verify_and_tuning_written "exit $rc: $(grep -v '^ *ok' "$TMP/out" | head -c 400) $(head -c 300 "$TMP/err")"
else
    kc=$(col "$f" kernel) cc=$(col "$f" config) vc=$(col "$f" verified)
    rows=$(awk -F, -v k="$kc" -v c="$cc" -v v="$vc" '!/^#/ && $k == "blocktile_2d" && $c != "" && $v == 1' "$f" | wc -l)
    distinct=$(awk -F, -v k="$kc" -v c="$cc" '!/^#/ && $k == "blocktile_2d" { print $c }' "$f" | sort -u | wc -l)
    if [ "$nconf" -lt 2 ] || [ "$distinct" != "$nconf" ] || [ "$rows" != $((5 * nconf)) ]; then
        fail sweep/fp32_configs_verify_and_tuning_written "$rows verified rows, $distinct configs, want $((5 * nconf)) and $nconf"
    elif [ -z "$tuning" ] || ! grep -q '^family,precision,min_size,max_size,config,gflops$' "$tuning" ||
         ! grep -q '^blocktile_2d,fp32,1,' "$tuning" || ! grep -q '^best blocktile_2d config' "$TMP/out"; then
        fail sweep/fp32_configs_verify_and_tuning_written "no tuning table or summary: $(head -c 300 "$TMP/out")"
    else
        pass sweep/fp32_configs_verify_and_tuning_written
    fi
fi

# mixed_uses NAME PREFIX: mixed verifies and its rows' config starts with PREFIX
mixed_uses() {
    "$GP" -k mixed --sizes 31,257,1025 --mnk 4096,4096,32 --reps 2 --warmup 1 \
        --metrics none --out "$TMP/$1.csv" >"$TMP/out" 2>"$TMP/err"
    local rc=$? f=$TMP/$1.csv
    local kc cc vc; kc=$(col "$f" kernel); cc=$(col "$f" config); vc=$(col "$f" verified)
    local bad; bad=$(awk -F, -v k="$kc" -v c="$cc" -v v="$vc" -v p="$2" \
        '!/^#/ && $k == "mixed" && (index($c, p) != 1 || $v != 1) { n++ } END { print n + 0 }' "$f")
    local n; n=$(awk -F, -v k="$kc" '!/^#/ && $k == "mixed"' "$f" | wc -l)
    if [ "$rc" != 0 ] || [ "$n" != 4 ] || [ "$bad" != 0 ]; then
        fail "sweep/$1" "exit $rc, $n rows, $bad not verified or not '$2': $(head -c 300 "$TMP/err")"
    else
        pass "sweep/$1"
    fi
}
if [ -n "$tuning" ]; then mixed_uses mixed_verifies_with_the_tuning_table "tuned:"
else fail sweep/mixed_verifies_with_the_tuning_table "no tuning table was written"; fi
GEMMPROF_CACHE=$TMP/empty-cache mixed_uses mixed_verifies_with_the_default "default:"
