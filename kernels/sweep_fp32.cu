/* sweep_fp32.cu - one C launcher per FP32 line of sweep.def, instantiating
 * the blocktile_2d template (the table in sweep_table.c points at them). */
#include "blocktile_2d.cuh"

#define GP_SWEEP_FP32(bm, bn, bk, tm, tn)                                     \
    extern "C" int gp_sweep_fp32_##bm##x##bn##x##bk##_##tm##x##tn(            \
        const gemm_args *a, cudaStream_t s, gp_launch_info *info)             \
    {                                                                         \
        return gp_blocktile_2d_launch<bm, bn, bk, tm, tn>(a, s, info);        \
    }
#define GP_SWEEP_FP64(bm, bn, bk, tm, tn)
#include "sweep.def"
