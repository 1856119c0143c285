/* trace.h - gemmprof trace: the kernels of any CUDA application on the
 * same roofline.  The command (command.c) runs CMD with a CUPTI injection
 * library (CUDA_INJECTION64_PATH; inject*.c, built as its own shared
 * object) that profiles each selected kernel launch with the Range Profiler
 * (auto range + kernel replay: CUPTI saves and restores the memory, as
 * gemmprof does not own the application's buffers) and times it with the
 * Activity API.  Each CUDA process writes its own part file into a private
 * folder; gemmprof merges them into one run file when CMD exits.
 *
 * The folder's interface: the command, and the pure pieces both halves
 * share and the CPU tests exercise (options, the environment handed to
 * CMD, launch selection, a launch's row, merging and folding parts). */
#ifndef GP_TRACE_H
#define GP_TRACE_H

#include <regex.h>
#include <stddef.h>
#include <stdio.h>
#include "data/data.h"
#include "gpu/gpu.h"
#include "util/util.h"

int gp_cmd_trace(int argc, char **argv);

/* ---- the contract between gemmprof and the injected library ---- */

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

/* ---- options (options.c) ---- */

typedef struct {
    const char *kernel_regex;   /* NULL: every kernel                    */
    long launch_skip;           /* matching launches to skip (0)         */
    long launch_count;          /* matching launches to profile, -1 all  */
    const char *metrics;        /* "default", "none" or a LIST           */
    const char *out;            /* FILE.csv or DIR; NULL: results/       */
    const char *merge_dir;      /* --merge DIR: only merge (recovery)    */
    int summary, quiet, help, version;
    char **cmd;                 /* CMD and its ARGS, NULL-terminated     */
    int ncmd;
} gp_trace_opts;

/* Parse `gemmprof trace [OPTION]... [--] CMD [ARG]...` (argv[0] is
 * "trace").  Options stop at "--" or at the first word that is not one;
 * everything after belongs to CMD.  Checks the regex compiles and the
 * metric list's syntax.  0, or -1 with a one-line message. */
int gp_trace_parse(int argc, char **argv, gp_trace_opts *o, char *err, size_t errlen);
void gp_trace_usage(FILE *f);

/* ---- what CMD runs with (env.c) ---- */

/* CMD's environment: `env` (the parent's, NULL-terminated) without any
 * GEMMPROF_TRACE_* left over, plus CUDA_INJECTION64_PATH=lib and the
 * GEMMPROF_TRACE_* settings of `o` (dir and lib absolute).  Refuses (-1,
 * err) an environment that already injects a tool: CUDA allows one. */
int gp_trace_env(const gp_trace_opts *o, char *const env[], const char *lib,
                 const char *dir, gp_strlist *out, char *err, size_t errlen);

/* The injected library: $GEMMPROF_INJECT_LIB, else
 * dirname(exe)/../lib/gemmprof/libgemmprof-inject.so.  0 and an absolute
 * path in out, or -1 with a message naming where it looked. */
int gp_trace_find_lib(const char *exe, char *out, size_t n, char *err, size_t errlen);

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

/* ---- merging the parts (merge.c) ---- */

typedef struct {
    int summary;
    int argc;                   /* the gemmprof trace command line, for  */
    char **argv;                /*   the merged file's metadata           */
    const char *metrics;
    const gp_trace_opts *o;     /* the filter, for the metadata (or NULL) */
} gp_trace_merge_opts;

typedef struct {
    int parts;                  /* part files found (CUDA processes)      */
    int rows;                   /* rows written                           */
    int timed;                  /* rows with a duration                   */
    int counter_timed;          /* of them, from gpu__time_duration.sum:
                                   their Activity records had zero length */
    char refused[512];          /* why counters were refused, or ""       */
    char warning[512];          /* other trouble worth one line, or ""    */
} gp_trace_merge_result;

/* Read every part in `dir`, join each row with its launch's Activity
 * durations (time_ms: median of its records; min, max, reps), derive, fold
 * when o->summary, and write the run file `out`.  A part cut off by a
 * crash gives its complete rows.  0 (parts may be 0: nothing written), or
 * -1 with err (the parts are left where they are). */
int gp_trace_merge(const char *dir, const gp_trace_merge_opts *o, const char *out,
                   gp_trace_merge_result *res, char *err, size_t errlen);

/* --summary: rows of the same process, kernel and launch configuration
 * folded into one, in order of first appearance: launches = count,
 * time_total_ms = sum, time_ms = median of the launches' times, min and
 * max over them, each counter the median over the launches that have it,
 * derived columns again.  Returns the number of rows left in rows[]. */
int gp_trace_fold(gp_row *rows, int n);

#endif
