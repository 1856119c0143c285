/* labels.h - where the roofline's kernel names go: beside their
 * points, clear of each other, of other points and of the plot's edges. */
#ifndef GP_PLOT_LABELS_H
#define GP_PLOT_LABELS_H

typedef struct {
    double x, y;             /* the point (data coordinates, log-log)   */
    const char *text;
    int below;               /* in: only under the point (not on a line
                                that runs level with it)               */
    double lx, ly;           /* out: where the label is anchored        */
    char just;               /* out: 'L' label starts there, 'R' ends   */
    int moved;               /* out: not level with its point (draw a
                                leader line to it)                     */
} gp_label;

/* range = xmin, xmax, ymin, ymax of log-log axes drawn `w` x `h` points
 * large; labels are `fontpt` high. */
void gp_labels_place(gp_label *l, int n, const double range[4],
                     double w, double h, double fontpt);

#endif
