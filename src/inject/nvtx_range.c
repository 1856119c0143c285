/* nvtx_range.c - --nvtx-include RANGE: is a launch inside an NVTX
 * push/pop range of that name on the thread that makes it?  Each thread
 * keeps its own stack (NVTX push/pop ranges are per thread); nested ranges
 * count, so a launch two levels inside "train_step" is included.  Pure,
 * so the CPU tests check the matching. */
#include <string.h>

#include "inject.h"

void gp_nvtx_push(gp_nvtx_stack *s, const char *want, const char *msg)
{
    int named = want && msg && strcmp(want, msg) == 0;
    if (s->depth < GP_NVTX_DEPTH) {
        s->named[s->depth] = (unsigned char)named;
        s->inside += named;
    }
    s->depth++;
}

void gp_nvtx_pop(gp_nvtx_stack *s)
{
    if (s->depth == 0)
        return;
    s->depth--;
    if (s->depth < GP_NVTX_DEPTH)
        s->inside -= s->named[s->depth];
}

int gp_nvtx_inside(const gp_nvtx_stack *s)
{
    return s->inside > 0;
}
