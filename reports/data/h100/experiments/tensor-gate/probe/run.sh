#!/usr/bin/env bash
# issue 29 gate experiment: probe (two objects, costs, switching) + ncu on torch programs (gate vs tensor-path counters)
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")/.."
[ -f /usr/include/cmocka.h ] || export CMOCKA=$PWD/.devdeps/cmocka
[ -f /usr/include/jansson.h ] || export JANSSON=$PWD/.devdeps/jansson
T0=$SECONDS; W=$OUT/w; mkdir -p $W
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $W/device.txt
make -j"$(nproc)" build/libgemmprof.a >$W/build.log 2>&1 || { tail -30 $W/build.log; exit 1; }
echo "build $((SECONDS-T0)) s"
G=reports/data/h100/experiments/tensor-gate/probe
nvcc -O3 -arch=sm_90 -c $G/kern.cu -o $W/kern.o && \
gcc -std=c11 -D_GNU_SOURCE -Isrc -Isrc/cupti/compat -I/usr/local/cuda/include $G/probe.c $W/kern.o build/libgemmprof.a \
  -L/usr/local/cuda/lib64 ${JANSSON:+-L$JANSSON/usr/lib/x86_64-linux-gnu -Wl,-rpath,$JANSSON/usr/lib/x86_64-linux-gnu} -ljansson -lcublas -lcudart -lcuda -lstdc++ -ldl -lm -lpthread -o $W/probe 2>&1 | tail -5
for m in both switch; do echo "== probe $m"; timeout 120 $W/probe $m 2>&1 | tee $W/probe-$m.txt | cut -c1-400; done
echo "probe $((SECONDS-T0)) s"
M=sm__inst_executed_pipe_tensor.sum,sm__inst_executed_pipe_tensor_op_hmma_type_hfma2.sum,sm__inst_executed_pipe_tensor_op_hmma.sum,sm__inst_executed_pipe_tensor_op_gmma.sum,sm__inst_executed_pipe_tensor_op_dmma.sum,sm__inst_executed_pipe_tensor_op_imma.sum,sm__ops_path_tensor_src_fp64.sum,sm__ops_path_tensor_src_tf32_dst_fp32.sum,sm__ops_path_tensor_src_bf16_dst_fp32.sum,sm__ops_path_tensor_src_fp16.sum,sm__ops_path_tensor_src_fp8.sum
F=(--cache-control none --clock-control none --print-units base --csv --metrics $M)
LC_ALL=C timeout 200 ncu --filter-mode per-launch-config --launch-count 1 --kernel-name-base demangled "${F[@]}" --log-file $W/ncu-mlp.csv python3 scripts/trace-mlp.py --iters 3 > $W/ncu-mlp.log 2>&1; echo "ncu mlp rc $? $((SECONDS-T0)) s"
LC_ALL=C timeout 240 ncu --kernel-name-base demangled "${F[@]}" --log-file $W/ncu-prec.csv python3 $G/prec.py > $W/ncu-prec.log 2>&1; echo "ncu prec rc $? $((SECONDS-T0)) s"
python3 $G/gatecheck.py $W/ncu-mlp.csv $W/ncu-prec.csv | tee $W/gatecheck.txt
tar czf $OUT/w.tgz -C $OUT w
echo "all $((SECONDS-T0)) s"
