/* naming.c - how a traced process names itself: its MPI rank and its part
 * files.  Pure, so the CPU tests check the names gemmprof merges. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inject.h"
#include "util/util.h"

/* The first launcher variable that is set: Open MPI, MPICH/PMI, Slurm. */
void gp_trace_rank(const char *(*get)(const char *), char *rank, size_t n, long *size)
{
    static const char *const vars[][2] = {
        { "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE" },
        { "PMI_RANK", "PMI_SIZE" },
        { "SLURM_PROCID", "SLURM_NTASKS" },
    };
    rank[0] = '\0';
    *size = -1;
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *r = get(vars[i][0]);
        if (!r || !*r || strspn(r, "0123456789") != strlen(r))
            continue;
        snprintf(rank, n, "%s", r);
        const char *s = get(vars[i][1]);
        char *end;
        long v = s && *s ? strtol(s, &end, 10) : -1;
        *size = v > 0 && *end == '\0' ? v : -1;
        return;
    }
}

int gp_trace_part_name(char *out, size_t n, const char *dir, const char *host,
                       long pid, const char *ext)
{
    char h[64];
    gp_slug(host && *host ? host : "host", h, sizeof h);
    int len = snprintf(out, n, "%s/%s-%ld.%s", dir, h, pid, ext);
    return len < 0 || (size_t)len >= n ? -1 : 0;
}
