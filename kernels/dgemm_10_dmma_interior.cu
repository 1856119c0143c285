/* dgemm_10_dmma_interior - dgemm_dmma_tuned whose interior blocks copy
 * whole tiles with unchecked cp.async.
 * The kernel is dgemm_dmma_2blk.cuh's with its INTERIOR switch on.
 *
 * Adds over 09 (dmma_tuned): nothing in the data movement, only fewer
 * instructions around the DMMAs.  09 copies every tile through the edge
 * checks (row count, k left, column bytes: a select and a byte-count
 * operand per cp.async), so that one loop serves every block and every
 * tile.  Here a block whose 64x128 tile lies inside m and n runs the k
 * tiles whose copied tile ends inside k through a second loop whose
 * copies carry no size operand; edge blocks and the last S-1 tiles keep
 * the checked loop.  With 2 warps per scheduler, each sub-partition's
 * tensor pipe idles whenever both its warps are issuing something else,
 * so non-DMMA instructions cost time even though none of them is slow.
 * On the 16-byte copy path only (even lda/ldb, aligned A/B); the 8-byte
 * path is 09's kernel.  Main loop per warp and 16-k tile (VEC, cuobjdump
 * -sass): 149 instructions (16 DMMA, 24 LDS.128, 12 LDGSTS, 37 other, 58
 * NOP and @!PT LDS pads) where 09's has 233 (126 other, 53 pads): 4.7
 * non-DMMA instructions per DMMA instead of 10.3, pads aside.
 *
 * Profile should show: the same DMMA count, shared wavefronts, L2 and
 * DRAM traffic as 09; ~9 issued instructions per DMMA instead of ~14
 * (pads included); 238 registers (VEC; 255 on the 8-byte path), 0
 * spills; fewer "not selected" and "dispatch" stalls, pipe throttle a
 * larger share.
 * Measured (H200, 4096^3, cuBLAS of the same run 61.0-61.3 TFLOP/s; all
 * sizes verified, odd ones included): 55.44 and 53.65 TFLOP/s in two runs
 * (90.8% and 87.5% of cuBLAS; 09 in the same runs: 53.61 / 51.73, 87.9% /
 * 84.3%); 8192^3: 91.5% of cuBLAS's 56.5 (09: 88.6%).
 */
#include "dgemm_dmma_2blk.cuh"

extern "C" int gp_dgemm_dmma_interior(const gemm_args *a, cudaStream_t s,
                                      gp_launch_info *info)
{
    return d2::launch<d2::Variant<d2::Cfg<16, 4, 8>, false, true>>(a, s, info);
}
