/* energy.c - joules per launch (--energy SECONDS): the kernel back to back
 * for a window, the board's energy counter (NVML) read while it runs.
 *
 * Why it is measured this way:
 * - NVML's total-energy counter moves in steps about 100 ms apart (H100:
 *   median 99.8 ms, 74-126 ms, in a device run whose log was not kept;
 *   the one-read cost is in reports/data/h100/tf32-bench/energy-b72f747/
 *   test-energy.txt), so a reading
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
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <cuda_runtime_api.h>
#include "probe/probe.h"
#include "run.h"

#define MAX_STEPS 100000
#define MAX_LAUNCHES 10000000.0

int gp_energy_power(const double *t, const unsigned long long *mj, int n,
                    double *watts)
{
    if (n < 2 || !(t[n - 1] > t[0]) || mj[n - 1] < mj[0])
        return -1;
    *watts = (double)(mj[n - 1] - mj[0]) / 1e3 / (t[n - 1] - t[0]);
    return 0;
}

int gp_energy_result(const double *t, const unsigned long long *mj, int n,
                     double window_ms, double launches, gp_energy *out)
{
    double w;
    out->sustained_ms = out->power_w = out->energy_j = NAN;
    if (!(launches > 0) || !(window_ms > 0) || gp_energy_power(t, mj, n, &w) != 0)
        return -1;
    out->power_w = w;
    out->sustained_ms = window_ms / launches;
    out->energy_j = w * out->sustained_ms / 1e3;
    return 0;
}

/* The poller runs on its own thread: a first version read the counter
 * between launches, at most once a millisecond, and on the H100 the loop
 * then ran one 0.11 ms kernel per 3.3 ms (the GPU starved; tests/run/
 * test_energy.c prints what one read costs). */
typedef struct {
    gp_nvml *nv;
    int device;
    cudaEvent_t start, end;
    atomic_int recorded;         /* events recorded (0, 1, 2): an event never
                                    recorded reads complete               */
    atomic_int stop;
    int started;                 /* start event seen complete (poller)    */
    atomic_int ended;            /* end event seen complete: the poller
                                    sets it, the launching thread waits  */
    double *t;                   /* steps inside the window: time (s)     */
    unsigned long long *mj;      /* and reading                           */
    int n;
} window;

static void *poller(void *arg)
{
    window *w = arg;
    unsigned long long last = 0, e;
    int have = 0;
    struct timespec nap = {0, 500000};
    cudaSetDevice(w->device);
    while (!atomic_load(&w->stop) && !atomic_load(&w->ended)) {
        int rec = atomic_load(&w->recorded);
        if (rec >= 1 && !w->started && cudaEventQuery(w->start) == cudaSuccess)
            w->started = 1;
        if (rec == 2 && w->started && cudaEventQuery(w->end) == cudaSuccess)
            atomic_store(&w->ended, 1);
        double t0 = gp_seconds();
        if (gp_nvml_energy_mj(w->nv, &e) == 0) {
            /* a step seen while the window ran (it may have happened any
             * time since the last read: the read's midpoint stands for it,
             * the same convention at both ends) */
            if (have && e != last && w->started && !atomic_load(&w->ended) &&
                w->n < MAX_STEPS) {
                w->t[w->n] = 0.5 * (t0 + gp_seconds());
                w->mj[w->n++] = e;
            }
            last = e;
            have = 1;
        }
        nanosleep(&nap, NULL);
    }
    return NULL;
}

/* `count` launches, fewer if they take far longer than the window was
 * sized for (est_ms wrong): *done says how many. */
static int launches(gp_energy_launch_fn launch, void *ctx, double count,
                    double deadline, double *done)
{
    for (*done = 0; *done < count; (*done)++) {
        int e = launch(ctx);
        if (e)
            return e;
        if (((long)*done & 63) == 63 && gp_seconds() > deadline) {
            (*done)++;
            break;
        }
    }
    return 0;
}

static int run_window(window *w, double seconds, double est_ms,
                      gp_energy_launch_fn launch, void *ctx, double *count)
{
    double n = ceil(seconds * 1e3 / est_ms), settle;
    n = n < 4 ? 4 : n > MAX_LAUNCHES ? MAX_LAUNCHES : n;
    double t0 = gp_seconds();
    int e = launches(launch, ctx, ceil(n / 4), t0 + seconds, &settle);
    if (!e && !(e = cudaEventRecord(w->start, 0)))
        atomic_store(&w->recorded, 1);
    if (!e)
        e = launches(launch, ctx, n, t0 + 3 * seconds + 1, count);
    if (!e && !(e = cudaEventRecord(w->end, 0)))
        atomic_store(&w->recorded, 2);
    if (!e)
        e = cudaEventSynchronize(w->end);
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
    window w = {.nv = nv};
    cudaGetDevice(&w.device);
    w.t = malloc(MAX_STEPS * sizeof *w.t);
    w.mj = malloc(MAX_STEPS * sizeof *w.mj);
    int rc = -1, threaded = 0;
    double count = 0;
    float ms = 0;
    cudaError_t e = (w.t && w.mj) ? cudaSuccess : cudaErrorMemoryAllocation;
    if (!e && !(e = cudaEventCreate(&w.start)) && !(e = cudaEventCreate(&w.end))) {
        pthread_t th;
        threaded = pthread_create(&th, NULL, poller, &w) == 0;
        e = threaded ? (cudaError_t)run_window(&w, seconds, est_ms > 0 ? est_ms : 1.0,
                                               launch, ctx, &count)
                     : cudaErrorUnknown;
        if (threaded) {
            /* the poller stops on its own once it saw the end event */
            for (int i = 0; i < 2000 && !e && !atomic_load(&w.ended); i++)
                nanosleep(&(struct timespec){0, 1000000}, NULL);
            atomic_store(&w.stop, 1);
            pthread_join(th, NULL);
        }
        if (!e)
            e = cudaEventElapsedTime(&ms, w.start, w.end);
    }
    if (e) {
        snprintf(err, errlen, "energy window: %s", threaded ? cudaGetErrorString(e)
                 : "could not start the energy counter's thread");
    } else if (gp_energy_result(w.t, w.mj, w.n, ms, count, out) != 0) {
        snprintf(err, errlen, "energy window of %.2f s saw %d steps of the energy "
                 "counter (it steps about every 100 ms): use a longer --energy",
                 ms / 1e3, w.n);
    } else {
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
