/* gate.c - the tensor gate's metric list (gemmprof trace --tensor-gate):
 * the five sm__ops_path_tensor_* counters take GH100's default set from 3
 * passes to 5, and a launch that executed no tensor-pipe instruction has
 * them all exactly 0.  So a launch can be profiled first with the list
 * without them plus sm__inst_executed_pipe_tensor.sum (the warp
 * instructions of the tensor pipe: dmma, gmma, hmma, imma), which still
 * fits in 3 passes; only kernels that show tensor instructions pay the
 * full list.  Pure: the pass count comes from the caller. */
#include <stdio.h>
#include <string.h>
#include "profiler.h"

int gp_metric_is_tensor_path(const char *name)
{
    static const char prefix[] = GP_TENSOR_PATH_PREFIX;
    return strncmp(name, prefix, sizeof prefix - 1) == 0;
}

/* `full` without its tensor-path metrics, plus the gate (once).  The
 * number of tensor-path metrics taken out. */
static int gated_list(const gp_metric_list *full, gp_metric_list *gated)
{
    int out = 0, has_gate = 0;
    gated->count = 0;
    for (int i = 0; i < full->count; i++) {
        if (gp_metric_is_tensor_path(full->names[i])) {
            out++;
            continue;
        }
        has_gate |= strcmp(full->names[i], GP_TENSOR_GATE_METRIC) == 0;
        memcpy(gated->names[gated->count], full->names[i], sizeof full->names[i]);
        gated->from_default[gated->count++] = full->from_default[i];
    }
    if (out && !has_gate) {             /* room: at least one name went out */
        snprintf(gated->names[gated->count], sizeof gated->names[0], "%s",
                 GP_TENSOR_GATE_METRIC);
        gated->from_default[gated->count++] = 0;
    }
    return out;
}

int gp_tensor_gate_plan(const gp_metric_list *full, int full_passes, gp_metric_list *gated,
                        gp_gate_passes_fn passes, void *ctx, char *err, size_t errlen)
{
    if (gated_list(full, gated) == 0)
        return 0;
    int n = passes(ctx, gated, err, errlen);
    if (n < 0)
        return -1;
    return n < full_passes ? 1 : 0;
}
