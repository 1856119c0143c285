/* stream.c - DRAM bandwidth the BabelStream way: copy, scale, add,
 * triad and read over arrays of at least 8x the L2, bytes counted as STREAM
 * counts them (arrays touched x n x sizeof).
 *
 * The kernels come in variants (probes/probes.h); which one reaches the
 * real ceiling depends on the GPU, so a quick sweep of every variant on
 * triad, copy and read picks one for each, then all five operations are
 * timed with their pick at full reps: triad's for add, copy's for scale.
 * Each timed operation only reads arrays it does not write, so repeating
 * it changes nothing and the final values are known exactly:
 * a=1, q=3 -> c=1, b=3, c=4, a=15. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "stage.h"

#define A0 1.0
#define Q 3.0
/* after copy, scale, add, triad: c = a0, b = q c, c = a0 + b, a = b + q c */
#define WANT_A (A0 * Q + Q * (A0 + A0 * Q))
#define WANT_B (A0 * Q)
#define WANT_C (A0 + A0 * Q)
#define MiB ((size_t)1 << 20)
#define SWEEP_REPS 5

static const char *const op_name[GP_STREAM_NOPS] = {"copy", "scale", "add",
                                                    "triad", "read"};
static const int op_arrays[GP_STREAM_NOPS] = {2, 2, 3, 3, 1};
static const char *const hint_name[GP_HINT_N] = {"plain", "ld.cs/st.cs",
                                                 "ld.nc", "ld.nc/st.cs"};

/* The sweep's operations; each op takes the pick of one of them. */
enum { PICK_TRIAD, PICK_COPY, PICK_READ, NPICK };
static const int pick_op[NPICK] = {GP_STREAM_TRIAD, GP_STREAM_COPY,
                                   GP_STREAM_READ};
static const int pick_of[GP_STREAM_NOPS] = {PICK_COPY, PICK_COPY, PICK_TRIAD,
                                            PICK_TRIAD, PICK_READ};

typedef struct {
    int op, fp64, blocks;
    gp_stream_variant v;
    void *a, *b, *c, *partials;
    size_t n;
} stream_arg;

typedef struct {
    double gbs;
    char how[96];        /* the variant, for the method column */
} stream_result;

static int stream_fn(void *p, cudaStream_t s)
{
    stream_arg *x = p;
    return gp_stream_launch(x->op, x->fp64, &x->v, x->a, x->b, x->c, Q, x->n,
                            x->partials, x->blocks, s);
}

static void variant_name(const stream_arg *sa, char *buf, size_t len)
{
    const gp_stream_variant *v = &sa->v;
    snprintf(buf, len, "%s x%d/thread, %d threads x %d/SM, %s, %s",
             sa->fp64 ? "double2" : "float4", v->unroll, v->threads,
             gp_stream_blocks_per_sm(sa->op, sa->fp64, v),
             v->one_shot ? "one-shot grid" : "grid-stride", hint_name[v->hint]);
}

/* At least 8x L2 (STREAM's rule) and at least 2 GiB: on the H200 a triad
 * over 480 MiB arrays measured 0.5-1 point below 2 GiB ones (launch and
 * tail are a fixed cost; probes/experiments/triad_variants.cu). */
static size_t default_bytes(const gp_gpu *g)
{
    size_t b = 8 * g->l2_bytes;
    return b > 2048 * MiB ? b : 2048 * MiB;
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

/* The most read partials any variant needs (one per block). */
static size_t max_read_blocks(const gp_probe_ctx *x, size_t bytes)
{
    size_t most = 1;
    for (int f = 0; f < 2; ++f)
        for (int i = 0; i < gp_stream_variant_count(); ++i) {
            gp_stream_variant v = gp_stream_variant_at(i);
            size_t b = (size_t)gp_stream_grid(GP_STREAM_READ, f, &v,
                                              bytes / (f ? 8 : 4),
                                              x->g->sm_count);
            most = b > most ? b : most;
        }
    return most;
}

static int fill3(gp_probe_ctx *x, stream_arg *sa, double a, double b, double c)
{
    cudaError_t e = (cudaError_t)gp_stream_fill(sa->fp64, sa->a, sa->n, a, x->s);
    if (e == cudaSuccess)
        e = (cudaError_t)gp_stream_fill(sa->fp64, sa->b, sa->n, b, x->s);
    if (e == cudaSuccess)
        e = (cudaError_t)gp_stream_fill(sa->fp64, sa->c, sa->n, c, x->s);
    if (e != cudaSuccess)
        snprintf(x->err, x->errlen, "probe STREAM fill: %s", gp_cuda_msg(e));
    return e == cudaSuccess ? 0 : -1;
}

/* Best GB/s of SWEEP_REPS runs after a dropped one; NAN if the variant
 * cannot run.  The sweep's copy is a = b, so that triad (a = b + q c),
 * copy and read never write what another reads and nothing drifts. */
static int sweep_one(gp_probe_ctx *x, const stream_arg *base, int pick,
                     int vi, gp_clk *clk, double *gbs)
{
    stream_arg sa = *base;
    sa.op = pick_op[pick];
    sa.v = gp_stream_variant_at(vi);
    sa.blocks = gp_stream_grid(sa.op, sa.fp64, &sa.v, sa.n, x->g->sm_count);
    *gbs = NAN;
    if (sa.blocks < 1)
        return 0;
    if (sa.op == GP_STREAM_COPY) {
        sa.c = base->a;
        sa.a = base->b;
    }
    double ms[SWEEP_REPS + 1];
    char what[64];
    snprintf(what, sizeof what, "STREAM sweep %s variant %d", op_name[sa.op], vi);
    if (gp_time_runs(x, stream_fn, &sa, SWEEP_REPS + 1, ms, clk, what) != 0)
        return -1;
    gp_stats st;
    gp_stats_of(ms + 1, SWEEP_REPS, &st);
    double bytes = (double)op_arrays[sa.op] * (double)sa.n *
                   (sa.fp64 ? 8.0 : 4.0);
    *gbs = gp_best_rate(&st, bytes);
    return 0;
}

static void log_sweep_row(gp_probe_ctx *x, int vi, const double *row)
{
    gp_stream_variant v = gp_stream_variant_at(vi);
    fprintf(x->o->log, "  x%d %4d %-6s", v.unroll, v.threads,
            v.one_shot ? "1shot" : "stride");
    for (int p = 0; p < NPICK; ++p) {
        fputs("  |", x->o->log);
        for (int h = 0; h < GP_HINT_N; ++h)
            if (isfinite(row[p * GP_HINT_N + h]))
                fprintf(x->o->log, " %6.0f", row[p * GP_HINT_N + h]);
            else
                fprintf(x->o->log, " %6s", "-");
    }
    fputc('\n', x->o->log);
}

/* Every variant on triad, copy and read; best[p] = variant index of the
 * fastest for pick p.  Logs a table: a row per vectors x threads x grid,
 * a column per hint within each operation. */
static int sweep(gp_probe_ctx *x, stream_arg *sa, gp_clk *clk, int best[NPICK])
{
    double top[NPICK] = {0, 0, 0};
    double row[NPICK * GP_HINT_N];
    if (fill3(x, sa, A0, A0, A0) != 0)
        return -1;
    if (x->o->log)
        fprintf(x->o->log, "STREAM %s variant sweep, GB/s best of %d; hints "
                "plain, ld.cs/st.cs, ld.nc, ld.nc/st.cs\n  %-14s  | %-28s |"
                " %-28s | %s\n", sa->fp64 ? "fp64" : "fp32", SWEEP_REPS,
                "vec threads", "triad", "copy", "read");
    for (int p = 0; p < NPICK; ++p)
        best[p] = -1;
    for (int vi = 0; vi < gp_stream_variant_count(); ++vi) {
        int h = vi % GP_HINT_N;
        for (int p = 0; p < NPICK; ++p) {
            double g;
            if (sweep_one(x, sa, p, vi, clk, &g) != 0)
                return -1;
            row[p * GP_HINT_N + h] = g;
            if (isfinite(g) && g > top[p]) {
                top[p] = g;
                best[p] = vi;
            }
        }
        if (x->o->log && h == GP_HINT_N - 1)
            log_sweep_row(x, vi, row);
    }
    for (int p = 0; p < NPICK; ++p)
        if (best[p] < 0) {
            snprintf(x->err, x->errlen, "probe STREAM: no variant of %s can "
                     "run", op_name[pick_op[p]]);
            return -1;
        }
    return 0;
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
                                            dcnt + i, x->g->sm_count * 8, x->s);
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

/* sa->blocks is the read's grid: one partial per block. */
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

/* One precision: sweep, refill, every operation with its pick
 * dropped-once-then-timed, check. */
static int run_prec(gp_probe_ctx *x, stream_arg *sa, unsigned long long *dcnt,
                    gp_clk *clk, stream_result res[GP_STREAM_NOPS])
{
    const char *prec = sa->fp64 ? "fp64" : "fp32";
    size_t esz = sa->fp64 ? 8 : 4;
    int best[NPICK];
    if (sweep(x, sa, clk, best) != 0 || fill3(x, sa, A0, 0, 0) != 0)
        return -1;
    for (int op = 0; op < GP_STREAM_NOPS; ++op) {
        char name[48];
        gp_stats st;
        snprintf(name, sizeof name, "stream_%s_%s", op_name[op], prec);
        sa->op = op;
        sa->v = gp_stream_variant_at(best[pick_of[op]]);
        sa->blocks = gp_stream_grid(op, sa->fp64, &sa->v, sa->n,
                                    x->g->sm_count);
        if (sa->blocks < 1) {
            snprintf(x->err, x->errlen, "probe %s: no occupancy", name);
            return -1;
        }
        if (gp_time_kept(x, stream_fn, sa, &st, clk, NULL, name) != 0)
            return -1;
        double bytes = (double)op_arrays[op] * (double)sa->n * (double)esz;
        res[op].gbs = gp_best_rate(&st, bytes);
        variant_name(sa, res[op].how, sizeof res[op].how);
        gp_log_stats(x, name, "GB/s", &st, bytes);
        if (x->o->log)
            fprintf(x->o->log, "  %-18s variant: %s\n", "", res[op].how);
    }
    if (check(x, sa, dcnt, prec) != 0 || check_read(x, sa, prec) != 0)
        return -1;
    return 0;
}

static void add_rows(gp_probe_ctx *x, stream_result res[2][GP_STREAM_NOPS],
                     size_t bytes)
{
    gp_peaks p;
    gp_theoretical_peaks(x->g, 0, &p);
    char theo[64];
    snprintf(theo, sizeof theo, "theoretical 2 x %d MHz x %d bit / 8",
             x->g->mem_clock_khz / 1000, x->g->bus_width_bits);
    int b64 = res[1][GP_STREAM_TRIAD].gbs > res[0][GP_STREAM_TRIAD].gbs;
    gp_add_row(x->out, "dram_bw", "GB/s", res[b64][GP_STREAM_TRIAD].gbs,
               p.dram_gbs, "best STREAM triad; %s; %zu MiB arrays; best of "
               "%d; %s", res[b64][GP_STREAM_TRIAD].how, bytes / MiB, x->reps,
               theo);
    for (int f = 0; f < 2; ++f)
        for (int op = 0; op < GP_STREAM_NOPS; ++op) {
            char name[48];
            snprintf(name, sizeof name, "stream_%s_%s", op_name[op],
                     f ? "fp64" : "fp32");
            gp_add_row(x->out, name, "GB/s", res[f][op].gbs, p.dram_gbs,
                       "%s; %s; %d x %zu MiB; best of %d; %s", op_name[op],
                       res[f][op].how, op_arrays[op], bytes / MiB, x->reps,
                       theo);
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
    size_t parts = max_read_blocks(x, bytes);
    cudaError_t e;
    if ((e = cudaMalloc(&sa.a, bytes)) != cudaSuccess ||
        (e = cudaMalloc(&sa.b, bytes)) != cudaSuccess ||
        (e = cudaMalloc(&sa.c, bytes)) != cudaSuccess ||
        (e = cudaMalloc(&sa.partials, parts * 8)) != cudaSuccess ||
        (e = cudaMalloc((void **)&dcnt, 3 * sizeof *dcnt)) != cudaSuccess)
        snprintf(x->err, x->errlen, "probe STREAM: %zu MiB x 3: %s",
                 bytes / MiB, gp_cuda_msg(e));
    stream_result res[2][GP_STREAM_NOPS];
    gp_clk clk;
    gp_clk_init(&clk);
    int rc = e == cudaSuccess ? 0 : -1;
    if (x->o->log && rc == 0)
        fprintf(x->o->log, "STREAM: 3 arrays x %zu MiB\n", bytes / MiB);
    for (int f = 0; f < 2 && rc == 0; ++f) {
        sa.fp64 = f;
        sa.n = bytes / (f ? 8 : 4);
        rc = run_prec(x, &sa, dcnt, &clk, res[f]);
    }
    cudaFree(sa.a);
    cudaFree(sa.b);
    cudaFree(sa.c);
    cudaFree(sa.partials);
    cudaFree(dcnt);
    if (rc != 0)
        return -1;
    add_rows(x, res, bytes);
    gp_meta_set(&x->out->meta, "probe_bytes_per_array", "%zu", bytes);
    if (clk.mem_max > 0)
        gp_meta_set(&x->out->meta, "probe_mem_clock_mhz", "%d", clk.mem_max);
    else
        gp_meta_set(&x->out->meta, "probe_mem_clock_mhz", "NA");
    return 0;
}
