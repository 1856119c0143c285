/* sgemm_08_vectorized - rung 07 (128x128x8 block, 8x8 per thread, 256
 * threads) with 128-bit memory accesses.
 *
 * Adds: each thread fetches its share of the A and B tiles as one float4
 * each (LDG.128); A is transposed while being stored to shared memory
 * (As[k][m]), so the 8 A values a thread needs per k step are contiguous and
 * come, like the 8 B values, as two LDS.128; C is written with STG.128.
 * 128-bit accesses need 16-byte alignment: they are used where the matrix
 * allows them (gp_vec_flags, decided per launch) and the float4 lies wholly
 * inside the matrix; other elements take guarded scalar loads with zero fill.
 * Profile should show: fewer global and shared load instructions than rung
 * 07 for the same FLOPs (LDG.128/LDS.128 in the SASS), fully used 32-byte
 * sectors for A, some bank conflicts on the transposed A stores (2-way) and
 * on the B fragment loads, no spills.
 */
#include "blocktile_2d.cuh"

namespace {
constexpr int BM = 128, BN = 128, BK = 8, TM = 8, TN = 8;
constexpr int NT = (BM * BN) / (TM * TN); /* 256 */
}

__global__ void __launch_bounds__(NT, 2)
sgemm_vectorized(int m, int n, int k, float alpha,
                 const float *__restrict__ A, int lda,
                 const float *__restrict__ B, int ldb, float beta,
                 float *__restrict__ C, int ldc, int ntn, int vec)
{
    static_assert(BM * BK / 4 == NT && BK * BN / 4 == NT,
                  "one float4 of A and one of B per thread per tile");
    __shared__ __align__(16) float As[BK * BM]; /* transposed: As[k][m] */
    __shared__ __align__(16) float Bs[BK * BN];

    const int tid = threadIdx.x;
    const int bm0 = (int)(blockIdx.x / ntn) * BM;
    const int bn0 = (int)(blockIdx.x % ntn) * BN;
    const int mrem = m - bm0, nrem = n - bn0;
    const int tr = tid / (BN / TN), tc = tid % (BN / TN);
    const int ar = tid / (BK / 4), ac = (tid % (BK / 4)) * 4; /* my float4 of A */
    const int br = tid / (BN / 4), bc = (tid % (BN / 4)) * 4; /* my float4 of B */
    A += (size_t)bm0 * lda;
    B += bn0;
    C += (size_t)bm0 * ldc + bn0;

    float acc[TM][TN] = {};
    for (int k0 = 0; k0 < k; k0 += BK) {
        const int krem = k - k0;
        const float4 a4 = gp_load4(A, lda, ar, ac, mrem, krem, vec & GP_VEC_A);
        const float4 b4 = gp_load4(B, ldb, br, bc, krem, nrem, vec & GP_VEC_B);
        As[(ac + 0) * BM + ar] = a4.x;
        As[(ac + 1) * BM + ar] = a4.y;
        As[(ac + 2) * BM + ar] = a4.z;
        As[(ac + 3) * BM + ar] = a4.w;
        *reinterpret_cast<float4 *>(&Bs[br * BN + bc]) = b4;
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
            float a[TM], b[TN];
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
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
                for (int j = 0; j < TN; ++j)
                    acc[i][j] += a[i] * b[j];
        }
        __syncthreads(); /* the next tile overwrites As/Bs */
        A += BK;
        B += (size_t)BK * ldb;
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

extern "C" int gp_sgemm_vectorized(const gemm_args *a, cudaStream_t s,
                                   gp_launch_info *info)
{
    const int ntn = GP_NTILES(a->n, BN), ntm = GP_NTILES(a->m, BM);
    dim3 block(NT);
    dim3 grid((unsigned)ntn * (unsigned)ntm);
    GP_LAUNCH(info, sgemm_vectorized, grid, block, 0, s, "128x128x8/8x8",
              a->m, a->n, a->k, (float)a->alpha, (const float *)a->A, a->lda,
              (const float *)a->B, a->ldb, (float)a->beta, (float *)a->C,
              a->ldc, ntn, gp_vec_flags(a));
}
