/* guard.c - did a kernel write where it must not?  The bench surrounds
 * every matrix with guard bands and fills C's padding columns (ldc > n)
 * with GP_CANARY bytes (runner.c); after the verification launch these
 * find the first byte that changed.  A byte pattern, not a value: any
 * write, even of the same float the kernel meant for C, shows. */
#include <string.h>
#include "run.h"

long gp_canary_find(const void *p, size_t bytes)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < bytes; ++i)
        if (b[i] != GP_CANARY)
            return (long)i;
    return -1;
}

int gp_canary_find_pad(const void *p, long rows, long width, long ld, size_t elt,
                       long *row, long *col)
{
    const unsigned char *b = p;
    for (long i = 0; i < rows && ld > width; ++i) {
        long at = gp_canary_find(b + ((size_t)i * ld + width) * elt,
                                 (size_t)(ld - width) * elt);
        if (at >= 0) {
            *row = i;
            *col = width + at / (long)elt;
            return 0;
        }
    }
    return -1;
}
