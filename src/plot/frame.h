/* frame.h - a chart's geometry, in points (1/72 inch), decided here and
 * not by gnuplot, so that what the chart code lays out (labels, roofs,
 * the legend) is exactly where gnuplot draws it (private to plot/):
 *   - every chart is GP_CHART_W wide: it fits the text block of A4 (160 mm
 *     between 25 mm margins) and of Letter (6.5 in between 1 in margins),
 *     so a figure goes into a write-up at 100%;
 *   - the plot area has fixed edges (gnuplot's `set lmargin at screen`),
 *     the legend sits outside it, below or beside;
 *   - text is DejaVu Sans (fontconfig's "Sans" on Debian), measured with its
 *     own advance widths, at the sizes style.gp sets up (fontscale makes a
 *     nominal 8 pt label 8 pt on the page, in PDF and PNG alike);
 *   - in a report page the chart is placed on the paper with a caption line
 *     under it; the chart's own geometry does not change. */
#ifndef GP_PLOT_FRAME_H
#define GP_PLOT_FRAME_H

#include "plot.h"

#define GP_CHART_W 432.0     /* 6.0 in */
#define GP_FONT 9.0          /* ticks, axis titles, legend */
#define GP_LABEL_FONT 8.0    /* point labels */
#define GP_MARKER 5.5        /* a point's marker, pt across (ps 0.9) */

typedef struct { double x0, y0, x1, y1; } gp_box;

typedef struct {
    double w, h;             /* the chart                                */
    gp_box plot;             /* the plot area, from the chart's bottom left */
    double kx, ky;           /* the legend's top left corner             */
    int kcols, krows;        /* legend columns and rows (0: gnuplot's)    */
    double x0, x1, y0, y1;   /* axis ranges (data units)                 */
    int xlog, ylog;
} gp_frame;

/* The usual chart, GP_CHART_W wide, top to bottom: the title (and
 * `notes` lines under it), the plot area `plot_h` high between `left` and
 * `right` margins, `below` points for tick labels and axis title, then the
 * legend: `nkey` entries in `kcols` columns.  Sets everything but the
 * axis ranges. */
void gp_frame_stack(gp_frame *f, double left, double right, double plot_h,
                    double below, int nkey, int kcols, int notes);
#define GP_KEY_ROW 11.0      /* a legend row                             */
/* Legend columns that fit the chart's width, for entries whose longest
 * text is `widest` pt (at the legend's 8 pt): 1 to 4. */
int gp_key_cols(double widest);
#define GP_NOTE_ROW 11.0     /* a line under the title                   */

/* Data to points and back, on the frame's axes. */
double gp_frame_px(const gp_frame *f, double x);
double gp_frame_py(const gp_frame *f, double y);
double gp_frame_x(const gp_frame *f, double px);
double gp_frame_y(const gp_frame *f, double py);

/* Text box: width of `s` at `font` pt; its box runs from GP_TEXT_DOWN to
 * GP_TEXT_UP times the font size around the line gnuplot centres it on. */
#define GP_TEXT_UP 0.56
#define GP_TEXT_DOWN 0.62
double gp_text_width(const char *s, double font);
int gp_box_overlap(gp_box a, gp_box b, double pad);
/* Make `s` fit `maxw` at `font`: parenthesised parts go first (a family's
 * "(naive to warptiling)"), then the end, cut with "...". */
void gp_fit_text(char *s, double font, double maxw);
/* Break `s` at spaces into lines no wider than `maxw` at `font` (a word
 * wider than that gets a line of its own): how many, at most `max`. */
int gp_wrap_text(const char *s, double font, double maxw, char lines[][256], int max);
#define GP_CAPTION_LINES 8   /* a report page's caption, at most          */

/* gnuplot variables that place the frame: the canvas (the chart, or the
 * report's page with the chart centred near its top and the caption under
 * it), the plot area's edges as screen fractions (lm, rm, bm, tm), the
 * legend's corner (kx, ky) and columns (kcols), the caption wrapped to
 * the chart's width (ncap lines cap1, cap2, ...; capx, capy). */
void gp_frame_vars(gp_buf *v, const gp_chart_opts *o, const gp_frame *f,
                   const char *caption);
/* Box `b` (pt, on frame f's chart) as screen fractions, for a multiplot's
 * panels: PREFIXlm, PREFIXrm, PREFIXbm, PREFIXtm. */
void gp_frame_box_vars(gp_buf *v, const gp_chart_opts *o, const gp_frame *f,
                       const char *prefix, gp_box b);

/* Append `text` to a gnuplot word list as one word: in double quotes
 * (gnuplot's word() keeps a quoted word whole), as the format needs it. */
void gp_word(gp_buf *list, const char *format, const char *text);

/* Log axes in engineering units.  The range [lo, hi] widened to 1-2-5
 * values; ticks at decades, or at 1-2-5 steps when the range spans less
 * than two decades and that gives at most `most` ticks, each
 * labelled as a plain number ("0.1", "20", "1000"): the gnuplot tic list
 * "('0.1' 0.1, '1' 1)" in variable `name`. */
void gp_log_range(double lo, double hi, double *a, double *b);
void gp_log_tics(gp_buf *v, const char *name, double lo, double hi, int most);
/* GFLOP/s shown as TFLOP/s when the axis reaches 2000: scale and unit. */
double gp_flops_unit(double max_gflops, const char **unit);

#endif
