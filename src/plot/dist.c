/* dist.c - the charts of `gemmprof dist` run files: which rows they use,
 * and the time bars.  Rows of a dist run carry `ranks` and `rank` (a
 * number, or "all" for the run's summary); other files' rows have neither
 * and are left out.  One chart per shape.  The scaling chart is
 * dist_scaling.c's.
 *
 * dist_time (rank rows): a stacked bar per rank of each run: compute (local
 * GEMMs), comm (packing and waiting for panels, i.e. what the overlap did
 * not hide) and transfer (host<->device copies of A, B, C), medians over
 * repeated files; the wall time of the multiply as a dot.  Runs go in
 * order of rank count, then transport, so that one transport's runs stand
 * together. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"
#include "charts.h"
#include "frame.h"
#include "dist.h"

#define MAX_SHAPES GP_DIST_MAX_SHAPES
#define MAX_ITEMS GP_DIST_MAX_ITEMS

/* A rank count is data, not a loop bound: a whole number 1..MAX_RANKS or
 * the row is not one the charts use (fuzzing found ranks = 1e63, a
 * conversion out of int's range, and ranks = 2^28, a loop that never ended). */
#define MAX_RANKS 65536

static int is_dist(const gp_row *r)
{
    return r->ranks >= 1 && r->ranks <= MAX_RANKS && r->ranks == floor(r->ranks) &&
           r->rank[0] != '\0';
}

int gp_dist_scaling_row(const gp_row *r)
{
    return is_dist(r) && strcmp(r->rank, "all") == 0 && gp_row_usable(r) &&
           isfinite(r->gflops) && r->gflops > 0;
}

int gp_dist_time_row(const gp_row *r)
{
    return is_dist(r) && strcmp(r->rank, "all") != 0 && gp_row_usable(r) &&
           isfinite(r->compute_ms);
}

int gp_dist_shape_is(const gp_row *r, const long s[3])
{
    return r->m == s[0] && r->n == s[1] && r->k == s[2];
}

int gp_dist_same_kernel(const gp_row *a, const gp_row *b)
{
    return strcmp(a->kernel, b->kernel) == 0 && strcmp(a->precision, b->precision) == 0;
}

/* Distinct shapes of rows passing `pred` (only `want` if want[0]). */
int gp_dist_shapes(const gp_dataset *d, gp_dist_pred pred, const long want[3],
                     long out[][3], int max)
{
    int n = 0;
    for (int i = 0; i < d->nrows && n < max; i++) {
        const gp_row *r = &d->rows[i];
        if (!pred(r) || (want[0] && !gp_dist_shape_is(r, want)))
            continue;
        int j = 0;
        while (j < n && !gp_dist_shape_is(r, out[j]))
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
double gp_dist_median(double *v, int n)
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
void gp_dist_shape_str(const long s[3], char *out, size_t len)
{
    gp_fmt(out, len, "%ldx%ldx%ld", s[0], s[1], s[2]);
}

void gp_dist_stem(const char *chart, const long s[3], int nshapes, char *out,
                       size_t len)
{
    char shape[64];
    gp_dist_shape_str(s, shape, sizeof shape);
    if (nshapes > 1)
        gp_fmt(out, len, "%s-%s", chart, shape);
    else
        gp_fmt(out, len, "%s", chart);
}

/* " fp32" when every row of the shape has one precision, else "". */
void gp_dist_precision(const gp_dataset *d, gp_dist_pred pred, const long s[3],
                          char *out, size_t len)
{
    const char *p = NULL;
    for (int i = 0; i < d->nrows; i++) {
        const gp_row *r = &d->rows[i];
        if (!pred(r) || !gp_dist_shape_is(r, s))
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
const char *gp_dist_where(const gp_dataset *d, char *buf, size_t len)
{
    const char *local = gp_meta_get(&d->meta, "local");
    if (gp_meta_get(&d->meta, "gpu_name") || !local || !*local)
        return gp_chart_gpu(d);
    gp_fmt(buf, len, "local %.*s", (int)strcspn(local, " ("), local);
    return buf;
}

int gp_dist_close(FILE *f, const char *path, char *err, size_t errlen)
{
    if (fclose(f) == 0)
        return 0;
    gp_fmt(err, errlen, "%s: write failed", path);
    return -1;
}

/* ------------------------------------------------------------- time bars */

/* Rows of one run: the same kernel, shape, layout and transport. */
static int same_run(const gp_row *a, const gp_row *b)
{
    return gp_dist_same_kernel(a, b) && a->m == b->m && a->n == b->n && a->k == b->k &&
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

/* Rank count, then transport (a one-rank run has none worth sorting by). */
static int by_ranks(const void *a, const void *b)
{
    const gp_row *x = *(const gp_row *const *)a, *y = *(const gp_row *const *)b;
    if (x->ranks != y->ranks)
        return (x->ranks > y->ranks) - (x->ranks < y->ranks);
    return x->ranks > 1 ? strcmp(x->comm, y->comm) : 0;
}

static void timing_scan(timing *t)
{
    for (int i = 0; i < t->d->nrows; i++) {
        const gp_row *r = &t->d->rows[i];
        if (!gp_dist_time_row(r) || !gp_dist_shape_is(r, t->s))
            continue;
        int j = 0;
        while (j < t->nrun && !same_run(t->run[j], r))
            j++;
        if (j == t->nrun && t->nrun < MAX_ITEMS)
            t->run[t->nrun++] = r;
    }
    /* insertion sort: stable, runs keep file order within a rank count
     * and transport */
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
           r->grid, r->ranks > 1 ? r->comm : "",   /* one rank: no transport */
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
        if (!gp_dist_time_row(r) || !same_run(r, run) || strcmp(r->rank, rank) != 0)
            continue;
        v[0][n] = r->compute_ms, v[1][n] = r->comm_ms;
        v[2][n] = r->transfer_ms, v[3][n] = r->time_ms;
        n++;
    }
    for (int q = 0; q < 4; q++)
        out[q] = gp_dist_median(v[q], n);
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
        if (gp_dist_time_row(r) && same_run(r, run) && *tail == '\0' && q >= end && q < MAX_RANKS)
            end = q + 1;
    }
    return (int)end;
}

/* One bar per rank (x = 1, 2, ...), a gap between runs; the group labels
 * (run centres) go to a second file.  Returns the last x, or -1. */
static int timing_data(const gp_chart_opts *o, const timing *t, const char *stem,
                       char *bars, char *groups, size_t plen, char *err, size_t errlen)
{
    char name[256];
    gp_fmt(name, sizeof name, "%s.csv", stem);
    FILE *f = gp_open_in(o->workdir, name, bars, plen, err, errlen);
    gp_fmt(name, sizeof name, "%s-groups.csv", stem);
    FILE *g = f ? gp_open_in(o->workdir, name, groups, plen, err, errlen) : NULL;
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
    if (gp_dist_close(f, bars, err, errlen) < 0 || gp_dist_close(g, groups, err, errlen) < 0)
        return -1;
    return x;
}

static int timing_draw(const gp_chart_opts *o, const timing *t, const char *stem,
                       gp_strlist *written, char *err, size_t errlen)
{
    char bars[4096], groups[4096], shape[64], prec[16], title[512], at[128];
    int xmax = timing_data(o, t, stem, bars, groups, sizeof bars, err, errlen);
    if (xmax < 0)
        return -1;
    gp_dist_shape_str(t->s, shape, sizeof shape);
    gp_dist_precision(t->d, gp_dist_time_row, t->s, prec, sizeof prec);
    gp_chart_title(o, title, sizeof title, "Time per rank, %s%s: %s", shape, prec,
                   gp_dist_where(t->d, at, sizeof at));
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
    int rc = gp_chart_draw(o, "dist_time.gp", stem, caption, &v, written, err, errlen);
    gp_buf_free(&v);
    return rc;
}

int gp_chart_dist_time(const gp_dataset *d, const gp_chart_opts *o,
                       gp_strlist *written, char *err, size_t errlen)
{
    long s[MAX_SHAPES][3];
    int ns = gp_dist_shapes(d, gp_dist_time_row, o->size, s, MAX_SHAPES);
    if (ns == 0) {
        gp_fmt(err, errlen, "dist_time: skipped, no verified per-rank rows of "
               "gemmprof dist runs%s", o->size[0] ? " at that --size" : "");
        return 1;
    }
    for (int i = 0; i < ns; i++) {
        timing *t = calloc(1, sizeof *t);
        if (!t) {
            gp_fmt(err, errlen, "out of memory");
            return -1;
        }
        t->d = d;
        memcpy(t->s, s[i], sizeof t->s);
        timing_scan(t);
        char stem[128];
        gp_dist_stem("dist_time", s[i], ns, stem, sizeof stem);
        int rc = timing_draw(o, t, stem, written, err, errlen);
        free(t);
        if (rc < 0)
            return -1;
    }
    return 0;
}
