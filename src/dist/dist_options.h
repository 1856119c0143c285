/* dist_options.h - options of `gemmprof dist`, parsed and validated in full
 * by every rank alike before any communication, so that a bad option gives
 * the same answer (exit 2) on all ranks and nobody waits for anybody.
 * Pure C (no MPI): unit-tested everywhere. */
#ifndef GP_DIST_OPTIONS_H
#define GP_DIST_OPTIONS_H

#include <stddef.h>
#include <stdio.h>
#include "gemmprof.h"

#define GP_DIST_BLOCK_DEFAULT 128
#define GP_DIST_PANEL_MIN 256     /* default panel: blocks >= this wide */
/* GPU local kernels: every panel step reads and writes all of local C, and
 * a K=256 GEMM runs well below a GPU's rate.  Measured on 2 H200s (8192^3,
 * cublas, nccl, 1x2): panel 256 gave 1.65x over one GPU, 1024 1.76x, 2048
 * 1.83x. */
#define GP_DIST_PANEL_MIN_GPU 2048

typedef struct {
    int pr, pc;                  /* process grid                          */
    long br, bc, bk;             /* C blocks br x bc; K block bk           */
    long m, n, k;
    const char *local;           /* local kernel name                      */
    int cpu_local;               /* 1: cpu_naive, cpu_blocked, cpu_blas    */
    gp_precision precision;
    long panel;                  /* panel width, a multiple of bk          */
    const char *comm;            /* auto, mpi, staged, cuda-aware, nccl    */
    int reps, warmup;
    unsigned long long seed;
    long check_budget;           /* multiply-adds per rank for the check   */
    const char *out;             /* FILE or DIR; NULL: results/            */
    int help, version, quiet;
} gp_dist_options;

/* Parse and validate argv (argv[0] = "dist") for a run of `nranks`
 * processes.  0, or -1 with a one-line message in err (no "gemmprof: "). */
int gp_dist_parse(int argc, char **argv, int nranks, gp_dist_options *o,
                  char *err, size_t errlen);
void gp_dist_usage(FILE *f);
/* --dry-run: what `nranks` processes would run with these options. */
int gp_dist_dry_run(const gp_dist_options *o, int nranks, int argc, char **argv);

/* 1 if `name` is a CPU local kernel: cpu_naive, cpu_blocked, cpu_blas. */
int gp_dist_is_cpu_local(const char *name);

/* "AxB" with both integers in 1..max: 0, or -1. */
int gp_dist_parse_pair(const char *s, long max, long *a, long *b);

/* The most square grid for n processes: pr <= pc, pr * pc == n. */
void gp_dist_default_grid(int n, int *pr, int *pc);

/* mpirun ... gemmprof dist ...: dist_cmd.c in a build with MPI, else
 * dist_nompi.c, which says how to get it.  This header and the pure parts
 * (layout, data, options) are what the rest of gemmprof and the tests see
 * of dist; dist.h and the rest need mpi.h. */
int gp_cmd_dist(int argc, char **argv);

#endif
