/* tables.c - building the report's tables from the data and writing
 * them as Markdown, LaTeX and fixed-width text. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot/plot.h"
#include "util/util.h"
#include "tables.h"

static int table_alloc(gp_table *t, int nrow)
{
    t->cell = calloc((size_t)(nrow + 1), sizeof *t->cell);
    t->nrow = 0;
    return t->cell ? 0 : -1;
}

void gp_table_free(gp_table *t)
{
    free(t->cell);
    t->cell = NULL;
    t->nrow = 0;
}

static void cell_num(char *c, const char *fmt, double v)
{
    if (isnan(v))
        gp_fmt(c, 64, "n/a");
    else
        gp_fmt(c, 64, fmt, v);
}

static double get_pct(const gp_row *r) { return r->pct_cublas; }
static double get_time(const gp_row *r) { return r->time_ms; }
static double get_regs(const gp_row *r) { return r->regs_per_thread; }

static double pct_cublas(const gp_where *w, const gp_key *k)
{
    double p = gp_median(w, k, get_pct);
    gp_key ref;
    if (!isnan(p) || gp_cublas_key(w, k->precision, &ref) < 0)
        return p;
    double g = gp_median(w, k, gp_get_gflops), gr = gp_median(w, &ref, gp_get_gflops);
    return gr > 0 ? 100 * g / gr : NAN;
}

static double speedup(const gp_where *w, const gp_key *k)
{
    gp_key base;
    if (gp_baseline_key(w, k->precision, &base) < 0)
        return NAN;
    double g = gp_median(w, k, gp_get_gflops), gb = gp_median(w, &base, gp_get_gflops);
    return gb > 0 ? g / gb : NAN;
}

/* "yes", or what went wrong (or why it was not run), from the first row
 * of the series. */
static void verdict(const gp_dataset *d, const gp_key *k, const long shape[3],
                    int usable, char *out)
{
    for (int i = 0; i < d->nrows; i++) {
        const gp_row *r = &d->rows[i];
        if (!gp_key_match(k, r, 0) || r->m != shape[0] || r->n != shape[1] || r->k != shape[2])
            continue;
        if (usable && gp_row_usable(r)) {
            gp_fmt(out, 64, "%s", r->verified == 1 ? "yes" : "n/a");
            return;
        }
        if (!usable) {   /* a skipped row's reason whole, the GPU's or build's */
            gp_fmt(out, 64, gp_row_skipped(r) ? "%.63s" : "%.40s",
                   r->verified == 0 ? "FAILED" : r->status[0] ? r->status : "n/a");
            return;
        }
    }
    gp_fmt(out, 64, "n/a");
}

static void summary_row(const gp_dataset *d, const long shape[3], const gp_key *k,
                        char (*c)[64])
{
    gp_where w = { .d = d, .shape = shape };
    int usable = !isnan(gp_median(&w, k, gp_get_gflops)) ||
                 !isnan(gp_median(&w, k, get_time));
    gp_kernel_label(k->kernel, c[0], 64);
    gp_fmt(c[1], 64, "%s", k->precision);
    gp_key used = gp_config_used(&w, k);
    gp_fmt(c[2], 64, "%s", used.config[0] ? used.config : "-");
    cell_num(c[3], "%.3f", gp_median(&w, k, get_time));
    double g = gp_median(&w, k, gp_get_gflops);
    cell_num(c[4], g < 100 ? "%.1f" : "%.0f", g);
    cell_num(c[5], "%.1f", pct_cublas(&w, k));
    cell_num(c[6], "%.1f", speedup(&w, k));
    verdict(d, k, shape, usable, c[7]);
    cell_num(c[8], "%.1f", gp_median(&w, k, gp_get_ai_dram));
    cell_num(c[9], "%.0f", gp_median(&w, k, gp_get_dram_bytes) / 1e6);
    cell_num(c[10], "%.0f", gp_median(&w, k, get_regs));
    cell_num(c[11], "%.0f", gp_median(&w, k, gp_get_spill_bytes));
    cell_num(c[12], "%.0f", gp_median(&w, k, gp_get_occ_theoretical));
    cell_num(c[13], "%.0f", gp_median(&w, k, gp_get_occ_achieved));
}

int gp_table_summary(const gp_dataset *d, const long size[3], gp_table *t)
{
    static const char *const head[] = {
        "kernel", "precision", "config", "time ms", "GFLOP/s", "% cuBLAS",
        "x naive", "verified", "FLOP/B DRAM", "DRAM MB", "regs", "spill B",
        "occ. theor. %", "occ. achieved %",
    };
    memset(t, 0, sizeof *t);
    t->ncol = (int)(sizeof head / sizeof head[0]);
    for (int i = 0; i < t->ncol; i++) {
        t->head[i] = head[i];
        t->align[i] = i < 3 || i == 7 ? 'l' : 'r';
    }
    long shape[3];
    gp_where any = { .d = d, .need = gp_get_gflops };
    if (gp_shape_choose(&any, size, shape) < 0)
        return -1;
    gp_where at = { .d = d, .shape = shape, .all_rows = 1 };
    gp_key *k;
    int n = gp_keys(&at, &k);
    if (table_alloc(t, n) < 0) {
        free(k);
        return -1;
    }
    for (int i = 0; i < n; i++)
        summary_row(d, shape, &k[i], t->cell[t->nrow++]);
    char sz[64];
    gp_shape_str(shape, sz, sizeof sz);
    gp_fmt(t->caption, sizeof t->caption, "Every kernel at size %s on %s (medians "
           "over repeated rows; x naive: speedup over the naive kernel)", sz,
           gp_meta_get(&d->meta, "gpu_name") ? gp_meta_get(&d->meta, "gpu_name")
                                             : "an unknown GPU");
    free(k);
    return 0;
}

int gp_table_by_size(const gp_dataset *d, gp_table *t)
{
    memset(t, 0, sizeof *t);
    gp_where w = { .d = d, .need = gp_get_gflops };
    gp_sweep s;
    if (gp_sweep_choose(&w, &s) < 0)
        return 1;
    w.sweep = &s;
    long *xs;
    int nx = gp_sweep_xs(&w, &xs);
    if (nx < 2) {
        free(xs);
        return 1;
    }
    /* At most GP_TABLE_MAXCOL - 1 sizes, spread over the sweep. */
    int cols = nx < GP_TABLE_MAXCOL - 1 ? nx : GP_TABLE_MAXCOL - 1;
    static char heads[GP_TABLE_MAXCOL][32];
    long pick[GP_TABLE_MAXCOL];
    t->ncol = cols + 1;
    t->head[0] = "kernel";
    t->align[0] = 'l';
    for (int j = 0; j < cols; j++) {
        pick[j] = xs[cols == 1 ? 0 : (long)j * (nx - 1) / (cols - 1)];
        gp_fmt(heads[j], sizeof heads[j], "%ld", pick[j]);
        t->head[j + 1] = heads[j];
        t->align[j + 1] = 'r';
    }
    gp_key *k;
    int n = gp_keys(&w, &k);
    if (table_alloc(t, n) == 0)
        for (int i = 0; i < n; i++) {
            char (*c)[64] = t->cell[t->nrow++];
            gp_kernel_label(k[i].kernel, c[0], 64);
            for (int j = 0; j < cols; j++) {
                w.x = pick[j];
                double g = gp_median(&w, &k[i], gp_get_gflops);
                cell_num(c[j + 1], g < 100 ? "%.1f" : "%.0f", g);
            }
        }
    gp_fmt(t->caption, sizeof t->caption, "GFLOP/s by size, %s", s.label);
    free(k);
    free(xs);
    return 0;
}

void gp_table_markdown(FILE *f, const gp_table *t)
{
    fprintf(f, "%s\n\n|", t->caption);
    for (int j = 0; j < t->ncol; j++)
        fprintf(f, " %s |", t->head[j]);
    fprintf(f, "\n|");
    for (int j = 0; j < t->ncol; j++)
        fprintf(f, t->align[j] == 'r' ? "---:|" : ":---|");
    for (int i = 0; i < t->nrow; i++) {
        fprintf(f, "\n|");
        for (int j = 0; j < t->ncol; j++) {
            fputc(' ', f);
            for (const char *s = t->cell[i][j]; *s; s++)   /* a '|' ends a cell */
                fputs(*s == '|' ? "\\|" : (char[]){ *s, 0 }, f);
            fputs(" |", f);
        }
    }
    fputc('\n', f);
}

static void tex(FILE *f, const char *s)
{
    char buf[512];
    gp_chart_text("cairolatex", s, 0, buf, sizeof buf);
    fputs(buf, f);
}

void gp_table_latex(FILE *f, const gp_table *t, const char *label)
{
    fprintf(f, "%% generated by gemmprof report; needs \\usepackage{booktabs}\n"
               "\\begin{table}[htbp]\n\\centering\n\\small\n\\caption{");
    tex(f, t->caption);
    fprintf(f, "}\n\\label{%s}\n\\begin{tabular}{", label);
    for (int j = 0; j < t->ncol; j++)
        fputc(t->align[j], f);
    fprintf(f, "}\n\\toprule\n");
    for (int j = 0; j < t->ncol; j++) {
        tex(f, t->head[j]);
        fputs(j + 1 < t->ncol ? " & " : " \\\\\n\\midrule\n", f);
    }
    for (int i = 0; i < t->nrow; i++)
        for (int j = 0; j < t->ncol; j++) {
            tex(f, t->cell[i][j]);
            fputs(j + 1 < t->ncol ? " & " : " \\\\\n", f);
        }
    fprintf(f, "\\bottomrule\n\\end{tabular}\n\\end{table}\n");
}

void gp_table_text(FILE *f, const gp_table *t)
{
    int w[GP_TABLE_MAXCOL];
    for (int j = 0; j < t->ncol; j++) {
        w[j] = (int)strlen(t->head[j]);
        for (int i = 0; i < t->nrow; i++)
            if ((int)strlen(t->cell[i][j]) > w[j])
                w[j] = (int)strlen(t->cell[i][j]);
    }
    int total = 0;
    for (int j = 0; j < t->ncol; j++) {
        fprintf(f, t->align[j] == 'r' ? "%*s  " : "%-*s  ", w[j], t->head[j]);
        total += w[j] + 2;
    }
    fprintf(f, "\n%.*s\n", total - 2,
            "----------------------------------------------------------------"
            "----------------------------------------------------------------"
            "----------------------------------------------------------------");
    for (int i = 0; i < t->nrow; i++) {
        for (int j = 0; j < t->ncol; j++)
            fprintf(f, t->align[j] == 'r' ? "%*s  " : "%-*s  ", w[j], t->cell[i][j]);
        fputc('\n', f);
    }
}
