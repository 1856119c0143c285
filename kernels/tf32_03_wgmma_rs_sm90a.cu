/* tf32_03_wgmma_rs_sm90a - tf32_wgmma without the transpose pass: compute
 * C^T = B^T A^T, so that each operand reaches the tensor cores in a layout
 * TF32 wgmma accepts.  Built for sm_90a only (see Makefile); the launcher
 * refuses any other GPU with cudaErrorNoKernelImageForDevice.
 *
 * Why: TF32 wgmma takes both operands K-major (no transpose immediates for
 * .tf32).  Row-major A (m x k) is K-major, row-major B (k x n) is not, so
 * tf32_wgmma transposes B into a workspace on every call (a second kernel
 * and an allocation per call).  Swapping the roles fixes both: in
 * D' = C^T (n x m) = B^T (n x k) * A^T (k x m)
 *  - wgmma's B operand is A^T, which must be "K-major": for each of its m
 *    columns the k values contiguous, and that is exactly row-major A.  It
 *    is loaded by TMA as tf32_wgmma loaded Bt (a 256 x 32 box, 128-byte
 *    swizzle) and read by wgmma through the same descriptor;
 *  - wgmma's A operand is B^T, which may come from registers in any
 *    layout: each consumer thread builds its fragments with LDS.64 from the
 *    N-major B tile TMA copied as it lies in global memory (four 32 x 32
 *    boxes, 128-byte swizzle), raw FP32 bits as for A (TF32 truncation).  The
 *    wgmma rows (n) a thread holds are chosen so its two rows g and g+8 are
 *    adjacent columns n, n+1 (one LDS.64 per k) and each half-warp touches
 *    two 16-byte chunks four chunks apart, which the swizzle spreads over
 *    all 32 banks: conflict-free fragment loads.
 * The accumulators hold C transposed: a thread's pair (row g, row g+8) of
 * one D' column is C[m][n..n+1], one 8-byte store.
 *  - Block 256 (m) x 128 (n) x 32 (k), 384 threads: a producer warpgroup
 *    and two consumers, each 64 n x 256 m (m64n256k8, 128 accumulators a
 *    thread), 4 stages of 48 KB, mbarrier full/empty pipeline as in
 *    tf32_wgmma; the fragments of k tile t+1 go to the other half of a
 *    double-buffered register set while tile t's wgmmas run.
 *  - No allocation and no second kernel.  TMA needs 16-byte global strides
 *    and bases; for any other lda/ldb (odd k or n) the producer warpgroup
 *    fills the same swizzled stages with 4-byte cp.async instead (zero
 *    fill at the edges, a stage announced once its copies landed), so
 *    every m, n, k >= 1 runs: correct everywhere, fast where aligned.
 *
 * Prediction (to be checked against cuBLAS TF32 in the same run):
 *  - SASS: HGMMA.64x256x8.F32.TF32 with a register A operand, 8 LDS.64 per
 *    thread per k tile in the consumers, UTMALDG in the producer; no
 *    transpose kernel.
 *  - time ~ tf32_wgmma's GEMM kernel alone, which matched cuBLAS's kernel
 *    (342 vs 344 us at 4096^3 on the H200), plus a little for the LDS
 *    (hidden behind the other warpgroup's wgmma): >= 95% of cuBLAS TF32 at
 *    4096^3 and 8192^3, against tf32_wgmma's 87-90% (the transpose was ~8%
 *    of its time).  Outcome: reports/ladder-notes.md.
 */
#include "tf32_rs.cuh"

extern "C" int gp_tf32_wgmma_rs(const gemm_args *a, cudaStream_t s,
                                gp_launch_info *info)
{
    return rs_gemm<1>(a, false, s, info);
}
