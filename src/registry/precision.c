/* precision.c - names and element sizes of the precisions in gemmprof.h. */
#include "gemmprof.h"

const char *gp_precision_name(gp_precision p)
{
    switch (p) {
    case GP_FP32: return "fp32";
    case GP_FP64: return "fp64";
    case GP_TF32: return "tf32";
    }
    return "unknown";
}

/* TF32 kernels read and write float: the tensor cores round internally. */
size_t gp_precision_bytes(gp_precision p)
{
    switch (p) {
    case GP_FP32: return 4;
    case GP_FP64: return 8;
    case GP_TF32: return 4;
    }
    return 0;
}
