/* fma.cu - FP32/FP64 FMA throughput.  Each thread keeps GP_FMA_CHAINS
 * independent chains in registers, so the pipe never waits on one FMA's
 * latency, and a, b are run-time values the compiler cannot fold.  Every
 * thread writes the sum of its chains, which the host checks exactly: the
 * work cannot be dropped, and a wrong iteration count shows. */
#include <cuda_runtime.h>
#include "probes.h"
#include "span.cuh"

__device__ __forceinline__ float fma_t(float x, float a, float b)
{
    return fmaf(x, a, b);
}

__device__ __forceinline__ double fma_t(double x, double a, double b)
{
    return fma(x, a, b);
}

constexpr int kUnroll = GP_FMA_UNROLL;   /* #pragma does not expand macros */

template <typename T>
__global__ void __launch_bounds__(GP_PROBE_THREADS)
fma_kernel(T *out, int iters, T a, T b, unsigned long long *span)
{
    const gp_span_mark m = gp_span_begin(span);
    const long t = blockIdx.x * (long)blockDim.x + threadIdx.x;
    T x[GP_FMA_CHAINS];
#pragma unroll
    for (int c = 0; c < GP_FMA_CHAINS; ++c)
        x[c] = GP_FMA_START(T, t, c);
#pragma unroll kUnroll
    for (int i = 0; i < iters; ++i) {
#pragma unroll
        for (int c = 0; c < GP_FMA_CHAINS; ++c)
            x[c] = fma_t(x[c], a, b);
    }
    T s = 0;
#pragma unroll
    for (int c = 0; c < GP_FMA_CHAINS; ++c)
        s += x[c];
    out[t] = s;
    gp_span_end(span, m);
}

extern "C" int gp_fma_blocks_per_sm(int fp64)
{
    const void *f = fp64 ? (const void *)fma_kernel<double>
                         : (const void *)fma_kernel<float>;
    int nb = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(
            &nb, f, GP_PROBE_THREADS, 0) != cudaSuccess)
        return 0;
    return nb;
}

extern "C" int gp_fma_launch(int fp64, void *out, int iters, double a,
                             double b, int blocks, unsigned long long *span,
                             cudaStream_t s)
{
    if (blocks < 1 || iters < 0 || iters % GP_FMA_UNROLL != 0)
        return (int)cudaErrorInvalidValue;
    if (fp64)
        fma_kernel<<<blocks, GP_PROBE_THREADS, 0, s>>>((double *)out, iters,
                                                       a, b, span);
    else
        fma_kernel<<<blocks, GP_PROBE_THREADS, 0, s>>>((float *)out, iters,
                                                       (float)a, (float)b, span);
    return (int)cudaGetLastError();
}
