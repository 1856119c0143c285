/* peaks.c - theoretical ceilings from device attributes.  Pure
 * arithmetic, so the CPU tests check it against fixtures. */
#include <math.h>
#include "probe.h"

/* FMA results per SM per clock, from the CUDA Programming Guide's table of
 * arithmetic instruction throughput.  Unlisted CCs stay unknown rather
 * than guessed. */
static const struct { int major, minor, fp32, fp64; } lanes[] = {
    {5, 0, 128, 4},  {5, 2, 128, 4},  {5, 3, 128, 4},
    {6, 0, 64, 32},  {6, 1, 128, 4},  {6, 2, 128, 4},
    {7, 0, 64, 32},  {7, 5, 64, 2},
    {8, 0, 64, 32},  {8, 6, 128, 2},  {8, 9, 128, 2},
    {9, 0, 128, 64},
};

void gp_fma_lanes_per_sm(int cc_major, int cc_minor, int *fp32, int *fp64)
{
    *fp32 = *fp64 = 0;
    for (size_t i = 0; i < sizeof lanes / sizeof lanes[0]; ++i)
        if (lanes[i].major == cc_major && lanes[i].minor == cc_minor) {
            *fp32 = lanes[i].fp32;
            *fp64 = lanes[i].fp64;
        }
}

void gp_theoretical_peaks(const gp_gpu *g, double sm_mhz, gp_peaks *p)
{
    if (!(sm_mhz > 0))
        sm_mhz = g->sm_clock_khz > 0 ? g->sm_clock_khz / 1e3 : NAN;
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
    p->fp32_gflops = p->fp32_lanes ? sms * p->fp32_lanes * 2 * clk_hz / 1e9 : NAN;
    p->fp64_gflops = p->fp64_lanes ? sms * p->fp64_lanes * 2 * clk_hz / 1e9 : NAN;
    /* 32 banks of 4 bytes per SM per clock since Maxwell (CC 5.x). */
    p->smem_gbs = g->cc_major >= 5 ? sms * 32 * 4 * clk_hz / 1e9 : NAN;
    p->l2_gbs = NAN;
}
