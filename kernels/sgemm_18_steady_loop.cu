/* sgemm_18_steady_loop - rung 15's kernel (128x256x8 tile, 3 stages, one
 * block per SM) with its k loop scheduled as written: no branch in the body
 * of an interior block's loop, and ptxas at -O1 (the Makefile's line for
 * this file), which keeps each instruction about where the source puts it.
 * Kernel: sgemm_async.cuh with STEADY = 4, T = Tile<128, 256, 2, 4, 1>.
 *
 * Why (H100, ncu and SASS, reports/data/h100/experiments/steady-loop/):
 * rung 15 issues 2.35 cycles per instruction to cuBLAS's 2.21.  Its loop
 * opens each tile with two ISETP -> BRA pairs (36 cycles of fixed stalls
 * that both warps of a scheduler meet together after the barrier: the
 * 0.09 "wait" stall per issue, cuBLAS 0.01), and ptxas -O3 places the
 * fragment loads 31-143 instructions before their use, cuBLAS's SASS
 * 130-246.
 *   - The steady loop alone, at -O3: ptxas moved the loads closer still
 *     (about 40 instructions) and the loop ran at 90.9-94.7% of cuBLAS,
 *     from rung 15's 97.6%.
 *   - -O1 alone: the loads 118-230 ahead, 98.5%.
 *   - Both: the loop is 1122 instructions with 1139 cycles of fixed stalls
 *     a tile (cuBLAS: 1154 and 1161), no branch but the back edge, loads
 *     51-190 ahead.
 *
 * How: an interior block whose k tiles are all full, and more than two,
 * runs the steady copy of the loop.  Each tile issues the tile two ahead
 * through the unpredicated fast path at k step 4 (half a tile of latency
 * less than at the top, which the third stage covers), and the copy
 * pointers stop at the last tile, so the last two tiles copy it again into
 * stages nothing reads any more.  Edge blocks and a partial last tile run
 * rung 15's loop.  231-235 registers (rung 15: 211-214), no spills.
 *
 * Measured before this file existed (the same code as an experiment, 1 x
 * H100, 4 interleaved rounds): 101.57% of cuBLAS at 4096^3 and 101.66% at
 * 8192^3, 2.25 cycles per issued instruction, issue slots 88.8% busy.
 * Prediction for 10 rounds: >= 101% on the H100; on the H200, where
 * rung 15 runs as fast as on the H100 and cuBLAS's kernel about 1% slower,
 * >= 102%.  Profile: rung 15's FFMA count exactly; ~0.3% more
 * instructions (the two extra tile copies per block, the copy at k step 4
 * unpredicated); the wait stall gone; 2 x BM x BK + 2 x BK x BN more bytes
 * from L2 per block.
 */
#include "sgemm_async.cuh"

extern "C" int gp_sgemm_steady_loop(const gemm_args *a, cudaStream_t s, gp_launch_info *info)
{
    return gp_sgemm_async_launch<8, 3, true, 16, gp_async::Tile<128, 256, 2, 4, 1>, 4>(
        a, s, info, "/steady4/O1");
}
