/* arch.c - the per-compute-capability table and the theoretical compute
 * ceilings it gives.  Every value is cited; where no NVIDIA source could be
 * read for this table, the comment says what the value rests on.
 *
 * Sources:
 *  [PG]   CUDA C++ Programming Guide, "Arithmetic Instructions", table
 *         "Throughput of Native Arithmetic Instructions (Number of Results
 *         per Clock Cycle per Multiprocessor)", rows 32-bit and 64-bit
 *         floating-point add, multiply, multiply-add.
 *         https://docs.nvidia.com/cuda/cuda-c-programming-guide/#arithmetic-instructions
 *  [HC]   NVIDIA cuda-samples, Common/helper_cuda.h, _ConvertSMVer2Cores
 *         (FP32 cores per SM, incl. 0xa0, 0xa1, 0xa3, 0xb0, 0xc0, 0xc1),
 *         commit c94ff36 (2025-09-05).
 *  [A100] NVIDIA A100 Tensor Core GPU Architecture whitepaper (2020),
 *         Table 1: A100 SXM4, 108 SMs, 1410 MHz boost: FP64 9.7, FP64
 *         Tensor 19.5, TF32 Tensor 156 (312 sparse) TFLOPS.
 *  [GA102] NVIDIA Ampere GA102 GPU Architecture whitepaper: RTX 3090
 *         (82 SMs, 1695 MHz) Peak TF32 Tensor 35.6 TFLOPS dense; A40
 *         datasheet (84 SMs, 1740 MHz): TF32 Tensor 74.8 TFLOPS dense.
 *  [H100] NVIDIA H100 Tensor Core GPU Architecture whitepaper, Table 3:
 *         H100 SXM5, 132 SMs: FP64 33.5, FP64 Tensor 66.9 TFLOPS (at
 *         1980 MHz), TF32 Tensor 494.7 (989.4 sparse) TFLOPS at the tensor
 *         boost clock of 1830 MHz; per SM, Hopper's tensor cores do twice
 *         Ampere's dense rate clock for clock (whitepaper; also
 *         forums.developer.nvidia.com/t/244727, NVIDIA staff).
 *  [ADA]  NVIDIA Ada GPU Architecture whitepaper: RTX 4090 (128 SMs,
 *         2520 MHz) Peak TF32 Tensor 82.6 TFLOPS dense; L4 datasheet
 *         (58 SMs, 2040 MHz): TF32 Tensor 120 TFLOPS with sparsity; L40S
 *         datasheet (142 SMs, 2520 MHz): TF32 Tensor 183 / 366 TFLOPS.
 *  [B200] NVIDIA HGX B200 / GB200 NVL72 specification table, per GPU:
 *         HGX B200 FP32 75 TFLOPS, FP64 / FP64 Tensor Core 37 TFLOPS,
 *         TF32 Tensor Core 2.2 PFLOPS (with sparsity, so 1.1 dense);
 *         nvidia.com/en-us/data-center/hgx/ (read here as quoted by
 *         third-party pages; B200's 148 SMs are from third-party spec
 *         databases, not from that table).
 * FLOP counts are dense (no 2:4 sparsity); an FMA is 2 FLOP.
 *
 * One CC covers products with different tensor rates: GeForce parts of
 * CC 8.6, 8.9 (and, it seems, 12.0) run TF32 at half the rate of the data
 * centre parts of the same CC ([GA102], [ADA]).  The table holds the
 * higher rate, so its roof is an upper bound for every product of the CC
 * (a roof that is too low would put measured points above it). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "arch.h"

static const gp_arch_info table[] = {
    /* Turing (T4, RTX 20): [PG] 7.5 -> 64 FP32, 2 FP64 results/clk/SM.
     * Turing's tensor cores do FP16/INT8/INT4 only: TF32 arrived with
     * Ampere [A100]; no FP64 tensor cores. */
    {75, "Turing", 64, 2, NAN, NAN},
    /* A100: [PG] 8.0 -> 64 FP32, 32 FP64.  [A100]: TF32 156e12 /
     * (108 x 1.41e9) = 1024 FLOP/clk/SM; FP64 Tensor 19.5e12 /
     * (108 x 1.41e9) = 128. */
    {80, "Ampere (GA100)", 64, 32, 1024, 128},
    /* GA10x (A10, A40, RTX 30): [PG] 8.6 -> 128 FP32, 2 FP64.  [GA102]:
     * A40 74.8e12 / (84 x 1.74e9) = 512 TF32 FLOP/clk/SM (RTX 3090:
     * 35.6e12 / (82 x 1.695e9) = 256, the GeForce half rate).  FP64 tensor
     * cores are a GA100 feature only ([A100]; absent from GA102's). */
    {86, "Ampere (GA10x)", 128, 2, 512, NAN},
    /* Ada (L4, L40S, RTX 40): [PG] 8.9 -> 128 FP32, 2 FP64.  [ADA]: L40S
     * 183e12 / (142 x 2.52e9) = 512 TF32 FLOP/clk/SM, L4 60e12 /
     * (58 x 2.04e9) = 507 (the datasheet's 120 sparse, rounded); RTX 4090
     * 82.6e12 / (128 x 2.52e9) = 256.  No FP64 tensor cores. */
    {89, "Ada", 128, 2, 512, NAN},
    /* Hopper (H100, H200): [PG] 9.0 -> 128 FP32, 64 FP64.  [H100]: TF32
     * 494.7e12 / (132 x 1.83e9) = 2048 FLOP/clk/SM, twice A100's 1024;
     * FP64 Tensor 66.9e12 / (132 x 1.98e9) = 256, twice A100's 128. */
    {90, "Hopper", 128, 64, 2048, 256},
    /* Blackwell (B200): [HC] 0xa0 -> 128 FP32 cores/SM.  FP64: [B200]
     * lists FP64 at half of FP32 (37 vs 75 TFLOPS) -> 64 lanes (the [PG]
     * 10.0 column could not be read for this table).  FP64 tensor: [B200]
     * gives FP64 Tensor Core = FP64 (37 TFLOPS), so 128 FLOP/clk/SM, no
     * longer twice the FMA rate as on GA100/GH100.  TF32: 1.1e15 dense /
     * 148 SMs = 7.4e12 per SM, 4096 FLOP/clk at 1.81 GHz (2048 would need
     * 3.6 GHz): twice Hopper per SM; the tensor clock behind the
     * datasheet figure is not published in [B200]. */
    {100, "Blackwell (GB100)", 128, 64, 4096, 128},
    /* Blackwell GB20x (RTX 50, RTX PRO 6000): [HC] 0xc0 -> 128 FP32.
     * FP64: 2 (1/64 of FP32, as on GA10x and Ada); the [PG] 12.0 column
     * could not be read for this table and third-party databases list the
     * RTX 5090 at FP64 1:64: unverified against an NVIDIA source.  TF32:
     * inferred, not published in a source read here: the RTX 5090's
     * 838 TFLOPS FP16 (sparse) / (170 SMs x 2.407 GHz x 2) = 1024 FP16
     * FLOP/clk/SM, Ada's rate, and TF32 runs at half the FP16 rate on
     * every tensor-core generation ([A100], [H100]): 512 (GeForce parts
     * probably 256 as on Ada).  No FP64 tensor cores. */
    {120, "Blackwell (GB20x)", 128, 2, 512, NAN},
};

const gp_arch_info *gp_arch_table(int *count)
{
    *count = (int)(sizeof table / sizeof table[0]);
    return table;
}

const gp_arch_info *gp_arch_lookup(int cc)
{
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (table[i].cc == cc)
            return &table[i];
    return NULL;
}

const char *gp_peak_name(gp_peak_kind k)
{
    static const char *const names[GP_PEAK_COUNT] = {
        "fp32_fma", "fp64_fma", "tf32_tensor", "fp64_tensor"
    };
    return (unsigned)k < GP_PEAK_COUNT ? names[k] : "";
}

double gp_arch_flop_per_clock(int cc, gp_peak_kind k)
{
    const gp_arch_info *a = gp_arch_lookup(cc);
    if (!a)
        return NAN;
    switch (k) {
    case GP_PEAK_FP32_FMA:    return 2.0 * a->fp32_lanes;
    case GP_PEAK_FP64_FMA:    return 2.0 * a->fp64_lanes;
    case GP_PEAK_TF32_TENSOR: return a->tf32_tensor;
    case GP_PEAK_FP64_TENSOR: return a->fp64_tensor;
    case GP_PEAK_COUNT:       break;
    }
    return NAN;
}

double gp_arch_peak_gflops(int cc, int sm_count, double sm_mhz, gp_peak_kind k)
{
    if (sm_count <= 0 || !(sm_mhz > 0))
        return NAN;
    /* SMs x FLOP/clk/SM x MHz x 1e6 / 1e9 */
    return sm_count * gp_arch_flop_per_clock(cc, k) * sm_mhz / 1e3;
}
