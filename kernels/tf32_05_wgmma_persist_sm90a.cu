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
 * Outcome (H100 and H200; reports/ladder-notes.md):
 *  - cycles under the clock lock: 97.6% of cuBLAS at 4096^3, 98.4% at
 *    8192^3 (mc 95.3 / 97.6): half the gap, not within 1%;
 *  - clock free, scripts/bench.sh (--interleave: % of cuBLAS TF32 from
 *    launches alternated with its own), six runs of 10 rounds at 20afa59:
 *    96.5-96.7% at 4096^3 (60/60 rounds >= 95), 98.2-98.6% at 8192^3
 *    (59/60), 97.2-98.8% at 2048^3; sustained (--energy 1.5) 95.4-96.0% /
 *    95.7-97.2%.  Session 4's bursts below 95 were the run order (each
 *    burst after the previous kernel's energy window) and, at 8192^3,
 *    bursts that cross the power cap partway;
 *  - at full clock (the fastest launch of each) 8192^3 is 95.5-96.2% on the
 *    H100 and 94.5-95.1% on the H200: the rest of the gap is there;
 *  - joules per GEMM +2.2 to +5.0% over cuBLAS, no consistent saving on mc;
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
