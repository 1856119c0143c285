/* tf32_01_mma - TF32 tensor cores through the Ampere-era warp instruction,
 * mma.sync.m16n8k8 .tf32 (HMMA.1688.F32.TF32 in SASS): FP32 in and out,
 * products of operands rounded to TF32 (10-bit mantissa), FP32 sums.
 *
 * Adds over the FP32 ladder (warptiling): the products leave the FMA pipe
 * for the tensor cores, and the unit of work becomes the warp.
 *  - Block 128x256x32, 256 threads = 8 warps in a 2 x 4 grid, each warp a
 *    64x64 sub-tile = 4 x 8 MMA tiles of 16x8, 128 accumulators a lane.
 *    Per 8-deep k step a warp issues 32 MMAs fed by 4 ldmatrix.x4 (A) and
 *    16 LDS.32 (B): 32 shared wavefronts per 32 MMAs.
 *  - TSTAGES = 4 shared stages filled by cp.async (16-byte copies with zero
 *    fill past every edge; 4-byte copies when lda/ldb are not multiples of
 *    4 or A/B are not 16-byte aligned): tile kt+3 streams in while tile kt
 *    is multiplied, one barrier per k tile (same schedule as dgemm_dmma).
 *  - A is K-major, so ldmatrix.x4 on 32-bit elements yields the TF32 A
 *    fragment directly (tf32_ptx.cuh).  A stage rows are padded to 36
 *    floats (144 B = 9 16-byte chunks): the 8 row addresses of one 8x8
 *    ldmatrix phase fall in 8 different chunk slots, conflict-free.
 *  - B is N-major (row-major k x n): no ldmatrix form transposes 32-bit
 *    elements, so fragments are LDS.32, b0 = B[t][g], b1 = B[t + 4][g].  B
 *    rows are padded to 264 floats (264 mod 32 = 8): lane (g, t) hits bank
 *    8t + g, conflict-free.  (LDS.128 of 4 adjacent columns, with the MMA
 *    columns permuted to match, needs no fewer wavefronts and cost ~230
 *    MOVs per k tile to pair b0 with b1 for HMMA.)
 *  - Epilogue: float2 stores (columns 2t, 2t + 1 of each 8-wide n-tile).
 *  - cvt.rna.tf32.f32 on every fragment register (round to nearest, as
 *    cuBLAS's TF32 inputs are rounded, rather than the tensor core's
 *    truncation of the low 13 bits).
 *
 * Profile should show:
 *  - SASS: HMMA.1688.F32.TF32 in the main loop, LDSM.16.M88.4 for A, LDS
 *    for B, LDGSTS for the copies, no FFMA but the epilogue's; per k tile
 *    ~530 instructions for 128 HMMA, half of them the cvt (FSETP + IADD).
 *  - tensor pipe the busiest unit; shared-memory bank conflicts ~0 for loads
 *    (ldmatrix and LDS as laid out above) and for the LDGSTS stores.
 *  - one block of 8 warps per SM (204 KB of stages, ~200 registers, no spill).
 *  - FLOPs: the FFMA-based counters read ~0 (compare by time, 2mnk/t).
 *  - expected at 4096^3 on H100/H200: 150-250 TFLOP/s, 40-70% of cuBLAS
 *    TF32: mma.sync keeps one warp instruction per 16x8x8 tile, so issue
 *    slots, register-file bandwidth and the cvt/ldmatrix overhead all scale
 *    with the MMA count, where wgmma (tf32_wgmma) reads both operands from
 *    shared memory for 64x256x8 per instruction.
 */
#include "tf32_ptx.cuh"

#define TBM 128
#define TBN 256
#define TBK 32
#define TNT 256
#define TSTAGES 4
#define TAS (TBK + 4)   /* A stage row stride, floats (144 B) */
#define TBS (TBN + 8)   /* B stage row stride, floats (1056 B) */
#define TA_ELEMS (TBM * TAS)
#define TB_ELEMS (TBK * TBS)
#define TSTAGE_ELEMS (TA_ELEMS + TB_ELEMS)
#define TSMEM_BYTES ((size_t)TSTAGES * TSTAGE_ELEMS * sizeof(float))

/* floats of a 4-float chunk starting `left` before the edge that exist */
__device__ __forceinline__ int gp_quad_count(int left)
{
    return left <= 0 ? 0 : left >= 4 ? 4 : left;
}

/* What one thread copies, worked out once: the 16-byte path gives each
 * thread 4 chunks of A in one k column (rows ar + 32q) and 8 chunks of B in
 * one n column (rows br + 4q), so per tile only the k edge is re-checked.
 * (A 128 x 8 chunks: 8 lanes = one 128-byte row; B 32 x 64 chunks: a warp =
 * 512 contiguous bytes of a row.) */
struct tf32_plan {
    const float *a, *b;    /* the thread's first chunk at k0 = 0 (or A / B) */
    int ar, ac, br, bc;    /* its stage row and column, A and B             */
    int a_rows;            /* bit q: A row ar + 32q exists                  */
    int b_cols;            /* floats of its B chunk left of the n edge      */
    bool inside;           /* the block's 128 x 256 tile lies inside C      */
};

__device__ __forceinline__ tf32_plan tf32_plan_for(const float *A, int lda,
                                                   const float *B, int ldb,
                                                   int m, int n, int row0,
                                                   int col0, int tid)
{
    tf32_plan p;
    p.ar = tid >> 3;
    p.ac = 4 * (tid & 7);
    p.br = tid >> 6;
    p.bc = 4 * (tid & 63);
    p.a_rows = 0;
#pragma unroll
    for (int q = 0; q < 4; ++q)
        p.a_rows |= (row0 + p.ar + 32 * q < m) << q;
    p.b_cols = gp_quad_count(n - col0 - p.bc);
    p.a = p.a_rows & 1 ? A + (row0 + p.ar) * lda + p.ac : A;
    p.b = p.b_cols ? B + p.br * ldb + col0 + p.bc : B;
    p.inside = row0 + TBM <= m && col0 + TBN <= n;
    return p;
}

/* Issue the copies of the k tile starting at k0 into stage (As, Bs). */
__device__ __forceinline__ void tf32_load_vec(float *As, float *Bs,
                                              const tf32_plan &p, const float *A,
                                              int lda, const float *B, int ldb,
                                              int k, int k0)
{
    if (p.inside && k0 + TBK <= k) {   /* no edge: plain copies */
#pragma unroll
        for (int q = 0; q < 4; ++q)
            gp_cp_async16_full(&As[(p.ar + 32 * q) * TAS + p.ac],
                              p.a + 32 * q * lda + k0);
#pragma unroll
        for (int q = 0; q < 8; ++q)
            gp_cp_async16_full(&Bs[(p.br + 4 * q) * TBS + p.bc],
                              p.b + (k0 + 4 * q) * ldb);
        return;
    }
    int ka = gp_quad_count(k - k0 - p.ac);
#pragma unroll
    for (int q = 0; q < 4; ++q) {
        int nv = (p.a_rows >> q) & 1 ? ka : 0;
        gp_cp_async16(&As[(p.ar + 32 * q) * TAS + p.ac],
                     nv ? p.a + 32 * q * lda + k0 : A, 4 * nv);
    }
    int krows = k - k0 - p.br;  /* rows br + 4q < krows exist */
#pragma unroll
    for (int q = 0; q < 8; ++q) {
        int nv = 4 * q < krows ? p.b_cols : 0;
        gp_cp_async16(&Bs[(p.br + 4 * q) * TBS + p.bc],
                     nv ? p.b + (k0 + 4 * q) * ldb : B, 4 * nv);
    }
}

/* The 4-byte path (misaligned A or B, or lda/ldb not multiples of 4). */
__device__ __forceinline__ void tf32_load_scalar(float *As, float *Bs,
                                                 const float *A, int lda,
                                                 const float *B, int ldb, int m,
                                                 int n, int k, int row0,
                                                 int col0, int k0, int tid)
{
#pragma unroll 4
    for (int q = 0; q < TBM * TBK / TNT; ++q) {
        int e = tid + q * TNT, r = e >> 5, c = e & 31;
        int gr = row0 + r, gc = k0 + c;
        bool ok = gr < m && gc < k;
        gp_cp_async4(&As[r * TAS + c], ok ? A + gr * lda + gc : A, ok ? 4 : 0);
    }
#pragma unroll 4
    for (int q = 0; q < TBK * TBN / TNT; ++q) {
        int e = tid + q * TNT, r = e >> 8, c = e & 255;
        int gr = k0 + r, gc = col0 + c;
        bool ok = gr < k && gc < n;
        gp_cp_async4(&Bs[r * TBS + c], ok ? B + gr * ldb + gc : B, ok ? 4 : 0);
    }
}

/* One 32-deep k tile of the warp's 64x64 sub-tile.  a points at the lane's
 * ldmatrix row (As[warp row + lane%16][4(lane/16)]), b at Bs[t][warp col +
 * g].  acc[i][j] is MMA tile (i, j): rows 16i.., columns 8j... */
__device__ __forceinline__ void tf32_tile(float (&acc)[4][8][4], const float *a,
                                          const float *b)
{
#pragma unroll
    for (int kk = 0; kk < TBK / 8; ++kk) {
        uint32_t af[4][4], bf[8][2];
#pragma unroll
        for (int i = 0; i < 4; ++i) {
            gp_ldmatrix_x4(af[i], a + 16 * i * TAS + 8 * kk);
#pragma unroll
            for (int r = 0; r < 4; ++r)
                af[i][r] = gp_to_tf32(af[i][r]);
        }
        /* one LDS.32 per register: a pair from LDS.128s would cost a MOV
         * per register to put b0 and b1 side by side, for no fewer
         * wavefronts (both are 1 per 128 bytes, conflict-free) */
#pragma unroll
        for (int j = 0; j < 8; ++j)
#pragma unroll
            for (int h = 0; h < 2; ++h)
                bf[j][h] = gp_to_tf32(__float_as_uint(b[(8 * kk + 4 * h) * TBS + 8 * j]));
#pragma unroll
        for (int i = 0; i < 4; ++i)
#pragma unroll
            for (int j = 0; j < 8; ++j)
                gp_mma_tf32(acc[i][j], af[i], bf[j]);
    }
}

/* C[row][c0], C[row][c0+1] = alpha * v + beta * C, masked at the edge. */
__device__ __forceinline__ void tf32_store2(float *C, int ldc, int row, int c0,
                                           int n, float v0, float v1,
                                           float alpha, float beta, bool vec)
{
    float *p = C + row * ldc + c0;
    if (vec && c0 + 1 < n) {
        float2 o = make_float2(alpha * v0, alpha * v1);
        if (beta != 0.0f) {
            float2 c = *(const float2 *)p;
            o.x += beta * c.x;
            o.y += beta * c.y;
        }
        *(float2 *)p = o;
        return;
    }
    if (c0 < n)
        gp_store(p, v0, alpha, beta);
    if (c0 + 1 < n)
        gp_store(p + 1, v1, alpha, beta);
}

template <bool VEC>
__global__ void __launch_bounds__(TNT, 1)
tf32_mma(int m, int n, int k, float alpha, const float *A, int lda,
         const float *B, int ldb, float beta, float *C, int ldc, bool vec_c)
{
    GP_KERNEL_NEEDS(GP_FEAT_MMA_TF32) {
        extern __shared__ __align__(16) float gp_tf32_smem[];
        int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
        int g = lane >> 2, t = lane & 3;
        int wrow = (warp >> 2) * 64, wcol = (warp & 3) * 64;
        int row0 = blockIdx.y * TBM, col0 = blockIdx.x * TBN;
        int ktiles = GP_CDIV(k, TBK);
        float acc[4][8][4];
#pragma unroll
        for (int i = 0; i < 4; ++i)
#pragma unroll
            for (int j = 0; j < 8; ++j)
#pragma unroll
                for (int c = 0; c < 4; ++c)
                    acc[i][j][c] = 0.0f;

        tf32_plan plan = tf32_plan_for(A, lda, B, ldb, m, n, row0, col0, tid);
        auto load = [&](int stage, int k0) {
            float *As = gp_tf32_smem + stage * TSTAGE_ELEMS;
            if (VEC)
                tf32_load_vec(As, As + TA_ELEMS, plan, A, lda, B, ldb, k, k0);
            else
                tf32_load_scalar(As, As + TA_ELEMS, A, lda, B, ldb, m, n, k, row0,
                                 col0, k0, tid);
        };
#pragma unroll
        for (int s = 0; s < TSTAGES - 1; ++s) {
            if (s < ktiles)
                load(s, s * TBK);
            gp_cp_async_commit();
        }
        int a_off = (wrow + (lane & 15)) * TAS + 4 * (lane >> 4);
        int b_off = TA_ELEMS + t * TBS + wcol + g;
        for (int kt = 0; kt < ktiles; ++kt) {
            gp_cp_async_wait<TSTAGES - 2>(); /* my copies of tile kt landed */
            __syncthreads(); /* everyone's did, and stage (kt-1)%S is free */
            int nxt = kt + TSTAGES - 1;
            if (nxt < ktiles)
                load(nxt % TSTAGES, nxt * TBK);
            gp_cp_async_commit();
            const float *st = gp_tf32_smem + (kt % TSTAGES) * TSTAGE_ELEMS;
            tf32_tile(acc, st + a_off, st + b_off);
        }
        gp_cp_async_wait<0>(); /* only empty groups remain; leave none behind */

        /* acc[i][j][2rh + e] is C[16i + 8rh + g][8j + 2t + e] of the warp tile */
#pragma unroll
        for (int i = 0; i < 4; ++i)
#pragma unroll
            for (int rh = 0; rh < 2; ++rh) {
                int row = row0 + wrow + 16 * i + 8 * rh + g;
                if (row >= m)
                    continue;
#pragma unroll
                for (int j = 0; j < 8; ++j)
                    tf32_store2(C, ldc, row, col0 + wcol + 8 * j + 2 * t, n,
                                acc[i][j][2 * rh], acc[i][j][2 * rh + 1], alpha,
                                beta, vec_c);
            }
    }
}

extern "C" int gp_tf32_mma(const gemm_args *a, cudaStream_t s,
                           gp_launch_info *info)
{
    bool vec = a->lda % 4 == 0 && a->ldb % 4 == 0 &&
               (uintptr_t)a->A % 16 == 0 && (uintptr_t)a->B % 16 == 0;
    bool vec_c = a->ldc % 2 == 0 && (uintptr_t)a->C % 8 == 0;
    void (*kern)(int, int, int, float, const float *, int, const float *, int,
                 float, float *, int, bool) =
        vec ? tf32_mma<true> : tf32_mma<false>;
    char config[64];
    snprintf(config, sizeof config, "128x256x32/warp64x64/m16n8k8/%dstage/cp%d",
             TSTAGES, vec ? 16 : 4);
    /* 204 KB of stages: above the 48 KB default, so opt in */
    cudaError_t e = cudaFuncSetAttribute((const void *)kern,
                                         cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         (int)TSMEM_BYTES);
    if (e != cudaSuccess)
        return (int)e;
    dim3 block(TNT);
    dim3 grid(GP_CDIV(a->n, TBN), GP_CDIV(a->m, TBM));
    GP_LAUNCH(info, kern, grid, block, TSMEM_BYTES, s, config,
              a->m, a->n, a->k, (float)a->alpha, (const float *)a->A, a->lda,
              (const float *)a->B, a->ldb, (float)a->beta, (float *)a->C,
              a->ldc, vec_c);
}
