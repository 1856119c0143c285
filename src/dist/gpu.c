/* gpu.c - the GPU local backend of `gemmprof dist`: each rank runs a
 * registered kernel (a rung or cuBLAS) on one GPU, picked by the rank's
 * number within its host, on panels kept in device memory.
 *
 * The gemms are C += A * B (alpha 1, beta 1: the core uploads a zero C
 * before each repetition), A and B a panel slot or local A/B in place,
 * launched through the kernel's own launcher on the compute stream, an
 * event pair around each, so the GPU time of the local gemms is known
 * apart from the host's view of it.  Packs run on the copy stream. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu.h"
#include "gpu/gpu.h"
#include "registry/registry.h"

int gp_gpu_fail(int e, const char *what, char *err, size_t errlen)
{
    if (e == cudaSuccess)
        return 0;
    snprintf(err, errlen, "%s: %s", what, gp_cuda_msg(e));
    return -1;
}

static size_t elems(const gp_gpu_rank *g, gp_dist_buf which)
{
    const gp_dist_local *l = &g->loc;
    switch (which) {
    case GP_DIST_A:      return (size_t)l->mloc * (size_t)l->kloc_a;
    case GP_DIST_B:      return (size_t)l->kloc_b * (size_t)l->nloc;
    case GP_DIST_C:      return (size_t)l->mloc * (size_t)l->nloc;
    case GP_DIST_APANEL: return (size_t)l->mloc * (size_t)l->panel_max;
    case GP_DIST_BPANEL: return (size_t)l->panel_max * (size_t)l->nloc;
    }
    return 0;
}

static void gpu_close(void *ctx)
{
    gp_gpu_rank *g = ctx;
    if (!g)
        return;
    if (g->compute)
        cudaStreamSynchronize(g->compute);
    for (int i = 0; i < 3; i++)
        cudaFree(g->mat[i]);
    for (int s = 0; s < 2; s++) {
        cudaFree(g->panel[0][s]);
        cudaFree(g->panel[1][s]);
        if (g->slot_free[s])
            cudaEventDestroy(g->slot_free[s]);
        for (int ab = 0; ab < 2; ab++)
            if (g->packed[ab][s])
                cudaEventDestroy(g->packed[ab][s]);
    }
    for (int i = 0; i < g->evcap; i++)
        cudaEventDestroy(g->ev[i]);
    gp_gpu_stage_close(g);
    if (g->compute)
        cudaStreamDestroy(g->compute);
    if (g->copy)
        cudaStreamDestroy(g->copy);
    free(g->ev);
    free(g->widths);
    free(g);
}

/* Rank -> device by its number on the host, so ranks of one host spread
 * over its GPUs whatever mpirun's binding. */
static int pick_device(gp_gpu_rank *g, char *err, size_t errlen)
{
    int e = cudaGetDeviceCount(&g->ndev);
    if (e != cudaSuccess || g->ndev < 1) {
        snprintf(err, errlen, "--local %s needs a GPU: %s", g->kernel->name,
                 e != cudaSuccess ? gp_cuda_msg(e) : "no CUDA device");
        return -1;
    }
    g->device = g->loc.local_rank % g->ndev;
    return gp_gpu_fail(cudaSetDevice(g->device), "cudaSetDevice", err, errlen);
}

static void describe_device(gp_gpu_rank *g)
{
    struct cudaDeviceProp p;
    char bus[32] = "?";
    memset(&p, 0, sizeof p);
    cudaGetDeviceProperties(&p, g->device);
    cudaDeviceGetPCIBusId(bus, sizeof bus, g->device);
    snprintf(g->what, sizeof g->what, "cuda device %d of %d: %s (cc %d.%d, "
             "bus %s)%s, kernel %s", g->device, g->ndev, p.name, p.major,
             p.minor, bus, g->loc.local_size > g->ndev ? ", shared with other ranks" : "",
             g->kernel->name);
}

static int alloc_all(gp_gpu_rank *g, char *err, size_t errlen)
{
    size_t need = 0, freeb = 0, total = 0;
    for (int w = GP_DIST_A; w <= GP_DIST_BPANEL; w++)
        need += elems(g, (gp_dist_buf)w) * g->esize * (w >= GP_DIST_APANEL ? 2 : 1);
    cudaMemGetInfo(&freeb, &total);
    if (need > freeb) {
        snprintf(err, errlen, "the local matrices need %.2f GiB on device %d, "
                 "%.2f GiB free", need / 1073741824.0, g->device, freeb / 1073741824.0);
        return -1;
    }
    int e = cudaSuccess;
    for (int i = 0; i < 3 && e == cudaSuccess; i++)
        if (elems(g, (gp_dist_buf)i))
            e = cudaMalloc(&g->mat[i], elems(g, (gp_dist_buf)i) * g->esize);
    for (int s = 0; s < 2 && e == cudaSuccess; s++)
        for (int ab = 0; ab < 2 && e == cudaSuccess; ab++)
            if (elems(g, GP_DIST_APANEL + ab))
                e = cudaMalloc(&g->panel[ab][s],
                               elems(g, GP_DIST_APANEL + ab) * g->esize);
    return gp_gpu_fail(e, "cudaMalloc (local matrices)", err, errlen);
}

/* The rank's GPU and this build can run the local kernel (it would be an
 * empty kernel otherwise: src/arch/build.c). */
static int local_can_run(const gp_kernel *k, char *err, size_t errlen)
{
    char status[96], why[160];
    int cc = gp_current_cc();
    if (gp_build_check_device(gp_this_build(), cc, err, errlen) != 0)
        return -1;
    if (gp_registry_can_run(k, cc, gp_this_build(), status, sizeof status, why,
                            sizeof why))
        return 0;
    snprintf(err, errlen, "--local %s cannot run here: %s (%s)", k->name,
             status + strlen("skipped: "), why);
    return -1;
}

static int gpu_open(void **ctx, const char *kernel, const gp_dist_local *loc,
                    char *err, size_t errlen)
{
    gp_gpu_rank *g = calloc(1, sizeof *g);
    *ctx = g;
    if (!g) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    g->loc = *loc;
    g->esize = gp_precision_bytes(loc->precision);
    g->kernel = gp_registry_find(kernel);
    if (!g->kernel) {
        snprintf(err, errlen, "--local %s: no such kernel (gemmprof --list)", kernel);
        return -1;
    }
    if (g->kernel->precision != loc->precision) {
        snprintf(err, errlen, "--local %s computes in %s, the run is %s", kernel,
                 gp_precision_name(g->kernel->precision),
                 gp_precision_name(loc->precision));
        return -1;
    }
    if (pick_device(g, err, errlen) < 0 || local_can_run(g->kernel, err, errlen) < 0)
        return -1;
    describe_device(g);
    int e = cudaStreamCreateWithFlags(&g->compute, cudaStreamNonBlocking);
    if (e == cudaSuccess)
        e = cudaStreamCreateWithFlags(&g->copy, cudaStreamNonBlocking);
    for (int s = 0; s < 2 && e == cudaSuccess; s++) {
        e = cudaEventCreateWithFlags(&g->slot_free[s], cudaEventDisableTiming);
        for (int ab = 0; ab < 2 && e == cudaSuccess; ab++)
            e = cudaEventCreateWithFlags(&g->packed[ab][s], cudaEventDisableTiming);
    }
    if (gp_gpu_fail(e, "creating streams", err, errlen) < 0)
        return -1;
    if (alloc_all(g, err, errlen) < 0 || gp_gpu_stage_open(g, err, errlen) < 0)
        return -1;
    return 0;
}

static void *gpu_buf(void *ctx, gp_dist_buf which, int slot)
{
    gp_gpu_rank *g = ctx;
    if (which == GP_DIST_APANEL || which == GP_DIST_BPANEL)
        return g->panel[which - GP_DIST_APANEL][slot & 1];
    return (int)which >= 0 && which < 3 ? g->mat[which] : NULL;
}

static int gpu_upload(void *ctx, gp_dist_buf which, const void *host,
                      char *err, size_t errlen)
{
    gp_gpu_rank *g = ctx;
    if (which > GP_DIST_C) {
        snprintf(err, errlen, "upload of a panel buffer (only A, B, C)");
        return -1;
    }
    if (which == GP_DIST_C) {           /* a fresh C: a new repetition */
        g->gemm_ms = 0;
        g->panel_wait_ms = 0;
        g->gemms = 0;
        g->nwidths = 0;
    }
    return gp_gpu_stage_up(g, g->mat[which], host, elems(g, which) * g->esize,
                           err, errlen);
}

static int gpu_download(void *ctx, gp_dist_buf which, void *host,
                        char *err, size_t errlen)
{
    gp_gpu_rank *g = ctx;
    if (which > GP_DIST_C) {
        snprintf(err, errlen, "download of a panel buffer (only A, B, C)");
        return -1;
    }
    /* The last gemms must be done; the core syncs, but be sure. */
    if (gp_gpu_fail(cudaStreamSynchronize(g->compute), "local gemm", err, errlen) < 0)
        return -1;
    return gp_gpu_stage_down(g, host, g->mat[which], elems(g, which) * g->esize,
                             err, errlen);
}

static int gpu_zero_c(void *ctx, char *err, size_t errlen)
{
    gp_gpu_rank *g = ctx;
    size_t n = elems(g, GP_DIST_C) * g->esize;
    g->gemm_ms = 0;
    g->panel_wait_ms = 0;
    g->gemms = 0;
    g->nwidths = 0;
    if (n && gp_gpu_fail(cudaMemsetAsync(g->mat[GP_DIST_C], 0, n, g->compute),
                         "zeroing C", err, errlen) < 0)
        return -1;
    return gp_gpu_fail(cudaStreamSynchronize(g->compute), "zeroing C", err, errlen);
}

/* On the copy stream, after the last gemm that read the slot; the gemms
 * and root transports of the slot wait for `packed`, so nothing here
 * blocks the host. */
static int gpu_pack(void *ctx, gp_dist_buf which, int slot, void *dst,
                    size_t dpitch, const void *src, size_t spitch, size_t rows,
                    size_t cols, char *err, size_t errlen)
{
    gp_gpu_rank *g = ctx;
    int ab = which == GP_DIST_BPANEL, s = slot & 1;
    if (!rows || !cols)
        return 0;
    int e = cudaStreamWaitEvent(g->copy, g->slot_free[s], 0);
    if (e == cudaSuccess)
        e = cudaMemcpy2DAsync(dst, dpitch * g->esize, src, spitch * g->esize,
                              cols * g->esize, rows, cudaMemcpyDeviceToDevice,
                              g->copy);
    if (e == cudaSuccess)
        e = cudaEventRecord(g->packed[ab][s], g->copy);
    return gp_gpu_fail(e, "packing a panel", err, errlen);
}

static int more_events(gp_gpu_rank *g, char *err, size_t errlen)
{
    if (g->nev + 3 <= g->evcap)
        return 0;
    int cap = g->evcap ? 2 * g->evcap : 16;
    cudaEvent_t *ev = realloc(g->ev, (size_t)cap * sizeof *ev);
    if (!ev) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    g->ev = ev;
    for (; g->evcap < cap; g->evcap++)
        if (gp_gpu_fail(cudaEventCreate(&g->ev[g->evcap]), "cudaEventCreate",
                        err, errlen) < 0)
            return -1;
    return 0;
}

static void note_width(gp_gpu_rank *g, int kb)
{
    if (g->nwidths == g->widthcap) {
        long cap = g->widthcap ? 2 * g->widthcap : 64;
        int *w = realloc(g->widths, (size_t)cap * sizeof *w);
        if (!w)
            return;                     /* counters then say so */
        g->widths = w;
        g->widthcap = cap;
    }
    g->widths[g->nwidths++] = kb;
}

/* 1 if p points into panel buffer [ab][s] (then the gemm reads a pack). */
static int in_panel(const gp_gpu_rank *g, int ab, int s, const void *p)
{
    uintptr_t base = (uintptr_t)g->panel[ab][s], q = (uintptr_t)p;
    size_t bytes = elems(g, (gp_dist_buf)(GP_DIST_APANEL + ab)) * g->esize;
    return base && q >= base && q < base + bytes;
}

static int gpu_gemm(void *ctx, int slot, const void *a, int lda, const void *b,
                    int ldb, int kb, char *err, size_t errlen)
{
    gp_gpu_rank *g = ctx;
    int s = slot & 1;
    gemm_args args = {
        .m = g->loc.mloc, .n = g->loc.nloc, .k = kb, .alpha = 1.0, .beta = 1.0,
        .A = a, .B = b, .C = g->mat[GP_DIST_C],
        .lda = lda, .ldb = ldb, .ldc = g->loc.nloc,
    };
    if (more_events(g, err, errlen) < 0)
        return -1;
    int e = cudaEventRecord(g->ev[g->nev], g->compute);
    /* a panel packed here, and one received through a device-ordered
     * transport (a host transport's wait returned once it had landed) */
    if (e == cudaSuccess && in_panel(g, 0, s, a))
        e = cudaStreamWaitEvent(g->compute, g->packed[0][s], 0);
    if (e == cudaSuccess && in_panel(g, 1, s, b))
        e = cudaStreamWaitEvent(g->compute, g->packed[1][s], 0);
    for (int ab = 0; ab < 2 && e == cudaSuccess; ab++)
        if (g->has_landed[ab][s]) {
            e = cudaStreamWaitEvent(g->compute, g->landed[ab][s], 0);
            g->has_landed[ab][s] = 0;
        }
    if (e == cudaSuccess)
        e = cudaEventRecord(g->ev[g->nev + 1], g->compute);
    if (gp_gpu_fail(e, "ordering a gemm after its pack", err, errlen) < 0)
        return -1;
    e = g->kernel->launch(&args, g->compute, g->have_info ? NULL : &g->info);
    if (e != 0) {
        snprintf(err, errlen, "%s (%dx%dx%d local gemm): %s", g->kernel->name,
                 args.m, args.n, args.k, gp_cuda_msg(e));
        return -1;
    }
    g->have_info = 1;
    cudaEventRecord(g->ev[g->nev + 2], g->compute);
    g->nev += 3;
    note_width(g, kb);
    return gp_gpu_fail(cudaEventRecord(g->slot_free[s], g->compute),
                       "cudaEventRecord", err, errlen);
}

/* Wait for the gemms, moving the transport's broadcasts meanwhile. */
static int gpu_sync(void *ctx, char *err, size_t errlen)
{
    gp_gpu_rank *g = ctx;
    int e;
    if (!g->progress)
        e = cudaStreamSynchronize(g->compute);
    else
        while ((e = cudaStreamQuery(g->compute)) == cudaErrorNotReady)
            if (g->progress(g->progress_ctx, err, errlen) != 0)
                return -1;
    if (gp_gpu_fail(e, g->kernel->name, err, errlen) < 0)
        return -1;
    for (int i = 0; i < g->nev; i += 3) {
        float ms = 0;
        if (cudaEventElapsedTime(&ms, g->ev[i], g->ev[i + 1]) == cudaSuccess)
            g->panel_wait_ms += ms;
        if (cudaEventElapsedTime(&ms, g->ev[i + 1], g->ev[i + 2]) == cudaSuccess)
            g->gemm_ms += ms;
    }
    g->gemms += g->nev / 3;
    g->nev = 0;
    return 0;
}

double gp_gpu_gemm_ms(void *bctx)
{
    return ((const gp_gpu_rank *)bctx)->gemm_ms;
}

double gp_gpu_panel_wait_ms(void *bctx)
{
    return ((const gp_gpu_rank *)bctx)->panel_wait_ms;
}

static int gpu_counters(void *ctx, gp_row *r, char *err, size_t errlen)
{
    return gp_gpu_counters(ctx, r, err, errlen);
}

static const char *gpu_describe(void *ctx)
{
    return ((gp_gpu_rank *)ctx)->what;
}

const gp_dist_backend gp_dist_backend_gpu = {
    .name = "gpu",
    .device_memory = 1,
    .open = gpu_open,
    .buf = gpu_buf,
    .upload = gpu_upload,
    .download = gpu_download,
    .zero_c = gpu_zero_c,
    .pack = gpu_pack,
    .gemm = gpu_gemm,
    .sync = gpu_sync,
    .counters = gpu_counters,
    .describe = gpu_describe,
    .close = gpu_close,
};

gp_gpu_rank *gp_gpu_rank_of(const gp_dist_backend *be, void *bctx,
                            const char *transport, char *err, size_t errlen)
{
    if (be == &gp_dist_backend_gpu && bctx)
        return bctx;
    snprintf(err, errlen, "--comm %s moves GPU buffers; the local kernel runs "
             "on the CPU (use --comm mpi or auto)", transport);
    return NULL;
}
