#!/usr/bin/env bash
# split-tail-check.sh - issue 32's evidence for a rung past wide_tile in one device
# call (one GPU): verification at odd and rectangular shapes, ROUNDS interleaved
# rounds of the rung, split_tail, wide_tile and cuBLAS at 4096 and 8192
# (scripts/rounds-summary.py), one round under --energy 1.5, compute-sanitizer on
# the rung and wide_tile (tests/sanitizer.sh), and ncu on the rung and cuBLAS at
# 8192 (instructions, cycles per issued instruction, stalls).
#   scripts/split-tail-check.sh OUTDIR      (build first: make all)
#   Env: RUNG (split_tail; or subgemm_tail), ROUNDS (10); ENERGY, SANITIZE, NCU
#   (each 1; 0 leaves that part out)
# Reference runs: reports/data/h200/split-tail/, reports/data/*/subgemm-tail/ (READMEs).
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")/.."
O=$1; mkdir -p $O
GP=bin/gemmprof
T0=$SECONDS
nvidia-smi -i ${CUDA_VISIBLE_DEVICES:-0} --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader
RUNG=${RUNG:-split_tail}
ROUNDS=${ROUNDS:-10}
ENERGY=${ENERGY:-1} SANITIZE=${SANITIZE:-1} NCU=${NCU:-1}
K=$(echo "$RUNG,split_tail,wide_tile,cublas" | tr ',' '\n' | awk '!seen[$0]++' | paste -sd,)
$GP --kernel $RUNG,wide_tile --mnk 257,385,1029 --mnk 1,1,1 --mnk 4097,4095,33 --mnk 100,3000,5000 --mnk 3000,100,7 --mnk 2049,1023,4100 --mnk 8193,8191,1000 --size 1024 --size 1536 --metrics none --reps 2 --warmup 1 --quiet --out $O/verify.csv 2>&1 | tail -1
$GP --kernel $RUNG --mnk 257,385,1029 --mnk 1000,9000,333 --beta 0.5 --alpha -2 --pad 3 --metrics none --reps 2 --warmup 1 --quiet --out $O/verify-beta.csv 2>&1 | tail -1
python3 - $O/verify.csv $O/verify-beta.csv <<'PY'
import csv,sys
for f in sys.argv[1:]:
    rows=[r for r in csv.DictReader(l for l in open(f) if not l.startswith('#'))]
    bad=[(r['kernel'],r['m'],r['n'],r['k'],r['status']) for r in rows if r.get('verified')!='1']
    print(f.split('/')[-1], len(rows),'rows; max_rel_err max', max(float(r['max_rel_err']) for r in rows if r['max_rel_err'] not in ('NA','')), '; unverified:', bad or 'none')
PY
for r in $(seq 1 "$ROUNDS"); do
  $GP --kernel $K --sizes 4096,8192 --metrics none --interleave --reps 20 --quiet --out $O/round-$r.csv >>$O/runs.log 2>&1 || echo "round $r rc!=0"
done
python3 scripts/rounds-summary.py --goal 99 $O/round-*.csv | tee $O/rounds.txt
[ "$ENERGY" = 1 ] && $GP --kernel $K --sizes 4096,8192 --metrics none --interleave --reps 20 --energy 1.5 --quiet --out $O/energy.csv >>$O/runs.log 2>&1
[ "$ENERGY" = 1 ] && python3 scripts/rounds-summary.py --goal 99 $O/energy.csv | tee $O/energy.txt
echo "rounds+energy $((SECONDS-T0)) s"
if [ "$SANITIZE" = 1 ]; then
  SANITIZER_KERNELS=$RUNG,wide_tile bash tests/sanitizer.sh > $O/sanitizer.txt 2>&1; grep -E "^(PASS|FAIL|SKIP)" $O/sanitizer.txt
  echo "sanitizer $((SECONDS-T0)) s"
fi
[ "$NCU" = 1 ] || { echo "total $((SECONDS-T0)) s"; exit 0; }
for k in $RUNG cublas; do
  ncu --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section InstructionStats --section LaunchStats --section Occupancy \
      --cache-control all --clock-control none --csv --page raw \
      $GP --kernel $k --size 8192 --metrics none --reps 1 --warmup 0 --quiet --out $O/ncu-run-$k.csv > $O/ncu-$k.csv 2>$O/ncu-$k.err || tail -3 $O/ncu-$k.err
done
python3 - $O/ncu-$RUNG.csv $O/ncu-cublas.csv <<'PY' | tee $O/ncu-summary.txt
import csv,sys
want=['gpu__time_duration.sum','smsp__inst_executed.sum','sm__inst_executed.avg.per_cycle_active','smsp__average_warp_latency_per_inst_issued.ratio','smsp__issue_active.avg.pct_of_peak_sustained_active','sm__warps_active.avg.pct_of_peak_sustained_active','launch__registers_per_thread','launch__grid_size','sm__cycles_active.avg','smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio','smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio','smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio','smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio','smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio','smsp__average_warps_issue_stalled_wait_per_issue_active.ratio','smsp__average_warps_issue_stalled_dispatch_stall_per_issue_active.ratio','smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio','smsp__average_warps_issue_stalled_selected_per_issue_active.ratio']
for f in sys.argv[1:]:
    lines=[l for l in open(f) if l.startswith('"')]
    if not lines: print(f,'no ncu rows'); continue
    rd=list(csv.reader(lines)); hdr=rd[0]; rows=rd[2:]
    for r in rows:
        d=dict(zip(hdr,r)); name=d.get('Kernel Name','')[:60]
        if 'gemm' not in name.lower() and 'sgemm' not in name.lower() and 'Kernel' not in name: continue
        print(f.split('/')[-1], name)
        for w in want:
            if w in d: print('   %-75s %s'%(w,d[w]))
PY
echo "total $((SECONDS-T0)) s"
