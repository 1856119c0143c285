/* sgemm_07_blocktile_2d - 2D register blocking: 128x128x8 block tile, 8x8
 * outputs per thread, 256 threads (the template is in blocktile_2d.cuh).
 *
 * Adds over 1D blocktiling: each thread owns an 8x8 tile of C instead of a
 * column of 8, so per k step it loads 8 values of A and 8 of B from shared
 * memory and does 64 FMAs (an outer product): 4 FMAs per shared load
 * instead of ~1, and each element of the smem tiles is reused 8x by a thread.
 * Loads are still scalar and A is stored in smem as in global memory.
 * Profile should show: FFMA-dominated instruction mix, shared-memory load
 * wavefronts per FMA down sharply from the 1D rung, global loads of A poorly
 * coalesced (a warp reads 4 rows x 32 bytes), 128 registers (64
 * accumulators; launch bounds ask for 2 blocks/SM), no spills, 8 KiB smem
 * per block.
 */
#include "blocktile_2d.cuh"

extern "C" int gp_sgemm_blocktile_2d(const gemm_args *a, cudaStream_t s,
                                     gp_launch_info *info)
{
    return gp_blocktile_2d_launch<128, 128, 8, 8, 8>(a, s, info);
}
