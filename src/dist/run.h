/* run.h - one `gemmprof dist` run inside the dist command: set-up
 * (setup.c), the SUMMA multiply (summa.c), repetitions and the
 * check (run.c), rows and files (report.c). */
#ifndef GP_DIST_RUN_H
#define GP_DIST_RUN_H

#include <stdio.h>
#include "data/data.h"
#include "backend.h"
#include "data.h"
#include "layout.h"
#include "dist.h"

/* One rank's times of one repetition, milliseconds. */
typedef struct {
    double total;            /* first barrier .. own last GEMM done      */
    double compute;          /* local GEMMs (gemm + sync)                */
    double comm;             /* host time issuing packs and broadcasts and
                                blocked waiting for panels, plus a GPU
                                gemm's wait for a pack not yet done      */
    double transfer;         /* host<->device copies; 0 on CPU           */
    double comm_total;       /* GPU time of this rank's broadcasts, hidden
                                or not (NAN: the transport cannot say)   */
} gp_dist_times;

typedef struct {
    const gp_dist_options *o;
    int argc;
    char **argv;
    int rank, nranks, local_rank, local_size;
    gp_dist_comms comms;
    gp_dist_geom geom;
    gp_dist_schedule sched;
    gp_dist_local loc;
    size_t esize;
    const gp_dist_backend *be;
    void *bctx;
    const gp_dist_transport *tr;
    void *tctx;
    void *host_a, *host_b, *host_c;   /* device backends: staging copies  */
    gp_dist_times *times;             /* [o->reps], this rank             */
    gp_dist_check check;              /* this rank's local C              */
    int failed;                       /* a local error (sticky)           */
    char err[512];
    char panel_table[1024];           /* --panel auto: what it measured   */
    char panel_why[160];              /*   and why it chose the width     */
    gp_csv_writer *csv;               /* rank 0                           */
    char path[4096];                  /* rank 0: the run file             */
} gp_dist_run;

/* Everything before the first multiply: communicators, backend, transport,
 * local matrices, output file.  Collective; 0 on every rank or -1 on every
 * rank (rank 0 has printed the one-line reason). */
int gp_dist_setup(gp_dist_run *r);
void gp_dist_teardown(gp_dist_run *r);

/* Collective: -1 on every rank if `failed` on any, with err set to the
 * lowest failing rank's message ("rank R: ..."); else 0. */
int gp_dist_agree(gp_dist_run *r, int failed, char *err, size_t errlen);

/* The run file's metadata: host facts, grid, blocks, panel, transport, MPI
 * library, hosts, local backend.  Collective (gathers host names). */
void gp_dist_meta(gp_dist_run *r, gp_meta *m);

/* --panel auto (panel.c): time the local gemm at each candidate
 * width, choose one, remake the schedule.  Collective, after the matrices
 * are filled; 0, or -1 on every rank. */
#define GP_DIST_AUTO_MAXW 16
int gp_dist_panel_auto(gp_dist_run *r);

/* One multiply C += A*B over all panels.  Adds this rank's compute and
 * comm times (ms).  A failed transport aborts the job; a failed local
 * GEMM marks r->failed and the rank keeps taking part. */
void gp_dist_summa(gp_dist_run *r, gp_dist_times *t);

/* Warm-up and timed repetitions, then the check of local C.  Collective. */
void gp_dist_repeat(gp_dist_run *r);

/* Rows to rank 0, CSV and table there.  Collective; returns the exit code
 * for every rank: 0 verified, 1 a check failed or a rank errored. */
int gp_dist_report(gp_dist_run *r);

/* Wall clock for the run's times, in ms. */
static inline double gp_dist_now_ms(void)
{
    return MPI_Wtime() * 1e3;
}

/* Record the run's first error (the rows say it); later ones add nothing. */
static inline void gp_dist_note(gp_dist_run *r, const char *err)
{
    if (!r->failed)
        snprintf(r->err, sizeof r->err, "%s", err);
    r->failed = 1;
}

#endif
