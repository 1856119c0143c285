/* select.h - which rows a chart or table draws, and the numbers it draws:
 * series (key.h), the size axis, one chosen shape, and one number per
 * fact: the median over every row of that series, config and shape (from
 * any file, repeated runs), whichever table or chart shows it. */
#ifndef GP_PLOT_SELECT_H
#define GP_PLOT_SELECT_H

#include "plot.h"   /* part of plot.h, the folder's interface, which includes this */

typedef double (*gp_getter)(const gp_row *r);

double gp_elt_bytes(const gp_row *r);              /* 8 fp64, else 4 */

double gp_get_gflops(const gp_row *r);
double gp_get_ai_dram(const gp_row *r);
double gp_get_ai_l2(const gp_row *r);
double gp_get_dram_bytes(const gp_row *r);         /* read + write */
double gp_get_compulsory_bytes(const gp_row *r);   /* A, B once; C written, read if beta != 0 */
double gp_get_bank_ratio(const gp_row *r);
double gp_get_spill_bytes(const gp_row *r);        /* ptxas store + load */
double gp_get_occ_achieved(const gp_row *r);
double gp_get_occ_theoretical(const gp_row *r);


/* Sizes as an axis: square shapes (x = N) if the data has any, else the
 * dimension with most distinct values, the other two fixed at their most
 * common values. */
typedef struct {
    int square, xdim;        /* xdim 0 m, 1 n, 2 k                      */
    long fixed[3];
    char label[128];         /* "N (M = N = K)", "K (M = 8192, N = 8192)" */
} gp_sweep;

/* Filter for the rows one chart reads. */
typedef struct {
    const gp_dataset *d;
    gp_getter need;          /* row counts only if need(r) is a number  */
    int by_config;           /* series are configs, tiles of a size-
                                dispatched kernel apart (key.h)         */
    int sweep_configs;       /* also configs only gemmprof sweep ran of
                                a kernel with a ladder config (dataset) */
    const gp_key *only;      /* rows of this kernel and precision only  */
    const gp_family *family; /* rows of this family's members only      */
    const gp_sweep *sweep;   /* with x: rows at that point of the axis  */
    long x;
    const long *shape;       /* or rows of exactly this shape           */
    int all_rows;            /* also rows that failed or errored        */
} gp_where;

/* Distinct series in order of first appearance (ladder order); *out is
 * malloc'd, caller frees.  Returns the count. */
int gp_keys(const gp_where *w, gp_key **out);
/* -1 if no row passes w->need. */
int gp_sweep_choose(const gp_where *w, gp_sweep *s);
/* Distinct x values of rows passing w, ascending; malloc'd.  Count. */
int gp_sweep_xs(const gp_where *w, long **out);
/* The largest shape (in FLOPs) that has at least 3/4 of the most series
 * any shape has; `want` (if [0] is not 0) is taken as it is if any row
 * has it.  -1 if none. */
int gp_shape_choose(const gp_where *w, const long want[3], long shape[3]);
/* The config of series k at w's point (shape, or x of the sweep): a
 * size-dispatched kernel's tile there, else k's own.  k if no row. */
gp_key gp_config_at(const gp_where *w, const gp_key *k);
/* Median of get() over the usable rows of series k at w's point, of the
 * config above, where get() is a number (w->need chooses points, not
 * rows): one number per fact.  NAN if none. */
double gp_median(const gp_where *w, const gp_key *k, gp_getter get);
/* % of cuBLAS: the median of the rows' own pct_cublas, else GFLOP/s over
 * the precision's cuBLAS's; speedup over the naive kernel (GFLOP/s).  At
 * w's point; NAN if there is nothing to compare with. */
double gp_pct_cublas(const gp_where *w, const gp_key *k);
double gp_speedup(const gp_where *w, const gp_key *k);

/* The naive kernel of a precision ("naive", else the first whose name
 * holds "naive") and the cuBLAS reference.  0, or -1 if absent. */
int gp_baseline_key(const gp_where *w, const char *precision, gp_key *out);
int gp_cublas_key(const gp_where *w, const char *precision, gp_key *out);

/* "4096" or "8192x8192x64" */
void gp_shape_str(const long shape[3], char *out, size_t len);

#endif
