/* nvml.c - the clocks the GPU runs at now, from NVML.  NVML is
 * loaded with dlopen, so gemmprof builds and runs where it is missing
 * (the answer is then "unknown").  The few prototypes are declared here:
 * nvml.h is not part of the CUDA toolkit install everywhere. */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime_api.h>
#include "probe.h"

typedef struct nvmlDevice_st *nvmlDevice_t;
enum { NVML_SUCCESS = 0, NVML_CLOCK_SM = 1, NVML_CLOCK_MEM = 2 };

struct gp_nvml {
    void *lib;
    nvmlDevice_t dev;
    int (*init)(void);
    int (*by_index)(unsigned, nvmlDevice_t *);
    int (*by_pci)(const char *, nvmlDevice_t *);
    int (*clock)(nvmlDevice_t, int, unsigned *);
    int (*energy)(nvmlDevice_t, unsigned long long *);   /* Volta+, optional */
    int (*shutdown)(void);
};

static int load(gp_nvml *n)
{
    n->lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!n->lib)
        return -1;
    *(void **)&n->init = dlsym(n->lib, "nvmlInit_v2");
    *(void **)&n->by_index = dlsym(n->lib, "nvmlDeviceGetHandleByIndex_v2");
    *(void **)&n->by_pci = dlsym(n->lib, "nvmlDeviceGetHandleByPciBusId_v2");
    *(void **)&n->clock = dlsym(n->lib, "nvmlDeviceGetClockInfo");
    *(void **)&n->energy = dlsym(n->lib, "nvmlDeviceGetTotalEnergyConsumption");
    *(void **)&n->shutdown = dlsym(n->lib, "nvmlShutdown");
    return n->init && n->clock && n->shutdown && (n->by_pci || n->by_index)
               ? 0 : -1;
}

/* CUDA and NVML may number devices differently (CUDA_VISIBLE_DEVICES,
 * CUDA_DEVICE_ORDER): the PCI bus id names the same board in both.  The
 * index is the fallback only for a device CUDA does see. */
static int find_device(gp_nvml *n, int device)
{
    char bus[64];
    if (cudaDeviceGetPCIBusId(bus, sizeof bus, device) != cudaSuccess) {
        cudaGetLastError();
        return -1;
    }
    if (n->by_pci && n->by_pci(bus, &n->dev) == NVML_SUCCESS)
        return 0;
    return n->by_index && n->by_index((unsigned)device, &n->dev) == NVML_SUCCESS
               ? 0 : -1;
}

gp_nvml *gp_nvml_open(int device)
{
    gp_nvml *n = calloc(1, sizeof *n);
    if (!n)
        return NULL;
    if (load(n) != 0 || n->init() != NVML_SUCCESS) {
        if (n->lib)
            dlclose(n->lib);
        free(n);
        return NULL;
    }
    if (find_device(n, device) != 0) {
        n->shutdown();
        dlclose(n->lib);
        free(n);
        return NULL;
    }
    return n;
}

int gp_nvml_clock_mhz(gp_nvml *n, int mem)
{
    unsigned mhz = 0;
    if (!n || n->clock(n->dev, mem ? NVML_CLOCK_MEM : NVML_CLOCK_SM, &mhz) !=
                  NVML_SUCCESS)
        return -1;
    return (int)mhz;
}

int gp_nvml_energy_mj(gp_nvml *n, unsigned long long *mj)
{
    if (!n || !n->energy || n->energy(n->dev, mj) != NVML_SUCCESS)
        return -1;
    return 0;
}

void gp_nvml_close(gp_nvml *n)
{
    if (!n)
        return;
    n->shutdown();
    dlclose(n->lib);
    free(n);
}

int gp_sm_clock_now_mhz(int device)
{
    gp_nvml *n = gp_nvml_open(device);
    int mhz = gp_nvml_clock_mhz(n, 0);
    gp_nvml_close(n);
    return mhz;
}
