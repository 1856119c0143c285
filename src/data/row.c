/* row.c - the column table of a run file and the numbers derived from the
 * counters.  Everything that reads or writes a row walks gp_columns[]. */
#include <math.h>
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
    DBL(flop_count), DBL(ai_dram), DBL(ai_l2), DBL(gflops_counted),
    DBL(bank_conflict_ratio),
    DBL(ranks), STR(rank), STR(grid), STR(dist_block), DBL(panel), STR(comm),
    DBL(compute_ms), DBL(comm_ms), DBL(transfer_ms), DBL(gflops_with_transfers),
    DBL(efficiency), STR(verify_scope),
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

int gp_column_index(const char *name)
{
    for (int i = 0; i < gp_ncolumns; i++)
        if (strcmp(gp_columns[i].name, name) == 0)
            return i;
    return -1;
}

int gp_row_skipped(const gp_row *r)
{
    return strncmp(r->status, "skipped:", 8) == 0;
}

void gp_row_init(gp_row *r)
{
    memset(r, 0, sizeof *r);
    for (int i = 0; i < gp_ncolumns; i++)
        if (gp_columns[i].type == GP_COL_DBL)
            *(double *)((char *)r + gp_columns[i].offset) = NAN;
    r->verified = -1;
}

/* a / b, NA if either is NA or b is zero. */
static double ratio(double a, double b)
{
    if (isnan(a) || isnan(b) || b == 0)
        return NAN;
    return a / b;
}

/* FLOPs of one precision's triple: an FMA counts two.  NAN if any is NA. */
static double triple_flops(double fma, double add, double mul)
{
    return 2 * fma + add + mul;
}

/* A metric list may leave out the FP64 counters altogether (they are zero
 * for FP32 and TF32 kernels): an FP64 triple that is entirely NA counts as
 * absent, a partly collected one makes the total unknown.  The FP32 triple
 * is always needed. */
static double flop_count(const double *m)
{
    double fp32 = triple_flops(m[GP_M_FFMA], m[GP_M_FADD], m[GP_M_FMUL]);
    int fp64_absent = isnan(m[GP_M_DFMA]) && isnan(m[GP_M_DADD]) &&
                      isnan(m[GP_M_DMUL]);
    if (fp64_absent)
        return fp32;
    return fp32 + triple_flops(m[GP_M_DFMA], m[GP_M_DADD], m[GP_M_DMUL]);
}

void gp_row_derive(gp_row *r)
{
    const double *m = r->metric;
    r->flop_count = flop_count(m);
    /* Intensity uses the algorithm's 2mnk, the same FLOPs as `gflops`, so
     * roofline points are consistent: the SIMT counters miss tensor-core
     * work (cuBLAS DGEMM's DMMA), and for SIMT rungs 2*FFMA is 2mnk
     * anyway (checked by the GPU tests). */
    double algo = (r->m > 0 && r->n > 0 && r->k > 0)
                      ? 2.0 * r->m * r->n * r->k : NAN;
    r->ai_dram = ratio(algo, m[GP_M_DRAM_READ] + m[GP_M_DRAM_WRITE]);
    r->ai_l2 = ratio(algo, m[GP_M_L2_BYTES]);
    /* FLOP per nanosecond is GFLOP per second. */
    r->gflops_counted = ratio(r->flop_count, m[GP_M_GPU_TIME]);
    r->bank_conflict_ratio =
        ratio(m[GP_M_SMEM_CONF_LD] + m[GP_M_SMEM_CONF_ST],
              m[GP_M_SMEM_WAVE_LD] + m[GP_M_SMEM_WAVE_ST]);
}
