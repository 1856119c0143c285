/* inject.h - the library gemmprof trace injects into CMD's CUDA processes
 * (CUDA_INJECTION64_PATH: the driver calls InitializeInjection in cuInit),
 * built as its own shared object from this folder and the lower folders it
 * needs (cupti, data, gpu, util), never from src/trace.  Everything here
 * runs inside someone else's process, so nothing here exits, aborts,
 * prints, or keeps a file open across exec; trouble becomes a "# key:
 * value" line in the process's part file.
 *
 * The folder's interface: what gemmprof trace and the library agree on
 * (the environment, the part files, the MPI rank), and the pure pieces the
 * CPU tests check (launch selection, a launch's row, the guards that keep
 * the library out of forked children and out of exit).  The library's own
 * state, which needs CUPTI and the driver, is private (state.h). */
#ifndef GP_INJECT_H
#define GP_INJECT_H

#include <pthread.h>
#include <regex.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "data/data.h"
#include "gpu/gpu.h"

/* The entry point the CUDA driver calls, and the one NVTX calls when
 * NVTX_INJECTION64_PATH names the library (--nvtx-include): it hands
 * NVTX on to libcupti, whose callbacks then report the ranges.  The
 * library's only two exports. */
int InitializeInjection(void);
int InitializeInjectionNvtx2(void *getExportTable);

/* ---- the contract with gemmprof trace (naming.c) ---- */

/* What gemmprof hands every traced process (besides CUDA_INJECTION64_PATH). */
#define GP_TRACE_ENV_DIR    "GEMMPROF_TRACE_DIR"     /* the private folder   */
#define GP_TRACE_ENV_METRICS "GEMMPROF_TRACE_METRICS" /* --metrics, as given  */
#define GP_TRACE_ENV_REGEX  "GEMMPROF_TRACE_KERNEL_REGEX"
#define GP_TRACE_ENV_SKIP   "GEMMPROF_TRACE_LAUNCH_SKIP"
#define GP_TRACE_ENV_COUNT  "GEMMPROF_TRACE_LAUNCH_COUNT"
#define GP_TRACE_ENV_SAMPLE "GEMMPROF_TRACE_SAMPLE"   /* --sample, as given   */
#define GP_TRACE_ENV_NVTX   "GEMMPROF_TRACE_NVTX_INCLUDE"
#define GP_TRACE_ENV_TENSOR "GEMMPROF_TRACE_TENSOR_COUNTERS"  /* auto|always */
/* The injected library: this file if set, else next to the binary. */
#define GP_TRACE_ENV_LIB    "GEMMPROF_INJECT_LIB"
#define GP_TRACE_LIB_NAME   "libgemmprof-inject.so"
#define GP_TRACE_LIB_SUBDIR "lib/gemmprof"     /* relative to bin/..       */

/* Part files of one process: "<host>-<pid>.csv" (run-file rows, written
 * and flushed as each is known: one per profiled launch, one per launch
 * configuration's first launch, one per CUDA graph node; the column
 * `profiled` says which) and "<host>-<pid>.times", one line per Activity
 * API kernel record of a timed launch:
 *   "CORR START_NS END_NS FIRST_CORR PROFILED"   a stream launch, of the
 *        configuration whose row has correlation id FIRST_CORR (its own,
 *        if it has a row); PROFILED 1 if it was replayed
 *   "g CORR START_NS END_NS GRAPH_ID NODE_ID"    a kernel node of a CUDA
 *        graph launched by cuGraphLaunch CORR; its row has those ids
 *   "CORR START_NS END_NS"                       (older parts) a profiled
 *        launch with a row of its own
 * 0, or -1 if it does not fit in n. */
int gp_trace_part_name(char *out, size_t n, const char *dir, const char *host,
                       long pid, const char *ext);

/* MPI rank and size of this process from the launcher's environment
 * (OMPI_COMM_WORLD_RANK/SIZE, PMI_RANK/SIZE, SLURM_PROCID/NTASKS); rank ""
 * and size -1 outside MPI.  get is getenv, or a stand-in for tests. */
void gp_trace_rank(const char *(*get)(const char *), char *rank, size_t n, long *size);

/* ---- which launches are timed and which profiled (filter.c) ---- */

/* Every launch that matches the kernel regex (and --nvtx-include) is
 * timed by the Activity API, unreplayed.  Which of them are profiled
 * (replayed for counters): with --sample per-config:N, the launches
 * numbered skip .. skip+N-1 of each launch configuration (ncu's
 * --filter-mode per-launch-config, where --launch-skip counts per
 * configuration); with --sample all, those numbered skip .. skip+count-1
 * among all matching launches (ncu's default filter mode).  In both,
 * --launch-count caps the profiled launches of the process. */
typedef struct {
    const void *func;           /* CUfunction: the kernel in this process  */
    unsigned grid[3], block[3], cluster[3];
    int dyn_smem;
} gp_trace_config_key;

typedef struct {
    gp_trace_config_key key;
    int used;
    long seen;                  /* matching launches of it so far          */
    uint32_t first_corr;        /* its first launch: the row that names it */
    int want_full;              /* its next launch takes every counter     */
} gp_trace_config_slot;

typedef struct {
    regex_t re;
    int has_re;
    long skip, count;           /* count -1: no limit                     */
    long per_config;            /* N of per-config:N; 0: --sample all     */
    long matched;               /* launches that matched so far           */
    long profiled;              /* launches chosen for counters so far    */
    gp_trace_config_slot *slots;        /* open addressing                */
    size_t cap, nslots;
    int out_of_memory;          /* a configuration could not be kept      */
} gp_trace_filter;

/* What one launch gets. */
typedef struct {
    int timed;                  /* matches: an Activity record is kept    */
    int profiled;               /* replayed for counters                  */
    int first;                  /* its configuration's first launch: it
                                   writes the row the others refer to     */
    uint32_t first_corr;        /* correlation id of that first launch    */
    int full;                   /* profiled for every counter: its
                                   configuration's gated launch ran
                                   tensor-core math                       */
} gp_trace_pick;

/* --sample SPEC: "all" (0) or "per-config[:N]" (N >= 1, default 1).
 * 0, or -1 with a one-line message. */
int gp_trace_sample_parse(const char *spec, long *per_config, char *err, size_t errlen);
/* From the GEMMPROF_TRACE_* values (NULL: not set; sample NULL is
 * per-config:1).  0, or -1 with err. */
int gp_trace_filter_init(gp_trace_filter *f, const char *regex, const char *skip,
                         const char *count, const char *sample, char *err, size_t errlen);
/* The decision for a launch of kernel `name` (demangled) with launch
 * configuration k and correlation id corr. */
void gp_trace_filter_pick(gp_trace_filter *f, const char *name, const gp_trace_config_key *k,
                          uint32_t corr, gp_trace_pick *p);
/* --tensor-counters auto: a gated launch of configuration k ran
 * tensor-core math, so its next matching launch is profiled for every
 * counter (pick.full), inside the sample window or not, unless
 * --launch-count is used up. */
void gp_trace_filter_want_full(gp_trace_filter *f, const gp_trace_config_key *k);
/* Does `name` match the kernel regex (always, without one)? */
int gp_trace_filter_matches(const gp_trace_filter *f, const char *name);
void gp_trace_filter_free(gp_trace_filter *f);

/* ---- --nvtx-include (nvtx_range.c): a thread's push/pop ranges ---- */

#define GP_NVTX_DEPTH 128
typedef struct {
    int depth;                  /* ranges pushed and not popped           */
    int inside;                 /* of them, named like --nvtx-include     */
    unsigned char named[GP_NVTX_DEPTH];  /* beyond: not tracked, unnamed  */
} gp_nvtx_stack;

/* nvtxRangePush* with message msg (NULL: not an ASCII message). */
void gp_nvtx_push(gp_nvtx_stack *s, const char *want, const char *msg);
/* nvtxRangePop: a pop without a push is ignored, as NVTX does. */
void gp_nvtx_pop(gp_nvtx_stack *s);
/* 1 if a launch now is inside a range named want. */
int gp_nvtx_inside(const gp_nvtx_stack *s);

/* ---- a launch's row (launch_row.c) ---- */

typedef struct {
    const char *name;           /* demangled (or as CUDA names it)        */
    unsigned grid[3], block[3], cluster[3];  /* cluster {0,0,0}: none    */
    long pid, ranks;
    const char *rank;
    long correlation_id;
    /* from the driver; -1 where it did not say */
    int regs, local_bytes, static_smem, dyn_smem;
    int active_blocks;          /* cuOccupancyMaxActiveBlocksPerMultiprocessor */
    int have_device;            /* dev holds the device's attributes      */
    gp_occupancy_input dev;
} gp_trace_launch;

/* The status of a CUDA graph node's row (graph.c): timed, not counted. */
#define GP_TRACE_GRAPH_STATUS "counters NA: kernel of a CUDA graph (no launch " \
    "callback, so CUPTI's Range Profiler cannot replay it)"

/* "grid=XxYxZ block=XxYxZ[ cluster=XxYxZ]" */
void gp_trace_config(const gp_trace_launch *l, char *out, size_t n);
/* Identity, launch shape and static facts of the launch into a fresh row
 * (m, n, k NA; counters NA, for the caller to fill).  The limiter is
 * named only where the arithmetic agrees with the driver's block count. */
void gp_trace_launch_row(const gp_trace_launch *l, gp_row *r);


/* ---- the guards: when the library keeps out (guard.c) ---- */

/* Called once, in the process the library was loaded into: remembers its
 * pid and registers a fork handler, so that a forked child (a DataLoader
 * worker, a subprocess pool) never flushes, locks or writes what belongs
 * to the parent, not even in the exit() it inherits: every file opened by
 * gp_inject_fopen is pointed at /dev/null in the child, so a buffer copied
 * half-written cannot land twice in the parent's part file.  0, or -1 if
 * the handler could not be registered (then do not trace). */
int gp_inject_guard_init(void);
/* 1 in a forked child of that process (or before guard_init), else 0.
 * Checks the pid too, for children made without fork handlers. */
int gp_inject_forked(void);
/* From exit on the library stands aside: hooks return at once.  Launches
 * already inside a hook finish. */
void gp_inject_stop(void);
/* 1 once stopped, or in a forked child: a hook does nothing.  Cheap (no
 * system call): every launch asks. */
int gp_inject_idle(void);

/* A new file for writing, close-on-exec, so a program the application
 * execs never inherits it; a forked child's copy goes to /dev/null.  NULL
 * with errno on failure. */
FILE *gp_inject_fopen(const char *path);
/* fclose for those: the library keeps its files open until exit, but a
 * closed one's number, reused, must not go to /dev/null in a child. */
int gp_inject_fclose(FILE *f);

#endif
