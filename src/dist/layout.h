/* layout.h - ScaLAPACK block-cyclic index arithmetic and the SUMMA
 * panel schedule.  Pure C (no MPI): unit-tested everywhere.
 *
 * One dimension of n indices in blocks of nb, dealt to np processes: block
 * b lives on process b mod np (source process 0), and a process stores its
 * blocks packed in block order.  The process grid is row-major: rank =
 * myrow * pc + mycol (ScaLAPACK's default). */
#ifndef GP_DIST_LAYOUT_H
#define GP_DIST_LAYOUT_H

#include <stddef.h>

/* Indices of an n-long dimension that process p of np stores (numroc). */
long gp_bc_numroc(long n, long nb, int p, int np);
/* Process owning global index g. */
int gp_bc_owner(long g, long nb, int np);
/* Local index of global g on its owner. */
long gp_bc_g2l(long g, long nb, int np);
/* Global index of local index l on process p. */
long gp_bc_l2g(long l, long nb, int p, int np);

/* One rank's view: A is m x k in br x bk blocks, B is k x n in bk x bc
 * blocks, C is m x n in br x bc blocks. */
typedef struct {
    long m, n, k;
    long br, bc, bk;
    int pr, pc, myrow, mycol;
    long mloc, nloc;         /* local C                                  */
    long kloc_a, kloc_b;     /* local A columns, local B rows            */
} gp_dist_geom;

void gp_dist_geom_init(gp_dist_geom *g, long m, long n, long k, long br,
                       long bc, long bk, int pr, int pc, int rank);

/* A panel: `count` K-blocks (blocks[first ..]) that share their owners,
 * A's process column root_col and B's process row root_row, multiplied as
 * one local GEMM of width `width`. */
typedef struct {
    int root_col, root_row;
    long width;
    long first, count;
} gp_dist_panel;

typedef struct {
    long npanels, nblocks;
    long max_width;
    gp_dist_panel *panels;   /* ordered by their first K-block           */
    long *blocks;            /* K-block indices, panel by panel          */
} gp_dist_schedule;

/* Group the K-blocks of width bk into panels of at most `group` blocks
 * with the same t mod lcm(pr, pc) (so the same owners).  0, or -1 with a
 * one-line message (out of memory). */
int gp_dist_schedule_make(gp_dist_schedule *s, long k, long bk, int pr,
                          int pc, long group, char *err, size_t errlen);
void gp_dist_schedule_free(gp_dist_schedule *s);
/* Width of K-block t (the last one may be partial). */
long gp_dist_kblock_width(long k, long bk, long t);

/* Where panel p's K-blocks sit on their owner, np processes along K (pc
 * for the columns of local A, pr for the rows of local B): the local index
 * of its first K-block when all of them lie side by side there, in panel
 * order (then the owner reads the panel in place, one sub-matrix), else -1
 * (the blocks must be packed one by one).  With group 1, or when np is a
 * multiple of the other grid dimension, every panel lies side by side. */
long gp_dist_panel_local_start(const gp_dist_schedule *s,
                               const gp_dist_panel *p, long k, long bk, int np);

#endif
