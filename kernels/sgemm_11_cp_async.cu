/* sgemm_11_cp_async - rung 10 (warptiling: 128x128x8, 256 threads, 32x64
 * warp tiles of 2x2 4x4 sub-tiles, 2 blocks/SM) with its global->shared
 * staging made asynchronous.  The kernel is in sgemm_async.cuh (shared
 * with rungs 12-14).
 *
 * Adds: a 3-stage cp.async (LDGSTS) pipeline in place of rung 10's
 * register-staged double buffer: the copies go straight from global to
 * shared memory, two tiles in flight behind the one being multiplied, no
 * float4 staging registers and no STS.  A is transposed on the way with
 * 4-byte copies (a warp: 4 rows x 8 k -> 32 distinct banks at stride 132),
 * B goes in 16-byte copies (4-byte when ldb or its base forbid).  Blocks
 * inside C copy full-depth tiles unpredicated; edge blocks and the partial
 * k tile guard each copy and zero-fill what lies outside A or B in the
 * copy itself (src-size 0).  One barrier per k tile.
 *
 * Profile should show: LDGSTS instead of LDG + STS; fewer long-scoreboard
 * stalls than rung 10 (two tiles of latency cover instead of one) and
 * no register staging; ~25 KB dynamic shared per block, 2 blocks/SM;
 * <= 128 registers, no spills; shared stores conflict-free.
 */
#include "sgemm_async.cuh"

extern "C" int gp_sgemm_cp_async(const gemm_args *a, cudaStream_t s,
                                 gp_launch_info *info)
{
    return gp_sgemm_async_launch<8, 3, false, 1>(a, s, info);
}
