/* dgemm_02_smem - stage 32x32 tiles of A and B in shared memory (FP64).
 *
 * Adds over 01 (naive): a 32x32 block computes a 32x32 tile of C by
 * walking k in steps of 32.  Each step every thread loads one element of
 * the A tile and one of the B tile (coalesced: a warp reads 256 contiguous
 * bytes of a row), the block synchronises, and the 32 products per thread
 * come from shared memory.  Tile elements outside the matrices are
 * zero-filled, so the inner loop has no bounds checks at any size;
 * threads whose element of C is outside still load and reach every
 * barrier.
 *
 * Profile should show:
 *  - global loads: each block reads its 32xK panel of A and Kx32 panel of
 *    B once: 2*8*MNK/32 = MNK/2 bytes from L2 (34 GB at 4096^3); DRAM a
 *    small multiple of the compulsory 8(MK+KN+MN).
 *  - shared memory: 16 KB per block.  A reads As[ty][p] are broadcasts
 *    (ptxas pairs them into LDS.128); B reads Bs[p][tx] are 32 distinct
 *    doubles = 256 bytes = 2 wavefronts each (width, not conflicts):
 *    ~2.5 wavefronts per DFMA instruction, so the shared pipe, not DFMA,
 *    limits: no bank conflicts to speak of, but >2 wavefronts per DFMA.
 *  - 1024-thread blocks, 2 per SM, 100% theoretical occupancy.
 *  - expect roughly 5-6 TFLOP/s on H100/H200 at 4096^3 (<20% of the
 *    DFMA ceiling): one shared load per DFMA is far too many for FP64.
 */
#include "rung.cuh"

#define T2 32 /* tile edge: block is T2 x T2 threads, tiles are T2 x T2 */

__global__ void __launch_bounds__(T2 * T2)
dgemm_smem(int m, int n, int k, double alpha, const double *A, int lda,
           const double *B, int ldb, double beta, double *C, int ldc)
{
    __shared__ double As[T2][T2];
    __shared__ double Bs[T2][T2];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * T2 + ty; /* may be >= m: such threads still */
    int col = blockIdx.x * T2 + tx; /* load tiles and reach every barrier */
    double acc = 0.0;
    for (int t = 0; t < k; t += T2) {
        As[ty][tx] = (row < m && t + tx < k) ? A[row * lda + t + tx] : 0.0;
        Bs[ty][tx] = (t + ty < k && col < n) ? B[(t + ty) * ldb + col] : 0.0;
        __syncthreads();
#pragma unroll
        for (int p = 0; p < T2; ++p)
            acc += As[ty][p] * Bs[p][tx];
        __syncthreads(); /* before the next step overwrites the tiles */
    }
    if (row < m && col < n)
        gp_store(&C[row * ldc + col], acc, alpha, beta);
}

extern "C" int gp_dgemm_smem(const gemm_args *a, cudaStream_t s,
                             gp_launch_info *info)
{
    dim3 block(T2, T2);
    dim3 grid(GP_CDIV(a->n, T2), GP_CDIV(a->m, T2));
    GP_LAUNCH(info, dgemm_smem, grid, block, 0, s, "32x32x32",
              a->m, a->n, a->k, a->alpha, (const double *)a->A, a->lda,
              (const double *)a->B, a->ldb, a->beta, (double *)a->C, a->ldc);
}
