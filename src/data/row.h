/* row.h - one row of a gemmprof run file: the data contract between the GPU
 * half (run, probe) and the CPU half (plot, report, diff).
 *
 * Every column is listed once, in GP_COLUMNS below; the CSV writer, the CSV
 * reader, README's schema table and the tests all derive from that list.
 * Numbers that were not measured are NAN in memory and NA in the file.
 * Bump GP_RUN_SCHEMA when a column is renamed or removed (adding is fine).
 */
#ifndef GP_ROW_H
#define GP_ROW_H

#include <stddef.h>

#define GP_RUN_SCHEMA "gemmprof-run/1"

/* CUPTI counters, named exactly as ncu spells them. */
#define GP_METRICS(X)                                                        \
    X(GPU_TIME,      "gpu__time_duration.sum")                               \
    X(DRAM_READ,     "dram__bytes_read.sum")                                 \
    X(DRAM_WRITE,    "dram__bytes_write.sum")                                \
    X(L2_BYTES,      "lts__t_bytes.sum")                                     \
    X(FFMA,          "sm__sass_thread_inst_executed_op_ffma_pred_on.sum")    \
    X(FADD,          "sm__sass_thread_inst_executed_op_fadd_pred_on.sum")    \
    X(FMUL,          "sm__sass_thread_inst_executed_op_fmul_pred_on.sum")    \
    X(DFMA,          "sm__sass_thread_inst_executed_op_dfma_pred_on.sum")    \
    X(DADD,          "sm__sass_thread_inst_executed_op_dadd_pred_on.sum")    \
    X(DMUL,          "sm__sass_thread_inst_executed_op_dmul_pred_on.sum")    \
    X(SMEM_CONF_LD,  "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum") \
    X(SMEM_CONF_ST,  "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum") \
    X(SMEM_WAVE_LD,  "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum") \
    X(SMEM_WAVE_ST,  "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum") \
    X(LOCAL_LD,      "l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum")          \
    X(LOCAL_ST,      "l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum")          \
    X(WARPS_ACTIVE,  "sm__warps_active.avg.pct_of_peak_sustained_active")

#define GP_METRIC_ENUM(id, name) GP_M_##id,
enum { GP_METRICS(GP_METRIC_ENUM) GP_NMETRICS };
#undef GP_METRIC_ENUM

extern const char *const gp_metric_names[GP_NMETRICS];

typedef struct {
    /* identity */
    char kernel[64];
    char precision[8];        /* "fp32", "fp64", "tf32"                     */
    char config[64];          /* tile config, "" if none                    */
    long m, n, k;
    double alpha, beta;
    /* timing (unprofiled launches, CUDA events) */
    double time_ms, time_min_ms, time_max_ms;
    long reps;
    double sm_clock_mhz;      /* SM clock (NVML) right after the timed reps */
    double gflops, pct_cublas;
    /* verification against the precision's cuBLAS reference */
    int verified;             /* 1 yes, 0 no, -1 NA (never ran)             */
    double max_rel_err;       /* max|C-R| / max|R|                          */
    double rel_err_fro;       /* ||C-R||_F / ||R||_F                        */
    double tolerance;         /* what rel_err_fro was compared with         */
    char status[192];         /* "ok", "verify_failed...", "error: ..."     */
    /* launch shape and static facts (runtime + compiler report) */
    double grid_blocks, block_threads;
    double regs_per_thread, local_bytes_per_thread, smem_per_block;
    double occupancy_theoretical;     /* percent                            */
    char occupancy_limiter[16];       /* registers|shared_memory|warps|blocks */
    double spill_store_bytes, spill_load_bytes;  /* ptxas, per thread       */
    /* CUPTI counters and what is derived from them */
    double metric[GP_NMETRICS];
    double flop_count, ai_dram, ai_l2, gflops_counted, bank_conflict_ratio;
    /* distributed runs (gemmprof dist): one row per rank plus a summary row;
     * NA in single-GPU runs */
    double ranks;             /* MPI processes in the run                   */
    char rank[8];             /* "0", "1", ... or "all" (the run summary)   */
    char grid[16];            /* process grid "PrxPc"                       */
    char dist_block[32];      /* "BrxBc", or "BrxBc/Bk" when K's block differs */
    double panel;             /* panel width: columns of A per broadcast    */
    char comm[16];            /* panel transport: mpi, staged, cuda-aware, nccl */
    double compute_ms;        /* local GEMMs (median over reps)             */
    double comm_ms;           /* panel time on the critical path: issuing
                                 packs and broadcasts, blocked waiting for
                                 panels, a GPU gemm's wait for its pack    */
    double transfer_ms;       /* host<->device copies of A, B, C; 0 on CPU  */
    double gflops_with_transfers;  /* 2mnk / (time + transfer)               */
    double efficiency;        /* compute_ms / time_ms (summary: mean over ranks) */
    char verify_scope[48];    /* "full", "sample RxC of MxN local C", ...   */
} gp_row;

/* A row with every number NA and strings empty. */
void gp_row_init(gp_row *r);
/* Fill flop_count, ai_dram, ai_l2, gflops_counted, bank_conflict_ratio from
 * the counters (NA where an input is NA or a denominator is zero). */
void gp_row_derive(gp_row *r);

typedef enum { GP_COL_STR, GP_COL_LONG, GP_COL_INT, GP_COL_DBL } gp_col_type;
typedef struct {
    const char *name;
    gp_col_type type;
    size_t offset;           /* into gp_row */
    size_t size;             /* for strings */
} gp_column;

extern const gp_column gp_columns[];
extern const int gp_ncolumns;
int gp_column_index(const char *name);   /* -1 if unknown */

#endif
