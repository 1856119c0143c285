/* specimen_spill_uint - the fixed half of the register-spill specimen (see
 * specimen_spill.cuh): the same double-buffered SGEMM with the descriptor's
 * four fields as unsigned int.  Fits the 128-register cap without spilling
 * (nvcc 13.0, sm_90: 128 registers, 0 B spill).
 *
 * Profile should show: spill_store_bytes 0, no local-memory traffic, same
 * registers and theoretical occupancy as specimen_sizet, faster. */
#include "specimen_spill.cuh"

extern "C" int gp_sgemm_specimen_uint(const gemm_args *a, cudaStream_t s,
                                      gp_launch_info *info)
{
    return sp_launch<unsigned int>(a, s, info);
}
