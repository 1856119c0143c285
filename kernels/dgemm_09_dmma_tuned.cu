/* dgemm_09_dmma_tuned - FP64 tensor cores (m16n8k16 DMMA) in cuBLAS's
 * shape: two independent 4-warp blocks per SM instead of one of 8 warps.
 * The kernel is in dgemm_dmma_2blk.cuh (templated on BK, stages and block
 * rasterisation); its header explains the fragment layout.
 *
 * Adds over 07 (dmma_k16, 128x128x16, 8 warps, 1 block/SM):
 *  - 64x128 block tile of four 32x64 warp tiles, 128 threads, <= 255
 *    registers and 99 KB of shared memory: 2 blocks per SM.  Each block's
 *    barrier stalls only its own 4 warps; the other block's 4 keep the
 *    tensor pipe fed (cuBLAS's sm90 DGEMM: 128x64x16 tile in its
 *    column-major terms, 4 warps of 64x32, 3 stages, 2 blocks/SM).
 *  - LDS.128 fragments in operand order: each warp computes C^T = B^T A^T,
 *    so the MMA's A operand (from Bs[k][n]) and B operand (from As[m][k],
 *    k permuted identically on both sides) are pairs of adjacent slots:
 *    24 LDS.128 per k16 step instead of 48 LDS.64, no bank conflicts (B
 *    rows padded to 130, A 16-byte units XOR-swizzled by row parity).
 *  - fragments software-pipelined at n16 granularity, one barrier per tile
 *    placed before the tile's last 4 MMAs, the next tile's first fragments
 *    loaded right after it.
 *  - 4 stages of BK = 16 (cp.async, zero fill at the edges), the copies
 *    interleaved 3 per n16 block with the MMAs, their addressing hoisted
 *    out of the loop: 229 instructions per warp and 16-k tile (16 DMMA,
 *    36 LDS.128, 12 LDGSTS, 40 NOP pads) where the first version of this
 *    rung (128x128x32, 8 warps, 1 block/SM) had 407 per 16 k.
 *  - blocks rasterised in groups of 8 tile rows, for L2 reuse at 8192.
 *
 * Measured first version (H200, 4096^3): 50.5 TFLOP/s, 83% of cuBLAS;
 * SM busy 76% vs cuBLAS 95%, 1 block of 8 warps/SM, stalls per issued
 * instruction wait 2.95, pipe throttle 2.03, short scoreboard 1.87 (the
 * fragment refill after each barrier), barrier 0.32.
 *
 * Profile should show: 2 blocks = 8 warps/SM, ~99 KB shared memory per
 * block, 222 registers (255 on the 8-byte path), 0 spills; the same DMMA
 * count and shared load wavefronts as 07, all LDS.128, ~0 bank conflicts;
 * short scoreboard and barrier stalls well below the first version's, the
 * stall profile dominated by pipe throttle and wait, as cuBLAS's.
 * Predicted at 4096^3 on H200: 54-58 TFLOP/s (89-95% of cuBLAS's 60.9).
 * Measured (H200, same-run cuBLAS; reports/dgemm-notes.md): 2 blocks/SM
 * took 4096^3 from 50.2 to 51.1-53.9 TFLOP/s (84-88% of cuBLAS, run to
 * run: the SM clock sampled under this load moves between 1.6 and 1.98
 * GHz); group-8 rasterisation adds nothing at 4096 and takes 8192^3 from
 * 84% to 89%.  3 stages instead of 4, groups of 2, 4 or 16: within noise.
 */
#include "dgemm_dmma_2blk.cuh"

extern "C" int gp_dgemm_dmma_tuned(const gemm_args *a, cudaStream_t s,
                                   gp_launch_info *info)
{
    return d2::launch<d2::Cfg<16, 4, 8>>(a, s, info);
}
