/* ceilings.h - the ceilings file: what the machine can really do, measured
 * by `gemmprof probe`, next to what its attributes promise.
 *   # metadata lines (gpu, clocks, date, command, ...)
 *   ceiling,unit,measured,theoretical,pct_of_theoretical,method
 * Rows (names are stable; plots look them up by name):
 *   dram_bw      GB/s      best STREAM triad (also copy/scale/add/read rows below)
 *   l2_bw        GB/s      working set well under L2
 *   smem_bw      GB/s      shared-memory load bandwidth, all SMs
 *   fp32_fma     GFLOP/s   FFMA throughput (2 FLOP per FMA)
 *   fp64_fma     GFLOP/s   DFMA throughput
 *   tf32_tensor  GFLOP/s   TF32 tensor cores: theoretical only (measured NA;
 *                          theoretical NA on a chip without them)
 *   fp64_tensor  GFLOP/s   FP64 tensor cores (DMMA): the same
 *   stream_copy_fp32, stream_scale_fp32, stream_add_fp32, stream_triad_fp32,
 *   stream_read_fp32, and the same with _fp64: GB/s, STREAM's byte counting
 */
#ifndef GP_CEILINGS_H
#define GP_CEILINGS_H

#include <stddef.h>
#include "meta.h"

#define GP_CEILINGS_SCHEMA "gemmprof-ceilings/1"
#define GP_CEILINGS_MAX 64

typedef struct {
    char name[48];
    char unit[16];
    double measured, theoretical, pct_of_theoretical;  /* NAN = NA */
    char method[160];
} gp_ceiling;

typedef struct {
    gp_meta meta;
    int n;
    gp_ceiling c[GP_CEILINGS_MAX];
} gp_ceilings;

int gp_ceilings_write(const char *path, const gp_ceilings *c,
                      char *err, size_t errlen);
int gp_ceilings_read(const char *path, gp_ceilings *c,
                     char *err, size_t errlen);
/* NULL if absent. */
const gp_ceiling *gp_ceilings_find(const gp_ceilings *c, const char *name);

/* Where each GPU's ceilings are cached: $GEMMPROF_CACHE, else
 * $XDG_CACHE_HOME/gemmprof, else ~/.cache/gemmprof, then
 * "ceilings-<slug of gpu_name>.csv".  The directory is created.
 * 0, or -1 with err. */
int gp_ceilings_cache_path(const char *gpu_name, char *path, size_t pathlen,
                           char *err, size_t errlen);

#endif
