/* gpu.h - the device: is there one, what is it, and how much fits on it.
 * Every CUDA runtime error that reaches the user goes through gp_cuda_msg. */
#ifndef GP_GPU_H
#define GP_GPU_H

#include <stddef.h>
#include "arch/arch.h"
#include "data/data.h"

typedef struct {
    int ordinal;
    char name[256];
    int sm_count, cc_major, cc_minor;
    int sm_clock_khz, mem_clock_khz, bus_width_bits;  /* max clocks, from attributes */
    size_t l2_bytes, total_mem, smem_per_block_optin, smem_per_sm;
    int regs_per_sm, max_threads_per_sm, max_blocks_per_sm;
    int driver_version, runtime_version, cublas_version;
} gp_gpu;

/* 0 and `g` filled, or -1 with a one-line reason in `err`
 * ("no CUDA device", "CUDA driver missing or too old", ...). */
int gp_gpu_open(int ordinal, gp_gpu *g, char *err, size_t errlen);
/* Number of visible devices; 0 when there is no driver or no device. */
int gp_gpu_count(void);
/* Free device memory in bytes now (0 on error). */
size_t gp_gpu_free_mem(void);
/* Append gpu_name, sm_count, clocks, driver, CUDA and cuBLAS versions. */
void gp_gpu_meta(const gp_gpu *g, gp_meta *m);

const char *gp_cuda_msg(int cuda_error);

/* What this binary contains (gp_build_arch, parsed once). */
const gp_build *gp_this_build(void);
/* Compute capability of the current device, as GP_CC gives it; 0 if none. */
int gp_current_cc(void);

/* The rest of the gpu folder's interface: static facts of a launch
 * (facts.c), the compiler's build-time report (ptxas_facts.c), device
 * helpers of the harness (devutil.cu), the L2 scrub before measured
 * launches (scrub.c, devutil.cu). */
#include "facts.h"
#include "ptxas_facts.h"
#include "devutil.h"
#include "scrub.h"

#endif
