/* session.c - a Range Profiler object, its config and its counter data
 * image (docs/cupti.md section 1 for the call sequence); the replay
 * modes on top of it are profiler.c (user replay) and replay.c (kernel
 * replay).  CUPTI and the driver only, both through loader.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "host.h"
#include "session.h"

static void map_metrics(gp_session *s)
{
    s->time_index = -1;
    for (int i = 0; i < s->list.count; i++) {
        const char *name = s->list.names[i];
        size_t len = strlen(name);
        s->row_index[i] = gp_metric_index(name);
        s->is_sum[i] = len > 4 && !strcmp(name + len - 4, ".sum");
        if (!strcmp(name, "gpu__time_duration.sum"))
            s->time_index = i;
        s->values[i] = NAN;
    }
}

void *gp_session_new(const gp_metric_list *list, size_t size, char *err, size_t errlen)
{
    if (!list || list->count == 0) {
        snprintf(err, errlen, "no metrics selected");
        return NULL;
    }
    void *p = calloc(1, size);
    if (!p)
        snprintf(err, errlen, "out of memory");
    return p;
}

int gp_session_preflight(char *err, size_t errlen)
{
    const gp_cudrv_api *drv = gp_cudrv_load(err, errlen);
    int count = 0;
    if (!drv)
        return -1;
    CUresult r = drv->cuInit(0);
    if (r == CUDA_SUCCESS)
        r = drv->cuDeviceGetCount(&count);
    if (r == CUDA_ERROR_NO_DEVICE || (r == CUDA_SUCCESS && count == 0)) {
        gp_profiler_explain(GP_PROF_NO_DEVICE, err, errlen);
        return -1;
    }
    if (r != CUDA_SUCCESS) {
        const char *name = NULL;
        drv->cuGetErrorName(r, &name);
        snprintf(err, errlen, "cuInit: %s (%d): the CUDA driver cannot be used",
                 name ? name : "unknown error", (int)r);
        return -1;
    }
    return 0;
}

int gp_session_check(const gp_session *s, CUptiResult r, const char *call,
                     char *err, size_t errlen)
{
    if (r == CUPTI_SUCCESS)
        return 0;
    gp_cupti_error(s->api, call, r, err, errlen);
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

static int device_supported(gp_session *s, CUdevice dev, char *err, size_t errlen)
{
    GP_CUPTI_PARAMS(CUpti_Profiler_DeviceSupported_Params, d);
    d.cuDevice = dev;
    d.api = CUPTI_PROFILER_RANGE_PROFILING;
    if (gp_session_check(s, s->api->cuptiProfilerDeviceSupported(&d),
                         "cuptiProfilerDeviceSupported", err, errlen))
        return -1;
    if (d.isSupported == CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
        return 0;
    char reasons[300] = "";
    size_t len = 0;
    add_reason(reasons, sizeof reasons, &len, d.architecture,
               "GPU architecture (needs compute capability 7.0+)");
    add_reason(reasons, sizeof reasons, &len, d.sli, "SLI is enabled");
    add_reason(reasons, sizeof reasons, &len, d.vGpu,
               "vGPU profiling (the hypervisor admin must enable it)");
    add_reason(reasons, sizeof reasons, &len, d.confidentialCompute,
               "confidential computing is on");
    add_reason(reasons, sizeof reasons, &len, d.cmp, "CMP (crypto mining) GPU");
    add_reason(reasons, sizeof reasons, &len, d.wsl, "WSL");
    snprintf(err, errlen, "counters are not supported on this device: %s", len ? reasons :
             "CUPTI gives no reason (a MIG instance? run on a whole GPU)");
    return -1;
}

static int chip_and_availability(gp_session *s, CUdevice dev, char *err, size_t errlen)
{
    const gp_cupti_api *api = s->api;
    GP_CUPTI_PARAMS(CUpti_Device_GetChipName_Params, c);
    c.deviceIndex = (size_t)dev;
    if (gp_session_check(s, api->cuptiDeviceGetChipName(&c), "cuptiDeviceGetChipName",
                         err, errlen))
        return -1;
    snprintf(s->chip, sizeof s->chip, "%s", c.pChipName ? c.pChipName : "?");

    GP_CUPTI_PARAMS(CUpti_Profiler_GetCounterAvailability_Params, a);
    a.ctx = s->ctx;
    if (gp_session_check(s, api->cuptiProfilerGetCounterAvailability(&a),
                         "cuptiProfilerGetCounterAvailability", err, errlen))
        return -1;
    if (!(s->avail = malloc(a.counterAvailabilityImageSize ?
                            a.counterAvailabilityImageSize : 1))) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    a.pCounterAvailabilityImage = s->avail;
    return gp_session_check(s, api->cuptiProfilerGetCounterAvailability(&a),
                            "cuptiProfilerGetCounterAvailability", err, errlen);
}

int gp_session_open(gp_session *s, const gp_metric_list *list, CUcontext ctx,
                    CUdevice dev, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    s->list = *list;
    s->ctx = ctx;
    gp_host_name_ptrs(&s->list, s->names);
    map_metrics(s);
    if (!(s->api = gp_cupti_load(err, errlen)))
        return -1;
    GP_CUPTI_PARAMS(CUpti_Profiler_Initialize_Params, init);
    if (gp_session_check(s, s->api->cuptiProfilerInitialize(&init),
                         "cuptiProfilerInitialize", err, errlen))
        return -1;
    s->cupti_initialized = 1;
    if (device_supported(s, dev, err, errlen) || chip_and_availability(s, dev, err, errlen))
        return -1;
    if (!(s->host = gp_host_open(s->api, s->chip, s->avail, err, errlen)) ||
        gp_host_check_names(s->api, s->host, &s->list, s->chip, err, errlen) ||
        gp_host_config(s->api, s->host, &s->list, &s->config, &s->config_size,
                       &s->passes, err, errlen))
        return -1;
    return 0;
}

int gp_session_enable(gp_session *s, CUpti_ProfilerReplayMode replay,
                      size_t max_ranges, char *err, size_t errlen)
{
    const gp_cupti_api *api = s->api;
    s->replay = replay;
    s->max_ranges = max_ranges;
    GP_CUPTI_PARAMS(CUpti_RangeProfiler_Enable_Params, e);
    e.ctx = s->ctx;
    if (gp_session_check(s, api->cuptiRangeProfilerEnable(&e),
                         "cuptiRangeProfilerEnable", err, errlen))
        return -1;
    s->rp = e.pRangeProfilerObject;

    GP_CUPTI_PARAMS(CUpti_RangeProfiler_GetCounterDataSize_Params, sz);
    sz.pRangeProfilerObject = s->rp;
    sz.pMetricNames = s->names;
    sz.numMetrics = (size_t)s->list.count;
    sz.maxNumOfRanges = max_ranges;
    sz.maxNumRangeTreeNodes = max_ranges;
    if (gp_session_check(s, api->cuptiRangeProfilerGetCounterDataSize(&sz),
                         "cuptiRangeProfilerGetCounterDataSize", err, errlen))
        return -1;
    s->data_size = sz.counterDataSize;
    if (!(s->data = calloc(1, s->data_size ? s->data_size : 1))) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    return 0;
}

static int total_ranges(gp_session *s, size_t *ranges, char *err, size_t errlen)
{
    GP_CUPTI_PARAMS(CUpti_RangeProfiler_GetCounterDataInfo_Params, info);
    info.pCounterDataImage = s->data;
    info.counterDataImageSize = s->data_size;
    if (gp_session_check(s, s->api->cuptiRangeProfilerGetCounterDataInfo(&info),
                         "cuptiRangeProfilerGetCounterDataInfo", err, errlen))
        return -1;
    *ranges = info.numTotalRanges;
    return 0;
}

/* Same config and mode every time: an enabled object keeps its first
 * config's pass schedule (docs/cupti.md, gotchas), which is then the
 * right one. */
int gp_session_arm(gp_session *s, char *err, size_t errlen)
{
    const gp_cupti_api *api = s->api;
    GP_CUPTI_PARAMS(CUpti_RangeProfiler_CounterDataImage_Initialize_Params, init);
    init.pRangeProfilerObject = s->rp;
    init.counterDataSize = s->data_size;
    init.pCounterData = s->data;
    if (gp_session_check(s, api->cuptiRangeProfilerCounterDataImageInitialize(&init),
                         "cuptiRangeProfilerCounterDataImageInitialize", err, errlen))
        return -1;

    GP_CUPTI_PARAMS(CUpti_RangeProfiler_SetConfig_Params, c);
    c.pRangeProfilerObject = s->rp;
    c.configSize = s->config_size;
    c.pConfig = s->config;
    c.counterDataImageSize = s->data_size;
    c.pCounterDataImage = s->data;
    c.range = CUPTI_AutoRange;          /* one range per kernel launched   */
    c.replayMode = s->replay;
    c.maxRangesPerPass = s->max_ranges;
    c.numNestingLevels = 1;
    c.minNestingLevel = 1;
    c.passIndex = 0;
    c.targetNestingLevel = 1;
    if (gp_session_check(s, api->cuptiRangeProfilerSetConfig(&c),
                         "cuptiRangeProfilerSetConfig", err, errlen))
        return -1;

    /* Ranges the image already holds: 0 if the re-initialisation reset it
     * (as documented); counted anyway so a CUPTI that keeps appending
     * still yields this launch's values, not a sum over launches. */
    if (total_ranges(s, &s->first_range, err, errlen))
        return -1;
    s->armed = 1;
    return 0;
}

int gp_session_start(gp_session *s, char *err, size_t errlen)
{
    GP_CUPTI_PARAMS(CUpti_RangeProfiler_Start_Params, start);
    start.pRangeProfilerObject = s->rp;
    CUptiResult r = s->api->cuptiRangeProfilerStart(&start);
    if (r != CUPTI_SUCCESS) {
        /* Privileges are often refused here, not at Enable: remember it
         * so later launches fail at once with the same reason. */
        gp_cupti_error(s->api, "cuptiRangeProfilerStart", r, s->refused, sizeof s->refused);
        snprintf(err, errlen, "%s", s->refused);
        return -1;
    }
    s->armed = 0;
    return 0;
}

int gp_session_stop(gp_session *s, int *all_submitted, char *err, size_t errlen)
{
    GP_CUPTI_PARAMS(CUpti_RangeProfiler_Stop_Params, stop);
    stop.pRangeProfilerObject = s->rp;
    *all_submitted = 0;
    if (gp_session_check(s, s->api->cuptiRangeProfilerStop(&stop),
                         "cuptiRangeProfilerStop", err, errlen))
        return -1;
    *all_submitted = stop.isAllPassSubmitted != 0;
    return 0;
}

/* One value per metric from the ranges: counts add up over kernels;
 * ratios and averages are weighted by each kernel's time. */
static void combine(gp_session *s, double vals[][GP_MAX_METRICS], size_t nranges)
{
    for (int i = 0; i < s->list.count; i++) {
        double sum = 0, weighted = 0, time = 0;
        for (size_t r = 0; r < nranges; r++) {
            sum += vals[r][i];
            if (s->time_index >= 0) {
                weighted += vals[r][i] * vals[r][s->time_index];
                time += vals[r][s->time_index];
            }
        }
        if (s->is_sum[i] || nranges == 1)
            s->values[i] = s->is_sum[i] ? sum : vals[0][i];
        else
            s->values[i] = time > 0 ? weighted / time : NAN;
    }
}

int gp_session_evaluate(gp_session *s, const char *what, char *err, size_t errlen)
{
    const gp_cupti_api *api = s->api;
    for (int i = 0; i < s->list.count; i++)
        s->values[i] = NAN;
    GP_CUPTI_PARAMS(CUpti_RangeProfiler_DecodeData_Params, dec);
    dec.pRangeProfilerObject = s->rp;
    if (gp_session_check(s, api->cuptiRangeProfilerDecodeData(&dec),
                         "cuptiRangeProfilerDecodeData", err, errlen))
        return -1;
    size_t total;
    if (total_ranges(s, &total, err, errlen))
        return -1;
    /* CUPTI drops ranges beyond the image silently (numOfRangeDropped can
     * stay 0), so a full image is treated as an overflow. */
    if (dec.numOfRangeDropped > 0 || (s->max_ranges > 1 && total >= s->max_ranges)) {
        if (s->first_range)
            snprintf(err, errlen, "CUPTI's counter data image is full (%zu ranges kept "
                     "from earlier launches)", s->first_range);
        else
            snprintf(err, errlen, "%s launched %zu or more kernels: gemmprof profiles "
                     "fewer per launch", what, s->max_ranges);
        return -1;
    }
    if (total <= s->first_range) {
        snprintf(err, errlen, "CUPTI recorded no kernel for the profiled launch of %s", what);
        return -1;
    }
    size_t nranges = total - s->first_range;
    double (*vals)[GP_MAX_METRICS] = calloc(nranges, sizeof *vals);
    if (!vals) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int rc = 0;
    for (size_t r = 0; r < nranges && rc == 0; r++) {
        GP_CUPTI_PARAMS(CUpti_Profiler_Host_EvaluateToGpuValues_Params, ev);
        ev.pHostObject = s->host;
        ev.pCounterDataImage = s->data;
        ev.counterDataImageSize = s->data_size;
        ev.rangeIndex = s->first_range + r;
        ev.ppMetricNames = s->names;
        ev.numMetrics = (size_t)s->list.count;
        ev.pMetricValues = vals[r];
        rc = gp_session_check(s, api->cuptiProfilerHostEvaluateToGpuValues(&ev),
                              "cuptiProfilerHostEvaluateToGpuValues", err, errlen);
    }
    if (rc == 0)
        combine(s, vals, nranges);
    free(vals);
    return rc;
}

void gp_session_fill_row(const gp_session *s, double *metric)
{
    for (int i = 0; i < s->list.count; i++)
        if (s->row_index[i] >= 0)
            metric[s->row_index[i]] = s->values[i];
}

void gp_session_disable(gp_session *s)
{
    if (s->rp) {
        GP_CUPTI_PARAMS(CUpti_RangeProfiler_Disable_Params, d);
        d.pRangeProfilerObject = s->rp;
        s->api->cuptiRangeProfilerDisable(&d);
        s->rp = NULL;
    }
    free(s->data);
    s->data = NULL;
    s->data_size = 0;
    s->armed = 0;
}

void gp_session_close(gp_session *s)
{
    gp_session_disable(s);
    if (s->api)
        gp_host_close(s->api, s->host);
    s->host = NULL;
    free(s->config);
    s->config = NULL;
    if (s->cupti_initialized) {
        GP_CUPTI_PARAMS(CUpti_Profiler_DeInitialize_Params, d);
        s->api->cuptiProfilerDeInitialize(&d);
        s->cupti_initialized = 0;
    }
    free(s->avail);
    s->avail = NULL;
}
