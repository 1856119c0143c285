/* sgemm_13_swizzle - rung 12 (3-stage cp.async, fragments prefetched
 * across tiles) with the blocks rasterised in groups for L2 reuse.
 * Kernel: sgemm_async.cuh with GROUP = 16.
 *
 * Adds: block b no longer takes C tile (b / ntn, b % ntn).  Consecutive
 * blocks walk 16 tile rows column by column, so the ~264 blocks resident
 * on an H200 (132 SMs x 2) cover a ~16 x 17 patch of C and read 16 A
 * panels and ~17 B panels per k tile, instead of a 4 x 64 strip reading
 * 4 + 64 panels at 8192^3 (at 4096^3, ntn = 32: 8 x 32 -> 16 x 17; at
 * 2048^3 all 256 blocks are resident at once and the order cannot
 * matter).  The same tiles, the same work per block.
 *
 * Profile should show: identical instruction counts, registers and shared
 * memory to rung 12, and the same L2 -> SM bytes (every block still reads
 * its own panels); a higher L2 hit rate and fewer DRAM bytes read
 * (dram__bytes_read) at 8192^3, less so at 4096^3, no change at 2048^3.
 */
#include "sgemm_async.cuh"

extern "C" int gp_sgemm_swizzle(const gemm_args *a, cudaStream_t s,
                                gp_launch_info *info)
{
    return gp_sgemm_async_launch<8, 3, true, 16>(a, s, info);
}
