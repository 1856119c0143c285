/* hotspots.h - where a traced program's GPU time goes: its kernels
 * ranked by total GPU time, each with its share of the whole, launches,
 * median time, GFLOP/s, DRAM arithmetic intensity and the roof that
 * bounds it (roofs.h).  Read from the rows of a `gemmprof trace` run file,
 * one per launch or one per launch configuration (launches, time_total_ms)
 * alike: rows of one series (kernel, precision, config), from any process,
 * count together.  `gemmprof trace` prints the table when CMD exits; the
 * report (report/) and the weighted roofline (plot/) take the same list,
 * so each number is computed once. */
#ifndef GP_DATA_HOTSPOTS_H
#define GP_DATA_HOTSPOTS_H

#include <stdio.h>
#include "ceilings.h"
#include "meta.h"
#include "roofs.h"
#include "row.h"

typedef struct {
    const char *kernel, *precision, *config;   /* the series: pointers into
                                                  the rows it was built from */
    int nrows;               /* rows it was read from                      */
    long launches;           /* sum of the rows' launches (NA counts 1)    */
    double total_ms;         /* GPU time: sum of time_total_ms (a trace
                                row's profiled launches at the mean of its
                                reps unprofiled ones), or for a row without
                                it time_ms x launches; NAN if no row has a
                                time                                      */
    double share;            /* % of every series' total; NAN untimed      */
    double median_ms;        /* median launch time: the rows' time_ms, each
                                weighted by its launches                  */
    double gflops, ai_dram;  /* median over the rows that have one         */
    gp_bound bound;          /* from ai_dram under its precision's roofs   */
} gp_hotspot;

typedef struct {
    gp_hotspot *h;           /* timed ones by total, largest first; then
                                the untimed, in the order of the file     */
    int n;
    double total_ms;         /* all of them together                        */
    long launches;
} gp_hotspots;

/* Rank the series of rows[0..n).  Roofs come from `ceil` (may be NULL)
 * and the run file's metadata `meta` (gp_roofs_of).  Rows whose status is
 * "skipped: ..." ran nothing and are left out.  0, or -1 out of memory. */
int gp_hotspots_of(const gp_row *rows, int n, const gp_ceilings *ceil, const gp_meta *meta,
                   gp_hotspots *out);
void gp_hotspots_free(gp_hotspots *hs);

/* How many rows a table of the first `top` shows before its "other" row:
 * `top` (at most hs->n), fewer only where the list is shorter. */
int gp_hotspots_shown(const gp_hotspots *hs, int top);
/* The series after the first `top`, together: launches, total_ms and
 * share summed; median, GFLOP/s, intensity NAN; nrows = how many series.
 * 0 if there are none. */
int gp_hotspots_rest(const gp_hotspots *hs, int top, gp_hotspot *other);

/* A kernel's name as the table shows it: gp_kernel_label cut to `max`
 * characters, with a compact config ("66x2x1/384") where another series
 * of hs[0..shown) has the same kernel, or the word that tells it from the
 * others of its label (gp_kernel_tell_apart over all of hs) where one of
 * hs[0..shown) shares its label. */
void gp_hotspot_name(const gp_hotspots *hs, int shown, int i, int max, char *out,
                     size_t len);

/* The terminal table: a heading line, one line per series of the first
 * `top`, then "other (N kernels)".  `what` names the file. */
void gp_hotspots_print(FILE *f, const gp_hotspots *hs, int top, const char *what);
/* Read the run file `path` and print its table; the ceilings are the
 * file at `ceilings` if given and readable, else the GPU's theoretical
 * roofs from the run file's metadata.  0, or -1 with err. */
int gp_hotspots_print_file(FILE *f, const char *path, const char *ceilings, int top,
                           char *err, size_t errlen);

#endif
