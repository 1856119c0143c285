/* metrics.c - the metrics panel: for one size, per rung, DRAM traffic
 * against the compulsory minimum, bank-conflict ratio, spill bytes and
 * achieved against theoretical occupancy. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"
#include "select.h"

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
    return t > 0 ? t * 1.3 : 1;   /* headroom for the key */
}

static int has(const double *v, int n, int col)
{
    for (int i = 0; i < n; i++)
        if (!isnan(v[i * NCOL + col]))
            return 1;
    return 0;
}

static int write_rows(const gp_chart_opts *o, const gp_key *k, int n, const double *v,
                      char *path, size_t plen, char *msg, size_t msglen)
{
    FILE *f = gp_open_in(o->workdir, "metrics.csv", path, plen, msg, msglen);
    if (!f)
        return -1;
    fprintf(f, "# label,dram_mb,compulsory_mb,bank_ratio,spill_bytes,"
               "occ_achieved,occ_theoretical\n");
    for (int i = 0; i < n; i++) {
        char name[256], label[48];
        gp_kernel_label(k[i].kernel, label, sizeof label);
        gp_data_text(o->format, label, name, sizeof name);
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
        gp_fmt(msg, msglen, "%s: write failed", path);
        return -1;
    }
    return 0;
}

static int draw(const gp_dataset *d, const gp_chart_opts *o, const gp_key *k, int n,
                const double *v, const long shape[3], gp_strlist *written,
                char *msg, size_t msglen)
{
    char path[4096], title[512], sz[64];
    if (write_rows(o, k, n, v, path, sizeof path, msg, msglen) < 0)
        return -1;
    double lo = INFINITY, hi = 0;
    for (int i = 0; i < n; i++)
        for (int c = DRAM; c <= COMPULSORY; c++)
            if (!isnan(v[i * NCOL + c]) && v[i * NCOL + c] > 0) {
                lo = fmin(lo, v[i * NCOL + c] / 1e6);
                hi = fmax(hi, v[i * NCOL + c] / 1e6);
            }
    gp_shape_str(shape, sz, sizeof sz);
    gp_chart_title(o, title, sizeof title, "Why each rung is faster: %s, size %s",
                   gp_chart_gpu(d), sz);
    gp_buf b = { 0 };
    gp_var_str(&b, "f", path);
    gp_var_num(&b, "nrow", n);
    gp_var_num(&b, "has_dram", has(v, n, DRAM));
    gp_var_num(&b, "has_comp", has(v, n, COMPULSORY));
    gp_var_num(&b, "has_bank", has(v, n, BANK));
    gp_var_num(&b, "has_spill", has(v, n, SPILL));
    gp_var_num(&b, "has_ach", has(v, n, OCC_ACH));
    gp_var_num(&b, "has_theo", has(v, n, OCC_TH));
    gp_var_num(&b, "dram_lo", pow(10, floor(log10(isinf(lo) ? 1 : lo / 1.5))));
    gp_var_num(&b, "dram_hi", pow(10, ceil(log10(hi > 0 ? hi * 8 : 10))));
    gp_var_num(&b, "bank_hi", nice_top(top_of(v, n, BANK)));
    gp_var_num(&b, "spill_hi", nice_top(top_of(v, n, SPILL)));
    gp_var_str(&b, "ttl", title);
    int rc = gp_chart_draw(o, "metrics.gp", "metrics", &b, written, msg, msglen);
    gp_buf_free(&b);
    return rc;
}

int gp_chart_metrics(const gp_dataset *d, const gp_chart_opts *o,
                     gp_strlist *written, char *msg, size_t msglen)
{
    gp_where w = { .d = d, .need = need_any };
    long shape[3];
    if (gp_shape_choose(&w, o->size, shape) < 0) {
        gp_fmt(msg, msglen, "metrics: skipped, no counters, spills or occupancy "
                 "in the data%s", o->size[0] ? " at that size" : "");
        return 1;
    }
    w.shape = shape;
    gp_key *k;
    int n = gp_keys(&w, &k);
    double *v = malloc((size_t)(n + 1) * NCOL * sizeof *v);
    for (int i = 0; v && i < n; i++)
        for (int c = 0; c < NCOL; c++)
            v[i * NCOL + c] = gp_median(&w, &k[i], getters[c]);
    int rc = -1;
    if (!v)
        gp_fmt(msg, msglen, "out of memory");
    else
        rc = draw(d, o, k, n, v, shape, written, msg, msglen);
    free(v);
    free(k);
    return rc;
}
