/* test_options.c - gemmprof trace on the CPU: its options, the environment
 * CMD gets, where the injected library is found, the MPI rank, the part
 * file names, and which launches the filter selects. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace/trace.h"

static gp_trace_opts o;
static char err[1024];

/* parse("--opt", "value", ..., NULL) as `gemmprof trace ...` */
static int parse(const char *first, ...)
{
    static char *argv[32];
    int argc = 0;
    argv[argc++] = "trace";
    va_list ap;
    va_start(ap, first);
    for (const char *a = first; a && argc < 31; a = va_arg(ap, const char *))
        argv[argc++] = (char *)a;
    va_end(ap);
    argv[argc] = NULL;
    err[0] = '\0';
    return gp_trace_parse(argc, argv, &o, err, sizeof err);
}

#define expect_error(want, ...)                                              \
    do {                                                                     \
        if (parse(__VA_ARGS__, NULL) != -1 || !strstr(err, want))            \
            fail_msg("wanted an error with '%s', got '%s'", want, err);      \
    } while (0)

static void defaults_and_command(void **state)
{
    (void)state;
    assert_int_equal(parse("--", "./app", "-n", "3", NULL), 0);
    assert_null(o.kernel_regex);
    assert_int_equal(o.launch_skip, 0);
    assert_int_equal(o.launch_count, -1);
    assert_string_equal(o.metrics, "default");
    assert_null(o.out);
    assert_int_equal(o.summary, 0);
    assert_int_equal(o.ncmd, 3);
    assert_string_equal(o.cmd[0], "./app");
    assert_string_equal(o.cmd[1], "-n");           /* CMD's options are CMD's */
    assert_null(o.cmd[3]);
}

static void every_option(void **state)
{
    (void)state;
    assert_int_equal(parse("--kernel-regex", "gemm|conv", "--launch-skip", "5",
                           "--launch-count", "2", "--metrics",
                           "dram__bytes_read.sum,gpu__time_duration.sum", "-o", "x.csv",
                           "--summary", "-q", "python3", "train.py", "--out", "y", NULL), 0);
    assert_string_equal(o.kernel_regex, "gemm|conv");
    assert_int_equal(o.launch_skip, 5);
    assert_int_equal(o.launch_count, 2);
    assert_string_equal(o.metrics, "dram__bytes_read.sum,gpu__time_duration.sum");
    assert_string_equal(o.out, "x.csv");
    assert_int_equal(o.summary, 1);
    assert_int_equal(o.quiet, 1);
    /* options stop at the first word that is not one: CMD's --out is CMD's */
    assert_int_equal(o.ncmd, 4);
    assert_string_equal(o.cmd[0], "python3");
    assert_string_equal(o.cmd[2], "--out");
}

static void launch_count_zero_and_help(void **state)
{
    (void)state;
    assert_int_equal(parse("--launch-count", "0", "./a", NULL), 0);
    assert_int_equal(o.launch_count, 0);
    assert_int_equal(parse("-h", NULL), 0);
    assert_int_equal(o.help, 1);
    assert_int_equal(parse("--merge", "dir.parts", "-o", "m.csv", NULL), 0);
    assert_string_equal(o.merge_dir, "dir.parts");
}

static void bad_input_is_named(void **state)
{
    (void)state;
    expect_error("no command given", "--summary");
    expect_error("no command given", "--");
    expect_error("--launch-skip: '-1' is not an integer in 0..", "--launch-skip", "-1", "./a");
    expect_error("--launch-count: '3x' is not an integer in 0..", "--launch-count", "3x", "./a");
    expect_error("--kernel-regex: '([': ", "--kernel-regex", "([", "./a");
    expect_error("--metrics: bad character ';'", "--metrics", "a;b", "./a");
    expect_error("--metrics: \"none\" cannot be combined", "--metrics", "none,x.sum", "./a");
    expect_error("option '--launch-count' needs an argument", "--launch-count");
    expect_error("unknown option '--size'", "--size", "4096", "./a");
    expect_error("option '--launch' is ambiguous (--launch-skip, --launch-count)",
                 "--launch", "1", "./a");
    expect_error("option '--summary' takes no argument", "--summary=yes", "./a");
    expect_error("unknown option '-x'", "-x", "./a");
    expect_error("--out: empty path", "--out", "", "./a");
    expect_error("--merge takes no command", "--merge", "d", "./a");
    expect_error("empty command name", "--", "");
}

static int has(const gp_strlist *l, const char *s)
{
    for (int i = 0; i < l->n; i++)
        if (strcmp(l->v[i], s) == 0)
            return 1;
    return 0;
}

static int has_prefix(const gp_strlist *l, const char *p)
{
    for (int i = 0; i < l->n; i++)
        if (strncmp(l->v[i], p, strlen(p)) == 0)
            return 1;
    return 0;
}

static void environment_for_cmd(void **state)
{
    (void)state;
    char *env[] = { "PATH=/usr/bin", "HOME=/h", "GEMMPROF_TRACE_LAUNCH_SKIP=99",
                    "GEMMPROF_TRACE_KERNEL_REGEX=old", "LD_LIBRARY_PATH=/x", NULL };
    gp_strlist out;
    assert_int_equal(parse("--kernel-regex", "sgemm", "--launch-count", "4", "--metrics",
                           "none", "./app", NULL), 0);
    assert_int_equal(gp_trace_env(&o, env, "/p/lib.so", "/r/run.csv.parts-1", &out,
                                  err, sizeof err), 0);
    assert_true(has(&out, "PATH=/usr/bin"));
    assert_true(has(&out, "LD_LIBRARY_PATH=/x"));
    assert_true(has(&out, "CUDA_INJECTION64_PATH=/p/lib.so"));
    assert_true(has(&out, "GEMMPROF_TRACE_DIR=/r/run.csv.parts-1"));
    assert_true(has(&out, "GEMMPROF_TRACE_METRICS=none"));
    assert_true(has(&out, "GEMMPROF_TRACE_KERNEL_REGEX=sgemm"));
    assert_true(has(&out, "GEMMPROF_TRACE_LAUNCH_COUNT=4"));
    /* a stale setting of an outer trace does not leak in */
    assert_false(has_prefix(&out, "GEMMPROF_TRACE_LAUNCH_SKIP="));
    assert_false(has(&out, "GEMMPROF_TRACE_KERNEL_REGEX=old"));
    assert_int_equal(out.n, 3 + 5);
    gp_strlist_free(&out);

    /* defaults: no filter variables at all */
    assert_int_equal(parse("./app", NULL), 0);
    assert_int_equal(gp_trace_env(&o, env, "/l.so", "/d", &out, err, sizeof err), 0);
    assert_true(has(&out, "GEMMPROF_TRACE_METRICS=default"));
    assert_false(has_prefix(&out, "GEMMPROF_TRACE_KERNEL_REGEX="));
    assert_false(has_prefix(&out, "GEMMPROF_TRACE_LAUNCH_"));
    gp_strlist_free(&out);
}

static void another_injector_is_refused(void **state)
{
    (void)state;
    char *env[] = { "CUDA_INJECTION64_PATH=/opt/nsys/libToolsInjection64.so", NULL };
    gp_strlist out;
    assert_int_equal(parse("./app", NULL), 0);
    assert_int_equal(gp_trace_env(&o, env, "/l.so", "/d", &out, err, sizeof err), -1);
    assert_non_null(strstr(err, "CUDA_INJECTION64_PATH is already set"));
    assert_non_null(strstr(err, "libToolsInjection64.so"));
    assert_int_equal(out.n, 0);
}

static const char *fake[8][2];
static const char *fake_env(const char *name)
{
    for (int i = 0; i < 8 && fake[i][0]; i++)
        if (strcmp(fake[i][0], name) == 0)
            return fake[i][1];
    return NULL;
}

static void rank_from_launchers(void **state)
{
    (void)state;
    char rank[8];
    long size;
    memset(fake, 0, sizeof fake);
    gp_trace_rank(fake_env, rank, sizeof rank, &size);
    assert_string_equal(rank, "");
    assert_int_equal(size, -1);
    fake[0][0] = "PMI_RANK", fake[0][1] = "3";
    fake[1][0] = "PMI_SIZE", fake[1][1] = "8";
    gp_trace_rank(fake_env, rank, sizeof rank, &size);
    assert_string_equal(rank, "3");
    assert_int_equal(size, 8);
    /* Open MPI first; a non-numeric value is ignored */
    fake[2][0] = "OMPI_COMM_WORLD_RANK", fake[2][1] = "1";
    fake[3][0] = "OMPI_COMM_WORLD_SIZE", fake[3][1] = "2";
    gp_trace_rank(fake_env, rank, sizeof rank, &size);
    assert_string_equal(rank, "1");
    assert_int_equal(size, 2);
    fake[2][1] = "x";
    gp_trace_rank(fake_env, rank, sizeof rank, &size);
    assert_string_equal(rank, "3");
    memset(fake, 0, sizeof fake);
    fake[0][0] = "SLURM_PROCID", fake[0][1] = "0";
    gp_trace_rank(fake_env, rank, sizeof rank, &size);
    assert_string_equal(rank, "0");
    assert_int_equal(size, -1);
}

static void part_names(void **state)
{
    (void)state;
    char p[64];
    assert_int_equal(gp_trace_part_name(p, sizeof p, "/d", "Node 7.cluster", 4242, "csv"), 0);
    assert_string_equal(p, "/d/node-7-cluster-4242.csv");
    assert_int_equal(gp_trace_part_name(p, 10, "/d", "h", 4242, "times"), -1);
}

static void library_found_next_to_binary_or_by_env(void **state)
{
    (void)state;
    char dir[] = "/tmp/gp-trace-lib-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[PATH_MAX], lib[PATH_MAX], found[PATH_MAX];
    snprintf(path, sizeof path, "%s/bin", dir);
    assert_int_equal(gp_mkdir_p(path, err, sizeof err), 0);
    snprintf(path, sizeof path, "%s/lib/gemmprof", dir);
    assert_int_equal(gp_mkdir_p(path, err, sizeof err), 0);
    snprintf(lib, sizeof lib, "%s/lib/gemmprof/" GP_TRACE_LIB_NAME, dir);
    FILE *f = fopen(lib, "w");
    assert_non_null(f);
    fclose(f);
    snprintf(path, sizeof path, "%s/bin/gemmprof", dir);
    f = fopen(path, "w");
    assert_non_null(f);
    fclose(f);
    unsetenv(GP_TRACE_ENV_LIB);
    assert_int_equal(gp_trace_find_lib(path, found, sizeof found, err, sizeof err), 0);
    char real[PATH_MAX];
    assert_non_null(realpath(lib, real));
    assert_string_equal(found, real);
    /* the override wins, and a wrong one is named */
    setenv(GP_TRACE_ENV_LIB, "/no/such/lib.so", 1);
    assert_int_equal(gp_trace_find_lib(path, found, sizeof found, err, sizeof err), -1);
    assert_non_null(strstr(err, "GEMMPROF_INJECT_LIB=/no/such/lib.so"));
    unsetenv(GP_TRACE_ENV_LIB);
    unlink(lib);
    assert_int_equal(gp_trace_find_lib(path, found, sizeof found, err, sizeof err), -1);
    assert_non_null(strstr(err, "not found"));
    gp_rm_rf(dir);
}

/* ncu's meaning: skip and count apply to the launches that match. */
static void filter_counts_matching_launches(void **state)
{
    (void)state;
    gp_trace_filter f;
    assert_int_equal(gp_trace_filter_init(&f, "gemm", "1", "2", err, sizeof err), 0);
    const char *seq[] = { "elementwise", "sgemm_a", "fill", "sgemm_b", "dgemm_c",
                          "sgemm_d", "x" };
    int want[] = { 0, 0, 0, 1, 1, 0, 0 };
    for (int i = 0; i < 7; i++)
        assert_int_equal(gp_trace_filter_select(&f, seq[i]), want[i]);
    assert_int_equal(f.matched, 4);
    assert_true(gp_trace_filter_done(&f));
    gp_trace_filter_free(&f);

    assert_int_equal(gp_trace_filter_init(&f, NULL, NULL, NULL, err, sizeof err), 0);
    for (int i = 0; i < 100; i++)
        assert_int_equal(gp_trace_filter_select(&f, "any"), 1);
    assert_false(gp_trace_filter_done(&f));
    gp_trace_filter_free(&f);

    assert_int_equal(gp_trace_filter_init(&f, NULL, NULL, "0", err, sizeof err), 0);
    assert_int_equal(gp_trace_filter_select(&f, "any"), 0);
    gp_trace_filter_free(&f);

    assert_int_equal(gp_trace_filter_init(&f, "(", NULL, NULL, err, sizeof err), -1);
    assert_int_equal(gp_trace_filter_init(&f, NULL, "-3", NULL, err, sizeof err), -1);
    assert_non_null(strstr(err, "GEMMPROF_TRACE_LAUNCH_SKIP"));
}

/* A regex matches anywhere in the demangled name, templates included. */
static void filter_sees_the_demangled_name(void **state)
{
    (void)state;
    gp_trace_filter f;
    assert_int_equal(gp_trace_filter_init(&f, "Kernel2<cutlass_80_.*sgemm", NULL, NULL,
                                          err, sizeof err), 0);
    assert_int_equal(gp_trace_filter_select(&f, "void cutlass::Kernel2<cutlass_80_simt_"
                                                "sgemm_256x128_8x4_nn_align1>(Params)"), 1);
    assert_int_equal(gp_trace_filter_select(&f, "void at::native::vectorized_"
                                                "elementwise_kernel<4>(int)"), 0);
    gp_trace_filter_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(defaults_and_command),
        cmocka_unit_test(every_option),
        cmocka_unit_test(launch_count_zero_and_help),
        cmocka_unit_test(bad_input_is_named),
        cmocka_unit_test(environment_for_cmd),
        cmocka_unit_test(another_injector_is_refused),
        cmocka_unit_test(rank_from_launchers),
        cmocka_unit_test(part_names),
        cmocka_unit_test(library_found_next_to_binary_or_by_env),
        cmocka_unit_test(filter_counts_matching_launches),
        cmocka_unit_test(filter_sees_the_demangled_name),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
