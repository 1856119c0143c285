/* profiler.c - counters of gemmprof's own launches: auto range + user
 * replay on the session of session.c (docs/cupti.md section 1 for the
 * call sequence).  One object is enabled per session with the whole
 * config; collect runs the passes itself, each one a launch of its own
 * after the caller's prepare callback (C reset, L2 scrubbed).  Why not kernel replay: CUPTI's save/restore between passes,
 * and even a fresh Enable/Start per pass group, left dirty L2 lines that
 * the measured pass wrote back (dram__bytes_write.sum +22 MB at 4096^3
 * with one 3-pass launch, +9.5 MB with one-pass groups, against
 * ncu --clock-control none); ncu restores memory and flushes caches before
 * every pass, which is what prepare does here. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime_api.h>
#include "gpu/gpu.h"
#include "util/util.h"
#include "session.h"

/* Kernels one launcher may launch (cuBLAS can add a split-K reduction;
 * rung subgemm_tail launches up to 13: two head rectangles, two long
 * parts, 2 x 4 short parts, the fixup).  CUPTI silently drops ranges
 * beyond this (numOfRangeDropped stays 0). */
#define GP_MAX_RANGES 16

struct gp_profiler {
    gp_session s;
    double seconds;
};

/* The runtime's primary context on the current device: the one the
 * kernels run in, so the one to profile. */
static int current_context(CUcontext *ctx, CUdevice *dev, char *err, size_t errlen)
{
    const gp_cudrv_api *drv = gp_cudrv_load(err, errlen);
    cudaError_t e = cudaFree(0);
    if (e != cudaSuccess) {
        snprintf(err, errlen, "cudaFree(0): %s", cudaGetErrorString(e));
        return -1;
    }
    if (drv->cuCtxGetCurrent(ctx) != CUDA_SUCCESS || !*ctx ||
        drv->cuCtxGetDevice(dev) != CUDA_SUCCESS) {
        snprintf(err, errlen, "no current CUDA context after cudaFree(0)");
        return -1;
    }
    return 0;
}

static void prime(gp_profiler *p);

static int setup(gp_profiler *p, const gp_metric_list *list, char *err, size_t errlen)
{
    CUcontext ctx;
    CUdevice dev;
    /* A missing libcupti is the reason given first, GPU or not. */
    if (!gp_cupti_load(err, errlen) || gp_session_preflight(err, errlen) || current_context(&ctx, &dev, err, errlen) ||
        gp_session_open(&p->s, list, ctx, dev, err, errlen))
        return -1;
    /* Enabled and configured now, so a refusal there is reported by begin. */
    if (gp_session_enable(&p->s, CUPTI_UserReplay, GP_MAX_RANGES, err, errlen) ||
        gp_session_arm(&p->s, err, errlen))
        return -1;
    prime(p);
    return gp_session_arm(&p->s, err, errlen);
}

int gp_profiler_device_chip(int device, char *chip, size_t n, char *err,
                            size_t errlen)
{
    gp_session s;
    memset(&s, 0, sizeof s);
    if (!(s.api = gp_cupti_load(err, errlen)) || gp_session_preflight(err, errlen))
        return -1;
    /* The documented order (docs/cupti.md section 1): initialise, then ask. */
    GP_CUPTI_PARAMS(CUpti_Profiler_Initialize_Params, init);
    if (gp_session_check(&s, s.api->cuptiProfilerInitialize(&init),
                         "cuptiProfilerInitialize", err, errlen))
        return -1;
    GP_CUPTI_PARAMS(CUpti_Device_GetChipName_Params, c);
    c.deviceIndex = (size_t)device;
    int rc = gp_session_check(&s, s.api->cuptiDeviceGetChipName(&c),
                              "cuptiDeviceGetChipName", err, errlen);
    if (rc == 0)
        snprintf(chip, n, "%s", c.pChipName ? c.pChipName : "?");
    GP_CUPTI_PARAMS(CUpti_Profiler_DeInitialize_Params, d);
    s.api->cuptiProfilerDeInitialize(&d);
    return rc;
}

gp_profiler *gp_profiler_begin(const gp_metric_list *list, char *err, size_t errlen)
{
    double t0 = gp_seconds();
    gp_profiler *p = gp_session_new(list, sizeof *p, err, errlen);
    if (!p)
        return NULL;
    if (setup(p, list, err, errlen)) {
        gp_profiler_end(p);
        return NULL;
    }
    p->seconds = gp_seconds() - t0;
    return p;
}

/* One pass: the buffers prepared (every pass starts from the same memory
 * and a cold L2, as ncu's restore and cache flush give), then Start,
 * launch, Stop, and the launch finished.  1 when CUPTI has every pass,
 * 0 when it wants another, -1 with err. */
static int run_pass(gp_profiler *p, int pass, const gp_kernel *k, const gemm_args *args,
                    gp_prepare_fn prepare, void *prepare_ctx, char *err, size_t errlen)
{
    int e = prepare ? prepare(prepare_ctx) : 0;
    if (e) {
        snprintf(err, errlen, "preparing the buffers for counter pass %d of %d: %s",
                 pass + 1, p->s.passes, cudaGetErrorString((cudaError_t)e));
        return -1;
    }
    if (gp_session_start(&p->s, err, errlen))
        return -1;
    int launch = k->launch(args, 0, NULL);
    int all = 0;
    char stop_err[400];
    int stopped = gp_session_stop(&p->s, &all, stop_err, sizeof stop_err);
    if (launch == 0)
        launch = (int)cudaDeviceSynchronize();
    if (launch != 0) {
        snprintf(err, errlen, "profiled launch of %s (pass %d of %d): %s", k->name,
                 pass + 1, p->s.passes, cudaGetErrorString((cudaError_t)launch));
        return -1;
    }
    if (stopped) {
        snprintf(err, errlen, "%s", stop_err);
        return -1;
    }
    return all ? 1 : 0;
}

/* Every pass of the config, each its own launch. */
static int run_passes(gp_profiler *p, const gp_kernel *k, const gemm_args *args,
                      gp_prepare_fn prepare, void *prepare_ctx, char *err, size_t errlen)
{
    for (int pass = 0;; pass++) {
        int done = run_pass(p, pass, k, args, prepare, prepare_ctx, err, errlen);
        if (done != 0)
            return done < 0 ? -1 : pass + 1;
        if (pass >= p->s.passes) {          /* one spare, as before */
            snprintf(err, errlen, "CUPTI asked for more than the %d passes it announced",
                     p->s.passes);
            return -1;
        }
    }
}

/* The first profiled launch after Enable, measured on an H200, came out
 * with ~9 MB more dram__bytes_write than ncu saw (every later one was
 * within a few percent), and the first Start costs 150-200 ms.  So begin
 * profiles one small throwaway launch (a fill of a scratch buffer) and
 * re-arms: the first measured kernel is then like every other.  (An empty
 * Start/Stop with no launch left the next collect without values.) */
static void *prime_buf;

static int prime_launch(const gemm_args *a, cudaStream_t s, gp_launch_info *info)
{
    (void)a;
    (void)info;
    return gp_fill_uniform(prime_buf, 1 << 16, 0, 1, s);
}

static void prime(gp_profiler *p)
{
    const gp_kernel k = {"gemmprof_prime", GP_FP32, "", prime_launch};
    gemm_args a;
    memset(&a, 0, sizeof a);
    char err[256];
    if (cudaMalloc(&prime_buf, (1 << 16) * sizeof(float)) != cudaSuccess) {
        cudaGetLastError();
        return;
    }
    run_passes(p, &k, &a, NULL, NULL, err, sizeof err);
    cudaFree(prime_buf);
    prime_buf = NULL;
}

int gp_profiler_collect(gp_profiler *p, const gp_kernel *k, const gemm_args *args,
                        gp_prepare_fn prepare, void *prepare_ctx, gp_row *r,
                        char *err, size_t errlen)
{
    if (p->s.refused[0]) {
        snprintf(err, errlen, "%s", p->s.refused);
        return -1;
    }
    double t0 = gp_seconds();
    for (int i = 0; i < p->s.list.count; i++)
        p->s.values[i] = NAN;
    int passes = -1;
    if ((p->s.armed || gp_session_arm(&p->s, err, errlen) == 0) &&
        (passes = run_passes(p, k, args, prepare, prepare_ctx, err, errlen)) > 0 &&
        gp_session_evaluate(&p->s, k->name, err, errlen) == 0)
        gp_session_fill_row(&p->s, r->metric);
    else
        passes = -1;
    p->seconds += gp_seconds() - t0;
    return passes;
}

const double *gp_profiler_values(const gp_profiler *p, int *count)
{
    *count = p->s.list.count;
    return p->s.values;
}

int gp_profiler_passes(const gp_profiler *p) { return p->s.passes; }
const char *gp_profiler_chip(const gp_profiler *p) { return p->s.chip; }
double gp_profiler_seconds(const gp_profiler *p) { return p ? p->seconds : 0.0; }

void gp_profiler_end(gp_profiler *p)
{
    if (!p)
        return;
    gp_session_close(&p->s);
    free(p);
}
