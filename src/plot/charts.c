/* charts.c - the table of charts: each chart's name and the function that
 * draws it.  The chart files register here and call only down, into
 * draw.c, gnuplot.c and select.c. */
#include "charts.h"

const gp_chart_def gp_charts[GP_NCHARTS] = {
    [GP_CHART_ROOFLINE]     = {"roofline", gp_chart_roofline},
    [GP_CHART_GFLOPS]       = {"gflops_vs_n", gp_chart_gflops},
    [GP_CHART_SPEEDUP]      = {"speedup", gp_chart_speedup},
    [GP_CHART_CROSSOVER]    = {"crossover", gp_chart_crossover},
    [GP_CHART_METRICS]      = {"metrics", gp_chart_metrics},
    [GP_CHART_DIST_SCALING] = {"dist_scaling", gp_chart_dist_scaling},
    [GP_CHART_DIST_TIME]    = {"dist_time", gp_chart_dist_time},
};

int gp_chart_render(gp_chart c, const gp_dataset *d, const gp_chart_opts *o,
                    gp_strlist *written, char *msg, size_t msglen)
{
    msg[0] = '\0';
    if ((unsigned)c >= GP_NCHARTS) {
        gp_fmt(msg, msglen, "unknown chart %d", (int)c);
        return -1;
    }
    return gp_charts[c].draw(d, o, written, msg, msglen);
}
