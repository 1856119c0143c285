/* test_row.c - the column table and the numbers derived from counters. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "near.h"
#include "data/row.h"

/* A row whose counters describe 1000 FFMA, 10 FADD, 20 FMUL, no FP64. */
static void fp32_row(gp_row *r)
{
    gp_row_init(r);
    double *m = r->metric;
    m[GP_M_FFMA] = 1000; m[GP_M_FADD] = 10; m[GP_M_FMUL] = 20;
    m[GP_M_DFMA] = 0; m[GP_M_DADD] = 0; m[GP_M_DMUL] = 0;
    m[GP_M_DRAM_READ] = 300; m[GP_M_DRAM_WRITE] = 100;
    m[GP_M_L2_BYTES] = 2030;
    m[GP_M_GPU_TIME] = 500;                       /* ns */
    m[GP_M_SMEM_CONF_LD] = 3; m[GP_M_SMEM_CONF_ST] = 1;
    m[GP_M_SMEM_WAVE_LD] = 12; m[GP_M_SMEM_WAVE_ST] = 4;
    r->m = 10; r->n = 10; r->k = 10;              /* 2mnk = 2000 */
}

static void init_sets_every_number_na(void **state)
{
    (void)state;
    gp_row r;
    memset(&r, 0x5a, sizeof r);
    gp_row_init(&r);
    for (int i = 0; i < gp_ncolumns; i++) {
        const gp_column *c = &gp_columns[i];
        const char *p = (const char *)&r + c->offset;
        switch (c->type) {
        case GP_COL_DBL:  assert_true(isnan(*(const double *)p)); break;
        case GP_COL_LONG: assert_int_equal(*(const long *)p, -1); break;
        case GP_COL_INT:  assert_int_equal(*(const int *)p, -1); break;
        case GP_COL_STR:  assert_string_equal(p, ""); break;
        }
    }
    assert_int_equal(r.verified, -1);
}

static void derive_fp32_arithmetic(void **state)
{
    (void)state;
    gp_row r;
    fp32_row(&r);
    gp_row_derive(&r);
    assert_near(r.flop_count, 2030, 0);           /* 2*1000+10+20 */
    assert_near(r.ai_dram, 2000.0 / 400, 1e-12);  /* 2mnk, not counted */
    assert_near(r.ai_l2, 2000.0 / 2030, 1e-12);
    assert_near(r.gflops_counted, 2030.0 / 500, 1e-12);
    assert_near(r.bank_conflict_ratio, 0.25, 1e-12);
}

static void derive_adds_fp64_flops(void **state)
{
    (void)state;
    gp_row r;
    fp32_row(&r);
    r.metric[GP_M_DFMA] = 100; r.metric[GP_M_DADD] = 1; r.metric[GP_M_DMUL] = 2;
    gp_row_derive(&r);
    assert_near(r.flop_count, 2030 + 203, 0);
}

static void derive_fp64_triple_all_na_is_absent(void **state)
{
    (void)state;
    gp_row r;
    fp32_row(&r);
    r.metric[GP_M_DFMA] = r.metric[GP_M_DADD] = r.metric[GP_M_DMUL] = NAN;
    gp_row_derive(&r);
    assert_near(r.flop_count, 2030, 0);
    assert_false(isnan(r.ai_dram));
}

static void derive_fp64_triple_partly_na_gives_na(void **state)
{
    (void)state;
    gp_row r;
    fp32_row(&r);
    r.metric[GP_M_DADD] = NAN;
    gp_row_derive(&r);
    assert_true(isnan(r.flop_count));
    assert_false(isnan(r.ai_dram));               /* 2mnk needs no counter */
    assert_true(isnan(r.gflops_counted));
    assert_false(isnan(r.bank_conflict_ratio));   /* does not need FLOPs */
}

static void derive_fp32_counter_na_gives_na(void **state)
{
    (void)state;
    gp_row r;
    fp32_row(&r);
    r.metric[GP_M_FMUL] = NAN;
    gp_row_derive(&r);
    assert_true(isnan(r.flop_count));
    assert_true(isnan(r.gflops_counted));
}

static void derive_na_inputs_propagate(void **state)
{
    (void)state;
    gp_row r;
    fp32_row(&r);
    r.metric[GP_M_DRAM_WRITE] = NAN;
    r.metric[GP_M_L2_BYTES] = NAN;
    r.metric[GP_M_GPU_TIME] = NAN;
    r.metric[GP_M_SMEM_WAVE_ST] = NAN;
    gp_row_derive(&r);
    assert_near(r.flop_count, 2030, 0);
    assert_true(isnan(r.ai_dram));
    assert_true(isnan(r.ai_l2));
    assert_true(isnan(r.gflops_counted));
    assert_true(isnan(r.bank_conflict_ratio));
}

static void derive_zero_denominators_give_na(void **state)
{
    (void)state;
    gp_row r;
    fp32_row(&r);
    r.metric[GP_M_DRAM_READ] = r.metric[GP_M_DRAM_WRITE] = 0;
    r.metric[GP_M_L2_BYTES] = 0;
    r.metric[GP_M_GPU_TIME] = 0;
    r.metric[GP_M_SMEM_WAVE_LD] = r.metric[GP_M_SMEM_WAVE_ST] = 0;
    gp_row_derive(&r);
    assert_true(isnan(r.ai_dram));
    assert_true(isnan(r.ai_l2));
    assert_true(isnan(r.gflops_counted));
    assert_true(isnan(r.bank_conflict_ratio));
}

static void derive_no_counters_all_na(void **state)
{
    (void)state;
    gp_row r;
    gp_row_init(&r);
    gp_row_derive(&r);
    assert_true(isnan(r.flop_count));
    assert_true(isnan(r.ai_dram));
    assert_true(isnan(r.bank_conflict_ratio));
}


/* cuBLAS TF32 at 4096^3, as ncu measured it on an H100: the tensor path
 * counts 2*4096^3 math ops; a few SIMT FLOPs of the epilogue beside it. */
static void derive_counts_tensor_flops(void **state)
{
    (void)state;
    gp_row r;
    fp32_row(&r);
    r.metric[GP_M_TENSOR_TF32] = 2.0 * 4096 * 4096 * 4096;
    r.metric[GP_M_TENSOR_FP64] = 0;
    r.metric[GP_M_TENSOR_BF16] = r.metric[GP_M_TENSOR_FP16] = r.metric[GP_M_TENSOR_FP8] = 0;
    gp_row_derive(&r);
    assert_near(r.flop_count, 2030 + 2.0 * 4096 * 4096 * 4096, 0);
    assert_near(r.ai_dram, 2000.0 / 400, 1e-12);  /* a shape: still 2mnk */
}

static void derive_fp64_tensor_adds_to_simt(void **state)
{
    (void)state;
    gp_row r;
    fp32_row(&r);
    r.metric[GP_M_DFMA] = 100; r.metric[GP_M_DADD] = 0; r.metric[GP_M_DMUL] = 0;
    r.metric[GP_M_TENSOR_FP64] = 5000;
    gp_row_derive(&r);
    assert_near(r.flop_count, 2030 + 200 + 5000, 0);
    /* the FP64 triple absent, the tensor counter present: still counted */
    r.metric[GP_M_DFMA] = r.metric[GP_M_DADD] = r.metric[GP_M_DMUL] = NAN;
    gp_row_derive(&r);
    assert_near(r.flop_count, 2030 + 5000, 0);
}

/* A traced launch: no GEMM shape, so intensity and GFLOP/s use the
 * counted FLOPs, and the precision is the largest FLOP class. */
static void derive_trace_row_uses_counted_flops(void **state)
{
    (void)state;
    gp_row r;
    fp32_row(&r);
    r.m = r.n = r.k = -1;
    r.metric[GP_M_TENSOR_BF16] = 1e6;
    r.time_ms = 0.002;                            /* 2 us */
    gp_row_derive(&r);
    assert_true(isnan(r.flop_2mnk));
    assert_near(r.flop_count, 2030 + 1e6, 0);
    assert_near(r.ai_dram, (2030 + 1e6) / 400, 1e-9);
    assert_near(r.ai_l2, (2030 + 1e6) / 2030, 1e-9);
    assert_near(r.gflops, (2030 + 1e6) / 2000.0, 1e-9);   /* FLOP per ns */
    assert_string_equal(r.precision, "bf16");
}

/* --tensor-counters auto.  A gated launch with no tensor-core math has
 * its tensor-path counters 0 (set by the library) and counts as any row;
 * one with some has them all NA: its FLOPs are unknown, not its SIMT
 * ones, and it names no precision.  A folded row with the full launch's
 * counters beside the gated one's count is whole again. */
static void derive_tensor_math_without_counters_is_na(void **state)
{
    (void)state;
    gp_row r;
    fp32_row(&r);
    r.m = r.n = r.k = -1;
    r.time_ms = 0.002;
    r.tensor_math_inst = 0;
    gp_row_derive(&r);
    assert_false(gp_row_tensor_missing(&r));
    assert_near(r.flop_count, 2030, 0);
    assert_string_equal(r.precision, "fp32");

    fp32_row(&r);
    r.m = r.n = r.k = -1;
    r.time_ms = 0.002;
    r.tensor_math_inst = 4325376;
    for (int m = GP_M_TENSOR_FP64; m <= GP_M_TENSOR_FP8; m++)
        r.metric[m] = NAN;
    gp_row_derive(&r);
    assert_true(gp_row_tensor_missing(&r));
    assert_true(isnan(r.flop_count));
    assert_true(isnan(r.gflops));
    assert_true(isnan(r.ai_dram));
    assert_string_equal(r.precision, "");

    r.metric[GP_M_TENSOR_BF16] = 1.77167e10;        /* the next launch's */
    r.metric[GP_M_TENSOR_FP64] = r.metric[GP_M_TENSOR_TF32] = r.metric[GP_M_TENSOR_FP16] = 0;
    gp_row_derive(&r);                              /* fp8 not in the list: fine */
    assert_false(gp_row_tensor_missing(&r));
    assert_near(r.flop_count, 2030 + 1.77167e10, 0);
    assert_string_equal(r.precision, "bf16");

    fp32_row(&r);                                   /* a launch that took every counter */
    for (int m = GP_M_TENSOR_FP64; m <= GP_M_TENSOR_FP8; m++)
        r.metric[m] = NAN;
    gp_row_derive(&r);                              /* a list without them: SIMT only */
    assert_false(gp_row_tensor_missing(&r));
    assert_near(r.flop_count, 2030, 0);
}

static void derive_keeps_runner_gflops_and_precision(void **state)
{
    (void)state;
    gp_row r;
    fp32_row(&r);
    strcpy(r.precision, "tf32");
    r.gflops = 123;
    r.time_ms = 1;
    r.metric[GP_M_DFMA] = 1e9; r.metric[GP_M_DADD] = 0; r.metric[GP_M_DMUL] = 0;
    gp_row_derive(&r);
    assert_near(r.gflops, 123, 0);
    assert_near(r.flop_2mnk, 2000, 0);
    assert_string_equal(r.precision, "tf32");
    /* an empty precision is the dominant class, FP64 here */
    r.precision[0] = '\0';
    gp_row_derive(&r);
    assert_string_equal(r.precision, "fp64");
    /* nothing counted: stays empty */
    gp_row_init(&r);
    gp_row_derive(&r);
    assert_string_equal(r.precision, "");
}

static void long_kernel_names_keep_identity(void **state)
{
    (void)state;
    static char a[3000], b[3000];
    memset(a, 'x', sizeof a - 1);
    memcpy(b, a, sizeof b);
    b[2990] = 'y';                                /* differs past the cut */
    gp_row ra, rb;
    gp_row_init(&ra);
    gp_row_init(&rb);
    gp_row_set_kernel(&ra, a);
    gp_row_set_kernel(&rb, b);
    assert_int_equal(strlen(ra.kernel), GP_KERNEL_NAME_MAX - 1);
    assert_memory_equal(ra.kernel, a, GP_KERNEL_NAME_MAX - 21);
    assert_memory_equal(ra.kernel + GP_KERNEL_NAME_MAX - 21, "...#", 4);
    assert_string_not_equal(ra.kernel, rb.kernel);
    gp_row_set_kernel(&ra, "void f<int, 2>(float*, int)");
    assert_string_equal(ra.kernel, "void f<int, 2>(float*, int)");
}

static void labels_are_short_and_telling(void **state)
{
    (void)state;
    static const char *const cases[][2] = {
        { "wide_tile", "wide_tile" },
        { "ffma_chain(float*, int)", "ffma_chain" },
        { "void ffma_chain<4>(float*, int)", "ffma_chain<4>" },
        { "void cutlass::Kernel2<cutlass_80_simt_sgemm_256x128_8x4_nn_align1>"
          "(cutlass_80_simt_sgemm_256x128_8x4_nn_align1::Params)",
          "cutlass_80_simt_sgemm_256x128_8x4_nn_align1" },
        { "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
          "at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, "
          "at::detail::Array<char*, 1>)", "vectorized_elementwise_kernel" },
        { "void (anonymous namespace)::softmax_warp_forward<float, float, float, 10>"
          "(float*, float const*, int)", "softmax_warp_forward" },
        { "sm90_xmma_gemm_f32f32_tf32f32_f32_nn_n_tilesize128x128x32_kernel",
          "sm90_xmma_gemm_f32f32_tf32f32_f32_nn_n_tilesize128x128x32_kernel" },
        /* the function's own name, though an argument's is longer (PyTorch
         * 2.11's Adam, traced on the H100: it was labelled by its argument) */
        { "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::"
          "(anonymous namespace)::TensorListScalarListMetadata<float, 1>, at::native::"
          "(anonymous namespace)::BinaryOpScalarListFunctor<float, 1, 1, 0>, std::divides<float> >"
          "(at::native::(anonymous namespace)::TensorListScalarListMetadata<float, 1>)",
          "multi_tensor_apply_kernel" },
        { "void at::native::reduce_kernel<128, 4, at::native::ReduceOp<float, "
          "at::native::func_wrapper_t<float, at::native::sum_functor<float, float, float>"
          "::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, float, 4, 4> >"
          "(at::native::ReduceOp<float, at::native::func_wrapper_t<float, float> >)",
          "reduce_kernel" },
        /* a wrapper's generic name gives way to its argument */
        { "void cutlass::device_kernel<cutlass::gemm::kernel::GemmUniversal<cute::tuple<int, int, int>, "
          "cutlass::gemm::collective::CollectiveMma_sm90_tf32> >(cutlass::gemm::kernel::Params)",
          "CollectiveMma_sm90_tf32" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char out[96];
        gp_kernel_label(cases[i][0], out, sizeof out);
        assert_string_equal(out, cases[i][1]);
    }
    char small[8];
    gp_kernel_label("wide_tile", small, sizeof small);
    assert_string_equal(small, "wide_ti");
}

/* The word that tells a kernel from others of its label: one none of them
 * has; else one the first of them lacks; else, where only numbers differ,
 * the first token that does; none where the label is its own; a second
 * copy of its own name is not another kernel. */
static const char *nth(const void *names, int j)
{
    return ((const char *const *)names)[j];
}

static void kernels_told_apart(void **state)
{
    (void)state;
#define MTA(a, b) "void ns::multi_tensor_apply_kernel<ns::" a ", ns::" b ">(ns::" a ")"
    const char *const k[] = {
        MTA("ListMeta<1>", "BinaryFunctor<float>, std::plus<float>"),
        MTA("ListMeta<1>", "BinaryFunctor<float>, std::multiplies<float>"),
        MTA("ListMeta<3>", "PointwiseFunctor<float>, std::multiplies<float>"),
        "void ns::other_kernel_with_a_long_enough_name<float>(float*)",
        "void ns::tile_kernel<128, 4, ns::ReduceOp<float, ns::sum_functor<float> > >(ns::Op)",
        "void ns::tile_kernel<256, 2, ns::ReduceOp<float, ns::sum_functor<float> > >(ns::Op)",
    };
#undef MTA
    const int n = (int)(sizeof k / sizeof k[0]);
    char w[64];
    gp_kernel_tell_apart(nth, k, n, 0, w, sizeof w);
    assert_string_equal(w, "<plus>");
    gp_kernel_tell_apart(nth, k, n, 1, w, sizeof w);    /* each word is in another */
    assert_string_equal(w, "<multiplies>");             /* one the first other lacks */
    gp_kernel_tell_apart(nth, k, n, 2, w, sizeof w);
    assert_string_equal(w, "<PointwiseFunctor>");
    gp_kernel_tell_apart(nth, k, n, 3, w, sizeof w);
    assert_string_equal(w, "");
    gp_kernel_tell_apart(nth, k, n, 4, w, sizeof w);    /* only numbers differ */
    assert_string_equal(w, "<128>");
    gp_kernel_tell_apart(nth, k, n, 5, w, sizeof w);
    assert_string_equal(w, "<256>");
    const char *const twice[] = { k[0], k[0] };
    gp_kernel_tell_apart(nth, twice, 2, 0, w, sizeof w);
    assert_string_equal(w, "");
}

static void shape_na_without_gemm(void **state)
{
    (void)state;
    gp_row r;
    gp_row_init(&r);
    char s[32];
    gp_row_shape(&r, s, sizeof s);
    assert_string_equal(s, "NA");
    r.m = 8; r.n = 4; r.k = 2;
    gp_row_shape(&r, s, sizeof s);
    assert_string_equal(s, "8x4x2");
}

static void columns_names_unique(void **state)
{
    (void)state;
    for (int i = 0; i < gp_ncolumns; i++) {
        assert_non_null(gp_columns[i].name);
        assert_true(gp_columns[i].name[0] != '\0');
        assert_null(strpbrk(gp_columns[i].name, ",\"\n #"));
        for (int j = i + 1; j < gp_ncolumns; j++)
            assert_string_not_equal(gp_columns[i].name, gp_columns[j].name);
        assert_int_equal(gp_column_index(gp_columns[i].name), i);
    }
    assert_int_equal(gp_column_index("no_such_column"), -1);
    assert_true(gp_ncolumns <= 128);              /* gp_run_file.has_column */
}

static void columns_hold_every_metric_at_its_slot(void **state)
{
    (void)state;
    for (int m = 0; m < GP_NMETRICS; m++) {
        int i = gp_column_index(gp_metric_names[m]);
        assert_true(i >= 0);
        assert_int_equal(gp_columns[i].type, GP_COL_DBL);
        assert_int_equal(gp_columns[i].offset,
                         offsetof(gp_row, metric) + (size_t)m * sizeof(double));
    }
    assert_string_equal(gp_metric_names[GP_M_DRAM_READ], "dram__bytes_read.sum");
}

/* The CSV header order is part of the file format. */
static void columns_in_documented_order(void **state)
{
    (void)state;
    static const char *const head[] = {
        "kernel", "precision", "config", "m", "n", "k", "alpha", "beta",
        "time_ms", "time_min_ms", "time_max_ms", "reps", "sm_clock_mhz", "gflops",
        "pct_cublas", "verified", "max_rel_err", "rel_err_fro", "tolerance",
        "status", "grid_blocks", "block_threads", "regs_per_thread",
        "local_bytes_per_thread", "smem_per_block", "occupancy_theoretical",
        "occupancy_limiter", "spill_store_bytes", "spill_load_bytes",
    };
    static const char *const tail[] = {
        "flop_count", "flop_2mnk", "ai_dram", "ai_l2", "gflops_counted",
        "bank_conflict_ratio",
        "ranks", "rank", "grid", "dist_block", "panel", "comm", "compute_ms",
        "comm_ms", "transfer_ms", "gflops_with_transfers", "efficiency",
        "verify_scope", "pid", "correlation_id", "launches", "time_total_ms",
        "sustained_ms", "power_w", "energy_j", "ref_time_ms", "comm_total_ms",
        "graph_id", "graph_node_id", "profiled", "time_source", "tensor_math_inst",
    };
    int nh = (int)(sizeof head / sizeof head[0]);
    int nt = (int)(sizeof tail / sizeof tail[0]);
    assert_int_equal(gp_ncolumns, nh + GP_NMETRICS + nt);
    for (int i = 0; i < nh; i++)
        assert_string_equal(gp_columns[i].name, head[i]);
    for (int m = 0; m < GP_NMETRICS; m++)
        assert_string_equal(gp_columns[nh + m].name, gp_metric_names[m]);
    for (int i = 0; i < nt; i++)
        assert_string_equal(gp_columns[nh + GP_NMETRICS + i].name, tail[i]);
}

/* Offsets, types and sizes agree with the struct (a typo in the table would
 * write one field's bytes into another). */
static void columns_types_match_struct(void **state)
{
    (void)state;
    const gp_column *c;
    c = &gp_columns[gp_column_index("kernel")];
    assert_int_equal(c->type, GP_COL_STR);
    assert_int_equal(c->size, sizeof ((gp_row *)0)->kernel);
    c = &gp_columns[gp_column_index("status")];
    assert_int_equal(c->offset, offsetof(gp_row, status));
    assert_int_equal(c->size, sizeof ((gp_row *)0)->status);
    c = &gp_columns[gp_column_index("reps")];
    assert_int_equal(c->type, GP_COL_LONG);
    assert_int_equal(c->offset, offsetof(gp_row, reps));
    c = &gp_columns[gp_column_index("verified")];
    assert_int_equal(c->type, GP_COL_INT);
    assert_int_equal(c->offset, offsetof(gp_row, verified));
    c = &gp_columns[gp_column_index("bank_conflict_ratio")];
    assert_int_equal(c->offset, offsetof(gp_row, bank_conflict_ratio));
    for (int i = 0; i < gp_ncolumns; i++) {
        c = &gp_columns[i];
        size_t sz = c->type == GP_COL_STR ? c->size
                  : c->type == GP_COL_DBL ? sizeof(double)
                  : c->type == GP_COL_LONG ? sizeof(long) : sizeof(int);
        assert_true(sz > 0);
        assert_true(c->offset + sz <= sizeof(gp_row));
        /* no two columns overlap */
        for (int j = 0; j < gp_ncolumns; j++)
            if (j != i)
                assert_true(gp_columns[j].offset < c->offset ||
                            gp_columns[j].offset >= c->offset + sz);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(init_sets_every_number_na),
        cmocka_unit_test(derive_fp32_arithmetic),
        cmocka_unit_test(derive_adds_fp64_flops),
        cmocka_unit_test(derive_fp64_triple_all_na_is_absent),
        cmocka_unit_test(derive_fp64_triple_partly_na_gives_na),
        cmocka_unit_test(derive_fp32_counter_na_gives_na),
        cmocka_unit_test(derive_na_inputs_propagate),
        cmocka_unit_test(derive_zero_denominators_give_na),
        cmocka_unit_test(derive_no_counters_all_na),
        cmocka_unit_test(derive_counts_tensor_flops),
        cmocka_unit_test(derive_fp64_tensor_adds_to_simt),
        cmocka_unit_test(derive_trace_row_uses_counted_flops),
        cmocka_unit_test(derive_tensor_math_without_counters_is_na),
        cmocka_unit_test(derive_keeps_runner_gflops_and_precision),
        cmocka_unit_test(long_kernel_names_keep_identity),
        cmocka_unit_test(labels_are_short_and_telling),
        cmocka_unit_test(kernels_told_apart),
        cmocka_unit_test(shape_na_without_gemm),
        cmocka_unit_test(columns_names_unique),
        cmocka_unit_test(columns_hold_every_metric_at_its_slot),
        cmocka_unit_test(columns_in_documented_order),
        cmocka_unit_test(columns_types_match_struct),
    };
    return cmocka_run_group_tests_name("row", tests, NULL, NULL);
}
