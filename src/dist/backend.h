/* backend.h - `gemmprof dist`: C = A * B over MPI with SUMMA on a ScaLAPACK
 * block-cyclic layout.  Compiled only with MPI (make MPI=1).  Two plug
 * points, so the GPU side (gpu.c) slots in beside the CPU side:
 *
 *  - a LOCAL BACKEND owns the rank's local matrices and panel buffers in its
 *    own memory (host for CPU kernels, device for GPU kernels) and runs the
 *    local update C += Apanel * Bpanel;
 *  - a PANEL TRANSPORT broadcasts a panel (backend memory) from a root
 *    along a process row or column, split into post and wait so that the
 *    next panel travels while the current one is multiplied.
 *
 * Layout (all matrices row-major, as everywhere in gemmprof):
 *   A is M x K in Br x Bk blocks, B is K x N in Bk x Bc blocks, C is M x N in
 *   Br x Bc blocks, dealt cyclically over a Pr x Pc grid: block (I,J) of C
 *   lives on process (I mod Pr, J mod Pc).  Bk is the one K block size (the
 *   rule: A's column block == B's row block), --kblock, default Bc.  A rank's
 *   local matrix is its blocks packed in block order (ScaLAPACK numroc
 *   sizes): local A is mloc x kloc_a, local B is kloc_b x nloc, local C is
 *   mloc x nloc, each row-major with leading dimension = its column count.
 *
 * SUMMA order: K-block t is a column of A blocks owned by process column
 * t mod Pc and a row of B blocks owned by process row t mod Pr.  A panel
 * groups K-blocks with the same owner pair (same t mod lcm(Pr,Pc)), so each
 * panel is ONE broadcast along each row (A) and each column (B); the sum over
 * k does not care in which order the K-blocks come.  A panel of width W is
 * mloc x W for A and W x nloc for B.  Broadcast, it is contiguous: leading
 * dimension W resp. nloc, count = mloc*W resp. W*nloc elements.
 *
 * Packing stays off the critical path: where the owner's K-blocks of a
 * panel sit side by side in its local matrix (gp_dist_panel_local_start),
 * the owner's gemm reads them in place (A: leading dimension kloc_a; B:
 * nloc) and a B panel is broadcast straight from local B (its rows are
 * contiguous).  An A panel is packed only to be broadcast (one strided
 * copy, none when the process row has one rank); a panel whose blocks are
 * scattered locally is packed block by block.  Packs may be asynchronous
 * (the GPU backend runs them on a copy stream) and are issued one step
 * ahead, beside the previous panel's gemm.
 */
#ifndef GP_DIST_BACKEND_H
#define GP_DIST_BACKEND_H

#include <stddef.h>
#include <mpi.h>
#include "gemmprof.h"
#include "data/data.h"

/* What a backend allocates, for one rank.  Any size may be 0 (a rank with no
 * blocks still takes part in every broadcast and barrier). */
typedef struct {
    gp_precision precision;  /* GP_FP32 or GP_FP64 (TF32: float storage)    */
    long m, n, k;            /* global shape (for messages, kernels' facts)  */
    int mloc, nloc;          /* local C: mloc x nloc                         */
    int kloc_a, kloc_b;      /* local A: mloc x kloc_a; local B: kloc_b x nloc */
    int panel_max;           /* widest panel W (A panel mloc x W, B W x nloc) */
    int rank, nranks;        /* in MPI_COMM_WORLD                            */
    int local_rank;          /* rank among the processes of this host: GPU   */
    int local_size;          /*   backends use device local_rank % devices   */
} gp_dist_local;

/* Buffers a backend holds.  Panels are double-buffered: slot 0 and 1. */
typedef enum {
    GP_DIST_A = 0,       /* local A, mloc x kloc_a                           */
    GP_DIST_B = 1,       /* local B, kloc_b x nloc                           */
    GP_DIST_C = 2,       /* local C, mloc x nloc                             */
    GP_DIST_APANEL = 3,  /* mloc x panel_max elements per slot               */
    GP_DIST_BPANEL = 4   /* panel_max x nloc elements per slot               */
} gp_dist_buf;

typedef struct gp_dist_backend gp_dist_backend;
struct gp_dist_backend {
    const char *name;        /* "cpu", "gpu"                                 */
    /* 0: buffers are host memory; the core fills A, B and C in place and
     *    reads C back directly (no upload/download; transfer time 0).
     * 1: buffers are device memory; the core generates the local blocks on
     *    the host and calls upload/download, timing them as transfer time. */
    int device_memory;

    /* Allocate everything for `loc` (2 slots of each panel) and prepare the
     * local kernel `kernel` (a CPU name, or any registered kernel for the GPU
     * backend).  *ctx receives the backend's state.  0, or -1 with a
     * one-line message in err; close(*ctx) follows either way when *ctx
     * is not NULL. */
    int (*open)(void **ctx, const char *kernel, const gp_dist_local *loc,
                char *err, size_t errlen);
    /* Base address of a buffer (slot ignored for A, B, C).  NULL only when
     * that buffer has 0 elements.  The core does byte arithmetic on it
     * (elements * gp_precision_bytes), never dereferences a device one. */
    void *(*buf)(void *ctx, gp_dist_buf which, int slot);
    /* device_memory == 1 only: copy a whole local A, B or C between the host
     * array and backend memory.  Complete on return.  0, or -1 + err. */
    int (*upload)(void *ctx, gp_dist_buf which, const void *host,
                  char *err, size_t errlen);
    int (*download)(void *ctx, gp_dist_buf which, void *host,
                    char *err, size_t errlen);
    /* Zero local C before each repetition (device_memory == 0 only: a
     * device backend gets a zero C uploaded instead, timed as transfer). */
    int (*zero_c)(void *ctx, char *err, size_t errlen);
    /* Packing (part of) panel `slot` of `which` (GP_DIST_APANEL or
     * _BPANEL): copy a rows x cols sub-matrix of backend memory to dst,
     * inside that panel buffer, pitches in elements.  May be asynchronous:
     * the backend orders it after the last gemm of that slot, and before
     * any later gemm and any transport post of that slot (a device backend
     * with an event its transports wait on; the CPU one copies at once). */
    int (*pack)(void *ctx, gp_dist_buf which, int slot, void *dst,
                size_t dpitch, const void *src, size_t spitch, size_t rows,
                size_t cols, char *err, size_t errlen);
    /* C += A (mloc x kb, leading dimension lda) * B (kb x nloc, leading
     * dimension ldb), A and B anywhere in backend memory: panel `slot` or
     * the rank's own local A/B read in place.  `slot` is the panel slot
     * the gemm belongs to (it frees that slot for the next post).  May be
     * asynchronous; `sync` waits for it.  The core calls it only with
     * mloc, nloc, kb all >= 1, and times gemm + sync as compute. */
    int (*gemm)(void *ctx, int slot, const void *a, int lda, const void *b,
                int ldb, int kb, char *err, size_t errlen);
    int (*sync)(void *ctx, char *err, size_t errlen);
    /* Optional (NULL): fill r->metric[] (CUPTI counters of the local
     * gemms, summed over this rank's last repetition) and r->config
     * (what was launched).  0, or -1 + err (the row then keeps NA). */
    int (*counters)(void *ctx, gp_row *r, char *err, size_t errlen);
    /* A line for the metadata ("openblas via libopenblas.so.0", "cuda
     * device 0: NVIDIA H100 ..."), or NULL. */
    const char *(*describe)(void *ctx);
    void (*close)(void *ctx);
};

/* The backend for a --local name: cpu_naive, cpu_blocked, cpu_blas (CPU,
 * cpu.c; "cpu_" because the registry has its own GPU "naive"),
 * or any name the kernel registry knows (cublas included): the GPU backend.
 * NULL if the name is neither. */
const gp_dist_backend *gp_dist_backend_find(const char *local_name);
/* CPU local kernels, for --help and messages. */
extern const char *const gp_dist_cpu_names;

/* Defined by gpu.c: runs registered kernels on this rank's GPU. */
extern const gp_dist_backend gp_dist_backend_gpu;

/* The communicators a transport broadcasts along. */
typedef enum {
    GP_DIST_ROW = 0,     /* along a process row: A panels, root = column    */
    GP_DIST_COL = 1      /* along a process column: B panels, root = row    */
} gp_dist_dir;

typedef struct {
    MPI_Comm world;
    MPI_Comm row;        /* my process row; rank in it = my process column   */
    MPI_Comm col;        /* my process column; rank in it = my process row   */
    int pr, pc;          /* grid                                             */
    int myrow, mycol;
} gp_dist_comms;

typedef struct gp_dist_transport gp_dist_transport;
struct gp_dist_transport {
    const char *name;        /* "mpi", "staged", "cuda-aware", "nccl"        */
    /* Set up for panels of at most max_count elements of `precision` in
     * buffers of backend `be` (state `bctx`).  0, or -1 + err; close(*ctx)
     * follows either way when *ctx is not NULL.  Called on every rank
     * (collective set-up such as NCCL's is fine): a rank whose open failed
     * does not go on to post. */
    int (*open)(void **ctx, const gp_dist_comms *comms,
                const gp_dist_backend *be, void *bctx,
                gp_precision precision, size_t max_count,
                char *err, size_t errlen);
    /* Start broadcasting `count` contiguous elements at `buf` (backend
     * memory) from `root` (rank in the dir communicator) to every other
     * rank of it, landing in their `buf`.  On the root buf is where the
     * panel is: panel slot `slot` (packed, perhaps still being packed: a
     * device transport waits for the backend's pack of (dir, slot)) or a
     * part of local B; elsewhere it is the panel slot.  Every rank of the
     * communicator calls it with the same count and root.  One broadcast
     * in flight per (dir, slot).  The core does not post along a
     * communicator of one rank. */
    int (*post)(void *ctx, gp_dist_dir dir, int slot, void *buf,
                size_t count, int root, char *err, size_t errlen);
    /* Wait until the (dir, slot) broadcast has landed in buf; with
     * device_ordered, only order the backend's next gemm of that slot
     * after it, on the GPU, without blocking the host. */
    int (*wait)(void *ctx, gp_dist_dir dir, int slot, char *err, size_t errlen);
    void (*close)(void *ctx);
    /* 1: wait() orders on the GPU (the backend's gemm stream waits for the
     * broadcast), so the host never blocks on a panel: the time the gemm
     * stream stands waiting is the exposed communication (summa.c).
     * 0: wait() returns once the panel has landed (host transports). */
    int device_ordered;
    /* Optional (NULL): GPU time this rank spent in broadcasts since the
     * last call (all of it, hidden or not), then reset.  ms, or NAN. */
    double (*busy_ms)(void *ctx);
};

/* Host buffers, MPI_Ibcast/MPI_Wait (transport_mpi.c). */
extern const gp_dist_transport gp_dist_transport_mpi;

/* Defined by gpu.c: the transport for device buffers named by --comm
 * ("auto", "staged", "cuda-aware", "nccl"; "mpi" is refused there with a
 * hint).  The same answer on every rank for the same name.  NULL + err. */
const gp_dist_transport *gp_dist_gpu_transport_find(const char *name,
                                                     char *err, size_t errlen);

/* The host or device transport for --comm `name` and backend `be`.  NULL
 * with a one-line message (e.g. "--comm nccl needs a GPU local kernel"). */
const gp_dist_transport *gp_dist_transport_find(const char *name,
                                                const gp_dist_backend *be,
                                                char *err, size_t errlen);

#endif
