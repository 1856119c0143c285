/* ptxas_facts.c - look up the compiler's report for a kernel by mangled
 * name (the table is build/gen/ptxas_table.c, a few dozen entries). */
#include <stdlib.h>
#include <string.h>
#include "ptxas_facts.h"

/* libstdc++'s demangler (C linkage), linked anyway for the CUDA objects. */
char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

const gp_ptxas_fact *gp_ptxas_find(const char *mangled_name, int cc)
{
    if (!mangled_name)
        return NULL;
    for (int i = 0; i < gp_ptxas_fact_count; i++)
        if (!strcmp(gp_ptxas_facts[i].name, mangled_name) &&
            atoi(gp_ptxas_facts[i].arch + 3) == cc)     /* "sm_" + CC */
            return &gp_ptxas_facts[i];
    return NULL;
}

void gp_ptxas_print(FILE *f)
{
    fprintf(f, "# static facts of every kernel in this build, from ptxas -v\n");
    fprintf(f, "function,regs_per_thread,stack_bytes,spill_store_bytes,"
               "spill_load_bytes,source,arch\n");
    for (int i = 0; i < gp_ptxas_fact_count; i++) {
        const gp_ptxas_fact *p = &gp_ptxas_facts[i];
        int st = -1;
        char *d = __cxa_demangle(p->name, NULL, NULL, &st);
        /* demangled names hold commas: quote them for CSV */
        fprintf(f, "\"%s\",%d,%d,%d,%d,%s,%s\n", st == 0 && d ? d : p->name,
                p->regs, p->stack_bytes, p->spill_store_bytes,
                p->spill_load_bytes, p->source ? p->source : "NA", p->arch);
        free(d);
    }
}
