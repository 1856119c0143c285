/* hotspots.c - a traced program's series ranked by total GPU time
 * (hotspots.h): grouped, summed, shared out, and printed as the table
 * `gemmprof trace` ends with. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"
#include "csv.h"
#include "hotspots.h"

static long launches_of(const gp_row *r)
{
    return r->launches > 0 ? r->launches : 1;
}

/* A row's GPU time: its total, else its median times its launches (the
 * same for a row of one launch).  A trace's per-configuration row sums the
 * `reps` launches that were timed unprofiled, not the profiled ones (their
 * time was replayed): those count at the timed launches' mean. */
static double row_total(const gp_row *r)
{
    if (isnan(r->time_total_ms))
        return r->time_ms * (double)launches_of(r);
    if (r->reps > 0 && r->reps < launches_of(r))
        return r->time_total_ms * (double)launches_of(r) / (double)r->reps;
    return r->time_total_ms;
}

static int same_series(const gp_hotspot *h, const gp_row *r)
{
    return strcmp(h->kernel, r->kernel) == 0 && strcmp(h->precision, r->precision) == 0 &&
           strcmp(h->config, r->config) == 0;
}

typedef struct { double v, w; } weighted;

static int cmp_weighted(const void *a, const void *b)
{
    double x = ((const weighted *)a)->v, y = ((const weighted *)b)->v;
    return (x > y) - (x < y);
}

/* The weighted median: the value where half the weight lies on each side;
 * where a boundary falls exactly between two values, their mean (so that
 * with unit weights it is the usual median). */
static double weighted_median(weighted *p, int n)
{
    double total = 0, run = 0;
    qsort(p, (size_t)n, sizeof *p, cmp_weighted);
    for (int i = 0; i < n; i++)
        total += p[i].w;
    for (int i = 0; i < n; i++) {
        run += p[i].w;
        if (run > total / 2)
            return p[i].v;
        if (run == total / 2)
            return i + 1 < n ? (p[i].v + p[i + 1].v) / 2 : p[i].v;
    }
    return NAN;
}

/* Median time, GFLOP/s and intensity of series h over its rows. */
static void medians(gp_hotspot *h, const gp_row *rows, int n, weighted *tw, double *g,
                    double *ai)
{
    int nt = 0, ng = 0, na = 0;
    for (int i = 0; i < n; i++) {
        const gp_row *r = &rows[i];
        if (gp_row_skipped(r) || !same_series(h, r))
            continue;
        if (!isnan(r->time_ms))
            tw[nt++] = (weighted){ r->time_ms, (double)launches_of(r) };
        if (!isnan(r->gflops))
            g[ng++] = r->gflops;
        if (!isnan(r->ai_dram))
            ai[na++] = r->ai_dram;
    }
    h->median_ms = nt ? weighted_median(tw, nt) : NAN;
    h->gflops = gp_median_inplace(g, (size_t)ng);
    h->ai_dram = gp_median_inplace(ai, (size_t)na);
}

static int cmp_total(const void *a, const void *b)
{
    const gp_hotspot *x = a, *y = b;
    if (isnan(x->total_ms) != isnan(y->total_ms))
        return isnan(x->total_ms) ? 1 : -1;
    if (!isnan(x->total_ms) && x->total_ms != y->total_ms)
        return x->total_ms < y->total_ms ? 1 : -1;
    return 0;
}

int gp_hotspots_of(const gp_row *rows, int n, const gp_ceilings *ceil, const gp_meta *meta,
                   gp_hotspots *out)
{
    memset(out, 0, sizeof *out);
    out->h = calloc((size_t)n + 1, sizeof *out->h);
    weighted *tw = malloc(((size_t)n + 1) * sizeof *tw);
    double *g = malloc(((size_t)n + 1) * sizeof *g), *ai = malloc(((size_t)n + 1) * sizeof *ai);
    if (!out->h || !tw || !g || !ai) {
        free(tw), free(g), free(ai);
        gp_hotspots_free(out);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        const gp_row *r = &rows[i];
        if (gp_row_skipped(r))
            continue;
        int j = 0;
        while (j < out->n && !same_series(&out->h[j], r))
            j++;
        gp_hotspot *h = &out->h[j];
        if (j == out->n) {
            *h = (gp_hotspot){ .kernel = r->kernel, .precision = r->precision,
                               .config = r->config, .total_ms = NAN };
            out->n++;
        }
        h->nrows++;
        h->launches += launches_of(r);
        double t = row_total(r);
        if (!isnan(t))
            h->total_ms = isnan(h->total_ms) ? t : h->total_ms + t;
    }
    double sum = 0;
    for (int j = 0; j < out->n; j++) {
        gp_hotspot *h = &out->h[j];
        medians(h, rows, n, tw, g, ai);
        const char *prec[1] = { h->precision };
        gp_roofs roofs;
        gp_roofs_of(ceil, meta, prec, 1, 0, &roofs);
        h->bound = gp_roofs_bound(&roofs, h->ai_dram);
        out->launches += h->launches;
        if (!isnan(h->total_ms))
            sum += h->total_ms;
    }
    out->total_ms = sum;
    for (int j = 0; j < out->n; j++)
        out->h[j].share = out->h[j].total_ms / sum * 100;   /* NAN when untimed */
    /* Largest total first; equal totals (and the untimed) keep the file's
     * order: a stable insertion sort (a few dozen series). */
    for (int i = 1; i < out->n; i++) {
        gp_hotspot t = out->h[i];
        int j = i;
        while (j > 0 && cmp_total(&out->h[j - 1], &t) > 0) {
            out->h[j] = out->h[j - 1];
            j--;
        }
        out->h[j] = t;
    }
    free(tw), free(g), free(ai);
    return 0;
}

void gp_hotspots_free(gp_hotspots *hs)
{
    free(hs->h);
    memset(hs, 0, sizeof *hs);
}

int gp_hotspots_shown(const gp_hotspots *hs, int top)
{
    return top < 0 ? 0 : top < hs->n ? top : hs->n;
}

int gp_hotspots_rest(const gp_hotspots *hs, int top, gp_hotspot *other)
{
    int from = gp_hotspots_shown(hs, top);
    *other = (gp_hotspot){ .kernel = "", .precision = "", .config = "", .total_ms = NAN,
                           .share = NAN, .median_ms = NAN, .gflops = NAN, .ai_dram = NAN };
    for (int i = from; i < hs->n; i++) {
        const gp_hotspot *h = &hs->h[i];
        other->nrows++;
        other->launches += h->launches;
        if (!isnan(h->total_ms)) {
            other->total_ms = isnan(other->total_ms) ? h->total_ms : other->total_ms + h->total_ms;
            other->share = isnan(other->share) ? h->share : other->share + h->share;
        }
    }
    return other->nrows > 0;
}

/* "grid=66x2x1 block=384x1x1 cluster=1x2x1" -> "66x2/384": grid and block,
 * trailing x1 dimensions dropped. */
static void compact_config(const char *config, char *out, size_t len)
{
    char part[2][32] = { "", "" };
    const char *key[2] = { "grid=", "block=" };
    for (int i = 0; i < 2; i++) {
        const char *p = strstr(config, key[i]);
        if (!p)
            continue;
        gp_fmt(part[i], sizeof part[i], "%.*s", (int)strcspn(p + strlen(key[i]), " "),
               p + strlen(key[i]));
        size_t l;
        while ((l = strlen(part[i])) > 2 && strcmp(part[i] + l - 2, "x1") == 0)
            part[i][l - 2] = '\0';
    }
    if (part[0][0] || part[1][0])
        gp_fmt(out, len, "%s/%s", part[0], part[1]);
    else
        gp_fmt(out, len, "%s", config);
}

static const char *hotspot_kernel(const void *hs, int j)
{
    return ((const gp_hotspots *)hs)->h[j].kernel;
}

void gp_hotspot_name(const gp_hotspots *hs, int shown, int i, int max, char *out,
                     size_t len)
{
    const gp_hotspot *h = &hs->h[i];
    char label[GP_KERNEL_NAME_MAX], other[GP_KERNEL_NAME_MAX], extra[96] = "";
    int told = 0;
    gp_kernel_label(h->kernel, label, sizeof label);
    for (int j = 0; j < shown && !extra[0]; j++) {
        if (j == i)
            continue;
        gp_kernel_label(hs->h[j].kernel, other, sizeof other);
        if (strcmp(hs->h[j].kernel, h->kernel) == 0 && h->config[0]) {
            char cfg[80];                         /* one kernel, two configs */
            compact_config(h->config, cfg, sizeof cfg);
            gp_fmt(extra, sizeof extra, " [%s]", cfg);
        } else if (!told && strcmp(other, label) == 0) {   /* two kernels, one label */
            /* over all the series, not just those shown, so that the
             * report's other tables (gp_series_name) give it the same word */
            gp_kernel_tell_apart(hotspot_kernel, hs, hs->n, i, extra, sizeof extra);
            told = 1;
        }
    }
    int room = max - (int)strlen(extra);
    room = room > 8 ? room : 8;
    if ((int)strlen(label) > room)               /* cut, and say so */
        memcpy(label + room - 3, "...", 4);
    gp_fmt(out, len, "%s%s", label, extra);
}

/* A number in `w` columns, "-" for NA. */
static void num(FILE *f, int w, const char *fmt, double v)
{
    if (isnan(v))
        fprintf(f, " %*s", w, "-");
    else
        fprintf(f, fmt, w, v);
}

#define NAME_W 40

static void line(FILE *f, const char *rank, const char *name, const gp_hotspot *h,
                 const char *bound)
{
    fprintf(f, "%3s  %-*s", rank, NAME_W, name);
    num(f, 6, " %*.1f%%", h->share);
    fprintf(f, " %9ld", h->launches);
    num(f, 10, " %*.4g", h->median_ms);
    num(f, 9, " %*.0f", h->gflops);
    num(f, 8, " %*.3g", h->ai_dram);
    fprintf(f, "  %s\n", bound);
}

void gp_hotspots_print(FILE *f, const gp_hotspots *hs, int top, const char *what)
{
    int shown = gp_hotspots_shown(hs, top);
    fprintf(f, "gemmprof: where the GPU time went in %s: %.4g ms, %ld launch%s of %d "
            "kernel%s\n", what, hs->total_ms, hs->launches, hs->launches == 1 ? "" : "es",
            hs->n, hs->n == 1 ? "" : "s");
    fprintf(f, "%3s  %-*s %7s %9s %10s %9s %8s  %s\n", "#", NAME_W, "kernel", "share",
            "launches", "median ms", "GFLOP/s", "FLOP/B", "bound");
    for (int i = 0; i < shown; i++) {
        char rank[8], name[128];
        gp_fmt(rank, sizeof rank, "%d", i + 1);
        gp_hotspot_name(hs, shown, i, NAME_W, name, sizeof name);
        line(f, rank, name, &hs->h[i], gp_bound_name(hs->h[i].bound));
    }
    gp_hotspot other;
    if (gp_hotspots_rest(hs, top, &other)) {
        char name[64];
        gp_fmt(name, sizeof name, "other (%d kernel%s)", other.nrows,
               other.nrows == 1 ? "" : "s");
        line(f, "", name, &other, "");
    }
}

int gp_hotspots_print_file(FILE *f, const char *path, const char *ceilings, int top,
                           char *err, size_t errlen)
{
    gp_run_file rf;
    if (gp_csv_read(path, &rf, err, errlen) != 0)
        return -1;
    /* Measured roofs where gemmprof probe left them for this GPU. */
    char cached[4096], ignored[256];
    const char *gpu = gp_meta_get(&rf.meta, "gpu_name");
    if (!ceilings && gpu && gp_ceilings_cache_path(gpu, cached, sizeof cached, ignored,
                                                   sizeof ignored) == 0)
        ceilings = cached;
    gp_ceilings ceil, *c = NULL;
    if (ceilings && gp_ceilings_read(ceilings, &ceil, ignored, sizeof ignored) == 0)
        c = &ceil;
    gp_hotspots hs;
    int rc = gp_hotspots_of(rf.rows, rf.nrows, c, &rf.meta, &hs);
    if (rc == 0) {
        int bounded = 0, points = 0;
        for (int i = 0; i < hs.n; i++) {
            bounded += hs.h[i].bound != GP_BOUND_NA;
            points += hs.h[i].ai_dram > 0;
        }
        gp_hotspots_print(f, &hs, top, path);
        if (points && !bounded)
            fprintf(f, "bound: n/a, no roofs: no ceilings file, and the file's metadata "
                    "names no GPU attributes\n");
        else
            fprintf(f, "bound: the roof over the kernel's DRAM intensity, %s%s\n",
                    c ? "from " : "theoretical (no ceilings file: gemmprof probe measures "
                    "them)", c ? ceilings : "");
    } else {
        gp_fmt(err, errlen, "out of memory");
    }
    gp_hotspots_free(&hs);
    gp_run_file_free(&rf);
    return rc;
}
