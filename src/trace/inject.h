/* inject.h - the library gemmprof trace injects into CMD's CUDA processes
 * (CUDA_INJECTION64_PATH: the driver calls InitializeInjection in cuInit).
 * Private to src/trace/, and built into its own shared object, never into
 * gemmprof: inject.c (callbacks, selection, counters), inject_facts.c
 * (a launch's shape and static facts from the driver), inject_part.c (the
 * process's part file), inject_activity.c (Activity API durations). */
#ifndef GP_TRACE_INJECT_H
#define GP_TRACE_INJECT_H

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include "cupti/loader.h"
#include "cupti/profiler.h"
#include "trace.h"

typedef struct {
    const gp_cupti_api *api;
    const gp_cudrv_api *drv;
    char dir[4096];
    char host[64];
    long pid;
    char rank[8];
    long ranks;
    gp_metric_list metrics;     /* empty: --metrics none                  */
    gp_trace_filter filter;
    pthread_mutex_t lock;       /* filter, names, sessions, part file     */
    FILE *part;                 /* the run-file rows, NULL until a context */
    char part_path[4200];
    int noted_counters;         /* "# counters:" written                  */
    int noted_error;            /* "# counter_error:" written             */
    int noted_chip;
} gp_inject;

extern gp_inject gp_inj;

/* ---- inject_part.c (callers hold gp_inj.lock) ---- */
/* Create the part file with its metadata (the device of the first
 * context); the file's existence says "a CUDA context was created". */
void gp_inject_part_open(uint32_t device);
void gp_inject_part_row(const gp_row *r);
/* "# key: value" after the rows so far (the reader takes it as metadata). */
void gp_inject_part_note(const char *key, const char *value);

/* ---- inject_activity.c ---- */
/* Kernel records of the launches in the set go to "<part>.times". */
int gp_inject_activity_start(char *why, size_t n);
void gp_inject_activity_want(uint32_t correlation_id);
void gp_inject_activity_flush(int forced);

/* ---- inject_facts.c ---- */
/* The launch's shape from the API's parameters: 0, or -1 for a callback
 * id that is not a kernel launch gemmprof reads. */
int gp_inject_launch_params(CUpti_CallbackId cbid, const void *params, CUfunction *f,
                            CUstream *stream, gp_trace_launch *l);
/* Registers, local and static shared memory, occupancy, device limits. */
void gp_inject_launch_facts(CUfunction f, gp_trace_launch *l);
/* The demangled name of f (cached; callers hold gp_inj.lock). */
const char *gp_inject_kernel_name(CUfunction f, const char *symbol);

#endif
