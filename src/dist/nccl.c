/* nccl.c - panels broadcast with NCCL (`--comm nccl`): one NCCL
 * communicator per process row and per process column, ncclBroadcast on a
 * high-priority stream of its own, so the broadcast of panel p+1 runs
 * beside the gemm of panel p (and gets SMs as soon as the gemm frees any).
 *
 * libnccl.so.2 is opened with dlopen ($GEMMPROF_NCCL first, a file or the
 * folder holding it, then the loader's search), as src/cupti/loader.c opens
 * CUPTI: gemmprof never links NCCL.  nccl.h, when the build finds it,
 * gives the types and prototypes; without it this transport is compiled
 * out and --comm nccl says so. */
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#if defined(__has_include) && !defined(GP_NO_NCCL)   /* -DGP_NO_NCCL: leave it out */
#if __has_include(<nccl.h>)
#include <nccl.h>
#define GP_HAVE_NCCL_H 1
#endif
#endif

#include "gpu.h"

#ifndef GP_HAVE_NCCL_H

int gp_dist_nccl_available(char *err, size_t errlen)
{
    snprintf(err, errlen, "this gemmprof was built without nccl.h (rebuild "
             "with NCCL's include folder on the include path, e.g. CPATH=DIR)");
    return 0;
}

static int no_nccl_open(void **ctx, const gp_dist_comms *comms,
                        const gp_dist_backend *be, void *bctx,
                        gp_precision precision, size_t max_count,
                        char *err, size_t errlen)
{
    (void)comms, (void)be, (void)bctx, (void)precision, (void)max_count;
    *ctx = NULL;
    gp_dist_nccl_available(err, errlen);
    return -1;
}

const gp_dist_transport gp_dist_transport_nccl = {
    .name = "nccl", .open = no_nccl_open,
};

#else

#define GP_NCCL_FUNCS(X) \
    X(ncclGetVersion)    \
    X(ncclGetUniqueId)   \
    X(ncclCommInitRank)  \
    X(ncclCommDestroy)   \
    X(ncclCommAbort)     \
    X(ncclCommGetAsyncError) \
    X(ncclGetErrorString) \
    X(ncclBroadcast)

#define GP_FNPTR(name) __typeof__(name) *name;
typedef struct {
    char path[1024];
    int version;
    GP_NCCL_FUNCS(GP_FNPTR)
} nccl_api;
#undef GP_FNPTR

static nccl_api nccl;
static int nccl_state;            /* 0 untried, 1 loaded, -1 failed */
static char nccl_why[1200];

static void *open_nccl(char *path, size_t len)
{
    const char *env = getenv("GEMMPROF_NCCL");
    struct stat st;
    if (env && *env) {
        if (stat(env, &st) == 0 && S_ISDIR(st.st_mode))
            snprintf(path, len, "%s/libnccl.so.2", env);
        else
            snprintf(path, len, "%s", env);
        void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        if (h)
            return h;
        snprintf(nccl_why, sizeof nccl_why, "GEMMPROF_NCCL=%s: %s", env, dlerror());
        return NULL;
    }
    snprintf(path, len, "libnccl.so.2");
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h)
        snprintf(nccl_why, sizeof nccl_why, "libnccl.so.2 not found (%s); set "
                 "GEMMPROF_NCCL=/path/to/libnccl.so.2 or use --comm staged", dlerror());
    return h;
}

static const nccl_api *nccl_load(void)
{
    if (nccl_state)
        return nccl_state > 0 ? &nccl : NULL;
    nccl_state = -1;
    void *h = open_nccl(nccl.path, sizeof nccl.path);
    if (!h)
        return NULL;
#define GP_RESOLVE(name)                                                     \
    if (!(*(void **)&nccl.name = dlsym(h, #name))) {                         \
        snprintf(nccl_why, sizeof nccl_why, "%s has no %s", nccl.path, #name); \
        return NULL;                                                         \
    }
    GP_NCCL_FUNCS(GP_RESOLVE)
#undef GP_RESOLVE
    if (nccl.ncclGetVersion(&nccl.version) != ncclSuccess || nccl.version < 20000) {
        snprintf(nccl_why, sizeof nccl_why, "%s: NCCL version %d, need 2.x or later",
                 nccl.path, nccl.version);
        return NULL;
    }
    nccl_state = 1;
    return &nccl;
}

int gp_dist_nccl_available(char *err, size_t errlen)
{
    if (nccl_load())
        return 1;
    snprintf(err, errlen, "%s", nccl_why);
    return 0;
}

typedef struct {
    const nccl_api *api;
    gp_gpu_rank *g;
    ncclComm_t comm[2];
    int size[2];
    ncclDataType_t type;
    cudaStream_t stream;
    cudaEvent_t done[2][2];       /* [dir][slot] */
    int posted[2][2];
    /* A timing pair around each broadcast since the last busy_ms(): the
     * GPU time of communication, hidden or not. */
    cudaEvent_t *tev;
    int ntev, tevcap;
} nccl_ctx;

static int nccl_fail(const nccl_api *api, ncclResult_t rc, const char *what,
                     char *err, size_t errlen)
{
    if (rc == ncclSuccess)
        return 0;
    snprintf(err, errlen, "%s: %s", what, api->ncclGetErrorString(rc));
    return -1;
}

static void nccl_close(void *ctx)
{
    nccl_ctx *x = ctx;
    if (!x)
        return;
    if (x->stream)
        cudaStreamSynchronize(x->stream);
    for (int d = 0; d < 2; d++) {
        ncclResult_t async = ncclSuccess;
        if (x->comm[d] && x->api->ncclCommGetAsyncError(x->comm[d], &async) == ncclSuccess &&
            async != ncclSuccess)
            x->api->ncclCommAbort(x->comm[d]);
        else if (x->comm[d])
            x->api->ncclCommDestroy(x->comm[d]);
        for (int s = 0; s < 2; s++)
            if (x->done[d][s])
                cudaEventDestroy(x->done[d][s]);
    }
    for (int i = 0; i < x->tevcap; i++)
        cudaEventDestroy(x->tev[i]);
    free(x->tev);
    if (x->stream)
        cudaStreamDestroy(x->stream);
    free(x);
}

/* Room for one more timing pair (events are kept and reused). */
static int more_timing(nccl_ctx *x, char *err, size_t errlen)
{
    if (x->ntev + 2 <= x->tevcap)
        return 0;
    int cap = x->tevcap ? 2 * x->tevcap : 16;
    cudaEvent_t *ev = realloc(x->tev, (size_t)cap * sizeof *ev);
    if (!ev) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    x->tev = ev;
    for (; x->tevcap < cap; x->tevcap++)
        if (gp_gpu_fail(cudaEventCreate(&x->tev[x->tevcap]), "cudaEventCreate",
                        err, errlen) < 0)
            return -1;
    return 0;
}

/* One communicator over `mpi`: its rank 0 makes the id and broadcasts it
 * with its verdict; every step's outcome is agreed on over the world, so
 * no rank is left waiting in a later init for one that gave up. */
static int comm_init(nccl_ctx *x, MPI_Comm mpi, MPI_Comm world, int d,
                     char *err, size_t errlen)
{
    struct { int ok; ncclUniqueId id; } msg;
    const char *what = d == GP_DIST_ROW ? "row" : "column";
    int me, n, all = 0;
    MPI_Comm_rank(mpi, &me);
    MPI_Comm_size(mpi, &n);
    x->size[d] = n;
    memset(&msg, 0, sizeof msg);
    if (me == 0)
        msg.ok = x->api->ncclGetUniqueId(&msg.id) == ncclSuccess;
    MPI_Bcast(&msg, (int)sizeof msg, MPI_BYTE, 0, mpi);
    int ok = msg.ok;
    if (!ok)
        snprintf(err, errlen, "ncclGetUniqueId failed on the first rank of a "
                 "process %s", what);
    if (ok) {
        ncclResult_t rc = x->api->ncclCommInitRank(&x->comm[d], n, msg.id, me);
        ok = nccl_fail(x->api, rc, "ncclCommInitRank", err, errlen) == 0;
    }
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, world);
    if (ok && !all)
        snprintf(err, errlen, "ncclCommInitRank failed on another rank (process %s)",
                 what);
    return all ? 0 : -1;
}

/* Checks every rank can make alone, agreed on before the first collective
 * NCCL call (which would wait for a rank that gave up). */
static int local_checks(nccl_ctx *x, const gp_dist_comms *comms, char *err, size_t errlen)
{
    int ok = 1, all = 0;
    if (x->g->loc.local_size > x->g->ndev) {
        snprintf(err, errlen, "--comm nccl needs a GPU per rank: %d ranks on this "
                 "host, %d GPUs (use --comm staged)", x->g->loc.local_size, x->g->ndev);
        ok = 0;
    }
    int least = 0, hi = 0;
    cudaDeviceGetStreamPriorityRange(&least, &hi);
    int e = ok ? cudaStreamCreateWithPriority(&x->stream, cudaStreamNonBlocking, hi)
               : cudaSuccess;
    for (int d = 0; d < 2 && ok && e == cudaSuccess; d++)
        for (int s = 0; s < 2 && e == cudaSuccess; s++)
            e = cudaEventCreateWithFlags(&x->done[d][s], cudaEventDisableTiming);
    if (ok && gp_gpu_fail(e, "NCCL stream", err, errlen) < 0)
        ok = 0;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, comms->world);
    if (ok && !all)
        snprintf(err, errlen, "--comm nccl could not be set up on another rank");
    return all ? 0 : -1;
}

static int nccl_open(void **ctx, const gp_dist_comms *comms, const gp_dist_backend *be,
                     void *bctx, gp_precision precision, size_t max_count,
                     char *err, size_t errlen)
{
    (void)max_count;
    *ctx = NULL;
    gp_gpu_rank *g = gp_gpu_rank_of(be, bctx, "nccl", err, errlen);
    const nccl_api *api = nccl_load();
    if (!g || !api) {
        if (g)
            snprintf(err, errlen, "--comm nccl: %s", nccl_why);
        return -1;
    }
    nccl_ctx *x = calloc(1, sizeof *x);
    if (!x) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    *ctx = x;
    x->api = api;
    x->g = g;
    x->type = precision == GP_FP64 ? ncclFloat64 : ncclFloat32;
    if (local_checks(x, comms, err, errlen) < 0)
        return -1;
    /* Every rank: its row first, then its column, so no init waits on a
     * rank that is still in the other one. */
    if (comm_init(x, comms->row, comms->world, GP_DIST_ROW, err, errlen) < 0 ||
        comm_init(x, comms->col, comms->world, GP_DIST_COL, err, errlen) < 0)
        return -1;
    return 0;
}

/* The broadcast waits (on the GPU) for the gemm that last read the slot
 * and, on the root, for the pack of the slot (the copy stream's event;
 * harmless elsewhere, and where buf is local B read in place). */
static int nccl_post(void *ctx, gp_dist_dir dir, int slot, void *buf, size_t count,
                     int root, char *err, size_t errlen)
{
    nccl_ctx *x = ctx;
    int s = slot & 1;
    x->posted[dir][s] = 1;
    if (x->size[dir] < 2)
        return 0;
    int e = cudaStreamWaitEvent(x->stream, x->g->slot_free[s], 0);
    if (e == cudaSuccess)
        e = cudaStreamWaitEvent(x->stream, x->g->packed[dir][s], 0);
    if (gp_gpu_fail(e, "cudaStreamWaitEvent", err, errlen) < 0 ||
        more_timing(x, err, errlen) < 0)
        return -1;
    cudaEventRecord(x->tev[x->ntev], x->stream);
    ncclResult_t rc = x->api->ncclBroadcast(buf, buf, count, x->type, root,
                                            x->comm[dir], x->stream);
    if (nccl_fail(x->api, rc, "ncclBroadcast", err, errlen) < 0)
        return -1;
    cudaEventRecord(x->tev[x->ntev + 1], x->stream);
    x->ntev += 2;
    return gp_gpu_fail(cudaEventRecord(x->done[dir][s], x->stream),
                       "cudaEventRecord", err, errlen);
}

/* Device-ordered: the next gemm of the slot waits for the broadcast on
 * the GPU (gpu.c), so the host goes on issuing the next panels and
 * the time the gemm stream stands waiting is the exposed communication
 * (gp_gpu_panel_wait_ms).  An error NCCL already knows of is reported
 * here; one that happens later surfaces at the multiply's sync. */
static int nccl_wait(void *ctx, gp_dist_dir dir, int slot, char *err, size_t errlen)
{
    nccl_ctx *x = ctx;
    int s = slot & 1;
    if (!x->posted[dir][s]) {
        snprintf(err, errlen, "wait on panel slot %d that was not posted", s);
        return -1;
    }
    x->posted[dir][s] = 0;
    if (x->size[dir] < 2)
        return 0;
    x->g->landed[dir][s] = x->done[dir][s];
    x->g->has_landed[dir][s] = 1;
    ncclResult_t async = ncclSuccess;
    x->api->ncclCommGetAsyncError(x->comm[dir], &async);
    return nccl_fail(x->api, async, "ncclBroadcast", err, errlen);
}

/* The broadcasts' own GPU time since the last call. */
static double nccl_busy_ms(void *ctx)
{
    nccl_ctx *x = ctx;
    double sum = 0;
    if (cudaStreamSynchronize(x->stream) != cudaSuccess)
        return NAN;
    for (int i = 0; i + 1 < x->ntev; i += 2) {
        float ms = 0;
        if (cudaEventElapsedTime(&ms, x->tev[i], x->tev[i + 1]) != cudaSuccess)
            return NAN;
        sum += ms;
    }
    x->ntev = 0;
    return sum;
}

const gp_dist_transport gp_dist_transport_nccl = {
    .name = "nccl",
    .open = nccl_open,
    .post = nccl_post,
    .wait = nccl_wait,
    .close = nccl_close,
    .device_ordered = 1,
    .busy_ms = nccl_busy_ms,
};

#endif
