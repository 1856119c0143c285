/* roofline.c - one roofline per family: one size, every kernel a point at
 * (DRAM arithmetic intensity, timed performance) under the family's roofs
 * (roofs.c), measured solid and theoretical dashed, the ridge point; with
 * --hierarchical the L2 points too.  Everything is laid out here, in
 * points (frame.h): the axes in engineering units, the roofs as segments,
 * the labels clear of each other, of the roofs and of the legend below
 * the plot area (labels.c).  A point above every roof is named under the
 * title with the reason.  roofline.gp only draws. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"
#include "charts.h"
#include "roofline.h"

#define PLOT_H 250.0         /* the plot area's height, up to 14 points  */

/* Taller for more points (--family all), so their labels find room. */
static double plot_h(int n)
{
    return n > 14 ? PLOT_H + 5.0 * (n - 14) : PLOT_H;
}
#define LEFT 52.0            /* y tick labels and the axis title        */
#define RIGHT 14.0

/* A point needs both coordinates, on log axes: a traced kernel that
 * counted no FLOPs (a fill, a copy) has none. */
static double need_point(const gp_row *r)
{
    return r->gflops > 0 && r->ai_dram > 0 ? r->ai_dram : NAN;
}

static int collect_points(const gp_dataset *d, const gp_family *f, const gp_chart_opts *o,
                          gp_roofline *rl, char *err, size_t errlen)
{
    gp_where w = { .d = d, .need = need_point, .family = f };
    if (gp_shape_choose(&w, o->size, rl->shape) < 0) {
        char sz[64] = "";
        if (o->size[0])
            gp_shape_str(o->size, sz, sizeof sz);
        gp_fmt(err, errlen, "roofline: skipped, no ai_dram values%s%s (run with counters)",
               sz[0] ? " at size " : "", sz);
        return 1;
    }
    w.shape = rl->shape;
    gp_key *k;
    int n = gp_keys(&w, &k);
    rl->p = calloc((size_t)n + 1, sizeof *rl->p);
    rl->lab = calloc((size_t)n + 2, sizeof *rl->lab);
    if (!rl->p || !rl->lab) {
        free(k);
        gp_fmt(err, errlen, "out of memory");
        return -1;
    }
    for (int i = 0; i < n; i++) {
        gp_roof_point *p = &rl->p[rl->n++];
        p->k = k[i];
        p->ai = gp_median(&w, &k[i], gp_get_ai_dram);
        p->g = gp_median(&w, &k[i], gp_get_gflops);
        p->ai2 = gp_median(&w, &k[i], gp_get_ai_l2);
        p->lt = gp_family_lt(f, k[i].kernel, k[i].precision);
        p->size = GP_MARKER;
        p->share = NAN;
        gp_series_label(k, n, i, gp_key_kernel_twice(k, n, i), 44, p->name, sizeof p->name);
    }
    free(k);
    return 0;
}

/* The ridge: where the DRAM roof meets the highest compute roof
 * (data/roofs.h, as the time table's "bound" column reads it). */
static void ridge(gp_roofline *rl)
{
    rl->ridge_x = gp_roofs_ridge(&rl->roofs, &rl->ridge_y);
    gp_fmt(rl->ridge_text, sizeof rl->ridge_text, "ridge %.3g FLOP/B", rl->ridge_x);
}

/* Points that no roof covers: the chart says which, and why. */
static void above_notes(gp_roofline *rl, const gp_dataset *d)
{
    double peak = gp_roofs_top(&rl->roofs), bw = -INFINITY;
    for (int i = 0; i < rl->roofs.n; i++)
        if (strcmp(rl->roofs.r[i].ceiling, "dram_bw") == 0)
            bw = fmax(bw, rl->roofs.r[i].value);
    char names[512] = "";
    int above = 0, listed = 0;
    for (int i = 0; i < rl->n; i++) {
        const gp_roof_point *p = &rl->p[i];
        if (p->g <= fmin(peak, bw * p->ai) * 1.001)
            continue;
        above++;
        char more[600];
        gp_fmt(more, sizeof more, "%s%s%s", names, listed ? ", " : "", p->name);
        if (listed == above - 1 && gp_text_width(more, GP_LABEL_FONT) < 0.8 * GP_CHART_W - 130) {
            gp_fmt(names, sizeof names, "%s", more);
            listed++;
        }
    }
    if (!above)
        return;
    rl->nabove = 2;
    if (listed < above)
        gp_fmt(rl->note[rl->nnotes++], sizeof rl->note[0], "%d kernels above every roof "
               "drawn: %s, ...", above, names);
    else
        gp_fmt(rl->note[rl->nnotes++], sizeof rl->note[0], "Above every roof drawn: %s",
               names);
    const char *file = d->ceil_path[0] ? strrchr(d->ceil_path, '/') : NULL;
    file = file ? file + 1 : d->ceil_path;
    if (strstr(rl->roofs.missing, "tensor"))
        gp_fmt(rl->note[rl->nnotes++], sizeof rl->note[0], "%s has no %s row: the "
               "tensor-core roof these kernels run under is not drawn", file,
               strstr(rl->roofs.missing, "tf32_tensor") ? "tf32_tensor" : "fp64_tensor");
    else
        gp_fmt(rl->note[rl->nnotes++], sizeof rl->note[0], "above the theoretical peak: "
               "check the ceilings file and the counters of these rows");
}

static void axes(gp_roofline *rl)
{
    double x0 = rl->ridge_x, x1 = rl->ridge_x, y0 = rl->ridge_y, y1 = gp_roofs_top(&rl->roofs);
    for (int i = 0; i < rl->n; i++) {
        x0 = fmin(x0, rl->p[i].ai);
        x1 = fmax(x1, rl->p[i].ai);
        if (rl->hier && !isnan(rl->p[i].ai2))
            x0 = fmin(x0, rl->p[i].ai2);
        y0 = fmin(y0, rl->p[i].g);
        y1 = fmax(y1, rl->p[i].g);
    }
    rl->scale = gp_flops_unit(y1, &rl->unit);
    gp_frame *fr = &rl->fr;
    fr->xlog = fr->ylog = 1;
    gp_log_range(x0 / 1.6, x1 * 3, &fr->x0, &fr->x1);
    gp_log_range(y0 / 1.6 / rl->scale, y1 * 1.6 / rl->scale, &fr->y0, &fr->y1);
    fr->w = GP_CHART_W;
    fr->plot = (gp_box){ LEFT, 0, GP_CHART_W - RIGHT, plot_h(rl->n) };
}

static void add_seg(gp_roofline *rl, int roof, double xa, double ya, double xb, double yb)
{
    const gp_frame *fr = &rl->fr;
    if (rl->nseg >= GP_ROOFS_MAX || xb <= xa)
        return;
    gp_roof_seg *s = &rl->seg[rl->nseg++];
    s->roof = roof;
    s->d = (gp_seg){ xa, ya, xb, yb };
    s->p = (gp_seg){ gp_frame_px(fr, xa), gp_frame_py(fr, ya), gp_frame_px(fr, xb),
                     gp_frame_py(fr, yb) };
}

/* The highest compute roof of one kind (measured 1, theoretical 0), else
 * of the other. */
static double top_of_kind(const gp_roofs *r, int measured)
{
    double top = NAN;
    for (int pass = 0; pass < 2 && isnan(top); pass++)
        for (int i = 0; i < r->n; i++)
            if (r->r[i].compute && r->r[i].measured == (pass ? !measured : measured) &&
                !(r->r[i].value <= top))
                top = r->r[i].value;
    return top;
}

/* Compute roofs level from where the DRAM roof of their kind meets them;
 * bandwidth roofs rising until the highest compute roof of their kind. */
static void segments(gp_roofline *rl)
{
    const gp_frame *fr = &rl->fr;
    const double s = rl->scale;
    for (int i = 0; i < rl->roofs.n; i++) {
        const gp_roof *r = &rl->roofs.r[i];
        if (r->compute) {
            double bw = gp_roofs_value(&rl->roofs, "dram_bw", r->measured);
            add_seg(rl, i, fmax(fr->x0, r->value / bw), r->value / s, fr->x1, r->value / s);
        } else {
            double top = top_of_kind(&rl->roofs, r->measured);
            double xa = fmax(fr->x0, fr->y0 * s / r->value);
            double xb = fmin(fr->x1, top / r->value);
            add_seg(rl, i, xa, r->value * xa / s, xb, r->value * xb / s);
        }
    }
}

static void place_labels(gp_roofline *rl)
{
    const gp_frame *fr = &rl->fr;
    for (int i = 0; i < rl->n; i++)
        rl->lab[i] = (gp_label){ .px = gp_frame_px(fr, rl->p[i].ai),
                                 .py = gp_frame_py(fr, rl->p[i].g),
                                 .marker = rl->p[i].size, .text = rl->p[i].name };
    rl->lab[rl->n] = (gp_label){ .px = gp_frame_px(fr, rl->ridge_x),
                                 .py = gp_frame_py(fr, rl->ridge_y / rl->scale),
                                 .marker = 12, .text = rl->ridge_text, .below = 1 };
    gp_seg segs[GP_ROOFS_MAX];
    for (int i = 0; i < rl->nseg; i++)
        segs[i] = rl->seg[i].p;
    gp_label_space sp = { fr->plot, segs, rl->nseg, GP_LABEL_FONT };
    rl->numbered = gp_labels_layout(rl->lab, rl->n + 1, &sp);
}

/* Append `pair` to the overlap note lines from rl->note[*line] on: a line
 * full, the next; none left, it is only counted (*unlisted). */
static void note_pair(gp_roofline *rl, int *line, const char *pair, int *unlisted)
{
    const double room = GP_CHART_W - 80;        /* and ", and N more" */
    char *n = rl->note[*line], more[400];
    gp_fmt(more, sizeof more, "%s%s%s", n[0] ? n : "Drawn over another marker: ",
           n[0] ? ", " : "", pair);
    if (!*unlisted && gp_text_width(more, GP_LABEL_FONT) < room) {
        gp_fmt(n, sizeof rl->note[0], "%s", more);
    } else if (!*unlisted && *line + 1 < GP_ROOF_NOTES) {
        gp_fmt(more, sizeof more, "%s,", n);
        gp_fmt(n, sizeof rl->note[0], "%s", more);
        gp_fmt(rl->note[++*line], sizeof rl->note[0], "%s", pair);
    } else {
        ++*unlisted;
    }
}

/* Markers that touch or cover each other (centres less than a marker
 * apart): gnuplot draws the later point over the earlier, so the chart
 * names them under the title, "warptiling over double_buffer", on the
 * note lines left ("and 2 more" for pairs that find none); every pair
 * goes to rl->overlap_list, for the notes of `gemmprof plot` and report. */
static void overlap_note(gp_roofline *rl)
{
    int line = rl->nnotes, unlisted = 0;
    for (int j = 0; j < rl->n; j++)
        for (int i = 0; i < j; i++) {
            if (hypot(rl->lab[i].px - rl->lab[j].px, rl->lab[i].py - rl->lab[j].py) >=
                fmin(rl->lab[i].marker, rl->lab[j].marker))
                continue;
            char pair[128], list[sizeof rl->overlap_list];
            gp_fmt(pair, sizeof pair, "%s over %s", rl->p[j].name, rl->p[i].name);
            gp_fmt(list, sizeof list, "%s%s%s", rl->overlap_list, rl->overlaps++ ? ", " : "",
                   pair);
            gp_fmt(rl->overlap_list, sizeof rl->overlap_list, "%s", list);
            note_pair(rl, &line, pair, &unlisted);
        }
    if (!rl->overlaps)
        return;
    rl->nnotes = line + 1;
    if (unlisted) {
        char more[400];
        gp_fmt(more, sizeof more, "%s, and %d more", rl->note[line], unlisted);
        gp_fmt(rl->note[line], sizeof rl->note[0], "%s", more);
    }
}

static void shift_y(gp_roofline *rl, double dy)
{
    gp_frame *fr = &rl->fr;
    fr->plot.y0 += dy;
    fr->plot.y1 += dy;
    for (int i = 0; i < rl->nseg; i++) {
        rl->seg[i].p.y0 += dy;
        rl->seg[i].p.y1 += dy;
    }
    for (int i = 0; i <= rl->n; i++) {
        gp_label *l = &rl->lab[i];
        l->py += dy;
        l->ly += dy;
        l->box.y0 += dy;
        l->box.y1 += dy;
    }
}

static void fmt_roof(const gp_roofline *rl, const gp_roof *r, char *out, size_t len);

/* The legend goes under the plot area (two columns, one where a roof's
 * entry is too wide for two): roofs, the ridge, the L2 points, the
 * numbered kernels.  Then the chart's height is known and the plot area
 * moves up to make room. */
static void legend(gp_roofline *rl)
{
    rl->nkey = rl->nseg + 1 + rl->hier + rl->numbered;   /* roofs drawn, ridge, ... */
    double widest = 0;
    for (int i = 0; i < rl->nseg; i++) {
        char t[128];
        fmt_roof(rl, &rl->roofs.r[rl->seg[i].roof], t, sizeof t);
        widest = fmax(widest, gp_text_width(t, GP_FONT));
    }
    for (int i = 0; i < rl->n; i++)         /* numbered kernels' entries too */
        if (rl->lab[i].number) {
            char t[96];
            gp_fmt(t, sizeof t, "%d  %s", rl->lab[i].number, rl->p[i].name);
            widest = fmax(widest, gp_text_width(t, GP_FONT));
        }
    int cols = gp_key_cols(widest) < 2 ? 1 : 2;
    double y0 = rl->fr.plot.y0;
    gp_frame_stack(&rl->fr, LEFT, RIGHT, plot_h(rl->n), 38, rl->nkey, cols, rl->nnotes);
    double dy = rl->fr.plot.y0 - y0;
    rl->fr.plot.y0 = y0;                     /* shift_y moves it, and the rest */
    rl->fr.plot.y1 = y0 + plot_h(rl->n);
    shift_y(rl, dy);
    rl->key = (gp_box){ 0, 0, rl->fr.w, rl->fr.ky };
}

int gp_roofline_roofs(const gp_dataset *d, const gp_family *f, const gp_chart_opts *o,
                      gp_roofline *rl, char *err, size_t errlen)
{
    memset(rl, 0, sizeof *rl);
    if (!d->ceil) {
        gp_fmt(err, errlen, "roofline: skipped, no ceilings file (run gemmprof "
               "probe, then pass --ceilings FILE)");
        return 1;
    }
    gp_family_roofs(d, f, o->hierarchical, &rl->roofs);
    if (isnan(gp_roofs_value(&rl->roofs, "dram_bw", 1))) {
        gp_fmt(err, errlen, "roofline: skipped, %s has no dram_bw ceiling", d->ceil_path);
        return 1;
    }
    if (isnan(gp_roofs_top(&rl->roofs))) {
        gp_fmt(err, errlen, "roofline %s: skipped, %s has no compute ceiling for it (%s)",
               f->name, d->ceil_path, rl->roofs.missing);
        return 1;
    }
    return 0;
}

void gp_roofline_place(const gp_dataset *d, const gp_chart_opts *o, gp_roofline *rl)
{
    for (int i = 0; o->hierarchical && i < rl->n; i++)
        rl->hier |= !isnan(rl->p[i].ai2);
    if (o->hierarchical && !rl->hier)
        gp_warn("roofline: no ai_l2 values, L2 points left out");
    ridge(rl);
    above_notes(rl, d);
    axes(rl);
    for (int i = 0; i < rl->n; i++)           /* from here on in the axis unit */
        rl->p[i].g /= rl->scale;
    segments(rl);
    place_labels(rl);
    if (!rl->weighted)         /* sized markers: the larger drawn first, none hidden */
        overlap_note(rl);
    legend(rl);
}

int gp_roofline_layout(const gp_dataset *d, const gp_family *f, const gp_chart_opts *o,
                       gp_roofline *rl, char *err, size_t errlen)
{
    int rc = gp_roofline_roofs(d, f, o, rl, err, errlen);
    if (rc == 0)
        rc = collect_points(d, f, o, rl, err, errlen);
    if (rc == 0)
        gp_roofline_place(d, o, rl);
    return rc;
}

void gp_roofline_free(gp_roofline *rl)
{
    free(rl->p);
    free(rl->lab);
    memset(rl, 0, sizeof *rl);
}

/* ---- drawing ---- */

static void fmt_roof(const gp_roofline *rl, const gp_roof *r, char *out, size_t len)
{
    double v = r->value / rl->scale;         /* 1070, 66.9: never 1.07e+03 */
    if (r->compute)
        gp_fmt(out, len, v >= 100 ? "%s %.0f %s (%s)" : "%s %.3g %s (%s)", r->what, v,
               rl->unit, r->measured ? "measured" : "theoretical");
    else
        gp_fmt(out, len, "%s %.0f GB/s (%s)", r->what, r->value,
               r->measured ? "measured" : "theoretical");
}

/* Segments, one block each (two rows), and their legend titles. */
static int write_segs(const gp_chart_opts *o, const gp_roofline *rl, char *path, size_t plen,
                      gp_buf *names, gp_buf *styles, char *err, size_t errlen)
{
    FILE *f = gp_open_in(o->workdir, "roofline-roofs.csv", path, plen, err, errlen);
    if (!f)
        return -1;
    for (int i = 0; i < rl->nseg; i++) {
        const gp_roof *r = &rl->roofs.r[rl->seg[i].roof];
        char t[128];
        fmt_roof(rl, r, t, sizeof t);
        fprintf(f, "# %s\n%.8g,%.8g\n%.8g,%.8g\n\n\n", t, rl->seg[i].d.x0, rl->seg[i].d.y0,
                rl->seg[i].d.x1, rl->seg[i].d.y1);
        gp_word(names, o->format, t);
        /* colour by resource, solid measured, dashed theoretical */
        const char *col = !r->compute ? (strcmp(r->ceiling, "dram_bw") == 0 ? "#0072B2" :
                          strcmp(r->ceiling, "l2_bw") == 0 ? "#009E73" : "#E69F00")
                          : strstr(r->ceiling, "tensor") ? "#CC79A7" : "#000000";
        gp_buf_printf(styles, "%s%s:%d", i ? " " : "", col, r->measured);
    }
    if (fclose(f) != 0) {
        gp_fmt(err, errlen, "%s: write failed", path);
        return -1;
    }
    return 0;
}

/* STEM.csv: each point's series in a comment above it (gp_chart_data_*). */
static int write_points(const gp_chart_opts *o, const gp_roofline *rl, const char *stem,
                        char *path, size_t plen, char *err, size_t errlen)
{
    char name[128], where[80], sz[64], cols[128];
    gp_fmt(name, sizeof name, "%s.csv", stem);
    gp_shape_str(rl->shape, sz, sizeof sz);
    gp_fmt(where, sizeof where, "shape: %s", sz);
    gp_fmt(cols, sizeof cols, "shown,ai_dram,%s,ai_l2,label_x,label_y,just,leader,leader_x,"
           "leader_y,lt%s", rl->unit, rl->weighted ? ",share_pct,marker_pt" : "");
    FILE *f = gp_chart_data_open(o, name, where, cols, path, plen, err, errlen);
    if (!f)
        return -1;
    const gp_frame *fr = &rl->fr;
    for (int i = 0; i <= rl->n; i++) {
        const gp_label *l = &rl->lab[i];
        char text[256];
        gp_data_text(o->format, l->shown, text, sizeof text);
        if (i < rl->n)
            gp_chart_data_series(f, &rl->p[i].k, 0);
        else
            fprintf(f, "# the ridge point\n");
        double ax = l->just == 'R' ? l->box.x1 : l->box.x0;
        double ay = l->box.y0 + GP_TEXT_DOWN * GP_LABEL_FONT;
        if (i < rl->n)
            fprintf(f, "%s,%.8g,%.8g,", text, rl->p[i].ai, rl->p[i].g);
        else
            fprintf(f, "%s,%.8g,%.8g,", text, rl->ridge_x, rl->ridge_y / rl->scale);
        fprintf(f, i < rl->n && !isnan(rl->p[i].ai2) && rl->hier ? "%.8g," : "NA,",
                i < rl->n ? rl->p[i].ai2 : 0);
        fprintf(f, "%.8g,%.8g,%c,%d,%.8g,%.8g,%d", gp_frame_x(fr, ax), gp_frame_y(fr, ay),
                l->just, l->leader, gp_frame_x(fr, l->lx), gp_frame_y(fr, l->ly),
                i < rl->n ? rl->p[i].lt : 0);
        if (rl->weighted && i < rl->n)
            fprintf(f, ",%.4f,%.4g", rl->p[i].share, rl->p[i].size);
        else if (rl->weighted)
            fprintf(f, ",NA,NA");
        fputc('\n', f);
    }
    if (fclose(f) != 0) {
        gp_fmt(err, errlen, "%s: write failed", path);
        return -1;
    }
    return 0;
}

/* "1 cublas" for each numbered point, as gnuplot words, and their
 * linetypes. */
static void numbered_keys(const gp_chart_opts *o, const gp_roofline *rl, gp_buf *names,
                          gp_buf *lts)
{
    for (int i = 0; i < rl->n; i++) {
        if (!rl->lab[i].number)
            continue;
        char t[96];
        gp_fmt(t, sizeof t, "%d  %s", rl->lab[i].number, rl->p[i].name);
        gp_word(names, o->format, t);
        gp_buf_printf(lts, "%s%d", lts->len ? " " : "", rl->p[i].lt);
    }
}

int gp_roofline_draw(const gp_chart_opts *o, const gp_roofline *rl, const char *script,
                     const char *stem, const char *title, const char *caption,
                     const gp_buf *extra, gp_strlist *written, char *err, size_t errlen)
{
    char pts[4096], segs[4096];
    gp_buf v = { 0 }, names = { 0 }, styles = { 0 }, knames = { 0 }, klts = { 0 }, plts = { 0 };
    int rc = write_segs(o, rl, segs, sizeof segs, &names, &styles, err, errlen);
    if (rc == 0)
        rc = write_points(o, rl, stem, pts, sizeof pts, err, errlen);
    if (rc == 0) {
        numbered_keys(o, rl, &knames, &klts);
        for (int i = 0; i < rl->n; i++)
            gp_buf_printf(&plts, "%s%d", i ? " " : "", rl->p[i].lt);
        gp_frame_vars(&v, o, &rl->fr, caption);
        gp_var_str(&v, "pts", pts);
        gp_var_str(&v, "segs", segs);
        gp_var_str(&v, "snames", names.s ? names.s : "");
        gp_var_str(&v, "sstyles", styles.s ? styles.s : "");
        gp_var_str(&v, "knames", knames.s ? knames.s : "");
        gp_var_str(&v, "klts", klts.s ? klts.s : "");
        gp_var_num(&v, "npts", rl->n);
        gp_var_str(&v, "plts", plts.s ? plts.s : "");
        gp_var_num(&v, "hier", rl->hier);
        gp_var_num(&v, "xmin", rl->fr.x0);
        gp_var_num(&v, "xmax", rl->fr.x1);
        gp_var_num(&v, "ymin", rl->fr.y0);
        gp_var_num(&v, "ymax", rl->fr.y1);
        gp_log_tics(&v, "xt", rl->fr.x0, rl->fr.x1, 7);
        gp_log_tics(&v, "yt", rl->fr.y0, rl->fr.y1, 7);
        char ylab[64];
        gp_fmt(ylab, sizeof ylab, "Performance (%s)", rl->unit);
        gp_var_str(&v, "ylab", ylab);
        for (int i = 0; i < GP_ROOF_NOTES; i++) {
            char t[400] = "", name[16];
            if (i < rl->nnotes)
                gp_chart_text(o->format, rl->note[i], 0, t, sizeof t);
            gp_fmt(name, sizeof name, "note%d", i + 1);
            gp_var_str(&v, name, t);
        }
        gp_var_str(&v, "ttl", title);
        if (extra && extra->s)
            gp_buf_printf(&v, "%s", extra->s);
        rc = gp_chart_draw(o, script, stem, caption, &v, written, err, errlen);
    }
    gp_buf_free(&v);
    gp_buf_free(&names);
    gp_buf_free(&styles);
    gp_buf_free(&knames);
    gp_buf_free(&klts);
    gp_buf_free(&plts);
    return rc;
}

static int draw_one(const gp_dataset *d, const gp_chart_opts *o, const gp_family *f,
                    gp_strlist *written, char *err, size_t errlen)
{
    gp_roofline rl;
    int rc = gp_roofline_layout(d, f, o, &rl, err, errlen);
    if (rc != 0) {
        gp_roofline_free(&rl);
        return rc;
    }
    char title[512], sz[64], caption[512], stem[96];
    gp_fmt(stem, sizeof stem, f->whole ? "roofline" : "roofline-%s", f->name);
    gp_shape_str(rl.shape, sz, sizeof sz);
    gp_chart_title(o, title, sizeof title, "Roofline, %s: %s, size %s%s", f->title,
                   gp_chart_gpu(d), sz, rl.hier ? " (DRAM and L2)" : "");
    gp_fmt(caption, sizeof caption, "%s at size %s: each kernel at its DRAM arithmetic "
           "intensity, under the roofs (solid: measured).", f->title, sz);
    rc = gp_roofline_draw(o, &rl, "roofline.gp", stem, title, caption, NULL, written, err,
                          errlen);
    if (rc == 0 && rl.nabove)
        gp_fmt(err, errlen, "roofline: %s (%s)%s%s", rl.note[0], rl.note[1],
               rl.overlaps ? "; drawn over another marker: " : "", rl.overlap_list);
    else if (rc == 0 && rl.overlaps)
        gp_fmt(err, errlen, "roofline: drawn over another marker: %s", rl.overlap_list);
    gp_roofline_free(&rl);
    return rc;
}

int gp_chart_roofline(const gp_dataset *d, const gp_chart_opts *o,
                      gp_strlist *written, char *err, size_t errlen)
{
    return gp_chart_each_family(d, o, draw_one, written, err, errlen);
}
