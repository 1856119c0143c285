/* test_facts.c - CPU: the occupancy arithmetic that names a kernel's
 * limiting resource, on sm_90 (H100/H200) device fixtures, and the ptxas
 * table the build generates (spills per kernel). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cuda_occupancy.h>
#include "gpu/facts.h"
#include "gpu/ptxas_facts.h"
#include "sm90.h"

/* What cudaDeviceGetAttribute reports on an H100/H200 (compute 9.0). */
static gp_occupancy_input sm90(int threads, int regs, size_t smem)
{
    gp_occupancy_input in = gp_test_sm90(threads, regs, smem);
    assert_int_equal(in.reg_alloc_unit, 256);      /* the rules were set */
    return in;
}

static gp_occupancy occupancy(int threads, int regs, size_t smem)
{
    gp_occupancy_input in = sm90(threads, regs, smem);
    gp_occupancy o;
    gp_occupancy_compute(&in, &o);
    return o;
}

static void registers_limit_256_threads_128_regs_to_2_blocks(void **state)
{
    (void)state;
    gp_occupancy o = occupancy(256, 128, 0);
    /* 128 regs x 32 lanes = 4096 per warp: 4 warps per 16K-register
     * sub-partition, 16 warps per SM, 2 blocks of 8 warps = 16 of 64 warps */
    assert_int_equal(o.by_registers, 2);
    assert_int_equal(o.blocks, 2);
    assert_string_equal(o.limiter, "registers");
    assert_true(fabs(o.percent - 25.0) < 1e-9);
}

static void registers_limit_256_threads_64_regs_to_half(void **state)
{
    (void)state;
    gp_occupancy o = occupancy(256, 64, 0);
    assert_int_equal(o.by_registers, 4);
    assert_int_equal(o.by_warps, 8);
    assert_string_equal(o.limiter, "registers");
    assert_true(fabs(o.percent - 50.0) < 1e-9);
}

static void full_occupancy_1024_threads_32_regs_names_warps(void **state)
{
    (void)state;
    gp_occupancy o = occupancy(1024, 32, 0);
    assert_int_equal(o.by_warps, 2);
    assert_int_equal(o.by_registers, 2);   /* a tie: warps is named */
    assert_int_equal(o.blocks, 2);
    assert_string_equal(o.limiter, "warps");
    assert_true(fabs(o.percent - 100.0) < 1e-9);
}

static void registers_round_up_to_256_per_warp(void **state)
{
    (void)state;
    /* 33 x 32 = 1056 registers per warp, allocated as 1280: 12 warps per
     * sub-partition, 48 per SM, 6 blocks of 8 warps (7 without rounding) */
    gp_occupancy o = occupancy(256, 33, 0);
    assert_int_equal(o.by_registers, 6);
    assert_string_equal(o.limiter, "registers");
    assert_true(fabs(o.percent - 75.0) < 1e-9);
}

static void too_many_registers_for_the_block_gives_zero(void **state)
{
    (void)state;
    gp_occupancy o = occupancy(1024, 255, 0);
    assert_int_equal(o.by_registers, 0);
    assert_int_equal(o.blocks, 0);
    assert_string_equal(o.limiter, "registers");
    assert_true(o.percent == 0.0);
}

static void shared_memory_100k_per_block_limits_to_2_blocks(void **state)
{
    (void)state;
    /* 100 KiB + 1 KiB reserved per block: 2 fit in 228 KiB */
    gp_occupancy o = occupancy(256, 32, 100 * 1024);
    assert_int_equal(o.by_shared_memory, 2);
    assert_int_equal(o.blocks, 2);
    assert_string_equal(o.limiter, "shared_memory");
    assert_true(fabs(o.percent - 25.0) < 1e-9);
}

static void shared_memory_counts_the_reserved_kib(void **state)
{
    (void)state;
    /* 4 x (56 KiB + 1 KiB reserved) is exactly the 228 KiB of an SM */
    assert_int_equal(occupancy(128, 32, 56 * 1024).by_shared_memory, 4);
    /* 57 KiB: 4 x 57 KiB would fit, 4 x 58 KiB does not */
    assert_int_equal(occupancy(128, 32, 57 * 1024).by_shared_memory, 3);
    /* one byte more than 56 KiB rounds up to the next 128 bytes: 3 */
    assert_int_equal(occupancy(128, 32, 56 * 1024 + 1).by_shared_memory, 3);
}

static void tiny_blocks_hit_the_block_limit(void **state)
{
    (void)state;
    gp_occupancy o = occupancy(32, 16, 0);
    assert_int_equal(o.by_blocks, 32);
    assert_int_equal(o.blocks, 32);
    assert_string_equal(o.limiter, "blocks");
    assert_true(fabs(o.percent - 50.0) < 1e-9);
}

static void partial_warps_count_as_whole_warps(void **state)
{
    (void)state;
    gp_occupancy o = occupancy(48, 16, 0);     /* 2 warps per block */
    assert_int_equal(o.by_warps, 32);
    assert_int_equal(o.blocks, 32);
    assert_true(fabs(o.percent - 100.0) < 1e-9);
}

static void allocation_rules_by_architecture(void **state)
{
    (void)state;
    gp_occupancy_input in;
    memset(&in, 0, sizeof in);
    assert_int_equal(gp_occupancy_rules(7, &in), 0);
    assert_int_equal(in.smem_alloc_unit, 256);
    assert_int_equal(gp_occupancy_rules(8, &in), 0);
    assert_int_equal(in.smem_alloc_unit, 128);
    assert_int_equal(in.reg_alloc_unit, 256);
    assert_int_equal(in.sub_partitions, 4);
    assert_int_equal(gp_occupancy_rules(6, &in), -1);
}

/* NVIDIA's own calculator (cuda_occupancy.h, plain C) for the same H100:
 * the per-resource arithmetic must give its block count for every shape,
 * and the resource it names must be one it flags as limiting. */
static int oracle(int threads, int regs, size_t smem, unsigned *factors)
{
    cudaOccDeviceProp prop = {
        .computeMajor = 9, .computeMinor = 0, .maxThreadsPerBlock = 1024,
        .maxThreadsPerMultiprocessor = 2048, .regsPerBlock = 65536,
        .regsPerMultiprocessor = 65536, .warpSize = 32,
        .sharedMemPerBlock = 49152, .sharedMemPerMultiprocessor = 233472,
        .numSms = 132, .sharedMemPerBlockOptin = 232448,
        .reservedSharedMemPerBlock = 1024,
    };
    cudaOccFuncAttributes attr = {
        .maxThreadsPerBlock = 1024, .numRegs = regs, .sharedSizeBytes = 0,
        .partitionedGCConfig = PARTITIONED_GC_OFF,
        .shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN,
        .maxDynamicSharedSizeBytes = 232448, .numBlockBarriers = 1,
        .virtualResourceCount = 0,
    };
    cudaOccDeviceState dev = { .cacheConfig = CACHE_PREFER_NONE,
                               .carveoutConfig = SHAREDMEM_CARVEOUT_DEFAULT };
    cudaOccResult res;
    memset(&res, 0, sizeof res);
    if (cudaOccMaxActiveBlocksPerMultiprocessor(&res, &prop, &attr, &dev, threads,
                                                smem) != CUDA_OCC_SUCCESS)
        fail_msg("cuda_occupancy.h rejected %d threads %d regs %zu smem", threads,
                 regs, smem);
    *factors = res.limitingFactors;
    return res.activeBlocksPerMultiprocessor;
}

static void agrees_with_cuda_occupancy_h_on_sm90(void **state)
{
    (void)state;
    static const int threads[] = {32, 48, 64, 96, 128, 160, 192, 256, 384, 512, 640, 768, 1024};
    static const int regs[] = {8, 16, 24, 32, 33, 40, 48, 56, 64, 72, 80, 96, 128, 168, 200, 232, 255};
    static const size_t smem[] = {0, 1, 4096, 16384, 48 * 1024, 56 * 1024, 56 * 1024 + 1,
                                  57 * 1024, 100 * 1024, 113 * 1024, 150 * 1024, 226 * 1024};
    int cases = 0;
    for (size_t t = 0; t < sizeof threads / sizeof *threads; t++)
        for (size_t r = 0; r < sizeof regs / sizeof *regs; r++)
            for (size_t s = 0; s < sizeof smem / sizeof *smem; s++) {
                unsigned factors = 0;
                int want = oracle(threads[t], regs[r], smem[s], &factors);
                gp_occupancy o = occupancy(threads[t], regs[r], smem[s]);
                if (o.blocks != want)
                    fail_msg("%d threads, %d regs, %zu B smem: %d blocks, "
                             "cuda_occupancy.h says %d", threads[t], regs[r],
                             smem[s], o.blocks, want);
                unsigned bit = !strcmp(o.limiter, "warps") ? OCC_LIMIT_WARPS :
                               !strcmp(o.limiter, "blocks") ? OCC_LIMIT_BLOCKS :
                               !strcmp(o.limiter, "registers") ? OCC_LIMIT_REGISTERS :
                               OCC_LIMIT_SHARED_MEMORY;
                if (want > 0 && !(factors & bit))
                    fail_msg("%d threads, %d regs, %zu B smem: named %s, "
                             "cuda_occupancy.h flags 0x%x", threads[t], regs[r],
                             smem[s], o.limiter, factors);
                cases++;
            }
    print_message("%d shapes agree with cuda_occupancy.h\n", cases);
}

/* ---- static facts without a device ---- */

static void facts_without_a_function_fill_only_the_shape(void **state)
{
    (void)state;
    gp_launch_info li;
    gp_row r;
    memset(&li, 0, sizeof li);
    li.grid[0] = 8; li.grid[1] = 4; li.grid[2] = 1;
    li.block[0] = 32; li.block[1] = 8; li.block[2] = 1;
    gp_row_init(&r);
    gp_facts_fill(&li, &r);            /* func NULL (cuBLAS): no CUDA call */
    assert_true(r.grid_blocks == 32);
    assert_true(r.block_threads == 256);
    assert_true(isnan(r.regs_per_thread));
    assert_true(isnan(r.occupancy_theoretical));
    assert_true(isnan(r.spill_store_bytes));
}

/* ---- the ptxas table generated at build time ---- */

static void ptxas_table_has_the_naive_kernel_without_spills(void **state)
{
    (void)state;
    const gp_ptxas_fact *naive = NULL;
    for (int i = 0; i < gp_ptxas_fact_count && !naive; i++)
        if (strstr(gp_ptxas_facts[i].name, "sgemm_naive"))
            naive = &gp_ptxas_facts[i];
    if (!naive)
        fail_msg("no sgemm_naive entry among %d ptxas facts", gp_ptxas_fact_count);
    /* the mangled name the runtime reports (cudaFuncGetName) finds it, for
     * the architecture the GPU runs (a build for several has one each) */
    int cc = atoi(naive->arch + 3);
    assert_ptr_equal(gp_ptxas_find("_Z11sgemm_naiveiiifPKfiS0_ifPfi", cc), naive);
    assert_null(gp_ptxas_find("_Z11sgemm_naiveiiifPKfiS0_ifPfi", 42));
    assert_int_equal(naive->spill_store_bytes, 0);
    assert_int_equal(naive->spill_load_bytes, 0);
    assert_true(naive->regs > 0 && naive->regs <= 255);
}

static void ptxas_find_unknown_names_gives_null(void **state)
{
    (void)state;
    assert_null(gp_ptxas_find("sgemm_naive", 90));       /* not mangled */
    assert_null(gp_ptxas_find("_Z9not_therev", 90));
    assert_null(gp_ptxas_find(NULL, 90));
    for (int i = 0; i < gp_ptxas_fact_count; i++) {
        /* one row per kernel and SASS target: "sm_90" or "sm_90a", not both */
        const gp_ptxas_fact *f = &gp_ptxas_facts[i];
        assert_true(strncmp(f->arch, "sm_", 3) == 0);
        assert_ptr_equal(gp_ptxas_find(f->name, atoi(f->arch + 3)), f);
        assert_true(f->spill_store_bytes >= 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(registers_limit_256_threads_128_regs_to_2_blocks),
        cmocka_unit_test(registers_limit_256_threads_64_regs_to_half),
        cmocka_unit_test(full_occupancy_1024_threads_32_regs_names_warps),
        cmocka_unit_test(registers_round_up_to_256_per_warp),
        cmocka_unit_test(too_many_registers_for_the_block_gives_zero),
        cmocka_unit_test(shared_memory_100k_per_block_limits_to_2_blocks),
        cmocka_unit_test(shared_memory_counts_the_reserved_kib),
        cmocka_unit_test(tiny_blocks_hit_the_block_limit),
        cmocka_unit_test(partial_warps_count_as_whole_warps),
        cmocka_unit_test(allocation_rules_by_architecture),
        cmocka_unit_test(agrees_with_cuda_occupancy_h_on_sm90),
        cmocka_unit_test(facts_without_a_function_fill_only_the_shape),
        cmocka_unit_test(ptxas_table_has_the_naive_kernel_without_spills),
        cmocka_unit_test(ptxas_find_unknown_names_gives_null),
    };
    return cmocka_run_group_tests_name("facts", tests, NULL, NULL);
}
