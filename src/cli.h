/* cli.h - options of the run command (gemmprof --kernel ...), parsed and
 * validated completely before any GPU call. */
#ifndef GP_CLI_H
#define GP_CLI_H

#include <stddef.h>
#include <stdio.h>
#include "gemmprof.h"

#define GP_MAX_SHAPES 256
#define GP_MAX_KERNELS 256
#define GP_MAX_PLUGINS 16

typedef struct { long m, n, k; } gp_shape;

typedef struct {
    const gp_kernel *kernels[GP_MAX_KERNELS];
    int nkernels;
    /* --plugin FILE: loaded (gp_plugin_load) once every option is parsed,
     * before the --kernel values (kernel_specs) are resolved, so that
     * plugin kernels can be named whatever the order on the command line */
    const char *plugins[GP_MAX_PLUGINS];
    int nplugins;
    const char *kernel_specs[GP_MAX_KERNELS];
    int nkernel_specs;
    gp_shape shapes[GP_MAX_SHAPES];
    int nshapes;
    double alpha, beta;
    int reps, warmup;
    unsigned long long seed;    /* 0 = pick from the clock (recorded)   */
    int seed_given;
    const char *out;            /* FILE.csv or DIR; NULL = default     */
    const char *metrics;        /* "default", "none", or a LIST        */
    const char *baseline;       /* --baseline FILE: diff the run with it */
    int list, list_metrics, build_facts, help, version, roofline, quiet, no_flush;
    int device;
} gp_options;

/* Parse argv into `o` (defaults first; a size is required
 * unless --list/--help/--version; alpha 1, beta 0, reps 20, warmup 5,
 * metrics "default").  Loads the --plugin files, then resolves the
 * --kernel names (plugin kernels included).  Returns 0, or -1 with a
 * one-line message in `err` (without the "gemmprof: " prefix). */
int gp_cli_parse(int argc, char **argv, gp_options *o, char *err, size_t errlen);
void gp_cli_usage(FILE *f);

/* Size specs.  Each returns the number of shapes appended, or -1 with err.
 *   "N"            -> N x N x N
 *   "A:B:STEP"     -> A, A+STEP, ... <= B (square)
 *   "A,B,C"        -> square sizes
 *   "M,N,K"        -> for --mnk: one rectangular shape
 * Sizes must be integers 1 .. 1<<20 (no signs, no junk, no overflow). */
int gp_parse_sizes(const char *spec, gp_shape *out, int max, char *err, size_t errlen);
int gp_parse_mnk(const char *spec, gp_shape *out, int max, char *err, size_t errlen);

#endif
