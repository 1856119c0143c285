/* meta.c - the '#' metadata of a dist run file: the usual host facts
 * plus what makes a distributed run what it is (grid, blocks, panel,
 * transport, MPI library, hosts, each rank's local backend). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run.h"
#include "gpu/gpu.h"

#define DESCRIBE_LEN 256

/* Gather `len` bytes of text from every rank; rank 0 gets "a xN, b xM"
 * (distinct values in rank order, with their counts). */
static void gather_distinct(const gp_dist_run *r, const char *mine, size_t len,
                            char *out, size_t outlen)
{
    char *all = r->rank == 0 ? calloc((size_t)r->nranks, len) : NULL;
    char *buf = calloc(1, len);
    out[0] = '\0';
    if (buf)
        snprintf(buf, len, "%s", mine);
    int ok = buf && (r->rank != 0 || all), every;
    MPI_Allreduce(&ok, &every, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (every)
        MPI_Gather(buf, (int)len, MPI_CHAR, all, (int)len, MPI_CHAR, 0,
                   MPI_COMM_WORLD);
    for (int q = 0; every && q < r->nranks && r->rank == 0; q++) {
        const char *s = all + (size_t)q * len;
        int seen = 0, count = 0;
        for (int e = 0; e < r->nranks; e++)
            if (strncmp(s, all + (size_t)e * len, len) == 0) {
                seen |= e < q;
                count++;
            }
        size_t used = strlen(out);
        if (!seen && used < outlen)
            snprintf(out + used, outlen - used, "%s%.*s x%d", used ? ", " : "",
                     (int)len, s, count);
    }
    free(all);
    free(buf);
}

static void mpi_library(gp_meta *m)
{
    char v[MPI_MAX_LIBRARY_VERSION_STRING];
    int n = 0;
    MPI_Get_library_version(v, &n);
    v[strcspn(v, "\n")] = '\0';
    gp_meta_set(m, "mpi_library", "%s", v);
}

static void gpu_facts(const gp_dist_run *r, gp_meta *m)
{
    gp_gpu g;
    char why[256];
    if (r->rank == 0 && r->be->device_memory && gp_gpu_open(0, &g, why, sizeof why) == 0)
        gp_gpu_meta(&g, m);
}

void gp_dist_meta(gp_dist_run *r, gp_meta *m)
{
    const gp_dist_options *o = r->o;
    char hosts[1024], backends[1024], name[MPI_MAX_PROCESSOR_NAME] = "";
    int len = 0;
    MPI_Get_processor_name(name, &len);
    gather_distinct(r, name, sizeof name, hosts, sizeof hosts);
    const char *what = r->be->describe ? r->be->describe(r->bctx) : NULL;
    gather_distinct(r, what ? what : r->be->name, DESCRIBE_LEN, backends,
                    sizeof backends);
    gp_meta_init(m);
    gp_meta_host(m, GP_RUN_SCHEMA, r->argc, r->argv);
    gpu_facts(r, m);
    gp_meta_set(m, "dist_algorithm", "SUMMA, double-buffered panels, "
                "ScaLAPACK block-cyclic layout");
    gp_meta_set(m, "ranks", "%d", r->nranks);
    gp_meta_set(m, "grid", "%dx%d", o->pr, o->pc);
    gp_meta_set(m, "block", "%ldx%ld", o->br, o->bc);
    gp_meta_set(m, "kblock", "%ld", o->bk);
    if (o->panel_auto)
        gp_meta_set(m, "panel", "%ld (%s; %ld panels)", r->sched.max_width,
                    r->panel_why, r->sched.npanels);
    else
        gp_meta_set(m, "panel", "%ld (max %ld, %ld panels)", o->panel,
                    r->sched.max_width, r->sched.npanels);
    if (o->panel_auto && r->panel_table[0]) {
        char one[sizeof r->panel_table];
        snprintf(one, sizeof one, "%s", r->panel_table);
        for (char *c = one; *c; c++)        /* the table on one line */
            if (*c == '\n')
                *c = c[1] ? ';' : '\0';
        gp_meta_set(m, "panel_auto", "%s", one);
    }
    gp_meta_set(m, "comm", "%s", r->tr->name);
    gp_meta_set(m, "local", "%s (%s)", o->local, backends);
    gp_meta_set(m, "hosts", "%s", hosts);
    mpi_library(m);
    gp_meta_set(m, "seed", "%llu", o->seed);
    gp_meta_set(m, "reps", "%d", o->reps);
    gp_meta_set(m, "warmup", "%d", o->warmup);
    gp_meta_set(m, "timing", "MPI_Wtime per rep from a barrier to each rank's "
                "last local GEMM; summary time_ms is the median over reps of "
                "the slowest rank; compute/comm/transfer are per-rank medians, "
                "their mean in the summary; comm_ms is the exposed "
                "communication (GPU: the gemm stream's wait for its panels), "
                "comm_total_ms the broadcasts' own GPU time, hidden or not");
    gp_meta_set(m, "verification", "each rank against an FP64 product from the "
                "generator; above %ld multiply-adds per rank a random sample of "
                "rows x columns", o->check_budget);
}
