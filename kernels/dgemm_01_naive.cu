/* dgemm_01_naive - FP64 baseline: one thread per element of C, with the
 * mapping the FP32 ladder only reached at its second rung (coalesced).
 *
 * Adds: nothing; the FP64 reference point for the rungs above it.
 * Mapping: threadIdx.x walks COLUMNS of C, so a warp reads one A element
 * (broadcast) and 32 consecutive doubles (256 bytes) of a B row per k,
 * and writes 256 contiguous bytes of C.  Blocks are 32x8 threads.
 * Profile should show: DFMA count = m*n*k exactly (one per product);
 * every product is a global load: per warp and k, 256 bytes of B plus one
 * broadcast A double, i.e. ~8*m*n*k bytes requested from L1 (1.1 TB at
 * 4096^3), nearly all hits, caches doing all the reuse; no shared memory,
 * no spills, full occupancy.  The L1/LSU pipe, not the DFMA pipe, is the
 * limiter: expect a few TFLOP/s on H100/H200 at 4096^3 (a small fraction
 * of the ~33 TFLOP/s DFMA ceiling).
 */
#include "rung.cuh"

#define NX1 32 /* threads along n (a warp) */
#define NY1 8  /* threads along m          */

__global__ void __launch_bounds__(NX1 * NY1)
dgemm_naive(int m, int n, int k, double alpha, const double *A, int lda,
            const double *B, int ldb, double beta, double *C, int ldc)
{
    int col = blockIdx.x * NX1 + threadIdx.x; /* fast index -> columns */
    int row = blockIdx.y * NY1 + threadIdx.y;
    if (row >= m || col >= n)
        return;
    double acc = 0.0;
    for (int p = 0; p < k; ++p)
        acc += A[row * lda + p] * B[p * ldb + col];
    gp_store(&C[row * ldc + col], acc, alpha, beta);
}

extern "C" int gp_dgemm_naive(const gemm_args *a, cudaStream_t s,
                              gp_launch_info *info)
{
    dim3 block(NX1, NY1);
    dim3 grid(GP_CDIV(a->n, NX1), GP_CDIV(a->m, NY1));
    GP_LAUNCH(info, dgemm_naive, grid, block, 0, s, "32x8",
              a->m, a->n, a->k, a->alpha, (const double *)a->A, a->lda,
              (const double *)a->B, a->ldb, a->beta, (double *)a->C, a->ldc);
}
