/* test_scrub.c - L2 scrub specs (gpu/scrub.c), CPU only: the grammar of
 * $GEMMPROF_SCRUB, what each spec writes into the run file, and
 * --cache-control all|none.  The device side runs in every GPU test that
 * times or profiles a kernel (tests/cupti/test_counters.c checks the
 * counters it produces). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/gpu.h"

static char err[512];

static gp_scrub parse_ok(const char *spec)
{
    gp_scrub s;
    if (gp_scrub_parse(spec, &s, err, sizeof err) != 0)
        fail_msg("'%s' refused: %s", spec, err);
    return s;
}

static void parse_fails(const char *spec, const char *want)
{
    gp_scrub s = { GP_SCRUB_READ, 7, 3, 1 };
    gp_scrub before = s;
    if (gp_scrub_parse(spec, &s, err, sizeof err) != -1 || !strstr(err, want))
        fail_msg("'%s': wanted an error with '%s', got '%s'", spec, want, err);
    assert_memory_equal(&s, &before, sizeof s);     /* untouched on error */
}

static void kinds_and_defaults(void **state)
{
    (void)state;
    static const struct { const char *spec; gp_scrub_kind kind; } k[] = {
        { "none", GP_SCRUB_NONE }, { "read", GP_SCRUB_READ }, { "write", GP_SCRUB_WRITE },
        { "write-read", GP_SCRUB_WRITE_READ }, { "flush", GP_SCRUB_FLUSH },
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        gp_scrub s = parse_ok(k[i].spec);
        assert_int_equal(s.kind, k[i].kind);
        assert_int_equal(s.factor, 2);
        assert_int_equal(s.passes, 1);
        assert_int_equal(s.once, 0);
    }
}

static void modifiers(void **state)
{
    (void)state;
    gp_scrub s = parse_ok("flush:x4:p2:once");
    assert_int_equal(s.kind, GP_SCRUB_FLUSH);
    assert_int_equal(s.factor, 4);
    assert_int_equal(s.passes, 2);
    assert_int_equal(s.once, 1);
    s = parse_ok("read:once:x16");
    assert_int_equal(s.factor, 16);
    assert_int_equal(s.once, 1);
    char spec[64];
    gp_scrub_spec(&s, spec, sizeof spec);
    assert_string_equal(spec, "read:x16:p1:once");
    gp_scrub again = parse_ok(spec);                 /* the canonical form parses */
    assert_memory_equal(&again, &s, sizeof s);
}

static void bad_specs_say_why(void **state)
{
    (void)state;
    parse_fails("", "unknown L2 scrub ''");
    parse_fails("reed", "unknown L2 scrub 'reed'");
    parse_fails("read:", "bad L2 scrub modifier ':'");
    parse_fails("read:x0", "bad L2 scrub modifier ':x0'");
    parse_fails("read:x17", "':x17'");
    parse_fails("read:p5", "':p5'");
    parse_fails("read:p", "':p'");
    parse_fails("read:x2x", "':x2x'");
    parse_fails("read:twice", "':twice'");
    parse_fails("READ", "unknown L2 scrub 'READ'");
}

/* The run file's l2_flush line: the default keeps the words files made
 * before --cache-control had (so diff does not call them different). */
static void descriptions(void **state)
{
    (void)state;
    char d[256];
    gp_scrub s = parse_ok("read");
    gp_scrub_describe(&s, d, sizeof d);
    assert_string_equal(d, "read pass over 2x L2 before each rep and before counters");
    s = parse_ok("none");
    gp_scrub_describe(&s, d, sizeof d);
    assert_string_equal(d, "off");
    s = parse_ok("flush:p2:once");
    gp_scrub_describe(&s, d, sizeof d);
    assert_non_null(strstr(d, "two read passes over 2x L2, then its lines discarded"));
    assert_non_null(strstr(d, "before the first counter pass"));
    s = parse_ok("write:x3");
    gp_scrub_describe(&s, d, sizeof d);
    assert_non_null(strstr(d, "write pass over 3x L2 (L2 left dirty)"));
}

static void cache_control_values(void **state)
{
    (void)state;
    gp_scrub s, want = parse_ok(GP_CACHE_CONTROL_ALL);
    unsetenv(GP_SCRUB_ENV);
    assert_int_equal(gp_cache_control_scrub("all", &s, err, sizeof err), 0);
    assert_memory_equal(&s, &want, sizeof s);
    assert_int_equal(gp_cache_control_scrub("none", &s, err, sizeof err), 0);
    assert_int_equal(s.kind, GP_SCRUB_NONE);
    assert_int_equal(gp_cache_control_scrub("All", &s, err, sizeof err), -1);
    assert_non_null(strstr(err, "'All' is not all or none"));
    setenv(GP_SCRUB_ENV, "write-read:x3", 1);
    assert_int_equal(gp_cache_control_scrub("all", &s, err, sizeof err), 0);
    assert_int_equal(s.kind, GP_SCRUB_WRITE_READ);
    assert_int_equal(s.factor, 3);
    assert_int_equal(gp_cache_control_scrub("none", &s, err, sizeof err), 0);
    assert_int_equal(s.kind, GP_SCRUB_NONE);
    setenv(GP_SCRUB_ENV, "read:p9", 1);
    assert_int_equal(gp_cache_control_scrub("all", &s, err, sizeof err), -1);
    assert_non_null(strstr(err, "GEMMPROF_SCRUB=read:p9: bad L2 scrub modifier ':p9'"));
    unsetenv(GP_SCRUB_ENV);
}

static void buffer_sizes(void **state)
{
    (void)state;
    gp_scrub s = parse_ok("none");
    assert_int_equal(gp_scrub_bytes(&s, 50u << 20), 0);
    s = parse_ok("read");
    assert_int_equal(gp_scrub_bytes(&s, 50u << 20), 100u << 20);
    s = parse_ok("flush:x4");
    assert_int_equal(gp_scrub_bytes(&s, 60u << 20), 240u << 20);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(kinds_and_defaults),
        cmocka_unit_test(modifiers),
        cmocka_unit_test(bad_specs_say_why),
        cmocka_unit_test(descriptions),
        cmocka_unit_test(cache_control_values),
        cmocka_unit_test(buffer_sizes),
    };
    return cmocka_run_group_tests_name("scrub", tests, NULL, NULL);
}
