/* test_ladder.c - GPU: every registered kernel is right at awkward sizes,
 * and with padded leading dimensions.  Each case goes through the real
 * runner (poisoned C, every element checked against its bound from cuBLAS,
 * guard bands and C's padding checked; the cuBLAS rows themselves against
 * the CPU's product), and deliberately broken kernels must FAIL
 * verification (more in test_controls.c; cuBLAS itself against the CPU's
 * product in test_reference.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime_api.h>
#include "gpu_skip.h"
#include "registry/registry.h"
#include "run/run.h"

typedef struct {
    const gp_kernel *k;
    long m, n, k_;
    double alpha, beta;
    int pad;                    /* gp_bench_create_pad: lda > k, ldb, ldc > n */
    char name[112];
} ladder_case;

static const long square[] = {1, 31, 33, 127, 1023, 1025, 2049};
static const long rect[][3] = {
    {1000, 37, 129}, {37, 1000, 1}, {129, 33, 2040}, {3, 2049, 65}, {513, 1, 1031},
};
static const double ab[][2] = {{-1.5, 0.5}, {0.0, 1.0}, {2.0, -1.0}};
/* odd rectangular shapes with padded leading dimensions (m, n, k, pad,
 * alpha, beta): a kernel that uses k for lda, n for ldb or ldc, or writes
 * C's padding, fails; padded rows stay 16-byte aligned, so the vector and
 * TMA paths still run */
static const struct { long m, n, k; int pad; double alpha, beta; } padded[] = {
    {129, 67, 253, 1, 1.0, 0.0}, {257, 131, 515, 5, -1.5, 0.5},
};

static void run_case(void **state)
{
    const ladder_case *c = *state;
    GP_REQUIRE_GPU();
    char err[512];
    /* a kernel this GPU or build lacks the feature for is an empty kernel:
     * gemmprof skips it, so does its test (by name, with the reason) */
    if (!gp_registry_can_run(c->k, gp_current_cc(), gp_this_build(), NULL, 0,
                             err, sizeof err)) {
        print_message("SKIP reason: %s\n", err);
        skip();
    }
    gp_bench *b = gp_bench_create_pad(c->k->precision == GP_FP64 ? GP_FP64 : GP_FP32,
                                      c->m, c->n, c->k_, c->alpha, c->beta,
                                      (unsigned long long)(c->m * 7 + c->n * 3 + c->k_),
                                      c->pad, err, sizeof err);
    if (!b)
        fail_msg("bench: %s", err);
    gp_run_opts o = {.reps = 1, .warmup = 0};
    gp_row r;
    int rc = gp_bench_run(b, c->k, &o, &r);
    gp_bench_destroy(b);
    if (rc != 0)
        fail_msg("%s: %s (rel_err_fro %.3g, tolerance %.3g)", c->name, r.status,
                 r.rel_err_fro, r.tolerance);
    assert_int_equal(r.verified, 1);
    assert_true(r.time_ms > 0);
}

static int add_case(ladder_case *cs, int n, const gp_kernel *k, long m, long nn,
                    long kk, double alpha, double beta, int pad)
{
    ladder_case *c = &cs[n];
    *c = (ladder_case){k, m, nn, kk, alpha, beta, pad, ""};
    int w = snprintf(c->name, sizeof c->name, "ladder/%s/%ldx%ldx%ld/alpha=%g,beta=%g",
                     k->name, m, nn, kk, alpha, beta);
    if (pad && w > 0 && (size_t)w < sizeof c->name)
        snprintf(c->name + w, sizeof c->name - (size_t)w, "/pad=%d", pad);
    return n + 1;
}

/* ---- the harness can fail: broken kernels must not verify ---- */

static int writes_nothing(const gemm_args *a, cudaStream_t s, gp_launch_info *i)
{
    (void)a; (void)s; (void)i;
    return 0;
}

static int off_by_a_little(const gemm_args *a, cudaStream_t s, gp_launch_info *i)
{
    gemm_args b = *a;
    b.alpha *= 1.0 + 1e-3;        /* TF32-sized error: must fail FP32 */
    return gp_registry_reference(GP_FP32)->launch(&b, s, i);
}

static int reads_c_when_beta_is_zero(const gemm_args *a, cudaStream_t s,
                                     gp_launch_info *i)
{
    gemm_args b = *a;
    b.beta = 1e-30;               /* reads the NaN poison */
    return gp_registry_reference(GP_FP32)->launch(&b, s, i);
}

static void broken_kernel_fails(void **state)
{
    GP_REQUIRE_GPU();
    const gp_kernel bad[] = {
        {"writes_nothing", GP_FP32, "", writes_nothing},
        {"off_by_1e-3", GP_FP32, "", off_by_a_little},
        {"reads_c", GP_FP32, "", reads_c_when_beta_is_zero},
    };
    (void)state;
    char err[256];
    gp_bench *b = gp_bench_create(GP_FP32, 255, 257, 129, 1.0, 0.0, 42, err, sizeof err);
    if (!b)
        fail_msg("bench: %s", err);
    gp_run_opts o = {.reps = 1, .warmup = 0};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        gp_row r;
        int rc = gp_bench_run(b, &bad[i], &o, &r);
        if (rc != 1 || r.verified != 0)
            fail_msg("%s passed verification (rc %d, err %g)", bad[i].name, rc,
                     r.rel_err_fro);
        /* every element NaN: the status says the kernel read the poison */
        if (!strcmp(bad[i].name, "reads_c") &&
            strcmp(r.status, "verify_failed: 65535 non-finite elements (all); C was "
                   "NaN-poisoned because BLAS treats C as write-only at beta = 0, "
                   "so the kernel probably read C") != 0)
            fail_msg("reads_c: status '%s'", r.status);
        if (!strcmp(bad[i].name, "writes_nothing") &&
            !strstr(r.status, "(all); C was NaN-poisoned because BLAS treats C as "
                    "write-only at beta = 0, and they still hold the poison, so the "
                    "kernel did not write them"))
            fail_msg("writes_nothing: status '%s'", r.status);
    }
    gp_bench_destroy(b);
}

int main(void)
{
    int nk = gp_registry_count(), n = 0, cap = 4096;
    ladder_case *cs = calloc(cap, sizeof *cs);
    struct CMUnitTest *t = calloc(cap + 1, sizeof *t);
    for (int i = 0; i < nk; ++i) {
        const gp_kernel *k = gp_registry_get(i);
        for (size_t s = 0; s < sizeof square / sizeof *square; ++s)
            n = add_case(cs, n, k, square[s], square[s], square[s], 1.0, 0.0, 0);
        for (size_t s = 0; s < sizeof rect / sizeof *rect; ++s)
            n = add_case(cs, n, k, rect[s][0], rect[s][1], rect[s][2], 1.0, 0.0, 0);
        for (size_t s = 0; s < sizeof ab / sizeof *ab; ++s)
            n = add_case(cs, n, k, 129, 67, 253, ab[s][0], ab[s][1], 0);
        for (size_t s = 0; s < sizeof padded / sizeof *padded; ++s)
            n = add_case(cs, n, k, padded[s].m, padded[s].n, padded[s].k,
                         padded[s].alpha, padded[s].beta, padded[s].pad);
    }
    for (int i = 0; i < n; ++i)
        t[i] = (struct CMUnitTest){cs[i].name, run_case, NULL, NULL, &cs[i]};
    t[n++] = (struct CMUnitTest){"harness/broken_kernels_fail_verification",
                                 broken_kernel_fails, NULL, NULL, NULL};
    return _cmocka_run_group_tests("ladder", t, (size_t)n, NULL, NULL);
}
