/* verify.c - is C right?  Every element is compared with the reference in
 * double precision against a bound of its own, derived from the inputs
 * (|C - R| <= gamma * M + floor, M = |alpha||A||B| + |beta||C0|), so one
 * wrong element or one wrong tile fails however small its share of the
 * Frobenius norm; the relative Frobenius error is checked too (it catches
 * a small error spread everywhere, e.g. TF32 products in an FP32 kernel).
 * One NaN or Inf anywhere fails the run, whatever the norms say (NaN
 * compares false with everything, so a `err > tol` test alone would let it
 * through: every test below is written so that NaN fails). */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "run.h"

/* Relative Frobenius error of an FP32 dot product of length k with inputs in
 * [-1,1) grows like ~0.35 eps sqrt(k) (random-walk rounding); 8 eps sqrt(k)
 * leaves a 20x margin yet fails TF32 (relative error ~5e-4) at every k.
 * The + 2, as in gp_verify_gamma, is alpha's and beta's roundings, which
 * rule at small k: cuBLAS FP32 at 1x1x1 (alpha, beta != 0) erred by 1.09e-6
 * against the CPU's product, over 8 eps = 9.5e-7 (H200). */
double gp_verify_tolerance(gp_precision p, long k)
{
    double rk = sqrt((double)(k < 1 ? 1 : k)) + 2.0;
    switch (p) {
    case GP_FP64: return 8.0 * DBL_EPSILON * rk;
    case GP_TF32: return 4e-3; /* 10-bit mantissa inputs: ~3e-4 typical */
    default:      return 8.0 * FLT_EPSILON * rk;
    }
}

/* gamma: |C - R| <= gamma * M per element, M = |alpha||A||B| + |beta||C0|.
 * FP32, FP64 (unit roundoff u = 2^-24, 2^-53): a dot product of length k
 * summed in any order (tiles, split-k, FMA chains) errs by at most
 * lambda sqrt(k) u M with probability >= 1 - 2 exp(-lambda^2 / 2) when its
 * rounding errors are independent and mean-zero (Higham & Mary, SIAM J.
 * Sci. Comput. 2019).  lambda = 8: 2.5e-14 per element, 2e-6 for all 67M
 * of an 8192^2 C.  The kernel and R each err so (factor 2), and alpha and
 * beta's roundings add ~2 u (the + 2).  FP32 at k = 4096: gamma = 6.3e-5,
 * bound ~0.064 on an element with M ~ 1024; measured recursive-summation
 * errors there have a standard deviation near u k / 7 = 3.3e-5, so a real
 * kernel sits ~2000x inside, while one element off by 0.1 fails.
 * TF32: each input rounded to 10 mantissa bits errs by <= 2^-11 relative
 * (2^-10 if truncated), a product by <= 2^-9, and summed with signs
 * ignored those stay <= 2^-9 M: a bound with no probability in it.  Tensor
 * cores may truncate their FP32 accumulation (biased, so up to k 2^-23 M),
 * and R is FP32.  At k = 4096: gamma = 2.5e-3; at 8192, 3.0e-3. */
double gp_verify_gamma(gp_precision p, long k)
{
    double rk = sqrt((double)(k < 1 ? 1 : k)), lambda = 8.0;
    switch (p) {
    case GP_FP64: return 2.0 * lambda * (rk + 2.0) * ldexp(1.0, -53);
    case GP_TF32: return ldexp(1.0, -9) + (double)k * ldexp(1.0, -23) +
                         gp_verify_gamma(GP_FP32, k);
    default:      return 2.0 * lambda * (rk + 2.0) * ldexp(1.0, -24);
    }
}

/* An absolute floor for elements whose M is zero or subnormal: a kernel
 * that flushes subnormal results to zero differs from cuBLAS by less than
 * the smallest normal number (times alpha's and beta's few roundings). */
double gp_verify_floor(gp_precision p)
{
    return p == GP_FP64 ? 4.0 * DBL_MIN : 4.0 * FLT_MIN;
}

/* All bytes 0xFF: the poison gp_poison fills C with, bit for bit.
 * Arithmetic on it gives the GPU's canonical NaN (sign bit clear; the GPU
 * test of a kernel that reads C checks this), so an element that still
 * holds it was never written. */
static int is_poison(const void *c, size_t i, int dbl)
{
    static const unsigned char ones[8] = {255, 255, 255, 255, 255, 255, 255, 255};
    size_t w = dbl ? 8 : 4;
    return memcmp((const unsigned char *)c + i * w, ones, w) == 0;
}

static double at(const void *p, int dbl, size_t i)
{
    return dbl ? ((const double *)p)[i] : ((const float *)p)[i];
}

/* Running sums over the elements compared so far. */
typedef struct {
    double diff2, ref2, maxdiff, maxref, worst_ratio;
    double gamma, floor;
    int bounded;                /* element bounds apply */
} tally;

/* One element: C[i,j] = x, reference r, magnitude mag. */
static void take(gp_verify_result *v, tally *t, long i, long j, double x,
                 double r, double mag)
{
    v->checked++;
    if (!isfinite(x) || !isfinite(r)) {
        v->nonfinite++;
        return;
    }
    double d = fabs(x - r);
    t->diff2 += d * d;
    t->ref2 += r * r;
    t->maxdiff = fmax(t->maxdiff, d);
    t->maxref = fmax(t->maxref, fabs(r));
    double bound = t->bounded ? t->gamma * mag + t->floor : 0;
    double ratio = t->bounded ? d / bound : d;
    if (t->bounded && !(d <= bound))     /* a NaN bound fails too */
        v->bad++;
    if (ratio > t->worst_ratio) {
        t->worst_ratio = ratio;
        v->worst_row = i;
        v->worst_col = j;
        v->worst_got = x;
        v->worst_want = r;
        v->worst_bound = bound;
    }
}

static void finish(gp_verify_result *v, const tally *t)
{
    /* an all-zero reference (alpha = 0, or beta-only updates of zeros)
     * falls back to absolute error */
    v->rel_fro = t->ref2 > 0 ? sqrt(t->diff2 / t->ref2) : sqrt(t->diff2);
    v->max_rel = t->maxref > 0 ? t->maxdiff / t->maxref : t->maxdiff;
    if (v->nonfinite) {
        v->rel_fro = NAN;
        v->max_rel = NAN;
    }
    v->verified = v->nonfinite == 0 && v->bad == 0 && v->rel_fro <= v->tolerance;
}

static tally start(gp_verify_result *v, gp_precision kernel, long k, int bounded)
{
    memset(v, 0, sizeof *v);
    v->tolerance = gp_verify_tolerance(kernel, k);
    return (tally){0, 0, 0, 0, 0, gp_verify_gamma(kernel, k),
                   gp_verify_floor(kernel), bounded};
}

gp_verify_result gp_verify_gemm(const gp_verify_in *in)
{
    gp_verify_result v;
    tally t = start(&v, in->kernel, in->k, in->mag != NULL);
    int dbl = in->data == GP_FP64;
    for (long i = 0; i < in->m; ++i)
        for (long j = 0; j < in->n; ++j) {
            size_t ci = (size_t)i * in->ldc + j, ri = (size_t)i * in->n + j;
            long before = v.nonfinite;
            take(&v, &t, i, j, at(in->c, dbl, ci), at(in->ref, dbl, ri),
                 in->mag ? at(in->mag, dbl, ri) : 0);
            if (v.nonfinite > before)
                v.poison += is_poison(in->c, ci, dbl);
        }
    finish(&v, &t);
    return v;
}

gp_verify_result gp_verify(gp_precision p, const void *c, const void *ref, size_t n)
{
    gp_verify_in in = {p, p, 1, (long)n, 1, (long)n, c, ref, NULL};
    return gp_verify_gemm(&in);
}

/* ---- the CPU's own product, for the references ---- */

/* alpha * A[i,:] . B[:,j] + beta * C0[i,j] in long double (64-bit
 * mantissa: exact to ~k 2^-64, far below FP64's rounding), and its M. */
static void cpu_element(const gp_cpu_check_in *in, long i, long j,
                        long double *want, long double *mag)
{
    int dbl = in->data == GP_FP64;
    long double s = 0, a = 0;
    for (long p = 0; p < in->k; ++p) {
        long double x = at(in->A, dbl, (size_t)i * in->lda + p);
        long double y = at(in->B, dbl, (size_t)p * in->ldb + j);
        s += x * y;
        a += fabsl(x * y);
    }
    long double c0 = in->beta != 0 ? at(in->C0, dbl, (size_t)i * in->ldc + j) : 0;
    *want = in->alpha * s + in->beta * c0;
    *mag = fabsl((long double)in->alpha) * a + fabsl(in->beta * c0);
}

static void cpu_take(const gp_cpu_check_in *in, gp_verify_result *v, tally *t,
                     long i, long j)
{
    long double want, mag;
    cpu_element(in, i, j, &want, &mag);
    take(v, t, i, j, at(in->c, in->data == GP_FP64, (size_t)i * in->ldc + j),
         (double)want, (double)mag);
}

/* splitmix64: places to sample, reproducible from the seed */
static uint64_t next_place(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

gp_verify_result gp_verify_cpu(const gp_cpu_check_in *in)
{
    gp_verify_result v;
    tally t = start(&v, in->kernel, in->k, 1);
    if ((double)in->m * in->n * in->k <= GP_CPU_FULL_MACS) {
        for (long i = 0; i < in->m; ++i)
            for (long j = 0; j < in->n; ++j)
                cpu_take(in, &v, &t, i, j);
    } else {
        long corner[4][2] = {{0, 0}, {0, in->n - 1}, {in->m - 1, 0},
                             {in->m - 1, in->n - 1}};
        for (int c = 0; c < 4; ++c)
            cpu_take(in, &v, &t, corner[c][0], corner[c][1]);
        uint64_t s = in->seed;
        for (long q = 0; q < in->samples; ++q) {
            uint64_t r = next_place(&s);
            cpu_take(in, &v, &t, (long)(r % (uint64_t)in->m),
                     (long)((r >> 32) % (uint64_t)in->n));
        }
    }
    finish(&v, &t);
    return v;
}

/* ---- the status line ---- */

/* Non-finite elements at beta = 0 are almost always the NaN poison: a
 * kernel that reads C (beta * C is NaN even for beta = 0) turns them into
 * computed NaNs; one that skips them leaves the poison itself.  Say which,
 * or a user whose kernel reads C sees only a count and blames gemmprof. */
static void nonfinite_status(char *out, size_t len, const gp_verify_result *v,
                             double beta, size_t elements)
{
    static const char poisoned[] = "C was NaN-poisoned because BLAS treats C as "
                                   "write-only at beta = 0";
    const char *all = (size_t)v->nonfinite == elements ? " (all)" : "";
    if (beta != 0.0)
        snprintf(out, len, "verify_failed: %ld non-finite elements", v->nonfinite);
    else if (v->poison == v->nonfinite)
        snprintf(out, len, "verify_failed: %ld non-finite elements%s; %s, and they "
                 "still hold the poison, so the kernel did not write them",
                 v->nonfinite, all, poisoned);
    else
        snprintf(out, len, "verify_failed: %ld non-finite elements%s; %s, so the "
                 "kernel probably read C", v->nonfinite, all, poisoned);
}

void gp_verify_status(char *out, size_t len, const gp_verify_result *v,
                      int verified, double beta, size_t elements)
{
    if (v->nonfinite)
        nonfinite_status(out, len, v, beta, elements);
    else if (v->bad)
        snprintf(out, len, "verify_failed: C[%ld,%ld] = %.9g want %.9g (bound "
                 "%.2g); %ld element%s out of bound", v->worst_row, v->worst_col,
                 v->worst_got, v->worst_want, v->worst_bound, v->bad,
                 v->bad == 1 ? "" : "s");
    else if (!verified && !(v->rel_fro <= v->tolerance) && v->tolerance > 0)
        snprintf(out, len, "verify_failed: rel_err_fro %.3g > tolerance %.3g",
                 v->rel_fro, v->tolerance);
    else
        snprintf(out, len, "%s", verified ? "ok" : "verify_failed");
}
