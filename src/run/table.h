/* table.h - the human-readable table printed while a run goes on. */
#ifndef GP_TABLE_H
#define GP_TABLE_H

#include <stdio.h>
#include "gpu/gpu.h"
#include "data/data.h"

void gp_table_header(FILE *f, const gp_gpu *g);
void gp_table_row(FILE *f, const gp_row *r);

#endif
