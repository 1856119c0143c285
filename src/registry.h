/* registry.h - the one table of kernels (built-ins from kernels/ladder.def,
 * plugins appended at run time).  --list, --kernel all, sweeps and reports
 * all read it through these functions. */
#ifndef GP_REGISTRY_H
#define GP_REGISTRY_H

#include <stdio.h>
#include "gemmprof.h"

extern const gp_kernel gp_builtin_kernels[];
extern const int gp_builtin_kernel_count;

int gp_registry_count(void);
const gp_kernel *gp_registry_get(int i);
const gp_kernel *gp_registry_find(const char *name);      /* NULL if unknown */
/* Append a kernel (plugins).  Returns 0, or -1 if the name is taken/full. */
int gp_registry_add(const gp_kernel *k);

/* The cuBLAS entry every kernel of precision `p` is verified against. */
const gp_kernel *gp_registry_reference(gp_precision p);

/* Parse "name[,name...]" or "all" into `out` (ladder order for "all",
 * given order otherwise, duplicates dropped).  Returns the count, or -1
 * with a one-line message in `err` naming the bad name and the valid ones. */
int gp_registry_select(const char *spec, const gp_kernel **out, int max,
                       char *err, size_t errlen);

/* Print `--list` output: name, precision, idea; one kernel per line. */
void gp_registry_print(FILE *f);

#endif
