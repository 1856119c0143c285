/* charts.h - every chart's drawing function, declared from charts.def for
 * the table in charts.c (private to plot/).  Each draws from the dataset with the options:
 * 0 drawn (file names appended to `written`), 1 skipped (err says why, e.g.
 * "roofline: skipped, no counters"), -1 failed (one line in err).
 *   roofline      roofline.c   one per family: one size, each kernel under
 *                              the family's roofs (roofs.c)
 *   gflops_vs_n, speedup       sweep.c   one per family, over a size sweep
 *   crossover     sweep.c      one per swept kernel: its tile configs
 *   metrics       metrics.c    one per family: the metrics panel of one size
 *   dist_scaling  dist.c       whole-run GFLOP/s over the number of ranks,
 *                              the ideal line, parallel efficiency
 *   dist_time     dist.c       each rank's time as stacked bars: compute,
 *                              comm, transfer */
#ifndef GP_PLOT_CHARTS_H
#define GP_PLOT_CHARTS_H

#include "plot.h"

/* One declaration per line of charts.def. */
#define GP_CHART(id, name, draw, ...)                                       \
    int draw(const gp_dataset *d, const gp_chart_opts *o, gp_strlist *written, \
             char *err, size_t errlen);
#include "charts.def"
#undef GP_CHART

#endif
