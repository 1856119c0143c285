/* test_subgemm_plan.c - rung 17's cut of a GEMM (kernels/subgemm_plan.c),
 * on the CPU: the pieces cover C exactly once, the head is whole waves of
 * whole tiles, the k parts add up to k in whole k tiles, and the sizes the
 * rung was measured at get the plan that was measured (issue 32). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../kernels/subgemm_plan.h"

static int ntiles(int len, int tile) { return (len + tile - 1) / tile; }

/* Every element of C in exactly one piece: the head's whole rows, the
 * head's part of row [t0, t1), the tail's part of it, the tail's rows. */
static void check_cover(int m, int n, int k, int slots, const gp_subgemm_plan *p)
{
    assert_true(p->t0 >= 0 && p->t0 <= p->t1 && p->t1 <= m);
    assert_true(p->split >= 0 && p->split <= n);
    for (int r = 0; r < m; r += 17)
        for (int c = 0; c < n; c += 13) {
            int in = (r < p->t0) + (r >= p->t0 && r < p->t1 && c < p->split) +
                     (r >= p->t0 && r < p->t1 && c >= p->split) + (r >= p->t1);
            if (in != 1)
                fail_msg("%dx%dx%d on %d slots: C[%d][%d] in %d pieces", m, n, k, slots, r, c,
                         in);
        }
}

/* The head is whole waves: its tiles (whole rows plus the split row's
 * first split / BN) number floor(tiles / slots) x slots, and the split
 * row's tail is not empty. */
static void check_head(int m, int n, int slots, const gp_subgemm_plan *p)
{
    const int ntn = ntiles(n, GP_SUB_BN), tiles = ntiles(m, GP_SUB_BM) * ntn;
    assert_int_equal(p->t0 % GP_SUB_BM, 0);
    assert_int_equal(p->split % GP_SUB_BN, 0);
    assert_true(p->split < n);
    const int head = p->t0 / GP_SUB_BM * ntn + p->split / GP_SUB_BN;
    assert_int_equal(head, tiles / slots * slots);
    assert_int_equal(p->head, head);
}

static void pieces_cover_c_once(void **state)
{
    (void)state;
    static const int sizes[][3] = {
        {4096, 4096, 4096}, {8192, 8192, 8192}, {1024, 1024, 1024}, {257, 385, 1029},
        {4097, 4095, 333},  {100, 3000, 5000},  {8193, 8191, 1000}, {2049, 1023, 4100},
        {129, 257, 64},     {1, 1, 1},          {3000, 100, 7},     {6000, 2100, 900},
    };
    static const int slots[] = {132, 114, 108, 80, 33, 7, 1};
    int split = 0;
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        for (size_t s = 0; s < sizeof slots / sizeof *slots; s++) {
            const int m = sizes[i][0], n = sizes[i][1], k = sizes[i][2];
            const gp_subgemm_plan p = gp_subgemm_plan_for(m, n, k, slots[s]);
            assert_true(p.q >= 0 && p.q <= GP_SUB_MAX_Q);
            if (p.q == 0) {             /* one launch of everything */
                assert_int_equal(p.ka, k);
                assert_int_equal(p.head, ntiles(m, GP_SUB_BM) * ntiles(n, GP_SUB_BN));
                continue;
            }
            split++;
            check_cover(m, n, k, slots[s], &p);
            check_head(m, n, slots[s], &p);
            assert_int_equal(p.ka + p.q * p.kb, k);
            assert_true(p.kb > 0 && p.kb % GP_SUB_BK == 0 && p.ka > 0);
        }
    assert_true(split > 20);            /* the loop checked something */
}

/* No tile left over (tiles a multiple of the slots), or k of one k tile:
 * nothing to split. */
static void nothing_to_split(void **state)
{
    (void)state;
    gp_subgemm_plan p = gp_subgemm_plan_for(128 * 12, 256 * 11, 4096, 132);  /* 132 tiles */
    assert_int_equal(p.q, 0);
    p = gp_subgemm_plan_for(4096, 4096, 8, 132);       /* 116 left over, k too short */
    assert_int_equal(p.q, 0);
    assert_int_equal(p.ka, 8);
    assert_int_equal(p.head, 512);                           /* one launch of all 512 */
}

/* The plans measured on the H200 (reports/data/h200/subgemm-tail/): at
 * 4096^3, 116 tiles left over, the other 16 SMs run 8 short parts of 55
 * k tiles each; at 8192^3, 68 left over, 4 short parts of 113 k tiles. */
static void measured_plans(void **state)
{
    (void)state;
    gp_subgemm_plan p = gp_subgemm_plan_for(4096, 4096, 4096, 132);
    assert_int_equal(p.q, 1);
    assert_int_equal(p.c, 8);
    assert_int_equal(p.kb, 55 * GP_SUB_BK);
    assert_int_equal(p.t0, 24 * GP_SUB_BM);
    assert_int_equal(p.split, 12 * GP_SUB_BN);
    p = gp_subgemm_plan_for(8192, 8192, 8192, 132);
    assert_int_equal(p.q, 4);
    assert_int_equal(p.kb, 113 * GP_SUB_BK);
    assert_int_equal(p.t0, 61 * GP_SUB_BM);
    assert_int_equal(p.split, 28 * GP_SUB_BN);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pieces_cover_c_once),
        cmocka_unit_test(nothing_to_split),
        cmocka_unit_test(measured_plans),
    };
    return cmocka_run_group_tests_name("subgemm_plan", tests, NULL, NULL);
}
