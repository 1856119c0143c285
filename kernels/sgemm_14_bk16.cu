/* sgemm_14_bk16 - rung 13 (3-stage cp.async, cross-tile fragment
 * prefetch, grouped rasterisation) with 16-deep k tiles.
 * Kernel: sgemm_async.cuh with BK = 16.
 *
 * Adds: twice the k per tile, so half the tiles: half the barriers,
 * cp.async waits and commits, loop and address bookkeeping per FFMA
 * (1024 FFMAs per thread between barriers instead of 512), and twice the
 * bytes in flight per stage (three stages now cover 32 k of latency).
 * Per thread and tile: 8 4-byte A copies and 2 16-byte B copies.  The
 * stages grow to 16.6 KB (49.9 KB per block): above the 48 KB default,
 * so the launcher opts in; 2 blocks/SM still fit (100 KB of 228).
 *
 * Profile should show: ~half the barrier (BAR) and LDGSTS-issue overhead
 * instructions per FFMA of rung 13, fewer barrier stalls, same fragment
 * traffic, same registers (+/- a few, the unrolled loop is twice as long),
 * no spills; ~50 KB dynamic shared per block.
 */
#include "sgemm_async.cuh"

extern "C" int gp_sgemm_bk16(const gemm_args *a, cudaStream_t s,
                             gp_launch_info *info)
{
    return gp_sgemm_async_launch<16, 3, true, 16>(a, s, info);
}
