/* roofs.h - the roofs a kernel runs under: for a set of precisions, the
 * compute roofs and the memory roofs, from a ceilings file (gemmprof
 * probe: measured; the GPU's attributes: theoretical) and, for a compute
 * ceiling the file lacks or where there is no file, from the table of
 * architectures (src/arch) for the GPU a run file's metadata names.  One
 * place answers "what are the roofs": the roofline charts (plot/roofs.c,
 * per family) and the time table's "bound" column (hotspots.h, per
 * kernel) both ask here, so a chart and a table never disagree on which
 * roof bounds a kernel. */
#ifndef GP_DATA_ROOFS_H
#define GP_DATA_ROOFS_H

#include "ceilings.h"
#include "meta.h"

typedef struct {
    int compute;             /* 1: a level roof in GFLOP/s; 0: a slope in GB/s */
    char ceiling[32];        /* its row in the ceilings file: fp32_fma, dram_bw */
    char what[32];           /* "FP32 FMA", "BF16 tensor (2x TF32)", "L2"  */
    double value;
    int measured;            /* 1 measured by gemmprof probe, 0 theoretical */
} gp_roof;

#define GP_ROOFS_MAX 16

typedef struct {
    int n;
    gp_roof r[GP_ROOFS_MAX];
    char missing[256];       /* the rows the ceilings file lacks,
                                "tf32_tensor" ("" if none)              */
} gp_roofs;

/* Every roof of the precisions `prec[0..n)`, compute roofs first, measured
 * before theoretical:
 *   compute  per precision: fp32 fp32_fma; tf32 fp32_fma and tf32_tensor;
 *            fp64 fp64_fma and fp64_tensor (DMMA: cuBLAS DGEMM and the
 *            dgemm_dmma rungs); bf16 and fp16 twice, fp8 four times
 *            tf32_tensor (traced kernels; roofs.c says why); any other
 *            precision none
 *   memory   dram_bw and l2_bw; smem_bw too when `hierarchical`
 * each as measured and as theoretical where `ceil` (may be NULL) has that
 * number; a compute row it lacks (tf32_tensor, fp64_tensor in files
 * probed before gemmprof wrote them, or every one without a file) is
 * theoretical from src/arch's table for the GPU `meta` names
 * (compute_capability, sm_count; the ceilings file's metadata if there is
 * one, else the run file's) at the clock of the file's FP32 FMA roof
 * (else sm_clock_max_mhz).  Without a file the DRAM roof is theoretical
 * from the run file's memory clock and bus width, as gemmprof probe
 * computes it. */
void gp_roofs_of(const gp_ceilings *ceil, const gp_meta *meta, const char *const *prec,
                 int n, int hierarchical, gp_roofs *out);

/* The highest compute roof; the roof `ceiling` (measured if there is one,
 * else theoretical, when `measured`; the theoretical one first otherwise).
 * NAN if absent. */
double gp_roofs_top(const gp_roofs *r);
double gp_roofs_value(const gp_roofs *r, const char *ceiling, int measured);

/* The ridge point: where the DRAM roof (measured if there is one) meets
 * the highest compute roof (its measured value if there is one), FLOP/B
 * and GFLOP/s.  NAN if either is absent. */
double gp_roofs_ridge(const gp_roofs *r, double *gflops);

/* Which roof bounds a kernel at DRAM arithmetic intensity `ai`: left of
 * the ridge the DRAM roof, right of it (or on it) the compute roof. */
typedef enum { GP_BOUND_NA, GP_BOUND_MEMORY, GP_BOUND_COMPUTE } gp_bound;
gp_bound gp_roofs_bound(const gp_roofs *r, double ai);
const char *gp_bound_name(gp_bound b);     /* "memory", "compute", "n/a" */

#endif
