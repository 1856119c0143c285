/* test_profiler.c - CPU: --metrics parsing, offline metric validation and
 * pass counting through the CUPTI host API (no GPU needed; skipped, with
 * the reason, only where libcupti cannot be loaded), the default metric
 * set on every chip CUPTI accepts, the --list-metrics catalogue, and the
 * one-line reasons for every way counters can be refused. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include "gpu/gpu.h"
#include "cupti/profiler.h"
#include "data/row.h"

static gp_metric_list list;
static char err[4096];

static void parse_ok(const char *spec)
{
    if (gp_metric_list_parse(spec, &list, err, sizeof err) != 0)
        fail_msg("parse \"%s\": %s", spec, err);
}

static void parse_fails(const char *spec, const char *needle)
{
    err[0] = '\0';
    if (gp_metric_list_parse(spec, &list, err, sizeof err) != -1)
        fail_msg("\"%s\" parsed (%d names) but must be rejected", spec, list.count);
    if (!strstr(err, needle))
        fail_msg("\"%s\": message \"%s\" lacks \"%s\"", spec, err, needle);
    assert_null(strchr(err, '\n'));
    assert_int_equal(list.count, 0);
}

static void parse_default_is_the_row_metrics(void **state)
{
    (void)state;
    parse_ok("default");
    assert_int_equal(list.count, GP_NMETRICS);
    for (int i = 0; i < GP_NMETRICS; i++)
        assert_string_equal(list.names[i], gp_metric_names[i]);
}

static void parse_none_is_empty(void **state)
{
    (void)state;
    parse_ok("none");
    assert_int_equal(list.count, 0);
}

static void parse_list_trims_and_drops_duplicates(void **state)
{
    (void)state;
    parse_ok(" dram__bytes_read.sum ,lts__t_bytes.sum,\tdram__bytes_read.sum");
    assert_int_equal(list.count, 2);
    assert_string_equal(list.names[0], "dram__bytes_read.sum");
    assert_string_equal(list.names[1], "lts__t_bytes.sum");
}

static void parse_default_plus_extra_metric(void **state)
{
    (void)state;
    parse_ok("default,sm__inst_executed.sum,lts__t_bytes.sum");
    assert_int_equal(list.count, GP_NMETRICS + 1);      /* lts is in default */
    assert_string_equal(list.names[GP_NMETRICS], "sm__inst_executed.sum");
    /* named as well as brought in by default: a chip lacking it is an error */
    for (int i = 0; i < list.count; i++)
        assert_int_equal(list.from_default[i],
                         i < GP_NMETRICS && strcmp(list.names[i], "lts__t_bytes.sum") != 0);
}

/* The run file has a column for each default metric and no others: a name
 * beyond them would be collected and dropped, so it is refused, by name. */
static void recordable_means_a_run_file_column(void **state)
{
    (void)state;
    parse_ok("default");
    assert_int_equal(gp_metric_list_recordable(&list, err, sizeof err), 0);
    parse_ok("dram__bytes_read.sum,lts__t_bytes.sum");
    assert_int_equal(gp_metric_list_recordable(&list, err, sizeof err), 0);
    parse_ok("default,sm__inst_executed.sum,lts__t_sectors_op_read.sum");
    assert_int_equal(gp_metric_list_recordable(&list, err, sizeof err), -1);
    assert_non_null(strstr(err, "no run-file column for sm__inst_executed.sum, "
                                "lts__t_sectors_op_read.sum ("));
    assert_non_null(strstr(err, "dram__bytes_read.sum"));
    assert_null(strchr(err, '\n'));
    char small[24];
    memset(small, 'x', sizeof small);
    assert_int_equal(gp_metric_list_recordable(&list, small, sizeof small), -1);
    assert_int_equal(strlen(small), sizeof small - 1);      /* cut, terminated */
}

static void parse_rejects_bad_lists(void **state)
{
    (void)state;
    parse_fails("", "empty");
    parse_fails("a.sum,,b.sum", "empty metric name");
    parse_fails("a.sum,", "empty metric name");
    parse_fails(",a.sum", "empty metric name");
    parse_fails("dram bytes", "bad character ' '");
    parse_fails("x.sum;rm", "bad character ';'");
    parse_fails("none,dram__bytes_read.sum", "\"none\" cannot be combined");
    char longname[300];
    memset(longname, 'a', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    parse_fails(longname, "too long");
}

static void parse_rejects_more_than_64_metrics(void **state)
{
    (void)state;
    char spec[2048] = "";
    for (int i = 0; i <= GP_MAX_METRICS; i++)
        snprintf(spec + strlen(spec), sizeof spec - strlen(spec), "%sm%d.sum",
                 i ? "," : "", i);
    parse_fails(spec, "too many metrics");
}

/* ---- offline CUPTI host API: skipped only where libcupti cannot load ---- */

static int validate_or_skip(const char *chip)
{
    int rc = gp_profiler_validate(&list, chip, err, sizeof err);
    if (rc == GP_PROFILER_NO_CUPTI) {
        print_message("SKIP reason: %s\n", err);
        skip();
    }
    return rc;
}

static void validate_default_list_for_gh100(void **state)
{
    (void)state;
    parse_ok("default");
    if (validate_or_skip("GH100") != 0)
        fail_msg("default metrics rejected for GH100: %s", err);
}

static void validate_names_every_bad_metric(void **state)
{
    (void)state;
    parse_ok("dram__bytes_read.sum,foo.bar,launch__registers_per_thread,lts__t_bytes.sum");
    assert_int_equal(validate_or_skip("GH100"), -1);
    assert_non_null(strstr(err, "GH100"));
    assert_non_null(strstr(err, "foo.bar, launch__registers_per_thread"));
    assert_non_null(strstr(err, "--list-metrics"));
    assert_null(strstr(err, "dram__bytes_read"));
    assert_null(strstr(err, "lts__t_bytes"));
    /* before the GPU's chip is known: bad on every chip CUPTI knows */
    assert_int_equal(validate_or_skip(NULL), -1);
    assert_non_null(strstr(err, "every chip CUPTI knows: foo.bar, launch__registers_per_thread "));
    /* a name only some chips have is not bad yet (GB202's DRAM counter) */
    parse_ok("dram__bytes_op_read.sum,dram__bytes_read.sum");
    assert_int_equal(validate_or_skip(NULL), 0);
}

/* The default set fitted offline to every chip CUPTI 13 accepts: never a
 * failure; a default metric the chip lacks leaves the list (its column NA)
 * and is named; what is left is a config CUPTI can schedule.  Measured
 * here with CUPTI 13.0: GB20x, GB10B and GA10B have no
 * dram__bytes_{read,write} (they call it dram__bytes_op_{read,write}), and
 * GV11B's host object cannot be created (CUPTI_ERROR_NOT_SUPPORTED).  The
 * tensor-path counters exist per chip too: GB202 has neither
 * sm__ops_path_tensor_src_fp16.sum nor ..._fp8.sum, GA100 neither, and
 * Volta and Turing none of the five; GH100 has all of them. */
static void default_metrics_fit_every_chip(void **state)
{
    (void)state;
    const char *const *chips;
    int n = gp_profiler_chips(&chips, err, sizeof err);
    if (n < 0) {
        print_message("SKIP reason: %s\n", err);
        skip();
    }
    int fitted = 0, gb202 = 0, gh100 = 0;
    for (int c = 0; c < n; c++) {
        char dropped[512];
        parse_ok("default");
        int rc = gp_profiler_fit(&list, chips[c], dropped, sizeof dropped, err, sizeof err);
        if (rc != 0) {      /* CUPTI's own refusal of the chip, said as such */
            print_message("%s: not fitted: %s\n", chips[c], err);
            assert_non_null(strstr(err, "cuptiProfilerHostInitialize"));
            continue;
        }
        fitted++;
        int missing = dropped[0] ? 1 : 0;
        for (const char *p = dropped; (p = strchr(p, ',')); p++)
            missing++;
        assert_int_equal(list.count + missing, GP_NMETRICS);
        if (gp_profiler_count_passes(&list, chips[c], err, sizeof err) < 1)
            fail_msg("%s: the fitted default set cannot be scheduled: %s", chips[c], err);
        if (!strcmp(chips[c], "GB202")) {
            gb202 = 1;
            assert_string_equal(dropped, "dram__bytes_read.sum, dram__bytes_write.sum, "
                                         "sm__ops_path_tensor_src_fp16.sum, "
                                         "sm__ops_path_tensor_src_fp8.sum");
        }
        if (!strcmp(chips[c], "GH100")) {
            gh100 = 1;
            assert_string_equal(dropped, "");
        }
        print_message("%s: %d of %d default metrics%s%s\n", chips[c], list.count,
                      GP_NMETRICS, dropped[0] ? "; NA: " : "", dropped);
    }
    assert_true(gb202 && gh100);
    assert_true(fitted >= n - 1);
}

/* Named explicitly, a metric the chip lacks is bad input, not an NA column. */
static void explicit_metric_missing_on_the_chip_is_refused(void **state)
{
    (void)state;
    char dropped[512];
    parse_ok("default,dram__bytes_read.sum");
    int rc = gp_profiler_fit(&list, "GB202", dropped, sizeof dropped, err, sizeof err);
    if (rc == GP_PROFILER_NO_CUPTI) {
        print_message("SKIP reason: %s\n", err);
        skip();
    }
    assert_int_equal(rc, -1);
    assert_non_null(strstr(err, "unknown metric for GB202: dram__bytes_read.sum"));
    assert_null(strstr(err, "dram__bytes_write"));   /* that one is a default */
    parse_ok("default");
    assert_int_equal(gp_profiler_fit(&list, "NOSUCHCHIP", dropped, sizeof dropped,
                                     err, sizeof err), -1);
    assert_non_null(strstr(err, "unknown chip 'NOSUCHCHIP' (CUPTI knows: GV100 "));
}

static void validate_rejects_unknown_chip(void **state)
{
    (void)state;
    parse_ok("dram__bytes_read.sum");
    assert_int_equal(validate_or_skip("NOSUCHCHIP"), -1);
    assert_non_null(strstr(err, "NOSUCHCHIP"));
}

static void validate_empty_list_needs_no_cupti(void **state)
{
    (void)state;
    parse_ok("none");
    assert_int_equal(gp_profiler_validate(&list, "GH100", err, sizeof err), 0);
}

static void count_passes_grows_with_the_list(void **state)
{
    (void)state;
    parse_ok("sm__sass_thread_inst_executed_op_ffma_pred_on.sum");
    validate_or_skip("GH100");
    int one = gp_profiler_count_passes(&list, "GH100", err, sizeof err);
    if (one < 0)
        fail_msg("%s", err);
    assert_int_equal(one, 1);            /* a single counter is one pass */

    parse_ok("default");
    int dflt = gp_profiler_count_passes(&list, "GH100", err, sizeof err);
    parse_ok("default,sm__throughput.avg.pct_of_peak_sustained_elapsed");
    int more = gp_profiler_count_passes(&list, "GH100", err, sizeof err);
    print_message("passes on GH100: default %d, default+sm__throughput %d\n", dflt, more);
    assert_true(dflt >= 1);
    assert_true(more > dflt);            /* sm__throughput is a many-pass breakdown */
    /* The tensor-path counters conflict with each other (the five alone
     * need 4 passes) and take the default set from 3 passes to 5, counted
     * with CUPTI 13.0's host API: every further pass costs a kernel-replay
     * save and restore in gemmprof trace, so keep an eye on it. */
    assert_int_equal(dflt, 5);

    parse_ok("dram__bytes_read.sum,no_such_metric.sum");
    assert_int_equal(gp_profiler_count_passes(&list, "GH100", err, sizeof err), -1);
    assert_non_null(strstr(err, "no_such_metric.sum"));
}

static int in_list(const gp_metric_list *l, const char *name)
{
    int n = 0;
    for (int i = 0; i < l->count; i++)
        n += strcmp(l->names[i], name) == 0;
    return n;
}

/* --tensor-counters auto: the gated list is the default less its five
 * tensor-path counters plus the three counts, once each, and on GH100 it
 * takes 3 passes where the default takes 5 (CUPTI 13.0's host API). */
static void tensor_gate_list_drops_the_tensor_path(void **state)
{
    (void)state;
    gp_metric_list gated;
    parse_ok("default");
    assert_int_equal(gp_tensor_gate_list(&list, &gated), 0);
    assert_int_equal(gated.count, list.count - 5 + 3);
    for (int i = 0; i < gated.count; i++)
        assert_false(gp_metric_is_tensor_path(gated.names[i]));
    assert_int_equal(in_list(&gated, GP_GATE_PIPE_TENSOR), 1);
    assert_int_equal(in_list(&gated, GP_GATE_HFMA2_MMA), 1);
    assert_int_equal(in_list(&gated, GP_GATE_INT_MMA), 1);
    assert_int_equal(in_list(&gated, "dram__bytes_read.sum"), 1);
    assert_true(gp_metric_is_tensor_path("sm__ops_path_tensor_src_fp16.sum"));
    assert_false(gp_metric_is_tensor_path("sm__inst_executed_pipe_tensor.sum"));

    /* nothing to gate without a tensor-path counter */
    parse_ok("dram__bytes_read.sum,gpu__time_duration.sum");
    assert_int_equal(gp_tensor_gate_list(&list, &gated), -1);
    /* a count already asked for is not added twice */
    parse_ok("sm__inst_executed_pipe_tensor.sum,sm__ops_path_tensor_src_fp64.sum");
    assert_int_equal(gp_tensor_gate_list(&list, &gated), 0);
    assert_int_equal(gated.count, 3);
    assert_int_equal(in_list(&gated, GP_GATE_PIPE_TENSOR), 1);

    parse_ok("default");
    validate_or_skip("GH100");
    assert_int_equal(gp_tensor_gate_list(&list, &gated), 0);
    int full = gp_profiler_count_passes(&list, "GH100", err, sizeof err);
    int less = gp_profiler_count_passes(&gated, "GH100", err, sizeof err);
    print_message("passes on GH100: default %d, gated %d\n", full, less);
    assert_int_equal(full, 5);
    assert_int_equal(less, 3);
}

/* The math instructions: pipe less HFMA2.MMA less integer MMA, in any
 * order of the list; unknown (NAN) when a count is missing or the
 * difference is negative, never 0 (0 sets the tensor-path counters). */
static void tensor_gate_count_subtracts_the_non_math(void **state)
{
    (void)state;
    gp_metric_list l;
    parse_ok(GP_GATE_INT_MMA "," GP_GATE_PIPE_TENSOR ",dram__bytes_read.sum,"
             GP_GATE_HFMA2_MMA);
    l = list;
    double v[4] = { 10, 4234, 1e6, 4224 };        /* imma, pipe, bytes, hfma2 */
    assert_true(gp_tensor_gate_count(&l, v) == 0);
    v[1] = 4235;
    assert_true(gp_tensor_gate_count(&l, v) == 1);
    v[1] = 4000;                                  /* below the parts: unknown */
    assert_true(isnan(gp_tensor_gate_count(&l, v)));
    v[1] = NAN;
    assert_true(isnan(gp_tensor_gate_count(&l, v)));
    parse_ok(GP_GATE_PIPE_TENSOR "," GP_GATE_HFMA2_MMA);  /* imma not measured */
    l = list;
    double w[2] = { 5, 5 };
    assert_true(isnan(gp_tensor_gate_count(&l, w)));
}

static void list_metrics_prints_the_catalogue(void **state)
{
    (void)state;
    FILE *f = tmpfile();
    assert_non_null(f);
    int rc = gp_profiler_list_metrics("GH100", f, err, sizeof err);
    if (rc == GP_PROFILER_NO_CUPTI) {
        fclose(f);
        print_message("SKIP reason: %s\n", err);
        skip();
    }
    if (rc != 0)
        fail_msg("%s", err);
    rewind(f);
    char line[4096], prev[4096] = "";
    int names = 0, dram = 0, warps = 0, sorted = 1, comments = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#') {
            comments += strstr(line, ".sum") != NULL;
            continue;
        }
        names++;
        dram += !strncmp(line, "dram__bytes_read\tcounter\t", 25);
        warps += !strncmp(line, "sm__warps_active\t", 17);
        sorted &= strcmp(prev, line) <= 0;
        snprintf(prev, sizeof prev, "%s", line);
    }
    fclose(f);
    assert_true(names > 1000);           /* GH100 has thousands of base metrics */
    assert_int_equal(dram, 1);
    assert_int_equal(warps, 1);
    assert_true(sorted);
    assert_true(comments >= 1);          /* the suffix line names ".sum" */
}

/* ---- reasons ---- */

static void explains(int code, const char *needle)
{
    char buf[512];
    const char *s = gp_profiler_explain(code, buf, sizeof buf);
    assert_ptr_equal(s, buf);
    if (!strstr(buf, needle))
        fail_msg("reason for %d is \"%s\", lacks \"%s\"", code, buf, needle);
    assert_null(strchr(buf, '\n'));
}

static void explain_names_the_fix_for_each_refusal(void **state)
{
    (void)state;
    explains(35, "restricted to admin users (ERR_NVGPUCTRPERM)");
    explains(35, "CAP_PERFMON");
    explains(35, "options nvidia NVreg_RestrictProfilingToAdminUsers=0");
    explains(35, "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES");
    explains(39, "another profiler (ncu/nsys) holds the counters: run gemmprof outside it");
    explains(40, "vGPU");
    explains(33, "virtualized GPU");
    explains(41, "confidential computing");
    explains(42, "CMP");
    explains(43, "MIG");
    explains(44, "SLI");
    explains(45, "WSL");
    explains(27, "compute capability 7.0");
    explains(46, "CUDA toolkit");
    explains(15, "driver");
    explains(26, "busy");
    explains(999, "CUPTI_ERROR_UNKNOWN");
    explains(GP_PROF_LIBCUPTI_MISSING,
             "libcupti.so.13 not found (install the CUDA toolkit's CUPTI or set LD_LIBRARY_PATH)");
    explains(GP_PROF_DRIVER_MISSING, "libcuda.so.1");
    explains(GP_PROF_NO_DEVICE, "CUDA_VISIBLE_DEVICES");
    explains(12345, "12345");
}

static void explain_truncates_to_the_buffer(void **state)
{
    (void)state;
    char small[8];
    gp_profiler_explain(35, small, sizeof small);
    assert_int_equal(strlen(small), sizeof small - 1);
}

/* CUPTI segfaults when called without a driver or device: begin must stop
 * before it, with a reason. */
static void begin_without_gpu_returns_a_reason(void **state)
{
    (void)state;
    if (gp_gpu_count() > 0) {
        print_message("SKIP reason: a GPU is visible (this checks the no-GPU path)\n");
        skip();
    }
    char why[512] = "";
    parse_ok("default");
    gp_profiler *p = gp_profiler_begin(&list, why, sizeof why);
    assert_null(p);
    print_message("begin without GPU: %s\n", why);
    assert_true(strlen(why) > 10);
    assert_null(strchr(why, '\n'));
    assert_true(gp_profiler_seconds(NULL) == 0.0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(parse_default_is_the_row_metrics),
        cmocka_unit_test(parse_none_is_empty),
        cmocka_unit_test(parse_list_trims_and_drops_duplicates),
        cmocka_unit_test(parse_default_plus_extra_metric),
        cmocka_unit_test(recordable_means_a_run_file_column),
        cmocka_unit_test(parse_rejects_bad_lists),
        cmocka_unit_test(parse_rejects_more_than_64_metrics),
        cmocka_unit_test(validate_default_list_for_gh100),
        cmocka_unit_test(validate_names_every_bad_metric),
        cmocka_unit_test(default_metrics_fit_every_chip),
        cmocka_unit_test(explicit_metric_missing_on_the_chip_is_refused),
        cmocka_unit_test(validate_rejects_unknown_chip),
        cmocka_unit_test(validate_empty_list_needs_no_cupti),
        cmocka_unit_test(count_passes_grows_with_the_list),
        cmocka_unit_test(tensor_gate_list_drops_the_tensor_path),
        cmocka_unit_test(tensor_gate_count_subtracts_the_non_math),
        cmocka_unit_test(list_metrics_prints_the_catalogue),
        cmocka_unit_test(explain_names_the_fix_for_each_refusal),
        cmocka_unit_test(explain_truncates_to_the_buffer),
        cmocka_unit_test(begin_without_gpu_returns_a_reason),
    };
    return cmocka_run_group_tests_name("profiler", tests, NULL, NULL);
}
