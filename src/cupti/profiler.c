/* profiler.c - a CUPTI Range Profiler session: auto range + user replay
 * (notes/cupti.md section 1 for the call sequence).  One object is enabled
 * per session with the whole config; collect runs the passes itself, each
 * one a launch of its own after the caller's prepare callback (C reset, L2
 * scrubbed).  Why not kernel replay: CUPTI's save/restore between passes,
 * and even a fresh Enable/Start per pass group, left dirty L2 lines that
 * the measured pass wrote back (dram__bytes_write.sum +22 MB at 4096^3
 * with one 3-pass launch, +9.5 MB with one-pass groups, against
 * ncu --clock-control none); ncu restores memory and flushes caches before
 * every pass, which is what prepare does here. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cuda_runtime_api.h>
#include "gpu/gpu.h"
#include "host.h"

/* Kernels one launcher may launch (cuBLAS can add a split-K reduction).
 * CUPTI silently drops ranges beyond this (numOfRangeDropped stays 0). */
#define GP_MAX_RANGES 8

struct gp_profiler {
    const gp_cupti_api *api;
    gp_metric_list list;
    const char *names[GP_MAX_METRICS];   /* list's names, for CUPTI         */
    int row_index[GP_MAX_METRICS];       /* GP_M_* or -1 (not a row column) */
    int is_sum[GP_MAX_METRICS];          /* ".sum": adds up over kernels    */
    int time_index;                      /* gpu__time_duration.sum, or -1   */
    double values[GP_MAX_METRICS];
    char chip[64];
    CUcontext ctx;
    int cupti_initialized;
    uint8_t *avail;
    CUpti_Profiler_Host_Object *host;    /* evaluates the counter data      */
    uint8_t *config;
    size_t config_size;
    int passes;                          /* of the config, on this device   */
    CUpti_RangeProfiler_Object *rp;
    uint8_t *data;                       /* counter data image              */
    size_t data_size;
    int armed;                           /* image fresh, pass index 0       */
    size_t first_range;                  /* ranges already in the image     */
    char refused[400];                   /* set once Start is refused       */
    double seconds;
};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#define GP_METRIC_NAME(id, name) name,
static const char *const row_metric_names[GP_NMETRICS] = { GP_METRICS(GP_METRIC_NAME) };
#undef GP_METRIC_NAME

static void map_metrics(gp_profiler *p)
{
    p->time_index = -1;
    for (int i = 0; i < p->list.count; i++) {
        const char *name = p->list.names[i];
        size_t len = strlen(name);
        p->row_index[i] = -1;
        for (int m = 0; m < GP_NMETRICS; m++)
            if (!strcmp(name, row_metric_names[m]))
                p->row_index[i] = m;
        p->is_sum[i] = len > 4 && !strcmp(name + len - 4, ".sum");
        if (!strcmp(name, "gpu__time_duration.sum"))
            p->time_index = i;
        p->values[i] = NAN;
    }
}

/* CUPTI segfaults without a driver or a visible device (notes/cupti.md
 * section 4), so nothing CUPTI is called before this passes. */
static int preflight(char *why, size_t n)
{
    const gp_cudrv_api *drv = gp_cudrv_load(why, n);
    int count = 0;
    if (!drv)
        return -1;
    CUresult r = drv->cuInit(0);
    if (r == CUDA_SUCCESS)
        r = drv->cuDeviceGetCount(&count);
    if (r == CUDA_ERROR_NO_DEVICE || (r == CUDA_SUCCESS && count == 0)) {
        gp_profiler_explain(GP_PROF_NO_DEVICE, why, n);
        return -1;
    }
    if (r != CUDA_SUCCESS) {
        const char *name = NULL;
        drv->cuGetErrorName(r, &name);
        snprintf(why, n, "cuInit: %s (%d): the CUDA driver cannot be used",
                 name ? name : "unknown error", (int)r);
        return -1;
    }
    return 0;
}

/* The runtime's primary context on the current device: the one the
 * kernels run in, so the one to profile. */
static int current_context(gp_profiler *p, CUdevice *dev, char *why, size_t n)
{
    const gp_cudrv_api *drv = gp_cudrv_load(why, n);
    cudaError_t e = cudaFree(0);
    if (e != cudaSuccess) {
        snprintf(why, n, "cudaFree(0): %s", cudaGetErrorString(e));
        return -1;
    }
    if (drv->cuCtxGetCurrent(&p->ctx) != CUDA_SUCCESS || !p->ctx ||
        drv->cuCtxGetDevice(dev) != CUDA_SUCCESS) {
        snprintf(why, n, "no current CUDA context after cudaFree(0)");
        return -1;
    }
    return 0;
}

static int check(const gp_profiler *p, CUptiResult r, const char *call,
                 char *why, size_t n)
{
    if (r == CUPTI_SUCCESS)
        return 0;
    gp_cupti_error(p->api, call, r, why, n);
    return -1;
}

static void add_reason(char *buf, size_t n, size_t *len, int level, const char *what)
{
    if (level == CUPTI_PROFILER_CONFIGURATION_SUPPORTED || *len >= n)
        return;
    *len += (size_t)snprintf(buf + *len, n - *len, "%s%s%s", *len ? "; " : "",
                             what, level == CUPTI_PROFILER_CONFIGURATION_DISABLED ?
                             " (supported but disabled)" : "");
}

static int device_supported(gp_profiler *p, CUdevice dev, char *why, size_t n)
{
    GP_CUPTI_PARAMS(CUpti_Profiler_DeviceSupported_Params, s);
    s.cuDevice = dev;
    s.api = CUPTI_PROFILER_RANGE_PROFILING;
    if (check(p, p->api->cuptiProfilerDeviceSupported(&s),
              "cuptiProfilerDeviceSupported", why, n))
        return -1;
    if (s.isSupported == CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
        return 0;
    char reasons[300] = "";
    size_t len = 0;
    add_reason(reasons, sizeof reasons, &len, s.architecture,
               "GPU architecture (needs compute capability 7.0+)");
    add_reason(reasons, sizeof reasons, &len, s.sli, "SLI is enabled");
    add_reason(reasons, sizeof reasons, &len, s.vGpu,
               "vGPU profiling (the hypervisor admin must enable it)");
    add_reason(reasons, sizeof reasons, &len, s.confidentialCompute,
               "confidential computing is on");
    add_reason(reasons, sizeof reasons, &len, s.cmp, "CMP (crypto mining) GPU");
    add_reason(reasons, sizeof reasons, &len, s.wsl, "WSL");
    snprintf(why, n, "counters are not supported on this device: %s", len ? reasons :
             "CUPTI gives no reason (a MIG instance? run on a whole GPU)");
    return -1;
}

static int chip_and_availability(gp_profiler *p, CUdevice dev, char *why, size_t n)
{
    const gp_cupti_api *api = p->api;
    GP_CUPTI_PARAMS(CUpti_Device_GetChipName_Params, c);
    c.deviceIndex = (size_t)dev;
    if (check(p, api->cuptiDeviceGetChipName(&c), "cuptiDeviceGetChipName", why, n))
        return -1;
    snprintf(p->chip, sizeof p->chip, "%s", c.pChipName ? c.pChipName : "?");

    GP_CUPTI_PARAMS(CUpti_Profiler_GetCounterAvailability_Params, a);
    a.ctx = p->ctx;
    if (check(p, api->cuptiProfilerGetCounterAvailability(&a),
              "cuptiProfilerGetCounterAvailability", why, n))
        return -1;
    if (!(p->avail = malloc(a.counterAvailabilityImageSize ?
                            a.counterAvailabilityImageSize : 1))) {
        snprintf(why, n, "out of memory");
        return -1;
    }
    a.pCounterAvailabilityImage = p->avail;
    return check(p, api->cuptiProfilerGetCounterAvailability(&a),
                 "cuptiProfilerGetCounterAvailability", why, n);
}

/* Reset the counter data image and set the config with pass index 0, so
 * the next Start is pass 0 and its launch range 0 of a fresh image.  Same
 * config and mode every time: an enabled object keeps its first config's
 * pass schedule (notes/cupti.md, gotchas), which is then the right one. */
static int arm(gp_profiler *p, char *why, size_t n)
{
    const gp_cupti_api *api = p->api;
    GP_CUPTI_PARAMS(CUpti_RangeProfiler_CounterDataImage_Initialize_Params, init);
    init.pRangeProfilerObject = p->rp;
    init.counterDataSize = p->data_size;
    init.pCounterData = p->data;
    if (check(p, api->cuptiRangeProfilerCounterDataImageInitialize(&init),
              "cuptiRangeProfilerCounterDataImageInitialize", why, n))
        return -1;

    GP_CUPTI_PARAMS(CUpti_RangeProfiler_SetConfig_Params, s);
    s.pRangeProfilerObject = p->rp;
    s.configSize = p->config_size;
    s.pConfig = p->config;
    s.counterDataImageSize = p->data_size;
    s.pCounterDataImage = p->data;
    s.range = CUPTI_AutoRange;          /* one range per kernel launched   */
    s.replayMode = CUPTI_UserReplay;    /* passes are ours: see the top    */
    s.maxRangesPerPass = GP_MAX_RANGES;
    s.numNestingLevels = 1;
    s.minNestingLevel = 1;
    s.passIndex = 0;
    s.targetNestingLevel = 1;
    if (check(p, api->cuptiRangeProfilerSetConfig(&s),
              "cuptiRangeProfilerSetConfig", why, n))
        return -1;

    /* Ranges the image already holds: 0 if the re-initialisation reset it
     * (as documented); counted anyway so a CUPTI that keeps appending
     * still yields this launch's values, not a sum over launches. */
    GP_CUPTI_PARAMS(CUpti_RangeProfiler_GetCounterDataInfo_Params, info);
    info.pCounterDataImage = p->data;
    info.counterDataImageSize = p->data_size;
    if (check(p, api->cuptiRangeProfilerGetCounterDataInfo(&info),
              "cuptiRangeProfilerGetCounterDataInfo", why, n))
        return -1;
    p->first_range = info.numTotalRanges;
    p->armed = 1;
    return 0;
}

/* The session's one range profiler object and its counter data image. */
static int enable(gp_profiler *p, char *why, size_t n)
{
    const gp_cupti_api *api = p->api;
    GP_CUPTI_PARAMS(CUpti_RangeProfiler_Enable_Params, e);
    e.ctx = p->ctx;
    if (check(p, api->cuptiRangeProfilerEnable(&e), "cuptiRangeProfilerEnable", why, n))
        return -1;
    p->rp = e.pRangeProfilerObject;

    GP_CUPTI_PARAMS(CUpti_RangeProfiler_GetCounterDataSize_Params, sz);
    sz.pRangeProfilerObject = p->rp;
    sz.pMetricNames = p->names;
    sz.numMetrics = (size_t)p->list.count;
    sz.maxNumOfRanges = GP_MAX_RANGES;
    sz.maxNumRangeTreeNodes = GP_MAX_RANGES;
    if (check(p, api->cuptiRangeProfilerGetCounterDataSize(&sz),
              "cuptiRangeProfilerGetCounterDataSize", why, n))
        return -1;
    p->data_size = sz.counterDataSize;
    if (!(p->data = calloc(1, p->data_size ? p->data_size : 1))) {
        snprintf(why, n, "out of memory");
        return -1;
    }
    return 0;
}

static void prime(gp_profiler *p);

static int setup(gp_profiler *p, char *why, size_t n)
{
    CUdevice dev;
    if (preflight(why, n) || current_context(p, &dev, why, n))
        return -1;
    GP_CUPTI_PARAMS(CUpti_Profiler_Initialize_Params, init);
    if (check(p, p->api->cuptiProfilerInitialize(&init), "cuptiProfilerInitialize", why, n))
        return -1;
    p->cupti_initialized = 1;
    if (device_supported(p, dev, why, n) || chip_and_availability(p, dev, why, n))
        return -1;
    if (!(p->host = gp_host_open(p->api, p->chip, p->avail, why, n)) ||
        gp_host_check_names(p->api, p->host, &p->list, p->chip, why, n) ||
        gp_host_config(p->api, p->host, &p->list, &p->config, &p->config_size,
                       &p->passes, why, n))
        return -1;
    /* Enabled and configured now, so a refusal there is reported by begin. */
    if (enable(p, why, n) || arm(p, why, n))
        return -1;
    prime(p);
    return arm(p, why, n);
}

int gp_profiler_device_chip(int device, char *chip, size_t n, char *why,
                            size_t whylen)
{
    gp_profiler p;
    memset(&p, 0, sizeof p);
    if (!(p.api = gp_cupti_load(why, whylen)) || preflight(why, whylen))
        return -1;
    /* The documented order (notes/cupti.md section 1): initialise, then ask. */
    GP_CUPTI_PARAMS(CUpti_Profiler_Initialize_Params, init);
    if (check(&p, p.api->cuptiProfilerInitialize(&init), "cuptiProfilerInitialize",
              why, whylen))
        return -1;
    GP_CUPTI_PARAMS(CUpti_Device_GetChipName_Params, c);
    c.deviceIndex = (size_t)device;
    int rc = check(&p, p.api->cuptiDeviceGetChipName(&c), "cuptiDeviceGetChipName",
                   why, whylen);
    if (rc == 0)
        snprintf(chip, n, "%s", c.pChipName ? c.pChipName : "?");
    GP_CUPTI_PARAMS(CUpti_Profiler_DeInitialize_Params, d);
    p.api->cuptiProfilerDeInitialize(&d);
    return rc;
}

gp_profiler *gp_profiler_begin(const gp_metric_list *list, char *why, size_t whylen)
{
    double t0 = now();
    if (!list || list->count == 0) {
        snprintf(why, whylen, "no metrics selected");
        return NULL;
    }
    gp_profiler *p = calloc(1, sizeof *p);
    if (!p) {
        snprintf(why, whylen, "out of memory");
        return NULL;
    }
    p->list = *list;
    gp_host_name_ptrs(&p->list, p->names);
    map_metrics(p);
    if (!(p->api = gp_cupti_load(why, whylen)) || setup(p, why, whylen)) {
        gp_profiler_end(p);
        return NULL;
    }
    p->seconds = now() - t0;
    return p;
}

/* One pass: the buffers prepared (every pass starts from the same memory
 * and a cold L2, as ncu's restore and cache flush give), then Start,
 * launch, Stop, and the launch finished.  1 when CUPTI has every pass,
 * 0 when it wants another, -1 with err. */
static int run_pass(gp_profiler *p, int pass, const gp_kernel *k, const gemm_args *args,
                    gp_prepare_fn prepare, void *prepare_ctx, char *err, size_t n)
{
    const gp_cupti_api *api = p->api;
    int e = prepare ? prepare(prepare_ctx) : 0;
    if (e) {
        snprintf(err, n, "preparing the buffers for counter pass %d of %d: %s",
                 pass + 1, p->passes, cudaGetErrorString((cudaError_t)e));
        return -1;
    }
    GP_CUPTI_PARAMS(CUpti_RangeProfiler_Start_Params, start);
    start.pRangeProfilerObject = p->rp;
    CUptiResult r = api->cuptiRangeProfilerStart(&start);
    if (r != CUPTI_SUCCESS) {
        /* Privileges are often refused here, not at Enable: remember it
         * so later launches fail at once with the same reason. */
        gp_cupti_error(api, "cuptiRangeProfilerStart", r, p->refused, sizeof p->refused);
        snprintf(err, n, "%s", p->refused);
        return -1;
    }
    p->armed = 0;
    int launch = k->launch(args, 0, NULL);
    GP_CUPTI_PARAMS(CUpti_RangeProfiler_Stop_Params, stop);
    stop.pRangeProfilerObject = p->rp;
    r = api->cuptiRangeProfilerStop(&stop);
    if (launch == 0)
        launch = (int)cudaDeviceSynchronize();
    if (launch != 0) {
        snprintf(err, n, "profiled launch of %s (pass %d of %d): %s", k->name,
                 pass + 1, p->passes, cudaGetErrorString((cudaError_t)launch));
        return -1;
    }
    if (check(p, r, "cuptiRangeProfilerStop", err, n))
        return -1;
    return stop.isAllPassSubmitted ? 1 : 0;
}

/* Every pass of the config, each its own launch. */
static int run_passes(gp_profiler *p, const gp_kernel *k, const gemm_args *args,
                      gp_prepare_fn prepare, void *prepare_ctx, char *err, size_t n)
{
    for (int pass = 0;; pass++) {
        int done = run_pass(p, pass, k, args, prepare, prepare_ctx, err, n);
        if (done != 0)
            return done < 0 ? -1 : pass + 1;
        if (pass >= p->passes) {          /* one spare, as before */
            snprintf(err, n, "CUPTI asked for more than the %d passes it announced",
                     p->passes);
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

/* One value per metric from the ranges: counts add up over kernels;
 * ratios and averages are weighted by each kernel's time. */
static void combine(gp_profiler *p, double vals[][GP_MAX_METRICS], size_t nranges)
{
    for (int i = 0; i < p->list.count; i++) {
        double sum = 0, weighted = 0, time = 0;
        for (size_t r = 0; r < nranges; r++) {
            sum += vals[r][i];
            if (p->time_index >= 0) {
                weighted += vals[r][i] * vals[r][p->time_index];
                time += vals[r][p->time_index];
            }
        }
        if (p->is_sum[i] || nranges == 1)
            p->values[i] = p->is_sum[i] ? sum : vals[0][i];
        else
            p->values[i] = time > 0 ? weighted / time : NAN;
    }
}

static int evaluate(gp_profiler *p, const gp_kernel *k, char *err, size_t n)
{
    const gp_cupti_api *api = p->api;
    GP_CUPTI_PARAMS(CUpti_RangeProfiler_DecodeData_Params, dec);
    dec.pRangeProfilerObject = p->rp;
    if (check(p, api->cuptiRangeProfilerDecodeData(&dec), "cuptiRangeProfilerDecodeData", err, n))
        return -1;
    GP_CUPTI_PARAMS(CUpti_RangeProfiler_GetCounterDataInfo_Params, info);
    info.pCounterDataImage = p->data;
    info.counterDataImageSize = p->data_size;
    if (check(p, api->cuptiRangeProfilerGetCounterDataInfo(&info),
              "cuptiRangeProfilerGetCounterDataInfo", err, n))
        return -1;
    if (dec.numOfRangeDropped > 0 || info.numTotalRanges >= GP_MAX_RANGES) {
        if (p->first_range)
            snprintf(err, n, "CUPTI's counter data image is full (%zu ranges kept "
                     "from earlier launches)", p->first_range);
        else
            snprintf(err, n, "%s launched %d or more kernels: gemmprof profiles "
                     "fewer per launch", k->name, GP_MAX_RANGES);
        return -1;
    }
    if (info.numTotalRanges <= p->first_range) {
        snprintf(err, n, "CUPTI recorded no kernel for the profiled launch of %s", k->name);
        return -1;
    }
    size_t nranges = info.numTotalRanges - p->first_range;
    double vals[GP_MAX_RANGES][GP_MAX_METRICS];
    for (size_t r = 0; r < nranges; r++) {
        GP_CUPTI_PARAMS(CUpti_Profiler_Host_EvaluateToGpuValues_Params, ev);
        ev.pHostObject = p->host;
        ev.pCounterDataImage = p->data;
        ev.counterDataImageSize = p->data_size;
        ev.rangeIndex = p->first_range + r;
        ev.ppMetricNames = p->names;
        ev.numMetrics = (size_t)p->list.count;
        ev.pMetricValues = vals[r];
        if (check(p, api->cuptiProfilerHostEvaluateToGpuValues(&ev),
                  "cuptiProfilerHostEvaluateToGpuValues", err, n))
            return -1;
    }
    combine(p, vals, nranges);
    return 0;
}

int gp_profiler_collect(gp_profiler *p, const gp_kernel *k, const gemm_args *args,
                        gp_prepare_fn prepare, void *prepare_ctx, gp_row *r,
                        char *err, size_t errlen)
{
    if (p->refused[0]) {
        snprintf(err, errlen, "%s", p->refused);
        return -1;
    }
    double t0 = now();
    for (int i = 0; i < p->list.count; i++)
        p->values[i] = NAN;
    int passes = -1;
    if ((p->armed || arm(p, err, errlen) == 0) &&
        (passes = run_passes(p, k, args, prepare, prepare_ctx, err, errlen)) > 0 &&
        evaluate(p, k, err, errlen) == 0) {
        for (int i = 0; i < p->list.count; i++)
            if (p->row_index[i] >= 0)
                r->metric[p->row_index[i]] = p->values[i];
    } else {
        passes = -1;
    }
    p->seconds += now() - t0;
    return passes;
}

const double *gp_profiler_values(const gp_profiler *p, int *count)
{
    *count = p->list.count;
    return p->values;
}

int gp_profiler_passes(const gp_profiler *p) { return p->passes; }
const char *gp_profiler_chip(const gp_profiler *p) { return p->chip; }
double gp_profiler_seconds(const gp_profiler *p) { return p ? p->seconds : 0.0; }

void gp_profiler_end(gp_profiler *p)
{
    if (!p)
        return;
    if (p->rp) {
        GP_CUPTI_PARAMS(CUpti_RangeProfiler_Disable_Params, d);
        d.pRangeProfilerObject = p->rp;
        p->api->cuptiRangeProfilerDisable(&d);
    }
    gp_host_close(p->api, p->host);
    free(p->data);
    free(p->config);
    if (p->cupti_initialized) {
        GP_CUPTI_PARAMS(CUpti_Profiler_DeInitialize_Params, d);
        p->api->cuptiProfilerDeInitialize(&d);
    }
    free(p->avail);
    free(p);
}
