/* sgemm_04_smem_conflict - rung 03 with the A tile stored transposed in
 * shared memory at a 32-float stride: a deliberately bad layout.
 *
 * Adds over 03 (smem): nothing useful; it changes the layout of the A tile
 * to AsT[p][row] (word p * 32 + row), as rungs that want to read A down a
 * column of shared memory do.  A warp (fixed ty, lanes tx = 0..31) stores
 * words tx * 32 + ty: all 32 lanes in bank ty, a 32-way bank conflict that
 * serialises every A-tile store into 32 wavefronts.  Reads of AsT are
 * broadcasts and B is untouched, so the stores are the only conflicts.
 * Kernel body shared with 05 (smem_transposed.cuh); only the stride differs.
 *
 * Profile should show:
 *  - shared-store bank conflicts ~31 per A-tile store instruction, i.e.
 *    ~31*MNK/1024 in total (2.1e9 at 4096^3); conflicts/wavefronts for
 *    stores ~31/33 = 0.94 (A store 32 wavefronts + B store 1), for loads ~0.
 *  - global and DRAM traffic identical to 03 and 05 (MNK/4 bytes from L2).
 *  - FLOP/s below 05: per warp and k step the shared pipe handles ~97
 *    wavefronts instead of ~66 (32 A reads + 32 B reads + stores), so up to
 *    about a third slower where the shared pipe is the bound.
 *  - occupancy as 03 (1024 threads, 8 KB shared per block, 2 blocks/SM).
 */
#include "smem_transposed.cuh"

extern "C" int gp_sgemm_smem_conflict(const gemm_args *a, cudaStream_t s,
                                      gp_launch_info *info)
{
    return gp_launch_smem_transposed<32>(a, s, info, "32x32x32/stride32");
}
