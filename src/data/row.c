/* row.c - the column table of a run file and the numbers derived from the
 * counters.  Everything that reads or writes a row walks gp_columns[]. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "row.h"

#define GP_METRIC_NAME(id, name) name,
const char *const gp_metric_names[GP_NMETRICS] = { GP_METRICS(GP_METRIC_NAME) };
#undef GP_METRIC_NAME

#define STR(f)  { #f, GP_COL_STR,  offsetof(gp_row, f), sizeof(((gp_row *)0)->f) }
#define LNG(f)  { #f, GP_COL_LONG, offsetof(gp_row, f), 0 }
#define INT(f)  { #f, GP_COL_INT,  offsetof(gp_row, f), 0 }
#define DBL(f)  { #f, GP_COL_DBL,  offsetof(gp_row, f), 0 }
#define MET(id, name) \
    { name, GP_COL_DBL, offsetof(gp_row, metric) + GP_M_##id * sizeof(double), 0 },

const gp_column gp_columns[] = {
    STR(kernel), STR(precision), STR(config),
    LNG(m), LNG(n), LNG(k),
    DBL(alpha), DBL(beta),
    DBL(time_ms), DBL(time_min_ms), DBL(time_max_ms), LNG(reps), DBL(sm_clock_mhz),
    DBL(gflops), DBL(pct_cublas),
    INT(verified), DBL(max_rel_err), DBL(rel_err_fro), DBL(tolerance),
    STR(status),
    DBL(grid_blocks), DBL(block_threads), DBL(regs_per_thread),
    DBL(local_bytes_per_thread), DBL(smem_per_block),
    DBL(occupancy_theoretical), STR(occupancy_limiter),
    DBL(spill_store_bytes), DBL(spill_load_bytes),
    GP_METRICS(MET)
    DBL(flop_count), DBL(flop_2mnk), DBL(ai_dram), DBL(ai_l2), DBL(gflops_counted),
    DBL(bank_conflict_ratio),
    DBL(ranks), STR(rank), STR(grid), STR(dist_block), DBL(panel), STR(comm),
    DBL(compute_ms), DBL(comm_ms), DBL(transfer_ms), DBL(gflops_with_transfers),
    DBL(efficiency), STR(verify_scope),
    LNG(pid), LNG(correlation_id), LNG(launches), DBL(time_total_ms),
    DBL(sustained_ms), DBL(power_w), DBL(energy_j), DBL(ref_time_ms),
    DBL(comm_total_ms),       /* appended: the order of older columns stays */
    LNG(graph_id), LNG(graph_node_id), LNG(profiled), STR(time_source),
    DBL(tensor_math_inst),
};
#undef STR
#undef LNG
#undef INT
#undef DBL
#undef MET

const int gp_ncolumns = (int)(sizeof gp_columns / sizeof gp_columns[0]);

/* gp_run_file.has_column[] in csv.h is sized 128. */
_Static_assert(sizeof gp_columns / sizeof gp_columns[0] <= 128,
               "gp_run_file.has_column[] is too small for gp_columns");

int gp_metric_index(const char *name)
{
    for (int m = 0; m < GP_NMETRICS; m++)
        if (strcmp(gp_metric_names[m], name) == 0)
            return m;
    return -1;
}

int gp_column_index(const char *name)
{
    for (int i = 0; i < gp_ncolumns; i++)
        if (strcmp(gp_columns[i].name, name) == 0)
            return i;
    return -1;
}

/* Every number of a run file is a size, count, time, rate, ratio or
 * percentage, so >= 0 unless named here.  A verification error is inf when
 * the reference is all zero and C is not (a failed check, written so). */
const gp_range *gp_column_range(const gp_column *c)
{
    static const struct { const char *name; const gp_range *r; } except[] = {
        { "m", &gp_range_size }, { "n", &gp_range_size }, { "k", &gp_range_size },
        { "ranks", &gp_range_size },
        { "alpha", &gp_range_any }, { "beta", &gp_range_any },
        { "max_rel_err", &gp_range_error }, { "rel_err_fro", &gp_range_error },
        { "occupancy_theoretical", &gp_range_pct },
        { "sm__warps_active.avg.pct_of_peak_sustained_active", &gp_range_pct },
    };
    for (size_t i = 0; i < sizeof except / sizeof except[0]; i++)
        if (strcmp(c->name, except[i].name) == 0)
            return except[i].r;
    return &gp_range_nonneg;
}

int gp_row_multi_gpu(const gp_row *r)
{
    return r->ranks > 1 && r->comm[0] && strcmp(r->comm, "NA") != 0;
}

int gp_row_skipped(const gp_row *r)
{
    return strncmp(r->status, "skipped:", 8) == 0;
}

void gp_row_init(gp_row *r)
{
    memset(r, 0, sizeof *r);
    for (int i = 0; i < gp_ncolumns; i++) {
        char *p = (char *)r + gp_columns[i].offset;
        if (gp_columns[i].type == GP_COL_DBL)
            *(double *)p = NAN;
        else if (gp_columns[i].type == GP_COL_LONG)
            *(long *)p = -1;
    }
    r->verified = -1;
}

/* x, or NA if it overflowed: a derived number must read back (the reader
 * refuses infinities), and an overflowed one says nothing. */
static double finite_or_na(double x)
{
    return isfinite(x) ? x : NAN;
}

/* a / b, NA if either is NA, b is zero or the quotient overflows. */
static double ratio(double a, double b)
{
    if (isnan(a) || isnan(b) || b == 0)
        return NAN;
    return finite_or_na(a / b);
}

/* FLOPs of one precision's triple: an FMA counts two.  NAN if any is NA. */
static double triple_flops(double fma, double add, double mul)
{
    return 2 * fma + add + mul;
}

/* The FLOP classes a row can count, each from its counters: the SIMT
 * triples (2 fma + add + mul) and the tensor path (math ops, already two
 * per multiply-add).  Order decides ties in the dominant class. */
enum { FL_FP32, FL_FP64, FL_TF32, FL_BF16, FL_FP16, FL_FP8, FL_N };
static const char *const class_names[FL_N] = {
    "fp32", "fp64", "tf32", "bf16", "fp16", "fp8"
};
static const int tensor_metric[FL_N] = {
    -1, GP_M_TENSOR_FP64, GP_M_TENSOR_TF32, GP_M_TENSOR_BF16,
    GP_M_TENSOR_FP16, GP_M_TENSOR_FP8
};

/* FLOPs per class, and whether the class was counted at all.  A metric
 * list may leave out the FP64 counters (zero for FP32 and TF32 kernels) or
 * any tensor counter: not counted, so they add nothing.  A class counted
 * in part (an FP64 triple with one NA) is NAN, and so is the total. */
static void class_flops(const double *m, double f[FL_N], int counted[FL_N])
{
    f[FL_FP32] = triple_flops(m[GP_M_FFMA], m[GP_M_FADD], m[GP_M_FMUL]);
    counted[FL_FP32] = 1;                     /* always needed */
    int simt64 = !(isnan(m[GP_M_DFMA]) && isnan(m[GP_M_DADD]) && isnan(m[GP_M_DMUL]));
    int tensor64 = !isnan(m[GP_M_TENSOR_FP64]);
    f[FL_FP64] = (simt64 ? triple_flops(m[GP_M_DFMA], m[GP_M_DADD], m[GP_M_DMUL]) : 0) +
                 (tensor64 ? m[GP_M_TENSOR_FP64] : 0);
    counted[FL_FP64] = simt64 || tensor64;
    for (int c = FL_TF32; c < FL_N; c++) {
        f[c] = m[tensor_metric[c]];
        counted[c] = !isnan(f[c]);
    }
}

static double flop_count(const double f[FL_N], const int counted[FL_N])
{
    double sum = 0;
    for (int c = 0; c < FL_N; c++)
        if (counted[c])
            sum += f[c];
    return sum;
}

/* The class with the most FLOPs ("" when nothing was counted). */
static const char *dominant_class(const double f[FL_N])
{
    int best = -1;
    for (int c = 0; c < FL_N; c++)
        if (!isnan(f[c]) && f[c] > 0 && (best < 0 || f[c] > f[best]))
            best = c;
    return best < 0 ? "" : class_names[best];
}

int gp_row_tensor_missing(const gp_row *r)
{
    if (!(r->tensor_math_inst > 0))
        return 0;
    for (int c = FL_FP64; c < FL_N; c++)       /* a gated launch leaves all NA */
        if (!isnan(r->metric[tensor_metric[c]]))
            return 0;
    return 1;
}

void gp_row_derive(gp_row *r)
{
    const double *m = r->metric;
    double f[FL_N];
    int counted[FL_N];
    class_flops(m, f, counted);
    int missing = gp_row_tensor_missing(r);
    r->flop_count = missing ? NAN : finite_or_na(flop_count(f, counted));
    if (!r->precision[0] && !missing)
        snprintf(r->precision, sizeof r->precision, "%s", dominant_class(f));
    r->flop_2mnk = (r->m > 0 && r->n > 0 && r->k > 0)
                       ? 2.0 * r->m * r->n * r->k : NAN;
    /* A point's x and y use the same FLOPs, so its distance below the
     * bandwidth roof is bytes/time: the GEMM model's 2mnk where there is a
     * shape (the same as `gflops`; for the ladder's SIMT rungs 2*FFMA is
     * 2mnk exactly, checked by the GPU tests), counted FLOPs otherwise. */
    double roof = isnan(r->flop_2mnk) ? r->flop_count : r->flop_2mnk;
    r->ai_dram = ratio(roof, m[GP_M_DRAM_READ] + m[GP_M_DRAM_WRITE]);
    r->ai_l2 = ratio(roof, m[GP_M_L2_BYTES]);
    if (isnan(r->gflops) && isnan(r->flop_2mnk))
        r->gflops = ratio(r->flop_count, r->time_ms * 1e6);
    /* FLOP per nanosecond is GFLOP per second. */
    r->gflops_counted = ratio(r->flop_count, m[GP_M_GPU_TIME]);
    r->bank_conflict_ratio =
        ratio(m[GP_M_SMEM_CONF_LD] + m[GP_M_SMEM_CONF_ST],
              m[GP_M_SMEM_WAVE_LD] + m[GP_M_SMEM_WAVE_ST]);
}
