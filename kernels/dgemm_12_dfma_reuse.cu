/* dgemm_12_dfma_reuse - dgemm_warptiling (08) with its 8x8 outer product
 * walked as a snake (odd rows right to left): one idea, the DFMA operand
 * reuse cache.
 *
 * Why.  Measured on the H200 (probes/experiments/dfma_issue.cu,
 * reports/data/h200/experiments/dfma-issue.txt): a DFMA whose three 64-bit
 * operands all come from the register file issues at 2/3 of the FP64 pipe
 * rate (x = fma(y, z, x) chains: 65% of the probe's ceiling, at 2 and at
 * 16 warps per scheduler), while one that reads an operand from the reuse
 * cache runs at the full rate (the probe's own chains: 100%).  The register
 * file reads two 64-bit operands per 2-cycle DFMA slot; the third must come
 * from the cache.  ptxas sets the .reuse flags, but only where consecutive
 * DFMAs share a register in the same operand slot.  With rows walked left
 * to right, a row's first DFMA shares nothing with the previous row's last
 * one (new A value, B column 0 after column 7); walking odd rows backwards
 * makes it share the B value.  ptxas's yield hint, every ~8 instructions,
 * still drops the cache once per 8 DFMAs.
 *
 * Counted in the SASS of the main loop (probes/experiments/sass_reuse.py
 * on cuobjdump output, per warp and 16-k tile, VEC path): 08 has 356 of
 * 1024 DFMAs with three register-file operands, 12 has 243.  Bound at 2
 * cycles per DFMA, 3 with no cached operand: 85.2% -> 89.4% of the pipe
 * (79.7% -> 82.0% if any other instruction in between clears the cache),
 * before the copy, barrier and wave costs 08 already pays.
 *
 * Profile should show: the same instruction mix, shared wavefronts and
 * occupancy as 08 (236-238 registers, 0 spills); the FP64 pipe busier.
 * Measured (H200, 4096^3, 5 rounds in one run, reports/data/h200/
 * experiments/fp64-rounds-4096/): 24.63-25.24 TFLOP/s against 08's
 * 23.80-24.11, +2.7% at the median; ncu: FP64 pipe 75.2% -> 78.5% of peak,
 * issue slots 49.5% -> 51.7%.  Still 75% of the FMA ceiling: the loop
 * skeleton alone (fragment loads + barrier, no global traffic) reaches
 * only 84.3% with this order (dfma-issue.txt).
 */
#include "dgemm_dfma_warptile.cuh"

extern "C" int gp_dgemm_dfma_reuse(const gemm_args *a, cudaStream_t s,
                                   gp_launch_info *info)
{
    return dw::launch<dw::Cfg<16, 3, true>>(a, s, info);
}
