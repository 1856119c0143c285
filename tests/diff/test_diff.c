/* test_diff.c - `gemmprof diff` on the committed fixtures in
 * tests/fixtures/diff/ (synthetic runs): verdicts, exit codes, the cause
 * line and its order, metadata first, one message per kind of bad input,
 * and every output format read back. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff/diff.h"

#define FIX "tests/fixtures/diff/"

static const gp_diff_opts defaults = { .threshold_pct = GP_DIFF_THRESHOLD_DEFAULT };
static gp_diff d;
static char err[1024];

static void load_ok(const char *base, const char *cur, const gp_diff_opts *o)
{
    if (gp_diff_load(base, cur, o, &d, err, sizeof err) != 0)
        fail_msg("gp_diff_load(%s, %s): %s", base, cur, err);
}

/* The exit code of the whole command, its output in *text (caller frees). */
static int run_files(const char *base, const char *cur, const gp_diff_opts *o,
                     gp_diff_format fmt, char **text)
{
    size_t len = 0;
    FILE *f = open_memstream(text, &len);
    assert_non_null(f);
    int rc = gp_diff_files(base, cur, o, fmt, f);
    fclose(f);
    return rc;
}

static const gp_diff_row *find(const char *kernel)
{
    for (int i = 0; i < d.nrows; i++)
        if (strcmp(d.rows[i].cur->kernel, kernel) == 0)
            return &d.rows[i];
    fail_msg("no pair for kernel %s", kernel);
    return NULL;
}

static void identical_files_exit_0(void **state)
{
    (void)state;
    char *text = NULL;
    assert_int_equal(run_files(FIX "base.csv", FIX "base.csv", &defaults,
                               GP_DIFF_TEXT, &text), 0);
    assert_non_null(strstr(text, "4 pairs: 0 regressed, 0 faster, 4 within 5%"));
    assert_null(strstr(text, "warning"));
    free(text);
}

static void remeasured_run_within_noise_exits_0(void **state)
{
    (void)state;
    load_ok(FIX "base.csv", FIX "same.csv", &defaults);
    assert_int_equal(d.nregressed, 0);
    assert_int_equal(d.nrows, 4);
    for (int i = 0; i < d.nrows; i++)
        assert_int_equal(d.rows[i].verdict, GP_DIFF_SAME);
    /* a new commit is a note, not a warning */
    assert_int_equal(d.nmeta, 1);
    assert_string_equal(d.meta[0].key, "git_commit");
    assert_int_equal(d.meta[0].warning, 0);
    gp_diff_free(&d);
}

static void spilling_row_regresses_with_its_cause(void **state)
{
    (void)state;
    load_ok(FIX "base.csv", FIX "spill.csv", &defaults);
    assert_int_equal(d.nregressed, 1);
    const gp_diff_row *r = &d.rows[0];          /* most severe first */
    assert_string_equal(r->cur->kernel, "double_buffer");
    assert_int_equal(r->verdict, GP_DIFF_SLOWER);
    assert_true(r->change_pct < -44 && r->change_pct > -45);
    assert_string_equal(r->cause,
        "now spills 96 B/thread: registers 64 -> 128, local traffic 0 -> 1.2 GB; "
        "occupancy 50% -> 25% limited by registers, "
        "achieved occupancy 48% -> 24.1%");
    /* 3% slower is within the threshold, 10% faster is faster */
    assert_int_equal(find("smem")->verdict, GP_DIFF_SAME);
    assert_int_equal(find("naive")->verdict, GP_DIFF_FASTER);
    assert_int_equal(find("cublas")->verdict, GP_DIFF_SAME);
    gp_diff_free(&d);

    char *text = NULL;
    assert_int_equal(run_files(FIX "base.csv", FIX "spill.csv", &defaults,
                               GP_DIFF_TEXT, &text), 1);
    assert_non_null(strstr(text, "REGRESSED"));
    assert_non_null(strstr(text, "cause: now spills 96 B/thread: registers 64 -> 128"));
    free(text);
}

static void threshold_decides_what_regressed(void **state)
{
    (void)state;
    /* at 50% only the new spill still counts: it is flagged as such */
    gp_diff_opts loose = { .threshold_pct = 50 };
    load_ok(FIX "base.csv", FIX "spill.csv", &loose);
    assert_int_equal(d.nregressed, 1);
    assert_int_equal(d.rows[0].verdict, GP_DIFF_SPILLS);
    gp_diff_free(&d);
    gp_diff_opts tight = { .threshold_pct = 2 };
    load_ok(FIX "base.csv", FIX "spill.csv", &tight);
    assert_int_equal(d.nregressed, 2);          /* smem's 2.9% now counts */
    assert_int_equal(find("smem")->verdict, GP_DIFF_SLOWER);
    gp_diff_free(&d);
}

static void different_gpu_is_shown_first(void **state)
{
    (void)state;
    load_ok(FIX "base.csv", FIX "other-gpu.csv", &defaults);
    assert_true(d.nmeta >= 2);
    assert_string_equal(d.meta[0].key, "gpu_name");
    assert_int_equal(d.meta[0].warning, 1);
    assert_string_equal(d.meta[0].message, "different GPU: NVIDIA H100 80GB HBM3 "
                        "-> NVIDIA H200: not a like-for-like comparison");
    /* slower everywhere with no kernel fact changed: the cause says so */
    for (int i = 0; i < d.nrows; i++) {
        assert_true(d.rows[i].regressed);
        assert_non_null(strstr(d.rows[i].cause, "no kernel fact changed; the runs "
                                                "differ (different GPU"));
    }
    gp_diff_free(&d);

    char *text = NULL;
    run_files(FIX "base.csv", FIX "other-gpu.csv", &defaults, GP_DIFF_TEXT, &text);
    char *gpu = strstr(text, "warning: different GPU: NVIDIA H100 80GB HBM3 -> NVIDIA H200");
    char *row = strstr(text, "REGRESSED");
    assert_non_null(gpu);
    assert_non_null(row);
    assert_true(gpu < row);
    /* the second line of the output, right after the header */
    assert_ptr_equal(gpu, strchr(text, '\n') + 1);
    free(text);
}

static void stopped_verifying_regresses_at_any_speed(void **state)
{
    (void)state;
    load_ok(FIX "base.csv", FIX "broken.csv", &defaults);
    assert_int_equal(d.nregressed, 1);
    const gp_diff_row *r = &d.rows[0];
    assert_string_equal(r->cur->kernel, "smem");
    assert_int_equal(r->verdict, GP_DIFF_BROKEN);
    assert_true(fabs(r->change_pct) < 1e-9);
    assert_string_equal(r->cause, "stopped verifying: error 0.031 > tolerance 6.1e-05");
    gp_diff_free(&d);
    char *text = NULL;
    assert_int_equal(run_files(FIX "base.csv", FIX "broken.csv", &defaults,
                               GP_DIFF_TEXT, &text), 1);
    assert_non_null(strstr(text, "BROKEN"));
    free(text);
}

static void pair_compares_two_variants_of_one_file(void **state)
{
    (void)state;
    gp_diff_opts o = { .threshold_pct = GP_DIFF_THRESHOLD_DEFAULT,
                       .pair_base = "specimen_uint", .pair_new = "specimen_sizet" };
    load_ok(FIX "specimens.csv", FIX "specimens.csv", &o);
    assert_int_equal(d.nrows, 1);
    assert_int_equal(d.nonly_base + d.nonly_cur, 0);
    assert_string_equal(d.rows[0].base->kernel, "specimen_uint");
    assert_string_equal(d.rows[0].cur->kernel, "specimen_sizet");
    assert_true(d.rows[0].regressed);
    assert_string_equal(d.rows[0].cause, "now spills 44 B/thread: local traffic 0 -> 5.8 GB");
    gp_diff_free(&d);
    /* without --pair the file against itself is all the same */
    load_ok(FIX "specimens.csv", FIX "specimens.csv", &defaults);
    assert_int_equal(d.nrows, 2);
    assert_int_equal(d.nregressed, 0);
    gp_diff_free(&d);
}

/* A gate: NEW that lost rows fails (exit 1, each row named) unless
 * --allow-missing; rows only in NEW never fail. */
static void lost_rows_fail_unless_allowed(void **state)
{
    (void)state;
    load_ok(FIX "base.csv", FIX "lost-rows.csv", &defaults);
    assert_int_equal(d.nrows, 2);
    assert_int_equal(d.nregressed, 0);
    assert_int_equal(d.nonly_base, 2);
    assert_true(gp_diff_failed(&d));
    gp_diff_free(&d);
    char *text = NULL;
    assert_int_equal(run_files(FIX "base.csv", FIX "lost-rows.csv", &defaults,
                               GP_DIFF_TEXT, &text), 1);
    assert_non_null(strstr(text, "MISSING             naive fp32 4096x4096x4096 32x32  "
                                 "(only in base)\n"));
    assert_non_null(strstr(text, "MISSING             smem fp32 4096x4096x4096 "
                                 "32x32x32  (only in base)\n"));
    free(text);
    gp_diff_opts allow = defaults;
    allow.allow_missing = 1;
    assert_int_equal(run_files(FIX "base.csv", FIX "lost-rows.csv", &allow,
                               GP_DIFF_TEXT, &text), 0);
    assert_non_null(strstr(text, "2 rows only in base (allowed)"));
    free(text);
    assert_int_equal(run_files(FIX "lost-rows.csv", FIX "base.csv", &defaults,
                               GP_DIFF_TEXT, &text), 0);
    assert_non_null(strstr(text, "new                 naive fp32"));
    free(text);
}

/* gp_diff_load fails with a message containing `want`, and the command
 * exits 2. */
static void bad(const char *base, const char *cur, const char *want)
{
    if (gp_diff_load(base, cur, &defaults, &d, err, sizeof err) == 0)
        fail_msg("%s vs %s loaded, wanted '%s'", base, cur, want);
    gp_diff_free(&d);
    if (!strstr(err, want))
        fail_msg("%s vs %s: message '%s', wanted '%s'", base, cur, err, want);
    assert_null(strchr(err, '\n'));
    char *text = NULL;
    assert_int_equal(run_files(base, cur, &defaults, GP_DIFF_TEXT, &text), 2);
    free(text);
}

static void bad_input_exits_2_naming_the_problem(void **state)
{
    (void)state;
    bad(FIX "base.csv", FIX "missing.csv", FIX "missing.csv: No such file");
    bad(FIX "missing.csv", FIX "base.csv", FIX "missing.csv: No such file");
    bad(FIX "base.csv", FIX "malformed.csv",
        FIX "malformed.csv:17:33: column time_ms: '27x5.8' is not a number");
    bad(FIX "base.csv", FIX "schema2.csv", FIX "schema2.csv:2:11: schema "
        "'gemmprof-run/2': this gemmprof reads gemmprof-run/1");
    bad(FIX "base.csv", FIX "other-size.csv", "no common rows: " FIX "base.csv has 4");
    bad(FIX "base.csv", "tests/fixtures/ceilings-fixture.csv", "no column 'kernel'");
}

static void baseline_file_is_checked_before_a_run(void **state)
{
    (void)state;
    assert_int_equal(gp_diff_check_file(FIX "base.csv", err, sizeof err), 0);
    assert_int_equal(gp_diff_check_file(FIX "nope.csv", err, sizeof err), -1);
    assert_non_null(strstr(err, "nope.csv"));
    assert_int_equal(gp_diff_check_file(FIX "malformed.csv", err, sizeof err), -1);
    assert_non_null(strstr(err, "malformed.csv:17"));
}

static double jnum(json_t *o, const char *fact, const char *side)
{
    json_t *v = json_object_get(json_object_get(o, fact), side);
    if (!json_is_number(v))
        fail_msg("%s.%s is not a number", fact, side);
    return json_number_value(v);
}

static void json_output_parses_back(void **state)
{
    (void)state;
    char *text = NULL;
    assert_int_equal(run_files(FIX "base.csv", FIX "spill.csv", &defaults,
                               GP_DIFF_JSON, &text), 1);
    json_error_t je;
    json_t *doc = json_loads(text, 0, &je);
    if (!doc)
        fail_msg("JSON does not parse: line %d: %s", je.line, je.text);
    free(text);
    assert_true(json_is_true(json_object_get(doc, "regressed")));
    json_t *sum = json_object_get(doc, "summary");
    assert_int_equal(json_integer_value(json_object_get(sum, "pairs")), 4);
    assert_int_equal(json_integer_value(json_object_get(sum, "regressed")), 1);
    json_t *rows = json_object_get(doc, "rows");
    assert_int_equal(json_array_size(rows), 4);
    json_t *r = json_array_get(rows, 0);
    assert_string_equal(json_string_value(json_object_get(r, "kernel")), "double_buffer");
    assert_string_equal(json_string_value(json_object_get(r, "verdict")), "regressed");
    assert_non_null(strstr(json_string_value(json_object_get(r, "cause")), "now spills"));
    assert_true(jnum(r, "spill_store_bytes", "base") == 0);
    assert_true(jnum(r, "spill_store_bytes", "new") == 96);
    assert_true(jnum(r, "local_traffic_bytes", "new") == 1.2e9);
    assert_true(jnum(r, "regs_per_thread", "new") == 128);
    /* NA is null: cuBLAS has no registers */
    json_t *cub = NULL;
    for (size_t i = 0; i < json_array_size(rows); i++)
        if (!strcmp(json_string_value(json_object_get(json_array_get(rows, i), "kernel")),
                    "cublas"))
            cub = json_array_get(rows, i);
    assert_non_null(cub);
    assert_true(json_is_null(json_object_get(json_object_get(cub, "regs_per_thread"), "new")));
    json_decref(doc);

    /* metadata warnings are in it too */
    run_files(FIX "base.csv", FIX "other-gpu.csv", &defaults, GP_DIFF_JSON, &text);
    doc = json_loads(text, 0, &je);
    free(text);
    assert_non_null(doc);
    json_t *m0 = json_array_get(json_object_get(doc, "metadata"), 0);
    assert_string_equal(json_string_value(json_object_get(m0, "key")), "gpu_name");
    assert_true(json_is_true(json_object_get(m0, "warning")));
    assert_string_equal(json_string_value(json_object_get(m0, "new")), "NVIDIA H200");
    json_decref(doc);
}

static int count(const char *s, const char *what)
{
    int n = 0;
    for (; (s = strstr(s, what)); s += strlen(what))
        n++;
    return n;
}

static void markdown_is_one_table_and_the_causes(void **state)
{
    (void)state;
    char *text = NULL;
    assert_int_equal(run_files(FIX "base.csv", FIX "spill.csv", &defaults,
                               GP_DIFF_MD, &text), 1);
    assert_non_null(strstr(text, "| verdict | kernel |"));
    assert_int_equal(count(text, "\n| "), 1 + 4);   /* header + a line per pair */
    assert_non_null(strstr(text, "| **regressed** | double_buffer |"));
    assert_non_null(strstr(text, "### Probable causes"));
    assert_non_null(strstr(text, "(**regressed**): now spills 96 B/thread"));
    free(text);
}

/* Two rows that differ in everything the cause weighs. */
static void everything_changed(gp_row *b, gp_row *n)
{
    gp_row_init(b);
    strcpy(b->kernel, "k");
    b->gflops = 1000;
    b->regs_per_thread = 64;
    b->spill_store_bytes = 0;
    b->local_bytes_per_thread = 0;
    b->metric[GP_M_LOCAL_LD] = b->metric[GP_M_LOCAL_ST] = 0;
    b->occupancy_theoretical = 50;
    strcpy(b->occupancy_limiter, "registers");
    b->metric[GP_M_DRAM_READ] = 1e9;
    b->metric[GP_M_DRAM_WRITE] = 0;
    b->bank_conflict_ratio = 0.0;
    b->verified = 1;
    b->sm_clock_mhz = 1980;
    *n = *b;
    n->gflops = 900;
    n->regs_per_thread = 255;
    n->spill_store_bytes = 8;
    n->metric[GP_M_LOCAL_LD] = 3e6;
    n->occupancy_theoretical = 25;
    n->metric[GP_M_DRAM_READ] = 2e9;
    n->bank_conflict_ratio = 0.5;
    n->verified = 0;
    n->rel_err_fro = 1;
    n->tolerance = 1e-4;
    n->sm_clock_mhz = 1500;
}

static void cause_weighs_spills_then_occupancy_dram_conflicts_verify_clock(void **state)
{
    (void)state;
    gp_row b, n;
    gp_diff_row r;
    everything_changed(&b, &n);
    gp_diff_rows(&b, &n, 5, &r);
    assert_int_equal(r.verdict, GP_DIFF_BROKEN);
    assert_int_equal(r.facts_changed, 6);
    assert_string_equal(r.cause,
        "now spills 8 B/thread: registers 64 -> 255, local traffic 0 -> 3 MB; "
        "occupancy 50% -> 25% limited by registers; DRAM traffic 1 GB -> 2 GB; "
        "bank-conflict ratio 0.00 -> 0.50; stopped verifying: error 1 > tolerance "
        "0.0001; SM clock 1980 -> 1500 MHz");
}

/* The specimen's case: 4% slower (inside the 5% threshold) but it now
 * spills: flagged, with the spill as the cause. */
static void new_spill_inside_threshold_is_a_regression(void **state)
{
    (void)state;
    gp_row b, n;
    gp_diff_row r;
    everything_changed(&b, &n);
    n = b;
    n.gflops = b.gflops * 0.96;
    n.spill_store_bytes = 44;
    n.spill_load_bytes = 44;
    n.metric[GP_M_LOCAL_ST] = 11534336;
    gp_diff_rows(&b, &n, 5, &r);
    assert_int_equal(r.verdict, GP_DIFF_SPILLS);
    assert_true(r.regressed);
    assert_string_equal(gp_diff_verdict_name(r.verdict), "now spills");
    assert_int_equal(strncmp(r.cause, "now spills 44 B/thread", 22), 0);
    /* the same slowdown without the spill is within the threshold */
    n.spill_store_bytes = n.spill_load_bytes = 0;
    n.metric[GP_M_LOCAL_ST] = 0;
    gp_diff_rows(&b, &n, 5, &r);
    assert_int_equal(r.verdict, GP_DIFF_SAME);
    assert_false(r.regressed);
}

static void verdicts_of_single_pairs(void **state)
{
    (void)state;
    gp_row b, n;
    gp_diff_row r;
    everything_changed(&b, &n);
    n = b;
    gp_diff_rows(&b, &n, 5, &r);
    assert_int_equal(r.verdict, GP_DIFF_SAME);
    assert_string_equal(r.cause, "");
    assert_int_equal(r.facts_changed, 0);
    /* faster, but now errors: still a regression */
    n.gflops = 2000;
    strcpy(n.status, "error: an illegal memory access was encountered");
    gp_diff_rows(&b, &n, 5, &r);
    assert_int_equal(r.verdict, GP_DIFF_BROKEN);
    assert_true(r.regressed);
    assert_string_equal(r.cause, "now fails: error: an illegal memory access was encountered");
    /* no GFLOP/s: time decides */
    n = b;
    b.gflops = n.gflops = NAN;
    b.time_ms = 1.0;
    n.time_ms = 1.25;
    gp_diff_rows(&b, &n, 5, &r);
    assert_int_equal(r.verdict, GP_DIFF_SLOWER);
    assert_true(fabs(r.change_pct + 20) < 1e-9);
    assert_string_equal(r.cause, "");
    /* no speed at all */
    n.time_ms = NAN;
    gp_diff_rows(&b, &n, 5, &r);
    assert_int_equal(r.verdict, GP_DIFF_UNMEASURED);
    assert_false(r.regressed);
    /* a spill that went away reads as such */
    gp_row x, y;
    everything_changed(&x, &y);
    gp_diff_rows(&y, &x, 5, &r);
    assert_int_equal(strncmp(r.cause, "no longer spills (was 8 B/thread)", 33), 0);
}

static void byte_counts_read_in_decimal_units(void **state)
{
    (void)state;
    char buf[32];
    assert_string_equal(gp_diff_fmt_bytes(0, buf, sizeof buf), "0");
    assert_string_equal(gp_diff_fmt_bytes(512, buf, sizeof buf), "512 B");
    assert_string_equal(gp_diff_fmt_bytes(1.2e9, buf, sizeof buf), "1.2 GB");
    assert_string_equal(gp_diff_fmt_bytes(5.87e9, buf, sizeof buf), "5.87 GB");
    assert_string_equal(gp_diff_fmt_bytes(NAN, buf, sizeof buf), "NA");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(identical_files_exit_0),
        cmocka_unit_test(remeasured_run_within_noise_exits_0),
        cmocka_unit_test(spilling_row_regresses_with_its_cause),
        cmocka_unit_test(threshold_decides_what_regressed),
        cmocka_unit_test(different_gpu_is_shown_first),
        cmocka_unit_test(stopped_verifying_regresses_at_any_speed),
        cmocka_unit_test(pair_compares_two_variants_of_one_file),
        cmocka_unit_test(lost_rows_fail_unless_allowed),
        cmocka_unit_test(bad_input_exits_2_naming_the_problem),
        cmocka_unit_test(baseline_file_is_checked_before_a_run),
        cmocka_unit_test(json_output_parses_back),
        cmocka_unit_test(markdown_is_one_table_and_the_causes),
        cmocka_unit_test(cause_weighs_spills_then_occupancy_dram_conflicts_verify_clock),
        cmocka_unit_test(verdicts_of_single_pairs),
        cmocka_unit_test(new_spill_inside_threshold_is_a_regression),
        cmocka_unit_test(byte_counts_read_in_decimal_units),
    };
    return cmocka_run_group_tests_name("diff", tests, NULL, NULL);
}
