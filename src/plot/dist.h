/* dist.h - the charts of `gemmprof dist` run files (private to plot/):
 * what dist.c (row choice, the time bars) and dist_scaling.c share, and
 * the scaling chart's layout, computed before anything is drawn so that
 * the tests can check it without gnuplot. */
#ifndef GP_PLOT_DIST_H
#define GP_PLOT_DIST_H

#include <stdio.h>
#include "plot.h"
#include "frame.h"
#include "labels.h"

#define GP_DIST_MAX_SHAPES 16
#define GP_DIST_MAX_ITEMS 256
#define GP_DIST_COLS 4       /* transports side by side, at most          */

typedef int (*gp_dist_pred)(const gp_row *r);

/* A run's summary row ("all") / one rank's row, usable and finite. */
int gp_dist_scaling_row(const gp_row *r);
int gp_dist_time_row(const gp_row *r);
int gp_dist_shape_is(const gp_row *r, const long s[3]);
int gp_dist_same_kernel(const gp_row *a, const gp_row *b);
/* Distinct shapes of rows passing `pred` (only `want` if want[0]). */
int gp_dist_shapes(const gp_dataset *d, gp_dist_pred pred, const long want[3],
                   long out[][3], int max);
/* Median of v[0..n) (sorted in place); NAN for n == 0. */
double gp_dist_median(double *v, int n);
/* "8192x8192x128"; "dist_time" for one shape, "dist_time-SHAPE" for several. */
void gp_dist_shape_str(const long s[3], char *out, size_t len);
void gp_dist_stem(const char *chart, const long s[3], int nshapes, char *out, size_t len);
/* " fp32" when every row of the shape has one precision, else "". */
void gp_dist_precision(const gp_dataset *d, gp_dist_pred pred, const long s[3],
                       char *out, size_t len);
/* The GPU's name, else the CPU local kernel's. */
const char *gp_dist_where(const gp_dataset *d, char *buf, size_t len);
int gp_dist_close(FILE *f, const char *path, char *err, size_t errlen);

/* ---- the scaling chart: speed-up over one GPU (top) and parallel
 * efficiency (bottom) against the GPU count, one column of panels per
 * transport, one series per (kernel, transport); every grid run is a
 * point, the series' line runs through the best grid at each count. */

typedef struct {
    const gp_row *r;         /* kernel, precision, transport (comm)        */
    int col;                 /* the column of its transport               */
} gp_dist_series;

typedef struct {
    const gp_row *r;         /* the kernel (and precision)                 */
    long ranks;              /* its smallest rank count (1 but for a note) */
    double per_rank;         /* its best GFLOP/s there / ranks             */
} gp_dist_base;

typedef struct {
    int s;                   /* series                                     */
    long ranks;
    char grid[32];           /* the process grid, "1x2"                    */
    double gflops;           /* median over the grid's runs                */
    double speedup, eff;     /* gflops / the base's per rank; % of ranks   */
    double x;                /* ranks, moved aside from the other points
                                at that count (pt apart: GP_DIST_DODGE)    */
    int best;                /* the series' line runs through it          */
} gp_dist_point;
#define GP_DIST_DODGE 16.0   /* a grid tag's width and a gap */

typedef struct {
    const gp_dataset *d;
    long s[3];
    long ranks[GP_DIST_MAX_ITEMS];
    int nranks;
    gp_dist_series k[GP_DIST_MAX_ITEMS];
    int nk;
    gp_dist_base b[GP_DIST_MAX_ITEMS];
    int nb;
    char comm[GP_DIST_COLS][32];
    int ncols;
    gp_dist_point p[GP_DIST_MAX_ITEMS];
    int np;
    gp_frame fr;             /* the whole chart                           */
    gp_frame top[GP_DIST_COLS], eff[GP_DIST_COLS];  /* its panels          */
    gp_label lab[GP_DIST_MAX_ITEMS];  /* per point: its grid tag ("" at one
                                         rank), placed in its top panel    */
    char note[2][200];       /* under the title                           */
    int nnotes;
    int nkey;                /* legend entries                            */
} gp_dist_scaling;

/* Lay out the scaling chart of shape s.  0 done; 1 fewer than two rank
 * counts (nothing to draw). */
int gp_dist_scaling_layout(const gp_dataset *d, const long s[3], gp_dist_scaling *sc);

#endif
