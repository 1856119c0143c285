/* sweep.c - the charts over a size sweep, one per family: GFLOP/s vs N,
 * speedup over naive and % of cuBLAS; and the tile-config crossover, one
 * per swept kernel.  Each writes one CSV of blocks (one per series, two
 * blank lines apart) for its script, and the frame it is drawn in. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"
#include "frame.h"
#include "charts.h"

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

/* 0, or 1 (skipped, err says why). */
static int sweep_open(sweep *sw, const char *chart, char *err, size_t errlen)
{
    sw->xs = NULL;
    sw->k = NULL;
    if (gp_sweep_choose(&sw->w, &sw->s) < 0) {
        gp_fmt(err, errlen, "%s: skipped, no gflops values", chart);
        return 1;
    }
    sw->w.sweep = &sw->s;
    sw->nx = gp_sweep_xs(&sw->w, &sw->xs);
    sw->nk = gp_keys(&sw->w, &sw->k);
    if (sw->nx < 2) {
        gp_fmt(err, errlen, "%s: skipped, one size only (%c = %ld); it needs a "
               "size sweep (--sizes)", chart, sw->s.label[0], sw->nx ? sw->xs[0] : 0L);
        return 1;
    }
    return 0;
}

/* Series names as one gnuplot word each (the precision added where a name
 * occurs in two, the config where a kernel has two series: a size-
 * dispatched kernel run by default and tuned), and their linetypes (a
 * kernel's second series 20 rungs on: another colour).  Returns the widest
 * name (pt). */
static double series_words(const gp_chart_opts *o, const gp_family *f, const gp_key *k,
                           int n, gp_buf *names, gp_buf *lts)
{
    double widest = 0;
    for (int i = 0; i < n; i++) {
        char series[160], raw[200];
        int dup = 0, again = 0;
        for (int j = 0; j < n; j++) {
            dup |= j != i && strcmp(k[i].kernel, k[j].kernel) == 0 &&
                   strcmp(k[i].precision, k[j].precision) != 0;
            again += j < i && strcmp(k[i].kernel, k[j].kernel) == 0 &&
                     strcmp(k[i].precision, k[j].precision) == 0;
        }
        gp_series_label(k, n, i, gp_key_kernel_twice(k, n, i), 28, series, sizeof series);
        gp_fmt(raw, sizeof raw, dup ? "%s(%s)" : "%s", series, k[i].precision);
        gp_word(names, o->format, raw);
        int lt = gp_family_lt(f, k[i].kernel, k[i].precision);
        if (again && lt <= 40)
            lt = 1 + (lt - 1 + 20 * again) % 40;
        gp_buf_printf(lts, "%s%d", i ? " " : "", lt);
        widest = fmax(widest, gp_text_width(raw, GP_LABEL_FONT));
    }
    return widest;
}

/* The chart's data file, "STEM.csv", its axis named for other readers. */
static FILE *open_data(const gp_chart_opts *o, const sweep *sw, const char *stem,
                       const char *columns, char *path, size_t plen, char *err, size_t errlen)
{
    char name[160], axis[160];
    gp_fmt(name, sizeof name, "%s.csv", stem);
    gp_fmt(axis, sizeof axis, "axis: %s", sw->s.label);
    return gp_chart_data_open(o, name, axis, columns, path, plen, err, errlen);
}

static int close_work(FILE *f, const char *path, char *err, size_t errlen)
{
    if (fclose(f) == 0)
        return 0;
    gp_fmt(err, errlen, "%s: write failed", path);
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

/* The size axis: log 2, powers of two as tics. */
static void size_axis(gp_buf *v, const sweep *sw, const gp_chart_opts *o)
{
    double lo = (double)sw->xs[0] / 1.2, hi = (double)sw->xs[sw->nx - 1] * 1.2;
    gp_buf t = { 0 }, bare = { 0 };
    gp_buf_printf(&t, "(");
    gp_buf_printf(&bare, "(");
    int n = 0;
    for (double x = 1; x <= hi; x *= 2)
        if (x >= lo) {
            gp_buf_printf(&t, "%s'%.0f' %.0f", n ? ", " : "", x, x);
            gp_buf_printf(&bare, "%s\"\" %.0f", n++ ? ", " : "", x);
        }
    gp_buf_printf(&t, ")");
    gp_buf_printf(&bare, ")");
    gp_var_str(v, "xt_bare", bare.s);
    gp_buf_free(&bare);
    char xlab[256];
    gp_chart_title(o, xlab, sizeof xlab, "%s", sw->s.label);
    gp_var_num(v, "xmin", lo);
    gp_var_num(v, "xmax", hi);
    gp_var_str(v, "xt", t.s);
    gp_var_str(v, "xlab", xlab);
    gp_buf_free(&t);
}

/* A performance axis: log 10 in GFLOP/s or TFLOP/s over [lo, hi] GFLOP/s;
 * returns the scale the data is written in. */
static double perf_axis(gp_buf *v, double lo, double hi)
{
    const char *unit;
    double scale = gp_flops_unit(hi, &unit), a, b;
    gp_log_range(lo / 1.3 / scale, hi * 1.3 / scale, &a, &b);
    char ylab[64];
    gp_fmt(ylab, sizeof ylab, "Performance (%s)", unit);
    gp_var_num(v, "ymin", a);
    gp_var_num(v, "ymax", b);
    gp_log_tics(v, "yt", a, b, 7);
    gp_var_str(v, "ylab", ylab);
    return scale;
}

static const char *stem_of(const gp_family *f, const char *chart, char *out, size_t len)
{
    if (f->whole)
        gp_fmt(out, len, "%s", chart);
    else
        gp_fmt(out, len, "%s-%s", chart, f->name);
    return out;
}

static int gflops_one(const gp_dataset *d, const gp_chart_opts *o, const gp_family *fam,
                      gp_strlist *written, char *err, size_t errlen)
{
    sweep sw = { .w = { .d = d, .need = gp_get_gflops, .family = fam } };
    int rc = sweep_open(&sw, "gflops_vs_n", err, errlen);
    if (rc) {
        sweep_free(&sw);
        return rc;
    }
    int nref;
    sw.nk = gp_family_sort(fam, sw.k, sw.nk, &nref);
    double lo = INFINITY, hi = 0;
    for (int i = 0; i < sw.nk; i++)
        for (int j = 0; j < sw.nx; j++) {
            double g = median_at(&sw, &sw.k[i], sw.xs[j], gp_get_gflops);
            if (g > 0) {
                lo = fmin(lo, g);
                hi = fmax(hi, g);
            }
        }
    gp_buf v = { 0 }, names = { 0 }, lts = { 0 };
    double scale = perf_axis(&v, lo, hi);
    char path[4096];
    char stem[96];
    stem_of(fam, "gflops_vs_n", stem, sizeof stem);
    const char *unit;
    char columns[32];
    gp_flops_unit(hi, &unit);
    gp_fmt(columns, sizeof columns, "x,%s", unit);
    FILE *f = open_data(o, &sw, stem, columns, path, sizeof path, err, errlen);
    rc = f ? 0 : -1;
    for (int i = 0; f && i < sw.nk; i++) {
        gp_chart_data_series(f, &sw.k[i], 0);
        for (int j = 0; j < sw.nx; j++) {
            double g = median_at(&sw, &sw.k[i], sw.xs[j], gp_get_gflops);
            if (g > 0)
                fprintf(f, "%ld,%.6g\n", sw.xs[j], g / scale);
        }
        fprintf(f, "\n\n");
    }
    if (f)
        rc = close_work(f, path, err, errlen);
    if (rc == 0) {
        char title[512], caption[512];
        double widest = series_words(o, fam, sw.k, sw.nk, &names, &lts);
        gp_frame fr;
        gp_frame_stack(&fr, 52, 14, 220, 38, sw.nk, gp_key_cols(widest), 0);
        gp_chart_title(o, title, sizeof title, "Performance over size, %s: %s", fam->title,
                       gp_chart_gpu(d));
        gp_fmt(caption, sizeof caption, "%s over the size sweep: the performance of each "
               "kernel, cuBLAS dashed black.", fam->title);
        gp_frame_vars(&v, o, &fr, caption);
        size_axis(&v, &sw, o);
        gp_var_str(&v, "f", path);
        gp_var_str(&v, "names", names.s);
        gp_var_str(&v, "lts", lts.s);
        gp_var_num(&v, "nref", nref);
        gp_var_str(&v, "ttl", title);
        rc = gp_chart_draw(o, "gflops_vs_n.gp", stem, caption, &v, written, err, errlen);
    }
    gp_buf_free(&v);
    gp_buf_free(&names);
    gp_buf_free(&lts);
    sweep_free(&sw);
    return rc;
}

int gp_chart_gflops(const gp_dataset *d, const gp_chart_opts *o,
                    gp_strlist *written, char *err, size_t errlen)
{
    return gp_chart_each_family(d, o, gflops_one, written, err, errlen);
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

typedef struct {
    int has_sp, has_pct;
    double sp_lo, sp_hi, pct_hi;
} speedup_range;

static int speedup_draw(const gp_dataset *d, const gp_chart_opts *o, const gp_family *fam,
                        sweep *sw, const char *path, int nref, const speedup_range *r,
                        gp_strlist *written, char *err, size_t errlen)
{
    gp_buf v = { 0 }, names = { 0 }, lts = { 0 };
    char title[512], base[128], base_t[256], caption[512], stem[96];
    double widest = series_words(o, fam, sw->k, sw->nk, &names, &lts);
    baseline_name(sw, base, sizeof base);
    gp_chart_text(o->format, base, 0, base_t, sizeof base_t);
    gp_chart_title(o, title, sizeof title, "Speedup over %s and share of cuBLAS, %s: %s",
                   base, fam->title, gp_chart_gpu(d));
    gp_fmt(caption, sizeof caption, "%s over the size sweep: speedup over %s (top) and "
           "share of cuBLAS (bottom).", fam->title, base);
    gp_frame fr;
    gp_frame_stack(&fr, 52, 14, 330, 38, sw->nk, gp_key_cols(widest), 0);
    /* two panels, 20 pt apart: the split, in points from the bottom */
    double mid = (fr.plot.y0 + fr.plot.y1) / 2;
    gp_frame_vars(&v, o, &fr, caption);
    double ch = o->page_w > 0 ? o->page_h : fr.h, oy = o->page_w > 0 ? ch - 60 - fr.h : 0;
    gp_var_num(&v, "split_lo", (oy + mid - 10) / ch);
    gp_var_num(&v, "split_hi", (oy + mid + 10) / ch);
    size_axis(&v, sw, o);
    double a = 1, b = 10;
    if (r->has_sp)
        gp_log_range(r->sp_lo / 1.3, r->sp_hi * 1.3, &a, &b);
    gp_var_num(&v, "spmin", a);
    gp_var_num(&v, "spmax", b);
    gp_log_tics(&v, "spt", a, b, 5);
    gp_var_num(&v, "pctmax", fmax(110, ceil(r->pct_hi * 1.08 / 10) * 10));
    gp_var_str(&v, "f", path);
    gp_var_str(&v, "names", names.s);
    gp_var_str(&v, "lts", lts.s);
    gp_var_num(&v, "nref", nref);
    gp_var_num(&v, "has_sp", r->has_sp);
    gp_var_num(&v, "has_pct", r->has_pct);
    gp_var_str(&v, "base", base_t);
    gp_var_str(&v, "ttl", title);
    int rc = gp_chart_draw(o, "speedup.gp", stem_of(fam, "speedup", stem, sizeof stem),
                           caption, &v, written, err, errlen);
    gp_buf_free(&v);
    gp_buf_free(&names);
    gp_buf_free(&lts);
    return rc;
}

static int speedup_one(const gp_dataset *d, const gp_chart_opts *o, const gp_family *fam,
                       gp_strlist *written, char *err, size_t errlen)
{
    sweep sw = { .w = { .d = d, .need = gp_get_gflops, .family = fam } };
    int rc = sweep_open(&sw, "speedup", err, errlen);
    if (rc) {
        sweep_free(&sw);
        return rc;
    }
    int nref;
    sw.nk = gp_family_sort(fam, sw.k, sw.nk, &nref);
    speedup_range r = { 0, 0, INFINITY, 0, 0 };
    char path[4096];
    char stem[96];
    FILE *f = open_data(o, &sw, stem_of(fam, "speedup", stem, sizeof stem),
                        "x,x naive,% cuBLAS", path, sizeof path, err, errlen);
    if (!f) {
        sweep_free(&sw);
        return -1;
    }
    for (int i = 0; i < sw.nk; i++) {
        int ref = i >= sw.nk - nref;
        gp_chart_data_series(f, &sw.k[i], 0);
        for (int j = 0; j < sw.nx; j++) {
            sw.w.x = sw.xs[j];
            double s = gp_speedup(&sw.w, &sw.k[i]);
            double p = ref ? NAN : gp_pct_cublas(&sw.w, &sw.k[i]);
            if (isnan(s) && isnan(p))
                continue;
            if (s > 0) {
                r.has_sp = 1;
                r.sp_lo = fmin(r.sp_lo, s);
                r.sp_hi = fmax(r.sp_hi, s);
            }
            if (!isnan(p)) {
                r.has_pct = 1;
                r.pct_hi = fmax(r.pct_hi, p);
            }
            fprintf(f, "%ld,", sw.xs[j]);
            csv_num(f, s, ",");
            csv_num(f, p, "\n");
        }
        fprintf(f, "\n\n");
    }
    rc = close_work(f, path, err, errlen);
    if (rc == 0 && !r.has_sp && !r.has_pct) {
        gp_fmt(err, errlen, "speedup: skipped, no naive or cuBLAS rows to compare with");
        rc = 1;
    }
    if (rc == 0)
        rc = speedup_draw(d, o, fam, &sw, path, nref, &r, written, err, errlen);
    sweep_free(&sw);
    return rc;
}

int gp_chart_speedup(const gp_dataset *d, const gp_chart_opts *o,
                     gp_strlist *written, char *err, size_t errlen)
{
    return gp_chart_each_family(d, o, speedup_one, written, err, errlen);
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

/* The crossovers: x and a number per row in path (the number tags the
 * dotted line at the top of the plot), and per crossover one legend entry
 * "N = x: config best above" in keys (quoted words) with its width in
 * *widest.  The text went on the line itself once, rotated and boxed: in
 * a steep stretch of a curve the box hid the curve (seen on the H200
 * dgemm_mixed chart). */
static int write_crossovers(const gp_chart_opts *o, sweep *sw, const double *g,
                            const int *best, const char *path, gp_buf *keys,
                            double *widest, char *err, size_t errlen)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        gp_fmt(err, errlen, "%s: cannot write", path);
        return -1;
    }
    int latex = strcmp(o->format, "cairolatex") == 0, n = 0, prev = -1;
    fprintf(f, "# x,tag\n");
    for (int j = 0; j < sw->nx; j++) {
        if (best[j] < 0)
            continue;
        if (prev >= 0 && best[prev] != best[j]) {
            double x = crossing(sw, g, best[prev], best[j], prev, j);
            char cfg[256], shortc[128], key[400];
            gp_config_short(sw->k[best[j]].config, shortc, sizeof shortc);
            gp_chart_text(o->format, shortc, 0, cfg, sizeof cfg);
            for (char *c = cfg; *c; c++)
                if (*c == '"')
                    *c = '\'';
            fprintf(f, "%.6g,%d\n", x, ++n);
            gp_fmt(key, sizeof key, "%d  N %s %.0f: %s best above", n,
                   latex ? "$\\approx$" : "\xe2\x89\x88", x, cfg);
            gp_buf_printf(keys, "%s\"%s\"", keys->len ? " " : "", key);
            *widest = fmax(*widest, gp_text_width(key, GP_LABEL_FONT));
        }
        prev = j;
    }
    if (fclose(f) != 0) {
        gp_fmt(err, errlen, "%s: write failed", path);
        return -1;
    }
    return n;
}

/* GFLOP/s per config (rows) and size (columns), one block per config. */
static int write_configs(const gp_chart_opts *o, sweep *sw, const double *g, double scale,
                         const char *unit, const char *stem, char *path, size_t plen,
                         char *err, size_t errlen)
{
    char columns[32];
    gp_fmt(columns, sizeof columns, "x,%s", unit);
    FILE *f = open_data(o, sw, stem, columns, path, plen, err, errlen);
    if (!f)
        return -1;
    for (int i = 0; i < sw->nk; i++) {
        gp_chart_data_series(f, &sw->k[i], 1);
        for (int j = 0; j < sw->nx; j++)
            if (!isnan(g[i * sw->nx + j]))
                fprintf(f, "%ld,%.6g\n", sw->xs[j], g[i * sw->nx + j] / scale);
        fprintf(f, "\n\n");
    }
    return close_work(f, path, err, errlen);
}

static int crossover_draw(const gp_dataset *d, const gp_chart_opts *o, sweep *sw,
                          const double *g, const int *best, gp_strlist *written,
                          char *err, size_t errlen)
{
    char data[4096], xf[4096], stem[128], safe[96], title[512], caption[512];
    double top = 0;
    for (int i = 0; i < sw->nk * sw->nx; i++)
        if (!isnan(g[i]))
            top = fmax(top, g[i]);
    const char *unit;
    double scale = gp_flops_unit(top, &unit);
    const gp_key *kernel = sw->w.only;
    gp_file_word(kernel->kernel, safe, sizeof safe);
    gp_fmt(stem, sizeof stem, "crossover-%s", safe);
    if (write_configs(o, sw, g, scale, unit, stem, data, sizeof data, err, errlen) < 0)
        return -1;
    gp_path_join(xf, sizeof xf, o->workdir, "crossover-sizes.csv");
    gp_buf v = { 0 }, names = { 0 }, xnames = { 0 };
    double widest = 0;
    int nx = write_crossovers(o, sw, g, best, xf, &xnames, &widest, err, errlen);
    if (nx < 0) {
        gp_buf_free(&xnames);
        return -1;
    }
    for (int i = 0; i < sw->nk; i++) {
        char c[128];
        gp_config_short(sw->k[i].config, c, sizeof c);
        gp_word(&names, o->format, c);
        widest = fmax(widest, gp_text_width(c, GP_LABEL_FONT));
    }
    gp_chart_title(o, title, sizeof title, "Tile configurations of %s (%s): %s",
                   kernel->kernel, kernel->precision, gp_chart_gpu(d));
    gp_fmt(caption, sizeof caption, "The tile configurations of %s over the size sweep; "
           "dotted: the best one changes.", kernel->kernel);
    gp_frame fr;
    gp_frame_stack(&fr, 52, 14, 220, 38, sw->nk + nx, gp_key_cols(widest), 0);
    gp_frame_vars(&v, o, &fr, caption);
    size_axis(&v, sw, o);
    char ylab[64];
    gp_fmt(ylab, sizeof ylab, "Performance (%s)", unit);
    gp_var_str(&v, "ylab", ylab);
    gp_var_str(&v, "f", data);
    gp_var_str(&v, "names", names.s);
    gp_var_str(&v, "xf", xf);
    gp_var_str(&v, "xnames", xnames.len ? xnames.s : "");
    gp_var_num(&v, "nx", nx);
    gp_var_num(&v, "ymax", top * 1.15 / scale);
    gp_var_str(&v, "ttl", title);
    int rc = gp_chart_draw(o, "crossover.gp", stem, caption, &v, written, err, errlen);
    gp_buf_free(&v);
    gp_buf_free(&names);
    gp_buf_free(&xnames);
    return rc;
}

/* One kernel's chart: 0 drawn, 1 nothing to compare, -1 error. */
static int crossover_one(const gp_dataset *d, const gp_chart_opts *o,
                         const gp_key *kernel, gp_strlist *written,
                         char *err, size_t errlen)
{
    sweep sw = { .w = { .d = d, .need = need_config, .by_config = 1, .sweep_configs = 1,
                        .only = kernel } };
    if (sweep_open(&sw, "crossover", err, errlen) != 0 || sw.nk < 2) {
        sweep_free(&sw);
        return 1;
    }
    double *g = malloc((size_t)sw.nk * (size_t)sw.nx * sizeof *g);
    int *best = malloc((size_t)sw.nx * sizeof *best);
    int rc = 1;
    if (!g || !best) {
        gp_fmt(err, errlen, "out of memory");
        rc = -1;
    } else {
        for (int i = 0; i < sw.nk; i++)
            for (int j = 0; j < sw.nx; j++)
                g[i * sw.nx + j] = median_at(&sw, &sw.k[i], sw.xs[j], gp_get_gflops);
        if (best_per_x(&sw, g, best) > 0)
            rc = crossover_draw(d, o, &sw, g, best, written, err, errlen);
    }
    free(g);
    free(best);
    sweep_free(&sw);
    return rc;
}

int gp_chart_crossover(const gp_dataset *d, const gp_chart_opts *o,
                       gp_strlist *written, char *err, size_t errlen)
{
    gp_where w = { .d = d, .need = need_config, .sweep_configs = 1 };
    gp_key *k;
    int nk = gp_keys(&w, &k), drawn = 0;
    for (int i = 0; i < nk; i++) {
        int chosen = !o->families, seen = 0;   /* --family / --kernel */
        for (int j = 0; j < i && !seen; j++)   /* one chart per kernel */
            seen = strcmp(k[j].kernel, k[i].kernel) == 0 &&
                   strcmp(k[j].precision, k[i].precision) == 0;
        if (seen)
            continue;
        for (int j = 0; !chosen && j < o->families->n; j++)
            chosen = gp_family_index(&o->families->f[j], k[i].kernel, k[i].precision) >= 0;
        if (!chosen)
            continue;
        char why[512];
        int rc = crossover_one(d, o, &k[i], written, why, sizeof why);
        if (rc < 0) {
            gp_fmt(err, errlen, "%s", why);
            free(k);
            return -1;
        }
        drawn += rc == 0;
    }
    free(k);
    if (drawn)
        return 0;
    gp_fmt(err, errlen, "crossover: skipped, no kernel has two or more configs "
             "measured at the same size (see gemmprof sweep)");
    return 1;
}
