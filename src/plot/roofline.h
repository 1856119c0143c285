/* roofline.h - the roofline's layout, computed before anything is drawn
 * (private to plot/; the tests check it on the committed data): the
 * frame, the roofs as segments, each point, its label's box, the legend. */
#ifndef GP_PLOT_ROOFLINE_H
#define GP_PLOT_ROOFLINE_H

#include "frame.h"
#include "labels.h"
#include "roofs.h"     /* gp_roofs: data/roofs.h */

typedef struct {
    gp_seg d;                /* in data units (x FLOP/B, y in `unit`)    */
    gp_seg p;                /* on the chart, pt                         */
    int roof;                /* index into roofs.r                       */
} gp_roof_seg;

typedef struct {
    gp_key k;
    double ai, g, ai2;       /* FLOP/B (DRAM, L2), performance in `unit` */
    int lt;                  /* series linetype (style.gp)               */
    double size;             /* its marker, pt across (GP_MARKER)        */
    double share;            /* weighted: % of the GPU time, else NAN    */
    char name[48];           /* label text: the short kernel name        */
} gp_roof_point;

#define GP_ROOF_NOTES 3      /* lines under the title                     */

typedef struct {
    gp_frame fr;
    double scale;            /* GFLOP/s per `unit`                        */
    const char *unit;
    long shape[3];
    gp_roofs roofs;
    gp_roof_seg seg[GP_ROOFS_MAX];
    int nseg;
    gp_roof_point *p;
    int n;
    gp_label *lab;           /* n + 1: the points', then the ridge's      */
    int numbered;            /* labels shown as numbers                   */
    double ridge_x, ridge_y;
    char ridge_text[48];
    char note[GP_ROOF_NOTES][160];  /* why points lie above every roof (two
                                       lines), then which markers overlap */
    int nnotes;
    int nabove;              /* of them the lines on points above roofs   */
    int overlaps;            /* pairs of markers drawn over each other    */
    char overlap_list[1024]; /* all of them, "b over a, d over c"          */
    int hier;                /* L2 points drawn                           */
    int nkey;                /* legend entries                            */
    gp_box key;              /* the legend's area, below the plot area    */
    int weighted;            /* markers sized by time share: the chart
                                data has share_pct and marker_pt columns */
} gp_roofline;

/* Lay out family f's roofline (o: --size, --hierarchical).  0 done, 1
 * nothing to draw (why in err), -1 error. */
int gp_roofline_layout(const gp_dataset *d, const gp_family *f, const gp_chart_opts *o,
                       gp_roofline *rl, char *err, size_t errlen);
/* Its steps, for a roofline of points chosen otherwise (trace_roofline.c):
 * the roofs of f's precisions (rl cleared first; 1 with err if there are
 * none to draw under), then, once rl->p[0..n) are filled, everything else
 * (ridge, axes, segments, labels clear of each marker's own size, notes,
 * legend). */
int gp_roofline_roofs(const gp_dataset *d, const gp_family *f, const gp_chart_opts *o,
                      gp_roofline *rl, char *err, size_t errlen);
void gp_roofline_place(const gp_dataset *d, const gp_chart_opts *o, gp_roofline *rl);
/* Draw a laid-out roofline with `script` (roofline.gp or one that loads
 * it) to STEM.<ext>; `extra` (may be NULL): more gnuplot -e assignments.
 * The chart data file is chart-data/STEM.csv.  0, or -1 with err. */
int gp_roofline_draw(const gp_chart_opts *o, const gp_roofline *rl, const char *script,
                     const char *stem, const char *title, const char *caption,
                     const gp_buf *extra, gp_strlist *written, char *err, size_t errlen);
void gp_roofline_free(gp_roofline *rl);

#endif
