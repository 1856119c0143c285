/* sgemm_05_smem_padded - rung 04 with the transposed A tile padded to a
 * 33-float stride: the same layout, conflict-free.
 *
 * Adds over 04 (smem_conflict): one float of padding per row of the
 * transposed tile.  Lane tx now stores word tx * 33 + ty, bank
 * (tx + ty) % 32: 32 distinct banks, one wavefront per store.  This is the
 * classic fix; the kernel body is 04's (smem_transposed.cuh), only the
 * stride template argument differs, so 04 vs 05 isolates bank conflicts.
 *
 * Profile should show:
 *  - shared-store conflicts/wavefronts near zero (Hopper's counter reports
 *    noise even here: 12.8% on a padded 32x33 tile, docs/cupti.md; compare
 *    with 04's ~0.94, not with zero); load conflicts ~0.
 *  - global and DRAM traffic identical to 03 and 04.
 *  - FLOP/s above 04.  Not above 03: the transposed A tile is read one
 *    scalar at a time (stride 33 forbids LDS.128), where 03 could read its
 *    contiguous A row four floats at a time.  This rung exists to show the
 *    conflict counters, not to be faster than 03.
 *  - 8.25 KB shared per block; occupancy as 03.
 */
#include "smem_transposed.cuh"

extern "C" int gp_sgemm_smem_padded(const gemm_args *a, cudaStream_t s,
                                    gp_launch_info *info)
{
    return gp_launch_smem_transposed<33>(a, s, info, "32x32x32/stride33");
}
