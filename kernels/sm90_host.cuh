/* sm90_host.cuh - the host side the Hopper-only rungs share: is this GPU an
 * sm_90 (the only code in an *_sm90a.cu file is sm_90a's), and TMA tensor
 * maps of row-major float matrices (cuTensorMapEncodeTiled, reached through
 * the runtime's driver entry point so gemmprof needs no -lcuda). */
#ifndef GEMMPROF_SM90_HOST_CUH
#define GEMMPROF_SM90_HOST_CUH

#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>

static inline int gp_is_sm90(void)
{
    int dev = 0, major = 0, minor = 0;
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) ||
        cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev))
        return 0;
    return major == 9 && minor == 0;
}

static inline PFN_cuTensorMapEncodeTiled_v12000 gp_tma_encoder(void)
{
    static PFN_cuTensorMapEncodeTiled_v12000 fn;
    if (!fn) {
        void *p = NULL;
        cudaDriverEntryPointQueryResult q;
        if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000,
                                             cudaEnableDefault, &q) == cudaSuccess &&
            q == cudaDriverEntryPointSuccess)
            fn = (PFN_cuTensorMapEncodeTiled_v12000)p;
    }
    return fn;
}

/* A rows x cols row-major float matrix (stride ld floats: TMA needs a
 * multiple of 4, i.e. 16-byte global strides, and a 16-byte aligned base)
 * read in boxes of box_rows x box_cols floats, 128-byte swizzled (so
 * box_cols * 4 <= 128).  Elements outside the matrix arrive as zeros. */
static inline int gp_tma_map_2d(CUtensorMap *map, const float *base, int rows,
                                int cols, int ld, int box_cols, int box_rows)
{
    PFN_cuTensorMapEncodeTiled_v12000 enc = gp_tma_encoder();
    if (!enc)
        return (int)cudaErrorSymbolNotFound;
    cuuint64_t dims[2] = {(cuuint64_t)cols, (cuuint64_t)rows};
    cuuint64_t strides[1] = {(cuuint64_t)ld * sizeof(float)};
    cuuint32_t box[2] = {(cuuint32_t)box_cols, (cuuint32_t)box_rows}, unit[2] = {1, 1};
    CUresult r = enc(map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, (void *)base, dims,
                     strides, box, unit, CU_TENSOR_MAP_INTERLEAVE_NONE,
                     CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                     CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    return r == CUDA_SUCCESS ? 0 : (int)cudaErrorInvalidValue;
}

#endif
