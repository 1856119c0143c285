/* test_plot.c - the chart code's choices, without drawing: which rows,
 * sizes, medians and configs a chart uses, label placement, text escaping
 * for gnuplot and LaTeX, --size parsing; and gp_plot_roofline (the run
 * command's --roofline) end to end where gnuplot is installed.  CPU only.
 * Drawing every chart and the report is tested by tests/plot.sh. */
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

#include "plot/plot.h"
#include "plot/labels.h"
#include "plot/frame.h"
#include "plot/select.h"
#include "util/util.h"

static gp_row make_row(const char *kernel, const char *config, long n, double gflops)
{
    gp_row r;
    gp_row_init(&r);
    snprintf(r.kernel, sizeof r.kernel, "%s", kernel);
    snprintf(r.precision, sizeof r.precision, "fp32");
    snprintf(r.config, sizeof r.config, "%s", config);
    snprintf(r.status, sizeof r.status, "ok");
    r.m = r.n = r.k = n;
    r.gflops = gflops;
    r.verified = 1;
    return r;
}

static void parse_size_forms(void **state)
{
    (void)state;
    long s[3];
    assert_int_equal(gp_parse_plot_size("4096", s), 0);
    assert_true(s[0] == 4096 && s[1] == 4096 && s[2] == 4096);
    assert_int_equal(gp_parse_plot_size("8192,4096,64", s), 0);
    assert_true(s[0] == 8192 && s[1] == 4096 && s[2] == 64);
    assert_int_equal(gp_parse_plot_size("8192x4096x64", s), 0);
    assert_true(s[2] == 64);
    const char *bad[] = { "", "0", "-3", "12a", "1,2", "1,2,3,4", "1,,2", "x" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(gp_parse_plot_size(bad[i], s), -1);
}

static void text_escaped_for_latex_only(void **state)
{
    (void)state;
    char out[256];
    gp_chart_text("pdf", "blocktile_2d 50% #1", 0, out, sizeof out);
    assert_string_equal(out, "blocktile_2d 50% #1");
    gp_chart_text("cairolatex", "blocktile_2d 50% #1 & $x {y} a\\b", 0, out, sizeof out);
    assert_string_equal(out, "blocktile\\_2d 50\\% \\#1 \\& \\$x \\{y\\} a\\textbackslash{}b");
    gp_chart_text("pdf", "two words", 1, out, sizeof out);
    assert_string_equal(out, "two_words");
    /* In a data file: backslashes doubled (gnuplot halves them), no commas. */
    gp_data_text("cairolatex", "cublas_fp64,x", out, sizeof out);
    assert_string_equal(out, "cublas\\\\_fp64;x");
    gp_chart_text("cairolatex", "a_b_c_d", 0, out, 6);          /* cut, terminated */
    assert_true(strlen(out) < 6);
}

static void gnuplot_variables_quoted(void **state)
{
    (void)state;
    gp_buf b = { 0 };
    gp_var_str(&b, "f", "/tmp/it's.csv");
    gp_var_num(&b, "x", 2.5);
    gp_var_num(&b, "y", NAN);
    assert_string_equal(b.s, "f='/tmp/it''s.csv'; x=2.5; y=NaN; ");
    gp_buf_free(&b);
}

/* Independent checks (not labels.c's own): boxes apart, a segment clear of
 * a box (sampled every 0.2 pt). */
static int boxes_apart(gp_box a, gp_box b)
{
    return a.x1 <= b.x0 || b.x1 <= a.x0 || a.y1 <= b.y0 || b.y1 <= a.y0;
}

static int seg_clear_of(gp_seg s, gp_box b)
{
    double len = hypot(s.x1 - s.x0, s.y1 - s.y0);
    for (double t = 0; t <= 1; t += 0.2 / (len > 0.2 ? len : 0.2)) {
        double x = s.x0 + t * (s.x1 - s.x0), y = s.y0 + t * (s.y1 - s.y0);
        if (x > b.x0 && x < b.x1 && y > b.y0 && y < b.y1)
            return 0;
    }
    return 1;
}

static void check_labels(const gp_label *l, int n, const gp_label_space *sp)
{
    for (int i = 0; i < n; i++) {
        assert_true(l[i].placed);
        assert_true(l[i].just == 'L' || l[i].just == 'R');
        assert_true(l[i].box.x0 >= sp->area.x0 && l[i].box.x1 <= sp->area.x1);
        assert_true(l[i].box.y0 >= sp->area.y0 && l[i].box.y1 <= sp->area.y1);
        /* as wide as DejaVu Sans sets the text shown */
        assert_true(fabs((l[i].box.x1 - l[i].box.x0) - gp_text_width(l[i].shown, sp->font))
                    < 1e-9);
        for (int j = 0; j < sp->nseg; j++)
            if (!seg_clear_of(sp->seg[j], l[i].box))
                fail_msg("label %s crosses line %d", l[i].shown, j);
        for (int j = 0; j < n; j++) {
            gp_box m = { l[j].px - l[j].marker / 2, l[j].py - l[j].marker / 2,
                         l[j].px + l[j].marker / 2, l[j].py + l[j].marker / 2 };
            if (!boxes_apart(l[i].box, m))
                fail_msg("label %s covers the marker of %s", l[i].shown, l[j].text);
            if (j < i && !boxes_apart(l[i].box, l[j].box))
                fail_msg("labels %s and %s overlap", l[i].shown, l[j].shown);
        }
    }
}

/* Points bunched together, a line through the middle: every label ends up
 * clear of the others, of the markers and of the line, inside the area. */
static void labels_do_not_overlap(void **state)
{
    (void)state;
    gp_label l[5] = {
        { .px = 100, .py = 150, .marker = 5.5, .text = "blocktile_2d" },
        { .px = 104, .py = 153, .marker = 5.5, .text = "double_buffer" },
        { .px = 102, .py = 146, .marker = 5.5, .text = "vectorized" },
        { .px = 108, .py = 151, .marker = 5.5, .text = "warptile" },
        { .px = 345, .py = 295, .marker = 5.5, .text = "cublas" },    /* a corner */
    };
    gp_seg line = { 0, 170, 350, 170 };
    gp_label_space sp = { { 0, 0, 350, 300 }, &line, 1, 8 };
    assert_int_equal(gp_labels_layout(l, 5, &sp), 0);           /* room for names */
    check_labels(l, 5, &sp);
    for (int i = 0; i < 5; i++)
        assert_string_equal(l[i].shown, l[i].text);
}

/* Twelve points 4 pt apart (markers 5.5 pt) in a small area: no room for twelve
 * names, so they become numbers, still clear of everything. */
static void dense_cluster_is_numbered(void **state)
{
    (void)state;
    static const char *names[12] = { "cp_async", "frag_prefetch", "swizzle", "bk16",
        "wide_tile", "warptiling", "specimen_sizet", "specimen_uint", "mixed", "cublas",
        "blocktile_2d", "vectorized" };
    gp_label l[12];
    for (int i = 0; i < 12; i++)
        l[i] = (gp_label){ .px = 70 + (i % 4) * 4.0, .py = 45 + (i / 4) * 4.0,
                           .marker = 5.5, .text = names[i] };
    gp_label_space sp = { { 0, 0, 160, 100 }, NULL, 0, 8 };
    int k = gp_labels_layout(l, 12, &sp);
    assert_true(k > 0);
    check_labels(l, 12, &sp);
    int seen[13] = { 0 };
    for (int i = 0; i < 12; i++)
        if (l[i].number) {
            assert_true(l[i].number >= 1 && l[i].number <= k);
            assert_false(seen[l[i].number]++);                 /* each number once */
            char want[12];
            snprintf(want, sizeof want, "%d", l[i].number);
            assert_string_equal(l[i].shown, want);
        }
}

static void medians_skip_failed_rows(void **state)
{
    (void)state;
    gp_row rows[] = {
        make_row("naive", "", 1024, 300), make_row("naive", "", 1024, 100),
        make_row("naive", "", 1024, 200), make_row("naive", "", 1024, 9999),
        make_row("smem", "", 1024, NAN),
    };
    rows[3].verified = 0;                        /* a wrong result is not a speed */
    gp_dataset d = { .rows = rows, .nrows = 5 };
    gp_where w = { .d = &d, .need = gp_get_gflops };
    gp_key *k;
    assert_int_equal(gp_keys(&w, &k), 1);         /* smem has no gflops */
    assert_string_equal(k[0].kernel, "naive");
    assert_true(gp_median(&w, &k[0], gp_get_gflops) == 200);
    free(k);
    gp_where all = { .d = &d, .all_rows = 1 };
    assert_int_equal(gp_keys(&all, &k), 2);       /* the table lists smem too */
    free(k);
}

/* A gemmprof dist run over 2 GPUs is not one GPU's speed: the one-GPU
 * charts and tables take its 1-rank run only, once (its rank's row, not
 * the summary row that repeats it); a trace row under MPI (ranks but no
 * transport) is one kernel's and stays. */
static void multi_gpu_dist_rows_left_to_dist_charts(void **state)
{
    (void)state;
    gp_row rows[] = {
        make_row("cublas", "", 8192, 49000), make_row("cublas", "", 8192, 90000),
        make_row("sgemm_async", "", 8192, 47000), make_row("cublas", "", 8192, 48000),
    };
    strcpy(rows[0].comm, "staged");
    rows[0].ranks = 1;
    strcpy(rows[0].rank, "0");
    strcpy(rows[1].comm, "nccl");
    rows[1].ranks = 2;
    strcpy(rows[1].rank, "all");
    rows[2].ranks = 4;                            /* trace under mpirun -np 4 */
    strcpy(rows[3].comm, "staged");               /* the 1-rank run's summary */
    rows[3].ranks = 1;
    strcpy(rows[3].rank, "all");
    gp_dataset d = { .rows = rows, .nrows = 4 };
    gp_where w = { .d = &d, .need = gp_get_gflops };
    gp_key k = { "cublas", "fp32", "" };
    assert_true(gp_median(&w, &k, gp_get_gflops) == 49000);
    gp_key t = { "sgemm_async", "fp32", "" };
    assert_true(gp_median(&w, &t, gp_get_gflops) == 47000);
}

/* Each config is its own series with its own numbers (one number per
 * kernel, config and shape): no kernel stands for its best config.  A
 * size-dispatched kernel's tiles of one policy are one series. */
static void each_config_its_own_series(void **state)
{
    (void)state;
    gp_row rows[] = {
        make_row("tiled", "32x32", 512, 900), make_row("tiled", "64x64", 512, 1500),
        make_row("tiled", "64x64", 512, 1300), make_row("mixed", "default:32x32", 256, 100),
        make_row("mixed", "default:64x64", 512, 200),
        make_row("mixed", "tuned:t.csv:64x64", 512, 300),
    };
    rows[0].ai_dram = 5;
    rows[1].ai_dram = 20;
    rows[2].ai_dram = 30;
    gp_dataset d = { .rows = rows, .nrows = 6 };
    long at512[3] = { 512, 512, 512 }, at256[3] = { 256, 256, 256 };
    gp_where w = { .d = &d, .need = gp_get_gflops, .shape = at512 };
    gp_key *k;
    assert_int_equal(gp_keys(&(gp_where){ .d = &d }, &k), 4);
    free(k);
    gp_key k32 = { "tiled", "fp32", "32x32" }, k64 = { "tiled", "fp32", "64x64" };
    assert_true(gp_median(&w, &k32, gp_get_gflops) == 900);
    assert_true(gp_median(&w, &k32, gp_get_ai_dram) == 5);
    assert_true(gp_median(&w, &k64, gp_get_gflops) == 1400);
    assert_true(gp_median(&w, &k64, gp_get_ai_dram) == 25);
    gp_key def = { "mixed", "fp32", "default:32x32" }, tuned = { "mixed", "fp32",
                                                                "tuned:t.csv:64x64" };
    assert_string_equal(gp_config_at(&w, &def).config, "default:64x64");
    assert_true(gp_median(&w, &def, gp_get_gflops) == 200);
    assert_true(gp_median(&w, &tuned, gp_get_gflops) == 300);
    w.shape = at256;
    assert_true(gp_median(&w, &def, gp_get_gflops) == 100);
    char cfg[64];
    gp_series_config("tuned:t.csv:64x64", cfg, sizeof cfg);
    assert_string_equal(cfg, "tuned:t.csv:*");
}

/* A config only gemmprof sweep ran, of a kernel that has its own config
 * from another file, is the sweep's series, kept out of the kernel's
 * rows; the sweep's run of the kernel's own config is the same fact as
 * the ladder's. */
static void sweep_configs_kept_apart(void **state)
{
    (void)state;
    gp_row rows[] = {
        make_row("tiled", "32x32", 512, 900), make_row("tiled", "64x64", 512, 1500),
        make_row("tiled", "32x32", 512, 1000),
    };
    unsigned char swept[] = { 0, 1, 0 };
    gp_dataset d = { .rows = rows, .nrows = 3, .swept = swept };
    gp_where w = { .d = &d, .need = gp_get_gflops };
    gp_key *k;
    assert_int_equal(gp_keys(&w, &k), 1);
    assert_string_equal(k[0].config, "32x32");
    assert_true(gp_median(&w, &k[0], gp_get_gflops) == 950);
    free(k);
    w.sweep_configs = 1;
    assert_int_equal(gp_keys(&w, &k), 2);
    free(k);
}

static void shape_is_largest_with_most_kernels(void **state)
{
    (void)state;
    gp_row rows[] = {
        make_row("naive", "", 1024, 1), make_row("smem", "", 1024, 1),
        make_row("cublas", "", 1024, 1), make_row("naive", "", 2048, 1),
        make_row("smem", "", 2048, 1), make_row("cublas", "", 2048, 1),
        make_row("cublas", "", 8192, 1),          /* only cuBLAS ran this big */
    };
    gp_dataset d = { .rows = rows, .nrows = 7 };
    gp_where w = { .d = &d, .need = gp_get_gflops };
    long s[3], want[3] = { 1024, 1024, 1024 }, none[3] = { 3, 3, 3 };
    assert_int_equal(gp_shape_choose(&w, NULL, s), 0);
    assert_true(s[0] == 2048);
    assert_int_equal(gp_shape_choose(&w, want, s), 0);
    assert_true(s[0] == 1024);
    assert_int_equal(gp_shape_choose(&w, none, s), -1);
}

static void sweep_axis_square_or_varying_dim(void **state)
{
    (void)state;
    gp_row rows[4];
    for (int i = 0; i < 4; i++) {
        rows[i] = make_row("naive", "", 8192, 1);
        rows[i].k = 32L << i;
    }
    gp_dataset d = { .rows = rows, .nrows = 4 };
    gp_where w = { .d = &d, .need = gp_get_gflops };
    gp_sweep s;
    assert_int_equal(gp_sweep_choose(&w, &s), 0);
    assert_false(s.square);
    assert_int_equal(s.xdim, 2);
    assert_string_equal(s.label, "K (M = 8192, N = 8192)");
    w.sweep = &s;
    long *xs;
    assert_int_equal(gp_sweep_xs(&w, &xs), 4);
    assert_true(xs[0] == 32 && xs[3] == 256);
    free(xs);
    rows[0].k = 8192;                              /* one square row: squares win */
    w.sweep = NULL;
    assert_int_equal(gp_sweep_choose(&w, &s), 0);
    assert_true(s.square);
    assert_string_equal(s.label, "N (M = N = K)");
}

static void baseline_and_reference_found(void **state)
{
    (void)state;
    gp_row rows[] = {
        make_row("dgemm_naive", "", 256, 1), make_row("cublas_fp64", "", 256, 2),
        make_row("naive", "", 256, 1),
    };
    snprintf(rows[0].precision, sizeof rows[0].precision, "fp64");
    snprintf(rows[1].precision, sizeof rows[1].precision, "fp64");
    gp_dataset d = { .rows = rows, .nrows = 3 };
    gp_where w = { .d = &d, .need = gp_get_gflops };
    gp_key k;
    assert_int_equal(gp_baseline_key(&w, "fp64", &k), 0);
    assert_string_equal(k.kernel, "dgemm_naive");
    assert_int_equal(gp_baseline_key(&w, "fp32", &k), 0);
    assert_string_equal(k.kernel, "naive");
    assert_int_equal(gp_cublas_key(&w, "fp64", &k), 0);
    assert_string_equal(k.kernel, "cublas_fp64");
    assert_int_equal(gp_cublas_key(&w, "fp32", &k), -1);
}

static void compulsory_bytes_read_c_only_with_beta(void **state)
{
    (void)state;
    gp_row r = make_row("x", "", 100, 1);
    r.beta = 0;
    assert_true(gp_get_compulsory_bytes(&r) == 4.0 * 3 * 100 * 100);
    r.beta = 1;
    assert_true(gp_get_compulsory_bytes(&r) == 4.0 * 4 * 100 * 100);
    snprintf(r.precision, sizeof r.precision, "fp64");
    assert_true(gp_get_compulsory_bytes(&r) == 8.0 * 4 * 100 * 100);
}

#define FIX "tests/fixtures/"

static int have_tools(void)
{
    char p[4096], err[256];
    if (access(FIX "run-fixture.csv", R_OK) != 0 || access("plots/roofline.gp", R_OK) != 0)
        return 0;
    setenv("GEMMPROF_PLOTS", "plots", 0);
    return gp_find_gnuplot(p, sizeof p, err, sizeof err) == 0;
}

static void dataset_takes_ceilings_among_files(void **state)
{
    (void)state;
    if (access(FIX "run-fixture.csv", R_OK) != 0)
        skip();                                  /* run from the repository root */
    char *paths[] = { FIX "run-fixture.csv", FIX "ceilings-fixture.csv" };
    gp_dataset d;
    char err[512];
    assert_int_equal(gp_dataset_load(&d, paths, 2, NULL, err, sizeof err), 0);
    assert_int_equal(d.nfiles, 1);
    assert_non_null(d.ceil);
    assert_non_null(gp_ceilings_find(d.ceil, "dram_bw"));
    assert_string_equal(gp_meta_get(&d.meta, "gpu_name"), "Synthetic GPU (fixture)");
    gp_dataset_free(&d);
    char *only[] = { FIX "ceilings-fixture.csv" };
    assert_int_equal(gp_dataset_load(&d, only, 1, NULL, err, sizeof err), -1);
    assert_non_null(strstr(err, "no run file"));
    gp_dataset_free(&d);
}

static void roofline_for_the_run_command(void **state)
{
    (void)state;
    if (!have_tools())
        skip();                                  /* no gnuplot, or not at the root */
    char dir[] = "/tmp/gp-test-plot-XXXXXX", out[4096], written[8192], err[1024];
    assert_non_null(mkdtemp(dir));
    snprintf(out, sizeof out, "%s/charts", dir);
    int rc = gp_plot_roofline(FIX "run-fixture.csv", FIX "ceilings-fixture.csv", out, "pdf",
                              written, sizeof written, err, sizeof err);
    if (rc != 0)
        fail_msg("gp_plot_roofline: %d %s", rc, err);
    char want[4200];
    snprintf(want, sizeof want, "%s/roofline-fp32.pdf", out);   /* the fixture's family */
    assert_string_equal(written, want);
    assert_int_equal(access(want, R_OK), 0);

    /* No counters in the sweep fixture: not drawn, and why. */
    rc = gp_plot_roofline(FIX "sweep-fixture.csv", FIX "ceilings-fixture.csv", dir, "pdf",
                          written, sizeof written, err, sizeof err);
    assert_int_equal(rc, 1);
    assert_non_null(strstr(err, "no ai_dram values"));
    assert_string_equal(written, "");

    rc = gp_plot_roofline(FIX "nope.csv", NULL, dir, "pdf", written, sizeof written,
                          err, sizeof err);
    assert_int_equal(rc, -1);
    assert_non_null(strstr(err, "nope.csv"));
    gp_rm_rf(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(parse_size_forms),
        cmocka_unit_test(text_escaped_for_latex_only),
        cmocka_unit_test(gnuplot_variables_quoted),
        cmocka_unit_test(labels_do_not_overlap),
        cmocka_unit_test(dense_cluster_is_numbered),
        cmocka_unit_test(medians_skip_failed_rows),
        cmocka_unit_test(each_config_its_own_series),
        cmocka_unit_test(sweep_configs_kept_apart),
        cmocka_unit_test(multi_gpu_dist_rows_left_to_dist_charts),
        cmocka_unit_test(shape_is_largest_with_most_kernels),
        cmocka_unit_test(sweep_axis_square_or_varying_dim),
        cmocka_unit_test(baseline_and_reference_found),
        cmocka_unit_test(compulsory_bytes_read_c_only_with_beta),
        cmocka_unit_test(dataset_takes_ceilings_among_files),
        cmocka_unit_test(roofline_for_the_run_command),
    };
    return cmocka_run_group_tests_name("plot", tests, NULL, NULL);
}
