/* tf32_02_wgmma_sm90a - TF32 on Hopper's own path: wgmma.mma_async (HGMMA)
 * fed by TMA (UTMALDG) through an mbarrier pipeline, the way cuBLAS and
 * CUTLASS's sm90 kernels run.  Built for sm_90a only (see Makefile); the
 * launcher refuses any other GPU with cudaErrorNoKernelImageForDevice.
 *
 * Adds over tf32_mma: one instruction now multiplies 64x256x8 (not 16x8x8)
 * and reads both operands straight from shared memory (no ldmatrix, no
 * LDS, no cvt); the copies leave the threads altogether (one thread issues
 * a TMA box per operand per k tile); the warps specialise.
 *  - Block 128x256x32, 384 threads = 3 warpgroups.  Warpgroup 0 is the
 *    producer (setmaxnreg 40; one thread issues the TMA loads); warpgroups
 *    1 and 2 are consumers (setmaxnreg 232), each owning 64 rows x 256
 *    columns: 128 FP32 accumulators a thread, four m64n256k8 per k tile.
 *  - WSTAGES = 4 stages of 48 KB (A 128x32 + B 256x32 floats, both
 *    K-major, 128-byte rows, TMA SWIZZLE_128B); full[s] completes when
 *    the stage's bytes landed (expect_tx), empty[s] when both consumer
 *    warpgroups' wgmmas that read it retired (wgmma.wait_group 1 lags one
 *    k tile behind issue, so tensor cores always have a group queued).
 *  - TF32 wgmma takes both operands K-major (no transpose for .tf32, PTX
 *    ISA "wgmma.mma_async": imm-trans-a/b exist for .f16/.bf16 only).  A
 *    (row-major m x k) is; B (row-major k x n) is not, so every call first
 *    transposes B into a K-major n x k copy Bt (row stride k rounded up to
 *    4 floats: TMA needs 16-byte global strides) on the same stream: that
 *    time is part of this rung's time.  The transpose also rounds B to
 *    TF32 (cvt.rna, free in a copy); A goes global -> shared -> tensor
 *    core untouched, so the hardware truncates A's 13 low mantissa bits.
 *    If lda is not a multiple of 4 or A is not 16-byte aligned, A is
 *    copied into the same workspace with the padded stride first, so any
 *    m, n, k >= 1 and any leading dimensions work.
 *  - The workspace is allocated with cudaMallocAsync and released with
 *    cudaFreeAsync on the call's stream (stream-ordered: nothing persists
 *    between calls; after the first call the pool hands the same memory
 *    back without a device synchronisation).
 *  - Edges: TMA zero-fills boxes past m, n, k (zeros add nothing to the
 *    sums); the epilogue masks rows and columns.
 *  - Block order: groups of 8 block rows walk the columns together, so a
 *    wave's A rows and B columns stay in L2.
 *
 * Profile should show:
 *  - SASS: HGMMA.64x256x8.F32.TF32 (the k loop), UTMALDG (producer),
 *    SYNCS (mbarrier) instructions; no HMMA, LDSM, LDGSTS or FFMA in the
 *    loop; plus a second kernel, tf32_transpose (and a memcpy2D when A is
 *    copied), each a few % of the time at 4096^3.
 *  - tensor pipe near its peak; shared-memory bank conflicts ~0 (swizzled);
 *    one 384-thread block per SM, ~193 KB dynamic shared memory.
 *  - expected at 4096^3 on H100/H200: 280-400 TFLOP/s, 75-95% of cuBLAS
 *    TF32 including the transpose (~8% of the time at 4096^3).  The
 *    128x256 tile reads 48 KB of L2 per 2.1 MFLOP (43 FLOP/byte): at
 *    400 TFLOP/s that is ~9 TB/s of L2 -> SM traffic, near what Hopper's
 *    L2 gives, which is why cuBLAS pairs CTAs in clusters and multicasts
 *    the shared operand (not done here: the next step).
 */
#include <stdint.h>
#include "rung.cuh"
#include "sm90_ptx.cuh"
#include "sm90_host.cuh"

#define WBM 128
#define WBN 256
#define WBK 32                              /* one 128-byte swizzle row */
#define WSTAGES 4
#define WGROUP 8                            /* block rows per raster group */
#define WA_BYTES (WBM * WBK * 4)            /* 16 KB */
#define WB_BYTES (WBN * WBK * 4)            /* 32 KB */
#define WSTAGE_BYTES (WA_BYTES + WB_BYTES)  /* 48 KB */
#define WSMEM_BYTES ((size_t)WSTAGES * WSTAGE_BYTES + 1024) /* + alignment */
#define WNT 384

/* Which 128x256 tile this block computes: block ids walk down WGROUP block
 * rows before moving one block column right. */
__device__ __forceinline__ void wgmma_tile_of(int m, int n, int *bm, int *bn)
{
    int tiles_m = GP_CDIV(m, WBM), tiles_n = GP_CDIV(n, WBN);
    int id = blockIdx.x, per_group = WGROUP * tiles_n;
    int first = id / per_group * WGROUP;
    int rows = min(tiles_m - first, WGROUP);
    *bm = first + id % per_group % rows;
    *bn = id % per_group / rows;
}

/* One thread: for every k tile, wait until its stage is free, then ask TMA
 * for the A and B boxes, completing on full[s]. */
__device__ __forceinline__ void wgmma_produce(const CUtensorMap *tmA,
                                              const CUtensorMap *tmB,
                                              uint8_t *smem, uint64_t *full,
                                              uint64_t *empty, int row0,
                                              int col0, int ktiles)
{
    gp_tma_prefetch(tmA);
    gp_tma_prefetch(tmB);
    for (int kt = 0; kt < ktiles; ++kt) {
        int s = kt % WSTAGES;
        if (kt >= WSTAGES) /* phase kt/S - 1 of empty[s]: the last reader left */
            gp_mbar_wait(&empty[s], (kt / WSTAGES - 1) & 1);
        uint8_t *st = smem + s * WSTAGE_BYTES;
        gp_mbar_arrive_tx(&full[s], WSTAGE_BYTES);
        gp_tma_load_2d(st, tmA, &full[s], kt * WBK, row0);
        gp_tma_load_2d(st + WA_BYTES, tmB, &full[s], kt * WBK, col0);
    }
}

/* A consumer warpgroup: its 64 rows x 256 columns, all of k. */
__device__ __forceinline__ void wgmma_consume(float (&d)[128], uint8_t *smem,
                                              uint64_t *full, uint64_t *empty,
                                              int cw, int ktiles)
{
    bool leader = (threadIdx.x & 127) == 0;
#pragma unroll
    for (int i = 0; i < 128; ++i)
        d[i] = 0.0f;
    for (int kt = 0; kt < ktiles; ++kt) {
        int s = kt % WSTAGES;
        gp_mbar_wait(&full[s], (kt / WSTAGES) & 1);
        uint32_t st = gp_smem_u32(smem + s * WSTAGE_BYTES);
        uint64_t da = gp_wgmma_desc_sw128(st + cw * (64 * 128));
        uint64_t db = gp_wgmma_desc_sw128(st + WA_BYTES);
        gp_fence_regs(d);
        gp_wgmma_fence();
#pragma unroll
        for (int kk = 0; kk < WBK / 8; ++kk) /* +32 bytes = +2 in the >>4 field */
            gp_wgmma_m64n256k8_tf32(d, da + 2 * kk, db + 2 * kk);
        gp_wgmma_commit();
        gp_fence_regs(d);
        if (kt > 0) {
            gp_wgmma_wait<1>(); /* tile kt-1's group retired: free its stage */
            if (leader)
                gp_mbar_arrive(&empty[(kt - 1) % WSTAGES]);
        }
    }
    gp_wgmma_wait<0>();
    gp_fence_regs(d);
}

/* d[4j + 2h + e] = C[row + 8h][col0 + 8j + 2t + e] (m64nNk8 D layout). */
__device__ __forceinline__ void wgmma_epilogue(const float (&d)[128], float *C,
                                               int ldc, int m, int n, int row,
                                               int col0, float alpha,
                                               float beta, bool vec_c)
{
#pragma unroll
    for (int h = 0; h < 2; ++h) {
        int r = row + 8 * h;
        if (r >= m)
            continue;
        float *crow = C + (size_t)r * ldc;
#pragma unroll
        for (int j = 0; j < 32; ++j) {
            int c = col0 + 8 * j;
            float v0 = d[4 * j + 2 * h], v1 = d[4 * j + 2 * h + 1];
            if (vec_c && c + 1 < n) {
                float2 o = make_float2(alpha * v0, alpha * v1);
                if (beta != 0.0f) {
                    float2 old = *(const float2 *)(crow + c);
                    o.x += beta * old.x;
                    o.y += beta * old.y;
                }
                *(float2 *)(crow + c) = o;
            } else {
                if (c < n)
                    gp_store(crow + c, v0, alpha, beta);
                if (c + 1 < n)
                    gp_store(crow + c + 1, v1, alpha, beta);
            }
        }
    }
}

__global__ void __launch_bounds__(WNT, 1)
tf32_wgmma(const __grid_constant__ CUtensorMap tmA,
           const __grid_constant__ CUtensorMap tmB, int m, int n, int k,
           float alpha, float beta, float *C, int ldc, bool vec_c)
{
    GP_KERNEL_NEEDS(GP_FEAT_WGMMA) {
        extern __shared__ __align__(1024) uint8_t gp_wgmma_raw[];
        __shared__ __align__(8) uint64_t full[WSTAGES], empty[WSTAGES];
        /* SWIZZLE_128B tiles must start on 1024 bytes (the swizzle is a
         * function of address bits 4-9, shared by TMA and wgmma) */
        uint8_t *smem = gp_wgmma_raw + ((1024 - (gp_smem_u32(gp_wgmma_raw) & 1023)) & 1023);
        int wg = threadIdx.x / 128, bm, bn;
        wgmma_tile_of(m, n, &bm, &bn);
        int row0 = bm * WBM, col0 = bn * WBN, ktiles = GP_CDIV(k, WBK);
        if (threadIdx.x == 0) {
            for (int s = 0; s < WSTAGES; ++s) {
                gp_mbar_init(&full[s], 1);   /* the producer's arrive + tx bytes */
                gp_mbar_init(&empty[s], 2);  /* one arrive per consumer warpgroup */
            }
            gp_mbar_init_fence();
        }
        __syncthreads();
        if (wg == 0) {
            gp_setmaxnreg_dec<40>();
            if (threadIdx.x == 0)
                wgmma_produce(&tmA, &tmB, smem, full, empty, row0, col0, ktiles);
        } else {
            gp_setmaxnreg_inc<232>();
            int cw = wg - 1, lane = threadIdx.x & 31, warp = (threadIdx.x >> 5) & 3;
            float d[128];
            wgmma_consume(d, smem, full, empty, cw, ktiles);
            wgmma_epilogue(d, C, ldc, m, n, row0 + 64 * cw + 16 * warp + (lane >> 2),
                           col0 + 2 * (lane & 3), alpha, beta, vec_c);
        }
    }
}

/* Bt[c][r] = tf32(B[r][c]) for r < k, c < n: 32x32 tiles through shared
 * memory (padded to 33: conflict-free both ways), coalesced both ways. */
__global__ void __launch_bounds__(256)
tf32_transpose(const float *B, int ldb, float *Bt, int ldt, int k, int n)
{
    GP_KERNEL_NEEDS(GP_FEAT_WGMMA) {
        __shared__ float tile[32][33];
        int r0 = blockIdx.x * 32, tx = threadIdx.x, ty = threadIdx.y;
        /* grid.y is capped at 65535: column tiles beyond it loop */
        for (int c0 = blockIdx.y * 32; c0 < n; c0 += gridDim.y * 32) {
#pragma unroll
            for (int i = ty; i < 32; i += 8)
                if (r0 + i < k && c0 + tx < n)
                    tile[i][tx] = B[(size_t)(r0 + i) * ldb + c0 + tx];
            __syncthreads();
#pragma unroll
            for (int i = ty; i < 32; i += 8)
                if (c0 + i < n && r0 + tx < k) {
                    uint32_t u;
                    asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"(u) : "f"(tile[tx][i]));
                    Bt[(size_t)(c0 + i) * ldt + r0 + tx] = __uint_as_float(u);
                }
            __syncthreads(); /* the tile is rewritten next round */
        }
    }
}

/* ---- host side ---- */

/* Bt (and the padded copy of A when needed) into ws, on stream s. */
static int stage_operands(const gemm_args *a, cudaStream_t s, float *ws,
                          int ldt, bool copy_a, const float **A, int *lda)
{
    dim3 tb(32, 8), tg(GP_CDIV(a->k, 32), min(GP_CDIV(a->n, 32), 65535));
    tf32_transpose<<<tg, tb, 0, s>>>((const float *)a->B, a->ldb, ws, ldt,
                                     a->k, a->n);
    *A = (const float *)a->A;
    *lda = a->lda;
    if (!copy_a)
        return (int)cudaPeekAtLastError();
    float *ac = ws + (size_t)a->n * ldt;
    cudaError_t e = cudaMemcpy2DAsync(ac, (size_t)ldt * 4, a->A, (size_t)a->lda * 4,
                                      (size_t)a->k * 4, a->m,
                                      cudaMemcpyDeviceToDevice, s);
    *A = ac;
    *lda = ldt;
    return e != cudaSuccess ? (int)e : (int)cudaPeekAtLastError();
}

static int launch_gemm(const gemm_args *a, cudaStream_t s, gp_launch_info *info,
                       const float *A, int lda, const float *Bt, int ldt,
                       bool copy_a)
{
    CUtensorMap tmA, tmB;
    int e;
    if ((e = gp_tma_map_2d(&tmA, A, a->m, a->k, lda, WBK, WBM)) ||
        (e = gp_tma_map_2d(&tmB, Bt, a->n, a->k, ldt, WBK, WBN)))
        return e;
    cudaError_t ce = cudaFuncSetAttribute((const void *)tf32_wgmma,
                                          cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          (int)WSMEM_BYTES);
    if (ce != cudaSuccess)
        return (int)ce;
    bool vec_c = a->ldc % 2 == 0 && (uintptr_t)a->C % 8 == 0;
    char config[64];
    snprintf(config, sizeof config, "128x256x32/2wg+tma/%dstage/Bt%s", WSTAGES,
             copy_a ? "+Acopy" : "");
    dim3 grid(GP_CDIV(a->m, WBM) * GP_CDIV(a->n, WBN)), block(WNT);
    gp_record(info, (const void *)tf32_wgmma, grid, block, WSMEM_BYTES, config);
    tf32_wgmma<<<grid, block, WSMEM_BYTES, s>>>(tmA, tmB, a->m, a->n, a->k,
                                                (float)a->alpha, (float)a->beta,
                                                (float *)a->C, a->ldc, vec_c);
    return (int)cudaPeekAtLastError();
}

extern "C" int gp_tf32_wgmma(const gemm_args *a, cudaStream_t s,
                             gp_launch_info *info)
{
    if (!gp_is_sm90()) /* the only code in this file is sm_90a's */
        return (int)cudaErrorNoKernelImageForDevice;
    int ldt = (a->k + 3) / 4 * 4;
    bool copy_a = a->lda % 4 != 0 || (uintptr_t)a->A % 16 != 0;
    size_t bt_bytes = (size_t)a->n * ldt * sizeof(float);
    size_t bytes = bt_bytes + (copy_a ? (size_t)a->m * ldt * sizeof(float) : 0);
    float *ws = NULL;
    cudaError_t ce = cudaMallocAsync((void **)&ws, bytes, s);
    if (ce != cudaSuccess)
        return (int)ce;
    if ((uintptr_t)ws % 16 != 0) { /* TMA's rule; pools align far more */
        cudaFreeAsync(ws, s);
        return (int)cudaErrorMisalignedAddress;
    }
    const float *A;
    int lda;
    int e = stage_operands(a, s, ws, ldt, copy_a, &A, &lda);
    if (!e)
        e = launch_gemm(a, s, info, A, lda, ws, ldt, copy_a);
    cudaFreeAsync(ws, s); /* after the GEMM in stream order */
    return e;
}
