/* cublas_ref - the references every rung is verified and ranked against.
 *
 * Row-major C = A*B is column-major C^T = B^T * A^T, so cuBLAS gets the
 * operands swapped (n, m, k; B first) and no transposes.
 * FP32: CUBLAS_COMPUTE_32F with CUBLAS_DEFAULT_MATH, i.e. TF32 tensor cores
 * are NOT allowed (NVIDIA_TF32_OVERRIDE can only disable TF32, never enable
 * it for this compute type).  The math mode is recorded in every data file.
 * TF32 (cublas_tf32, the reference of the TF32 rungs): the same call with
 * CUBLAS_COMPUTE_32F_FAST_TF32.  The compute type, not the handle's math
 * mode, selects the tensor cores, so the shared handle stays on
 * CUBLAS_DEFAULT_MATH and the FP32 reference stays TF32-off whatever ran
 * before it.  NVIDIA_TF32_OVERRIDE=0 turns TF32 off here too: the recorded
 * math mode says so when it is set.
 * Profile should show: cuBLAS's own kernel (name varies by shape), no
 * static facts (opaque), FLOP counts as the rungs' for FP32/FP64; for TF32
 * the tensor pipe busy and no FFMA (HMMA/HGMMA .TF32 kernels, sm90_xmma_*).
 */
#include <stdlib.h>
#include <cublas_v2.h>
#include "rung.cuh"

static cublasHandle_t g_handle;

/* The handle dies with the context: the harness calls gp_cublas_forget()
 * before cudaDeviceReset (destroying it lets go of the context; errors from
 * a context already dead are expected) and the next launch makes a new one. */
extern "C" void gp_cublas_forget(void)
{
    if (g_handle)
        cublasDestroy(g_handle);
    g_handle = NULL;
}

static int handle(cudaStream_t s, cublasHandle_t *h)
{
    if (!g_handle) {
        if (cublasCreate(&g_handle) != CUBLAS_STATUS_SUCCESS)
            return (int)cudaErrorInitializationError;
        cublasSetMathMode(g_handle, CUBLAS_DEFAULT_MATH);
    }
    cublasSetStream(g_handle, s);
    *h = g_handle;
    return 0;
}

static int status_to_cuda(cublasStatus_t st)
{
    if (st == CUBLAS_STATUS_SUCCESS)
        return (int)cudaPeekAtLastError();
    return st == CUBLAS_STATUS_ALLOC_FAILED ? (int)cudaErrorMemoryAllocation
                                            : (int)cudaErrorLaunchFailure;
}

static int gemm_ex(const gemm_args *a, cudaStream_t s, gp_launch_info *info,
                   cudaDataType_t t, cublasComputeType_t ct, const char *cfg)
{
    cublasHandle_t h;
    int e = handle(s, &h);
    if (e)
        return e;
    gp_record(info, NULL, dim3(0, 0, 0), dim3(0, 0, 0), 0, cfg);
    float fa = (float)a->alpha, fb = (float)a->beta;
    const void *pa = &fa, *pb = &fb;
    if (t == CUDA_R_64F) {
        pa = &a->alpha;
        pb = &a->beta;
    }
    return status_to_cuda(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, a->n, a->m,
                                       a->k, pa, a->B, t, a->ldb, a->A, t,
                                       a->lda, pb, a->C, t, a->ldc, ct,
                                       CUBLAS_GEMM_DEFAULT));
}

extern "C" int gp_sgemm_cublas(const gemm_args *a, cudaStream_t s,
                               gp_launch_info *info)
{
    return gemm_ex(a, s, info, CUDA_R_32F, CUBLAS_COMPUTE_32F,
                   "CUBLAS_COMPUTE_32F");
}

extern "C" int gp_sgemm_cublas_tf32(const gemm_args *a, cudaStream_t s,
                                    gp_launch_info *info)
{
    return gemm_ex(a, s, info, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32,
                   "CUBLAS_COMPUTE_32F_FAST_TF32");
}

extern "C" int gp_dgemm_cublas(const gemm_args *a, cudaStream_t s,
                               gp_launch_info *info)
{
    return gemm_ex(a, s, info, CUDA_R_64F, CUBLAS_COMPUTE_64F,
                   "CUBLAS_COMPUTE_64F");
}

extern "C" const char *gp_cublas_math_desc(void)
{
    const char *ov = getenv("NVIDIA_TF32_OVERRIDE");
    if (ov && strcmp(ov, "0") == 0)
        return "fp32: cublasGemmEx CUBLAS_COMPUTE_32F, CUBLAS_DEFAULT_MATH (TF32 off); "
               "tf32: CUBLAS_COMPUTE_32F_FAST_TF32 but NVIDIA_TF32_OVERRIDE=0 "
               "(TF32 disabled: plain FP32); fp64: CUBLAS_COMPUTE_64F";
    return "fp32: cublasGemmEx CUBLAS_COMPUTE_32F, CUBLAS_DEFAULT_MATH (TF32 off); "
           "tf32: CUBLAS_COMPUTE_32F_FAST_TF32 (TF32 tensor cores); "
           "fp64: CUBLAS_COMPUTE_64F";
}

extern "C" int gp_cublas_version(void)
{
    int v = 0;
    cublasHandle_t h;
    if (handle(0, &h) == 0)
        cublasGetVersion(h, &v);
    return v;
}
