/* test_part.c - memory running out inside the traced application becomes
 * a warning, never an exit: the library's part file gets one "# warning:"
 * line (the first shortage, however many follow) next to its rows, and
 * gemmprof trace's merge repeats it in the run file and its result. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inject/state.h"
#include "trace/trace.h"

static char top[] = "/tmp/gp-inject-part-XXXXXX";
static char err[512];

static int setup(void **state)
{
    (void)state;
    return mkdtemp(top) && gp_inject_guard_init() == 0 ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    gp_rm_rf(top);
    return 0;
}

/* A part as the library starts it (the metadata gp_inject_part_open would
 * read from the driver, written here), pid 7. */
static void start_part(const char *path)
{
    gp_inj.part = gp_inject_fopen(path);
    assert_non_null(gp_inj.part);
    gp_meta m;
    gp_meta_init(&m);
    gp_meta_set(&m, "schema", GP_RUN_SCHEMA);
    gp_meta_set(&m, "command", "./app");
    gp_meta_set(&m, "pid", "7");
    gp_csv_write_meta(gp_inj.part, &m);
    gp_csv_write_header(gp_inj.part);
}

static int count_lines(const char *path, const char *prefix)
{
    char line[1024];
    int n = 0;
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    while (fgets(line, sizeof line, f))
        n += strncmp(line, prefix, strlen(prefix)) == 0;
    fclose(f);
    return n;
}

static void shortage_is_one_warning_line(void **state)
{
    (void)state;
    char path[128], out[128];
    snprintf(path, sizeof path, "%s/host-7.csv", top);
    start_part(path);
    gp_trace_launch l = { .name = "k", .grid = { 1, 1, 1 }, .block = { 32, 1, 1 },
                          .pid = 7, .correlation_id = 1, .regs = -1, .local_bytes = -1,
                          .static_smem = -1, .active_blocks = -1 };
    gp_row r;
    gp_trace_launch_row(&l, &r);
    gp_inject_part_row(&r);                     /* nothing short yet */
    gp_inject_out_of_memory("the kernel-name cache");
    gp_inject_out_of_memory("an Activity API buffer");
    l.correlation_id = 2;
    gp_trace_launch_row(&l, &r);
    gp_inject_part_row(&r);
    gp_inject_part_flush();                     /* at exit: said already */
    assert_int_equal(gp_inject_fclose(gp_inj.part), 0);
    gp_inj.part = NULL;
    assert_int_equal(count_lines(path, "# warning: out of memory in the kernel-name cache:"), 1);
    assert_int_equal(count_lines(path, "# warning:"), 1);
    assert_int_equal(count_lines(path, "k,"), 2);     /* the rows */

    char *argv[] = { "gemmprof", "trace", "--", "./app", NULL };
    gp_trace_merge_opts mo = { .per_launch = 1, .argc = 4, .argv = argv, .metrics = "none" };
    gp_trace_merge_result res;
    snprintf(out, sizeof out, "%s/run.csv", top);
    assert_int_equal(gp_trace_merge(top, &mo, out, &res, err, sizeof err), 0);
    assert_int_equal(res.rows, 2);
    assert_non_null(strstr(res.warning, "host-7.csv: out of memory in the kernel-name cache"));
    assert_int_equal(count_lines(out, "# warning: 7: out of memory in the kernel-name cache:"), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(shortage_is_one_warning_line),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
