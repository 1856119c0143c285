/* dist_scaling.c - strong scaling of `gemmprof dist` runs, one chart per
 * shape, from the runs' summary rows (rank "all").  Laid out here in
 * points (frame.h), drawn by dist_scaling.gp as a multiplot:
 *   - one column of panels per transport (nccl, staged, ...), on the same
 *     axes: a transport that falls off stands apart from one that scales;
 *   - top: speed-up over one GPU against the GPU count, with the ideal
 *     line (speed-up = GPUs); bottom: parallel efficiency, speed-up over
 *     GPUs, against 100%.  No second y axis;
 *   - one series per (kernel, transport), named in the legend.  A kernel's
 *     1-rank run is the base of all its series (one rank sends nothing);
 *   - every grid run is a point, tagged with its grid (1x2, 2x1, 2x2) by
 *     the label layout (labels.c: beside it, or joined by a leader); the
 *     points at one GPU count are set GP_DIST_DODGE pt apart, so that none
 *     hides another; the series' line runs through its best grid.
 * Without a 1-rank run a kernel's speed-up counts from its smallest rank
 * count as if that had scaled ideally, and a note under the title says so. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"
#include "charts.h"
#include "dist.h"

#define LEFT 50.0            /* y tick labels and axis title             */
#define RIGHT 10.0
#define GAP 14.0             /* between the columns                      */
#define TOP_H 150.0          /* the speed-up panels                      */
#define EFF_H 70.0           /* the efficiency panels                    */
#define MID 8.0              /* between them                             */
#define HEAD 14.0            /* the transport's name over its column     */
#define BELOW 36.0           /* x tick labels and axis title             */

static int run_of(const gp_dist_scaling *sc, const gp_row *r, const gp_row *k,
                  const char *comm, long ranks)
{
    return gp_dist_scaling_row(r) && gp_dist_shape_is(r, sc->s) &&
           gp_dist_same_kernel(r, k) && (long)r->ranks == ranks &&
           (!comm || strcmp(r->comm, comm) == 0);
}

/* Median GFLOP/s of kernel k's runs at `ranks` on `grid` (transport
 * `comm`, or any if NULL); NAN if none. */
static double grid_median(const gp_dist_scaling *sc, const gp_row *k, const char *comm,
                          long ranks, const char *grid)
{
    double v[GP_DIST_MAX_ITEMS];
    int n = 0;
    for (int i = 0; i < sc->d->nrows && n < GP_DIST_MAX_ITEMS; i++) {
        const gp_row *r = &sc->d->rows[i];
        if (run_of(sc, r, k, comm, ranks) && strcmp(r->grid, grid) == 0)
            v[n++] = r->gflops;
    }
    return gp_dist_median(v, n);
}

/* The best grid's median of kernel k at `ranks` over transport `comm`;
 * comm NULL: over the best transport (on one rank, any: it sends
 * nothing).  NAN if none. */
static double best_grid(const gp_dist_scaling *sc, const gp_row *k, const char *comm,
                        long ranks)
{
    double best = NAN;
    for (int i = 0; i < sc->d->nrows; i++) {
        const gp_row *r = &sc->d->rows[i];
        const char *c = comm ? comm : ranks > 1 ? r->comm : NULL;
        double m = run_of(sc, r, k, comm, ranks) ? grid_median(sc, k, c, ranks, r->grid)
                                                 : NAN;
        if (!isnan(m) && !(m <= best))
            best = m;
    }
    return best;
}

static int col_of(gp_dist_scaling *sc, const char *comm)
{
    for (int c = 0; c < sc->ncols; c++)
        if (strcmp(sc->comm[c], comm) == 0)
            return c;
    if (sc->ncols == GP_DIST_COLS)
        return -1;
    gp_fmt(sc->comm[sc->ncols], sizeof sc->comm[0], "%s", comm);
    return sc->ncols++;
}

static void add_series(gp_dist_scaling *sc, const gp_row *r)
{
    for (int j = 0; j < sc->nk; j++)
        if (gp_dist_same_kernel(sc->k[j].r, r) && strcmp(sc->k[j].r->comm, r->comm) == 0)
            return;
    int c = col_of(sc, r->comm);
    if (c < 0) {
        gp_fmt(sc->note[sc->nnotes < 2 ? sc->nnotes++ : 1], sizeof sc->note[0],
               "Transports past the first %d left out (%s)", GP_DIST_COLS, r->comm);
        return;
    }
    if (sc->nk < GP_DIST_MAX_ITEMS)
        sc->k[sc->nk++] = (gp_dist_series){ .r = r, .col = c };
}

static int by_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

/* Rank counts, series (runs on more than one rank), kernels and their
 * bases: the smallest rank count each was run at, best grid, any
 * transport. */
static void scan(gp_dist_scaling *sc)
{
    for (int i = 0; i < sc->d->nrows; i++) {
        const gp_row *r = &sc->d->rows[i];
        if (!gp_dist_scaling_row(r) || !gp_dist_shape_is(r, sc->s))
            continue;
        long rk = (long)r->ranks;
        int j = 0;
        while (j < sc->nranks && sc->ranks[j] != rk)
            j++;
        if (j == sc->nranks && sc->nranks < GP_DIST_MAX_ITEMS)
            sc->ranks[sc->nranks++] = rk;
        for (j = 0; j < sc->nb && !gp_dist_same_kernel(sc->b[j].r, r); j++)
            ;
        if (j == sc->nb && sc->nb < GP_DIST_MAX_ITEMS)
            sc->b[sc->nb++] = (gp_dist_base){ .r = r };
        if (rk > 1)
            add_series(sc, r);
    }
    qsort(sc->ranks, (size_t)sc->nranks, sizeof *sc->ranks, by_long);
    for (int j = 0; j < sc->nb; j++)
        for (int i = 0; i < sc->nranks && !sc->b[j].ranks; i++) {
            double g = best_grid(sc, sc->b[j].r, NULL, sc->ranks[i]);
            if (!isnan(g)) {
                sc->b[j].ranks = sc->ranks[i];
                sc->b[j].per_rank = g / (double)sc->ranks[i];
            }
        }
}

static const gp_dist_base *base_of(const gp_dist_scaling *sc, const gp_row *k)
{
    for (int j = 0; j < sc->nb; j++)
        if (gp_dist_same_kernel(sc->b[j].r, k))
            return &sc->b[j];
    return NULL;
}

static void add_point(gp_dist_scaling *sc, int s, long ranks, const char *grid, double g)
{
    const gp_dist_base *b = base_of(sc, sc->k[s].r);
    if (sc->np == GP_DIST_MAX_ITEMS || isnan(g) || !b)
        return;
    gp_dist_point *p = &sc->p[sc->np++];
    *p = (gp_dist_point){ .s = s, .ranks = ranks, .gflops = g, .x = (double)ranks };
    gp_fmt(p->grid, sizeof p->grid, "%s", grid);
    p->speedup = g / b->per_rank;
    p->eff = 100.0 * p->speedup / (double)ranks;
}

/* Series s's points at `ranks`: one per grid (first rows first); at one
 * rank the kernel's own 1-rank run, whatever transport it names.  The
 * best of them carries the series' line. */
static void series_points(gp_dist_scaling *sc, int s, long ranks)
{
    const gp_row *k = sc->k[s].r;
    const char *comm = ranks > 1 ? k->comm : NULL;
    int first = sc->np;
    for (int i = 0; i < sc->d->nrows; i++) {
        const gp_row *r = &sc->d->rows[i];
        if (!run_of(sc, r, k, comm, ranks))
            continue;
        int seen = 0;
        for (int q = first; q < sc->np; q++)
            seen |= strcmp(sc->p[q].grid, r->grid) == 0;
        if (!seen)
            add_point(sc, s, ranks, r->grid, grid_median(sc, k, comm, ranks, r->grid));
    }
    int best = -1;
    for (int q = first; q < sc->np; q++)
        if (best < 0 || sc->p[q].gflops > sc->p[best].gflops)
            best = q;
    if (best >= 0)
        sc->p[best].best = 1;
}

/* A series name, "cublas, nccl", with the precision where a kernel name
 * comes in two. */
static void series_name(const gp_dist_scaling *sc, int s, char *out, size_t len)
{
    const gp_row *k = sc->k[s].r;
    int dup = 0;
    for (int j = 0; j < sc->nb; j++)
        dup |= strcmp(sc->b[j].r->kernel, k->kernel) == 0 &&
               strcmp(sc->b[j].r->precision, k->precision) != 0;
    gp_fmt(out, len, "%s%s%s%s, %s", k->kernel, dup ? " (" : "", dup ? k->precision : "",
           dup ? ")" : "", k->comm);
}

/* The frame: title, notes, the column headings, the two rows of panels,
 * the legend (the series, then the ideal line) under them. */
static void frames(gp_dist_scaling *sc)
{
    double widest = gp_text_width("ideal (speed-up = GPUs)", GP_FONT);
    for (int s = 0; s < sc->nk; s++) {
        char name[160];
        series_name(sc, s, name, sizeof name);
        widest = fmax(widest, gp_text_width(name, GP_FONT));
    }
    sc->nkey = sc->nk + 1;
    gp_frame *fr = &sc->fr;
    gp_frame_stack(fr, LEFT, RIGHT, EFF_H + MID + TOP_H + HEAD, BELOW, sc->nkey,
                   gp_key_cols(widest), sc->nnotes);
    double smax = sc->ranks[sc->nranks - 1] + 0.5, emax = 110;
    for (int q = 0; q < sc->np; q++) {
        smax = fmax(smax, 1.08 * sc->p[q].speedup);
        emax = fmax(emax, 1.08 * sc->p[q].eff);
    }
    double pw = (fr->plot.x1 - fr->plot.x0 - GAP * (sc->ncols - 1)) / sc->ncols;
    for (int c = 0; c < sc->ncols; c++) {
        double x0 = fr->plot.x0 + c * (pw + GAP), y0 = fr->plot.y0;
        gp_frame *e = &sc->eff[c], *t = &sc->top[c];
        *e = *fr;
        e->plot = (gp_box){ x0, y0, x0 + pw, y0 + EFF_H };
        e->x0 = 0.5, e->x1 = sc->ranks[sc->nranks - 1] + 0.5;
        e->y0 = 0, e->y1 = ceil(emax / 10) * 10;
        *t = *e;
        t->plot = (gp_box){ x0, y0 + EFF_H + MID, x0 + pw, y0 + EFF_H + MID + TOP_H };
        t->y0 = 0, t->y1 = ceil(2 * smax) / 2;
    }
}

/* The points at one GPU count in one column, side by side in the order
 * of their series and grids, GP_DIST_DODGE pt apart. */
static void dodge(gp_dist_scaling *sc)
{
    for (int c = 0; c < sc->ncols; c++) {
        const gp_frame *t = &sc->top[c];
        double unit = (t->x1 - t->x0) / (t->plot.x1 - t->plot.x0);   /* x per pt */
        for (int i = 0; i < sc->nranks; i++) {
            int m = 0, k = 0;
            for (int q = 0; q < sc->np; q++)
                m += sc->k[sc->p[q].s].col == c && sc->p[q].ranks == sc->ranks[i];
            for (int q = 0; q < sc->np; q++)
                if (sc->k[sc->p[q].s].col == c && sc->p[q].ranks == sc->ranks[i])
                    sc->p[q].x = sc->ranks[i] + (k++ - (m - 1) / 2.0) * GP_DIST_DODGE * unit;
        }
    }
}

/* The lines no tag may cross in column c's speed-up panel: each series'
 * line, in pt.  (Not the ideal: thin and dashed, a tag over it reads
 * well, and points near ideal leave little room either side of it.)
 * How many. */
static int panel_lines(const gp_dist_scaling *sc, int c, gp_seg *seg, int max)
{
    const gp_frame *t = &sc->top[c];
    int n = 0;
    for (int q = 0; q < sc->np && n < max; q++) {
        const gp_dist_point *a = &sc->p[q];
        if (!a->best || sc->k[a->s].col != c)
            continue;
        const gp_dist_point *b = NULL;          /* the next best point to the right */
        for (int z = 0; z < sc->np; z++)
            if (sc->p[z].best && sc->p[z].s == a->s && sc->p[z].ranks > a->ranks &&
                (!b || sc->p[z].ranks < b->ranks))
                b = &sc->p[z];
        if (b)
            seg[n++] = (gp_seg){ gp_frame_px(t, a->x), gp_frame_py(t, a->speedup),
                                 gp_frame_px(t, b->x), gp_frame_py(t, b->speedup) };
    }
    return n;
}

/* Each column's grid tags, placed in its speed-up panel. */
static void tags(gp_dist_scaling *sc)
{
    for (int c = 0; c < sc->ncols; c++) {
        const gp_frame *t = &sc->top[c];
        gp_label lab[GP_DIST_MAX_ITEMS];
        int idx[GP_DIST_MAX_ITEMS], n = 0;
        for (int q = 0; q < sc->np; q++) {
            if (sc->k[sc->p[q].s].col != c)
                continue;
            idx[n] = q;
            lab[n++] = (gp_label){ .px = gp_frame_px(t, sc->p[q].x),
                                   .py = gp_frame_py(t, sc->p[q].speedup),
                                   .marker = GP_MARKER,
                                   .text = sc->p[q].ranks > 1 ? sc->p[q].grid : "" };
        }
        gp_seg seg[GP_DIST_MAX_ITEMS];
        gp_label_space sp = { t->plot, seg, panel_lines(sc, c, seg, GP_DIST_MAX_ITEMS),
                              GP_LABEL_FONT };
        /* where the lines leave a tag no room, it may lie across one:
         * better than a number the legend does not list */
        if (gp_labels_layout(lab, n, &sp) > 0) {
            sp.nseg = 0;
            gp_labels_layout(lab, n, &sp);
        }
        for (int i = 0; i < n; i++) {
            gp_label *l = &sc->lab[idx[i]];
            *l = lab[i];
            if (lab[i].shown == lab[i].num)     /* a number: the copy's own */
                l->shown = l->num;
        }
    }
}

int gp_dist_scaling_layout(const gp_dataset *d, const long s[3], gp_dist_scaling *sc)
{
    memset(sc, 0, sizeof *sc);
    sc->d = d;
    memcpy(sc->s, s, sizeof sc->s);
    scan(sc);
    if (sc->nranks < 2 || sc->nk == 0)
        return 1;
    for (int j = 0; j < sc->nb; j++)
        if (sc->b[j].ranks > 1 && sc->nnotes < 2)
            gp_fmt(sc->note[sc->nnotes++], sizeof sc->note[0], "No 1-rank run of %s: its "
                   "speed-up counts from %ld ranks as if they scaled ideally",
                   sc->b[j].r->kernel, sc->b[j].ranks);
    for (int k = 0; k < sc->nk; k++)
        for (int i = 0; i < sc->nranks; i++)
            series_points(sc, k, sc->ranks[i]);
    frames(sc);
    dodge(sc);
    tags(sc);
    return 0;
}

/* ---- drawing ---- */

/* STEM.csv: per series a block of its points (x, speedup, efficiency_pct,
 * ranks, grid, best, gflops), then per series a block of its line (the
 * best points); STEM-tags.csv: per column a block of grid tags. */
static int write_points(const gp_chart_opts *o, const gp_dist_scaling *sc, const char *stem,
                        char *path, size_t plen, char *err, size_t errlen)
{
    char name[256];
    gp_fmt(name, sizeof name, "%s.csv", stem);
    FILE *f = gp_open_in(o->workdir, name, path, plen, err, errlen);
    if (!f)
        return -1;
    for (int pass = 0; pass < 2; pass++)
        for (int s = 0; s < sc->nk; s++) {
            const gp_row *k = sc->k[s].r;
            fprintf(f, "# %s %s %s%s: x,speedup,efficiency_pct,ranks,grid,best,gflops\n",
                    k->kernel, k->precision, k->comm, pass ? " line" : "");
            for (int q = 0; q < sc->np; q++) {
                const gp_dist_point *p = &sc->p[q];
                char grid[64];
                gp_data_text(o->format, p->grid, grid, sizeof grid);
                if (p->s == s && (!pass || p->best))
                    fprintf(f, "%.6g,%.6g,%.6g,%ld,%s,%d,%.6g\n", p->x, p->speedup, p->eff,
                            p->ranks, grid, p->best, p->gflops);
            }
            fprintf(f, "\n\n");
        }
    return gp_dist_close(f, path, err, errlen);
}

/* One block per column: shown,px,py,anchor_x,anchor_y,just,leader,lx,ly
 * (data units of the column's speed-up panel); how many tags in each. */
static int write_tags(const gp_chart_opts *o, const gp_dist_scaling *sc, const char *stem,
                      char *path, size_t plen, int *ntags, char *err, size_t errlen)
{
    char name[256];
    gp_fmt(name, sizeof name, "%s-tags.csv", stem);
    FILE *f = gp_open_in(o->workdir, name, path, plen, err, errlen);
    if (!f)
        return -1;
    for (int c = 0; c < sc->ncols; c++) {
        const gp_frame *t = &sc->top[c];
        ntags[c] = 0;
        for (int q = 0; q < sc->np; q++) {
            const gp_label *l = &sc->lab[q];
            if (sc->k[sc->p[q].s].col != c || !l->shown[0])
                continue;
            char text[64];
            gp_data_text(o->format, l->shown, text, sizeof text);
            double ax = l->just == 'R' ? l->box.x1 : l->box.x0;
            double ay = l->box.y0 + GP_TEXT_DOWN * GP_LABEL_FONT;
            fprintf(f, "%s,%.6g,%.6g,%.6g,%.6g,%c,%d,%.6g,%.6g\n", text, sc->p[q].x,
                    sc->p[q].speedup, gp_frame_x(t, ax), gp_frame_y(t, ay), l->just,
                    l->leader, gp_frame_x(t, l->lx), gp_frame_y(t, l->ly));
            ntags[c]++;
        }
        fprintf(f, "\n\n");
    }
    return gp_dist_close(f, path, err, errlen);
}

/* The panels' edges, each column's series, heading and tag count. */
static void panel_vars(gp_buf *v, const gp_chart_opts *o, const gp_dist_scaling *sc,
                       const int *ntags)
{
    for (int c = 0; c < sc->ncols; c++) {
        char name[32], head[64], list[GP_DIST_MAX_ITEMS * 4] = "";
        gp_fmt(name, sizeof name, "s%d", c + 1);
        gp_frame_box_vars(v, o, &sc->fr, name, sc->top[c].plot);
        gp_fmt(name, sizeof name, "e%d", c + 1);
        gp_frame_box_vars(v, o, &sc->fr, name, sc->eff[c].plot);
        for (int s = 0; s < sc->nk; s++)
            if (sc->k[s].col == c)
                gp_fmt(list + strlen(list), sizeof list - strlen(list), "%s%d",
                       list[0] ? " " : "", s + 1);
        gp_fmt(name, sizeof name, "cser%d", c + 1);
        gp_var_str(v, name, list);
        char text[128];
        gp_fmt(head, sizeof head, "transport: %s", sc->comm[c]);
        gp_chart_text(o->format, head, 0, text, sizeof text);
        gp_fmt(name, sizeof name, "chead%d", c + 1);
        gp_var_str(v, name, text);
        gp_fmt(name, sizeof name, "ntag%d", c + 1);
        gp_var_num(v, name, ntags[c]);
    }
}

/* The rest: series names, axes, notes, title. */
static void chart_vars(gp_buf *v, const gp_chart_opts *o, const gp_dist_scaling *sc,
                       const char *title)
{
    gp_buf names = { 0 }, xt = { 0 };
    for (int s = 0; s < sc->nk; s++) {
        char name[160];
        series_name(sc, s, name, sizeof name);
        gp_word(&names, o->format, name);
    }
    for (int i = 0; i < sc->nranks; i++)
        gp_buf_printf(&xt, "%s%ld", i ? ", " : "(", sc->ranks[i]);   /* labelled by format */
    gp_buf_printf(&xt, ")");
    gp_var_str(v, "names", names.s ? names.s : "");
    gp_var_str(v, "xt", xt.s);
    gp_var_num(v, "ncols", sc->ncols);
    gp_var_num(v, "xmin", sc->top[0].x0);
    gp_var_num(v, "xmax", sc->top[0].x1);
    gp_var_num(v, "smax", sc->top[0].y1);
    gp_var_num(v, "emax", sc->eff[0].y1);
    for (int i = 0; i < 2; i++) {
        char t[400] = "", name[16];
        if (i < sc->nnotes)
            gp_chart_text(o->format, sc->note[i], 0, t, sizeof t);
        gp_fmt(name, sizeof name, "note%d", i + 1);
        gp_var_str(v, name, t);
    }
    gp_var_str(v, "ttl", title);
    gp_buf_free(&names);
    gp_buf_free(&xt);
}

static int scaling_draw(const gp_chart_opts *o, const gp_dist_scaling *sc, const char *stem,
                        gp_strlist *written, char *err, size_t errlen)
{
    char data[4096], tagf[4096], shape[64], prec[16], title[512], at[128], caption[512];
    int ntags[GP_DIST_COLS];
    if (write_points(o, sc, stem, data, sizeof data, err, errlen) < 0 ||
        write_tags(o, sc, stem, tagf, sizeof tagf, ntags, err, errlen) < 0)
        return -1;
    gp_dist_shape_str(sc->s, shape, sizeof shape);
    gp_dist_precision(sc->d, gp_dist_scaling_row, sc->s, prec, sizeof prec);
    gp_chart_title(o, title, sizeof title, "SUMMA strong scaling, %s%s: %s", shape, prec,
                   gp_dist_where(sc->d, at, sizeof at));
    gp_fmt(caption, sizeof caption, "Strong scaling of gemmprof dist at %s: speed-up over "
           "one GPU against the ideal (top) and parallel efficiency (bottom), one column "
           "per transport; each point is tagged with its process grid, and points at one "
           "GPU count stand side by side.", shape);
    gp_buf v = { 0 };
    gp_frame_vars(&v, o, &sc->fr, caption);
    panel_vars(&v, o, sc, ntags);
    chart_vars(&v, o, sc, title);
    gp_var_str(&v, "f", data);
    gp_var_str(&v, "tf", tagf);
    int rc = gp_chart_draw(o, "dist_scaling.gp", stem, caption, &v, written, err, errlen);
    gp_buf_free(&v);
    return rc;
}

int gp_chart_dist_scaling(const gp_dataset *d, const gp_chart_opts *o,
                          gp_strlist *written, char *err, size_t errlen)
{
    long s[GP_DIST_MAX_SHAPES][3];
    int ns = gp_dist_shapes(d, gp_dist_scaling_row, o->size, s, GP_DIST_MAX_SHAPES);
    int drawn = 0;
    if (ns == 0) {
        gp_fmt(err, errlen, "dist_scaling: skipped, no verified summary rows of "
               "gemmprof dist runs%s", o->size[0] ? " at that --size" : "");
        return 1;
    }
    for (int i = 0; i < ns; i++) {
        gp_dist_scaling *sc = malloc(sizeof *sc);
        if (!sc) {
            gp_fmt(err, errlen, "out of memory");
            return -1;
        }
        char stem[128];
        gp_dist_stem("dist_scaling", s[i], ns, stem, sizeof stem);
        int rc = gp_dist_scaling_layout(d, s[i], sc);
        if (rc == 0)
            rc = scaling_draw(o, sc, stem, written, err, errlen);
        free(sc);
        if (rc < 0)
            return -1;
        drawn += rc == 0;
    }
    if (drawn == 0)
        gp_fmt(err, errlen, "dist_scaling: skipped, every shape was run at one rank "
               "count only; it needs runs at several (mpirun -np 1, 2, ...)");
    return drawn ? 0 : 1;
}
