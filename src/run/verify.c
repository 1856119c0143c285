/* verify.c - is C right?  Every element is compared with the reference in
 * double precision; one NaN or Inf anywhere fails the run, whatever the
 * norms say (NaN compares false with everything, so a `err > tol` test
 * alone would let it through). */
#include <float.h>
#include <math.h>
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

gp_verify_result gp_verify(gp_precision p, const void *c, const void *ref,
                           size_t n)
{
    gp_verify_result v = {0, 0, 0};
    double diff2 = 0, ref2 = 0, maxdiff = 0, maxref = 0;
    int dbl = (p == GP_FP64);
    for (size_t i = 0; i < n; ++i) {
        double x = dbl ? ((const double *)c)[i] : ((const float *)c)[i];
        double r = dbl ? ((const double *)ref)[i] : ((const float *)ref)[i];
        if (!isfinite(x) || !isfinite(r)) {
            v.nonfinite++;
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
