/* probe_stream.c - DRAM bandwidth the BabelStream way: copy, scale, add,
 * triad and read over arrays of at least 8x the L2, bytes counted as STREAM
 * counts them (arrays touched x n x sizeof).  Each operation only reads
 * arrays it does not write, so repeating it changes nothing and the final
 * values are known exactly: a=1, q=3 -> c=1, b=3, c=4, a=15. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "probe_run.h"

#define A0 1.0
#define Q 3.0
/* after copy, scale, add, triad: c = a0, b = q c, c = a0 + b, a = b + q c */
#define WANT_A (A0 * Q + Q * (A0 + A0 * Q))
#define WANT_B (A0 * Q)
#define WANT_C (A0 + A0 * Q)
#define MiB ((size_t)1 << 20)

static const char *const op_name[GP_STREAM_NOPS] = {"copy", "scale", "add",
                                                    "triad", "read"};
static const int op_arrays[GP_STREAM_NOPS] = {2, 2, 3, 3, 1};

typedef struct {
    int op, fp64, blocks;
    void *a, *b, *c, *partials;
    size_t n;
} stream_arg;

static int stream_fn(void *p, cudaStream_t s)
{
    stream_arg *x = p;
    return gp_stream_launch(x->op, x->fp64, x->a, x->b, x->c, Q, x->n,
                            x->partials, x->blocks, s);
}

static size_t default_bytes(const gp_gpu *g)
{
    size_t b = 8 * g->l2_bytes;
    return b > 256 * MiB ? b : 256 * MiB;
}

/* Bytes per array: asked for or 8x L2, shrunk (with a note) to 90% of
 * free memory over the three arrays. */
static size_t array_bytes(gp_probe_ctx *x)
{
    size_t want = x->o->bytes_per_array ? x->o->bytes_per_array
                                        : default_bytes(x->g);
    size_t fr = gp_gpu_free_mem();
    size_t fit = fr / 10 * 9 / 3 / MiB * MiB;
    if (want > fit) {
        fprintf(stderr, "gemmprof: note: STREAM arrays shrunk from %zu to "
                "%zu MiB each: %zu MiB of device memory free\n",
                want / MiB, fit / MiB, fr / MiB);
        want = fit;
    }
    if (want < 8 * x->g->l2_bytes)
        fprintf(stderr, "gemmprof: note: STREAM arrays of %zu MiB are under "
                "8x the L2 (%zu MiB): the bandwidth may include cache hits\n",
                want / MiB, x->g->l2_bytes / MiB);
    return want / 16 * 16;
}

/* Final values: each count must be 0 and the read's sum WANT_A n. */
static int check(gp_probe_ctx *x, stream_arg *sa, unsigned long long *dcnt,
                 const char *prec)
{
    const double want[3] = {WANT_A, WANT_B, WANT_C};
    void *arr[3] = {sa->a, sa->b, sa->c};
    unsigned long long cnt[3];
    cudaError_t e = cudaMemsetAsync(dcnt, 0, sizeof cnt, x->s);
    for (int i = 0; i < 3 && e == cudaSuccess; ++i)
        e = (cudaError_t)gp_stream_count_ne(sa->fp64, arr[i], sa->n, want[i],
                                            dcnt + i, sa->blocks, x->s);
    if (e == cudaSuccess)
        e = cudaMemcpyAsync(cnt, dcnt, sizeof cnt, cudaMemcpyDeviceToHost, x->s);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(x->s);
    if (e != cudaSuccess) {
        snprintf(x->err, x->errlen, "probe STREAM check: %s", gp_cuda_msg(e));
        return -1;
    }
    for (int i = 0; i < 3; ++i)
        if (cnt[i]) {
            snprintf(x->err, x->errlen, "probe STREAM %s: %llu of %zu elements "
                     "of %c are not %g", prec, cnt[i], sa->n, "abc"[i], want[i]);
            return -1;
        }
    return 0;
}

static int check_read(gp_probe_ctx *x, stream_arg *sa, const char *prec)
{
    size_t esz = sa->fp64 ? 8 : 4;
    char *h = malloc((size_t)sa->blocks * esz);
    cudaError_t e = h ? cudaMemcpy(h, sa->partials, (size_t)sa->blocks * esz,
                                   cudaMemcpyDeviceToHost)
                      : cudaErrorMemoryAllocation;
    double sum = 0, want = WANT_A * (double)sa->n;
    for (int i = 0; e == cudaSuccess && i < sa->blocks; ++i)
        sum += sa->fp64 ? ((double *)h)[i] : ((float *)h)[i];
    free(h);
    if (e != cudaSuccess) {
        snprintf(x->err, x->errlen, "probe STREAM read: %s", gp_cuda_msg(e));
        return -1;
    }
    /* exact unless a block's float partial passes 2^24 */
    if (!(fabs(sum - want) <= (sa->fp64 ? 1e-12 : 1e-6) * want)) {
        snprintf(x->err, x->errlen, "probe STREAM %s read: sum %.17g, "
                 "expected %.17g", prec, sum, want);
        return -1;
    }
    return 0;
}

/* One precision: fill, every operation dropped-once-then-timed, check. */
static int run_prec(gp_probe_ctx *x, stream_arg *sa, unsigned long long *dcnt,
                    gp_clk *clk, double gbs[GP_STREAM_NOPS])
{
    const char *prec = sa->fp64 ? "fp64" : "fp32";
    size_t esz = sa->fp64 ? 8 : 4;
    cudaError_t e = (cudaError_t)gp_stream_fill(sa->fp64, sa->a, sa->n, A0, x->s);
    if (e == cudaSuccess)
        e = (cudaError_t)gp_stream_fill(sa->fp64, sa->b, sa->n, 0, x->s);
    if (e == cudaSuccess)
        e = (cudaError_t)gp_stream_fill(sa->fp64, sa->c, sa->n, 0, x->s);
    if (e != cudaSuccess) {
        snprintf(x->err, x->errlen, "probe STREAM fill: %s", gp_cuda_msg(e));
        return -1;
    }
    for (int op = 0; op < GP_STREAM_NOPS; ++op) {
        char name[48];
        gp_stats st;
        snprintf(name, sizeof name, "stream_%s_%s", op_name[op], prec);
        sa->op = op;
        sa->blocks = x->g->sm_count * gp_stream_blocks_per_sm(op, sa->fp64);
        if (sa->blocks < 1) {
            snprintf(x->err, x->errlen, "probe %s: no occupancy", name);
            return -1;
        }
        if (gp_time_kept(x, stream_fn, sa, &st, clk, name) != 0)
            return -1;
        double bytes = (double)op_arrays[op] * (double)sa->n * (double)esz;
        gbs[op] = gp_best_rate(&st, bytes);
        gp_log_stats(x, name, "GB/s", &st, bytes);
    }
    if (check(x, sa, dcnt, prec) != 0 || check_read(x, sa, prec) != 0)
        return -1;
    return 0;
}

static void add_rows(gp_probe_ctx *x, double gbs[2][GP_STREAM_NOPS],
                     size_t bytes)
{
    gp_peaks p;
    gp_theoretical_peaks(x->g, 0, &p);
    char theo[96];
    snprintf(theo, sizeof theo, "theoretical 2 x %d MHz x %d bit / 8",
             x->g->mem_clock_khz / 1000, x->g->bus_width_bits);
    int best64 = gbs[1][GP_STREAM_TRIAD] > gbs[0][GP_STREAM_TRIAD];
    gp_add_row(x->out, "dram_bw", "GB/s", gbs[best64][GP_STREAM_TRIAD],
               p.dram_gbs, "best STREAM triad (%s); %zu MiB arrays; best of "
               "%d runs; %s", best64 ? "fp64" : "fp32", bytes / MiB, x->reps,
               theo);
    for (int f = 0; f < 2; ++f)
        for (int op = 0; op < GP_STREAM_NOPS; ++op) {
            char name[48];
            snprintf(name, sizeof name, "stream_%s_%s", op_name[op],
                     f ? "fp64" : "fp32");
            gp_add_row(x->out, name, "GB/s", gbs[f][op], p.dram_gbs,
                       "STREAM %s; %d array%s x %zu MiB counted; best of %d "
                       "runs; %s", op_name[op], op_arrays[op],
                       op_arrays[op] > 1 ? "s" : "", bytes / MiB, x->reps, theo);
        }
}

int gp_probe_stream(gp_probe_ctx *x)
{
    size_t bytes = array_bytes(x);
    if (bytes < MiB) {
        snprintf(x->err, x->errlen, "probe STREAM: not enough free device "
                 "memory (%zu MiB)", gp_gpu_free_mem() / MiB);
        return -1;
    }
    stream_arg sa = {0};
    unsigned long long *dcnt = NULL;
    size_t max_blocks = (size_t)x->g->sm_count * 64;
    cudaError_t e;
    if ((e = cudaMalloc(&sa.a, bytes)) != cudaSuccess ||
        (e = cudaMalloc(&sa.b, bytes)) != cudaSuccess ||
        (e = cudaMalloc(&sa.c, bytes)) != cudaSuccess ||
        (e = cudaMalloc(&sa.partials, max_blocks * 8)) != cudaSuccess ||
        (e = cudaMalloc((void **)&dcnt, 3 * sizeof *dcnt)) != cudaSuccess)
        snprintf(x->err, x->errlen, "probe STREAM: %zu MiB x 3: %s",
                 bytes / MiB, gp_cuda_msg(e));
    double gbs[2][GP_STREAM_NOPS];
    gp_clk clk;
    gp_clk_init(&clk);
    int rc = e == cudaSuccess ? 0 : -1;
    if (x->o->log && rc == 0)
        fprintf(x->o->log, "STREAM: 3 arrays x %zu MiB\n", bytes / MiB);
    for (int f = 0; f < 2 && rc == 0; ++f) {
        sa.fp64 = f;
        sa.n = bytes / (f ? 8 : 4);
        rc = run_prec(x, &sa, dcnt, &clk, gbs[f]);
    }
    cudaFree(sa.a);
    cudaFree(sa.b);
    cudaFree(sa.c);
    cudaFree(sa.partials);
    cudaFree(dcnt);
    if (rc != 0)
        return -1;
    add_rows(x, gbs, bytes);
    gp_meta_set(&x->out->meta, "probe_bytes_per_array", "%zu", bytes);
    if (clk.mem_max > 0)
        gp_meta_set(&x->out->meta, "probe_mem_clock_mhz", "%d", clk.mem_max);
    else
        gp_meta_set(&x->out->meta, "probe_mem_clock_mhz", "NA");
    return 0;
}
