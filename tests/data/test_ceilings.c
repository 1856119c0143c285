/* test_ceilings.c - the ceilings file (write, read, NA, every malformed
 * case with its message), theoretical peaks from attribute fixtures, the
 * cache path and freshness rules, and the probe's option values.  CPU only. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "data/ceilings.h"
#include "near.h"
#include "probe/probe.h"
#include "util/util.h"
#include "../../probes/probes.h"

/* gp_error/gp_warn live in main.c, outside the library; probe.o needs them. */

static char dir[256];

static int make_dir(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/gp-test-ceilings-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int remove_dir(void **state)
{
    (void)state;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static const char *file_with(const char *name, const char *text)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

#define HDR "ceiling,unit,measured,theoretical,pct_of_theoretical,method\n"

static gp_ceilings c, back;

static void add(gp_ceilings *x, const char *name, double m, double t,
                const char *method)
{
    gp_ceiling *r = &x->c[x->n++];
    snprintf(r->name, sizeof r->name, "%s", name);
    snprintf(r->unit, sizeof r->unit, "GB/s");
    r->measured = m;
    r->theoretical = t;
    r->pct_of_theoretical = isfinite(t) ? 100 * m / t : NAN;
    snprintf(r->method, sizeof r->method, "%s", method);
}

static void write_read_round_trip(void **state)
{
    (void)state;
    memset(&c, 0, sizeof c);
    gp_meta_init(&c.meta);
    gp_meta_set(&c.meta, "gpu_name", "NVIDIA H100 80GB HBM3");
    gp_meta_set(&c.meta, "date", "2026-11-20T12:00:00Z");
    add(&c, "dram_bw", 3012.456789, 3352.32, "STREAM triad; best of 20");
    add(&c, "l2_bw", 7123.25, NAN, "with, a comma and \"quotes\"");
    add(&c, "fp32_fma", 1.0 / 3.0, 66908.16, "");
    char path[512], err[512];
    snprintf(path, sizeof path, "%s/rt.csv", dir);
    assert_int_equal(gp_ceilings_write(path, &c, err, sizeof err), 0);
    assert_int_equal(gp_ceilings_read(path, &back, err, sizeof err), 0);
    assert_int_equal(back.n, 3);
    assert_string_equal(gp_meta_get(&back.meta, "schema"), GP_CEILINGS_SCHEMA);
    assert_string_equal(gp_meta_get(&back.meta, "gpu_name"),
                        "NVIDIA H100 80GB HBM3");
    for (int i = 0; i < 3; ++i) {
        assert_string_equal(back.c[i].name, c.c[i].name);
        assert_string_equal(back.c[i].unit, c.c[i].unit);
        assert_string_equal(back.c[i].method, c.c[i].method);
        assert_near(back.c[i].measured, c.c[i].measured,
                    1e-8 * fabs(c.c[i].measured));
    }
    assert_true(isnan(back.c[1].theoretical));
    assert_true(isnan(back.c[1].pct_of_theoretical));
    assert_near(back.c[0].pct_of_theoretical, c.c[0].pct_of_theoretical, 1e-6);
}

static void na_fields_and_find(void **state)
{
    (void)state;
    const char *p = file_with("na.csv", "# schema: gemmprof-ceilings/1\n"
                              "# a free comment without a colon\n" HDR
                              "l2_bw,GB/s,5000,NA,NA,no formula\n"
                              "\n"
                              "fp64_fma,GFLOP/s,NA,33454.08,NA,failed\n");
    char err[512];
    assert_int_equal(gp_ceilings_read(p, &back, err, sizeof err), 0);
    assert_int_equal(back.n, 2);
    const gp_ceiling *l2 = gp_ceilings_find(&back, "l2_bw");
    assert_non_null(l2);
    assert_near(l2->measured, 5000, 0);
    assert_true(isnan(l2->theoretical));
    const gp_ceiling *f = gp_ceilings_find(&back, "fp64_fma");
    assert_non_null(f);
    assert_true(isnan(f->measured));
    assert_near(f->theoretical, 33454.08, 1e-9);
    assert_null(gp_ceilings_find(&back, "dram_bw"));
}

/* Reading `text` fails with a message containing `want`. */
static void expect_error(const char *name, const char *text, const char *want)
{
    char err[512] = "";
    const char *p = text ? file_with(name, text) : name;
    assert_int_equal(gp_ceilings_read(p, &back, err, sizeof err), -1);
    if (!strstr(err, want))
        fail_msg("error '%s' does not contain '%s'", err, want);
    if (!strstr(err, name))
        fail_msg("error '%s' does not name the file %s", err, name);
}

static void malformed_files_each_say_why(void **state)
{
    (void)state;
    char missing[512];
    snprintf(missing, sizeof missing, "%s/no-such-file.csv", dir);
    expect_error(missing, NULL, "cannot open");
    expect_error("empty.csv", "", "empty file");
    expect_error("blank.csv", "\n  \n", "empty file");
    expect_error("nohdr.csv", "# gpu_name: X\n", "no header row");
    expect_error("hdr.csv", "# gpu_name: X\nname,unit,value\n",
                 "hdr.csv:2:1: wrong header");
    expect_error("num.csv", HDR "dram_bw,GB/s,3000,3352,89.5,ok\n"
                 "l2_bw,GB/s,12abc,NA,NA,x\n",
                 "num.csv:3:12: measured: '12abc' is not a number");
    expect_error("num2.csv", HDR "l2_bw,GB/s,1,inf,NA,x\n",
                 "num2.csv:2:14: theoretical: 'inf' is infinite");
    expect_error("num3.csv", HDR "l2_bw,GB/s,1,2,,x\n",
                 ":2:16: pct_of_theoretical: '' is not a number");
    expect_error("fields.csv", HDR "l2_bw,GB/s,1,2\n",
                 "fields.csv:2:1: 4 fields, expected 6");
    expect_error("quote.csv", HDR "l2_bw,GB/s,1,2,3,\"open\n",
                 "quote.csv:2:1: unterminated quote");
    expect_error("name.csv", HDR ",GB/s,1,2,3,x\n", "name.csv:2:1: empty ceiling name");
    expect_error("schema.csv", "# schema: gemmprof-run/1\n" HDR,
                 "schema.csv:1:11: schema 'gemmprof-run/1'");
    /* numbers nothing measures: refused at their column */
    expect_error("big.csv", HDR "l2_bw,GB/s,1e400,2,3,x\n",
                 "big.csv:2:12: measured: '1e400' is out of range (larger than any double)");
    expect_error("nan.csv", HDR "l2_bw,GB/s,NaN,2,3,x\n",
                 "nan.csv:2:12: measured: 'NaN' is not a number (a missing value is NA)");
    expect_error("neg.csv", HDR "l2_bw,GB/s,-1,2,3,x\n",
                 "neg.csv:2:12: measured: '-1' is out of range: not a number >= 0");
    expect_error("pct.csv", HDR "l2_bw,GB/s,1,2,130,x\n",
                 "pct.csv:2:16: pct_of_theoretical: '130' is out of range: not a percentage");
    expect_error("twice.csv", HDR "l2_bw,GB/s,1,2,3,x\nl2_bw,GB/s,1,2,3,y\n",
                 "twice.csv:3:1: duplicate ceiling 'l2_bw' (also on line 2)");
    expect_error("cut.csv", HDR "l2_bw,GB/s,1,2,3,x\ndram_bw,GB/s,1,2,3,ab",
                 "cut.csv:3:22: last line is cut off (no newline)");
    expect_error("clock.csv", "# probe_sm_clock_mhz: -5\n" HDR,
                 "clock.csv:1:23: probe_sm_clock_mhz: '-5' is out of range");
}

static void too_many_rows_refused(void **state)
{
    (void)state;
    static char text[GP_CEILINGS_MAX * 40 + 200];
    strcpy(text, HDR);
    for (int i = 0; i <= GP_CEILINGS_MAX; ++i)
        sprintf(text + strlen(text), "c%d,GB/s,1,2,50,x\n", i);
    expect_error("many.csv", text, "more than 64 ceilings");
}

static gp_gpu fixture(int sms, int major, int minor, int sm_mhz, int mem_mhz,
                      int bus)
{
    gp_gpu g;
    memset(&g, 0, sizeof g);
    g.sm_count = sms;
    g.cc_major = major;
    g.cc_minor = minor;
    g.sm_clock_khz = sm_mhz * 1000;
    g.mem_clock_khz = mem_mhz * 1000;
    g.bus_width_bits = bus;
    return g;
}

/* H100 SXM attributes: 132 SMs, max clock 1980 MHz, memory clock 2619 MHz,
 * 5120-bit bus.  Expected values are the formulas worked by hand:
 *   FP32 132 x 128 x 2 x 1.98e9 = 66 908.16 GFLOP/s (datasheet: 67 TFLOP/s)
 *   FP64 132 x  64 x 2 x 1.98e9 = 33 454.08 GFLOP/s (datasheet: 34)
 *   smem 132 x 32 x 4 B x 1.98e9 = 33 454.08 GB/s
 *   DRAM 2 x 2.619e9 x 5120 / 8 = 3 352.32 GB/s   (datasheet: 3.35 TB/s) */
static void peaks_h100_sxm_fixture(void **state)
{
    (void)state;
    gp_gpu g = fixture(132, 9, 0, 1980, 2619, 5120);
    gp_peaks p;
    gp_theoretical_peaks(&g, 0, &p);
    assert_near(p.sm_mhz, 1980, 0);
    assert_int_equal(p.fp32_lanes, 128);
    assert_int_equal(p.fp64_lanes, 64);
    assert_near(p.fp32_gflops, 66908.16, 1e-6);
    assert_near(p.fp64_gflops, 33454.08, 1e-6);
    assert_near(p.smem_gbs, 33454.08, 1e-6);
    assert_near(p.dram_gbs, 3352.32, 1e-6);
    assert_true(isnan(p.l2_gbs));
    /* tensor cores (src/arch/arch.c): 132 x 2048 and 132 x 256 x 1.98e9 */
    assert_near(p.tf32_tensor_gflops, 535265.28, 1e-6);
    assert_near(p.fp64_tensor_gflops, 66908.16, 1e-6);
    /* the clock the probe saw replaces the attribute: 132x256x1.755e9 */
    gp_theoretical_peaks(&g, 1755, &p);
    assert_near(p.fp32_gflops, 59304.96, 1e-6);
    assert_near(p.dram_gbs, 3352.32, 1e-6);   /* memory clock unchanged */
}

/* H200 memory attributes: 3201 MHz (nvidia-smi's memory clock on the lent
 * H200) on a 6144-bit bus (six HBM3e stacks): 2 x 3.201e9 x 768 B
 * = 4 916.736 GB/s, against 4.8 TB/s on the datasheet. */
static void peaks_h200_memory_fixture(void **state)
{
    (void)state;
    gp_gpu g = fixture(132, 9, 0, 1980, 3201, 6144);
    gp_peaks p;
    gp_theoretical_peaks(&g, 0, &p);
    assert_near(p.dram_gbs, 4916.736, 1e-6);
    assert_near(p.fp32_gflops, 66908.16, 1e-6);
}

/* A100 SXM: 108 SMs at 1410 MHz, CC 8.0 (64 FP32 and 32 FP64 lanes):
 * 108 x 64 x 2 x 1.41e9 = 19 491.84, half that for FP64. */
static void peaks_a100_and_unknown_cc(void **state)
{
    (void)state;
    gp_gpu g = fixture(108, 8, 0, 1410, 1215, 5120);
    gp_peaks p;
    gp_theoretical_peaks(&g, 0, &p);
    assert_near(p.fp32_gflops, 19491.84, 1e-6);
    assert_near(p.fp64_gflops, 9745.92, 1e-6);
    assert_near(p.dram_gbs, 1555.2, 1e-6);
    g = fixture(100, 42, 7, 2000, 0, 0);    /* a CC nobody knows yet */
    gp_theoretical_peaks(&g, 0, &p);
    assert_int_equal(p.fp32_lanes, 0);
    assert_true(isnan(p.fp32_gflops));
    assert_true(isnan(p.fp64_gflops));
    assert_true(isnan(p.tf32_tensor_gflops));
    assert_true(isnan(p.dram_gbs));          /* no memory attributes */
    int f32, f64;
    gp_fma_lanes_per_sm(8, 6, &f32, &f64);
    assert_int_equal(f32, 128);
    assert_int_equal(f64, 2);
}

static void slug_and_utc_dates(void **state)
{
    (void)state;
    char s[64];
    gp_slug("NVIDIA H100 80GB HBM3", s, sizeof s);
    assert_string_equal(s, "nvidia-h100-80gb-hbm3");
    gp_slug("  Tesla V100-SXM2-16GB ", s, sizeof s);
    assert_string_equal(s, "tesla-v100-sxm2-16gb");
    gp_slug("!!!", s, sizeof s);
    assert_string_equal(s, "unknown-gpu");
    assert_int_equal(gp_parse_utc("1970-01-02T00:00:01Z"), 86401);
    assert_int_equal(gp_parse_utc("1970-01-01 00:01:00"), 60);
    assert_int_equal(gp_parse_utc("1970-01-01T00:00:10.25+00:00"), 10);
    assert_int_equal(gp_parse_utc("2026-11-20T12:00:00Z") -
                     gp_parse_utc("2026-11-19T12:00:00Z"), 86400);
    assert_int_equal(gp_parse_utc("yesterday"), -1);
    assert_int_equal(gp_parse_utc("2026-13-01T00:00:00Z"), -1);
    assert_int_equal(gp_parse_utc("2026-11-20T12:00:00+02:00"), -1);
}

static void freshness_rules(void **state)
{
    (void)state;
    const char *body = HDR "dram_bw,GB/s,3000,3352,89.5,x\n"
                           "tf32_tensor,GFLOP/s,NA,494714.88,NA,x\n";
    char text[1024], why[512];
    time_t t0 = gp_parse_utc("2026-11-20T12:00:00Z");
    snprintf(text, sizeof text, "# gpu_name: GPU A\n# date: 2026-11-20T12:00:00Z\n%s",
             body);
    char p[512];
    snprintf(p, sizeof p, "%s", file_with("fresh.csv", text));
    assert_int_equal(gp_ceilings_fresh(p, "GPU A", 3600, t0 + 600, why, sizeof why), 1);
    /* one written before the tensor-core rows existed is probed again */
    snprintf(text, sizeof text, "# gpu_name: GPU A\n# date: 2026-11-20T12:00:00Z\n%s",
             HDR "dram_bw,GB/s,3000,3352,89.5,x\n");
    snprintf(p, sizeof p, "%s", file_with("old.csv", text));
    assert_int_equal(gp_ceilings_fresh(p, "GPU A", 3600, t0 + 600, why, sizeof why), 0);
    assert_non_null(strstr(why, "no tensor-core rows"));
    snprintf(text, sizeof text, "# gpu_name: GPU A\n# date: 2026-11-20T12:00:00Z\n%s",
             body);
    snprintf(p, sizeof p, "%s", file_with("fresh.csv", text));
    assert_int_equal(gp_ceilings_fresh(p, "GPU A", 3600, t0 + 7200, why, sizeof why), 0);
    assert_non_null(strstr(why, "7200 s old"));
    assert_int_equal(gp_ceilings_fresh(p, "GPU B", 3600, t0, why, sizeof why), 0);
    assert_non_null(strstr(why, "is for GPU A, not GPU B"));
    snprintf(text, sizeof text, "# gpu_name: GPU A\n%s", body);
    snprintf(p, sizeof p, "%s", file_with("nodate.csv", text));
    assert_int_equal(gp_ceilings_fresh(p, "GPU A", 1e9, t0, why, sizeof why), 0);
    assert_non_null(strstr(why, "date"));
    snprintf(p, sizeof p, "%s/absent.csv", dir);
    assert_int_equal(gp_ceilings_fresh(p, "GPU A", 1e9, t0, why, sizeof why), 0);
    assert_non_null(strstr(why, "cannot open"));
}

static void cache_path_follows_environment(void **state)
{
    (void)state;
    char path[1024], want[1024], err[512];
    char *saved_home = getenv("HOME") ? strdup(getenv("HOME")) : NULL;
    setenv("GEMMPROF_CACHE", dir, 1);
    assert_int_equal(gp_ceilings_cache_path("NVIDIA H200", path, sizeof path, err,
                                         sizeof err), 0);
    snprintf(want, sizeof want, "%s/ceilings-nvidia-h200.csv", dir);
    assert_string_equal(path, want);
    unsetenv("GEMMPROF_CACHE");
    snprintf(want, sizeof want, "%s/xdg", dir);
    setenv("XDG_CACHE_HOME", want, 1);
    assert_int_equal(gp_ceilings_cache_path("X", path, sizeof path, err, sizeof err), 0);
    snprintf(want, sizeof want, "%s/xdg/gemmprof/ceilings-x.csv", dir);
    assert_string_equal(path, want);
    assert_int_equal(access(dir, W_OK), 0);
    unsetenv("XDG_CACHE_HOME");
    snprintf(want, sizeof want, "%s/home", dir);
    setenv("HOME", want, 1);
    assert_int_equal(gp_ceilings_cache_path("X", path, sizeof path, err, sizeof err), 0);
    snprintf(want, sizeof want, "%s/home/.cache/gemmprof/ceilings-x.csv", dir);
    assert_string_equal(path, want);
    if (saved_home)
        setenv("HOME", saved_home, 1);
    free(saved_home);
}

static void byte_sizes_parse(void **state)
{
    (void)state;
    size_t b;
    assert_int_equal(gp_parse_bytes("1048576", &b), 0);
    assert_true(b == 1048576);
    assert_int_equal(gp_parse_bytes("512M", &b), 0);
    assert_true(b == (size_t)512 << 20);
    assert_int_equal(gp_parse_bytes("2GiB", &b), 0);
    assert_true(b == (size_t)2 << 30);
    assert_int_equal(gp_parse_bytes("64k", &b), 0);
    assert_true(b == 65536);
    assert_int_equal(gp_parse_bytes("-5", &b), -1);
    assert_int_equal(gp_parse_bytes("12X", &b), -1);
    assert_int_equal(gp_parse_bytes("1.5G", &b), -1);
    assert_int_equal(gp_parse_bytes("", &b), -1);
    assert_int_equal(gp_parse_bytes("99999999999999999999", &b), -1);
    assert_int_equal(gp_parse_bytes("99999999999T", &b), -1);
}

/* With a = 1 and b = 2^-8 every chain is exactly start + iters b (all
 * values stay multiples of 2^-8 below 2^15): a closed form to hold the
 * CPU model of the FMA probe to. */
static void fma_model_matches_closed_form(void **state)
{
    (void)state;
    const int iters = 4096;
    const double b = 1.0 / 256;
    for (int fp64 = 0; fp64 < 2; ++fp64)
        for (int cls = 0; cls < GP_FMA_CLASSES; ++cls) {
            double want = 0;
            for (int ch = 0; ch < GP_FMA_CHAINS; ++ch)
                want += GP_FMA_START(double, cls, ch) + iters * b;
            assert_near(gp_fma_expected(fp64, cls, iters, 1.0, b), want, 0);
        }
    /* the probe's own constants converge to b / (1 - a) = 8 per chain */
    double s = gp_fma_expected(1, 3, 1 << 16, 0.9990234375, 0.0078125);
    assert_near(s, 8.0 * GP_FMA_CHAINS, 1e-9);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(write_read_round_trip),
        cmocka_unit_test(na_fields_and_find),
        cmocka_unit_test(malformed_files_each_say_why),
        cmocka_unit_test(too_many_rows_refused),
        cmocka_unit_test(peaks_h100_sxm_fixture),
        cmocka_unit_test(peaks_h200_memory_fixture),
        cmocka_unit_test(peaks_a100_and_unknown_cc),
        cmocka_unit_test(slug_and_utc_dates),
        cmocka_unit_test(freshness_rules),
        cmocka_unit_test(cache_path_follows_environment),
        cmocka_unit_test(byte_sizes_parse),
        cmocka_unit_test(fma_model_matches_closed_form),
    };
    return cmocka_run_group_tests_name("ceilings", tests, make_dir, remove_dir);
}
