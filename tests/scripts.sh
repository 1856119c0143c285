#!/usr/bin/env bash
# scripts.sh - the evidence scripts on the committed H200 data: mixed
# against the best single config (noise measured), and the rounds summary.
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/.." && pwd)
S=$ROOT/reports/data/h200/sweep-mixed
L=$ROOT/reports/data/h200/fp64-ladder-4096-rounds
if ! command -v python3 >/dev/null; then
    for t in mixed_vs_best_h200_fp64 mixed_vs_best_h200_fp32 mixed_vs_best_slow_mixed_fails \
             mixed_vs_best_bad_file mixed_vs_best_usage mixed_vs_best_usage_one_line rounds_summary_h200 \
             trace_scale_h100_launches trace_scale_h100_same_launches trace_scale_h100_loop_ratio \
             trace_scale_h100_gate_loop_ratio trace_scale_h100_gate_tensor_zero \
             trace_scale_h200_needs_per_launch \
             trace_scale_same_launches_exact; do skip "scripts/$t" "no python3"; done
    exit 0
fi
MVB="python3 $ROOT/scripts/mixed-vs-best.py"

expect scripts/mixed_vs_best_h200_fp64 0 '^19 of 19 sizes' -- \
    $MVB "$S/sweep-dgemm_blocktile_2d-r1.csv" "$S/sweep-dgemm_blocktile_2d-r2.csv" "$S"/mixed-fp64-r?.csv
expect scripts/mixed_vs_best_h200_fp32 0 '^19 of 19 sizes' -- \
    $MVB "$S/sweep-blocktile_2d-r1.csv" "$S/sweep-blocktile_2d-r2.csv" "$S"/mixed-fp32-r?.csv

# the same mixed rows with one size made 30% slower in every run must fail there
for r in 1 2 3; do
    awk -F, -v OFS=, '/^#/ || !h { if (!/^#/) { for (i = 1; i <= NF; i++) c[$i] = i; h = 1 } print; next }
        $c["m"] == 1536 { $c["gflops"] = $c["gflops"] * 0.7 } { print }' \
        "$S/mixed-fp64-r$r.csv" >"$TMP/slow-r$r.csv"
done
expect scripts/mixed_vs_best_slow_mixed_fails 1 '1536x1536x1536 .* BELOW' -- \
    $MVB "$S/sweep-dgemm_blocktile_2d-r1.csv" "$S/sweep-dgemm_blocktile_2d-r2.csv" "$TMP"/slow-r?.csv
printf 'kernel,config\nx,y\n' >"$TMP/bad.csv"
expect scripts/mixed_vs_best_bad_file 2 'KeyError' -- \
    $MVB "$TMP/bad.csv" "$TMP/bad.csv" "$TMP/bad.csv"
expect scripts/mixed_vs_best_usage 2 '^usage: .*mixed-vs-best.py SWEEP1.csv SWEEP2.csv MIXED.csv' -- \
    $MVB "$S/sweep-dgemm_blocktile_2d-r1.csv"
[ "$(wc -l <"$TMP/err")" -eq 1 ] && pass scripts/mixed_vs_best_usage_one_line || \
    fail scripts/mixed_vs_best_usage_one_line "$(cat "$TMP/err")"

expect scripts/rounds_summary_h200 0 'dgemm_dmma_interior +4096x4096x4096 +8 .* 7/8' -- \
    python3 "$ROOT/scripts/rounds-summary.py" "$ROOT"/reports/data/h200/experiments/fp64-rounds-4096/round?.csv \
    "$L"/fp64-ladder-4096-r?.csv

# trace-scale's summary (issue 29) on the committed runs: the H100 run, whose
# --metrics none runs have one row a launch, gets the comparison over the
# same launches as well; the H200 run (one row a configuration) says why not.
TS=$TMP/trace-scale
mkdir -p "$TS/h100" "$TS/h200" "$TS/self"
tar -xzf "$ROOT/reports/data/h100/trace-scale/work.tar.gz" -C "$TS/h100"
tar -xzf "$ROOT/reports/data/h200/trace-scale/work.tar.gz" -C "$TS/h200"
SUM="python3 $ROOT/scripts/trace-scale-summary.py"
expect scripts/trace_scale_h100_launches 0 '^  gemmprof == ncu: YES' -- $SUM "$TS/h100/work"
expect scripts/trace_scale_h100_same_launches 0 \
    'the same launches .*: 14 configurations of >= 10 us, 14 within 2%' -- $SUM "$TS/h100/work"
# the overhead inside the program's own timed loop, where the profiling is:
# the start-up that varies by seconds from run to run left out
expect scripts/trace_scale_h100_loop_ratio 0 \
    'inside the program loop .*: trace adds 2\.90 s, ncu 5\.12 s .* ratio 0\.565; round by round 0\.53, 0\.55' \
    -- $SUM "$TS/h100/work"
# the same with --tensor-counters auto, the default since (trace-scale-gate):
# every configuration's one profiled launch gated, 3 passes, no tensor math
mkdir -p "$TS/gate"
tar -xzf "$ROOT/reports/data/h100/trace-scale-gate/work.tar.gz" -C "$TS/gate"
expect scripts/trace_scale_h100_gate_loop_ratio 0 \
    'inside the program loop .*: trace adds 2\.39 s, ncu 5\.89 s .* ratio 0\.406; round by round 0\.39, 0\.40' \
    -- $SUM "$TS/gate/work"
expect scripts/trace_scale_h100_gate_tensor_zero 0 '^32 rows gated, tensor_math_inst 0, tensor-path 0$' -- \
    python3 - "$TS/gate/work/b-1.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith('#')))
ok = [r for r in rows if r['tensor_math_inst'] == '0' and r['profiled'] == '1' and
      all(r[c] == '0' for c in r if c.startswith('sm__ops_path_tensor_'))]
print('%d rows gated, tensor_math_inst 0, tensor-path 0' % len(ok) if len(ok) == len(rows)
      else 'only %d of %d rows' % (len(ok), len(rows)))
PY
expect scripts/trace_scale_h200_needs_per_launch 0 'same-launch comparison needs --per-launch' -- \
    $SUM "$TS/h200/work"
# A default run made of a --metrics none run's own launches, less each
# configuration's first: over the same launches nothing differs, to the
# last digit (the all-launch comparison, with the first launches, differs).
cp "$TS/h100/work/c-1.csv" "$TS/h100/work/c-2.csv" "$TS/self/"
printf 'a-plain-%s 10 0\nb-trace-%s 12 0\nc-none-%s 10 0\n' 1 1 1 2 2 2 >"$TS/self/times.txt"
for r in 1 2; do
    python3 - "$TS/self/c-$r.csv" "$TS/self/b-$r.csv" <<'PY'
import csv, sys
lines = open(sys.argv[1]).read().splitlines(True)
rows = sorted(csv.DictReader(l for l in lines if not l.startswith('#')),
              key=lambda r: int(r['correlation_id']))
key = lambda r: (r['kernel'], r['config'], r['smem_per_block'], r['graph_node_id'])
out = {}
for r in rows:
    if key(r) not in out:                   # the first launch: profiled, not timed
        out[key(r)] = dict(r, launches=1, reps=0, time_total_ms=0.0, profiled=1)
        continue
    o = out[key(r)]
    o['launches'] += 1
    o['reps'] += 1
    o['time_total_ms'] += float(r['time_ms'])
with open(sys.argv[2], 'w') as f:
    f.writelines(l.replace('one per launch (--per-launch)', 'one per configuration')
                 for l in lines if l.startswith('#'))
    w = csv.DictWriter(f, list(rows[0]))
    w.writeheader()
    w.writerows(dict(o, time_total_ms=o['time_total_ms'] if o['reps'] else 'NA')
                for o in out.values())
PY
done
expect scripts/trace_scale_same_launches_exact 0 \
    'the same launches .* max deviation [-+]0\.00% ' -- $SUM "$TS/self"
