/* row.h - one row of a gemmprof run file: the data contract between the GPU
 * half (run, probe) and the CPU half (plot, report, diff).
 *
 * Every column is listed once, in GP_COLUMNS below; the CSV writer, the CSV
 * reader, docs/data-format.md's column table and the tests all derive from that list.
 * Numbers that were not measured are NAN in memory and NA in the file (a
 * long column is NA when negative: -1, which gp_row_init sets).
 * Bump GP_RUN_SCHEMA when a column is renamed or removed (adding is fine).
 */
#ifndef GP_ROW_H
#define GP_ROW_H

#include <stddef.h>
#include "value.h"

#define GP_RUN_SCHEMA "gemmprof-run/1"

/* CUPTI counters, named exactly as ncu spells them.  The tensor-path
 * counters count math operations, two per multiply-add (a 4096^3 cuBLAS
 * TF32 or BF16 GEMM counts 2*4096^3, measured with ncu on an H100), so
 * they add to flop_count as they are.  On GH100 the five of them take the
 * default set from 3 passes to 5 (CUPTI host API, counted offline). */
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
    X(TENSOR_FP64,   "sm__ops_path_tensor_src_fp64.sum")                     \
    X(TENSOR_TF32,   "sm__ops_path_tensor_src_tf32_dst_fp32.sum")            \
    X(TENSOR_BF16,   "sm__ops_path_tensor_src_bf16_dst_fp32.sum")            \
    X(TENSOR_FP16,   "sm__ops_path_tensor_src_fp16.sum")                     \
    X(TENSOR_FP8,    "sm__ops_path_tensor_src_fp8.sum")                      \
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
/* The GP_M_ index of a counter the run file has a column for; -1 if none. */
int gp_metric_index(const char *name);

/* Long enough for most demangled cuBLAS/CUTLASS names; a longer one is
 * cut and keeps its identity with a hash (gp_row_set_kernel). */
#define GP_KERNEL_NAME_MAX 1024

typedef struct {
    /* identity */
    char kernel[GP_KERNEL_NAME_MAX];  /* registry name, or (trace) demangled */
    char precision[8];        /* "fp32", "fp64", "tf32"; trace rows: the
                                 dominant counted FLOPs (also bf16, fp16, fp8) */
    char config[64];          /* tile config, "" if none; trace rows:
                                 "grid=XxYxZ block=XxYxZ[ cluster=XxYxZ]"  */
    long m, n, k;             /* -1 (NA) for trace rows: no GEMM shape      */
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
    char status[192];         /* "ok", "verify_failed...", "error: ...",
                               * "skipped: needs sm_90a (wgmma)"            */
    /* launch shape and static facts (runtime + compiler report) */
    double grid_blocks, block_threads;
    double regs_per_thread, local_bytes_per_thread, smem_per_block;
    double occupancy_theoretical;     /* percent                            */
    char occupancy_limiter[16];       /* registers|shared_memory|warps|blocks */
    double spill_store_bytes, spill_load_bytes;  /* ptxas, per thread       */
    /* CUPTI counters and what is derived from them */
    double metric[GP_NMETRICS];
    double flop_count, flop_2mnk, ai_dram, ai_l2, gflops_counted, bank_conflict_ratio;
    /* distributed runs (gemmprof dist): one row per rank plus a summary row;
     * NA in single-GPU runs */
    double ranks;             /* MPI processes in the run                   */
    char rank[8];             /* "0", "1", ... or "all" (the run summary)   */
    char grid[16];            /* process grid "PrxPc"                       */
    char dist_block[32];      /* "BrxBc", or "BrxBc/Bk" when K's block differs */
    double panel;             /* panel width: columns of A per broadcast    */
    char comm[16];            /* panel transport: mpi, staged, cuda-aware, nccl */
    double compute_ms;        /* local GEMMs (median over reps)             */
    double comm_ms;           /* exposed communication: panel time on the
                                 critical path (a GPU gemm's wait for its
                                 panel; host transports: also the host's
                                 time issuing and blocked waiting)        */
    double comm_total_ms;     /* all communication: GPU time of the rank's
                                 broadcasts, hidden or not (NA where the
                                 transport cannot time them)              */
    double transfer_ms;       /* host<->device copies of A, B, C; 0 on CPU  */
    double gflops_with_transfers;  /* 2mnk / (time + transfer)               */
    double efficiency;        /* compute_ms / time_ms (summary: mean over ranks) */
    char verify_scope[48];    /* "full", "sample RxC of MxN local C", ...   */
    /* gemmprof trace: the process, and which launch(es) a row stands for;
     * NA elsewhere (rank and ranks above carry the MPI rank and size) */
    long pid;
    long correlation_id;      /* CUPTI's id of the launch (per process), as
                                 nsys shows it; NA in --summary rows      */
    long launches;            /* launches the row stands for: 1, or the
                                 count folded into a --summary row        */
    double time_total_ms;     /* sum of the launches' durations           */
    /* --energy: the kernel back to back for a window (run/energy.c) */
    double sustained_ms;      /* mean time per launch in the window        */
    double power_w;           /* mean board power (NVML energy counter)    */
    double energy_j;          /* joules per launch: power_w x sustained_ms */
    /* --interleave: the reference's median over the launches alternated
     * with this kernel's timed ones (pct_cublas is then the median of the
     * per-pair ratios, not ref_time_ms / time_ms) */
    double ref_time_ms;
    /* gemmprof trace, appended: a kernel launched from a CUDA graph (its
     * CUPTI graph and node ids; NA for stream launches), how many of the
     * row's launches were profiled (replayed for counters), and where
     * time_ms comes from: "activity" (unprofiled launches' Activity
     * records), "profiled-activity" (a replayed launch's own record: the
     * row had no unprofiled launch) or "gpu__time_duration" (the
     * profiler's counter: the replayed launch's record had zero length) */
    long graph_id, graph_node_id;
    long profiled;
    char time_source[24];
    /* gemmprof trace --tensor-counters auto, appended: the tensor-core
     * math instructions (HMMA, HGMMA, QGMMA, DMMA) of a launch profiled
     * without the tensor-path counters (cupti/profiler.h, tensor_gate.c).
     * 0: those counters are 0.  Above 0 with them NA: they were not taken
     * (the configuration was not launched again), and flop_count is NA.
     * NA where the launch took every counter. */
    double tensor_math_inst;
} gp_row;

/* A row with every number NA and strings empty. */
void gp_row_init(gp_row *r);
/* 1 if the row was not run because the GPU or the build lacks what its
 * kernel needs (status "skipped: ..."): every measurement NA, not a
 * failure, and not comparable with anything. */
int gp_row_skipped(const gp_row *r);
/* 1 if the row's tensor cores did math that no tensor-path counter of it
 * counts (tensor_math_inst > 0, every one NA: a gated launch's). */
int gp_row_tensor_missing(const gp_row *r);
/* Fill flop_count, flop_2mnk, ai_dram, ai_l2, gflops_counted and
 * bank_conflict_ratio from the counters (NA where an input is NA or a
 * denominator is zero).  flop_count counts SIMT and tensor-path FLOPs
 * (NA, and no precision set, where gp_row_tensor_missing).
 * A roofline point's two coordinates use the same FLOPs: 2mnk where the
 * row has a GEMM shape (gflops, set by the runner, is 2mnk/time), counted
 * FLOPs where it has none (trace rows: gflops is then set here, from
 * time_ms, when the runner has not set it).  A row with no precision gets
 * the one of its largest counted FLOP class. */
void gp_row_derive(gp_row *r);

/* Kernel names (kernel_name.c).  gp_row_set_kernel copies `name`; one
 * longer than the column keeps its first characters and ends with
 * "...#" and a 64-bit FNV-1a hash of the whole name in hex, so two long
 * names that share a start stay two kernels. */
void gp_row_set_kernel(gp_row *r, const char *name);
/* A short label for charts and tables: a registry name as it is; a
 * demangled C++ name without its return type and parameter list, and if
 * still longer than 40 characters, its longest identifier (the
 * instantiation's name in cuBLAS/CUTLASS kernels:
 * "void cutlass::Kernel2<cutlass_80_simt_sgemm_256x128_8x4_nn_align1>(...)"
 * -> "cutlass_80_simt_sgemm_256x128_8x4_nn_align1"), cut to n-1. */
void gp_kernel_label(const char *kernel, char *out, size_t n);
/* Where another kernel of a set of n has item i's label (kernel(set, j):
 * item j's name), the word that tells i apart, as "<word>": the longest
 * identifier of its name that is in no other kernel of that label (else
 * in none of the first such other): "<FillFunctor>" beside "<AbsFunctor>",
 * both vectorized_elementwise_kernel; where they differ only in numbers,
 * the first token in which i's differs from that other's ("<128>" of
 * reduce_kernel<128, 4, ...>).  "" where the label is i's alone. */
void gp_kernel_tell_apart(const char *(*kernel)(const void *set, int j), const void *set,
                          int n, int i, char *out, size_t len);
/* "MxNxK", or "NA" for a row with no GEMM shape. */
void gp_row_shape(const gp_row *r, char *out, size_t n);

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
/* What a number in column c may be (the reader refuses anything else). */
const gp_range *gp_column_range(const gp_column *c);
/* 1 for a gemmprof dist row over several GPUs (ranks > 1 and a panel
 * transport): its GFLOP/s is all ranks' together, which no one-GPU chart
 * or table may show as one GPU's. */
int gp_row_multi_gpu(const gp_row *r);

#endif
