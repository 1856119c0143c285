/* dgemm_06_dmma - FP64 tensor cores: mma.sync.m8n8k4.f64 (DMMA), the
 * instruction cuBLAS DGEMM's speed comes from on A100/H100/H200.  The
 * kernel is in dgemm_dmma.cuh (shared with rung 07).
 *
 * Adds over 05 (double_buffer): the products move from the DFMA pipe to
 * the tensor cores (one warp instruction = 256 FP64 FMAs), the unit of
 * work becomes the warp (64x32 of C per warp, 8x4 tiles of 8x8), and the
 * staging becomes asynchronous (cp.async, 3 stages, zero fill in the
 * copy itself).  With twice the FP64 rate behind it, the kernel needs
 * twice the operand supply: a 64x32 warp tile reads 12 fragment LDS.64
 * (24 wavefronts) per 32 MMAs of one k chunk, 37% of the shared
 * bandwidth at full tensor rate, and 128x128 block tiles keep L2 traffic
 * near 3.4 TB/s at 55 TFLOP/s.
 *
 * Profile should show:
 *  - no DFMA in the main loop; tensor (DMMA) pipe the busiest unit;
 *    FLOP count only from the DMMA counters (the DFMA-based FLOP counters
 *    read ~0: compare by time, 2mnk/t).
 *  - shared: fragment loads conflict-free (see dgemm_dmma.cuh), cp.async
 *    stores 4 wavefronts per warp copy; ~110 KB dynamic shared per block.
 *  - one block of 8 warps per SM (~200 registers, no spills).
 *  - expected at 4096^3 on H200: 40-50 TFLOP/s if m8n8k4 issues at the full
 *    Hopper DMMA rate (70-85% of cuBLAS's 59 TFLOP/s); if sm_90 runs the
 *    A100-era shape at half rate it caps near 33 TFLOP/s, and rung 07
 *    (m16n8k16, the sm_90 shape, same kernel) shows the difference.
 */
#include "dgemm_dmma.cuh"

extern "C" int gp_dgemm_dmma(const gemm_args *a, cudaStream_t s,
                             gp_launch_info *info)
{
    return gp_dmma_launch<884>(a, s, info);
}
