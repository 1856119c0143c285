/* labels.h - where a chart's point labels go (private to plot/).  All in
 * points on the chart (frame.h).  A label goes beside its point if there
 * is room, else further out with a leader line to it; it never overlaps
 * another label, a marker, a leader or one of the lines it is told about
 * (the roofs), is nearer its own point than any other unless a leader
 * joins them, and stays inside the plot area, whose outside holds the
 * legend.  Where a point leaves no room for its name, it is labelled with
 * a number instead; if that fails too, its whole cluster, then every point
 * is numbered; the chart lists the numbers, with each point's own marker,
 * in its legend.  A point that not even a number fits beside (a pile of
 * coincident points under two roofs, with --family all) gets no label: its
 * marker and the legend name it.  A point whose text is "" has no label;
 * its marker is only kept clear of the others'. */
#ifndef GP_PLOT_LABELS_H
#define GP_PLOT_LABELS_H

#include "frame.h"

typedef struct { double x0, y0, x1, y1; } gp_seg;

typedef struct {
    double px, py;           /* in: the point                            */
    double marker;           /* in: its marker's size across             */
    const char *text;        /* in                                       */
    int below;               /* in: only under the point (the ridge: its
                                compute roof runs level with it)        */
    const char *shown;       /* out: text, or the number as text         */
    gp_box box;              /* out: the label's box                     */
    char just;               /* out: 'L' text starts at box.x0, 'R' ends
                                at box.x1                               */
    int leader;              /* out: a line joins the point to the box   */
    double lx, ly;           /* out: where that line meets the box       */
    int number;              /* out: 0, or the number shown              */
    int placed;              /* out: 1 if clear of everything; 0: not
                                drawn (shown is "", numbered)           */
    char num[12];
} gp_label;

typedef struct {
    gp_box area;             /* labels stay inside                       */
    const gp_seg *seg;       /* lines no label may cross                 */
    int nseg;
    double font;
} gp_label_space;

/* A label without a leader line is at least this much (pt) nearer its
 * own point than any other point, so it cannot be read as another's. */
#define GP_LABEL_MARGIN 2.0

/* Place the labels.  Returns how many are shown as numbers (numbered
 * 1, 2, ... in the order of `l`). */
int gp_labels_layout(gp_label *l, int n, const gp_label_space *s);

/* Does the segment cross (or touch, within pad) the box? */
int gp_seg_hits_box(gp_seg s, gp_box b, double pad);

#endif
