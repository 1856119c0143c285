/* test_launch_params.c - what the injected library reads from a launch
 * API's parameters at its entry, before the driver has checked them: a
 * launch the driver will refuse (NULL config, NULL function, no attribute
 * array, an impossible attribute count) is not read, so it passes through
 * to the driver untouched (cuLaunchKernelEx(NULL, ...) once crashed the
 * traced application here); a valid one gives its shape and cluster. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>
#include <cupti_driver_cbid.h>

#include "inject/state.h"

/* As CUPTI hands them over (generated_cuda_meta.h). */
typedef struct {
    const CUlaunchConfig *config;
    CUfunction f;
    void **kernelParams;
    void **extra;
} ex_params;

typedef struct {
    CUfunction f;
    unsigned int gridDimX, gridDimY, gridDimZ;
    unsigned int blockDimX, blockDimY, blockDimZ;
    unsigned int sharedMemBytes;
    CUstream hStream;
    void **kernelParams;
    void **extra;
} classic_params;

static const CUfunction some_function = (CUfunction)(uintptr_t)0x1000;

static int read_launch(CUpti_CallbackId cbid, const void *params, gp_trace_launch *l,
                       CUstream *stream)
{
    CUfunction f = NULL;
    memset(l, 0, sizeof *l);
    return gp_inject_launch_params(cbid, params, &f, stream, l);
}

static void refused_launches_are_not_read(void **state)
{
    (void)state;
    gp_trace_launch l;
    CUstream s;
    ex_params null_config = { NULL, some_function, NULL, NULL };
    assert_int_equal(read_launch(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx, &null_config,
                                 &l, &s), -1);
    assert_int_equal(read_launch(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
                                 &null_config, &l, &s), -1);
    CUlaunchConfig no_attrs = { .gridDimX = 1, .gridDimY = 1, .gridDimZ = 1, .blockDimX = 1,
                                .blockDimY = 1, .blockDimZ = 1, .numAttrs = 3 };
    ex_params p = { &no_attrs, some_function, NULL, NULL };
    assert_int_equal(read_launch(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx, &p, &l, &s), -1);
    CUlaunchAttribute one = { .id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE };
    CUlaunchConfig too_many = no_attrs;
    too_many.attrs = &one;
    too_many.numAttrs = 1u << 30;       /* read past `one`, it would crash */
    p.config = &too_many;
    assert_int_equal(read_launch(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx, &p, &l, &s), -1);
    ex_params null_function = { &no_attrs, NULL, NULL, NULL };
    no_attrs.numAttrs = 0;
    assert_int_equal(read_launch(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx, &null_function,
                                 &l, &s), -1);
    classic_params classic = { .f = NULL, .gridDimX = 1, .blockDimX = 1 };
    assert_int_equal(read_launch(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, &classic, &l, &s), -1);
    assert_int_equal(read_launch(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, NULL, &l, &s), -1);
    assert_int_equal(read_launch(CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2, &classic, &l, &s), -1);
}

static void valid_launches_give_their_shape(void **state)
{
    (void)state;
    gp_trace_launch l;
    CUstream s = NULL, mine = (CUstream)(uintptr_t)0x2000;
    CUlaunchAttribute attrs[2] = {
        { .id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE },
        { .id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION },
    };
    attrs[1].value.clusterDim.x = 2;
    attrs[1].value.clusterDim.y = 1;
    attrs[1].value.clusterDim.z = 1;
    CUlaunchConfig c = { .gridDimX = 132, .gridDimY = 2, .gridDimZ = 1, .blockDimX = 128,
                         .blockDimY = 1, .blockDimZ = 1, .sharedMemBytes = 4096,
                         .hStream = mine, .attrs = attrs, .numAttrs = 2 };
    ex_params p = { &c, some_function, NULL, NULL };
    assert_int_equal(read_launch(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx, &p, &l, &s), 0);
    assert_true(s == mine);
    assert_int_equal(l.grid[0], 132);
    assert_int_equal(l.grid[1], 2);
    assert_int_equal(l.block[0], 128);
    assert_int_equal(l.dyn_smem, 4096);
    assert_int_equal(l.cluster[0], 2);
    classic_params classic = { .f = some_function, .gridDimX = 7, .gridDimY = 1,
                               .gridDimZ = 1, .blockDimX = 64, .blockDimY = 2,
                               .blockDimZ = 1, .sharedMemBytes = 0, .hStream = mine };
    assert_int_equal(read_launch(CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel, &classic,
                                 &l, &s), 0);
    assert_int_equal(l.grid[0], 7);
    assert_int_equal(l.block[1], 2);
    assert_int_equal(l.cluster[0], 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(refused_launches_are_not_read),
        cmocka_unit_test(valid_launches_give_their_shape),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
