/* tf32_04_wgmma_mc_sm90a - tf32_wgmma_rs in clusters of two blocks that
 * share the A tile: each loads half of it and TMA multicasts that half into
 * both blocks' shared memory.  Built for sm_90a only.
 *
 * Why: per k tile a block reads 48 KB from L2 (A 32 KB, B 16 KB) for 2.1
 * MFLOP; at 400 TFLOP/s that is ~9 TB/s of L2 -> SM traffic for the whole
 * GPU, near what Hopper's L2 gives (tf32_wgmma's header).  Measured at
 * 4096^3 on the H100 (ncu): tf32_wgmma_rs reads 2.72 GB from L2 against
 * cuBLAS TF32's 2.37 GB, and at 8192^3, where the H100 power-limits (its
 * sampled clock ran 1530-1980 MHz), tf32_wgmma_rs fell to a median 91% of
 * cuBLAS.  The two blocks of a cluster compute neighbouring tiles of one
 * block row, so they need the same A tile: multicast halves its L2 reads,
 * a third of the block's L2 traffic.
 *  - Cluster 2x1 (cudaLaunchKernelEx), blocks 2c and 2c+1 take tiles
 *    (bm, 2j) and (bm, 2j+1).  Each producer loads 128 of the 256 A rows
 *    with .multicast::cluster to both blocks, and its own B boxes; a
 *    stage's full barrier expects all 48 KB, whoever sent them.
 *  - A stage is rewritten only when the consumers of both blocks released
 *    it: each consumer warp arrives on the empty barrier of both blocks
 *    (mapa + mbarrier.arrive.shared::cluster at the default .release.cta
 *    semantics, as CUTLASS's cluster barrier arrives; with .release.cluster
 *    the rung ran 2x slower on the H100), so empty counts 16.
 *  - Barrier inits are published with a cluster barrier before any remote
 *    arrive or multicast, and no block exits before the other is done
 *    with its shared memory (cluster barrier at the end).
 *  - Strides TMA cannot take: the cp.async producer, no cluster.
 *
 * Prediction: L2 bytes down about a third (2.72 -> ~1.9 GB at 4096^3);
 * time at 4096^3 within 1% of tf32_wgmma_rs (not L2-bound there); at
 * 8192^3 a few % better than tf32_wgmma_rs: less data moved for the same
 * work under the power limit.  Outcome: reports/ladder-notes.md.
 */
#include "tf32_rs.cuh"

extern "C" int gp_tf32_wgmma_mc(const gemm_args *a, cudaStream_t s,
                                gp_launch_info *info)
{
    return rs_gemm<2>(a, false, s, info);
}
