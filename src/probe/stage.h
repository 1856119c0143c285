/* stage.h - internals shared by the probe's files (private to probe/):
 * the timing machinery (timing.c) and the stages the table in stages.c
 * runs (stream.c, fma.c, onchip.c). */
#ifndef GP_PROBE_STAGE_H
#define GP_PROBE_STAGE_H

#include <cuda_runtime_api.h>
#include "probe.h"
#include "../../probes/probes.h"

/* Kernels whose length we choose (FMA, L2, shared memory) run about this
 * long per launch: far above launch overhead and event resolution. */
#define GP_PROBE_TARGET_MS 5.0

/* NVML's readings while the runs ran (MHz; -1 NA), and the SM clock the
 * kernel counted itself (MHz; NAN where it does not count, see gp_spans). */
typedef struct {
    int sm_min, sm_max, mem_max, n;
    double counted_mhz;
} gp_clk;
typedef struct { double min_ms, median_ms, max_ms; } gp_stats;

typedef struct {
    const gp_gpu *g;
    const gp_probe_opts *o;
    int reps;
    gp_nvml *nv;            /* NULL: clocks unknown */
    cudaStream_t s;
    gp_ceilings *out;
    char *err;
    size_t errlen;
} gp_probe_ctx;

/* Enqueues one run of a kernel; returns a cudaError_t. */
typedef int (*gp_probe_launch_fn)(void *arg, cudaStream_t s);

/* The spans (probes/span.cuh) of a kernel that counts its own clock: one
 * set of 2 x blocks counts per timed run.  The launch function passes
 * gp_spans_next() to the kernel: NULL outside gp_time_kept, so
 * calibration runs count nothing. */
typedef struct {
    int blocks;                 /* set by the stage */
    unsigned long long *d;      /* device; runs x 2 x blocks */
    int runs, next;
} gp_spans;
unsigned long long *gp_spans_next(gp_spans *sp);
/* SM MHz of one run's spans: all cycles over all ns; NAN if no time. */
double gp_span_mhz(const unsigned long long *span, int blocks);

void gp_clk_init(gp_clk *c);
/* `runs` runs back to back, ms[i] each; clocks sampled into c. */
int gp_time_runs(gp_probe_ctx *x, gp_probe_launch_fn fn, void *arg, int runs,
                 double *ms, gp_clk *c, const char *what);
/* One dropped run, then x->reps timed runs summarised in st.  With sp
 * (else NULL), c->counted_mhz is the highest clock a timed run counted. */
int gp_time_kept(gp_probe_ctx *x, gp_probe_launch_fn fn, void *arg, gp_stats *st,
                 gp_clk *c, gp_spans *sp, const char *what);
/* Time of one warm run, to size the real ones. */
int gp_calibrate(gp_probe_ctx *x, gp_probe_launch_fn fn, void *arg, double *ms,
                 const char *what);
void gp_stats_of(const double *ms, int n, gp_stats *st);
double gp_best_rate(const gp_stats *st, double amount);
void gp_log_stats(gp_probe_ctx *x, const char *name, const char *unit,
                  const gp_stats *st, double amount);
/* The counted clock next to NVML's readings, in the log. */
void gp_log_clock(gp_probe_ctx *x, const gp_clk *c);
/* The clock a theoretical peak assumes: the counted one, else NVML's
 * highest reading, else the max clock attribute; `how` says which. */
double gp_clk_for_peak(const gp_probe_ctx *x, const gp_clk *c, char *how,
                       size_t howlen);
void gp_add_row(gp_ceilings *c, const char *name, const char *unit,
                double measured, double theoretical, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
void gp_order_rows(gp_ceilings *c);

/* The stages: each adds its rows to x->out; 0 or -1 with x->err. */
int gp_probe_stream(gp_probe_ctx *x);
int gp_probe_fma(gp_probe_ctx *x);
int gp_probe_caches(gp_probe_ctx *x);

#endif
