/* dgemm_04_vectorized - 16-byte accesses: double2 global loads on an
 * aligned fast path, A transposed in shared memory (the pieces are in
 * dgemm_vec.cuh, shared with rung 05).
 *
 * Adds over 03 (blocktile_2d): same 128x128x8 tile and 8x8 thread tiles,
 * but each thread stages its share of a k tile with four LDG.128 instead
 * of eight LDG.64, and reads its fragments with eight LDS.128 per p
 * instead of sixteen LDS.64 (A is stored transposed so that a thread's
 * A values for one p are adjacent).  The launcher picks the double2
 * instantiation only when lda, ldb are even and A, B 16-byte aligned
 * (config ".../v2"), else the scalar one (".../v1"); both are correct at
 * any size.
 *
 * Profile should show (v2):
 *  - global load instructions halved against 03, same bytes (L2 8.6 GB at
 *    4096^3); shared load instructions halved: 0.125 per DFMA.
 *  - transposed A stores conflict-free (2 wavefronts per warp store, see
 *    dgemm_vec.cuh); B stores 4 wavefronts per STS.128 (512 bytes).
 *  - one block of 8 warps per SM, no spills, ~17 KB shared.
 *  - the barrier stalls of 03 remain (load, sync, compute, sync): the gain
 *    is in issue slots, so expect a modest step, ~22-27 TFLOP/s on
 *    H100/H200 at 4096^3.
 */
#include "dgemm_vec.cuh"

template <bool VEC>
__global__ void __launch_bounds__(VNT)
dgemm_vectorized(int m, int n, int k, double alpha, const double *A, int lda,
                 const double *B, int ldb, double beta, double *C, int ldc)
{
    __shared__ __align__(16) double AsT[VA_ELEMS];
    __shared__ __align__(16) double Bs[VB_ELEMS];
    int tid = threadIdx.x, tr = tid / 16, tc = tid % 16;
    int row0 = blockIdx.y * VBM, col0 = blockIdx.x * VBN;
    double acc[8][8];
#pragma unroll
    for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j)
            acc[i][j] = 0.0;
    for (int k0 = 0; k0 < k; k0 += VBK) {
        gp_dvec_tile t;
        gp_dvec_load<VEC>(t, A, lda, B, ldb, m, n, k, row0, col0, k0, tid);
        gp_dvec_store(t, AsT, Bs, tid);
        __syncthreads();
        gp_dvec_compute(acc, AsT, Bs, tr, tc);
        __syncthreads(); /* before the next step overwrites the tiles */
    }
    gp_dvec_epilogue(acc, C, ldc, m, n, row0, col0, tr, tc, alpha, beta);
}

extern "C" int gp_dgemm_vectorized(const gemm_args *a, cudaStream_t s,
                                   gp_launch_info *info)
{
    bool vec = gp_dvec_aligned(a);
    void (*kern)(int, int, int, double, const double *, int, const double *,
                 int, double, double *, int) =
        vec ? dgemm_vectorized<true> : dgemm_vectorized<false>;
    dim3 block(VNT);
    dim3 grid(GP_CDIV(a->n, VBN), GP_CDIV(a->m, VBM));
    GP_LAUNCH(info, kern, grid, block, 0, s,
              vec ? "128x128x8/8x8/v2" : "128x128x8/8x8/v1",
              a->m, a->n, a->k, a->alpha, (const double *)a->A, a->lda,
              (const double *)a->B, a->ldb, a->beta, (double *)a->C, a->ldc);
}
