/* test_guard.c - the injected library keeps out of the application on the
 * CPU: its files are close-on-exec; a forked child that exits flushes
 * nothing into them (a plain stdio file, the control, gets its buffer
 * written twice); the child knows it is one; exit makes the hooks idle. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "inject/inject.h"

static char dir[] = "/tmp/gp-guard-XXXXXX";

static int setup(void **state)
{
    (void)state;
    if (!mkdtemp(dir) || gp_inject_guard_init() != 0)
        return -1;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[64];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* The whole file, as a string (static). */
static const char *slurp(const char *path)
{
    static char buf[256];
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* Fork with "row\n" unflushed in f; the child calls exit(), which flushes
 * every stdio buffer it has, and reports gp_inject_forked/idle as its
 * status (returned). */
static int fork_with_unflushed(FILE *f)
{
    fputs("row\n", f);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0)
        exit(gp_inject_forked() && gp_inject_idle() ? 0 : 1);
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

static void files_are_close_on_exec(void **state)
{
    (void)state;
    char path[128];
    snprintf(path, sizeof path, "%s/cloexec.csv", dir);
    FILE *f = gp_inject_fopen(path);
    assert_non_null(f);
    assert_true(fcntl(fileno(f), F_GETFD) & FD_CLOEXEC);
    /* and a program it execs does not have it */
    char cmd[64];
    snprintf(cmd, sizeof cmd, "test -e /proc/self/fd/%d", fileno(f));
    pid_t pid = fork();
    if (pid == 0) {
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 1);
    assert_int_equal(gp_inject_fclose(f), 0);
}

static void forked_child_writes_nothing(void **state)
{
    (void)state;
    char path[128];
    snprintf(path, sizeof path, "%s/part.csv", dir);
    FILE *f = gp_inject_fopen(path);
    assert_non_null(f);
    assert_false(gp_inject_forked());
    assert_false(gp_inject_idle());
    assert_int_equal(fork_with_unflushed(f), 0);   /* the child knew it was one */
    assert_int_equal(gp_inject_fclose(f), 0);
    assert_string_equal(slurp(path), "row\n");
}

/* The control: the same with fopen, the buffer lands twice. */
static void plain_file_is_written_twice(void **state)
{
    (void)state;
    char path[128];
    snprintf(path, sizeof path, "%s/plain.csv", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fork_with_unflushed(f);
    fclose(f);
    assert_string_equal(slurp(path), "row\nrow\n");
}

/* Last: stopping is for good. */
static void exit_makes_hooks_idle(void **state)
{
    (void)state;
    assert_false(gp_inject_idle());
    gp_inject_stop();
    assert_true(gp_inject_idle());
    assert_false(gp_inject_forked());   /* idle, but still the parent */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(files_are_close_on_exec),
        cmocka_unit_test(forked_child_writes_nothing),
        cmocka_unit_test(plain_file_is_written_twice),
        cmocka_unit_test(exit_makes_hooks_idle),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
