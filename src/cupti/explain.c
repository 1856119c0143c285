/* explain.c - one line per reason counters are unavailable, each
 * naming the fix.  Codes are CUPTI's (cupti_result.h, CUDA 13.0) plus
 * gemmprof's pseudo-codes for the steps before CUPTI; kept as plain numbers
 * so this file needs neither CUPTI nor a GPU (tests/test_profiler.c). */
#include <stdio.h>
#include "profiler.h"
#include "util/util.h"

static const struct { int code; const char *name, *why; } reasons[] = {
    { GP_PROF_LIBCUPTI_MISSING, NULL,
      "libcupti.so.13 not found (install the CUDA toolkit's CUPTI or set LD_LIBRARY_PATH)" },
    { GP_PROF_DRIVER_MISSING, NULL,
      GP_NO_DRIVER ": counters need a GPU machine" },
    { GP_PROF_NO_DEVICE, NULL,
      "no CUDA device visible (check nvidia-smi and CUDA_VISIBLE_DEVICES)" },
    { 35, "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES",
      "GPU performance counters are restricted to admin users (ERR_NVGPUCTRPERM): "
      "run as root or with CAP_PERFMON, or set options nvidia "
      "NVreg_RestrictProfilingToAdminUsers=0" },
    { 40, "CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES",
      "profiling is not enabled for this vGPU: the hypervisor admin must "
      "enable profiling for the VM" },
    { 39, "CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED",
      "another profiler (ncu/nsys) holds the counters: run gemmprof outside it" },
    { 26, "CUPTI_ERROR_HARDWARE_BUSY",
      "the counters are busy (another profiling session on this GPU?): retry "
      "when it ends" },
    { 36, "CUPTI_ERROR_OLD_PROFILER_API_INITIALIZED",
      "the legacy CUPTI event/metric API is active in this process: it cannot "
      "be mixed with the Range Profiler" },
    { 33, "CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED",
      "counters are not supported on this virtualized GPU: run on bare metal "
      "or a vGPU with profiling support" },
    { 41, "CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED",
      "counters are unavailable while confidential computing is on: use a GPU "
      "with CC mode off" },
    { 42, "CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED",
      "counters are not supported on CMP (crypto mining) GPUs" },
    { 43, "CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED",
      "counters are not supported on this MIG instance: run on a GPU with MIG "
      "disabled" },
    { 44, "CUPTI_ERROR_SLI_DEVICE_NOT_SUPPORTED",
      "counters are not supported with SLI enabled: disable SLI" },
    { 45, "CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED",
      "counters are not supported under WSL with this driver or GPU: run on "
      "native Linux" },
    { 27, "CUPTI_ERROR_NOT_SUPPORTED",
      "the Range Profiler is not supported on this device or configuration "
      "(needs compute capability 7.0 or newer)" },
    { 46, "CUPTI_ERROR_INVALID_CHIP_NAME",
      "this CUPTI does not know the GPU's chip: use a CUDA toolkit at least as "
      "new as the GPU" },
    { 15, "CUPTI_ERROR_NOT_INITIALIZED",
      "CUPTI could not initialise: the NVIDIA driver is probably older than "
      "CUDA 13 needs (update the driver)" },
    { 14, "CUPTI_ERROR_NOT_COMPATIBLE",
      "CUPTI and the driver are incompatible: update the NVIDIA driver" },
    { 17, "CUPTI_ERROR_INVALID_METRIC_NAME",
      "unknown metric name for this chip (see --list-metrics)" },
    { 8, "CUPTI_ERROR_OUT_OF_MEMORY",
      "CUPTI ran out of memory (host or GPU): profile a smaller size" },
    { 999, "CUPTI_ERROR_UNKNOWN",
      "CUPTI internal error (driver missing, too old, or the GPU in a bad "
      "state: check nvidia-smi)" },
};

const char *gp_profiler_explain(int code, char *buf, size_t n)
{
    for (size_t i = 0; i < sizeof reasons / sizeof *reasons; i++) {
        if (reasons[i].code != code)
            continue;
        if (reasons[i].name)
            snprintf(buf, n, "%s (%s)", reasons[i].why, reasons[i].name);
        else
            snprintf(buf, n, "%s", reasons[i].why);
        return buf;
    }
    if (code == 0)
        snprintf(buf, n, "no error (CUPTI_SUCCESS)");
    else
        snprintf(buf, n, "CUPTI error %d (see cupti_result.h)", code);
    return buf;
}
