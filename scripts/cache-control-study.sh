#!/usr/bin/env bash
# cache-control-study.sh - which L2 scrub makes gemmprof's counters match
# ncu --cache-control all, shape class by shape class.  Runs on the GPU
# machine (one device call: about 6-8 minutes on an H100 with the defaults).
#
#   scripts/cache-control-study.sh [--kernel LIST] [--classes LIST] [--variants LIST]
#
# For every shape class, ncu runs once with --cache-control all and once
# with none (scripts/ncu-compare.sh, every kernel in one process), gemmprof
# once per scrub variant (GEMMPROF_SCRUB=VARIANT, --cache-control all; see
# src/gpu/scrub.h) and once with --cache-control none.  Written to
# $OUT/cache-control-study/ (OUT defaults to results/):
#   CLASS.txt     one line per kernel and metric: ncu's value under all, how
#                 far ncu's none is from it, gemmprof/ncu-all for each
#                 variant, gemmprof-none/ncu-none; then per variant how many
#                 values are within 2% (instruction counts must be exact)
#   summary.txt   variant x class: values within 2%, and the worst DRAM
#                 read and write ratios
#   work/         every run file, ncu report and log
# The variant with the most values within 2% everywhere is the candidate for
# GP_CACHE_CONTROL_ALL (src/gpu/scrub.h), a one-line change.
#
# Classes (--classes, comma-separated; default all five):
#   square-1024   1024,1024,1024
#   square-4096   4096,4096,4096
#   odd-1025      1025,1025,1025
#   rect-c-in-l2  1536,2560,768  (C fits in L2: where the write gap was)
#   k-skinny      8192,8192,64
# Kernels (default): blocktile_2d, wide_tile, specimen_sizet, cublas,
#   tf32_wgmma, dgemm_warptiling, dgemm_dmma_k8, cublas_fp64.
# Variants (default): read (today's), flush, flush:p2, write-read, read:x4.
# Env: GEMMPROF_BIN, NCU (as ncu-compare.sh), OUT.
set -uo pipefail
cd "$(dirname "$0")/.."
die() { echo "cache-control-study: $*" >&2; exit 2; }

kernels=blocktile_2d,wide_tile,specimen_sizet,cublas,tf32_wgmma,dgemm_warptiling,dgemm_dmma_k8,cublas_fp64
classes=square-1024,square-4096,odd-1025,rect-c-in-l2,k-skinny
variants="read flush flush:p2 write-read read:x4"
while [ $# -gt 0 ]; do
    case $1 in
        --kernel) [ $# -ge 2 ] || die "--kernel needs a list"; kernels=$2; shift 2 ;;
        --classes) [ $# -ge 2 ] || die "--classes needs a list"; classes=$2; shift 2 ;;
        --variants) [ $# -ge 2 ] || die "--variants needs a list"; variants=$(tr , ' ' <<<"$2"); shift 2 ;;
        -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) die "unknown argument '$1' (see --help)" ;;
    esac
done

shape_of() {
    case $1 in
        square-1024) echo 1024,1024,1024 ;;
        square-4096) echo 4096,4096,4096 ;;
        odd-1025) echo 1025,1025,1025 ;;
        rect-c-in-l2) echo 1536,2560,768 ;;
        k-skinny) echo 8192,8192,64 ;;
        *) return 1 ;;
    esac
}
for c in $(tr , ' ' <<<"$classes"); do shape_of "$c" >/dev/null || die "unknown class '$c'"; done

dir=${OUT:-results}/cache-control-study
work=$dir/work
mkdir -p "$work" || die "cannot create $work"
t_start=$(date +%s)
{
    echo "# device: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)"
    echo "# date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "# gemmprof: $("${GEMMPROF_BIN:-bin/gemmprof}" --version 2>/dev/null)"
    echo "# ncu: $("${NCU:-ncu}" --version 2>/dev/null | tail -1)"
    echo "# command: $0 --kernel $kernels --classes $classes --variants $(tr ' ' , <<<"$variants")"
} >"$dir/header.txt"

for c in $(tr , ' ' <<<"$classes"); do
    shape=$(shape_of "$c")
    sname=$(tr , x <<<"$shape")
    log=$work/$c.log
    : >"$log"
    for v in $variants; do
        GEMMPROF_SCRUB=$v scripts/ncu-compare.sh --mnk "$shape" --kernel "$kernels" \
            --cache-control all --work "$work" >>"$log" 2>&1
    done
    scripts/ncu-compare.sh --mnk "$shape" --kernel "$kernels" --cache-control none \
        --work "$work" >>"$log" 2>&1
    # one table: the pairs files side by side
    awk -v variants="$variants" -v dir="$work" -v s="$sname" -v class="$c" \
        -f scripts/cache-control-study.awk </dev/null >"$dir/$c.txt"
    echo "$c ($shape): $dir/$c.txt, $(( $(date +%s) - t_start )) s so far"
done

{
    cat "$dir/header.txt"
    printf '%-14s %-12s %-14s %-30s %-30s\n' class variant within_2pct "worst dram read" "worst dram write"
    cat "$work"/summary-*.tsv 2>/dev/null |
        awk -F'\t' '{ printf "%-14s %-12s %4d of %-6d %-30s %-30s\n", $1, $2, $3, $4, $5, $6 }'
} >"$dir/summary.txt"
echo "wall time: $(( $(date +%s) - t_start )) s"
cat "$dir/summary.txt"
