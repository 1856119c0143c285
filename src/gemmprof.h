/* gemmprof.h - the kernel ABI: what a GEMM kernel (built-in rung or plugin)
 * gives gemmprof, and what gemmprof gives it.  Plain C so that C host code,
 * CUDA C kernels and user plugins all include the same definitions.
 *
 * Convention: row-major, C = alpha * A(m x k) * B(k x n) + beta * C(m x n).
 * When beta == 0, C is write-only (BLAS semantics): a kernel must not read it,
 * and the harness poisons C with NaN to check that.
 */
#ifndef GEMMPROF_H
#define GEMMPROF_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GEMMPROF_ABI_VERSION 1

typedef enum {
    GP_FP32 = 0, /* float in, float out, FP32 arithmetic                  */
    GP_FP64 = 1, /* double in, double out, FP64 arithmetic                */
    GP_TF32 = 2  /* float in and out, TF32 tensor-core products           */
} gp_precision;

typedef struct {
    int m, n, k;
    double alpha, beta;     /* cast to the kernel's element type          */
    const void *A;          /* m x k, row-major, leading dimension lda    */
    const void *B;          /* k x n, row-major, leading dimension ldb    */
    void *C;                /* m x n, row-major, leading dimension ldc    */
    int lda, ldb, ldc;
} gemm_args;

/* What a launcher actually launched: the harness reads static facts
 * (registers, spills, occupancy) of `func` and reports the shape. */
typedef struct {
    const void *func;       /* the __global__ function, NULL if opaque (cuBLAS) */
    unsigned grid[3];
    unsigned block[3];
    size_t dyn_smem;        /* dynamic shared memory bytes per block          */
    char config[64];        /* tile configuration, e.g. "128x128x8/8x8"       */
} gp_launch_info;

/* Launch one GEMM on `stream`.  Asynchronous; returns 0 or a cudaError_t.
 * If `info` is not NULL the launcher also records what it launched. */
typedef int (*gp_launch_fn)(const gemm_args *args, cudaStream_t stream,
                            gp_launch_info *info);

typedef struct {
    const char *name;        /* CLI name: lowercase, no spaces or commas */
    gp_precision precision;
    const char *idea;        /* one line: what this rung adds            */
    gp_launch_fn launch;
} gp_kernel;

const char *gp_precision_name(gp_precision p);
size_t gp_precision_bytes(gp_precision p);

#ifdef __cplusplus
}
#endif
#endif
