/* test_interleave.c - --interleave on the GPU: a kernel's timed launches
 * alternate with its reference's, so the row carries both medians over the
 * same stretch of time; without a pair (or paired with itself) there is
 * no reference median. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpu_skip.h"
#include "registry/registry.h"
#include "run/run.h"

static void paired_row_has_both_medians(void **state)
{
    (void)state;
    GP_REQUIRE_GPU();
    char err[512];
    gp_bench *b = gp_bench_create(GP_FP32, 777, 1025, 515, 1.0, 0.5, 11, err,
                                  sizeof err);
    if (!b)
        fail_msg("bench: %s", err);
    const gp_kernel *k = gp_registry_find("naive");
    const gp_kernel *ref = gp_registry_reference(GP_FP32);
    assert_non_null(k);
    assert_non_null(ref);
    gp_run_opts o = {.reps = 9, .warmup = 2};
    gp_row alone, own, paired;
    assert_int_equal(gp_bench_run(b, ref, &o, &own), 0);
    assert_int_equal(gp_bench_run(b, k, &o, &alone), 0);
    assert_true(isnan(alone.ref_time_ms) && isnan(alone.pct_cublas));
    o.pair = ref;
    assert_int_equal(gp_bench_run(b, k, &o, &paired), 0);
    printf("# 777x1025x515 beta 0.5: naive %.4f ms alone, %.4f ms paired; "
           "cuBLAS %.4f ms alone, %.4f ms paired\n", alone.time_ms, paired.time_ms,
           own.time_ms, paired.ref_time_ms);
    assert_int_equal(paired.reps, 9);
    assert_true(paired.verified == 1);
    assert_true(paired.time_min_ms <= paired.time_ms &&
                paired.time_ms <= paired.time_max_ms);
    /* each median is of its own kernel's launches: near what the kernel
     * takes alone, not the other's (naive is many times cuBLAS's time) */
    assert_true(alone.time_ms > 3 * own.time_ms);
    assert_true(fabs(paired.ref_time_ms - own.time_ms) < 0.5 * own.time_ms);
    assert_true(fabs(paired.time_ms - alone.time_ms) < 0.5 * alone.time_ms);
    /* the median of the pairs' ratios: near the medians' ratio when the
     * clock holds still (these launches are short) */
    double medians = 100.0 * paired.ref_time_ms / paired.time_ms;
    printf("# pct_cublas %.3f from the pairs, %.3f from the medians\n",
           paired.pct_cublas, medians);
    assert_true(fabs(paired.pct_cublas - medians) < 0.1 * medians);
    /* a kernel is never paired with itself */
    o.pair = k;
    assert_int_equal(gp_bench_run(b, k, &o, &paired), 0);
    assert_true(isnan(paired.ref_time_ms));
    gp_bench_destroy(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(paired_row_has_both_medians),
    };
    return cmocka_run_group_tests_name("interleave", tests, NULL, NULL);
}
