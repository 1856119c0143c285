/* dgemm_07_dmma_k16 - rung 06 issuing mma.sync.m16n8k16.f64, the FP64 MMA
 * shape added for sm_90 (PTX 7.8), instead of m8n8k4.
 *
 * Adds over 06 (dmma): nothing but the instruction.  The fragments are
 * the same registers (one m16n8k16 = two m8n8k4 row blocks x four k
 * chunks, see dgemm_ptx.cuh), so the data movement, tiles and pipeline
 * are identical and any difference in time is the instruction shape:
 * one MMA per 16x8x16 instead of eight, and whatever rate Hopper's tensor
 * cores give the larger shape.  Built for an arch below sm_90, the
 * instruction falls back to the eight m8n8k4 and this rung equals 06.
 *
 * Profile should show: 1/8 of rung 06's MMA instruction count for the
 * same FLOPs, the same shared and global traffic, similar registers; the
 * expectation for cuBLAS-class speed on Hopper rests on this rung (cuBLAS
 * DGEMM ~59 TFLOP/s on H200; goal >= 90% of it).
 */
#include "dgemm_dmma.cuh"

extern "C" int gp_dgemm_dmma_k16(const gemm_args *a, cudaStream_t s,
                                 gp_launch_info *info)
{
    return gp_dmma_launch<16816>(a, s, info);
}
