/* tables.h - the report's tables, each written three ways: Markdown,
 * LaTeX (booktabs, \input-able) and fixed-width text for the PDF page. */
#ifndef GP_REPORT_TABLES_H
#define GP_REPORT_TABLES_H

#include <stdio.h>
#include "plot/plot.h"

#define GP_TABLE_MAXCOL 16

typedef struct {
    char caption[256];
    int ncol;
    const char *head[GP_TABLE_MAXCOL];
    char align[GP_TABLE_MAXCOL];            /* 'l' or 'r'               */
    int nrow;
    char (*cell)[GP_TABLE_MAXCOL][64];
} gp_table;

/* One row per kernel at one size (the largest most kernels have, or
 * `size`): time, GFLOP/s, % of cuBLAS, speedup, verification, counters,
 * static facts.  Kernels that failed are listed with their status.
 * -1 if no row has a size to report. */
int gp_table_summary(const gp_dataset *d, const long size[3], gp_table *t);
/* GFLOP/s per kernel (rows) and size (columns); 1 if there is one size. */
int gp_table_by_size(const gp_dataset *d, gp_table *t);
void gp_table_free(gp_table *t);

void gp_table_markdown(FILE *f, const gp_table *t);
void gp_table_latex(FILE *f, const gp_table *t, const char *label);
void gp_table_text(FILE *f, const gp_table *t);

#endif
