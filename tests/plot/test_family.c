/* test_family.c - which family each kernel lands in, from the data alone:
 * the precision column and the order kernels first appear in each file;
 * the fp32 split at warptiling (in both halves); cuBLAS in every family of
 * its precision; kernels never seen beside warptiling (a plugin's, a
 * trace's) beside cuBLAS in the top half; other precisions a family each;
 * --family and --kernel; short names for long (demangled) kernel names.
 * CPU only. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot/plot.h"

static gp_row row(const char *kernel, const char *prec)
{
    gp_row r;
    gp_row_init(&r);
    snprintf(r.kernel, sizeof r.kernel, "%s", kernel);
    snprintf(r.precision, sizeof r.precision, "%s", prec);
    snprintf(r.status, sizeof r.status, "ok");
    r.m = r.n = r.k = 1024;
    r.gflops = 1000;
    r.verified = 1;
    return r;
}

/* Members of the family as "a b c", ladder order. */
static const char *members(const gp_family *f)
{
    static char out[1024];
    out[0] = '\0';
    for (int i = 0; i < f->n; i++)
        snprintf(out + strlen(out), sizeof out - strlen(out), "%s%s", i ? " " : "",
                 f->members[i].kernel);
    return out;
}

static const gp_family *named(const gp_families *fs, const char *name)
{
    for (int i = 0; i < fs->n; i++)
        if (strcmp(fs->f[i].name, name) == 0)
            return &fs->f[i];
    fail_msg("no family %s", name);
    return NULL;
}

/* Three files: a k-skinny one (warptiling right after cuBLAS), a ladder
 * run (warptiling after naive and smem), a plugin and cuBLAS (never beside
 * warptiling). */
static const char *const names[][2] = {
    { "cublas", "fp32" }, { "warptiling", "fp32" },
    { "cublas", "fp32" }, { "cublas_tf32", "tf32" }, { "naive", "fp32" }, { "smem", "fp32" },
    { "warptiling", "fp32" }, { "cp_async", "fp32" }, { "wide_tile", "fp32" },
    { "tf32_wgmma", "tf32" }, { "cublas_fp64", "fp64" }, { "dgemm_naive", "fp64" },
    { "dgemm_dmma", "fp64" }, { "mine_bf16", "bf16" },
    { "cublas", "fp32" }, { "mine", "fp32" },
};
static gp_row rows[sizeof names / sizeof names[0]];
static int file_rows[] = { 2, 12, 2 };

static void make_dataset(gp_dataset *d)
{
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        rows[i] = row(names[i][0], names[i][1]);
    memset(d, 0, sizeof *d);
    d->rows = rows;
    d->nrows = (int)(sizeof rows / sizeof rows[0]);
    d->file_rows = file_rows;
    d->nfiles = 3;
}

static void split_by_precision_and_ladder_position(void **state)
{
    (void)state;
    gp_dataset d;
    make_dataset(&d);
    gp_families fs;
    assert_int_equal(gp_families_of(&d, &fs), 0);
    assert_int_equal(fs.n, 5);
    assert_string_equal(members(named(&fs, "fp32-ladder")), "cublas naive smem warptiling");
    assert_string_equal(members(named(&fs, "fp32-top")),
                        "cublas warptiling cp_async wide_tile mine");
    assert_string_equal(members(named(&fs, "tf32")), "cublas_tf32 tf32_wgmma");
    assert_string_equal(members(named(&fs, "fp64")), "cublas_fp64 dgemm_naive dgemm_dmma");
    assert_string_equal(members(named(&fs, "bf16")), "mine_bf16");
    assert_string_equal(named(&fs, "fp32-ladder")->title, "FP32 ladder (naive to warptiling)");
    assert_string_equal(named(&fs, "fp32-top")->title, "FP32 top (warptiling to mine)");
    /* series styles: rungs 1, 2, ... in ladder order; cuBLAS black (41) */
    const gp_family *top = named(&fs, "fp32-top");
    assert_int_equal(gp_family_lt(top, "cublas", "fp32"), 41);
    assert_int_equal(gp_family_lt(top, "warptiling", "fp32"), 1);
    assert_int_equal(gp_family_lt(top, "mine", "fp32"), 4);
    /* rows follow their family */
    gp_row r = row("cp_async", "fp32");
    assert_true(gp_family_has(top, &r));
    assert_false(gp_family_has(named(&fs, "fp32-ladder"), &r));
    gp_families_free(&fs);
}

/* No warptiling in the data: FP32 stays whole. */
static void no_split_kernel_keeps_precision_whole(void **state)
{
    (void)state;
    gp_row r[] = { row("cublas", "fp32"), row("naive", "fp32"), row("mine", "fp32"),
                   row("x", "") };
    int counts[] = { 4 };
    gp_dataset d = { .rows = r, .nrows = 4, .file_rows = counts, .nfiles = 1 };
    gp_families fs;
    assert_int_equal(gp_families_of(&d, &fs), 0);
    assert_int_equal(fs.n, 2);
    assert_string_equal(fs.f[0].name, "fp32");
    assert_string_equal(members(&fs.f[0]), "cublas naive mine");
    assert_string_equal(fs.f[1].name, "other");        /* no precision */
    gp_families_free(&fs);
}

static void family_and_kernel_choices(void **state)
{
    (void)state;
    gp_dataset d;
    make_dataset(&d);
    gp_families fs;
    char err[512];
    assert_int_equal(gp_families_choose(&d, "fp32", &fs, err, sizeof err), 0);
    assert_int_equal(fs.n, 2);                            /* both halves */
    gp_families_free(&fs);
    assert_int_equal(gp_families_choose(&d, "fp64,tf32", &fs, err, sizeof err), 0);
    assert_int_equal(fs.n, 2);
    gp_families_free(&fs);
    assert_int_equal(gp_families_choose(&d, "all", &fs, err, sizeof err), 0);
    assert_int_equal(fs.n, 1);
    assert_true(fs.f[0].whole);
    assert_int_equal(fs.f[0].n, 13);                      /* every (kernel, precision) */
    gp_families_free(&fs);
    assert_int_equal(gp_families_choose(&d, "fp16", &fs, err, sizeof err), -1);
    assert_non_null(strstr(err, "no family 'fp16'"));
    assert_non_null(strstr(err, "fp32-ladder, fp32-top"));
    assert_int_equal(gp_family_kernels(&d, "naive,cublas", &fs, err, sizeof err), 0);
    assert_string_equal(members(&fs.f[0]), "cublas naive");
    assert_true(fs.f[0].whole);
    gp_families_free(&fs);
    assert_int_equal(gp_family_kernels(&d, "naive,nope", &fs, err, sizeof err), -1);
    assert_non_null(strstr(err, "no kernel 'nope'"));
}

/* A trace's demangled names, a plugin's long ones: short enough for a
 * label, still telling. */
static void long_names_shortened(void **state)
{
    (void)state;
    char out[64];
    gp_short_name("void sgemm_kernel<float, 128, 8>(int, int, int, float const*, float*)",
                  out, sizeof out, 28);
    assert_string_equal(out, "sgemm_kernel<float, 128, 8>");
    gp_short_name("void ns::gemm(float const*)", out, sizeof out, 28);
    assert_string_equal(out, "ns::gemm");
    gp_short_name("an_extremely_long_plugin_kernel_name_v2", out, sizeof out, 28);
    assert_string_equal(out, "an_extremely_long_plugin_...");
    assert_int_equal((int)strlen(out), 28);
    gp_short_name("dgemm_blocktile_2d", out, sizeof out, 28);
    assert_string_equal(out, "dgemm_blocktile_2d");
}

/* Two kernels of one label in a table or legend: each with the word that
 * tells it from the other, in both the full name and the short label; a
 * kernel whose label is its own gets none; a registry name stays as is. */
static void same_label_told_apart(void **state)
{
    (void)state;
    const gp_key k[] = {
        { "void at::native::reduce_kernel<128, 4, at::native::ReduceOp<float, "
          "at::native::MeanOps<float, float> > >(at::native::ReduceOp<float, "
          "at::native::MeanOps<float, float> >)", "fp32", "grid=16x1x1 block=32x4x1" },
        { "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, "
          "at::native::ArgMaxOps<float> > >(at::native::ReduceOp<float, "
          "at::native::ArgMaxOps<float> >)", "fp32", "grid=1x1x1 block=512x1x1" },
        { "void (anonymous namespace)::softmax_warp_forward<float, float, float, 10, false>"
          "(float*, float const*, int, int, int)", "fp32", "grid=8x1x1 block=128x1x1" },
        { "wide_tile", "fp32", "128x256x8/32x128/2x4/4x4/3stage/cpB16/xfrag/group16" },
    };
    char out[128];
    gp_series_name(k, 4, 0, 0, out, sizeof out);
    assert_string_equal(out, "reduce_kernel<MeanOps>");
    gp_series_name(k, 4, 1, 1, out, sizeof out);
    assert_string_equal(out, "reduce_kernel<ArgMaxOps>[grid=1x1x1 block=512x1x1]");
    gp_series_label(k, 4, 1, 0, 28, out, sizeof out);
    assert_string_equal(out, "reduce_kernel<ArgMaxOps>");
    gp_series_label(k, 4, 0, 0, 17, out, sizeof out);      /* the word kept, the name cut */
    assert_string_equal(out, "reduc...<MeanOps>");
    gp_series_name(k, 4, 2, 0, out, sizeof out);
    assert_string_equal(out, "softmax_warp_forward");
    gp_series_name(k, 4, 3, 0, out, sizeof out);
    assert_string_equal(out, "wide_tile");
    gp_series_name(k, 1, 0, 0, out, sizeof out);           /* alone: no word */
    assert_string_equal(out, "reduce_kernel");
}

/* Rows skipped on purpose ("skipped: ...") have no numbers: no chart draws
 * them, their family still has them (the tables list them as skipped). */
static void skipped_rows_not_drawn(void **state)
{
    (void)state;
    gp_row r[] = { row("cublas_fp64", "fp64"), row("dgemm_dmma", "fp64"),
                   row("dgemm_naive", "fp64") };
    snprintf(r[1].status, sizeof r[1].status, "skipped: no FP64 tensor cores");
    r[1].gflops = NAN;
    r[1].verified = -1;
    int counts[] = { 3 };
    gp_dataset d = { .rows = r, .nrows = 3, .file_rows = counts, .nfiles = 1 };
    gp_families fs;
    assert_int_equal(gp_families_of(&d, &fs), 0);
    assert_string_equal(members(&fs.f[0]), "cublas_fp64 dgemm_dmma dgemm_naive");
    gp_where w = { .d = &d, .need = gp_get_gflops, .family = &fs.f[0] };
    gp_key *k;
    assert_int_equal(gp_keys(&w, &k), 2);
    assert_string_equal(k[1].kernel, "dgemm_naive");
    free(k);
    gp_families_free(&fs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(split_by_precision_and_ladder_position),
        cmocka_unit_test(no_split_kernel_keeps_precision_whole),
        cmocka_unit_test(family_and_kernel_choices),
        cmocka_unit_test(long_names_shortened),
        cmocka_unit_test(same_label_told_apart),
        cmocka_unit_test(skipped_rows_not_drawn),
    };
    return cmocka_run_group_tests_name("plot_family", tests, NULL, NULL);
}
