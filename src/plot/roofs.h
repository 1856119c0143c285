/* roofs.h - the roofs a family's roofline is drawn under (private to
 * plot/).  One function answers "what are the roofs of this family", so
 * that a new source of ceilings (a table of architectures for GPUs whose
 * ceilings file lacks a row) is added in one place: gp_family_roofs. */
#ifndef GP_PLOT_ROOFS_H
#define GP_PLOT_ROOFS_H

#include "plot.h"

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
    char missing[256];       /* the family's rows the ceilings file lacks,
                                "tf32_tensor" ("" if none)              */
} gp_roofs;

/* Every roof of the family, compute roofs first, measured before
 * theoretical:
 *   compute  per precision of its members: fp32 fp32_fma; tf32 fp32_fma
 *            and tf32_tensor; fp64 fp64_fma and fp64_tensor (DMMA: cuBLAS
 *            DGEMM and the dgemm_dmma rungs); bf16 and fp16 twice, fp8
 *            four times tf32_tensor (traced kernels; roofs.c says why);
 *            any other precision none
 *   memory   dram_bw and l2_bw; smem_bw too when `hierarchical`
 * each as measured and as theoretical where the ceilings file has that
 * number; a compute row the file lacks (tf32_tensor, fp64_tensor in files
 * probed before gemmprof wrote them) is theoretical from src/arch's table
 * for the file's GPU (compute_capability, sm_count) at the clock of its
 * FP32 FMA roof. */
void gp_family_roofs(const gp_dataset *d, const gp_family *f, int hierarchical,
                     gp_roofs *out);

/* The highest compute roof and the memory roof (measured if there is one,
 * else theoretical) of `ceiling`; NAN if absent. */
double gp_roofs_top(const gp_roofs *r);
double gp_roofs_value(const gp_roofs *r, const char *ceiling, int measured);

#endif
