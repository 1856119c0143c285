/* dgemm_08_warptiling - DFMA on CUDA cores with warp tiles whose fragment
 * loads cost the minimum shared-memory return bandwidth, fed by a 3-stage
 * cp.async pipeline, two blocks per SM.  The kernel is in
 * dgemm_dfma_warptile.cuh (templated on BK and the stage count).
 *
 * Adds over 05 (double_buffer): the data path, not the arithmetic.  05 is
 * capped by how its 8 warps/SM wait, and on H100/H200 DFMA runs at 64
 * lanes/clk/SM, twice A100's, against the same 128 B/clk of shared-memory
 * return.  A warp LDS.128 returns 4 registers per lane = 4 wavefronts;
 * only when lanes n and n^1 (or n and n^2) read the same address are the
 * returns packed into 2.  (The H200 reference data fit this exactly: 05
 * and sgemm warptiling average 3 wavefronts per LDS.128, 2 for their
 * paired A loads and 4 for their unpaired B loads.)  So what a DFMA kernel
 * needs per k step is fragments where EVERY LDS.128 is paired:
 *  - lane tile 8x8 doubles (4 row pairs x 4 column pairs): 8 LDS.128 per
 *    64 DFMA.  A 8x4 tile would need 6 per 32 DFMA, 75% of the shared
 *    return at full DFMA rate even when paired (150% unpaired).
 *  - warp tile 32x64: lanes 4 rows x 8 columns, the row index made of lane
 *    bits 1 and 4 and the column index of bits 0, 2 and 3.  A fragments do
 *    not depend on bit 0 (lanes n, n^1 share them), B fragments not on bit
 *    1 (n, n^2 share them): 2 wavefronts each, 16 per 64 DFMA = 50% of the
 *    shared return at the DFMA ceiling; 4 distinct A pairs (64 B) and 8
 *    distinct B pairs (128 B) are contiguous, so no bank conflicts.
 *  - block 64x128 of 4 warps, 128 threads, __launch_bounds__(128, 2): the
 *    64 accumulators + two sets of fragments (k and k+1, register double
 *    buffer) fit the 255 registers of two blocks/SM, and two independent
 *    blocks overlap each other's barriers (05 has one block, all 8 warps
 *    in phase).
 *  - cp.async, 3 stages of BK = 16: no staging registers and no STS waiting
 *    on an LDG.  A is transposed into As[k][m] (stride 66 = 2 mod 16, 16 B
 *    aligned rows) with 8-byte copies, a warp copying 4 rows x 8 k: bank
 *    pair (2k + m) mod 16 distinct in each half-warp, so the transposing
 *    stores are conflict-free; B goes as is with 16-byte copies (8-byte
 *    ones when ldb is odd or B is not 16-byte aligned).  Copies past the
 *    edges zero-fill.  One barrier per 16 k steps; a thread's 16 copies
 *    of tile kt+2 issue one per k step between the DFMAs (as a block
 *    after the barrier they cost ~330 instructions of a stalled warp),
 *    their addressing hoisted out of the k loop: 4 A row pointers and a
 *    B pointer per thread, advanced once per tile; the m and n edges are
 *    fixed per thread, so a copy is a compare against the k left, a
 *    select and the LDGSTS.
 *  - double2 epilogue stores when ldc is even and C 16-byte aligned.
 *
 * Second iteration.  Measured first version (H200, 4096^3): 22.5 TFLOP/s,
 * 67% of the DFMA ceiling; issue slots 50% busy with ~2 warps/scheduler,
 * 0.86 eligible; stalls per issued instruction: pipe throttle 0.89, wait
 * 0.72 (the fixed issue spacing ptxas gives DFMAs), not selected 0.67,
 * dispatch 0.40, barrier 0.03, short scoreboard 0.02.  Not barrier or
 * load bound then: a scheduler has two warps, and the DFMA pipe idles when
 * both are in the non-DFMA part of their stream.  That part was 351 of the
 * 1548 instructions of a warp's 16-k tile (~200 of them copy addressing);
 * hoisting it leaves 1345 (1024 DFMA, 128 LDS.128 + 45 placeholder slots,
 * 16 LDGSTS, ~130 other), control-code stall sum 2289 -> 2161 cycles.
 *
 * Profile should show: vs the first version 13% fewer instructions, 76%
 * of them DFMA (was 66%), the same shared wavefronts (2 per LDS.128, ~537M
 * at 4096^3, ~0 bank conflicts), 240 registers, 0 spills, 2 blocks = 8
 * warps/SM; fewer 'not selected' and 'dispatch' stalls, DFMA pipe busier.
 * Predicted at 4096^3 on H200: 24-27 TFLOP/s (72-80% of the 33.4 DFMA
 * ceiling).  Measured (same run): 23.8 TFLOP/s, 71% (first version 22.1);
 * 4 stages 23.8, BK 32 x 2 stages 24.3 (within run-to-run noise).  85% needs more warps per scheduler, which an 8x8 lane tile
 * (128 accumulator registers) does not allow at 2 blocks/SM.
 */
#include "dgemm_dfma_warptile.cuh"

extern "C" int gp_dgemm_warptiling(const gemm_args *a, cudaStream_t s,
                                   gp_launch_info *info)
{
    return dw::launch<dw::Cfg<16, 3>>(a, s, info);
}
