/* tf32_ptx.cuh - the inline PTX the mma.sync TF32 rung needs, and nothing
 * else (the cp.async copies come from cp_async.cuh): ldmatrix, the FP32 -> TF32
 * rounding and the m16n8k8 TF32 MMA.
 *
 * m16n8k8 .tf32 fragments (PTX ISA, "Matrix Fragments for mma.m16n8k8",
 * .tf32 variant), g = lane >> 2, t = lane & 3:
 *   a0 = A[g][t]   a1 = A[g + 8][t]   a2 = A[g][t + 4]   a3 = A[g + 8][t + 4]
 *   b0 = B[t][g]   b1 = B[t + 4][g]
 *   c0 = C[g][2t]  c1 = C[g][2t + 1]  c2 = C[g + 8][2t]  c3 = C[g + 8][2t + 1]
 * ldmatrix (PTX ISA, "ldmatrix") reads 8x8 matrices of b16: lane l gets row
 * l / 4, b16 elements 2(l % 4) and 2(l % 4) + 1 of each, i.e. 32-bit word
 * l % 4 of row l / 4 when a row holds 4 floats.  So .x4 over the four 8x4
 * float blocks (rows 0-7 | 8-15) x (k 0-3 | 4-7) of a K-major 16x8 tile is
 * exactly a0..a3 above, the floats' bits untouched. */
#ifndef GEMMPROF_TF32_PTX_CUH
#define GEMMPROF_TF32_PTX_CUH

#include <stdint.h>
#include "rung.cuh"
#include "cp_async.cuh"

/* Four 8x8 b16 matrices; lanes 8i..8i+7 give the row addresses of matrix i. */
__device__ __forceinline__ void gp_ldmatrix_x4(uint32_t (&r)[4], const float *p)
{
    unsigned s = (unsigned)__cvta_generic_to_shared(p);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(s));
}

/* FP32 -> TF32, round to nearest (ties away): without it the tensor core
 * truncates the 13 low mantissa bits, a bias of half a TF32 ulp. */
__device__ __forceinline__ uint32_t gp_to_tf32(uint32_t bits)
{
    uint32_t r;
    asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"(r) : "f"(__uint_as_float(bits)));
    return r;
}

/* d += a * b, one 16x8x8 TF32 tile with FP32 accumulation (layout above). */
__device__ __forceinline__ void gp_mma_tf32(float (&d)[4], const uint32_t (&a)[4],
                                            const uint32_t (&b)[2])
{
    asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
        "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

#endif
