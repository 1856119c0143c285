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
#include <stdio.h>
#include "data/data.h"
#include "gpu/gpu.h"

/* The entry point the CUDA driver calls (the library's one export). */
int InitializeInjection(void);

/* ---- the contract with gemmprof trace (naming.c) ---- */

/* What gemmprof hands every traced process (besides CUDA_INJECTION64_PATH). */
#define GP_TRACE_ENV_DIR    "GEMMPROF_TRACE_DIR"     /* the private folder   */
#define GP_TRACE_ENV_METRICS "GEMMPROF_TRACE_METRICS" /* --metrics, as given  */
#define GP_TRACE_ENV_REGEX  "GEMMPROF_TRACE_KERNEL_REGEX"
#define GP_TRACE_ENV_SKIP   "GEMMPROF_TRACE_LAUNCH_SKIP"
#define GP_TRACE_ENV_COUNT  "GEMMPROF_TRACE_LAUNCH_COUNT"
/* The injected library: this file if set, else next to the binary. */
#define GP_TRACE_ENV_LIB    "GEMMPROF_INJECT_LIB"
#define GP_TRACE_LIB_NAME   "libgemmprof-inject.so"
#define GP_TRACE_LIB_SUBDIR "lib/gemmprof"     /* relative to bin/..       */

/* Part files of one process: "<host>-<pid>.csv" (run-file rows, written
 * and flushed as each launch is measured) and "<host>-<pid>.times" (one
 * line "correlation_id start_ns end_ns" per Activity API kernel record of
 * a profiled launch).  0, or -1 if it does not fit in n. */
int gp_trace_part_name(char *out, size_t n, const char *dir, const char *host,
                       long pid, const char *ext);

/* MPI rank and size of this process from the launcher's environment
 * (OMPI_COMM_WORLD_RANK/SIZE, PMI_RANK/SIZE, SLURM_PROCID/NTASKS); rank ""
 * and size -1 outside MPI.  get is getenv, or a stand-in for tests. */
void gp_trace_rank(const char *(*get)(const char *), char *rank, size_t n, long *size);

/* ---- which launches are profiled (filter.c), ncu's meaning ---- */

typedef struct {
    regex_t re;
    int has_re;
    long skip, count;           /* count -1: no limit                     */
    long matched;               /* launches that matched so far           */
} gp_trace_filter;

/* From the GEMMPROF_TRACE_* values (NULL: not set).  0, or -1 with err. */
int gp_trace_filter_init(gp_trace_filter *f, const char *regex, const char *skip,
                         const char *count, char *err, size_t errlen);
/* Does this launch of kernel `name` (demangled) get profiled?  Counts it
 * among the matching launches when the regex matches: launches numbered
 * skip .. skip+count-1 among those are selected. */
int gp_trace_filter_select(gp_trace_filter *f, const char *name);
/* No launch after this one can be selected (count reached). */
int gp_trace_filter_done(const gp_trace_filter *f);
void gp_trace_filter_free(gp_trace_filter *f);

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
