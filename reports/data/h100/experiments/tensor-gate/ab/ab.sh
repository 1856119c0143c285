#!/usr/bin/env bash
# issue 29: the gate's effect in one run (auto vs always vs ncu per-config, interleaved rounds),
# and where the Adam kernel's shift sits: --launch-skip 20 --per-launch, launches before vs after the profiled one
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")/.."
[ -f /usr/include/cmocka.h ] || export CMOCKA=$PWD/.devdeps/cmocka
[ -f /usr/include/jansson.h ] || export JANSSON=$PWD/.devdeps/jansson
T0=$SECONDS; W=$OUT/ab; mkdir -p $W
make -j"$(nproc)" all >$W/build.log 2>&1 || { tail -30 $W/build.log; exit 1; }
GP=$PWD/bin/gemmprof; MLP=(scripts/trace-mlp.py --iters 44)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $W/gpu.txt
python3 "${MLP[@]}" > $W/warm.log 2>&1
timed() { local l=$1 t; shift; t=$(date +%s.%N); "$@" >"$W/$l.log" 2>&1; echo "$l $(awk -v a=$t -v b=$(date +%s.%N) 'BEGIN{printf "%.2f", b-a}') $?" >>$W/times.txt; }
METRICS=
for r in 1 2 3 4 5 6; do
  [ $((SECONDS-T0)) -gt ${BUDGET:-430} ] && break
  timed a-plain-$r python3 "${MLP[@]}"
  timed b-auto-$r $GP trace -o $W/b-$r.csv -- python3 "${MLP[@]}"
  timed x-always-$r $GP trace --tensor-counters always -o $W/x-$r.csv -- python3 "${MLP[@]}"
  [ -z "$METRICS" ] && METRICS=$(sed -n 's/^# metrics: //p' $W/b-1.csv | head -1)
  timed d-ncu-$r env LC_ALL=C timeout 200 ncu --filter-mode per-launch-config --launch-count 1 --cache-control none --clock-control none --print-units base --csv --metrics "$METRICS" --log-file $W/d-$r.csv python3 "${MLP[@]}"
  echo "round $r $((SECONDS-T0)) s"
done
for r in 1 2; do
  timed s-skip20-$r $GP trace --launch-skip 20 --per-launch -o $W/s-$r.csv -- python3 "${MLP[@]}"
  timed n-none-$r $GP trace --metrics none --per-launch -o $W/n-$r.csv -- python3 "${MLP[@]}"
done
# (the analysis ran inline here; it is analyse.py now, the same lines)
python3 "$(dirname "$0")/analyse.py" $W
tar czf $OUT/ab.tgz -C $OUT ab
echo "all $((SECONDS-T0)) s"
