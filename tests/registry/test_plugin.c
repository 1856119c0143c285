/* test_plugin.c - loading plugins (gp_plugin_load) and the crash guard,
 * without a GPU: the plugins are tests/fixtures/plugins/fixture.c built here
 * with the C compiler, one per -D flag.  tests/plugin.sh checks the same
 * errors through the command line; tests/plugin_gpu.sh runs real kernels. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "run/run.h"
#include "data/csv.h"
#include "registry/registry.h"

static char dir[] = "/tmp/gemmprof-test-plugin-XXXXXX";
static char err[1024];

/* dir/NAME.so from fixture.c with `flags`.  Built from the source tree the
 * test was compiled in (make runs tests from the top directory). */
static int build(const char *name, const char *flags)
{
    char src[4096], cmd[8192];
    const char *cc = getenv("CC"), *cuda = getenv("CUDA_HOME");
    snprintf(src, sizeof src, "%s", __FILE__);
    char *tests = dirname(dirname(src));     /* tests/registry/x.c -> tests */
    snprintf(cmd, sizeof cmd, "%s -shared -fPIC -std=c11 -Wall -Wextra "
             "-I%s/../src -I%s/include %s %s/fixtures/plugins/fixture.c -o %s/%s.so",
             cc && *cc ? cc : "cc", tests, cuda && *cuda ? cuda : "/usr/local/cuda",
             flags, tests, dir, name);
    if (system(cmd) != 0) {
        fprintf(stderr, "test_plugin: building a fixture failed: %s\n", cmd);
        return -1;
    }
    return 0;
}

static const struct { const char *name, *flags, *message; } bad[] = {
    { "abi999",    "-DABI=999",       "plugin ABI 999, gemmprof speaks ABI 1: rebuild" },
    { "dup",       "-DDUP",           "duplicate kernel name 'naive': already defined by a built-in" },
    { "twice",     "-DTWICE",         "kernel 'fixture_fp32' is listed twice" },
    { "badname",   "-DBAD_NAME",      "kernel name 'Bad Name' is not valid" },
    { "nolaunch",  "-DNO_LAUNCHER",   "kernel 'fixture_fp64' has no launcher" },
    { "badprec",   "-DBAD_PRECISION", "unknown precision 7" },
    { "nulltable", "-DNULL_TABLE",    "gemmprof_plugin() returned NULL" },
    { "empty",     "-DEMPTY",         "lists no kernels" },
    { "noentry",   "-DNO_ENTRY",      "no gemmprof_plugin symbol" },
    { "ownrt",     "-DFATBIN",        "links its own copy of the CUDA runtime" },
    { "noabi",     "-DNO_ABI_SYMBOL", "no gemmprof_abi_version symbol (built with an older "
                                      "gemmprof.h): rebuild the plugin" },
};
#define NBAD (sizeof bad / sizeof bad[0])

/* Plugins with a constructor that creates the marker file: refused from
 * the file alone, their code never runs; the last is refused only after
 * dlopen (a kernel check), the control that shows the marker works. */
static const struct { const char *name, *flags, *message; } ctor[] = {
    { "ctor_abi",     "-DCTOR -DABI=999",       "plugin ABI 999" },
    { "ctor_noabi",   "-DCTOR -DNO_ABI_SYMBOL", "no gemmprof_abi_version symbol" },
    { "ctor_ownrt",   "-DCTOR -DFATBIN",        "links its own copy of the CUDA runtime" },
    { "ctor_noentry", "-DCTOR -DNO_ENTRY",      "no gemmprof_plugin symbol" },
    { "ctor_dup",     "-DCTOR -DDUP",           "duplicate kernel name 'naive'" },
};
#define NCTOR (sizeof ctor / sizeof ctor[0])

static int setup(void **state)
{
    (void)state;
    if (!mkdtemp(dir))
        return -1;
    if (build("good", "") || build("good2", "") ||
        build("sharedrt", "-DFATBIN -L${CUDA_HOME:-/usr/local/cuda}/lib64 "
              "-Wl,--no-as-needed -lcudart"))
        return -1;
    for (size_t i = 0; i < NBAD; i++)
        if (build(bad[i].name, bad[i].flags))
            return -1;
    for (size_t i = 0; i < NCTOR; i++)
        if (build(ctor[i].name, ctor[i].flags))
            return -1;
    return 0;
}

static int teardown(void **state)
{
    char cmd[256];
    (void)state;
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static const char *so(const char *name)
{
    static char path[4][4096];
    static int next;
    char *p = path[next++ % 4];
    snprintf(p, sizeof path[0], "%s/%s.so", dir, name);
    return p;
}

static void bad_plugins_register_nothing_and_say_why(void **state)
{
    (void)state;
    int before = gp_registry_count();
    for (size_t i = 0; i < NBAD; i++) {
        char want_file[64];
        snprintf(want_file, sizeof want_file, "%s.so: ", bad[i].name);
        strcpy(err, "(untouched)");
        int rc = gp_plugin_load(so(bad[i].name), err, sizeof err);
        if (rc != -1 || !strstr(err, want_file) || !strstr(err, bad[i].message) ||
            strchr(err, '\n'))
            fail_msg("%s: got %d '%s', wanted -1 and '%s'", bad[i].name, rc, err,
                     bad[i].message);
        assert_int_equal(gp_registry_count(), before);
    }
    assert_null(gp_registry_find("fixture_fp32"));
}

static void missing_and_non_elf_files_are_refused(void **state)
{
    (void)state;
    assert_int_equal(gp_plugin_load(so("nope"), err, sizeof err), -1);
    assert_non_null(strstr(err, "nope.so: cannot read plugin: No such file"));
    FILE *f = fopen(so("junk"), "w");
    assert_non_null(f);
    fputs("this is not an ELF file, whatever its name says\n", f);
    fclose(f);
    assert_int_equal(gp_plugin_load(so("junk"), err, sizeof err), -1);
    assert_non_null(strstr(err, "junk.so: cannot load as a shared object: "));
    assert_int_equal(gp_plugin_cuda_runtime(so("junk")), -1);
    assert_int_equal(gp_plugin_cuda_runtime(so("nope")), -1);
}

static void elf_sections_tell_which_cuda_runtime(void **state)
{
    (void)state;
    assert_int_equal(gp_plugin_cuda_runtime(so("good")), GP_RT_NONE);
    assert_int_equal(gp_plugin_cuda_runtime(so("ownrt")), GP_RT_OWN);
    assert_int_equal(gp_plugin_cuda_runtime(so("sharedrt")), GP_RT_SHARED);
}

static void refused_from_the_file_before_any_code_runs(void **state)
{
    (void)state;
    char marker[4096];
    snprintf(marker, sizeof marker, "%s/constructor-ran", dir);
    setenv("GP_FIXTURE_MARKER", marker, 1);
    for (size_t i = 0; i < NCTOR; i++) {
        int last = i + 1 == NCTOR;
        assert_int_equal(gp_plugin_load(so(ctor[i].name), err, sizeof err), -1);
        if (!strstr(err, ctor[i].message))
            fail_msg("%s: '%s', wanted '%s'", ctor[i].name, err, ctor[i].message);
        if ((access(marker, F_OK) == 0) != last)
            fail_msg("%s: the constructor %s", ctor[i].name,
                     last ? "did not run after dlopen" : "ran before the refusal");
    }
    unsetenv("GP_FIXTURE_MARKER");
}

static void elf_facts_read_before_loading(void **state)
{
    (void)state;
    gp_plugin_facts f;
    assert_int_equal(gp_plugin_inspect(so("good"), &f), 0);
    assert_true(f.has_entry && f.has_abi);
    assert_int_equal(f.abi, GEMMPROF_ABI_VERSION);
    assert_int_equal(gp_plugin_inspect(so("abi999"), &f), 0);
    assert_true(f.has_abi);
    assert_int_equal(f.abi, 999);
    assert_int_equal(gp_plugin_inspect(so("noabi"), &f), 0);
    assert_true(f.has_entry && !f.has_abi);
    assert_int_equal(gp_plugin_inspect(so("noentry"), &f), 0);
    assert_false(f.has_entry);
    assert_int_equal(gp_plugin_inspect(so("junk"), &f), -1);
}

static void valid_plugin_registers_its_kernels(void **state)
{
    (void)state;
    int before = gp_registry_count();
    assert_int_equal(gp_plugin_load(so("good"), err, sizeof err), 2);
    assert_int_equal(gp_registry_count(), before + 2);
    const gp_kernel *a = gp_registry_find("fixture_fp32");
    const gp_kernel *b = gp_registry_find("fixture_fp64");
    assert_non_null(a);
    assert_non_null(b);
    assert_int_equal(a->precision, GP_FP32);
    assert_int_equal(b->precision, GP_FP64);
    assert_string_equal(a->idea, "[good.so] fixture: returns cudaErrorNotSupported");
    assert_string_equal(gp_plugin_origin(a), so("good"));
    assert_null(gp_plugin_origin(gp_registry_find("naive")));
    gp_launch_info li;
    memset(&li, 0, sizeof li);
    assert_int_equal(a->launch(NULL, 0, &li), cudaErrorNotSupported);
    assert_string_equal(li.config, "none");
    /* a second file with the same names is refused, naming the first */
    assert_int_equal(gp_plugin_load(so("good2"), err, sizeof err), -1);
    assert_non_null(strstr(err, "good2.so: duplicate kernel name 'fixture_fp32': "
                                "already defined by good.so"));
}

static void loading_a_file_again_changes_nothing(void **state)
{
    (void)state;
    int before = gp_registry_count();
    assert_int_equal(gp_plugin_load(so("good"), err, sizeof err), 2);
    assert_int_equal(gp_registry_count(), before);
}

static void plugin_kernels_resolve_whatever_the_option_order(void **state)
{
    (void)state;
    static gp_options o;
    char *argv[] = { "gemmprof", "--kernel", "fixture_fp64,naive", "--plugin",
                     (char *)so("good"), "--size", "8", NULL };
    assert_int_equal(gp_cli_parse(7, argv, &o, err, sizeof err), 0);
    assert_int_equal(o.nkernels, 2);
    assert_string_equal(o.kernels[0]->name, "fixture_fp64");
    assert_int_equal(o.nplugins, 1);
    char *bad_argv[] = { "gemmprof", "--plugin", (char *)so("abi999"), "--list", NULL };
    assert_int_equal(gp_cli_parse(4, bad_argv, &o, err, sizeof err), -1);
    assert_non_null(strstr(err, "abi999.so: plugin ABI 999"));
}

static void describe_names_every_loaded_plugin(void **state)
{
    (void)state;
    char buf[2048], real[4096];
    gp_plugin_describe(buf, sizeof buf);
    assert_non_null(realpath(so("good"), real));
    assert_non_null(strstr(buf, real));
    assert_non_null(strstr(buf, "(plugin 'fixture', 2 kernels)"));
}

static void launch_info_fill_records_the_launch(void **state)
{
    (void)state;
    gp_launch_info li;
    char config[100];
    memset(config, 'x', sizeof config - 1);
    config[sizeof config - 1] = '\0';
    gp_launch_info_fill(&li, &li, (dim3){3, 2, 1}, (dim3){16, 16, 1}, 48, config);
    assert_ptr_equal(li.func, &li);
    assert_int_equal(li.grid[0] * li.grid[1] * li.grid[2], 6);
    assert_int_equal(li.block[0] * li.block[1] * li.block[2], 256);
    assert_int_equal(li.dyn_smem, 48);
    assert_int_equal(strlen(li.config), sizeof li.config - 1);  /* cut, ended */
    gp_launch_info_fill(&li, NULL, (dim3){1, 1, 1}, (dim3){1, 1, 1}, 0, NULL);
    assert_string_equal(li.config, "");
    gp_launch_info_fill(NULL, NULL, (dim3){1, 1, 1}, (dim3){1, 1, 1}, 0, "x");
}

/* Read at run time: a real fault, not a trap.  Not NULL: a null load is
 * undefined behaviour that UBSan (make SANITIZE=1) stops before it faults. */
static int *volatile nowhere = (int *)16;
static void exit_42(int sig) { (void)sig; _exit(42); }

/* Rows "held0", "held1", ... at 3x5x7, as the run command holds them for
 * --energy (timed, not yet written). */
static void held_rows(gp_row *r, int n, int first)
{
    static const gp_kernel k = { "held", GP_FP32, "x", NULL };
    for (int i = 0; i < n; ++i) {
        gp_row_identify(&r[i], &k, 3, 5, 7, 1.0, 0.0);
        snprintf(r[i].kernel, sizeof r[i].kernel, "held%d", first + i);
        r[i].time_ms = 0.5 + i;
    }
}

/* Fork; the child arms the guard for a kernel "crashy" (or not), keeps two
 * held rows before the crash row and one after (if `keep`), then faults.
 * Returns the wait status; the child's stderr goes to dir/stderr. */
static int crash_child(const char *csv, int arm, int disarm, int own_handler,
                       int keep)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        struct rlimit none = {0, 0};
        setrlimit(RLIMIT_CORE, &none);
        if (!freopen(so("stderr"), "w", stderr))
            _exit(3);
        /* cmocka catches signals itself; the child must not go back to it */
        signal(SIGSEGV, own_handler ? exit_42 : SIG_DFL);
        static const gp_kernel k = { "crashy", GP_FP32, "x", NULL };
        gp_row before[2], after[1];
        held_rows(before, 2, 0);
        held_rows(after, 1, 2);
        if (arm)
            gp_plugin_guard_arm(csv, &k, 3, 5, 7, 1.0, 0.0);
        if (keep)
            gp_plugin_guard_keep(before, 2, after, 1);
        if (disarm)
            gp_plugin_guard_disarm();
        _exit(*nowhere);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    return status;
}

static void start_run_file(const char *csv)
{
    FILE *f = fopen(csv, "w");
    assert_non_null(f);
    gp_csv_write_header(f);
    fclose(f);
}

static void crash_guard_leaves_a_row_and_dies_of_the_signal(void **state)
{
    (void)state;
    char csv[4096], line[512] = "";
    snprintf(csv, sizeof csv, "%s/crash.csv", dir);
    start_run_file(csv);
    int st = crash_child(csv, 1, 0, 0, 0);
    assert_true(WIFSIGNALED(st));
    assert_int_equal(WTERMSIG(st), SIGSEGV);
    gp_run_file rf;
    assert_int_equal(gp_csv_read(csv, &rf, err, sizeof err), 0);
    assert_int_equal(rf.nrows, 1);
    assert_string_equal(rf.rows[0].kernel, "crashy");
    assert_int_equal(rf.rows[0].m * 100 + rf.rows[0].n * 10 + rf.rows[0].k, 357);
    assert_int_equal(rf.rows[0].verified, -1);
    assert_non_null(strstr(rf.rows[0].status, "error: crashed: SIGSEGV"));
    gp_run_file_free(&rf);
    FILE *f = fopen(so("stderr"), "r");
    assert_non_null(f);
    assert_non_null(fgets(line, sizeof line, f));
    fclose(f);
    assert_non_null(strstr(line, "gemmprof: crashy (built-in) crashed the "
                                 "process with SIGSEGV at 3x5x7"));
}

static void crash_guard_hands_the_signal_to_the_handler_before_it(void **state)
{
    (void)state;
    char csv[4096];
    snprintf(csv, sizeof csv, "%s/chain.csv", dir);
    start_run_file(csv);
    int st = crash_child(csv, 1, 0, 1, 0);      /* row, then the old handler */
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 42);
    gp_run_file rf;
    assert_int_equal(gp_csv_read(csv, &rf, err, sizeof err), 0);
    assert_int_equal(rf.nrows, 1);
    gp_run_file_free(&rf);
}

static void disarmed_guard_writes_nothing(void **state)
{
    (void)state;
    char csv[4096];
    snprintf(csv, sizeof csv, "%s/disarmed.csv", dir);
    start_run_file(csv);
    int st = crash_child(csv, 1, 1, 1, 1);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 42);
    st = crash_child(csv, 0, 0, 0, 1);
    assert_true(WIFSIGNALED(st));
    gp_run_file rf;
    assert_int_equal(gp_csv_read(csv, &rf, err, sizeof err), 0);
    assert_int_equal(rf.nrows, 0);
    gp_run_file_free(&rf);
}

/* --energy holds a shape's rows until its windows: a crash writes them
 * too, in order around the crash row. */
static void crash_guard_writes_the_held_rows_in_order(void **state)
{
    (void)state;
    char csv[4096];
    snprintf(csv, sizeof csv, "%s/held.csv", dir);
    start_run_file(csv);
    int st = crash_child(csv, 1, 0, 0, 1);
    assert_true(WIFSIGNALED(st));
    assert_int_equal(WTERMSIG(st), SIGSEGV);
    gp_run_file rf;
    assert_int_equal(gp_csv_read(csv, &rf, err, sizeof err), 0);
    assert_int_equal(rf.nrows, 4);
    static const char *const want[] = { "held0", "held1", "crashy", "held2" };
    for (int i = 0; i < 4; ++i)
        assert_string_equal(rf.rows[i].kernel, want[i]);
    assert_true(rf.rows[1].time_ms == 1.5);
    assert_non_null(strstr(rf.rows[2].status, "error: crashed: SIGSEGV"));
    gp_run_file_free(&rf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bad_plugins_register_nothing_and_say_why),
        cmocka_unit_test(missing_and_non_elf_files_are_refused),
        cmocka_unit_test(elf_sections_tell_which_cuda_runtime),
        cmocka_unit_test(elf_facts_read_before_loading),
        cmocka_unit_test(refused_from_the_file_before_any_code_runs),
        cmocka_unit_test(valid_plugin_registers_its_kernels),
        cmocka_unit_test(loading_a_file_again_changes_nothing),
        cmocka_unit_test(plugin_kernels_resolve_whatever_the_option_order),
        cmocka_unit_test(describe_names_every_loaded_plugin),
        cmocka_unit_test(launch_info_fill_records_the_launch),
        cmocka_unit_test(crash_guard_leaves_a_row_and_dies_of_the_signal),
        cmocka_unit_test(crash_guard_hands_the_signal_to_the_handler_before_it),
        cmocka_unit_test(disarmed_guard_writes_nothing),
        cmocka_unit_test(crash_guard_writes_the_held_rows_in_order),
    };
    return cmocka_run_group_tests_name("plugin", tests, setup, teardown);
}
