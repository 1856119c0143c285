/* smem_transposed.cuh - the shared body of rungs 04 and 05: rung 03's
 * 32x32 shared-memory tiling with the A tile stored TRANSPOSED,
 * AsT[p][row] at p * STRIDE + row.  The two rungs instantiate it with
 * STRIDE 32 (04) and 33 (05) and nothing else, so any difference in their
 * profiles is the padding.
 *
 * Why the stride matters: lane tx of a warp (fixed ty) stores A[row ty][tx]
 * to word tx * STRIDE + ty, bank (tx * STRIDE + ty) % 32.  STRIDE 32 puts
 * all 32 lanes in bank ty (32-way conflict: 32 wavefronts per store);
 * STRIDE 33 gives bank (tx + ty) % 32, all distinct (one wavefront).
 * Reads AsT[p][ty] are one address per warp (broadcast) either way. */
#ifndef GEMMPROF_SMEM_TRANSPOSED_CUH
#define GEMMPROF_SMEM_TRANSPOSED_CUH

#include "rung.cuh"

#define TT 32 /* tile edge: block is TT x TT threads, tiles are TT x TT */

template <int STRIDE>
__global__ void __launch_bounds__(TT * TT)
sgemm_smem_transposed(int m, int n, int k, float alpha, const float *A,
                      int lda, const float *B, int ldb, float beta, float *C,
                      int ldc)
{
    __shared__ float AsT[TT * STRIDE]; /* AsT[p][r] at p * STRIDE + r */
    __shared__ float Bs[TT][TT];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TT + ty; /* may be >= m: such threads still */
    int col = blockIdx.x * TT + tx; /* load tiles and reach every barrier */
    float acc = 0.0f;
    for (int t = 0; t < k; t += TT) {
        AsT[tx * STRIDE + ty] =
            (row < m && t + tx < k) ? A[row * lda + t + tx] : 0.0f;
        Bs[ty][tx] = (t + ty < k && col < n) ? B[(t + ty) * ldb + col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int p = 0; p < TT; ++p)
            acc += AsT[p * STRIDE + ty] * Bs[p][tx];
        __syncthreads(); /* before the next step overwrites the tiles */
    }
    if (row < m && col < n)
        gp_store(&C[row * ldc + col], acc, alpha, beta);
}

/* The launcher body both rungs share; `config` names the stride. */
template <int STRIDE>
static int gp_launch_smem_transposed(const gemm_args *a, cudaStream_t s,
                                     gp_launch_info *info, const char *config)
{
    dim3 block(TT, TT);
    dim3 grid(GP_CDIV(a->n, TT), GP_CDIV(a->m, TT));
    GP_LAUNCH(info, sgemm_smem_transposed<STRIDE>, grid, block, 0, s, config,
              a->m, a->n, a->k, (float)a->alpha, (const float *)a->A, a->lda,
              (const float *)a->B, a->ldb, (float)a->beta, (float *)a->C,
              a->ldc);
}

#endif
