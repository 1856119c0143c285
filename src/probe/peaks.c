/* peaks.c - theoretical ceilings from device attributes and the
 * architecture table (src/arch/arch.c).  Pure arithmetic, so the CPU tests
 * check it against fixtures. */
#include <math.h>
#include "probe.h"

void gp_fma_lanes_per_sm(int cc_major, int cc_minor, int *fp32, int *fp64)
{
    const gp_arch_info *a = gp_arch_lookup(GP_CC(cc_major, cc_minor));
    *fp32 = a ? a->fp32_lanes : 0;
    *fp64 = a ? a->fp64_lanes : 0;
}

void gp_theoretical_peaks(const gp_gpu *g, double sm_mhz, gp_peaks *p)
{
    if (!(sm_mhz > 0))
        sm_mhz = g->sm_clock_khz > 0 ? g->sm_clock_khz / 1e3 : NAN;
    int cc = GP_CC(g->cc_major, g->cc_minor);
    p->sm_mhz = sm_mhz;
    gp_fma_lanes_per_sm(g->cc_major, g->cc_minor, &p->fp32_lanes,
                        &p->fp64_lanes);
    double sms = g->sm_count > 0 ? g->sm_count : NAN;
    double clk_hz = sm_mhz * 1e6;
    /* The memory clock attribute counts one edge: HBM and GDDR move data
     * on both, hence the 2. */
    p->dram_gbs = g->mem_clock_khz > 0 && g->bus_width_bits > 0
                      ? 2.0 * g->mem_clock_khz * 1e3 * g->bus_width_bits / 8 / 1e9
                      : NAN;
    p->fp32_gflops = gp_arch_peak_gflops(cc, g->sm_count, sm_mhz, GP_PEAK_FP32_FMA);
    p->fp64_gflops = gp_arch_peak_gflops(cc, g->sm_count, sm_mhz, GP_PEAK_FP64_FMA);
    p->tf32_tensor_gflops =
        gp_arch_peak_gflops(cc, g->sm_count, sm_mhz, GP_PEAK_TF32_TENSOR);
    p->fp64_tensor_gflops =
        gp_arch_peak_gflops(cc, g->sm_count, sm_mhz, GP_PEAK_FP64_TENSOR);
    /* 32 banks of 4 bytes per SM per clock since Maxwell (CC 5.x). */
    p->smem_gbs = g->cc_major >= 5 ? sms * 32 * 4 * clk_hz / 1e9 : NAN;
    p->l2_gbs = NAN;
}
