/* probe.h - `gemmprof probe`: measured machine ceilings next to the
 * theoretical ones, cached per GPU (the file format is ceilings.h). */
#ifndef GP_PROBE_H
#define GP_PROBE_H

#include <stddef.h>
#include <stdio.h>
#include <time.h>
#include "data/data.h"
#include "arch/arch.h"
#include "gpu/gpu.h"

/* ---- theoretical peaks: pure arithmetic on device attributes ---------- */

typedef struct {
    double sm_mhz;              /* the SM clock the compute peaks assume  */
    int fp32_lanes, fp64_lanes; /* FMA per SM per clock; 0 = unknown CC   */
    double dram_gbs;            /* 2 x mem clock x bus width / 8          */
    double fp32_gflops;         /* SMs x fp32 lanes x 2 x SM clock        */
    double fp64_gflops;         /* SMs x fp64 lanes x 2 x SM clock        */
    double tf32_tensor_gflops;  /* SMs x TF32 tensor FLOP/clk/SM x clock  */
    double fp64_tensor_gflops;  /* SMs x FP64 tensor FLOP/clk/SM x clock  */
    double smem_gbs;            /* SMs x 32 banks x 4 B x SM clock        */
    double l2_gbs;              /* NAN: no formula from attributes        */
} gp_peaks;                     /* NAN where an input is unknown or the
                                 * chip has no such unit (arch/arch.h)    */

/* FMA lanes per SM for a compute capability (the table in src/arch/);
 * 0 and 0 if not in it. */
void gp_fma_lanes_per_sm(int cc_major, int cc_minor, int *fp32, int *fp64);
/* sm_mhz <= 0: use the max clock attribute (g->sm_clock_khz). */
void gp_theoretical_peaks(const gp_gpu *g, double sm_mhz, gp_peaks *p);

/* ---- measuring ---------------------------------------------------------- */

typedef struct {
    size_t bytes_per_array;  /* STREAM array size; 0: 8 x L2 (floor 2 GiB) */
    int reps;                /* timed runs after one dropped run          */
    FILE *log;               /* progress and per-kernel stats; NULL quiet */
} gp_probe_opts;

#define GP_PROBE_DEFAULT_REPS 20

/* Run every probe on the current device `g` and append the rows of
 * ceilings.h (and the probe's clocks and sizes as metadata) to `out`,
 * whose meta the caller has started (gp_meta_host, gp_gpu_meta).
 * Every probe checks its results.  0, or -1 with a one-line message. */
int gp_probe_measure(const gp_gpu *g, const gp_probe_opts *o,
                     gp_ceilings *out, char *err, size_t errlen);

/* gp_probe_measure with the file's metadata (host facts with argv, GPU
 * facts), written to `path`.  `out` (may be NULL) keeps what was written. */
int gp_probe_to_file(const gp_gpu *g, const gp_probe_opts *o, const char *path,
                     int argc, char **argv, gp_ceilings *out, char *err,
                     size_t errlen);

/* Expected per-thread output of gp_fma_launch (probes/probes.h) for
 * thread class `cls` (thread % GP_FMA_CLASSES): the same IEEE FMAs on the
 * CPU in the same precision. */
double gp_fma_expected(int fp64, int cls, int iters, double a, double b);

/* ---- clocks (NVML, loaded at run time) ---------------------------------- */

/* SM clock of CUDA device `device` now, in MHz; -1 if NVML is unavailable. */
int gp_sm_clock_now_mhz(int device);

typedef struct gp_nvml gp_nvml;
gp_nvml *gp_nvml_open(int device);           /* NULL if unavailable */
int gp_nvml_clock_mhz(gp_nvml *n, int mem);  /* SM (mem=0) or memory; -1 */
/* The board's energy since the driver loaded, in mJ (Volta and later).
 * 0, or -1 where NVML or the GPU does not count it. */
int gp_nvml_energy_mj(gp_nvml *n, unsigned long long *mj);
void gp_nvml_close(gp_nvml *n);

/* ---- the cache ---------------------------------------------------------- */

/* 1 if `path` is a readable ceilings file for `gpu_name` whose "# date:"
 * is at most max_age_s before `now`; else 0 with the reason in `err`. */
int gp_ceilings_fresh(const char *path, const char *gpu_name,
                      double max_age_s, time_t now, char *err, size_t errlen);
/* "2026-11-20T12:34:56Z" (also a space for T, no Z, or +00:00) -> time_t;
 * -1 if malformed. */
time_t gp_parse_utc(const char *s);

/* Path of a fresh ceilings file for `device`: the cached one when it is for
 * this GPU and at most max_age_s old (and !force), else a new probe written
 * there.  0, or -1 with a one-line message. */
int gp_probe_ensure(int device, double max_age_s, int force, char *path,
                    size_t pathlen, char *err, size_t errlen);

/* "512M", "2GiB", "1048576" -> bytes (K, M, G, T binary; optional "iB"/"B").
 * 0, or -1 if malformed or overflowing. */
int gp_parse_bytes(const char *s, size_t *out);

int gp_cmd_probe(int argc, char **argv);   /* gemmprof probe ... */

#endif
