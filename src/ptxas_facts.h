/* ptxas_facts.h - what the compiler reported for each kernel at build time
 * (nvcc -Xptxas -v, captured by the Makefile).  Keyed by mangled name. */
#ifndef GP_PTXAS_FACTS_H
#define GP_PTXAS_FACTS_H

typedef struct {
    const char *name;       /* mangled entry name, e.g. _Z11sgemm_naive... */
    int regs;               /* registers per thread                        */
    int stack_bytes;        /* stack frame per thread                      */
    int spill_store_bytes;  /* per thread                                  */
    int spill_load_bytes;   /* per thread                                  */
} gp_ptxas_fact;

extern const gp_ptxas_fact gp_ptxas_facts[];
extern const int gp_ptxas_fact_count;

/* NULL if the kernel was not compiled by this build (plugins, cuBLAS). */
const gp_ptxas_fact *gp_ptxas_find(const char *mangled_name);

#endif
