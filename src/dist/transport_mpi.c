/* transport_mpi.c - panels in host memory broadcast with MPI_Ibcast,
 * and the choice of transport for --comm. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"

typedef struct {
    MPI_Comm comm[2];            /* indexed by gp_dist_dir           */
    MPI_Datatype type;
    MPI_Request req[2][2];       /* [dir][slot]                      */
} mpi_ctx;

static void mpi_message(int rc, const char *what, char *err, size_t errlen)
{
    char s[MPI_MAX_ERROR_STRING];
    int n = 0;
    MPI_Error_string(rc, s, &n);
    snprintf(err, errlen, "%s failed: %.*s", what, n, s);
}

static int mpi_open(void **ctx, const gp_dist_comms *comms,
                    const gp_dist_backend *be, void *bctx,
                    gp_precision precision, size_t max_count,
                    char *err, size_t errlen)
{
    (void)bctx;
    *ctx = NULL;
    if (be->device_memory) {
        snprintf(err, errlen, "--comm mpi broadcasts host buffers; the %s "
                 "backend keeps panels in device memory", be->name);
        return -1;
    }
    if (max_count > INT_MAX) {
        snprintf(err, errlen, "a panel of %zu elements is more than one MPI "
                 "broadcast can carry (%d); use a narrower --panel", max_count,
                 INT_MAX);
        return -1;
    }
    mpi_ctx *x = calloc(1, sizeof *x);
    if (!x) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    x->comm[GP_DIST_ROW] = comms->row;
    x->comm[GP_DIST_COL] = comms->col;
    x->type = precision == GP_FP64 ? MPI_DOUBLE : MPI_FLOAT;
    for (int d = 0; d < 2; d++)
        x->req[d][0] = x->req[d][1] = MPI_REQUEST_NULL;
    *ctx = x;
    return 0;
}

static int mpi_post(void *ctx, gp_dist_dir dir, int slot, void *buf,
                    size_t count, int root, char *err, size_t errlen)
{
    mpi_ctx *x = ctx;
    int rc = MPI_Ibcast(buf, (int)count, x->type, root, x->comm[dir],
                        &x->req[dir][slot & 1]);
    if (rc != MPI_SUCCESS) {
        mpi_message(rc, "MPI_Ibcast", err, errlen);
        return -1;
    }
    return 0;
}

static int mpi_wait(void *ctx, gp_dist_dir dir, int slot, char *err, size_t errlen)
{
    mpi_ctx *x = ctx;
    int rc = MPI_Wait(&x->req[dir][slot & 1], MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS) {
        mpi_message(rc, "MPI_Wait", err, errlen);
        return -1;
    }
    return 0;
}

static void mpi_close(void *ctx)
{
    free(ctx);
}

const gp_dist_transport gp_dist_transport_mpi = {
    .name = "mpi",
    .open = mpi_open,
    .post = mpi_post,
    .wait = mpi_wait,
    .close = mpi_close,
};

const gp_dist_transport *gp_dist_transport_find(const char *name,
                                                const gp_dist_backend *be,
                                                char *err, size_t errlen)
{
    if (be->device_memory)
        return gp_dist_gpu_transport_find(name, err, errlen);
    if (!strcmp(name, "auto") || !strcmp(name, "mpi"))
        return &gp_dist_transport_mpi;
    snprintf(err, errlen, "--comm %s moves GPU buffers; the local kernel runs "
             "on the CPU (use --comm mpi or auto)", name);
    return NULL;
}
