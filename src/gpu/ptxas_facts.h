/* ptxas_facts.h - what the compiler reported for each kernel at build time
 * (nvcc -Xptxas -v, captured by the Makefile).  Keyed by mangled name and
 * architecture: a build for several has one row per kernel per SASS target. */
#ifndef GP_PTXAS_FACTS_H
#define GP_PTXAS_FACTS_H

#include <stdio.h>

typedef struct {
    const char *name;       /* mangled entry name, e.g. _Z11sgemm_naive... */
    const char *arch;       /* the SASS target, e.g. "sm_90", "sm_90a"     */
    int regs;               /* registers per thread                        */
    int stack_bytes;        /* stack frame per thread                      */
    int spill_store_bytes;  /* per thread                                  */
    int spill_load_bytes;   /* per thread                                  */
    const char *source;     /* e.g. "kernels/sgemm_01_naive.cu"            */
} gp_ptxas_fact;

extern const gp_ptxas_fact gp_ptxas_facts[];
extern const int gp_ptxas_fact_count;

/* The report for the SASS of compute capability `cc` (90 for sm_90 or
 * sm_90a), the code the GPU runs (gp_build_pick).  NULL if this build has
 * no SASS of that CC for the kernel (plugins, cuBLAS, a PTX-only build, or
 * an architecture where the kernel is empty). */
const gp_ptxas_fact *gp_ptxas_find(const char *mangled_name, int cc);

/* The whole table as CSV (function demangled, regs, stack, spills, source
 * file, architecture): the static facts there are with no GPU at all
 * (--build-facts). */
void gp_ptxas_print(FILE *f);

#endif
