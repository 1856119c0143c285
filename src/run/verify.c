/* verify.c - is C right?  Every element is compared with the reference in
 * double precision; one NaN or Inf anywhere fails the run, whatever the
 * norms say (NaN compares false with everything, so a `err > tol` test
 * alone would let it through). */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "run.h"

/* Relative Frobenius error of an FP32 dot product of length k with inputs in
 * [-1,1) grows like ~0.35 eps sqrt(k) (random-walk rounding); 8 eps sqrt(k)
 * leaves a 20x margin yet fails TF32 (relative error ~5e-4) at every k. */
double gp_verify_tolerance(gp_precision p, long k)
{
    double rk = sqrt((double)(k < 1 ? 1 : k));
    switch (p) {
    case GP_FP64: return 8.0 * DBL_EPSILON * rk;
    case GP_TF32: return 4e-3; /* 10-bit mantissa inputs: ~3e-4 typical */
    default:      return 8.0 * FLT_EPSILON * rk;
    }
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

gp_verify_result gp_verify(gp_precision p, const void *c, const void *ref,
                           size_t n)
{
    gp_verify_result v = {0, 0, 0, 0};
    double diff2 = 0, ref2 = 0, maxdiff = 0, maxref = 0;
    int dbl = (p == GP_FP64);
    for (size_t i = 0; i < n; ++i) {
        double x = dbl ? ((const double *)c)[i] : ((const float *)c)[i];
        double r = dbl ? ((const double *)ref)[i] : ((const float *)ref)[i];
        if (!isfinite(x) || !isfinite(r)) {
            v.nonfinite++;
            v.poison += is_poison(c, i, dbl);
            continue;
        }
        double d = fabs(x - r);
        diff2 += d * d;
        ref2 += r * r;
        if (d > maxdiff)
            maxdiff = d;
        if (fabs(r) > maxref)
            maxref = fabs(r);
    }
    /* an all-zero reference (alpha = 0, or beta-only updates of zeros)
     * falls back to absolute error */
    v.rel_fro = ref2 > 0 ? sqrt(diff2 / ref2) : sqrt(diff2);
    v.max_rel = maxref > 0 ? maxdiff / maxref : maxdiff;
    if (v.nonfinite) {
        v.rel_fro = NAN;
        v.max_rel = NAN;
    }
    return v;
}

/* One line for the row's status.  Non-finite elements at beta = 0 are
 * almost always the NaN poison: a kernel that reads C (beta * C is NaN
 * even for beta = 0) turns them into computed NaNs; one that skips them
 * leaves the poison itself.  Say which, or a user whose kernel reads C
 * sees only a count and blames gemmprof. */
void gp_verify_status(char *out, size_t len, const gp_verify_result *v,
                      int verified, double beta, size_t elements)
{
    static const char poisoned[] = "C was NaN-poisoned because BLAS treats C as "
                                   "write-only at beta = 0";
    if (v->nonfinite == 0)
        snprintf(out, len, "%s", verified ? "ok" : "verify_failed");
    else if (beta != 0.0)
        snprintf(out, len, "verify_failed: %ld non-finite elements", v->nonfinite);
    else if (v->poison == v->nonfinite)
        snprintf(out, len, "verify_failed: %ld non-finite elements%s; %s, and they "
                 "still hold the poison, so the kernel did not write them",
                 v->nonfinite, (size_t)v->nonfinite == elements ? " (all)" : "", poisoned);
    else
        snprintf(out, len, "verify_failed: %ld non-finite elements%s; %s, so the "
                 "kernel probably read C", v->nonfinite,
                 (size_t)v->nonfinite == elements ? " (all)" : "", poisoned);
}
