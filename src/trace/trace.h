/* trace.h - gemmprof trace: the kernels of any CUDA application on the
 * same roofline.  The command (command.c) runs CMD with a CUPTI injection
 * library (CUDA_INJECTION64_PATH; src/inject/, built as its own shared
 * object) that times every matching kernel launch with the Activity API
 * and profiles a sample of them (by default the first of each launch
 * configuration) with the Range Profiler (auto range + kernel replay:
 * CUPTI saves and restores the memory, as gemmprof does not own the
 * application's buffers).  Each CUDA process writes its own part file into
 * a private folder; gemmprof merges them into one run file when CMD exits:
 * a row per configuration, or per launch.
 *
 * The folder's interface: the command, and the pure pieces the CPU tests
 * exercise (options, the environment handed to CMD, merging and folding
 * parts).  What the command and the library agree on (the environment's
 * names, the part files, a launch's row) is the library's interface,
 * inject/inject.h. */
#ifndef GP_TRACE_H
#define GP_TRACE_H

#include <stddef.h>
#include <stdio.h>
#include "data/data.h"
#include "cupti/profiler.h"
#include "inject/inject.h"
#include "util/util.h"

int gp_cmd_trace(int argc, char **argv);

/* ---- options (options.c) ---- */

typedef struct {
    const char *kernel_regex;   /* NULL: every kernel                    */
    long launch_skip;           /* matching launches to skip (0)         */
    long launch_count;          /* matching launches to profile, -1 all  */
    const char *sample;         /* --sample as given ("per-config")      */
    long per_config;            /* its N; 0: --sample all                */
    const char *nvtx_include;   /* --nvtx-include RANGE, or NULL         */
    const char *metrics;        /* "default", "none" or a LIST           */
    const char *tensor_counters;  /* --tensor-counters: "auto", "always" */
    gp_metric_list metric_list; /* it, parsed once                       */
    const char *out;            /* FILE.csv or DIR; NULL: results/       */
    const char *merge_dir;      /* --merge DIR: only merge (recovery)    */
    int per_launch;             /* --per-launch: a row per launch        */
    int quiet, help, version;
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

/* ---- merging the parts (merge.c) ---- */

typedef struct {
    int per_launch;             /* a row per launch, not per configuration */
    int argc;                   /* the gemmprof trace command line, for  */
    char **argv;                /*   the merged file's metadata           */
    const char *metrics;
    const gp_trace_opts *o;     /* the filter, for the metadata (or NULL) */
} gp_trace_merge_opts;

typedef struct {
    int parts;                  /* part files found (CUDA processes)      */
    int rows;                   /* rows written                           */
    int timed;                  /* rows with a duration                   */
    long launches;              /* launches the rows stand for            */
    long graph_launches;        /* of them, kernels of CUDA graphs        */
    int counter_timed;          /* rows timed by gpu__time_duration.sum:
                                   their only launches were profiled and
                                   their Activity records had zero length */
    int tensor_missing;         /* rows whose tensor-core math no counter
                                   counts (gp_row_tensor_missing)         */
    char refused[512];          /* why counters were refused, or ""       */
    char warning[512];          /* other trouble worth one line, or ""    */
} gp_trace_merge_result;

/* Read every part in `dir`, join the rows with the launches' Activity
 * durations, and write the run file `out`: one row per launch
 * configuration (gp_trace_fold), or per launch with o->per_launch
 * (gp_trace_launch_of).  A part cut off by a crash gives its complete
 * rows and records.  0 (parts may be 0: nothing written), or -1 with err
 * (the parts are left where they are). */
int gp_trace_merge(const char *dir, const gp_trace_merge_opts *o, const char *out,
                   gp_trace_merge_result *res, char *err, size_t errlen);

/* ---- launches and their rows (fold.c) ---- */

/* One launch of a process, from its part's records. */
typedef struct {
    int row;                    /* rows[] index: its own row (a profiled
                                   launch, a configuration's first, a
                                   graph node's first), else its
                                   configuration's or node's row          */
    long corr;                  /* CUPTI correlation id (a graph kernel's:
                                   its cuGraphLaunch's)                   */
    double start_ns;            /* GPU start (NAN: no record), for order  */
    double ms, min_ms, max_ms;  /* median, min, max of its records with a
                                   length; NAN: none                      */
    long reps;                  /* those records                          */
    int profiled;               /* replayed for counters                  */
} gp_trace_launch_time;

/* The row of launch t: rows[t->row], its own, or (another launch of that
 * configuration) with the counters NA; its correlation id and times;
 * profiled 0 or 1; time_source as gp_trace_fold says. */
void gp_trace_launch_of(const gp_row *rows, const gp_trace_launch_time *t, gp_row *out);

/* The launches of one process, kernel and launch configuration (and
 * graph node) become one row, in order of first appearance: launches,
 * profiled; time_ms, min, max, time_total_ms (their sum) and reps (their
 * count) over the UNPROFILED launches' durations; where the row has no
 * unprofiled launch with a duration, over the profiled launches' own
 * records, else from gpu__time_duration.sum (time_source says which);
 * each counter the median over the profiled launches.  rows[] holds the
 * rows of the part files (n), t[] every launch (nt); the folded rows
 * replace rows[]; returns their number. */
int gp_trace_fold(gp_row *rows, int n, const gp_trace_launch_time *t, size_t nt);

#endif
