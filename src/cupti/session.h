/* session.h - one Range Profiler object with its config and counter data
 * image, shared by the two ways gemmprof collects (private to src/cupti/):
 * profiler.c replays its own launches (user replay, buffers prepared
 * before each pass) and replay.c profiles launches it does not own
 * (gemmprof trace: kernel replay, CUPTI saves and restores memory).  Only
 * CUPTI and the driver (both dlopen'd) are called here, no CUDA runtime,
 * so the injection library can use it inside any application. */
#ifndef GP_CUPTI_SESSION_H
#define GP_CUPTI_SESSION_H

#include <stdint.h>
#include "loader.h"
#include "profiler.h"

typedef struct {
    const gp_cupti_api *api;
    gp_metric_list list;
    const char *names[GP_MAX_METRICS];   /* list's names, for CUPTI         */
    int row_index[GP_MAX_METRICS];       /* GP_M_* or -1 (not a row column) */
    int is_sum[GP_MAX_METRICS];          /* ".sum": adds up over kernels    */
    int time_index;                      /* gpu__time_duration.sum, or -1   */
    double values[GP_MAX_METRICS];
    char chip[64];
    CUcontext ctx;
    int cupti_initialized;
    uint8_t *avail;
    CUpti_Profiler_Host_Object *host;    /* evaluates the counter data      */
    uint8_t *config;
    size_t config_size;
    int passes;                          /* of the config, on this device   */
    CUpti_RangeProfiler_Object *rp;
    CUpti_ProfilerReplayMode replay;
    size_t max_ranges;                   /* kernels between Start and Stop  */
    uint8_t *data;                       /* counter data image              */
    size_t data_size;
    int armed;                           /* image fresh, pass index 0       */
    size_t first_range;                  /* ranges already in the image     */
    char refused[400];                   /* set once Start is refused       */
} gp_session;

/* The start of both begins: a zeroed object of `size` bytes (it embeds a
 * gp_session) for a non-empty `list`; NULL with err. */
void *gp_session_new(const gp_metric_list *list, size_t size, char *err, size_t errlen);

/* cuInit and a visible device, before CUPTI may be touched (CUPTI
 * segfaults without them, docs/cupti.md section 4).  0, or -1 with err. */
int gp_session_preflight(char *err, size_t errlen);

/* Everything up to a config image for `list` on the device of `ctx`:
 * CUPTI loaded and initialised, the device supported, chip and counter
 * availability, names checked, config built and its passes counted.
 * 0, or -1 with a one-line reason and fix. */
int gp_session_open(gp_session *s, const gp_metric_list *list, CUcontext ctx,
                    CUdevice dev, char *err, size_t errlen);

/* Enable the one range profiler object of the session (auto range,
 * `replay` mode, up to `max_ranges` kernels per Start/Stop) and size its
 * counter data image.  0, or -1 with err (a refusal shows here or at the
 * first Start). */
int gp_session_enable(gp_session *s, CUpti_ProfilerReplayMode replay,
                      size_t max_ranges, char *err, size_t errlen);

/* Reset the counter data image and set the config with pass index 0, so
 * the next Start is pass 0 and its launch range 0 of a fresh image. */
int gp_session_arm(gp_session *s, char *err, size_t errlen);

/* cuptiRangeProfilerStart / Stop.  Start remembers a refusal in
 * s->refused (privileges are often refused there, not at Enable).  Stop
 * sets *all_submitted.  0, or -1 with err. */
int gp_session_start(gp_session *s, char *err, size_t errlen);
int gp_session_stop(gp_session *s, int *all_submitted, char *err, size_t errlen);

/* Decode the ranges recorded since arming and fill s->values, one per list
 * entry: counts (".sum") add up over the kernels, the rest are averaged
 * weighted by gpu__time_duration.sum.  `what` names the launch in errors.
 * 0, or -1 with err. */
int gp_session_evaluate(gp_session *s, const char *what, char *err, size_t errlen);

/* Copy the values that are run-file columns into row metrics (GP_M_*). */
void gp_session_fill_row(const gp_session *s, double *metric);

/* Disable the object and free its counter data image; the config stays,
 * so gp_session_enable can bring it back (cuptiRangeProfilerDisable takes
 * about 11 ms, and the first Start after an Enable about 150 ms: H100,
 * reports/data/h100/experiments/tensor-gate/). */
void gp_session_disable(gp_session *s);
void gp_session_close(gp_session *s);

/* "call: reason" for a failed CUPTI call; 0 if r is success, else -1. */
int gp_session_check(const gp_session *s, CUptiResult r, const char *call,
                     char *err, size_t errlen);

#endif
