/* meta.c - what differs between the two runs themselves: GPU, clocks,
 * driver, CUDA, cuBLAS, build.  Printed before any row, so that "it is a
 * different GPU" is read first and never taken for a kernel regression. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"

typedef struct {
    const char *key;
    const char *what;          /* "different GPU"                           */
    const char *unit;          /* appended to both values                   */
    const char *why;           /* appended to the message, or NULL          */
    int warning;               /* 0: worth knowing, not a like-for-like issue */
} meta_rule;

/* In the order they print, within warnings and within notes. */
static const meta_rule rules[] = {
    { "gpu_name", "different GPU", "", "not a like-for-like comparison", 1 },
    { "compute_capability", "different compute capability", "", NULL, 1 },
    { "sm_count", "different SM count", "", NULL, 1 },
    { "sm_clock_max_mhz", "different max SM clock", " MHz", NULL, 1 },
    { "mem_clock_max_mhz", "different max memory clock", " MHz", NULL, 1 },
    { "driver_version", "different driver", "", NULL, 1 },
    { "cuda_runtime", "different CUDA runtime", "", NULL, 1 },
    { "cuda_driver_api", "different CUDA driver API", "", NULL, 1 },
    { "cublas_version", "different cuBLAS", "", "% of cuBLAS is not comparable", 1 },
    { "build_arch", "different build arch", "", NULL, 1 },
    { "build_flags", "different build flags", "", NULL, 1 },
    { "l2_flush", "different L2 flushing", "", NULL, 1 },
    { "gemmprof_version", "gemmprof version", "", NULL, 0 },
    { "git_commit", "commit", "", NULL, 0 },
    { "metrics", "counters", "", NULL, 0 },
};

static void add(gp_diff *d, const meta_rule *r, const char *b, const char *n)
{
    gp_diff_meta *m = &d->meta[d->nmeta++];
    snprintf(m->key, sizeof m->key, "%s", r->key);
    m->base = b;
    m->cur = n;
    m->warning = r->warning;
    snprintf(m->message, sizeof m->message, "%s: %s%s -> %s%s%s%s", r->what,
             b ? b : "(not recorded)", b ? r->unit : "",
             n ? n : "(not recorded)", n ? r->unit : "",
             r->why ? ": " : "", r->why ? r->why : "");
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median SM clock over a file's rows (NAN if no row has one): the clock
 * the kernels actually ran at, which the max clock does not tell. */
static double median_clock(const gp_run_file *f)
{
    double *v = malloc((size_t)(f->nrows ? f->nrows : 1) * sizeof *v);
    int n = 0;
    for (int i = 0; v && i < f->nrows; i++)
        if (!isnan(f->rows[i].sm_clock_mhz))
            v[n++] = f->rows[i].sm_clock_mhz;
    double med = NAN;
    if (n) {
        qsort(v, (size_t)n, sizeof *v, cmp_double);
        med = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
    }
    free(v);
    return med;
}

static void run_clock(gp_diff *d)
{
    double b = median_clock(&d->base), n = median_clock(&d->cur);
    if (isnan(b) || isnan(n) || fabs(n - b) <= 0.05 * fmax(b, n))
        return;
    gp_diff_meta *m = &d->meta[d->nmeta++];
    snprintf(m->key, sizeof m->key, "sm_clock_mhz");
    m->warning = 1;
    snprintf(m->message, sizeof m->message, "different SM clock during the runs "
             "(median over rows): %.0f -> %.0f MHz", b, n);
}

/* Warnings first, then notes. */
static void compare_keys(gp_diff *d, int warnings)
{
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
        if (rules[i].warning != warnings)
            continue;
        const char *b = gp_meta_get(&d->base.meta, rules[i].key);
        const char *n = gp_meta_get(&d->cur.meta, rules[i].key);
        if ((b || n) && !(b && n && strcmp(b, n) == 0))
            add(d, &rules[i], b, n);
    }
}

void gp_diff_compare_meta(gp_diff *d)
{
    d->nmeta = 0;
    compare_keys(d, 1);
    run_clock(d);
    compare_keys(d, 0);
}
