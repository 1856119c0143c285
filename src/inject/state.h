/* state.h - the injected library's own state and parts, private to
 * src/inject/ (the interface is inject.h): inject.c (entry point,
 * callbacks, selection, counters), launch_params.c (a launch's shape from
 * the launch API's parameters), facts.c (its static facts from the
 * driver), part.c (the process's part file), activity.c (Activity API
 * durations).  They need CUPTI and the driver, loaded with dlopen. */
#ifndef GP_INJECT_STATE_H
#define GP_INJECT_STATE_H

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include "cupti/loader.h"
#include "cupti/profiler.h"
#include "inject.h"
#include "util/util.h"

typedef struct {
    const gp_cupti_api *api;
    const gp_cudrv_api *drv;
    char dir[4096];
    char host[64];
    long pid;
    char rank[8];
    long ranks;
    gp_metric_list metrics;     /* empty: --metrics none                  */
    int tensor_gate;            /* --tensor-counters auto                 */
    gp_trace_filter filter;
    const char *nvtx_include;   /* --nvtx-include RANGE, or NULL          */
    pthread_mutex_t lock;       /* filter, names, sessions, part file;
                                   recursive (inject.c says why)          */
    FILE *part;                 /* the run-file rows, NULL until a context */
    char part_path[4200];
    int noted_counters;         /* "# counters:" written                  */
    int noted_error;            /* "# counter_error:" written             */
    int noted_chip;
} gp_inject;

extern gp_inject gp_inj;

/* ---- part.c (callers hold gp_inj.lock) ---- */
/* Create the part file with its metadata (the device of the first
 * context); the file's existence says "a CUDA context was created". */
void gp_inject_part_open(uint32_t device);
void gp_inject_part_row(const gp_row *r);
/* At exit: what is still to say (a shortage of memory), on disk. */
void gp_inject_part_flush(void);
/* "# key: value" after the rows so far (the reader takes it as metadata). */
void gp_inject_part_note(const char *key, const char *value);
/* Memory ran out in `what` (a string literal): one "# warning:" line in
 * the part file, written with the next row or at exit (gemmprof trace
 * repeats it), never an exit.  Any thread, no lock needed. */
void gp_inject_out_of_memory(const char *what);

/* ---- activity.c ---- */
/* The kernel records of a timed launch go to "<part>.times", naming the
 * first launch of its configuration (whose row the merge copies). */
int gp_inject_activity_start(char *err, size_t errlen);
void gp_inject_activity_want(uint32_t correlation_id, uint32_t first_corr, int profiled);
/* --nvtx-include: only graph launches passed here have their kernels
 * timed (once this is called, or after activity_filter_graphs). */
void gp_inject_activity_want_graph(uint32_t correlation_id);
void gp_inject_activity_filter_graphs(void);
void gp_inject_activity_flush(int forced);

/* ---- graph.c (the caller holds activity.c's lock) ---- */
/* A kernel record of a CUDA graph node: 1 if its kernel is traced (its
 * row is written the first time the node is seen). */
int gp_inject_graph_node(const CUpti_ActivityKernel10 *k);

/* ---- nvtx.c ---- */
/* Is this thread inside a --nvtx-include range? */
int gp_inject_nvtx_inside(void);
void gp_inject_nvtx_event(CUpti_CallbackId cbid, const CUpti_NvtxData *d);
int gp_inject_nvtx_subscribe(CUpti_SubscriberHandle sub, char *err, size_t errlen);

/* ---- launch_params.c ---- */
/* The launch's shape from the API's parameters: 0, or -1 for a callback
 * id that is not a kernel launch gemmprof reads, or for parameters the
 * driver will refuse (a NULL config or function): those pass through
 * untouched, and the driver says what is wrong. */
int gp_inject_launch_params(CUpti_CallbackId cbid, const void *params, CUfunction *f,
                            CUstream *stream, gp_trace_launch *l);

/* ---- facts.c ---- */
/* Registers, local and static shared memory, occupancy, device limits. */
void gp_inject_launch_facts(CUfunction f, gp_trace_launch *l);
/* A demangled copy of symbol (malloc'd; NULL when memory ran out). */
char *gp_inject_demangle(const char *symbol);
/* The demangled name of f (cached; callers hold gp_inj.lock). */
const char *gp_inject_kernel_name(CUfunction f, const char *symbol);

#endif
