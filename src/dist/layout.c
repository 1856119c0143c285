/* layout.c - block-cyclic arithmetic (ScaLAPACK numroc, indxg2p,
 * indxg2l, indxl2g with source process 0) and the panel schedule. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layout.h"

long gp_bc_numroc(long n, long nb, int p, int np)
{
    long nblocks = n / nb;                 /* whole blocks                */
    long loc = nblocks / np * nb;          /* full rounds of the deal     */
    long extra = nblocks % np;
    if (p < extra)
        loc += nb;                         /* one more whole block        */
    else if (p == extra)
        loc += n % nb;                     /* the partial last block      */
    return loc;
}

int gp_bc_owner(long g, long nb, int np)
{
    return (int)(g / nb % np);
}

long gp_bc_g2l(long g, long nb, int np)
{
    return g / (nb * np) * nb + g % nb;
}

long gp_bc_l2g(long l, long nb, int p, int np)
{
    return (l / nb * np + p) * nb + l % nb;
}

void gp_dist_geom_init(gp_dist_geom *g, long m, long n, long k, long br,
                       long bc, long bk, int pr, int pc, int rank)
{
    memset(g, 0, sizeof *g);
    g->m = m, g->n = n, g->k = k;
    g->br = br, g->bc = bc, g->bk = bk;
    g->pr = pr, g->pc = pc;
    g->myrow = rank / pc;
    g->mycol = rank % pc;
    g->mloc = gp_bc_numroc(m, br, g->myrow, pr);
    g->nloc = gp_bc_numroc(n, bc, g->mycol, pc);
    g->kloc_a = gp_bc_numroc(k, bk, g->mycol, pc);
    g->kloc_b = gp_bc_numroc(k, bk, g->myrow, pr);
}

long gp_dist_kblock_width(long k, long bk, long t)
{
    long left = k - t * bk;
    return left < bk ? left : bk;
}

long gp_dist_panel_local_start(const gp_dist_schedule *s,
                               const gp_dist_panel *p, long k, long bk, int np)
{
    long first = gp_bc_g2l(s->blocks[p->first] * bk, bk, np), next = first;
    for (long i = 0; i < p->count; i++) {
        long t = s->blocks[p->first + i];
        if (gp_bc_g2l(t * bk, bk, np) != next)
            return -1;
        next += gp_dist_kblock_width(k, bk, t);
    }
    return first;
}

static long gcd(long a, long b)
{
    while (b) {
        long t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static int by_first_block(const void *pa, const void *pb, void *blocks)
{
    const gp_dist_panel *a = pa, *b = pb;
    const long *t = blocks;
    return (t[a->first] > t[b->first]) - (t[a->first] < t[b->first]);
}

int gp_dist_schedule_make(gp_dist_schedule *s, long k, long bk, int pr,
                          int pc, long group, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    long nkb = (k + bk - 1) / bk;
    long period = (long)pr / gcd(pr, pc) * pc;     /* lcm: owner pairs repeat */
    s->blocks = malloc((size_t)nkb * sizeof *s->blocks);
    s->panels = malloc((size_t)nkb * sizeof *s->panels);
    if (!s->blocks || !s->panels) {
        snprintf(err, errlen, "out of memory for %ld K-blocks", nkb);
        gp_dist_schedule_free(s);
        return -1;
    }
    for (long r = 0; r < period && r < nkb; r++) {
        for (long t = r; t < nkb; t += period) {
            gp_dist_panel *p = &s->panels[s->npanels];
            if (t == r || p[-1].count == group) {  /* start a new panel */
                p->root_col = (int)(t % pc);
                p->root_row = (int)(t % pr);
                p->width = 0;
                p->first = s->nblocks;
                p->count = 0;
                s->npanels++;
            }
            p = &s->panels[s->npanels - 1];
            p->count++;
            p->width += gp_dist_kblock_width(k, bk, t);
            s->blocks[s->nblocks++] = t;
        }
    }
    qsort_r(s->panels, (size_t)s->npanels, sizeof *s->panels, by_first_block,
            s->blocks);
    for (long i = 0; i < s->npanels; i++)
        if (s->panels[i].width > s->max_width)
            s->max_width = s->panels[i].width;
    return 0;
}

void gp_dist_schedule_free(gp_dist_schedule *s)
{
    free(s->panels);
    free(s->blocks);
    s->panels = NULL;
    s->blocks = NULL;
    s->npanels = s->nblocks = 0;
}
