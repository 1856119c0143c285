/* data.c - the deterministic generator and the check of local C
 * against the exact product (FP64, from the generator). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "data.h"

static uint64_t splitmix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/* A multiple of 2^-23 (float) or 2^-52 (double) in [-1, 1): exactly
 * representable in the storage type, so no rounding step is needed. */
double gp_dist_value(uint64_t seed, int matrix, long i, long j, gp_precision p)
{
    uint64_t h = splitmix64(seed ^ ((uint64_t)matrix << 56));
    h = splitmix64(h ^ (uint64_t)i);
    h = splitmix64(h ^ ((uint64_t)j << 1));
    if (p == GP_FP64)
        return (double)(h >> 11) * 0x1p-52 - 1.0;
    return (double)(h >> 40) * 0x1p-23 - 1.0;
}

static void store(void *dst, size_t idx, double v, gp_precision p)
{
    if (p == GP_FP64)
        ((double *)dst)[idx] = v;
    else
        ((float *)dst)[idx] = (float)v;
}

void gp_dist_fill_a(const gp_dist_geom *g, uint64_t seed, gp_precision p, void *a)
{
    for (long li = 0; li < g->mloc; li++) {
        long i = gp_bc_l2g(li, g->br, g->myrow, g->pr);
        for (long lk = 0; lk < g->kloc_a; lk++) {
            long kk = gp_bc_l2g(lk, g->bk, g->mycol, g->pc);
            store(a, (size_t)(li * g->kloc_a + lk),
                  gp_dist_value(seed, GP_DIST_MAT_A, i, kk, p), p);
        }
    }
}

void gp_dist_fill_b(const gp_dist_geom *g, uint64_t seed, gp_precision p, void *b)
{
    for (long lk = 0; lk < g->kloc_b; lk++) {
        long kk = gp_bc_l2g(lk, g->bk, g->myrow, g->pr);
        for (long lj = 0; lj < g->nloc; lj++) {
            long j = gp_bc_l2g(lj, g->bc, g->mycol, g->pc);
            store(b, (size_t)(lk * g->nloc + lj),
                  gp_dist_value(seed, GP_DIST_MAT_B, kk, j, p), p);
        }
    }
}

static int by_value(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

/* `want` distinct indices of 0..n-1, ascending (all of them if want >= n). */
static long *pick(long n, long want, uint64_t seed)
{
    long *idx = malloc((size_t)(n > 0 ? n : 1) * sizeof *idx);
    if (!idx)
        return NULL;
    for (long i = 0; i < n; i++)
        idx[i] = i;
    if (want >= n)
        return idx;
    for (long i = 0; i < want; i++) {       /* partial Fisher-Yates */
        seed = splitmix64(seed);
        long j = i + (long)(seed % (uint64_t)(n - i));
        long t = idx[i];
        idx[i] = idx[j];
        idx[j] = t;
    }
    qsort(idx, (size_t)want, sizeof *idx, by_value);  /* cache-friendly */
    return idx;
}

static void sample_sizes(const gp_dist_geom *g, long budget, long *rows, long *cols)
{
    long k = g->k > 0 ? g->k : 1;
    *rows = g->mloc;
    *cols = g->nloc;
    if ((double)g->mloc * g->nloc * k <= (double)budget)
        return;
    long per = budget / k;                  /* entries we can afford */
    long s = (long)sqrt((double)(per > 1 ? per : 1));
    *rows = g->mloc < s ? g->mloc : s;
    long c = per / (*rows > 0 ? *rows : 1);
    *cols = g->nloc < c ? g->nloc : (c > 0 ? c : 1);
}

static void account(gp_dist_check *o, double c, double r)
{
    if (!isfinite(c) || !isfinite(r)) {
        o->nonfinite++;
        return;
    }
    double d = fabs(c - r);
    o->diff2 += d * d;
    o->ref2 += r * r;
    if (d > o->maxdiff)
        o->maxdiff = d;
    if (fabs(r) > o->maxref)
        o->maxref = fabs(r);
}

/* B's columns are generated a chunk at a time (column-major, so each dot
 * product runs over two contiguous arrays), bounded to 8 MiB. */
#define CHUNK_DOUBLES (1L << 20)

static int check_entries(const gp_dist_geom *g, uint64_t seed, gp_precision p,
                         const void *c, const long *ri, const long *ci,
                         gp_dist_check *o)
{
    long k = g->k, chunk = CHUNK_DOUBLES / (k > 0 ? k : 1);
    chunk = chunk < 1 ? 1 : chunk;
    chunk = chunk > o->cols ? o->cols : chunk;
    double *arow = malloc((size_t)(k > 0 ? k : 1) * sizeof *arow);
    double *bcol = malloc((size_t)(chunk * k > 0 ? chunk * k : 1) * sizeof *bcol);
    if (!arow || !bcol) {
        free(arow);
        free(bcol);
        return -1;
    }
    for (long c0 = 0; c0 < o->cols; c0 += chunk) {
        long nc = o->cols - c0 < chunk ? o->cols - c0 : chunk;
        for (long x = 0; x < nc; x++) {
            long j = gp_bc_l2g(ci[c0 + x], g->bc, g->mycol, g->pc);
            for (long kk = 0; kk < k; kk++)
                bcol[x * k + kk] = gp_dist_value(seed, GP_DIST_MAT_B, kk, j, p);
        }
        for (long y = 0; y < o->rows; y++) {
            long i = gp_bc_l2g(ri[y], g->br, g->myrow, g->pr);
            for (long kk = 0; kk < k; kk++)
                arow[kk] = gp_dist_value(seed, GP_DIST_MAT_A, i, kk, p);
            for (long x = 0; x < nc; x++) {
                double r = 0;
                for (long kk = 0; kk < k; kk++)
                    r += arow[kk] * bcol[x * k + kk];
                size_t at = (size_t)(ri[y] * g->nloc + ci[c0 + x]);
                double got = p == GP_FP64 ? ((const double *)c)[at]
                                          : ((const float *)c)[at];
                account(o, got, r);
            }
        }
    }
    free(arow);
    free(bcol);
    return 0;
}

int gp_dist_check_c(const gp_dist_geom *g, uint64_t seed, gp_precision p,
                    const void *c, long budget, gp_dist_check *out)
{
    memset(out, 0, sizeof *out);
    sample_sizes(g, budget, &out->rows, &out->cols);
    out->sampled = out->rows < g->mloc || out->cols < g->nloc;
    out->entries = out->rows * out->cols;
    if (out->rows == 0 || out->cols == 0)
        return 0;
    uint64_t s = splitmix64(seed ^ ((uint64_t)g->myrow << 32 ^ (uint64_t)g->mycol));
    long *ri = pick(g->mloc, out->rows, s);
    long *ci = pick(g->nloc, out->cols, splitmix64(s));
    int rc = ri && ci ? check_entries(g, seed, p, c, ri, ci, out) : -1;
    free(ri);
    free(ci);
    return rc;
}

void gp_dist_check_merge(gp_dist_check *a, const gp_dist_check *b)
{
    a->diff2 += b->diff2;
    a->ref2 += b->ref2;
    a->maxdiff = a->maxdiff > b->maxdiff ? a->maxdiff : b->maxdiff;
    a->maxref = a->maxref > b->maxref ? a->maxref : b->maxref;
    a->nonfinite += b->nonfinite;
    a->entries += b->entries;
    a->sampled |= b->sampled;
}
