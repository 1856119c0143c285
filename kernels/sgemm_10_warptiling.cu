/* sgemm_10_warptiling - rung 09 (double-buffered smem, float4 loads, A
 * transposed) with a warp tile between the block tile and the thread tile.
 *
 * Adds: the 8 warps of a 128x128 block tile each own a 32x64 warp tile, and
 * the 32 lanes of a warp (4 x 8) each own a 2x2 grid of 4x4 sub-tiles spaced
 * 16 rows / 32 columns apart inside it (8x8 = 64 outputs per thread, as
 * before).  So the 4-float fragments the lanes of a warp read per k step are
 * adjacent in smem: each LDS.128 of a warp touches 64 or 128 contiguous
 * bytes (broadcast, one wavefront) where rung 09's 8-float fragments left
 * gaps and conflicted; and each C row a warp writes is 128 contiguous bytes.
 * The transposed A tile gets a 4-float row pad (stride 132) so that the
 * transposing scalar stores are conflict free too.  Parameters: YHs_Sample's
 * published 128x128x8 / 256 threads / 8x8 / two blocks per SM design
 * (__launch_bounds__(256, 2): at most 128 registers); the template also
 * takes siboehm's 128x128x16 / 128 threads / 64x64 warp tile / 8x4 design.
 * Config string: BMxBNxBK / WMxWN (warp tile) / WMITERxWNITER (sub-tiles
 * per lane) / TMxTN (sub-tile).
 * Profile should show: near-zero shared-memory bank conflicts and fewer
 * shared wavefronts per FMA than rung 09, FFMA issue close to the limit,
 * 2 blocks (16 warps) per SM, no spills.
 */
#include "blocktile_2d.cuh"

namespace {
template <int BM, int BN, int BK, int WM, int WN, int WMITER, int WNITER,
          int TM, int TN>
struct WarpTile {
    static constexpr int NT = (BM / WM) * (BN / WN) * 32;
    static constexpr int WSUBM = WM / WMITER, WSUBN = WN / WNITER;
    static constexpr int LCOLS = WSUBN / TN;   /* lanes across a sub-tile */
    static constexpr int FM = WMITER * TM, FN = WNITER * TN; /* per lane */
    static constexpr int LDAS = BM + 4;        /* padded stride of As[k][m] */
    static constexpr int LA = BM * BK / 4 / NT, LB = BK * BN / 4 / NT;
    static_assert(BM % WM == 0 && BN % WN == 0, "warp tiles must tile the block");
    static_assert(WM % WMITER == 0 && WN % WNITER == 0, "sub-tiles must tile the warp");
    static_assert((WSUBM / TM) * (WSUBN / TN) == 32, "a sub-tile takes 32 lanes");
    static_assert(TM % 4 == 0 && TN % 4 == 0 && BK % 4 == 0, "float4 fragments");
    static_assert(LA * NT * 4 == BM * BK && LB * NT * 4 == BK * BN,
                  "the threads must cover the A and B tiles in float4s");

    /* This thread's float4s of the A tile (rows x BK) and B tile (BK x BN)
     * whose top-left is A/B; krem columns of A / rows of B are left. */
    static __device__ __forceinline__ void
    load(const float *__restrict__ A, int lda, const float *__restrict__ B,
         int ldb, int mrem, int nrem, int krem, int vec, float4 (&a)[LA],
         float4 (&b)[LB])
    {
        const int tid = threadIdx.x;
#pragma unroll
        for (int l = 0; l < LA; ++l) {
            const int i = tid + l * NT;
            a[l] = gp_load4(A, lda, i / (BK / 4), (i % (BK / 4)) * 4, mrem,
                            krem, vec & GP_VEC_A);
        }
#pragma unroll
        for (int l = 0; l < LB; ++l) {
            const int i = tid + l * NT;
            b[l] = gp_load4(B, ldb, i / (BN / 4), (i % (BN / 4)) * 4, krem,
                            nrem, vec & GP_VEC_B);
        }
    }

    /* ...and into shared memory, A transposed. */
    static __device__ __forceinline__ void
    store(float *As, float *Bs, const float4 (&a)[LA], const float4 (&b)[LB])
    {
        const int tid = threadIdx.x;
#pragma unroll
        for (int l = 0; l < LA; ++l) {
            const int i = tid + l * NT, r = i / (BK / 4), c = (i % (BK / 4)) * 4;
            As[(c + 0) * LDAS + r] = a[l].x;
            As[(c + 1) * LDAS + r] = a[l].y;
            As[(c + 2) * LDAS + r] = a[l].z;
            As[(c + 3) * LDAS + r] = a[l].w;
        }
#pragma unroll
        for (int l = 0; l < LB; ++l) {
            const int i = tid + l * NT;
            *reinterpret_cast<float4 *>(&Bs[(i / (BN / 4)) * BN + (i % (BN / 4)) * 4]) = b[l];
        }
    }

    /* The lane's FM A values and FN B values of k step kk; aoff/boff locate
     * its first sub-tile in a k row of As/Bs. */
    static __device__ __forceinline__ void
    frags(const float *As, const float *Bs, int kk, int aoff, int boff,
          float (&fa)[FM], float (&fb)[FN])
    {
#pragma unroll
        for (int w = 0; w < WMITER; ++w)
#pragma unroll
            for (int i = 0; i < TM; i += 4) {
                const float4 v = *reinterpret_cast<const float4 *>(
                    &As[kk * LDAS + aoff + w * WSUBM + i]);
                fa[w * TM + i + 0] = v.x; fa[w * TM + i + 1] = v.y;
                fa[w * TM + i + 2] = v.z; fa[w * TM + i + 3] = v.w;
            }
#pragma unroll
        for (int w = 0; w < WNITER; ++w)
#pragma unroll
            for (int j = 0; j < TN; j += 4) {
                const float4 v = *reinterpret_cast<const float4 *>(
                    &Bs[kk * BN + boff + w * WSUBN + j]);
                fb[w * TN + j + 0] = v.x; fb[w * TN + j + 1] = v.y;
                fb[w * TN + j + 2] = v.z; fb[w * TN + j + 3] = v.w;
            }
    }
};
} // namespace

template <int BM, int BN, int BK, int WM, int WN, int WMITER, int WNITER,
          int TM, int TN, int MINB>
__global__ void
__launch_bounds__(WarpTile<BM, BN, BK, WM, WN, WMITER, WNITER, TM, TN>::NT, MINB)
sgemm_warptiling(int m, int n, int k, float alpha,
                 const float *__restrict__ A, int lda,
                 const float *__restrict__ B, int ldb, float beta,
                 float *__restrict__ C, int ldc, int ntn, int vec)
{
    using WT = WarpTile<BM, BN, BK, WM, WN, WMITER, WNITER, TM, TN>;
    constexpr int FM = WT::FM, FN = WT::FN;
    __shared__ __align__(16) float As[2][BK * WT::LDAS]; /* transposed: As[k][m] */
    __shared__ __align__(16) float Bs[2][BK * BN];

    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    const int bm0 = (int)(blockIdx.x / ntn) * BM;
    const int bn0 = (int)(blockIdx.x % ntn) * BN;
    const int mrem = m - bm0, nrem = n - bn0;
    /* first row/column of this lane's first sub-tile within the block tile */
    const int arow = (warp / (BN / WN)) * WM + (lane / WT::LCOLS) * TM;
    const int bcol = (warp % (BN / WN)) * WN + (lane % WT::LCOLS) * TN;
    A += (size_t)bm0 * lda;
    B += bn0;
    C += (size_t)bm0 * ldc + bn0;

    float4 a4[WT::LA], b4[WT::LB];
    WT::load(A, lda, B, ldb, mrem, nrem, k, vec, a4, b4); /* tile 0 */
    WT::store(As[0], Bs[0], a4, b4);
    __syncthreads();

    float acc[FM][FN] = {};
    const int ntk = GP_NTILES(k, BK);
    for (int t = 0; t < ntk; ++t) {
        const int cur = t & 1;
        const bool more = t + 1 < ntk; /* uniform across the block */
        if (more) {                    /* issue tile t+1's loads now */
            A += BK;
            B += (size_t)BK * ldb;
            WT::load(A, lda, B, ldb, mrem, nrem, k - (t + 1) * BK, vec, a4, b4);
        }
        float fa[2][FM], fb[2][FN];
        WT::frags(As[cur], Bs[cur], 0, arow, bcol, fa[0], fb[0]);
#pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
            if (kk + 1 < BK)
                WT::frags(As[cur], Bs[cur], kk + 1, arow, bcol,
                          fa[(kk + 1) & 1], fb[(kk + 1) & 1]);
#pragma unroll
            for (int i = 0; i < FM; ++i)
#pragma unroll
                for (int j = 0; j < FN; ++j)
                    acc[i][j] += fa[kk & 1][i] * fb[kk & 1][j];
        }
        if (more) /* buffer cur^1 was last read before the previous barrier */
            WT::store(As[cur ^ 1], Bs[cur ^ 1], a4, b4);
        __syncthreads();
    }
#pragma unroll
    for (int wm = 0; wm < WMITER; ++wm)
#pragma unroll
        for (int i = 0; i < TM; ++i)
#pragma unroll
            for (int wn = 0; wn < WNITER; ++wn)
#pragma unroll
                for (int j = 0; j < TN; j += 4) {
                    const float *v = &acc[wm * TM + i][wn * TN + j];
                    gp_store4(C, ldc, arow + wm * WT::WSUBM + i,
                              bcol + wn * WT::WSUBN + j, mrem, nrem,
                              make_float4(v[0], v[1], v[2], v[3]), alpha, beta,
                              vec & GP_VEC_C);
                }
}

template <int BM, int BN, int BK, int WM, int WN, int WMITER, int WNITER,
          int TM, int TN, int MINB>
int gp_warptiling_launch(const gemm_args *a, cudaStream_t s,
                         gp_launch_info *info)
{
    char config[64];
    snprintf(config, sizeof config, "%dx%dx%d/%dx%d/%dx%d/%dx%d", BM, BN, BK,
             WM, WN, WMITER, WNITER, TM, TN);
    const int ntn = GP_NTILES(a->n, BN), ntm = GP_NTILES(a->m, BM);
    dim3 block(WarpTile<BM, BN, BK, WM, WN, WMITER, WNITER, TM, TN>::NT);
    dim3 grid((unsigned)ntn * (unsigned)ntm);
    auto kern = sgemm_warptiling<BM, BN, BK, WM, WN, WMITER, WNITER, TM, TN, MINB>;
    GP_LAUNCH(info, kern, grid, block, 0, s, config,
              a->m, a->n, a->k, (float)a->alpha, (const float *)a->A, a->lda,
              (const float *)a->B, a->ldb, (float)a->beta, (float *)a->C,
              a->ldc, ntn, gp_vec_flags(a));
}

extern "C" int gp_sgemm_warptiling(const gemm_args *a, cudaStream_t s,
                                   gp_launch_info *info)
{
    return gp_warptiling_launch<128, 128, 8, 32, 64, 2, 2, 4, 4, 2>(a, s, info);
}
