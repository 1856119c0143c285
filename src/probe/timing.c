/* timing.c - the ceiling probes' common machinery: back-to-back timed
 * runs between CUDA events, clocks sampled while they run, rows of the
 * ceilings file.  The stages (stream.c, fma.c, onchip.c) call these; the
 * table of stages is stages.c.
 *
 * Rules: one dropped run first (lazy module loading, clocks ramping);
 * no sync between runs; the best run is the ceiling, min/median/max are
 * printed; every probe checks what its kernels computed. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "stage.h"

void gp_clk_init(gp_clk *c)
{
    c->sm_min = c->sm_max = c->mem_max = -1;
    c->n = 0;
    c->counted_mhz = NAN;
}

static void clk_sample(gp_nvml *nv, gp_clk *c)
{
    int sm = gp_nvml_clock_mhz(nv, 0), mem = gp_nvml_clock_mhz(nv, 1);
    if (sm > 0) {
        c->sm_max = sm > c->sm_max ? sm : c->sm_max;
        c->sm_min = c->sm_min < 0 || sm < c->sm_min ? sm : c->sm_min;
        c->n++;
    }
    if (mem > c->mem_max)
        c->mem_max = mem;
}

/* Wait for `done`, reading the clocks about every millisecond meanwhile:
 * the best run is the one at the highest clock, so the ceiling's
 * theoretical counterpart uses the highest clock seen. */
static cudaError_t wait_sampling(gp_nvml *nv, cudaEvent_t done, gp_clk *c)
{
    const struct timespec ms1 = {0, 1000000};
    for (;;) {
        if (nv)
            clk_sample(nv, c);
        cudaError_t e = cudaEventQuery(done);
        if (e != cudaErrorNotReady)
            return e;
        nanosleep(&ms1, NULL);
    }
}

int gp_time_runs(gp_probe_ctx *x, gp_probe_launch_fn fn, void *arg, int runs,
                 double *ms, gp_clk *c, const char *what)
{
    cudaEvent_t *ev = calloc(2 * (size_t)runs, sizeof *ev);
    cudaError_t e = ev ? cudaSuccess : cudaErrorMemoryAllocation;
    int made = 0;
    for (; e == cudaSuccess && made < 2 * runs; ++made)
        e = cudaEventCreate(&ev[made]);
    for (int r = 0; e == cudaSuccess && r < runs; ++r) {
        if ((e = cudaEventRecord(ev[2 * r], x->s)) == cudaSuccess &&
            (e = (cudaError_t)fn(arg, x->s)) == cudaSuccess)
            e = cudaEventRecord(ev[2 * r + 1], x->s);
    }
    if (e == cudaSuccess)
        e = wait_sampling(x->nv, ev[2 * runs - 1], c);
    for (int r = 0; e == cudaSuccess && r < runs; ++r) {
        float f = 0;
        e = cudaEventElapsedTime(&f, ev[2 * r], ev[2 * r + 1]);
        ms[r] = f;
    }
    for (int i = 0; i < made; ++i)
        if (ev[i])
            cudaEventDestroy(ev[i]);
    free(ev);
    if (e != cudaSuccess)
        snprintf(x->err, x->errlen, "probe %s: %s", what, gp_cuda_msg(e));
    return e == cudaSuccess ? 0 : -1;
}

unsigned long long *gp_spans_next(gp_spans *sp)
{
    if (!sp || !sp->d || sp->next >= sp->runs)
        return NULL;
    return sp->d + 2 * (size_t)sp->blocks * (size_t)sp->next++;
}

double gp_span_mhz(const unsigned long long *span, int blocks)
{
    double cyc = 0, ns = 0;
    for (int b = 0; b < blocks; ++b) {
        cyc += (double)span[2 * b];
        ns += (double)span[2 * b + 1];
    }
    return ns > 0 ? 1e3 * cyc / ns : NAN;
}

/* The highest clock of runs 1.. (run 0 is the dropped one). */
static double spans_max_mhz(gp_probe_ctx *x, gp_spans *sp, const char *what)
{
    size_t n = 2 * (size_t)sp->blocks * (size_t)sp->runs;
    unsigned long long *h = malloc(n * sizeof *h);
    cudaError_t e = h ? cudaMemcpy(h, sp->d, n * sizeof *h,
                                   cudaMemcpyDeviceToHost)
                      : cudaErrorMemoryAllocation;
    double best = NAN;
    for (int r = 1; e == cudaSuccess && r < sp->runs; ++r) {
        double mhz = gp_span_mhz(h + 2 * (size_t)sp->blocks * r, sp->blocks);
        if (isfinite(mhz) && !(mhz <= best))
            best = mhz;
    }
    free(h);
    if (e != cudaSuccess)
        snprintf(x->err, x->errlen, "probe %s clock: %s", what, gp_cuda_msg(e));
    return e == cudaSuccess ? best : -1;
}

int gp_time_kept(gp_probe_ctx *x, gp_probe_launch_fn fn, void *arg, gp_stats *st,
                 gp_clk *c, gp_spans *sp, const char *what)
{
    int runs = x->reps + 1;
    double *ms = malloc((size_t)runs * sizeof *ms);
    cudaError_t e = ms ? cudaSuccess : cudaErrorMemoryAllocation;
    if (e == cudaSuccess && sp) {
        sp->runs = runs;
        sp->next = 0;
        e = cudaMalloc((void **)&sp->d, 2 * (size_t)sp->blocks * runs *
                                            sizeof *sp->d);
        if (e != cudaSuccess)
            sp->d = NULL;
    }
    if (e != cudaSuccess) {
        free(ms);
        snprintf(x->err, x->errlen, "probe %s: %s", what, gp_cuda_msg(e));
        return -1;
    }
    int rc = gp_time_runs(x, fn, arg, runs, ms, c, what);
    if (rc == 0)
        gp_stats_of(ms + 1, x->reps, st);
    if (rc == 0 && sp && (c->counted_mhz = spans_max_mhz(x, sp, what)) < 0)
        rc = -1;
    if (sp) {
        cudaFree(sp->d);
        sp->d = NULL;
    }
    free(ms);
    return rc;
}

int gp_calibrate(gp_probe_ctx *x, gp_probe_launch_fn fn, void *arg, double *ms,
                 const char *what)
{
    double t[2];
    gp_clk c;
    gp_clk_init(&c);
    if (gp_time_runs(x, fn, arg, 2, t, &c, what) != 0)
        return -1;
    *ms = t[1] > 1e-4 ? t[1] : 1e-4;
    return 0;
}

static int cmp_dbl(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void gp_stats_of(const double *ms, int n, gp_stats *st)
{
    double *s = malloc((size_t)n * sizeof *s);
    if (!s || n < 1) {
        st->min_ms = st->median_ms = st->max_ms = NAN;
        free(s);
        return;
    }
    memcpy(s, ms, (size_t)n * sizeof *s);
    qsort(s, (size_t)n, sizeof *s, cmp_dbl);
    st->min_ms = s[0];
    st->max_ms = s[n - 1];
    st->median_ms = n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
    free(s);
}

/* Best rate of `amount` (bytes or FLOPs) in units of 1e9 per second. */
double gp_best_rate(const gp_stats *st, double amount)
{
    return amount / (st->min_ms * 1e-3) / 1e9;
}

void gp_log_stats(gp_probe_ctx *x, const char *name, const char *unit,
                  const gp_stats *st, double amount)
{
    if (!x->o->log)
        return;
    fprintf(x->o->log,
            "  %-18s %10.1f %-7s best  (time ms: min %.4f  median %.4f  "
            "max %.4f; %d runs)\n",
            name, gp_best_rate(st, amount), unit, st->min_ms, st->median_ms,
            st->max_ms, x->reps);
    fflush(x->o->log);
}

void gp_log_clock(gp_probe_ctx *x, const gp_clk *c)
{
    if (!x->o->log)
        return;
    fprintf(x->o->log, "  %-18s SM clock counted by the kernel %.1f MHz; NVML "
            "read %d-%d MHz\n", "", c->counted_mhz, c->sm_min, c->sm_max);
    fflush(x->o->log);
}

void gp_add_row(gp_ceilings *c, const char *name, const char *unit,
                double measured, double theoretical, const char *fmt, ...)
{
    if (c->n >= GP_CEILINGS_MAX)
        return;
    gp_ceiling *r = &c->c[c->n++];
    memset(r, 0, sizeof *r);
    snprintf(r->name, sizeof r->name, "%s", name);
    snprintf(r->unit, sizeof r->unit, "%s", unit);
    r->measured = measured;
    r->theoretical = theoretical;
    r->pct_of_theoretical = isfinite(measured) && isfinite(theoretical) &&
                                    theoretical > 0
                                ? 100.0 * measured / theoretical
                                : NAN;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->method, sizeof r->method, fmt, ap);
    va_end(ap);
}

/* The clock a stage's theoretical peak assumes, and how it was known. */
double gp_clk_for_peak(const gp_probe_ctx *x, const gp_clk *c, char *how,
                       size_t howlen)
{
    if (isfinite(c->counted_mhz)) {
        snprintf(how, howlen, "%.1f MHz (counted: clock64 / globaltimer)",
                 c->counted_mhz);
        return c->counted_mhz;
    }
    if (c->n > 0) {
        snprintf(how, howlen, "%d MHz (NVML, max seen)", c->sm_max);
        return c->sm_max;
    }
    snprintf(how, howlen, "%d MHz (max clock attribute)",
             x->g->sm_clock_khz / 1000);
    return x->g->sm_clock_khz / 1e3;
}
