/* sgemm_15_wide_tile - rung 13 (128x128x8, 3-stage cp.async, cross-tile
 * fragment prefetch, group-16 rasterisation) with a tile twice as wide:
 * 128x256 per block, 8x16 outputs per thread, one block per SM.
 * Kernel: sgemm_async.cuh with BK = 8, 3 stages, T = Tile<128, 256, 2, 4, 1>.
 *
 * Why BK = 8 and not rung 14's 16: measured on the H200 (4096^3, same
 * run), the wide tile gave 90.7% of cuBLAS at BK 16 / 3 stages, 93.1% at
 * BK 32, and 98.1% at BK 8 / 3 stages (4 stages: 93.2%, 5: 94.7%, 6:
 * 96.1%; group 8 or 32 instead of 16: no change; without the cross-tile
 * fragment prefetch: 83.4%).  reports/ladder-notes.md has the table.
 *
 * Adds: each lane holds 2x4 sub-tiles of 4x4 (8 rows x 16 columns)
 * instead of 2x2, a warp 32x128 instead of 32x64 (same 4x8 lane grid,
 * so every fragment LDS.128 is still one broadcast A row of 64 bytes or
 * 128 contiguous B bytes).  Per k step a lane loads 2 + 4 float4 for 128
 * FFMAs instead of 2 + 2 for 64: 3/64 shared loads per FFMA instead of
 * 4/64 (-25%).  The block reads 128 A rows and 256 B columns per k: 3/128
 * of a byte per FLOP from L2 instead of 4/128.  Per thread and tile: 4
 * 4-byte A copies and 2 16-byte B copies.  The price: 128
 * accumulators and 48 fragment registers need ~200 registers, so
 * __launch_bounds__(256, 1): one block (8 warps, 2 per scheduler) per SM,
 * as cuBLAS runs; latency is hidden by the pipeline and the independent
 * FFMAs of one thread rather than by a second block.  Stages: 12 416 B
 * each, 37 248 B per block.
 *
 * Profile should show: achieved occupancy ~12.5% (8 of 64 warps), 1
 * block/SM; 211 registers (230 with 4-byte B copies), no spills;
 * shared-load wavefronts per FFMA ~3/4 of rung 13's (same FFMA count, 25%
 * fewer LDS.128); L2->SM bytes ~3/4 of rung 13's (cuBLAS-like); a
 * larger share of barrier stalls (no second block fills the wait) unless
 * the FFMA stream hides them; 512 blocks at 4096^3 (3.9 waves of 132).
 */
#include "sgemm_async.cuh"

extern "C" int gp_sgemm_wide_tile(const gemm_args *a, cudaStream_t s,
                                  gp_launch_info *info)
{
    return gp_sgemm_async_launch<8, 3, true, 16, gp_async::Tile<128, 256, 2, 4, 1>>(a, s, info);
}
