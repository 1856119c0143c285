/* replay.c - counters of a launch gemmprof does not own: auto range +
 * kernel replay (docs/cupti.md: kernel replay is accepted only in auto
 * range mode).  Start, the application's one launch, Stop: CUPTI replays
 * the kernel inside the launch call, once per pass of the config, and
 * restores the memory the kernel can reach between passes.  What differs
 * from ncu's kernel replay: CUPTI 13.0 neither flushes caches nor locks
 * clocks between passes, so a multi-pass config sees the restore's dirty
 * L2 lines in DRAM writes (profiler.c's note measured +22 MB at 4096^3). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/util.h"
#include "session.h"

struct gp_replay {
    gp_session s;               /* the full list                           */
    gp_session gated;           /* the gated list, on s's object           */
    int gate;                   /* gated's index of the gate metric; -1:
                                   no gated config                         */
    gp_session *now;            /* the session of the launch in flight     */
    gp_replay_cost cost;
};

/* gp_tensor_gate_plan's pass count: the gated config, built on r's object. */
static int gated_passes(void *ctx, const gp_metric_list *list, char *err, size_t errlen)
{
    gp_replay *r = ctx;
    /* Re-enabling between configs is the measured safe way (session.h);
     * GEMMPROF_GATE_SWITCH=setconfig tries SetConfig alone. */
    const char *how = getenv("GEMMPROF_GATE_SWITCH");
    int reenable = !(how && strcmp(how, "setconfig") == 0);
    if (gp_session_share(&r->gated, &r->s, list, reenable, err, errlen))
        return -1;
    return r->gated.passes;
}

/* The gated config, where it saves passes; else none (its trouble is no
 * reason to refuse the full list's counters). */
static void plan_gate(gp_replay *r, const gp_metric_list *list)
{
    gp_metric_list gated;
    char why[300];
    if (gp_tensor_gate_plan(list, r->s.passes, &gated, gated_passes, r, why, sizeof why) == 1) {
        for (int i = 0; i < r->gated.list.count; i++)
            if (strcmp(r->gated.list.names[i], GP_TENSOR_GATE_METRIC) == 0)
                r->gate = i;
        return;
    }
    gp_session_close(&r->gated);
}

gp_replay *gp_replay_begin(void *cu_context, const gp_metric_list *list,
                           int tensor_gate, char *err, size_t errlen)
{
    CUdevice dev;
    const gp_cudrv_api *drv;
    gp_replay *r = gp_session_new(list, sizeof *r, err, errlen);
    if (!r)
        return NULL;
    r->gate = -1;
    r->now = &r->s;
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
    if (tensor_gate)
        plan_gate(r, list);
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

int gp_replay_start(gp_replay *r, int gated, char *err, size_t errlen)
{
    if (r->s.refused[0] || r->gated.refused[0]) {
        snprintf(err, errlen, "%s", r->s.refused[0] ? r->s.refused : r->gated.refused);
        return -1;
    }
    r->now = gated && r->gate >= 0 ? &r->gated : &r->s;
    double t0 = 1e3 * gp_seconds();
    if (!gp_session_armed(r->now) && gp_session_arm(r->now, err, errlen))
        return -1;
    double t1 = 1e3 * gp_seconds();
    int rc = gp_session_start(r->now, err, errlen);
    r->cost.arm_ms += t1 - t0;
    r->cost.start_ms += 1e3 * gp_seconds() - t1;
    return rc;
}

/* What the launch showed of the tensor pipe; a gated launch's tensor-path
 * columns from its gate: exactly 0 without tensor instructions, else
 * not collected. */
static void tensor_of(const gp_replay *r, double *metric, gp_replay_tensor *t)
{
    const gp_session *s = r->now;
    if (t->gated) {
        double g = s->values[r->gate];
        t->tensor = isnan(g) ? -1 : g > 0;
        for (int i = 0; i < r->s.list.count; i++)
            if (r->s.row_index[i] >= 0 && gp_metric_is_tensor_path(r->s.list.names[i]))
                metric[r->s.row_index[i]] = t->tensor == 0 ? 0.0 : NAN;
        return;
    }
    for (int i = 0; i < s->list.count; i++) {
        double v = s->values[i];
        if (!gp_metric_is_tensor_path(s->list.names[i]) || isnan(v))
            continue;
        if (v > 0)
            t->tensor = 1;
        else if (t->tensor < 0)
            t->tensor = 0;
    }
}

int gp_replay_stop(gp_replay *r, const char *kernel, double *metric,
                   gp_replay_tensor *t, char *err, size_t errlen)
{
    int all = 0;
    gp_session *s = r->now;
    t->gated = s == &r->gated;
    t->tensor = -1;
    double t0 = 1e3 * gp_seconds();
    int rc = gp_session_stop(s, &all, err, errlen);
    double t1 = 1e3 * gp_seconds();
    r->cost.stop_ms += t1 - t0;
    r->cost.launches++;
    r->cost.gated += t->gated;
    if (rc)
        return -1;
    /* Kernel replay submits every pass inside the launch (docs/cupti.md:
     * isAllPassSubmitted is 1 after the first Stop). */
    if (!all) {
        snprintf(err, errlen, "CUPTI did not replay every pass of %s (%d passes)",
                 kernel, s->passes);
        return -1;
    }
    rc = gp_session_evaluate(s, kernel, err, errlen);
    r->cost.evaluate_ms += 1e3 * gp_seconds() - t1;
    if (rc)
        return -1;
    gp_session_fill_row(s, metric);
    tensor_of(r, metric, t);
    return 0;
}

void gp_replay_costs(const gp_replay *r, gp_replay_cost *out)
{
    *out = r->cost;
    out->switches = r->s.switches;
}

int gp_replay_passes(const gp_replay *r) { return r->s.passes; }
int gp_replay_gated_passes(const gp_replay *r) { return r->gate >= 0 ? r->gated.passes : 0; }
const char *gp_replay_chip(const gp_replay *r) { return r->s.chip; }

void gp_replay_end(gp_replay *r)
{
    if (!r)
        return;
    /* CUPTI stays initialised: other contexts of the process may still be
     * profiled, and the process ends soon after anyway. */
    r->s.cupti_initialized = 0;
    gp_session_close(&r->gated);        /* first: it borrows from s */
    gp_session_close(&r->s);
    free(r);
}
