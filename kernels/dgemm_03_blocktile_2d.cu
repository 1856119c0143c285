/* dgemm_03_blocktile_2d - 2D register blocking: each thread computes an
 * 8x8 tile of C (the kernel is in dgemm_blocktile.cuh, shared with the
 * block-size sweep).
 *
 * Adds over 02 (smem): a 128x128 tile of C per block of 256 threads, k
 * walked in steps of BK = 8; per p each thread loads 8 A and 8 B values
 * from shared memory and does 64 DFMAs with them.  FP64 needs this more
 * than FP32: a DFMA consumes 16 bytes of operands, so at one shared load
 * per DFMA (rung 02) the shared pipe saturates at <20% of the DFMA rate.
 *
 * Why 128x128x8/8x8: 8x8 is the smallest thread tile whose shared traffic
 * (16 LDS.64 per 64 DFMA) stays well under the shared-memory bandwidth at
 * full DFMA rate; 64 FP64 accumulators are 128 registers, so 256 threads
 * (~200 registers each) fill most of the register file and one block runs
 * per SM.  128x128 halves global traffic per FLOP against 64x64.
 *
 * Profile should show:
 *  - DFMA count m*n*k; shared loads per DFMA 0.25 (LDS.64, A broadcast to
 *    each 16-lane half, B 16 consecutive doubles): no bank conflicts.
 *  - global: each block reads its 128xK A and Kx128 B panels once: 8*MNK/64
 *    bytes from L2 (8.6 GB at 4096^3), a quarter of rung 02's.
 *  - one block (8 warps) per SM, ~200 registers, no spills, 17 KB shared.
 *  - stalls at the two barriers per k step: with one block per SM nothing
 *    hides the global-load latency of the next tile (rung 05 fixes that).
 *  - expect ~20-25 TFLOP/s on H100/H200 at 4096^3 (60-75% of the DFMA
 *    ceiling).
 */
#include "dgemm_blocktile.cuh"

extern "C" int gp_dgemm_blocktile_2d(const gemm_args *a, cudaStream_t s,
                                     gp_launch_info *info)
{
    return gp_dgemm_blocktile_launch<128, 128, 8, 8, 8>(a, s, info);
}
