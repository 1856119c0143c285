/* dist.h - the interface of src/dist: the `gemmprof dist` command and its
 * options, parsed and validated in full by every rank alike before any
 * communication, so that a bad option gives the same answer (exit 2) on
 * all ranks and nobody waits for anybody.  Pure C (no MPI): unit-tested
 * everywhere.  The folder's other headers are its own (backend.h: the
 * local backends and panel transports SUMMA plugs in, with mpi.h). */
#ifndef GP_DIST_H
#define GP_DIST_H

#include <stddef.h>
#include <stdio.h>
#include "gemmprof.h"

#define GP_DIST_BLOCK_DEFAULT 128
#define GP_DIST_PANEL_MIN 256     /* default panel: blocks >= this wide */
/* GPU local kernels: every panel step reads and writes all of local C, and
 * a narrow-K GEMM runs below a GPU's rate, while a wide first panel is a
 * long broadcast nothing hides.  --panel auto (their default) times the
 * widths up to this one, which sizes the panel buffers (panel.c). */
#define GP_DIST_PANEL_AUTO_MAX 4096
/* ... and takes the narrowest whose local gemm runs within this share of
 * the rate of the unsplit local gemm: narrower panels broadcast less at
 * the start of the pipeline, wider ones read and write local C less often. */
#define GP_DIST_PANEL_AUTO_SLACK 0.03

typedef struct {
    int pr, pc;                  /* process grid                          */
    long br, bc, bk;             /* C blocks br x bc; K block bk           */
    long m, n, k;
    const char *local;           /* local kernel name                      */
    int cpu_local;               /* 1: cpu_naive, cpu_blocked, cpu_blas    */
    gp_precision precision;
    long panel;                  /* panel width, a multiple of bk (auto:
                                    the widest it may choose)             */
    int panel_auto;              /* --panel auto: chosen by measurement    */
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

/* mpirun ... gemmprof dist ...: command.c in a build with MPI, else
 * nompi.c, which says how to get it.  This header and the pure parts
 * (layout, data, options) are what the rest of gemmprof and the tests see
 * of dist; backend.h and the rest need mpi.h. */
int gp_cmd_dist(int argc, char **argv);

#endif
