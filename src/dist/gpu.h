/* gpu.h - the GPU backend's state, shared by the device-buffer
 * transports (gpu_transport.c, nccl.c): which device, the
 * streams, and the events that keep a panel slot from being overwritten
 * while a gemm still reads it.  Private to src/dist/gpu*.c and
 * nccl.c.
 *
 * Streams: `compute` runs the gemms and zeroing; `copy` runs uploads,
 * downloads and the packing of panels, so that the pack of panel p+1 runs
 * beside the gemm of panel p.  Transports bring their own streams and
 * order themselves against `slot_free` (a receiver must not overwrite a
 * slot a gemm still reads) and, on the root, `packed` (the panel they
 * send must be packed).  While sync() waits for a gemm it calls the
 * transport's progress function, so host-staged and MPI broadcasts move
 * while the GPU multiplies (MPI only progresses inside MPI calls). */
#ifndef GP_DIST_GPU_H
#define GP_DIST_GPU_H

#include <stddef.h>
#include <cuda_runtime_api.h>
#include "backend.h"

/* Advance the transport's broadcasts without blocking.  0, or -1 + err. */
typedef int (*gp_gpu_progress_fn)(void *tctx, char *err, size_t errlen);

typedef struct {
    gp_dist_local loc;
    size_t esize;
    const gp_kernel *kernel;
    int device, ndev;
    cudaStream_t compute, copy;
    void *mat[3];                 /* GP_DIST_A, _B, _C                       */
    void *panel[2][2];            /* [0 A, 1 B][slot]                        */
    cudaEvent_t slot_free[2];     /* after the last gemm that read the slot  */
    /* [0 A, 1 B][slot]: after the last pack into the panel buffer (on
     * `copy`); never recorded is fine, CUDA then treats it as done. */
    cudaEvent_t packed[2][2];
    /* [0 A, 1 B][slot]: set by a device-ordered transport's wait (the
     * broadcast into the slot is done when it fires), consumed by the next
     * gemm of the slot, which waits for it on the GPU. */
    cudaEvent_t landed[2][2];
    int has_landed[2][2];

    /* Three events per gemm not yet synchronised: before its wait for its
     * panel (a pack here, or a broadcast from a device-ordered transport),
     * before and after the launch.  Their GPU times add up in gemm_ms and
     * panel_wait_ms, which a C upload (a new repetition) resets. */
    cudaEvent_t *ev;
    int nev, evcap;
    double gemm_ms;
    double panel_wait_ms;
    long gemms;
    /* Widths of this repetition's gemms (for the counters). */
    int *widths;
    long nwidths, widthcap;
    gp_launch_info info;
    int have_info;

    /* Pinned staging for uploads and downloads (pageable host arrays
     * would cap the copies at pageable bandwidth). */
    void *stage[2];
    cudaEvent_t stage_done[2];
    size_t stage_bytes;

    gp_gpu_progress_fn progress;  /* set by a transport while it is open */
    void *progress_ctx;
    char what[512];
} gp_gpu_rank;

/* GPU time (cudaEvents around each launch) of the local gemms since the
 * last upload of C, i.e. of the current repetition: the compute time
 * without launch and synchronisation overhead.  For the core, which
 * times gemm + sync on the host. */
double gp_gpu_gemm_ms(void *bctx);
/* GPU time the same gemms spent waiting for their panel (a pack not yet
 * done, or with a device-ordered transport a broadcast not yet landed):
 * communication on the critical path, the exposed part of comm.  The
 * compute stream runs nothing else, so this is the time it stood idle
 * between gemms for want of a panel. */
double gp_gpu_panel_wait_ms(void *bctx);

/* "what: CUDA message" into err; returns -1 (0 if e is cudaSuccess). */
int gp_gpu_fail(int e, const char *what, char *err, size_t errlen);

/* The rank state behind the GPU backend's ctx, or NULL (with err) when
 * `be` is another backend: the transports' one entry into it. */
gp_gpu_rank *gp_gpu_rank_of(const gp_dist_backend *be, void *bctx,
                            const char *transport, char *err, size_t errlen);

/* Pinned, chunked, double-buffered copies between a host array and device
 * memory on g->copy.  Complete on return.  0, or -1 + err. */
int gp_gpu_stage_up(gp_gpu_rank *g, void *dev, const void *host, size_t bytes,
                    char *err, size_t errlen);
int gp_gpu_stage_down(gp_gpu_rank *g, void *host, const void *dev, size_t bytes,
                      char *err, size_t errlen);
int gp_gpu_stage_open(gp_gpu_rank *g, char *err, size_t errlen);
void gp_gpu_stage_close(gp_gpu_rank *g);

/* Counters of this repetition's local gemms (gpu_counters.c).
 * 0, or -1 + err (the row keeps NA). */
int gp_gpu_counters(gp_gpu_rank *g, gp_row *r, char *err, size_t errlen);

/* Device-buffer transports. */
extern const gp_dist_transport gp_dist_transport_staged;
extern const gp_dist_transport gp_dist_transport_cuda_aware;
extern const gp_dist_transport gp_dist_transport_nccl;
/* 1 if this Open MPI moves device buffers itself (build and run time). */
int gp_dist_mpi_cuda_aware(void);
/* 1 if libnccl.so.2 could be loaded; else 0 with the reason in err. */
int gp_dist_nccl_available(char *err, size_t errlen);

#endif
