/* dgemm_ptx.cuh - the inline PTX the FP64 tensor-core rungs need, and
 * nothing else: the FP64 MMA instructions (and, from cp_async.cuh, the
 * asynchronous global->shared copies).  Kept in one small
 * header so that the kernels above it are plain CUDA C++ (and can be
 * checked on a CPU against an emulation of exactly these primitives).
 *
 * FP64 fragment layouts (PTX ISA, "Matrix Fragments for mma.m8n8k4 with
 * .f64" and "... mma.m16n8k16 with floating point type"), with
 * g = lane >> 2 and t = lane & 3:
 *   m8n8k4:   a = A[g][t]            b = B[t][g]
 *             c[i] = C[g][2t + i]    (i = 0, 1)
 *   m16n8k16: a[2q] = A[g][4q + t]   a[2q + 1] = A[g + 8][4q + t]  (q = 0..3)
 *             b[q]  = B[4q + t][g]
 *             c[i]  = C[g + 8 * (i >> 1)][2t + (i & 1)]
 * so one m16n8k16 is exactly eight m8n8k4 on the same fragment registers:
 * rows 0-7 and 8-15 of A, k walked in four chunks of 4. */
#ifndef GEMMPROF_DGEMM_PTX_CUH
#define GEMMPROF_DGEMM_PTX_CUH

#include "rung.cuh"
#include "cp_async.cuh"

/* d = a * b + d, one 8x8x4 FP64 tile (warp-wide; layout above). */
__device__ __forceinline__ void gp_dmma_884(double (&d)[2], double a, double b)
{
    asm("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 "
        "{%0, %1}, {%2}, {%3}, {%0, %1};\n"
        : "+d"(d[0]), "+d"(d[1])
        : "d"(a), "d"(b));
}

/* d = a * b + d, one 16x8x16 FP64 tile: PTX 7.8, sm_90+ only.  lo holds C
 * rows 0-7 (c0, c1), hi rows 8-15 (c2, c3).  Below sm_90 the same result
 * comes from the eight m8n8k4 it is made of. */
__device__ __forceinline__ void gp_dmma_16816(double (&lo)[2], double (&hi)[2],
                                              const double (&a)[8],
                                              const double (&b)[4])
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm("mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 "
        "{%0, %1, %2, %3}, {%4, %5, %6, %7, %8, %9, %10, %11}, "
        "{%12, %13, %14, %15}, {%0, %1, %2, %3};\n"
        : "+d"(lo[0]), "+d"(lo[1]), "+d"(hi[0]), "+d"(hi[1])
        : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(a[4]), "d"(a[5]),
          "d"(a[6]), "d"(a[7]), "d"(b[0]), "d"(b[1]), "d"(b[2]), "d"(b[3]));
#else
#pragma unroll
    for (int q = 0; q < 4; ++q) {
        gp_dmma_884(lo, a[2 * q], b[q]);
        gp_dmma_884(hi, a[2 * q + 1], b[q]);
    }
#endif
}

/* d = a * b + d, one 16x8x8 FP64 tile (PTX 7.8, sm_90), C as m16n8k16:
 * a[i] = A[g + 8(i & 1)][t + 4(i >> 1)], b[i] = B[t + 4i][g], so the two
 * halves of an m16n8k16's fragments (a[0..3], b[0..1] and a[4..7],
 * b[2..3]) are its k 0-7 and 8-15. */
__device__ __forceinline__ void gp_dmma_1688(double (&lo)[2], double (&hi)[2],
                                             double a0, double a1, double a2,
                                          double a3, double b0, double b1)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 "
        "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
        : "+d"(lo[0]), "+d"(lo[1]), "+d"(hi[0]), "+d"(hi[1])
        : "d"(a0), "d"(a1), "d"(a2), "d"(a3), "d"(b0), "d"(b1));
#else
    gp_dmma_884(lo, a0, b0);
    gp_dmma_884(hi, a1, b0);
    gp_dmma_884(lo, a2, b1);
    gp_dmma_884(hi, a3, b1);
#endif
}

#endif
