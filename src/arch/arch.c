/* arch.c - the per-compute-capability table and the theoretical compute
 * ceilings it gives.  The table's rows, each value cited, are the
 * architectures of archs.def, the one list of them. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "arch.h"

static const gp_arch_info table[] = {
#define GP_ARCH(cc, specific, family, fp32, fp64, tf32, fp64_tensor) \
    {cc, family, fp32, fp64, tf32, fp64_tensor},
#include "archs.def"
#undef GP_ARCH
};

const gp_arch_info *gp_arch_table(int *count)
{
    *count = (int)(sizeof table / sizeof table[0]);
    return table;
}

const gp_arch_info *gp_arch_lookup(int cc)
{
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (table[i].cc == cc)
            return &table[i];
    return NULL;
}

const char *gp_peak_name(gp_peak_kind k)
{
    static const char *const names[GP_PEAK_COUNT] = {
        "fp32_fma", "fp64_fma", "tf32_tensor", "fp64_tensor"
    };
    return (unsigned)k < GP_PEAK_COUNT ? names[k] : "";
}

double gp_arch_flop_per_clock(int cc, gp_peak_kind k)
{
    const gp_arch_info *a = gp_arch_lookup(cc);
    if (!a)
        return NAN;
    switch (k) {
    case GP_PEAK_FP32_FMA:    return 2.0 * a->fp32_lanes;
    case GP_PEAK_FP64_FMA:    return 2.0 * a->fp64_lanes;
    case GP_PEAK_TF32_TENSOR: return a->tf32_tensor;
    case GP_PEAK_FP64_TENSOR: return a->fp64_tensor;
    case GP_PEAK_COUNT:       break;
    }
    return NAN;
}

double gp_arch_peak_gflops(int cc, int sm_count, double sm_mhz, gp_peak_kind k)
{
    if (sm_count <= 0 || !(sm_mhz > 0))
        return NAN;
    /* SMs x FLOP/clk/SM x MHz x 1e6 / 1e9 */
    return sm_count * gp_arch_flop_per_clock(cc, k) * sm_mhz / 1e3;
}
