/* fma.c - FP32 and FP64 FMA throughput.  a = 1 - 2^-10 and
 * b = 2^-7 keep every chain finite and normal (it converges to 8), and the
 * CPU repeats the same correctly rounded FMAs, so each thread's output is
 * known to the bit. */
#include <math.h>
#include <stdlib.h>
#include "stage.h"

#define FMA_A 0.9990234375
#define FMA_B 0.0078125
#define MIN_ITERS 1024
#define MAX_ITERS (1 << 20)   /* bounds the CPU's share of the check */

double gp_fma_expected(int fp64, int cls, int iters, double a, double b)
{
    if (fp64) {
        double x[GP_FMA_CHAINS], s = 0;
        for (int c = 0; c < GP_FMA_CHAINS; ++c)
            x[c] = GP_FMA_START(double, cls, c);
        for (int i = 0; i < iters; ++i)
            for (int c = 0; c < GP_FMA_CHAINS; ++c)
                x[c] = fma(x[c], a, b);
        for (int c = 0; c < GP_FMA_CHAINS; ++c)
            s += x[c];
        return s;
    }
    float x[GP_FMA_CHAINS], s = 0, fa = (float)a, fb = (float)b;
    for (int c = 0; c < GP_FMA_CHAINS; ++c)
        x[c] = GP_FMA_START(float, cls, c);
    for (int i = 0; i < iters; ++i)
        for (int c = 0; c < GP_FMA_CHAINS; ++c)
            x[c] = fmaf(x[c], fa, fb);
    for (int c = 0; c < GP_FMA_CHAINS; ++c)
        s += x[c];
    return s;
}

typedef struct {
    int fp64, iters, blocks;
    void *out;
    gp_spans sp;
} fma_arg;

static int fma_fn(void *p, cudaStream_t s)
{
    fma_arg *x = p;
    return gp_fma_launch(x->fp64, x->out, x->iters, FMA_A, FMA_B, x->blocks,
                         gp_spans_next(&x->sp), s);
}

/* Iterations for a run of about GP_PROBE_TARGET_MS. */
static int size_iters(gp_probe_ctx *x, fma_arg *fa)
{
    double ms;
    fa->iters = MIN_ITERS;
    if (gp_calibrate(x, fma_fn, fa, &ms, "FMA") != 0)
        return -1;
    double it = MIN_ITERS * GP_PROBE_TARGET_MS / ms;
    it = it < MIN_ITERS ? MIN_ITERS : it > MAX_ITERS ? MAX_ITERS : it;
    fa->iters = (int)(it / GP_FMA_UNROLL) * GP_FMA_UNROLL;
    return 0;
}

static int check(gp_probe_ctx *x, const fma_arg *fa)
{
    size_t nt = (size_t)fa->blocks * GP_PROBE_THREADS, esz = fa->fp64 ? 8 : 4;
    char *h = malloc(nt * esz);
    cudaError_t e = h ? cudaMemcpy(h, fa->out, nt * esz, cudaMemcpyDeviceToHost)
                      : cudaErrorMemoryAllocation;
    if (e != cudaSuccess) {
        free(h);
        snprintf(x->err, x->errlen, "probe FMA check: %s", gp_cuda_msg(e));
        return -1;
    }
    double want[GP_FMA_CLASSES];
    for (int k = 0; k < GP_FMA_CLASSES; ++k)
        want[k] = gp_fma_expected(fa->fp64, k, fa->iters, FMA_A, FMA_B);
    size_t bad = 0, first = 0;
    for (size_t t = 0; t < nt; ++t) {
        double got = fa->fp64 ? ((double *)h)[t] : ((float *)h)[t];
        if (!(got == want[t % GP_FMA_CLASSES]) && bad++ == 0)
            first = t;
    }
    if (bad) {
        double got = fa->fp64 ? ((double *)h)[first] : ((float *)h)[first];
        snprintf(x->err, x->errlen, "probe FMA %s: %zu of %zu threads wrong "
                 "(thread %zu: %.17g, expected %.17g)", fa->fp64 ? "fp64" : "fp32",
                 bad, nt, first, got, want[first % GP_FMA_CLASSES]);
    }
    free(h);
    return bad ? -1 : 0;
}

static void add_row(gp_probe_ctx *x, const fma_arg *fa, const gp_stats *st,
                    const gp_clk *clk, double flops)
{
    char how[96];
    gp_peaks p;
    gp_theoretical_peaks(x->g, gp_clk_for_peak(x, clk, how, sizeof how), &p);
    int lanes = fa->fp64 ? p.fp64_lanes : p.fp32_lanes;
    gp_add_row(x->out, fa->fp64 ? "fp64_fma" : "fp32_fma", "GFLOP/s",
               gp_best_rate(st, flops), fa->fp64 ? p.fp64_gflops : p.fp32_gflops,
               "%d chains x %d FMA/thread x %d threads; best of %d runs; "
               "theoretical %d SMs x %d lanes x 2 x %s", GP_FMA_CHAINS,
               fa->iters, fa->blocks * GP_PROBE_THREADS, x->reps,
               x->g->sm_count, lanes, how);
}

/* The tensor-core ceilings: theoretical only (no probe measures them), at
 * the clock the FP32 FMA probe ran at, so every roof of the file assumes
 * the same clock. */
static void add_tensor_rows(gp_probe_ctx *x, const gp_clk *clk)
{
    char how[96];
    gp_peaks p;
    gp_theoretical_peaks(x->g, gp_clk_for_peak(x, clk, how, sizeof how), &p);
    static const struct { gp_peak_kind kind; const char *what; } rows[] = {
        {GP_PEAK_TF32_TENSOR, "TF32"}, {GP_PEAK_FP64_TENSOR, "FP64"},
    };
    int cc = GP_CC(x->g->cc_major, x->g->cc_minor);
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; ++i) {
        double flop = gp_arch_flop_per_clock(cc, rows[i].kind);
        double t = rows[i].kind == GP_PEAK_TF32_TENSOR ? p.tf32_tensor_gflops
                                                      : p.fp64_tensor_gflops;
        if (isnan(flop))
            gp_add_row(x->out, gp_peak_name(rows[i].kind), "GFLOP/s", NAN, NAN,
                       gp_arch_lookup(cc) ? "not measured; no %s tensor cores on "
                       "compute capability %d.%d (src/arch/arch.c)" :
                       "not measured; %s tensor rate of compute capability "
                       "%d.%d unknown (not in src/arch/arch.c)", rows[i].what,
                       cc / 10, cc % 10);
        else
            gp_add_row(x->out, gp_peak_name(rows[i].kind), "GFLOP/s", NAN, t,
                       "not measured; theoretical %d SMs x %.0f %s FLOP/clk/SM"
                       " x %s", x->g->sm_count, flop, rows[i].what, how);
    }
}

static int run_prec(gp_probe_ctx *x, fma_arg *fa, gp_clk *clk32)
{
    const char *name = fa->fp64 ? "fp64_fma" : "fp32_fma";
    gp_stats st;
    gp_clk clk;
    gp_clk_init(&clk);
    if (size_iters(x, fa) != 0 ||
        gp_time_kept(x, fma_fn, fa, &st, &clk, &fa->sp, name) != 0 ||
        check(x, fa) != 0)
        return -1;
    double flops = 2.0 * GP_FMA_CHAINS * (double)fa->iters *
                   (double)fa->blocks * GP_PROBE_THREADS;
    gp_log_stats(x, name, "GFLOP/s", &st, flops);
    gp_log_clock(x, &clk);
    add_row(x, fa, &st, &clk, flops);
    if (!fa->fp64) {   /* the clock the runner's drift warning compares */
        gp_meta *m = &x->out->meta;
        *clk32 = clk;
        if (clk.n > 0) {
            gp_meta_set(m, "probe_sm_clock_mhz", "%d", clk.sm_max);
            gp_meta_set(m, "probe_sm_clock_min_mhz", "%d", clk.sm_min);
        } else {
            gp_meta_set(m, "probe_sm_clock_mhz", "NA");
            gp_meta_set(m, "probe_sm_clock_min_mhz", "NA");
        }
    }
    return 0;
}

int gp_probe_fma(gp_probe_ctx *x)
{
    int rc = 0;
    gp_clk clk32;
    gp_clk_init(&clk32);
    if (x->o->log)
        fprintf(x->o->log, "FMA: %d independent chains per thread\n",
                GP_FMA_CHAINS);
    for (int f = 0; f < 2 && rc == 0; ++f) {
        fma_arg fa = {.fp64 = f};
        fa.blocks = fa.sp.blocks = x->g->sm_count * gp_fma_blocks_per_sm(f);
        cudaError_t e = fa.blocks > 0 ? cudaMalloc(&fa.out, (size_t)fa.blocks *
                                                   GP_PROBE_THREADS * 8)
                                      : cudaErrorInvalidConfiguration;
        if (e != cudaSuccess) {
            snprintf(x->err, x->errlen, "probe FMA: %s", gp_cuda_msg(e));
            return -1;
        }
        rc = run_prec(x, &fa, &clk32);
        cudaFree(fa.out);
    }
    if (rc == 0)
        add_tensor_rows(x, &clk32);
    return rc;
}
