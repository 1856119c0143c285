/* sgemm_01_naive - one thread per element of C, the textbook triple loop.
 *
 * Adds: nothing; the baseline every other rung is measured against.
 * Mapping: threadIdx.x walks ROWS of C (m), so the 32 threads of a warp
 * read 32 different rows of A (stride K floats: uncoalesced) and write
 * 32 different rows of C.
 * Profile should show: DRAM/L2 traffic far above the compulsory 4(MK+KN+MN)
 * bytes (every load is its own 32-byte sector), low achieved FLOP/s, no
 * shared memory, no spills, full occupancy.
 */
#include "rung.cuh"

__global__ void sgemm_naive(int m, int n, int k, float alpha,
                            const float *A, int lda, const float *B, int ldb,
                            float beta, float *C, int ldc)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x; /* fast index -> rows: uncoalesced */
    int col = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= m || col >= n)
        return;
    float acc = 0.0f;
    for (int p = 0; p < k; ++p)
        acc += A[(size_t)row * lda + p] * B[(size_t)p * ldb + col];
    gp_store(&C[(size_t)row * ldc + col], acc, alpha, beta);
}

extern "C" int gp_sgemm_naive(const gemm_args *a, cudaStream_t s,
                              gp_launch_info *info)
{
    dim3 block(32, 32);
    dim3 grid(GP_CDIV(a->m, 32), GP_CDIV(a->n, 32));
    GP_LAUNCH(info, sgemm_naive, grid, block, 0, s, "32x32",
              a->m, a->n, a->k, (float)a->alpha, (const float *)a->A, a->lda,
              (const float *)a->B, a->ldb, (float)a->beta, (float *)a->C,
              a->ldc);
}
