/* blocktile_2d.cuh - 2D register blocking as a template, plus the guarded
 * float4 tile I/O that the rungs built on it (08-10) share.
 *
 * Kernel: a block computes a BM x BN tile of C, walking K in steps of BK
 * through shared memory; each of its BM*BN/(TM*TN) threads owns a TM x TN
 * sub-tile of accumulators in registers and, per k step, multiplies a
 * TM-column of A by a TN-row of B (an outer product: TM+TN shared loads feed
 * TM*TN FMAs).  Loads are scalar and guarded, so any m, n, k, lda, ldb, ldc
 * work.  The launcher template lets a sweep instantiate other tiles:
 *   return gp_blocktile_2d_launch<64, 64, 8, 4, 4>(args, stream, info);
 *
 * The grid is 1D (one block per C tile, row-major over tiles) so that
 * neither m nor n is limited by gridDim.y's 65535.
 */
#ifndef GEMMPROF_BLOCKTILE_2D_CUH
#define GEMMPROF_BLOCKTILE_2D_CUH

#include <stdint.h>
#include "rung.cuh"

/* Tiles needed to cover `len` >= 0 elements; unlike GP_CDIV it cannot
 * overflow when len is close to INT_MAX. */
#define GP_NTILES(len, tile) ((len) / (tile) + ((len) % (tile) != 0))

/* Two resident blocks, so that one block's global loads overlap the other's
 * FMAs, when that fits without spilling: up to 64 accumulators and 12 loads
 * per thread per tile (at 256 threads ptxas then caps registers at 128;
 * 128x128x16/8x8, with 16 loads, spilled 20 bytes under that cap). */
template <int BM, int BN, int BK, int TM, int TN>
__global__ void __launch_bounds__(
    (BM * BN) / (TM * TN),
    (TM * TN <= 64 && (BM + BN) * BK * TM * TN <= 12 * BM * BN) ? 2 : 1)
sgemm_blocktile_2d(int m, int n, int k, float alpha,
                   const float *__restrict__ A, int lda,
                   const float *__restrict__ B, int ldb, float beta,
                   float *__restrict__ C, int ldc, int ntn)
{
    constexpr int NT = (BM * BN) / (TM * TN);
    static_assert(BM % TM == 0 && BN % TN == 0, "thread tile must divide block tile");
    static_assert((BM * BK) % NT == 0 && (BK * BN) % NT == 0,
                  "the threads must cover the A and B tiles evenly");
    __shared__ float As[BM * BK]; /* row-major, as in A */
    __shared__ float Bs[BK * BN];

    const int tid = threadIdx.x;
    const int bm0 = (int)(blockIdx.x / ntn) * BM;
    const int bn0 = (int)(blockIdx.x % ntn) * BN;
    const int mrem = m - bm0, nrem = n - bn0;
    const int tr = tid / (BN / TN), tc = tid % (BN / TN);
    A += (size_t)bm0 * lda;
    B += bn0;
    C += (size_t)bm0 * ldc + bn0;

    float acc[TM][TN] = {};
    for (int k0 = 0; k0 < k; k0 += BK) {
        const int krem = k - k0;
#pragma unroll
        for (int l = 0; l < BM * BK / NT; ++l) {
            const int i = tid + l * NT, r = i / BK, c = i % BK;
            As[i] = (r < mrem && c < krem) ? A[r * lda + c] : 0.0f;
        }
#pragma unroll
        for (int l = 0; l < BK * BN / NT; ++l) {
            const int i = tid + l * NT, r = i / BN, c = i % BN;
            Bs[i] = (r < krem && c < nrem) ? B[r * ldb + c] : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
            float a[TM], b[TN];
#pragma unroll
            for (int i = 0; i < TM; ++i)
                a[i] = As[(tr * TM + i) * BK + kk];
#pragma unroll
            for (int j = 0; j < TN; ++j)
                b[j] = Bs[kk * BN + tc * TN + j];
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
    for (int i = 0; i < TM; ++i) {
        const int r = tr * TM + i;
#pragma unroll
        for (int j = 0; j < TN; ++j) {
            const int c = tc * TN + j;
            if (r < mrem && c < nrem)
                gp_store(&C[r * ldc + c], acc[i][j], alpha, beta);
        }
    }
}

template <int BM, int BN, int BK, int TM, int TN>
int gp_blocktile_2d_launch(const gemm_args *a, cudaStream_t s,
                           gp_launch_info *info)
{
    char config[64];
    snprintf(config, sizeof config, "%dx%dx%d/%dx%d", BM, BN, BK, TM, TN);
    const int ntn = GP_NTILES(a->n, BN), ntm = GP_NTILES(a->m, BM);
    dim3 block((BM * BN) / (TM * TN));
    dim3 grid((unsigned)ntn * (unsigned)ntm);
    auto kern = sgemm_blocktile_2d<BM, BN, BK, TM, TN>; /* no commas in the macro */
    GP_LAUNCH(info, kern, grid, block, 0, s, config,
              a->m, a->n, a->k, (float)a->alpha, (const float *)a->A, a->lda,
              (const float *)a->B, a->ldb, (float)a->beta, (float *)a->C,
              a->ldc, ntn);
}

/* ---- guarded float4 tile I/O, shared by rungs 08-10 ------------------- */

/* Bits of the `vec` kernel argument: which matrices allow 16-byte accesses
 * (base pointer 16-byte aligned and leading dimension a multiple of 4, so
 * every row start that is a multiple of 4 floats is aligned too).  Decided
 * once per launch, so the choice is uniform across the grid. */
enum { GP_VEC_A = 1, GP_VEC_B = 2, GP_VEC_C = 4 };

static inline int gp_vec_flags(const gemm_args *a)
{
    int f = 0;
    if (a->lda % 4 == 0 && ((uintptr_t)a->A & 15) == 0) f |= GP_VEC_A;
    if (a->ldb % 4 == 0 && ((uintptr_t)a->B & 15) == 0) f |= GP_VEC_B;
    if (a->ldc % 4 == 0 && ((uintptr_t)a->C & 15) == 0) f |= GP_VEC_C;
    return f;
}

/* P[r][c..c+3] of a row-major matrix with `rrem` rows and `crem` columns
 * left (relative to P), zero outside.  One 128-bit load when allowed and
 * wholly in range (c must be a multiple of 4), else four guarded loads. */
__device__ __forceinline__ float4 gp_load4(const float *__restrict__ P, int ld,
                                           int r, int c, int rrem, int crem,
                                           bool vec)
{
    if (vec && r < rrem && c + 3 < crem)
        return *reinterpret_cast<const float4 *>(P + r * ld + c);
    const bool row = r < rrem;
    const float *p = P + (row ? r * ld : 0) + c; /* r * ld may overflow past the end */
    float4 v;
    v.x = (row && c + 0 < crem) ? p[0] : 0.0f;
    v.y = (row && c + 1 < crem) ? p[1] : 0.0f;
    v.z = (row && c + 2 < crem) ? p[2] : 0.0f;
    v.w = (row && c + 3 < crem) ? p[3] : 0.0f;
    return v;
}

/* gp_store on C[r][c..c+3]: one 128-bit access when allowed and in range,
 * else per-element guarded stores.  C is read only when beta != 0. */
__device__ __forceinline__ void gp_store4(float *__restrict__ C, int ldc,
                                          int r, int c, int mrem, int nrem,
                                          float4 acc, float alpha, float beta,
                                          bool vec)
{
    if (r >= mrem)
        return;
    float *p = C + r * ldc + c;
    if (vec && c + 3 < nrem) {
        float4 v;
        if (beta == 0.0f) {
            v.x = alpha * acc.x; v.y = alpha * acc.y;
            v.z = alpha * acc.z; v.w = alpha * acc.w;
        } else {
            v = *reinterpret_cast<const float4 *>(p);
            v.x = alpha * acc.x + beta * v.x; v.y = alpha * acc.y + beta * v.y;
            v.z = alpha * acc.z + beta * v.z; v.w = alpha * acc.w + beta * v.w;
        }
        *reinterpret_cast<float4 *>(p) = v;
        return;
    }
    if (c + 0 < nrem) gp_store(p + 0, acc.x, alpha, beta);
    if (c + 1 < nrem) gp_store(p + 1, acc.y, alpha, beta);
    if (c + 2 < nrem) gp_store(p + 2, acc.z, alpha, beta);
    if (c + 3 < nrem) gp_store(p + 3, acc.w, alpha, beta);
}

#endif
