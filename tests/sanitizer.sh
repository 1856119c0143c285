#!/usr/bin/env bash
# sanitizer.sh - compute-sanitizer on every rung (cuBLAS aside), each check
# a test of its own, sanitizer/TOOL/KERNEL/MxNxK:
#   memcheck  at 67x45x37, one tile or less with ragged edges (out-of-bounds
#             loads at edges are the classic GEMM bug), and at 257x385x1029
#   racecheck and synccheck at 257x385x1029: several tiles in m and n and
#             many k tiles with a ragged last one, so the shared-memory
#             pipelines turn over (shared-memory races, barriers not reached
#             by every thread)
#   and the TMA rungs (tf32_wgmma*), whose odd strides above take their
#   cp.async fallback, all three at 16900x260x36 as well: strides TMA takes,
#   ragged edges, and more tiles (67 x 3) than an H100 holds blocks, so a
#   persistent block walks several tiles
# One gemmprof process per check (--reps 1 --warmup 0, no counters, no L2
# scrub), SANITIZER_JOBS at a time (default 4; one GPU is shared).  The
# tools run, default all three, are SANITIZER_TOOLS; SANITIZER_KERNELS
# (comma-separated) limits the kernels, to split a long run.  Each PASS
# line gives the check's seconds.  SKIP without a GPU.
. "$(dirname "$0")/lib.sh"
tools=${SANITIZER_TOOLS:-memcheck racecheck synccheck}
jobs=${SANITIZER_JOBS:-4}
small=67,45,37 multi=257,385,1029 tma=16900,260,36

# --list columns are 2+ spaces apart: name, precision, needs, here, idea;
# a kernel this GPU or build cannot run (here: skipped) is skipped by name.
# No list is a failure, GPU or not: it would leave nothing to check.
checks=$TMP/checks
: >"$checks"
if ! "$GP" --list >"$TMP/list.txt" 2>"$TMP/list.err"; then
    fail sanitizer/kernel_list "$GP --list failed: $(head -c 300 "$TMP/list.err")"
    exit 0
fi
awk -F'  +' 'NR > 1 && $1 !~ /^cublas/ {print $1, $4, $3}' "$TMP/list.txt" >"$TMP/list"
if [ ! -s "$TMP/list" ]; then
    fail sanitizer/kernel_list "$GP --list named no kernel: $(head -c 300 "$TMP/list.txt")"
    exit 0
fi
pass sanitizer/kernel_list
kernels=$(awk '{print $1}' "$TMP/list")
[ -n "${SANITIZER_KERNELS:-}" ] && kernels=$(tr , ' ' <<<"$SANITIZER_KERNELS")
for k in $kernels; do
    for t in $tools; do
        [ "$t" = memcheck ] && echo "$t $k $small" >>"$checks"
        echo "$t $k $multi" >>"$checks"
        case $k in tf32_wgmma*) echo "$t $k $tma" >>"$checks" ;; esac
    done
done

name_of() { echo "sanitizer/$1/$2/$(tr , x <<<"$3")"; }
if ! gpu_or_skip sanitizer/compute_sanitizer; then
    while read -r t k s; do skip "$(name_of "$t" "$k" "$s")" "no GPU"; done <"$checks"
    exit 0
fi
if ! command -v compute-sanitizer >/dev/null; then
    while read -r t k s; do fail "$(name_of "$t" "$k" "$s")" "compute-sanitizer not on PATH"; done <"$checks"
    exit 0
fi
pass sanitizer/compute_sanitizer
# kernels this GPU or build cannot run: skipped by name, saying what they need
runnable=$TMP/runnable
: >"$runnable"
while read -r t k s; do
    if [ "$(awk -v k="$k" '$1 == k { print $2 }' "$TMP/list")" = skipped ]; then
        skip "$(name_of "$t" "$k" "$s")" \
            "this GPU or build lacks $(awk -v k="$k" '$1 == k { $1 = $2 = ""; print }' "$TMP/list" | sed 's/^ *//')"
    else echo "$t $k $s" >>"$runnable"; fi
done <"$checks"
mv "$runnable" "$checks"
if [ ! -s "$checks" ]; then
    fail sanitizer/checks "no kernel left to check (SANITIZER_KERNELS=${SANITIZER_KERNELS:-}, every one skipped?)"
    exit 0
fi

# check N TOOL KERNEL SHAPE: one check; its result line goes to $TMP/N.res
check() {
    local n=$1 t=$2 k=$3 s=$4 name log
    name=$(name_of "$t" "$k" "$s")
    log=$TMP/$n.log
    local start=$SECONDS
    if compute-sanitizer --tool "$t" --error-exitcode 99 "$GP" --kernel "$k" --mnk "$s" \
        --reps 1 --warmup 0 --metrics none --cache-control none --quiet \
        --out "$TMP/$n.csv" >"$log" 2>&1; then
        echo "PASS $name ($((SECONDS - start)) s)" >"$TMP/$n.res"
    else
        echo "FAIL $name: $(grep -m3 -E 'ERROR|Invalid|Race|Barrier|error' "$log" | tr '\n' ' ' | head -c 400)" >"$TMP/$n.res"
    fi
}
export -f check name_of
export GP TMP
start=$SECONDS
awk '{ print NR, $0 }' "$checks" | xargs -P "$jobs" -L 1 bash -c 'check "$@"' _
for n in $(seq 1 "$(wc -l <"$checks")"); do
    cat "$TMP/$n.res" 2>/dev/null || echo "FAIL sanitizer/check_$n: no result"
done
echo "sanitizer: $(wc -l <"$checks") checks in $((SECONDS - start)) s, $jobs at a time"
