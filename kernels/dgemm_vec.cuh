/* dgemm_vec.cuh - the pieces FP64 rungs 04 (vectorized) and 05 (double
 * buffering) share, so that the two files differ only in their main loop.
 *
 * Tile: 128x128 of C per block of 256 threads, k steps of VBK = 8, each
 * thread an 8x8 tile of C, as rung 03.  What is new against 03:
 *  - 16-byte global loads: a thread loads its part of a k tile as four
 *    double2 (two of A along k, two of B along n) instead of eight
 *    doubles.  double2 needs 16-byte alignment, so the fast path (VEC)
 *    is taken only when lda and ldb are even and A and B 16-byte
 *    aligned; otherwise the same kernel is instantiated with scalar
 *    loads.  A pair cut by the matrix edge is loaded as one double + 0.
 *  - A stored TRANSPOSED in shared memory, AsT[p][row] at p * VAS + row,
 *    so for one p the A values a thread needs are contiguous, like B's.
 *    Thread tiles are interleaved in pairs (rows 2*tr + 32*i + {0,1},
 *    columns 2*tc + 32*j + {0,1}), so every fragment read is an LDS.128:
 *    8 shared loads per 64 DFMA instead of 03's 16.
 *  - VAS = 130: the transposed stores (lane -> row r, k column c) hit
 *    word c*130 + r, i.e. bank pair (4c' + r) mod 16 for c = 2c': all 16
 *    lanes of a half-warp distinct, the minimum 2 wavefronts per warp;
 *    130*8 bytes is a multiple of 16, so the LDS.128 stay aligned.
 */
#ifndef GEMMPROF_DGEMM_VEC_CUH
#define GEMMPROF_DGEMM_VEC_CUH

#include <stdint.h>
#include "rung.cuh"

#define VBM 128
#define VBN 128
#define VBK 8
#define VNT 256            /* 16 x 16 threads, each 8x8 of C */
#define VAS (VBM + 2)      /* transposed A row stride, see above */
#define VA_ELEMS (VBK * VAS)
#define VB_ELEMS (VBK * VBN)

/* One k tile in registers on its way to shared memory. */
struct gp_dvec_tile {
    double2 a[2]; /* A[row][k0 + c], A[row][k0 + c + 1] */
    double2 b[2]; /* B[k][col], B[k][col + 1]           */
};

/* M[row][col], M[row][col + 1], zero where row or column is outside. */
template <bool VEC>
__device__ __forceinline__ double2 gp_ld_pair(const double *M, int ld, int row,
                                              bool row_ok, int col, int ncols)
{
    double2 v = make_double2(0.0, 0.0);
    if (row_ok && col < ncols) {
        const double *p = M + row * ld + col;
        if (VEC && col + 1 < ncols) {
            v = __ldg(reinterpret_cast<const double2 *>(p));
        } else {
            v.x = __ldg(p);
            if (col + 1 < ncols)
                v.y = __ldg(p + 1);
        }
    }
    return v;
}

/* Thread tid's share of the k tile starting at k0: A elements 2e, 2e+1 of
 * the 128x8 tile (row e/4: a warp reads 8 rows x 64 bytes) and B elements
 * 2e, 2e+1 of the 8x128 tile (a warp reads 512 contiguous bytes). */
template <bool VEC>
__device__ __forceinline__ void gp_dvec_load(gp_dvec_tile &t, const double *A,
                                             int lda, const double *B, int ldb,
                                             int m, int n, int k, int row0,
                                             int col0, int k0, int tid)
{
#pragma unroll
    for (int q = 0; q < 2; ++q) {
        int e = tid + q * VNT, r = e >> 2, c = 2 * (e & 3);
        t.a[q] = gp_ld_pair<VEC>(A, lda, row0 + r, row0 + r < m, k0 + c, k);
    }
#pragma unroll
    for (int q = 0; q < 2; ++q) {
        int e = tid + q * VNT, r = e >> 6, c = 2 * (e & 63);
        t.b[q] = gp_ld_pair<VEC>(B, ldb, k0 + r, k0 + r < k, col0 + c, n);
    }
}

/* Same elements, into the shared tiles: A transposed, B as is. */
__device__ __forceinline__ void gp_dvec_store(const gp_dvec_tile &t,
                                              double *AsT, double *Bs, int tid)
{
#pragma unroll
    for (int q = 0; q < 2; ++q) {
        int e = tid + q * VNT, r = e >> 2, c = 2 * (e & 3);
        AsT[c * VAS + r] = t.a[q].x;
        AsT[(c + 1) * VAS + r] = t.a[q].y;
    }
#pragma unroll
    for (int q = 0; q < 2; ++q) {
        int e = tid + q * VNT, r = e >> 6, c = 2 * (e & 63);
        *reinterpret_cast<double2 *>(&Bs[r * VBN + c]) = t.b[q];
    }
}

/* acc[i][j] += sum over the tile's 8 p of A[row i][p] * B[p][col j], with
 * row i = 2*tr + 32*(i/2) + i%2 and col j = 2*tc + 32*(j/2) + j%2. */
__device__ __forceinline__ void gp_dvec_compute(double (&acc)[8][8],
                                                const double *AsT,
                                                const double *Bs, int tr, int tc)
{
#pragma unroll
    for (int p = 0; p < VBK; ++p) {
        double a[8], b[8];
#pragma unroll
        for (int i = 0; i < 4; ++i) {
            double2 v = *reinterpret_cast<const double2 *>(&AsT[p * VAS + 2 * tr + 32 * i]);
            a[2 * i] = v.x;
            a[2 * i + 1] = v.y;
        }
#pragma unroll
        for (int j = 0; j < 4; ++j) {
            double2 v = *reinterpret_cast<const double2 *>(&Bs[p * VBN + 2 * tc + 32 * j]);
            b[2 * j] = v.x;
            b[2 * j + 1] = v.y;
        }
#pragma unroll
        for (int i = 0; i < 8; ++i)
#pragma unroll
            for (int j = 0; j < 8; ++j)
                acc[i][j] += a[i] * b[j];
    }
}

__device__ __forceinline__ void gp_dvec_epilogue(const double (&acc)[8][8],
                                                 double *C, int ldc, int m, int n,
                                                 int row0, int col0, int tr,
                                                 int tc, double alpha, double beta)
{
#pragma unroll
    for (int i = 0; i < 8; ++i) {
        int row = row0 + 2 * tr + 32 * (i >> 1) + (i & 1);
#pragma unroll
        for (int j = 0; j < 8; ++j) {
            int col = col0 + 2 * tc + 32 * (j >> 1) + (j & 1);
            if (row < m && col < n)
                gp_store(&C[row * ldc + col], acc[i][j], alpha, beta);
        }
    }
}

/* double2 loads are legal only on 16-byte boundaries: every pair starts
 * at an even column, so even leading dimensions and aligned bases do. */
static inline bool gp_dvec_aligned(const gemm_args *a)
{
    return a->lda % 2 == 0 && a->ldb % 2 == 0 &&
           (uintptr_t)a->A % 16 == 0 && (uintptr_t)a->B % 16 == 0;
}

#endif
