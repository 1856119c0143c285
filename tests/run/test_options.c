/* test_cli.c - run-command options: defaults, good combinations, and one
 * precise message for each kind of mistake. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "near.h"
#include "cli/cli.h"
#include "run/run.h"
#include "registry/registry.h"
#include "argv.h"

static gp_options o;
static char err[1024];

static int parse_argv(int argc, char **argv)
{
    strcpy(err, "(untouched)");
    return gp_cli_parse(argc, argv, &o, err, sizeof err);
}


/* Parsing fails and the message contains `want`. */
#define BAD(want, ...)                                                      \
    do {                                                                    \
        int rc_ = PARSE(__VA_ARGS__);                                       \
        if (rc_ != -1 || !strstr(err, want))                                \
            fail_msg("%s: rc %d, message '%s', wanted '%s'", #__VA_ARGS__,  \
                     rc_, err, want);                                       \
    } while (0)

static void defaults(void **state)
{
    (void)state;
    assert_int_equal(PARSE("--kernel", "naive", "--size", "64"), 0);
    assert_int_equal(o.nkernels, 1);
    assert_string_equal(o.kernels[0]->name, "naive");
    assert_int_equal(o.nshapes, 1);
    assert_int_equal(o.shapes[0].m, 64);
    assert_near(o.alpha, 1, 0);
    assert_near(o.beta, 0, 0);
    assert_int_equal(o.reps, 20);
    assert_int_equal(o.warmup, 5);
    assert_string_equal(o.metrics, "default");
    assert_null(o.out);
    assert_int_equal(o.seed_given, 0);
    assert_int_equal(o.device, 0);
    assert_int_equal(o.list + o.list_metrics + o.help + o.version + o.roofline +
                     o.quiet, 0);
    assert_string_equal(o.cache_control, "all");
    assert_near(o.energy_s, 0, 0);
    gp_scrub all;
    assert_int_equal(gp_scrub_parse(GP_CACHE_CONTROL_ALL, &all, err, sizeof err), 0);
    assert_memory_equal(&o.scrub, &all, sizeof all);
}

static void every_option_is_stored(void **state)
{
    (void)state;
    assert_int_equal(PARSE("-k", "cublas,naive", "-s", "128", "--sizes", "256:512:256",
                           "--mnk", "10,20,30", "--alpha", "-1.5", "--beta=0.25",
                           "--reps", "3", "--warmup", "0", "--seed", "18446744073709551615",
                           "-o", "out.csv", "--metrics", "none",
                           "--device", "1", "--roofline", "--no-flush", "-q"), 0);
    assert_int_equal(o.nkernels, 2);
    assert_string_equal(o.kernels[0]->name, "cublas");   /* given order */
    assert_string_equal(o.kernels[1]->name, "naive");
    assert_int_equal(o.nshapes, 4);
    assert_int_equal(o.shapes[0].m, 128);
    assert_int_equal(o.shapes[2].m, 512);
    assert_int_equal(o.shapes[3].m, 10);
    assert_int_equal(o.shapes[3].n, 20);
    assert_int_equal(o.shapes[3].k, 30);
    assert_near(o.alpha, -1.5, 0);
    assert_near(o.beta, 0.25, 0);
    assert_int_equal(o.reps, 3);
    assert_int_equal(o.warmup, 0);
    assert_true(o.seed == 18446744073709551615ULL);
    assert_int_equal(o.seed_given, 1);
    assert_string_equal(o.out, "out.csv");
    assert_string_equal(o.metrics, "none");
    assert_int_equal(o.device, 1);
    assert_int_equal(o.roofline, 1);
    assert_string_equal(o.cache_control, "none");     /* --no-flush */
    assert_int_equal(o.scrub.kind, GP_SCRUB_NONE);
    assert_int_equal(o.quiet, 1);
}

/* ncu's flag and values; GEMMPROF_SCRUB picks what "all" does, never "none". */
static void cache_control_option(void **state)
{
    (void)state;
    assert_int_equal(PARSE("-k", "naive", "-s", "8", "--cache-control", "none"), 0);
    assert_string_equal(o.cache_control, "none");
    assert_int_equal(o.scrub.kind, GP_SCRUB_NONE);
    assert_int_equal(PARSE("-k", "naive", "-s", "8", "--cache-control=all"), 0);
    assert_string_equal(o.cache_control, "all");
    assert_int_not_equal(o.scrub.kind, GP_SCRUB_NONE);
    BAD("--cache-control: 'some' is not all or none",
        "-k", "naive", "-s", "8", "--cache-control", "some");
    BAD("option '--cache-control' needs an argument", "-k", "naive", "-s", "8",
        "--cache-control");
    setenv(GP_SCRUB_ENV, "flush:x3:p2", 1);
    assert_int_equal(PARSE("-k", "naive", "-s", "8"), 0);
    assert_int_equal(o.scrub.kind, GP_SCRUB_FLUSH);
    assert_int_equal(o.scrub.factor, 3);
    assert_int_equal(o.scrub.passes, 2);
    assert_int_equal(PARSE("-k", "naive", "-s", "8", "--cache-control", "none"), 0);
    assert_int_equal(o.scrub.kind, GP_SCRUB_NONE);
    setenv(GP_SCRUB_ENV, "bogus", 1);
    BAD("GEMMPROF_SCRUB=bogus: unknown L2 scrub 'bogus'", "-k", "naive", "-s", "8");
    unsetenv(GP_SCRUB_ENV);
}

static void energy_option(void **state)
{
    (void)state;
    assert_int_equal(PARSE("-k", "naive", "-s", "8", "--energy", "2.5"), 0);
    assert_near(o.energy_s, 2.5, 0);
    assert_int_equal(PARSE("-k", "naive", "-s", "8", "--energy=0"), 0);
    assert_near(o.energy_s, 0, 0);
    BAD("--energy: '-1' seconds is outside", "-k", "naive", "-s", "8", "--energy", "-1");
    BAD("--energy: '601' seconds is outside", "-k", "naive", "-s", "8", "--energy", "601");
    BAD("--energy: 'soon' is not a finite number", "-k", "naive", "-s", "8",
        "--energy", "soon");
    BAD("--energy: 'nan' is not a finite number", "-k", "naive", "-s", "8",
        "--energy", "nan");
    BAD("option '--energy' needs an argument", "-k", "naive", "-s", "8", "--energy");
}

static void interleave_option(void **state)
{
    (void)state;
    assert_int_equal(PARSE("-k", "naive", "-s", "8"), 0);
    assert_int_equal(o.interleave, 0);
    assert_int_equal(PARSE("-k", "naive", "-s", "8", "--interleave"), 0);
    assert_int_equal(o.interleave, 1);
    BAD("option '--interleave' takes no argument", "-k", "naive", "-s", "8",
        "--interleave=yes");
}

static void kernel_all_and_repeats_drop_duplicates(void **state)
{
    (void)state;
    assert_int_equal(PARSE("--kernel", "all", "--size", "8"), 0);
    assert_int_equal(o.nkernels, gp_registry_count());
    assert_int_equal(PARSE("--kernel", "naive", "--kernel", "naive,cublas", "-s", "8"), 0);
    assert_int_equal(o.nkernels, 2);
    assert_string_equal(o.kernels[1]->name, "cublas");
}

static void options_may_follow_sizes_and_be_abbreviated(void **state)
{
    (void)state;
    assert_int_equal(PARSE("--size=32", "--ker=naive", "--rep", "7"), 0);
    assert_int_equal(o.reps, 7);
    assert_int_equal(o.nkernels, 1);
}

static void parse_is_repeatable(void **state)
{
    (void)state;
    /* getopt keeps state between calls; a second parse must start over. */
    assert_int_equal(PARSE("-q", "--kernel", "naive", "--size", "64"), 0);
    assert_int_equal(o.quiet, 1);
    BAD("unknown option '-x'", "-qx", "--kernel", "naive", "--size", "64");
    assert_int_equal(PARSE("--kernel", "naive", "--size", "64"), 0);
    assert_int_equal(o.quiet, 0);
    assert_int_equal(o.nshapes, 1);
}

static void info_options_need_no_kernel_or_size(void **state)
{
    (void)state;
    assert_int_equal(PARSE("--help"), 0);
    assert_int_equal(o.help, 1);
    assert_int_equal(PARSE("-V"), 0);
    assert_int_equal(o.version, 1);
    assert_int_equal(PARSE("--list"), 0);
    assert_int_equal(o.list, 1);
    assert_int_equal(PARSE("--list-metrics"), 0);
    assert_int_equal(o.list_metrics, 1);
    /* --help answers at once, whatever follows */
    assert_int_equal(PARSE("--kernel", "naive", "-h", "--reps", "0"), 0);
    assert_int_equal(o.help, 1);
    /* --list still checks the values it was given */
    BAD("--reps: '0'", "--list", "--reps", "0");
}

static void missing_kernel_or_size(void **state)
{
    (void)state;
    BAD("no kernel given: use --kernel NAME[,NAME...] or all (see --list)", "--size", "64");
    BAD("no size given: use --size N, --sizes A:B:STEP or --mnk M,N,K", "--kernel", "naive");
    int rc = parse_argv(1, (char *[]){ "gemmprof", NULL });
    assert_int_equal(rc, -1);
    assert_non_null(strstr(err, "no kernel given"));
}

static void bad_kernel_lists(void **state)
{
    (void)state;
    char want[256];
    snprintf(want, sizeof want, "unknown kernel 'xyz' (valid: %s, %s, ",
             gp_registry_get(0)->name, gp_registry_get(1)->name);
    BAD(want, "--kernel", "naive,xyz", "-s", "8");
    for (int i = 0; i < gp_registry_count(); i++) {   /* names every kernel */
        snprintf(want, sizeof want, " %s%s", gp_registry_get(i)->name,
                 i + 1 == gp_registry_count() ? ")" : ",");
        assert_non_null(strstr(err, want));
    }
    BAD("empty kernel name", "--kernel", "naive,,cublas", "-s", "8");
    BAD("empty kernel list", "--kernel", "", "-s", "8");
    BAD("unknown kernel 'Naive'", "--kernel", "Naive", "-s", "8");
}

static void bad_sizes_name_their_option(void **state)
{
    (void)state;
    BAD("--size: bad size '12x'", "-k", "naive", "--size", "12x");
    BAD("--size: bad size '0'", "-k", "naive", "--size", "0");
    BAD("--sizes: STEP must be > 0", "-k", "naive", "--sizes", "8:64:0");
    BAD("--sizes: empty range", "-k", "naive", "--sizes", "64:8:8");
    BAD("--mnk: want M,N,K", "-k", "naive", "--mnk", "8,8");
    BAD("--mnk: bad size '-8'", "-k", "naive", "--mnk", "8,-8,8");
    BAD("too many sizes (at most 256 in all)", "-k", "naive",
        "--sizes", "1:200:1", "--sizes", "1:100:1");
}

static void bad_numbers(void **state)
{
    (void)state;
    BAD("--reps: '0' is not an integer in 1..", "-k", "naive", "-s", "8", "--reps", "0");
    BAD("--reps: '-1'", "-k", "naive", "-s", "8", "--reps", "-1");
    BAD("--reps: '5x'", "-k", "naive", "-s", "8", "--reps", "5x");
    BAD("--reps: '99999999999999999999'", "-k", "naive", "-s", "8",
        "--reps", "99999999999999999999");
    BAD("--warmup: '-1' is not an integer in 0..", "-k", "naive", "-s", "8",
        "--warmup", "-1");
    BAD("--warmup: ''", "-k", "naive", "-s", "8", "--warmup", "");
    BAD("--device: 'gpu0'", "-k", "naive", "-s", "8", "--device", "gpu0");
    BAD("--seed: '-5' is not an integer in 0..18446744073709551615", "-k", "naive", "-s", "8",
        "--seed", "-5");
    BAD("--seed: '18446744073709551616'", "-k", "naive", "-s", "8",
        "--seed", "18446744073709551616");
    BAD("--alpha: 'one' is not a finite number", "-k", "naive", "-s", "8",
        "--alpha", "one");
    BAD("--alpha: 'inf'", "-k", "naive", "-s", "8", "--alpha", "inf");
    BAD("--beta: 'nan'", "-k", "naive", "-s", "8", "--beta", "nan");
    BAD("--beta: '1e999'", "-k", "naive", "-s", "8", "--beta", "1e999");
    BAD("--beta: '0.5x'", "-k", "naive", "-s", "8", "--beta", "0.5x");
    BAD("--alpha: ''", "-k", "naive", "-s", "8", "--alpha=");
}

static void bad_strings_and_files(void **state)
{
    (void)state;
    BAD("--out: empty path", "-k", "naive", "-s", "8", "-o", "");
    BAD("--baseline: empty path", "-k", "naive", "-s", "8", "--baseline", "");
    assert_int_equal(PARSE("-k", "naive", "-s", "8", "--baseline", "base.csv"), 0);
    assert_string_equal(o.baseline, "base.csv");
    BAD("--metrics: empty metric name", "-k", "naive", "-s", "8",
        "--metrics", "dram__bytes_read.sum,,lts__t_bytes.sum");
    BAD("--metrics: bad character ' ' in metric name \"dram bytes\"", "-k", "naive", "-s", "8",
        "--metrics", "dram bytes");
    BAD("--metrics: empty metric name", "-k", "naive", "-s", "8", "--metrics", "");
    assert_int_equal(PARSE("-k", "naive", "-s", "8", "--metrics",
                           "dram__bytes_read.sum,sm__warps_active.avg.pct_of_peak_sustained_active"), 0);
}

static void bad_option_spellings(void **state)
{
    (void)state;
    BAD("unknown option '--frobnicate'", "--frobnicate", "-k", "naive", "-s", "8");
    BAD("unknown option '-z'", "-z", "-k", "naive", "-s", "8");
    BAD("option '--si' is ambiguous (--size, --sizes)", "--si", "8", "-k", "naive");
    BAD("option '--reps' needs an argument", "-k", "naive", "-s", "8", "--reps");
    BAD("option '-s' needs an argument", "-k", "naive", "-s");
    BAD("option '--quiet' takes no argument", "--quiet=1", "-k", "naive", "-s", "8");
    BAD("option '--roofline' takes no argument", "--roof=yes", "-k", "naive", "-s", "8");
}

static void stray_arguments_are_named(void **state)
{
    (void)state;
    gp_run_set_commands(gp_command_words());   /* as main does */
    BAD("unexpected argument 'extra'", "-k", "naive", "extra", "-s", "8");
    BAD("unexpected arguments 'a' 'b'", "a", "-k", "naive", "-s", "8", "b");
    BAD("a command comes first: gemmprof plot", "-k", "naive", "-s", "8", "plot");
    BAD("a command comes first: gemmprof trace", "-k", "naive", "-s", "8", "trace");
    BAD("unexpected argument '--reps'", "-k", "naive", "-s", "8", "--", "--reps");
}

static void usage_covers_every_option(void **state)
{
    (void)state;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    gp_run_set_commands(gp_command_words());   /* as main does */
    gp_cli_usage(f);
    fclose(f);
    static const char *const must[] = {
        "--kernel", "-k,", "--size", "-s,", "--sizes", "--mnk", "--alpha", "--beta",
        "--reps", "--warmup", "--seed", "--out", "-o,", "--metrics",
        "--device", "--list", "-l,", "--list-metrics", "--roofline",
        "--no-flush", "--cache-control", "--energy", "--interleave", "--quiet", "-q,",
        "--help", "-h,",
        "--version", "-V,",
        "probe", "plot", "report", "diff", "sweep", "trace", "dist", "help",
        "--dry-run", "--baseline", "Exit status",
        "Usage: gemmprof",
    };
    for (size_t i = 0; i < sizeof must / sizeof must[0]; i++)
        if (!strstr(text, must[i]))
            fail_msg("--help does not mention '%s'", must[i]);
    /* GNU style: fits an 80-column terminal */
    for (char *line = text; *line;) {
        size_t n = strcspn(line, "\n");
        if (n > 79)
            fail_msg("help line longer than 79 columns: %.*s", (int)n, line);
        line += n + (line[n] == '\n');
    }
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(defaults),
        cmocka_unit_test(every_option_is_stored),
        cmocka_unit_test(cache_control_option),
        cmocka_unit_test(energy_option),
        cmocka_unit_test(interleave_option),
        cmocka_unit_test(kernel_all_and_repeats_drop_duplicates),
        cmocka_unit_test(options_may_follow_sizes_and_be_abbreviated),
        cmocka_unit_test(parse_is_repeatable),
        cmocka_unit_test(info_options_need_no_kernel_or_size),
        cmocka_unit_test(missing_kernel_or_size),
        cmocka_unit_test(bad_kernel_lists),
        cmocka_unit_test(bad_sizes_name_their_option),
        cmocka_unit_test(bad_numbers),
        cmocka_unit_test(bad_strings_and_files),
        cmocka_unit_test(bad_option_spellings),
        cmocka_unit_test(stray_arguments_are_named),
        cmocka_unit_test(usage_covers_every_option),
    };
    return cmocka_run_group_tests_name("cli", tests, NULL, NULL);
}
