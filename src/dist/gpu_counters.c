/* gpu_counters.c - hardware counters of a rank's local gemms, through
 * the same profiler (profiler.h) the single-GPU runs use.  Counters come
 * from replayed launches, never from the timed ones: each distinct panel
 * width of the last repetition is profiled once, on a scratch C (the real
 * C is the result being checked), and scaled to the repetition: ".sum"
 * counters add up over its gemms, the others are averaged weighted by the
 * gemms' GPU time. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu.h"
#include "cupti/profiler.h"

typedef struct {
    void *c;
    size_t bytes;
} scratch_prep;

/* Before each pass: the same zero C, the same starting state. */
static int prepare(void *ctx)
{
    const scratch_prep *s = ctx;
    int e = cudaMemset(s->c, 0, s->bytes);
    return e ? e : (int)cudaDeviceSynchronize();
}

static int is_sum(const char *name)
{
    size_t n = strlen(name);
    return n > 4 && strcmp(name + n - 4, ".sum") == 0;
}

/* Distinct widths and how often each ran: w[] and cnt[] hold up to max. */
static int distinct(const gp_gpu_rank *g, int *w, long *cnt, int max)
{
    int n = 0;
    for (long i = 0; i < g->nwidths; i++) {
        int j = 0;
        while (j < n && w[j] != g->widths[i])
            j++;
        if (j == n) {
            if (n == max)
                return -1;
            w[n] = g->widths[i];
            cnt[n++] = 0;
        }
        cnt[j]++;
    }
    return n;
}

/* Fold one width's counters (tmp, `count` gemms) into the totals. */
static void fold(double *sum, double *wsum, const gp_row *tmp, long count)
{
    double t = tmp->metric[GP_M_GPU_TIME] * (double)count;
    for (int m = 0; m < GP_NMETRICS; m++) {
        double v = tmp->metric[m];
        if (isnan(v) || isnan(sum[m]))
            sum[m] = NAN;
        else if (is_sum(gp_metric_names[m]))
            sum[m] += v * (double)count;
        else if (!isnan(t))
            sum[m] += v * t;
        else
            sum[m] = NAN;
    }
    *wsum += t;
}

static int profile_widths(gp_gpu_rank *g, gp_profiler *p, void *c, gp_row *r,
                          char *err, size_t errlen)
{
    int w[64];
    long cnt[64];
    int n = distinct(g, w, cnt, 64);
    if (n <= 0) {
        snprintf(err, errlen, n == 0 ? "no local gemm ran" : "too many panel widths");
        return -1;
    }
    scratch_prep sp = { c, (size_t)g->loc.mloc * (size_t)g->loc.nloc * g->esize };
    double sum[GP_NMETRICS] = { 0 }, wsum = 0;
    for (int i = 0; i < n; i++) {
        gemm_args a = {
            .m = g->loc.mloc, .n = g->loc.nloc, .k = w[i], .alpha = 1.0, .beta = 1.0,
            .A = g->panel[0][0], .B = g->panel[1][0], .C = c,
            .lda = w[i], .ldb = g->loc.nloc, .ldc = g->loc.nloc,
        };
        gp_row tmp;
        gp_row_init(&tmp);
        if (gp_profiler_collect(p, g->kernel, &a, prepare, &sp, &tmp, err, errlen) < 0)
            return -1;
        fold(sum, &wsum, &tmp, cnt[i]);
    }
    for (int m = 0; m < GP_NMETRICS; m++)
        r->metric[m] = is_sum(gp_metric_names[m]) || isnan(sum[m]) ? sum[m]
                     : wsum > 0 ? sum[m] / wsum : NAN;
    return 0;
}

int gp_gpu_counters(gp_gpu_rank *g, gp_row *r, char *err, size_t errlen)
{
    if (g->have_info)
        snprintf(r->config, sizeof r->config, "%s", g->info.config);
    if (g->nwidths == 0 || !g->widths) {
        snprintf(err, errlen, "counters: no local gemm ran on this rank");
        return -1;
    }
    gp_metric_list list;
    char why[512];
    if (gp_metric_list_parse("default", &list, err, errlen) != 0)
        return -1;
    gp_profiler *p = gp_profiler_begin(&list, why, sizeof why);
    if (!p) {
        snprintf(err, errlen, "counters unavailable: %s", why);
        return -1;
    }
    void *c = NULL;
    size_t bytes = (size_t)g->loc.mloc * (size_t)g->loc.nloc * g->esize;
    int rc = -1;
    if (cudaMalloc(&c, bytes) != cudaSuccess) {
        cudaGetLastError();
        c = NULL;
        snprintf(err, errlen, "counters: no device memory for a scratch C (%zu MiB)",
                 bytes >> 20);
    } else {
        rc = profile_widths(g, p, c, r, err, errlen);
    }
    cudaFree(c);
    gp_profiler_end(p);
    return rc;
}
