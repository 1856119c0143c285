/* subgemm_plan.c - rung 17's cut of a GEMM (subgemm_plan.h). */
#include <math.h>

#include "subgemm_plan.h"

/* The q with the least predicted tail time, in tile times T, and the split
 * that ends the long parts with the short ones.  A short block costs
 * DELTA_US on top of its k (pipeline fill, the store of its sums): with c
 * short blocks on an SM, the long part's SM takes a + d and a short one's
 * c (b + d), equal when b = (1 - (c - 1) d) / (q + c).  The fixup costs a
 * pass over the tail's C per workspace (~3 TB/s, from L2) and a launch.
 * T is ~0.168 us per k (wide_tile on a 132-SM Hopper: 2 x 128 x 256 FLOP
 * per k at ~0.39 TFLOP/s an SM).  DELTA_US measured on the H200 at 4096^3
 * (3 interleaved rounds each, reports/ladder-notes.md): 3 us (a short
 * part of 55 k tiles) 99.94% of cuBLAS, 4.5 (54) 99.89%, 6 (53) 99.79%,
 * 8 (53) 99.80%; equal k per part (56) 99.71%. */
static const double DELTA_US = 3.0, US_PER_K = 0.168, FIX_BYTES_PER_US = 3e6,
                    LAUNCH_US = 2.0;

static void split_k(gp_subgemm_plan *p, int rest, int free_slots, int k)
{
    const int iters = (k + GP_SUB_BK - 1) / GP_SUB_BK;
    const double tile_us = US_PER_K * k, d = DELTA_US / tile_us;
    const double fix = (rest * (double)(GP_SUB_BM * GP_SUB_BN * 4) / FIX_BYTES_PER_US +
                        LAUNCH_US) / tile_us;
    double best_t = 1.0;
    for (int q = 1; q <= GP_SUB_MAX_Q; ++q) {
        const int c = (rest * q + free_slots - 1) / free_slots;
        const int kb_it = (int)(iters * (1 - (c - 1) * d) / (q + c) + 0.5);
        if (kb_it < 1 || q * kb_it >= iters)
            break;
        const double b = (double)kb_it / iters, a = 1 - q * b;
        const double t = fmax(a + d, c * (b + d)) + q * fix;
        if (t < best_t) {
            best_t = t;
            p->q = q;
            p->c = c;
            p->kb = kb_it * GP_SUB_BK;
            p->ka = k - q * p->kb;
        }
    }
}

gp_subgemm_plan gp_subgemm_plan_for(int m, int n, int k, int slots)
{
    const int ntm = (m + GP_SUB_BM - 1) / GP_SUB_BM, ntn = (n + GP_SUB_BN - 1) / GP_SUB_BN;
    const int tiles = ntm * ntn, rest = tiles % slots;
    gp_subgemm_plan p = { .q = 0, .head = tiles, .ka = k, .kb = 0, .t0 = m, .t1 = m,
                          .split = n, .c = 0 };
    if (rest == 0)
        return p;
    split_k(&p, rest, slots - rest, k);
    if (p.q == 0)
        return p;
    p.head = tiles - rest;
    const int hr = p.head / ntn, hc = p.head % ntn;
    p.t0 = hr * GP_SUB_BM;
    p.t1 = p.t0 + GP_SUB_BM < m ? p.t0 + GP_SUB_BM : m;
    p.split = hc * GP_SUB_BN < n ? hc * GP_SUB_BN : n;
    return p;
}
