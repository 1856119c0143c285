/* registry.c - expands ladder.def into the built-in kernel table. */
#include "../src/registry/registry.h"

#define GP_RUNG(name, prec, fn, idea) \
    int fn(const gemm_args *, cudaStream_t, gp_launch_info *);
#include "ladder.def"
#undef GP_RUNG

#define GP_RUNG(name, prec, fn, idea) {#name, prec, idea, fn},
const gp_kernel gp_builtin_kernels[] = {
#include "ladder.def"
};
#undef GP_RUNG

const int gp_builtin_kernel_count =
    (int)(sizeof gp_builtin_kernels / sizeof gp_builtin_kernels[0]);
