/* profiler.h - hardware counters through the CUPTI Range Profiler, behind
 * one small interface so the failure ladder lives in one place:
 *   no GPU / CUPTI missing (dlopen failed) / counters refused / full counters.
 * Callers never see CUPTI types; libcupti is loaded with dlopen so a machine
 * without it still runs gemmprof (timing-only rows, NA counters). */
#ifndef GP_PROFILER_H
#define GP_PROFILER_H

#include <stddef.h>
#include <stdio.h>
#include "gemmprof.h"
#include "data/data.h"

typedef struct gp_profiler gp_profiler;

#define GP_MAX_METRICS 64
#define GP_METRIC_NAME_MAX 128

/* Metric selection: "default" (GP_METRICS in row.h), "none", or a
 * comma-separated list of ncu metric names ("default" may be one item of
 * the list: "default,sm__inst_executed.sum"). */
typedef struct {
    int count;
    char names[GP_MAX_METRICS][GP_METRIC_NAME_MAX];
    unsigned char from_default[GP_MAX_METRICS];  /* 1: brought in by "default" */
} gp_metric_list;

/* Returned (with the reason in err) by gp_profiler_validate and
 * gp_profiler_list_metrics when libcupti cannot be loaded: positive, so
 * "bad names" (-1) stays the only negative answer and a caller checking
 * `< 0` goes on (counters will then be NA with the same reason). */
#define GP_PROFILER_NO_CUPTI 1

/* Parse a --metrics argument.  0, or -1 with a message.  Does not check
 * names against a chip (see gp_profiler_validate).  Duplicates are dropped. */
int gp_metric_list_parse(const char *spec, gp_metric_list *out,
                         char *err, size_t errlen);
/* Append name[0..len) unless listed (a listed one stays, explicit if
 * either was).  0, or -1 with a message when the list is full. */
int gp_metric_list_add(gp_metric_list *out, const char *name, size_t len,
                       int from_default, char *err, size_t errlen);
/* The same check alone, for an option table's --metrics entry (the one
 * syntax of metric names: run and trace share it). */
int gp_metric_spec_check(const char *spec, char *err, size_t errlen);

/* Every name is one the run file has a column for (the default list);
 * 0, or -1 and `err` names the others and the recordable ones. */
int gp_metric_list_recordable(const gp_metric_list *l, char *err, size_t errlen);

/* Check names offline (host API, works without a GPU) against `chip`, or,
 * with chip NULL, against every chip CUPTI knows: a name no chip has is
 * bad input wherever the run goes (names from "default" are not checked
 * then: gp_profiler_fit decides about them on the GPU's own chip).  0; -1
 * and `err` names every bad metric ("unknown metric(s) for GH100: foo, bar
 * (see --list-metrics)"); GP_PROFILER_NO_CUPTI with the reason. */
int gp_profiler_validate(const gp_metric_list *list, const char *chip,
                         char *err, size_t errlen);

/* Fit the list to the chip of the GPU in hand: a metric named explicitly
 * that the chip lacks is bad input (-1, err as gp_profiler_validate's);
 * a default metric it lacks is removed from the list and named in
 * `dropped` ("dram__bytes_read.sum, dram__bytes_write.sum"; "" if none):
 * its column stays NA.  0, -1, or GP_PROFILER_NO_CUPTI. */
int gp_profiler_fit(gp_metric_list *list, const char *chip, char *dropped,
                    size_t droppedlen, char *err, size_t errlen);

/* The chips CUPTI's host API knows (cuptiProfilerHostGetSupportedChips),
 * "GV100 ... GB20B"; the strings are CUPTI's.  The count, or -1 with err
 * (CUPTI missing). */
int gp_profiler_chips(const char *const **names, char *err, size_t errlen);

/* The chip of CUDA device `device` as CUPTI names it (cuptiDeviceGetChipName:
 * "GH100", "AD102", "GB202").  0, or -1 with the reason in `err` (no driver
 * or device, CUPTI missing, ...). */
int gp_profiler_device_chip(int device, char *chip, size_t n, char *err,
                            size_t errlen);

/* Passes the list needs on `chip`, computed offline (no counter
 * availability image, so a device may need a few more: the session's
 * gp_profiler_passes is authoritative).  >= 1, 0 for an empty list, or
 * -1 with err (bad names, or CUPTI not loadable). */
int gp_profiler_count_passes(const gp_metric_list *list, const char *chip,
                             char *err, size_t errlen);

/* --list-metrics: every base metric of `chip`, one per line
 * "name<TAB>type<TAB>unit<TAB>description", sorted, after '#' lines naming
 * the suffixes that make a collectable name (".sum", ...).  0, -1 with err
 * (a chip CUPTI does not know: err lists those it does), or
 * GP_PROFILER_NO_CUPTI. */
int gp_profiler_list_metrics(const char *chip, FILE *out, char *err, size_t errlen);

/* Why counters are unavailable, as one line naming the fix, for a CUPTI
 * result code or one of the pseudo-codes below.  Pure (no CUPTI needed);
 * returns buf. */
enum {
    GP_PROF_LIBCUPTI_MISSING = -1,   /* dlopen(libcupti.so.13) failed   */
    GP_PROF_DRIVER_MISSING   = -2,   /* dlopen(libcuda.so.1) failed     */
    GP_PROF_NO_DEVICE        = -3    /* cuInit failed / no device       */
};
const char *gp_profiler_explain(int cupti_result, char *buf, size_t n);

/* Start a profiling session on the current device.  Returns NULL when
 * counters are unavailable, with a one-line reason and fix in `err`
 * (e.g. "cuptiRangeProfilerEnable: GPU performance counters are restricted
 * to admin users (ERR_NVGPUCTRPERM): run as root ...").  The caller then
 * warns once and carries on with NA counters. */
gp_profiler *gp_profiler_begin(const gp_metric_list *list, char *err,
                               size_t errlen);

/* Called before each pass's launch, the first included: put the launch's
 * buffers in the state the counters should see (C reset, L2 scrubbed),
 * as each pass is a launch of its own and nothing is restored between
 * them (what ncu does per pass: restore memory, flush caches).  Returns 0
 * or a CUDA error code.  NULL: nothing is prepared (only sound with a
 * one-pass list, or a launch that does not read what it writes). */
typedef int (*gp_prepare_fn)(void *ctx);

/* Profile `k` with `args`: one launch per pass of the session's config
 * (CUPTI user replay), `prepare(prepare_ctx)` before each.  Fills
 * r->metric[] for the metrics that are part of GP_METRICS, and returns the
 * number of passes run, or -1 with `err`.
 * If the launcher launches several kernels (up to 8), counters ending in
 * ".sum" are summed over them and the others are averaged weighted by
 * gpu__time_duration.sum (NA without it). */
int gp_profiler_collect(gp_profiler *p, const gp_kernel *k,
                        const gemm_args *args, gp_prepare_fn prepare,
                        void *prepare_ctx, gp_row *r,
                        char *err, size_t errlen);

/* Values of the last collect, one per list entry in list order (metrics
 * outside GP_METRICS included); NAN before the first collect. */
const double *gp_profiler_values(const gp_profiler *p, int *count);
/* Passes, i.e. profiled launches, per kernel (the config's, counted
 * with this device's counter availability). */
int gp_profiler_passes(const gp_profiler *p);
/* Chip name reported by CUPTI, e.g. "GH100". */
const char *gp_profiler_chip(const gp_profiler *p);

/* Seconds spent collecting so far, begin included (for the "collection
 * cost" line). */
double gp_profiler_seconds(const gp_profiler *p);
void gp_profiler_end(gp_profiler *p);

/* ---- --tensor-counters auto (tensor_gate.c) ----
 * The five tensor-path counters (sm__ops_path_tensor_src_*) take the
 * default set from 3 passes to 5 on GH100.  A launch with no tensor-core
 * math instruction has them all 0, and that is one count away: the
 * tensor pipe's warp instructions less HFMA2.MMA (FP16 FMAs that ptxas
 * also uses as moves: 63 of 143 PyTorch kernels ran only those on the
 * pipe) and less the integer MMAs (no FLOP column).  Measured with ncu on
 * an H100 over those 143 kernels, every precision the counters count:
 * the difference is 0 exactly where all five are 0 (reports/data/h100/
 * experiments/tensor-gate/).  The three counts fit in the other counters'
 * 3 passes.  CUPTI 13.0 has all three on GH100 and GA100. */
#define GP_GATE_PIPE_TENSOR "sm__inst_executed_pipe_tensor.sum"
#define GP_GATE_HFMA2_MMA   "sm__inst_executed_pipe_tensor_op_hmma_type_hfma2.sum"
#define GP_GATE_INT_MMA     "sm__inst_executed_pipe_tensor_op_imma.sum"
int gp_metric_is_tensor_path(const char *name);
/* `full` less its tensor-path counters, plus the three counts (unless
 * listed already).  0, or -1 when `full` has no tensor-path counter. */
int gp_tensor_gate_list(const gp_metric_list *full, gp_metric_list *gated);
/* The tensor-core math instructions from a gated list's values (one per
 * entry): pipe less HFMA2.MMA less integer MMA; NAN if a count is missing
 * or the difference is negative (then nothing is known). */
double gp_tensor_gate_count(const gp_metric_list *gated, const double *values);

/* ---- launches gemmprof does not own (gemmprof trace; replay.c) ----
 * Auto range + kernel replay on one CUDA context: Start before the
 * application's launch, Stop after it; CUPTI replays the kernel inside the
 * launch call as often as the config needs, saving and restoring the
 * memory it can reach (gemmprof cannot prepare buffers it does not own).
 * Calls CUPTI and the driver only (no CUDA runtime), so it runs inside any
 * CUDA application.  The context must be current on the calling thread. */
typedef struct gp_replay gp_replay;

/* Enable one range profiler object on `cu_context` (a CUcontext) for
 * `list`.  With `gate` (--tensor-counters auto) and a chip that has the
 * gate's counts, the object starts with the gated list when that takes
 * fewer passes.  No launch of gemmprof's own: the first profiled launch
 * pays the first Start's cost.  NULL with a one-line reason and fix in
 * `err` (counters refused, unsupported device, ...). */
gp_replay *gp_replay_begin(void *cu_context, const gp_metric_list *list, int gate,
                           char *err, size_t errlen);
/* Around exactly one kernel launch.  start: `full` asks for every counter
 * of the list: a gated object is disabled and the full one enabled, for
 * good (CUPTI keeps one object per context; the switch costs about 160 ms
 * on the H100), and later launches take every counter too.  0, or -1 with
 * err (a refusal sticks: every later start fails with the same reason).
 * stop: evaluates the launch's range into metric[] (indexed GP_M_*, for
 * the metrics that are row columns); *tensor_inst is the gated launch's
 * tensor-core math instructions (NAN after a full one): when 0, the
 * tensor-path counters are set to 0; otherwise they stay NA and stop
 * returns 1: the caller profiles a later launch of the configuration in
 * full.  0 or 1, or -1 with err. */
int gp_replay_start(gp_replay *r, int full, char *err, size_t errlen);
int gp_replay_stop(gp_replay *r, const char *kernel, double *metric, double *tensor_inst,
                   char *err, size_t errlen);
/* Passes of a launch in full, or gated (0 when the object is not gated). */
int gp_replay_passes(const gp_replay *r, int full);
/* Why a replay begun with `gate` is not gated ("" when it is, or was not
 * asked to be): no tensor-path counter, a count the chip lacks, or no
 * pass saved. */
const char *gp_replay_gate_off(const gp_replay *r);
const char *gp_replay_chip(const gp_replay *r);

/* Where a profiled launch's time goes on the host, summed over the
 * object's launches (milliseconds), for trace's "profiling_cost" line. */
typedef struct {
    long launches;
    double arm_ms;        /* counter image reset + SetConfig               */
    double start_ms;      /* cuptiRangeProfilerStart                       */
    double stop_ms;       /* cuptiRangeProfilerStop                        */
    double evaluate_ms;   /* DecodeData + EvaluateToGpuValues              */
    long gated;           /* launches that took the gated list             */
    double switch_ms;     /* gated object disabled, full one enabled (its
                             first Start is in start_ms)                   */
} gp_replay_cost;
void gp_replay_costs(const gp_replay *r, gp_replay_cost *out);
void gp_replay_end(gp_replay *r);

#endif
