/* ptxas_facts.h - what the compiler reported for each kernel at build time
 * (nvcc -Xptxas -v, captured by the Makefile).  Keyed by mangled name. */
#ifndef GP_PTXAS_FACTS_H
#define GP_PTXAS_FACTS_H

#include <stdio.h>

typedef struct {
    const char *name;       /* mangled entry name, e.g. _Z11sgemm_naive... */
    int regs;               /* registers per thread                        */
    int stack_bytes;        /* stack frame per thread                      */
    int spill_store_bytes;  /* per thread                                  */
    int spill_load_bytes;   /* per thread                                  */
    const char *source;     /* e.g. "kernels/sgemm_01_naive.cu"            */
} gp_ptxas_fact;

extern const gp_ptxas_fact gp_ptxas_facts[];
extern const int gp_ptxas_fact_count;

/* NULL if the kernel was not compiled by this build (plugins, cuBLAS). */
const gp_ptxas_fact *gp_ptxas_find(const char *mangled_name);

/* The whole table as CSV (function demangled, regs, stack, spills, source
 * file): the static facts there are with no GPU at all (--build-facts). */
void gp_ptxas_print(FILE *f);

#endif
