/* rung.cuh - what every SGEMM/DGEMM rung shares: the epilogue (BLAS beta==0
 * semantics), ceil-div, the launcher boilerplate that records what was
 * launched, and the guard that compiles a kernel only for architectures
 * with the feature it needs.  Kernels only compute C; buffers, timing and
 * counters belong to the harness (src/). */
#ifndef GEMMPROF_RUNG_CUH
#define GEMMPROF_RUNG_CUH

#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>
#include "../src/gemmprof.h"
#include "../src/arch/arch.h"

#define GP_CDIV(a, b) (((a) + (b) - 1) / (b))

/* ---- what a kernel needs (its ladder.def `needs`) ----------------------
 *
 *     __global__ void k(...)
 *     {
 *         GP_KERNEL_NEEDS(GP_FEAT_CP_ASYNC) {
 *             ...the kernel...
 *         }
 *     }
 *
 * In a device pass for an architecture with the feature the body is the
 * kernel; elsewhere (and in the host pass) it is discarded (`if constexpr`:
 * its PTX is never generated, so a build for sm_75 does not fail on
 * cp.async) and the kernel is a call to gp_needs_<FEATURE>_stub, which
 * traps if it ever ran (the registry refuses first) and names the feature
 * in ptxas's report right after the kernel: that is how
 * scripts/arch-check.awk tells a real kernel from an empty one per
 * architecture.  The decision is the one gp_code_has_feature
 * (src/arch/build.c) makes at run time. */
#ifdef __CUDA_ARCH__
#define GP_DEVICE_CC (__CUDA_ARCH__ / 10)
#else
#define GP_DEVICE_CC 0
#endif
#ifdef __CUDA_ARCH_SPECIFIC__     /* the 'a' targets: sm_90a -> 900 */
#define GP_DEVICE_SPECIFIC_CC (__CUDA_ARCH_SPECIFIC__ / 10)
#else
#define GP_DEVICE_SPECIFIC_CC 0
#endif

#define GP_FEATURE_HAS(id, name, cc, specific, lib)                         \
    f == GP_FEAT_##id ? ((specific) ? GP_DEVICE_SPECIFIC_CC == (cc)         \
                                    : GP_DEVICE_CC >= (cc)) :
__host__ __device__ constexpr bool gp_device_has(gp_feature f)
{
    return GP_FEATURES(GP_FEATURE_HAS) false;
}
#undef GP_FEATURE_HAS

/* inline: one definition however many files include this (no host
 * symbol to clash, no unused-function warning); noinline: a call ptxas
 * reports. */
#define GP_FEATURE_STUB(id, name, cc, specific, lib)                        \
    extern "C" __device__ __noinline__ inline void gp_needs_##id##_stub(void) \
    { __trap(); }
GP_FEATURES(GP_FEATURE_STUB)
#undef GP_FEATURE_STUB

template <gp_feature F> __device__ __forceinline__ void gp_stub(void);
#define GP_FEATURE_STUB_CALL(id, name, cc, specific, lib)                   \
    template <> __device__ __forceinline__ void gp_stub<GP_FEAT_##id>(void) \
    { gp_needs_##id##_stub(); }
GP_FEATURES(GP_FEATURE_STUB_CALL)
#undef GP_FEATURE_STUB_CALL

#define GP_KERNEL_NEEDS(F)                                                  \
    if constexpr (!gp_device_has(F))                                        \
        gp_stub<(F)>();                                                     \
    else

/* C = alpha*acc + beta*C, without reading C when beta == 0 (C may hold
 * garbage or NaN then, as BLAS allows). */
template <typename T>
__device__ __forceinline__ void gp_store(T *c, T acc, T alpha, T beta)
{
    *c = (beta == T(0)) ? alpha * acc : alpha * acc + beta * *c;
}

/* C[row][col..col+1] = alpha*v + beta*C for FP64 rungs: one 16-byte double2
 * access when `vec` (ldc even, C 16-byte aligned) and both columns exist. */
__device__ __forceinline__ void gp_store2(double *C, int ldc, int row, int col,
                                          int m, int n, double v0, double v1,
                                          double alpha, double beta, bool vec)
{
    if (row >= m || col >= n)
        return;
    double *p = C + (size_t)row * ldc + col;
    if (vec && col + 1 < n) {
        double2 o = make_double2(alpha * v0, alpha * v1);
        if (beta != 0.0) {
            double2 c = *reinterpret_cast<const double2 *>(p);
            o.x += beta * c.x;
            o.y += beta * c.y;
        }
        *reinterpret_cast<double2 *>(p) = o;
    } else {
        gp_store(p, v0, alpha, beta);
        if (col + 1 < n)
            gp_store(p + 1, v1, alpha, beta);
    }
}

/* Record the launch shape, then launch.  Used by every rung's C launcher so
 * that `info` always describes exactly what ran. */
static inline void gp_record(gp_launch_info *info, const void *func, dim3 grid,
                             dim3 block, size_t smem, const char *config)
{
    if (!info)
        return;
    info->func = func;
    info->grid[0] = grid.x; info->grid[1] = grid.y; info->grid[2] = grid.z;
    info->block[0] = block.x; info->block[1] = block.y; info->block[2] = block.z;
    info->dyn_smem = smem;
    /* cut to the field (a row's config column is as wide), without the
     * format-truncation warning snprintf draws from callers' wider buffers */
    const char *c = config ? config : "";
    size_t n = strnlen(c, sizeof info->config - 1);
    memcpy(info->config, c, n);
    info->config[n] = '\0';
}

#define GP_LAUNCH(info, kern, grid, block, smem, stream, config, ...)        \
    do {                                                                   \
        gp_record((info), (const void *)(kern), (grid), (block), (smem),   \
                  (config));                                               \
        kern<<<(grid), (block), (smem), (stream)>>>(__VA_ARGS__);          \
        return (int)cudaPeekAtLastError();                                 \
    } while (0)

#endif
