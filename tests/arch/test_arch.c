/* test_arch.c - the architecture table against datasheet figures worked by
 * hand, and the build's code objects: parsing, which one a GPU runs, which
 * features each carries.  CPU only. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "arch/arch.h"

static double peak(int cc, int sms, double mhz, gp_peak_kind k)
{
    return gp_arch_peak_gflops(cc, sms, mhz, k);
}

#define FP32 GP_PEAK_FP32_FMA
#define FP64 GP_PEAK_FP64_FMA
#define TF32T GP_PEAK_TF32_TENSOR
#define FP64T GP_PEAK_FP64_TENSOR

/* One figure of a product: SMs x FLOP/clk/SM x clock, worked by hand
 * (`gflops`), and the TFLOPS its datasheet prints with the half unit of
 * its rounding (0: the datasheet has no such figure). */
typedef struct {
    const char *gpu;
    int cc, sms;
    double mhz;
    gp_peak_kind kind;
    double gflops, datasheet, half_unit;
} figure;

static const figure figures[] = {
    /* A100 SXM4: 108 SMs, 1410 MHz boost (A100 whitepaper, Table 1:
     * FP32 19.5, FP64 9.7, FP64 Tensor 19.5, TF32 Tensor 156 TFLOPS) */
    {"A100", 80, 108, 1410, FP32, 19491.84, 19.5, 0.05},
    {"A100", 80, 108, 1410, FP64, 9745.92, 9.7, 0.05},
    {"A100", 80, 108, 1410, TF32T, 155934.72, 156, 0.5},
    {"A100", 80, 108, 1410, FP64T, 19491.84, 19.5, 0.05},
    /* T4: 40 SMs, 1590 MHz boost; datasheet: 8.1 TFLOPS single precision;
     * FP64 at 2 per SM per clock (no datasheet figure) */
    {"T4", 75, 40, 1590, FP32, 8140.8, 8.1, 0.05},
    {"T4", 75, 40, 1590, FP64, 254.4, 0, 0},
    /* L4: 58 SMs, 2040 MHz boost; datasheet FP32 30.3, TF32 Tensor 120
     * TFLOPS with sparsity: 60.6 dense, which the datasheet rounds (121.2
     * sparse printed as 120) */
    {"L4", 89, 58, 2040, FP32, 30289.92, 30.3, 0.05},
    {"L4", 89, 58, 2040, TF32T, 60579.84, 60, 0.75},
    {"L4", 89, 58, 2040, FP64, 473.28, 0, 0},
    /* RTX 4090: 128 SMs, 2520 MHz boost; Ada whitepaper: FP32 82.6, FP64
     * 1.29 TFLOPS.  Its TF32 (82.6 dense) is GeForce's half rate: the
     * table holds the full rate (L4, L40S), 165.2 here, an upper bound. */
    {"RTX 4090", 89, 128, 2520, FP32, 82575.36, 82.6, 0.05},
    {"RTX 4090", 89, 128, 2520, FP64, 1290.24, 1.29, 0.005},
    {"RTX 4090", 89, 128, 2520, TF32T, 165150.72, 2 * 82.6, 0.1},
    /* H100 SXM5: 132 SMs; whitepaper Table 3: FP32 66.9, FP64 33.5, FP64
     * Tensor 66.9 TFLOPS at 1980 MHz; TF32 Tensor 494.7 at the tensor-core
     * boost clock, 1830 MHz */
    {"H100", 90, 132, 1980, FP32, 66908.16, 66.9, 0.05},
    {"H100", 90, 132, 1980, FP64, 33454.08, 33.5, 0.05},
    {"H100", 90, 132, 1980, FP64T, 66908.16, 66.9, 0.05},
    {"H100", 90, 132, 1830, TF32T, 494714.88, 494.7, 0.05},
    /* B200 (HGX): 148 SMs at 1980 MHz (third-party spec databases: NVIDIA's
     * table gives neither); NVIDIA: FP32 75, FP64 = FP64 Tensor 37 TFLOPS
     * (37.5 at 1980 MHz: the datasheet's clock is not published, so within
     * 1.5%); TF32 Tensor 1.1 PFLOPS dense, the tensor clock of which is
     * checked below */
    {"B200", 100, 148, 1980, FP32, 75018.24, 75, 0.05},
    {"B200", 100, 148, 1980, FP64, 37509.12, 37, 0.55},
    {"B200", 100, 148, 1980, FP64T, 37509.12, 37, 0.55},
    /* RTX 5090: 170 SMs, 2407 MHz boost; NVIDIA: 104.8 TFLOPS FP32 */
    {"RTX 5090", 120, 170, 2407, FP32, 104752.64, 104.8, 0.05},
};

static void datasheet_figures(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof figures / sizeof figures[0]; i++) {
        const figure *f = &figures[i];
        double g = peak(f->cc, f->sms, f->mhz, f->kind);
        if (!(fabs(g - f->gflops) <= 1e-6))
            fail_msg("%s %s: %.6f GFLOP/s, worked by hand %.6f", f->gpu,
                     gp_peak_name(f->kind), g, f->gflops);
        if (f->half_unit > 0 && !(fabs(g / 1e3 - f->datasheet) <= f->half_unit))
            fail_msg("%s %s: %.2f TFLOP/s does not round to the datasheet's %g",
                     f->gpu, gp_peak_name(f->kind), g / 1e3, f->datasheet);
    }
}

/* Chips without such units: NA, not zero. */
static void no_tensor_cores_is_na(void **state)
{
    (void)state;
    assert_true(isnan(peak(75, 40, 1590, TF32T)));      /* T4: FP16/INT8 only */
    assert_true(isnan(peak(75, 40, 1590, FP64T)));
    assert_true(isnan(peak(89, 58, 2040, FP64T)));      /* L4 */
    assert_true(isnan(peak(120, 170, 2407, FP64T)));    /* RTX 5090 */
}

/* B200's TF32 1.1 PFLOPS dense at the table's 4096 FLOP/clk/SM implies a
 * tensor clock of 1.1e6 / (148 x 4096) = 1815 MHz: below the 1980 MHz boost
 * clock, as on the H100 (1830 vs 1980).  2048 would need 3.6 GHz. */
static void b200_tensor_clock_is_plausible(void **state)
{
    (void)state;
    double mhz = 1.1e6 / (148 * gp_arch_flop_per_clock(100, TF32T)) * 1e3;
    assert_true(mhz > 1600 && mhz < 1980);
}

/* The table is src/arch/archs.def: oldest first, the oldest being the one
 * the build refuses anything older than, and every row complete. */
static void every_supported_cc_is_in_the_table(void **state)
{
    (void)state;
    int n;
    const gp_arch_info *t = gp_arch_table(&n);
    assert_true(n > 0);
    assert_int_equal(t[0].cc, GP_CC_MIN);
    for (int i = 0; i < n; i++) {
        if (i > 0 && t[i].cc <= t[i - 1].cc)
            fail_msg("archs.def: CC %d after %d (oldest first)", t[i].cc, t[i - 1].cc);
        assert_ptr_equal(gp_arch_lookup(t[i].cc), &t[i]);
        assert_true(t[i].fp32_lanes > 0 && t[i].fp64_lanes > 0 && t[i].family[0]);
    }
    /* unknown CC, missing SMs or clock: NA, not a guess */
    assert_null(gp_arch_lookup(70));
    assert_true(isnan(peak(70, 80, 1500, FP32)));
    assert_true(isnan(peak(90, 0, 1980, FP32)));
    assert_true(isnan(peak(90, 132, NAN, FP32)));
    assert_string_equal(gp_peak_name(GP_PEAK_TF32_TENSOR), "tf32_tensor");
    assert_string_equal(gp_peak_name(GP_PEAK_FP64_TENSOR), "fp64_tensor");
}

static void builds_parse_and_refuse_junk(void **state)
{
    (void)state;
    gp_build b;
    char err[128], name[16];
    assert_int_equal(gp_build_parse("sm_80,sm_90a  compute_90", &b, err, sizeof err), 0);
    assert_int_equal(b.n, 3);
    assert_true(b.code[1].cc == 90 && b.code[1].specific && !b.code[1].ptx);
    assert_true(b.code[2].cc == 90 && b.code[2].ptx);
    gp_code_name(b.code[1], name, sizeof name);
    assert_string_equal(name, "sm_90a");
    static const char *const bad[] = {"sm_9x", "gfx90a", "sm_", "compute_80b", "", "sm_90 90"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (gp_build_parse(bad[i], &b, err, sizeof err) != -1)
            fail_msg("'%s' parsed", bad[i]);
    assert_non_null(strstr(err, "'90'"));
}

/* SASS runs on its own major with an equal or higher minor; PTX on
 * anything as new; 'a' SASS only on its exact CC, never for plain code. */
static void a_gpu_runs_the_code_the_driver_would_pick(void **state)
{
    (void)state;
    gp_build b;
    char err[128];
    assert_int_equal(gp_build_parse("sm_80 sm_86 sm_90a compute_90", &b, err, sizeof err), 0);
    static const struct { int cc, want, ptx; } pick[] = {
        {80, 80, 0}, {86, 86, 0}, {87, 86, 0}, {89, 86, 0},
        {90, 90, 1}, {100, 90, 1}, {120, 90, 1}, {75, 0, 0},
    };
    for (size_t i = 0; i < sizeof pick / sizeof pick[0]; i++) {
        gp_code c = gp_build_pick(&b, pick[i].cc);
        if (c.cc != pick[i].want || (c.cc && c.ptx != pick[i].ptx) || c.specific)
            fail_msg("CC %d picked %d (ptx %d), wanted %d (ptx %d)", pick[i].cc,
                     c.cc, c.ptx, pick[i].want, pick[i].ptx);
    }
}

static void features_per_code_object(void **state)
{
    (void)state;
    gp_code sm75 = {75, 0, 0}, sm80 = {80, 0, 0}, sm90 = {90, 0, 0},
            sm90a = {90, 0, 1}, sm100 = {100, 0, 0}, ptx120 = {120, 1, 0};
    assert_false(gp_code_has_feature(sm75, GP_FEAT_CP_ASYNC));
    assert_true(gp_code_has_feature(sm75, GP_FEAT_NONE));
    assert_true(gp_code_has_feature(sm80, GP_FEAT_CP_ASYNC));
    assert_true(gp_code_has_feature(sm80, GP_FEAT_DMMA));
    assert_false(gp_code_has_feature(sm80, GP_FEAT_DMMA_K16));
    assert_false(gp_code_has_feature(sm90, GP_FEAT_WGMMA));
    assert_true(gp_code_has_feature(sm90a, GP_FEAT_WGMMA));
    assert_true(gp_code_has_feature(sm100, GP_FEAT_DMMA_K8));
    assert_false(gp_code_has_feature(sm100, GP_FEAT_WGMMA));
    assert_false(gp_code_has_feature(ptx120, GP_FEAT_WGMMA));
    char t[16];
    gp_feature_target(GP_FEAT_WGMMA, t, sizeof t);
    assert_string_equal(t, "sm_90a");
    assert_int_equal(gp_feature_parse("DMMA_K16"), GP_FEAT_DMMA_K16);
    assert_int_equal(gp_feature_parse("nope"), GP_FEAT_COUNT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(datasheet_figures),
        cmocka_unit_test(no_tensor_cores_is_na),
        cmocka_unit_test(b200_tensor_clock_is_plausible),
        cmocka_unit_test(every_supported_cc_is_in_the_table),
        cmocka_unit_test(builds_parse_and_refuse_junk),
        cmocka_unit_test(a_gpu_runs_the_code_the_driver_would_pick),
        cmocka_unit_test(features_per_code_object),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
