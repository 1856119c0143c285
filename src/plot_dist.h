/* plot_dist.h - the charts of `gemmprof dist` run files (plot_dist.c), with
 * the signature of every chart in plot_chart.h:
 *   dist_scaling  whole-run GFLOP/s over the number of ranks, the ideal line
 *                 from the 1-rank point, parallel efficiency on the right axis
 *   dist_time     each rank's time as stacked bars: compute, comm, transfer
 * 0 drawn, 1 skipped (msg says why: not dist data, one rank count only),
 * -1 failed. */
#ifndef GP_PLOT_DIST_H
#define GP_PLOT_DIST_H

#include "plot.h"

int gp_chart_dist_scaling(const gp_dataset *d, const gp_chart_opts *o,
                          gp_strlist *written, char *msg, size_t msglen);
int gp_chart_dist_time(const gp_dataset *d, const gp_chart_opts *o,
                       gp_strlist *written, char *msg, size_t msglen);

#endif
