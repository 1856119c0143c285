/* facts.c - what the driver says about a launch: its function's
 * registers and memory, the occupancy it allows, and the kernel's name,
 * demangled. */
#include <stdlib.h>
#include <string.h>

#include "state.h"

/* libstdc++'s demangler, callable from C. */
extern char *__cxa_demangle(const char *mangled, char *out, size_t *len, int *status);

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

char *gp_inject_demangle(const char *symbol)
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
    if ((names_n + 1) * 2 > names_cap && grow_names() != 0) {
        gp_inject_out_of_memory("the kernel-name cache");
        return symbol ? symbol : "(unnamed kernel)";
    }
    size_t h = ((uintptr_t)f >> 4) % names_cap;
    while (names[h].f && names[h].f != f)
        h = (h + 1) % names_cap;
    if (names[h].f && (!symbol || !strcmp(symbol, names[h].symbol)))
        return names[h].name;
    const char *mangled = symbol;
    if (!mangled || !*mangled)
        gp_inj.drv->cuFuncGetName(&mangled, f);
    char *name = gp_inject_demangle(mangled), *copy = strdup(mangled ? mangled : "");
    if (!name || !copy) {
        free(name);
        free(copy);
        gp_inject_out_of_memory("the kernel-name cache");
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
