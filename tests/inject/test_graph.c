/* test_graph.c - a CUDA graph's kernels as the injected library sees them:
 * only Activity API records (no launch callback).  Each graph node gets
 * one row, the first time a record of it arrives, with its launch shape
 * from the record, its graph and node ids, NA counters and the reason in
 * status; a node whose kernel does not match --kernel-regex gets none. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inject/state.h"

static char top[] = "/tmp/gp-inject-graph-XXXXXX";
static char err[512];

static int setup(void **state)
{
    (void)state;
    return mkdtemp(top) && gp_inject_guard_init() == 0 ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    gp_rm_rf(top);
    return 0;
}

static CUpti_ActivityKernel10 record(const char *name, uint32_t graph, uint64_t node,
                                     uint32_t corr)
{
    CUpti_ActivityKernel10 k;
    memset(&k, 0, sizeof k);
    k.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
    k.name = name;
    k.gridX = 32, k.gridY = 2, k.gridZ = 1;
    k.blockX = 256, k.blockY = 1, k.blockZ = 1;
    k.registersPerThread = 40;
    k.staticSharedMemory = 1024;
    k.dynamicSharedMemory = 2048;
    k.localMemoryPerThread = 0;
    k.graphId = graph;
    k.graphNodeId = node;
    k.correlationId = corr;
    return k;
}

static void graph_nodes_get_one_row_each(void **state)
{
    (void)state;
    char path[128];
    snprintf(path, sizeof path, "%s/host-9.csv", top);
    gp_inj.part = gp_inject_fopen(path);
    assert_non_null(gp_inj.part);
    gp_csv_write_header(gp_inj.part);
    gp_inj.pid = 9;
    gp_inj.rank[0] = '\0';
    assert_int_equal(gp_trace_filter_init(&gp_inj.filter, "axpy|spin", NULL, NULL, NULL,
                                          err, sizeof err), 0);
    /* _Z4axpyPfPKffi: void axpy(float*, float const*, float, int) */
    CUpti_ActivityKernel10 a = record("_Z4axpyPfPKffi", 3, 77, 500);
    assert_int_equal(gp_inject_graph_node(&a), 1);
    a.correlationId = 501;                      /* the node again, next replay */
    assert_int_equal(gp_inject_graph_node(&a), 1);
    CUpti_ActivityKernel10 b = record("_Z4spinPfi", 3, 78, 500);
    assert_int_equal(gp_inject_graph_node(&b), 1);
    CUpti_ActivityKernel10 c = record("_Z4relui", 3, 79, 500);
    assert_int_equal(gp_inject_graph_node(&c), 0);     /* the regex: not traced */
    assert_int_equal(gp_inject_graph_node(&c), 0);
    assert_int_equal(gp_inject_fclose(gp_inj.part), 0);
    gp_inj.part = NULL;
    gp_trace_filter_free(&gp_inj.filter);

    gp_run_file f;
    assert_int_equal(gp_csv_read(path, &f, err, sizeof err), 0);
    assert_int_equal(f.nrows, 2);
    const gp_row *r = &f.rows[0];
    assert_string_equal(r->kernel, "axpy(float*, float const*, float, int)");
    assert_string_equal(r->config, "grid=32x2x1 block=256x1x1");
    assert_int_equal(r->graph_id, 3);
    assert_int_equal(r->graph_node_id, 77);
    assert_int_equal(r->correlation_id, 500);   /* its first graph launch */
    assert_int_equal(r->profiled, 0);
    assert_int_equal(r->pid, 9);
    assert_true(isnan(r->metric[GP_M_FFMA]));
    assert_true(isnan(r->occupancy_theoretical));  /* no CUfunction to ask */
    assert_true(fabs(r->regs_per_thread - 40) < 1e-9);
    assert_true(fabs(r->smem_per_block - 3072) < 1e-9);
    assert_string_equal(r->status, GP_TRACE_GRAPH_STATUS);
    assert_int_equal(f.rows[1].graph_node_id, 78);
    gp_run_file_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(graph_nodes_get_one_row_each),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
