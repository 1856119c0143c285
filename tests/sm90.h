/* sm90.h - what the device reports on an H100/H200 (compute 9.0), for the
 * tests of the occupancy arithmetic and of a traced launch's row. */
#ifndef GP_TEST_SM90_H
#define GP_TEST_SM90_H

#include <string.h>
#include "gpu/facts.h"

static inline gp_occupancy_input gp_test_sm90(int threads, int regs, size_t smem)
{
    gp_occupancy_input in;
    memset(&in, 0, sizeof in);
    in.block_threads = threads;
    in.regs_per_thread = regs;
    in.smem_per_block = smem;
    in.warp_size = 32;
    in.max_threads_per_sm = 2048;
    in.max_threads_per_block = 1024;
    in.max_blocks_per_sm = 32;
    in.regs_per_sm = 65536;
    in.max_regs_per_block = 65536;
    in.smem_per_sm = 233472;
    in.smem_reserved_per_block = 1024;
    gp_occupancy_rules(9, &in);
    return in;
}

#endif
