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
    assert_int_equal(o.per_launch, 0);          /* a row per configuration */
    assert_string_equal(o.sample, "per-config");
    assert_int_equal(o.per_config, 1);
    assert_null(o.nvtx_include);
    assert_string_equal(o.tensor_counters, "auto");
    assert_int_equal(o.metric_list.count, GP_NMETRICS);   /* default, parsed once */
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
                           "--per-launch", "--sample", "per-config:3", "--nvtx-include",
                           "train step", "--tensor-counters", "always", "-q", "python3",
                           "train.py", "--out", "y", NULL), 0);
    assert_string_equal(o.kernel_regex, "gemm|conv");
    assert_int_equal(o.launch_skip, 5);
    assert_int_equal(o.launch_count, 2);
    assert_string_equal(o.metrics, "dram__bytes_read.sum,gpu__time_duration.sum");
    assert_int_equal(o.metric_list.count, 2);
    assert_string_equal(o.out, "x.csv");
    assert_int_equal(o.per_launch, 1);
    assert_int_equal(o.per_config, 3);
    assert_string_equal(o.nvtx_include, "train step");
    assert_string_equal(o.tensor_counters, "always");
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
    assert_int_equal(parse("--sample", "all", "--per-launch", "--summary", "./a", NULL), 0);
    assert_int_equal(o.per_config, 0);
    assert_int_equal(o.per_launch, 0);          /* --summary: the default again */
    assert_int_equal(parse("--sample", "per-config:12", "./a", NULL), 0);
    assert_int_equal(o.per_config, 12);
    assert_int_equal(parse("--metrics", "none", "./a", NULL), 0);
    assert_int_equal(o.metric_list.count, 0);
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
    expect_error("--tensor-counters: 'never' is not auto or always", "--tensor-counters",
                 "never", "./a");
    expect_error("option '--launch-count' needs an argument", "--launch-count");
    expect_error("unknown option '--size'", "--size", "4096", "./a");
    expect_error("option '--launch' is ambiguous (--launch-skip, --launch-count)",
                 "--launch", "1", "./a");
    expect_error("option '--summary' takes no argument", "--summary=yes", "./a");
    expect_error("unknown option '-x'", "-x", "./a");
    expect_error("--out: empty path", "--out", "", "./a");
    expect_error("--sample: 'some' is not all, per-config or per-config:N", "--sample", "some",
                 "./a");
    expect_error("--sample: 'per-config:0' is not", "--sample", "per-config:0", "./a");
    expect_error("--sample: 'per-config:' is not", "--sample", "per-config:", "./a");
    expect_error("--sample: 'per-config:2x' is not", "--sample", "per-config:2x", "./a");
    expect_error("--sample: 'per-configs' is not", "--sample", "per-configs", "./a");
    expect_error("--nvtx-include: empty range name", "--nvtx-include", "", "./a");
    expect_error("option '--per-launch' takes no argument", "--per-launch=1", "./a");
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
    assert_true(has(&out, "GEMMPROF_TRACE_SAMPLE=per-config"));
    assert_true(has(&out, "GEMMPROF_TRACE_TENSOR_COUNTERS=auto"));
    /* a stale setting of an outer trace does not leak in */
    assert_false(has_prefix(&out, "GEMMPROF_TRACE_LAUNCH_SKIP="));
    assert_false(has(&out, "GEMMPROF_TRACE_KERNEL_REGEX=old"));
    assert_false(has_prefix(&out, "NVTX_INJECTION64_PATH="));
    assert_int_equal(out.n, 3 + 7);
    gp_strlist_free(&out);

    /* defaults: no filter variables at all */
    assert_int_equal(parse("./app", NULL), 0);
    assert_int_equal(gp_trace_env(&o, env, "/l.so", "/d", &out, err, sizeof err), 0);
    assert_true(has(&out, "GEMMPROF_TRACE_METRICS=default"));
    assert_false(has_prefix(&out, "GEMMPROF_TRACE_KERNEL_REGEX="));
    assert_false(has_prefix(&out, "GEMMPROF_TRACE_LAUNCH_"));
    assert_false(has_prefix(&out, "GEMMPROF_TRACE_NVTX_INCLUDE="));
    gp_strlist_free(&out);

    /* --nvtx-include: NVTX loads the same library, which hands it to CUPTI */
    assert_int_equal(parse("--nvtx-include", "step", "--sample", "all", "./app", NULL), 0);
    assert_int_equal(gp_trace_env(&o, env, "/l.so", "/d", &out, err, sizeof err), 0);
    assert_true(has(&out, "NVTX_INJECTION64_PATH=/l.so"));
    assert_true(has(&out, "GEMMPROF_TRACE_NVTX_INCLUDE=step"));
    assert_true(has(&out, "GEMMPROF_TRACE_SAMPLE=all"));
    gp_strlist_free(&out);
    /* ... and refuses another tool's NVTX injection */
    char *nsys[] = { "NVTX_INJECTION64_PATH=/opt/nsys/libnvtx.so", NULL };
    assert_int_equal(gp_trace_env(&o, nsys, "/l.so", "/d", &out, err, sizeof err), -1);
    assert_non_null(strstr(err, "NVTX_INJECTION64_PATH is already set"));
    /* without --nvtx-include the variable is the application's business */
    assert_int_equal(parse("./app", NULL), 0);
    assert_int_equal(gp_trace_env(&o, nsys, "/l.so", "/d", &out, err, sizeof err), 0);
    assert_true(has(&out, "NVTX_INJECTION64_PATH=/opt/nsys/libnvtx.so"));
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

/* A launch of kernel `name` in configuration `grid` (one number). */
static gp_trace_pick pick(gp_trace_filter *f, const char *name, unsigned grid, uint32_t corr)
{
    gp_trace_config_key k;
    memset(&k, 0, sizeof k);
    k.func = name;              /* a stand-in for the CUfunction */
    k.grid[0] = grid, k.grid[1] = k.grid[2] = 1;
    k.block[0] = 256, k.block[1] = k.block[2] = 1;
    gp_trace_pick p;
    gp_trace_filter_pick(f, name, &k, corr, &p);
    return p;
}

/* --sample all: ncu's meaning, skip and count apply to the launches that
 * match, among all of them; every matching launch is timed. */
static void filter_counts_matching_launches(void **state)
{
    (void)state;
    gp_trace_filter f;
    assert_int_equal(gp_trace_filter_init(&f, "gemm", "1", "2", "all", err, sizeof err), 0);
    const char *seq[] = { "elementwise", "sgemm_a", "fill", "sgemm_b", "dgemm_c",
                          "sgemm_d", "x" };
    int timed[] = { 0, 1, 0, 1, 1, 1, 0 }, profiled[] = { 0, 0, 0, 1, 1, 0, 0 };
    for (int i = 0; i < 7; i++) {
        gp_trace_pick p = pick(&f, seq[i], 8, (uint32_t)i + 1);
        assert_int_equal(p.timed, timed[i]);
        assert_int_equal(p.profiled, profiled[i]);
    }
    assert_int_equal(f.matched, 4);
    assert_int_equal(f.profiled, 2);
    gp_trace_filter_free(&f);

    assert_int_equal(gp_trace_filter_init(&f, NULL, NULL, NULL, "all", err, sizeof err), 0);
    for (int i = 0; i < 100; i++)
        assert_int_equal(pick(&f, "any", 8, (uint32_t)i + 1).profiled, 1);
    gp_trace_filter_free(&f);

    assert_int_equal(gp_trace_filter_init(&f, NULL, NULL, "0", "all", err, sizeof err), 0);
    gp_trace_pick p = pick(&f, "any", 8, 1);
    assert_int_equal(p.profiled, 0);
    assert_int_equal(p.timed, 1);               /* timed still */
    gp_trace_filter_free(&f);

    assert_int_equal(gp_trace_filter_init(&f, "(", NULL, NULL, NULL, err, sizeof err), -1);
    assert_int_equal(gp_trace_filter_init(&f, NULL, "-3", NULL, NULL, err, sizeof err), -1);
    assert_non_null(strstr(err, "GEMMPROF_TRACE_LAUNCH_SKIP"));
    assert_int_equal(gp_trace_filter_init(&f, NULL, NULL, NULL, "per-config:x", err,
                                          sizeof err), -1);
    assert_non_null(strstr(err, "--sample"));
}

/* --sample per-config:N (the default, N = 1): the first N launches of
 * each configuration are profiled, --launch-skip counts per configuration
 * (ncu --filter-mode per-launch-config), --launch-count caps them all;
 * each launch names its configuration's first. */
static void filter_samples_per_configuration(void **state)
{
    (void)state;
    gp_trace_filter f;
    assert_int_equal(gp_trace_filter_init(&f, NULL, NULL, NULL, NULL, err, sizeof err), 0);
    assert_int_equal(f.per_config, 1);
    /* gemm at grids 8, 16, 8, 8, 16, 32; relu at grid 8 (another kernel) */
    struct { const char *k; unsigned grid; int profiled, first; uint32_t first_corr; } seq[] = {
        { "gemm", 8, 1, 1, 1 }, { "gemm", 16, 1, 1, 2 }, { "gemm", 8, 0, 0, 1 },
        { "gemm", 8, 0, 0, 1 }, { "gemm", 16, 0, 0, 2 }, { "gemm", 32, 1, 1, 6 },
        { "relu", 8, 1, 1, 7 },
    };
    for (uint32_t i = 0; i < 7; i++) {
        gp_trace_pick p = pick(&f, seq[i].k, seq[i].grid, i + 1);
        assert_int_equal(p.timed, 1);
        assert_int_equal(p.profiled, seq[i].profiled);
        assert_int_equal(p.first, seq[i].first);
        assert_int_equal(p.first_corr, seq[i].first_corr);
    }
    assert_int_equal(f.nslots, 4);
    /* many configurations: the table grows and keeps every one */
    for (uint32_t g = 100; g < 1100; g++)
        assert_int_equal(pick(&f, "many", g, g).profiled, 1);
    for (uint32_t g = 100; g < 1100; g++) {
        gp_trace_pick p = pick(&f, "many", g, 5000 + g);
        assert_int_equal(p.profiled, 0);
        assert_int_equal(p.first_corr, g);
    }
    assert_int_equal(f.nslots, 1004);
    gp_trace_filter_free(&f);

    /* per-config:2 after a warm-up launch of each, at most 3 in all */
    assert_int_equal(gp_trace_filter_init(&f, "gemm", "1", "3", "per-config:2", err,
                                          sizeof err), 0);
    int a[] = { 0, 1, 1, 0, 0 };               /* grid 8: skip, 2 profiled, then not */
    for (uint32_t i = 0; i < 5; i++)
        assert_int_equal(pick(&f, "gemm", 8, i + 1).profiled, a[i]);
    int b[] = { 0, 1, 0 };                     /* grid 16: the cap of 3 is reached */
    for (uint32_t i = 0; i < 3; i++)
        assert_int_equal(pick(&f, "gemm", 16, 10 + i).profiled, b[i]);
    gp_trace_pick p = pick(&f, "relu", 8, 20);
    assert_int_equal(p.timed, 0);              /* the regex: not timed, no slot */
    assert_int_equal(f.nslots, 2);
    gp_trace_filter_free(&f);
}

/* Configurations whose next launch is to take every counter (the
 * filter's table, read directly). */
static long wanting(const gp_trace_filter *f)
{
    long n = 0;
    for (size_t i = 0; i < f->cap; i++)
        n += f->slots[i].used && f->slots[i].want_full;
    return n;
}

/* --tensor-counters auto: a configuration whose gated launch ran
 * tensor-core math has its next launch profiled in full, outside the
 * sample window too, once; --launch-count still caps it. */
static void filter_profiles_the_launch_after_tensor_math(void **state)
{
    (void)state;
    gp_trace_filter f;
    assert_int_equal(gp_trace_filter_init(&f, NULL, NULL, NULL, NULL, err, sizeof err), 0);
    gp_trace_pick p = pick(&f, "hmma", 8, 1);
    assert_int_equal(p.profiled, 1);
    assert_int_equal(p.full, 0);
    assert_int_equal(pick(&f, "ffma", 8, 2).profiled, 1);
    gp_trace_config_key k;
    memset(&k, 0, sizeof k);
    k.func = "hmma";
    k.grid[0] = 8, k.grid[1] = k.grid[2] = 1;
    k.block[0] = 256, k.block[1] = k.block[2] = 1;
    gp_trace_filter_want_full(&f, &k);
    assert_int_equal(wanting(&f), 1);
    p = pick(&f, "ffma", 8, 3);                 /* another configuration: no */
    assert_int_equal(p.profiled, 0);
    p = pick(&f, "hmma", 8, 4);
    assert_int_equal(p.profiled, 1);
    assert_int_equal(p.full, 1);
    assert_int_equal(p.first_corr, 1);
    assert_int_equal(wanting(&f), 0);
    p = pick(&f, "hmma", 8, 5);                 /* once */
    assert_int_equal(p.profiled, 0);
    assert_int_equal(p.full, 0);
    k.grid[0] = 99;                             /* never seen: nothing to want */
    gp_trace_filter_want_full(&f, &k);
    assert_int_equal(wanting(&f), 0);
    gp_trace_filter_free(&f);

    assert_int_equal(gp_trace_filter_init(&f, NULL, NULL, "1", NULL, err, sizeof err), 0);
    assert_int_equal(pick(&f, "hmma", 8, 1).profiled, 1);
    k.grid[0] = 8;
    gp_trace_filter_want_full(&f, &k);
    assert_int_equal(pick(&f, "hmma", 8, 2).profiled, 0);   /* --launch-count 1 */
    assert_int_equal(wanting(&f), 1);
    gp_trace_filter_free(&f);
    gp_trace_filter_want_full(&f, &k);          /* freed: no slots, no crash */
}

/* A regex matches anywhere in the demangled name, templates included. */
static void filter_sees_the_demangled_name(void **state)
{
    (void)state;
    gp_trace_filter f;
    assert_int_equal(gp_trace_filter_init(&f, "Kernel2<cutlass_80_.*sgemm", NULL, NULL, NULL,
                                          err, sizeof err), 0);
    assert_int_equal(gp_trace_filter_matches(&f, "void cutlass::Kernel2<cutlass_80_simt_"
                                                 "sgemm_256x128_8x4_nn_align1>(Params)"), 1);
    assert_int_equal(gp_trace_filter_matches(&f, "void at::native::vectorized_"
                                                 "elementwise_kernel<4>(int)"), 0);
    gp_trace_filter_free(&f);
}

/* --nvtx-include: a launch is inside when any range on its thread's
 * stack has the name, however deep. */
static void nvtx_ranges_nest(void **state)
{
    (void)state;
    gp_nvtx_stack s;
    memset(&s, 0, sizeof s);
    assert_false(gp_nvtx_inside(&s));
    gp_nvtx_pop(&s);                            /* a stray pop: ignored */
    assert_int_equal(s.depth, 0);
    gp_nvtx_push(&s, "step", "epoch");
    assert_false(gp_nvtx_inside(&s));
    gp_nvtx_push(&s, "step", "step");
    assert_true(gp_nvtx_inside(&s));
    gp_nvtx_push(&s, "step", "forward");
    gp_nvtx_push(&s, "step", NULL);             /* a registered or wide message */
    assert_true(gp_nvtx_inside(&s));
    gp_nvtx_pop(&s);
    gp_nvtx_pop(&s);
    assert_true(gp_nvtx_inside(&s));
    gp_nvtx_pop(&s);                            /* "step" ends */
    assert_false(gp_nvtx_inside(&s));
    gp_nvtx_push(&s, "step", "steps");          /* the whole name, not a prefix */
    assert_false(gp_nvtx_inside(&s));
    gp_nvtx_pop(&s);
    gp_nvtx_pop(&s);
    assert_int_equal(s.depth, 0);
    /* deeper than the stack keeps: counted, and the named ones below stay */
    gp_nvtx_push(&s, "step", "step");
    for (int i = 0; i < GP_NVTX_DEPTH + 10; i++)
        gp_nvtx_push(&s, "step", "step");
    for (int i = 0; i < GP_NVTX_DEPTH + 10; i++)
        gp_nvtx_pop(&s);
    assert_true(gp_nvtx_inside(&s));
    gp_nvtx_pop(&s);
    assert_false(gp_nvtx_inside(&s));
    assert_int_equal(s.inside, 0);
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
        cmocka_unit_test(filter_samples_per_configuration),
        cmocka_unit_test(filter_profiles_the_launch_after_tensor_math),
        cmocka_unit_test(filter_sees_the_demangled_name),
        cmocka_unit_test(nvtx_ranges_nest),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
