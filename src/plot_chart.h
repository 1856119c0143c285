/* plot_chart.h - what each chart file (plot_roofline.c, plot_sweep.c,
 * plot_metrics.c) shares: running its script and naming its output. */
#ifndef GP_PLOT_CHART_H
#define GP_PLOT_CHART_H

#include <stdio.h>
#include "plot.h"
#include "plot_util.h"

/* Render `script` (a file in o->plotsdir) with `vars` (term and out are
 * added here) to STEM.<ext> in o->outdir; appends what it wrote to
 * `written`.  0, or -1 with msg. */
int gp_chart_draw(const gp_chart_opts *o, const char *script, const char *stem,
                  gp_buf *vars, gp_strlist *written, char *msg, size_t msglen);

/* A title or label as the chart's format needs it (see gp_chart_text). */
void gp_chart_title(const gp_chart_opts *o, char *out, size_t len,
                    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* "NVIDIA H200" from the data's metadata, or "unknown GPU". */
const char *gp_chart_gpu(const gp_dataset *d);

int gp_chart_roofline(const gp_dataset *d, const gp_chart_opts *o,
                      gp_strlist *written, char *msg, size_t msglen);
int gp_chart_gflops(const gp_dataset *d, const gp_chart_opts *o,
                    gp_strlist *written, char *msg, size_t msglen);
int gp_chart_speedup(const gp_dataset *d, const gp_chart_opts *o,
                     gp_strlist *written, char *msg, size_t msglen);
int gp_chart_crossover(const gp_dataset *d, const gp_chart_opts *o,
                       gp_strlist *written, char *msg, size_t msglen);
int gp_chart_metrics(const gp_dataset *d, const gp_chart_opts *o,
                     gp_strlist *written, char *msg, size_t msglen);

#endif
