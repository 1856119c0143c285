/* replay.c - counters of a launch gemmprof does not own: auto range +
 * kernel replay (docs/cupti.md: kernel replay is accepted only in auto
 * range mode).  Start, the application's one launch, Stop: CUPTI replays
 * the kernel inside the launch call, once per pass of the config, and
 * restores the memory the kernel can reach between passes.  What differs
 * from ncu's kernel replay: CUPTI 13.0 neither flushes caches nor locks
 * clocks between passes, so a multi-pass config sees the restore's dirty
 * L2 lines in DRAM writes (profiler.c's note measured +22 MB at 4096^3).
 *
 * Two sessions, one enabled at a time: the full list, and (--tensor-
 * counters auto) the gated one, without the tensor-path counters
 * (tensor_gate.c).  The gated one goes first; the first launch that needs
 * every counter switches to the full one for good.  Switching back and
 * forth would cost each way what a profiled launch costs (H100: Disable
 * 11 ms, the next first Start 150 ms), and two enabled objects on one
 * context are not an option (the probe crashed). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/util.h"
#include "session.h"

struct gp_replay {
    gp_session full, gated;
    int gating;                 /* gated opened, and cheaper than full     */
    gp_session *on;             /* the session whose object is enabled     */
    char gate_off[400];         /* why not gating, when asked to           */
    gp_replay_cost cost;
};

/* The gated session, kept only where the chip has the gate's counts and
 * the gated list takes fewer passes; otherwise every launch is full. */
static void open_gated(gp_replay *r, const gp_metric_list *list, CUcontext ctx,
                       CUdevice dev)
{
    gp_metric_list gl;
    char why[300];
    if (gp_tensor_gate_list(list, &gl) != 0) {
        snprintf(r->gate_off, sizeof r->gate_off, "no tensor-path counter to gate");
        return;
    }
    if (gp_session_open(&r->gated, &gl, ctx, dev, why, sizeof why) != 0)
        snprintf(r->gate_off, sizeof r->gate_off, "%s", why);
    else if (r->gated.passes >= r->full.passes)
        snprintf(r->gate_off, sizeof r->gate_off, "the gated list takes %d passes, "
                 "the full one %d", r->gated.passes, r->full.passes);
    else
        r->gating = 1;
    if (!r->gating) {
        r->gated.cupti_initialized = 0;  /* the full session still uses CUPTI */
        gp_session_close(&r->gated);
    }
}

gp_replay *gp_replay_begin(void *cu_context, const gp_metric_list *list, int gate,
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
    if (gp_session_open(&r->full, list, (CUcontext)cu_context, dev, err, errlen))
        goto fail;
    if (gate)
        open_gated(r, list, (CUcontext)cu_context, dev);
    r->on = r->gating ? &r->gated : &r->full;
    /* One range: the one launch between Start and Stop.  Resetting the
     * image and setting the config again before each launch costs 0.03 ms
     * a launch (profiling_cost on the H100), so nothing is kept. */
    if (gp_session_enable(r->on, CUPTI_KernelReplay, 1, err, errlen) ||
        gp_session_arm(r->on, err, errlen))
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

/* From the gated object to the full one; a failure sticks as a refusal. */
static int switch_to_full(gp_replay *r, char *err, size_t errlen)
{
    double t0 = 1e3 * gp_seconds();
    gp_session_disable(&r->gated);
    r->on = &r->full;
    int rc = gp_session_enable(&r->full, CUPTI_KernelReplay, 1, err, errlen);
    if (rc)
        snprintf(r->full.refused, sizeof r->full.refused, "%s", err);
    r->cost.switch_ms += 1e3 * gp_seconds() - t0;
    return rc;
}

int gp_replay_start(gp_replay *r, int full, char *err, size_t errlen)
{
    if (full && r->on != &r->full && switch_to_full(r, err, errlen))
        return -1;
    if (r->on->refused[0]) {
        snprintf(err, errlen, "%s", r->on->refused);
        return -1;
    }
    double t0 = 1e3 * gp_seconds();
    if (!r->on->armed && gp_session_arm(r->on, err, errlen))
        return -1;
    double t1 = 1e3 * gp_seconds();
    int rc = gp_session_start(r->on, err, errlen);
    r->cost.arm_ms += t1 - t0;
    r->cost.start_ms += 1e3 * gp_seconds() - t1;
    return rc;
}

/* A gated launch's tensor-path counters: 0 where the tensor cores did no
 * math, else NA (a later launch takes them). */
static double gate(const gp_replay *r, double *metric)
{
    double math = gp_tensor_gate_count(&r->gated.list, r->gated.values);
    for (int i = 0; math == 0 && i < r->full.list.count; i++)
        if (r->full.row_index[i] >= 0 && gp_metric_is_tensor_path(r->full.list.names[i]))
            metric[r->full.row_index[i]] = 0;
    return math;
}

int gp_replay_stop(gp_replay *r, const char *kernel, double *metric, double *tensor_inst,
                   char *err, size_t errlen)
{
    int all = 0;
    *tensor_inst = NAN;
    double t0 = 1e3 * gp_seconds();
    int rc = gp_session_stop(r->on, &all, err, errlen);
    double t1 = 1e3 * gp_seconds();
    r->cost.stop_ms += t1 - t0;
    r->cost.launches++;
    if (rc)
        return -1;
    /* Kernel replay submits every pass inside the launch (docs/cupti.md:
     * isAllPassSubmitted is 1 after the first Stop). */
    if (!all) {
        snprintf(err, errlen, "CUPTI did not replay every pass of %s (%d passes)",
                 kernel, r->on->passes);
        return -1;
    }
    rc = gp_session_evaluate(r->on, kernel, err, errlen);
    r->cost.evaluate_ms += 1e3 * gp_seconds() - t1;
    if (rc)
        return -1;
    gp_session_fill_row(r->on, metric);
    if (r->on != &r->gated)
        return 0;
    r->cost.gated++;
    *tensor_inst = gate(r, metric);
    return *tensor_inst == 0 ? 0 : 1;           /* NAN: nothing known either */
}

void gp_replay_costs(const gp_replay *r, gp_replay_cost *out)
{
    *out = r->cost;
}

int gp_replay_passes(const gp_replay *r, int full)
{
    return full ? r->full.passes : r->gating ? r->gated.passes : 0;
}

const char *gp_replay_chip(const gp_replay *r) { return r->full.chip; }
const char *gp_replay_gate_off(const gp_replay *r) { return r->gate_off; }

void gp_replay_end(gp_replay *r)
{
    if (!r)
        return;
    /* CUPTI stays initialised: other contexts of the process may still be
     * profiled, and the process ends soon after anyway. */
    r->full.cupti_initialized = r->gated.cupti_initialized = 0;
    gp_session_close(&r->gated);
    gp_session_close(&r->full);
    free(r);
}
