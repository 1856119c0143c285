/* cache.cu - L2 and shared-memory load bandwidth.
 * L2: a working set well under the L2 size, read many times with
 * ld.global.cg so nothing is served from L1.  The loads are volatile asm:
 * the same addresses come back every pass and must not be hoisted.
 * Shared memory: every block reads its own 16 KiB array, 16 bytes per
 * thread per load, consecutive threads on consecutive vectors (each
 * 8-thread phase covers all 32 banks once).  The index advances by a
 * run-time step, so the compiler cannot prove the loads repeat. */
#include <cuda_runtime.h>
#include "probes.h"
#include "span.cuh"

__device__ __forceinline__ float4 ld_cg(const float4 *p)
{
    float4 v;
    asm volatile("ld.global.cg.v4.f32 {%0, %1, %2, %3}, [%4];"
                 : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                 : "l"(p));
    return v;
}

__global__ void __launch_bounds__(GP_PROBE_THREADS)
l2_kernel(const float4 *x, size_t nvec, int passes, float *out)
{
    const size_t i0 = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
    for (int p = 0; p < passes; ++p) {
#pragma unroll 4
        for (size_t i = i0; i < nvec; i += stride) {
            float4 v = ld_cg(x + i);
            acc.x += v.x;
            acc.y += v.y;
            acc.z += v.z;
            acc.w += v.w;
        }
    }
    out[i0] = (acc.x + acc.y) + (acc.z + acc.w);
}

__global__ void __launch_bounds__(GP_PROBE_THREADS)
smem_kernel(const float4 *src, int iters, int step, float *out,
            unsigned long long *span)
{
    const gp_span_mark m = gp_span_begin(span);
    __shared__ float4 s[GP_SMEM_VECS];
    for (int i = threadIdx.x; i < GP_SMEM_VECS; i += blockDim.x)
        s[i] = src[i];
    __syncthreads();
    float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
    unsigned idx = threadIdx.x;
#pragma unroll 8
    for (int r = 0; r < iters; ++r) {
        float4 v = s[idx & (GP_SMEM_VECS - 1)];
        acc.x += v.x;
        acc.y += v.y;
        acc.z += v.z;
        acc.w += v.w;
        idx += step;
    }
    out[blockIdx.x * (size_t)blockDim.x + threadIdx.x] =
        (acc.x + acc.y) + (acc.z + acc.w);
    gp_span_end(span, m);
}

static int blocks_per_sm(const void *f)
{
    int nb = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(
            &nb, f, GP_PROBE_THREADS, 0) != cudaSuccess)
        return 0;
    return nb;
}

extern "C" int gp_l2_blocks_per_sm(void)
{
    return blocks_per_sm((const void *)l2_kernel);
}

/* Also asks for the largest shared-memory carveout, so that shared
 * memory, not the L1 split, decides how many blocks fit. */
extern "C" int gp_smem_blocks_per_sm(void)
{
    if (cudaFuncSetAttribute(smem_kernel,
                             cudaFuncAttributePreferredSharedMemoryCarveout,
                             cudaSharedmemCarveoutMaxShared) != cudaSuccess)
        return 0;
    return blocks_per_sm((const void *)smem_kernel);
}

extern "C" int gp_l2_launch(const void *x, size_t nvec, int passes,
                            float *out, int blocks, cudaStream_t s)
{
    if (blocks < 1 || passes < 0)
        return (int)cudaErrorInvalidValue;
    l2_kernel<<<blocks, GP_PROBE_THREADS, 0, s>>>((const float4 *)x, nvec,
                                                  passes, out);
    return (int)cudaGetLastError();
}

extern "C" int gp_smem_launch(const void *src, int iters, int step,
                              float *out, int blocks, unsigned long long *span,
                              cudaStream_t s)
{
    if (blocks < 1 || iters < 0 || step % 8 != 0)
        return (int)cudaErrorInvalidValue;
    smem_kernel<<<blocks, GP_PROBE_THREADS, 0, s>>>((const float4 *)src,
                                                    iters, step, out, span);
    return (int)cudaGetLastError();
}
