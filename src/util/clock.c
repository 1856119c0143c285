/* clock.c - a monotonic clock for the host-side costs gemmprof reports
 * (collection cost, trace's profiling_cost). */
#include <time.h>

#include "util.h"

double gp_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}
