/* metrics.c - the metrics panel: for one size, per rung, DRAM traffic
 * against the compulsory minimum, bank-conflict ratio, spill bytes and
 * achieved against theoretical occupancy. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"
#include "frame.h"
#include "charts.h"

enum { DRAM, COMPULSORY, BANK, SPILL, OCC_ACH, OCC_TH, NCOL };

static const gp_getter getters[NCOL] = {
    gp_get_dram_bytes, gp_get_compulsory_bytes, gp_get_bank_ratio,
    gp_get_spill_bytes, gp_get_occ_achieved, gp_get_occ_theoretical,
};

/* A row counts if it has any of the panel's numbers (the compulsory bytes
 * always exist, so they do not count). */
static double need_any(const gp_row *r)
{
    for (int c = 0; c < NCOL; c++)
        if (c != COMPULSORY && !isnan(getters[c](r)))
            return 1;
    return NAN;
}

static double top_of(const double *v, int n, int col)
{
    double t = 0;
    for (int i = 0; i < n; i++)
        if (!isnan(v[i * NCOL + col]))
            t = fmax(t, v[i * NCOL + col]);
    return t;
}

static double nice_top(double t)
{
    return t > 0 ? t * 1.15 : 1;
}

/* A round (1-2-5) step giving two or three ticks on [0, top]: panels
 * are narrow. */
static double tick_step(double top)
{
    double want = top / 3, e = pow(10, floor(log10(want)));
    return want <= e ? e : want <= 2 * e ? 2 * e : want <= 5 * e ? 5 * e : 10 * e;
}

static int has(const double *v, int n, int col)
{
    for (int i = 0; i < n; i++)
        if (!isnan(v[i * NCOL + col]))
            return 1;
    return 0;
}

/* A row's name: the kernel's, with the config where it has two series. */
static void row_name(const gp_key *k, int n, int i, char *out, size_t len)
{
    gp_series_label(k, n, i, gp_key_kernel_twice(k, n, i), 28, out, len);
}

static int write_rows(const gp_chart_opts *o, const gp_key *k, int n, const double *v,
                      const char *stem, const long shape[3], char *path, size_t plen,
                      char *err, size_t errlen)
{
    char name[256], sz[64];
    gp_fmt(name, sizeof name, "%s.csv", stem);
    gp_shape_str(shape, sz, sizeof sz);
    char where[80];
    gp_fmt(where, sizeof where, "shape: %s", sz);
    FILE *f = gp_chart_data_open(o, name, where, "label,dram_mb,compulsory_mb,bank_ratio,"
                                 "spill_bytes,occ_achieved,occ_theoretical",
                                 path, plen, err, errlen);
    if (!f)
        return -1;
    for (int i = 0; i < n; i++) {
        char shown[256];
        row_name(k, n, i, shown, sizeof shown);
        gp_data_text(o->format, shown, name, sizeof name);
        gp_chart_data_series(f, &k[i], 0);
        fprintf(f, "%s", name);
        for (int c = 0; c < NCOL; c++) {
            double x = v[i * NCOL + c];
            if (c == DRAM || c == COMPULSORY)
                x /= 1e6;
            fprintf(f, isnan(x) ? ",NA" : ",%.6g", x);
        }
        fputc('\n', f);
    }
    if (fclose(f) != 0) {
        gp_fmt(err, errlen, "%s: write failed", path);
        return -1;
    }
    return 0;
}

static int draw(const gp_dataset *d, const gp_chart_opts *o, const gp_family *fam,
                const gp_key *k, int n, const double *v, const long shape[3],
                gp_strlist *written, char *err, size_t errlen)
{
    char path[4096], title[512], sz[64], caption[512], stem[96];
    gp_fmt(stem, sizeof stem, fam->whole ? "metrics" : "metrics-%s", fam->name);
    if (write_rows(o, k, n, v, stem, shape, path, sizeof path, err, errlen) < 0)
        return -1;
    double lo = INFINITY, hi = 0, names_w = 0;
    for (int i = 0; i < n; i++) {
        char shortn[256];
        row_name(k, n, i, shortn, sizeof shortn);
        names_w = fmax(names_w, gp_text_width(shortn, GP_LABEL_FONT));
        for (int c = DRAM; c <= COMPULSORY; c++)
            if (!isnan(v[i * NCOL + c]) && v[i * NCOL + c] > 0) {
                lo = fmin(lo, v[i * NCOL + c] / 1e6);
                hi = fmax(hi, v[i * NCOL + c] / 1e6);
            }
    }
    gp_shape_str(shape, sz, sizeof sz);
    gp_chart_title(o, title, sizeof title, "Why each rung is faster, %s: %s, size %s",
                   fam->title, gp_chart_gpu(d), sz);
    gp_fmt(caption, sizeof caption, "%s at size %s: DRAM traffic, bank conflicts, "
           "spills and occupancy of each kernel.", fam->title, sz);
    /* One row per kernel, four panels side by side, names on the left. */
    gp_frame fr;
    gp_frame_stack(&fr, names_w + 10, 14, 13.0 * n + 6, 40, 4, 2, 2);
    gp_buf b = { 0 };
    gp_frame_vars(&b, o, &fr, caption);
    gp_var_str(&b, "f", path);
    gp_var_num(&b, "nrow", n);
    gp_var_num(&b, "gap", 22 / (o->page_w > 0 ? o->page_w : fr.w));
    gp_var_num(&b, "has_dram", has(v, n, DRAM));
    gp_var_num(&b, "has_comp", has(v, n, COMPULSORY));
    gp_var_num(&b, "has_bank", has(v, n, BANK));
    gp_var_num(&b, "has_spill", has(v, n, SPILL));
    gp_var_num(&b, "no_spill", has(v, n, SPILL) && top_of(v, n, SPILL) == 0);
    gp_var_num(&b, "has_ach", has(v, n, OCC_ACH));
    gp_var_num(&b, "has_theo", has(v, n, OCC_TH));
    double a = 1, z = 10;
    if (hi > 0)
        gp_log_range(lo / 1.5, hi * 1.5, &a, &z);
    gp_var_num(&b, "dram_lo", a);
    gp_var_num(&b, "dram_hi", z);
    gp_log_tics(&b, "dram_t", a, z, 3);   /* a narrow panel */
    double bank = nice_top(top_of(v, n, BANK)), spill = nice_top(top_of(v, n, SPILL));
    gp_var_num(&b, "bank_hi", bank);
    gp_var_num(&b, "bank_step", tick_step(bank));
    gp_var_num(&b, "spill_hi", spill);
    gp_var_num(&b, "spill_step", tick_step(spill));
    gp_var_str(&b, "ttl", title);
    int rc = gp_chart_draw(o, "metrics.gp", stem, caption, &b, written, err, errlen);
    gp_buf_free(&b);
    return rc;
}

static int metrics_one(const gp_dataset *d, const gp_chart_opts *o, const gp_family *fam,
                       gp_strlist *written, char *err, size_t errlen)
{
    gp_where w = { .d = d, .need = need_any, .family = fam };
    long shape[3];
    if (gp_shape_choose(&w, o->size, shape) < 0) {
        gp_fmt(err, errlen, "metrics: skipped, no counters, spills or occupancy "
                 "in the data%s", o->size[0] ? " at that size" : "");
        return 1;
    }
    w.shape = shape;
    gp_key *k;
    int n = gp_keys(&w, &k);
    int nref, m = gp_family_sort(fam, k, n, &nref);   /* ladder order */
    double *v = malloc((size_t)(m + 1) * NCOL * sizeof *v);
    for (int i = 0; v && i < m; i++)
        for (int c = 0; c < NCOL; c++)
            v[i * NCOL + c] = gp_median(&w, &k[i], getters[c]);
    int rc = -1;
    if (!v)
        gp_fmt(err, errlen, "out of memory");
    else
        rc = draw(d, o, fam, k, m, v, shape, written, err, errlen);
    free(v);
    free(k);
    return rc;
}

int gp_chart_metrics(const gp_dataset *d, const gp_chart_opts *o,
                     gp_strlist *written, char *err, size_t errlen)
{
    return gp_chart_each_family(d, o, metrics_one, written, err, errlen);
}
