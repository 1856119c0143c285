/* dgemm_11_dmma_k8 - dgemm_dmma_interior issuing m16n8k8 DMMAs, the
 * instruction cuBLAS's sm90 DGEMM uses (sm90_xmma_gemm_f64..._tensor16x8x8),
 * instead of m16n8k16.
 * The kernel is dgemm_dmma_2blk.cuh's with its K8 and INTERIOR switches on.
 *
 * Adds over 10 (dmma_interior): every m16n8k16 becomes two m16n8k8 on the
 * same fragment registers (its a[0..3], b[0..1] are k 0-7, a[4..7],
 * b[2..3] k 8-15), issued k-half by k-half across the four m8 blocks so
 * that an accumulator is reused four DMMAs later rather than at once.  No
 * data movement changes; twice the DMMA instructions for the same FLOPs,
 * each half as long: the bet is that the tensor pipe interleaves the two
 * warps of a scheduler at a finer grain (cuBLAS does not say why it uses
 * this shape).  On the 16-byte copy path only: the 8-byte path (at 255
 * registers already) would spill and runs 09's kernel.
 *
 * Main loop per warp and 16-k tile (VEC, cuobjdump -sass): 161
 * instructions, 32 of them DMMA.16x8x8, the rest as 10's.
 *
 * Profile should show: twice 10's DMMA instruction count for the same
 * FLOPs, the same shared, L2 and DRAM traffic; 248 registers (VEC; 255 on
 * the 8-byte path), 0 spills; pipe-throttle stalls shifted from waiting
 * on one long DMMA to more, shorter ones.
 * Measured (H200, 4096^3, cuBLAS of the same run 61.0-61.3 TFLOP/s; all
 * sizes verified, odd ones included): 55.18 and 55.13 TFLOP/s in two runs
 * (90.4% and 89.9% of cuBLAS; 10 in the same runs: 55.44 / 53.65); 8192^3:
 * 91.1% of cuBLAS's 56.5.  Without the interior copies m16n8k8 alone gave
 * 51.47 / 53.05 (84.3% / 86.5%), with 3 stages 54.13 / 54.36.  So the
 * mean gain over 10 is within noise; what m16n8k8 changed in these runs
 * is the spread between them, which two runs cannot separate from luck.
 */
#include "dgemm_dmma_2blk.cuh"

extern "C" int gp_dgemm_dmma_k8(const gemm_args *a, cudaStream_t s,
                                gp_launch_info *info)
{
    return d2::launch<d2::Variant<d2::Cfg<16, 4, 8>, true, true>>(a, s, info);
}
