/* gemmprof.h - the kernel ABI: what a GEMM kernel (built-in rung or plugin)
 * gives gemmprof, and what gemmprof gives it.  Plain C so that C host code,
 * CUDA C kernels and user plugins all include the same definitions.
 *
 * Convention: row-major, C = alpha * A(m x k) * B(k x n) + beta * C(m x n).
 * When beta == 0, C is write-only (BLAS semantics): a kernel must not read it,
 * and the harness poisons C with NaN to check that.
 *
 * Plugins (`gemmprof --plugin libmine.so --kernel mine,cublas ...`): a shared
 * object, built with `gemmprof-build mine.cu` or `make plugin SRC=mine.cu`,
 * that exports
 *
 *     const gp_plugin *gemmprof_plugin(void);      (GEMMPROF_PLUGIN makes it)
 *
 * returning a table of kernels.  The contract for each launcher:
 *  - compute C = alpha*A*B + beta*C in the row-major layout of gemm_args
 *    (leading dimensions lda, ldb, ldc in elements; any m, n, k >= 1, not
 *    only multiples of a tile); with beta == 0 never read C;
 *  - launch asynchronously on `stream` and return without synchronizing:
 *    0, or the cudaError_t of a failed launch (cudaPeekAtLastError());
 *    gemmprof times, verifies against cuBLAS and profiles the launches;
 *  - launch the same work every call (gemmprof launches it many times);
 *  - if `info` is not NULL, describe what was launched (gp_launch_info_fill),
 *    so the row carries registers, shared memory and occupancy;
 *  - allocate nothing per call and keep no state between calls.
 * A kernel that errors, faults on the GPU or fails verification yields a
 * failed row and the run goes on (after a device reset if the context was
 * lost).  A launcher that crashes the host process (a segfault) ends the run:
 * every row already measured stays in the file, plus a row for the crashed
 * kernel saying so.  Plugins must use the shared CUDA runtime (nvcc
 * -cudart shared), so that gemmprof and the plugin see the same kernels.
 */
#ifndef GEMMPROF_H
#define GEMMPROF_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped when anything below changes incompatibly.  gemmprof refuses a
 * plugin built against another version. */
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

/* What a plugin's gemmprof_plugin() returns.  abi_version stays the first
 * member in every ABI version, so any gemmprof can read it and refuse. */
typedef struct {
    int abi_version;          /* GEMMPROF_ABI_VERSION the plugin was built with */
    const char *name;         /* the plugin's own name (for messages)           */
    int count;                /* entries in kernels[]                           */
    const gp_kernel *kernels; /* names unique, also against the built-ins       */
} gp_plugin;

#define GEMMPROF_PLUGIN_SYMBOL "gemmprof_plugin"
/* The ABI version again, as an exported constant: gemmprof reads it from
 * the file before loading it, so a plugin of another ABI is refused before
 * any of its code (constructors, gemmprof_plugin()) runs. */
#define GEMMPROF_ABI_SYMBOL "gemmprof_abi_version"
typedef const gp_plugin *(*gp_plugin_entry)(void);

/* For a launcher: record what it launches when `info` is not NULL.
 *     gp_launch_info_fill(info, (const void *)my_kernel, grid, block, 0, "16x16");
 *     my_kernel<<<grid, block, 0, stream>>>(...);
 *     return (int)cudaPeekAtLastError();                                   */
static inline void gp_launch_info_fill(gp_launch_info *info, const void *func,
                                       dim3 grid, dim3 block, size_t dyn_smem,
                                       const char *config)
{
    size_t i = 0;
    if (!info)
        return;
    info->func = func;
    info->grid[0] = grid.x;
    info->grid[1] = grid.y;
    info->grid[2] = grid.z;
    info->block[0] = block.x;
    info->block[1] = block.y;
    info->block[2] = block.z;
    info->dyn_smem = dyn_smem;
    for (; config && config[i] && i + 1 < sizeof info->config; i++)
        info->config[i] = config[i];
    info->config[i] = '\0';
}

#ifdef __cplusplus
}
#define GEMMPROF_EXTERN_C extern "C"
#else
#define GEMMPROF_EXTERN_C
#endif

/* Export a plugin's kernel table (an array of gp_kernel), once per plugin:
 *     static const gp_kernel kernels[] = {
 *         {"mine", GP_FP32, "16x16 shared-memory tiles", mine_launch},
 *     };
 *     GEMMPROF_PLUGIN("mine", kernels)                                     */
#define GEMMPROF_PLUGIN(plugin_name, kernel_array)                            \
    GEMMPROF_EXTERN_C __attribute__((visibility("default"), used))           \
    const int gemmprof_abi_version = GEMMPROF_ABI_VERSION;                   \
    GEMMPROF_EXTERN_C __attribute__((visibility("default")))                 \
    const gp_plugin *gemmprof_plugin(void)                                   \
    {                                                                        \
        static const gp_plugin plugin = {                                    \
            GEMMPROF_ABI_VERSION, (plugin_name),                             \
            (int)(sizeof(kernel_array) / sizeof((kernel_array)[0])),         \
            (kernel_array)};                                                 \
        return &plugin;                                                      \
    }

#endif
