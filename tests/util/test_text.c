/* test_text.c - growing strings and lists when memory runs out: realloc
 * fails (linked with --wrap=realloc, see the Makefile), the function
 * returns -1 and leaves the string or list as it was, and nothing exits
 * unless a handler says so (gemmprof's main does; the injection library,
 * which runs inside other people's processes, never). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/util.h"

static int fail_realloc;
void *__real_realloc(void *p, size_t n);
void *__wrap_realloc(void *p, size_t n)
{
    return fail_realloc ? NULL : __real_realloc(p, n);
}

static int handler_calls;
static void count_calls(void) { handler_calls++; }

static void buffer_left_as_it_was(void **state)
{
    (void)state;
    gp_buf b = { 0 };
    assert_int_equal(gp_buf_printf(&b, "%s", "kept"), 0);
    fail_realloc = 1;
    assert_int_equal(gp_buf_printf(&b, "%0300d", 7), -1);   /* needs to grow */
    fail_realloc = 0;
    assert_string_equal(b.s, "kept");
    assert_int_equal(b.len, 4);
    assert_int_equal(gp_buf_printf(&b, "%s", "!"), 0);
    assert_string_equal(b.s, "kept!");
    gp_buf_free(&b);
}

static void list_left_as_it_was(void **state)
{
    (void)state;
    gp_strlist l = { 0 };
    assert_int_equal(gp_strlist_add(&l, "one"), 0);
    fail_realloc = 1;
    assert_int_equal(gp_strlist_add(&l, "two"), -1);
    fail_realloc = 0;
    assert_int_equal(l.n, 1);
    assert_string_equal(l.v[0], "one");
    gp_strlist_free(&l);
}

static void handler_called_once_per_failure(void **state)
{
    (void)state;
    gp_buf b = { 0 };
    gp_on_out_of_memory(count_calls);
    fail_realloc = 1;
    assert_int_equal(gp_buf_printf(&b, "x"), -1);
    fail_realloc = 0;
    assert_int_equal(gp_buf_printf(&b, "x"), 0);
    gp_on_out_of_memory(NULL);
    assert_int_equal(handler_calls, 1);
    gp_buf_free(&b);
}

/* The command's handler: one line and exit status 2, as before. */
/* Capacity doubles from `first` until the elements fit; the contents
 * survive growing. */
static void reserve_doubles(void **state)
{
    (void)state;
    int *a = NULL;
    size_t cap = 0;
    assert_int_equal(gp_reserve(&a, &cap, 1, sizeof *a, 4), 0);
    assert_int_equal(cap, 4);
    for (int i = 0; i < 4; i++)
        a[i] = i;
    assert_int_equal(gp_reserve(&a, &cap, 4, sizeof *a, 4), 0);
    assert_int_equal(cap, 4);
    assert_int_equal(gp_reserve(&a, &cap, 17, sizeof *a, 4), 0);
    assert_int_equal(cap, 32);
    for (int i = 0; i < 4; i++)
        assert_int_equal(a[i], i);
    free(a);
}

/* Whole items only, with either separator the callers use. */
static void list_has_whole_items(void **state)
{
    (void)state;
    assert_true(gp_list_has("fp32,tf32,fp64", ',', "tf32"));
    assert_true(gp_list_has("fp32,tf32,fp64", ',', "fp64"));
    assert_false(gp_list_has("fp32,tf32,fp64", ',', "fp"));
    assert_false(gp_list_has("fp32,tf32,fp64", ',', "tf32,fp64"));
    assert_true(gp_list_has("on|off", '|', "off"));
    assert_false(gp_list_has("on|off", ',', "off"));
    assert_false(gp_list_has("", ',', ""));
}

static void command_handler_exits_2(void **state)
{
    (void)state;
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        gp_buf b = { 0 };
        freopen("/dev/null", "w", stderr);
        gp_on_out_of_memory(gp_exit_out_of_memory);
        fail_realloc = 1;
        gp_buf_printf(&b, "x");
        _exit(0);                       /* not reached if it exits 2 */
    }
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(buffer_left_as_it_was),
        cmocka_unit_test(list_left_as_it_was),
        cmocka_unit_test(handler_called_once_per_failure),
        cmocka_unit_test(reserve_doubles),
        cmocka_unit_test(list_has_whole_items),
        cmocka_unit_test(command_handler_exits_2),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
