/* data.h - the matrices of a distributed run and their check.  Pure C
 * (no MPI): unit-tested everywhere.
 *
 * A(i,j) and B(i,j) are a pure function of (seed, matrix, i, j), so any rank
 * generates any block without communication, and any rank can compute any
 * entry of the exact product for its own C blocks. */
#ifndef GP_DIST_DATA_H
#define GP_DIST_DATA_H

#include <stdint.h>
#include "gemmprof.h"
#include "layout.h"

enum { GP_DIST_MAT_A = 1, GP_DIST_MAT_B = 2 };

/* Uniform in [-1, 1), rounded to float for FP32/TF32 storage, so the value
 * generated is exactly the value stored. */
double gp_dist_value(uint64_t seed, int matrix, long i, long j, gp_precision p);

/* Fill the rank's local A (mloc x kloc_a) or B (kloc_b x nloc), row-major,
 * elements of precision p (float or double). */
void gp_dist_fill_a(const gp_dist_geom *g, uint64_t seed, gp_precision p, void *a);
void gp_dist_fill_b(const gp_dist_geom *g, uint64_t seed, gp_precision p, void *b);

/* What a rank's check of its local C found.  Sums, not ratios, so ranks'
 * results add up to the global one. */
typedef struct {
    double diff2, ref2;      /* sum (C-R)^2, sum R^2                     */
    double maxdiff, maxref;  /* max |C-R|, max |R|                       */
    long nonfinite;          /* entries of C (or R) that are NaN / inf   */
    long rows, cols;         /* the checked entries: rows x cols          */
    long entries;            /* rows * cols (summed by merge)             */
    int sampled;             /* 1: a random sample, not all of local C    */
} gp_dist_check;

/* Above this many multiply-adds per rank (local entries checked x k), the
 * check takes a random sample of local rows and columns. */
#define GP_DIST_CHECK_BUDGET (1L << 27)

/* Check local C (mloc x nloc, row-major) against the exact product, in
 * FP64, computed from the generator: all of it when mloc*nloc*k fits
 * `budget`, else a random sample of rows x columns (the same size both
 * ways where possible) that fits.  0, or -1 when out of memory. */
int gp_dist_check_c(const gp_dist_geom *g, uint64_t seed, gp_precision p,
                    const void *c, long budget, gp_dist_check *out);

/* Fold b into a (sums and entries add, maxima take the max, sampled
 * ORs; rows and cols stay a's). */
void gp_dist_check_merge(gp_dist_check *a, const gp_dist_check *b);

#endif
