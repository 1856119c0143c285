/* sgemm_12_frag_prefetch - rung 11 (3-stage cp.async, 128x128x8 warp
 * tiling) with the register double buffering of fragments carried across
 * the k-tile boundary.  Kernel: sgemm_async.cuh with XTILE on.
 *
 * Rungs 09-11 already load step kk+1's fragments while issuing step kk's
 * FFMAs, but only inside a tile: each tile starts with a barrier and then
 * fragment loads that the first 64 FFMAs wait for (an exposed LDS latency,
 * ~30 cycles, every 512 FFMAs).  Here the barrier moves to the last k step
 * of a tile: wait for tile t+1, synchronise, load its first fragments,
 * then issue step BK-1's FFMAs while they arrive.  Still one barrier per
 * tile; the copies of tile t+2 are issued at the start of tile t+1, after
 * the barrier that every read of their stage precedes.
 *
 * Profile should show: the same instruction mix as rung 11 (same counts of
 * LDS.128, LDGSTS, FFMA), fewer short-scoreboard (shared load) stalls at
 * the top of the tile loop, same registers (+/- a few), no spills.
 */
#include "sgemm_async.cuh"

extern "C" int gp_sgemm_frag_prefetch(const gemm_args *a, cudaStream_t s,
                                      gp_launch_info *info)
{
    return gp_sgemm_async_launch<8, 3, true, 1>(a, s, info);
}
