/* test_meta.c - the "# key: value" metadata and the host facts every data
 * file carries. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <regex.h>
#include <stdio.h>
#include <string.h>

#include "data/meta.h"

static gp_meta m;

static void set_get_replace(void **state)
{
    (void)state;
    gp_meta_init(&m);
    assert_null(gp_meta_get(&m, "a"));
    assert_int_equal(gp_meta_set(&m, "a", "%d-%s", 7, "x"), 0);
    assert_int_equal(gp_meta_set(&m, "b", "two"), 0);
    assert_string_equal(gp_meta_get(&m, "a"), "7-x");
    assert_int_equal(gp_meta_set(&m, "a", "again"), 0);    /* replaced in place */
    assert_int_equal(m.n, 2);
    assert_string_equal(m.kv[0].key, "a");
    assert_string_equal(gp_meta_get(&m, "a"), "again");
}

static void newlines_become_spaces(void **state)
{
    (void)state;
    gp_meta_init(&m);
    gp_meta_set(&m, "note", "line1\nline2\r\nline3");
    assert_string_equal(gp_meta_get(&m, "note"), "line1 line2  line3");
}

static void full_table_and_bad_keys_refused(void **state)
{
    (void)state;
    gp_meta_init(&m);
    char key[16];
    for (int i = 0; i < GP_META_MAX; i++) {
        snprintf(key, sizeof key, "k%d", i);
        assert_int_equal(gp_meta_set(&m, key, "%d", i), 0);
    }
    assert_int_equal(gp_meta_set(&m, "one_more", "x"), -1);
    assert_int_equal(gp_meta_set(&m, "k3", "replaced"), 0);  /* replacing still works */
    gp_meta_init(&m);
    assert_int_equal(gp_meta_set(&m, "", "x"), -1);
    assert_int_equal(gp_meta_set(&m, "a:b", "x"), -1);
    assert_int_equal(gp_meta_set(&m, "a b", "x"), -1);
    char longkey[100];
    memset(longkey, 'k', sizeof longkey - 1);
    longkey[sizeof longkey - 1] = '\0';
    assert_int_equal(gp_meta_set(&m, longkey, "x"), -1);
    assert_int_equal(m.n, 0);
}

static void long_values_are_cut_not_overrun(void **state)
{
    (void)state;
    gp_meta_init(&m);
    char big[3000];
    memset(big, 'v', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    assert_int_equal(gp_meta_set(&m, "big", "%s", big), 0);
    assert_int_equal(strlen(gp_meta_get(&m, "big")), sizeof m.kv[0].value - 1);
}

static void host_keys_in_order(void **state)
{
    (void)state;
    gp_meta_init(&m);
    char *argv[] = { "gemmprof", "--kernel", "naive", NULL };
    gp_meta_host(&m, "gemmprof-run/1", 3, argv);
    static const char *const keys[] = {
        "schema", "gemmprof_version", "git_commit", "build_arch",
        "build_flags", "date", "host", "command",
    };
    assert_int_equal(m.n, 8);
    for (int i = 0; i < 8; i++)
        assert_string_equal(m.kv[i].key, keys[i]);
    assert_string_equal(gp_meta_get(&m, "schema"), "gemmprof-run/1");
    assert_true(gp_meta_get(&m, "gemmprof_version")[0] != '\0');
    assert_true(gp_meta_get(&m, "host")[0] != '\0');
    assert_string_equal(gp_meta_get(&m, "command"), "gemmprof --kernel naive");
    regex_t re;
    assert_int_equal(regcomp(&re, "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$",
                             REG_EXTENDED | REG_NOSUB), 0);
    if (regexec(&re, gp_meta_get(&m, "date"), 0, NULL, 0) != 0)
        fail_msg("date '%s' is not UTC ISO 8601", gp_meta_get(&m, "date"));
    regfree(&re);
}

static void command_is_shell_quoted(void **state)
{
    (void)state;
    gp_meta_init(&m);
    char *argv[] = { "./bin/gemmprof", "--sizes=64:128:64", "-k", "naive,cublas",
                     "--out", "my run.csv", "it's", "", "$HOME", "a+b-c,d:e", NULL };
    gp_meta_host(&m, "s", 10, argv);
    assert_string_equal(gp_meta_get(&m, "command"),
                        "./bin/gemmprof --sizes=64:128:64 -k naive,cublas --out "
                        "'my run.csv' 'it'\\''s' '' '$HOME' a+b-c,d:e");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(set_get_replace),
        cmocka_unit_test(newlines_become_spaces),
        cmocka_unit_test(full_table_and_bad_keys_refused),
        cmocka_unit_test(long_values_are_cut_not_overrun),
        cmocka_unit_test(host_keys_in_order),
        cmocka_unit_test(command_is_shell_quoted),
    };
    return cmocka_run_group_tests_name("meta", tests, NULL, NULL);
}
