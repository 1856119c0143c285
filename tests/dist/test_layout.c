/* test_layout.c - block-cyclic index arithmetic (numroc, owners,
 * global<->local maps) and the SUMMA panel schedule of `gemmprof dist`,
 * checked against brute force.  No MPI needed. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "dist/layout.h"

/* Shapes that exercise partial last blocks, more processes than blocks and
 * blocks larger than the dimension. */
static const long dims[] = { 1, 2, 7, 8, 9, 45, 97, 256, 300 };
static const long blocks[] = { 1, 3, 8, 64, 1000 };
static const int procs[] = { 1, 2, 3, 4, 7 };
#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

static void numroc_scalapack_examples(void **state)
{
    (void)state;
    /* n = 10, nb = 3 over 2: p0 has blocks 0, 2 (6 indices), p1 1, 3 (4) */
    assert_int_equal(gp_bc_numroc(10, 3, 0, 2), 6);
    assert_int_equal(gp_bc_numroc(10, 3, 1, 2), 4);
    /* 9 indices in blocks of 8 over 4: 8, 1, 0, 0 */
    assert_int_equal(gp_bc_numroc(9, 8, 0, 4), 8);
    assert_int_equal(gp_bc_numroc(9, 8, 1, 4), 1);
    assert_int_equal(gp_bc_numroc(9, 8, 2, 4), 0);
    assert_int_equal(gp_bc_numroc(9, 8, 3, 4), 0);
}

static void numroc_counts_what_owner_deals(void **state)
{
    (void)state;
    for (size_t a = 0; a < N_OF(dims); a++)
        for (size_t b = 0; b < N_OF(blocks); b++)
            for (size_t c = 0; c < N_OF(procs); c++) {
                long n = dims[a], nb = blocks[b];
                int np = procs[c];
                long total = 0;
                for (int p = 0; p < np; p++) {
                    long mine = 0;
                    for (long g = 0; g < n; g++)
                        mine += gp_bc_owner(g, nb, np) == p;
                    assert_int_equal(gp_bc_numroc(n, nb, p, np), mine);
                    total += mine;
                }
                assert_int_equal(total, n);
            }
}

/* l2g(g2l(g)) == g on g's owner, and each process's local indices map to
 * its globals in increasing order (blocks packed in block order). */
static void global_local_maps_invert(void **state)
{
    (void)state;
    for (size_t a = 0; a < N_OF(dims); a++)
        for (size_t b = 0; b < N_OF(blocks); b++)
            for (size_t c = 0; c < N_OF(procs); c++) {
                long n = dims[a], nb = blocks[b];
                int np = procs[c];
                for (long g = 0; g < n; g++) {
                    int p = gp_bc_owner(g, nb, np);
                    long l = gp_bc_g2l(g, nb, np);
                    assert_true(l >= 0 && l < gp_bc_numroc(n, nb, p, np));
                    assert_int_equal(gp_bc_l2g(l, nb, p, np), g);
                }
                for (int p = 0; p < np; p++)
                    for (long l = 1; l < gp_bc_numroc(n, nb, p, np); l++)
                        assert_true(gp_bc_l2g(l, nb, p, np) > gp_bc_l2g(l - 1, nb, p, np));
            }
}

static void geometry_is_row_major_grid(void **state)
{
    (void)state;
    gp_dist_geom g;
    /* 2x3 grid, rank 4 -> row 1, column 1 */
    gp_dist_geom_init(&g, 97, 61, 45, 8, 4, 6, 2, 3, 4);
    assert_int_equal(g.myrow, 1);
    assert_int_equal(g.mycol, 1);
    assert_int_equal(g.mloc, gp_bc_numroc(97, 8, 1, 2));
    assert_int_equal(g.nloc, gp_bc_numroc(61, 4, 1, 3));
    assert_int_equal(g.kloc_a, gp_bc_numroc(45, 6, 1, 3));   /* A's K over columns */
    assert_int_equal(g.kloc_b, gp_bc_numroc(45, 6, 1, 2));   /* B's K over rows    */
}

/* Every K-block in exactly one panel; a panel's blocks share both owners;
 * widths add up to K; panels are in order of their first block. */
static void check_schedule(long k, long bk, int pr, int pc, long group)
{
    gp_dist_schedule s;
    char err[256];
    assert_int_equal(gp_dist_schedule_make(&s, k, bk, pr, pc, group, err, sizeof err), 0);
    long nkb = (k + bk - 1) / bk, width = 0, maxw = 0;
    char *seen = calloc((size_t)nkb, 1);
    assert_non_null(seen);
    assert_int_equal(s.nblocks, nkb);
    for (long i = 0; i < s.npanels; i++) {
        const gp_dist_panel *p = &s.panels[i];
        long w = 0;
        assert_true(p->count >= 1 && p->count <= group);
        for (long j = 0; j < p->count; j++) {
            long t = s.blocks[p->first + j];
            assert_true(t >= 0 && t < nkb);
            assert_false(seen[t]);
            seen[t] = 1;
            assert_int_equal(t % pc, p->root_col);
            assert_int_equal(t % pr, p->root_row);
            w += gp_dist_kblock_width(k, bk, t);
        }
        assert_int_equal(w, p->width);
        width += w;
        maxw = p->width > maxw ? p->width : maxw;
        if (i > 0)
            assert_true(s.blocks[p->first] > s.blocks[s.panels[i - 1].first]);
    }
    assert_int_equal(width, k);
    assert_int_equal(s.max_width, maxw);
    assert_true(maxw <= group * bk);
    free(seen);
    gp_dist_schedule_free(&s);
}

static void schedule_covers_k_once_with_shared_owners(void **state)
{
    (void)state;
    check_schedule(45, 8, 2, 2, 32);      /* partial last block          */
    check_schedule(1, 8, 1, 4, 1);        /* one block narrower than bk  */
    check_schedule(32, 8, 4, 1, 32);
    check_schedule(1000, 7, 2, 3, 5);     /* lcm(2, 3) = 6 owner pairs   */
    check_schedule(4096, 128, 4, 6, 2);   /* lcm 12                      */
    check_schedule(300, 1, 3, 3, 256);
}

static void schedule_groups_up_to_the_panel_width(void **state)
{
    (void)state;
    gp_dist_schedule s;
    char err[256];
    /* 1x1 grid: every block has the same owners: ceil(10 / 4) panels */
    assert_int_equal(gp_dist_schedule_make(&s, 80, 8, 1, 1, 4, err, sizeof err), 0);
    assert_int_equal(s.npanels, 3);
    assert_int_equal(s.panels[0].width, 32);
    assert_int_equal(s.panels[2].width, 16);
    gp_dist_schedule_free(&s);
    /* 2x2: blocks 0,2,4 and 1,3,5 (block 5 holds 5 of K = 45) */
    assert_int_equal(gp_dist_schedule_make(&s, 45, 8, 2, 2, 32, err, sizeof err), 0);
    assert_int_equal(s.npanels, 2);
    assert_int_equal(s.panels[0].width, 24);
    assert_int_equal(s.panels[1].width, 21);
    assert_int_equal(s.max_width, 24);
    gp_dist_schedule_free(&s);
}

/* The j-th K index of panel p, in the order the panel holds them. */
static long panel_index(const gp_dist_schedule *s, const gp_dist_panel *p,
                        long k, long bk, long j)
{
    for (long i = 0; i < p->count; i++) {
        long t = s->blocks[p->first + i], w = gp_dist_kblock_width(k, bk, t);
        if (j < w)
            return t * bk + j;
        j -= w;
    }
    return -1;
}

/* A start l says: the owner's local indices l .. l+W-1 are the panel's
 * K indices in order.  -1 says no start does (checked from the first
 * block's place, the only candidate). */
static void check_local_start(long k, long bk, int pr, int pc, long group)
{
    gp_dist_schedule s;
    char err[256];
    assert_int_equal(gp_dist_schedule_make(&s, k, bk, pr, pc, group, err, sizeof err), 0);
    for (long i = 0; i < s.npanels; i++)
        for (int side = 0; side < 2; side++) {
            const gp_dist_panel *p = &s.panels[i];
            int np = side ? pr : pc, owner = side ? p->root_row : p->root_col;
            long start = gp_dist_panel_local_start(&s, p, k, bk, np);
            long cand = gp_bc_g2l(s.blocks[p->first] * bk, bk, np), j = 0;
            long own = gp_bc_numroc(k, bk, owner, np);
            while (j < p->width && cand + j < own &&
                   gp_bc_l2g(cand + j, bk, owner, np) == panel_index(&s, p, k, bk, j))
                j++;
            assert_int_equal(start, j == p->width ? cand : -1);
        }
    gp_dist_schedule_free(&s);
}

static void panel_local_start_only_for_side_by_side_blocks(void **state)
{
    (void)state;
    gp_dist_schedule s;
    char err[256];
    /* 1x2, blocks of 8, K = 45 grouped 3: panel 0 is blocks 0, 2, 4, local
     * A columns 0..23 of process column 0, but rows 0-7, 16-23, 32-39 of
     * the one process row's local B: A in place, B packed */
    assert_int_equal(gp_dist_schedule_make(&s, 45, 8, 1, 2, 3, err, sizeof err), 0);
    assert_int_equal(gp_dist_panel_local_start(&s, &s.panels[0], 45, 8, 2), 0);
    assert_int_equal(gp_dist_panel_local_start(&s, &s.panels[0], 45, 8, 1), -1);
    assert_int_equal(gp_dist_panel_local_start(&s, &s.panels[1], 45, 8, 2), 0);
    gp_dist_schedule_free(&s);
    /* 1x1: panels of 4 blocks start at local 0, 32, 64 */
    assert_int_equal(gp_dist_schedule_make(&s, 80, 8, 1, 1, 4, err, sizeof err), 0);
    for (long i = 0; i < s.npanels; i++)
        assert_int_equal(gp_dist_panel_local_start(&s, &s.panels[i], 80, 8, 1), 32 * i);
    gp_dist_schedule_free(&s);
    for (size_t g = 0; g < 3; g++) {
        static const long groups[] = { 1, 3, 1000 };
        check_local_start(45, 8, 2, 2, groups[g]);
        check_local_start(45, 8, 1, 4, groups[g]);
        check_local_start(45, 8, 4, 1, groups[g]);
        check_local_start(1000, 7, 2, 3, groups[g]);
        check_local_start(4096, 128, 4, 6, groups[g]);
        check_local_start(4096, 128, 2, 4, groups[g]);
        check_local_start(1, 8, 1, 4, groups[g]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(numroc_scalapack_examples),
        cmocka_unit_test(numroc_counts_what_owner_deals),
        cmocka_unit_test(global_local_maps_invert),
        cmocka_unit_test(geometry_is_row_major_grid),
        cmocka_unit_test(schedule_covers_k_once_with_shared_owners),
        cmocka_unit_test(schedule_groups_up_to_the_panel_width),
        cmocka_unit_test(panel_local_start_only_for_side_by_side_blocks),
    };
    return cmocka_run_group_tests_name("dist_layout", tests, NULL, NULL);
}
