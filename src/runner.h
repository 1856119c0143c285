/* runner.h - the one way to run a kernel: launch -> verify -> time ->
 * (optionally) profile.  Written once, used by every kernel, the CLI, the
 * sweeps and the GPU tests. */
#ifndef GP_RUNNER_H
#define GP_RUNNER_H

#include <stddef.h>
#include "gemmprof.h"
#include "profiler.h"
#include "row.h"

typedef struct {
    int reps, warmup;
    int flush_l2;               /* scrub L2 before every timed launch */
    gp_profiler *prof;          /* NULL: no counters                  */
} gp_run_opts;

/* Device buffers for one shape and precision: A, B, C0 (initial C), C (the
 * kernel's output), R (the cuBLAS reference result), host copies. */
typedef struct gp_bench gp_bench;

/* Bytes of device memory a bench of this shape needs (all buffers). */
size_t gp_bench_bytes(gp_precision p, long m, long n, long k);

/* Allocate, fill A, B, C0 with uniform random values in [-1, 1) from
 * `seed`, and compute the reference with cuBLAS.  NULL with a one-line
 * message (e.g. "4096x4096x4096 fp64 needs 1.2 GiB, 0.3 GiB free"). */
gp_bench *gp_bench_create(gp_precision p, long m, long n, long k,
                          double alpha, double beta, unsigned long long seed,
                          char *err, size_t errlen);
void gp_bench_destroy(gp_bench *b);

/* Run `k` on the bench: one verified launch, warm-up, timed reps, static
 * facts, counters if o->prof.  Always fills `r` (status says what failed).
 * Returns 0 if the row verified, 1 if it ran but failed verification,
 * -1 on a CUDA error (the context may be unusable after a sticky error:
 * see r->status). */
int gp_bench_run(gp_bench *b, const gp_kernel *k, const gp_run_opts *o,
                 gp_row *r);

/* A row that names kernel `k` at this shape, every measurement NA: the start
 * of every row, measured or not (runner, rows for kernels that could not
 * run, the plugin crash row). */
void gp_row_identify(gp_row *r, const gp_kernel *k, long m, long n, long kk,
                     double alpha, double beta);

/* Verification: relative Frobenius error of `c` against `ref` (n values),
 * any non-finite value in c fails.  Tolerance scales with k. */
typedef struct { double rel_fro, max_rel; long nonfinite; } gp_verify_result;
gp_verify_result gp_verify(gp_precision p, const void *c, const void *ref, size_t n);
double gp_verify_tolerance(gp_precision p, long k);

#endif
