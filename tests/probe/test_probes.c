/* test_probes.c - the ceiling probes on a real GPU: STREAM results element
 * by element, FMA chains to the bit, the SM clock the FMA kernel counts,
 * every measured ceiling at most 2% over its theoretical one, the ceilings file written and read back, the
 * cache reused while fresh.  GPU tests SKIP without a GPU; the command's
 * option handling and its no-GPU exit run everywhere. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cuda_runtime_api.h>

#include "data/ceilings.h"
#include "probe/probe.h"
#include "probe/stage.h"
#include "util/util.h"
#include "gpu_skip.h"
#include "near.h"
#include "../../probes/probes.h"

/* gp_error/gp_warn live in main.c, outside the library. */

static char dir[256];

static int make_dir(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/gp-test-probes-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int remove_dir(void **state)
{
    (void)state;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static gp_gpu open_gpu(void)
{
    gp_gpu g;
    char why[256];
    if (gp_gpu_open(0, &g, why, sizeof why) != 0)
        fail_msg("gp_gpu_open: %s", why);
    return g;
}

#define CK(x)                                                               \
    do {                                                                    \
        int e_ = (int)(x);                                                  \
        if (e_ != 0)                                                        \
            fail_msg("%s: %s", #x, gp_cuda_msg(e_));                        \
    } while (0)

/* One variant: copy, scale, add and triad checked against the host for
 * every element, then the read's sum.  a starts at a0 (b, c are written
 * before they are read), so every value stays a multiple of 1/2 below
 * 2^12: exact in float. */
static void check_variant(const gp_gpu *g, int fp64, int vi, size_t n,
                          const char *a0, void *dev[3], void *part,
                          double *h[3], char *raw)
{
    const double q = 3.0;
    size_t esz = fp64 ? 8 : 4;
    gp_stream_variant v = gp_stream_variant_at(vi);
    double *ha = h[0], *hb = h[1], *hc = h[2];
    CK(cudaMemcpy(dev[0], a0, n * esz, cudaMemcpyHostToDevice));
    for (size_t i = 0; i < n; ++i)
        ha[i] = fp64 ? ((const double *)a0)[i] : ((const float *)a0)[i];
    for (int op = 0; op < GP_STREAM_NOPS; ++op) {
        /* grid-stride on 7 blocks: many iterations, then a partial chunk */
        int blocks = gp_stream_grid(op, fp64, &v, n, g->sm_count);
        if (blocks < 1)
            fail_msg("fp%d variant %d (x%d, %d threads) cannot run op %d",
                     fp64 ? 64 : 32, vi, v.unroll, v.threads, op);
        if (!v.one_shot)
            blocks = 7;
        CK(gp_stream_launch(op, fp64, &v, dev[0], dev[1], dev[2], q, n, part,
                            blocks, 0));
        CK(cudaDeviceSynchronize());
        for (size_t i = 0; i < n; ++i)
            switch (op) {
            case GP_STREAM_COPY:  hc[i] = ha[i]; break;
            case GP_STREAM_SCALE: hb[i] = q * hc[i]; break;
            case GP_STREAM_ADD:   hc[i] = ha[i] + hb[i]; break;
            case GP_STREAM_TRIAD: ha[i] = hb[i] + q * hc[i]; break;
            }
        if (op == GP_STREAM_READ) {
            double sum = 0, want = 0;
            CK(cudaMemcpy(raw, part, (size_t)blocks * esz, cudaMemcpyDeviceToHost));
            for (int k = 0; k < blocks; ++k)
                sum += fp64 ? ((double *)raw)[k] : ((float *)raw)[k];
            for (size_t i = 0; i < n; ++i)
                want += ha[i];
            if (!(fabs(sum - want) <= want * (fp64 ? 1e-12 : 1e-5)))
                fail_msg("fp%d variant %d read: %.17g, expected %.17g",
                         fp64 ? 64 : 32, vi, sum, want);
            continue;
        }
        int w = op == GP_STREAM_SCALE ? 1 : op == GP_STREAM_TRIAD ? 0 : 2;
        CK(cudaMemcpy(raw, dev[w], n * esz, cudaMemcpyDeviceToHost));
        for (size_t i = 0; i < n; ++i) {
            double got = fp64 ? ((double *)raw)[i] : ((float *)raw)[i];
            if (got != h[w][i])
                fail_msg("fp%d variant %d (x%d, %d threads, %s, hint %d) op %d "
                         "element %zu: %.17g, expected %.17g", fp64 ? 64 : 32,
                         vi, v.unroll, v.threads,
                         v.one_shot ? "one-shot" : "grid-stride", v.hint, op,
                         i, got, h[w][i]);
        }
    }
}

/* Every variant of every operation, element by element.  The element
 * count leaves a scalar tail (3 floats, 1 double) and a vector count
 * that no threads x unroll chunk divides. */
static void stream_kernels_verified_elementwise(void **state)
{
    (void)state;
    GP_REQUIRE_GPU();
    gp_gpu g = open_gpu();
    const size_t n = ((size_t)3 << 19) + 3111;
    assert_int_equal(gp_stream_variant_count(), 96);
    for (int fp64 = 0; fp64 < 2; ++fp64) {
        size_t esz = fp64 ? 8 : 4, parts = n;  /* >= any variant's grid */
        double *h[3] = {malloc(n * 8), malloc(n * 8), malloc(n * 8)};
        char *raw = malloc(n * esz), *a0 = malloc(n * esz);
        void *dev[3], *part;
        for (int i = 0; i < 3; ++i)
            CK(cudaMalloc(&dev[i], n * esz));
        CK(cudaMalloc(&part, parts * 8));
        for (size_t i = 0; i < n; ++i) {
            double v = (double)(i % 511) * 0.5;
            if (fp64) ((double *)a0)[i] = v; else ((float *)a0)[i] = (float)v;
        }
        for (int vi = 0; vi < gp_stream_variant_count(); ++vi)
            check_variant(&g, fp64, vi, n, a0, dev, part, h, raw);
        for (int i = 0; i < 3; ++i) {
            cudaFree(dev[i]);
            free(h[i]);
        }
        cudaFree(part);
        free(raw);
        free(a0);
    }
}

/* A variant stream.cu does not have is refused, not run as another. */
static void stream_unknown_variant_refused(void **state)
{
    (void)state;
    GP_REQUIRE_GPU();
    gp_stream_variant bad[] = {{3, 256, 0, 0}, {4, 1056, 0, 0}, {4, 200, 0, 0},
                               {4, 256, 0, GP_HINT_N}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        assert_int_equal(gp_stream_blocks_per_sm(GP_STREAM_TRIAD, 0, &bad[i]), 0);
        assert_int_equal(gp_stream_grid(GP_STREAM_TRIAD, 0, &bad[i], 1 << 20, 132), 0);
        assert_int_not_equal(gp_stream_launch(GP_STREAM_TRIAD, 0, &bad[i], NULL,
                                              NULL, NULL, 3, 0, NULL, 1, 0), 0);
    }
    gp_stream_variant ok = gp_stream_variant_at(0);
    assert_int_equal(gp_stream_blocks_per_sm(GP_STREAM_NOPS, 0, &ok), 0);
}

/* Every thread's chains, to the bit, with the probe's constants and with
 * a = 1, b = 2^-8, where the closed form start + iters b is exact. */
static void fma_chains_verified_per_thread(void **state)
{
    (void)state;
    GP_REQUIRE_GPU();
    gp_gpu g = open_gpu();
    const int blocks = 3, iters = 4096;
    const size_t nt = (size_t)blocks * GP_PROBE_THREADS;
    const double ab[2][2] = {{0.9990234375, 0.0078125}, {1.0, 1.0 / 256}};
    void *out;
    char *h = malloc(nt * 8);
    CK(cudaMalloc(&out, nt * 8));
    (void)g;
    for (int fp64 = 0; fp64 < 2; ++fp64)
        for (int k = 0; k < 2; ++k) {
            CK(gp_fma_launch(fp64, out, iters, ab[k][0], ab[k][1], blocks, NULL, 0));
            CK(cudaMemcpy(h, out, nt * 8, cudaMemcpyDeviceToHost));
            for (size_t t = 0; t < nt; ++t) {
                double got = fp64 ? ((double *)h)[t] : ((float *)h)[t];
                int cls = (int)(t % GP_FMA_CLASSES);
                double want = gp_fma_expected(fp64, cls, iters, ab[k][0], ab[k][1]);
                if (k == 1) {
                    double closed = 0;
                    for (int ch = 0; ch < GP_FMA_CHAINS; ++ch)
                        closed += GP_FMA_START(double, cls, ch) + iters / 256.0;
                    assert_near(want, closed, 0);
                }
                if (got != want)
                    fail_msg("fp%d thread %zu: %.17g, expected %.17g",
                             fp64 ? 64 : 32, t, got, want);
            }
        }
    /* a launch that does not fit the unrolling is refused, not rounded */
    assert_int_not_equal(gp_fma_launch(0, out, 100, 1.0, 1.0, 1, NULL, 0), 0);
    cudaFree(out);
    free(h);
}

static const char *const rows[] = {
    "dram_bw", "l2_bw", "smem_bw", "fp32_fma", "fp64_fma",
    "stream_copy_fp32", "stream_scale_fp32", "stream_add_fp32",
    "stream_triad_fp32", "stream_read_fp32",
    "stream_copy_fp64", "stream_scale_fp64", "stream_add_fp64",
    "stream_triad_fp64", "stream_read_fp64",
};

static void every_row_below_theoretical(const gp_ceilings *c)
{
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; ++i) {
        const gp_ceiling *r = gp_ceilings_find(c, rows[i]);
        if (!r)
            fail_msg("row %s missing", rows[i]);
        if (!(r->measured > 0))
            fail_msg("%s measured %g", r->name, r->measured);
        if (isfinite(r->theoretical) && !(r->measured <= r->theoretical * 1.02))
            fail_msg("%s measured %.1f > 1.02 x theoretical %.1f (%s)", r->name,
                     r->measured, r->theoretical, r->method);
    }
    /* on sm_90 every theoretical but L2's is known */
    if (gp_ceilings_find(c, "fp32_fma") && c->meta.n) {
        const char *cc = gp_meta_get(&c->meta, "compute_capability");
        if (cc && strcmp(cc, "9.0") == 0) {
            assert_true(isfinite(gp_ceilings_find(c, "fp32_fma")->theoretical));
            assert_true(isfinite(gp_ceilings_find(c, "dram_bw")->theoretical));
            assert_true(isfinite(gp_ceilings_find(c, "smem_bw")->theoretical));
        }
    }
}

static void full_probe_within_theoretical_and_file_reads_back(void **state)
{
    (void)state;
    GP_REQUIRE_GPU();
    gp_gpu g = open_gpu();
    static gp_ceilings c, back;
    char path[512], err[512];
    snprintf(path, sizeof path, "%s/ceilings.csv", dir);
    gp_probe_opts o = {.reps = 3, .log = stdout};
    char *argv[] = {"probe", "--reps", "3", NULL};
    if (gp_probe_to_file(&g, &o, path, 3, argv, &c, err, sizeof err) != 0)
        fail_msg("probe: %s", err);
    every_row_below_theoretical(&c);
    if (gp_ceilings_read(path, &back, err, sizeof err) != 0)
        fail_msg("read back: %s", err);
    assert_int_equal(back.n, c.n);
    every_row_below_theoretical(&back);
    assert_string_equal(gp_meta_get(&back.meta, "gpu_name"), g.name);
    assert_non_null(gp_meta_get(&back.meta, "date"));
    assert_non_null(gp_meta_get(&back.meta, "probe_sm_clock_mhz"));
    assert_non_null(gp_meta_get(&back.meta, "probe_bytes_per_array"));
    for (int i = 0; i < c.n; ++i) {
        assert_string_equal(back.c[i].name, c.c[i].name);
        if (isnan(c.c[i].measured))      /* not measured (tensor rows): NA */
            assert_true(isnan(back.c[i].measured));
        else
            assert_near(back.c[i].measured, c.c[i].measured, 1e-7 * c.c[i].measured);
    }
}

static void cache_reused_while_fresh(void **state)
{
    (void)state;
    GP_REQUIRE_GPU();
    char sub[300], path[1024], again[1024], err[512];
    struct stat s1, s2;
    snprintf(sub, sizeof sub, "%s/cache", dir);
    setenv("GEMMPROF_CACHE", sub, 1);
    if (gp_probe_ensure(0, 3600, 0, path, sizeof path, err, sizeof err) != 0)
        fail_msg("ensure: %s", err);
    assert_int_equal(stat(path, &s1), 0);
    assert_non_null(strstr(path, sub));
    if (gp_probe_ensure(0, 3600, 0, again, sizeof again, err, sizeof err) != 0)
        fail_msg("ensure again: %s", err);
    assert_string_equal(again, path);
    assert_int_equal(stat(again, &s2), 0);
    assert_true(s1.st_ino == s2.st_ino);    /* not rewritten (rename -> new inode) */
    unsetenv("GEMMPROF_CACHE");
}

/* -1 (unknown) only where NVML gives no clock: a skip with that reason,
 * which the GPU machine's runner fails (tests/allowed-skips.txt). */
static void sm_clock_is_plausible(void **state)
{
    (void)state;
    GP_REQUIRE_GPU();
    int mhz = gp_sm_clock_now_mhz(0);
    if (mhz == -1)
        GP_SKIP_BECAUSE("NVML gave no SM clock for GPU 0 (gp_sm_clock_now_mhz: -1)");
    print_message("# SM clock now: %d MHz\n", mhz);
    assert_true(mhz > 0 && mhz < 5000);
}

/* A whole-GPU FMA run counts its own clock: every block's span is
 * filled, the clock is one the card can run at, and the run is no faster
 * than the FP32 pipe at that clock allows (the invariant the ceilings
 * file's reader enforces as a percentage of at most 100). */
static void fma_counts_the_clock_it_ran_at(void **state)
{
    (void)state;
    GP_REQUIRE_GPU();
    gp_gpu g = open_gpu();
    const int blocks = g.sm_count * gp_fma_blocks_per_sm(0), iters = 1 << 16;
    void *out;
    unsigned long long *span, *h = calloc(2 * (size_t)blocks, sizeof *h);
    cudaEvent_t e0, e1;
    CK(cudaMalloc(&out, (size_t)blocks * GP_PROBE_THREADS * 4));
    CK(cudaMalloc((void **)&span, 2 * (size_t)blocks * sizeof *span));
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    CK(gp_fma_launch(0, out, iters, 0.9990234375, 0.0078125, blocks, NULL, 0));
    CK(cudaEventRecord(e0, 0));
    CK(gp_fma_launch(0, out, iters, 0.9990234375, 0.0078125, blocks, span, 0));
    CK(cudaEventRecord(e1, 0));
    CK(cudaEventSynchronize(e1));
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, e0, e1));
    CK(cudaMemcpy(h, span, 2 * (size_t)blocks * sizeof *h, cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; ++b)
        if (!(h[2 * b] > 0 && h[2 * b + 1] > 0))
            fail_msg("block %d: span %llu cycles, %llu ns", b, h[2 * b], h[2 * b + 1]);
    double mhz = gp_span_mhz(h, blocks), attr = g.sm_clock_khz / 1e3;
    double flops = 2.0 * GP_FMA_CHAINS * iters * (double)blocks * GP_PROBE_THREADS;
    double peak = g.sm_count * 128.0 * 2 * mhz * 1e6;  /* sm_90: 128 lanes */
    print_message("# counted %.1f MHz (max clock attribute %.0f); %.1f%% of the "
                  "FP32 peak at it\n", mhz, attr, 100 * flops / (ms * 1e-3) / peak);
    assert_true(mhz > 100 && mhz < 1.05 * attr);
    if (g.cc_major == 9 && g.cc_minor == 0)
        assert_true(flops / (ms * 1e-3) <= peak);
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    cudaFree(span);
    cudaFree(out);
    free(h);
}

/* Offline: the arithmetic of the spans and which clock a peak assumes. */
static void span_clock_and_peak_clock_choice(void **state)
{
    (void)state;
    const unsigned long long two[] = {1993000, 1000000, 3986000, 2000000};
    assert_near(gp_span_mhz(two, 2), 1993.0, 1e-9);
    const unsigned long long none[] = {5, 0};
    assert_true(isnan(gp_span_mhz(none, 1)));

    unsigned long long buf[3 * 2 * 2];
    gp_spans sp = {.blocks = 2, .d = NULL, .runs = 3};
    assert_null(gp_spans_next(&sp));           /* not open: calibration */
    assert_null(gp_spans_next(NULL));
    sp.d = buf;
    assert_ptr_equal(gp_spans_next(&sp), buf);
    assert_ptr_equal(gp_spans_next(&sp), buf + 4);
    assert_ptr_equal(gp_spans_next(&sp), buf + 8);
    assert_null(gp_spans_next(&sp));           /* more launches than runs */

    gp_gpu g = {.sm_clock_khz = 1755000};
    gp_probe_ctx x = {.g = &g};
    gp_clk c;
    char how[96];
    gp_clk_init(&c);
    assert_near(gp_clk_for_peak(&x, &c, how, sizeof how), 1755.0, 0);
    assert_non_null(strstr(how, "max clock attribute"));
    c.n = 1;
    c.sm_min = 1600;
    c.sm_max = 1710;
    assert_near(gp_clk_for_peak(&x, &c, how, sizeof how), 1710.0, 0);
    assert_non_null(strstr(how, "NVML"));
    c.counted_mhz = 1722.5;
    assert_near(gp_clk_for_peak(&x, &c, how, sizeof how), 1722.5, 0);
    assert_non_null(strstr(how, "counted"));
}

static void probe_options_checked_before_the_gpu(void **state)
{
    (void)state;
    char *help[] = {"probe", "--help", NULL};
    char *bad[] = {"probe", "--frobnicate", NULL};
    char *reps[] = {"probe", "--reps", "0", NULL};
    char *bytes[] = {"probe", "--probe-bytes", "lots", NULL};
    char *age[] = {"probe", "--max-age", "-3", NULL};
    char *noval[] = {"probe", "--out", NULL};
    char *extra[] = {"probe", "junk", NULL};
    assert_int_equal(gp_cmd_probe(2, help), 0);
    assert_int_equal(gp_cmd_probe(2, bad), 2);
    assert_int_equal(gp_cmd_probe(3, reps), 2);
    assert_int_equal(gp_cmd_probe(3, bytes), 2);
    assert_int_equal(gp_cmd_probe(3, age), 2);
    assert_int_equal(gp_cmd_probe(2, noval), 2);
    assert_int_equal(gp_cmd_probe(2, extra), 2);
}

static void probe_without_gpu_exits_2(void **state)
{
    (void)state;
    if (gp_gpu_count() > 0)
        GP_SKIP_BECAUSE("a GPU is visible (this checks the no-GPU path)");
    char *argv[] = {"probe", NULL};
    assert_int_equal(gp_cmd_probe(1, argv), 2);
    assert_int_equal(gp_sm_clock_now_mhz(0), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(probe_options_checked_before_the_gpu),
        cmocka_unit_test(probe_without_gpu_exits_2),
        cmocka_unit_test(stream_kernels_verified_elementwise),
        cmocka_unit_test(stream_unknown_variant_refused),
        cmocka_unit_test(fma_chains_verified_per_thread),
        cmocka_unit_test(fma_counts_the_clock_it_ran_at),
        cmocka_unit_test(span_clock_and_peak_clock_choice),
        cmocka_unit_test(sm_clock_is_plausible),
        cmocka_unit_test(full_probe_within_theoretical_and_file_reads_back),
        cmocka_unit_test(cache_reused_while_fresh),
    };
    return cmocka_run_group_tests_name("probes", tests, make_dir, remove_dir);
}
