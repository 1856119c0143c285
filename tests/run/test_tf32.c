/* test_tf32.c - TF32 kernels: verified against the exact FP32 product with
 * the TF32 tolerance (the kernel's precision, not the bench's), ranked
 * against cublas_tf32, reported as precision tf32.
 * CPU: tolerances against an emulated TF32 GEMM (rounded and truncated
 * operands), reference selection, ladder order, row identity, the wgmma
 * launchers' refusal off sm_90 (on sm_90: they verify on each path).  GPU: the runner accepts a TF32 kernel
 * that is more exact than TF32, rejects garbage, and applies FP32's
 * tolerance to the same TF32 result labelled fp32. */
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

/* ---- CPU: an FP32 GEMM whose products see TF32 operands ---- */

/* FP32 -> TF32 (10 explicit mantissa bits): round to nearest, ties away
 * (cvt.rna), or truncate (what the tensor core does with raw FP32 bits). */
static float to_tf32(float x, int round)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    if (round)
        u += 0x1000u;
    u &= 0xffffe000u;
    memcpy(&x, &u, sizeof u);
    return x;
}

static float uniform(unsigned *s)
{
    *s = *s * 1664525u + 1013904223u;
    return (float)(*s >> 8) / 16777216.0f * 2.0f - 1.0f;
}

/* c (m x n) from A (m x k) and B (k x n): mode 0 exact FP32 inputs, 1 TF32
 * rounded, 2 TF32 truncated; sums in double then stored as float. */
static void gemm_cpu(int m, int n, int k, const float *A, const float *B,
                     float *c, int mode)
{
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
            double acc = 0;
            for (int p = 0; p < k; ++p) {
                float a = A[i * k + p], b = B[p * n + j];
                if (mode)
                    a = to_tf32(a, mode == 1), b = to_tf32(b, mode == 1);
                acc += (double)a * b;
            }
            c[i * n + j] = (float)acc;
        }
}

static double tf32_error(int k, int mode, unsigned seed)
{
    enum { M = 48, N = 40 };
    float *A = malloc(sizeof(float) * M * k), *B = malloc(sizeof(float) * k * N);
    float ref[M * N], got[M * N];
    for (int i = 0; i < M * k; ++i)
        A[i] = uniform(&seed);
    for (int i = 0; i < k * N; ++i)
        B[i] = uniform(&seed);
    gemm_cpu(M, N, k, A, B, ref, 0);
    gemm_cpu(M, N, k, A, B, got, mode);
    free(A);
    free(B);
    gp_verify_result v = gp_verify(GP_TF32, got, ref, M * N);
    assert_int_equal(v.nonfinite, 0);
    return v.rel_fro;
}

/* Real TF32 error (rounded ~3e-4, truncated ~1e-3, about flat in k) passes
 * the TF32 tolerance with room and fails FP32's at every k tested. */
static void tf32_tolerance_accepts_tf32_error_fp32_does_not(void **state)
{
    (void)state;
    static const int ks[] = {1, 7, 64, 1000, 4096};
    for (size_t i = 0; i < sizeof ks / sizeof ks[0]; ++i)
        for (int mode = 1; mode <= 2; ++mode) {
            int k = ks[i];
            double e = tf32_error(k, mode, 11u + (unsigned)k);
            double t32 = gp_verify_tolerance(GP_TF32, k);
            double f32 = gp_verify_tolerance(GP_FP32, k);
            if (!(e <= t32 / 3))
                fail_msg("k=%d %s: TF32 error %.3g not well inside the TF32 "
                         "tolerance %.3g", k, mode == 1 ? "rounded" : "truncated",
                         e, t32);
            if (!(e > f32))
                fail_msg("k=%d %s: TF32 error %.3g passes the FP32 tolerance "
                         "%.3g", k, mode == 1 ? "rounded" : "truncated", e, f32);
        }
}

/* A 1% error (garbage by TF32 standards) fails at every k. */
static void tf32_tolerance_rejects_percent_error(void **state)
{
    (void)state;
    static const long ks[] = {1, 1000, 1 << 20};
    float ref[64], got[64];
    unsigned s = 3;
    for (int i = 0; i < 64; ++i) {
        ref[i] = uniform(&s);
        got[i] = ref[i] * 1.01f;
    }
    gp_verify_result v = gp_verify(GP_TF32, got, ref, 64);
    for (size_t i = 0; i < sizeof ks / sizeof ks[0]; ++i)
        if (!(v.rel_fro > gp_verify_tolerance(GP_TF32, ks[i])))
            fail_msg("k=%ld: 1%% error passes the TF32 tolerance", ks[i]);
    assert_true(gp_verify_tolerance(GP_FP32, 4096) < gp_verify_tolerance(GP_TF32, 4096));
}

/* TF32 kernels are verified on the FP32 bench (float data, the FP32
 * reference) and ranked against cublas_tf32. */
static void references_per_precision(void **state)
{
    (void)state;
    const gp_kernel *f = gp_registry_reference(GP_FP32);
    const gp_kernel *t = gp_registry_reference(GP_TF32);
    assert_non_null(f);
    assert_non_null(t);
    assert_string_equal(f->name, "cublas");
    assert_int_equal(f->precision, GP_FP32);
    assert_string_equal(t->name, "cublas_tf32");
    assert_int_equal(t->precision, GP_TF32);
    assert_string_equal(gp_precision_name(GP_TF32), "tf32");
    assert_int_equal(gp_precision_bytes(GP_TF32), gp_precision_bytes(GP_FP32));
}

/* tf32 rungs right before cublas, cublas_tf32 right after it. */
static void tf32_rungs_sit_around_cublas(void **state)
{
    (void)state;
    static const char *const rungs[] = {"tf32_mma", "tf32_wgmma", "tf32_wgmma_rs",
                                         "tf32_wgmma_mc", "tf32_wgmma_persist"};
    const int nr = (int)(sizeof rungs / sizeof rungs[0]);
    int i = -1;
    for (int j = 0; j < gp_registry_count(); ++j)
        if (strcmp(gp_registry_get(j)->name, "cublas") == 0)
            i = j;
    assert_true(i >= nr);
    for (int r = 0; r < nr; ++r) {
        assert_string_equal(gp_registry_get(i - nr + r)->name, rungs[r]);
        assert_int_equal(gp_registry_get(i - nr + r)->precision, GP_TF32);
    }
    assert_string_equal(gp_registry_get(i + 1)->name, "cublas_tf32");
}

static void tf32_rows_say_tf32(void **state)
{
    (void)state;
    gp_row r;
    gp_row_identify(&r, gp_registry_find("tf32_mma"), 33, 31, 129, 1.0, 0.0);
    assert_string_equal(r.precision, "tf32");
    assert_string_equal(r.kernel, "tf32_mma");
}

static int is_sm90_present(void)
{
    int dev = 0, major = 0, minor = 0;
    if (gp_gpu_count() == 0 || cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) ||
        cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev))
        return 0;
    return major == 9 && minor == 0;
}

static gp_bench *bench(void);
static int run(gp_bench *b, const gp_kernel *k, gp_row *r);

/* The sm_90a rungs on an sm_90 GPU run and verify at shapes that take
 * each of their paths: 16-byte strides (TMA) with ragged tiles in m, n and
 * k, and strides TMA cannot use (tf32_wgmma: a padded copy of A;
 * tf32_wgmma_rs: the cp.async producer).  Anywhere else the sm_90a-only
 * launcher returns an error and launches nothing (all pointers NULL). */
static void wgmma_rungs_run_on_sm90_refuse_elsewhere(void **state)
{
    (void)state;
    static const char *const names[] = {"tf32_wgmma", "tf32_wgmma_rs", "tf32_wgmma_mc",
                                        "tf32_wgmma_persist"};
    static const struct {
        long m, n, k;
        double alpha, beta;
    } shapes[] = {
        {257, 388, 1028, 1.0, 0.0},  /* lda, ldb multiples of 4: TMA, edges in m, n, k */
        {300, 260, 36, 1.0, 0.0},    /* one k tile and a ragged second */
        {257, 255, 1024, 1.0, 0.0},  /* ldb odd: no TMA for B */
        {33, 31, 129, 1.0, 0.0},     /* nothing aligned */
        /* TMA with more tiles (17 x 17) than an H100 holds blocks (132):
         * persistent blocks take 2-3 tiles each, and the odd tile column
         * puts a cluster's second tile past n; C read back (beta) */
        {4100, 2052, 36, -1.5, 0.5},
    };
    const char *req = getenv("GEMMPROF_REQUIRE_GPU");
    if (gp_gpu_count() == 0 && req && strcmp(req, "1") == 0)
        fail_msg("no GPU but GEMMPROF_REQUIRE_GPU=1");
    for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i) {
        const gp_kernel *k = gp_registry_find(names[i]);
        assert_non_null(k);
        if (!is_sm90_present()) {
            gemm_args a = {64, 64, 64, 1.0, 0.0, NULL, NULL, NULL, 64, 64, 64};
            assert_int_equal(k->launch(&a, 0, NULL), (int)cudaErrorNoKernelImageForDevice);
            continue;
        }
        for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s) {
            char err[512];
            gp_bench *b = gp_bench_create(GP_FP32, shapes[s].m, shapes[s].n, shapes[s].k,
                                          shapes[s].alpha, shapes[s].beta, 5, err,
                                          sizeof err);
            if (!b)
                fail_msg("bench: %s", err);
            gp_row r;
            int rc = run(b, k, &r);
            gp_bench_destroy(b);
            if (rc != 0)
                fail_msg("%s at %ldx%ldx%ld on sm_90: rc %d %s (err %g, tol %g)",
                         names[i], shapes[s].m, shapes[s].n, shapes[s].k, rc, r.status,
                         r.rel_err_fro, r.tolerance);
        }
    }
}

/* ---- GPU: the runner picks the tolerance by the kernel's precision ---- */

static int fp32_exact(const gemm_args *a, cudaStream_t s, gp_launch_info *i)
{
    return gp_registry_reference(GP_FP32)->launch(a, s, i);
}

static int tf32_products(const gemm_args *a, cudaStream_t s, gp_launch_info *i)
{
    return gp_registry_reference(GP_TF32)->launch(a, s, i);
}

static int one_percent_off(const gemm_args *a, cudaStream_t s, gp_launch_info *i)
{
    gemm_args b = *a;
    b.alpha *= 1.01;
    return gp_registry_reference(GP_TF32)->launch(&b, s, i);
}

static int writes_nothing(const gemm_args *a, cudaStream_t s, gp_launch_info *i)
{
    (void)a; (void)s; (void)i;
    return 0;
}

static gp_bench *bench(void)
{
    char err[512];
    gp_bench *b = gp_bench_create(GP_FP32, 257, 255, 1024, 1.0, 0.0, 5, err,
                                  sizeof err);
    if (!b)
        fail_msg("bench: %s", err);
    return b;
}

static int run(gp_bench *b, const gp_kernel *k, gp_row *r)
{
    gp_run_opts o = {.reps = 1, .warmup = 0};
    return gp_bench_run(b, k, &o, r);
}

/* A "TF32" kernel that does better than TF32 (exact FP32, no truncation)
 * must pass: the TF32 tolerance is an upper bound, not a target. */
static void exact_kernel_labelled_tf32_is_accepted(void **state)
{
    (void)state;
    GP_REQUIRE_GPU();
    gp_kernel k = {"fp32_exact_as_tf32", GP_TF32, "", fp32_exact};
    gp_bench *b = bench();
    gp_row r;
    int rc = run(b, &k, &r);
    gp_bench_destroy(b);
    if (rc != 0)
        fail_msg("rc %d: %s (err %g, tol %g)", rc, r.status, r.rel_err_fro, r.tolerance);
    assert_string_equal(r.precision, "tf32");
    assert_true(r.tolerance == gp_verify_tolerance(GP_TF32, 1024));
}

/* cuBLAS with TF32 tensor cores passes as tf32 with an error too big for
 * FP32 (so TF32 really ran), and the same launcher labelled fp32 fails:
 * the tolerance follows the kernel's precision. */
static void tf32_result_passes_as_tf32_fails_as_fp32(void **state)
{
    (void)state;
    GP_REQUIRE_GPU();
    gp_kernel as_tf32 = {"tf32", GP_TF32, "", tf32_products};
    gp_kernel as_fp32 = {"tf32_as_fp32", GP_FP32, "", tf32_products};
    gp_bench *b = bench();
    gp_row r1, r2;
    int rc1 = run(b, &as_tf32, &r1), rc2 = run(b, &as_fp32, &r2);
    gp_bench_destroy(b);
    if (rc1 != 0)
        fail_msg("cublas_tf32 as tf32: rc %d %s (err %g, tol %g)", rc1,
                 r1.status, r1.rel_err_fro, r1.tolerance);
    const char *ov = getenv("NVIDIA_TF32_OVERRIDE");
    if (ov && strcmp(ov, "0") == 0)
        return; /* TF32 disabled: cuBLAS computed exact FP32 */
    if (!(r1.rel_err_fro > gp_verify_tolerance(GP_FP32, 1024)))
        fail_msg("cublas_tf32 error %g is FP32-sized: TF32 not in use", r1.rel_err_fro);
    if (rc2 != 1 || r2.verified)
        fail_msg("TF32 result labelled fp32 passed (rc %d, err %g, tol %g)",
                 rc2, r2.rel_err_fro, r2.tolerance);
}

static void garbage_tf32_kernels_fail(void **state)
{
    (void)state;
    GP_REQUIRE_GPU();
    const gp_kernel bad[] = {
        {"tf32_off_by_1pct", GP_TF32, "", one_percent_off},
        {"tf32_writes_nothing", GP_TF32, "", writes_nothing},
    };
    gp_bench *b = bench();
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        gp_row r;
        int rc = run(b, &bad[i], &r);
        if (rc != 1 || r.verified)
            fail_msg("%s passed verification (rc %d, err %g, tol %g)",
                     bad[i].name, rc, r.rel_err_fro, r.tolerance);
    }
    gp_bench_destroy(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tf32_tolerance_accepts_tf32_error_fp32_does_not),
        cmocka_unit_test(tf32_tolerance_rejects_percent_error),
        cmocka_unit_test(references_per_precision),
        cmocka_unit_test(tf32_rungs_sit_around_cublas),
        cmocka_unit_test(tf32_rows_say_tf32),
        cmocka_unit_test(wgmma_rungs_run_on_sm90_refuse_elsewhere),
        cmocka_unit_test(exact_kernel_labelled_tf32_is_accepted),
        cmocka_unit_test(tf32_result_passes_as_tf32_fails_as_fp32),
        cmocka_unit_test(garbage_tf32_kernels_fail),
    };
    return cmocka_run_group_tests_name("tf32", tests, NULL, NULL);
}
