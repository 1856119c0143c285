/* launch_params.c - a launch's shape, read from the launch API's own
 * parameters at its entry, before the driver has checked them.  So this
 * reads nothing the driver would refuse: a NULL config, a NULL function, an
 * attribute list it would not accept.  Such a launch is not read at all;
 * it goes on to the driver untouched, which returns its error as it does
 * without gemmprof. */
#include <cupti_driver_cbid.h>

#include "state.h"

/* More attributes than CUlaunchAttributeID has values is no list the
 * driver accepts: not worth reading past its end to find out. */
#define MAX_ATTRS 64

/* The launch APIs' parameter blocks as CUPTI hands them over, laid out as
 * in the toolkit's generated_cuda_meta.h (which does not compile as C on
 * its own: it needs the driver's legacy _v1 types).  cuLaunchKernel,
 * cuLaunchCooperativeKernel and their _ptsz forms start alike. */
typedef struct {
    CUfunction f;
    unsigned int gridDimX, gridDimY, gridDimZ;
    unsigned int blockDimX, blockDimY, blockDimZ;
    unsigned int sharedMemBytes;
    CUstream hStream;
} classic_params;

typedef struct {
    const CUlaunchConfig *config;
    CUfunction f;
} ex_params;

static void shape(gp_trace_launch *l, unsigned gx, unsigned gy, unsigned gz,
                  unsigned bx, unsigned by, unsigned bz, unsigned smem)
{
    l->grid[0] = gx, l->grid[1] = gy, l->grid[2] = gz;
    l->block[0] = bx, l->block[1] = by, l->block[2] = bz;
    l->dyn_smem = (int)smem;
}

static int from_config(const CUlaunchConfig *c, gp_trace_launch *l, CUstream *stream)
{
    if (!c || (c->numAttrs && !c->attrs) || c->numAttrs > MAX_ATTRS)
        return -1;
    shape(l, c->gridDimX, c->gridDimY, c->gridDimZ, c->blockDimX, c->blockDimY,
          c->blockDimZ, c->sharedMemBytes);
    *stream = c->hStream;
    for (unsigned i = 0; i < c->numAttrs; i++)
        if (c->attrs[i].id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION) {
            l->cluster[0] = c->attrs[i].value.clusterDim.x;
            l->cluster[1] = c->attrs[i].value.clusterDim.y;
            l->cluster[2] = c->attrs[i].value.clusterDim.z;
        }
    return 0;
}

int gp_inject_launch_params(CUpti_CallbackId cbid, const void *params, CUfunction *f,
                            CUstream *stream, gp_trace_launch *l)
{
    if (!params)
        return -1;
    switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz: {
        const classic_params *p = params;
        shape(l, p->gridDimX, p->gridDimY, p->gridDimZ, p->blockDimX, p->blockDimY,
              p->blockDimZ, p->sharedMemBytes);
        *f = p->f;
        *stream = p->hStream;
        return *f ? 0 : -1;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz: {
        const ex_params *p = params;
        *f = p->f;
        return *f ? from_config(p->config, l, stream) : -1;
    }
    }
    return -1;
}
