/* dist.c - the charts of `gemmprof dist` run files.  Rows of a dist
 * run carry `ranks` and `rank` (a number, or "all" for the run's summary);
 * other files' rows have neither and are left out.  One chart per shape.
 *
 * dist_scaling (summary rows): GFLOP/s over the rank count, one line per
 * local kernel and transport.  Where one rank count was run on several
 * grids (1x2, 2x1) the best grid's median stands for it, and the grid is
 * written beside the point.  The ideal line is the 1-rank GFLOP/s times the
 * ranks (a 1-rank run has no communication, so its point is shared by every
 * transport of that kernel); parallel efficiency, GFLOP/s over ideal, is on
 * the right axis.  Without a 1-rank run the ideal starts from the smallest
 * rank count, and its name says so.
 *
 * dist_time (rank rows): a stacked bar per rank of each run: compute (local
 * GEMMs), comm (packing and waiting for panels, i.e. what the overlap did
 * not hide) and transfer (host<->device copies of A, B, C), medians over
 * repeated files; the wall time of the multiply as a dot. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"
#include "charts.h"
#include "frame.h"

#define MAX_SHAPES 16
#define MAX_ITEMS 256

typedef int (*row_pred)(const gp_row *r);

/* A rank count is data, not a loop bound: a whole number 1..MAX_RANKS or
 * the row is not one the charts use (fuzzing found ranks = 1e63, a
 * conversion out of int's range, and ranks = 2^28, a loop that never ended). */
#define MAX_RANKS 65536

static int is_dist(const gp_row *r)
{
    return r->ranks >= 1 && r->ranks <= MAX_RANKS && r->ranks == floor(r->ranks) &&
           r->rank[0] != '\0';
}

static int scaling_row(const gp_row *r)
{
    return is_dist(r) && strcmp(r->rank, "all") == 0 && gp_row_usable(r) &&
           isfinite(r->gflops) && r->gflops > 0;
}

static int time_row(const gp_row *r)
{
    return is_dist(r) && strcmp(r->rank, "all") != 0 && gp_row_usable(r) &&
           isfinite(r->compute_ms);
}

static int shape_is(const gp_row *r, const long s[3])
{
    return r->m == s[0] && r->n == s[1] && r->k == s[2];
}

/* Distinct shapes of rows passing `pred` (only `want` if want[0]). */
static int shapes_of(const gp_dataset *d, row_pred pred, const long want[3],
                     long out[][3], int max)
{
    int n = 0;
    for (int i = 0; i < d->nrows && n < max; i++) {
        const gp_row *r = &d->rows[i];
        if (!pred(r) || (want[0] && !shape_is(r, want)))
            continue;
        int j = 0;
        while (j < n && !shape_is(r, out[j]))
            j++;
        if (j == n) {
            out[n][0] = r->m, out[n][1] = r->n, out[n][2] = r->k;
            n++;
        }
    }
    return n;
}

static int by_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of v[0..n) (sorted in place); NAN for n == 0. */
static double median_of(double *v, int n)
{
    if (n == 0)
        return NAN;
    qsort(v, (size_t)n, sizeof *v, by_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static double or_zero(double v)
{
    return isfinite(v) ? v : 0.0;
}

/* "dist_time" for one shape, "dist_time-8192x8192x128" for several. */
/* Always MxNxK: a dist run's shape is often not square. */
static void shape_str(const long s[3], char *out, size_t len)
{
    gp_fmt(out, len, "%ldx%ldx%ld", s[0], s[1], s[2]);
}

static void chart_stem(const char *chart, const long s[3], int nshapes, char *out,
                       size_t len)
{
    char shape[64];
    shape_str(s, shape, sizeof shape);
    if (nshapes > 1)
        gp_fmt(out, len, "%s-%s", chart, shape);
    else
        gp_fmt(out, len, "%s", chart);
}

/* " fp32" when every row of the shape has one precision, else "". */
static void one_precision(const gp_dataset *d, row_pred pred, const long s[3],
                          char *out, size_t len)
{
    const char *p = NULL;
    for (int i = 0; i < d->nrows; i++) {
        const gp_row *r = &d->rows[i];
        if (!pred(r) || !shape_is(r, s))
            continue;
        if (p && strcmp(p, r->precision) != 0) {
            out[0] = '\0';
            return;
        }
        p = r->precision;
    }
    gp_fmt(out, len, "%s%s", p ? " " : "", p ? p : "");
}

/* Where it ran: the GPU's name, else (CPU local kernels) the local kernel
 * as the metadata names it. */
static const char *where(const gp_dataset *d, char *buf, size_t len)
{
    const char *local = gp_meta_get(&d->meta, "local");
    if (gp_meta_get(&d->meta, "gpu_name") || !local || !*local)
        return gp_chart_gpu(d);
    gp_fmt(buf, len, "local %.*s", (int)strcspn(local, " ("), local);
    return buf;
}

static int close_work(FILE *f, const char *path, char *msg, size_t msglen)
{
    if (fclose(f) == 0)
        return 0;
    gp_fmt(msg, msglen, "%s: write failed", path);
    return -1;
}

/* ---------------------------------------------------------------- scaling */

typedef struct {
    const gp_row *r;         /* first row: kernel, precision, comm        */
} series;

typedef struct {
    const gp_row *r;         /* kernel, precision                          */
    long ranks;              /* the rank count it is measured at           */
    double per_rank;         /* its GFLOP/s / ranks                        */
    const gp_row *at;        /* the row standing for it (for its grid)     */
} baseline;

typedef struct {
    const gp_dataset *d;
    long s[3];
    long ranks[MAX_ITEMS];
    int nranks;
    series k[MAX_ITEMS];
    int nk;
    baseline b[MAX_ITEMS];
    int nb;
} scaling;

static int same_kernel(const gp_row *a, const gp_row *b)
{
    return strcmp(a->kernel, b->kernel) == 0 && strcmp(a->precision, b->precision) == 0;
}

/* The best grid's median GFLOP/s of kernel `k` at `ranks` (transport
 * `comm` only if not NULL); *at gets a row of that grid.  NAN if none. */
static double best_at(const scaling *sc, const gp_row *k, const char *comm,
                      long ranks, const gp_row **at)
{
    double best = NAN, v[MAX_ITEMS];
    const gp_dataset *d = sc->d;
    for (int i = 0; i < d->nrows; i++) {
        const gp_row *g = &d->rows[i];
        if (!scaling_row(g) || !shape_is(g, sc->s) || !same_kernel(g, k) ||
            (long)g->ranks != ranks || (comm && strcmp(g->comm, comm) != 0))
            continue;
        int n = 0, seen = 0;
        for (int j = 0; j < d->nrows && n < MAX_ITEMS; j++) {
            const gp_row *r = &d->rows[j];
            if (!scaling_row(r) || !shape_is(r, sc->s) || !same_kernel(r, k) ||
                (long)r->ranks != ranks || (comm && strcmp(r->comm, comm) != 0) ||
                strcmp(r->grid, g->grid) != 0)
                continue;
            seen |= j < i;           /* this grid was done at its first row */
            v[n++] = r->gflops;
        }
        double m = seen ? NAN : median_of(v, n);
        if (!isnan(m) && (isnan(best) || m > best)) {
            best = m;
            *at = g;
        }
    }
    return best;
}

static int by_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

/* Rank counts, series and baselines of shape sc->s. */
static void scaling_scan(scaling *sc)
{
    const gp_dataset *d = sc->d;
    for (int i = 0; i < d->nrows; i++) {
        const gp_row *r = &d->rows[i];
        if (!scaling_row(r) || !shape_is(r, sc->s))
            continue;
        long rk = (long)r->ranks;
        int j = 0;
        while (j < sc->nranks && sc->ranks[j] != rk)
            j++;
        if (j == sc->nranks && sc->nranks < MAX_ITEMS)
            sc->ranks[sc->nranks++] = rk;
        for (j = 0; j < sc->nk; j++)
            if (same_kernel(sc->k[j].r, r) && strcmp(sc->k[j].r->comm, r->comm) == 0)
                break;
        if (j == sc->nk && sc->nk < MAX_ITEMS)
            sc->k[sc->nk++].r = r;
        for (j = 0; j < sc->nb; j++)
            if (same_kernel(sc->b[j].r, r))
                break;
        if (j == sc->nb && sc->nb < MAX_ITEMS)
            sc->b[sc->nb++] = (baseline){ .r = r, .ranks = rk };
    }
    qsort(sc->ranks, (size_t)sc->nranks, sizeof *sc->ranks, by_long);
    for (int j = 0; j < sc->nb; j++) {   /* the kernel's smallest rank count */
        baseline *b = &sc->b[j];
        for (int i = 0; i < sc->nranks; i++) {
            double g = best_at(sc, b->r, NULL, sc->ranks[i], &b->at);
            if (!isnan(g)) {
                b->ranks = sc->ranks[i];
                b->per_rank = g / (double)b->ranks;
                break;
            }
        }
    }
}

static const baseline *baseline_of(const scaling *sc, const gp_row *k)
{
    for (int j = 0; j < sc->nb; j++)
        if (same_kernel(sc->b[j].r, k))
            return &sc->b[j];
    return NULL;
}

/* A series name as one gnuplot word, in double quotes (gnuplot's word()
 * keeps a quoted word whole): "cublas/nccl", with the precision where a
 * kernel name comes in two. */
static void series_name(const gp_chart_opts *o, const scaling *sc, const gp_row *k,
                        const char *prefix, const char *suffix, gp_buf *out)
{
    int dup = 0;
    for (int j = 0; j < sc->nb; j++)
        dup |= strcmp(sc->b[j].r->kernel, k->kernel) == 0 &&
               strcmp(sc->b[j].r->precision, k->precision) != 0;
    char raw[256], word[512];
    gp_fmt(raw, sizeof raw, "%s%s%s%s%s%s", prefix, k->kernel, dup ? " (" : "",
           dup ? k->precision : "", dup ? ")" : "", suffix);
    gp_chart_text(o->format, raw, 0, word, sizeof word);
    gp_buf_printf(out, "%s\"%s\"", out->len ? " " : "", word);
}

static void write_series(FILE *f, const gp_chart_opts *o, const scaling *sc,
                         const series *k)
{
    const baseline *b = baseline_of(sc, k->r);
    fprintf(f, "# %s %s %s: ranks,gflops,efficiency_pct,grid\n", k->r->kernel,
            k->r->precision, k->r->comm);
    for (int i = 0; i < sc->nranks; i++) {
        const gp_row *at = NULL;
        double g = best_at(sc, k->r, k->r->comm, sc->ranks[i], &at);
        if (isnan(g) && b && b->ranks == 1 && sc->ranks[i] == 1) {
            g = b->per_rank;           /* the shared 1-rank point */
            at = b->at;
        }
        if (isnan(g) || !at)
            continue;
        char grid[64] = "";           /* 1 rank: no grid worth a label */
        if (sc->ranks[i] > 1)
            gp_data_text(o->format, at->grid, grid, sizeof grid);
        double eff = b ? 100.0 * g / (b->per_rank * (double)sc->ranks[i]) : NAN;
        fprintf(f, "%ld,%.6g,%.6g,%s\n", sc->ranks[i], g, eff, grid);
    }
    fprintf(f, "\n\n");
}

static int scaling_data(const gp_chart_opts *o, const scaling *sc, const char *stem,
                        char *path, size_t plen, char *msg, size_t msglen)
{
    char name[256];
    gp_fmt(name, sizeof name, "%s.csv", stem);
    FILE *f = gp_open_in(o->workdir, name, path, plen, msg, msglen);
    if (!f)
        return -1;
    for (int j = 0; j < sc->nk; j++)
        write_series(f, o, sc, &sc->k[j]);
    for (int j = 0; j < sc->nb; j++) {
        fprintf(f, "# ideal %s %s\n", sc->b[j].r->kernel, sc->b[j].r->precision);
        for (int i = 0; i < sc->nranks; i++)
            if (sc->ranks[i] >= sc->b[j].ranks)
                fprintf(f, "%ld,%.6g\n", sc->ranks[i],
                        sc->b[j].per_rank * (double)sc->ranks[i]);
        fprintf(f, "\n\n");
    }
    return close_work(f, path, msg, msglen);
}

static int scaling_draw(const gp_chart_opts *o, const scaling *sc, const char *stem,
                        const char *data, gp_strlist *written, char *msg, size_t msglen)
{
    gp_buf v = { 0 }, names = { 0 }, inames = { 0 }, ilt = { 0 }, xt = { 0 };
    for (int j = 0; j < sc->nk; j++) {
        char suffix[32];
        gp_fmt(suffix, sizeof suffix, "/%s", sc->k[j].r->comm);
        series_name(o, sc, sc->k[j].r, "", suffix, &names);
    }
    for (int j = 0; j < sc->nb; j++) {     /* dashed, in its kernel's colour */
        char suffix[64] = ")";
        int lt = 1;
        if (sc->b[j].ranks != 1)
            gp_fmt(suffix, sizeof suffix, ", from %ld ranks)", sc->b[j].ranks);
        series_name(o, sc, sc->b[j].r, "ideal (", suffix, &inames);
        while (lt <= sc->nk && !same_kernel(sc->k[lt - 1].r, sc->b[j].r))
            lt++;
        gp_buf_printf(&ilt, "%s%d", j ? " " : "", lt);
    }
    for (int i = 0; i < sc->nranks; i++)
        gp_buf_printf(&xt, "%s'%ld' %ld", i ? ", " : "(", sc->ranks[i], sc->ranks[i]);
    gp_buf_printf(&xt, ")");
    char shape[64], prec[16], title[512], at[128];
    shape_str(sc->s, shape, sizeof shape);
    one_precision(sc->d, scaling_row, sc->s, prec, sizeof prec);
    gp_chart_title(o, title, sizeof title, "SUMMA strong scaling, %s%s: %s", shape,
                   prec, where(sc->d, at, sizeof at));
    /* GFLOP/s shown in TFLOP/s when that reads better: the top of the
     * ideal lines or of the rows */
    double top = 0;
    for (int i = 0; i < sc->d->nrows; i++)
        if (scaling_row(&sc->d->rows[i]) && shape_is(&sc->d->rows[i], sc->s))
            top = fmax(top, sc->d->rows[i].gflops);
    for (int j = 0; j < sc->nb; j++)
        top = fmax(top, sc->b[j].per_rank * (double)sc->ranks[sc->nranks - 1]);
    const char *unit;
    double yscale = gp_flops_unit(top, &unit);
    char ylab[64];
    gp_fmt(ylab, sizeof ylab, "Performance (%s)", unit);
    gp_var_num(&v, "yscale", yscale);
    gp_var_str(&v, "ylab", ylab);
    char caption[512];
    gp_fmt(caption, sizeof caption, "Strong scaling of gemmprof dist at %s: performance "
           "over MPI ranks, the ideal line, and parallel efficiency (right axis).", shape);
    gp_frame fr;
    gp_frame_stack(&fr, 52, 52, 220, 38, sc->nk + sc->nb + 1, 2, 0);
    gp_frame_vars(&v, o, &fr, caption);
    gp_var_str(&v, "f", data);
    gp_var_str(&v, "names", names.s);
    gp_var_str(&v, "inames", inames.s);
    gp_var_str(&v, "ilt", ilt.s);
    gp_var_str(&v, "xt", xt.s);
    gp_var_num(&v, "xmax", (double)sc->ranks[sc->nranks - 1]);
    gp_var_str(&v, "ttl", title);
    int rc = gp_chart_draw(o, "dist_scaling.gp", stem, caption, &v, written, msg, msglen);
    gp_buf_free(&v);
    gp_buf_free(&names);
    gp_buf_free(&inames);
    gp_buf_free(&ilt);
    gp_buf_free(&xt);
    return rc;
}

int gp_chart_dist_scaling(const gp_dataset *d, const gp_chart_opts *o,
                          gp_strlist *written, char *msg, size_t msglen)
{
    long s[MAX_SHAPES][3];
    int ns = shapes_of(d, scaling_row, o->size, s, MAX_SHAPES), drawn = 0;
    if (ns == 0) {
        gp_fmt(msg, msglen, "dist_scaling: skipped, no verified summary rows of "
               "gemmprof dist runs%s", o->size[0] ? " at that --size" : "");
        return 1;
    }
    for (int i = 0; i < ns; i++) {
        scaling *sc = calloc(1, sizeof *sc);
        if (!sc) {
            gp_fmt(msg, msglen, "out of memory");
            return -1;
        }
        sc->d = d;
        memcpy(sc->s, s[i], sizeof sc->s);
        scaling_scan(sc);
        char stem[128], path[4096];
        chart_stem("dist_scaling", s[i], ns, stem, sizeof stem);
        int rc = 1;
        if (sc->nranks >= 2 && scaling_data(o, sc, stem, path, sizeof path, msg, msglen) == 0)
            rc = scaling_draw(o, sc, stem, path, written, msg, msglen);
        else if (sc->nranks >= 2)
            rc = -1;
        free(sc);
        if (rc < 0)
            return -1;
        drawn += rc == 0;
    }
    if (drawn == 0)
        gp_fmt(msg, msglen, "dist_scaling: skipped, every shape was run at one rank "
               "count only; it needs runs at several (mpirun -np 1, 2, ...)");
    return drawn ? 0 : 1;
}

/* ------------------------------------------------------------- time bars */

/* Rows of one run: the same kernel, shape, layout and transport. */
static int same_run(const gp_row *a, const gp_row *b)
{
    return same_kernel(a, b) && a->m == b->m && a->n == b->n && a->k == b->k &&
           a->ranks == b->ranks && strcmp(a->grid, b->grid) == 0 &&
           strcmp(a->dist_block, b->dist_block) == 0 && strcmp(a->comm, b->comm) == 0 &&
           (a->panel == b->panel || (isnan(a->panel) && isnan(b->panel)));
}

typedef struct {
    const gp_dataset *d;
    long s[3];
    const gp_row *run[MAX_ITEMS];
    int nrun;
} timing;

static int by_ranks(const void *a, const void *b)
{
    const gp_row *x = *(const gp_row *const *)a, *y = *(const gp_row *const *)b;
    return (x->ranks > y->ranks) - (x->ranks < y->ranks);
}

static void timing_scan(timing *t)
{
    for (int i = 0; i < t->d->nrows; i++) {
        const gp_row *r = &t->d->rows[i];
        if (!time_row(r) || !shape_is(r, t->s))
            continue;
        int j = 0;
        while (j < t->nrun && !same_run(t->run[j], r))
            j++;
        if (j == t->nrun && t->nrun < MAX_ITEMS)
            t->run[t->nrun++] = r;
    }
    /* insertion sort: stable, runs keep file order within a rank count */
    for (int i = 1; i < t->nrun; i++)
        for (int j = i; j > 0 && by_ranks(&t->run[j - 1], &t->run[j]) > 0; j--) {
            const gp_row *x = t->run[j];
            t->run[j] = t->run[j - 1];
            t->run[j - 1] = x;
        }
}

/* 1 if the runs differ in `field` (so the group labels must name it). */
static int runs_differ(const timing *t, size_t off, size_t len)
{
    for (int j = 1; j < t->nrun; j++)
        if (strncmp((const char *)t->run[0] + off, (const char *)t->run[j] + off, len))
            return 1;
    return 0;
}

static void group_label(const gp_chart_opts *o, const timing *t, const gp_row *r,
                        char *out, size_t len)
{
    char raw[256] = "", panel[32] = "";
    int many_panels = 0;
    for (int j = 1; j < t->nrun; j++)
        many_panels |= t->run[j]->panel != t->run[0]->panel;
    if (many_panels && !isnan(r->panel))
        gp_fmt(panel, sizeof panel, " W=%.0f", r->panel);
    gp_fmt(raw, sizeof raw, "%s%s%s%s%s %s%s%s%s",
           runs_differ(t, offsetof(gp_row, kernel), sizeof r->kernel) ? r->kernel : "",
           runs_differ(t, offsetof(gp_row, kernel), sizeof r->kernel) ? " " : "",
           runs_differ(t, offsetof(gp_row, precision), sizeof r->precision) ? r->precision : "",
           runs_differ(t, offsetof(gp_row, precision), sizeof r->precision) ? " " : "",
           r->grid, r->comm,
           runs_differ(t, offsetof(gp_row, dist_block), sizeof r->dist_block) ? " " : "",
           runs_differ(t, offsetof(gp_row, dist_block), sizeof r->dist_block) ? r->dist_block : "",
           panel);
    gp_data_text(o->format, raw, out, len);
}

/* Medians over the rows of run `run`, rank `rank`: compute, comm,
 * transfer, time.  0, or -1 if the rank has no row. */
static int rank_times(const timing *t, const gp_row *run, const char *rank, double out[4])
{
    double v[4][MAX_ITEMS];
    int n = 0;
    for (int i = 0; i < t->d->nrows && n < MAX_ITEMS; i++) {
        const gp_row *r = &t->d->rows[i];
        if (!time_row(r) || !same_run(r, run) || strcmp(r->rank, rank) != 0)
            continue;
        v[0][n] = r->compute_ms, v[1][n] = r->comm_ms;
        v[2][n] = r->transfer_ms, v[3][n] = r->time_ms;
        n++;
    }
    for (int q = 0; q < 4; q++)
        out[q] = median_of(v[q], n);
    return n ? 0 : -1;
}

/* 1 + the highest rank number among the rows of run `run` (0 if none): the
 * bars stop there, not at a rank count no row of the file reaches. */
static int rank_rows_end(const timing *t, const gp_row *run)
{
    long end = 0;
    for (int i = 0; i < t->d->nrows; i++) {
        const gp_row *r = &t->d->rows[i];
        char *tail;
        long q = strtol(r->rank, &tail, 10);
        if (time_row(r) && same_run(r, run) && *tail == '\0' && q >= end && q < MAX_RANKS)
            end = q + 1;
    }
    return (int)end;
}

/* One bar per rank (x = 1, 2, ...), a gap between runs; the group labels
 * (run centres) go to a second file.  Returns the last x, or -1. */
static int timing_data(const gp_chart_opts *o, const timing *t, const char *stem,
                       char *bars, char *groups, size_t plen, char *msg, size_t msglen)
{
    char name[256];
    gp_fmt(name, sizeof name, "%s.csv", stem);
    FILE *f = gp_open_in(o->workdir, name, bars, plen, msg, msglen);
    gp_fmt(name, sizeof name, "%s-groups.csv", stem);
    FILE *g = f ? gp_open_in(o->workdir, name, groups, plen, msg, msglen) : NULL;
    if (!g) {
        if (f)
            fclose(f);
        return -1;
    }
    fprintf(f, "# x,compute_ms,comm_ms,transfer_ms,time_ms,rank\n");
    int x = 0;
    for (int j = 0; j < t->nrun; j++) {
        int first = x + 1, ranks = (int)t->run[j]->ranks;
        int end = rank_rows_end(t, t->run[j]);
        if (end < ranks)
            ranks = end;
        for (int q = 0; q < ranks; q++) {
            char rank[16];
            double m[4];
            gp_fmt(rank, sizeof rank, "%d", q);
            if (rank_times(t, t->run[j], rank, m) < 0)
                continue;
            fprintf(f, "%d,%.6g,%.6g,%.6g,%.6g,r%d\n", ++x, m[0], or_zero(m[1]),
                    or_zero(m[2]), m[3], q);
        }
        char label[256];
        group_label(o, t, t->run[j], label, sizeof label);
        fprintf(g, "%.6g,%s\n", 0.5 * (first + x), label);
        x++;                                       /* the gap */
    }
    if (close_work(f, bars, msg, msglen) < 0 || close_work(g, groups, msg, msglen) < 0)
        return -1;
    return x;
}

static int timing_draw(const gp_chart_opts *o, const timing *t, const char *stem,
                       gp_strlist *written, char *msg, size_t msglen)
{
    char bars[4096], groups[4096], shape[64], prec[16], title[512], at[128];
    int xmax = timing_data(o, t, stem, bars, groups, sizeof bars, msg, msglen);
    if (xmax < 0)
        return -1;
    shape_str(t->s, shape, sizeof shape);
    one_precision(t->d, time_row, t->s, prec, sizeof prec);
    gp_chart_title(o, title, sizeof title, "Time per rank, %s%s: %s", shape, prec,
                   where(t->d, at, sizeof at));
    char caption[512];
    gp_fmt(caption, sizeof caption, "Where each rank's time went at %s: local GEMMs, "
           "exposed communication and host-device copies, one group of bars per run.", shape);
    gp_buf v = { 0 };
    gp_frame fr;
    gp_frame_stack(&fr, 52, 14, 200, 90, 4, 2, 0);   /* run names under the bars */
    gp_frame_vars(&v, o, &fr, caption);
    gp_var_str(&v, "f", bars);
    gp_var_str(&v, "g", groups);
    gp_var_num(&v, "xmax", xmax);
    gp_var_str(&v, "ttl", title);
    int rc = gp_chart_draw(o, "dist_time.gp", stem, caption, &v, written, msg, msglen);
    gp_buf_free(&v);
    return rc;
}

int gp_chart_dist_time(const gp_dataset *d, const gp_chart_opts *o,
                       gp_strlist *written, char *msg, size_t msglen)
{
    long s[MAX_SHAPES][3];
    int ns = shapes_of(d, time_row, o->size, s, MAX_SHAPES);
    if (ns == 0) {
        gp_fmt(msg, msglen, "dist_time: skipped, no verified per-rank rows of "
               "gemmprof dist runs%s", o->size[0] ? " at that --size" : "");
        return 1;
    }
    for (int i = 0; i < ns; i++) {
        timing *t = calloc(1, sizeof *t);
        if (!t) {
            gp_fmt(msg, msglen, "out of memory");
            return -1;
        }
        t->d = d;
        memcpy(t->s, s[i], sizeof t->s);
        timing_scan(t);
        char stem[128];
        chart_stem("dist_time", s[i], ns, stem, sizeof stem);
        int rc = timing_draw(o, t, stem, written, msg, msglen);
        free(t);
        if (rc < 0)
            return -1;
    }
    return 0;
}
