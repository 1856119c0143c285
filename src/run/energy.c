/* energy.c - joules per launch (--energy SECONDS): the kernel back to back
 * for a window, the board's energy counter (NVML) read while it runs.
 *
 * Why it is measured this way:
 * - NVML's total-energy counter moves in steps about 100 ms apart (H100:
 *   median 99.8 ms, 74-126 ms, reports/data/h100/energy/), so a reading
 *   before and after a window is off by up to a step's energy at each end
 *   (+-5% of a 2 s window).  Instead the host polls the counter every
 *   millisecond and keeps the times at which it stepped: power is the
 *   energy between the first and the last step divided by the time
 *   between them, both taken while the GPU was inside the measured window
 *   (after its start event completed, before its end event did).
 * - A power-capped card (H100 at 8192^3 TF32) lowers its clock some time
 *   after a burst starts, so short timed reps measure whatever state the
 *   previous kernel left.  A quarter of the window runs first, unmeasured,
 *   and the window's mean time per launch (events around all its launches)
 *   is the sustained time: the speed the kernel keeps when it runs long.
 * - energy per launch = power x sustained time per launch: the two come
 *   from the same stretch of back-to-back launches. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <cuda_runtime_api.h>
#include "probe/probe.h"
#include "run.h"

#define MAX_STEPS 100000
#define MAX_LAUNCHES 10000000.0
#define POLL_S 1e-3

int gp_energy_power(const double *t, const unsigned long long *mj, int n,
                    double *watts)
{
    if (n < 2 || !(t[n - 1] > t[0]) || mj[n - 1] < mj[0])
        return -1;
    *watts = (double)(mj[n - 1] - mj[0]) / 1e3 / (t[n - 1] - t[0]);
    return 0;
}

typedef struct {
    gp_nvml *nv;
    cudaEvent_t start, end;
    int recorded;                /* events recorded so far (0, 1, 2): an
                                    event never recorded reads complete  */
    int started, ended;          /* events seen complete                  */
    unsigned long long last;     /* counter at the last poll              */
    double last_poll;
    double *t;
    unsigned long long *mj;
    int n;
} window;

/* One poll: note the events that completed, then the counter; a step seen
 * between the start and the end event is kept. */
static void poll(window *w)
{
    unsigned long long e;
    w->last_poll = gp_seconds();
    if (w->recorded >= 1 && !w->started && cudaEventQuery(w->start) == cudaSuccess)
        w->started = 1;
    if (w->recorded == 2 && w->started && !w->ended &&
        cudaEventQuery(w->end) == cudaSuccess)
        w->ended = 1;
    if (gp_nvml_energy_mj(w->nv, &e) != 0)
        return;
    if (e != w->last && w->started && !w->ended && w->n < MAX_STEPS) {
        w->t[w->n] = w->last_poll;
        w->mj[w->n++] = e;
    }
    w->last = e;
}

static int launches(gp_energy_launch_fn launch, void *ctx, double count, window *w)
{
    for (double i = 0; i < count; i++) {
        int e = launch(ctx);
        if (e)
            return e;
        if (gp_seconds() - w->last_poll >= POLL_S)
            poll(w);
    }
    return 0;
}

static int run_window(window *w, double seconds, double est_ms,
                      gp_energy_launch_fn launch, void *ctx, double *count)
{
    double n = ceil(seconds * 1e3 / est_ms);
    *count = n < 4 ? 4 : n > MAX_LAUNCHES ? MAX_LAUNCHES : n;
    int e = launches(launch, ctx, ceil(*count / 4), w);   /* settle, unmeasured */
    if (!e && !(e = cudaEventRecord(w->start, 0)))
        w->recorded = 1;
    if (!e)
        e = launches(launch, ctx, *count, w);
    if (!e && !(e = cudaEventRecord(w->end, 0)))
        w->recorded = 2;
    struct timespec nap = {0, 200000};
    while (!e && !w->ended) {
        cudaError_t q = cudaEventQuery(w->end);
        if (q != cudaSuccess && q != cudaErrorNotReady)
            return q;
        poll(w);
        if (!w->ended)
            nanosleep(&nap, NULL);
    }
    return e;
}

int gp_energy_window(gp_nvml *nv, double seconds, double est_ms,
                     gp_energy_launch_fn launch, void *ctx, gp_energy *out,
                     char *err, size_t errlen)
{
    unsigned long long first;
    out->sustained_ms = out->power_w = out->energy_j = NAN;
    if (!nv || gp_nvml_energy_mj(nv, &first) != 0) {
        snprintf(err, errlen, "no energy counter (NVML's "
                 "nvmlDeviceGetTotalEnergyConsumption, Volta and later)");
        return -1;
    }
    window w = {.nv = nv, .last = first, .last_poll = gp_seconds()};
    w.t = malloc(MAX_STEPS * sizeof *w.t);
    w.mj = malloc(MAX_STEPS * sizeof *w.mj);
    int rc = -1;
    double count = 0;
    float ms = 0;
    cudaError_t e = (w.t && w.mj) ? cudaSuccess : cudaErrorMemoryAllocation;
    if (!e && !(e = cudaEventCreate(&w.start)) && !(e = cudaEventCreate(&w.end))) {
        e = (cudaError_t)run_window(&w, seconds, est_ms > 0 ? est_ms : 1.0,
                                    launch, ctx, &count);
        if (!e)
            e = cudaEventElapsedTime(&ms, w.start, w.end);
    }
    if (e) {
        snprintf(err, errlen, "energy window: %s", cudaGetErrorString(e));
    } else if (gp_energy_power(w.t, w.mj, w.n, &out->power_w) != 0) {
        snprintf(err, errlen, "energy window of %.2f s saw %d steps of the energy "
                 "counter (it steps about every 100 ms): use a longer --energy",
                 ms / 1e3, w.n);
    } else {
        out->sustained_ms = ms / count;
        out->energy_j = out->power_w * out->sustained_ms / 1e3;
        rc = 0;
    }
    if (w.start)
        cudaEventDestroy(w.start);
    if (w.end)
        cudaEventDestroy(w.end);
    free(w.t);
    free(w.mj);
    return rc;
}
