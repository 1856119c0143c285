/* test_reference.c - GPU: the references checked by something other than
 * themselves.  cuBLAS FP32 and FP64 against the CPU's long-double product
 * (gp_verify_cpu: every element at small shapes, the corners and 4096
 * places at large ones) at odd, rectangular, padded and large shapes, and
 * the same check failing a cuBLAS that is slightly off.  Then the ladder's
 * own `cublas` and `cublas_fp64` rows, whose verdict now comes from that
 * CPU check (runner: gp_bench_judge): their error against it is not zero,
 * as it was when they were compared with themselves. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime_api.h>
#include "gpu_skip.h"
#include "registry/registry.h"
#include "run/run.h"

typedef struct {
    long m, n, k, pad;
} shape;

static const shape shapes[] = {
    {1, 1, 1, 0}, {31, 33, 127, 0}, {127, 1, 1023, 3}, {1000, 37, 129, 0},
    {3, 2049, 65, 1}, {513, 1, 1031, 0}, {200, 301, 65, 5},
    {2049, 3001, 1537, 0},           /* odd and large: sampled */
    {4096, 4096, 4096, 4},           /* large, padded: sampled */
};

static unsigned long long rng = 2463534242ull;
static double uniform(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0 * 2 - 1;
}

static void fill(void *p, size_t n, int dbl)
{
    for (size_t i = 0; i < n; ++i) {
        if (dbl)
            ((double *)p)[i] = uniform();
        else
            ((float *)p)[i] = (float)uniform();
    }
}

/* cuBLAS of precision p at shape s (alpha 0.75, beta -0.5, scaled by
 * `skew` to make it wrong) against the CPU: the verdict. */
static gp_verify_result check(gp_precision p, const shape *s, double skew)
{
    size_t e = gp_precision_bytes(p);
    long lda = s->k + s->pad, ldb = s->n + s->pad, ldc = s->n + s->pad;
    size_t sa = (size_t)s->m * lda, sb = (size_t)s->k * ldb, sc = (size_t)s->m * ldc;
    char *h = malloc(e * (sa + sb + 2 * sc));
    assert_non_null(h);
    char *A = h, *B = A + e * sa, *C0 = B + e * sb, *got = C0 + e * sc;
    fill(h, sa + sb + sc, p == GP_FP64);
    void *d;
    assert_int_equal(cudaMalloc(&d, e * (sa + sb + sc)), 0);
    char *dA = d, *dB = dA + e * sa, *dC = dB + e * sb;
    assert_int_equal(cudaMemcpy(d, h, e * (sa + sb + sc), cudaMemcpyHostToDevice), 0);
    gemm_args a = {(int)s->m, (int)s->n, (int)s->k, 0.75 * skew, -0.5, dA, dB, dC,
                   (int)lda, (int)ldb, (int)ldc};
    assert_int_equal(gp_registry_reference(p)->launch(&a, 0, NULL), 0);
    assert_int_equal(cudaMemcpy(got, dC, e * sc, cudaMemcpyDeviceToHost), 0);
    cudaFree(d);
    gp_cpu_check_in in = {p, p, s->m, s->n, s->k, lda, ldb, ldc, 0.75, -0.5,
                          A, B, C0, got, 4096, 99};
    gp_verify_result v = gp_verify_cpu(&in);
    free(h);
    return v;
}

static void cublas_matches_cpu(gp_precision p)
{
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; ++i) {
        const shape *s = &shapes[i];
        gp_verify_result v = check(p, s, 1.0);
        char st[192];
        gp_verify_status(st, sizeof st, &v, v.verified, -0.5, (size_t)s->m * s->n);
        print_message("%s %ldx%ldx%ld pad %ld: %ld elements checked, rel_err_fro "
                      "%.3g: %s\n", gp_precision_name(p), s->m, s->n, s->k, s->pad,
                      v.checked, v.rel_fro, st);
        if (!v.verified)
            fail_msg("cuBLAS %s %ldx%ldx%ld against the CPU: %s",
                     gp_precision_name(p), s->m, s->n, s->k, st);
    }
}

static void cublas_fp32_matches_cpu(void **state)
{
    (void)state;
    GP_REQUIRE_GPU();
    cublas_matches_cpu(GP_FP32);
}

static void cublas_fp64_matches_cpu(void **state)
{
    (void)state;
    GP_REQUIRE_GPU();
    cublas_matches_cpu(GP_FP64);
}

/* The check can fail: alpha off by 1e-3 (FP32) or 1e-9 (FP64). */
static void skewed_cublas_fails(void **state)
{
    (void)state;
    GP_REQUIRE_GPU();
    const shape s[] = {{200, 301, 65, 5}, {2049, 3001, 1537, 0}};
    for (int i = 0; i < 2; ++i) {
        assert_false(check(GP_FP32, &s[i], 1 + 1e-3).verified);
        assert_false(check(GP_FP64, &s[i], 1 + 1e-9).verified);
    }
}

/* The registry's references through the runner: verified by the CPU, so
 * their error is that of cuBLAS against the exact product, not 0. */
static void reference_rows_are_checked_by_the_cpu(void **state)
{
    (void)state;
    GP_REQUIRE_GPU();
    const shape s[] = {{127, 129, 1023, 0}, {2049, 1025, 1537, 3}};
    for (int p = 0; p < 2; ++p)
        for (int i = 0; i < 2; ++i) {
            gp_precision prec = p ? GP_FP64 : GP_FP32;
            char err[512];
            gp_bench *b = gp_bench_create_pad(prec, s[i].m, s[i].n, s[i].k, 1.0,
                                              0.5, 3, s[i].pad, err, sizeof err);
            if (!b)
                fail_msg("bench: %s", err);
            gp_run_opts o = {.reps = 1, .warmup = 0};
            gp_row r;
            int rc = gp_bench_run(b, gp_registry_reference(prec), &o, &r);
            gp_bench_destroy(b);
            print_message("%s %ldx%ldx%ld: %s, rel_err_fro %.3g\n", r.kernel,
                          s[i].m, s[i].n, s[i].k, r.status, r.rel_err_fro);
            assert_int_equal(rc, 0);
            assert_string_equal(r.status, "ok");
            assert_true(r.rel_err_fro > 0);     /* not compared with itself */
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cublas_fp32_matches_cpu),
        cmocka_unit_test(cublas_fp64_matches_cpu),
        cmocka_unit_test(skewed_cublas_fails),
        cmocka_unit_test(reference_rows_are_checked_by_the_cpu),
    };
    return cmocka_run_group_tests_name("reference", tests, NULL, NULL);
}
