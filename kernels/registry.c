/* registry.c - expands ladder.def into the built-in kernel table and, in
 * the same order, what each kernel needs (src/arch/arch.h). */
#include "../src/registry/registry.h"

#define GP_RUNG(name, prec, fn, needs, idea) \
    int fn(const gemm_args *, cudaStream_t, gp_launch_info *);
#include "ladder.def"
#undef GP_RUNG

#define GP_RUNG(name, prec, fn, needs, idea) {#name, prec, idea, fn},
const gp_kernel gp_builtin_kernels[] = {
#include "ladder.def"
};
#undef GP_RUNG

#define GP_RUNG(name, prec, fn, needs, idea) GP_FEAT_##needs,
const gp_feature gp_builtin_needs[] = {
#include "ladder.def"
};
#undef GP_RUNG

const int gp_builtin_kernel_count =
    (int)(sizeof gp_builtin_kernels / sizeof gp_builtin_kernels[0]);
