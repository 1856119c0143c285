/* test_specimen.c - GPU: the register-spill specimen tells its story through
 * the real runner and counters.  specimen_sizet (size_t descriptor, capped
 * at 128 registers) spills: ptxas spill stores > 0 and local-memory traffic
 * > 0; specimen_uint (the same kernel, unsigned int) has neither; and the
 * diff of the pair names the spill as the cause and calls it a regression.
 * Both verified against cuBLAS on the way.  SKIP without a GPU or where
 * counters are refused; with GEMMPROF_REQUIRE_GPU=1 both fail. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "diff/diff.h"
#include "gpu_skip.h"
#include "cupti/profiler.h"
#include "registry/registry.h"
#include "run/run.h"

#define SIZE 4096               /* long enough that the timing means something */

static gp_row sizet, uint_;     /* measured once, by the first test */
static int measured;

static int require_gpu(void)
{
    const char *r = getenv("GEMMPROF_REQUIRE_GPU");
    return r && !strcmp(r, "1");
}

/* 0, or -1 with the reason in err. */
static int run_one(gp_bench *b, const char *name, gp_profiler *p, gp_row *r,
                   char *err, size_t errlen)
{
    const gp_kernel *k = gp_registry_find(name);
    if (!k) {
        snprintf(err, errlen, "kernel %s is not registered (kernels/ladder.def)", name);
        return -1;
    }
    gp_run_opts o = {.reps = 20, .warmup = 5, .prof = p};
    if (gp_cache_control_scrub("all", &o.scrub, err, errlen) != 0)
        return -1;
    if (gp_bench_run(b, k, &o, r) != 0) {
        snprintf(err, errlen, "%s: %s (rel_err_fro %.3g, tolerance %.3g)", name,
                 r->status, r->rel_err_fro, r->tolerance);
        return -1;
    }
    print_message("%s: %.0f GFLOP/s, %.0f registers, spill stores %.0f B/thread, "
                  "local traffic %.4g B, occupancy %.3g%% (%s)\n", name, r->gflops,
                  r->regs_per_thread, r->spill_store_bytes, gp_diff_local_bytes(r),
                  r->occupancy_theoretical, r->occupancy_limiter);
    return 0;
}

/* Both rows, with the default counters, once per process. */
static void measure(void)
{
    GP_REQUIRE_GPU();
    if (measured)
        return;
    char why[512];
    gp_metric_list list;
    if (gp_metric_list_parse("default", &list, why, sizeof why) != 0)
        fail_msg("default metrics: %s", why);
    gp_profiler *p = gp_profiler_begin(&list, why, sizeof why);
    if (!p) {
        if (require_gpu())
            fail_msg("counters unavailable but GEMMPROF_REQUIRE_GPU=1: %s", why);
        print_message("SKIP reason: counters unavailable: %s\n", why);
        skip();
    }
    gp_bench *b = gp_bench_create(GP_FP32, SIZE, SIZE, SIZE, 1.0, 0.0, 7, why, sizeof why);
    int rc = b ? 0 : -1;
    if (rc == 0)
        rc = run_one(b, "specimen_uint", p, &uint_, why, sizeof why);
    if (rc == 0)
        rc = run_one(b, "specimen_sizet", p, &sizet, why, sizeof why);
    gp_bench_destroy(b);
    gp_profiler_end(p);
    if (rc != 0)
        fail_msg("%s", why);
    measured = 1;
}

static void specimen_sizet_spills_and_reads_local_memory(void **state)
{
    (void)state;
    measure();
    if (!(sizet.spill_store_bytes > 0))
        fail_msg("specimen_sizet: spill_store_bytes %g, wanted > 0", sizet.spill_store_bytes);
    double local = gp_diff_local_bytes(&sizet);
    if (!(local > 0))
        fail_msg("specimen_sizet: local-memory traffic %g B, wanted > 0", local);
    assert_int_equal(sizet.verified, 1);
}

static void specimen_uint_neither_spills_nor_touches_local_memory(void **state)
{
    (void)state;
    measure();
    if (uint_.spill_store_bytes != 0 || uint_.spill_load_bytes != 0)
        fail_msg("specimen_uint: spill stores %g, loads %g B/thread, wanted 0",
                 uint_.spill_store_bytes, uint_.spill_load_bytes);
    double local = gp_diff_local_bytes(&uint_);
    if (local != 0)
        fail_msg("specimen_uint: local-memory traffic %g B, wanted 0", local);
    assert_int_equal(uint_.verified, 1);
    /* the twins differ only in the spill: same cap, same occupancy */
    assert_true(uint_.regs_per_thread == sizet.regs_per_thread);
    assert_true(uint_.occupancy_theoretical == sizet.occupancy_theoretical);
}

static void specimen_diff_names_the_spill_as_the_cause(void **state)
{
    (void)state;
    measure();
    gp_diff_row r;
    gp_diff_rows(&uint_, &sizet, GP_DIFF_THRESHOLD_DEFAULT, &r);
    print_message("diff specimen_uint -> specimen_sizet: %s %+.1f%%: %s\n",
                  gp_diff_verdict_name(r.verdict), r.change_pct, r.cause);
    if (strncmp(r.cause, "now spills ", 11) != 0 || !strstr(r.cause, "local traffic 0 -> "))
        fail_msg("cause '%s', wanted 'now spills N B/thread: ... local traffic 0 -> ...'",
                 r.cause);
}

/* The diff flags the size_t twin whether or not this GPU makes the spill
 * cost more than the speed threshold (on the H200 it cost ~4%): a new spill
 * is itself a regression.  The measured speed change is printed. */
static void specimen_diff_calls_sizet_a_regression(void **state)
{
    (void)state;
    measure();
    gp_diff_row r;
    gp_diff_rows(&uint_, &sizet, GP_DIFF_THRESHOLD_DEFAULT, &r);
    print_message("specimen_sizet %.0f GFLOP/s vs specimen_uint %.0f (%+.1f%%): %s\n",
                  sizet.gflops, uint_.gflops, r.change_pct,
                  gp_diff_verdict_name(r.verdict));
    if (!r.regressed)
        fail_msg("diff did not flag specimen_sizet (verdict %s)",
                 gp_diff_verdict_name(r.verdict));
    assert_true(r.verdict == GP_DIFF_SLOWER || r.verdict == GP_DIFF_SPILLS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(specimen_sizet_spills_and_reads_local_memory),
        cmocka_unit_test(specimen_uint_neither_spills_nor_touches_local_memory),
        cmocka_unit_test(specimen_diff_names_the_spill_as_the_cause),
        cmocka_unit_test(specimen_diff_calls_sizet_a_regression),
    };
    return cmocka_run_group_tests_name("specimen", tests, NULL, NULL);
}
