/* test_controls.c - GPU: kernels that are wrong in ways a norm can miss
 * must fail verification, each with the status that says what it did.
 * Every control is cuBLAS (right) plus one small, exact mistake made with a
 * second cuBLAS call of k = 1: C[rows x cols] += delta * 1 (beta 1), or
 * delta written at one address (beta 0).  The mistakes: one element, one
 * 16 x 16 tile (both small enough that the Frobenius tolerance alone
 * passes them: asserted), a write one element past C, before C, into C's
 * padding, and a kernel that uses k for lda (n for ldb). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include <cuda_runtime_api.h>
#include "gpu_skip.h"
#include "registry/registry.h"
#include "run/run.h"

#define BIG 4096      /* the size: one wrong element passed rel_fro there */

static float *d_delta, *d_ones;     /* 16 x delta, 16 x 1.0 */

static int device_buffers(float delta)
{
    float h[32];
    for (int i = 0; i < 16; ++i) {
        h[i] = delta;
        h[16 + i] = 1;
    }
    if (!d_delta && cudaMalloc((void **)&d_delta, sizeof h))
        return -1;
    d_ones = d_delta + 16;
    return cudaMemcpy(d_delta, h, sizeof h, cudaMemcpyHostToDevice) ? -1 : 0;
}

static int cublas(const gemm_args *a, cudaStream_t s, gp_launch_info *i)
{
    return gp_registry_reference(GP_FP32)->launch(a, s, i);
}

/* c[rows x cols] (leading dimension ldc) = beta * c + delta */
static int add_delta(float *c, int ldc, int rows, int cols, double beta, cudaStream_t s)
{
    gemm_args g = {rows, cols, 1, 1.0, beta, d_delta, d_ones, c, 1, cols, ldc};
    return cublas(&g, s, NULL);
}

/* the mistake each launcher makes after the right answer */
static int one_element(const gemm_args *a, cudaStream_t s, gp_launch_info *i)
{
    int e = cublas(a, s, i);
    return e ? e : add_delta((float *)a->C + 12L * a->ldc + 345, a->ldc, 1, 1, 1.0, s);
}

static int one_tile(const gemm_args *a, cudaStream_t s, gp_launch_info *i)
{
    int e = cublas(a, s, i);
    return e ? e : add_delta((float *)a->C + 1024L * a->ldc + 2048, a->ldc, 16, 16, 1.0, s);
}

static int past_c(const gemm_args *a, cudaStream_t s, gp_launch_info *i)
{
    int e = cublas(a, s, i);
    return e ? e : add_delta((float *)a->C + (long)a->m * a->ldc, 1, 1, 1, 0.0, s);
}

static int before_c(const gemm_args *a, cudaStream_t s, gp_launch_info *i)
{
    int e = cublas(a, s, i);
    return e ? e : add_delta((float *)a->C - 1, 1, 1, 1, 0.0, s);
}

static int into_padding(const gemm_args *a, cudaStream_t s, gp_launch_info *i)
{
    int e = cublas(a, s, i);
    return e ? e : add_delta((float *)a->C + a->n, 1, 1, 1, 0.0, s);
}

static int ignores_lda(const gemm_args *a, cudaStream_t s, gp_launch_info *i)
{
    gemm_args b = *a;
    b.lda = b.k;
    return cublas(&b, s, i);
}

static int ignores_ldb(const gemm_args *a, cudaStream_t s, gp_launch_info *i)
{
    gemm_args b = *a;
    b.ldb = b.n;
    return cublas(&b, s, i);
}

/* One verified launch of `fn` on a fresh FP32 bench. */
static gp_row run(gp_launch_fn fn, long m, long n, long k, int pad)
{
    char err[512];
    gp_bench *b = gp_bench_create_pad(GP_FP32, m, n, k, 1.0, 0.0, 42, pad, err,
                                      sizeof err);
    if (!b)
        fail_msg("bench: %s", err);
    gp_kernel kern = {"control", GP_FP32, "", fn};
    gp_run_opts o = {.reps = 1, .warmup = 0};
    gp_row r;
    int rc = gp_bench_run(b, &kern, &o, &r);
    gp_bench_destroy(b);
    print_message("status: %s (rel_err_fro %.3g, tolerance %.3g)\n", r.status,
                  r.rel_err_fro, r.tolerance);
    if (rc < 0)
        fail_msg("CUDA error: %s", r.status);
    assert_int_equal(rc, r.verified ? 0 : 1);
    return r;
}

static void starts_ends(const char *s, const char *head, const char *tail)
{
    size_t ls = strlen(s), lt = strlen(tail);
    if (strncmp(s, head, strlen(head)) != 0 || ls < lt || strcmp(s + ls - lt, tail) != 0)
        fail_msg("status '%s' is not '%s...%s'", s, head, tail);
}

/* The case: off by 5 at 4096^3 was rel_fro 5.7e-5 against a
 * tolerance of 6.1e-5, and passed. */
static void one_element_wrong(void **state)
{
    (void)state;
    GP_REQUIRE_GPU();
    assert_int_equal(device_buffers(5.0f), 0);
    gp_row r = run(one_element, BIG, BIG, BIG, 0);
    assert_int_equal(r.verified, 0);
    assert_true(r.rel_err_fro <= r.tolerance);     /* the norm alone passes it */
    starts_ends(r.status, "verify_failed: C[12,345] = ", "; 1 element out of bound");
}

static void one_tile_wrong(void **state)
{
    (void)state;
    GP_REQUIRE_GPU();
    assert_int_equal(device_buffers(0.2f), 0);
    gp_row r = run(one_tile, BIG, BIG, BIG, 0);
    assert_int_equal(r.verified, 0);
    assert_true(r.rel_err_fro <= r.tolerance);     /* the norm alone passes it */
    starts_ends(r.status, "verify_failed: C[10", "; 256 elements out of bound");
    long row = -1, col = -1;
    assert_int_equal(sscanf(r.status, "verify_failed: C[%ld,%ld]", &row, &col), 2);
    assert_true(row >= 1024 && row < 1040 && col >= 2048 && col < 2064);
}

static void write_past_c(void **state)
{
    (void)state;
    GP_REQUIRE_GPU();
    assert_int_equal(device_buffers(0.5f), 0);
    gp_row r = run(past_c, 255, 257, 129, 0);
    assert_int_equal(r.verified, 0);
    assert_string_equal(r.status, "verify_failed: wrote past the end of C: its guard "
                                  "band changed 0 bytes past its last element");
    r = run(past_c, 255, 257, 129, 3);            /* padded: past the last row */
    assert_string_equal(r.status, "verify_failed: wrote past the end of C: its guard "
                                  "band changed 0 bytes past its last element");
}

static void write_before_c(void **state)
{
    (void)state;
    GP_REQUIRE_GPU();
    assert_int_equal(device_buffers(0.5f), 0);
    gp_row r = run(before_c, 255, 257, 129, 0);
    assert_int_equal(r.verified, 0);
    assert_string_equal(r.status, "verify_failed: wrote before C: its guard band "
                                  "changed 4 bytes before C[0,0]");
}

/* ldc = 1004 for n = 1000, pad 1 (rounded up to 16 bytes) */
static void write_into_padding(void **state)
{
    (void)state;
    GP_REQUIRE_GPU();
    assert_int_equal(device_buffers(0.5f), 0);
    gp_row r = run(into_padding, 255, 1000, 129, 1);
    assert_int_equal(r.verified, 0);
    assert_string_equal(r.status, "verify_failed: wrote C's padding: C[0,1000] with "
                                  "n = 1000, ldc = 1004");
}

/* Right when lda = k (no padding): the padding is what exposes it. */
static void kernel_ignoring_ld_fails(void **state)
{
    (void)state;
    GP_REQUIRE_GPU();
    gp_launch_fn fn[] = {ignores_lda, ignores_ldb};
    for (int i = 0; i < 2; ++i) {
        gp_row r = run(fn[i], 255, 257, 129, 0);
        assert_int_equal(r.verified, 1);
        r = run(fn[i], 255, 257, 129, 4);
        assert_int_equal(r.verified, 0);
        starts_ends(r.status, "verify_failed: C[", " elements out of bound");
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(one_element_wrong),
        cmocka_unit_test(one_tile_wrong),
        cmocka_unit_test(write_past_c),
        cmocka_unit_test(write_before_c),
        cmocka_unit_test(write_into_padding),
        cmocka_unit_test(kernel_ignoring_ld_fails),
    };
    int rc = cmocka_run_group_tests_name("controls", tests, NULL, NULL);
    if (d_delta)
        cudaFree(d_delta);
    return rc;
}
