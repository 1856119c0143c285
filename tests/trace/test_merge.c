/* test_merge.c - gemmprof trace's rows on the CPU: the row of one launch,
 * merging the part files of several processes (durations joined by
 * correlation id, a part cut off by a crash, counters refused in one),
 * and --summary folding. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "near.h"
#include "sm90.h"
#include "trace/trace.h"

static char err[1024];
static char top[64], dir[96];          /* dir: the parts; outputs in top */

static int setup(void **state)
{
    (void)state;
    snprintf(top, sizeof top, "/tmp/gp-trace-merge-XXXXXX");
    if (!mkdtemp(top))
        return -1;
    snprintf(dir, sizeof dir, "%s/parts", top);
    return gp_mkdir_p(dir, err, sizeof err);
}

static int teardown(void **state)
{
    (void)state;
    gp_rm_rf(top);
    return 0;
}

static void launch(gp_trace_launch *l, const char *name, long corr)
{
    memset(l, 0, sizeof *l);
    l->name = name;
    l->grid[0] = 128, l->grid[1] = 2, l->grid[2] = 1;
    l->block[0] = 256, l->block[1] = 1, l->block[2] = 1;
    l->pid = 4242;
    l->ranks = -1;
    l->rank = "";
    l->correlation_id = corr;
    l->regs = 64;
    l->local_bytes = 0;
    l->static_smem = 1024;
    l->dyn_smem = 16384;
    l->active_blocks = -1;
}

static void launch_row_facts(void **state)
{
    (void)state;
    gp_trace_launch l;
    gp_row r;
    launch(&l, "void ffma_chain<4>(float*, int)", 77);
    l.have_device = 1;
    l.dev = gp_test_sm90(0, 0, 0);
    /* 64 regs x 256 threads: 4 blocks by registers, 13 by shared memory */
    l.active_blocks = 4;
    gp_trace_launch_row(&l, &r);
    assert_string_equal(r.kernel, "void ffma_chain<4>(float*, int)");
    assert_string_equal(r.config, "grid=128x2x1 block=256x1x1");
    assert_int_equal(r.m, -1);
    assert_int_equal(r.k, -1);
    assert_near(r.grid_blocks, 256, 0);
    assert_near(r.block_threads, 256, 0);
    assert_near(r.regs_per_thread, 64, 0);
    assert_near(r.smem_per_block, 1024 + 16384, 0);
    assert_near(r.occupancy_theoretical, 50, 1e-12);
    assert_string_equal(r.occupancy_limiter, "registers");
    assert_int_equal(r.pid, 4242);
    assert_int_equal(r.correlation_id, 77);
    assert_int_equal(r.launches, 1);
    assert_string_equal(r.rank, "");
    assert_true(isnan(r.ranks));
    assert_string_equal(r.status, "ok");
    assert_true(isnan(r.metric[GP_M_FFMA]));
    assert_true(isnan(r.spill_store_bytes));     /* no ptxas report for apps */

    /* the driver disagrees with the arithmetic: no limiter is named */
    l.active_blocks = 3;
    l.cluster[0] = 2, l.cluster[1] = 1, l.cluster[2] = 1;
    l.rank = "3";
    l.ranks = 8;
    gp_trace_launch_row(&l, &r);
    assert_near(r.occupancy_theoretical, 37.5, 1e-12);
    assert_string_equal(r.occupancy_limiter, "unknown");
    assert_string_equal(r.config, "grid=128x2x1 block=256x1x1 cluster=2x1x1");
    assert_string_equal(r.rank, "3");
    assert_near(r.ranks, 8, 0);

    /* nothing known from the driver: NA, not zero */
    launch(&l, "k", 1);
    l.regs = l.local_bytes = l.static_smem = -1;
    gp_trace_launch_row(&l, &r);
    assert_true(isnan(r.regs_per_thread));
    assert_true(isnan(r.smem_per_block));
    assert_true(isnan(r.occupancy_theoretical));
    assert_string_equal(r.occupancy_limiter, "");
}

/* A row as the injected library writes it: 1000 FFMA per thread. */
static void counted_row(gp_row *r, const char *name, long pid, long corr, double ffma)
{
    gp_trace_launch l;
    launch(&l, name, corr);
    l.pid = pid;
    gp_trace_launch_row(&l, r);
    for (int m = 0; m < GP_NMETRICS; m++)
        r->metric[m] = 0;
    r->metric[GP_M_FFMA] = ffma;
    r->metric[GP_M_DRAM_READ] = 1e6;
    r->metric[GP_M_DRAM_WRITE] = 1e6;
    r->metric[GP_M_L2_BYTES] = 4e6;
    r->metric[GP_M_GPU_TIME] = 2000;
    r->metric[GP_M_WARPS_ACTIVE] = 50;
    gp_row_derive(r);
}

static void write_text(const char *name, const char *text)
{
    char p[256];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void write_part(const char *name, long pid, const char *note, const gp_row *rows,
                       int n, int cut_last)
{
    char p[256];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    gp_meta m;
    gp_meta_init(&m);
    gp_meta_set(&m, "schema", GP_RUN_SCHEMA);
    gp_meta_set(&m, "command", "./app --n %ld", pid);
    gp_meta_set(&m, "pid", "%ld", pid);
    gp_meta_set(&m, "gpu_name", "NVIDIA H100 80GB HBM3");
    gp_meta_set(&m, "sm_count", "132");
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    gp_csv_write_meta(f, &m);
    gp_csv_write_header(f);
    for (int i = 0; i < n; i++)
        gp_csv_write_row_to(f, &rows[i]);
    if (note)
        fprintf(f, "# counters: %s\n", note);
    if (cut_last)                      /* what a process killed mid-row leaves */
        fputs("\"void killed_kernel(int)\",NA,\"grid=1x1", f);
    fclose(f);
}

static gp_run_file rf;

static void merge(int per_launch, gp_trace_merge_result *res, const char *out)
{
    char *argv[] = { "gemmprof", "trace", "--", "./app", NULL };
    gp_trace_opts o = { .kernel_regex = "ffma|dadd", .launch_count = -1, .per_config = 1 };
    gp_trace_merge_opts mo = { .per_launch = per_launch, .argc = 4, .argv = argv,
                               .metrics = "default", .o = &o };
    assert_int_equal(gp_trace_merge(dir, &mo, out, res, err, sizeof err), 0);
    assert_int_equal(gp_csv_read(out, &rf, err, sizeof err), 0);
}

static void two_processes(void);

/* The two processes' parts merged into top/NAME, read back into rf. */
static void merge_fixture(int per_launch, const char *name, gp_trace_merge_result *res)
{
    char out[160];
    two_processes();
    snprintf(out, sizeof out, "%s/%s", top, name);
    merge(per_launch, res, out);
}

static void two_processes(void)
{
    gp_row a[3], b[1];
    counted_row(&a[0], "void ffma_chain<4>(float*, int)", 100, 11, 1000);
    counted_row(&a[1], "void ffma_chain<4>(float*, int)", 100, 12, 3000);
    counted_row(&a[2], "dadd_kernel(double*, double const*, int)", 100, 13, 0);
    a[2].metric[GP_M_DADD] = 500;
    a[2].metric[GP_M_GPU_TIME] = NAN;                /* and no counter time */
    gp_row_derive(&a[2]);
    counted_row(&b[0], "void ffma_chain<4>(float*, int)", 200, 5, 2000);
    write_part("host-100.csv", 100, NULL, a, 3, 0);
    char path[200];                     /* written at the process's exit */
    snprintf(path, sizeof path, "%s/host-100.csv", dir);
    FILE *f = fopen(path, "a");
    assert_non_null(f);
    fputs("# profiling_cost: 3 profiled launches, 270.0 ms in them\n", f);
    fclose(f);
    /* launch 11 also has a zero-length record (as CUPTI gives a profiled
     * launch: ignored); 12 has two records; 13 none; the last line was cut */
    write_text("host-100.times", "11 1000 3000\n11 9000 9000\n12 5000 6000\n12 7000 8500\n"
               "99 0 1\n13 1");
    write_part("host-200.csv", 200, "refused: cuptiRangeProfilerStart: GPU performance "
               "counters are restricted to admin users (ERR_NVGPUCTRPERM)", b, 1, 1);
    /* launch 5's only record has zero length: its time is the counter's */
    write_text("host-200.times", "5 4000 4000\n");
    write_text("notes.txt", "not a part\n");
}

static void merge_joins_durations(void **state)
{
    (void)state;
    gp_trace_merge_result res;
    merge_fixture(1, "run.csv", &res);
    assert_int_equal(res.parts, 2);
    assert_int_equal(res.rows, 4);
    assert_int_equal(res.timed, 3);
    assert_non_null(strstr(res.refused, "ERR_NVGPUCTRPERM"));
    assert_non_null(strstr(res.warning, "cut off"));        /* the killed row */
    assert_int_equal(rf.nrows, 4);

    const gp_row *r = &rf.rows[0];                   /* one record: 2 us */
    assert_string_equal(r->kernel, "void ffma_chain<4>(float*, int)");
    assert_near(r->time_ms, 0.002, 1e-12);
    assert_int_equal(r->reps, 1);
    assert_near(r->flop_count, 2000, 0);
    assert_near(r->gflops, 2000 / 2000.0, 1e-12);   /* FLOP per ns */
    assert_near(r->ai_dram, 2000 / 2e6, 1e-15);
    assert_true(isnan(r->flop_2mnk));
    assert_string_equal(r->precision, "fp32");
    r = &rf.rows[1];                                 /* two records: median */
    assert_near(r->time_ms, 0.00125, 1e-12);
    assert_near(r->time_min_ms, 0.001, 1e-12);
    assert_near(r->time_max_ms, 0.0015, 1e-12);
    assert_int_equal(r->reps, 2);
    r = &rf.rows[2];                                 /* no record: NA */
    assert_true(isnan(r->time_ms));
    assert_true(isnan(r->gflops));
    assert_string_equal(r->precision, "fp64");
    assert_near(r->flop_count, 500, 0);
    r = &rf.rows[3];
    assert_int_equal(r->pid, 200);
    assert_near(r->time_ms, 0.002, 1e-12);          /* gpu__time_duration.sum */
    assert_int_equal(r->reps, -1);
    assert_int_equal(res.counter_timed, 1);
    assert_non_null(strstr(gp_meta_get(&rf.meta, "timing"), "1 of the rows"));

    const char *p = gp_meta_get(&rf.meta, "processes");
    assert_non_null(p);
    assert_non_null(strstr(p, "2: 100 ./app --n 100; 200 ./app --n 200"));
    assert_string_equal(gp_meta_get(&rf.meta, "gpu_name"), "NVIDIA H100 80GB HBM3");
    assert_string_equal(gp_meta_get(&rf.meta, "schema"), GP_RUN_SCHEMA);
    assert_non_null(strstr(gp_meta_get(&rf.meta, "counters"), "ERR_NVGPUCTRPERM"));
    assert_non_null(strstr(gp_meta_get(&rf.meta, "trace_filter"), "ffma|dadd"));
    assert_non_null(strstr(gp_meta_get(&rf.meta, "rows"), "one per launch (--per-launch)"));
    assert_string_equal(rf.rows[3].time_source, "gpu__time_duration");
    assert_string_equal(rf.rows[0].time_source, "profiled-activity");
    assert_string_equal(rf.rows[2].time_source, "none");
    assert_int_equal(res.launches, 4);
    assert_null(gp_meta_get(&rf.meta, "pid"));       /* per process: in rows */
    /* each process's own cost, tagged by pid; none for one that wrote none */
    assert_string_equal(gp_meta_get(&rf.meta, "profiling_cost"),
                        "100: 3 profiled launches, 270.0 ms in them");
    gp_run_file_free(&rf);
}

static void merge_summary_folds(void **state)
{
    (void)state;
    gp_trace_merge_result res;
    merge_fixture(0, "summary.csv", &res);
    assert_int_equal(res.rows, 3);
    assert_int_equal(rf.nrows, 3);
    const gp_row *r = &rf.rows[0];
    assert_int_equal(r->launches, 2);
    assert_int_equal(r->correlation_id, 11);         /* its first launch's */
    /* older parts: every row profiled, so the time is theirs */
    assert_string_equal(r->time_source, "profiled-activity");
    assert_int_equal(r->reps, 2);
    assert_near(r->time_total_ms, 0.002 + 0.00125, 1e-12);
    assert_near(r->time_ms, (0.002 + 0.00125) / 2, 1e-12);
    assert_near(r->time_min_ms, 0.001, 1e-12);
    assert_near(r->time_max_ms, 0.002, 1e-12);
    assert_near(r->metric[GP_M_FFMA], 2000, 0);      /* median of 1000, 3000 */
    assert_near(r->flop_count, 4000, 0);
    assert_near(r->gflops, 4000 / (1e6 * (0.002 + 0.00125) / 2), 1e-5);   /* %.6g */
    assert_non_null(strstr(gp_meta_get(&rf.meta, "rows"), "one per process, kernel and "
                           "launch configuration"));
    assert_int_equal(rf.rows[1].launches, 1);
    assert_int_equal(rf.rows[2].pid, 200);           /* another process: apart */
    gp_run_file_free(&rf);
}

static void merge_without_parts_writes_nothing(void **state)
{
    (void)state;
    char empty[128], out[160];
    snprintf(empty, sizeof empty, "%s/empty", top);
    assert_int_equal(gp_mkdir_p(empty, err, sizeof err), 0);
    snprintf(out, sizeof out, "%s/none.csv", top);
    char *argv[] = { "gemmprof", NULL };
    gp_trace_merge_opts mo = { .argc = 1, .argv = argv };
    gp_trace_merge_result res;
    assert_int_equal(gp_trace_merge(empty, &mo, out, &res, err, sizeof err), 0);
    assert_int_equal(res.parts, 0);
    assert_int_equal(access(out, F_OK), -1);
    snprintf(empty, sizeof empty, "%s/no-such-dir", top);
    assert_int_equal(gp_trace_merge(empty, &mo, out, &res, err, sizeof err), -1);
    assert_non_null(strstr(err, "no-such-dir"));
}

/* Folding on its own: groups in order of first appearance, medians over
 * what is known, a failed launch's status carried. */
static void fold_groups_and_medians(void **state)
{
    (void)state;
    gp_row rows[5];
    gp_trace_launch_time t[5];
    counted_row(&rows[0], "k1", 1, 1, 10);
    counted_row(&rows[1], "k2", 1, 2, 20);
    counted_row(&rows[2], "k1", 1, 3, 30);
    counted_row(&rows[3], "k1", 1, 4, 50);
    counted_row(&rows[4], "k1", 2, 5, 70);            /* other process */
    for (int i = 0; i < 5; i++) {
        rows[i].profiled = 1;
        double ms = 0.001 * (i + 1);
        t[i] = (gp_trace_launch_time){ .row = i, .corr = i + 1, .ms = ms, .min_ms = ms,
                                       .max_ms = ms, .reps = 1, .profiled = 1 };
    }
    rows[2].metric[GP_M_DRAM_READ] = NAN;             /* not counted there */
    rows[3].metric[GP_M_DRAM_READ] = 3e6;
    strcpy(rows[3].status, "error: launch failed: CUDA_ERROR_LAUNCH_FAILED");
    assert_int_equal(gp_trace_fold(rows, 5, t, 5), 3);
    assert_string_equal(rows[0].kernel, "k1");
    assert_int_equal(rows[0].pid, 1);
    assert_int_equal(rows[0].launches, 3);
    assert_int_equal(rows[0].profiled, 3);
    assert_near(rows[0].metric[GP_M_FFMA], 30, 0);
    assert_near(rows[0].metric[GP_M_DRAM_READ], 2e6, 0);   /* median of 1e6, 3e6 */
    assert_near(rows[0].time_ms, 0.003, 1e-12);
    assert_near(rows[0].time_total_ms, 0.001 + 0.003 + 0.004, 1e-12);
    assert_string_equal(rows[0].status, "error: launch failed: CUDA_ERROR_LAUNCH_FAILED");
    assert_string_equal(rows[1].kernel, "k2");
    assert_int_equal(rows[1].launches, 1);
    assert_string_equal(rows[1].status, "ok");
    assert_int_equal(rows[2].pid, 2);
    assert_int_equal(gp_trace_fold(rows, 0, t, 0), 0);
}

/* --tensor-counters auto: a configuration's gated launch (tensor-path
 * counters NA, its tensor-core math counted) and the next launch, in
 * full: the row's tensor-path counters are the full launch's, the rest
 * the median of both.  A configuration with only its gated launch keeps
 * them NA, and its FLOPs too (the merge counts such rows for the warning:
 * trace_gpu.sh checks it on the GPU). */
static void fold_takes_tensor_counters_from_the_full_launch(void **state)
{
    (void)state;
    gp_row rows[3];
    gp_trace_launch_time t[4];
    counted_row(&rows[0], "hmma", 1, 1, 10);
    counted_row(&rows[1], "hmma", 1, 2, 30);
    counted_row(&rows[2], "hmma_once", 1, 3, 10);
    for (int i = 0; i < 3; i += 2) {
        for (int m = GP_M_TENSOR_FP64; m <= GP_M_TENSOR_FP8; m++)
            rows[i].metric[m] = NAN;
        rows[i].tensor_math_inst = 4096;
        gp_row_derive(&rows[i]);
    }
    rows[1].metric[GP_M_TENSOR_BF16] = 1e9;
    gp_row_derive(&rows[1]);
    for (int i = 0; i < 3; i++) {
        rows[i].profiled = 1;
        t[i] = (gp_trace_launch_time){ .row = i, .corr = i + 1, .ms = NAN, .min_ms = NAN,
                                       .max_ms = NAN, .reps = 0, .profiled = 1 };
    }
    t[3] = (gp_trace_launch_time){ .row = 0, .corr = 4, .ms = 0.5, .min_ms = 0.5,
                                   .max_ms = 0.5, .reps = 1, .profiled = 0 };
    assert_int_equal(gp_trace_fold(rows, 3, t, 4), 2);
    assert_int_equal(rows[0].launches, 3);
    assert_int_equal(rows[0].profiled, 2);
    assert_near(rows[0].metric[GP_M_TENSOR_BF16], 1e9, 0);
    assert_near(rows[0].metric[GP_M_FFMA], 20, 0);             /* median of 10, 30 */
    assert_near(rows[0].tensor_math_inst, 4096, 0);
    assert_false(gp_row_tensor_missing(&rows[0]));
    assert_near(rows[0].flop_count, 40 + 1e9, 0);
    assert_near(rows[0].time_ms, 0.5, 0);                      /* the unprofiled one */
    assert_true(gp_row_tensor_missing(&rows[1]));
    assert_true(isnan(rows[1].flop_count));
    assert_true(isnan(rows[1].metric[GP_M_TENSOR_BF16]));
    assert_near(rows[1].metric[GP_M_FFMA], 10, 0);
}

/* A part as the library writes it under --sample per-config: rows for the
 * profiled launches and each configuration's first, a graph node's row,
 * and a record per timed launch. */
static void sampled_part(void)
{
    gp_row r[5];
    gp_rm_rf(dir);                      /* this process's part alone */
    assert_int_equal(gp_mkdir_p(dir, err, sizeof err), 0);
    counted_row(&r[0], "void gemm(float*)", 300, 1, 1000);   /* A: first, profiled */
    r[0].profiled = 1;
    counted_row(&r[1], "void relu(float*)", 300, 2, 0);      /* B: first, not */
    for (int m = 0; m < GP_NMETRICS; m++)
        r[1].metric[m] = NAN;
    r[1].profiled = 0;
    snprintf(r[1].config, sizeof r[1].config, "grid=64x1x1 block=128x1x1");
    gp_row_derive(&r[1]);
    counted_row(&r[2], "void graph_k(float*)", 300, 50, 0);  /* a graph node */
    for (int m = 0; m < GP_NMETRICS; m++)
        r[2].metric[m] = NAN;
    r[2].profiled = 0;
    r[2].graph_id = 7;
    r[2].graph_node_id = 70;
    snprintf(r[2].status, sizeof r[2].status, "%s", GP_TRACE_GRAPH_STATUS);
    gp_row_derive(&r[2]);
    counted_row(&r[3], "void once(float*)", 300, 8, 500);    /* C: once, profiled */
    r[3].profiled = 1;
    counted_row(&r[4], "void once0(float*)", 300, 9, 500);   /* D: once, no record length */
    r[4].profiled = 1;
    r[4].metric[GP_M_GPU_TIME] = 7000;
    write_part("gpu-300.csv", 300, NULL, r, 5, 0);
    write_text("gpu-300.times",
               "1 0 10000 1 1\n"                    /* A's profiled launch: replayed, slow */
               "2 100 3100 2 0\n"
               "3 200 5200 1 0\n4 300 6300 1 0\n5 400 4400 1 0\n"
               "6 500 4000 2 0\n"
               "g 50 600 2600 7 70\ng 51 700 2900 7 70\ng 52 800 3200 7 70\n"
               "8 0 9000 8 1\n"
               "9 5 5 9 1\n"
               "10 0 100 77 0\n");                  /* names no row: left out */
}

static void merge_sampled(int per_launch, const char *name, gp_trace_merge_result *res)
{
    char out[160];
    sampled_part();
    snprintf(out, sizeof out, "%s/%s", top, name);
    merge(per_launch, res, out);
}

/* The default: a row per configuration, its time from the unprofiled
 * launches only, its counters from the profiled one; graph nodes apart. */
static void merge_per_config_times_unprofiled(void **state)
{
    (void)state;
    gp_trace_merge_result res;
    merge_sampled(0, "sampled.csv", &res);
    assert_int_equal(res.rows, 5);
    assert_int_equal(res.launches, 11);
    assert_int_equal(res.graph_launches, 3);
    assert_non_null(strstr(res.warning, "1 Activity records name no row"));
    long sum = 0;
    for (int i = 0; i < rf.nrows; i++)
        sum += rf.rows[i].launches;
    assert_int_equal(sum, 11);
    const gp_row *a = &rf.rows[0];
    assert_string_equal(a->kernel, "void gemm(float*)");
    assert_int_equal(a->launches, 4);
    assert_int_equal(a->profiled, 1);
    assert_int_equal(a->reps, 3);                     /* the replayed one is left out */
    assert_near(a->time_ms, 0.005, 1e-12);            /* median of 5, 6, 4 us */
    assert_near(a->time_min_ms, 0.004, 1e-12);
    assert_near(a->time_max_ms, 0.006, 1e-12);
    assert_near(a->time_total_ms, 0.015, 1e-12);
    assert_string_equal(a->time_source, "activity");
    assert_near(a->metric[GP_M_FFMA], 1000, 0);       /* the profiled launch's */
    assert_near(a->gflops, 2000 / 5000.0, 1e-9);      /* counted FLOPs / median time */
    const gp_row *b = &rf.rows[1];
    assert_int_equal(b->launches, 2);
    assert_int_equal(b->profiled, 0);
    assert_near(b->time_ms, 0.00325, 1e-12);
    assert_true(isnan(b->metric[GP_M_FFMA]));
    const gp_row *g = &rf.rows[2];
    assert_int_equal(g->launches, 3);
    assert_int_equal(g->graph_id, 7);
    assert_int_equal(g->graph_node_id, 70);
    assert_near(g->time_ms, 0.0022, 1e-12);             /* median of 2, 2.2, 2.4 us */
    assert_string_equal(g->status, GP_TRACE_GRAPH_STATUS);
    assert_true(isnan(g->metric[GP_M_FFMA]));
    const gp_row *c = &rf.rows[3];                    /* only a profiled launch */
    assert_int_equal(c->launches, 1);
    assert_near(c->time_ms, 0.009, 1e-12);
    assert_string_equal(c->time_source, "profiled-activity");
    const gp_row *d = &rf.rows[4];                    /* ... with a zero-length record */
    assert_near(d->time_ms, 0.007, 1e-12);
    assert_string_equal(d->time_source, "gpu__time_duration");
    assert_int_equal(d->reps, -1);
    assert_int_equal(res.counter_timed, 1);
    assert_non_null(strstr(gp_meta_get(&rf.meta, "launches"), "11 (3 from CUDA graphs)"));
    gp_run_file_free(&rf);
}

/* --per-launch: every launch a row, counters only on the profiled ones. */
static void merge_per_launch_rows(void **state)
{
    (void)state;
    gp_trace_merge_result res;
    merge_sampled(1, "launches.csv", &res);
    assert_int_equal(res.rows, 11);
    assert_int_equal(rf.nrows, 11);
    long corr[] = { 1, 2, 3, 4, 5, 6, 8, 9, 50, 51, 52 };
    for (int i = 0; i < 11; i++) {
        const gp_row *r = &rf.rows[i];
        assert_int_equal(r->correlation_id, corr[i]);
        assert_int_equal(r->launches, 1);
    }
    const gp_row *r = &rf.rows[0];                    /* the profiled launch */
    assert_int_equal(r->profiled, 1);
    assert_near(r->time_ms, 0.010, 1e-12);
    assert_string_equal(r->time_source, "profiled-activity");
    assert_near(r->metric[GP_M_FFMA], 1000, 0);
    r = &rf.rows[2];                                  /* another launch of gemm */
    assert_string_equal(r->kernel, "void gemm(float*)");
    assert_int_equal(r->profiled, 0);
    assert_near(r->time_ms, 0.005, 1e-12);
    assert_string_equal(r->time_source, "activity");
    assert_true(isnan(r->metric[GP_M_FFMA]));
    assert_true(isnan(r->flop_count));
    assert_string_equal(r->precision, "fp32");        /* the kernel's, from its row */
    r = &rf.rows[9];
    assert_int_equal(r->graph_id, 7);
    assert_int_equal(r->graph_node_id, 70);
    assert_near(r->time_ms, 0.0022, 1e-12);
    gp_run_file_free(&rf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(launch_row_facts),
        cmocka_unit_test(merge_joins_durations),
        cmocka_unit_test(merge_summary_folds),
        cmocka_unit_test(merge_without_parts_writes_nothing),
        cmocka_unit_test(fold_groups_and_medians),
        cmocka_unit_test(fold_takes_tensor_counters_from_the_full_launch),
        cmocka_unit_test(merge_per_config_times_unprofiled),
        cmocka_unit_test(merge_per_launch_rows),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
