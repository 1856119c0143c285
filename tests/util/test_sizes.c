/* test_sizes.c - the size grammar of --size, --sizes and --mnk. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "util/util.h"

static gp_shape sh[GP_MAX_SHAPES];
static char err[512];

static int sizes(const char *spec)
{
    err[0] = '\0';
    return gp_parse_sizes(spec, sh, GP_MAX_SHAPES, err, sizeof err);
}

static int mnk(const char *spec)
{
    err[0] = '\0';
    return gp_parse_mnk(spec, sh, GP_MAX_SHAPES, err, sizeof err);
}

/* Fails with a message containing `want`. */
static void bad_sizes(const char *spec, const char *want)
{
    int n = sizes(spec);
    if (n != -1 || !strstr(err, want))
        fail_msg("'%s': got %d, message '%s', wanted -1 and '%s'", spec, n, err, want);
}

static void bad_mnk(const char *spec, const char *want)
{
    int n = mnk(spec);
    if (n != -1 || !strstr(err, want))
        fail_msg("'%s': got %d, message '%s', wanted -1 and '%s'", spec, n, err, want);
}

static void assert_square(int i, long v)
{
    assert_int_equal(sh[i].m, v);
    assert_int_equal(sh[i].n, v);
    assert_int_equal(sh[i].k, v);
}

static void single_size_is_square(void **state)
{
    (void)state;
    assert_int_equal(sizes("1024"), 1);
    assert_square(0, 1024);
    assert_int_equal(sizes("1"), 1);
    assert_square(0, 1);
    assert_int_equal(sizes("1048576"), 1);        /* the largest allowed */
    assert_square(0, 1048576);
}

static void comma_list_of_squares(void **state)
{
    (void)state;
    assert_int_equal(sizes("128,256,512"), 3);
    assert_square(0, 128);
    assert_square(1, 256);
    assert_square(2, 512);
    assert_int_equal(sizes("7,7"), 2);            /* repeats kept: user asked */
}

static void range_includes_both_ends(void **state)
{
    (void)state;
    assert_int_equal(sizes("256:1024:256"), 4);
    assert_square(0, 256);
    assert_square(3, 1024);
}

static void range_stops_before_passing_end(void **state)
{
    (void)state;
    assert_int_equal(sizes("100:350:100"), 3);    /* 100 200 300 */
    assert_square(2, 300);
    assert_int_equal(sizes("5:5:1"), 1);          /* A == B: one size */
    assert_square(0, 5);
    assert_int_equal(sizes("1:2:1048576"), 1);    /* step larger than range */
}

static void ranges_and_sizes_mix_in_a_list(void **state)
{
    (void)state;
    assert_int_equal(sizes("64,128:384:128,1000"), 5);
    assert_square(0, 64);
    assert_square(1, 128);
    assert_square(3, 384);
    assert_square(4, 1000);
}

static void rejects_junk_sizes(void **state)
{
    (void)state;
    bad_sizes("12x", "bad size '12x'");
    bad_sizes("-3", "bad size '-3'");
    bad_sizes("+3", "bad size");
    bad_sizes("0", "bad size '0'");
    bad_sizes(" 12", "bad size");
    bad_sizes("12 ", "bad size");
    bad_sizes("1e3", "bad size");
    bad_sizes("0x10", "bad size");
    bad_sizes("3.5", "bad size");
    bad_sizes("abc", "bad size 'abc'");
    bad_sizes("1048577", "1..1048576");
    bad_sizes("64,12x", "bad size '12x' in '64,12x'");
}

static void rejects_overflow(void **state)
{
    (void)state;
    bad_sizes("99999999999999999999999", "bad size");
    bad_sizes("18446744073709551617", "bad size");
    bad_sizes("4294967297", "bad size");           /* 2^32+1 wraps to 1 in int */
}

static void rejects_empty_elements(void **state)
{
    (void)state;
    bad_sizes("", "empty size");
    bad_sizes(",,", "empty size in ',,'");
    bad_sizes("64,", "empty size");
    bad_sizes(",64", "empty size");
}

static void rejects_bad_ranges(void **state)
{
    (void)state;
    bad_sizes("1:", "bad range '1:'");
    bad_sizes("1:2", "want A:B:STEP");
    bad_sizes("1:2:3:4", "want A:B:STEP");
    bad_sizes(":2:1", "empty size");
    bad_sizes("1::1", "empty size");
    bad_sizes("1:8:", "empty size");
    bad_sizes("1:8:0", "STEP must be > 0");
    bad_sizes("1:8:-1", "bad size '-1'");
    bad_sizes("8:1:1", "empty range '8:1:1'");
    bad_sizes("0:8:1", "bad size '0'");
    bad_sizes("1:1048577:1", "bad size '1048577'");
}

static void rejects_more_sizes_than_room(void **state)
{
    (void)state;
    bad_sizes("1:1000:1", "more than 256 sizes");
    err[0] = '\0';
    assert_int_equal(gp_parse_sizes("1,2,3", sh, 2, err, sizeof err), -1);
    assert_non_null(strstr(err, "more than 2"));
    assert_int_equal(gp_parse_sizes("1:256:1", sh, GP_MAX_SHAPES, err, sizeof err), 256);
}

static void mnk_gives_one_rectangular_shape(void **state)
{
    (void)state;
    assert_int_equal(mnk("4096,128,2048"), 1);
    assert_int_equal(sh[0].m, 4096);
    assert_int_equal(sh[0].n, 128);
    assert_int_equal(sh[0].k, 2048);
    assert_int_equal(mnk("1,1,1"), 1);
}

static void mnk_rejects_wrong_shapes(void **state)
{
    (void)state;
    bad_mnk("1,2", "want M,N,K, got '1,2'");
    bad_mnk("1,2,3,4", "want M,N,K");
    bad_mnk("64", "want M,N,K");
    bad_mnk("", "");
    bad_mnk("1,,3", "empty size");
    bad_mnk(",,", "empty size");
    bad_mnk("1,2,", "empty size");
    bad_mnk("1,0,3", "bad size '0'");
    bad_mnk("1,-2,3", "bad size '-2'");
    bad_mnk("1,2,3x", "bad size '3x'");
    bad_mnk("1:4:1,2,3", "bad size '1:4:1'");
    err[0] = '\0';
    assert_int_equal(gp_parse_mnk("1,2,3", sh, 0, err, sizeof err), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(single_size_is_square),
        cmocka_unit_test(comma_list_of_squares),
        cmocka_unit_test(range_includes_both_ends),
        cmocka_unit_test(range_stops_before_passing_end),
        cmocka_unit_test(ranges_and_sizes_mix_in_a_list),
        cmocka_unit_test(rejects_junk_sizes),
        cmocka_unit_test(rejects_overflow),
        cmocka_unit_test(rejects_empty_elements),
        cmocka_unit_test(rejects_bad_ranges),
        cmocka_unit_test(rejects_more_sizes_than_room),
        cmocka_unit_test(mnk_gives_one_rectangular_shape),
        cmocka_unit_test(mnk_rejects_wrong_shapes),
    };
    return cmocka_run_group_tests_name("sizes", tests, NULL, NULL);
}
