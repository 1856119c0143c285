/* test_data.c - the generator of distributed matrices and each rank's
 * check of its local C against the exact product.  No MPI needed: the
 * "ranks" here are geometries computed in one process. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dist/data.h"
#include "near.h"

enum { SEED = 12345 };

static void values_are_deterministic_and_in_range(void **state)
{
    (void)state;
    int differ = 0;
    for (long i = 0; i < 50; i++)
        for (long j = 0; j < 50; j++) {
            double a = gp_dist_value(SEED, GP_DIST_MAT_A, i, j, GP_FP64);
            assert_true(a == gp_dist_value(SEED, GP_DIST_MAT_A, i, j, GP_FP64));
            assert_true(a >= -1.0 && a < 1.0);
            double f = gp_dist_value(SEED, GP_DIST_MAT_A, i, j, GP_FP32);
            assert_true(f == (double)(float)f);   /* exact in float storage */
            differ += a != gp_dist_value(SEED, GP_DIST_MAT_B, i, j, GP_FP64);
            differ += a != gp_dist_value(SEED + 1, GP_DIST_MAT_A, i, j, GP_FP64);
            differ += a != gp_dist_value(SEED, GP_DIST_MAT_A, j, i, GP_FP64) || i == j;
        }
    assert_int_equal(differ, 3 * 2500);
}

/* Each local entry holds the generator's value at its global index. */
static void fill_places_global_values(void **state)
{
    (void)state;
    for (int rank = 0; rank < 6; rank++) {
        gp_dist_geom g;
        gp_dist_geom_init(&g, 23, 19, 17, 4, 3, 5, 2, 3, rank);
        double *a = malloc((size_t)(g.mloc * g.kloc_a + 1) * sizeof *a);
        double *b = malloc((size_t)(g.kloc_b * g.nloc + 1) * sizeof *b);
        assert_non_null(a);
        assert_non_null(b);
        gp_dist_fill_a(&g, SEED, GP_FP64, a);
        gp_dist_fill_b(&g, SEED, GP_FP64, b);
        for (long i = 0; i < g.mloc; i++)
            for (long k = 0; k < g.kloc_a; k++)
                assert_true(a[i * g.kloc_a + k] ==
                            gp_dist_value(SEED, GP_DIST_MAT_A, gp_bc_l2g(i, 4, g.myrow, 2),
                                          gp_bc_l2g(k, 5, g.mycol, 3), GP_FP64));
        for (long k = 0; k < g.kloc_b; k++)
            for (long j = 0; j < g.nloc; j++)
                assert_true(b[k * g.nloc + j] ==
                            gp_dist_value(SEED, GP_DIST_MAT_B, gp_bc_l2g(k, 5, g.myrow, 2),
                                          gp_bc_l2g(j, 3, g.mycol, 3), GP_FP64));
        free(a);
        free(b);
    }
}

/* The local C a correct distributed multiply leaves on this rank, summed
 * in the given precision (k in natural order). */
static void *exact_local_c(const gp_dist_geom *g, gp_precision p)
{
    size_t es = p == GP_FP64 ? sizeof(double) : sizeof(float);
    void *c = calloc((size_t)(g->mloc * g->nloc + 1), es);
    assert_non_null(c);
    for (long i = 0; i < g->mloc; i++)
        for (long j = 0; j < g->nloc; j++) {
            long gi = gp_bc_l2g(i, g->br, g->myrow, g->pr);
            long gj = gp_bc_l2g(j, g->bc, g->mycol, g->pc);
            double s = 0;
            float sf = 0;
            for (long k = 0; k < g->k; k++) {
                double x = gp_dist_value(SEED, GP_DIST_MAT_A, gi, k, p) *
                           gp_dist_value(SEED, GP_DIST_MAT_B, k, gj, p);
                s += x;
                sf += (float)x;
            }
            if (p == GP_FP64)
                ((double *)c)[i * g->nloc + j] = s;
            else
                ((float *)c)[i * g->nloc + j] = sf;
        }
    return c;
}

static void check_passes_a_correct_c(void **state)
{
    (void)state;
    gp_dist_geom g;
    gp_dist_geom_init(&g, 97, 61, 45, 8, 8, 8, 2, 2, 3);
    for (int p = GP_FP32; p <= GP_FP64; p++) {
        void *c = exact_local_c(&g, (gp_precision)p);
        gp_dist_check r;
        assert_int_equal(gp_dist_check_c(&g, SEED, (gp_precision)p, c,
                                         GP_DIST_CHECK_BUDGET, &r), 0);
        assert_false(r.sampled);
        assert_int_equal(r.rows, g.mloc);
        assert_int_equal(r.cols, g.nloc);
        assert_int_equal(r.entries, g.mloc * g.nloc);
        assert_int_equal(r.nonfinite, 0);
        assert_true(r.ref2 > 0);
        assert_true(sqrt(r.diff2 / r.ref2) < (p == GP_FP64 ? 1e-14 : 1e-6));
        free(c);
    }
}

static void check_catches_a_wrong_entry_and_nan(void **state)
{
    (void)state;
    gp_dist_geom g;
    gp_dist_geom_init(&g, 40, 30, 20, 4, 4, 4, 1, 1, 0);
    double *c = exact_local_c(&g, GP_FP64);
    gp_dist_check r;
    c[7 * g.nloc + 5] += 0.5;
    assert_int_equal(gp_dist_check_c(&g, SEED, GP_FP64, c, GP_DIST_CHECK_BUDGET, &r), 0);
    assert_near(r.maxdiff, 0.5, 1e-12);
    c[0] = NAN;
    assert_int_equal(gp_dist_check_c(&g, SEED, GP_FP64, c, GP_DIST_CHECK_BUDGET, &r), 0);
    assert_int_equal(r.nonfinite, 1);
    free(c);
}

/* Over budget: a sample of rows x columns that fits, and it still sees a
 * C that is wrong everywhere. */
static void check_samples_over_budget(void **state)
{
    (void)state;
    gp_dist_geom g;
    gp_dist_geom_init(&g, 200, 150, 64, 16, 16, 16, 1, 1, 0);
    double *c = exact_local_c(&g, GP_FP64);
    gp_dist_check r;
    long budget = 64L * 20 * 20;
    assert_int_equal(gp_dist_check_c(&g, SEED, GP_FP64, c, budget, &r), 0);
    assert_true(r.sampled);
    assert_true(r.rows >= 1 && r.rows < g.mloc);
    assert_true(r.cols >= 1 && r.cols < g.nloc);
    assert_true(r.rows * r.cols * g.k <= budget);
    assert_true(sqrt(r.diff2 / r.ref2) < 1e-14);
    for (long i = 0; i < g.mloc * g.nloc; i++)
        c[i] *= 1.001;
    assert_int_equal(gp_dist_check_c(&g, SEED, GP_FP64, c, budget, &r), 0);
    assert_true(sqrt(r.diff2 / r.ref2) > 1e-4);
    free(c);
}

static void empty_rank_checks_nothing(void **state)
{
    (void)state;
    gp_dist_geom g;
    gp_dist_geom_init(&g, 9, 9, 9, 8, 8, 8, 4, 1, 3);   /* rows 24.. do not exist */
    assert_int_equal(g.mloc, 0);
    gp_dist_check r;
    assert_int_equal(gp_dist_check_c(&g, SEED, GP_FP64, NULL, GP_DIST_CHECK_BUDGET, &r), 0);
    assert_int_equal(r.entries, 0);
    assert_false(r.sampled);
}

static void merge_adds_sums_and_takes_maxima(void **state)
{
    (void)state;
    gp_dist_check a = { .diff2 = 1, .ref2 = 4, .maxdiff = 0.5, .maxref = 2,
                        .nonfinite = 1, .rows = 3, .cols = 3, .entries = 9 };
    gp_dist_check b = { .diff2 = 2, .ref2 = 5, .maxdiff = 0.25, .maxref = 3,
                        .nonfinite = 0, .rows = 2, .cols = 2, .entries = 4,
                        .sampled = 1 };
    gp_dist_check_merge(&a, &b);
    assert_near(a.diff2, 3, 0);
    assert_near(a.ref2, 9, 0);
    assert_near(a.maxdiff, 0.5, 0);
    assert_near(a.maxref, 3, 0);
    assert_int_equal(a.nonfinite, 1);
    assert_int_equal(a.entries, 13);
    assert_true(a.sampled);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(values_are_deterministic_and_in_range),
        cmocka_unit_test(fill_places_global_values),
        cmocka_unit_test(check_passes_a_correct_c),
        cmocka_unit_test(check_catches_a_wrong_entry_and_nan),
        cmocka_unit_test(check_samples_over_budget),
        cmocka_unit_test(empty_rank_checks_nothing),
        cmocka_unit_test(merge_adds_sums_and_takes_maxima),
    };
    return cmocka_run_group_tests_name("dist_data", tests, NULL, NULL);
}
