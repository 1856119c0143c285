/* gpu_transport.c - panels in device memory, broadcast by MPI: either
 * through pinned host buffers (`staged`: D2H on the root, MPI_Ibcast, H2D
 * on the others) or, where Open MPI is CUDA-aware, on the device pointers
 * themselves (`cuda-aware`).  And the choice for --comm.
 *
 * Per (direction, slot), a small state machine advanced by progress()
 * (called while the GPU multiplies the previous panel, see gpu.h)
 * and finished by wait():
 *   root:   gated (staged: D2H queued after the pack; cuda-aware: the
 *           pack itself) -> gate done, Ibcast started -> sent
 *   others: Ibcast queued -> started -> received, H2D queued -> landed
 * MPI demands the same order of collectives on a communicator on every
 * rank, so each direction starts its Ibcasts strictly in post order. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu.h"             /* mpi.h first: mpi-ext.h needs it */
#if defined(__has_include)
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif
#endif

typedef enum { OP_IDLE, OP_GATED, OP_QUEUED, OP_MPI, OP_H2D, OP_DONE } op_state;

typedef struct {
    op_state st;
    int root_me;
    long seq;                    /* post order within the direction      */
    void *dev;                   /* root: where the panel is; else its slot */
    size_t count;
    int root;
    void *host;                  /* pinned, max_count elements           */
    MPI_Request req;
    cudaEvent_t ev;              /* D2H done (root) or H2D done (others) */
    cudaEvent_t gate;            /* OP_GATED: the Ibcast waits for it    */
} staged_op;

typedef struct {
    gp_gpu_rank *g;
    int cuda_aware;              /* 1: MPI on device pointers, no staging */
    MPI_Comm comm[2];
    int size[2];
    MPI_Datatype type;
    cudaStream_t d2h, h2d;
    staged_op op[2][2];          /* [dir][slot]                          */
    long posted[2], started[2];  /* per direction                        */
} mpi_dev_ctx;

static int mpi_fail(int rc, const char *what, char *err, size_t errlen)
{
    char s[MPI_MAX_ERROR_STRING];
    int n = 0;
    MPI_Error_string(rc, s, &n);
    snprintf(err, errlen, "%s failed: %.*s", what, n, s);
    return -1;
}

int gp_dist_mpi_cuda_aware(void)
{
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
    return MPIX_Query_cuda_support() == 1;
#else
    return 0;
#endif
}

static void dev_close(void *ctx)
{
    mpi_dev_ctx *x = ctx;
    if (!x)
        return;
    for (int d = 0; d < 2; d++)
        for (int s = 0; s < 2; s++) {
            staged_op *o = &x->op[d][s];
            if (o->req != MPI_REQUEST_NULL)
                MPI_Wait(&o->req, MPI_STATUS_IGNORE);
            if (o->host)
                cudaFreeHost(o->host);
            if (o->ev)
                cudaEventDestroy(o->ev);
        }
    if (x->d2h)
        cudaStreamDestroy(x->d2h);
    if (x->h2d)
        cudaStreamDestroy(x->h2d);
    if (x->g && x->g->progress_ctx == x)
        x->g->progress = NULL, x->g->progress_ctx = NULL;
    free(x);
}

static int progress(void *ctx, char *err, size_t errlen);

static int dev_open(void **ctx, const gp_dist_comms *comms, const gp_dist_backend *be,
                    void *bctx, gp_precision precision, size_t max_count,
                    int cuda_aware, const char *name, char *err, size_t errlen)
{
    *ctx = NULL;
    gp_gpu_rank *g = gp_gpu_rank_of(be, bctx, name, err, errlen);
    if (!g)
        return -1;
    if (max_count > INT_MAX) {
        snprintf(err, errlen, "a panel of %zu elements is more than one MPI "
                 "broadcast can carry (%d); use a narrower --panel", max_count, INT_MAX);
        return -1;
    }
    mpi_dev_ctx *x = calloc(1, sizeof *x);
    if (!x) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    *ctx = x;
    x->g = g;
    x->cuda_aware = cuda_aware;
    x->comm[GP_DIST_ROW] = comms->row;
    x->comm[GP_DIST_COL] = comms->col;
    MPI_Comm_size(comms->row, &x->size[GP_DIST_ROW]);
    MPI_Comm_size(comms->col, &x->size[GP_DIST_COL]);
    x->type = precision == GP_FP64 ? MPI_DOUBLE : MPI_FLOAT;
    int e = cudaSuccess;
    if (!cuda_aware) {
        e = cudaStreamCreateWithFlags(&x->d2h, cudaStreamNonBlocking);
        if (e == cudaSuccess)
            e = cudaStreamCreateWithFlags(&x->h2d, cudaStreamNonBlocking);
    }
    for (int d = 0; d < 2; d++)
        for (int s = 0; s < 2; s++) {
            staged_op *o = &x->op[d][s];
            o->req = MPI_REQUEST_NULL;
            if (cuda_aware || x->size[d] < 2 || e != cudaSuccess)
                continue;
            e = cudaHostAlloc(&o->host, (max_count ? max_count : 1) * g->esize,
                              cudaHostAllocDefault);
            if (e == cudaSuccess)
                e = cudaEventCreateWithFlags(&o->ev, cudaEventDisableTiming);
        }
    if (gp_gpu_fail(e, "staging buffers for the panels", err, errlen) < 0)
        return -1;
    g->progress = progress;
    g->progress_ctx = x;
    return 0;
}

static int staged_open(void **ctx, const gp_dist_comms *comms, const gp_dist_backend *be,
                       void *bctx, gp_precision precision, size_t max_count,
                       char *err, size_t errlen)
{
    return dev_open(ctx, comms, be, bctx, precision, max_count, 0, "staged",
                    err, errlen);
}

static int cuda_aware_open(void **ctx, const gp_dist_comms *comms,
                           const gp_dist_backend *be, void *bctx,
                           gp_precision precision, size_t max_count,
                           char *err, size_t errlen)
{
    return dev_open(ctx, comms, be, bctx, precision, max_count, 1, "cuda-aware",
                    err, errlen);
}

/* Start the direction's next Ibcast if it is its turn and its data is
 * ready.  1 started, 0 not yet, -1 error. */
static int start_next(mpi_dev_ctx *x, int d, char *err, size_t errlen)
{
    for (int s = 0; s < 2; s++) {
        staged_op *o = &x->op[d][s];
        if (o->seq != x->started[d] || (o->st != OP_GATED && o->st != OP_QUEUED))
            continue;
        if (o->st == OP_GATED) {
            int e = cudaEventQuery(o->gate);
            if (e == cudaErrorNotReady)
                return 0;
            if (gp_gpu_fail(e, "packing or copying a panel to the host", err,
                            errlen) < 0)
                return -1;
        }
        void *buf = x->cuda_aware ? o->dev : o->host;
        int rc = MPI_Ibcast(buf, (int)o->count, x->type, o->root, x->comm[d], &o->req);
        if (rc != MPI_SUCCESS)
            return mpi_fail(rc, "MPI_Ibcast", err, errlen);
        o->st = OP_MPI;
        x->started[d]++;
        return 1;
    }
    return 0;
}

/* A received panel goes up on the H2D stream once the gemm that read the
 * slot last is done. */
static int finish_mpi(mpi_dev_ctx *x, staged_op *o, int slot, char *err, size_t errlen)
{
    if (o->root_me || x->cuda_aware) {
        o->st = OP_DONE;
        return 0;
    }
    int e = cudaStreamWaitEvent(x->h2d, x->g->slot_free[slot], 0);
    if (e == cudaSuccess)
        e = cudaMemcpyAsync(o->dev, o->host, o->count * x->g->esize,
                            cudaMemcpyHostToDevice, x->h2d);
    if (e == cudaSuccess)
        e = cudaEventRecord(o->ev, x->h2d);
    o->st = OP_H2D;
    return gp_gpu_fail(e, "copying a panel to the device", err, errlen);
}

static int step(mpi_dev_ctx *x, int d, int s, char *err, size_t errlen)
{
    staged_op *o = &x->op[d][s];
    if (o->st == OP_MPI) {
        int done = 0;
        int rc = MPI_Test(&o->req, &done, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS)
            return mpi_fail(rc, "MPI_Test", err, errlen);
        if (done)
            return finish_mpi(x, o, s, err, errlen);
    } else if (o->st == OP_H2D) {
        int e = cudaEventQuery(o->ev);
        if (e == cudaSuccess)
            o->st = OP_DONE;
        else if (e != cudaErrorNotReady)
            return gp_gpu_fail(e, "copying a panel to the device", err, errlen);
    }
    return 0;
}

static int progress(void *ctx, char *err, size_t errlen)
{
    mpi_dev_ctx *x = ctx;
    for (int d = 0; d < 2; d++) {
        int rc;
        while ((rc = start_next(x, d, err, errlen)) == 1)
            ;
        if (rc < 0)
            return -1;
        for (int s = 0; s < 2; s++)
            if (step(x, d, s, err, errlen) < 0)
                return -1;
    }
    return 0;
}

static int dev_post(void *ctx, gp_dist_dir dir, int slot, void *buf, size_t count,
                    int root, char *err, size_t errlen)
{
    mpi_dev_ctx *x = ctx;
    staged_op *o = &x->op[dir][slot & 1];
    if (o->st != OP_IDLE) {
        snprintf(err, errlen, "panel slot %d posted again before its wait", slot & 1);
        return -1;
    }
    int me = -1;
    MPI_Comm_rank(x->comm[dir], &me);
    if (x->size[dir] < 2) {             /* alone in the communicator */
        o->st = OP_DONE;
        return 0;
    }
    o->dev = buf;
    o->count = count;
    o->root = root;
    o->root_me = me == root;
    o->seq = x->posted[dir]++;
    o->st = OP_QUEUED;
    cudaEvent_t packed = x->g->packed[dir][slot & 1];
    if (!x->cuda_aware && o->root_me) {
        int e = cudaStreamWaitEvent(x->d2h, packed, 0);
        if (e == cudaSuccess)
            e = cudaMemcpyAsync(o->host, buf, count * x->g->esize,
                                cudaMemcpyDeviceToHost, x->d2h);
        if (e == cudaSuccess)
            e = cudaEventRecord(o->ev, x->d2h);
        if (gp_gpu_fail(e, "copying a panel to the host", err, errlen) < 0)
            return -1;
        o->gate = o->ev;
        o->st = OP_GATED;
    } else if (x->cuda_aware && o->root_me) {
        o->gate = packed;               /* MPI reads it once it is packed */
        o->st = OP_GATED;
    } else if (x->cuda_aware) {
        /* MPI writes the slot from the host side: its last gemm must be done. */
        if (gp_gpu_fail(cudaEventSynchronize(x->g->slot_free[slot & 1]),
                        "local gemm", err, errlen) < 0)
            return -1;
    }
    return progress(x, err, errlen);
}

static int dev_wait(void *ctx, gp_dist_dir dir, int slot, char *err, size_t errlen)
{
    mpi_dev_ctx *x = ctx;
    staged_op *o = &x->op[dir][slot & 1];
    if (o->st == OP_IDLE) {
        snprintf(err, errlen, "wait on panel slot %d that was not posted", slot & 1);
        return -1;
    }
    while (o->st != OP_DONE)
        if (progress(x, err, errlen) < 0)
            return -1;
    o->st = OP_IDLE;
    return 0;
}

const gp_dist_transport gp_dist_transport_staged = {
    .name = "staged",
    .open = staged_open,
    .post = dev_post,
    .wait = dev_wait,
    .close = dev_close,
};

const gp_dist_transport gp_dist_transport_cuda_aware = {
    .name = "cuda-aware",
    .open = cuda_aware_open,
    .post = dev_post,
    .wait = dev_wait,
    .close = dev_close,
};

const gp_dist_transport *gp_dist_gpu_transport_find(const char *name,
                                                     char *err, size_t errlen)
{
    char why[512] = "";
    if (!strcmp(name, "auto")) {
        if (gp_dist_nccl_available(why, sizeof why))
            return &gp_dist_transport_nccl;
        return gp_dist_mpi_cuda_aware() ? &gp_dist_transport_cuda_aware
                                        : &gp_dist_transport_staged;
    }
    if (!strcmp(name, "staged"))
        return &gp_dist_transport_staged;
    if (!strcmp(name, "cuda-aware")) {
        if (gp_dist_mpi_cuda_aware())
            return &gp_dist_transport_cuda_aware;
        snprintf(err, errlen, "--comm cuda-aware: this MPI cannot broadcast device "
                 "buffers (MPIX_Query_cuda_support() says no); use --comm staged or nccl");
        return NULL;
    }
    if (!strcmp(name, "nccl")) {
        if (gp_dist_nccl_available(why, sizeof why))
            return &gp_dist_transport_nccl;
        snprintf(err, errlen, "--comm nccl: %s", why);
        return NULL;
    }
    if (!strcmp(name, "mpi")) {
        snprintf(err, errlen, "--comm mpi broadcasts host buffers; a GPU local "
                 "kernel keeps its panels on the device: use --comm staged, "
                 "cuda-aware, nccl or auto");
        return NULL;
    }
    snprintf(err, errlen, "--comm %s: unknown (auto, staged, cuda-aware, nccl)", name);
    return NULL;
}
