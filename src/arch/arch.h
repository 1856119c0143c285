/* arch.h - what each GPU architecture can do, and what each kernel needs.
 * Pure C, no CUDA calls: the plot code (CPU only), the harness and the CUDA
 * kernels (kernels/rung.cuh, for the feature numbers) all include it.
 *
 *  - the per-compute-capability table (arch.c): family, FP32 and FP64 FMA
 *    lanes per SM, TF32 and FP64 tensor-core FLOP per clock per SM, each
 *    value cited there; and the theoretical GFLOP/s they give;
 *  - the features kernels need (cp.async, FP64 mma shapes, wgmma, ...),
 *    what a build contains (its sm_XY / compute_XY list, recorded in the
 *    binary at build time) and whether a kernel can run on a device with
 *    this build, and if not, why (build.c).
 * A compute capability is one int, major * 10 + minor: 75, 80, 90, 100, 120. */
#ifndef GP_ARCH_H
#define GP_ARCH_H

#include <stddef.h>

#define GP_CC(major, minor) ((major) * 10 + (minor))

/* The oldest compute capability CUDA 13 compiles for (nvcc 13.0 dropped
 * compute_70/72: `nvcc --list-gpu-arch` starts at compute_75). */
#define GP_CC_MIN 75

/* ---- the per-CC table ------------------------------------------------- */

typedef struct {
    int cc;
    const char *family;      /* "Turing", "Ampere (GA100)", ...             */
    int fp32_lanes;          /* FP32 FMA results per clock per SM           */
    int fp64_lanes;          /* FP64 FMA results per clock per SM           */
    double tf32_tensor;      /* dense TF32 tensor-core FLOP/clock/SM; NAN: none */
    double fp64_tensor;      /* dense FP64 tensor-core FLOP/clock/SM; NAN: none */
} gp_arch_info;

/* NULL for a compute capability the table does not know. */
const gp_arch_info *gp_arch_lookup(int cc);
/* The table, in CC order (for listings and tests). */
const gp_arch_info *gp_arch_table(int *count);

/* The theoretical compute ceilings, named as the ceilings file's rows. */
typedef enum {
    GP_PEAK_FP32_FMA, GP_PEAK_FP64_FMA, GP_PEAK_TF32_TENSOR, GP_PEAK_FP64_TENSOR,
    GP_PEAK_COUNT
} gp_peak_kind;

/* "fp32_fma", "fp64_fma", "tf32_tensor", "fp64_tensor". */
const char *gp_peak_name(gp_peak_kind k);
/* FLOP per clock per SM (an FMA is 2 FLOP); NAN if unknown or absent. */
double gp_arch_flop_per_clock(int cc, gp_peak_kind k);
/* sm_count x FLOP per clock per SM x sm_mhz, in GFLOP/s; NAN when the CC
 * is unknown, the chip has no such unit, or an input is not positive. */
double gp_arch_peak_gflops(int cc, int sm_count, double sm_mhz, gp_peak_kind k);

/* ---- what kernels need ------------------------------------------------ */

/* Minimum compute capability of each feature, as plain macros so that
 * device code can test them at compile time (kernels/rung.cuh). */
#define GP_FEAT_CC_NONE        GP_CC_MIN
#define GP_FEAT_CC_CP_ASYNC    80
#define GP_FEAT_CC_MMA_TF32    80
#define GP_FEAT_CC_TF32_TENSOR 80
#define GP_FEAT_CC_DMMA        80
#define GP_FEAT_CC_DMMA_K16    90
#define GP_FEAT_CC_DMMA_K8     90
#define GP_FEAT_CC_WGMMA       90

/* X(ID, name, min_cc, arch_specific, in_library)
 *  arch_specific: only the 'a' target of exactly min_cc has it (sm_90a),
 *                 no later GPU;
 *  in_library:    the code is a library's (cuBLAS), not this build's, so
 *                 only the device's compute capability matters.
 * PTX ISA 9.0 ("Target ISA notes" of each instruction): cp.async, mma.sync
 * .tf32 and .f64 m8n8k4 need sm_80; mma.sync .f64 m16n8k8/m16n8k16 need
 * sm_90; wgmma.mma_async and setmaxnreg need sm_90a.  TF32 tensor cores
 * arrived with Ampere (A100 whitepaper). */
#define GP_FEATURES(X)                                                           \
    X(NONE,        "",                         GP_FEAT_CC_NONE,        0, 0)     \
    X(CP_ASYNC,    "cp.async",                 GP_FEAT_CC_CP_ASYNC,    0, 0)     \
    X(MMA_TF32,    "TF32 mma.sync",            GP_FEAT_CC_MMA_TF32,    0, 0)     \
    X(TF32_TENSOR, "TF32 tensor cores",        GP_FEAT_CC_TF32_TENSOR, 0, 1)     \
    X(DMMA,        "FP64 mma.sync m8n8k4",     GP_FEAT_CC_DMMA,        0, 0)     \
    X(DMMA_K16,    "FP64 mma.sync m16n8k16",   GP_FEAT_CC_DMMA_K16,    0, 0)     \
    X(DMMA_K8,     "FP64 mma.sync m16n8k8",    GP_FEAT_CC_DMMA_K8,     0, 0)     \
    X(WGMMA,       "wgmma",                    GP_FEAT_CC_WGMMA,       1, 0)

#define GP_FEATURE_ENUM(id, name, cc, specific, lib) GP_FEAT_##id,
typedef enum { GP_FEATURES(GP_FEATURE_ENUM) GP_FEAT_COUNT } gp_feature;
#undef GP_FEATURE_ENUM

const char *gp_feature_name(gp_feature f);      /* "cp.async"; "" for NONE  */
const char *gp_feature_id(gp_feature f);        /* "CP_ASYNC"               */
/* GP_FEAT_COUNT if `id` names no feature. */
gp_feature gp_feature_parse(const char *id);
int gp_feature_min_cc(gp_feature f);
/* "sm_80", or "sm_90a" for an arch-specific feature. */
void gp_feature_target(gp_feature f, char *buf, size_t n);

/* ---- what a build contains -------------------------------------------- */

#define GP_BUILD_MAX_CODES 32

/* One code object of the build: SASS for a real architecture ("sm_80",
 * "sm_90a") or PTX for a virtual one ("compute_80"), which the driver
 * compiles for the GPU at load time (JIT). */
typedef struct {
    int cc;
    int ptx;            /* 1: compute_XY (PTX); 0: sm_XY (SASS)   */
    int specific;       /* 1: the 'a' variant (sm_90a)            */
} gp_code;

typedef struct {
    int n;
    gp_code code[GP_BUILD_MAX_CODES];
} gp_build;

/* Parse "sm_80 sm_90 sm_90a compute_90" (blanks or commas between).
 * 0, or -1 with a one-line message naming the bad token. */
int gp_build_parse(const char *list, gp_build *b, char *err, size_t errlen);

/* The code a device of compute capability `cc` runs for a kernel compiled
 * the plain way (no 'a' variants), as the CUDA driver picks it: SASS of
 * the same major and a minor no higher than the device's (the newest such),
 * else the newest PTX no newer than the device, compiled at load time.
 * {0} when the build has nothing this device can run. */
gp_code gp_build_pick(const gp_build *b, int cc);

/* "sm_80", "sm_90a", "compute_80": a code object's name. */
void gp_code_name(gp_code c, char *buf, size_t n);

/* Can a device of compute capability `cc` run anything of this build?
 * 0, or -1 with one line: the GPU is older than CUDA 13 supports, or the
 * build has no code for it (naming the build's codes and the make line
 * that fixes it). */
int gp_build_check_device(const gp_build *b, int cc, char *err, size_t errlen);

/* Can a kernel that needs `f` run on a device of compute capability `cc`
 * with build `b`?  1, or 0 with `status` set to the row status
 * "skipped: needs sm_90a (wgmma)" and `err` to the longer reason ("this
 * GPU is sm_80", "this build's code for this GPU is compute_80 (JIT):
 * rebuild with ARCH including sm_90").  Either buffer may be NULL. */
int gp_arch_can_run(gp_feature f, int cc, const gp_build *b,
                    char *status, size_t sn, char *err, size_t errlen);

/* Does build `b` contain the real code (not the empty body) of a kernel
 * needing `f` for code object `c`?  The Makefile's and the kernels'
 * rule (kernels/rung.cuh), used to check the compiler's own report. */
int gp_code_has_feature(gp_code c, gp_feature f);

#endif
