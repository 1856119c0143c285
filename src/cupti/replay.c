/* replay.c - counters of a launch gemmprof does not own: auto range +
 * kernel replay (docs/cupti.md: kernel replay is accepted only in auto
 * range mode).  Start, the application's one launch, Stop: CUPTI replays
 * the kernel inside the launch call, once per pass of the config, and
 * restores the memory the kernel can reach between passes.  What differs
 * from ncu's kernel replay: CUPTI 13.0 neither flushes caches nor locks
 * clocks between passes, so a multi-pass config sees the restore's dirty
 * L2 lines in DRAM writes (profiler.c's note measured +22 MB at 4096^3). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/util.h"
#include "session.h"

struct gp_replay {
    gp_session s;
    gp_replay_cost cost;
};

gp_replay *gp_replay_begin(void *cu_context, const gp_metric_list *list,
                           char *err, size_t errlen)
{
    CUdevice dev;
    const gp_cudrv_api *drv;
    gp_replay *r = gp_session_new(list, sizeof *r, err, errlen);
    if (!r)
        return NULL;
    if (!gp_cupti_load(err, errlen) || gp_session_preflight(err, errlen) ||
        !(drv = gp_cudrv_load(err, errlen)))
        goto fail;
    if (drv->cuCtxGetDevice(&dev) != CUDA_SUCCESS) {
        snprintf(err, errlen, "cuCtxGetDevice: no current CUDA context");
        goto fail;
    }
    /* One range: the one launch between Start and Stop.  Resetting the
     * image and setting the config again before each launch costs 0.03 ms
     * a launch (profiling_cost on the H100), so nothing is kept. */
    if (gp_session_open(&r->s, list, (CUcontext)cu_context, dev, err, errlen) ||
        gp_session_enable(&r->s, CUPTI_KernelReplay, 1, err, errlen) ||
        gp_session_arm(&r->s, err, errlen))
        goto fail;
    /* No prime launch here (unlike profiler.c): it loads a module,
     * allocates and creates a stream from inside the application's launch
     * callback, and the first traced PyTorch process on the H100 hung
     * there or near (no row after 9 minutes).  The first profiled launch
     * of a context pays the first Start's cost instead. */
    return r;
fail:
    gp_replay_end(r);
    return NULL;
}

int gp_replay_start(gp_replay *r, char *err, size_t errlen)
{
    if (r->s.refused[0]) {
        snprintf(err, errlen, "%s", r->s.refused);
        return -1;
    }
    double t0 = 1e3 * gp_seconds();
    if (!r->s.armed && gp_session_arm(&r->s, err, errlen))
        return -1;
    double t1 = 1e3 * gp_seconds();
    int rc = gp_session_start(&r->s, err, errlen);
    r->cost.arm_ms += t1 - t0;
    r->cost.start_ms += 1e3 * gp_seconds() - t1;
    return rc;
}

int gp_replay_stop(gp_replay *r, const char *kernel, double *metric,
                   char *err, size_t errlen)
{
    int all = 0;
    double t0 = 1e3 * gp_seconds();
    int rc = gp_session_stop(&r->s, &all, err, errlen);
    double t1 = 1e3 * gp_seconds();
    r->cost.stop_ms += t1 - t0;
    r->cost.launches++;
    if (rc)
        return -1;
    /* Kernel replay submits every pass inside the launch (docs/cupti.md:
     * isAllPassSubmitted is 1 after the first Stop). */
    if (!all) {
        snprintf(err, errlen, "CUPTI did not replay every pass of %s (%d passes)",
                 kernel, r->s.passes);
        return -1;
    }
    rc = gp_session_evaluate(&r->s, kernel, err, errlen);
    r->cost.evaluate_ms += 1e3 * gp_seconds() - t1;
    if (rc)
        return -1;
    gp_session_fill_row(&r->s, metric);
    return 0;
}

void gp_replay_costs(const gp_replay *r, gp_replay_cost *out)
{
    *out = r->cost;
}

int gp_replay_passes(const gp_replay *r) { return r->s.passes; }
const char *gp_replay_chip(const gp_replay *r) { return r->s.chip; }

void gp_replay_end(gp_replay *r)
{
    if (!r)
        return;
    /* CUPTI stays initialised: other contexts of the process may still be
     * profiled, and the process ends soon after anyway. */
    r->s.cupti_initialized = 0;
    gp_session_close(&r->s);
    free(r);
}
