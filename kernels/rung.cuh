/* rung.cuh - what every SGEMM/DGEMM rung shares: the epilogue (BLAS beta==0
 * semantics), ceil-div, and the launcher boilerplate that records what was
 * launched.  Kernels only compute C; buffers, timing and counters belong to
 * the harness (src/). */
#ifndef GEMMPROF_RUNG_CUH
#define GEMMPROF_RUNG_CUH

#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>
#include "../src/gemmprof.h"

#define GP_CDIV(a, b) (((a) + (b) - 1) / (b))

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
    snprintf(info->config, sizeof info->config, "%s", config ? config : "");
}

#define GP_LAUNCH(info, kern, grid, block, smem, stream, config, ...)        \
    do {                                                                   \
        gp_record((info), (const void *)(kern), (grid), (block), (smem),   \
                  (config));                                               \
        kern<<<(grid), (block), (smem), (stream)>>>(__VA_ARGS__);          \
        return (int)cudaPeekAtLastError();                                 \
    } while (0)

#endif
