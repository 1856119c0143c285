/* facts.h - static facts of a launched kernel, no counters needed:
 * registers, local memory, shared memory, theoretical occupancy and what
 * limits it (from the CUDA runtime), spill bytes (from the ptxas report
 * captured at build time, see ptxas_facts.h). */
#ifndef GP_FACTS_H
#define GP_FACTS_H

#include <stddef.h>
#include "gemmprof.h"
#include "data/data.h"

/* Fill grid_blocks, block_threads, regs_per_thread, local_bytes_per_thread,
 * smem_per_block, occupancy_theoretical, occupancy_limiter,
 * spill_store_bytes, spill_load_bytes.  Leaves NA what cannot be known
 * (li->func == NULL, e.g. cuBLAS).  Needs a current CUDA device.
 * smem_per_block is static + dynamic shared memory, without the 1 KiB the
 * driver reserves per block (which the occupancy arithmetic does count). */
void gp_facts_fill(const gp_launch_info *li, gp_row *r);

/* Occupancy arithmetic, the way the hardware allocates (cuda_occupancy.h),
 * one limit per resource so the smallest can be named.  Pure: the tests
 * feed it sm_90 fixtures; gp_facts_fill feeds it device attributes and
 * checks the result against cudaOccupancyMaxActiveBlocksPerMultiprocessor. */
typedef struct {
    /* the launch */
    int block_threads;
    int regs_per_thread;
    size_t smem_per_block;          /* static + dynamic bytes                 */
    /* the device (cudaDevAttr*) */
    int warp_size;                  /* 32                                     */
    int max_threads_per_sm;         /* 2048 on sm_90                          */
    int max_threads_per_block;      /* 1024                                   */
    int max_blocks_per_sm;          /* 32                                     */
    int regs_per_sm;                /* 65536                                  */
    int max_regs_per_block;         /* 65536                                  */
    size_t smem_per_sm;             /* 233472 (228 KiB) on H100/H200          */
    size_t smem_reserved_per_block; /* 1024                                   */
    /* allocation rules by compute capability (gp_occupancy_rules) */
    int reg_alloc_unit;             /* registers per warp come in 256s        */
    int max_regs_per_thread;        /* 255 before sm_70, 256 since            */
    int sub_partitions;             /* registers are split over 4 SMSPs       */
    int smem_alloc_unit;            /* 128 bytes since sm_80                  */
} gp_occupancy_input;

typedef struct {
    /* blocks per SM each resource allows on its own */
    int by_warps, by_blocks, by_registers, by_shared_memory;
    int blocks;                     /* the smallest of the four               */
    double percent;                 /* blocks * warps per block / max warps   */
    /* the resource giving `blocks`: "warps", "blocks", "registers" or
     * "shared_memory"; ties name the first in that order, since when the
     * warp or block limit is reached, freeing registers or shared memory
     * would not add a block */
    const char *limiter;
} gp_occupancy;

/* Allocation rules of compute capability `cc_major` into `in`; -1 for an
 * architecture these rules do not cover (then the limiter is "unknown"). */
int gp_occupancy_rules(int cc_major, gp_occupancy_input *in);
/* The device half of `in` (limits and allocation rules) from device
 * attributes: `attr(id, ctx)` returns attribute `id` (a CUdevice_attribute;
 * the runtime's cudaDevAttr numbers them alike), or -1.  The run reads
 * them through the runtime, the trace injection library through the
 * driver.  0, or -1 if one is missing or the architecture is not covered. */
int gp_occupancy_device(gp_occupancy_input *in, int (*attr)(int id, void *ctx), void *ctx);
void gp_occupancy_compute(const gp_occupancy_input *in, gp_occupancy *out);

#endif
