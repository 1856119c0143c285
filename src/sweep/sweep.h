/* sweep.h - `gemmprof sweep`: one templated kernel family across its
 * compiled tile configs (kernels/sweep.def) and a set of shapes; rows
 * with a config column, the best config per shape, the crossovers, and a
 * tuning table for the `mixed` kernels (tuning.h). */
#ifndef GP_SWEEP_H
#define GP_SWEEP_H

#include <stddef.h>
#include <stdio.h>
#include "../../kernels/sweep_table.h"
#include "gpu/gpu.h"
#include "util/util.h"

#define GP_SWEEP_MAX_CONFIGS 64

typedef struct {
    const char *family;
    gp_precision precision;
    const gp_sweep_config *configs[GP_SWEEP_MAX_CONFIGS];
    int nconfigs;
    gp_shape shapes[GP_MAX_SHAPES];
    int nshapes;
    int reps, warmup, quiet, help, version, device;
    const char *cache_control;  /* --cache-control all|none (--no-flush: none) */
    gp_scrub scrub;             /* what it means (gp_cache_control_scrub)      */
    unsigned long long seed;
    int seed_given;
    const char *out;          /* run file or directory; NULL: results/   */
    const char *tuning;       /* tuning table; NULL: the cache file     */
} gp_sweep_args;

/* Parse and validate everything (no GPU).  Defaults: --configs all, reps
 * 20, warmup 5.  0, or -1 with a one-line message (without "gemmprof: "). */
int gp_sweep_parse(int argc, char **argv, gp_sweep_args *a, char *err, size_t errlen);
void gp_sweep_usage(FILE *f);

/* --preset NAME: append its shapes ("k-skinny": M=N in {4096, 8192} x K in
 * {32, 64, 128, 156}).  Count appended, or -1 with err. */
int gp_sweep_preset(const char *name, gp_shape *out, int max, char *err, size_t errlen);

int gp_cmd_sweep(int argc, char **argv);   /* gemmprof sweep --kernel FAMILY */

#endif
