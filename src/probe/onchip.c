/* onchip.c - L2 and shared-memory bandwidth.  Both kernels read
 * arrays of 1.0f, so each thread's sum is 4 x (loads it made): checked
 * exactly on the host (the counts are kept under 2^24 per lane). */
#include <math.h>
#include <stdlib.h>
#include "stage.h"

#define MAX_LANE_SUM (1 << 23)

typedef struct {
    const void *x;
    size_t nvec;
    int passes, blocks;
    float *out;
} l2_arg;

static int l2_fn(void *p, cudaStream_t s)
{
    l2_arg *a = p;
    return gp_l2_launch(a->x, a->nvec, a->passes, a->out, a->blocks, s);
}

typedef struct {
    const void *src;
    int iters, blocks;
    float *out;
    gp_spans sp;
} smem_arg;

static int smem_fn(void *p, cudaStream_t s)
{
    smem_arg *a = p;
    return gp_smem_launch(a->src, a->iters, GP_PROBE_THREADS, a->out,
                          a->blocks, gp_spans_next(&a->sp), s);
}

/* Scale a calibration count `c0` that took `ms` to GP_PROBE_TARGET_MS. */
static int scale_count(int c0, double ms, int hi)
{
    double c = c0 * GP_PROBE_TARGET_MS / ms;
    return c < c0 ? c0 : c > hi ? hi : (int)c;
}

/* out[t] must be 4 x loads(t); loads(t) from the kernel's index rule. */
static int check_sums(gp_probe_ctx *x, const float *dout, size_t nt,
                      double (*loads)(const void *, size_t), const void *arg,
                      const char *what)
{
    float *h = malloc(nt * sizeof *h);
    cudaError_t e = h ? cudaMemcpy(h, dout, nt * sizeof *h,
                                   cudaMemcpyDeviceToHost)
                      : cudaErrorMemoryAllocation;
    size_t bad = 0, first = 0;
    for (size_t t = 0; e == cudaSuccess && t < nt; ++t)
        if (!(h[t] == 4.0 * loads(arg, t)) && bad++ == 0)
            first = t;
    if (e != cudaSuccess)
        snprintf(x->err, x->errlen, "probe %s check: %s", what, gp_cuda_msg(e));
    else if (bad)
        snprintf(x->err, x->errlen, "probe %s: %zu of %zu threads read a wrong "
                 "sum (thread %zu: %g, expected %g)", what, bad, nt, first,
                 h[first], 4.0 * loads(arg, first));
    free(h);
    return e == cudaSuccess && !bad ? 0 : -1;
}

static double l2_loads(const void *p, size_t t)
{
    const l2_arg *a = p;
    size_t stride = (size_t)a->blocks * GP_PROBE_THREADS;
    size_t per_pass = t < a->nvec ? (a->nvec - 1 - t) / stride + 1 : 0;
    return (double)a->passes * (double)per_pass;
}

static double smem_loads(const void *p, size_t t)
{
    (void)t;
    return ((const smem_arg *)p)->iters;
}

static int l2_run(gp_probe_ctx *x, l2_arg *a)
{
    gp_stats st;
    gp_clk clk;
    double ms;
    gp_clk_init(&clk);
    size_t stride = (size_t)a->blocks * GP_PROBE_THREADS;
    int per_pass = (int)((a->nvec + stride - 1) / stride);
    a->passes = 8;
    if (gp_calibrate(x, l2_fn, a, &ms, "l2_bw") != 0)
        return -1;
    a->passes = scale_count(8, ms, MAX_LANE_SUM / per_pass);
    if (gp_time_kept(x, l2_fn, a, &st, &clk, NULL, "l2_bw") != 0 ||
        check_sums(x, a->out, stride, l2_loads, a, "l2_bw") != 0)
        return -1;
    double bytes = 16.0 * (double)a->nvec * a->passes;
    gp_log_stats(x, "l2_bw", "GB/s", &st, bytes);
    gp_add_row(x->out, "l2_bw", "GB/s", gp_best_rate(&st, bytes), NAN,
               "%d passes over %zu KiB (L2 %zu KiB) with ld.global.cg; best of "
               "%d runs; theoretical NA (no formula from attributes)",
               a->passes, a->nvec * 16 / 1024, x->g->l2_bytes / 1024, x->reps);
    gp_meta_set(&x->out->meta, "probe_l2_working_set_bytes", "%zu",
                a->nvec * 16);
    return 0;
}

static int smem_run(gp_probe_ctx *x, smem_arg *a)
{
    gp_stats st;
    gp_clk clk;
    double ms;
    char how[96];
    gp_peaks p;
    gp_clk_init(&clk);
    a->iters = 1024;
    if (gp_calibrate(x, smem_fn, a, &ms, "smem_bw") != 0)
        return -1;
    a->iters = scale_count(1024, ms, MAX_LANE_SUM);
    size_t nt = (size_t)a->blocks * GP_PROBE_THREADS;
    if (gp_time_kept(x, smem_fn, a, &st, &clk, &a->sp, "smem_bw") != 0 ||
        check_sums(x, a->out, nt, smem_loads, a, "smem_bw") != 0)
        return -1;
    double bytes = 16.0 * (double)nt * a->iters;
    gp_log_stats(x, "smem_bw", "GB/s", &st, bytes);
    gp_log_clock(x, &clk);
    gp_theoretical_peaks(x->g, gp_clk_for_peak(x, &clk, how, sizeof how), &p);
    gp_add_row(x->out, "smem_bw", "GB/s", gp_best_rate(&st, bytes), p.smem_gbs,
               "%d conflict-free 16 B loads x %zu threads; best of %d runs; "
               "theoretical %d SMs x 32 banks x 4 B x %s", a->iters, nt,
               x->reps, x->g->sm_count, how);
    return 0;
}

/* Working set: a quarter of the L2, whole float4s. */
static size_t l2_vecs(const gp_gpu *g)
{
    size_t v = (g->l2_bytes ? g->l2_bytes : (size_t)4 << 20) / 4 / 16;
    return v > GP_SMEM_VECS ? v : GP_SMEM_VECS;
}

int gp_probe_caches(gp_probe_ctx *x)
{
    l2_arg la = {.nvec = l2_vecs(x->g)};
    smem_arg sa = {0};
    void *src = NULL;
    la.blocks = x->g->sm_count * gp_l2_blocks_per_sm();
    sa.blocks = sa.sp.blocks = x->g->sm_count * gp_smem_blocks_per_sm();
    size_t nt = (size_t)(la.blocks > sa.blocks ? la.blocks : sa.blocks) *
                GP_PROBE_THREADS;
    float *out = NULL;
    cudaError_t e = la.blocks > 0 && sa.blocks > 0 ? cudaSuccess
                                                   : cudaErrorInvalidConfiguration;
    if (e == cudaSuccess && (e = cudaMalloc(&src, la.nvec * 16)) == cudaSuccess &&
        (e = cudaMalloc((void **)&out, nt * sizeof *out)) == cudaSuccess)
        e = (cudaError_t)gp_stream_fill(0, src, la.nvec * 4, 1.0, x->s);
    int rc = -1;
    if (e != cudaSuccess) {
        snprintf(x->err, x->errlen, "probe caches: %s", gp_cuda_msg(e));
    } else {
        if (x->o->log)
            fprintf(x->o->log, "caches: L2 working set %zu KiB; shared memory "
                    "%d KiB per block\n", la.nvec * 16 / 1024,
                    GP_SMEM_VECS * 16 / 1024);
        la.x = sa.src = src;  /* the first GP_SMEM_VECS float4 of 1.0f */
        la.out = sa.out = out;
        rc = l2_run(x, &la);
        if (rc == 0)
            rc = smem_run(x, &sa);
    }
    cudaFree(src);
    cudaFree(out);
    return rc;
}
