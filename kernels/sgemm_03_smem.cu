/* sgemm_03_smem - stage 32x32 tiles of A and B in shared memory.
 *
 * Adds over 02 (coalesced): a 32x32 block computes a 32x32 tile of C by
 * walking k in steps of 32.  Each step, every thread loads one element of
 * the A tile and one of the B tile (both coalesced, 128 bytes per warp),
 * the block synchronises, and the 32 products per thread come from shared
 * memory instead of global memory.  Tile elements outside the matrices are
 * zero-filled, so the inner loop needs no bounds checks at any size.
 *
 * Profile should show:
 *  - global loads: each block reads its 32xK panel of A and Kx32 panel of
 *    B exactly once: MNK/4 bytes from L2 in total (17 GB at 4096^3, ~85x
 *    the 201 MB compulsory 4(MK+KN+MN)); 02 only reached that when L1 kept
 *    everything.  DRAM bytes a small multiple of compulsory.
 *  - shared memory: 8 KB per block; no bank conflicts (A row reads are
 *    broadcasts, B row reads and all stores hit 32 banks), so the
 *    conflicts/wavefronts ratio should be near zero (noise on Hopper, see
 *    docs/cupti.md).  The A row is contiguous and ptxas reads it as
 *    LDS.128: per 32 FFMAs, 8 LDS.128 + 32 LDS, ~1.25 shared loads/FFMA.
 *  - occupancy: 1024-thread blocks, 2 per SM, 100% theoretical.
 *  - still bound by the shared-memory pipe (>1 load per FFMA) and the two
 *    barriers per k step: expect roughly 9 TFLOP/s on H100/H200 at 4096^3.
 */
#include "rung.cuh"

#define T3 32 /* tile edge: block is T3 x T3 threads, tiles are T3 x T3 */

__global__ void __launch_bounds__(T3 * T3)
sgemm_smem(int m, int n, int k, float alpha, const float *A, int lda,
           const float *B, int ldb, float beta, float *C, int ldc)
{
    __shared__ float As[T3][T3];
    __shared__ float Bs[T3][T3];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * T3 + ty; /* may be >= m: such threads still */
    int col = blockIdx.x * T3 + tx; /* load tiles and reach every barrier */
    float acc = 0.0f;
    for (int t = 0; t < k; t += T3) {
        As[ty][tx] = (row < m && t + tx < k) ? A[row * lda + t + tx] : 0.0f;
        Bs[ty][tx] = (t + ty < k && col < n) ? B[(t + ty) * ldb + col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int p = 0; p < T3; ++p)
            acc += As[ty][p] * Bs[p][tx];
        __syncthreads(); /* before the next step overwrites the tiles */
    }
    if (row < m && col < n)
        gp_store(&C[row * ldc + col], acc, alpha, beta);
}

extern "C" int gp_sgemm_smem(const gemm_args *a, cudaStream_t s,
                             gp_launch_info *info)
{
    dim3 block(T3, T3);
    dim3 grid(GP_CDIV(a->n, T3), GP_CDIV(a->m, T3));
    GP_LAUNCH(info, sgemm_smem, grid, block, 0, s, "32x32x32",
              a->m, a->n, a->k, (float)a->alpha, (const float *)a->A, a->lda,
              (const float *)a->B, a->ldb, (float)a->beta, (float *)a->C,
              a->ldc);
}
