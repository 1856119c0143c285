/* dgemm_05_double_buffer - two shared buffers and a register prefetch, so
 * the next k tile's global loads fly while the current one is computed.
 *
 * Adds over 04 (vectorized): the loop issues the loads of tile kt+1 into
 * registers, computes tile kt from shared buffer kt&1, then stores the
 * registers into the other buffer and synchronises once.  One barrier per
 * k step instead of two, and the ~1 us of global latency hides behind the
 * 512 DFMAs per thread of the current tile; 03 and 04 expose it at every
 * step because one block per SM has nothing else to run.
 * Why one barrier is enough: iteration kt reads buffer kt&1 (written in
 * iteration kt-1, before its barrier) and writes buffer (kt+1)&1, last
 * read in iteration kt-1 (before that same barrier).  Tile counts odd or
 * even need no special tail: the buffer index is just kt&1, and the last
 * iteration loads and stores nothing.
 *
 * Profile should show:
 *  - same global/shared traffic and instruction mix as 04, 33 KB shared,
 *    ~40 more registers than 04 (the prefetched tile, two buffers' addressing),
 *    still one block per SM, no spills.
 *  - barrier and long-scoreboard stalls well below 04's; DFMA pipe busy
 *    most cycles: expect ~27-30 TFLOP/s on H100/H200 at 4096^3, the best
 *    FP64 SIMT rung (80-90% of the ~33 TFLOP/s DFMA ceiling).
 */
#include "dgemm_vec.cuh"

template <bool VEC>
__global__ void __launch_bounds__(VNT)
dgemm_double_buffer(int m, int n, int k, double alpha, const double *A,
                    int lda, const double *B, int ldb, double beta, double *C,
                    int ldc)
{
    __shared__ __align__(16) double AsT[2][VA_ELEMS];
    __shared__ __align__(16) double Bs[2][VB_ELEMS];
    int tid = threadIdx.x, tr = tid / 16, tc = tid % 16;
    int row0 = blockIdx.y * VBM, col0 = blockIdx.x * VBN;
    int ntiles = GP_CDIV(k, VBK);
    double acc[8][8];
#pragma unroll
    for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j)
            acc[i][j] = 0.0;
    gp_dvec_tile t;
    gp_dvec_load<VEC>(t, A, lda, B, ldb, m, n, k, row0, col0, 0, tid);
    gp_dvec_store(t, AsT[0], Bs[0], tid);
    __syncthreads();
    for (int kt = 0; kt < ntiles; ++kt) {
        int cur = kt & 1;
        bool more = kt + 1 < ntiles; /* the same in every thread */
        if (more)
            gp_dvec_load<VEC>(t, A, lda, B, ldb, m, n, k, row0, col0,
                              (kt + 1) * VBK, tid);
        gp_dvec_compute(acc, AsT[cur], Bs[cur], tr, tc);
        if (more)
            gp_dvec_store(t, AsT[cur ^ 1], Bs[cur ^ 1], tid);
        __syncthreads();
    }
    gp_dvec_epilogue(acc, C, ldc, m, n, row0, col0, tr, tc, alpha, beta);
}

extern "C" int gp_dgemm_double_buffer(const gemm_args *a, cudaStream_t s,
                                      gp_launch_info *info)
{
    bool vec = gp_dvec_aligned(a);
    void (*kern)(int, int, int, double, const double *, int, const double *,
                 int, double, double *, int) =
        vec ? dgemm_double_buffer<true> : dgemm_double_buffer<false>;
    dim3 block(VNT);
    dim3 grid(GP_CDIV(a->n, VBN), GP_CDIV(a->m, VBM));
    GP_LAUNCH(info, kern, grid, block, 0, s,
              vec ? "128x128x8/8x8/v2/2buf" : "128x128x8/8x8/v1/2buf",
              a->m, a->n, a->k, a->alpha, (const double *)a->A, a->lda,
              (const double *)a->B, a->ldb, a->beta, (double *)a->C, a->ldc);
}
