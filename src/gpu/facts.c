/* facts.c - static facts of a launch: what the runtime says about the
 * function, the occupancy it allows and which resource limits it, and the
 * compiler's spill report.  The occupancy arithmetic mirrors
 * cuda_occupancy.h (CUDA 13.0) so each limit can be named; the runtime's
 * own answer stays authoritative. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <cuda_runtime_api.h>
#include "gpu.h"

static int round_up(int x, int unit) { return (x + unit - 1) / unit * unit; }
static int cdiv(int x, int d) { return (x + d - 1) / d; }

int gp_occupancy_rules(int cc_major, gp_occupancy_input *in)
{
    if (cc_major < 7 || cc_major > 12)
        return -1;
    in->reg_alloc_unit = 256;
    in->max_regs_per_thread = 256;
    in->sub_partitions = 4;
    in->smem_alloc_unit = cc_major >= 8 ? 128 : 256;
    return 0;
}

/* Registers go to warps in units of reg_alloc_unit, and each of the SM's
 * sub-partitions holds whole warps' worth of its quarter of the file. */
static int limit_registers(const gp_occupancy_input *in, int warps_per_block)
{
    if (in->regs_per_thread <= 0)
        return INT_MAX;
    int per_warp = round_up(in->regs_per_thread * in->warp_size, in->reg_alloc_unit);
    /* The hardware's per-block check assumes every sub-partition gets an
     * equal share of the block's warps. */
    int assumed = per_warp * round_up(warps_per_block, in->sub_partitions);
    if (in->regs_per_thread > in->max_regs_per_thread ||
        assumed > in->max_regs_per_block || per_warp * warps_per_block > in->max_regs_per_block)
        return 0;
    int warps_per_sub = in->regs_per_sm / in->sub_partitions / per_warp;
    return warps_per_sub * in->sub_partitions / warps_per_block;
}

static int limit_shared_memory(const gp_occupancy_input *in)
{
    size_t used = in->smem_per_block + in->smem_reserved_per_block;
    size_t unit = (size_t)in->smem_alloc_unit;
    size_t alloc = (used + unit - 1) / unit * unit;
    return alloc ? (int)(in->smem_per_sm / alloc) : INT_MAX;
}

void gp_occupancy_compute(const gp_occupancy_input *in, gp_occupancy *out)
{
    int warps_per_block = cdiv(in->block_threads, in->warp_size);
    int max_warps = in->max_threads_per_sm / in->warp_size;
    int ok = in->block_threads > 0 && in->block_threads <= in->max_threads_per_block;

    out->by_warps = ok ? max_warps / warps_per_block : 0;
    out->by_blocks = in->max_blocks_per_sm;
    out->by_registers = ok ? limit_registers(in, warps_per_block) : 0;
    out->by_shared_memory = limit_shared_memory(in);

    const int limits[4] = { out->by_warps, out->by_blocks, out->by_registers,
                            out->by_shared_memory };
    static const char *const names[4] = { "warps", "blocks", "registers", "shared_memory" };
    int best = 0;
    for (int i = 1; i < 4; i++)
        if (limits[i] < limits[best])
            best = i;
    out->blocks = limits[best];
    out->limiter = names[best];
    out->percent = max_warps ? 100.0 * out->blocks * warps_per_block / max_warps : 0.0;
}

static int attr(enum cudaDeviceAttr a, int dev)
{
    int v = 0;
    if (cudaDeviceGetAttribute(&v, a, dev) != cudaSuccess)
        return -1;
    return v;
}

static int device_input(gp_occupancy_input *in)
{
    int dev = 0;
    if (cudaGetDevice(&dev) != cudaSuccess)
        return -1;
    in->warp_size = attr(cudaDevAttrWarpSize, dev);
    in->max_threads_per_sm = attr(cudaDevAttrMaxThreadsPerMultiProcessor, dev);
    in->max_threads_per_block = attr(cudaDevAttrMaxThreadsPerBlock, dev);
    in->max_blocks_per_sm = attr(cudaDevAttrMaxBlocksPerMultiprocessor, dev);
    in->regs_per_sm = attr(cudaDevAttrMaxRegistersPerMultiprocessor, dev);
    in->max_regs_per_block = attr(cudaDevAttrMaxRegistersPerBlock, dev);
    int smem_sm = attr(cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev);
    int reserved = attr(cudaDevAttrReservedSharedMemoryPerBlock, dev);
    int major = attr(cudaDevAttrComputeCapabilityMajor, dev);
    if (in->warp_size <= 0 || in->max_threads_per_sm <= 0 || in->max_threads_per_block <= 0 ||
        in->max_blocks_per_sm <= 0 || in->regs_per_sm <= 0 || in->max_regs_per_block <= 0 ||
        smem_sm < 0 || reserved < 0 || major < 0)
        return -1;
    in->smem_per_sm = (size_t)smem_sm;
    in->smem_reserved_per_block = (size_t)reserved;
    return gp_occupancy_rules(major, in);
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
