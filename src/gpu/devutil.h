/* devutil.h - device helpers of the harness (devutil.cu; the L2 scrubs
 * are declared in scrub.h). */
#ifndef GP_DEVUTIL_H
#define GP_DEVUTIL_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif
/* Uniform values in [-1, 1) from (seed, index). */
int gp_fill_uniform(void *p, size_t n, int is_double, unsigned long long seed,
                    cudaStream_t s);
/* |x| in place, n elements. */
int gp_abs(void *p, size_t n, int is_double, cudaStream_t s);
/* Fill with NaN so an element a kernel never wrote fails verification. */
int gp_poison(void *p, size_t bytes, cudaStream_t s);
int gp_poison2d(void *p, size_t pitch, size_t width, size_t height, cudaStream_t s);

/* kernels/cublas_ref.cu */
void gp_cublas_forget(void);
const char *gp_cublas_math_desc(void);
int gp_cublas_version(void);
#ifdef __cplusplus
}
#endif
#endif
