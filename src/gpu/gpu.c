/* gpu.c - device discovery and the facts every data file records. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <cuda_runtime_api.h>
#include "gpu.h"
#include "devutil.h"
#include "util/util.h"

const char *gp_cuda_msg(int e)
{
    return cudaGetErrorString((cudaError_t)e);
}

const gp_build *gp_this_build(void)
{
    static gp_build b;
    static int parsed;
    char err[128];
    if (!parsed && gp_build_parse(gp_build_arch, &b, err, sizeof err) != 0)
        b.n = 0;    /* the Makefile writes the list: a bad one is a bug */
    parsed = 1;
    return &b;
}

int gp_current_cc(void)
{
    int dev = 0, major = 0, minor = 0;
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) ||
        cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev)) {
        cudaGetLastError();
        return 0;
    }
    return GP_CC(major, minor);
}

int gp_gpu_count(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
        cudaGetLastError(); /* not sticky, but keep the error state clean */
        return 0;
    }
    return n;
}

static int attr(enum cudaDeviceAttr a, int dev)
{
    int v = 0;
    if (cudaDeviceGetAttribute(&v, a, dev) != cudaSuccess)
        return -1;
    return v;
}

/* The runtime reports a missing driver as "CUDA driver version is
 * insufficient": tell that apart from a driver that is there but old. */
static int driver_installed(void)
{
    void *h = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
    if (h)
        dlclose(h);
    return h != NULL;
}

int gp_gpu_open(int ordinal, gp_gpu *g, char *err, size_t errlen)
{
    memset(g, 0, sizeof *g);
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e == cudaErrorInsufficientDriver && !driver_installed()) {
        snprintf(err, errlen, "%s", GP_NO_DRIVER);
        return -1;
    }
    if (e == cudaErrorInsufficientDriver || e == cudaErrorNoDevice || n == 0) {
        snprintf(err, errlen, "no CUDA device (%s)",
                 e == cudaSuccess ? "none visible" : cudaGetErrorString(e));
        return -1;
    }
    if (e != cudaSuccess) {
        snprintf(err, errlen, "no CUDA device (%s)", cudaGetErrorString(e));
        return -1;
    }
    if (ordinal < 0 || ordinal >= n) {
        snprintf(err, errlen, "device %d does not exist (%d visible)", ordinal, n);
        return -1;
    }
    struct cudaDeviceProp p;
    if ((e = cudaSetDevice(ordinal)) != cudaSuccess ||
        (e = cudaGetDeviceProperties(&p, ordinal)) != cudaSuccess ||
        (e = cudaFree(0)) != cudaSuccess) {
        snprintf(err, errlen, "cannot use device %d: %s", ordinal,
                 cudaGetErrorString(e));
        return -1;
    }
    g->ordinal = ordinal;
    snprintf(g->name, sizeof g->name, "%s", p.name);
    g->sm_count = p.multiProcessorCount;
    g->cc_major = p.major;
    g->cc_minor = p.minor;
    g->sm_clock_khz = attr(cudaDevAttrClockRate, ordinal);
    g->mem_clock_khz = attr(cudaDevAttrMemoryClockRate, ordinal);
    g->bus_width_bits = attr(cudaDevAttrGlobalMemoryBusWidth, ordinal);
    g->l2_bytes = (size_t)p.l2CacheSize;
    g->total_mem = p.totalGlobalMem;
    g->smem_per_block_optin = p.sharedMemPerBlockOptin;
    g->smem_per_sm = p.sharedMemPerMultiprocessor;
    g->regs_per_sm = p.regsPerMultiprocessor;
    g->max_threads_per_sm = p.maxThreadsPerMultiProcessor;
    g->max_blocks_per_sm = p.maxBlocksPerMultiProcessor;
    cudaDriverGetVersion(&g->driver_version);
    cudaRuntimeGetVersion(&g->runtime_version);
    g->cublas_version = gp_cublas_version();
    return 0;
}

size_t gp_gpu_free_mem(void)
{
    size_t fr = 0, tot = 0;
    if (cudaMemGetInfo(&fr, &tot) != cudaSuccess)
        return 0;
    return fr;
}

/* The kernel module's version ("580.159.04"): cudaDriverGetVersion only
 * gives the CUDA API level.  The /proc line's wording varies ("Kernel
 * Module", "Open Kernel Module for x86_64"), so take the first token that
 * looks like N.N.N. */
static void driver_release(char *b, size_t n)
{
    snprintf(b, n, "NA");
    FILE *f = fopen("/proc/driver/nvidia/version", "r");
    if (!f)
        return;
    char line[512];
    if (fgets(line, sizeof line, f))
        for (char *t = strtok(line, " \t\n"); t; t = strtok(NULL, " \t\n")) {
            unsigned x, y;
            if (sscanf(t, "%u.%u", &x, &y) == 2 && strchr(t, '.') != t) {
                snprintf(b, n, "%s", t);
                break;
            }
        }
    fclose(f);
}

static void version_str(char *b, size_t n, int v)
{
    snprintf(b, n, "%d.%d", v / 1000, (v % 1000) / 10);
}

void gp_gpu_meta(const gp_gpu *g, gp_meta *m)
{
    char drv[16], rt[16], rel[32];
    driver_release(rel, sizeof rel);
    version_str(drv, sizeof drv, g->driver_version);
    version_str(rt, sizeof rt, g->runtime_version);
    gp_meta_set(m, "gpu_name", "%s", g->name);
    gp_meta_set(m, "gpu_ordinal", "%d", g->ordinal);
    gp_meta_set(m, "compute_capability", "%d.%d", g->cc_major, g->cc_minor);
    gp_meta_set(m, "sm_count", "%d", g->sm_count);
    gp_meta_set(m, "sm_clock_max_mhz", "%d", g->sm_clock_khz / 1000);
    gp_meta_set(m, "mem_clock_max_mhz", "%d", g->mem_clock_khz / 1000);
    gp_meta_set(m, "mem_bus_width_bits", "%d", g->bus_width_bits);
    gp_meta_set(m, "l2_bytes", "%zu", g->l2_bytes);
    gp_meta_set(m, "gpu_memory_bytes", "%zu", g->total_mem);
    gp_meta_set(m, "driver_version", "%s", rel);
    gp_meta_set(m, "cuda_driver_api", "%s", drv);
    gp_meta_set(m, "cuda_runtime", "%s", rt);
    gp_meta_set(m, "cublas_version", "%d", g->cublas_version);
    gp_meta_set(m, "cublas_math", "%s", gp_cublas_math_desc());
}
