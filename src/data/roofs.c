/* roofs.c - which ceilings a set of precisions runs under, from the
 * ceilings file (gemmprof probe: measured; the GPU's attributes:
 * theoretical) and, for a compute ceiling the file lacks, from the table
 * of architectures. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/arch.h"
#include "util/util.h"
#include "roofs.h"

/* The compute roofs of each precision, in the order they are drawn.  The
 * 16- and 8-bit tensor-core roofs are no ceilings-file rows: they are the
 * TF32 tensor roof times the rate ratio every NVIDIA datasheet gives for
 * CC 8.0 to 10.0 (dense FP16/BF16 twice TF32: A100 312 vs 156, H100 SXM
 * 989 vs 495, L4 121 vs 60 TFLOP/s; FP8 twice FP16 from CC 8.9: L4 242
 * vs 121, H100 SXM 1979 vs 989), and say so in their names. */
static const struct {
    const char *precision, *ceiling, *source, *what;
    double factor;
} compute_roofs[] = {
    { "fp32", "fp32_fma", "fp32_fma", "FP32 FMA", 1 },
    { "tf32", "fp32_fma", "fp32_fma", "FP32 FMA", 1 },
    { "tf32", "tf32_tensor", "tf32_tensor", "TF32 tensor", 1 },
    { "fp64", "fp64_fma", "fp64_fma", "FP64 FMA", 1 },
    { "fp64", "fp64_tensor", "fp64_tensor", "FP64 tensor", 1 },
    { "bf16", "bf16_tensor", "tf32_tensor", "BF16 tensor (2x TF32)", 2 },
    { "fp16", "fp16_tensor", "tf32_tensor", "FP16 tensor (2x TF32)", 2 },
    { "fp8", "fp8_tensor", "tf32_tensor", "FP8 tensor (4x TF32)", 4 },
};

static const struct {
    const char *ceiling, *what;
    int hierarchical_only;
} memory_roofs[] = {
    { "dram_bw", "DRAM", 0 },
    { "l2_bw", "L2", 0 },
    { "smem_bw", "shared mem", 1 },
};

static int has_roof(const gp_roofs *r, const char *ceiling)
{
    for (int i = 0; i < r->n; i++)
        if (strcmp(r->r[i].ceiling, ceiling) == 0)
            return 1;
    return 0;
}

static double meta_num(const gp_meta *m, const char *key)
{
    const char *v = m ? gp_meta_get(m, key) : NULL;
    return v ? strtod(v, NULL) : NAN;
}

/* A compute ceiling the ceilings file lacks (one written before gemmprof
 * probe had the tensor-core rows, or no file at all): its theoretical
 * value from the table of architectures (src/arch), for the GPU and at
 * the clock of the file's own theoretical FP32 FMA roof (else the GPU's
 * maximum clock), so that every theoretical roof of the chart assumes one
 * clock.  NAN if the metadata does not say which GPU, or the table has no
 * such unit for it. */
static double from_arch_table(const gp_ceilings *ceil, const gp_meta *meta,
                              const char *ceiling)
{
    int kind = -1;
    for (int k = 0; k < GP_PEAK_COUNT; k++)
        if (strcmp(gp_peak_name((gp_peak_kind)k), ceiling) == 0)
            kind = k;
    const gp_meta *m = ceil ? &ceil->meta : meta;
    const char *ccs = m ? gp_meta_get(m, "compute_capability") : NULL;
    int major, minor;
    if (kind < 0 || !ccs || sscanf(ccs, "%d.%d", &major, &minor) != 2)
        return NAN;
    double sms_d = meta_num(m, "sm_count"), mhz_d = meta_num(m, "sm_clock_max_mhz");
    int cc = 10 * major + minor, sms = isnan(sms_d) ? -1 : (int)sms_d;
    double mhz = isnan(mhz_d) ? -1 : (double)(long)mhz_d;
    const gp_ceiling *f = ceil ? gp_ceilings_find(ceil, "fp32_fma") : NULL;
    double per_clock = gp_arch_flop_per_clock(cc, GP_PEAK_FP32_FMA);
    if (f && f->theoretical > 0 && per_clock > 0 && sms > 0)
        mhz = f->theoretical / (sms * per_clock) * 1e3;
    return gp_arch_peak_gflops(cc, sms, mhz, (gp_peak_kind)kind);
}

/* Without a ceilings file: the DRAM bandwidth the run file's GPU
 * attributes promise (double data rate over the bus), GB/s; NAN if it
 * does not say. */
static double dram_from_meta(const gp_meta *meta)
{
    double mhz = meta_num(meta, "mem_clock_max_mhz"), bits = meta_num(meta, "mem_bus_width_bits");
    return mhz > 0 && bits > 0 ? 2.0 * mhz * 1e6 * bits / 8 / 1e9 : NAN;
}

/* Both numbers of the ceilings row `source` (times `factor`) as the roof
 * `ceiling`; a compute row the file lacks comes from the table of
 * architectures, theoretical only; anything else the file lacks is
 * noted. */
static void add(const gp_ceilings *ceil, const gp_meta *meta, gp_roofs *out,
                const char *ceiling, const char *source, double factor, const char *what,
                int compute)
{
    if (has_roof(out, ceiling) || strstr(out->missing, source))
        return;
    const gp_ceiling *c = ceil ? gp_ceilings_find(ceil, source) : NULL;
    double table = c ? NAN : compute ? from_arch_table(ceil, meta, source) :
                   !ceil && strcmp(source, "dram_bw") == 0 ? dram_from_meta(meta) : NAN;
    const double v[2] = { c ? c->measured : NAN, c ? c->theoretical : table };
    if (!c && isnan(table)) {
        size_t len = strlen(out->missing);
        gp_fmt(out->missing + len, sizeof out->missing - len, "%s%s", len ? ", " : "",
               source);
        return;
    }
    for (int m = 0; m < 2 && out->n < GP_ROOFS_MAX; m++) {
        if (isnan(v[m]) || v[m] <= 0)
            continue;
        gp_roof *r = &out->r[out->n++];
        r->compute = compute;
        gp_fmt(r->ceiling, sizeof r->ceiling, "%s", ceiling);
        gp_fmt(r->what, sizeof r->what, "%s", what);
        r->value = factor * v[m];
        r->measured = m == 0;
    }
}

void gp_roofs_of(const gp_ceilings *ceil, const gp_meta *meta, const char *const *prec,
                 int n, int hierarchical, gp_roofs *out)
{
    memset(out, 0, sizeof *out);
    for (size_t j = 0; j < sizeof compute_roofs / sizeof compute_roofs[0]; j++) {
        int used = 0;
        for (int i = 0; i < n && !used; i++)
            used = strcmp(prec[i], compute_roofs[j].precision) == 0;
        if (used)
            add(ceil, meta, out, compute_roofs[j].ceiling, compute_roofs[j].source,
                compute_roofs[j].factor, compute_roofs[j].what, 1);
    }
    for (size_t j = 0; j < sizeof memory_roofs / sizeof memory_roofs[0]; j++)
        if (hierarchical || !memory_roofs[j].hierarchical_only)
            add(ceil, meta, out, memory_roofs[j].ceiling, memory_roofs[j].ceiling, 1,
                memory_roofs[j].what, 0);
}

double gp_roofs_top(const gp_roofs *r)
{
    double top = NAN;
    for (int i = 0; i < r->n; i++)
        if (r->r[i].compute && !(r->r[i].value <= top))
            top = r->r[i].value;
    return top;
}

double gp_roofs_value(const gp_roofs *r, const char *ceiling, int measured)
{
    double other = NAN;
    for (int i = 0; i < r->n; i++) {
        if (strcmp(r->r[i].ceiling, ceiling) != 0)
            continue;
        if (r->r[i].measured == measured)
            return r->r[i].value;
        other = r->r[i].value;
    }
    return other;
}

double gp_roofs_ridge(const gp_roofs *r, double *gflops)
{
    double top = gp_roofs_top(r), bw = gp_roofs_value(r, "dram_bw", 1);
    for (int i = 0; i < r->n; i++)      /* the measured one of that ceiling */
        if (r->r[i].compute && r->r[i].value == top) {
            top = gp_roofs_value(r, r->r[i].ceiling, 1);
            break;
        }
    if (gflops)
        *gflops = top;
    return top / bw;
}

gp_bound gp_roofs_bound(const gp_roofs *r, double ai)
{
    double ridge = gp_roofs_ridge(r, NULL);
    if (isnan(ai) || ai <= 0 || isnan(ridge))
        return GP_BOUND_NA;
    return ai < ridge ? GP_BOUND_MEMORY : GP_BOUND_COMPUTE;
}

const char *gp_bound_name(gp_bound b)
{
    return b == GP_BOUND_MEMORY ? "memory" : b == GP_BOUND_COMPUTE ? "compute" : "n/a";
}
