/* facts.c - static facts of a launch: what the runtime says about the
 * function, the occupancy it allows and which resource limits it (named by
 * occupancy.c's arithmetic; the runtime's own answer stays authoritative),
 * and the compiler's spill report. */
#include <math.h>
#include <stdio.h>
#include <cuda_runtime_api.h>
#include "gpu.h"

static int cdiv(int x, int d) { return (x + d - 1) / d; }

static int attr(enum cudaDeviceAttr a, int dev)
{
    int v = 0;
    if (cudaDeviceGetAttribute(&v, a, dev) != cudaSuccess)
        return -1;
    return v;
}

/* gp_occupancy_device's reader: the runtime numbers attributes as the
 * driver does. */
_Static_assert((int)cudaDevAttrMaxBlocksPerMultiprocessor == 106 &&
               (int)cudaDevAttrReservedSharedMemoryPerBlock == 111 &&
               (int)cudaDevAttrMaxSharedMemoryPerMultiprocessor == 81,
               "cudaDevAttr and CUdevice_attribute numbers differ");

static int runtime_attr(int id, void *ctx)
{
    return attr((enum cudaDeviceAttr)id, *(const int *)ctx);
}

static int device_input(gp_occupancy_input *in)
{
    int dev = 0;
    if (cudaGetDevice(&dev) != cudaSuccess)
        return -1;
    return gp_occupancy_device(in, runtime_attr, &dev);
}

static void fill_occupancy(const gp_launch_info *li, const struct cudaFuncAttributes *fa,
                           int threads, gp_row *r)
{
    int blocks = 0, warp = 0, max_threads = 0, dev = 0;
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, li->func, threads,
                                                      li->dyn_smem) != cudaSuccess ||
        (warp = attr(cudaDevAttrWarpSize, dev)) <= 0 ||
        (max_threads = attr(cudaDevAttrMaxThreadsPerMultiProcessor, dev)) <= 0) {
        (void)cudaGetLastError();
        return;
    }
    r->occupancy_theoretical = 100.0 * blocks * cdiv(threads, warp) * warp / max_threads;

    gp_occupancy_input in = { 0 };
    gp_occupancy occ;
    in.block_threads = threads;
    in.regs_per_thread = fa->numRegs;
    in.smem_per_block = fa->sharedSizeBytes + li->dyn_smem;
    const char *limiter = "unknown";
    if (device_input(&in) == 0) {
        gp_occupancy_compute(&in, &occ);
        if (occ.blocks == blocks)      /* our arithmetic agrees with the runtime */
            limiter = occ.limiter;
    }
    snprintf(r->occupancy_limiter, sizeof r->occupancy_limiter, "%s", limiter);
}

static void fill_spills(const void *func, gp_row *r)
{
    const char *name = NULL;
    if (cudaFuncGetName(&name, func) != cudaSuccess || !name) {
        (void)cudaGetLastError();
        return;
    }
    /* the SASS this GPU runs; a PTX build is compiled by the driver, whose
     * spills no build-time report knows */
    gp_code code = gp_build_pick(gp_this_build(), gp_current_cc());
    const gp_ptxas_fact *f = code.ptx ? NULL : gp_ptxas_find(name, code.cc);
    if (!f)
        return;            /* not compiled by this build (a plugin): NA */
    r->spill_store_bytes = f->spill_store_bytes;
    r->spill_load_bytes = f->spill_load_bytes;
}

void gp_facts_fill(const gp_launch_info *li, gp_row *r)
{
    if (!li)
        return;
    double grid = (double)li->grid[0] * li->grid[1] * li->grid[2];
    int threads = (int)(li->block[0] * li->block[1] * li->block[2]);
    if (grid > 0 && threads > 0) {
        r->grid_blocks = grid;
        r->block_threads = threads;
    }
    if (!li->func || threads <= 0)
        return;
    struct cudaFuncAttributes fa;
    if (cudaFuncGetAttributes(&fa, li->func) != cudaSuccess) {
        (void)cudaGetLastError();
        return;
    }
    r->regs_per_thread = fa.numRegs;
    r->local_bytes_per_thread = (double)fa.localSizeBytes;
    r->smem_per_block = (double)(fa.sharedSizeBytes + li->dyn_smem);
    fill_occupancy(li, &fa, threads, r);
    fill_spills(li->func, r);
}
