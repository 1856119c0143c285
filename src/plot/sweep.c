/* sweep.c - the charts over a size sweep: GFLOP/s vs N, speedup over
 * naive and % of cuBLAS, and the tile-config crossover.  Each writes one
 * CSV of blocks (one per series, two blank lines apart) for its script. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"
#include "select.h"

/* Everything a sweep chart starts from. */
typedef struct {
    gp_where w;
    gp_sweep s;
    long *xs;
    int nx;
    gp_key *k;
    int nk;
} sweep;

static void sweep_free(sweep *sw)
{
    free(sw->xs);
    free(sw->k);
}

/* 0, or 1 (skipped, msg says why). */
static int sweep_open(sweep *sw, const char *chart, char *msg, size_t msglen)
{
    sw->xs = NULL;
    sw->k = NULL;
    if (gp_sweep_choose(&sw->w, &sw->s) < 0) {
        gp_fmt(msg, msglen, "%s: skipped, no gflops values", chart);
        return 1;
    }
    sw->w.sweep = &sw->s;
    sw->nx = gp_sweep_xs(&sw->w, &sw->xs);
    sw->nk = gp_keys(&sw->w, &sw->k);
    if (sw->nx < 2) {
        gp_fmt(msg, msglen, "%s: skipped, one size only (%c = %ld); it needs a "
               "size sweep (--sizes)", chart, sw->s.label[0], sw->nx ? sw->xs[0] : 0L);
        return 1;
    }
    return 0;
}

/* cuBLAS series last: they are drawn as references, not as rungs. */
static int refs_last(gp_key *k, int n)
{
    gp_key tmp[n > 0 ? n : 1];
    int o = 0, nref = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < n; i++) {
            if (gp_name_is_cublas(k[i].kernel) == pass) {
                tmp[o++] = k[i];
                nref += pass;
            }
        }
    memcpy(k, tmp, (size_t)n * sizeof *k);
    return nref;
}

/* Series names as one gnuplot word each; the precision is added where a
 * name occurs in two precisions. */
static void name_words(const gp_chart_opts *o, const gp_key *k, int n, int by_config,
                       gp_buf *out)
{
    for (int i = 0; i < n; i++) {
        char raw[160], word[400];
        int dup = 0;
        for (int j = 0; j < n; j++)
            dup |= j != i && strcmp(k[i].kernel, k[j].kernel) == 0 &&
                   strcmp(k[i].precision, k[j].precision) != 0;
        if (by_config)
            gp_fmt(raw, sizeof raw, "%s", k[i].config);
        else
            gp_fmt(raw, sizeof raw, dup ? "%s(%s)" : "%s", k[i].kernel, k[i].precision);
        gp_chart_text(o->format, raw, 1, word, sizeof word);
        gp_buf_printf(out, "%s%s", i ? " " : "", word);
    }
}

static FILE *open_work(const gp_chart_opts *o, const char *name, char *path,
                       size_t plen, char *msg, size_t msglen)
{
    return gp_open_in(o->workdir, name, path, plen, msg, msglen);
}

static int close_work(FILE *f, const char *path, char *msg, size_t msglen)
{
    if (fclose(f) == 0)
        return 0;
    gp_fmt(msg, msglen, "%s: write failed", path);
    return -1;
}

static void csv_num(FILE *f, double v, const char *sep)
{
    if (isnan(v))
        fprintf(f, "NA%s", sep);
    else
        fprintf(f, "%.6g%s", v, sep);
}

static double median_at(sweep *sw, const gp_key *k, long x, gp_getter get)
{
    sw->w.x = x;
    return gp_median(&sw->w, k, get);
}

int gp_chart_gflops(const gp_dataset *d, const gp_chart_opts *o,
                    gp_strlist *written, char *msg, size_t msglen)
{
    sweep sw = { .w = { .d = d, .need = gp_get_gflops } };
    int rc = sweep_open(&sw, "gflops_vs_n", msg, msglen);
    if (rc) {
        sweep_free(&sw);
        return rc;
    }
    int nref = refs_last(sw.k, sw.nk);
    char path[4096];
    FILE *f = open_work(o, "gflops_vs_n.csv", path, sizeof path, msg, msglen);
    if (!f) {
        sweep_free(&sw);
        return -1;
    }
    for (int i = 0; i < sw.nk; i++) {
        fprintf(f, "# %s %s\n", sw.k[i].kernel, sw.k[i].precision);
        for (int j = 0; j < sw.nx; j++) {
            double g = median_at(&sw, &sw.k[i], sw.xs[j], gp_get_gflops);
            if (!isnan(g))
                fprintf(f, "%ld,%.6g\n", sw.xs[j], g);
        }
        fprintf(f, "\n\n");
    }
    rc = close_work(f, path, msg, msglen);
    if (rc == 0) {
        gp_buf v = { 0 }, names = { 0 };
        char title[512], xlab[256];
        name_words(o, sw.k, sw.nk, 0, &names);
        gp_chart_title(o, title, sizeof title, "GFLOP/s over size: %s", gp_chart_gpu(d));
        gp_chart_title(o, xlab, sizeof xlab, "%s", sw.s.label);
        gp_var_str(&v, "f", path);
        gp_var_str(&v, "names", names.s);
        gp_var_num(&v, "nref", nref);
        gp_var_str(&v, "xlab", xlab);
        gp_var_str(&v, "ttl", title);
        rc = gp_chart_draw(o, "gflops_vs_n.gp", "gflops_vs_n", &v, written, msg, msglen);
        gp_buf_free(&v);
        gp_buf_free(&names);
    }
    sweep_free(&sw);
    return rc;
}

static double get_pct(const gp_row *r) { return r->pct_cublas; }

/* % of cuBLAS: the run's own column, else from the cuBLAS row of the same
 * precision and size. */
static double pct_cublas(sweep *sw, const gp_key *k, long x)
{
    double p = median_at(sw, k, x, get_pct);
    gp_key ref;
    if (!isnan(p) || gp_cublas_key(&sw->w, k->precision, &ref) < 0)
        return p;
    double g = median_at(sw, k, x, gp_get_gflops);
    double gr = median_at(sw, &ref, x, gp_get_gflops);
    return gr > 0 ? 100 * g / gr : NAN;
}

static double speedup(sweep *sw, const gp_key *k, long x)
{
    gp_key base;
    if (gp_baseline_key(&sw->w, k->precision, &base) < 0)
        return NAN;
    double g = median_at(sw, k, x, gp_get_gflops);
    double gb = median_at(sw, &base, x, gp_get_gflops);
    return gb > 0 ? g / gb : NAN;
}

/* The baseline named on the axis: the first precision's. */
static void baseline_name(sweep *sw, char *out, size_t len)
{
    gp_key base;
    gp_fmt(out, len, "naive");
    for (int i = 0; i < sw->nk; i++)
        if (gp_baseline_key(&sw->w, sw->k[i].precision, &base) == 0) {
            gp_fmt(out, len, "%s", base.kernel);
            return;
        }
}

static int speedup_draw(const gp_dataset *d, const gp_chart_opts *o, sweep *sw,
                        const char *path, int nref, int has_sp, int has_pct,
                        gp_strlist *written, char *msg, size_t msglen)
{
    gp_buf v = { 0 }, names = { 0 };
    char title[512], xlab[256], base[128], base_t[256];
    name_words(o, sw->k, sw->nk, 0, &names);
    baseline_name(sw, base, sizeof base);
    gp_chart_text(o->format, base, 0, base_t, sizeof base_t);
    gp_chart_title(o, title, sizeof title, "Speedup over %s and share of cuBLAS: %s",
                   base, gp_chart_gpu(d));
    gp_chart_title(o, xlab, sizeof xlab, "%s", sw->s.label);
    gp_var_str(&v, "f", path);
    gp_var_str(&v, "names", names.s);
    gp_var_num(&v, "nref", nref);
    gp_var_num(&v, "has_sp", has_sp);
    gp_var_num(&v, "has_pct", has_pct);
    gp_var_str(&v, "base", base_t);
    gp_var_str(&v, "xlab", xlab);
    gp_var_str(&v, "ttl", title);
    int rc = gp_chart_draw(o, "speedup.gp", "speedup", &v, written, msg, msglen);
    gp_buf_free(&v);
    gp_buf_free(&names);
    return rc;
}

int gp_chart_speedup(const gp_dataset *d, const gp_chart_opts *o,
                     gp_strlist *written, char *msg, size_t msglen)
{
    sweep sw = { .w = { .d = d, .need = gp_get_gflops } };
    int rc = sweep_open(&sw, "speedup", msg, msglen);
    if (rc) {
        sweep_free(&sw);
        return rc;
    }
    int nref = refs_last(sw.k, sw.nk), has_sp = 0, has_pct = 0;
    char path[4096];
    FILE *f = open_work(o, "speedup.csv", path, sizeof path, msg, msglen);
    if (!f) {
        sweep_free(&sw);
        return -1;
    }
    for (int i = 0; i < sw.nk; i++) {
        int ref = i >= sw.nk - nref;
        fprintf(f, "# %s %s: x,speedup,pct_cublas\n", sw.k[i].kernel, sw.k[i].precision);
        for (int j = 0; j < sw.nx; j++) {
            double s = speedup(&sw, &sw.k[i], sw.xs[j]);
            double p = ref ? NAN : pct_cublas(&sw, &sw.k[i], sw.xs[j]);
            if (isnan(s) && isnan(p))
                continue;
            has_sp |= !isnan(s);
            has_pct |= !isnan(p);
            fprintf(f, "%ld,", sw.xs[j]);
            csv_num(f, s, ",");
            csv_num(f, p, "\n");
        }
        fprintf(f, "\n\n");
    }
    rc = close_work(f, path, msg, msglen);
    if (rc == 0 && !has_sp && !has_pct) {
        gp_fmt(msg, msglen, "speedup: skipped, no naive or cuBLAS rows to compare with");
        rc = 1;
    }
    if (rc == 0)
        rc = speedup_draw(d, o, &sw, path, nref, has_sp, has_pct, written, msg, msglen);
    sweep_free(&sw);
    return rc;
}

/* ---- crossover ---- */

static double need_config(const gp_row *r)
{
    return r->config[0] ? r->gflops : NAN;
}

/* Best config (index into k) at each x where two or more were measured,
 * -1 elsewhere; returns how many x had a contest. */
static int best_per_x(sweep *sw, double *g, int *best)
{
    int contests = 0;
    for (int j = 0; j < sw->nx; j++) {
        int n = 0;
        best[j] = -1;
        for (int i = 0; i < sw->nk; i++) {
            double v = g[i * sw->nx + j];
            if (isnan(v))
                continue;
            n++;
            if (best[j] < 0 || v > g[best[j] * sw->nx + j])
                best[j] = i;
        }
        if (n < 2)
            best[j] = -1;
        contests += n >= 2;
    }
    return contests;
}

/* Where the new best overtakes the old one: the two curves' difference
 * interpolated linearly in log2(x), between sizes a and b. */
static double crossing(sweep *sw, const double *g, int old, int neu, int a, int b)
{
    double d0 = g[neu * sw->nx + a] - g[old * sw->nx + a];
    double d1 = g[neu * sw->nx + b] - g[old * sw->nx + b];
    double l0 = log2((double)sw->xs[a]), l1 = log2((double)sw->xs[b]);
    double t = (isnan(d0) || isnan(d1) || d1 == d0) ? 0.5 : -d0 / (d1 - d0);
    t = fmin(fmax(t, 0), 1);
    return exp2(l0 + t * (l1 - l0));
}

static int write_crossovers(const gp_chart_opts *o, sweep *sw, const double *g,
                            const int *best, const char *path, char *msg, size_t msglen)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        gp_fmt(msg, msglen, "%s: cannot write", path);
        return -1;
    }
    int latex = strcmp(o->format, "cairolatex") == 0, n = 0, prev = -1;
    fprintf(f, "# x,label\n");
    for (int j = 0; j < sw->nx; j++) {
        if (best[j] < 0)
            continue;
        if (prev >= 0 && best[prev] != best[j]) {
            double x = crossing(sw, g, best[prev], best[j], prev, j);
            char cfg[256];
            gp_data_text(o->format, sw->k[best[j]].config, cfg, sizeof cfg);
            /* gnuplot halves the backslashes of strings in data files */
            fprintf(f, "%.6g,N %s %.0f: %s best above\n", x,
                    latex ? "$\\\\approx$" : "\xe2\x89\x88", x, cfg);
            n++;
        }
        prev = j;
    }
    if (fclose(f) != 0) {
        gp_fmt(msg, msglen, "%s: write failed", path);
        return -1;
    }
    return n;
}

static void file_safe(const char *in, char *out, size_t len)
{
    size_t i = 0;
    for (; in[i] && i + 1 < len; i++) {
        char c = in[i];
        int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                 (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
        out[i] = ok ? c : '_';
    }
    out[i] = '\0';
}

/* GFLOP/s per config (rows) and size (columns), one block per config. */
static int write_configs(const gp_chart_opts *o, sweep *sw, const double *g,
                         char *path, size_t plen, char *msg, size_t msglen)
{
    FILE *f = open_work(o, "crossover.csv", path, plen, msg, msglen);
    if (!f)
        return -1;
    for (int i = 0; i < sw->nk; i++) {
        fprintf(f, "# %s\n", sw->k[i].config);
        for (int j = 0; j < sw->nx; j++)
            if (!isnan(g[i * sw->nx + j]))
                fprintf(f, "%ld,%.6g\n", sw->xs[j], g[i * sw->nx + j]);
        fprintf(f, "\n\n");
    }
    return close_work(f, path, msg, msglen);
}

static int crossover_draw(const gp_dataset *d, const gp_chart_opts *o, sweep *sw,
                          const double *g, const int *best, gp_strlist *written,
                          char *msg, size_t msglen)
{
    char data[4096], xf[4096], stem[128], safe[96], title[512], xlab[256];
    if (write_configs(o, sw, g, data, sizeof data, msg, msglen) < 0)
        return -1;
    gp_path_join(xf, sizeof xf, o->workdir, "crossover-sizes.csv");
    int nx = write_crossovers(o, sw, g, best, xf, msg, msglen);
    if (nx < 0)
        return -1;
    double top = 0;
    for (int i = 0; i < sw->nk * sw->nx; i++)
        if (!isnan(g[i]))
            top = fmax(top, g[i]);
    const gp_key *kernel = sw->w.only;
    gp_buf v = { 0 }, names = { 0 };
    name_words(o, sw->k, sw->nk, 1, &names);
    gp_chart_title(o, title, sizeof title, "Tile configurations of %s (%s): %s",
                   kernel->kernel, kernel->precision, gp_chart_gpu(d));
    gp_chart_title(o, xlab, sizeof xlab, "%s", sw->s.label);
    gp_var_str(&v, "f", data);
    gp_var_str(&v, "names", names.s);
    gp_var_str(&v, "xf", xf);
    gp_var_num(&v, "nx", nx);
    gp_var_num(&v, "ymax", top * 1.12);
    gp_var_str(&v, "xlab", xlab);
    gp_var_str(&v, "ttl", title);
    file_safe(kernel->kernel, safe, sizeof safe);
    gp_fmt(stem, sizeof stem, "crossover-%s", safe);
    int rc = gp_chart_draw(o, "crossover.gp", stem, &v, written, msg, msglen);
    gp_buf_free(&v);
    gp_buf_free(&names);
    return rc;
}

/* One kernel's chart: 0 drawn, 1 nothing to compare, -1 error. */
static int crossover_one(const gp_dataset *d, const gp_chart_opts *o,
                         const gp_key *kernel, gp_strlist *written,
                         char *msg, size_t msglen)
{
    sweep sw = { .w = { .d = d, .need = need_config, .by_config = 1, .only = kernel } };
    if (sweep_open(&sw, "crossover", msg, msglen) != 0 || sw.nk < 2) {
        sweep_free(&sw);
        return 1;
    }
    double *g = malloc((size_t)sw.nk * (size_t)sw.nx * sizeof *g);
    int *best = malloc((size_t)sw.nx * sizeof *best);
    int rc = 1;
    if (!g || !best) {
        gp_fmt(msg, msglen, "out of memory");
        rc = -1;
    } else {
        for (int i = 0; i < sw.nk; i++)
            for (int j = 0; j < sw.nx; j++)
                g[i * sw.nx + j] = median_at(&sw, &sw.k[i], sw.xs[j], gp_get_gflops);
        if (best_per_x(&sw, g, best) > 0)
            rc = crossover_draw(d, o, &sw, g, best, written, msg, msglen);
    }
    free(g);
    free(best);
    sweep_free(&sw);
    return rc;
}

int gp_chart_crossover(const gp_dataset *d, const gp_chart_opts *o,
                       gp_strlist *written, char *msg, size_t msglen)
{
    gp_where w = { .d = d, .need = need_config };
    gp_key *k;
    int nk = gp_keys(&w, &k), drawn = 0;
    for (int i = 0; i < nk; i++) {
        char why[512];
        int rc = crossover_one(d, o, &k[i], written, why, sizeof why);
        if (rc < 0) {
            gp_fmt(msg, msglen, "%s", why);
            free(k);
            return -1;
        }
        drawn += rc == 0;
    }
    free(k);
    if (drawn)
        return 0;
    gp_fmt(msg, msglen, "crossover: skipped, no kernel has two or more configs "
             "measured at the same size (see gemmprof sweep)");
    return 1;
}
