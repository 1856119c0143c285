/* table.c - one line per measured row, aligned, readable in a terminal and
 * in a pasted log.  The CSV carries everything; this shows what matters.
 * The kernel column is as wide as the run's longest kernel name, so a long
 * name (dgemm_dmma_interior, a plugin's) never pushes the columns out. */
#include <math.h>
#include <string.h>
#include "table.h"

static void num(FILE *f, const char *fmt, int width, double v)
{
    if (isnan(v))
        fprintf(f, "%*s", width, "NA");
    else
        fprintf(f, fmt, width, v);
}

int gp_table_name_width(const gp_kernel *const *kernels, int n)
{
    int w = (int)strlen("kernel");
    for (int i = 0; i < n; i++)
        if (kernels[i] && (int)strlen(kernels[i]->name) > w)
            w = (int)strlen(kernels[i]->name);
    return w;
}

void gp_table_header(FILE *f, const gp_gpu *g, int name_width)
{
    fprintf(f, "# %s, %d SMs, CUDA runtime %d.%d\n", g->name, g->sm_count,
            g->runtime_version / 1000, (g->runtime_version % 1000) / 10);
    fprintf(f, "%-*s %-5s %-20s %10s %10s %8s %-8s %9s\n", name_width, "kernel", "prec",
            "m x n x k", "time_ms", "GFLOP/s", "%cuBLAS", "verified", "rel_err");
    fflush(f);
}

void gp_table_row(FILE *f, const gp_row *r, int name_width)
{
    char shape[48];
    snprintf(shape, sizeof shape, "%ldx%ldx%ld", r->m, r->n, r->k);
    fprintf(f, "%-*s %-5s %-20s ", name_width, r->kernel, r->precision, shape);
    num(f, "%*.4f", 10, r->time_ms);
    fputc(' ', f);
    num(f, "%*.1f", 10, r->gflops);
    fputc(' ', f);
    num(f, "%*.1f", 8, r->pct_cublas);
    fprintf(f, " %-8s ", r->verified == 1 ? "yes" : r->verified == 0 ? "NO" : "NA");
    num(f, "%*.2e", 9, r->rel_err_fro);
    if (!isnan(r->energy_j))     /* --energy: what the window measured */
        fprintf(f, "  sustained %.4f ms, %.0f W, %.4g J", r->sustained_ms, r->power_w,
                r->energy_j);
    if (r->verified != 1 && r->status[0])
        fprintf(f, "  %s", r->status);
    fputc('\n', f);
    fflush(f);
}
