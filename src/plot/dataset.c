/* dataset.c - reading the data files a chart or report is drawn from,
 * and refusing, with the file's name, data nothing can be drawn from. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/util.h"
#include "data/data.h"
#include "plot.h"

/* The first header row of `path` starts with `prefix` (a ceilings file's
 * "ceiling,", a tuning table's "family,"; a run file's "kernel,").  Lets a
 * whole data folder be given at once. */
static int header_starts(const char *path, const char *prefix)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char line[512];
    int yes = 0;
    while (fgets(line, sizeof line, f)) {
        char *s = line;
        if (strncmp(s, "\xEF\xBB\xBF", 3) == 0)
            s += 3;
        if (s[0] == '#' || s[strspn(s, " \t\r\n")] == '\0')
            continue;
        yes = strncmp(s, prefix, strlen(prefix)) == 0;
        break;
    }
    fclose(f);
    return yes;
}

static int is_ceilings_file(const char *path) { return header_starts(path, "ceiling,"); }

static int load_ceilings(gp_dataset *d, const char *path, char *err, size_t errlen)
{
    d->ceil = calloc(1, sizeof *d->ceil);
    if (!d->ceil) {
        gp_fmt(err, errlen, "out of memory");
        return -1;
    }
    if (gp_ceilings_read(path, d->ceil, err, errlen) < 0)
        return -1;
    gp_fmt(d->ceil_path, sizeof d->ceil_path, "%s", path);
    return 0;
}

static int measured_something(const gp_run_file *f)
{
    for (int i = 0; i < f->nrows; i++)
        if (!isnan(f->rows[i].gflops) || !isnan(f->rows[i].ai_dram))
            return 1;
    return 0;
}

static int add_run_file(gp_dataset *d, const char *path, char *err, size_t errlen)
{
    gp_run_file f;
    if (gp_csv_read(path, &f, err, errlen) < 0)
        return -1;
    if (f.nrows == 0) {
        gp_fmt(err, errlen, "%s: no data rows after the header", path);
        gp_run_file_free(&f);
        return -1;
    }
    if (!measured_something(&f)) {
        gp_fmt(err, errlen, "%s: nothing measured (gflops and ai_dram are NA "
                 "in every row)", path);
        gp_run_file_free(&f);
        return -1;
    }
    gp_row *rows = realloc(d->rows, (size_t)(d->nrows + f.nrows) * sizeof *rows);
    unsigned char *swept = realloc(d->swept, (size_t)(d->nrows + f.nrows));
    if (swept) {                       /* for now: the file is a sweep's */
        d->swept = swept;
        memset(swept + d->nrows, gp_meta_get(&f.meta, "sweep") != NULL, (size_t)f.nrows);
    }
    int *lines = realloc(d->row_line, (size_t)(d->nrows + f.nrows) * sizeof *lines);
    char **files = realloc(d->files, (size_t)(d->nfiles + 1) * sizeof *files);
    int *counts = realloc(d->file_rows, (size_t)(d->nfiles + 1) * sizeof *counts);
    if (rows)
        d->rows = rows;
    if (lines)
        d->row_line = lines;
    if (files)
        d->files = files;
    if (counts)
        d->file_rows = counts;
    if (!rows || !swept || !lines || !files || !counts || !(d->files[d->nfiles] = strdup(path))) {
        gp_fmt(err, errlen, "out of memory");
        gp_run_file_free(&f);
        return -1;
    }
    memcpy(d->rows + d->nrows, f.rows, (size_t)f.nrows * sizeof *rows);
    memcpy(d->row_line + d->nrows, f.line, (size_t)f.nrows * sizeof *lines);
    d->nrows += f.nrows;
    d->file_rows[d->nfiles] = f.nrows;
    if (d->nfiles++ == 0)
        d->meta = f.meta;
    else {
        const char *a = gp_meta_get(&d->meta, "gpu_name");
        const char *b = gp_meta_get(&f.meta, "gpu_name");
        if (a && b && strcmp(a, b) != 0)
            gp_warn("%s was measured on %s, %s on %s: drawn together",
                    d->files[0], a, path, b);
    }
    gp_run_file_free(&f);
    return 0;
}

/* Has a row of another file than a sweep's the kernel of row r, and
 * (same_series) r's series? */
static int elsewhere(const gp_dataset *d, const unsigned char *from_sweep, const gp_row *r,
                     int same_series)
{
    gp_key k = { r->kernel, r->precision, r->config };
    for (int j = 0; j < d->nrows; j++) {
        const gp_row *o = &d->rows[j];
        if (!from_sweep[j] && strcmp(o->kernel, r->kernel) == 0 &&
            strcmp(o->precision, r->precision) == 0 && (!same_series || gp_key_match(&k, o, 0)))
            return 1;
    }
    return 0;
}

/* d->swept from "this row is a sweep file's": a config only the sweep ran,
 * of a kernel that a run measured in its own config, is the sweep's
 * series.  A sweep file read alone keeps all its configs (nothing else
 * to show), and a config the ladder ran too is the same fact as the
 * ladder's (one number per kernel, config and shape). */
static int mark_swept(gp_dataset *d)
{
    unsigned char *from_sweep = malloc((size_t)d->nrows + 1);
    if (!from_sweep)
        return -1;
    memcpy(from_sweep, d->swept, (size_t)d->nrows);
    for (int i = 0; i < d->nrows; i++)
        d->swept[i] = from_sweep[i] && !elsewhere(d, from_sweep, &d->rows[i], 1) &&
                      elsewhere(d, from_sweep, &d->rows[i], 0);
    free(from_sweep);
    return 0;
}

/* No --ceilings: a ceilings.csv beside the first data file (where `make
 * probe`-style layouts keep it) is used, and said so. */
static void find_ceilings_beside(const gp_dataset *d, char *out, size_t len)
{
    out[0] = '\0';
    if (!d->nfiles)
        return;
    const char *slash = strrchr(d->files[0], '/');
    int dirlen = slash ? (int)(slash - d->files[0]) : 1;
    gp_fmt(out, len, "%.*s/ceilings.csv", dirlen, slash ? d->files[0] : ".");
    if (access(out, R_OK) != 0)
        out[0] = '\0';
}

int gp_dataset_load(gp_dataset *d, char *const *paths, int npaths,
                    const char *ceilings, char *err, size_t errlen)
{
    memset(d, 0, sizeof *d);
    gp_meta_init(&d->meta);
    err[0] = '\0';
    const char *ceil = ceilings;
    for (int i = 0; i < npaths; i++) {
        if (access(paths[i], R_OK) != 0) {
            gp_fmt(err, errlen, "%s: %s", paths[i], strerror(errno));
            return -1;
        }
        if (header_starts(paths[i], "family,")) {   /* a sweep's tuning table */
            fprintf(stderr, "gemmprof: %s is a tuning table, not a run file: "
                    "skipped\n", paths[i]);
            continue;
        }
        if (is_ceilings_file(paths[i])) {
            if (ceil && strcmp(ceil, paths[i]) != 0) {
                gp_fmt(err, errlen, "%s: a second ceilings file (already have %s)",
                         paths[i], ceil);
                return -1;
            }
            ceil = paths[i];
        } else if (add_run_file(d, paths[i], err, errlen) < 0) {
            return -1;
        }
    }
    if (d->nfiles == 0) {
        gp_fmt(err, errlen, "no run file given (only a ceilings file)");
        return -1;
    }
    if (mark_swept(d) < 0) {
        gp_fmt(err, errlen, "out of memory");
        return -1;
    }
    char beside[4096];
    if (!ceil) {
        find_ceilings_beside(d, beside, sizeof beside);
        if (beside[0]) {
            fprintf(stderr, "gemmprof: using ceilings %s (found beside the data)\n", beside);
            ceil = beside;
        }
    }
    if (ceil && load_ceilings(d, ceil, err, errlen) < 0)
        return -1;
    if (d->ceil) {
        const char *a = gp_meta_get(&d->meta, "gpu_name");
        const char *b = gp_meta_get(&d->ceil->meta, "gpu_name");
        if (a && b && strcmp(a, b) != 0)
            gp_warn("ceilings %s were measured on %s, the data on %s", ceil, b, a);
    }
    return 0;
}

void gp_dataset_free(gp_dataset *d)
{
    free(d->rows);
    free(d->swept);
    free(d->row_line);
    for (int i = 0; i < d->nfiles; i++)
        free(d->files[i]);
    free(d->files);
    free(d->file_rows);
    free(d->ceil);
    memset(d, 0, sizeof *d);
}

int gp_dataset_open(gp_dataset *d, char *const *paths, int npaths, const char *ceilings,
                    const char *family, const char *kernels, gp_families *fams,
                    char *err, size_t errlen)
{
    int chosen = -1;
    if (gp_dataset_load(d, paths, npaths, ceilings, err, errlen) == 0)
        chosen = gp_families_pick(d, family, kernels, fams, err, errlen);
    if (chosen < 0)
        gp_dataset_free(d);
    return chosen;
}
