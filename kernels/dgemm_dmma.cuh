/* dgemm_dmma.cuh - FP64 tensor-core GEMM (DMMA through mma.sync), shared by
 * rung 06 (m8n8k4, sm_80+) and rung 07 (the same kernel issuing sm_90's
 * m16n8k16, which is eight m8n8k4 on the same registers).
 *
 * Block: 256 threads = 8 warps in a 2 x 4 grid, 128x128 tile of C; each
 * warp owns a 64x32 sub-tile = 8 x 4 tiles of 8x8, i.e. 64 accumulators
 * (128 registers) per lane.  k is walked in steps of DBK = 16.
 *
 * Pipeline: DSTAGES = 3 shared-memory stages filled by cp.async (16-byte
 * copies with zero fill past the matrix edges; 8-byte copies when lda/ldb
 * are odd or a base is not 16-byte aligned).  Iteration kt waits for
 * stage kt, synchronises once, issues the copies of tile kt+2 into the
 * stage computed in iteration kt-1, and computes stage kt: two tiles
 * in flight behind the one being multiplied, one barrier per k tile.
 * A commit is issued every iteration (empty past the end) so that
 * "wait until at most DSTAGES-2 groups are pending" always means "tile
 * kt has landed".
 *
 * Shared layout and banks (ldmatrix has no f64 form: fragments are plain
 * LDS.64; g = lane>>2, t = lane&3):
 *  - A stage: As[row][kk] at row*DAS + kk, DAS = 20.  A fragment loads hit
 *    double (8i + g)*20 + 4q + t: bank pair (4g + 4q + t) mod 16, distinct
 *    for the 16 lanes of each half-warp -> 2 wavefronts per load, the
 *    minimum for 32 doubles.
 *  - B stage: Bs[kk][col] at kk*DBS + col, DBS = 132: B fragment loads hit
 *    (4q + t)*132 + 8j + g: bank pair (4t + 8j + g) mod 16, again distinct
 *    per half-warp.
 *  - rows are 160 and 1056 bytes: 16-byte aligned for cp.async, and the
 *    16-byte copies of a quarter-warp cover 128 contiguous bytes.
 */
#ifndef GEMMPROF_DGEMM_DMMA_CUH
#define GEMMPROF_DGEMM_DMMA_CUH

#include <stdint.h>
#include "dgemm_ptx.cuh"

#define DBM 128
#define DBN 128
#define DBK 16
#define DNT 256
#define DSTAGES 3
#define DAS (DBK + 4)
#define DBS (DBN + 4)
#define DA_ELEMS (DBM * DAS)
#define DB_ELEMS (DBK * DBS)
#define DSTAGE_ELEMS (DA_ELEMS + DB_ELEMS)
#define DSMEM_BYTES ((size_t)DSTAGES * DSTAGE_ELEMS * sizeof(double))

/* how many of the 2 doubles of a pair starting `left` before the edge exist */
__device__ __forceinline__ int gp_pair_count(int left)
{
    return left <= 0 ? 0 : left >= 2 ? 2 : left;
}

/* Issue the copies of the k tile starting at k0 into stage (As, Bs). */
template <bool VEC>
__device__ __forceinline__ void gp_dmma_load(double *As, double *Bs,
                                             const double *A, int lda,
                                             const double *B, int ldb, int m,
                                             int n, int k, int row0, int col0,
                                             int k0, int tid)
{
    if (VEC) {
        /* A: 128 x 16 = 1024 pairs, 4 per thread, a warp = 4 rows x 128 B */
#pragma unroll
        for (int q = 0; q < 4; ++q) {
            int e = tid + q * DNT, r = e >> 3, c = 2 * (e & 7);
            int gr = row0 + r, gc = k0 + c;
            int nv = gr < m ? gp_pair_count(k - gc) : 0;
            gp_cp_async16(&As[r * DAS + c], nv ? A + gr * lda + gc : A, 8 * nv);
        }
        /* B: 16 x 128 = 1024 pairs, a warp = 512 contiguous bytes of a row */
#pragma unroll
        for (int q = 0; q < 4; ++q) {
            int e = tid + q * DNT, r = e >> 6, c = 2 * (e & 63);
            int gr = k0 + r, gc = col0 + c;
            int nv = gr < k ? gp_pair_count(n - gc) : 0;
            gp_cp_async16(&Bs[r * DBS + c], nv ? B + gr * ldb + gc : B, 8 * nv);
        }
    } else {
#pragma unroll
        for (int q = 0; q < 8; ++q) {
            int e = tid + q * DNT, r = e >> 4, c = e & 15;
            int gr = row0 + r, gc = k0 + c;
            bool ok = gr < m && gc < k;
            gp_cp_async8(&As[r * DAS + c], ok ? A + gr * lda + gc : A, ok ? 8 : 0);
        }
#pragma unroll
        for (int q = 0; q < 8; ++q) {
            int e = tid + q * DNT, r = e >> 7, c = e & 127;
            int gr = k0 + r, gc = col0 + c;
            bool ok = gr < k && gc < n;
            gp_cp_async8(&Bs[r * DBS + c], ok ? B + gr * ldb + gc : B, ok ? 8 : 0);
        }
    }
}

/* One 16-deep k tile of the warp's 64x32 sub-tile.  a points at
 * As[warp row + g][t], b at Bs[t][warp col + g]; acc[i][j] is the 8x8
 * tile (i, j) of the sub-tile in the m8n8k4 accumulator layout.  The
 * A fragments are held in m16n8k16 order: af[2q + h] = A[16I + 8h + g][4q + t]. */
template <int SHAPE>
__device__ __forceinline__ void gp_dmma_tile(double (&acc)[8][4][2],
                                             const double *a, const double *b)
{
    double bf[4][4]; /* bf[j][q] = B[4q + t][8j + g] */
#pragma unroll
    for (int j = 0; j < 4; ++j)
#pragma unroll
        for (int q = 0; q < 4; ++q)
            bf[j][q] = b[4 * q * DBS + 8 * j];
#pragma unroll
    for (int I = 0; I < 4; ++I) {
        double af[8];
#pragma unroll
        for (int q = 0; q < 4; ++q)
#pragma unroll
            for (int h = 0; h < 2; ++h)
                af[2 * q + h] = a[(16 * I + 8 * h) * DAS + 4 * q];
        if (SHAPE == 16816) {
#pragma unroll
            for (int j = 0; j < 4; ++j)
                gp_dmma_16816(acc[2 * I][j], acc[2 * I + 1][j], af, bf[j]);
        } else {
            /* 8 independent MMAs per k chunk, so a chain's latency hides */
#pragma unroll
            for (int q = 0; q < 4; ++q)
#pragma unroll
                for (int j = 0; j < 4; ++j)
#pragma unroll
                    for (int h = 0; h < 2; ++h)
                        gp_dmma_884(acc[2 * I + h][j], af[2 * q + h], bf[j][q]);
        }
    }
}

template <int SHAPE, bool VEC>
__global__ void __launch_bounds__(DNT, 1)
dgemm_dmma(int m, int n, int k, double alpha, const double *A, int lda,
           const double *B, int ldb, double beta, double *C, int ldc)
{
    GP_KERNEL_NEEDS(SHAPE == 884 ? GP_FEAT_DMMA : GP_FEAT_DMMA_K16) {
        extern __shared__ __align__(16) double gp_dmma_smem[];
        int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
        int g = lane >> 2, t = lane & 3;
        int wrow = (warp >> 2) * 64, wcol = (warp & 3) * 32;
        int row0 = blockIdx.y * DBM, col0 = blockIdx.x * DBN;
        int ktiles = GP_CDIV(k, DBK);
        double acc[8][4][2];
#pragma unroll
        for (int i = 0; i < 8; ++i)
#pragma unroll
            for (int j = 0; j < 4; ++j)
                acc[i][j][0] = acc[i][j][1] = 0.0;

#pragma unroll
        for (int s = 0; s < DSTAGES - 1; ++s) {
            double *As = gp_dmma_smem + s * DSTAGE_ELEMS;
            if (s < ktiles)
                gp_dmma_load<VEC>(As, As + DA_ELEMS, A, lda, B, ldb, m, n, k,
                                  row0, col0, s * DBK, tid);
            gp_cp_async_commit();
        }
        for (int kt = 0; kt < ktiles; ++kt) {
            gp_cp_async_wait<DSTAGES - 2>(); /* my copies of tile kt landed */
            __syncthreads(); /* everyone's did, and stage (kt-1)%S is free */
            int nxt = kt + DSTAGES - 1;
            if (nxt < ktiles) {
                double *As = gp_dmma_smem + (nxt % DSTAGES) * DSTAGE_ELEMS;
                gp_dmma_load<VEC>(As, As + DA_ELEMS, A, lda, B, ldb, m, n, k,
                                  row0, col0, nxt * DBK, tid);
            }
            gp_cp_async_commit();
            const double *As = gp_dmma_smem + (kt % DSTAGES) * DSTAGE_ELEMS;
            gp_dmma_tile<SHAPE>(acc, As + (wrow + g) * DAS + t,
                                As + DA_ELEMS + t * DBS + wcol + g);
        }
        gp_cp_async_wait<0>(); /* only empty groups remain; leave none behind */

#pragma unroll
        for (int i = 0; i < 8; ++i) {
            int row = row0 + wrow + 8 * i + g;
#pragma unroll
            for (int j = 0; j < 4; ++j)
#pragma unroll
                for (int c = 0; c < 2; ++c) {
                    int col = col0 + wcol + 8 * j + 2 * t + c;
                    if (row < m && col < n)
                        gp_store(&C[row * ldc + col], acc[i][j][c], alpha, beta);
                }
        }
    }
}

/* The launcher rungs 06 and 07 share; config names the MMA shape and the
 * copy width actually used. */
template <int SHAPE>
static int gp_dmma_launch(const gemm_args *a, cudaStream_t s,
                          gp_launch_info *info)
{
    bool vec = a->lda % 2 == 0 && a->ldb % 2 == 0 &&
               (uintptr_t)a->A % 16 == 0 && (uintptr_t)a->B % 16 == 0;
    void (*kern)(int, int, int, double, const double *, int, const double *,
                 int, double, double *, int) =
        vec ? dgemm_dmma<SHAPE, true> : dgemm_dmma<SHAPE, false>;
    char config[64];
    snprintf(config, sizeof config, "128x128x16/warp64x32/m%s/%dstage/cp%d",
             SHAPE == 16816 ? "16n8k16" : "8n8k4", DSTAGES, vec ? 16 : 8);
    /* 110 KB of stages: above the 48 KB default, so opt in (per device,
     * cheap, and still right after a cudaDeviceReset) */
    cudaError_t e = cudaFuncSetAttribute((const void *)kern,
                                         cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         (int)DSMEM_BYTES);
    if (e != cudaSuccess)
        return (int)e;
    dim3 block(DNT);
    dim3 grid(GP_CDIV(a->n, DBN), GP_CDIV(a->m, DBM));
    GP_LAUNCH(info, kern, grid, block, DSMEM_BYTES, s, config,
              a->m, a->n, a->k, a->alpha, (const double *)a->A, a->lda,
              (const double *)a->B, a->ldb, a->beta, (double *)a->C, a->ldc);
}

#endif
