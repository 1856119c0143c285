/* bench.h - the bench's insides, shared by bench.c (buffers, inputs,
 * references, guard checks) and runner.c (launch, verify, time).  Private
 * to the run folder: the rest of gemmprof sees gp_bench through run.h. */
#ifndef GP_RUN_BENCH_H
#define GP_RUN_BENCH_H

#include "run.h"

/* One matrix in device memory: GP_GUARD_BYTES of canary, rows x ld
 * elements (columns cols..ld-1 are padding), GP_GUARD_BYTES of canary. */
typedef struct {
    void *base;
    char *data;                 /* base + GP_GUARD_BYTES: what kernels get */
    long rows, cols, ld;
} gp_mat;

struct gp_bench {
    gp_precision prec;
    long m, n, k;
    double alpha, beta;
    size_t elt;
    unsigned long long seed;
    gp_mat A, B, C0, C, R;
    void *flush;                /* the L2 scrub's buffer */
    size_t flush_bytes;
    void *host_c;               /* m x ldc: C as the kernel left it, padding too */
    void *host_r, *host_m;      /* m x n: the reference R and the magnitude M */
};

/* The launch arguments of the bench with output `c` (b->C.data or b->R.data). */
gemm_args gp_bench_args(const gp_bench *b, void *c);
/* C as a launch expects it: NaN-poisoned when beta == 0 (C is write-only
 * then), C0 otherwise; only the m x n elements, never the padding. */
int gp_bench_prepare_c(gp_bench *b, cudaStream_t s);
/* Copy C back to host_c and judge it: element bounds against R and M, or,
 * when `k` is the bench's own reference, against the CPU's product (a
 * reference compared with itself proves nothing); then the guard bands
 * and C's padding.  Fills r's verification columns and status.  0, or a
 * CUDA error (r's status says what failed). */
int gp_bench_judge(gp_bench *b, const gp_kernel *k, gp_row *r);

#endif
