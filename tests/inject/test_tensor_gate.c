/* test_tensor_gate.c - --tensor-gate on the CPU: the gated metric list
 * (tensor-path counters out, the tensor pipe's instruction count in; no
 * gate where it saves no pass), which config a launch gets (by its
 * CUfunction), and the filter's extra launch for a configuration whose
 * gated launch showed tensor instructions. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "cupti/profiler.h"
#include "inject/inject.h"

static char err[512];

/* ---- the gated list ---- */

typedef struct {
    int calls;
    int tensor_passes;          /* passes of a list with a tensor-path metric */
    int other_passes;           /* of one without                           */
    gp_metric_list seen;        /* the list it was asked about              */
} fake_passes;

/* A stand-in for CUPTI's pass count (the session builds the config). */
static int count(void *ctx, const gp_metric_list *l, char *e, size_t elen)
{
    fake_passes *f = ctx;
    f->calls++;
    f->seen = *l;
    for (int i = 0; i < l->count; i++)
        if (gp_metric_is_tensor_path(l->names[i]))
            return f->tensor_passes;
    if (f->other_passes < 0)
        snprintf(e, elen, "no config");
    return f->other_passes;
}

static int has(const gp_metric_list *l, const char *name)
{
    for (int i = 0; i < l->count; i++)
        if (strcmp(l->names[i], name) == 0)
            return 1;
    return 0;
}

static void gated_list_drops_tensor_path_adds_gate(void **state)
{
    (void)state;
    gp_metric_list full, gated;
    fake_passes f = { 0, 5, 3, { 0 } };
    assert_int_equal(gp_metric_list_parse("default", &full, err, sizeof err), 0);
    assert_int_equal(gp_tensor_gate_plan(&full, 5, &gated, count, &f, err, sizeof err), 1);
    assert_int_equal(f.calls, 1);
    assert_int_equal(gated.count, full.count - 5 + 1);
    assert_true(has(&gated, GP_TENSOR_GATE_METRIC));
    assert_true(has(&gated, "sm__sass_thread_inst_executed_op_ffma_pred_on.sum"));
    assert_true(has(&gated, "gpu__time_duration.sum"));
    for (int i = 0; i < gated.count; i++)
        assert_false(gp_metric_is_tensor_path(gated.names[i]));
    assert_true(has(&f.seen, GP_TENSOR_GATE_METRIC));   /* counted with the gate */
    assert_true(gp_metric_is_tensor_path("sm__ops_path_tensor_src_bf16_dst_fp32.sum"));
    assert_false(gp_metric_is_tensor_path(GP_TENSOR_GATE_METRIC));

    /* the same passes (or more): no gate */
    f = (fake_passes){ 0, 5, 5, { 0 } };
    assert_int_equal(gp_tensor_gate_plan(&full, 5, &gated, count, &f, err, sizeof err), 0);
    f = (fake_passes){ 0, 5, 6, { 0 } };
    assert_int_equal(gp_tensor_gate_plan(&full, 5, &gated, count, &f, err, sizeof err), 0);
    /* a count that fails: said */
    f = (fake_passes){ 0, 5, -1, { 0 } };
    assert_int_equal(gp_tensor_gate_plan(&full, 5, &gated, count, &f, err, sizeof err), -1);
    assert_string_equal(err, "no config");

    /* no tensor-path metric: no gate, nothing counted */
    assert_int_equal(gp_metric_list_parse("gpu__time_duration.sum,"
                                          "sm__sass_thread_inst_executed_op_ffma_pred_on.sum",
                                          &full, err, sizeof err), 0);
    f = (fake_passes){ 0, 5, 1, { 0 } };
    assert_int_equal(gp_tensor_gate_plan(&full, 1, &gated, count, &f, err, sizeof err), 0);
    assert_int_equal(f.calls, 0);

    /* one tensor-path metric, the gate named too: it is there once */
    assert_int_equal(gp_metric_list_parse("gpu__time_duration.sum,"
                                          "sm__ops_path_tensor_src_fp16.sum,"
                                          GP_TENSOR_GATE_METRIC, &full, err, sizeof err), 0);
    f = (fake_passes){ 0, 2, 1, { 0 } };
    assert_int_equal(gp_tensor_gate_plan(&full, 2, &gated, count, &f, err, sizeof err), 1);
    assert_int_equal(gated.count, 2);
    assert_string_equal(gated.names[0], "gpu__time_duration.sum");
    assert_string_equal(gated.names[1], GP_TENSOR_GATE_METRIC);
}

/* ---- which config a launch gets ---- */

static void config_chosen_per_function(void **state)
{
    (void)state;
    gp_tensor_gate g;
    int gemm, relu, other;              /* their addresses: CUfunctions */
    assert_int_equal(gp_tensor_gate_init(&g, NULL, 1, err, sizeof err), 0);
    assert_true(g.on);                  /* the default */
    assert_true(gp_tensor_gate_gated(&g, &gemm));
    /* a gated launch without tensor instructions: stays gated, no grant */
    assert_int_equal(gp_tensor_gate_seen(&g, &relu, 1, 0), 0);
    assert_true(gp_tensor_gate_gated(&g, &relu));
    /* not known (the gate NA): nothing learnt */
    assert_int_equal(gp_tensor_gate_seen(&g, &relu, 1, -1), 0);
    assert_true(gp_tensor_gate_gated(&g, &relu));
    /* a gated launch with tensor instructions: known, and a grant */
    assert_int_equal(gp_tensor_gate_seen(&g, &gemm, 1, 1), 1);
    assert_false(gp_tensor_gate_gated(&g, &gemm));
    assert_int_equal(gp_tensor_gate_seen(&g, &gemm, 0, 1), 0);   /* full: no grant */
    assert_int_equal(g.n, 1);                                    /* kept once */
    /* nonzero tensor-path counts on a full launch make it known too */
    assert_int_equal(gp_tensor_gate_seen(&g, &other, 0, 1), 0);
    assert_false(gp_tensor_gate_gated(&g, &other));
    assert_true(gp_tensor_gate_gated(&g, &relu));
    /* many kernels */
    static int many[300];
    for (int i = 0; i < 300; i++)
        gp_tensor_gate_seen(&g, &many[i], 1, 1);
    for (int i = 0; i < 300; i++)
        assert_false(gp_tensor_gate_gated(&g, &many[i]));
    assert_true(gp_tensor_gate_gated(&g, &relu));
    gp_tensor_gate_free(&g);

    /* off, or --sample all: every launch gets every counter */
    assert_int_equal(gp_tensor_gate_init(&g, "off", 1, err, sizeof err), 0);
    assert_false(gp_tensor_gate_gated(&g, &relu));
    assert_int_equal(gp_tensor_gate_init(&g, "on", 0, err, sizeof err), 0);
    assert_false(gp_tensor_gate_gated(&g, &relu));
    assert_int_equal(gp_tensor_gate_init(&g, "on", 3, err, sizeof err), 0);
    assert_true(gp_tensor_gate_gated(&g, &relu));
    assert_int_equal(gp_tensor_gate_init(&g, "yes", 1, err, sizeof err), -1);
    assert_non_null(strstr(err, GP_TRACE_ENV_GATE ": 'yes' is not on or off"));
}

/* ---- the filter's extra launch ---- */

static gp_trace_config_key key_of(const char *kernel, unsigned grid)
{
    gp_trace_config_key k;
    memset(&k, 0, sizeof k);
    k.func = kernel;
    k.grid[0] = grid, k.grid[1] = k.grid[2] = 1;
    k.block[0] = 128, k.block[1] = k.block[2] = 1;
    return k;
}

static int profiled(gp_trace_filter *f, const char *kernel, unsigned grid, uint32_t corr)
{
    gp_trace_config_key k = key_of(kernel, grid);
    gp_trace_pick p;
    gp_trace_filter_pick(f, kernel, &k, corr, &p);
    assert_true(p.timed);
    return p.profiled;
}

static void grant(gp_trace_filter *f, const char *kernel, unsigned grid)
{
    gp_trace_config_key k = key_of(kernel, grid);
    assert_int_equal(gp_trace_filter_grant(f, &k), 0);
}

static void filter_grants_one_more_launch(void **state)
{
    (void)state;
    gp_trace_filter f;
    /* per-config:1: the first launch, then the granted one, then none */
    assert_int_equal(gp_trace_filter_init(&f, NULL, NULL, NULL, NULL, err, sizeof err), 0);
    gp_trace_config_key never = key_of("gemm", 99);
    assert_int_equal(gp_trace_filter_grant(&f, &never), -1);    /* no table yet */
    assert_int_equal(profiled(&f, "gemm", 8, 1), 1);
    assert_int_equal(profiled(&f, "relu", 8, 2), 1);
    assert_int_equal(gp_trace_filter_grant(&f, &never), -1);    /* never picked */
    grant(&f, "gemm", 8);
    grant(&f, "gemm", 8);                                       /* one is owed, not two */
    assert_int_equal(gp_trace_filter_owed(&f), 1);
    assert_int_equal(profiled(&f, "relu", 8, 3), 0);            /* another config: no */
    assert_int_equal(profiled(&f, "gemm", 16, 4), 1);           /* a new one: its first */
    assert_int_equal(profiled(&f, "gemm", 8, 5), 1);            /* the grant */
    assert_int_equal(gp_trace_filter_owed(&f), 0);
    assert_int_equal(profiled(&f, "gemm", 8, 6), 0);
    assert_int_equal(profiled(&f, "gemm", 8, 7), 0);
    assert_int_equal(f.profiled, 4);
    /* owed to a configuration that does not launch again */
    grant(&f, "gemm", 16);
    assert_int_equal(gp_trace_filter_owed(&f), 1);
    gp_trace_filter_free(&f);

    /* per-config:2: the grant is taken by the window's second launch
     * (then with every counter), not added after it */
    assert_int_equal(gp_trace_filter_init(&f, NULL, NULL, NULL, "per-config:2", err,
                                          sizeof err), 0);
    assert_int_equal(profiled(&f, "gemm", 8, 1), 1);
    grant(&f, "gemm", 8);
    assert_int_equal(profiled(&f, "gemm", 8, 2), 1);
    assert_int_equal(gp_trace_filter_owed(&f), 0);
    assert_int_equal(profiled(&f, "gemm", 8, 3), 0);
    /* granted after the window's last: one more */
    assert_int_equal(profiled(&f, "conv", 8, 4), 1);
    assert_int_equal(profiled(&f, "conv", 8, 5), 1);
    grant(&f, "conv", 8);
    assert_int_equal(profiled(&f, "conv", 8, 6), 1);
    assert_int_equal(profiled(&f, "conv", 8, 7), 0);
    assert_int_equal(f.profiled, 5);
    gp_trace_filter_free(&f);

    /* --launch-skip 2: the skipped launches stay skipped, the grant
     * follows the first profiled one */
    assert_int_equal(gp_trace_filter_init(&f, NULL, "2", NULL, NULL, err, sizeof err), 0);
    assert_int_equal(profiled(&f, "gemm", 8, 1), 0);
    assert_int_equal(profiled(&f, "gemm", 8, 2), 0);
    assert_int_equal(profiled(&f, "gemm", 8, 3), 1);
    grant(&f, "gemm", 8);
    assert_int_equal(profiled(&f, "gemm", 8, 4), 1);
    assert_int_equal(profiled(&f, "gemm", 8, 5), 0);
    gp_trace_filter_free(&f);

    /* --launch-count caps the grant too: it stays owed */
    assert_int_equal(gp_trace_filter_init(&f, NULL, NULL, "1", NULL, err, sizeof err), 0);
    assert_int_equal(profiled(&f, "gemm", 8, 1), 1);
    grant(&f, "gemm", 8);
    assert_int_equal(profiled(&f, "gemm", 8, 2), 0);
    assert_int_equal(gp_trace_filter_owed(&f), 1);
    gp_trace_filter_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gated_list_drops_tensor_path_adds_gate),
        cmocka_unit_test(config_chosen_per_function),
        cmocka_unit_test(filter_grants_one_more_launch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
