#!/usr/bin/env bash
# ncu-compare.sh - gemmprof's in-process counters (CUPTI Range Profiler)
# against Nsight Compute's, kernel by kernel, metric by metric, at the shapes
# asked for.  Runs on the GPU machine.
#
#   scripts/ncu-compare.sh [--mnk M,N,K]... [--size N]... [--kernel LIST]
#                          [--cache-control all|none] [--work DIR] [--tol X]
#   scripts/ncu-compare.sh SIZE [KERNELS]                 (the older form)
#
#   --mnk M,N,K        a shape (repeatable; also M,N,K:M,N,K... as one list)
#   --size N           a square shape (repeatable)
#   --kernel LIST      kernels of gemmprof --list, comma-separated, or all
#                      (default all)
#   --cache-control C  all (default) or none: ncu's flag, given to ncu AND to
#                      gemmprof, so both follow one convention
#   --work DIR         work files (default $OUT/ncu-compare, else a temp dir);
#                      an ncu report already there for a shape and C is
#                      reused, so several gemmprof variants (GEMMPROF_SCRUB)
#                      can be compared with one ncu run
#   --tol X            tolerance of the ratio (default 0.02)
# Env: GEMMPROF_BIN (bin/gemmprof), NCU (ncu), GEMMPROF_SCRUB (passed to
#      gemmprof's run only: the L2 scrub that stands for "all", scrub.h),
#      KEEP_NCU_REP=1 (keep ncu's .ncu-rep; by default only its CSV export).
#
# Prints, per shape, one line per kernel and metric: gemmprof's value, ncu's,
# the ratio, OUT beyond the tolerance; and writes the same as CSV to
# DIR/pairs-<shape>-<C>-<scrub>.csv (shape,cache_control,scrub,kernel,
# metric,gemmprof,ncu,ratio) for scripts/cache-control-study.sh.
#
# Which launches are compared:
#  - gemmprof: its counter launches (one per replay pass, each after C is
#    prepared and L2 scrubbed as --cache-control says), in a run with
#    --reps 1 --warmup 0.
#  - ncu: the same command with gemmprof's counters off, one ncu process per
#    shape for every kernel.  Each launch is attributed to a kernel by the
#    NVTX range gemmprof puts around each kernel and shape ("KERNEL/MxNxK",
#    ncu --nvtx, --print-nvtx-rename kernel).  In that range the launches
#    are the verification launch, the scrub (gp_scrub_* kernels, left out)
#    and the timed launch; the timed launch is the second half, and when a
#    kernel launches several kernels per GEMM (TF32's transpose, a cuBLAS
#    split-K) their counts are summed and the other metrics weighted by
#    time, as gemmprof does.
# Both run at unlocked clocks (CUPTI 13.0 cannot lock them: ncu
# --clock-control none).  Instruction counts (sm__sass_*) must agree
# exactly: any difference makes the exit status 1.
set -uo pipefail
cd "$(dirname "$0")/.."
BIN=${GEMMPROF_BIN:-bin/gemmprof}
NCU=${NCU:-ncu}

die() { echo "ncu-compare: $*" >&2; exit 2; }
usage() { sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit "${1:-0}"; }

shapes=() kernels=all cc=${NCU_CACHE:-all} work= tol=0.02 positional=()
while [ $# -gt 0 ]; do
    case $1 in
        --mnk) [ $# -ge 2 ] || die "--mnk needs M,N,K"
               for s in $(tr ':' ' ' <<<"$2"); do shapes+=("$s"); done; shift 2 ;;
        --mnk=*) for s in $(tr ':' ' ' <<<"${1#*=}"); do shapes+=("$s"); done; shift ;;
        --size) [ $# -ge 2 ] || die "--size needs N"; shapes+=("$2,$2,$2"); shift 2 ;;
        --kernel|-k) [ $# -ge 2 ] || die "--kernel needs a list"; kernels=$2; shift 2 ;;
        --cache-control) [ $# -ge 2 ] || die "--cache-control needs all or none"; cc=$2; shift 2 ;;
        --cache-control=*) cc=${1#*=}; shift ;;
        --work) [ $# -ge 2 ] || die "--work needs a folder"; work=$2; shift 2 ;;
        --tol) [ $# -ge 2 ] || die "--tol needs a number"; tol=$2; shift 2 ;;
        -h|--help) usage 0 ;;
        -*) die "unknown option '$1' (see --help)" ;;
        *) positional+=("$1"); shift ;;
    esac
done
if [ ${#positional[@]} -gt 0 ]; then          # SIZE [KERNELS]
    shapes+=("${positional[0]},${positional[0]},${positional[0]}")
    [ ${#positional[@]} -gt 1 ] && kernels=${positional[1]}
fi
[ ${#shapes[@]} -gt 0 ] || shapes=(1024,1024,1024)
case $cc in all|none) ;; *) die "--cache-control: '$cc' is not all or none" ;; esac
for s in "${shapes[@]}"; do
    [[ $s =~ ^[1-9][0-9]*,[1-9][0-9]*,[1-9][0-9]*$ ]] || die "bad shape '$s' (want M,N,K)"
done
command -v "$NCU" >/dev/null || die "$NCU not found (set NCU=/path/to/ncu)"
[ -x "$BIN" ] || die "$BIN not built (make, or set GEMMPROF_BIN)"
[ -n "$work" ] || work=${OUT:-$(mktemp -d)}/ncu-compare
mkdir -p "$work" || die "cannot create $work"

if [ "$kernels" = all ]; then
    rungs=$("$BIN" --list | awk 'NR > 1 { print $1 }')
else
    rungs=$(tr , ' ' <<<"$kernels")
fi
rungs=$(echo $rungs)
[ -n "$rungs" ] || die "no kernels to compare"
klist=$(tr ' ' , <<<"$rungs")
scrub=${GEMMPROF_SCRUB:-default}
[ "$cc" = none ] && scrub=none
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

# ncu_profile SHAPE TAG: one ncu process for every kernel at SHAPE, then the
# report as CSV twice: launches named by their NVTX range, and by kernel.
ncu_profile() {
    local shape=$1 tag=$2 metrics=$3
    local rep=$work/ncu-$tag
    if [ -s "$rep.plain.csv" ] && [ -s "$rep.nvtx.csv" ]; then
        echo "# ncu: reusing $rep.*.csv"
        return 0
    fi
    local t0
    t0=$(now)
    # gemmprof under ncu: no counters of its own, the standard scrub for "all"
    LC_ALL=C env -u GEMMPROF_SCRUB "$NCU" --clock-control none --cache-control "$cc" \
        --nvtx --metrics "$metrics" -f -o "$rep" \
        "$BIN" --kernel "$klist" --mnk "$shape" --reps 1 --warmup 0 --metrics none \
        --cache-control "$cc" --quiet --out "$rep.run.csv" >"$rep.log" 2>&1 ||
        echo "ncu-compare: ncu at $shape exited $? (see $rep.log)" >&2
    [ -s "$rep.ncu-rep" ] || { echo "ncu-compare: no ncu report at $shape (see $rep.log)" >&2; return 1; }
    LC_ALL=C "$NCU" -i "$rep.ncu-rep" --csv --page details --print-units base \
        --print-nvtx-rename kernel 2>>"$rep.log" | grep '^"' >"$rep.nvtx.csv"
    LC_ALL=C "$NCU" -i "$rep.ncu-rep" --csv --page details --print-units base \
        2>>"$rep.log" | grep '^"' >"$rep.plain.csv"
    # the two CSVs hold all that is compared; the report only with KEEP_NCU_REP=1
    [ "${KEEP_NCU_REP:-0}" = 1 ] || rm -f "$rep.ncu-rep"
    echo "# ncu at $shape (--cache-control $cc): $(secs "$t0" "$(now)") s"
}

status=0
for shape in "${shapes[@]}"; do
    sname=$(tr , x <<<"$shape")
    t0=$(now)
    gp=$work/gp-$sname-$cc-$scrub.csv
    "$BIN" --kernel "$klist" --mnk "$shape" --reps 1 --warmup 0 --cache-control "$cc" \
        --quiet --out "$gp" >"$gp.log" 2>&1
    gp_rc=$?
    [ -s "$gp" ] || die "gemmprof wrote no rows at $shape (exit $gp_rc, see $gp.log)"
    echo "# gemmprof at $shape (--cache-control $cc, scrub $scrub): $(secs "$t0" "$(now)") s"
    # the metric columns are the ones spelled like ncu metrics (with "__")
    metrics=$(grep -v '^#' "$gp" | head -1 | tr , '\n' | tr -d '"' | grep __ | paste -sd, -)
    [ -n "$metrics" ] || die "no metric columns in $gp"
    ncu_profile "$shape" "$sname-$cc" "$metrics" || { status=2; continue; }
    awk -v tol="$tol" -v rungs="$rungs" -v shape="$sname" -v cc="$cc" -v scrub="$scrub" \
        -v gpfile="$gp" -v nvtx="$work/ncu-$sname-$cc.nvtx.csv" \
        -v plain="$work/ncu-$sname-$cc.plain.csv" \
        -v pairs="$work/pairs-$sname-$cc-$scrub.csv" -f scripts/ncu-compare.awk </dev/null
    rc=$?
    [ $rc -gt $status ] && status=$rc
done
echo "work files: $work"
exit $status
