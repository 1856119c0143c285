/* trace.h - gemmprof trace: the kernels of any CUDA application on the
 * same roofline.  The command (command.c) runs CMD with a CUPTI injection
 * library (CUDA_INJECTION64_PATH; src/inject/, built as its own shared
 * object) that profiles each selected kernel launch with the Range Profiler
 * (auto range + kernel replay: CUPTI saves and restores the memory, as
 * gemmprof does not own the application's buffers) and times it with the
 * Activity API.  Each CUDA process writes its own part file into a private
 * folder; gemmprof merges them into one run file when CMD exits.
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
#include "inject/inject.h"
#include "util/util.h"

int gp_cmd_trace(int argc, char **argv);

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
