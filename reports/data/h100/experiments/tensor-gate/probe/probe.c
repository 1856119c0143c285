/* gate probe (issue 29): (1) can two Range Profiler objects be enabled on one context at once, and do both
 * give right values; (2) what a launch costs under A (17 + gate) and B (default 22); (3) what switching
 * objects costs (Disable, Enable, first Start). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cuda.h>
#include <cuda_runtime_api.h>
#include "cupti/session.h"
#include "util/util.h"
void launch_ffma(float *out);
void launch_mma(float *out);
static double ms(void) { return 1e3 * gp_seconds(); }
static const char *A_SPEC = "gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,sm__sass_thread_inst_executed_op_ffma_pred_on.sum,sm__sass_thread_inst_executed_op_fadd_pred_on.sum,sm__sass_thread_inst_executed_op_fmul_pred_on.sum,sm__sass_thread_inst_executed_op_dfma_pred_on.sum,sm__sass_thread_inst_executed_op_dadd_pred_on.sum,sm__sass_thread_inst_executed_op_dmul_pred_on.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum,l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum,sm__warps_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_tensor.sum,sm__inst_executed_pipe_tensor_op_hmma_type_hfma2.sum";
static float *buf;
static int one(gp_session *s, const char *tag, int k) {
    char err[600]; int all = 0;
    double t0 = ms();
    if (gp_session_arm(s, err, sizeof err) || gp_session_start(s, err, sizeof err)) { printf("%s: %s\n", tag, err); return -1; }
    double t1 = ms();
    if (k) launch_mma(buf); else launch_ffma(buf);
    double t2 = ms();
    if (gp_session_stop(s, &all, err, sizeof err) || gp_session_evaluate(s, tag, err, sizeof err)) { printf("%s: %s\n", tag, err); return -1; }
    double t3 = ms();
    printf("%-10s %s passes %d: arm+start %.2f launch %.2f stop+eval %.2f ms |", tag, k ? "mma " : "ffma", s->passes, t1 - t0, t2 - t1, t3 - t2);
    for (int i = 0; i < s->list.count; i++) {
        const char *n = s->list.names[i];
        if (strstr(n, "tensor") || strstr(n, "ffma") || strstr(n, "time"))
            printf(" %s=%.6g", strstr(n, "__") + 2, s->values[i]);
    }
    printf("\n");
    return 0;
}
static int open_list(gp_session *s, const char *spec, CUcontext ctx, CUdevice dev) {
    gp_metric_list l; char err[600];
    if (gp_metric_list_parse(spec, &l, err, sizeof err) || gp_session_open(s, &l, ctx, dev, err, sizeof err)) { printf("open: %s\n", err); return -1; }
    return 0;
}
static int enable(gp_session *s, const char *tag) {
    char err[600]; double t0 = ms();
    int rc = gp_session_enable(s, CUPTI_KernelReplay, 1, err, sizeof err);
    printf("enable %s: rc %d %.2f ms %s\n", tag, rc, ms() - t0, rc ? err : "");
    return rc;
}
static void disable(gp_session *s, const char *tag) {
    double t0 = ms();
    GP_CUPTI_PARAMS(CUpti_RangeProfiler_Disable_Params, d);
    d.pRangeProfilerObject = s->rp;
    CUptiResult r = s->api->cuptiRangeProfilerDisable(&d);
    s->rp = NULL; free(s->data); s->data = NULL;
    printf("disable %s: rc %d %.2f ms\n", tag, (int)r, ms() - t0);
}
int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "both";
    cudaMalloc((void **)&buf, 132 * 4 * 256 * sizeof(float));
    launch_ffma(buf); launch_mma(buf); cudaDeviceSynchronize();
    CUcontext ctx; CUdevice dev; cuCtxGetCurrent(&ctx); cuCtxGetDevice(&dev);
    gp_session A, B;
    if (open_list(&A, A_SPEC, ctx, dev) || open_list(&B, "default", ctx, dev)) return 1;
    printf("A %d metrics %d passes, B %d metrics %d passes\n", A.list.count, A.passes, B.list.count, B.passes);
    if (!strcmp(mode, "both")) {
        if (enable(&A, "A")) return 1;
        if (enable(&B, "B (A still enabled)")) { printf("TWO OBJECTS: refused\n"); return 0; }
        for (int r = 0; r < 4; r++) {
            one(&A, "A", 0); one(&B, "B", 1); one(&A, "A", 1); one(&B, "B", 0);
        }
        for (int r = 0; r < 4; r++) one(&A, "A-only", 0);
        for (int r = 0; r < 4; r++) one(&B, "B-only", 0);
    } else {
        for (int c = 0; c < 3; c++) {
            if (enable(&A, "A")) return 1;
            for (int r = 0; r < 3; r++) one(&A, "A", r & 1);
            disable(&A, "A");
            if (enable(&B, "B")) return 1;
            for (int r = 0; r < 3; r++) one(&B, "B", r & 1);
            disable(&B, "B");
        }
    }
    return 0;
}
