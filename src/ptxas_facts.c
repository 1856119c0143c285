/* ptxas_facts.c - look up the compiler's report for a kernel by mangled
 * name (the table is build/gen/ptxas_table.c, a few dozen entries). */
#include <string.h>
#include "ptxas_facts.h"

const gp_ptxas_fact *gp_ptxas_find(const char *mangled_name)
{
    if (!mangled_name)
        return NULL;
    for (int i = 0; i < gp_ptxas_fact_count; i++)
        if (!strcmp(gp_ptxas_facts[i].name, mangled_name))
            return &gp_ptxas_facts[i];
    return NULL;
}
