#!/usr/bin/env bash
# trace-pass-cost.sh - where gemmprof trace's time per profiled launch goes,
# by metric set and by kernel: the fixture app (tests/fixtures/trace/app.cu)
# traced with each set below, all its kernels and then each kernel alone;
# one line per run with the config's passes and the profiling_cost line's
# per-launch split (host time; "launch with its replay" is CUPTI's kernel
# replay inside the application's launch call).
#   scripts/trace-pass-cost.sh APP [LAUNCH_RUNS]    (after make all)
# Prints a table; exit 1 if a trace fails.
set -uo pipefail
cd "$(dirname "$0")/.."
APP=${1:?usage: trace-pass-cost.sh APP [LAUNCH_RUNS]}
RUNS=${2:-4}
GP=${GEMMPROF_BIN:-bin/gemmprof}
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
F="sm__sass_thread_inst_executed_op_ffma_pred_on.sum,sm__sass_thread_inst_executed_op_fadd_pred_on.sum,sm__sass_thread_inst_executed_op_fmul_pred_on.sum,sm__sass_thread_inst_executed_op_dfma_pred_on.sum,sm__sass_thread_inst_executed_op_dadd_pred_on.sum,sm__sass_thread_inst_executed_op_dmul_pred_on.sum"
B="gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,$F"
S="l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum,l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum,sm__warps_active.avg.pct_of_peak_sustained_active"
T4="sm__ops_path_tensor_src_fp64.sum,sm__ops_path_tensor_src_tf32_dst_fp32.sum,sm__ops_path_tensor_src_bf16_dst_fp32.sum,sm__ops_path_tensor_src_fp8.sum"
T="$T4,sm__ops_path_tensor_src_fp16.sum"
sets=(
    "flops:$F" "base:$B" "smem_local_occ:$S" "base+smem:$B,$S"
    "tensor:$T" "tensor_no_fp16:$T4" "tensor_fp16:sm__ops_path_tensor_src_fp16.sum"
    "base+smem+tf32:$B,$S,sm__ops_path_tensor_src_tf32_dst_fp32.sum"
    "default_no_fp16:$B,$S,$T4" "default:default"
)
kernels=(chain.ffma_step chain.fadd_fmul_step chain.dfma_step saxpy bf16_mma)
status=0
printf '%-18s %-22s %6s %10s %s\n' set kernels passes ms/launch "profiling_cost (per launch)"
one() {   # NAME METRICS REGEX
    local f=$TMP/run.csv re=${3:-.}
    if ! "$GP" trace --sample all --per-launch --metrics "$2" --kernel-regex "$re" -o "$f" -- "$APP" --launches "$RUNS" \
            >"$TMP/log" 2>&1; then
        echo "$1 $re: trace failed: $(tail -1 "$TMP/log")"; status=1; return
    fi
    local cost passes ms
    cost=$(sed -n 's/^# profiling_cost: [0-9]*: //p' "$f" | head -1)
    passes=$(sed -n 's/^# passes: //p' "$f" | head -1)
    ms=$(sed -n 's/.*launch with its replay \([0-9.]*\).*/\1/p' <<<"$cost")
    printf '%-18s %-22s %6s %10s %s\n' "$1" "$re" "${passes:-?}" "${ms:-?}" "${cost#*; a launch: }"
}
for s in "${sets[@]}"; do one "${s%%:*}" "${s#*:}"; done
for k in "${kernels[@]}"; do one default default "$k"; done
for k in "${kernels[@]}"; do one base+smem "$B,$S" "$k"; done
exit $status
