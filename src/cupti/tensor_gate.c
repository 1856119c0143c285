/* tensor_gate.c - --tensor-counters auto: the tensor-path counters only
 * where the tensor cores did math (profiler.h says what was measured).
 * The gated list is the asked-for list less its tensor-path counters
 * (sm__ops_path_tensor_*), plus three instruction counts from which the
 * launch's tensor-core math instructions follow. */
#include <math.h>
#include <string.h>
#include "profiler.h"

static const char *const gate_names[] = {
    GP_GATE_PIPE_TENSOR, GP_GATE_HFMA2_MMA, GP_GATE_INT_MMA,
};
enum { NGATE = sizeof gate_names / sizeof gate_names[0] };

int gp_metric_is_tensor_path(const char *name)
{
    return strncmp(name, "sm__ops_path_tensor_", 20) == 0;
}

static int position(const gp_metric_list *l, const char *name)
{
    for (int i = 0; i < l->count; i++)
        if (!strcmp(l->names[i], name))
            return i;
    return -1;
}

int gp_tensor_gate_list(const gp_metric_list *full, gp_metric_list *gated)
{
    gated->count = 0;
    for (int i = 0; i < full->count; i++)
        if (!gp_metric_is_tensor_path(full->names[i])) {
            memcpy(gated->names[gated->count], full->names[i], sizeof full->names[i]);
            gated->from_default[gated->count++] = full->from_default[i];
        }
    if (gated->count == full->count)
        return -1;                      /* no tensor-path counter to gate */
    char why[80];               /* only "the list is full" */
    for (int g = 0; g < NGATE; g++)
        if (gp_metric_list_add(gated, gate_names[g], strlen(gate_names[g]), 1,
                               why, sizeof why) != 0)
            return -1;
    return 0;
}

double gp_tensor_gate_count(const gp_metric_list *gated, const double *values)
{
    double v[NGATE];
    for (int g = 0; g < NGATE; g++) {
        int i = position(gated, gate_names[g]);
        v[g] = i >= 0 ? values[i] : NAN;
    }
    double math = v[0] - v[1] - v[2];
    /* NaN or below zero says nothing is known: not 0 */
    return math >= 0 ? math : NAN;
}
