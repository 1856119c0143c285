/* inject_facts.c - what the driver says about a launch: its shape (from
 * the launch API's own parameters), its function's registers and memory,
 * the occupancy it allows, and the kernel's name, demangled. */
#include <stdlib.h>
#include <string.h>
#include <cupti_driver_cbid.h>

#include "inject.h"

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

/* libstdc++'s demangler, callable from C. */
extern char *__cxa_demangle(const char *mangled, char *out, size_t *len, int *status);

static void shape(gp_trace_launch *l, unsigned gx, unsigned gy, unsigned gz,
                  unsigned bx, unsigned by, unsigned bz, unsigned smem)
{
    l->grid[0] = gx, l->grid[1] = gy, l->grid[2] = gz;
    l->block[0] = bx, l->block[1] = by, l->block[2] = bz;
    l->dyn_smem = (int)smem;
}


static void from_config(const CUlaunchConfig *c, gp_trace_launch *l, CUstream *stream)
{
    shape(l, c->gridDimX, c->gridDimY, c->gridDimZ, c->blockDimX, c->blockDimY,
          c->blockDimZ, c->sharedMemBytes);
    *stream = c->hStream;
    for (unsigned i = 0; c->attrs && i < c->numAttrs; i++)
        if (c->attrs[i].id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION) {
            l->cluster[0] = c->attrs[i].value.clusterDim.x;
            l->cluster[1] = c->attrs[i].value.clusterDim.y;
            l->cluster[2] = c->attrs[i].value.clusterDim.z;
        }
}

int gp_inject_launch_params(CUpti_CallbackId cbid, const void *params, CUfunction *f,
                            CUstream *stream, gp_trace_launch *l)
{
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
        return 0;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz: {
        const ex_params *p = params;
        *f = p->f;
        from_config(p->config, l, stream);
        return 0;
    }
    }
    return -1;
}

typedef struct {
    CUdevice dev;
    int known;
    gp_occupancy_input in;
} device_limits;

static int driver_attr(int id, void *ctx)
{
    int v = -1;
    CUdevice dev = *(const CUdevice *)ctx;
    return gp_inj.drv->cuDeviceGetAttribute(&v, (CUdevice_attribute)id, dev) == CUDA_SUCCESS
               ? v : -1;
}

/* The device's limits, read once per device. */
static const gp_occupancy_input *limits(CUdevice dev)
{
    static device_limits cache[16];
    for (int i = 0; i < 16; i++) {
        device_limits *d = &cache[i];
        if (d->known && d->dev == dev)
            return &d->in;
        if (d->known)
            continue;
        if (gp_occupancy_device(&d->in, driver_attr, &dev) != 0)
            return NULL;
        d->dev = dev;
        d->known = 1;
        return &d->in;
    }
    return NULL;
}

static int func_attr(CUfunction f, CUfunction_attribute a)
{
    int v = -1;
    return gp_inj.drv->cuFuncGetAttribute(&v, a, f) == CUDA_SUCCESS ? v : -1;
}

void gp_inject_launch_facts(CUfunction f, gp_trace_launch *l)
{
    const gp_cudrv_api *drv = gp_inj.drv;
    l->regs = l->local_bytes = l->static_smem = l->active_blocks = -1;
    /* The runtime launches CUkernel handles (CUDA 12+ libraries) through
     * cuLaunchKernel too: their function in this context has the facts. */
    CUfunction fn = f;
    if (func_attr(fn, CU_FUNC_ATTRIBUTE_NUM_REGS) < 0 &&
        drv->cuKernelGetFunction(&fn, (CUkernel)f) != CUDA_SUCCESS)
        return;
    l->regs = func_attr(fn, CU_FUNC_ATTRIBUTE_NUM_REGS);
    l->local_bytes = func_attr(fn, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES);
    l->static_smem = func_attr(fn, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES);
    int threads = (int)(l->block[0] * l->block[1] * l->block[2]), blocks = -1;
    if (drv->cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, fn, threads,
                                                         (size_t)l->dyn_smem) == CUDA_SUCCESS)
        l->active_blocks = blocks;
    CUdevice dev;
    const gp_occupancy_input *in;
    if (drv->cuCtxGetDevice(&dev) == CUDA_SUCCESS && (in = limits(dev))) {
        l->dev = *in;
        l->have_device = 1;
    }
}

/* A small open-addressing cache: CUfunction -> demangled name, checked
 * against the symbol CUPTI gives (a handle can be reused once a module is
 * unloaded). */
typedef struct { const void *f; char *symbol, *name; } name_entry;
static name_entry *names;
static size_t names_cap, names_n;

static char *demangle(const char *symbol)
{
    int status = -1;
    char *d = symbol ? __cxa_demangle(symbol, NULL, NULL, &status) : NULL;
    if (d && status == 0)
        return d;
    free(d);
    return strdup(symbol && *symbol ? symbol : "(unnamed kernel)");
}

static int grow_names(void)
{
    size_t cap = names_cap ? 2 * names_cap : 256;
    name_entry *t = calloc(cap, sizeof *t);
    if (!t)
        return -1;
    for (size_t i = 0; i < names_cap; i++) {
        if (!names[i].f)
            continue;
        size_t h = ((uintptr_t)names[i].f >> 4) % cap;
        while (t[h].f)
            h = (h + 1) % cap;
        t[h] = names[i];
    }
    free(names);
    names = t;
    names_cap = cap;
    return 0;
}

const char *gp_inject_kernel_name(CUfunction f, const char *symbol)
{
    if ((names_n + 1) * 2 > names_cap && grow_names() != 0)
        return symbol ? symbol : "(unnamed kernel)";
    size_t h = ((uintptr_t)f >> 4) % names_cap;
    while (names[h].f && names[h].f != f)
        h = (h + 1) % names_cap;
    if (names[h].f && (!symbol || !strcmp(symbol, names[h].symbol)))
        return names[h].name;
    const char *mangled = symbol;
    if (!mangled || !*mangled)
        gp_inj.drv->cuFuncGetName(&mangled, f);
    char *name = demangle(mangled), *copy = strdup(mangled ? mangled : "");
    if (!name || !copy) {
        free(name);
        free(copy);
        return "(unnamed kernel)";
    }
    if (names[h].f) {                   /* a reused handle: replace */
        free(names[h].symbol);
        free(names[h].name);
        names_n--;
    }
    names[h] = (name_entry){ f, copy, name };
    names_n++;
    return name;
}
