/* test_options.c - `gemmprof dist` option parsing and validation: the
 * verdicts every rank reaches alone, before any communication. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "dist/dist.h"
#include "registry/registry.h"

static gp_dist_options o;
static char err[1024];

/* parse(nranks, "--opt", "value", ..., NULL) */
static int parse(int nranks, ...)
{
    char *argv[32] = { "dist" };
    int argc = 1;
    va_list ap;
    va_start(ap, nranks);
    for (char *a; (a = va_arg(ap, char *)) != NULL && argc < 31;)
        argv[argc++] = a;
    va_end(ap);
    err[0] = '\0';
    return gp_dist_parse(argc, argv, nranks, &o, err, sizeof err);
}

#define expect_error(want, ...)                                              \
    do {                                                                     \
        if (parse(__VA_ARGS__, NULL) != -1 || !strstr(err, want))            \
            fail_msg("wanted an error with '%s', got '%s'", want, err);      \
    } while (0)

static void full_command_line(void **state)
{
    (void)state;
    assert_int_equal(parse(4, "--grid", "2x2", "--block", "8x16", "--mnk", "97,61,45",
                           "--local", "cpu_blocked", "--precision", "fp32",
                           "--panel", "48", "--reps", "3", "--warmup", "0",
                           "--seed", "7", "--out", "x.csv", NULL), 0);
    assert_int_equal(o.pr, 2);
    assert_int_equal(o.pc, 2);
    assert_int_equal(o.br, 8);
    assert_int_equal(o.bc, 16);
    assert_int_equal(o.bk, 16);              /* K block defaults to BC */
    assert_int_equal(o.m, 97);
    assert_int_equal(o.n, 61);
    assert_int_equal(o.k, 45);
    assert_int_equal(o.precision, GP_FP32);
    assert_true(o.cpu_local);
    assert_int_equal(o.panel, 48);
    assert_int_equal(o.reps, 3);
    assert_int_equal(o.warmup, 0);
    assert_int_equal(o.seed, 7);
    assert_string_equal(o.out, "x.csv");
    assert_string_equal(o.comm, "auto");
}

static void defaults(void **state)
{
    (void)state;
    assert_int_equal(parse(6, "--size", "100", "--local", "cpu_naive", NULL), 0);
    assert_int_equal(o.pr, 2);               /* most square grid for 6 */
    assert_int_equal(o.pc, 3);
    assert_int_equal(o.br, GP_DIST_BLOCK_DEFAULT);
    assert_int_equal(o.panel, 256);          /* 2 blocks of 128 */
    assert_int_equal(o.precision, GP_FP64);  /* CPU kernels: fp64 */
    assert_int_equal(o.reps, 5);
    assert_int_equal(o.warmup, 1);
    assert_int_equal(o.m, 100);
    assert_int_equal(o.k, 100);
    /* the default panel is the first multiple of the K block >= 256 */
    assert_int_equal(parse(1, "--size", "9", "--local", "cpu_naive", "--kblock", "100",
                           NULL), 0);
    assert_int_equal(o.panel, 300);
}

static void default_grid_is_most_square(void **state)
{
    (void)state;
    static const int n[] = { 1, 2, 4, 6, 7, 8, 12, 16 };
    static const int pr[] = { 1, 1, 2, 2, 1, 2, 3, 4 };
    for (size_t i = 0; i < sizeof n / sizeof n[0]; i++) {
        int r, c;
        gp_dist_default_grid(n[i], &r, &c);
        assert_int_equal(r, pr[i]);
        assert_int_equal(r * c, n[i]);
    }
}

static void gpu_kernel_brings_its_precision(void **state)
{
    (void)state;
    const gp_kernel *k = gp_registry_find("dgemm_naive");
    assert_non_null(k);
    assert_int_equal(parse(1, "--size", "64", "--local", "dgemm_naive", NULL), 0);
    assert_int_equal(o.precision, GP_FP64);
    assert_false(o.cpu_local);
    assert_int_equal(parse(1, "--size", "64", "--local", "naive", NULL), 0);
    assert_int_equal(o.precision, GP_FP32);  /* the GPU rung, not a CPU loop */
    assert_false(o.cpu_local);
    expect_error("is fp32, not fp64", 1, "--size", "64", "--local", "naive",
                 "--precision", "fp64");
}

static void cpu_names_do_not_shadow_registered_kernels(void **state)
{
    (void)state;
    static const char *const cpu[] = { "cpu_naive", "cpu_blocked", "cpu_blas" };
    for (size_t i = 0; i < 3; i++) {
        assert_true(gp_dist_is_cpu_local(cpu[i]));
        assert_null(gp_registry_find(cpu[i]));
    }
    assert_false(gp_dist_is_cpu_local("naive"));
}

static void wrong_grid_names_both_counts(void **state)
{
    (void)state;
    expect_error("--grid 2x3 is 6 processes but 4 were started", 4, "--grid", "2x3",
                 "--size", "8", "--local", "cpu_naive");
    expect_error("--grid", 4, "--grid", "4", "--size", "8", "--local", "cpu_naive");
    expect_error("--grid", 4, "--grid", "0x4", "--size", "8", "--local", "cpu_naive");
}

static void bad_blocks(void **state)
{
    (void)state;
    static const char *const bad[] = { "0x8", "8x0", "axb", "8x", "x8", "8", "8x8x8",
                                       "-8x8", "8 x8", "2000000x8", "" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        expect_error("--block", 1, "--block", (char *)bad[i], "--size", "8",
                     "--local", "cpu_naive");
    expect_error("--kblock", 1, "--kblock", "0", "--size", "8", "--local", "cpu_naive");
    expect_error("not a multiple of the K block 64", 1, "--block", "64x64",
                 "--panel", "100", "--size", "8", "--local", "cpu_naive");
}

static void bad_shapes(void **state)
{
    (void)state;
    expect_error("--mnk", 1, "--mnk", "10,0,10", "--local", "cpu_naive");
    expect_error("--mnk", 1, "--mnk", "10,10", "--local", "cpu_naive");
    expect_error("--mnk", 1, "--mnk", "10,x,10", "--local", "cpu_naive");
    expect_error("one size only", 1, "--size", "8,16", "--local", "cpu_naive");
    expect_error("no size given", 1, "--local", "cpu_naive");
}

static void bad_kernel_precision_transport(void **state)
{
    (void)state;
    expect_error("no local kernel given", 1, "--size", "8");
    expect_error("unknown local kernel 'nope'", 1, "--size", "8", "--local", "nope");
    expect_error("--precision", 1, "--size", "8", "--local", "cpu_naive",
                 "--precision", "fp16");
    expect_error("CPU kernels do fp32 and fp64", 1, "--size", "8", "--local",
                 "cpu_naive", "--precision", "tf32");
    expect_error("is a CPU kernel", 1, "--size", "8", "--local", "cpu_naive",
                 "--comm", "nccl");
    expect_error("--comm", 1, "--size", "8", "--local", "cpu_naive", "--comm", "pigeon");
}

static void bad_counts_and_stray_words(void **state)
{
    (void)state;
    expect_error("--reps", 1, "--size", "8", "--local", "cpu_naive", "--reps", "0");
    expect_error("--warmup", 1, "--size", "8", "--local", "cpu_naive", "--warmup", "-1");
    expect_error("unknown option '--frobnicate'", 1, "--size", "8", "--local",
                 "cpu_naive", "--frobnicate");
    expect_error("needs an argument", 1, "--size", "8", "--local");
    expect_error("unexpected argument 'extra'", 1, "--size", "8", "--local",
                 "cpu_naive", "extra");
}

/* GPU kernels choose their panel by measurement unless given one; the
 * buffers are sized for the widest it may choose.  CPU kernels cannot. */
static void panel_auto(void **state)
{
    (void)state;
    assert_int_equal(parse(2, "--size", "8192", "--local", "cublas", NULL), 0);
    assert_true(o.panel_auto);
    assert_int_equal(o.panel, GP_DIST_PANEL_AUTO_MAX);
    assert_int_equal(parse(2, "--size", "8192", "--local", "cublas", "--kblock", "96",
                           "--panel", "auto", NULL), 0);
    assert_true(o.panel_auto);
    assert_int_equal(o.panel, 4128);           /* 43 blocks of 96 >= 4096 */
    assert_int_equal(parse(1, "--size", "1000", "--local", "cublas", NULL), 0);
    assert_int_equal(o.panel, 1024);           /* one rank: the whole K */
    assert_int_equal(parse(2, "--size", "8192", "--local", "cublas", "--panel", "512",
                           NULL), 0);
    assert_false(o.panel_auto);
    assert_int_equal(o.panel, 512);
    assert_int_equal(parse(2, "--size", "64", "--local", "cpu_naive", NULL), 0);
    assert_false(o.panel_auto);
    expect_error("--panel auto times GPU gemms", 1, "--size", "8", "--local",
                 "cpu_naive", "--panel", "auto");
    expect_error("auto or an integer", 1, "--size", "8", "--local", "cublas",
                 "--panel", "automatic");
}

static void help_stops_parsing(void **state)
{
    (void)state;
    assert_int_equal(parse(3, "--help", "--grid", "9x9", NULL), 0);
    assert_true(o.help);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(full_command_line),
        cmocka_unit_test(defaults),
        cmocka_unit_test(default_grid_is_most_square),
        cmocka_unit_test(gpu_kernel_brings_its_precision),
        cmocka_unit_test(cpu_names_do_not_shadow_registered_kernels),
        cmocka_unit_test(wrong_grid_names_both_counts),
        cmocka_unit_test(bad_blocks),
        cmocka_unit_test(bad_shapes),
        cmocka_unit_test(bad_kernel_precision_transport),
        cmocka_unit_test(bad_counts_and_stray_words),
        cmocka_unit_test(panel_auto),
        cmocka_unit_test(help_stops_parsing),
    };
    return cmocka_run_group_tests_name("dist_options", tests, NULL, NULL);
}
