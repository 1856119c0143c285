/* occupancy.c - theoretical occupancy the way the hardware allocates,
 * mirroring cuda_occupancy.h (CUDA 13.0) so that each resource's limit can
 * be named.  Pure arithmetic, no CUDA calls: the run's facts (facts.c,
 * CUDA runtime) and gemmprof trace's injected library (driver API) feed it
 * device attributes. */
#include <limits.h>
#include <stddef.h>
#include <cuda.h>                       /* the attribute numbers only */
#include "facts.h"

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


int gp_occupancy_device(gp_occupancy_input *in, int (*attr)(int id, void *ctx), void *ctx)
{
    in->warp_size = attr(CU_DEVICE_ATTRIBUTE_WARP_SIZE, ctx);
    in->max_threads_per_sm = attr(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR, ctx);
    in->max_threads_per_block = attr(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, ctx);
    in->max_blocks_per_sm = attr(CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR, ctx);
    in->regs_per_sm = attr(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR, ctx);
    in->max_regs_per_block = attr(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK, ctx);
    int smem_sm = attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR, ctx);
    int reserved = attr(CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK, ctx);
    int major = attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, ctx);
    if (in->warp_size <= 0 || in->max_threads_per_sm <= 0 || in->max_threads_per_block <= 0 ||
        in->max_blocks_per_sm <= 0 || in->regs_per_sm <= 0 || in->max_regs_per_block <= 0 ||
        smem_sm < 0 || reserved < 0 || major < 0)
        return -1;
    in->smem_per_sm = (size_t)smem_sm;
    in->smem_reserved_per_block = (size_t)reserved;
    return gp_occupancy_rules(major, in);
}
