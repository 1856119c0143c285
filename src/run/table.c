/* table.c - one line per measured row, aligned, readable in a terminal and
 * in a pasted log.  The CSV carries everything; this shows what matters. */
#include <math.h>
#include "table.h"

static void num(FILE *f, const char *fmt, int width, double v)
{
    if (isnan(v))
        fprintf(f, "%*s", width, "NA");
    else
        fprintf(f, fmt, width, v);
}

void gp_table_header(FILE *f, const gp_gpu *g)
{
    fprintf(f, "# %s, %d SMs, CUDA runtime %d.%d\n", g->name, g->sm_count,
            g->runtime_version / 1000, (g->runtime_version % 1000) / 10);
    fprintf(f, "%-16s %-5s %-20s %10s %10s %8s %-8s %9s\n", "kernel", "prec",
            "m x n x k", "time_ms", "GFLOP/s", "%cuBLAS", "verified", "rel_err");
    fflush(f);
}

void gp_table_row(FILE *f, const gp_row *r)
{
    char shape[48];
    snprintf(shape, sizeof shape, "%ldx%ldx%ld", r->m, r->n, r->k);
    fprintf(f, "%-16s %-5s %-20s ", r->kernel, r->precision, shape);
    num(f, "%*.4f", 10, r->time_ms);
    fputc(' ', f);
    num(f, "%*.1f", 10, r->gflops);
    fputc(' ', f);
    num(f, "%*.1f", 8, r->pct_cublas);
    fprintf(f, " %-8s ", r->verified == 1 ? "yes" : r->verified == 0 ? "NO" : "NA");
    num(f, "%*.2e", 9, r->rel_err_fro);
    if (r->verified != 1 && r->status[0])
        fprintf(f, "  %s", r->status);
    fputc('\n', f);
    fflush(f);
}
