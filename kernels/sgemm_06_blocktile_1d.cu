/* sgemm_06_blocktile_1d - 1D register blocking: each thread computes a
 * column of TM = 8 outputs.
 *
 * Adds over 03 (smem): a 64x64 tile of C per block of 512 threads, k walked
 * in steps of BK = 8.  Thread (threadRow, threadCol) keeps 8 accumulators
 * for rows threadRow*8 .. +7 of column threadCol.  For each p of the k
 * step it loads one B value into a register and reuses it for 8 FFMAs
 * against 8 A values; the A values of a row are contiguous in shared
 * memory (As[r][0..7]), and ptxas fetches them as LDS.128.  More work per
 * thread -> fewer shared loads per FFMA, and a larger block tile -> less
 * global traffic per FLOP.  Tile elements outside the matrices are
 * zero-filled; threads whose outputs fall outside C still load and sync.
 *
 * Profile should show:
 *  - global loads: each block reads its 64xK panel of A and Kx64 panel of
 *    B once: MNK/8 bytes from L2 (8.6 GB at 4096^3), half of 03.  DRAM
 *    bytes a small multiple of the compulsory 4(MK+KN+MN).
 *  - shared loads per FFMA ~0.375 (per k step: 8 B loads + 16 LDS.128 of A
 *    for 64 FFMAs) against ~1.25 in 03; no bank conflicts (A reads are
 *    broadcasts, B reads and all stores are 32 consecutive words).
 *  - 4 KB shared per block; registers decide occupancy: ptxas (nvcc 13.0)
 *    uses 50, so 2 blocks (32 warps) per SM, 50% theoretical; the 8
 *    independent FFMAs per B value stand in for the missing warps.
 *  - expect roughly 17 TFLOP/s on H100/H200 at 4096^3, ~2x 03.
 */
#include "rung.cuh"

#define BM6 64
#define BN6 64
#define BK6 8
#define TM6 8
#define NT6 (BM6 * BN6 / TM6) /* 512 threads, one per column of TM6 outputs */

__global__ void __launch_bounds__(NT6)
sgemm_blocktile_1d(int m, int n, int k, float alpha, const float *A, int lda,
                   const float *B, int ldb, float beta, float *C, int ldc)
{
    __shared__ float As[BM6 * BK6]; /* As[r][p] at r * BK6 + p */
    __shared__ float Bs[BK6 * BN6]; /* Bs[p][c] at p * BN6 + c */
    int tid = threadIdx.x;
    int row0 = blockIdx.y * BM6, col0 = blockIdx.x * BN6;
    /* staging: one A and one B element per thread and k step (NT6 == BM6*BK6
     * == BK6*BN6); a warp reads 4 rows x 32 bytes of A, 128 bytes of B */
    int arow = row0 + tid / BK6, acol = tid % BK6;
    int brow = tid / BN6, bcol = col0 + tid % BN6;
    /* compute: a warp is 32 consecutive columns of one threadRow */
    int threadCol = tid % BN6, threadRow = tid / BN6;
    float acc[TM6] = {0.0f};
    for (int t = 0; t < k; t += BK6) {
        As[tid] = (arow < m && t + acol < k) ? A[arow * lda + t + acol] : 0.0f;
        Bs[tid] = (t + brow < k && bcol < n) ? B[(t + brow) * ldb + bcol] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int p = 0; p < BK6; ++p) {
            float b = Bs[p * BN6 + threadCol];
#pragma unroll
            for (int i = 0; i < TM6; ++i)
                acc[i] += As[(threadRow * TM6 + i) * BK6 + p] * b;
        }
        __syncthreads(); /* before the next step overwrites the tiles */
    }
    int col = col0 + threadCol;
#pragma unroll
    for (int i = 0; i < TM6; ++i) {
        int row = row0 + threadRow * TM6 + i;
        if (row < m && col < n)
            gp_store(&C[row * ldc + col], acc[i], alpha, beta);
    }
}

extern "C" int gp_sgemm_blocktile_1d(const gemm_args *a, cudaStream_t s,
                                     gp_launch_info *info)
{
    dim3 block(NT6);
    dim3 grid(GP_CDIV(a->n, BN6), GP_CDIV(a->m, BM6));
    GP_LAUNCH(info, sgemm_blocktile_1d, grid, block, 0, s, "64x64x8/8x1",
              a->m, a->n, a->k, (float)a->alpha, (const float *)a->A, a->lda,
              (const float *)a->B, a->ldb, (float)a->beta, (float *)a->C,
              a->ldc);
}
