/* sgemm_09_double_buffer - rung 08 (128x128x8, 8x8 per thread, 256 threads,
 * float4 loads, A transposed in smem) with its loads overlapped with its FMAs.
 *
 * Adds: two shared-memory buffers.  While a block computes tile t from one
 * buffer, the global loads of tile t+1 are already in flight into registers;
 * they are stored into the other buffer after the FMAs, so one
 * __syncthreads per K tile suffices (iteration t reads buffer t&1 and writes
 * buffer (t+1)&1, which every thread finished reading before the barrier
 * that ended iteration t-1).  The buffer is picked by the tile's parity, so
 * an odd tile count needs no special tail; the last, partial tile is zero
 * filled.  Inside a tile the A/B fragments are double-buffered in registers
 * too: the LDS.128s for step kk+1 are issued before the FMAs of step kk.
 * Profile should show: fewer barrier and long-scoreboard (global load) stalls
 * than rung 08, the same instruction mix, twice the shared memory (16 KiB per
 * block), a few more registers (the staged float4s and second fragments),
 * no spills.
 */
#include "blocktile_2d.cuh"

namespace {
constexpr int BM = 128, BN = 128, BK = 8, TM = 8, TN = 8;
constexpr int NT = (BM * BN) / (TM * TN); /* 256 */
}

/* Fragments for step kk of a tile: 8 A values (a column of the thread's
 * rows) and 8 B values (a row of its columns), as four LDS.128. */
static __device__ __forceinline__ void load_frags(const float *As, const float *Bs,
                                                  int kk, int tr, int tc,
                                                  float (&a)[TM], float (&b)[TN])
{
#pragma unroll
    for (int i = 0; i < TM; i += 4) {
        const float4 v = *reinterpret_cast<const float4 *>(&As[kk * BM + tr * TM + i]);
        a[i] = v.x; a[i + 1] = v.y; a[i + 2] = v.z; a[i + 3] = v.w;
    }
#pragma unroll
    for (int j = 0; j < TN; j += 4) {
        const float4 v = *reinterpret_cast<const float4 *>(&Bs[kk * BN + tc * TN + j]);
        b[j] = v.x; b[j + 1] = v.y; b[j + 2] = v.z; b[j + 3] = v.w;
    }
}

__global__ void __launch_bounds__(NT, 2)
sgemm_double_buffer(int m, int n, int k, float alpha,
                    const float *__restrict__ A, int lda,
                    const float *__restrict__ B, int ldb, float beta,
                    float *__restrict__ C, int ldc, int ntn, int vec)
{
    static_assert(BM * BK / 4 == NT && BK * BN / 4 == NT,
                  "one float4 of A and one of B per thread per tile");
    __shared__ __align__(16) float As[2][BK * BM]; /* transposed: As[k][m] */
    __shared__ __align__(16) float Bs[2][BK * BN];

    const int tid = threadIdx.x;
    const int bm0 = (int)(blockIdx.x / ntn) * BM;
    const int bn0 = (int)(blockIdx.x % ntn) * BN;
    const int mrem = m - bm0, nrem = n - bn0;
    const int tr = tid / (BN / TN), tc = tid % (BN / TN);
    const int ar = tid / (BK / 4), ac = (tid % (BK / 4)) * 4; /* my float4 of A */
    const int br = tid / (BN / 4), bc = (tid % (BN / 4)) * 4; /* my float4 of B */
    const bool va = vec & GP_VEC_A, vb = vec & GP_VEC_B;
    A += (size_t)bm0 * lda;
    B += bn0;
    C += (size_t)bm0 * ldc + bn0;

    /* Tile 0 (all zeros when k == 0; the loop then does not run). */
    float4 a4 = gp_load4(A, lda, ar, ac, mrem, k, va);
    float4 b4 = gp_load4(B, ldb, br, bc, k, nrem, vb);
    As[0][(ac + 0) * BM + ar] = a4.x;
    As[0][(ac + 1) * BM + ar] = a4.y;
    As[0][(ac + 2) * BM + ar] = a4.z;
    As[0][(ac + 3) * BM + ar] = a4.w;
    *reinterpret_cast<float4 *>(&Bs[0][br * BN + bc]) = b4;
    __syncthreads();

    float acc[TM][TN] = {};
    const int ntk = GP_NTILES(k, BK);
    for (int t = 0; t < ntk; ++t) {
        const int cur = t & 1;
        const bool more = t + 1 < ntk; /* uniform across the block */
        if (more) {                    /* issue tile t+1's loads now */
            A += BK;
            B += (size_t)BK * ldb;
            const int krem = k - (t + 1) * BK;
            a4 = gp_load4(A, lda, ar, ac, mrem, krem, va);
            b4 = gp_load4(B, ldb, br, bc, krem, nrem, vb);
        }
        float a[2][TM], b[2][TN];
        load_frags(As[cur], Bs[cur], 0, tr, tc, a[0], b[0]);
#pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
            if (kk + 1 < BK)
                load_frags(As[cur], Bs[cur], kk + 1, tr, tc, a[(kk + 1) & 1],
                           b[(kk + 1) & 1]);
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
                for (int j = 0; j < TN; ++j)
                    acc[i][j] += a[kk & 1][i] * b[kk & 1][j];
        }
        if (more) {
            const int nxt = cur ^ 1;
            As[nxt][(ac + 0) * BM + ar] = a4.x;
            As[nxt][(ac + 1) * BM + ar] = a4.y;
            As[nxt][(ac + 2) * BM + ar] = a4.z;
            As[nxt][(ac + 3) * BM + ar] = a4.w;
            *reinterpret_cast<float4 *>(&Bs[nxt][br * BN + bc]) = b4;
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; j += 4)
            gp_store4(C, ldc, tr * TM + i, tc * TN + j, mrem, nrem,
                      make_float4(acc[i][j], acc[i][j + 1], acc[i][j + 2],
                                  acc[i][j + 3]),
                      alpha, beta, vec & GP_VEC_C);
}

extern "C" int gp_sgemm_double_buffer(const gemm_args *a, cudaStream_t s,
                                      gp_launch_info *info)
{
    const int ntn = GP_NTILES(a->n, BN), ntm = GP_NTILES(a->m, BM);
    dim3 block(NT);
    dim3 grid((unsigned)ntn * (unsigned)ntm);
    GP_LAUNCH(info, sgemm_double_buffer, grid, block, 0, s, "128x128x8/8x8",
              a->m, a->n, a->k, (float)a->alpha, (const float *)a->A, a->lda,
              (const float *)a->B, a->ldb, (float)a->beta, (float *)a->C,
              a->ldc, ntn, gp_vec_flags(a));
}
