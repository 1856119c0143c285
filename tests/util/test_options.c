/* test_options.c - the one option parser (util/options.c): each kind of
 * value, and each kind of mistake worded once. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "util/util.h"
#include "cupti/profiler.h"
#include "argv.h"

typedef struct {
    int reps, warmup, device, quiet, help, version, seed_given, nshapes;
    unsigned long long seed;
    long count;
    gp_shape shapes[GP_MAX_SHAPES];
    const char *out, *cache_control, *metrics, *color;
} opts;

static const gp_opt table[] = {
    GP_OPTS_SIZES(opts, shapes, nshapes),
    GP_OPTS_REPS(opts, reps),
    GP_OPTS_WARMUP(opts, warmup),
    GP_OPTS_SEED(opts, seed, seed_given),
    GP_OPTS_DEVICE(opts, device, 'd'),
    GP_OPTS_CACHE_CONTROL(opts, cache_control),
    GP_OPTS_OUT(opts, out),
    { "count", 0, GP_OPT_LONG, GP_OPT_FIELD(opts, count, long), 0, 0, 0, 0, 0, 0 },
    { "metrics", 0, GP_OPT_TEXT, GP_OPT_FIELD(opts, metrics, const char *), 0, 0, 0,
      0, gp_metric_spec_check, 0 },
    { "color", 0, GP_OPT_CHOICE, GP_OPT_FIELD(opts, color, const char *), 0, 0, 0,
      "red|green|blue", 0, 0 },
    GP_OPTS_QUIET(opts, quiet),
    GP_OPTS_HELP(opts, help, version),
    GP_OPTS_END
};

static opts o;
static char err[512];

static int parse_argv(int argc, char **argv)
{
    memset(&o, 0, sizeof o);
    o.reps = -7;                    /* a default the parser must leave alone */
    strcpy(err, "(untouched)");
    return gp_opts_parse(table, argc, argv, &o, err, sizeof err);
}


/* Parsing fails with exactly `want`, one line. */
#define BAD(want, ...)                                                      \
    do {                                                                    \
        int rc_ = PARSE(__VA_ARGS__);                                       \
        if (rc_ != -1 || strcmp(err, want) != 0)                            \
            fail_msg("%s: rc %d, message '%s', wanted '%s'", #__VA_ARGS__,  \
                     rc_, err, want);                                       \
        assert_null(strchr(err, '\n'));                                     \
    } while (0)

static void sizes_and_shapes(void **state)
{
    (void)state;
    assert_int_equal(PARSE("-s", "64", "--sizes", "128:384:128", "--mnk", "8,16,32"), 0);
    assert_int_equal(o.nshapes, 5);
    assert_int_equal(o.shapes[0].m, 64);
    assert_int_equal(o.shapes[3].k, 384);
    assert_int_equal(o.shapes[4].m, 8);
    assert_int_equal(o.shapes[4].n, 16);
    assert_int_equal(o.shapes[4].k, 32);
    BAD("--size: bad size '0' (sizes are integers 1..1048576)", "--size", "0");
    BAD("--size: bad size '-64' (sizes are integers 1..1048576)", "--size", "-64");
    BAD("--size: bad size '64x' (sizes are integers 1..1048576)", "--size", "64x");
    BAD("--size: bad size '99999999999999999999' (sizes are integers 1..1048576)",
        "--size", "99999999999999999999");
    BAD("--mnk: want M,N,K, got '8,8'", "--mnk", "8,8");
    BAD("--sizes: too many sizes (at most 256 in all)", "--sizes", "1:200:1",
        "--sizes", "1:100:1");
}

static void counts(void **state)
{
    (void)state;
    assert_int_equal(PARSE("--reps", "1", "--warmup", "0"), 0);
    assert_int_equal(o.reps, 1);
    assert_int_equal(o.warmup, 0);
    assert_int_equal(PARSE("--reps", "1000000"), 0);
    assert_int_equal(o.reps, 1000000);
    assert_int_equal(PARSE("--quiet"), 0);
    assert_int_equal(o.reps, -7);           /* not given: untouched */
    BAD("--reps: '0' is not an integer in 1..1000000", "--reps", "0");
    BAD("--reps: '1000001' is not an integer in 1..1000000", "--reps", "1000001");
    BAD("--reps: '-1' is not an integer in 1..1000000", "--reps", "-1");
    BAD("--reps: '+5' is not an integer in 1..1000000", "--reps", "+5");
    BAD("--reps: ' 5' is not an integer in 1..1000000", "--reps", " 5");
    BAD("--reps: '5x' is not an integer in 1..1000000", "--reps", "5x");
    BAD("--reps: '0x10' is not an integer in 1..1000000", "--reps", "0x10");
    BAD("--reps: '5.0' is not an integer in 1..1000000", "--reps", "5.0");
    BAD("--reps: '' is not an integer in 1..1000000", "--reps=");
    BAD("--reps: '99999999999999999999999' is not an integer in 1..1000000",
        "--reps", "99999999999999999999999");
    BAD("--warmup: '-1' is not an integer in 0..1000000", "--warmup", "-1");
    /* hi 0: the type's own limit */
    assert_int_equal(PARSE("--count", "9223372036854775807"), 0);
    assert_true(o.count == LONG_MAX);
    BAD("--count: '9223372036854775808' is not an integer in 0..9223372036854775807",
        "--count", "9223372036854775808");
}

static void seeds(void **state)
{
    (void)state;
    assert_int_equal(PARSE("--quiet"), 0);
    assert_int_equal(o.seed_given, 0);
    assert_int_equal(PARSE("--seed", "0"), 0);
    assert_int_equal(o.seed_given, 1);
    assert_true(o.seed == 0);
    assert_int_equal(PARSE("--seed", "18446744073709551615"), 0);
    assert_true(o.seed == ULLONG_MAX);
    assert_int_equal(o.seed_given, 1);
    BAD("--seed: '18446744073709551616' is not an integer in 0..18446744073709551615",
        "--seed", "18446744073709551616");
    BAD("--seed: '-5' is not an integer in 0..18446744073709551615", "--seed", "-5");
    BAD("--seed: '12ab' is not an integer in 0..18446744073709551615", "--seed", "12ab");
}

static void devices(void **state)
{
    (void)state;
    assert_int_equal(PARSE("--device", "0"), 0);
    assert_int_equal(o.device, 0);
    assert_int_equal(PARSE("-d", "1023"), 0);
    assert_int_equal(o.device, 1023);
    BAD("--device: '1024' is not an integer in 0..1023", "--device", "1024");
    BAD("--device: '2147483648' is not an integer in 0..1023", "-d", "2147483648");
    BAD("--device: 'gpu0' is not an integer in 0..1023", "--device", "gpu0");
    BAD("--device: '-1' is not an integer in 0..1023", "--device=-1");
}

static void metric_lists(void **state)
{
    (void)state;
    assert_int_equal(PARSE("--metrics", "default"), 0);
    assert_string_equal(o.metrics, "default");
    assert_int_equal(PARSE("--metrics", "dram__bytes_read.sum,lts__t_bytes.sum"), 0);
    assert_int_equal(PARSE("--metrics", "none"), 0);
    BAD("--metrics: bad character ';' in metric name \"a;b\"", "--metrics", "a;b");
    BAD("--metrics: empty metric name in the list", "--metrics", "a.sum,,b.sum");
    BAD("--metrics: empty metric name (use default, none or a list of names)",
        "--metrics", "");
    BAD("--metrics: \"none\" cannot be combined with other metrics", "--metrics",
        "none,x.sum");
}

static void texts_and_choices(void **state)
{
    (void)state;
    assert_int_equal(PARSE("-o", "run.csv", "--cache-control", "none"), 0);
    assert_string_equal(o.out, "run.csv");
    assert_string_equal(o.cache_control, "none");
    assert_int_equal(PARSE("--cache-control", "all", "--no-flush"), 0);
    assert_string_equal(o.cache_control, "none");
    assert_int_equal(PARSE("--color=green"), 0);
    assert_string_equal(o.color, "green");
    BAD("--out: empty path", "--out", "");
    BAD("--cache-control: 'some' is not all or none", "--cache-control", "some");
    BAD("--color: 'Red' is not red, green or blue", "--color", "Red");
}

static void mistakes_in_options(void **state)
{
    (void)state;
    BAD("option '--reps' needs an argument", "--reps");
    BAD("option '-s' needs an argument", "-s");
    BAD("option '--device' needs an argument", "-q", "--dev");   /* a prefix, named in full */
    BAD("unknown option '--bogus'", "--bogus");
    BAD("unknown option '-x'", "-qx");
    BAD("option '--si' is ambiguous (--size, --sizes)", "--si", "8");
    BAD("option '--quiet' takes no argument", "--quiet=1");
}

/* --help answers whatever follows; a mistake before it is still one. */
static void help_and_version_stop(void **state)
{
    (void)state;
    assert_int_equal(PARSE("--help", "--bogus", "--reps", "0"), 0);
    assert_int_equal(o.help, 1);
    assert_int_equal(PARSE("-V", "--seed", "x"), 0);
    assert_int_equal(o.version, 1);
    BAD("unknown option '--bogus'", "--bogus", "--help");
}

/* Operands are left for the command, at optind; parsing again starts over. */
static void operands_and_again(void **state)
{
    (void)state;
    char **argv = ARGV("a.csv", "--reps", "3", "b.csv");
    assert_int_equal(parse_argv(5, argv), 0);
    assert_int_equal(o.reps, 3);
    assert_int_equal(5 - optind, 2);
    assert_string_equal(argv[optind], "a.csv");
    assert_string_equal(argv[optind + 1], "b.csv");
    assert_int_equal(PARSE("--reps", "4"), 0);
    assert_int_equal(o.reps, 4);
    assert_int_equal(optind, 3);
}

/* A command followed by another program's command line (trace): the
 * options end at the first operand, so the program's own options, even
 * ones this table knows, are the program's; an action takes no argument. */
static int actions;
static int act(void *p, const char *arg, char *e, size_t n)
{
    (void)p, (void)e, (void)n;
    assert_null(arg);
    actions++;
    return 0;
}

static void command_line_after_the_options(void **state)
{
    (void)state;
    static const gp_opt cmd_table[] = {
        GP_OPTS_REPS(opts, reps),
        { "act", 0, GP_OPT_ACTION, 0, 0, 0, 0, 0, 0, act },
        GP_OPTS_END
    };
    char **argv = ARGV("--reps", "3", "--act", "./app", "--reps", "9", "x");
    memset(&o, 0, sizeof o);
    actions = 0;
    assert_int_equal(gp_opts_parse_command(cmd_table, 8, argv, &o, err, sizeof err), 0);
    assert_int_equal(o.reps, 3);
    assert_int_equal(actions, 1);
    assert_string_equal(argv[optind], "./app");      /* untouched after it */
    assert_string_equal(argv[optind + 1], "--reps");
    char **dash = ARGV("--act", "--", "--reps", "5");
    assert_int_equal(gp_opts_parse_command(cmd_table, 5, dash, &o, err, sizeof err), 0);
    assert_string_equal(dash[optind], "--reps");
    assert_int_equal(o.reps, 3);
    char **bad = ARGV("--act=1", "./app");
    assert_int_equal(gp_opts_parse_command(cmd_table, 3, bad, &o, err, sizeof err), -1);
    assert_non_null(strstr(err, "--act"));
}

static void one_integer_reader(void **state)
{
    (void)state;
    unsigned long long v;
    assert_int_equal(gp_parse_decimal("123abc", 3, 1000, &v), 0);
    assert_true(v == 123);
    assert_int_equal(gp_parse_decimal("1001", 4, 1000, &v), -1);
    assert_int_equal(gp_parse_decimal("1000", 4, 1000, &v), 0);
    assert_int_equal(gp_parse_decimal("", 0, 1000, &v), -1);
    assert_int_equal(gp_parse_decimal("18446744073709551615", 20, ULLONG_MAX, &v), 0);
    assert_true(v == ULLONG_MAX);
    assert_int_equal(gp_parse_decimal("18446744073709551616", 20, ULLONG_MAX, &v), -1);
    assert_int_equal(gp_parse_decimal("99999999999999999999", 20, ULLONG_MAX, &v), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sizes_and_shapes),
        cmocka_unit_test(counts),
        cmocka_unit_test(seeds),
        cmocka_unit_test(devices),
        cmocka_unit_test(metric_lists),
        cmocka_unit_test(texts_and_choices),
        cmocka_unit_test(mistakes_in_options),
        cmocka_unit_test(help_and_version_stop),
        cmocka_unit_test(operands_and_again),
        cmocka_unit_test(command_line_after_the_options),
        cmocka_unit_test(one_integer_reader),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
