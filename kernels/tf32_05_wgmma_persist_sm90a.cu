/* tf32_05_wgmma_persist_sm90a - tf32_wgmma_mc on a persistent grid: only
 * as many 2-block clusters as the GPU holds at once (66 on a 132-SM H100),
 * each looping over tiles.  Built for sm_90a only.
 *
 * Why: cuBLAS's TF32 kernel for this layout (sm90_xmma_gemm_..._nn_n_
 * tilesize128x256x32_warpgroupsize2x1x1, the same tile and the same
 * register-sourced operand; its SASS read with cuobjdump on the H100) is
 * launched as a (66, 2, 1) grid of 384 threads, i.e. one block per SM that
 * walks the tiles, with TMA multicast.  tf32_wgmma_rs/_mc launch a block
 * per tile instead, and under ncu's base-clock lock took 2.9% / 4.4% more
 * time than cuBLAS at 4096^3 (0.3% / 1.3% at 8192^3, reports/data/h100/
 * tf32-bench/ncu-c166d72/).  Per tile, a non-persistent block pays what
 * the mainloop does not hide: block launch, barrier init, tensor-map
 * prefetch, filling 4 stages from L2/DRAM before the first wgmma, and the
 * C stores at the end, during which the SM's tensor cores are idle.  At
 * 4096^3 a tile is 128 k steps, ~90 us, and there are ~3.9 per SM.
 *  - Same kernel as tf32_wgmma_mc (tf32_rs.cuh): every block already walks
 *    a list of cluster tiles (ct, ct + G, ...), with stages numbered across
 *    tiles, so the producer fills the next tile's stages while the
 *    consumers store this tile's C; only the grid differs (G = the clusters
 *    cudaOccupancyMaxActiveClusters allows, asked once per device).
 *  - Tile order unchanged: the G clusters working at one time take G
 *    consecutive cluster tiles, the same set a wave of tf32_wgmma_mc runs.
 *  - Strides TMA cannot take: the cp.async producer, a block per tile.
 *
 * Prediction: at 4096^3 the time of tf32_wgmma_mc less the fill and the
 * launch per tile, ~1-2%: within 1% of cuBLAS's cycles under the clock
 * lock, and >= 95% of cuBLAS TF32 with the clock free at 4096^3 and
 * 8192^3 (mc: 94.1-95.5% / 92.7-96%).  Energy per GEMM down by about the
 * idle time removed (~1%).
 *
 * Outcome (H100 and H200, 4 runs of 4-6 rounds; reports/ladder-notes.md):
 *  - cycles under the clock lock: 97.6% of cuBLAS at 4096^3, 98.4% at
 *    8192^3 (mc 95.3 / 97.6): half the gap, not within 1%;
 *  - sustained (--energy) >= 95% in every run: 95.2-95.9% at 4096^3,
 *    96.0-96.6% at 8192^3.  20-launch bursts straddle 95: at 4096^3
 *    95.5/95.6 (H100) and 93.1/94.3 (H200);
 *  - joules per GEMM +2.9 to +4.7% over cuBLAS, no consistent saving on mc;
 *  - with 1-block clusters (no multicast) worse than mc: 93.6-93.7%.
 */
#include "tf32_rs.cuh"

#ifndef GP_PERSIST_CL /* blocks per cluster (an experiment may build 1) */
#define GP_PERSIST_CL 2
#endif

extern "C" int gp_tf32_wgmma_persist(const gemm_args *a, cudaStream_t s,
                                     gp_launch_info *info)
{
    return rs_gemm<GP_PERSIST_CL>(a, true, s, info);
}
