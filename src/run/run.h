/* run.h - the run folder's interface.  The one way to run a kernel:
 * launch -> verify -> time -> (optionally) profile (runner.c, verify.c),
 * written once and used by every kernel, the run command (command.c), the
 * sweeps, dist and the GPU tests; where run files go and the metadata every
 * one carries (output.c); the plugin crash guard (plugin_guard.c). */
#ifndef GP_RUN_H
#define GP_RUN_H

#include <stddef.h>
#include <stdio.h>
#include "gemmprof.h"
#include "cupti/profiler.h"
#include "data/data.h"
#include "gpu/gpu.h"
#include "util/util.h"

int gp_cmd_run(int argc, char **argv);     /* gemmprof --kernel ... (the default) */

/* ---- the run command's options (options.c, usage.c), parsed and validated
 * completely before any GPU call ---- */

#define GP_MAX_KERNELS 256
#define GP_MAX_PLUGINS 16


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
    const char *chip;           /* --chip NAME for --list-metrics      */
    const char *baseline;       /* --baseline FILE: diff the run with it */
    int list, list_metrics, build_facts, help, version, roofline, quiet;
    int interleave;             /* --interleave: reps alternate with the reference's */
    const char *cache_control;  /* --cache-control all|none (--no-flush: none) */
    double energy_s;            /* --energy SECONDS, 0: not measured       */
    gp_scrub scrub;             /* what it means (gp_cache_control_scrub)      */
    int pad;                    /* --pad N: lda, ldb, ldc = gp_bench_ld(.., N) */
    int device;
} gp_options;

/* Parse argv into `o` (defaults first; a size is required
 * unless --list/--help/--version; alpha 1, beta 0, reps 20, warmup 5,
 * metrics "default").  Loads the --plugin files, then resolves the
 * --kernel names (plugin kernels included).  Returns 0, or -1 with a
 * one-line message in `err` (without the "gemmprof: " prefix). */
int gp_cli_parse(int argc, char **argv, gp_options *o, char *err, size_t errlen);
void gp_cli_usage(FILE *f);

/* The program's commands, for --help's list and the hint on a command
 * word given after options.  Their table is src/cli/commands.c, above
 * run/: the program hands its words down before dispatch (an array
 * ending with word NULL; until then, none are known). */
typedef struct { const char *word, *summary; } gp_command_word;
void gp_run_set_commands(const gp_command_word *words);
const gp_command_word *gp_run_commands(void);

typedef struct gp_nvml gp_nvml;

typedef struct {
    int reps, warmup;
    gp_scrub scrub;             /* L2 before each timed launch and counter pass */
    gp_profiler *prof;          /* NULL: no counters                  */
    double energy_s;            /* --energy window in seconds, 0: none */
    gp_nvml *nvml;              /* its energy counter                  */
    /* --interleave: each timed launch of the kernel follows one of `pair`
     * (its reference), timed alike: r->ref_time_ms is their median, and
     * r->pct_cublas 100 x the median of pair time / kernel time per pair */
    const gp_kernel *pair;
} gp_run_opts;

/* ---- energy per launch (energy.c, --energy SECONDS) ---- */
typedef struct {
    double sustained_ms;   /* mean time per launch, back to back (events)  */
    double power_w;        /* mean board power between energy-counter steps */
    double energy_j;       /* power_w x sustained_ms: joules per launch     */
} gp_energy;

/* Power from the counter's steps: times t[i] (s) and readings mj[i] (mJ),
 * first to last.  0 with *watts; -1 if fewer than two steps or the
 * counter went backwards. */
int gp_energy_power(const double *t, const unsigned long long *mj, int n,
                    double *watts);
/* A window's result: power from its steps (gp_energy_power), sustained_ms =
 * window_ms / launches (the events around its launches), energy_j = power x
 * sustained time.  0, or -1 with `out` NA (too few steps, no launch). */
int gp_energy_result(const double *t, const unsigned long long *mj, int n,
                     double window_ms, double launches, gp_energy *out);

/* `launch` back to back for `seconds` (a quarter of that first, unmeasured;
 * est_ms, one launch's time, sizes the window), the energy counter of `nv`
 * polled while it runs.  0 with `out`, or -1 with a one-line `err`. */
typedef int (*gp_energy_launch_fn)(void *ctx);
int gp_energy_window(gp_nvml *nv, double seconds, double est_ms,
                     gp_energy_launch_fn launch, void *ctx, gp_energy *out,
                     char *err, size_t errlen);

/* Device buffers for one shape and precision: A, B, C0 (initial C), C (the
 * kernel's output), R (the cuBLAS reference result), host copies.  Each
 * matrix sits between two guard bands of GP_GUARD_BYTES filled with
 * GP_CANARY, and with padding (gp_bench_create_pad) its rows are longer
 * than its width; C's padding columns hold the canary too. */
typedef struct gp_bench gp_bench;
#define GP_GUARD_BYTES ((size_t)64 << 10)   /* a multiple of 256: keeps alignment */

/* The leading dimension of a matrix `width` elements wide with `pad` >= 0:
 * width itself for pad 0, else width + pad rounded up to 16 bytes (vector
 * and TMA loads need 16-byte-aligned rows), so always > width. */
long gp_bench_ld(gp_precision p, long width, long pad);

/* Bytes of device memory a bench of this shape needs (all buffers). */
size_t gp_bench_bytes(gp_precision p, long m, long n, long k);
size_t gp_bench_bytes_pad(gp_precision p, long m, long n, long k, long pad);

/* Allocate, fill A, B, C0 with uniform random values in [-1, 1) from
 * `seed`, and compute the reference with cuBLAS, and the magnitude
 * |alpha||A||B| + |beta||C0| each element's error bound scales with.  NULL
 * with a one-line message (e.g. "4096x4096x4096 fp64 needs 1.2 GiB, 0.3 GiB
 * free").  _pad: leading dimensions lda, ldb, ldc = gp_bench_ld(k, n, n). */
gp_bench *gp_bench_create(gp_precision p, long m, long n, long k,
                          double alpha, double beta, unsigned long long seed,
                          char *err, size_t errlen);
gp_bench *gp_bench_create_pad(gp_precision p, long m, long n, long k,
                              double alpha, double beta, unsigned long long seed,
                              long pad, char *err, size_t errlen);
void gp_bench_destroy(gp_bench *b);

/* Run `k` on the bench: one verified launch, warm-up, timed reps, static
 * facts, counters if o->prof (no energy window: gp_bench_energy).  Always fills `r` (status says what failed).
 * Returns 0 if the row verified, 1 if it ran but failed verification,
 * -1 on a CUDA error (the context may be unusable after a sticky error:
 * see r->status). */
int gp_bench_run(gp_bench *b, const gp_kernel *k, const gp_run_opts *o,
                 gp_row *r);

/* --energy: `k` again, back to back for o->energy_s seconds after its timed
 * reps (r->time_ms sizes the window's launches); fills r's sustained_ms,
 * power_w and energy_j.  0, or -1 with a warning on stderr (r unchanged). */
int gp_bench_energy(gp_bench *b, const gp_kernel *k, const gp_run_opts *o,
                    gp_row *r);

/* ---- rows held for their energy window (held.c): with --energy, every
 * kernel of a shape is timed before any window runs ---- */
typedef struct {
    gp_row *rows;
    const gp_kernel **kernels;
    int n, cap;
} gp_held;

/* Append a copy of `r`; 0, or -1 if out of memory (nothing held). */
int gp_held_add(gp_held *h, const gp_kernel *k, const gp_row *r);
typedef void (*gp_held_window_fn)(void *ctx, gp_held *h, int i);
typedef void (*gp_held_write_fn)(void *ctx, const gp_row *r);
/* In the order held: window(ctx, h, i) for each row that was timed (if
 * window is not NULL), then write(ctx, row).  Leaves h empty. */
void gp_held_flush(gp_held *h, gp_held_window_fn window, gp_held_write_fn write,
                   void *ctx);
void gp_held_free(gp_held *h);

/* A row that names kernel `k` at this shape, every measurement NA: the start
 * of every row, measured or not (runner, rows for kernels that could not
 * run, the plugin crash row). */
void gp_row_identify(gp_row *r, const gp_kernel *k, long m, long n, long kk,
                     double alpha, double beta);

/* ---- verification (verify.c): is C right? ----
 * Every element against its own bound, |C - R| <= gamma * M + floor, where
 * M = |alpha||A||B| + |beta||C0| (gp_verify_gamma says why gamma), and the
 * relative Frobenius error against gp_verify_tolerance; any NaN or Inf in C
 * fails.  The worst element (largest |C - R| / bound) is kept for the
 * status line. */
typedef struct {
    double rel_fro, max_rel;
    long nonfinite;             /* NaN or Inf elements                      */
    long poison;                /* of those, still gp_poison's bytes (0xFF) */
    long checked;               /* elements compared                        */
    long bad;                   /* finite elements out of their bound       */
    long worst_row, worst_col;  /* the element with the largest error/bound */
    double worst_got, worst_want, worst_bound;
    double tolerance;           /* the Frobenius tolerance it was held to   */
    int verified;               /* no non-finite, bad == 0, rel_fro <= tol  */
} gp_verify_result;

/* One C (m x n, leading dimension ldc) against R and M (m x n, dense).
 * `data`: the elements' type (FP32 or FP64); `kernel`: the precision the
 * kernel claims, which picks gamma and the tolerance (a TF32 kernel runs on
 * FP32 data).  mag NULL: no element bounds (Frobenius and non-finite only). */
typedef struct {
    gp_precision data, kernel;
    long m, n, k, ldc;
    const void *c, *ref, *mag;
} gp_verify_in;
gp_verify_result gp_verify_gemm(const gp_verify_in *in);

/* Host matrices (leading dimensions lda, ldb, ldc) for an independent check
 * of C against alpha*A*B + beta*C0 computed on the CPU in long double:
 * every element when m*n*k <= GP_CPU_FULL_MACS, else `samples` elements at
 * places drawn from `seed` (and the four corners).  For the references,
 * which cannot be checked against themselves. */
#define GP_CPU_FULL_MACS ((double)(1L << 27))
typedef struct {
    gp_precision data, kernel;
    long m, n, k, lda, ldb, ldc;
    double alpha, beta;
    const void *A, *B, *C0, *c;
    long samples;
    unsigned long long seed;
} gp_cpu_check_in;
gp_verify_result gp_verify_cpu(const gp_cpu_check_in *in);

/* The Frobenius comparison alone: n dense values, no element bounds; the
 * caller holds rel_fro to its own tolerance (`verified` assumes k = 1). */
gp_verify_result gp_verify(gp_precision p, const void *c, const void *ref, size_t n);
double gp_verify_tolerance(gp_precision p, long k);
double gp_verify_gamma(gp_precision p, long k);
double gp_verify_floor(gp_precision p);
/* The row's status for a verification of `elements` values at `beta`:
 * "ok"; "verify_failed: N non-finite elements", at beta = 0 with why (C was
 * NaN-poisoned: the kernel probably read C, or did not write elements that
 * still hold the poison); "verify_failed: C[i,j] = got want R (bound B);
 * N elements out of bound"; or "verify_failed: rel_err_fro E > tolerance
 * T".  One line, cut to len. */
void gp_verify_status(char *out, size_t len, const gp_verify_result *v,
                      int verified, double beta, size_t elements);

/* ---- guard bands and padding (guard.c) ---- */
#define GP_CANARY 0x5A          /* every byte; as float 1.5e16, as double 1.9e127 */
/* Offset of the first byte of p[0..bytes) that is not GP_CANARY, or -1. */
long gp_canary_find(const void *p, size_t bytes);
/* The first padding element (column >= width) of a rows x ld matrix of
 * `elt`-byte elements that is not all canary: 0 with *row, *col, or -1. */
int gp_canary_find_pad(const void *p, long rows, long width, long ld, size_t elt,
                       long *row, long *col);

/* ---- run files (output.c), shared by run, sweep and dist ---- */

/* --out FILE | DIR (an existing directory or one ending in '/'); NULL:
 * results/.  A directory gets a new run-<UTC time>.csv.  0, or -1 with a
 * one-line message. */
int gp_run_out_path(const char *out, char *path, size_t n, char *err, size_t errlen);

/* Host and GPU facts, seed, reps, warm-up, cache control (and the L2 scrub
 * that stands for it) and timing method. */
void gp_run_meta_base(gp_meta *m, const gp_gpu *g, int argc, char **argv,
                      unsigned long long seed, int reps, int warmup,
                      const char *cache_control, const gp_scrub *scrub);

/* ---- the plugin crash guard (plugin_guard.c) ---- */

/* A plugin launcher runs inside the harness, so a segfault in it ends the
 * process; CUDA cannot be used safely after a fork, and jumping out of a
 * signal handler could leave the runtime's locks held.  What the guard does
 * instead: while armed, a fatal signal (SIGSEGV, SIGBUS, SIGILL, SIGFPE,
 * SIGABRT) appends a failed row for the kernel to the run file `csv_path`
 * (every earlier row is already there: rows are flushed as they are
 * written, and the guard writes those still held: gp_plugin_guard_keep),
 * prints one line naming the kernel, and lets the process die of the same
 * signal. */
void gp_plugin_guard_arm(const char *csv_path, const gp_kernel *k, long m,
                         long n, long kk, double alpha, double beta);
/* While armed: rows not yet in the file (held for --energy) that a crash
 * writes before and after the crash row, in that order. */
void gp_plugin_guard_keep(const gp_row *before, int nbefore,
                          const gp_row *after, int nafter);
void gp_plugin_guard_disarm(void);

#endif
