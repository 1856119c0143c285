/* test_verify.c - verification without a GPU: the comparison (gp_verify,
 * gp_verify_gemm's element bounds, gp_verify_cpu's own product) on host
 * arrays, the canary search, and the one-line status a row gets
 * (gp_verify_status): the worst element named, and the message that tells
 * a user whose kernel reads C at beta = 0 why every element is NaN.  The
 * GPU side (broken kernels through the runner, a C-reading plugin) is in
 * test_controls.c, test_ladder.c and plugin_gpu.sh. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/run.h"

#define N 6

static const float ref[N] = {1, -2, 3, 0.5f, -0.25f, 4};

/* C as a kernel left it: `poison` elements still all-ones bytes (never
 * written), `computed` elements a NaN from arithmetic (C was read). */
static void fill(float *c, int poison, int computed)
{
    memcpy(c, ref, sizeof ref);
    for (int i = 0; i < poison; i++)
        memset(&c[i], 0xFF, sizeof c[i]);
    for (int i = poison; i < poison + computed; i++)
        c[i] = NAN;
}

static void poison_and_computed_nans_are_told_apart(void **state)
{
    (void)state;
    float c[N];
    fill(c, 2, 3);
    gp_verify_result v = gp_verify(GP_FP32, c, ref, N);
    assert_int_equal(v.nonfinite, 5);
    assert_int_equal(v.poison, 2);
    assert_true(isnan(v.rel_fro));            /* NaN never passes */
    double d[2];
    memset(d, 0xFF, sizeof d);
    double dref[2] = {1, 2};
    v = gp_verify(GP_FP64, d, dref, 2);
    assert_int_equal(v.nonfinite, 2);
    assert_int_equal(v.poison, 2);
}

static const char *status(int poison, int computed, double beta)
{
    static char s[192];
    float c[N];
    fill(c, poison, computed);
    gp_verify_result v = gp_verify(GP_FP32, c, ref, N);
    int ok = v.nonfinite == 0 && v.rel_fro <= gp_verify_tolerance(GP_FP32, 64);
    gp_verify_status(s, sizeof s, &v, ok, beta, N);
    assert_null(strchr(s, '\n'));             /* one line */
    return s;
}

/* The case: a C-reading kernel at beta = 0, every element NaN. */
static void kernel_that_reads_c_is_named(void **state)
{
    (void)state;
    assert_string_equal(status(0, N, 0.0),
        "verify_failed: 6 non-finite elements (all); C was NaN-poisoned because "
        "BLAS treats C as write-only at beta = 0, so the kernel probably read C");
    assert_string_equal(status(1, 2, 0.0),   /* some computed: read C somewhere */
        "verify_failed: 3 non-finite elements; C was NaN-poisoned because BLAS "
        "treats C as write-only at beta = 0, so the kernel probably read C");
}

static void elements_never_written_are_named(void **state)
{
    (void)state;
    assert_string_equal(status(N, 0, 0.0),
        "verify_failed: 6 non-finite elements (all); C was NaN-poisoned because "
        "BLAS treats C as write-only at beta = 0, and they still hold the poison, "
        "so the kernel did not write them");
    assert_non_null(strstr(status(2, 0, 0.0), "2 non-finite elements; C was "
                           "NaN-poisoned"));
}

/* At beta != 0 C starts finite: the NaN is the kernel's own, no story. */
static void beta_nonzero_and_finite_cases(void **state)
{
    (void)state;
    assert_string_equal(status(0, 2, 0.5), "verify_failed: 2 non-finite elements");
    assert_string_equal(status(0, 0, 0.0), "ok");
    gp_verify_result v = {.rel_fro = 1e-2, .max_rel = 1e-2};
    char s[64];
    gp_verify_status(s, sizeof s, &v, 0, 0.0, N);
    assert_string_equal(s, "verify_failed");
    gp_verify_status(s, 20, &v, 0, 0.0, N);  /* cut to the buffer, terminated */
    assert_string_equal(s, "verify_failed");
    v.nonfinite = v.poison = N;
    gp_verify_status(s, 24, &v, 0, 0.0, N);
    assert_int_equal(strlen(s), 23);
}

/* The status holds commas and semicolons: the run file quotes it and
 * reads it back whole. */
static void status_survives_the_run_file(void **state)
{
    (void)state;
    gp_row r;
    gp_row_init(&r);
    snprintf(r.kernel, sizeof r.kernel, "warptiling_sgemm");
    r.m = r.n = r.k = 4096;
    snprintf(r.status, sizeof r.status, "%s", status(0, N, 0.0));
    char path[] = "/tmp/gp-test-verify-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    gp_csv_write_header(f);
    gp_csv_write_row_to(f, &r);
    fclose(f);
    gp_run_file rf;
    char err[256];
    assert_int_equal(gp_csv_read(path, &rf, err, sizeof err), 0);
    remove(path);
    assert_int_equal(rf.nrows, 1);
    assert_string_equal(rf.rows[0].status, r.status);
    gp_run_file_free(&rf);
}


/* ---- element bounds ---- */

static unsigned long long rng = 88172645463325252ull;
static double uniform(void)            /* [-1, 1), xorshift64 */
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0 * 2 - 1;
}

/* x with its mantissa rounded to TF32's 10 bits (nearest, ties away) */
static float tf32(float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    u = (u + 0x1000u) & 0xFFFFE000u;
    memcpy(&x, &u, sizeof x);
    return x;
}

#define DM 16
#define DN 16
#define DK 1024

/* Real rounding against the bounds: 256 dot products of length 1024
 * summed in float one product at a time (the worst usual order), with
 * FP32 inputs and with TF32-rounded inputs, against their long-double
 * values.  FP32 passes with a wide margin; TF32 passes as TF32 and fails
 * as FP32 (its error is everywhere: the Frobenius check alone catches it;
 * at this k its tail elements also leave their FP32 bounds). */
static void bounds_hold_real_rounding(void **state)
{
    (void)state;
    static float A[DM * DK], B[DK * DN], R[DM * DN], M[DM * DN], c32[DM * DN], ctf[DM * DN];
    for (int i = 0; i < DM * DK; ++i)
        A[i] = (float)uniform();
    for (int i = 0; i < DK * DN; ++i)
        B[i] = (float)uniform();
    for (int i = 0; i < DM; ++i)
        for (int j = 0; j < DN; ++j) {
            long double x = 0, m = 0;
            float s = 0, t = 0;
            for (int p = 0; p < DK; ++p) {
                float a = A[i * DK + p], b = B[p * DN + j];
                x += (long double)a * b;
                m += fabsl((long double)a * b);
                s += a * b;
                t += tf32(a) * tf32(b);
            }
            R[i * DN + j] = (float)x;
            M[i * DN + j] = (float)m;
            c32[i * DN + j] = s;
            ctf[i * DN + j] = t;
        }
    gp_verify_in in = {GP_FP32, GP_FP32, DM, DN, DK, DN, c32, R, M};
    gp_verify_result v = gp_verify_gemm(&in);
    assert_true(v.verified);
    assert_int_equal(v.checked, DM * DN);
    /* the worst FP32 element uses under a tenth of its bound */
    double worst = fabs(v.worst_got - v.worst_want) / v.worst_bound;
    if (!(worst < 0.1))
        fail_msg("FP32 rounding used %.3g of its bound", worst);
    in.c = ctf;
    in.kernel = GP_TF32;
    v = gp_verify_gemm(&in);
    assert_true(v.verified);
    in.kernel = GP_FP32;
    v = gp_verify_gemm(&in);
    assert_false(v.verified);
    char st[192];
    gp_verify_status(st, sizeof st, &v, v.verified, 0.0, DM * DN);
    print_message("TF32 products held to FP32: %s\n", st);
    assert_true(strncmp(st, "verify_failed: ", 15) == 0);
    assert_true(v.rel_fro > v.tolerance);    /* everywhere, not one element */
}

/* gamma's numbers, as verify.c's comment derives them by hand */
static void gamma_numbers(void **state)
{
    (void)state;
    assert_true(fabs(gp_verify_gamma(GP_FP32, 4096) - 6.294e-5) < 1e-8);
    assert_true(fabs(gp_verify_gamma(GP_TF32, 4096) - 2.504e-3) < 1e-6);
    assert_true(fabs(gp_verify_gamma(GP_TF32, 8192) - 3.02e-3) < 1e-5);
    assert_true(gp_verify_gamma(GP_FP64, 4096) < 1.2e-13);
    assert_true(gp_verify_gamma(GP_FP64, 4096) > 1.1e-13);
}

/* 64 x 64, every R 1.5 with magnitude 1024 at k = 4096 (an element's bound
 * is then 6.29e-5 x 1024 = 0.064) */
static void flat(float *c, float *r, float *m, float cval)
{
    for (int i = 0; i < 64 * 64; ++i) {
        c[i] = cval;
        r[i] = 1.5f;
        m[i] = 1024;
    }
}

static void one_element_wrong_is_named(void **state)
{
    (void)state;
    static float c[64 * 64], r[64 * 64], m[64 * 64];
    flat(c, r, m, 1.5f);
    c[12 * 64 + 34] = 2.5f;
    gp_verify_in in = {GP_FP32, GP_FP32, 64, 64, 4096, 64, c, r, m};
    gp_verify_result v = gp_verify_gemm(&in);
    char st[192];
    gp_verify_status(st, sizeof st, &v, v.verified, 0.0, 64 * 64);
    assert_false(v.verified);
    assert_string_equal(st, "verify_failed: C[12,34] = 2.5 want 1.5 (bound 0.064); "
                            "1 element out of bound");
    c[12 * 64 + 34] = 1.5f + 0.06f;          /* inside its bound: not bad */
    v = gp_verify_gemm(&in);
    assert_int_equal(v.bad, 0);
    flat(c, r, m, 1.51f);              /* all within, Frobenius fails */
    v = gp_verify_gemm(&in);
    assert_int_equal(v.bad, 0);
    gp_verify_status(st, sizeof st, &v, v.verified, 0.0, 64 * 64);
    assert_string_equal(st, "verify_failed: rel_err_fro 0.00667 > tolerance 6.29e-05");
}

/* The case: a 16 x 16 tile off by 0.1 in a 2048^2 C at k = 4096
 * (|R| ~ sqrt(k)/3 = 21, M ~ k/4 = 1024) is 7e-4 of the tolerance's
 * Frobenius budget short of failing it; the element bounds see 256 bad. */
static void one_tile_wrong_passes_frobenius_fails_elements(void **state)
{
    (void)state;
    const long n = 2048;
    float *c = malloc(sizeof(float) * n * n * 3), *r = c + n * n, *m = r + n * n;
    assert_non_null(c);
    for (long i = 0; i < n * n; ++i) {
        r[i] = c[i] = uniform() < 0 ? -21.3f : 21.3f;
        m[i] = 1024;
    }
    for (long i = 512; i < 528; ++i)
        for (long j = 1024; j < 1040; ++j)
            c[i * n + j] += 0.1f;
    gp_verify_in in = {GP_FP32, GP_FP32, n, n, 4096, n, c, r, m};
    gp_verify_result v = gp_verify_gemm(&in);
    free(c);
    assert_true(v.rel_fro <= v.tolerance);   /* the Frobenius norm alone passes */
    assert_false(v.verified);
    assert_int_equal(v.bad, 256);
    assert_true(v.worst_row >= 512 && v.worst_row < 528);
    assert_true(v.worst_col >= 1024 && v.worst_col < 1040);
}

/* C with ldc > n: the padding is never compared (NaN there is fine). */
static void padded_c_is_read_by_ldc(void **state)
{
    (void)state;
    float c[3 * 8], r[3 * 5], m[3 * 5];
    for (int i = 0; i < 3 * 8; ++i)
        c[i] = NAN;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 5; ++j) {
            c[i * 8 + j] = r[i * 5 + j] = (float)(i - j);
            m[i * 5 + j] = 4;
        }
    gp_verify_in in = {GP_FP32, GP_FP32, 3, 5, 4, 8, c, r, m};
    gp_verify_result v = gp_verify_gemm(&in);
    assert_true(v.verified);
    assert_int_equal(v.checked, 15);
    c[2 * 8 + 4] += 1;
    v = gp_verify_gemm(&in);
    assert_int_equal(v.bad, 1);
    assert_int_equal(v.worst_row, 2);
    assert_int_equal(v.worst_col, 4);
}

static void canaries_find_the_first_change(void **state)
{
    (void)state;
    unsigned char g[4 * 3 * 8];
    memset(g, GP_CANARY, sizeof g);
    long row = -1, col = -1;
    assert_int_equal(gp_canary_find(g, sizeof g), -1);
    assert_int_equal(gp_canary_find_pad(g, 3, 5, 8, 4, &row, &col), -1);
    memset(g + 4 * (2 * 8 + 6), 0, 4);          /* C[2,6]: padding */
    assert_int_equal(gp_canary_find(g, sizeof g), 4 * (2 * 8 + 6));
    assert_int_equal(gp_canary_find_pad(g, 3, 5, 8, 4, &row, &col), 0);
    assert_int_equal(row, 2);
    assert_int_equal(col, 6);
    memset(g, GP_CANARY, sizeof g);
    memset(g + 4 * (1 * 8 + 4), 0, 4);          /* C[1,4]: data, not padding */
    assert_int_equal(gp_canary_find_pad(g, 3, 5, 8, 4, &row, &col), -1);
}

/* ---- the CPU's own product (the references' verdict) ---- */

/* 7 x 9 x 13 with padded leading dimensions, alpha -1.5, beta 0.5: C
 * computed exactly passes, every element checked; one element off by 1e-9
 * (FP64's bound there is ~1e-13) fails and is named. */
static void cpu_check_whole(void **state)
{
    (void)state;
    enum { m = 7, n = 9, k = 13, lda = 16, ldb = 12, ldc = 12 };
    static double A[m * lda], B[k * ldb], C0[m * ldc], c[m * ldc];
    for (int i = 0; i < m * lda; ++i)
        A[i] = uniform();
    for (int i = 0; i < k * ldb; ++i)
        B[i] = uniform();
    for (int i = 0; i < m * ldc; ++i)
        C0[i] = c[i] = uniform();
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
            long double s = 0;
            for (int p = 0; p < k; ++p)
                s += (long double)A[i * lda + p] * B[p * ldb + j];
            c[i * ldc + j] = (double)(-1.5L * s + 0.5L * C0[i * ldc + j]);
        }
    gp_cpu_check_in in = {GP_FP64, GP_FP64, m, n, k, lda, ldb, ldc, -1.5, 0.5,
                          A, B, C0, c, 100, 1};
    gp_verify_result v = gp_verify_cpu(&in);
    assert_true(v.verified);
    assert_int_equal(v.checked, m * n);
    c[3 * ldc + 4] += 1e-9;
    v = gp_verify_cpu(&in);
    assert_false(v.verified);
    assert_int_equal(v.bad, 1);
    char st[192];
    gp_verify_status(st, sizeof st, &v, v.verified, 0.5, m * n);
    assert_true(strncmp(st, "verify_failed: C[3,4] = ", 24) == 0);
}

/* Too big to compute whole (512 x 512 x 1024 = 2^28 products): the four
 * corners and `samples` places.  alpha 0, beta 1 makes C = C0 the answer,
 * so the test needs no product of its own; a wrong corner is always seen. */
static void cpu_check_sampled(void **state)
{
    (void)state;
    enum { m = 512, n = 512, k = 1024 };
    double *A = calloc((size_t)m * k + (size_t)k * n + 2 * (size_t)m * n, sizeof *A);
    assert_non_null(A);
    double *B = A + (size_t)m * k, *C0 = B + (size_t)k * n, *c = C0 + (size_t)m * n;
    for (long i = 0; i < (long)m * n; ++i)
        C0[i] = c[i] = uniform();
    gp_cpu_check_in in = {GP_FP64, GP_FP64, m, n, k, k, n, n, 0.0, 1.0,
                          A, B, C0, c, 4096, 7};
    assert_true((double)m * n * k > GP_CPU_FULL_MACS);
    gp_verify_result v = gp_verify_cpu(&in);
    assert_true(v.verified);
    assert_int_equal(v.checked, 4 + 4096);
    c[(long)m * n - 1] += 1;
    v = gp_verify_cpu(&in);
    free(A);
    assert_false(v.verified);
    assert_int_equal(v.worst_row, m - 1);
    assert_int_equal(v.worst_col, n - 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(poison_and_computed_nans_are_told_apart),
        cmocka_unit_test(kernel_that_reads_c_is_named),
        cmocka_unit_test(elements_never_written_are_named),
        cmocka_unit_test(beta_nonzero_and_finite_cases),
        cmocka_unit_test(status_survives_the_run_file),
        cmocka_unit_test(bounds_hold_real_rounding),
        cmocka_unit_test(gamma_numbers),
        cmocka_unit_test(one_element_wrong_is_named),
        cmocka_unit_test(one_tile_wrong_passes_frobenius_fails_elements),
        cmocka_unit_test(padded_c_is_read_by_ldc),
        cmocka_unit_test(canaries_find_the_first_change),
        cmocka_unit_test(cpu_check_whole),
        cmocka_unit_test(cpu_check_sampled),
    };
    return cmocka_run_group_tests_name("verify", tests, NULL, NULL);
}
