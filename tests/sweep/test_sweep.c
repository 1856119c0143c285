/* test_sweep.c - the tile-config table, `gemmprof sweep` option parsing,
 * best/crossover detection, the tuning table file, and the mixed kernels'
 * choice of config (all CPU-only). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../kernels/mixed.h"
#include "../../kernels/sweep_table.h"
#include "registry/registry.h"
#include "sweep/sweep.h"
#include "data/tuning.h"

#define FIXTURE "tests/fixtures/sweep/tuning-blocktile_2d.csv"
#define FIXTURE64 "tests/fixtures/sweep/tuning-dgemm_blocktile_2d.csv"

static void config_table_is_consistent(void **state)
{
    (void)state;
    int fp32 = 0, fp64 = 0;
    assert_true(gp_sweep_config_count > 0);
    for (int i = 0; i < gp_sweep_config_count; ++i) {
        const gp_sweep_config *c = &gp_sweep_configs[i];
        char name[64];
        snprintf(name, sizeof name, "%dx%dx%d/%dx%d", c->bm, c->bn, c->bk, c->tm, c->tn);
        assert_string_equal(c->name, name);
        assert_int_equal(c->threads, c->bm * c->bn / (c->tm * c->tn));
        if (c->threads > 1024 || c->threads % 32 != 0)
            fail_msg("%s: %d threads (want whole warps, <= 1024)", c->name, c->threads);
        assert_int_equal(c->bm % c->tm, 0);
        assert_int_equal(c->bn % c->tn, 0);
        assert_int_equal(c->bm * c->bk % c->threads, 0);
        assert_int_equal(c->bk * c->bn % c->threads, 0);
        assert_non_null(c->launch);
        assert_int_equal(gp_sweep_family_precision(c->family), (int)c->precision);
        for (int j = i + 1; j < gp_sweep_config_count; ++j)
            if (!strcmp(c->family, gp_sweep_configs[j].family) &&
                !strcmp(c->name, gp_sweep_configs[j].name))
                fail_msg("config %s %s listed twice", c->family, c->name);
        fp32 += !strcmp(c->family, "blocktile_2d");
        fp64 += !strcmp(c->family, "dgemm_blocktile_2d");
        /* a family is one precision: the FP32 template never gets an FP64 line */
        assert_int_equal(c->precision,
                         !strcmp(c->family, "dgemm_blocktile_2d") ? GP_FP64 : GP_FP32);
        /* not ladder rungs: --kernel all is unchanged */
        assert_null(gp_registry_find(c->name));
    }
    assert_true(fp32 >= 2);
    assert_true(fp64 >= 2);
    assert_int_equal(gp_sweep_family_precision("blocktile_2d"), GP_FP32);
    assert_int_equal(gp_sweep_family_precision("dgemm_blocktile_2d"), GP_FP64);
    /* the ladder rung of the family is its own kernel, not a sweep config */
    assert_non_null(gp_registry_find("dgemm_blocktile_2d"));
    assert_non_null(gp_registry_find("dgemm_mixed"));
    assert_int_equal(gp_registry_find("dgemm_mixed")->precision, GP_FP64);
    /* the seed study's two configs, which the FP64 default table names */
    assert_non_null(gp_sweep_find("dgemm_blocktile_2d", "32x32x4/4x2"));
    assert_non_null(gp_sweep_find("dgemm_blocktile_2d", "64x64x8/8x4"));
    assert_null(gp_sweep_find("blocktile_2d", "32x32x4/4x2"));
    assert_string_equal(gp_sweep_find("blocktile_2d", "128x128x8/8x8")->family, "blocktile_2d");
    assert_null(gp_sweep_find("blocktile_2d", "7x7x7/7x7"));
}

static void configs_lists_parse(void **state)
{
    (void)state;
    const gp_sweep_config *out[GP_SWEEP_MAX_CONFIGS];
    char err[2048];
    int all = gp_sweep_select("blocktile_2d", "all", out, GP_SWEEP_MAX_CONFIGS, err, sizeof err);
    assert_true(all >= 2);
    for (int i = 0; i < all; ++i)
        assert_string_equal(out[i]->family, "blocktile_2d");
    assert_int_equal(gp_sweep_select("blocktile_2d", "64x64x8/4x4,32x32x8/4x4,64x64x8/4x4",
                                     out, GP_SWEEP_MAX_CONFIGS, err, sizeof err), 2);
    assert_string_equal(out[0]->name, "64x64x8/4x4");
    assert_string_equal(out[1]->name, "32x32x8/4x4");
}

static void unknown_config_is_one_line_listing_valid_ones(void **state)
{
    (void)state;
    const gp_sweep_config *out[GP_SWEEP_MAX_CONFIGS];
    char err[2048];
    assert_int_equal(gp_sweep_select("blocktile_2d", "64x64x8/4x4,3x3", out,
                                     GP_SWEEP_MAX_CONFIGS, err, sizeof err), -1);
    assert_non_null(strstr(err, "unknown blocktile_2d config '3x3'"));
    assert_non_null(strstr(err, "128x128x8/8x8"));
    assert_null(strchr(err, '\n'));
    assert_int_equal(gp_sweep_select("blocktile_2d", "64x64x8/4x4,", out,
                                     GP_SWEEP_MAX_CONFIGS, err, sizeof err), -1);
    assert_int_equal(gp_sweep_select("nope", "all", out, GP_SWEEP_MAX_CONFIGS,
                                     err, sizeof err), -1);
    assert_non_null(strstr(err, "unknown kernel family 'nope'"));
    assert_non_null(strstr(err, "blocktile_2d"));
}

#define ARGS(...) (char *[]){"sweep", __VA_ARGS__, NULL}
#define NARGS(...) (int)(sizeof((char *[]){"sweep", __VA_ARGS__}) / sizeof(char *))
#define PARSE(...) gp_sweep_parse(NARGS(__VA_ARGS__), ARGS(__VA_ARGS__), &a, err, sizeof err)

static void sweep_options_parse(void **state)
{
    (void)state;
    static gp_sweep_args a;
    char err[2048];
    assert_int_equal(PARSE("--kernel", "blocktile_2d", "--sizes", "31,33",
                           "--mnk", "4096,4096,32", "--reps", "3", "--configs",
                           "32x32x8/4x4", "--tuning", "t.csv"), 0);
    assert_int_equal(a.nshapes, 3);
    assert_int_equal(a.shapes[2].k, 32);
    assert_int_equal(a.nconfigs, 1);
    assert_int_equal(a.reps, 3);
    assert_int_equal(a.precision, GP_FP32);
    assert_string_equal(a.tuning, "t.csv");
    assert_int_equal(PARSE("-k", "blocktile_2d", "--preset", "k-skinny"), 0);
    assert_int_equal(a.nshapes, 8);
    assert_true(a.nconfigs >= 2);
    long ks[] = {32, 64, 128, 156};
    for (int i = 0; i < 8; ++i) {
        assert_int_equal(a.shapes[i].m, i < 4 ? 4096 : 8192);
        assert_int_equal(a.shapes[i].n, a.shapes[i].m);
        assert_int_equal(a.shapes[i].k, ks[i % 4]);
    }
    assert_int_equal(PARSE("-k", "blocktile_2d", "--preset", "square"), -1);
    assert_non_null(strstr(err, "unknown preset 'square'"));
    assert_int_equal(PARSE("-k", "blocktile_2d"), -1);
    assert_non_null(strstr(err, "no size"));
    assert_int_equal(PARSE("--size", "64"), -1);
    assert_non_null(strstr(err, "--kernel FAMILY is required"));
    assert_int_equal(PARSE("-k", "blocktile_2d", "-s", "64", "--configs", "1x1"), -1);
    assert_non_null(strstr(err, "configs: "));
    assert_int_equal(PARSE("-k", "blocktile_2d", "-s", "64", "--reps", "0"), -1);
    assert_int_equal(PARSE("-k", "blocktile_2d", "-s", "64", "--bogus"), -1);
    assert_non_null(strstr(err, "unknown option '--bogus'"));
}

static void fp64_configs_list_and_parse(void **state)
{
    (void)state;
    static gp_sweep_args a;
    const gp_sweep_config *out[GP_SWEEP_MAX_CONFIGS];
    char err[2048];
    int all = gp_sweep_select("dgemm_blocktile_2d", "all", out, GP_SWEEP_MAX_CONFIGS,
                              err, sizeof err);
    assert_true(all >= 2);
    for (int i = 0; i < all; ++i)
        assert_int_equal(out[i]->precision, GP_FP64);
    /* an FP32 config name is not an FP64 one */
    assert_int_equal(gp_sweep_select("dgemm_blocktile_2d", "32x32x8/4x4", out,
                                     GP_SWEEP_MAX_CONFIGS, err, sizeof err), -1);
    assert_non_null(strstr(err, "unknown dgemm_blocktile_2d config '32x32x8/4x4'"));
    assert_non_null(strstr(err, "32x32x4/4x2"));
    assert_null(strstr(err, "128x128x8/8x8"));
    assert_int_equal(PARSE("-k", "dgemm_blocktile_2d", "-s", "64",
                           "--configs", "64x64x8/8x4,32x32x4/4x2"), 0);
    assert_int_equal(a.precision, GP_FP64);
    assert_int_equal(a.nconfigs, 2);
    assert_string_equal(a.configs[1]->name, "32x32x4/4x2");
}

static gp_row mk(const char *kernel, const char *config, long m, long n, long k,
                 double gflops, int verified)
{
    gp_row r;
    gp_row_init(&r);
    snprintf(r.kernel, sizeof r.kernel, "%s", kernel);
    snprintf(r.config, sizeof r.config, "%s", config);
    r.m = m, r.n = n, r.k = k;
    r.gflops = gflops;
    r.verified = verified;
    return r;
}

/* small wins small, big wins big; a faster unverified row and another
 * kernel's row must not count. */
static int synthetic(gp_row *r)
{
    int n = 0;
    long sizes[] = {1024, 256, 4096, 512};
    double small[] = {800, 300, 900, 700}, big[] = {1500, 100, 2000, 600};
    for (int i = 0; i < 4; ++i) {
        r[n++] = mk("blocktile_2d", "32x32x8/4x4", sizes[i], sizes[i], sizes[i], small[i], 1);
        r[n++] = mk("blocktile_2d", "128x128x8/8x8", sizes[i], sizes[i], sizes[i], big[i], 1);
    }
    r[n++] = mk("blocktile_2d", "64x64x8/4x4", 256, 256, 256, 9999, 0);
    r[n++] = mk("cublas", "", 256, 256, 256, 5000, 1);
    return n;
}

static void crossovers_are_where_the_best_changes(void **state)
{
    (void)state;
    gp_row r[16];
    gp_sweep_best b[16];
    int idx[16];
    int n = synthetic(r);
    int nb = gp_sweep_bests(r, n, "blocktile_2d", b, 16);
    assert_int_equal(nb, 4);
    assert_int_equal(b[0].m, 256);
    assert_string_equal(b[0].config, "32x32x8/4x4");
    assert_string_equal(b[1].config, "32x32x8/4x4");
    assert_string_equal(b[2].config, "128x128x8/8x8");
    assert_true(b[3].gflops == 2000);
    assert_int_equal(gp_sweep_crossovers(b, nb, idx, 16), 1);
    assert_int_equal(idx[0], 2);        /* between 512 and 1024 */
}

static void tuning_table_round_trips(void **state)
{
    (void)state;
    gp_row r[16];
    static gp_tuning t, u;
    char err[1024], path[] = "/tmp/gemmprof-test-tuning-XXXXXX";
    int n = synthetic(r);
    assert_int_equal(gp_tuning_build(r, n, "blocktile_2d", "fp32", &t), 2);
    assert_int_equal(t.e[0].min_size, 1);
    assert_int_equal(t.e[0].max_size, 724);          /* floor(sqrt(512*1024)) */
    assert_int_equal(t.e[1].min_size, 725);
    assert_int_equal(t.e[1].max_size, GP_TUNING_MAX_SIZE);
    assert_string_equal(t.e[0].config, "32x32x8/4x4");
    assert_true(fabs(t.e[0].gflops - 500) < 1e-9);   /* mean of 300, 700 */
    assert_string_equal(t.e[1].config, "128x128x8/8x8");
    gp_meta_init(&t.meta);
    gp_meta_set(&t.meta, "schema", "%s", GP_TUNING_SCHEMA);
    gp_meta_set(&t.meta, "gpu_name", "Test GPU");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(gp_tuning_write(path, &t, err, sizeof err), 0);
    assert_int_equal(gp_tuning_read(path, &u, err, sizeof err), 0);
    unlink(path);
    assert_int_equal(u.n, t.n);
    for (int i = 0; i < t.n; ++i) {
        assert_string_equal(u.e[i].family, t.e[i].family);
        assert_string_equal(u.e[i].precision, "fp32");
        assert_int_equal(u.e[i].min_size, t.e[i].min_size);
        assert_int_equal(u.e[i].max_size, t.e[i].max_size);
        assert_string_equal(u.e[i].config, t.e[i].config);
        assert_true(fabs(u.e[i].gflops - t.e[i].gflops) < 1e-3);
    }
    assert_string_equal(gp_meta_get(&u.meta, "gpu_name"), "Test GPU");
    assert_string_equal(gp_tuning_lookup(&u, "blocktile_2d", 724)->config, "32x32x8/4x4");
    assert_string_equal(gp_tuning_lookup(&u, "blocktile_2d", 725)->config, "128x128x8/8x8");
    assert_null(gp_tuning_lookup(&u, "dgemm_blocktile_2d", 725));
}

/* Shapes of one key (k-skinny: same M=N, several K) get one config: the
 * one best on average relative to each shape's best. */
static void tuning_key_is_square_side_and_k_shares_it(void **state)
{
    (void)state;
    static gp_tuning t;
    gp_row r[4] = {
        mk("blocktile_2d", "A", 4096, 4096, 32, 100, 1),
        mk("blocktile_2d", "B", 4096, 4096, 32, 90, 1),
        mk("blocktile_2d", "A", 4096, 4096, 128, 50, 1),
        mk("blocktile_2d", "B", 4096, 4096, 128, 100, 1),
    };
    assert_int_equal(gp_tuning_key(4096, 4096), 4096);
    assert_int_equal(gp_tuning_key(1024, 4096), 2048);
    assert_int_equal(gp_tuning_key(31, 33), 32);
    assert_int_equal(gp_tuning_build(r, 4, "blocktile_2d", "fp32", &t), 1);
    assert_string_equal(t.e[0].config, "B");   /* 0.95 mean vs A's 0.75 */
    assert_true(fabs(t.e[0].gflops - 95) < 1e-9);
    assert_int_equal(gp_tuning_build(r, 0, "blocktile_2d", "fp32", &t), 0);
}

static void broken_tuning_files_are_refused(void **state)
{
    (void)state;
    static gp_tuning t;
    char err[1024], path[] = "/tmp/gemmprof-test-tuning-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs("family,precision,min_size,max_size,config,gflops\n"
          "blocktile_2d,fp32,10,5,64x64x8/4x4,1\n", f);
    fclose(f);
    assert_int_equal(gp_tuning_read(path, &t, err, sizeof err), -1);
    assert_non_null(strstr(err, ":2:19: min_size 10 > max_size 5"));
    static const struct { const char *line, *want; } bad[] = {
        { "blocktile_2d,fp32,1,1048576,64x64x8/4x4,1e400\n",
          ":2:41: gflops: '1e400' is out of range (larger than any double)" },
        { "blocktile_2d,fp32,1,1048576,64x64x8/4x4,nan\n",
          ":2:41: gflops: 'nan' is not a number" },
        { "blocktile_2d,fp32,0,100,64x64x8/4x4,1\n", ":2:19: min_size: '0' is out of range" },
        { "blocktile_2d,fp32,1,2000000,64x64x8/4x4,1\n", ":2:21: max_size: '2000000' is out" },
        { "blocktile_2d,fp32,1,100,64x64x8/4x4,1\nblocktile_2d,fp32,50,200,32x32x8/4x4,1\n",
          ":3:19: sizes 50..200 of blocktile_2d overlap line 2's 1..100" },
        { "blocktile_2d,fp32,1,100,64x64x8/4x4,1", ":2:38: last line is cut off" },
        { "blocktile_2d,fp32,1,100\n", ":2:1: 4 fields" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        f = fopen(path, "w");
        fprintf(f, "family,precision,min_size,max_size,config,gflops\n%s", bad[i].line);
        fclose(f);
        assert_int_equal(gp_tuning_read(path, &t, err, sizeof err), -1);
        if (!strstr(err, bad[i].want))
            fail_msg("'%s' does not contain '%s'", err, bad[i].want);
    }
    f = fopen(path, "w");
    fputs("kernel,m,n,k\n", f);
    fclose(f);
    assert_int_equal(gp_tuning_read(path, &t, err, sizeof err), -1);
    assert_non_null(strstr(err, "not a tuning table"));
    unlink(path);
    assert_int_equal(gp_tuning_read(path, &t, err, sizeof err), -1);
    assert_non_null(strstr(err, "cannot read"));
}

static void mixed_picks_from_the_tuning_table(void **state)
{
    (void)state;
    static gp_tuning t;
    char err[1024], label[64];
    assert_int_equal(gp_tuning_read(FIXTURE, &t, err, sizeof err), 0);
    const gp_sweep_config *c =
        gp_mixed_select("blocktile_2d", 64, 64, &t, FIXTURE, label, sizeof label);
    assert_string_equal(c->name, "32x32x8/2x2");
    assert_string_equal(label, "tuned:tuning-blocktile_2d.csv:32x32x8/2x2");
    c = gp_mixed_select("blocktile_2d", 4096, 32, &t, FIXTURE, label, sizeof label);
    assert_string_equal(c->name, "64x64x8/4x4");               /* key 362 */
    c = gp_mixed_select("blocktile_2d", 8192, 8192, &t, FIXTURE, label, sizeof label);
    assert_string_equal(c->name, "128x64x8/8x4");
    /* a config this build lacks: the default, and the label says so */
    c = gp_mixed_select("blocktile_2d", 2500, 2500, &t, FIXTURE, label, sizeof label);
    assert_non_null(c);
    assert_int_equal(strncmp(label, "default:", 8), 0);
    assert_string_equal(label + 8, c->name);
    /* a long file name: the label still fits and names the config */
    c = gp_mixed_select("blocktile_2d", 64, 64, &t,
                        "/x/tuning-nvidia-h100-80gb-hbm3-very-long-name-blocktile_2d.csv",
                        label, sizeof label);
    assert_string_equal(label, "tuned:32x32x8/2x2");
}

static void mixed_falls_back_to_the_default(void **state)
{
    (void)state;
    char label[64];
    const gp_sweep_config *s =
        gp_mixed_select("blocktile_2d", 33, 33, NULL, NULL, label, sizeof label);
    const gp_sweep_config *l =
        gp_mixed_select("blocktile_2d", 8192, 8192, NULL, NULL, label, sizeof label);
    assert_non_null(s);
    assert_non_null(l);
    assert_string_equal(label, "default:128x128x8/8x8");
    assert_true(s->bm * s->bn < l->bm * l->bn);   /* smaller tiles when small */
}

static void dgemm_mixed_picks_from_the_tuning_table(void **state)
{
    (void)state;
    static gp_tuning t;
    char err[1024], label[64];
    assert_int_equal(gp_tuning_read(FIXTURE64, &t, err, sizeof err), 0);
    const gp_sweep_config *c =
        gp_mixed_select("dgemm_blocktile_2d", 31, 33, &t, FIXTURE64, label, sizeof label);
    assert_string_equal(c->name, "64x16x8/4x2");                /* key 32 */
    assert_int_equal(c->precision, GP_FP64);
    assert_string_equal(label, "tuned:tuning-dgemm_blocktile_2d.csv:64x16x8/4x2");
    c = gp_mixed_select("dgemm_blocktile_2d", 4096, 32, &t, FIXTURE64, label, sizeof label);
    assert_string_equal(c->name, "128x16x8/8x2");               /* key 362 */
    c = gp_mixed_select("dgemm_blocktile_2d", 8192, 8192, &t, FIXTURE64, label, sizeof label);
    assert_string_equal(c->name, "128x64x8/8x4");
    /* a config this build lacks: the FP64 default, never an FP32 config */
    c = gp_mixed_select("dgemm_blocktile_2d", 2000, 2000, &t, FIXTURE64, label, sizeof label);
    assert_string_equal(label, "default:64x64x8/8x4");
    assert_string_equal(c->family, "dgemm_blocktile_2d");
    /* the FP32 row of the same file is for the FP32 family only */
    c = gp_mixed_select("blocktile_2d", 64, 64, &t, FIXTURE64, label, sizeof label);
    assert_string_equal(c->name, "128x128x8/8x8");
    assert_int_equal(c->precision, GP_FP32);
}

/* No table: the seed study's crossover, 32x32x4/4x2 up to N=384. */
static void dgemm_mixed_default_is_the_seed_crossover(void **state)
{
    (void)state;
    char label[64];
    const gp_sweep_config *c =
        gp_mixed_select("dgemm_blocktile_2d", 384, 384, NULL, NULL, label, sizeof label);
    assert_string_equal(label, "default:32x32x4/4x2");
    c = gp_mixed_select("dgemm_blocktile_2d", 385, 385, NULL, NULL, label, sizeof label);
    assert_string_equal(label, "default:64x64x8/8x4");
    assert_int_equal(c->precision, GP_FP64);
    c = gp_mixed_select("dgemm_blocktile_2d", 4096, 32, NULL, NULL, label, sizeof label);
    assert_string_equal(c->name, "32x32x4/4x2");                /* key 362 */
}

static void mixed_reads_gemmprof_tuning_once(void **state)
{
    (void)state;
    char label[64];
    setenv("GEMMPROF_TUNING", FIXTURE, 1);
    gp_mixed_reset();
    const gp_sweep_config *c = gp_mixed_pick(GP_FP32, 64, 64, label, sizeof label);
    assert_string_equal(c->name, "32x32x8/2x2");
    assert_string_equal(label, "tuned:tuning-blocktile_2d.csv:32x32x8/2x2");
    /* loaded once: changing the variable later changes nothing */
    setenv("GEMMPROF_TUNING", "/nonexistent/tuning.csv", 1);
    c = gp_mixed_pick(GP_FP32, 64, 64, label, sizeof label);
    assert_string_equal(label, "tuned:tuning-blocktile_2d.csv:32x32x8/2x2");
    /* a named file that cannot be read: the default */
    gp_mixed_reset();
    c = gp_mixed_pick(GP_FP32, 64, 64, label, sizeof label);
    assert_non_null(c);
    assert_int_equal(strncmp(label, "default:", 8), 0);
    unsetenv("GEMMPROF_TUNING");
    gp_mixed_reset();
}

/* FP32 and FP64 keep separate tables: loading one does not load the other */
static void dgemm_mixed_reads_its_own_family_rows(void **state)
{
    (void)state;
    char label[64];
    setenv("GEMMPROF_TUNING", FIXTURE64, 1);
    gp_mixed_reset();
    const gp_sweep_config *c = gp_mixed_pick(GP_FP64, 8192, 8192, label, sizeof label);
    assert_string_equal(c->name, "128x64x8/8x4");
    assert_string_equal(label, "tuned:tuning-dgemm_blocktile_2d.csv:128x64x8/8x4");
    setenv("GEMMPROF_TUNING", FIXTURE, 1);
    c = gp_mixed_pick(GP_FP32, 64, 64, label, sizeof label);
    assert_string_equal(label, "tuned:tuning-blocktile_2d.csv:32x32x8/2x2");
    c = gp_mixed_pick(GP_FP64, 64, 64, label, sizeof label);
    assert_string_equal(label, "tuned:tuning-dgemm_blocktile_2d.csv:64x16x8/4x2");
    unsetenv("GEMMPROF_TUNING");
    gp_mixed_reset();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(config_table_is_consistent),
        cmocka_unit_test(configs_lists_parse),
        cmocka_unit_test(unknown_config_is_one_line_listing_valid_ones),
        cmocka_unit_test(sweep_options_parse),
        cmocka_unit_test(fp64_configs_list_and_parse),
        cmocka_unit_test(crossovers_are_where_the_best_changes),
        cmocka_unit_test(tuning_table_round_trips),
        cmocka_unit_test(tuning_key_is_square_side_and_k_shares_it),
        cmocka_unit_test(broken_tuning_files_are_refused),
        cmocka_unit_test(mixed_picks_from_the_tuning_table),
        cmocka_unit_test(mixed_falls_back_to_the_default),
        cmocka_unit_test(dgemm_mixed_picks_from_the_tuning_table),
        cmocka_unit_test(dgemm_mixed_default_is_the_seed_crossover),
        cmocka_unit_test(mixed_reads_gemmprof_tuning_once),
        cmocka_unit_test(dgemm_mixed_reads_its_own_family_rows),
    };
    return cmocka_run_group_tests_name("sweep", tests, NULL, NULL);
}
