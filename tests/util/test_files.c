/* test_files.c - writing a file whole or not at all (gp_write_atomic) and
 * the clean-up an interrupt runs (util/cleanup.c), in forked children so
 * that the signal ends only them. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/util.h"

static char dir[] = "/tmp/gemmprof-test-files-XXXXXX";
static char err[1024];

static int setup(void **state)
{
    (void)state;
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    gp_rm_rf(dir);
    return 0;
}

static void hello(FILE *f, const void *arg)
{
    fputs(arg, f);
}

/* Entries of dir other than . and .., as a count. */
static int entries(const char *d)
{
    DIR *dp = opendir(d);
    int n = 0;
    for (struct dirent *e; dp && (e = readdir(dp));)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    if (dp)
        closedir(dp);
    return n;
}

static void atomic_write_replaces_a_symlink_not_its_target(void **state)
{
    (void)state;
    char path[4096], victim[4096], got[64] = "";
    snprintf(path, sizeof path, "%s/out.csv", dir);
    snprintf(victim, sizeof victim, "%s/victim", dir);
    FILE *f = fopen(victim, "w");
    assert_non_null(f);
    fputs("precious\n", f);
    fclose(f);
    assert_int_equal(symlink(victim, path), 0);        /* planted at the name */
    assert_int_equal(gp_write_atomic(path, hello, "new\n", err, sizeof err), 0);
    f = fopen(victim, "r");
    assert_non_null(fgets(got, sizeof got, f));
    fclose(f);
    assert_string_equal(got, "precious\n");
    struct stat st;
    assert_int_equal(lstat(path, &st), 0);
    assert_true(S_ISREG(st.st_mode));
    assert_int_equal(st.st_mode & 0044, 0044);         /* not mkstemp's 0600 */
    assert_int_equal(entries(dir), 2);                  /* no temp file left */
    unlink(path);
    unlink(victim);
}

static void atomic_write_failure_leaves_nothing(void **state)
{
    (void)state;
    char path[4096];
    snprintf(path, sizeof path, "%s/no/such/folder/out.csv", dir);
    assert_int_equal(gp_write_atomic(path, hello, "x", err, sizeof err), -1);
    assert_non_null(strstr(err, "out.csv: cannot write: No such file"));
    snprintf(path, sizeof path, "%s/sub", dir);        /* a folder in the way */
    assert_int_equal(mkdir(path, 0777), 0);
    assert_int_equal(gp_write_atomic(path, hello, "x", err, sizeof err), -1);
    assert_int_equal(entries(dir), 1);
    rmdir(path);
}

/* A child adds a tree (and a file) to the clean-up, starts a helper that
 * never ends, then `sig` arrives: the child dies of it, the helper is
 * stopped, both paths are gone, and a path dropped is kept. */
static void interrupt_removes_tree_and_stops_helper(int sig)
{
    char tree[256], deep[512], kept[256], file[256];
    snprintf(tree, sizeof tree, "%s/.tmp-tree", dir);
    snprintf(deep, sizeof deep, "%s/a/b/c", tree);
    snprintf(kept, sizeof kept, "%s/kept", dir);
    snprintf(file, sizeof file, "%s/.tmp-file", dir);
    int ready[2];
    assert_int_equal(pipe(ready), 0);
    pid_t child = fork();
    if (child == 0) {
        char e[256];
        if (gp_mkdir_p(deep, e, sizeof e) || gp_mkdir_p(kept, e, sizeof e))
            _exit(3);
        for (int i = 0; i < 300; i++) {     /* more than one getdents buffer */
            char p[4200];
            snprintf(p, sizeof p, "%s/file-with-a-longish-name-%03d", i % 2 ? tree : deep, i);
            fclose(fopen(p, "w"));
        }
        fclose(fopen(file, "w"));
        gp_cleanup_add(tree);
        gp_cleanup_add(file);
        gp_cleanup_add(kept);
        gp_cleanup_drop(kept);
        pid_t helper = fork();
        if (helper == 0) {
            execl("/bin/sleep", "sleep", "60", (char *)NULL);
            _exit(127);
        }
        gp_cleanup_child(helper);
        if (write(ready[1], &helper, sizeof helper) != sizeof helper)
            _exit(4);
        pause();
        _exit(5);
    }
    pid_t helper = 0;
    assert_int_equal(read(ready[0], &helper, sizeof helper), sizeof helper);
    kill(child, sig);
    int status;
    assert_int_equal(waitpid(child, &status, 0), child);
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), sig);
    assert_int_equal(kill(helper, 0), -1);             /* stopped and reaped */
    assert_int_equal(access(tree, F_OK), -1);
    assert_int_equal(access(file, F_OK), -1);
    assert_int_equal(access(kept, F_OK), 0);
    rmdir(kept);
    close(ready[0]);
    close(ready[1]);
}

static void sigint_cleans_up(void **state)
{
    (void)state;
    interrupt_removes_tree_and_stops_helper(SIGINT);
}

static void sigterm_cleans_up(void **state)
{
    (void)state;
    interrupt_removes_tree_and_stops_helper(SIGTERM);
}

int main(void)
{
    /* as from a terminal, whoever started us: gemmprof keeps a signal
     * ignored at its start (nohup) ignored */
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(atomic_write_replaces_a_symlink_not_its_target),
        cmocka_unit_test(atomic_write_failure_leaves_nothing),
        cmocka_unit_test(sigint_cleans_up),
        cmocka_unit_test(sigterm_cleans_up),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
