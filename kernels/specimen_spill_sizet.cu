/* specimen_spill_sizet - the spilling half of the register-spill specimen
 * (see specimen_spill.cuh): the double-buffered SGEMM whose descriptor
 * holds four size_t fields.  Under the 128-register cap its 64-bit index
 * arithmetic does not fit: ptxas spills (nvcc 13.0, sm_90: 44 B/thread).
 *
 * Profile should show: spill_store_bytes > 0, local-memory load and store
 * traffic > 0, slower than specimen_uint at the same occupancy. */
#include "specimen_spill.cuh"

extern "C" int gp_sgemm_specimen_sizet(const gemm_args *a, cudaStream_t s,
                                       gp_launch_info *info)
{
    return sp_launch<size_t>(a, s, info);
}
