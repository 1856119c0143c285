/* test_hotspots.c - where a trace's GPU time goes (data/hotspots.c) and
 * the roofs behind its "bound" column (data/roofs.c): shares that add up
 * to 100%, ranking, the "other" row, NA times, per-launch and
 * per-configuration rows giving one answer, the weighted median, the
 * bound against a ceilings file and against the GPU's theoretical roofs,
 * names that tell kernels apart, and the printed table.  CPU only. */
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

#include "data/data.h"
#include "near.h"
#include "util/util.h"

/* A per-config row: kernel, config, launches, median, total (NAN: NA). */
static gp_row row(const char *kernel, const char *config, long launches, double med,
                  double total)
{
    gp_row r;
    gp_row_init(&r);
    gp_row_set_kernel(&r, kernel);
    gp_fmt(r.config, sizeof r.config, "%s", config);
    gp_fmt(r.precision, sizeof r.precision, "fp32");
    gp_fmt(r.status, sizeof r.status, "ok");
    r.launches = launches;
    r.time_ms = med;
    r.time_total_ms = total;
    return r;
}

static const gp_hotspot *find(const gp_hotspots *hs, const char *kernel, const char *config)
{
    for (int i = 0; i < hs->n; i++)
        if (strcmp(hs->h[i].kernel, kernel) == 0 && strcmp(hs->h[i].config, config) == 0)
            return &hs->h[i];
    fail_msg("no series %s %s", kernel, config);
    return NULL;
}

/* 12 series, one of them untimed: ranked by total, shares of the timed
 * ones add to 100, the untimed last with no share; top 5 plus "other"
 * add to 100 too and "other" counts the 7 left. */
static void shares_rank_and_other(void **state)
{
    (void)state;
    gp_row r[12];
    char name[12][16];
    double sum = 0;
    for (int i = 0; i < 11; i++) {
        gp_fmt(name[i], sizeof name[i], "k%02d", i);
        double total = (i % 3 + 1) * (i + 1) * 0.5;     /* not in file order */
        r[i] = row(name[i], "grid=1x1x1 block=32x1x1", i + 2, total / (i + 2), total);
        sum += total;
    }
    r[11] = row("untimed", "grid=1x1x1 block=32x1x1", 4, NAN, NAN);
    gp_hotspots hs;
    assert_int_equal(gp_hotspots_of(r, 12, NULL, NULL, &hs), 0);
    assert_int_equal(hs.n, 12);
    assert_near(hs.total_ms, sum, 1e-9);
    double shares = 0;
    long launches = 0;
    for (int i = 0; i < hs.n; i++) {
        if (i > 0 && i < 11)
            assert_true(hs.h[i - 1].total_ms >= hs.h[i].total_ms);
        if (i < 11)
            shares += hs.h[i].share;
        launches += hs.h[i].launches;
    }
    assert_near(shares, 100, 1e-9);
    assert_int_equal(hs.launches, launches);
    assert_string_equal(hs.h[11].kernel, "untimed");
    assert_true(isnan(hs.h[11].share) && isnan(hs.h[11].total_ms));
    assert_int_equal(hs.h[11].launches, 4);
    /* the largest total: (i % 3 + 1)(i + 1) is 27 at i = 8 */
    assert_string_equal(hs.h[0].kernel, "k08");
    assert_near(hs.h[0].share, 27 * 0.5 / sum * 100, 1e-9);
    gp_hotspot other;
    assert_int_equal(gp_hotspots_shown(&hs, 5), 5);
    assert_int_equal(gp_hotspots_rest(&hs, 5, &other), 1);
    assert_int_equal(other.nrows, 7);
    double top5 = 0;
    for (int i = 0; i < 5; i++)
        top5 += hs.h[i].share;
    assert_near(top5 + other.share, 100, 1e-9);
    assert_true(isnan(other.median_ms) && isnan(other.gflops));
    /* everything shown: no other row */
    assert_int_equal(gp_hotspots_shown(&hs, 50), 12);
    assert_int_equal(gp_hotspots_rest(&hs, 50, &other), 0);
    gp_hotspots_free(&hs);
}

/* The same launches as one row per launch and as one row per config give
 * the same totals, launches, shares and median; a row without a total
 * weighs its median times its launches. */
static void per_launch_equals_per_config(void **state)
{
    (void)state;
    const double a[5] = { 1.0, 1.2, 0.9, 5.0, 1.1 }, b[3] = { 2.0, 2.2, 2.1 };
    gp_row per[8], cfg[2];
    for (int i = 0; i < 5; i++)
        per[i] = row("gemm", "grid=8x8x1 block=128x1x1", 1, a[i], a[i]);
    for (int i = 0; i < 3; i++)
        per[5 + i] = row("copy", "grid=8x1x1 block=256x1x1", 1, b[i], NAN);  /* NA total */
    cfg[0] = row("gemm", "grid=8x8x1 block=128x1x1", 5, 1.1, 9.2);
    cfg[1] = row("copy", "grid=8x1x1 block=256x1x1", 3, 2.1, 6.3);
    gp_hotspots hp, hc;
    assert_int_equal(gp_hotspots_of(per, 8, NULL, NULL, &hp), 0);
    assert_int_equal(gp_hotspots_of(cfg, 2, NULL, NULL, &hc), 0);
    assert_int_equal(hp.n, 2);
    assert_int_equal(hc.n, 2);
    for (int i = 0; i < 2; i++) {
        assert_string_equal(hp.h[i].kernel, hc.h[i].kernel);
        assert_int_equal(hp.h[i].launches, hc.h[i].launches);
        assert_near(hp.h[i].total_ms, hc.h[i].total_ms, 1e-9);
        assert_near(hp.h[i].share, hc.h[i].share, 1e-9);
        assert_near(hp.h[i].median_ms, hc.h[i].median_ms, 1e-12);
    }
    assert_string_equal(hp.h[0].kernel, "gemm");        /* 9.2 ms before 6.3 */
    assert_near(hp.h[0].share, 9.2 / 15.5 * 100, 1e-9);
    assert_int_equal(hp.h[0].nrows, 5);
    gp_hotspots_free(&hp);
    gp_hotspots_free(&hc);
}

/* The median launch: rows' time_ms weighted by their launches (an even
 * weight split averages the two middle values, as the usual median). */
static void weighted_median(void **state)
{
    (void)state;
    gp_row r[3] = {
        row("k", "c", 1, 10.0, 10.0),    /* pid 1: one slow launch */
        row("k", "c", 8, 1.0, 8.0),      /* pid 2: eight fast ones */
        row("k", "c", 2, 3.0, 6.0),
    };
    r[0].pid = 1, r[1].pid = 2, r[2].pid = 3;
    gp_hotspots hs;
    assert_int_equal(gp_hotspots_of(r, 3, NULL, NULL, &hs), 0);
    assert_int_equal(hs.n, 1);
    assert_int_equal(hs.h[0].launches, 11);
    assert_near(hs.h[0].median_ms, 1.0, 0);              /* not 3.0, the rows' median */
    gp_hotspots_free(&hs);
    gp_row e[2] = { row("k", "c", 2, 1.0, 2.0), row("k", "c", 2, 3.0, 6.0) };
    e[1].pid = 9;
    assert_int_equal(gp_hotspots_of(e, 2, NULL, NULL, &hs), 0);
    assert_near(hs.h[0].median_ms, 2.0, 1e-12);
    gp_hotspots_free(&hs);
}

/* A trace's per-configuration row times only its unprofiled launches
 * (reps of them): the profiled ones count at their mean, so 9 timed
 * launches summing 9 ms of 10 launches make 10 ms; a row whose every
 * launch was timed (reps == launches) or that has no reps is its total. */
static void profiled_launches_count_at_the_mean(void **state)
{
    (void)state;
    gp_row r[3] = { row("a", "c", 10, 1.0, 9.0), row("b", "c", 4, 1.0, 4.0),
                    row("c", "c", 3, 2.0, 6.0) };
    r[0].reps = 9;
    r[1].reps = 4;
    r[2].reps = -1;
    gp_hotspots hs;
    assert_int_equal(gp_hotspots_of(r, 3, NULL, NULL, &hs), 0);
    assert_near(find(&hs, "a", "c")->total_ms, 10.0, 1e-12);
    assert_near(find(&hs, "b", "c")->total_ms, 4.0, 1e-12);
    assert_near(find(&hs, "c", "c")->total_ms, 6.0, 1e-12);
    assert_near(hs.total_ms, 20.0, 1e-12);
    gp_hotspots_free(&hs);
}

/* Skipped rows ran nothing; a series of rows without any time is there,
 * unranked; GFLOP/s and intensity are medians over the rows with one. */
static void na_and_skipped(void **state)
{
    (void)state;
    gp_row r[4] = {
        row("a", "c", 1, 2.0, 2.0), row("a", "c", 1, 4.0, 4.0),
        row("b", "c", 1, NAN, NAN), row("s", "c", 1, 9.0, 9.0),
    };
    r[0].pid = 1;
    r[0].gflops = 100, r[0].ai_dram = 2;
    r[1].gflops = NAN, r[1].ai_dram = NAN;
    gp_fmt(r[3].status, sizeof r[3].status, "skipped: needs sm_90a (wgmma)");
    gp_hotspots hs;
    assert_int_equal(gp_hotspots_of(r, 4, NULL, NULL, &hs), 0);
    assert_int_equal(hs.n, 2);
    assert_string_equal(hs.h[0].kernel, "a");
    assert_near(hs.h[0].share, 100, 1e-12);
    assert_near(hs.h[0].median_ms, 3.0, 1e-12);
    assert_near(hs.h[0].gflops, 100, 0);
    assert_near(hs.h[0].ai_dram, 2, 0);
    assert_string_equal(hs.h[1].kernel, "b");
    assert_true(isnan(hs.h[1].share) && isnan(hs.h[1].median_ms));
    assert_int_equal(hs.h[1].bound, GP_BOUND_NA);
    gp_hotspots_free(&hs);
    /* nothing at all */
    assert_int_equal(gp_hotspots_of(r, 0, NULL, NULL, &hs), 0);
    assert_int_equal(hs.n, 0);
    gp_hotspots_free(&hs);
}

/* The bound: left of the ridge memory, right of it compute; the ridge of
 * each precision's own highest roof (a ceilings file: measured first),
 * and without a file the GPU's theoretical roofs from the metadata. */
static void bound_classification(void **state)
{
    (void)state;
    gp_ceilings c = { 0 };
    gp_meta_init(&c.meta);
    const struct { const char *name; double measured, theoretical; } rows[] = {
        { "dram_bw", 3000, 3350 }, { "fp32_fma", 60000, 66900 },
        { "tf32_tensor", NAN, 495000 },
    };
    for (int i = 0; i < 3; i++) {
        gp_ceiling *e = &c.c[c.n++];
        gp_fmt(e->name, sizeof e->name, "%s", rows[i].name);
        e->measured = rows[i].measured;
        e->theoretical = rows[i].theoretical;
    }
    const char *fp32[] = { "fp32" }, *tf32[] = { "tf32" };
    gp_roofs r32, rtf;
    gp_roofs_of(&c, NULL, fp32, 1, 0, &r32);
    gp_roofs_of(&c, NULL, tf32, 1, 0, &rtf);
    double g;
    assert_near(gp_roofs_ridge(&r32, &g), 20.0, 1e-12);        /* 60000 / 3000 */
    assert_near(g, 60000, 0);
    assert_near(gp_roofs_ridge(&rtf, NULL), 165.0, 1e-12);     /* 495000 / 3000 */
    assert_int_equal(gp_roofs_bound(&r32, 19.9), GP_BOUND_MEMORY);
    assert_int_equal(gp_roofs_bound(&r32, 20.0), GP_BOUND_COMPUTE);
    assert_int_equal(gp_roofs_bound(&rtf, 100), GP_BOUND_MEMORY);   /* compute for fp32 */
    assert_int_equal(gp_roofs_bound(&r32, 100), GP_BOUND_COMPUTE);
    assert_int_equal(gp_roofs_bound(&r32, NAN), GP_BOUND_NA);
    assert_int_equal(gp_roofs_bound(&r32, 0), GP_BOUND_NA);
    assert_string_equal(gp_bound_name(GP_BOUND_MEMORY), "memory");
    /* in the list: each row under its own precision's roofs */
    gp_row k[2] = { row("simt", "c", 1, 1, 1), row("mma", "c", 1, 1, 1) };
    gp_fmt(k[1].precision, sizeof k[1].precision, "tf32");
    k[0].ai_dram = k[1].ai_dram = 100;
    k[1].pid = 2;
    gp_hotspots hs;
    assert_int_equal(gp_hotspots_of(k, 2, &c, NULL, &hs), 0);
    assert_int_equal(find(&hs, "simt", "c")->bound, GP_BOUND_COMPUTE);
    assert_int_equal(find(&hs, "mma", "c")->bound, GP_BOUND_MEMORY);
    gp_hotspots_free(&hs);
    /* no file: an H100's theoretical roofs from a trace file's metadata:
     * DRAM 2 x 2619 MHz x 5120 bit = 3352 GB/s, FP32 FMA 132 SMs x 128
     * lanes x 2 x 1980 MHz = 66908 GFLOP/s: ridge 19.96 FLOP/B */
    gp_meta m;
    gp_meta_init(&m);
    gp_meta_set(&m, "compute_capability", "9.0");
    gp_meta_set(&m, "sm_count", "132");
    gp_meta_set(&m, "sm_clock_max_mhz", "1980");
    gp_meta_set(&m, "mem_clock_max_mhz", "2619");
    gp_meta_set(&m, "mem_bus_width_bits", "5120");
    gp_roofs_of(NULL, &m, fp32, 1, 0, &r32);
    assert_near(gp_roofs_value(&r32, "dram_bw", 0), 3352.32, 1e-6);
    assert_near(gp_roofs_ridge(&r32, &g), 66908.16 / 3352.32, 1e-9);
    assert_int_equal(gp_roofs_bound(&r32, 19.9), GP_BOUND_MEMORY);
    assert_int_equal(gp_roofs_bound(&r32, 20.0), GP_BOUND_COMPUTE);
    /* and none: no file, no attributes */
    gp_roofs_of(NULL, NULL, fp32, 1, 0, &r32);
    assert_int_equal(gp_roofs_bound(&r32, 20.0), GP_BOUND_NA);
}

/* Names: a long one cut with "..."; one kernel in two configs gets its
 * grid/block; two kernels of one short name a word that tells them apart. */
static void names_tell_apart(void **state)
{
    (void)state;
    gp_row r[4] = {
        row("sm90_xmma_gemm_f32f32_tf32f32_f32_nt_n_tilesize128x128x32_warpgroupsize1x1x1",
            "grid=132x1x1 block=256x1x1", 1, 3, 3),
        row("sm90_xmma_gemm_f32f32_tf32f32_f32_nt_n_tilesize128x128x32_warpgroupsize1x1x1",
            "grid=32x8x1 block=256x1x1 cluster=1x1x1", 1, 2, 2),
        row("void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>,"
            " std::array<char*, 1ul> >(int, at::native::FillFunctor<float>, std::array<char*,"
            " 1ul>)", "grid=1x1x1 block=128x1x1", 1, 1.5, 1.5),
        row("void at::native::vectorized_elementwise_kernel<4, at::native::AbsFunctor<float>,"
            " std::array<char*, 2ul> >(int, at::native::AbsFunctor<float>, std::array<char*,"
            " 2ul>)", "grid=1x1x1 block=128x1x1", 1, 1, 1),
    };
    gp_hotspots hs;
    assert_int_equal(gp_hotspots_of(r, 4, NULL, NULL, &hs), 0);
    char n[4][96];
    for (int i = 0; i < 4; i++) {
        gp_hotspot_name(&hs, 4, i, 44, n[i], sizeof n[i]);
        assert_true(strlen(n[i]) <= 44);
    }
    assert_non_null(strstr(n[0], "... [132/256]"));
    assert_non_null(strstr(n[1], "... [32x8/256]"));
    assert_string_equal(n[2], "vectorized_elementwise_kernel<FillFunctor>");
    assert_string_equal(n[3], "vectorized_elementwise_kernel<AbsFunctor>");
    gp_hotspots_free(&hs);
}

/* Three kernels of one label (PyTorch's Adam, traced on the H100): each
 * named by a word none of the other two has, not just the first other;
 * where no word is its alone, one that the first other lacks. */
static void names_tell_apart_from_all(void **state)
{
    (void)state;
#define MTA(meta, functor, op) \
    "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::" \
    "(anonymous namespace)::" meta ", at::native::(anonymous namespace)::" functor \
    ", " op ", float>(at::native::(anonymous namespace)::" meta ")"
    gp_row r[4] = {
        row(MTA("TensorListScalarListMetadata<float, 1>", "BinaryOpScalarListFunctor<float, 1, 1, 0>",
                "std::divides<float>"), "grid=100x1x1 block=512x1x1", 1, 4, 4),
        row(MTA("TensorListMetadata<2>", "TernaryOpScalarFunctor<float, 2, 2, 0>",
                "at::native::LerpFunctor<float>"), "grid=100x1x1 block=512x1x1", 1, 3, 3),
        row(MTA("TensorListMetadata<2>", "UnaryOpFunctor<float, 2, 1, 1>", "at::native::Sqrt<float>"),
            "grid=100x1x1 block=512x1x1", 1, 2, 2),
        row(MTA("TensorListMetadata<2>", "UnaryOpFunctor<float, 2, 1, 1>", "std::negate<float>"),
            "grid=100x1x1 block=512x1x1", 1, 1, 1),
    };
#undef MTA
    gp_hotspots hs;
    assert_int_equal(gp_hotspots_of(r, 4, NULL, NULL, &hs), 0);
    char n[4][128];
    for (int i = 0; i < 4; i++)
        gp_hotspot_name(&hs, 4, i, 80, n[i], sizeof n[i]);
    assert_string_equal(n[0], "multi_tensor_apply_kernel<TensorListScalarListMetadata>");
    assert_string_equal(n[1], "multi_tensor_apply_kernel<TernaryOpScalarFunctor>");
    assert_string_equal(n[2], "multi_tensor_apply_kernel<Sqrt>");
    assert_string_equal(n[3], "multi_tensor_apply_kernel<negate>");
    gp_hotspots_free(&hs);
}

/* The printed table: a heading, ranks 1..top, "other (N kernels)"; the
 * fixture's shares as printed add to 100 within rounding. */
static void printed_table(void **state)
{
    (void)state;
    char path[] = "/tmp/gp-test-hotspots-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w+");
    char err[512];
    assert_int_equal(gp_hotspots_print_file(f, "tests/fixtures/trace/hotspots-fixture.csv",
                                            "reports/data/h100/ceilings.csv", 10, err,
                                            sizeof err), 0);
    rewind(f);
    char line[512];
    int ranks = 0, other = 0, heading = 0;
    double shares = 0;
    while (fgets(line, sizeof line, f)) {
        heading += strstr(line, "share  launches  median ms") != NULL;
        int rank;
        char *pct = strchr(line, '%');
        if (sscanf(line, "%d", &rank) == 1 && pct) {
            assert_int_equal(rank, ++ranks);
            char *p = pct;
            while (p > line && p[-1] != ' ')
                p--;
            shares += strtod(p, NULL);
        }
        if (strstr(line, "other (5 kernels)") && pct) {
            other++;
            char *p = pct;
            while (p > line && p[-1] != ' ')
                p--;
            shares += strtod(p, NULL);
        }
    }
    fclose(f);
    unlink(path);
    assert_int_equal(heading, 1);
    assert_int_equal(ranks, 10);
    assert_int_equal(other, 1);
    assert_near(shares, 100, 0.05 * 11);
    /* a file that is not there: -1 and a message */
    f = fopen("/dev/null", "w");
    assert_int_equal(gp_hotspots_print_file(f, "/nonexistent.csv", NULL, 10, err,
                                            sizeof err), -1);
    fclose(f);
    assert_non_null(strstr(err, "/nonexistent.csv"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(shares_rank_and_other),
        cmocka_unit_test(per_launch_equals_per_config),
        cmocka_unit_test(weighted_median),
        cmocka_unit_test(profiled_launches_count_at_the_mean),
        cmocka_unit_test(na_and_skipped),
        cmocka_unit_test(bound_classification),
        cmocka_unit_test(names_tell_apart),
        cmocka_unit_test(names_tell_apart_from_all),
        cmocka_unit_test(printed_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
