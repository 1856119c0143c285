/* mine.cu - a minimal gemmprof plugin: one SGEMM kernel of your own, run,
 * verified against cuBLAS, timed and profiled by gemmprof without editing it.
 *
 *   gemmprof-build mine.cu                  (or: make plugin SRC=mine.cu)
 *   gemmprof --plugin ./libmine.so --kernel mine,cublas --size 2048 --roofline
 *
 * The kernel: 16x16 tiles of A and B staged in shared memory, one element
 * of C per thread.  `mine_wrong` is the same kernel stopping half-way along
 * k, the kind of bug the verification is there to catch (gemmprof's tests
 * use it; delete it from your copy). */
#include "gemmprof.h"

#define TILE 16

/* Row-major C = alpha*A*B + beta*C over the first k_stop products. */
__global__ void mine_sgemm(int m, int n, int k_stop, float alpha,
                           const float *A, int lda, const float *B, int ldb,
                           float beta, float *C, int ldc)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;     /* threadIdx.x walks columns: coalesced */
    float acc = 0.0f;
    for (int p0 = 0; p0 < k_stop; p0 += TILE) {
        /* zero-fill outside the matrices: any m, n, k works, not only
         * multiples of the tile */
        As[ty][tx] = row < m && p0 + tx < k_stop ? A[(size_t)row * lda + p0 + tx] : 0.0f;
        Bs[ty][tx] = p0 + ty < k_stop && col < n ? B[(size_t)(p0 + ty) * ldb + col] : 0.0f;
        __syncthreads();
        for (int p = 0; p < TILE; ++p)
            acc += As[ty][p] * Bs[p][tx];
        __syncthreads();
    }
    if (row < m && col < n) {
        float *c = &C[(size_t)row * ldc + col];
        *c = beta == 0.0f ? alpha * acc : alpha * acc + beta * *c; /* beta 0: never read C */
    }
}

/* Launch asynchronously on `stream`, say what was launched, return the
 * launch's error code (0 if it went well). */
static int launch(const gemm_args *a, cudaStream_t stream, gp_launch_info *info,
                  int k_stop)
{
    dim3 block(TILE, TILE);
    dim3 grid((a->n + TILE - 1) / TILE, (a->m + TILE - 1) / TILE);
    gp_launch_info_fill(info, (const void *)mine_sgemm, grid, block, 0, "16x16x16");
    mine_sgemm<<<grid, block, 0, stream>>>(a->m, a->n, k_stop, (float)a->alpha,
                                           (const float *)a->A, a->lda,
                                           (const float *)a->B, a->ldb,
                                           (float)a->beta, (float *)a->C, a->ldc);
    return (int)cudaPeekAtLastError();
}

static int mine_launch(const gemm_args *a, cudaStream_t s, gp_launch_info *info)
{
    return launch(a, s, info, a->k);
}

static int mine_wrong_launch(const gemm_args *a, cudaStream_t s, gp_launch_info *info)
{
    return launch(a, s, info, a->k / 2);          /* the deliberate bug */
}

static const gp_kernel kernels[] = {
    {"mine", GP_FP32, "16x16 shared-memory tiles, one C element per thread", mine_launch},
    {"mine_wrong", GP_FP32, "mine stopping half-way along k (fails verification on purpose)",
     mine_wrong_launch},
};

GEMMPROF_PLUGIN("mine", kernels)
