/* runner.c - launch -> verify -> time -> profile, once for every kernel.
 *
 * Timing rules (each learned from a ladder that got it wrong):
 * - warm-up launches first (module load, cuBLAS heuristics);
 * - one event pair per rep, no sync between reps;
 * - C reset from C0 before every rep when beta != 0, so values stay bounded;
 * - L2 scrubbed before every rep (--cache-control all; scrub.h says how),
 *   so repeated launches do not find A and B already in cache;
 * - reset and scrub sit outside the events; median, min and max reported.
 * Counters come from separate, replayed launches (profiler.h), never from
 * the timed ones.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime_api.h>
#include <nvtx3/nvToolsExt.h>
#include "gpu/gpu.h"
#include "registry/registry.h"
#include "bench.h"

/* Keep the whole timed phase of one kernel near this many milliseconds: a
 * naive kernel at 8192^3 takes seconds per launch, cuBLAS microseconds. */
#define GP_TIME_BUDGET_MS 3000.0
#define GP_MIN_REPS 3

static size_t l2_bytes(void)
{
    int dev = 0, l2 = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev);
    return l2 > 0 ? (size_t)l2 : (size_t)64 << 20;
}

/* The scrub's buffer, sized for the scrub the run asked for (the first run
 * on the bench allocates it; a bigger scrub replaces it). */
static int scrub_buffer(gp_bench *b, const gp_scrub *s)
{
    size_t need = gp_scrub_bytes(s, l2_bytes());
    if (need <= b->flush_bytes)
        return 0;
    if (b->flush)
        cudaFree(b->flush);
    b->flush = NULL;
    b->flush_bytes = 0;
    int e = cudaMalloc(&b->flush, need);
    if (!e)
        e = cudaMemset(b->flush, 0, need);
    if (!e)
        b->flush_bytes = need;
    return e;
}

static int scrub(gp_bench *b, const gp_scrub *s, cudaStream_t st)
{
    return gp_scrub_run(s, b->flush, b->flush_bytes, st);
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, c = *(const double *)y;
    return (a > c) - (a < c);
}

static void set_status(gp_row *r, const char *what, int e)
{
    snprintf(r->status, sizeof r->status, "error: %s: %s", what,
             cudaGetErrorString((cudaError_t)e));
}

/* The verification launch: poison, launch once, judge every element,
 * the guard bands and C's padding (bench.c). */
static int verify_launch(gp_bench *b, const gp_kernel *k, gp_row *r,
                         gp_launch_info *li, float *ms)
{
    gemm_args a = gp_bench_args(b, b->C.data);
    cudaEvent_t t0, t1;
    int e;
    cudaEventCreate(&t0);
    cudaEventCreate(&t1);
    if ((e = gp_bench_prepare_c(b, 0)) == 0) {
        cudaEventRecord(t0, 0);
        e = k->launch(&a, 0, li);
        cudaEventRecord(t1, 0);
    }
    if (!e)
        e = cudaDeviceSynchronize();
    if (!e)
        e = cudaEventElapsedTime(ms, t0, t1);
    cudaEventDestroy(t0);
    cudaEventDestroy(t1);
    if (e) {
        set_status(r, "launch", e);
        return e;
    }
    return gp_bench_judge(b, k, r);
}

/* One timed launch of `k`: C reset (beta != 0) and L2 scrubbed first, as
 * every timed launch is, then events around the launch alone. */
static int timed_launch(gp_bench *b, const gp_kernel *k, const gemm_args *a,
                        const gp_run_opts *o, cudaEvent_t t0, cudaEvent_t t1)
{
    int e = b->beta != 0.0 ? gp_bench_prepare_c(b, 0) : 0;
    if (!e)
        e = scrub(b, &o->scrub, 0);
    if (!e && !(e = cudaEventRecord(t0, 0)) && !(e = k->launch(a, 0, NULL)))
        e = cudaEventRecord(t1, 0);
    return e;
}

/* Sorts t[0..n) and returns its median. */
static double sorted_median(double *t, int n)
{
    qsort(t, (size_t)n, sizeof *t, cmp_double);
    return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

/* `reps` timed launches of k; with o->pair (--interleave) each follows a
 * timed launch of the pair, so the two see the same clock and power state.
 * A 20-launch burst at 8192^3 can cross the power cap partway (session 5
 * traced one kernel's launches at 2.82 ms, then 3.07-3.30), and then the
 * median of either kernel may fall in either mode: the ratio is the median
 * of each pair's own ratio, the pair's time over k's right after it. */
static int timed_reps(gp_bench *b, const gp_kernel *k, const gp_run_opts *o,
                      int warmup, int reps, gp_row *r)
{
    gemm_args a = gp_bench_args(b, b->C.data);
    int per = o->pair && o->pair != k ? 2 : 1, n = per * reps;
    cudaEvent_t *ev = calloc(2 * (size_t)n, sizeof *ev);
    double *t = calloc((size_t)n + reps, sizeof *t);   /* + pair ratios */
    int e = (ev && t) ? 0 : (int)cudaErrorMemoryAllocation;
    for (int i = 0; !e && i < 2 * n; ++i)
        e = cudaEventCreate(&ev[i]);
    for (int i = 0; !e && i < warmup; ++i)
        if (!(e = gp_bench_prepare_c(b, 0)))
            e = k->launch(&a, 0, NULL);
    for (int j = 0; !e && j < n; ++j)      /* per 2: pair, k, pair, k, ... */
        e = timed_launch(b, per == 2 && j % 2 == 0 ? o->pair : k, &a, o,
                         ev[2 * j], ev[2 * j + 1]);
    if (!e)
        e = cudaDeviceSynchronize();
    for (int j = 0; !e && j < n; ++j) {    /* k's times first, the pair's after */
        float ms = 0;
        e = cudaEventElapsedTime(&ms, ev[2 * j], ev[2 * j + 1]);
        t[per == 2 ? (j % 2 ? j / 2 : reps + j / 2) : j] = ms;
    }
    for (int i = 0; !e && per == 2 && i < reps; ++i)
        t[n + i] = t[reps + i] / t[i];
    if (!e) {
        r->reps = reps;
        r->time_ms = sorted_median(t, reps);
        r->time_min_ms = t[0];
        r->time_max_ms = t[reps - 1];
        r->gflops = 2.0 * b->m * b->n * b->k / (r->time_ms * 1e6);
        if (per == 2) {
            r->ref_time_ms = sorted_median(t + reps, reps);
            r->pct_cublas = 100.0 * sorted_median(t + n, reps);
        }
    } else {
        set_status(r, "timing", e);
    }
    for (int i = 0; ev && i < 2 * n; ++i)
        if (ev[i])
            cudaEventDestroy(ev[i]);
    free(ev);
    free(t);
    return e;
}

/* Counters see the launch the timing saw: C prepared, then L2 scrubbed, so
 * DRAM bytes are the kernel's own (as ncu --cache-control all gives).
 * The profiler calls this before each of its passes (a launch each); a
 * scrub marked once runs before the first only. */
typedef struct {
    gp_bench *b;
    const gp_scrub *scrub;
    int calls;
} counter_prep;

static int prepare_counted_launch(void *ctx)
{
    counter_prep *cp = ctx;
    int e = gp_bench_prepare_c(cp->b, 0);
    if (!e && (!cp->scrub->once || cp->calls == 0))
        e = scrub(cp->b, cp->scrub, 0);
    cp->calls++;
    return e ? e : (int)cudaDeviceSynchronize();
}

/* --energy: the timed launch again, back to back (C reset first when
 * beta != 0, as in the timed reps; no scrub: a sustained run keeps what
 * the cache holds). */
typedef struct {
    gp_bench *b;
    const gp_kernel *k;
    gemm_args a;
} energy_launch;

static int launch_for_energy(void *ctx)
{
    energy_launch *el = ctx;
    int e = el->b->beta != 0.0 ? gp_bench_prepare_c(el->b, 0) : 0;
    return e ? e : el->k->launch(&el->a, 0, NULL);
}

int gp_bench_energy(gp_bench *b, const gp_kernel *k, const gp_run_opts *o,
                    gp_row *r)
{
    energy_launch el = {b, k, gp_bench_args(b, b->C.data)};
    gp_energy en;
    char err[256];
    if (gp_energy_window(o->nvml, o->energy_s, r->time_ms, launch_for_energy,
                         &el, &en, err, sizeof err) < 0) {
        fprintf(stderr, "gemmprof: warning: %s %ldx%ldx%ld: --energy: %s\n",
                k->name, b->m, b->n, b->k, err);
        return -1;
    }
    r->sustained_ms = en.sustained_ms;
    r->power_w = en.power_w;
    r->energy_j = en.energy_j;
    return 0;
}

static void collect_counters(gp_bench *b, const gp_kernel *k,
                             const gp_run_opts *o, gp_row *r)
{
    gemm_args a = gp_bench_args(b, b->C.data);
    counter_prep cp = {b, &o->scrub, 0};
    char err[256];
    if (gp_profiler_collect(o->prof, k, &a, prepare_counted_launch, &cp, r,
                            err, sizeof err) < 0)
        fprintf(stderr, "gemmprof: warning: %s %ldx%ldx%ld: counters: %s\n",
                k->name, b->m, b->n, b->k, err);
}

void gp_row_identify(gp_row *r, const gp_kernel *k, long m, long n, long kk,
                     double alpha, double beta)
{
    gp_row_init(r);
    snprintf(r->kernel, sizeof r->kernel, "%s", k->name);
    snprintf(r->precision, sizeof r->precision, "%s",
             gp_precision_name(k->precision));
    r->m = m;
    r->n = n;
    r->k = kk;
    r->alpha = alpha;
    r->beta = beta;
}

int gp_bench_run(gp_bench *b, const gp_kernel *k, const gp_run_opts *o,
                 gp_row *r)
{
    gp_row_identify(r, k, b->m, b->n, b->k, b->alpha, b->beta);
    if (k->precision != b->prec && !(k->precision == GP_TF32 && b->prec == GP_FP32)) {
        snprintf(r->status, sizeof r->status, "error: precision mismatch");
        return -1;
    }
    char range[128];
    snprintf(range, sizeof range, "%s/%ldx%ldx%ld", k->name, b->m, b->n, b->k);
    nvtxRangePushA(range);
    gp_launch_info li;
    memset(&li, 0, sizeof li);
    float first_ms = 0;
    int e = verify_launch(b, k, r, &li, &first_ms);
    if (!e) {
        snprintf(r->config, sizeof r->config, "%s", li.config);
        gp_facts_fill(&li, r);
        /* slow kernels get fewer reps (the row records how many); the
         * verification launch already paid module load and first touch */
        int reps = o->reps, warmup = o->warmup;
        if (first_ms > 0 && first_ms * reps > GP_TIME_BUDGET_MS)
            reps = (int)(GP_TIME_BUDGET_MS / first_ms);
        if (reps < GP_MIN_REPS)
            reps = o->reps < GP_MIN_REPS ? o->reps : GP_MIN_REPS;
        if (first_ms > 0 && first_ms * warmup > GP_TIME_BUDGET_MS / 4)
            warmup = (int)(GP_TIME_BUDGET_MS / 4 / first_ms);
        if ((e = scrub_buffer(b, &o->scrub)) != 0)
            set_status(r, "allocating the L2 scrub buffer", e);
        else
            e = timed_reps(b, k, o, warmup, reps, r);
    }
    if (!e && o->prof)
        collect_counters(b, k, o, r);
    gp_row_derive(r);
    nvtxRangePop();
    if (e)
        return -1;
    return r->verified ? 0 : 1;
}
