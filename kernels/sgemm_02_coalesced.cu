/* sgemm_02_coalesced - naive with the thread mapping turned around.
 *
 * Adds over 01 (naive): threadIdx.x walks COLUMNS of C.  The 32 threads of
 * a warp share one row, so each step of the k loop loads one element of A
 * (the same address for every lane: a broadcast, one sector) and 32
 * consecutive floats of B (128 bytes, four full sectors), and the warp
 * stores 128 contiguous bytes of C.  Nothing else changes: still one
 * thread per element of C, still every operand from global memory.
 *
 * Profile should show:
 *  - sectors per global load request ~1 for A and ~4 for B (naive: ~32);
 *    DRAM/L2 traffic collapses from naive's, but L2->L1 traffic is still far
 *    above the compulsory 4(MK+KN+MN) bytes: at best each 32x32 block
 *    fetches its 32xK panel of A and Kx32 panel of B once, i.e. MNK/4
 *    bytes in total (17 GB at 4096^3, ~85x the 201 MB compulsory), more
 *    where L1 loses lines.  DRAM bytes stay a small multiple of compulsory
 *    (the 50 MB L2 catches most reuse between blocks).
 *  - two global-load instructions per FFMA: the load/store pipe, not the
 *    FMA units, is the bound (at most ~1/8 of FP32 peak); expect roughly
 *    6 TFLOP/s on H100/H200 at 4096^3.
 *  - no shared memory, no bank conflicts, no spills, full occupancy.
 */
#include "rung.cuh"

__global__ void sgemm_coalesced(int m, int n, int k, float alpha,
                                const float *A, int lda, const float *B,
                                int ldb, float beta, float *C, int ldc)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x; /* fast index -> columns */
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= m || col >= n)
        return; /* no barriers in this kernel: an early exit is safe */
    const float *a = A + row * lda; /* int offsets: matrices < 2^31 elements */
    float acc = 0.0f;
    for (int p = 0; p < k; ++p)
        acc += a[p] * B[p * ldb + col];
    gp_store(&C[row * ldc + col], acc, alpha, beta);
}

extern "C" int gp_sgemm_coalesced(const gemm_args *a, cudaStream_t s,
                                  gp_launch_info *info)
{
    dim3 block(32, 32);
    dim3 grid(GP_CDIV(a->n, 32), GP_CDIV(a->m, 32));
    GP_LAUNCH(info, sgemm_coalesced, grid, block, 0, s, "32x32",
              a->m, a->n, a->k, (float)a->alpha, (const float *)a->A, a->lda,
              (const float *)a->B, a->ldb, (float)a->beta, (float *)a->C,
              a->ldc);
}
