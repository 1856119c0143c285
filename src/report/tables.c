/* tables.c - building the report's tables from the data and writing
 * them as Markdown, LaTeX and fixed-width text. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot/plot.h"
#include "util/util.h"
#include "tables.h"

int gp_table_alloc(gp_table *t, int nrow)
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

void gp_table_cell_num(char *c, const char *fmt, double v)
{
    if (isnan(v))
        gp_fmt(c, 64, "n/a");
    else
        gp_fmt(c, 64, fmt, v);
}

static double get_time(const gp_row *r) { return r->time_ms; }
static double get_regs(const gp_row *r) { return r->regs_per_thread; }

/* 100 x series k's median of get() over the precision's cuBLAS's (or,
 * cublas_over_k, cuBLAS's over k's: for times); NAN without cuBLAS or a
 * positive divisor. */
static double pct_of_cublas(const gp_where *w, const gp_key *k, gp_getter get,
                            int cublas_over_k)
{
    gp_key ref;
    if (gp_cublas_key(w, k->precision, &ref) < 0)
        return NAN;
    double a = gp_median(w, k, get), b = gp_median(w, &ref, get);
    if (cublas_over_k)
        return a > 0 && b > 0 ? 100 * b / a : NAN;
    return b > 0 ? 100 * a / b : NAN;
}

/* "yes", or what went wrong, from the first row of the series. */
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
        if (!usable) {
            gp_fmt(out, 64, "%.40s", r->verified == 0 ? "FAILED" :
                   gp_row_skipped(r) ? "skipped" : r->status[0] ? r->status : "n/a");
            return;
        }
    }
    gp_fmt(out, 64, "n/a");
}

/* Series k[i] at one shape: every number the median of its rows there
 * (select.h), the same number every other table and chart shows. */
static void summary_row(const gp_dataset *d, const long shape[3], const gp_key *k, int n,
                        int i, char (*c)[64])
{
    gp_where w = { .d = d, .shape = shape };
    const gp_key *s = &k[i];
    int usable = !isnan(gp_median(&w, s, gp_get_gflops)) ||
                 !isnan(gp_median(&w, s, get_time));
    gp_series_name(k, n, i, gp_key_kernel_twice(k, n, i), c[0], 64);
    gp_fmt(c[1], 64, "%s", s->precision);
    gp_key used = gp_config_at(&(gp_where){ .d = d, .shape = shape, .all_rows = 1 }, s);
    gp_fmt(c[2], 64, "%s", used.config[0] ? used.config : "-");
    gp_table_cell_num(c[3], "%.3f", gp_median(&w, s, get_time));
    double g = gp_median(&w, s, gp_get_gflops);
    gp_table_cell_num(c[4], g < 100 ? "%.1f" : "%.0f", g);
    gp_table_cell_num(c[5], "%.1f", gp_pct_cublas(&w, s));
    gp_table_cell_num(c[6], "%.1f", gp_speedup(&w, s));
    verdict(d, s, shape, usable, c[7]);
    gp_table_cell_num(c[8], "%.1f", gp_median(&w, s, gp_get_ai_dram));
    gp_table_cell_num(c[9], "%.0f", gp_median(&w, s, gp_get_dram_bytes) / 1e6);
    gp_table_cell_num(c[10], "%.0f", gp_median(&w, s, get_regs));
    gp_table_cell_num(c[11], "%.0f", gp_median(&w, s, gp_get_spill_bytes));
    gp_table_cell_num(c[12], "%.0f", gp_median(&w, s, gp_get_occ_theoretical));
    gp_table_cell_num(c[13], "%.0f", gp_median(&w, s, gp_get_occ_achieved));
}

int gp_table_summary(const gp_dataset *d, const long size[3], const gp_family *f,
                     gp_table *t)
{
    static const char *const head[] = {
        "kernel", "precision", "config", "time ms", "GFLOP/s", "% cuBLAS",
        "x naive", "verified", "FLOP/B DRAM", "DRAM MB", "regs", "spill B",
        "occ. theor. %", "occ. achieved %",
    };
    memset(t, 0, sizeof *t);
    t->ncol = (int)(sizeof head / sizeof head[0]);
    for (int i = 0; i < t->ncol; i++) {
        gp_fmt(t->head[i], sizeof t->head[i], "%s", head[i]);
        t->align[i] = i < 3 || i == 7 ? 'l' : 'r';
    }
    long *shape = t->shape;
    gp_where any = { .d = d, .need = gp_get_gflops };
    if (gp_shape_choose(&any, size, shape) < 0)
        return -1;
    gp_where at = { .d = d, .shape = shape, .all_rows = 1, .family = f };
    gp_key *k;
    int n = gp_keys(&at, &k), nref;
    if (f)
        n = gp_family_sort(f, k, n, &nref);
    if (n == 0 || gp_table_alloc(t, n) < 0) {
        free(k);
        return n == 0 ? 1 : -1;
    }
    for (int i = 0; i < n; i++)
        summary_row(d, shape, k, n, i, t->cell[t->nrow++]);
    char sz[64];
    gp_shape_str(shape, sz, sizeof sz);
    gp_fmt(t->caption, sizeof t->caption, "%s at size %s on %s (medians over repeated "
           "rows; x naive: speedup over the naive kernel)", f ? f->title : "Every kernel",
           sz, gp_meta_get(&d->meta, "gpu_name") ? gp_meta_get(&d->meta, "gpu_name")
                                                 : "an unknown GPU");
    free(k);
    return 0;
}

/* ---- energy (rows measured with --energy) ---- */

static double get_sustained(const gp_row *r) { return r->sustained_ms; }
static double get_power(const gp_row *r) { return r->power_w; }
static double get_energy(const gp_row *r) { return r->energy_j; }

/* GFLOP per joule: the GEMM's 2mnk over one launch's joules. */
static double get_gflop_per_j(const gp_row *r)
{
    double flop = isnan(r->flop_2mnk) ? 2.0 * r->m * r->n * r->k : r->flop_2mnk;
    return r->m > 0 && r->energy_j > 0 ? flop / r->energy_j / 1e9 : NAN;
}

int gp_table_energy(const gp_dataset *d, const long size[3], gp_table *t)
{
    static const char *const head[] = {
        "kernel", "precision", "time ms", "sustained ms", "sustained % cuBLAS",
        "W", "J/launch", "J % cuBLAS", "GFLOP/J",
    };
    memset(t, 0, sizeof *t);
    t->ncol = (int)(sizeof head / sizeof head[0]);
    for (int i = 0; i < t->ncol; i++) {
        gp_fmt(t->head[i], sizeof t->head[i], "%s", head[i]);
        t->align[i] = i < 2 ? 'l' : 'r';
    }
    gp_where any = { .d = d, .need = get_energy };
    if (gp_shape_choose(&any, size, t->shape) < 0)
        return 1;                                  /* nothing measured --energy */
    gp_where w = { .d = d, .need = get_energy, .shape = t->shape };
    gp_key *k;
    int n = gp_keys(&w, &k);
    if (n <= 0 || gp_table_alloc(t, n) < 0) {
        free(k);
        return n <= 0 ? 1 : -1;
    }
    for (int i = 0; i < n; i++) {
        char (*c)[64] = t->cell[t->nrow++];
        gp_kernel_label(k[i].kernel, c[0], 64);
        gp_fmt(c[1], 64, "%s", k[i].precision);
        gp_table_cell_num(c[2], "%.4f", gp_median(&w, &k[i], get_time));
        gp_table_cell_num(c[3], "%.4f", gp_median(&w, &k[i], get_sustained));
        gp_table_cell_num(c[4], "%.1f", pct_of_cublas(&w, &k[i], get_sustained, 1));
        gp_table_cell_num(c[5], "%.0f", gp_median(&w, &k[i], get_power));
        gp_table_cell_num(c[6], "%.4g", gp_median(&w, &k[i], get_energy));
        gp_table_cell_num(c[7], "%.1f", pct_of_cublas(&w, &k[i], get_energy, 0));
        gp_table_cell_num(c[8], "%.1f", gp_median(&w, &k[i], get_gflop_per_j));
    }
    char sz[64];
    gp_shape_str(t->shape, sz, sizeof sz);
    gp_fmt(t->caption, sizeof t->caption, "Energy at size %s on %s (--energy: each kernel "
           "back to back once every kernel of the size was timed; sustained %% cuBLAS = "
           "cuBLAS's sustained time / the kernel's; medians over repeated rows)", sz,
           gp_meta_get(&d->meta, "gpu_name") ? gp_meta_get(&d->meta, "gpu_name")
                                             : "an unknown GPU");
    free(k);
    return 0;
}

void gp_table_skipped(const gp_dataset *d, const gp_table *t, gp_strlist *out)
{
    for (int i = 0; i < d->nrows; i++) {
        const gp_row *r = &d->rows[i];
        if (!gp_row_skipped(r) || r->m != t->shape[0] || r->n != t->shape[1] ||
            r->k != t->shape[2])
            continue;
        int listed = 0;
        for (int j = 0; j < t->nrow && !listed; j++)
            listed = strncmp(t->cell[j][0], r->kernel, strlen(r->kernel)) == 0 &&
                     strchr("[", t->cell[j][0][strlen(r->kernel)]);   /* "k", "k[cfg]" */
        if (!listed)
            continue;
        char line[256];
        const char *why = r->status + 7;
        why += strspn(why, ": ");
        gp_fmt(line, sizeof line, "%s: %s", r->kernel, *why ? why : "skipped");
        int seen = 0;
        for (int j = 0; j < out->n && !seen; j++)
            seen = strcmp(out->v[j], line) == 0;
        if (!seen)
            gp_strlist_add(out, line);
    }
}

/* Sizes as columns, after kernel, precision and config: at most
 * `maxcols`, spread over the sweep.  *ncols, or 1 if there is one size. */
static int size_heads(gp_where *w, gp_sweep *s, int maxcols, long *pick, gp_table *t)
{
    if (gp_sweep_choose(w, s) < 0)
        return 1;
    w->sweep = s;
    long *xs;
    int nx = gp_sweep_xs(w, &xs);
    if (nx < 2) {
        free(xs);
        return 1;
    }
    if (maxcols > GP_TABLE_MAXCOL - 3)
        maxcols = GP_TABLE_MAXCOL - 3;
    int cols = nx < maxcols ? nx : maxcols;
    static const char *const first[] = { "kernel", "precision", "config" };
    t->ncol = cols + 3;
    for (int j = 0; j < 3; j++) {
        gp_fmt(t->head[j], sizeof t->head[j], "%s", first[j]);
        t->align[j] = 'l';
    }
    for (int j = 0; j < cols; j++) {
        pick[j] = xs[cols == 1 ? 0 : (long)j * (nx - 1) / (cols - 1)];
        gp_fmt(t->head[j + 3], sizeof t->head[j + 3], "%ld", pick[j]);
        t->align[j + 3] = 'r';
    }
    free(xs);
    return 0;
}

/* GFLOP/s of each series of w (rows) at each size (columns); the config
 * column as gp_series_config shows it (w->by_config: as in the rows). */
static int by_size(gp_where *w, const gp_family *f, int maxcols, gp_table *t)
{
    memset(t, 0, sizeof *t);
    gp_sweep s;
    long pick[GP_TABLE_MAXCOL];
    if (size_heads(w, &s, maxcols, pick, t) != 0)
        return 1;
    gp_key *k;
    int n = gp_keys(w, &k), nref;
    if (f)
        n = gp_family_sort(f, k, n, &nref);
    if (gp_table_alloc(t, n) < 0) {
        free(k);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        char (*c)[64] = t->cell[t->nrow++];
        gp_series_name(k, n, i, !w->by_config && gp_key_kernel_twice(k, n, i), c[0], 64);
        gp_fmt(c[1], 64, "%s", k[i].precision);
        if (w->by_config)
            gp_fmt(c[2], 64, "%s", k[i].config);
        else
            gp_series_config(k[i].config, c[2], 64);
        for (int j = 0; j + 3 < t->ncol; j++) {
            w->x = pick[j];
            double g = gp_median(w, &k[i], gp_get_gflops);
            gp_table_cell_num(c[j + 3], g < 100 ? "%.1f" : "%.0f", g);
        }
    }
    gp_fmt(t->caption, sizeof t->caption, "%s", s.label);   /* callers put theirs before */
    free(k);
    return 0;
}

static void caption_before(gp_table *t, const char *fmt, const char *a, const char *b)
{
    char axis[sizeof t->caption];
    gp_fmt(axis, sizeof axis, "%s", t->caption);
    gp_fmt(t->caption, sizeof t->caption, fmt, a, b);
    gp_fmt(t->caption + strlen(t->caption), sizeof t->caption - strlen(t->caption), ", %s",
           axis);
}

int gp_table_by_size(const gp_dataset *d, const gp_family *f, int maxcols, gp_table *t)
{
    gp_where w = { .d = d, .need = gp_get_gflops, .family = f };
    int rc = by_size(&w, f, maxcols, t);
    if (rc == 0)
        caption_before(t, "GFLOP/s by size%s%s", f ? ": " : "", f ? f->title : "");
    return rc;
}

int gp_table_sweep(const gp_dataset *d, const gp_key *kernel, int maxcols, gp_table *t)
{
    gp_where w = { .d = d, .need = gp_get_gflops, .by_config = 1, .sweep_configs = 1,
                   .only = kernel };
    int rc = by_size(&w, NULL, maxcols, t);
    if (rc == 0)
        caption_before(t, "GFLOP/s of each tile config of %s (%s) that gemmprof sweep "
                       "measured, by size", kernel->kernel, kernel->precision);
    return rc;
}

void gp_table_markdown(FILE *f, const gp_table *t)
{
    gp_esc_markdown(f, t->caption);
    fprintf(f, "\n\n|");
    for (int j = 0; j < t->ncol; j++) {
        fputc(' ', f);
        gp_esc_markdown(f, t->head[j]);
        fputs(" |", f);
    }
    fprintf(f, "\n|");
    for (int j = 0; j < t->ncol; j++)
        fprintf(f, t->align[j] == 'r' ? "---:|" : ":---|");
    for (int i = 0; i < t->nrow; i++) {
        fprintf(f, "\n|");
        for (int j = 0; j < t->ncol; j++) {
            fputc(' ', f);
            gp_esc_markdown(f, t->cell[i][j]);
            fputs(" |", f);
        }
    }
    fputc('\n', f);
}

/* The headings, then each row, every text through `put`: `sep` between
 * cells, `head_end` after the headings, `row_end` after each row. */
static void write_cells(FILE *f, const gp_table *t, void (*put)(FILE *, const char *),
                        const char *sep, const char *head_end, const char *row_end)
{
    for (int j = 0; j < t->ncol; j++) {
        put(f, t->head[j]);
        fputs(j + 1 < t->ncol ? sep : head_end, f);
    }
    for (int i = 0; i < t->nrow; i++)
        for (int j = 0; j < t->ncol; j++) {
            put(f, t->cell[i][j]);
            fputs(j + 1 < t->ncol ? sep : row_end, f);
        }
}

static void tex(FILE *f, const char *s)
{
    char buf[512];
    gp_esc_latex(s, buf, sizeof buf);
    fputs(buf, f);
}

void gp_table_latex(FILE *f, const gp_table *t, const char *label)
{
    /* footnotesize, narrow gaps: eleven columns fit a 160 mm text block */
    fprintf(f, "%% generated by gemmprof report; needs \\usepackage{booktabs}\n"
               "\\begin{table}[htbp]\n\\centering\n\\footnotesize\n"
               "\\setlength{\\tabcolsep}{2.5pt}\n\\caption{");
    tex(f, t->caption);
    fprintf(f, "}\n\\label{%s}\n\\begin{tabular}{@{}", label);
    for (int j = 0; j < t->ncol; j++)
        fputc(t->align[j], f);
    fprintf(f, "@{}}\n\\toprule\n");
    write_cells(f, t, tex, " & ", " \\\\\n\\midrule\n", " \\\\\n");
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
        for (int j = 0; j < t->ncol; j++) {
            char c[64];                 /* a newline in a name: a space */
            gp_chart_text("pdf", t->cell[i][j], 0, c, sizeof c);
            fprintf(f, t->align[j] == 'r' ? "%*s  " : "%-*s  ", w[j], c);
        }
        fputc('\n', f);
    }
}

void gp_table_roff(FILE *f, const gp_table *t)
{
    fprintf(f, ".TS\ncenter tab(|);\n");
    for (int j = 0; j < t->ncol; j++)            /* headings: bold */
        fprintf(f, "%s%cB", j ? " " : "", t->align[j] == 'r' ? 'r' : 'l');
    fprintf(f, "\n");
    for (int j = 0; j < t->ncol; j++)
        fprintf(f, "%s%c", j ? " " : "", t->align[j] == 'r' ? 'r' : 'l');
    fprintf(f, ".\n=\n");
    write_cells(f, t, gp_esc_roff, "|", "\n_\n", "\n");
    fprintf(f, "=\n.TE\n");
}

/* Some columns of a table, in a table of their own. */
/* Those of its rows that keep() says yes to (NULL: all). */
static int pick_rows(const gp_table *in, const int *cols, int n,
                     int (*keep)(char (*row)[64]), gp_table *out)
{
    memset(out, 0, sizeof *out);
    gp_fmt(out->caption, sizeof out->caption, "%s", in->caption);
    memcpy(out->shape, in->shape, sizeof out->shape);
    out->ncol = n;
    for (int j = 0; j < n; j++) {
        gp_fmt(out->head[j], sizeof out->head[j], "%s", in->head[cols[j]]);
        out->align[j] = in->align[cols[j]];
    }
    if (gp_table_alloc(out, in->nrow) < 0)
        return -1;
    for (int i = 0; i < in->nrow; i++) {
        if (keep && !keep(in->cell[i]))
            continue;
        for (int j = 0; j < n; j++)
            memcpy(out->cell[out->nrow][j], in->cell[i][cols[j]], sizeof out->cell[0][j]);
        out->nrow++;
    }
    return 0;
}

static int pick(const gp_table *in, const int *cols, int n, gp_table *out)
{
    return pick_rows(in, cols, n, NULL, out);
}

int gp_table_brief(const gp_table *summary, gp_table *out)
{
    static const int cols[] = {
        GP_COL_KERNEL, GP_COL_GFLOPS, GP_COL_PCT, GP_COL_SPEEDUP, GP_COL_VERIFIED, GP_COL_AI,
        GP_COL_DRAM, GP_COL_REGS, GP_COL_SPILL, GP_COL_OCC_TH, GP_COL_OCC_ACH,
    };
    int n = (int)(sizeof cols / sizeof cols[0]);
    if (pick(summary, cols, n, out) < 0)
        return -1;
    gp_fmt(out->head[5], sizeof out->head[5], "FLOP/B");      /* of DRAM traffic */
    gp_fmt(out->head[9], sizeof out->head[9], "occ. th.");
    gp_fmt(out->head[10], sizeof out->head[10], "occ. ach.");
    gp_fmt(out->caption + strlen(out->caption), sizeof out->caption - strlen(out->caption),
           "; occupancy, theoretical and achieved, in %% of the peak warps");
    return 0;
}

int gp_table_by_size_brief(const gp_table *by_size, gp_table *out)
{
    int cols[GP_TABLE_MAXCOL] = { 0 }, n = 1;
    for (int j = 3; j < by_size->ncol; j++)
        cols[n++] = j;
    return pick(by_size, cols, n, out);
}

/* The fastest config of k's kernel measured at the shape of w, among all
 * of them (sweep configs included): into *best; returns how many. */
static int best_config(const gp_where *w, const gp_key *k, gp_key *best, double *g)
{
    gp_where all = *w;
    all.by_config = 1;
    all.sweep_configs = 1;
    all.only = k;
    gp_key *c;
    int n = gp_keys(&all, &c);
    *g = NAN;
    for (int i = 0; i < n; i++) {
        double v = gp_median(&all, &c[i], gp_get_gflops);
        if (!isnan(v) && !(v <= *g)) {
            *g = v;
            *best = c[i];
        }
    }
    free(c);
    return n;
}

static void configs_row(const gp_dataset *d, const long shape[3], const gp_key *k, int n,
                        int i, char (*c)[64])
{
    gp_where w = { .d = d, .shape = shape, .need = gp_get_gflops };
    gp_series_name(k, n, i, 0, c[0], 64);              /* the config is beside it */
    gp_fmt(c[1], 64, "%s", k[i].precision);
    gp_key used = gp_config_at(&(gp_where){ .d = d, .shape = shape, .all_rows = 1 }, &k[i]);
    gp_fmt(c[2], 64, "%s", used.config[0] ? used.config : "-");
    double g = gp_median(&w, &k[i], gp_get_gflops), bg;
    gp_table_cell_num(c[3], g < 100 ? "%.1f" : "%.0f", g);
    gp_key best = k[i];
    int nc = best_config(&w, &k[i], &best, &bg);
    gp_fmt(c[4], 64, "%d", nc);
    if (nc < 2) {                              /* nothing to compare with */
        gp_fmt(c[5], 64, "-");
        gp_fmt(c[6], 64, "-");
        return;
    }
    gp_fmt(c[5], 64, "%s", isnan(bg) ? "n/a" : best.config[0] ? best.config : "-");
    gp_table_cell_num(c[6], bg < 100 ? "%.1f" : "%.0f", bg);
}

int gp_table_configs(const gp_dataset *d, const gp_table *summary, gp_table *t)
{
    static const char *const head[] = {
        "kernel", "precision", "config", "GFLOP/s", "configs measured", "best config",
        "best GFLOP/s",
    };
    memset(t, 0, sizeof *t);
    t->ncol = (int)(sizeof head / sizeof head[0]);
    for (int i = 0; i < t->ncol; i++) {
        gp_fmt(t->head[i], sizeof t->head[i], "%s", head[i]);
        t->align[i] = i < 3 || i == 5 ? 'l' : 'r';
    }
    memcpy(t->shape, summary->shape, sizeof t->shape);
    gp_where at = { .d = d, .shape = t->shape, .all_rows = 1 };
    gp_key *k;
    int n = gp_keys(&at, &k);
    if (gp_table_alloc(t, n) < 0) {
        free(k);
        return -1;
    }
    for (int i = 0; i < n; i++)
        configs_row(d, t->shape, k, n, i, t->cell[t->nrow++]);
    free(k);
    char sz[64];
    gp_shape_str(t->shape, sz, sizeof sz);
    gp_fmt(t->caption, sizeof t->caption, "The tile config of each kernel at size %s, and "
           "where it was measured in several there (gemmprof sweep rows included), the "
           "fastest of them", sz);
    return 0;
}

int gp_table_configs_brief(const gp_table *configs, gp_table *out)
{
    static const int cols[] = { 0, 1, 2 };
    if (pick(configs, cols, 3, out) < 0)
        return -1;
    gp_fmt(out->caption, sizeof out->caption, "The tile config of each kernel at the "
           "size of the tables above");
    return 0;
}

static int several(char (*row)[64])
{
    return atoi(row[4]) > 1;
}

int gp_table_fastest(const gp_table *configs, gp_table *out)
{
    static const int cols[] = { 0, 2, 3, 4, 5, 6 };
    if (pick_rows(configs, cols, 6, several, out) < 0)
        return -1;
    char sz[64];
    gp_shape_str(configs->shape, sz, sizeof sz);
    gp_fmt(out->caption, sizeof out->caption, "Kernels measured in several tile configs at "
           "size %s (gemmprof sweep rows included): the fastest of them", sz);
    return out->nrow ? 0 : 1;
}

void gp_table_short_configs(gp_table *t)
{
    for (int j = 0; j < t->ncol; j++) {
        if (!strstr(t->head[j], "config") || strcmp(t->head[j], "configs measured") == 0)
            continue;
        for (int i = 0; i < t->nrow; i++) {
            char c[64];
            gp_config_short(t->cell[i][j], c, sizeof c);
            memcpy(t->cell[i][j], c, sizeof c);
        }
    }
}

int gp_table_copy(const gp_table *in, gp_table *out)
{
    int cols[GP_TABLE_MAXCOL];
    for (int j = 0; j < in->ncol; j++)
        cols[j] = j;
    return pick(in, cols, in->ncol, out);
}
