/* tensor_gate.c - which config a profiled launch gets under
 * --tensor-gate: the gated one (3 passes on GH100 for the default
 * counters, against 5) until its kernel is seen executing tensor
 * instructions, every counter after.  Kernels are told apart by their
 * CUfunction, as the filter's launch configurations are. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inject.h"

int gp_tensor_gate_init(gp_tensor_gate *g, const char *spec, long per_config,
                        char *err, size_t errlen)
{
    memset(g, 0, sizeof *g);
    if (spec && strcmp(spec, "on") != 0 && strcmp(spec, "off") != 0) {
        snprintf(err, errlen, GP_TRACE_ENV_GATE ": '%s' is not on or off", spec);
        return -1;
    }
    g->on = (!spec || strcmp(spec, "on") == 0) && per_config > 0;
    return 0;
}

static int known(const gp_tensor_gate *g, const void *func)
{
    for (size_t i = 0; i < g->n; i++)
        if (g->users[i] == func)
            return 1;
    return 0;
}

int gp_tensor_gate_gated(const gp_tensor_gate *g, const void *func)
{
    return g->on && !known(g, func);
}

static void remember(gp_tensor_gate *g, const void *func)
{
    if (known(g, func))
        return;
    if (g->n == g->cap) {
        size_t cap = g->cap ? 2 * g->cap : 64;
        const void **grown = realloc(g->users, cap * sizeof *grown);
        if (!grown) {                   /* asked again: gated, then granted */
            g->out_of_memory = 1;
            return;
        }
        g->users = grown;
        g->cap = cap;
    }
    g->users[g->n++] = func;
}

int gp_tensor_gate_seen(gp_tensor_gate *g, const void *func, int gated, int tensor)
{
    if (tensor != 1)
        return 0;
    remember(g, func);
    return gated;
}

void gp_tensor_gate_free(gp_tensor_gate *g)
{
    free(g->users);
    g->users = NULL;
    g->n = g->cap = 0;
}
