/* test_verify.c - verification without a GPU: the comparison (gp_verify)
 * on host arrays, and the one-line status a row gets (gp_verify_status),
 * above all the message that tells a user whose kernel reads C at beta = 0
 * why every element is NaN.  The GPU side (broken kernels through the
 * runner, a C-reading plugin) is in test_ladder.c and plugin_gpu.sh. */
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
    gp_verify_result v = {1e-2, 1e-2, 0, 0};
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(poison_and_computed_nans_are_told_apart),
        cmocka_unit_test(kernel_that_reads_c_is_named),
        cmocka_unit_test(elements_never_written_are_named),
        cmocka_unit_test(beta_nonzero_and_finite_cases),
        cmocka_unit_test(status_survives_the_run_file),
    };
    return cmocka_run_group_tests_name("verify", tests, NULL, NULL);
}
