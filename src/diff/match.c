/* match.c - read both run files, refuse what cannot be compared, pair
 * the rows on (kernel, precision, m, n, k, config; for dist runs also rank
 * and grid), and order the pairs most severe first. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"
#include "diff.h"

/* The kernel name a row is paired under (--pair renames BASE's). */
static const char *pair_name(const gp_diff *d, const gp_row *r, int is_base)
{
    const gp_diff_opts *o = &d->opts;
    if (is_base && o->pair_base && strcmp(r->kernel, o->pair_base) == 0)
        return o->pair_new;
    return r->kernel;
}

/* With --pair OLD=NEW only BASE's OLD rows and NEW's NEW rows stand for
 * that kernel: BASE's own NEW rows and NEW's OLD rows sit out (that is what
 * makes one file against itself compare two variants). */
static int sits_out(const gp_diff *d, const gp_row *r, int is_base)
{
    const gp_diff_opts *o = &d->opts;
    if (!o->pair_base)
        return 0;
    return strcmp(r->kernel, is_base ? o->pair_new : o->pair_base) == 0;
}

static int same_key(const gp_diff *d, const gp_row *b, const gp_row *n)
{
    return strcmp(pair_name(d, b, 1), n->kernel) == 0 &&
           strcmp(b->precision, n->precision) == 0 &&
           b->m == n->m && b->n == n->n && b->k == n->k &&
           strcmp(b->config, n->config) == 0 &&
           strcmp(b->rank, n->rank) == 0 &&     /* "" outside dist runs */
           strcmp(b->grid, n->grid) == 0;
}

static int read_one(const char *path, gp_run_file *f, char *err, size_t errlen)
{
    if (gp_csv_read(path, f, err, errlen) != 0)
        return -1;
    if (f->nrows == 0) {
        snprintf(err, errlen, "%s: no rows", path);
        return -1;
    }
    return 0;
}

int gp_diff_check_file(const char *path, char *err, size_t errlen)
{
    gp_run_file f;
    int rc = read_one(path, &f, err, errlen);
    gp_run_file_free(&f);
    return rc;
}

static void describe(const gp_row *r, char *buf, size_t n)
{
    char shape[64];
    gp_row_shape(r, shape, sizeof shape);
    gp_fmt(buf, n, "%s %s %s%s%s", r->kernel, r->precision, shape,
           r->config[0] ? " " : "", r->config);
    if (r->rank[0]) {
        size_t used = strlen(buf);
        snprintf(buf + used, n - used, " rank %s%s%s", r->rank,
                 r->grid[0] ? " grid " : "", r->grid);
    }
}

static int no_common_rows(const gp_diff *d, char *err, size_t errlen)
{
    char b[256], n[256];
    describe(&d->base.rows[0], b, sizeof b);
    describe(&d->cur.rows[0], n, sizeof n);
    snprintf(err, errlen, "no common rows: %s has %d (e.g. %s), %s has %d "
             "(e.g. %s); rows pair on kernel, precision, m, n, k and config "
             "(and rank and grid for dist runs)",
             d->base_path, d->base.nrows, b, d->cur_path, d->cur.nrows, n);
    return -1;
}

/* Broken first, then the largest slowdown; unknown speeds last.  Ties keep
 * NEW's order. */
static int severity_cmp(const void *pa, const void *pb)
{
    const gp_diff_row *a = pa, *b = pb;
    if (a->verdict == GP_DIFF_BROKEN || b->verdict == GP_DIFF_BROKEN) {
        if (a->verdict != b->verdict)
            return a->verdict == GP_DIFF_BROKEN ? -1 : 1;
    } else if (isnan(a->change_pct) != isnan(b->change_pct)) {
        return isnan(a->change_pct) ? 1 : -1;
    } else if (!isnan(a->change_pct) && a->change_pct != b->change_pct) {
        return a->change_pct < b->change_pct ? -1 : 1;
    }
    return (a->cur > b->cur) - (a->cur < b->cur);
}

/* Each NEW row takes the first unused BASE row with its key, so repeated
 * measurements pair in order. */
static int pair_rows(gp_diff *d)
{
    int nb = d->base.nrows, nn = d->cur.nrows;
    char *used = calloc((size_t)nb + 1, 1);
    d->rows = calloc((size_t)nn + 1, sizeof *d->rows);
    d->only_base = calloc((size_t)nb + 1, sizeof *d->only_base);
    d->only_cur = calloc((size_t)nn + 1, sizeof *d->only_cur);
    if (!used || !d->rows || !d->only_base || !d->only_cur) {
        free(used);
        return -1;
    }
    for (int j = 0; j < nn; j++) {
        const gp_row *n = &d->cur.rows[j];
        int hit = -1;
        for (int i = 0; i < nb && hit < 0 && !sits_out(d, n, 0); i++)
            if (!used[i] && !sits_out(d, &d->base.rows[i], 1) &&
                same_key(d, &d->base.rows[i], n))
                hit = i;
        if (hit < 0) {
            if (!sits_out(d, n, 0))
                d->only_cur[d->nonly_cur++] = n;
            continue;
        }
        used[hit] = 1;
        gp_diff_row *r = &d->rows[d->nrows++];
        gp_diff_rows(&d->base.rows[hit], n, d->opts.threshold_pct, r);
        d->nregressed += r->regressed;
        d->nfaster += r->verdict == GP_DIFF_FASTER;
    }
    for (int i = 0; i < nb; i++)
        if (!used[i] && !sits_out(d, &d->base.rows[i], 1))
            d->only_base[d->nonly_base++] = &d->base.rows[i];
    free(used);
    qsort(d->rows, (size_t)d->nrows, sizeof *d->rows, severity_cmp);
    return 0;
}

/* A regression nothing in the rows explains, between runs that differ in
 * GPU, clocks or software: say where to look. */
static void blame_the_runs(gp_diff *d)
{
    int warned = 0;
    for (int i = 0; i < d->nmeta; i++)
        warned |= d->meta[i].warning;
    if (!warned)
        return;
    for (int i = 0; i < d->nrows; i++)
        if (d->rows[i].regressed && d->rows[i].facts_changed == 0)
            snprintf(d->rows[i].cause, sizeof d->rows[i].cause,
                     "no kernel fact changed; the runs differ (%.400s)",
                     d->meta[0].message);
}

int gp_diff_load(const char *base, const char *cur, const gp_diff_opts *o,
                 gp_diff *d, char *err, size_t errlen)
{
    memset(d, 0, sizeof *d);
    d->base_path = base;
    d->cur_path = cur;
    d->opts = *o;
    /* the reader refuses another schema, naming the file's line */
    if (read_one(base, &d->base, err, errlen) != 0 ||
        read_one(cur, &d->cur, err, errlen) != 0)
        return -1;
    gp_diff_compare_meta(d);
    if (pair_rows(d) != 0) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (d->nrows == 0)
        return no_common_rows(d, err, errlen);
    blame_the_runs(d);
    return 0;
}

int gp_diff_failed(const gp_diff *d)
{
    return d->nregressed > 0 || (d->nonly_base > 0 && !d->opts.allow_missing);
}

void gp_diff_free(gp_diff *d)
{
    gp_run_file_free(&d->base);
    gp_run_file_free(&d->cur);
    free(d->rows);
    free(d->only_base);
    free(d->only_cur);
    d->rows = NULL;
    d->only_base = d->only_cur = NULL;
    d->nrows = d->nonly_base = d->nonly_cur = 0;
}
