/* test_scrub_effect.c - GPU: each L2 scrub (gpu/scrub.h) really empties L2
 * of what was there.  An 8 MiB buffer, far smaller than L2, is read once to
 * bring it in, then the scrub under test runs, then a read of the buffer is
 * profiled (CUPTI, dram__bytes_read.sum): after a scrub that evicts, DRAM
 * serves at least 90% of it; with no scrub (--cache-control none) L2 serves
 * it and DRAM reads under 10%, which shows the test can tell the two apart.
 * SKIP without a GPU or where counters are refused; with
 * GEMMPROF_REQUIRE_GPU=1 both fail. */
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
#include "cupti/profiler.h"

#define PROBE_BYTES ((size_t)8 << 20)

static gp_profiler *prof;
static void *probe_buf, *scrub_buf;
static size_t scrub_bytes;
static const gp_scrub read_once = { GP_SCRUB_READ, 1, 1, 0 };

/* The measured launch: one read pass over the probe buffer. */
static int read_probe(const gemm_args *a, cudaStream_t s, gp_launch_info *info)
{
    (void)a;
    (void)info;
    return gp_scrub_run(&read_once, probe_buf, PROBE_BYTES, s);
}

/* Before each pass: the probe buffer into L2, then the scrub under test. */
static int warm_then_scrub(void *ctx)
{
    const gp_scrub *s = ctx;
    int e = gp_scrub_run(&read_once, probe_buf, PROBE_BYTES, 0);
    if (!e)
        e = gp_scrub_run(s, scrub_buf, scrub_bytes, 0);
    return e ? e : (int)cudaDeviceSynchronize();
}

static int teardown(void **state)
{
    (void)state;
    gp_profiler_end(prof);
    cudaFree(probe_buf);
    cudaFree(scrub_buf);
    return 0;
}

/* DRAM bytes the probe read took after scrub `spec`. */
static double dram_read_after(const char *spec)
{
    GP_REQUIRE_GPU();
    char err[512];
    gp_scrub s;
    if (gp_scrub_parse(spec, &s, err, sizeof err) != 0)
        fail_msg("%s: %s", spec, err);
    if (!prof) {
        gp_metric_list list;
        if (gp_metric_list_parse("dram__bytes_read.sum", &list, err, sizeof err) != 0)
            fail_msg("%s", err);
        if (!(prof = gp_profiler_begin(&list, err, sizeof err))) {
            const char *req = getenv("GEMMPROF_REQUIRE_GPU");
            if (req && !strcmp(req, "1"))
                fail_msg("counters unavailable but GEMMPROF_REQUIRE_GPU=1: %s", err);
            print_message("SKIP reason: counters unavailable: %s\n", err);
            skip();
        }
    }
    int dev = 0, l2 = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev);
    size_t need = gp_scrub_bytes(&s, (size_t)l2);
    if (!probe_buf && (cudaMalloc(&probe_buf, PROBE_BYTES) ||
                       cudaMemset(probe_buf, 0, PROBE_BYTES)))
        fail_msg("cudaMalloc of the probe buffer failed");
    if (need > scrub_bytes) {
        cudaFree(scrub_buf);
        scrub_buf = NULL;
        if (cudaMalloc(&scrub_buf, need) || cudaMemset(scrub_buf, 0, need))
            fail_msg("cudaMalloc of %zu bytes of scrub buffer failed", need);
        scrub_bytes = need;
    }
    const gp_kernel k = { "probe_read", GP_FP32, "", read_probe };
    gemm_args a;
    memset(&a, 0, sizeof a);
    gp_row r;
    gp_row_init(&r);
    if (gp_profiler_collect(prof, &k, &a, warm_then_scrub, &s, &r, err, sizeof err) < 0)
        fail_msg("%s: %s", spec, err);
    int n;
    double rd = gp_profiler_values(prof, &n)[0];
    print_message("%s: DRAM read %.0f of %zu bytes\n", spec, rd, PROBE_BYTES);
    if (isnan(rd))
        fail_msg("%s: dram__bytes_read.sum is NA", spec);
    return rd;
}

static void scrub_evicts(void **state)
{
    const char *spec = *state;
    double rd = dram_read_after(spec);
    if (!(rd >= 0.9 * PROBE_BYTES))
        fail_msg("after scrub %s the probe read took %.0f bytes from DRAM, want at "
                 "least 90%% of %zu: L2 kept it", spec, rd, PROBE_BYTES);
}

static void no_scrub_keeps_l2(void **state)
{
    (void)state;
    double rd = dram_read_after("none");
    if (!(rd <= 0.1 * PROBE_BYTES))
        fail_msg("without a scrub the probe read took %.0f bytes from DRAM, want "
                 "under 10%% of %zu: the test cannot see a scrub", rd, PROBE_BYTES);
}

int main(void)
{
    static const char *const specs[] = { "read", "read:p2", "read:x4", "write",
                                         "write-read", "flush", "flush:p2" };
    static char names[sizeof specs / sizeof specs[0]][64];
    struct CMUnitTest t[sizeof specs / sizeof specs[0] + 1];
    size_t n = 0;
    t[n++] = (struct CMUnitTest){ "scrub_effect/none_keeps_the_probe_in_l2",
                                  no_scrub_keeps_l2, NULL, NULL, NULL };
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        snprintf(names[i], sizeof names[i], "scrub_effect/%s_evicts_the_probe", specs[i]);
        t[n++] = (struct CMUnitTest){ names[i], scrub_evicts, NULL, NULL, (void *)specs[i] };
    }
    return _cmocka_run_group_tests("scrub_effect", t, n, NULL, teardown);
}
