/* sweep_fp64.cu - one C launcher per FP64 line of sweep.def, instantiating
 * the dgemm blocktile template (the table in sweep_table.c points at them). */
#include "dgemm_blocktile.cuh"

#define GP_SWEEP_FP32(bm, bn, bk, tm, tn)
#define GP_SWEEP_FP64(bm, bn, bk, tm, tn)                                     \
    extern "C" int gp_sweep_fp64_##bm##x##bn##x##bk##_##tm##x##tn(            \
        const gemm_args *a, cudaStream_t s, gp_launch_info *info)             \
    {                                                                         \
        return gp_dgemm_blocktile_launch<bm, bn, bk, tm, tn>(a, s, info);     \
    }
#include "sweep.def"
