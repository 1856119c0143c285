/* table.h - the human-readable table printed while a run goes on. */
#ifndef GP_TABLE_H
#define GP_TABLE_H

#include <stdio.h>
#include "gemmprof.h"
#include "gpu/gpu.h"
#include "data/data.h"

/* The kernel column's width: the longest name among the run's kernels
 * (at least the heading's), so every row lines up whatever was chosen. */
int gp_table_name_width(const gp_kernel *const *kernels, int n);
void gp_table_header(FILE *f, const gp_gpu *g, int name_width);
void gp_table_row(FILE *f, const gp_row *r, int name_width);

#endif
