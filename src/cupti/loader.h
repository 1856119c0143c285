/* loader.h - libcupti and libcuda, opened with dlopen (private to the
 * profiler files).  gemmprof links neither: a machine without the driver or
 * without CUPTI must still start and run the CPU commands.  The CUPTI
 * headers are included for their types only; every call goes through the
 * function pointers below, typed from the headers' own prototypes.
 *
 * cupti_profiler_host.h includes <string> (C++), so files including this
 * header are compiled with -Isrc/compat, where an empty `string` lives. */
#ifndef GP_CUPTI_LOADER_H
#define GP_CUPTI_LOADER_H

#include <stddef.h>
#include <string.h>
#include <cuda.h>
#include <cupti_result.h>
#include <cupti_target.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_profiler_host.h>
#include <cupti_callbacks.h>
#include <cupti_activity.h>

/* Every CUPTI entry point gemmprof calls. */
#define GP_CUPTI_FUNCS(X)                           \
    X(cuptiGetResultString)                         \
    X(cuptiProfilerInitialize)                      \
    X(cuptiProfilerDeInitialize)                    \
    X(cuptiProfilerDeviceSupported)                 \
    X(cuptiProfilerGetCounterAvailability)          \
    X(cuptiDeviceGetChipName)                       \
    X(cuptiProfilerHostInitialize)                  \
    X(cuptiProfilerHostDeinitialize)                \
    X(cuptiProfilerHostGetSupportedChips)           \
    X(cuptiProfilerHostGetBaseMetrics)              \
    X(cuptiProfilerHostGetSubMetrics)               \
    X(cuptiProfilerHostGetMetricProperties)         \
    X(cuptiProfilerHostConfigAddMetrics)            \
    X(cuptiProfilerHostGetConfigImageSize)          \
    X(cuptiProfilerHostGetConfigImage)              \
    X(cuptiProfilerHostGetNumOfPasses)              \
    X(cuptiProfilerHostEvaluateToGpuValues)         \
    X(cuptiRangeProfilerEnable)                     \
    X(cuptiRangeProfilerDisable)                    \
    X(cuptiRangeProfilerSetConfig)                  \
    X(cuptiRangeProfilerStart)                      \
    X(cuptiRangeProfilerStop)                       \
    X(cuptiRangeProfilerDecodeData)                 \
    X(cuptiRangeProfilerGetCounterDataSize)         \
    X(cuptiRangeProfilerCounterDataImageInitialize) \
    X(cuptiRangeProfilerGetCounterDataInfo)         \
    /* gemmprof trace: callbacks and the Activity API */ \
    X(cuptiSubscribe)                               \
    X(cuptiUnsubscribe)                             \
    X(cuptiEnableCallback)                          \
    X(cuptiEnableDomain)                            \
    X(cuptiActivityEnable)                          \
    X(cuptiActivityRegisterCallbacks)               \
    X(cuptiActivityFlushAll)                        \
    X(cuptiActivityGetNextRecord)                   \
    X(cuptiGetDeviceId)

/* The few driver calls needed before CUPTI may be touched (CUPTI segfaults
 * without a driver or device, docs/cupti.md section 4), and the static
 * facts of a traced launch (gemmprof trace). */
#define GP_CUDRV_FUNCS(X)                       \
    X(cuInit)                                   \
    X(cuDeviceGetCount)                         \
    X(cuCtxGetCurrent)                          \
    X(cuCtxGetDevice)                           \
    X(cuGetErrorName)                           \
    X(cuDeviceGetAttribute)                     \
    X(cuDeviceGetName)                          \
    X(cuDriverGetVersion)                       \
    X(cuFuncGetAttribute)                       \
    X(cuOccupancyMaxActiveBlocksPerMultiprocessor) \
    X(cuStreamIsCapturing)                      \
    X(cuKernelGetFunction)                      \
    X(cuFuncGetName)                            \
    X(cuModuleLoadData)                         \
    X(cuModuleGetFunction)                      \
    X(cuModuleUnload)                           \
    X(cuMemAlloc)                               \
    X(cuMemFree)                                \
    X(cuStreamCreate)                           \
    X(cuStreamDestroy)                          \
    X(cuLaunchKernel)

#define GP_FNPTR(name) __typeof__(name) *name;
typedef struct {
    char path[512];          /* the file that was opened */
    GP_CUPTI_FUNCS(GP_FNPTR)
} gp_cupti_api;

typedef struct {
    GP_CUDRV_FUNCS(GP_FNPTR)
} gp_cudrv_api;
#undef GP_FNPTR

/* Open libcupti once per process (later calls return the same table).
 * NULL with a one-line reason and fix in `err`. */
const gp_cupti_api *gp_cupti_load(char *err, size_t errlen);
/* Open libcuda.so.1 once per process.  NULL with a reason in `err`. */
const gp_cudrv_api *gp_cudrv_load(char *err, size_t errlen);

/* Declare a CUPTI parameter struct zeroed, with its structSize set
 * (`T v = { T_STRUCT_SIZE }` trips -Wmissing-field-initializers). */
#define GP_CUPTI_PARAMS(T, v) \
    T v;                      \
    memset(&v, 0, sizeof v);  \
    v.structSize = T##_STRUCT_SIZE

/* "call: reason and fix" for a failed CUPTI call, in err. */
void gp_cupti_error(const gp_cupti_api *api, const char *call, CUptiResult r,
                    char *err, size_t errlen);

#endif
